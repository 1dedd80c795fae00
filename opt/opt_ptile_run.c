/* opt_ptile_run.c - ranges of ptile blocks (the tiles from opt_ptile.c):
 * block b's odometer state, operands near their end read from tail copies
 * (small ones copied whole, or read in place where that is safe), blocks
 * cut at a range's ends through a buffer, blocks under streams through
 * opt_stage.c's stage; the loop itself is opt_ptile_blocks__avx512.
 */
#include <string.h>

#include "opt_past.h"
#include "opt_ptile.h"
#include "opt_stage.h"

#if defined(__x86_64__)

#define BMAX (64 * OPT_PTILE_NCH)
#define SMALL 4096
/* A tail copy: reach (at most a block's bytes and a window) and a window
 * read past it. */
#define TAIL (SMALL + 2 * BMAX + 128)
#define MID (16 * 1024)
#define MIDT (MID + 2 * BMAX + 128)
/* Block b's odometer state and operand offsets. */
static void seek(const opt_ptile *t, opt_ptile_job *j, int64_t b)
{
    j->off[0] = j->off[1] = j->off[2] = 0;
    memset(j->idx, 0, sizeof j->idx);
    for (int l = 0; l < t->nax && b; l++) { /* b 0: no divides */
        j->idx[l] = b % t->dims[l];
        b /= t->dims[l];
        for (int k = 0; k < 3; k++)
            j->off[k] += j->idx[l] * t->step[k][l];
    }
}

/* One block into a buffer, bytes [lo, hi) of it to d. */
static void part(const opt_ptile *t, opt_ptile_job *j, size_t lo, size_t hi,
                 char *d)
{
    _Alignas(64) char buf[BMAX];
    j->d = buf, j->n = 1, j->nt = 0, j->wide = 1;
    opt_ptile_blocks__avx512(t, j);
    memcpy(d, buf + lo, hi - lo);
}

/* Output byte of block b and its own bytes (a pass's last may be short);
 * no idiv for nb 1 or b 0 (half of range()'s time in 5 Ki-element calls). */
static int64_t bpos(const opt_ptile *t, int64_t b, int64_t *len)
{
    const int64_t nb = t->nb, q = nb > 1 && b ? b / nb : b, r = b - q * nb;
    *len = (int64_t)t->bbytes - (r == nb - 1 ? (int64_t)t->spill : 0);
    return q * (int64_t)t->gbytes + r * (int64_t)t->bbytes;
}

/* The first block whose output starts after byte x (x >= 0; 0: no idiv). */
static int64_t bafter(const opt_ptile *t, int64_t x)
{
    const int64_t nb = t->nb, G = (int64_t)t->gbytes, q = x < G ? 0 : x / G;
    const int64_t i = nb > 1 && x ? (x - q * G) / (int64_t)t->bbytes : 0;
    return q * nb + (i < nb - 1 ? i : nb - 1) + 1;
}

/* 1 when an operand's bytes meet dst's: spilled bytes would be read. */
static int overlaps(const opt_plan *p, const void *const data[3],
                    const char *d, size_t bytes)
{
    return opt_overlap(data[1], p->in_bytes[1], d, bytes) ||
           opt_overlap(data[2], p->in_bytes[2], d, bytes);
}

/* Blocks [cur, b1) under streams when they cut lines: in batches of up to
 * OPT_STAGE_PIECE bytes into a stage in L1 (opt_stage.c), whole lines
 * streamed out of it.  Streamed in place, such blocks would store each
 * line in parts; run with plain stores, they read every line of dst
 * first (61:207x4x1114x1:1x4x1114x61 i8: 0.10).  The stage lies modulo
 * 4096 past the tiles, which the block loop reads (opt_stage_place). */
static __attribute__((noinline)) void
staged(const opt_ptile *t, opt_ptile_job *j, char *d, int64_t cur, int64_t b1)
{
    _Alignas(64) char raw[OPT_STAGE_RAW];
    char *const buf = opt_stage_place(raw, t, OPT_PTILE_HOT);
    const int64_t per = OPT_STAGE_PIECE / (int64_t)t->bbytes;
    opt_stage s;
    int64_t len;
    opt_stage_init(&s, buf, opt_isa_active());
    while (cur < b1) {
        const int64_t m = b1 - cur < per ? b1 - cur : per;
        const int64_t p0 = bpos(t, cur, &len);
        j->d = opt_stage_put(&s, d + p0, (size_t)(bpos(t, cur + m, &len) - p0));
        j->n = (size_t)m, j->nt = 0, j->wide = 1;
        opt_ptile_blocks__avx512(t, j);
        cur += m;
    }
    opt_stage_flush(&s);
}

