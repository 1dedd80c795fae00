/* h_wproc.c - the worker's calls: loads the implementation, serves each
 * job (supports, infer, every run's execute) and reports raw facts, with
 * the checks after the calls that only the worker can make.
 */
#define _GNU_SOURCE /* REG_ERR: tell a write fault from a read fault */
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <ucontext.h>

#include "h_wmem.h"
#include "h_wproto.h"

static volatile int *w_phase; /* in the arena's first page: read after a hang */
static _Thread_local int t_phase;
static intptr_t w_delta;      /* worker address - judge address */
static h_wrep fault_msg;
static volatile uint32_t w_seq;
static char w_sandbox[120];

void h_wproc_sandbox(const char *missing)
{
    snprintf(w_sandbox, sizeof w_sandbox, "%s", missing);
}

/* Async-signal-safe: fill a static message, write it, die by the signal. */
static void on_fatal(int sig, siginfo_t *si, void *ctx)
{
    sigset_t set;

    fault_msg.magic = H_WMAGIC;
    fault_msg.seq = w_seq;
    fault_msg.kind = M_FAULT;
    fault_msg.signo = sig;
    /* SI_KERNEL: a general-protection fault (an aligned vector access at a
     * misaligned address, a non-canonical pointer), which has no address. */
    fault_msg.fault = si->si_code <= 0 || (sig != SIGSEGV && sig != SIGBUS)
                          ? 0
                      : si->si_code == SI_KERNEL ? 2
                                                 : 1;
    fault_msg.addr = (uintptr_t)si->si_addr - (uintptr_t)w_delta;
    fault_msg.write = -1;
    fault_msg.late = fault_msg.fault == 1
                         ? h_wmem_late((uintptr_t)si->si_addr, w_seq) : 0;
    if (sig == SIGSYS && si->si_code == 1) /* SYS_SECCOMP: our filter */
        fault_msg.syscall = si->si_syscall;
#if defined(__x86_64__) && defined(REG_ERR)
    if (fault_msg.fault == 1 && ctx)
        fault_msg.write =
            (((ucontext_t *)ctx)->uc_mcontext.gregs[REG_ERR] & 2) != 0;
#else
    (void)ctx;
#endif
    fault_msg.phase = t_phase;
    if (write(H_WFD_OUT, &fault_msg, sizeof fault_msg) < 0)
        fault_msg.kind = 0;
    signal(sig, SIG_DFL);
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    _exit(128 + sig);
}

static const int fatal_sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT,
                                 SIGTRAP, SIGSYS};

