/* opt_pool_hooks.h - test-only: where opt_pool.c, built with
 * OPT_POOL_HOOKS (opt_kpool.c), calls the test's opt_pool_hook.  c is the
 * claim word the worker loaded (OPT_POOL_AT_CLAIM) or the new job's
 * generation << 32 (OPT_POOL_AT_COUNT). */
#ifndef OPT_POOL_HOOKS_H
#define OPT_POOL_HOOKS_H

#include <stdint.h>

enum { OPT_POOL_AT_CLAIM, OPT_POOL_AT_COUNT };

void opt_pool_hook(int at, uint64_t c);

#endif
