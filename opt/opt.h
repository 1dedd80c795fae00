/* opt.h - internal interfaces between the files of the optimized backend.
 * Not installed, not exported: libselect_opt.so exports sel_get_impl only.
 * Tests (opt_ktest.c, harness/diff/difftest.c) link the objects and use these.
 */
#ifndef OPT_H
#define OPT_H

#include <stddef.h>
#include <stdint.h>

#include "select.h"
#include "opt_kernels.h"

/* ---- opt_shape.c: validation and shape inference ---------------------- */

typedef struct opt_dims {
    int32_t rank;
    int64_t d[SEL_MAX_RANK];
} opt_dims;

/* A validated call: the output shape and where each input sits in it
 * (input axis i is output axis first[k] + i). */
typedef struct opt_geom {
    opt_dims out;
    opt_dims in[3];     /* cond, then, else */
    int32_t first[3];
    int64_t count;      /* elements of out */
    int64_t in_count[3];
} opt_geom;

/* Every check of infer (dst NULL) or execute up to SHAPE, in the order of
 * ERR-ORDER-1; fills *g on SEL_OK. */
int opt_check(const sel_tensor *cond, const sel_tensor *then_,
              const sel_tensor *else_, sel_broadcast b, const sel_tensor *dst,
              opt_geom *g);

/* execute's checks after the shapes: data pointers and overlap
 * (ARG-NULL-1, IO-ZERO-1, IO-ALIAS-1, IO-ALIAS-2). */
int opt_check_data(const sel_tensor *cond, const sel_tensor *then_,
                   const sel_tensor *else_, const sel_tensor *dst,
                   const opt_geom *g);

/* The fast path of execute: 1 when the call is valid with four tensors of
 * one shape (rank >= 1, count > 0) under none or numpy; 0 when it needs the
 * checks above (which then give the status). */
int opt_check_same(const sel_tensor *cond, const sel_tensor *then_,
                   const sel_tensor *else_, sel_broadcast b,
                   const sel_tensor *dst, int64_t *count);

/* [a, a+na) and [b, b+nb) share a byte; empty ranges share none. */
static inline int opt_overlap(const void *a, size_t na, const void *b,
                              size_t nb)
{
    const uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return na && nb && x < y + nb && y < x + na;
}

/* ---- opt_plan.c: broadcast planning ----------------------------------- */

/* The output as an outer walk over rank-1 axes and one inner row of n
 * elements.  st[k][i] is operand k's element stride on axis i (0 where it
 * broadcasts); k = 0 cond, 1 then, 2 else, and on the inner axis each is 0
 * or 1, which picks the kernel kind. */
typedef struct opt_plan {
    int32_t rank;                 /* >= 1 after planning */
    int64_t dims[SEL_MAX_RANK];
    int64_t st[3][SEL_MAX_RANK];
    int kind;                     /* OPT_K_vvv..vss, or -1: cond constant
                                     per row (fill/copy chosen per row) */
    size_t footprint;             /* bytes the call reads and writes, each
                                     input counted once as stored */
    size_t in_bytes[3];           /* each input's bytes as stored */
    /* Short inner rows run in blocks (opt_block.c): axes btop+1.. whole
     * (binner elements) times up to brows of axis btop; btop < 0: rows. */
    int32_t btop;
    /* opt_fast.c numbers the plans it makes on a thread: a memo keyed by
     * the plan's address, which the thread's plan memo keeps for every
     * shape, compares this too (opt_phase.c's refusal). */
    uint32_t gen;
    int64_t binner, brows;
} opt_plan;

/* One step of an odometer over plan axes top down to stop + 1 (top
 * innermost), each operand's element offset following (the row walks of
 * opt_exec.c and the blocks' outer axes in opt_block.c). */
static inline void opt_odometer(const opt_plan *p, int64_t *idx,
                                int64_t off[3], int32_t top, int32_t stop)
{
    for (int32_t i = top; i > stop; i--) {
        for (int k = 0; k < 3; k++)
            off[k] += p->st[k][i];
        if (++idx[i] < p->dims[i])
            return;
        for (int k = 0; k < 3; k++)
            off[k] -= p->st[k][i] * p->dims[i];
        idx[i] = 0;
    }
}

