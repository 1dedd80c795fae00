/* sleef_levels.c - checks that the SLEEF operands of harness/h_sleef.c are
 * the same bits under every SIMD level SLEEF offers on this CPU, and prints
 * their digests.  `make check-sleef-levels`.
 *
 * h_sleef_fill computes with the scalar cinz (deterministic, no FMA) purec
 * functions.  Over the same input ramp, every vector cinz level (sse2, sse4,
 * avx, avx512fnofma: sleef_levels_isa.c, built once per level) must give
 * byte-identical output, for f32 and f64, for every function.  The FMA
 * family finz (purecfma, avx2128, avx2, fma4, avx512f) must agree within
 * itself; how often it differs from cinz is printed, not required.  Levels
 * the CPU cannot run are skipped with the reason.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "select.h"
#include "h_sleef.h"
#include "sleef_cpu.h"

typedef int (*lvl_fn)(const char *fn, int32_t dtype, const void *in,
                      void *out, int64_t n);

#define LEVELS(X) \
    X(purec, cinz, "sse2", "sse2") X(sse2, cinz, "sse2", "sse2") X(sse4, cinz, "sse4.1", "sse4.1") \
    X(avx, cinz, "avx", "avx") X(avx512fnofma, cinz, "avx512f", "avx512f") \
    X(purecfma, finz, "avx2", "fma") X(avx2128, finz, "avx2", "fma") \
    X(avx2, finz, "avx2", "fma") X(fma4, finz, "fma4", "fma4") \
    X(avx512f, finz, "avx512f", "avx512f")

#define DECL(name, fam, need1, need2) \
    int h_lvl_##name(const char *, int32_t, const void *, void *, int64_t);
LEVELS(DECL)

static const struct level {
    const char *name, *family, *need1, *need2;
    lvl_fn run;
} levels[] = {
#define ROW(name, fam, need1, need2) {#name, #fam, need1, need2, h_lvl_##name},
    LEVELS(ROW)
};
#define NLEVELS (sizeof levels / sizeof levels[0])

/* Long enough to cover a whole period of every part of the ramp (the f64
 * exponent sweep is 2047 x 8 x 2 steps, every 4th element), plus a tail
 * that is not a multiple of any vector width. */
#define N (4 * 2047 * 16 + 13)

