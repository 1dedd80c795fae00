/* h_feat.c - what a test shows (rank 0, an odd-sized output, a 2-byte
 * dtype, a cond valid only under the bidirectional rule, NaNs in its
 * data...) and what a failure shows in dst, for the diagnosis.
 */
#include <stdlib.h>
#include <string.h>

#include "h_dtype.h"
#include "h_feat.h"

/* Does input k differ from the output's shape (broadcast, or a
 * different rank)? */
static int bcast(const h_point *pt, int k)
{
    const h_shape *s = &pt->t[k].shape;
    int32_t i;

    if (s->rank != pt->exp_rank)
        return 1;
    for (i = 0; i < s->rank && i < H_RANK_CAP; i++)
        if (s->dims[i] != pt->exp_dims[i])
            return 1;
    return 0;
}

/* NaNs and -0.0 in then or else (float dtypes only): the values a
 * float-routing implementation loses. */
static void float_data(const h_point *pt, unsigned char *f)
{
    const h_dtinfo *di = h_dt(pt->dtype);
    size_t es, k, i, n;
    uint64_t emax, mmax, negz;

    if (!di || di->kind != H_K_FLOAT)
        return;
    es = (size_t)di->size;
    emax = ((uint64_t)1 << di->ebits) - 1;
    mmax = ((uint64_t)1 << di->mbits) - 1;
    negz = (uint64_t)1 << (di->ebits + di->mbits);
    for (k = 1; k <= 2; k++) {
        if (!pt->data[k] || pt->t[k].dummy)
            continue;
        n = pt->t[k].bytes / es;
        for (i = 0; i < n && !(f[H_F_NAN] && f[H_F_NEGZERO]); i++) {
            uint64_t b = h_load(pt->data[k] + i * es, es);
            uint64_t e = (b >> di->mbits) & emax, m = b & mmax;
            if (e == emax && (di->ieee ? m != 0 : m == mmax))
                f[H_F_NAN] = 1;
            if (b == negz)
                f[H_F_NEGZERO] = 1;
        }
    }
}

static void shapes(const h_point *pt, unsigned char *f)
{
    int32_t r0 = pt->t[H_T_COND].shape.rank, r1 = pt->t[H_T_X].shape.rank,
            r2 = pt->t[H_T_Y].shape.rank;
    int64_t out;

    f[H_F_RANK0_IN] = r0 == 0 || r1 == 0 || r2 == 0;
    f[H_F_RANK_DIFF] = r0 != r1 || r1 != r2;
    f[H_F_COND_RANK_GT] = r0 > r1 && r0 > r2;
    if (!pt->valid)
        return;
    out = (int64_t)(pt->t[H_T_DST].bytes / sel_dtype_size(pt->dtype));
    f[H_F_RANK0_OUT] = pt->exp_rank == 0;
    f[H_F_ODD_OUT] = out % 2 == 1;
    f[H_F_EMPTY_OUT] = out == 0;
    f[H_F_ONE_OUT] = out == 1;
    f[H_F_BIG_OUT] = out >= 4096;
    f[H_F_NOT16] = out % 16 != 0;
    f[H_F_SMALL] = out < 16;
    f[H_F_COND_BC] = bcast(pt, H_T_COND);
    f[H_F_XY_BC] = bcast(pt, H_T_X) || bcast(pt, H_T_Y);
    f[H_F_ANY_BC] = f[H_F_COND_BC] || f[H_F_XY_BC];
}

void h_feat_point(const h_point *pt, unsigned char *f)
{
    size_t sz = sel_dtype_size(pt->dtype), i;
    const h_dtinfo *di = h_dt(pt->dtype);
    int32_t mode = pt->b.type;

    memset(f, 0, H_NFEAT);
    shapes(pt, f);
    f[H_F_SZ1] = sz == 1;
    f[H_F_SZ2] = sz == 2;
    f[H_F_SZ4] = sz == 4;
    f[H_F_SZ8] = sz == 8;
    f[H_F_FLOAT] = di && di->kind == H_K_FLOAT;
    f[H_F_INT] = di && (di->kind == H_K_SINT || di->kind == H_K_UINT);
    f[H_F_NONE] = mode == SEL_BROADCAST_NONE;
    f[H_F_NUMPY] = mode == SEL_BROADCAST_NUMPY;
    f[H_F_PDPD] = mode == SEL_BROADCAST_PDPD;
    f[H_F_AXIS] = mode == SEL_BROADCAST_PDPD && pt->b.axis != -1;
    f[H_F_BIDIR_ONLY] = (pt->exp_infer == SEL_OK) !=
                        (pt->other_rule_infer == SEL_OK);
    f[H_F_INVALID] = !pt->valid;
    f[H_F_BEYOND] = pt->profile_status != SEL_OK;
    f[H_F_CONCURRENT] = pt->c->concurrent != 0;
    f[H_F_ALIAS] = pt->c->alias != H_A_NONE;
    f[H_F_NULL] = pt->c->null_t != 0 || pt->c->null_what != H_N_NONE;
    if (pt->data[H_T_COND] && !pt->t[H_T_COND].dummy)
        for (i = 0; i < pt->t[H_T_COND].bytes && !f[H_F_COND_NON01]; i++)
            f[H_F_COND_NON01] = pt->data[H_T_COND][i] > 1;
    float_data(pt, f);
}

