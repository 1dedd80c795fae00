/* diff_gen.c - difftest's case generator: random shapes under every mode
 * (numpy one-way and bidirectional, pdpd with an axis), short inner rows at
 * sizes that span opt's blocks, dtypes, offsets, in place, and faults.
 */
#include <stdio.h>
#include <string.h>

#include "diff_gen.h"

/* ---- deterministic randomness: splitmix64, one stream per case -------- */
uint64_t h_rnd(rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}
int h_below(rng *r, int n) { return (int)(h_rnd(r) % (uint64_t)n); }
int h_chance(rng *r, int pct) { return h_below(r, 100) < pct; }
#define below h_below
#define chance h_chance

static void note(tcase *c, const char *s)
{
    size_t n = strlen(c->note);
    snprintf(c->note + n, sizeof c->note - n, "%s%s", n ? "," : "", s);
}

static int64_t pick_dim(rng *r)
{
    int x = below(r, 100);
    return x < 28 ? 1 : x < 31 ? 0 : x < 75 ? 2 + below(r, 3)
         : x < 93 ? 5 + below(r, 5) : 10 + below(r, 120);
}

static int pick_rank(rng *r)
{
    static const int w[9] = {6, 14, 22, 20, 14, 9, 6, 5, 4};
    int x = below(r, 100), k = 0;
    while (x >= w[k])
        x -= w[k++];
    return k;
}

/* Short inner rows at sizes that span many of opt's blocks (opt_block.c:
 * 8 KiB of output each) and thread chunks: a channel-like last axis (1-31),
 * outer axes of 1-31 (some 1s), then the first axis scaled up to a target
 * of 1 Ki-64 Ki elements. */
static int pick_short_rows(rng *r, int64_t *out)
{
    static const int64_t ch[] = {1, 2, 3, 4, 5, 8, 16, 31};
    const int rank = 2 + below(r, 6);
    const int64_t target = (int64_t)1 << (10 + below(r, 7));
    int64_t n = 1;
    out[rank - 1] = ch[below(r, 8)];
    for (int i = 0; i < rank - 1; i++)
        out[i] = chance(r, 20) ? 1 : 2 + below(r, 30);
    for (int i = 0; i < rank; i++)
        n *= out[i];
    if (n < target)
        out[0] *= target / n;
    return rank;
}

/* Small outputs (1-4096 elements), the range opt walks directly
 * (opt_small.c) or in one block: ranks 0-8 with many axes of 1-3, a last
 * axis of 1-40 (rows that stay short or reach a vector), shrunk to fit;
 * 40% with dims of 1, 2, 4 (the last up to 32) and 256-4096 elements,
 * which opt_vtile.c's 32-byte tiles split. */
static int pick_small(rng *r, int64_t *out)
{
    const int rank = below(r, SEL_MAX_RANK + 1);
    const int pow2 = chance(r, 40); /* tiles of 32 bytes (opt_vtile.c) */
    const int64_t most = (int64_t)1 << (pow2 ? 8 + below(r, 5) : below(r, 13));
    int64_t n = 1;
    for (int i = 0; i < rank; i++) {
        out[i] = chance(r, 25) ? 1 : chance(r, 70) ? 2 + below(r, 2)
               : 4 + below(r, 6);
        if (i == rank - 1 && chance(r, 40))
            out[i] = 1 + below(r, 40);
        if (pow2)
            out[i] = (int64_t)1 << below(r, i == rank - 1 ? 6 : 3);
    }
    for (int i = 0; i < rank; i++)
        n *= out[i];
    for (int i = 0; n > most && i < 4 * rank; i++) { /* trim some axis */
        const int k = below(r, rank);
        n = n / out[k] * ((out[k] + 1) / 2);
        out[k] = (out[k] + 1) / 2;
    }
    return rank;
}

static int64_t count_of(const int64_t *d, int rank)
{
    int64_t n = 1;
    for (int i = 0; i < rank; i++)
        n *= d[i];
    return n;
}

