/* opt_past.h - whether a loop may read past an operand's last byte in
 * place: the bytes it reads there lie on the page of that last byte (a
 * read there cannot fault), and no sanitizer watches (ASan would report
 * the read past the buffer; TSan a race with whoever owns those bytes).
 */
#ifndef OPT_PAST_H
#define OPT_PAST_H

#include <stddef.h>
#include <stdint.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define OPT_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define OPT_SANITIZED 1
#endif
#endif

/* 1 when the past bytes after [x, x + n) (n > 0) are on the page of byte
 * x + n - 1 and no sanitizer runs. */
static inline int opt_past_ok(const void *x, size_t n, size_t past)
{
#if defined(OPT_SANITIZED)
    (void)x, (void)n, (void)past;
    return 0;
#else
    const uintptr_t end = (uintptr_t)x + n - 1;
    return end >> 12 == (end + past) >> 12;
#endif
}

#endif
