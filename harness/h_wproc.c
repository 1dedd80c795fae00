/* h_wproc.c - the worker process: catches fatal signals (to say where and
 * what the implementation touched), keeps the guard pages protected, and
 * calls supports, infer and each run's execute for every job it reads.
 */
#define _GNU_SOURCE /* REG_ERR: tell a write fault from a read fault */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

#include "h_wproto.h"

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

int h_read_full(int fd, void *buf, size_t n)
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

int h_write_full(int fd, const void *buf, size_t n)
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

    while (h_read_full(in, &job, sizeof job) == 0) {
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
        if (h_write_full(w_out, &m, sizeof m))
            break;
    }
}

void h_wproc_main(const char *path, int in, int out, uint8_t *arena)
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
    if (h_write_full(out, &m, sizeof m) == 0 && m.ok)
        serve(impl, in, h_worker_page());
    _exit(0);
}
