/* opt_vtile.c - small outputs in tiles of 32 bytes (AVX2 and up): the
 * inner axes, the last of them perhaps split, make a tile of exactly 32
 * output bytes, and each operand's elements for a tile lie in a window of
 * at most 16 bytes (or is the tile's 32 bytes in order) at an offset that depends on the tile only.  One
 * shuffle control per operand, built once per call, then serves every
 * tile: a rank-8 call of 2x2x...x2 f32 is 32 tiles of about 20
 * instructions each, where the element walk spent an odometer step per
 * row of 2 elements and the blocks 2 600 instructions of setup and passes.
 * This file plans the tiles; opt_avx2.c runs them.
 */
#include <string.h>

#include "opt.h"

/* Three byte offsets (cond, then, else) in one word, 16 bits each: the
 * tables below are built with one add per entry for all three.  Every
 * offset is below OPT_VTILE_MAX, so no field carries into the next. */
static uint64_t pack(const opt_plan *p, int32_t a, int64_t q, uint64_t w)
{
    return (uint64_t)(p->st[0][a] * q) | (uint64_t)(p->st[1][a] * q) * w << 16 |
           (uint64_t)(p->st[2][a] * q) * w << 32;
}

/* The tile's axes, innermost first: the plan's inner axes whose product
 * divides 32 / w, and a factor f of the next one when they are not enough;
 * the outer axes (outer first) are the rest.  0 when no such split. */
typedef struct split {
    int nt, no;
    int64_t td[SEL_MAX_RANK], od[SEL_MAX_RANK];
    uint64_t ts[SEL_MAX_RANK], os[SEL_MAX_RANK];
} split;

static int split_axes(split *s, const opt_plan *p, int64_t T, size_t w)
{
    int32_t a = p->rank - 1;
    int64_t P = 1, f, x; /* T and every accepted product: powers of 2 */
    s->nt = s->no = 0;
    for (; a >= 0 && (x = P * p->dims[a]) <= T && !(x & (x - 1));
         a--, s->nt++) {
        P = x;
        s->td[s->nt] = p->dims[a], s->ts[s->nt] = pack(p, a, 1, w);
    }
    f = T >> __builtin_ctzll((unsigned long long)P);
    if (f > 1 && (a < 0 || p->dims[a] & (f - 1)))
        return 0;
    for (int32_t i = 0; i <= a; i++, s->no++) {
        const int64_t q = i == a ? f : 1;
        s->od[s->no] = p->dims[i] >> __builtin_ctzll((unsigned long long)q);
        s->os[s->no] = pack(p, i, q, w);
    }
    if (f > 1) {
        s->td[s->nt] = f, s->ts[s->nt++] = pack(p, a, 1, w);
        if (s->od[s->no - 1] == 1)
            s->no--;
    }
    return 1;
}

/* Offsets of every index of the axes d[0..n) (innermost first), packed;
 * returns their count.  Index q * len + i is index i plus q strides: each
 * entry reads one of the first len, not the entry just stored (a chain of
 * stores and loads of the same words: a quarter of the setup's time). */
static int64_t offsets(uint64_t *o, const int64_t *d, const uint64_t *st,
                       int n)
{
    int64_t len = 1;
    o[0] = 0;
    for (int a = 0; a < n; len *= d[a], a++) {
        uint64_t add = st[a];
        for (int64_t q = 1; q < d[a]; q++, add += st[a])
            for (int64_t i = 0; i < len; i++)
                o[q * len + i] = o[i] + add;
    }
    return len;
}

/* The same table from the outer index's bits when every outer dim is a
 * power of 2 (the usual tiny call): bit b of the tile index weighs
 * wt[b] (its axis's strides times 2^(b's place in the axis), packed), so
 * tile i is tile i - 1 plus D[ctz(i)], bit c's weight less those of the
 * bits below it, which wrap to 0 (exact in 64 bits: every field of every
 * sum is in [0, 2^16)).  Only stores: offsets() reads back entries it has
 * just stored, and those loads waited on them (half of a cold rank-7
 * setup's time, perf).  Returns the tiles (at most 128: bits <= 7). */
