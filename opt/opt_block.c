/* opt_block.c - short inner rows: the output in cache-sized blocks of whole
 * rows; each operand that broadcasts inside a block is expanded into a
 * scratch array in output order, then one dense kernel call covers the block.
 *
 * A block is the plan's inner axes taken whole (levels 0..q-1, level 0
 * innermost) and a run of rows of the next axis (level q, the top).  Inside
 * a block an operand is dense (no broadcast level: its elements are one
 * contiguous run, used in place), constant (every level broadcast) or
 * expanded.  Expanding starts from the operand's contiguous source run and
 * inserts its broadcast levels innermost first, each one pass that repeats
 * blocks of `blk` bytes `n` times (rep()).  An expansion is kept while the
 * next block needs the same one (same base, no more rows): a per-channel
 * default or a tiled row is built once per call.
 */
#include <string.h>

#include "opt.h"

/* Scratch per operand: OPT_BLOCK_BYTES of output in elements of the
 * operand's width, plus slack for the table expansion, which writes whole
 * periods (at most 240 bytes past the end). */
#define PAD 256
#define SCRATCH (OPT_BLOCK_BYTES + PAD)

enum { X_DENSE, X_CONST, X_EXPAND };

typedef struct xop {
    const char *src;
    size_t avail; /* bytes of the tensor: the table path never reads past */
    size_t w;
    int cls;
    char *buf, *tmp;
    int64_t base, rows; /* what buf holds (rows < 0: nothing) */
    /* The passes below the top level, found once per call (passes()):
     * pass i repeats pout[i] (times the rows when the top is dense)
     * groups of pblk[i] bytes pn[i] times; then the top's pass of blk_top
     * bytes when the top broadcasts. */
    int np, top_bc;
    size_t outer_in, blk_top;
    size_t pblk[SEL_MAX_RANK], pn[SEL_MAX_RANK], pout[SEL_MAX_RANK];
} xop;

typedef struct brun {
    const opt_plan *p;
    size_t w;
    int nt, simd, kind;           /* kind: the blocks' kernel (cond not
                                     constant) */
    int crep;                     /* cond read by opt_crep.c's kernel */
    opt_crep cr;
    xop op[3];
    opt_kernel_fn *k[OPT_K_COUNT];
} brun;

/* Copies n bytes, n small, with a few overlapping moves (no libc call). */
static inline void copy_small(char *d, const char *s, size_t n)
{
    uint64_t a, b;
    if (n >= 16) {
        size_t i = 0;
        for (; i + 16 <= n; i += 16)
            memcpy(d + i, s + i, 16);
        if (i < n)
            memcpy(d + n - 16, s + n - 16, 16);
    } else if (n >= 8) {
        memcpy(&a, s, 8), memcpy(&b, s + n - 8, 8);
        memcpy(d, &a, 8), memcpy(d + n - 8, &b, 8);
    } else if (n >= 4) {
        uint32_t x, y;
        memcpy(&x, s, 4), memcpy(&y, s + n - 4, 4);
        memcpy(d, &x, 4), memcpy(d + n - 4, &y, 4);
    } else {
        for (size_t i = 0; i < n; i++)
            d[i] = s[i];
    }
}

/* Each of `outer` blocks of blk bytes at s, repeated n times, to d; the
 * plain loops (any blk, n).  Writes exactly outer * n * blk bytes. */
static void rep_plain(const char *s, char *d, size_t outer, size_t blk,
                      size_t n)
{
    for (size_t o = 0; o < outer; o++, s += blk) {
        char *row = d + o * n * blk;
        if (n >= 8 && n * blk >= 512) { /* doubling: few, long copies */
            size_t done = 1;
            memcpy(row, s, blk);
            while (done < n) {
                const size_t m = done < n - done ? done : n - done;
                memcpy(row + done * blk, row, m * blk);
                done += m;
            }
            continue;
        }
        for (size_t i = 0; i < n; i++) {
            if (blk > 64)
                memcpy(row + i * blk, s, blk);
            else
                copy_small(row + i * blk, s, blk);
        }
    }
}

/* blk of 1, 2, 4 or 8 bytes repeated n times with n * blk >= 16: the
 * element splatted over 8 bytes, stored 16 bytes at a time (up to 15
 * bytes past each group, which the next group or the slack takes). */
