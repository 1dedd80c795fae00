/* h_lua.c - the Lua front end: a sandboxed state per script, case{}
 * registration, the profile loader.  The same file builds selcheck (Lua
 * 5.4) and selcheck-jit (LuaJIT); h_lua.h holds the few differences.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
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

/* A deadline for the running script, checked every 2^20 instructions. */
static struct timespec deadline;
static int limit_s;

static void l_hook(lua_State *L, lua_Debug *ar)
{
    struct timespec now;

    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec > deadline.tv_sec ||
        (now.tv_sec == deadline.tv_sec && now.tv_nsec > deadline.tv_nsec)) {
        lua_getinfo(L, "Sl", ar);
        luaL_error(L, "%s:%d: script ran past its time limit (%d s)",
                   ar->short_src, ar->currentline, limit_s);
    }
}

/* base (without dofile, loadfile, binary load), string, table, math
 * (without random: the harness seeds all randomness); no io, os,
 * package, debug. */
static lua_State *sandbox(int time_limit)
{
    static const char *const gone[] = {"dofile", "loadfile", "loadstring",
                                       "require", "module", "newproxy",
                                       "collectgarbage", "gcinfo", NULL};
    lua_State *L = luaL_newstate();
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
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += time_limit;
    limit_s = time_limit;
    lua_sethook(L, l_hook, LUA_MASKCOUNT, 1 << 20);
    return L;
}

h_lua_ctx *h_lua_loading;

/* Fill and check functions get the limit of the script that made them. */
static int call_limit = 60;

#if H_LUAJIT
/* Under LuaJIT the functions run compiled, where no hook is ever looked
 * at: a timer sets one at the deadline, which stops interpreted code;
 * if a compiled loop is still running two seconds later, the only clean
 * way out is TAP's "Bail out!" (stdout is flushed before each test). */
static lua_State *volatile calling;
static volatile sig_atomic_t alarms;
static char bail[900];
static size_t bail_len;

static void on_alarm(int sig)
{
    (void)sig;
    if (alarms++ == 0 && calling) {
        lua_sethook(calling, l_hook, LUA_MASKCOUNT, 1);
        return;
    }
    if (write(1, bail, bail_len) < 0 || write(2, bail + 10, bail_len - 10) < 0)
        sig = 0;
    _exit(2);
}

static void set_timer(int seconds, int interval)
{
    struct itimerval it;

    memset(&it, 0, sizeof it);
    it.it_value.tv_sec = seconds;
    it.it_interval.tv_sec = interval;
    setitimer(ITIMER_REAL, &it, NULL);
}
#endif

int h_lua_call(lua_State *L, int nargs, int nresults, const char *what)
{
    int st;

    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += call_limit;
    limit_s = call_limit;
#if H_LUAJIT
    {
        static int installed;
        int n = snprintf(bail, sizeof bail, "Bail out! selcheck: %s ran "
                         "past its time limit (%d s) in compiled code\n",
                         what, call_limit);
        bail_len = n < 0 ? 0 : (size_t)n < sizeof bail ? (size_t)n
                                                        : sizeof bail - 1;
        if (!installed) {
            struct sigaction sa;
            memset(&sa, 0, sizeof sa);
            sa.sa_handler = on_alarm;
            sigemptyset(&sa.sa_mask);
            sigaction(SIGALRM, &sa, NULL);
            installed = 1;
        }
    }
    lua_sethook(L, NULL, 0, 0);
    luaJIT_setmode(L, 0, LUAJIT_MODE_ENGINE | LUAJIT_MODE_ON);
    alarms = 0;
    calling = L;
    set_timer(call_limit, 2);
#else
    (void)what;
#endif
    st = lua_pcall(L, nargs, nresults, 0);
#if H_LUAJIT
    set_timer(0, 0);
    calling = NULL;
    lua_sethook(L, NULL, 0, 0);
#endif
    return st;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0, got;

    if (!f)
        return NULL;
    do {
        if (n == cap)
            buf = h_realloc(buf, cap = cap ? cap * 2 : 65536);
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    if (ferror(f)) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    *len = n;
    return buf;
}

/* Loads and runs path as a text chunk named "@path" (so messages read
 * "path:line: ..."); leaves its first result on the stack.  0 or -1 with
 * the message on the stack. */
static int run_chunk(lua_State *L, const char *path, int nresults)
{
    size_t len;
    char *buf = read_file(path, &len);
    char name[1024];
    int st;

    if (!buf) {
        lua_pushfstring(L, "%s: cannot read the file", path);
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
    if (st == 0)
        st = lua_pcall(L, 0, nresults, 0);
    if (st != 0 && !lua_isstring(L, -1)) {
        lua_pop(L, 1);
        lua_pushfstring(L, "%s: error object is not a string", path);
    }
    return st == 0 ? 0 : -1;
}

int h_front_run_file(const char *path, const char *stem, h_suite *s,
                     const h_profiles *p, int time_limit, int long_run)
{
    lua_State *L = sandbox(time_limit);
    h_lua_ctx ctx;
    FILE *f = fopen(path, "rb");

    if (!f) {
        lua_close(L);
        return -1;
    }
    fclose(f);
    h_lua_buf_open(L);
    call_limit = time_limit;
    memset(&ctx, 0, sizeof ctx);
    ctx.suite = s;
    ctx.profiles = p;
    ctx.file = path;
    ctx.stem = stem;
    ctx.first = s->n;
    h_lua_loading = &ctx;
    lua_pushlightuserdata(L, &ctx);
    lua_pushcclosure(L, h_lua_case, 1);
    lua_setglobal(L, "case");
    lua_pushboolean(L, long_run);
    lua_setglobal(L, "long_run");
    if (run_chunk(L, path, 0) != 0) {
        const char *msg = lua_tostring(L, -1);
        /* Lua names the chunk "path:line:"; keep that as the address. */
        h_suite_error(s, path, stem, "%s", msg);
    }
    h_lua_loading = NULL;
    if (!ctx.keep) /* else the file's cases call into it (h_lua_fill.c) */
        lua_close(L);
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
    lua_State *L = sandbox(10);
    long i, len;
    int st = 0;

    memset(out, 0, sizeof *out);
    if (run_chunk(L, path, 1) != 0) {
        snprintf(err, n, "%s", lua_tostring(L, -1));
        lua_close(L);
        return -1;
    }
    if (lua_type(L, -1) != LUA_TTABLE ||
        (len = (long)lua_rawlen(L, -1)) < 1 || len > H_MAX_PROFILES) {
        snprintf(err, n, "%s: want an array of 1..%d profiles", path,
                 H_MAX_PROFILES);
        lua_close(L);
        return -1;
    }
    for (i = 1; i <= len && st == 0; i++) {
        lua_rawgeti(L, -1, (int)i);
        st = read_profile(L, &out->v[out->n], path, (int)i, err, n);
        out->n += st == 0;
        lua_pop(L, 1);
    }
    lua_close(L);
    return st;
}
