/* opt_vtile512.c - opt_vtile.c's tiles at AVX-512 where 512-bit operations
 * run whole (not opt_cpu_split512): two 32-byte tiles of a group in one
 * zmm, so one vpshufb, one vptestmb, one blend and one store serve two
 * tiles (tiny_r7_f64: 13 vector instructions a group of four tiles, the
 * AVX2 loop's 22, which bound its warm call).  Zen 4, which runs a zmm as
 * two halves, keeps the AVX2 loop (NOTES: wider tiles lost there).
 * Plans without groups, or with an operand whose pair of tiles needs two
 * loads, keep the AVX2 loop (opt_vtile_wide).
 */
#if !defined(__AVX512BW__)
#error "opt_vtile512.c must be compiled with -mavx512f -mavx512bw"
#endif
#include <immintrin.h>

#include "opt.h"

typedef __m512i VZ;

/* See opt_avx2.c's VT_NOSAN: windows read past an operand's end (never
 * past its page), which neither sanitizer is to see. */
#define VZ_NOSAN                                                             \
    __attribute__((always_inline, no_sanitize_address, no_sanitize_thread))

static inline VZ_NOSAN __m256i ld32(const char *p)
{
    return _mm256_loadu_si256((const __m256i *)(const void *)p);
}
static inline VZ_NOSAN __m256i bc16(const char *p)
{
    return _mm256_broadcastsi128_si256(
        _mm_loadu_si128((const __m128i *)(const void *)p));
}
static inline VZ_NOSAN VZ pair(__m256i lo, __m256i hi)
{
    return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
}

/* Two tiles' bytes of an operand, tiles at p + a and p + b: mode 0 two
 * straight loads, 2 one (the tiles are adjacent, b = a + 32), 1 two
 * 16-byte windows shuffled by kp (the tile control in both halves), 3 the
 * group's window g shuffled by kp (each half's control moved to its
 * tile's bytes), 4 (mode 1 whose two tiles of a pair lie in one 16-byte
 * window: tiny_r8_f32's then) that window, loaded once a pair, shuffled
 * as 3, 5 (mode 0 whose pair of tiles is adjacent: tiny_r3_f32's then) one
 * load as 2. */
static inline VZ_NOSAN VZ vz_get(int m, const char *p, size_t a, size_t b,
                                 VZ g, VZ kp)
{
    if (m == 2 || m == 5)
        return _mm512_loadu_si512((const void *)(p + a));
    if (m == 0)
        return pair(ld32(p + a), ld32(p + b));
    if (m == 1)
        return _mm512_shuffle_epi8(pair(bc16(p + a), bc16(p + b)), kp);
    if (m == 4)
        return _mm512_shuffle_epi8(
            _mm512_broadcast_i32x4(
                _mm_loadu_si128((const __m128i *)(const void *)(p + a))),
            kp);
    return _mm512_shuffle_epi8(g, kp);
}

/* A group's window (mode 3), in all four lanes; nothing for the others. */
static inline VZ_NOSAN VZ vz_win(int m, const char *p)
{
    if (m != 3)
        return _mm512_setzero_si512();
    return _mm512_broadcast_i32x4(
        _mm_loadu_si128((const __m128i *)(const void *)p));
}

/* Two tiles from their operands' bytes: then where cond's byte is
 * nonzero, from registers (a blend's folded load waits for the mask on
 * Zen 5: engineer Z, ninth round). */
static inline VZ_NOSAN void vz_put(char *d, VZ c, VZ t, VZ e)
{
    _mm512_storeu_si512((void *)d,
                        _mm512_mask_blend_epi8(_mm512_test_epi8_mask(c, c),
                                               e, t));
}

/* The pair controls of operand k (ctl, 32 bytes): pair 0 (tiles 0 and 1
 * of a group) and pair 1 (tiles 2 and 3); mode 3 moves each half to its
 * tile's bytes in the group's window (deltas d1, d2), mode 1 repeats the
 * control. */
static inline VZ_NOSAN void vz_ctl(VZ *p0, VZ *p1, int m, const uint8_t *ctl,
                                   size_t d1, size_t d2)
{
    const VZ k = _mm512_broadcast_i64x4(ld32((const char *)ctl));
    if (m != 3 && m != 4) {
        *p0 = *p1 = k;
        return;
    }
    /* mode 4: pair 1's window starts at tile 2's, so both pairs as 0 */
    *p0 = _mm512_add_epi8(k, pair(_mm256_setzero_si256(),
                                  _mm256_set1_epi8((char)d1)));
    *p1 = m == 4 ? *p0
                 : _mm512_add_epi8(k, pair(_mm256_set1_epi8((char)d2),
                                           _mm256_set1_epi8((char)(d1 + d2))));
}

/* Groups of four tiles, as opt_avx2.c's vt_groups: tile 1 at in[0], tile
 * 2 at in[1], tile 3 at both; a mode-2 operand follows d. */
