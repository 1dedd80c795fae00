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

/* The tile's axes, innermost first: the plan's inner axes whose product
 * divides 32 / w, and a factor f of the next one when they are not enough;
 * the outer axes (outer first) are the rest.  0 when no such split. */
typedef struct split {
    int nt, no;
    int64_t td[SEL_MAX_RANK], ts[3][SEL_MAX_RANK];
    int64_t od[SEL_MAX_RANK], os[3][SEL_MAX_RANK];
} split;

static int split_axes(split *s, const opt_plan *p, int64_t T)
{
    int32_t a = p->rank - 1;
    int64_t P = 1, f;
    s->nt = s->no = 0;
    for (; a >= 0 && T % (P * p->dims[a]) == 0; a--, s->nt++) {
        P *= p->dims[a];
        s->td[s->nt] = p->dims[a];
        for (int k = 0; k < 3; k++)
            s->ts[k][s->nt] = p->st[k][a];
    }
    f = T / P;
    if (f > 1 && (a < 0 || p->dims[a] % f))
        return 0;
    for (int32_t i = 0; i <= a; i++, s->no++) {
        const int64_t q = i == a ? f : 1;
        s->od[s->no] = p->dims[i] / q;
        for (int k = 0; k < 3; k++)
            s->os[k][s->no] = p->st[k][i] * q;
    }
    if (f > 1) {
        s->td[s->nt] = f;
        for (int k = 0; k < 3; k++)
            s->ts[k][s->nt] = p->st[k][a];
        s->nt++;
        if (s->od[s->no - 1] == 1)
            s->no--;
    }
    return 1;
}

/* Operand k's shuffle control and load mode from its element offsets over
 * the tile (u: its element bytes): 0 when the tile is its 32 bytes as
 * they are, 1 when they come from a window of at most 16 bytes.  Tile
 * dims divide 32 / w, so a window of more than 16 bytes holds every
 * element of the tile in order (mode 0); anything else is declined. */
static int control(opt_vtile *x, int k, const int64_t *off, size_t w, int u)
{
    const int64_t T = 32 / (int64_t)w, win = (off[T - 1] + 1) * u;
    int dense = 1;
    if (win > 32)
        return 0;
    for (int b = 0; b < 32; b++) {
        const int64_t j = b / (int64_t)w;
        x->ctl[k][b] = (uint8_t)(off[j] * u + (u > 1 ? b % u : 0));
        dense &= x->ctl[k][b] == b;
    }
    x->mode[k] = !dense;
    return dense || win <= 16;
}

/* Each tile's window offsets, by doubling over the outer axes innermost
 * first, and how far each operand's last load reaches. */
static void tiles(opt_vtile *x, const split *s, size_t w)
{
    const int64_t u[3] = {1, (int64_t)w, (int64_t)w};
    for (int k = 0; k < 3; k++) {
        int32_t *o = x->off[k];
        int64_t len = 1;
        o[0] = 0;
        for (int a = s->no - 1; a >= 0; len *= s->od[a], a--)
            for (int64_t q = 1; q < s->od[a]; q++)
                for (int64_t i = 0; i < len; i++)
                    o[q * len + i] =
                        o[i] + (int32_t)(q * s->os[k][a] * u[k]);
        x->tiles = (int32_t)len;
        x->last[k] = (size_t)o[len - 1] + (x->mode[k] == 1 ? 16 : 32);
    }
}

int opt_vtile_build(opt_vtile *x, const opt_plan *p, size_t w)
{
    const int64_t T = 32 / (int64_t)w;
    int64_t n = 1, off[3][32];
    split s;
    for (int32_t i = 0; i < p->rank; i++)
        n *= p->dims[i];
    if (n * (int64_t)w > OPT_VTILE_MAX || n % T || !split_axes(&s, p, T))
        return 0;
    /* Offsets over the tile by doubling, innermost axis first. */
    for (int k = 0; k < 3; k++) {
        int64_t len = 1;
        off[k][0] = 0;
        for (int a = 0; a < s.nt; len *= s.td[a], a++)
            for (int64_t q = 1; q < s.td[a]; q++)
                for (int64_t i = 0; i < len; i++)
                    off[k][q * len + i] = off[k][i] + q * s.ts[k][a];
        if (!control(x, k, off[k], w, k ? (int)w : 1))
            return 0;
    }
    tiles(x, &s, w);
    return 1;
}

void opt_vtile_run(opt_vtile *x, const void *c, const void *t, const void *e,
                   void *d, const opt_plan *p)
{
    _Alignas(32) char pad[3][OPT_VTILE_MAX + 32];
    const void *src[3] = {c, t, e};
    for (int k = 0; k < 3; k++)
        if (x->last[k] > p->in_bytes[k]) { /* a window would read past */
            memcpy(pad[k], src[k], p->in_bytes[k]);
            src[k] = pad[k];
        }
    x->c = (const uint8_t *)src[0];
    x->t = (const char *)src[1], x->e = (const char *)src[2];
    x->d = (char *)d;
#if defined(__x86_64__)
    opt_vtile__avx2(x);
#endif
}
