/* opt_brep.c - the blocks' expansion pass: groups of blk bytes, each
 * written n times, by pshufb tables, patterns or 32-byte moves from the
 * AVX2 level up (opt_avx2.c) and portable splats and copies below it.
 * opt_block.c decides which passes an operand needs.
 */
#include <string.h>

#include "opt.h"

/* Copies n bytes, n small, with a few overlapping moves (no libc call). */
static inline void copy_small(char *d, const char *s, size_t n)
{
    uint64_t a, b;
    if (n >= 16) {
        size_t i = 0;
        for (; i + 16 <= n; i += 16)
            memcpy(d + i, s + i, 16);
        if (i < n)
            memcpy(d + n - 16, s + n - 16, 16);
    } else if (n >= 8) {
        memcpy(&a, s, 8), memcpy(&b, s + n - 8, 8);
        memcpy(d, &a, 8), memcpy(d + n - 8, &b, 8);
    } else if (n >= 4) {
        uint32_t x, y;
        memcpy(&x, s, 4), memcpy(&y, s + n - 4, 4);
        memcpy(d, &x, 4), memcpy(d + n - 4, &y, 4);
    } else {
        for (size_t i = 0; i < n; i++)
            d[i] = s[i];
    }
}

/* Each of `outer` blocks of blk bytes at s, repeated n times, to d; the
 * plain loops (any blk, n).  Writes exactly outer * n * blk bytes. */
static void rep_plain(const char *s, char *d, size_t outer, size_t blk,
                      size_t n)
{
    for (size_t o = 0; o < outer; o++, s += blk) {
        char *row = d + o * n * blk;
        if (n >= 8 && n * blk >= 512) { /* doubling: few, long copies */
            size_t done = 1;
            memcpy(row, s, blk);
            while (done < n) {
                const size_t m = done < n - done ? done : n - done;
                memcpy(row + done * blk, row, m * blk);
                done += m;
            }
            continue;
        }
        for (size_t i = 0; i < n; i++) {
            if (blk > 64)
                memcpy(row + i * blk, s, blk);
            else
                copy_small(row + i * blk, s, blk);
        }
    }
}

/* blk of 1, 2, 4 or 8 bytes repeated n times with n * blk >= 16: the
 * element splatted over 8 bytes, stored 16 bytes at a time (up to 15
 * bytes past each group, which the next group or the slack takes). */
static void rep_splat(const char *s, char *d, size_t outer, size_t blk,
                      size_t n)
{
    const size_t bytes = n * blk;
    for (size_t o = 0; o < outer; o++, s += blk) {
        char *row = d + o * bytes;
        uint64_t v;
        if (blk == 1)
            v = 0x0101010101010101u * (uint8_t)*s;
        else if (blk == 2)
            v = 0x0001000100010001u * (uint16_t)opt_rd16(s);
        else if (blk == 4)
            v = 0x0000000100000001u * (uint32_t)opt_rd32(s);
        else
            v = (uint64_t)opt_rd64(s);
        for (size_t i = 0; i < bytes; i += 16)
            memcpy(row + i, &v, 8), memcpy(row + i + 8, &v, 8);
    }
}

/* Groups of 16 to 64 bytes: loaded once as four 16-byte pieces (the later
 * ones overlapping when the group is shorter), stored n times. */
static void rep_mid(const char *s, char *d, size_t outer, size_t blk,
                    size_t n)
{
    const size_t p3 = blk - 16, p1 = p3 < 16 ? p3 : 16, p2 = p3 < 32 ? p3 : 32;
    for (size_t o = 0; o < outer; o++, s += blk) {
        char a[16], b[16], c[16], e[16], *row = d + o * n * blk;
        memcpy(a, s, 16), memcpy(b, s + p1, 16);
        memcpy(c, s + p2, 16), memcpy(e, s + p3, 16);
        for (size_t i = 0; i < n; i++, row += blk) {
            memcpy(row, a, 16), memcpy(row + p1, b, 16);
            memcpy(row + p2, c, 16), memcpy(row + p3, e, 16);
        }
    }
}

