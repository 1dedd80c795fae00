/* opt_wrap.h - the wrap loop of the flat walk (opt_phase.c): one call per
 * range, each periodic operand read from a copy of its period with one
 * step of slack after it, its offset wrapped per vector by a compare and
 * a subtraction.  Expanded by opt_vloop.h at the AVX-512 level only
 * (OPT_WRAP_LOOP); the others keep the walk's runs (at AVX2 and SSE2 the
 * wrap loop was slower; NEON not measured).
 */
#ifndef OPT_WRAP_H
#define OPT_WRAP_H

#include <stddef.h>

/* Operands in order cond, then, else.  base: the operand, its element (a
 * scalar: the kernel's s forms) or its period's copy; off: the first
 * element's offset in bytes; per: the offset wraps by per bytes when it
 * reaches it (SIZE_MAX: never, a dense operand).  A wrapped operand's
 * per is a multiple of its period at least one step long (cond: a
 * vector's lanes in bytes; then, else: a vector) and base holds per plus
 * a step of bytes. */
typedef struct opt_wrap {
    const char *base[3];
    size_t off[3], per[3];
    int ts, es; /* then, else: one element */
    /* m 1-4: the operands of reg (bit 0 cond, 1 then, 2 else; wrapped or
     * scalars) repeat every m vectors and are held in registers, m vectors
     * each, read once per call; 0: every operand loaded per vector. */
    int m, reg;
    /* runs: every wrapped offset wraps at most once per 16 vectors; the
     * loop then runs each stretch between wraps with no compare per
     * vector (opt_phase.c sets it where 512-bit ops run whole). */
    int runs;
} opt_wrap;

typedef void opt_wrap_fn(size_t n, const opt_wrap *x, char *d);

#define OPT_WRAP_NAME(isa, bits) opt_x##bits##_wrap__##isa
#define OPT_WRAP_OF_ISA(X, isa) X(isa, 8) X(isa, 16) X(isa, 32) X(isa, 64)
#if defined(__x86_64__)
#define OPT_WRAPS(X) OPT_WRAP_OF_ISA(X, avx512)
#else
#define OPT_WRAPS(X)
#endif
#define OPT_WRAP_DECL(isa, bits) opt_wrap_fn OPT_WRAP_NAME(isa, bits);
OPT_WRAPS(OPT_WRAP_DECL)
#undef OPT_WRAP_DECL

/* The wrap loop of an ISA level and width index, or NULL (below AVX-512
 * and off x86-64). */
opt_wrap_fn *opt_wrap_kernel(int isa, int width);

#endif
