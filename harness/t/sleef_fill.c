/* sleef_fill.c - checks harness/h_sleef.c itself: its interface and errors,
 * seeds and chunking, that every function's operands carry the values real
 * math produces (NaN, +-inf, +-0, subnormals), and the f32 -> f16/bf16
 * narrowing against exact arithmetic and the F16C instruction.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "select.h"
#include "h_sleef.h"
#include "sleef_cpu.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define HAVE_F16C_CODE 1
__attribute__((target("f16c"))) static uint16_t f16c(uint32_t b)
{
    float f;
    memcpy(&f, &b, 4);
    return (uint16_t)_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT);
}
#endif

static int fails;
#define CHECK(cond, ...) \
    do { \
        if (!(cond)) { \
            fprintf(stderr, "sleef_fill: " __VA_ARGS__); \
            fputc('\n', stderr); \
            fails++; \
        } \
    } while (0)

static const int32_t fdts[] = {SEL_DT_F64, SEL_DT_F32, SEL_DT_F16,
                               SEL_DT_BF16};
#define NFDT (sizeof fdts / sizeof fdts[0])
#define N 70000

/* ---- interface ---------------------------------------------------------- */

static void check_interface(void)
{
    const char *const *fn = h_sleef_names();
    unsigned char buf[64], keep[64];
    int32_t dt;
    int nn = 0;

    for (; *fn; fn++, nn++)
        CHECK(h_sleef_fill(*fn, SEL_DT_F32, buf, 4, 1) == 0,
              "listed name %s refused", *fn);
    CHECK(nn >= 5, "only %d functions listed", nn);
    memset(buf, 0x5a, sizeof buf);
    memcpy(keep, buf, sizeof buf);
    CHECK(h_sleef_fill("cbrt", SEL_DT_F32, buf, 4, 1) == -1, "cbrt accepted");
    CHECK(h_sleef_fill(NULL, SEL_DT_F32, buf, 4, 1) == -1, "NULL fn accepted");
    CHECK(h_sleef_fill("log", SEL_DT_F32, buf, -1, 1) == -1, "n < 0 accepted");
    CHECK(h_sleef_fill("log", SEL_DT_F32, NULL, 4, 1) == -1,
          "NULL buf accepted");
    CHECK(h_sleef_fill("log", SEL_DT_F32, NULL, 0, 1) == 0,
          "n = 0 with NULL buf refused");
    for (dt = -1; dt < 40; dt++) {
        int ok = dt == SEL_DT_F64 || dt == SEL_DT_F32 || dt == SEL_DT_F16 ||
                 dt == SEL_DT_BF16;
        if (!ok) {
            CHECK(h_sleef_fill("exp", dt, buf, 4, 1) == -1,
                  "dtype %d accepted", (int)dt);
            CHECK(h_sleef_input("exp", dt, buf, 4, 1) == -1,
                  "input: dtype %d accepted", (int)dt);
        }
    }
    CHECK(memcmp(buf, keep, sizeof buf) == 0, "a refused call wrote");
}

/* Same seed, same bytes; another seed, other bytes; element i does not
 * depend on n or on the buffer's alignment, so the harness may fill in
 * chunks or at any offset. */
static void check_determinism(void)
{
    size_t d, k;
    unsigned char *a = malloc(N * 8 + 8), *b = malloc(N * 8 + 8);
    const char *const *fn;

    if (!a || !b) {
        CHECK(0, "out of memory");
        return;
    }
    for (fn = h_sleef_names(); *fn; fn++)
        for (d = 0; d < NFDT; d++) {
            size_t es = sel_dtype_size(fdts[d]);
            h_sleef_fill(*fn, fdts[d], a, N, 42);
            h_sleef_fill(*fn, fdts[d], b + 3, N, 42);
            CHECK(memcmp(a, b + 3, N * es) == 0, "%s[%s]: offset 3 differs",
                  *fn, sel_dtype_name(fdts[d]));
            h_sleef_fill(*fn, fdts[d], b, 1000, 42);
            CHECK(memcmp(a, b, 1000 * es) == 0, "%s[%s]: n changes data",
                  *fn, sel_dtype_name(fdts[d]));
            h_sleef_fill(*fn, fdts[d], b, N, 43);
            for (k = 0; k < N * es && a[k] == b[k]; k++)
                ;
            CHECK(k < N * es, "%s[%s]: seeds 42 and 43 give the same data",
                  *fn, sel_dtype_name(fdts[d]));
        }
    free(a);
    free(b);
}

/* ---- what the operands contain ----------------------------------------- */

enum { C_NAN, C_PINF, C_NINF, C_PZERO, C_NZERO, C_SUB, C_NORMAL, NCLASS };
static const char *const cname[NCLASS] = {"nan", "+inf", "-inf", "+0", "-0",
                                          "sub", "normal"};

