/* h_lua_limit.c - the bounds on a script: memory through the state's
 * allocator, CPU time through an instruction hook and a watchdog thread
 * that covers what a hook cannot stop (C functions, LuaJIT's compiled
 * loops).
 * Also the protected call both front ends use, with the same messages.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "h_lua.h"

#if H_LUAJIT
#include <luajit.h>
#endif

/* ---- memory: every state counts its bytes against H_LUA_MEM_LIMIT ---- */

/* The state's own allocator, wrapped: LuaJIT's keeps its memory where
 * its build needs it (below 2 GiB without GC64), so it is counted, not
 * replaced.  Blocks allocated before the wrap are not counted. */
typedef struct lmem {
    lua_Alloc f;
    void *ud;
    size_t used;
    int hit; /* an allocation was refused for the limit */
    struct lmem *next;
} lmem;

/* Every open state's counter, so that a leak checker sees them reachable
 * (LuaJIT keeps the pointer in memory it maps itself). */
static lmem *open_states;

static void *l_alloc(void *ud, void *p, size_t osize, size_t nsize)
{
    lmem *m = ud;
    size_t old = p ? osize : 0; /* without p, osize is a type tag */
    void *q;

    if (nsize > old && nsize - old > H_LUA_MEM_LIMIT - m->used) {
        m->hit = 1;
        return NULL;
    }
    q = m->f(m->ud, p, osize, nsize);
    if (nsize == 0 || q) {
        m->used -= old < m->used ? old : m->used;
        m->used += nsize;
    }
    return q;
}

lua_State *h_lua_newstate(void)
{
    lmem *m = calloc(1, sizeof *m);
    lua_State *L = luaL_newstate();

    if (!L || !m) {
        fprintf(stderr, "selcheck: cannot create a Lua state\n");
        exit(2);
    }
    m->f = lua_getallocf(L, &m->ud);
    lua_setallocf(L, l_alloc, m);
    m->next = open_states;
    open_states = m;
    return L;
}

void h_lua_close(lua_State *L)
{
    void *ud = NULL;
    lua_Alloc f = lua_getallocf(L, &ud);
    lmem **p;

    lua_close(L);
    if (f != l_alloc)
        return;
    for (p = &open_states; *p; p = &(*p)->next)
        if (*p == ud) {
            *p = ((lmem *)ud)->next;
            break;
        }
    free(ud);
}

/* 1 when the state's last refused allocation was the limit's (cleared). */
static int mem_hit(lua_State *L)
{
    void *ud = NULL;
    lmem *m;

    if (lua_getallocf(L, &ud) != l_alloc)
        return 0;
    m = ud;
    if (!m->hit)
        return 0;
    m->hit = 0;
    return 1;
}

/* ---- time: CPU time, a hook that checks it, a watchdog behind both --- */

/* The limit counts the CPU time of the script's thread, not the wall
 * clock: a busy or stalled machine (a VM the host stops, SIGSTOP) must
 * not fail a correct script.  The wall clock only backs it up, at
 * H_LUA_WALL_FACTOR x the limit, for a script stuck using no CPU. */
#define H_LUA_WALL_FACTOR 4

static struct timespec deadline; /* the limit, on lim_clock */
static clockid_t lim_clock;      /* the script thread's CPU clock, or wall */
static int limit_s;
static int in_probe;  /* this process is a probe (h_lua_probe) */
static int timed_out; /* the hook stopped a script for its limit */
static atomic_int expired; /* the watchdog found the limit past */

static int past(const struct timespec *now, const struct timespec *t)
{
    return now->tv_sec > t->tv_sec ||
           (now->tv_sec == t->tv_sec && now->tv_nsec > t->tv_nsec);
}

/* t - u in milliseconds. */
static long long ms_between(const struct timespec *t, const struct timespec *u)
{
    return (long long)(t->tv_sec - u->tv_sec) * 1000 +
           (t->tv_nsec - u->tv_nsec) / 1000000;
}

