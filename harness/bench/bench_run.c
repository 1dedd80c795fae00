/* bench_run.c - one workload: set up its tensors, calibrate the runners,
 * time them in interleaved rounds, verify opt against the reference, and
 * report time, GB/s and the ratio to the fastest streaming yardstick.
 *
 * The machine is shared and noisy, so every runner (each yardstick strategy
 * included) is timed once per round, rounds interleave the runners, and the
 * median over rounds is reported.  Bytes are those read and written with
 * broadcast inputs counted once (the tensors as stored).  opt is linked
 * statically so that one process runs it at 1 and 2 threads
 * (opt_threads_force); the two-thread yardsticks run on the same pool with
 * the same chunking, so the ratio isolates what selecting costs.
 */
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "opt.h"
#include "ref.h"

#define MAX_ROUNDS H_MAX_SAMPLES
#define MAX_RUNNERS (2 * H_Y_COUNT + 3 + 4) /* yardsticks, ref, opt, impls */

enum { R_STREAM, R_OPT, R_IMPL };
typedef struct runner {
    char label[40];
    int kind, threads, strat; /* strat: R_STREAM's strategy (H_Y_*) */
    const sel_impl *impl;
    double est, med, samples[MAX_ROUNDS];
    long batch;
    int slow, cold; /* cold: alternates the call's two descriptions */
} runner;

typedef struct bctx {
    const h_work *w;
    const h_opts *o;
    size_t es, bytes; /* element size; bytes read + written */
    int64_t n[4];
    uint8_t *buf[4];
    sel_tensor t[4];
    h_stream s;
    runner rs[MAX_RUNNERS];
    int nr, rounds, slow_rounds, win[2], rowcopy;
    sel_tensor tc[4]; /* the same call with other shapes (cold_setup) */
    int64_t dc[4][SEL_MAX_RANK];
    sel_broadcast bc;
    int flip;
} bctx;

/* Tensors and buffers; the yardstick's view of them. */
static void setup(bctx *x)
{
    const h_work *w = x->w;
    int32_t rank;
    opt_tuning tu;
    opt_geom g;
    opt_plan pl;

    for (int k = 0; k < 3; k++)
        x->t[k] = (sel_tensor){k ? w->dtype : SEL_DT_BOOLEAN, w->rank[k], w->dims[k], NULL};
    x->t[3] = (sel_tensor){w->dtype, 0, w->dims[3], NULL};
    if (opt_impl()->infer(&x->t[0], &x->t[1], &x->t[2], w->b, &rank,
                          (int64_t *)w->dims[3]) != SEL_OK) {
        fprintf(stderr, "bench: %s: shapes do not broadcast\n", w->name);
        exit(2);
    }
    x->t[3].rank = ((h_work *)w)->rank[3] = rank;
    if (opt_check(&x->t[0], &x->t[1], &x->t[2], w->b, NULL, &g) == SEL_OK) {
        opt_plan_make(&g, x->es, &pl); /* what opt will do: for the notes */
        x->rowcopy = pl.kind < 0 && pl.btop < 0;
    }
    for (int k = 0; k < 4; k++) {
        const size_t b = (size_t)(x->n[k] = h_count(w->dims[k], x->t[k].rank)) * (k ? x->es : 1);
        x->t[k].data = x->buf[k] = h_alloc(b);
        x->bytes += b;
        if (k < 3)
            h_fill(x->buf[k], b, (uint64_t)k + 1, k == 0);
        else
            memset(x->buf[k], 0, b); /* first touch outside the timing */
    }
    if (w->causal) { /* cond[i][j] = j <= i: the lower triangle is kept */
        const int64_t r = w->dims[0][w->rank[0] - 1], c = w->dims[0][w->rank[0] - 2];
        for (int64_t i = 0; i < x->n[0]; i++)
            x->buf[0][i] = i % r <= i / r % c;
    }
    opt_tuning_get(&tu);
    {
        const void *in[3] = {x->buf[0], x->buf[1], x->buf[2]};
        const size_t ib[3] = {(size_t)x->n[0], (size_t)x->n[1] * x->es, (size_t)x->n[2] * x->es};
        h_stream_init(&x->s, in, ib, x->buf[3], (size_t)x->n[3] * x->es, x->es,
                      x->bytes > tu.nt_min); /* opt's rule (opt_exec.c) */
    }
}

/* The same call described with other shapes: a leading 1 on every tensor
 * (all ranks < 8, numpy or none), else (numpy) the bidirectional flag,
 * which changes no result when cond broadcasts one way.  The cold runner
 * alternates the two descriptions, so a library that remembers its last
 * call's shapes must plan every call, as under changing shapes. */
