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

/* The data digest of each TAP line: the FNV-1a 64 step (xor, multiply
 * by the FNV prime) over the bytes as 64-bit little-endian words, then
 * the 0..7 bytes left one by one; continues from h (start from
 * H_FNV_INIT).  A word at a time is 8 times faster than FNV-1a proper
 * and still tells apart any two inputs that differ in one word, since
 * each step is a bijection of h. */
#define H_FNV_INIT 0xcbf29ce484222325ull
uint64_t h_digest(uint64_t h, const void *p, size_t n);

/* n elements of dtype in class cls (enum h_vclass, not H_V_LITERAL) into
 * buf.  which: 0 for then, 1 for else; the two are generated so that
 * they differ wherever the class allows (see cases/README.md). */
void h_gen_values(int32_t dtype, int cls, int which, h_rng *r, void *buf,
                  size_t n);
/* n cond bytes of pattern pat (enum h_cpat, not H_C_LITERAL). */
void h_gen_cond(int pat, h_rng *r, uint8_t *buf, size_t n);

#endif
