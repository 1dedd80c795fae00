/* h_report.c - the HTML pages: --report FILE for one run (settings,
 * summary, clusters, per-rule table, every failing test) and --matrix for
 * several results files; one self-contained page each, no external asset.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "h_results.h"

static void page_begin(FILE *f, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
          "<title>", f);
    h_xml_text(f, title);
    fputs("</title>\n<style>\n"
          "body{font:14px/1.4 sans-serif;margin:1.5em;color:#222}\n"
          "table{border-collapse:collapse;margin:.5em 0}\n"
          "td,th{border:1px solid #ccc;padding:2px 8px;text-align:left;"
          "vertical-align:top}\n"
          "th{background:#eee}\n"
          ".ok{background:#dfd}.fail{background:#fdd}.none{color:#999}\n"
          "pre{background:#f6f6f6;padding:6px;overflow-x:auto;margin:.3em 0}\n"
          "code{background:#f6f6f6}\n"
          ".cluster{border-left:4px solid #c33;padding-left:10px;margin:1em 0}\n"
          ".test{border-top:1px solid #ddd;margin:.5em 0}\n"
          "</style>\n</head>\n<body>\n<h1>", f);
    h_xml_text(f, title);
    fputs("</h1>\n", f);
}

static void page_end(FILE *f)
{
    fputs("</body>\n</html>\n", f);
}

/* The distinct impl names (field 0) or profiles (field 1) of the runs. */
static int distinct(const h_runset *runs, int nruns, int field,
                    const char **out, int max)
{
    int n = 0, k, r;
    size_t i;

    for (r = 0; r < nruns; r++)
        for (i = 0; i < runs[r].n; i++) {
            const char *v = field ? runs[r].v[i].profile : runs[r].v[i].impl;
            if (!v[0])
                continue;
            for (k = 0; k < n && strcmp(out[k], v); k++)
                ;
            if (k == n && n < max)
                out[n++] = v;
        }
    return n;
}

/* Counts by outcome of the records matching impl (and profile, or any). */
static void tally(const h_runset *runs, int nruns, const char *impl,
                  const char *prof, const char *rule, long cnt[4])
{
    size_t i;
    int r;

    cnt[0] = cnt[1] = cnt[2] = cnt[3] = 0;
    for (r = 0; r < nruns; r++)
        for (i = 0; i < runs[r].n; i++) {
            const h_rec *x = &runs[r].v[i];
            if ((impl && strcmp(x->impl, impl)) ||
                (prof && strcmp(x->profile, prof)) ||
                (rule && !h_rec_cites(x, rule)))
                continue;
            cnt[x->outcome]++;
        }
}

/* href: where the cell's failures are shown, or NULL. */
static void cell(FILE *f, const long cnt[4], const char *href)
{
    long run = cnt[H_PASS] + cnt[H_FAIL] + cnt[H_TODO];

    if (!run && !cnt[H_SKIP]) {
        fputs("<td class=\"none\">-</td>", f);
        return;
    }
    fprintf(f, "<td class=\"%s\">%ld/%ld passed", cnt[H_FAIL] ? "fail" : "ok",
            cnt[H_PASS] + cnt[H_TODO], run);
    if (cnt[H_FAIL] && href)
        fprintf(f, ", <b><a href=\"%s\">%ld failed</a></b>", href, cnt[H_FAIL]);
    else if (cnt[H_FAIL])
        fprintf(f, ", <b>%ld failed</b>", cnt[H_FAIL]);
    if (cnt[H_SKIP])
        fprintf(f, ", %ld skipped", cnt[H_SKIP]);
    if (cnt[H_TODO])
        fprintf(f, ", %ld lenient", cnt[H_TODO]);
    fputs("</td>", f);
}

#define H_MAX_COLS 64

/* A table's start and its first row: corner, then one heading a column. */
static void header_row(FILE *f, const char *corner, const char **cols, int n)
{
    int i;

    fprintf(f, "<table>\n<tr><th>%s</th>", corner);
    for (i = 0; i < n; i++) {
        fputs("<th>", f);
        h_xml_text(f, cols[i]);
        fputs("</th>", f);
    }
    fputs("</tr>\n", f);
}

