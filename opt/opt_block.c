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
 * blocks of `blk` bytes `n` times (opt_brep.c).  An expansion is kept while the
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

/* Operand o over a block of `rows` top rows whose first element sits at
 * base: its elements in output order, in o->buf (kept for the next block
 * when that needs no more than what is there), or, when to is not NULL,
 * with the last pass written to `to` (opt_brep's exact group copies).
 * A top pass of one row would be a plain copy: it is skipped, and with
 * no other pass the source is read in place. */
static const char *expand(const brun *x, xop *o, int64_t base, int64_t rows,
                          char *to)
{
    const size_t w = o->w, tf = o->top_bc ? 1 : (size_t)rows;
    const size_t outer = o->outer_in * tf;
    const int top = o->top_bc && rows > 1, nb = o->np + top;
    const char *cur = o->src + (size_t)base * w;
    size_t avail = o->avail - (size_t)base * w;
    char *out[2];

    if (o->rows >= rows && o->base == base)
        return o->buf;
    if (nb == 0)
        return cur;
    /* Passes alternate between the two arrays and end in buf (or to). */
    out[0] = nb % 2 ? o->buf : o->tmp;
    out[1] = nb % 2 ? o->tmp : o->buf;
    if (avail < outer * w + 64) { /* near the tensor's end: the vector */
        memcpy(out[1], cur, outer * w); /* reads need slack, so copy it */
        cur = out[1], avail = SCRATCH;
    }
    for (int i = 0; i < o->np; i++) {
        char *dst = to && i == nb - 1 ? to : out[i % 2];
        opt_brep(x->simd, cur, avail, dst, o->pout[i] * tf, o->pblk[i], o->pn[i]);
        cur = out[i % 2], avail = SCRATCH;
    }
    if (top)
        opt_brep(x->simd, cur, avail, to ? to : out[o->np % 2], 1, o->blk_top,
                 (size_t)rows);
    o->base = base, o->rows = to ? -1 : rows;
    return to ? to : o->buf;
}

/* The last pass of operand o's expansion, when it copies groups of 16
 * bytes or more by opt_xcopy__avx2, writes exactly its bytes: a block
 * that copies that operand under a constant cond can take it in dst
 * (without streams: the copy kernel would stream it). */
