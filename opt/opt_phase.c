/* opt_phase.c - outputs whose every operand is dense or repeats with a
 * period P in the flat output index (zero strides above some axis; a
 * scalar: P = 1), so output element i reads its element i mod P: one flat
 * walk.  At AVX-512 without streams or a period read in place, one wrap
 * loop call per range (opt_wrap.h, opt_vwrap.h) over copies of the
 * periods; else runs of one dense kernel call each over copies widened by
 * a run (or a long contiguous period in place, runs stopping at its
 * wrap).  Periods of 1-4 vectors are held in registers (regs()); a
 * repeated call on the caller runs again from the warm-call record
 * (opt_phase_small), remaking only the copies.
 */
#include <string.h>

#include "opt_phase.h"
#include "opt_ptile.h"
#include "opt_wrap.h"

#define RUNB 4096           /* output bytes per kernel call at most */
#define SCR (4 * RUNB)      /* scratch per operand (per thread) */
#define WIDE_MAX (2 * RUNB) /* longest period copied; longer: in place */
#define WSTEP 64            /* the wrap loops' widest step in bytes */

enum { DENSE, SCALAR, WIDE, INPLACE };

typedef struct ph_op {
    const char *base; /* the operand, its element, or its period's copy */
    size_t w;         /* bytes per element (cond: 1) */
    int64_t per;      /* elements before the phase wraps */
    int64_t raw;      /* the period (elements) */
    int32_t from;     /* the first axis it steps on */
    int mode, contig; /* contig: laid out as the output from there */
} ph_op;

typedef struct phase {
    ph_op op[3];
    opt_kernel_fn *kern;
    char *d;
    size_t w;
    opt_wrap_fn *wrap; /* one call per range (opt_wrap.h), or NULL: runs */
    size_t step[3];    /* wrap: per[k] in bytes (0: not wrapped) */
    int m, reg;        /* wrap: operands held in registers (opt_wrap.h) */
    int align;         /* wrap: copies a multiple of 64 bytes (lined()) */
    int runs;          /* wrap: stretches between wraps (opt_wrap.h) */
    int64_t run, count, chunk;
    int nt;
} phase;

#define WRAP_ROW(isa, bits) OPT_WRAP_NAME(isa, bits),
static opt_wrap_fn *const wraps[] = {OPT_WRAPS(WRAP_ROW) NULL};
#undef WRAP_ROW

opt_wrap_fn *opt_wrap_kernel(int isa, int width)
{
#if defined(__x86_64__)
    return isa == OPT_ISA_avx512 ? wraps[width] : NULL;
#else
    (void)isa, (void)width, (void)wraps;
    return NULL;
#endif
}

static int forced; /* opt_phase_force: tests only, set between calls */

void opt_phase_force(int mode)
{
    forced = mode;
}

/* b[0, have) repeated until total bytes, by doubling (64-byte moves from
 * q bytes back, q not a multiple of 64, read across two stores the store
 * buffer cannot forward: 9x7:7x15x29x9x7:9x7 u8 pdpd 2.15 -> 1.97 us). */
static void repeat(char *b, size_t have, size_t total)
{
    while (have < total) {
        const size_t n = have < total - have ? have : total - have;
        memcpy(b + have, b, n);
        have += n;
    }
}

/* The w-byte element at src written n times to out (w of 1, 2, 4, 8):
 * 8-byte stores of a word of copies. */
static void splat(char *out, const char *src, size_t w, size_t n)
{
    unsigned char e[8];
    size_t i = 0;
    const size_t bytes = n * w;
    if (w == 1) { /* libc's wide stores (a cond repeated per element) */
        memset(out, *src, n);
        return;
    }
    for (int j = 0; j < 8; j++)
        e[j] = (unsigned char)src[(size_t)j % w];
    for (; i + 8 <= bytes; i += 8)
        memcpy(out + i, e, 8);
    for (; i < bytes; i++)
        out[i] = (char)e[i % 8];
}

/* Operand k's elements over axes a.. of p, from its element off, written
 * to out in output order (inner stride 1: a row copy; 0: one element
 * repeated; an axis it broadcasts on: the first slice repeated). */
