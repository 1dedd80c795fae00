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

/* ---- a cond repeated per element (opt_crep.c) ---------------------------
 * Per 32 elements: their cond bytes in element order, each 16-element
 * half pshufb'd from its own 16-byte window through the index table
 * (pshufb stays within 128-bit lanes), compared with 0 once; then widened
 * to each vector's lanes (vpmovsx: 0xff stays all ones).  Parts of fewer
 * than 32 elements (the tail, the peel to the streams' alignment) are
 * plain C. */
#define CREP_ALWAYS static inline __attribute__((always_inline))

/* 16 cond bytes at c, or the cavail < 16 that remain and zeros. */
CREP_ALWAYS __m128i crep_win(const uint8_t *c, size_t cavail)
{
    uint8_t b[16] = {0};
    if (cavail >= 16)
        return _mm_loadu_si128(CXP(c));
    memcpy(b, c, cavail);
    return _mm_loadu_si128(CXP(b));
}

/* Byte i: all ones where element i of the next 32 has a zero cond. */
CREP_ALWAYS VT crep_z(const opt_crep_job *j)
{
    const size_t a = j->seq[j->r + 16], r1 = j->r + 16 - a * j->C;
    const __m128i w0 = crep_win(j->c, j->cavail);
    const __m128i w1 = a < j->cavail ? crep_win(j->c + a, j->cavail - a)
                                     : _mm_setzero_si128();
    const VT w = _mm256_inserti128_si256(_mm256_castsi128_si256(w0), w1, 1);
    const VT ix = _mm256_inserti128_si256(
        _mm256_castsi128_si256(_mm_loadu_si128(CXP(j->seq + j->r))),
        _mm_loadu_si128(CXP(j->seq + r1)), 1);
    return _mm256_cmpeq_epi8(_mm256_shuffle_epi8(w, ix), vzero());
}

/* Elements i..i+k-1 (k < 32 + 32 / W) one at a time. */
static void crep_plain(const opt_crep_job *j, size_t i, size_t k, size_t W)
{
    for (size_t q = 0; q < k; q++)
        memcpy(j->d + (i + q) * W,
               j->c[j->seq[j->r + q]]
                   ? (j->ts == 1 ? j->t : j->t + (i + q) * W)
                   : (j->es == 1 ? j->e : j->e + (i + q) * W),
               W);
}

/* Vector v of the W that cover 32 elements: z's bytes widened to lanes. */
CREP_ALWAYS __m128i crep_half(VT z, size_t v, size_t W)
{
    return v * (32 / W) >= 16 ? _mm256_extracti128_si256(z, 1)
                       : _mm256_castsi256_si128(z);
}
#define CREP_Z16(z, v) _mm256_cvtepi8_epi16(crep_half(z, v, 2))
#define CREP_Z32(z, v)                                                        \
    _mm256_cvtepi8_epi32((v) & 1 ? _mm_srli_si128(crep_half(z, v, 4), 8)     \
                                 : crep_half(z, v, 4))
#define CREP_Z64(z, v)                                                        \
    _mm256_cvtepi8_epi64(                                                     \
        (v) % 4 == 1   ? _mm_srli_si128(crep_half(z, v, 8), 4)               \
        : (v) % 4 == 2 ? _mm_srli_si128(crep_half(z, v, 8), 8)               \
        : (v) % 4 == 3 ? _mm_srli_si128(crep_half(z, v, 8), 12)              \
                       : crep_half(z, v, 8))

