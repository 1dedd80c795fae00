/* ort.h - the part of ONNX Runtime's C API the onnxruntime_where adapter
 * uses, declared here because the npm package ships no header; and the
 * one-node Where model it builds (ort_model.c).
 *
 * The slots are those of `struct OrtApi` in onnxruntime_c_api.h
 * (include/onnxruntime/core/session/), ORT_API_VERSION 20, onnxruntime
 * 1.20.1, the library the build fetches.  OrtApi only ever grows at its
 * end, so each slot's index is fixed since the version that added it
 * (all of these since version 1); the gaps stand for the slots not used.
 */
#ifndef ORT_H
#define ORT_H

#include <stddef.h>
#include <stdint.h>

#define ORT_API_VERSION 20

typedef struct OrtStatus OrtStatus;
typedef struct OrtEnv OrtEnv;
typedef struct OrtSession OrtSession;
typedef struct OrtSessionOptions OrtSessionOptions;
typedef struct OrtValue OrtValue;
typedef struct OrtMemoryInfo OrtMemoryInfo;
typedef struct OrtTensorTypeAndShapeInfo OrtTensorTypeAndShapeInfo;

/* OrtErrorCode values the adapter tells apart. */
enum { ORT_OK = 0, ORT_NOT_IMPLEMENTED = 9 };
/* OrtLoggingLevel, OrtAllocatorType, OrtMemType values used. */
enum { ORT_LOGGING_LEVEL_FATAL = 4, OrtDeviceAllocator = 0,
       OrtMemTypeDefault = 0 };

typedef struct OrtApi {
    void *gap0[1];                                          /* 0 */
    int (*GetErrorCode)(const OrtStatus *);                 /* 1 */
    const char *(*GetErrorMessage)(const OrtStatus *);      /* 2 */
    OrtStatus *(*CreateEnv)(int level, const char *logid, OrtEnv **out); /* 3 */
    void *gap4[4];                                          /* 4..7 */
    OrtStatus *(*CreateSessionFromArray)(const OrtEnv *, const void *data,
                                         size_t len, const OrtSessionOptions *,
                                         OrtSession **out); /* 8 */
    OrtStatus *(*Run)(OrtSession *, const void *run_options,
                      const char *const *input_names,
                      const OrtValue *const *inputs, size_t ninputs,
                      const char *const *output_names, size_t noutputs,
                      OrtValue **outputs);                  /* 9 */
    OrtStatus *(*CreateSessionOptions)(OrtSessionOptions **out); /* 10 */
    void *gap11[11];                                        /* 11..21 */
    OrtStatus *(*SetSessionLogSeverityLevel)(OrtSessionOptions *, int); /* 22 */
    void *gap23[1];                                         /* 23 */
    OrtStatus *(*SetIntraOpNumThreads)(OrtSessionOptions *, int); /* 24 */
    void *gap25[24];                                        /* 25..48 */
    OrtStatus *(*CreateTensorWithDataAsOrtValue)(
        const OrtMemoryInfo *, void *data, size_t len, const int64_t *shape,
        size_t rank, int type, OrtValue **out);             /* 49 */
    void *gap50[1];                                         /* 50 */
    OrtStatus *(*GetTensorMutableData)(OrtValue *, void **out); /* 51 */
    void *gap52[8];                                         /* 52..59 */
    OrtStatus *(*GetTensorElementType)(const OrtTensorTypeAndShapeInfo *,
                                       int *out);           /* 60 */
    OrtStatus *(*GetDimensionsCount)(const OrtTensorTypeAndShapeInfo *,
                                     size_t *out);          /* 61 */
    OrtStatus *(*GetDimensions)(const OrtTensorTypeAndShapeInfo *,
                                int64_t *dims, size_t n);   /* 62 */
    void *gap63[2];                                         /* 63..64 */
    OrtStatus *(*GetTensorTypeAndShape)(const OrtValue *,
                                        OrtTensorTypeAndShapeInfo **out); /* 65 */
    void *gap66[3];                                         /* 66..68 */
    OrtStatus *(*CreateCpuMemoryInfo)(int alloc_type, int mem_type,
                                      OrtMemoryInfo **out); /* 69 */
    void *gap70[22];                                        /* 70..91 */
    void (*ReleaseEnv)(OrtEnv *);                           /* 92 */
    void (*ReleaseStatus)(OrtStatus *);                     /* 93 */
    void (*ReleaseMemoryInfo)(OrtMemoryInfo *);             /* 94 */
    void (*ReleaseSession)(OrtSession *);                   /* 95 */
    void (*ReleaseValue)(OrtValue *);                       /* 96 */
    void *gap97[2];                                         /* 97..98 */
    void (*ReleaseTensorTypeAndShapeInfo)(OrtTensorTypeAndShapeInfo *); /* 99 */
    void (*ReleaseSessionOptions)(OrtSessionOptions *);     /* 100 */
} OrtApi;

typedef struct OrtApiBase {
    const OrtApi *(*GetApi)(uint32_t version);
    const char *(*GetVersionString)(void);
} OrtApiBase;

const OrtApiBase *OrtGetApiBase(void);

/* ONNX TensorProto.DataType values (onnx/onnx.proto). */
enum {
    ONNX_FLOAT = 1, ONNX_UINT8 = 2, ONNX_INT8 = 3, ONNX_UINT16 = 4,
    ONNX_INT16 = 5, ONNX_INT32 = 6, ONNX_INT64 = 7, ONNX_BOOL = 9,
    ONNX_FLOAT16 = 10, ONNX_DOUBLE = 11, ONNX_UINT32 = 12, ONNX_UINT64 = 13,
    ONNX_BFLOAT16 = 16, ONNX_FLOAT8E4M3FN = 17, ONNX_FLOAT8E5M2 = 19
};

/* The serialized ModelProto of one Where node (opset 16) with inputs
 * c, x, y of the given element types and no shapes, output z of x's
 * type; into buf (cap bytes).  Returns its length, 0 if cap is short. */
size_t ort_where_model(int ctype, int xtype, int ytype, unsigned char *buf,
                       size_t cap);

#endif
