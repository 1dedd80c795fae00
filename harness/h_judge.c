/* h_judge.c - decides the verdict: the worker's death, a forged reply or a
 * failed check first, then supports, infer (status and shape), every
 * execute run (statuses agreeing between runs, damage outside dst, dst
 * bytes).  The first failure wins; h_jdesc.c puts it in words.
 */
#include <stdio.h>
#include <string.h>

#include "h_dtype.h"
#include "h_jdesc.h"
#include "h_judge.h"

static void set(h_verdict *v, int outcome, const char *fmt, const char *a,
                const char *b, const char *c)
{
    v->outcome = outcome;
    snprintf(v->reason, sizeof v->reason, fmt, a, b, c);
}

int h_judge_point(const h_point *pt, h_verdict *v)
{
    memset(v, 0, sizeof *v);
    if (pt->error[0]) {
        set(v, H_FAIL, "script error: %s", pt->error, "", "");
    } else if (pt->litmsg[0]) {
        set(v, H_FAIL, "the reference disagrees with the case's expect: %s",
            pt->litmsg, "", "");
    } else if (pt->checkmsg[0]) {
        set(v, H_FAIL, "the case's check fails on the reference's output: %s",
            pt->checkmsg, "", "");
    } else {
        return 0;
    }
    h_diag_str(&v->diag, 0, "message", "%s", v->reason);
    h_jdesc_rules(pt, &v->diag);
    h_jdesc_context(pt, &v->diag);
    return 1;
}

static void shape_of(int32_t rank, const int64_t *dims, char *buf, size_t n)
{
    h_shape s;
    memset(&s, 0, sizeof s);
    s.rank = rank < 0 || rank > SEL_MAX_RANK ? -1 : rank;
    if (s.rank > 0)
        memcpy(s.dims, dims, (size_t)rank * sizeof *dims);
    h_shape_str(&s, buf, n);
    if (s.rank < 0)
        snprintf(buf, n, "rank %d", (int)rank);
}

/* Why a valid case may be rejected: a one-way implementation under a
 * bidirectional profile. */
static const char *bidir_hint(const h_point *pt, int got)
{
    if (pt->prof->bidirectional && got == SEL_ERR_SHAPE &&
        pt->other_rule_infer != SEL_OK)
        return "; valid only under the bidirectional cond rule (BC-NUMPY-5): "
               "the implementation may be ignoring SEL_COND_BIDIRECTIONAL";
    return "";
}

static const char *lenient_hint(const h_point *pt)
{
    if (!pt->prof->bidirectional && pt->exp_infer == SEL_ERR_SHAPE &&
        pt->other_rule_infer == SEL_OK)
        return " (valid only under the bidirectional cond rule, BC-NUMPY-5)";
    return "";
}

/* An implementation with more dtypes or modes than the profile returns
 * what the reference does where the profile would reject first. */
static int beyond_profile(const h_point *pt, int got, int ref)
{
    return pt->profile_status != SEL_OK && got != pt->profile_status &&
           got == ref;
}

/* Outcomes of one step: go on, failed (reason set), or final (v set). */
enum { GO, FAILED, FINAL };

