/* opt_vloop.h - the one loop every SIMD kernel file expands (a template by
 * macros, like SLEEF's helper headers): a file defines a fixed vocabulary
 * for its ISA, includes this, and gets all 24 kernels of the table.
 *
 * Vocabulary a file defines before including (bits = 8, 16, 32, 64):
 *   OPT_ISA              the ISA token of the table (sse2, avx2, avx512)
 *   VT, VBYTES           the vector type and its size in bytes
 *   vzero() vloadu(p) vstoreu(p, v) vstream(p, v)
 *   mask<bits>_t         what cond becomes for one vector of elements
 *   cmask<bits>(c)       the mask of VBYTES/(bits/8) cond bytes at c;
 *                        nonzero bytes are true (COND-NZ-1)
 *   vpick<bits>(m, t, e) lanes of t where cond was true, else of e: a
 *                        bitwise blend, never arithmetic (BITS-1)
 *   vsplat<bits>(p)      the element at p in every lane
 *   OPT_MASKED_TAIL      1: the file defines part<bits>() and
 *                        partfill<bits>() for fewer than one vector of
 *                        elements (AVX-512 masks); 0: this header supplies
 *                        scalar ones and rows of at least a vector finish
 *                        with one overlapping vector instead.
 *   OPT_HALF_STORES      optional, 1: the select and fill loops honour
 *                        OPT_HALF (opt_kernels.h) with HT, hlo(v), hhi(v),
 *                        hstoreu(p, h) and hsel<bits>(d, c, t, e, ts, es,
 *                        tv, ev): one vector's elements in two halves.
 *   OPT_ROW_AHEAD        optional, bytes: the select loops honour the
 *                        OPT_AHEAD_* bits of nt (opt_kernels.h) by calling
 *   vahead(p)            (a prefetch into L1) per vector for d and each
 *                        named operand, this many bytes of output ahead;
 *                        undefined or 0: the bits are ignored.
 *
 * Why the overlapping last vector is safe in place (d == t or d == e, rule
 * IO-ALIAS-1): element i of d depends only on element i of the inputs, so
 * recomputing an element already written yields the same bytes.
 */
#ifndef OPT_ISA
#error "define the ISA vocabulary before including opt_vloop.h"
#endif

#include <string.h>

#include "opt_wrap.h"

/* OPT_WIDE_STORE, optional, 1: the select and fill loops store with
 * vstorew(p, v) (their stores are aligned past the peel from 4 vectors
 * up), the other loops with vstoreu. */
#ifndef OPT_WIDE_STORE
#define OPT_WIDE_STORE 0
static inline void vstorew(char *p, VT v) { vstoreu(p, v); }
#endif

#ifndef OPT_ROW_AHEAD
#define OPT_ROW_AHEAD 0
static inline void vahead(const char *p) { (void)p; }
#endif

/* Loops in halves (OPT_HALF): where the ISA has none, the bit is masked
 * off and these loops are never reached. */
#if defined(OPT_HALF_STORES) && OPT_HALF_STORES
/* A whole row in halves, out of line (hrow<bits>), taken by the kernels'
 * entry: with the branch inside sel<bits>, the kernels' code moved and
 * call_64_f32 went 0.96-0.98 -> 0.85-0.88 of the yardstick. */
#define VL_HROW(bits)                                                        \
    VL_ALWAYS void hfull##bits(size_t n, const uint8_t *c, const char *t,    \
                               const char *e, char *d, const int ts,       \
                               const int es)                               \
    {                                                                        \
        const size_t w = bits / 8, lanes = VBYTES / w;                       \
        const VT tv = ts ? vsplat##bits(t) : vzero();                        \
        const VT ev = es ? vsplat##bits(e) : vzero();                        \
        size_t i = 0, mis = (uintptr_t)d % VBYTES;                           \
        if (mis && mis % w == 0 && n >= 4 * lanes) { /* as sel<bits> */     \
            i = (VBYTES - mis) / w;                                          \
            part##bits(i, c, t, e, d, ts, es, tv, ev);                       \
        }                                                                    \
        for (; i + lanes <= n; i += lanes)                                   \
            hsel##bits(d + i * w, c + i, ts ? t : t + i * w,                 \
                       es ? e : e + i * w, ts, es, tv, ev);                  \
        if (i < n)                                                           \
            part##bits(n - i, c + i, ts ? t : t + i * w,                     \
                       es ? e : e + i * w, d + i * w, ts, es, tv, ev);       \
    }                                                                        \
    static __attribute__((noinline)) void hrow##bits(                        \
        size_t n, const uint8_t *c, const char *t, const char *e, char *d,  \
        int tse)                                                             \
    {                                                                        \
        if (tse & 1)                                                         \
            tse & 2 ? hfull##bits(n, c, t, e, d, 1, 1)                       \
                    : hfull##bits(n, c, t, e, d, 1, 0);                      \
        else                                                                 \
            tse & 2 ? hfull##bits(n, c, t, e, d, 0, 1)                       \
                    : hfull##bits(n, c, t, e, d, 0, 0);                      \
    }
