/* h_layout.c - places a test's buffers in the shared arena for each run
 * (against a guard page at the end, at the start, each tensor shifted off
 * alignment on its own between canaries, twice for two threads), poisons
 * dst from a seed, and reads the damage after.
 * The layout of small tests never changes, so guard pages stay put.
 */
#include <stdio.h>
#include <string.h>

#include "h_gen.h"
#include "h_layout.h"

#define FILL 0xa5 /* slack and canary bytes */
#define CANARY 64 /* canary bytes on each side in the SHIFT run */

static const char *const tname[H_NT] = {"cond", "then", "else", "dst"};

const char *h_run_name(int kind)
{
    switch (kind) {
    case H_RUN_END: return "end";
    case H_RUN_START: return "start";
    case H_RUN_SHIFT: return "shift";
    case H_RUN_AGAIN: return "again";
    default: return "threads";
    }
}

static int nruns(const h_point *pt, int quick, int *kinds)
{
    int n = 0;

    kinds[n++] = H_RUN_END;
    if (!pt->valid)
        return n;
    if (quick) { /* the second poison needs a second run */
        kinds[n++] = H_RUN_AGAIN;
        return n;
    }
    kinds[n++] = H_RUN_START;
    kinds[n++] = H_RUN_SHIFT;
    if (pt->c->concurrent) {
        kinds[n++] = H_RUN_THREAD;
        kinds[n++] = H_RUN_THREAD;
    }
    return n;
}

static int dst_from_infer(const h_point *pt)
{
    return !pt->valid && pt->exp_infer != SEL_OK && !pt->c->has_dst_dims;
}

/* Bytes a tensor's region takes (0 for an alias of dst). */
static size_t region(const h_point *pt, int k)
{
    const h_case *c = pt->c;
    size_t es = sel_dtype_size(pt->t[H_T_X].dtype);

    if (pt->t[k].dummy)
        return 0;
    if (k == H_T_DST && c->alias)
        return 0;
    if (k == H_T_X && c->alias == H_A_PARTIAL &&
        es + pt->t[H_T_DST].bytes > pt->t[H_T_X].bytes)
        return es + pt->t[H_T_DST].bytes;
    if (k == H_T_DST && dst_from_infer(pt)) {
        size_t spare = 16384, es_d = sel_dtype_size(pt->t[k].dtype), b = 1;
        int32_t i;
        if (pt->other_rule_infer == SEL_OK && es_d) {
            for (i = 0; i < pt->other_rank && b <= H_MAX_BYTES; i++)
                b *= (size_t)pt->other_dims[i];
            if (b * es_d <= H_MAX_BYTES && b * es_d > spare)
                spare = b * es_d;
        }
        return spare;
    }
    return pt->t[k].bytes;
}

static size_t slot_bytes(const h_point *pt, int kind, size_t n, size_t ps)
{
    size_t need = n, off = pt->c->offset > 0 ? (size_t)pt->c->offset : 0;

    if (kind == H_RUN_SHIFT)
        need = CANARY + 64 + n + CANARY;
    else if (off)
        need = n + off + 64;
    return need ? (need + ps - 1) / ps * ps : ps;
}

/* Dims entries a tensor's dims slot holds: dst has room for any shape
 * the implementation's infer returns. */
static size_t ndims(const h_point *pt, int k)
{
    size_t n = pt->t[k].shape.rank > 0 ? (size_t)pt->t[k].shape.rank : 0;
    return k == H_T_DST && n < SEL_MAX_RANK ? SEL_MAX_RANK : n;
}

size_t h_layout_need(const h_point *pt, int quick)
{
    size_t ps = h_worker_page(), total = 4 * ps;
    const h_point *q = pt->partner;
    int kinds[H_RUNS_MAX], r, k, n = nruns(pt, quick, kinds);

    for (k = 0; k < H_NT; k++)
        total += (ndims(pt, k) * 8 + ps - 1) / ps * ps + ps +
                 (q ? (ndims(q, k) * 8 + ps - 1) / ps * ps + ps : 0);
    for (r = 0; r < n; r++)
        for (k = 0; k < H_NT; k++)
            total += slot_bytes(pt, kinds[r], region(pt, k), ps) + ps +
                     (q ? slot_bytes(q, kinds[r], region(q, k), ps) : 0);
    return total + ps;
}

