/* opt_hit.h - the warm call's record and its test, inline in execute
 * (opt_select.c); opt_hit.c arms it.  Out of opt.h: only those two files
 * see the record.
 *
 * Inline, so that a hit runs from execute's entry with no call level of
 * its own (opt_hit_try was a function with five saved registers of its
 * own): call_64_f32 14.7 -> 12.6 ns on Zen 5 with the asm below.  Under
 * -fPIC the record's address is a call (__tls_get_addr; relaxed in a
 * static link, but the registers are saved for it all the same); an
 * initial-exec flag would spare that, but a static binary that dlopens
 * the .so has no room for one ("cannot allocate memory in static TLS
 * block").
 */
#ifndef OPT_HIT_H
#define OPT_HIT_H

#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

#include "opt.h"

typedef struct opt_hit_rec {
    uint64_t armed;     /* 0, or the settings' epoch when armed plus 1 */
    sel_broadcast b;
    int32_t eqr;        /* every operand of rank eqr (1-8); 0: ranks differ
                         * or are 0 */
    uint64_t head[4];   /* dtype and rank, as the descriptor holds them */
    int32_t rank[4];
    int64_t dims[4][SEL_MAX_RANK];
    uintptr_t db, ib[3]; /* dst's bytes, each input's (all > 0) */
    int inpl[3];         /* 1: then or else may be dst itself (IO-ALIAS-1) */
    opt_hit_act act;
    uintptr_t dp[4];     /* the last data pointers that passed the overlap
                          * checks (cond, then, else, dst), none NULL */
} opt_hit_rec;
extern _Thread_local opt_hit_rec opt_hit_last;
/* Bumped by opt_isa_force and opt_tuning_set: a record armed before runs
 * a kernel or a path those settings no longer pick. */
extern atomic_uint opt_hit_epoch;

static inline uint64_t opt_hit_head(const sel_tensor *x)
{
    uint64_t h;
    _Static_assert(offsetof(sel_tensor, rank) == 4, "dtype, rank: 8 bytes");
    memcpy(&h, x, sizeof h);
    return h;
}

/* The cases 8 down to 2 of a switch on a rank: v |= X(i) for each dim i
 * from rank - 1 down to 1 (the caller writes dim 0's case). */
#define OPT_HIT_DOWN(v, X)                                                   \
    case 8: v |= X(7); __attribute__((fallthrough));                         \
    case 7: v |= X(6); __attribute__((fallthrough));                         \
    case 6: v |= X(5); __attribute__((fallthrough));                         \
    case 5: v |= X(4); __attribute__((fallthrough));                         \
    case 4: v |= X(3); __attribute__((fallthrough));                         \
    case 3: v |= X(2); __attribute__((fallthrough));                         \
    case 2: v |= X(1); __attribute__((fallthrough));

/* Nonzero when dims d differ from m (rank r, both): each dim once (ranks
 * 3-8 from the top one down, through a jump on r, which repeats call
 * after call), no libc call, no loop.  Two overlapping 4-dim blocks
 * compared 8 dims at ranks 4-7 and every dim twice at ranks 2 and 4. */
static inline __attribute__((always_inline)) uint64_t
opt_hit_dims_diff(const int64_t *d, const int64_t *m, int32_t r)
{
    uint64_t v = 0;
#define X(i) ((uint64_t)(d[i] ^ m[i]))
    if (r <= 2) /* ranks 0-2 (most calls) without the jump */
        return r == 2 ? X(0) | X(1) : r ? X(0) : 0;
    switch (r) {
    OPT_HIT_DOWN(v, X)
    case 1: v |= X(0); break;
    default: break;
    }
    return v;
#undef X
}

/* The four operands' dims against the record's, all of rank r (1-8): one
 * jump on r for the four (a same-shape call compared each operand through
 * its own jump and its own NULL tests). */
static inline __attribute__((always_inline)) uint64_t
opt_hit_dims4(const sel_tensor *c, const sel_tensor *t, const sel_tensor *e,
              const sel_tensor *d, const opt_hit_rec *h, int32_t r)
{
    const int64_t *const x0 = c->dims, *const x1 = t->dims,
                  *const x2 = e->dims, *const x3 = d->dims;
    uint64_t v = 0;
#define X(i) ((uint64_t)(x0[i] ^ h->dims[0][i]) | \
              (uint64_t)(x1[i] ^ h->dims[1][i]) | \
              (uint64_t)(x2[i] ^ h->dims[2][i]) | \
              (uint64_t)(x3[i] ^ h->dims[3][i]))
    switch (r) {
    OPT_HIT_DOWN(v, X)
    default: v |= X(0); break;
    }
    return v;
