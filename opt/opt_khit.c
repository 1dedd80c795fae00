/* opt_khit.c - test-only (linked into opt_ktest): the thread's memos
 * across calls through the whole sel_impl: the warm call's record
 * (opt_hit.h) must miss on one changed dim and refuse new pointers that
 * overlap, and the small walk must not be reused for a newer plan.
 */
#include <stdio.h>
#include <string.h>

#include "opt_ktests.h"

#define GUARD 64
#define POISON 0xa5

static uint64_t rng = 0x2545f4914f6cdd1du;

/* A random byte (opt_kguard.c's generator, the same bytes as before). */
static uint64_t next(void) { return opt_kdraw(&rng, 256); }

/* The small walk is kept for the thread's previous plan: a one-byte-cond
 * plan that the picks ran first must not find an older plan's walk (an
 * i64 walk ran on i8 buffers: it read and wrote past them). */
static int walk_after_pick(void)
{
    static const int64_t big[4] = {5, 3, 4, 5}, row[2] = {1, 3};
    static uint8_t c[300], t[2400], e[24], d[2400 + GUARD];
    const sel_broadcast b = {SEL_BROADCAST_PDPD, 0, 0};
    static const struct { int32_t dt, crank; uint8_t cv; } seq[] = {
        {SEL_DT_I64, 4, 1}, {SEL_DT_I64, 4, 1}, /* the walk, 8 bytes */
        {SEL_DT_I8, 0, 1}, {SEL_DT_I8, 0, 0}, {SEL_DT_I8, 0, 0}};
    for (size_t k = 0; k < sizeof seq / sizeof seq[0]; k++) {
        const size_t w = seq[k].dt == SEL_DT_I64 ? 8 : 1;
        sel_tensor ts[4] = {{SEL_DT_BOOLEAN, seq[k].crank, big, c},
                            {seq[k].dt, 4, big, t},
                            {seq[k].dt, 2, row, e},
                            {seq[k].dt, 4, big, d}};
        memset(c, seq[k].cv, sizeof c), memset(d, POISON, sizeof d);
        for (size_t j = 0; j < sizeof t; j++)
            t[j] = (uint8_t)next();
        for (size_t j = 0; j < sizeof e; j++)
            e[j] = (uint8_t)next();
        if (opt_impl()->execute(&ts[0], &ts[1], &ts[2], b, &ts[3]))
            return printf("# walk after pick: call %zu not SEL_OK\n", k), 1;
        for (size_t j = 0; j < sizeof d; j++)
            if (d[j] != (j >= 300 * w ? POISON
                         : seq[k].cv ? t[j]
                                     : e[j / w / 20 % 3 * w + j % w]))
                return printf("# walk after pick: call %zu byte %zu\n", k,
                              j), 1;
    }
    return 0;
}

/* The warm call's test of the four dims (opt_hit.h, one compare per dim
 * position for the four operands of one rank): each operand with a dims
 * array of its own, armed, then one dim of operand k alone becomes 3 (a
 * shape error under none), or operand k's data NULL with the others' new
 * (ARG-NULL-1, which a hit tests only for pointers that did not pass
 * last); each must fail with dst untouched.  0 when all do. */
