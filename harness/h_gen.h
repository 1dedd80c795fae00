/* h_gen.h - deterministic test data: a small PRNG seeded from the case
 * address and --seed (never the clock), the value classes and the cond
 * patterns of cases/README.md.
 */
#ifndef H_GEN_H
#define H_GEN_H

#include <stddef.h>
#include <stdint.h>

typedef struct h_rng {
    uint64_t s;
} h_rng;

uint64_t h_rng_next(h_rng *r);
/* The seed of one tensor of one case: the address, --seed and a salt. */
h_rng h_rng_for(const char *address, uint64_t seed, unsigned salt);

/* n elements of dtype in class cls (enum h_vclass, not H_V_LITERAL) into
 * buf.  which: 0 for then, 1 for else; the two are generated so that
 * they differ wherever the class allows (see cases/README.md). */
void h_gen_values(int32_t dtype, int cls, int which, h_rng *r, void *buf,
                  size_t n);
/* n cond bytes of pattern pat (enum h_cpat, not H_C_LITERAL). */
void h_gen_cond(int pat, h_rng *r, uint8_t *buf, size_t n);

#endif
