/* opt_avx512.c - kernels for AVX-512 F+BW+VL (64-byte vectors, opmasks).
 * Defines the vocabulary of opt_vloop.h and expands it.  cond bytes become
 * an opmask with vptestmb (bit set where the byte is nonzero); a pick is a
 * masked blend; partial vectors use masked loads and stores, which neither
 * fault nor write past the row.
 */
#if !defined(__AVX512F__) || !defined(__AVX512BW__) || !defined(__AVX512VL__)
#error "opt_avx512.c needs -mavx512f -mavx512bw -mavx512vl"
#endif

#include <immintrin.h>

#include "opt.h"

#define OPT_ISA avx512
#define OPT_MASKED_TAIL 1
#define VBYTES 64
typedef __m512i VT;

#define CXP(p) ((const __m128i *)(const void *)(p))

static inline VT vzero(void) { return _mm512_setzero_si512(); }
static inline VT vloadu(const char *p) { return _mm512_loadu_si512(p); }
static inline void vstoreu(char *p, VT v) { _mm256_storeu_si256((__m256i *)(void *)p, _mm512_castsi512_si256(v)); _mm256_storeu_si256((__m256i *)(void *)(p + 32), _mm512_extracti64x4_epi64(v, 1)); }
/* One 512-bit store, for the select and fill loops (opt_vloop.h), whose
 * stores are aligned past their peel from 4 vectors up: on Zen 5, whose
 * store path is 512 bits wide, same_f16_4Ki 68 -> 54 ns against the
 * halves of vstoreu.  Not vstoreu: there 512-bit stores across lines lost
 * (the flat walk's wrap loop, 617x38:617x38:38 i64 2.40 -> 2.89 us).  On
 * Zen 4 the two forms tied in cache (NOTES, "Plain stores past L3"). */
#define OPT_WIDE_STORE 1
static inline void vstorew(char *p, VT v) { _mm512_storeu_si512(p, v); }
static inline void vstream(char *p, VT v) { _mm512_stream_si512((void *)p, v); }
/* Rows in pairs: lines of the dense streams into L1 this far ahead
 * (midaxis_f16, three alternations: 256 bytes 0.88-0.94 of the yardstick
 * at one thread, 128 and 384 0.82-0.92, 512 0.81-0.91, 1-2 KiB 0.83-0.85,
 * none 0.80-0.83; into L2 at 2-4 KiB about half the gain).  The builtin:
 * gcc 12 -O2 emitted nothing for _mm_prefetch in this loop. */
#define OPT_ROW_AHEAD 256
static inline void vahead(const char *p) { __builtin_prefetch(p, 0, 3); }

/* One mask bit per lane: 64 lanes of 8 bits, 32 of 16, 16 of 32, 8 of 64. */
typedef __mmask64 mask8_t;
typedef __mmask32 mask16_t;
typedef __mmask16 mask32_t;
typedef __mmask8 mask64_t;

static inline mask8_t cmask8(const uint8_t *c)
{
    VT v = _mm512_loadu_si512(c);
    return _mm512_test_epi8_mask(v, v);
}
static inline mask16_t cmask16(const uint8_t *c)
{
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)c);
    return _mm256_test_epi8_mask(v, v);
}
static inline mask32_t cmask32(const uint8_t *c)
{
    __m128i v = _mm_loadu_si128(CXP(c));
    return _mm_test_epi8_mask(v, v);
}
static inline mask64_t cmask64(const uint8_t *c)
{
    __m128i v = _mm_loadl_epi64(CXP(c));
    return (mask64_t)_mm_test_epi8_mask(v, v);
}

/* mask_blend(k, a, b) takes b where k is set.  Both operands are pinned
 * in registers first (vreg): gcc folds a load into the masked blend, and
 * an EVEX masked op's memory operand waits for the mask before it issues
 * (fault suppression), so a then/else miss started only after the cond
 * miss resolved.  Zen 5, 16 Mi f32 streamed, a stand-alone loop: 5.6 ns
 * a vector folded, 4.2 unfolded, as the xor yardstick. */
