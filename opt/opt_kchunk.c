/* opt_kchunk.c - kernel test of the 64-byte chunk programs (opt_chunk.c,
 * opt_chunk__avx512): random broadcast plans of rank 1-4 at every width,
 * each operand placed in the middle of a buffer or ending just before a
 * page that cannot be read (a load past its end faults), dst misaligned
 * between guard bytes, against a plain loop over the elements; every
 * width must reach windows of 17-32 bytes in mode 3 (32-byte loads).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "opt.h"

#define PAGE 4096
#define AREA (OPT_CHUNK_BYTES + PAGE) /* readable before each guard page */
#define POISON 0xa5

static uint64_t seed = 0x2545f4914f6cdd1du;
static int wide; /* programs with a 17-32 byte window in mode 3 */

static uint64_t draw(uint64_t n)
{
    seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
    return seed % n;
}

/* A plan: dims, and per operand a shape with some axes 1 (stride 0). */
static int64_t make_plan(opt_plan *p, size_t w)
{
    int64_t n = 1, st[3] = {1, 1, 1};
    memset(p, 0, sizeof *p);
    p->rank = 1 + (int32_t)draw(4);
    for (int32_t i = 0; i < p->rank; i++)
        p->dims[i] = 1 + (int64_t)draw(i + 1 == p->rank ? 40 : 6);
    for (int32_t i = p->rank - 1; i >= 0; i--) {
        for (int k = 0; k < 3; k++) {
            const int bc = p->dims[i] > 1 && draw(3) == 0;
            p->st[k][i] = bc ? 0 : st[k];
            st[k] *= bc ? 1 : p->dims[i];
        }
        n *= p->dims[i];
    }
    for (int k = 0; k < 3; k++)
        p->in_bytes[k] = (size_t)st[k] * (k ? w : 1);
    return n;
}

/* Element j's byte offset into operand k. */
static size_t at(const opt_plan *p, int k, int64_t j)
{
    int64_t o = 0;
    for (int32_t i = p->rank - 1; i >= 0; i--) {
        o += j % p->dims[i] * p->st[k][i];
        j /= p->dims[i];
    }
    return (size_t)o;
}

/* One plan at width w: 0 when it passes (or is declined). */
static int check(opt_chunk *x, char *const *page, size_t w, int placing)
{
    static char out[OPT_CHUNK_BYTES + 256], want[OPT_CHUNK_BYTES + 256];
    opt_plan p;
    const int64_t n = make_plan(&p, w);
    const size_t off = (size_t)draw(64) + 64, nb = (size_t)n * w;
    char *src[3];
    if (!opt_chunk_build(x, &p, w))
        return 0;
    for (int k = 0; k < 3; k++)
        for (int32_t c = 0; x->mode[k] == 3 && c < x->chunks; c++)
            wide += x->rec[c].n0[k] > 16;
    for (int k = 0; k < 3; k++) { /* at a page's end, or inside */
        src[k] = placing || draw(2) ? page[k] + AREA - p.in_bytes[k]
                                    : page[k] + draw(64);
        for (size_t b = 0; b < p.in_bytes[k]; b++)
            src[k][b] = (char)(k ? draw(256) : draw(3) ? 0 : draw(256));
    }
    memset(out, POISON, sizeof out);
    memset(want, POISON, sizeof want);
    for (int64_t j = 0; j < n; j++) {
        const int pick = src[0][at(&p, 0, j)] != 0;
        memcpy(want + off + (size_t)j * w,
               src[pick ? 1 : 2] + at(&p, pick ? 1 : 2, j) * w, w);
    }
#if defined(__x86_64__)
    opt_chunk__avx512(x, src[0], src[1], src[2], out + off);
#endif
    if (!memcmp(out, want, sizeof out))
        return 0;
    fprintf(stderr, "chunk x%zu: rank %d, %lld elements, nb %zu: differs\n",
            w * 8, (int)p.rank, (long long)n, nb);
    return 1;
}

int opt_kchunk_tests(int tests, int *failed)
{
    static opt_chunk x;
    char *buf = NULL, *page[3];
#if defined(__x86_64__)
    int ok = opt_isa_supported(OPT_ISA_avx512) && opt_cpu_vbmi();
#else
    int ok = 0;
#endif
    if (ok && posix_memalign((void **)&buf, PAGE, 3 * (AREA + PAGE)))
        ok = 0;
    for (int k = 0; ok && k < 3; k++) { /* AREA readable, a page not */
        page[k] = buf + k * (AREA + PAGE);
        ok = !mprotect(page[k] + AREA, PAGE, PROT_NONE);
    }
    for (size_t w = 1; w <= 8; w *= 2) {
        int bad = 0;
        tests++;
        if (!ok) {
            printf("ok %d - chunk_x%zu__avx512 # SKIP needs AVX-512 VBMI\n",
                   tests, w * 8);
            continue;
        }
        wide = 0;
        for (int i = 0; i < 3000 && !bad; i++)
            bad |= check(&x, page, w, i % 4 == 0);
        if (!wide) /* the 32-byte broadcast loads were not reached */
            bad = 1, fprintf(stderr, "chunk x%zu: no wide mode 3\n", w * 8);
        *failed += bad;
        printf("%s %d - chunk_x%zu__avx512\n", bad ? "not ok" : "ok", tests,
               w * 8);
    }
    for (int k = 0; buf && k < 3; k++)
        mprotect(buf + k * (AREA + PAGE) + AREA, PAGE, PROT_READ | PROT_WRITE);
    free(buf);
    return tests;
}
