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
static inline void vstoreu(char *p, VT v) { _mm512_storeu_si512(p, v); }
static inline void vstream(char *p, VT v) { _mm512_stream_si512((void *)p, v); }

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

/* mask_blend(k, a, b) takes b where k is set. */
static inline VT vpick8(mask8_t m, VT t, VT e)
{
    return _mm512_mask_blend_epi8(m, e, t);
}
static inline VT vpick16(mask16_t m, VT t, VT e)
{
    return _mm512_mask_blend_epi16(m, e, t);
}
static inline VT vpick32(mask32_t m, VT t, VT e)
{
    return _mm512_mask_blend_epi32(m, e, t);
}
static inline VT vpick64(mask64_t m, VT t, VT e)
{
    return _mm512_mask_blend_epi64(m, e, t);
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

/* ---- small outputs in 64-byte chunks (opt_chunk.c) ----------------------
 * Per chunk and operand one load of the window under a mask (nothing
 * outside the window is read: masked-off bytes do not fault) and vpermb
 * (vpermi2b of two loads when the bytes lie in two windows), then
 * vptestmb of cond's bytes and a byte blend: about 30 instructions per 64
 * output bytes whatever the shape. */
static const uint64_t chunk_len[65] = {
#define CL1(n) (n) ? ~0ull >> (64 - (n)) : 0
#define CL8(n) CL1(n), CL1(n + 1), CL1(n + 2), CL1(n + 3), CL1(n + 4),       \
               CL1(n + 5), CL1(n + 6), CL1(n + 7)
    CL8(0), CL8(8), CL8(16), CL8(24), CL8(32), CL8(40), CL8(48), CL8(56), ~0ull,
#undef CL8
#undef CL1
};

/* Loads here may read past an operand's last byte (never past the page
 * it is on: opt_chunk__avx512 checks): ASan would call that an overflow. */
#define CHUNK_FN                                                              \
    static inline __attribute__((always_inline, no_sanitize_address)) VBMI

/* Operand k's bytes for a chunk (mode 0: the window in order; 1: one
 * window of 64 bytes; 2: two), windows at p and p2, control at ix.  Plain
 * loads: on Zen 4 a masked load across a cache line took 2.5 times as
 * long. */
CHUNK_FN __m512i chunk_op(const char *p, const char *p2, const uint8_t *ix,
                          int mode)
{
    if (mode == 3) /* every lane holds the window: indices 0-15 */
        return _mm512_permutexvar_epi8(
            _mm512_load_si512(ix),
            _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)p)));
    const __m512i a = _mm512_loadu_si512(p);
    if (mode == 0)
        return a;
    if (mode == 1)
        return _mm512_permutexvar_epi8(_mm512_load_si512(ix), a);
    return _mm512_permutex2var_epi8(a, _mm512_load_si512(ix),
                                    _mm512_loadu_si512(p2));
}

#define CHUNK_OP(k, m)                                                        \
    chunk_op(src[k] + r->off[k], src[k] + r->off2[k], x->ctl + r->ctl[k], m)
CHUNK_FN __m512i chunk_at(const opt_chunk *x, const char *const *src,
                          int32_t i, const int m0, const int m1, const int m2)
{
    const opt_chunk_rec *r = &x->rec[i];
    const __m512i c = CHUNK_OP(0, m0), t = CHUNK_OP(1, m1),
                  e = CHUNK_OP(2, m2);
    return _mm512_mask_blend_epi8(_mm512_test_epi8_mask(c, c), e, t);
}

/* Chunks 0..n-1 with whole-vector loads, specialized by the modes; and
 * chunk n, the last, stored under a mask (last). */
CHUNK_FN void chunk_main(const opt_chunk *x, const char *const *src, char *d,
                         int32_t n, const int last, const int m0,
                         const int m1, const int m2)
{
    for (int32_t i = 0; i < n; i++)
        _mm512_storeu_si512(d + (size_t)i * 64,
                            chunk_at(x, src, i, m0, m1, m2));
    if (last)
        _mm512_mask_storeu_epi8(d + (size_t)n * 64, chunk_len[x->tail],
                                chunk_at(x, src, n, m0, m1, m2));
}