static void l_hook(lua_State *L, lua_Debug *ar)
{
    struct timespec now;

    /* a syscall, once per 2^20 instructions */
    clock_gettime(lim_clock, &now);
    if (atomic_load(&expired) || past(&now, &deadline)) {
        timed_out = 1;
        lua_getinfo(L, "Sl", ar);
        luaL_error(L, "%s:%d: script ran past its time limit (%d s)",
                   ar->short_src, ar->currentline, limit_s);
    }
}

/* The watchdog: when the script's thread has used its CPU time (or the
 * wall backstop passed) it sets a hook on every instruction, which stops
 * interpreted code; if the state is still stuck two seconds (of CPU, or
 * of wall time past the backstop) later, it is in code no hook reaches,
 * which cannot be unwound safely, so selcheck says so (TAP's "Bail out!",
 * stdout is flushed before each test) and exits 2.  It sleeps on the
 * wall clock: the CPU clock cannot run faster, so at each wake-up it
 * reads the CPU clock and sleeps again for what is left. */
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv;
static lua_State *armed;
static clockid_t wd_clock;      /* the script thread's CPU clock, */
static int wd_has_clock;        /* if it has one */
static struct timespec wd_cpu;  /* the stage ends at this CPU time, */
static struct timespec wd_wall; /* or at this wall time */
static int wd_stage;
static int wd_ready; /* the watchdog runs its loop (allocates no more) */
static char bail[900];
static size_t bail_len;

/* The wall time at which the stage may end: now plus the CPU time left,
 * or the backstop if sooner; 1 when it has ended. */
static int wd_next(struct timespec *at)
{
    struct timespec now, cpu;
    long long left;

    clock_gettime(CLOCK_MONOTONIC, &now);
    if (past(&now, &wd_wall))
        return 1;
    if (!wd_has_clock || clock_gettime(wd_clock, &cpu) != 0) {
        *at = wd_wall; /* no CPU clock: the wall clock alone */
        return 0;
    }
    left = ms_between(&wd_cpu, &cpu);
    if (left <= 0)
        return 1;
    *at = now;
    at->tv_sec += left / 1000;
    at->tv_nsec += (left % 1000) * 1000000 + 1000000;
    if (at->tv_nsec >= 1000000000) {
        at->tv_sec++;
        at->tv_nsec -= 1000000000;
    }
    if (past(at, &wd_wall))
        *at = wd_wall;
    return 0;
}

static void *watchdog(void *arg)
{
    struct timespec at, now;

    (void)arg;
    pthread_mutex_lock(&mu);
    wd_ready = 1;
    pthread_cond_broadcast(&cv);
    for (;;) {
        if (!armed) {
            pthread_cond_wait(&cv, &mu);
            continue;
        }
        if (!wd_next(&at)) {
            pthread_cond_timedwait(&cv, &mu, &at);
            continue;
        }
        if (wd_stage++ == 0) {
            atomic_store(&expired, 1);
            lua_sethook(armed, l_hook, LUA_MASKCOUNT, 1);
            clock_gettime(CLOCK_MONOTONIC, &now);
            if (past(&now, &wd_wall))
                wd_wall = now;
            wd_wall.tv_sec += 2;
            wd_cpu.tv_sec += 2;
            continue;
        }
        if (write(1, bail, bail_len) < 0 ||
            write(2, bail + 10, bail_len - 10) < 0)
            bail_len = 0;
        _exit(2);
    }
    return NULL;
}

