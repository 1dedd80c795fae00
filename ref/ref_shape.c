/* ref_shape.c - the reference's validation and shape inference.
 * Every branch names the rule of spec/select.md it implements.  Readable
 * before fast: shapes have at most SEL_MAX_RANK dims.
 */
#include "ref_internal.h"

static int valid_broadcast_type(int32_t t)
{
    return t == SEL_BROADCAST_NONE || t == SEL_BROADCAST_NUMPY ||
           t == SEL_BROADCAST_PDPD;
}

/* SHAPE-OVF-1: the exact product of s's dims times esize is at most
 * INT64_MAX and SIZE_MAX; any 0 dim makes it 0. */
static int fits_bytes(const ref_shape *s, size_t esize)
{
    int64_t count = 1, limit = INT64_MAX / (int64_t)esize;
    int32_t i;

    if ((uint64_t)limit > SIZE_MAX / esize)
        limit = (int64_t)(SIZE_MAX / esize);
    for (i = 0; i < s->rank; i++)
        if (s->dims[i] == 0)
            return SEL_OK;
    for (i = 0; i < s->rank; i++) {
        if (count > limit / s->dims[i])
            return SEL_ERR_SHAPE;
        count *= s->dims[i];
    }
    return SEL_OK;
}

/* SHAPE-RANK-1, SHAPE-NEG-1, SHAPE-OVF-1: copy t's shape into s. */
static int read_shape(const sel_tensor *t, ref_shape *s)
{
    int32_t i;

    if (t->rank < 0 || t->rank > SEL_MAX_RANK)
        return SEL_ERR_SHAPE; /* SHAPE-RANK-1 */
    s->rank = t->rank;
    for (i = 0; i < t->rank; i++) {
        if (t->dims[i] < 0)
            return SEL_ERR_SHAPE; /* SHAPE-NEG-1 */
        s->dims[i] = t->dims[i];
    }
    return fits_bytes(s, sel_dtype_size(t->dtype));
}

int64_t ref_count(const ref_shape *s)
{
    int64_t n = 1;
    int32_t i;
    for (i = 0; i < s->rank; i++)
        if (s->dims[i] == 0)
            return 0; /* before multiplying: {2^62, 2, 0} must not overflow */
    for (i = 0; i < s->rank; i++)
        n *= s->dims[i];
    return n;
}

int ref_same_shape(const ref_shape *a, const ref_shape *b)
{
    int32_t i;
    if (a->rank != b->rank)
        return 0;
    for (i = 0; i < a->rank; i++)
        if (a->dims[i] != b->dims[i])
            return 0;
    return 1;
}

/* Dim i counted from the right, 1 past the left end (BC-NUMPY-2). */
static int64_t dim_from_right(const ref_shape *s, int32_t i)
{
    return i < s->rank ? s->dims[s->rank - 1 - i] : 1;
}

/* acc = numpy broadcast of acc and s (BC-NUMPY-1, BC-NUMPY-2, BC-NUMPY-4). */
static int merge_numpy(ref_shape *acc, const ref_shape *s)
{
    ref_shape out;
    int32_t i;

    out.rank = acc->rank > s->rank ? acc->rank : s->rank;
    for (i = 0; i < out.rank; i++) {
        int64_t a = dim_from_right(acc, i), d = dim_from_right(s, i);
        if (a == d || d == 1)
            out.dims[out.rank - 1 - i] = a;
        else if (a == 1)
            out.dims[out.rank - 1 - i] = d; /* a 1 yields, even to 0 */
        else
            return SEL_ERR_SHAPE; /* BC-NUMPY-4: 0 against n > 1 too */
    }
    *acc = out;
    return SEL_OK;
}

/* BC-NUMPY-3: cond broadcasts one way to res; it never widens res. */
static int fits_oneway(const ref_shape *res, const ref_shape *c)
{
    int32_t i;
    if (c->rank > res->rank)
        return SEL_ERR_SHAPE;
    for (i = 0; i < c->rank; i++) {
        int64_t d = dim_from_right(c, i);
        if (d != 1 && d != dim_from_right(res, i))
            return SEL_ERR_SHAPE;
    }
    return SEL_OK;
}

/* pdpd: the smaller shape b merges one way into a (BC-PDPD-1): a b dim
 * larger than a's fails first, so a b 1 against an a 0 is an error; then
 * each b dim equals a's or is 1, and a 1 in a yields to a 0 in b
 * (BC-NUMPY-4), as OpenVINO's PartialShape::broadcast_merge_into does.
 * Trailing 1s of b are kept (BC-PDPD-4).  Sets *first to the output axis
 * of b's axis 0. */
