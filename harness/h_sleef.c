/* h_sleef.c - operands produced by real math: SLEEF's deterministic (cinz,
 * scalar purec) functions over a deterministic input ramp, and the exact
 * f32 -> f16/bf16 narrowing.  Interface and the ramp: h_sleef.h.
 */
#include <stddef.h>
#include <string.h>

#include <sleef.h>

#include "select.h"
#include "h_sleef.h"

/* Wrappers, because sleef.h declares const-qualified return types that
 * clang refuses to store in a plain function pointer. */
#define WRAP(fn, acc) \
    static double d_##fn(double x) \
    { return Sleef_cinz_##fn##d1_##acc##purec(x); } \
    static float f_##fn(float x) \
    { return Sleef_cinz_##fn##f1_##acc##purec(x); }
WRAP(log, u10)
WRAP(exp, u10)
WRAP(sqrt, u05)
WRAP(sin, u10)
WRAP(tanh, u10)

/* A linear grid lo + step * k, k = 0 .. points-1.  step is a power of two
 * and lo a multiple of it, so every point is exact in f32 and f64 and 0
 * is on the grid. */
typedef struct h_grid {
    double lo, step;
    int64_t points;
} h_grid;

/* One row per function: its cinz purec variants and its grids for f64,
 * f32/bf16 and f16 inputs.  Only exp needs three: its overflow threshold
 * is about 709.8 in f64, 88.7 in f32, 11.1 for an f16 result. */
static const struct h_sleef_fn {
    const char *name;
    double (*d)(double);
    float (*f)(float);
    h_grid g64, g32, g16;
} fns[] = {
    {"log", d_log, f_log,
     {-2, 1.0 / 64, 641}, {-2, 1.0 / 64, 641}, {-2, 1.0 / 64, 641}},
    {"exp", d_exp, f_exp,
     {-760, 1.0 / 4, 6081}, {-110, 1.0 / 16, 3521}, {-20, 1.0 / 64, 2177}},
    {"sqrt", d_sqrt, f_sqrt,
     {-4, 1.0 / 64, 1281}, {-4, 1.0 / 64, 1281}, {-4, 1.0 / 64, 1281}},
    {"sin", d_sin, f_sin,
     {-16, 1.0 / 64, 2049}, {-16, 1.0 / 64, 2049}, {-16, 1.0 / 64, 2049}},
    {"tanh", d_tanh, f_tanh,
     {-24, 1.0 / 64, 3073}, {-24, 1.0 / 64, 3073}, {-24, 1.0 / 64, 3073}},
};
#define NFNS (sizeof fns / sizeof fns[0])

static const char *const names[] = {"log", "exp", "sqrt", "sin", "tanh",
                                    NULL};

/* Specials as bits: +-0, +-inf, quiet NaN with payload, signalling NaN,
 * +-1, +-0.5, +-min subnormal, max subnormal, min normal, +-max finite. */
static const uint64_t specials64[16] = {
    0x0000000000000000u, 0x8000000000000000u, 0x7ff0000000000000u,
    0xfff0000000000000u, 0x7ff8000000012345u, 0x7ff4000000000001u,
    0x3ff0000000000000u, 0xbff0000000000000u, 0x3fe0000000000000u,
    0xbfe0000000000000u, 0x0000000000000001u, 0x8000000000000001u,
    0x000fffffffffffffu, 0x0010000000000000u, 0x7fefffffffffffffu,
    0xffefffffffffffffu};
static const uint32_t specials32[16] = {
    0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u,
    0x7fc12345u, 0x7fa00001u, 0x3f800000u, 0xbf800000u,
    0x3f000000u, 0xbf000000u, 0x00000001u, 0x80000001u,
    0x007fffffu, 0x00800000u, 0x7f7fffffu, 0xff7fffffu};

static const struct h_sleef_fn *find(const char *fn)
{
    size_t i;
    if (fn == NULL)
        return NULL;
    for (i = 0; i < NFNS; i++)
        if (strcmp(fns[i].name, fn) == 0)
            return &fns[i];
    return NULL;
}

static uint64_t splitmix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15u;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
    return x ^ (x >> 31);
}

/* Element j of the ramp as the bits of a float with ebits exponent and
 * mbits mantissa bits (f64: 11/52, f32: 8/23), see h_sleef.h. */
static uint64_t ramp_bits(const h_grid *g, uint64_t j, int ebits, int mbits)
{
    uint64_t q = j / 4, r = j % 4;
    if (r < 2) {
        double x = g->lo + g->step * (double)((2 * q + r) %
                                              (uint64_t)g->points);
        if (mbits == 23) {
            float f = (float)x; /* exact: x is on a coarse grid */
            uint32_t b;
            memcpy(&b, &f, 4);
            return b;
        } else {
            uint64_t b;
            memcpy(&b, &x, 8);
            return b;
        }
    }
    if (r == 2) {
        /* Biased exponent 0 .. max-1 (0: subnormals, whose mantissa gets
         * its low bit set so that the smallest one appears), the top three
         * mantissa bits from m, then the sign. */
        uint64_t nexp = ((uint64_t)1 << ebits) - 1;
        uint64_t e = q % nexp, m = (q / nexp) % 8, s = (q / nexp / 8) % 2;
        uint64_t mant = (m << (mbits - 3)) | (e == 0 ? 1u : 0u);
        return (s << (ebits + mbits)) | (e << mbits) | mant;
    }
    return mbits == 23 ? specials32[q % 16] : specials64[q % 16];
}

static int check_args(const struct h_sleef_fn *f, int32_t dtype,
                      const void *buf, int64_t n)
{
    if (f == NULL || n < 0 || (buf == NULL && n > 0))
        return -1;
    if (dtype != SEL_DT_F64 && dtype != SEL_DT_F32 && dtype != SEL_DT_F16 &&
        dtype != SEL_DT_BF16)
        return -1;
    return 0;
}

static const h_grid *grid_of(const struct h_sleef_fn *f, int32_t dtype)
{
    return dtype == SEL_DT_F64 ? &f->g64 :
           dtype == SEL_DT_F16 ? &f->g16 : &f->g32;
}

int h_sleef_input(const char *fn, int32_t dtype, void *buf, int64_t n,
                  uint64_t seed)
{
    const struct h_sleef_fn *f = find(fn);
    uint64_t phase = splitmix64(seed) % ((uint64_t)1 << 24);
    unsigned char *out = buf;
    int64_t i;

    if (check_args(f, dtype, buf, n) != 0)
        return -1;
    for (i = 0; i < n; i++) {
        uint64_t j = (uint64_t)i + phase;
        if (dtype == SEL_DT_F64) {
            uint64_t b = ramp_bits(grid_of(f, dtype), j, 11, 52);
            memcpy(out + 8 * i, &b, 8);
        } else {
            uint32_t b = (uint32_t)ramp_bits(grid_of(f, dtype), j, 8, 23);
            memcpy(out + 4 * i, &b, 4);
        }
    }
    return 0;
}

int h_sleef_fill(const char *fn, int32_t dtype, void *buf, int64_t n,
                 uint64_t seed)
{
    const struct h_sleef_fn *f = find(fn);
    uint64_t phase = splitmix64(seed) % ((uint64_t)1 << 24);
    unsigned char *out = buf;
    int64_t i;

    if (check_args(f, dtype, buf, n) != 0)
        return -1;
    for (i = 0; i < n; i++) {
        uint64_t j = (uint64_t)i + phase;
        if (dtype == SEL_DT_F64) {
            uint64_t b = ramp_bits(grid_of(f, dtype), j, 11, 52);
            double x, y;
            memcpy(&x, &b, 8);
            y = f->d(x);
            memcpy(&b, &y, 8);
            if ((b & 0x7fffffffffffffffu) > 0x7ff0000000000000u)
                b = H_SLEEF_NAN64;
            memcpy(out + 8 * i, &b, 8);
        } else {
            uint32_t b = (uint32_t)ramp_bits(grid_of(f, dtype), j, 8, 23);
            float x, y;
            uint16_t h;
            memcpy(&x, &b, 4);
            y = f->f(x);
            memcpy(&b, &y, 4);
            if ((b & 0x7fffffffu) > 0x7f800000u)
                b = H_SLEEF_NAN32;
            if (dtype == SEL_DT_F32) {
                memcpy(out + 4 * i, &b, 4);
                continue;
            }
            h = dtype == SEL_DT_F16 ? h_sleef_f32_to_f16(b) :
                                      h_sleef_f32_to_bf16(b);
            memcpy(out + 2 * i, &h, 2);
        }
    }
    return 0;
}

const char *const *h_sleef_names(void)
{
    return names;
}

uint16_t h_sleef_f32_to_f16(uint32_t x)
{
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    uint32_t a = x & 0x7fffffffu;
    uint32_t e, m, shift, q, rem, half;

    if (a > 0x7f800000u) /* NaN: quiet it, keep the top 10 payload bits */
        return (uint16_t)(sign | 0x7e00u | ((a >> 13) & 0x3ffu));
    if (a >= 0x477ff000u) /* >= 65520 (and inf) rounds to infinity */
        return (uint16_t)(sign | 0x7c00u);
    if (a >= 0x38800000u) { /* >= 2^-14: normal in f16 */
        /* Rebias 127 -> 15 and round the 13 dropped bits to nearest
         * even; a carry out of the mantissa correctly bumps the
         * exponent (it cannot reach infinity: that case is above). */
        uint32_t r = a + 0xfffu + ((a >> 13) & 1u);
        return (uint16_t)(sign | ((r - 0x38000000u) >> 13));
    }
    /* Subnormal or zero in f16: the value in units of 2^-24 is
     * m * 2^(e - 126) with m the 24-bit significand. */
    e = a >> 23;
    if (e < 102) /* below 2^-25: rounds to zero (f32 subnormals too) */
        return sign;
    m = (a & 0x7fffffu) | 0x800000u;
    shift = 126 - e; /* 14 .. 24 */
    q = m >> shift;
    rem = m & ((1u << shift) - 1u);
    half = 1u << (shift - 1);
    if (rem > half || (rem == half && (q & 1u)))
        q++; /* may carry into the smallest normal, 0x0400: correct */
    return (uint16_t)(sign | q);
}

uint16_t h_sleef_f32_to_bf16(uint32_t x)
{
    if ((x & 0x7fffffffu) > 0x7f800000u) /* NaN: quiet, keep top 7 bits */
        return (uint16_t)((x >> 16) | 0x0040u);
    /* Round the low 16 bits to nearest even; overflow carries into the
     * exponent and gives infinity, as it should. */
    return (uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}
