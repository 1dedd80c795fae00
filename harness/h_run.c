/* h_run.c - the loop: every case of every file, under each profile run,
 * for each dtype it expands to, against each implementation: prepare the
 * test once (data, oracle), then lay it out, call the worker, judge, and
 * print one TAP line.  Also --list and --coverage.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "h_judge.h"
#include "h_results.h"
#include "h_run.h"

/* A glob of --only/--skip: * and ? only (brackets are literal). */
static int glob_match(const char *p, const char *s)
{
    for (; *p; p++, s++) {
        if (*p == '*') {
            for (;; s++) {
                if (glob_match(p + 1, s))
                    return 1;
                if (!*s)
                    return 0;
            }
        }
        if (!*s || (*p != '?' && *p != *s))
            return 0;
    }
    return !*s;
}

static int selected(const h_opts *o, const char *addr)
{
    int i, in = o->nonly == 0;

    for (i = 0; i < o->nonly && !in; i++)
        in = glob_match(o->only[i], addr);
    for (i = 0; i < o->nskip && in; i++)
        in = !glob_match(o->skip[i], addr);
    return in;
}

/* The selected dtypes of case c under profile p. */
static int dtypes(const h_opts *o, const h_world *w, const h_case *c,
                  const h_profile *p, int32_t out[SEL_DT_LAST + 1])
{
    int32_t all[SEL_DT_LAST + 1];
    int n = h_point_dtypes(c, p, &w->profiles, all), i, k = 0;
    char addr[300];

    for (i = 0; i < n; i++) {
        snprintf(addr, sizeof addr, "%s:%s[%s]", c->stem, c->id,
                 sel_dtype_name(all[i]));
        if (selected(o, addr))
            out[k++] = all[i];
    }
    return k;
}

static void script_error(const h_case *c)
{
    char desc[1200];
    h_diag d;

    memset(&d, 0, sizeof d);
    snprintf(desc, sizeof desc, "script error: %s", c->error);
    h_diag_str(&d, 0, "message", "%s", c->error);
    h_diag_str(&d, 0, "file", "%s", c->file);
    if (c->line)
        h_diag_raw(&d, 0, "line", "%d", c->line);
    h_tap_line(H_FAIL, desc, NULL, &d);
}

static void repro(const h_opts *o, const h_point *pt, const char *impl,
                  h_diag *d)
{
    char extra[64] = "";

    if (o->strict)
        strcat(extra, " --strict");
    if (o->fast)
        strcat(extra, " --fast");
    if (o->long_run)
        strcat(extra, " --long");
    if (o->timeout != 10)
        snprintf(extra + strlen(extra), sizeof extra - strlen(extra),
                 " --timeout %d", o->timeout);
    h_diag_str(d, 0, "repro", "%s --impl %s --profile %s --seed %llu%s "
               "--only '%s' %s", o->self, impl, pt->prof->name,
               (unsigned long long)pt->seed, extra, pt->addr, pt->c->file);
}

/* The reference runs in this process, trusted.  If this process crashes
 * anyway, say on which test, as TAP's "Bail out!", not silently.  stdout
 * is flushed before each test so no line is lost. */
static char bail[512];
static size_t bail_len;

static void on_oracle_crash(int sig)
{
    static const char err[] = "selcheck: crashed; see the Bail out! line\n";
    if (write(1, bail, bail_len) < 0 || write(2, err, sizeof err - 1) < 0)
        sig = 0;
    signal(sig ? sig : SIGSEGV, SIG_DFL);
    _exit(2);
}

static void guard_oracle(void)
{
    static const int sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
    size_t i;
    for (i = 0; i < sizeof sigs / sizeof *sigs; i++)
        signal(sigs[i], on_oracle_crash);
}

static void oracle_on(const char *addr, const char *profile)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        if (errno != EPIPE) /* a reader that stopped reading is no news */
            fprintf(stderr, "selcheck: cannot write TAP to stdout\n");
        exit(2); /* the workers see EOF and exit */
    }
    bail_len = (size_t)snprintf(bail, sizeof bail, "Bail out! selcheck "
                                "crashed on %s under %s (in the reference "
                                "or the harness)\n", addr, profile);
    if (bail_len >= sizeof bail)
        bail_len = sizeof bail - 1;
    bail[bail_len - 1] = 0; /* the text on one line, then its newline */
    h_tap_oneline(bail);
    bail[bail_len - 1] = '\n';
}

/* A case with reuse (IO-REUSE-1): once it passed, the test again at the
 * very same addresses with new data and a new poison, so that an
 * implementation caching anything by address fails. */