/* The chunks from safe on: each window loaded under its mask (nothing
 * past it is read), the last chunk stored under one; two: some window is
 * wider than 64 bytes. */
CHUNK_FN void chunk_rest(const opt_chunk *x, const char *const *src,
                         char *d, const int two)
{
    for (int32_t i = x->safe; i < x->chunks; i++) {
        const opt_chunk_rec *r = &x->rec[i];
        __m512i v[3];
        _Pragma("GCC unroll 3") for (int k = 0; k < 3; k++) {
            const char *p = src[k] + r->off[k];
            const __m512i ix = _mm512_load_si512(x->ctl + r->ctl[k]),
                          a = _mm512_maskz_loadu_epi8(chunk_len[r->n0[k]], p);
            v[k] = two ? _mm512_permutex2var_epi8(
                             a, ix,
                             _mm512_maskz_loadu_epi8(chunk_len[r->n1[k]],
                                                     src[k] + r->off2[k]))
                       : _mm512_permutexvar_epi8(ix, a);
        }
        _mm512_mask_storeu_epi8(
            d + (size_t)i * 64, chunk_len[i + 1 < x->chunks ? 64 : x->tail],
            _mm512_mask_blend_epi8(_mm512_test_epi8_mask(v[0], v[0]), v[2],
                                   v[1]));
    }
}

/* chunk_main by the modes (64 loops; each about 100 bytes of code). */
#define CHUNK4(a, b, n, last)                                                 \
    case a * 16 + b * 4: chunk_main(x, src, d, n, last, a, b, 0); break;      \
    case a * 16 + b * 4 + 1: chunk_main(x, src, d, n, last, a, b, 1); break;  \
    case a * 16 + b * 4 + 2: chunk_main(x, src, d, n, last, a, b, 2); break;  \
    case a * 16 + b * 4 + 3: chunk_main(x, src, d, n, last, a, b, 3); break;
#define CHUNK16(a, n, last)                                                   \
    CHUNK4(a, 0, n, last) CHUNK4(a, 1, n, last) CHUNK4(a, 2, n, last)         \
    CHUNK4(a, 3, n, last)
#define CHUNK_MODES(n, last)                                                  \
    switch (x->mode[0] * 16 + x->mode[1] * 4 + x->mode[2]) {                  \
        CHUNK16(0, n, last) CHUNK16(1, n, last) CHUNK16(2, n, last)           \
        CHUNK16(3, n, last)                                                   \
    }

/* Operands near the end of a page: the small ones copied to a padded
 * buffer, the chunks that would still read past an end under masks. */
static __attribute__((noinline, no_sanitize_address)) VBMI void
chunk_slow(const opt_chunk *x, const char **src, char *d)
{
    _Alignas(64) char pad[3][OPT_CHUNK_PAD + 128];
    for (int k = 0; k < 3; k++)
        if (x->pad[k]) {
            for (uint32_t o = 0; o < x->inb[k]; o += 64) {
                const __mmask64 m =
                    chunk_len[x->inb[k] - o < 64 ? x->inb[k] - o : 64];
                _mm512_store_si512(pad[k] + o,
                                   _mm512_maskz_loadu_epi8(m, src[k] + o));
            }
            src[k] = pad[k];
        }
    CHUNK_MODES(x->safe, 0)
    if (x->mode[0] == 2 || x->mode[1] == 2 || x->mode[2] == 2) /* 3: n1 0 */
        chunk_rest(x, src, d, 1);
    else
        chunk_rest(x, src, d, 0);
}

