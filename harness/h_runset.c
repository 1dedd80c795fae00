/* h_runset.c - a run as data: its records and settings, and the results
 * file (--results) written and read back (--matrix); shared by the run's
 * end (h_results.c) and the pages (h_report.c), depending on neither.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "h_results.h"

const char *h_outcome_word(int outcome)
{
    static const char *const w[] = {"ok", "fail", "skip", "todo"};
    return outcome >= H_PASS && outcome <= H_TODO ? w[outcome] : "?";
}

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
