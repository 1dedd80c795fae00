/* fuzz_seeds.c - writes the fuzz target's seed corpus: one small binary
 * file per row of the table below, encoded in the layout of
 * fuzz_format.h.  Usage: fuzz_seeds DIR (make fuzz-corpus).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "select.h"
#include "fuzz_format.h"

/* One seed.  shapes: "cond:then:else", each dims joined by 'x' ("4x1"),
 * "_" for rank 0, or "R<k>" for BAD_RANK[k].  The header bytes after
 * flags are raw (0 is the ordinary choice; see fuzz_format.h). */
typedef struct row {
    const char *name;
    int btype; /* 0..2, or 246 + k for BAD_BTYPE[k] */
    int axis;
    unsigned flags;
    int32_t dtype;
    const char *shapes;
    unsigned dtf, nul, alias, offs, cond, config, dst;
} row;

#define OFFS(c, t, e, d) ((c) | (t) << 3 | (e) << 6 | (d) << 9)
#define RANK0_DIMS_NULL (1u << 12)
#define EMPTY_DATA_NULL (1u << 13)
#define DTF(k) (224u + (k))                 /* dtype fault k */
#define NUL(k) (H_FZ_NULL_NONE + (k))       /* H_FZ_N_* */
#define ALI(k) (H_FZ_ALIAS_NONE + (k))      /* H_FZ_A_* */
#define DST(k) (H_FZ_DST_INFERRED + (k))    /* H_FZ_D_* */
#define CFG(isa, thr, low, nt) ((isa) | ((thr) - 1) << 2 | (low) << 4 | (nt) << 5)
#define BI SEL_COND_BIDIRECTIONAL
enum { NONE, NUMPY, PDPD };