const h_point *h_layout_point(const h_layout *L, const h_point *pt, int r)
{
    return L->partner && L->job.concurrent && r == L->job.nruns - 1
               ? L->partner : pt;
}

/* Where the tensor's bytes start inside a slot of size bytes. */
static uint8_t *place(const h_point *pt, int kind, int k, uint8_t *lo,
                      size_t size, size_t n)
{
    size_t off = pt->c->offset > 0 ? (size_t)pt->c->offset : 0;

    switch (kind) {
    case H_RUN_START:
        return n ? lo + off : NULL; /* IO-ZERO-1: empty data may be NULL */
    case H_RUN_SHIFT:
        return lo + CANARY + pt->shift[k];
    default:
        return off ? lo + ((size - n - off) & ~(size_t)63) + off
                   : lo + size - n;
    }
}

static void guard(h_layout *L, uint8_t **cur, h_gside before, h_gside after)
{
    h_job *j = &L->job;

    L->before[j->nguards] = before;
    L->after[j->nguards] = after;
    j->guards[j->nguards++] = *cur;
    *cur += h_worker_page();
}

static h_gside side(int what, int run, int t)
{
    h_gside g;
    g.what = what;
    g.run = run;
    g.t = t;
    return g;
}

static void fill_tensor(h_layout *L, const h_point *pt, int r, int k)
{
    h_slot *s = &L->slot[r][k];
    h_jten *t = &L->job.run[r].t[k];
    const h_case *c = pt->c;
    size_t i;

    t->dtype = pt->t[k].dtype;
    t->rank = pt->t[k].shape.rank;
    t->dims = (int64_t *)(pt == L->partner ? L->pdims : L->dims)[k].data;
    t->null_tensor = c->null_t == k && c->null_what == H_N_TENSOR;
    t->null_dims = c->null_t == k && c->null_what == H_N_DIMS;
    if (k == H_T_DST && c->alias) {
        size_t es = sel_dtype_size(pt->t[H_T_X].dtype);
        h_slot *src = &L->slot[r][c->alias == H_A_Y ? H_T_Y : H_T_X];
        t->data = src->data ? src->data + (c->alias == H_A_PARTIAL ? es : 0)
                            : NULL;
        return;
    }
    memset(s->lo, FILL, (size_t)(s->hi - s->lo));
    if (pt->t[k].dummy)
        s->data = s->hi; /* any access faults */
    if (s->data && k < H_T_DST) {
        memcpy(s->data, pt->data[k], pt->t[k].bytes);
        memset(s->data + pt->t[k].bytes, 0, s->bytes - pt->t[k].bytes);
    } else if (s->data) {
        /* Poison from the test's poison seed, never from the expected
         * bytes (which the worker must not see); odd runs get its
         * complement, so a byte never written differs from the expected
         * one in at least one of two runs. */
        for (i = 0; i < s->bytes; i++)
            s->data[i] = h_layout_poison(L, r, i);
    }
    t->data = c->null_t == k && c->null_what == H_N_DATA ? NULL : s->data;
    if (k == H_T_DST && dst_from_infer(pt)) {
        L->job.spare_end = s->hi;
        L->job.spare_cap = (size_t)(s->hi - s->lo);
        t->data = s->hi - pt->t[k].bytes;
    }
}

/* Each tensor's dims of pt in dims[], each ending at a guard page
 * (which: 0 the test's, 1 its partner's). */
static void place_dims(h_layout *L, const h_point *pt, h_slot *dims,
                       int which, uint8_t **cur, h_gside *prev)
{
    size_t ps = h_worker_page();
    int k;

    for (k = 0; k < H_NT; k++) {
        h_slot *s = &dims[k];
        size_t len = ndims(pt, k) * 8;
        guard(L, cur, *prev, side(H_G_DIMS, which, k));
        s->used = 1;
        s->lo = *cur;
        s->hi = *cur + (len + ps - 1) / ps * ps + (len ? 0 : ps);
        s->bytes = (size_t)(pt->t[k].shape.rank > 0 ? pt->t[k].shape.rank : 0) * 8;
        s->data = s->hi - s->bytes;
        memset(s->lo, FILL, (size_t)(s->hi - s->lo));
        memcpy(s->data, pt->t[k].dims, s->bytes);
        *cur = s->hi;
        *prev = side(H_G_DIMS, which, k);
    }
}