static int cold_setup(bctx *x)
{
    const h_work *w = x->w;
    int32_t top = 0;
    for (int k = 0; k < 4; k++)
        top = x->t[k].rank > top ? x->t[k].rank : top;
    x->bc = w->b;
    for (int k = 0; k < 4; k++)
        x->tc[k] = x->t[k];
    if (top < SEL_MAX_RANK && w->b.type != SEL_BROADCAST_PDPD) {
        for (int k = 0; k < 4; k++) {
            x->dc[k][0] = 1;
            memcpy(x->dc[k] + 1, w->dims[k], sizeof(int64_t) * (size_t)x->t[k].rank);
            x->tc[k].rank = x->t[k].rank + 1, x->tc[k].dims = x->dc[k];
        }
        return 1;
    }
    if (w->b.type != SEL_BROADCAST_NUMPY || (w->b.flags & SEL_COND_BIDIRECTIONAL))
        return 0;
    x->bc.flags |= SEL_COND_BIDIRECTIONAL;
    return 1;
}

static void add_runner(bctx *x, runner r)
{
    x->rs[x->nr++] = r;
}

static void runners(bctx *x)
{
    const h_opts *o = x->o;
    for (int y = 0; y < H_Y_COUNT; y++)
        for (int t = 1; t <= o->max_threads && h_stream_has(&x->s, y); t++) {
            add_runner(x, (runner){.kind = R_STREAM, .threads = t, .strat = y});
            snprintf(x->rs[x->nr - 1].label, sizeof x->rs[0].label, "stream-%s", h_stream_name(y));
        }
    if (x->n[3] <= o->ref_max)
        add_runner(x, (runner){"ref", .kind = R_IMPL, .threads = 1, .impl = ref_impl()});
    for (int t = 1; t <= o->max_threads; t++)
        add_runner(x, (runner){"opt", .kind = R_OPT, .threads = t, .impl = opt_impl()});
    if (x->w->goal_kind == H_GOAL_NS && cold_setup(x)) /* per-call cost */
        add_runner(x, (runner){"opt-cold", .kind = R_OPT, .threads = 1,
                               .impl = opt_impl(), .cold = 1});
    for (int i = 0; i < o->next; i++) {
        add_runner(x, (runner){.kind = R_IMPL, .threads = 0, .impl = o->ext[i]});
        snprintf(x->rs[x->nr - 1].label, sizeof x->rs[0].label, "%s", o->ext[i]->name);
    }
}

typedef struct stream_ctx { const h_stream *s; size_t per; int strat; } stream_ctx;

static void stream_task(void *ctx, size_t i)
{
    const stream_ctx *x = (const stream_ctx *)ctx;
    const size_t t0 = i * x->per, t1 = t0 + x->per;
    h_stream_tiles(x->s, x->strat, t0, t1 < x->s->tiles ? t1 : x->s->tiles);
}

/* A yardstick strategy on `threads` threads: opt's pool and chunking rule. */
static void stream(const h_stream *s, int threads, int strat)
{
    opt_tuning tu;
    stream_ctx x = {s, 0, strat};
    const size_t tile_bytes = s->out_bytes / s->tiles;
    opt_tuning_get(&tu);
    if (threads <= 1 || s->out_bytes < tu.parallel_min) {
        h_stream_tiles(s, strat, 0, s->tiles);
        return;
    }
    x.per = s->tiles / ((size_t)threads * 4);
    if (x.per * tile_bytes < tu.chunk_min)
        x.per = tu.chunk_min / tile_bytes;
    if (x.per < 1)
        x.per = 1;
    opt_parallel(stream_task, &x, (s->tiles + x.per - 1) / x.per, threads);
}

static int run(const runner *r, bctx *x)
{
    if (r->kind == R_STREAM) {
        stream(&x->s, r->threads, r->strat);
        return SEL_OK;
    }
    if (r->kind == R_OPT)
        opt_threads_force(r->threads); /* opt's count is global */
    if (r->cold && (x->flip ^= 1))
        return r->impl->execute(&x->tc[0], &x->tc[1], &x->tc[2], x->bc, &x->tc[3]);
    return r->impl->execute(&x->t[0], &x->t[1], &x->t[2], x->w->b, &x->t[3]);
}

/* Odd (a true median), at least lo, at most MAX_ROUNDS. */
static int clamp_rounds(double r, int lo)
{
    int n = r < lo ? lo : r > MAX_ROUNDS ? MAX_ROUNDS : (int)r;
    return n | 1;
}

/* Batches of at least 50 us; rounds to fill the budget.  Slow runners (the
 * reference) get rounds of their own: a long call between two fast ones
 * lets the neighbours on this shared machine evict the working set from the
 * L3, and the next fast runner then pays for it (measured: 2.5x on
 * same_f32_1Mi).  Yardsticks are never slow: every runner's ratio pairs its
 * rounds with theirs.  Slow is measured against the fastest yardstick, not
 * the first (fused, often the slowest): boxes_n4_i64's reference (7.3 ms,
 * 6.9x fused's estimate, 12x copy's) shared opt's rounds, and opt, timed
 * right after it, ran at 0.54-0.64 instead of 0.97-1.02. */