#undef X
}

/* [x, x+nx) and [y, y+ny) share a byte (both sizes > 0): one of them
 * starts inside the other (unsigned differences: one test each way). */
static inline int opt_hit_ovl(uintptr_t x, uintptr_t nx, uintptr_t y,
                              uintptr_t ny)
{
    return y - x < nx || x - y < ny;
}

/* Operand k's dims are the record's (ARG-NULL-1 too: present unless the
 * rank is 0); its head already compared. */
static inline __attribute__((always_inline)) int
opt_hit_same(const opt_hit_rec *h, int k, const sel_tensor *x)
{
    const int32_t r = h->rank[k];
    return !r || (x->dims && !opt_hit_dims_diff(x->dims, h->dims[k], r));
}

/* 1 when the call repeats the descriptors and mode of the call armed last
 * on this thread, passes the data pointers' checks (ARG-NULL-1,
 * IO-ALIAS-1/2) and has run what that call ran; 0 (the record dropped)
 * otherwise. */
static inline __attribute__((always_inline)) int
opt_hit_try(const sel_tensor *cond, const sel_tensor *then_,
            const sel_tensor *else_, sel_broadcast b, const sel_tensor *dst)
{
    /* The record's address taken once and hidden from the compiler by an
     * empty asm: left to itself it takes it again for every field it
     * reads.  A volatile local did the same through a store and a load,
     * and every field waited on that forwarding. */
    opt_hit_rec *h = &opt_hit_last;
    uintptr_t d, c, th, el;

    __asm__("" : "+r"(h));
    if (h->armed != (uint64_t)atomic_load_explicit(&opt_hit_epoch,
                                                   memory_order_relaxed) + 1 ||
        b.type != h->b.type || b.axis != h->b.axis || b.flags != h->b.flags)
        goto miss;
    /* ARG-NULL-1 and the descriptors, each group one test: the usual hit
     * takes no branch but these (a branch per field cost about 40
     * instructions at rank 1). */
    if (!cond | !then_ | !else_ | !dst)
        goto miss;
    if ((opt_hit_head(cond) ^ h->head[0]) | (opt_hit_head(then_) ^ h->head[1]) |
        (opt_hit_head(else_) ^ h->head[2]) | (opt_hit_head(dst) ^ h->head[3]))
        goto miss;
    if (h->eqr) {
        if (!cond->dims | !then_->dims | !else_->dims | !dst->dims ||
            opt_hit_dims4(cond, then_, else_, dst, h, h->eqr))
            goto miss;
    } else if (!opt_hit_same(h, 0, cond) || !opt_hit_same(h, 1, then_) ||
               !opt_hit_same(h, 2, else_) || !opt_hit_same(h, 3, dst))
        goto miss;
    d = (uintptr_t)dst->data, c = (uintptr_t)cond->data;
    th = (uintptr_t)then_->data, el = (uintptr_t)else_->data;
    /* The overlap checks depend on the pointers and the record's spans
     * only: the pointers that passed last (the usual repeat; none NULL)
     * pass again, in four compares instead of about 30 instructions. */
    if ((c ^ h->dp[0]) | (th ^ h->dp[1]) | (el ^ h->dp[2]) | (d ^ h->dp[3])) {
        /* ARG-NULL-1; IO-ALIAS-2: never cond; IO-ALIAS-1: then or else
         * only as dst */
        if (!c | !th | !el | !d || opt_hit_ovl(d, h->db, c, h->ib[0]) ||
            ((th != d || !h->inpl[1]) && opt_hit_ovl(d, h->db, th, h->ib[1])) ||
            ((el != d || !h->inpl[2]) && opt_hit_ovl(d, h->db, el, h->ib[2])))
            goto miss;
        h->dp[0] = c, h->dp[1] = th, h->dp[2] = el, h->dp[3] = d;
    }
    if (h->act.fn) {
        h->act.fn(h->act.ctx, cond->data, then_->data, else_->data,
                  dst->data);
    } else { /* one row: its kernel, or a copy or fill when cond is one */
        const int k = h->act.kern[0] ? 0 : *(const uint8_t *)cond->data ? 1 : 2;
        h->act.kern[k](h->act.n, cond->data,
                       k == 2 ? else_->data : then_->data, else_->data,
                       dst->data, 0);
    }
    return 1;
miss:
    h->armed = 0;
    return 0;
}

#endif
