/* opt_small.c - small outputs walked straight from the plan on the calling
 * thread: no blocks, no scratch, no chunks, no expansion passes, when that
 * costs less than the blocks' setup and passes (a few hundred instructions
 * of fixed cost, then 2-6 per element).
 *
 * One flat loop over the plan's rows: after each row the odometer finds
 * the axis that steps and adds that axis's precomputed byte delta to each
 * operand's pointer (one add per operand, whatever the rank).  The row body
 * is specialized: short rows element by element, per element width and per
 * inner stride of each operand (0 or 1), with a branch-free pick; rows of
 * at least OPT_KROW_BYTES through the row kernels of the ISA (or, when cond is
 * constant on the row, a copy or fill from the input it picks).
 */
#include <string.h>

#include "opt.h"
#include "opt_pick.h"
#include "opt_ptile.h"
#include "opt_swalk.h"
#include "opt_wrap.h"

_Static_assert(OPT_VTILE_MAX <= OPT_SMALL_MAX, /* build()'s early exit */
               "the tiles take no output the walk would not");


/* The row kernel by the then and else inner strides (bits 1, 0). */
static const int kinds[4] = {OPT_K_vss, OPT_K_vsv, OPT_K_vvs, OPT_K_vvv};

/* Whether walking costs less than opt_run's blocks, in instructions as
 * callgrind counts them (fitted on the sweep's small shapes, opt/README.md).
 * A row: short, about 20 plus 6 per element (3 when cond is constant on
 * it; 12 in all for a fixed-size copy), and 15 more per tile; long, a kernel call of about 50 plus a
 * quarter of its bytes (a copy or fill: 35 plus an eighth).  The blocks:
 * about 1 400 to set up, then half a byte per element (up to 5 bytes), or
 * nothing more when cond is one byte (one copy or fill per block).  Rows
 * that opt_run would not block (one axis, or OPT_ROW_SHORT bytes and
 * more) run as rows either way, and the walk has less to set up. */
static int pays(const opt_plan *p, opt_swalk *x, int64_t n)
{
    const int64_t n0 = x->n0, rows = x->tiles * x->n1, w = (int64_t)x->w;
    const int32_t in = p->rank - 1;
    const int pick = p->st[0][in] == 0,
              copy = pick && p->st[1][in] && p->st[2][in] &&
                     (n0 * w == 4 || n0 * w == 8 || n0 * w == 16);
    int64_t est;
    x->est = 0;
    if (p->rank < 2 || n0 * w >= OPT_ROW_SHORT)
        return 1;
    if (n0 * w < OPT_KROW_BYTES)
        est = rows * (copy ? 12 : 20 + (pick ? 3 : 6) * n0) + x->tiles * 15;
    else
        est = rows * (pick ? 35 + n0 * w / 8 : 50 + n0 * w / 4);
    x->est = est;
    if (p->in_bytes[0] == 1) /* cond one byte: blocks copy or fill */
        return est <= 1400;
    return 2 * est <= 2800 + n * (w < 5 ? w : 5);
}

/* Byte deltas (rank 3 and more): axis i steps by its stride; after a
 * tile each pointer is n1 rows on, and the axes between, each at its last
 * index, wrap to 0. */
static void deltas(opt_swalk *x, const opt_plan *p)
{
    const int32_t r = p->rank;
    const int64_t w = (int64_t)x->w;
    int64_t back[3];
    for (int k = 0; k < 3; k++)
        back[k] = p->st[k][r - 2] * x->n1;
    for (int32_t i = r - 3; i >= 0; i--) {
        x->dc[i] = p->st[0][i] - back[0];
        x->dt[i] = (p->st[1][i] - back[1]) * w;
        x->de[i] = (p->st[2][i] - back[2]) * w;
        for (int k = 0; k < 3; k++)
            back[k] += p->st[k][i] * (p->dims[i] - 1);
    }
}

/* The settings keep the call on the caller, without streams (tests lower
 * them to reach opt_run's threads and streams with small tensors). */
