/* bench.c - `make bench`: Select throughput per workload for the reference,
 * the optimized backend at 1 and 2 threads and any --impl, as the median
 * time, GB/s and the ratio to the fastest streaming pass moving the same bytes.
 *
 * The machine is shared and noisy, so every runner (each yardstick strategy
 * included) is timed once per round, rounds interleave the runners, and the
 * median over rounds is reported.  Bytes are those read and written with
 * broadcast inputs counted once (the tensors as stored).  The yardstick at a
 * thread count is the strategy (bench.h) with the least median there.  opt
 * is linked statically so that one process can run it at 1 and 2 threads
 * (opt_threads_force); the two-thread yardsticks run on the same pool with
 * the same chunking, so the ratio isolates what selecting costs.  The table
 * goes to stdout, --csv writes every row (all strategies) for plotting.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "opt.h"
#include "ref.h"

#define MAX_ROUNDS H_MAX_SAMPLES
#define MAX_IMPLS 4
#define MAX_RUNNERS (2 * H_Y_COUNT + 3 + MAX_IMPLS) /* yardsticks, ref, opt */

typedef struct workload {
    char name[40];
    int32_t dtype, rank[4];
    int64_t dims[4][SEL_MAX_RANK];
    int causal;
} workload;

enum { R_STREAM, R_OPT, R_IMPL };
typedef struct runner {
    char label[40];
    int kind, threads, strat; /* strat: R_STREAM's strategy (H_Y_*) */
    const sel_impl *impl;
    double est, med, samples[MAX_ROUNDS];
    long batch;
    int slow;
} runner;

static workload works[32];
static int nworks;
static const sel_impl *ext[MAX_IMPLS];
static int next_impl;
static double budget_s = 2.5;
static int min_rounds = 7; /* --quick: 5 */
static int64_t ref_max = 1 << 20;

/* "4096x1" -> dims; "_" -> rank 0. */
static int32_t parse(const char *s, int64_t *d)
{
    int32_t r = 0;
    if (strcmp(s, "_") == 0)
        return 0;
    for (;;) {
        char *end;
        d[r++] = strtoll(s, &end, 10);
        if (*end != 'x')
            return r;
        s = end + 1;
    }
}

static void add(const char *name, int32_t dt, const char *c, const char *t,
                const char *e, int causal)
{
    workload *w = &works[nworks++];
    snprintf(w->name, sizeof w->name, "%s", name);
    w->dtype = dt;
    w->rank[0] = parse(c, w->dims[0]);
    w->rank[1] = parse(t, w->dims[1]);
    w->rank[2] = parse(e, w->dims[2]);
    w->causal = causal;
}

static void workloads(void)
{
    static const struct { const char *n; int32_t dt; } same[] = {
        {"f32", SEL_DT_F32}, {"f16", SEL_DT_F16}, {"i8", SEL_DT_I8}};
    static const struct { const char *n, *s; } sizes[] = {
        {"4Ki", "4096"}, {"64Ki", "65536"}, {"1Mi", "1048576"},
        {"16Mi", "16777216"}, {"64Mi", "67108864"}};
    char name[40];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 5; j++) {
            snprintf(name, sizeof name, "same_%s_%s", same[i].n, sizes[j].n);
            add(name, same[i].dt, sizes[j].s, sizes[j].s, sizes[j].s, 0);
        }
    add("call_64_f32", SEL_DT_F32, "64", "64", "64", 0);
    add("attn_random_f32", SEL_DT_F32, "1x1x512x512", "4x16x512x512", "_", 0);
    add("attn_causal_f32", SEL_DT_F32, "1x1x512x512", "4x16x512x512", "_", 1);
    add("rowbcast_f32", SEL_DT_F32, "4096x1", "4096x1024", "4096x1024", 0);
    add("scalar_then_f32", SEL_DT_F32, "4096x1024", "_", "4096x1024", 0);
    add("cond_1024_f32", SEL_DT_F32, "1024", "4096x1024", "4096x1024", 0);
}

static int64_t count(const int64_t *d, int32_t r)
{
    int64_t n = 1;
    for (int32_t i = 0; i < r; i++)
        n *= d[i];
    return n;
}

typedef struct call {
    sel_tensor t[4];
    sel_broadcast b;
    h_stream s;
    size_t bytes; /* read + written */
} call;

typedef struct stream_ctx { const h_stream *s; size_t per; int strat; } stream_ctx;