static void expand(const opt_plan *p, int k, int32_t a, const char *src,
                   int64_t off, char *out, size_t w)
{
    const int64_t n = p->dims[a], st = p->st[k][a];
    size_t blk = w; /* bytes of one slice below axis a */
    for (int32_t i = a + 1; i < p->rank; i++)
        blk *= (size_t)p->dims[i];
    if (a == p->rank - 1) {
        if (st)
            memcpy(out, src + (size_t)off * w, (size_t)n * w);
        else
            splat(out, src + (size_t)off * w, w, (size_t)n);
        return;
    }
    if (!st) {
        expand(p, k, a + 1, src, off, out, w);
        repeat(out, blk, (size_t)n * blk);
        return;
    }
    for (int64_t j = 0; j < n; j++)
        expand(p, k, a + 1, src, off + j * st, out + (size_t)j * blk, w);
}

/* Operand k: DENSE when it steps as the output on every axis; else
 * periodic from the first axis it steps on, *per elements; *contig when
 * it steps as the output from there on.  -1: neither. */
static int classify(const opt_plan *p, int k, int64_t *per, int32_t *from,
                    int *contig)
{
    int64_t ds = 1;
    int dense = 1;
    *per = 1, *from = p->rank, *contig = 1;
    for (int32_t i = p->rank - 1; i >= 0; i--) {
        if (p->st[k][i] != ds)
            dense = 0;
        if (p->st[k][i]) {
            *contig = dense, *from = i, *per = ds * p->dims[i];
        }
        ds *= p->dims[i];
    }
    if (dense)
        return DENSE;
    if (*from == 0)
        return -1;
    return *from == p->rank && k ? SCALAR : WIDE;
}

/* Sets x->op[k] for operand k (data its base); adds what its copy costs
 * to *cost: its bytes, and 64 per row of a pattern expanded row by row
 * (a call each).  0: the walk cannot read it. */
static int setup_op(phase *x, const opt_plan *p, int k, const char *data,
                    size_t *cost)
{
    ph_op *o = &x->op[k];
    o->mode = classify(p, k, &o->raw, &o->from, &o->contig);
    o->w = k ? x->w : 1, o->base = data, o->per = INT64_MAX;
    if (o->mode < 0)
        return 0;
    if (o->mode != WIDE)
        return 1;
    if ((size_t)o->raw * o->w > WIDE_MAX) {
        o->mode = INPLACE, o->per = o->raw;
        return o->contig;
    }
    /* The copy: the period at least a run long, then a run more. */
    o->per = (x->run + o->raw - 1) / o->raw * o->raw;
    *cost += (size_t)(o->per + x->run) * o->w;
    if (!o->contig && o->from < p->rank - 1)
        *cost += (size_t)(o->raw / p->dims[p->rank - 1]) * 64;
    return 1;
}

/* The wrap loop's step for a period of pb bytes: the fewest whole periods
 * of WSTEP bytes or more; with x->align, of 16 vectors of vb bytes or
 * more (runs()) and a multiple of 64 within the limits below, read at
 * dst's place in a line (Zen 5: a load across lines takes two slots). */
static size_t lined(const phase *x, size_t pb, size_t vb)
{
    size_t l = pb * (64 / ((size_t)1 << (__builtin_ctzll(pb) < 6
                                            ? __builtin_ctzll(pb)
                                            : 6)));
    l *= (16 * vb + l - 1) / l; /* 16 vectors or more: runs() */
    /* Not with registers (regs(): the copies are remade per call, and
     * 1x1:1x76:61x76 f32 lost 0.51 -> 0.38), nor past 4 KiB (two 16 KiB
     * copies of 1x251:1x251:11898x251 bf16: 0.90 -> 0.69) or a sixteenth
     * of the output (slabs: 41x1x166:41x48x166:1x1x1x1 i32 0.79 -> 0.66). */
    if (x->align && !x->m && l <= 4096 && l * 16 <= (size_t)x->count * x->w)
        return l;
    /* Else 16 vectors unaligned, within an eighth of the output: runs()
     * beats the per-vector wrap even with loads across lines (periods of
     * 884 bytes, 4x13x17x1:2x14x4x13x17x1:4x1x1x1 u8 0.40 -> 0.44). */
    l = (16 * vb + pb - 1) / pb * pb;
    if (x->align && !x->m && l * 8 <= (size_t)x->count * x->w)
        return l;
    return (WSTEP + pb - 1) / pb * pb;
}

