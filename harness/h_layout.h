/* h_layout.h - where a test's buffers go in the worker's arena: one slot
 * per tensor per run, guard pages between slots, slack and canaries
 * filled with a known byte; and, after the call, what the implementation
 * touched that it should not have.
 */
#ifndef H_LAYOUT_H
#define H_LAYOUT_H

#include "h_point.h"
#include "h_worker.h"

typedef struct h_slot {
    uint8_t *lo, *hi;   /* the slot's pages; guard pages on both sides */
    uint8_t *data;      /* the tensor's bytes in it (NULL: passed NULL) */
    size_t bytes;       /* region the tensor owns (partial alias: more) */
    int used;
} h_slot;

/* What borders a guard page on one side. */
enum h_gwhat { H_G_NONE, H_G_DIMS_OUT, H_G_DIMS, H_G_DATA };
typedef struct h_gside {
    int what, run, t;
} h_gside;

typedef struct h_layout {
    h_job job;
    h_slot slot[H_RUNS_MAX][H_NT];
    h_slot dims[H_NT];          /* each tensor's dims, shared by the runs */
    h_slot pdims[H_NT];         /* the partner's, for its thread run */
    const h_point *partner;     /* pt->partner: the last thread run's test */
    h_gside before[H_GUARDS_MAX], after[H_GUARDS_MAX];
    int kinds[H_RUNS_MAX];
    uint64_t poison_seed;       /* from --seed and the address (salt 12) */
    uint8_t *end;
} h_layout;

/* Arena bytes the test needs (quick: the END run only). */
size_t h_layout_need(const h_point *pt, int quick);
void h_layout_build(h_layout *L, const h_point *pt, uint8_t *arena,
                    int quick);
/* The test run r executes: pt, or for the second thread run of a test
 * with a partner (IO-THREADS-1: other data, other shapes), the partner. */
const h_point *h_layout_point(const h_layout *L, const h_point *pt, int r);
/* Damage to inputs, slack or canaries in run r: 0, or 1 with a message. */
int h_layout_damage(const h_layout *L, const h_point *pt, int r, char *msg,
                    size_t n);
/* Byte i of the poison dst holds before run r: from poison_seed, never
 * from the expected bytes; runs 1, 3 get the complement of runs 0, 2, 4. */
uint8_t h_layout_poison(const h_layout *L, int r, size_t i);
/* The bytes execute left in dst in run r (NULL when none). */
const uint8_t *h_layout_dst(const h_layout *L, int r);
/* A crash at a guard page, in words ("wrote 4 bytes past the end of dst
 * (run end)"); a plain description otherwise. */
void h_layout_fault(const h_layout *L, const h_jres *res, char *msg,
                    size_t n);
const char *h_run_name(int kind);

#endif
