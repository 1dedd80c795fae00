/* h_wmain.c - selcheck-worker: the sandbox around an implementation under
 * test (an init for its PID namespace, limits, no capabilities, seccomp),
 * set up before the library is loaded; then h_wproc.c serves jobs.
 */
#define _GNU_SOURCE /* MAP_FIXED_NOREPLACE, PR_SET_CHILD_SUBREAPER */
#include <errno.h>
#include <linux/capability.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "h_wproto.h"
#include "h_wsec.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define H_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define H_SANITIZED 1
#endif
#endif

#if defined(__SANITIZE_ADDRESS__)
/* The library's leaks are not selcheck's business, and LeakSanitizer's
 * exit-time check needs ptrace, which the seccomp filter forbids: a
 * library that calls exit() must exit with its own status. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "detect_leaks=0";
}
#endif

/* In a new PID namespace this process is its init, which ignores signals
 * it has no handler for (raise(SIGABRT) would not kill it).  So init
 * forks the worker, waits, and hands the judge the worker's wait status;
 * when init exits, the kernel kills whatever the library left behind. */
static void be_init(void)
{
    pid_t w = fork(), p;
    int st = 0;

    if (w < 0)
        _exit(125);
    if (w == 0) {
        close(H_WFD_STATUS);
        return;
    }
    close(H_WFD_ARENA);
    close(H_WFD_IN);
    close(H_WFD_OUT);
    prctl(PR_SET_DUMPABLE, 0);
    for (;;) {
        p = waitpid(-1, &st, 0);
        if (p == w || (p < 0 && errno != EINTR))
            break;
    }
    if (write(H_WFD_STATUS, &st, sizeof st) < 0)
        _exit(126);
    _exit(0);
}

static void add(char *buf, size_t n, const char *what)
{
    size_t used = strlen(buf);
    snprintf(buf + used, n - used, "%s%s", used ? "; " : "", what);
}

/* Address space (not under a sanitizer, whose shadow needs terabytes),
 * processes (counted per user namespace), CPU, no core files. */
static void limits(size_t arena, int ns, char *bad, size_t n)
{
    struct rlimit r;

    r.rlim_cur = r.rlim_max = 0;
    setrlimit(RLIMIT_CORE, &r);
    r.rlim_cur = r.rlim_max = 4 * 3600;
    if (setrlimit(RLIMIT_CPU, &r))
        add(bad, n, "no CPU limit");
#ifndef H_SANITIZED
    r.rlim_cur = r.rlim_max = (rlim_t)arena + ((rlim_t)4 << 30);
    if (setrlimit(RLIMIT_AS, &r))
        add(bad, n, "no memory limit");
#else
    (void)arena;
    add(bad, n, "no memory limit (sanitizer build)");
#endif
    r.rlim_cur = r.rlim_max = 256;
    if (!ns || setrlimit(RLIMIT_NPROC, &r))
        add(bad, n, "no process limit");
}

/* No capabilities, and none regained by an exec (no_new_privs is set by
 * the seccomp step): a worker started by root is not root's equal. */
static void drop_caps(char *bad, size_t n)
{
    struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
    struct __user_cap_data_struct d[2];
    int c;

    for (c = 0; c <= 63; c++)
        prctl(PR_CAPBSET_DROP, c, 0, 0, 0);
    memset(d, 0, sizeof d);
    if (syscall(SYS_capset, &h, d))
        add(bad, n, "capabilities kept");
}

static uint8_t *map_arena(size_t size, uintptr_t base)
{
    uint8_t *a = mmap((void *)base, size, PROT_READ | PROT_WRITE,
                      MAP_SHARED | MAP_FIXED_NOREPLACE, H_WFD_ARENA, 0);

    if (a != MAP_FAILED && a != (uint8_t *)base) {
        munmap(a, size);
        a = MAP_FAILED;
    }
    if (a == MAP_FAILED)
        a = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, H_WFD_ARENA, 0);
    close(H_WFD_ARENA); /* the mapping stays; the library finds no fd */
    return a == MAP_FAILED ? NULL : a;
}

int main(int argc, char **argv)
{
    char bad[120] = "", why[80];
    unsigned long long base;
    size_t size;
    uint8_t *arena;
    int ns;

    if (argc != 5 || sscanf(argv[2], "%zu", &size) != 1 ||
        sscanf(argv[3], "%llx", &base) != 1) {
        fprintf(stderr, "selcheck-worker: started by selcheck only\n");
        return 2;
    }
    ns = atoi(argv[4]);
    if (ns && getpid() == 1)
        be_init();
    else
        close(H_WFD_STATUS);
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* no orphan if selcheck dies */
    prctl(PR_SET_CHILD_SUBREAPER, 1); /* the library's orphans stay ours */
    dup2(2, 1); /* the implementation may print; stdout belongs to TAP */
    arena = map_arena(size, (uintptr_t)base);
    if (!arena)
        _exit(124);
    limits(size, ns, bad, sizeof bad);
    drop_caps(bad, sizeof bad);
    if (h_wsec_install(getpid(), why, sizeof why))
        add(bad, sizeof bad, why);
    prctl(PR_SET_DUMPABLE, 0); /* no sibling worker writes our memory */
    h_wproc_sandbox(bad);
    h_wproc_main(argv[1], arena, size, (intptr_t)((uintptr_t)arena - (uintptr_t)base));
    return 0;
}
