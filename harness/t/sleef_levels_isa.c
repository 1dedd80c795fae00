/* sleef_levels_isa.c - one SLEEF SIMD level for harness/t/sleef_levels.c:
 * runs log/exp/sqrt/sin/tanh (the variants h_sleef.c uses) over an input
 * array with that level's vector functions.
 *
 * Compiled once per level with -DLVL_<level> and only that level's ISA
 * flags (harness/build.mk), so sleef.h declares its vector functions and
 * nothing else in the test is built for an ISA the CPU may lack.  Each
 * build defines h_lvl_<level>(); the caller checks the CPU first.  Levels:
 * cinz purec (scalar, the raw reference), sse2, sse4, avx, avx512fnofma;
 * finz purecfma (scalar with FMA), avx2128, avx2, fma4, avx512f.
 */
#include <stdint.h>
#include <string.h>

#include <sleef.h>

#include "select.h"

#if defined(LVL_sse2) || defined(LVL_sse4) || defined(LVL_avx2128)
#include <emmintrin.h>
typedef __m128 vf;
typedef __m128d vd;
#define NF 4
#define ND 2
#define LOADF _mm_loadu_ps
#define STOREF _mm_storeu_ps
#define LOADD _mm_loadu_pd
#define STORED _mm_storeu_pd
#elif defined(LVL_avx) || defined(LVL_avx2) || defined(LVL_fma4)
#include <immintrin.h>
typedef __m256 vf;
typedef __m256d vd;
#define NF 8
#define ND 4
#define LOADF _mm256_loadu_ps
#define STOREF _mm256_storeu_ps
#define LOADD _mm256_loadu_pd
#define STORED _mm256_storeu_pd
#elif defined(LVL_avx512fnofma) || defined(LVL_avx512f)
#include <immintrin.h>
typedef __m512 vf;
typedef __m512d vd;
#define NF 16
#define ND 8
#define LOADF _mm512_loadu_ps
#define STOREF _mm512_storeu_ps
#define LOADD _mm512_loadu_pd
#define STORED _mm512_storeu_pd
#elif defined(LVL_purec) || defined(LVL_purecfma)
typedef float vf;
typedef double vd;
#define NF 1
#define ND 1
static vf LOADF(const float *p) { return *p; }
static void STOREF(float *p, vf v) { *p = v; }
static vd LOADD(const double *p) { return *p; }
static void STORED(double *p, vd v) { *p = v; }
#else
#error "define one LVL_<level> (see harness/build.mk)"
#endif

/* cinz: deterministic without FMA; finz: deterministic with FMA. */
#if defined(LVL_purec) || defined(LVL_sse2) || defined(LVL_sse4) || \
    defined(LVL_avx) || defined(LVL_avx512fnofma)
#define FAM cinz
#else
#define FAM finz
#endif
#if defined(LVL_purec)
#define SUF purec
#elif defined(LVL_sse2)
#define SUF sse2
#elif defined(LVL_sse4)
#define SUF sse4
#elif defined(LVL_avx)
#define SUF avx
#elif defined(LVL_avx512fnofma)
#define SUF avx512fnofma
#elif defined(LVL_purecfma)
#define SUF purecfma
#elif defined(LVL_avx2128)
#define SUF avx2128
#elif defined(LVL_avx2)
#define SUF avx2
#elif defined(LVL_fma4)
#define SUF fma4
#else
#define SUF avx512f
#endif

/* Sleef_<fam>_<fn><t><lanes>_<acc><suf>, e.g. Sleef_cinz_logf8_u10avx;
 * XNAME expands FAM, NF and SUF before SNAME pastes. */
#define SNAME(fam, fn, t, lanes, acc, suf) \
    Sleef_##fam##_##fn##t##lanes##_##acc##suf
#define XNAME(fam, fn, t, lanes, acc, suf) SNAME(fam, fn, t, lanes, acc, suf)
#define SLEEF_F(fn, acc) XNAME(FAM, fn, f, NF, acc, SUF)
#define SLEEF_D(fn, acc) XNAME(FAM, fn, d, ND, acc, SUF)
#define PASTE2(a, b) a##b
#define ENTRY(s) PASTE2(h_lvl_, s)

/* Wrappers, because sleef.h declares const-qualified return types that
 * clang refuses to store in a plain function pointer. */
#define WRAP(fn, acc) \
    static vf f_##fn(vf x) { return SLEEF_F(fn, acc)(x); } \
    static vd d_##fn(vd x) { return SLEEF_D(fn, acc)(x); }
WRAP(log, u10)
WRAP(exp, u10)
WRAP(sqrt, u05)
WRAP(sin, u10)
WRAP(tanh, u10)

/* The same functions and accuracies as h_sleef.c. */
static const struct {
    const char *name;
    vf (*f)(vf);
    vd (*d)(vd);
} fns[] = {
    {"log", f_log, d_log},
    {"exp", f_exp, d_exp},
    {"sqrt", f_sqrt, d_sqrt},
    {"sin", f_sin, d_sin},
    {"tanh", f_tanh, d_tanh},
};

int ENTRY(SUF)(const char *fn, int32_t dtype, const void *in, void *out,
               int64_t n);

/* out = fn(in) for n elements of dtype (f32 or f64); a tail shorter than
 * a vector goes through a zero-padded copy.  0, or -1 if fn is unknown. */
int ENTRY(SUF)(const char *fn, int32_t dtype, const void *in, void *out,
               int64_t n)
{
    size_t k;
    int64_t i = 0;

    for (k = 0; k < sizeof fns / sizeof fns[0]; k++)
        if (strcmp(fns[k].name, fn) == 0)
            break;
    if (k == sizeof fns / sizeof fns[0])
        return -1;
    if (dtype == SEL_DT_F32) {
        const float *x = in;
        float *y = out, tx[NF], ty[NF];
        for (; i + NF <= n; i += NF)
            STOREF(y + i, fns[k].f(LOADF(x + i)));
        if (i < n) {
            memset(tx, 0, sizeof tx);
            memcpy(tx, x + i, (size_t)(n - i) * sizeof *x);
            STOREF(ty, fns[k].f(LOADF(tx)));
            memcpy(y + i, ty, (size_t)(n - i) * sizeof *y);
        }
        return 0;
    }
    if (dtype == SEL_DT_F64) {
        const double *x = in;
        double *y = out, tx[ND], ty[ND];
        for (; i + ND <= n; i += ND)
            STORED(y + i, fns[k].d(LOADD(x + i)));
        if (i < n) {
            memset(tx, 0, sizeof tx);
            memcpy(tx, x + i, (size_t)(n - i) * sizeof *x);
            STORED(ty, fns[k].d(LOADD(tx)));
            memcpy(y + i, ty, (size_t)(n - i) * sizeof *y);
        }
        return 0;
    }
    return -1;
}
