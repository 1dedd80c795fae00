/* opt_shape.c - the optimized backend's own validation and shape inference
 * (opt never includes ref/).  Statuses follow spec/select.md in the order of
 * ERR-ORDER-1; harness/diff/difftest.c checks that they equal the reference's.
 *
 * Everything here is O(rank) on at most SEL_MAX_RANK dims, with no
 * allocation: it runs on every call, including the 64-element ones.
 */
#include "opt.h"

/* SHAPE-OVF-1: the product of d times size fits int64_t and size_t; any 0
 * dim makes it 0 whatever the others.  Dims are known non-negative. */
static int fits(const int64_t *d, int32_t rank, size_t size, int64_t *count)
{
    const uint64_t lim = (uint64_t)INT64_MAX < SIZE_MAX ? (uint64_t)INT64_MAX
                                                        : (uint64_t)SIZE_MAX;
    int64_t n = 1;
    int over = 0;
    int32_t i;

    for (i = 0; i < rank; i++) {
        if (d[i] == 0) {
            *count = 0;
            return SEL_OK;
        }
        over |= __builtin_mul_overflow(n, d[i], &n);
    }
    if (over || (uint64_t)n > lim / size)
        return SEL_ERR_SHAPE;
    *count = n;
    return SEL_OK;
}

/* SHAPE-RANK-1, SHAPE-NEG-1, SHAPE-OVF-1 for one tensor. */
static int read_dims(const sel_tensor *t, opt_dims *s, int64_t *count)
{
    int32_t i;

    if (t->rank < 0 || t->rank > SEL_MAX_RANK)
        return SEL_ERR_SHAPE;
    s->rank = t->rank;
    for (i = 0; i < t->rank; i++) {
        if (t->dims[i] < 0)
            return SEL_ERR_SHAPE;
        s->d[i] = t->dims[i];
    }
    return fits(s->d, s->rank, sel_dtype_size(t->dtype), count);
}

/* Dim i counted from the right; 1 past the left end (BC-NUMPY-2). */
static int64_t rdim(const opt_dims *s, int32_t i)
{
    return i < s->rank ? s->d[s->rank - 1 - i] : 1;
}

/* acc <- numpy broadcast of acc and s: BC-NUMPY-1, -2, -4. */
static int numpy_merge(opt_dims *acc, const opt_dims *s)
{
    const int32_t r = acc->rank > s->rank ? acc->rank : s->rank;
    int64_t out[SEL_MAX_RANK];
    int32_t i;

    for (i = 0; i < r; i++) {
        const int64_t a = rdim(acc, i), b = rdim(s, i);
        if (a != b && a != 1 && b != 1)
            return SEL_ERR_SHAPE; /* 0 against n > 1 lands here too */
        out[r - 1 - i] = a == 1 ? b : a;
    }
    acc->rank = r;
    for (i = 0; i < r; i++)
        acc->d[i] = out[i];
    return SEL_OK;
}

/* BC-NUMPY-3: cond fits res one way and never changes it. */
static int numpy_oneway(const opt_dims *res, const opt_dims *c)
{
    int32_t i;
    if (c->rank > res->rank)
        return SEL_ERR_SHAPE;
    for (i = 0; i < c->rank; i++)
        if (rdim(c, i) != 1 && rdim(c, i) != rdim(res, i))
            return SEL_ERR_SHAPE;
    return SEL_OK;
}

/* pdpd: b merges one way into a at axis (BC-PDPD-1..6).  The axis of -1 is
 * computed per merge from b's rank as given, trailing 1s included
 * (BC-PDPD-2, BC-PDPD-4).  a never grows: a b dim above a's fails first
 * (a b 1 against an a 0 too); a's only change is a 1 meeting a 0, which
 * becomes 0 (BC-NUMPY-4). */
