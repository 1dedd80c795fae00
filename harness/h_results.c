/* h_results.c - keeps every test's result for the end of the run (the
 * hooks h_run.c calls), then prints the diagnosis and writes the files
 * asked for; the results file, written and read back (--matrix).
 */
#include <errno.h>
#include <stdarg.h>
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

char *h_strdup(const char *s)
{
    size_t n = strlen(s ? s : "") + 1;
    char *d = h_realloc(NULL, n);
    memcpy(d, s ? s : "", n);
    return d;
}

void h_runset_set(h_runset *rs, const char *key, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;

    if (rs->nset == H_MAX_SET)
        return;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    rs->key[rs->nset] = h_strdup(key);
    rs->val[rs->nset++] = h_strdup(buf);
}

const char *h_runset_get(const h_runset *rs, const char *key)
{
    int i;
    for (i = 0; i < rs->nset; i++)
        if (!strcmp(rs->key[i], key))
            return rs->val[i];
    return NULL;
}

int h_rec_cites(const h_rec *r, const char *rule)
{
    size_t n = strlen(rule);
    const char *p = r->rules;

    while ((p = strstr(p, rule)) != NULL) {
        if ((p == r->rules || p[-1] == ' ') && (p[n] == ',' || !p[n]))
            return 1;
        p += n;
    }
    return 0;
}

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

/* A field on one line: tabs and line breaks become spaces. */
static void put_field(FILE *f, const char *s, int last)
{
    for (; s && *s; s++)
        fputc(*s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s, f);
    fputc(last ? '\n' : '\t', f);
}

static const char *const columns[] = {
    "n", "impl", "profile", "file", "address", "dtype", "mode", "rules",
    "verdict", "cluster", "reason", "repro"};
#define NCOL (sizeof columns / sizeof *columns)

int h_results_write(const h_runset *rs, FILE *f)
{
    char num[32];
    size_t i, k;
    int c;

    fprintf(f, "# selcheck results 1\n");
    for (c = 0; c < rs->nset; c++) {
        fputs("# set\t", f);
        put_field(f, rs->key[c], 0);
        put_field(f, rs->val[c], 1);
    }
    for (c = 0; c < rs->ncl; c++) {
        const h_cluster *cl = &rs->cl[c];
        fprintf(f, "# cluster\t%d\t", c + 1);
        put_field(f, cl->impl, 0);
        fprintf(f, "%ld\t%ld\t", cl->count, rs->v[cl->repro].n);
        put_field(f, cl->kind, 0);
        put_field(f, cl->kinds, 0);
        put_field(f, cl->name, 0);
        put_field(f, cl->pattern, 0);
        put_field(f, cl->common, 1);
    }
    for (k = 0; k < NCOL; k++)
        put_field(f, columns[k], k + 1 == NCOL);
    for (i = 0; i < rs->n; i++) {
        const h_rec *r = &rs->v[i];
        fprintf(f, "%ld\t", r->n);
        put_field(f, r->impl, 0);
        put_field(f, r->profile, 0);
        put_field(f, r->file, 0);
        put_field(f, r->addr, 0);
        put_field(f, r->dtype, 0);
        put_field(f, r->mode, 0);
        put_field(f, r->rules, 0);
        put_field(f, h_outcome_word(r->outcome), 0);
        snprintf(num, sizeof num, "%d", r->cluster + 1);
        put_field(f, r->cluster >= 0 ? num : "-", 0);
        put_field(f, r->reason, 0);
        put_field(f, r->repro, 1);
    }
    return ferror(f) ? -1 : 0;
}

/* Splits line (its tabs) into at most max fields; returns how many. */
static int split(char *line, char **fld, int max)
{
    int n = 0;
    char *p = line;

    line[strcspn(line, "\r\n")] = 0;
    while (n < max) {
        fld[n++] = p;
        p = strchr(p, '\t');
        if (!p)
            break;
        *p++ = 0;
    }
    return n;
}

static int outcome_of(const char *w)
{
    int o;
    for (o = H_PASS; o <= H_TODO; o++)
        if (!strcmp(w, h_outcome_word(o)))
            return o;
    return -1;
}

