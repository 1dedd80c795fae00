/* h_worker.c - the judge's side of running an untrusted implementation:
 * the arena (a memfd shared with one worker only), starting selcheck-worker
 * in its own user and PID namespace, sending jobs, waiting, reaping.
 */
#define _GNU_SOURCE /* memfd_create, pipe2, clone flags */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "h_wcheck.h"
#include "h_wspawn.h"
#include "h_wtime.h"

struct h_worker {
    char path[1024];
    char name[64];
    h_wchild p;             /* the running worker (p.pid 0: none) */
    int memfd;
    uint8_t *arena;
    size_t cap;
    uint32_t seq;
    int timeout;            /* --timeout: the cap, seconds */
    int told;               /* the sandbox's gaps were announced in TAP */
    h_wtime tm;
    uint8_t *guards[H_GUARDS_MAX];
    int nguards;
};

size_t h_worker_page(void)
{
    static size_t ps;
    if (!ps)
        ps = (size_t)sysconf(_SC_PAGESIZE);
    return ps;
}

static int map_arena(h_worker *w, size_t cap)
{
    size_t ps = h_worker_page();

    cap = (cap + ps - 1) / ps * ps;
    w->memfd = memfd_create("selcheck-arena", MFD_CLOEXEC);
    if (w->memfd < 0 || ftruncate(w->memfd, (off_t)cap)) {
        if (w->memfd >= 0)
            close(w->memfd);
        return -1;
    }
    w->arena = mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_SHARED, w->memfd, 0);
    if (w->arena == MAP_FAILED) {
        w->arena = NULL;
        close(w->memfd);
        return -1;
    }
    w->cap = cap;
    w->nguards = 0; /* new pages: every guard gets its pattern */
    return 0;
}

static void unmap_arena(h_worker *w)
{
    munmap(w->arena, w->cap);
    close(w->memfd);
    w->arena = NULL;
}

static int start(h_worker *w, char *err, size_t n)
{
    h_warena a = {w->memfd, w->arena, w->cap};
    int rc = h_wspawn(&w->p, w->path, &a, w->timeout, w->name,
                      sizeof w->name, err, n);
    return rc;
}

h_worker *h_worker_start(const char *lib, size_t arena, int timeout, char *err,
                         size_t n)
{
    h_worker *w = calloc(1, sizeof *w);

    h_wspawn_init();
    if (!w || strlen(lib) >= sizeof w->path || map_arena(w, arena)) {
        snprintf(err, n, "%s: cannot set up a worker", lib);
        free(w);
        return NULL;
    }
    strcpy(w->path, lib);
    w->timeout = timeout > 0 ? timeout : 10;
    if (start(w, err, n)) {
        unmap_arena(w);
        free(w);
        return NULL;
    }
    return w;
}

const char *h_worker_name(const h_worker *w) { return w->name; }
const char *h_worker_path(const h_worker *w) { return w->path; }

/* The arena, at least need bytes; a larger arena means a new worker.  A
 * worker that died is started again by the next call. */
uint8_t *h_worker_arena(h_worker *w, size_t need)
{
    size_t cap = w->cap;

    if (need > w->cap) {
        h_wspawn_kill(&w->p, NULL);
        unmap_arena(w);
        while (cap < need)
            cap *= 2;
        if (map_arena(w, cap)) {
            fprintf(stderr, "selcheck: cannot map %zu bytes\n", cap);
            exit(2);
        }
    }
    return w->arena;
}

/* Bytes the job moves: every tensor of every run, from the dims as we
 * wrote them (before the implementation could touch them). */
