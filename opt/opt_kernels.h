/* opt_kernels.h - the kernel table of the optimized backend, as X-macros.
 * One row per (ISA, element width, loop kind); expanded for declarations
 * (here), the dispatch table (opt_dispatch.c), the kernel test and the bench.
 *
 * A kernel moves bits, so it is chosen by element width, never by dtype:
 * x8, x16, x32, x64.  The loop kinds say which operands advance along the
 * inner (contiguous) axis and which stay put ("v" vector, "s" scalar), in
 * the order cond, then, else:
 *   vvv   d[i] = c[i] ? t[i] : e[i]
 *   vsv   d[i] = c[i] ? t[0] : e[i]       (then broadcast along the row)
 *   vvs   d[i] = c[i] ? t[i] : e[0]       (else broadcast: attention masks)
 *   vss   d[i] = c[i] ? t[0] : e[0]
 *   fill  d[i] = t[0]                     (cond constant on the row)
 *   copy  d[i] = t[i]                     (cond constant on the row)
 * c, e are unused by fill and copy.  Any nonzero cond byte is true
 * (COND-NZ-1).  No alignment is assumed (IO-ALIGN-1); d may equal t or e
 * (in place, IO-ALIAS-1) but overlap them no other way.  nt's bit 0
 * (OPT_NT) asks for non-temporal stores where the alignment allows (a
 * kernel may ignore it); the OPT_AHEAD_* bits ask a select kernel (vvv,
 * vsv, vvs, vss) with regular stores to request the named inputs' lines
 * and d's some way ahead of its loads (rows in pairs, opt_exec.c; ISAs
 * that do not define OPT_ROW_AHEAD in opt_vloop.h's vocabulary ignore them).
 * Kernels do not fence them: the caller calls opt_fence() once after its
 * last kernel call, since a fence per row costs more than the streams gain
 * on short rows.
 */
#ifndef OPT_KERNELS_H
#define OPT_KERNELS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef void opt_kernel_fn(size_t n, const uint8_t *c, const void *t,
                           const void *e, void *d, int nt);

/* The bits of a kernel's nt argument (above). */
#define OPT_NT 1
#define OPT_AHEAD_T 2
#define OPT_AHEAD_E 4
#define OPT_AHEAD (OPT_AHEAD_T | OPT_AHEAD_E)
/* Regular stores past L2 (opt_exec.c): a select or fill kernel whose ISA
 * defines OPT_HALF_STORES (AVX-512) runs its loop in 256-bit halves. */
#define OPT_HALF 8

/* An element's bits from any address (no alignment is promised), for
 * the splats of the ISA files. */
static inline int16_t opt_rd16(const void *p)
{
    int16_t v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline int32_t opt_rd32(const void *p)
{
    int32_t v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline int64_t opt_rd64(const void *p)
{
    int64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* Orders the non-temporal stores of earlier kernel calls before any later
 * store (sfence): due before the results are handed to another thread or
 * back to the caller. */
#if defined(__x86_64__)
#include <xmmintrin.h>
static inline void opt_fence(void)
{
    _mm_sfence();
}
#else
static inline void opt_fence(void)
{
}
#endif

/* Loop kinds, in table order. */
#define OPT_KIND_LIST(X) X(vvv) X(vsv) X(vvs) X(vss) X(fill) X(copy)
enum {
#define OPT_KIND_ENUM(k) OPT_K_##k,
    OPT_KIND_LIST(OPT_KIND_ENUM)
#undef OPT_KIND_ENUM
    OPT_K_COUNT
};

/* Element widths in bits, in table order (index = log2(bytes)). */
#define OPT_WIDTH_LIST(X) X(8) X(16) X(32) X(64)
#define OPT_WIDTH_COUNT 4

/* ISA levels, lowest first.  Only the scalar level exists off x86-64 and
 * aarch64 (where NEON is the baseline: every AArch64 CPU has it). */
#if defined(__x86_64__)
#define OPT_ISA_LIST(X) X(scalar) X(sse2) X(avx2) X(avx512)
#elif defined(__aarch64__)
#define OPT_ISA_LIST(X) X(scalar) X(neon)
#else
#define OPT_ISA_LIST(X) X(scalar)
#endif
enum {
#define OPT_ISA_ENUM(i) OPT_ISA_##i,
    OPT_ISA_LIST(OPT_ISA_ENUM)
#undef OPT_ISA_ENUM
    OPT_ISA_COUNT
};

/* Every kernel: X(isa, bits, kind).  Named opt_x<bits>_<kind>__<isa>. */
#define OPT_KERNELS_OF_WIDTH(X, isa, bits)                                  \
    X(isa, bits, vvv) X(isa, bits, vsv) X(isa, bits, vvs) X(isa, bits, vss) \
    X(isa, bits, fill) X(isa, bits, copy)
#define OPT_KERNELS_OF_ISA(X, isa)                                          \
    OPT_KERNELS_OF_WIDTH(X, isa, 8) OPT_KERNELS_OF_WIDTH(X, isa, 16)        \
    OPT_KERNELS_OF_WIDTH(X, isa, 32) OPT_KERNELS_OF_WIDTH(X, isa, 64)
#if defined(__x86_64__)
#define OPT_KERNELS(X)                                                      \
    OPT_KERNELS_OF_ISA(X, scalar) OPT_KERNELS_OF_ISA(X, sse2)               \
    OPT_KERNELS_OF_ISA(X, avx2) OPT_KERNELS_OF_ISA(X, avx512)
#elif defined(__aarch64__)
#define OPT_KERNELS(X) OPT_KERNELS_OF_ISA(X, scalar) OPT_KERNELS_OF_ISA(X, neon)
#else
#define OPT_KERNELS(X) OPT_KERNELS_OF_ISA(X, scalar)
#endif

#define OPT_KERNEL_NAME(isa, bits, kind) opt_x##bits##_##kind##__##isa
#define OPT_KERNEL_DECL(isa, bits, kind) \
    opt_kernel_fn OPT_KERNEL_NAME(isa, bits, kind);
OPT_KERNELS(OPT_KERNEL_DECL)
#undef OPT_KERNEL_DECL

#endif
