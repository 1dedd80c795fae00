/* h_wmem.c - the worker's page protections: guard pages PROT_NONE from
 * one job to the next, each run's dst read-only once its execute returned
 * (a late writer faults), and the check that no guard page is readable.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "h_wmem.h"

static size_t w_ps;

void h_wmem_init(size_t page)
{
    w_ps = page;
}

/* dst pages made read-only once their execute returned, and kept so
 * until a later call needs them writable: a write to one is a thread of
 * the library still writing (late), even tests later. */
#define H_RO_MAX 32
typedef struct ro_range {
    uint8_t *lo, *hi;
    uint32_t seq;
    int run;
} ro_range;
static ro_range ro[H_RO_MAX];
static int nro;

/* run + 1 of this job's frozen dst at a, -1 for an earlier job's, or 0. */
int h_wmem_late(uintptr_t a, uint32_t seq)
{
    int i;
    for (i = 0; i < nro; i++)
        if (a >= (uintptr_t)ro[i].lo && a < (uintptr_t)ro[i].hi)
            return ro[i].seq == seq ? ro[i].run + 1 : -1;
    return 0;
}

/* Makes every frozen range that meets [lo, hi) writable again. */
void h_wmem_thaw(const uint8_t *lo, const uint8_t *hi)
{
    int i = 0;

    while (i < nro)
        if (ro[i].lo < hi && lo < ro[i].hi) {
            mprotect(ro[i].lo, (size_t)(ro[i].hi - ro[i].lo),
                     PROT_READ | PROT_WRITE);
            ro[i] = ro[--nro];
        } else {
            i++;
        }
}

/* Guard pages stay protected from one job to the next; only the pages
 * that change role cost a system call (small tests reuse one layout). */
static uint8_t *cur_guard[H_GUARDS_MAX];
static int ncur;

static int has(uint8_t *const *v, int n, const uint8_t *p)
{
    int i;
    for (i = 0; i < n; i++)
        if (v[i] == p)
            return 1;
    return 0;
}

void h_wmem_protect(const h_job *job)
{
    int i;

    for (i = 0; i < job->nguards; i++)
        h_wmem_thaw(job->guards[i], job->guards[i] + w_ps);
    for (i = 0; i < ncur; i++)
        if (!has(job->guards, job->nguards, cur_guard[i]))
            mprotect(cur_guard[i], w_ps, PROT_READ | PROT_WRITE);
    for (i = 0; i < job->nguards; i++)
        if (!has(cur_guard, ncur, job->guards[i]))
            mprotect(job->guards[i], w_ps, PROT_NONE);
    memcpy(cur_guard, job->guards, (size_t)job->nguards * sizeof *cur_guard);
    ncur = job->nguards;
}

/* The pages of run r's dst: 0, or -1 when they hold a guard page, fall
 * outside the arena or have no bytes. */
static int dst_pages(const h_job *job, int r, const uint8_t *lo_a,
                     const uint8_t *hi_a, uint8_t **lo, uint8_t **hi)
{
    const h_jten *d = &job->run[r].t[H_T_DST];
    size_t n = sel_dtype_size(d->dtype);
    int32_t i;

    if (!d->data || !d->dims || d->rank < 0 || d->rank > SEL_MAX_RANK || !n)
        return -1;
    for (i = 0; i < d->rank; i++) {
        if (d->dims[i] < 0 || (d->dims[i] && n > (size_t)(hi_a - lo_a) / (size_t)d->dims[i]))
            return -1;
        n *= (size_t)d->dims[i];
    }
    *lo = (uint8_t *)((uintptr_t)d->data / w_ps * w_ps);
    *hi = (uint8_t *)(((uintptr_t)d->data + n + w_ps - 1) / w_ps * w_ps);
    if (!n || *lo < lo_a || *hi > hi_a)
        return -1;
    for (i = 0; i < job->nguards; i++)
        if (job->guards[i] >= *lo && job->guards[i] < *hi)
            return -1;
    return 0;
}

/* Before run r's execute: its dst writable, whatever an earlier job froze. */
void h_wmem_thaw_dst(const h_job *job, int r, const uint8_t *lo_a,
                     const uint8_t *hi_a)
{
    const h_jten *d = &job->run[r].t[H_T_DST];
    uint8_t *lo, *hi;

    if (dst_pages(job, r, lo_a, hi_a, &lo, &hi) == 0)
        h_wmem_thaw(lo, hi);
    else if (d->data) /* a dst we cannot size: nothing near it stays frozen */
        h_wmem_thaw(d->data - w_ps, d->data + 2 * w_ps);
}

/* After run r's execute returned: its dst pages read-only. */
void h_wmem_freeze_dst(const h_job *job, int r, const uint8_t *lo_a,
                       const uint8_t *hi_a, uint32_t seq)
{
    uint8_t *lo, *hi;

    if (dst_pages(job, r, lo_a, hi_a, &lo, &hi))
        return;
    if (nro == H_RO_MAX)
        h_wmem_thaw(lo_a, hi_a);
    if (mprotect(lo, (size_t)(hi - lo), PROT_READ) == 0) {
        ro[nro].lo = lo;
        ro[nro].hi = hi;
        ro[nro].seq = seq;
        ro[nro++].run = r;
    }
}

/* The first guard page that is readable (a PROT_NONE page makes the
 * kernel's read of a path fail with EFAULT), as guard index + 1. */
int h_wmem_unprotected(const h_job *job)
{
    int i;
    for (i = 0; i < job->nguards; i++)
        if (faccessat(AT_FDCWD, (const char *)job->guards[i], F_OK, 0) == 0 ||
            errno != EFAULT)
            return i + 1;
    return 0;
}

