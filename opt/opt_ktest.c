/* opt_ktest.c - unit test of every kernel in the table the CPU can run:
 * each width and kind, streams on and off, lengths 0..300 and around
 * multiples of 16/32/64, misaligned buffers, cond bytes 0/1/2/0x80/0xff,
 * in place, a poisoned dst with guard bytes, compared byte for byte with a
 * plain loop.  TAP on stdout, one line per kernel and store mode; kernels
 * of an ISA the CPU lacks are skipped with the reason.  Then the pool: every
 * chunk runs exactly once at any thread count, also in a fork()ed child.
 * Exit 1 on failure.
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "opt_ktests.h"
#include "opt_ptile.h"

#define GUARD 64
#define MAXN 1200
#define POISON 0xa5

static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t next(void)
{
    rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
    return rng;
}

static const uint8_t cond_bytes[] = {0, 1, 2, 0x80, 0xff};

static const char *const kind_names[] = {
#define KN(k) #k,
    OPT_KIND_LIST(KN)
#undef KN
};

/* The obvious loop the kernels must equal (see opt_kernels.h). */
static void expect(int kind, size_t w, size_t n, const uint8_t *c,
                   const uint8_t *t, const uint8_t *e, uint8_t *d)
{
    size_t i;
    for (i = 0; i < n; i++) {
        const uint8_t *tp = t + (kind == OPT_K_vsv || kind == OPT_K_vss ||
                                 kind == OPT_K_fill ? 0 : i * w);
        const uint8_t *ep = e + (kind == OPT_K_vvs || kind == OPT_K_vss
                                     ? 0 : i * w);
        int take_t = kind == OPT_K_fill || kind == OPT_K_copy || c[i];
        memcpy(d + i * w, take_t ? tp : ep, w);
    }
}

/* Buffers big enough for MAXN 8-byte elements at any offset, with guards. */
static uint8_t cbuf[MAXN + 2 * GUARD + 64], tbuf[MAXN * 8 + 2 * GUARD + 64],
    ebuf[MAXN * 8 + 2 * GUARD + 64], dbuf[MAXN * 8 + 2 * GUARD + 64],
    want[MAXN * 8], t0[MAXN * 8], e0[MAXN * 8];

/* One call; in place 1 runs with d == t, 2 with d == e.  Returns 0 when the
 * output and both guards are right, else prints the first difference. */
static int one(opt_kernel_fn *k, const char *name, int kind, size_t w,
               size_t n, size_t off, int pattern, int nt, int inplace)
{
    uint8_t *c = cbuf + GUARD + off % 61, *t = tbuf + GUARD + off % 59;
    uint8_t *e = ebuf + GUARD + off % 53, *d = dbuf + GUARD + off % 67;
    size_t i, bytes = n * w;

    for (i = 0; i < n; i++)
        c[i] = pattern == 0 ? cond_bytes[next() % 5]
               : pattern == 1 ? 0 : cond_bytes[1 + next() % 4];
    for (i = 0; i < (bytes > w ? bytes : w); i++)
        t0[i] = (uint8_t)next(), e0[i] = (uint8_t)next();
    memcpy(t, t0, bytes > w ? bytes : w);
    memcpy(e, e0, bytes > w ? bytes : w);
    memset(dbuf, POISON, bytes + 2 * GUARD + 64);
    if (inplace == 1)
        d = t;
    if (inplace == 2)
        d = e;
    expect(kind, w, n, c, t0, e0, want);
    k(n, c, t, e, d, nt);
    opt_fence();
    for (i = 0; i < bytes; i++)
        if (d[i] != want[i]) {
            printf("# %s nt=%d n=%zu off=%zu inplace=%d: byte %zu (element "
                   "%zu, cond 0x%02x) is 0x%02x, want 0x%02x\n", name, nt, n,
                   off, inplace, i, i / w, c[i / w], d[i], want[i]);
            return 1;
        }
    if (!inplace)
        for (i = 0; i < bytes + 2 * GUARD + 64; i++) {
            const uint8_t *p = dbuf + i;
            if ((p < d || p >= d + bytes) && *p != POISON) {
                printf("# %s nt=%d n=%zu off=%zu: wrote %td bytes outside "
                       "dst\n", name, nt, n, off, p < d ? p - d : p - (d + bytes));
                return 1;
            }
        }
    return 0;
}