static void arm(int sig)
{
    struct sigaction sa;

    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fatal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

static void catch_fatal(void)
{
    static uint8_t altstack[1 << 16];
    stack_t ss;
    size_t i;

    ss.ss_sp = altstack;
    ss.ss_size = sizeof altstack;
    ss.ss_flags = 0;
    sigaltstack(&ss, NULL);
    for (i = 0; i < sizeof fatal_sigs / sizeof *fatal_sigs; i++)
        arm(fatal_sigs[i]);
}

/* The SIGSEGV/SIGBUS handlers the guard pages rely on: a replaced one
 * (as JVM, Go and wasm runtimes install) is reported and re-armed. */
static uint32_t check_handlers(void)
{
    static const int sigs[] = {SIGSEGV, SIGBUS};
    struct sigaction sa;
    uint32_t bad = 0;
    int i;

    for (i = 0; i < 2; i++) {
        if (sigaction(sigs[i], NULL, &sa) == 0 && (sa.sa_flags & SA_SIGINFO) &&
            sa.sa_sigaction == on_fatal)
            continue;
        bad |= 1u << i;
        arm(sigs[i]);
    }
    return bad;
}

/* Processes of the library still alive (this worker is their subreaper,
 * so orphans count too); exited ones are reaped. */
static int live_children(void)
{
    int st;
    pid_t p;

    while ((p = waitpid(-1, &st, WNOHANG)) > 0)
        ;
    return p == 0;
}

static void set_phase(int ph)
{
    t_phase = ph;
    *w_phase = ph;
}

static void *rebase(void *p)
{
    return p ? (uint8_t *)p + w_delta : NULL;
}

static void rebase_job(h_job *j)
{
    int i, r, k;

    j->spare_end = rebase(j->spare_end);
    j->dst_dims_end = rebase(j->dst_dims_end);
    j->rank_out = rebase(j->rank_out);
    j->dims_out = rebase(j->dims_out);
    for (i = 0; i < j->nguards && i < H_GUARDS_MAX; i++)
        j->guards[i] = rebase(j->guards[i]);
    for (r = 0; r < H_RUNS_MAX; r++)
        for (k = 0; k < H_NT; k++) {
            j->run[r].t[k].dims = rebase(j->run[r].t[k].dims);
            j->run[r].t[k].data = rebase(j->run[r].t[k].data);
        }
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
                       h_wrep *res)
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
static void dst_from_infer(h_job *job, h_wrep *res)
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

static void calls(const sel_impl *impl, h_job *job, h_wrep *m,
                  const uint8_t *lo_a, const uint8_t *hi_a)
{
    int r, last;
    tens t;

    set_phase(H_PH_INFER);
    h_wmem_thaw((uint8_t *)job->rank_out, (uint8_t *)(job->dims_out + SEL_MAX_RANK));
    to_tensors(&job->run[0], &t);
    m->infer_st = impl->infer(t.p[0], t.p[1], t.p[2], job->b, job->rank_out,
                              job->dims_out);
    m->rank = *job->rank_out;
    memcpy(m->dims, job->dims_out, sizeof m->dims);
    if (job->dst_from_infer)
        dst_from_infer(job, m);
    last = job->nruns - (job->concurrent ? 2 : 0);
    for (r = 0; r < last; r++) {
        set_phase(H_PH_EXEC0 + r);
        h_wmem_thaw_dst(job, r, lo_a, hi_a);
        to_tensors(&job->run[r], &t);
        m->exec_st[r] = impl->execute(t.p[0], t.p[1], t.p[2], job->b,
                                      (sel_tensor *)t.p[3]);
        h_wmem_freeze_dst(job, r, lo_a, hi_a, w_seq);
    }
    if (job->concurrent) {
        h_wmem_thaw_dst(job, last, lo_a, hi_a);
        h_wmem_thaw_dst(job, last + 1, lo_a, hi_a);
        concurrent(impl, job, last, m);
        h_wmem_freeze_dst(job, last, lo_a, hi_a, w_seq);
        h_wmem_freeze_dst(job, last + 1, lo_a, hi_a, w_seq);
    }
    m->nexec = job->nruns;
}

/* A reply to the judge; the protocol fuzzer's worker (harness/t/wfuzz.c,
 * built with -DH_WFUZZ) mangles it on the way. */
static int send(const h_wrep *m)
{
#ifdef H_WFUZZ
    return h_wfuzz_send(H_WFD_OUT, m);
#else
    return h_write_full(H_WFD_OUT, m, sizeof *m);
#endif
}

static void serve(const sel_impl *impl, const uint8_t *lo_a,
                  const uint8_t *hi_a)
{
    h_wjob wj;
    h_wrep m;

    while (h_read_full(H_WFD_IN, &wj, sizeof wj) == 0 && wj.magic == H_WMAGIC) {
        h_job *job = &wj.job;
        if (job->nruns < 0 || job->nruns > H_RUNS_MAX ||
            job->nguards < 0 || job->nguards > H_GUARDS_MAX)
            break;
        rebase_job(job);
        w_seq = wj.seq;
        memset(&m, 0, sizeof m);
        m.magic = H_WMAGIC;
        m.seq = wj.seq;
        m.kind = M_DONE;
        h_wmem_protect(job);
        set_phase(H_PH_SUPPORTS);
        m.supported = impl->supports(job->sup_dtype, job->sup_btype) != 0;
        if (m.supported)
            calls(impl, job, &m, lo_a, hi_a);
        set_phase(H_PH_IDLE);
        m.handlers = check_handlers();
        m.children = live_children();
        m.unprotected = h_wmem_unprotected(job);
        if (send(&m))
            break;
    }
}

/* The library's sel_impl, or NULL with the reason in m->text. */
static const sel_impl *load(const char *path, h_wrep *m)
{
    sel_get_impl_fn get;
    const sel_impl *impl = NULL;
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);

    *(void **)&get = h ? dlsym(h, "sel_get_impl") : NULL;
    if (!h)
        snprintf(m->text, sizeof m->text, "cannot load: %s", dlerror());
    else if (!get)
        snprintf(m->text, sizeof m->text, "does not export sel_get_impl");
    else if (!(impl = get()))
        snprintf(m->text, sizeof m->text, "sel_get_impl() returned NULL");
    else if (impl->abi_version != SEL_ABI_VERSION)
        snprintf(m->text, sizeof m->text,
                 "ABI version %u, this selcheck speaks %d",
                 (unsigned)impl->abi_version, SEL_ABI_VERSION);
    else if (!impl->supports || !impl->infer || !impl->execute)
        snprintf(m->text, sizeof m->text, "a NULL function in its sel_impl");
    else
        return impl;
    return NULL;
}

void h_wproc_main(const char *path, uint8_t *arena, size_t size,
                  intptr_t delta)
{
    const sel_impl *impl;
    h_wrep m;

    w_delta = delta;
    h_wmem_init((size_t)sysconf(_SC_PAGESIZE));
    w_phase = (volatile int *)arena;
    catch_fatal();
    memset(&m, 0, sizeof m);
    m.magic = H_WMAGIC;
    m.kind = M_HELLO;
    m.wbase = (uintptr_t)arena;
    m.wpid = (int32_t)getpid();
    memcpy(m.sandbox, w_sandbox, sizeof m.sandbox);
    set_phase(H_PH_IDLE);
    impl = load(path, &m);
    if (impl) {
        size_t i;
        const char *nm = impl->name ? impl->name : "?";
        m.ok = 1;
        for (i = 0; nm[i] && i < 40; i++) /* printable, for TAP */
            m.text[i] = nm[i] > ' ' && nm[i] < 127 && nm[i] != '#' ? nm[i] : '_';
    }
    if (send(&m) == 0 && m.ok)
        serve(impl, arena, arena + size);
    _exit(0);
}
