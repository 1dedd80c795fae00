/* h_jdesc.c - the words of a verdict: the rules and context lines, what a
 * crash, hang, forbidden call or tampering was, and the first wrong
 * element of dst with where it came from.  h_judge.c decides.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "h_dtype.h"
#include "h_jdesc.h"
#include "h_wsec.h"

void h_jdesc_rules(const h_point *pt, h_diag *d)
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

void h_jdesc_context(const h_point *pt, h_diag *d)
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

const char *h_jdesc_phase(int ph, const h_layout *L, char *buf, size_t n)
{
    if (ph == H_PH_SUPPORTS)
        return "supports";
    if (ph == H_PH_INFER)
        return "infer";
    if (ph >= H_PH_EXEC0 && ph < H_PH_EXEC0 + L->job.nruns) {
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

/* "past the end of dst: byte +0 after it" (h_layout_fault without its verb). */
static const char *where(const h_layout *L, uintptr_t addr, char *buf, size_t n)
{
    h_jres r;
    const char *sp;

    memset(&r, 0, sizeof r);
    r.addr = addr;
    r.write = -1;
    h_layout_fault(L, &r, buf, n);
    sp = strchr(buf, ' ');
    return sp && !strncmp(buf, "accessed ", 9) ? sp + 1 : buf;
}

static void timed_out(const h_jres *res, const char *ph, h_verdict *v)
{
    char t[32];

    if (res->timeout_ms % 1000 == 0 || res->timeout_ms <= 0)
        snprintf(t, sizeof t, "%d s", res->timeout_ms > 0 ? res->timeout_ms / 1000
                                                          : res->timeout);
    else
        snprintf(t, sizeof t, "%.2f s", res->timeout_ms / 1000.0);
    snprintf(v->reason, sizeof v->reason, "timeout after %s (in %s)", t, ph);
}

void h_jdesc_died(const h_layout *L, const h_jres *res, h_verdict *v)
{
    char ph_buf[64], what[300];
    const char *ph = h_jdesc_phase(res->phase, L, ph_buf, sizeof ph_buf);
    const char *call = h_wsec_name(res->syscall);

    v->outcome = H_FAIL;
    if (res->tamper[0])
        snprintf(v->reason, sizeof v->reason, "%s", res->tamper);
    else if (res->timeout)
        timed_out(res, ph, v);
    else if (res->late < 0)
        snprintf(v->reason, sizeof v->reason, "a thread of the library wrote "
                 "to the dst of an earlier test after its execute had "
                 "returned (crashed with %s in %s)", sig_name(res->signo), ph);
    else if (res->late > 0)
        snprintf(v->reason, sizeof v->reason, "a thread of the library wrote "
                 "to dst of run %s after that execute had returned (crashed "
                 "with %s in %s)", h_run_name(L->kinds[res->late - 1]),
                 sig_name(res->signo), ph);
    else if (res->signo == SIGSYS && call)
        snprintf(v->reason, sizeof v->reason, "crashed with SIGSYS in %s: "
                 "called %s on another process, which the worker's seccomp "
                 "filter forbids", ph, call);
    else if (res->signo && res->fault == 2)
        snprintf(v->reason, sizeof v->reason, "crashed with %s in %s: a "
                 "general-protection fault, which has no address: an aligned "
                 "vector load or store at an address that is not aligned "
                 "(movaps, vmovdqa; the ABI promises no alignment, "
                 "IO-ALIGN-1), or a non-canonical pointer",
                 sig_name(res->signo), ph);
    else if (res->signo && res->fault) {
        h_layout_fault(L, res, what, sizeof what);
        snprintf(v->reason, sizeof v->reason, "crashed with %s in %s: %s",
                 sig_name(res->signo), ph, what);
    } else if (res->signo)
        snprintf(v->reason, sizeof v->reason, "crashed: killed by %s "
                 "(signal %d%s) in %s", sig_name(res->signo), res->signo,
                 res->signo == SIGSEGV || res->signo == SIGBUS
                     ? ", raised, not a memory fault" : "", ph);
    else
        snprintf(v->reason, sizeof v->reason, "the worker exited with status "
                 "%d in %s", res->exit_status, ph);
}

