/* opt_phase.h - outputs whose broadcast operands repeat with a period in
 * the flat output index (opt_phase.c): one flat walk over the output, each
 * such operand read at its phase.  Apart from opt.h, which is full.
 */
#ifndef OPT_PHASE_H
#define OPT_PHASE_H

#include "opt.h"

/* Runs the plan by the flat walk and returns 1, or 0 when some operand is
 * not periodic (or a period is too long to copy, or copies would cost too
 * much): opt_run's other paths then.  threads and chunk (elements per
 * pool chunk, a multiple of 64) as opt_run decided them; nt: streams. */
int opt_phase_run(const opt_plan *p, const void *const data[3], char *d,
                  size_t w, int isa, int nt, int threads, int64_t chunk);

/* A repeated call (same: p is the thread's previous plan, unchanged) on
 * the caller (under the thread and stream thresholds) that the walk
 * takes: runs it and returns 2, *a saying how to run it again from the
 * warm-call record (opt_hit.c); 0: not run.  p: the full plan
 * (opt_fast_full); tu: the settings (opt_tuning_get). */
int opt_phase_small(const opt_plan *p, const void *const data[3], char *d,
                    size_t w, int same, const opt_tuning *tu, opt_hit_act *a);

/* Tests: the walk forced on any periodic plan whatever the cost (1; 2:
 * in runs, never the wrap loop), or off (-1), or the cost model (0, the
 * default). */
void opt_phase_force(int mode);

#endif
