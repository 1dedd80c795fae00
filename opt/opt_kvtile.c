/* opt_kvtile.c - kernel test of the 32-byte tiles (opt_vtile.c,
 * opt_vtile__avx2; opt_vtile__avx512's tile pairs): random broadcast
 * plans of rank 1-8 (dims mostly powers of 2, the tiles' usual calls),
 * each operand placed in the middle of a buffer or ending just before a
 * page that cannot be read (a window past its end faults unless
 * opt_vtile_run pads it), against a plain loop.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt_ktests.h"

#define AREA (OPT_VTILE_MAX + 4096) /* readable before each guard page */
#define POISON 0xa5

static uint64_t seed = 0x9e3779b97f4a7c15u;

static uint64_t draw(uint64_t n) { return opt_kdraw(&seed, n); }

/* A plan: dims, and per operand a shape with some axes 1 (stride 0). */
static int64_t make_plan(opt_plan *p, size_t w)
{
    static const int64_t dim[8] = {2, 2, 2, 4, 8, 1, 3, 16};
    int64_t n = 1, st[3] = {1, 1, 1};
    memset(p, 0, sizeof *p);
    p->rank = 1 + (int32_t)draw(8);
    for (int32_t i = p->rank - 1; i >= 0; i--) {
        p->dims[i] = dim[draw(8)];
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

/* One plan at width w: 0 when it passes (or is declined); built[0]
 * counts the plans that ran in tiles, built[1] those with a group window
 * (mode 3), built[2] those the AVX-512 loop ran (wide). */
static int check(opt_vtile *x, const opt_kguard *g, size_t w, int placing,
                 int *built, int wide)
{
    static char out[OPT_VTILE_MAX + 256], want[OPT_VTILE_MAX + 256];
    opt_plan p;
    const int64_t n = make_plan(&p, w);
    const size_t off = (size_t)draw(64) + 64;
    char *src[3];
    if (n * (int64_t)w > OPT_VTILE_MAX || !opt_vtile_build(x, &p, w))
        return 0;
#if defined(__x86_64__)
    x->wide = wide && opt_vtile_wide(x); /* whatever build chose */
#else
    x->wide = 0, (void)wide; /* the pairs are x86-64's */
#endif
    ++built[0];
    built[1] += x->mode[0] == 3 || x->mode[1] == 3 || x->mode[2] == 3;
    built[2] += x->wide;
    opt_kguard_fill(g, &p, &seed, placing, src);
    memset(out, POISON, sizeof out);
    memset(want, POISON, sizeof want);
    opt_kguard_want(&p, w, src, want + off);
    opt_vtile_run(x, src[0], src[1], src[2], out + off, &p);
    if (!memcmp(out, want, sizeof out))
        return 0;
    fprintf(stderr, "vtile x%zu: rank %d, %lld elements: differs\n", w * 8,
            (int)p.rank, (long long)n);
    return 1;
}

/* The loop at one width: 1 when it failed. */
static int run_width(opt_vtile *x, const opt_kguard *g, size_t w, int wide,
                     int tests)
{
    int bad = 0, built[3] = {0, 0, 0};
    for (int i = 0; i < 20000 && !bad; i++)
        bad |= check(x, g, w, i % 4 == 0, built, wide);
    /* the plans must reach the tiles, their group windows and (wide)
     * the AVX-512 loop */
    bad |= built[0] < 500 || built[1] < 100 || (wide && built[2] < 100);
    printf("%s %d - vtile_x%zu__%s (%d plans in tiles, %d with a "
           "group window, %d in zmm pairs)\n",
           bad ? "not ok" : "ok", tests, w * 8, wide ? "avx512" : "avx2",
           built[0], built[1], built[2]);
    return bad;
}

int opt_kvtile_tests(int tests, int *failed)
{
    static opt_vtile x;
    opt_kguard g = {0};
    int ok[2] = {0, 0};
#if defined(__x86_64__)
    ok[0] = opt_isa_supported(OPT_ISA_avx2);
    ok[1] = opt_isa_supported(OPT_ISA_avx512);
#endif
    if ((ok[0] || ok[1]) && !opt_kguard_open(&g, AREA))
        ok[0] = ok[1] = 0;
    for (int wide = 0; wide < 2; wide++)
        for (size_t w = 1; w <= 8; w *= 2) {
            tests++;
            if (!ok[wide])
                printf("ok %d - vtile_x%zu__%s # SKIP needs %s\n", tests,
                       w * 8, wide ? "avx512" : "avx2",
                       wide ? "AVX-512" : "AVX2");
            else
                *failed += run_width(&x, &g, w, wide, tests);
        }
    opt_kguard_close(&g);
    return tests;
}
