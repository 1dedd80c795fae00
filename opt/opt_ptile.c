/* opt_ptile.c - short rows at AVX-512 with VBMI: the output in blocks of a
 * few 64-byte chunks whose broadcast operands are expanded in registers by
 * byte permutes (opt_ptile_blocks__avx512), not in scratch.
 *
 * A block is the plan's inner axes and r rows of the next (the top); in
 * every block an operand reads the same pattern of bytes from its own
 * base, so per chunk one control and one window offset, found here once
 * per shape, serve every block (one window for all chunks when the
 * block's bytes lie within 64).  A chunk qualifies when each operand's
 * bytes in it lie within 64 bytes.  The axes above make an odometer.
 * When r does not divide the top axis, a pass's last block runs whole and
 * its bytes past the pass (the spill) are written over by the next.
 */
#include <string.h>

#include "opt_ptile.h"

#if defined(__x86_64__)

#define BMAX (64 * OPT_PTILE_NCH)
#define PT_PREF 4
#define CANDS 128

/* Element offsets of operand k over a block (axes top.. of p, r rows of
 * the top): e walks the block in output order. */
static void eoffs(const opt_plan *p, int32_t top, int64_t r, int k,
                  int64_t E, int64_t *o)
{
    int64_t idx[SEL_MAX_RANK] = {0}, cur = 0;
    for (int64_t e = 0; e < E; e++) {
        int32_t a = p->rank - 1;
        o[e] = cur;
        for (; a >= top; a--) {
            const int64_t n = a == top ? r : p->dims[a];
            cur += p->st[k][a];
            if (++idx[a] < n)
                break;
            cur -= p->st[k][a] * n, idx[a] = 0;
        }
    }
}

/* Operand k's byte at output byte b of a block (element offsets o). */
static int64_t src_byte(const int64_t *o, int k, size_t w, size_t b)
{
    return k ? o[b / w] * (int64_t)w + (int64_t)(b % w) : o[b / w];
}

/* The lowest byte chunk j of operand k reads; *n: how many it spans. */
static int64_t span(const int64_t *o, int k, size_t w, size_t B, int j,
                    int64_t *n)
{
    const size_t b0 = 64 * (size_t)j, b1 = b0 + 64 < B ? b0 + 64 : B;
    int64_t lo = INT64_MAX, hi = -1;
    for (size_t b = b0; b < b1; b++) {
        const int64_t s = src_byte(o, k, w, b);
        lo = s < lo ? s : lo, hi = s > hi ? s : hi;
    }
    *n = hi - lo + 1;
    return lo;
}

/* Operand k's chunks: mode, windows, controls.  0 when a chunk's bytes
 * span more than 64 (then and else in blocks of 3-4 chunks: more than
 * 128 across the block).  When the whole block's bytes lie within 64
 * (mode 2) every chunk permutes one window loaded once per block: loads,
 * not the permutes, bound a chunk on Zen 4, and most short-row operands
 * read a few bytes per block (rank6_f16's then 32 bytes over 4 chunks; 4
 * 16-byte loads per block before, 1 now).  Mode 3: a chunk spans more
 * than 64 but the block within 128 (a row of 65-128 bytes tiled or
 * repeated: 532x31x1:532x1x1:1x31x1 f32's else), two windows per block
 * and vpermi2b; such plans took opt_block's scratch at 0.3-0.6. */
