/* opencv_copyto.cpp - OpenCV's masked copyTo behind the selcheck ABI
 * (Debian libopencv-dev): else is copied to dst, then then is copied where
 * the 8-bit mask (cond) is nonzero; a one-channel mask selects whole pixels.
 */
#include <climits>
#include <cstdint>

#include <opencv2/core.hpp>

extern "C" {
#include "adapt.h"
}

namespace {

/* OpenCV's depth for a dtype; -1 where it has none. */
int depth(int32_t dtype)
{
    switch (dtype) {
    case SEL_DT_U8: return CV_8U;
    case SEL_DT_I8: return CV_8S;
    case SEL_DT_U16: return CV_16U;
    case SEL_DT_I16: return CV_16S;
    case SEL_DT_I32: return CV_32S;
    case SEL_DT_F32: return CV_32F;
    case SEL_DT_F64: return CV_64F;
    case SEL_DT_F16: return CV_16F;
    default: return -1;
    }
}

/* Equal once leading 1s are dropped (the same dense buffer). */
bool same(const sel_tensor *t, int32_t rank, const int64_t *dims)
{
    int32_t a = 0, b = 0;

    while (a < t->rank && t->dims[a] == 1)
        a++;
    while (b < rank && dims[b] == 1)
        b++;
    if (t->rank - a != rank - b)
        return false;
    for (; a < t->rank; a++, b++)
        if (t->dims[a] != dims[b])
            return false;
    return true;
}

/* What copyTo can express: then and else have the output's shape; cond
 * too (a mask per element) or with 1 for the last axis (a mask per pixel
 * of `channels` = that axis).  Anything else is SEL_ERR_UNSUPPORTED. */
int expressible(const sel_tensor *in[3], int32_t rank, const int64_t *dims,
                int *channels)
{
    if (!same(in[1], rank, dims) || !same(in[2], rank, dims))
        return SEL_ERR_UNSUPPORTED;
    *channels = 1;
    if (!same(in[0], rank, dims)) {
        sel_tensor c = *in[0];
        int64_t cd[SEL_MAX_RANK];
        if (rank == 0 || c.rank == 0 || c.dims[c.rank - 1] != 1 ||
            dims[rank - 1] > CV_CN_MAX)
            return SEL_ERR_UNSUPPORTED;
        memcpy(cd, dims, sizeof cd);
        cd[rank - 1] = 1;
        if (!same(&c, rank, cd))
            return SEL_ERR_UNSUPPORTED;
        *channels = (int)dims[rank - 1];
    }
    return SEL_OK;
}

int supports(int32_t dtype, int32_t broadcast_type)
{
    return depth(dtype) >= 0 && (broadcast_type == SEL_BROADCAST_NONE ||
                                 broadcast_type == SEL_BROADCAST_NUMPY);
}

/* OpenCV has no shape inference: the adapter's numpy rule, then what
 * copyTo can express. */
int shape(const sel_tensor *in[3], const sel_tensor *dst, sel_broadcast b,
          int32_t *rank, int64_t *dims, int *channels)
{
    int st;

    if ((st = ad_typed(in, dst)) || (st = ad_rank(in)) ||
        (st = ad_none(in, b)) ||
        (st = ad_numpy_shape(in, b.flags, rank, dims)))
        return st;
    if (depth(in[1]->dtype) < 0)
        return SEL_ERR_UNSUPPORTED;
    return expressible(in, *rank, dims, channels);
}

int infer(const sel_tensor *cond, const sel_tensor *then_,
          const sel_tensor *else_, sel_broadcast b, int32_t *rank_out,
          int64_t *dims_out)
{
    const sel_tensor *in[3] = {cond, then_, else_};
    int st, ch;

    if (!rank_out || !dims_out)
        return SEL_ERR_ARG;
    if ((st = ad_front(in, NULL, 0, b)))
        return st;
    return shape(in, NULL, b, rank_out, dims_out, &ch);
}

/* dst = else, then then where the mask is nonzero; in place, only the
 * elements that change are copied, so the input dst shares is read first. */
int select(const sel_tensor *in[3], sel_tensor *dst, int64_t count, int ch)
{
    int64_t pixels = count / ch;
    if (pixels > INT_MAX)
        return SEL_ERR_UNSUPPORTED;
    int n = (int)pixels, type = CV_MAKETYPE(depth(in[1]->dtype), ch);
    cv::Mat mask(1, n, CV_8U, in[0]->data);
    cv::Mat t(1, n, type, in[1]->data), e(1, n, type, in[2]->data);
    cv::Mat d(1, n, type, dst->data);
    try {
        if (dst->data == in[1]->data) {
            cv::Mat off;
            cv::compare(mask, 0, off, cv::CMP_EQ);
            e.copyTo(d, off);
        } else if (dst->data == in[2]->data) {
            t.copyTo(d, mask);
        } else {
            e.copyTo(d);
            t.copyTo(d, mask);
        }
    } catch (const cv::Exception &) {
        return SEL_ERR_SHAPE;
    } catch (const std::bad_alloc &) {
        return SEL_ERR_NOMEM;
    }
    return SEL_OK;
}

int execute(const sel_tensor *cond, const sel_tensor *then_,
            const sel_tensor *else_, sel_broadcast b, sel_tensor *dst)
{
    const sel_tensor *in[3] = {cond, then_, else_};
    int64_t dims[SEL_MAX_RANK], count;
    int32_t rank;
    int st, ch;

    if ((st = ad_front(in, dst, 1, b)) ||
        (st = shape(in, dst, b, &rank, dims, &ch)) ||
        (st = ad_dst(dst, rank, dims)) || (st = ad_data(in, dst)))
        return st;
    if ((count = ad_count(dst)) == 0)
        return SEL_OK; /* IO-ZERO-1: data may be NULL */
    return select(in, dst, count, ch);
}

const sel_impl table = {SEL_ABI_VERSION, "opencv_copyto", supports, infer,
                        execute};

} // namespace

extern "C" SEL_EXPORT const sel_impl *sel_get_impl(void)
{
    return &table;
}
