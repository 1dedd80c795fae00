/* h_tap.c - TAP version 13 on stdout (the prove of Perl 5.36 rejects
 * 14).  Descriptions are kept to one line without '#', which would start
 * a directive; diagnostics are YAML blocks indented by two spaces.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "h_results.h"
#include "h_tap.h"

static long number, failures;
static long counts[4]; /* by enum h_outcome */

static void vadd(h_diag *d, int indent, const char *key, int quote,
                 const char *fmt, va_list ap)
{
    char val[2048];
    size_t room = sizeof d->buf - d->len, i;
    int n;

    vsnprintf(val, sizeof val, fmt, ap);
    n = snprintf(d->buf + d->len, room, "%*s%s:%s%s", indent + 2, "", key,
                 quote || val[0] ? " " : "", quote ? "\"" : "");
    if (n < 0 || (size_t)n >= room)
        return;
    d->len += (size_t)n;
    for (i = 0; val[i] && d->len + 4 < sizeof d->buf; i++) {
        unsigned char ch = (unsigned char)val[i];
        if (quote && (ch == '"' || ch == '\\'))
            d->buf[d->len++] = '\\';
        d->buf[d->len++] = ch < ' ' ? ' ' : (char)ch;
    }
    if (quote && d->len + 2 < sizeof d->buf)
        d->buf[d->len++] = '"';
    if (d->len + 1 < sizeof d->buf)
        d->buf[d->len++] = '\n';
    d->buf[d->len] = 0;
}

void h_diag_str(h_diag *d, int indent, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vadd(d, indent, key, 1, fmt, ap);
    va_end(ap);
}

void h_diag_raw(h_diag *d, int indent, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vadd(d, indent, key, 0, fmt, ap);
    va_end(ap);
}

void h_tap_begin(void)
{
    printf("TAP version 13\n");
}

void h_tap_oneline(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < ' ' || *s == 0x7f)
            *s = ' ';
}

/* One line whatever the arguments hold (an --impl path with a newline
 * would otherwise start a TAP line of its own). */
void h_tap_comment(const char *fmt, ...)
{
    char line[2048];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    h_tap_oneline(line);
    printf("# %s\n", line);
}

void h_tap_plan(long n)
{
    printf("1..%ld\n", n);
}

/* One line, '#' escaped as TAP asks, control characters as spaces. */
static void put_text(const char *s)
{
    for (; *s; s++) {
        if (*s == '#')
            fputs("\\#", stdout);
        else
            fputc((unsigned char)*s < ' ' ? ' ' : *s, stdout);
    }
}

void h_tap_line(int outcome, const char *desc, const char *reason,
                const h_diag *d)
{
    number++;
    failures += outcome == H_FAIL;
    counts[outcome]++;
    printf("%s %ld - ", outcome == H_PASS || outcome == H_SKIP ? "ok"
                                                             : "not ok",
           number);
    put_text(desc);
    if (outcome == H_SKIP || outcome == H_TODO) {
        fputs(outcome == H_SKIP ? " # SKIP " : " # TODO ", stdout);
        put_text(reason ? reason : "");
    }
    fputc('\n', stdout);
    if (d && d->len)
        printf("  ---\n%s  ...\n", d->buf);
    h_results_line(outcome, desc, reason, d);
}

/* A closing comment for people reading the stream (prove ignores it). */
void h_tap_summary(void)
{
    printf("# %ld tests: %ld passed, %ld failed, %ld skipped, %ld todo\n",
           number, counts[H_PASS], counts[H_FAIL], counts[H_SKIP],
           counts[H_TODO]);
}

long h_tap_failures(void)
{
    return failures;
}
