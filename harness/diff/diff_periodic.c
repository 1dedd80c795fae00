/* diff_periodic.c - difftest's periodic cases: every operand dense, a
 * pattern tiled along the outer axes or a scalar, so that opt runs them
 * by the flat walk (opt/opt_phase.c) and its wrap loop, at every width
 * (a third of them 8-bit, where the walk is rarest at the AVX-512 level);
 * and operands periodic only in each slab of the top axis (slab()).
 */
#include <string.h>

#include "diff_gen.h"

/* Output [A,B,K], rows of 64-2047 bytes, at most 4 Ki-128 Ki elements:
 * one operand [A,1,K] (a row per slab of axis 0, repeated along axis 1),
 * the others dense, [B,K], [K] or a scalar; half of them under the default
 * tuning (on the caller, no streams): the flat walk slab by slab
 * (opt/opt_rows.c's opt_slab_rows). */
static void slab(rng *r, tcase *c)
{
    const size_t w = sel_dtype_size(c->dtype[T]) ? sel_dtype_size(c->dtype[T]) : 1;
    int64_t out[3] = {2 + h_below(r, 6), 16 + h_below(r, 40),
                      (int64_t)((64 + (size_t)h_below(r, 1984)) / w)};
    const int rep = h_below(r, 3);
    while (out[0] * out[1] * out[2] > MAX_ELEMS && out[1] > 16)
        out[1]--;
    while (out[0] * out[1] * out[2] > MAX_ELEMS)
        out[2] /= 2;
    c->b.type = SEL_BROADCAST_NUMPY;
    c->b.flags = SEL_COND_BIDIRECTIONAL;
    for (int q = C; q <= E; q++) {
        const int form = q == rep ? 4 : h_below(r, 4); /* 0 dense .. 3 scalar */
        c->rank[q] = form == 4 ? 3 : 3 - form;
        memcpy(c->dims[q], out + form % 4, sizeof(int64_t) * (size_t)c->rank[q]);
        if (form == 4)
            c->dims[q][1] = 1;
    }
    if (h_chance(r, 50))
        c->tuning = 0;
    c->rank[D] = 3;
    memcpy(c->dims[D], out, sizeof out);
    strncat(c->note, " slab", sizeof c->note - strlen(c->note) - 1);
}

/* Output [A,B,C]; each operand dense, [B,C], [C] or a scalar.  40%
 * slab() cases; of the rest 40% [16-47,1,C] with rows of 128-255 bytes
 * and cond [1,C] or [C], at the default tuning: the small walk's rows that
 * opt_small.c's flat_first hands to the flat walk when the call repeats
 * (difftest runs each case twice first: warm_twin). */
void h_gen_periodic(rng *r, tcase *c)
{
    int64_t out[3] = {2 + h_below(r, 40), 1 + h_below(r, 24),
                      1 + h_below(r, 24)};
    int rows;
    if (h_chance(r, 40)) {
        slab(r, c);
        return;
    }
    rows = h_chance(r, 40);
    if (rows) {
        const size_t w = sel_dtype_size(c->dtype[T]);
        out[0] = 16 + h_below(r, 32), out[1] = 1;
        out[2] = (128 + h_below(r, 128)) / (int64_t)(w ? w : 1);
        c->tuning = 0;
    }
    c->b.type = SEL_BROADCAST_NUMPY;
    c->b.flags = SEL_COND_BIDIRECTIONAL;
    for (int q = C; q <= E; q++) {
        /* 0 dense .. 3 scalar; rows: cond [1,C] or [C], A rows of C */
        const int form = rows && q == C ? 1 + h_below(r, 2) : h_below(r, 4);
        c->rank[q] = 3 - form;
        memcpy(c->dims[q], out + form, sizeof(int64_t) * (size_t)(3 - form));
    }
    if (!rows && h_chance(r, 33))
        c->dtype[T] = c->dtype[E] = c->dtype[D] =
            h_chance(r, 50) ? SEL_DT_U8 : SEL_DT_I8;
    c->rank[D] = 3;
    memcpy(c->dims[D], out, sizeof out);
    strncat(c->note, " periodic", sizeof c->note - strlen(c->note) - 1);
}
