/* fuzz_broken.c - the optimized backend with one deliberate bug, chosen by
 * FUZZ_BUG, for testing the fuzz target itself: the reproducer built with
 * -DH_FZ_UNDER_TEST=h_fz_broken must report each bug on the seed corpus.
 */
#include <stdlib.h>
#include <string.h>

#include "opt.h"
#include "fuzz_case.h"

const sel_impl *h_fz_broken(void);

/* The bugs, as FUZZ_BUG names them. */
static int bug(const char *name)
{
    const char *b = getenv("FUZZ_BUG");
    return b && strcmp(b, name) == 0;
}

static int64_t count(const sel_tensor *t)
{
    int64_t n = 1;
    int32_t i;
    for (i = 0; i < t->rank; i++)
        n *= t->dims[i];
    return n;
}

static int supports(int32_t dtype, int32_t broadcast_type)
{
    return opt_impl()->supports(dtype, broadcast_type);
}

static int infer(const sel_tensor *cond, const sel_tensor *then_,
                 const sel_tensor *else_, sel_broadcast b, int32_t *rank_out,
                 int64_t *dims_out)
{
    int st = opt_impl()->infer(cond, then_, else_, b, rank_out, dims_out);
    if (st == SEL_OK && bug("scalar_else") && else_->rank == 0)
        return SEL_ERR_SHAPE;            /* rejects a valid rank-0 else */
    if (st == SEL_OK && bug("dims_out") && *rank_out < SEL_MAX_RANK)
        dims_out[*rank_out] = 7;         /* writes past the rank */
    if (st == SEL_ERR_ATTR && bug("order"))
        return SEL_ERR_DTYPE;            /* ERR-ORDER-1 phases swapped */
    return st;
}

static int execute(const sel_tensor *cond, const sel_tensor *then_,
                   const sel_tensor *else_, sel_broadcast b, sel_tensor *dst)
{
    int st = opt_impl()->execute(cond, then_, else_, b, dst);
    if (st != SEL_OK || count(dst) == 0)
        return st;
    if (bug("tail")) /* the last element's last byte goes wrong */
        ((unsigned char *)dst->data)[count(dst) *
                                     (int64_t)sel_dtype_size(dst->dtype) - 1] ^= 0x5a;
    if (bug("input_write") && then_->data != dst->data && count(then_) > 0)
        *(unsigned char *)then_->data ^= 1; /* IO-INPUTS-1 */
    return st;
}

static const sel_impl table = {
    SEL_ABI_VERSION, "opt-broken", supports, infer, execute,
};

const sel_impl *h_fz_broken(void)
{
    return &table;
}
