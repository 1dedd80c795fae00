/* fuzz_select.c - the fuzz target: decode the input bytes into one Select
 * call (layout in fuzz_format.h), run infer and execute on the reference
 * and on the optimized backend, and abort on any difference.
 *
 * What must be identical: the status of infer, and on SEL_OK the rank and
 * all SEL_MAX_RANK entries of dims_out (both poisoned alike, so an entry
 * written past the rank shows); the status of execute; and every byte of
 * every buffer afterwards (dst poisoned alike, inputs restored before each
 * call).  The reference is also held to IO-INPUTS-1 and to "an error
 * writes nothing".  Buffers are allocated to the exact byte, so ASan flags
 * a read or write past the end of any input, dst, dims or dims_out.
 *
 * Sizes: a tensor of more than CAP_ELEMS elements (or CAP_BYTES bytes) is
 * never allocated.  It still reaches infer, and execute too when the
 * reference's own infer (or the dst we build) already dooms the call to a
 * status from phases 1-4 of ERR-ORDER-1, which no implementation may reach
 * by touching data; its data pointer is then a 0-byte allocation, so a
 * backend that reads it anyway is caught.  Otherwise execute is skipped.
 *
 * The same source builds the libFuzzer target (make fuzz) and, without
 * libFuzzer, the reproducer harness/diff/fuzz_repro.c links.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"
#include "ref.h"
#include "fuzz_case.h"

/* The implementation compared with the reference: opt, or for the fuzz
 * target's own test a deliberately broken opt (t/fuzz_broken.c). */
#ifndef H_FZ_UNDER_TEST
#define H_FZ_UNDER_TEST opt_impl
#else
const sel_impl *H_FZ_UNDER_TEST(void);
#endif

#define CAP_ELEMS ((int64_t)1 << 20)
#define CAP_BYTES ((int64_t)2 << 20) /* threads: via H_FZ_CONFIG bit 4 */

enum { C, T, E, D, NT = H_FZ_NT }; /* cond, then, else, dst */
static const char *const tname[NT] = {"cond", "then", "else", "dst"};

int h_fuzz_verbose;

typedef h_fz fz;
typedef h_fz_region region;