/* The range with operand midk (-1: none) copied whole into mbuf. */
static void range(const opt_ptile *t, const opt_plan *p,
                  const void *const data[3], char *d, size_t w, int nt,
                  int64_t begin, int64_t end, int midk, char *mbuf)
{
    const int64_t B = (int64_t)t->bbytes, bb = begin * (int64_t)w,
                  be = end * (int64_t)w;
    /* Blocks [cur, b1) run in place: every byte they write (B from a
     * block's start, its spill too) inside the range, none over an
     * operand (in place: each block alone). */
    const int whole = !t->spill || !overlaps(p, data, d, (size_t)be);
    int64_t cur = bafter(t, bb) - 1, b1 = be >= B ? bafter(t, be - B) : 0;
    int64_t pos, len;
    char tails[3][TAIL];
    opt_ptile_job j;
    for (int k = 0; k < 3; k++) {
        /* A small operand whole (no block then near its end; of 1 KiB
         * up, in place if reads past it cannot fault and it meets no dst
         * byte), else its last reach bytes; room after either for a window. */
        const size_t avail = p->in_bytes[k];
        const size_t small = avail <= SMALL || k == midk;
        const int ip = k != midk && avail <= SMALL && avail >= 1024 &&
                       opt_past_ok(data[k], avail, t->reach[k] + 64) &&
                       !opt_overlap(data[k], avail, d, (size_t)be);
        char *const tk = k == midk ? mbuf : tails[k];
        const size_t n = small || avail < t->reach[k] ? avail : t->reach[k];
        if (!ip)
            memcpy(tk, (const char *)data[k] + (avail - n), n);
        j.src[k] = small && !ip ? tk : (const char *)data[k];
        j.tail[k] = tk;
        j.lim[k] = small ? INT64_MAX : (int64_t)avail - (int64_t)t->reach[k];
        j.rebase[k] = (int64_t)(avail - n);
    }
    seek(t, &j, cur);
    pos = bpos(t, cur, &len);
    if (pos < bb || pos + len > be || !whole) { /* the first block, cut */
        const int64_t hi = be - pos < len ? be - pos : len;
        part(t, &j, (size_t)(bb - pos), (size_t)hi, d + bb);
        cur++;
    }
    for (; !whole && cur < b1; cur++) { /* in place: a pass's end alone */
        pos = bpos(t, cur, &len);
        if (len < B)
            part(t, &j, 0, (size_t)len, d + pos);
        else {
            j.d = d + pos, j.n = 1, j.nt = 0, j.wide = 0;
            opt_ptile_blocks__avx512(t, &j);
        }
    }
    if (cur < b1 && nt && (B % 64 || t->spill || (uintptr_t)(d + bpos(t, cur, &len)) % 64)) {
        staged(t, &j, d, cur, b1);
        opt_fence();
        cur = b1;
    }
    if (cur < b1) {
        j.d = d + bpos(t, cur, &len), j.n = (size_t)(b1 - cur), j.wide = 0;
        j.nt = nt && B % 64 == 0 && !t->spill && (uintptr_t)j.d % 64 == 0;
        opt_ptile_blocks__avx512(t, &j);
        if (j.nt)
            opt_fence();
        cur = b1;
    }
    for (; (pos = bpos(t, cur, &len)) < be; cur++) /* the end */
        part(t, &j, 0, (size_t)(be - pos < len ? be - pos : len), d + pos);
}

/* range() with operand midk copied whole into a buffer on this stack. */
static __attribute__((noinline)) void
range_mid(const opt_ptile *t, const opt_plan *p, const void *const data[3],
          char *d, size_t w, int nt, int64_t begin, int64_t end, int midk)
{
    _Alignas(64) char mbuf[MIDT];
    range(t, p, data, d, w, nt, begin, end, midk, mbuf);
}
#endif

void opt_ptile_range(const opt_ptile *t, const opt_plan *p,
                     const void *const data[3], char *d, size_t w, int nt,
                     int64_t begin, int64_t end)
{
#if defined(__x86_64__)
    /* One operand of SMALL to MID bytes copied whole when the range
     * writes 16 times as many: no block is then near its end, so the
     * counted runs are not cut there (blocks near an end ran in a generic
     * loop at 6 times a loop block when this was built: 23x1x1:54x1x1x54:
     * 23x1x54 i64, else of 9936 bytes reached once per pass, 12% of the
     * time in 1 block of 46; now they run in the loop from the tail
     * copy, pt_seg in opt_avx512_perm.c).  A per-thread buffer
     * of 50 KiB instead moved the thread's other data and cost the
     * rank6-8 rows 0.03-0.06, though they copy nothing. */
    for (int k = 0; k < 3; k++)
        if (p->in_bytes[k] > SMALL && p->in_bytes[k] <= MID &&
            p->in_bytes[k] <= (size_t)(end - begin) * w / 16) {
            range_mid(t, p, data, d, w, nt, begin, end, k);
            return;
        }
    range(t, p, data, d, w, nt, begin, end, -1, NULL);
#else
    (void)t, (void)p, (void)data, (void)d, (void)w, (void)nt, (void)begin,
        (void)end;
#endif
}
