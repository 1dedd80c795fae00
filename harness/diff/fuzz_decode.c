/* fuzz_decode.c - turns fuzz input bytes into one Select call (the layout
 * is fuzz_format.h) and prints a decoded case; shared by the libFuzzer
 * target and the reproducer, both built from harness/diff/fuzz_select.c.
 */
#include <stdlib.h>
#include <string.h>

#include "opt.h"
#include "fuzz_case.h"

enum { C, T, E, D, NT = H_FZ_NT }; /* cond, then, else, dst */

typedef h_fz fz;

/* ---- decoding ---------------------------------------------------------- */

typedef struct rd {
    const uint8_t *p;
    size_t n, i;
} rd;

static unsigned next(rd *r)
{
    return r->i < r->n ? r->p[r->i++] : 0;
}

uint64_t h_fz_mix(uint64_t *s) /* splitmix64 */
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static void dtype_fault(fz *c, unsigned b)
{
    static const int32_t bad[] = H_FZ_BAD_DTYPE;
    static const int target[3] = {C, E, D};
    unsigned k;
    int32_t v;

    if (b < 224)
        return;
    k = b - 224;
    v = bad[k / 3];
    if (v == H_FZ_DT_OTHER)
        v = target[k % 3] == C ? (c->dtype[T] == SEL_DT_BOOLEAN ? SEL_DT_U8
                                                                : c->dtype[T])
                               : c->dtype[T] % SEL_DT_LAST + 1;
    c->dtype[target[k % 3]] = v;
}

static int64_t decode_dim(unsigned b, int64_t base)
{
    static const int64_t tail[] = H_FZ_TAIL_SIZES, neg[] = H_FZ_NEG_DIMS,
                         huge[] = H_FZ_HUGE_DIMS;
    return b < H_FZ_DIM_ONE     ? base
           : b < H_FZ_DIM_ZERO  ? 1
           : b < H_FZ_DIM_SMALL ? 0
           : b < H_FZ_DIM_TAIL  ? (int64_t)((b - H_FZ_DIM_SMALL) % 8)
           : b < H_FZ_DIM_NEG   ? tail[b - H_FZ_DIM_TAIL]
           : b < H_FZ_DIM_HUGE  ? neg[b - H_FZ_DIM_NEG]
                                : huge[b - H_FZ_DIM_HUGE];
}

static void decode_tensor(fz *c, rd *r, int k)
{
    static const int32_t bad_rank[] = H_FZ_BAD_RANK;
    const unsigned rb = next(r), pb = next(r);
    int32_t rank, start, i;
    int n;

    rank = rb < H_FZ_RANK_ABS   ? c->base_rank
           : rb < H_FZ_RANK_BAD ? (int32_t)((rb - H_FZ_RANK_ABS) % 10)
                                : bad_rank[(rb - H_FZ_RANK_BAD) % 8];
    n = rank < 0 ? 0 : rank > H_FZ_MAXDIMS ? H_FZ_MAXDIMS : rank;
    start = pb < H_FZ_PLACE_LEFT   ? c->base_rank - n
            : pb < H_FZ_PLACE_AXIS ? 0
            : c->b.axis >= 0       ? c->b.axis
                                   : (int32_t)((pb - H_FZ_PLACE_AXIS) % 9);
    c->rank[k] = rank;
    c->ndims[k] = n;
    c->dims[k] = malloc((size_t)n * sizeof(int64_t));
    for (i = 0; i < n; i++) {
        const int32_t j = start + i;
        c->dims[k][i] = decode_dim(next(r), j >= 0 && j < c->base_rank
                                                ? c->base[j] : 1);
    }
}