/* A cond per "pixel" over C channels (opt_crep.c: cond read by the
 * kernel): cond [..., 1] against an output [..., C] with C of 1-17 or
 * 24-300 (past 64 only AVX-512 reads cond itself); then and else each dense, a per-channel tile, a scalar,
 * repeated per pixel like cond or a [..., W, C] default (blocks of more
 * than one axis), some leading 1s dropped. */
static void gen_crep(rng *r, tcase *c, int64_t *out, int rank)
{
    static const int64_t big[] = {24, 31, 32, 33, 48,  63,  64,
                                  65, 96, 100, 128, 192, 255, 300};
    const int64_t ch = chance(r, 70) ? 1 + below(r, 17) : big[below(r, 14)];
    out[0] = out[0] * out[rank - 1] / ch > 1 ? out[0] * out[rank - 1] / ch : 1;
    out[rank - 1] = ch;
    while (count_of(out, rank) > MAX_ELEMS) { /* a larger C: halve others */
        int m = 0;
        for (int i = 1; i < rank - 1; i++)
            m = out[i] > out[m] ? i : m;
        out[m] /= 2;
    }
    c->b.type = SEL_BROADCAST_NUMPY;
    for (int k = C; k <= E; k++) {
        const int form = k == C ? 3 : below(r, 5), drop = below(r, 2);
        c->rank[k] = form == 2 ? 0 : rank - drop;
        for (int i = drop; i < rank; i++)
            c->dims[k][i - drop] = form == 0 ? out[i] /* dense */
                : form == 1 ? (i == rank - 1 ? ch : 1)        /* tile */
                : form == 4 ? (i >= rank - 2 ? out[i] : 1)    /* [W,C] */
                : i == rank - 1 ? 1 : out[i];                 /* per pixel */
    }
}

/* numpy: per output axis, which operands carry the dim (else a 1); then
 * each drops some of its leading 1s.  bidir lets cond alone carry a dim. */
static void gen_numpy(rng *r, tcase *c, const int64_t *out, int rank, int bidir)
{
    int has[3][SEL_MAX_RANK], k, i;
    for (i = 0; i < rank; i++) {
        int any = 0;
        for (k = 0; k < 3; k++)
            any |= has[k][i] = chance(r, 60);
        if (!any || (!bidir && !has[T][i] && !has[E][i]))
            has[bidir ? below(r, 3) : T + below(r, 2)][i] = 1;
    }
    for (k = 0; k < 3; k++) {
        int lead = 0, drop;
        while (lead < rank && (!has[k][lead] || out[lead] == 1))
            lead++;
        drop = below(r, lead + 1);
        c->rank[k] = rank - drop;
        for (i = drop; i < rank; i++)
            c->dims[k][i - drop] = has[k][i] ? out[i] : 1;
    }
}

/* pdpd: then is the output; else and cond are runs of its dims (some 1s),
 * maybe with trailing 1s, at one axis (explicit) or right-aligned (-1). */
static void gen_pdpd(rng *r, tcase *c, const int64_t *out, int rank)
{
    const int explicit_axis = chance(r, 50), a = below(r, rank + 1);
    int k, i;
    c->b.axis = explicit_axis ? a : -1;
    for (k = C; k <= E; k += 2) {
        int len = below(r, (explicit_axis ? rank - a : rank) + 1);
        int trail = chance(r, 25) ? 1 + below(r, 2) : 0, first;
        if (!explicit_axis && len + trail > rank)
            trail = 0;
        first = explicit_axis ? a : rank - len - trail;
        for (i = 0; i < len; i++)
            c->dims[k][i] = chance(r, 30) ? 1 : chance(r, 5) ? 0 /* BC-NUMPY-4 */
                          : out[first + i];
        for (i = 0; i < trail; i++)
            c->dims[k][len + i] = 1;
        c->rank[k] = len + trail;
    }
    c->rank[T] = rank;
    memcpy(c->dims[T], out, sizeof(int64_t) * (size_t)rank);
}

static int32_t any_dtype(rng *r) { return SEL_DT_FIRST + below(r, SEL_DT_LAST); }

