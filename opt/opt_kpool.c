/* opt_kpool.c - test-only: the pool's job change, forced (check-opt-kernels).
 *
 * Built with opt_pool.c compiled again under OPT_POOL_HOOKS, so that
 * opt_pool_hook below runs inside claim() and opt_parallel().  A worker is
 * parked in claim() holding the finished job's claim word (every chunk
 * claimed), the owner starts the next job and stops right after storing
 * its chunk count; only then does the worker go on to its compare-and-swap.
 * It must fail: before baeaec8 it succeeded, and the worker ran chunk 2 of
 * the new job with the new task, so that chunk ran twice (the kernel test
 * "each chunk once" saw that once in hundreds of runs, under qemu).  Here
 * the interleaving happens every run.
 */
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "opt.h"
#include "opt_pool_hooks.h"

enum { N1 = 2, N2 = 8 };

/* PARKED: the worker holds job 1's last claim word; RELEASED: the owner
 * stored job 2's count and lets it go on; RETRIED: the worker loaded the
 * claim word again, so its attempt is over. */
enum { JOB1, PARKED, RELEASED, RETRIED };

static atomic_int phase;
static atomic_int hits1[N1], hits2[N2];
static _Thread_local int is_owner;
static atomic_int timed_out;

static void task1(void *ctx, size_t i)
{
    (void)ctx;
    atomic_fetch_add(&hits1[i], 1);
}

static void task2(void *ctx, size_t i)
{
    (void)ctx;
    atomic_fetch_add(&hits2[i], 1);
}

static int ran1(void)
{
    int n = 0;
    for (int i = 0; i < N1; i++)
        n += atomic_load(&hits1[i]);
    return n;
}

/* Waits while *p == v, for up to 5 s (a broken pool must not hang make). */
static void wait_while(atomic_int *p, int v)
{
    const time_t end = time(NULL) + 5;
    while (atomic_load(p) == v)
        if (time(NULL) > end) {
            atomic_store(&timed_out, 1);
            return;
        } else
            sched_yield();
}

void opt_pool_hook(int at, uint64_t c)
{
    if (at == OPT_POOL_AT_CLAIM && !is_owner) {
        if (atomic_load(&phase) == JOB1 && c >> 32 == 1) {
            if ((c & 0xffffffffu) < N1) { /* the owner runs them all */
                while (ran1() < N1 && !atomic_load(&timed_out))
                    sched_yield();
                return; /* this word is stale now: its CAS fails */
            }
            atomic_store(&phase, PARKED);
            wait_while(&phase, PARKED);
        } else if (atomic_load(&phase) == RELEASED)
            atomic_store(&phase, RETRIED);
    } else if (at == OPT_POOL_AT_COUNT && is_owner &&
               atomic_load(&phase) == PARKED) {
        atomic_store(&phase, RELEASED);
        wait_while(&phase, RELEASED);
    }
}

static int once_each(const atomic_int *hits, int n, const char *job)
{
    for (int i = 0; i < n; i++)
        if (atomic_load(&hits[i]) != 1) {
            printf("# %s: chunk %d ran %d times\n", job, i,
                   atomic_load(&hits[i]));
            return 1;
        }
    return 0;
}

int main(void)
{
    int bad;
    is_owner = 1;
    alarm(30);
    printf("1..1\n");
    opt_parallel(task1, NULL, N1, 2);
    wait_while(&phase, JOB1); /* a late worker parks after the job ends */
    if (atomic_load(&phase) != PARKED) {
        printf("not ok 1 - pool: the worker never parked in claim()\n");
        return 1;
    }
    opt_parallel(task2, NULL, N2, 2);
    bad = once_each(hits1, N1, "job 1") | once_each(hits2, N2, "job 2");
    if (atomic_load(&phase) != RETRIED || atomic_load(&timed_out)) {
        printf("# the worker did not come back to claim() (phase %d)\n",
               atomic_load(&phase));
        bad = 1;
    }
    printf("%s 1 - pool: a worker holding the last job's claim word while "
           "the next job's count is stored claims nothing\n",
           bad ? "not ok" : "ok");
    return bad;
}
