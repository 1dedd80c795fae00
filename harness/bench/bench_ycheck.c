/* bench_ycheck.c - `make check-bench-yard`: every yardstick strategy stores
 * bytes that cost what data costs.  On this machine writing DRAM is 2-3x
 * faster for lines that are mostly 0 (opt/NOTES.md, "outer_f32 and the
 * tiled yardstick"), so a yardstick that stored zeros where Select stores
 * data would be a bar no Select can reach.  With random inputs, each
 * strategy (streaming stores on and off) must leave under 2% of dst's
 * bytes 0 (random bytes: 0.4%) on shapes whose inputs are tiny, broadcast,
 * or dense.  Exit 1 names the strategy and shape that fail.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

typedef struct yshape {
    const char *name;
    size_t in[3], out, es; /* bytes: cond, then, else, dst; element size */
} yshape;

static const yshape shapes[] = {
    /* outer_f32 in small: every input's share under 64 bytes per KiB */
    {"outer-like f32", {64, 16384, 16384}, (size_t)4 << 20, 4},
    {"scalars f32", {1, 4, 4}, (size_t)1 << 20, 4},
    {"dense f32", {65536, 262144, 262144}, 262144, 4},
    {"then dense i8", {4096, 1 << 20, 64}, 1 << 20, 1},
    {"else dense f64", {131072, 8, (size_t)1 << 20}, (size_t)1 << 20, 8},
};

static int check(const yshape *y, int strategy, int nt, uint8_t *const in[3],
                 uint8_t *out)
{
    const void *const src[3] = {in[0], in[1], in[2]};
    size_t zeros = 0;
    h_stream s;
    h_stream_init(&s, src, y->in, out, y->out, y->es, nt);
    if (!h_stream_has(&s, strategy))
        return 0;
    memset(out, 0, y->out);
    h_stream_tiles(&s, strategy, 0, s.tiles);
    for (size_t i = 0; i < y->out; i++)
        zeros += !out[i];
    if (zeros * 50 < y->out) /* under 2% */
        return 0;
    printf("check-bench-yard: %s (%s stores) on %s left %.1f%% of dst 0\n",
           h_stream_name(strategy), nt ? "streaming" : "regular", y->name,
           100.0 * (double)zeros / (double)y->out);
    return 1;
}

int main(void)
{
    int bad = 0, runs = 0;
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        const yshape *y = &shapes[i];
        uint8_t *in[3], *out = h_alloc(y->out);
        for (int k = 0; k < 3; k++) {
            in[k] = h_alloc(y->in[k]);
            h_fill(in[k], y->in[k], 7 + (uint64_t)k, k == 0);
        }
        for (int st = 0; st < H_Y_COUNT; st++)
            for (int nt = 0; nt < 2; nt++, runs++)
                bad += check(y, st, nt, in, out);
        for (int k = 0; k < 3; k++)
            free(in[k]);
        free(out);
    }
    if (bad)
        return 1;
    printf("check-bench-yard: %d runs of the yardsticks (%s) on random inputs, "
           "each left under 2%% of dst 0\n", runs, h_stream_isa());
    return 0;
}
