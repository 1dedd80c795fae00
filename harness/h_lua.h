/* h_lua.h - what the files of the Lua front end (h_lua*.c) share: the
 * shims that let one source compile against Lua 5.4 and LuaJIT (the Lua
 * 5.1 API), the case{} context, and each file's entry points below.
 */
#ifndef H_LUA_H
#define H_LUA_H

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "h_case.h"
#include "h_front.h"

#if LUA_VERSION_NUM < 502
#define H_LUAJIT 1
#define lua_rawlen(L, i) lua_objlen(L, (i))
#define lua_pushglobaltable(L) lua_pushvalue(L, LUA_GLOBALSINDEX)
#define h_lua_isinteger(L, i) 0
#else
#define H_LUAJIT 0
#define h_lua_isinteger(L, i) lua_isinteger(L, (i))
#endif

/* What case{} needs, kept as the C closure's upvalue. */
typedef struct h_lua_ctx {
    h_suite *suite;
    const h_profiles *profiles;
    const char *file, *stem;
    size_t first; /* index of the file's first entry in the suite */
    int keep;     /* a case holds a function: the state stays open */
    int reading;  /* inside case{}: another case{} is refused */
} h_lua_ctx;

/* The case{} function: reads its table into a new suite entry.  Only
 * while its script loads (h_lua_loading is its context): a fill or check
 * function that calls it gets an error. */
int h_lua_case(lua_State *L);
extern h_lua_ctx *h_lua_loading;

/* h_lua_limit.c: a state whose allocator refuses to hold more than
 * H_LUA_MEM_LIMIT bytes (closed with h_lua_close); lua_pcall under the
 * time limit in seconds of the calling thread's CPU time (4 x that of
 * wall time backs it up), with the same stack-overflow messages in both
 * front ends: what ("script PATH", "fill.x of file:id[dtype]") names it
 * in the messages, and if it hangs where no hook stops it (a C function,
 * a compiled loop) selcheck bails out.  h_lua_call: the same with
 * h_lua_call_limit, the limit of the script that made the function. */
#define H_LUA_MEM_LIMIT ((size_t)1 << 28)
lua_State *h_lua_newstate(void);
void h_lua_close(lua_State *L);
int h_lua_pcall(lua_State *L, int nargs, int nresults, int seconds,
                const char *what);
int h_lua_call(lua_State *L, int nargs, int nresults, const char *what);
extern int h_lua_call_limit;
/* Runs run(arg) (a script's top level; it returns its error message or
 * NULL) in a forked child first, quiet, killed past seconds + 2 of its
 * CPU time (or 4 x that of wall time): 1 with a message in err when it
 * ran past its limit (then the script is not loaded here, and a C
 * function stuck at top level costs the script, not the run); 0
 * otherwise. */
int h_lua_probe(const char *path, int seconds, const char *(*run)(void *),
                void *arg, char *err, size_t n);

/* h_lua_buf.c: the buffer objects of fill and check functions.  open:
 * once per state, before the script runs; push: a buffer over b named
 * by slot (H_T_*); close: every buffer pushed since stops working (a
 * script that kept one gets an error, not freed memory); rand: pushes
 * t.rand seeded with seed. */
void h_lua_buf_open(lua_State *L);
void h_lua_buf_push(lua_State *L, const h_fbuf *b, int slot, int writable);
void h_lua_buf_close(lua_State *L);
void h_lua_rand_push(lua_State *L, uint64_t seed);

/* h_lua_fill.c: the fill and check fields of case{}. */
int h_lua_get_fill(lua_State *L, int idx, h_case *c, h_lua_ctx *x);
int h_lua_get_check(lua_State *L, int idx, h_case *c, h_lua_ctx *x);

/* h_lua_read.c: readers of the value at stack index idx (absolute).  Each
 * returns 0, or -1 after h_case_fail(c, ...) naming `what`. */
char *h_lua_dupstr(const char *s);
/* Only keys of `known` (NULL-terminated) in the record at idx. */
int h_lua_keys(lua_State *L, int idx, const char *const *known,
               const char *what, h_case *c);
/* Length of an array, or -1 when the table has other keys or holes. */
long h_lua_array_len(lua_State *L, int idx);
int h_lua_num(lua_State *L, int idx, double *out, h_case *c,
              const char *what);
int h_lua_lit(lua_State *L, int idx, h_lit *l, h_case *c, const char *what);
int h_lua_lits(lua_State *L, int idx, h_lits *out, h_case *c,
               const char *what);
int h_lua_int(lua_State *L, int idx, int64_t *out, h_case *c,
              const char *what);
int h_lua_dims(lua_State *L, int idx, h_shape *sh, h_case *c,
               const char *what);
int h_lua_shape(lua_State *L, int idx, h_shape *sh, h_case *c,
                const char *what);
int h_lua_shapes(lua_State *L, int idx, h_case *c);
int h_lua_dtype(lua_State *L, int idx, int32_t *out, h_case *c,
                const char *what);
/* The compound fields of case{}: expect (one, or per cond rule), dst
 * ({dtype=, dims=}), dtype_override ({cond=, x=, y=}). */
int h_lua_expect(lua_State *L, int idx, h_case *c);
int h_lua_dst(lua_State *L, int idx, h_case *c);
int h_lua_override(lua_State *L, int idx, h_case *c);
/* An array of strings (or one string); for the profile loader too: 0, or
 * -1 with a message in err. */
int h_lua_strings(lua_State *L, int idx, char ***out, int *n, char *err,
                  size_t errn);

#endif
