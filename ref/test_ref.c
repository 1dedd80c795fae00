/* test_ref.c - unit checks of the reference: exact statuses and shapes for
 * every mode and cond rule, the seeds' examples with literal data, and bit
 * preservation of every 16-bit pattern.  Prints TAP; exits 1 on a failure.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref.h"

static int failures, tests;

static void ok(int cond, const char *what)
{
    tests++;
    if (!cond)
        failures++;
    printf("%s %d - %s\n", cond ? "ok" : "not ok", tests, what);
}

/* "4x1" -> rank 2 {4,1}; "_" -> rank 0.  Returns the rank. */
static int32_t parse(const char *s, int64_t *dims)
{
    int32_t r = 0;
    if (strcmp(s, "_") == 0)
        return 0;
    for (;;) {
        char *end;
        dims[r++] = strtoll(s, &end, 10);
        if (*end != 'x')
            return r;
        s = end + 1;
    }
}

static sel_tensor tensor(int32_t dtype, const char *shape, int64_t *dims)
{
    sel_tensor t;
    t.dtype = dtype;
    t.rank = parse(shape, dims);
    t.dims = dims;
    t.data = NULL;
    return t;
}

static void format(char *buf, int32_t rank, const int64_t *dims)
{
    int32_t i;
    if (rank == 0) {
        strcpy(buf, "_");
        return;
    }
    buf[0] = 0;
    for (i = 0; i < rank; i++)
        sprintf(buf + strlen(buf), i ? "x%lld" : "%lld", (long long)dims[i]);
}

/* One infer check: shapes cond:then:else under a mode; want a status, and
 * on SEL_OK the shape. */
struct shape_case {
    const char *rule, *cond, *then_, *else_;
    int32_t type, axis;
    uint32_t flags;
    int status;
    const char *want;
};

#define N SEL_BROADCAST_NONE
#define NP SEL_BROADCAST_NUMPY
#define PD SEL_BROADCAST_PDPD
#define BI SEL_COND_BIDIRECTIONAL
#define SH SEL_ERR_SHAPE