static void arm(lua_State *L, int seconds, const char *what)
{
    static int started;
    int n;

    if (!started) {
        pthread_condattr_t a;
        pthread_t t;
        pthread_condattr_init(&a);
        pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
        pthread_cond_init(&cv, &a);
        if (pthread_create(&t, NULL, watchdog, NULL) != 0) {
            fprintf(stderr, "selcheck: cannot start the script watchdog\n");
            exit(2);
        }
        pthread_detach(t);
        started = 1;
        /* Wait until the thread runs: while it starts, the sanitizers'
         * allocator may hold a lock, and a probe forked then inherits it
         * locked and hangs when its allocator cache refills (seen under
         * ASan: 4 probes in about 850 stopped at 0.1 s of CPU, in free()
         * -> GetFromAllocator; none in 720 runs after this wait). */
        pthread_mutex_lock(&mu);
        while (!wd_ready)
            pthread_cond_wait(&cv, &mu);
        pthread_mutex_unlock(&mu);
    }
    pthread_mutex_lock(&mu);
    n = snprintf(bail, sizeof bail, "Bail out! selcheck: %s ran past its "
                 "time limit (%d s) in code no hook stops (a C function "
                 "such as string.find, or a compiled loop)\n", what, seconds);
    bail_len = n < 0 ? 0 : (size_t)n < sizeof bail ? (size_t)n : sizeof bail - 1;
    for (n = 10; (size_t)n < bail_len - 1; n++) /* one TAP line */
        bail[n] = bail[n] < ' ' ? ' ' : bail[n];
    armed = L;
    wd_has_clock = lim_clock != CLOCK_MONOTONIC &&
                   pthread_getcpuclockid(pthread_self(), &wd_clock) == 0;
    wd_cpu = deadline;
    clock_gettime(CLOCK_MONOTONIC, &wd_wall);
    wd_wall.tv_sec += (time_t)seconds * (wd_has_clock ? H_LUA_WALL_FACTOR : 1);
    wd_stage = 0;
    pthread_cond_signal(&cv);
    pthread_mutex_unlock(&mu);
}

static void disarm(void)
{
    pthread_mutex_lock(&mu);
    armed = NULL;
    pthread_cond_signal(&cv);
    pthread_mutex_unlock(&mu);
}

/* ---- the protected call ---------------------------------------------- */

/* The message handler: a stack overflow names its place in both front
 * ends (LuaJIT's message has none, Lua 5.4's says "C stack overflow"
 * where LuaJIT says "stack overflow"). */
static int l_msgh(lua_State *L)
{
    const char *msg = lua_tostring(L, 1);
    lua_Debug ar;
    int level;

    if (!msg || !strstr(msg, "stack overflow"))
        return 1;
    for (level = 0; lua_getstack(L, level, &ar); level++) {
        if (lua_getinfo(L, "Sl", &ar) && ar.currentline > 0) {
            lua_pushfstring(L, "%s:%d: stack overflow", ar.short_src,
                            ar.currentline);
            return 1;
        }
    }
    lua_pushstring(L, "stack overflow");
    return 1;
}

int h_lua_pcall(lua_State *L, int nargs, int nresults, int seconds,
                const char *what)
{
    int st, base = lua_gettop(L) - nargs;

    lua_pushcfunction(L, l_msgh);
    lua_insert(L, base);
    lim_clock = CLOCK_THREAD_CPUTIME_ID; /* a CPU clock (else, wall time) */
    if (clock_gettime(lim_clock, &deadline) != 0) {
        lim_clock = CLOCK_MONOTONIC;
        clock_gettime(lim_clock, &deadline);
    }
    deadline.tv_sec += seconds;
    limit_s = seconds;
    atomic_store(&expired, 0);
    if (!in_probe) /* a forked probe has no watchdog thread */
        arm(L, seconds, what);
#if H_LUAJIT
    /* Scripts load with the compiler off (h_lua.c) and a count hook;
     * functions run compiled, where hooks are never looked at (the
     * watchdog sets one at the deadline). */
    if (strncmp(what, "script ", 7) != 0)
        luaJIT_setmode(L, 0, LUAJIT_MODE_ENGINE | LUAJIT_MODE_ON);
    else
#endif
        lua_sethook(L, l_hook, LUA_MASKCOUNT, 1 << 20);
    st = lua_pcall(L, nargs, nresults, base);
    if (!in_probe)
        disarm();
    lua_sethook(L, NULL, 0, 0);
    lua_remove(L, base);
    if (st != 0 && mem_hit(L)) {
        lua_pop(L, 1);
        lua_pushfstring(L, "%s ran past its memory limit (%d MiB)", what,
                        (int)(H_LUA_MEM_LIMIT >> 20));
    }
    return st;
}

