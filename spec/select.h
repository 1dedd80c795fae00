/* select.h - the C ABI of a Select implementation checked by selcheck.
 *
 * One exported symbol per implementation, sel_get_impl(), returns a table
 * of function pointers.  Everything the harness, the reference and the
 * optimized backend agree on is here; the rules behind every status are
 * numbered in spec/select.md.  Plain C: compiles as C89 and as C++.
 */
#ifndef SEL_SELECT_H
#define SEL_SELECT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped on any change to a struct layout or a function signature.  The
 * harness refuses a library whose table reports another version. */
#define SEL_ABI_VERSION 1

/* The largest rank an implementation must accept (rule SHAPE-RANK-1).
 * A larger rank is SEL_ERR_SHAPE, never undefined behaviour. */
#define SEL_MAX_RANK 8

/* Element types.  0 is deliberately not a type, so a zeroed struct is
 * caught.  SEL_DT_BOOLEAN is one byte per element: 0 is false, 1 is true
 * (rule COND-01-1); other bytes are covered by extension COND-NZ-1. */
typedef enum sel_dtype {
    SEL_DT_BOOLEAN = 1,
    SEL_DT_F64 = 2,
    SEL_DT_F32 = 3,
    SEL_DT_F16 = 4,
    SEL_DT_BF16 = 5,
    SEL_DT_F8E4M3 = 6,
    SEL_DT_F8E5M2 = 7,
    SEL_DT_I64 = 8,
    SEL_DT_I32 = 9,
    SEL_DT_I16 = 10,
    SEL_DT_I8 = 11,
    SEL_DT_U64 = 12,
    SEL_DT_U32 = 13,
    SEL_DT_U16 = 14,
    SEL_DT_U8 = 15
} sel_dtype;
#define SEL_DT_FIRST SEL_DT_BOOLEAN
#define SEL_DT_LAST SEL_DT_U8

/* auto_broadcast modes (rules BC-NONE-*, BC-NUMPY-*, BC-PDPD-*). */
typedef enum sel_broadcast_type {
    SEL_BROADCAST_NONE = 0,
    SEL_BROADCAST_NUMPY = 1,
    SEL_BROADCAST_PDPD = 2
} sel_broadcast_type;

/* sel_broadcast.flags.  SEL_COND_BIDIRECTIONAL: cond takes part in the
 * numpy broadcast like then and else (rule BC-NUMPY-5) instead of being
 * broadcast one way to their result (BC-NUMPY-3).  Flags are hints an
 * implementation may ignore; an implementation must ignore bits it does
 * not know.  Ignoring this one makes it reject some valid shapes, which
 * the harness reports. */
#define SEL_COND_BIDIRECTIONAL 0x1u

/* Statuses.  When an input has several faults, the first in this order is
 * returned: ARG, ATTR, DTYPE, SHAPE (rule ERR-ORDER-1). */
typedef enum sel_status {
    SEL_OK = 0,
    SEL_ERR_SHAPE = 1,       /* shapes do not broadcast, negative dim, rank
                                above SEL_MAX_RANK, element count overflow,
                                dst shape differs from the inferred one */
    SEL_ERR_DTYPE = 2,       /* cond not boolean, then/else/dst differ */
    SEL_ERR_ATTR = 3,        /* unknown broadcast type, pdpd axis < -1 */
    SEL_ERR_UNSUPPORTED = 4, /* valid, but this implementation lacks it */
    SEL_ERR_ARG = 5,         /* NULL where a pointer is needed, overlap
                                of dst with an input other than in place */
    SEL_ERR_NOMEM = 6
} sel_status;

/* A dense, row-major tensor.  The caller owns every pointer and keeps it
 * valid for the duration of the call; an implementation keeps no pointer
 * after it returns.  No alignment is promised for data: it may sit at any
 * byte address.
 *   dtype  a sel_dtype.
 *   rank   0..SEL_MAX_RANK; 0 is a scalar of one element.
 *   dims   rank entries, each >= 0; may be NULL when rank is 0.  The
 *          element count is the product of dims (1 for rank 0) and must
 *          fit in int64_t and in size_t bytes.
 *   data   count * element size bytes; may be NULL only when the count is
 *          0.  execute never writes cond, then_ or else_, except
 *          through dst in place (rules IO-INPUTS-1, IO-ALIAS-1). */
typedef struct sel_tensor {
    int32_t dtype;
    int32_t rank;
    const int64_t *dims;
    void *data;
} sel_tensor;

/* How inputs broadcast.
 *   type   a sel_broadcast_type.
 *   axis   pdpd only: where the smaller shape starts inside the larger;
 *          -1 (the default) aligns them on the right, computed for each
 *          merge (rule BC-PDPD-2).  Ignored for none and numpy.
 *   flags  SEL_COND_* bits. */
typedef struct sel_broadcast {
    int32_t type;
    int32_t axis;
    uint32_t flags;
} sel_broadcast;

