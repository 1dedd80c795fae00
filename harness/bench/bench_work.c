/* bench_work.c - the benchmark's workloads as data: one row per workload
 * (shapes, dtype, mode, what the issues ask of it), the parser of
 * --workload specs and the spec printer the sweep's repro lines use.
 *
 * The categories follow issue 10: same shapes at every size, the attention
 * and row broadcasts, then short inner rows as real graphs make them
 * (channel-last broadcasts, per-pixel masks, per-sample cond, point clouds
 * and boxes, middle-axis and outer-product broadcasts, rank 6-8 with
 * interleaved 1s) and tiny calls of rank 1-8.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

h_work h_works[H_MAX_WORKS];
int h_nworks;

/* One row of the table: name, dtype name, "cond:then:else", goal. */
typedef struct row {
    const char *name, *dtype, *shapes;
    int goal_kind;
    double goal;
    int causal;
    const char *note;
} row;

#define RATIO(x) H_GOAL_RATIO, x
#define NS(x) H_GOAL_NS, x
#define NONE H_GOAL_NONE, 0

static const row table[] = {
    /* Same shapes: the bandwidth wall (issue 3's targets at 16/64 Mi). */
    {"same_f32_4Ki", "f32", "4096:4096:4096", NONE, 0, NULL},
    {"same_f32_64Ki", "f32", "65536:65536:65536", NONE, 0, NULL},
    {"same_f32_1Mi", "f32", "1048576:1048576:1048576", NONE, 0, NULL},
    {"same_f32_16Mi", "f32", "16777216:16777216:16777216", RATIO(0.90), 0, NULL},
    {"same_f32_64Mi", "f32", "67108864:67108864:67108864", RATIO(0.90), 0, NULL},
    {"same_f16_4Ki", "f16", "4096:4096:4096", NONE, 0, NULL},
    {"same_f16_64Ki", "f16", "65536:65536:65536", NONE, 0, NULL},
    {"same_f16_1Mi", "f16", "1048576:1048576:1048576", NONE, 0, NULL},
    {"same_f16_16Mi", "f16", "16777216:16777216:16777216", RATIO(0.90), 0, NULL},
    {"same_f16_64Mi", "f16", "67108864:67108864:67108864", RATIO(0.90), 0, NULL},
    {"same_i8_4Ki", "i8", "4096:4096:4096", NONE, 0, NULL},
    {"same_i8_64Ki", "i8", "65536:65536:65536", NONE, 0, NULL},
    {"same_i8_1Mi", "i8", "1048576:1048576:1048576", NONE, 0, NULL},
    {"same_i8_16Mi", "i8", "16777216:16777216:16777216", NONE, 0, NULL},
    {"same_i8_64Mi", "i8", "67108864:67108864:67108864", NONE, 0, NULL},
    {"call_64_f32", "f32", "64:64:64", NS(40), 0, NULL},
    /* Long rows with a broadcast (issue 3). */
    {"attn_random_f32", "f32", "1x1x512x512:4x16x512x512:_", RATIO(0.85), 0, NULL},
    {"attn_causal_f32", "f32", "1x1x512x512:4x16x512x512:_", RATIO(0.85), 1, NULL},
    {"rowbcast_f32", "f32", "4096x1:4096x1024:4096x1024", RATIO(0.85), 0, NULL},
    {"scalar_then_f32", "f32", "4096x1024:_:4096x1024", RATIO(0.85), 0, NULL},
    {"cond_1024_f32", "f32", "1024:4096x1024:4096x1024", RATIO(0.85), 0, NULL},
    /* Channel-last: a per-pixel cond, a per-channel default (C = 1..16). */
    {"chan_c1_f32", "f32", "4x112x112x1:4x112x112x1:1x1x1x1", RATIO(0.85), 0, NULL},
    {"chan_c2_f32", "f32", "4x112x112x1:4x112x112x2:1x1x1x2", RATIO(0.85), 0, NULL},
    {"chan_c3_f32", "f32", "4x112x112x1:4x112x112x3:1x1x1x3", RATIO(0.85), 0, NULL},
    {"chan_c4_f32", "f32", "4x112x112x1:4x112x112x4:1x1x1x4", RATIO(0.85), 0, NULL},
    {"chan_c8_f32", "f32", "4x112x112x1:4x112x112x8:1x1x1x8", RATIO(0.85), 0, NULL},
    {"chan_c16_f32", "f32", "4x112x112x1:4x112x112x16:1x1x1x16", RATIO(0.85), 0, NULL},
    /* A per-pixel mask over RGB images (issue 10's first row). */
    {"pixmask_rgb_u8", "u8", "8x224x224x1:8x224x224x3:8x224x224x3", RATIO(0.85), 0, NULL},
    {"pixmask_rgb_f16", "f16", "8x224x224x1:8x224x224x3:8x224x224x3", RATIO(0.85), 0, NULL},
    /* Per-sample cond, per-channel default. */
    {"sample_f32", "f32", "8x1x1x1:8x224x224x3:1x1x1x3", RATIO(0.85), 0, NULL},
    /* Point clouds [N,3] and boxes [N,4] with a per-row cond. */
    {"points_n3_f32", "f32", "4096x1x1:4096x1024x3:1x1x3", RATIO(0.85), 0, NULL},
    {"points_dense_f32", "f32", "1048576x1:1048576x3:1048576x3", RATIO(0.85), 0, NULL},
    {"boxes_n4_f32", "f32", "1048576x1:1048576x4:1x4", RATIO(0.85), 0, NULL},
    {"boxes_n4_i64", "i64", "262144x1:262144x4:262144x4", RATIO(0.85), 0, NULL},
    /* Middle-axis and outer-product broadcasts. */
    {"midaxis_f16", "f16", "64x1x1024:1x64x1024:64x64x1024", RATIO(0.85), 0, NULL},
    {"midaxis_short_f32", "f32", "256x1x8:1x256x8:256x256x8", RATIO(0.85), 0, NULL},
    {"outer_f32", "f32", "1x256x1:256x1x256:256x256x1", RATIO(0.85), 0, NULL},
    /* Rank 6-8 with interleaved 1s. */
    {"rank6_f16", "f16", "8x1x8x1x8x1:1x8x1x8x1x8:8x8x8x8x8x8", RATIO(0.85), 0, NULL},
    {"rank7_u8", "u8", "4x1x8x1x8x1x8:1x4x1x8x1x8x1:4x4x8x8x8x8x8", RATIO(0.85), 0, NULL},
    {"rank8_f32", "f32", "4x1x4x1x4x1x4x1:1x4x1x4x1x4x1x4:4x4x4x4x4x4x4x4", RATIO(0.85), 0, NULL},
    /* Tiny calls, 256 output elements, rank 1-8: the price of a call. */
    {"tiny_r1_f32", "f32", "256:_:256", NS(150), 0, NULL},
    {"tiny_r2_f32", "f32", "16x1:1x16:16x16", NS(150), 0, NULL},
    {"tiny_r3_f32", "f32", "8x1x8:1x4x8:8x4x1", NS(150), 0, NULL},
    {"tiny_r4_f32", "f32", "4x1x4x1:1x4x1x4:4x4x4x4", NS(150), 0, NULL},
    {"tiny_r5_u8", "u8", "4x1x2x1x2:1x4x1x4x1:4x4x2x4x2", NS(150), 0, NULL},
    {"tiny_r6_f16", "f16", "2x1x4x1x2x2:1x4x1x2x1x2:2x4x4x2x2x1", NS(150), 0, NULL},
    {"tiny_r7_f64", "f64", "2x1x2x1x2x1x4:1x2x1x2x1x2x1:2x2x2x2x2x2x4", NS(150), 0, NULL},
    {"tiny_r8_f32", "f32", "2x1x2x1x2x1x2x1:1x2x1x2x1x2x1x2:2x2x2x2x2x2x2x2", NS(150), 0, NULL},
};