static inline VT vreg(VT v)
{
    __asm__("" : "+v"(v));
    return v;
}
static inline VT vpick8(mask8_t m, VT t, VT e)
{
    return _mm512_mask_blend_epi8(m, vreg(e), vreg(t));
}
static inline VT vpick16(mask16_t m, VT t, VT e)
{
    return _mm512_mask_blend_epi16(m, vreg(e), vreg(t));
}
static inline VT vpick32(mask32_t m, VT t, VT e)
{
    return _mm512_mask_blend_epi32(m, vreg(e), vreg(t));
}
static inline VT vpick64(mask64_t m, VT t, VT e)
{
    return _mm512_mask_blend_epi64(m, vreg(e), vreg(t));
}

static inline VT vsplat8(const char *p) { return _mm512_set1_epi8(*p); }
static inline VT vsplat16(const char *p) { return _mm512_set1_epi16(opt_rd16(p)); }
static inline VT vsplat32(const char *p) { return _mm512_set1_epi32(opt_rd32(p)); }
static inline VT vsplat64(const char *p) { return _mm512_set1_epi64(opt_rd64(p)); }

/* Partial vectors (k < lanes elements): the cond load is masked too, so a
 * row never reads past its last cond byte. */
#define PART(bits, mt, cload, ctest, lmask)                                   \
    static inline __attribute__((always_inline)) void                         \
    part##bits(size_t k, const uint8_t *c, const char *t, const char *e,      \
               char *d, int ts, int es, VT tv, VT ev)                         \
    {                                                                         \
        const mt km = (mt)((1ull << k) - 1);                                  \
        const mt m = (mt)(ctest(cload(km, c)) & km);                          \
        VT a = ts ? tv : _mm512_maskz_loadu_##lmask(km, t);                   \
        VT b = es ? ev : _mm512_maskz_loadu_##lmask(km, e);                   \
        _mm512_mask_storeu_##lmask(d, km, vpick##bits(m, a, b));              \
    }                                                                         \
    static inline __attribute__((always_inline)) void                         \
    partfill##bits(size_t k, const char *t, char *d, VT tv)                   \
    {                                                                         \
        (void)t;                                                              \
        _mm512_mask_storeu_##lmask(d, (mt)((1ull << k) - 1), tv);             \
    }

static inline mask8_t ctest8(VT v) { return _mm512_test_epi8_mask(v, v); }
static inline mask16_t ctest16(__m256i v) { return _mm256_test_epi8_mask(v, v); }
static inline mask32_t ctest32(__m128i v) { return _mm_test_epi8_mask(v, v); }
static inline __m256i cload16(mask16_t k, const uint8_t *c)
{
    return _mm256_maskz_loadu_epi8(k, c);
}
static inline __m128i cload32(mask32_t k, const uint8_t *c)
{
    return _mm_maskz_loadu_epi8(k, c);
}
static inline __m128i cload64(mask64_t k, const uint8_t *c)
{
    return _mm_maskz_loadu_epi8(k, c);
}

PART(8, mask8_t, _mm512_maskz_loadu_epi8, ctest8, epi8)
PART(16, mask16_t, cload16, ctest16, epi16)
PART(32, mask32_t, cload32, ctest32, epi32)
PART(64, mask64_t, cload64, ctest32, epi64)

/* Rows whose output passes L2 without streams (OPT_HALF, opt_exec.c):
 * the same select in 256-bit halves.  Any 512-bit register in the loop
 * (the loads, the blend, or only the store) ran rows of 1344 bytes into
 * 28 MiB of plain stores at 1.1-1.2 ms; 256-bit halves of the same mask
 * at 0.75 (a stand-alone model; AVX2 as fast).  In L1-L3 the 512-bit
 * loop is faster (0.29 against 0.37 ms over 15 KiB). */
