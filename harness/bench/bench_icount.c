/* bench_icount.c - opt's cost per call in instructions, for callgrind:
 * `make bench-icount` runs it under valgrind once per workload and divides
 * the count collected inside h_icount_calls() by the calls made there.
 *
 * Instruction counts repeat exactly whatever the machine's load, where
 * times of 100-500 ns do not; valgrind runs AVX2 at most (no AVX-512), so
 * the counts are the AVX2 level's.  Usage: bench_icount --list (the
 * tiny-call workloads: name and spec), bench_icount SPEC CALLS [cold].
 * cold alternates two descriptions of the call, as bench's opt-cold row
 * does (bench_run.c), so every call misses opt's per-thread plan memo.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "opt.h"

static sel_tensor t[4], tc[4]; /* tc: the same call described otherwise */
static int64_t dc[4][SEL_MAX_RANK];
static sel_broadcast bc;
static int cold;

/* The calls callgrind counts (--toggle-collect=h_icount_calls). */
__attribute__((noinline)) void h_icount_calls(const sel_impl *im,
                                              sel_broadcast b, long n);
__attribute__((noinline)) void h_icount_calls(const sel_impl *im,
                                              sel_broadcast b, long n)
{
    for (long i = 0; i < n; i++)
        if ((cold && (i & 1)
                 ? im->execute(&tc[0], &tc[1], &tc[2], bc, &tc[3])
                 : im->execute(&t[0], &t[1], &t[2], b, &t[3])) != SEL_OK)
            exit(1);
}

/* bench_run.c's cold_setup: a leading 1 on every tensor (ranks < 8, numpy
 * or none), else (numpy one way) the bidirectional flag. */
static int cold_setup(sel_broadcast b)
{
    int32_t top = 0;
    bc = b;
    for (int k = 0; k < 4; k++) {
        top = t[k].rank > top ? t[k].rank : top;
        tc[k] = t[k];
    }
    if (top < SEL_MAX_RANK && b.type != SEL_BROADCAST_PDPD) {
        for (int k = 0; k < 4; k++) {
            dc[k][0] = 1;
            memcpy(dc[k] + 1, t[k].dims, sizeof(int64_t) * (size_t)t[k].rank);
            tc[k].rank = t[k].rank + 1, tc[k].dims = dc[k];
        }
        return 1;
    }
    if (b.type != SEL_BROADCAST_NUMPY || (b.flags & SEL_COND_BIDIRECTIONAL))
        return 0;
    bc.flags |= SEL_COND_BIDIRECTIONAL;
    return 1;
}

/* The same, not counted: one-time setup (tables, the ISA) happens here. */
__attribute__((noinline)) static void warm(const sel_impl *im,
                                           sel_broadcast b)
{
    for (int i = 0; i < 10; i++)
        if (im->execute(&t[0], &t[1], &t[2], b, &t[3]) != SEL_OK)
            exit(1);
    if (cold && im->execute(&tc[0], &tc[1], &tc[2], bc, &tc[3]) != SEL_OK)
        exit(1); /* the first counted call misses too */
}

static int list(void)
{
    char spec[256];
    h_works_default();
    for (int i = 0; i < h_nworks; i++) {
        if (h_works[i].goal_kind != H_GOAL_NS)
            continue;
        h_work_spec(&h_works[i], spec, sizeof spec);
        printf("%s %s\n", h_works[i].name, spec);
    }
    return 0;
}

int main(int argc, char **argv)
{
    const sel_impl *im = opt_impl();
    static h_work w;
    int64_t dd[SEL_MAX_RANK];
    long calls;

    if (argc == 2 && !strcmp(argv[1], "--list"))
        return list();
    cold = argc == 4 && !strcmp(argv[3], "cold");
    if ((argc != 3 && !cold) || h_work_parse(argv[1], &w) ||
        (calls = atol(argv[2])) < 1) {
        fprintf(stderr, "usage: bench_icount --list | SPEC CALLS [cold]\n");
        return 2;
    }
    for (int k = 0; k < 3; k++) {
        const size_t es = k ? sel_dtype_size(w.dtype) : 1;
        const size_t bytes = (size_t)h_count(w.dims[k], w.rank[k]) * es;
        t[k] = (sel_tensor){k ? w.dtype : SEL_DT_BOOLEAN, w.rank[k],
                            w.dims[k], h_alloc(bytes + 1)};
        h_fill(t[k].data, bytes, (uint64_t)k + 1, k == 0);
    }
    t[3].dtype = w.dtype, t[3].dims = dd;
    if (im->infer(&t[0], &t[1], &t[2], w.b, &t[3].rank, dd) != SEL_OK) {
        fprintf(stderr, "bench_icount: %s is not a valid call\n", argv[1]);
        return 2;
    }
    t[3].data = h_alloc((size_t)h_count(dd, t[3].rank) * sel_dtype_size(w.dtype) + 1);
    if (cold && !cold_setup(w.b)) {
        fprintf(stderr, "bench_icount: %s has no second description\n", argv[1]);
        return 2;
    }
    warm(im, w.b);
    h_icount_calls(im, w.b, calls);
    return 0;
}
