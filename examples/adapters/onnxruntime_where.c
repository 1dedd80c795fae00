/* onnxruntime_where.c - the ONNX Where operator run by ONNX Runtime's CPU
 * execution provider (libonnxruntime.so.1 from the onnxruntime-node npm
 * package), through its C API: one session per dtype triple, inputs as
 * OrtValues over the caller's buffers; the result is copied into dst.
 */
#include <pthread.h>
#include <stdlib.h>

#include "adapt.h"
#include "ort.h"

/* Scratch inputs infer may allocate to let ORT say the output shape. */
#define INFER_LIMIT ((int64_t)64 << 20)
#define NKEYS 64

static const OrtApi *api;
static OrtEnv *env;
static OrtMemoryInfo *cpu;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* Sessions by (cond, x, y) ONNX types, with the status of creating them. */
static struct {
    int key[3], st;
    OrtSession *s;
} cache[NKEYS];
static int ncache;

static int onnx_type(int32_t dtype)
{
    switch (dtype) {
    case SEL_DT_BOOLEAN: return ONNX_BOOL;
    case SEL_DT_F64: return ONNX_DOUBLE;
    case SEL_DT_F32: return ONNX_FLOAT;
    case SEL_DT_F16: return ONNX_FLOAT16;
    case SEL_DT_BF16: return ONNX_BFLOAT16;
    case SEL_DT_F8E4M3: return ONNX_FLOAT8E4M3FN;
    case SEL_DT_F8E5M2: return ONNX_FLOAT8E5M2;
    case SEL_DT_I64: return ONNX_INT64;
    case SEL_DT_I32: return ONNX_INT32;
    case SEL_DT_I16: return ONNX_INT16;
    case SEL_DT_I8: return ONNX_INT8;
    case SEL_DT_U64: return ONNX_UINT64;
    case SEL_DT_U32: return ONNX_UINT32;
    case SEL_DT_U16: return ONNX_UINT16;
    case SEL_DT_U8: return ONNX_UINT8;
    default: return 0;
    }
}

static void start(void)
{
    const OrtApiBase *base = OrtGetApiBase();
    OrtStatus *s;

    if (!base || !(api = base->GetApi(ORT_API_VERSION)))
        return;
    if ((s = api->CreateEnv(ORT_LOGGING_LEVEL_FATAL, "selcheck", &env)) ||
        (s = api->CreateCpuMemoryInfo(OrtDeviceAllocator, OrtMemTypeDefault,
                                      &cpu))) {
        api->ReleaseStatus(s);
        api = NULL;
    }
}

/* A status as ours (and released): fails creating a session are the
 * model's types (no shapes in it); a missing kernel is UNSUPPORTED. */
static int verdict(OrtStatus *s, int otherwise)
{
    int code;

    if (!s)
        return SEL_OK;
    code = api->GetErrorCode(s);
    api->ReleaseStatus(s);
    return code == ORT_NOT_IMPLEMENTED ? SEL_ERR_UNSUPPORTED : otherwise;
}

static int make_session(const int key[3], OrtSession **out)
{
    unsigned char model[512];
    size_t n = ort_where_model(key[0], key[1], key[2], model, sizeof model);
    OrtSessionOptions *o = NULL;
    OrtStatus *s;
    int st;

    if (!n)
        return SEL_ERR_NOMEM;
    if ((s = api->CreateSessionOptions(&o)) ||
        (s = api->SetIntraOpNumThreads(o, 1)) ||
        (s = api->SetSessionLogSeverityLevel(o, ORT_LOGGING_LEVEL_FATAL)))
        st = verdict(s, SEL_ERR_NOMEM);
    else
        st = verdict(api->CreateSessionFromArray(env, model, n, o, out),
                     SEL_ERR_DTYPE);
    api->ReleaseSessionOptions(o);
    return st;
}

/* ORT's verdict on the dtypes, and the session for them. */
static int session(const sel_tensor *in[3], OrtSession **out)
{
    int key[3], i, st = SEL_ERR_NOMEM;

    pthread_once(&once, start);
    if (!api)
        return SEL_ERR_UNSUPPORTED;
    for (i = 0; i < 3; i++)
        if (!(key[i] = onnx_type(in[i]->dtype)))
            return SEL_ERR_DTYPE;
    pthread_mutex_lock(&lock);
    for (i = 0; i < ncache; i++)
        if (!memcmp(cache[i].key, key, sizeof key))
            break;
    if (i == ncache && ncache < NKEYS) {
        memcpy(cache[i].key, key, sizeof key);
        cache[i].st = make_session(key, &cache[i].s);
        ncache++;
    }
    if (i < ncache) {
        st = cache[i].st;
        *out = cache[i].s;
    }
    pthread_mutex_unlock(&lock);
    return st;
}