/* Operand k's copy into scr, when it has one: for the runs, its period
 * widened to per elements and a run more; for the wrap loop, to WSTEP
 * bytes or more (a whole number of periods, step[k]) and WSTEP more. */
static void fill_op(phase *x, const opt_plan *p, int k, char *scr)
{
    ph_op *o = &x->op[k];
    const size_t pb = (size_t)o->raw * o->w;
    if (o->mode != WIDE)
        return;
    if (o->contig) /* laid out as the output from axis from: one copy */
        memcpy(scr, o->base, pb);
    else
        expand(p, k, o->from, o->base, 0, scr, o->w);
    if (x->wrap) {
        x->step[k] = lined(x, pb, k ? WSTEP : WSTEP / x->w);
        repeat(scr, pb, x->step[k] + WSTEP);
    } else {
        repeat(scr, pb, (size_t)(o->per + x->run) * o->w);
    }
    o->base = scr;
}

/* How many vectors operand k's period of raw elements divides (lanes a
 * power of 2: raw without the factors of 2 it shares with the lanes); 0
 * when it is not a wrapped copy. */
static int64_t vectors(const phase *x, int k)
{
    const int sh = __builtin_ctzll(WSTEP / x->w); /* log2 of the lanes */
    const int z = __builtin_ctzll((uint64_t)x->op[k].raw);
    return x->op[k].mode != WIDE ? 0 : x->op[k].raw >> (z < sh ? z : sh);
}

/* The wrap loop's registers: an operand whose period divides m vectors
 * (vectors()) of 1-4 is read once per call into m registers instead of
 * once per vector; of m = 1-4, the one that holds the most wrapped
 * operands (scalars are held at any m).  None: m = 0. */
static void regs(phase *x)
{
    int64_t mk[3];
    int best = 0;
    x->m = 0, x->reg = 0;
    for (int k = 0; k < 3; k++)
        mk[k] = vectors(x, k);
    for (int m = 1; m <= 4; m++) { /* mk divides m: no division */
        int n = 0, bits = 0;
        for (int k = 0; k < 3; k++) {
            if (x->op[k].mode == SCALAR)
                bits |= 1 << k;
            else if (mk[k] == 1 || mk[k] == m || (mk[k] == 2 && m == 4))
                bits |= 1 << k, n++;
        }
        if (n > best)
            best = n, x->m = m, x->reg = bits;
    }
}

/* regs(); on Zen 5 (x->align), from RUNS_MIN bytes, when it leaves a
 * wrapped operand out and every copy can be 16 vectors: none, runs()
 * (2x1x1x3:35x2x3x35x3:3 f64 pdpd, cond wrapped per vector beside else in
 * registers: 2.18 -> 1.87 us; 1x1x2:31x87x2:87x2 bf16, 11 KiB, lost). */
#define RUNS_MIN ((size_t)16 << 10)

static void regs_or_runs(phase *x)
{
    int m, out = 0, fit = 1;
    regs(x);
    if (!x->align || !x->m || (size_t)x->count * x->w < RUNS_MIN)
        return;
    m = x->m, x->m = 0; /* lined() without registers */
    for (int k = 0; k < 3; k++) {
        const size_t vb = k ? WSTEP : WSTEP / x->w;
        if (x->op[k].mode != WIDE)
            continue;
        out |= !(x->reg >> k & 1);
        fit &= lined(x, (size_t)x->op[k].raw * x->op[k].w, vb) >= 16 * vb;
    }
    if (out && fit)
        x->reg = 0;
    else
        x->m = m;
}

/* The wrap loop in stretches between wraps (opt_wrap.h, runs) when 512-bit
 * ops run whole and every wrapped copy's step is 16 vectors or more. */
static void runs(phase *x)
{
    x->runs = x->align && !x->m;
    for (int k = 0; k < 3; k++)
        if (x->op[k].mode == WIDE &&
            x->step[k] < 16 * (k ? (size_t)WSTEP : WSTEP / x->w))
            x->runs = 0;
}

