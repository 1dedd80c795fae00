/* bench.h - what the benchmark's files share (harness/bench/bench*.c): the
 * streaming yardsticks and the helpers.  Not part of any interface.
 */
#ifndef H_BENCH_H
#define H_BENCH_H

#include <stddef.h>
#include <stdint.h>

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
