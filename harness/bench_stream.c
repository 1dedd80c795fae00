/* bench_stream.c - the benchmark's yardstick: moves the bytes of a Select
 * call with plain vector loads and stores and no select, at the widest
 * vector width the CPU has (compiled per width with target attributes, so
 * this file needs no -m flags and runs anywhere).
 *
 * Each tile reads a proportional slice of every input (XOR-folded into
 * accumulators, so the loads cannot be dropped) and stores the fold over
 * its slice of the output.  Slices are proportional, so a 256 KiB cond
 * beside a 64 MiB then is read once over the whole pass, as Select reads
 * a broadcast input from cache.
 */
#include <string.h>
#include <time.h>

#include "bench.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#define TILE_OUT 16384 /* output bytes per tile */

static int vec_width(void);
static int vw; /* set once by h_stream_init, before any thread runs tiles */

void h_stream_init(h_stream *s, const void *const in[3],
                   const size_t in_bytes[3], void *out, size_t out_bytes,
                   int nt)
{
    if (!vw)
        vw = vec_width();
    for (int k = 0; k < 3; k++)
        s->in[k] = (const uint8_t *)in[k], s->in_bytes[k] = in_bytes[k];
    s->out = (uint8_t *)out;
    s->out_bytes = out_bytes;
    s->tiles = out_bytes ? (out_bytes + TILE_OUT - 1) / TILE_OUT : 1;
    s->nt = nt;
}

double h_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static size_t slice(size_t bytes, size_t tiles, size_t t)
{
    return (size_t)((unsigned __int128)bytes * t / tiles);
}

/* One body per vector width: V is a GCC vector type of VB bytes; STREAM
 * stores one aligned vector non-temporally.  A tile's output is written in
 * steps of STEP bytes, and before each step every input's share of the
 * tile is read (an even split, precomputed per tile: no division in the
 * loop), so all streams advance together as they do in a Select kernel. */
#define STEP 1024
#define STREAM_BODY(V, VB, STREAM, FENCE)                                     \
    V acc0 = {0}, acc1 = {0};                                                 \
    uint8_t tail = 0;                                                         \
    const int nt = s->nt && (uintptr_t)s->out % VB == 0;                      \
    for (size_t t = t0; t < t1; t++) {                                        \
        const size_t o0 = t * TILE_OUT;                                       \
        const size_t on = (t + 1 == s->tiles ? s->out_bytes : o0 + TILE_OUT)  \
                          - o0;                                               \
        const size_t steps = (on + STEP - 1) / STEP;                          \
        const uint8_t *p[3];                                                  \
        size_t q[3], r[3];                                                    \
        for (int k = 0; k < 3; k++) {                                         \
            const size_t a = slice(s->in_bytes[k], s->tiles, t);              \
            const size_t n = slice(s->in_bytes[k], s->tiles, t + 1) - a;      \
            p[k] = s->in[k] + a, q[k] = n / steps, r[k] = n % steps;          \
        }                                                                     \
        for (size_t j = 0; j < steps; j++) {                                  \
            uint8_t *d = s->out + o0 + j * STEP;                              \
            const size_t dn = j + 1 == steps ? on - j * STEP : STEP;          \
            size_t i = 0;                                                     \
            V v;                                                              \
            for (int k = 0; k < 3; k++) {                                     \
                const size_t n = q[k] + (j < r[k]);                           \
                for (i = 0; i + 2 * VB <= n; i += 2 * VB) {                   \
                    V x, y;                                                   \
                    memcpy(&x, p[k] + i, VB), memcpy(&y, p[k] + i + VB, VB);  \
                    acc0 ^= x, acc1 ^= y;                                     \
                }                                                             \
                for (; i + VB <= n; i += VB) {                                \
                    V x;                                                      \
                    memcpy(&x, p[k] + i, VB);                                 \
                    acc0 ^= x;                                                \
                }                                                             \
                for (; i + 8 <= n; i += 8) {                                  \
                    uint64_t x;                                               \
                    memcpy(&x, p[k] + i, 8);                                  \
                    tail ^= (uint8_t)(x ^ x >> 32);                           \
                }                                                             \
                for (; i < n; i++)                                            \
                    tail ^= p[k][i];                                          \
                p[k] += n;                                                    \
            }                                                                 \
            v = acc0 ^ acc1;                                                  \
            if (nt) /* tiles and steps keep d aligned */                      \
                for (i = 0; i + VB <= dn; i += VB)                            \
                    STREAM(d + i, v);                                         \
            else                                                              \
                for (i = 0; i + VB <= dn; i += VB)                            \
                    memcpy(d + i, &v, VB);                                    \
            for (; i < dn; i++)                                               \
                d[i] = tail;                                                  \
        }                                                                     \
    }                                                                         \
    if (nt)                                                                   \
        FENCE;

typedef long long v16 __attribute__((vector_size(16)));
#if defined(__x86_64__)
typedef long long v32 __attribute__((vector_size(32)));
typedef long long v64 __attribute__((vector_size(64)));

#define ST16(p, v) _mm_stream_si128((__m128i *)(void *)(p), (__m128i)(v))
#define ST32(p, v) _mm256_stream_si256((__m256i *)(void *)(p), (__m256i)(v))
#define ST64(p, v) _mm512_stream_si512((void *)(p), (__m512i)(v))

static void tiles16(const h_stream *s, size_t t0, size_t t1)
{
    STREAM_BODY(v16, 16, ST16, _mm_sfence())
}

__attribute__((target("avx2"))) static void tiles32(const h_stream *s,
                                                   size_t t0, size_t t1)
{
    STREAM_BODY(v32, 32, ST32, _mm_sfence())
}

__attribute__((target("avx512f"))) static void tiles64(const h_stream *s,
                                                      size_t t0, size_t t1)
{
    STREAM_BODY(v64, 64, ST64, _mm_sfence())
}

static int vec_width(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") ? 64
         : __builtin_cpu_supports("avx2")    ? 32 : 16;
}

void h_stream_tiles(const h_stream *s, size_t t0, size_t t1)
{
    if (vw == 64)
        tiles64(s, t0, t1);
    else if (vw == 32)
        tiles32(s, t0, t1);
    else
        tiles16(s, t0, t1);
}

const char *h_stream_isa(void)
{
    const int w = vec_width();
    return w == 64 ? "avx512" : w == 32 ? "avx2" : "sse2";
}
#else
static int vec_width(void)
{
    return 16;
}

#define ST_PLAIN(p, v) memcpy((p), &(v), 16)
void h_stream_tiles(const h_stream *s, size_t t0, size_t t1)
{
    STREAM_BODY(v16, 16, ST_PLAIN, (void)0)
}

const char *h_stream_isa(void)
{
    return "generic";
}
#endif