static int supports(int32_t dtype, int32_t broadcast_type)
{
    sel_tensor c = {SEL_DT_BOOLEAN, 0, NULL, NULL}, t = {dtype, 0, NULL, NULL};
    const sel_tensor *in[3] = {&c, &t, &t};
    OrtSession *s;

    return (broadcast_type == SEL_BROADCAST_NONE ||
            broadcast_type == SEL_BROADCAST_NUMPY) &&
           session(in, &s) == SEL_OK;
}

/* Runs the session on data[k] (the caller's, or scratch); *out is ORT's. */
static int run(OrtSession *s, const sel_tensor *in[3], void *const data[3],
               OrtValue **out)
{
    static const char *names[3] = {"c", "x", "y"}, *oname = "z";
    static char none[16]; /* ORT wants a pointer even for no elements */
    OrtValue *v[3] = {NULL, NULL, NULL};
    OrtStatus *e = NULL;
    int k, st;

    for (k = 0; k < 3 && !e; k++) {
        int64_t n = ad_count(in[k]);
        size_t bytes = n > 0 ? (size_t)n * sel_dtype_size(in[k]->dtype) : 0;
        e = api->CreateTensorWithDataAsOrtValue(
            cpu, data[k] ? data[k] : none, bytes, in[k]->dims,
            (size_t)in[k]->rank, onnx_type(in[k]->dtype), &v[k]);
    }
    if (!e)
        e = api->Run(s, NULL, names, (const OrtValue *const *)v, 3, &oname, 1,
                     out);
    st = verdict(e, SEL_ERR_SHAPE); /* bad dims, or no broadcast */
    for (k = 0; k < 3; k++)
        if (v[k])
            api->ReleaseValue(v[k]);
    return st;
}

/* A stand-in for the inputs' shapes with the same pattern of equal dims,
 * 1s, 0s and negatives, each dim above 1 replaced by its rank among the
 * distinct ones plus 2: ORT's broadcast verdict on it is its verdict on
 * the real shapes, at the cost of a few bytes.  map[] gives them back. */
static void stand_in(const sel_tensor *in[3], sel_tensor small[3],
                     int64_t dims[3][SEL_MAX_RANK], int64_t map[64])
{
    int64_t seen[3 * SEL_MAX_RANK];
    int nseen = 0, k, i, j;

    for (k = 0; k < 3; k++)
        for (i = 0; i < in[k]->rank && i < SEL_MAX_RANK; i++) {
            int64_t d = in[k]->dims[i];
            for (j = 0; j < nseen && seen[j] != d; j++)
                ;
            if (d > 1 && j == nseen)
                seen[nseen++] = d;
        }
    for (k = 0; k < 3; k++) {
        small[k] = *in[k];
        small[k].dims = dims[k];
        for (i = 0; i < in[k]->rank && i < SEL_MAX_RANK; i++) {
            int64_t d = in[k]->dims[i], r = 2;
            for (j = 0; j < nseen; j++)
                r += seen[j] < d;
            dims[k][i] = d > 1 ? r : d;
            if (d > 1)
                map[r] = d;
        }
    }
}

/* ORT's output shape: the model run on zeroed scratch inputs of the
 * stand-in shapes.  Counts and byte sizes that overflow are the
 * adapter's SHAPE-OVF-1 check (the stand-in has none). */
static int shape_of(OrtSession *s, const sel_tensor *in[3], int32_t *rank,
                    int64_t *dims)
{
    void *scratch[3] = {NULL, NULL, NULL};
    OrtTensorTypeAndShapeInfo *info = NULL;
    OrtValue *out = NULL;
    sel_tensor small[3];
    const sel_tensor *sp[3] = {&small[0], &small[1], &small[2]};
    int64_t sdims[3][SEL_MAX_RANK], map[64];
    size_t nd = 0, i;
    int k, st = SEL_OK, type;

    for (k = 0; k < 3; k++)
        if (ad_count(in[k]) >= 0 &&
            !ad_fits(in[k], k ? sel_dtype_size(in[k]->dtype) : 1))
            return SEL_ERR_SHAPE;
    stand_in(in, small, sdims, map);
    for (k = 0; k < 3; k++) {
        int64_t n = ad_count(&small[k]);
        if (n > INFER_LIMIT)
            st = SEL_ERR_UNSUPPORTED;
        else if (n > 0 && !(scratch[k] = calloc((size_t)n, 8)))
            st = SEL_ERR_NOMEM;
    }
    if (!st && !(st = run(s, sp, scratch, &out))) {
        if ((st = verdict(api->GetTensorTypeAndShape(out, &info), SEL_ERR_NOMEM)) ||
            (st = verdict(api->GetTensorElementType(info, &type), SEL_ERR_NOMEM)) ||
            (st = verdict(api->GetDimensionsCount(info, &nd), SEL_ERR_NOMEM)))
            ;
        else if (nd > SEL_MAX_RANK)
            st = SEL_ERR_SHAPE;
        else if (!(st = verdict(api->GetDimensions(info, dims, nd), SEL_ERR_NOMEM))) {
            *rank = (int32_t)nd;
            for (i = 0; i < nd; i++)
                dims[i] = dims[i] > 1 ? map[dims[i]] : dims[i];
        }
    }
    if (info)
        api->ReleaseTensorTypeAndShapeInfo(info);
    if (out)
        api->ReleaseValue(out);
    for (k = 0; k < 3; k++)
        free(scratch[k]);
    if (!st) {
        sel_tensor o = {in[1]->dtype, *rank, dims, NULL};
        if (!ad_fits(&o, sel_dtype_size(in[1]->dtype)))
            st = SEL_ERR_SHAPE;
    }
    return st;
}

