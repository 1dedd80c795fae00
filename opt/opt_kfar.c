/* opt_kfar.c - kernel test of the row copies that request rows far ahead
 * (opt_exec.c, FAR_ROW: cond constant per row, rows of at most 2 KiB,
 * footprint past AHEAD_MIN, streams).  cond [R,1], then and else [R,K]
 * each end just before a page that cannot be read (any read past an
 * operand faults); the output is compared with a plain loop.  Rows of 1579
 * bytes (edge_row's buffered line ends) and of 2048 (whole lines), with
 * streams on one thread and in chunks on two threads that end inside
 * rows (the four reach the far requests: a print), and with regular
 * stores (the next-row requests, for comparison).  A walk that took the
 * far row's cond for the row's fails the four.
 *
 * Also select rows streamed by the half-LLC rule (opt_exec.c, streams():
 * Zen 5, footprint past nt_min / 2, inputs of half dst's bytes or more):
 * dst [A,B,K], then dense, else [A,B,1] (no pair axis: pairs keep plain
 * stores), cond [A,B,K], rows of 1516 bytes (edge_row's line ends),
 * nt_min set just past the footprint, one thread and two threads in
 * chunks inside rows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt_ktests.h"

typedef struct far_case {
    int64_t rows, k; /* R, K */
    int32_t dt;
    size_t w;
} far_case;

/* R*K*w per input: footprints of 14 and 9 MB, past AHEAD_MIN (8 MiB). */
static const far_case cases[2] = {{3000, 1579, SEL_DT_I8, 1},
                                  {1500, 512, SEL_DT_F32, 4}};

/* One call under tuning tu and th threads; 1 when the output is wrong. */
static int far_one(const far_case *fc, const opt_tuning *tu, int th,
                   uint64_t *seed, opt_kguard *g, char *want, char *got)
{
    const int64_t dc[2] = {fc->rows, 1}, dv[2] = {fc->rows, fc->k};
    const size_t row = (size_t)fc->k * fc->w, bytes = (size_t)fc->rows * row;
    const sel_broadcast b = {SEL_BROADCAST_NUMPY, -1, 0};
    uint8_t *c = (uint8_t *)g->page[0] + g->area - (size_t)fc->rows;
    char *t = g->page[1] + g->area - bytes, *e = g->page[2] + g->area - bytes;
    sel_tensor tc = {SEL_DT_BOOLEAN, 2, dc, c}, tt = {fc->dt, 2, dv, t},
               te = {fc->dt, 2, dv, e}, td = {fc->dt, 2, dv, got};
    int st;

    for (int64_t r = 0; r < fc->rows; r++) /* nonzero bytes other than 1 */
        c[r] = (uint8_t)(opt_kdraw(seed, 3) ? opt_kdraw(seed, 255) + 1 : 0);
    for (size_t i = 0; i < bytes; i++)
        t[i] = (char)opt_kdraw(seed, 256), e[i] = (char)opt_kdraw(seed, 256);
    for (int64_t r = 0; r < fc->rows; r++)
        memcpy(want + (size_t)r * row, (c[r] ? t : e) + (size_t)r * row, row);
    memset(got, 0x5a, bytes);
    opt_tuning_set(tu);
    opt_threads_force(th);
    st = opt_impl()->execute(&tc, &tt, &te, b, &td);
    opt_threads_force(1);
    opt_tuning_set(NULL);
    return st != SEL_OK || memcmp(want, got, bytes) != 0;
}

