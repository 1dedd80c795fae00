/* opt_select.c - the optimized backend's sel_impl table: supports, infer
 * and execute, tying validation, planning and the kernels together.
 * opt_export.c holds the one exported symbol.
 */
#include "opt.h"
#include "opt_bwarm.h"
#include "opt_hit.h"
#include "opt_phase.h"
#include "opt_pick.h"

/* Every dtype (the kernels move 1, 2, 4 or 8 bytes whatever they mean) under
 * every mode, like the reference; the profile decides what is valid. */
static int supports(int32_t dtype, int32_t broadcast_type)
{
    return sel_dtype_size(dtype) != 0 &&
           (broadcast_type == SEL_BROADCAST_NONE ||
            broadcast_type == SEL_BROADCAST_NUMPY ||
            broadcast_type == SEL_BROADCAST_PDPD);
}

static int infer(const sel_tensor *cond, const sel_tensor *then_,
                 const sel_tensor *else_, sel_broadcast b, int32_t *rank_out,
                 int64_t *dims_out)
{
    opt_geom g;
    int32_t i;
    int st;

    if (!rank_out || !dims_out)
        return SEL_ERR_ARG; /* ARG-NULL-1 */
    if ((st = opt_check(cond, then_, else_, b, NULL, &g)) != SEL_OK)
        return st;
    *rank_out = g.out.rank;
    for (i = 0; i < g.out.rank; i++)
        dims_out[i] = g.out.d[i];
    return SEL_OK;
}

/* Whether a same-shape call looks like the thread's last one: the same
 * dims array (a graph passes its descriptors again; the record compares
 * their contents, this only keeps one-off calls from arming it). */
static int again(const int64_t *dims)
{
    static _Thread_local const int64_t *seen;
    const int r = seen == dims;
    seen = dims;
    return r;
}

/* A same-shape call on the caller: one dense row, as opt_run's rank-1 plan
 * runs it, unless the tuning asks for threads, streams or halves; arms the
 * record when it looks repeated.  Any size: past 4096 elements opt_run's
 * set-up and the slab test were 20-35% of a 5 Ki-element call.  0:
 * opt_run's. */
static int same_small(const sel_tensor *cond, const sel_tensor *then_,
                      const sel_tensor *else_, sel_broadcast b,
                      sel_tensor *dst, int64_t n, size_t w)
{
    const size_t in[3] = {(size_t)n, (size_t)n * w, (size_t)n * w};
    opt_hit_act a = {NULL, NULL, {NULL, NULL, NULL}, (size_t)n};
    opt_tuning tu;

    opt_tuning_get(&tu);
    if (in[1] >= tu.parallel_min || in[0] + 3 * in[1] > tu.nt_min ||
        in[1] > tu.half_min)
        return 0;
    a.kern[0] = opt_kernel(opt_isa_active(), opt_width_index(w), OPT_K_vvv);
    a.kern[0](a.n, cond->data, then_->data, else_->data, dst->data, 0);
    if (again(then_->dims))
        opt_hit_arm(cond, then_, else_, b, dst, w, in, &a);
    return 1;
}

