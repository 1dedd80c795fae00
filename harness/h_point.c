/* h_point.c - prepares one test: which dtypes a case expands to under a
 * profile, the generated inputs, and the expectation: the reference (the
 * trusted oracle, called in-process) with the profile's flags, then the
 * profile's own dtype and mode rules, then the case's literal, if any.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "h_dtype.h"
#include "h_gen.h"
#include "h_point.h"
#include "h_sleef.h"
#include "ref.h"

/* A case expecting a failure also runs outside the profile, where the
 * profile itself rejects it, unless it names another status. */
static int wants(const h_case *c, const h_profile *pr, int status)
{
    const h_expect *e = &c->expect[pr->bidirectional];
    return e->kind == H_E_INVALID && (e->status == 0 || e->status == status);
}

int h_point_dtypes(const h_case *c, const h_profile *pr,
                   const h_profiles *all, int32_t out[SEL_DT_LAST + 1])
{
    int i, k, n = 0, inval = wants(c, pr, SEL_ERR_DTYPE);

    if (c->error || (c->profiles && !(c->profiles & (1u << (pr - all->v)))))
        return 0;
    /* Extension rules (COND-NZ-1) only where the profile lists them. */
    for (i = 0; i < c->nrules; i++)
        if (h_case_is_ext(all, c->rules[i]) &&
            !h_profile_has_ext(pr, c->rules[i]))
            return 0;
    /* Outside the profile only what the case explicitly expects to fail. */
    if (!c->has_btype && !(pr->modes & (1u << c->mode)) &&
        !wants(c, pr, SEL_ERR_ATTR))
        return 0;
    if (!c->dtypes) {
        for (i = SEL_DT_FIRST; i <= SEL_DT_LAST; i++)
            if (pr->dtypes & (1u << i))
                out[n++] = i;
        return n;
    }
    for (i = 0; i < c->ndtypes; i++) {
        int32_t d = c->dtypes[i];
        for (k = 0; k < n && out[k] != d; k++)
            ;
        if (k == n && ((pr->dtypes & (1u << d)) || inval))
            out[n++] = d;
    }
    return n;
}

/* Rank of a status in the order of ERR-ORDER-1, for picking the first. */
static int status_rank(int st, int early_arg)
{
    switch (st) {
    case SEL_OK: return 99;
    case SEL_ERR_ARG: return early_arg ? 0 : 4;
    case SEL_ERR_ATTR: return 1;
    case SEL_ERR_DTYPE: return 2;
    case SEL_ERR_SHAPE: return 3;
    default: return 5;
    }
}

static int first_status(int a, int b, int early)
{
    return status_rank(b, early) < status_rank(a, early) ? b : a;
}

/* Size a tensor; too large or invalid shapes get no data. */
static void size_tensor(h_tspec *t, int32_t fallback_dtype)
{
    size_t es = sel_dtype_size(t->dtype);
    int64_t count;

    if (!es)
        es = sel_dtype_size(fallback_dtype);
    t->dummy = h_shape_count(&t->shape, &count) != 0 ||
               (uint64_t)count > H_MAX_BYTES / es;
    t->bytes = t->dummy ? 0 : (size_t)count * es;
}

