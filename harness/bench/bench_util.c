/* bench_util.c - the benchmark's small helpers (harness/bench/bench*.c): the
 * clock, the median of a set of samples, time formatting, and aligned,
 * deterministically filled buffers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"

double h_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmpd(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double h_median(const double *v, int n, int least)
{
    double s[H_MAX_SAMPLES];
    if (n < 1 || n > H_MAX_SAMPLES) {
        fprintf(stderr, "bench: %d samples (1..%d)\n", n, H_MAX_SAMPLES);
        exit(2);
    }
    memcpy(s, v, sizeof *v * (size_t)n);
    qsort(s, (size_t)n, sizeof *s, cmpd);
    if (least)
        return s[0];
    return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

void h_fmt_time(char *s, size_t n, double ns)
{
    if (ns < 1e3) snprintf(s, n, "%.1f ns", ns);
    else if (ns < 1e6) snprintf(s, n, "%.2f us", ns / 1e3);
    else snprintf(s, n, "%.3f ms", ns / 1e6);
}

void *h_alloc(size_t bytes)
{
    void *p = aligned_alloc(4096, (bytes + 4095) / 4096 * 4096);
    if (!p) {
        fprintf(stderr, "bench: out of memory (%zu bytes)\n", bytes);
        exit(2);
    }
    return p;
}

/* xorshift, eight bytes a step (one a step took a second per 64 Mi f32
 * workload). */
void h_fill(uint8_t *p, size_t n, uint64_t seed, int bool01)
{
    uint64_t x = seed * 0x9e3779b97f4a7c15u | 1;
    for (size_t i = 0; i < n; i++) {
        if (i % 8 == 0)
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        p[i] = (uint8_t)(x >> i % 8 * 8) & (bool01 ? 1 : 0xff);
    }
}
