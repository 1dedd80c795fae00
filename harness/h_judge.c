/* h_judge.c - compares what an implementation did with what the oracle
 * expects: crash or hang first, then supports, infer (status and shape),
 * each execute run (status, damage outside dst, dst bytes).  The first
 * failure is the verdict; accepting an invalid case is TODO "lenient".
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "h_dtype.h"
#include "h_judge.h"

static void rules_line(const h_point *pt, h_diag *d)
{
    char buf[600];
    size_t used = 0;
    int i;

    buf[0] = 0;
    for (i = 0; i < pt->c->nrules && used < sizeof buf; i++)
        used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s",
                                 i ? ", " : "", pt->c->rules[i]);
    h_diag_raw(d, 0, "rules", "[%s]", buf);
}

static void context(const h_point *pt, h_diag *d)
{
    char out[200];

    h_diag_str(d, 0, "shapes", "%s", pt->desc);
    if (pt->exp_infer == SEL_OK) {
        h_shape s;
        memset(&s, 0, sizeof s);
        s.rank = pt->exp_rank;
        memcpy(s.dims, pt->exp_dims, sizeof pt->exp_dims);
        h_shape_str(&s, out, sizeof out);
        h_diag_str(d, 0, "output", "%s", out);
    }
    h_diag_raw(d, 0, "dtype", "%s", sel_dtype_name(pt->dtype));
    h_diag_raw(d, 0, "profile", "%s", pt->prof->name);
    h_diag_raw(d, 0, "seed", "%llu", (unsigned long long)pt->seed);
}

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
    rules_line(pt, &v->diag);
    context(pt, &v->diag);
    return 1;
}

static const char *phase_name(int ph, const h_layout *L, char *buf, size_t n)
{
    if (ph == H_PH_SUPPORTS)
        return "supports";
    if (ph == H_PH_INFER)
        return "infer";
    if (ph >= H_PH_EXEC0 && ph < H_PH_EXEC0 + H_RUNS_MAX) {
        snprintf(buf, n, "execute, run %s", h_run_name(L->kinds[ph - H_PH_EXEC0]));
        return buf;
    }
    return "the worker";
}

static const char *sig_name(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGABRT: return "SIGABRT";
    case SIGTRAP: return "SIGTRAP";
    case SIGSYS: return "SIGSYS";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    default: return "a signal";
    }
}

static void died(const h_layout *L, const h_jres *res, h_verdict *v)
{
    char where[64], what[300];
    const char *ph = phase_name(res->phase, L, where, sizeof where);

    v->outcome = H_FAIL;
    if (res->timeout) {
        snprintf(v->reason, sizeof v->reason, "timeout after %d s (in %s)",
                 res->timeout, ph);
        return;
    }
    if (res->signo && res->fault) {
        h_layout_fault(L, res, what, sizeof what);
        snprintf(v->reason, sizeof v->reason, "crashed with %s in %s: %s",
                 sig_name(res->signo), ph, what);
    } else if (res->signo) {
        snprintf(v->reason, sizeof v->reason, "crashed: killed by %s "
                 "(signal %d%s) in %s", sig_name(res->signo), res->signo,
                 res->signo == SIGSEGV || res->signo == SIGBUS
                     ? ", raised, not a memory fault" : "", ph);
    } else {
        snprintf(v->reason, sizeof v->reason, "the worker exited with status "
                 "%d in %s", res->exit_status, ph);
    }
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

/* Byte comparison of dst in run r; 1 and a diagnostic on a mismatch. */
static int compare(const h_point *pt, const h_layout *L, int r, h_verdict *v)
{
    const uint8_t *got = h_layout_dst(L, r), *exp = pt->exp;
    size_t es = sel_dtype_size(pt->t[H_T_DST].dtype);
    size_t n = pt->t[H_T_DST].bytes / es, i, first = 0, bad = 0, k;
    char a[100], b[100], coords[200];
    int64_t at[3], rest;
    uint64_t g, e, poison;
    int32_t d;
    h_diag *dg = &v->diag;

    if (!got || n == 0)
        return 0;
    for (i = 0; i < n; i++)
        if (memcmp(got + i * es, exp + i * es, es) != 0 && bad++ == 0)
            first = i;
    if (!bad)
        return 0;
    e = h_load(exp + first * es, es);
    g = h_load(got + first * es, es);
    poison = 0;
    for (k = 0; k < es; k++)
        poison |= (uint64_t)h_layout_poison(L, r, first * es + k) << (8 * k);
    v->outcome = H_FAIL;
    snprintf(v->reason, sizeof v->reason, "wrong bytes in dst at element %zu "
             "(run %s)", first, h_run_name(L->kinds[r]));
    h_diag_str(dg, 0, "message", "%s", v->reason);
    rules_line(pt, dg);
    h_diag_raw(dg, 0, "mismatches", "%zu/%zu", bad, n);
    h_diag_raw(dg, 0, "first_mismatch", "%s", "");
    h_diag_raw(dg, 2, "index", "%zu", first);
    coords[0] = 0;
    rest = (int64_t)first;
    for (d = pt->exp_rank - 1; d >= 0; d--) {
        char tmp[200];
        snprintf(tmp, sizeof tmp, "%lld%s%s", (long long)(rest % pt->exp_dims[d]),
                 coords[0] ? ", " : "", coords);
        snprintf(coords, sizeof coords, "%s", tmp);
        rest /= pt->exp_dims[d];
    }
    h_diag_raw(dg, 2, "coords", "[%s]", coords);
    h_bits_note(pt->t[H_T_DST].dtype, e, a, sizeof a);
    h_bits_note(pt->t[H_T_DST].dtype, g, b, sizeof b);
    if (h_point_locate(pt, first, at) == 0) {
        uint8_t cb = pt->data[0][at[0]];
        uint64_t other = h_load(pt->data[cb ? 2 : 1] + (size_t)at[cb ? 2 : 1] * es, es);
        char o[100];
        h_bits_note(pt->t[H_T_DST].dtype, other, o, sizeof o);
        h_diag_str(dg, 2, "cond", "0x%02x (cond[%lld])", cb, (long long)at[0]);
        h_diag_str(dg, 2, "branch", "%s", cb ? "then" : "else");
        h_diag_str(dg, 2, "expected", "%s from %s[%lld]", a,
                   cb ? "then" : "else", (long long)at[cb ? 1 : 2]);
        h_diag_str(dg, 2, "got", "%s%s", b,
                   g == poison ? " - never written (the poison)"
                   : g == other && other != e ? " - the branch cond did not choose"
                   : "");
        h_diag_str(dg, 2, "unselected", "%s from %s[%lld]", o,
                   cb ? "else" : "then", (long long)at[cb ? 2 : 1]);
    } else {
        h_diag_str(dg, 2, "expected", "%s", a);
        h_diag_str(dg, 2, "got", "%s%s", b,
                   g == poison ? " - never written (the poison)" : "");
    }
    context(pt, dg);
    return 1;
}