static uint8_t *gen_input(h_point *pt, int k, const h_case *c)
{
    h_tspec *t = &pt->t[k];
    int32_t gd = sel_dtype_size(t->dtype) ? t->dtype : pt->dtype;
    size_t es = k == 0 ? 1 : sel_dtype_size(gd), i, n = t->bytes / es;
    uint8_t *buf = h_realloc(NULL, t->bytes ? t->bytes : 1);
    h_rng r = h_rng_for(pt->addr, pt->seed, (unsigned)k);
    const h_lits *lit = k == 0 ? &c->cond_lit : &c->val[k - 1].lit;
    char err[200];

    if (k == 0 && c->cond != H_C_LITERAL) {
        h_gen_cond(c->cond, &r, buf, t->bytes);
        return buf;
    }
    if (k > 0 && c->val[k - 1].cls == H_V_SLEEF) {
        if (h_sleef_fill(c->val[k - 1].fn, gd, buf, (int64_t)n,
                         h_rng_next(&r)) != 0)
            h_point_fail(pt, k == 1 ? "then (x) data" : "else (y) data",
                 "sleef values exist for f64, f32, f16 and bf16 only");
        return buf;
    }
    if (k > 0 && c->val[k - 1].cls != H_V_LITERAL) {
        h_gen_values(gd, c->val[k - 1].cls, k - 1, &r, buf, n);
        return buf;
    }
    if (lit->n != n) {
        snprintf(err, sizeof err, "%zu literal elements for %zu", lit->n, n);
        h_point_fail(pt, k == 0 ? "cond" : k == 1 ? "then (x) data" : "else (y) data",
             err);
        return buf;
    }
    for (i = 0; i < n; i++) {
        uint64_t v = lit->v[i].bits;
        if (k > 0 && h_lit_bits(gd, &lit->v[i], &v, err, sizeof err))
            h_point_fail(pt, k == 1 ? "then (x) data" : "else (y) data", err);
        h_store(buf + i * es, es, v);
    }
    return buf;
}

/* The ABI view of the host tensors, with the case's NULL pointers. */
typedef struct abi {
    sel_tensor t[H_NT];
    sel_tensor *p[H_NT];
} abi;

static void to_abi(h_point *pt, abi *a, uint8_t *const data[H_NT])
{
    const h_case *c = pt->c;
    int k;

    for (k = 0; k < H_NT; k++) {
        a->t[k].dtype = pt->t[k].dtype;
        a->t[k].rank = pt->t[k].shape.rank;
        a->t[k].dims = pt->t[k].dims;
        a->t[k].data = data[k];
        a->p[k] = &a->t[k];
        if (c->null_t == k && c->null_what == H_N_TENSOR)
            a->p[k] = NULL;
        if (c->null_t == k && c->null_what == H_N_DIMS)
            a->t[k].dims = NULL;
        if (c->null_t == k && c->null_what == H_N_DATA)
            a->t[k].data = NULL;
    }
}

/* Runs the oracle's execute on copies laid out like the case asks
 * (in place, partial overlap); keeps the bytes it writes. */
static int oracle_execute(h_point *pt, const sel_impl *ref)
{
    const h_case *c = pt->c;
    size_t es = sel_dtype_size(pt->t[H_T_X].dtype), db = pt->t[H_T_DST].bytes;
    size_t xb = pt->t[H_T_X].bytes, yb = pt->t[H_T_Y].bytes, cap = xb;
    uint8_t *hx, *hy, *hd = NULL, *dst, *buf[H_NT];
    abi a;
    int st, k;

    if (c->alias == H_A_PARTIAL && es + db > cap)
        cap = es + db;
    hx = h_realloc(NULL, cap ? cap : 1);
    memcpy(hx, pt->data[1], xb);
    memset(hx + xb, 0, cap - xb);
    hy = h_realloc(NULL, yb ? yb : 1);
    memcpy(hy, pt->data[2], yb);
    dst = c->alias == H_A_X ? hx : c->alias == H_A_Y ? hy
        : c->alias == H_A_PARTIAL ? hx + es : (hd = h_realloc(NULL, db ? db : 1));
    buf[0] = pt->data[0];
    buf[1] = hx;
    buf[2] = hy;
    buf[3] = dst;
    for (k = 0; k < H_NT; k++)
        if (pt->t[k].dummy)
            buf[k] = NULL;
    to_abi(pt, &a, buf);
    st = ref->execute(a.p[0], a.p[1], a.p[2], pt->b, a.p[3]);
    if (st == SEL_OK && !pt->t[H_T_DST].dummy) {
        pt->exp = h_realloc(NULL, db ? db : 1);
        memcpy(pt->exp, dst, db);
    }
    free(hx);
    free(hy);
    free(hd);
    return st;
}