/* A small call the thread may repeat: arm the record (opt_hit.c). */
static int small(const opt_plan *p, const sel_tensor *cond,
                 const sel_tensor *then_, const sel_tensor *else_,
                 sel_broadcast b, sel_tensor *dst, size_t w, int same)
{
    opt_hit_act a;
    int st = 0;
    /* cond one byte: a copy or fill of one input (rank 1 up to
     * OPT_SMALL_MAX: opt_small_run's one row) */
    if (p->in_bytes[0] == 1 && (p->rank > 1 || p->dims[0] > OPT_SMALL_MAX) &&
        (st = opt_pick_small(p, cond, then_, else_, dst, w, same, &a)))
        opt_small_forget(); /* its walk is of an older plan now */
    if (!st)
        st = opt_small_run(p, cond, then_, else_, dst, w, same, &a);
    if (!st || st == 3) { /* the flat walk, repeated: from the record
                  * (opt_phase.c); else the small walk's long rows (3), or
                  * blocks, repeated (opt_bwarm.c) */
        const void *const data[3] = {cond->data, then_->data, else_->data};
        const int rows = st == 3;
        opt_tuning tu;
        opt_tuning_get(&tu);
        st = opt_phase_small(opt_fast_full(), data, dst->data, w, same, &tu,
                             &a);
        if (!st && rows)
            st = opt_small_run(p, cond, then_, else_, dst, w, 2, &a);
        if (!st)
            st = opt_bwarm_small(opt_fast_full(), data, dst->data, w, same,
                                 &tu, &a);
    }
    if (st == 2)
        opt_hit_arm(cond, then_, else_, b, dst, w, p->in_bytes, &a);
    return st;
}

/* Every call the warm call's record does not run: a tail call out of
 * execute, so that a hit saves no registers for this frame (4 pushes, not
 * 6, and 0x28 bytes of frame, not 0x348).  That needs the record's address
 * from a TLS descriptor (-mtls-dialect=gnu2, opt/build.mk): the default
 * __tls_get_addr call clobbers every argument register, so gcc saved them
 * all before the hit test.  7 instructions fewer per hit, 11 more cold;
 * in turn call_64_f32 10.3 -> 10.2 ns, tiny_r1 13.6 -> 12.8, r3 21.4 ->
 * 20.6 (engineer T, tenth round; inline, as the ninth round left it, the
 * hit and the miss had measured the same under __tls_get_addr). */
static __attribute__((noinline)) int
execute_long(const sel_tensor *cond, const sel_tensor *then_,
             const sel_tensor *else_, sel_broadcast b, sel_tensor *dst)
{
    opt_geom g;
    opt_plan p;
    const opt_plan *fp;
    int64_t n;
    size_t w;
    int st;

    if (opt_check_same(cond, then_, else_, b, dst, &n)) {
        w = sel_dtype_size(then_->dtype);
        if (same_small(cond, then_, else_, b, dst, n, w))
            return SEL_OK;
        p.rank = 1; /* what opt_plan_make would find, without the work */
        p.dims[0] = n;
        p.st[0][0] = p.st[1][0] = p.st[2][0] = 1;
        p.kind = OPT_K_vvv;
        p.footprint = (size_t)n * (1 + 3 * w);
        p.btop = -1;
        return opt_run(&p, cond, then_, else_, dst, w);
    }
    if ((st = opt_fast_plan(cond, then_, else_, b, dst, &fp, &w))) {
        if (small(fp, cond, then_, else_, b, dst, w, st == 2))
            return SEL_OK;
        return opt_run(opt_fast_full(), cond, then_, else_, dst, w);
    }
    if (!dst)
        return SEL_ERR_ARG; /* ARG-NULL-1 */
    if ((st = opt_check(cond, then_, else_, b, dst, &g)) != SEL_OK ||
        (st = opt_check_data(cond, then_, else_, dst, &g)) != SEL_OK)
        return st;
    if (g.count == 0)
        return SEL_OK; /* IO-ZERO-1 */
    opt_plan_make(&g, sel_dtype_size(then_->dtype), &p);
    return opt_run(&p, cond, then_, else_, dst, sel_dtype_size(then_->dtype));
}

/* The thread's last small call again from the record (opt_hit.h), or the
 * long way. */
static int execute(const sel_tensor *cond, const sel_tensor *then_,
                   const sel_tensor *else_, sel_broadcast b, sel_tensor *dst)
{
    if (opt_hit_try(cond, then_, else_, b, dst))
        return SEL_OK;
    return execute_long(cond, then_, else_, b, dst);
}

static const sel_impl table = {
    SEL_ABI_VERSION, "opt", supports, infer, execute,
};

const sel_impl *opt_impl(void)
{
    return &table;
}
