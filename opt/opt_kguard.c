/* opt_kguard.c - test-only (opt_kchunk.c, opt_kvtile.c): what the kernel
 * tests of the small-output loops share.  Three operand areas, each ending
 * just before a page that cannot be read, so a load past an operand placed
 * at its area's end faults; random broadcast data placed at an area's end
 * or inside; and the plain loop over the elements the loops must match.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "opt_ktests.h"

#define PAGE 4096

uint64_t opt_kdraw(uint64_t *seed, uint64_t n)
{
    *seed ^= *seed << 13, *seed ^= *seed >> 7, *seed ^= *seed << 17;
    return *seed % n;
}

int opt_kguard_open(opt_kguard *g, size_t area)
{
    g->area = (area + PAGE - 1) / PAGE * PAGE;
    if (posix_memalign((void **)&g->buf, PAGE, 3 * (g->area + PAGE))) {
        g->buf = NULL;
        return 0;
    }
    for (int k = 0; k < 3; k++) { /* area readable, the page after not */
        g->page[k] = g->buf + k * (g->area + PAGE);
        if (mprotect(g->page[k] + g->area, PAGE, PROT_NONE))
            return 0;
    }
    return 1;
}

void opt_kguard_close(opt_kguard *g)
{
    for (int k = 0; g->buf && k < 3; k++)
        mprotect(g->buf + k * (g->area + PAGE) + g->area, PAGE,
                 PROT_READ | PROT_WRITE);
    free(g->buf);
    g->buf = NULL;
}

/* Element j's element offset into operand k. */
static size_t at(const opt_plan *p, int k, int64_t j)
{
    int64_t o = 0;
    for (int32_t i = p->rank - 1; i >= 0; i--) {
        o += j % p->dims[i] * p->st[k][i];
        j /= p->dims[i];
    }
    return (size_t)o;
}

void opt_kguard_fill(const opt_kguard *g, const opt_plan *p, uint64_t *seed,
                     int at_end, char *src[3])
{
    for (int k = 0; k < 3; k++) { /* at a page's end, or inside */
        src[k] = at_end || opt_kdraw(seed, 2)
                     ? g->page[k] + g->area - p->in_bytes[k]
                     : g->page[k] + opt_kdraw(seed, 64);
        for (size_t b = 0; b < p->in_bytes[k]; b++)
            src[k][b] = (char)(k ? opt_kdraw(seed, 256)
                                 : opt_kdraw(seed, 3) ? 0 : opt_kdraw(seed, 256));
    }
}

void opt_kguard_want(const opt_plan *p, size_t w, char *const src[3],
                     char *want)
{
    int64_t n = 1;
    for (int32_t i = 0; i < p->rank; i++)
        n *= p->dims[i];
    for (int64_t j = 0; j < n; j++) {
        const int pick = src[0][at(p, 0, j)] != 0;
        memcpy(want + (size_t)j * w,
               src[pick ? 1 : 2] + at(p, pick ? 1 : 2, j) * w, w);
    }
}