/* The kernels' entry: halves only when nothing else is asked (OPT_NT,
 * OPT_AHEAD_* keep their loops).  hrow takes six arguments, so this is a
 * jump: with a seventh on the stack it was a call, and the kernels then
 * set up a frame on every call (call_64_f32 16.1 -> 16.8-17.7 ns). */
#define VL_HALF(bits, ts, es)                                                \
    if (__builtin_expect((nt & (OPT_HALF | OPT_NT | OPT_AHEAD)) == OPT_HALF, 0)) { \
        hrow##bits(n, c, (const char *)t, (const char *)e, (char *)d,       \
                   (ts) | (es) << 1);                                        \
        return;                                                              \
    }
#define VL_HFILL                                                             \
    {                                                                        \
        const HT lo = hlo(tv), hi = hhi(tv);                                 \
        for (; i + lanes <= n; i += lanes)                                   \
            hstoreu(d + i * w, lo), hstoreu(d + i * w + VBYTES / 2, hi);     \
    }
#else
#define OPT_HALF_STORES 0
#define VL_HROW(bits)
#define VL_HALF(bits, ts, es)
#define VL_HFILL
#endif

#define VL_KNAME(isa, bits, kind) OPT_KERNEL_NAME(isa, bits, kind)
#define VL_WNAME(isa, bits) OPT_WRAP_NAME(isa, bits)
#define VL_ALWAYS static inline __attribute__((always_inline))

/* The flat walk's wrap loops (VL_WRAP): opt_vwrap.h. */
#include "opt_vwrap.h"

