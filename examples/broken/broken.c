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
 * Shape inference is shared by all of them and follows spec/select.md.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "select.h"

#define BUG_none 100
#define BUG_nan_canon 1
#define BUG_negzero 2
#define BUG_cond_eq1 3
#define BUG_float_unselected 4
#define BUG_blend 5
#define BUG_bidir_cond 6
#define BUG_pdpd_cond_axis 7
#define BUG_zero_one 8
#define BUG_swap_bcast 9
#define BUG_dense 10
#define BUG_tail 11
#define BUG_poison_flip 12
#define BUG_one_alignment 13
#define BUG_flags_reject 14
#define BUG_bool_normalize 15
#define BUG_addr_cache 16
#define BUG_grain_quiet 31
#define BUG_fill_float 32
#define BUG_plan_axis 33
#define BUG_ovf_zero_only 34
#define BUG_split_rem 35
#define BUG_inplace_fill 36
#define BUG_idx32 37
#define BUG_shared_scratch 38
#ifndef BUG
#error "build with -DBUG=<name>, e.g. -DBUG=none"
#endif
#define CAT_(a, b) a##b
#define CAT(a, b) CAT_(a, b)
#if CAT(BUG_, BUG) == 0
#error "unknown BUG name"
#endif
#define IS(name) (CAT(BUG_, BUG) == BUG_##name)

typedef struct shape {
    int32_t rank;
    int64_t d[SEL_MAX_RANK];
} shape;

/* SHAPE-RANK-1, SHAPE-NEG-1, SHAPE-OVF-1 (count and bytes, no overflow). */
static int fits(const shape *s, size_t es)
{
    uint64_t n = 1;
    int32_t i;
    for (i = 0; i < s->rank; i++)
        if (s->d[i] == 0)
            return 1;
#if IS(ovf_zero_only) /* BUG(ovf_zero_only): only a wrapped 0 is seen */
    for (i = 0; i < s->rank; i++)
        n *= (uint64_t)s->d[i];
    return n * es != 0;
#endif
    for (i = 0; i < s->rank; i++) {
        if ((uint64_t)s->d[i] > (uint64_t)INT64_MAX / n)
            return 0;
        n *= (uint64_t)s->d[i];
    }
    return n <= SIZE_MAX / es;
}

static int read_shape(const sel_tensor *t, shape *s)
{
    int32_t i;
    if (t->rank < 0 || t->rank > SEL_MAX_RANK)
        return SEL_ERR_SHAPE;
    s->rank = t->rank;
    for (i = 0; i < t->rank; i++)
        if ((s->d[i] = t->dims[i]) < 0)
            return SEL_ERR_SHAPE;
    return fits(s, sel_dtype_size(t->dtype)) ? SEL_OK : SEL_ERR_SHAPE;
}

static int same(const shape *a, const shape *b)
{
    return a->rank == b->rank &&
           !memcmp(a->d, b->d, (size_t)a->rank * sizeof a->d[0]);
}

/* Merge b into a at axis `first` (numpy: right-aligned, both ways unless
 * oneway; pdpd: one way, a 1 in a yields only to 0, a b dim above a's is
 * an error, a b 1 against an a 0 too: BC-PDPD-1). */
static int merge(shape *a, const shape *b, int32_t first, int oneway)
{
    shape o;
    int32_t i, off;
    if (oneway && (b->rank > a->rank || first < 0 || first > a->rank - b->rank))
        return SEL_ERR_SHAPE;
    o.rank = a->rank > b->rank ? a->rank : b->rank;
    off = oneway ? first : o.rank - b->rank;
    for (i = 0; i < o.rank; i++) {
        int64_t x = i - (o.rank - a->rank) >= 0 ? a->d[i - (o.rank - a->rank)] : 1;
        int64_t y = i >= off && i < off + b->rank ? b->d[i - off] : 1;
        if (oneway && i >= off && i < off + b->rank && y > x)
            return SEL_ERR_SHAPE;
        if (x == y || y == 1)
            o.d[i] = x;
        else if (x == 1 && (!oneway || y == 0))
            o.d[i] = y;
        else
            return SEL_ERR_SHAPE;
    }
    *a = o;
    return SEL_OK;
}

/* Everything infer and execute check before touching data, in the order
 * of ERR-ORDER-1.  first[k]: output axis of input k's axis 0. */
