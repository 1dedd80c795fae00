/* h_case.c - the case model's checks and helpers: the suite list, shape
 * strings, the rule ids of spec/select.md, and the checks that need more
 * than one field of a case (counts, rule ids, unique ids).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h_case.h"

void *h_realloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fprintf(stderr, "selcheck: out of memory\n");
        exit(2);
    }
    return q;
}

h_case *h_suite_add(h_suite *s, const char *file, const char *stem, int line)
{
    h_case *c;

    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 256;
        s->v = h_realloc(s->v, s->cap * sizeof *s->v);
    }
    c = &s->v[s->n++];
    memset(c, 0, sizeof *c);
    c->file = file;
    c->stem = stem;
    c->line = line;
    c->mode = SEL_BROADCAST_NUMPY;
    c->axis = -1;
    c->cond = H_C_RANDOM;
    c->val[0].cls = c->val[1].cls = H_V_NORMAL;
    c->offset = -1;
    return c;
}

static char *vformat(const char *fmt, va_list ap)
{
    char buf[1024];
    vsnprintf(buf, sizeof buf, fmt, ap);
    return strcpy(h_realloc(NULL, strlen(buf) + 1), buf);
}

void h_suite_error(h_suite *s, const char *file, const char *stem,
                   const char *fmt, ...)
{
    h_case *c = h_suite_add(s, file, stem, 0);
    va_list ap;

    va_start(ap, fmt);
    c->error = vformat(fmt, ap);
    va_end(ap);
}

/* The first error of a case wins: later ones are usually its echoes. */
void h_case_fail(h_case *c, const char *fmt, ...)
{
    char msg[900];
    va_list ap;

    if (c->error)
        return;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    c->error = h_realloc(NULL, strlen(c->file) + strlen(msg) + 32);
    sprintf(c->error, "%s:%d: %s", c->file, c->line, msg);
}