static const row rows[] = {
    /* none (BC-NONE-1) */
    {"none_2x3", NONE, -1, 0, SEL_DT_F32, "2x3:2x3:2x3", 0, 0, 0, 0, 0, 0, 0},
    {"none_rank0", NONE, -1, 0, SEL_DT_I8, "_:_:_", 0, 0, 0, 0, 0, 0, 0},
    {"none_rank0_vs_1", NONE, -1, 0, SEL_DT_F16, "1:_:_", 0, 0, 0, 0, 0, 0, 0},
    {"none_mismatch", NONE, -1, 0, SEL_DT_F32, "2x3:2x3:3x2", 0, 0, 0, 0, 0, 0, 0},
    {"none_rank8", NONE, -1, 0, SEL_DT_U16, "2x1x2x1x2x1x2x3:2x1x2x1x2x1x2x3:2x1x2x1x2x1x2x3",
     0, 0, 0, 0, 0, CFG(2, 1, 0, 0), 0},
    /* numpy (BC-NUMPY-*) and the seeds' examples */
    {"spec_3x2", NUMPY, -1, 0, SEL_DT_I32, "3x2:3x2:3x2", 0, 0, 0, 0, 0, 0, 0},
    {"cond_4x5", NUMPY, -1, 0, SEL_DT_F32, "4x5:2x3x4x5:2x3x4x5", 0, 0, 0, 0, 0, 0, 0},
    {"cond_3x1x5", NUMPY, -1, 0, SEL_DT_BF16, "3x1x5:2x3x4x5:2x3x4x5", 0, 0, 0, 0, 0, 0, 0},
    {"cond_3x5_invalid", NUMPY, -1, 0, SEL_DT_F16, "3x5:2x3x4x5:2x3x4x5", 0, 0, 0, 0, 0, 0, 0},
    {"oneway_2x1", NUMPY, -1, 0, SEL_DT_F32, "2x1:1x3:1x3", 0, 0, 0, 0, 0, 0, 0},
    {"bidir_2x1", NUMPY, -1, BI, SEL_DT_F32, "2x1:1x3:1x3", 0, 0, 0, 0, 0, 0, 0},
    {"bidir_cond_rank4", NUMPY, -1, BI, SEL_DT_U8, "2x1x3x1:3x4:4", 0, 0, 0, 0, 0, 0, 0},
    {"numpy_else_scalar", NUMPY, -1, 0, SEL_DT_F64, "4x5:4x5:_", 0, 0, 0, 0, 0, 0, 0},
    {"numpy_then_row", NUMPY, -1, 0, SEL_DT_I16, "8x33:33:8x33", 0, 0, 0, 0, 0, 0, 0},
    {"numpy_cond_col", NUMPY, -1, 0, SEL_DT_F32, "65x1:65x17:65x17", 0, 0, 0, 0, 0, CFG(1, 1, 0, 0), 0},
    {"numpy_outer", NUMPY, -1, 0, SEL_DT_U64, "3x1x7:1x4x7:3x4x1", 0, 0, 0, 0, 0, 0, 0},
    {"numpy_all_rank0", NUMPY, -1, 0, SEL_DT_F8E4M3, "_:_:_", 0, 0, 0, 0, 0, 0, 0},
    {"numpy_conflict", NUMPY, -1, 0, SEL_DT_F32, "1:2x3:3x3", 0, 0, 0, 0, 0, 0, 0},
    {"numpy_unknown_flags", NUMPY, -1, 0xfe, SEL_DT_F32, "2x3:2x3:3", 0, 0, 0, 0, 0, 0, 0},
    /* zero-size dims (BC-NUMPY-4, IO-ZERO-1) */
    {"zero_1_vs_0", NUMPY, -1, 0, SEL_DT_F32, "1:0x3:1x3", 0, 0, 0, 0, 0, 0, 0},
    {"zero_vs_3", NUMPY, -1, 0, SEL_DT_F32, "3:0:3", 0, 0, 0, 0, 0, 0, 0},
    {"zero_cond_oneway", NUMPY, -1, 0, SEL_DT_F32, "0:1:1", 0, 0, 0, 0, 0, 0, 0},
    {"zero_cond_bidir", NUMPY, -1, BI, SEL_DT_F32, "0:1:1", 0, 0, 0, 0, 0, 0, 0},
    {"zero_data_null", NUMPY, -1, 0, SEL_DT_I64, "0x4:0x4:1x4", 0, 0, 0, EMPTY_DATA_NULL, 0, 0, 0},
    {"zero_huge_other", NUMPY, -1, 0, SEL_DT_U8, "0x4611686018427387904:0x4611686018427387904:1",
     0, 0, 0, 0, 0, 0, 0},
    /* pdpd (BC-PDPD-*) */
    {"pdpd_default", PDPD, -1, 0, SEL_DT_F32, "5:2x3x4x5:4x5", 0, 0, 0, 0, 0, 0, 0},
    {"pdpd_axis1", PDPD, 1, 0, SEL_DT_F32, "3x1:2x3x4x5:3x4", 0, 0, 0, 0, 0, 0, 0},
    {"pdpd_axis0", PDPD, 0, 0, SEL_DT_I8, "_:2x3x4x5:1x3", 0, 0, 0, 0, 0, 0, 0},
    {"pdpd_cond_own_axis", PDPD, -1, 0, SEL_DT_F16, "4:2x3x4:3x4", 0, 0, 0, 0, 0, 0, 0},
    {"pdpd_b_wider", PDPD, -1, 0, SEL_DT_F32, "_:3:2x3", 0, 0, 0, 0, 0, 0, 0},
    {"pdpd_axis_bad", PDPD, -2, 0, SEL_DT_F32, "_:2x3:3", 0, 0, 0, 0, 0, 0, 0},
    {"pdpd_axis_past_end", PDPD, 2, 0, SEL_DT_F32, "_:2x3x4x5:4x5x1", 0, 0, 0, 0, 0, 0, 0},
    /* dtypes (DT-*) */
    {"dtype_cond_u8", NUMPY, -1, 0, SEL_DT_F32, "2x3:2x3:2x3", DTF(8 * 3), 0, 0, 0, 0, 0, 0},
    {"dtype_else_other", NUMPY, -1, 0, SEL_DT_F16, "2x3:2x3:2x3", DTF(6 * 3 + 1), 0, 0, 0, 0, 0, 0},
    {"dtype_dst_unknown", NUMPY, -1, 0, SEL_DT_U32, "2x3:2x3:2x3", DTF(1 * 3 + 2), 0, 0, 0, 0, 0, 0},
    {"dtype_bool_data", NUMPY, -1, 0, SEL_DT_BOOLEAN, "7:7:7", 0, 0, 0, 0, H_FZ_C_ANY, 0, 0},
    /* cond bytes (COND-NZ-1) and kernels: every ISA, threads, streams */
    {"cond_nz_x8", NUMPY, -1, 0, SEL_DT_U8, "257:257:257", 0, 0, 0, 0, H_FZ_C_NZ, CFG(3, 1, 0, 0), 0},
    {"cond_runs_x16", NUMPY, -1, 0, SEL_DT_F16, "129:129:129", 0, 0, 0, 0, H_FZ_C_RUNS, CFG(2, 1, 0, 0), 0},
    {"threads_x32", NUMPY, -1, 0, SEL_DT_F32, "64x65:64x65:64x65", 0, 0, 0, 0, 0, CFG(3, 3, 1, 0), 0},
    {"streams_x64", NUMPY, -1, 0, SEL_DT_F64, "63x31:63x31:_", 0, 0, 0, 0, 0, CFG(2, 2, 1, 1), 0},
    {"scalar_isa_odd", NUMPY, -1, 0, SEL_DT_I16, "15:15x15:15", 0, 0, 0, OFFS(1, 3, 5, 7), 0, CFG(0, 1, 0, 0), 0},
    /* pointers and aliasing (ARG-NULL-1, IO-ALIAS-*) */
    {"null_cond", NUMPY, -1, 0, SEL_DT_F32, "2x3:2x3:2x3", 0, NUL(H_FZ_N_COND), 0, 0, 0, 0, 0},
    {"null_rank_out", NUMPY, -1, 0, SEL_DT_F32, "2x3:2x3:2x3", 0, NUL(H_FZ_N_RANK_OUT), 0, 0, 0, 0, 0},
    {"null_then_data", NUMPY, -1, 0, SEL_DT_F32, "2x3:2x3:2x3", 0, NUL(H_FZ_N_THEN_DATA), 0, 0, 0, 0, 0},
    {"null_rank0_dims", NUMPY, -1, 0, SEL_DT_F32, "_:_:_", 0, 0, 0, RANK0_DIMS_NULL, 0, 0, 0},
    {"inplace_then", NUMPY, -1, 0, SEL_DT_F32, "4x9:4x9:9", 0, 0, ALI(H_FZ_A_DST_THEN), 0, 0, 0, 0},
    {"inplace_else_bcast", NUMPY, -1, 0, SEL_DT_F32, "4x9:4x9:9", 0, 0, ALI(H_FZ_A_DST_ELSE), 0, 0, 0, 0},
    {"inplace_all", NUMPY, -1, 0, SEL_DT_U16, "33:33:33", 0, 0, ALI(H_FZ_A_ALL_SAME), 0, 0, 0, 0},
    {"overlap_plus1", NUMPY, -1, 0, SEL_DT_F32, "16:16:16", 0, 0, ALI(H_FZ_A_DST_THEN_PLUS1), 0, 0, 0, 0},
    {"overlap_cond", NUMPY, -1, 0, SEL_DT_U8, "16:16:16", 0, 0, ALI(H_FZ_A_DST_COND), 0, 0, 0, 0},
    /* shapes that must fail early (SHAPE-*, ARG-ATTR-1, ERR-ORDER-1) */
    {"rank9", NUMPY, -1, 0, SEL_DT_F32, "1x1x1x1x1x1x1x1x1:2:2", 0, 0, 0, 0, 0, 0, 0},
    {"rank_negative", NUMPY, -1, 0, SEL_DT_F32, "R0:2:2", 0, 0, 0, 0, 0, 0, 0},
    {"dim_negative", NUMPY, -1, 0, SEL_DT_F32, "2:-1:2", 0, 0, 0, 0, 0, 0, 0},
    {"overflow_out", NUMPY, -1, 0, SEL_DT_F32, "_:4611686018427387904x1:1x4", 0, 0, 0, 0, 0, 0, 0},
    {"overflow_bytes", NUMPY, -1, 0, SEL_DT_F64, "_:1152921504606846976:_", 0, 0, 0, 0, 0, 0, 0},
    {"btype_bad", 246, -1, 0, SEL_DT_F32, "2:2:2", 0, 0, 0, 0, 0, 0, 0},
    {"order_attr_dtype", 247, -1, 0, SEL_DT_F32, "2:2:3", DTF(0), 0, 0, 0, 0, 0, 0},
    {"dst_rank0_vs_1", NUMPY, -1, 0, SEL_DT_F32, "1:1:1", 0, 0, 0, 0, 0, 0, DST(H_FZ_D_RANK0_VS_1)},
    {"dst_huge", NUMPY, -1, 0, SEL_DT_F32, "2x3:2x3:2x3", 0, 0, 0, 0, 0, 0, DST(H_FZ_D_FIRST_HUGE)},
    /* Short inner rows (opt_block.c): cond repeated per channel, a tiled
     * per-channel default, a per-row then, middle-axis and outer-product
     * broadcasts, rank 8 with interleaved 1s; several blocks, threads with
     * chunks that cut blocks, every ISA level. */
    {"short_pixmask", NUMPY, -1, 0, SEL_DT_F32, "1000x1:1000x3:1000x3", 0, 0, 0, 0, H_FZ_C_ANY, CFG(3, 2, 1, 0), 0},
    {"short_chan_default", NUMPY, -1, 0, SEL_DT_F32, "4097x1:4097x4:4", 0, 0, 0, 0, 0, CFG(2, 3, 1, 1), 0},
    {"short_sample", NUMPY, -1, 0, SEL_DT_F16, "9x1x1:9x1000x3:3", 0, 0, 0, 0, H_FZ_C_RUNS, CFG(3, 1, 0, 0), 0},
    {"short_then_per_row", NUMPY, -1, 0, SEL_DT_U8, "1000x3:1000x1:1000x3", 0, 0, 0, 0, 0, CFG(1, 2, 1, 0), 0},
    {"short_midaxis", NUMPY, -1, 0, SEL_DT_I64, "64x1x17:1x64x17:64x64x17", 0, 0, 0, 0, 0, CFG(3, 4, 1, 0), 0},
    {"short_outer", NUMPY, -1, 0, SEL_DT_F32, "1x33x1:33x1x33:33x33x1", 0, 0, 0, 0, 0, CFG(0, 1, 0, 0), 0},
    {"short_rank8", NUMPY, -1, 0, SEL_DT_BF16, "2x1x2x1x2x1x2x1:1x2x1x2x1x2x1x2:2x2x2x2x2x2x2x2", 0, 0, 0, 0, 0, CFG(2, 1, 0, 0), 0},
    {"short_inplace", NUMPY, -1, 0, SEL_DT_F32, "1000x1:1000x3:3", 0, 0, ALI(H_FZ_A_DST_THEN), 0, 0, CFG(3, 2, 1, 0), 0},
    /* Long rows in segments (opt_exec.c run_segs): a then row of 16 KiB and
     * a u8 cond row of 64 KiB repeated along the axis right above. */
    {"long_seg_then", NUMPY, -1, 0, SEL_DT_F32, "5x4097:1x4097:5x4097", 0, 0, 0, 0, 0, CFG(3, 1, 0, 0), 0},
    {"long_seg_cond", NUMPY, -1, 0, SEL_DT_U8, "1x65537:2x65537:2x65537", 0, 0, 0, 0, H_FZ_C_ANY, CFG(2, 1, 0, 0), 0},
};