static int classify(uint64_t b, int ebits, int mbits)
{
    uint64_t emax = ((uint64_t)1 << ebits) - 1;
    uint64_t e = (b >> mbits) & emax, m = b & (((uint64_t)1 << mbits) - 1);
    int neg = (int)((b >> (ebits + mbits)) & 1);
    if (e == emax)
        return m ? C_NAN : neg ? C_NINF : C_PINF;
    if (e == 0)
        return m ? C_SUB : neg ? C_NZERO : C_PZERO;
    return C_NORMAL;
}

/* Required classes per function, for every dtype: what the ramp (negatives,
 * zeros, huge and tiny inputs, NaN and inf) makes each one produce. */
static const struct {
    const char *fn;
    unsigned need;
} needs[] = {
#define B(c) (1u << (c))
    {"log", B(C_NAN) | B(C_NINF) | B(C_PINF) | B(C_PZERO) | B(C_NORMAL)},
    {"exp", B(C_NAN) | B(C_PINF) | B(C_PZERO) | B(C_SUB) | B(C_NORMAL)},
    {"sqrt", B(C_NAN) | B(C_PINF) | B(C_PZERO) | B(C_NZERO) | B(C_NORMAL)},
    {"sin", B(C_NAN) | B(C_PZERO) | B(C_NZERO) | B(C_SUB) | B(C_NORMAL)},
    {"tanh", B(C_NAN) | B(C_PZERO) | B(C_NZERO) | B(C_SUB) | B(C_NORMAL)},
};

static void check_content(void)
{
    unsigned char *buf = malloc(N * 8);
    size_t f, d;
    int64_t i;

    if (!buf) {
        CHECK(0, "out of memory");
        return;
    }
    for (f = 0; f < sizeof needs / sizeof needs[0]; f++)
        for (d = 0; d < NFDT; d++) {
            int32_t dt = fdts[d];
            size_t es = sel_dtype_size(dt);
            int eb = dt == SEL_DT_F64 ? 11 : dt == SEL_DT_F32 ? 8 :
                     dt == SEL_DT_F16 ? 5 : 8;
            int mb = (int)es * 8 - 1 - eb;
            long cnt[NCLASS] = {0};
            int c, nonstd_nan = 0;
            h_sleef_fill(needs[f].fn, dt, buf, N, 7);
            for (i = 0; i < N; i++) {
                uint64_t b = 0;
                memcpy(&b, buf + (size_t)i * es, es); /* little endian */
                c = classify(b, eb, mb);
                cnt[c]++;
                if (c == C_NAN)
                    nonstd_nan |= es == 8 ? b != H_SLEEF_NAN64 :
                                  es == 4 ? b != H_SLEEF_NAN32 :
                                  dt == SEL_DT_F16 ? b != 0x7e80 : b != 0x7fd0;
            }
            printf("# %-4s %-4s", needs[f].fn, sel_dtype_name(dt));
            for (c = 0; c < NCLASS; c++)
                printf(" %s=%ld", cname[c], cnt[c]);
            printf("\n");
            for (c = 0; c < NCLASS; c++)
                CHECK(!(needs[f].need & (1u << c)) || cnt[c] > 0,
                      "%s[%s] never gives %s", needs[f].fn,
                      sel_dtype_name(dt), cname[c]);
            CHECK(!nonstd_nan, "%s[%s]: a NaN other than H_SLEEF_NAN",
                  needs[f].fn, sel_dtype_name(dt));
        }
    free(buf);
}

/* ---- narrowing ---------------------------------------------------------- */

/* The value of a 16-bit pattern with ebits exponent bits (f16: 5, bf16:
 * 8), as a double; infinity counts as the next power of two above the
 * largest finite value, which is where IEEE rounding sends overflow. */
static double value16(uint32_t p, int ebits)
{
    int mbits = 15 - ebits, bias = (1 << (ebits - 1)) - 1;
    uint32_t e = (p >> mbits) & ((1u << ebits) - 1), m = p & ((1u << mbits) - 1);
    if (e == 0)
        return ldexp((double)m, 1 - bias - mbits);
    return ldexp((double)(m | (1u << mbits)), (int)e - bias - mbits);
}

/* value16 of every positive pattern up to infinity, for both formats. */
static double tab16[0x7c01], tabbf[0x7f81];

/* Round-to-nearest-even by search: the largest positive pattern not above
 * |x|, or the next one if nearer (ties: the even pattern). */