/* The number after key in the YAML body ("  mismatches: 1/17"). */
static int yaml_nums(const char *diag, const char *key, long long *a,
                     long long *b)
{
    const char *p = strstr(diag, key);
    char *end;

    if (!p)
        return 0;
    p += strlen(key);
    *a = strtoll(p, &end, 10);
    if (end == p)
        return 0;
    if (b && *end == '/')
        *b = strtoll(end + 1, NULL, 10);
    return 1;
}

void h_feat_verdict(const h_verdict *v, unsigned char *f)
{
    static const char *const runs[] = {"run end", "run start", "run shift",
                                       "run threads"};
    long long bad = 0, n = 0, first = 0;
    size_t i;

    for (i = 0; i < sizeof runs / sizeof *runs; i++)
        f[H_F_RUN_END + i] = strstr(v->reason, runs[i]) != NULL;
    if (strncmp(v->reason, "wrong bytes in dst", 18) != 0)
        return;
    if (!yaml_nums(v->diag.buf, "\n  mismatches: ", &bad, &n) &&
        !yaml_nums(v->diag.buf, "  mismatches: ", &bad, &n))
        return;
    if (!yaml_nums(v->diag.buf, "\n    index: ", &first, NULL))
        return;
    f[H_F_LAST_ONLY] = bad == 1 && first == n - 1;
    f[H_F_FIRST_ONLY] = bad == 1 && first == 0 && n > 1;
    f[H_F_TAIL] = first + bad == n;
    f[H_F_ALL_WRONG] = bad == n;
    f[H_F_NEVER] = strstr(v->diag.buf, "never written (the poison)") != NULL;
    f[H_F_OTHER_BRANCH] = strstr(v->diag.buf, "the branch cond did not "
                                              "choose") != NULL;
}

/* Each reads after "tests with" (test features) or "in every failure"
 * (failure features). */
static const char *const names[H_NFEAT] = {
    [H_F_RANK0_IN] = "a rank-0 input",
    [H_F_RANK0_OUT] = "a rank-0 output",
    [H_F_ODD_OUT] = "an odd-sized output",
    [H_F_EMPTY_OUT] = "an empty output",
    [H_F_ONE_OUT] = "a 1-element output",
    [H_F_BIG_OUT] = "an output of 4096 elements or more",
    [H_F_SZ1] = "a 1-byte dtype",
    [H_F_SZ2] = "a 2-byte dtype",
    [H_F_SZ4] = "a 4-byte dtype",
    [H_F_SZ8] = "an 8-byte dtype",
    [H_F_FLOAT] = "a float dtype",
    [H_F_INT] = "an integer dtype",
    [H_F_NONE] = "mode none",
    [H_F_NUMPY] = "mode numpy",
    [H_F_PDPD] = "mode pdpd",
    [H_F_BIDIR_ONLY] = "shapes the two cond rules disagree on (BC-NUMPY-3 vs BC-NUMPY-5)",
    [H_F_NOT16] = "an output size not a multiple of 16 elements",
    [H_F_SMALL] = "an output of fewer than 16 elements",
    [H_F_COND_BC] = "cond broadcast (its shape not the output's)",
    [H_F_XY_BC] = "then or else broadcast (a shape not the output's)",
    [H_F_ANY_BC] = "an input broadcast (a shape not the output's)",
    [H_F_RANK_DIFF] = "inputs of different ranks",
    [H_F_COND_RANK_GT] = "cond of a higher rank than then and else",
    [H_F_INVALID] = "an error expected (invalid case)",
    [H_F_BEYOND] = "a dtype or mode outside the profile",
    [H_F_CONCURRENT] = "concurrent calls",
    [H_F_COND_NON01] = "cond bytes other than 0 and 1",
    [H_F_NAN] = "a NaN in then or else",
    [H_F_NEGZERO] = "a -0.0 in then or else",
    [H_F_ALIAS] = "dst aliasing an input",
    [H_F_NULL] = "a NULL pointer argument",
    [H_F_AXIS] = "an explicit pdpd axis",
    [H_F_LAST_ONLY] = "only the last element is wrong",
    [H_F_TAIL] = "the wrong elements are a tail of dst",
    [H_F_FIRST_ONLY] = "only the first element is wrong",
    [H_F_ALL_WRONG] = "every element is wrong",
    [H_F_NEVER] = "never written (dst keeps the poison)",
    [H_F_OTHER_BRANCH] = "holds the branch cond did not choose",
    [H_F_RUN_END] = "in run end (buffers against a guard page)",
    [H_F_RUN_START] = "in run start (buffers right after a guard page)",
    [H_F_RUN_SHIFT] = "in run shift (misaligned buffers)",
    [H_F_RUN_THREADS] = "in run threads (two calls at once)",
};

const char *h_feat_name(int feat)
{
    return feat >= 0 && feat < H_NFEAT && names[feat] ? names[feat] : "?";
}
