/* h_jdesc.h - describing a verdict (h_judge.c decides it): the YAML of a
 * failure, the first wrong element of dst, and the worker's death or
 * tampering in words.  Internal to h_judge.c.
 */
#ifndef H_JDESC_H
#define H_JDESC_H

#include "h_judge.h"

void h_jdesc_rules(const h_point *pt, h_diag *d);
void h_jdesc_context(const h_point *pt, h_diag *d);
/* "execute, run end", "infer", ... */
const char *h_jdesc_phase(int ph, const h_layout *L, char *buf, size_t n);
/* A dead or hung worker, or one whose checks failed, in v->reason. */
void h_jdesc_died(const h_layout *L, const h_jres *res, h_verdict *v);
void h_jdesc_tamper(const h_layout *L, const h_jres *res, h_verdict *v);
/* The whole diagnostic of a dst mismatch in run r at element first (of
 * n, bad of them wrong). */
void h_jdesc_mismatch(const h_point *pt, const h_layout *L, int r,
                      size_t first, size_t bad, size_t n, h_verdict *v);

#endif