/* One fault, so that statuses (and ERR-ORDER-1 with two) get compared. */
static void mutate(rng *r, tcase *c)
{
    const int k = below(r, 4), i = c->rank[k] > 0 ? below(r, c->rank[k]) : 0;
    static const int32_t bad_types[] = {3, 4, -1, 1000};
    switch (below(r, 13)) {
    case 0: note(c, "dim");
        if (c->rank[k] > 0)
            c->dims[k][i] = chance(r, 50) ? c->dims[k][i] + 1 + below(r, 3) : below(r, 3);
        break;
    case 1: note(c, "rank");
        c->rank[k] = chance(r, 70) ? SEL_MAX_RANK + 1 : -1;
        for (int j = 0; j < SEL_MAX_RANK + 1; j++)
            c->dims[k][j] = 1;
        break;
    case 2: note(c, "negdim");
        if (c->rank[k] > 0)
            c->dims[k][i] = -1 - below(r, 3);
        break;
    case 3: note(c, "overflow");
        if (chance(r, 50) && c->rank[k] > 0) {
            c->dims[k][i] = (int64_t)1 << (40 + below(r, 23));
        } else { /* inputs that fit, an output that does not */
            c->rank[T] = c->rank[E] = 2, c->rank[C] = 0;
            c->dims[T][0] = (int64_t)1 << 31, c->dims[T][1] = 1;
            c->dims[E][0] = 1, c->dims[E][1] = (int64_t)1 << 33;
        }
        break;
    case 4: note(c, "dtype");
        c->dtype[k] = chance(r, 20) ? (int32_t)(below(r, 3) ? 99 : 0)
                                    : any_dtype(r);
        break;
    case 5: note(c, "btype"); c->b.type = bad_types[below(r, 4)]; break;
    case 6: note(c, "axis");
        c->b.axis = chance(r, 50) ? -2 - below(r, 5) : c->rank[T] + below(r, 3);
        break;
    case 7: note(c, "nullptr"); c->null_ptr = k; break;
    case 8: note(c, "nulldims");
        c->dims_null[k] = 1;
        break;
    case 9: note(c, "nulldata"); c->null_data = k; break;
    case 10: note(c, "dstrank");
        if (c->rank[D] < SEL_MAX_RANK && chance(r, 50))
            c->dims[D][c->rank[D]++] = 1;
        else if (c->rank[D] > 0)
            c->rank[D]--;
        break;
    case 11: note(c, "overlap");
        c->alias = chance(r, 70) ? ALIAS_PART : chance(r, 50) ? ALIAS_COND
                 : chance(r, 50) ? ALIAS_THEN : ALIAS_ELSE;
        c->alias_off = 1 + (size_t)below(r, 40);
        break;
    default: note(c, "nullout"); c->null_out = 1; break;
    }
}

/* One cond byte for the whole call (numpy, cond all 1s) over an output of
 * about MAX_ELEMS: opt plans a copy or fill of the input it picks, and
 * copies a dense one of 256 KiB or more in pieces (opt_exec.c); or, half
 * the time, of at most 4096 elements: a pick in blocks on the caller,
 * repeated from the warm-call record (opt_bwarm.c), which the warm twin
 * arms with the other byte. */
static void const_cond(rng *r, tcase *c, int64_t *out, int rank)
{
    const int64_t n = count_of(out, rank);
    if (n > 0 && rank > 0 && chance(r, 50))
        out[0] *= MAX_ELEMS / n;
    else while (count_of(out, rank) > 4096) { /* halve the largest dim */
        int k = 0;
        for (int i = 1; i < rank; i++)
            k = out[i] > out[k] ? i : k;
        out[k] /= 2;
    }
    c->b.type = SEL_BROADCAST_NUMPY;
    gen_numpy(r, c, out, rank, 0);
    c->rank[C] = below(r, rank + 1);
    for (int i = 0; i < c->rank[C]; i++)
        c->dims[C][i] = 1;
    c->rank[D] = rank;
    memcpy(c->dims[D], out, sizeof(int64_t) * SEL_MAX_RANK);
    note(c, "cond constant");
}

/* Rank 4-8, dims 2-9, cond and then on alternate axes (1s between),
 * else whole or on any axes: many blocks whose expansions opt keeps by
 * walking the blocks in another order (opt_block.c, whole outputs). */