/* Output elements [begin, end) in one wrap loop call. */
static void wrap_range(const phase *x, int64_t begin, int64_t end)
{
    opt_wrap a;
    for (int k = 0; k < 3; k++) {
        const ph_op *o = &x->op[k];
        a.base[k] = o->base, a.per[k] = SIZE_MAX, a.off[k] = 0;
        if (o->mode == DENSE)
            a.off[k] = (size_t)begin * o->w;
        else if (o->mode == WIDE) /* aligned: at dst's place in a line */
            a.per[k] = x->step[k],
            a.off[k] = x->align ? (size_t)begin * o->w % x->step[k]
                       : begin  ? (size_t)(begin % o->raw) * o->w
                                : 0;
    }
    a.ts = x->op[1].mode == SCALAR, a.es = x->op[2].mode == SCALAR;
    a.m = x->m, a.reg = x->reg, a.runs = x->runs;
    x->wrap((size_t)(end - begin), &a, x->d + (size_t)begin * x->w);
}

/* Output elements [begin, end) in runs. */
static void range(const phase *x, int64_t begin, int64_t end)
{
    int64_t ph[3];
    if (x->wrap) {
        wrap_range(x, begin, end);
        return;
    }
    for (int k = 0; k < 3; k++)
        ph[k] = x->op[k].mode == SCALAR ? 0 : begin % x->op[k].per;
    for (int64_t pos = begin; pos < end;) {
        int64_t len = end - pos < x->run ? end - pos : x->run;
        for (int k = 0; k < 3; k++)
            if (x->op[k].mode == INPLACE && x->op[k].per - ph[k] < len)
                len = x->op[k].per - ph[k];
        x->kern((size_t)len,
                (const uint8_t *)x->op[0].base + ph[0],
                x->op[1].base + (size_t)ph[1] * x->w,
                x->op[2].base + (size_t)ph[2] * x->w,
                x->d + (size_t)pos * x->w, x->nt);
        for (int k = 0; k < 3; k++)
            if (x->op[k].mode != SCALAR &&
                (ph[k] += len) >= x->op[k].per)
                ph[k] -= x->op[k].per;
        pos += len;
    }
    if (x->nt)
        opt_fence();
}

static void task(void *ctx, size_t i)
{
    const phase *x = (const phase *)ctx;
    const int64_t b = (int64_t)i * x->chunk;
    range(x, b, b + x->chunk < x->count ? b + x->chunk : x->count);
}

/* Elements per call: RUNB bytes, less on small outputs (the copies of
 * the periods are a run or two long), a multiple of 64 bytes. */
static int64_t run_len(size_t bytes, size_t w)
{
    size_t rb = RUNB;
    while (rb > 512 && rb * 8 > bytes)
        rb /= 2;
    return (int64_t)(rb / w);
}

/* Whether the walk beats the plan's other paths (opt/NOTES.md, "Periodic
 * operands"): not when the copies cost over half the output; not on rows
 * of 2 KiB or more (cond_1024_f32 1.06 by rows, 0.93 here); not for a
 * cond copied at widths 1-4 in cache that the ptile blocks take (they
 * hold its pattern in registers: 1x1x16:391x96x16:391x96x16 i8 0.97 there,
 * 0.93 here) unless the wrap loop holds it (1x2:1583x2:2 f32 pdpd 0.48
 * in ptile, 0.65 here). */
static int pays(const phase *x, const opt_plan *p, int isa, size_t cost,
                size_t bytes)
{
    const size_t w = x->w;
    if (cost * 2 > bytes)
        return 0;
    if (p->btop < 0)
        return cost && (size_t)p->dims[p->rank - 1] * w < 2048;
    return x->op[0].mode != WIDE || w > 4 || x->nt ||
           (vectors(x, 0) <= 4 && opt_wrap_kernel(isa, opt_width_index(w))) ||
           !opt_ptile_get(p, w, isa, x->nt);
}

static _Thread_local _Alignas(64) char scr[3][SCR]; /* the copies */

/* The walk's state for p (its copies made, from data): 1, or 0 when the
 * walk cannot read an operand or does not pay. */