static void rep_splat(const char *s, char *d, size_t outer, size_t blk,
                      size_t n)
{
    const size_t bytes = n * blk;
    for (size_t o = 0; o < outer; o++, s += blk) {
        char *row = d + o * bytes;
        uint64_t v;
        if (blk == 1)
            v = 0x0101010101010101u * (uint8_t)*s;
        else if (blk == 2)
            v = 0x0001000100010001u * (uint16_t)opt_rd16(s);
        else if (blk == 4)
            v = 0x0000000100000001u * (uint32_t)opt_rd32(s);
        else
            v = (uint64_t)opt_rd64(s);
        for (size_t i = 0; i < bytes; i += 16)
            memcpy(row + i, &v, 8), memcpy(row + i + 8, &v, 8);
    }
}

/* Groups of 16 to 64 bytes: loaded once as four 16-byte pieces (the later
 * ones overlapping when the group is shorter), stored n times. */
static void rep_mid(const char *s, char *d, size_t outer, size_t blk,
                    size_t n)
{
    const size_t p3 = blk - 16, p1 = p3 < 16 ? p3 : 16, p2 = p3 < 32 ? p3 : 32;
    for (size_t o = 0; o < outer; o++, s += blk) {
        char a[16], b[16], c[16], e[16], *row = d + o * n * blk;
        memcpy(a, s, 16), memcpy(b, s + p1, 16);
        memcpy(c, s + p2, 16), memcpy(e, s + p3, 16);
        for (size_t i = 0; i < n; i++, row += blk) {
            memcpy(row, a, 16), memcpy(row + p1, b, 16);
            memcpy(row + p2, c, 16), memcpy(row + p3, e, 16);
        }
    }
}

/* The shuffle tables (x86: built once, used from the AVX2 level up). */
#if defined(__x86_64__)
#include <pthread.h>
static opt_xtab tabs[8][16]; /* [blk][n], valid when P > 0 */
static uint8_t pats[16][16];  /* [blk][j] = j % blk, for opt_xpat__avx2 */
static pthread_once_t tabs_once = PTHREAD_ONCE_INIT;

/* Period of the pattern "groups of blk source bytes, each written n
 * times": Q = lcm(16, n * blk) output bytes, P = Q / 16 vectors; vector v
 * reads 16 source bytes from off[v] and shuffles them by mask[v].  Only
 * patterns whose every vector's sources lie within 16 bytes get a table. */
static void tab_make(opt_xtab *x, size_t blk, size_t n)
{
    const size_t R = n * blk;
    size_t Q = 16, need = 0, src[16];
    while (Q % R)
        Q += 16;
    for (size_t v = 0; v < Q / 16; v++) {
        size_t lo = SIZE_MAX, hi = 0;
        for (size_t j = 0; j < 16; j++) {
            const size_t o = 16 * v + j;
            src[j] = o / R * blk + o % blk;
            lo = src[j] < lo ? src[j] : lo;
            hi = src[j] > hi ? src[j] : hi;
        }
        if (hi - lo > 15)
            return; /* no table: P stays 0 */
        for (size_t j = 0; j < 16; j++)
            x->mask[v][j] = (uint8_t)(src[j] - lo);
        x->off[v] = (uint8_t)lo;
        need = lo + 16 > need ? lo + 16 : need;
    }
    x->adv = (uint8_t)(Q / R * blk);
    x->need = (uint8_t)need;
    x->groups = (uint8_t)(Q / R);
    x->P = (uint8_t)(Q / 16);
}

static void tabs_build(void)
{
    for (size_t blk = 1; blk < 16; blk++)
        for (size_t j = 0; j < 16; j++)
            pats[blk][j] = (uint8_t)(j % blk);
    for (size_t blk = 1; blk < 8; blk++)
        for (size_t n = 2; n * blk < 16; n++)
            tab_make(&tabs[blk][n], blk, n);
}
#endif

/* One pass: `outer` blocks of blk bytes at s (avail bytes readable from
 * s), each repeated n times, to d. */
