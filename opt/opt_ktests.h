/* opt_ktests.h - test-only: what the kernel tests of the small-output
 * loops share (opt_kguard.c) and their entry points, for opt_ktest.c. */
#ifndef OPT_KTESTS_H
#define OPT_KTESTS_H

#include "opt.h"

/* Tests only (opt_kguard.c): operand areas before unreadable pages,
 * random operands placed in them, the plain loop's output (want). */
typedef struct opt_kguard { char *buf, *page[3]; size_t area; } opt_kguard;
uint64_t opt_kdraw(uint64_t *seed, uint64_t n);
int opt_kguard_open(opt_kguard *g, size_t area);
void opt_kguard_close(opt_kguard *g);
void opt_kguard_fill(const opt_kguard *g, const opt_plan *p, uint64_t *seed, int at_end, char *src[3]);
void opt_kguard_want(const opt_plan *p, size_t w, char *const src[3], char *want);
/* Tests only (opt_kchunk.c, linked into the kernel test): the chunk
 * kernel against a plain loop per width, and the whole call past
 * OPT_SMALL_MAX elements; prints OPT_KCHUNK_TESTS TAP lines. */
#define OPT_KCHUNK_TESTS 5
int opt_kchunk_tests(int tests, int *failed);
/* opt_kvtile.c: the tiles' kernel test (opt_ktest runs it), the AVX2
 * loop and the AVX-512 one per width; prints OPT_KVTILE_TESTS TAP lines. */
#define OPT_KVTILE_TESTS 8
int opt_kvtile_tests(int tests, int *failed);
/* opt_kphase.c: the flat walk over periodic operands (opt_phase.c) at
 * every ISA level, and the refusal memo; prints OPT_KPHASE_TESTS TAP
 * lines. */
#define OPT_KPHASE_TESTS (OPT_ISA_COUNT + 1)
int opt_kphase_tests(int tests, int *failed);
/* opt_kptile.c: ptile's operands read in place or copied at a page's
 * end (opt_ptile_range); prints OPT_KPTILE_TESTS TAP lines. */
#define OPT_KPTILE_TESTS 4
int opt_kptile_tests(int tests, int *failed);
/* opt_kfar.c: row copies requested far ahead (opt_exec.c, FAR_ROW) and
 * select rows streamed past half nt_min, under a guard page; prints
 * OPT_KFAR_TESTS TAP lines. */
#define OPT_KFAR_TESTS 8
int opt_kfar_tests(int tests, int *failed);
/* opt_khit.c: the warm call's record and the small walk's memo across
 * calls; prints OPT_KHIT_TESTS TAP lines. */
#define OPT_KHIT_TESTS 3
int opt_khit_tests(int tests, int *failed);

#endif