static int chunks(opt_ptile *t, const int64_t *o, int k, size_t w, int64_t E)
{
    const size_t B = t->bbytes;
    int dense = k || w == 1, wide = 0;
    int64_t n, blo = INT64_MAX, bhi = -1;
    for (int64_t e = 0; e < E && dense; e++)
        dense = o[e] == e;
    t->mode[k] = !dense;
    t->reach[k] = 64 * (size_t)t->nch;
    if (dense)
        return 1;
    t->reach[k] = 0;
    for (int j = 0; j < t->nch; j++) { /* the block's span */
        const int64_t lo = span(o, k, w, B, j, &n);
        wide |= n > 64;
        blo = lo < blo ? lo : blo;
        bhi = lo + n - 1 > bhi ? lo + n - 1 : bhi;
    }
    if (wide && (!k || t->nch < 3 || bhi - blo >= 128))
        return 0;
    /* One chunk: mode 2 is a 16-byte window broadcast to every lane,
     * which crosses a line less often than a 64-byte one (1x8x5x1:
     * 54x8x5x1:1x1x1x1 f64 0.43 there, 0.37 as a 64-byte window). */
    t->mode[k] = wide ? 3 : bhi - blo < (t->nch == 1 ? 16 : 64) ? 2 : 1;
    if (!k) /* a 16-byte window, broadcast (opt_avx512_perm.c's PT_CW) */
        t->narrow = t->mode[0] == 2 && bhi - blo < 16;
    for (int j = 0; j < t->nch; j++) {
        const size_t b0 = 64 * (size_t)j, b1 = b0 + 64 < B ? b0 + 64 : B;
        const int64_t lo = t->mode[k] >= 2 ? blo : span(o, k, w, B, j, &n);
        memset(t->ctl[j][k], 0, 64);
        for (size_t b = b0; b < b1; b++)
            t->ctl[j][k][b - b0] = (uint8_t)(src_byte(o, k, w, b) - lo);
        t->win[k][j] = (int32_t)lo;
        if ((size_t)lo + (wide ? 128 : 64) > t->reach[k])
            t->reach[k] = (size_t)lo + (wide ? 128 : 64);
    }
    return 1;
}

/* The tiles of blocks of r rows of axis top; 0 when a chunk does not fit
 * a window. */
static int build(opt_ptile *t, const opt_plan *p, size_t w, int32_t top,
                 int64_t r, int64_t E)
{
    int64_t o[BMAX];
    t->bbytes = (size_t)E * w;
    t->nch = (int)((t->bbytes + 63) / 64);
    t->tail = t->bbytes % 64 ? (1ull << (t->bbytes % 64)) - 1 : ~0ull;
    for (int k = 0; k < 3; k++) {
        eoffs(p, top, r, k, E, o);
        if (!chunks(t, o, k, w, E))
            return 0;
    }
    /* The loop has mode 3 only beside cond in mode 2 and the other input
     * in mode 0, 2 or 3 (opt_avx512_perm.c's PT_WIDE: 10 copies, not 148). */
    const int code = t->mode[0] * 16 + t->mode[1] * 4 + t->mode[2];
    if ((t->mode[1] == 3 || t->mode[2] == 3) &&
        (t->mode[0] != 2 || t->mode[1] == 1 || t->mode[2] == 1))
        return 0;
    /* Blocks of 5-8 chunks: PT_BIG's mode sets (9 copies); a window per
     * chunk only in a whole pass (17x9x8x1x20x8:17x9x1x5x20x8:1x1x8x5x
     * 20x1 i32: 0.77 in 128-byte blocks, 0.70 in 320-byte ones, 1 0 2). */
    if (t->nch > 4 && (!(OPT_PTILE_BIG >> code & 1) ||
                       (t->mode[0] == 1 && p->dims[top] > r)))
        return 0;
    /* The odometer: level 0 the top axis in steps of r rows, then the
     * axes above it, innermost first; levels of one step left out. */
    t->nax = 0;
    t->gbytes = (size_t)(E / r * p->dims[top]) * w;
    t->nb = (p->dims[top] + r - 1) / r;
    t->spill = (size_t)(t->nb * r - p->dims[top]) *
               (size_t)(E / r) * w;
    for (int32_t a = top; a >= 0; a--) {
        const int64_t n = a == top ? (p->dims[a] + r - 1) / r : p->dims[a];
        const int l = t->nax;
        if (n == 1 && !(a == 0 && l == 0))
            continue;
        t->dims[l] = n;
        for (int k = 0; k < 3; k++) {
            const int64_t wk = k ? (int64_t)w : 1;
            t->step[k][l] = p->st[k][a] * (a == top ? r : 1) * wk;
            t->delta[k][l] = t->step[k][l];
            for (int i = 0; i < l; i++)
                t->delta[k][l] -= (t->dims[i] - 1) * t->step[k][i];
        }
        t->nax++;
    }
    return 1;
}

/* A block of r rows of a top axis of n, E elements, B bytes: its score.
 * Whole chunks (or at least 3/4 of the last one used) first, then about
 * 4 chunks per block (fewer odometer steps per byte, controls still few).
 * When r does not divide n, a pass over the axis ends in a block of fewer
 * rows that is run whole: the bytes it wastes cost their share, as do
 * the unused bytes of partial last chunks. */
