/* opt_exec.c - running a plan: the walk over rows that calls the kernels,
 * split into chunks for the pool when the output is large enough.
 *
 * Any range [begin, end) of flat output indices can run on its own, so a
 * chunk is just a range; chunks are whole multiples of 64 elements, so
 * threads meet at most on one cache line of dst.  The small-call path
 * (below the parallel threshold) runs on the caller: no allocation,
 * no other thread, no atomic beyond the loads of the settings.
 */
#include <string.h>

#include "opt.h"
#include "opt_phase.h"
#include "opt_pick.h"
#include "opt_ptile.h"
#include "opt_rows.h"

typedef struct run {
    const opt_plan *p;
    const uint8_t *c;
    const char *t, *e;
    char *d;
    size_t w;
    opt_kernel_fn *kern, *fill, *copy, *line; /* line: x8 copy (edges) */
    const opt_ptile *pt; /* blocks in registers (opt_ptile.c), or NULL */
    int nt, isa;
    int32_t pair; /* the axis whose rows run in pairs (pair_axis), or -1 */
    int ahead;    /* pairs: OPT_AHEAD_* of the streams (ahead_bits) */
    int seg;      /* the whole call, rows in segments (opt_rows.c) */
    int edge;     /* streams, rows ending inside a line: edge_row */
    int ahead_rows; /* row copies request the next row (AHEAD_MIN) */
    int half;     /* OPT_HALF for the row kernels, past half_min */
    int64_t count, chunk;
} run;

/* When cond is constant along rows, each row is copied from then or from
 * else at random, so every row starts a stream the hardware prefetcher has
 * not seen.  Rows are therefore copied in segments, and before each
 * segment the same part of the next row's source is requested (see
 * README.md for the measurement; only past AHEAD_MIN of footprint). */
#define SEG 1024
/* A row with no next row to request (the last, or a whole dense input under
 * a constant cond) is copied in pieces of 256 KiB: libc's memcpy moves
 * those with rep movsb, about twice the speed of 1 KiB vector copies into
 * a dst outside L2 (_:13987x55x16:1x55x16 i8, then picked: 0.42-0.53 of
 * the yardstick in 1 KiB pieces), and uses no streams at that size. */
#define SEG_ALONE ((size_t)256 << 10)
/* Only calls past this footprint request the next row: below it the rows'
 * sources come from L2 or L3 and the requests and 1 KiB pieces cost more
 * than they save (1x17x1x1x1:17x1x87x6:Nx17x1x87x6 i32, rows of 2088
 * bytes: N = 7, 0.5 MB, 7.8 -> 5.8 us; N = 30, 2 MB, 37 -> 32 us; N = 150,
 * 11 MB, 191 -> 170 us; 256x1:256x4096:256x4096 f32, 8 MB, 126 -> 113 us;
 * at N = 250-400, 18-28 MB, mixed to worse without). */
#define AHEAD_MIN ((size_t)8 << 20)

/* Row copies of at most FAR_ROW bytes under streams (the sources come
 * from DRAM): the row FAR_BYTES ahead is requested whole, one row's source
 * per row copied, instead of the next row's in SEG pieces: one row of 1579
 * bytes is too little lead for DRAM's latency (286x148x1:286x148x1579:...
 * i8 numpy, Zen 5: 0.44-0.47 of the yardstick with the next row requested,
 * 0.52 one row ahead whole, 0.59 four, 0.63-0.73 eight (12 KiB),
 * 0.56-0.82 sixteen, 0.46-0.77 32).  The 4 KiB rows of rowbcast_f32
 * gained nothing within the noise and keep SEG, and so do rows without
 * streams (from L3: 3000x1:3000x1579:3000x1579 u8, no gain seen). */
#define FAR_ROW ((size_t)2 << 10)
#define FAR_BYTES ((size_t)12 << 10)

/* The source of a cond-constant row at off: then or else (COND-NZ-1),
 * and whether it advances along the row (copy) or not (fill). */