static inline VZ_NOSAN void vz_groups(const opt_vtile *x, int mc, int mt,
                                      int me)
{
    const size_t c1 = x->in[0] & 0xffff, c2 = x->in[1] & 0xffff,
                 t1 = mt == 2 ? 32 : x->in[0] >> 16 & 0xffff,
                 t2 = mt == 2 ? 64 : x->in[1] >> 16 & 0xffff,
                 e1 = me == 2 ? 32 : x->in[0] >> 32 & 0xffff,
                 e2 = me == 2 ? 64 : x->in[1] >> 32 & 0xffff;
    const char *c = (const char *)x->c, *t = x->t, *e = x->e;
    char *d = x->d;
    const uintptr_t ts = (uintptr_t)t - (uintptr_t)d,
                    es = (uintptr_t)e - (uintptr_t)d;
    const uint16_t(*o)[4] = x->off.h;
    VZ kc0, kc1, kt0, kt1, ke0, ke1;
    vz_ctl(&kc0, &kc1, mc, x->ctl[0], c1, c2);
    vz_ctl(&kt0, &kt1, mt, x->ctl[1], t1, t2);
    vz_ctl(&ke0, &ke1, me, x->ctl[2], e1, e2);
    for (char *const end = d + (size_t)x->groups * 128; d < end;
         d += 128, o++) {
        const char *cg = c + o[0][0],
                   *tg = mt == 2 ? (const char *)((uintptr_t)d + ts)
                                 : t + o[0][1],
                   *eg = me == 2 ? (const char *)((uintptr_t)d + es)
                                 : e + o[0][2];
        const VZ gc = vz_win(mc, cg), gt = vz_win(mt, tg),
                 ge = vz_win(me, eg);
        vz_put(d, vz_get(mc, cg, 0, c1, gc, kc0),
               vz_get(mt, tg, 0, t1, gt, kt0), vz_get(me, eg, 0, e1, ge, ke0));
        vz_put(d + 64, vz_get(mc, cg, c2, c1 + c2, gc, kc1),
               vz_get(mt, tg, t2, t1 + t2, gt, kt1),
               vz_get(me, eg, e2, e1 + e2, ge, ke1));
    }
}

/* One loop per mode of cond (3-5), then and else (2-5): the modes whose
 * pair of tiles is one load.  Modes 0 and 1 otherwise pay two loads and
 * an insert a pair, and lost there (tiny_r3_f32's then in mode 0 before
 * mode 5, tiny_r6_f16's else in mode 1: 0.5-1.5 ns slower): such plans
 * keep the AVX2 loop. */
#define VZT(MC, MT, ME)                                                      \
    static __attribute__((no_sanitize_address, no_sanitize_thread)) void     \
        vz_##MC##MT##ME(const opt_vtile *x)                                  \
    {                                                                        \
        vz_groups(x, MC, MT, ME);                                            \
    }
#define VZT_E(MC, MT)                                                        \
    VZT(MC, MT, 2) VZT(MC, MT, 3) VZT(MC, MT, 4) VZT(MC, MT, 5)
#define VZT_T(MC) VZT_E(MC, 2) VZT_E(MC, 3) VZT_E(MC, 4) VZT_E(MC, 5)
VZT_T(3)
VZT_T(4)
VZT_T(5)
#define VZT_ROW(MC, MT)                                                      \
    {vz_##MC##MT##2, vz_##MC##MT##3, vz_##MC##MT##4, vz_##MC##MT##5}
#define VZT_TAB(MC)                                                          \
    {VZT_ROW(MC, 2), VZT_ROW(MC, 3), VZT_ROW(MC, 4), VZT_ROW(MC, 5)}

/* Mode 4 for a mode-1 operand k whose pair of tiles (its tile window
 * plus in[0]) fits 16 bytes, 5 for a mode-0 one whose pair is adjacent
 * (in[0] is 32 bytes). */
static int pair_mode(const opt_vtile *x, int k)
{
    const uint64_t g = x->win + x->in[0], in = x->in[0] >> 16 * k & 0xffff;
    if (x->mode[k] == 1 && (g >> 16 * k & 0xffff) <= 16)
        return 4;
    return x->mode[k] == 0 && in == 32 ? 5 : x->mode[k];
}

int opt_vtile_wide(const opt_vtile *x)
{
    return x->groups && pair_mode(x, 0) >= 3 && pair_mode(x, 1) >= 2 &&
           pair_mode(x, 2) >= 2;
}

void opt_vtile__avx512(const opt_vtile *x)
{
    static void (*const fns[3][4][4])(const opt_vtile *) = {
        VZT_TAB(3), VZT_TAB(4), VZT_TAB(5)};
    fns[pair_mode(x, 0) - 3][pair_mode(x, 1) - 2][pair_mode(x, 2) - 2](x);
}