static void reuse(const h_opts *o, h_world *w, const h_point *pt, int i,
                  h_verdict *v)
{
    static h_layout L;
    const uint64_t salt = 0x9e3779b97f4a7c15ull;
    h_point p2;
    h_jres res;

    h_point_make(&p2, pt->c, pt->prof, pt->dtype, pt->seed ^ salt, o->fast);
    memcpy(p2.shift, pt->shift, sizeof p2.shift); /* same addresses */
    if (p2.refused[0]) {
        h_point_free(&p2);
        return;
    }
    if (!h_judge_point(&p2, v)) {
        uint8_t *arena = h_worker_arena(w->w[i], h_layout_need(&p2, o->fast));
        h_layout_build(&L, &p2, arena, o->fast);
        h_worker_call(w->w[i], &L.job, o->timeout, &res);
        h_judge(&p2, &L, &res, o->strict, v);
    }
    if (v->outcome == H_FAIL) { /* the message says which call failed */
        const char *rest = strchr(v->diag.buf, '\n');
        h_diag d;
        memset(&d, 0, sizeof d);
        h_diag_str(&d, 0, "message", "second call at the same addresses, "
                   "new data (IO-REUSE-1; its seed %llu): %.900s",
                   (unsigned long long)p2.seed, v->reason);
        if (rest && d.len + strlen(rest + 1) < sizeof d.buf) {
            memcpy(d.buf + d.len, rest + 1, strlen(rest + 1) + 1);
            d.len += strlen(rest + 1);
        }
        v->diag = d;
    }
    h_point_free(&p2);
}

/* A concurrent case's second thread (IO-THREADS-1): the same case with
 * other data and, when the case names them, other shapes, so that state
 * shared between calls shows (two calls that want the same answer hide
 * it).  1 when p2 was made and is pt's partner. */
static int make_partner(const h_opts *o, h_point *pt, h_point *p2)
{
    static h_case cc;
    const uint64_t salt = 0x7f4a7c159e3779b9ull;

    if (!pt->c->concurrent || o->fast || !pt->valid || pt->refused[0] ||
        pt->error[0] || pt->litmsg[0] || pt->checkmsg[0])
        return 0;
    cc = *pt->c;
    if (cc.has_conc_shapes)
        memcpy(cc.shape, cc.conc_shape, sizeof cc.shape);
    cc.expect[0].kind = cc.expect[1].kind = H_E_NONE; /* its own shapes */
    cc.check = 0;
    cc.reuse = 0;
    h_point_make(p2, &cc, pt->prof, pt->dtype, pt->seed ^ salt, o->fast);
    if (p2->refused[0])
        snprintf(pt->refused, sizeof pt->refused, "%s", p2->refused);
    else if (p2->error[0] || !p2->valid)
        h_point_fail(pt, "concurrent", p2->error[0] ? p2->error
                     : "the second thread's shapes are not valid here");
    if (pt->refused[0] || pt->error[0]) {
        h_point_free(p2);
        return 0;
    }
    pt->partner = p2;
    return 1;
}

static void one_test(const h_opts *o, h_world *w, h_point *pt, int i)
{
    static h_layout L;
    char desc[700];
    h_verdict v;
    h_jres res;
    h_point p2;
    int partner = make_partner(o, pt, &p2);

    h_results_case(pt->addr);
    snprintf(desc, sizeof desc, "%s %s [%s %s] seed=%llu digest=%016llx",
             pt->addr, pt->desc, pt->prof->name, h_worker_name(w->w[i]),
             (unsigned long long)pt->seed, (unsigned long long)pt->digest);
    if (pt->refused[0]) { /* h_mem.c: too large for this machine */
        memset(&v, 0, sizeof v);
        v.outcome = H_SKIP;
        snprintf(v.reason, sizeof v.reason, "%s", pt->refused);
    } else if (!h_judge_point(pt, &v)) {
        uint8_t *arena = h_worker_arena(w->w[i], h_layout_need(pt, o->fast));
        h_layout_build(&L, pt, arena, o->fast);
        h_worker_call(w->w[i], &L.job, o->timeout, &res);
        h_judge(pt, &L, &res, o->strict, &v);
        if (v.outcome == H_FAIL && !res.died)
            h_diag_raw(&v.diag, 0, "poison_seed", "0x%016llx (odd runs: its "
                       "complement)", (unsigned long long)L.poison_seed);
        if (v.outcome == H_PASS && pt->c->reuse)
            reuse(o, w, pt, i, &v);
    }
    if (v.outcome == H_FAIL)
        repro(o, pt, h_worker_path(w->w[i]), &v.diag);
    h_tap_line(v.outcome, desc, v.reason,
               v.outcome == H_FAIL ? &v.diag : NULL);
    h_results_add(pt, h_worker_name(w->w[i]), &v); /* diagnosis, reports */
    if (partner) {
        pt->partner = NULL;
        h_point_free(&p2);
    }
}