static int merge_pdpd(ref_shape *a, const ref_shape *b, int32_t axis,
                      int32_t *first)
{
    int32_t i;

    if (b->rank > a->rank)
        return SEL_ERR_SHAPE; /* BC-PDPD-6 */
    if (axis == -1)
        axis = a->rank - b->rank; /* BC-PDPD-2, per merge */
    if (axis > a->rank - b->rank)
        return SEL_ERR_SHAPE; /* BC-PDPD-3 (no overflow for a huge axis) */
    for (i = 0; i < b->rank; i++) {
        int64_t *ad = &a->dims[axis + i], bd = b->dims[i];
        if (bd > *ad)
            return SEL_ERR_SHAPE; /* BC-PDPD-1: b never exceeds a, 1 > 0 too */
        if (*ad == 1)
            *ad = bd; /* BC-NUMPY-4: an a 1 yields to a b 0 */
        else if (bd != 1 && bd != *ad)
            return SEL_ERR_SHAPE; /* BC-PDPD-1 */
    }
    *first = axis;
    return SEL_OK;
}

static void place_right(ref_placed *p, const ref_shape *out)
{
    p->first = out->rank - p->shape.rank;
}

/* SHAPE-DST-1: dst must have exactly the inferred shape. */
static int dst_matches(const sel_tensor *dst, const ref_shape *out)
{
    int32_t i;
    if (dst->rank != out->rank)
        return SEL_ERR_SHAPE;
    for (i = 0; i < out->rank; i++)
        if (dst->dims[i] != out->dims[i])
            return SEL_ERR_SHAPE;
    return SEL_OK;
}

/* SHAPE-OVF-1 for the output (inputs that fit can broadcast to one that
 * does not), then SHAPE-DST-1. */
static int check_output(const ref_shape *out, int32_t dtype,
                        const sel_tensor *dst)
{
    if (fits_bytes(out, sel_dtype_size(dtype)) != SEL_OK)
        return SEL_ERR_SHAPE;
    return dst ? dst_matches(dst, out) : SEL_OK;
}

int ref_check_inputs(const sel_tensor *cond, const sel_tensor *then_,
                     const sel_tensor *else_, sel_broadcast b,
                     const sel_tensor *dst, ref_shape *out, ref_placed in[3])
{
    const sel_tensor *t[4];
    int i, st, n = dst ? 4 : 3;

    t[0] = cond, t[1] = then_, t[2] = else_, t[3] = dst;
    for (i = 0; i < n; i++) /* ARG-NULL-1, first by ERR-ORDER-1 */
        if (!t[i] || (t[i]->rank != 0 && !t[i]->dims))
            return SEL_ERR_ARG;
    if (!valid_broadcast_type(b.type))
        return SEL_ERR_ATTR; /* ARG-ATTR-1 */
    if (b.type == SEL_BROADCAST_PDPD && b.axis < -1)
        return SEL_ERR_ATTR; /* BC-PDPD-3 */
    for (i = 0; i < 3; i++)
        if (sel_dtype_size(t[i]->dtype) == 0)
            return SEL_ERR_DTYPE; /* DT-UNKNOWN-1 */
    if (cond->dtype != SEL_DT_BOOLEAN)
        return SEL_ERR_DTYPE; /* DT-COND-1 */
    if (then_->dtype != else_->dtype)
        return SEL_ERR_DTYPE; /* DT-SAME-1 */
    if (dst && dst->dtype != then_->dtype)
        return SEL_ERR_DTYPE; /* DT-DST-1 */
    for (i = 0; i < 3; i++)
        if ((st = read_shape(t[i], &in[i].shape)) != SEL_OK)
            return st;

    if (b.type == SEL_BROADCAST_NONE) { /* BC-NONE-1 */
        if (!ref_same_shape(&in[0].shape, &in[1].shape) ||
            !ref_same_shape(&in[1].shape, &in[2].shape))
            return SEL_ERR_SHAPE;
        *out = in[1].shape;
    } else if (b.type == SEL_BROADCAST_PDPD) { /* BC-PDPD-1, BC-PDPD-5 */
        *out = in[1].shape;
        in[1].first = 0;
        if ((st = merge_pdpd(out, &in[2].shape, b.axis, &in[2].first)))
            return st;
        if ((st = merge_pdpd(out, &in[0].shape, b.axis, &in[0].first)))
            return st;
        return check_output(out, then_->dtype, dst);
    } else if (b.flags & SEL_COND_BIDIRECTIONAL) { /* BC-NUMPY-5 */
        *out = in[1].shape;
        if ((st = merge_numpy(out, &in[2].shape)) ||
            (st = merge_numpy(out, &in[0].shape)))
            return st;
    } else { /* BC-NUMPY-1 then BC-NUMPY-3 */
        *out = in[1].shape;
        if ((st = merge_numpy(out, &in[2].shape)) ||
            (st = fits_oneway(out, &in[0].shape)))
            return st;
    }
    for (i = 0; i < 3; i++)
        place_right(&in[i], out);
    return check_output(out, then_->dtype, dst);
}