static int on_caller(const opt_plan *p, int64_t n, size_t w)
{
    opt_tuning tu;
    opt_tuning_get(&tu);
    return (size_t)n * w < tu.parallel_min && p->footprint <= tu.nt_min;
}

/* The tiles of opt_vtile.c run from the AVX2 level up. */
static int vtile_level(int isa)
{
#if defined(__x86_64__)
    return isa >= OPT_ISA_avx2;
#else
    (void)isa;
    return 0;
#endif
}

/* The chunk program of opt_chunk.c runs at the AVX-512 level with VBMI. */
static int chunk_level(int isa)
{
#if defined(__x86_64__)
    return isa >= OPT_ISA_avx512 && opt_cpu_vbmi();
#else
    (void)isa;
    return 0;
#endif
}

/* Tiles (when the plan splits into them) against the walk: about 1 000
 * instructions to set up (a call that misses the memo pays them), then
 * 12 per 32-byte tile (callgrind, rank 2-8 tiny calls).  Short rows get
 * half the setup: their estimate runs low (tiny_r4_f32: 1 008 estimated,
 * about 1 300 walked), and tiles save most there (1 926 -> 1 104). */
static int vtile_pays(const opt_swalk *x, int64_t n, size_t w)
{
    const int64_t setup = (size_t)x->n0 * w < OPT_KROW_BYTES ? 500 : 1000;
    return x->est > setup + n * (int64_t)w * 12 / 32;
}

/* The walk of a plan of rank 2 or more, but its data pointers: 0 when
 * the blocks would cost less; 2 when the tiles (vt, when not NULL) cost
 * less and are set up in *vt instead (before the walk's deltas). */
static int build(opt_swalk *x, opt_swalk_fn **fn, const opt_plan *p, size_t w,
                 int isa, opt_vtile *vt)
{
    const int32_t r = p->rank;
    const int wi = opt_width_index(w);
    int64_t n;
    int ok;

    x->n0 = p->dims[r - 1], x->n1 = p->dims[r - 2], x->tiles = 1;
    for (int32_t i = 0; i < r - 2; i++)
        x->tiles *= p->dims[i];
    n = x->tiles * x->n1 * x->n0, x->w = w;
    if (n > OPT_SMALL_MAX) /* neither the walk nor the tiles take it */
        return 0;
    ok = pays(p, x, n);
    if (vt && (!ok || vtile_pays(x, n, w)) && opt_vtile_build(vt, p, w))
        return 2;
    if (!ok)
        return 0;
    x->lo = r - 3, x->dims = p->dims;
    for (int k = 0; k < 3; k++) {
        x->s0[k] = (size_t)p->st[k][r - 1];
        x->s1[k] = p->st[k][r - 2] * (k ? (int64_t)w : 1);
    }
    if (r > 2)
        deltas(x, p);
    if ((size_t)x->n0 * w < OPT_KROW_BYTES) {
        *fn = opt_swalk_short(x, wi);
        return 1;
    }
    x->pick = !x->s0[0];
    x->kern = opt_kernel(isa, wi,
                         x->pick ? OPT_K_fill : kinds[x->s0[1] * 2 + x->s0[2]]);
    *fn = opt_swalk_rows;
    return 1;
}

/* The thread's last walk: a call that repeats the last call's shapes (and
 * ISA level) repeats its walk but for the data pointers. */
typedef struct wcache {
    int ok, use, isa, vt;
    int ck; /* the chunk program: 0 not tried yet, 1 built, -1 declined */
    int64_t n;
    opt_swalk x;
    opt_vtile v;
    opt_swalk_fn *fn;
    const opt_plan *p; /* the plan the tiles run (the memo's) */
} wcache;
static _Thread_local wcache last;

void opt_small_forget(void)
{
    last.ok = 0;
}

int opt_small_chunked(void)
{
    return last.ok && last.ck == 1;
}

/* Built on the second call with the same plan: a call seen once pays
 * nothing for it. */
static _Thread_local opt_chunk prog;

/* Operands that a program can take without windows: each laid out as
 * the output (mode 0) or of at most 128 bytes (held whole, mode 4). */