/* The odometer at element q of axes 0..top (top innermost): idx[0..top]
 * its coordinates, each operand's element offset of them added to off. */
static inline void opt_odometer_seek(const opt_plan *p, int64_t q,
                                     int32_t top, int64_t *idx,
                                     int64_t off[3])
{
    for (int32_t i = top; i >= 0; i--) {
        idx[i] = q % p->dims[i];
        q /= p->dims[i];
        for (int k = 0; k < 3; k++)
            off[k] += idx[i] * p->st[k][i];
    }
}

/* Inner rows shorter than OPT_ROW_SHORT bytes run in blocks of at most
 * OPT_BLOCK_BYTES of output (measured: opt/README.md). */
#define OPT_ROW_SHORT 512
#define OPT_BLOCK_BYTES 8192

void opt_plan_make(const opt_geom *g, size_t width, opt_plan *p);
/* The kind and the blocking of a plan whose rank, dims and st are set. */
void opt_plan_finish(opt_plan *p, size_t width);
/* A plan whose cond strides are all 0 as a copy or fill of input k alone
 * (the input cond's one byte picks), its axes coalesced for k only. */
void opt_plan_pick(const opt_plan *p, int k, size_t width, opt_plan *q);

/* ---- opt_fast.c: validation and planning in one pass ------------------ */

/* Calls that are valid with a non-empty output, under any mode: checks,
 * places and coalesces in one pass over the axes (or finds the shapes of
 * the thread's last call and reuses its plan), points *p at the plan (the
 * thread's own, valid until its next call; rank, dims, st, footprint and
 * in_bytes set), sets *width and returns 1, or
 * 2 when the plan is the one this thread's previous call returned.  0
 * sends the call through opt_check, which gives the status. */
int opt_fast_plan(const sel_tensor *cond, const sel_tensor *then_,
                  const sel_tensor *else_, sel_broadcast b,
                  const sel_tensor *dst, const opt_plan **p, size_t *width);
/* That plan's kind and blocking are set only here (opt_plan_finish, once
 * per plan): opt_small_run needs neither, opt_run both. */
const opt_plan *opt_fast_full(void);

/* ---- opt_small.c: small outputs, walked directly --------------------- */

/* Outputs of at most OPT_SMALL_MAX elements (measured: opt/README.md). */
#define OPT_SMALL_MAX 4096

/* Runs a plan of at most OPT_SMALL_MAX elements on the calling thread
 * (none of opt_run's threads, streams or blocks) and returns 1; 0 when the
 * call is larger, the blocks would cost less, or the tuning asks for
 * threads or streams: opt_run then.  same: p is the thread's last plan,
 * unchanged (opt_fast_plan returned 2); 2 and a return of 3: flat_first. */
typedef struct opt_hit_act opt_hit_act;
int opt_small_run(const opt_plan *p, const sel_tensor *cond,
                  const sel_tensor *then_, const sel_tensor *else_,
                  sel_tensor *dst, size_t width, int same, opt_hit_act *act);
/* Tests: 1 when the thread's last small plan runs as a chunk program. */
int opt_small_chunked(void);

/* ---- opt_hit.c: the warm call ----------------------------------------- */

/* What a small call ran, for opt_hit_try (opt_hit.h) to run again with new data
 * pointers: fn(ctx, ...) when fn is set (opt_small.c's walk, tiles or
 * chunk program); else one row of n elements, kern[0] when cond varies
 * along it, else kern[1] (cond's one byte true: from then) or kern[2]. */
typedef void opt_hit_fn(void *ctx, const void *c, const void *t,
                        const void *e, void *d);
struct opt_hit_act {
    opt_hit_fn *fn;
    void *ctx;
    opt_kernel_fn *kern[3];
    size_t n; /* the output's elements */
};
/* Arms the record with a valid call that ran a (in_bytes: what each input
 * spans, cond in bytes of 1). */
