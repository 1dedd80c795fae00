/* h_wsec.h - the worker's system call filter (h_wsec.c), and the names of
 * the calls it forbids, so that the judge can say which one a library
 * tried (the filter answers with SIGSYS).
 */
#ifndef H_WSEC_H
#define H_WSEC_H

#include <stddef.h>
#include <sys/types.h>

/* 0, or -1 with the reason in why. */
int h_wsec_install(pid_t self, char *why, size_t n);
/* "kill", "ptrace", ...; NULL for a call the filter does not forbid. */
const char *h_wsec_name(int nr);

#endif