static int64_t offsets_bits(uint64_t *o, const uint64_t *wt, int bits)
{
    uint64_t D[8] = {0}, below = 0, off = 0;
    for (int b = 0; b < bits; b++)
        D[b] = wt[b] - below, below += wt[b];
    o[0] = 0;
    if (bits == 0)
        return 1;
    if (bits == 1)
        return o[1] = D[0], 2;
    /* four tiles a step: i + 1, i + 2, i + 3 add D[0], D[1], D[0] */
    for (int64_t i = 0; i < (int64_t)1 << bits; i += 4) { /* D[bits]: 0 */
        const uint64_t u = off + D[0] + D[1];
        o[i] = off, o[i + 1] = off + D[0], o[i + 2] = u, o[i + 3] = u + D[0];
        off = u + D[0] + D[__builtin_ctzll((unsigned long long)i + 4)];
    }
    return (int64_t)1 << bits;
}

/* The tile's element index has 5 - log2(w) bits (the tile dims are
 * powers of 2); bit i of it weighs, for operand k, its tile axis's stride
 * times 2^(i - the axis's first bit).  Operand k's control, per output
 * byte, the byte of its window (bytes 0..w-1 of the element for then and
 * else, its one byte w times for cond), doubles per bit: bytes [L, 2L)
 * are bytes [0, L) plus the bit's weight.  All in four words in registers
 * (stored bytes read back as words stalled the store forwarding). */
static void control(uint8_t *ctl, const uint64_t *wt, int k, size_t w)
{
    const uint64_t rep = 0x0101010101010101u;
    uint64_t c0 = k ? 0x0706050403020100u & ~0ull >> (64 - 8 * w) : 0, c1, c2,
             c3, add;  /* four words, each stored once */
    size_t L = w; /* bytes done: the bits below 8 bytes, then 8 and 16 */
    for (; L < 8; L <<= 1, wt++) {
        add = (*wt >> 16 * k & 0xffff) * rep;
        c0 |= ((c0 + add) & ((1ull << 8 * L) - 1)) << 8 * L;
    }
    add = (wt[0] >> 16 * k & 0xffff) * rep;
    c1 = c0 + add;
    add = (wt[1] >> 16 * k & 0xffff) * rep;
    c2 = c0 + add, c3 = c1 + add;
    memcpy(ctl, &c0, 8), memcpy(ctl + 8, &c1, 8);
    memcpy(ctl + 16, &c2, 8), memcpy(ctl + 24, &c3, 8);
}

/* Load modes from the tile bits' weights: 0 when the tile is the
 * operand's 32 bytes as they are (bit i weighs u 2^i, u its element
 * size), 1 when they come from a window of at most 16 bytes (u plus every
 * bit's weight), with its shuffle control.  A window of more than 16
 * bytes holds every element of the tile in order (mode 0); anything else
 * is declined. */
static int controls(opt_vtile *x, const uint64_t *wt, int nb, size_t w)
{
    const uint64_t dense1 = 1 | (uint64_t)w << 16 | (uint64_t)w << 32;
    uint64_t win = dense1, off = 0; /* packed: all three operands at once */
    for (int b = 0; b < nb; b++) {
        win += wt[b];
        off |= wt[b] ^ dense1 << b; /* a field off its dense weight */
    }
    /* Per operand, unrolled (a loop over k cost twice the instructions):
     * cond is dense only at w = 1 (one byte per output element). */
    x->win = win;
    x->mode[0] = w != 1 || (off & 0xffff);
    x->mode[1] = (off >> 16 & 0xffff) != 0;
    x->mode[2] = (off >> 32 & 0xffff) != 0;
    if ((x->mode[0] && (win & 0xffff) > 16) ||
        (x->mode[1] && (win >> 16 & 0xffff) > 16) ||
        (x->mode[2] && (win >> 32 & 0xffff) > 16))
        return 0;
    if (x->mode[0])
        control(x->ctl[0], wt, 0, w); /* nb = 5 - log2 w bits */
    if (x->mode[1])
        control(x->ctl[1], wt, 1, w);
    if (x->mode[2])
        control(x->ctl[2], wt, 2, w);
    return 1;
}

