/* h_wspawn.c - starting and ending selcheck-worker: a fresh executable,
 * not a fork of the judge, with only its own arena and pipes, in a new
 * user and PID namespace (or, loudly, without one), and reaped whole.
 */
#define _GNU_SOURCE /* clone flags, pipe2, F_DUPFD */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "h_wproto.h"
#include "h_wspawn.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif

static char wexe[PATH_MAX];
static int ns_state = -1;     /* -1 untried, 0 refused, 1 works */
static char ns_why[120];

void h_wspawn_init(void)
{
    static int done;
    const char *env = getenv("SELCHECK_WORKER");
    char self[PATH_MAX];
    ssize_t len;

    if (done)
        return;
    done = 1;
    if (getenv("SELCHECK_WORKER_NONS")) { /* to test the fallback */
        ns_state = 0;
        snprintf(ns_why, sizeof ns_why, "no user/PID namespace "
                 "(SELCHECK_WORKER_NONS is set)");
    }
    signal(SIGPIPE, SIG_IGN); /* a worker gone between jobs is EPIPE */
    prctl(PR_SET_DUMPABLE, 0);
    if (env && *env) {
        snprintf(wexe, sizeof wexe, "%s", env);
        return;
    }
    len = readlink("/proc/self/exe", self, sizeof self - 1);
    self[len > 0 ? len : 0] = 0;
    if (strrchr(self, '/'))
        *strrchr(self, '/') = 0;
    /* Installed: PREFIX/libexec/selcheck beside PREFIX/bin (not a command
     * for users, so not in PATH); in a build tree: next to selcheck. */
    snprintf(wexe, sizeof wexe, "%.*s/../libexec/selcheck/selcheck-worker",
             PATH_MAX - 40, self);
    if (access(wexe, X_OK) != 0)
        snprintf(wexe, sizeof wexe, "%.*s/selcheck-worker", PATH_MAX - 20, self);
}

static void close_from(int lo)
{
    int fd;
    if (syscall(SYS_close_range, lo, ~0u, 0) == 0)
        return;
    for (fd = lo; fd < 4096; fd++)
        close(fd);
}

/* In the new process: only async-signal-safe calls until the exec. */
static void child(const int fds[4], char **argv)
{
    int hi[4], i;

    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    for (i = 0; i < 4; i++)
        hi[i] = fds[i] >= 0 ? fcntl(fds[i], F_DUPFD, 20) : -1;
    for (i = 0; i < 4; i++)
        if (hi[i] >= 0)
            dup2(hi[i], H_WFD_ARENA + i);
    close_from(H_WFD_STATUS + 1);
    execv(wexe, argv);
    _exit(127);
}

/* A new user and PID namespace where the kernel allows one, else fork. */
static pid_t launch(const int fds[4], char **argv, int *ns)
{
    pid_t pid = -1;

    fflush(stdout);
    fflush(stderr);
    *ns = 0;
    if (ns_state != 0) {
        argv[4] = "1";
        pid = (pid_t)syscall(SYS_clone, CLONE_NEWUSER | CLONE_NEWPID | SIGCHLD,
                             NULL, NULL, NULL, NULL);
        if (pid == 0)
            child(fds, argv);
        if (pid < 0 && ns_state < 0)
            snprintf(ns_why, sizeof ns_why, "no user/PID namespace (clone: %s)",
                     strerror(errno));
        ns_state = pid > 0;
        *ns = pid > 0;
    }
    if (pid < 0) {
        argv[4] = "0";
        pid = fork();
        if (pid == 0)
            child(fds, argv);
    }
    return pid;
}

int h_wspawn_wait(h_wchild *c, int ms)
{
    struct pollfd pf[2] = {{c->from_w, POLLIN, 0}, {c->pidfd, POLLIN, 0}};
    int n;

    do
        n = poll(pf, c->pidfd >= 0 ? 2 : 1, ms);
    while (n < 0 && errno == EINTR);
    if (n <= 0)
        return n < 0 ? -1 : 0;
    if (pf[0].revents & POLLIN)
        return 1;
    return -1;
}

int h_wspawn_read(h_wchild *c, void *buf, size_t n, int ms)
{
    struct timespec t0, now;
    uint8_t *p = buf;
    size_t got = 0;

    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (got < n) {
        ssize_t k = read(c->from_w, p + got, n - got);
        if (k > 0) {
            got += (size_t)k;
            continue;
        }
        if (k == 0 || (errno != EAGAIN && errno != EINTR))
            return got ? -2 : -1;
        clock_gettime(CLOCK_MONOTONIC, &now);
        long left = ms - ((now.tv_sec - t0.tv_sec) * 1000 +
                          (now.tv_nsec - t0.tv_nsec) / 1000000);
        struct pollfd pf = {c->from_w, POLLIN, 0};
        if (left <= 0 || poll(&pf, 1, (int)left) == 0)
            return -2;
    }
    return 0;
}

int h_wspawn_readable(h_wchild *c)
{
    struct pollfd pf = {c->from_w, POLLIN, 0};
    return poll(&pf, 1, 0) > 0;
}

static int reaped(pid_t pid, int *status, int grace_ms)
{
    struct timespec ts = {0, 500000};
    int i;

    for (i = 0; i <= grace_ms * 2; i++) {
        if (waitpid(pid, status, WNOHANG) == pid)
            return 1;
        if (i < grace_ms * 2)
            nanosleep(&ts, NULL);
    }
    return 0;
}