static void stream_task(void *ctx, size_t i)
{
    const stream_ctx *x = (const stream_ctx *)ctx;
    const size_t t0 = i * x->per, t1 = t0 + x->per;
    h_stream_tiles(x->s, x->strat, t0, t1 < x->s->tiles ? t1 : x->s->tiles);
}

/* A yardstick strategy on `threads` threads: opt's pool and chunking rule. */
static void stream(const call *c, int threads, int strat)
{
    opt_tuning tu;
    stream_ctx x = {&c->s, 0, strat};
    const size_t tile_bytes = c->s.out_bytes / c->s.tiles;
    opt_tuning_get(&tu);
    if (threads <= 1 || c->s.out_bytes < tu.parallel_min) {
        h_stream_tiles(&c->s, strat, 0, c->s.tiles);
        return;
    }
    x.per = c->s.tiles / ((size_t)threads * 4);
    if (x.per * tile_bytes < tu.chunk_min)
        x.per = tu.chunk_min / tile_bytes;
    if (x.per < 1)
        x.per = 1;
    opt_parallel(stream_task, &x, (c->s.tiles + x.per - 1) / x.per, threads);
}

/* Makes r's thread count current (opt's count is global). */
static void prepare(const runner *r)
{
    if (r->kind == R_OPT)
        opt_threads_force(r->threads);
}

static int run(runner *r, call *c)
{
    if (r->kind == R_STREAM) {
        stream(c, r->threads, r->strat);
        return SEL_OK;
    }
    return r->impl->execute(&c->t[0], &c->t[1], &c->t[2], c->b, &c->t[3]);
}

static int use_min;   /* --min: the fastest round instead of the median */
static int all_yards; /* --yardsticks: print every strategy's rows */

/* Odd (a true median), at least lo, at most MAX_ROUNDS. */
static int clamp_rounds(double r, int lo)
{
    int n = r < lo ? lo : r > MAX_ROUNDS ? MAX_ROUNDS : (int)r;
    return n | 1;
}

static FILE *csv;
static int misses;

