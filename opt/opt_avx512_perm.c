/* opt_avx512_perm.c - the AVX-512 loops built on byte permutes (VBMI's
 * vpermb and vpermi2b) for short rows: blocks expanded in registers
 * (opt_ptile.c).  Compiled with the AVX-512 level's flags; each function
 * carries target("avx512vbmi") and runs only where opt_cpu_vbmi() says so.
 * Kept apart from opt_avx512.c, whose kernels need no VBMI; the chunk
 * programs' loop is in opt_avx512_chunk.c.
 */
#if !defined(__AVX512F__) || !defined(__AVX512BW__) || !defined(__AVX512VL__)
#error "opt_avx512_perm.c needs -mavx512f -mavx512bw -mavx512vl"
#endif

#include <immintrin.h>

#include "opt_ptile.h"

#define VBMI __attribute__((target("avx512vbmi")))

/* ---- short rows in 64-byte chunks of byte permutes (opt_ptile.c) --------
 * Per chunk of a block: each operand one load (mode 2: one per block;
 * mode 3: two per block, a span of 65-128 bytes, spread by vpermi2b),
 * spread by vpermb through the chunk's control (the same in every block),
 * cond through vptestmb to a byte mask, one byte blend, one store.  A block whose loads would pass
 * an operand's end reads that operand from a copy of its last bytes. */
#define PT_ALWAYS static inline __attribute__((always_inline)) VBMI

/* The fast loops' block: chunk J (a literal) with the controls rK##J and
 * windows wK##J of pt_loop in named locals (arrays of them were kept on
 * the stack: two more 64-byte loads per chunk).  Mode 2: one window per
 * block, v0_-v2_ (blocks of one chunk: 16 bytes in every lane). */
