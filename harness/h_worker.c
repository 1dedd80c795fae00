/* h_worker.c - the harness side of running an untrusted implementation:
 * the shared arena, forking a worker per library (again after each crash
 * or hang), sending jobs, waiting with a timeout, reaping.  The worker
 * process itself is h_wproc.c.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "h_wproto.h"

struct h_worker {
    char path[1024];
    char name[64];
    pid_t pid;
    int to_w, from_w;
    uint8_t *arena;
    size_t cap;
};

/* Every worker of this selcheck: a new worker closes the pipes of the
 * others, or they would never see the end of their input. */
static h_worker *workers[64];
static int nworkers;

size_t h_worker_page(void)
{
    static size_t ps;
    if (!ps)
        ps = (size_t)sysconf(_SC_PAGESIZE);
    return ps;
}

static void reap(h_worker *w, h_jres *res)
{
    int status = 0, i;

    if (w->pid <= 0)
        return;
    /* It is exiting (EOF, a fatal signal): give it 0.5 s, then kill. */
    for (i = 0; i < 4000 && waitpid(w->pid, &status, WNOHANG) == 0; i++) {
        struct timespec ts = {0, 250000};
        if (i == 2000)
            kill(w->pid, SIGKILL);
        nanosleep(&ts, NULL);
    }
    if (i == 4000) {
        kill(w->pid, SIGKILL);
        waitpid(w->pid, &status, 0);
    }
    if (res && WIFSIGNALED(status) && !res->signo)
        res->signo = WTERMSIG(status);
    if (res && WIFEXITED(status))
        res->exit_status = WEXITSTATUS(status);
    close(w->to_w);
    close(w->from_w);
    w->pid = 0;
}

static int spawn(h_worker *w, char *err, size_t n)
{
    int p1[2], p2[2];
    struct pollfd pf;
    wmsg m;

    if (pipe(p1) || pipe(p2)) {
        snprintf(err, n, "pipe: %s", strerror(errno));
        return -1;
    }
    fflush(stdout);
    fflush(stderr);
    w->pid = fork();
    if (w->pid < 0) {
        snprintf(err, n, "fork: %s", strerror(errno));
        return -1;
    }
    if (w->pid == 0) {
        int i;
        for (i = 0; i < nworkers; i++)
            if (workers[i] != w && workers[i]->pid > 0) {
                close(workers[i]->to_w);
                close(workers[i]->from_w);
            }
        close(p1[1]);
        close(p2[0]);
        h_wproc_main(w->path, p1[0], p2[1], w->arena);
    }
    close(p1[0]);
    close(p2[1]);
    w->to_w = p1[1];
    w->from_w = p2[0];
    pf.fd = w->from_w;
    pf.events = POLLIN;
    if (poll(&pf, 1, 60000) <= 0 || h_read_full(w->from_w, &m, sizeof m) ||
        m.kind != M_HELLO) {
        h_jres r;
        memset(&r, 0, sizeof r);
        kill(w->pid, SIGKILL);
        reap(w, &r);
        snprintf(err, n, "%s: died while loading (%s)", w->path,
                 r.signo ? strsignal(r.signo) : "no answer");
        return -1;
    }
    if (!m.ok) {
        reap(w, NULL);
        snprintf(err, n, "%s: %s", w->path, m.text);
        return -1;
    }
    snprintf(w->name, sizeof w->name, "%.40s", m.text);
    return 0;
}

static int map_arena(h_worker *w, size_t cap)
{
    size_t ps = h_worker_page();

    cap = (cap + ps - 1) / ps * ps;
    w->arena = mmap(NULL, cap, PROT_READ | PROT_WRITE,
                    MAP_SHARED | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (w->arena == MAP_FAILED) {
        w->arena = NULL;
        return -1;
    }
    w->cap = cap;
    return 0;
}

h_worker *h_worker_start(const char *lib, size_t arena, char *err, size_t n)
{
    h_worker *w = calloc(1, sizeof *w);

    /* A worker that died between jobs is an EPIPE, not the end of us. */
    signal(SIGPIPE, SIG_IGN);
    if (!w || strlen(lib) >= sizeof w->path || map_arena(w, arena)) {
        snprintf(err, n, "%s: cannot set up a worker", lib);
        free(w);
        return NULL;
    }
    strcpy(w->path, lib);
    if (nworkers == (int)(sizeof workers / sizeof *workers)) {
        snprintf(err, n, "%s: too many libraries", lib);
        munmap(w->arena, w->cap);
        free(w);
        return NULL;
    }
    workers[nworkers++] = w;
    if (spawn(w, err, n)) {
        nworkers--;
        munmap(w->arena, w->cap);
        free(w);
        return NULL;
    }
    return w;
}

const char *h_worker_name(const h_worker *w) { return w->name; }
const char *h_worker_path(const h_worker *w) { return w->path; }

/* The arena, at least need bytes; a larger arena means a new worker. */
uint8_t *h_worker_arena(h_worker *w, size_t need)
{
    char err[300];
    size_t cap = w->cap;

    if (need > w->cap) {
        if (w->pid > 0) {
            kill(w->pid, SIGKILL);
            reap(w, NULL);
        }
        munmap(w->arena, w->cap);
        while (cap < need)
            cap *= 2;
        if (map_arena(w, cap)) {
            fprintf(stderr, "selcheck: cannot map %zu bytes\n", cap);
            exit(2);
        }
    }
    if (w->pid <= 0 && spawn(w, err, sizeof err)) {
        fprintf(stderr, "selcheck: cannot restart the worker: %s\n", err);
        exit(2);
    }
    return w->arena;
}

void h_worker_call(h_worker *w, const h_job *job, int timeout, h_jres *res)
{
    struct timespec t0, now;
    struct pollfd pf;
    long left;
    wmsg m;

    memset(res, 0, sizeof *res);
    res->exit_status = -1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (h_write_full(w->to_w, job, sizeof *job)) {
        res->died = 1;
        reap(w, res);
        return;
    }
    pf.fd = w->from_w;
    pf.events = POLLIN;
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        left = (long)timeout * 1000 - ((now.tv_sec - t0.tv_sec) * 1000 +
                                       (now.tv_nsec - t0.tv_nsec) / 1000000);
        int ready = left > 0 ? poll(&pf, 1, (int)left) : 0;
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready == 0) {
            res->died = 1;
            res->timeout = timeout;
            res->phase = *(volatile int *)w->arena;
            kill(w->pid, SIGKILL);
            reap(w, NULL);
            return;
        }
        if (h_read_full(w->from_w, &m, sizeof m)) { /* EOF: it died */
            res->died = 1;
            if (!res->phase)
                res->phase = *(volatile int *)w->arena;
            reap(w, res);
            return;
        }
        if (m.kind == M_DONE) {
            *res = m.r;
            res->exit_status = -1;
            return;
        }
        if (m.kind == M_FAULT) {
            res->signo = m.r.signo;
            res->fault = m.r.fault;
            res->write = m.r.write;
            res->addr = m.r.addr;
            res->phase = m.r.phase;
        }
    }
}

void h_worker_stop(h_worker *w)
{
    int i;

    if (!w)
        return;
    for (i = 0; i < nworkers; i++)
        if (workers[i] == w)
            workers[i] = workers[--nworkers];
    if (w->pid > 0) {
        close(w->to_w); /* EOF ends serve() */
        w->to_w = -1;
        reap(w, NULL);
    }
    munmap(w->arena, w->cap);
    free(w);
}
