/* opt_vwrap.h - the flat walk's wrap loops (opt_wrap.h, opt_phase.c),
 * part of the one SIMD loop template: included by opt_vloop.h, which
 * expands VL_WRAP(bits) per element width with the ISA file's
 * vocabulary.  Not a header to include on its own.
 */
#ifndef OPT_ISA
#error "opt_vwrap.h is part of opt_vloop.h"
#endif

/* The flat walk's wrap loop (opt_wrap.h), where the file defines
 * OPT_WRAP_LOOP: AVX-512 only (at AVX2 and SSE2 it lost to the walk's
 * runs, 617x38:617x38:38 i64 3.9 -> 6.7 us at AVX2, 10.3 -> 17.0 us at
 * SSE2). */
/* fn(n, x, d, ts, es) with the splat flags of x as constants. */
#define VL_TSES(fn)                                                          \
    do {                                                                     \
        if (x->ts)                                                           \
            x->es ? fn(n, x, d, 1, 1) : fn(n, x, d, 1, 0);                   \
        else                                                                 \
            x->es ? fn(n, x, d, 0, 1) : fn(n, x, d, 0, 0);                   \
    } while (0)

/* fn(n, x, d, ts, es, wc, wt, we) with the three "offset wraps" flags as
 * constants (a dense operand, or one held in a register, never wraps). */
#define VL_WFLAGS(fn)                                                        \
    do {                                                                     \
        const int wc = x->per[0] != SIZE_MAX;                                \
        const int wt = !ts && x->per[1] != SIZE_MAX;                         \
        const int we = !es && x->per[2] != SIZE_MAX;                         \
        if (wc)                                                              \
            wt ? (we ? fn(n, x, d, ts, es, 1, 1, 1)                          \
                     : fn(n, x, d, ts, es, 1, 1, 0))                         \
               : (we ? fn(n, x, d, ts, es, 1, 0, 1)                          \
                     : fn(n, x, d, ts, es, 1, 0, 0));                        \
        else                                                                 \
            wt ? (we ? fn(n, x, d, ts, es, 0, 1, 1)                          \
                     : fn(n, x, d, ts, es, 0, 1, 0))                         \
               : (we ? fn(n, x, d, ts, es, 0, 0, 1)                          \
                     : fn(n, x, d, ts, es, 0, 0, 0));                        \
    } while (0)