/* ---- encoding ----------------------------------------------------------- */

typedef struct shape {
    int32_t rank; /* or -1 - k for BAD_RANK[k] */
    int64_t d[H_FZ_MAXDIMS];
} shape;

static void die(const char *name, const char *what)
{
    fprintf(stderr, "fuzz_seeds: %s: %s\n", name, what);
    exit(2);
}

static void parse(const char *name, const char *s, shape *sh)
{
    char *end;
    sh->rank = 0;
    if (*s == '_')
        return;
    if (*s == 'R') {
        sh->rank = -1 - (int32_t)strtol(s + 1, NULL, 10);
        return;
    }
    for (;;) {
        if (sh->rank == H_FZ_MAXDIMS)
            die(name, "too many dims");
        sh->d[sh->rank++] = strtoll(s, &end, 10);
        if (end == s)
            die(name, "bad shape");
        if (*end != 'x')
            return;
        s = end + 1;
    }
}

static int find(const int64_t *t, int n, int64_t v)
{
    int i;
    for (i = 0; i < n; i++)
        if (t[i] == v)
            return i;
    return -1;
}

/* The byte of one tensor dim whose base dim is b. */
static unsigned dim_byte(const char *name, int64_t v, int64_t b)
{
    static const int64_t tail[] = H_FZ_TAIL_SIZES, neg[] = H_FZ_NEG_DIMS,
                         huge[] = H_FZ_HUGE_DIMS;
    int i;
    if (v == b)
        return 0;
    if (v == 1)
        return H_FZ_DIM_ONE;
    if (v >= 0 && v < 8)
        return H_FZ_DIM_SMALL + (unsigned)v;
    if ((i = find(tail, 16, v)) >= 0)
        return H_FZ_DIM_TAIL + (unsigned)i;
    if ((i = find(neg, 8, v)) >= 0)
        return H_FZ_DIM_NEG + (unsigned)i;
    if ((i = find(huge, 8, v)) >= 0)
        return H_FZ_DIM_HUGE + (unsigned)i;
    die(name, "a dim the format cannot encode");
    return 0;
}

