/* numpy_where.c - numpy.where behind the selcheck ABI, through embedded
 * CPython (Debian python3-dev, python3-numpy).  Inputs are read-only
 * zero-copy views over the caller's buffers; numpy picks, the adapter
 * copies the result's bytes into dst.  Built as adapters/numpy_where.so.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include <dlfcn.h>
#include <pthread.h>

#include "adapt.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int ready; /* 1 once CPython and numpy are up */

/* numpy's type for a sel dtype; -1 where numpy has none (bf16, f8). */
static int np_type(int32_t dtype)
{
    switch (dtype) {
    case SEL_DT_BOOLEAN: return NPY_BOOL;
    case SEL_DT_F64: return NPY_FLOAT64;
    case SEL_DT_F32: return NPY_FLOAT32;
    case SEL_DT_F16: return NPY_FLOAT16;
    case SEL_DT_I64: return NPY_INT64;
    case SEL_DT_I32: return NPY_INT32;
    case SEL_DT_I16: return NPY_INT16;
    case SEL_DT_I8: return NPY_INT8;
    case SEL_DT_U64: return NPY_UINT64;
    case SEL_DT_U32: return NPY_UINT32;
    case SEL_DT_U16: return NPY_UINT16;
    case SEL_DT_U8: return NPY_UINT8;
    default: return -1;
    }
}

/* numpy's extension modules take CPython's symbols from the global scope,
 * which a library dlopen'ed RTLD_LOCAL does not give them: promote the
 * libpython this library links.  An isolated config ignores PYTHON*
 * variables of the environment. */
