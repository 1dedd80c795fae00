/* opt_neon.c - kernels for AArch64 Advanced SIMD (NEON, 16-byte vectors),
 * the aarch64 baseline.  Defines the vocabulary of opt_vloop.h and expands
 * it.  A pick is one BSL keyed on "cond byte nonzero" (CMTST), so any
 * nonzero byte is true without comparing to 1.
 */
#if !defined(__aarch64__) || !defined(__ARM_NEON)
#error "opt_neon.c needs an AArch64 compiler with Advanced SIMD (-march=armv8-a+simd)"
#endif

#include <arm_neon.h>

#include "opt_kernels.h"

#define OPT_ISA neon
#define OPT_MASKED_TAIL 0
#define VBYTES 16
typedef uint8x16_t VT;

static inline VT vzero(void) { return vdupq_n_u8(0); }
static inline VT vloadu(const char *p) { return vld1q_u8((const uint8_t *)p); }
static inline void vstoreu(char *p, VT v) { vst1q_u8((uint8_t *)p, v); }

/* STNP: a store pair with a non-temporal hint, the two 8-byte halves.
 * Unlike x86 streams it needs no alignment and no fence of its own: the
 * pool's release/acquire (DMB) orders it like any store. */
static inline void vstream(char *p, VT v)
{
    __asm__ volatile("stnp %d1, %d2, [%0]"
                     :
                     : "r"(p), "w"(vget_low_u8(v)), "w"(vget_high_u8(v))
                     : "memory");
}

/* The cond bytes are zero-extended to the lane (UXTL), then each lane is
 * tested against itself (CMTST): all ones exactly where the byte was
 * nonzero.  Loads take exactly the lanes' count of cond bytes. */
typedef VT mask8_t, mask16_t, mask32_t, mask64_t;

static inline VT cmask8(const uint8_t *c)
{
    const VT x = vld1q_u8(c);
    return vtstq_u8(x, x);
}
static inline VT cmask16(const uint8_t *c)
{
    const uint16x8_t x = vmovl_u8(vld1_u8(c));
    return vreinterpretq_u8_u16(vtstq_u16(x, x));
}
static inline VT cmask32(const uint8_t *c)
{
    const uint8x8_t b = vreinterpret_u8_u32(vdup_n_u32((uint32_t)opt_rd32(c)));
    const uint32x4_t x = vmovl_u16(vget_low_u16(vmovl_u8(b)));
    return vreinterpretq_u8_u32(vtstq_u32(x, x));
}
static inline VT cmask64(const uint8_t *c)
{
    const uint8x8_t b = vreinterpret_u8_u16(vdup_n_u16((uint16_t)opt_rd16(c)));
    const uint64x2_t x =
        vmovl_u32(vget_low_u32(vmovl_u16(vget_low_u16(vmovl_u8(b)))));
    return vreinterpretq_u8_u64(vtstq_u64(x, x));
}

/* Bitwise select: lane width does not matter once the mask is widened. */
static inline VT vpick8(VT m, VT t, VT e) { return vbslq_u8(m, t, e); }
static inline VT vpick16(VT m, VT t, VT e) { return vbslq_u8(m, t, e); }
static inline VT vpick32(VT m, VT t, VT e) { return vbslq_u8(m, t, e); }
static inline VT vpick64(VT m, VT t, VT e) { return vbslq_u8(m, t, e); }

static inline VT vsplat8(const char *p) { return vld1q_dup_u8((const uint8_t *)p); }
static inline VT vsplat16(const char *p)
{
    return vreinterpretq_u8_u16(vdupq_n_u16((uint16_t)opt_rd16(p)));
}
static inline VT vsplat32(const char *p)
{
    return vreinterpretq_u8_u32(vdupq_n_u32((uint32_t)opt_rd32(p)));
}
static inline VT vsplat64(const char *p)
{
    return vreinterpretq_u8_u64(vdupq_n_u64((uint64_t)opt_rd64(p)));
}

#include "opt_vloop.h"
