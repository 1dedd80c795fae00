/* minimal.c - a complete Select in one file, written the way a third party
 * would: export sel_get_impl, validate in the order of ERR-ORDER-1, work
 * out each input's strides over the output, copy bytes.  Every dtype, mode
 * and flag; no SIMD, no threads.
 *
 * Built as libminimal.so.  The same file with -DBUG_ODD_TAIL (the last
 * element of an odd-sized output is never written) or -DBUG_RANK0_CRASH
 * (a rank-0 input kills the process) gives the two broken copies that
 * `make check` requires selcheck to catch (examples/t/examples.sh).
 */
#include <signal.h>
#include <string.h>

#include "select.h"

/* What validation leaves for execute: the output shape and, for cond,
 * then and else, the element stride along each output axis (0 where the
 * input is broadcast). */
typedef struct plan {
    int32_t rank;
    int64_t dims[SEL_MAX_RANK];
    int64_t stride[3][SEL_MAX_RANK];
    int64_t count[3];
} plan;

static int supports(int32_t dtype, int32_t broadcast_type)
{
    return sel_dtype_size(dtype) != 0 && broadcast_type >= SEL_BROADCAST_NONE &&
           broadcast_type <= SEL_BROADCAST_PDPD;
}

/* Rank, dims and size of one tensor (SHAPE-RANK-1, -NEG-1, -OVF-1). */
static int check_shape(int32_t rank, const int64_t *dims, size_t esize,
                       int64_t *count)
{
    int64_t n = 1, limit = INT64_MAX / (int64_t)esize;
    int zero = 0, i;

    if ((uint64_t)limit > SIZE_MAX / esize)
        limit = (int64_t)(SIZE_MAX / esize);
    if (rank < 0 || rank > SEL_MAX_RANK)
        return SEL_ERR_SHAPE;
    for (i = 0; i < rank; i++) {
        if (dims[i] < 0)
            return SEL_ERR_SHAPE;
        zero |= dims[i] == 0;
    }
    for (i = 0; i < rank && !zero; i++) {
        if (n > limit / dims[i])
            return SEL_ERR_SHAPE;
        n *= dims[i];
    }
    *count = zero ? 0 : n;
    return SEL_OK;
}

/* How an input may change an output dim it meets. */
enum { GROW_ANY, GROW_NONE, GROW_TO_ZERO };

/* Lays input t over the output from output axis `first`: each dim must
 * equal the output's or be 1; where the output has 1 it may grow. */
static int lay(plan *p, const sel_tensor *t, int32_t first, int grow)
{
    int32_t i;

    for (i = 0; i < t->rank; i++) {
        int64_t d = t->dims[i], *o = &p->dims[first + i];
        if (d == *o || d == 1)
            continue;
        if (*o == 1 && (grow == GROW_ANY || (grow == GROW_TO_ZERO && d == 0)))
            *o = d;
        else
            return SEL_ERR_SHAPE;
    }
    return SEL_OK;
}

static void set_strides(plan *p, int k, const sel_tensor *t, int32_t first)
{
    int64_t step = 1;
    int32_t i;

    memset(p->stride[k], 0, sizeof p->stride[k]);
    for (i = t->rank - 1; i >= 0; i--) {
        if (t->dims[i] != 1)
            p->stride[k][first + i] = step;
        step *= t->dims[i];
    }
}

/* pdpd: where the smaller shape starts (axis -1: right-aligned). */
static int pdpd_first(const plan *p, const sel_tensor *t, int32_t axis,
                      int32_t *first)
{
    int64_t f = axis == -1 ? (int64_t)p->rank - t->rank : axis;

    if (t->rank > p->rank || f + t->rank > p->rank)
        return SEL_ERR_SHAPE;
    *first = (int32_t)f;
    return SEL_OK;
}

