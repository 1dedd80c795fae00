/* adapt.h - what every adapter adds around its library: the checks the
 * library cannot see (NULL pointers, rank, the broadcast attribute, the
 * NONE mode, dst's shape), as static inline helpers usable from C and C++.
 */
#ifndef ADAPT_H
#define ADAPT_H

#include <string.h>

#include "select.h"

/* ARG-NULL-1: pointers only; dims' values are left for the library. */
static inline int ad_args(const sel_tensor *in[3], const sel_tensor *dst,
                          int with_dst)
{
    int k;

    for (k = 0; k < 3 + (with_dst != 0); k++) {
        const sel_tensor *t = k < 3 ? in[k] : dst;
        if (!t || (t->rank != 0 && !t->dims))
            return SEL_ERR_ARG;
    }
    return SEL_OK;
}

/* SHAPE-RANK-1: the ABI's limit, which the libraries do not share.
 * After the dtype checks (ERR-ORDER-1). */
static inline int ad_rank(const sel_tensor *in[3])
{
    int k;

    for (k = 0; k < 3; k++)
        if (in[k]->rank < 0 || in[k]->rank > SEL_MAX_RANK)
            return SEL_ERR_SHAPE;
    return SEL_OK;
}

/* The broadcast attribute: unknown type or pdpd axis < -1 is ATTR
 * (ERR-ORDER-1 puts it before dtype and shape); pdpd, which none of the
 * libraries has, is UNSUPPORTED. */
static inline int ad_mode(sel_broadcast b)
{
    if (b.type < SEL_BROADCAST_NONE || b.type > SEL_BROADCAST_PDPD ||
        (b.type == SEL_BROADCAST_PDPD && b.axis < -1))
        return SEL_ERR_ATTR;
    return b.type == SEL_BROADCAST_PDPD ? SEL_ERR_UNSUPPORTED : SEL_OK;
}

static inline int ad_same_shape(const sel_tensor *a, int32_t rank,
                                const int64_t *dims)
{
    int32_t i;

    if (a->rank != rank)
        return 0;
    for (i = 0; i < rank; i++)
        if (a->dims[i] != dims[i])
            return 0;
    return 1;
}

/* BC-NONE-1: the libraries only broadcast, so NONE is the adapter's. */
static inline int ad_none(const sel_tensor *in[3], sel_broadcast b)
{
    if (b.type != SEL_BROADCAST_NONE)
        return SEL_OK;
    return ad_same_shape(in[0], in[1]->rank, in[1]->dims) &&
                   ad_same_shape(in[2], in[1]->rank, in[1]->dims)
               ? SEL_OK : SEL_ERR_SHAPE;
}

/* Elements of t; -1 when a dim is negative or the product overflows. */
static inline int64_t ad_count(const sel_tensor *t)
{
    int64_t n = 1;
    int32_t i;
    int zero = 0;

    for (i = 0; i < t->rank; i++) {
        if (t->dims[i] < 0)
            return -1;
        zero |= t->dims[i] == 0;
    }
    for (i = 0; i < t->rank && !zero; i++) {
        if (n > INT64_MAX / t->dims[i])
            return -1;
        n *= t->dims[i];
    }
    return zero ? 0 : n;
}

/* SHAPE-OVF-1: the count and its bytes fit int64_t and size_t. */
static inline int ad_fits(const sel_tensor *t, size_t esize)
{
    int64_t n = ad_count(t);

    return n >= 0 && (esize == 0 || (uint64_t)n <= (uint64_t)INT64_MAX / esize);
}

static inline int ad_overlap(const sel_tensor *a, const sel_tensor *b)
{
    size_t na = (size_t)ad_count(a) * sel_dtype_size(a->dtype);
    size_t nb = (size_t)ad_count(b) * sel_dtype_size(b->dtype);
    const char *x = (const char *)a->data, *y = (const char *)b->data;

    return na && nb && x < y + nb && y < x + na;
}

/* A NULL data pointer where there are elements (ARG-NULL-1), and dst
 * overlapping an input other than in place (IO-ALIAS-1): dst is the
 * adapter's, the library never sees it. */
