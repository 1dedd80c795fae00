/* opt_pick.h - calls whose cond is one byte, run on the caller as a copy
 * or fill of the input it picks, repeated from the warm-call record
 * (opt_pick.c).  Apart from opt.h, which is full.
 */
#ifndef OPT_PICK_H
#define OPT_PICK_H

#include "opt.h"

/* p: a plan whose cond is one byte (in_bytes[0] == 1), as opt_fast_plan
 * leaves it.  0: not taken (the small paths or opt_run then); 1: run;
 * 2: run, and *a says how to run it again (same: p is the thread's
 * previous call's plan, unchanged). */
int opt_pick_small(const opt_plan *p, const sel_tensor *cond,
                   const sel_tensor *then_, const sel_tensor *else_,
                   sel_tensor *dst, size_t w, int same, opt_hit_act *a);

/* Drops opt_small_run's walk (opt_small.c): it is kept for "the thread's
 * previous plan", and a plan run by another path before it (the picks)
 * must not find the walk of an older one (a same call of a one-byte-cond
 * plan after an i64 walk ran the i64 walk on i8 buffers). */
void opt_small_forget(void);

/* cond's one byte decides the whole call (a plan of kind < 0 whose cond
 * strides are 0 on every axis): opt_run runs opt_plan_pick's plan. */
static inline int opt_cond_everywhere(const opt_plan *p)
{
    for (int32_t i = 0; i < p->rank - 1; i++)
        if (p->st[0][i])
            return 0;
    return 1;
}

#endif