static int score(int64_t n, int64_t r, size_t B, int nt)
{
    const int64_t nch = (int64_t)(B + 63) / 64, nb = (n + r - 1) / r;
    const int64_t rb = (int64_t)B / r; /* bytes per row */
    const double waste = 1.0 - (double)n / (double)(nb * r);
    /* whole lines: blocks and passes (a spill shifts the next pass); under
     * streams only blocks without a spill stream in place, the rest go
     * through a stage (staged(): 6x1x1x16:1x968x679x16:6x968x679x16 i8
     * 0.84-0.99 in blocks of 128 bytes streamed, 0.41-0.69 in 256-byte
     * spill blocks through the stage) */
    const int whole = B % 64 == 0 && (nb * r == n || (!nt && n * rb % 64 == 0));
    /* Spill blocks of one chunk, or wasting over 1/8 of a pass, were
     * slower than opt_block's (under streams they run through a stage). */
    if (nb * r != n && (B < 128 || waste > 0.125))
        return INT32_MIN;
    /* The chunks a pass takes over the fewest it could (a partial last
     * chunk costs a whole one, like a wasted row): 11x8x1x3:...:5x5x3x18x
     * 11x1x1x1 f16 took 4 blocks of 144 bytes (12 chunks) for a pass of
     * 528 bytes, not 3 of 192 (9), at the same waste.  Staged blocks too
     * (2x1x1x75x1x57:1x1x10x75x211x1:2x1x10x75x1x57 f64: 232 bytes with a
     * spill for 152, 0.40 -> 0.69; 1x221x154x7x1:... i32 252 for 196,
     * 0.42-0.61 -> 0.80-0.84 in one A/B, equal in another). */
    const double used = (double)(n * rb) / (double)(nb * nch * 64);
    /* A pass of 5-8 chunks in one block: its runs of level 0 are the axis
     * above, not 2-3 blocks (3x1x15x44:3x8x1x44:3x8x15x44 f64: two blocks
     * of 176 bytes a pass 0.57, one of 352 0.93, 6 chunks either way). */
    const int pass = nb == 1 && nch > PT_PREF ? 10 : 0;
    return whole * 100 + pass -
           (int)(nch > PT_PREF ? nch - PT_PREF : PT_PREF - nch) -
           (int)((1.0 - used) * 400);
}

/* Candidate blocks, best first (score); tries them until one fits its
 * windows. */
static int choose(opt_ptile *t, const opt_plan *p, size_t w, int nt)
{
    struct { int32_t top; int64_t r, E; int score; } c[CANDS];
    int n = 0;
    int64_t E0 = 1;
    for (int32_t a = p->rank - 1; a >= 0 && n < CANDS; a--) {
        for (int64_t r = 1; r <= p->dims[a] && n < CANDS; r++) {
            const int64_t E = E0 * r, nb = (p->dims[a] + r - 1) / r;
            const size_t B = (size_t)E * w, nch = (B + 63) / 64;
            if (B > BMAX)
                break;
            /* r not dividing the axis: whole chunks, or the fewest rows
             * for its blocks per pass (the least waste) */
            if (B * 4 < nch * 64 * 3 || (B < 128 && B != 64) ||
                (p->dims[a] % r && B % 64 && r != (p->dims[a] + nb - 1) / nb))
                continue;
            c[n].top = a, c[n].r = r, c[n].E = E;
            c[n].score = score(p->dims[a], r, B, nt);
            if (c[n].score == INT32_MIN)
                continue;
            n++;
        }
        E0 *= p->dims[a];
        if ((size_t)E0 * w > BMAX)
            break;
    }
    for (int tries = 0; tries < 16 && n > 0; tries++) {
        int best = 0;
        for (int i = 1; i < n; i++)
            if (c[i].score > c[best].score)
                best = i;
        if (build(t, p, w, c[best].top, c[best].r, c[best].E))
            return 1;
        c[best] = c[--n];
    }
    return 0;
}

/* The thread's last shape and its tiles (ok = 0: none). */
typedef struct cache {
    int valid, ok, isa, nt;
    size_t w;
    int32_t rank;
    int64_t dims[SEL_MAX_RANK], st[3][SEL_MAX_RANK];
    opt_ptile t;
} cache;
static _Thread_local cache memo;

