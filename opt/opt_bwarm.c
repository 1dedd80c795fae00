/* opt_bwarm.c - the warm call for blocked plans on the caller: a repeated
 * call that opt_run would send to ptile's blocks (opt_ptile.c) or
 * opt_block.c's runs them again from the warm-call record (opt_hit.c).
 *
 * The long way pays per call, before any block, opt_fast_plan's memo
 * compare, opt_run's set-up and the flat walk's refusal (prepare() again),
 * and opt_ptile_get's memo compare: about 15% of a 5 Ki-element call
 * (2x13x4x1:1x2x2x13x4x6:4x2x2x1x4x6 i8).  The record keeps a copy of
 * the plan and points at the thread's tiles (opt_ptile_get's memo, which
 * only the long way rebuilds, after opt_hit_try has dropped the record);
 * each call remakes only range()'s operand copies.
 */

#include "opt_bwarm.h"

typedef struct warm {
    opt_plan p;
    const opt_ptile *t; /* opt_ptile_get's (kept while the record is), or
                         * NULL: opt_block_range */
    int isa;
    size_t w;
    int64_t n;
} warm;
static _Thread_local warm last;

static void again(void *ctx, const void *c, const void *t, const void *e,
                  void *d)
{
    warm *const m = (warm *)ctx;
    const void *const data[3] = {c, t, e};
    if (m->t)
        opt_ptile_range(m->t, &m->p, data, (char *)d, m->w, 0, 0, m->n);
    else
        opt_block_range(&m->p, data, (char *)d, m->w, m->isa, 0, 0, m->n);
}

/* opt_run picks one input for the whole call from cond's byte then. */
static int cond_everywhere(const opt_plan *p)
{
    for (int32_t i = 0; i < p->rank - 1; i++)
        if (p->st[0][i])
            return 0;
    return 1;
}

int opt_bwarm_small(const opt_plan *p, const void *const data[3], char *d,
                    size_t w, int same, const opt_tuning *tu, opt_hit_act *a)
{
    warm *const m = &last;
    const opt_ptile *t;
    int64_t n = 1;

    if (!same || p->btop < 0 || p->footprint > tu->nt_min ||
        (p->kind < 0 && cond_everywhere(p)))
        return 0;
    for (int32_t i = 0; i < p->rank; i++)
        n *= p->dims[i];
    if ((size_t)n * w >= tu->parallel_min)
        return 0;
    m->isa = opt_isa_active();
    t = opt_ptile_get(p, w, m->isa, 0);
    m->p = *p, m->t = t, m->w = w, m->n = n;
    again(m, data[0], data[1], data[2], d);
    a->fn = again, a->ctx = m, a->n = (size_t)n;
    return 2;
}
