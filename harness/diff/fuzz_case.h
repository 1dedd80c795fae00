/* fuzz_case.h - one decoded fuzz input: the Select call it stands for and
 * the buffers the target builds for it.  fuzz_decode.c fills and prints
 * it; harness/diff/fuzz_select.c runs it on ref and opt.
 */
#ifndef H_FUZZ_CASE_H
#define H_FUZZ_CASE_H

#include <stdio.h>

#include "select.h"
#include "fuzz_format.h"

/* Tensors are indexed cond 0, then 1, else 2, dst 3 everywhere. */
#define H_FZ_NT 4

/* One allocation shared by the tensors that alias (H_FZ_A_*): its bytes
 * before each call, and after the reference's call. */
typedef struct h_fz_region {
    uint8_t *mem, *pristine, *after_ref;
    size_t size;
} h_fz_region;

typedef struct h_fz {
    /* Decoded (h_fz_decode). */
    sel_broadcast b;
    int32_t dtype[H_FZ_NT], rank[H_FZ_NT], base_rank;
    int64_t base[SEL_MAX_RANK];
    int64_t *dims[H_FZ_NT]; /* exactly ndims[k] entries (heap) or NULL */
    int ndims[H_FZ_NT];
    unsigned nul, alias, cond_mode, dst_mode, cfg, bits, offs[H_FZ_NT];
    const uint8_t *tail;    /* the input's bytes after the shapes */
    size_t ntail;
    uint64_t seed;          /* hash of the whole input: all other data */
    /* Built by the target. */
    int isa, threads, have_dst;
    int64_t count[H_FZ_NT]; /* elements, or -1: not allocated */
    size_t esz[H_FZ_NT], voff[H_FZ_NT];
    int grp[H_FZ_NT];       /* the region each tensor lives in */
    h_fz_region reg[H_FZ_NT];
    sel_tensor t[H_FZ_NT];
    sel_tensor *p[H_FZ_NT]; /* &t[k], or NULL (H_FZ_N_COND..DST) */
} h_fz;

/* Fills c from the input (c's heap parts: dims[]); never fails. */
void h_fz_decode(h_fz *c, const uint8_t *data, size_t size);
/* dst's shape: the inferred one, or then's when st is an error, changed
 * as the input's H_FZ_DST byte says (SHAPE-DST-1). */
void h_fz_make_dst(h_fz *c, int st, int32_t rank, const int64_t *dims);
/* Three indented lines: mode, dtypes, shapes, faults, opt's setting. */
void h_fz_describe(FILE *f, const h_fz *c);
/* The generator's uniform 64-bit draws (splitmix64). */
uint64_t h_fz_mix(uint64_t *state);

#endif
