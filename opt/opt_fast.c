/* opt_fast.c - a valid call's checks, placement and coalescing in one pass
 * over the output axes, innermost first, with no opt_geom, under every mode
 * (none, numpy one way or bidirectional, pdpd at any axis): opt_check and
 * opt_plan_make take three passes and ~1800 instructions on a rank-8 call.
 * Anything unusual (an error, an empty output, overlap) returns 0 and goes
 * the long way, which gives the status in the order of ERR-ORDER-1.
 */
#include <string.h>

#include "opt.h"

/* Where each operand sits: its axis j (from the right) is output axis
 * pad + j from the right; every other output axis is a 1 for it. */
typedef struct lay {
    int32_t R, pad[3];
    int bc1;  /* then may be 1 where the output is not (numpy) */
    int cc1;  /* ... and cond decides a dim too (BC-NUMPY-5) */
    int any1; /* a 1 broadcasts at all (not none) */
} lay;

/* Everything but the shapes: present, in range, a known mode (pdpd axis
 * >= -1), dtypes that fit (DT-*), data present. */
static inline int arg_ok(const sel_tensor *x)
{
    return x && (uint32_t)x->rank <= SEL_MAX_RANK && (!x->rank || x->dims) &&
           x->data;
}

/* Unrolled over the four descriptors (a loop over k cost more). */
static int args_ok(const sel_tensor *const t[4], sel_broadcast b)
{
    if (!arg_ok(t[0]) || !arg_ok(t[1]) || !arg_ok(t[2]) || !arg_ok(t[3]))
        return 0;
    return (b.type == SEL_BROADCAST_NUMPY || b.type == SEL_BROADCAST_NONE ||
            (b.type == SEL_BROADCAST_PDPD && b.axis >= -1)) &&
           t[0]->dtype == SEL_DT_BOOLEAN && sel_dtype_size(t[1]->dtype) &&
           t[2]->dtype == t[1]->dtype && t[3]->dtype == t[1]->dtype;
}

/* The output's rank and each operand's place, per mode: BC-NONE-1 (one
 * shape), BC-NUMPY-2 (right-aligned; cond no longer than the rest unless
 * bidirectional, BC-NUMPY-3/5), BC-PDPD-2/3/6 (then is the output; else and
 * cond at the axis, or right-aligned for -1).  0: not a valid layout. */
static int layout(const sel_tensor *const t[4], sel_broadcast b, lay *L)
{
    const int32_t rc = t[0]->rank, rt = t[1]->rank, re = t[2]->rank;
    L->pad[0] = L->pad[1] = L->pad[2] = 0;
    L->any1 = b.type != SEL_BROADCAST_NONE;
    L->bc1 = b.type == SEL_BROADCAST_NUMPY;
    L->cc1 = L->bc1 && (b.flags & SEL_COND_BIDIRECTIONAL);
    L->R = rt;
    if (b.type == SEL_BROADCAST_NONE)
        return rc == rt && re == rt;
    if (b.type == SEL_BROADCAST_NUMPY) {
        L->R = rt > re ? rt : re;
        if (L->cc1 && rc > L->R)
            L->R = rc;
        return rc <= L->R;
    }
    if (rc > rt || re > rt) /* BC-PDPD-6 */
        return 0;
    if (b.axis >= 0) { /* BC-PDPD-3: the window ends inside then */
        L->pad[0] = rt - b.axis - rc, L->pad[2] = rt - b.axis - re;
        return L->pad[0] >= 0 && L->pad[2] >= 0;
    }
    return 1;
}

/* IO-ALIAS-1 for then or else x (m elements): no shared byte with dst
 * unless the same buffer with dst's shape. */
static inline int input_ok(const sel_tensor *d, size_t bytes,
                           const sel_tensor *x, int64_t m, int32_t R,
                           int64_t n, size_t w)
{
    return !opt_overlap(d->data, bytes, x->data, (size_t)m * w) ||
           (d->data == x->data && x->rank == R && m == n);
}

