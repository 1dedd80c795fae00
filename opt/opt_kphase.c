/* opt_kphase.c - kernel test of the flat walk over periodic operands
 * (opt_phase.c): random plans of rank 2-4 whose operands are dense,
 * periodic from some axis (a broadcast pattern below it) or scalars, at
 * every width and ISA level, by the wrap loop (AVX-512) and in runs (half
 * the plans each), on 1 and 3 threads, each operand placed in
 * the middle of a buffer or ending just before a page that cannot be read
 * (a run past a period read in place faults), against a plain loop.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt_ktests.h"
#include "opt_phase.h"
#include "opt_wrap.h"

#define OUT (96 * 1024)  /* largest output in bytes */
#define AREA (OUT + 4096) /* readable before each guard page */
#define POISON 0xa5

static uint64_t seed = 0x3c6ef372fe94f82bu;

static uint64_t draw(uint64_t n) { return opt_kdraw(&seed, n); }

/* Operand k: dense (kind 0), periodic from axis `from` with some axes
 * below broadcast (1), or one element (2). */
static void operand(opt_plan *p, int k, size_t w)
{
    const int kind = (int)draw(k ? 3 : 2);
    const int32_t from = 1 + (int32_t)draw((uint64_t)p->rank - 1);
    int64_t st = 1;
    for (int32_t i = p->rank - 1; i >= 0; i--) {
        const int bc = kind == 2 || (kind == 1 && (i < from ||
                                     (p->dims[i] > 1 && draw(3) == 0)));
        p->st[k][i] = bc ? 0 : st;
        st *= bc ? 1 : p->dims[i];
    }
    p->in_bytes[k] = (size_t)st * (k ? w : 1);
}

static int64_t make_plan(opt_plan *p, size_t w)
{
    static const int64_t big[4] = {2, 7, 300, 2100};
    int64_t n = 1;
    memset(p, 0, sizeof *p);
    p->rank = 2 + (int32_t)draw(3);
    for (int32_t i = 0; i < p->rank; i++) {
        p->dims[i] = draw(3) ? 1 + (int64_t)draw(12) : big[draw(4)];
        n *= p->dims[i];
    }
    if ((size_t)n * w > OUT)
        return 0;
    p->btop = 0; /* the blocks' plans: no rows-only refusal */
    for (int k = 0; k < 3; k++)
        operand(p, k, w);
    return n;
}

/* One plan: 0 when it passes (or is declined); *ran counts the plans. */
static int check(const opt_kguard *g, int isa, size_t w, int threads,
                 int placing, int *ran)
{
    static char out[OUT + 256], want[OUT + 256];
    opt_plan p;
    const int64_t n = make_plan(&p, w);
    const size_t off = (size_t)draw(64) + 64;
    char *src[3];
    if (!n)
        return 0;
    opt_kguard_fill(g, &p, &seed, placing, src);
    memset(out, POISON, sizeof out);
    memset(want, POISON, sizeof want);
    opt_kguard_want(&p, w, src, want + off);
    if (!opt_phase_run(&p, (const void *const *)src, out + off, w, isa, 0,
                       threads, 64)) /* the shortest chunk: most ranges */
        return 0;
    ++*ran;
    if (!memcmp(out, want, sizeof out))
        return 0;
    fprintf(stderr, "phase %s x%zu t%d: rank %d, %lld elements: differs\n",
            opt_isa_name(isa), w * 8, threads, (int)p.rank, (long long)n);
    return 1;
}

/* opt_phase_small's refusal: the memo's plan has one address for every
 * shape, so a refused plan, then another at the same address (no call
 * with same 0 in between), must be tried, and walk right. */
static int refused_test(void)
{
    static char c[36], t[40 * 36 * 4], e[36 * 4], d[40 * 36 * 4],
        want[40 * 36 * 4];
    char *const src[3] = {c, t, e};
    opt_plan p;
    opt_tuning tu;
    opt_hit_act a;
    int r0, r1, r2;
    for (size_t i = 0; i < sizeof t; i++)
        t[i] = (char)draw(256), c[i % 36] = (char)draw(2),
        e[i % 144] = (char)draw(256);
    memset(&p, 0, sizeof p);
    p.rank = 2, p.dims[0] = 40, p.dims[1] = 36, p.gen = 1;
    p.st[1][0] = 1; /* then [40,1]: not periodic */
    p.in_bytes[0] = 36, p.in_bytes[1] = 40 * 4, p.in_bytes[2] = 36 * 4;
    opt_tuning_get(&tu);
#define SMALL() opt_phase_small(&p, (const void *const *)src, d, 4, 1, &tu, &a)
    r0 = SMALL(), r1 = SMALL(); /* refused, then refused as such */
    p.st[0][1] = p.st[2][1] = 1, p.st[1][0] = 36, p.st[1][1] = 1;
    p.in_bytes[1] = sizeof t; /* then dense, cond and else [36] */
    p.gen = 2; /* as opt_fast.c numbers a new plan */
    r2 = SMALL(); /* another plan at the same address: walked */
#undef SMALL
    opt_kguard_want(&p, 4, src, want);
    return r0 || r1 || r2 != 2 || memcmp(d, want, sizeof d);
}

int opt_kphase_tests(int tests, int *failed)
{
    opt_kguard g = {0};
    const int ok = opt_kguard_open(&g, AREA);
    opt_phase_force(1);
    for (int isa = 0; isa < OPT_ISA_COUNT; isa++) {
        int bad = 0, ran = 0;
        tests++;
        if (!ok || !opt_isa_supported(isa)) {
            printf("ok %d - phase_%s # SKIP %s\n", tests, opt_isa_name(isa),
                   ok ? "the CPU lacks it" : "no guard pages");
            continue;
        }
        for (int i = 0; i < 3000 && !bad; i++) {
            opt_phase_force(i % 8 < 4 ? 1 : 2); /* wrap loop or runs */
            for (size_t w = 1; w <= 8 && !bad; w *= 2)
                bad |= check(&g, isa, w, i % 2 ? 3 : 1, i % 4 == 0, &ran);
        }
        bad |= ran < 3000; /* the plans must reach the walk */
        *failed += bad;
        printf("%s %d - phase_%s (%d plans walked, widths 1-8, 1 and 3 "
               "threads, %s)\n", bad ? "not ok" : "ok", tests, opt_isa_name(isa),
               ran, opt_wrap_kernel(isa, 0) ? "wrap loop and runs" : "runs");
    }
    opt_phase_force(1); /* the walk whatever the cost model says */
    {
        const int bad = refused_test();
        *failed += bad;
        printf("%s %d - phase_refused (a refusal kept for its plan, not for "
               "its address)\n", bad ? "not ok" : "ok", ++tests);
    }
    opt_phase_force(0);
    opt_kguard_close(&g);
    return tests;
}