static void interleaved(rng *r, tcase *c)
{
    const int rank = 4 + below(r, 5), odd = below(r, 2);
    int64_t n = 1;
    c->b.type = SEL_BROADCAST_NUMPY;
    for (int i = 0; i < rank; i++) {
        c->dims[D][i] = 2 + below(r, 8);
        if (n * c->dims[D][i] > MAX_ELEMS)
            c->dims[D][i] = 1;
        n *= c->dims[D][i];
        c->dims[C][i] = i % 2 == odd ? c->dims[D][i] : 1;
        c->dims[T][i] = i % 2 != odd ? c->dims[D][i] : 1;
        c->dims[E][i] = chance(r, 50) ? c->dims[D][i] : 1;
    }
    for (int k = 0; k < 4; k++)
        c->rank[k] = rank;
    note(c, "interleaved");
}

/* Long rows with an operand that repeats along an outer axis (then [J,K]
 * against else [I,J,K], midaxis_f16): rows of 512 B-4 KiB (a few elements
 * more for the tails), J rows of 32-64 KiB of the repeated operand, so
 * that opt runs the rows in pairs (opt_exec.c, from 32 KiB); I of 2-17
 * (an odd I leaves a lone row; up to 512 Ki elements, so that thread
 * chunks start inside a pair and hold whole ones), maybe a leading axis
 * of 2.  One operand is the repeated [J,K], one dense, the third [I,1,K]
 * (which keeps J and K apart) or any of dense, [J,K], a scalar; cond may
 * carry dims (bidirectional). */
static void midaxis(rng *r, tcase *c)
{
    const size_t w = sel_dtype_size(c->dtype[T]) ? sel_dtype_size(c->dtype[T]) : 1;
    const int lead = chance(r, 30), rank = 3 + lead, rep = below(r, 3);
    const int dense = (rep + 1 + below(r, 2)) % 3;
    const int64_t k = (int64_t)((size_t)512 << below(r, 4)) / (int64_t)w + below(r, 3);
    const int64_t j = (((int64_t)32 << 10 << below(r, 2)) / (rep == C ? 1 : (int64_t)w)
                       + k - 1) / k;
    int64_t out[4] = {2, 2 + below(r, 16), j, k};
    const int64_t *o = out + !lead;
    while (out[1] > 2 && (lead ? 2 : 1) * out[1] * j * k > (int64_t)MAX_ELEMS * 4)
        out[1]--;
    c->b.type = SEL_BROADCAST_NUMPY;
    c->b.flags = SEL_COND_BIDIRECTIONAL;
    for (int q = C; q <= E; q++) {
        const int form = q == rep ? 1 : q == dense ? 0 /* [I,1,K] half the time: */
                       : chance(r, 50) ? 2 : below(r, 4); /* else J and K merge */
        c->rank[q] = form == 3 ? 0 : form == 1 ? 2 : rank;
        for (int i = 0; i < c->rank[q]; i++)
            c->dims[q][i] = form == 1 ? o[rank - 2 + i]
                          : form == 2 && i == rank - 2 ? 1 : o[i];
    }
    c->rank[D] = rank;
    memcpy(c->dims[D], o, sizeof(int64_t) * (size_t)rank);
    note(c, "midaxis");
}

/* Long rows with then or else repeated along the axis right above the
 * row ([1,K] or [I,1,K] against [I,J,K]): 8-40 KiB of it per row, J of
 * 2-12, maybe a leading I of 2-3, under 512 Ki elements, so that opt runs
 * the rows in segments (opt_rows.c); the other input dense, the same form,
 * a scalar or, under I, [J,K] (segments in pairs along I; under a top
 * axis of 2, the pairs' axis is 1); cond dense, repeated the same way,
 * [K] or [J,K]. */