/* Mode 2 for then or else when it has as many bytes as the output: no
 * axis broadcasts for it, so it is laid out as the output (as in most
 * tiny calls) and tile i reads it at byte 32 i: the loop derives its
 * pointer from dst's and reads no offset. */
static void straight(opt_vtile *x, const opt_plan *p, size_t out_bytes)
{
    for (int k = 1; k < 3; k++)
        if (x->mode[k] == 0 && p->in_bytes[k] == out_bytes)
            x->mode[k] = 2;
}

/* Mode 3 for a shuffled operand whose four tiles of a group lie in one
 * 16-byte window (its tile window plus both group bits' weights): one
 * load a group instead of four (tiny_r7_f64's cond and then: 6 of 40
 * instructions a group).  Unrolled over the operands (see controls). */
static void group_windows(opt_vtile *x)
{
    const uint64_t g = x->win + x->in[0] + x->in[1];
    if (x->mode[0] == 1 && (g & 0xffff) <= 16)
        x->mode[0] = 3;
    if (x->mode[1] == 1 && (g >> 16 & 0xffff) <= 16)
        x->mode[1] = 3;
    if (x->mode[2] == 1 && (g >> 32 & 0xffff) <= 16)
        x->mode[2] = 3;
}

/* Plans whose dims are all powers of 2 (most tiny calls): the output
 * index is a string of bits, innermost first, each weighing its axis's
 * strides times 2^(its place in the axis); the low 5 - log2(w) bits
 * address a tile's elements, the rest the tiles, with no split of axes.
 * 0: a dim is not a power of 2, or n is no multiple of a tile (n w <=
 * OPT_VTILE_MAX: at most 12 bits); -1: the tiles do not fit. */
static int build_bits(opt_vtile *x, const opt_plan *p, size_t w)
{
    const int tb = 5 - __builtin_ctzll(w);
    uint64_t wt[12];
    int bits = 0;
    for (int32_t a = p->rank - 1; a >= 0; a--) {
        const int64_t d = p->dims[a];
        uint64_t v = pack(p, a, 1, w);
        if (d == 2 && bits < 12) { /* the usual tiny call's dim */
            wt[bits++] = v;
            continue;
        }
        if (d & (d - 1) || bits + __builtin_ctzll((uint64_t)d) > 12)
            return 0;
        for (int64_t q = 1; q < d; q <<= 1, v <<= 1)
            wt[bits++] = v;
    }
    if (bits < tb || (size_t)1 << bits > OPT_VTILE_MAX / w)
        return -1;
    if (!controls(x, wt, tb, w))
        return -1;
    straight(x, p, w << bits);
    if (bits - tb < 2) {
        x->groups = 0;
        x->tiles = (int32_t)offsets_bits(x->off.w, wt + tb, bits - tb);
        return 1;
    }
    /* Groups of four tiles: the two tile bits below the table's. */
    x->in[0] = wt[tb], x->in[1] = wt[tb + 1];
    group_windows(x);
    x->groups = (int32_t)offsets_bits(x->off.w, wt + tb + 2, bits - tb - 2);
    x->tiles = x->groups * 4;
    return 1;
}

