/* opt_rows.h - long rows in segments (opt_rows.c), for opt_exec.c's walk. */
#ifndef OPT_ROWS_H
#define OPT_ROWS_H

#include "opt.h"

/* 1 when an operand's row of 8 KiB or more repeats along the axis right
 * above the row: the plan's rows run in segments (opt_run_segs). */
int opt_seg_rows(const opt_plan *p, size_t w);

/* The whole call in segments; pair >= 0 (an axis above the segments'
 * axis, opt_exec.c's pair_axis): the groups along it in pairs too. */
void opt_run_segs(const opt_plan *p, opt_kernel_fn *kern, const uint8_t *c,
                  const char *t, const char *e, char *d, size_t w,
                  int32_t pair);

#endif
