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
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

#include "opt.h"

typedef struct hit {
    int armed;          /* holds a call */
    unsigned epoch;     /* the settings' epoch when armed */
    sel_broadcast b;
    uint64_t head[4];   /* dtype and rank, as the descriptor holds them */
    int32_t rank[4];
    int64_t dims[4][SEL_MAX_RANK];
    uintptr_t db, ib[3]; /* dst's bytes, each input's (all > 0) */
    int inpl[3];         /* 1: then or else may be dst itself (IO-ALIAS-1) */
    opt_hit_act act;
} hit;
static _Thread_local hit last;

/* Bumped by opt_isa_force and opt_tuning_set: a record armed before runs
 * a kernel or a path those settings no longer pick. */
static atomic_uint epoch;

void opt_hit_settings(void)
{
    atomic_fetch_add_explicit(&epoch, 1, memory_order_relaxed);
}

static uint64_t head_of(const sel_tensor *x)
{
    uint64_t h;
    _Static_assert(offsetof(sel_tensor, rank) == 4, "dtype, rank: 8 bytes");
    memcpy(&h, x, sizeof h);
    return h;
}

/* Nonzero when dims d differ from m (rank r, both): each dim once (ranks
 * 3-8 from the top one down, through a jump on r, which repeats call
 * after call), no libc call, no loop.  Two overlapping 4-dim blocks
 * compared 8 dims at ranks 4-7 and every dim twice at ranks 2 and 4. */
static inline __attribute__((always_inline)) uint64_t
dims_diff(const int64_t *d, const int64_t *m, int32_t r)
{
    uint64_t v = 0;
#define X(i) ((uint64_t)(d[i] ^ m[i]))
    if (r <= 2) /* ranks 0-2 (most calls) without the jump */
        return r == 2 ? X(0) | X(1) : r ? X(0) : 0;
    switch (r) {
    case 8: v |= X(7); __attribute__((fallthrough));
    case 7: v |= X(6); __attribute__((fallthrough));
    case 6: v |= X(5); __attribute__((fallthrough));
    case 5: v |= X(4); __attribute__((fallthrough));
    case 4: v |= X(3); __attribute__((fallthrough));
    case 3: v |= X(2); __attribute__((fallthrough));
    case 2: v |= X(1); __attribute__((fallthrough));
    case 1: v |= X(0); break;
    default: break;
    }
    return v;
#undef X
}

/* [x, x+nx) and [y, y+ny) share a byte (both sizes > 0): one of them
 * starts inside the other (unsigned differences: one test each way). */
static inline int ovl(uintptr_t x, uintptr_t nx, uintptr_t y, uintptr_t ny)
{
    return y - x < nx || x - y < ny;
}

/* Operand k's descriptor is the record's (ARG-NULL-1 too: the tensor, its
 * dims and its data present). */
static inline __attribute__((always_inline)) int
same_desc(const hit *h, int k, const sel_tensor *x)
{
    const int32_t r = h->rank[k];
    if (!x || head_of(x) != h->head[k] || !x->data)
        return 0;
    return !r || (x->dims && !dims_diff(x->dims, h->dims[k], r));
}

/* One function, the miss a tail call: the long way's frame (about 800
 * bytes and six saved registers) and a call level are off the hit path
 * (call_64_f32 14.7 -> 12.6 ns on Zen 5, with the asm below).  Under
 * -fPIC the record's address is a call (__tls_get_addr; relaxed in a
 * static link, but the registers are saved for it all the same), so a
 * frame-less test of the record first is not to be had: an initial-exec
 * flag would be, but a static binary that dlopens the .so has no room for
 * it ("cannot allocate memory in static TLS block"). */
int opt_hit_execute(const sel_tensor *cond, const sel_tensor *then_,
                    const sel_tensor *else_, sel_broadcast b,
                    sel_tensor *dst)
{
    /* The record's address taken once and hidden from the compiler by
     * an empty asm: left to itself it takes it again for every field it
     * reads.  A volatile local did the same through a store and a load,
     * and every field waited on that forwarding. */
    hit *h = &last;
    uintptr_t d, c, th, el;

    __asm__("" : "+r"(h));
    if (!h->armed ||
        h->epoch != atomic_load_explicit(&epoch, memory_order_relaxed) ||
        b.type != h->b.type || b.axis != h->b.axis || b.flags != h->b.flags ||
        !same_desc(h, 0, cond) || !same_desc(h, 1, then_) ||
        !same_desc(h, 2, else_) || !same_desc(h, 3, dst))
        goto miss;
    /* IO-ALIAS-2: never cond; IO-ALIAS-1: then or else only as dst itself */
    d = (uintptr_t)dst->data, c = (uintptr_t)cond->data;
    th = (uintptr_t)then_->data, el = (uintptr_t)else_->data;
    if (ovl(d, h->db, c, h->ib[0]) ||
        ((th != d || !h->inpl[1]) && ovl(d, h->db, th, h->ib[1])) ||
        ((el != d || !h->inpl[2]) && ovl(d, h->db, el, h->ib[2])))
        goto miss;
    if (h->act.fn) {
        h->act.fn(h->act.ctx, cond->data, then_->data, else_->data,
                  dst->data);
    } else { /* one row: its kernel, or a copy or fill when cond is one */
        const int k = h->act.kern[0] ? 0 : *(const uint8_t *)cond->data ? 1 : 2;
        h->act.kern[k](h->act.n, cond->data,
                       k == 2 ? else_->data : then_->data, else_->data,
                       dst->data, 0);
    }
    return SEL_OK;
miss:
    h->armed = 0;
    return opt_execute_long(cond, then_, else_, b, dst);
}

void opt_hit_arm(const sel_tensor *cond, const sel_tensor *then_,
                 const sel_tensor *else_, sel_broadcast b,
                 const sel_tensor *dst, size_t w, const size_t in_bytes[3],
                 const opt_hit_act *a)
{
    const sel_tensor *const t[4] = {cond, then_, else_, dst};
    hit *const h = &last;
    const size_t db = a->n * w;

    h->epoch = atomic_load_explicit(&epoch, memory_order_relaxed);
    h->b = b;
    for (int k = 0; k < 4; k++) {
        const int32_t r = t[k]->rank;
        h->head[k] = head_of(t[k]), h->rank[k] = r;
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
    h->armed = 1;
}