/* ERR-ORDER-1: ORT on dtypes (and dst's against the output's), rank,
 * NONE's rule; ORT on shapes comes after. */
static int judge(const sel_tensor *in[3], const sel_tensor *dst,
                 sel_broadcast b, OrtSession **s)
{
    int st;

    if ((st = session(in, s)))
        return st;
    if (dst && dst->dtype != in[1]->dtype)
        return SEL_ERR_DTYPE; /* the model's output has x's type */
    if ((st = ad_rank(in)) || (st = ad_none(in, b)))
        return st;
    return SEL_OK;
}

static int infer(const sel_tensor *cond, const sel_tensor *then_,
                 const sel_tensor *else_, sel_broadcast b, int32_t *rank_out,
                 int64_t *dims_out)
{
    const sel_tensor *in[3] = {cond, then_, else_};
    OrtSession *s;
    int st;

    if (!rank_out || !dims_out)
        return SEL_ERR_ARG;
    if ((st = ad_front(in, NULL, 0, b)))
        return st;
    if ((st = judge(in, NULL, b, &s)))
        return st;
    return shape_of(s, in, rank_out, dims_out);
}

/* ORT's output into dst, if it has dst's shape. */
static int put(OrtValue *out, sel_tensor *dst)
{
    OrtTensorTypeAndShapeInfo *info = NULL;
    int64_t dims[SEL_MAX_RANK];
    size_t nd = 0;
    void *p = NULL;
    int st;

    if (!(st = verdict(api->GetTensorTypeAndShape(out, &info), SEL_ERR_NOMEM)) &&
        !(st = verdict(api->GetDimensionsCount(info, &nd), SEL_ERR_NOMEM))) {
        if (nd > SEL_MAX_RANK)
            st = SEL_ERR_SHAPE;
        else if (!(st = verdict(api->GetDimensions(info, dims, nd),
                                SEL_ERR_NOMEM)))
            st = ad_dst(dst, (int32_t)nd, dims);
    }
    if (!st && ad_count(dst) > 0 &&
        !(st = verdict(api->GetTensorMutableData(out, &p), SEL_ERR_NOMEM)))
        memcpy(dst->data, p, (size_t)ad_count(dst) * sel_dtype_size(dst->dtype));
    if (info)
        api->ReleaseTensorTypeAndShapeInfo(info);
    return st;
}

/* The real run says the shape; only when a data pointer is missing does
 * a scratch run say it first (SHAPE before that ARG, ERR-ORDER-1). */
static int execute(const sel_tensor *cond, const sel_tensor *then_,
                   const sel_tensor *else_, sel_broadcast b, sel_tensor *dst)
{
    const sel_tensor *in[3] = {cond, then_, else_};
    OrtSession *s;
    OrtValue *out = NULL;
    int64_t dims[SEL_MAX_RANK];
    int32_t rank;
    int st;

    if ((st = ad_front(in, dst, 1, b)) || (st = judge(in, dst, b, &s)))
        return st;
    if (ad_data(in, dst)) {
        if ((st = shape_of(s, in, &rank, dims)) ||
            (st = ad_dst(dst, rank, dims)))
            return st;
        return SEL_ERR_ARG;
    }
    {
        void *data[3] = {cond->data, then_->data, else_->data};
        if (!(st = run(s, in, data, &out)))
            st = put(out, dst);
    }
    if (out)
        api->ReleaseValue(out);
    return st;
}

static const sel_impl table = {SEL_ABI_VERSION, "onnxruntime_where", supports,
                               infer, execute};

SEL_EXPORT const sel_impl *sel_get_impl(void)
{
    return &table;
}
