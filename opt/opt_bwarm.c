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
 * each call remakes only range()'s operand copies.  A one-byte cond whose
 * pick is blocked (opt_pick.c leaves it) is recorded with both picks.
 */

#include "opt_bwarm.h"
#include "opt_pick.h"
#include "opt_ptile.h"

typedef struct warm {
    opt_plan p;
    const opt_ptile *t; /* opt_ptile_get's (kept while the record is), or
                         * NULL: opt_block_range */
    int isa;
    size_t w;
    int64_t n;
    int pick;       /* cond one byte: p is opt_run's pick of input pick */
    opt_plan other; /* then the other input's pick, in opt_block only */
} warm;
static _Thread_local warm last;

/* The pick of the byte the record was not armed with: opt_block's blocks,
 * or opt_run's rows (a pick with rows asks ptile for nothing, so m->t's
 * memo stays). */
static void other(const warm *m, const void *const data[3], void *d)
{
    const sel_tensor c = {0, 0, NULL, (void *)(uintptr_t)data[0]},
                     t = {0, 0, NULL, (void *)(uintptr_t)data[1]},
                     e = {0, 0, NULL, (void *)(uintptr_t)data[2]};
    sel_tensor dt = {0, 0, NULL, d};
    if (m->other.btop >= 0)
        opt_block_range(&m->other, data, (char *)d, m->w, m->isa, 0, 0, m->n);
    else
        opt_run(&m->other, &c, &t, &e, &dt, m->w);
}

static void again(void *ctx, const void *c, const void *t, const void *e,
                  void *d)
{
    warm *const m = (warm *)ctx;
    const void *data[3] = {c, t, e};
    if (m->pick) { /* as opt_run: both inputs the one the byte picks */
        const int k = *(const uint8_t *)c ? 1 : 2;
        data[3 - k] = data[k];
        if (k != m->pick) { /* not ptile: its memo holds m->t */
            other(m, data, d);
            return;
        }
    }
    if (m->t)
        opt_ptile_range(m->t, &m->p, data, (char *)d, m->w, 0, 0, m->n);
    else
        opt_block_range(&m->p, data, (char *)d, m->w, m->isa, 0, 0, m->n);
}

/* A one-byte cond (opt_pick.c leaves picks that are not one row to the
 * blocks): both picks planned once, the record reads the byte on every
 * call (_:2x5x4x3x1x2x1:2x1x4x3x3x2x4 i32 paid opt_pick_small's two
 * picks, opt_run's third and the memo compares per call: 30% of it).
 * 0: the byte's pick is not blocked (opt_run's rows). */
static int picks(warm *m, const opt_plan *p, const void *c, size_t w)
{
    m->pick = *(const uint8_t *)c ? 1 : 2;
    opt_plan_pick(p, m->pick, w, &m->p);
    opt_plan_pick(p, 3 - m->pick, w, &m->other);
    return m->p.btop >= 0;
}

int opt_bwarm_small(const opt_plan *p, const void *const data[3], char *d,
                    size_t w, int same, const opt_tuning *tu, opt_hit_act *a)
{
    warm *const m = &last;
    int64_t n = 1;

    if (!same || p->footprint > tu->nt_min)
        return 0;
    for (int32_t i = 0; i < p->rank; i++)
        n *= p->dims[i];
    if ((size_t)n * w >= tu->parallel_min)
        return 0;
    m->pick = 0, m->p = *p;
    if (p->kind < 0 && opt_cond_everywhere(p) ? !picks(m, p, data[0], w)
                                          : p->btop < 0)
        return 0;
    m->isa = opt_isa_active();
    m->t = opt_ptile_get(&m->p, w, m->isa, 0);
    m->w = w, m->n = n;
    again(m, data[0], data[1], data[2], d);
    a->fn = again, a->ctx = m, a->n = (size_t)n;
    return 2;
}
