/* difftest.c - randomized differential test of the optimized backend against
 * the reference: random shapes, modes, axes, flags, dtypes, cond bytes,
 * offsets, in place and invalid inputs; statuses, shapes and every byte.
 *
 * Links both statically (libselect_opt.a, libselect_ref.a) and uses opt's
 * test hooks (opt/opt.h) to run each case at every ISA level the CPU has,
 * with 1, 2 and 3 threads, and with thresholds lowered so that even small
 * tensors take the threaded and streaming paths.  Case i of seed s is a
 * pure function of (s, i): a failure prints the case and a command that
 * reruns just it.  Output: a summary on stdout, failures on stderr.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"
#include "ref.h"

#include "diff_gen.h"

#define GUARD 64
#define MAX_FAIL 10

/* ---- buffers: one world per implementation, both from the same bytes -- */
typedef struct world {
    uint8_t *buf[4];
    size_t size[4];
    sel_tensor t[4];
} world;

static size_t data_bytes(const tcase *c, int k)
{
    const size_t w = sel_dtype_size(c->dtype[k]) ? sel_dtype_size(c->dtype[k]) : 1;
    int64_t n = 1;
    if (c->rank[k] < 0 || c->rank[k] > SEL_MAX_RANK)
        return 0;
    for (int i = 0; i < c->rank[k]; i++) {
        if (c->dims[k][i] < 0 || c->dims[k][i] > (int64_t)MAX_ELEMS * 4)
            return 0; /* invalid or absurd: a small buffer is enough */
        n *= c->dims[k][i];
        if (n > (int64_t)MAX_ELEMS * 4)
            return 0;
    }
    return (size_t)n * w;
}

static void make_world(const tcase *c, world *w, rng *r, int fill)
{
    for (int k = 0; k < 4; k++) {
        size_t n = c->off[k] + c->bytes[k] + GUARD + (k == T || k == C ? c->bytes[D] + 64 : 0);
        w->size[k] = n;
        w->buf[k] = malloc(n);
        if (!w->buf[k]) {
            fprintf(stderr, "difftest: out of memory\n");
            exit(2);
        }
        if (fill)
            for (size_t i = 0; i < n; i++)
                w->buf[k][i] = (uint8_t)h_rnd(r);
    }
    if (fill) { /* cond bytes: 0/1, any bytes, all one value, or runs */
        static const uint8_t any[] = {0, 1, 2, 0x7f, 0x80, 0xff};
        uint8_t *cb = w->buf[C] + c->off[C], v = 0;
        int style = h_below(r, 5), run = 0;
        for (size_t i = 0; i < c->bytes[C]; i++) {
            if (style == 0) cb[i] = (uint8_t)h_below(r, 2);
            else if (style == 1) cb[i] = any[h_below(r, 6)];
            else if (style == 2) cb[i] = 0;
            else if (style == 3) cb[i] = 1;
            else {
                if (run-- <= 0)
                    run = h_below(r, 100), v = !v;
                cb[i] = v;
            }
        }
    }
}

static void bind(const tcase *c, world *w)
{
    for (int k = 0; k < 4; k++) {
        w->t[k].dtype = c->dtype[k];
        w->t[k].rank = c->rank[k];
        w->t[k].dims = c->dims_null[k] ? NULL : c->dims[k];
        w->t[k].data = c->null_data == k ? NULL : w->buf[k] + c->off[k];
    }
    if (c->null_data != D) {
        if (c->alias == ALIAS_THEN) w->t[D].data = w->t[T].data;
        if (c->alias == ALIAS_ELSE) w->t[D].data = w->t[E].data;
        if (c->alias == ALIAS_PART) w->t[D].data = (uint8_t *)w->t[T].data + c->alias_off;
        if (c->alias == ALIAS_COND) w->t[D].data = (uint8_t *)w->t[C].data + c->alias_off % 8;
    }
}