static inline int ad_data(const sel_tensor *in[3], const sel_tensor *dst)
{
    int k;

    for (k = 0; k < 4; k++) {
        const sel_tensor *t = k < 3 ? in[k] : dst;
        if (!t->data && ad_count(t) != 0)
            return SEL_ERR_ARG;
    }
    for (k = 0; k < 3; k++)
        if (ad_count(in[k]) > 0 && ad_count(dst) > 0 &&
            ad_overlap(in[k], dst) &&
            !(k > 0 && in[k]->data == dst->data &&
              ad_same_shape(in[k], dst->rank, dst->dims)))
            return SEL_ERR_ARG;
    return SEL_OK;
}

/* What comes before the library in every call: ARG (pointers), then
 * ATTR (ERR-ORDER-1).  dst is checked when with_dst (execute); its data,
 * with ad_data, after the shapes. */
static inline int ad_front(const sel_tensor *in[3], const sel_tensor *dst,
                           int with_dst, sel_broadcast b)
{
    int st;

    if ((st = ad_args(in, dst, with_dst)))
        return st;
    return ad_mode(b);
}

/* For the typed libraries (Eigen, xtensor, OpenCV), whose select takes a
 * bool cond and one element type: anything else cannot be expressed. */
static inline int ad_typed(const sel_tensor *in[3], const sel_tensor *dst)
{
    if (in[0]->dtype != SEL_DT_BOOLEAN || in[1]->dtype != in[2]->dtype ||
        (dst && dst->dtype != in[1]->dtype) || !sel_dtype_size(in[1]->dtype))
        return SEL_ERR_DTYPE;
    return SEL_OK;
}

/* dst has the shape the library (or ad_numpy_shape) gave (IO-DST-1). */
static inline int ad_dst(const sel_tensor *dst, int32_t rank,
                         const int64_t *dims)
{
    return ad_same_shape(dst, rank, dims) ? SEL_OK : SEL_ERR_SHAPE;
}

/* For the libraries without shape inference (Eigen, OpenCV): numpy's rule
 * as BC-NUMPY-1..5 state it; cond joins bidirectionally only with
 * SEL_COND_BIDIRECTIONAL.  Returns SEL_ERR_SHAPE when they do not
 * broadcast or a count or byte size overflows (SHAPE-OVF-1). */
static inline int ad_numpy_shape(const sel_tensor *in[3], uint32_t flags,
                                 int32_t *rank, int64_t *dims)
{
    int order[3] = {1, 2, 0}, j;
    int32_t i;

    *rank = in[1]->rank > in[2]->rank ? in[1]->rank : in[2]->rank;
    if (in[0]->rank > *rank) {
        if (!(flags & SEL_COND_BIDIRECTIONAL))
            return SEL_ERR_SHAPE;
        *rank = in[0]->rank;
    }
    for (i = 0; i < *rank; i++)
        dims[i] = 1;
    for (j = 0; j < 3; j++) {
        const sel_tensor *t = in[order[j]];
        int32_t first = *rank - t->rank;
        int grow = j < 2 || (flags & SEL_COND_BIDIRECTIONAL);
        for (i = 0; i < t->rank; i++) {
            int64_t d = t->dims[i], *o = &dims[first + i];
            if (d < 0)
                return SEL_ERR_SHAPE;
            if (d == *o || d == 1)
                continue;
            if (*o != 1 || (!grow && j == 2))
                return SEL_ERR_SHAPE;
            *o = d;
        }
    }
    {   /* SHAPE-OVF-1: the output's count, as for any input */
        sel_tensor out;
        out.dtype = in[1]->dtype;
        out.rank = *rank;
        out.dims = dims;
        out.data = NULL;
        size_t es = sel_dtype_size(in[1]->dtype);
        for (j = 0; j < 3; j++)
            if (!ad_fits(in[j], j ? es : 1))
                return SEL_ERR_SHAPE;
        return ad_fits(&out, es) ? SEL_OK : SEL_ERR_SHAPE;
    }
}

#endif
