/* opt_pool.c - a persistent pool of worker threads for large calls.
 * The calling thread always works too; workers take chunks from a shared
 * atomic counter, so a slow (preempted) thread delays nobody for long.
 *
 * One call owns the pool at a time (a trylock).  A concurrent caller does
 * not wait for it: it runs its whole call on its own thread, which is what
 * a pool sized to the CPUs would give it anyway (IO-THREADS-1).  Workers
 * start on the first call that needs them, spin briefly after a job (back
 * to back calls then skip the sleep/wake round trip), then sleep on a
 * condition variable.  They are detached and never stop; the shared object
 * is linked -z nodelete so that dlclose cannot unmap their code.
 */
#include <errno.h>
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

/* Polls before sleeping: about 20-50 us of pause instructions. */
#define SPIN_POLLS 2000

static struct {
    pthread_mutex_t owner;        /* held by the call using the pool */
    pthread_mutex_t m;            /* guards the sleeps and wakes below */
    pthread_cond_t wake, done;
    int started;                  /* workers created (under owner) */
    /* One word per job: a generation count above 8 bits of "workers
     * 0..helpers-1 take part", so that a worker left out never reads the
     * fields below, which the next job may already be rewriting. */
    atomic_ulong job;
    /* Written by the owner before job is published (release), read by
     * helpers after they see it (acquire); stable until pending is 0. */
    opt_task_fn *task;
    void *ctx;
    size_t nchunks;
    atomic_size_t next;           /* next chunk to take */
    atomic_int pending;           /* helpers still working */
} pool = {
    .owner = PTHREAD_MUTEX_INITIALIZER,
    .m = PTHREAD_MUTEX_INITIALIZER,
    .wake = PTHREAD_COND_INITIALIZER,
    .done = PTHREAD_COND_INITIALIZER,
};

static atomic_int nthreads_set;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void read_env(void)
{
    const char *s = getenv("SEL_NUM_THREADS");
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    char *end;

    if (s && *s) {
        long v = strtol(s, &end, 10);
        if (*end == '\0' && v >= 1 && v <= OPT_MAX_THREADS)
            n = v;
        else
            fprintf(stderr, "libselect_opt: SEL_NUM_THREADS=%s is not 1..%d;"
                    " using %ld\n", s, OPT_MAX_THREADS, n < 1 ? 1L : n);
    }
    if (n < 1)
        n = 1;
    if (n > OPT_MAX_THREADS)
        n = OPT_MAX_THREADS;
    atomic_store(&nthreads_set, (int)n);
}

int opt_threads(void)
{
    pthread_once(&once, read_env);
    return atomic_load_explicit(&nthreads_set, memory_order_relaxed);
}

void opt_threads_force(int n)
{
    pthread_once(&once, read_env);
    atomic_store(&nthreads_set, n < 1 ? 1 : n > OPT_MAX_THREADS ?
                 OPT_MAX_THREADS : n);
}

static void take_chunks(opt_task_fn *task, void *ctx, size_t nchunks)
{
    size_t i;
    while ((i = atomic_fetch_add(&pool.next, 1)) < nchunks)
        task(ctx, i);
}

/* A worker's start: its index, and the job word when it was created (the
 * owner publishes the next job only after creating it, so reading pool.job
 * from the new thread could already see that job and skip it). */
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
        if (id >= (int)(j & 0xff))
            continue; /* this job wants fewer threads */
        take_chunks(pool.task, pool.ctx, pool.nchunks);
        if (atomic_fetch_sub(&pool.pending, 1) == 1) {
            pthread_mutex_lock(&pool.m);
            pthread_cond_signal(&pool.done);
            pthread_mutex_unlock(&pool.m);
        }
    }
    return NULL;
}

/* Creates workers up to want (under the owner lock); keeps what it got if
 * the system refuses more threads. */
static void grow(int want)
{
    sigset_t all, old;
    pthread_attr_t attr;

    if (pool.started >= want)
        return;
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

    if ((size_t)helpers > nchunks - 1)
        helpers = (int)(nchunks - 1);
    if (helpers <= 0 || pthread_mutex_trylock(&pool.owner) != 0) {
        for (i = 0; i < nchunks; i++) /* alone, or the pool is taken */
            task(ctx, i);
        return;
    }
    grow(helpers);
    if (helpers > pool.started)
        helpers = pool.started;

    pool.task = task;
    pool.ctx = ctx;
    pool.nchunks = nchunks;
    atomic_store(&pool.next, 0);
    atomic_store(&pool.pending, helpers);
    pthread_mutex_lock(&pool.m);
    atomic_store_explicit(&pool.job,
                          ((atomic_load(&pool.job) >> 8) + 1) << 8 |
                              (unsigned long)helpers,
                          memory_order_release);
    pthread_cond_broadcast(&pool.wake);
    pthread_mutex_unlock(&pool.m);

    take_chunks(task, ctx, nchunks);

    for (i = 0; i < SPIN_POLLS && atomic_load(&pool.pending) > 0; i++)
        cpu_relax();
    if (atomic_load(&pool.pending) > 0) {
        pthread_mutex_lock(&pool.m);
        while (atomic_load(&pool.pending) > 0)
            pthread_cond_wait(&pool.done, &pool.m);
        pthread_mutex_unlock(&pool.m);
    }
    pthread_mutex_unlock(&pool.owner);
}