/* IO-ALIAS-1, IO-ALIAS-2: dst shares no byte with cond, nor with then or
 * else unless it is the same buffer with dst's shape (rank R, count n). */
static int alias_ok(const sel_tensor *const t[4], const int64_t step[3],
                    int32_t R, int64_t n, size_t w)
{
    const size_t bytes = (size_t)n * w;
    return !opt_overlap(t[3]->data, bytes, t[0]->data, (size_t)step[0]) &&
           input_ok(t[3], bytes, t[1], step[1], R, n, w) &&
           input_ok(t[3], bytes, t[2], step[2], R, n, w);
}

/* The axes, innermost first (same: every operand has the output's rank,
 * no pad): each output dim d from the mode (then's, or
 * numpy's merge), every operand's dim d or, where the mode lets a 1
 * broadcast, 1 (d >= 1: an empty output goes the long way); dst's shape
 * (SHAPE-DST-1); the count's overflow; each operand's stride, axes of 1
 * dropped, neighbours merged where every operand steps across both as
 * over one (as opt_plan_make).  Fills p's dims and strides, outermost
 * first; returns their number, or -1. */
static inline __attribute__((always_inline)) int32_t
axes(const sel_tensor *const t[4], const lay *L, int64_t *count,
     int64_t step[3], opt_plan *p, const int same)
{
    /* Built on the stack (the memo's plan is thread-local: its address
     * took a register of the loop), innermost first, then moved to the
     * plan in reverse (in order, gcc made the move four calls of libc's
     * memmove: 5% of a cold rank-8 call). */
    int64_t ax[SEL_MAX_RANK], st[3][SEL_MAX_RANK];
    /* Locals: the pass's int64_t stores could alias the dims. */
    const int64_t *const c = t[0]->dims, *const th = t[1]->dims,
                         *const el = t[2]->dims, *const ds = t[3]->dims;
    const uint32_t rc = (uint32_t)t[0]->rank, rt = (uint32_t)t[1]->rank,
                   re = (uint32_t)t[2]->rank;
    const int bc1 = L->bc1, cc1 = L->cc1, no1 = !L->any1;
    /* Each operand's index of the dim at output axis i from the right,
     * counting down; outside [0, rank) the operand has a 1 there. */
    int32_t jc = (int32_t)rc - 1 + L->pad[0], jt = (int32_t)rt - 1 + L->pad[1],
            je = (int32_t)re - 1 + L->pad[2];
    int64_t n = 1, s0 = 1, s1 = 1, s2 = 1;
    int32_t r = 0;

    for (int32_t i = L->R - 1; i >= 0; i--, jc--, jt--, je--) {
        const int64_t dc = same ? c[i] : (uint32_t)jc < rc ? c[jc] : 1,
                      dt = same ? th[i] : (uint32_t)jt < rt ? th[jt] : 1,
                      de = same ? el[i] : (uint32_t)je < re ? el[je] : 1;
        int64_t d = dt, a, b, e, one;
        if (d == 1 && bc1) { /* then's 1 broadcasts: else (or cond) decide */
            d = de;
            if (d == 1 && cc1)
                d = dc;
        }
        one = no1 ? d : 1; /* the dim that may stand for d */
        if (d < 1 || ds[i] != d || (de != d && de != one) ||
            (dc != d && dc != one) || __builtin_mul_overflow(n, d, &n))
            return -1;
        if (d == 1)
            continue;
        a = dc == 1 ? 0 : s0, s0 *= dc;
        b = dt == 1 ? 0 : s1, s1 *= dt;
        e = de == 1 ? 0 : s2, s2 *= de;
        if (r > 0 && a == st[0][r - 1] * ax[r - 1] &&
            b == st[1][r - 1] * ax[r - 1] && e == st[2][r - 1] * ax[r - 1]) {
            ax[r - 1] *= d;
            continue;
        }
        ax[r] = d, st[0][r] = a, st[1][r] = b, st[2][r] = e;
        r++;
    }
    *count = n, step[0] = s0, step[1] = s1, step[2] = s2;
    for (int32_t i = 0, j = r - 1; j >= 0; i++, j--) { /* from axis 0 */
        p->dims[i] = ax[j];
        p->st[0][i] = st[0][j], p->st[1][i] = st[1][j], p->st[2][i] = st[2][j];
    }
    return r;
}