void opt_hit_arm(const sel_tensor *cond, const sel_tensor *then_,
                 const sel_tensor *else_, sel_broadcast b,
                 const sel_tensor *dst, size_t width,
                 const size_t in_bytes[3], const opt_hit_act *a);
/* The ISA level or the tuning changed: every thread's record is stale. */
void opt_hit_settings(void);

/* ---- opt_chunk.c: small outputs of any shape in 64-byte chunks -------- */

/* An output of at most OPT_CHUNK_BYTES bytes in chunks of 64 output bytes
 * (the last perhaps partial): per chunk and operand the window the
 * chunk's elements read (one of 64 bytes, or two anywhere in the operand:
 * broadcasting keeps the order within a run, so a window is usually a
 * few bytes), and a vpermb control (per output
 * byte the window byte; for cond the element's one byte) from a table of
 * distinct controls.  Built once per shape (opt_small.c: on the second
 * call with the same plan), run by opt_chunk__avx512 (AVX512-VBMI). */
#define OPT_CHUNK_BYTES 32768
#define OPT_CHUNK_CTLS 256
#define OPT_CHUNK_PER 40 /* the longest period computed once a call
                            (1x3x8x1:2x8x3x8x44:8x1 u8 pdpd, 33) */
typedef struct opt_chunk_rec {
    uint16_t off[3];  /* window start, bytes into cond, then, else */
    uint16_t off2[3]; /* the second window's (control bytes 64..127) */
    uint16_t ctl[3];  /* control: byte offset into opt_chunk.ctl */
    uint8_t n0[3];    /* bytes the first window holds (1..64) */
    uint8_t n1[3];    /* and the second (0: none) */
} opt_chunk_rec;
#define OPT_CHUNK_PAD 256 /* operands this small are read from a copy */
typedef struct opt_chunk {
    int32_t chunks;  /* chunks, the last one partial when tail < 64 */
    int32_t tail;    /* bytes of the last chunk (1..64) */
    int32_t safe;    /* chunks 0..safe-1 read no byte past any operand
                        with whole-vector loads (copies of padded ones) */
    int mode[3];     /* per operand: 0 every control the identity (no
                        permute), 1 one window of up to 64 bytes, 2 two,
                        3 one of up to 32 bytes (a 32-byte load,
                        broadcast), 4 all its bytes (at most 128) held
                        in two registers: no window load per chunk */
    int pad[3];      /* operand k has at most OPT_CHUNK_PAD bytes (inb):
                        the kernel copies it to a padded buffer */
    uint32_t inb[3];   /* operand bytes */
    int32_t per;     /* every operand not dense repeats its windows and
                        controls every per chunks (the last aside): its
                        bytes are computed once a call (0: no period) */
    int dense;       /* bit k: operand k read in order at dst's place */
    opt_chunk_rec rec[OPT_CHUNK_BYTES / 64];
    _Alignas(64) uint8_t ctl[OPT_CHUNK_CTLS * 64];
} opt_chunk;

/* The program of a plan with output elements of w bytes into *x; 0 when
 * it is larger than OPT_CHUNK_BYTES, two windows of 64 bytes do not hold
 * an operand's bytes for a chunk, or
 * there are more than OPT_CHUNK_CTLS distinct controls. */
int opt_chunk_build(opt_chunk *x, const opt_plan *p, size_t w);
#if defined(__x86_64__)
void opt_chunk__avx512(const opt_chunk *x, const void *c, const void *t,
                       const void *e, void *d);
#endif

/* ---- opt_vtile.c: small outputs in 32-byte tiles of byte shuffles ----- */

/* An output of at most OPT_VTILE_MAX bytes whose inner axes (the last one
 * perhaps split) make tiles of exactly 32 bytes, each operand reading a
 * tile from a window of at most 16 bytes (or the tile's 32 bytes in
 * order): per tile one shuffle of each window (ctl: per output byte the
 * window byte), one compare, one blend, one store.  mode[k]: 0 dense (a
 * straight load), 1 a 16-byte window, 2 (then, else) dense and laid out
 * as the output (tile i at byte 32 i; off's field unused), 3 (groups only)
 * one 16-byte window for a group's four tiles, shuffled four ways.  Tile i reads operand k's window at byte off.h[i][k] (a
 * table built once per call: an odometer step per tile cost more than
 * the tile's shuffles). */