#define PT_OP(K, MK, SK, J)                                                   \
    (!(MK)       ? _mm512_loadu_si512((SK) + 64 * (J))                        \
     : (MK) == 2 ? _mm512_permutexvar_epi8(r##K##J, v##K##_)                  \
     : (MK) == 3 ? _mm512_permutex2var_epi8(v##K##_, r##K##J, h##K##_)        \
                 : _mm512_permutexvar_epi8(                                   \
                       r##K##J, _mm512_loadu_si512((SK) + w##K##J)))
/* Operand K's first 32 bytes of chunk J: the last chunk of a block when
 * it holds at most 32 bytes (dense: a 32-byte load, which crosses a line
 * half as often as a 64-byte one; windows permuted as for a whole chunk). */
#define PT_OP32(K, MK, SK, J)                                                 \
    (!(MK) ? _mm256_loadu_si256((const __m256i *)(const void *)((SK) + 64 * (J))) \
           : _mm512_castsi512_si256(PT_OP(K, MK, SK, J)))
/* Chunk J's output vector: each operand's bytes, cond's mask, the blend
 * (the asm keeps GCC from merging the blend into a masked load). */
#define PT_V(J, S0, S1, S2)                                                   \
    pt_blend(PT_OP(0, m0, S0, J), PT_OP(1, m1, S1, J), PT_OP(2, m2, S2, J))
/* One chunk.  No taken branch per chunk: the old csame and nt tests jumped
 * to blocks 30-40 KB away and made rank8_f32 depend on the loop's offset
 * in a 64-byte line (0.78-0.86; opt/NOTES.md, "Code placement").  A
 * partial last chunk (once per block) of at most 32 bytes runs at 256
 * bits: its dense loads and its store are half as wide. */
#define PT_CH(J, S0, S1, S2, D)                                               \
    if ((NC > 4 && (J) < 4) || nc > (J)) { /* 5-8: chunks 0-3 untested */   \
        if (PART == 1 && NC > 1 && (NC <= 4 || (J) >= 4) && (J) == nc - 1 &&      \
            tail != ~0ull) { /* partial */                                    \
            if (!(tail >> 32)) {                                              \
                __m256i a_ = PT_OP32(1, m1, S1, J), b_ = PT_OP32(2, m2, S2, J); \
                const __m256i c_ = PT_OP32(0, m0, S0, J);                     \
                a_ = _mm256_mask_blend_epi8(_mm256_test_epi8_mask(c_, c_), b_, a_); \
                _mm256_mask_storeu_epi8((D) + 64 * (J), (__mmask32)tail, a_); \
            } else                                                            \
                _mm512_mask_storeu_epi8((D) + 64 * (J), tail,                 \
                                        PT_V(J, S0, S1, S2));                 \
        } else if (nt)                                                        \
            _mm512_stream_si512((void *)((D) + 64 * (J)), PT_V(J, S0, S1, S2)); \
        else                                                                  \
            _mm512_storeu_si512((D) + 64 * (J), PT_V(J, S0, S1, S2));         \
    }
#define PT_W16(SK, W)                                                         \
    _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)((SK) + (W))))
#define PT_WIN(MK, SK, W)                                                     \
    ((MK) < 2 ? _mm512_setzero_si512()                                        \
     : NC == 1 ? PT_W16(SK, W) : _mm512_loadu_si512((SK) + (W)))
/* Mode 3: the block's second window, 64 bytes on (blocks of 3-4 chunks). */
#define PT_HI(MK, SK, W)                                                      \
    ((MK) != 3 ? _mm512_setzero_si512() : _mm512_loadu_si512((SK) + (W) + 64))
#define PT_BLOCK(S0, S1, S2, D)                                               \
    do {                                                                      \
        const __m512i v0_ = PART == 2 ? PT_W16(S0, w00) : PT_WIN(m0, S0, w00), \
                      v1_ = PT_WIN(m1, S1, w10),                              \
                      v2_ = PT_WIN(m2, S2, w20);                              \
        const __m512i h0_ = PT_HI(m0, S0, w00), h1_ = PT_HI(m1, S1, w10),     \
                      h2_ = PT_HI(m2, S2, w20);                               \
        (void)v0_, (void)v1_, (void)v2_, (void)h0_, (void)h1_, (void)h2_;     \
        PT_CH(0, S0, S1, S2, D) PT_CH(1, S0, S1, S2, D)                       \
        PT_CH(2, S0, S1, S2, D) PT_CH(3, S0, S1, S2, D)                       \
        PT_CH(4, S0, S1, S2, D) PT_CH(5, S0, S1, S2, D)                       \
        PT_CH(6, S0, S1, S2, D) PT_CH(7, S0, S1, S2, D)                       \
    } while (0)
#define PT_REGS(K)                                                            \
    const __m512i r##K##0 = pt_ctl(t, K, 0, NC), r##K##1 = pt_ctl(t, K, 1, NC), \
                  r##K##2 = pt_ctl(t, K, 2, NC), r##K##3 = pt_ctl(t, K, 3, NC), \
                  r##K##4 = pt_ctl(t, K, 4, NC), r##K##5 = pt_ctl(t, K, 5, NC), \
                  r##K##6 = pt_ctl(t, K, 6, NC), r##K##7 = pt_ctl(t, K, 7, NC); \
    const int64_t w##K##0 = t->win[K][0], w##K##1 = t->win[K][1],             \
                  w##K##2 = t->win[K][2], w##K##3 = t->win[K][3],             \
                  w##K##4 = t->win[K][4], w##K##5 = t->win[K][5],             \
                  w##K##6 = t->win[K][6], w##K##7 = t->win[K][7]

/* then (a) where cond (c) has a nonzero byte, else (b). */
PT_ALWAYS __m512i pt_blend(__m512i c, __m512i a, __m512i b)
{
    const __mmask64 k = _mm512_test_epi8_mask(c, c);
    __asm__("" : "+v"(a), "+v"(b));
    return _mm512_mask_blend_epi8(k, b, a);
}

/* Chunk j's control of operand k when the block has it. */
PT_ALWAYS __m512i pt_ctl(const opt_ptile *t, int k, int j, const int NC)
{
    return j < NC ? _mm512_load_si512((const void *)t->ctl[j][k])
                  : _mm512_setzero_si512();
}

/* Operand k's base for a block at offset o: the tensor, or near its end
 * the tail copy. */
PT_ALWAYS const char *pt_base(const opt_ptile_job *jb, int k, int64_t o)
{
    return o > jb->lim[k] ? jb->tail[k] + (o - jb->rebase[k])
                          : jb->src[k] + o;
}

/* The end of the segment of a run of level 0 that starts at block s
 * (s < run): the blocks from s on until some operand that reads clear of
 * its end at s reaches it (offsets grow along level 0).  Each segment
 * reads every operand from one base (the tensor or its tail copy), so it
 * runs in the counted loop: the generic per-block loop that ran blocks
 * near an end cost about 6 times a loop block.  Out of line: called once
 * per segment after the first, and the file compiles faster. */
static __attribute__((noinline)) int64_t
pt_seg(const opt_ptile *t, const opt_ptile_job *jb, int64_t s, int64_t run)
{
    int64_t e = run;
    for (int k = 0; k < 3; k++) {
        const int64_t o = jb->off[k] + s * t->step[k][0], l = jb->lim[k];
        const int64_t st = t->step[k][0];
        if (o <= l && st > 0 && (l - o) / st < e - s - 1) /* l: INT64_MAX */
            e = (l - o) / st + 1 + s;
    }
    return e;
}

/* 1 when n0 x n1 x n2 blocks from the job's state (levels 0, 1, 2) all
 * read clear of each operand's end: the last has the largest offsets. */
PT_ALWAYS int pt_clear(const opt_ptile *t, const opt_ptile_job *jb,
                       int64_t n0, int64_t n1, int64_t n2)
{
    for (int k = 0; k < 3; k++)
        if (jb->off[k] + (n0 - 1) * t->step[k][0] +
                (n1 - 1) * t->step[k][1] + (n2 - 1) * t->step[k][2] >
            jb->lim[k])
            return 0;
    return 1;
}

/* How many blocks of levels 1 and 2 the next run may take (*n1, *n2; 1
 * each when not), the run being level 0 from index 0 on, and how many
 * blocks of the run read clear of the operands' ends (offsets grow along
 * each level: the first ones).  Level 1 from any index, as far as its
 * runs read clear (an operand repeated along an outer axis reaches its
 * end once per pass: the passes before run counted, not a block at a
 * time). */
PT_ALWAYS int64_t pt_span(const opt_ptile *t, const opt_ptile_job *jb,
                          size_t left, int64_t run, int64_t *n1, int64_t *n2)
{
    const int64_t *dm = t->dims, *ix = jb->idx;
    int64_t c = run;
    *n1 = *n2 = 1;
    if (t->nax > 1 && !ix[0] && run == dm[0]) {
        const int64_t cap = (int64_t)(left / (size_t)dm[0]);
        *n1 = dm[1] - ix[1] < cap ? dm[1] - ix[1] : cap;
        if (t->nax > 2 && !ix[1] && !ix[2] && *n1 == dm[1] &&
            left >= (size_t)(dm[0] * dm[1] * dm[2]))
            *n2 = dm[2];
    }
    if (jb->lim[0] == INT64_MAX && jb->lim[1] == INT64_MAX &&
        jb->lim[2] == INT64_MAX)
        return c; /* all copied whole: no end to check, no divides (about
                     a third of 2x13x4x1:...:4x2x2x1x4x6 i8's 370 ns) */
    if (*n2 > 1 && !pt_clear(t, jb, run, *n1, *n2))
        *n2 = 1;
    for (int k = 0; k < 3 && *n1 > 1; k++) { /* level 1's clear passes */
        const int64_t last = jb->off[k] + (run - 1) * t->step[k][0];
        const int64_t s1 = t->step[k][1];
        if (jb->lim[k] == INT64_MAX)
            continue;
        if (last > jb->lim[k])
            *n1 = 1;
        else if (s1 > 0 && (jb->lim[k] - last) / s1 < *n1 - 1)
            *n1 = (jb->lim[k] - last) / s1 + 1;
    }
    for (int k = 0; k < 3; k++) {
        const int64_t o = jb->off[k], l = jb->lim[k], st = t->step[k][0];
        const int64_t q = o > l ? -1 : st ? (l - o) / st : run; /* no */
        if (l != INT64_MAX)
            c = q < c ? q + 1 : c;
    }
    return c;
}

/* The odometer's levels 0-2 as counted loops of blocks with plain pointers
 * where every block is clear of the operands' ends, and level 0 alone in
 * segments from the tail copies near an end (a check per block and
 * the state kept in memory cost about twice the chunks; rank8_f32 ran at
 * 0.54 in runs of 8 blocks of 2 chunks, 0.76 in runs of 16 of 4). */
PT_ALWAYS void pt_loop(const opt_ptile *t, opt_ptile_job *jb, const int m0,
                       const int m1, const int m2, const int NC,
                       const int PART)
{
    const int nt = PART == 1 && jb->nt; /* PART 0, 2: no streams */
    const size_t bb = t->bbytes;
    const int64_t *s0 = t->step[0], *s1 = t->step[1], *s2 = t->step[2];
    const int64_t t00 = s0[0], t10 = s1[0], t20 = s2[0];
    const int64_t t01 = s0[1], t11 = s1[1], t21 = s2[1];
    size_t left = jb->n;
    char *d = jb->d;
    const uint64_t tail = jb->wide ? ~0ull : t->tail; /* see wide */
    const int nc = NC > 4 ? t->nch : NC; /* blocks of 5-8 chunks: one loop */
    PT_REGS(0);
    PT_REGS(1);
    PT_REGS(2);
    while (left) {
        int64_t run = t->dims[0] - jb->idx[0], n1, n2, c;
        run = (size_t)run < left ? run : (int64_t)left;
        /* A run to the end of level 0 ends in its pass's last block,
         * which may spill: the next block starts back over it. */
        const size_t back = jb->idx[0] + run == t->dims[0] ? t->spill : 0;
        c = pt_span(t, jb, left, run, &n1, &n2);
        for (int64_t s = 0, e = c ? c : pt_seg(t, jb, 0, run); s < run;
             s = e, e = e < run ? pt_seg(t, jb, e, run) : run) {
            const char *const b0 = pt_base(jb, 0, jb->off[0] + s * s0[0]),
                              *const b1 = pt_base(jb, 1, jb->off[1] + s * s1[0]),
                              *const b2 = pt_base(jb, 2, jb->off[2] + s * s2[0]);
            const size_t bin = e == run ? back : 0;
            /* Levels 1 and 2 by pointer steps, not products (an imul and
             * a load per operand and run cost rank8_f32, runs of 4
             * blocks, about a tenth on Zen 5). */
            const char *q0 = b0, *q1 = b1, *q2 = b2; /* n1, n2 >= 1 */
            for (int64_t i2 = 0;;) {
                const char *r0 = q0, *r1 = q1, *r2 = q2;
                for (int64_t i1 = 0;;) {
                    const char *p0 = r0, *p1 = r1, *p2 = r2;
                    for (int64_t r = s;;) {
                        PT_BLOCK(p0, p1, p2, d);
                        d += bb;
                        if (++r == e) /* no pointer past the segment */
                            break;
                        p0 += t00, p1 += t10, p2 += t20;
                    }
                    d -= bin;
                    if (++i1 >= n1)
                        break;
                    r0 += t01, r1 += t11, r2 += t21;
                }
                if (++i2 >= n2)
                    break;
                q0 += s0[2], q1 += s1[2], q2 += s2[2];
            }
        }
        /* The state at the last block, then one step of the odometer. */
        for (int k = 0; k < 3; k++)
            jb->off[k] += (n1 - 1) * t->step[k][1] + (n2 - 1) * t->step[k][2] +
                          run * t->step[k][0];
        jb->idx[1] += n1 - 1, jb->idx[2] += n2 - 1;
        left -= (size_t)(run * n1 * n2), jb->idx[0] += run;
        if (jb->idx[0] == t->dims[0] && t->nax > 1) { /* carry */
            int l = 1;
            jb->idx[0] = 0;
            while (++jb->idx[l] == t->dims[l] && l + 1 < t->nax)
                jb->idx[l++] = 0;
            for (int k = 0; k < 3; k++)
                jb->off[k] += t->delta[k][l] - t->step[k][0];
        }
    }
    jb->d = d;
}

#define PT_C(NC, m0, m1, m2)                                                 \
    case m0 * 16 + m1 * 4 + m2: pt_loop(t, j, m0, m1, m2, NC, 1); break;
/* The mode sets of the bench's short rows (cond in one window per block;
 * then and else dense or in one window) have copies for calls without
 * streams whose blocks end in a whole chunk: no partial-chunk or stream
 * test per block (PART 0), and with cond's bytes of a block within 16 a
 * 16-byte broadcast window for it (PART 2), which crosses a line only
 * when those 16 bytes do (a 64-byte one stepping 4-16 bytes a block
 * crossed in most blocks, two load slots each on Zen 5).  In turn with
 * the base, bench medians: rank8_f32 2.85 -> 2.76 us, rank6_f16 7.46 ->
 * 6.75 (engineer P, tenth round).  A copy for every mode set would double
 * the file's compile time (these 39 cost about a quarter more). */
#define PT_CW(NC, m0, m1, m2)                                                \
    case m0 * 16 + m1 * 4 + m2:                                              \
        if (j->nt || (!j->wide && t->tail != ~0ull))                         \
            pt_loop(t, j, m0, m1, m2, NC, 1);                                \
        else if (m0 == 2 && t->narrow)                                       \
            pt_loop(t, j, m0, m1, m2, NC, 2);                                \
        else                                                                 \
            pt_loop(t, j, m0, m1, m2, NC, 0);                                \
        break;
#define PT_M2(NC, m0, m1)                                                    \
    PT_C(NC, m0, m1, 0) PT_C(NC, m0, m1, 1) PT_C(NC, m0, m1, 2)
#define PT_M1(NC, m0) PT_M2(NC, m0, 0) PT_M2(NC, m0, 1) PT_M2(NC, m0, 2)
/* Mode sets 0 0 2, 0 2 0, 0 2 2 and cond in mode 2 beside 0 or 2. */
#define PT_W0(NC)                                                            \
    PT_C(NC, 0, 0, 0) PT_C(NC, 0, 0, 1) PT_CW(NC, 0, 0, 2)                   \
    PT_C(NC, 0, 1, 0) PT_C(NC, 0, 1, 1) PT_C(NC, 0, 1, 2)                    \
    PT_CW(NC, 0, 2, 0) PT_C(NC, 0, 2, 1) PT_CW(NC, 0, 2, 2)
#define PT_W2(NC)                                                            \
    PT_CW(NC, 2, 0, 0) PT_C(NC, 2, 0, 1) PT_CW(NC, 2, 0, 2)                  \
    PT_C(NC, 2, 1, 0) PT_C(NC, 2, 1, 1) PT_C(NC, 2, 1, 2)                    \
    PT_CW(NC, 2, 2, 0) PT_C(NC, 2, 2, 1) PT_CW(NC, 2, 2, 2)
/* Mode 3 (then or else, blocks of 3-4 chunks) beside cond in mode 2 and
 * the other input in mode 0, 2 or 3 (opt_ptile.c's build()): 10 copies
 * more, the file's compile time about a tenth more. */
#define PT_WIDE(NC)                                                          \
    PT_C(NC, 2, 3, 0) PT_C(NC, 2, 3, 2) PT_C(NC, 2, 3, 3)                    \
    PT_C(NC, 2, 0, 3) PT_C(NC, 2, 2, 3)
#define PT_MODES(NC, WIDE)                                                   \
    switch (t->mode[0] * 16 + t->mode[1] * 4 + t->mode[2]) {                 \
        PT_M1(NC, 0) PT_M1(NC, 1) PT_M1(NC, 2) WIDE                          \
    }
#define PT_MODESW(NC, WIDE)                                                  \
    switch (t->mode[0] * 16 + t->mode[1] * 4 + t->mode[2]) {                 \
        PT_W0(NC) PT_M1(NC, 1) PT_W2(NC) WIDE                                \
    }

/* Blocks of 5-8 chunks (a pass of the top axis of 257-512 bytes in one
 * block: fewer partial chunks and blocks per byte), in the mode sets of
 * OPT_PTILE_BIG (opt_ptile.h): 9 copies, the chunk count a variable (nc)
 * tested per chunk, not a copy per size (24 made the compile 48% slower). */
#define PT_BIG(NC)                                                           \
    switch (t->mode[0] * 16 + t->mode[1] * 4 + t->mode[2]) {                 \
        PT_C(NC, 0, 0, 2) PT_C(NC, 0, 2, 0) PT_CW(NC, 2, 0, 0)               \
        PT_CW(NC, 2, 0, 2) PT_CW(NC, 2, 2, 0) PT_C(NC, 2, 2, 2)              \
        PT_C(NC, 1, 0, 2) PT_C(NC, 1, 2, 0) PT_C(NC, 2, 3, 0)                \
    }

static void pt_big(const opt_ptile *t, opt_ptile_job *j);

VBMI void opt_ptile_blocks__avx512(const opt_ptile *t, opt_ptile_job *j)
{
    switch (t->nch) {
    case 1: PT_MODES(1, ) break;
    case 2: PT_MODESW(2, ) break;
    case 3: PT_MODESW(3, PT_WIDE(3)) break;
    case 4: PT_MODESW(4, PT_WIDE(4)) break;
    default: pt_big(t, j); break;
    }
}

/* Out of line, after the loops of 1-4 chunks: inlined, it moved their
 * code in their lines (113x1x1x2:... f16 0.49 -> 0.46-0.47). */
static __attribute__((noinline)) VBMI void pt_big(const opt_ptile *t,
                                                  opt_ptile_job *j)
{
    PT_BIG(8)
}
