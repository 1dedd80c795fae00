/* bench_stream.c - the benchmark's yardsticks: passes that move the bytes of
 * one Select call (read cond, then and else as stored, write dst) with plain
 * vector loads and stores and no select, in the strategies of bench.h.
 *
 * Compiled per vector width with target attributes (the widest the CPU has
 * runs), so this file needs no -m flags and runs anywhere.  An input smaller
 * than its dense size (a broadcast input) is read in proportional slices per
 * tile: over the pass it is read once, as Select reads it once from memory
 * and then from cache.  Every load reaches a store, so none can be dropped.
 */
#include <string.h>

#include "bench.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

/* Output bytes per tile, the unit the threads split: opt's least chunk
 * (chunk_min), so that both split a call alike.  Tiles of 16 KiB measured
 * 4% slower than one pass on 1 Mi f16/i8 in cache (the restarts). */
#define TILE_OUT ((size_t)256 << 10)
#define STEP 1024      /* tiled: output bytes per step */

static int vec_width(void);
static int vw; /* set once by h_stream_init, before any thread runs tiles */

void h_stream_init(h_stream *s, const void *const in[3],
                   const size_t in_bytes[3], void *out, size_t out_bytes,
                   size_t es, int nt)
{
    if (!vw)
        vw = vec_width();
    for (int k = 0; k < 3; k++)
        s->in[k] = (const uint8_t *)in[k], s->in_bytes[k] = in_bytes[k];
    s->out = (uint8_t *)out;
    s->out_bytes = out_bytes;
    s->es = es;
    s->tiles = out_bytes ? (out_bytes + TILE_OUT - 1) / TILE_OUT : 1;
    s->nt = nt;
    /* Dense: then/else as many bytes as dst, cond one byte per element. */
    s->dense[0] = out_bytes && in_bytes[0] * es == out_bytes;
    s->dense[1] = out_bytes && in_bytes[1] == out_bytes;
    s->dense[2] = out_bytes && in_bytes[2] == out_bytes;
    s->big = s->dense[1] ? 1 : s->dense[2] ? 2 : -1;
}

int h_stream_has(const h_stream *s, int strategy)
{
    return strategy != H_Y_COPY || s->big >= 0;
}

const char *h_stream_name(int strategy)
{
    static const char *const names[H_Y_COUNT] = {"fused", "tiled", "copy"};
    return strategy >= 0 && strategy < H_Y_COUNT ? names[strategy] : "?";
}

/* Where tile t of n starts in a buffer of `bytes` (proportional). */
static size_t slice(size_t bytes, size_t tiles, size_t t)
{
    return (size_t)((unsigned __int128)bytes * t / tiles);
}

/* The output bytes of tile t: returns the offset, *on the length. */
static size_t tile_out(const h_stream *s, size_t t, size_t *on)
{
    const size_t o0 = t * TILE_OUT;
    *on = (t + 1 == s->tiles ? s->out_bytes : o0 + TILE_OUT) - o0;
    return o0;
}

#define AI inline __attribute__((always_inline))
/* Each yardstick starts on a 64-byte line: where the linker put tiled64
 * moved boxes_n4_i64's yardstick by 30% (48 vs 65 GB/s) between two
 * builds whose bench_stream.c was the same, so the ratio moved with code
 * that was not timed.  Pinned, the loops sit at the same offsets in every
 * build. */
#define YARD_FN static __attribute__((aligned(64)))

/* What the yardsticks store must cost what data costs.  Writing DRAM here
 * depends on the bytes: streaming 64 MiB of lines that are all 0 took
 * 0.8 ms, with one nonzero 8-byte lane per line 1.3 ms, with no zero byte
 * 2.4 ms (opt/NOTES.md, "outer_f32 and the tiled yardstick").  So a fold
 * starts from a constant with no zero byte (one per input: two equal
 * starts would cancel in fused's XOR) and spreads its scalar tail over
 * every lane, mixed by an odd multiplier; check-bench-yard holds every
 * strategy to under 2% zero bytes on random inputs. */