static uint64_t job_bytes(const h_job *job)
{
    uint64_t total = 0;
    int r, k;
    int32_t i;

    for (r = 0; r < job->nruns; r++)
        for (k = 0; k < H_NT; k++) {
            const h_jten *t = &job->run[r].t[k];
            uint64_t b = sel_dtype_size(t->dtype);
            for (i = 0; t->dims && i < t->rank && i < SEL_MAX_RANK; i++)
                b = t->dims[i] >= 0 && (uint64_t)t->dims[i] < (1ull << 40)
                        ? b * (uint64_t)t->dims[i] : b;
            total += b < (1ull << 40) ? b : 0;
        }
    return total;
}

static double ms_since(const struct timespec *t0)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - t0->tv_sec) * 1e3 +
           (double)(now.tv_nsec - t0->tv_nsec) / 1e6;
}

/* The worker died after the previous test's reply, having said so in
 * m (when have): a thread of the library was still running. */
static void died_after(h_worker *w, const h_wrep *m, int have, uint32_t seq,
                       h_jres *res)
{
    res->died = 1;
    if (have && m->magic == H_WMAGIC && m->kind == M_FAULT && m->seq == seq &&
        m->signo > 0 && m->signo <= 64) {
        res->signo = m->signo;
        res->late = m->late ? -1 : 0;
    }
    h_wspawn_kill(&w->p, res->signo || !have ? res : NULL);
    res->phase = H_PH_IDLE;
    snprintf(res->tamper, sizeof res->tamper, "the worker %s after the "
             "previous test's reply%s", res->signo ? "crashed" : "died",
             res->late ? ": a thread of the library wrote to that test's dst "
             "after execute had returned" : " (a thread of the library still "
             "running)");
}

/* A message or an EOF waiting before the job was sent: a crash after the
 * previous reply, or bytes no job asked for. */
static int stale(h_worker *w, h_jres *res)
{
    h_wrep m;
    int rd;

    if (w->p.pid <= 0 || !h_wspawn_readable(&w->p))
        return 0;
    rd = h_wspawn_read(&w->p, &m, sizeof m, 20);
    if (rd == -1 || (rd == 0 && m.magic == H_WMAGIC && m.kind == M_FAULT &&
                     m.seq == w->seq)) {
        died_after(w, &m, rd == 0, w->seq, res);
        return 1;
    }
    snprintf(res->bad, sizeof res->bad, "%s between jobs", rd ? "bytes"
             : "a message");
    h_wspawn_kill(&w->p, NULL);
    return 1;
}

static void hang(h_worker *w, uint64_t bytes, int limit, h_jres *res)
{
    res->died = 1;
    res->timeout_ms = limit;
    res->timeout = (limit + 999) / 1000;
    res->phase = *(volatile int *)w->arena;
    if (res->phase < 0 || res->phase >= H_PH_EXEC0 + H_RUNS_MAX)
        res->phase = H_PH_IDLE;
    h_wtime_hang(&w->tm, bytes);
    h_wspawn_kill(&w->p, NULL);
}

/* Reads messages until M_DONE, death or the limit. */
static void wait_reply(h_worker *w, const h_job *job, uint64_t bytes,
                       int limit, h_jres *res)
{
    struct timespec t0;
    int fault = 0, rd = 0;
    h_wrep m;

    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        int left = limit - (int)ms_since(&t0);
        int ready = left > 0 ? h_wspawn_wait(&w->p, left) : 0;
        if (ready == 0)
            return hang(w, bytes, limit, res);
        if (ready > 0 && (rd = h_wspawn_read(&w->p, &m, sizeof m,
                                             left > 100 ? left : 100)) == -2) {
            snprintf(res->bad, sizeof res->bad, "a reply cut short");
            h_wspawn_kill(&w->p, NULL);
            return;
        }
        if (ready < 0 || rd) {
            res->died = 1; /* EOF, or the worker's process ended */
            if (!res->phase)
                res->phase = *(volatile int *)w->arena;
            if (res->phase < 0 || res->phase >= H_PH_EXEC0 + job->nruns)
                res->phase = H_PH_IDLE;
            h_wspawn_kill(&w->p, res);
            return;
        }
        if (!fault && m.magic == H_WMAGIC && m.kind == M_FAULT &&
            m.seq == w->seq - 1) { /* crashed just as we sent this job */
            died_after(w, &m, 1, w->seq - 1, res);
            return;
        }
        if (fault && m.magic == H_WMAGIC && m.seq == w->seq &&
            (m.kind == M_DONE || m.kind == M_FAULT))
            continue; /* other threads finished or faulted as one died */
        if (h_wcheck_reply(&m, w->seq, job, fault, res)) {
            h_wspawn_kill(&w->p, NULL);
            return;
        }
        if (m.kind == M_DONE) {
            h_wtime_done(&w->tm, bytes, ms_since(&t0));
            return;
        }
        fault = 1;
    }
}