#define OPT_VTILE_MAX 4096
typedef struct opt_vtile {
    const uint8_t *c;
    const char *t, *e;
    char *d;
    int32_t tiles;
    int32_t groups; /* > 0: off holds every fourth tile's offsets; tile
                       4g + 1 is tile 4g plus in[0] (packed), 4g + 2 plus
                       in[1], 4g + 3 plus both */
    uint64_t in[2];
    uint8_t ctl[3][40]; /* 32 bytes and room for 8-byte writes */
    uint64_t win;       /* a tile's window bytes per operand, packed */
    int mode[3];
    int wide;       /* 1 runs opt_vtile__avx512 (two tiles a zmm; AVX-512
                       and not opt_cpu_split512) */
    size_t last[3]; /* bytes the last tile's loads reach, per operand */
    union {         /* tile i's offsets: h[i][k] for operand k */
        uint64_t w[OPT_VTILE_MAX / 32];
        uint16_t h[OPT_VTILE_MAX / 32][4];
    } off;
} opt_vtile;
/* 1 (and *x filled but the pointers) when plan p runs in tiles. */
int opt_vtile_build(opt_vtile *x, const opt_plan *p, size_t w);
/* Runs it on the call's data (pads a window that would read past its
 * tensor's end in a copy on the stack). */
void opt_vtile_run(opt_vtile *x, const void *c, const void *t, const void *e,
                   void *d, const opt_plan *p);
#if defined(__x86_64__)
void opt_vtile__avx2(const opt_vtile *x);
/* 1 when the AVX-512 loop takes x (groups, and every operand's pair of
 * tiles one load); AVX-512 only. */
int opt_vtile_wide(const opt_vtile *x);
void opt_vtile__avx512(const opt_vtile *x);
#endif

/* ---- opt_brep.c: the blocks' expansion pass ------------------------- */

/* 1 when the vector passes serve this ISA level (its tables built once). */
int opt_brep_init(int isa);
/* `outer` groups of blk bytes at s (avail bytes readable from s), each
 * written n times, to d; simd: opt_brep_init's answer. */
void opt_brep(int simd, const char *s, size_t avail, char *d, size_t outer,
              size_t blk, size_t n);

/* ---- opt_block.c: short rows in blocks -------------------------------- */

/* Output elements [begin, end) of a blocked plan (btop >= 0). */
void opt_block_range(const opt_plan *p, const void *const data[3], char *d,
                     size_t w, int isa, int nt, int64_t begin, int64_t end);

/* A byte-shuffle table for one pass "groups of blk bytes, each written n
 * times" (blk * n < 16): per period of P 16-byte output vectors, vector v
 * is 16 source bytes from off[v] shuffled by mask[v]; a period reads from
 * need bytes, writes `groups` groups and advances the source adv bytes. */
typedef struct opt_xtab {
    uint8_t P, adv, need, groups;
    uint8_t off[16], mask[16][16];
} opt_xtab;
#if defined(__x86_64__)
/* opt_avx2.c (pshufb): up to `periods` periods while the source windows
 * stay within avail bytes of s; returns the periods done. */
size_t opt_xrep__avx2(const uint8_t *s, size_t avail, uint8_t *d,
                      size_t periods, const opt_xtab *x);
/* opt_avx2.c: `outer` groups of blk < 16 bytes, each written n times, one
 * 32-byte store per 32 / blk * blk bytes (one 16-byte store for groups
 * of up to 16 bytes; up to 31 past the last group); mask[j] = j % blk, 32
 * bytes.  Returns the groups done before a read would pass avail. */