static const struct shape_case shape_cases[] = {
    /* the seeds' examples, one-way cond (000, 001, 003) */
    {"BC-NUMPY-3", "4x5", "2x3x4x5", "2x3x4x5", NP, -1, 0, SEL_OK, "2x3x4x5"},
    {"BC-NUMPY-3", "3x1x5", "2x3x4x5", "2x3x4x5", NP, -1, 0, SEL_OK, "2x3x4x5"},
    {"BC-NUMPY-3", "3x5", "2x3x4x5", "2x3x4x5", NP, -1, 0, SH, 0},
    {"BC-NUMPY-3", "3x5", "2x3x4x5", "2x3x4x5", NP, -1, BI, SH, 0},
    /* one-way against bidirectional */
    {"BC-NUMPY-3", "2x1", "1x3", "1x3", NP, -1, 0, SH, 0},
    {"BC-NUMPY-5", "2x1", "1x3", "1x3", NP, -1, BI, SEL_OK, "2x3"},
    {"BC-NUMPY-3", "2x3x4", "3x4", "3x4", NP, -1, 0, SH, 0},
    {"BC-NUMPY-5", "2x3x4", "3x4", "3x4", NP, -1, BI, SEL_OK, "2x3x4"},
    {"BC-NUMPY-3", "4x1", "1x3", "4x3", NP, -1, 0, SEL_OK, "4x3"},
    /* then/else broadcast to each other */
    {"BC-NUMPY-1", "_", "2x1", "1x3", NP, -1, 0, SEL_OK, "2x3"},
    {"BC-NUMPY-1", "_", "2x4", "3x4", NP, -1, 0, SH, 0},
    {"BC-NUMPY-2", "5", "7x1x5", "3x5", NP, -1, 0, SEL_OK, "7x3x5"},
    /* zero-size dims */
    {"BC-NUMPY-4", "1", "0x3", "1x3", NP, -1, 0, SEL_OK, "0x3"},
    {"BC-NUMPY-4", "1", "0x3", "2x3", NP, -1, 0, SH, 0},
    {"BC-NUMPY-4", "0", "1", "1", NP, -1, 0, SH, 0},
    {"BC-NUMPY-4", "0", "1", "1", NP, -1, BI, SEL_OK, "0"},
    {"BC-NUMPY-4", "1", "0x1", "1x0", NP, -1, 0, SEL_OK, "0x0"},
    /* rank 0 */
    {"SHAPE-RANK0-1", "_", "_", "_", NP, -1, 0, SEL_OK, "_"},
    {"SHAPE-RANK0-1", "_", "_", "_", N, -1, 0, SEL_OK, "_"},
    {"SHAPE-RANK0-1", "_", "_", "_", PD, -1, 0, SEL_OK, "_"},
    {"SHAPE-RANK0-1", "_", "_", "3", NP, -1, 0, SEL_OK, "3"},
    /* none */
    {"BC-NONE-1", "2x3", "2x3", "2x3", N, -1, 0, SEL_OK, "2x3"},
    {"BC-NONE-1", "1x3", "2x3", "2x3", N, -1, 0, SH, 0},
    {"BC-NONE-1", "2x3", "2x3", "3", N, -1, BI, SH, 0},
    {"BC-NONE-1", "_", "1", "1", N, -1, 0, SH, 0},
    /* pdpd: result is then's shape; else and cond merge one way */
    {"BC-PDPD-1", "2x3x4x5", "2x3x4x5", "4x5", PD, -1, 0, SEL_OK, "2x3x4x5"},
    {"BC-PDPD-1", "_", "2x1", "2x3", PD, -1, 0, SH, 0},
    {"BC-PDPD-1", "_", "2x1", "2x0", PD, -1, 0, SEL_OK, "2x0"},
    {"BC-PDPD-1", "1x0", "2x1", "2x1", PD, -1, 0, SEL_OK, "2x0"},
    {"BC-PDPD-1", "_", "2x3", "2x0", PD, -1, 0, SH, 0},
    {"BC-PDPD-1", "_", "2x0", "2x3", PD, -1, 0, SH, 0},
    {"BC-PDPD-1", "_", "2x0", "1x1", PD, -1, 0, SH, 0},
    {"BC-PDPD-1", "_", "2x0", "1", PD, -1, 0, SH, 0},
    {"BC-PDPD-1", "_", "1x3", "0x3", PD, -1, 0, SEL_OK, "0x3"},
    {"BC-PDPD-5", "1x3", "1x3", "0x3", PD, -1, 0, SH, 0},
    {"BC-PDPD-5", "3", "1x3", "0x3", PD, -1, 0, SEL_OK, "0x3"},
    {"BC-PDPD-5", "1", "2x0", "2x0", PD, -1, 0, SH, 0},
    {"BC-PDPD-2", "5", "2x3x4x5", "4x1", PD, -1, 0, SEL_OK, "2x3x4x5"},
    {"BC-PDPD-3", "3x4", "2x3x4x5", "3x4", PD, 1, 0, SEL_OK, "2x3x4x5"},
    {"BC-PDPD-3", "2x3x4x5", "2x3x4x5", "3x4", PD, 1, 0, SH, 0},
    {"BC-PDPD-3", "_", "2x3", "2x3", PD, 1, 0, SH, 0},
    {"BC-PDPD-3", "_", "2x3x4x5", "3", PD, 1, 0, SEL_OK, "2x3x4x5"},
    {"BC-PDPD-3", "_", "2x3x4x5", "3x4", PD, 3, 0, SH, 0},
    {"BC-PDPD-3", "_", "2x3x4x5", "3x4", PD, -2, 0, SEL_ERR_ATTR, 0},
    {"BC-PDPD-3", "_", "2x3", "3", PD, 2147483647, 0, SH, 0},
    {"BC-PDPD-3", "_", "2x3", "3", PD, -2147483647 - 1, 0, SEL_ERR_ATTR, 0},
    {"BC-PDPD-4", "_", "2x3x4x5", "3x1", PD, 1, 0, SEL_OK, "2x3x4x5"},
    {"BC-PDPD-4", "_", "2x3", "3x1x1", PD, 1, 0, SH, 0},
    {"BC-PDPD-4", "_", "2x3x4x5", "5x1", PD, -1, 0, SH, 0},
    {"BC-PDPD-4", "_", "2x3x4x5", "4x1", PD, -1, 0, SEL_OK, "2x3x4x5"},
    {"BC-PDPD-5", "3", "2x3", "2x1", PD, -1, 0, SEL_OK, "2x3"},
    {"BC-PDPD-5", "2x1", "2x3", "3", PD, -1, 0, SEL_OK, "2x3"},
    {"BC-PDPD-5", "2x4", "2x3", "3", PD, -1, 0, SH, 0},
    {"BC-PDPD-6", "_", "3", "2x3", PD, -1, 0, SH, 0},
    /* shapes that are not shapes */
    {"SHAPE-RANK-1", "1x1x1x1x1x1x1x1", "2x1x1x1x1x1x1x3", "1", NP, -1, 0, SEL_OK, "2x1x1x1x1x1x1x3"},
    {"SHAPE-RANK-1", "1x1x1x1x1x1x1x1x1", "1", "1", NP, -1, BI, SH, 0},
    {"SHAPE-NEG-1", "1", "-1", "1", NP, -1, 0, SH, 0},
    {"SHAPE-OVF-1", "_", "4294967296x4294967296", "1", NP, -1, 0, SH, 0},
    {"SHAPE-OVF-1", "_", "1152921504606846976x2", "1", NP, -1, 0, SH, 0},
    {"SHAPE-OVF-1", "_", "0x4611686018427387904x4611686018427387904", "1", NP, -1, 0, SEL_OK, "0x4611686018427387904x4611686018427387904"},
    {"SHAPE-OVF-1", "_", "4611686018427387904x1", "1x4", NP, -1, 0, SH, 0},
    {"SHAPE-OVF-1", "_", "4611686018427387904x1", "1x2", NP, -1, 0, SH, 0},
    /* f32 bytes: 2^59 x 2 x 4 = 2^62 fits; 2^60 x 2 x 4 = 2^63 does not */
    {"SHAPE-OVF-1", "_", "576460752303423488x1", "1x2", NP, -1, 0, SEL_OK, "576460752303423488x2"},
    {"SHAPE-OVF-1", "_", "1152921504606846976x1", "1x2", NP, -1, 0, SH, 0},
    /* a cond of 2^61 bytes is fine; the f32 output it widens to is not */
    {"SHAPE-OVF-1", "2305843009213693952x1", "1", "1", NP, -1, BI, SH, 0},
    {"SHAPE-OVF-1", "1152921504606846976x1", "1", "1", NP, -1, BI, SEL_OK, "1152921504606846976x1"},
    /* attributes */
    {"ARG-ATTR-1", "1", "1", "1", 3, -1, 0, SEL_ERR_ATTR, 0},
    {"ARG-ATTR-1", "1", "1", "1", -1, -1, 0, SEL_ERR_ATTR, 0},
    {"ERR-ORDER-1", "1", "-1", "3", 9, -1, 0, SEL_ERR_ATTR, 0},
};