#if defined(OPT_WRAP_LOOP) && OPT_WRAP_LOOP
#define VL_WRAP(bits)                                                        \
    /* The flat walk's one call per range (opt_wrap.h): per vector, each \
     * offset steps and wraps with a compare and a subtraction (a cmov), \
     * so a short period costs no call per run and no widened copy. */     \
    VL_ALWAYS void wloop##bits(size_t n, const opt_wrap *x, char *d,         \
                               const int ts, const int es, const int wc,   \
                               const int wt, const int we)                 \
    {                                                                        \
        const size_t w = bits / 8, lanes = VBYTES / w;                       \
        const uint8_t *c = (const uint8_t *)x->base[0];                      \
        const char *t = x->base[1], *e = x->base[2];                         \
        const size_t pc = x->per[0], pt = x->per[1], pe = x->per[2];         \
        size_t oc = x->off[0], ot = x->off[1], oe = x->off[2], i = 0;        \
        const VT tv = ts ? vsplat##bits(t) : vzero();                        \
        const VT ev = es ? vsplat##bits(e) : vzero();                        \
        for (; i + lanes <= n; i += lanes) {                                 \
            vstoreu(d + i * w, vpick##bits(cmask##bits(c + oc),              \
                                           ts ? tv : vloadu(t + ot),        \
                                           es ? ev : vloadu(e + oe)));      \
            oc += lanes;                                                     \
            oc = wc && oc >= pc ? oc - pc : oc;                              \
            ot += ts ? 0 : VBYTES;                                           \
            ot = wt && ot >= pt ? ot - pt : ot;                              \
            oe += es ? 0 : VBYTES;                                           \
            oe = we && oe >= pe ? oe - pe : oe;                              \
        }                                                                    \
        if (i < n)                                                           \
            part##bits(n - i, c + oc, t + ot, e + oe, d + i * w, ts, es, tv, \
                       ev);                                                  \
    }                                                                        \
    /* The same, the stretch between two wraps as a plain loop: per     \
     * vector no compare and no cmov, whose chain (add, compare, cmov: 3  \
     * cycles) bounds wloop on Zen 5; a stretch's end costs a compare per \
     * operand and a branch miss, so only where every wrapped period is   \
     * 16 vectors or more (x->runs). */                                    \
    VL_ALWAYS void wruns##bits(size_t n, const opt_wrap *x, char *d,         \
                               const int ts, const int es, const int wc,   \
                               const int wt, const int we)                 \
    {                                                                        \
        const size_t w = bits / 8, lanes = VBYTES / w;                       \
        const uint8_t *c = (const uint8_t *)x->base[0];                      \
        const char *t = x->base[1], *e = x->base[2];                         \
        const size_t pc = x->per[0], pt = x->per[1], pe = x->per[2];         \
        size_t oc = x->off[0], ot = x->off[1], oe = x->off[2], i = 0;        \
        const VT tv = ts ? vsplat##bits(t) : vzero();                        \
        const VT ev = es ? vsplat##bits(e) : vzero();                        \
        while (i + lanes <= n) {                                             \
            size_t k = (n - i) / lanes, q;                                   \
            if (wc && (q = (pc - oc + lanes - 1) / lanes) < k)               \
                k = q;                                                       \
            if (wt && (q = (pt - ot + VBYTES - 1) / VBYTES) < k)             \
                k = q;                                                       \
            if (we && (q = (pe - oe + VBYTES - 1) / VBYTES) < k)             \
                k = q;                                                       \
            const uint8_t *cc = c + oc;                                      \
            const char *tt = t + ot, *ee = e + oe;                           \
            char *dd = d + i * w;                                            \
            for (size_t j = 0; j < k; j++)                                   \
                vstoreu(dd + j * VBYTES,                                     \
                        vpick##bits(cmask##bits(cc + j * lanes),             \
                                    ts ? tv : vloadu(tt + j * VBYTES),       \
                                    es ? ev : vloadu(ee + j * VBYTES)));     \
            i += k * lanes, oc += k * lanes;                                 \
            ot += ts ? 0 : k * VBYTES, oe += es ? 0 : k * VBYTES;            \
            oc = wc && oc >= pc ? oc - pc : oc;                              \
            ot = wt && ot >= pt ? ot - pt : ot;                              \
            oe = we && oe >= pe ? oe - pe : oe;                              \
        }                                                                    \
        if (i < n)                                                           \
            part##bits(n - i, c + oc, t + ot, e + oe, d + i * w, ts, es, tv, \
                       ev);                                                  \
    }                                                                        \
    /* wc, wt, we: which offsets wrap, as constants: a dense operand's     \
     * compare and cmov cost 4 of the 20 instructions of a vector          \
     * (617x38:617x38:38 i64 on Zen 5: cond and then dense, else wrapped). */ \
    VL_ALWAYS void wsel##bits(size_t n, const opt_wrap *x, char *d,          \
                              const int ts, const int es)                  \
    {                                                                        \
        VL_WFLAGS(wloop##bits);                                              \
    }                                                                        \
    VL_ALWAYS void wrsel##bits(size_t n, const opt_wrap *x, char *d,          \
                              const int ts, const int es)                  \
    {                                                                        \
        VL_WFLAGS(wruns##bits);                                              \
    }                                                                        \
    /* Both out of line: inlined beside the register loops (ploop), the  \
     * 32 copies of wloop and wruns moved those in their lines and made    \
     * them slower (1x1:1x76:61x76 f32 0.48 -> 0.40, 1x1x2:31x87x2:87x2    \
     * bf16 0.52 -> 0.44). */                                              \
    static __attribute__((noinline)) void wlfn##bits(size_t n,               \
                                                     const opt_wrap *x,      \
                                                     char *d)                \
    {                                                                        \
        VL_TSES(wsel##bits);                                                   \
    }                                                                        \
    static __attribute__((noinline)) void wrfn##bits(size_t n,               \
                                                     const opt_wrap *x,      \
                                                     char *d)                \
    {                                                                        \
        VL_TSES(wrsel##bits);                                                  \
    }                                                                        \
    /* Operands whose pattern repeats every M vectors (x->m, opt_wrap.h) \
     * held in M registers each (rc, rt, re): per vector only the others  \
     * load (2x1:2x3:1185x2x3 bf16: cond and then every 3 vectors, else   \
     * dense: one load a vector instead of three).  Whole groups of M     \
     * vectors; the rest by wloop from the offsets there. */              \
    VL_ALWAYS void ploop##bits(size_t n, const opt_wrap *x, char *d,         \
                               const int M, const int rc, const int rt,    \
                               const int re, const int wc, const int wt,   \
                               const int we)                               \
    {                                                                        \
        const size_t w = bits / 8, lanes = VBYTES / w;                       \
        const uint8_t *c = (const uint8_t *)x->base[0];                      \
        const char *t = x->base[1], *e = x->base[2];                         \
        const size_t pc = x->per[0], pt = x->per[1], pe = x->per[2];         \
        size_t oc = x->off[0], ot = x->off[1], oe = x->off[2], i = 0;        \
        mask##bits##_t mk[4];                                                \
        VT tr[4], er[4];                                                     \
        opt_wrap y = *x;                                                     \
        for (int j = 0; j < M; j++) { /* the pattern's M vectors */         \
            if (rc)                                                          \
                mk[j] = cmask##bits(c + oc), oc += lanes,                    \
                oc = oc >= pc ? oc - pc : oc;                                \
            if (rt)                                                          \
                tr[j] = x->ts ? vsplat##bits(t) : vloadu(t + ot),            \
                ot += x->ts ? 0 : VBYTES, ot = ot >= pt ? ot - pt : ot;      \
            if (re)                                                          \
                er[j] = x->es ? vsplat##bits(e) : vloadu(e + oe),            \
                oe += x->es ? 0 : VBYTES, oe = oe >= pe ? oe - pe : oe;      \
        }                                                                    \
        oc = x->off[0], ot = x->off[1], oe = x->off[2];                      \
        for (; i + M * lanes <= n; i += M * lanes)                           \
            for (int j = 0; j < M; j++) {                                    \
                vstoreu(d + (i + j * lanes) * w,                             \
                        vpick##bits(rc ? mk[j] : cmask##bits(c + oc),        \
                                    rt ? tr[j] : vloadu(t + ot),             \
                                    re ? er[j] : vloadu(e + oe)));           \
                oc += rc ? 0 : lanes;                                        \
                oc = wc && oc >= pc ? oc - pc : oc;                          \
                ot += rt ? 0 : VBYTES;                                       \
                ot = wt && ot >= pt ? ot - pt : ot;                          \
                oe += re ? 0 : VBYTES;                                       \
                oe = we && oe >= pe ? oe - pe : oe;                          \
            }                                                                \
        if (i == n)                                                          \
            return;                                                          \
        /* the registers' offsets after i elements (their periods divide   \
         * M vectors: i is a whole number of them) */                       \
        y.off[0] = rc ? x->off[0] : oc, y.off[1] = rt ? x->off[1] : ot;      \
        y.off[2] = re ? x->off[2] : oe;                                      \
        y.m = 0, y.runs = 0;                                                 \
        VL_WNAME(OPT_ISA, bits)(n - i, &y, d + i * w);                       \
    }                                                                        \
    /* The operands loaded per vector that wrap (wc, wt, we), as        \
     * constants: a dense one (per SIZE_MAX) skips the compare and cmov.  \
     * With rc, rt, re constants the held operands' flags fold to 0. */    \
    VL_ALWAYS void pwrap##bits(size_t n, const opt_wrap *x, char *d,         \
                               const int M, const int rc, const int rt,    \
                               const int re)                               \
    {                                                                        \
        const int wc = !rc && x->per[0] != SIZE_MAX;                         \
        const int wt = !rt && x->per[1] != SIZE_MAX;                         \
        const int we = !re && x->per[2] != SIZE_MAX;                         \
        if (wc)                                                              \
            wt ? (we ? ploop##bits(n, x, d, M, rc, rt, re, 1, 1, 1)          \
                     : ploop##bits(n, x, d, M, rc, rt, re, 1, 1, 0))         \
               : (we ? ploop##bits(n, x, d, M, rc, rt, re, 1, 0, 1)          \
                     : ploop##bits(n, x, d, M, rc, rt, re, 1, 0, 0));        \
        else                                                                 \
            wt ? (we ? ploop##bits(n, x, d, M, rc, rt, re, 0, 1, 1)          \
                     : ploop##bits(n, x, d, M, rc, rt, re, 0, 1, 0))         \
               : (we ? ploop##bits(n, x, d, M, rc, rt, re, 0, 0, 1)          \
                     : ploop##bits(n, x, d, M, rc, rt, re, 0, 0, 0));        \
    }                                                                        \
    VL_ALWAYS void pregs##bits(size_t n, const opt_wrap *x, char *d,         \
                               const int M)                                \
    {                                                                        \
        switch (x->reg) {                                                    \
        case 1: pwrap##bits(n, x, d, M, 1, 0, 0); break;                     \
        case 2: pwrap##bits(n, x, d, M, 0, 1, 0); break;                     \
        case 3: pwrap##bits(n, x, d, M, 1, 1, 0); break;                     \
        case 4: pwrap##bits(n, x, d, M, 0, 0, 1); break;                     \
        case 5: pwrap##bits(n, x, d, M, 1, 0, 1); break;                     \
        case 6: pwrap##bits(n, x, d, M, 0, 1, 1); break;                     \
        default: pwrap##bits(n, x, d, M, 1, 1, 1); break;                    \
        }                                                                    \
    }                                                                        \
    void VL_WNAME(OPT_ISA, bits)(size_t n, const opt_wrap *x, char *d)       \
    {                                                                        \
        if (x->runs) {                                                       \
            wrfn##bits(n, x, d);                                             \
            return;                                                          \
        }                                                                    \
        switch (x->m) {                                                      \
        case 1: pregs##bits(n, x, d, 1); return;                             \
        case 2: pregs##bits(n, x, d, 2); return;                             \
        case 3: pregs##bits(n, x, d, 3); return;                             \
        case 4: pregs##bits(n, x, d, 4); return;                             \
        default: break;                                                      \
        }                                                                    \
        wlfn##bits(n, x, d);                                                 \
    }
#else
#define VL_WRAP(bits)
#endif
