/* hostile.c - the reference with one attack on the harness, chosen by a
 * -DHOS_<KIND> macro: forged replies, writing the judge's memory, signals
 * and limits on it, children, late threads, guard pages, handlers, other
 * arenas, memory, answers that change, a spinning constructor, hangs.
 * harness/t/hostile.sh requires each to be caught with its reason (issue 17).
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "h_wproto.h"
#include "ref.h"

/* What the attack managed, for hostile.sh: HOSTILE_LOG names a file. */
__attribute__((unused)) static void note(const char *fmt, long a, const char *b)
{
    const char *path = getenv("HOSTILE_LOG");
    FILE *f = path ? fopen(path, "a") : NULL;
    if (f) {
        fprintf(f, fmt, a, b);
        fputc('\n', f);
        fclose(f);
    }
}

static int64_t count(const sel_tensor *t)
{
    int64_t n = 1;
    int32_t i;
    for (i = 0; t && t->dims && i < t->rank; i++)
        n *= t->dims[i];
    return n;
}

/* The judge: our parent, and the pid hostile.sh names in HOSTILE_JUDGE
 * (from inside a PID namespace the parent is 0).  Never any other
 * process: the machine is shared. */
__attribute__((unused)) static int judges(pid_t *v, int cap)
{
    const char *env = getenv("HOSTILE_JUDGE");
    int n = 0;

    if (getppid() > 1 && n < cap)
        v[n++] = getppid();
    if (env && atoi(env) > 1 && atoi(env) != getppid() && n < cap)
        v[n++] = (pid_t)atoi(env);
    return n;
}

#if defined(HOS_FORGE) || defined(HOS_FORGE_NEXEC)
/* The worker's reply pipe: the first FIFO open for writing past stderr. */
static int reply_fd(void)
{
    struct stat st;
    int fd;
    for (fd = 3; fd < 256; fd++)
        if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode) &&
            (fcntl(fd, F_GETFL) & O_ACCMODE) == O_WRONLY)
            return fd;
    return -1;
}

/* A reply claiming a pass, computed by nothing. */
static void forge(const sel_tensor *c, const sel_tensor *x, const sel_tensor *y,
                  sel_broadcast b)
{
#ifdef H_WMAGIC
    h_wrep m;
    memset(&m, 0, sizeof m);
    m.magic = H_WMAGIC;
    m.seq = 1;
    m.kind = M_DONE;
    m.supported = 1;
    m.infer_st = ref_impl()->infer(c, x, y, b, &m.rank, m.dims);
#ifdef HOS_FORGE_NEXEC
    m.nexec = 1 << 30;
#endif
#else
    wmsg m;
    memset(&m, 0, sizeof m);
    m.kind = M_DONE;
    m.r.supported = 1;
    m.r.exit_status = -1;
    m.r.infer_st = ref_impl()->infer(c, x, y, b, &m.r.rank, m.r.dims);
#ifdef HOS_FORGE_NEXEC
    m.r.nexec = 1 << 30;
#endif
#endif
    int fd = reply_fd();
    if (fd >= 0 && write(fd, &m, sizeof m) == (ssize_t)sizeof m)
        note("forged a reply on fd %ld%s", fd, "");
    pause(); /* the judge has its answer; let it kill us */
}
#endif

#ifdef HOS_PROCMEM
/* h_judge's address in process p, from its executable's symbol table. */
static uintptr_t judge_fn(pid_t p)
{
    char path[64], exe[4096], line[4400];
    uintptr_t base = 0, val = 0;
    FILE *f;

    snprintf(path, sizeof path, "/proc/%d/exe", (int)p);
    ssize_t len = readlink(path, exe, sizeof exe - 1);
    if (len <= 0)
        return 0;
    exe[len] = 0;
    snprintf(path, sizeof path, "/proc/%d/maps", (int)p);
    if (!(f = fopen(path, "r")))
        return note("read /proc/%ld/maps: %s", p, strerror(errno)), 0;
    while (!base && fgets(line, sizeof line, f))
        if (strstr(line, exe))
            base = (uintptr_t)strtoull(line, NULL, 16);
    fclose(f);
    int fd = open(exe, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st))
        return 0;
    uint8_t *img = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (img == MAP_FAILED)
        return 0;
    Elf64_Ehdr *eh = (Elf64_Ehdr *)img;
    Elf64_Shdr *sh = (Elf64_Shdr *)(img + eh->e_shoff);
    for (int i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_type != SHT_SYMTAB)
            continue;
        Elf64_Sym *sym = (Elf64_Sym *)(img + sh[i].sh_offset);
        const char *str = (const char *)(img + sh[sh[i].sh_link].sh_offset);
        for (size_t k = 0; k < sh[i].sh_size / sizeof *sym; k++)
            if (!strcmp(str + sym[k].st_name, "h_judge"))
                val = sym[k].st_value;
    }
    munmap(img, (size_t)st.st_size);
    return val && base ? base + val : 0;
}

