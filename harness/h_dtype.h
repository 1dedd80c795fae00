/* h_dtype.h - element types as the harness sees them: what kind of number
 * each sel_dtype is, exact conversion of case literals to bit patterns,
 * and a decoded note on a bit pattern for failure reports.
 */
#ifndef H_DTYPE_H
#define H_DTYPE_H

#include <stddef.h>
#include <stdint.h>

#include "h_case.h"

enum h_kind { H_K_BOOL = 1, H_K_FLOAT, H_K_SINT, H_K_UINT };

/* ieee: infinities and NaNs the IEEE 754 way (exponent all ones).  Not
 * ieee (f8e4m3, the OCP "FN" variant): no infinity, S.1111.111 is NaN. */
typedef struct h_dtinfo {
    int kind;
    int size;
    int ebits, mbits;
    int ieee;
} h_dtinfo;

const h_dtinfo *h_dt(int32_t dtype);   /* NULL: not a sel_dtype */
int32_t h_dt_parse(const char *name);  /* 0: unknown name */

uint64_t h_load(const void *p, size_t es);
void h_store(void *p, size_t es, uint64_t v);

/* A literal as dtype bits, exactly; 0, or -1 with a message in err. */
int h_lit_bits(int32_t dtype, const h_lit *l, uint64_t *out, char *err,
               size_t n);
/* The integer i as dtype bits, clamped to [lo, hi] where the type cannot
 * hold every integer of the range exactly (the "ramp" class). */
uint64_t h_int_bits(int32_t dtype, int64_t i);

/* Special values of a dtype (zeros, infinities, NaNs, subnormals,
 * extremes); returns how many were written to out (at most 32). */
int h_specials(int32_t dtype, uint64_t *out);

/* "0x7fc00001 (nan payload 0x1)". */
void h_bits_note(int32_t dtype, uint64_t bits, char *buf, size_t n);

#endif
