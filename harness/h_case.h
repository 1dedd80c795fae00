/* h_case.h - the case model: what a case script declares (cases/README.md),
 * the profiles of spec/profiles.lua, and the suite that collects both.
 * Filled by a Lua front end (h_lua*.c), checked and used by the C core.
 */
#ifndef H_CASE_H
#define H_CASE_H

#include <stddef.h>
#include <stdint.h>

#include "select.h"

/* Ranks above SEL_MAX_RANK exist to test SHAPE-RANK-1.  A shape stores
 * H_RANK_CAP dims; a raw {rank = N, fill = F} request may go up to
 * H_RANK_MAX, every dim past H_RANK_CAP being F.  Larger is a script error. */
#define H_RANK_CAP 16
#define H_RANK_MAX 1024
#define H_MAX_PROFILES 16

/* A literal from a case file: a number (held as the double both Lua
 * front ends agree on), a hex string (raw bits) or a Lua boolean. */
enum { H_LIT_NUM = 1, H_LIT_HEX, H_LIT_BOOL };
typedef struct h_lit {
    int kind;
    double num;
    uint64_t bits; /* H_LIT_HEX: the pattern; H_LIT_BOOL: 0 or 1 */
} h_lit;

typedef struct h_lits {
    size_t n;
    h_lit *v;
} h_lits;

/* A shape as it reaches an implementation.  raw: written as a {dims=..}
 * or {rank=..} request, so it may be invalid on purpose. */
typedef struct h_shape {
    int32_t rank;
    int64_t dims[H_RANK_CAP];
    int64_t fill;
    int raw;
} h_shape;

/* H_V_SLEEF: "sleef:log" etc., operands made by real math (h_sleef.h). */
enum h_vclass { H_V_NORMAL = 1, H_V_SPECIAL, H_V_NAN, H_V_PATTERNS, H_V_RAMP,
                H_V_LITERAL, H_V_SLEEF };
typedef struct h_values {
    int cls;
    h_lits lit;       /* H_V_LITERAL */
    const char *fn;   /* H_V_SLEEF: a name of h_sleef_names() */
} h_values;

enum h_cpat { H_C_ALL_TRUE = 1, H_C_ALL_FALSE, H_C_ALTERNATING, H_C_RANDOM,
              H_C_RUNS, H_C_BYTES, H_C_LITERAL };

/* One literal expectation.  status 0 with H_E_INVALID: any error. */
enum h_ekind { H_E_NONE = 0, H_E_SHAPE, H_E_DATA, H_E_INVALID };
typedef struct h_expect {
    int kind;
    int status;
    h_shape shape;
    h_lits data;
} h_expect;

/* Tensor slots, in the order of the ABI's arguments. */
enum { H_T_COND = 0, H_T_X = 1, H_T_Y = 2, H_T_DST = 3, H_NT = 4 };
enum h_alias { H_A_NONE = 0, H_A_X, H_A_Y, H_A_PARTIAL };
/* null = "cond" | "x.dims" | ...: which pointer of which tensor. */
enum h_nullwhat { H_N_NONE = 0, H_N_TENSOR, H_N_DIMS, H_N_DATA };

typedef struct h_case {
    const char *file; /* path as given (shared, owned by the suite) */
    const char *stem; /* address prefix: the file name without .lua */
    int line;         /* of the case{} call */
    char *id;
    char **rules;
    int nrules;
    int has_shapes;
    h_shape shape[3];        /* cond, x (then), y (else) */
    int32_t mode;            /* sel_broadcast_type */
    int32_t axis;
    int has_btype;           /* btype = raw value passed instead of mode */
    int32_t btype;
    int32_t *dtypes;         /* NULL: the profile's */
    int ndtypes;
    unsigned profiles;       /* bit i: profile i; 0: every profile */
    int cond;                /* h_cpat */
    h_lits cond_lit;
    h_values val[2];         /* x, y */
    int per_rule;            /* expect given as {oneway=, bidirectional=} */
    h_expect expect[2];      /* [0] one-way cond, [1] bidirectional */
    int offset;              /* -1: none */
    int alias;               /* h_alias */
    int null_t, null_what;   /* H_T_*, h_nullwhat */
    int has_dst_dtype, has_dst_dims;
    int32_t dst_dtype;
    h_shape dst_shape;
    int has_override[3];
    int32_t override_dt[3];
    int concurrent;
    int has_conc_shapes;     /* concurrent = "c:t:e": the second thread's */
    h_shape conc_shape[3];
    int reuse;               /* a second call at the same addresses */
    uint32_t flags;          /* extra sel_broadcast.flags bits */
    /* fill = {cond=, x=, y=} and check: functions of the script, as
     * handles of the front end that runs them (h_front.h); 0: none.
     * front: the file's interpreter, kept open while its cases run. */
    void *front;
    int fill[3];             /* H_T_COND, H_T_X, H_T_Y */
    int check;
    char *error; /* set: this entry is a script error, "file:line: msg" */
} h_case;

typedef struct h_profile {
    char name[32];
    unsigned modes;     /* bit (1 << sel_broadcast_type) */
    int bidirectional;  /* cond rule: BC-NUMPY-5 rather than BC-NUMPY-3 */
    uint32_t dtypes;    /* bit (1 << sel_dtype) */
    char **ext;         /* extension rule ids */
    int next;
} h_profile;

typedef struct h_profiles {
    h_profile v[H_MAX_PROFILES];
    int n;
} h_profiles;

/* Every case of every file, in file order; file-level script errors are
 * entries with id NULL and error set. */
typedef struct h_suite {
    h_case *v;
    size_t n, cap;
    char **ruleids; /* from spec/select.md */
    int nrules;
} h_suite;

/* h_case.c */
void *h_realloc(void *p, size_t n); /* exits with status 2 when out of memory */
h_case *h_suite_add(h_suite *s, const char *file, const char *stem, int line);
void h_suite_error(h_suite *s, const char *file, const char *stem,
                   const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void h_case_fail(h_case *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
int h_parse_shapes(const char *s, h_shape out[3], char *err, size_t n);
int h_parse_hex(const char *s, uint64_t *out);
void h_shape_str(const h_shape *s, char *buf, size_t n);
int h_shape_count(const h_shape *s, int64_t *count);
int64_t h_dim(const h_shape *s, int32_t i);
/* The rank (>= 0) dims of s in a new array (at least one entry). */
int64_t *h_dims_new(const h_shape *s);
void h_case_check(h_suite *s, h_case *c, const h_profiles *p,
                  size_t first_of_file);
int h_case_is_ext(const h_profiles *p, const char *rule);
int h_case_cites(const h_case *c, const char *rule);
int h_profile_has_ext(const h_profile *p, const char *rule);
int h_load_rules(const char *md_path, h_suite *s, char *err, size_t n);
/* Removes the last case (one whose reading failed), freeing what it owns. */
void h_suite_drop_last(h_suite *s);
int32_t h_mode_parse(const char *s);
int h_status_parse(const char *s);

#endif