static int pdpd_merge(opt_dims *a, const opt_dims *b, int32_t axis,
                      int32_t *first)
{
    int32_t i;

    if (b->rank > a->rank)
        return SEL_ERR_SHAPE; /* BC-PDPD-6 */
    if (axis == -1)
        axis = a->rank - b->rank;
    if ((int64_t)axis + b->rank > a->rank)
        return SEL_ERR_SHAPE; /* BC-PDPD-3 */
    for (i = 0; i < b->rank; i++) {
        int64_t *ad = &a->d[axis + i];
        if (b->d[i] > *ad)
            return SEL_ERR_SHAPE; /* BC-PDPD-1 */
        if (*ad == 1)
            *ad = b->d[i]; /* BC-NUMPY-4 */
        else if (b->d[i] != 1 && b->d[i] != *ad)
            return SEL_ERR_SHAPE; /* BC-PDPD-1, BC-NUMPY-4 */
    }
    *first = axis;
    return SEL_OK;
}

static int same_dims(const opt_dims *a, int32_t rank, const int64_t *d)
{
    int32_t i;
    if (a->rank != rank)
        return 0;
    for (i = 0; i < rank; i++)
        if (a->d[i] != d[i])
            return 0;
    return 1;
}

/* SHAPE-OVF-1 for the output, which broadcasting can make larger than
 * every input (then 2^40x1, else 1x2^40). */
static int out_count(opt_geom *g, size_t size)
{
    return fits(g->out.d, g->out.rank, size, &g->count);
}

int opt_check(const sel_tensor *cond, const sel_tensor *then_,
              const sel_tensor *else_, sel_broadcast b, const sel_tensor *dst,
              opt_geom *g)
{
    const sel_tensor *t[4] = {cond, then_, else_, dst};
    int k, st;

    for (k = 0; k < (dst ? 4 : 3); k++) /* ARG-NULL-1 */
        if (!t[k] || (t[k]->rank != 0 && !t[k]->dims))
            return SEL_ERR_ARG;
    if (b.type != SEL_BROADCAST_NONE && b.type != SEL_BROADCAST_NUMPY &&
        b.type != SEL_BROADCAST_PDPD)
        return SEL_ERR_ATTR; /* ARG-ATTR-1 */
    if (b.type == SEL_BROADCAST_PDPD && b.axis < -1)
        return SEL_ERR_ATTR; /* BC-PDPD-3 */
    for (k = 0; k < 3; k++)
        if (sel_dtype_size(t[k]->dtype) == 0)
            return SEL_ERR_DTYPE; /* DT-UNKNOWN-1 */
    if (cond->dtype != SEL_DT_BOOLEAN || then_->dtype != else_->dtype ||
        (dst && dst->dtype != then_->dtype))
        return SEL_ERR_DTYPE; /* DT-COND-1, DT-SAME-1, DT-DST-1 */
    for (k = 0; k < 3; k++)
        if ((st = read_dims(t[k], &g->in[k], &g->in_count[k])) != SEL_OK)
            return st;

    g->out = g->in[1];
    g->first[1] = 0;
    switch (b.type) {
    case SEL_BROADCAST_NONE: /* BC-NONE-1 */
        if (!same_dims(&g->in[0], g->out.rank, g->out.d) ||
            !same_dims(&g->in[2], g->out.rank, g->out.d))
            return SEL_ERR_SHAPE;
        g->first[0] = g->first[2] = 0;
        break;
    case SEL_BROADCAST_PDPD: /* BC-PDPD-1, BC-PDPD-5: then's shape stays */
        if ((st = pdpd_merge(&g->out, &g->in[2], b.axis, &g->first[2])) ||
            (st = pdpd_merge(&g->out, &g->in[0], b.axis, &g->first[0])))
            return st;
        break;
    default:
        if ((st = numpy_merge(&g->out, &g->in[2])))
            return st;
        st = b.flags & SEL_COND_BIDIRECTIONAL
                 ? numpy_merge(&g->out, &g->in[0])   /* BC-NUMPY-5 */
                 : numpy_oneway(&g->out, &g->in[0]); /* BC-NUMPY-3 */
        if (st)
            return st;
        for (k = 0; k < 3; k++)
            g->first[k] = g->out.rank - g->in[k].rank;
    }
    if ((st = out_count(g, sel_dtype_size(then_->dtype))))
        return st;
    if (dst && !same_dims(&g->out, dst->rank, dst->dims))
        return SEL_ERR_SHAPE; /* SHAPE-DST-1 */
    return SEL_OK;
}