static void describe(const tcase *c, char *s, size_t n)
{
    size_t p = 0;
    for (int k = 0; k < 4; k++) {
        if (c->rank[k] == 0)
            p += (size_t)snprintf(s + p, n - p, "_");
        for (int i = 0; i < c->rank[k] && i <= SEL_MAX_RANK; i++)
            p += (size_t)snprintf(s + p, n - p, "%s%lld", i ? "x" : "",
                                  (long long)c->dims[k][i]);
        p += (size_t)snprintf(s + p, n - p, k < 2 ? ":" : k == 2 ? " dst " : "");
    }
    snprintf(s + p, n - p, " %s axis=%d flags=0x%x dtypes=%d/%d/%d/%d off=%zu/%zu/%zu/%zu "
             "alias=%d tuning=%d faults=[%s]", sel_broadcast_name(c->b.type),
             c->b.axis, c->b.flags, c->dtype[C], c->dtype[T], c->dtype[E], c->dtype[D],
             c->off[C], c->off[T], c->off[E], c->off[D], c->alias, c->tuning, c->note);
}

/* ---- running and comparing ------------------------------------------- */
typedef struct cfg { int isa, threads; } cfg;
typedef struct result { int ist, est; int32_t rank; int64_t dims[SEL_MAX_RANK]; } result;

static uint64_t seed = 1;
static const char *self = "difftest";
static int failures;
static long valid_runs, total_runs, by_status[8];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void call(const sel_impl *impl, const tcase *c, world *w, result *res)
{
    sel_tensor *tp[4];
    for (int k = 0; k < 4; k++)
        tp[k] = c->null_ptr == k ? NULL : &w->t[k];
    res->rank = -1;
    res->ist = impl->infer(tp[C], tp[T], tp[E], c->b,
                           c->null_out ? NULL : &res->rank, res->dims);
    res->est = impl->execute(tp[C], tp[T], tp[E], c->b, tp[D]);
}

static void tune(int which)
{
    /* half_min 0: without streams (2), every row kernel in halves */
    opt_tuning t = {0, 0, which == 1 ? 0 : SIZE_MAX, 0};
    opt_tuning_set(which ? &t : NULL);
}

/* The first difference between the two runs, or NULL. */
static const char *differ(const tcase *c, const result *a, const result *b,
                          const world *wa, const world *wb, char *msg, size_t n)
{
    static const char *const names[] = {"cond", "then", "else", "dst"};
    if (a->ist != b->ist) {
        snprintf(msg, n, "infer: ref %s, opt %s", sel_status_name(a->ist), sel_status_name(b->ist));
        return msg;
    }
    if (a->ist == SEL_OK && (a->rank != b->rank ||
        memcmp(a->dims, b->dims, sizeof(int64_t) * (size_t)a->rank) != 0)) {
        snprintf(msg, n, "infer: shapes differ (rank %d vs %d)", a->rank, b->rank);
        return msg;
    }
    if (a->est != b->est) {
        snprintf(msg, n, "execute: ref %s, opt %s", sel_status_name(a->est), sel_status_name(b->est));
        return msg;
    }
    for (int k = 0; k < 4; k++)
        for (size_t i = 0; i < wa->size[k]; i++)
            if (wa->buf[k][i] != wb->buf[k][i]) {
                const long long rel = (long long)i - (long long)c->off[k];
                const size_t w = sel_dtype_size(c->dtype[k]) ? sel_dtype_size(c->dtype[k]) : 1;
                snprintf(msg, n, "%s buffer byte %lld (element %lld%s): ref 0x%02x, opt 0x%02x",
                         names[k], rel, rel / (long long)w,
                         rel < 0 || (size_t)rel >= c->bytes[k] ? ", outside the data" : "",
                         wa->buf[k][i], wb->buf[k][i]);
                return msg;
            }
    return NULL;
}

static void copy_world(world *to, const world *from)
{
    for (int k = 0; k < 4; k++)
        memcpy(to->buf[k], from->buf[k], from->size[k]);
}

static void free_world(world *w)
{
    for (int k = 0; k < 4; k++)
        free(w->buf[k]);
}

/* The case without its faults (NULL pointers, NULL dims, aliasing), run
 * twice on a scratch world: opt's per-thread records (the plan memo, the
 * warm-call record of opt_hit.c) then hold its shapes, and the call that
 * follows, faulty or not, must still get the reference's status and
 * bytes with its data pointers and cond's bytes changed: the twin runs
 * on cond inverted (a record that runs what the last cond byte picked,
 * opt_pick.c, must read the byte again). */
