/* h_cluster.c - the diagnosis: failures grouped by symptom (the class of
 * failure, per implementation), each named by its shape (what every
 * failing test shares that the passing ones lack); h_diagtap.c prints it.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "h_feat.h"

/* Appends s to out (n bytes), cut to fit. */
static void append(char *out, size_t n, const char *s)
{
    size_t len = strlen(out), k = strlen(s);

    if (len + 1 >= n)
        return;
    if (k > n - len - 1)
        k = n - len - 1;
    memcpy(out + len, s, k);
    out[len + k] = 0;
}

/* Removes [from, to) from s. */
static void cut(char *s, char *from, char *to)
{
    memmove(from, to, strlen(to) + 1);
    (void)s;
}

/* The kind of a failure: its message without what varies from test to
 * test (element index, run, byte offsets, parenthesised details). */
static void fine_kind(const h_rec *r, char *out, size_t n)
{
    static const char *const stops[] = {": byte ", "; ", ": expected ",
                                        " of dims_out"};
    char s[1200], *p, *q;
    size_t i;

    if (!r->impl[0] || !strncmp(r->reason, "script error", 12)) {
        snprintf(out, n, "script error");
        return;
    }
    if (!strncmp(r->reason, "lenient: handles mode", 21) ||
        !strncmp(r->reason, "lenient: handles ", 17)) {
        snprintf(out, n, "lenient (--strict): handles a %s the profile "
                 "does not have", r->reason[17] == 'm' ? "mode" : "dtype");
        return;
    }
    snprintf(s, sizeof s, "%s", r->reason);
    for (i = 0; i < sizeof stops / sizeof *stops; i++)
        if ((p = strstr(s, stops[i])) != NULL)
            *p = 0;
    if (!strncmp(s, "the reference disagrees", 23) ||
        !strncmp(s, "the case's check fails", 22))
        s[strcspn(s, ":")] = 0;
    while ((p = strstr(s, " (")) != NULL && (q = strchr(p, ')')) != NULL)
        cut(s, p, q + 1);
    if ((p = strstr(s, " at element ")) != NULL)
        *p = 0;
    if ((p = strstr(s, ", run ")) != NULL) {
        q = p + 6;
        while (isalpha((unsigned char)*q))
            q++;
        cut(s, p, q);
    }
    /* Other numbers (bytes before the start) vary: N; exit statuses and
     * timeouts stay. */
    for (p = s; *p; p++)
        if (p[0] == '0' && p[1] == 'x' && isxdigit((unsigned char)p[2])) {
            for (q = p + 2; isxdigit((unsigned char)*q); q++)
                ; /* an address: 0xN */
            p[2] = 'N';
            cut(s, p + 3, q);
            p += 2;
        } else if (isdigit((unsigned char)*p) && (p == s || !isalnum((unsigned char)p[-1])) &&
            !(p - s >= 7 && !strncmp(p - 7, "status ", 7)) &&
            !(p - s >= 6 && !strncmp(p - 6, "after ", 6))) {
            for (q = p; isdigit((unsigned char)*q); q++)
                ;
            cut(s, p + 1, q);
            *p = 'N';
        }
    out[0] = 0;
    append(out, n, s);
}

/* The class of a failure, what a cluster holds: one bug tends to show
 * as one class with several messages (a broadcast ignored reads past
 * cond in one test and past else in the next). */
static void class_of(const char *reason, int script, char *out, size_t n)
{
    static const char reuse[] = "second call at the same addresses with new "
                                "data (IO-REUSE-1): ";
    static const char *const oob[] = {"past the end of", "before the start of",
                                      "a NULL pointer", "outside the harness"};
    const char *sig;
    size_t i;

    out[0] = 0;
    if (!strncmp(reason, reuse, sizeof reuse - 1)) {
        append(out, n, "on a second call at the same addresses (IO-REUSE-1): ");
        reason += sizeof reuse - 1;
    }
    for (i = 0; i < sizeof oob / sizeof *oob; i++)
        if (strstr(reason, oob[i]) && strncmp(reason, "wrong bytes", 11)) {
            append(out, n, "out-of-bounds access");
            return;
        }
    if (script || !strncmp(reason, "script error", 12) ||
        !strncmp(reason, "the reference disagrees", 23) ||
        !strncmp(reason, "the case's check", 16))
        append(out, n, "suite error (a script, or the reference)");
    else if (!strncmp(reason, "wrong bytes", 11))
        append(out, n, "wrong bytes in dst");
    else if (!strncmp(reason, "timeout", 7))
        append(out, n, "timeout (a hang)");
    else if (!strncmp(reason, "crashed", 7) &&
             (sig = strstr(reason, "SIG")) != NULL) {
        char name[16];
        snprintf(name, sizeof name, "%.*s", (int)strspn(sig, "SIGABCDEFGHIJKLMNOPQRSTUVWXYZ"), sig);
        append(out, n, "crash: ");
        append(out, n, name);
    } else if (!strncmp(reason, "the worker exited", 17))
        append(out, n, "exit: the implementation called exit");
    else if (strstr(reason, "modified its input") || strstr(reason, "the dims of"))
        append(out, n, "modified an input (IO-INPUTS-1)");
    else if (!strncmp(reason, "lenient", 7))
        append(out, n, "lenient (a failure under --strict)");
    else if (!strncmp(reason, "infer: wrong shape", 18))
        append(out, n, "wrong output shape from infer");
    else if (!strncmp(reason, "rejected a valid case", 21) ||
             strstr(reason, " returned "))
        append(out, n, "wrong status");
    else
        append(out, n, reason);
}