/* The half-LLC case: 1 when the output is wrong. */
static int half_one(const opt_tuning *tu, int th, uint64_t *seed,
                    opt_kguard *g, char *want, char *got)
{
    enum { A = 30, B = 23, K = 379 };
    const int64_t dv[3] = {A, B, K}, de[3] = {A, B, 1};
    const size_t n = (size_t)A * B * K, bytes = n * 4;
    const sel_broadcast b = {SEL_BROADCAST_NUMPY, -1, 0};
    uint8_t *c = (uint8_t *)g->page[0] + g->area - n;
    char *t = g->page[1] + g->area - bytes;
    char *e = g->page[2] + g->area - (size_t)A * B * 4;
    sel_tensor tc = {SEL_DT_BOOLEAN, 3, dv, c}, tt = {SEL_DT_F32, 3, dv, t},
               te = {SEL_DT_F32, 3, de, e}, td = {SEL_DT_F32, 3, dv, got};
    opt_tuning u = *tu;
    int st;

    u.nt_min = n + bytes + (size_t)A * B * 4 + bytes; /* the footprint */
    for (size_t i = 0; i < n; i++)
        c[i] = (uint8_t)opt_kdraw(seed, 2);
    for (size_t i = 0; i < bytes; i++)
        t[i] = (char)opt_kdraw(seed, 256);
    for (size_t i = 0; i < (size_t)A * B * 4; i++)
        e[i] = (char)opt_kdraw(seed, 256);
    for (size_t i = 0; i < n; i++) /* else's element: row i / K */
        memcpy(want + i * 4, c[i] ? t + i * 4 : e + i / K * 4, 4);
    memset(got, 0x5a, bytes);
    opt_tuning_set(&u);
    opt_threads_force(th);
    st = opt_impl()->execute(&tc, &tt, &te, b, &td);
    opt_threads_force(1);
    opt_tuning_set(NULL);
    return st != SEL_OK || memcmp(want, got, bytes) != 0;
}

/* The half-LLC streams on one and two threads (2 TAP lines). */
static int half_tests(const opt_tuning *tu, int tests, int *failed,
                      uint64_t *seed)
{
    const size_t bytes = (size_t)30 * 23 * 379 * 4;
    char *want = malloc(bytes), *got = malloc(bytes);
    opt_kguard g;
    const int ok = want && got && opt_kguard_open(&g, bytes);

    for (int h = 1; h < 3; h++) {
        const int bad = !ok || half_one(&tu[h], h, seed, &g, want, got);
        *failed += bad;
        printf("%s %d - select rows streamed past half nt_min x32, %s\n",
               bad ? "not ok" : "ok", ++tests,
               h == 1 ? "one thread" : "two threads, chunks inside rows");
    }
    if (ok)
        opt_kguard_close(&g);
    free(want), free(got);
    return tests;
}

int opt_kfar_tests(int tests, int *failed)
{
    static const char *const how[3] = {
        "regular stores (next-row requests)", "streams, one thread",
        "streams, two threads, chunks inside rows"};
    uint64_t seed = 0x2545f4914f6cdd1du;
    opt_tuning def, tu[3];

    opt_tuning_get(&def);
    tu[0] = def, tu[0].parallel_min = (size_t)-1, tu[0].nt_min = (size_t)-1;
    tu[1] = tu[0], tu[1].nt_min = 0;
    tu[2] = tu[1], tu[2].parallel_min = 0, tu[2].chunk_min = 100000;
    for (int i = 0; i < 2; i++) {
        const far_case *fc = &cases[i];
        const size_t bytes = (size_t)fc->rows * (size_t)fc->k * fc->w;
        char *want = malloc(bytes), *got = malloc(bytes);
        opt_kguard g;
        int ok = want && got && opt_kguard_open(&g, bytes);
        for (int h = 0; h < 3; h++) {
            const int bad = !ok || far_one(fc, &tu[h], h == 2 ? 2 : 1, &seed,
                                           &g, want, got);
            *failed += bad;
            printf("%s %d - far row copies x%zu, rows of %zu bytes, %s\n",
                   bad ? "not ok" : "ok", ++tests, fc->w * 8,
                   (size_t)fc->k * fc->w, how[h]);
        }
        if (ok)
            opt_kguard_close(&g);
        free(want), free(got);
    }
    tu[2].chunk_min = 20000;
    return half_tests(tu, tests, failed, &seed);
}
