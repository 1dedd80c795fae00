/* huge.c - one output past 2^31 elements (IO-LENGTH-1): a u8 dst of
 * 33x65537x1024 (2.2 GB) from inputs of a few KiB, checked by sampling,
 * around 2^31 and at the end, in a child process per implementation.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "select.h"

/* dst[i][j][k] = cond[k] ? then[j] : else[i][k]: cond {1,1,1024}, then
 * {1,65537,1}, else {33,1,1024}; no two axes broadcast alike, so nothing
 * coalesces and every dst element has its own flat index. */
#define D0 33
#define D1 65537
#define D2 1024
#define COUNT ((uint64_t)D0 * D1 * D2)

static uint8_t cond_b[D2], then_b[D1], else_b[D0 * D2];

static uint8_t expect(uint64_t n)
{
    uint64_t k = n % D2, j = n / D2 % D1, i = n / D2 / D1;
    return cond_b[k] ? then_b[j] : else_b[i * D2 + k];
}

static void fill_inputs(void)
{
    uint32_t x = 2463534242u, i;
    for (i = 0; i < D2; i++)
        x ^= x << 13, x ^= x >> 17, x ^= x << 5, cond_b[i] = (uint8_t)(x & 1);
    for (i = 0; i < D1; i++) /* then never equals else (else is odd) */
        then_b[i] = (uint8_t)((i * 2 + i / 256 * 6) & 0xfe);
    for (i = 0; i < D0 * D2; i++)
        else_b[i] = (uint8_t)((i * 7 + i / D2 * 10) | 1);
}

/* MemAvailable in bytes, 0 when unknown. */
static uint64_t mem_available(void)
{
    char line[128];
    unsigned long long kb = 0;
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
            break;
    fclose(f);
    return (uint64_t)kb << 10;
}

/* The elements checked: the first and last 64 Ki, 64 Ki around 2^31 and
 * around every multiple of 2^28, and 2^20 pseudo-random ones. */
static int verify(const uint8_t *d, uint8_t poison, const char *what)
{
    uint64_t n, a, x = 88172645463325252u, checked = 0, m;
    for (m = 0; m <= COUNT; m += (uint64_t)1 << 28) {
        a = m > 32768 ? m - 32768 : 0;
        for (n = a; n < a + 65536 && n < COUNT; n++, checked++)
            if (d[n] != expect(n))
                goto bad;
    }
    for (a = (uint64_t)1 << 31, n = a - 32768; n < a + 32768; n++, checked++)
        if (d[n] != expect(n))
            goto bad;
    for (n = COUNT - 65536; n < COUNT; n++, checked++)
        if (d[n] != expect(n))
            goto bad;
    for (m = 0; m < (1u << 20); m++, checked++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17, n = x % COUNT;
        if (d[n] != expect(n))
            goto bad;
    }
    printf("# %s: %llu elements checked, poison 0x%02x\n", what,
           (unsigned long long)checked, poison);
    return 0;
bad:
    printf("# %s: element %llu (coords %llu,%llu,%llu): expected 0x%02x, got "
           "0x%02x%s\n", what, (unsigned long long)n,
           (unsigned long long)(n / D2 / D1), (unsigned long long)(n / D2 % D1),
           (unsigned long long)(n % D2), expect(n), d[n],
           d[n] == poison ? " (never written: the poison)" : "");
    return 1;
}

/* Runs in the child: infer, then execute twice over two poisons. */
static int run(const char *lib)
{
    static const int64_t dc[3] = {1, 1, D2}, dt[3] = {1, D1, 1},
                         de[3] = {D0, 1, D2}, dd[3] = {D0, D1, D2};
    sel_tensor c = {SEL_DT_BOOLEAN, 3, dc, cond_b},
               t = {SEL_DT_U8, 3, dt, then_b}, e = {SEL_DT_U8, 3, de, else_b},
               dst = {SEL_DT_U8, 3, dd, NULL};
    sel_broadcast b = {SEL_BROADCAST_NUMPY, -1, 0};
    const sel_impl *(*get)(void);
    const sel_impl *impl;
    int64_t dims[SEL_MAX_RANK];
    int32_t rank = -1;
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    int p, st, bad = 0;

    if (!h || !(get = (const sel_impl *(*)(void))dlsym(h, "sel_get_impl")) ||
        !(impl = get()) || impl->abi_version != SEL_ABI_VERSION) {
        printf("# %s: cannot load: %s\n", lib, h ? "no usable sel_get_impl" : dlerror());
        return 1;
    }
    st = impl->infer(&c, &t, &e, b, &rank, dims);
    if (st != SEL_OK || rank != 3 || memcmp(dims, dd, sizeof dd)) {
        printf("# infer: status %s, rank %d (want SEL_OK, 33x65537x1024)\n",
               sel_status_name(st), (int)rank);
        return 1;
    }
    dst.data = mmap(NULL, COUNT, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (dst.data == MAP_FAILED) {
        printf("# cannot map %llu bytes for dst\n", (unsigned long long)COUNT);
        return 1;
    }
    for (p = 0; p < 2 && !bad; p++) {
        uint8_t poison = p ? 0xa5 : 0x5a; /* then is even, else odd */
        memset(dst.data, poison, COUNT);
        if ((st = impl->execute(&c, &t, &e, b, &dst)) != SEL_OK) {
            printf("# execute: %s, want SEL_OK\n", sel_status_name(st));
            return 1;
        }
        bad = verify(dst.data, poison, impl->name);
    }
    return bad;
}

int main(int argc, char **argv)
{
    uint64_t need = COUNT + ((uint64_t)256 << 20), have = mem_available();
    int i, fails = 0, status;

    if (argc < 2) {
        fprintf(stderr, "usage: huge LIB...  (each must pass; prefix a LIB "
                        "with ! when it must fail)\n");
        return 2;
    }
    printf("1..%d\n", argc - 1);
    if (have && have < need) {
        for (i = 1; i < argc; i++)
            printf("ok %d - %s # SKIP needs %llu MiB, MemAvailable is %llu MiB\n",
                   i, argv[i], (unsigned long long)(need >> 20),
                   (unsigned long long)(have >> 20));
        return 0;
    }
    fill_inputs();
    for (i = 1; i < argc; i++) {
        int want_fail = argv[i][0] == '!';
        const char *lib = argv[i] + want_fail;
        pid_t pid;
        fflush(stdout);
        if ((pid = fork()) == 0) {
            int r = run(lib);
            fflush(stdout);
            _exit(r);
        }
        waitpid(pid, &status, 0);
        int failed = !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        if (WIFSIGNALED(status))
            printf("# %s: killed by signal %d\n", lib, WTERMSIG(status));
        printf("%s %d - %s: u8 33x65537x1024 (%llu elements, past 2^31)%s\n",
               failed == want_fail ? "ok" : "not ok", i, lib,
               (unsigned long long)COUNT, want_fail ? ", must fail" : "");
        fails += failed != want_fail;
    }
    return fails != 0;
}