/* Implementation x profile. */
static void profile_table(FILE *f, const h_runset *runs, int nruns)
{
    const char *impl[H_MAX_COLS], *prof[H_MAX_COLS];
    int ni = distinct(runs, nruns, 0, impl, H_MAX_COLS),
        np = distinct(runs, nruns, 1, prof, H_MAX_COLS), i, p;
    long cnt[4];

    header_row(f, "implementation", prof, np);
    for (i = 0; i < ni; i++) {
        fputs("<tr><th>", f);
        h_xml_text(f, impl[i]);
        fputs("</th>", f);
        for (p = 0; p < np; p++) {
            tally(runs, nruns, impl[i], prof[p], NULL, cnt);
            cell(f, cnt, NULL);
        }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

/* The first failing test of impl citing rule: "#test-N" on a run's own
 * page (one run), else on the run's --report page when it sits beside
 * its results file (<stem>.html for <stem>.results, as make matrix
 * writes them; the link is relative to the working directory). */
static int fail_href(const h_runset *runs, int nruns, const char *impl,
                     const char *rule, char *href, size_t cap)
{
    const char *file, *dot;
    FILE *page;
    size_t i;
    int r;

    for (r = 0; r < nruns; r++)
        for (i = 0; i < runs[r].n; i++) {
            const h_rec *x = &runs[r].v[i];
            if (x->outcome != H_FAIL || strcmp(x->impl, impl) ||
                !h_rec_cites(x, rule))
                continue;
            if (nruns == 1) {
                snprintf(href, cap, "#test-%ld", x->n);
                return 1;
            }
            file = h_runset_get(&runs[r], "file");
            dot = file ? strrchr(file, '.') : NULL;
            if (!dot || strcmp(dot, ".results"))
                return 0;
            snprintf(href, cap, "%.*s.html", (int)(dot - file), file);
            if (!(page = fopen(href, "r")))
                return 0;
            fclose(page);
            snprintf(href + strlen(href), cap - strlen(href), "#test-%ld", x->n);
            return 1;
        }
    return 0;
}

/* Rule x implementation, in spec order; all: rules without failures too. */
static void rule_table(FILE *f, const h_runset *runs, int nruns, int all)
{
    const char *impl[H_MAX_COLS];
    int ni = distinct(runs, nruns, 0, impl, H_MAX_COLS), i, k;
    long cnt[4], any[4];

    header_row(f, "rule", impl, ni);
    for (k = 0; k < runs[0].nrules; k++) {
        const char *rule = runs[0].ruleids[k];
        tally(runs, nruns, NULL, NULL, rule, any);
        if (!any[H_FAIL] && (!all || !(any[0] + any[1] + any[2] + any[3])))
            continue;
        fputs("<tr><th>", f);
        h_xml_text(f, rule);
        fputs("</th>", f);
        for (i = 0; i < ni; i++) {
            char href[600];
            tally(runs, nruns, impl[i], NULL, rule, cnt);
            cell(f, cnt, cnt[H_FAIL] && fail_href(runs, nruns, impl[i], rule,
                                                  href, sizeof href) ? href : NULL);
        }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

static void settings(FILE *f, const h_runset *rs)
{
    int i;

    fputs("<table>\n", f);
    for (i = 0; i < rs->nset; i++) {
        fputs("<tr><th>", f);
        h_xml_text(f, rs->key[i]);
        fputs("</th><td>", f);
        h_xml_text(f, rs->val[i]);
        fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
}

static void labelled(FILE *f, const char *label, const char *text)
{
    if (!text[0])
        return;
    fprintf(f, "<li>%s: ", label);
    h_xml_text(f, text);
    fputs("</li>\n", f);
}

static void clusters(FILE *f, const h_runset *rs)
{
    char buf[4096];
    int c;

    for (c = 0; c < rs->ncl; c++) {
        const h_cluster *cl = &rs->cl[c];
        const h_rec *r = &rs->v[cl->repro];
        fprintf(f, "<div class=\"cluster\" id=\"cluster-%d\"><h3>cluster %d: ",
                c + 1, c + 1);
        h_xml_text(f, cl->name);
        fputs("</h3>\n<ul>\n", f);
        labelled(f, "implementation", cl->impl[0] ? cl->impl : "the suite");
        fprintf(f, "<li>count: %ld</li>\n", cl->count);
        labelled(f, "messages", cl->kinds);
        h_cluster_rules(rs, c, buf, sizeof buf);
        labelled(f, "rules", buf);
        h_cluster_values(rs, c, 0, buf, sizeof buf);
        labelled(f, "dtypes", buf);
        h_cluster_values(rs, c, 1, buf, sizeof buf);
        labelled(f, "modes", buf);
        h_cluster_values(rs, c, 2, buf, sizeof buf);
        labelled(f, "profiles", buf);
        labelled(f, "every failure", cl->pattern);
        labelled(f, "in common", cl->common[0] ? cl->common
                 : "nothing that the passing tests lack");
        fputs("<li>smallest failing test: <code>", f);
        h_xml_text(f, r->addr);
        fputs("</code>: ", f);
        h_xml_text(f, r->reason);
        fputs("</li>\n</ul>\n", f);
        if (r->repro[0]) {
            fputs("<pre>", f);
            h_xml_text(f, r->repro);
            fputs("</pre>\n", f);
        }
        fputs("</div>\n", f);
    }
}

static void failures(FILE *f, const h_runset *rs)
{
    size_t i;

    for (i = 0; i < rs->n; i++) {
        const h_rec *r = &rs->v[i];
        if (r->outcome != H_FAIL)
            continue;
        fprintf(f, "<div class=\"test\" id=\"test-%ld\"><p>not ok %ld - <code>",
                r->n, r->n);
        h_xml_text(f, r->desc);
        fputs("</code>: ", f);
        h_xml_text(f, r->reason);
        if (r->cluster >= 0)
            fprintf(f, " (<a href=\"#cluster-%d\">cluster %d</a>)",
                    r->cluster + 1, r->cluster + 1);
        fputs("</p>\n<pre>", f);
        h_xml_text(f, r->diag[0] ? r->diag : "(its YAML block is in the TAP: the "
                                      "pages keep the first 20000)");
        fputs("</pre>\n", f);
        if (r->repro[0]) {
            fputs("<pre>", f);
            h_xml_text(f, r->repro);
            fputs("</pre>\n", f);
        }
        fputs("</div>\n", f);
    }
}

static FILE *open_out(const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f)
        fprintf(stderr, "selcheck: cannot write %s: %s\n", path,
                strerror(errno));
    return f;
}

static int close_out(FILE *f, const char *path)
{
    if (ferror(f) | fclose(f)) {
        fprintf(stderr, "selcheck: cannot write %s\n", path);
        return -1;
    }
    return 0;
}

int h_report_write(const h_runset *rs, const char *path)
{
    FILE *f = open_out(path);
    long cnt[4];

    if (!f)
        return -1;
    tally(rs, 1, NULL, NULL, NULL, cnt);
    page_begin(f, "selcheck report");
    fprintf(f, "<h2>Summary</h2>\n<p>%zu tests: %ld passed, <b>%ld failed</b>, "
            "%ld skipped, %ld todo (lenient); %d cluster%s of failures.</p>\n",
            rs->n, cnt[H_PASS], cnt[H_FAIL], cnt[H_SKIP], cnt[H_TODO],
            rs->ncl, rs->ncl == 1 ? "" : "s");
    profile_table(f, rs, 1);
    fputs("<h2>Settings</h2>\n", f);
    settings(f, rs);
    fputs("<h2>Clusters</h2>\n", f);
    if (!rs->ncl)
        fputs("<p>No failures.</p>\n", f);
    clusters(f, rs);
    fputs("<h2>By rule (spec order)</h2>\n", f);
    rule_table(f, rs, 1, 1);
    fputs("<h2>Failing tests</h2>\n", f);
    if (!cnt[H_FAIL])
        fputs("<p>None.</p>\n", f);
    failures(f, rs);
    page_end(f);
    return close_out(f, path);
}

/* Findings in plain words: per implementation, what it failed and how. */
static void findings(FILE *f, const h_runset *runs, int nruns)
{
    const char *impl[H_MAX_COLS];
    int ni = distinct(runs, nruns, 0, impl, H_MAX_COLS), i, r, c, any;
    long cnt[4];

    fputs("<ul>\n", f);
    for (i = 0; i < ni; i++) {
        tally(runs, nruns, impl[i], NULL, NULL, cnt);
        fputs("<li><b>", f);
        h_xml_text(f, impl[i]);
        if (!cnt[H_FAIL]) {
            fprintf(f, "</b> passes every test it ran (%ld; %ld skipped as "
                    "not supported, %ld lenient).</li>\n",
                    cnt[H_PASS] + cnt[H_TODO], cnt[H_SKIP], cnt[H_TODO]);
            continue;
        }
        fprintf(f, "</b> fails %ld of %ld tests:\n<ul>\n", cnt[H_FAIL],
                cnt[H_PASS] + cnt[H_FAIL] + cnt[H_TODO]);
        for (r = 0, any = 0; r < nruns; r++)
            for (c = 0; c < runs[r].ncl; c++) {
                const h_cluster *cl = &runs[r].cl[c];
                char prof[300];
                if (strcmp(cl->impl, impl[i]))
                    continue;
                h_cluster_values(&runs[r], c, 2, prof, sizeof prof);
                fprintf(f, "<li>%ld under %s: ", cl->count, prof);
                h_xml_text(f, cl->name);
                if (cl->common[0]) {
                    fputs(". In common: ", f);
                    h_xml_text(f, cl->common);
                }
                fputs(".<pre>", f);
                h_xml_text(f, runs[r].v[cl->repro].repro);
                fputs("</pre></li>\n", f);
                any = 1;
            }
        fputs(any ? "</ul></li>\n" : "</ul>(no cluster recorded)</li>\n", f);
    }
    fputs("</ul>\n", f);
}

int h_report_matrix(h_runset *runs, int nruns, const char *path)
{
    FILE *f = open_out(path);
    int r;

    if (!f)
        return -1;
    page_begin(f, "selcheck conformance matrix");
    fputs("<h2>Implementation x profile</h2>\n", f);
    profile_table(f, runs, nruns);
    fputs("<h2>Findings</h2>\n", f);
    findings(f, runs, nruns);
    fputs("<h2>Implementation x rule (spec order)</h2>\n", f);
    rule_table(f, runs, nruns, 1);
    fputs("<h2>Runs</h2>\n", f);
    for (r = 0; r < nruns; r++) {
        fprintf(f, "<h3>run %d: ", r + 1);
        h_xml_text(f, h_runset_get(&runs[r], "file"));
        fputs("</h3>\n", f);
        settings(f, &runs[r]);
    }
    page_end(f);
    return close_out(f, path);
}
