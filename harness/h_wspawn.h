/* h_wspawn.h - one worker process as the judge sees it: started with
 * fork + exec of selcheck-worker, in a new user and PID namespace where
 * the kernel allows it; waited on; killed with its whole process group.
 */
#ifndef H_WSPAWN_H
#define H_WSPAWN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "h_worker.h"

typedef struct h_warena {
    int fd;            /* the memfd, passed to this worker only */
    uint8_t *base;     /* our mapping */
    size_t size;
} h_warena;

typedef struct h_wchild {
    pid_t pid;         /* what we started: the worker, or its namespace's init */
    int pidfd;         /* -1 where pidfd_open is missing */
    int to_w, from_w, status_fd;
    int ns;            /* in its own user and PID namespace */
    int wpid;          /* the worker's pid as we see it (its /proc entry) */
    intptr_t delta;    /* its arena address minus ours */
    char missing[240]; /* what of the sandbox is missing ("": nothing) */
} h_wchild;

/* Once per selcheck: no same-uid process may ptrace us or write our
 * /proc/<pid>/mem (not dumpable); SIGPIPE ignored; the worker found. */
void h_wspawn_init(void);
/* Starts a worker for lib, waits for its hello (timeout seconds); 0 with
 * the implementation's name, or -1 with a one-line reason. */
int h_wspawn(h_wchild *c, const char *lib, const h_warena *a, int timeout,
             char *name, size_t nn, char *err, size_t n);
/* 1: a message to read; -1: the worker ended (EOF or exit); 0: ms passed. */
int h_wspawn_wait(h_wchild *c, int ms);
int h_wspawn_readable(h_wchild *c);
/* n bytes of a message within ms: 0; -1 at EOF; -2 when only some came
 * (in time, or before EOF): a reply cut short. */
int h_wspawn_read(h_wchild *c, void *buf, size_t n, int ms);
/* Kills the process group and reaps; res (if any) gets the signal or exit
 * status, after a short grace for a worker that is already dying. */
void h_wspawn_kill(h_wchild *c, h_jres *res);

#endif