void h_wspawn_kill(h_wchild *c, h_jres *res)
{
    int status = 0, wst;

    if (c->pid <= 0)
        return;
    if (!reaped(c->pid, &status, res ? 500 : 0)) {
        kill(-c->pid, SIGKILL); /* the group: whatever the library forked */
        kill(c->pid, SIGKILL);
        waitpid(c->pid, &status, 0);
    }
    kill(-c->pid, SIGKILL);
    if (c->ns && h_read_full(c->status_fd, &wst, sizeof wst) == 0)
        status = wst; /* the worker's own status, from its init */
    if (res && WIFSIGNALED(status) && !res->signo)
        res->signo = WTERMSIG(status);
    if (res && WIFEXITED(status))
        res->exit_status = WEXITSTATUS(status);
    close(c->to_w);
    close(c->from_w);
    if (c->status_fd >= 0)
        close(c->status_fd);
    if (c->pidfd >= 0)
        close(c->pidfd);
    c->pid = 0;
}

/* The worker's own pid: in a namespace, its init's only child. */
static int worker_pid(const h_wchild *c)
{
    char path[80];
    FILE *f;
    int w = -1;

    if (!c->ns)
        return c->pid;
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", c->pid, c->pid);
    if ((f = fopen(path, "r"))) {
        if (fscanf(f, "%d", &w) != 1)
            w = -1;
        fclose(f);
    }
    return w;
}

static void sanitize(const char *in, size_t max, char *out, size_t n)
{
    size_t i;
    for (i = 0; i < max && in[i] && i + 1 < n; i++)
        out[i] = in[i] > ' ' && in[i] < 127 && in[i] != '#' ? in[i] : '_';
    out[i] = 0;
}

static int hello(h_wchild *c, const h_warena *a, int timeout, char *name,
                 size_t nn, char *err, size_t n, const char *lib)
{
    int ready = h_wspawn_wait(c, timeout * 1000);
    h_wrep m;
    h_jres r;
    char text[sizeof m.text];

    memset(&r, 0, sizeof r);
    if (ready <= 0 || h_wspawn_read(c, &m, sizeof m, timeout * 1000) ||
        m.magic != H_WMAGIC || m.kind != M_HELLO || m.seq != 0) {
        h_wspawn_kill(c, ready < 0 ? &r : NULL);
        if (ready == 0)
            snprintf(err, n, "%s: no answer within %d s while loading "
                     "(--timeout)", lib, timeout);
        else
            snprintf(err, n, "%s: died while loading (%s)", lib,
                     r.signo ? strsignal(r.signo) : "no answer");
        return -1;
    }
    sanitize(m.text, sizeof m.text, text, sizeof text);
    if (!m.ok) {
        h_wspawn_kill(c, NULL);
        snprintf(err, n, "%s: %s", lib, text);
        return -1;
    }
    snprintf(name, nn, "%.40s", text);
    c->delta = (intptr_t)((uintptr_t)m.wbase - (uintptr_t)a->base);
    c->wpid = worker_pid(c);
    m.sandbox[sizeof m.sandbox - 1] = 0;
    snprintf(c->missing, sizeof c->missing, "%.110s%s%.110s",
             c->ns ? "" : ns_why, !c->ns && m.sandbox[0] ? "; " : "",
             m.sandbox);
    return 0;
}

int h_wspawn(h_wchild *c, const char *lib, const h_warena *a, int timeout,
             char *name, size_t nn, char *err, size_t n)
{
    int in[2], out[2], st[2], fds[4];
    char size[32], base[32], *argv[6];
    static int told;

    memset(c, 0, sizeof *c);
    if (access(wexe, X_OK)) {
        snprintf(err, n, "cannot run the worker %s: %s (SELCHECK_WORKER "
                 "names another)", wexe, strerror(errno));
        return -1;
    }
    if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(st, O_CLOEXEC)) {
        snprintf(err, n, "pipe: %s", strerror(errno));
        return -1;
    }
    snprintf(size, sizeof size, "%zu", a->size);
    snprintf(base, sizeof base, "%llx", (unsigned long long)(uintptr_t)a->base);
    argv[0] = "selcheck-worker";
    argv[1] = (char *)lib;
    argv[2] = size;
    argv[3] = base;
    argv[5] = NULL;
    fds[0] = a->fd;
    fds[1] = in[0];
    fds[2] = out[1];
    fds[3] = st[1];
    c->pid = launch(fds, argv, &c->ns);
    close(in[0]);
    close(out[1]);
    close(st[1]);
    c->to_w = in[1];
    c->from_w = out[0];
    fcntl(c->from_w, F_SETFL, O_NONBLOCK); /* a reply cut short never blocks us */
    c->status_fd = st[0];
    if (c->pid < 0) {
        snprintf(err, n, "fork: %s", strerror(errno));
        close(in[1]);
        close(out[0]);
        close(st[0]);
        return -1;
    }
    c->pidfd = (int)syscall(SYS_pidfd_open, c->pid, 0);
    if (hello(c, a, timeout, name, nn, err, n, lib))
        return -1;
    if (c->missing[0] && !told++)
        fprintf(stderr, "selcheck: the worker's sandbox is incomplete: %s\n",
                c->missing);
    return 0;
}
