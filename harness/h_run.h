/* h_run.h - the run as a whole: options, the loop over cases, profiles,
 * dtypes and implementations that prints TAP, and the --list and
 * --coverage reports.  h_main.c fills the options; h_run.c does the rest.
 */
#ifndef H_RUN_H
#define H_RUN_H

#include <stdint.h>

#include "h_case.h"
#include "h_worker.h"

#define H_MAX_IMPLS 16
#define H_MAX_GLOBS 64

typedef struct h_opts {
    const char *impls[H_MAX_IMPLS];
    int nimpl;
    const char *profile;            /* a name or "all" */
    const char *only[H_MAX_GLOBS], *skip[H_MAX_GLOBS];
    int nonly, nskip;
    int list, coverage, strict, fast, long_run;
    uint64_t seed;
    int timeout;
    char self[1024];                /* how the repro line runs selcheck */
} h_opts;

/* Everything loaded: the profiles run (sel), the suite, the workers. */
typedef struct h_world {
    h_profiles profiles;
    int sel[H_MAX_PROFILES], nsel;
    h_suite suite;
    h_worker *w[H_MAX_IMPLS];
    int nw;
} h_world;

int h_run_tap(const h_opts *o, h_world *w);
int h_run_list(const h_opts *o, h_world *w);
int h_run_coverage(const h_opts *o, h_world *w);

#endif
