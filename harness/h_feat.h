/* h_feat.h - the features of a test and of a failure (enum h_feat in
 * h_results.h) and their names in plain words, for the diagnosis and
 * the report.
 */
#ifndef H_FEAT_H
#define H_FEAT_H

#include "h_point.h"
#include "h_results.h"

/* f: H_NFEAT flags, all set from the point (the H_F_NTEST first ones). */
void h_feat_point(const h_point *pt, unsigned char *f);
/* The failure's flags (H_F_NTEST and up) from its verdict. */
void h_feat_verdict(const h_verdict *v, unsigned char *f);
/* "a rank-0 input", "2-byte dtypes", "only the last element wrong". */
const char *h_feat_name(int feat);

#endif