#define CREP2(bits)                                                           \
    CREP_ALWAYS void crep_body##bits(opt_crep_job j, const int ts,            \
                                     const int es, const int nt)              \
    {                                                                         \
        const size_t W = bits / 8, L = 32 / W, n = j.n;                       \
        const VT tv = ts ? vsplat##bits(j.t) : vzero();                       \
        const VT ev = es ? vsplat##bits(j.e) : vzero();                       \
        const size_t mis = (uintptr_t)j.d % 32, q = 32 / j.C, m = 32 % j.C;   \
        size_t i = 0;                                                         \
        if (nt && mis) { /* peel up to the first aligned vector */            \
            i = (32 - mis) / W < n ? (32 - mis) / W : n;                      \
            crep_plain(&j, 0, i, W);                                          \
            opt_crep_adv(&j, i);                                              \
        }                                                                     \
        for (; i + 32 <= n; i += 32) {                                        \
            const VT z = crep_z(&j);                                          \
            _Pragma("GCC unroll 8") for (size_t v = 0; v < W; v++) {          \
                const size_t o = (i + v * L) * W;                             \
                const VT x = pick(CREP_Z##bits(z, v),                         \
                                  ts ? tv : vloadu(j.t + o),                  \
                                  es ? ev : vloadu(j.e + o));                 \
                if (nt)                                                       \
                    vstream(j.d + o, x);                                      \
                else                                                          \
                    vstoreu(j.d + o, x);                                      \
            }                                                                 \
            opt_crep_step(&j, q, m);                                          \
        }                                                                     \
        crep_plain(&j, i, n - i, W);                                          \
    }                                                                         \
    void opt_crep_x##bits##__avx2(const opt_crep_job *j)                      \
    {                                                                         \
        const int nt = j->nt && (uintptr_t)j->d % (bits / 8) == 0;           \
        switch ((j->ts == 1) * 4 + (j->es == 1) * 2 + nt) {                   \
        case 0: crep_body##bits(*j, 0, 0, 0); break;                          \
        case 1: crep_body##bits(*j, 0, 0, 1); break;                          \
        case 2: crep_body##bits(*j, 0, 1, 0); break;                          \
        case 3: crep_body##bits(*j, 0, 1, 1); break;                          \
        case 4: crep_body##bits(*j, 1, 0, 0); break;                          \
        case 5: crep_body##bits(*j, 1, 0, 1); break;                          \
        case 6: crep_body##bits(*j, 1, 1, 0); break;                          \
        default: crep_body##bits(*j, 1, 1, 1); break;                         \
        }                                                                     \
    }

/* No x8 kernel: at one byte per element, two windows and a pshufb per
 * vector cost more than opt_block.c's pshufb expansion and the vvv kernel
 * (pixmask_rgb_u8 at the avx2 level: 0.36-0.38 against 0.51-0.60). */
CREP2(16)
CREP2(32)
CREP2(64)

/* ---- small outputs in 32-byte tiles (opt_vtile.c) -------------------- */

/* The windows' loads may read past an operand's end (never past its
 * page): neither AddressSanitizer nor ThreadSanitizer is to see them (the
 * bytes past it may be another thread's, and are never used).  Every
 * function on the way carries it: clang's fuzz build instrumented vt_get
 * inlined into an unsanitized caller. */
#define VT_NOSAN                                                             \
    __attribute__((always_inline, no_sanitize_address, no_sanitize_thread))

/* Operand bytes for one tile: mode 0 or 2 a straight load, 1 (and 3
 * outside groups, never set there) a shuffle of a 16-byte window (the
 * same in both lanes). */
static inline VT_NOSAN VT vt_get(int m, const char *p, VT ctl)
{
    if (m == 0 || m == 2)
        return vloadu(p);
    return _mm256_shuffle_epi8(
        _mm256_broadcastsi128_si256(_mm_loadu_si128(CXP(p))), ctl);
}

/* One tile from its operands' bytes: each byte from then or else as its
 * element's cond byte says (any nonzero byte is true); z: cond == 0. */
static inline VT_NOSAN void vt_putz(char *d, VT z, VT t, VT e)
{
    vstoreu(d, _mm256_blendv_epi8(t, e, z));
}
static inline VT_NOSAN void vt_put(char *d, VT c, VT t, VT e)
{
    vt_putz(d, _mm256_cmpeq_epi8(c, vzero()), t, e);
}

/* One tile: operand windows at c, t, e (pointers in locals: a store
 * through d may alias *x, and gcc reloaded them every tile). */
