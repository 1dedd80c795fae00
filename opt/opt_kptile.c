/* opt_kptile.c - kernel test of the ptile blocks' operands read in place
 * (opt_ptile_range, AVX-512 VBMI): random short-row plans at every width,
 * each operand ending just before a page that cannot be read (the copy
 * must be taken: a read past it faults) or inside its area (operands of
 * 1-4 KiB then read in place), against a plain loop over the elements.
 * Both cases must be reached at every width.
 */
#include <stdio.h>
#include <string.h>

#include "opt_ktests.h"
#include "opt_past.h"
#include "opt_ptile.h"

#define NMAX 16384                 /* output elements at most */
#define AREA (NMAX * 8 + 4096)     /* readable before each guard page */
#define POISON 0x5a

static uint64_t seed = 0x9e3779b97f4a7c15u;

static uint64_t draw(uint64_t n) { return opt_kdraw(&seed, n); }

#if defined(__x86_64__)
#define PT_ISA OPT_ISA_avx512
#else
#define PT_ISA 0 /* no ptile: opt_ptile_get declines, the tests skip */
#endif

/* A numpy call of rank 3-6 with short inner rows, planned; 0 when it is
 * not valid or too large. */
static int make(opt_plan *p, size_t w)
{
    static const int32_t dt[4] = {SEL_DT_U8, SEL_DT_U16, SEL_DT_U32,
                                  SEL_DT_U64};
    const sel_broadcast b = {SEL_BROADCAST_NUMPY, -1, SEL_COND_BIDIRECTIONAL};
    const int32_t rank = 3 + (int32_t)draw(4);
    int64_t d[3][8];
    sel_tensor ts[3];
    opt_geom g;
    for (int32_t a = 0; a < rank; a++) {
        const int64_t n = 1 + (int64_t)draw(a + 1 == rank ? 5 : 12);
        for (int k = 0; k < 3; k++)
            d[k][a] = draw(3) ? n : 1;
        d[1 + (int)draw(2)][a] = n; /* then or else spans the axis */
    }
    for (int k = 0; k < 3; k++)
        ts[k].dtype = k ? dt[opt_width_index(w)] : SEL_DT_BOOLEAN,
        ts[k].rank = rank, ts[k].dims = d[k], ts[k].data = NULL;
    if (opt_check(&ts[0], &ts[1], &ts[2], b, NULL, &g) != SEL_OK ||
        g.count > NMAX || g.count == 0)
        return 0;
    opt_plan_make(&g, w, p);
    return 1;
}

/* One plan at width w: 0 when it matches (or ptile declines it); *mid
 * and *end count operands read in place and operands at a page's end. */
static int check(const opt_kguard *g, size_t w, int at_end, int *mid,
                 int *end)
{
    static char out[NMAX * 8 + 256], want[NMAX * 8 + 256];
    opt_plan p;
    const opt_ptile *t;
    char *src[3];
    int64_t n = 1;
    const size_t off = (size_t)draw(64) + 64;
    if (!make(&p, w) || !(t = opt_ptile_get(&p, w, PT_ISA, 0)))
        return 0;
    for (int32_t i = 0; i < p.rank; i++)
        n *= p.dims[i];
    opt_kguard_fill(g, &p, &seed, at_end, src);
    for (int k = 0; k < 3; k++) {
        const size_t nb = p.in_bytes[k];
        const int in = nb >= 1024 && nb <= 4096 &&
                       opt_past_ok(src[k], nb, t->reach[k] + 64);
        *mid += in;
        *end += nb >= 1024 && nb <= 4096 &&
                src[k] + nb == g->page[k] + g->area;
    }
    memset(out, POISON, sizeof out);
    memset(want, POISON, sizeof want);
    opt_kguard_want(&p, w, src, want + off);
    {
        const void *const data[3] = {src[0], src[1], src[2]};
        opt_ptile_range(t, &p, data, out + off, w, 0, 0, n);
    }
    if (!memcmp(out, want, sizeof out))
        return 0;
    fprintf(stderr, "ptile in place x%zu: rank %d, %lld elements: differs\n",
            w * 8, (int)p.rank, (long long)n);
    return 1;
}

int opt_kptile_tests(int tests, int *failed)
{
    opt_kguard g = {0};
#if defined(__x86_64__) && !defined(OPT_SANITIZED)
    int ok = opt_isa_supported(PT_ISA) && opt_cpu_vbmi();
#else
    int ok = 0;
#endif
    ok = ok && opt_kguard_open(&g, AREA);
    for (size_t w = 1; w <= 8; w *= 2) {
        int bad = 0, mid = 0, end = 0;
        tests++;
        if (!ok) {
            printf("ok %d - ptile_in_place_x%zu__avx512 # SKIP needs AVX-512 "
                   "VBMI, no sanitizer\n", tests, w * 8);
            continue;
        }
        for (int i = 0; i < 3000 && !bad; i++)
            bad |= check(&g, w, i % 2, &mid, &end);
        if (!mid || !end) /* both placements must be reached */
            bad = 1, fprintf(stderr, "ptile in place x%zu: %d in place, %d "
                             "at a page end\n", w * 8, mid, end);
        *failed += bad;
        printf("%s %d - ptile_in_place_x%zu__avx512\n", bad ? "not ok" : "ok",
               tests, w * 8);
    }
    opt_kguard_close(&g);
    return tests;
}
