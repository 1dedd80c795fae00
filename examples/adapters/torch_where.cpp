/* torch_where.cpp - torch::where (at::where) from libtorch behind the
 * selcheck ABI (Debian libtorch-dev): inputs wrapped with from_blob, no
 * copy; torch checks dtypes, broadcasts and selects; the adapter copies
 * the result's bytes into dst when torch's result has dst's dtype.
 */
#include <cstdint>
#include <cstring>
#include <mutex>
#include <vector>

#include <ATen/ATen.h>
#include <ATen/ExpandUtils.h>
#include <ATen/Parallel.h>

extern "C" {
#include "adapt.h"
}

namespace {

/* torch's scalar type for a dtype; Undefined where 1.13 has none. */
at::ScalarType type_of(int32_t dtype)
{
    switch (dtype) {
    case SEL_DT_BOOLEAN: return at::kBool;
    case SEL_DT_F64: return at::kDouble;
    case SEL_DT_F32: return at::kFloat;
    case SEL_DT_F16: return at::kHalf;
    case SEL_DT_BF16: return at::kBFloat16;
    case SEL_DT_I64: return at::kLong;
    case SEL_DT_I32: return at::kInt;
    case SEL_DT_I16: return at::kShort;
    case SEL_DT_I8: return at::kChar;
    case SEL_DT_U8: return at::kByte;
    default: return at::ScalarType::Undefined;
    }
}

std::vector<int64_t> sizes(const sel_tensor *t)
{
    return std::vector<int64_t>(t->dims, t->dims + t->rank);
}

/* One intra-op thread: the harness runs calls concurrently itself. */
void setup()
{
    static std::once_flag once;
    std::call_once(once, [] { at::set_num_threads(1); });
}

/* torch's verdict on the dtypes: where() on one-element tensors of each
 * input's dtype, rank 0 where the input has rank 0 (torch promotes 0-dim
 * tensors differently); *type is the result's. */
int dtype_probe(const sel_tensor *in[3], at::ScalarType *type)
{
    at::Tensor p[3];
    for (int k = 0; k < 3; k++) {
        if (type_of(in[k]->dtype) == at::ScalarType::Undefined)
            return SEL_ERR_DTYPE;
        p[k] = at::zeros(in[k]->rank ? at::IntArrayRef{1} : at::IntArrayRef{},
                         at::TensorOptions().dtype(type_of(in[k]->dtype)));
    }
    try {
        *type = at::where(p[0], p[1], p[2]).scalar_type();
    } catch (const c10::Error &) {
        return SEL_ERR_DTYPE;
    }
    return SEL_OK;
}

/* dtypes, rank, NONE's rule, then torch's broadcast (at::infer_size, as
 * torch.broadcast_shapes), in ERR-ORDER-1's order. */
int judge(const sel_tensor *in[3], const sel_tensor *dst, sel_broadcast b,
          int32_t *rank, int64_t *dims)
{
    at::ScalarType type;
    int st;

    if ((st = dtype_probe(in, &type)))
        return st;
    if (dst && type != type_of(dst->dtype))
        return SEL_ERR_DTYPE; /* torch promoted: no byte copy possible */
    if ((st = ad_rank(in)) || (st = ad_none(in, b)))
        return st;
    try {
        std::vector<int64_t> s = at::infer_size(sizes(in[1]), sizes(in[2]));
        s = at::infer_size(sizes(in[0]), s);
        if (s.size() > SEL_MAX_RANK)
            return SEL_ERR_SHAPE;
        *rank = (int32_t)s.size();
        for (size_t i = 0; i < s.size(); i++)
            dims[i] = s[i];
    } catch (const c10::Error &) {
        return SEL_ERR_SHAPE;
    }
    return SEL_OK;
}

int supports(int32_t dtype, int32_t broadcast_type)
{
    return type_of(dtype) != at::ScalarType::Undefined &&
           (broadcast_type == SEL_BROADCAST_NONE ||
            broadcast_type == SEL_BROADCAST_NUMPY);
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
    setup();
    return judge(in, NULL, b, rank_out, dims_out);
}

/* torch.where's result into dst, if it is dst's dtype and shape. */
int put(const at::Tensor &r, sel_tensor *dst)
{
    if (r.scalar_type() != type_of(dst->dtype))
        return SEL_ERR_DTYPE;
    if (r.dim() != dst->rank)
        return SEL_ERR_SHAPE;
    for (int32_t i = 0; i < dst->rank; i++)
        if (r.size(i) != dst->dims[i])
            return SEL_ERR_SHAPE;
    if (!r.is_contiguous())
        return SEL_ERR_UNSUPPORTED;
    if (r.nbytes())
        memcpy(dst->data, r.data_ptr(), r.nbytes());
    return SEL_OK;
}

int execute(const sel_tensor *cond, const sel_tensor *then_,
            const sel_tensor *else_, sel_broadcast b, sel_tensor *dst)
{
    const sel_tensor *in[3] = {cond, then_, else_};
    static char none[16]; /* from_blob wants a pointer even for 0 elements */
    int64_t dims[SEL_MAX_RANK];
    int32_t rank;
    int st;

    if ((st = ad_front(in, dst, 1, b)))
        return st;
    setup();
    if ((st = judge(in, dst, b, &rank, dims)) ||
        (st = ad_dst(dst, rank, dims)) || (st = ad_data(in, dst)))
        return st;
    try {
        at::Tensor t[3];
        for (int k = 0; k < 3; k++)
            t[k] = at::from_blob(in[k]->data ? in[k]->data : none, sizes(in[k]),
                                 at::TensorOptions().dtype(type_of(in[k]->dtype)));
        return put(at::where(t[0], t[1], t[2]), dst);
    } catch (const c10::Error &) {
        return SEL_ERR_SHAPE;
    } catch (const std::bad_alloc &) {
        return SEL_ERR_NOMEM;
    }
}

const sel_impl table = {SEL_ABI_VERSION, "torch_where", supports, infer,
                        execute};

} // namespace

extern "C" SEL_EXPORT const sel_impl *sel_get_impl(void)
{
    return &table;
}
