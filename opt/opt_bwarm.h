/* opt_bwarm.h - repeated blocked calls on the caller from the warm-call
 * record (opt_bwarm.c).  Apart from opt.h, which is full.
 */
#ifndef OPT_BWARM_H
#define OPT_BWARM_H

#include "opt.h"

/* A repeated call (same: p is the thread's previous plan, unchanged) of a
 * blocked plan (btop >= 0) on the caller (under the thread and stream
 * thresholds) that the flat walk refused (opt_phase_small returned 0):
 * runs it as opt_run would (ptile's blocks, else opt_block's) and returns
 * 2, *a saying how to run it again from the warm-call record (opt_hit.c);
 * 0: not run.  p: the full plan (opt_fast_full); tu: opt_tuning_get's.
 * A cond of one byte: opt_run's pick of the input the byte picks must be
 * blocked; a call whose byte picks the other runs that pick outside ptile
 * (opt_block or opt_run's rows). */
int opt_bwarm_small(const opt_plan *p, const void *const data[3], char *d,
                    size_t w, int same, const opt_tuning *tu, opt_hit_act *a);

#endif
