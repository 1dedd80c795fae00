/* opt_crep.c - a cond repeated per element, read directly by the kernel:
 * cond [N,1] against [N,C] ("a mask per pixel over C channels"), one cond
 * byte per row of C output elements.  The kernels (opt_avx2.c,
 * opt_avx512.c) expand the cond bytes to lane masks in registers through
 * an index table, so cond takes no scratch pass and no second read.
 *
 * This file decides when a blocked plan qualifies, holds the tables and
 * turns a block's part into a job.  Then and else keep what opt_block.c
 * gives them: dense in place, one element, or expanded into scratch (a
 * tiled default, built once per call).
 */
#include "opt.h"

#if defined(__x86_64__)
#include <pthread.h>

/* seqs[C][k] = k / C: the cond byte (from the row of element 0) of element
 * k when element 0 is the first of its row; from phase r the window is
 * seqs[C] + r.  k reaches C - 1 + 64 (a window) and r + 64 (a step). */
#define SEQ_LEN (OPT_CREP_SEQC + 72)
static uint8_t seqs[OPT_CREP_SEQC + 1][SEQ_LEN];
static pthread_once_t seqs_once = PTHREAD_ONCE_INIT;

static void seqs_build(void)
{
    for (size_t C = 1; C <= OPT_CREP_SEQC; C++)
        for (size_t k = 0; k < SEQ_LEN; k++)
            seqs[C][k] = (uint8_t)(k / C);
}

/* The AVX2 kernels' windows near the end of cond go through a small copy
 * and their tails are plain C: on tiny calls (tiny_r2_f32, 256 elements)
 * they took 260-370 ns against the expansion's 130-235; from this many
 * output elements on they win (chan_c3_f32, points_dense_f32). */
#define AVX2_MIN 8192

static opt_crep_fn *const avx2_fns[4] = { /* none for 1 byte (opt.h) */
    NULL, opt_crep_x16__avx2, opt_crep_x32__avx2,
    opt_crep_x64__avx2};
static opt_crep_fn *const avx512_fns[4] = {
    opt_crep_x8__avx512, opt_crep_x16__avx512, opt_crep_x32__avx512,
    opt_crep_x64__avx512};

/* gcd(x, 64), x > 0: no division (a loop of x / gcd divisions took
 * microseconds for an odd C near 511). */
static uint64_t gcd64(uint64_t x)
{
    uint64_t g = 1;
    while (g < 64 && !(x & g))
        g <<= 1;
    return g;
}

/* 1 when then and else need no scratch beyond a tile's first trows rows:
 * each dense, constant over the block, or a tile of P or Q groups. */
static int noscratch(const opt_plan *p, const opt_crep *cr)
{
    for (int k = 1; k < 3; k++) {
        int zeros = 0;
        for (int32_t a = p->btop; a < p->rank; a++)
            zeros += p->st[k][a] == 0;
        if (zeros && zeros != p->rank - p->btop &&
            !(cr->tile[k] && (cr->P || cr->Q)))
            return 0;
    }
    return 1;
}
#endif

int opt_crep_init(opt_crep *cr, const opt_plan *p, int isa, size_t w)
{
#if defined(__x86_64__)
    const int32_t top = p->btop, in = p->rank - 1;
    const int wi = opt_width_index(w);
    int64_t unit, elems = 1;

    if (p->dims[in] < 2 || p->dims[in] > OPT_CREP_MAXC) /* shape: opt.h */
        return 0;
    for (int32_t a = in - 1; a >= top; a--) { /* cond contiguous */
        if (p->st[0][a] != elems)
            return 0;
        elems *= a > top ? p->dims[a] : 1;
    }
    elems = 1;
    for (int32_t a = 0; a < p->rank; a++)
        elems *= p->dims[a];
    if (isa >= OPT_ISA_avx512 && opt_cpu_vbmi())
        cr->fn = avx512_fns[wi];
    else if (isa >= OPT_ISA_avx2 && elems >= AVX2_MIN &&
             p->dims[in] <= OPT_CREP_SEQC) /* also AVX-512 without VBMI */
        cr->fn = avx2_fns[wi];
    else
        cr->fn = NULL;
    if (!cr->fn)
        return 0;
    pthread_once(&seqs_once, seqs_build);
    cr->C = (size_t)p->dims[in];
    cr->seq = cr->C <= OPT_CREP_SEQC ? seqs[cr->C] : NULL;
    /* Blocks of whole 64-byte lines (aligned when dst is): a vector
     * split over two lines costs as much as a second access. */
    unit = 64 / gcd64((uint64_t)p->binner * w);
    cr->brows = p->brows >= unit ? p->brows / unit * unit : p->brows;
    /* A tile: dense along the row, the same for every row.  Its pattern
     * over 64-element groups repeats every C / gcd(C, 64) groups. */
    for (int k = 1; k < 3; k++) {
        cr->tile[k] = p->st[k][in] == 1;
        for (int32_t a = top; a < in; a++)
            cr->tile[k] &= p->st[k][a] == 0;
    }
    unit = (int64_t)(cr->C / gcd64(cr->C));
    cr->P = (unit == 1 || unit == 3) && cr->fn != avx2_fns[wi] ? (int)unit : 0;
    cr->Q = !cr->P && w > 1 && cr->fn != avx2_fns[wi] ? (int)unit : 0;
    /* What the kernel reads of a tile in registers or of Q groups
     * (opt_avx512.c), from any phase: the tile need not be expanded over
     * the whole block. */
    unit = (int64_t)cr->C + 64 * (cr->P + cr->Q + 2); /* elements */
    cr->trows = (unit + p->binner - 1) / p->binner; /* top rows of them */
    if (cr->trows > p->brows) /* Q groups do not fit the block's scratch */
        cr->Q = 0;
    cr->trows = !cr->P && !cr->Q ? 0
                : cr->trows < p->brows ? cr->trows : p->brows;
    if (noscratch(p, cr))
        cr->brows = p->dims[top];
    cr->w = w;
    return 1;
#else
    (void)cr, (void)p, (void)isa, (void)w;
    return 0;
#endif
}

void opt_crep_block(const opt_crep *cr, const uint8_t *c, size_t cavail,
                    int64_t lo, size_t n, const char *t, int tcls,
                    const char *e, int ecls, char *d, int nt)
{
    const size_t row = lo ? (size_t)lo / cr->C : 0; /* lo: 0 but in the
                                                       first block of a chunk */
    opt_crep_job j;

    j.c = c + row, j.cavail = cavail - row;
    j.r = (size_t)lo - row * cr->C, j.C = cr->C, j.n = n, j.seq = cr->seq;
    j.t = t, j.e = e, j.d = d, j.nt = nt, j.P = cr->P, j.Q = cr->Q;
    j.ts = tcls == 1 ? 1 : tcls == 2 && cr->tile[1] ? 2 : 0;
    j.es = ecls == 1 ? 1 : ecls == 2 && cr->tile[2] ? 2 : 0;
    if (cr->trows) { /* a tile's element lo is its element lo % C */
        const size_t back = ((size_t)lo - j.r) * cr->w;
        j.t = j.ts == 2 ? t - back : t, j.e = j.es == 2 ? e - back : e;
    }
    cr->fn(&j);
}
