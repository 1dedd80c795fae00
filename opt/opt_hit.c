/* opt_hit.c - the warm call: a thread's call whose four descriptors (dtype,
 * rank, dims) and mode repeat its last small call's goes straight to what
 * that call ran, after the checks that depend on the data pointers.
 *
 * The long way (opt_check_same, opt_fast_plan's memo compare, opt_small_run's
 * dispatch) costs a few hundred instructions before any kernel; a 6-40
 * element call runs its kernel in a few tens.  The record holds each
 * descriptor as two 64-bit words (dtype and rank; dims compared in fixed
 * blocks) and the byte ranges the overlap checks need.  A miss drops it:
 * the long way may rebuild the state its action points into (the memo's
 * plan, the walk, the tiles, the chunk program).
 */
#include <string.h>

#include "opt_hit.h"

_Thread_local opt_hit_rec opt_hit_last;
atomic_uint opt_hit_epoch;

void opt_hit_settings(void)
{
    atomic_fetch_add_explicit(&opt_hit_epoch, 1, memory_order_relaxed);
}

void opt_hit_arm(const sel_tensor *cond, const sel_tensor *then_,
                 const sel_tensor *else_, sel_broadcast b,
                 const sel_tensor *dst, size_t w, const size_t in_bytes[3],
                 const opt_hit_act *a)
{
    const sel_tensor *const t[4] = {cond, then_, else_, dst};
    opt_hit_rec *const h = &opt_hit_last;
    const size_t db = a->n * w;

    h->b = b;
    h->eqr = t[0]->rank;
    for (int k = 0; k < 4; k++) {
        const int32_t r = t[k]->rank;
        h->head[k] = opt_hit_head(t[k]), h->rank[k] = r;
        if (r != h->eqr)
            h->eqr = 0;
        if (r > 3) { /* ranks 4-8: two overlapping 4-dim blocks */
            memcpy(h->dims[k], t[k]->dims, 32);
            memcpy(h->dims[k] + r - 4, t[k]->dims + r - 4, 32);
        } else
            for (int32_t i = 0; i < r; i++)
                h->dims[k][i] = t[k]->dims[i];
    }
    h->db = db;
    for (int k = 0; k < 3; k++) {
        h->ib[k] = in_bytes[k];
        /* the same buffer with dst's shape: its count and rank */
        h->inpl[k] = k && in_bytes[k] == db && t[k]->rank == dst->rank;
    }
    h->act = *a;
    /* the arming call's pointers passed the long way's overlap checks */
    h->dp[0] = (uintptr_t)cond->data, h->dp[1] = (uintptr_t)then_->data;
    h->dp[2] = (uintptr_t)else_->data, h->dp[3] = (uintptr_t)dst->data;
    h->armed = (uint64_t)atomic_load_explicit(&opt_hit_epoch,
                                              memory_order_relaxed) + 1;
}