static void longrep(rng *r, tcase *c)
{
    const size_t w = sel_dtype_size(c->dtype[T]) ? sel_dtype_size(c->dtype[T]) : 1;
    const int lead = chance(r, 40), rank = 2 + lead, rep = T + below(r, 2);
    const int64_t k = (int64_t)(((size_t)8 << 10) + (size_t)below(r, 32 << 10)) /
                      (int64_t)w;
    int64_t out[3] = {2 + below(r, 2), 2 + below(r, 11), 0};
    const int64_t *o = out + !lead;
    out[2] = k;
    /* a top axis of 2 over [I,J,K] and the other input [J,K]: the pairs'
     * axis is then axis 1 */
    const int top = lead && chance(r, 30);
    while (out[1] > 2 &&
           (top ? 2 : 1) * (lead ? out[0] : 1) * out[1] * k > (int64_t)MAX_ELEMS * 4)
        out[1]--;
    c->b.type = SEL_BROADCAST_NUMPY;
    c->b.flags = SEL_COND_BIDIRECTIONAL;
    for (int q = C; q <= E; q++) {
        /* 0 dense, 1 repeated, 2 a scalar or [K], 3 [J,K] (under a
         * leading I: segments in pairs along I) */
        const int form = q == rep ? 1 : top && q != C ? 3 : below(r, lead ? 4 : 3);
        if (top && form == 0 && chance(r, 50)) { /* dense over the top too */
            c->rank[q] = rank + 1;
            c->dims[q][0] = 2;
            memcpy(c->dims[q] + 1, o, sizeof(int64_t) * (size_t)rank);
            continue;
        }
        c->rank[q] = form == 2 ? (q == C ? 1 : 0) : form == 3 ? 2 : rank;
        if (form == 2 && q == C)
            c->dims[q][0] = k;
        for (int i = 0; form != 2 && i < c->rank[q]; i++)
            c->dims[q][i] = form == 3 ? o[1 + i]
                          : form == 1 && i == rank - 2 ? 1 : o[i];
    }
    c->rank[D] = rank + top;
    c->dims[D][0] = 2;
    memcpy(c->dims[D] + top, o, sizeof(int64_t) * (size_t)rank);
    note(c, "longrep");
}

/* Rank 4-8, cond and then on alternate axes (1s between, an axis or two
 * swapped), else whole or on any axes, outputs of 4 Ki - 512 Ki elements
 * of every width: opt_ptile.c's chunks of byte permutes (AVX-512 VBMI),
 * its odometer's runs, blocks near an operand's end, ranges cut by the
 * threads' chunks (and the blocks of opt_block.c below AVX-512). */
static void interleaved_big(rng *r, tcase *c)
{
    const int rank = 4 + below(r, 5), odd = below(r, 2);
    const int64_t target = (int64_t)1 << (12 + below(r, 8));
    int64_t n = 1;
    c->b.type = SEL_BROADCAST_NUMPY;
    c->b.flags = chance(r, 50) ? SEL_COND_BIDIRECTIONAL : 0;
    for (int i = 0; i < rank; i++)
        n *= c->dims[D][i] = chance(r, 10) ? 1 : 2 + below(r, 15);
    for (int i = 0; n < target && i < 64; i++) { /* grow an axis */
        const int k = below(r, rank);
        n = n / c->dims[D][k] * (c->dims[D][k] * 2);
        c->dims[D][k] *= 2;
    }
    while (n > (int64_t)MAX_ELEMS * 4) { /* difftest's cap */
        int k = 0;
        for (int i = 1; i < rank; i++)
            k = c->dims[D][i] > c->dims[D][k] ? i : k;
        n = n / c->dims[D][k] * (c->dims[D][k] / 2);
        c->dims[D][k] /= 2;
    }
    for (int i = 0; i < rank; i++) {
        const int side = (i % 2 == odd) != chance(r, 15);
        c->dims[C][i] = side ? c->dims[D][i] : 1;
        c->dims[T][i] = !side || chance(r, 10) ? c->dims[D][i] : 1;
        c->dims[E][i] = chance(r, 50) ? c->dims[D][i] : 1;
    }
    if (!(c->b.flags & SEL_COND_BIDIRECTIONAL)) /* cond one way: no axis */
        for (int i = 0; i < rank; i++)          /* of it beyond then's  */
            if (c->dims[T][i] == 1 && c->dims[E][i] == 1)
                c->dims[T][i] = c->dims[D][i];
    if (chance(r, 20)) { /* in place over a whole else: ptile blocks that */
        for (int i = 0; i < rank; i++) /* would write past their own */
            c->dims[E][i] = c->dims[D][i]; /* bytes run one at a time */
        c->alias = ALIAS_ELSE;
    }
    for (int k = 0; k < 4; k++)
        c->rank[k] = rank;
    note(c, "interleaved big");
}

