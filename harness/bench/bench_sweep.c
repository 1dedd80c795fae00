/* bench_sweep.c - `bench --sweep N`: opt on N seeded random valid shapes,
 * so that the claim "at the memory limit" holds beyond chosen workloads.
 *
 * Shapes: every mode (none, numpy, pdpd with a default or explicit axis),
 * an element width of 1, 2, 4 or 8 bytes, rank 1-8, output sizes
 * log-uniform from 1 to 64 Mi elements (at most 768 MiB moved), channel
 * counts 1-16 on the last axis, broadcast 1s anywhere.  Each is timed at
 * one thread against the fastest yardstick (bench_run.c, quiet) and checked
 * against the reference up to --ref-max elements.  Prints the distribution
 * of the ratios and the ten worst shapes with a line that reruns each.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "opt.h"

#define MAX_OUT ((int64_t)64 << 20)
#define MAX_MOVED ((double)(768u << 20))

static uint64_t rnd(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}
static int below(uint64_t *s, int n) { return (int)(rnd(s) % (uint64_t)n); }

/* Output dims: rank 1-8, 2^(0..26) elements spread over the axes. */
static int32_t gen_out(uint64_t *s, int64_t *d, size_t es)
{
    static const int rw[8] = {10, 18, 18, 18, 12, 10, 7, 7};
    static const int64_t chans[] = {1, 2, 3, 4, 8, 16};
    double share[SEL_MAX_RANK], sum = 0, e = (double)below(s, 26001) / 1000.0;
    int32_t r = 0, x = below(s, 100);
    int64_t n = 1, big;
    while (x >= rw[r])
        x -= rw[r++];
    r++;
    for (int32_t i = 0; i < r; i++)
        sum += share[i] = (double)(1 + below(s, 100));
    for (int32_t i = 0; i < r; i++) {
        d[i] = (int64_t)(exp2(e * share[i] / sum) + 0.5);
        d[i] = d[i] < 1 ? 1 : d[i];
    }
    if (r > 1 && below(s, 100) < 35)
        d[r - 1] = chans[below(s, 6)];
    if (below(s, 100) < 20)
        d[below(s, r)] = 1;
    for (;;) {
        n = h_count(d, r), big = 0;
        if (n <= MAX_OUT && (double)n * (double)(1 + 3 * es) <= MAX_MOVED)
            return r;
        for (int32_t i = 1; i < r; i++)
            big = d[i] > d[big] ? i : big;
        d[big] = (d[big] + 1) / 2;
    }
}

/* numpy: per axis who carries the dim (then or else always one of them,
 * cond one-way); each operand may drop its leading 1s. */
static void gen_numpy(uint64_t *s, h_work *w, const int64_t *out, int32_t r)
{
    for (int32_t i = 0; i < r; i++) {
        int t = below(s, 100) < 70, e = below(s, 100) < 70;
        if (!t && !e)
            *(below(s, 2) ? &t : &e) = 1;
        w->dims[0][i] = below(s, 100) < 60 ? out[i] : 1;
        w->dims[1][i] = t ? out[i] : 1;
        w->dims[2][i] = e ? out[i] : 1;
    }
    for (int k = 0; k < 3; k++) {
        int32_t drop = 0;
        w->rank[k] = r;
        if (below(s, 2))
            continue;
        while (drop < r && w->dims[k][drop] == 1)
            drop++;
        memmove(w->dims[k], w->dims[k] + drop, sizeof(int64_t) * (size_t)(r - drop));
        w->rank[k] = r - drop;
    }
}

/* pdpd: then is the output; else and cond each a window of it at the
 * axis (default: right-aligned), with some dims 1. */
static void gen_pdpd(uint64_t *s, h_work *w, const int64_t *out, int32_t r)
{
    w->b.axis = below(s, 100) < 60 ? -1 : below(s, r);
    w->rank[1] = r;
    memcpy(w->dims[1], out, sizeof(int64_t) * (size_t)r);
    for (int k = 0; k < 3; k += 2) {
        int32_t rb = below(s, r + 1), at;
        if (w->b.axis >= 0 && w->b.axis + rb > r)
            rb = r - w->b.axis;
        at = w->b.axis < 0 ? r - rb : w->b.axis;
        w->rank[k] = rb;
        for (int32_t j = 0; j < rb; j++)
            w->dims[k][j] = below(s, 2) ? out[at + j] : 1;
    }
}

