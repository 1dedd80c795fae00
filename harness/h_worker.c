/* h_worker.c - the process that calls an untrusted implementation.  It is
 * forked once per library (and again after each crash or hang), dlopens
 * the library, then serves jobs over a pipe; buffers live in an arena
 * mapped shared before the fork, so both processes see them at one address.
 */
#define _GNU_SOURCE /* REG_ERR: tell a write fault from a read fault */
#include <dlfcn.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "h_worker.h"

enum { M_HELLO = 1, M_DONE, M_FAULT };

/* Every message is one write() below PIPE_BUF, so it arrives whole. */
typedef struct wmsg {
    int kind;
    int ok;
    char text[200];
    h_jres r;
} wmsg;

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

/* ---- the worker process ------------------------------------------------ */

static int w_out = -1;
static volatile int *w_phase; /* in the arena's first page: read after a hang */
static _Thread_local int t_phase;
static wmsg fault_msg;

/* Async-signal-safe: fill a static message, write it, die by the signal. */
static void on_fatal(int sig, siginfo_t *si, void *ctx)
{
    sigset_t set;

    fault_msg.kind = M_FAULT;
    fault_msg.r.signo = sig;
    fault_msg.r.fault = si->si_code > 0 && (sig == SIGSEGV || sig == SIGBUS);
    fault_msg.r.addr = (uintptr_t)si->si_addr;
    fault_msg.r.write = -1;
#if defined(__x86_64__) && defined(REG_ERR)
    if (fault_msg.r.fault && ctx)
        fault_msg.r.write =
            (((ucontext_t *)ctx)->uc_mcontext.gregs[REG_ERR] & 2) != 0;
#else
    (void)ctx;
#endif
    fault_msg.r.phase = t_phase;
    if (write(w_out, &fault_msg, sizeof fault_msg) < 0)
        fault_msg.kind = 0;
    signal(sig, SIG_DFL);
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    _exit(128 + sig);
}

static void catch_fatal(void)
{
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT,
                               SIGTRAP, SIGSYS};
    static uint8_t altstack[1 << 16];
    struct sigaction sa;
    stack_t ss;
    size_t i;

    ss.ss_sp = altstack;
    ss.ss_size = sizeof altstack;
    ss.ss_flags = 0;
    sigaltstack(&ss, NULL);
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fatal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (i = 0; i < sizeof sigs / sizeof *sigs; i++)
        sigaction(sigs[i], &sa, NULL);
}

static int read_full(int fd, void *buf, size_t n)
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

static int write_full(int fd, const void *buf, size_t n)
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

static void set_phase(int ph)
{
    t_phase = ph;
    *w_phase = ph;
}

/* Guard pages stay protected from one job to the next; only the pages
 * that change role cost a system call (small tests reuse one layout). */
static uint8_t *cur_guard[H_GUARDS_MAX];
static int ncur;

static int has(uint8_t *const *v, int n, const uint8_t *p)
{
    int i;
    for (i = 0; i < n; i++)
        if (v[i] == p)
            return 1;
    return 0;
}

static void protect(const h_job *job, size_t ps)
{
    int i;

    for (i = 0; i < ncur; i++)
        if (!has(job->guards, job->nguards, cur_guard[i]))
            mprotect(cur_guard[i], ps, PROT_READ | PROT_WRITE);
    for (i = 0; i < job->nguards; i++)
        if (!has(cur_guard, ncur, job->guards[i]))
            mprotect(job->guards[i], ps, PROT_NONE);
    memcpy(cur_guard, job->guards, (size_t)job->nguards * sizeof *cur_guard);
    ncur = job->nguards;
}

typedef struct tens {
    sel_tensor t[H_NT];
    const sel_tensor *p[H_NT];
} tens;

static void to_tensors(h_jrun *r, tens *o)
{
    int k;
    for (k = 0; k < H_NT; k++) {
        o->t[k].dtype = r->t[k].dtype;
        o->t[k].rank = r->t[k].rank;
        o->t[k].dims = r->t[k].null_dims ? NULL : r->t[k].dims;
        o->t[k].data = r->t[k].data;
        o->p[k] = r->t[k].null_tensor ? NULL : &o->t[k];
    }
}

typedef struct thr {
    const sel_impl *impl;
    const h_job *job;
    h_jrun *run;
    int phase, st;
    pthread_barrier_t *bar;
} thr;

static void *thread_exec(void *arg)
{
    thr *a = arg;
    tens t;

    to_tensors(a->run, &t);
    pthread_barrier_wait(a->bar);
    t_phase = a->phase;
    a->st = a->impl->execute(t.p[0], t.p[1], t.p[2], a->job->b,
                             (sel_tensor *)t.p[3]);
    return NULL;
}

static void concurrent(const sel_impl *impl, h_job *job, int first,
                       h_jres *res)
{
    pthread_barrier_t bar;
    pthread_t th[2];
    thr a[2];
    int i;

    set_phase(H_PH_EXEC0 + first);
    pthread_barrier_init(&bar, NULL, 2);
    for (i = 0; i < 2; i++) {
        a[i].impl = impl;
        a[i].job = job;
        a[i].run = &job->run[first + i];
        a[i].phase = H_PH_EXEC0 + first + i;
        a[i].bar = &bar;
        if (pthread_create(&th[i], NULL, thread_exec, &a[i]) != 0)
            _exit(120);
    }
    for (i = 0; i < 2; i++) {
        pthread_join(th[i], NULL);
        res->exec_st[first + i] = a[i].st;
    }
    pthread_barrier_destroy(&bar);
}

