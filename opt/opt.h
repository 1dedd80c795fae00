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
    int64_t binner, brows;
} opt_plan;

/* Inner rows shorter than OPT_ROW_SHORT bytes run in blocks of at most
 * OPT_BLOCK_BYTES of output (measured: opt/README.md). */
#define OPT_ROW_SHORT 512
#define OPT_BLOCK_BYTES 8192

void opt_plan_make(const opt_geom *g, size_t width, opt_plan *p);
/* The kind and the blocking of a plan whose rank, dims and st are set. */
void opt_plan_finish(opt_plan *p, size_t width);

/* ---- opt_fast.c: validation and planning in one pass ------------------ */

/* Calls that are valid with a non-empty output, under any mode: checks,
 * places and coalesces in one pass over the axes (or finds the shapes of
 * the thread's last call and reuses its plan), points *p at the plan (the
 * thread's own, valid until its next call), sets *width and returns 1, or
 * 2 when the plan is the one this thread's previous call returned.  0
 * sends the call through opt_check, which gives the status. */
int opt_fast_plan(const sel_tensor *cond, const sel_tensor *then_,
                  const sel_tensor *else_, sel_broadcast b,
                  const sel_tensor *dst, const opt_plan **p, size_t *width);

/* ---- opt_small.c: small outputs, walked directly --------------------- */

/* Outputs of at most OPT_SMALL_MAX elements (measured: opt/README.md). */
#define OPT_SMALL_MAX 4096

/* Runs a plan of at most OPT_SMALL_MAX elements on the calling thread
 * (none of opt_run's threads, streams or blocks) and returns 1; 0 when the
 * call is larger, the blocks would cost less, or the tuning asks for
 * threads or streams: opt_run then.  same: p is the plan of this thread's
 * previous call, unchanged (opt_fast_plan returned 2). */
int opt_small_run(const opt_plan *p, const sel_tensor *cond,
                  const sel_tensor *then_, const sel_tensor *else_,
                  sel_tensor *dst, size_t width, int same);

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
 * 16-byte store per 16 / blk * blk bytes (up to 15 past the last group);
 * mask[j] = j % blk.  Returns the groups done before a read would pass
 * avail. */
size_t opt_xpat__avx2(const uint8_t *s, size_t avail, uint8_t *d,
                      size_t outer, size_t blk, size_t n, const uint8_t *mask);
#endif

/* ---- opt_dispatch.c: the ISA level, resolved once --------------------- */

int opt_isa_supported(int isa);     /* the CPU and the OS both allow it */
const char *opt_isa_name(int isa);  /* "scalar", ...; "?" out of range */
int opt_isa_active(void);           /* SEL_ISA, else the best supported */
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
    size_t parallel_min, chunk_min, nt_min;
} opt_tuning;
void opt_tuning_get(opt_tuning *t);
void opt_tuning_set(const opt_tuning *t); /* NULL restores the defaults */

int opt_run(const opt_plan *p, const sel_tensor *cond,
            const sel_tensor *then_, const sel_tensor *else_,
            sel_tensor *dst, size_t width);

/* ---- opt_select.c: the table ------------------------------------------ */

const sel_impl *opt_impl(void);

#endif