static const char *row_src(const run *x, const int64_t *off, int *advances)
{
    const int k = x->c[off[0]] ? 1 : 2;
    *advances = x->p->st[k][x->p->rank - 1] != 0;
    return (k == 1 ? x->t : x->e) + (size_t)off[k] * x->w;
}

/* One row (or elements j.. of it): the kernel of the plan, or a copy or
 * fill from the input cond picks.  next: the source of the next row to
 * copy, or NULL; nt: streams (the call's, or 0 into the line buffer). */
static void row(const run *x, int64_t len, const int64_t *off, int64_t j,
                char *d, const char *next, int nt)
{
    const int32_t in = x->p->rank - 1;
    const size_t w = x->w, bytes = (size_t)len * w;
    size_t seg;
    const char *src;
    int adv;

    if (x->kern) {
        x->kern((size_t)len, x->c + off[0] + j * x->p->st[0][in],
                x->t + (size_t)(off[1] + j * x->p->st[1][in]) * w,
                x->e + (size_t)(off[2] + j * x->p->st[2][in]) * w, d, nt);
        return;
    }
    src = row_src(x, off, &adv);
    if (!adv) {
        x->fill((size_t)len, NULL, src, NULL, d, nt);
        return;
    }
    src += (size_t)j * w;
    seg = next ? SEG : SEG_ALONE;
    for (size_t b = 0; b < bytes; b += seg) {
        const size_t n = bytes - b < seg ? bytes - b : seg;
        if (next)
            for (size_t i = 0; i < SEG; i += 64)
                __builtin_prefetch(next + b + i, 0, 2);
        x->copy(n / w, NULL, src + b, NULL, d + b, nt);
    }
}

/* Streams and rows whose bytes are not a multiple of 64: the line where a
 * row ends and the next begins was written in two parts with regular
 * stores, and the first waited for the line from DRAM.  A model (rows of
 * 1008 bytes, 31 MiB, medians of 21): 2.8-3.0 ms with the parts stored in
 * place, 1.8 ms with them assembled in a buffer and the line streamed
 * whole, 1.9 ms for rows of 1024 bytes.  The first and last partial lines
 * of a range are written in place: their other bytes are not the range's.
 * Rows in pairs keep in-place ends (the same with a buffer per member was
 * slower on rows of 4000 bytes: opt/README.md). */
typedef struct edge {
    char *line; /* the line whose first bytes buf holds, or NULL */
    _Alignas(64) unsigned char buf[64];
} edge;

static void edge_row(const run *x, int64_t len, const int64_t *off,
                     int64_t j, char *d, const char *next, edge *g)
{
    const size_t w = x->w;
    char *const end = d + (size_t)len * w;
    char *const tail = (char *)((uintptr_t)end & ~(uintptr_t)63);
    int64_t m;

    if ((uintptr_t)d % 64) { /* the head, up to the first line boundary */
        char *const l = (char *)((uintptr_t)d & ~(uintptr_t)63);
        char *const he = l + 64 < end ? l + 64 : end;
        m = (int64_t)((size_t)(he - d) / w);
        if (g->line == l) {
            row(x, m, off, j, (char *)g->buf + (d - l), NULL, 0);
            if (he == l + 64) {
                x->line((size_t)64, NULL, g->buf, NULL, l, 1);
                g->line = NULL;
            }
        } else
            row(x, m, off, j, d, NULL, 0);
        j += m, d = he;
    }
    if (tail > d) { /* whole lines */
        m = (int64_t)((size_t)(tail - d) / w);
        row(x, m, off, j, d, next, 1);
        j += m, d = tail;
    }
    if (end > d) { /* the tail: into the buffer, the next row completes it */
        row(x, (int64_t)((size_t)(end - d) / w), off, j, (char *)g->buf, NULL, 0);
        g->line = d;
    }
}

/* Far requests (FAR_ROW): the row `rows` rows ahead of the walk (its
 * odometer idx, off; its first element pos), its source requested whole
 * while it lies inside the range (past it, the rows are another chunk's;
 * the odometer wraps, so its cond byte is always inside cond). */
typedef struct far {
    int64_t idx[SEL_MAX_RANK], off[3], pos, rows;
} far;

