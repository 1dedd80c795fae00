/* xtensor_where.cpp - xt::where behind the selcheck ABI (Debian
 * xtensor-dev): xt::adapt views of the caller's buffers, xtensor's own
 * numpy broadcasting and shape inference, assigned into a view of dst.
 */
#include <cstdint>
#include <vector>

#include <xtensor/xadapt.hpp>
#include <xtensor/xexception.hpp>
#include <xtensor/xoperation.hpp>

extern "C" {
#include "adapt.h"
}

namespace {

typedef std::vector<std::size_t> shape_t;

/* xtensor's shapes are size_t: a negative dim cannot be said to it. */
int shape_of(const sel_tensor *t, shape_t &s)
{
    s.assign(t->dims, t->dims + t->rank);
    for (int32_t i = 0; i < t->rank; i++)
        if (t->dims[i] < 0)
            return SEL_ERR_SHAPE;
    return SEL_OK;
}

template <typename T>
auto view(const sel_tensor *t, const shape_t &s)
{
    T *p = (T *)t->data; /* read only: xt::where never writes it */
    std::size_t n = 1;
    for (std::size_t d : s)
        n *= d;
    return xt::adapt(p, n, xt::no_ownership(), s);
}

/* xt::where's shape for T (data unused) or, with dst, its result in dst. */
template <typename T>
int run(const sel_tensor *in[3], sel_tensor *dst, const shape_t s[3],
        int32_t *rank, int64_t *dims)
{
    auto c = view<bool>(in[0], s[0]);
    auto t = view<T>(in[1], s[1]);
    auto e = view<T>(in[2], s[2]);
    try {
        auto w = xt::where(c, t, e);
        const auto &ws = w.shape(); /* broadcasting happens here */
        if (ws.size() > SEL_MAX_RANK)
            return SEL_ERR_SHAPE;
        *rank = (int32_t)ws.size();
        for (std::size_t i = 0; i < ws.size(); i++)
            dims[i] = (int64_t)ws[i];
        if (!dst)
            return SEL_OK;
        int st = ad_dst(dst, *rank, dims);
        const sel_tensor *ins[3] = {in[0], in[1], in[2]};
        if (st || (st = ad_data(ins, dst)) || ad_count(dst) == 0)
            return st;
        shape_t ds(dst->dims, dst->dims + dst->rank);
        auto o = view<T>(dst, ds);
        o = w;
    } catch (const xt::broadcast_error &) {
        return SEL_ERR_SHAPE;
    } catch (const std::bad_alloc &) {
        return SEL_ERR_NOMEM;
    }
    return SEL_OK;
}

int dispatch(const sel_tensor *in[3], sel_tensor *dst, const shape_t s[3],
             int32_t *rank, int64_t *dims)
{
    switch (in[1]->dtype) {
    case SEL_DT_BOOLEAN: return run<bool>(in, dst, s, rank, dims);
    case SEL_DT_F64: return run<double>(in, dst, s, rank, dims);
    case SEL_DT_F32: return run<float>(in, dst, s, rank, dims);
    case SEL_DT_I64: return run<int64_t>(in, dst, s, rank, dims);
    case SEL_DT_I32: return run<int32_t>(in, dst, s, rank, dims);
    case SEL_DT_I16: return run<int16_t>(in, dst, s, rank, dims);
    case SEL_DT_I8: return run<int8_t>(in, dst, s, rank, dims);
    case SEL_DT_U64: return run<uint64_t>(in, dst, s, rank, dims);
    case SEL_DT_U32: return run<uint32_t>(in, dst, s, rank, dims);
    case SEL_DT_U16: return run<uint16_t>(in, dst, s, rank, dims);
    case SEL_DT_U8: return run<uint8_t>(in, dst, s, rank, dims);
    default: return SEL_ERR_UNSUPPORTED; /* no f16, bf16 or f8 type */
    }
}

int supports(int32_t dtype, int32_t broadcast_type)
{
    return sel_dtype_size(dtype) && dtype != SEL_DT_F16 &&
           dtype != SEL_DT_BF16 && dtype != SEL_DT_F8E4M3 &&
           dtype != SEL_DT_F8E5M2 &&
           (broadcast_type == SEL_BROADCAST_NONE ||
            broadcast_type == SEL_BROADCAST_NUMPY);
}

int call(const sel_tensor *in[3], sel_tensor *dst, sel_broadcast b,
         int32_t *rank, int64_t *dims)
{
    shape_t s[3];
    int st, k;

    if ((st = ad_front(in, dst, dst != NULL, b)) || (st = ad_typed(in, dst)) ||
        (st = ad_rank(in)))
        return st;
    for (k = 0; k < 3; k++)
        if ((st = shape_of(in[k], s[k])))
            return st;
    if ((st = ad_none(in, b)))
        return st;
    return dispatch(in, dst, s, rank, dims);
}

int infer(const sel_tensor *cond, const sel_tensor *then_,
          const sel_tensor *else_, sel_broadcast b, int32_t *rank_out,
          int64_t *dims_out)
{
    const sel_tensor *in[3] = {cond, then_, else_};

    if (!rank_out || !dims_out)
        return SEL_ERR_ARG;
    return call(in, NULL, b, rank_out, dims_out);
}

int execute(const sel_tensor *cond, const sel_tensor *then_,
            const sel_tensor *else_, sel_broadcast b, sel_tensor *dst)
{
    const sel_tensor *in[3] = {cond, then_, else_};
    int64_t dims[SEL_MAX_RANK];
    int32_t rank;

    if (!dst)
        return SEL_ERR_ARG;
    return call(in, dst, b, &rank, dims);
}

const sel_impl table = {SEL_ABI_VERSION, "xtensor_where", supports, infer,
                        execute};

} // namespace

extern "C" SEL_EXPORT const sel_impl *sel_get_impl(void)
{
    return &table;
}
