/* h_results.h - every test's result kept for the end of the run: the
 * diagnosis (clusters by symptom, h_cluster.c), JUnit (h_junit.c), the
 * HTML report and matrix (h_report.c) and the results file (h_results.c).
 */
#ifndef H_RESULTS_H
#define H_RESULTS_H

#include <stdio.h>

#include "h_judge.h"
#include "h_run.h"

/* What a test shows, for finding what the failing tests of a cluster
 * share that the passing ones lack (h_cluster.c names each). */
enum h_feat {
    H_F_RANK0_IN, H_F_RANK0_OUT, H_F_ODD_OUT, H_F_EMPTY_OUT, H_F_ONE_OUT,
    H_F_BIG_OUT, H_F_SZ1, H_F_SZ2, H_F_SZ4, H_F_SZ8, H_F_FLOAT, H_F_INT,
    H_F_NOT16, H_F_SMALL,
    H_F_NONE, H_F_NUMPY, H_F_PDPD, H_F_BIDIR_ONLY, H_F_COND_BC, H_F_XY_BC,
    H_F_ANY_BC,
    H_F_RANK_DIFF, H_F_COND_RANK_GT, H_F_INVALID, H_F_BEYOND, H_F_CONCURRENT,
    H_F_COND_NON01, H_F_NAN, H_F_NEGZERO, H_F_ALIAS, H_F_NULL, H_F_AXIS,
    H_F_NTEST,
    /* Only failures have these: where dst went wrong, in which run. */
    H_F_LAST_ONLY = H_F_NTEST, H_F_TAIL, H_F_FIRST_ONLY, H_F_ALL_WRONG,
    H_F_NEVER, H_F_OTHER_BRANCH, H_F_RUN_END, H_F_RUN_START, H_F_RUN_SHIFT,
    H_F_RUN_THREADS,
    H_NFEAT
};

/* One test (one TAP line).  Strings are owned by the record. */
typedef struct h_rec {
    long n;                  /* TAP test number */
    int outcome;             /* enum h_outcome */
    char *impl, *profile, *file, *addr, *dtype, *mode, *rules, *desc;
    char *reason;            /* failure message, SKIP or TODO reason, or "" */
    char *diag;              /* failures: the YAML body, repro included */
    char *repro;             /* failures: the repro command */
    double secs;             /* time the test took, roughly */
    long long size;          /* bytes of the inputs and dst (smallest repro) */
    unsigned char feat[H_NFEAT];
    int cluster;             /* index in h_runset.cl, or -1 */
} h_rec;

/* A cluster: failures of one implementation with the same symptom. */
typedef struct h_cluster {
    char impl[128];
    char kind[300];          /* the class of failure (wrong bytes, crash..) */
    char kinds[600];         /* its messages, numbers taken out, counted */
    char name[600];          /* kind and shape, one line */
    char common[1200];       /* what the failing share that the passing lack */
    char pattern[400];       /* what every failure shows in dst */
    long count;
    long repro;              /* record index of the smallest failing test */
} h_cluster;

#define H_MAX_SET 48
#define H_KEEP_DIAGS 20000  /* failures whose YAML block is kept */

/* One run (or one results file read back). */
typedef struct h_runset {
    char *key[H_MAX_SET], *val[H_MAX_SET];  /* settings, in order */
    int nset;
    h_rec *v;
    size_t n, cap;
    h_cluster *cl;
    int ncl;
    char **ruleids;          /* spec order, borrowed */
    int nrules;
} h_runset;

/* The output options (h_main.c). */
typedef struct h_outs {
    const char *junit, *report, *results;
    const char *version;     /* selcheck's, for the settings; or NULL */
} h_outs;

/* h_results.c: the hooks h_tap.c and h_run.c call. */
void h_results_begin(const h_opts *o, const h_world *w, long plan);
void h_results_case(const char *addr);
/* Every TAP line makes a record (h_tap.c); after a test's line h_run.c
 * adds what the point shows (its address, rules, features). */
void h_results_line(int outcome, const char *desc, const char *reason,
                    const h_diag *d);
void h_results_add(const h_point *pt, const char *impl, const h_verdict *v);
/* The files to write at the end (h_main.c, before the run). */
void h_results_outputs(const h_outs *outs);
/* Prints the diagnosis as TAP comments, writes the files asked for. */
void h_results_end(void);
/* 1 when a file asked for could not be written (exit status 2). */
int h_results_failed(void);
/* h_runset.c: a run as data, and the results file. */
void h_runset_set(h_runset *rs, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
const char *h_runset_get(const h_runset *rs, const char *key);
int h_results_write(const h_runset *rs, FILE *f);
/* Reads a results file into rs (appending); 0, or -1 with err set. */
int h_results_read(const char *path, h_runset *rs, char *err, size_t n);
void h_runset_free(h_runset *rs);
char *h_strdup(const char *s);
int h_rec_cites(const h_rec *r, const char *rule);

/* h_cluster.c */
void h_cluster_run(h_runset *rs);
void h_cluster_tap(const h_runset *rs);
/* "u8, f16" etc.: the distinct values of one field over a cluster's
 * failures (field: 0 dtype, 1 mode, 2 profile), or its rules in spec
 * order (h_cluster_rules). */
void h_cluster_values(const h_runset *rs, int c, int field, char *out,
                      size_t n);
void h_cluster_rules(const h_runset *rs, int c, char *out, size_t n);
const char *h_outcome_word(int outcome);

/* s as XML/HTML text or attribute value (&<>" escaped). */
void h_xml_text(FILE *f, const char *s);
/* h_junit.c, h_report.c: 0, or -1 with a message on stderr. */
int h_junit_write(const h_runset *rs, const char *path);
int h_report_write(const h_runset *rs, const char *path);
int h_report_matrix(h_runset *runs, int nruns, const char *path);

/* h_progress.c: a status line on stderr, only when it is a terminal. */
void h_progress_begin(long total);
void h_progress_case(const char *addr);
void h_progress_result(int outcome);
void h_progress_end(void);

#endif