static uint64_t fnv1a(const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t h = 0xcbf29ce484222325u;
    size_t i;
    for (i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3u;
    return h;
}

static int is_nan(const unsigned char *p, int64_t i, size_t es)
{
    uint64_t v64;
    uint32_t v32;
    if (es == 8) {
        memcpy(&v64, p + (size_t)i * es, 8);
        return (v64 & 0x7fffffffffffffffu) > 0x7ff0000000000000u;
    }
    memcpy(&v32, p + (size_t)i * es, 4);
    return (v32 & 0x7fffffffu) > 0x7f800000u;
}

/* Compares a level's raw output with the expected one (raw too, or with
 * NaNs already canonical when canon_want).  Differences where both are
 * NaN only count in *nan_diffs; any other difference counts in *num_diffs
 * and the first one's index goes to *first (else -1). */
static void compare(const unsigned char *want, const unsigned char *got,
                    int64_t n, size_t es, int64_t *nan_diffs,
                    int64_t *num_diffs, int64_t *first)
{
    int64_t i;
    *first = -1;
    for (i = 0; i < n; i++) {
        if (memcmp(want + (size_t)i * es, got + (size_t)i * es, es) == 0)
            continue;
        if (is_nan(want, i, es) && is_nan(got, i, es)) {
            ++*nan_diffs;
            continue;
        }
        ++*num_diffs;
        if (*first < 0)
            *first = i;
    }
}

static unsigned long long bits_at(const unsigned char *p, int64_t i,
                                  size_t es)
{
    uint64_t v64 = 0;
    uint32_t v32 = 0;
    if (es == 8) {
        memcpy(&v64, p + (size_t)i * es, 8);
        return v64;
    }
    memcpy(&v32, p + (size_t)i * es, 4);
    return v32;
}

static int mismatch(const char *what, const char *fn, int32_t dt,
                    const unsigned char *in, const unsigned char *want,
                    const unsigned char *got, int64_t i, size_t es)
{
    fprintf(stderr, "sleef_levels: %s %s[%s] differs at %lld: input 0x%llx, "
            "expected 0x%llx, got 0x%llx\n", what, fn, sel_dtype_name(dt),
            (long long)i, bits_at(in, i, es), bits_at(want, i, es),
            bits_at(got, i, es));
    return 1;
}

/* What h_sleef_fill does to a NaN result. */
static void canon(unsigned char *p, int64_t n, size_t es)
{
    uint64_t q64 = H_SLEEF_NAN64;
    uint32_t q32 = H_SLEEF_NAN32;
    int64_t i;
    for (i = 0; i < n; i++)
        if (is_nan(p, i, es))
            memcpy(p + (size_t)i * es, es == 8 ? (void *)&q64 : (void *)&q32,
                   es);
}

int main(void)
{
    static const int32_t dts[] = {SEL_DT_F32, SEL_DT_F64};
    const char *const *fn;
    size_t bytes = (size_t)N * 8;
    unsigned char *in = malloc(bytes), *ref = malloc(bytes),
                  *raw = malloc(bytes), *out = malloc(bytes),
                  *fz = malloc(bytes);
    int fail = 0, ran[NLEVELS] = {0}, have_fz, nfns = 0, fz_ref = -1;
    int64_t nan_d[NLEVELS] = {0}, num_d[NLEVELS] = {0}, cf_nan = 0,
            cf_num = 0, total = 0, first, i;
    size_t d, l;

    if (!in || !ref || !raw || !out || !fz) {
        fprintf(stderr, "sleef_levels: out of memory\n");
        return 1;
    }
    for (fn = h_sleef_names(); *fn; fn++)
        nfns++;
    for (l = 0; l < NLEVELS; l++)
        if (!cpu_has(levels[l].need1) || !cpu_has(levels[l].need2))
            printf("# skip %s:%s: this CPU lacks %s\n", levels[l].family,
                   levels[l].name,
                   cpu_has(levels[l].need1) ? levels[l].need2 :
                                              levels[l].need1);

    for (d = 0; d < sizeof dts / sizeof dts[0]; d++) {
        int32_t dt = dts[d];
        size_t es = sel_dtype_size(dt);
        for (fn = h_sleef_names(); *fn; fn++) {
            if (h_sleef_input(*fn, dt, in, N, 0) != 0 ||
                h_sleef_fill(*fn, dt, ref, N, 0) != 0 ||
                h_lvl_purec(*fn, dt, in, raw, N) != 0) {
                fprintf(stderr, "sleef_levels: %s[%s] refused\n", *fn,
                        sel_dtype_name(dt));
                return 1;
            }
            total += N;
            /* h_sleef_fill is purec with NaNs made canonical. */
            memcpy(out, raw, (size_t)N * es);
            canon(out, N, es);
            if (memcmp(out, ref, (size_t)N * es) != 0) {
                fprintf(stderr, "sleef_levels: h_sleef_fill %s[%s] is not "
                        "canonical purec\n", *fn, sel_dtype_name(dt));
                fail = 1;
            }
            have_fz = 0;
            for (l = 0; l < NLEVELS; l++) {
                const struct level *L = &levels[l];
                if (!cpu_has(L->need1) || !cpu_has(L->need2) ||
                    L->run == h_lvl_purec) /* purec: raw, above */
                    continue;
                memset(out, 0xa5, (size_t)N * es); /* unwritten shows */
                if (L->run(*fn, dt, in, out, N) != 0) {
                    fprintf(stderr, "sleef_levels: %s has no %s\n", L->name,
                            *fn);
                    return 1;
                }
                ran[l] = 1;
                if (strcmp(L->family, "finz") == 0 && !have_fz) {
                    /* The first finz level is finz's reference. */
                    memcpy(fz, out, (size_t)N * es);
                    have_fz = 1;
                    fz_ref = (int)l;
                    compare(raw, fz, N, es, &cf_nan, &cf_num, &first);
                    continue;
                }
                compare(strcmp(L->family, "cinz") == 0 ? raw : fz, out, N,
                        es, &nan_d[l], &num_d[l], &first);
                if (first >= 0)
                    fail |= mismatch(L->name, *fn, dt, in,
                                     strcmp(L->family, "cinz") == 0 ? raw : fz,
                                     out, first, es);
                if (strcmp(L->family, "cinz") == 0) {
                    canon(out, N, es);
                    if (memcmp(out, ref, (size_t)N * es) != 0) {
                        fprintf(stderr, "sleef_levels: %s %s[%s]: digest "
                                "differs\n", L->name, *fn, sel_dtype_name(dt));
                        fail = 1;
                    }
                }
            }
            printf("# digest %s[%s] n=%d seed=0: %016llx\n", *fn,
                   sel_dtype_name(dt), N,
                   (unsigned long long)fnv1a(ref, (size_t)N * es));
        }
    }

    /* The comparison itself must see a one-bit change of a number. */
    for (i = 0; i < N && is_nan(ref, i, 8); i++)
        ;
    memcpy(out, ref, bytes);
    out[(size_t)i * 8] ^= 1;
    {
        int64_t a = 0, b = 0;
        compare(ref, out, N, 8, &a, &b, &first);
        if (b != 1 || first != i) {
            fprintf(stderr, "sleef_levels: a flipped bit went unnoticed\n");
            fail = 1;
        }
    }

    for (l = 0; l < NLEVELS; l++)
        if (ran[l] && (int)l == fz_ref)
            printf("# finz:%s is the finz reference\n", levels[l].name);
        else if (ran[l])
            printf("# %s:%s vs %s: %lld numeric differences, %lld NaNs "
                   "with another sign/payload, of %lld elements\n",
                   levels[l].family, levels[l].name,
                   strcmp(levels[l].family, "cinz") == 0 ? "cinz:purec" :
                   levels[fz_ref].name, (long long)num_d[l],
                   (long long)nan_d[l], (long long)total);
    printf("# finz vs cinz purec: %lld numeric differences (FMA rounds "
           "once), %lld NaN sign/payload differences\n", (long long)cf_num,
           (long long)cf_nan);
    if (!ran[1]) {
        fprintf(stderr, "sleef_levels: no vector level could run\n");
        fail = 1;
    }
    free(in);
    free(ref);
    free(raw);
    free(out);
    free(fz);
    if (fail) {
        fprintf(stderr, "sleef_levels: FAILED\n");
        return 1;
    }
    printf("sleef_levels: h_sleef_fill digests identical under every cinz "
           "level run; %d elements x %d functions x f32/f64\n", N, nfns);
    return 0;
}
