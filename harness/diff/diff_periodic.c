/* diff_periodic.c - difftest's periodic cases: every operand dense, a
 * pattern tiled along the outer axes or a scalar, so that opt runs them
 * by the flat walk (opt/opt_phase.c) and its wrap loop, at every width
 * (a third of them 8-bit, where the walk is rarest at the AVX-512 level).
 */
#include <string.h>

#include "diff_gen.h"

/* Output [A,B,C]; each operand dense, [B,C], [C] or a scalar.  40%
 * [16-47,1,C] with rows of 128-255 bytes and cond [1,C] or [C], at the
 * default tuning: the small walk's rows that opt_small.c's flat_first
 * hands to the flat walk when the call repeats (difftest runs each case
 * twice first: warm_twin). */
void h_gen_periodic(rng *r, tcase *c)
{
    int64_t out[3] = {2 + h_below(r, 40), 1 + h_below(r, 24),
                      1 + h_below(r, 24)};
    const int rows = h_chance(r, 40);
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
