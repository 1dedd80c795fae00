/* opt_swalk.c - the row loops of opt_small.c's walk: short rows element
 * by element (specialized by width and inner strides), rows of 4, 8 or 16
 * bytes as fixed-size copies, and long rows through the row kernels.
 */
#include <string.h>

#include "opt_swalk.h"

/* The next tile (the rows of axis rank - 2): axis i steps, every axis
 * below it wraps to 0; the byte deltas of opt_small_run make that one add
 * per operand. */
#define NEXT_ROW(x, idx, c, t, e)                                            \
    do {                                                                     \
        int32_t i_ = (x)->lo;                                                \
        while (++idx[i_] == (x)->dims[i_])                                   \
            idx[i_--] = 0;                                                   \
        c += (x)->dc[i_], t += (x)->dt[i_], e += (x)->de[i_];                \
    } while (0)

/* An element's bits from any address (IO-ALIGN-1). */
#define SMALL_LD(bits)                                                       \
    static inline uint##bits##_t ld##bits(const char *p)                     \
    {                                                                        \
        uint##bits##_t v;                                                    \
        memcpy(&v, p, sizeof v);                                             \
        return v;                                                            \
    }
SMALL_LD(8)
SMALL_LD(16)
SMALL_LD(32)
SMALL_LD(64)

/* Short rows element by element, specialized by width and by the inner
 * strides (SC, ST, SE: 0 or 1): c ? t : e picked without a branch on cond
 * (a random cond would mispredict), bits moved as unsigned integers
 * (BITS-1); any nonzero byte is true (COND-NZ-1).  With cond constant on
 * the row and both inputs advancing, a row is a copy from the one cond
 * picks. */
#define SMALL_SEL(bits, SC, ST, SE)                                          \
    static void sel##bits##_##SC##ST##SE(const opt_swalk *x)                      \
    {                                                                        \
        typedef uint##bits##_t T;                                            \
        enum { z = bits / 8 };                                               \
        /* Locals: stores through d could alias anything *x holds. */      \
        const int64_t n0 = x->n0, n1 = x->n1, jc = x->s1[0], jt = x->s1[1],  \
                      je = x->s1[2];                                         \
        const uint8_t *c = x->c;                                             \
        const char *t = x->t, *e = x->e;                                     \
        char *d = x->d;                                                      \
        int64_t idx[SEL_MAX_RANK] = {0};                                     \
        for (int64_t r = x->tiles;;) {                                       \
            for (int64_t i = 0; i < n1; i++) {                               \
                const T tv = ld##bits(t), ev = ld##bits(e);                  \
                const int cv = *c != 0;                                      \
                const char *s = cv ? t : e;                                  \
                for (int64_t j = 0; j < n0; j++, d += z) {                   \
                    const T a = ST ? ld##bits(t + j * z) : tv;               \
                    const T b = SE ? ld##bits(e + j * z) : ev;               \
                    const T v = !SC && ST && SE ? ld##bits(s + j * z)        \
                                : (SC ? c[j] != 0 : cv) ? a : b;             \
                    memcpy(d, &v, z);                                        \
                }                                                            \
                c += jc, t += jt, e += je;                                   \
            }                                                                \
            if (--r == 0)                                                    \
                return;                                                      \
            NEXT_ROW(x, idx, c, t, e);                                       \
        }                                                                    \
    }
#define SMALL_SELS(bits)                                                     \
    SMALL_SEL(bits, 0, 0, 0) SMALL_SEL(bits, 0, 0, 1)                        \
    SMALL_SEL(bits, 0, 1, 0) SMALL_SEL(bits, 0, 1, 1)                        \
    SMALL_SEL(bits, 1, 0, 0) SMALL_SEL(bits, 1, 0, 1)                        \
    SMALL_SEL(bits, 1, 1, 0) SMALL_SEL(bits, 1, 1, 1)
SMALL_SELS(8)
SMALL_SELS(16)
SMALL_SELS(32)
SMALL_SELS(64)
#define SMALL_ROW(bits)                                                      \
    {sel##bits##_000, sel##bits##_001, sel##bits##_010, sel##bits##_011,     \
     sel##bits##_100, sel##bits##_101, sel##bits##_110, sel##bits##_111}

/* [width][cond, then, else inner strides as bits 2, 1, 0] */
static opt_swalk_fn *const sels[4][8] = {SMALL_ROW(8), SMALL_ROW(16),
                                    SMALL_ROW(32), SMALL_ROW(64)};

/* Rows of exactly B bytes, cond constant on each and both inputs
 * advancing: one fixed-size copy per row from the input cond picks (a
 * per-pixel cond over channels; rows of 2-4 elements). */
#define SMALL_COPY(B)                                                        \
    static void copy##B(const opt_swalk *x)                                       \
    {                                                                        \
        const int64_t n1 = x->n1, jc = x->s1[0], jt = x->s1[1],              \
                      je = x->s1[2];                                         \
        const uint8_t *c = x->c;                                             \
        const char *t = x->t, *e = x->e;                                     \
        char *d = x->d;                                                      \
        int64_t idx[SEL_MAX_RANK] = {0};                                     \
        for (int64_t r = x->tiles;;) {                                       \
            for (int64_t i = 0; i < n1; i++, d += B) {                       \
                char v[B];                                                   \
                memcpy(v, *c ? t : e, B);                                    \
                memcpy(d, v, B);                                             \
                c += jc, t += jt, e += je;                                   \
            }                                                                \
            if (--r == 0)                                                    \
                return;                                                      \
            NEXT_ROW(x, idx, c, t, e);                                       \
        }                                                                    \
    }
SMALL_COPY(4)
SMALL_COPY(8)
SMALL_COPY(16)

/* The short-row walk of a plan: [width][cond, then, else inner strides as
 * bits 2, 1, 0], or a fixed-size copy. */
opt_swalk_fn *opt_swalk_short(const opt_swalk *x, int wi)
{
    const size_t bytes = (size_t)x->n0 * x->w;
    if (!x->s0[0] && x->s0[1] && x->s0[2] &&
        (bytes == 4 || bytes == 8 || bytes == 16))
        return bytes == 4 ? copy4 : bytes == 8 ? copy8 : copy16;
    return sels[wi][x->s0[0] * 4 + x->s0[1] * 2 + x->s0[2]];
}

/* Long rows: one kernel call each, or when cond is constant on the row a
 * copy or a fill from the input its byte picks. */
void opt_swalk_rows(const opt_swalk *x)
{
    const size_t n0 = (size_t)x->n0, row = n0 * x->w;
    const uint8_t *c = x->c;
    const char *t = x->t, *e = x->e;
    char *d = x->d;
    int64_t idx[SEL_MAX_RANK] = {0};
    for (int64_t r = x->tiles;;) {
        for (int64_t i = 0; i < x->n1; i++, d += row) {
            if (!x->pick) {
                x->kern(n0, c, t, e, d, 0);
            } else {
                const int k = *c ? 1 : 2;
                const char *s = k == 1 ? t : e;
                if (x->s0[k])
                    memcpy(d, s, row);
                else
                    x->kern(n0, NULL, s, NULL, d, 0);
            }
            c += x->s1[0], t += x->s1[1], e += x->s1[2];
        }
        if (--r == 0)
            return;
        NEXT_ROW(x, idx, c, t, e);
    }
}
