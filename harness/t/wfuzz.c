/* wfuzz.c - the protocol fuzzer's half in the worker: a seeded random
 * mutator over every reply (fields set to extremes, bits flipped, short,
 * doubled, trailing garbage, wrong kinds and sequence numbers), linked
 * into selcheck-worker-fuzz; harness/t/wfuzz.sh runs the judge against it.
 */
#include <stdlib.h>
#include <string.h>

#include "h_wproto.h"

static uint64_t rng;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* The state for this message: SELCHECK_WFUZZ and its sequence number, so
 * a run is the same every time whatever the restarts. */
static void seed(const h_wrep *m)
{
    const char *s = getenv("SELCHECK_WFUZZ");
    rng = (s ? strtoull(s, NULL, 10) : 1) * 0x9e3779b97f4a7c15ull +
          m->seq * 0xbf58476d1ce4e5b9ull + (uint64_t)m->kind + 1;
    next();
}

static const int32_t extremes[] = {0, 1, -1, 2, 5, 6, 8, 9, 64, 65, 1 << 30,
                                   -(1 << 30), INT32_MAX, INT32_MIN};

/* One int32 field, by offset, set to an extreme or a random value. */
static void field(h_wrep *m)
{
    size_t off = (next() % (sizeof *m / 4)) * 4;
    int32_t v = next() % 2 ? extremes[next() % (sizeof extremes / 4)]
                           : (int32_t)next();
    memcpy((char *)m + off, &v, 4);
}

int h_wfuzz_send(int fd, const h_wrep *orig)
{
    h_wrep m = *orig;
    uint8_t junk[64];
    size_t i;

    seed(orig);
    if (m.kind == M_HELLO) { /* the name is untrusted too: no NUL in it */
        if (next() % 4 == 0)
            for (i = 0; i < sizeof m.text; i++)
                m.text[i] = (char)(next() % 255 + 1);
        return h_write_full(fd, &m, sizeof m);
    }
    switch (next() % 10) {
    case 0: case 1: case 2: case 3: /* most replies go through untouched */
        break;
    case 4:
        field(&m);
        break;
    case 5:
        field(&m);
        field(&m);
        field(&m);
        break;
    case 6:
        for (i = 0; i < 8; i++)
            ((uint8_t *)&m)[next() % sizeof m] ^= (uint8_t)(1u << (next() % 8));
        break;
    case 7: /* cut short, then gone */
        h_write_full(fd, &m, (size_t)(next() % sizeof m));
        _exit(3);
    case 8: /* twice */
        if (h_write_full(fd, &m, sizeof m))
            return -1;
        break;
    default: /* trailing garbage */
        for (i = 0; i < sizeof junk; i++)
            junk[i] = (uint8_t)next();
        if (h_write_full(fd, &m, sizeof m))
            return -1;
        return h_write_full(fd, junk, (size_t)(next() % sizeof junk) + 1);
    }
    return h_write_full(fd, &m, sizeof m);
}