/* One workload: set up, calibrate, rounds, report. */
static void bench(workload *w)
{
    const size_t es = sel_dtype_size(w->dtype);
    int64_t n[4];
    uint8_t *buf[4], *check = NULL;
    call c;
    runner rs[MAX_RUNNERS];
    int nr = 0, rounds, slow_rounds, win[2] = {-1, -1}, rowcopy = 0;
    double cost = 0, slow_cost = 0;
    opt_tuning tu;
    opt_geom g;
    opt_plan pl;

    memset(&c, 0, sizeof c);
    c.b.type = SEL_BROADCAST_NUMPY;
    for (int k = 0; k < 3; k++) {
        n[k] = count(w->dims[k], w->rank[k]);
        c.t[k].dtype = k ? w->dtype : SEL_DT_BOOLEAN;
        c.t[k].rank = w->rank[k];
        c.t[k].dims = w->dims[k];
    }
    if (opt_impl()->infer(&c.t[0], &c.t[1], &c.t[2], c.b, &w->rank[3],
                          w->dims[3]) != SEL_OK) {
        fprintf(stderr, "bench: %s: shapes do not broadcast\n", w->name);
        exit(2);
    }
    c.t[3].dtype = w->dtype;
    c.t[3].rank = w->rank[3];
    c.t[3].dims = w->dims[3];
    n[3] = count(w->dims[3], w->rank[3]);
    if (opt_check(&c.t[0], &c.t[1], &c.t[2], c.b, NULL, &g) == SEL_OK) {
        opt_plan_make(&g, es, &pl); /* what opt will do: for the notes */
        rowcopy = pl.kind < 0;
    }
    for (int k = 0; k < 4; k++) {
        const size_t b = (size_t)n[k] * (k ? es : 1);
        buf[k] = h_alloc(b);
        c.t[k].data = buf[k];
        c.bytes += b;
        if (k < 3)
            h_fill(buf[k], b, (uint64_t)k + 1, k == 0);
        else
            memset(buf[k], 0, b); /* first touch outside the timing */
    }
    if (w->causal) /* cond[i][j] = j <= i: the lower triangle is kept */
        for (int64_t i = 0; i < n[0]; i++)
            buf[0][i] = i % w->dims[0][3] <= i / w->dims[0][3] % w->dims[0][2];
    opt_tuning_get(&tu);
    {
        const void *in[3] = {buf[0], buf[1], buf[2]};
        const size_t ib[3] = {(size_t)n[0], (size_t)n[1] * es, (size_t)n[2] * es};
        h_stream_init(&c.s, in, ib, buf[3], (size_t)n[3] * es, es,
                      c.bytes > tu.nt_min); /* opt's rule (opt_exec.c) */
    }

    for (int y = 0; y < H_Y_COUNT; y++)
        for (int t = 1; t <= 2 && h_stream_has(&c.s, y); t++) {
            rs[nr] = (runner){.kind = R_STREAM, .threads = t, .strat = y};
            snprintf(rs[nr++].label, sizeof rs[0].label, "stream-%s", h_stream_name(y));
        }
    if (n[3] <= ref_max)
        rs[nr++] = (runner){"ref", .kind = R_IMPL, .threads = 1, .impl = ref_impl()};
    for (int t = 1; t <= 2; t++)
        rs[nr++] = (runner){"opt", .kind = R_OPT, .threads = t, .impl = opt_impl()};
    for (int i = 0; i < next_impl; i++) {
        rs[nr] = (runner){.kind = R_IMPL, .threads = 0, .impl = ext[i]};
        snprintf(rs[nr++].label, sizeof rs[0].label, "%s", ext[i]->name);
    }

    /* Calibrate: batches of at least 50 us, rounds to fill the budget. */
    for (int i = 0; i < nr; i++) {
        double t0, t1;
        long k = 0;
        prepare(&rs[i]);
        if (run(&rs[i], &c) != SEL_OK) {
            fprintf(stderr, "bench: %s: %s failed\n", w->name, rs[i].label);
            exit(1);
        }
        t0 = h_now_ns();
        do
            run(&rs[i], &c), k++;
        while ((t1 = h_now_ns()) - t0 < 2e5 && k < 100000);
        rs[i].est = (t1 - t0) / (double)k;
        rs[i].batch = (long)(5e4 / rs[i].est) + 1;
    }
    /* Slow runners (the reference) get rounds of their own: a long call
     * between two fast ones lets the neighbours on this shared machine
     * evict the working set from the L3, and the next fast runner then
     * pays for it (measured: 2.5x on same_f32_1Mi).  Yardsticks are never
     * slow: every runner's ratio pairs its rounds with theirs. */
    for (int i = 0; i < nr; i++) {
        rs[i].slow = rs[i].kind != R_STREAM && rs[i].est > 10 * rs[0].est &&
                     rs[i].est > 1e5;
        cost += rs[i].slow ? 0 : rs[i].est * (double)rs[i].batch;
        slow_cost += rs[i].slow ? rs[i].est * (double)rs[i].batch : 0;
    }
    rounds = clamp_rounds(budget_s * 1e9 / cost, min_rounds);
    slow_rounds = slow_cost > 0 ? clamp_rounds(budget_s * 1e9 / slow_cost, 3) : 0;
    for (int phase = 0; phase < 2; phase++)
        for (int r = 0; r < (phase ? slow_rounds : rounds); r++)
            for (int i = 0; i < nr; i++) {
                double t0;
                if (rs[i].slow != phase)
                    continue;
                prepare(&rs[i]);
                t0 = h_now_ns();
                for (long k = 0; k < rs[i].batch; k++)
                    run(&rs[i], &c);
                rs[i].samples[r] = (h_now_ns() - t0) / (double)rs[i].batch;
            }

    /* opt must still be right: compare with the reference where it ran. */
    if (n[3] <= ref_max && n[3] > 0) {
        const size_t b = (size_t)n[3] * es;
        check = h_alloc(b);
        memcpy(check, buf[3], b);
        ref_impl()->execute(&c.t[0], &c.t[1], &c.t[2], c.b, &c.t[3]);
        opt_threads_force(1);
        c.t[3].data = check;
        opt_impl()->execute(&c.t[0], &c.t[1], &c.t[2], c.b, &c.t[3]);
        c.t[3].data = buf[3];
        if (memcmp(check, buf[3], b) != 0) {
            fprintf(stderr, "bench: %s: opt differs from the reference\n", w->name);
            exit(1);
        }
        free(check);
    }

    /* The yardstick at each thread count: the strategy with the least
     * median there (an ext impl, threads "-", is compared at 1 thread). */
    for (int i = 0; i < nr; i++) {
        int *t = &win[rs[i].threads == 2];
        rs[i].med = h_median(rs[i].samples, rs[i].slow ? slow_rounds : rounds, use_min);
        if (rs[i].kind == R_STREAM && (*t < 0 || rs[i].med < rs[*t].med))
            *t = i;
    }
    for (int i = 0; i < nr; i++) {
        const int nrounds = rs[i].slow ? slow_rounds : rounds;
        const double med = rs[i].med;
        const double gbs = (double)c.bytes / med;
        const int st = win[rs[i].threads == 2 ? 1 : 0];
        const double sgb = (double)c.bytes / rs[st].med;
        double ratio = gbs / sgb, per[MAX_ROUNDS];
        char tm[32], th[8];
        /* Fast runners: the median of the ratios within each round, which
         * pairs samples taken a moment apart and so cancels the slow drifts
         * of a shared machine's bandwidth better than a ratio of medians. */
        if (!rs[i].slow && !use_min) {
            for (int r = 0; r < rounds; r++)
                per[r] = rs[st].samples[r] / rs[i].samples[r];
            ratio = h_median(per, rounds, 0);
        }
        h_fmt_time(tm, sizeof tm, med);
        snprintf(th, sizeof th, rs[i].threads ? "%d" : "-", rs[i].threads);
        if (csv)
            fprintf(csv, "%s,%s,%s,%lld,%zu,%.1f,%.3f,%.3f,%.4f,%d,%s\n", w->name,
                    rs[i].label, th, (long long)n[3], c.bytes, med, gbs, sgb,
                    ratio, nrounds, h_stream_name(rs[st].strat));
        if (rs[i].kind == R_STREAM && i != st && !all_yards)
            continue; /* the losing strategies: CSV only */
        printf("%-18s %-12s %3s %12s %8.2f %8.2f %6.2f  %s\n", w->name,
               rs[i].kind == R_STREAM && !all_yards ? "stream" : rs[i].label,
               th, tm, gbs, sgb, ratio, h_stream_name(rs[st].strat));
        /* The targets, checked and counted (not a failure). */
        if (rs[i].kind == R_OPT) {
            const int big = strstr(w->name, "16Mi") || strstr(w->name, "64Mi");
            const int flt = strstr(w->name, "f32") || strstr(w->name, "f16");
            const int bc = !strncmp(w->name, "attn", 4) || !strncmp(w->name, "row", 3) ||
                           !strncmp(w->name, "scalar", 6) || !strncmp(w->name, "cond", 4);
            const char *miss = NULL;
            if (!strncmp(w->name, "same", 4) && big && flt && ratio < 0.90)
                miss = "< 0.90 of stream";
            if (bc && ratio < 0.85)
                miss = "< 0.85 of stream";
            if (!strncmp(w->name, "call", 4) && rs[i].threads == 1 && med >= 40)
                miss = ">= 40 ns per call";
            if (miss) {
                misses++;
                printf("%-18s   target missed: opt t%d %s\n", w->name, rs[i].threads, miss);
            }
        }
    }
    /* The yardstick moves every counted byte; when cond is constant along
     * rows, opt copies each row from then or else and moves fewer. */
    if (rowcopy && c.s.dense[1] && c.s.dense[2]) {
        const double moved = (double)n[0] + 2.0 * (double)c.s.out_bytes;
        printf("# %s: cond is constant along rows, so opt reads each row from then or "
               "else, not both:\n#   it moves %.0f%% of the counted bytes; at the "
               "yardstick's bandwidth its ratio would be %.2f\n", w->name,
               100.0 * moved / (double)c.bytes, (double)c.bytes / moved);
    }
    fflush(stdout);
    for (int k = 0; k < 4; k++)
        free(buf[k]);
}