static void far_init(const run *x, far *f, int64_t row)
{
    const opt_plan *p = x->p;
    const size_t bytes = (size_t)p->dims[p->rank - 1] * x->w;
    f->rows = (int64_t)((FAR_BYTES + bytes - 1) / bytes);
    f->off[0] = f->off[1] = f->off[2] = 0;
    f->pos = (row + f->rows) * p->dims[p->rank - 1];
    opt_odometer_seek(p, row + f->rows, p->rank - 2, f->idx, f->off);
}

static void far_step(const run *x, far *f, int64_t end)
{
    const opt_plan *p = x->p;
    const int64_t n = p->dims[p->rank - 1];
    int adv;
    const char *s;
    if (f->pos + n <= end && (s = row_src(x, f->off, &adv)) && adv)
        for (size_t b = 0; b < (size_t)n * x->w; b += 64)
            __builtin_prefetch(s + b, 0, 2);
    f->pos += n;
    opt_odometer(p, f->idx, f->off, p->rank - 2, -1);
}

static void run_rows(const run *x, int64_t begin, int64_t end)
{
    const opt_plan *p = x->p;
    const int32_t outer = p->rank - 1;
    const int64_t n = p->dims[outer];
    int64_t idx[SEL_MAX_RANK], off[3] = {0, 0, 0};
    int64_t j = begin % n, pos = begin;
    const int fr = !x->kern && x->ahead_rows && x->nt &&
                   (size_t)n * x->w <= FAR_ROW;
    far f;
    edge g;

    g.line = NULL;
    opt_odometer_seek(p, begin / n, outer - 1, idx, off);
    if (fr)
        far_init(x, &f, begin / n);
    while (pos < end) {
        const int64_t len = n - j < end - pos ? n - j : end - pos;
        const int64_t cur[3] = {off[0], off[1], off[2]};
        const char *next = NULL;
        int adv = 0;
        opt_odometer(p, idx, off, outer - 1, -1); /* the next row */
        /* The next row's source, to prefetch (only within this range: a
         * prefetch may not fault, but the cond byte read here would). */
        if (fr)
            far_step(x, &f, end);
        else if (!x->kern && x->ahead_rows && pos + len + n <= end &&
                 (next = row_src(x, off, &adv)) && !adv)
            next = NULL;
        if (x->edge)
            edge_row(x, len, cur, j, x->d + (size_t)pos * x->w, next, &g);
        else
            row(x, len, cur, j, x->d + (size_t)pos * x->w, next,
                x->nt | x->half);
        pos += len;
        j = 0;
    }
    if (g.line) /* the range's last partial line, in place */
        memcpy(g.line, g.buf, (size_t)(x->d + (size_t)end * x->w - g.line));
}

/* Rows in pairs.  When an operand that advances along the row repeats
 * along an outer axis a (then [J,K] against else [I,J,K]), row-major
 * order reads its J rows again for every i, from L2 once they pass L1:
 * one more L1 fill per output line, and the kernel ran at 0.66 of the
 * yardstick on midaxis_f16.  Rows (i,j) and (i+1,j) one after the other
 * read then's row j once from L2 and once from L1.  (A stand-alone model
 * of midaxis_f16, medians of 41: 346 us row-major, 289 us in pairs, 284
 * in fours, 279 with then's row always in L1.) */
#define PAIR 2
#define PAIR_REUSE ((size_t)32 << 10) /* L1D: rows under it stay there */

/* The axis whose rows run in pairs, or -1.  For each operand that advances
 * along the row, the innermost outer axis a on which it does not advance:
 * row-major order reads its rows again at each step of a, and when the
 * rows it reads below a (before it repeats) hold PAIR_REUSE bytes or more,
 * those come from L2 or beyond.  Pairs help only there: an operand that
 * also repeats on an inner axis over fewer bytes is read from L1 already
 * (a rank-6 i64 sweep shape whose then repeats on axes 0, 2 and 3 lost
 * 0.03-0.05 in pairs on axis 0).  Axes between a and the row are needed:
 * without them the order is the same.  The innermost such a wins. */