/* One kernel family per element width. */
#define VL_WIDTH(bits)                                                       \
    VL_PARTS(bits)                                                           \
    VL_WRAP(bits)                                                            \
    VL_HROW(bits)                                                            \
    VL_ALWAYS VT step##bits(const uint8_t *c, const char *t, const char *e,  \
                            size_t i, int ts, int es, VT tv, VT ev)          \
    {                                                                        \
        return vpick##bits(cmask##bits(c + i),                               \
                           ts ? tv : vloadu(t + i * (bits / 8)),             \
                           es ? ev : vloadu(e + i * (bits / 8)));            \
    }                                                                        \
    /* Rows in pairs read their dense streams from L3 while another       \
     * operand comes from L1 or L2, and the hardware prefetchers leave the \
     * loads waiting (midaxis_f16 0.80 of the yardstick; with d's and      \
     * else's lines requested 256 bytes ahead into L1, 0.88-0.94; then's   \
     * too, though it comes from L2: no better).  Per vector, not per      \
     * line; at and ae are constants in each copy (the bits tested per     \
     * vector lost about half the gain). */                                \
    VL_ALWAYS size_t sel_ahead##bits(size_t n, const uint8_t *c,             \
                                     const char *t, const char *e, char *d, \
                                     size_t i, const int ts, const int es,  \
                                     VT tv, VT ev, const int at,            \
                                     const int ae)                          \
    {                                                                        \
        const size_t w = bits / 8, lanes = VBYTES / w;                       \
        for (; i + lanes <= n; i += lanes) {                                 \
            if (at)                                                          \
                vahead(t + i * w + OPT_ROW_AHEAD);                           \
            if (ae)                                                          \
                vahead(e + i * w + OPT_ROW_AHEAD);                           \
            vahead(d + i * w + OPT_ROW_AHEAD);                               \
            vstoreu(d + i * w, step##bits(c, t, e, i, ts, es, tv, ev));      \
        }                                                                    \
        return i;                                                            \
    }                                                                        \
    VL_ALWAYS void sel##bits(size_t n, const uint8_t *c, const char *t,      \
                             const char *e, char *d, const int ts,           \
                             const int es, int nt)                           \
    {                                                                        \
        const size_t w = bits / 8, lanes = VBYTES / w;                       \
        const VT tv = ts ? vsplat##bits(t) : vzero();                        \
        const VT ev = es ? vsplat##bits(e) : vzero();                        \
        size_t i = 0, mis = (uintptr_t)d % VBYTES;                           \
        const int ahead = OPT_ROW_AHEAD ? nt & OPT_AHEAD : 0;                \
        const int at = !ts && ahead & OPT_AHEAD_T;                           \
        const int ae = !es && ahead & OPT_AHEAD_E;                           \
        nt &= OPT_NT;                                                        \
        if (nt && mis % w)                                                   \
            nt = 0; /* elements never meet the alignment streams need */     \
        /* Peel up to the first aligned vector: streams need it, and with    \
         * masked parts (AVX-512) a row of 4+ vectors whose every store     \
         * would split two lines runs faster aligned (rows of 998 bytes in \
         * L2, 1x47x499:6x1x499:6x47x499 f16: 9.4-9.8 -> 8.5-8.8 us). */     \
        if (mis && mis % w == 0 &&                                           \
            (nt || (OPT_MASKED_TAIL && n >= 4 * lanes))) {                   \
            i = (VBYTES - mis) / w;                                          \
            i = i < n ? i : n;                                               \
            part##bits(i, c, t, e, d, ts, es, tv, ev);                       \
        }                                                                    \
        if (nt) {                                                            \
            for (; i + lanes <= n; i += lanes)                               \
                vstream(d + i * w, step##bits(c, t, e, i, ts, es, tv, ev));  \
        } else if (at) { /* never both (opt_exec.c, ahead_bits) */          \
            i = sel_ahead##bits(n, c, t, e, d, i, ts, es, tv, ev, 1, 0);     \
        } else if (ae) {                                                     \
            i = sel_ahead##bits(n, c, t, e, d, i, ts, es, tv, ev, 0, 1);     \
        } else {                                                             \
            for (; i + lanes <= n; i += lanes)                               \
                vstorew(d + i * w, step##bits(c, t, e, i, ts, es, tv, ev));  \
        }                                                                    \
        if (i == n)                                                          \
            return;                                                          \
        if (!OPT_MASKED_TAIL && n >= lanes) {                                \
            i = n - lanes;                                                   \
            vstoreu(d + i * w, step##bits(c, t, e, i, ts, es, tv, ev));      \
            return;                                                          \
        }                                                                    \
        part##bits(n - i, c + i, ts ? t : t + i * w, es ? e : e + i * w,     \
                   d + i * w, ts, es, tv, ev);                               \
    }                                                                        \
    VL_ALWAYS void fill##bits(size_t n, const char *t, char *d, int nt)      \
    {                                                                        \
        const size_t w = bits / 8, lanes = VBYTES / w;                       \
        const VT tv = vsplat##bits(t);                                       \
        size_t i = 0, mis = (uintptr_t)d % VBYTES;                           \
        const int half = OPT_HALF_STORES && nt & OPT_HALF;                   \
        nt &= OPT_NT;                                                        \
        if (nt && mis % w)                                                   \
            nt = 0;                                                          \
        if (nt && mis) {                                                     \
            i = (VBYTES - mis) / w;                                          \
            i = i < n ? i : n;                                               \
            partfill##bits(i, t, d, tv);                                     \
        }                                                                    \
        if (nt) {                                                            \
            for (; i + lanes <= n; i += lanes)                               \
                vstream(d + i * w, tv);                                      \
        } else if (half) {                                                   \
            VL_HFILL                                                         \
        } else {                                                             \
            for (; i + lanes <= n; i += lanes)                               \
                vstorew(d + i * w, tv);                                      \
        }                                                                    \
        if (i == n)                                                          \
            return;                                                          \
        if (!OPT_MASKED_TAIL && n >= lanes) {                                \
            vstoreu(d + (n - lanes) * w, tv);                                \
            return;                                                          \
        }                                                                    \
        partfill##bits(n - i, t, d + i * w, tv);                             \
    }                                                                        \
    void VL_KNAME(OPT_ISA, bits, vvv)(size_t n, const uint8_t *c,            \
                                      const void *t, const void *e, void *d, \
                                      int nt)                                \
    {                                                                        \
        VL_HALF(bits, 0, 0)                                                \
        sel##bits(n, c, (const char *)t, (const char *)e, (char *)d, 0, 0,   \
                  nt);                                                       \
    }                                                                        \
    void VL_KNAME(OPT_ISA, bits, vsv)(size_t n, const uint8_t *c,            \
                                      const void *t, const void *e, void *d, \
                                      int nt)                                \
    {                                                                        \
        VL_HALF(bits, 1, 0)                                                \
        sel##bits(n, c, (const char *)t, (const char *)e, (char *)d, 1, 0,   \
                  nt);                                                       \
    }                                                                        \
    void VL_KNAME(OPT_ISA, bits, vvs)(size_t n, const uint8_t *c,            \
                                      const void *t, const void *e, void *d, \
                                      int nt)                                \
    {                                                                        \
        VL_HALF(bits, 0, 1)                                                \
        sel##bits(n, c, (const char *)t, (const char *)e, (char *)d, 0, 1,   \
                  nt);                                                       \
    }                                                                        \
    void VL_KNAME(OPT_ISA, bits, vss)(size_t n, const uint8_t *c,            \
                                      const void *t, const void *e, void *d, \
                                      int nt)                                \
    {                                                                        \
        VL_HALF(bits, 1, 1)                                                \
        sel##bits(n, c, (const char *)t, (const char *)e, (char *)d, 1, 1,   \
                  nt);                                                       \
    }                                                                        \
    void VL_KNAME(OPT_ISA, bits, fill)(size_t n, const uint8_t *c,           \
                                       const void *t, const void *e,         \
                                       void *d, int nt)                      \
    {                                                                        \
        (void)c, (void)e;                                                    \
        fill##bits(n, (const char *)t, (char *)d, nt);                       \
    }                                                                        \
    void VL_KNAME(OPT_ISA, bits, copy)(size_t n, const uint8_t *c,           \
                                       const void *t, const void *e,         \
                                       void *d, int nt)                      \
    {                                                                        \
        (void)c, (void)e;                                                    \
        copy_bytes(n * (bits / 8), (const char *)t, (char *)d, nt & OPT_NT); \
    }

