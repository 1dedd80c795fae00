/* diff_gen.h - difftest's cases: what one randomized call is, the
 * deterministic randomness that makes it, and the generator (diff_gen.c).
 * Case i of seed s is a pure function of (s, i).
 */
#ifndef H_DIFF_GEN_H
#define H_DIFF_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "select.h"

#define MAX_ELEMS (1 << 17)   /* cap on generated output elements */

enum { C, T, E, D };          /* cond, then, else, dst */
enum { ALIAS_NONE, ALIAS_THEN, ALIAS_ELSE, ALIAS_PART, ALIAS_COND };

typedef struct tcase {
    int32_t dtype[4], rank[4];
    int64_t dims[4][SEL_MAX_RANK + 2];
    int dims_null[4], null_ptr, null_data, null_out, alias, tuning;
    size_t off[4], alias_off, bytes[4];
    sel_broadcast b;
    char note[160];
} tcase;

/* Deterministic randomness: splitmix64, one stream per case. */
typedef struct rng { uint64_t s; } rng;
uint64_t h_rnd(rng *r);
int h_below(rng *r, int n);
int h_chance(rng *r, int pct);

/* Case idx of seed: shapes, mode, flags, dtypes, offsets, in place, and
 * in about a fifth of the cases one or two faults. */
void h_gen(uint64_t seed, uint64_t idx, tcase *c);

/* Periodic operands (diff_periodic.c): the flat walk's cases. */
void h_gen_periodic(rng *r, tcase *c);

#endif
