/* h_point_fn.c - a case's own fill and check functions on one test: the
 * inputs and the oracle's output handed to the front end (h_front.h) as
 * typed buffers, and what comes back turned into the point's verdict;
 * h_point_fail, which marks a point a script error.
 */
#include <stdio.h>

#include "h_front.h"
#include "h_gen.h"
#include "h_point.h"

void h_point_fail(h_point *pt, const char *what, const char *msg)
{
    if (!pt->error[0])
        snprintf(pt->error, sizeof pt->error, "%s:%d: %s[%s] %s: %s",
                 pt->c->file, pt->c->line, pt->c->id,
                 sel_dtype_name(pt->dtype), what, msg);
}

/* A tensor for the case's fill or check: its bytes read as its own dtype
 * (cond as boolean unless overridden; an unknown dtype as the test's). */
static h_fbuf fbuf(const h_point *pt, int k, void *data)
{
    h_fbuf b;

    b.dtype = sel_dtype_size(pt->t[k].dtype) ? pt->t[k].dtype
            : k == H_T_COND ? SEL_DT_BOOLEAN : pt->dtype;
    b.data = data;
    b.n = pt->t[k].bytes / sel_dtype_size(b.dtype);
    b.shape = &pt->t[k].shape;
    return b;
}

/* The case's fill functions, then, else, cond in that order, each seeing
 * the inputs as they are by then (cases/README.md). */
void h_point_fill(h_point *pt)
{
    static const int order[3] = {H_T_X, H_T_Y, H_T_COND};
    static const char *const what[3] = {"fill.cond", "fill.x", "fill.y"};
    const h_case *c = pt->c;
    h_rng r = h_rng_for(pt->addr, pt->seed, 10);
    char err[500];
    h_fbuf b[3];
    size_t i;
    int j, k;

    for (k = 0; k < 3; k++)
        b[k] = fbuf(pt, k, pt->data[k]);
    for (j = 0; j < 3 && !pt->error[0]; j++) {
        uint64_t seed = h_rng_next(&r);
        k = order[j];
        if (c->fill[k] &&
            h_front_fill(c, k, b, pt->dtype, seed, err, sizeof err) != 0)
            h_point_fail(pt, what[k], err);
    }
    if (!c->fill[H_T_COND] || pt->error[0] ||
        b[H_T_COND].dtype != SEL_DT_BOOLEAN || h_case_cites(c, "COND-NZ-1"))
        return;
    for (i = 0; i < b[H_T_COND].n; i++)
        if (pt->data[H_T_COND][i] > 1) {
            snprintf(err, sizeof err, "wrote %u at [%zu]: cond bytes other "
                     "than 0 and 1 need rule COND-NZ-1",
                     pt->data[H_T_COND][i], i);
            h_point_fail(pt, "fill.cond", err);
            return;
        }
}

/* The case's check on the oracle's output: every implementation must
 * write these bytes, so a property they lack fails each one. */
void h_point_check(h_point *pt)
{
    h_rng r = h_rng_for(pt->addr, pt->seed, 11);
    char msg[400];
    h_fbuf b[H_NT];
    int k;

    for (k = 0; k < 3; k++)
        b[k] = fbuf(pt, k, pt->data[k]);
    b[H_T_DST] = fbuf(pt, H_T_DST, pt->exp);
    k = h_front_check(pt->c, b, pt->dtype, h_rng_next(&r), msg, sizeof msg);
    if (k < 0)
        h_point_fail(pt, "check", msg);
    else if (k == 0)
        snprintf(pt->checkmsg, sizeof pt->checkmsg, "%s", msg);
}
