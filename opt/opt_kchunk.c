/* opt_kchunk.c - kernel test of the 64-byte chunk programs (opt_chunk.c,
 * opt_chunk__avx512): random broadcast plans of rank 1-4 at every width,
 * each operand placed in the middle of a buffer or ending just before a
 * page that cannot be read (a load past its end faults), dst misaligned
 * between guard bytes, against a plain loop over the elements; every
 * width must reach windows of 17-32 bytes in mode 3 (32-byte loads) and
 * operands of 65-128 bytes held in registers (mode 4), and programs
 * whose operands repeat with a period (x->per: computed once a period).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt_ktests.h"

#define AREA (OPT_CHUNK_BYTES + 4096) /* readable before each guard page */
#define POISON 0xa5

static uint64_t seed = 0x2545f4914f6cdd1du;
static int wide; /* programs with a 17-32 byte window in mode 3 */
static int held; /* operands of 65-128 bytes in mode 4 */
static int per;  /* programs with a period (chunk_per) */

static uint64_t draw(uint64_t n) { return opt_kdraw(&seed, n); }

/* [N, r]: each operand [N, r] or [1, r] (not all three dense), output
 * of 65 chunks or more. */
static int64_t periodic(opt_plan *p, size_t w)
{
    const int64_t r = 1 + (int64_t)draw(8);
    const unsigned bc = 1 + (unsigned)draw(7); /* bit k: k broadcast */
    p->rank = 2, p->dims[1] = r;
    p->dims[0] = 4200 / ((int64_t)w * r) + (int64_t)draw(200);
    while (p->dims[0] * r * (int64_t)w > OPT_CHUNK_BYTES)
        p->dims[0] /= 2;
    for (int k = 0; k < 3; k++) {
        p->st[k][1] = 1, p->st[k][0] = bc >> k & 1 ? 0 : r;
        p->in_bytes[k] =
            (size_t)(bc >> k & 1 ? r : r * p->dims[0]) * (k ? w : 1);
    }
    return p->dims[0] * r;
}

/* A plan: dims, and per operand a shape with some axes 1 (stride 0). */
static int64_t make_plan(opt_plan *p, size_t w)
{
    int64_t n = 1, st[3] = {1, 1, 1};
    memset(p, 0, sizeof *p);
    if (draw(8) == 0) /* rows of 1-8 elements, some operands broadcast
        over 65 chunks or more: a period of at most 8 chunks */
        return periodic(p, w);
    p->rank = 1 + (int32_t)draw(4);
    for (int32_t i = 0; i < p->rank; i++)
        p->dims[i] = 1 + (int64_t)draw(i + 1 == p->rank ? 40 : 6);
    for (int32_t i = p->rank - 1; i >= 0; i--) {
        for (int k = 0; k < 3; k++) {
            const int bc = p->dims[i] > 1 && draw(3) == 0;
            p->st[k][i] = bc ? 0 : st[k];
            st[k] *= bc ? 1 : p->dims[i];
        }
        n *= p->dims[i];
    }
    for (int k = 0; k < 3; k++)
        p->in_bytes[k] = (size_t)st[k] * (k ? w : 1);
    return n;
}

/* One plan at width w: 0 when it passes (or is declined). */
static int check(opt_chunk *x, const opt_kguard *g, size_t w, int placing)
{
    static char out[OPT_CHUNK_BYTES + 256], want[OPT_CHUNK_BYTES + 256];
    opt_plan p;
    const int64_t n = make_plan(&p, w);
    const size_t off = (size_t)draw(64) + 64, nb = (size_t)n * w;
    char *src[3];
    if (!opt_chunk_build(x, &p, w))
        return 0;
    for (int k = 0; k < 3; k++)
        for (int32_t c = 0; x->mode[k] == 3 && c < x->chunks; c++)
            wide += x->rec[c].n0[k] > 16;
    for (int k = 0; k < 3; k++)
        held += x->mode[k] == 4 && x->inb[k] > 64;
    per += x->per > 0;
    opt_kguard_fill(g, &p, &seed, placing, src);
    memset(out, POISON, sizeof out);
    memset(want, POISON, sizeof want);
    opt_kguard_want(&p, w, src, want + off);
#if defined(__x86_64__)
    opt_chunk__avx512(x, src[0], src[1], src[2], out + off);
#endif
    if (!memcmp(out, want, sizeof out))
        return 0;
    fprintf(stderr, "chunk x%zu: rank %d, %lld elements, nb %zu: differs\n",
            w * 8, (int)p.rank, (long long)n, nb);
    return 1;
}