static int last_exact(const brun *x, const xop *o, int64_t rows)
{
    const size_t blk = o->top_bc && rows > 1 ? o->blk_top
                       : o->np ? o->pblk[o->np - 1] : 0;
    return x->simd && blk >= 16;
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
        if (c && !x->nt && o->cls == X_EXPAND && lo == 0 && hi == rows * x->p->binner &&
            !(o->rows >= rows && o->base == off[k]) && last_exact(x, o, rows)) {
            expand(x, o, off[k], rows, d); /* the block itself: no copy */
            return;
        }
        ptr[k] = o->cls != X_EXPAND ? o->src + (size_t)off[k] * o->w
                 : expand(x, o, off[k], x->crep && x->cr.tile[k] && x->cr.trows
                                            ? x->cr.trows : rows, NULL);
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
    const int wi = opt_width_index(w);
    const int32_t nl = p->rank - p->btop;
    int c;
    x->p = p, x->w = w, x->nt = nt;
    x->simd = opt_brep_init(isa);
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

/* A walk axis over whole blocks: an axis above the block, or the top axis
 * in groups of brows rows; operand strides and dst step per step. */
typedef struct wax {
    int64_t dim, st[3], dstep;
} wax;

/* Bytes a walk order expands (ord[0] outermost): each expanded operand is
 * redone at every step of the innermost axis it steps on, and kept across
 * the axes inside that one. */
static double order_cost(const wax *ax, const int *ord, int m,
                         const double eb[3])
{
    double c = 0;
    for (int k = 0; k < 3; k++) {
        double runs = 1, prod = 1;
        for (int i = 0; i < m; i++) {
            prod *= (double)ax[ord[i]].dim;
            if (ax[ord[i]].st[k])
                runs = prod;
        }
        c += runs * eb[k];
    }
    return c;
}

/* The walk axes of a plan and an order for them: axes on which the heavier
 * expansions do not step go inside, so those expansions are kept across
 * them (rank6_f16: then is expanded 8 times instead of 64, cond 64 times
 * instead of 8, at half the bytes).  0: keep the row-major walk. */
static int walk_order(const brun *x, const opt_plan *p, wax *ax, int *ord)
{
    const int32_t a = p->btop;
    const int m = a + 1;
    int64_t step = p->binner * p->dims[a];
    double eb[3], wt[SEL_MAX_RANK + 1];
    int nat[SEL_MAX_RANK + 1];

    if (m < 2 || p->dims[a] % p->brows)
        return 0;
    for (int k = 0; k < 3; k++)
        eb[k] = x->op[k].cls == X_EXPAND
                    ? (double)(p->brows * p->binner) * (double)x->op[k].w
                    : 0;
    for (int32_t i = a - 1; i >= 0; i--) {
        ax[i].dim = p->dims[i], ax[i].dstep = step;
        for (int k = 0; k < 3; k++)
            ax[i].st[k] = p->st[k][i];
        step *= p->dims[i];
    }
    ax[a].dim = p->dims[a] / p->brows, ax[a].dstep = p->brows * p->binner;
    for (int k = 0; k < 3; k++)
        ax[a].st[k] = p->st[k][a] * p->brows;
    for (int i = 0; i < m; i++) { /* weight: bytes kept across axis i */
        nat[i] = ord[i] = i, wt[i] = 0;
        for (int k = 0; k < 3; k++)
            wt[i] += ax[i].st[k] ? 0 : eb[k];
    }
    for (int i = 1; i < m; i++) /* stable insertion sort, light outside */
        for (int j = i; j > 0 && wt[ord[j - 1]] > wt[ord[j]]; j--) {
            const int t = ord[j];
            ord[j] = ord[j - 1], ord[j - 1] = t;
        }
    return order_cost(ax, ord, m, eb) < 0.75 * order_cost(ax, nat, m, eb);
}

/* The whole output in the order walk_order chose: 0 when it chose none. */
static int walk_reordered(brun *x, const opt_plan *p, char *d, size_t w)
{
    wax ax[SEL_MAX_RANK + 1];
    int ord[SEL_MAX_RANK + 1], m = p->btop + 1, i;
    int64_t idx[SEL_MAX_RANK + 1] = {0}, off[3] = {0, 0, 0}, doff = 0;
    const int64_t hi = p->brows * p->binner;

    if (!walk_order(x, p, ax, ord))
        return 0;
    for (;;) {
        block(x, off, p->brows, 0, hi, d + (size_t)doff * w);
        for (i = m - 1; i >= 0; i--) { /* odometer, ord[m - 1] innermost */
            const wax *v = &ax[ord[i]];
            for (int k = 0; k < 3; k++)
                off[k] += v->st[k];
            doff += v->dstep;
            if (++idx[i] < v->dim)
                break;
            for (int k = 0; k < 3; k++)
                off[k] -= v->st[k] * v->dim;
            doff -= v->dstep * v->dim;
            idx[i] = 0;
        }
        if (i < 0)
            return 1;
    }
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
    for (i = 0; i <= a; i++) /* q: the output's elements */
        q = i ? q * p->dims[i] : p->dims[0];
    if (begin == 0 && end == q * inner && walk_reordered(&x, p, d, w)) {
        if (nt)
            opt_fence();
        return;
    }
    opt_odometer_seek(p, row / da, a - 1, idx, off); /* the first top row */
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
        opt_odometer(p, idx, off, a - 1, -1); /* the next outer coordinate */
    }
    if (nt)
        opt_fence();
}
