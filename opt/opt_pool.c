/* opt_pool.c - a persistent pool of worker threads for large calls.
 * The calling thread always works too; everyone claims chunks from one
 * atomic counter, and the caller waits for chunks, never for threads.
 *
 * Why chunks and not threads: on a shared machine a woken worker may not
 * run for milliseconds.  The caller then simply claims every chunk itself
 * and returns; the late worker finds the job's chunks all claimed and goes
 * back to sleep.  For that the claim counter carries the job's generation
 * next to the chunk index, so a worker from an old job can never claim a
 * chunk of a new one (its compare-and-swap fails), and the job's fields are
 * atomics that a claim proves current (see claim()).
 *
 * One call owns the pool at a time (a trylock).  A concurrent caller does
 * not wait: it runs its whole call on its own thread, which is what a pool
 * sized to the CPUs would give it anyway (IO-THREADS-1).  Workers start on
 * the first call that needs them, spin briefly after a job (so back to back
 * calls skip the futex round trip), then sleep on a condition variable.
 * They are detached and never stop; libselect_opt.so is linked -z nodelete
 * so that dlclose cannot unmap their code (nor the fork handlers).
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "opt.h"

#if defined(__x86_64__)
#include <immintrin.h>
#define cpu_relax() _mm_pause()
#else
#define cpu_relax() ((void)0)
#endif

/* opt_kpool.c builds this file again with OPT_POOL_HOOKS and pauses
 * threads at these points to force the interleavings a run meets only by
 * chance: a worker between its load of the claim word and its
 * compare-and-swap (OPT_POOL_AT_CLAIM, with the word it loaded) while the
 * owner publishes the next job (OPT_POOL_AT_COUNT, the new count stored).
 * In the library they are nothing. */
#ifdef OPT_POOL_HOOKS
#include "opt_pool_hooks.h"
#define HOOK(at, c) opt_pool_hook(at, c)
#else
#define HOOK(at, c) ((void)0)
#endif

/* Polls before sleeping: some tens of microseconds of pause. */
#define SPIN_POLLS 2000

static struct {
    pthread_mutex_t owner;        /* held by the call using the pool */
    pthread_mutex_t m;            /* guards sleeping and waking */
    pthread_cond_t wake, finished;
    int started;                  /* workers created (under owner) */
    /* Wake-up word: generation << 8 | number of workers wanted. */
    atomic_ulong job;
    /* Claim word: generation << 32 | next chunk index. */
    atomic_uint_least64_t claim;
    _Atomic(opt_task_fn *) task;
    _Atomic(void *) ctx;
    atomic_size_t nchunks, done;
} pool = {
    .owner = PTHREAD_MUTEX_INITIALIZER,
    .m = PTHREAD_MUTEX_INITIALIZER,
    .wake = PTHREAD_COND_INITIALIZER,
    .finished = PTHREAD_COND_INITIALIZER,
};

static atomic_int nthreads_set;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void read_env(void)
{
    const char *s = getenv("SEL_NUM_THREADS");
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    char *end;

    if (n < 1)
        n = 1;
    if (n > OPT_MAX_THREADS)
        n = OPT_MAX_THREADS;
    if (s && *s) {
        long v = strtol(s, &end, 10);
        if (*end == '\0' && v >= 1 && v <= OPT_MAX_THREADS)
            n = v;
        else
            fprintf(stderr, "libselect_opt: SEL_NUM_THREADS=%s is not 1..%d;"
                    " using %ld\n", s, OPT_MAX_THREADS, n);
    }
    atomic_store(&nthreads_set, (int)n);
}

int opt_threads(void)
{
    pthread_once(&once, read_env);
    return atomic_load_explicit(&nthreads_set, memory_order_relaxed);
}

void opt_threads_force(int n)
{
    const int v = n < 1 ? 1 : n > OPT_MAX_THREADS ? OPT_MAX_THREADS : n;
    pthread_once(&once, read_env);
    /* A caller may set the count before every call (the bench does): a
     * sequentially consistent store is an xchg that waits for the call's
     * stores to drain, about 1 ns of a 12 ns call_64_f32.  Readers load it
     * relaxed (opt_threads). */
    if (atomic_load_explicit(&nthreads_set, memory_order_relaxed) != v)
        atomic_store(&nthreads_set, v);
}

/* Claims and runs chunks of generation gen until none is left.  A claim
 * that succeeds proves the job is still gen's (its last chunk is not done,
 * so the owner has not moved on), hence task and ctx read after it are
 * gen's: the owner wrote them before publishing claim (release). */
static void claim(uint64_t gen)
{
    for (;;) {
        uint64_t c = atomic_load_explicit(&pool.claim, memory_order_acquire);
        size_t n;
        HOOK(OPT_POOL_AT_CLAIM, c);
        if (c >> 32 != gen)
            return;
        n = atomic_load_explicit(&pool.nchunks, memory_order_acquire);
        if ((c & 0xffffffffu) >= n)
            return;
        if (!atomic_compare_exchange_weak_explicit(&pool.claim, &c, c + 1,
                                                   memory_order_acquire,
                                                   memory_order_relaxed))
            continue;
        atomic_load_explicit(&pool.task, memory_order_relaxed)(
            atomic_load_explicit(&pool.ctx, memory_order_relaxed),
            (size_t)(c & 0xffffffffu));
        if (atomic_fetch_add_explicit(&pool.done, 1, memory_order_acq_rel) + 1
            == n) {
            pthread_mutex_lock(&pool.m); /* the owner may be asleep */
            pthread_cond_signal(&pool.finished);
            pthread_mutex_unlock(&pool.m);
        }
    }
}