static void warm_twin(const tcase *c, world *ww, const world *pr)
{
    tcase t = *c;
    t.null_ptr = t.null_data = -1, t.alias = ALIAS_NONE;
    for (int k = 0; k < 4; k++)
        t.dims_null[k] = 0;
    for (int i = 0; i < 2; i++) {
        copy_world(ww, pr);
        for (size_t j = 0; j < ww->size[C]; j++)
            ww->buf[C][j] = !ww->buf[C][j];
        bind(&t, ww);
        opt_impl()->execute(&ww->t[C], &ww->t[T], &ww->t[E], t.b, &ww->t[D]);
    }
}

/* One opt call on a fresh copy of the case's bytes, compared with the
 * reference's; 1 on a mismatch (printed). */
static int opt_once(const tcase *c, const world *pr, world *wo,
                    const world *wr, const result *rr, const cfg *cf,
                    uint64_t idx, const char *desc)
{
    result ro;
    char msg[256];
    int bad = 0;

    copy_world(wo, pr);
    bind(c, wo);
    call(opt_impl(), c, wo, &ro);
    pthread_mutex_lock(&lock);
    total_runs++;
    valid_runs += rr->est == SEL_OK;
    by_status[rr->est >= 0 && rr->est < 8 ? rr->est : 7]++;
    if (differ(c, rr, &ro, wr, wo, msg, sizeof msg)) {
        bad = 1;
        if (++failures <= MAX_FAIL) {
            const int isa = cf ? cf->isa : opt_isa_active();
            const int th = cf ? cf->threads : opt_threads();
            fprintf(stderr, "difftest: FAIL case %llu [%s t%d]: %s\n  case: %s\n"
                    "  repro: %s --seed %llu --case %llu --isa %s --threads %d%s\n",
                    (unsigned long long)idx, opt_isa_name(isa), th, msg, desc, self,
                    (unsigned long long)seed, (unsigned long long)idx, opt_isa_name(isa), th,
                    cf ? "" : " --jobs 2 (it failed among concurrent callers)");
        }
    }
    pthread_mutex_unlock(&lock);
    return bad;
}

/* Case idx against every config (cfgs NULL: the current settings, for the
 * concurrent phase).  Returns the number of mismatches. */
static int check_case(uint64_t idx, const cfg *cfgs, int ncfg, int verbose)
{
    tcase c;
    world pr, wr, wo, ww;
    result rr;
    rng r = {seed ^ (idx + 7) * 0xa0761d6478bd642fu};
    char desc[512];
    int bad = 0;

    h_gen(seed, idx, &c);
    for (int k = 0; k < 4; k++)
        c.bytes[k] = data_bytes(&c, k);
    make_world(&c, &pr, &r, 1);
    make_world(&c, &wr, &r, 0);
    make_world(&c, &wo, &r, 0);
    make_world(&c, &ww, &r, 0);
    copy_world(&wr, &pr);
    bind(&c, &wr);
    describe(&c, desc, sizeof desc);
    if (verbose)
        fprintf(stderr, "case %llu: %s\n", (unsigned long long)idx, desc);
    call(ref_impl(), &c, &wr, &rr);
    if (verbose)
        fprintf(stderr, "  ref: infer %s, execute %s\n", sel_status_name(rr.ist),
                sel_status_name(rr.est));
    for (int i = 0; i < (cfgs ? ncfg : 1); i++) {
        if (cfgs) {
            opt_isa_force(cfgs[i].isa);
            opt_threads_force(cfgs[i].threads);
            tune(c.tuning);
        }
        warm_twin(&c, &ww, &pr);
        for (int rep = 0; rep < 2; rep++) /* warm, then again */
            bad += opt_once(&c, &pr, &wo, &wr, &rr, cfgs ? &cfgs[i] : NULL,
                            idx, desc);
    }
    free_world(&pr), free_world(&wr), free_world(&wo), free_world(&ww);
    return bad;
}

typedef struct job { uint64_t first, count; int j, jobs; } job;