static int same_shape(int32_t rank, const int64_t *dims, const h_shape *s)
{
    int32_t i;
    if (rank != s->rank)
        return 0;
    for (i = 0; i < rank; i++)
        if (dims[i] != s->dims[i])
            return 0;
    return 1;
}

/* The case's literal against the oracle: this is what checks the
 * reference with the spec's own examples. */
static void check_literal(h_point *pt)
{
    const h_expect *e = &pt->c->expect[pt->prof->bidirectional];
    int final = pt->exp_infer != SEL_OK ? pt->exp_infer : pt->exp_exec;
    size_t i, es = sel_dtype_size(pt->t[H_T_DST].dtype);
    char err[200], a[80], b[80];

    if (e->kind == H_E_INVALID && final == SEL_OK)
        snprintf(pt->litmsg, sizeof pt->litmsg, "the case expects %s, the "
                 "reference returns SEL_OK", e->status ?
                 sel_status_name(e->status) : "an error");
    else if (e->kind == H_E_INVALID && e->status && final != e->status)
        snprintf(pt->litmsg, sizeof pt->litmsg, "the case expects %s, the "
                 "reference returns %s", sel_status_name(e->status),
                 sel_status_name(final));
    else if ((e->kind == H_E_SHAPE || e->kind == H_E_DATA) &&
             (pt->exp_infer != SEL_OK ||
              !same_shape(pt->exp_rank, pt->exp_dims, &e->shape))) {
        h_shape got;
        memset(&got, 0, sizeof got);
        got.rank = pt->exp_rank;
        memcpy(got.dims, pt->exp_dims, sizeof pt->exp_dims);
        h_shape_str(&e->shape, a, sizeof a);
        h_shape_str(&got, b, sizeof b);
        snprintf(pt->litmsg, sizeof pt->litmsg, "the case expects shape %s, "
                 "the reference returns %s%s%s", a,
                 sel_status_name(pt->exp_infer),
                 pt->exp_infer == SEL_OK ? " with shape " : "",
                 pt->exp_infer == SEL_OK ? b : "");
    } else if (e->kind == H_E_DATA && !pt->valid) {
        snprintf(pt->litmsg, sizeof pt->litmsg, "the case expects data, the "
                 "reference's execute returns %s",
                 sel_status_name(pt->exp_exec));
    } else if (e->kind == H_E_DATA) {
        for (i = 0; i < e->data.n; i++) {
            uint64_t want, got = h_load(pt->exp + i * es, es);
            if (h_lit_bits(pt->t[H_T_DST].dtype, &e->data.v[i], &want, err,
                           sizeof err)) {
                h_point_fail(pt, "expect.data", err);
                return;
            }
            if (want != got) {
                h_bits_note(pt->t[H_T_DST].dtype, want, a, sizeof a);
                h_bits_note(pt->t[H_T_DST].dtype, got, b, sizeof b);
                snprintf(pt->litmsg, sizeof pt->litmsg, "expect.data[%zu] is "
                         "%s, the reference wrote %s", i + 1, a, b);
                return;
            }
        }
    }
}

void h_point_describe(h_point *pt, const h_case *c, int32_t dtype)
{
    char s[3][120];
    int k, n;

    snprintf(pt->addr, sizeof pt->addr, "%s:%s[%s]", c->stem, c->id,
             sel_dtype_name(dtype));
    for (k = 0; k < 3; k++)
        h_shape_str(&c->shape[k], s[k], sizeof s[k]);
    n = snprintf(pt->desc, sizeof pt->desc, "%s:%s:%s ", s[0], s[1], s[2]);
    if (c->has_btype)
        snprintf(pt->desc + n, sizeof pt->desc - (size_t)n, "btype=%d",
                 (int)c->btype);
    else if (c->mode == SEL_BROADCAST_PDPD && c->axis != -1)
        snprintf(pt->desc + n, sizeof pt->desc - (size_t)n, "pdpd axis=%d",
                 (int)c->axis);
    else
        snprintf(pt->desc + n, sizeof pt->desc - (size_t)n, "%s",
                 sel_broadcast_name(c->mode));
}

