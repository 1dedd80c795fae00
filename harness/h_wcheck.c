/* h_wcheck.c - the judge believes nothing the worker says unchecked: a
 * reply that does not fit the job is "forged or corrupt", and the guard
 * pages' bytes are checked in our own mapping of the arena.
 */
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "h_wcheck.h"

#define GUARD_FILL 0xe7 /* a guard page's bytes, as the judge wrote them */

static int bad(h_jres *res, const char *fmt, long a, long b)
{
    snprintf(res->bad, sizeof res->bad, fmt, a, b);
    return -1;
}

static int check_fault(const h_wrep *m, const h_job *job, h_jres *res)
{
    if (m->signo < 1 || m->signo > 64)
        return bad(res, "signal number %ld", m->signo, 0);
    if (m->phase < 0 || m->phase >= H_PH_EXEC0 + job->nruns)
        return bad(res, "phase %ld in a job of %ld runs", m->phase, job->nruns);
    if (m->fault < 0 || m->fault > 2 || m->write < -1 || m->write > 1)
        return bad(res, "fault flags %ld/%ld", m->fault, m->write);
    if (m->late < -1 || m->late > job->nruns)
        return bad(res, "late run %ld of %ld", m->late, job->nruns);
    res->signo = m->signo;
    res->fault = m->fault;
    res->write = m->write;
    res->addr = (uintptr_t)m->addr;
    res->phase = m->phase;
    res->late = m->late;
    res->syscall = m->syscall;
    return 0;
}

static int check_done(const h_wrep *m, const h_job *job, h_jres *res)
{
    int r, want;

    if (m->supported != 0 && m->supported != 1)
        return bad(res, "supported = %ld", m->supported, 0);
    want = m->supported ? job->nruns : 0;
    if (m->nexec != want) /* counts come from what we asked */
        return bad(res, "%ld runs executed, %ld asked", m->nexec, want);
    if (m->phase || m->signo || m->fault || m->late || m->syscall)
        return bad(res, "fault fields set in a normal reply (phase %ld, "
                   "signal %ld)", m->phase, m->signo);
    if (m->handlers > 3 || m->children < 0 || m->children > 1 ||
        m->unprotected < 0 || m->unprotected > job->nguards)
        return bad(res, "check fields %ld/%ld", (long)m->handlers, m->children);
    res->supported = m->supported;
    res->infer_st = m->infer_st;
    res->rank = m->rank;
    memcpy(res->dims, m->dims, sizeof res->dims);
    res->nexec = want;
    res->unprotected = m->unprotected;
    for (r = 0; r < want; r++)
        res->exec_st[r] = m->exec_st[r];
    if (m->handlers)
        snprintf(res->tamper, sizeof res->tamper, "replaced the %s handler "
                 "the guard pages rely on (re-armed)", m->handlers == 1
                 ? "SIGSEGV" : m->handlers == 2 ? "SIGBUS" : "SIGSEGV and SIGBUS");
    else if (m->children)
        snprintf(res->tamper, sizeof res->tamper, "left a child process "
                 "running after the calls (the worker was restarted)");
    return 0;
}

int h_wcheck_reply(const h_wrep *m, uint32_t seq, const h_job *job, int fault,
                   h_jres *res)
{
    if (m->magic != H_WMAGIC)
        return bad(res, "bad magic number 0x%lx", (long)m->magic, 0);
    if (m->seq != seq)
        return bad(res, "sequence number %ld, expected %ld", (long)m->seq,
                   (long)seq);
    if (m->kind == M_FAULT && !fault)
        return check_fault(m, job, res);
    if (m->kind == M_DONE && !fault)
        return check_done(m, job, res);
    return bad(res, fault ? "a message of kind %ld after a fault"
                          : "message kind %ld", m->kind, 0);
}

static int was(uint8_t *const *v, int n, const uint8_t *p)
{
    int i;
    for (i = 0; i < n; i++)
        if (v[i] == p)
            return 1;
    return 0;
}

void h_wcheck_fill(const h_job *job, uint8_t **prev, int *nprev, size_t ps)
{
    int i;

    for (i = 0; i < job->nguards; i++)
        if (!was(prev, *nprev, job->guards[i]))
            memset(job->guards[i], GUARD_FILL, ps);
    memcpy(prev, job->guards, (size_t)job->nguards * sizeof *prev);
    *nprev = job->nguards;
}

void h_wcheck_guards(const h_job *job, size_t ps, int unprotected, h_jres *res)
{
    static uint8_t fill[65536];
    size_t k;
    int g;

    if (!fill[0])
        memset(fill, GUARD_FILL, sizeof fill);
    for (g = 0; g < job->nguards; g++) {
        if (ps <= sizeof fill && !memcmp(job->guards[g], fill, ps))
            continue;
        for (k = 0; k < ps && job->guards[g][k] == GUARD_FILL; k++)
            ;
        if (k == ps)
            continue;
        res->guard = g;
        res->guard_addr = (uintptr_t)(job->guards[g] + k);
        snprintf(res->tamper, sizeof res->tamper, "wrote into a guard page, "
                 "which it must have unprotected");
        memset(job->guards[g], GUARD_FILL, ps);
        return;
    }
    if (unprotected > 0) {
        res->guard = unprotected - 1;
        res->guard_addr = 0;
        snprintf(res->tamper, sizeof res->tamper, "unprotected a guard page "
                 "(readable after the calls; PROT_NONE expected)");
    }
}