void h_layout_build(h_layout *L, const h_point *pt, uint8_t *arena,
                    int quick)
{
    size_t ps = h_worker_page();
    uint8_t *cur = arena + ps; /* page 0: the worker's phase word */
    h_gside prev = side(H_G_NONE, 0, 0);
    h_rng pr;
    int r, k, n;

    memset(L, 0, sizeof *L);
    n = nruns(pt, quick, L->kinds);
    pr = h_rng_for(pt->addr, pt->seed, 12);
    L->poison_seed = h_rng_next(&pr);
    L->job.sup_dtype = pt->dtype;
    L->job.sup_btype = pt->c->has_btype ? pt->c->mode : pt->b.type;
    L->job.b = pt->b;
    L->job.nruns = n;
    L->job.concurrent = n == 5;
    L->job.dst_from_infer = dst_from_infer(pt);
    /* infer's rank_out, and dims_out against a guard page */
    guard(L, &cur, prev, side(H_G_DIMS_OUT, 0, 0));
    L->job.rank_out = (int32_t *)cur;
    L->job.dims_out = (int64_t *)(cur + ps) - SEL_MAX_RANK;
    cur += ps;
    prev = side(H_G_DIMS_OUT, 0, 0);
    /* every tensor's dims, each ending at a guard page */
    place_dims(L, pt, L->dims, 0, &cur, &prev);
    L->job.dst_dims_end = (int64_t *)L->dims[H_T_DST].hi;
    if (pt->partner && L->job.concurrent) {
        L->partner = pt->partner;
        place_dims(L, pt->partner, L->pdims, 1, &cur, &prev);
    }
    for (r = 0; r < n; r++) {
        const h_point *q = h_layout_point(L, pt, r);
        L->job.run[r].kind = L->kinds[r];
        for (k = 0; k < H_NT; k++) {
            h_slot *s = &L->slot[r][k];
            size_t len = region(q, k);
            guard(L, &cur, prev, side(H_G_DATA, r, k));
            s->used = !(k == H_T_DST && q->c->alias);
            s->lo = cur;
            s->hi = cur + (s->used ? slot_bytes(q, L->kinds[r], len, ps) : ps);
            s->bytes = len;
            s->data = s->used ? place(q, L->kinds[r], k, s->lo,
                                      (size_t)(s->hi - s->lo), len) : NULL;
            cur = s->hi;
            prev = side(s->used ? H_G_DATA : H_G_NONE, r, k);
            fill_tensor(L, q, r, k);
        }
    }
    guard(L, &cur, prev, side(H_G_NONE, 0, 0));
    L->end = cur;
}

/* splitmix64's finalizer: poison bytes from (seed, word index) alone, so
 * the judge recomputes any byte without keeping a copy. */
uint8_t h_layout_poison(const h_layout *L, int r, size_t i)
{
    uint64_t z = L->poison_seed + ((uint64_t)(i >> 3) + 1) * 0x9e3779b97f4a7c15ull;

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return (uint8_t)((z >> (8 * (i & 7))) ^ (r & 1 ? 0xff : 0));
}

const uint8_t *h_layout_dst(const h_layout *L, int r)
{
    return L->job.run[r].t[H_T_DST].data;
}

/* First byte of [a, b) that is not FILL, or NULL. */
static const uint8_t *unfilled(const uint8_t *a, const uint8_t *b)
{
    for (; a < b; a++)
        if (*a != FILL)
            return a;
    return NULL;
}