/* Make h_judge return at once: its verdict stays memset to 0, a pass. */
static void patch_judges(void)
{
    static int done;
    pid_t v[16];
    int i, n = judges(v, 16);

    if (done++)
        return;
    for (i = 0; i < n; i++) {
        char path[64];
        uintptr_t at = judge_fn(v[i]);
        snprintf(path, sizeof path, "/proc/%d/mem", (int)v[i]);
        int fd = open(path, O_RDWR);
        if (fd < 0) {
            note("open /proc/%ld/mem: %s", v[i], strerror(errno));
            continue;
        }
        if (at && pwrite(fd, "\xc3", 1, (off_t)at) == 1)
            note("PATCHED h_judge in %ld%s", v[i], "");
        close(fd);
    }
}
#endif

#if defined(HOS_SIGSTOP) || defined(HOS_SIGTERM) || defined(HOS_SIGALRM) || \
    defined(HOS_RLIMIT) || defined(HOS_PTRACE)
/* At the parent and every selcheck it can find. */
static void at_judges(void)
{
    pid_t v[16];
    int i, n = judges(v, 16), rc;

    if (n == 0 && getppid() == 0)
        v[n++] = 0; /* in a PID namespace: no parent to name but 0 */
    for (i = 0; i < n; i++) {
#if defined(HOS_RLIMIT)
        struct rlimit r = {4, 4};
        rc = prlimit(v[i], RLIMIT_NOFILE, &r, NULL);
#elif defined(HOS_PTRACE)
        rc = (int)ptrace(PTRACE_ATTACH, v[i], NULL, NULL);
#else
        rc = kill(v[i], HOS_SIG);
#endif
        note(rc == 0 ? "reached %ld%s" : "refused by %ld%s", v[i], "");
    }
}
#endif

#ifdef HOS_LATE
typedef struct later {
    void *dst;
    size_t n;
} later;

static void *late_writer(void *arg)
{
    later *l = arg;
    struct timespec ts = {0, 1000000}; /* 1 ms: usually after the reply */
    nanosleep(&ts, NULL);
    memset(l->dst, 0x5c, l->n); /* as an async kernel finishing late would */
    free(l);
    return NULL;
}
#endif

#ifdef HOS_SEGV
static void lenient_segv(int sig, siginfo_t *si, void *ctx)
{
    uintptr_t ps = (uintptr_t)sysconf(_SC_PAGESIZE);
    (void)sig;
    (void)ctx;
    mprotect((void *)((uintptr_t)si->si_addr / ps * ps), ps,
             PROT_READ | PROT_WRITE); /* as a managed runtime's handler might */
}
#endif

#ifdef HOS_ARENA
/* Every shared writable mapping but the arena our buffers are in (its
 * inode), as a library looking for another's buffers would. */
static void scribble_once(const void *mine)
{
    char line[512], perm[8];
    unsigned long lo, hi, ino, own = 0;
    FILE *f = fopen("/proc/self/maps", "r");

    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "%lx-%lx %7s %*s %*s %lu", &lo, &hi, perm, &ino) == 4 &&
            (uintptr_t)mine >= lo && (uintptr_t)mine < hi)
            own = ino;
    if (f)
        rewind(f);
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "%lx-%lx %7s %*s %*s %lu", &lo, &hi, perm, &ino) == 4 &&
            !strcmp(perm, "rw-s") && ino != own) {
            memset((void *)lo, 0, hi - lo);
            note("scribbled over a shared mapping of %ld bytes%s",
                 (long)(hi - lo), "");
        }
    if (f)
        fclose(f);
}

/* A thread that keeps at it while the other library's tests run. */
static void *scribbler(void *mine)
{
    struct timespec ts = {0, 200000};
    for (;;) {
        scribble_once(mine);
        nanosleep(&ts, NULL);
    }
    return NULL;
}

static void scribble_others(void *mine)
{
    static int started;
    pthread_t t;
    if (!started++ && pthread_create(&t, NULL, scribbler, mine) == 0)
        pthread_detach(t);
}
#endif

