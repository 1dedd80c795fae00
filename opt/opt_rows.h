/* opt_rows.h - long rows in segments and a lean walk of short rows
 * (opt_rows.c), for opt_exec.c's walk. */
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

/* Output elements [begin, end) of a plan of rows (no blocks), each row
 * (or its part in the range) one call of kern, or, kern NULL (a cond
 * constant along the rows), of copy or fill from the input the row's
 * cond byte picks; nt passed on.  For rows of at most OPT_LEAN_ROW bytes
 * neither on the stream edges nor requested ahead (opt_exec.c's row()
 * does those). */
#define OPT_LEAN_ROW 4096
void opt_lean_rows(const opt_plan *p, opt_kernel_fn *kern, const uint8_t *c,
                   const char *t, const char *e, char *d, size_t w,
                   opt_kernel_fn *copy, opt_kernel_fn *fill, int nt,
                   int64_t begin, int64_t end);

/* Rows under 2 KiB whose operands are periodic in each slab of axis 0 but
 * not over the call: each slab by the flat walk (opt_phase.c), on the
 * caller without streams; 0 (nothing written) when the walk refuses the
 * first.  kern: the rows' kernel (not NULL). */
int opt_slab_rows(const opt_plan *p, const void *const data[3], char *d,
                  size_t w, int isa, opt_kernel_fn *kern);

#endif
