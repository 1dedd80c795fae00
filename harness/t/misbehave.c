/* misbehave.c - the reference with exactly one misbehaviour, chosen by a
 * -DMIS_<KIND> macro: out-of-bounds writes and reads, writes to inputs or
 * their dims, unwritten dst, a hang, a crash, not being thread-safe,
 * needing alignment (raised, and a real movdqa on x86-64), ignoring SEL_COND_BIDIRECTIONAL.  harness/t/misbehave.sh requires selcheck to report
 * each with its own reason (issue 7), and the plain reference to pass.
 */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ref.h"

static int64_t count(const sel_tensor *t)
{
    int64_t n = 1;
    int32_t i;
    for (i = 0; i < t->rank; i++)
        n *= t->dims[i];
    return n;
}

static int supports(int32_t dtype, int32_t broadcast_type)
{
    return ref_impl()->supports(dtype, broadcast_type);
}

static int infer(const sel_tensor *cond, const sel_tensor *then_,
                 const sel_tensor *else_, sel_broadcast b, int32_t *rank_out,
                 int64_t *dims_out)
{
    int st;
#ifdef MIS_ONEWAY
    b.flags = 0; /* a one-way implementation ignoring the hint */
#endif
    st = ref_impl()->infer(cond, then_, else_, b, rank_out, dims_out);
#ifdef MIS_DIMS_OUT
    if (st == SEL_OK)
        dims_out[SEL_MAX_RANK] = 1; /* one entry too many */
#endif
    return st;
}

static int execute(const sel_tensor *cond, const sel_tensor *then_,
                   const sel_tensor *else_, sel_broadcast b, sel_tensor *dst)
{
    const sel_impl *ref = ref_impl();
    sel_tensor mine;
    size_t es;
    int64_t n;
    int st;

#ifdef MIS_ONEWAY
    b.flags = 0;
#endif
    /* Misbehave only where a correct implementation would work. */
    if (!dst || !cond || !then_ || !else_ ||
        ref->infer(cond, then_, else_, b, &mine.rank, (int64_t[8]){0}) ||
        (n = count(dst)) == 0 || !dst->data)
        return ref->execute(cond, then_, else_, b, dst);
    es = sel_dtype_size(dst->dtype);
    (void)es;
    (void)n;
    (void)mine;
#if defined(MIS_READ_AFTER)
    (void)((volatile const char *)then_->data)[count(then_) * (int64_t)es];
#elif defined(MIS_READ_BEFORE)
    (void)((volatile const char *)else_->data)[-1];
#elif defined(MIS_MISALIGNED)
    /* As an aligned SIMD load would. */
    if ((uintptr_t)then_->data % 16 != 0)
        raise(SIGBUS);
#elif defined(MIS_MOVDQA) && defined(__x86_64__)
    /* A real aligned SIMD load: a general-protection fault, which gives
     * the signal handler no address (si_code SI_KERNEL). */
    if ((uintptr_t)then_->data % 16 != 0)
        __asm__ volatile("movdqa (%0), %%xmm0" : : "r"(then_->data) : "xmm0");
#elif defined(MIS_HANG)
    for (;;) {
        struct timespec ts = {1, 0};
        nanosleep(&ts, NULL);
    }
#elif defined(MIS_ABORT)
    abort();
#elif defined(MIS_EXIT)
    exit(3);
#elif defined(MIS_UNSAFE)
    {
        /* A plan cached in a global: the other thread's dst wins. */
        static void *volatile last;
        struct timespec ts = {0, 20000000};
        last = dst->data;
        nanosleep(&ts, NULL);
        mine = *dst;
        mine.data = last;
        return ref->execute(cond, then_, else_, b, &mine);
    }
#elif defined(MIS_UNWRITTEN)
    {
        char keep[8];
        memcpy(keep, dst->data, es);
        st = ref->execute(cond, then_, else_, b, dst);
        memcpy(dst->data, keep, es); /* element 0 as it was */
        return st;
    }
#endif
    st = ref->execute(cond, then_, else_, b, dst);
#if defined(MIS_OVERRUN)
    memcpy((char *)dst->data + n * (int64_t)es, dst->data, es);
#elif defined(MIS_UNDERRUN)
    memcpy((char *)dst->data - es, dst->data, es);
#elif defined(MIS_INPUT)
    ((char *)then_->data)[0] ^= 1;
#elif defined(MIS_DIMS)
    ((int64_t *)then_->dims)[0] += 1;
#endif
    return st;
}

static const sel_impl table = {SEL_ABI_VERSION, "misbehave", supports, infer,
                               execute};

SEL_EXPORT const sel_impl *sel_get_impl(void)
{
    return &table;
}
