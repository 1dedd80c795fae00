/* fuzz_repro.c - replays fuzz inputs without libFuzzer: each file named on
 * the command line (or each file of a directory) goes through the same
 * decoder and checks as the fuzz target (harness/diff/fuzz_select.c).
 * -v describes every case and its statuses; -t prints each file's time.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "fuzz_format.h"

static int timing;

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    unsigned char *buf = NULL;
    size_t n = 0, cap = 0, got;
    struct timespec a, b;

    if (!f) {
        fprintf(stderr, "fuzz_repro: %s: cannot open\n", path);
        return 2;
    }
    do { /* inputs are small; grow as needed */
        if (n == cap && !(buf = realloc(buf, cap = cap ? 2 * cap : 4096))) {
            fprintf(stderr, "fuzz_repro: %s: out of memory\n", path);
            fclose(f);
            return 2;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    fclose(f);
    if (h_fuzz_verbose)
        fprintf(stderr, "%s (%zu bytes)\n", path, n);
    clock_gettime(CLOCK_MONOTONIC, &a);
    LLVMFuzzerTestOneInput(buf, n); /* aborts on a mismatch */
    clock_gettime(CLOCK_MONOTONIC, &b);
    if (timing)
        fprintf(stderr, "%9.3f ms %s\n", (double)(b.tv_sec - a.tv_sec) * 1e3 +
                (double)(b.tv_nsec - a.tv_nsec) / 1e6, path);
    free(buf);
    return 0;
}

static int run_path(const char *path, int *count)
{
    struct stat st;
    struct dirent **e;
    int i, n, rc = 0;

    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return ++*count, run_file(path);
    if ((n = scandir(path, &e, NULL, alphasort)) < 0) {
        fprintf(stderr, "fuzz_repro: %s: cannot read\n", path);
        return 2;
    }
    for (i = 0; i < n; i++) { /* in name order, so runs compare */
        char sub[4096];
        if (!rc && e[i]->d_name[0] != '.' &&
            strcmp(e[i]->d_name, "README.md") != 0) {
            snprintf(sub, sizeof sub, "%s/%s", path, e[i]->d_name);
            rc = run_path(sub, count);
        }
        free(e[i]);
    }
    free(e);
    return rc;
}

int main(int argc, char **argv)
{
    int i, rc = 0, count = 0, files = 0;

    for (i = 1; i < argc && !rc; i++) {
        if (strcmp(argv[i], "-v") == 0)
            h_fuzz_verbose = 1;
        else if (strcmp(argv[i], "-t") == 0)
            timing = 1;
        else
            files++, rc = run_path(argv[i], &count);
    }
    if (!files) {
        fprintf(stderr, "usage: fuzz_repro [-v] [-t] FILE|DIR...\n");
        return 2;
    }
    if (!rc)
        fprintf(stderr, "fuzz_repro: %d inputs, no mismatch\n", count);
    return rc;
}
