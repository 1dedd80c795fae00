/* h_worker.h - running an untrusted implementation: a sandboxed worker
 * process per library (selcheck-worker) that calls it on buffers in an
 * arena shared with the judge only, and is restarted after a crash or hang.
 */
#ifndef H_WORKER_H
#define H_WORKER_H

#include <stddef.h>
#include <stdint.h>

#include "h_case.h"

/* The runs of one test.  END: every buffer ends at a PROT_NONE page;
 * START: every buffer begins right after one (zero-size data is NULL);
 * SHIFT: each buffer off alignment by its own amount (h_point.c), between
 * canary bytes; THREAD:
 * two copies executed at once from two threads (IO-THREADS-1); AGAIN (under
 * --fast): END once more, with the second poison. */
enum h_runkind { H_RUN_END, H_RUN_START, H_RUN_SHIFT, H_RUN_THREAD,
                 H_RUN_AGAIN };
#define H_RUNS_MAX 5
#define H_GUARDS_MAX 40

/* One tensor of a run as the worker passes it; data is an address in the
 * judge's mapping of the arena (the worker rebases it to its own). */
typedef struct h_jten {
    int32_t dtype, rank;
    int64_t *dims;      /* in the arena too, ending at a guard page */
    uint8_t *data;
    int null_tensor, null_dims;
} h_jten;

typedef struct h_jrun {
    int kind;
    h_jten t[H_NT];
} h_jrun;

typedef struct h_job {
    int32_t sup_dtype, sup_btype;  /* what supports() is asked */
    sel_broadcast b;
    int nruns;
    int concurrent;       /* the last two runs execute at once */
    /* An invalid case: dst takes the shape the implementation's infer
     * returned (if any), end-aligned in [spare_end - spare_cap, spare_end). */
    int dst_from_infer;
    uint8_t *spare_end;
    size_t spare_cap;
    int64_t *dst_dims_end;  /* room for SEL_MAX_RANK dims before it */
    int32_t *rank_out;
    int64_t *dims_out;    /* SEL_MAX_RANK entries, ending at a guard page */
    int nguards;
    uint8_t *guards[H_GUARDS_MAX];
    h_jrun run[H_RUNS_MAX];
} h_job;

/* Phases, so a crash or hang can say where it happened. */
enum { H_PH_IDLE, H_PH_SUPPORTS, H_PH_INFER, H_PH_EXEC0 };

/* What came back, after the judge checked it (h_wcheck.c). */
typedef struct h_jres {
    int supported;
    int infer_st;
    int32_t rank;
    int64_t dims[SEL_MAX_RANK];
    int nexec;                  /* runs executed (all unless a crash) */
    int exec_st[H_RUNS_MAX];
    /* The worker died or hung. */
    int died;                   /* 0, or 1 */
    int timeout;                /* seconds, when it was killed for a hang */
    int signo, fault, write;    /* fault: 1 si_addr is meaningful, 2 a general-
                                   protection fault (no address); write: 1 w, 0 r, -1 ? */
    uintptr_t addr;
    int exit_status;            /* -1 unless it exited */
    int phase;
    int timeout_ms;             /* the limit that expired (timeout: rounded up) */
    int syscall;                /* SIGSYS: the forbidden system call */
    int late;                   /* run + 1 whose dst a thread wrote after execute returned;
                                   -1: the previous test's */
    char bad[200];              /* set: the reply did not fit ("forged or corrupt") */
    char tamper[200];           /* set: a check after the calls failed */
    int guard;                  /* -1, or the guard page tamper[] is about */
    uintptr_t guard_addr;       /* its first changed byte (0: protection changed) */
    int unprotected;            /* guard + 1 the worker found readable, or 0 */
    char note[400];             /* a TAP comment to print before this test */
} h_jres;

typedef struct h_worker h_worker;

/* Starts a worker that dlopens lib.  NULL with a one-line message in err
 * when the library cannot be used (no file, no sel_get_impl, wrong ABI
 * version, crash or no answer within timeout seconds while loading). */
h_worker *h_worker_start(const char *lib, size_t arena, int timeout, char *err,
                         size_t n);
const char *h_worker_name(const h_worker *w);
const char *h_worker_path(const h_worker *w);
/* The shared arena: base and size.  h_layout.c places buffers in it. */
uint8_t *h_worker_arena(h_worker *w, size_t need);
size_t h_worker_page(void);
/* Sends the job and waits at most timeout seconds (less for a small job
 * once the implementation's speed is known: h_wtime.c). */
void h_worker_call(h_worker *w, const h_job *job, int timeout, h_jres *res);
void h_worker_stop(h_worker *w);

#endif