static int hit_one(int32_t r)
{
    static uint8_t c[384], t[384], e[384], d[384];
    const sel_broadcast b = {SEL_BROADCAST_NONE, -1, SEL_COND_BIDIRECTIONAL};
    for (int k = 0; k < 4; k++)
        for (int32_t i = 0; i <= r; i++) { /* i == r: the data test */
            int64_t dims[4][8];
            sel_tensor ts[4];
            void *const data[4] = {c, t, e, d};
            for (int q = 0; q < 4; q++) {
                for (int32_t a = 0; a < r; a++)
                    dims[q][a] = 2;
                ts[q].dtype = q ? SEL_DT_U8 : SEL_DT_BOOLEAN, ts[q].rank = r;
                ts[q].dims = dims[q], ts[q].data = data[q];
            }
            for (int call = 0; call < 2; call++) /* armed on the second */
                if (opt_impl()->execute(&ts[0], &ts[1], &ts[2], b, &ts[3]))
                    return printf("# hit one: rank %d not SEL_OK\n", (int)r), 1;
            if (i < r)
                dims[k][i] = 3;
            else
                for (int q = 0; q < 4; q++)
                    ts[q].data = q == k ? NULL : (char *)data[q] + 128;
            memset(d, POISON, sizeof d);
            if (opt_impl()->execute(&ts[0], &ts[1], &ts[2], b, &ts[3]) ==
                SEL_OK)
                return printf("# hit one: rank %d, operand %d, dim %d ran\n",
                              (int)r, k, (int)i), 1;
            for (size_t j = 0; j < sizeof d; j++)
                if (d[j] != POISON)
                    return printf("# hit one: rank %d, operand %d: dst "
                                  "written\n", (int)r, k), 1;
        }
    return 0;
}

/* opt_fast.c keeps the memo's plan, and what was built for it, when a new
 * description plans the same (16x1:1x16:16x16 and 1x16x1:1x1x16:1x16x16
 * f32): calls of both, then 8x1:1x8:8x8 (another plan of rank 2), then
 * the first again, each twice, must all be right.  0 when they are. */
static int plan_kept(void)
{
    static uint8_t c[16];
    static float t[16], e[256], d[256];
    static const int64_t a[4][3] = {{16, 1}, {1, 16}, {16, 16}, {16, 16}},
                         b[4][3] = {{1, 16, 1}, {1, 1, 16}, {1, 16, 16},
                                    {1, 16, 16}},
                         s[4][3] = {{8, 1}, {1, 8}, {8, 8}, {8, 8}};
    const int64_t (*const seq[4])[3] = {a, b, s, a};
    const sel_broadcast bc = {SEL_BROADCAST_NUMPY, -1, SEL_COND_BIDIRECTIONAL};
    for (int j = 0; j < 256; j++)
        e[j] = (float)j, t[j % 16] = (float)(1000 + j % 16),
        c[j % 16] = (uint8_t)(j % 3 == 0);
    for (int q = 0; q < 8; q++) {
        const int64_t(*x)[3] = seq[q / 2];
        const int32_t r = x == b ? 3 : 2;
        const int64_t n = x == s ? 8 : 16;
        sel_tensor ts[4] = {{SEL_DT_BOOLEAN, r, x[0], c}, {SEL_DT_F32, r, x[1], t},
                            {SEL_DT_F32, r, x[2], e}, {SEL_DT_F32, r, x[3], d}};
        memset(d, 0, sizeof d);
        if (opt_impl()->execute(&ts[0], &ts[1], &ts[2], bc, &ts[3]))
            return printf("# plan kept: call %d not SEL_OK\n", q), 1;
        for (int64_t i = 0; i < n * n; i++)
            if (d[i] != (c[i / n] ? t[i % n] : e[i]))
                return printf("# plan kept: call %d, element %d\n", q,
                              (int)i), 1;
    }
    return 0;
}

/* The warm call (opt_hit.c) at ranks 1-8: a call whose dims differ from
 * the thread's last call in one position only, through the same dims
 * array, must miss: the same-shape call of 2^r elements runs twice (the
 * record is armed), then dim i becomes 3 and the call must write all of
 * its 1.5 * 2^r elements; 0 when every rank and position passes. */
