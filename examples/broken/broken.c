/* broken.c - one compact Select, built once per deliberate bug with
 * -DBUG=<name> (BUG=none is correct).  cases/t/broken.sh requires selcheck
 * to catch every bug; each hook below is marked BUG(<name>).
 *
 * The bugs are ones real implementations have (spec/select.md lists where):
 *   nan_canon         a selected NaN comes out as the canonical quiet NaN
 *   negzero           a selected -0.0 comes out as +0.0
 *   cond_eq1          cond tested as `== 1` (nonzero bytes other than 1
 *                     select else; COND-NZ-1)
 *   float_unselected  the unselected element is read as a float and a NaN
 *                     there propagates (BITS-3; a float reference)
 *   blend             dst = c*x + (1-c)*y in double for f32/f64 (BITS-3)
 *   bidir_cond        cond always broadcast bidirectionally, the flag
 *                     ignored: accepts shapes BC-NUMPY-3 rejects
 *   pdpd_cond_axis    pdpd axis -1: execute aligns cond at the axis computed
 *                     for else (BC-PDPD-5; OpenVINO's reference kernel)
 *   zero_one          execute iterates max(dims) per axis, so 0 against 1
 *                     visits one element of empty tensors (BC-NUMPY-4)
 *   swap_bcast        then and else swapped when one of them is broadcast
 *   dense             broadcast ignored: every input indexed as if dense
 *   tail              the last count % 16 elements of dst are not written
 *   poison_flip       computes nothing: dst[i] = ~dst[i] (passes wherever
 *                     the poison is the complement of the expected bytes)
 *   one_alignment     aligned 16-byte loads of then/else once dst is
 *                     aligned: assumes every tensor shares dst's alignment
 *   flags_reject      flag bits other than SEL_COND_BIDIRECTIONAL are
 *                     SEL_ERR_ATTR (ARG-FLAGS-1 says: ignore them)
 *   bool_normalize    boolean then/else data comes out as 0 or 1
 *   addr_cache        the last 8 results cached by the four data pointers,
 *                     dtype and count, and replayed on a hit (IO-REUSE-1)
 *   grain_quiet       f8e5m2 elements past the first grain of 32 Ki go
 *                     through f16: a signalling NaN comes out quiet
 *                     (IO-LENGTH-1)
 *   fill_float        a one-element f32 then/else splat through double:
 *                     a signalling NaN there comes out quiet (BITS-FILL-1)
 *   plan_axis         placements cached by shapes, width and mode, not by
 *                     the pdpd axis (IO-SEQ-1)
 *   ovf_zero_only     overflow seen only as a product that wraps to 0
 *                     (SHAPE-OVF-1)
 *   split_rem         above 4 MiB, four chunks of count / 4: the last
 *                     count % 4 elements are not written (IO-LENGTH-1)
 *   inplace_fill      dst on then's buffer with else a column: else is
 *                     expanded into dst first, then then (gone) overlaid
 *   idx32             the flat dst index in 32 bits: past 2^31 elements
 *                     it goes negative (caught by make check-cases-huge)
 *   shared_scratch    the result built in one static scratch buffer that
 *                     every call shares, then copied to dst: concurrent
 *                     calls that want different answers swap (IO-THREADS-1)
 * Shape checks and inference are shared by all of them (broken_shape.c)
 * and follow spec/select.md but for the bugs marked there.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "broken.h"

static int supports(int32_t dtype, int32_t btype)
{
    return sel_dtype_size(dtype) && btype >= SEL_BROADCAST_NONE &&
           btype <= SEL_BROADCAST_PDPD;
}

static int infer(const sel_tensor *c, const sel_tensor *x, const sel_tensor *y,
                 sel_broadcast b, int32_t *rank, int64_t *dims)
{
    const sel_tensor *t[3] = {c, x, y};
    shape in[3], out;
    int32_t first[3];
    int st;
    if (!rank || !dims)
        return SEL_ERR_ARG;
    if ((st = bk_check(t, b, NULL, in, &out, first)))
        return st;
    *rank = out.rank;
    memcpy(dims, out.d, (size_t)out.rank * sizeof out.d[0]);
    return SEL_OK;
}

/* Float bit patterns, for the hooks that look at values. */
static int is_float(int32_t dt)
{
    return dt == SEL_DT_F64 || dt == SEL_DT_F32 || dt == SEL_DT_F16 ||
           dt == SEL_DT_BF16 || dt == SEL_DT_F8E4M3 || dt == SEL_DT_F8E5M2;
}

