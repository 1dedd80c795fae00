/* h_gen.c - deterministic test data.  Everything is built on bit patterns:
 * a value class is a rule for choosing sign, exponent and mantissa fields
 * (or integer bits), so no value is ever produced by float arithmetic.
 */
#include <string.h>

#include "h_case.h"
#include "h_dtype.h"
#include "h_gen.h"

/* splitmix64: tiny, fast, and good enough for test data. */
uint64_t h_rng_next(h_rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

#define FNV_PRIME 0x100000001b3ull

uint64_t h_digest(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    size_t i = 0;
    int k;

    for (; i + 8 <= n; i += 8) {
        uint64_t w = 0;
        for (k = 7; k >= 0; k--) /* little-endian on any host */
            w = w << 8 | b[i + (size_t)k];
        h = (h ^ w) * FNV_PRIME;
    }
    for (; i < n; i++)
        h = (h ^ b[i]) * FNV_PRIME;
    return h;
}

h_rng h_rng_for(const char *address, uint64_t seed, unsigned salt)
{
    uint64_t h = H_FNV_INIT; /* FNV-1a of the address */
    h_rng r;

    for (; *address; address++)
        h = (h ^ (unsigned char)*address) * FNV_PRIME;
    r.s = h ^ (seed * 0x2545f4914f6cdd1dull) ^ ((uint64_t)salt << 56);
    h_rng_next(&r);
    return r;
}

static uint64_t bits_mask(int bits)
{
    return bits >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
}

/* An ordinary value: floats within a few binades of 1 (then positive,
 * else negative); signed integers non-negative for then and negative for
 * else; unsigned ones from the low half for then, the high half for else.
 * So then and else never hold the same bits (except boolean). */
static uint64_t normal(const h_dtinfo *f, int which, h_rng *r)
{
    int w = f->size * 8;
    uint64_t x = h_rng_next(r), top = (uint64_t)1 << (w - 1);

    if (f->kind == H_K_BOOL)
        return x & 1;
    if (f->kind != H_K_FLOAT)
        return which ? (x | top) & bits_mask(w) : x & (top - 1);
    {
        int bias = (1 << (f->ebits - 1)) - 1;
        int lo = bias - 3 < 1 ? 1 : bias - 3;
        uint64_t field = (uint64_t)(lo + (int)(x % 7));
        uint64_t mant = (x >> 8) & bits_mask(f->mbits);
        return (which ? top : 0) | (field << f->mbits) | mant;
    }
}

/* A NaN with a payload that changes from element to element; then and
 * else start at opposite ends of the payload range.  f8e4m3 has a single
 * NaN per sign; integers have no NaN, their class value is all ones. */
static uint64_t nan_value(const h_dtinfo *f, int which, size_t i, h_rng *r)
{
    int w = f->size * 8;
    uint64_t expf = bits_mask(f->ebits), mm = bits_mask(f->mbits);
    uint64_t sign = (h_rng_next(r) & 1) << (w - 1);

    if (f->kind == H_K_BOOL)
        return 1;
    if (f->kind != H_K_FLOAT)
        return bits_mask(w);
    if (!f->ieee)
        return sign | (expf << f->mbits) | mm;
    i = which ? mm - 1 - i % mm : i % mm; /* mantissa 1..mm, never 0 */
    return sign | (expf << f->mbits) | (uint64_t)(i + 1);
}

/* Every pattern in order (8 and 16 bits), else starting half-way round;
 * wider types: a multiplicative walk that visits every exponent early. */
static uint64_t pattern(const h_dtinfo *f, int which, size_t i)
{
    int w = f->size * 8;
    uint64_t half = (uint64_t)1 << (w - 1);

    if (w <= 16) /* boolean data too: every byte (DT-BOOLDATA-1) */
        return ((uint64_t)i + (which ? half : 0)) & bits_mask(w);
    return (((uint64_t)i + (which ? half : 0)) * 0x9e3779b97f4a7c15ull) >>
           (64 - w);
}

void h_gen_values(int32_t dtype, int cls, int which, h_rng *r, void *buf,
                  size_t n)
{
    const h_dtinfo *f = h_dt(dtype);
    uint64_t sp[32];
    int nsp = h_specials(dtype, sp);
    size_t i, es = (size_t)f->size;
    uint8_t *p = buf;
    int64_t k;

    for (i = 0; i < n; i++) {
        uint64_t v = 0;
        switch (cls) {
        case H_V_SPECIAL: {
            uint64_t x = h_rng_next(r);
            v = x & 1 ? sp[(x >> 1) % (uint64_t)nsp] : normal(f, which, r);
            break;
        }
        case H_V_NAN:
            v = nan_value(f, which, i, r);
            break;
        case H_V_PATTERNS:
            v = pattern(f, which, i);
            break;
        case H_V_RAMP:
            /* then 0, 1, 2...; else -1, -2... (unsigned: max, max-1...) */
            k = (int64_t)(i > INT32_MAX ? INT32_MAX : i);
            if (!which)
                v = h_int_bits(dtype, k);
            else if (f->kind == H_K_UINT)
                v = (uint64_t)k >= bits_mask(f->size * 8)
                        ? 0 : bits_mask(f->size * 8) - (uint64_t)k;
            else if (f->kind == H_K_BOOL)
                v = i == 0;
            else
                v = h_int_bits(dtype, -k - 1);
            break;
        default:
            v = normal(f, which, r);
            break;
        }
        h_store(p + i * es, es, v);
    }
}

void h_gen_cond(int pat, h_rng *r, uint8_t *buf, size_t n)
{
    /* Run lengths on both sides of the 16/32/64-element tile edges. */
    static const unsigned runs[] = {15, 16, 17, 1, 31, 32, 33, 2, 63, 64, 65,
                                    3, 127, 128, 129, 7};
    static const uint8_t bytes[] = {0, 1, 2, 0x7f, 0x80, 0xff};
    size_t i = 0, k;
    uint64_t x;
    unsigned run, v;

    switch (pat) {
    case H_C_ALL_TRUE:
        memset(buf, 1, n);
        break;
    case H_C_ALL_FALSE:
        memset(buf, 0, n);
        break;
    case H_C_ALTERNATING:
        for (i = 0; i < n; i++)
            buf[i] = (uint8_t)((i + 1) & 1);
        break;
    case H_C_RUNS:
        x = h_rng_next(r);
        run = (unsigned)(x % (sizeof runs / sizeof *runs));
        v = (unsigned)(x >> 32) & 1;
        while (i < n) {
            for (k = 0; k < runs[run] && i < n; k++)
                buf[i++] = (uint8_t)v;
            v ^= 1;
            run = (run + 1) % (unsigned)(sizeof runs / sizeof *runs);
        }
        break;
    case H_C_BYTES:
        for (i = 0; i < n; i++)
            buf[i] = bytes[h_rng_next(r) % sizeof bytes];
        break;
    default: /* H_C_RANDOM */
        for (i = 0; i < n; i += 64) {
            x = h_rng_next(r);
            for (k = 0; k < 64 && i + k < n; k++)
                buf[i + k] = (uint8_t)((x >> k) & 1);
        }
        break;
    }
}
