/* opt_avx2.c - kernels for AVX2 (32-byte vectors).  Defines the vocabulary
 * of opt_vloop.h and expands it.  A pick is one vpblendvb keyed on
 * z = (cond == 0), so nonzero bytes are true without comparing to 1.
 */
#if !defined(__AVX2__)
#error "opt_avx2.c needs -mavx2"
#endif

#include <immintrin.h>

#include "opt.h"

#define OPT_ISA avx2
#define OPT_MASKED_TAIL 0
#define VBYTES 32
typedef __m256i VT;
#define VP(p) ((VT *)(void *)(p))
#define CVP(p) ((const VT *)(const void *)(p))
#define CXP(p) ((const __m128i *)(const void *)(p))

static inline VT vzero(void) { return _mm256_setzero_si256(); }
static inline VT vloadu(const char *p) { return _mm256_loadu_si256(CVP(p)); }
static inline void vstoreu(char *p, VT v) { _mm256_storeu_si256(VP(p), v); }
static inline void vstream(char *p, VT v) { _mm256_stream_si256(VP(p), v); }

/* cond bytes are zero-extended to the lane, then compared with 0: the
 * lane is all ones exactly where the cond byte was 0. */
typedef VT mask8_t, mask16_t, mask32_t, mask64_t;

static inline VT cmask8(const uint8_t *c)
{
    return _mm256_cmpeq_epi8(_mm256_loadu_si256(CVP(c)), vzero());
}
static inline VT cmask16(const uint8_t *c)
{
    return _mm256_cmpeq_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128(CXP(c))),
                              vzero());
}
static inline VT cmask32(const uint8_t *c)
{
    return _mm256_cmpeq_epi32(_mm256_cvtepu8_epi32(_mm_loadl_epi64(CXP(c))),
                              vzero());
}
static inline VT cmask64(const uint8_t *c)
{
    return _mm256_cmpeq_epi64(
        _mm256_cvtepu8_epi64(_mm_cvtsi32_si128(opt_rd32(c))), vzero());
}

static inline VT pick(VT z, VT t, VT e) { return _mm256_blendv_epi8(t, e, z); }
static inline VT vpick8(VT z, VT t, VT e) { return pick(z, t, e); }
static inline VT vpick16(VT z, VT t, VT e) { return pick(z, t, e); }
static inline VT vpick32(VT z, VT t, VT e) { return pick(z, t, e); }
static inline VT vpick64(VT z, VT t, VT e) { return pick(z, t, e); }

static inline VT vsplat8(const char *p) { return _mm256_set1_epi8(*p); }
static inline VT vsplat16(const char *p) { return _mm256_set1_epi16(opt_rd16(p)); }
static inline VT vsplat32(const char *p) { return _mm256_set1_epi32(opt_rd32(p)); }
static inline VT vsplat64(const char *p) { return _mm256_set1_epi64x(opt_rd64(p)); }

#include "opt_vloop.h"

/* Expansion passes of opt_block.c: one pshufb per 16 output bytes (SSSE3,
 * present wherever AVX2 is). */
size_t opt_xrep__avx2(const uint8_t *s, size_t avail, uint8_t *d,
                      size_t periods, const opt_xtab *x)
{
    const size_t P = x->P, adv = x->adv;
    size_t p = 0, last;
    if (avail < x->need)
        return 0;
    last = (avail - x->need) / adv + 1; /* periods whose reads stay inside */
    periods = periods < last ? periods : last;
    if (P == 1) { /* the pattern fits one vector: the mask stays in a register */
        const __m128i m = _mm_loadu_si128(CXP(x->mask[0]));
        s += x->off[0];
        for (; p < periods; p++, s += adv, d += 16)
            _mm_storeu_si128((__m128i *)(void *)d, _mm_shuffle_epi8(_mm_loadu_si128(CXP(s)), m));
        return p;
    }
    if (P == 3) { /* three channels (RGB): the masks stay in registers */
        const __m128i m0 = _mm_loadu_si128(CXP(x->mask[0])),
                      m1 = _mm_loadu_si128(CXP(x->mask[1])),
                      m2 = _mm_loadu_si128(CXP(x->mask[2]));
        const size_t o1 = x->off[1], o2 = x->off[2];
        s += x->off[0];
        for (; p < periods; p++, s += adv, d += 48) {
            _mm_storeu_si128((__m128i *)(void *)d, _mm_shuffle_epi8(_mm_loadu_si128(CXP(s)), m0));
            _mm_storeu_si128((__m128i *)(void *)(d + 16),
                             _mm_shuffle_epi8(_mm_loadu_si128(CXP(s + o1 - x->off[0])), m1));
            _mm_storeu_si128((__m128i *)(void *)(d + 32),
                             _mm_shuffle_epi8(_mm_loadu_si128(CXP(s + o2 - x->off[0])), m2));
        }
        return p;
    }
    for (; p < periods; p++, s += adv) {
        for (size_t v = 0; v < P; v++, d += 16)
            _mm_storeu_si128((__m128i *)(void *)d,
                             _mm_shuffle_epi8(_mm_loadu_si128(CXP(s + x->off[v])),
                                              _mm_loadu_si128(CXP(x->mask[v]))));
    }
    return p;
}

