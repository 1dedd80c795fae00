/* opt_chunk.c - plans small outputs of any shape as a program of 64-byte
 * chunks (AVX512-VBMI runs it: opt_chunk__avx512 in opt_avx512_perm.c).
 *
 * The elements are walked once in output order (an odometer over the
 * plan); for each chunk of 64 output bytes and each operand, the bytes
 * its elements read make one window of up to 64 bytes from the lowest,
 * or two (a chunk across a broadcast axis's wrap), and the control
 * says, per output byte, which window byte it is (then and else: byte q
 * of the element; cond: the element's one byte, so vptestmb gives a byte
 * mask that blends whole elements).  Controls repeat across chunks
 * (broadcast axes are periodic), so they are kept once each.  An
 * operand of at most 128 bytes that needs a permute is held whole (mode
 * 4): its control indexes its own bytes, and the kernel loads them once
 * per call (loads bound a chunk on Zen 4, not permutes).  Built once per
 * shape: opt_small.c keeps the program with its memo.
 */
#include <string.h>

#include "opt.h"

_Static_assert(OPT_CHUNK_BYTES <= 65536 && OPT_CHUNK_CTLS * 64 <= 65536 &&
                   OPT_CHUNK_CTLS < 512,
               "offsets fit uint16_t; the hash table has room");

/* Element offsets of up to 64 elements of a chunk, per operand. */
typedef struct cursor {
    int32_t rank;
    const int64_t *dims;
    const int64_t (*st)[SEL_MAX_RANK];
    int64_t idx[SEL_MAX_RANK];
    int64_t off[3];
} cursor;

/* The next element in output order: the innermost axis steps, the axes
 * below the one that steps wrap to 0. */
static void step(cursor *u)
{
    int32_t i = u->rank - 1;
    while (i > 0 && u->idx[i] + 1 == u->dims[i]) {
        for (int k = 0; k < 3; k++)
            u->off[k] -= u->st[k][i] * (u->dims[i] - 1);
        u->idx[i--] = 0;
    }
    u->idx[i]++;
    for (int k = 0; k < 3; k++)
        u->off[k] += u->st[k][i];
}

/* A 9-bit hash of a control, for the table of distinct ones. */
static unsigned hash(const uint8_t *b)
{
    uint64_t h = 0;
    for (int i = 0; i < 64; i += 8) {
        uint64_t u;
        memcpy(&u, b + i, 8);
        h = (h ^ u) * 0x9e3779b97f4a7c15u;
    }
    return (unsigned)(h >> 55);
}

/* Control b's byte offset in x->ctl (added when new), or -1 when the
 * table is full.  slot[h]: index + 1 of a control, 0 empty. */
static int intern(opt_chunk *x, uint16_t *slot, int *nctl, const uint8_t *b)
{
    for (unsigned h = hash(b);; h = (h + 1) & 511) {
        const int s = slot[h];
        if (!s) {
            if (*nctl == OPT_CHUNK_CTLS)
                return -1;
            memcpy(x->ctl + *nctl * 64, b, 64);
            slot[h] = (uint16_t)++*nctl;
            return (*nctl - 1) * 64;
        }
        if (!memcmp(x->ctl + (s - 1) * 64, b, 64))
            return (s - 1) * 64;
    }
}

/* Bytes to start a lone window early so that its load splits no cache
 * line where the operand starts on one (a split load costs about two on
 * Zen 4): the window at byte lo*u, n bytes, its start lowered only where
 * the load would split (fewer distinct controls), kept within its 32
 * bytes when it is that short (the 32-byte loads of mode 3 take only
 * windows of up to 32 bytes), else within its 64.  0 for a window read
 * in order (the identity: no permute at all). */
static int64_t lower(const int64_t *o, int m, int64_t lo, int64_t hi,
                     int64_t u, size_t w)
{
    const int64_t a = lo * u, n = (hi - lo + 1) * u;
    int ident = u == (int64_t)w;
    for (int j = 0; j < m && ident; j++)
        ident = o[j] - lo == j;
    if (ident)
        return 0;
    if (n <= 32) /* a 32-byte load splits past byte 32 of a line; kept
        within 32 bytes: mode 3 needs every window so */
        return (a & 63) > 32 && (a & 31) + n <= 32 ? a & 31 : 0;
    return (a & 63) + n <= 64 ? a & 63 : 0;
}

/* Operand k's control for the chunk's m elements when the kernel holds
 * its bytes (at most 128) in two registers (mode 4): the element's byte
 * offsets themselves.  The windows noted (0 and 64) are what the masked
 * loads of the slow path read. */
