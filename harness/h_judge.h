/* h_judge.h - the verdict on one implementation for one test: what it
 * returned and wrote against what the oracle expects, as a TAP outcome
 * with a diagnostic that points at the first wrong element.
 */
#ifndef H_JUDGE_H
#define H_JUDGE_H

#include "h_layout.h"
#include "h_tap.h"

typedef struct h_verdict {
    int outcome;        /* enum h_outcome */
    char reason[1200];  /* SKIP/TODO reason, or the failure's message */
    h_diag diag;        /* the body of the YAML block, without repro */
} h_verdict;

/* A point that cannot run (script error, reference vs literal): fills v
 * and returns 1; 0 when the point is fine. */
int h_judge_point(const h_point *pt, h_verdict *v);
void h_judge(const h_point *pt, const h_layout *L, const h_jres *res,
             int strict, h_verdict *v);

#endif
