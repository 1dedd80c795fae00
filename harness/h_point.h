/* h_point.h - one test: a case under one profile for one dtype, with its
 * generated inputs and the oracle's verdict (the reference under the
 * profile's rules), which every implementation is then judged against.
 */
#ifndef H_POINT_H
#define H_POINT_H

#include <stddef.h>
#include <stdint.h>

#include "h_case.h"

/* The largest buffer the harness allocates for one tensor; a case asking
 * for more (on a shape the oracle accepts) is a script error. */
#define H_MAX_BYTES ((size_t)1 << 28)

/* A tensor as it reaches an implementation.  dummy: its shape is invalid
 * or too large, so it gets no data, only a pointer into a guard page. */
typedef struct h_tspec {
    int32_t dtype;
    h_shape shape;
    int64_t *dims;  /* all shape.rank dims, for the ABI */
    size_t bytes;
    int dummy;
} h_tspec;

typedef struct h_point {
    const h_case *c;
    const h_profile *prof;
    int32_t dtype;         /* then/else dtype of the address */
    char addr[200];        /* file:id[dtype] */
    char desc[300];        /* shapes and mode, for the TAP line */
    uint64_t seed;         /* --seed */
    sel_broadcast b;
    h_tspec t[H_NT];
    uint8_t *data[3];      /* the generated inputs */
    int valid;             /* the oracle expects SEL_OK from both calls */
    int ref_infer, ref_exec; /* the reference's statuses, before the profile */
    int exp_infer, exp_exec; /* ... and after: what an impl must return */
    int32_t exp_rank;
    int64_t exp_dims[SEL_MAX_RANK];
    uint8_t *exp;          /* expected dst bytes when valid */
    int other_rule_infer;  /* the oracle's infer under the other cond rule */
    int32_t other_rank;    /* ... and its shape, when SEL_OK */
    int64_t other_dims[SEL_MAX_RANK];
    int profile_status;    /* SEL_OK, or what the profile alone rejects */
    int shift[H_NT];       /* each tensor's misalignment in the SHIFT run */
    uint64_t digest;       /* h_digest of the cond, then, else bytes */
    char error[700];       /* set: the point cannot run (script error) */
    char litmsg[400];      /* set: the oracle disagrees with the case */
    char checkmsg[400];    /* set: the case's check fails on the oracle */
    char refused[200];     /* set: not run, the machine lacks the memory */
    /* A concurrent case's second thread runs this test (other data, its
     * own shapes; h_run.c makes it), or the same test when NULL. */
    const struct h_point *partner;
} h_point;

/* The dtypes a case expands to under a profile (in sel_dtype order), or
 * 0 when it does not apply there at all. */
int h_point_dtypes(const h_case *c, const h_profile *pr,
                   const h_profiles *all, int32_t out[SEL_DT_LAST + 1]);

/* Only addr and desc, without data or oracle (for --list). */
void h_point_describe(h_point *pt, const h_case *c, int32_t dtype);
/* quick (--fast): the test's runs are END and AGAIN only.  A test too
 * large for this machine's memory comes back with refused set and no
 * data (h_mem.c). */
void h_point_make(h_point *pt, const h_case *c, const h_profile *pr,
                  int32_t dtype, uint64_t seed, int quick);
void h_point_free(h_point *pt);
/* For a valid point: the cond, then and else elements that output element
 * flat is made from (idx[0..2]); 0 or -1. */
int h_point_locate(const h_point *pt, size_t flat, int64_t idx[3]);

/* Marks the point a script error ("file:line: id[dtype] what: msg"); the
 * first one wins. */
void h_point_fail(h_point *pt, const char *what, const char *msg);
/* h_point_fn.c: the case's fill functions on the generated inputs (a
 * failure is a script error); its check on the oracle's output (false:
 * checkmsg). */
void h_point_fill(h_point *pt);
void h_point_check(h_point *pt);

/* h_mem.c: the bytes a test holds at once (host copies, oracle, arena),
 * from its shapes; h_mem_refuse sets pt->refused (and returns 1) when
 * that is more than this process can still get. */
size_t h_mem_need(const h_point *pt, int quick);
int h_mem_refuse(h_point *pt, int quick);

#endif