int h_run_tap(const h_opts *o, h_world *w)
{
    int32_t dt[SEL_DT_LAST + 1];
    long plan = 0;
    size_t ci;
    int p, k, i, n;
    h_point pt;

    for (ci = 0; ci < w->suite.n; ci++) {
        const h_case *c = &w->suite.v[ci];
        if (c->error) {
            plan++;
            continue;
        }
        for (p = 0; p < w->nsel; p++)
            plan += (long)dtypes(o, w, c, &w->profiles.v[w->sel[p]], dt) *
                    w->nw;
    }
    h_tap_begin();
    h_tap_comment("profile: %s", o->profile);
    for (i = 0; i < w->nw; i++)
        h_tap_comment("impl: %s (%s)", h_worker_name(w->w[i]),
                      h_worker_path(w->w[i]));
    h_tap_comment("seed: %llu", (unsigned long long)o->seed);
    h_tap_plan(plan);
    h_results_begin(o, w, plan);
    guard_oracle();
    for (ci = 0; ci < w->suite.n; ci++) {
        const h_case *c = &w->suite.v[ci];
        if (c->error) {
            script_error(c);
            continue;
        }
        for (p = 0; p < w->nsel; p++) {
            const h_profile *pr = &w->profiles.v[w->sel[p]];
            n = dtypes(o, w, c, pr, dt);
            for (k = 0; k < n; k++) {
                char addr[300];
                snprintf(addr, sizeof addr, "%s:%s[%s]", c->stem, c->id,
                         sel_dtype_name(dt[k]));
                oracle_on(addr, pr->name);
                h_point_make(&pt, c, pr, dt[k], o->seed, o->fast);
                for (i = 0; i < w->nw; i++)
                    one_test(o, w, &pt, i);
                h_point_free(&pt);
            }
        }
    }
    h_results_end(); /* the diagnosis, --junit, --report, --results */
    h_tap_summary();
    fflush(stdout);
    return h_tap_failures() ? 1 : 0;
}

static int report_errors(const h_world *w)
{
    size_t ci;
    int bad = 0;

    for (ci = 0; ci < w->suite.n; ci++)
        if (w->suite.v[ci].error) {
            fprintf(stderr, "selcheck: script error: %s\n",
                    w->suite.v[ci].error);
            bad = 1;
        }
    return bad;
}

int h_run_list(const h_opts *o, h_world *w)
{
    int32_t dt[SEL_DT_LAST + 1];
    size_t ci;
    int p, k, n;
    h_point pt;

    for (ci = 0; ci < w->suite.n; ci++) {
        const h_case *c = &w->suite.v[ci];
        for (p = 0; p < w->nsel && !c->error; p++) {
            const h_profile *pr = &w->profiles.v[w->sel[p]];
            n = dtypes(o, w, c, pr, dt);
            for (k = 0; k < n; k++) {
                /* The description only: no data, no oracle. */
                h_point_describe(&pt, c, dt[k]);
                printf("%s %s [%s]\n", pt.addr, pt.desc, pr->name);
            }
        }
    }
    return report_errors(w);
}

int h_run_coverage(const h_opts *o, h_world *w)
{
    int32_t dt[SEL_DT_LAST + 1];
    int r, p, k, bad = report_errors(w), zero = 0;
    size_t ci;

    (void)o;
    for (r = 0; r < w->suite.nrules; r++) {
        long cases = 0, points = 0;
        for (ci = 0; ci < w->suite.n; ci++) {
            const h_case *c = &w->suite.v[ci];
            int cites = 0;
            for (k = 0; !c->error && k < c->nrules; k++)
                cites |= strcmp(c->rules[k], w->suite.ruleids[r]) == 0;
            if (!cites)
                continue;
            cases++;
            for (p = 0; p < w->profiles.n; p++)
                points += h_point_dtypes(c, &w->profiles.v[p], &w->profiles,
                                         dt);
        }
        printf("%-16s cases=%ld tests=%ld\n", w->suite.ruleids[r], cases,
               points);
        zero += points == 0;
    }
    if (zero)
        fprintf(stderr, "selcheck: %d rule(s) without a test\n", zero);
    return bad || zero ? 1 : 0;
}
