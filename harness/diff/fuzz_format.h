/* fuzz_format.h - the byte layout the fuzz target decodes (fuzz_select.c)
 * and the seed generator writes (fuzz_seeds.c): one table, so the two
 * cannot drift.  Every input is valid; a missing byte reads as 0.
 */
#ifndef H_FUZZ_FORMAT_H
#define H_FUZZ_FORMAT_H

/* Design: byte value 0 always means the ordinary, valid choice, so that
 * short or zeroed inputs decode to plain valid cases and libFuzzer reaches
 * the faults by mutating single bytes.  Rare faults live at the top of each
 * byte's range (a byte >= some threshold), weighted roughly by how much
 * they are worth.
 *
 * Layout, in order:
 *   header      H_FZ_NHEAD bytes (the H_FZ_* indices below)
 *   base dims   one byte per base axis (rank from H_FZ_RANK): the shape the
 *               tensors are derived from, so that most cases broadcast
 *   cond, then, else   each: rank byte, place byte, one byte per dim
 *   tail        the rest: cond bits/bytes, then a seed for all other data
 */
enum {
    H_FZ_BTYPE,   /* < 246: b % 3 (none, numpy, pdpd); else BAD_BTYPE[b-246] */
    H_FZ_AXIS,    /* < 128: -1; else (b - 128) % 13 - 3, i.e. -3..9 */
    H_FZ_FLAGS,   /* bit 0: SEL_COND_BIDIRECTIONAL; bits 1-7: unknown bits
                     placed at 25..31 (must be ignored) */
    H_FZ_DTYPE,   /* then's dtype: DTYPES[b % 15] */
    H_FZ_DTFAULT1,/* < 224: none; else k = b - 224: tensor k % 3 (cond,
                     else, dst) gets BAD_DTYPE value k / 3 */
    H_FZ_DTFAULT2,/* a second, independent dtype fault */
    H_FZ_NULL,    /* < 212: none; else H_FZ_N_* kind (b - 212) % H_FZ_N_COUNT */
    H_FZ_ALIAS,   /* < 200: separate buffers; else H_FZ_A_* (b - 200) % count */
    H_FZ_OFFS_LO, /* byte offsets 0..7 of the data: cond bits 0-2, then 3-5, */
    H_FZ_OFFS_HI, /* else 6-8, dst 9-11 (of lo | hi << 8); bit 12: rank-0
                     dims NULL; bit 13: data NULL for every empty tensor */
    H_FZ_COND,    /* cond bytes: H_FZ_C_* by range, see below */
    H_FZ_CONFIG,  /* opt only: bits 0-1 ISA level (scalar, sse2, avx2,
                     avx512; the best supported at or below), bits 2-3
                     threads - 1, bit 4 thresholds lowered to 0 so small
                     calls go to the pool, bit 5 non-temporal stores too,
                     bit 6 (with bit 4) chunks of at least 1 KiB */
    H_FZ_DST,     /* < 200: dst has the inferred shape; else H_FZ_D_* */
    H_FZ_RANK,    /* base rank: b % 9 */
    H_FZ_NHEAD
};

/* Per tensor (cond, then, else), after the base dims:
 *   rank   < 160: the base rank; < 232: (b - 160) % 10, i.e. 0..9 (9 is
 *          over SEL_MAX_RANK); else BAD_RANK[(b - 232) % 8]
 *   place  where the tensor's axis 0 sits on the base axes: < 128 right
 *          aligned (base rank - rank); < 192: 0; else the pdpd axis when it
 *          is >= 0, otherwise (b - 192) % 9.  Base axes outside 0..R-1
 *          count as 1.
 *   dims   min(rank, 9) bytes when rank >= 0:
 *          < 128: the base dim at that position; < 176: 1; < 192: 0;
 *          < 224: (b - 192) % 8; < 240: TAIL_SIZES[b - 224];
 *          < 248: NEG_DIMS[b - 240]; else HUGE_DIMS[b - 248]
 * Base dims: < 160: SMALL_DIMS[b % 6]; < 248: TAIL_SIZES[(b - 160) % 16];
 *          else LARGE_DIMS[b - 248] (rare: large tensors are slow to run).
 */
#define H_FZ_RANK_ABS 160
#define H_FZ_RANK_BAD 232
#define H_FZ_PLACE_LEFT 128
#define H_FZ_PLACE_AXIS 192
#define H_FZ_DIM_ONE 128
#define H_FZ_DIM_ZERO 176
#define H_FZ_DIM_SMALL 192
#define H_FZ_DIM_TAIL 224
#define H_FZ_DIM_NEG 240
#define H_FZ_DIM_HUGE 248
#define H_FZ_BASE_TAIL 160
#define H_FZ_BASE_LARGE 248
#define H_FZ_MAXDIMS 9   /* dims decoded per tensor: SEL_MAX_RANK + 1 */

