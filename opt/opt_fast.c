/* opt_fast.c - a valid call's checks, placement and coalescing in one pass
 * over the output axes, innermost first, with no opt_geom, under every mode
 * (none, numpy one way or bidirectional, pdpd at any axis): opt_check and
 * opt_plan_make take three passes and ~1800 instructions on a rank-8 call.
 * Anything unusual (an error, an empty output, overlap) returns 0 and goes
 * the long way, which gives the status in the order of ERR-ORDER-1.
 */
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
static int args_ok(const sel_tensor *const t[4], sel_broadcast b)
{
    for (int k = 0; k < 4; k++)
        if (!t[k] || t[k]->rank < 0 || t[k]->rank > SEL_MAX_RANK ||
            (t[k]->rank && !t[k]->dims) || !t[k]->data)
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

/* Operand dim at output axis i from the right; 1 outside the operand. */
static inline int64_t odim(const int64_t *dims, int32_t rank, int32_t pad,
                           int32_t i)
{
    const uint32_t j = (uint32_t)(i - pad);
    return j < (uint32_t)rank ? dims[rank - 1 - (int32_t)j] : 1;
}

/* IO-ALIAS-1, IO-ALIAS-2: dst shares no byte with cond, nor with then or
 * else unless it is the same buffer with dst's shape (rank R, count n). */
static int alias_ok(const sel_tensor *const t[4], const int64_t step[3],
                    int32_t R, int64_t n, size_t w)
{
    const size_t bytes = (size_t)n * w;
    if (opt_overlap(t[3]->data, bytes, t[0]->data, (size_t)step[0]))
        return 0;
    for (int k = 1; k < 3; k++)
        if (opt_overlap(t[3]->data, bytes, t[k]->data, (size_t)step[k] * w) &&
            !(t[3]->data == t[k]->data && t[k]->rank == R && step[k] == n))
            return 0;
    return 1;
}

/* The axes, innermost first: each output dim d from the mode (then's, or
 * numpy's merge), every operand's dim d or, where the mode lets a 1
 * broadcast, 1 (d >= 1: an empty output goes the long way); dst's shape
 * (SHAPE-DST-1); the count's overflow; each operand's stride, axes of 1
 * dropped, neighbours merged where every operand steps across both as
 * over one (as opt_plan_make).  Entries in ax/st innermost first; returns
 * their number, or -1. */
static int32_t axes(const sel_tensor *const t[4], const lay *L, int64_t *count,
                    int64_t step[3], int64_t *ax, int64_t st[3][SEL_MAX_RANK])
{
    /* Locals: the pass's int64_t stores could alias the dims. */
    const int64_t *const c = t[0]->dims, *const th = t[1]->dims,
                         *const el = t[2]->dims, *const ds = t[3]->dims;
    const int32_t rc = t[0]->rank, rt = t[1]->rank, re = t[2]->rank, R = L->R;
    const int32_t pc = L->pad[0], pt = L->pad[1], pe = L->pad[2];
    int64_t n = 1, s0 = 1, s1 = 1, s2 = 1;
    int32_t r = 0;

    for (int32_t i = 0; i < R; i++) {
        const int64_t dc = odim(c, rc, pc, i), dt = odim(th, rt, pt, i),
                      de = odim(el, re, pe, i);
        int64_t d = dt, a, b, e;
        if (d == 1 && L->bc1)
            d = de != 1 || !L->cc1 ? de : dc;
        if (d < 1 || ds[R - 1 - i] != d ||
            (dt != d && !(dt == 1 && L->bc1)) ||
            (de != d && !(de == 1 && L->any1)) ||
            (dc != d && !(dc == 1 && L->any1)) ||
            __builtin_mul_overflow(n, d, &n))
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
    return r;
}

int opt_fast_plan(const sel_tensor *cond, const sel_tensor *then_,
                  const sel_tensor *else_, sel_broadcast b,
                  const sel_tensor *dst, opt_plan *p, size_t *width)
{
    const sel_tensor *const t[4] = {cond, then_, else_, dst};
    int64_t step[3] = {1, 1, 1}, n = 1, nb, ax[SEL_MAX_RANK];
    int64_t st[3][SEL_MAX_RANK];
    int32_t r;
    size_t w;
    lay L;

    if (!args_ok(t, b) || !layout(t, b, &L) || dst->rank != L.R)
        return 0;
    w = sel_dtype_size(then_->dtype);
    if ((r = axes(t, &L, &n, step, ax, st)) < 0 ||
        __builtin_mul_overflow(n, (int64_t)w, &nb) || (uint64_t)nb > SIZE_MAX ||
        !alias_ok(t, step, L.R, n, w))
        return 0; /* SHAPE-OVF-1 above: inputs are no larger than dst */
    if (r == 0) { /* one element: any stride reads it */
        ax[0] = 1, st[0][0] = st[1][0] = st[2][0] = 1;
        r = 1;
    }
    p->rank = r;
    for (int32_t i = 0; i < r; i++) {
        p->dims[i] = ax[r - 1 - i];
        for (int k = 0; k < 3; k++)
            p->st[k][i] = st[k][r - 1 - i];
    }
    p->footprint = (size_t)step[0] + (size_t)(step[1] + step[2] + n) * w;
    for (int k = 0; k < 3; k++)
        p->in_bytes[k] = (size_t)step[k] * (k ? w : 1);
    opt_plan_finish(p, w);
    *width = w;
    return 1;
}