void h_fz_decode(fz *c, const uint8_t *data, size_t size)
{
    static const int32_t bad_btype[] = H_FZ_BAD_BTYPE, dts[] = H_FZ_DTYPES;
    static const int64_t small[] = H_FZ_SMALL_DIMS, tail[] = H_FZ_TAIL_SIZES,
                         large[] = H_FZ_LARGE_DIMS;
    unsigned h[H_FZ_NHEAD];
    rd r = {data, size, 0};
    size_t i;
    int k;

    memset(c, 0, sizeof *c);
    for (k = 0; k < H_FZ_NHEAD; k++)
        h[k] = next(&r);
    c->b.type = h[H_FZ_BTYPE] < 246 ? (int32_t)(h[H_FZ_BTYPE] % 3)
                                    : bad_btype[h[H_FZ_BTYPE] - 246];
    c->b.axis = h[H_FZ_AXIS] < 128 ? -1 : (int32_t)((h[H_FZ_AXIS] - 128) % 13) - 3;
    c->b.flags = (h[H_FZ_FLAGS] & 1u) | (h[H_FZ_FLAGS] >> 1) << 25;
    c->dtype[T] = dts[h[H_FZ_DTYPE] % 15];
    c->dtype[C] = SEL_DT_BOOLEAN;
    c->dtype[E] = c->dtype[D] = c->dtype[T];
    dtype_fault(c, h[H_FZ_DTFAULT1]);
    dtype_fault(c, h[H_FZ_DTFAULT2]);
    c->nul = h[H_FZ_NULL] < H_FZ_NULL_NONE
                 ? H_FZ_N_COUNT : (h[H_FZ_NULL] - H_FZ_NULL_NONE) % H_FZ_N_COUNT;
    c->alias = h[H_FZ_ALIAS] < H_FZ_ALIAS_NONE
                   ? H_FZ_A_COUNT : (h[H_FZ_ALIAS] - H_FZ_ALIAS_NONE) % H_FZ_A_COUNT;
    c->bits = h[H_FZ_OFFS_LO] | h[H_FZ_OFFS_HI] << 8;
    for (k = 0; k < NT; k++)
        c->offs[k] = (c->bits >> (3 * k)) & 7u;
    c->cond_mode = h[H_FZ_COND];
    c->cfg = h[H_FZ_CONFIG];
    c->dst_mode = h[H_FZ_DST];
    c->base_rank = (int32_t)(h[H_FZ_RANK] % 9);
    for (k = 0; k < c->base_rank; k++) {
        const unsigned b = next(&r);
        c->base[k] = b < H_FZ_BASE_TAIL    ? small[b % 6]
                     : b < H_FZ_BASE_LARGE ? tail[(b - H_FZ_BASE_TAIL) % 16]
                                           : large[(b - H_FZ_BASE_LARGE) % 8];
    }
    for (k = C; k <= E; k++)
        decode_tensor(c, &r, k);
    c->tail = size ? data + r.i : data; /* no arithmetic on a NULL */
    c->ntail = size - r.i;
    c->seed = 0xcbf29ce484222325u; /* FNV-1a of the whole input */
    for (i = 0; i < size; i++)
        c->seed = (c->seed ^ data[i]) * 0x100000001b3u;
}

/* ---- describing a case -------------------------------------------------- */

static void put_shape(FILE *f, int32_t rank, const int64_t *dims, int n)
{
    int i;
    if (rank == 0)
        fputs(dims ? "_" : "_(dims NULL)", f);
    else if (!dims)
        fprintf(f, "rank%d(dims NULL)", (int)rank);
    else {
        const int odd = rank < 0 || rank > SEL_MAX_RANK;
        if (odd) /* rank<r>{the dims decoded for it} */
            fprintf(f, "rank%d{", (int)rank);
        for (i = 0; i < n; i++)
            fprintf(f, "%s%lld", i ? "x" : "", (long long)dims[i]);
        if (odd)
            fputc('}', f);
    }
}

