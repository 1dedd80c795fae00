/* opt_select.c - the optimized backend's sel_impl table: supports, infer
 * and execute, tying validation, planning and the kernels together.
 * opt_export.c holds the one exported symbol.
 */
#include "opt.h"

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

static int execute(const sel_tensor *cond, const sel_tensor *then_,
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
        p.rank = 1; /* what opt_plan_make would find, without the work */
        p.dims[0] = n;
        p.st[0][0] = p.st[1][0] = p.st[2][0] = 1;
        p.kind = OPT_K_vvv;
        p.footprint = (size_t)n * (1 + 3 * w);
        p.btop = -1;
        return opt_run(&p, cond, then_, else_, dst, w);
    }
    if ((st = opt_fast_plan(cond, then_, else_, b, dst, &fp, &w))) {
        if (opt_small_run(fp, cond, then_, else_, dst, w, st == 2))
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

static const sel_impl table = {
    SEL_ABI_VERSION, "opt", supports, infer, execute,
};

const sel_impl *opt_impl(void)
{
    return &table;
}