/* A case that cites BITS-2 claims every pattern of its 8- or 16-bit
 * dtype: each input of class "patterns" must hold all of them, or the
 * claim is a script error (a generator that gives boolean data only 0
 * and 1 would make it silently false). */
static void check_patterns(h_point *pt)
{
    static uint8_t seen[65536 / 8];
    size_t es, i, n, have;
    int k;

    if (!h_case_cites(pt->c, "BITS-2"))
        return;
    for (k = 1; k < 3 && !pt->error[0]; k++) {
        es = sel_dtype_size(pt->t[k].dtype);
        if (pt->c->val[k - 1].cls != H_V_PATTERNS || es < 1 || es > 2)
            continue;
        memset(seen, 0, sizeof seen);
        n = pt->t[k].bytes / es;
        for (i = 0, have = 0; i < n; i++) {
            size_t v = (size_t)h_load(pt->data[k] + i * es, es);
            have += !(seen[v >> 3] >> (v & 7) & 1);
            seen[v >> 3] |= (uint8_t)(1u << (v & 7));
        }
        if (have < ((size_t)1 << (8 * es))) {
            char msg[160];
            snprintf(msg, sizeof msg, "cites BITS-2 but holds %zu of the "
                     "%zu patterns", have, (size_t)1 << (8 * es));
            h_point_fail(pt, k == 1 ? "then (x) data" : "else (y) data", msg);
        }
    }
}

/* The SHIFT run's offsets, each tensor its own (IO-ALIGN-1): kernels that
 * pick aligned loads from one pointer's alignment fail when the others
 * differ.  One of then, else, dst gets an odd offset, another one a
 * multiple of 2, 4 or 8 that is not a multiple of 16; the rest 0..63.
 * A case's offset puts every tensor at that one offset. */
static void pick_shifts(h_point *pt)
{
    static const int even[] = {2, 4, 8, 24, 40};
    h_rng r = h_rng_for(pt->addr, pt->seed, 9);
    uint64_t x = h_rng_next(&r);
    int k, odd = 1 + (int)(x % 3), ev = 1 + (odd + (int)(x >> 8) % 2) % 3;

    for (k = 0; k < H_NT; k++)
        pt->shift[k] = pt->c->offset >= 0 ? pt->c->offset
                     : (int)(h_rng_next(&r) % 64);
    if (pt->c->offset >= 0)
        return;
    pt->shift[odd] = 1 + 2 * (int)((x >> 16) % 4);
    pt->shift[ev] = even[(x >> 24) % 5];
}

/* The shapes as the ABI sees them, the oracle's infer under both cond
 * rules, and dst as the case describes it; no data yet. */
static int make_shapes(h_point *pt)
{
    const h_case *c = pt->c;
    const sel_impl *ref = ref_impl();
    uint8_t *none[H_NT] = {NULL, NULL, NULL, NULL};
    sel_broadcast other;
    int k, st;
    abi a;

    for (k = 0; k < 3; k++) {
        pt->t[k].shape = c->shape[k];
        pt->t[k].dtype = c->has_override[k] ? c->override_dt[k]
                       : k == 0 ? SEL_DT_BOOLEAN : pt->dtype;
        pt->t[k].dims = h_dims_new(&pt->t[k].shape);
        size_tensor(&pt->t[k], k == 0 ? SEL_DT_BOOLEAN : pt->dtype);
    }
    pt->t[H_T_DST].dtype = c->has_dst_dtype ? c->dst_dtype : pt->dtype;
    pt->t[H_T_DST].shape.raw = 1;
    pt->t[H_T_DST].dims = h_dims_new(&pt->t[H_T_DST].shape);
    to_abi(pt, &a, none);
    st = ref->infer(a.p[0], a.p[1], a.p[2], pt->b, &pt->exp_rank,
                    pt->exp_dims);
    other = pt->b;
    other.flags ^= SEL_COND_BIDIRECTIONAL;
    pt->other_rule_infer = ref->infer(a.p[0], a.p[1], a.p[2], other,
                                      &pt->other_rank, pt->other_dims);
    if (c->has_dst_dims) {
        pt->t[H_T_DST].shape = c->dst_shape;
    } else if (st == SEL_OK) {
        pt->t[H_T_DST].shape.rank = pt->exp_rank;
        memcpy(pt->t[H_T_DST].shape.dims, pt->exp_dims, sizeof pt->exp_dims);
    } else {
        pt->t[H_T_DST].shape.rank = 0;
    }
    free(pt->t[H_T_DST].dims);
    pt->t[H_T_DST].dims = h_dims_new(&pt->t[H_T_DST].shape);
    size_tensor(&pt->t[H_T_DST], pt->dtype);
    for (k = 0; k < H_NT && st == SEL_OK; k++)
        if (pt->t[k].dummy)
            h_point_fail(pt, "shape", "too large for the harness (its limit is 256 "
                 "MiB per tensor)");
    return st;
}