static int prepare(phase *x, const opt_plan *p, const void *const data[3],
                   char *d, size_t w, int isa, int nt)
{
    size_t bytes, cost = 0;
    int kind;

    if (forced < 0 || p->rank < 2)
        return 0;
    x->count = 1;
    for (int32_t i = 1; i < p->rank; i++)
        x->count *= p->dims[i];
    /* The usual refusal first: an operand that steps on the outermost
     * axis other than as the output is not periodic. */
    for (int k = 0; k < 3; k++)
        if (p->st[k][0] && p->st[k][0] != x->count)
            return 0;
    x->count *= p->dims[0];
    bytes = (size_t)x->count * w;
    x->w = w, x->d = d, x->nt = nt, x->run = run_len(bytes, w);
    for (int k = 0; k < 3; k++)
        if (!setup_op(x, p, k, (const char *)data[k], &cost))
            return 0;
    if (!forced && !pays(x, p, isa, cost, bytes))
        return 0;
    /* The wrap loop: the periods in cache (no streams), none read in
     * place (a copy has a step of slack after it). */
    x->wrap = nt || forced == 2 ? NULL
                                : opt_wrap_kernel(isa, opt_width_index(w));
    for (int k = 0; k < 3; k++)
        if (x->op[k].mode == INPLACE)
            x->wrap = NULL;
    /* Zen 4 (512-bit loads in halves) keeps the short copies it was
     * measured with. */
    x->align = x->wrap && !opt_cpu_split512();
    if (x->wrap)
        regs_or_runs(x); /* before the copies: lined() reads x->m */
    for (int k = 0; k < 3; k++)
        fill_op(x, p, k, scr[k]);
    if (x->wrap)
        runs(x);
    kind = x->op[1].mode == SCALAR ? (x->op[2].mode == SCALAR ? OPT_K_vss
                                                              : OPT_K_vsv)
                                   : (x->op[2].mode == SCALAR ? OPT_K_vvs
                                                              : OPT_K_vvv);
    x->kern = opt_kernel(isa, opt_width_index(w), kind);
    return 1;
}

int opt_phase_run(const opt_plan *p, const void *const data[3], char *d,
                  size_t w, int isa, int nt, int threads, int64_t chunk)
{
    phase x;

    if (!prepare(&x, p, data, d, w, isa, nt))
        return 0;
    if (threads <= 1) {
        range(&x, 0, x.count);
        return 1;
    }
    x.chunk = chunk;
    opt_parallel(task, &x, (size_t)((x.count + x.chunk - 1) / x.chunk),
                 threads);
    return 1;
}

/* The thread's last walk by opt_phase_small, for the warm call: the plan
 * (expand() reads it) and the state; the copies are remade per call. */
typedef struct warm {
    opt_plan p;
    phase x;
    int isa;
} warm;
static _Thread_local warm last;
/* The refused plan: its address (shared by every shape) and number. */
static _Thread_local struct {
    const opt_plan *p;
    uint32_t gen;
} refused;

static void again(void *ctx, const void *c, const void *t, const void *e,
                  void *d)
{
    warm *const m = (warm *)ctx;
    const void *const data[3] = {c, t, e};
    for (int k = 0; k < 3; k++) {
        m->x.op[k].base = (const char *)data[k];
        fill_op(&m->x, &m->p, k, scr[k]);
    }
    m->x.d = (char *)d;
    range(&m->x, 0, m->x.count);
}

int opt_phase_small(const opt_plan *p, const void *const data[3], char *d,
                    size_t w, int same, const opt_tuning *tu, opt_hit_act *a)
{
    warm *const m = &last;
    size_t n = 1;

    if (!same) {
        refused.p = NULL; /* a new plan: try it when it repeats */
        return 0;
    }
    if (refused.p == p && refused.gen == p->gen)
        return 0;
    for (int32_t i = 0; i < p->rank; i++)
        n *= (size_t)p->dims[i];
    m->isa = opt_isa_active();
    if (n * w >= tu->parallel_min || p->footprint > tu->nt_min ||
        !prepare(&m->x, p, data, d, w, m->isa, 0)) {
        refused.p = p, refused.gen = p->gen;
        return 0;
    }
    m->p = *p;
    range(&m->x, 0, m->x.count);
    a->fn = again, a->ctx = m, a->n = n;
    return 2;
}