#define MIX 0x9E3779B97F4A7C15ull
static const uint64_t SEEDS[3] = {0x9E3779B97F4A7C15ull, 0xC2B2AE3D27D4EB4Full,
                                  0x165667B19E3779F9ull};

/* The three strategies for one vector type V of VB bytes; TGT is its target
 * attribute, STREAM stores one aligned vector non-temporally. */
#define YARD_ISA(sfx, V, VB, STREAM, FENCE, TGT)                             \
    /* XORs n bytes at p into *acc (the loads stay alive through it). */     \
    TGT static AI void fold##sfx(V *acc, const uint8_t *p, size_t n)         \
    {                                                                        \
        uint64_t w = 0, x;                                                   \
        size_t i = 0;                                                        \
        for (; i + VB <= n; i += VB) {                                       \
            V v;                                                             \
            memcpy(&v, p + i, VB);                                           \
            *acc ^= v;                                                       \
        }                                                                    \
        for (; i + 8 <= n; i += 8)                                           \
            memcpy(&x, p + i, 8), w ^= x;                                    \
        for (; i < n; i++)                                                   \
            w ^= (uint64_t)p[i] << i % 8 * 8;                                \
        /* Mixed and into every lane (a register op: no partial store): a    \
         * tail in lane 0 alone left 7/8 of each stored line 0, which this   \
         * machine writes to DRAM 2-3x faster than data (see SEEDS). */      \
        *acc ^= (long long)(w * MIX);                                        \
    }                                                                        \
    TGT static AI void put##sfx(uint8_t *d, V x, int nt)                     \
    {                                                                        \
        if (nt)                                                              \
            STREAM(d, x);                                                    \
        else                                                                 \
            memcpy(d, &x, VB);                                               \
    }                                                                        \
    /* fused: one output vector at a time, reading VB / W cond bytes (W =    \
     * the element size: the cond of one vector's elements) and VB of then   \
     * and else, as a Select kernel does (one 64-byte cond load per four     \
     * f32 vectors measured 2-7% slower at DRAM sizes); st[k] is 0 for an    \
     * input whose tile slice was folded into the vector at p[k]. */         \
    TGT static AI void vectors##sfx(const uint8_t *const p[3],               \
                                    const size_t st[3], uint8_t *d,          \
                                    size_t on, const size_t W, const int nt) \
    {                                                                        \
        const uint8_t *c = p[0], *t = p[1], *e = p[2];                       \
        const size_t cs = st[0] ? VB / W : 0;                                \
        size_t i = 0;                                                        \
        for (; i + VB <= on; i += VB, c += cs, t += st[1], e += st[2]) {     \
            V tv, ev;                                                        \
            memcpy(&tv, t, VB), memcpy(&ev, e, VB);                          \
            put##sfx(d + i, tv ^ ev ^ cload##sfx(c, VB / W), nt);            \
        }                                                                    \
        if (i < on) { /* fewer than VB bytes: whole elements, so on - i is   \
                       * a multiple of W */                                  \
            const size_t r = on - i;                                         \
            V cv, tv, ev;                                                    \
            memset(&cv, 0, VB), memset(&tv, 0, VB), memset(&ev, 0, VB);      \
            memcpy(&cv, c, st[0] ? r / W : r);                               \
            memcpy(&tv, t, r), memcpy(&ev, e, r);                            \
            tv ^= ev ^ cv;                                                   \
            memcpy(d + i, &tv, r);                                           \
        }                                                                    \
    }                                                                        \
    TGT YARD_FN void fused##sfx(const h_stream *s, size_t t0, size_t t1)     \
    {                                                                        \
        const int nt = s->nt && (uintptr_t)s->out % VB == 0;                 \
        const size_t es = s->es;                                             \
        for (size_t t = t0; t < t1; t++) {                                   \
            size_t on, st[3];                                                \
            const size_t o0 = tile_out(s, t, &on);                           \
            uint8_t *d = s->out + o0;                                        \
            const uint8_t *p[3];                                             \
            V fold[3];                                                       \
            for (int k = 0; k < 3; k++) {                                    \
                size_t a;                                                    \
                fold[k] = (V){0} + (long long)SEEDS[k];                      \
                st[k] = s->dense[k] ? VB : 0;                                \
                if (s->dense[k]) {                                           \
                    p[k] = s->in[k] + (k ? o0 : o0 / es);                    \
                    continue;                                                \
                }                                                            \
                a = slice(s->in_bytes[k], s->tiles, t);                      \
                fold##sfx(&fold[k], s->in[k] + a,                            \
                          slice(s->in_bytes[k], s->tiles, t + 1) - a);       \
                p[k] = (const uint8_t *)&fold[k];                            \
            }                                                                \
            /* Constant W and nt: each call is its own loop. */              \
            if (nt)                                                          \
                es == 1   ? vectors##sfx(p, st, d, on, 1, 1)                 \
                : es == 2 ? vectors##sfx(p, st, d, on, 2, 1)                 \
                : es == 4 ? vectors##sfx(p, st, d, on, 4, 1)                 \
                          : vectors##sfx(p, st, d, on, 8, 1);                \
            else                                                             \
                es == 1   ? vectors##sfx(p, st, d, on, 1, 0)                 \
                : es == 2 ? vectors##sfx(p, st, d, on, 2, 0)                 \
                : es == 4 ? vectors##sfx(p, st, d, on, 4, 0)                 \
                          : vectors##sfx(p, st, d, on, 8, 0);                \
        }                                                                    \
        if (nt)                                                              \
            FENCE;                                                           \
    }                                                                        \
    /* tiled: per STEP bytes of dst, each input's share in turn, folded;     \
     * then the fold stored over the step. */                                \
    TGT YARD_FN void tiled##sfx(const h_stream *s, size_t t0, size_t t1)     \
    {                                                                        \
        const int nt = s->nt && (uintptr_t)s->out % VB == 0;                 \
        V acc = (V){0} + (long long)SEEDS[0];                                \
        for (size_t t = t0; t < t1; t++) {                                   \
            size_t on, q[3], r[3];                                           \
            const size_t o0 = tile_out(s, t, &on);                           \
            const size_t steps = on ? (on + STEP - 1) / STEP : 1;            \
            const uint8_t *p[3];                                             \
            for (int k = 0; k < 3; k++) { /* an even split over steps */     \
                const size_t a = slice(s->in_bytes[k], s->tiles, t);         \
                const size_t n = slice(s->in_bytes[k], s->tiles, t + 1) - a; \
                p[k] = s->in[k] + a, q[k] = n / steps, r[k] = n % steps;     \
            }                                                                \
            for (size_t j = 0; j < steps; j++) {                             \
                uint8_t *d = s->out + o0 + j * STEP;                         \
                const size_t dn = j + 1 == steps ? on - j * STEP : STEP;     \
                size_t i = 0;                                                \
                for (int k = 0; k < 3; k++) {                                \
                    const size_t n = q[k] + (j < r[k]);                      \
                    fold##sfx(&acc, p[k], n);                                \
                    p[k] += n;                                               \
                }                                                            \
                for (; i + VB <= dn; i += VB) /* steps keep d aligned */     \
                    put##sfx(d + i, acc, nt);                                \
                for (; i < dn; i++)                                          \
                    d[i] = (uint8_t)acc[0];                                  \
            }                                                                \
        }                                                                    \
        if (nt)                                                              \
            FENCE;                                                           \
    }                                                                        \
    /* copy: the other inputs' shares folded, then glibc's memcpy of the     \
     * big input's share (its own store policy); the fold goes into dst. */  \
    TGT YARD_FN void copy##sfx(const h_stream *s, size_t t0, size_t t1)      \
    {                                                                        \
        for (size_t t = t0; t < t1; t++) {                                   \
            size_t on;                                                       \
            const size_t o0 = tile_out(s, t, &on);                           \
            uint8_t *d = s->out + o0;                                        \
            V acc = (V){0} + (long long)SEEDS[0], x;                         \
            for (int k = 0; k < 3; k++) {                                    \
                const size_t a = slice(s->in_bytes[k], s->tiles, t);         \
                if (k != s->big)                                             \
                    fold##sfx(&acc, s->in[k] + a,                            \
                              slice(s->in_bytes[k], s->tiles, t + 1) - a);   \
            }                                                                \
            memcpy(d, s->in[s->big] + o0, on);                               \
            if (on >= VB) {                                                  \
                memcpy(&x, d, VB);                                           \
                x ^= acc;                                                    \
                memcpy(d, &x, VB);                                           \
            } else if (on)                                                   \
                d[0] ^= (uint8_t)acc[0];                                     \
        }                                                                    \
    }

