/* h_mem.c - what one test needs in memory, from its shapes alone, against
 * what this machine can give: a test that would not fit is refused with
 * a message (a SKIP naming both figures), not run into the OOM killer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "h_point.h"

/* Below this a test is not worth reading /proc for. */
#define H_MEM_SMALL ((size_t)64 << 20)

size_t h_mem_need(const h_point *pt, int quick)
{
    size_t in = 0, dst = pt->t[H_T_DST].bytes, runs = quick ? 2 : 5;
    size_t per_run, pages = (size_t)64 << 10;
    int k;

    for (k = 0; k < 3; k++)
        in += pt->t[k].bytes;
    /* the inputs, their copies for the oracle (then/else, dst), the
     * expected bytes; the arena holds every run's buffers with guard
     * pages and slack; a reuse case holds a second test like it. */
    per_run = in + dst + pages;
    return (in + (in + dst) + dst + runs * per_run) *
           (pt->c->reuse ? 2 : 1);
}

/* Bytes this process may still take: MemAvailable, and the address-space
 * limit less what is mapped already.  SELCHECK_MEM_AVAILABLE (MiB) stands
 * in for both, so the refusal can be tested anywhere (harness/t/run.sh). */
static size_t available(void)
{
    size_t avail = (size_t)-1, kb, pages;
    char line[200];
    struct rlimit rl;
    const char *env = getenv("SELCHECK_MEM_AVAILABLE");
    FILE *f;

    if (env && *env)
        return (size_t)strtoull(env, NULL, 10) << 20;
    f = fopen("/proc/meminfo", "r");

    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %zu kB", &kb) == 1)
            avail = kb << 10;
    if (f)
        fclose(f);
    if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        (f = fopen("/proc/self/statm", "r")) != NULL) {
        size_t lim = (size_t)rl.rlim_cur, used = 0;
        if (fscanf(f, "%zu", &pages) == 1)
            used = pages * 4096;
        fclose(f);
        lim = lim > used ? lim - used : 0;
        avail = lim < avail ? lim : avail;
    }
    return avail;
}

int h_mem_refuse(h_point *pt, int quick)
{
    size_t need = h_mem_need(pt, quick), have;

    if (need < H_MEM_SMALL || need <= (have = available()))
        return 0;
    snprintf(pt->refused, sizeof pt->refused, "needs about %zu MiB of "
             "memory, %zu MiB available here (h_mem.c): not run", need >> 20,
             have >> 20);
    return 1;
}
