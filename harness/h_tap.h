/* h_tap.h - the TAP version 13 producer: the header and plan, one line
 * per test, and a YAML diagnostic block under each failure.  Nothing else
 * in selcheck writes to stdout.
 */
#ifndef H_TAP_H
#define H_TAP_H

#include <stddef.h>

enum h_outcome { H_PASS, H_FAIL, H_SKIP, H_TODO };

/* A diagnostic: YAML lines at a fixed indent, in insertion order. */
typedef struct h_diag {
    char buf[6144];
    size_t len;
} h_diag;

/* key: value, the value a double-quoted YAML string. */
void h_diag_str(h_diag *d, int indent, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* key: value, the value written as is (numbers, [lists]). */
void h_diag_raw(h_diag *d, int indent, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

void h_tap_begin(void);
/* "# ..." on one line: control characters become spaces. */
void h_tap_comment(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Control characters of s replaced by spaces, in place: for text that
 * reaches TAP another way (the Bail out! lines). */
void h_tap_oneline(char *s);
void h_tap_plan(long n);
/* One test line.  reason: the SKIP/TODO text, or NULL; d: NULL or the
 * diagnostic printed (as a YAML block) after the line. */
void h_tap_line(int outcome, const char *desc, const char *reason,
                const h_diag *d);
long h_tap_failures(void);
/* "# N tests: P passed, F failed, S skipped, T todo" after the last test. */
void h_tap_summary(void);

#endif
