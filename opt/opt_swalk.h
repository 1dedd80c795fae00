/* opt_swalk.h - the small walk's state and row loops (opt_swalk.c), which
 * opt_small.c builds and runs: one flat loop over a plan's rows, the
 * odometer stepping each operand's pointer by a precomputed byte delta.
 */
#ifndef OPT_SWALK_H
#define OPT_SWALK_H

#include "opt.h"

/* Rows this long or longer go to the vector kernels (measured: README). */
#define OPT_KROW_BYTES 32

typedef struct opt_swalk {
    const uint8_t *c;
    const char *t, *e;
    char *d;
    size_t w;
    int64_t n0, n1, tiles;        /* row elements, rows per tile, tiles */
    int64_t s1[3];                /* a tile's row strides, in bytes */
    int32_t lo;                   /* the odometer's lowest axis (rank - 3) */
    const int64_t *dims;
    int64_t dc[SEL_MAX_RANK], dt[SEL_MAX_RANK], de[SEL_MAX_RANK];
    opt_kernel_fn *kern;          /* long rows: the kernel (fill for pick) */
    int pick;                     /* long rows: cond constant on the row */
    int64_t est;                  /* pays()'s estimate of the walk */
    size_t s0[3];                 /* inner strides */
} opt_swalk;

typedef void opt_swalk_fn(const opt_swalk *x);

/* The short-row loop of a walk (rows under OPT_KROW_BYTES): by width index
 * and the inner strides, or a fixed-size copy. */
opt_swalk_fn *opt_swalk_short(const opt_swalk *x, int wi);
/* Long rows: one kernel call each (x->kern), or a copy or fill per row
 * from the input cond picks (x->pick). */
void opt_swalk_rows(const opt_swalk *x);

#endif
