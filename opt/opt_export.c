/* opt_export.c - the one symbol libselect_opt.so exports.
 * Apart from the table so tests can link the objects statically next to
 * the reference without two definitions of sel_get_impl.
 */
#include "opt.h"

SEL_EXPORT const sel_impl *sel_get_impl(void)
{
    return opt_impl();
}
