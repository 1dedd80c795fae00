/* decline.c - the reference, but its supports() declines mode pdpd and
 * dtype f64: every such test is a SKIP, so check-harness-diagnose can
 * count skips in the TAP, the JUnit file and the results file alike.
 */
#include "ref.h"

static int supports(int32_t dtype, int32_t broadcast_type)
{
    if (dtype == SEL_DT_F64 || broadcast_type == SEL_BROADCAST_PDPD)
        return 0;
    return ref_impl()->supports(dtype, broadcast_type);
}

static int infer(const sel_tensor *cond, const sel_tensor *then_,
                 const sel_tensor *else_, sel_broadcast b, int32_t *rank_out,
                 int64_t *dims_out)
{
    return ref_impl()->infer(cond, then_, else_, b, rank_out, dims_out);
}

static int execute(const sel_tensor *cond, const sel_tensor *then_,
                   const sel_tensor *else_, sel_broadcast b, sel_tensor *dst)
{
    return ref_impl()->execute(cond, then_, else_, b, dst);
}

static const sel_impl table = {SEL_ABI_VERSION, "decline", supports, infer,
                               execute};

SEL_EXPORT const sel_impl *sel_get_impl(void)
{
    return &table;
}