static int check(const sel_tensor *t[3], sel_broadcast b, const sel_tensor *dst,
                 shape in[3], shape *out, int32_t first[3])
{
    int k, st, bidir;
    int32_t ax;
    for (k = 0; k < 3; k++)
        if (!t[k] || (t[k]->rank > 0 && !t[k]->dims))
            return SEL_ERR_ARG;
    if (dst && dst->rank > 0 && !dst->dims)
        return SEL_ERR_ARG;
    if (b.type < SEL_BROADCAST_NONE || b.type > SEL_BROADCAST_PDPD ||
        (b.type == SEL_BROADCAST_PDPD && b.axis < -1))
        return SEL_ERR_ATTR;
    if (IS(flags_reject) && (b.flags & ~SEL_COND_BIDIRECTIONAL)) /* BUG(flags_reject) */
        return SEL_ERR_ATTR;
    for (k = 0; k < 3; k++)
        if (!sel_dtype_size(t[k]->dtype))
            return SEL_ERR_DTYPE;
    if (t[0]->dtype != SEL_DT_BOOLEAN || t[1]->dtype != t[2]->dtype ||
        (dst && dst->dtype != t[1]->dtype))
        return SEL_ERR_DTYPE;
    for (k = 0; k < 3; k++)
        if ((st = read_shape(t[k], &in[k])))
            return st;
    *out = in[1];
    bidir = (b.flags & SEL_COND_BIDIRECTIONAL) || IS(bidir_cond); /* BUG(bidir_cond) */
    if (b.type == SEL_BROADCAST_NONE) {
        if (!same(&in[0], &in[1]) || !same(&in[1], &in[2]))
            return SEL_ERR_SHAPE;
    } else if (b.type == SEL_BROADCAST_PDPD) {
        first[1] = 0;
        for (k = 2; k >= 0; k -= 2) {
            ax = b.axis == -1 ? out->rank - in[k].rank : b.axis;
            if ((st = merge(out, &in[k], ax, 1)))
                return st;
            first[k] = ax;
        }
    } else if ((st = merge(out, &in[2], 0, 0))) {
        return st;
    } else if (bidir) {
        if ((st = merge(out, &in[0], 0, 0)))
            return st;
    } else {
        shape r = *out;
        if (in[0].rank > r.rank || merge(&r, &in[0], 0, 0) || !same(&r, out))
            return SEL_ERR_SHAPE;
    }
    if (!fits(out, sel_dtype_size(t[1]->dtype)))
        return SEL_ERR_SHAPE;
    if (b.type != SEL_BROADCAST_PDPD)
        for (k = 0; k < 3; k++)
            first[k] = out->rank - in[k].rank;
    if (dst) {
        shape d;
        if ((st = read_shape(dst, &d)))
            return st;
        if (!same(&d, out))
            return SEL_ERR_SHAPE;
    }
    return SEL_OK;
}

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
    if ((st = check(t, b, NULL, in, &out, first)))
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

static int64_t count(const shape *s)
{
    int64_t n = 1;
    int32_t i;
    for (i = 0; i < s->rank; i++)
        n *= s->d[i];
    return n;
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
    if ((s = check(t, b, dst, in, &out, first)))
        return s;
    es = sel_dtype_size(x->dtype);
    total = count(&out);
    nb = (size_t)total * es;
    for (k = 0; k < 3; k++)
        if (!t[k]->data && count(&in[k]))
            return SEL_ERR_ARG;
    if (!dst->data && total)
        return SEL_ERR_ARG;
    for (k = 0; k < 3; k++) { /* IO-ALIAS-1/2 */
        size_t ib = (size_t)count(&in[k]) * (k ? es : 1);
        if (overlap(dst->data, nb, t[k]->data, ib) &&
            !(k && dst->data == t[k]->data && same(&in[k], &out)))
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
        if (kty == b.type && kes == es && same(&ks[0], &in[0]) &&
            same(&ks[1], &in[1]) && same(&ks[2], &in[2]))
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
    if (es >= 2 && same(&in[0], &out) && same(&in[1], &out) &&
        same(&in[2], &out))
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
    if (!same(&in[1], &out) || !same(&in[2], &out)) {
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
    total = count(&it);
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
        if (x->dtype == SEL_DT_F32 && count(&in[sel ? 1 : 2]) == 1 &&
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