/* The profile's own rules: modes (ARG-ATTR-1) and dtypes (DT-PROFILE-1),
 * merged into the oracle's statuses in the order of ERR-ORDER-1. */
static void apply_profile(h_point *pt)
{
    const h_case *c = pt->c;
    int early = c->null_what == H_N_TENSOR || c->null_what == H_N_DIMS;

    pt->profile_status = SEL_OK;
    if (!c->has_btype && !(pt->prof->modes & (1u << c->mode)))
        pt->profile_status = SEL_ERR_ATTR;
    else if (!(pt->prof->dtypes & (1u << pt->dtype)))
        pt->profile_status = SEL_ERR_DTYPE;
    pt->exp_infer = first_status(pt->exp_infer, pt->profile_status, early);
    pt->exp_exec = first_status(pt->exp_exec, pt->profile_status, early);
    pt->valid = pt->exp_infer == SEL_OK && pt->exp_exec == SEL_OK;
    if (!pt->valid) {
        free(pt->exp);
        pt->exp = NULL;
    }
}

void h_point_make(h_point *pt, const h_case *c, const h_profile *pr,
                  int32_t dtype, uint64_t seed, int quick)
{
    int k, st;

    memset(pt, 0, sizeof *pt);
    pt->c = c;
    pt->prof = pr;
    pt->dtype = dtype;
    pt->seed = seed;
    h_point_describe(pt, c, dtype);
    pt->b.type = c->has_btype ? c->btype : c->mode;
    pt->b.axis = c->axis;
    pt->b.flags = (pr->bidirectional ? SEL_COND_BIDIRECTIONAL : 0) | c->flags;
    pick_shifts(pt);
    st = make_shapes(pt);
    if (h_mem_refuse(pt, quick)) {
        for (k = 0; k < 3; k++) /* the rest of the harness finds buffers */
            pt->data[k] = h_realloc(NULL, 1);
        return;
    }
    for (k = 0; k < 3; k++)
        pt->data[k] = gen_input(pt, k, c);
    if (!pt->error[0] && (c->fill[0] || c->fill[1] || c->fill[2]))
        h_point_fill(pt);
    check_patterns(pt);
    pt->digest = H_FNV_INIT;
    for (k = 0; k < 3; k++)
        pt->digest = h_digest(pt->digest, pt->data[k], pt->t[k].bytes);
    pt->ref_infer = pt->exp_infer = st;
    pt->ref_exec = pt->exp_exec = oracle_execute(pt, ref_impl());
    apply_profile(pt);
    if (!pt->error[0])
        check_literal(pt);
    if (!pt->error[0] && !pt->litmsg[0] && pt->valid && pt->exp && c->check)
        h_point_check(pt);
}

void h_point_free(h_point *pt)
{
    int k;
    for (k = 0; k < 3; k++)
        free(pt->data[k]);
    for (k = 0; k < H_NT; k++)
        free(pt->t[k].dims);
    free(pt->exp);
    memset(pt, 0, sizeof *pt);
}
