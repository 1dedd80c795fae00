/* h_wmem.h - the worker's page protections (h_wmem.c): guard pages, dst
 * frozen after its execute, the readability probe.  Internal to
 * selcheck-worker (h_wproc.c).
 */
#ifndef H_WMEM_H
#define H_WMEM_H

#include <stddef.h>
#include <stdint.h>

#include "h_worker.h"

void h_wmem_init(size_t page);
/* For a fault at a (async-signal-safe): run + 1 of job seq's frozen dst,
 * -1 for an earlier job's, 0 when a is in no frozen dst. */
int h_wmem_late(uintptr_t a, uint32_t seq);
/* Makes every frozen range that meets [lo, hi) writable again. */
void h_wmem_thaw(const uint8_t *lo, const uint8_t *hi);
/* The job's guard pages PROT_NONE (only those that changed cost a call). */
void h_wmem_protect(const h_job *job);
/* Before run r's execute: its dst writable; after: read-only, for job seq.
 * [lo_a, hi_a): the arena. */
void h_wmem_thaw_dst(const h_job *job, int r, const uint8_t *lo_a,
                     const uint8_t *hi_a);
void h_wmem_freeze_dst(const h_job *job, int r, const uint8_t *lo_a,
                       const uint8_t *hi_a, uint32_t seq);
/* The first guard page found readable, + 1; 0 when all are PROT_NONE. */
int h_wmem_unprotected(const h_job *job);

#endif
