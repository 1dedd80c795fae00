/* bench_numpy.c - numpy.where as a second yardstick: the same shapes and
 * element width timed in a python3 that has numpy (python3-numpy), in the
 * same run as opt.  It is not in the ratio: numpy selects per element with
 * its own loops, so it says how opt compares with what users call.
 *
 * One python process per workload: it builds random arrays of the shapes
 * (cond as bool, then/else as unsigned integers of the element's width:
 * numpy.where moves the same bytes whatever they mean), times batches of
 * np.where(c, t, e) until the budget is spent and prints the median ns.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "bench.h"

static const char script[] =
    "import sys, time\n"
    "import numpy as np\n"
    "a = sys.argv[1:]\n"
    "es, budget = int(a[0]), float(a[1])\n"
    "shape = lambda s: () if s == \"_\" else tuple(int(x) for x in s.split(\"x\"))\n"
    "rng = np.random.default_rng(1)\n"
    "dt = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[es]\n"
    "c = rng.integers(0, 2, shape(a[2]), dtype=np.uint8).astype(bool)\n"
    "t = rng.integers(0, 255, shape(a[3]), dtype=np.uint8).astype(dt)\n"
    "e = rng.integers(0, 255, shape(a[4]), dtype=np.uint8).astype(dt)\n"
    "np.where(c, t, e)\n"
    "t0 = time.perf_counter(); k = 0\n"
    "while time.perf_counter() - t0 < 0.02 or k < 1:\n"
    "    np.where(c, t, e); k += 1\n"
    "batch = max(1, int(k * 0.005 / (time.perf_counter() - t0)))\n"
    "s = []; end = time.perf_counter() + budget\n"
    "while len(s) < 5 or (time.perf_counter() < end and len(s) < 201):\n"
    "    t0 = time.perf_counter_ns()\n"
    "    for i in range(batch): np.where(c, t, e)\n"
    "    s.append((time.perf_counter_ns() - t0) / batch)\n"
    "s.sort(); print(s[len(s) // 2])\n";

/* Single-quoted for sh: the script has no single quote. */
static int run_python(const char *python, const char *args, double *out)
{
    char cmd[4096];
    FILE *p;
    int st, ok;
    snprintf(cmd, sizeof cmd, "%s -c '%s' %s 2>/dev/null", python, script, args);
    if (!(p = popen(cmd, "r")))
        return -1;
    ok = fscanf(p, "%lf", out) == 1;
    st = pclose(p);
    return ok && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

const char *h_numpy_find(void)
{
    static const char *const cand[] = {"/usr/bin/python3", "python3"};
    const char *env = getenv("BENCH_PYTHON");
    char cmd[256];
    if (env && *env)
        return env;
    for (size_t i = 0; i < sizeof cand / sizeof cand[0]; i++) {
        snprintf(cmd, sizeof cmd, "%s -c 'import numpy' >/dev/null 2>&1", cand[i]);
        if (system(cmd) == 0)
            return cand[i];
    }
    return NULL;
}

double h_numpy_time(const h_work *w, const char *python, double budget_s)
{
    char args[600], d[3][160];
    double ns = 0;
    for (int k = 0; k < 3; k++)
        h_dims_str(d[k], sizeof d[k], w->dims[k], w->rank[k]);
    snprintf(args, sizeof args, "%zu %.3f %s %s %s", sel_dtype_size(w->dtype),
             budget_s < 0.2 ? 0.2 : budget_s, d[0], d[1], d[2]);
    if (run_python(python, args, &ns) != 0) {
        fprintf(stderr, "bench: %s: numpy.where did not run\n", w->name);
        return 0;
    }
    return ns;
}
