/* bench.c - `make bench`: Select throughput per workload for the reference,
 * the optimized backend at 1 and 2 threads and any --impl, as the median
 * time, GB/s and the ratio to the fastest streaming pass moving the same
 * bytes; numpy.where as a second yardstick where python3-numpy is present;
 * `--sweep N` for N seeded random shapes.  This file: options and the
 * header; bench_work.c holds the workloads, bench_run.c times one, and
 * bench_sweep.c the sweep.  The table goes to stdout, --csv writes every row
 * (all strategies) for plotting.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "opt.h"

static const sel_impl *load(const char *path)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    sel_get_impl_fn get;
    const sel_impl *impl;
    if (!h || !(get = (sel_get_impl_fn)(uintptr_t)dlsym(h, "sel_get_impl"))) {
        fprintf(stderr, "bench: %s: %s\n", path, dlerror());
        exit(2);
    }
    impl = get();
    if (!impl || impl->abi_version != SEL_ABI_VERSION) {
        fprintf(stderr, "bench: %s: not ABI version %d\n", path, SEL_ABI_VERSION);
        exit(2);
    }
    return impl;
}

typedef struct args {
    h_opts o;
    const char *only;
    int sweep, numpy, kernels; /* numpy: -1 off, 0 default, 1 on */
    uint64_t seed;
} args;

/* Options with a value; 0, or -1 for a bad one. */
static int option(args *a, const char *k, const char *v)
{
    if (!strcmp(k, "--csv")) {
        if (!(a->o.csv = fopen(v, "w"))) {
            perror(v);
            exit(2);
        }
    } else if (!strcmp(k, "--impl")) {
        if (a->o.next == 4)
            return -1;
        a->o.ext[a->o.next++] = load(v);
    } else if (!strcmp(k, "--only")) a->only = v;
    else if (!strcmp(k, "--budget")) a->o.budget_s = atof(v);
    else if (!strcmp(k, "--ref-max")) a->o.ref_max = atoll(v);
    else if (!strcmp(k, "--sweep")) a->sweep = atoi(v);
    else if (!strcmp(k, "--seed")) a->seed = strtoull(v, NULL, 10);
    else if (!strcmp(k, "--workload")) {
        if (h_nworks == H_MAX_WORKS || h_work_parse(v, &h_works[h_nworks]) != 0)
            return -1;
        h_nworks++;
    } else if (!strcmp(k, "--par-min") || !strcmp(k, "--nt-min")) {
        opt_tuning t; /* opt's thresholds, for measuring them */
        opt_tuning_get(&t);
        *(k[2] == 'p' ? &t.parallel_min : &t.nt_min) = (size_t)atoll(v);
        opt_tuning_set(&t);
    } else
        return -1;
    return 0;
}

static int parse_args(args *a, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *k = argv[i];
        if (!strcmp(k, "--quick")) a->o.budget_s = 0.15, a->o.min_rounds = 5;
        else if (!strcmp(k, "--min")) a->o.use_min = 1;
        else if (!strcmp(k, "--yardsticks")) a->o.all_yards = 1;
        else if (!strcmp(k, "--kernels")) a->kernels = 1;
        else if (!strcmp(k, "--numpy")) a->numpy = 1;
        else if (!strcmp(k, "--no-numpy")) a->numpy = -1;
        else if (i + 1 == argc || option(a, k, argv[i + 1]) != 0)
            return -1;
        else
            i++;
    }
    return 0;
}

