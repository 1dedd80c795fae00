/* broken_shape.c - the shape checks every broken library shares (they
 * follow spec/select.md but for the bugs marked BUG(<name>)): ranks and
 * sizes, the three broadcast modes, dst's shape, in ERR-ORDER-1's order. */
#include <stdint.h>
#include <string.h>

#include "broken.h"

/* SHAPE-RANK-1, SHAPE-NEG-1, SHAPE-OVF-1 (count and bytes, no overflow). */
static int fits(const shape *s, size_t es)
{
    uint64_t n = 1;
    int32_t i;
    for (i = 0; i < s->rank; i++)
        if (s->d[i] == 0)
            return 1;
#if IS(ovf_zero_only) /* BUG(ovf_zero_only): only a wrapped 0 is seen */
    for (i = 0; i < s->rank; i++)
        n *= (uint64_t)s->d[i];
    return n * es != 0;
#endif
    for (i = 0; i < s->rank; i++) {
        if ((uint64_t)s->d[i] > (uint64_t)INT64_MAX / n)
            return 0;
        n *= (uint64_t)s->d[i];
    }
    return n <= SIZE_MAX / es;
}

static int read_shape(const sel_tensor *t, shape *s)
{
    int32_t i;
    if (t->rank < 0 || t->rank > SEL_MAX_RANK)
        return SEL_ERR_SHAPE;
    s->rank = t->rank;
    for (i = 0; i < t->rank; i++)
        if ((s->d[i] = t->dims[i]) < 0)
            return SEL_ERR_SHAPE;
    return fits(s, sel_dtype_size(t->dtype)) ? SEL_OK : SEL_ERR_SHAPE;
}

int bk_same(const shape *a, const shape *b)
{
    return a->rank == b->rank &&
           !memcmp(a->d, b->d, (size_t)a->rank * sizeof a->d[0]);
}

/* Merge b into a at axis `first` (numpy: right-aligned, both ways unless
 * oneway; pdpd: one way, a 1 in a yields only to 0, a b dim above a's is
 * an error, a b 1 against an a 0 too: BC-PDPD-1). */
static int merge(shape *a, const shape *b, int32_t first, int oneway)
{
    shape o;
    int32_t i, off;
    if (oneway && (b->rank > a->rank || first < 0 || first > a->rank - b->rank))
        return SEL_ERR_SHAPE;
    o.rank = a->rank > b->rank ? a->rank : b->rank;
    off = oneway ? first : o.rank - b->rank;
    for (i = 0; i < o.rank; i++) {
        int64_t x = i - (o.rank - a->rank) >= 0 ? a->d[i - (o.rank - a->rank)] : 1;
        int64_t y = i >= off && i < off + b->rank ? b->d[i - off] : 1;
        if (oneway && i >= off && i < off + b->rank && y > x)
            return SEL_ERR_SHAPE;
        if (x == y || y == 1)
            o.d[i] = x;
        else if (x == 1 && (!oneway || y == 0))
            o.d[i] = y;
        else
            return SEL_ERR_SHAPE;
    }
    *a = o;
    return SEL_OK;
}

/* Everything infer and execute check before touching data, in the order
 * of ERR-ORDER-1.  first[k]: output axis of input k's axis 0. */
int bk_check(const sel_tensor *t[3], sel_broadcast b, const sel_tensor *dst,
             shape in[3], shape *out, int32_t first[3])
{
    int k, st, bidir;
    int32_t ax;
    for (k = 0; k < 3; k++)
        if (!t[k] || (t[k]->rank > 0 && !t[k]->dims))
            return SEL_ERR_ARG;
    if (dst && dst->rank > 0 && !dst->dims)
        return SEL_ERR_ARG;
    if (b.type < SEL_BROADCAST_NONE || b.type > SEL_BROADCAST_PDPD ||
        (b.type == SEL_BROADCAST_PDPD && b.axis < -1))
        return SEL_ERR_ATTR;
    if (IS(flags_reject) && (b.flags & ~SEL_COND_BIDIRECTIONAL)) /* BUG(flags_reject) */
        return SEL_ERR_ATTR;
    for (k = 0; k < 3; k++)
        if (!sel_dtype_size(t[k]->dtype))
            return SEL_ERR_DTYPE;
    if (t[0]->dtype != SEL_DT_BOOLEAN || t[1]->dtype != t[2]->dtype ||
        (dst && dst->dtype != t[1]->dtype))
        return SEL_ERR_DTYPE;
    for (k = 0; k < 3; k++)
        if ((st = read_shape(t[k], &in[k])))
            return st;
    *out = in[1];
    bidir = (b.flags & SEL_COND_BIDIRECTIONAL) || IS(bidir_cond); /* BUG(bidir_cond) */
    if (b.type == SEL_BROADCAST_NONE) {
        if (!bk_same(&in[0], &in[1]) || !bk_same(&in[1], &in[2]))
            return SEL_ERR_SHAPE;
    } else if (b.type == SEL_BROADCAST_PDPD) {
        first[1] = 0;
        for (k = 2; k >= 0; k -= 2) {
            ax = b.axis == -1 ? out->rank - in[k].rank : b.axis;
            if ((st = merge(out, &in[k], ax, 1)))
                return st;
            first[k] = ax;
        }
    } else if ((st = merge(out, &in[2], 0, 0))) {
        return st;
    } else if (bidir) {
        if ((st = merge(out, &in[0], 0, 0)))
            return st;
    } else {
        shape r = *out;
        if (in[0].rank > r.rank || merge(&r, &in[0], 0, 0) || !bk_same(&r, out))
            return SEL_ERR_SHAPE;
    }
    if (!fits(out, sel_dtype_size(t[1]->dtype)))
        return SEL_ERR_SHAPE;
    if (b.type != SEL_BROADCAST_PDPD)
        for (k = 0; k < 3; k++)
            first[k] = out->rank - in[k].rank;
    if (dst) {
        shape d;
        if ((st = read_shape(dst, &d)))
            return st;
        if (!bk_same(&d, out))
            return SEL_ERR_SHAPE;
    }
    return SEL_OK;
}

int64_t bk_count(const shape *s)
{
    int64_t n = 1;
    int32_t i;
    for (i = 0; i < s->rank; i++)
        n *= s->d[i];
    return n;
}
