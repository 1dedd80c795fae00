/* opt_stage.h - streams of whole lines for blocks that cut lines
 * (opt_stage.c), for opt_ptile.c's blocks under streams. */
#ifndef OPT_STAGE_H
#define OPT_STAGE_H

#include "opt.h"

/* Bytes a stage holds: a part of the output written there at a time may
 * be up to OPT_STAGE_PIECE bytes (callers cut their runs of blocks so).
 * 2 KiB: the blocks' compute and the lines' streams alternate (longer
 * pieces let them overlap less, shorter ones call the block loop more
 * often); 61:207x4x1114x1:1x4x1114x61 i8, bench --min, three runs in
 * turn: 1 KiB 0.52 / 0.54 / 0.18, 2 KiB 0.67 / 0.66 / 0.71, 4 KiB 0.70
 * / 0.48 / 0.43 (a loaded machine). */
#define OPT_STAGE_PIECE 2048
#define OPT_STAGE_BYTES (OPT_STAGE_PIECE + 256)
/* A writer may store up to this many bytes past its piece (the ptile
 * blocks' spill and whole last chunks): the buffer has room for them. */
#define OPT_STAGE_SLACK 256

/* Bytes of a buffer that opt_stage_place() puts a stage in. */
#define OPT_STAGE_RAW (4096 + OPT_STAGE_BYTES + OPT_STAGE_SLACK)

/* Where in raw (OPT_STAGE_RAW bytes, 64-byte aligned) a stage shares no
 * address bits 0-11 with the n bytes at keep (n <= 4096 - OPT_STAGE_BYTES
 * - OPT_STAGE_SLACK), which the writer reads while the stage's lines
 * stream: just past them modulo 4096 (opt_stage.c says why). */
char *opt_stage_place(char *raw, const void *keep, size_t n);

/* Output bytes [a, b) (addresses in dst) are held in buf, whose byte 0
 * stands for the line at a0 (a0 <= a, a line boundary): buf and dst agree
 * modulo 64, so a kernel writing into buf meets the same alignment. */
typedef struct opt_stage {
    char *buf, *a0, *a, *b;
    opt_kernel_fn *copy; /* a 1-byte copy kernel: streams whole lines */
} opt_stage;

/* buf: OPT_STAGE_BYTES + OPT_STAGE_SLACK bytes, 64-byte aligned. */
void opt_stage_init(opt_stage *s, char *buf, int isa);

/* Where to write output bytes [d, d + n) (n <= OPT_STAGE_PIECE): a place
 * in the stage.  Bytes that continue the held ones join them; whole lines
 * are streamed out as the stage fills, and other bytes flush it first. */
char *opt_stage_put(opt_stage *s, char *d, size_t n);

/* Everything held to dst: whole lines streamed, the partial lines at the
 * ends with plain stores (another range may hold the rest of the line).
 * The caller fences. */
void opt_stage_flush(opt_stage *s);

#endif