static int hit_dims(void)
{
    static uint8_t c[384], t[384], e[384], d[384 + GUARD];
    const sel_broadcast b = {SEL_BROADCAST_NONE, -1, SEL_COND_BIDIRECTIONAL};
    for (int32_t r = 1; r <= 8; r++)
        for (int32_t i = 0; i < r; i++) {
            int64_t dims[8];
            sel_tensor ts[4];
            size_t n = (size_t)3 << (r - 1);
            for (int32_t a = 0; a < r; a++)
                dims[a] = 2;
            for (int k = 0; k < 4; k++)
                ts[k].dtype = k ? SEL_DT_U8 : SEL_DT_BOOLEAN, ts[k].rank = r,
                ts[k].dims = dims;
            ts[0].data = c, ts[1].data = t, ts[2].data = e, ts[3].data = d;
            for (size_t j = 0; j < n; j++)
                c[j] = (uint8_t)(next() & 1), t[j] = (uint8_t)next(),
                e[j] = (uint8_t)next();
            for (int call = 0; call < 3; call++) {
                if (call == 2)
                    dims[i] = 3, memset(d, POISON, sizeof d);
                if (opt_impl()->execute(&ts[0], &ts[1], &ts[2], b, &ts[3]))
                    return printf("# hit: rank %d: not SEL_OK\n", (int)r), 1;
            }
            for (size_t j = 0; j < sizeof d; j++)
                if (d[j] != (j >= n ? POISON : c[j] ? t[j] : e[j]))
                    return printf("# hit: rank %d, dim %d: byte %zu\n",
                                  (int)r, (int)i, j), 1;
        }
    for (int32_t r = 1; r <= 8; r++)
        if (hit_one(r))
            return 1;
    return plan_kept();
}

/* The warm call's overlap checks (opt_hit.h) are skipped for the data
 * pointers that passed last: an armed record (the same call twice) must
 * still refuse dst overlapping then or cond (SEL_ERR_ARG, dst untouched)
 * when only the pointers change, and run the original pointers again. */
static int hit_alias(void)
{
    static uint8_t c[128], t[128], e[64], d[64 + GUARD];
    static const int64_t dims[1] = {64};
    const sel_broadcast b = {SEL_BROADCAST_NONE, -1, SEL_COND_BIDIRECTIONAL};
    uint8_t *const bad[2] = {t + 8, c + 4}; /* inside then, inside cond */
    for (int j = 0; j < 64; j++)
        c[j] = (uint8_t)(next() & 1), t[j] = (uint8_t)next(),
        e[j] = (uint8_t)next();
    for (int k = 0; k < 2; k++) {
        sel_tensor ts[4] = {{SEL_DT_BOOLEAN, 1, dims, c}, {SEL_DT_U8, 1, dims, t},
                            {SEL_DT_U8, 1, dims, e}, {SEL_DT_U8, 1, dims, d}};
        for (int call = 0; call < 3; call++) /* armed on the second */
            if (opt_impl()->execute(&ts[0], &ts[1], &ts[2], b, &ts[3]))
                return printf("# hit alias: call %d not SEL_OK\n", call), 1;
        uint8_t keep[72];
        memcpy(keep, bad[k], sizeof keep);
        ts[3].data = bad[k];
        if (opt_impl()->execute(&ts[0], &ts[1], &ts[2], b, &ts[3]) !=
                SEL_ERR_ARG ||
            memcmp(keep, bad[k], sizeof keep))
            return printf("# hit alias: dst inside %s ran\n",
                          k ? "cond" : "then"), 1;
        ts[3].data = d, memset(d, POISON, sizeof d);
        if (opt_impl()->execute(&ts[0], &ts[1], &ts[2], b, &ts[3]))
            return printf("# hit alias: the pointers again not SEL_OK\n"), 1;
        for (int j = 0; j < 64 + GUARD; j++)
            if (d[j] != (j >= 64 ? POISON : c[j] ? t[j] : e[j]))
                return printf("# hit alias: byte %d\n", j), 1;
    }
    return 0;
}

int opt_khit_tests(int tests, int *failed)
{
    int bad = hit_dims();
    *failed += bad;
    printf("%s %d - hit: a call with one dim or one operand's dim changed, or "
           "a NULL data pointer, misses, ranks 1-8; a plan kept across "
           "descriptions\n",
           bad ? "not ok" : "ok", ++tests);
    bad = hit_alias();
    *failed += bad;
    printf("%s %d - hit: new pointers that overlap miss, the old pass\n",
           bad ? "not ok" : "ok", ++tests);
    bad = walk_after_pick();
    *failed += bad;
    printf("%s %d - small walk: not reused after the picks ran a newer plan\n",
           bad ? "not ok" : "ok", ++tests);
    return tests;
}