static void check_shapes(void)
{
    size_t i;
    for (i = 0; i < sizeof shape_cases / sizeof *shape_cases; i++) {
        const struct shape_case *k = &shape_cases[i];
        int64_t dc[9], dx[9], dy[9], out[SEL_MAX_RANK];
        sel_tensor c = tensor(SEL_DT_BOOLEAN, k->cond, dc);
        sel_tensor x = tensor(SEL_DT_F32, k->then_, dx);
        sel_tensor y = tensor(SEL_DT_F32, k->else_, dy);
        sel_broadcast b;
        int32_t rank = -1;
        char got[256], what[512];
        int st;

        b.type = k->type, b.axis = k->axis, b.flags = k->flags;
        st = ref_impl()->infer(&c, &x, &y, b, &rank, out);
        format(got, rank, out);
        snprintf(what, sizeof what, "%s %s:%s:%s type %d axis %d flags %u -> %s %s",
                 k->rule, k->cond, k->then_, k->else_, (int)k->type,
                 (int)k->axis, (unsigned)k->flags, sel_status_name(k->status),
                 k->want ? k->want : "");
        ok(st == k->status && (st != SEL_OK || strcmp(got, k->want) == 0), what);
        if (st != k->status || (st == SEL_OK && strcmp(got, k->want) != 0))
            printf("#   got %s %s\n", sel_status_name(st), st ? "" : got);
    }
}

