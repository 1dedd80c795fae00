/* h_front.h - the interface between the C core and a script front end.
 * h_lua.c implements it twice over (Lua 5.4 for selcheck, LuaJIT for
 * selcheck-jit); the core never sees a Lua type.
 */
#ifndef H_FRONT_H
#define H_FRONT_H

#include "h_case.h"

/* "Lua 5.4" or "LuaJIT 2.1", for --help and logs (never for TAP). */
const char *h_front_name(void);

/* Reads spec/profiles.lua (a sandboxed script returning an array).
 * 0, or -1 with a one-line message in err. */
int h_front_profiles(const char *path, h_profiles *out, char *err, size_t n);

/* Runs one case script in a fresh sandbox, appending each case{} to s.
 * A script error becomes an entry with id NULL; the script may use at
 * most time_limit seconds of CPU time.  long_run (--long) is the
 * script's global `long_run`, which turns on enumerations too long for
 * make check.
 * -1 only when the file cannot be read. */
int h_front_run_file(const char *path, const char *stem, h_suite *s,
                     const h_profiles *p, int time_limit, int long_run);

/* A tensor as a case's fill or check function sees it: n elements of
 * dtype at data (cases/README.md, "Custom data"). */
typedef struct h_fbuf {
    void *data;
    size_t n;
    int32_t dtype;
    const h_shape *shape;
} h_fbuf;

/* Runs the case's fill function for input k (H_T_COND, H_T_X, H_T_Y) on
 * b[k], the other inputs read-only; dtype: the test's then/else dtype;
 * seed: for t.rand.  0, or -1 with the script's message in err. */
int h_front_fill(const h_case *c, int k, h_fbuf b[3], int32_t dtype,
                 uint64_t seed, char *err, size_t n);

/* Runs the case's check on dst b[3], the inputs b[0..2] read-only: 1 when
 * it returns true, 0 when false (its message in msg), -1 on an error (the
 * message in msg). */
int h_front_check(const h_case *c, h_fbuf b[4], int32_t dtype,
                  uint64_t seed, char *msg, size_t n);

#endif