static void rep(const brun *x, const char *s, size_t avail, char *d,
                size_t outer, size_t blk, size_t n)
{
    size_t g = 0; /* groups written by a vector path */
#if defined(__x86_64__)
    if (x->simd && blk < 8 && n * blk < 16 && tabs[blk][n].P) {
        const opt_xtab *t = &tabs[blk][n];
        const size_t periods = (outer + t->groups - 1) / t->groups;
        g = opt_xrep__avx2((const uint8_t *)s, avail, (uint8_t *)d, periods, t) * t->groups;
    } else if (x->simd && blk < 16)
        g = opt_xpat__avx2((const uint8_t *)s, avail, (uint8_t *)d, outer, blk, n,
                           pats[blk]);
    if (g >= outer)
        return;
    s += g * blk, d += g * n * blk, outer -= g;
#else
    (void)avail, (void)g;
#endif
    (void)x;
    if ((blk & (blk - 1)) == 0 && blk <= 8 && n * blk >= 16 && n * blk < 512)
        rep_splat(s, d, outer, blk, n);
    else if (blk >= 16 && blk <= 64 && (n < 8 || n * blk < 512))
        rep_mid(s, d, outer, blk, n);
    else
        rep_plain(s, d, outer, blk, n);
}

/* Operand o over a block of `rows` top rows whose first element sits at
 * base: its elements in output order, in o->buf (kept for the next block
 * when that needs no more than what is there). */
static const char *expand(const brun *x, xop *o, int64_t base, int64_t rows)
{
    const size_t w = o->w, tf = o->top_bc ? 1 : (size_t)rows;
    const size_t outer = o->outer_in * tf;
    const int nb = o->np + o->top_bc;
    const char *cur = o->src + (size_t)base * w;
    size_t avail = o->avail - (size_t)base * w;
    char *out[2];

    if (o->rows >= rows && o->base == base)
        return o->buf;
    /* Passes alternate between the two arrays and end in buf. */
    out[0] = nb % 2 ? o->buf : o->tmp;
    out[1] = nb % 2 ? o->tmp : o->buf;
    if (avail < outer * w + 64) { /* near the tensor's end: the vector */
        memcpy(out[1], cur, outer * w); /* reads need slack, so copy it */
        cur = out[1], avail = SCRATCH;
    }
    for (int i = 0; i < o->np; i++) {
        rep(x, cur, avail, out[i % 2], o->pout[i] * tf, o->pblk[i], o->pn[i]);
        cur = out[i % 2], avail = SCRATCH;
    }
    if (o->top_bc)
        rep(x, cur, avail, out[o->np % 2], 1, o->blk_top, (size_t)rows);
    o->base = base, o->rows = rows;
    return o->buf;
}

/* One block: rows top rows from operand offsets off[], output elements
 * [lo, hi) of it to d (d points at the block's first element). */
static void block(brun *x, const int64_t *off, int64_t rows, int64_t lo,
                  int64_t hi, char *d)
{
    const size_t w = x->w, n = (size_t)(hi - lo);
    const char *ptr[3];
    int c = x->op[0].cls == X_CONST ? (x->op[0].src[off[0]] ? 1 : 2) : 0;

    for (int k = 0; k < 3; k++) {
        xop *o = &x->op[k];
        if ((c && k != c) || (k == 0 && x->crep))
            continue; /* cond picks one input for the whole block */
        ptr[k] = o->cls != X_EXPAND ? o->src + (size_t)off[k] * o->w
                 : expand(x, o, off[k], x->crep && x->cr.tile[k] && x->cr.trows
                                            ? x->cr.trows : rows);
        if (o->cls != X_CONST)
            ptr[k] += (size_t)lo * o->w;
    }
    if (x->crep) {
        opt_crep_block(&x->cr, (const uint8_t *)x->op[0].src + off[0],
                       x->op[0].avail - (size_t)off[0], lo, n, ptr[1],
                       x->op[1].cls, ptr[2], x->op[2].cls,
                       d + (size_t)lo * w, x->nt);
        return;
    }
    if (c) {
        x->k[x->op[c].cls == X_CONST ? OPT_K_fill : OPT_K_copy](
            n, NULL, ptr[c], NULL, d + (size_t)lo * w, x->nt);
        return;
    }
    x->k[x->kind](n, (const uint8_t *)ptr[0], ptr[1], ptr[2],
                  d + (size_t)lo * w, x->nt);
}

/* Operand k's passes (xop), read off the plan's axes btop..rank-1 (the
 * levels, innermost last): each broadcast axis inserts its repeats,
 * innermost first; a dense axis only widens the groups. */