void h_judge(const h_point *pt, const h_layout *L, const h_jres *res,
             int strict, h_verdict *v)
{
    char a[160], b[160], msg[400];
    int r, lenient = 0, fail = 0;

    memset(v, 0, sizeof *v);
    if (res->died) {
        died(L, res, v);
        fail = 1;
    } else if (!res->supported) {
        v->outcome = H_SKIP;
        snprintf(v->reason, sizeof v->reason, "not supported: %s under %s",
                 sel_dtype_name(pt->dtype),
                 sel_broadcast_name(L->job.sup_btype));
        return;
    }
    /* infer */
    if (!fail && pt->exp_infer == SEL_OK && res->infer_st != SEL_OK) {
        if (res->infer_st == SEL_ERR_UNSUPPORTED) {
            v->outcome = H_SKIP;
            snprintf(v->reason, sizeof v->reason, "infer returned "
                     "SEL_ERR_UNSUPPORTED");
            return;
        }
        snprintf(v->reason, sizeof v->reason, "rejected a valid case: infer "
                 "returned %s%s", sel_status_name(res->infer_st),
                 bidir_hint(pt, res->infer_st));
        fail = 1;
    } else if (!fail && pt->exp_infer == SEL_OK) {
        shape_of(pt->exp_rank, pt->exp_dims, a, sizeof a);
        shape_of(res->rank, res->dims, b, sizeof b);
        if (strcmp(a, b) != 0) {
            snprintf(v->reason, sizeof v->reason, "infer: wrong shape: "
                     "expected %s, got %s", a, b);
            fail = 1;
        }
    } else if (!fail && (res->infer_st == SEL_OK ||
                         beyond_profile(pt, res->infer_st, pt->ref_infer))) {
        lenient = 1;
    } else if (!fail && res->infer_st != pt->exp_infer) {
        snprintf(v->reason, sizeof v->reason, "infer returned %s, expected "
                 "%s", sel_status_name(res->infer_st),
                 sel_status_name(pt->exp_infer));
        fail = 1;
    }
    /* execute, run by run */
    for (r = 0; !fail && r < res->nexec; r++) {
        int st = res->exec_st[r];
        const char *run = h_run_name(L->kinds[r]);
        if (h_layout_damage(L, pt, r, msg, sizeof msg)) {
            snprintf(v->reason, sizeof v->reason, "%s", msg);
            fail = 1;
        } else if (pt->exp_exec == SEL_OK && st == SEL_ERR_UNSUPPORTED) {
            v->outcome = H_SKIP;
            snprintf(v->reason, sizeof v->reason, "execute returned "
                     "SEL_ERR_UNSUPPORTED");
            return;
        } else if (pt->exp_exec == SEL_OK && st != SEL_OK) {
            snprintf(v->reason, sizeof v->reason, "rejected a valid case: "
                     "execute returned %s (run %s)%s", sel_status_name(st),
                     run, bidir_hint(pt, st));
            fail = 1;
        } else if (pt->exp_exec == SEL_OK) {
            if (compare(pt, L, r, v))
                return;
        } else if (st == SEL_OK || beyond_profile(pt, st, pt->ref_exec)) {
            lenient = 1;
        } else if (st != pt->exp_exec) {
            snprintf(v->reason, sizeof v->reason, "execute returned %s, "
                     "expected %s (run %s)", sel_status_name(st),
                     sel_status_name(pt->exp_exec), run);
            fail = 1;
        }
    }
    if (!fail && lenient && pt->profile_status == SEL_ERR_DTYPE)
        snprintf(v->reason, sizeof v->reason, "lenient: handles %s, which "
                 "profile %s does not have (DT-PROFILE-1)",
                 sel_dtype_name(pt->dtype), pt->prof->name);
    else if (!fail && lenient && pt->profile_status == SEL_ERR_ATTR)
        snprintf(v->reason, sizeof v->reason, "lenient: handles mode %s, "
                 "which profile %s does not have",
                 sel_broadcast_name(pt->c->mode), pt->prof->name);
    else if (!fail && lenient)
        snprintf(v->reason, sizeof v->reason, "lenient: accepted what the "
                 "profile rejects with %s%s",
                 sel_status_name(pt->exp_infer != SEL_OK ? pt->exp_infer
                                                         : pt->exp_exec),
                 lenient_hint(pt));
    if (!fail && lenient) {
        if (!strict) {
            v->outcome = H_TODO;
            return;
        }
        fail = 1;
    }
    if (!fail) {
        v->outcome = H_PASS;
        return;
    }
    v->outcome = H_FAIL;
    h_diag_str(&v->diag, 0, "message", "%s", v->reason);
    rules_line(pt, &v->diag);
    if (!res->died) {
        h_diag_raw(&v->diag, 0, "expected", "{infer: %s, execute: %s}",
                   sel_status_name(pt->exp_infer),
                   sel_status_name(pt->exp_exec));
        h_diag_raw(&v->diag, 0, "got", "{infer: %s, execute: [%s%s%s%s%s]}",
                   sel_status_name(res->infer_st),
                   res->nexec > 0 ? sel_status_name(res->exec_st[0]) : "",
                   res->nexec > 1 ? ", " : "",
                   res->nexec > 1 ? sel_status_name(res->exec_st[1]) : "",
                   res->nexec > 2 ? ", " : "",
                   res->nexec > 2 ? sel_status_name(res->exec_st[2]) : "");
    }
    context(pt, &v->diag);
}