size_t opt_xpat__avx2(const uint8_t *s, size_t avail, uint8_t *d,
                      size_t outer, size_t blk, size_t n, const uint8_t *mask);
/* opt_avx2.c: `outer` groups of blk >= 16 bytes, each written n times,
 * by 32-byte moves (no libc call, no byte stored twice but the overlap of
 * the last move). */
void opt_xcopy__avx2(const uint8_t *s, uint8_t *d, size_t outer, size_t blk,
                     size_t n);
#endif

/* ---- opt_crep.c: a cond repeated per element, read by the kernel ------ */

/* A blocked plan whose cond has one byte per row of C output elements
 * over each block (cond [N,1] against [N,C]: a mask per pixel over C
 * channels; also [H,W,1] against [H,W,C] with a [W,C] else) runs a kernel that reads those bytes directly and expands
 * them to lane masks in registers (no scratch for cond).  One job: n
 * output elements from element 0, which is element r of its row; c is
 * that row's cond byte (cavail bytes readable from it); t and e by mode
 * ts / es: 0 dense from element 0, 1 one element, 2 a tile (period C)
 * expanded densely from element 0.  P: 1 or 3 when a tile's pattern over
 * 64-element groups repeats every P groups (0: neither, kept in memory);
 * Q (P = 0, AVX-512): a tile repeats every Q groups, expanded only over
 * its first C + 64 (Q + 2) elements (0: expanded over the whole job). */
#define OPT_CREP_SEQC 64   /* C with an index table (both ISAs) */
#define OPT_CREP_MAXC 511  /* C up to (AVX-512: two rows per 64 elements) */
typedef struct opt_crep_job {
    const uint8_t *c;
    size_t cavail, r, C, n;
    const uint8_t *seq; /* seq[k] = k / C for k < C + 72 (C <= SEQC) */
    const char *t, *e;
    char *d;
    int ts, es, nt, P, Q;
} opt_crep_job;
typedef void opt_crep_fn(const opt_crep_job *j);

/* What a call's blocks need: the kernel and the index table, for C. */
typedef struct opt_crep {
    opt_crep_fn *fn;
    size_t C;
    int64_t brows; /* rows per block: whole 64-byte lines of output */
    int tile[3];   /* operand k (1, 2) is a tile when expanded */
    int P;         /* the job's P; 0 for the AVX2 kernels (no registers) */
    int Q;         /* the job's Q; 0 for the AVX2 kernels */
    int64_t trows; /* block rows a tile needs expanded (P or Q), else 0 */
    size_t w;
    const uint8_t *seq;
} opt_crep;

/* 1 (and *cr filled) when plan p's blocks qualify at this ISA level and
 * width; 0 leaves them to the scratch expansion of opt_block.c.  The shape
 * test is inline: most blocked calls fail it, tiny ones among them. */
int opt_crep_init(opt_crep *cr, const opt_plan *p, int isa, size_t w);
static inline int opt_crep_setup(opt_crep *cr, const opt_plan *p, int isa,
                                 size_t w)
{
    const int32_t top = p->btop, in = p->rank - 1;
    /* Rows of C, cond one byte per row (contiguous over the block: the
     * rest in opt_crep_init). */
    if (top < 0 || top > in - 1 || p->st[0][in] != 0 || p->st[0][in - 1] != 1)
        return 0;
    return opt_crep_init(cr, p, isa, w);
}
/* Output elements [lo, lo + n) of a block (lo counted from the block's
 * first element, whose row's cond byte is c); t, e and d already at
 * element lo; tcls / ecls: 0 dense, 1 constant, 2 expanded (a tile with
 * trows > 0: only trows rows of it, which repeat every row). */
void opt_crep_block(const opt_crep *cr, const uint8_t *c, size_t cavail,
                    int64_t lo, size_t n, const char *t, int tcls,
                    const char *e, int ecls, char *d, int nt);

/* Element 0 of a job moves k elements on (k <= 64): the row and phase
 * follow from seq (or, past SEQC, at most one row) without a division. */