static size_t lengths[600];

static size_t make_lengths(void)
{
    size_t m, n = 0, k;
    int dlt;
    for (k = 0; k <= 300; k++)
        lengths[n++] = k;
    for (m = 16; m <= 64; m *= 2)
        for (k = 5; k * m + 3 < MAXN; k += 3)
            for (dlt = -2; dlt <= 2; dlt++)
                lengths[n++] = k * m + (size_t)dlt;
    lengths[n++] = MAXN;
    return n;
}

#if defined(__x86_64__)
/* The crep kernels (opt_crep.c): n elements from phase r of rows of C,
 * one cond byte per row; then and else dense, one element, or a tile
 * (period C) expanded from element 0; streams on and off, in place,
 * misaligned; against the plain loop, guards included. */
#define CREP_TESTS (2 * OPT_WIDTH_COUNT)
static const size_t crep_cs[] = {2,  3,  4,  5,   6,   7,   8,   9,
                                 10, 11, 12, 13,  14,  15,  16,  17,
                                 24, 31, 32, 33,  48,  63,  64,  65,
                                 96, 100, 127, 128, 192, 255, 300, 511};

/* keep: what the operand's elements 0..n-1 are; p: what the kernel gets.
 * A tile from phase r (element k is (r + k) % C) is expanded over lim
 * elements only, garbage after: a register tile must not be read there. */
static void crep_fill(uint8_t *p, uint8_t *keep, int mode, size_t w,
                      size_t n, size_t r, size_t C, size_t lim)
{
    uint8_t pat[OPT_CREP_MAXC * 8];
    for (size_t k = 0; k < C * w; k++)
        pat[k] = (uint8_t)next();
    for (size_t k = 0; k < (n ? n : 1) * w; k++)
        p[k] = keep[k] = (uint8_t)next();
    if (mode != 2)
        return;
    for (size_t k = 0; k < n; k++)
        memcpy(keep + k * w, pat + (r + k) % C * w, w);
    memcpy(p, keep, (lim < n ? lim : n) * w);
}

static int crep_one(opt_crep_fn *f, const char *name, size_t w, size_t C,
                    size_t n, size_t off, int regs)
{
    static uint8_t seq[OPT_CREP_SEQC + 72];
    const size_t r = (size_t)next() % C, rows = (r + n + C - 1) / C;
    const int ts = (int)(next() % 3), es = (int)(next() % 3);
    const int inplace = next() % 4 == 0 ? (ts == 0 ? 1 : es == 0 ? 2 : 0) : 0;
    uint8_t *c = cbuf + GUARD + off % 61, *t = tbuf + GUARD + off % 59;
    uint8_t *e = ebuf + GUARD + off % 53, *d = dbuf + GUARD + off % 67;
    size_t u = 1, k;
    opt_crep_job j;

    for (k = 0; k < sizeof seq; k++)
        seq[k] = (uint8_t)(k / C);
    while (u * 64 % C)
        u++;
    for (k = 0; k < rows; k++)
        c[k] = cond_bytes[next() % 5];
    j.P = regs && (u == 1 || u == 3) ? (int)u : 0; /* as opt_crep.c */
    crep_fill(t, t0, ts, w, n, r, C, j.P ? 64 * (size_t)(j.P + 2) : n);
    crep_fill(e, e0, es, w, n, r, C, j.P ? 64 * (size_t)(j.P + 2) : n);
    for (k = 0; k < n; k++)
        memcpy(want + k * w, c[(r + k) / C] ? (ts == 1 ? t0 : t0 + k * w)
                                            : (es == 1 ? e0 : e0 + k * w), w);
    memset(dbuf, POISON, n * w + 2 * GUARD + 64);
    d = inplace == 1 ? t : inplace == 2 ? e : d;
    j.c = c, j.cavail = rows, j.r = r, j.C = C, j.n = n;
    j.seq = C <= OPT_CREP_SEQC ? seq : NULL;
    j.t = (const char *)t, j.e = (const char *)e, j.d = (char *)d;
    j.ts = ts, j.es = es, j.nt = (int)(next() % 2);
    f(&j);
    opt_fence();
    for (k = 0; k < n * w; k++)
        if (d[k] != want[k]) {
            printf("# %s C=%zu r=%zu n=%zu ts=%d es=%d nt=%d inplace=%d: "
                   "element %zu is wrong\n", name, C, r, n, ts, es, j.nt,
                   inplace, k / w);
            return 1;
        }
    for (k = 0; !inplace && k < n * w + 2 * GUARD + 64; k++)
        if ((dbuf + k < d || dbuf + k >= d + n * w) && dbuf[k] != POISON) {
            printf("# %s C=%zu n=%zu: wrote outside dst\n", name, C, n);
            return 1;
        }
    return 0;
}

