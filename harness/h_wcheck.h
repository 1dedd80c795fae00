/* h_wcheck.h - what the judge checks of a worker before believing it:
 * every field of every reply, the guard pages' contents and protection
 * after the calls.  Internal to h_worker.c.
 */
#ifndef H_WCHECK_H
#define H_WCHECK_H

#include <stddef.h>
#include <stdint.h>

#include "h_wproto.h"

/* A reply to the job numbered seq, with the facts copied into res; 0, or
 * -1 with res->bad set.  fault: an M_FAULT came before this message. */
int h_wcheck_reply(const h_wrep *m, uint32_t seq, const h_job *job, int fault,
                   h_jres *res);
/* Before the job: guard pages that were not guards last time get the
 * pattern (prev: last job's guard list, updated). */
void h_wcheck_fill(const h_job *job, uint8_t **prev, int *nprev, size_t ps);
/* After the reply: every guard page still holds the pattern, and none was
 * found readable by the worker (unprotected: guard index + 1, or 0).  A
 * failure sets res->tamper, res->guard and res->guard_addr. */
void h_wcheck_guards(const h_job *job, size_t ps, int unprotected,
                     h_jres *res);

#endif