/* Groups of blk < 16 bytes, each written n times: the group repeated over
 * a vector (pshufb by j % blk; both 128-bit lanes hold the same 16 source
 * bytes, so the 32-byte mask indexes within each lane) and stored every
 * 32 / blk * blk bytes (one 16-byte store for groups of up to 16), up to 31
 * bytes past the group (the next group, or the caller's slack, takes them):
 * half the stores of 16-byte vectors.  Stops before a 16-byte read would
 * pass avail; returns the groups done. */
size_t opt_xpat__avx2(const uint8_t *s, size_t avail, uint8_t *d,
                      size_t outer, size_t blk, size_t n, const uint8_t *mask)
{
    const size_t bytes = n * blk;
    size_t o = 0;
    if (avail < 16)
        return 0;
    outer = outer < (avail - 16) / blk + 1 ? outer : (avail - 16) / blk + 1;
    if (bytes <= 16) { /* one 16-byte store per group */
        const __m128i m = _mm_loadu_si128(CXP(mask));
        for (; o < outer; o++, s += blk, d += bytes)
            _mm_storeu_si128((__m128i *)(void *)d,
                             _mm_shuffle_epi8(_mm_loadu_si128(CXP(s)), m));
        return o;
    }
    const size_t step = 32 / blk * blk;
    const __m256i m = _mm256_loadu_si256(CVP(mask));
    for (; o < outer; o++, s += blk, d += bytes) {
        const __m256i v = _mm256_shuffle_epi8(
            _mm256_broadcastsi128_si256(_mm_loadu_si128(CXP(s))), m);
        for (size_t i = 0; i < bytes; i += step)
            _mm256_storeu_si256(VP(d + i), v);
    }
    return o;
}

/* Groups of blk >= 16 bytes, each written n times: 32-byte moves, the
 * last one overlapping (two 16-byte moves under 32 bytes), inline: a libc
 * call per copy of 64-512 bytes costs more than the copy, and the blocks
 * are bound by stores, so no byte is stored twice more than it must.
 * Reads only the group, writes exactly its copies. */
void opt_xcopy__avx2(const uint8_t *s, uint8_t *d, size_t outer, size_t blk,
                     size_t n)
{
    if (blk < 32) {
        for (size_t o = 0; o < outer; o++, s += blk) {
            const __m128i a = _mm_loadu_si128(CXP(s)),
                          b = _mm_loadu_si128(CXP(s + blk - 16));
            for (size_t r = 0; r < n; r++, d += blk) {
                _mm_storeu_si128((__m128i *)(void *)d, a);
                _mm_storeu_si128((__m128i *)(void *)(d + blk - 16), b);
            }
        }
        return;
    }
    const size_t last = blk - 32;
    for (size_t o = 0; o < outer; o++, s += blk) {
        for (size_t r = 0; r < n; r++, d += blk) {
            size_t i = 0;
            for (; i < last; i += 32)
                _mm256_storeu_si256(VP(d + i), _mm256_loadu_si256(CVP(s + i)));
            _mm256_storeu_si256(VP(d + last), _mm256_loadu_si256(CVP(s + last)));
        }
    }
}