static void passes(xop *o, const opt_plan *p, int k)
{
    const int32_t top = p->btop;
    size_t blk = o->w, outer = 1;
    int32_t a;

    for (a = p->rank - 1; a > top; a--)
        if (p->st[k][a])
            outer *= (size_t)p->dims[a];
    o->outer_in = outer, o->np = 0;
    for (a = p->rank - 1; a > top; a--) {
        const size_t d = (size_t)p->dims[a];
        if (p->st[k][a]) {
            blk *= d, outer /= d;
            continue;
        }
        o->pblk[o->np] = blk, o->pn[o->np] = d, o->pout[o->np] = outer;
        o->np++, blk *= d;
    }
    o->blk_top = blk, o->top_bc = p->st[k][top] == 0;
}

/* Operand classes, passes and the kernels a call's blocks use. */
static void setup(brun *x, const opt_plan *p, const void *const data[3],
                  size_t w, int isa, int nt)
{
    const int wi = w == 1 ? 0 : w == 2 ? 1 : w == 4 ? 2 : 3;
    const int32_t nl = p->rank - p->btop;
    int c;
    x->p = p, x->w = w, x->nt = nt;
#if defined(__x86_64__)
    x->simd = isa >= OPT_ISA_avx2;
    if (x->simd)
        pthread_once(&tabs_once, tabs_build);
#else
    x->simd = 0;
#endif
    for (int k = 0; k < 3; k++) {
        xop *o = &x->op[k];
        int zeros = 0;
        for (int32_t a = p->btop; a < p->rank; a++)
            zeros += p->st[k][a] == 0;
        o->src = (const char *)data[k], o->avail = p->in_bytes[k];
        o->w = k ? w : 1, o->base = 0, o->rows = -1;
        o->cls = zeros == 0 ? X_DENSE : zeros == nl ? X_CONST : X_EXPAND;
        if (o->cls == X_EXPAND)
            passes(o, p, k);
    }
    x->kind = OPT_K_fill;
    x->crep = opt_crep_setup(&x->cr, p, isa, w);
    if (x->op[0].cls == X_CONST) { /* blocks copy or fill */
        x->k[OPT_K_fill] = opt_kernel(isa, wi, OPT_K_fill);
        x->k[OPT_K_copy] = opt_kernel(isa, wi, OPT_K_copy);
        return;
    }
    c = (x->op[1].cls == X_CONST) * 2 + (x->op[2].cls == X_CONST);
    x->kind = c == 0 ? OPT_K_vvv : c == 1 ? OPT_K_vvs : c == 2 ? OPT_K_vsv
                                                               : OPT_K_vss;
    x->k[x->kind] = opt_kernel(isa, wi, x->kind);
}

void opt_block_range(const opt_plan *p, const void *const data[3], char *d,
                     size_t w, int isa, int nt, int64_t begin, int64_t end)
{
    _Alignas(64) char scratch[4][SCRATCH];
    brun x;
    const int32_t a = p->btop;
    const int64_t inner = p->binner, da = p->dims[a];
    int64_t row = begin / inner, lo = begin - row * inner;
    int64_t j = row % da, q = row / da, idx[SEL_MAX_RANK], off[3] = {0, 0, 0};
    int32_t i;

    setup(&x, p, data, w, isa, nt);
    for (int k = 0; k < 3; k++)
        x.op[k].buf = scratch[k], x.op[k].tmp = scratch[3];
    for (i = a - 1; i >= 0; i--) { /* coordinates of the first top row */
        idx[i] = q % p->dims[i];
        q /= p->dims[i];
        for (int k = 0; k < 3; k++)
            off[k] += idx[i] * p->st[k][i];
    }
    while (row * inner + lo < end) {
        const int64_t br = x.crep ? x.cr.brows - j % x.cr.brows : p->brows;
        const int64_t rows = br < da - j ? br : da - j;
        const int64_t hi = end - row * inner < rows * inner ? end - row * inner
                                                           : rows * inner;
        int64_t base[3];
        for (int k = 0; k < 3; k++)
            base[k] = off[k] + j * p->st[k][a];
        block(&x, base, rows, lo, hi, d + (size_t)(row * inner) * w);
        row += rows, j += rows, lo = 0;
        if (j < da)
            continue;
        j = 0;
        for (i = a - 1; i >= 0; i--) { /* the next outer coordinate */
            for (int k = 0; k < 3; k++)
                off[k] += p->st[k][i];
            if (++idx[i] < p->dims[i])
                break;
            for (int k = 0; k < 3; k++)
                off[k] -= p->st[k][i] * p->dims[i];
            idx[i] = 0;
        }
    }
    if (nt)
        opt_fence();
}