/* Scalar partial vectors for ISAs without masked stores. */
#if OPT_MASKED_TAIL
#define VL_PARTS(bits)
#else
#define VL_PARTS(bits)                                                       \
    VL_ALWAYS void part##bits(size_t k, const uint8_t *c, const char *t,     \
                              const char *e, char *d, int ts, int es, VT tv, \
                              VT ev)                                         \
    {                                                                        \
        const size_t w = bits / 8;                                           \
        size_t j;                                                            \
        (void)tv, (void)ev;                                                  \
        for (j = 0; j < k; j++)                                              \
            memcpy(d + j * w, c[j] ? (ts ? t : t + j * w)                    \
                                   : (es ? e : e + j * w), w);               \
    }                                                                        \
    VL_ALWAYS void partfill##bits(size_t k, const char *t, char *d, VT tv)   \
    {                                                                        \
        const size_t w = bits / 8;                                           \
        size_t j;                                                            \
        (void)tv;                                                            \
        for (j = 0; j < k; j++)                                              \
            memcpy(d + j * w, t, w);                                         \
    }
#endif

/* Row copies (cond constant on the row): memcpy is as fast as anything in
 * cache; past the last-level cache, streams skip the read-for-ownership. */
static void copy_bytes(size_t n, const char *s, char *d, int nt)
{
    size_t i = 0, mis = (uintptr_t)d % VBYTES;
    if (d == s || n == 0)
        return; /* in place: the row is already there */
    if (!nt) {
        memcpy(d, s, n);
        return;
    }
    if (mis) {
        i = VBYTES - mis < n ? VBYTES - mis : n;
        memcpy(d, s, i);
    }
    for (; i + VBYTES <= n; i += VBYTES)
        vstream(d + i, vloadu(s + i));
    memcpy(d + i, s + i, n - i);
}

OPT_WIDTH_LIST(VL_WIDTH)