static int32_t pair_axis(const opt_plan *p, size_t w)
{
    const int32_t in = p->rank - 1;
    int32_t best = -1;
    for (int k = 0; k < 3; k++) {
        size_t bytes = (size_t)p->dims[in] * (k ? w : 1);
        int32_t a = in - 1;
        if (!p->st[k][in])
            continue;
        for (; a >= 0 && p->st[k][a]; a--)
            bytes *= (size_t)p->dims[a];
        if (a >= 0 && a < in - 1 && a > best && p->dims[a] >= PAIR &&
            bytes >= PAIR_REUSE)
            best = a;
    }
    return best;
}

/* The inputs that pairs read as streams: those that advance on every
 * axis from the pair axis to the row (a row repeated along one of them
 * comes from L1 or L2: midaxis_f16's then along the pair axis, its cond
 * along the middle one).  Their lines and dst's are requested ahead in the
 * kernel's loop (opt_vloop.h).  Never both then and else: were both
 * dense from the pair axis down, cond too would be on the axes between it
 * and the row (it sets the pair axis), and those axes would have merged
 * into the row.  Not under streams, which skip the caches. */
static int ahead_bits(const opt_plan *p, int32_t a)
{
    static const int bit[3] = {0, OPT_AHEAD_T, OPT_AHEAD_E};
    int b = 0;
    for (int k = 1; k < 3; k++) { /* cond: 1/w of the bytes, not requested */
        int32_t i = a;
        while (i < p->rank && p->st[k][i])
            i++;
        if (i == p->rank)
            b |= bit[k];
    }
    return b;
}

/* Rows r .. r + g * s - 1 (idx[a] of row r a multiple of PAIR, the axes
 * below a at 0; s rows per step of a): for each step below a, its g rows
 * along a one after the other. */
static void pair_rows(const run *x, int64_t r, int64_t g, int64_t s)
{
    const opt_plan *p = x->p;
    const int32_t a = x->pair, in = p->rank - 1;
    const int64_t n = p->dims[in];
    int64_t idx[SEL_MAX_RANK] = {0}, off[3] = {0, 0, 0}, q = r;
    int32_t i;
    int k;

    for (i = in - 1; i >= 0; i--) { /* row r's offsets */
        for (k = 0; k < 3; k++)
            off[k] += q % p->dims[i] * p->st[k][i];
        q /= p->dims[i];
    }
    for (int64_t u = 0; u < s; u++) {
        for (int64_t h = 0; h < g; h++)
            x->kern((size_t)n, x->c + off[0] + h * p->st[0][a],
                    x->t + (size_t)(off[1] + h * p->st[1][a]) * x->w,
                    x->e + (size_t)(off[2] + h * p->st[2][a]) * x->w,
                    x->d + (size_t)((r + h * s + u) * n) * x->w,
                    x->nt | x->ahead | x->half);
        opt_odometer(p, idx, off, in - 1, a); /* the next step below a */
    }
}

/* [begin, end) with whole pairs inside it in pairs, the rest as rows. */
static void run_pairs(const run *x, int64_t begin, int64_t end)
{
    const opt_plan *p = x->p;
    const int32_t a = x->pair, in = p->rank - 1;
    const int64_t n = p->dims[in];
    int64_t s = 1, pos = begin;

    for (int32_t i = a + 1; i < in; i++)
        s *= p->dims[i];
    while (pos < end) {
        /* the first pair's start at or after the first whole row */
        const int64_t r = (pos + n - 1) / n, cyc = s * p->dims[a];
        int64_t m = (r % cyc + PAIR * s - 1) / (PAIR * s) * (PAIR * s);
        const int64_t start = r - r % cyc + (m < cyc ? m : cyc);
        const int64_t left = p->dims[a] - start % cyc / s;
        const int64_t g = left < PAIR ? left : PAIR;
        if ((start + g * s) * n > end) {
            run_rows(x, pos, end);
            return;
        }
        if (start * n > pos)
            run_rows(x, pos, start * n);
        if (g < 2)
            run_rows(x, start * n, (start + s) * n);
        else
            pair_rows(x, start, g, s);
        pos = (start + g * s) * n;
    }
}

