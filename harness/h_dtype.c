/* h_dtype.c - element types: kinds and float formats, exact conversion of
 * case literals to bit patterns (integer arithmetic on the bits of the
 * double, never a float cast), special values, and decoded notes.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "h_dtype.h"

/* Indexed by sel_dtype; kind 0 is "not a dtype". */
static const h_dtinfo table[SEL_DT_LAST + 1] = {
    [SEL_DT_BOOLEAN] = {H_K_BOOL, 1, 0, 0, 0},
    [SEL_DT_F64] = {H_K_FLOAT, 8, 11, 52, 1},
    [SEL_DT_F32] = {H_K_FLOAT, 4, 8, 23, 1},
    [SEL_DT_F16] = {H_K_FLOAT, 2, 5, 10, 1},
    [SEL_DT_BF16] = {H_K_FLOAT, 2, 8, 7, 1},
    [SEL_DT_F8E4M3] = {H_K_FLOAT, 1, 4, 3, 0},
    [SEL_DT_F8E5M2] = {H_K_FLOAT, 1, 5, 2, 1},
    [SEL_DT_I64] = {H_K_SINT, 8, 0, 0, 0},
    [SEL_DT_I32] = {H_K_SINT, 4, 0, 0, 0},
    [SEL_DT_I16] = {H_K_SINT, 2, 0, 0, 0},
    [SEL_DT_I8] = {H_K_SINT, 1, 0, 0, 0},
    [SEL_DT_U64] = {H_K_UINT, 8, 0, 0, 0},
    [SEL_DT_U32] = {H_K_UINT, 4, 0, 0, 0},
    [SEL_DT_U16] = {H_K_UINT, 2, 0, 0, 0},
    [SEL_DT_U8] = {H_K_UINT, 1, 0, 0, 0},
};

const h_dtinfo *h_dt(int32_t dtype)
{
    if (dtype < SEL_DT_FIRST || dtype > SEL_DT_LAST || !table[dtype].kind)
        return NULL;
    return &table[dtype];
}

int32_t h_dt_parse(const char *name)
{
    int32_t d;

    for (d = SEL_DT_FIRST; d <= SEL_DT_LAST; d++)
        if (strcmp(sel_dtype_name(d), name) == 0)
            return d;
    return 0;
}

static uint64_t mask(int bits)
{
    return bits >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
}

uint64_t h_load(const void *p, size_t es)
{
    uint8_t b1; uint16_t b2; uint32_t b4; uint64_t b8;

    switch (es) {
    case 1: memcpy(&b1, p, 1); return b1;
    case 2: memcpy(&b2, p, 2); return b2;
    case 4: memcpy(&b4, p, 4); return b4;
    default: memcpy(&b8, p, 8); return b8;
    }
}

void h_store(void *p, size_t es, uint64_t v)
{
    uint8_t b1 = (uint8_t)v; uint16_t b2 = (uint16_t)v;
    uint32_t b4 = (uint32_t)v;

    switch (es) {
    case 1: memcpy(p, &b1, 1); break;
    case 2: memcpy(p, &b2, 2); break;
    case 4: memcpy(p, &b4, 4); break;
    default: memcpy(p, &v, 8); break;
    }
}

static int bitlen(uint64_t v)
{
    int n = 0;
    while (v) {
        n++;
        v >>= 1;
    }
    return n;
}

/* The double d in format f, if f holds it exactly.  d = sig * 2^ex with
 * sig odd; it fits when its leading exponent is in range and its
 * significant bits fit the mantissa (or the subnormal grid). */
static int float_bits(const h_dtinfo *f, double d, uint64_t *out, char *err,
                      size_t n)
{
    uint64_t b, m, sig, sbit = (uint64_t)1 << (f->size * 8 - 1);
    int e, ex, nb, E, bias = (1 << (f->ebits - 1)) - 1, emin, emax;
    uint64_t expf = mask(f->ebits), mmask = mask(f->mbits), s;

    memcpy(&b, &d, 8);
    s = (b >> 63) ? sbit : 0;
    e = (int)((b >> 52) & 0x7ff);
    m = b & mask(52);
    if (e == 0x7ff && m) {
        snprintf(err, n, "NaN literals are ambiguous: give the bit pattern "
                 "as a hex string");
        return -1;
    }
    if (e == 0x7ff) {
        if (!f->ieee) {
            snprintf(err, n, "this type has no infinity");
            return -1;
        }
        *out = s | (expf << f->mbits);
        return 0;
    }
    if (e == 0 && m == 0) {
        *out = s;
        return 0;
    }
    sig = e ? (m | ((uint64_t)1 << 52)) : m;
    ex = e ? e - 1075 : -1074;
    while (!(sig & 1)) {
        sig >>= 1;
        ex++;
    }
    nb = bitlen(sig);
    E = ex + nb - 1;
    emin = 1 - bias;
    emax = f->ieee ? bias : bias + 1;
    if (E > emax) {
        snprintf(err, n, "out of range (too large)");
        return -1;
    }
    if (E >= emin) {
        uint64_t field = (uint64_t)(E + bias), mant;
        if (nb - 1 > f->mbits) {
            snprintf(err, n, "not exact (needs %d significant bits)", nb);
            return -1;
        }
        mant = (sig << (f->mbits - (nb - 1))) & mmask;
        if (!f->ieee && field == expf && mant == mmask) {
            snprintf(err, n, "out of range (too large)");
            return -1;
        }
        *out = s | (field << f->mbits) | mant;
        return 0;
    }
    if (ex < emin - f->mbits) {
        snprintf(err, n, "not exact (below the subnormal grid)");
        return -1;
    }
    *out = s | (sig << (ex - (emin - f->mbits)));
    return 0;
}

