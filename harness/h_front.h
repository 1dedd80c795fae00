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
 * A script error becomes an entry with id NULL; the script may run at
 * most time_limit seconds.  -1 only when the file cannot be read. */
int h_front_run_file(const char *path, const char *stem, h_suite *s,
                     const h_profiles *p, int time_limit);

#endif