typedef void yard_fn(const h_stream *s, size_t t0, size_t t1);
typedef long long v16 __attribute__((vector_size(16)));

#if defined(__x86_64__)
typedef long long v32 __attribute__((vector_size(32)));
typedef long long v64 __attribute__((vector_size(64)));

#define ST16(p, v) _mm_stream_si128((__m128i *)(void *)(p), (__m128i)(v))
#define ST32(p, v) _mm256_stream_si256((__m256i *)(void *)(p), (__m256i)(v))
#define ST64(p, v) _mm512_stream_si512((void *)(p), (__m512i)(v))

/* n bytes of cond at c (n = VB / W, a constant after inlining) in the low
 * bytes of a vector, the rest zero: one narrow load, as Select's kernels. */
static AI v16 cload16(const uint8_t *c, size_t n)
{
    uint32_t x = 0;
    if (n == 16)
        return (v16)_mm_loadu_si128((const __m128i *)(const void *)c);
    if (n == 8)
        return (v16)_mm_loadl_epi64((const __m128i *)(const void *)c);
    memcpy(&x, c, n);
    return (v16)_mm_cvtsi32_si128((int)x);
}

__attribute__((target("avx2"))) static AI v32 cload32(const uint8_t *c,
                                                      size_t n)
{
    if (n == 32)
        return (v32)_mm256_loadu_si256((const __m256i *)(const void *)c);
    return (v32)_mm256_zextsi128_si256((__m128i)cload16(c, n));
}

