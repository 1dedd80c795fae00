/* opt_avx512_chunk.c - the chunk programs' loop (opt_chunk.c): small
 * outputs of any shape as 64-byte chunks, each operand's bytes spread by
 * VBMI's vpermb.  Compiled with the AVX-512 level's flags; each function
 * carries target("avx512vbmi") and runs only where opt_cpu_vbmi() says so.
 */
#if !defined(__AVX512F__) || !defined(__AVX512BW__) || !defined(__AVX512VL__)
#error "opt_avx512_chunk.c needs -mavx512f -mavx512bw -mavx512vl"
#endif

#include <immintrin.h>

#include "opt.h"

#define VBMI __attribute__((target("avx512vbmi")))

/* ---- small outputs in 64-byte chunks (opt_chunk.c) ----------------------
 * Per chunk and operand a plain load of the window (it may read past the
 * operand, never past its page) and vpermb (vpermi2b of two loads when
 * the bytes lie in two windows; an operand of at most 128 bytes is
 * loaded once per call into two registers, and each chunk only permutes
 * them), then vptestmb of cond's bytes and a byte blend: about 20
 * instructions per 64 output bytes whatever the shape. */
static const uint64_t chunk_len[65] = {
#define CL1(n) (n) ? ~0ull >> ((64 - (n)) & 63) : 0
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
 * window of 64 bytes; 2: two; 3: one of up to 32 bytes, loaded as 32 and
 * broadcast to both halves; 4: the operand's bytes held in w0, w1),
 * windows at p and p2, control at ix.  Plain loads: on Zen 4 a masked
 * load across a cache line took 2.5 times as long. */
CHUNK_FN __m512i chunk_op(const char *p, const char *p2, const uint8_t *ix,
                          int mode, __m512i w0, __m512i w1)
{
    if (mode == 4)
        return _mm512_permutex2var_epi8(w0, _mm512_load_si512(ix), w1);
    if (mode == 3) /* each half holds the window: indices 0-31 */
        return _mm512_permutexvar_epi8(
            _mm512_load_si512(ix),
            _mm512_broadcast_i64x4(_mm256_loadu_si256((const __m256i *)p)));
    const __m512i a = _mm512_loadu_si512(p);
    if (mode == 0)
        return a;
    if (mode == 1)
        return _mm512_permutexvar_epi8(_mm512_load_si512(ix), a);
    return _mm512_permutex2var_epi8(a, _mm512_load_si512(ix),
                                    _mm512_loadu_si512(p2));
}

/* Operand k's bytes 0-63 (h 0) or 64-127 (h 1) for mode 4, under a mask:
 * nothing past its end is read. */
CHUNK_FN __m512i chunk_whole(const opt_chunk *x, const char *const *src,
                             int k, int h)
{
    const uint32_t n = x->inb[k] - (h ? 64 : 0);
    return h && x->inb[k] <= 64
               ? _mm512_setzero_si512()
               : _mm512_maskz_loadu_epi8(chunk_len[n < 64 ? n : 64],
                                         src[k] + (h ? 64 : 0));
}

#define CHUNK_OP(k, m, w0, w1)                                                \
    chunk_op(src[k] + r->off[k], src[k] + r->off2[k], x->ctl + r->ctl[k], m,  \
             w0, w1)
#define CHUNK_OP_AT(i, k, m, w0, w1)                                          \
    chunk_op(src[k] + x->rec[i].off[k], src[k] + x->rec[i].off2[k],           \
             x->ctl + x->rec[i].ctl[k], m, w0, w1)
CHUNK_FN __m512i chunk_at(const opt_chunk *x, const char *const *src,
                          int32_t i, const int m0, const int m1, const int m2,
                          __m512i c0, __m512i c1, __m512i t0, __m512i t1,
                          __m512i e0, __m512i e1)
{
    const opt_chunk_rec *r = &x->rec[i];
    const __m512i c = CHUNK_OP(0, m0, c0, c1), t = CHUNK_OP(1, m1, t0, t1),
                  e = CHUNK_OP(2, m2, e0, e1);
    return _mm512_mask_blend_epi8(_mm512_test_epi8_mask(c, c), e, t);
}

/* Chunks 0..n-1 with whole-vector loads, specialized by the modes; and
 * chunk n, the last, stored under a mask (last).  Mode 4 operands are
 * loaded once here. */
CHUNK_FN void chunk_main(const opt_chunk *x, const char *const *src, char *d,
                         int32_t n, const int last, const int m0,
                         const int m1, const int m2)
{
#define W(k, m, h) (m == 4 ? chunk_whole(x, src, k, h) : _mm512_setzero_si512())
    const __m512i c0 = W(0, m0, 0), c1 = W(0, m0, 1), t0 = W(1, m1, 0),
                  t1 = W(1, m1, 1), e0 = W(2, m2, 0), e1 = W(2, m2, 1);
#undef W
    for (int32_t i = 0; i < n; i++)
        _mm512_storeu_si512(d + (size_t)i * 64,
                            chunk_at(x, src, i, m0, m1, m2, c0, c1, t0, t1,
                                     e0, e1));
    if (last)
        _mm512_mask_storeu_epi8(d + (size_t)n * 64, chunk_len[x->tail],
                                chunk_at(x, src, n, m0, m1, m2, c0, c1, t0,
                                         t1, e0, e1));
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

/* chunk_main by the modes (125 loops; each about 100 bytes of code). */
#define CHUNK5(a, b, n, last)                                                 \
    case a * 25 + b * 5: chunk_main(x, src, d, n, last, a, b, 0); break;      \
    case a * 25 + b * 5 + 1: chunk_main(x, src, d, n, last, a, b, 1); break;  \
    case a * 25 + b * 5 + 2: chunk_main(x, src, d, n, last, a, b, 2); break;  \
    case a * 25 + b * 5 + 3: chunk_main(x, src, d, n, last, a, b, 3); break;  \
    case a * 25 + b * 5 + 4: chunk_main(x, src, d, n, last, a, b, 4); break;
#define CHUNK25(a, n, last)                                                   \
    CHUNK5(a, 0, n, last) CHUNK5(a, 1, n, last) CHUNK5(a, 2, n, last)         \
    CHUNK5(a, 3, n, last) CHUNK5(a, 4, n, last)
#define CHUNK_MODES(n, last)                                                  \
    switch (x->mode[0] * 25 + x->mode[1] * 5 + x->mode[2]) {                  \
        CHUNK25(0, n, last) CHUNK25(1, n, last) CHUNK25(2, n, last)           \
        CHUNK25(3, n, last) CHUNK25(4, n, last)                               \
    }

/* Operands near the end of a page: the small ones copied to a padded
 * buffer (then every chunk up to x->safe runs the usual loop); the
 * chunks from there, that would still read past an end, under masks
 * (chunk_tail). */
static __attribute__((noinline, no_sanitize_address)) VBMI void
chunk_pad(const opt_chunk *x, const char *c, const char *t, const char *e,
          char (*pad)[OPT_CHUNK_PAD + 128])
{
    const char *const src[3] = {c, t, e};
    for (int k = 0; k < 3; k++)
        for (uint32_t o = 0; x->pad[k] && o < x->inb[k]; o += 64) {
            const __mmask64 m =
                chunk_len[x->inb[k] - o < 64 ? x->inb[k] - o : 64];
            _mm512_storeu_si512(pad[k] + o,
                                _mm512_maskz_loadu_epi8(m, src[k] + o));
        }
}

static __attribute__((noinline, no_sanitize_address)) VBMI void
chunk_tail(const opt_chunk *x, const char *const *src, char *d)
{
#define TWO(k) (x->mode[k] == 2 || x->mode[k] == 4) /* 4: bytes 64-127 */
    if (TWO(0) || TWO(1) || TWO(2)) /* 1, 3: n1 0 */
        chunk_rest(x, src, d, 1);
    else
        chunk_rest(x, src, d, 0);
#undef TWO
}

/* Operand k's bytes for chunk i, its mode read at run time (the chunks of
 * one period, and the last, in chunk_per). */
CHUNK_FN __m512i chunk_any(const opt_chunk *x, const char *const *src,
                           int32_t i, int k, __m512i w0, __m512i w1)
{
    switch (x->mode[k]) {
    case 0: return CHUNK_OP_AT(i, k, 0, w0, w1);
    case 1: return CHUNK_OP_AT(i, k, 1, w0, w1);
    case 2: return CHUNK_OP_AT(i, k, 2, w0, w1);
    case 3: return CHUNK_OP_AT(i, k, 3, w0, w1);
    default: return CHUNK_OP_AT(i, k, 4, w0, w1);
    }
}

/* Full chunks 0..n-1 of a program with a period of q chunks: dense
 * operands (dc, dt, de) loaded at dst's place, the others' bytes (cond's
 * as its mask) taken from pm, pt, pe, computed once for the period.  With
 * none dense, pt holds the blended chunks. */
CHUNK_FN void per_main(const char *const *src, char *d, int32_t n, int32_t q,
                       const __mmask64 *pm, const __m512i *pt,
                       const __m512i *pe, const int dc, const int dt,
                       const int de)
{
    for (int32_t i = 0; i < n;) {
        const int32_t e = n - i < q ? n - i : q;
        for (int32_t j = 0; j < e; j++, i++) {
            const size_t o = (size_t)i * 64;
            const __m512i c = dc ? _mm512_loadu_si512(src[0] + o) : pt[j];
            const __mmask64 m = dc ? _mm512_test_epi8_mask(c, c) : pm[j];
            __m512i tv = dt ? _mm512_loadu_si512(src[1] + o) : pt[j],
                    ev = de ? _mm512_loadu_si512(src[2] + o) : pe[j];
            if (dt) /* in registers: a blend that folds a load waits for
                the mask (Zen 5) */
                __asm__("" : "+v"(tv));
            if (de)
                __asm__("" : "+v"(ev));
            _mm512_storeu_si512(d + o, dc | dt | de
                                           ? _mm512_mask_blend_epi8(m, ev, tv)
                                           : tv);
        }
    }
}

/* A program with a period (x->per): each operand not dense is computed
 * for the period's chunks once (a chunk of the usual loop costs 5-6
 * loads, two of them controls; here 1-3), then the full chunks, then the
 * last under a mask.  Only where no load reads past a page (!near). */
static __attribute__((noinline, no_sanitize_address)) VBMI void
chunk_per(const opt_chunk *x, const char *const *src, char *d)
{
    __m512i pt[OPT_CHUNK_PER + 16], pe[OPT_CHUNK_PER + 16], w[3][2], v[3];
    __mmask64 pm[OPT_CHUNK_PER + 16];
    const int dn = x->dense;
    const int32_t n = x->chunks - 1;
    int32_t q = x->per;
    for (int k = 0; k < 3; k++)
        for (int h = 0; h < 2; h++)
            w[k][h] = x->mode[k] == 4 ? chunk_whole(x, src, k, h)
                                      : _mm512_setzero_si512();
    for (int k = 0; k < 3; k++) /* an operand at a time: its registers */
        for (int32_t j = 0; !(dn >> k & 1) && j < q; j++) {
            const __m512i a =
                x->mode[k] == 4
                    ? _mm512_permutex2var_epi8(
                          w[k][0],
                          _mm512_load_si512(x->ctl + x->rec[j].ctl[k]),
                          w[k][1])
                    : chunk_any(x, src, j, k, w[k][0], w[k][1]);
            if (k == 0)
                pm[j] = _mm512_test_epi8_mask(a, a);
            else
                (k == 1 ? pt : pe)[j] = a;
        }
    for (int32_t j = 0; !dn && j < q; j++)
        pt[j] = _mm512_mask_blend_epi8(pm[j], pe[j], pt[j]);
    for (; q < 16; q += x->per) /* periods of 16 chunks or more: fewer
        ends of the inner loop */
        for (int32_t j = 0; j < x->per; j++)
            pm[q + j] = pm[j], pt[q + j] = pt[j], pe[q + j] = pe[j];
    switch (dn) {
#define PER(b)                                                                \
    case b:                                                                   \
        per_main(src, d, n, q, pm, pt, pe, b & 1, b >> 1 & 1, b >> 2 & 1);    \
        break;
        PER(0) PER(1) PER(2) PER(3) PER(4) PER(5) PER(6)
#undef PER
    }
    for (int k = 0; k < 3; k++)
        v[k] = chunk_any(x, src, n, k, w[k][0], w[k][1]);
    _mm512_mask_storeu_epi8(
        d + (size_t)n * 64, chunk_len[x->tail],
        _mm512_mask_blend_epi8(_mm512_test_epi8_mask(v[0], v[0]), v[2],
                               v[1]));
}

/* One copy of the 125 loops serves both cases (two doubled the file's
 * compile time).  Aligned to a line, so the loops' offsets do not move
 * with what is linked before them (48 bytes into a line: 2x1x9:
 * 1x2x1x15x2x3x9:2x1x1x2x3x9 i32 5% slower). */
__attribute__((no_sanitize_address, aligned(64))) VBMI void
opt_chunk__avx512(const opt_chunk *x, const void *c, const void *t,
                  const void *e, void *dst)
{
    char pad[3][OPT_CHUNK_PAD + 128];
    const char *src[3] = {(const char *)c, (const char *)t, (const char *)e};
    char *const d = (char *)dst;
    int near = 0, last = 1;
    int32_t n = x->chunks - 1;
    for (int k = 0; k < 3; k++) { /* loads past the end stay on its page */
        const uintptr_t end = (uintptr_t)src[k] + x->inb[k] - 1;
        near |= x->mode[k] != 4 && end >> 12 != (end + 63) >> 12;
    }
    if (!near && x->per) {
        chunk_per(x, src, d);
        return;
    }
    if (near) {
        chunk_pad(x, src[0], src[1], src[2], pad);
        for (int k = 0; k < 3; k++)
            src[k] = x->pad[k] ? pad[k] : src[k];
        n = x->safe, last = 0;
    }
    CHUNK_MODES(n, last)
    if (near)
        chunk_tail(x, src, d);
}
