/* h_lua.c - the Lua front end: a sandboxed state per script, case{}
 * registration, the profile loader.  The same file builds selcheck (Lua
 * 5.4) and selcheck-jit (LuaJIT); h_lua.h holds the few differences.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "h_dtype.h"
#include "h_front.h"
#include "h_lua.h"

#if H_LUAJIT
#include <luajit.h>
#endif

const char *h_front_name(void)
{
#if H_LUAJIT
    return LUAJIT_VERSION;
#else
    return LUA_RELEASE;
#endif
}

/* print goes to stderr: stdout carries TAP only. */
static int l_print(lua_State *L)
{
    int i, n = lua_gettop(L);

    for (i = 1; i <= n; i++) {
        lua_getglobal(L, "tostring");
        lua_pushvalue(L, i);
        lua_call(L, 1, 1);
        fprintf(stderr, "%s%s", i > 1 ? "\t" : "", lua_tostring(L, -1));
        lua_pop(L, 1);
    }
    fputc('\n', stderr);
    return 0;
}

/* load(chunk [, name [, mode [, env]]]) for text chunks only: binary
 * chunks bypass the parser and can break the VM. */
static int l_load(lua_State *L)
{
    size_t len;
    const char *s = luaL_checklstring(L, 1, &len);
    const char *name = luaL_optstring(L, 2, "=(load)");

    if (len > 0 && s[0] == '\033') {
        lua_pushnil(L);
        lua_pushstring(L, "load: binary chunks are not allowed");
        return 2;
    }
    if (luaL_loadbuffer(L, s, len, name) != 0) {
        lua_pushnil(L);
        lua_insert(L, -2);
        return 2;
    }
    if (!lua_isnoneornil(L, 4)) {
        lua_pushvalue(L, 4);
#if H_LUAJIT
        lua_setfenv(L, -2);
#else
        if (!lua_setupvalue(L, -2, 1))
            lua_pop(L, 1);
#endif
    }
    return 1;
}

static void open_lib(lua_State *L, const char *name, lua_CFunction f)
{
#if H_LUAJIT
    lua_pushcfunction(L, f);
    lua_pushstring(L, name);
    lua_call(L, 1, 0);
#else
    luaL_requiref(L, name, f, 1);
    lua_pop(L, 1);
#endif
}

static void set_nil(lua_State *L, const char *table, const char *name)
{
    if (table) {
        lua_getglobal(L, table);
        lua_pushnil(L);
        lua_setfield(L, -2, name);
        lua_pop(L, 1);
    } else {
        lua_pushnil(L);
        lua_setglobal(L, name);
    }
}

/* base (without dofile, loadfile, binary load), string, table, math
 * (without random: the harness seeds all randomness); no io, os,
 * package, debug, coroutine (LuaJIT's base library has it, Lua 5.4's does
 * not: the two sandboxes are the same). */
static lua_State *sandbox(void)
{
    static const char *const gone[] = {"dofile", "loadfile", "loadstring",
                                       "require", "module", "newproxy",
                                       "collectgarbage", "gcinfo",
                                       "coroutine", NULL};
    lua_State *L = h_lua_newstate();
    int i;

    if (!L) {
        fprintf(stderr, "selcheck: cannot create a Lua state\n");
        exit(2);
    }
    open_lib(L, "_G", luaopen_base);
    open_lib(L, LUA_STRLIBNAME, luaopen_string);
    open_lib(L, LUA_TABLIBNAME, luaopen_table);
    open_lib(L, LUA_MATHLIBNAME, luaopen_math);
#if H_LUAJIT
    /* Opening the jit library is what sets the compiler up (CPU features,
     * optimisations); fill and check functions run compiled (h_lua_call).
     * The script loads with it off: hooks do not run inside compiled
     * traces, and the top level of a script is small.  Scripts do not
     * get the jit table. */
    open_lib(L, LUA_JITLIBNAME, luaopen_jit);
    set_nil(L, NULL, "jit");
    luaJIT_setmode(L, 0, LUAJIT_MODE_ENGINE | LUAJIT_MODE_OFF);
#endif
    for (i = 0; gone[i]; i++)
        set_nil(L, NULL, gone[i]);
    set_nil(L, "math", "random");
    set_nil(L, "math", "randomseed");
    set_nil(L, "string", "dump");
    lua_register(L, "print", l_print);
    lua_register(L, "load", l_load);
    return L;
}