/* d as an integer of size bytes, signed or not; integers are read only
 * below 2^53 in magnitude, where both Lua front ends agree. */
static int int_bits(const h_dtinfo *f, double d, uint64_t *out, char *err,
                    size_t n)
{
    int64_t v;
    int w = f->size * 8;

    if (!(d > -9007199254740992.0 && d < 9007199254740992.0)) {
        snprintf(err, n, "integers of 2^53 and beyond must be written as "
                 "hex strings");
        return -1;
    }
    v = (int64_t)d;
    if ((double)v != d) {
        snprintf(err, n, "not an integer");
        return -1;
    }
    if (f->kind == H_K_UINT ? (v < 0 || (w < 64 && (uint64_t)v > mask(w)))
                            : (w < 64 && (v > (int64_t)mask(w - 1) ||
                                          v < -(int64_t)mask(w - 1) - 1))) {
        snprintf(err, n, "out of range");
        return -1;
    }
    *out = (uint64_t)v & mask(w);
    return 0;
}

int h_lit_bits(int32_t dtype, const h_lit *l, uint64_t *out, char *err,
               size_t n)
{
    const h_dtinfo *f = h_dt(dtype);
    char e[160];

    if (!f) {
        snprintf(err, n, "no literal data for dtype %d", (int)dtype);
        return -1;
    }
    if (l->kind == H_LIT_HEX) {
        if (l->bits > mask(f->size * 8)) {
            snprintf(err, n, "hex 0x%llx does not fit %s",
                     (unsigned long long)l->bits, sel_dtype_name(dtype));
            return -1;
        }
        *out = l->bits;
        return 0;
    }
    if (f->kind == H_K_BOOL) {
        if (l->kind == H_LIT_BOOL || l->num == 0.0 || l->num == 1.0) {
            *out = l->kind == H_LIT_BOOL ? l->bits : (uint64_t)(l->num == 1.0);
            return 0;
        }
        snprintf(err, n, "boolean data must be 0, 1, true or false");
        return -1;
    }
    if (l->kind == H_LIT_BOOL) {
        snprintf(err, n, "a boolean literal for %s", sel_dtype_name(dtype));
        return -1;
    }
    if ((f->kind == H_K_FLOAT ? float_bits(f, l->num, out, e, sizeof e)
                              : int_bits(f, l->num, out, e, sizeof e)) == 0)
        return 0;
    snprintf(err, n, "%.17g as %s: %s", l->num, sel_dtype_name(dtype), e);
    return -1;
}

uint64_t h_int_bits(int32_t dtype, int64_t i)
{
    const h_dtinfo *f = h_dt(dtype);
    int64_t lo, hi;
    uint64_t out = 0;
    char e[8];

    if (f->kind == H_K_BOOL)
        return i > 0;
    if (f->kind == H_K_FLOAT) {
        hi = (int64_t)1 << (f->mbits + 1); /* every integer below is exact */
        lo = -hi;
    } else if (f->kind == H_K_SINT) {
        hi = (int64_t)mask(f->size * 8 - 1);
        lo = -hi - 1;
    } else {
        hi = f->size == 8 ? INT64_MAX : (int64_t)mask(f->size * 8);
        lo = 0;
    }
    i = i < lo ? lo : i > hi ? hi : i;
    if (f->kind == H_K_FLOAT) {
        float_bits(f, (double)i, &out, e, sizeof e);
        return out;
    }
    return (uint64_t)i & mask(f->size * 8);
}

