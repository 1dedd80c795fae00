/* opt_tuning.c - opt's size thresholds (opt_tuning in opt.h): the
 * defaults, measured (opt/README.md, "Threads and streams"), and the
 * settings tests and the bench use to move them.  Read by every call
 * that plans (opt_exec.c, opt_small.c, ...), so a read is a relaxed load
 * once the defaults are in.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#include "opt.h"

/* Defaults, measured on the development machine (opt/README.md): below
 * PARALLEL_MIN_DEFAULT bytes of output, waking a second thread costs more
 * than it saves; streams pay off once the call's footprint no longer fits
 * the last-level cache (nt_min defaults to the LLC size). */
#define PARALLEL_MIN_DEFAULT ((size_t)4 << 20)
#define CHUNK_MIN_DEFAULT ((size_t)256 << 10)
/* Rows with more output than this and no streams: the kernels' loops in
 * 256-bit halves (OPT_HALF, opt_avx512.c: 4x168:4x168:Nx1x1 i64, 0.67 ->
 * 0.90 of the yardstick at 28 MiB, 0.76 -> 0.93 at 16, 1.09 -> 0.89 at
 * 4 (512-bit stores win there), about even at 12).  Zen 4 only
 * (opt_cpu_split512): on Zen 5, with the blend's loads unfolded, the
 * 512-bit loop wins at every size (N = 3000, 16 MB: 0.62-0.69 in halves,
 * 0.93-0.95 without; 17x1x6x4x168:... i64 0.74-0.78 -> 0.82-0.83). */
#define HALF_MIN_DEFAULT ((size_t)12 << 20)
#define HALF_MIN_FULL512 SIZE_MAX

static atomic_size_t parallel_min, chunk_min, nt_min, half_min;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* The largest cache level Linux lists in sysfs ("32768K"); glibc's
 * sysconf(_SC_LEVEL3_CACHE_SIZE) is not used because under some
 * hypervisors it reports ten times the real size (320 MiB on the
 * development VM, whose L3 is 32 MiB).  32 MiB when nothing is listed. */
static size_t llc_bytes(void)
{
    size_t best = 0;
    for (int i = 0; i < 8; i++) {
        char path[80], unit = 0;
        unsigned long v = 0;
        FILE *f;
        snprintf(path, sizeof path,
                 "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        if (!(f = fopen(path, "r")))
            continue;
        if (fscanf(f, "%lu%c", &v, &unit) >= 1) {
            size_t b = (size_t)v << (unit == 'K' ? 10 : unit == 'M' ? 20 : 0);
            best = b > best ? b : best;
        }
        fclose(f);
    }
    return best ? best : (size_t)32 << 20;
}

static void store(const opt_tuning *t)
{
    atomic_store(&parallel_min, t ? t->parallel_min : PARALLEL_MIN_DEFAULT);
    atomic_store(&chunk_min, t ? t->chunk_min : CHUNK_MIN_DEFAULT);
    atomic_store(&nt_min, t ? t->nt_min : llc_bytes());
    atomic_store(&half_min, t ? t->half_min
                              : opt_cpu_split512() ? HALF_MIN_DEFAULT
                                                   : HALF_MIN_FULL512);
}

static atomic_int ready; /* 1 once defaults ran: skips pthread_once */

static void defaults(void)
{
    store(NULL);
    atomic_store_explicit(&ready, 1, memory_order_release);
}

static void init(void)
{
    if (!atomic_load_explicit(&ready, memory_order_acquire))
        pthread_once(&once, defaults);
}

void opt_tuning_set(const opt_tuning *t)
{
    init();
    store(t);
    opt_hit_settings(); /* records armed under the old tuning ran there */
}

void opt_tuning_get(opt_tuning *t)
{
    init();
    t->parallel_min = atomic_load_explicit(&parallel_min, memory_order_relaxed);
    t->chunk_min = atomic_load_explicit(&chunk_min, memory_order_relaxed);
    t->nt_min = atomic_load_explicit(&nt_min, memory_order_relaxed);
    t->half_min = atomic_load_explicit(&half_min, memory_order_relaxed);
}
