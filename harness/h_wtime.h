/* h_wtime.h - how long the judge waits for one job: scaled from the job's
 * bytes and the implementation's measured speed, shortened for a size
 * class after a few hangs there, never more than --timeout (issue 13).
 */
#ifndef H_WTIME_H
#define H_WTIME_H

#include <stdint.h>

#define H_WT_CLASSES 66
#define H_WT_FLOOR_MS 1000  /* a scaled limit is never shorter */
#define H_WT_SHORT_MS 100   /* ... unless its class hung H_WT_HANGS times */
#define H_WT_HANGS 3
#define H_WT_SMALL 65536    /* jobs below this are one size class */

typedef struct h_wtime {
    int n;              /* calls that completed */
    double over_ms;     /* the slowest small call (below 1 MiB), first excepted */
    double ms_per_mib;  /* the slowest large call, per MiB (0: none yet) */
    int hangs[H_WT_CLASSES];
    char told[H_WT_CLASSES];  /* the shortening of this class was announced */
} h_wtime;

/* 0 for a job below H_WT_SMALL bytes, else 1 + floor(log2(bytes)). */
int h_wtime_class(uint64_t bytes);
/* The limit in milliseconds for a job of bytes; *shortened: its class hung. */
int h_wtime_limit(const h_wtime *t, uint64_t bytes, int cap_s, int *shortened);
void h_wtime_done(h_wtime *t, uint64_t bytes, double ms);
void h_wtime_hang(h_wtime *t, uint64_t bytes);

#endif