static void calibrate(bctx *x)
{
    double cost = 0, slow_cost = 0, fast = 0;
    for (int i = 0; i < x->nr; i++) {
        runner *r = &x->rs[i];
        double t0, t1;
        long k = 0;
        if (run(r, x) != SEL_OK) {
            fprintf(stderr, "bench: %s: %s failed\n", x->w->name, r->label);
            exit(1);
        }
        t0 = h_now_ns();
        do
            run(r, x), k++;
        while ((t1 = h_now_ns()) - t0 < 2e5 && k < 100000);
        r->est = (t1 - t0) / (double)k;
        r->batch = (long)(5e4 / r->est) + 1;
    }
    for (int i = 0; i < x->nr; i++)
        if (x->rs[i].kind == R_STREAM && (fast == 0 || x->rs[i].est < fast))
            fast = x->rs[i].est;
    for (int i = 0; i < x->nr; i++) {
        runner *r = &x->rs[i];
        r->slow = r->kind != R_STREAM && r->est > 4 * fast && r->est > 1e5;
        cost += r->slow ? 0 : r->est * (double)r->batch;
        slow_cost += r->slow ? r->est * (double)r->batch : 0;
    }
    x->rounds = clamp_rounds(x->o->budget_s * 1e9 / cost, x->o->min_rounds);
    x->slow_rounds = slow_cost > 0 ? clamp_rounds(x->o->budget_s * 1e9 / slow_cost, 3) : 0;
}

static void timed_rounds(bctx *x)
{
    for (int phase = 0; phase < 2; phase++)
        for (int r = 0; r < (phase ? x->slow_rounds : x->rounds); r++)
            for (int i = 0; i < x->nr; i++) {
                runner *u = &x->rs[i];
                double t0;
                if (u->slow != phase)
                    continue;
                if (u->kind == R_OPT)
                    opt_threads_force(u->threads);
                t0 = h_now_ns();
                for (long k = 0; k < u->batch; k++)
                    run(u, x);
                u->samples[r] = (h_now_ns() - t0) / (double)u->batch;
            }
}

/* opt must still be right: compare with the reference where it ran. */
static void verify(bctx *x)
{
    const size_t b = (size_t)x->n[3] * x->es;
    uint8_t *check;
    if (x->n[3] > x->o->ref_max || x->n[3] == 0)
        return;
    check = h_alloc(b);
    memcpy(check, x->buf[3], b);
    ref_impl()->execute(&x->t[0], &x->t[1], &x->t[2], x->w->b, &x->t[3]);
    opt_threads_force(1);
    x->t[3].data = check;
    opt_impl()->execute(&x->t[0], &x->t[1], &x->t[2], x->w->b, &x->t[3]);
    x->t[3].data = x->buf[3];
    if (memcmp(check, x->buf[3], b) != 0) {
        fprintf(stderr, "bench: %s: opt differs from the reference\n", x->w->name);
        exit(1);
    }
    free(check);
}

/* The yardstick at each thread count: the strategy with the least median
 * there (an ext impl, threads "-", is compared at 1 thread). */
static void medians(bctx *x)
{
    x->win[0] = x->win[1] = -1;
    for (int i = 0; i < x->nr; i++) {
        runner *r = &x->rs[i];
        int *t = &x->win[r->threads == 2];
        r->med = h_median(r->samples, r->slow ? x->slow_rounds : x->rounds, x->o->use_min);
        if (r->kind == R_STREAM && (*t < 0 || r->med < x->rs[*t].med))
            *t = i;
    }
}

/* Fast runners: the median of the ratios within each round, which pairs
 * samples taken a moment apart and so cancels the slow drifts of a shared
 * machine's bandwidth better than a ratio of medians. */
static double ratio_of(const bctx *x, int i)
{
    const runner *r = &x->rs[i], *y = &x->rs[x->win[r->threads == 2]];
    double per[MAX_ROUNDS];
    if (r->slow || x->o->use_min)
        return y->med / r->med;
    for (int k = 0; k < x->rounds; k++)
        per[k] = y->samples[k] / r->samples[k];
    return h_median(per, x->rounds, 0);
}

