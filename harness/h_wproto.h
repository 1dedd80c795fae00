/* h_wproto.h - the wire between selcheck (the judge, h_worker.c) and
 * selcheck-worker (h_wproc.c, h_wmain.c): the worker's fds and argv, the
 * job and reply messages with their sequence numbers, whole-buffer I/O.
 */
#ifndef H_WPROTO_H
#define H_WPROTO_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include "h_worker.h"

/* The worker's fds: the arena (a memfd), jobs in, replies out, and (in a
 * namespace) the wait status of the worker, written by its init. */
enum { H_WFD_ARENA = 3, H_WFD_IN, H_WFD_OUT, H_WFD_STATUS };
#define H_WMAGIC 0x53454c57u /* "SELW" */

enum { M_HELLO = 1, M_DONE, M_FAULT };

/* argv: selcheck-worker LIB ARENA_BYTES JUDGE_BASE(hex) NS(0|1).  The
 * job's pointers are the judge's; the worker rebases them. */
typedef struct h_wjob {
    uint32_t magic, seq;
    h_job job;
} h_wjob;

/* What the worker saw: raw facts, never a verdict.  The judge checks every
 * field before it believes one (h_wcheck.c).  One write() below PIPE_BUF. */
typedef struct h_wrep {
    uint32_t magic, seq;
    int32_t kind, ok;
    char text[160];          /* M_HELLO: the name, or why it cannot load */
    int32_t supported, infer_st, rank, nexec;
    int64_t dims[SEL_MAX_RANK];
    int32_t exec_st[H_RUNS_MAX];
    int32_t signo, fault, write, phase, syscall;
    uint64_t addr;           /* a fault's address, in the judge's terms */
    int32_t late;            /* run + 1 whose dst was written after its execute returned */
    uint32_t handlers;       /* bit 0: SIGSEGV's handler was replaced; bit 1: SIGBUS */
    int32_t children;        /* processes of the library alive after the calls */
    int32_t unprotected;     /* guard + 1 found readable after the calls */
    uint64_t wbase;          /* M_HELLO: where the arena is mapped in the worker */
    int32_t wpid;            /* M_HELLO: the worker's pid as it sees it */
    char sandbox[120];       /* M_HELLO: what of the sandbox failed ("" all set) */
} h_wrep;

_Static_assert(sizeof(h_wrep) < 4096, "a reply is one atomic pipe write");

/* 0, or -1 at EOF or on an error. */
static inline int h_read_full(int fd, void *buf, size_t n)
{
    uint8_t *p = buf;
    while (n) {
        ssize_t got = read(fd, p, n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return -1;
        p += got;
        n -= (size_t)got;
    }
    return 0;
}

static inline int h_write_full(int fd, const void *buf, size_t n)
{
    const uint8_t *p = buf;
    while (n) {
        ssize_t put = write(fd, p, n);
        if (put < 0 && errno == EINTR)
            continue;
        if (put <= 0)
            return -1;
        p += put;
        n -= (size_t)put;
    }
    return 0;
}

/* The worker (h_wproc.c): load path, say hello, serve jobs; never returns.
 * delta: the worker's arena address minus the judge's. */
void h_wproc_main(const char *path, uint8_t *arena, size_t size,
                  intptr_t delta);
/* harness/t/wfuzz.c: writes m, or a mangled m, for the protocol fuzzer. */
int h_wfuzz_send(int fd, const h_wrep *m);
/* What of the sandbox could not be set up, for the hello message. */
void h_wproc_sandbox(const char *missing);

#endif