/* An invalid case the implementation accepted: give execute a dst of the
 * shape its infer returned, as a caller would, if it fits the spare slot. */
static void dst_from_infer(h_job *job, h_jres *res)
{
    h_jten *d = &job->run[0].t[H_T_DST];
    size_t es = sel_dtype_size(d->dtype), bytes = es ? es : 1;
    int32_t i;

    if (res->infer_st != SEL_OK || res->rank < 0 || res->rank > SEL_MAX_RANK)
        return;
    for (i = 0; i < res->rank; i++) {
        if (res->dims[i] < 0 ||
            (res->dims[i] && bytes > job->spare_cap / (size_t)res->dims[i]))
            return;
        bytes *= (size_t)res->dims[i];
    }
    if (es == 0 || bytes > job->spare_cap)
        return;
    d->rank = res->rank;
    d->dims = job->dst_dims_end - res->rank;
    memcpy(d->dims, res->dims, (size_t)res->rank * sizeof *d->dims);
    d->data = job->spare_end - bytes;
}

static void serve(const sel_impl *impl, int in, size_t ps)
{
    h_job job;
    wmsg m;
    tens t;
    int r, last;

    while (read_full(in, &job, sizeof job) == 0) {
        memset(&m, 0, sizeof m);
        m.kind = M_DONE;
        protect(&job, ps);
        set_phase(H_PH_SUPPORTS);
        m.r.supported = impl->supports(job.sup_dtype, job.sup_btype) != 0;
        if (m.r.supported) {
            set_phase(H_PH_INFER);
            to_tensors(&job.run[0], &t);
            m.r.infer_st = impl->infer(t.p[0], t.p[1], t.p[2], job.b,
                                       job.rank_out, job.dims_out);
            m.r.rank = *job.rank_out;
            memcpy(m.r.dims, job.dims_out, sizeof m.r.dims);
            if (job.dst_from_infer)
                dst_from_infer(&job, &m.r);
            last = job.nruns - (job.concurrent ? 2 : 0);
            for (r = 0; r < last; r++) {
                set_phase(H_PH_EXEC0 + r);
                to_tensors(&job.run[r], &t);
                m.r.exec_st[r] = impl->execute(t.p[0], t.p[1], t.p[2], job.b,
                                               (sel_tensor *)t.p[3]);
            }
            if (job.concurrent)
                concurrent(impl, &job, last, &m.r);
            m.r.nexec = job.nruns;
        }
        set_phase(H_PH_IDLE);
        if (write_full(w_out, &m, sizeof m))
            break;
    }
}

static void worker_main(const char *path, int in, int out, uint8_t *arena)
{
    sel_get_impl_fn get;
    const sel_impl *impl = NULL;
    void *h;
    wmsg m;

    w_out = out;
    w_phase = (volatile int *)arena;
#ifdef __linux__
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* no orphan if selcheck is killed */
#endif
    /* The implementation may print; stdout belongs to TAP. */
    dup2(2, 1);
    catch_fatal();
    memset(&m, 0, sizeof m);
    m.kind = M_HELLO;
    set_phase(H_PH_IDLE);
    h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    *(void **)&get = h ? dlsym(h, "sel_get_impl") : NULL;
    if (!h)
        snprintf(m.text, sizeof m.text, "cannot load: %s", dlerror());
    else if (!get)
        snprintf(m.text, sizeof m.text, "does not export sel_get_impl");
    else if (!(impl = get()))
        snprintf(m.text, sizeof m.text, "sel_get_impl() returned NULL");
    else if (impl->abi_version != SEL_ABI_VERSION)
        snprintf(m.text, sizeof m.text,
                 "ABI version %u, this selcheck speaks %d",
                 (unsigned)impl->abi_version, SEL_ABI_VERSION);
    else if (!impl->supports || !impl->infer || !impl->execute)
        snprintf(m.text, sizeof m.text, "a NULL function in its sel_impl");
    else {
        size_t i;
        const char *nm = impl->name ? impl->name : "?";
        m.ok = 1;
        for (i = 0; nm[i] && i < 40; i++) /* printable, for TAP */
            m.text[i] = nm[i] > ' ' && nm[i] < 127 && nm[i] != '#' ? nm[i] : '_';
    }
    if (write_full(out, &m, sizeof m) == 0 && m.ok)
        serve(impl, in, h_worker_page());
    _exit(0);
}

/* ---- the harness side -------------------------------------------------- */

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
        worker_main(w->path, p1[0], p2[1], w->arena);
    }
    close(p1[0]);
    close(p2[1]);
    w->to_w = p1[1];
    w->from_w = p2[0];
    pf.fd = w->from_w;
    pf.events = POLLIN;
    if (poll(&pf, 1, 60000) <= 0 || read_full(w->from_w, &m, sizeof m) ||
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
    if (write_full(w->to_w, job, sizeof *job)) {
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
        if (read_full(w->from_w, &m, sizeof m)) { /* EOF: it died */
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