static int judge_infer(const h_point *pt, const h_jres *res, h_verdict *v,
                       int *lenient)
{
    char a[160], b[160];

    if (pt->exp_infer == SEL_OK && res->infer_st == SEL_ERR_UNSUPPORTED) {
        v->outcome = H_SKIP;
        snprintf(v->reason, sizeof v->reason, "infer returned "
                 "SEL_ERR_UNSUPPORTED");
        return FINAL;
    }
    if (pt->exp_infer == SEL_OK && res->infer_st != SEL_OK) {
        snprintf(v->reason, sizeof v->reason, "rejected a valid case: infer "
                 "returned %s%s", sel_status_name(res->infer_st),
                 bidir_hint(pt, res->infer_st));
        return FAILED;
    }
    if (pt->exp_infer == SEL_OK) {
        shape_of(pt->exp_rank, pt->exp_dims, a, sizeof a);
        shape_of(res->rank, res->dims, b, sizeof b);
        if (strcmp(a, b) == 0)
            return GO;
        snprintf(v->reason, sizeof v->reason, "infer: wrong shape: expected "
                 "%s, got %s", a, b);
        return FAILED;
    }
    if (res->infer_st == SEL_OK ||
        beyond_profile(pt, res->infer_st, pt->ref_infer)) {
        *lenient = 1;
        return GO;
    }
    if (res->infer_st == pt->exp_infer)
        return GO;
    snprintf(v->reason, sizeof v->reason, "infer returned %s, expected %s",
             sel_status_name(res->infer_st), sel_status_name(pt->exp_infer));
    return FAILED;
}

/* The runs of one test ask the same question: different answers (say
 * SEL_ERR_UNSUPPORTED only when misaligned) are a failure, not a SKIP.
 * The first run whose status differs from run 0's, or 0. */
static int differs(const h_jres *res)
{
    int r;
    for (r = 1; r < res->nexec && r < H_RUNS_MAX; r++)
        if (res->exec_st[r] != res->exec_st[0])
            return r;
    return 0;
}

static int disagree(const h_layout *L, const h_jres *res, int r, h_verdict *v)
{
    snprintf(v->reason, sizeof v->reason, "answers disagree between runs of "
             "one test: execute returned %s in run %s, %s in run %s",
             sel_status_name(res->exec_st[r]), h_run_name(L->kinds[r]),
             sel_status_name(res->exec_st[0]), h_run_name(L->kinds[0]));
    return FAILED;
}

/* dst of run r against the oracle, byte for byte. */
static int compare(const h_point *pt, const h_layout *L, int r, h_verdict *v)
{
    const uint8_t *got = h_layout_dst(L, r), *exp = pt->exp;
    size_t es = sel_dtype_size(pt->t[H_T_DST].dtype);
    size_t n = pt->t[H_T_DST].bytes / es, i, first = 0, bad = 0;

    if (!got || n == 0)
        return GO;
    for (i = 0; i < n; i++)
        if (memcmp(got + i * es, exp + i * es, es) != 0 && bad++ == 0)
            first = i;
    if (!bad)
        return GO;
    h_jdesc_mismatch(pt, L, r, first, bad, n, v);
    return FINAL;
}

static int judge_run(const h_point *pt, const h_layout *L, const h_jres *res,
                     int r, h_verdict *v, int *lenient)
{
    const char *run = h_run_name(L->kinds[r]);
    int st = res->exec_st[r];
    char msg[400];

    if (h_layout_damage(L, pt, r, msg, sizeof msg)) {
        snprintf(v->reason, sizeof v->reason, "%s", msg);
        return FAILED;
    }
    if (st != res->exec_st[0] || (st == SEL_ERR_UNSUPPORTED && differs(res)))
        return disagree(L, res, st != res->exec_st[0] ? r : differs(res), v);
    if (pt->exp_exec == SEL_OK && st == SEL_ERR_UNSUPPORTED) {
        v->outcome = H_SKIP;
        snprintf(v->reason, sizeof v->reason, "execute returned "
                 "SEL_ERR_UNSUPPORTED");
        return FINAL;
    }
    if (pt->exp_exec == SEL_OK && st != SEL_OK) {
        snprintf(v->reason, sizeof v->reason, "rejected a valid case: execute "
                 "returned %s (run %s)%s", sel_status_name(st), run,
                 bidir_hint(pt, st));
        return FAILED;
    }
    if (pt->exp_exec == SEL_OK) /* the partner's bytes in its thread run */
        return compare(h_layout_point(L, pt, r), L, r, v);
    if (st == SEL_OK || beyond_profile(pt, st, pt->ref_exec)) {
        *lenient = 1;
        return GO;
    }
    if (st == pt->exp_exec)
        return GO;
    snprintf(v->reason, sizeof v->reason, "execute returned %s, expected %s "
             "(run %s)", sel_status_name(st), sel_status_name(pt->exp_exec), run);
    return FAILED;
}