static void header(const args *a)
{
    char model[128] = "?", fam[16] = "?", mod[16] = "?", line[256];
    FILE *f = fopen("/proc/cpuinfo", "r");
    opt_tuning tu;
    /* The family and model name the microarchitecture (AMD 25 = Zen 3/4,
     * 26 = Zen 5); "AMD EPYC" alone does not, and opt's choices differ. */
    while (f && fgets(line, sizeof line, f) && strncmp(line, "model name", 10)) {
        char *v = strchr(line, ':');
        if (v && !strncmp(line, "cpu family", 10))
            snprintf(fam, sizeof fam, "%s", v + 2);
        else if (v && !strncmp(line, "model\t", 6))
            snprintf(mod, sizeof mod, "%s", v + 2);
    }
    if (f && strchr(line, ':')) {
        snprintf(model, sizeof model, "%s", strchr(line, ':') + 2);
        model[strcspn(model, "\n")] = 0;
    }
    fam[strcspn(fam, "\n")] = 0, mod[strcspn(mod, "\n")] = 0;
    if (f)
        fclose(f);
    opt_tuning_get(&tu);
    printf("# bench: %s (family %s model %s); opt %s%s, yardstick %s; threads online %d; "
           "parallel >= %zu KiB, streams above %zu MiB of footprint\n", model, fam, mod,
           opt_isa_name(opt_isa_active()), opt_cpu_split512() ? " (split512)" : "",
           h_stream_isa(), opt_threads(), tu.parallel_min >> 10, tu.nt_min >> 20);
    printf("# yardsticks (no select, the bytes of the call, same store policy and pool as opt):\n"
           "#   fused: all streams advance together per output vector (dst = then ^ else ^ "
           "cond); tiled: per KiB of dst,\n#   each input's share in turn; copy: per 256 KiB "
           "of dst, the other inputs' shares, then memcpy of then (or else)\n");
    printf("# %s over interleaved rounds; GB/s = (bytes read + written, broadcast inputs "
           "once) / time;\n# stream = GB/s of the fastest yardstick at the same thread "
           "count (its name in the last column);\n# ratio = median over rounds of that "
           "yardstick's time / impl time (slow runners: GB/s over stream GB/s);\n# ref "
           "only up to %lld output elements, timed in rounds of its own; numpy.where: %s\n",
           a->o.use_min ? "fastest" : "median", (long long)a->o.ref_max,
           a->o.python ? a->o.python : "not timed (no python3 with numpy, or --quick)");
    printf("%-18s %-12s %3s %12s %8s %8s %6s  %s\n", "workload", "impl", "thr", "median",
           "GB/s", "stream", "ratio", "yard");
    if (a->o.csv)
        fprintf(a->o.csv, "workload,impl,threads,elements,bytes,median_ns,gbps,stream_gbps,"
                "ratio,rounds,yardstick\n");
}

int main(int argc, char **argv)
{
    args a = {.o = {2.5, 7, 0, 0, 0, 2, 1 << 20, NULL, {NULL}, 0, NULL, argv[0]},
              .seed = 1};
    int misses = 0, custom;

    if (parse_args(&a, argc, argv) != 0) {
        fprintf(stderr, "usage: %s [--kernels] [--quick] [--min] [--yardsticks] [--csv FILE] "
                "[--impl LIB.so]... [--only SUBSTR] [--budget SECONDS] [--ref-max ELEMENTS]\n"
                "       [--par-min BYTES] [--nt-min BYTES] [--numpy|--no-numpy] "
                "[--sweep N [--seed S]]\n"
                "       [--workload COND:THEN:ELSE[:DTYPE[:MODE[:AXIS]]]]...  (shapes like "
                "4096x1, _ for rank 0; MODE none, numpy, pdpd)\n", argv[0]);
        return 2;
    }
    if (a.kernels) {
        h_bench_kernels();
        return 0;
    }
    if (a.sweep > 0)
        return h_sweep(a.sweep, a.seed, &a.o);
    custom = h_nworks > 0;
    if (!custom)
        h_works_default();
    if (a.numpy > 0 || (a.numpy == 0 && a.o.budget_s >= 0.5))
        a.o.python = h_numpy_find();
    header(&a);
    for (int i = 0; i < h_nworks; i++)
        if (!a.only || strstr(h_works[i].name, a.only)) {
            h_result res;
            h_bench_work(&h_works[i], &a.o, &res);
            misses += res.misses;
        }
    printf("# targets missed: %d\n", misses);
    if (a.o.csv)
        fclose(a.o.csv);
    return 0;
}