/* Notes go out with the verdict (res->note): the judge prints them as
 * TAP comments, so this file needs nothing of the TAP side. */
static void announce(h_worker *w, h_jres *res)
{
    w->told = 1;
    if (w->p.missing[0])
        snprintf(res->note, sizeof res->note, "sandbox of %s: %.200s "
                 "(harness/README.md, threat model, says what this leaves "
                 "possible)", w->name, w->p.missing);
}

/* The diagnosis of a hang cluster: once per size class. */
static void tell_short(h_worker *w, uint64_t bytes, int limit, int timeout,
                       h_jres *res)
{
    int cls = h_wtime_class(bytes);
    char sz[64];

    if (w->tm.told[cls])
        return;
    w->tm.told[cls] = 1;
    if (cls == 0)
        snprintf(sz, sizeof sz, "below %d bytes", H_WT_SMALL);
    else
        snprintf(sz, sizeof sz, "%llu to %llu bytes", 1ull << (cls - 1),
                 (cls >= 64 ? 0 : 1ull << cls) - 1);
    snprintf(res->note, sizeof res->note, "timeouts of %s: %d hangs on "
             "tests of %s; the limit for that size is now %d ms (--timeout "
             "%d s stays the cap)", w->name, H_WT_HANGS, sz, limit, timeout);
}

static void restart(h_worker *w, h_jres *res)
{
    char err[400];

    if (start(w, err, sizeof err)) {
        res->died = 1;
        res->phase = H_PH_IDLE;
        snprintf(res->tamper, sizeof res->tamper, "the worker could not be "
                 "started again: %.150s", err);
    }
}

void h_worker_call(h_worker *w, const h_job *job, int timeout, h_jres *res)
{
    uint64_t bytes = job_bytes(job);
    int limit, shortened;
    h_wjob wj;

    memset(res, 0, sizeof *res);
    res->exit_status = -1;
    res->guard = -1;
    w->timeout = timeout;
    if (stale(w, res))
        return;
    if (w->p.pid <= 0 && (restart(w, res), res->died))
        return;
    if (!w->told)
        announce(w, res);
    limit = h_wtime_limit(&w->tm, bytes, timeout, &shortened);
    if (shortened)
        tell_short(w, bytes, limit, timeout, res);
    h_wcheck_fill(job, w->guards, &w->nguards, h_worker_page());
    memset(&wj, 0, sizeof wj);
    wj.magic = H_WMAGIC;
    wj.seq = ++w->seq;
    wj.job = *job;
    if (h_write_full(w->p.to_w, &wj, sizeof wj)) {
        res->died = 1;
        h_wspawn_kill(&w->p, res);
        return;
    }
    wait_reply(w, job, bytes, limit, res);
    if (!res->died && !res->bad[0] && !res->tamper[0])
        h_wcheck_guards(job, h_worker_page(), res->unprotected, res);
    if (res->bad[0] || res->tamper[0])
        h_wspawn_kill(&w->p, NULL); /* a fresh worker for the next test */
}

void h_worker_stop(h_worker *w)
{
    if (!w)
        return;
    h_wspawn_kill(&w->p, NULL);
    unmap_arena(w);
    free(w);
}