static int crep_tests(int tests, int *failed, const size_t *lens, size_t nlen)
{
    static opt_crep_fn *const fns[2][4] = {
        {NULL, opt_crep_x16__avx2, opt_crep_x32__avx2,
         opt_crep_x64__avx2},
        {opt_crep_x8__avx512, opt_crep_x16__avx512, opt_crep_x32__avx512,
         opt_crep_x64__avx512}};
    for (int l = 0; l < 2; l++)
        for (int wi = 0; wi < 4; wi++) {
            const int isa = l ? OPT_ISA_avx512 : OPT_ISA_avx2;
            char name[64];
            int bad = 0;
            snprintf(name, sizeof name, "crep_x%d__%s", 8 << wi,
                     opt_isa_name(isa));
            if (!fns[l][wi]) {
                printf("ok %d - %s # SKIP not built (slower than the "
                       "expansion)\n", ++tests, name);
                continue;
            }
            if (!opt_isa_supported(isa) || (l && !opt_cpu_vbmi())) {
                printf("ok %d - %s # SKIP this CPU/OS cannot run %s\n",
                       ++tests, name, l ? "AVX512-VBMI" : "AVX2");
                continue;
            }
            for (size_t ci = 0; ci < sizeof crep_cs / sizeof *crep_cs; ci++)
                for (size_t li = 0; li < nlen && !bad &&
                                    (l || crep_cs[ci] <= OPT_CREP_SEQC);
                     li += 1 + ci % 3) /* AVX2: tables only */
                    bad |= crep_one(fns[l][wi], name, (size_t)1 << wi,
                                    crep_cs[ci], lens[li], li * 7 + ci, l);
            *failed += bad;
            printf("%s %d - %s\n", bad ? "not ok" : "ok", ++tests, name);
        }
    return tests;
}
#else
#define CREP_TESTS 0
#endif

#if defined(__x86_64__)
/* ---- the byte-permute blocks (opt_ptile.c, AVX-512 VBMI) ---------------
 * Plans of interleaved broadcasts (rank 6-8, a middle axis, odd inner
 * axes, random ones), each range whole and cut anywhere, streams on and
 * off, against the plan's own strides walked element by element. */
#define PT_TESTS 4
#define PT_MAX (1 << 16)
static uint8_t pin[3][PT_MAX * 8 + 64], pout[PT_MAX * 8 + 2 * GUARD];