int64_t h_count(const int64_t *d, int32_t r)
{
    int64_t n = 1;
    for (int32_t i = 0; i < r; i++)
        n *= d[i];
    return n;
}

/* "4096x1" -> dims; "_" -> rank 0; -1 when malformed. */
static int32_t parse_dims(const char *s, int64_t *d)
{
    int32_t r = 0;
    if (strcmp(s, "_") == 0)
        return 0;
    for (;;) {
        char *end;
        if (r == SEL_MAX_RANK || *s < '0' || *s > '9')
            return -1;
        d[r++] = strtoll(s, &end, 10);
        if (*end == 0)
            return r;
        if (*end != 'x')
            return -1;
        s = end + 1;
    }
}

static const char *const modes[] = {"none", "numpy", "pdpd"};

int h_work_parse(const char *spec, h_work *w)
{
    char part[6][64];
    int n = sscanf(spec, "%63[^:]:%63[^:]:%63[^:]:%63[^:]:%63[^:]:%63s",
                   part[0], part[1], part[2], part[3], part[4], part[5]);
    memset(w, 0, sizeof *w);
    snprintf(w->name, sizeof w->name, "%.63s", spec);
    w->dtype = SEL_DT_F32;
    w->b = (sel_broadcast){SEL_BROADCAST_NUMPY, -1, 0};
    if (n < 3)
        return -1;
    for (int k = 0; k < 3; k++)
        if ((w->rank[k] = parse_dims(part[k], w->dims[k])) < 0)
            return -1;
    if (n > 3) {
        w->dtype = -1;
        for (int32_t k = SEL_DT_FIRST; k <= SEL_DT_LAST; k++)
            if (!strcmp(part[3], sel_dtype_name(k)))
                w->dtype = k;
        if (w->dtype < 0)
            return -1;
    }
    if (n > 4) {
        w->b.type = -1;
        for (int m = 0; m < 3; m++)
            if (!strcmp(part[4], modes[m]))
                w->b.type = m == 0 ? SEL_BROADCAST_NONE : m == 1 ? SEL_BROADCAST_NUMPY
                                                                 : SEL_BROADCAST_PDPD;
        if (w->b.type < 0)
            return -1;
    }
    if (n > 5)
        w->b.axis = atoi(part[5]);
    return 0;
}