int h_specials(int32_t dtype, uint64_t *o)
{
    const h_dtinfo *f = h_dt(dtype);
    int w = f->size * 8, k = 0;
    uint64_t sbit = (uint64_t)1 << (w - 1), all = mask(w);

    if (f->kind == H_K_BOOL) {
        o[k++] = 0;
        o[k++] = 1;
    } else if (f->kind == H_K_SINT || f->kind == H_K_UINT) {
        o[k++] = 0;
        o[k++] = 1;
        o[k++] = all;              /* -1 / max unsigned */
        o[k++] = all - 1;
        o[k++] = sbit;             /* min signed / top bit */
        o[k++] = sbit - 1;         /* max signed */
        o[k++] = sbit + 1;
        o[k++] = all / 3;          /* 0x55.. */
        o[k++] = all / 3 * 2;      /* 0xaa.. */
    } else {
        uint64_t expf = mask(f->ebits), em = expf << f->mbits;
        uint64_t mm = mask(f->mbits), q = (uint64_t)1 << (f->mbits - 1);
        uint64_t one = (mask(f->ebits - 1)) << f->mbits;
        uint64_t maxf = f->ieee ? ((expf - 1) << f->mbits) | mm : em | (mm - 1);
        o[k++] = 0;
        o[k++] = sbit;                    /* -0.0 */
        o[k++] = 1;                       /* smallest subnormal */
        o[k++] = sbit | 1;
        o[k++] = mm;                      /* largest subnormal */
        o[k++] = (uint64_t)1 << f->mbits; /* smallest normal */
        o[k++] = maxf;
        o[k++] = sbit | maxf;
        o[k++] = one;                     /* 1.0 */
        o[k++] = sbit | one;
        if (f->ieee) {
            o[k++] = em;                  /* inf */
            o[k++] = sbit | em;
            o[k++] = em | q;              /* quiet NaN */
            o[k++] = sbit | em | q;
            o[k++] = em | mm;             /* quiet NaN, largest payload */
            o[k++] = em | 1;              /* signalling NaN, payload 1 */
            o[k++] = sbit | em | 1;
            if (q > 2) {
                o[k++] = em | q | 1;      /* quiet NaN, payload 1 */
                o[k++] = em | (q - 1);    /* signalling, largest payload */
            }
        } else {
            o[k++] = em | mm;             /* the NaN */
            o[k++] = sbit | em | mm;
        }
    }
    return k;
}

/* The value of a finite float pattern, exact in a double (every format
 * here is a subset of f64). */
static double float_value(const h_dtinfo *f, uint64_t bits)
{
    int bias = (1 << (f->ebits - 1)) - 1;
    uint64_t field = (bits >> f->mbits) & mask(f->ebits);
    uint64_t mant = bits & mask(f->mbits);
    double v = field ? ldexp((double)(mant | ((uint64_t)1 << f->mbits)),
                             (int)field - bias - f->mbits)
                     : ldexp((double)mant, 1 - bias - f->mbits);
    return (bits >> (f->size * 8 - 1)) & 1 ? -v : v;
}

static void float_note(const h_dtinfo *f, uint64_t bits, char *buf, size_t n)
{
    uint64_t expf = mask(f->ebits), field = (bits >> f->mbits) & expf;
    uint64_t mant = bits & mask(f->mbits), q = (uint64_t)1 << (f->mbits - 1);
    const char *sign = (bits >> (f->size * 8 - 1)) & 1 ? "-" : "";
    /* Enough digits to tell any two values of the format apart. */
    int prec = f->mbits >= 52 ? 17 : f->mbits >= 23 ? 9 : f->mbits >= 10 ? 5
             : f->mbits >= 7 ? 4 : 3;

    if (!f->ieee && field == expf && mant == mask(f->mbits))
        snprintf(buf, n, "%snan", sign);
    else if (f->ieee && field == expf && mant == 0)
        snprintf(buf, n, "%sinf", sign);
    else if (f->ieee && field == expf && (mant & ~q) == 0)
        snprintf(buf, n, "%snan", sign);
    else if (f->ieee && field == expf)
        snprintf(buf, n, "%s%s payload 0x%llx", sign,
                 mant & q ? "nan" : "snan",
                 (unsigned long long)(mant & (q - 1)));
    else if (field == 0 && mant == 0)
        snprintf(buf, n, "%s0.0", sign);
    else
        snprintf(buf, n, "%s%.*g", field == 0 ? "subnormal " : "", prec,
                 float_value(f, bits));
}

void h_bits_note(int32_t dtype, uint64_t bits, char *buf, size_t n)
{
    const h_dtinfo *f = h_dt(dtype);
    char note[96];
    int w;

    if (!f) {
        snprintf(buf, n, "0x%llx", (unsigned long long)bits);
        return;
    }
    w = f->size * 8;
    if (f->kind == H_K_BOOL)
        snprintf(note, sizeof note, "%s", bits == 0 ? "false"
                 : bits == 1 ? "true" : "nonzero byte");
    else if (f->kind == H_K_UINT)
        snprintf(note, sizeof note, "%llu", (unsigned long long)bits);
    else if (f->kind == H_K_SINT)
        snprintf(note, sizeof note, "%lld",
                 (long long)((bits >> (w - 1)) & 1 && w < 64
                                 ? (int64_t)(bits | ~mask(w))
                                 : (int64_t)bits));
    else
        float_note(f, bits, note, sizeof note);
    snprintf(buf, n, "0x%0*llx (%s)", f->size * 2, (unsigned long long)bits,
             note);
}