/* Everything infer checks, and execute before touching data. */
static int make_plan(const sel_tensor *in[3], sel_broadcast b,
                     const sel_tensor *dst, plan *p)
{
    int32_t first[3] = {0, 0, 0}, i;
    int k, st;
    int64_t out_count;

    for (k = 0; k < 4; k++) { /* ARG-NULL-1 */
        const sel_tensor *t = k < 3 ? in[k] : dst;
        if ((k < 3 || dst) && (!t || (t->rank != 0 && !t->dims)))
            return SEL_ERR_ARG;
    }
    if (b.type < SEL_BROADCAST_NONE || b.type > SEL_BROADCAST_PDPD ||
        (b.type == SEL_BROADCAST_PDPD && b.axis < -1))
        return SEL_ERR_ATTR;
    for (k = 0; k < 3; k++)
        if (!sel_dtype_size(in[k]->dtype))
            return SEL_ERR_DTYPE;
    if (in[0]->dtype != SEL_DT_BOOLEAN || in[1]->dtype != in[2]->dtype ||
        (dst && dst->dtype != in[1]->dtype))
        return SEL_ERR_DTYPE;
    for (k = 0; k < 3; k++)
        if ((st = check_shape(in[k]->rank, in[k]->dims,
                              sel_dtype_size(in[k]->dtype), &p->count[k])))
            return st;

    /* The output starts as then's shape, widened to the rank it needs. */
    p->rank = in[1]->rank;
    if (b.type == SEL_BROADCAST_NUMPY) {
        for (k = 0; k < 3; k++)
            if (in[k]->rank > p->rank &&
                (k == 2 || (b.flags & SEL_COND_BIDIRECTIONAL)))
                p->rank = in[k]->rank;
    }
    for (i = 0; i < p->rank; i++)
        p->dims[i] = i < p->rank - in[1]->rank
                         ? 1 : in[1]->dims[i - (p->rank - in[1]->rank)];
    if (b.type == SEL_BROADCAST_NONE) {
        for (k = 0; k < 3; k += 2) {
            if (in[k]->rank != p->rank)
                return SEL_ERR_SHAPE;
            for (i = 0; i < p->rank; i++)
                if (in[k]->dims[i] != p->dims[i])
                    return SEL_ERR_SHAPE;
        }
    } else if (b.type == SEL_BROADCAST_NUMPY) {
        int oneway = !(b.flags & SEL_COND_BIDIRECTIONAL);
        if (in[0]->rank > p->rank)
            return SEL_ERR_SHAPE; /* one-way cond cannot add axes */
        for (k = 0; k < 3; k++)
            first[k] = p->rank - in[k]->rank;
        if ((st = lay(p, in[2], first[2], GROW_ANY)) ||
            (st = lay(p, in[0], first[0], oneway ? GROW_NONE : GROW_ANY)))
            return st;
    } else {
        if ((st = pdpd_first(p, in[2], b.axis, &first[2])) ||
            (st = lay(p, in[2], first[2], GROW_TO_ZERO)) ||
            (st = pdpd_first(p, in[0], b.axis, &first[0])) ||
            (st = lay(p, in[0], first[0], GROW_TO_ZERO)))
            return st;
    }
    /* then may have met a 0 or a wider dim: its own axes start here. */
    first[1] = p->rank - in[1]->rank;
    if ((st = check_shape(p->rank, p->dims, sel_dtype_size(in[1]->dtype),
                          &out_count)))
        return st;
    if (dst) {
        if (dst->rank != p->rank)
            return SEL_ERR_SHAPE;
        for (i = 0; i < p->rank; i++)
            if (dst->dims[i] != p->dims[i])
                return SEL_ERR_SHAPE;
    }
    for (k = 0; k < 3; k++)
        set_strides(p, k, in[k], first[k]);
    return SEL_OK;
}

static int infer(const sel_tensor *cond, const sel_tensor *then_,
                 const sel_tensor *else_, sel_broadcast b, int32_t *rank_out,
                 int64_t *dims_out)
{
    const sel_tensor *in[3] = {cond, then_, else_};
    plan p;
    int st;

#ifdef BUG_RANK0_CRASH
    if ((cond && cond->rank == 0) || (then_ && then_->rank == 0) ||
        (else_ && else_->rank == 0))
        raise(SIGSEGV);
#endif
    if (!rank_out || !dims_out)
        return SEL_ERR_ARG;
    if ((st = make_plan(in, b, NULL, &p)))
        return st;
    *rank_out = p.rank;
    memcpy(dims_out, p.dims, (size_t)p.rank * sizeof *dims_out);
    return SEL_OK;
}

static int overlap(const void *a, size_t na, const void *b, size_t nb)
{
    const char *x = a, *y = b;
    return na && nb && x < y + nb && y < x + na;
}

static int execute(const sel_tensor *cond, const sel_tensor *then_,
                   const sel_tensor *else_, sel_broadcast b, sel_tensor *dst)
{
    const sel_tensor *in[3] = {cond, then_, else_};
    int64_t idx[SEL_MAX_RANK] = {0}, off[3] = {0, 0, 0}, n, count = 1;
    size_t es;
    int32_t i;
    plan p;
    int k, st;

#ifdef BUG_RANK0_CRASH
    if ((cond && cond->rank == 0) || (then_ && then_->rank == 0) ||
        (else_ && else_->rank == 0))
        raise(SIGSEGV);
#endif
    if (!dst)
        return SEL_ERR_ARG;
    if ((st = make_plan(in, b, dst, &p)))
        return st;
    for (i = 0; i < p.rank; i++)
        count *= p.dims[i];
    es = sel_dtype_size(then_->dtype);
    for (k = 0; k < 3; k++)
        if (!in[k]->data && p.count[k])
            return SEL_ERR_ARG;
    if (count == 0)
        return SEL_OK; /* IO-ZERO-1 */
    if (!dst->data || overlap(dst->data, (size_t)count * es, cond->data,
                              (size_t)p.count[0]))
        return SEL_ERR_ARG;
    for (k = 1; k < 3; k++) /* in place is fine, other overlap is not */
        if (overlap(dst->data, (size_t)count * es, in[k]->data,
                    (size_t)p.count[k] * es) &&
            !(dst->data == in[k]->data && p.count[k] == count &&
              in[k]->rank == p.rank))
            return SEL_ERR_ARG;

#ifdef BUG_ODD_TAIL
    count -= count & 1;
#endif
    for (n = 0; n < count; n++) {
        const unsigned char *c = cond->data;
        const char *src = c[off[0]] ? (const char *)then_->data + off[1] * es
                                    : (const char *)else_->data + off[2] * es;
        memmove((char *)dst->data + n * (int64_t)es, src, es);
        for (i = p.rank - 1; i >= 0; i--) { /* next index, row-major */
            for (k = 0; k < 3; k++)
                off[k] += p.stride[k][i];
            if (++idx[i] < p.dims[i])
                break;
            for (k = 0; k < 3; k++)
                off[k] -= p.stride[k][i] * p.dims[i];
            idx[i] = 0;
        }
    }
    return SEL_OK;
}

static const sel_impl table = {SEL_ABI_VERSION,
#if defined(BUG_ODD_TAIL)
                               "minimal-oddtail",
#elif defined(BUG_RANK0_CRASH)
                               "minimal-rank0crash",
#else
                               "minimal",
#endif
                               supports, infer, execute};

SEL_EXPORT const sel_impl *sel_get_impl(void)
{
    return &table;
}
