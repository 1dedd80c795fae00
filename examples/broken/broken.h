/* broken.h - what broken.c and broken_shape.c share: the bug names (one
 * library per -DBUG=<name>, IS(name) true in that one) and the shape
 * checks every bug shares (broken_shape.c). */
#ifndef BROKEN_H
#define BROKEN_H

#include <stdint.h>

#include "select.h"

#define BUG_none 100
#define BUG_nan_canon 1
#define BUG_negzero 2
#define BUG_cond_eq1 3
#define BUG_float_unselected 4
#define BUG_blend 5
#define BUG_bidir_cond 6
#define BUG_pdpd_cond_axis 7
#define BUG_zero_one 8
#define BUG_swap_bcast 9
#define BUG_dense 10
#define BUG_tail 11
#define BUG_poison_flip 12
#define BUG_one_alignment 13
#define BUG_flags_reject 14
#define BUG_bool_normalize 15
#define BUG_addr_cache 16
#define BUG_grain_quiet 31
#define BUG_fill_float 32
#define BUG_plan_axis 33
#define BUG_ovf_zero_only 34
#define BUG_split_rem 35
#define BUG_inplace_fill 36
#define BUG_idx32 37
#define BUG_shared_scratch 38
#ifndef BUG
#error "build with -DBUG=<name>, e.g. -DBUG=none"
#endif
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#if CAT(BUG_, BUG) == 0
#error "unknown BUG name"
#endif
#define IS(name) (CAT(BUG_, BUG) == BUG_##name)

typedef struct shape {
    int32_t rank;
    int64_t d[SEL_MAX_RANK];
} shape;

/* Everything infer and execute check before touching data, in the order
 * of ERR-ORDER-1; first[k] is the output axis of input k's axis 0. */
int bk_check(const sel_tensor *t[3], sel_broadcast b, const sel_tensor *dst,
             shape in[3], shape *out, int32_t first[3]);
int bk_same(const shape *a, const shape *b);
int64_t bk_count(const shape *s);

#endif
