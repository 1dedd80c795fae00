/* h_main.c - selcheck's entry point: options, where spec/ and cases/ are
 * (SELCHECK_HOME, the installed share/selcheck, or the source tree), the
 * default implementation, loading the scripts; then h_run.c takes over.
 * Exit 0: all passed; 1: a failure; 2: a usage or setup error.
 */
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "h_front.h"
#include "h_results.h"
#include "h_run.h"

#ifndef H_HOME
#define H_HOME "."
#endif
/* From harness/pkg/VERSION, the one place the version is written. */
#ifndef H_VERSION
#define H_VERSION "unknown"
#endif

static const char usage[] =
    "usage: selcheck [options] [case files...]\n"
    "Checks implementations of Select (spec/select.h) against the reference\n"
    "and prints TAP version 13.  With no files, runs every cases/*.lua.\n"
    "  --impl PATH      a shared library exporting sel_get_impl (repeatable;\n"
    "                   default: the optimized backend, else the reference)\n"
    "  --profile NAME   a profile of spec/profiles.lua, or all (default openvino)\n"
    "  --only GLOB      run only cases whose address (file:id[dtype]) matches;\n"
    "                   * and ? are wildcards, brackets are literal (repeatable)\n"
    "  --skip GLOB      skip cases whose address matches (repeatable)\n"
    "  --list           print the cases that would run, run nothing\n"
    "  --coverage       print every rule of spec/select.md with its test count\n"
    "  --seed N         data seed (default 1)\n"
    "  --strict         accepting an invalid case fails (default: TODO)\n"
    "  --long           also the long enumerations (scripts see long_run)\n"
    "  --timeout S      seconds per test before a hang is reported (default 10)\n"
    "  --fast           one run per test (buffers against a guard page) instead\n"
    "                   of four (also at a guard page's start, misaligned, threads)\n"
    "  --junit FILE     also write JUnit XML: one testcase per test\n"
    "  --report FILE    also write an HTML page: summary, clusters, rules, failures\n"
    "  --results FILE   also write one line per test (TSV) for --matrix\n"
    "  --matrix OUT.html RESULTS...  render results files as one matrix page\n"
    "  --help           this text\n"
    "  --version        print the version and the Lua it embeds\n"
    "Exit status: 0 all passed, 1 a failure, 2 a usage or setup error.\n"
    "Environment: SELCHECK_HOME, the directory holding spec/ and cases/.\n";

static void die(const char *fmt, const char *a)
{
    fprintf(stderr, "selcheck: ");
    fprintf(stderr, fmt, a);
    fputc('\n', stderr);
    exit(2);
}

static int exists(const char *path)
{
    return access(path, R_OK) == 0;
}

/* The directory of the running executable. */
static void exe_dir(const char *argv0, char *out, size_t n)
{
    ssize_t len = readlink("/proc/self/exe", out, n - 1);
    char *slash;

    if (len <= 0)
        snprintf(out, n, "%s", argv0);
    else
        out[len] = 0;
    slash = strrchr(out, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(out, n, ".");
}

static void find_home(const char *dir, char *home, size_t n)
{
    char p[2048];
    const char *env = getenv("SELCHECK_HOME");

    snprintf(p, sizeof p, "%s/../share/selcheck/spec/profiles.lua", dir);
    if (env && *env)
        snprintf(home, n, "%s", env);
    else if (exists(p))
        snprintf(home, n, "%s/../share/selcheck", dir);
    else
        snprintf(home, n, "%s", H_HOME);
}

static const char *default_impl(const char *dir)
{
    static const char *const names[] = {
        "libselect_opt.so", "libselect_ref.so",
        "../lib/selcheck/libselect_opt.so",
        "../lib/selcheck/libselect_ref.so"};
    static char p[2048];
    size_t i;

    for (i = 0; i < sizeof names / sizeof *names; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        if (exists(p))
            return p;
    }
    die("%s", "no implementation found next to selcheck: pass --impl PATH");
    return NULL;
}

static const char *need_arg(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc)
        die("option %s needs a value (see --help)", argv[*i]);
    return argv[++*i];
}

static int parse_int(const char *s, long long lo, long long hi, long long *v)
{
    char *end;
    *v = strtoll(s, &end, 10);
    return *s && !*end && *v >= lo && *v <= hi;
}

/* Options first, then files; returns the index of the first file. */
static h_outs outs;
static const char *matrix;

static int parse(int argc, char **argv, h_opts *o)
{
    int i;
    long long v;

    for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            i++;
            break;
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage, stdout);
            exit(0);
        } else if (!strcmp(a, "--version")) {
            printf("selcheck %s (%s)\n", H_VERSION, h_front_name());
            exit(0);
        } else if (!strcmp(a, "--impl")) {
            if (o->nimpl == H_MAX_IMPLS)
                die("%s", "too many --impl");
            o->impls[o->nimpl++] = need_arg(argc, argv, &i);
        } else if (!strcmp(a, "--profile")) {
            o->profile = need_arg(argc, argv, &i);
        } else if (!strcmp(a, "--only") || !strcmp(a, "--skip")) {
            int only = a[2] == 'o';
            int *n = only ? &o->nonly : &o->nskip;
            if (*n == H_MAX_GLOBS)
                die("too many %s", a);
            (only ? o->only : o->skip)[(*n)++] = need_arg(argc, argv, &i);
        } else if (!strcmp(a, "--list")) {
            o->list = 1;
        } else if (!strcmp(a, "--coverage")) {
            o->coverage = 1;
        } else if (!strcmp(a, "--strict")) {
            o->strict = 1;
        } else if (!strcmp(a, "--fast")) {
            o->fast = 1;
        } else if (!strcmp(a, "--long")) {
            o->long_run = 1;
        } else if (!strcmp(a, "--junit")) {
            outs.junit = need_arg(argc, argv, &i);
        } else if (!strcmp(a, "--report")) {
            outs.report = need_arg(argc, argv, &i);
        } else if (!strcmp(a, "--results")) {
            outs.results = need_arg(argc, argv, &i);
        } else if (!strcmp(a, "--matrix")) {
            matrix = need_arg(argc, argv, &i);
        } else if (!strcmp(a, "--seed")) {
            const char *s = need_arg(argc, argv, &i);
            char *end;
            o->seed = strtoull(s, &end, 10);
            if (!*s || *end || *s == '-')
                die("--seed %s: want a non-negative integer", s);
        } else if (!strcmp(a, "--timeout")) {
            const char *s = need_arg(argc, argv, &i);
            if (!parse_int(s, 1, 86400, &v))
                die("--timeout %s: want seconds, 1..86400", s);
            o->timeout = (int)v;
        } else {
            die("unknown option '%s' (see --help)", a);
        }
    }
    return i;
}

