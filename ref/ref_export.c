/* ref_export.c - the one symbol libselect_ref.so exports.
 * Kept apart from the table so the harness can link the reference
 * statically without a second definition of sel_get_impl.
 */
#include "ref.h"

SEL_EXPORT const sel_impl *sel_get_impl(void)
{
    return ref_impl();
}