/* Shape i of the list (random past it): dims of cond, then, else. */
static int pt_shape(int i, int64_t d[3][8])
{
    static const char *const fixed[] = {
        "8x1x8x1x8x1 1x8x1x8x1x8 8x8x8x8x8x8", "256x1x8 1x256x8 256x256x8",
        "4x1x8x1x8x1x8 1x4x1x8x1x8x1 4x4x8x8x8x8x8",
        "4x1x4x1x4x1x4x1 1x4x1x4x1x4x1x4 4x4x4x4x4x4x4x4",
        "2x1x1x1 170x2x3x13x1 170x1x3x1x1", "7x1x13 1x5x13 7x5x1",
        "1x9x1x3 6x1x5x3 6x9x5x1",
        /* else of 4-16 KiB at widths 4 and 8, outputs 16 times as large:
         * copied whole (opt_ptile_range's MID) */
        "1x23x1x1 40x1x1x54 1x23x1x54",
        /* an operand's block bytes spanning 65 (u8): one window per chunk,
         * not one per block (mode 2 takes spans up to 64) */
        "13x66x1x1 13x66x1x13 13x66x3x13", "11x14x1x13 11x14x1x1 11x14x3x13",
        "9x16x1x1 1x1x65x1 9x16x65x3",
        /* then or else spanning 65-128 bytes of a block (mode 3: two
         * windows per block, vpermi2b) */
        "532x31x1 532x1x1 1x31x1", "3311x3x3 1x3x3 3311x1x3",
        "1x1x7x1x9 10x1x7x1x9 10x1x7x47x9",
        /* blocks of 5-8 chunks (a pass of 257-512 bytes), each mode pair
         * of PT_BIG, with and without spill */
        "1x10x1x5x12 10x7x5x12 13x10x7x5x1", "10x21x9x1x1 1x21x9x9x2 10x21x9x1x1",
        "5x1x1 54x1x1x54 5x1x54", "1x391 1x391 100x1", "1x391 100x1x1 1x391",
        "1x1x7 1x60x1 100x1x7", "1x1x7 100x60x1 1x1x7"};
    const int nf = (int)(sizeof fixed / sizeof *fixed);
    int rank = 0;
    if (i < nf) {
        const char *p = fixed[i];
        for (int k = 0; k < 3; k++, rank = 0, p += *p == ' ')
            while (*p && *p != ' ')
                d[k][rank++] = strtoll(p, (char **)&p, 10), p += *p == 'x';
        for (p = fixed[i], rank = 1; *p != ' '; p++) /* dims of any size */
            rank += *p == 'x';
        return rank;
    }
    rank = 3 + (int)(next() % 6);
    for (int a = 0; a < rank; a++) {
        const int64_t n = 1 + (int64_t)(next() % 9);
        for (int k = 0; k < 3; k++)
            d[k][a] = next() % 2 ? n : 1;
        d[2][a] = n; /* else whole: the output's shape */
    }
    return rank;
}

/* One shape at width w: 0 when every range matches (or no tiles). */
static int pt_one(int i, size_t w)
{
    int64_t d[3][8], o[3][8];
    const int rank = pt_shape(i, d);
    sel_tensor ts[4];
    const sel_broadcast b = {SEL_BROADCAST_NUMPY, -1, SEL_COND_BIDIRECTIONAL};
    const opt_ptile *t;
    opt_geom g;
    opt_plan p;
    for (int k = 0; k < 4; k++)
        ts[k].dtype = k ? SEL_DT_U8 + 0 * (int)w : SEL_DT_BOOLEAN,
        ts[k].rank = rank, ts[k].dims = d[k < 3 ? k : 2], ts[k].data = pin[0];
    for (int k = 1; k < 4; k++)
        ts[k].dtype = w == 1 ? SEL_DT_U8 : w == 2 ? SEL_DT_U16 : w == 4 ? SEL_DT_U32 : SEL_DT_U64;
    if (opt_check(&ts[0], &ts[1], &ts[2], b, NULL, &g) || g.count > PT_MAX)
        return 0;
    opt_plan_make(&g, w, &p);
    if (!(t = opt_ptile_get(&p, w, OPT_ISA_avx512, 0)))
        return 0;
    for (int k = 0; k < 3; k++)
        for (size_t j = 0; j < p.in_bytes[k]; j++)
            pin[k][j] = k ? (uint8_t)next() : cond_bytes[next() % 5];
    for (int r = 0; r < 8; r++) {
        const int64_t n = g.count, lo = r ? (int64_t)(next() % (uint64_t)n) : 0;
        const int64_t hi = r ? lo + (int64_t)(next() % (uint64_t)(n - lo + 1)) : n;
        const void *const data[3] = {pin[0], pin[1], pin[2]};
        memset(pout, POISON, sizeof pout);
        opt_ptile_range(t, &p, data, (char *)pout + GUARD, w, r % 2, lo, hi);
        opt_fence();
        memset(o, 0, sizeof o);
        for (int64_t e = 0; e < n + 2 * (int64_t)GUARD / (int64_t)w; e++) {
            const int64_t x = e - GUARD / (int64_t)w;
            int64_t q = x, off[3] = {0, 0, 0};
            uint8_t want_b[8];
            for (int32_t a = p.rank - 1; a >= 0 && x >= 0; a--, q /= p.dims[a + 1])
                for (int k = 0; k < 3; k++)
                    off[k] += q % p.dims[a] * p.st[k][a];
            memset(want_b, POISON, w);
            if (x >= lo && x < hi)
                memcpy(want_b, pin[pin[0][off[0]] ? 1 : 2] + off[pin[0][off[0]] ? 1 : 2] * (int64_t)w, w);
            if (memcmp(pout + e * (int64_t)w, want_b, w)) {
                printf("# ptile x%zu shape %d range [%lld, %lld): element %lld\n",
                       w * 8, i, (long long)lo, (long long)hi, (long long)x);
                return 1;
            }
        }
    }
    return 0;
}