__attribute__((no_sanitize_address)) VBMI void
opt_chunk__avx512(const opt_chunk *x, const void *c, const void *t,
                  const void *e, void *dst)
{
    const char *src[3] = {(const char *)c, (const char *)t, (const char *)e};
    char *const d = (char *)dst;
    int near = 0;
    for (int k = 0; k < 3; k++) { /* loads past the end stay on its page */
        const uintptr_t end = (uintptr_t)src[k] + x->inb[k] - 1;
        near |= end >> 12 != (end + 63) >> 12;
    }
    if (near) {
        chunk_slow(x, src, d);
        return;
    }
    CHUNK_MODES(x->chunks - 1, 1)
}

/* ---- short rows in 64-byte chunks of byte permutes (opt_ptile.c) --------
 * Per chunk of a block: each operand one load, spread by vpermb through
 * the chunk's control (the same in every block), cond through vptestmb to
 * a byte mask, one byte blend, one store.  A block whose loads would pass
 * an operand's end reads that operand from a copy of its last bytes. */
#define PT_ALWAYS static inline __attribute__((always_inline)) VBMI

/* A window: 64 bytes, or (mode 2) 16 bytes in every lane, which crosses
 * a cache line less often (the controls index below 16 then). */
PT_ALWAYS __m512i pt_win(const char *p, const int mode)
{
    if (mode == 2)
        return _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)p));
    return _mm512_loadu_si512(p);
}

/* The fast loops' block: chunk J (a literal) with the controls rK##J and
 * windows wK##J of pt_loop in named locals (arrays of them were kept on
 * the stack: two more 64-byte loads per chunk). */