static int light_ins(const wcache *m, const opt_plan *p, size_t w)
{
    for (int k = 0; k < 3; k++)
        if (p->in_bytes[k] > 128 &&
            p->in_bytes[k] != (size_t)m->n * (k ? w : 1))
            return 0;
    return 1;
}

/* Outputs of more than OPT_SMALL_MAX elements, up to OPT_CHUNK_BYTES,
 * where a 64-byte load is one line (not split512: Zen 5): a program that
 * loads no window per chunk (every operand laid out as the output or of
 * at most 128 bytes, held whole: modes 0 and 4, a control and a dense
 * line per chunk; chunk_keeps checks the built program) over
 * opt_block's blocks, whose scratch passes store every expanded byte
 * once more (1x3x8x1:2x8x3x8x44:8x1 u8 pdpd 0.31 -> 0.47).  Not over
 * ptile's blocks (11578x1:1x2:11578x2 i8 0.68 -> 0.56) nor with windows
 * (83x1x46x2:83x1x46x2:83x3x46x2 i8, two a chunk, 0.30 -> 0.26).
 * Checked before the program is built: with the modes checked only after
 * it, ptile's 2x1x1x1:170x2x3x13x1:170x1x3x1x1 i8 ran 0.50 -> 0.47.
 * Over the other paths (3), up to 16 KiB, only a program with a period
 * (chunk_keeps; x->per: the full chunks load only the dense operands):
 * 2x1:2x3:1185x2x3 bf16 (flat walk) 178 -> 163 ns; at 30 KiB,
 * 1x2:3825x2:1x1 f32 pdpd lost, 326 -> 361. */
static int chunk_big(const wcache *m, const opt_plan *p, size_t w, int isa)
{
    if (!chunk_level(isa) || opt_cpu_split512() || p->in_bytes[0] == 1 ||
        m->n * (int64_t)w > OPT_CHUNK_BYTES || !light_ins(m, p, w))
        return 0;
    /* the blocking (btop) and ptile's answer need the finished plan: the
     * memo's, which opt_run and opt_bwarm_small finish the same way */
    if (opt_fast_full() == p && p->btop >= 0 && !opt_ptile_get(p, w, isa, 0))
        return 2;
    return m->n * (int64_t)w <= OPT_CHUNK_BYTES / 2 ? 3 : 0;
}

/* The chunk program against what the call runs now (timed on the
 * sweep's small shapes, each way; opt/README.md): the walk when its
 * estimate is over 30 per chunk and 50 (fewer chunks: the walk is as
 * fast; with 150, the 25 small sweep shapes of seeds 1-3 in between ran
 * 1-21% slower by the walk, all but one) and, for rows of 128 bytes and
 * more, only a program that loads no window (every operand dense or held
 * whole: chunk_long); the blocks up to 180 chunks (past that, the
 * blocks' kernels catch up); never the tiles (as fast).  A
 * cond of one byte (pin) picks then or else whole: chunks only for rows
 * under 32 bytes (longer ones are a copy or fill each) and up to 40
 * chunks (the path it takes costs about 50 ns more per call, then copies
 * faster: 1:145x1x2:145x1 bf16 pdpd 68 -> 33 ns as 10 chunks, but
 * _:402x2:1x2 f64, 101 chunks, 124 -> 136).  Larger outputs: chunk_big. */
static int chunk_pays(const wcache *m, const opt_plan *p, size_t w, int isa)
{
    const int64_t chunks = (m->n * (int64_t)w + 63) / 64;
    const size_t pin = p->in_bytes[0];
    if (m->n > OPT_SMALL_MAX)
        return chunk_big(m, p, w, isa);
    if (!chunk_level(isa) || m->n * (int64_t)w > OPT_CHUNK_BYTES ||
        (pin == 1 && (m->x.n0 * (int64_t)w >= 32 || chunks > 40)))
        return 0;
    if (!opt_cpu_split512() && light_ins(m, p, w) &&
        (m->vt ? chunks >= 16 && !m->v.groups
               : !m->use || m->x.est > 15 * chunks + 50))
        return 2; /* Zen 5: below */
    return !m->vt && (m->use ? m->x.est > 30 * chunks + 50
                      : chunks <= (opt_cpu_split512() ? 180 : 64));
}

