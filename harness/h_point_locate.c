/* h_point_locate.c - which cond, then and else elements an output element
 * comes from, found by running the oracle on index-valued inputs, so the
 * diagnosis needs no second copy of the broadcast rules.
 */
#include <stdlib.h>
#include <string.h>

#include "h_point.h"
#include "ref.h"

/* Where output element flat comes from, found with the oracle itself (no
 * second copy of the broadcast rules): on then/else holding their own
 * indices under an all-true and an all-false cond, and once per bit of the
 * cond index on cond bytes holding that bit.  -1 when the output is too
 * large to bother. */
int h_point_locate(const h_point *pt, size_t flat, int64_t idx[3])
{
    const sel_impl *ref = ref_impl();
    size_t nc = pt->t[0].bytes, nx = pt->t[1].bytes / sel_dtype_size(pt->dtype);
    size_t ny = pt->t[2].bytes / sel_dtype_size(pt->dtype), nd, j;
    size_t big = (nx > ny ? nx : ny) + 1, b;
    uint64_t *ix = h_realloc(NULL, big * 8), *out;
    uint8_t *cb = h_realloc(NULL, nc + 1), *one = h_realloc(NULL, big);
    uint8_t *zero = calloc(big, 1), *d8;
    sel_tensor t[H_NT];
    int k, st;

    nd = pt->t[H_T_DST].bytes / sel_dtype_size(pt->t[H_T_DST].dtype);
    if (nd > ((size_t)1 << 24) || flat >= nd || !zero) {
        free(ix), free(cb), free(one), free(zero);
        return -1;
    }
    out = h_realloc(NULL, nd * 8 + 8);
    d8 = h_realloc(NULL, nd + 1);
    for (j = 0; j < big; j++)
        ix[j] = j;
    memset(one, 1, big);
    for (k = 0; k < H_NT; k++) {
        t[k].rank = pt->t[k].shape.rank;
        t[k].dims = pt->t[k].dims;
    }
    t[0].dtype = SEL_DT_BOOLEAN;
    t[0].data = cb;
    t[1].dtype = t[2].dtype = t[3].dtype = SEL_DT_U64;
    t[1].data = t[2].data = ix;
    t[3].data = out;
    memset(cb, 1, nc + 1);
    st = ref->execute(&t[0], &t[1], &t[2], pt->b, &t[3]);
    idx[1] = (int64_t)out[flat];
    memset(cb, 0, nc + 1);
    if (st == SEL_OK)
        st = ref->execute(&t[0], &t[1], &t[2], pt->b, &t[3]);
    idx[2] = (int64_t)out[flat];
    t[1].dtype = t[2].dtype = t[3].dtype = SEL_DT_U8;
    t[1].data = one;
    t[2].data = zero;
    t[3].data = d8;
    idx[0] = 0;
    for (b = 0; st == SEL_OK && nc > 1 && ((size_t)1 << b) < nc; b++) {
        for (j = 0; j < nc; j++)
            cb[j] = (uint8_t)((j >> b) & 1);
        st = ref->execute(&t[0], &t[1], &t[2], pt->b, &t[3]);
        idx[0] |= (int64_t)d8[flat] << b;
    }
    free(ix), free(cb), free(one), free(zero), free(out), free(d8);
    return st == SEL_OK ? 0 : -1;
}