int h_layout_damage(const h_layout *L, const h_point *pt, int r, char *msg,
                    size_t n)
{
    const char *run = h_run_name(L->kinds[r]);
    const h_slot *dims = L->dims;
    const h_case *c;
    int k, own = pt != h_layout_point(L, pt, r);

    pt = h_layout_point(L, pt, r);
    c = pt->c;
    if (own)
        dims = L->pdims;
    for (k = 0; (r == 0 || own) && k < H_NT; k++) {
        const h_slot *s = &dims[k];
        if ((k == H_T_DST && L->job.dst_from_infer) || !s->bytes)
            continue;
        if (memcmp(s->data, pt->t[k].dims, s->bytes) != 0 ||
            unfilled(s->lo, s->data) != NULL) {
            snprintf(msg, n, "wrote to the dims of %s (IO-INPUTS-1)",
                     tname[k]);
            return 1;
        }
    }

    for (k = 0; k < H_NT; k++) {
        const h_slot *s = &L->slot[r][k];
        const uint8_t *bad, *d = s->data ? s->data : s->lo;
        size_t len = s->data ? s->bytes : 0;
        if (!s->used || (k == H_T_DST && L->job.dst_from_infer))
            continue;
        if ((bad = unfilled(s->lo, d)) != NULL) {
            snprintf(msg, n, "wrote %zu bytes before the start of %s (from "
                     "byte -%zu; run %s)", (size_t)(d - bad), tname[k],
                     (size_t)(d - bad), run);
            return 1;
        }
        if ((bad = unfilled(d + len, s->hi)) != NULL) {
            snprintf(msg, n, "wrote past the end of %s (byte +%zu after it; "
                     "run %s)", tname[k], (size_t)(bad - (d + len)), run);
            return 1;
        }
        if (k == H_T_DST || !s->data || (k == H_T_X && c->alias == H_A_X) ||
            (k == H_T_Y && c->alias == H_A_Y) ||
            (k == H_T_X && c->alias == H_A_PARTIAL))
            continue;
        if (memcmp(s->data, pt->data[k], pt->t[k].bytes) != 0) {
            size_t i = 0;
            while (s->data[i] == pt->data[k][i])
                i++;
            snprintf(msg, n, "modified its input %s (IO-INPUTS-1): byte %zu "
                     "of %zu changed (run %s)", tname[k], i, pt->t[k].bytes,
                     run);
            return 1;
        }
    }
    return 0;
}

static const char *verb(int write)
{
    return write == 1 ? "wrote" : write == 0 ? "read" : "accessed";
}

static const h_slot *slot_of(const h_layout *L, h_gside g)
{
    if (g.what == H_G_DIMS)
        return g.run ? &L->pdims[g.t] : &L->dims[g.t];
    if (g.what == H_G_DATA)
        return &L->slot[g.run][g.t];
    return NULL;
}

static void name_of(const h_layout *L, h_gside g, char *buf, size_t n)
{
    if (g.what == H_G_DIMS)
        snprintf(buf, n, "the dims of %s", tname[g.t]);
    else
        snprintf(buf, n, "%s%s", tname[g.t],
                 L->slot[g.run][g.t].bytes ? "" : ", which has no elements,");
}

void h_layout_fault(const h_layout *L, const h_jres *res, char *msg,
                    size_t n)
{
    size_t ps = h_worker_page();
    uint8_t *a = (uint8_t *)res->addr;
    char name[120];
    int g;

    for (g = 0; g < L->job.nguards; g++) {
        uint8_t *lo = L->job.guards[g];
        const h_slot *sb = slot_of(L, L->before[g]), *sa = slot_of(L, L->after[g]);
        size_t db = (size_t)-1, da = (size_t)-1;
        if (a < lo || a >= lo + ps)
            continue;
        if (L->before[g].what == H_G_DIMS_OUT) {
            snprintf(msg, n, "infer %s past the end of dims_out (it has "
                     "SEL_MAX_RANK = %d entries)", verb(res->write),
                     SEL_MAX_RANK);
            return;
        }
        if (sb && sb->data)
            db = (size_t)(a - (sb->data + sb->bytes));
        if (sa && sa->data && sa->data >= a)
            da = (size_t)(sa->data - a);
        if (sb && db <= da) {
            name_of(L, L->before[g], name, sizeof name);
            snprintf(msg, n, "%s past the end of %s: byte +%zu after it",
                     verb(res->write), name, db);
            return;
        }
        if (sa && da != (size_t)-1) {
            name_of(L, L->after[g], name, sizeof name);
            snprintf(msg, n, "%s before the start of %s: byte -%zu",
                     verb(res->write), name, da);
            return;
        }
    }
    if (res->addr < 65536)
        snprintf(msg, n, "%s address 0x%llx (a NULL pointer)",
                 verb(res->write), (unsigned long long)res->addr);
    else
        snprintf(msg, n, "%s an address outside the harness's buffers",
                 verb(res->write));
}
