/* opt_pick.c - calls whose cond is one byte (a scalar, or 1 on every axis)
 * that run on the caller.  Such a call is a copy or fill of the input the
 * byte picks (opt_plan_pick); when that input coalesces to one row (a
 * dense input: one copy; a scalar: one fill), a repeated call runs it
 * straight from the warm-call record (opt_hit.c) instead of the plan
 * memo's compare, opt_small_run's refusal and opt_run's re-plan, which
 * cost 30-40 ns on copies of 1-7 KiB (1:18x5x3:3 i32 pdpd 73 ns against
 * the yardstick's 38).  The byte is read on every call: a call that picks
 * the other input runs that input's one row too, or opt_run's walk.
 */
#include "opt_pick.h"

typedef struct pick {
    opt_plan p;              /* the call's plan, for picks that need opt_run */
    opt_kernel_fn *kern[3];  /* [1], [2]: that input's one row, or NULL */
    int fill[3];             /* [1], [2]: the row is a fill, not a copy */
    size_t n, w;             /* the output's elements, the element size */
} pick;
static _Thread_local pick last;

/* Copies in pieces of 256 KiB, as opt_exec.c's row() (libc's rep movsb
 * beats vector copies into a dst outside L2). */
#define PIECE ((size_t)256 << 10)

static void run(void *ctx, const void *c, const void *t, const void *e,
                void *d)
{
    const pick *x = (const pick *)ctx;
    const int k = *(const uint8_t *)c ? 1 : 2;
    const char *s = (const char *)(k == 1 ? t : e);
    opt_kernel_fn *const f = x->kern[k];

    if (!f) { /* the picked input does not make one row: opt_run's walk */
        const sel_tensor ct = {0, 0, NULL, (void *)(uintptr_t)c},
                         tt = {0, 0, NULL, (void *)(uintptr_t)t},
                         et = {0, 0, NULL, (void *)(uintptr_t)e};
        sel_tensor dt = {0, 0, NULL, d};
        opt_run(&x->p, &ct, &tt, &et, &dt, x->w);
        return;
    }
    if (x->fill[k]) {
        f(x->n, NULL, s, NULL, d, 0);
        return;
    }
    for (size_t b = 0, bytes = x->n * x->w; b < bytes; b += PIECE)
        f((bytes - b < PIECE ? bytes - b : PIECE) / x->w, NULL, s + b, NULL,
          (char *)d + b, 0);
}

int opt_pick_small(const opt_plan *p, const sel_tensor *cond,
                   const sel_tensor *then_, const sel_tensor *else_,
                   sel_tensor *dst, size_t w, int same, opt_hit_act *a)
{
    const int isa = opt_isa_active(), wi = opt_width_index(w);
    pick *const x = &last;
    opt_tuning tu;
    opt_plan q;
    size_t n = 1;

    for (int32_t i = 0; i < p->rank; i++)
        n *= (size_t)p->dims[i];
    opt_tuning_get(&tu);
    /* on the caller without streams, as opt_run would run it */
    if (n * w >= tu.parallel_min || p->footprint > tu.nt_min)
        return 0;
    x->p = *p, x->n = n, x->w = w;
    opt_plan_finish(&x->p, w); /* kind and blocks, which opt_run reads */
    for (int k = 1; k < 3; k++) {
        opt_plan_pick(p, k, w, &q);
        x->kern[k] = q.rank > 1 ? NULL
                     : opt_kernel(isa, wi, q.st[k][0] ? OPT_K_copy
                                                      : OPT_K_fill);
        x->fill[k] = !q.st[k][0];
    }
    /* Picks that do not make one row keep the small paths' walk. */
    if (!x->kern[*(const uint8_t *)cond->data ? 1 : 2])
        return 0;
    run(x, cond->data, then_->data, else_->data, dst->data);
    if (!same)
        return 1;
    a->fn = run, a->ctx = x, a->n = n;
    return 2;
}