static void *run_job(void *arg)
{
    const job *jb = (const job *)arg;
    for (uint64_t i = (uint64_t)jb->j; i < jb->count; i += (uint64_t)jb->jobs)
        check_case(jb->first + i, NULL, 0, 0);
    return NULL;
}

static int parse_list(const char *s, int *out, int max, int isa)
{
    int n = 0;
    char buf[128], *tok, *save = NULL;
    snprintf(buf, sizeof buf, "%s", s);
    for (tok = strtok_r(buf, ",", &save); tok && n < max; tok = strtok_r(NULL, ",", &save)) {
        int v = -1;
        if (isa) {
            for (int i = 0; i < OPT_ISA_COUNT; i++)
                if (strcmp(tok, opt_isa_name(i)) == 0)
                    v = i;
        } else {
            v = atoi(tok);
        }
        if (v < (isa ? 0 : 1)) {
            fprintf(stderr, "difftest: bad list item '%s'\n", tok);
            exit(2);
        }
        out[n++] = v;
    }
    return n;
}

int main(int argc, char **argv)
{
    uint64_t first = 0, count = 2000;
    int isas[OPT_ISA_COUNT], nisa = 0, thr[8] = {1, 2, 3}, nthr = 3, jobs = 1, one = 0;
    cfg cfgs[OPT_ISA_COUNT * 8];
    int ncfg = 0;

    self = argv[0];
    for (int i = 0; i < OPT_ISA_COUNT; i++)
        isas[nisa++] = i;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!v) {
            fprintf(stderr, "usage: %s [--seed S] [--first I] [--count N] [--case I] "
                    "[--isa a,b] [--threads 1,2,3] [--jobs J]\n", self);
            return 2;
        }
        i++;
        if (!strcmp(a, "--seed")) seed = strtoull(v, NULL, 0);
        else if (!strcmp(a, "--first")) first = strtoull(v, NULL, 0);
        else if (!strcmp(a, "--count")) count = strtoull(v, NULL, 0);
        else if (!strcmp(a, "--case")) first = strtoull(v, NULL, 0), count = 1, one = 1;
        else if (!strcmp(a, "--isa")) nisa = parse_list(v, isas, OPT_ISA_COUNT, 1);
        else if (!strcmp(a, "--threads")) nthr = parse_list(v, thr, 8, 0);
        else if (!strcmp(a, "--jobs")) jobs = atoi(v) < 1 ? 1 : atoi(v);
        else {
            fprintf(stderr, "%s: unknown option %s\n", self, a);
            return 2;
        }
    }
    for (int i = 0; i < nisa; i++) {
        if (!opt_isa_supported(isas[i])) {
            printf("difftest: skip %s: this CPU/OS cannot run it\n", opt_isa_name(isas[i]));
            continue;
        }
        for (int j = 0; j < nthr; j++)
            cfgs[ncfg++] = (cfg){isas[i], thr[j]};
    }
    if (jobs == 1) {
        for (uint64_t i = 0; i < count; i++)
            check_case(first + i, cfgs, ncfg, one);
    } else { /* concurrent callers: each config, cases spread over threads */
        pthread_t th[16];
        job jb[16];
        jobs = jobs > 16 ? 16 : jobs;
        for (int k = 0; k < ncfg; k++) {
            opt_isa_force(cfgs[k].isa);
            opt_threads_force(cfgs[k].threads);
            tune(1);
            for (int j = 0; j < jobs; j++) {
                jb[j] = (job){first, count, j, jobs};
                pthread_create(&th[j], NULL, run_job, &jb[j]);
            }
            for (int j = 0; j < jobs; j++)
                pthread_join(th[j], NULL);
        }
    }
    printf("difftest: seed %llu, cases %llu..%llu, %d configs, %d caller thread(s): "
           "%ld runs (%ld valid), %d mismatches\n", (unsigned long long)seed,
           (unsigned long long)first, (unsigned long long)(first + count - 1), ncfg, jobs,
           total_runs, valid_runs, failures);
    printf("difftest: reference statuses:");
    for (int s = 0; s <= SEL_ERR_NOMEM; s++)
        printf(" %s %ld", sel_status_name(s), by_status[s]);
    printf("\n");
    return failures != 0;
}
