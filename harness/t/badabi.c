/* badabi.c - a library whose table reports another ABI version: selcheck
 * must refuse it at setup with exit status 2 (harness/t/run.sh).
 */
#include "select.h"

static int supports(int32_t dtype, int32_t broadcast_type)
{
    (void)dtype;
    (void)broadcast_type;
    return 1;
}

static const sel_impl table = {SEL_ABI_VERSION + 1, "badabi", supports,
                               NULL, NULL};

const sel_impl *sel_get_impl(void)
{
    return &table;
}
