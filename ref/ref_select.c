/* ref_select.c - the reference Select: the obvious loop over output
 * elements, copying the bytes of the element cond chooses.  No float, no
 * SIMD, no threads: this is the oracle the harness trusts.
 */
#include <string.h>

#include "ref.h"
#include "ref_internal.h"

/* Every dtype (boolean then/else too: the profile decides whether a dtype
 * is valid, DT-PROFILE-1) under every mode. */
static int supports(int32_t dtype, int32_t broadcast_type)
{
    return sel_dtype_size(dtype) != 0 &&
           broadcast_type >= SEL_BROADCAST_NONE &&
           broadcast_type <= SEL_BROADCAST_PDPD;
}

static int infer(const sel_tensor *cond, const sel_tensor *then_,
                 const sel_tensor *else_, sel_broadcast b, int32_t *rank_out,
                 int64_t *dims_out)
{
    ref_shape out;
    ref_placed in[3];
    int32_t i;
    int st;

    if (!rank_out || !dims_out)
        return SEL_ERR_ARG; /* ARG-NULL-1 */
    if ((st = ref_check_inputs(cond, then_, else_, b, NULL, &out, in)))
        return st;
    *rank_out = out.rank;
    for (i = 0; i < out.rank; i++)
        dims_out[i] = out.dims[i];
    return SEL_OK;
}

/* Does [a, a+na) meet [b, b+nb)?  Empty ranges meet nothing. */
static int overlaps(const void *a, size_t na, const void *b, size_t nb)
{
    const char *pa = (const char *)a, *pb = (const char *)b;
    return na && nb && pa < pb + nb && pb < pa + na;
}

/* Element strides of an input laid over the output's axes: 0 where the
 * input has no such axis or a dim of 1 there (the broadcast axes). */
static void strides_over(const ref_placed *p, const ref_shape *out,
                         int64_t *st)
{
    int64_t step = 1;
    int32_t i;

    for (i = 0; i < out->rank; i++)
        st[i] = 0;
    for (i = p->shape.rank - 1; i >= 0; i--) {
        if (p->shape.dims[i] != 1)
            st[p->first + i] = step;
        step *= p->shape.dims[i];
    }
}

static int execute(const sel_tensor *cond, const sel_tensor *then_,
                   const sel_tensor *else_, sel_broadcast b, sel_tensor *dst)
{
    ref_shape out;
    ref_placed in[3];
    int64_t st[3][SEL_MAX_RANK], idx[SEL_MAX_RANK], off[3] = {0, 0, 0};
    int64_t n, count;
    size_t es, bytes;
    int32_t i;
    int s, k;
    const sel_tensor *t[3];
    const unsigned char *c, *x, *y;
    unsigned char *d;

    if (!dst)
        return SEL_ERR_ARG; /* ARG-NULL-1 */
    if ((s = ref_check_inputs(cond, then_, else_, b, dst, &out, in)))
        return s;

    t[0] = cond, t[1] = then_, t[2] = else_;
    count = ref_count(&out);
    es = sel_dtype_size(then_->dtype);
    bytes = (size_t)count * es;
    for (k = 0; k < 3; k++) /* ARG-NULL-1: data of a non-empty tensor */
        if (!t[k]->data && ref_count(&in[k].shape) != 0)
            return SEL_ERR_ARG;
    if (count == 0)
        return SEL_OK; /* IO-ZERO-1 */
    if (!dst->data)
        return SEL_ERR_ARG;
    /* IO-ALIAS-2: dst may meet then or else only as the same buffer with
     * dst's shape (IO-ALIAS-1), and never cond (1 byte per element). */
    for (k = 0; k < 3; k++) {
        size_t tb = (size_t)ref_count(&in[k].shape) * (k ? es : 1);
        int in_place = k != 0 && dst->data == t[k]->data &&
                       ref_same_shape(&in[k].shape, &out);
        if (overlaps(dst->data, bytes, t[k]->data, tb) && !in_place)
            return SEL_ERR_ARG;
    }

    for (k = 0; k < 3; k++)
        strides_over(&in[k], &out, st[k]);
    for (i = 0; i < out.rank; i++)
        idx[i] = 0;
    c = (const unsigned char *)cond->data;
    x = (const unsigned char *)then_->data;
    y = (const unsigned char *)else_->data;
    d = (unsigned char *)dst->data;
    for (n = 0; n < count; n++) {
        /* COND-01-1, COND-NZ-1: any nonzero byte is true.  BITS-1..3: the
         * chosen element's bytes are copied; the other is never read. */
        if (c[off[0]])
            memcpy(d + (size_t)n * es, x + (size_t)off[1] * es, es);
        else
            memcpy(d + (size_t)n * es, y + (size_t)off[2] * es, es);
        /* Next output index, row-major, carrying the input offsets. */
        for (i = out.rank - 1; i >= 0; i--) {
            for (k = 0; k < 3; k++)
                off[k] += st[k][i];
            if (++idx[i] < out.dims[i])
                break;
            for (k = 0; k < 3; k++)
                off[k] -= st[k][i] * idx[i];
            idx[i] = 0;
        }
    }
    return SEL_OK;
}

static const sel_impl table = {
    SEL_ABI_VERSION, "reference", supports, infer, execute,
};

const sel_impl *ref_impl(void)
{
    return &table;
}