void h_fz_describe(FILE *f, const fz *c)
{
    static const char *const nul[] = {
        "cond", "then", "else", "dst", "rank_out", "dims_out", "cond.dims",
        "then.dims", "else.dims", "dst.dims", "cond.data", "then.data",
        "else.data", "dst.data", "all.data", "-"};
    static const char *const alias[] = {
        "dst=then", "dst=else", "then=else=dst", "dst=then+1", "dst=then-1",
        "dst=then+half", "dst=else+1", "dst=cond", "dst=cond+1",
        "then=else", "cond=then", "-"};
    const unsigned cm = c->cond_mode;
    int k;

    fprintf(f, "  case: %s(%d) axis=%d flags=0x%x dtypes=",
            sel_broadcast_name(c->b.type), (int)c->b.type, (int)c->b.axis,
            (unsigned)c->b.flags);
    for (k = 0; k < NT; k++)
        fprintf(f, "%s%s(%d)", k ? "," : "", sel_dtype_name(c->dtype[k]),
                (int)c->dtype[k]);
    fputs("\n  shapes cond:then:else dst: ", f);
    for (k = 0; k < NT; k++) {
        fputs(k == D ? " " : k ? ":" : "", f);
        if (k == D && !c->have_dst)
            fputs("(not built yet)", f);
        else
            put_shape(f, c->t[k].rank, c->t[k].dims, c->ndims[k]);
    }
    fprintf(f, "\n  null=%s alias=%s offsets=%u,%u,%u,%u%s cond=%s "
            "opt=%s,t%d%s%s\n", nul[c->nul], alias[c->alias], c->offs[C],
            c->offs[T], c->offs[E], c->offs[D],
            c->bits & (1u << 13) ? " empty-data-NULL" : "",
            cm < H_FZ_C_NZ ? "bits" : cm < H_FZ_C_ANY ? "nz"
            : cm < H_FZ_C_ONES ? "any" : cm < H_FZ_C_ZEROS ? "ones"
            : cm < H_FZ_C_RUNS ? "zeros" : "runs",
            opt_isa_name(c->isa), c->threads,
            c->cfg & 16 ? (c->cfg & 64 ? ",lowered,chunk1k" : ",lowered")
                        : "", c->cfg & 32 ? ",nt" : "");
}

/* dst's shape: the inferred one (or then's when infer fails), perturbed
 * by H_FZ_DST (SHAPE-DST-1). */
void h_fz_make_dst(fz *c, int st, int32_t rank, const int64_t *dims)
{
    int64_t d[H_FZ_MAXDIMS + 1];
    int32_t r, i;

    if (st != SEL_OK) {
        rank = c->rank[T] >= 0 && c->rank[T] <= H_FZ_MAXDIMS ? c->rank[T] : 0;
        dims = c->dims[T];
    }
    r = rank;
    for (i = 0; i < r; i++)
        d[i] = dims[i];
    if (c->dst_mode >= H_FZ_DST_INFERRED) {
        switch ((c->dst_mode - H_FZ_DST_INFERRED) % H_FZ_D_COUNT) {
        case H_FZ_D_RANK0_VS_1: r = r ? 0 : 1, d[0] = 1; break;
        case H_FZ_D_LEAD1:
            memmove(d + 1, d, (size_t)r * sizeof *d), d[0] = 1, r++;
            break;
        case H_FZ_D_DROP_FIRST:
            if (r) memmove(d, d + 1, (size_t)--r * sizeof *d);
            else r = 1, d[0] = 1;
            break;
        case H_FZ_D_LAST_PLUS1: /* then's dims may be extreme: no UB */
            if (!r) r = 1, d[0] = 1;
            d[r - 1] = d[r - 1] == INT64_MAX ? 0 : d[r - 1] + 1;
            break;
        case H_FZ_D_LAST_MINUS1:
            if (!r) r = 1, d[0] = 1;
            d[r - 1] = d[r - 1] == INT64_MIN ? 0 : d[r - 1] - 1;
            break;
        case H_FZ_D_REVERSE:
            for (i = 0; i < r / 2; i++) {
                const int64_t x = d[i];
                d[i] = d[r - 1 - i], d[r - 1 - i] = x;
            }
            break;
        case H_FZ_D_RANK9:
            memmove(d + 9 - r, d, (size_t)r * sizeof *d);
            for (i = 0; i < 9 - r; i++)
                d[i] = 1;
            r = 9;
            break;
        case H_FZ_D_RANK_NEG: r = -1; break;
        default: { /* first dim huge, negative or zero */
            const int m = (int)((c->dst_mode - H_FZ_DST_INFERRED) % H_FZ_D_COUNT);
            if (!r)
                r = 1, d[0] = 1;
            d[0] = m == H_FZ_D_FIRST_HUGE ? (d[0] == INT64_C(1) << 62
                                                 ? INT64_MAX : INT64_C(1) << 62)
                   : m == H_FZ_D_FIRST_NEG ? -1
                   : d[0] == 0 ? 1 : 0;
        }
        }
    }
    c->rank[D] = r;
    c->ndims[D] = r < 0 ? 0 : r;
    c->dims[D] = malloc((size_t)c->ndims[D] * sizeof(int64_t));
    for (i = 0; i < c->ndims[D]; i++)
        c->dims[D][i] = d[i];
    c->have_dst = 1;
}
