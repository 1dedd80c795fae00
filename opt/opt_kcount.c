/* opt_kcount.c - test-only shim that counts which kernels a program really
 * ran, per ISA and thread setting, and prints one line per pair at exit.
 * Linked with -Wl,--wrap=opt_kernel (never into libselect_opt).
 *
 * opt_run looks its kernels up with opt_kernel(); the linker sends those
 * lookups here (__wrap_/__real_ are the names --wrap requires), and each
 * gets a trampoline that counts the call, then runs the real kernel.  A
 * differential test linked this way shows, besides its mismatch count,
 * that every kernel of every ISA it ran was reached (check-arm64: NEON
 * under qemu).  The thread setting is opt_threads() at call time.  With
 * OPT_KCOUNT_FILE set, counts add up over runs (slices of a long test).
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "opt.h"

#define KC_SLOTS 4 /* thread settings 1, 2, 3, 4 or more */
#define KC_W8 0
#define KC_W16 1
#define KC_W32 2
#define KC_W64 3

typedef struct kc_cell {
    atomic_ulong calls, streams, off_main;
} kc_cell;

static kc_cell cells[KC_SLOTS][OPT_ISA_COUNT][OPT_WIDTH_COUNT][OPT_K_COUNT];
static pthread_t main_thread;

__attribute__((constructor)) static void kc_start(void)
{
    main_thread = pthread_self();
}

static void kc_count(int isa, int wi, int kind, int nt)
{
    const int t = opt_threads();
    kc_cell *c = &cells[(t < KC_SLOTS ? t : KC_SLOTS) - 1][isa][wi][kind];
    atomic_fetch_add_explicit(&c->calls, 1, memory_order_relaxed);
    if (nt)
        atomic_fetch_add_explicit(&c->streams, 1, memory_order_relaxed);
    if (!pthread_equal(pthread_self(), main_thread))
        atomic_fetch_add_explicit(&c->off_main, 1, memory_order_relaxed);
}

/* One trampoline per kernel of the table, and a table of them laid out as
 * opt_dispatch.c's. */
#define KC_TRAMP(isa, bits, kind)                                            \
    static void kc_##isa##_##bits##_##kind(size_t n, const uint8_t *c,       \
                                           const void *t, const void *e,     \
                                           void *d, int nt)                  \
    {                                                                        \
        kc_count(OPT_ISA_##isa, KC_W##bits, OPT_K_##kind, nt);               \
        OPT_KERNEL_NAME(isa, bits, kind)(n, c, t, e, d, nt);                 \
    }
OPT_KERNELS(KC_TRAMP)
#undef KC_TRAMP

typedef struct kc_row {
    opt_kernel_fn *real, *tramp;
} kc_row;

#define KC_ROW(isa, bits, kind) \
    {OPT_KERNEL_NAME(isa, bits, kind), kc_##isa##_##bits##_##kind},
static const kc_row rows[] = {OPT_KERNELS(KC_ROW)};
#undef KC_ROW

opt_kernel_fn *__real_opt_kernel(int isa, int width, int kind);
opt_kernel_fn *__wrap_opt_kernel(int isa, int width, int kind);

opt_kernel_fn *__wrap_opt_kernel(int isa, int width, int kind)
{
    const kc_row *r = &rows[(isa * OPT_WIDTH_COUNT + width) * OPT_K_COUNT + kind];
    /* The trampoline must stand for the kernel dispatch would have given. */
    if (__real_opt_kernel(isa, width, kind) != r->real) {
        fprintf(stderr, "opt_kcount: table layout differs from opt_dispatch.c "
                "at isa %d width %d kind %d\n", isa, width, kind);
        abort();
    }
    return r->tramp;
}

static const char *const kind_names[] = {
#define KC_KN(k) #k,
    OPT_KIND_LIST(KC_KN)
#undef KC_KN
};

/* "kernels neon t2: 24/24 called (...)", then the kernels never called. */
static void kc_line(int slot, int isa)
{
    unsigned long calls = 0, streams = 0, off = 0;
    int hit = 0, w, k;
    char missing[512] = "";
    size_t len = 0;

    for (w = 0; w < OPT_WIDTH_COUNT; w++)
        for (k = 0; k < OPT_K_COUNT; k++) {
            kc_cell *c = &cells[slot][isa][w][k];
            const unsigned long n = atomic_load(&c->calls);
            calls += n, streams += atomic_load(&c->streams);
            off += atomic_load(&c->off_main);
            if (n)
                hit++;
            else if (len + 16 < sizeof missing)
                len += (size_t)snprintf(missing + len, sizeof missing - len,
                                        " x%d_%s", 8 << w, kind_names[k]);
        }
    printf("kernels %s t%d%s: %d/%d called (%lu calls, %lu with streams, "
           "%lu off the main thread)%s%s\n", opt_isa_name(isa), slot + 1,
           slot + 1 == KC_SLOTS ? "+" : "", hit,
           OPT_WIDTH_COUNT * OPT_K_COUNT, calls, streams, off,
           len ? "; never:" : "", missing);
}

/* OPT_KCOUNT_FILE: add the counts of earlier runs, save the sums. */
static void kc_accumulate(const char *path)
{
    FILE *f = fopen(path, "r");
    int s, i, w, k;
    unsigned long n[3];

    while (f && fscanf(f, "%d %d %d %d %lu %lu %lu", &s, &i, &w, &k, &n[0],
                       &n[1], &n[2]) == 7)
        if (s >= 0 && s < KC_SLOTS && i >= 0 && i < OPT_ISA_COUNT && w >= 0 &&
            w < OPT_WIDTH_COUNT && k >= 0 && k < OPT_K_COUNT) {
            kc_cell *c = &cells[s][i][w][k];
            atomic_fetch_add(&c->calls, n[0]);
            atomic_fetch_add(&c->streams, n[1]);
            atomic_fetch_add(&c->off_main, n[2]);
        }
    if (f)
        fclose(f);
    if (!(f = fopen(path, "w"))) {
        perror(path);
        return;
    }
    for (s = 0; s < KC_SLOTS; s++)
        for (i = 0; i < OPT_ISA_COUNT; i++)
            for (w = 0; w < OPT_WIDTH_COUNT; w++)
                for (k = 0; k < OPT_K_COUNT; k++) {
                    kc_cell *c = &cells[s][i][w][k];
                    if (atomic_load(&c->calls))
                        fprintf(f, "%d %d %d %d %lu %lu %lu\n", s, i, w, k,
                                atomic_load(&c->calls), atomic_load(&c->streams),
                                atomic_load(&c->off_main));
                }
    fclose(f);
}

/* A line for every (thread setting, ISA) that ran any kernel. */
__attribute__((destructor)) static void kc_report(void)
{
    const char *path = getenv("OPT_KCOUNT_FILE");
    if (path && *path)
        kc_accumulate(path);
    for (int s = 0; s < KC_SLOTS; s++)
        for (int isa = 0; isa < OPT_ISA_COUNT; isa++) {
            unsigned long any = 0;
            for (int w = 0; w < OPT_WIDTH_COUNT; w++)
                for (int k = 0; k < OPT_K_COUNT; k++)
                    any += atomic_load(&cells[s][isa][w][k].calls);
            if (any)
                kc_line(s, isa);
        }
    fflush(stdout);
}
