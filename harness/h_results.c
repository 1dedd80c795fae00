/* h_results.c - keeps every test's result for the end of the run (the
 * hooks h_tap.c and h_run.c call, with the run's settings), then prints
 * the diagnosis and writes the files asked for.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "h_feat.h"
#include "h_front.h"

static h_runset run;
static h_outs out;
static long kept_diags;
static struct timespec t_last;

static double since_last(void)
{
    struct timespec now;
    double d;

    clock_gettime(CLOCK_MONOTONIC, &now);
    d = (double)(now.tv_sec - t_last.tv_sec) +
        (double)(now.tv_nsec - t_last.tv_nsec) / 1e9;
    t_last = now;
    return d;
}

void h_results_begin(const h_opts *o, const h_world *w, long plan)
{
    struct utsname u;
    char when[64];
    time_t now = time(NULL);
    int i;

    run.ruleids = w->suite.ruleids;
    run.nrules = w->suite.nrules;
    if (out.version)
        h_runset_set(&run, "version", "selcheck %s", out.version);
    h_runset_set(&run, "front end", "%s (ABI version %d)", h_front_name(),
                 SEL_ABI_VERSION);
    for (i = 0; i < w->nw; i++)
        h_runset_set(&run, "impl", "%s (%s)", h_worker_name(w->w[i]),
                     h_worker_path(w->w[i]));
    h_runset_set(&run, "profile", "%s", o->profile);
    h_runset_set(&run, "seed", "%llu", (unsigned long long)o->seed);
    h_runset_set(&run, "options", "timeout %d s%s%s%s%s", o->timeout,
                 o->strict ? ", --strict" : "", o->fast ? ", --fast" : "",
                 o->long_run ? ", --long" : "",
                 o->nonly || o->nskip ? ", --only/--skip" : "");
    for (i = 0; i < o->nonly; i++)
        h_runset_set(&run, "only", "%s", o->only[i]);
    for (i = 0; i < o->nskip; i++)
        h_runset_set(&run, "skip", "%s", o->skip[i]);
    h_runset_set(&run, "tests", "%ld", plan);
    if (uname(&u) == 0)
        h_runset_set(&run, "host", "%s %s %s", u.sysname, u.release,
                     u.machine);
    strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", gmtime(&now));
    h_runset_set(&run, "date", "%s", when);
    since_last();
    h_progress_begin(plan);
}

void h_results_case(const char *addr)
{
    h_progress_case(addr);
}

/* The repro line out of the YAML body: the last "repro:" string. */
static char *repro_of(const char *diag)
{
    const char *p = strstr(diag, "repro: \""), *s;
    char *out, *q;

    if (!p)
        return h_strdup("");
    out = q = h_realloc(NULL, strlen(p) + 1);
    for (s = p + 8; *s && *s != '"' && *s != '\n'; s++) {
        if (*s == '\\' && s[1])
            s++;
        *q++ = *s;
    }
    *q = 0;
    return out;
}

/* Every TAP line (h_tap.c): a record, filled further by h_results_add
 * when the line is a test of a point (script errors stay as they are). */
void h_results_line(int outcome, const char *desc, const char *reason,
                    const h_diag *d)
{
    h_rec *r;

    if (run.n == run.cap) {
        run.cap = run.cap ? run.cap * 2 : 1024;
        run.v = h_realloc(run.v, run.cap * sizeof *run.v);
    }
    r = &run.v[run.n++];
    memset(r, 0, sizeof *r);
    r->n = (long)run.n;
    r->outcome = outcome;
    r->impl = h_strdup("");
    r->profile = h_strdup("");
    r->file = h_strdup("");
    r->addr = h_strdup(desc);
    r->dtype = h_strdup("");
    r->mode = h_strdup("");
    r->rules = h_strdup("");
    r->desc = h_strdup(desc);
    r->reason = h_strdup(outcome == H_PASS ? "" : reason ? reason : desc);
    /* The YAML blocks of the first H_KEEP_DIAGS failures: the pages show
     * them; a run with more has them in its TAP. */
    r->diag = h_strdup(outcome == H_FAIL && d && kept_diags++ < H_KEEP_DIAGS
                           ? d->buf : "");
    r->repro = outcome == H_FAIL && d ? repro_of(d->buf) : h_strdup("");
    r->secs = since_last();
    r->cluster = -1;
    h_progress_result(outcome);
}

static void reset(char **field, const char *s)
{
    free(*field);
    *field = h_strdup(s);
}

void h_results_add(const h_point *pt, const char *impl, const h_verdict *v)
{
    char rules[1200];
    size_t used = 0;
    h_rec *r = run.n ? &run.v[run.n - 1] : NULL;
    int i;

    if (!r)
        return;
    reset(&r->impl, impl);
    reset(&r->profile, pt->prof->name);
    reset(&r->file, pt->c->file);
    reset(&r->addr, pt->addr);
    reset(&r->dtype, sel_dtype_name(pt->dtype));
    reset(&r->mode, sel_broadcast_name(pt->b.type));
    rules[0] = 0;
    for (i = 0; i < pt->c->nrules && used < sizeof rules; i++)
        used += (size_t)snprintf(rules + used, sizeof rules - used, "%s%s",
                                 i ? ", " : "", pt->c->rules[i]);
    reset(&r->rules, rules);
    r->size = 0;
    for (i = 0; i < H_NT; i++)
        r->size += (long long)pt->t[i].bytes;
    h_feat_point(pt, r->feat);
    if (v->outcome == H_FAIL)
        h_feat_verdict(v, r->feat);
}

static int failed_output;

void h_results_outputs(const h_outs *outs)
{
    out = *outs;
}

int h_results_failed(void)
{
    return failed_output;
}

void h_results_end(void)
{
    const h_outs *outs = &out;
    FILE *f;

    h_progress_end();
    h_cluster_run(&run);
    h_cluster_tap(&run);
    if (outs->results) {
        f = fopen(outs->results, "w");
        if (!f || h_results_write(&run, f) != 0 || fclose(f) != 0) {
            fprintf(stderr, "selcheck: cannot write %s: %s\n", outs->results,
                    strerror(errno));
            failed_output = 1;
        }
    }
    if (outs->junit && h_junit_write(&run, outs->junit) != 0)
        failed_output = 1;
    if (outs->report && h_report_write(&run, outs->report) != 0)
        failed_output = 1;
}
