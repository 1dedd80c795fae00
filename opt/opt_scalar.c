/* opt_scalar.c - the portable kernels: plain C loops over unsigned integers
 * of the element's width; the fallback on any CPU.
 *
 * Elements travel as uintN_t (never float: BITS-1), read and written with
 * memcpy because no alignment is promised (IO-ALIGN-1); compilers turn each
 * into one move.  The pick is a bitwise blend under an all-ones mask made
 * from the cond byte, so a random cond costs no mispredicted branches (a
 * branchy loop runs at a tenth of the speed); bitwise, so NaN payloads and
 * -0.0 pass untouched.  nt is ignored: plain C has no non-temporal store.
 */
#include <string.h>

#include "opt_kernels.h"

#define DEFINE_SCALAR(bits)                                                 \
    typedef uint##bits##_t e##bits;                                         \
    static e##bits get##bits(const void *p, size_t i)                       \
    {                                                                       \
        e##bits v;                                                          \
        memcpy(&v, (const char *)p + i * sizeof v, sizeof v);               \
        return v;                                                           \
    }                                                                       \
    static void put##bits(void *p, size_t i, e##bits v)                     \
    {                                                                       \
        memcpy((char *)p + i * sizeof v, &v, sizeof v);                     \
    }                                                                       \
    /* c ? t : e, bitwise (COND-NZ-1: any nonzero byte is true). */         \
    static e##bits pick##bits(uint8_t c, e##bits t, e##bits e)              \
    {                                                                       \
        const e##bits m = (e##bits) - (int64_t)(c != 0);                   \
        return (e##bits)((t & m) | (e & (e##bits)~m));                      \
    }                                                                       \
    void opt_x##bits##_vvv__scalar(size_t n, const uint8_t *c,              \
                                   const void *t, const void *e, void *d,   \
                                   int nt)                                  \
    {                                                                       \
        size_t i;                                                           \
        (void)nt;                                                           \
        for (i = 0; i < n; i++)                                             \
            put##bits(d, i,                                                 \
                     pick##bits(c[i], get##bits(t, i), get##bits(e, i))); \
    }                                                                       \
    void opt_x##bits##_vsv__scalar(size_t n, const uint8_t *c,              \
                                   const void *t, const void *e, void *d,   \
                                   int nt)                                  \
    {                                                                       \
        const e##bits tv = get##bits(t, 0);                                 \
        size_t i;                                                           \
        (void)nt;                                                           \
        for (i = 0; i < n; i++)                                             \
            put##bits(d, i, pick##bits(c[i], tv, get##bits(e, i)));         \
    }                                                                       \
    void opt_x##bits##_vvs__scalar(size_t n, const uint8_t *c,              \
                                   const void *t, const void *e, void *d,   \
                                   int nt)                                  \
    {                                                                       \
        const e##bits ev = get##bits(e, 0);                                 \
        size_t i;                                                           \
        (void)nt;                                                           \
        for (i = 0; i < n; i++)                                             \
            put##bits(d, i, pick##bits(c[i], get##bits(t, i), ev));         \
    }                                                                       \
    void opt_x##bits##_vss__scalar(size_t n, const uint8_t *c,              \
                                   const void *t, const void *e, void *d,   \
                                   int nt)                                  \
    {                                                                       \
        const e##bits tv = get##bits(t, 0), ev = get##bits(e, 0);           \
        size_t i;                                                           \
        (void)nt;                                                           \
        for (i = 0; i < n; i++)                                             \
            put##bits(d, i, pick##bits(c[i], tv, ev));                      \
    }                                                                       \
    void opt_x##bits##_fill__scalar(size_t n, const uint8_t *c,             \
                                    const void *t, const void *e, void *d,  \
                                    int nt)                                 \
    {                                                                       \
        const e##bits tv = get##bits(t, 0);                                 \
        size_t i;                                                           \
        (void)c, (void)e, (void)nt;                                         \
        for (i = 0; i < n; i++)                                             \
            put##bits(d, i, tv);                                            \
    }                                                                       \
    void opt_x##bits##_copy__scalar(size_t n, const uint8_t *c,             \
                                    const void *t, const void *e, void *d,  \
                                    int nt)                                 \
    {                                                                       \
        (void)c, (void)e, (void)nt;                                         \
        if (d != t) /* in place: nothing to move (and memcpy forbids it) */ \
            memcpy(d, t, n * sizeof(e##bits));                              \
    }

OPT_WIDTH_LIST(DEFINE_SCALAR)