static inline VT_NOSAN void
vt_tile(const char *c, const char *t, const char *e, char *d, int mc, int mt,
        int me, VT k0, VT k1, VT k2)
{
    vt_put(d, vt_get(mc, c, k0), vt_get(mt, t, k1), vt_get(me, e, k2));
}
/* Mode 2 (then or else laid out as the output): tile i at byte 32 i, no
 * table entry read. */
#define VT_OFF(m, i, k) ((m) == 2 ? (size_t)(i) * 32 : x->off.h[i][k])
#define VT_TILE(i, mc, mt, me)                                               \
    vt_tile(c + x->off.h[i][0], t + VT_OFF(mt, i, 1), e + VT_OFF(me, i, 2),  \
            d + (size_t)(i) * 32, mc, mt, me, k0, k1, k2)

/* A group's operand: mode 3 its one window (loaded once a group), the
 * others nothing (their tiles load their own). */
static inline VT_NOSAN VT vt_win(int m, const char *p)
{
    if (m != 3)
        return vzero();
    return _mm256_broadcastsi128_si256(_mm_loadu_si128(CXP(p)));
}

/* Tile j's bytes in a group (at delta dj from the group's first tile):
 * mode 3 shuffles the group's window g with tile j's control kj (the
 * tile control's bytes moved by dj), the others are vt_get at dj. */
static inline VT_NOSAN VT vt_gget(int m, const char *p, size_t dj, VT g,
                                  VT k, VT kj)
{
    return m == 3 ? _mm256_shuffle_epi8(g, kj) : vt_get(m, p + dj, k);
}

/* Tile j's cond == 0 bytes in a group: cond in mode 3 compares its
 * group's window once (gz, not four times each tile's shuffled bytes). */
static inline VT_NOSAN VT vt_gz(int m, const char *p, size_t dj, VT gz, VT k,
                                VT kj)
{
    return m == 3 ? _mm256_shuffle_epi8(gz, kj)
                  : _mm256_cmpeq_epi8(vt_get(m, p + dj, k), vzero());
}

/* Tile j's control for mode 3: the tile's window bytes dj further on. */
#define VT_KJ(m, k, dj)                                                      \
    ((m) == 3 ? _mm256_add_epi8(k, _mm256_set1_epi8((char)(dj))) : k)

/* Groups of four tiles (x->groups): one table entry a group, tile 1 of
 * it at the bits' deltas in[0], tile 2 at in[1], tile 3 at both (a
 * fourth of the table to build, and no offset loads for three tiles of
 * four).  A mode-2 operand follows d (its pointer is d plus a constant):
 * with six deltas, gcc spilled and reloaded five of them every group. */
static inline VT_NOSAN void
vt_groups(const opt_vtile *x, const char *c, const char *t, const char *e,
          char *d, int mc, int mt, int me, VT k0, VT k1, VT k2)
{
    const size_t c1 = x->in[0] & 0xffff, c2 = x->in[1] & 0xffff,
                 t1 = mt == 2 ? 32 : x->in[0] >> 16 & 0xffff,
                 t2 = mt == 2 ? 64 : x->in[1] >> 16 & 0xffff,
                 e1 = me == 2 ? 32 : x->in[0] >> 32 & 0xffff,
                 e2 = me == 2 ? 64 : x->in[1] >> 32 & 0xffff;
    const VT c01 = VT_KJ(mc, k0, c1), c02 = VT_KJ(mc, k0, c2),
             c03 = VT_KJ(mc, k0, c1 + c2), t01 = VT_KJ(mt, k1, t1),
             t02 = VT_KJ(mt, k1, t2), t03 = VT_KJ(mt, k1, t1 + t2),
             e01 = VT_KJ(me, k2, e1), e02 = VT_KJ(me, k2, e2),
             e03 = VT_KJ(me, k2, e1 + e2);
    const uintptr_t ts = (uintptr_t)t - (uintptr_t)d,
                    es = (uintptr_t)e - (uintptr_t)d;
    const uint16_t(*o)[4] = x->off.h;
    for (char *const end = d + (size_t)x->groups * 128; d < end;
         d += 128, o++) {
        const char *cg = c + o[0][0],
                   *tg = mt == 2 ? (const char *)((uintptr_t)d + ts)
                                 : t + o[0][1],
                   *eg = me == 2 ? (const char *)((uintptr_t)d + es)
                                 : e + o[0][2];
        const VT gz = _mm256_cmpeq_epi8(vt_win(mc, cg), vzero()),
                 gt = vt_win(mt, tg), ge = vt_win(me, eg);
        vt_putz(d, vt_gz(mc, cg, 0, gz, k0, k0),
                vt_gget(mt, tg, 0, gt, k1, k1), vt_gget(me, eg, 0, ge, k2, k2));
        vt_putz(d + 32, vt_gz(mc, cg, c1, gz, k0, c01),
                vt_gget(mt, tg, t1, gt, k1, t01),
                vt_gget(me, eg, e1, ge, k2, e01));
        vt_putz(d + 64, vt_gz(mc, cg, c2, gz, k0, c02),
                vt_gget(mt, tg, t2, gt, k1, t02),
                vt_gget(me, eg, e2, ge, k2, e02));
        vt_putz(d + 96, vt_gz(mc, cg, c1 + c2, gz, k0, c03),
                vt_gget(mt, tg, t1 + t2, gt, k1, t03),
                vt_gget(me, eg, e1 + e2, ge, k2, e03));
    }
}