static int find_cluster(h_runset *rs, const char *impl, const char *kind)
{
    int c;

    for (c = 0; c < rs->ncl; c++)
        if (!strcmp(rs->cl[c].impl, impl) && !strcmp(rs->cl[c].kind, kind))
            return c;
    rs->cl = h_realloc(rs->cl, (size_t)(rs->ncl + 1) * sizeof *rs->cl);
    memset(&rs->cl[rs->ncl], 0, sizeof *rs->cl);
    snprintf(rs->cl[rs->ncl].impl, sizeof rs->cl->impl, "%s", impl);
    snprintf(rs->cl[rs->ncl].kind, sizeof rs->cl->kind, "%s", kind);
    rs->cl[rs->ncl].repro = -1;
    return rs->ncl++;
}

/* A candidate for "what the failing share": a feature, or a field
 * (dtype, profile, case file) equal to the first failure's. */
typedef struct cand {
    int feat;            /* >= 0: a feature; -1 dtype, -2 profile, -3 file */
    const char *value;
    long fail, pass;     /* failures of the cluster / passing tests with it */
} cand;

static int has(const h_rec *r, const cand *c)
{
    if (c->feat >= 0)
        return r->feat[c->feat];
    return !strcmp(c->value, c->feat == -1 ? r->dtype
                             : c->feat == -2 ? r->profile : r->file);
}

static void cand_label(const cand *c, char *out, size_t n)
{
    if (c->feat >= 0)
        snprintf(out, n, "%s", h_feat_name(c->feat));
    else if (c->feat == -3 && strrchr(c->value, '/'))
        snprintf(out, n, "file %s", strrchr(c->value, '/') + 1);
    else
        snprintf(out, n, "%s %s", c->feat == -1 ? "dtype"
                 : c->feat == -2 ? "profile" : "file", c->value);
}

/* The candidates every failure of cluster k has, by how few passing
 * tests (of the same implementation) have them; returns how many. */
static int shared(const h_runset *rs, int k, cand *out, long *npass)
{
    cand all[H_F_NTEST + 3];
    const h_rec *first = &rs->v[rs->cl[k].repro];
    size_t i;
    int c, m = 0, j;

    for (c = 0; c < H_F_NTEST + 3; c++) {
        all[c].feat = c < H_F_NTEST ? c : H_F_NTEST - 1 - c;
        all[c].value = c == H_F_NTEST ? first->dtype
                       : c == H_F_NTEST + 1 ? first->profile : first->file;
        all[c].fail = all[c].pass = 0;
    }
    *npass = 0;
    for (i = 0; i < rs->n; i++) {
        const h_rec *r = &rs->v[i];
        int in = r->cluster == k, ok = r->outcome == H_PASS ||
                                      r->outcome == H_TODO;
        if (strcmp(r->impl, rs->cl[k].impl) || (!in && !ok))
            continue;
        *npass += ok;
        for (c = 0; c < H_F_NTEST + 3; c++)
            if (has(r, &all[c])) {
                all[c].fail += in;
                all[c].pass += ok;
            }
    }
    for (c = 0; c < H_F_NTEST + 3; c++) {
        /* Shared by every passing test too: it tells nothing. */
        if (all[c].fail != rs->cl[k].count || all[c].pass == *npass)
            continue;
        for (j = m; j > 0 && out[j - 1].pass > all[c].pass; j--)
            out[j] = out[j - 1];
        out[j] = all[c];
        m++;
    }
    return m;
}

/* What every failure shows in dst or in its run.  A dst aliasing an
 * input cannot keep the poison, so "never written" there shows as the
 * other branch (the input's bytes): counted as never written too. */
static void pattern(const h_runset *rs, int k, char *out, size_t n)
{
    /* Not run end: every test has it, and --fast has no other. */
    static const int order[] = {H_F_LAST_ONLY, H_F_FIRST_ONLY, H_F_TAIL,
                                H_F_ALL_WRONG, H_F_NEVER, H_F_RUN_START,
                                H_F_RUN_SHIFT, H_F_RUN_THREADS};
    long cnt[H_NFEAT] = {0};
    size_t i, used = 0;
    int f, j, shape = 0;

    for (i = 0; i < rs->n; i++) {
        const h_rec *r = &rs->v[i];
        if (r->cluster != k)
            continue;
        for (f = H_F_NTEST; f < H_NFEAT; f++)
            cnt[f] += r->feat[f] || ((f == H_F_NEVER || f == H_F_TAIL) &&
                                     r->feat[H_F_ALIAS]);
    }
    out[0] = 0;
    for (j = 0; j < (int)(sizeof order / sizeof *order); j++) {
        f = order[j];
        if (cnt[f] != rs->cl[k].count || (shape && f <= H_F_ALL_WRONG))
            continue;
        shape |= f <= H_F_ALL_WRONG;
        used += (size_t)snprintf(out + used, used < n ? n - used : 0, "%s%s",
                                 used ? ", " : "", h_feat_name(f));
        if (used >= n)
            break;
    }
}