static const sel_impl *load(const char *path)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    sel_get_impl_fn get;
    const sel_impl *impl;
    if (!h || !(get = (sel_get_impl_fn)(uintptr_t)dlsym(h, "sel_get_impl"))) {
        fprintf(stderr, "bench: %s: %s\n", path, dlerror());
        exit(2);
    }
    impl = get();
    if (!impl || impl->abi_version != SEL_ABI_VERSION) {
        fprintf(stderr, "bench: %s: not ABI version %d\n", path, SEL_ABI_VERSION);
        exit(2);
    }
    return impl;
}

int main(int argc, char **argv)
{
    const char *only = NULL;
    char model[128] = "?";
    int custom = 0;
    FILE *f;
    opt_tuning tu;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--quick")) { budget_s = 0.15, min_rounds = 5; continue; }
        if (!strcmp(a, "--min")) { use_min = 1; continue; }
        if (!strcmp(a, "--yardsticks")) { all_yards = 1; continue; }
        if (!strcmp(a, "--kernels")) { h_bench_kernels(); return 0; }
        if (!v) goto usage;
        i++;
        if (!strcmp(a, "--csv")) {
            if (!(csv = fopen(v, "w"))) { perror(v); return 2; }
        } else if (!strcmp(a, "--impl")) {
            if (next_impl == MAX_IMPLS) goto usage;
            ext[next_impl++] = load(v);
        } else if (!strcmp(a, "--only")) only = v;
        else if (!strcmp(a, "--budget")) budget_s = atof(v);
        else if (!strcmp(a, "--ref-max")) ref_max = atoll(v);
        else if (!strcmp(a, "--workload")) { /* cond:then:else[:dtype] */
            char c[64], t[64], e[64], d[16] = "f32", name[40];
            int32_t dt = SEL_DT_F32;
            if (sscanf(v, "%63[^:]:%63[^:]:%63[^:]:%15s", c, t, e, d) < 3 || nworks == 32)
                goto usage;
            for (int32_t k = SEL_DT_FIRST; k <= SEL_DT_LAST; k++)
                if (!strcmp(d, sel_dtype_name(k)))
                    dt = k;
            snprintf(name, sizeof name, "%.39s", v);
            add(name, dt, c, t, e, 0);
            custom = 1;
        }
        else if (!strcmp(a, "--par-min") || !strcmp(a, "--nt-min")) {
            opt_tuning t; /* opt's thresholds, for measuring them */
            opt_tuning_get(&t);
            *(a[2] == 'p' ? &t.parallel_min : &t.nt_min) = (size_t)atoll(v);
            opt_tuning_set(&t);
        }
        else goto usage;
    }
    if ((f = fopen("/proc/cpuinfo", "r"))) {
        char line[256];
        while (fgets(line, sizeof line, f))
            if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
                snprintf(model, sizeof model, "%s", strchr(line, ':') + 2);
                model[strcspn(model, "\n")] = 0;
                break;
            }
        fclose(f);
    }
    if (!custom)
        workloads();
    opt_tuning_get(&tu);
    printf("# bench: %s; opt %s, yardstick %s; threads online %d; parallel >= %zu KiB, "
           "streams above %zu MiB of footprint\n", model, opt_isa_name(opt_isa_active()),
           h_stream_isa(), opt_threads(), tu.parallel_min >> 10, tu.nt_min >> 20);
    printf("# yardsticks (no select, the bytes of the call, same store policy and pool as opt):\n"
           "#   fused: all streams advance together per output vector (dst = then ^ else ^ "
           "cond); tiled: per KiB of dst,\n#   each input's share in turn; copy: per 256 KiB "
           "of dst, the other inputs' shares, then memcpy of then (or else)\n");
    printf("# %s over interleaved rounds; GB/s = (bytes read + written, broadcast inputs "
           "once) / time;\n# stream = GB/s of the fastest yardstick at the same thread "
           "count (its name in the last column);\n# ratio = median over rounds of that "
           "yardstick's time / impl time (slow runners: GB/s over stream GB/s);\n# ref "
           "only up to %lld output elements, timed in rounds of its own\n",
           use_min ? "fastest" : "median", (long long)ref_max);
    printf("%-18s %-12s %3s %12s %8s %8s %6s  %s\n", "workload", "impl", "thr", "median",
           "GB/s", "stream", "ratio", "yard");
    if (csv)
        fprintf(csv, "workload,impl,threads,elements,bytes,median_ns,gbps,stream_gbps,ratio,"
                "rounds,yardstick\n");
    for (int i = 0; i < nworks; i++)
        if (!only || strstr(works[i].name, only))
            bench(&works[i]);
    printf("# targets missed: %d\n", misses);
    if (csv)
        fclose(csv);
    return 0;
usage:
    fprintf(stderr, "usage: %s [--kernels] [--quick] [--min] [--yardsticks] [--csv FILE] [--impl LIB.so]... [--only SUBSTR] "
            "[--budget SECONDS] [--ref-max ELEMENTS] [--par-min BYTES] [--nt-min BYTES]\n"
            "       [--workload COND:THEN:ELSE[:DTYPE]]...  (shapes like 4096x1, _ for rank 0)\n", argv[0]);
    return 2;
}
