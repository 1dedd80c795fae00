/* h_wproto.h - what the two sides of the worker pipe share: the message
 * the worker sends back, and whole-buffer reads and writes.  Internal to
 * h_worker.c (the harness side) and h_wproc.c (the worker process).
 */
#ifndef H_WPROTO_H
#define H_WPROTO_H

#include <stddef.h>
#include <stdint.h>

#include "h_worker.h"

enum { M_HELLO = 1, M_DONE, M_FAULT };

/* Every message is one write() below PIPE_BUF, so it arrives whole. */
typedef struct wmsg {
    int kind;
    int ok;
    char text[200];
    h_jres r;
} wmsg;

/* 0, or -1 at EOF or on an error. */
int h_read_full(int fd, void *buf, size_t n);
int h_write_full(int fd, const void *buf, size_t n);

/* The worker: dlopen path, say hello on out, serve jobs from in; never
 * returns.  arena: the shared arena, whose first int is the phase word. */
void h_wproc_main(const char *path, int in, int out, uint8_t *arena);

#endif
