/* h_progress.c - one status line on stderr while the run goes (tests
 * done of the total, failures so far, the current case, elapsed time),
 * only when stderr is a terminal; pipes and logs get nothing.
 */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "h_results.h"

static int on;
static long total, done, failed;
static char current[80];
static struct timespec t0;

static double secs(const struct timespec *a, const struct timespec *b)
{
    return (double)(b->tv_sec - a->tv_sec) +
           (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

/* Drawn as each test starts, never in between (the run has no timer to
 * spare: h_lua.c's owns SIGALRM), so a hanging test is the one named, with
 * the time it started at.  \r and erase-line rewrite the line in place. */
static void show(void)
{
    struct timespec now;

    clock_gettime(CLOCK_MONOTONIC, &now);
    fprintf(stderr, "\r\033[K[%ld/%ld] %ld failed  %.1fs  %s", done, total,
            failed, secs(&t0, &now), current);
    fflush(stderr);
}

void h_progress_begin(long n)
{
    on = isatty(2);
    total = n;
    done = failed = 0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
}

void h_progress_case(const char *addr)
{
    if (!on)
        return;
    snprintf(current, sizeof current, "%s", addr);
    show();
}

void h_progress_result(int outcome)
{
    done++;
    failed += outcome == H_FAIL;
}

/* The last state, then the line cleared, so what follows starts clean. */
void h_progress_end(void)
{
    if (!on)
        return;
    current[0] = 0;
    show();
    fprintf(stderr, "\r\033[K");
    fflush(stderr);
}