static void start(void)
{
    PyConfig config;
    Dl_info info;

    if (dladdr((void *)Py_InitializeFromConfig, &info) && info.dli_fname)
        dlopen(info.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
    PyConfig_InitIsolatedConfig(&config);
    config.install_signal_handlers = 0;
    if (PyStatus_Exception(Py_InitializeFromConfig(&config))) {
        PyConfig_Clear(&config);
        return;
    }
    PyConfig_Clear(&config);
    if (_import_array() < 0) {
        PyErr_Print();
        PyEval_SaveThread();
        return;
    }
    ready = 1;
    PyEval_SaveThread(); /* every call takes the GIL for itself */
}

static int up(void)
{
    pthread_once(&once, start);
    return ready;
}

/* The pending Python exception as a status (and cleared). */
static int py_status(void)
{
    int st = SEL_ERR_SHAPE;

    if (PyErr_ExceptionMatches(PyExc_MemoryError))
        st = SEL_ERR_NOMEM;
    else if (PyErr_ExceptionMatches(PyExc_TypeError))
        st = SEL_ERR_DTYPE;
    PyErr_Clear();
    return st;
}

/* A read-only view of t; with `probe`, every stride is 0 over one static
 * element, so shapes of any size cost nothing (as np.broadcast_to). */
static PyObject *view(const sel_tensor *t, int probe)
{
    static char one[16];
    npy_intp dims[SEL_MAX_RANK], zero[SEL_MAX_RANK];
    PyArray_Descr *d = PyArray_DescrFromType(np_type(t->dtype));
    int32_t i;

    for (i = 0; i < t->rank; i++) {
        dims[i] = (npy_intp)t->dims[i];
        zero[i] = 0;
    }
    return PyArray_NewFromDescr(&PyArray_Type, d, t->rank, dims,
                                probe ? zero : NULL,
                                probe ? one : t->data, 0, NULL);
}

/* numpy's verdict on the dtypes: np.where on rank-0 arrays of them;
 * *type is the result's numpy type. */
static int dtype_probe(const sel_tensor *in[3], int *type)
{
    PyObject *a[3] = {NULL, NULL, NULL}, *r = NULL;
    sel_tensor s[3];
    int k, st = SEL_OK;

    for (k = 0; k < 3; k++)
        if (np_type(in[k]->dtype) < 0)
            return SEL_ERR_DTYPE;
    for (k = 0; k < 3 && st == SEL_OK; k++) {
        s[k] = *in[k];
        s[k].rank = 0;
        if (!(a[k] = view(&s[k], 1)))
            st = py_status();
    }
    if (st == SEL_OK && !(r = PyArray_Where(a[0], a[1], a[2])))
        st = SEL_ERR_DTYPE, PyErr_Clear();
    if (st == SEL_OK)
        *type = PyArray_Check(r) ? PyArray_TYPE((PyArrayObject *)r) : -1;
    Py_XDECREF(r);
    for (k = 0; k < 3; k++)
        Py_XDECREF(a[k]);
    return st;
}

/* Views of the three inputs (probes or over the data). */
static int views(const sel_tensor *in[3], int probe, PyObject *a[3])
{
    int k;

    for (k = 0; k < 3; k++)
        if (!(a[k] = view(in[k], probe)))
            return py_status();
    return SEL_OK;
}

static void drop(PyObject *a[3])
{
    int k;

    for (k = 0; k < 3; k++)
        Py_XDECREF(a[k]);
}

static int supports(int32_t dtype, int32_t broadcast_type)
{
    return np_type(dtype) >= 0 && (broadcast_type == SEL_BROADCAST_NONE ||
                                   broadcast_type == SEL_BROADCAST_NUMPY);
}

/* ARG and ATTR first, then CPython once. */
static int front(const sel_tensor *in[3], const sel_tensor *dst,
                 int with_dst, sel_broadcast b)
{
    int st;

    if ((st = ad_front(in, dst, with_dst, b)))
        return st;
    return up() ? SEL_OK : SEL_ERR_UNSUPPORTED;
}

/* numpy's verdicts in ERR-ORDER-1's order: dtypes (and, for execute,
 * dst's against the result's), rank, NONE's rule, np.broadcast's shape. */
static int judge(const sel_tensor *in[3], const sel_tensor *dst,
                 sel_broadcast b, int32_t *rank, int64_t *dims)
{
    PyObject *a[3] = {NULL, NULL, NULL}, *it = NULL;
    int st, i, type;

    if ((st = dtype_probe(in, &type)))
        return st;
    if (dst && type != np_type(dst->dtype))
        return SEL_ERR_DTYPE; /* numpy promoted: no byte copy possible */
    if ((st = ad_rank(in)) || (st = ad_none(in, b)))
        return st;
    if (!(st = views(in, 1, a))) {
        if (!(it = PyArray_MultiIterNew(3, a[0], a[1], a[2]))) {
            st = py_status();
        } else {
            PyArrayMultiIterObject *m = (PyArrayMultiIterObject *)it;
            *rank = m->nd;
            for (i = 0; i < m->nd; i++)
                dims[i] = (int64_t)m->dimensions[i];
        }
    }
    Py_XDECREF(it);
    drop(a);
    return st;
}

static int infer(const sel_tensor *cond, const sel_tensor *then_,
                 const sel_tensor *else_, sel_broadcast b, int32_t *rank_out,
                 int64_t *dims_out)
{
    const sel_tensor *in[3] = {cond, then_, else_};
    PyGILState_STATE g;
    int st;

    if (!rank_out || !dims_out)
        return SEL_ERR_ARG;
    if ((st = front(in, NULL, 0, b)))
        return st;
    g = PyGILState_Ensure();
    st = judge(in, NULL, b, rank_out, dims_out);
    PyGILState_Release(g);
    return st;
}

/* np.where's result into dst, if it is dst's dtype and shape. */
static int put(PyObject *r, sel_tensor *dst)
{
    PyArrayObject *ra;
    int32_t i;

    if (!PyArray_Check(r))
        return SEL_ERR_DTYPE;
    ra = (PyArrayObject *)r;
    if (PyArray_TYPE(ra) != np_type(dst->dtype))
        return SEL_ERR_DTYPE;
    if (PyArray_NDIM(ra) != dst->rank)
        return SEL_ERR_SHAPE;
    for (i = 0; i < dst->rank; i++)
        if (PyArray_DIM(ra, i) != dst->dims[i])
            return SEL_ERR_SHAPE;
    if (!PyArray_IS_C_CONTIGUOUS(ra))
        return SEL_ERR_UNSUPPORTED;
    if (PyArray_NBYTES(ra))
        memcpy(dst->data, PyArray_DATA(ra), (size_t)PyArray_NBYTES(ra));
    return SEL_OK;
}

static int execute(const sel_tensor *cond, const sel_tensor *then_,
                   const sel_tensor *else_, sel_broadcast b, sel_tensor *dst)
{
    const sel_tensor *in[3] = {cond, then_, else_};
    PyObject *a[3] = {NULL, NULL, NULL}, *r = NULL;
    PyGILState_STATE g;
    int64_t dims[NPY_MAXDIMS];
    int32_t rank;
    int st;

    if ((st = front(in, dst, 1, b)))
        return st;
    g = PyGILState_Ensure();
    if (!(st = judge(in, dst, b, &rank, dims)) &&
        !(st = ad_dst(dst, rank, dims)) && !(st = ad_data(in, dst)) &&
        !(st = views(in, 0, a))) {
        if (!(r = PyArray_Where(a[0], a[1], a[2])))
            st = py_status();
        else
            st = put(r, dst);
    }
    Py_XDECREF(r);
    drop(a);
    PyGILState_Release(g);
    return st;
}

static const sel_impl table = {SEL_ABI_VERSION, "numpy_where", supports,
                               infer, execute};

SEL_EXPORT const sel_impl *sel_get_impl(void)
{
    return &table;
}