void h_dims_str(char *s, size_t n, const int64_t *d, int32_t r)
{
    size_t at = 0;
    if (r == 0)
        snprintf(s, n, "_");
    for (int32_t i = 0; i < r && at < n; i++)
        at += (size_t)snprintf(s + at, n - at, i ? "x%lld" : "%lld", (long long)d[i]);
}

void h_work_spec(const h_work *w, char *s, size_t n)
{
    char d[3][160];
    const int m = w->b.type == SEL_BROADCAST_NONE ? 0 : w->b.type == SEL_BROADCAST_NUMPY ? 1 : 2;
    for (int k = 0; k < 3; k++)
        h_dims_str(d[k], sizeof d[k], w->dims[k], w->rank[k]);
    if (m == 2)
        snprintf(s, n, "%s:%s:%s:%s:pdpd:%d", d[0], d[1], d[2], sel_dtype_name(w->dtype),
                 (int)w->b.axis);
    else
        snprintf(s, n, "%s:%s:%s:%s:%s", d[0], d[1], d[2], sel_dtype_name(w->dtype), modes[m]);
}

void h_works_default(void)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0] && h_nworks < H_MAX_WORKS; i++) {
        char spec[160];
        h_work *w = &h_works[h_nworks];
        snprintf(spec, sizeof spec, "%s:%s", table[i].shapes, table[i].dtype);
        if (h_work_parse(spec, w) != 0) {
            fprintf(stderr, "bench: bad table row %s\n", table[i].name);
            exit(2);
        }
        snprintf(w->name, sizeof w->name, "%s", table[i].name);
        w->goal_kind = table[i].goal_kind;
        w->goal = table[i].goal;
        w->causal = table[i].causal;
        w->note = table[i].note;
        h_nworks++;
    }
}