static int whole(opt_chunk_rec *r, uint8_t *b, const int64_t *o, int m,
                 int k, size_t w, uint32_t n)
{
    const int64_t u = k ? (int64_t)w : 1;
    for (int i = m * (int)w; i < 64; i++) /* a partial chunk's rest */
        b[i] = (uint8_t)i;
    for (int j = 0; j < m; j++)
        for (size_t q = 0; q < w; q++)
            b[(size_t)j * w + q] = (uint8_t)(o[j] * u + (k ? (int64_t)q : 0));
    r->off[k] = 0, r->off2[k] = 64;
    r->n0[k] = (uint8_t)(n < 64 ? n : 64), r->n1[k] = (uint8_t)(n > 64 ? n - 64 : 0);
    return 1;
}

/* Operand k's windows and control for the chunk's m elements (offsets
 * o[0..m)): the first 64 bytes from the lowest byte read, the second 64
 * from the lowest byte read past those (a chunk across the wrap of a
 * broadcast axis reads the end of one run and the start of the next).
 * 0 when two windows do not hold every byte. */
static int window(opt_chunk_rec *r, uint8_t *b, const int64_t *o, int m,
                  int k, size_t w)
{
    const int64_t u = k ? (int64_t)w : 1, cap = 64 / u; /* elements */
    int64_t lo = o[0], lo2 = INT64_MAX, hi = 0, hi2 = 0;
    for (int j = 1; j < m; j++)
        lo = o[j] < lo ? o[j] : lo;
    for (int j = 0; j < m; j++)
        if (o[j] - lo < cap)
            hi = o[j] > hi ? o[j] : hi;
        else
            lo2 = o[j] < lo2 ? o[j] : lo2;
    for (int j = 0; j < m; j++)
        if (o[j] - lo >= cap) {
            if (o[j] - lo2 >= cap)
                return 0;
            hi2 = o[j] > hi2 ? o[j] : hi2;
        }
    const int64_t sh = lo2 == INT64_MAX ? lower(o, m, lo, hi, u, w) : 0;
    for (int i = m * (int)w; i < 64; i++) /* a partial chunk's rest */
        b[i] = (uint8_t)i;
    for (int j = 0; j < m; j++) {
        const int two = o[j] - lo >= cap;
        const int64_t at =
            two ? 64 + (o[j] - lo2) * u : (o[j] - lo) * u + sh;
        for (size_t q = 0; q < w; q++)
            b[(size_t)j * w + q] = (uint8_t)(at + (k ? (int64_t)q : 0));
    }
    r->off[k] = (uint16_t)(lo * u - sh);
    r->n0[k] = (uint8_t)((hi - lo + 1) * u + sh);
    r->off2[k] = lo2 == INT64_MAX ? r->off[k] : (uint16_t)(lo2 * u);
    r->n1[k] = lo2 == INT64_MAX ? 0 : (uint8_t)((hi2 - lo2 + 1) * u);
    return 1;
}

/* Modes, pads and the chunks that whole-vector loads may run: those
 * whose windows' 64-byte loads end inside each operand not padded nor
 * held whole (wh, bit k: operand k in mode 4, loaded under masks). */
static void finish(opt_chunk *x, const opt_plan *p, int wh)
{
    for (int k = 0; k < 3; k++) {
        x->mode[k] = 0;
        for (int32_t c = 0; c < x->chunks; c++) {
            const opt_chunk_rec *r = &x->rec[c];
            const int m = r->n1[k] ? 2 : r->ctl[k] ? 1 : 0;
            x->mode[k] = m > x->mode[k] ? m : x->mode[k];
        }
        if (x->mode[k] == 1) { /* a 32-byte load: half a 64-byte one's
            load slots on Zen 4, and fewer cache-line splits */
            int narrow = 1;
            for (int32_t c = 0; c < x->chunks; c++)
                narrow &= x->rec[c].n0[k] <= 32;
            x->mode[k] = narrow ? 3 : 1;
        }
        x->mode[k] = wh >> k & 1 ? 4 : x->mode[k];
        x->inb[k] = (uint32_t)p->in_bytes[k];
        /* A copy costs about what masked loads cost on a few chunks. */
        x->pad[k] = !(wh >> k & 1) && x->chunks > 4 &&
                    p->in_bytes[k] <= OPT_CHUNK_PAD;
    }
    for (x->safe = 0; x->safe + 1 < x->chunks; x->safe++) { /* not the
        last: it is stored under a mask */
        const opt_chunk_rec *r = &x->rec[x->safe];
        int ok = 1;
        for (int k = 0; k < 3; k++)
            ok &= x->pad[k] || wh >> k & 1 ||
                  (r->off[k] + 64u <= x->inb[k] &&
                   r->off2[k] + 64u <= x->inb[k]);
        if (!ok)
            break;
    }
}