static void describe(h_runset *rs, int k)
{
    h_cluster *cl = &rs->cl[k];
    cand cs[H_F_NTEST + 3];
    char lab[200], only[400] = "";
    size_t used = 0;
    long npass;
    int m = shared(rs, k, cs, &npass), i, nonly = 0, telling;

    pattern(rs, k, cl->pattern, sizeof cl->pattern);
    for (i = 0; i < m && i < 4 && used < sizeof cl->common; i++) {
        if (cs[i].pass * 2 >= npass && i >= 1)
            break;
        cand_label(&cs[i], lab, sizeof lab);
        used += (size_t)snprintf(cl->common + used, sizeof cl->common - used,
                                 "%s%s (%ld of %ld passing tests have it)",
                                 used ? "; " : "", lab, cs[i].pass, npass);
        /* A feature at most 5% of the passing tests have names the
         * cluster (dst aliasing an input hides some failures); not
         * from one or two failures or a handful of passes: chance. */
        telling = cs[i].pass * 20 <= npass && npass >= 10 && cl->count >= 3;
        if (telling && nonly == 0) {
            snprintf(only, sizeof only, "%s", lab);
            if (cs[i].pass > 0)
                snprintf(only + strlen(only), sizeof only - strlen(only),
                         " (and %ld passing tests)", cs[i].pass);
            nonly = cs[i].pass > 0 ? 2 : 1; /* a second only if both exact */
        } else if (telling && nonly == 1 && cs[i].pass == 0) {
            snprintf(only + strlen(only), sizeof only - strlen(only),
                     " and %s", lab);
            nonly = 2;
        }
    }
    cl->name[0] = 0;
    append(cl->name, sizeof cl->name, cl->kind);
    if (cl->pattern[0]) {
        append(cl->name, sizeof cl->name, ": ");
        append(cl->name, sizeof cl->name, cl->pattern);
    }
    if (only[0]) {
        append(cl->name, sizeof cl->name, strstr(only, " passing tests)")
                                          ? "; tests with " : "; only tests with ");
        append(cl->name, sizeof cl->name, only);
    }
}

/* The messages of cluster k, numbers taken out, most frequent first:
 * "read past the end of cond (12), read past the end of else (3)". */
static void messages(h_runset *rs, int k)
{
    enum { MAXK = 8 };
    char kind[MAXK][200], one[200];
    long cnt[MAXK], other = 0;
    size_t i;
    int nk = 0, j, m, best;

    for (i = 0; i < rs->n; i++) {
        if (rs->v[i].cluster != k)
            continue;
        fine_kind(&rs->v[i], one, sizeof one);
        for (j = 0; j < nk && strcmp(kind[j], one); j++)
            ;
        if (j == nk && nk == MAXK) {
            other++;
            continue;
        }
        if (j == nk) {
            memcpy(kind[nk], one, sizeof one);
            cnt[nk++] = 0;
        }
        cnt[j]++;
    }
    rs->cl[k].kinds[0] = 0;
    for (m = 0; m < nk; m++) {
        for (best = -1, j = 0; j < nk; j++)
            if (cnt[j] > 0 && (best < 0 || cnt[j] > cnt[best]))
                best = j;
        snprintf(one, sizeof one, " (%ld)", cnt[best]);
        if (m)
            append(rs->cl[k].kinds, sizeof rs->cl[k].kinds, "; ");
        append(rs->cl[k].kinds, sizeof rs->cl[k].kinds, kind[best]);
        append(rs->cl[k].kinds, sizeof rs->cl[k].kinds, one);
        cnt[best] = 0;
    }
    if (other) {
        snprintf(one, sizeof one, "; %ld others", other);
        append(rs->cl[k].kinds, sizeof rs->cl[k].kinds, one);
    }
}

/* The repro: the smallest failing test, one without dst aliasing an
 * input first (there an unwritten element shows as the input's). */
static int smaller(const h_rec *a, const h_rec *b)
{
    if (a->feat[H_F_ALIAS] != b->feat[H_F_ALIAS])
        return b->feat[H_F_ALIAS];
    return a->size < b->size;
}

void h_cluster_run(h_runset *rs)
{
    char kind[300];
    size_t i;
    int k;

    for (i = 0; i < rs->n; i++) {
        h_rec *r = &rs->v[i];
        h_cluster *cl;
        if (r->outcome != H_FAIL)
            continue;
        class_of(r->reason, !r->impl[0], kind, sizeof kind);
        k = find_cluster(rs, r->impl, kind);
        cl = &rs->cl[k];
        r->cluster = k;
        cl->count++;
        if (cl->repro < 0 || smaller(r, &rs->v[cl->repro]))
            cl->repro = (long)i;
    }
    for (k = 0; k < rs->ncl; k++) {
        describe(rs, k);
        messages(rs, k);
    }
}