/* Statuses that need more than shapes: dtypes, NULLs, dst, overlap. */
static void check_arguments(void)
{
    int64_t d23[2] = {2, 3}, d32[2] = {3, 2}, out[SEL_MAX_RANK];
    unsigned char cb[6] = {0}, xb[24], yb[24], db[48];
    sel_tensor c = {SEL_DT_BOOLEAN, 2, d23, cb}, x = {SEL_DT_F32, 2, d23, xb};
    sel_tensor y = {SEL_DT_F32, 2, d23, yb}, d = {SEL_DT_F32, 2, d23, db};
    sel_tensor t;
    sel_broadcast b = {SEL_BROADCAST_NUMPY, -1, 0};
    const sel_impl *r = ref_impl();
    int32_t rank;

    ok(r->abi_version == SEL_ABI_VERSION, "ABI version");
    ok(r->execute(&c, &x, &y, b, &d) == SEL_OK, "OP-SELECT-1 plain execute ok");
    t = c, t.dtype = SEL_DT_U8;
    ok(r->infer(&t, &x, &y, b, &rank, out) == SEL_ERR_DTYPE, "DT-COND-1 u8 cond");
    t = y, t.dtype = SEL_DT_F16;
    ok(r->infer(&c, &x, &t, b, &rank, out) == SEL_ERR_DTYPE, "DT-SAME-1 f32/f16");
    t = x, t.dtype = 0;
    ok(r->infer(&c, &t, &y, b, &rank, out) == SEL_ERR_DTYPE, "DT-UNKNOWN-1 dtype 0");
    t = x, t.dtype = 99;
    ok(r->infer(&c, &t, &t, b, &rank, out) == SEL_ERR_DTYPE, "DT-UNKNOWN-1 dtype 99");
    t = d, t.dtype = SEL_DT_I32;
    ok(r->execute(&c, &x, &y, b, &t) == SEL_ERR_DTYPE, "DT-DST-1 i32 dst");
    t = d, t.dims = d32;
    ok(r->execute(&c, &x, &y, b, &t) == SEL_ERR_SHAPE, "SHAPE-DST-1 3x2 dst");
    t = d, t.rank = 1;
    ok(r->execute(&c, &x, &y, b, &t) == SEL_ERR_SHAPE, "SHAPE-DST-1 rank-1 dst");
    ok(r->infer(NULL, &x, &y, b, &rank, out) == SEL_ERR_ARG, "ARG-NULL-1 cond");
    ok(r->infer(&c, &x, &y, b, NULL, out) == SEL_ERR_ARG, "ARG-NULL-1 rank_out");
    ok(r->infer(&c, &x, &y, b, &rank, NULL) == SEL_ERR_ARG, "ARG-NULL-1 dims_out");
    ok(r->execute(&c, &x, &y, b, NULL) == SEL_ERR_ARG, "ARG-NULL-1 dst");
    t = x, t.dims = NULL;
    ok(r->infer(&c, &t, &y, b, &rank, out) == SEL_ERR_ARG, "ARG-NULL-1 dims");
    t = x, t.data = NULL;
    ok(r->execute(&c, &t, &y, b, &d) == SEL_ERR_ARG, "ARG-NULL-1 data");
    t = d, t.data = NULL;
    ok(r->execute(&c, &x, &y, b, &t) == SEL_ERR_ARG, "ARG-NULL-1 dst data");
    t = x, t.dims = NULL, t.dtype = 99;
    ok(r->infer(&c, &t, &y, b, &rank, out) == SEL_ERR_ARG, "ERR-ORDER-1 ARG before DTYPE");
    t = x, t.dtype = 99, t.rank = 12;
    ok(r->infer(&c, &t, &y, b, &rank, out) == SEL_ERR_DTYPE, "ERR-ORDER-1 DTYPE before SHAPE");
    t = d, t.dtype = SEL_DT_I8, t.rank = 1;
    ok(r->execute(&c, &x, &y, b, &t) == SEL_ERR_DTYPE, "ERR-ORDER-1 dst DTYPE before SHAPE");
    /* IO-ALIAS-1: in place on then or else; IO-ALIAS-2: other overlap. */
    t = d, t.data = xb;
    ok(r->execute(&c, &x, &y, b, &t) == SEL_OK, "IO-ALIAS-1 dst is then");
    t = d, t.data = yb;
    ok(r->execute(&c, &x, &y, b, &t) == SEL_OK, "IO-ALIAS-1 dst is else");
    t = d, t.data = xb + 4;
    ok(r->execute(&c, &x, &y, b, &t) == SEL_ERR_ARG, "IO-ALIAS-2 dst overlaps then");
    t = d, t.data = cb;
    ok(r->execute(&c, &x, &y, b, &t) == SEL_ERR_ARG, "IO-ALIAS-2 dst overlaps cond");
    {
        int64_t d3[1] = {3};
        sel_tensor row = {SEL_DT_F32, 1, d3, xb};
        t = d, t.data = xb;
        ok(r->execute(&c, &row, &y, b, &t) == SEL_ERR_ARG,
           "IO-ALIAS-2 dst on a broadcast then");
    }
    {
        int64_t z[2] = {0, 3};
        sel_tensor zc = {SEL_DT_BOOLEAN, 2, z, NULL}, zx = {SEL_DT_F32, 2, z, NULL};
        sel_tensor zd = {SEL_DT_F32, 2, z, NULL};
        ok(r->execute(&zc, &zx, &zx, b, &zd) == SEL_OK, "IO-ZERO-1 NULL data, 0 elements");
    }
    {
        /* SHAPE-OVF-1: a 0 dim after huge ones; no intermediate overflow
         * (built with -fsanitize=undefined in check-asan) */
        int64_t z[3] = {INT64_C(4611686018427387904), 2, 0};
        sel_tensor zc = {SEL_DT_BOOLEAN, 3, z, NULL}, zx = {SEL_DT_F32, 3, z, NULL};
        sel_tensor zd = {SEL_DT_F32, 3, z, NULL};
        ok(r->execute(&zc, &zx, &zx, b, &zd) == SEL_OK, "SHAPE-OVF-1 2^62 x 2 x 0 is 0 elements");
    }
}