/* The table an implementation exports.  All functions are reentrant:
 * execute may be called concurrently from several threads on different
 * tensors (rule IO-THREADS-1).
 *
 *   supports(dtype, broadcast_type): nonzero if the implementation handles
 *     that then/else dtype under that mode.  The harness skips what is not
 *     supported instead of failing it.
 *   infer(cond, then_, else_, b, rank_out, dims_out): the output shape, or
 *     an error status.  Reads only dtype, rank and dims; data is ignored.
 *     dims_out has room for SEL_MAX_RANK entries.  On error the outputs
 *     are unspecified.
 *   execute(cond, then_, else_, b, dst): dst = cond ? then_ : else_.  The
 *     caller sets dst->dtype, rank and dims to the inferred values and
 *     allocates dst->data; any other dst shape or dtype is an error.
 *     dst->data may be the same pointer as then_->data or else_->data when
 *     that input has dst's shape (in place, rule IO-ALIAS-1); any other
 *     overlap is outside the contract.  Every element of dst is written
 *     with the bytes of exactly one source element (rule BITS-1). */
typedef struct sel_impl {
    uint32_t abi_version; /* SEL_ABI_VERSION */
    const char *name;     /* short, printable, static storage */
    int (*supports)(int32_t dtype, int32_t broadcast_type);
    int (*infer)(const sel_tensor *cond, const sel_tensor *then_,
                 const sel_tensor *else_, sel_broadcast b,
                 int32_t *rank_out, int64_t *dims_out);
    int (*execute)(const sel_tensor *cond, const sel_tensor *then_,
                   const sel_tensor *else_, sel_broadcast b,
                   sel_tensor *dst);
} sel_impl;

/* The one entry point of a library, found with dlsym.  Returns a pointer
 * to a table of static storage duration; never NULL. */
typedef const sel_impl *(*sel_get_impl_fn)(void);

#if defined(_WIN32)
#define SEL_EXPORT __declspec(dllexport)
#elif defined(__GNUC__)
#define SEL_EXPORT __attribute__((visibility("default")))
#else
#define SEL_EXPORT
#endif

SEL_EXPORT const sel_impl *sel_get_impl(void);

/* Small helpers, static so that every user gets its own copy. */
#if defined(__cplusplus) || \
    (defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L)
#define SEL_INLINE static inline
#elif defined(__GNUC__)
#define SEL_INLINE static __inline__
#else
#define SEL_INLINE static
#endif

/* Bytes per element; 0 for a value that is not a sel_dtype. */
SEL_INLINE size_t sel_dtype_size(int32_t dtype)
{
    switch (dtype) {
    case SEL_DT_BOOLEAN: case SEL_DT_I8: case SEL_DT_U8:
    case SEL_DT_F8E4M3: case SEL_DT_F8E5M2:
        return 1;
    case SEL_DT_F16: case SEL_DT_BF16: case SEL_DT_I16: case SEL_DT_U16:
        return 2;
    case SEL_DT_F32: case SEL_DT_I32: case SEL_DT_U32:
        return 4;
    case SEL_DT_F64: case SEL_DT_I64: case SEL_DT_U64:
        return 8;
    default:
        return 0;
    }
}

/* The short name used in case files and TAP ("f32", "boolean");
 * "?" for a value that is not a sel_dtype. */
SEL_INLINE const char *sel_dtype_name(int32_t dtype)
{
    switch (dtype) {
    case SEL_DT_BOOLEAN: return "boolean";
    case SEL_DT_F64: return "f64";
    case SEL_DT_F32: return "f32";
    case SEL_DT_F16: return "f16";
    case SEL_DT_BF16: return "bf16";
    case SEL_DT_F8E4M3: return "f8e4m3";
    case SEL_DT_F8E5M2: return "f8e5m2";
    case SEL_DT_I64: return "i64";
    case SEL_DT_I32: return "i32";
    case SEL_DT_I16: return "i16";
    case SEL_DT_I8: return "i8";
    case SEL_DT_U64: return "u64";
    case SEL_DT_U32: return "u32";
    case SEL_DT_U16: return "u16";
    case SEL_DT_U8: return "u8";
    default: return "?";
    }
}

/* "SEL_OK", "SEL_ERR_SHAPE", ...; "SEL_ERR_?" for anything else. */
SEL_INLINE const char *sel_status_name(int status)
{
    switch (status) {
    case SEL_OK: return "SEL_OK";
    case SEL_ERR_SHAPE: return "SEL_ERR_SHAPE";
    case SEL_ERR_DTYPE: return "SEL_ERR_DTYPE";
    case SEL_ERR_ATTR: return "SEL_ERR_ATTR";
    case SEL_ERR_UNSUPPORTED: return "SEL_ERR_UNSUPPORTED";
    case SEL_ERR_ARG: return "SEL_ERR_ARG";
    case SEL_ERR_NOMEM: return "SEL_ERR_NOMEM";
    default: return "SEL_ERR_?";
    }
}

/* "none", "numpy", "pdpd"; "?" for anything else. */
SEL_INLINE const char *sel_broadcast_name(int32_t type)
{
    switch (type) {
    case SEL_BROADCAST_NONE: return "none";
    case SEL_BROADCAST_NUMPY: return "numpy";
    case SEL_BROADCAST_PDPD: return "pdpd";
    default: return "?";
    }
}

#ifdef __cplusplus
}
#endif

#endif /* SEL_SELECT_H */
