/* h_diagtap.c - the diagnosis as TAP comments after the last test (the
 * clusters h_cluster.c made, then the failures per rule in spec order),
 * and the value lists the HTML pages share with it.
 */
#include <stdio.h>
#include <string.h>

#include "h_results.h"

void h_cluster_values(const h_runset *rs, int c, int field, char *out,
                      size_t n)
{
    const char *seen[64];
    size_t i, used = 0;
    int k, nseen = 0;

    out[0] = 0;
    for (i = 0; i < rs->n && used < n && nseen < 64; i++) {
        const h_rec *r = &rs->v[i];
        const char *v = field == 0 ? r->dtype : field == 1 ? r->mode
                                                           : r->profile;
        if (r->cluster != c || !v[0])
            continue;
        for (k = 0; k < nseen && strcmp(seen[k], v); k++)
            ;
        if (k < nseen)
            continue;
        seen[nseen++] = v;
        used += (size_t)snprintf(out + used, n - used, "%s%s",
                                 used ? ", " : "", v);
    }
}

/* The rules a failure of cluster c cites, in spec order. */
void h_cluster_rules(const h_runset *rs, int c, char *out, size_t n)
{
    size_t i, used = 0;
    int k;

    out[0] = 0;
    for (k = 0; k < rs->nrules && used < n; k++)
        for (i = 0; i < rs->n; i++)
            if (rs->v[i].cluster == c &&
                h_rec_cites(&rs->v[i], rs->ruleids[k])) {
                used += (size_t)snprintf(out + used, n - used, "%s%s",
                                         used ? ", " : "", rs->ruleids[k]);
                break;
            }
}

static void counts(const h_runset *rs, long cnt[4])
{
    size_t i;

    cnt[0] = cnt[1] = cnt[2] = cnt[3] = 0;
    for (i = 0; i < rs->n; i++)
        cnt[rs->v[i].outcome]++;
}

/* The failures of each rule, in spec order; rules without any left out. */
static void rule_table(const h_runset *rs)
{
    size_t i;
    int k, c;

    printf("# failures by rule (spec order): failed/tests, clusters\n");
    for (k = 0; k < rs->nrules; k++) {
        long fail = 0, tests = 0;
        char in[200] = "";
        for (i = 0; i < rs->n; i++)
            if (h_rec_cites(&rs->v[i], rs->ruleids[k])) {
                tests++;
                fail += rs->v[i].outcome == H_FAIL;
            }
        if (!fail)
            continue;
        for (c = 0; c < rs->ncl; c++)
            for (i = 0; i < rs->n; i++)
                if (rs->v[i].cluster == c &&
                    h_rec_cites(&rs->v[i], rs->ruleids[k])) {
                    snprintf(in + strlen(in), sizeof in - strlen(in), "%s%d",
                             in[0] ? "," : "", c + 1);
                    break;
                }
        printf("#   %-18s %6ld/%-6ld  cluster %s\n", rs->ruleids[k], fail,
               tests, in);
    }
}

/* A long list on a TAP comment line: its first max items. */
static void print_list(const char *label, const char *list, int max)
{
    const char *p, *cut_at = NULL;
    int items = 1;

    for (p = list; *p; p++)
        if (*p == ',' && items++ == max)
            cut_at = p;
    if (!cut_at)
        printf("#   %s: %s\n", label, list);
    else
        printf("#   %s: %.*s ... (%d in all)\n", label, (int)(cut_at - list),
               list, items);
}

void h_cluster_tap(const h_runset *rs)
{
    char buf[4096];
    long cnt[4];
    int c;

    counts(rs, cnt);
    if (!cnt[H_FAIL]) {
        printf("# diagnosis: no failures\n");
        return;
    }
    printf("# diagnosis: %ld failure%s in %d cluster%s (same implementation, "
           "same kind of failure)\n", cnt[H_FAIL], cnt[H_FAIL] == 1 ? "" : "s",
           rs->ncl, rs->ncl == 1 ? "" : "s");
    for (c = 0; c < rs->ncl; c++) {
        const h_cluster *cl = &rs->cl[c];
        const h_rec *r = &rs->v[cl->repro];
        printf("# cluster %d: %s [%s]\n", c + 1, cl->name,
               cl->impl[0] ? cl->impl : "the suite");
        printf("#   count: %ld\n", cl->count);
        printf("#   messages: %s\n", cl->kinds);
        h_cluster_rules(rs, c, buf, sizeof buf);
        print_list("rules", buf, 12);
        h_cluster_values(rs, c, 0, buf, sizeof buf);
        printf("#   dtypes: %s\n", buf);
        h_cluster_values(rs, c, 1, buf, sizeof buf);
        printf("#   modes: %s\n", buf);
        h_cluster_values(rs, c, 2, buf, sizeof buf);
        printf("#   profiles: %s\n", buf);
        if (cl->pattern[0])
            printf("#   every failure: %s\n", cl->pattern);
        printf("#   in common: %s\n", cl->common[0] ? cl->common : "nothing "
               "that the passing tests lack");
        printf("#   smallest: %s (test %ld): %s\n", r->addr, r->n, r->reason);
        if (r->repro[0])
            printf("#   repro: %s\n", r->repro);
    }
    rule_table(rs);
}