/* A worker's start: its index, and the wake-up word when it was created
 * (the owner publishes the next job only after creating it, so reading
 * pool.job from the new thread could already see that job and skip it). */
static struct start {
    int id;
    unsigned long job;
} starts[OPT_MAX_THREADS];

static void *worker(void *arg)
{
    const int id = ((const struct start *)arg)->id;
    unsigned long seen = ((const struct start *)arg)->job;

    for (;;) {
        unsigned long j;
        int spins = 0;
        while ((j = atomic_load_explicit(&pool.job, memory_order_acquire)) ==
                   seen && spins++ < SPIN_POLLS)
            cpu_relax();
        if (j == seen) {
            pthread_mutex_lock(&pool.m);
            while ((j = atomic_load(&pool.job)) == seen)
                pthread_cond_wait(&pool.wake, &pool.m);
            pthread_mutex_unlock(&pool.m);
        }
        seen = j;
        if (id < (int)(j & 0xff)) /* else this job wants fewer threads */
            claim((uint64_t)(j >> 8) & 0xffffffffu);
    }
    return NULL;
}

/* fork(): the child has none of the workers, and a lock a worker held at
 * that moment would stay locked in it.  So fork waits for the pool to be
 * idle (both locks taken in the parent), and the child starts over with
 * fresh locks and no workers, which it creates again when it needs them. */
static void fork_prepare(void)
{
    pthread_mutex_lock(&pool.owner);
    pthread_mutex_lock(&pool.m);
}

static void fork_parent(void)
{
    pthread_mutex_unlock(&pool.m);
    pthread_mutex_unlock(&pool.owner);
}

static void fork_child(void)
{
    /* The forking thread holds both locks and is the child's only thread;
     * the conditions may count waiters that do not exist here. */
    pthread_cond_init(&pool.wake, NULL);
    pthread_cond_init(&pool.finished, NULL);
    pool.started = 0;
    pthread_mutex_unlock(&pool.m);
    pthread_mutex_unlock(&pool.owner);
}

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static void atfork(void)
{
    pthread_atfork(fork_prepare, fork_parent, fork_child);
}

/* Creates workers up to want (under the owner lock); keeps what it got if
 * the system refuses more threads. */
static void grow(int want)
{
    sigset_t all, old;
    pthread_attr_t attr;

    if (pool.started >= want)
        return;
    pthread_once(&atfork_once, atfork);
    /* Workers take no signals: the host's handlers run on its threads. */
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    while (pool.started < want) {
        struct start *st = &starts[pool.started];
        pthread_t t;
        st->id = pool.started;
        st->job = atomic_load(&pool.job);
        if (pthread_create(&t, &attr, worker, st) != 0)
            break;
        pool.started++;
    }
    pthread_attr_destroy(&attr);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

void opt_parallel(opt_task_fn *task, void *ctx, size_t nchunks, int nthreads)
{
    size_t i;
    int helpers = nthreads - 1;
    unsigned long gen;

    if ((size_t)helpers > nchunks - 1)
        helpers = (int)(nchunks - 1);
    if (helpers <= 0 || nchunks > 0xffffffffu ||
        pthread_mutex_trylock(&pool.owner) != 0) {
        for (i = 0; i < nchunks; i++) /* alone, or the pool is taken */
            task(ctx, i);
        return;
    }
    grow(helpers);
    if (helpers > pool.started)
        helpers = pool.started;

    gen = ((atomic_load(&pool.job) >> 8) + 1) & 0xffffffffu;
    /* Close the last job's claim word before nchunks changes: a worker
     * still in claim() for it, between its load of claim and its CAS, that
     * read the new nchunks (acquire) must fail that CAS.  Without this it
     * could claim index n_old of the old generation under the new count,
     * run a chunk twice and count it into the new job's done (the kernel
     * test saw "chunk 6 ran 2 times" once, under qemu). */
    atomic_store_explicit(&pool.claim, (uint64_t)gen << 32 | 0xffffffffu,
                          memory_order_relaxed);
    atomic_store_explicit(&pool.task, task, memory_order_relaxed);
    atomic_store_explicit(&pool.ctx, ctx, memory_order_relaxed);
    atomic_store_explicit(&pool.nchunks, nchunks, memory_order_release);
    HOOK(OPT_POOL_AT_COUNT, (uint64_t)gen << 32);
    atomic_store_explicit(&pool.done, 0, memory_order_relaxed);
    atomic_store_explicit(&pool.claim, (uint64_t)gen << 32,
                          memory_order_release);
    pthread_mutex_lock(&pool.m);
    atomic_store_explicit(&pool.job, gen << 8 | (unsigned long)helpers,
                          memory_order_release);
    pthread_cond_broadcast(&pool.wake);
    pthread_mutex_unlock(&pool.m);

    claim(gen);

    for (i = 0; i < SPIN_POLLS && atomic_load(&pool.done) < nchunks; i++)
        cpu_relax();
    if (atomic_load(&pool.done) < nchunks) {
        pthread_mutex_lock(&pool.m);
        while (atomic_load(&pool.done) < nchunks)
            pthread_cond_wait(&pool.finished, &pool.m);
        pthread_mutex_unlock(&pool.m);
    }
    pthread_mutex_unlock(&pool.owner);
}
