/* ref_internal.h - what the reference's files share: a validated shape and
 * the checks that turn sel_tensors into one.  Not part of any interface.
 */
#ifndef REF_INTERNAL_H
#define REF_INTERNAL_H

#include "select.h"

/* A shape that passed SHAPE-RANK-1, SHAPE-NEG-1 and SHAPE-OVF-1. */
typedef struct ref_shape {
    int32_t rank;
    int64_t dims[SEL_MAX_RANK];
} ref_shape;

/* Where an input's axes sit inside the output's: input axis i is output
 * axis first + i.  numpy and none align on the right; pdpd at its axis. */
typedef struct ref_placed {
    ref_shape shape;
    int32_t first;
} ref_placed;

/* The checks of infer and execute in the order of ERR-ORDER-1, up to
 * SHAPE: pointers, attributes, dtypes, shapes and how they broadcast; dst
 * (NULL for infer) joins the pointer, dtype and shape checks.  On SEL_OK,
 * *out is the output shape and in[0..2] say where cond, then and else sit
 * in it.  Data pointers and overlap are execute's, after this. */
int ref_check_inputs(const sel_tensor *cond, const sel_tensor *then_,
                     const sel_tensor *else_, sel_broadcast b,
                     const sel_tensor *dst, ref_shape *out, ref_placed in[3]);

int ref_same_shape(const ref_shape *a, const ref_shape *b);

/* Elements of a valid shape (1 for rank 0); fits int64 by SHAPE-OVF-1. */
int64_t ref_count(const ref_shape *s);

#endif
