/* h_wtime.c - the limit for one job: twenty times what the slowest calls
 * so far predict for its bytes (at least a second), a tenth of a second
 * for a size class that hung three times, and --timeout as the cap.
 */
#include "h_wtime.h"

#define MIB (1024.0 * 1024.0)

int h_wtime_class(uint64_t bytes)
{
    int c = 0;
    if (bytes < H_WT_SMALL)
        return 0; /* the call's own cost dominates: one cluster */
    while (bytes) {
        c++;
        bytes >>= 1;
    }
    return c;
}

static double predict(const h_wtime *t, uint64_t bytes)
{
    return t->over_ms + (double)bytes / MIB * t->ms_per_mib;
}

int h_wtime_limit(const h_wtime *t, uint64_t bytes, int cap_s, int *shortened)
{
    double cap = cap_s * 1000.0, lim = cap, p = predict(t, bytes);

    *shortened = 0;
    if (t->n >= 8 && (bytes < MIB || t->ms_per_mib > 0)) {
        lim = 20 * p < H_WT_FLOOR_MS ? H_WT_FLOOR_MS : 20 * p;
        if (t->hangs[h_wtime_class(bytes)] >= H_WT_HANGS) {
            lim = 5 * p < H_WT_SHORT_MS ? H_WT_SHORT_MS : 5 * p;
            *shortened = 1;
        }
    }
    return (int)(lim < cap ? lim : cap);
}

void h_wtime_done(h_wtime *t, uint64_t bytes, double ms)
{
    if (t->n++ == 0)
        return; /* the first call pays for the library's lazy setup */
    if (bytes < MIB && ms > t->over_ms)
        t->over_ms = ms;
    if (bytes >= MIB && ms / ((double)bytes / MIB) > t->ms_per_mib)
        t->ms_per_mib = ms / ((double)bytes / MIB);
}

void h_wtime_hang(h_wtime *t, uint64_t bytes)
{
    t->hangs[h_wtime_class(bytes)]++;
}