/* The 3x2 example of seeds 002 and 004, with its literal output, in f32
 * and i32; and in place. */
static void check_seed_example(void)
{
    static const unsigned char cond[6] = {0, 0, 1, 0, 1, 1};
    static const float xf[6] = {-1, 0, 1, 2, 3, 4}, yf[6] = {11, 10, 9, 8, 7, 6};
    static const float wf[6] = {11, 10, 1, 8, 3, 4};
    static const int32_t xi[6] = {-1, 0, 1, 2, 3, 4}, yi[6] = {11, 10, 9, 8, 7, 6};
    static const int32_t wi[6] = {11, 10, 1, 8, 3, 4};
    int64_t dims[2] = {3, 2};
    float df[6], xcopy[6];
    int32_t di[6];
    sel_tensor c = {SEL_DT_BOOLEAN, 2, dims, (void *)cond};
    sel_tensor x = {SEL_DT_F32, 2, dims, (void *)xf}, y = {SEL_DT_F32, 2, dims, (void *)yf};
    sel_tensor d = {SEL_DT_F32, 2, dims, df};
    sel_broadcast b = {SEL_BROADCAST_NUMPY, -1, 0};

    ok(ref_impl()->execute(&c, &x, &y, b, &d) == SEL_OK &&
       memcmp(df, wf, sizeof wf) == 0, "OP-SELECT-1 seed 3x2 example f32");
    b.type = SEL_BROADCAST_NONE;
    x.dtype = y.dtype = d.dtype = SEL_DT_I32;
    x.data = (void *)xi, y.data = (void *)yi, d.data = di;
    ok(ref_impl()->execute(&c, &x, &y, b, &d) == SEL_OK &&
       memcmp(di, wi, sizeof wi) == 0, "OP-SELECT-1 seed 3x2 example i32, none");
    memcpy(xcopy, xf, sizeof xcopy);
    x.dtype = y.dtype = d.dtype = SEL_DT_F32;
    x.data = xcopy, y.data = (void *)yf, d.data = xcopy;
    ok(ref_impl()->execute(&c, &x, &y, b, &d) == SEL_OK &&
       memcmp(xcopy, wf, sizeof wf) == 0, "IO-ALIAS-1 seed example in place on then");
}