static int pt_tests(int tests, int *failed)
{
    for (int wi = 0; wi < 4; wi++) {
        int bad = 0;
        tests++;
        if (!opt_isa_supported(OPT_ISA_avx512) || !opt_cpu_vbmi()) {
            printf("ok %d - ptile_x%d__avx512 # SKIP this CPU has no "
                   "AVX512-VBMI\n", tests, 8 << wi);
            continue;
        }
        for (int i = 0; i < 200 && !bad; i++)
            bad |= pt_one(i, (size_t)1 << wi);
        *failed += bad;
        printf("%s %d - ptile_x%d__avx512\n", bad ? "not ok" : "ok", tests,
               8 << wi);
    }
    return tests;
}
#else
#define PT_TESTS 0
#endif

static atomic_int hits[257];

static void count_chunk(void *ctx, size_t i)
{
    (void)ctx;
    atomic_fetch_add(&hits[i], 1);
}

/* opt_parallel with 1..5 threads and 1..257 chunks: each chunk once. */
static int pool_once(void)
{
    for (int th = 1; th <= 5; th++)
        for (size_t n = 1; n <= 257; n += n < 20 ? 1 : 37) {
            for (size_t i = 0; i < n; i++)
                atomic_store(&hits[i], 0);
            opt_parallel(count_chunk, NULL, n, th);
            for (size_t i = 0; i < n; i++)
                if (atomic_load(&hits[i]) != 1) {
                    printf("# pool: %d threads, %zu chunks: chunk %zu ran %d "
                           "times\n", th, n, i, atomic_load(&hits[i]));
                    return 1;
                }
        }
    return 0;
}

/* ThreadSanitizer refuses to start threads after a multi-threaded fork. */
#if defined(__SANITIZE_THREAD__)
#define NO_FORK_THREADS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define NO_FORK_THREADS 1
#endif
#endif
#ifndef NO_FORK_THREADS
#define NO_FORK_THREADS 0

/* After fork() the child has none of the parent's workers; its calls must
 * still complete, all chunks once, within a time limit. */
static int pool_fork(void)
{
    int st = 0;
    pid_t p;
    fflush(stdout);
    if ((p = fork()) == 0) {
        alarm(20);
        _exit(pool_once());
    }
    if (p < 0 || waitpid(p, &st, 0) != p)
        return 1;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        printf("# pool: the forked child %s\n",
               WIFSIGNALED(st) ? "was killed (hung?)" : "failed");
        return 1;
    }
    return 0;
}
#endif

/* The kernels' last argument: regular stores, streams, the requests
 * ahead that rows in pairs ask for, and the loops in halves of large
 * calls (opt_kernels.h; each a loop of its own). */
static const int nt_flags[] = {0, OPT_NT, OPT_AHEAD_T, OPT_AHEAD_E,
                               OPT_HALF};
#define NT_FLAGS (int)(sizeof nt_flags / sizeof nt_flags[0])