void h_jdesc_tamper(const h_layout *L, const h_jres *res, h_verdict *v)
{
    char buf[300];

    v->outcome = H_FAIL;
    if (res->bad[0])
        snprintf(v->reason, sizeof v->reason, "forged or corrupt reply from "
                 "the worker: %s", res->bad);
    else if (res->guard >= 0 && res->guard < L->job.nguards)
        snprintf(v->reason, sizeof v->reason, "%s: %s", res->tamper,
                 where(L, res->guard_addr ? res->guard_addr
                                          : (uintptr_t)L->job.guards[res->guard],
                       buf, sizeof buf));
    else
        snprintf(v->reason, sizeof v->reason, "%s", res->tamper);
}

static void coords_of(const h_point *pt, size_t first, char *out, size_t n)
{
    int64_t rest = (int64_t)first;
    int32_t d;

    out[0] = 0;
    for (d = pt->exp_rank - 1; d >= 0; d--) {
        char tmp[200];
        snprintf(tmp, sizeof tmp, "%lld%s%s", (long long)(rest % pt->exp_dims[d]),
                 out[0] ? ", " : "", out);
        snprintf(out, n, "%s", tmp);
        rest /= pt->exp_dims[d];
    }
}

/* Where element first came from: cond byte, branch, both candidates. */
static void origin(const h_point *pt, size_t first, uint64_t e, uint64_t g,
                   uint64_t poison, h_diag *dg)
{
    size_t es = sel_dtype_size(pt->t[H_T_DST].dtype);
    int32_t dt = pt->t[H_T_DST].dtype;
    char a[100], b[100], o[100];
    int64_t at[3];

    h_bits_note(dt, e, a, sizeof a);
    h_bits_note(dt, g, b, sizeof b);
    if (h_point_locate(pt, first, at) != 0) {
        h_diag_str(dg, 2, "expected", "%s", a);
        h_diag_str(dg, 2, "got", "%s%s", b,
                   g == poison ? " - never written (the poison)" : "");
        return;
    }
    uint8_t cb = pt->data[0][at[0]];
    uint64_t other = h_load(pt->data[cb ? 2 : 1] + (size_t)at[cb ? 2 : 1] * es, es);
    h_bits_note(dt, other, o, sizeof o);
    h_diag_str(dg, 2, "cond", "0x%02x (cond[%lld])", cb, (long long)at[0]);
    h_diag_str(dg, 2, "branch", "%s", cb ? "then" : "else");
    h_diag_str(dg, 2, "expected", "%s from %s[%lld]", a, cb ? "then" : "else",
               (long long)at[cb ? 1 : 2]);
    h_diag_str(dg, 2, "got", "%s%s", b,
               g == poison ? " - never written (the poison)"
               : g == other && other != e ? " - the branch cond did not choose"
               : "");
    h_diag_str(dg, 2, "unselected", "%s from %s[%lld]", o, cb ? "else" : "then",
               (long long)at[cb ? 2 : 1]);
}

void h_jdesc_mismatch(const h_point *pt, const h_layout *L, int r,
                      size_t first, size_t bad, size_t n, h_verdict *v)
{
    size_t es = sel_dtype_size(pt->t[H_T_DST].dtype), k;
    const uint8_t *got = h_layout_dst(L, r);
    char coords[200];
    uint64_t poison = 0;
    h_diag *dg = &v->diag;

    for (k = 0; k < es; k++)
        poison |= (uint64_t)h_layout_poison(L, r, first * es + k) << (8 * k);
    v->outcome = H_FAIL;
    snprintf(v->reason, sizeof v->reason, "wrong bytes in dst at element %zu "
             "(run %s)", first, h_run_name(L->kinds[r]));
    h_diag_str(dg, 0, "message", "%s", v->reason);
    h_jdesc_rules(pt, dg);
    h_diag_raw(dg, 0, "mismatches", "%zu/%zu", bad, n);
    h_diag_raw(dg, 0, "first_mismatch", "%s", "");
    h_diag_raw(dg, 2, "index", "%zu", first);
    coords_of(pt, first, coords, sizeof coords);
    h_diag_raw(dg, 2, "coords", "[%s]", coords);
    origin(pt, first, h_load(pt->exp + first * es, es),
           h_load(got + first * es, es), poison, dg);
    h_jdesc_context(pt, dg);
}
