/* bench.h - what the benchmark's files share (harness/bench*.c): the
 * streaming yardstick and the timer.  Not part of any interface.
 */
#ifndef H_BENCH_H
#define H_BENCH_H

#include <stddef.h>
#include <stdint.h>

/* A streaming pass that moves exactly the bytes of one Select call: reads
 * each of the three inputs once (in[k], in_bytes[k]: the tensors as stored,
 * so a broadcast input counts once) and writes out once, interleaved in
 * tiles so that all streams run at the same time, and selects nothing.
 * Uses non-temporal stores when nt is set (the same rule as opt). */
typedef struct h_stream {
    const uint8_t *in[3];
    size_t in_bytes[3];
    uint8_t *out;
    size_t out_bytes;
    size_t tiles;
    int nt;
} h_stream;

void h_stream_init(h_stream *s, const void *const in[3],
                   const size_t in_bytes[3], void *out, size_t out_bytes,
                   int nt);
/* Tiles [t0, t1); any split of [0, tiles) over threads covers the call. */
void h_stream_tiles(const h_stream *s, size_t t0, size_t t1);
/* The vector width the yardstick uses on this CPU ("avx512", ...). */
const char *h_stream_isa(void);

/* bench --kernels: every kernel of opt's table on rows in cache. */
void h_bench_kernels(void);

/* Monotonic clock in nanoseconds. */
double h_now_ns(void);

#endif