/* ---- the probe: a script's top level run once in a child ------------- */

/* Waits for the probe's one byte ('k', or 't' when its hook stopped the
 * script for the limit) or EOF while the child has used less than ms
 * milliseconds of CPU time and the wall clock is short of the backstop:
 * the byte, 0 at EOF, -1 past either.  The child is single-threaded and
 * its CPU clock starts at the fork. */
static int wait_byte(int fd, pid_t pid, int ms)
{
    struct pollfd pf;
    struct timespec t0, now, cpu;
    clockid_t cid;
    int has_clock = clock_getcpuclockid(pid, &cid) == 0;
    long long wall_ms = has_clock ? (long long)ms * H_LUA_WALL_FACTOR : ms;
    long long left;
    char c;
    int r;

    pf.fd = fd;
    pf.events = POLLIN;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        left = wall_ms - ms_between(&now, &t0);
        if (has_clock && clock_gettime(cid, &cpu) == 0 &&
            ms - (cpu.tv_sec * 1000LL + cpu.tv_nsec / 1000000) < left)
            left = ms - (cpu.tv_sec * 1000LL + cpu.tv_nsec / 1000000);
        if (left <= 0)
            return -1;
        r = poll(&pf, 1, left > 1000000 ? 1000000 : (int)left + 1);
        if (r > 0)
            return read(fd, &c, 1) == 1 ? c : 0;
        if (r < 0 && errno != EINTR)
            return -1;
    }
}

int h_lua_probe(const char *path, int seconds, const char *(*run)(void *),
                void *arg, char *err, size_t n)
{
    int fds[2], st, got;
    ssize_t len = 0;
    pid_t pid;

    if (pipe(fds) != 0)
        return 0; /* no probe: the watchdog still bounds the load */
    fflush(stdout);
    fflush(stderr);
    if ((pid = fork()) < 0) {
        close(fds[0]);
        close(fds[1]);
        return 0;
    }
    if (pid == 0) { /* quiet: print() would say everything twice */
        int null = open("/dev/null", O_WRONLY);
        char out[400];
        const char *msg;
        close(fds[0]);
        if (null >= 0 && (dup2(null, 1) < 0 || dup2(null, 2) < 0))
            _exit(1);
        in_probe = 1;
        msg = run(arg);
        /* 't' and the script's message when its hook stopped it */
        snprintf(out, sizeof out, "%c%s", timed_out ? 't' : 'k',
                 timed_out && msg ? msg : "");
        _exit(write(fds[1], out, strlen(out)) > 0 ? 0 : 1);
    }
    close(fds[1]);
    got = wait_byte(fds[0], pid, (seconds + 2) * 1000);
    if (got == 't' && n > 1 &&
        (len = read(fds[0], err, n - 1)) > 0) /* the message, whole */
        err[len] = 0;
    close(fds[0]);
    if (got < 0)
        kill(pid, SIGKILL);
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (got < 0 || (got == 't' && len <= 0))
        snprintf(err, n, "%s: script ran past its time limit (%d s)%s",
                 path, seconds,
                 got < 0 ? " in code no hook stops (a C function such as "
                 "string.find); its probe was stopped" : "");
    return got == 't' || got < 0;
}

int h_lua_call_limit = 60;

int h_lua_call(lua_State *L, int nargs, int nresults, const char *what)
{
    return h_lua_pcall(L, nargs, nresults, h_lua_call_limit, what);
}