int h_parse_hex(const char *s, uint64_t *out)
{
    uint64_t v = 0;
    int n = 0;

    if (s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
        return -1;
    for (s += 2; *s; s++, n++) {
        int d = *s >= '0' && *s <= '9' ? *s - '0'
              : *s >= 'a' && *s <= 'f' ? *s - 'a' + 10
              : *s >= 'A' && *s <= 'F' ? *s - 'A' + 10 : -1;
        if (d < 0 || n == 16)
            return -1;
        v = v << 4 | (uint64_t)d;
    }
    if (n == 0)
        return -1;
    *out = v;
    return 0;
}

/* One shape of the compact form: "_" or dims joined by "x". */
static int parse_one(const char *s, size_t len, h_shape *sh, char *err,
                     size_t n)
{
    size_t i = 0;

    memset(sh, 0, sizeof *sh);
    if (len == 1 && s[0] == '_')
        return 0;
    while (i < len) {
        int64_t d = 0;
        size_t start = i;
        while (i < len && s[i] >= '0' && s[i] <= '9') {
            if (d > (INT64_MAX - 9) / 10) {
                snprintf(err, n, "dim too large in '%.*s'", (int)len, s);
                return -1;
            }
            d = d * 10 + (s[i++] - '0');
        }
        if (i == start || (i < len && s[i] != 'x') || (i + 1 == len)) {
            snprintf(err, n, "bad shape '%.*s' (dims joined by x, or _ for "
                     "rank 0)", (int)len, s);
            return -1;
        }
        if (sh->rank == H_RANK_CAP) {
            snprintf(err, n, "rank above %d in '%.*s'", H_RANK_CAP, (int)len,
                     s);
            return -1;
        }
        sh->dims[sh->rank++] = d;
        i++;
    }
    return 0;
}

int h_parse_shapes(const char *s, h_shape out[3], char *err, size_t n)
{
    const char *p = s;
    int k;

    for (k = 0; k < 3; k++) {
        const char *e = strchr(p, ':');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if ((k < 2) != (e != NULL) || len == 0) {
            snprintf(err, n, "shapes '%s': want cond:then:else, e.g. "
                     "4x1:1x3:4x3", s);
            return -1;
        }
        if (parse_one(p, len, &out[k], err, n))
            return -1;
        p = e ? e + 1 : p + len;
    }
    return 0;
}

int64_t h_dim(const h_shape *s, int32_t i)
{
    return i < H_RANK_CAP ? s->dims[i] : s->fill;
}

int64_t *h_dims_new(const h_shape *s)
{
    int32_t i, n = s->rank > 0 ? s->rank : 0;
    int64_t *d = h_realloc(NULL, (size_t)(n + 1) * sizeof *d);

    for (i = 0; i < n; i++)
        d[i] = h_dim(s, i);
    d[n] = 0;
    return d;
}

/* "4x1", "_" for rank 0; past H_RANK_CAP, "x1^84" for 84 more dims of 1. */
void h_shape_str(const h_shape *s, char *buf, size_t n)
{
    size_t used = 0;
    int32_t i;

    if (s->rank <= 0) {
        snprintf(buf, n, s->rank == 0 ? "_" : "rank%d", (int)s->rank);
        return;
    }
    buf[0] = 0;
    for (i = 0; i < s->rank && i < H_RANK_CAP && used < n; i++)
        used += (size_t)snprintf(buf + used, n - used, "%s%lld", i ? "x" : "",
                                 (long long)s->dims[i]);
    if (s->rank > H_RANK_CAP && used < n)
        snprintf(buf + used, n - used, "x%lld^%d", (long long)s->fill,
                 (int)(s->rank - H_RANK_CAP));
}

/* Elements of a shape; -1 when a dim is negative, the rank is outside
 * 0..H_RANK_MAX or the product leaves int64. */
int h_shape_count(const h_shape *s, int64_t *count)
{
    int64_t c = 1;
    int32_t i;

    if (s->rank < 0 || s->rank > H_RANK_MAX)
        return -1;
    for (i = 0; i < s->rank; i++)
        if (h_dim(s, i) < 0)
            return -1;
    for (i = 0; i < s->rank; i++)
        if (h_dim(s, i) == 0) { /* any 0 dim first: {2^62, 2, 0} is empty */
            *count = 0;
            return 0;
        }
    for (i = 0; i < s->rank; i++) {
        int64_t d = h_dim(s, i);
        if (c > INT64_MAX / d)
            return -1;
        c *= d;
    }
    *count = c;
    return 0;
}

int h_profile_has_ext(const h_profile *p, const char *rule)
{
    int i;
    for (i = 0; i < p->next; i++)
        if (strcmp(p->ext[i], rule) == 0)
            return 1;
    return 0;
}

int h_case_is_ext(const h_profiles *p, const char *rule)
{
    int i;
    for (i = 0; i < p->n; i++)
        if (h_profile_has_ext(&p->v[i], rule))
            return 1;
    return 0;
}

static int rule_known(const h_suite *s, const char *id)
{
    int i;
    for (i = 0; i < s->nrules; i++)
        if (strcmp(s->ruleids[i], id) == 0)
            return 1;
    return 0;
}

int h_case_cites(const h_case *c, const char *rule)
{
    int i;
    for (i = 0; i < c->nrules; i++)
        if (strcmp(c->rules[i], rule) == 0)
            return 1;
    return 0;
}

static void check_count(h_case *c, const char *what, size_t have,
                        const h_shape *sh)
{
    int64_t want;
    if (h_shape_count(sh, &want) == 0 && (uint64_t)want != have)
        h_case_fail(c, "%s has %zu elements, its shape %lld", what, have,
                    (long long)want);
}

void h_case_check(h_suite *s, h_case *c, const h_profiles *p,
                  size_t first_of_file)
{
    size_t i;
    int k;

    (void)p;
    if (!c->id) {
        h_case_fail(c, "case{} needs an id");
        return;
    }
    for (i = 0; c->id[i]; i++)
        if (!((c->id[i] >= 'a' && c->id[i] <= 'z') ||
              (c->id[i] >= '0' && c->id[i] <= '9') || c->id[i] == '_'))
            break;
    if (c->id[i] || i == 0)
        h_case_fail(c, "id '%s': use [a-z0-9_]+", c->id);
    for (i = first_of_file; &s->v[i] < c; i++)
        if (s->v[i].id && strcmp(s->v[i].id, c->id) == 0)
            h_case_fail(c, "duplicate id '%s' (also at line %d)", c->id,
                        s->v[i].line);
    if (c->nrules == 0)
        h_case_fail(c, "case '%s' names no rules", c->id);
    for (k = 0; k < c->nrules; k++)
        if (!rule_known(s, c->rules[k]))
            h_case_fail(c, "unknown rule id '%s' (not a heading of "
                        "spec/select.md)", c->rules[k]);
    if (!c->has_shapes)
        h_case_fail(c, "case '%s' has no shapes", c->id);
    if (c->cond == H_C_LITERAL) {
        int wide = 0;
        check_count(c, "cond data", c->cond_lit.n, &c->shape[0]);
        for (i = 0; i < c->cond_lit.n; i++)
            wide |= c->cond_lit.v[i].bits > 1;
        if (wide && !h_case_cites(c, "COND-NZ-1"))
            h_case_fail(c, "cond bytes other than 0 and 1 need rule "
                        "COND-NZ-1");
    }
    if (c->cond == H_C_BYTES && !h_case_cites(c, "COND-NZ-1"))
        h_case_fail(c, "cond = \"bytes\" needs rule COND-NZ-1");
    for (k = 0; k < 2; k++)
        if (c->val[k].cls == H_V_LITERAL)
            check_count(c, k ? "else (y) data" : "then (x) data",
                        c->val[k].lit.n, &c->shape[1 + k]);
    for (k = 0; k < 2; k++)
        if (c->expect[k].kind == H_E_DATA)
            check_count(c, "expect.data", c->expect[k].data.n,
                        &c->expect[k].shape);
    if (c->alias && c->null_what)
        h_case_fail(c, "alias and null together");
}

int h_load_rules(const char *md_path, h_suite *s, char *err, size_t n)
{
    FILE *f = fopen(md_path, "r");
    char line[512];

    if (!f) {
        snprintf(err, n, "cannot read %s", md_path);
        return -1;
    }
    while (fgets(line, sizeof line, f)) {
        size_t k = 4;
        if (strncmp(line, "### ", 4) != 0)
            continue;
        while ((line[k] >= 'A' && line[k] <= 'Z') ||
               (line[k] >= '0' && line[k] <= '9') || line[k] == '-')
            k++;
        if (k == 4 || line[k] != ' ')
            continue;
        line[k] = 0;
        s->ruleids = h_realloc(s->ruleids,
                              (size_t)(s->nrules + 1) * sizeof *s->ruleids);
        s->ruleids[s->nrules] = strcpy(h_realloc(NULL, k - 3), line + 4);
        s->nrules++;
    }
    fclose(f);
    if (s->nrules == 0) {
        snprintf(err, n, "no rule headings (### ID ...) in %s", md_path);
        return -1;
    }
    return 0;
}

int32_t h_mode_parse(const char *s)
{
    int32_t m;
    for (m = SEL_BROADCAST_NONE; m <= SEL_BROADCAST_PDPD; m++)
        if (strcmp(sel_broadcast_name(m), s) == 0)
            return m;
    return -1;
}

int h_status_parse(const char *s)
{
    int st;
    for (st = SEL_OK; st <= SEL_ERR_NOMEM; st++)
        if (strcmp(sel_status_name(st), s) == 0)
            return st;
    return -1;
}

static void free_lits(h_lits *l)
{
    free(l->v);
}

void h_suite_drop_last(h_suite *s)
{
    h_case *c = &s->v[--s->n];
    int k;

    free(c->id);
    for (k = 0; k < c->nrules; k++)
        free(c->rules[k]);
    free(c->rules);
    free(c->dtypes);
    free_lits(&c->cond_lit);
    free_lits(&c->val[0].lit);
    free_lits(&c->val[1].lit);
    free_lits(&c->expect[0].data);
    if (c->expect[1].data.v != c->expect[0].data.v)
        free_lits(&c->expect[1].data);
    free(c->error);
    memset(c, 0, sizeof *c);
}