static void fail(const fz *c, const char *fmt, ...)
{
    va_list ap;
    fputs("fuzz_select: MISMATCH: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    h_fz_describe(stderr, c);
    fflush(stderr);
    abort();
}

/* ---- what ERR-ORDER-1 says, where the decoded faults settle it --------- */

/* The status of the first phase with a fault, for phases 1-4 as far as
 * they follow from the decoded fields alone; -1 when the answer depends on
 * broadcasting, left to the comparison with the reference.  exec adds dst
 * (and drops infer's output pointers). */
static int expected(const fz *c, int exec)
{
    const int n = exec ? NT : E + 1;
    int k, i, shape = 0;

    for (k = 0; k < n; k++) /* ARG-NULL-1: "NULL dims with rank > 0" */
        if (!c->p[k] || (c->t[k].rank > 0 && !c->t[k].dims))
            return SEL_ERR_ARG;
    if (!exec && (c->nul == H_FZ_N_RANK_OUT || c->nul == H_FZ_N_DIMS_OUT))
        return SEL_ERR_ARG;
    for (k = 0; k < n; k++) /* a negative rank with NULL dims: the text */
        if (c->t[k].rank < 0 && !c->t[k].dims) /* says phase 4, ref and */
            return -1;                        /* opt say ARG: unsettled */
    if (c->b.type < SEL_BROADCAST_NONE || c->b.type > SEL_BROADCAST_PDPD ||
        (c->b.type == SEL_BROADCAST_PDPD && c->b.axis < -1))
        return SEL_ERR_ATTR; /* ARG-ATTR-1, BC-PDPD-3 */
    for (k = C; k <= E; k++)
        if (!sel_dtype_size(c->dtype[k]))
            return SEL_ERR_DTYPE; /* DT-UNKNOWN-1 */
    if (c->dtype[C] != SEL_DT_BOOLEAN || c->dtype[T] != c->dtype[E] ||
        (exec && c->dtype[D] != c->dtype[T]))
        return SEL_ERR_DTYPE; /* DT-COND-1, DT-SAME-1, DT-DST-1 */
    for (k = 0; k < n; k++) {
        if (c->t[k].rank < 0 || c->t[k].rank > SEL_MAX_RANK)
            shape = 1; /* SHAPE-RANK-1, whatever dims holds */
        else
            for (i = 0; i < c->t[k].rank; i++)
                shape |= c->t[k].dims[i] < 0; /* SHAPE-NEG-1 */
    }
    return shape ? SEL_ERR_SHAPE : -1;
}

static void check_order(const fz *c, const char *fn, int exec, int sr,
                        int so)
{
    const int want = expected(c, exec);
    if (want >= 0 && (sr != want || so != want))
        fail(c, "%s: ref %s, opt %s; ERR-ORDER-1 says %s", fn,
             sel_status_name(sr), sel_status_name(so), sel_status_name(want));
}

/* The tensor structs and their dims arrays, which no call may change
 * (they are const, IO-INPUTS-1). */
typedef struct snap {
    sel_tensor t[NT];
    int64_t d[NT][H_FZ_MAXDIMS + 1];
} snap;

static void take(const fz *c, snap *s)
{
    int k;
    memcpy(s->t, c->t, sizeof s->t);
    for (k = 0; k < NT; k++)
        if (c->dims[k])
            memcpy(s->d[k], c->dims[k], (size_t)c->ndims[k] * sizeof(int64_t));
}

static void unchanged(const fz *c, const snap *s, const char *who)
{
    int k;
    for (k = 0; k < NT; k++)
        if (memcmp(&s->t[k], &c->t[k], sizeof s->t[k]) != 0 ||
            (c->dims[k] && memcmp(s->d[k], c->dims[k],
                                  (size_t)c->ndims[k] * sizeof(int64_t)) != 0))
            fail(c, "%s changed %s's sel_tensor or dims", who, tname[k]);
}

/* ---- infer ------------------------------------------------------------- */

static int infer_one(const fz *c, const sel_impl *im, int32_t *ro,
                     int64_t *dout, int nulls)
{
    int i;
    *ro = 0x7eadbeef;
    for (i = 0; i < SEL_MAX_RANK; i++)
        dout[i] = (int64_t)0x5a5a5a5a5a5a5a5au - i;
    return im->infer(c->p[C], c->p[T], c->p[E], c->b,
                     nulls && c->nul == H_FZ_N_RANK_OUT ? NULL : ro,
                     nulls && c->nul == H_FZ_N_DIMS_OUT ? NULL : dout);
}

/* All SEL_MAX_RANK entries of dims_out, poison included. */
static const char *dims_str(char *buf, const int64_t *d)
{
    int i, n = 0;
    for (i = 0; i < SEL_MAX_RANK; i++)
        n += snprintf(buf + n, (size_t)(200 - n), "%s%lld", i ? "," : "",
                      (long long)d[i]);
    return buf;
}

/* Both infers, compared; returns the reference's status and shape for
 * valid output pointers (the oracle for dst and for sizes). */
static int infer_both(const fz *c, int32_t *out_rank, int64_t *out_dims)
{
    int32_t *ro = malloc(sizeof *ro), rr = 0;
    int64_t *dout = malloc(SEL_MAX_RANK * sizeof *dout), rd[SEL_MAX_RANK];
    int sr, so;
    snap sn;

    take(c, &sn);
    sr = infer_one(c, ref_impl(), ro, dout, 1);
    unchanged(c, &sn, "ref infer");
    rr = *ro;
    memcpy(rd, dout, sizeof rd);
    so = infer_one(c, H_FZ_UNDER_TEST(), ro, dout, 1);
    unchanged(c, &sn, "opt infer");
    check_order(c, "infer", 0, sr, so);
    if (sr != so)
        fail(c, "infer status: ref %s, opt %s", sel_status_name(sr),
             sel_status_name(so));
    if (sr == SEL_OK && (rr != *ro || memcmp(rd, dout, sizeof rd) != 0)) {
        char a[200], b[200];
        fail(c, "infer shape: ref rank %d dims_out %s, opt rank %d dims_out "
             "%s", (int)rr, dims_str(a, rd), (int)*ro, dims_str(b, dout));
    }
    if (sr == SEL_OK && (rr < 0 || rr > SEL_MAX_RANK))
        fail(c, "ref infer: rank %d out of range", (int)rr);
    if (c->nul == H_FZ_N_RANK_OUT || c->nul == H_FZ_N_DIMS_OUT)
        sr = infer_one(c, ref_impl(), ro, dout, 0);
    *out_rank = *ro;
    memcpy(out_dims, dout, SEL_MAX_RANK * sizeof *dout);
    free(ro);
    free(dout);
    return sr;
}

/* ---- buffers ------------------------------------------------------------ */

/* Elements of tensor k, or -1 when it cannot or should not be allocated. */
static int64_t count_of(const fz *c, int k)
{
    int64_t n = 1;
    int i;

    if (c->rank[k] < 0 || c->rank[k] > H_FZ_MAXDIMS ||
        (c->rank[k] && !c->t[k].dims))
        return -1;
    for (i = 0; i < c->rank[k]; i++)
        if (c->dims[k][i] < 0)
            return -1;
        else if (c->dims[k][i] == 0)
            return 0;
    for (i = 0; i < c->rank[k]; i++) {
        if (c->dims[k][i] > CAP_ELEMS / n)
            return -1;
        n *= c->dims[k][i];
    }
    return n * (int64_t)c->esz[k] <= CAP_BYTES ? n : -1;
}

static void fill_cond(const fz *c, uint8_t *p, int64_t n, uint64_t *s)
{
    static const uint8_t nz[6] = {0, 1, 2, 0x7f, 0x80, 0xff};
    const unsigned m = c->cond_mode;
    int64_t j, run = 0;
    uint8_t v = 0;

    for (j = 0; j < n; j++) {
        const int in_tail = (size_t)j < c->ntail;
        const uint8_t tb = in_tail ? c->tail[j] : (uint8_t)h_fz_mix(s);
        if (m < H_FZ_C_NZ)
            p[j] = (size_t)j < 8 * c->ntail ? (c->tail[j / 8] >> (j % 8)) & 1
                                            : (uint8_t)(h_fz_mix(s) & 1);
        else if (m < H_FZ_C_ANY)
            p[j] = nz[tb % 6];
        else if (m < H_FZ_C_ONES)
            p[j] = tb;
        else if (m < H_FZ_C_RUNS)
            p[j] = m < H_FZ_C_ZEROS;
        else {
            if (run-- <= 0)
                run = (int64_t)(h_fz_mix(s) % 130), v = !v;
            p[j] = v;
        }
    }
}

/* Regions: tensors that share memory (H_FZ_ALIAS) share one allocation,
 * laid out so that every view lies inside it. */
static void layout(fz *c)
{
    size_t rel[NT] = {0, 0, 0, 0}, bytes[NT], i;
    uint64_t s = c->seed;
    int k, g;

    for (k = 0; k < NT; k++) {
        c->grp[k] = k;
        bytes[k] = c->count[k] > 0 ? (size_t)c->count[k] * c->esz[k] : 0;
    }
    switch (c->alias) {
    case H_FZ_A_DST_THEN: c->grp[D] = T; break;
    case H_FZ_A_DST_ELSE: c->grp[D] = E; break;
    case H_FZ_A_ALL_SAME: c->grp[D] = c->grp[E] = T; break;
    case H_FZ_A_DST_THEN_PLUS1: c->grp[D] = T, rel[D] = c->esz[D]; break;
    case H_FZ_A_DST_THEN_MINUS1: c->grp[D] = T, rel[T] = c->esz[D]; break;
    case H_FZ_A_DST_THEN_HALF:
        c->grp[D] = T, rel[D] = bytes[T] / 2 / c->esz[D] * c->esz[D];
        break;
    case H_FZ_A_DST_ELSE_PLUS1: c->grp[D] = E, rel[D] = c->esz[D]; break;
    case H_FZ_A_DST_COND: c->grp[D] = C; break;
    case H_FZ_A_DST_COND_PLUS1: c->grp[D] = C, rel[D] = 1; break;
    case H_FZ_A_THEN_ELSE: c->grp[E] = T; break;
    case H_FZ_A_COND_THEN: c->grp[C] = T; break;
    }
    for (g = 0; g < NT; g++) {
        region *r = &c->reg[g];
        int used = 0, dummy = 0, only_dst = 1;
        for (k = 0; k < NT; k++)
            if (c->grp[k] == g) {
                size_t end = c->offs[g] + rel[k] + bytes[k];
                c->voff[k] = c->offs[g] + rel[k];
                used = 1, dummy |= c->count[k] < 0, only_dst &= k == D;
                if (end > r->size)
                    r->size = end;
            }
        if (!used)
            continue;
        if (dummy) /* never touched when the call is right (see top) */
            r->size = 0;
        r->mem = malloc(r->size);
        r->pristine = malloc(r->size);
        r->after_ref = malloc(r->size);
        for (i = 0; i < r->size; i += 8) { /* 8 bytes per draw */
            uint64_t v = h_fz_mix(&s);
            size_t j;
            for (j = i; j < i + 8 && j < r->size; j++, v >>= 8)
                r->pristine[j] = only_dst ? (uint8_t)(0xa5 ^ (j * 0x3b))
                                          : (uint8_t)v;
        }
    }
    if (c->count[C] > 0 && c->reg[c->grp[C]].size)
        fill_cond(c, c->reg[c->grp[C]].pristine + c->voff[C], c->count[C], &s);
}

static void restore(fz *c)
{
    int g;
    for (g = 0; g < NT; g++)
        if (c->reg[g].mem)
            memcpy(c->reg[g].mem, c->reg[g].pristine, c->reg[g].size);
}

/* ---- execute ------------------------------------------------------------ */

static void set_opt_config(fz *c)
{
    opt_tuning tu = {0, c->cfg & 64 ? 1024 : 0, c->cfg & 32 ? 0 : SIZE_MAX,
                     0}; /* half_min 0: rows in halves (OPT_HALF) */

    for (c->isa = (int)(c->cfg & 3); c->isa > 0; c->isa--)
        if (c->isa < OPT_ISA_COUNT && opt_isa_supported(c->isa))
            break;
    opt_isa_force(c->isa);
    c->threads = (int)((c->cfg >> 2) & 3) + 1;
    opt_threads_force(c->threads);
    opt_tuning_set(c->cfg & 16 ? &tu : NULL);
}

/* The tensor and element the byte at offset i of region g belongs to. */
static void where(const fz *c, int g, size_t i, char *buf, size_t n)
{
    int k;
    for (k = NT - 1; k >= 0; k--)
        if (c->grp[k] == g && c->count[k] > 0 && i >= c->voff[k] &&
            i < c->voff[k] + (size_t)c->count[k] * c->esz[k]) {
            snprintf(buf, n, "%s element %zu byte %zu", tname[k],
                     (i - c->voff[k]) / c->esz[k], (i - c->voff[k]) % c->esz[k]);
            return;
        }
    snprintf(buf, n, "padding of %s's buffer", tname[g]);
}

static void exec_both(fz *c, int doomed)
{
    int sr, so, g, k;
    snap sn;
    size_t i;
    char at[64];

    take(c, &sn);
    restore(c);
    sr = ref_impl()->execute(c->p[C], c->p[T], c->p[E], c->b, c->p[D]);
    unchanged(c, &sn, "ref execute");
    for (g = 0; g < NT; g++)
        if (c->reg[g].mem)
            memcpy(c->reg[g].after_ref, c->reg[g].mem, c->reg[g].size);
    restore(c);
    so = H_FZ_UNDER_TEST()->execute(c->p[C], c->p[T], c->p[E], c->b, c->p[D]);
    unchanged(c, &sn, "opt execute");
    if (h_fuzz_verbose)
        fprintf(stderr, "  execute: ref %s, opt %s\n", sel_status_name(sr),
                sel_status_name(so));
    check_order(c, "execute", 1, sr, so);
    if (sr != so)
        fail(c, "execute status: ref %s, opt %s", sel_status_name(sr),
             sel_status_name(so));
    if (sr == SEL_OK && doomed)
        fail(c, "ref execute: SEL_OK where its own infer or dst says not");
    for (k = 0; !doomed && k < NT; k++) /* ARG-NULL-1, data: phase 5 */
        if (!c->t[k].data && c->count[k] > 0 && sr != SEL_ERR_ARG)
            fail(c, "execute: %s data NULL with %lld elements: %s, want "
                 "SEL_ERR_ARG", tname[k], (long long)c->count[k],
                 sel_status_name(sr));
    for (g = 0; g < NT; g++) {
        const region *r = &c->reg[g];
        /* dst's bytes in this region: what the reference may change */
        const size_t d0 = sr == SEL_OK && c->grp[D] == g && c->count[D] > 0
                              ? c->voff[D] : r->size;
        const size_t d1 = d0 < r->size ? d0 + (size_t)c->count[D] * c->esz[D]
                                       : r->size;
        if (!r->mem)
            continue;
        if (memcmp(r->mem, r->after_ref, r->size) != 0) {
            for (i = 0; r->mem[i] == r->after_ref[i]; i++)
                ;
            where(c, g, i, at, sizeof at);
            fail(c, "execute bytes: %s: ref 0x%02x, opt 0x%02x (%s)", at,
                 r->after_ref[i], r->mem[i], sel_status_name(sr));
        }
        for (k = 0; k < 2; k++) { /* [0, d0) and [d1, size) */
            size_t end = k ? r->size : d0;
            i = k ? d1 : 0;
            if (memcmp(r->pristine + i, r->after_ref + i, end - i) != 0) {
                while (r->pristine[i] == r->after_ref[i])
                    i++;
                where(c, g, i, at, sizeof at);
                fail(c, "ref execute (%s) wrote outside dst: %s (IO-INPUTS-1)",
                     sel_status_name(sr), at);
            }
        }
    }
}

/* ---- one input ---------------------------------------------------------- */

static void run(fz *c)
{
    int32_t out_rank;
    int64_t out_dims[SEL_MAX_RANK];
    int st, k, doomed, all = 1;

    for (k = C; k <= E; k++) {
        c->t[k].dtype = c->dtype[k];
        c->t[k].rank = c->rank[k];
        c->t[k].dims = c->dims[k];
        if (c->rank[k] == 0 && (c->bits & (1u << 12)))
            c->t[k].dims = NULL; /* allowed at rank 0 (ARG-NULL-1) */
    }
    for (k = 0; k < NT; k++)
        c->p[k] = &c->t[k];
    if (c->nul <= H_FZ_N_DST)
        c->p[c->nul - H_FZ_N_COND] = NULL;
    if (c->nul >= H_FZ_N_COND_DIMS && c->nul <= H_FZ_N_ELSE_DIMS)
        c->t[c->nul - H_FZ_N_COND_DIMS].dims = NULL;
    set_opt_config(c);
    for (k = 0; k < NT; k++) /* supports(): the same answer, as a truth */
        if (!ref_impl()->supports(c->dtype[k], c->b.type) !=
            !H_FZ_UNDER_TEST()->supports(c->dtype[k], c->b.type))
            fail(c, "supports(%d, %d) differs", (int)c->dtype[k],
                 (int)c->b.type);

    st = infer_both(c, &out_rank, out_dims);
    h_fz_make_dst(c, st, out_rank, out_dims);
    c->t[D].dtype = c->dtype[D];
    c->t[D].rank = c->rank[D];
    c->t[D].dims = c->nul == H_FZ_N_DST_DIMS ? NULL : c->dims[D];
    if (c->rank[D] == 0 && (c->bits & (1u << 12)))
        c->t[D].dims = NULL;

    /* Does the spec force a status of phases 1-4 (ERR-ORDER-1)? */
    doomed = st != SEL_OK || !c->p[D] || (c->rank[D] && !c->t[D].dims) ||
             c->dtype[D] != c->dtype[T] || c->rank[D] != out_rank ||
             memcmp(c->dims[D], out_dims, (size_t)c->ndims[D] * 8) != 0;
    for (k = 0; k < NT; k++) {
        const size_t s = sel_dtype_size(c->dtype[k]);
        c->esz[k] = s ? s : 1;
        c->count[k] = count_of(c, k);
        all &= c->count[k] >= 0;
    }
    if (h_fuzz_verbose) {
        h_fz_describe(stderr, c);
        fprintf(stderr, "  infer: %s\n", sel_status_name(st));
    }
    if (!doomed && !all) {
        if (h_fuzz_verbose)
            fputs("  execute: skipped (valid, too large to allocate)\n", stderr);
        return;
    }
    layout(c);
    for (k = 0; k < NT; k++) {
        c->t[k].data = c->reg[c->grp[k]].mem + c->voff[k];
        if (!c->reg[c->grp[k]].size)
            c->t[k].data = c->reg[c->grp[k]].mem;
        if ((c->count[k] == 0 && (c->bits & (1u << 13))) ||
            c->nul == H_FZ_N_ALL_DATA || c->nul == H_FZ_N_COND_DATA + (unsigned)k)
            c->t[k].data = NULL;
    }
    exec_both(c, doomed);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz c;
    int k;

    h_fz_decode(&c, data, size);
    run(&c);
    for (k = 0; k < NT; k++) {
        free(c.dims[k]);
        free(c.reg[k].mem);
        free(c.reg[k].pristine);
        free(c.reg[k].after_ref);
    }
    return 0;
}