/* BITS-1, BITS-2: every 16-bit pattern through both branches, with the
 * other branch all NaN; f32 NaN payloads, sNaN, -0.0, subnormals. */
static void check_bits(void)
{
    enum { M = 65536 };
    static uint16_t pat[M], nan16[M], out16[M];
    static unsigned char ct[M], cf[M], cnz[M];
    static const uint32_t f32[8] = {0x7fc00001u, 0x7f800001u, 0xffbfffffu, 0x80000000u,
                                    0x00000001u, 0x807fffffu, 0x7f800000u, 0xff800000u};
    uint32_t f32nan[8], out32[8];
    int64_t dims[1] = {M}, d8[1] = {8};
    int32_t dts[2] = {SEL_DT_F16, SEL_DT_BF16};
    sel_broadcast b = {SEL_BROADCAST_NUMPY, -1, 0};
    int i, k;

    for (i = 0; i < M; i++) {
        pat[i] = (uint16_t)i, nan16[i] = (uint16_t)(0x7c01 + i % 0x3ff);
        ct[i] = 1, cf[i] = 0, cnz[i] = (unsigned char)(1 + i % 255);
    }
    for (k = 0; k < 2; k++) {
        sel_tensor c = {SEL_DT_BOOLEAN, 1, dims, ct}, x = {0, 1, dims, pat};
        sel_tensor y = {0, 1, dims, nan16}, d = {0, 1, dims, out16};
        char what[80];
        x.dtype = y.dtype = d.dtype = dts[k];
        ok(ref_impl()->execute(&c, &x, &y, b, &d) == SEL_OK &&
           memcmp(out16, pat, sizeof pat) == 0, k ? "BITS-2 all bf16 patterns as then" : "BITS-2 all f16 patterns as then");
        c.data = cf, x.data = nan16, y.data = pat;
        ok(ref_impl()->execute(&c, &x, &y, b, &d) == SEL_OK &&
           memcmp(out16, pat, sizeof pat) == 0, k ? "BITS-2 all bf16 patterns as else" : "BITS-2 all f16 patterns as else");
        c.data = cnz, x.data = pat, y.data = nan16;
        snprintf(what, sizeof what, "COND-NZ-1 bytes 1..255 are true (%s)", sel_dtype_name(dts[k]));
        ok(ref_impl()->execute(&c, &x, &y, b, &d) == SEL_OK &&
           memcmp(out16, pat, sizeof pat) == 0, what);
    }
    for (i = 0; i < 8; i++)
        f32nan[i] = 0x7fc0beefu;
    {
        sel_tensor c = {SEL_DT_BOOLEAN, 1, d8, ct}, x = {SEL_DT_F32, 1, d8, (void *)f32};
        sel_tensor y = {SEL_DT_F32, 1, d8, f32nan}, d = {SEL_DT_F32, 1, d8, out32};
        ok(ref_impl()->execute(&c, &x, &y, b, &d) == SEL_OK &&
           memcmp(out32, f32, sizeof f32) == 0,
           "BITS-1 f32 NaN payloads, sNaN, -0.0, subnormals, inf kept; BITS-3 NaN unselected");
    }
}

