/* opt_fast.c - a numpy call's checks, placement and coalescing in one pass
 * over the output axes, innermost first, with no opt_geom: opt_check and
 * opt_plan_make take three passes and ~1800 instructions on a rank-8 call.
 * Anything unusual returns 0 and goes the long way, which gives the status.
 */
#include "opt.h"

/* Dim i counted from the right of dims[0..rank); 1 past the left end
 * (BC-NUMPY-2). */
static inline int64_t rdim(const int64_t *dims, int32_t rank, int32_t i)
{
    return i < rank ? dims[rank - 1 - i] : 1;
}

/* Everything but the shapes: present, in range, the numpy mode without
 * bidirectional cond, dtypes that fit (DT-*), data present. */
static int args_ok(const sel_tensor *const t[4], sel_broadcast b)
{
    for (int k = 0; k < 4; k++)
        if (!t[k] || t[k]->rank < 0 || t[k]->rank > SEL_MAX_RANK ||
            (t[k]->rank && !t[k]->dims) || !t[k]->data)
            return 0;
    return b.type == SEL_BROADCAST_NUMPY &&
           !(b.flags & SEL_COND_BIDIRECTIONAL) &&
           t[0]->dtype == SEL_DT_BOOLEAN && sel_dtype_size(t[1]->dtype) &&
           t[2]->dtype == t[1]->dtype && t[3]->dtype == t[1]->dtype;
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

/* The axes, innermost first: BC-NUMPY-1..4 (then and else merge; d >= 1
 * makes every dim >= 1: an empty output goes the long way), BC-NUMPY-3
 * (cond fits one way), SHAPE-DST-1; each operand's stride, axes of 1
 * dropped, neighbours merged where every operand steps across both as over
 * one (as opt_plan_make).  Entries in ax/st innermost first; returns their
 * number, or -1. */
static int32_t axes(const sel_tensor *const t[4], int32_t R, int64_t *count,
                    int64_t step[3], int64_t *ax, int64_t st[3][SEL_MAX_RANK])
{
    /* Locals: the pass's int64_t stores could alias the dims. */
    const int64_t *const c = t[0]->dims, *const th = t[1]->dims,
                         *const el = t[2]->dims, *const ds = t[3]->dims;
    const int32_t rc = t[0]->rank, rt = t[1]->rank, re = t[2]->rank;
    int64_t n = 1, s0 = 1, s1 = 1, s2 = 1;
    int32_t r = 0;

    for (int32_t i = 0; i < R; i++) {
        const int64_t dc = rdim(c, rc, i), dt = rdim(th, rt, i),
                      de = rdim(el, re, i), d = dt == 1 ? de : dt;
        int64_t a, b, c;
        if (d < 1 || (de != d && de != 1) ||
            (dc != d && dc != 1) || ds[R - 1 - i] != d ||
            __builtin_mul_overflow(n, d, &n))
            return -1;
        if (d == 1)
            continue;
        a = dc == 1 ? 0 : s0, s0 *= dc;
        b = dt == 1 ? 0 : s1, s1 *= dt;
        c = de == 1 ? 0 : s2, s2 *= de;
        if (r > 0 && a == st[0][r - 1] * ax[r - 1] &&
            b == st[1][r - 1] * ax[r - 1] && c == st[2][r - 1] * ax[r - 1]) {
            ax[r - 1] *= d;
            continue;
        }
        ax[r] = d, st[0][r] = a, st[1][r] = b, st[2][r] = c;
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
    const uint64_t lim = (uint64_t)INT64_MAX < SIZE_MAX ? (uint64_t)INT64_MAX
                                                        : (uint64_t)SIZE_MAX;
    int64_t step[3] = {1, 1, 1}, n = 1, ax[SEL_MAX_RANK];
    int64_t st[3][SEL_MAX_RANK];
    int32_t R, r;
    size_t w;

    if (!args_ok(t, b))
        return 0;
    R = then_->rank > else_->rank ? then_->rank : else_->rank;
    w = sel_dtype_size(then_->dtype);
    if (cond->rank > R || dst->rank != R ||
        (r = axes(t, R, &n, step, ax, st)) < 0 || (uint64_t)n > lim / w ||
        !alias_ok(t, step, R, n, w))
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