static uint16_t narrow_by_search(uint32_t f32, int ebits)
{
    const double *tab = ebits == 5 ? tab16 : tabbf;
    uint32_t top = ebits == 5 ? 0x7c00u : 0x7f80u;
    uint32_t lo = 0, hi = top, sign = (f32 >> 16) & 0x8000u, p;
    float f;
    double x;
    memcpy(&f, &f32, 4);
    x = fabs((double)f);
    while (lo < hi) { /* largest p in [0, inf] with tab[p] <= x */
        uint32_t mid = lo + (hi - lo + 1) / 2;
        if (tab[mid] <= x)
            lo = mid;
        else
            hi = mid - 1;
    }
    p = lo;
    if (p < top) {
        double below = x - tab[p], above = tab[p + 1] - x;
        if (above < below || (above == below && (p & 1u)))
            p++;
    }
    return (uint16_t)(sign | p);
}

/* Patterns whose dropped bits sit at the rounding edges, under every high
 * part; plus a coarse stride through all of them. */
static void check_narrowing(void)
{
    static const uint32_t lo13[] = {0, 1, 0xfff, 0x1000, 0x1001, 0x1fff};
    static const uint32_t lo16[] = {0, 1, 0x7fff, 0x8000, 0x8001, 0xffff};
    static const struct { uint32_t in; uint16_t f16, bf16; } nans[] = {
        {0x7fc00000u, 0x7e00, 0x7fc0}, {0xffc00000u, 0xfe00, 0xffc0},
        {0x7f800001u, 0x7e00, 0x7fc0}, {0x7fa00000u, 0x7f00, 0x7fe0},
        {0x7fd00000u, 0x7e80, 0x7fd0}, {0x7fffffffu, 0x7fff, 0x7fff},
        {0xff810000u, 0xfe08, 0xffc1},
    };
    int hw = 0;
    long n16 = 0, nb = 0, nhw = 0;
    uint64_t hi;
    size_t k;

#ifdef HAVE_F16C_CODE
    hw = cpu_has("f16c");
#endif
    for (k = 0; k <= 0x7c00; k++)
        tab16[k] = value16((uint32_t)k, 5);
    for (k = 0; k <= 0x7f80; k++)
        tabbf[k] = value16((uint32_t)k, 8);
    for (k = 0; k < sizeof nans / sizeof nans[0]; k++) {
        CHECK(h_sleef_f32_to_f16(nans[k].in) == nans[k].f16,
              "f16(0x%08x) = 0x%04x, want 0x%04x", nans[k].in,
              h_sleef_f32_to_f16(nans[k].in), nans[k].f16);
        CHECK(h_sleef_f32_to_bf16(nans[k].in) == nans[k].bf16,
              "bf16(0x%08x) = 0x%04x, want 0x%04x", nans[k].in,
              h_sleef_f32_to_bf16(nans[k].in), nans[k].bf16);
    }
    for (hi = 0; hi < ((uint64_t)1 << 32); hi += 0x2000) {
        for (k = 0; k < 6; k++) {
            uint32_t b = (uint32_t)hi | lo13[k];
            uint16_t got = h_sleef_f32_to_f16(b);
            int nan = (b & 0x7fffffffu) > 0x7f800000u;
            if (!nan) {
                uint16_t want = narrow_by_search(b, 5);
                n16++;
                if (got != want && fails < 10)
                    CHECK(0, "f16(0x%08x) = 0x%04x, exact 0x%04x", b, got,
                          want);
            }
#ifdef HAVE_F16C_CODE
            if (hw) {
                nhw++;
                if (got != f16c(b) && fails < 10)
                    CHECK(0, "f16(0x%08x) = 0x%04x, F16C 0x%04x", b, got,
                          f16c(b));
            }
#endif
        }
        if ((hi & 0xffff) == 0)
            for (k = 0; k < 6; k++) {
                uint32_t b = (uint32_t)hi | lo16[k];
                if ((b & 0x7fffffffu) <= 0x7f800000u) {
                    uint16_t got = h_sleef_f32_to_bf16(b);
                    uint16_t want = narrow_by_search(b, 8);
                    nb++;
                    if (got != want && fails < 10)
                        CHECK(0, "bf16(0x%08x) = 0x%04x, exact 0x%04x", b,
                              got, want);
                }
            }
    }
    printf("# narrowing: %ld f16 and %ld bf16 patterns match exact "
           "rounding; %ld f16 patterns %s\n", n16, nb, nhw,
           hw ? "match F16C vcvtps2ph (NaNs included)" :
                "(no F16C on this CPU: hardware comparison skipped)");
}

int main(void)
{
    check_interface();
    check_determinism();
    check_content();
    check_narrowing();
    if (fails) {
        fprintf(stderr, "sleef_fill: %d failure(s)\n", fails);
        return 1;
    }
    printf("sleef_fill: interface, determinism, content and narrowing ok\n");
    return 0;
}