/* Where a 64-byte load is one line (not split512: Zen 5), timed on the
 * small sweep shapes of seeds 1-3 each way: a program that loads no
 * window (chunk_pays 2; chunk_keeps checks the built one) beats the tiles
 * of split axes (no groups) from 16 chunks (1x4x2x1x1:2x1x2x3x1:2x4x2x3x4
 * f64 40 -> 36 ns, 3x2x1x1:4x2x3x2x2x2:1x2x1 f64 pdpd 41 -> 35; at 8
 * chunks 2x4x1x8:4x2x2x4x1x8:4x1x2x4x1x1 i8 lost, 0.91 -> 0.80), not
 * the tiles in groups of four (all dims powers of 2: tiny_r7_f64 40 ->
 * 47 ns, tiny_r3_f32, r4, r8 10-14% slower as chunks), the walk over
 * about 15 per chunk and 50 (62x1:62x28:62x28 i64 0.40 -> 0.52), the
 * blocks at any size (1x2:1583x2:2 f32 pdpd, 198 chunks, 0.51 -> 0.58;
 * 23 of 24 such shapes ran faster as chunks); a program with windows
 * beats the blocks only up to 64 chunks (at 72-144 chunks the blocks
 * won: 2x9x1x2x4x1:1x9x1x2x1x8:2x9x1x2x4x1 i64 0.57 -> 0.87,
 * 2x1x9:1x2x1x15x2x3x9:2x1x1x2x3x9 i32 0.37 -> 0.47,
 * 9x4x16x1:9x4x16x4:4x1x4 bf16 0.56 -> 0.66; at 50-54 chunks the
 * program still won: 88x1x3x3:88x1x3x3:88x2x3x1 f16 0.50 -> 0.59). */

/* A program chunk_pays took for loading no window (2) runs only if so;
 * one it took for a period (3), only if it also has one. */
static int chunk_keeps(int pays, const opt_chunk *x)
{
    if (pays < 2)
        return 1;
    if (pays == 3 && !x->per)
        return 0;
    for (int k = 0; k < 3; k++)
        if (x->mode[k] != 0 && x->mode[k] != 4)
            return 0;
    return 1;
}

/* A built program over the walk's rows of 128 bytes and more: only when
 * no operand loads a window per chunk (modes 0 and 4).  A row kernel's
 * pass beats window loads and shuffles (1x68:28x68:68 bf16 pdpd, else
 * in two windows: 138 -> 177 ns), not a chunk that loads dense bytes
 * and permutes registers (65:19x65:1x1 f16 pdpd: 96 -> 66 ns). */
static int chunk_long(const wcache *m, size_t w, const opt_chunk *x)
{
    if (!m->use || m->x.n0 * (int64_t)w < 128)
        return 1;
    for (int k = 0; k < 3; k++)
        if (x->mode[k] != 0 && x->mode[k] != 4)
            return 0;
    return 1;
}

/* Rows of 128-255 bytes, elements of 2-8, cond varying, no chunks: the
 * flat walk first (1x68:28x68:68 bf16 pdpd 139 -> 110 ns; opt/README.md) */
static int flat_first(const wcache *m, size_t w)
{
    const int64_t row = m->x.n0 * (int64_t)w;
    return !m->vt && m->fn == opt_swalk_rows && !m->x.pick && w > 1 && row >= 128
        && row < 256 && opt_wrap_kernel(m->isa, opt_width_index(w));
}

/* The record's actions (opt_hit.c): the walk, the tiles or the chunk
 * program of the thread's last plan, on new data pointers. */
static void hit_walk(void *ctx, const void *c, const void *t, const void *e,
                     void *d)
{
    wcache *const m = ctx;
    m->x.c = c, m->x.t = t, m->x.e = e, m->x.d = d;
    m->fn(&m->x);
}

static void hit_tiles(void *ctx, const void *c, const void *t, const void *e,
                      void *d)
{
    wcache *const m = ctx;
    opt_vtile_run(&m->v, c, t, e, d, m->p);
}