/* Streams: past the LLC for every plan; on Zen 5 also rows of a select
 * kernel (not blocks) whose inputs hold at least half dst's bytes, past
 * 17/32 of the LLC (5/8 for rows in pairs).  Those inputs come back from
 * DRAM each call, and plain stores then wait for dst's lines as well
 * (f32, 1x8192 against Nx8192, t1, opt's us: N = 256 (19 MB) 243-248 ->
 * 199-204, 300: 320-331 -> 244-256, 480: 748-845 -> 525-569; at N =
 * 150-200, 10-13 MB, streams lost 2-7%, and 3509904:3509904:_ bf16 at
 * 17.5 MB 146-148 -> 163-167).  Outputs from small inputs keep plain
 * stores (1x180x1:180x1x180:180x180x1 f32, 23 MB: 627-679 us -> 1.0 ms
 * streamed), and so do row copies under a cond constant per row
 * (4000x1:4000x1579:4000x1579 u8, 19 MB: 199-283 -> 250-337 us).  Pairs
 * lose their requests ahead to streams: midaxis_f16 (17 MB) 0.75 ->
 * 0.63-0.67, 72x72x1024 f16 (21 MB) even, 1x296x30x166 f64 (24 MB)
 * 342-374 -> 312-336 us.  Zen 4 keeps the LLC rule it was measured with
 * (opt_cpu_split512). */
static int streams(const opt_plan *p, const opt_tuning *tu, size_t bytes,
                   int32_t pair)
{
    const size_t from = tu->nt_min / 32 * (pair < 0 ? 17 : 20);
    if (p->footprint > tu->nt_min)
        return 1;
    return p->btop < 0 && p->kind >= 0 && p->footprint > from &&
           p->footprint - bytes >= bytes / 2 && !opt_cpu_split512();
}

static void run_range(const run *x, int64_t begin, int64_t end)
{
    if (x->seg && begin == 0 && end == x->count)
        opt_run_segs(x->p, x->kern, x->c, x->t, x->e, x->d, x->w, x->pair);
    else if (x->pair >= 0)
        run_pairs(x, begin, end);
    else if (!x->edge && (x->kern || !x->ahead_rows) &&
             (size_t)x->p->dims[x->p->rank - 1] * x->w <= OPT_LEAN_ROW)
        opt_lean_rows(x->p, x->kern, x->c, x->t, x->e, x->d, x->w, x->copy,
                      x->fill, x->nt | x->half, begin, end);
    else
        run_rows(x, begin, end);
    if (x->nt)
        opt_fence();
}

/* [begin, end) by the plan's walk: blocks when rows are short. */
static void walk(const run *x, int64_t begin, int64_t end)
{
    const void *const data[3] = {x->c, x->t, x->e};
    if (x->pt)
        opt_ptile_range(x->pt, x->p, data, x->d, x->w, x->nt, begin, end);
    else if (x->p->btop >= 0) {
        opt_block_range(x->p, data, x->d, x->w, x->isa, x->nt, begin, end);
    } else
        run_range(x, begin, end);
}

/* Elements per chunk for the pool: about four chunks per thread, none
 * under chunk_min bytes, a multiple of 64 elements: enough to even out a
 * preempted thread, few enough to keep the counter cold. */
static int64_t chunk_len(size_t bytes, size_t w, int threads,
                         size_t chunk_min)
{
    int64_t c = (int64_t)(bytes / ((size_t)threads * 4) / w);
    if ((size_t)c * w < chunk_min)
        c = (int64_t)(chunk_min / w);
    return c < 64 ? 64 : (c + 63) & ~(int64_t)63;
}

static void run_chunk(void *ctx, size_t i)
{
    const run *x = (const run *)ctx;
    const int64_t b = (int64_t)i * x->chunk;
    walk(x, b, b + x->chunk < x->count ? b + x->chunk : x->count);
}