/* Broadcast data: cond {2,1} (bidirectional) against then {1,3}, else a
 * scalar; pdpd with an explicit axis. */
static void check_broadcast_data(void)
{
    unsigned char cond[2] = {1, 0};
    int32_t x[3] = {1, 2, 3}, y[1] = {-7}, d[6];
    static const int32_t want[6] = {1, 2, 3, -7, -7, -7};
    int64_t dc[2] = {2, 1}, dx[2] = {1, 3}, dd[2] = {2, 3};
    sel_tensor c = {SEL_DT_BOOLEAN, 2, dc, cond}, tx = {SEL_DT_I32, 2, dx, x};
    sel_tensor ty = {SEL_DT_I32, 0, NULL, y}, td = {SEL_DT_I32, 2, dd, d};
    sel_broadcast b = {SEL_BROADCAST_NUMPY, -1, SEL_COND_BIDIRECTIONAL};

    ok(ref_impl()->execute(&c, &tx, &ty, b, &td) == SEL_OK &&
       memcmp(d, want, sizeof want) == 0, "BC-NUMPY-5 cond 2x1 widens then 1x3");
    {
        /* pdpd, then {2,3,2} holding 0..11. */
        int64_t d3[3] = {2, 3, 2}, e3[1] = {3}, e31[2] = {3, 1}, two[1] = {2};
        int16_t xs[12], y3[3] = {100, 200, 300}, y2[2] = {100, 200}, out[12];
        unsigned char cs[2] = {0, 1};
        static const int16_t w_own_axis[12] = {100, 1, 200, 3, 300, 5,
                                               100, 7, 200, 9, 300, 11};
        static const int16_t w_axis0[12] = {100, 100, 100, 100, 100, 100,
                                            6, 7, 8, 9, 10, 11};
        sel_tensor c2 = {SEL_DT_BOOLEAN, 1, two, cs}, x2 = {SEL_DT_I16, 3, d3, xs};
        sel_tensor ye = {SEL_DT_I16, 1, e3, y3}, o2 = {SEL_DT_I16, 3, d3, out};
        sel_broadcast p = {SEL_BROADCAST_PDPD, -1, 0};
        int i;

        for (i = 0; i < 12; i++)
            xs[i] = (int16_t)i;
        ok(ref_impl()->execute(&c2, &x2, &ye, p, &o2) == SEL_ERR_SHAPE,
           "BC-PDPD-2 axis -1 puts else {3} against then dim 2");
        p.axis = 1;
        ok(ref_impl()->execute(&c2, &x2, &ye, p, &o2) == SEL_ERR_SHAPE,
           "BC-PDPD-3 an explicit axis 1 holds for cond too: {2} against dim 3");
        /* else {3,1} sits at its default axis 1, cond {2} at its own
         * default axis 2: the kernel defect of aligning cond with else's
         * axis would meet dim 3. */
        p.axis = -1, ye.rank = 2, ye.dims = e31;
        ok(ref_impl()->execute(&c2, &x2, &ye, p, &o2) == SEL_OK &&
           memcmp(out, w_own_axis, sizeof out) == 0,
           "BC-PDPD-5 cond keeps its own default axis");
        p.axis = 0, ye.rank = 1, ye.dims = two, ye.data = y2;
        ok(ref_impl()->execute(&c2, &x2, &ye, p, &o2) == SEL_OK &&
           memcmp(out, w_axis0, sizeof out) == 0, "BC-PDPD-3 axis 0 for else and cond");
    }
}

int main(void)
{
    printf("TAP version 13\n");
    check_shapes();
    check_arguments();
    check_seed_example();
    check_bits();
    check_broadcast_data();
    printf("1..%d\n", tests);
    if (failures)
        fprintf(stderr, "test_ref: %d of %d failed\n", failures, tests);
    return failures != 0;
}