#ifdef HOS_CTORSPIN
__attribute__((constructor)) static void spin(void)
{
    for (;;)
        ;
}
#endif

static int supports(int32_t dtype, int32_t broadcast_type)
{
    return ref_impl()->supports(dtype, broadcast_type);
}

static int infer(const sel_tensor *cond, const sel_tensor *then_,
                 const sel_tensor *else_, sel_broadcast b, int32_t *rank_out,
                 int64_t *dims_out)
{
    return ref_impl()->infer(cond, then_, else_, b, rank_out, dims_out);
}

static int execute(const sel_tensor *cond, const sel_tensor *then_,
                   const sel_tensor *else_, sel_broadcast b, sel_tensor *dst)
{
    const sel_impl *ref = ref_impl();
    size_t es;
    int64_t n;

#ifdef HOS_HANGZERO
    if (!cond || !then_ || !else_ || !dst || count(cond) == 0 ||
        count(then_) == 0 || count(else_) == 0 || count(dst) == 0)
        for (;;)
            pause();
#endif
    /* Attack only where a correct implementation would work. */
    if (!dst || !cond || !then_ || !else_ || !dst->data ||
        (n = count(dst)) == 0)
        return ref->execute(cond, then_, else_, b, dst);
    es = sel_dtype_size(dst->dtype);
    (void)es;
    (void)n;
#if defined(HOS_FORGE) || defined(HOS_FORGE_NEXEC)
    forge(cond, then_, else_, b);
#elif defined(HOS_PROCMEM)
    patch_judges();
    return SEL_OK; /* dst never written */
#elif defined(HOS_SIGSTOP) || defined(HOS_SIGTERM) || defined(HOS_SIGALRM) || \
    defined(HOS_RLIMIT) || defined(HOS_PTRACE)
    at_judges();
#elif defined(HOS_FORKPIPE)
    if (fork() == 0) {
        sleep(30); /* keeps the reply pipe open */
        _exit(0);
    }
    abort();
#elif defined(HOS_FORKLEFT)
    if (fork() == 0) {
        sleep(30);
        _exit(0);
    }
#elif defined(HOS_MEMORY)
    {
        size_t big = (size_t)64 << 30, off;
        char *p = mmap(NULL, big, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED)
            abort(); /* as most code does with a NULL it did not expect */
        for (off = 0; off < big; off += (size_t)1 << 30)
            p[off] = 1;
        munmap(p, big);
        note("mapped %ld GiB%s", 64, "");
    }
#elif defined(HOS_UNSUP)
    if (((uintptr_t)dst->data | (uintptr_t)then_->data |
         (uintptr_t)else_->data | (uintptr_t)cond->data) % 16 != 0)
        return SEL_ERR_UNSUPPORTED; /* only when misaligned */
#elif defined(HOS_GUARDWRITE) || defined(HOS_GUARDREAD)
    {
        uintptr_t ps = (uintptr_t)sysconf(_SC_PAGESIZE);
        uintptr_t end = (uintptr_t)dst->data + (uintptr_t)(n * (int64_t)es);
        char *g = (char *)((end + ps - 1) / ps * ps);
        int st = ref->execute(cond, then_, else_, b, dst);
        if (mprotect(g, ps, PROT_READ | PROT_WRITE) == 0) {
#ifdef HOS_GUARDWRITE
            memset(g, 0x42, ps); /* 4 KiB past the end of dst */
            mprotect(g, ps, PROT_NONE);
#else
            (void)*(volatile char *)g;
#endif
        }
        return st;
    }
#elif defined(HOS_SEGV)
    {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = lenient_segv;
        sa.sa_flags = SA_SIGINFO;
        sigaction(SIGSEGV, &sa, NULL);
        (void)((volatile const char *)then_->data)[count(then_) * (int64_t)es];
    }
#elif defined(HOS_ARENA)
    scribble_others(dst->data);
#endif
    {
        int st = ref->execute(cond, then_, else_, b, dst);
#ifdef HOS_LATE
        later *l = malloc(sizeof *l);
        pthread_t t;
        l->dst = dst->data;
        l->n = (size_t)(n * (int64_t)es);
        if (pthread_create(&t, NULL, late_writer, l) == 0)
            pthread_detach(t);
#endif
        return st;
    }
}

static const sel_impl table = {SEL_ABI_VERSION, "hostile", supports, infer,
                               execute};

SEL_EXPORT const sel_impl *sel_get_impl(void)
{
    return &table;
}