static int same(const cache *m, const opt_plan *p, size_t w, int isa,
                int nt)
{
    const size_t n = (size_t)p->rank * sizeof(int64_t);
    if (!m->valid || m->isa != isa || m->nt != nt || m->w != w ||
        m->rank != p->rank || memcmp(m->dims, p->dims, n))
        return 0;
    for (int k = 0; k < 3; k++)
        if (memcmp(m->st[k], p->st[k], n))
            return 0;
    return 1;
}
#endif

#if defined(__x86_64__)
/* Every operand opt_block.c would expand has no stride on axes from..btop
 * (the block's top axis and those above it down to from), so its
 * expansion is kept over them and its blocks run the dense kernels.
 * from 0: each is expanded once per call; from btop: once per pass of
 * the top axis. */
static int kept_from(const opt_plan *p, int32_t from)
{
    for (int k = 0; k < 3; k++) {
        int zeros = 0, outer = 0;
        for (int32_t a = p->btop; a < p->rank; a++)
            zeros += p->st[k][a] == 0;
        for (int32_t a = from; a <= p->btop; a++)
            outer |= p->st[k][a] != 0;
        if (zeros && zeros < p->rank - p->btop && outer)
            return 0;
    }
    return 1;
}

/* cond broadcasts over opt_block.c's blocks but not over the call (one
 * byte: opt_run's pick, both inputs the picked one, which ptile takes:
 * _:2x5x4x3x1x2x1:2x1x4x3x3x2x4 i32 0.28 -> 0.52). */
static int cond_const(const opt_plan *p)
{
    int inner = 0, outer = 0;
    for (int32_t a = 0; a < p->rank; a++)
        *(a < p->btop ? &outer : &inner) |= p->st[0][a] != 0;
    return !inner && outer;
}
#endif

const opt_ptile *opt_ptile_get(const opt_plan *p, size_t w, int isa, int nt)
{
#if defined(__x86_64__)
    cache *m = &memo;
    opt_crep cr;
    if (isa < OPT_ISA_avx512 || p->btop < 0 || !opt_cpu_vbmi())
        return NULL;
    if (same(m, p, w, isa, nt))
        return m->ok ? &m->t : NULL;
    m->valid = 1, m->isa = isa, m->nt = nt, m->w = w, m->rank = p->rank;
    memcpy(m->dims, p->dims, sizeof m->dims);
    memcpy(m->st, p->st, sizeof m->st);
    /* Under streams the crep kernels keep the per-pixel conds they serve
     * in one block per range (then and else need no scratch: opt_crep.c
     * sets brows to the whole top axis); without, ptile's blocks ran as
     * fast or faster (66x6x1:66x6x8:66x6x8 i32 0.66 -> 0.72; 1x1x3x4x78x1:
     * 1x28x1x4x78x16:1x1x3x4x78x16 f16 0.65 -> 0.72; chan_c2-c16 and
     * 132x6143x1:6143x8:132x1x8 f32, 26 MB, equal).  A cond constant
     * over the old blocks keeps their copies and fills (sample_f32:
     * 0.91-0.99 there, 0.31-0.43 in chunks).  Nor when blocks cut lines
     * and opt_block's expansions are made once per call (617x38:617x38:38
     * i64: 0.87 there, 0.25 here).
     * Under streams, blocks that cut lines run through a stage (staged()):
     * not when opt_block keeps its expansions over the top axis and
     * streams 8 KiB blocks in place (41569x3:25x41569x3:25x1x3 f64 pdpd:
     * 0.72-0.79 there, 0.26-0.59 staged).  Nor staged blocks in mode 3
     * (1x3x11x42x1x1:4x3x11x42x40x30:4x1x11x1x1x30 f32 pdpd: 0.65-1.00
     * in opt_block, 0.25-0.66 staged). */
    m->ok = !(nt && opt_crep_setup(&cr, p, isa, w) &&
              cr.brows == p->dims[p->btop]) && !cond_const(p) &&
            choose(&m->t, p, w, nt) && !(m->t.bbytes % 64 && kept_from(p, 0)) &&
            !(nt && (m->t.bbytes % 64 || m->t.spill) &&
              ((p->dims[p->btop] >= 4 * p->brows && kept_from(p, p->btop)) ||
               m->t.mode[1] == 3 || m->t.mode[2] == 3));
    return m->ok ? &m->t : NULL;
#else
    (void)p, (void)w, (void)isa, (void)nt;
    return NULL;
#endif
}
