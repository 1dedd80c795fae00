/* opt_rows.c - long rows in segments: an operand's row that repeats along
 * the axis right above the row is read once from L2 per segment and then
 * from L1, instead of from L2 for every row (opt/README.md, "Long rows in
 * segments").  opt_exec.c decides when and calls it on the whole call.
 * Also the lean walk of short rows (no streams' edges, no rows ahead), and
 * the flat walk slab by slab of axis 0 (opt_slab_rows).
 */
#include "opt_rows.h"
#include "opt_phase.h"

/* Rows in segments.  When an operand's row repeats along the axis right
 * above the row ([1,K] against [N,K]) and holds 8 KiB or more, row-major
 * order reads it from L2 for every row; 4 KiB segments over all the rows
 * along that axis read it once from L2, then from L1 (model, i64 in L2:
 * 9x4930 9.8 -> 7.1 us; 16 KiB segments lost it).  cond counts for 1- and
 * 2-byte elements only (for f32 it saved nothing, for i64 it lost). */
#define SEG_REUSE ((size_t)8 << 10)
#define SEG_BYTES ((size_t)4 << 10)

int opt_seg_rows(const opt_plan *p, size_t w)
{
    const int32_t in = p->rank - 1;
    if (p->rank < 2 || p->dims[in - 1] < 2)
        return 0;
    for (int k = w > 2; k < 3; k++) /* cond: 1 byte against w */
        if (p->st[k][in] && !p->st[k][in - 1] &&
            (size_t)p->dims[in] * (k ? w : 1) >= SEG_REUSE)
            return 1;
    return 0;
}

typedef struct segs {
    const opt_plan *p;
    opt_kernel_fn *kern;
    const uint8_t *c;
    const char *t, *e;
    char *d;
    size_t w;
    int32_t pair;    /* the axis of the pairs, or -1 */
    int64_t partner; /* rows from a group to its partner along pair */
} segs;

/* The m (1 or 2) groups of rows along in - 1 that start at row r (the
 * second one partner rows on), segment by segment: for each segment, each
 * row of the group, then the same row of the partner, so a row repeated
 * along in - 1 is read from L1 after its first segment, and a row repeated
 * along pair (the partner's) from L1 the second time. */
static void groups(const segs *x, int64_t r, int m)
{
    const opt_plan *p = x->p;
    const int32_t in = p->rank - 1, a = in - 1;
    const int64_t n = p->dims[in], g = p->dims[a];
    const int64_t seg = (int64_t)(SEG_BYTES / x->w);
    int64_t off[3] = {0, 0, 0}, q = r, st[3];

    for (int32_t i = a; i >= 0; i--) { /* row r's offsets */
        for (int k = 0; k < 3; k++)
            off[k] += q % p->dims[i] * p->st[k][i];
        q /= p->dims[i];
    }
    for (int k = 0; k < 3; k++)
        st[k] = x->pair >= 0 ? p->st[k][x->pair] : 0;
    for (int64_t j = 0; j < n; j += seg) {
        const int64_t len = n - j < seg ? n - j : seg;
        for (int64_t h = 0; h < g; h++)
            for (int u = 0; u < m; u++) {
                const int64_t o[3] = {
                    off[0] + j * p->st[0][in] + h * p->st[0][a] + u * st[0],
                    off[1] + j * p->st[1][in] + h * p->st[1][a] + u * st[1],
                    off[2] + j * p->st[2][in] + h * p->st[2][a] + u * st[2]};
                x->kern((size_t)len, x->c + o[0], x->t + (size_t)o[1] * x->w,
                        x->e + (size_t)o[2] * x->w,
                        x->d + (size_t)((r + u * x->partner + h) * n + j) *
                                   x->w, 0);
            }
    }
}

void opt_run_segs(const opt_plan *p, opt_kernel_fn *kern, const uint8_t *c,
                  const char *t, const char *e, char *d, size_t w,
                  int32_t pair)
{
    const int32_t in = p->rank - 1;
    const int64_t g = p->dims[in - 1];
    int64_t rows = 1, step = 1; /* step: rows per step of pair */
    const segs x = {p, kern, c, t, e, d, w, pair, 0};
    segs y = x;

    for (int32_t i = 0; i < in; i++)
        rows *= p->dims[i];
    for (int32_t i = pair + 1; pair >= 0 && i < in; i++)
        step *= p->dims[i];
    y.partner = step;
    for (int64_t r = 0; r < rows; r += g) {
        const int64_t at = pair >= 0 ? r / step % p->dims[pair] : 0;
        if (pair < 0)
            groups(&x, r, 1);
        else if (at % 2 == 0) /* odd ones ran with their partner */
            groups(&y, r, at + 1 < p->dims[pair] ? 2 : 1);
    }
}

