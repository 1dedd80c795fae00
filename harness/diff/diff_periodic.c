/* diff_periodic.c - difftest's periodic cases: every operand dense, a
 * pattern tiled along the outer axes or a scalar, so that opt runs them
 * by the flat walk (opt/opt_phase.c) and its wrap loop, at every width
 * (a third of them 8-bit, where the walk is rarest at the AVX-512 level).
 */
#include <string.h>

#include "diff_gen.h"

/* Output [A,B,C]; each operand dense, [B,C], [C] or a scalar. */
void h_gen_periodic(rng *r, tcase *c)
{
    const int64_t out[3] = {2 + h_below(r, 40), 1 + h_below(r, 24),
                            1 + h_below(r, 24)};
    c->b.type = SEL_BROADCAST_NUMPY;
    c->b.flags = SEL_COND_BIDIRECTIONAL;
    for (int q = C; q <= E; q++) {
        const int form = h_below(r, 4); /* 0 dense .. 3 scalar */
        c->rank[q] = 3 - form;
        memcpy(c->dims[q], out + form, sizeof(int64_t) * (size_t)(3 - form));
    }
    if (h_chance(r, 33))
        c->dtype[T] = c->dtype[E] = c->dtype[D] =
            h_chance(r, 50) ? SEL_DT_U8 : SEL_DT_I8;
    c->rank[D] = 3;
    memcpy(c->dims[D], out, sizeof out);
    strncat(c->note, " periodic", sizeof c->note - strlen(c->note) - 1);
}