/* A regular file only: opening a FIFO for reading waits for a writer,
 * and a device may never end.  NULL with *why set on a refusal. */
static char *read_file(const char *path, size_t *len, const char **why)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    char *buf = NULL;
    size_t cap = 0, n = 0;
    ssize_t got;
    struct stat st;

    *why = "cannot read the file";
    if (fd < 0)
        return NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        *why = "not a regular file (a FIFO, device or directory): refused";
        close(fd);
        return NULL;
    }
    do {
        if (n == cap)
            buf = h_realloc(buf, cap = cap ? cap * 2 : 65536);
        got = read(fd, buf + n, cap - n);
        n += got > 0 ? (size_t)got : 0;
    } while (got > 0);
    close(fd);
    if (got < 0) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

/* Loads and runs path as a text chunk named "@path" (so messages read
 * "path:line: ..."); leaves its first result on the stack.  0 or -1 with
 * the message on the stack. */
static int run_chunk(lua_State *L, const char *path, int nresults,
                     int seconds)
{
    size_t len;
    const char *why;
    char *buf = read_file(path, &len, &why);
    char name[1024];
    int st;

    if (!buf) {
        lua_pushfstring(L, "%s: %s", path, why);
        return -1;
    }
    snprintf(name, sizeof name, "@%s", path);
    if (len > 0 && buf[0] == '\033') {
        free(buf);
        lua_pushfstring(L, "%s: binary chunks are not allowed", path);
        return -1;
    }
    st = luaL_loadbuffer(L, buf, len, name);
    free(buf);
    snprintf(name, sizeof name, "script %s", path);
    if (st == 0)
        st = h_lua_pcall(L, 0, nresults, seconds, name);
    if (st != 0 && !lua_isstring(L, -1)) {
        lua_pop(L, 1);
        lua_pushfstring(L, "%s: error object is not a string", path);
    }
    return st == 0 ? 0 : -1;
}

typedef struct load_args {
    const char *path, *stem;
    h_suite *s;
    const h_profiles *p;
    int time_limit, long_run;
} load_args;

/* Loads a script into the suite; its error message, or NULL. */
static const char *load(void *arg)
{
    load_args *a = arg;
    const char *path = a->path, *stem = a->stem;
    h_suite *s = a->s;
    int time_limit = a->time_limit;
    const char *err = NULL;
    lua_State *L;
    h_lua_ctx ctx;

    L = sandbox();
    h_lua_buf_open(L);
    h_lua_call_limit = time_limit;
    memset(&ctx, 0, sizeof ctx);
    ctx.suite = s;
    ctx.profiles = a->p;
    ctx.file = path;
    ctx.stem = stem;
    ctx.first = s->n;
    h_lua_loading = &ctx;
    lua_pushlightuserdata(L, &ctx);
    lua_pushcclosure(L, h_lua_case, 1);
    lua_setglobal(L, "case");
    lua_pushboolean(L, a->long_run);
    lua_setglobal(L, "long_run");
    if (run_chunk(L, path, 0, time_limit) != 0) {
        const char *msg = lua_tostring(L, -1);
        /* Lua names the chunk "path:line:"; keep that as the address. */
        h_suite_error(s, path, stem, "%s", msg);
        err = s->v[s->n - 1].error;
    }
    h_lua_loading = NULL;
    if (!ctx.keep) /* else the file's cases call into it (h_lua_fill.c) */
        h_lua_close(L);
    return err;
}