/* Short rows straight to the kernel, or under a cond constant per row to
 * the copy or fill kernel: opt_exec.c's run_rows(), row() and row_src()
 * cost about 8 ns a row beside a 13 ns copy of 624 bytes
 * (11x119x1:11x1x624:11x119x624 i8).  Row copies whose source goes on
 * where the last one ended (a dense input, or a pattern's next row) are
 * one copy: fewer and longer memcpy calls. */
void opt_lean_rows(const opt_plan *p, opt_kernel_fn *kern, const uint8_t *c,
                   const char *t, const char *e, char *d, size_t w,
                   opt_kernel_fn *copy, opt_kernel_fn *fill, int nt,
                   int64_t begin, int64_t end)
{
    const int32_t in = p->rank - 1;
    const int64_t n = p->dims[in];
    int64_t idx[SEL_MAX_RANK], off[3] = {0, 0, 0};
    int64_t j = begin % n, pos = begin;
    const char *ps = NULL; /* the pending copy: from ps to po, pn elements */
    char *po = NULL;
    size_t pn = 0;

    opt_odometer_seek(p, begin / n, in - 1, idx, off);
    while (pos < end) {
        const int64_t len = n - j < end - pos ? n - j : end - pos;
        char *const o = d + (size_t)pos * w;
        if (kern) {
            kern((size_t)len, c + off[0] + j * p->st[0][in],
                 t + (size_t)(off[1] + j * p->st[1][in]) * w,
                 e + (size_t)(off[2] + j * p->st[2][in]) * w, o, nt);
        } else {
            const int k = c[off[0]] ? 1 : 2; /* COND-NZ-1 */
            const int64_t sk = p->st[k][in];
            const char *s = (k == 1 ? t : e) + (size_t)(off[k] + j * sk) * w;
            if (pn && sk == 1 && s == ps + pn * w) {
                pn += (size_t)len; /* o is po + pn * w: rows in order */
            } else {
                if (pn)
                    copy(pn, NULL, ps, NULL, po, nt);
                pn = 0;
                if (sk == 1)
                    ps = s, po = o, pn = (size_t)len;
                else
                    (sk ? copy : fill)((size_t)len, NULL, s, NULL, o, nt);
            }
        }
        opt_odometer(p, idx, off, in - 1, -1);
        pos += len;
        j = 0;
    }
    if (pn)
        copy(pn, NULL, ps, NULL, po, nt);
}

/* Slabs of the flat walk.  An operand that repeats a row along axis 1 but
 * steps along axis 0 (then [6,1,499] against [6,47,499]) is periodic in
 * each slab of axis 0, not in the whole output: the flat walk refuses the
 * call and its rows of under 2 KiB ran one kernel call each, every row's
 * loads split over lines (1x47x499:6x1x499:6x47x499 f16, 8.3 us; one slab
 * 47x499:1x499:47x499 by the walk, 1.07 us).  Each slab is the plan of
 * axes 1.. at its own offsets, run by opt_phase_run; a slab it refuses
 * (only the first is tested before anything is written) goes to the lean
 * rows.  Slabs of fewer rows lost to them (4x8x950:4x1x950:4x8x950 f16
 * 0.84 -> 0.79, 5x1x200:5x9x200:9x200 f64 0.64-0.71 -> 0.61; 16 rows of
 * 998 bytes 0.63 -> 0.68). */
#define SLAB_ROWS 16

int opt_slab_rows(const opt_plan *p, const void *const data[3], char *d,
                  size_t w, int isa, opt_kernel_fn *kern)
{
    opt_plan s = *p;
    const void *at[3];
    int64_t n = 1;

    for (int32_t a = 1; a + 1 < p->rank; a++)
        n *= p->dims[a]; /* rows per slab */
    if (p->rank < 3 || p->btop >= 0 || !kern || n < SLAB_ROWS)
        return 0;
    n = 1;
    s.rank = p->rank - 1;
    for (int32_t a = 0; a < s.rank; a++) {
        s.dims[a] = p->dims[a + 1], n *= s.dims[a];
        for (int k = 0; k < 3; k++)
            s.st[k][a] = p->st[k][a + 1];
    }
    for (int64_t i = 0; i < p->dims[0]; i++) {
        for (int k = 0; k < 3; k++) {
            const size_t o = (size_t)(i * p->st[k][0]) * (k ? w : 1);
            at[k] = (const char *)data[k] + o;
            s.in_bytes[k] = p->in_bytes[k] - o;
        }
        if (opt_phase_run(&s, at, d + (size_t)(i * n) * w, w, isa, 0, 1, 0))
            continue;
        if (i == 0)
            return 0;
        opt_lean_rows(p, kern, data[0], data[1], data[2], d, w, NULL, NULL,
                      0, i * n, (i + 1) * n);
    }
    return 1;
}