static void lenient_reason(const h_point *pt, h_verdict *v)
{
    if (pt->profile_status == SEL_ERR_DTYPE)
        snprintf(v->reason, sizeof v->reason, "lenient: handles %s, which "
                 "profile %s does not have (DT-PROFILE-1)",
                 sel_dtype_name(pt->dtype), pt->prof->name);
    else if (pt->profile_status == SEL_ERR_ATTR)
        snprintf(v->reason, sizeof v->reason, "lenient: handles mode %s, "
                 "which profile %s does not have",
                 sel_broadcast_name(pt->c->mode), pt->prof->name);
    else
        snprintf(v->reason, sizeof v->reason, "lenient: accepted what the "
                 "profile rejects with %s%s",
                 sel_status_name(pt->exp_infer != SEL_OK ? pt->exp_infer
                                                         : pt->exp_exec),
                 lenient_hint(pt));
}

/* The YAML of a failure that is not a dst mismatch. */
static void describe(const h_point *pt, const h_jres *res, h_verdict *v)
{
    char st[200];
    size_t used = 0;
    int r;

    v->outcome = H_FAIL;
    h_diag_str(&v->diag, 0, "message", "%s", v->reason);
    h_jdesc_rules(pt, &v->diag);
    if (!res->died && !res->bad[0]) {
        st[0] = 0;
        for (r = 0; r < res->nexec && r < H_RUNS_MAX && used < sizeof st; r++)
            used += (size_t)snprintf(st + used, sizeof st - used, "%s%s",
                                     r ? ", " : "",
                                     sel_status_name(res->exec_st[r]));
        h_diag_raw(&v->diag, 0, "expected", "{infer: %s, execute: %s}",
                   sel_status_name(pt->exp_infer),
                   sel_status_name(pt->exp_exec));
        h_diag_raw(&v->diag, 0, "got", "{infer: %s, execute: [%s]}",
                   sel_status_name(res->infer_st), st);
    }
    h_jdesc_context(pt, &v->diag);
}

static int judge_calls(const h_point *pt, const h_layout *L,
                       const h_jres *res, h_verdict *v, int *lenient)
{
    int r, step = judge_infer(pt, res, v, lenient);

    for (r = 0; step == GO && r < res->nexec && r < H_RUNS_MAX; r++)
        step = judge_run(pt, L, res, r, v, lenient);
    return step;
}

void h_judge(const h_point *pt, const h_layout *L, const h_jres *res,
             int strict, h_verdict *v)
{
    int lenient = 0, step;

    memset(v, 0, sizeof *v);
    if (res->note[0]) /* the sandbox's gaps, a hang cluster's new limit */
        h_tap_comment("%s", res->note);
    if (res->died) {
        h_jdesc_died(L, res, v);
        step = FAILED;
    } else if (res->bad[0] || res->tamper[0]) {
        h_jdesc_tamper(L, res, v);
        step = FAILED;
    } else if (!res->supported) {
        v->outcome = H_SKIP;
        snprintf(v->reason, sizeof v->reason, "not supported: %s under %s",
                 sel_dtype_name(pt->dtype),
                 sel_broadcast_name(L->job.sup_btype));
        return;
    } else {
        step = judge_calls(pt, L, res, v, &lenient);
    }
    if (step == FINAL)
        return;
    if (step == GO && lenient) {
        lenient_reason(pt, v);
        if (!strict) {
            v->outcome = H_TODO;
            return;
        }
        step = FAILED;
    }
    if (step == GO) {
        v->outcome = H_PASS;
        return;
    }
    describe(pt, res, v);
}