/* The records and controls, operands in wh held whole; 0 as
 * opt_chunk_build. */
static int program(opt_chunk *x, const opt_plan *p, size_t w, int64_t n,
                   int wh)
{
    const int L = (int)(64 / w);
    uint16_t slot[512] = {0};
    uint8_t b[64];
    int64_t o[3][64];
    int nctl = 0;
    cursor u = {.rank = p->rank, .dims = p->dims, .st = p->st};
    memset(u.idx, 0, sizeof u.idx);
    memset(u.off, 0, sizeof u.off);
    x->chunks = (int32_t)((n + L - 1) / L);
    x->tail = (int32_t)((n - (int64_t)(x->chunks - 1) * L) * (int64_t)w);
    for (int i = 0; i < 64; i++) /* the identity: control 0 */
        b[i] = (uint8_t)i;
    intern(x, slot, &nctl, b);
    for (int32_t c = 0; c < x->chunks; c++) {
        opt_chunk_rec *r = &x->rec[c];
        const int m = c + 1 < x->chunks ? L : x->tail / (int)w;
        for (int j = 0; j < m; j++) {
            if (c || j)
                step(&u);
            for (int k = 0; k < 3; k++)
                o[k][j] = u.off[k];
        }
        for (int k = 0; k < 3; k++) {
            int at;
            if (!(wh >> k & 1 ? whole(r, b, o[k], m, k, w,
                                      (uint32_t)p->in_bytes[k])
                              : window(r, b, o[k], m, k, w)) ||
                (at = intern(x, slot, &nctl, b)) < 0)
                return 0;
            r->ctl[k] = (uint16_t)at;
        }
    }
    return 1;
}

/* Operand k reads the same windows through the same control in chunks
 * a and b. */
static int same(const opt_chunk_rec *a, const opt_chunk_rec *b, int k)
{
    return a->off[k] == b->off[k] && a->off2[k] == b->off2[k] &&
           a->ctl[k] == b->ctl[k];
}

/* x->dense, the operands read in order at dst's place (mode 0, window at
 * 64 bytes a chunk), and x->per, the shortest period of at most
 * OPT_CHUNK_PER chunks with which the others repeat (0: none, or every
 * operand dense), over the full chunks; the last runs apart.  Only from
 * 64 full chunks and 4 periods: the period's set-up did not pay on 35
 * chunks (1x1x4x1x10:1x1x1x1x10:7x4x8x10 u8, per 5: 44 -> 66 ns). */
static void period(opt_chunk *x)
{
    const int32_t full = x->chunks - 1;
    x->per = 0, x->dense = 0;
    for (int k = 0; k < 3; k++) {
        int ok = x->mode[k] == 0;
        for (int32_t i = 0; ok && i < full; i++)
            ok = x->rec[i].off[k] == (uint32_t)i * 64;
        x->dense |= ok << k;
    }
    for (int32_t q = 1; x->dense != 7 && full >= 64 && q <= OPT_CHUNK_PER &&
                        4 * q <= full;
         q++) {
        int ok = 1;
        for (int k = 0; k < 3; k++)
            for (int32_t i = q; ok && !(x->dense >> k & 1) && i < full; i++)
                ok = same(&x->rec[i], &x->rec[i - q], k);
        if (ok) {
            x->per = q;
            return;
        }
    }
}

/* Operands of at most 128 bytes that need a permute are held whole (mode
 * 4: per chunk a control and vpermi2b, no window loaded), unless their
 * controls, now absolute, overflow the table. */
int opt_chunk_build(opt_chunk *x, const opt_plan *p, size_t w)
{
    int64_t n = 1;
    int wh = 0;
    for (int32_t i = 0; i < p->rank; i++)
        n *= p->dims[i];
    if (n * (int64_t)w > OPT_CHUNK_BYTES || !program(x, p, w, n, 0))
        return 0;
    finish(x, p, 0);
    for (int k = 0; k < 3; k++)
        wh |= (x->mode[k] && p->in_bytes[k] <= 128) << k;
    if (wh && program(x, p, w, n, wh))
        finish(x, p, wh);
    else if (wh) /* the table overflowed: the windows again */
        program(x, p, w, n, 0), finish(x, p, 0);
    period(x);
    return 1;
}