static inline void opt_crep_adv(opt_crep_job *j, size_t k)
{
    const size_t a = j->C > OPT_CREP_SEQC ? j->r + k >= j->C
                                          : j->seq[j->r + k];
    j->c += a, j->cavail -= a, j->r += k - a * j->C;
}

/* The same for a fixed k = q * C + m: no load in the loop-carried chain
 * (a load per step made a 1-byte kernel wait on its own latency). */
static inline void opt_crep_step(opt_crep_job *j, size_t q, size_t m)
{
    const size_t r = j->r + m, wrap = r >= j->C, a = q + wrap;
    j->r = wrap ? r - j->C : r;
    j->c += a, j->cavail -= a;
}

#if defined(__x86_64__)
/* The kernels, per width (opt_avx2.c: none for 1-byte elements, where the
 * scratch expansion is faster; opt_avx512.c's need AVX512-VBMI). */
opt_crep_fn opt_crep_x16__avx2, opt_crep_x32__avx2, opt_crep_x64__avx2;
opt_crep_fn opt_crep_x8__avx512, opt_crep_x16__avx512, opt_crep_x32__avx512,
    opt_crep_x64__avx512;
#endif

/* ---- opt_dispatch.c: the ISA level, resolved once --------------------- */

/* The kernel table's width index of an element of w = 1, 2, 4, 8 bytes. */
static inline int opt_width_index(size_t w)
{
    return w == 1 ? 0 : w == 2 ? 1 : w == 4 ? 2 : 3;
}

int opt_isa_supported(int isa);     /* the CPU and the OS both allow it */
const char *opt_isa_name(int isa);  /* "scalar", ...; "?" out of range */
int opt_isa_active(void);           /* SEL_ISA, else the best supported */
int opt_cpu_vbmi(void);             /* AVX512-VBMI runs (with the avx512 level) */
int opt_cpu_split512(void);         /* 512-bit ops run as 256-bit halves (Zen 4);
                                     * SEL_SPLIT512=0|1 overrides */
/* Tests only: switch the level for later calls; fails (returns -1) when
 * the level is not supported.  Not for use while calls are in flight. */
int opt_isa_force(int isa);
/* The kernel of an ISA level (any level: the kernel test calls levels
 * directly), width index 0..3 (1, 2, 4, 8 bytes) and kind. */
opt_kernel_fn *opt_kernel(int isa, int width, int kind);

/* ---- opt_pool.c: the thread pool -------------------------------------- */

/* Threads a large call may use: SEL_NUM_THREADS, else the online CPUs. */
int opt_threads(void);
/* Tests only: set the thread count for later calls (1..OPT_MAX_THREADS). */
void opt_threads_force(int n);
#define OPT_MAX_THREADS 64

/* Runs task(ctx, i) for i in [0, nchunks) on up to nthreads threads, the
 * caller included, and returns when all are done.  When the pool is busy
 * with another caller, runs everything on the calling thread. */
typedef void opt_task_fn(void *ctx, size_t chunk);
void opt_parallel(opt_task_fn *task, void *ctx, size_t nchunks,
                  int nthreads);

/* ---- opt_exec.c: running a plan --------------------------------------- */

/* When a call goes to the pool and how: outputs of parallel_min bytes or
 * more are split into chunks of at least chunk_min bytes; calls whose
 * footprint (opt_plan.footprint) is nt_min bytes or more use non-temporal
 * stores.  Defaults are measured (README.md);
 * tests lower them to reach the threaded and streaming paths with small
 * tensors.  Not for use while calls are in flight. */
typedef struct opt_tuning {
    size_t parallel_min, chunk_min, nt_min, half_min; /* opt_exec.c */
} opt_tuning;
void opt_tuning_get(opt_tuning *t);
void opt_tuning_set(const opt_tuning *t); /* NULL restores the defaults */

int opt_run(const opt_plan *p, const sel_tensor *cond,
            const sel_tensor *then_, const sel_tensor *else_,
            sel_tensor *dst, size_t width);

/* ---- opt_select.c: the table ------------------------------------------ */

const sel_impl *opt_impl(void);

#endif