/* The last planned call's shapes and plan, per thread: a graph calls
 * Select with the same shapes again and again, and comparing shapes costs
 * a fraction of planning them (rank 8: about 150 instructions against
 * 800).  Only what planning reads is compared; data pointers are checked
 * again on every call (ARG-NULL-1, IO-ALIAS-1/2). */
typedef struct memo {
    int ok, handed; /* handed: the plan went to a caller since it was made */
    int finished;   /* opt_plan_finish ran on p (opt_fast_full) */
    size_t w;
    sel_broadcast b;
    int32_t dtype[4], rank[4], R;
    int64_t dims[4][SEL_MAX_RANK], n, step[3];
    opt_plan p;
} memo;
static _Thread_local memo last;
static _Thread_local uint32_t plans_made; /* opt_plan.gen */

static int same_call(const memo *m, const sel_tensor *const t[4],
                     sel_broadcast b)
{
    if (!m->ok || b.type != m->b.type || b.axis != m->b.axis ||
        b.flags != m->b.flags)
        return 0;
    for (int k = 0; k < 4; k++) {
        const sel_tensor *x = t[k];
        if (!x || x->dtype != m->dtype[k] || x->rank != m->rank[k] ||
            !x->data || (x->rank && !x->dims))
            return 0;
        if (x->rank > 3) { /* a libc compare beats the loop from here */
            if (memcmp(x->dims, m->dims[k], sizeof(int64_t) * (size_t)x->rank))
                return 0;
        } else {
            for (int32_t i = 0; i < x->rank; i++)
                if (x->dims[i] != m->dims[k][i])
                    return 0;
        }
    }
    return 1;
}

/* One descriptor's dtype, rank and dims into the memo. */
static inline void keep(memo *m, int k, const sel_tensor *x)
{
    m->dtype[k] = x->dtype, m->rank[k] = x->rank;
    if (x->rank > 3) { /* ranks 4-8: two overlapping 4-dim blocks */
        const size_t o = (size_t)x->rank - 4;
        memcpy(m->dims[k], x->dims, 32);
        memcpy(m->dims[k] + o, x->dims + o, 32);
    } else
        for (int32_t i = 0; i < x->rank; i++)
            m->dims[k][i] = x->dims[i];
}

/* Unrolled over the four descriptors (a loop over k cost more). */
static void remember(memo *m, const sel_tensor *const t[4], sel_broadcast b,
                     const lay *L, int64_t n, const int64_t step[3])
{
    m->b = b, m->R = L->R, m->n = n;
    keep(m, 0, t[0]), keep(m, 1, t[1]), keep(m, 2, t[2]), keep(m, 3, t[3]);
    m->step[0] = step[0], m->step[1] = step[1], m->step[2] = step[2];
    m->ok = 1;
}

/* The fields plan() fills are equal (a and b of rank >= 1). */
static int plan_eq(const opt_plan *a, const opt_plan *b)
{
    const size_t r = (size_t)a->rank * sizeof(int64_t);
    return a->rank == b->rank && a->footprint == b->footprint &&
           !memcmp(a->in_bytes, b->in_bytes, sizeof a->in_bytes) &&
           !memcmp(a->dims, b->dims, r) && !memcmp(a->st[0], b->st[0], r) &&
           !memcmp(a->st[1], b->st[1], r) && !memcmp(a->st[2], b->st[2], r);
}