static void gen(uint64_t *s, h_work *w)
{
    static const int32_t dts[4][2] = {{SEL_DT_U8, SEL_DT_I8}, {SEL_DT_F16, SEL_DT_BF16},
                                      {SEL_DT_F32, SEL_DT_I32}, {SEL_DT_F64, SEL_DT_I64}};
    const int m = below(s, 100);
    int64_t out[SEL_MAX_RANK];
    int32_t r;
    memset(w, 0, sizeof *w);
    w->dtype = dts[below(s, 4)][below(s, 2)];
    r = gen_out(s, out, sel_dtype_size(w->dtype));
    w->b = (sel_broadcast){m < 15 ? SEL_BROADCAST_NONE : m < 75 ? SEL_BROADCAST_NUMPY
                                                               : SEL_BROADCAST_PDPD, -1, 0};
    if (w->b.type == SEL_BROADCAST_NONE)
        for (int k = 0; k < 3; k++) {
            w->rank[k] = r;
            memcpy(w->dims[k], out, sizeof(int64_t) * (size_t)r);
        }
    else if (w->b.type == SEL_BROADCAST_NUMPY)
        gen_numpy(s, w, out, r);
    else
        gen_pdpd(s, w, out, r);
    h_work_spec(w, w->name, sizeof w->name);
}

static int valid(const h_work *w)
{
    sel_tensor t[3];
    int32_t rank;
    int64_t dims[SEL_MAX_RANK];
    for (int k = 0; k < 3; k++)
        t[k] = (sel_tensor){k ? w->dtype : SEL_DT_BOOLEAN, w->rank[k], w->dims[k], NULL};
    return opt_impl()->infer(&t[0], &t[1], &t[2], w->b, &rank, dims) == SEL_OK &&
           h_count(dims, rank) > 0;
}

typedef struct swept { double ratio, ns; h_work w; } swept;

static int by_ratio(const void *a, const void *b)
{
    const double x = ((const swept *)a)->ratio, y = ((const swept *)b)->ratio;
    return x < y ? -1 : x > y;
}

/* The median ratio by output size (v sorted by ratio): where calls are
 * too small for bandwidth to matter, per-call costs decide the ratio. */
static void buckets(const swept *v, int n)
{
    static const int64_t top[] = {4096, 1 << 20, INT64_MAX};
    static const char *const name[] = {"< 4 Ki", "4 Ki - 1 Mi", ">= 1 Mi"};
    printf("#   by output size:");
    for (int b = 0; b < 3; b++) {
        int idx[1024], m = 0;
        const int64_t low = b ? top[b - 1] : 0;
        for (int i = 0; i < n && m < 1024; i++) {
            const int64_t e = h_count(v[i].w.dims[3], v[i].w.rank[3]);
            if (e >= low && e < top[b])
                idx[m++] = i;
        }
        if (m)
            printf("  %s: %d shapes, median %.2f, min %.2f;", name[b], m,
                   v[idx[m / 2]].ratio, v[idx[0]].ratio);
    }
    printf("\n");
}

static void summary(swept *v, int n, uint64_t seed, const char *self)
{
    qsort(v, (size_t)n, sizeof *v, by_ratio);
    printf("# sweep: %d random valid shapes (seed %llu), opt at 1 thread / fastest "
           "yardstick:\n#   min %.2f  p10 %.2f  median %.2f  p90 %.2f  max %.2f\n", n,
           (unsigned long long)seed, v[0].ratio, v[n / 10].ratio, v[n / 2].ratio,
           v[n * 9 / 10].ratio, v[n - 1].ratio);
    buckets(v, n);
    printf("# the ten worst:\n");
    for (int i = 0; i < n && i < 10; i++) {
        char tm[32];
        h_fmt_time(tm, sizeof tm, v[i].ns);
        printf("  %.2f  %10s  %10lld elements   %s --workload %s\n", v[i].ratio, tm,
               (long long)h_count(v[i].w.dims[3], v[i].w.rank[3]), self, v[i].w.name);
    }
}

int h_sweep(int n, uint64_t seed, const h_opts *o)
{
    swept *v = calloc((size_t)n, sizeof *v);
    uint64_t s = seed;
    h_opts q = *o;
    q.quiet = 1, q.max_threads = 1, q.python = NULL;
    if (!v)
        return 2;
    for (int i = 0; i < n; i++) {
        h_result res;
        do
            gen(&s, &v[i].w);
        while (!valid(&v[i].w));
        h_bench_work(&v[i].w, &q, &res);
        v[i].ratio = res.ratio[0], v[i].ns = res.ns[0];
        fprintf(stderr, "\rbench: sweep %d/%d", i + 1, n);
    }
    fprintf(stderr, "\n");
    summary(v, n, seed, o->self);
    free(v);
    return 0;
}
