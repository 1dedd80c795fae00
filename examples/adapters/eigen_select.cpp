/* eigen_select.cpp - Eigen's Tensor select behind the selcheck ABI (Debian
 * libeigen3-dev): cond.broadcast(..).select(then.broadcast(..), ..) over
 * TensorMaps of the caller's buffers, written straight into dst.
 */
#include <array>
#include <cstdint>

#include <unsupported/Eigen/CXX11/Tensor>

extern "C" {
#include "adapt.h"
}

namespace {

typedef Eigen::DenseIndex idx;
typedef std::array<idx, SEL_MAX_RANK> dims8;

/* Eigen's tensors have a static rank: every shape is padded to 8 with
 * leading 1s, and the broadcast factors say how often each axis repeats. */
void pad(const sel_tensor *t, const int64_t *out, dims8 &d, dims8 &f)
{
    int32_t lead = SEL_MAX_RANK - t->rank, i;

    for (i = 0; i < SEL_MAX_RANK; i++) {
        d[i] = i < lead ? 1 : (idx)t->dims[i - lead];
        f[i] = d[i] == out[i] ? 1 : (idx)out[i];
    }
}

template <typename T>
void run(const sel_tensor *in[3], sel_tensor *dst, const int64_t *out8)
{
    typedef Eigen::Tensor<const T, SEL_MAX_RANK, Eigen::RowMajor> In;
    typedef Eigen::Tensor<const bool, SEL_MAX_RANK, Eigen::RowMajor> Cond;
    typedef Eigen::Tensor<T, SEL_MAX_RANK, Eigen::RowMajor> Out;
    dims8 d[3], f[3], od;
    int k;

    for (k = 0; k < 3; k++)
        pad(in[k], out8, d[k], f[k]);
    for (k = 0; k < SEL_MAX_RANK; k++)
        od[k] = (idx)out8[k];
    Eigen::TensorMap<Cond> c((const bool *)in[0]->data, d[0]);
    Eigen::TensorMap<In> t((const T *)in[1]->data, d[1]);
    Eigen::TensorMap<In> e((const T *)in[2]->data, d[2]);
    Eigen::TensorMap<Out> o((T *)dst->data, od);
    o = c.broadcast(f[0]).select(t.broadcast(f[1]), e.broadcast(f[2]));
}

/* Eigen's element type for each dtype it has; f8 has none. */
int dispatch(const sel_tensor *in[3], sel_tensor *dst, const int64_t *out8)
{
    switch (in[1]->dtype) {
    case SEL_DT_BOOLEAN: run<bool>(in, dst, out8); break;
    case SEL_DT_F64: run<double>(in, dst, out8); break;
    case SEL_DT_F32: run<float>(in, dst, out8); break;
    case SEL_DT_F16: run<Eigen::half>(in, dst, out8); break;
    case SEL_DT_BF16: run<Eigen::bfloat16>(in, dst, out8); break;
    case SEL_DT_I64: run<int64_t>(in, dst, out8); break;
    case SEL_DT_I32: run<int32_t>(in, dst, out8); break;
    case SEL_DT_I16: run<int16_t>(in, dst, out8); break;
    case SEL_DT_I8: run<int8_t>(in, dst, out8); break;
    case SEL_DT_U64: run<uint64_t>(in, dst, out8); break;
    case SEL_DT_U32: run<uint32_t>(in, dst, out8); break;
    case SEL_DT_U16: run<uint16_t>(in, dst, out8); break;
    case SEL_DT_U8: run<uint8_t>(in, dst, out8); break;
    default: return SEL_ERR_UNSUPPORTED;
    }
    return SEL_OK;
}

int supports(int32_t dtype, int32_t broadcast_type)
{
    return sel_dtype_size(dtype) && dtype != SEL_DT_F8E4M3 &&
           dtype != SEL_DT_F8E5M2 &&
           (broadcast_type == SEL_BROADCAST_NONE ||
            broadcast_type == SEL_BROADCAST_NUMPY);
}

/* Eigen has no shape inference: the adapter's numpy rule (adapt.h). */
int shape(const sel_tensor *in[3], const sel_tensor *dst, sel_broadcast b,
          int32_t *rank, int64_t *dims)
{
    int st;

    if ((st = ad_typed(in, dst)) || (st = ad_rank(in)) ||
        (st = ad_none(in, b)))
        return st;
    return ad_numpy_shape(in, b.flags, rank, dims);
}

int infer(const sel_tensor *cond, const sel_tensor *then_,
          const sel_tensor *else_, sel_broadcast b, int32_t *rank_out,
          int64_t *dims_out)
{
    const sel_tensor *in[3] = {cond, then_, else_};
    int st;

    if (!rank_out || !dims_out)
        return SEL_ERR_ARG;
    if ((st = ad_front(in, NULL, 0, b)))
        return st;
    return shape(in, NULL, b, rank_out, dims_out);
}

int execute(const sel_tensor *cond, const sel_tensor *then_,
            const sel_tensor *else_, sel_broadcast b, sel_tensor *dst)
{
    const sel_tensor *in[3] = {cond, then_, else_};
    int64_t dims[SEL_MAX_RANK], out8[SEL_MAX_RANK];
    int32_t rank, i;
    int st;

    if ((st = ad_front(in, dst, 1, b)) ||
        (st = shape(in, dst, b, &rank, dims)) ||
        (st = ad_dst(dst, rank, dims)) || (st = ad_data(in, dst)))
        return st;
    if (ad_count(dst) == 0)
        return SEL_OK; /* IO-ZERO-1: data may be NULL */
    for (i = 0; i < SEL_MAX_RANK; i++)
        out8[i] = i < SEL_MAX_RANK - rank ? 1 : dims[i - (SEL_MAX_RANK - rank)];
    return dispatch(in, dst, out8);
}

const sel_impl table = {SEL_ABI_VERSION, "eigen_select", supports, infer,
                        execute};

} // namespace

extern "C" SEL_EXPORT const sel_impl *sel_get_impl(void)
{
    return &table;
}
