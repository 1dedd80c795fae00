/* fill_bench.c - `make bench-fill`: how fast a case's fill functions run
 * under this front end (built once per interpreter), in elements per
 * second: each fill of t/fill_bench.lua timed alone, the median of runs.
 * Usage: fill_bench [RUNS] (from the source tree).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "h_front.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The input a case fills, its buffers sized from its shapes. */
static int bench_case(const h_case *c, int runs, double *rate, size_t *n)
{
    h_fbuf b[3];
    double t[32];
    int k, r, slot = -1;
    char err[500];

    for (k = 0; k < 3; k++) {
        int64_t count;
        int32_t dt = k == H_T_COND ? SEL_DT_BOOLEAN : c->dtypes[0];
        if (c->fill[k])
            slot = k;
        if (h_shape_count(&c->shape[k], &count))
            return -1;
        b[k].dtype = dt;
        b[k].n = (size_t)count;
        b[k].shape = &c->shape[k];
        b[k].data = calloc(b[k].n ? b[k].n : 1, sel_dtype_size(dt));
        if (!b[k].data)
            return -1;
    }
    for (r = 0; r < runs; r++) {
        double t0 = now();
        if (h_front_fill(c, slot, b, c->dtypes[0], 1, err, sizeof err)) {
            fprintf(stderr, "fill_bench: %s\n", err);
            return -1;
        }
        t[r] = now() - t0;
    }
    qsort(t, (size_t)runs, sizeof *t, cmp);
    *n = b[slot].n;
    *rate = (double)b[slot].n / t[runs / 2];
    for (k = 0; k < 3; k++)
        free(b[k].data);
    return 0;
}

int main(int argc, char **argv)
{
    static h_suite s;
    static h_profiles p;
    const char *file = "harness/bench/fill_bench.lua";
    int runs = argc > 1 ? atoi(argv[1]) : 5;
    char err[300];
    size_t i, n;
    double rate;

    if (runs < 1 || runs > 32) {
        fprintf(stderr, "usage: fill_bench [RUNS 1..32]\n");
        return 2;
    }
    if (h_load_rules("spec/select.md", &s, err, sizeof err) ||
        h_front_run_file(file, "fill_bench", &s, &p, 600, 0)) {
        fprintf(stderr, "fill_bench: %s\n", err[0] ? err : file);
        return 2;
    }
    for (i = 0; i < s.n; i++) {
        const h_case *c = &s.v[i];
        if (c->error || bench_case(c, runs, &rate, &n)) {
            fprintf(stderr, "fill_bench: %s\n", c->error ? c->error : c->id);
            return 1;
        }
        printf("bench-fill: %-12s (%s) %-11s %7.1f M elements/s (%zu "
               "elements, median of %d runs)\n",
               strncmp(h_front_name(), "LuaJIT", 6) ? "selcheck" : "selcheck-jit",
               h_front_name(), c->id, rate / 1e6, n, runs);
    }
    return 0;
}