#define PT_OP(K, MK, SK, J)                                                   \
    (!(MK) ? _mm512_loadu_si512((SK) + 64 * (J))                              \
           : _mm512_permutexvar_epi8(r##K##J, pt_win((SK) + w##K##J, MK)))
#define PT_CH(J, S0, S1, S2, D)                                               \
    if (NC > (J)) {                                                           \
        __m512i a_ = PT_OP(1, m1, S1, J), b_ = PT_OP(2, m2, S2, J);           \
        if ((J) == 0 || !csame) { /* cond's mask, once when all chunks */    \
            const __m512i c_ = PT_OP(0, m0, S0, J); /* share it */          \
            k_ = _mm512_test_epi8_mask(c_, c_);                               \
        }                                                                     \
        __asm__("" : "+v"(a_), "+v"(b_));                                     \
        a_ = _mm512_mask_blend_epi8(k_, b_, a_);                              \
        if ((J) == NC - 1 && tail != ~0ull)                                   \
            _mm512_mask_storeu_epi8((D) + 64 * (J), tail, a_);                \
        else if (nt)                                                          \
            _mm512_stream_si512((void *)((D) + 64 * (J)), a_);                \
        else                                                                  \
            _mm512_storeu_si512((D) + 64 * (J), a_);                          \
    }
#define PT_BLOCK(S0, S1, S2, D)                                               \
    do {                                                                      \
        __mmask64 k_ = 0;                                                     \
        PT_CH(0, S0, S1, S2, D) PT_CH(1, S0, S1, S2, D)                       \
        PT_CH(2, S0, S1, S2, D) PT_CH(3, S0, S1, S2, D)                       \
    } while (0)
#define PT_REGS(K)                                                            \
    const __m512i r##K##0 = pt_ctl(t, K, 0, NC), r##K##1 = pt_ctl(t, K, 1, NC), \
                  r##K##2 = pt_ctl(t, K, 2, NC), r##K##3 = pt_ctl(t, K, 3, NC); \
    const int64_t w##K##0 = t->win[K][0], w##K##1 = t->win[K][1],             \
                  w##K##2 = t->win[K][2], w##K##3 = t->win[K][3]

/* Chunk j's control of operand k when the block has it. */
PT_ALWAYS __m512i pt_ctl(const opt_ptile *t, int k, int j, const int NC)
{
    return j < NC ? _mm512_load_si512((const void *)t->ctl[k][j])
                  : _mm512_setzero_si512();
}

/* Operand k's base for a block at offset o: the tensor, or near its end
 * the tail copy. */
PT_ALWAYS const char *pt_base(const opt_ptile_job *jb, int k, int64_t o)
{
    return o > jb->lim[k] ? jb->tail[k] + (o - jb->rebase[k])
                          : jb->src[k] + o;
}

/* Blocks [c, run) of a run of level 0, some near an operand's end: from
 * the tensor or the tail copy each, the modes tested per chunk (one
 * version for every mode: few blocks come here). */
static __attribute__((noinline)) VBMI void
pt_near_end(const opt_ptile *t, const opt_ptile_job *jb, char *d, int64_t c,
            int64_t run)
{
    for (int64_t r = c; r < run; r++, d += t->bbytes) {
        const char *s[3];
        for (int k = 0; k < 3; k++)
            s[k] = pt_base(jb, k, jb->off[k] + r * t->step[k][0]);
        for (int j = 0; j < t->nch; j++) {
            __m512i v[3];
            for (int k = 0; k < 3; k++)
                v[k] = !t->mode[k] ? _mm512_loadu_si512(s[k] + 64 * j)
                     : _mm512_permutexvar_epi8(
                           _mm512_load_si512((const void *)t->ctl[k][j]),
                           pt_win(s[k] + t->win[k][j], t->mode[k] == 2 ? 2 : 1));
            v[1] = _mm512_mask_blend_epi8(_mm512_test_epi8_mask(v[0], v[0]),
                                          v[2], v[1]);
            if (j == t->nch - 1 && t->tail != ~0ull)
                _mm512_mask_storeu_epi8(d + 64 * j, t->tail, v[1]);
            else if (jb->nt)
                _mm512_stream_si512((void *)(d + 64 * j), v[1]);
            else
                _mm512_storeu_si512(d + 64 * j, v[1]);
        }
    }
}

/* 1 when n0 x n1 x n2 blocks from the job's state (levels 0, 1, 2) all
 * read clear of each operand's end: the last has the largest offsets. */
PT_ALWAYS int pt_clear(const opt_ptile *t, const opt_ptile_job *jb,
                       int64_t n0, int64_t n1, int64_t n2)
{
    for (int k = 0; k < 3; k++)
        if (jb->off[k] + (n0 - 1) * t->step[k][0] +
                (n1 - 1) * t->step[k][1] + (n2 - 1) * t->step[k][2] >
            jb->lim[k])
            return 0;
    return 1;
}

/* How many blocks of levels 1 and 2 the next run may take whole (*n1,
 * *n2; 1 each when not), the run being level 0 from index 0 on, and how
 * many blocks of the run read clear of the operands' ends (offsets grow
 * along level 0: the first ones). */
PT_ALWAYS int64_t pt_span(const opt_ptile *t, const opt_ptile_job *jb,
                          size_t left, int64_t run, int64_t *n1, int64_t *n2)
{
    const int64_t *dm = t->dims, *ix = jb->idx;
    int64_t c = run;
    *n1 = *n2 = 1;
    if (t->nax > 1 && !ix[0] && !ix[1] && left >= (size_t)(dm[0] * dm[1])) {
        *n1 = dm[1];
        if (t->nax > 2 && !ix[2] && left >= (size_t)(dm[0] * dm[1] * dm[2]))
            *n2 = dm[2];
    }
    if (*n2 > 1 && !pt_clear(t, jb, run, *n1, *n2))
        *n2 = 1;
    if (*n1 > 1 && !pt_clear(t, jb, run, *n1, 1))
        *n1 = 1;
    for (int k = 0; k < 3; k++) {
        const int64_t o = jb->off[k], l = jb->lim[k], st = t->step[k][0];
        const int64_t q = o > l ? -1 : st ? (l - o) / st : run; /* no */
        c = q < c ? q + 1 : c; /* overflow at lim INT64_MAX */
    }
    return c;
}

/* The odometer's levels 0-2 as counted loops of blocks with plain pointers
 * where every block is clear of the operands' ends (a check per block and
 * the state kept in memory cost about twice the chunks; rank8_f32 ran at
 * 0.54 in runs of 8 blocks of 2 chunks, 0.76 in runs of 16 of 4). */
PT_ALWAYS void pt_loop(const opt_ptile *t, opt_ptile_job *jb, const int m0,
                       const int m1, const int m2, const int NC)
{
    const int nt = jb->nt;
    const size_t bb = t->bbytes;
    const int64_t *s0 = t->step[0], *s1 = t->step[1], *s2 = t->step[2];
    size_t left = jb->n;
    char *d = jb->d;
    const uint64_t tail = t->tail;
    const int csame = t->csame;
    PT_REGS(0);
    PT_REGS(1);
    PT_REGS(2);
    while (left) {
        int64_t run = t->dims[0] - jb->idx[0], n1, n2, c;
        run = (size_t)run < left ? run : (int64_t)left;
        c = pt_span(t, jb, left, run, &n1, &n2);
        for (int64_t i2 = 0; i2 < n2 && c; i2++)
                for (int64_t i1 = 0; i1 < n1; i1++) {
                    const char *p0 = jb->src[0] + jb->off[0] + i2 * s0[2] + i1 * s0[1],
                               *p1 = jb->src[1] + jb->off[1] + i2 * s1[2] + i1 * s1[1],
                               *p2 = jb->src[2] + jb->off[2] + i2 * s2[2] + i1 * s2[1];
                    for (int64_t r = 0;;) {
                        PT_BLOCK(p0, p1, p2, d);
                        d += bb;
                        if (++r == c) /* no pointer past the run */
                            break;
                        p0 += s0[0], p1 += s1[0], p2 += s2[0];
                    }
                }
        if (c < run) /* the few blocks near an end */
            pt_near_end(t, jb, d, c, run), d += (size_t)(run - c) * bb;
        /* The state at the last block, then one step of the odometer. */
        for (int k = 0; k < 3; k++)
            jb->off[k] += (n1 - 1) * t->step[k][1] + (n2 - 1) * t->step[k][2] +
                          run * t->step[k][0];
        jb->idx[1] += n1 - 1, jb->idx[2] += n2 - 1;
        left -= (size_t)(run * n1 * n2), jb->idx[0] += run;
        if (jb->idx[0] == t->dims[0] && t->nax > 1) { /* carry */
            int l = 1;
            jb->idx[0] = 0;
            while (++jb->idx[l] == t->dims[l] && l + 1 < t->nax)
                jb->idx[l++] = 0;
            for (int k = 0; k < 3; k++)
                jb->off[k] += t->delta[k][l] - t->step[k][0];
        }
    }
    jb->d = d;
}

#define PT_M2(NC, m0, m1)                                                    \
    case m0 * 9 + m1 * 3 + 0: pt_loop(t, j, m0, m1, 0, NC); break;          \
    case m0 * 9 + m1 * 3 + 1: pt_loop(t, j, m0, m1, 1, NC); break;          \
    case m0 * 9 + m1 * 3 + 2: pt_loop(t, j, m0, m1, 2, NC); break;
#define PT_M1(NC, m0) PT_M2(NC, m0, 0) PT_M2(NC, m0, 1) PT_M2(NC, m0, 2)
#define PT_MODES(NC)                                                         \
    switch (t->mode[0] * 9 + t->mode[1] * 3 + t->mode[2]) {                  \
        PT_M1(NC, 0) PT_M1(NC, 1) PT_M1(NC, 2)                               \
    }

VBMI void opt_ptile_blocks__avx512(const opt_ptile *t, opt_ptile_job *j)
{
    switch (t->nch) {
    case 1: PT_MODES(1) break;
    case 2: PT_MODES(2) break;
    case 3: PT_MODES(3) break;
    default: PT_MODES(4) break;
    }
}
