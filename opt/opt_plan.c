/* opt_plan.c - broadcast planning: turn a validated call into an outer walk
 * and one inner row, with as few axes as possible, so that almost every real
 * call runs a kernel over long contiguous rows.
 *
 * Steps: give each operand an element stride on every output axis (0 where
 * it broadcasts: a missing axis or a dim of 1); drop output axes of size 1;
 * merge neighbouring axes wherever every operand steps across both as over
 * one (stride[i] == stride[i+1] * dim[i+1], which also merges two broadcast
 * axes, 0 == 0 * dim).  The inner stride of each operand is then 0 or 1, and
 * names the kernel.  Examples (then/else [B,H,S,S] unless said):
 *   same shapes                        -> [N]        dense, vvv
 *   else a scalar                      -> [N]        vvs
 *   cond [1,1,S,S], else scalar        -> [B*H, S*S] row repeat, vvs
 *   cond [4096,1] vs [4096,1024]       -> [4096, 1024] cond constant per row
 *   cond [1024] vs [4096,1024]         -> [4096, 1024] row repeat, vvv
 */
#include "opt.h"

/* Operand k's element strides over the output's axes (as in the rule of
 * strides: dense row-major, 0 on axes where it has a 1 or no axis). */
static void place(const opt_geom *g, int k, int64_t *st)
{
    const opt_dims *s = &g->in[k];
    int64_t step = 1;
    int32_t i;

    for (i = 0; i < g->out.rank; i++)
        st[i] = 0;
    for (i = s->rank - 1; i >= 0; i--) {
        if (s->d[i] != 1)
            st[g->first[k] + i] = step;
        step *= s->d[i];
    }
}

/* Short inner rows: blocks of whole inner axes (binner elements) times up
 * to brows rows of the next axis, at most OPT_BLOCK_BYTES of output; when
 * every axis fits, the block is the whole output. */
static void blocking(opt_plan *p, size_t w)
{
    const int32_t r = p->rank;
    /* w is 1, 2, 4 or 8: no division (a cold tiny call paid two or three) */
    const int64_t most = (int64_t)OPT_BLOCK_BYTES >> __builtin_ctzll(w);
    int64_t in = 1, below = 1; /* below: in before its last factor */
    int32_t q = 0;

    p->btop = -1;
    if (r < 2 || (size_t)p->dims[r - 1] * w >= OPT_ROW_SHORT)
        return;
    while (q < r && in * p->dims[r - 1 - q] <= most)
        below = in, in *= p->dims[r - 1 - q++];
    if (q == r) { /* the whole output in one block: all of axis 0's rows */
        p->btop = 0, p->binner = below, p->brows = p->dims[0];
        return;
    }
    p->btop = r - 1 - q;
    p->binner = in;
    p->brows = most / in < p->dims[p->btop] ? most / in : p->dims[p->btop];
}

void opt_plan_make(const opt_geom *g, size_t w, opt_plan *p)
{
    int64_t st[3][SEL_MAX_RANK];
    int32_t i, r = 0;
    int k;

    for (k = 0; k < 3; k++)
        place(g, k, st[k]);
    for (i = 0; i < g->out.rank; i++) {
        if (g->out.d[i] == 1)
            continue; /* a size-1 axis moves nothing */
        if (r > 0 && p->st[0][r - 1] == st[0][i] * g->out.d[i] &&
            p->st[1][r - 1] == st[1][i] * g->out.d[i] &&
            p->st[2][r - 1] == st[2][i] * g->out.d[i]) {
            p->dims[r - 1] *= g->out.d[i]; /* coalesce into the previous */
            for (k = 0; k < 3; k++)
                p->st[k][r - 1] = st[k][i];
            continue;
        }
        p->dims[r] = g->out.d[i];
        for (k = 0; k < 3; k++)
            p->st[k][r] = st[k][i];
        r++;
    }
    if (r == 0) { /* one element: any stride reads it */
        p->dims[0] = 1;
        for (k = 0; k < 3; k++)
            p->st[k][0] = 1;
        r = 1;
    }
    p->rank = r;
    p->footprint = (size_t)g->in_count[0] +
                   (size_t)(g->in_count[1] + g->in_count[2] + g->count) * w;

    for (k = 0; k < 3; k++)
        p->in_bytes[k] = (size_t)g->in_count[k] * (k ? w : 1);
    opt_plan_finish(p, w);
}

void opt_plan_finish(opt_plan *p, size_t w)
{
    const int32_t r = p->rank;
    const int cs = p->st[0][r - 1] != 0, ts = p->st[1][r - 1] != 0,
              es = p->st[2][r - 1] != 0;

    p->kind = !cs         ? -1
              : ts && es  ? OPT_K_vvv
              : !ts && es ? OPT_K_vsv
              : ts        ? OPT_K_vvs
                          : OPT_K_vss;
    blocking(p, w);
}

/* cond constant over the whole call (a scalar, or broadcast on every axis):
 * the call is a copy or fill of the input it picks, k, so only that input
 * and dst need to step alike and the axes coalesce further (a dense then
 * under a scalar cond becomes one copy, whatever else looks like).  The
 * other input gets k's strides and bytes: opt_run passes k's data for
 * both, which ptile's blocks read (opt_block's read k only). */
void opt_plan_pick(const opt_plan *p, int k, size_t w, opt_plan *q)
{
    int32_t r = 0;

    for (int32_t i = 0; i < p->rank; i++) {
        if (r > 0 && q->st[k][r - 1] == p->st[k][i] * p->dims[i]) {
            q->dims[r - 1] *= p->dims[i];
            q->st[k][r - 1] = p->st[k][i];
            continue;
        }
        q->dims[r] = p->dims[i];
        q->st[k][r] = p->st[k][i];
        r++;
    }
    for (int32_t i = 0; i < r; i++)
        q->st[0][i] = 0, q->st[3 - k][i] = q->st[k][i];
    q->rank = r;
    q->footprint = p->footprint;
    for (int j = 0; j < 3; j++)
        q->in_bytes[j] = p->in_bytes[j];
    q->in_bytes[3 - k] = p->in_bytes[k];
    opt_plan_finish(q, w);
}