/* The whole call (opt_small_run) on an output past OPT_SMALL_MAX
 * elements that opt_block would run (cond [1,3,8,1] and else [8,1]
 * against then [2,8,3,8,44] u8: ptile declines it): from the second call
 * the chunk program runs it where a 64-byte load is one line (chunk_big;
 * must: 1, reached), on new data each call, against a plain loop. */
static int big_path(int must)
{
    static const int64_t dc[4] = {1, 3, 8, 1}, dt[5] = {2, 8, 3, 8, 44},
                         de[2] = {8, 1};
    enum { N = 2 * 8 * 3 * 8 * 44 };
    static uint8_t c[24], t[N], e[8], d[N + 64];
    const sel_broadcast b = {SEL_BROADCAST_NUMPY, -1, 0};
    sel_tensor ts[4] = {{SEL_DT_BOOLEAN, 4, dc, c}, {SEL_DT_U8, 5, dt, t},
                        {SEL_DT_U8, 2, de, e}, {SEL_DT_U8, 5, dt, d}};
    for (int call = 0; call < 4; call++) {
        for (size_t j = 0; j < sizeof c; j++)
            c[j] = (uint8_t)(draw(3) ? draw(256) : 0);
        for (size_t j = 0; j < sizeof t; j++)
            t[j] = (uint8_t)draw(256);
        for (size_t j = 0; j < sizeof e; j++)
            e[j] = (uint8_t)draw(256);
        memset(d, POISON, sizeof d);
        if (opt_impl()->execute(&ts[0], &ts[1], &ts[2], b, &ts[3]))
            return fprintf(stderr, "chunk big: not SEL_OK\n"), 1;
        for (size_t j = 0; j < sizeof d; j++) {
            const size_t in = j / 44 % 24; /* cond's c, d; else's d */
            if (d[j] != (j >= N ? POISON : c[in] ? t[j] : e[in % 8]))
                return fprintf(stderr, "chunk big: call %d byte %zu\n",
                               call, j), 1;
        }
        if (call && must && !opt_small_chunked())
            return fprintf(stderr, "chunk big: no chunk program\n"), 1;
    }
    return 0;
}

int opt_kchunk_tests(int tests, int *failed)
{
    static opt_chunk x;
    opt_kguard g = {0};
    int bad;
#if defined(__x86_64__)
    int ok = opt_isa_supported(OPT_ISA_avx512) && opt_cpu_vbmi();
#else
    int ok = 0;
#endif
    ok = ok && opt_kguard_open(&g, AREA);
    for (size_t w = 1; w <= 8; w *= 2) {
        int bad = 0;
        tests++;
        if (!ok) {
            printf("ok %d - chunk_x%zu__avx512 # SKIP needs AVX-512 VBMI\n",
                   tests, w * 8);
            continue;
        }
        wide = held = per = 0;
        for (int i = 0; i < 3000 && !bad; i++)
            bad |= check(&x, &g, w, i % 4 == 0);
        if (!wide) /* the 32-byte broadcast loads were not reached */
            bad = 1, fprintf(stderr, "chunk x%zu: no wide mode 3\n", w * 8);
        if (!held) /* the operands held in registers were not reached */
            bad = 1, fprintf(stderr, "chunk x%zu: no mode 4\n", w * 8);
        if (!per) /* no program computed its operands once a period */
            bad = 1, fprintf(stderr, "chunk x%zu: no period\n", w * 8);
        *failed += bad;
        printf("%s %d - chunk_x%zu__avx512\n", bad ? "not ok" : "ok", tests,
               w * 8);
    }
    opt_kguard_close(&g);
#if defined(__x86_64__)
    ok = opt_isa_active() >= OPT_ISA_avx512 && opt_cpu_vbmi() &&
         !opt_cpu_split512();
#endif
    bad = big_path(ok);
    *failed += bad;
    printf("%s %d - chunk program past OPT_SMALL_MAX elements%s\n",
           bad ? "not ok" : "ok", ++tests, ok ? "" : " (not required)");
    return tests;
}