#if defined(__x86_64__)
static void hit_chunk(void *ctx, const void *c, const void *t, const void *e,
                      void *d)
{
    opt_chunk__avx512(ctx, c, t, e, d);
}
#endif

/* One row: straight to its kernel, or copy or fill; *a says how when the
 * call may repeat (same). */
static int one_row(const opt_plan *p, const sel_tensor *cond,
                   const sel_tensor *then_, const sel_tensor *else_,
                   sel_tensor *dst, size_t w, int same, opt_hit_act *a)
{
    const int isa = opt_isa_active(), wi = opt_width_index(w);
    const uint8_t *c = (const uint8_t *)cond->data;
    const int k = p->st[0][0] ? 0 : *c ? 1 : 2;
    const void *s = k == 2 ? else_->data : then_->data;
    const int64_t n = p->dims[0];
    if (n > OPT_SMALL_MAX || !on_caller(p, n, w))
        return 0;
    if (!same) {
        opt_kernel(isa, wi,
                   k ? (p->st[k][0] ? OPT_K_copy : OPT_K_fill)
                     : kinds[(p->st[1][0] != 0) * 2 + (p->st[2][0] != 0)])(
            (size_t)n, c, s, else_->data, dst->data, 0);
        return 1;
    }
    a->fn = NULL, a->n = (size_t)n;
    a->kern[0] = k ? NULL
                   : opt_kernel(isa, wi,
                                kinds[(p->st[1][0] != 0) * 2 +
                                      (p->st[2][0] != 0)]);
    for (int j = 1; j < 3 && k; j++)
        a->kern[j] = opt_kernel(isa, wi, p->st[j][0] ? OPT_K_copy : OPT_K_fill);
    a->kern[k]((size_t)n, c, s, else_->data, dst->data, 0);
    return 2;
}

/* 0: not run (opt_run); 1: run; 2: run, and *a says how (the walk's state
 * is built and stays so while the thread's calls repeat this plan); 3: the
 * flat walk first (flat_first), then this with same 2. */
int opt_small_run(const opt_plan *p, const sel_tensor *cond,
                  const sel_tensor *then_, const sel_tensor *else_,
                  sel_tensor *dst, size_t w, int same, opt_hit_act *a)
{
    wcache *const m = &last;
    opt_swalk *const x = &m->x;
    int isa;

    if (p->rank == 1)
        return one_row(p, cond, then_, else_, dst, w, same, a);
    isa = opt_isa_active();
    if (!same || !m->ok || m->isa != isa) {
        m->ok = 0, m->isa = isa;
        m->use = build(x, &m->fn, p, w, isa,
                       vtile_level(isa) ? &m->v : NULL);
        m->n = x->tiles * x->n1 * x->n0; /* build() set them first */
        m->vt = m->use == 2;
        m->ok = 1, m->ck = 0;
    } else if (!m->ck) {
        const int pays = chunk_pays(m, p, w, isa);
        m->ck = pays && opt_chunk_build(&prog, p, w) &&
                        chunk_long(m, w, &prog) && chunk_keeps(pays, &prog)
                    ? 1
                    : -1;
    }
#if defined(__x86_64__)
    if (m->ck == 1 && on_caller(p, m->n, w)) {
        opt_chunk__avx512(&prog, cond->data, then_->data, else_->data,
                          dst->data);
        a->fn = hit_chunk, a->ctx = &prog, a->n = (size_t)m->n;
        return 2;
    }
#endif
    if (!m->use || !on_caller(p, m->n, w))
        return 0;
    if (same == 1 && m->ck == -1 && flat_first(m, w))
        return 3;
    if (m->vt) {
        opt_vtile_run(&m->v, cond->data, then_->data, else_->data, dst->data,
                      p);
    } else {
        x->c = (const uint8_t *)cond->data;
        x->t = (const char *)then_->data, x->e = (const char *)else_->data;
        x->d = (char *)dst->data;
        m->fn(x);
    }
    if (!m->ck) /* the next call decides on the chunk program */
        return 1;
    a->fn = m->vt ? hit_tiles : hit_walk, a->ctx = m, a->n = (size_t)m->n;
    m->p = p;
    return 2;
}
