/* bench_kernels.c - `bench --kernels`: every kernel of opt's table (the
 * OPT_KERNELS X-macro, expanded here as in the dispatch and the tests) on
 * rows that stay in L1/L2, at every ISA level this machine runs.
 *
 * This isolates the kernels from planning, threads and DRAM: it is where
 * the ISA levels differ (at DRAM sizes they all meet the bandwidth wall).
 * Bytes per call are counted as for a Select: cond, then and else (one
 * element when broadcast) read, dst written.
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "opt.h"

#define ROW 4096 /* elements per call: 40 KiB of f32 traffic */

typedef struct krow {
    const char *name;
    int isa, width, kind;
} krow;

#define KROW(isa, bits, kind)                                                \
    {#isa "/x" #bits "_" #kind, OPT_ISA_##isa,                               \
     bits == 8 ? 0 : bits == 16 ? 1 : bits == 32 ? 2 : 3, OPT_K_##kind},
static const krow rows[] = {OPT_KERNELS(KROW)};

void h_bench_kernels(void)
{
    static uint8_t c[ROW], t[ROW * 8], e[ROW * 8], d[ROW * 8];
    uint64_t x = 88172645463325252u;

    for (size_t i = 0; i < sizeof t; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        t[i] = (uint8_t)x, e[i] = (uint8_t)(x >> 8);
        if (i < ROW)
            c[i] = (uint8_t)(x >> 16 & 1);
    }
    printf("%-26s %8s %10s %8s\n", "kernel", "elements", "per call", "GB/s");
    for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        const krow *k = &rows[r];
        opt_kernel_fn *fn = opt_kernel(k->isa, k->width, k->kind);
        const size_t w = (size_t)1 << k->width;
        const int tv = k->kind != OPT_K_vsv && k->kind != OPT_K_vss &&
                       k->kind != OPT_K_fill;
        const int ev = k->kind == OPT_K_vvv || k->kind == OPT_K_vsv;
        const int cv = k->kind != OPT_K_fill && k->kind != OPT_K_copy;
        const double bytes = (double)ROW * ((cv ? 1 : 0) + w * (1 + tv + ev)) +
                             (double)w * (!tv + (cv && !ev));
        double s[31];
        if (!opt_isa_supported(k->isa)) {
            printf("%-26s skipped: this CPU/OS cannot run %s\n", k->name,
                   opt_isa_name(k->isa));
            continue;
        }
        for (int i = 0; i < 31; i++) {
            const double t0 = h_now_ns();
            for (int j = 0; j < 64; j++)
                fn(ROW, c, t, e, d, 0);
            s[i] = (h_now_ns() - t0) / 64;
        }
        s[0] = h_median(s, 31, 0);
        printf("%-26s %8d %7.1f ns %8.2f\n", k->name, ROW, s[0], bytes / s[0]);
    }
}