/* The repro line names the selcheck next to the one running (selcheck
 * and selcheck-jit print the same TAP, so the same line). */
static void set_self(const char *argv0, h_opts *o)
{
    const char *slash = strrchr(argv0, '/');

    if (slash)
        snprintf(o->self, sizeof o->self, "%.*s/selcheck",
                 (int)(slash - argv0), argv0);
    else
        snprintf(o->self, sizeof o->self, "selcheck");
}

static char *stem_of(const char *path)
{
    const char *b = strrchr(path, '/');
    size_t len;
    char *s;

    b = b ? b + 1 : path;
    len = strlen(b);
    if (len > 4 && strcmp(b + len - 4, ".lua") == 0)
        len -= 4;
    s = h_realloc(NULL, len + 1);
    memcpy(s, b, len);
    s[len] = 0;
    return s;
}

static void select_profiles(const h_opts *o, h_world *w)
{
    int i;

    for (i = 0; i < w->profiles.n; i++)
        if (!strcmp(o->profile, "all") ||
            !strcmp(o->profile, w->profiles.v[i].name))
            w->sel[w->nsel++] = i;
    if (w->nsel == 0)
        die("unknown profile '%s' (see spec/profiles.lua, or all)",
            o->profile);
}

/* --matrix OUT.html RESULTS...: several runs' results files on one page
 * (rules in spec order). */
static int render_matrix(const h_suite *s, char **files, int n)
{
    static h_runset runs[64];
    char err[600];
    int i;

    if (n < 1 || n > 64)
        die("%s", "--matrix wants 1 to 64 results files (--results FILE)");
    for (i = 0; i < n; i++) {
        runs[i].ruleids = s->ruleids;
        runs[i].nrules = s->nrules;
        h_runset_set(&runs[i], "file", "%s", files[i]);
        if (h_results_read(files[i], &runs[i], err, sizeof err) != 0)
            die("%s", err);
    }
    return h_report_matrix(runs, n, matrix) == 0 ? 0 : 2;
}

int main(int argc, char **argv)
{
    /* Static: what the run loaded stays reachable to the end. */
    static h_opts o;
    static h_world w;
    static glob_t g;
    char dir[1024], home[2048], path[4096], err[600];
    char **files;
    int first, nfiles, i, st;

    o.profile = "openvino";
    o.seed = 1;
    o.timeout = 10;
    first = parse(argc, argv, &o);
    set_self(argv[0], &o);
    exe_dir(argv[0], dir, sizeof dir);
    find_home(dir, home, sizeof home);

    snprintf(path, sizeof path, "%s/spec/profiles.lua", home);
    if (h_front_profiles(path, &w.profiles, err, sizeof err))
        die("%s", err);
    snprintf(path, sizeof path, "%s/spec/select.md", home);
    if (h_load_rules(path, &w.suite, err, sizeof err))
        die("%s", err);
    if (matrix)
        return render_matrix(&w.suite, argv + first, argc - first);
    select_profiles(&o, &w);

    memset(&g, 0, sizeof g);
    if (first < argc) {
        files = argv + first;
        nfiles = argc - first;
    } else {
        snprintf(path, sizeof path, "%s/cases/*.lua", home);
        if (glob(path, 0, NULL, &g) != 0 || g.gl_pathc == 0)
            die("no case files in %s/cases", home);
        files = g.gl_pathv;
        nfiles = (int)g.gl_pathc;
    }
    for (i = 0; i < nfiles; i++)
        if (!exists(files[i]))
            die("cannot read case file %s", files[i]);
    for (i = 0; i < nfiles; i++)
        if (h_front_run_file(files[i], stem_of(files[i]), &w.suite,
                             &w.profiles, o.timeout * 6, o.long_run) != 0)
            die("cannot read case file %s", files[i]);

    if (o.coverage)
        return h_run_coverage(&o, &w);
    if (o.list)
        return h_run_list(&o, &w);
    if (o.nimpl == 0)
        o.impls[o.nimpl++] = default_impl(dir);
    for (i = 0; i < o.nimpl; i++) {
        w.w[w.nw] = h_worker_start(o.impls[i], (size_t)64 << 20, o.timeout,
                                   err, sizeof err);
        if (!w.w[w.nw])
            die("%s", err);
        w.nw++;
    }
    outs.version = H_VERSION;
    h_results_outputs(&outs);
    st = h_run_tap(&o, &w);
    for (i = 0; i < w.nw; i++)
        h_worker_stop(w.w[i]);
    return h_results_failed() ? 2 : st;
}