int opt_vtile_build(opt_vtile *x, const opt_plan *p, size_t w)
{
    const int64_t T = 32 >> __builtin_ctzll(w); /* no division: cold calls */
    int64_t n = 1;
    uint64_t last, wt[12];
    int nb, r = build_bits(x, p, w);
    split s;
    if (r < 0)
        return 0;

    if (r == 0) { /* a dim not a power of 2: split the axes */
        for (int32_t i = 0; i < p->rank; i++)
            n *= p->dims[i];
        if (n * (int64_t)w > OPT_VTILE_MAX || n & (T - 1) ||
            !split_axes(&s, p, T, w))
            return 0;
        nb = 0; /* the tile's bits: its axes come innermost first */
        for (int a = 0; a < s.nt; a++)
            for (uint64_t q = 1, v = s.ts[a]; q < (uint64_t)s.td[a];
                 q <<= 1, v <<= 1)
                wt[nb++] = v;
        if (!controls(x, wt, nb, w))
            return 0;
        /* The offsets by doubling over the outer axes, innermost first
         * (one of them is not a power of 2: the one split, or above). */
        for (int i = 0; i < s.no / 2; i++) {
            const int64_t d = s.od[i];
            const uint64_t st = s.os[i];
            s.od[i] = s.od[s.no - 1 - i], s.os[i] = s.os[s.no - 1 - i];
            s.od[s.no - 1 - i] = d, s.os[s.no - 1 - i] = st;
        }
        x->tiles = (int32_t)offsets(x->off.w, s.od, s.os, s.no);
        x->groups = 0;
    }
    last = x->groups ? x->off.w[x->groups - 1] + x->in[0] + x->in[1]
                     : x->off.w[x->tiles - 1];
    /* how far each operand's last load reaches (unrolled: see controls;
     * mode 3 reaches less far than this: its group's first tile's) */
    x->last[0] = (size_t)(last & 0xffff) + (x->mode[0] & 1 ? 16 : 32);
    x->last[1] = (size_t)(last >> 16 & 0xffff) + (x->mode[1] & 1 ? 16 : 32);
    x->last[2] = (size_t)(last >> 32 & 0xffff) + (x->mode[2] & 1 ? 16 : 32);
#if defined(__x86_64__)
    /* tile pairs in a zmm where it runs whole (Zen 5; Zen 4 keeps the
     * AVX2 loop), chosen once per plan: the walk's calls pay nothing.
     * From 4 groups (512 bytes): at 2 (tiny_r5_u8) the pair controls'
     * setup cost more than the loop saved (17.6 -> 17.9 ns warm, 77.9 ->
     * 81.0 cold). */
    x->wide = x->groups >= 4 && opt_isa_active() >= OPT_ISA_avx512 &&
              !opt_cpu_split512() && opt_vtile_wide(x);
#endif
    return 1;
}

/* The tiles on pointers that are safe to read. */
static void run(opt_vtile *x, const void *const *src, void *d)
{
    x->c = (const uint8_t *)src[0];
    x->t = (const char *)src[1], x->e = (const char *)src[2];
    x->d = (char *)d;
#if defined(__x86_64__)
    if (x->wide)
        opt_vtile__avx512(x);
    else
        opt_vtile__avx2(x);
#endif
}

/* An operand whose last window would cross into the next page (which may
 * not be readable) copied to the stack first: rare, and out of line so
 * that the usual call's frame has no 12 KiB to probe. */
static __attribute__((noinline)) void run_padded(opt_vtile *x,
                                                 const void **src, void *d,
                                                 const opt_plan *p, int far)
{
    _Alignas(32) char pad[3][OPT_VTILE_MAX + 32];
    for (int k = 0; k < 3; k++)
        if (far >> k & 1) {
            memcpy(pad[k], src[k], p->in_bytes[k]);
            src[k] = pad[k];
        }
    run(x, src, d);
}

/* 1 when reading `last` bytes from an operand of n bytes at s crosses
 * into the page after its last byte's. */
static inline int crosses(const void *s, size_t n, size_t last)
{
    const uintptr_t end = (uintptr_t)s + n - 1;
    return last > n && end >> 12 != (end + last - n) >> 12;
}

/* Windows may read past an operand's last byte but not past the page
 * its last byte is on (the loop's loads fault nowhere else). */
void opt_vtile_run(opt_vtile *x, const void *c, const void *t, const void *e,
                   void *d, const opt_plan *p)
{
    const void *src[3] = {c, t, e};
    const int far = crosses(c, p->in_bytes[0], x->last[0]) |
                    crosses(t, p->in_bytes[1], x->last[1]) << 1 |
                    crosses(e, p->in_bytes[2], x->last[2]) << 2;
    if (far)
        run_padded(x, src, d, p, far);
    else
        run(x, src, d);
}