int main(int argc, char **argv)
{
    const size_t nlen = make_lengths();
    /* qemu-user (7.2) aborts on a thread started in a child forked from a
     * threaded process: check-arm64 passes --no-fork (a skip, named). */
    const int no_fork = argc > 1 && !strcmp(argv[1], "--no-fork");
    int isa, wi, kind, nt, tests = 0, failed = 0;

    if (argc > 1 && !strcmp(argv[1], "--active")) {
        /* What SEL_ISA, SEL_NUM_THREADS and SEL_SPLIT512 resolved to
         * (check-opt-env). */
        printf("%s %d %d\n", opt_isa_name(opt_isa_active()), opt_threads(),
               opt_cpu_split512());
        return 0;
    }
    if (argc > 1 && !strcmp(argv[1], "--supported")) {
        /* The levels this machine runs, for make's test matrix. */
        for (isa = 0; isa < OPT_ISA_COUNT; isa++)
            if (opt_isa_supported(isa))
                printf("%s\n", opt_isa_name(isa));
        return 0;
    }

    printf("TAP version 13\n1..%d\n",
           OPT_ISA_COUNT * OPT_WIDTH_COUNT * OPT_K_COUNT * NT_FLAGS + CREP_TESTS +
               OPT_KCHUNK_TESTS + OPT_KVTILE_TESTS + OPT_KPHASE_TESTS + PT_TESTS + 2 +
                   OPT_KPTILE_TESTS + OPT_KFAR_TESTS + OPT_KHIT_TESTS);
    for (isa = 0; isa < OPT_ISA_COUNT; isa++)
        for (wi = 0; wi < OPT_WIDTH_COUNT; wi++)
            for (kind = 0; kind < OPT_K_COUNT; kind++)
                for (int f = 0; f < NT_FLAGS; f++) {
                    opt_kernel_fn *k = opt_kernel(isa, wi, kind);
                    nt = nt_flags[f];
                    const size_t w = (size_t)1 << wi;
                    char name[64];
                    int bad = 0;
                    size_t li;

                    snprintf(name, sizeof name, "x%zu_%s__%s", w * 8,
                             kind_names[kind], opt_isa_name(isa));
                    tests++;
                    if (!opt_isa_supported(isa)) {
                        printf("ok %d - %s nt=%d # SKIP %s: this CPU/OS "
                               "cannot run it\n", tests, name, nt,
                               opt_isa_name(isa));
                        continue;
                    }
                    for (li = 0; li < nlen && !bad; li++) {
                        const size_t n = lengths[li];
                        bad |= one(k, name, kind, w, n, li * 7 + n, (int)(li % 3), nt, 0);
                        /* In place with every operand that advances. */
                        if (kind == OPT_K_vvv || kind == OPT_K_vvs || kind == OPT_K_copy)
                            bad |= one(k, name, kind, w, n, li, 0, nt, 1);
                        if (kind == OPT_K_vvv || kind == OPT_K_vsv)
                            bad |= one(k, name, kind, w, n, li, 0, nt, 2);
                    }
                    failed += bad;
                    printf("%s %d - %s nt=%d\n", bad ? "not ok" : "ok", tests,
                           name, nt);
                }
#if defined(__x86_64__)
    tests = crep_tests(tests, &failed, lengths, nlen);
    tests = pt_tests(tests, &failed);
#endif
    tests = opt_kchunk_tests(tests, &failed);
    tests = opt_kvtile_tests(tests, &failed);
    tests = opt_kphase_tests(tests, &failed);
    tests = opt_kptile_tests(tests, &failed);
    tests = opt_kfar_tests(tests, &failed);
    {
        int bad;
        tests = opt_khit_tests(tests, &failed);
        bad = pool_once();
        failed += bad;
        printf("%s %d - pool: each chunk once, 1..5 threads\n",
               bad ? "not ok" : "ok", ++tests);
#if NO_FORK_THREADS
        (void)no_fork;
        printf("ok %d - pool: fork # SKIP ThreadSanitizer cannot start threads "
               "after a multi-threaded fork\n", ++tests);
#else
        if (no_fork) {
            printf("ok %d - pool: fork # SKIP --no-fork: the emulator cannot "
                   "start threads after a multi-threaded fork\n", ++tests);
        } else {
            bad = pool_fork();
            failed += bad;
            printf("%s %d - pool: calls complete in a fork()ed child\n",
                   bad ? "not ok" : "ok", ++tests);
        }
#endif
    }
    return failed != 0;
}
