/* bench.h - what the benchmark's files share (harness/bench/bench*.c): the
 * streaming yardsticks and the helpers.  Not part of any interface.
 */
#ifndef H_BENCH_H
#define H_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "select.h"

/* The yardstick: passes that move exactly the bytes of one Select call --
 * read each of the three inputs once (in[k], in_bytes[k]: the tensors as
 * stored, so a broadcast input counts once), write out once -- and select
 * nothing.  Several strategies; bench.c times each and keeps the fastest:
 *   fused  every dense input and dst advance together one output vector at
 *          a time (f32: 16 cond bytes, 64 then, 64 else; store 64), storing
 *          then ^ else ^ cond: a Select kernel's loop without the select;
 *   tiled  per 1 KiB of dst, each input's share in turn, XOR-folded, then
 *          the fold stored over that KiB;
 *   copy   per tile, the other inputs' shares folded, then glibc's memcpy
 *          of the input as large as dst (only when there is one).
 * fused and tiled use non-temporal stores when nt is set (opt's rule). */
enum { H_Y_FUSED, H_Y_TILED, H_Y_COPY, H_Y_COUNT };

typedef struct h_stream {
    const uint8_t *in[3];
    size_t in_bytes[3];
    uint8_t *out;
    size_t out_bytes;
    size_t es;       /* dst element size (a dense cond: out_bytes / es) */
    size_t tiles;
    int nt;
    int dense[3];    /* input k advances with dst (not broadcast) */
    int big;         /* copy's source: 1 or 2, -1 when neither is dense */
} h_stream;

void h_stream_init(h_stream *s, const void *const in[3],
                   const size_t in_bytes[3], void *out, size_t out_bytes,
                   size_t es, int nt);
/* Whether a strategy applies to this call (copy needs a dense input). */
int h_stream_has(const h_stream *s, int strategy);
/* Tiles [t0, t1) by a strategy; any split of [0, tiles) over threads
 * covers the call. */
void h_stream_tiles(const h_stream *s, int strategy, size_t t0, size_t t1);
const char *h_stream_name(int strategy);
/* The vector width the yardstick uses on this CPU ("avx512", ...). */
const char *h_stream_isa(void);

/* ---- workloads (bench_work.c) ---------------------------------------- */

/* What the issues ask of a workload, checked and counted in the report:
 * opt's ratio to the yardstick at least `goal`, or opt's time per call at
 * most `goal` nanoseconds; at 1 and 2 threads. */
enum { H_GOAL_NONE, H_GOAL_RATIO, H_GOAL_NS };

typedef struct h_work {
    char name[64];
    int32_t dtype, rank[4];
    int64_t dims[4][SEL_MAX_RANK];
    sel_broadcast b;
    int causal;      /* cond[i][j] = j <= i over the last two axes */
    int goal_kind;
    double goal;
    const char *note; /* printed under the rows, or NULL */
} h_work;

#define H_MAX_WORKS 96
extern h_work h_works[H_MAX_WORKS];
extern int h_nworks;
/* The default workloads (the table of bench_work.c). */
void h_works_default(void);
/* "COND:THEN:ELSE[:DTYPE[:MODE[:AXIS]]]" (shapes like 4096x1, _ for rank
 * 0; MODE none, numpy or pdpd) into w; 0 on success. */
int h_work_parse(const char *spec, h_work *w);
/* Dims as "8x224x224x1", "_" for rank 0. */
void h_dims_str(char *s, size_t n, const int64_t *d, int32_t r);
/* The spec of w, as --workload takes it. */
void h_work_spec(const h_work *w, char *s, size_t n);
int64_t h_count(const int64_t *d, int32_t r);

/* ---- running one workload (bench_run.c) ------------------------------ */

typedef struct h_opts {
    double budget_s;
    int min_rounds, use_min, all_yards, quiet, max_threads;
    int64_t ref_max;
    FILE *csv;
    const sel_impl *ext[4];
    int next;
    const char *python; /* a python3 with numpy, or NULL */
    const char *self;   /* argv[0], for repro lines */
} h_opts;

typedef struct h_result {
    double ratio[2], ns[2]; /* opt at 1 and 2 threads */
    double numpy_ns;        /* 0: not measured */
    int misses;
} h_result;

/* Times w (yardsticks, ref, opt, --impl, numpy); prints its rows unless
 * quiet; exits on a wrong result. */
void h_bench_work(const h_work *w, const h_opts *o, h_result *res);

/* numpy.where on w's shapes: median ns per call, 0 when not measured. */
double h_numpy_time(const h_work *w, const char *python, double budget_s);
/* A python3 that imports numpy, or NULL. */
const char *h_numpy_find(void);

/* `bench --sweep N`: N seeded random valid shapes (bench_sweep.c). */
int h_sweep(int n, uint64_t seed, const h_opts *o);

/* bench --kernels: every kernel of opt's table on rows in cache. */
void h_bench_kernels(void);

/* bench_util.c.  Monotonic clock in nanoseconds. */
double h_now_ns(void);
/* The median (least: the least) of v[0..n), v left as it was; n is
 * 1..H_MAX_SAMPLES. */
#define H_MAX_SAMPLES 201
double h_median(const double *v, int n, int least);
void h_fmt_time(char *s, size_t n, double ns); /* "463.9 ns", "8.07 us" */
/* 4096-aligned (a whole number of pages); exits when out of memory. */
void *h_alloc(size_t bytes);
/* Deterministic bytes from a seed (no clock); bool01: each 0 or 1. */
void h_fill(uint8_t *p, size_t n, uint64_t seed, int bool01);

#endif