__attribute__((target("avx512f"))) static AI v64 cload64(const uint8_t *c,
                                                        size_t n)
{
    if (n == 64)
        return (v64)_mm512_loadu_si512(c);
    return (v64)_mm512_zextsi256_si512((__m256i)cload32(c, n));
}

YARD_ISA(16, v16, 16, ST16, _mm_sfence(), )
YARD_ISA(32, v32, 32, ST32, _mm_sfence(), __attribute__((target("avx2"))))
YARD_ISA(64, v64, 64, ST64, _mm_sfence(), __attribute__((target("avx512f"))))

static yard_fn *const fns[3][H_Y_COUNT] = {
    {fused16, tiled16, copy16},
    {fused32, tiled32, copy32},
    {fused64, tiled64, copy64},
};

static int vec_width(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") ? 64
         : __builtin_cpu_supports("avx2")    ? 32 : 16;
}

const char *h_stream_isa(void)
{
    const int w = vec_width();
    return w == 64 ? "avx512" : w == 32 ? "avx2" : "sse2";
}
#else
#define ST_PLAIN(p, v) memcpy((p), &(v), 16)
static AI v16 cload16(const uint8_t *c, size_t n)
{
    uint64_t x = 0;
    v16 v;
    if (n == 16) {
        memcpy(&v, c, 16);
        return v;
    }
    memcpy(&x, c, n);
    return (v16){(long long)x, 0};
}

YARD_ISA(16, v16, 16, ST_PLAIN, (void)0, )

static yard_fn *const fns[3][H_Y_COUNT] = {
    {fused16, tiled16, copy16},
    {fused16, tiled16, copy16},
    {fused16, tiled16, copy16},
};

static int vec_width(void)
{
    return 16;
}

const char *h_stream_isa(void)
{
    return "generic";
}
#endif

void h_stream_tiles(const h_stream *s, int strategy, size_t t0, size_t t1)
{
    fns[vw == 64 ? 2 : vw == 32 ? 1 : 0][strategy](s, t0, t1);
}