int h_front_run_file(const char *path, const char *stem, h_suite *s,
                     const h_profiles *p, int time_limit, int long_run)
{
    load_args a;
    char err[300];

    if (access(path, R_OK) != 0)
        return -1;
    a.path = path;
    a.stem = stem;
    a.s = s;
    a.p = p;
    a.time_limit = time_limit;
    a.long_run = long_run;
    if (h_lua_probe(path, time_limit, load, &a, err, sizeof err))
        h_suite_error(s, path, stem, "%s", err);
    else
        load(&a);
    return 0;
}

static int profile_fail(char *err, size_t n, const char *path, int i,
                        const char *what)
{
    snprintf(err, n, "%s: profile %d: %s", path, i, what);
    return -1;
}

/* One profile table at the top of the stack into pr. */
static int read_profile(lua_State *L, h_profile *pr, const char *path, int i,
                        char *err, size_t n)
{
    char **list = NULL, e[100];
    int cnt = 0, k, t = lua_gettop(L), bad = 0;

    if (lua_type(L, t) != LUA_TTABLE)
        return profile_fail(err, n, path, i, "not a table");
    lua_getfield(L, t, "name");
    if (lua_type(L, -1) != LUA_TSTRING ||
        strlen(lua_tostring(L, -1)) >= sizeof pr->name)
        return profile_fail(err, n, path, i, "name: want a short string");
    strcpy(pr->name, lua_tostring(L, -1));
    lua_getfield(L, t, "cond");
    if (lua_type(L, -1) != LUA_TSTRING ||
        (strcmp(lua_tostring(L, -1), "oneway") &&
         strcmp(lua_tostring(L, -1), "bidirectional")))
        return profile_fail(err, n, path, i,
                            "cond: want \"oneway\" or \"bidirectional\"");
    pr->bidirectional = lua_tostring(L, -1)[0] == 'b';
    lua_getfield(L, t, "modes");
    if (h_lua_strings(L, lua_gettop(L), &list, &cnt, e, sizeof e))
        return profile_fail(err, n, path, i, "modes: want names");
    for (k = 0; k < cnt; k++) {
        int32_t m = h_mode_parse(list[k]);
        bad |= m < 0;
        if (m >= 0)
            pr->modes |= 1u << m;
        free(list[k]);
    }
    free(list);
    if (bad)
        return profile_fail(err, n, path, i, "modes: unknown mode");
    lua_getfield(L, t, "dtypes");
    if (h_lua_strings(L, lua_gettop(L), &list, &cnt, e, sizeof e))
        return profile_fail(err, n, path, i, "dtypes: want names");
    for (k = 0; k < cnt; k++) {
        int32_t d = h_dt_parse(list[k]);
        bad |= d == 0;
        pr->dtypes |= d ? (uint32_t)1 << d : 0;
        free(list[k]);
    }
    free(list);
    if (bad)
        return profile_fail(err, n, path, i, "dtypes: unknown dtype");
    lua_getfield(L, t, "extensions");
    if (!lua_isnil(L, -1) &&
        h_lua_strings(L, lua_gettop(L), &pr->ext, &pr->next, e, sizeof e))
        return profile_fail(err, n, path, i, "extensions: want rule ids");
    lua_settop(L, t);
    return 0;
}

int h_front_profiles(const char *path, h_profiles *out, char *err, size_t n)
{
    lua_State *L = sandbox();
    long i, len;
    int st = 0;

    memset(out, 0, sizeof *out);
    if (run_chunk(L, path, 1, 10) != 0) {
        snprintf(err, n, "%s", lua_tostring(L, -1));
        h_lua_close(L);
        return -1;
    }
    if (lua_type(L, -1) != LUA_TTABLE ||
        (len = (long)lua_rawlen(L, -1)) < 1 || len > H_MAX_PROFILES) {
        snprintf(err, n, "%s: want an array of 1..%d profiles", path,
                 H_MAX_PROFILES);
        h_lua_close(L);
        return -1;
    }
    for (i = 1; i <= len && st == 0; i++) {
        lua_rawgeti(L, -1, (int)i);
        st = read_profile(L, &out->v[out->n], path, (int)i, err, n);
        out->n += st == 0;
        lua_pop(L, 1);
    }
    h_lua_close(L);
    return st;
}