static uint64_t bits(const unsigned char *p, size_t es)
{
    uint64_t v = 0;
    size_t i;
    for (i = 0; i < es; i++) /* little-endian element bytes */
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

/* exponent-all-ones mask (inf) of each float type, sign bit from es */
static uint64_t inf_bits(int32_t dt)
{
    switch (dt) {
    case SEL_DT_F64: return 0x7ff0000000000000u;
    case SEL_DT_F32: return 0x7f800000u;
    case SEL_DT_F16: return 0x7c00u;
    case SEL_DT_BF16: return 0x7f80u;
    case SEL_DT_F8E5M2: return 0x7cu;
    default: return 0x7eu; /* f8e4m3: 0x7f is its only NaN */
    }
}

static int is_nan(int32_t dt, const unsigned char *p, size_t es)
{
    uint64_t sign = (uint64_t)1 << (8 * es - 1);
    return is_float(dt) && (bits(p, es) & ~sign) > inf_bits(dt);
}

static int is_negzero(int32_t dt, const unsigned char *p, size_t es)
{
    return is_float(dt) && bits(p, es) == (uint64_t)1 << (8 * es - 1);
}

/* One dst element from the selected element s (the other one is o). */
static void put(int32_t dt, size_t es, unsigned char *d, const unsigned char *s,
                const unsigned char *o, int c)
{
    memcpy(d, s, es);
    (void)dt, (void)o, (void)c, (void)is_nan, (void)is_negzero;
#if IS(nan_canon) /* BUG(nan_canon) */
    if (is_nan(dt, s, es)) {
        uint64_t q = inf_bits(dt) | (inf_bits(dt) >> 1 & ~inf_bits(dt));
        size_t i;
        for (i = 0; i < es; i++)
            d[i] = (unsigned char)(q >> (8 * i));
    }
#elif IS(negzero) /* BUG(negzero) */
    if (is_negzero(dt, s, es))
        memset(d, 0, es);
#elif IS(float_unselected) /* BUG(float_unselected) */
    if (is_nan(dt, o, es))
        memcpy(d, o, es);
#elif IS(bool_normalize) /* BUG(bool_normalize) */
    if (dt == SEL_DT_BOOLEAN)
        d[0] = s[0] != 0;
#elif IS(blend) /* BUG(blend) */
    if (dt == SEL_DT_F32 || dt == SEL_DT_F64) {
        double x, y, r;
        float f;
        const unsigned char *xp = c ? s : o, *yp = c ? o : s;
        if (dt == SEL_DT_F32) {
            memcpy(&f, xp, 4), x = f;
            memcpy(&f, yp, 4), y = f;
        } else {
            memcpy(&x, xp, 8), memcpy(&y, yp, 8);
        }
        r = c * x + (1 - c) * y;
        if (dt == SEL_DT_F32)
            f = (float)r, memcpy(d, &f, 4);
        else
            memcpy(d, &r, 8);
    }
#endif
}

static int overlap(const void *a, size_t na, const void *b, size_t nb)
{
    uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b;
    return na && nb && pa < pb + nb && pb < pa + na;
}

#if IS(one_alignment)
/* Dense inputs: a scalar head until dst is 16-byte aligned, then a body
 * of aligned vector loads (movdqa) from then and else at the same
 * element, which faults when their alignment differs from dst's. */
typedef unsigned char v16 __attribute__((vector_size(16)));
static int aligned_body(const sel_tensor *t[3], sel_tensor *dst, size_t es,
                        size_t n)
{
    const unsigned char *c = t[0]->data, *x = t[1]->data, *y = t[2]->data;
    unsigned char *d = dst->data;
    size_t i = 0, j, per = 16 / es;

    for (; i < n && ((uintptr_t)(d + i * es) & 15); i++)
        memcpy(d + i * es, c[i] ? x + i * es : y + i * es, es);
    for (; i + per <= n; i += per) {
        v16 m, a = *(const v16 *)(const void *)(x + i * es);
        v16 b = *(const v16 *)(const void *)(y + i * es);
        for (j = 0; j < 16; j++)
            m[j] = c[i + j / es] ? 0xff : 0;
        *(v16 *)(void *)(d + i * es) = (a & m) | (b & ~m);
    }
    for (; i < n; i++)
        memcpy(d + i * es, c[i] ? x + i * es : y + i * es, es);
    return SEL_OK;
}
#endif


#if IS(shared_scratch)
/* BUG(shared_scratch): one scratch for every call, no lock; the pause
 * stands for a kernel long enough that calls overlap. */
static unsigned char scratch[1 << 23];

static void scratch_out(sel_tensor *dst, size_t nb)
{
    struct timespec ts = {0, 2000000};
    nanosleep(&ts, NULL);
    memcpy(dst->data, scratch, nb);
}
#endif

#if IS(addr_cache)
/* BUG(addr_cache): the last 8 results, each keyed by the four data
 * pointers, the dtype and the byte count, replayed when they come again. */
static struct centry {
    const void *key[4];
    int32_t dt;
    size_t n;
    unsigned char *bytes;
} cache[8];
static unsigned cnext;

static int cache_hit(const sel_tensor *t[3], sel_tensor *dst, size_t nb)
{
    unsigned i;
    for (i = 0; i < 8; i++) {
        struct centry *e = &cache[i];
        if (nb && e->bytes && e->key[0] == t[0]->data &&
            e->key[1] == t[1]->data && e->key[2] == t[2]->data &&
            e->key[3] == dst->data && e->dt == t[1]->dtype && e->n == nb) {
            memcpy(dst->data, e->bytes, nb);
            return 1;
        }
    }
    return 0;
}

static void cache_keep(const sel_tensor *t[3], const sel_tensor *dst,
                       size_t nb)
{
    struct centry *e = &cache[cnext++ % 8];
    free(e->bytes);
    e->bytes = nb ? malloc(nb) : NULL;
    if (e->bytes)
        memcpy(e->bytes, dst->data, nb);
    e->key[0] = t[0]->data, e->key[1] = t[1]->data, e->key[2] = t[2]->data;
    e->key[3] = dst->data, e->dt = t[1]->dtype, e->n = nb;
}
#endif

static int execute(const sel_tensor *c, const sel_tensor *x, const sel_tensor *y,
                   sel_broadcast b, sel_tensor *dst)
{
    const sel_tensor *t[3] = {c, x, y};
    const unsigned char *p[3];
    unsigned char *d;
    shape in[3], out, it;
    int32_t first[3], i;
    int64_t st[3][SEL_MAX_RANK], idx[SEL_MAX_RANK], off[3] = {0, 0, 0}, n, total;
    size_t es, nb;
    int k, s, fill_first = 0;

    (void)fill_first;
    if (!dst)
        return SEL_ERR_ARG;
    if ((s = bk_check(t, b, dst, in, &out, first)))
        return s;
    es = sel_dtype_size(x->dtype);
    total = bk_count(&out);
    nb = (size_t)total * es;
    for (k = 0; k < 3; k++)
        if (!t[k]->data && bk_count(&in[k]))
            return SEL_ERR_ARG;
    if (!dst->data && total)
        return SEL_ERR_ARG;
    for (k = 0; k < 3; k++) { /* IO-ALIAS-1/2 */
        size_t ib = (size_t)bk_count(&in[k]) * (k ? es : 1);
        if (overlap(dst->data, nb, t[k]->data, ib) &&
            !(k && dst->data == t[k]->data && bk_same(&in[k], &out)))
            return SEL_ERR_ARG;
    }
#if IS(addr_cache)
    if (cache_hit(t, dst, nb))
        return SEL_OK;
#endif
#if IS(plan_axis) /* BUG(plan_axis) */
    {
        static shape ks[3];
        static size_t kes;
        static int32_t kty = -1, kfirst[3];
        if (kty == b.type && kes == es && bk_same(&ks[0], &in[0]) &&
            bk_same(&ks[1], &in[1]) && bk_same(&ks[2], &in[2]))
            memcpy(first, kfirst, sizeof kfirst);
        memcpy(ks, in, sizeof ks), kes = es, kty = b.type;
        memcpy(kfirst, first, sizeof kfirst);
    }
#endif
#if IS(inplace_fill) /* BUG(inplace_fill) */
    fill_first = dst->data == x->data && out.rank && in[2].rank == out.rank &&
                 in[2].d[out.rank - 1] == 1 && out.d[out.rank - 1] > 1;
#endif
#if IS(poison_flip) /* BUG(poison_flip) */
    for (nb = (size_t)total * es; nb > 0; nb--)
        ((unsigned char *)dst->data)[nb - 1] ^= 0xff;
    return SEL_OK;
#endif
#if IS(one_alignment) /* BUG(one_alignment) */
    if (es >= 2 && bk_same(&in[0], &out) && bk_same(&in[1], &out) &&
        bk_same(&in[2], &out))
        return aligned_body(t, dst, es, (size_t)total);
#endif
#if IS(pdpd_cond_axis) /* BUG(pdpd_cond_axis): cond at else's axis, */
    if (b.type == SEL_BROADCAST_PDPD && b.axis == -1 && /* where it fits */
        first[2] + in[0].rank <= out.rank) {
        for (i = 0; i < in[0].rank; i++)
            if (in[0].d[i] != 1 && in[0].d[i] != out.d[first[2] + i])
                break;
        if (i == in[0].rank)
            first[0] = first[2];
    }
#endif
    /* the iteration shape: the output's, or BUG(zero_one) max(dims) */
    it = out;
#if IS(zero_one)
    for (i = 0; i < out.rank; i++)
        for (k = 0; k < 3; k++)
            if (i >= first[k] && i < first[k] + in[k].rank &&
                in[k].d[i - first[k]] > it.d[i])
                it.d[i] = in[k].d[i - first[k]];
#endif
    for (k = 0; k < 3; k++) { /* strides over the output's axes, 0 = broadcast */
        int64_t step = 1;
        for (i = 0; i < out.rank; i++)
            st[k][i] = 0;
        for (i = in[k].rank - 1; i >= 0; i--) {
            if (in[k].d[i] != 1 && first[k] + i < out.rank)
                st[k][first[k] + i] = step;
            step *= in[k].d[i];
        }
        p[k] = (const unsigned char *)t[k]->data;
    }
#if IS(swap_bcast) /* BUG(swap_bcast) */
    if (!bk_same(&in[1], &out) || !bk_same(&in[2], &out)) {
        const unsigned char *tp = p[1];
        int64_t ts[SEL_MAX_RANK];
        p[1] = p[2], p[2] = tp;
        memcpy(ts, st[1], sizeof ts), memcpy(st[1], st[2], sizeof ts);
        memcpy(st[2], ts, sizeof ts);
    }
#endif
    d = (unsigned char *)dst->data;
#if IS(shared_scratch)
    if (nb && nb <= sizeof scratch)
        d = scratch;
#endif
    total = bk_count(&it);
#if IS(tail) /* BUG(tail) */
    total -= total % 16;
#endif
#if IS(split_rem) /* BUG(split_rem) */
    if (nb >= (size_t)4 << 20)
        total -= total % 4;
#endif
    for (i = 0; i < out.rank; i++)
        idx[i] = 0;
    for (n = 0; n < total; n++) {
        int sel;
#if IS(dense) /* BUG(dense): flat index into every input */
        off[0] = off[1] = off[2] = n;
#endif
#if IS(cond_eq1) /* BUG(cond_eq1) */
        sel = p[0][off[0]] == 1;
#else
        sel = p[0][off[0]] != 0 && !fill_first; /* BUG(inplace_fill) */
#endif
#if IS(idx32) /* BUG(idx32) */
        put(x->dtype, es, d + (int64_t)(int32_t)n * (int64_t)es,
#else
        put(x->dtype, es, d + (size_t)n * es,
#endif
            sel ? p[1] + (size_t)off[1] * es : p[2] + (size_t)off[2] * es,
            sel ? p[2] + (size_t)off[2] * es : p[1] + (size_t)off[1] * es, sel);
#if IS(grain_quiet) /* BUG(grain_quiet): f8e5m2's quiet bit is 0x02 */
        if (x->dtype == SEL_DT_F8E5M2 && n >= 32768 && is_nan(x->dtype, d + n, 1))
            d[n] |= 0x02;
#elif IS(fill_float) /* BUG(fill_float): f32's quiet bit is 0x00400000 */
        if (x->dtype == SEL_DT_F32 && bk_count(&in[sel ? 1 : 2]) == 1 &&
            total > 1 && is_nan(x->dtype, d + (size_t)n * es, es))
            d[(size_t)n * es + 2] |= 0x40;
#endif
        for (i = it.rank - 1; i >= 0; i--) { /* next index, row-major */
            for (k = 0; k < 3; k++)
                off[k] += st[k][i];
            if (++idx[i] < it.d[i])
                break;
            for (k = 0; k < 3; k++)
                off[k] -= st[k][i] * idx[i];
            idx[i] = 0;
        }
    }
#if IS(shared_scratch)
    if (d == scratch)
        scratch_out(dst, nb);
#endif
#if IS(addr_cache)
    cache_keep(t, dst, nb);
#endif
    return SEL_OK;
}

#define STR_(s) #s
#define STR(s) STR_(s)

static const sel_impl table = {
    SEL_ABI_VERSION, "broken-" STR(BUG), supports, infer, execute,
};

SEL_EXPORT const sel_impl *sel_get_impl(void)
{
    return &table;
}
