/* ref.h - the reference implementation, for the harness to link as oracle.
 *
 * The reference is also built as libselect_ref.so, whose only export is
 * sel_get_impl() (ref_export.c).  The harness links the same objects
 * statically and calls the table directly; the profile's cond rule reaches
 * it through sel_broadcast.flags like any other implementation.
 */
#ifndef REF_H
#define REF_H

#include "select.h"

/* The reference's table: supports every dtype and every mode, honours
 * SEL_COND_BIDIRECTIONAL. */
const sel_impl *ref_impl(void);

#endif