/* The goal of the workload, checked and counted (not a failure). */
static int goal_missed(const bctx *x, const runner *r, double ratio)
{
    const h_work *w = x->w;
    const char *miss = NULL;
    char why[64];
    if (w->goal_kind == H_GOAL_RATIO && ratio < w->goal)
        snprintf(why, sizeof why, "< %.2f of stream", w->goal), miss = why;
    if (w->goal_kind == H_GOAL_NS && r->med > w->goal)
        snprintf(why, sizeof why, "> %.0f ns per call", w->goal), miss = why;
    if (miss && !x->o->quiet)
        printf("%-18s   target missed: %s t%d %s\n", w->name, r->label, r->threads, miss);
    return miss != NULL;
}

static void print_row(const bctx *x, int i, double ratio)
{
    const runner *r = &x->rs[i];
    const int st = x->win[r->threads == 2];
    const double gbs = (double)x->bytes / r->med, sgb = (double)x->bytes / x->rs[st].med;
    char tm[32], th[8];
    h_fmt_time(tm, sizeof tm, r->med);
    snprintf(th, sizeof th, r->threads ? "%d" : "-", r->threads);
    if (x->o->csv)
        fprintf(x->o->csv, "%s,%s,%s,%lld,%zu,%.1f,%.3f,%.3f,%.4f,%d,%s\n", x->w->name,
                r->label, th, (long long)x->n[3], x->bytes, r->med, gbs, sgb, ratio,
                r->slow ? x->slow_rounds : x->rounds, h_stream_name(x->rs[st].strat));
    if (x->o->quiet || (r->kind == R_STREAM && i != st && !x->o->all_yards))
        return; /* the losing strategies: CSV only */
    printf("%-18s %-12s %3s %12s %8.2f %8.2f %6.2f  %s\n", x->w->name,
           r->kind == R_STREAM && !x->o->all_yards ? "stream" : r->label, th, tm, gbs,
           sgb, ratio, h_stream_name(x->rs[st].strat));
}

/* numpy.where as a second yardstick: its time, and opt's speedup. */
static int numpy_row(const bctx *x, h_result *res)
{
    char tm[32];
    if (!x->o->python || x->w->b.type == SEL_BROADCAST_PDPD ||
        !(res->numpy_ns = h_numpy_time(x->w, x->o->python, x->o->budget_s)))
        return 0;
    h_fmt_time(tm, sizeof tm, res->numpy_ns);
    if (x->o->csv)
        fprintf(x->o->csv, "%s,numpy.where,1,%lld,%zu,%.1f,%.3f,,,,\n", x->w->name,
                (long long)x->n[3], x->bytes, res->numpy_ns, (double)x->bytes / res->numpy_ns);
    if (!x->o->quiet)
        printf("%-18s %-12s %3s %12s %8.2f   opt t1 %.1fx faster%s\n", x->w->name,
               "numpy.where", "1", tm, (double)x->bytes / res->numpy_ns,
               res->numpy_ns / res->ns[0], res->ns[0] > res->numpy_ns ? "  (slower!)" : "");
    return res->ns[0] > res->numpy_ns;
}

static void report(const bctx *x, h_result *res)
{
    for (int i = 0; i < x->nr; i++) {
        const runner *r = &x->rs[i];
        const double ratio = ratio_of(x, i);
        print_row(x, i, ratio);
        if (r->kind != R_OPT)
            continue;
        if (r->cold) {
            res->misses += goal_missed(x, r, ratio);
            continue;
        }
        res->ratio[r->threads - 1] = ratio, res->ns[r->threads - 1] = r->med;
        res->misses += goal_missed(x, r, ratio);
    }
    res->misses += numpy_row(x, res);
    /* The yardstick moves every counted byte; when cond is constant along
     * rows, opt copies each row from then or else and moves fewer. */
    if (x->rowcopy && x->s.dense[1] && x->s.dense[2] && !x->o->quiet) {
        const double moved = (double)x->n[0] + 2.0 * (double)x->s.out_bytes;
        printf("# %s: cond is constant along rows, so opt reads each row from then or "
               "else, not both:\n#   it moves %.0f%% of the counted bytes; at the "
               "yardstick's bandwidth its ratio would be %.2f\n", x->w->name,
               100.0 * moved / (double)x->bytes, (double)x->bytes / moved);
    }
    if (x->w->note && !x->o->quiet)
        printf("# %s: %s\n", x->w->name, x->w->note);
    fflush(stdout);
}

void h_bench_work(const h_work *w, const h_opts *o, h_result *res)
{
    bctx *x = calloc(1, sizeof *x);
    if (!x) {
        fprintf(stderr, "bench: out of memory\n");
        exit(2);
    }
    memset(res, 0, sizeof *res);
    x->w = w, x->o = o, x->es = sel_dtype_size(w->dtype);
    setup(x);
    runners(x);
    calibrate(x);
    timed_rounds(x);
    verify(x);
    medians(x);
    report(x, res);
    for (int k = 0; k < 4; k++)
        free(x->buf[k]);
    free(x);
}