/* One loop per mode of cond, then, else over the tiles, in groups of four
 * or two tiles a step (one a step: 15 instructions a tile, the loop's own
 * 4 of them).  A window may read past its operand's end, never past the
 * page the end is on (opt_vtile_run pads the operand when it would). */
#define VTILE(MC, MT, ME)                                                    \
    static __attribute__((no_sanitize_address, no_sanitize_thread)) void     \
        vtile_##MC##MT##ME(const opt_vtile *x)                               \
    {                                                                        \
        const VT k0 = vloadu((const char *)x->ctl[0]),                       \
                 k1 = vloadu((const char *)x->ctl[1]),                       \
                 k2 = vloadu((const char *)x->ctl[2]);                       \
        const char *c = (const char *)x->c, *t = x->t, *e = x->e;            \
        char *d = x->d;                                                      \
        const int32_t n = x->tiles;                                          \
        int32_t i = 0;                                                       \
        if (x->groups) {                                                     \
            vt_groups(x, c, t, e, d, MC, MT, ME, k0, k1, k2);                \
            return;                                                          \
        }                                                                    \
        for (; i + 1 < n; i += 2) {                                          \
            VT_TILE(i, MC, MT, ME);                                          \
            VT_TILE(i + 1, MC, MT, ME);                                      \
        }                                                                    \
        if (i < n)                                                           \
            VT_TILE(i, MC, MT, ME);                                          \
    }
#define VTILE_E(MC, MT)                                                      \
    VTILE(MC, MT, 0) VTILE(MC, MT, 1) VTILE(MC, MT, 2) VTILE(MC, MT, 3)
#define VTILE_T(MC)                                                          \
    VTILE_E(MC, 0) VTILE_E(MC, 1) VTILE_E(MC, 2) VTILE_E(MC, 3)
VTILE_T(0)
VTILE_T(1)
VTILE_T(3)
#define VTILE_ROW(MC, MT)                                                    \
    {vtile_##MC##MT##0, vtile_##MC##MT##1, vtile_##MC##MT##2,                \
     vtile_##MC##MT##3}
#define VTILE_TAB(MC)                                                        \
    {VTILE_ROW(MC, 0), VTILE_ROW(MC, 1), VTILE_ROW(MC, 2), VTILE_ROW(MC, 3)}

/* Cond is 0, 1 or 3 (opt_vtile.c gives it no mode 2); then and else 0-3. */
void opt_vtile__avx2(const opt_vtile *x)
{
    static void (*const fns[3][4][4])(const opt_vtile *) = {
        VTILE_TAB(0), VTILE_TAB(1), VTILE_TAB(3)};
    fns[x->mode[0] & 2 ? 2 : x->mode[0]][x->mode[1]][x->mode[2]](x);
}
