/* opt_sse2.c - kernels for SSE2, the x86-64 baseline (16-byte vectors).
 * Defines the vocabulary of opt_vloop.h and expands it.  SSE2 has no
 * variable blend, so a pick is (e AND z) OR (t ANDNOT z), z = (cond == 0).
 */
#if !defined(__SSE2__)
#error "opt_sse2.c needs -msse2"
#endif

#include <emmintrin.h>

#include "opt_kernels.h"

#define OPT_ISA sse2
#define OPT_MASKED_TAIL 0
#define VBYTES 16
typedef __m128i VT;
#define VP(p) ((VT *)(void *)(p))
#define CVP(p) ((const VT *)(const void *)(p))

static inline VT vzero(void) { return _mm_setzero_si128(); }
static inline VT vloadu(const char *p) { return _mm_loadu_si128(CVP(p)); }
static inline void vstoreu(char *p, VT v) { _mm_storeu_si128(VP(p), v); }
static inline void vstream(char *p, VT v) { _mm_stream_si128(VP(p), v); }

/* The masks are "cond byte is 0", widened to the lane by unpacking the
 * compare result with itself (0x00 -> 0x0000, 0xff -> 0xffff, ...). */
typedef VT mask8_t, mask16_t, mask32_t, mask64_t;

static inline VT zero_bytes(VT c)
{
    return _mm_cmpeq_epi8(c, _mm_setzero_si128());
}
static inline VT cmask8(const uint8_t *c)
{
    return zero_bytes(_mm_loadu_si128(CVP(c)));
}
static inline VT cmask16(const uint8_t *c)
{
    VT z = zero_bytes(_mm_loadl_epi64(CVP(c)));
    return _mm_unpacklo_epi8(z, z);
}
static inline VT cmask32(const uint8_t *c)
{
    VT z = zero_bytes(_mm_cvtsi32_si128(opt_rd32(c)));
    z = _mm_unpacklo_epi8(z, z);
    return _mm_unpacklo_epi16(z, z);
}
static inline VT cmask64(const uint8_t *c)
{
    VT z = zero_bytes(_mm_cvtsi32_si128((uint16_t)opt_rd16(c)));
    z = _mm_unpacklo_epi8(z, z);
    z = _mm_unpacklo_epi16(z, z);
    return _mm_unpacklo_epi32(z, z);
}

static inline VT pick(VT z, VT t, VT e)
{
    return _mm_or_si128(_mm_and_si128(z, e), _mm_andnot_si128(z, t));
}
static inline VT vpick8(VT z, VT t, VT e) { return pick(z, t, e); }
static inline VT vpick16(VT z, VT t, VT e) { return pick(z, t, e); }
static inline VT vpick32(VT z, VT t, VT e) { return pick(z, t, e); }
static inline VT vpick64(VT z, VT t, VT e) { return pick(z, t, e); }

static inline VT vsplat8(const char *p) { return _mm_set1_epi8(*p); }
static inline VT vsplat16(const char *p) { return _mm_set1_epi16(opt_rd16(p)); }
static inline VT vsplat32(const char *p) { return _mm_set1_epi32(opt_rd32(p)); }
static inline VT vsplat64(const char *p) { return _mm_set1_epi64x(opt_rd64(p)); }

#include "opt_vloop.h"