/* A call the memo does not hold: checked, planned and remembered (kept
 * out of opt_fast_plan, so that a memo hit pays none of its frame).  2
 * when another description of the plan handed out last (leading 1s, the
 * same walk under other dims): the memo keeps that plan, its number and
 * its finish, and the state built for it stays (the walk, the tiles, the
 * chunk program: rebuilding a 16-chunk program cost about 7 us, which the
 * bench's tiny_r2_f32 paid after each opt-cold batch: t1 30 ns, t2 24). */
static __attribute__((noinline)) int
plan(memo *m, const sel_tensor *const t[4], sel_broadcast b,
     const opt_plan **pp, size_t *width)
{
    int64_t step[3] = {1, 1, 1}, n = 1, nb;
    int32_t r;
    size_t w;
    lay L, numpy1 = {0, {0, 0, 0}, 1, 0, 1};
    opt_plan q, *const p = &q;
    const int kept = m->ok && m->handed;
    int same;

    if (!args_ok(t, b) || !layout(t, b, &L) || t[3]->rank != L.R)
        return 0;
    m->ok = m->handed = 0; /* the plan below may replace the memo's */
    numpy1.R = L.R;
    w = sel_dtype_size(t[1]->dtype);
    /* numpy one way, the common mode, gets a copy with its layout known;
     * so do operands of the output's rank (no index out of range) */
    if (t[0]->rank == L.R && t[1]->rank == L.R && t[2]->rank == L.R &&
        !L.pad[0] && !L.pad[2])
        r = L.bc1 && !L.cc1 ? axes(t, &numpy1, &n, step, p, 1)
                            : axes(t, &L, &n, step, p, 1);
    else
        r = L.bc1 && !L.cc1 ? axes(t, &numpy1, &n, step, p, 0)
                            : axes(t, &L, &n, step, p, 0);
    if (r < 0 ||
        __builtin_mul_overflow(n, (int64_t)w, &nb) || (uint64_t)nb > SIZE_MAX)
        return 0; /* SHAPE-OVF-1 above: inputs are no larger than dst */
    if (r == 0) { /* one element: any stride reads it */
        p->dims[0] = 1, p->st[0][0] = p->st[1][0] = p->st[2][0] = 1;
        r = 1;
    }
    p->rank = r;
    p->footprint = (size_t)step[0] + (size_t)(step[1] + step[2] + n) * w;
    for (int k = 0; k < 3; k++)
        p->in_bytes[k] = (size_t)step[k] * (k ? w : 1);
    /* rank 1 builds no state: a repeat would only arm the warm call's
     * record for a call that alternates (tiny_r1 cold 38 -> 53 ns) */
    same = kept && r > 1 && m->w == w && plan_eq(&m->p, p);
    if (!same) { /* the walk and the tiles need no blocking */
        p->gen = ++plans_made;
        m->p = *p, m->finished = 0, m->w = w;
    }
    remember(m, t, b, &L, n, step); /* the shapes are valid: overlap is not
                                       theirs but the pointers' */
    if (!alias_ok(t, step, L.R, n, w))
        return 0;
    *pp = &m->p, *width = w;
    m->handed = 1;
    return same ? 2 : 1;
}

/* The plan is built in the memo itself and handed out from there (a copy
 * of its 330 bytes cost more time than its instructions showed). */
int opt_fast_plan(const sel_tensor *cond, const sel_tensor *then_,
                  const sel_tensor *else_, sel_broadcast b,
                  const sel_tensor *dst, const opt_plan **pp, size_t *width)
{
    const sel_tensor *const t[4] = {cond, then_, else_, dst};
    memo *const m = &last;
    size_t w;

    if (!same_call(m, t, b))
        return plan(m, t, b, pp, width);
    w = sel_dtype_size(then_->dtype);
    if (!alias_ok(t, m->step, m->R, m->n, w))
        return 0;
    *pp = &m->p, *width = w;
    if (m->handed)
        return 2;
    m->handed = 1;
    return 1;
}

const opt_plan *opt_fast_full(void)
{
    memo *const m = &last;
    if (!m->finished)
        opt_plan_finish(&m->p, m->w), m->finished = 1;
    return &m->p;
}
