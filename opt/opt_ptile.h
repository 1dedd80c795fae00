/* opt_ptile.h - the ptile blocks (opt_ptile.c, their loop in
 * opt_avx512_perm.c): short rows as 64-byte chunks of byte permutes. */
#ifndef OPT_PTILE_H
#define OPT_PTILE_H

#include "opt.h"

/* A blocked plan at AVX-512 with VBMI whose block (the inner axes, the
 * top one perhaps in part) is at most OPT_PTILE_NCH chunks of 64 output
 * bytes: per chunk each operand is one 64-byte load (dense: the chunk's
 * own bytes; else a window at win[k][j] from the block's base, mode 2:
 * one for the whole block, loaded once; mode 3: two, by vpermi2b) spread
 * over the chunk's bytes by vpermb through ctl[j][k], the same for every
 * block; cond's bytes (one per element's byte) through vptestmb to a
 * 64-bit mask, one byte blend, one store.  No scratch.  An odometer over the axes above
 * the block (level 0 the rest of the top axis) gives each block's bases:
 * level l steps operand k by delta[k][l] bytes (levels below wrapping).
 * When r rows do not divide the top axis, a pass over it (a group of
 * gbytes) ends in a block of fewer rows: that block is run whole and
 * writes spill bytes past its group, which the next block overwrites (the
 * range's last such block goes through a buffer). */
#define OPT_PTILE_NCH 8
typedef struct opt_ptile {
    int32_t win[3][OPT_PTILE_NCH];
    int nch, mode[3], nax;  /* 0 dense, 1 window/chunk, 2-3 1-2 per block */
    int narrow;             /* cond in mode 2 within 16 bytes a block */
    size_t bbytes, reach[3]; /* reach: bytes past a base the loads touch */
    size_t gbytes, spill;    /* a pass over the top axis; its last block's
                                bytes past it (0: r divides the axis) */
    int64_t nb;              /* blocks per pass */
    uint64_t tail;           /* store mask of the last chunk */
    int64_t dims[SEL_MAX_RANK], delta[3][SEL_MAX_RANK];
    int64_t step[3][SEL_MAX_RANK]; /* bytes per step of level l alone */
    /* Chunk-major and last: blocks of 1-4 chunks read the struct's first
     * OPT_PTILE_HOT bytes only (opt_stage_place keeps a stage off them). */
    _Alignas(64) uint8_t ctl[OPT_PTILE_NCH][3][64];
} opt_ptile;
/* The mode sets (bit m0 * 16 + m1 * 4 + m2) of blocks of 5-8 chunks,
 * PT_BIG in opt_avx512_perm.c: each operand dense or in one window per
 * block (not all dense, nor 0 2 2, which no shape of the sweeps took);
 * cond in a window per chunk beside then in one window per block (1 2 0)
 * or beside dense then and else in one (1 0 2), only in blocks of a whole
 * pass (opt_ptile.c's build()); then in two windows per block (2 3 0).
 * Not two operands in a window per chunk: 11x1x7x78x1:11x6x7x78x1:
 * 11x1x7x1x3 f16 ran 0.59 in 234-byte blocks (2 1 2), 0.55 in 468-byte
 * ones (1 1 2). */
#define OPT_PTILE_BIG                                                        \
    (1ull << 2 | 1ull << 8 | 1ull << 32 | 1ull << 34 | 1ull << 40 |        \
     1ull << 42 | 1ull << 18 | 1ull << 24 | 1ull << 44)
#define OPT_PTILE_HOT (offsetof(opt_ptile, ctl) + 4 * 3 * 64)
/* n whole blocks from odometer state idx, operand byte offsets off[] into
 * src[], output at d.  A block whose loads would pass operand k's end
 * (off[k] > lim[k]) reads from tail[k], a copy of the tensor's last bytes
 * with room after them, at off[k] - rebase[k].  Leaves idx and off at the
 * next block. */
typedef struct opt_ptile_job {
    const char *src[3], *tail[3];
    int64_t lim[3], rebase[3];
    int64_t off[3], idx[SEL_MAX_RANK];
    char *d;
    size_t n;
    int nt;
    int wide; /* whole chunks stored, the last past the block's end (into
                 part()'s buffer: no masked store) */
} opt_ptile_job;
/* The tiles of blocked plan p at this level and width (built once per
 * shape and thread, kept), or NULL: the blocks of opt_block.c then
 * (streamed blocks that cut lines run through opt_stage.c's stage). */
const opt_ptile *opt_ptile_get(const opt_plan *p, size_t w, int isa, int nt);
/* Output elements [begin, end) (any range: blocks cut at its ends run
 * through a buffer). */
void opt_ptile_range(const opt_ptile *t, const opt_plan *p,
                     const void *const data[3], char *d, size_t w, int nt,
                     int64_t begin, int64_t end);
#if defined(__x86_64__)
void opt_ptile_blocks__avx512(const opt_ptile *t, opt_ptile_job *j);
#endif

#endif