void h_gen(uint64_t seed, uint64_t idx, tcase *c)
{
    rng r = {seed * 0x9e3779b97f4a7c15u ^ (idx + 1) * 0xd1b54a32d192ed03u};
    int64_t out[SEL_MAX_RANK];
    int rank = pick_rank(&r), i, k, m = below(&r, 100), crep = 0;

    memset(c, 0, sizeof *c);
    c->null_ptr = c->null_data = -1;
    for (i = 0; i < rank; i++)
        out[i] = pick_dim(&r);
    if (chance(&r, 15)) {
        rank = pick_short_rows(&r, out);
        note(c, "blocks");
        crep = chance(&r, 40);
    } else if (chance(&r, 30)) {
        rank = pick_small(&r, out);
        note(c, "small");
    }
    while (count_of(out, rank) > MAX_ELEMS) { /* halve the largest dim */
        for (i = 1, k = 0; i < rank; i++)
            k = out[i] > out[k] ? i : k;
        out[k] /= 2;
    }
    c->b.type = m < 15 ? SEL_BROADCAST_NONE : m < 70 ? SEL_BROADCAST_NUMPY
                                                     : SEL_BROADCAST_PDPD;
    c->b.flags = chance(&r, 50) ? SEL_COND_BIDIRECTIONAL : 0;
    if (chance(&r, 10))
        c->b.flags |= 0x80000000u | (uint32_t)below(&r, 1 << 16) << 8;
    c->b.axis = c->b.type == SEL_BROADCAST_PDPD ? -1 : below(&r, 9) - 6;
    if (c->b.type == SEL_BROADCAST_NONE)
        for (k = C; k <= E; k++)
            c->rank[k] = rank, memcpy(c->dims[k], out, sizeof out);
    else if (c->b.type == SEL_BROADCAST_NUMPY)
        gen_numpy(&r, c, out, rank, chance(&r, 70) ? /* shapes of the other */
                  !!(c->b.flags & SEL_COND_BIDIRECTIONAL) : /* rule at times */
                  !(c->b.flags & SEL_COND_BIDIRECTIONAL));
    else
        gen_pdpd(&r, c, out, rank);
    if (crep) {
        gen_crep(&r, c, out, rank);
        note(c, "crep");
    }
    if (chance(&r, 3)) { /* then and else scalars, cond the shape: the "ss"
                            kernels, which blocks call less than rows did */
        c->b.type = SEL_BROADCAST_NUMPY;
        c->b.flags |= SEL_COND_BIDIRECTIONAL;
        c->rank[T] = c->rank[E] = 0;
        c->rank[C] = rank;
        memcpy(c->dims[C], out, sizeof out);
        note(c, "scalars");
    }
    c->rank[D] = rank;
    memcpy(c->dims[D], out, sizeof out);
    c->dtype[C] = SEL_DT_BOOLEAN;
    c->dtype[T] = c->dtype[E] = c->dtype[D] = any_dtype(&r);
    for (k = 0; k < 4; k++)
        c->off[k] = (size_t)below(&r, 64);
    if (chance(&r, 15))
        c->alias = chance(&r, 50) ? ALIAS_THEN : ALIAS_ELSE;
    c->tuning = below(&r, 3); /* 0: the defaults, where small calls run
                                 on the caller, opt_small.c's walk */
    if (strstr(c->note, "small") && chance(&r, 50))
        c->tuning = 0;
    if (chance(&r, 22)) {
        mutate(&r, c);
        if (chance(&r, 30))
            mutate(&r, c);
    } else if (chance(&r, 4)) /* drawn last: the cases before keep theirs */
        const_cond(&r, c, out, rank);
    else if (chance(&r, 5))
        interleaved(&r, c);
    else if (chance(&r, 5))
        midaxis(&r, c);
    else if (chance(&r, 5))
        interleaved_big(&r, c);
    else if (chance(&r, 5))
        longrep(&r, c);
    else if (chance(&r, 5))
        h_gen_periodic(&r, c);
}