int opt_run(const opt_plan *p, const sel_tensor *cond, const sel_tensor *then_,
            const sel_tensor *else_, sel_tensor *dst, size_t w)
{
    const int isa = opt_isa_active(), wi = opt_width_index(w);
    opt_tuning tu;
    opt_plan picked;
    run x;
    size_t bytes;
    int threads;

    opt_tuning_get(&tu);
    if (p->kind < 0 && opt_cond_everywhere(p)) {
        const int k = *(const uint8_t *)cond->data ? 1 : 2;
        opt_plan_pick(p, k, w, &picked); /* ptile reads both as input k */
        p = &picked, then_ = else_ = k == 1 ? then_ : else_;
    }
    x.p = p;
    x.c = (const uint8_t *)cond->data;
    x.t = (const char *)then_->data;
    x.e = (const char *)else_->data;
    x.d = (char *)dst->data;
    x.w = w;
    x.isa = isa;
    /* Blocks look up their own kernels (opt_block.c). */
    x.kern = p->btop < 0 && p->kind >= 0 ? opt_kernel(isa, wi, p->kind) : NULL;
    x.fill = p->btop < 0 && p->kind < 0 ? opt_kernel(isa, wi, OPT_K_fill) : NULL;
    x.copy = p->btop < 0 && p->kind < 0 ? opt_kernel(isa, wi, OPT_K_copy) : NULL;
    x.pair = x.kern && p->rank >= 3 ? pair_axis(p, w) : -1;
    x.count = 1;
    for (int32_t i = 0; i < p->rank; i++)
        x.count *= p->dims[i];
    bytes = (size_t)x.count * w;
    x.nt = streams(p, &tu, bytes, x.pair);
    x.ahead = x.pair >= 0 && !x.nt ? ahead_bits(p, x.pair) : 0;
    x.edge = x.nt && p->btop < 0 && p->rank >= 2 && x.pair < 0 &&
             (size_t)p->dims[p->rank - 1] * w % 64 && (uintptr_t)x.d % w == 0;
    x.line = x.edge ? opt_kernel(isa, 0, OPT_K_copy) : NULL;
    x.ahead_rows = p->footprint > AHEAD_MIN;
    x.half = !x.nt && bytes > tu.half_min ? OPT_HALF : 0;
    threads = bytes >= tu.parallel_min ? opt_threads() : 1;
    x.chunk = chunk_len(bytes, w, threads, tu.chunk_min);
    /* Operands dense or periodic in the flat index: one flat walk. */
    if (p != &picked && opt_phase_run(p, (const void *const[3]){x.c, x.t,
                                      x.e}, x.d, w, isa, x.nt, threads,
                                      x.chunk))
        return SEL_OK;
    x.pt = p->btop >= 0 ? opt_ptile_get(p, w, isa, x.nt) : NULL;
    if (p != &picked && threads <= 1 && !x.nt && x.pair < 0 &&
        opt_slab_rows(p, (const void *const[3]){x.c, x.t, x.e}, x.d, w, isa,
                      x.kern))
        return SEL_OK;

    /* Segments on one thread: inside pairs at any size (opt_rows.c);
     * alone under the thread threshold or while the footprint fills at
     * most half the LLC (the dense streams, cut into 4 KiB runs, then
     * come back from L3: 33-48x1075x16:1x1075x16 i64 0.72-0.75 -> 0.82-0.88
     * at 1 thread; at 19-23 MB, 256x8192:1x8192 f32 and 80x1075x16 i64,
     * they lost 0.67-0.77 -> 0.53-0.66). */
    x.seg = x.kern && !x.nt && threads <= 1 && opt_seg_rows(p, w) &&
            (x.pair >= 0 || bytes < tu.parallel_min ||
             p->footprint <= tu.nt_min / 2);
    if (threads <= 1) {
        if (p->rank == 1 && x.kern) { /* one row: straight to the kernel */
            x.kern((size_t)x.count, x.c, x.t, x.e, x.d, x.nt | x.half);
            if (x.nt)
                opt_fence();
        } else
            walk(&x, 0, x.count);
        return SEL_OK;
    }
    opt_parallel(run_chunk, &x, (size_t)((x.count + x.chunk - 1) / x.chunk),
                 threads);
    return SEL_OK;
}