/* The shuffle tables (x86: built once, used from the AVX2 level up). */
#if defined(__x86_64__)
#include <pthread.h>
static opt_xtab tabs[8][16]; /* [blk][n], valid when P > 0 */
static uint8_t pats[16][32];  /* [blk][j] = j % blk, for opt_xpat__avx2 */
static pthread_once_t tabs_once = PTHREAD_ONCE_INIT;

/* Period of the pattern "groups of blk source bytes, each written n
 * times": Q = lcm(16, n * blk) output bytes, P = Q / 16 vectors; vector v
 * reads 16 source bytes from off[v] and shuffles them by mask[v].  Only
 * patterns whose every vector's sources lie within 16 bytes get a table. */
static void tab_make(opt_xtab *x, size_t blk, size_t n)
{
    const size_t R = n * blk;
    size_t Q = 16, need = 0, src[16];
    while (Q % R)
        Q += 16;
    for (size_t v = 0; v < Q / 16; v++) {
        size_t lo = SIZE_MAX, hi = 0;
        for (size_t j = 0; j < 16; j++) {
            const size_t o = 16 * v + j;
            src[j] = o / R * blk + o % blk;
            lo = src[j] < lo ? src[j] : lo;
            hi = src[j] > hi ? src[j] : hi;
        }
        if (hi - lo > 15)
            return; /* no table: P stays 0 */
        for (size_t j = 0; j < 16; j++)
            x->mask[v][j] = (uint8_t)(src[j] - lo);
        x->off[v] = (uint8_t)lo;
        need = lo + 16 > need ? lo + 16 : need;
    }
    x->adv = (uint8_t)(Q / R * blk);
    x->need = (uint8_t)need;
    x->groups = (uint8_t)(Q / R);
    x->P = (uint8_t)(Q / 16);
}

static void tabs_build(void)
{
    for (size_t blk = 1; blk < 16; blk++)
        for (size_t j = 0; j < 32; j++)
            pats[blk][j] = (uint8_t)(j % blk);
    for (size_t blk = 1; blk < 8; blk++)
        for (size_t n = 2; n * blk < 16; n++)
            tab_make(&tabs[blk][n], blk, n);
}
#endif

int opt_brep_init(int isa)
{
#if defined(__x86_64__)
    if (isa >= OPT_ISA_avx2) {
        pthread_once(&tabs_once, tabs_build);
        return 1;
    }
#endif
    (void)isa;
    return 0;
}

/* One pass: `outer` blocks of blk bytes at s (avail bytes readable from
 * s), each repeated n times, to d. */
void opt_brep(int simd, const char *s, size_t avail, char *d, size_t outer,
              size_t blk, size_t n)
{
    size_t g = 0; /* groups written by a vector path */
#if defined(__x86_64__)
    if (simd && blk < 8 && n * blk < 16 && tabs[blk][n].P) {
        const opt_xtab *t = &tabs[blk][n];
        const size_t periods = (outer + t->groups - 1) / t->groups;
        g = opt_xrep__avx2((const uint8_t *)s, avail, (uint8_t *)d, periods, t) * t->groups;
    } else if (simd && blk < 16)
        g = opt_xpat__avx2((const uint8_t *)s, avail, (uint8_t *)d, outer, blk, n,
                           pats[blk]);
    if (simd && blk >= 16) {
        opt_xcopy__avx2((const uint8_t *)s, (uint8_t *)d, outer, blk, n);
        return;
    }
    if (g >= outer)
        return;
    s += g * blk, d += g * n * blk, outer -= g;
#else
    (void)simd, (void)avail, (void)g;
#endif
    if ((blk & (blk - 1)) == 0 && blk <= 8 && n * blk >= 16 && n * blk < 512)
        rep_splat(s, d, outer, blk, n);
    else if (blk >= 16 && blk <= 64 && (n < 8 || n * blk < 512))
        rep_mid(s, d, outer, blk, n);
    else
        rep_plain(s, d, outer, blk, n);
}