/* The byte of a base dim, or -1 when the base tables lack it. */
static int base_byte(int64_t v)
{
    static const int64_t small[] = H_FZ_SMALL_DIMS, tail[] = H_FZ_TAIL_SIZES,
                         large[] = H_FZ_LARGE_DIMS;
    int i;
    if ((i = find(small, 6, v)) >= 0)
        return i;
    if ((i = find(tail, 16, v)) >= 0)
        return H_FZ_BASE_TAIL + i;
    if ((i = find(large, 8, v)) >= 0)
        return H_FZ_BASE_LARGE + i;
    return -1;
}

static size_t encode(const row *r, unsigned char *out)
{
    static const int32_t dts[] = H_FZ_DTYPES, bad_rank[] = H_FZ_BAD_RANK;
    shape sh[3], base = {0, {0}};
    const char *p = r->shapes;
    size_t n = 0;
    int k, i;

    for (k = 0; k < 3; k++) { /* cond, then, else */
        parse(r->name, p, &sh[k]);
        if (k < 2 && !(p = strchr(p, ':')))
            die(r->name, "shapes need cond:then:else");
        p++;
    }
    base = sh[1]; /* then's shape, where the base tables have its dims */
    if (base.rank < 0)
        base.rank = 0;
    out[n++] = (unsigned char)r->btype;
    out[n++] = (unsigned char)(r->axis == -1 ? 0 : 128 + r->axis + 3);
    out[n++] = (unsigned char)r->flags;
    for (i = 0; i < 15 && dts[i] != r->dtype; i++)
        ;
    out[n++] = (unsigned char)i;
    out[n++] = (unsigned char)r->dtf;
    out[n++] = 0;
    out[n++] = (unsigned char)r->nul;
    out[n++] = (unsigned char)r->alias;
    out[n++] = (unsigned char)(r->offs & 0xff);
    out[n++] = (unsigned char)(r->offs >> 8);
    out[n++] = (unsigned char)r->cond;
    out[n++] = (unsigned char)r->config;
    out[n++] = (unsigned char)r->dst;
    out[n++] = (unsigned char)base.rank;
    for (i = 0; i < base.rank; i++) {
        const int b = base_byte(base.d[i]);
        out[n++] = (unsigned char)(b < 0 ? 2 : b); /* 2 decodes as 1 */
        if (b < 0)
            base.d[i] = 1;
    }
    for (k = 0; k < 3; k++) {
        const int32_t rk = sh[k].rank;
        out[n++] = (unsigned char)(rk < 0 ? H_FZ_RANK_BAD + (-1 - rk)
                                   : rk == base.rank ? 0 : H_FZ_RANK_ABS + rk);
        out[n++] = 0; /* right-aligned */
        if (rk < 0) /* the decoder reads dims of a large bad rank: 1s */
            for (i = 0; i < bad_rank[-1 - rk] && i < H_FZ_MAXDIMS; i++)
                out[n++] = H_FZ_DIM_ONE;
        for (i = 0; i < rk; i++) {
            const int j = base.rank - rk + i;
            out[n++] = (unsigned char)dim_byte(r->name, sh[k].d[i],
                                               j >= 0 ? base.d[j] : 1);
        }
    }
    return n;
}

int main(int argc, char **argv)
{
    unsigned char buf[256];
    char path[4096];
    size_t i, n;
    FILE *f;

    if (argc != 2) {
        fprintf(stderr, "usage: fuzz_seeds DIR\n");
        return 2;
    }
    for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        n = encode(&rows[i], buf);
        snprintf(path, sizeof path, "%s/%02u_%s", argv[1], (unsigned)i,
                 rows[i].name);
        if (!(f = fopen(path, "wb")) || fwrite(buf, 1, n, f) != n ||
            fclose(f) != 0)
            die(path, "cannot write");
    }
    return 0;
}