/* Tables, as initialisers (each file instantiates the ones it uses). */
#define H_FZ_BAD_BTYPE {3, -1, 255, 0x7fffffff, INT32_MIN, 100, 4, -2, 1000, 16}
#define H_FZ_DTYPES {SEL_DT_F32, SEL_DT_F16, SEL_DT_BF16, SEL_DT_U8,       \
                     SEL_DT_I64, SEL_DT_F64, SEL_DT_I32, SEL_DT_I16,       \
                     SEL_DT_I8, SEL_DT_U64, SEL_DT_U32, SEL_DT_U16,        \
                     SEL_DT_F8E4M3, SEL_DT_F8E5M2, SEL_DT_BOOLEAN}
/* H_FZ_DT_OTHER: a valid dtype different from the tensor's natural one
 * (for cond: then's dtype, or u8 when then is boolean). */
#define H_FZ_DT_OTHER (-1000)
#define H_FZ_BAD_DTYPE {0, 16, -1, INT32_MIN, INT32_MAX, 255,             \
                        H_FZ_DT_OTHER, SEL_DT_BOOLEAN, SEL_DT_U8,          \
                        SEL_DT_I8, SEL_DT_F32}
#define H_FZ_BAD_RANK {-1, 10, 64, 1000, INT32_MAX, INT32_MIN, -100, 9}
#define H_FZ_SMALL_DIMS {2, 3, 1, 4, 5, 0}
#define H_FZ_TAIL_SIZES {7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65,     \
                         127, 129, 255, 257}
#define H_FZ_LARGE_DIMS {1000, 4097, 65537, INT64_C(1) << 20,             \
                         INT64_C(1) << 31, INT64_C(1) << 32,               \
                         INT64_C(1) << 40, INT64_C(1) << 62}
#define H_FZ_NEG_DIMS {-1, -2, -7, INT64_MIN, -(INT64_C(1) << 62),        \
                       -(INT64_C(1) << 31), -1000, INT64_MIN + 1}
/* Around the limits of SHAPE-OVF-1: 2^60 * 8 bytes is 2^63 > INT64_MAX;
 * 3037000500^2 just passes 2^63. */
#define H_FZ_HUGE_DIMS {INT64_C(1) << 62, INT64_MAX, INT64_C(1) << 31,    \
                        INT64_C(1) << 32, INT64_C(3037000500),             \
                        INT64_C(1) << 60, (INT64_C(1) << 61) + 1,          \
                        INT64_C(1) << 40}

/* NULL pointers (ARG-NULL-1), one per input. */
enum {
    H_FZ_N_COND, H_FZ_N_THEN, H_FZ_N_ELSE, H_FZ_N_DST,
    H_FZ_N_RANK_OUT, H_FZ_N_DIMS_OUT,
    H_FZ_N_COND_DIMS, H_FZ_N_THEN_DIMS, H_FZ_N_ELSE_DIMS, H_FZ_N_DST_DIMS,
    H_FZ_N_COND_DATA, H_FZ_N_THEN_DATA, H_FZ_N_ELSE_DATA, H_FZ_N_DST_DATA,
    H_FZ_N_ALL_DATA,
    H_FZ_N_COUNT
};
#define H_FZ_NULL_NONE 212

/* Buffer sharing (IO-ALIAS-1, IO-ALIAS-2); "+1" is one dst element later,
 * "-1" one earlier, "half" half of then's bytes later. */
enum {
    H_FZ_A_DST_THEN, H_FZ_A_DST_ELSE, H_FZ_A_ALL_SAME,
    H_FZ_A_DST_THEN_PLUS1, H_FZ_A_DST_THEN_MINUS1, H_FZ_A_DST_THEN_HALF,
    H_FZ_A_DST_ELSE_PLUS1, H_FZ_A_DST_COND, H_FZ_A_DST_COND_PLUS1,
    H_FZ_A_THEN_ELSE, H_FZ_A_COND_THEN,
    H_FZ_A_COUNT
};
#define H_FZ_ALIAS_NONE 200

/* cond bytes, by range of H_FZ_COND: the tail's bits as 0/1 (then random
 * bits); bytes from {0, 1, 2, 0x7f, 0x80, 0xff}; any byte; all 1; all 0;
 * runs of 1..130 equal bytes. */
#define H_FZ_C_BITS 0
#define H_FZ_C_NZ 112
#define H_FZ_C_ANY 160
#define H_FZ_C_ONES 192
#define H_FZ_C_ZEROS 208
#define H_FZ_C_RUNS 224

/* dst shapes other than the inferred one (SHAPE-DST-1, SHAPE-RANK-1). */
enum {
    H_FZ_D_RANK0_VS_1, H_FZ_D_LEAD1, H_FZ_D_DROP_FIRST, H_FZ_D_LAST_PLUS1,
    H_FZ_D_LAST_MINUS1, H_FZ_D_REVERSE, H_FZ_D_RANK9, H_FZ_D_RANK_NEG,
    H_FZ_D_FIRST_HUGE, H_FZ_D_FIRST_NEG, H_FZ_D_FIRST_ZERO,
    H_FZ_D_COUNT
};
#define H_FZ_DST_INFERRED 200

/* The target's entry point (libFuzzer's name) and, for the reproducer, a
 * switch that makes it describe every case on stderr. */
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern int h_fuzz_verbose;

#endif