static int read_cluster(h_runset *rs, char **fld, int nf)
{
    h_cluster *cl;

    if (nf != 10)
        return -1;
    rs->cl = h_realloc(rs->cl, (size_t)(rs->ncl + 1) * sizeof *rs->cl);
    cl = &rs->cl[rs->ncl++];
    memset(cl, 0, sizeof *cl);
    snprintf(cl->impl, sizeof cl->impl, "%s", fld[2]);
    cl->count = atol(fld[3]);
    cl->repro = atol(fld[4]); /* a TAP number until the records are read */
    snprintf(cl->kind, sizeof cl->kind, "%s", fld[5]);
    snprintf(cl->kinds, sizeof cl->kinds, "%s", fld[6]);
    snprintf(cl->name, sizeof cl->name, "%s", fld[7]);
    snprintf(cl->pattern, sizeof cl->pattern, "%s", fld[8]);
    snprintf(cl->common, sizeof cl->common, "%s", fld[9]);
    return 0;
}

static int read_rec(h_runset *rs, char **fld, int nf, int cl0)
{
    h_rec *r;

    if (nf != (int)NCOL || outcome_of(fld[8]) < 0)
        return -1;
    if (rs->n == rs->cap) {
        rs->cap = rs->cap ? rs->cap * 2 : 1024;
        rs->v = h_realloc(rs->v, rs->cap * sizeof *rs->v);
    }
    r = &rs->v[rs->n++];
    memset(r, 0, sizeof *r);
    r->n = atol(fld[0]);
    r->impl = h_strdup(fld[1]);
    r->profile = h_strdup(fld[2]);
    r->file = h_strdup(fld[3]);
    r->addr = h_strdup(fld[4]);
    r->desc = h_strdup(fld[4]);
    r->dtype = h_strdup(fld[5]);
    r->mode = h_strdup(fld[6]);
    r->rules = h_strdup(fld[7]);
    r->outcome = outcome_of(fld[8]);
    r->cluster = strcmp(fld[9], "-") ? cl0 + atoi(fld[9]) - 1 : -1;
    r->reason = h_strdup(fld[10]);
    r->repro = h_strdup(fld[11]);
    r->diag = h_strdup("");
    return r->cluster == -1 || (r->cluster >= cl0 && r->cluster < rs->ncl)
               ? 0 : -1;
}

int h_results_read(const char *path, h_runset *rs, char *err, size_t n)
{
    FILE *f = fopen(path, "r");
    char *line = NULL, *fld[16];
    size_t cap = 0, first = rs->n;
    long lineno = 0;
    int cl0 = rs->ncl, nf, c, bad = 0, header = 0;

    if (!f) {
        snprintf(err, n, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    while (!bad && getline(&line, &cap, f) > 0) {
        lineno++;
        nf = split(line, fld, 16);
        if (lineno == 1)
            bad = strcmp(fld[0], "# selcheck results 1") != 0;
        else if (!strcmp(fld[0], "# set") && nf == 3)
            h_runset_set(rs, fld[1], "%s", fld[2]);
        else if (!strcmp(fld[0], "# cluster"))
            bad = read_cluster(rs, fld, nf);
        else if (!header)
            bad = !(header = nf == (int)NCOL && !strcmp(fld[0], "n"));
        else
            bad = read_rec(rs, fld, nf, cl0);
    }
    free(line);
    fclose(f);
    if (bad || lineno == 0) {
        snprintf(err, n, "%s:%ld: not a selcheck results file line", path,
                 lineno);
        return -1;
    }
    /* Each cluster's repro: from a TAP number to a record index. */
    for (c = cl0; c < rs->ncl; c++) {
        size_t i;
        long want = rs->cl[c].repro;
        rs->cl[c].repro = (long)first;
        for (i = first; i < rs->n; i++)
            if (rs->v[i].n == want)
                rs->cl[c].repro = (long)i;
    }
    return 0;
}

void h_runset_free(h_runset *rs)
{
    size_t i;
    int k;

    for (i = 0; i < rs->n; i++) {
        h_rec *r = &rs->v[i];
        char **s[] = {&r->impl, &r->profile, &r->file, &r->addr, &r->dtype,
                      &r->mode, &r->rules, &r->desc, &r->reason, &r->diag,
                      &r->repro};
        for (k = 0; k < (int)(sizeof s / sizeof *s); k++)
            free(*s[k]);
    }
    for (k = 0; k < rs->nset; k++) {
        free(rs->key[k]);
        free(rs->val[k]);
    }
    free(rs->v);
    free(rs->cl);
    memset(rs, 0, sizeof *rs);
}
