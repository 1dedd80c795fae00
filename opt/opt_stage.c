/* opt_stage.c - blocks that cut lines, under streams: written into a small
 * buffer in L1 that mirrors dst's line alignment, then moved to dst as
 * whole aligned lines with non-temporal stores.
 *
 * A ptile block of short rows seldom starts or ends on a line (rows of
 * 51, 61, 7 x 4 bytes): streamed in place, each block's first and last
 * lines would take plain stores (a read for ownership each, and a line
 * half streamed, half cached), so such shapes were refused streams and
 * ran in opt_block's scratch.  Blocks here are written in order into the
 * stage; only whole lines leave it, and the partial last line waits for
 * the next block.  (opt_block's 8 KiB blocks gain nothing from it: they
 * cut a line only every 8 KiB; 41569x3:25x41569x3:25x1x3 f64 pdpd lost
 * 0.76 -> 0.51 through a stage.)
 */
#include <string.h>

#include "opt_ptile.h"
#include "opt_stage.h"

#define LINE 64

static char *line_down(char *p)
{
    return (char *)((uintptr_t)p & ~(uintptr_t)(LINE - 1));
}

static char *line_up(char *p)
{
    return line_down(p + LINE - 1);
}

/* Stores into the stage wait behind the streamed lines (the store queue
 * drains in order, the streams at the memory's pace), and on Zen 4 a load
 * whose address bits 0-11 match such a store's waits with it (4K
 * aliasing): a stage over the bytes of the ptile tiles modulo 4096, which
 * the block loop reads at every call and run, kept the blocks from
 * overlapping the streams.  61:207x4x1114x1:1x4x1114x61 i8, one thread,
 * the stage at t + 2560-3584 mod 4096: 0.38-0.41, at t + 320-1408:
 * 0.81-0.91; on the stack, at a random offset per process, the staged
 * shapes swung 0.2-0.8 from run to run. */
_Static_assert(OPT_PTILE_HOT + OPT_STAGE_BYTES + OPT_STAGE_SLACK <= 4096,
               "a stage and the tiles' hot bytes share no byte modulo 4096");

char *opt_stage_place(char *raw, const void *keep, size_t n)
{
    const uintptr_t at = (uintptr_t)keep + n + LINE - 1;
    return raw + (at - (uintptr_t)raw) % 4096 / LINE * LINE;
}

void opt_stage_init(opt_stage *s, char *buf, int isa)
{
    s->buf = buf;
    s->a0 = s->a = s->b = NULL;
    s->copy = opt_kernel(isa, 0, OPT_K_copy);
}

/* Bytes [a, e) held in the stage to dst: plain stores up to the first
 * line boundary, the whole lines after it streamed. */
static void out(const opt_stage *s, char *e)
{
    char *const h = line_up(s->a) < e ? line_up(s->a) : e;
    if (h > s->a)
        memcpy(s->a, s->buf + (s->a - s->a0), (size_t)(h - s->a));
    if (e > h)
        s->copy((size_t)(e - h), NULL, s->buf + (h - s->a0), NULL, h, 1);
}

void opt_stage_flush(opt_stage *s)
{
    char *const t = line_down(s->b);
    if (!s->b)
        return;
    if (t > s->a) {
        out(s, t);
        s->a = t;
    }
    if (s->b > s->a) /* the last partial line: plain stores */
        memcpy(s->a, s->buf + (s->a - s->a0), (size_t)(s->b - s->a));
    s->a0 = s->a = s->b = NULL;
}

char *opt_stage_put(opt_stage *s, char *d, size_t n)
{
    if (s->b && d == s->b && d + n > s->a0 + OPT_STAGE_BYTES) {
        /* full: its whole lines out, the partial last one to the front */
        char *const t = line_down(s->b);
        if (t > s->a)
            out(s, t);
        memcpy(s->buf, s->buf + (t - s->a0), (size_t)(s->b - t));
        s->a0 = s->a = t;
    } else if (s->b && d != s->b)
        opt_stage_flush(s);
    if (!s->b)
        s->a0 = line_down(d), s->a = s->b = d;
    s->b = d + n;
    return s->buf + (d - s->a0);
}