int opt_check_data(const sel_tensor *cond, const sel_tensor *then_,
                   const sel_tensor *else_, const sel_tensor *dst,
                   const opt_geom *g)
{
    const sel_tensor *in[3] = {cond, then_, else_};
    const size_t w = sel_dtype_size(then_->dtype);
    const size_t bytes = (size_t)g->count * w;
    int k;

    for (k = 0; k < 3; k++) /* ARG-NULL-1: data of a non-empty input */
        if (!in[k]->data && g->in_count[k] != 0)
            return SEL_ERR_ARG;
    if (g->count == 0)
        return SEL_OK; /* IO-ZERO-1: nothing to write, dst->data unused */
    if (!dst->data)
        return SEL_ERR_ARG;
    if (opt_overlap(dst->data, bytes, cond->data, (size_t)g->in_count[0]))
        return SEL_ERR_ARG; /* IO-ALIAS-2: never cond */
    for (k = 1; k < 3; k++) /* IO-ALIAS-1: the same buffer with dst's shape */
        if (opt_overlap(dst->data, bytes, in[k]->data, (size_t)g->in_count[k] * w) &&
            !(dst->data == in[k]->data &&
              same_dims(&g->in[k], g->out.rank, g->out.d)))
            return SEL_ERR_ARG; /* IO-ALIAS-2 */
    return SEL_OK;
}

/* The common call, decided fast: none or numpy, four tensors of one shape,
 * valid dtypes, data present and no overlap but in place.  Returns 1 with
 * the element count when the call is valid and such; 0 sends it through
 * opt_check and opt_check_data, which then also give the exact status of
 * anything wrong.  Everything checked here is checked there too. */
int opt_check_same(const sel_tensor *cond, const sel_tensor *then_,
                   const sel_tensor *else_, sel_broadcast b,
                   const sel_tensor *dst, int64_t *count)
{
    size_t w, bytes, i;
    int32_t r;

    /* The shapes first: a broadcast call, the usual one that is not
     * same-shape, fails there and skips the rest. */
    if (!cond || !then_ || !else_ || !dst || (r = then_->rank) < 1 ||
        r > SEL_MAX_RANK || cond->rank != r || else_->rank != r ||
        dst->rank != r || !then_->dims || !cond->dims || !else_->dims ||
        !dst->dims)
        return 0;
    for (i = 0; i < (size_t)r; i++)
        if (then_->dims[i] < 0 || cond->dims[i] != then_->dims[i] ||
            else_->dims[i] != then_->dims[i] || dst->dims[i] != then_->dims[i])
            return 0;
    if ((w = sel_dtype_size(then_->dtype)) == 0 ||
        (b.type != SEL_BROADCAST_NONE && b.type != SEL_BROADCAST_NUMPY) ||
        cond->dtype != SEL_DT_BOOLEAN || else_->dtype != then_->dtype ||
        dst->dtype != then_->dtype)
        return 0;
    if (fits(then_->dims, r, w, count) != SEL_OK || *count == 0 ||
        !cond->data || !then_->data || !else_->data || !dst->data)
        return 0;
    bytes = (size_t)*count * w;
    if (opt_overlap(dst->data, bytes, cond->data, (size_t)*count) ||
        (dst->data != then_->data && opt_overlap(dst->data, bytes, then_->data, bytes)) ||
        (dst->data != else_->data && opt_overlap(dst->data, bytes, else_->data, bytes)))
        return 0;
    return 1;
}