#define OPT_HALF_STORES 1
typedef __m256i HT;
static inline HT hlo(VT v) { return _mm512_castsi512_si256(v); }
static inline HT hhi(VT v) { return _mm512_extracti64x4_epi64(v, 1); }
static inline void hstoreu(char *p, HT v)
{
    _mm256_storeu_si256((__m256i *)(void *)p, v);
}
/* In a register (not folded into the masked blend: vreg). */
static inline HT hloadu(const char *p)
{
    HT v = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __asm__("" : "+v"(v));
    return v;
}
/* One vector's elements at d from cond at c, then at t, else at e (ts,
 * es: the splats tv, ev), as two halves; sh: the lanes of a half. */
#define HSEL(bits, mt, ht, sh, blend)                                         \
    static inline __attribute__((always_inline)) void                         \
    hsel##bits(char *d, const uint8_t *c, const char *t, const char *e,       \
               int ts, int es, VT tv, VT ev)                                  \
    {                                                                         \
        const mt m = cmask##bits(c);                                          \
        const HT t0 = ts ? hlo(tv) : hloadu(t), e0 = es ? hlo(ev) : hloadu(e); \
        const HT t1 = ts ? hlo(tv) : hloadu(t + 32);                          \
        const HT e1 = es ? hlo(ev) : hloadu(e + 32);                          \
        hstoreu(d, _mm256_mask_blend_##blend((ht)m, e0, t0));                 \
        hstoreu(d + 32, _mm256_mask_blend_##blend((ht)(m >> sh), e1, t1));    \
    }
HSEL(8, mask8_t, __mmask32, 32, epi8)
HSEL(16, mask16_t, __mmask16, 16, epi16)
HSEL(32, mask32_t, __mmask8, 8, epi32)
HSEL(64, mask64_t, __mmask8, 4, epi64)

#define OPT_WRAP_LOOP 1 /* the flat walk's wrap loop (opt_wrap.h) */
#include "opt_vloop.h"

/* ---- a cond repeated per element (opt_crep.c) ---------------------------
 * Per 64 elements one 64-bit mask: the cond window spread over the
 * elements by vpermb (AVX512-VBMI; opt_crep.c only picks these when cpuid
 * says so) through the index table, then vptestmb; each vector of the 64
 * elements takes its lanes' bits of it, so a blend covers a whole vector
 * at every width (16 elements per blend were too few for 1-2 byte ones). */
#define VBMI __attribute__((target("avx512vbmi")))
#define CREP_ALWAYS static inline __attribute__((always_inline)) VBMI

/* Bit i: the cond of element i of the next 64 (element 0 at phase r).  The
 * load is masked near the end of cond (fewer than 64 bytes readable).
 * Rows longer than the table's C: the 64 elements span two rows at most,
 * the rest of this one and the start of the next. */
CREP_ALWAYS uint64_t crep_bits(const opt_crep_job *j)
{
    if (j->C > OPT_CREP_SEQC) {
        const size_t f = j->C - j->r; /* > 0: elements left in the row */
        const uint64_t lo = f >= 64 ? ~0ull : (1ull << f) - 1;
        return (j->c[0] ? lo : 0) |
               (f < 64 && j->cavail > 1 && j->c[1] ? ~lo : 0);
    }
    const __m512i ix = _mm512_loadu_si512(j->seq + j->r);
    const __m512i w = j->cavail >= 64 ? _mm512_loadu_si512(j->c)
        : _mm512_maskz_loadu_epi8((__mmask64)((1ull << j->cavail) - 1), j->c);
    const __m512i x = _mm512_permutexvar_epi8(ix, w);
    return _mm512_test_epi8_mask(x, x);
}

/* The kernel per width.  then and else each come from memory (dense, or
 * a tile expanded in scratch) or from registers: a splat, or a tile whose
 * pattern repeats every P groups of 64 elements (P = 1 when C divides 64,
 * 3 for C = 3, 6, 12, ...), loaded once per call (tr, er).  Groups of
 * fewer than 64 elements (the peel to the streams' alignment, the tail)
 * are masked.  A register tile is read from memory only within its first
 * 64 * (P + 2) elements (the tail reads the period's first groups), so
 * opt_block.c expands only that much of it.  A tile of another period, Q
 * groups (Q = C / gcd(C, 64), when 64 * (Q + 2) elements fit the block's
 * scratch), is read from memory with a pointer that wraps every Q groups,
 * so it too needs only that much expanded (dense operands: no wrap). */
#define CREP512(bits, mt, ld)                                                 \
    /* Elements i..i+k-1, k < 64; then and else of element i at tp, ep. */  \
    CREP_ALWAYS void crep_part##bits(const opt_crep_job *j, size_t i,         \
                                     size_t k, VT tv, VT ev, const char *tp,  \
                                     const char *ep)                          \
    {                                                                         \
        const size_t W = bits / 8, L = 64 / W;                                \
        const uint64_t m = crep_bits(j);                                      \
        for (size_t v = 0; v * L < k; v++) {                                  \
            const size_t kv = k - v * L < L ? k - v * L : L;                  \
            const size_t o = v * L * W;                                       \
            const mt km = (mt)((1ull << kv) - 1);                             \
            VT a = j->ts == 1 ? tv : _mm512_maskz_loadu_##ld(km, tp + o);     \
            VT b = j->es == 1 ? ev : _mm512_maskz_loadu_##ld(km, ep + o);     \
            _mm512_mask_storeu_##ld(j->d + i * W + o, km,                     \
                                    vpick##bits((mt)(m >> (v * L)), a, b));   \
        }                                                                     \
    }                                                                         \
    CREP_ALWAYS void crep_group##bits(const opt_crep_job *j, size_t i,        \
                                      const VT *rt, const VT *re,             \
                                      const int tr, const int er, int nt,     \
                                      const char *tq, const char *eq)         \
    {                                                                         \
        const size_t W = bits / 8, L = 64 / W;                                \
        const uint64_t b = crep_bits(j);                                      \
        _Pragma("GCC unroll 8") for (size_t v = 0; v < W; v++) {              \
            const size_t o = (i + v * L) * W;                                 \
            const VT x = vpick##bits((mt)(b >> (v * L)),                      \
                                     tr ? rt[v] : vloadu(tq + v * 64),        \
                                     er ? re[v] : vloadu(eq + v * 64));       \
            if (nt)                                                           \
                vstream(j->d + o, x);                                         \
            else                                                              \
                vstoreu(j->d + o, x);                                         \
        }                                                                     \
    }                                                                         \
    /* The register copies of an operand for P groups from element i. */     \
    CREP_ALWAYS void crep_regs##bits(VT *r, const char *p, int mode,          \
                                     size_t i, const size_t P)                \
    {                                                                         \
        _Pragma("GCC unroll 24") for (size_t k = 0; k < P * (bits / 8); k++)  \
            r[k] = mode == 1 ? vsplat##bits(p) : vloadu(p + i * (bits / 8) +  \
                                                        k * 64);              \
    }                                                                         \
    CREP_ALWAYS void crep_body##bits(opt_crep_job j, const int tr,            \
                                     const int er, const size_t P,            \
                                     const int wq)                            \
    {                                                                         \
        const size_t W = bits / 8, n = j.n, q = 64 / j.C, m = 64 % j.C;       \
        const VT tv = j.ts == 1 ? vsplat##bits(j.t) : vzero();                \
        const VT ev = j.es == 1 ? vsplat##bits(j.e) : vzero();                \
        const size_t mis = (uintptr_t)j.d % 64;                               \
        size_t i = 0, g = 0, G, k, i0;                                        \
        VT rt[3 * (bits / 8)], re[3 * (bits / 8)];                            \
        if (j.nt && mis) { /* peel up to the first aligned vector */          \
            i = (64 - mis) / W < n ? (64 - mis) / W : n;                      \
            crep_part##bits(&j, 0, i, tv, ev, j.t, j.e);                      \
            opt_crep_adv(&j, i);                                              \
        }                                                                     \
        G = (n - i) / 64; /* whole groups */                                  \
        i0 = i;                                                               \
        for (; G < P && i < n; i += k) { /* too short for the registers */   \
            k = n - i < 63 ? n - i : 63;                                      \
            crep_part##bits(&j, i, k, tv, ev, j.t + i * W, j.e + i * W);      \
            opt_crep_adv(&j, k);                                              \
        }                                                                     \
        if (i == n)                                                           \
            return;                                                           \
        _Pragma("GCC unroll 24") for (k = 0; k < P * W; k++)                  \
            rt[k] = re[k] = vzero(); /* for the dense operands */            \
        if (tr)                                                               \
            crep_regs##bits(rt, j.t, j.ts, i, P);                             \
        if (er)                                                               \
            crep_regs##bits(re, j.e, j.es, i, P);                             \
        /* Operands read from memory: dense, or a tile of Q groups (wraps). */\
        const char *tq = j.t + i * W, *eq = j.e + i * W;                      \
        const char *const tb = tq, *const eb = eq;                            \
        const char *const te = j.ts == 2 ? tb + j.Q * 64 * W : NULL;          \
        const char *const ee = j.es == 2 ? eb + j.Q * 64 * W : NULL;          \
        for (; g + P <= G; g += P) {                                          \
            _Pragma("GCC unroll 3") for (size_t h = 0; h < P; h++) {          \
                crep_group##bits(&j, i, rt + h * W, re + h * W, tr, er,       \
                                 j.nt, tq, eq);                               \
                opt_crep_step(&j, q, m), i += 64;                             \
                tq += 64 * W, eq += 64 * W;                                   \
            }                                                                 \
            if (wq) /* a tile of Q groups starts again */                     \
                tq = tq == te ? tb : tq, eq = eq == ee ? eb : eq;             \
        }                                                                     \
        _Pragma("GCC unroll 3") for (size_t h = 0; h + 1 < P; h++) {          \
            if (g + h < G) { /* the period's first groups, same phases */     \
                crep_group##bits(&j, i, rt + h * W, re + h * W, tr, er,       \
                                 j.nt, tq, eq);                               \
                opt_crep_step(&j, q, m), i += 64;                             \
                tq += 64 * W, eq += 64 * W;                                   \
            }                                                                 \
        }                                                                     \
        if (i < n) { /* a register tile repeats: read at the period's start */\
            const size_t s = (i - i0) / 64 % P * 64 * W;                      \
            crep_part##bits(&j, i, n - i, tv, ev, tr ? tb + s : tq,           \
                            er ? eb + s : eq);                                \
        }                                                                     \
    }                                                                         \
    VBMI void opt_crep_x##bits##__avx512(const opt_crep_job *j)               \
    {                                                                         \
        opt_crep_job k = *j;                                                  \
        const int tr = k.ts == 1 || (k.ts == 2 && k.P);                       \
        const int er = k.es == 1 || (k.es == 2 && k.P);                       \
        const int p3 = k.P == 3 && ((tr && k.ts == 2) || (er && k.es == 2));  \
        const int wq = k.Q && (k.ts == 2 || k.es == 2); /* not P: no tr */    \
        k.nt = k.nt && (uintptr_t)k.d % (bits / 8) == 0;                      \
        switch (tr * 2 + er + p3 * 4 + wq * 8) {                              \
        case 0: crep_body##bits(k, 0, 0, 1, 0); break;                        \
        case 1: crep_body##bits(k, 0, 1, 1, 0); break;                        \
        case 2: crep_body##bits(k, 1, 0, 1, 0); break;                        \
        case 3: crep_body##bits(k, 1, 1, 1, 0); break;                        \
        case 5: crep_body##bits(k, 0, 1, 3, 0); break;                        \
        case 6: crep_body##bits(k, 1, 0, 3, 0); break;                        \
        case 8: crep_body##bits(k, 0, 0, 1, 1); break;                        \
        case 9: crep_body##bits(k, 0, 1, 1, 1); break;                        \
        case 10: crep_body##bits(k, 1, 0, 1, 1); break;                       \
        default: crep_body##bits(k, 1, 1, 3, 0); break;                       \
        }                                                                     \
    }

CREP512(8, mask8_t, epi8)
CREP512(16, mask16_t, epi16)
CREP512(32, mask32_t, epi32)
CREP512(64, mask64_t, epi64)
