/* SPDX-License-Identifier: MIT */
/* What the libFuzzer targets share: a reader that turns the fuzzer's bytes into numbers
 * (running out of bytes gives zeros, so every input decodes to something), the check
 * that stops a run on a broken promise, and the list of known findings to step around
 * (COLIBRI_FUZZ_SKIP, docs/fuzzing.md). */
#ifndef COLIBRI_FUZZ_UTIL_H
#define COLIBRI_FUZZ_UTIL_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colibri/colibri.h"

typedef struct fz_bytes {
    const uint8_t *data;
    size_t size, pos;
} fz_bytes;

static inline uint8_t fz_u8(fz_bytes *b)
{
    return b->pos < b->size ? b->data[b->pos++] : 0;
}

static inline uint16_t fz_u16(fz_bytes *b)
{
    uint16_t lo = fz_u8(b);
    return (uint16_t)(lo | (uint16_t)fz_u8(b) << 8);
}

static inline bool fz_empty(const fz_bytes *b) { return b->pos >= b->size; }

/* Any double at all, NaN and infinities included: eight raw bytes. */
static inline double fz_raw_double(fz_bytes *b)
{
    uint64_t u = 0;
    for (int k = 0; k < 8; k++) u |= (uint64_t)fz_u8(b) << (8 * k);
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

/* A failed promise: say what, and abort so libFuzzer saves the input. */
#define FZ_CHECK(cond, ...)                                                         \
    do {                                                                            \
        if (!(cond)) {                                                              \
            fprintf(stderr, "fuzz check failed at %s:%d: %s\n  ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                           \
            fputc('\n', stderr);                                                    \
            abort();                                                                \
        }                                                                           \
    } while (0)

/* Known findings of issue 13 that a target should step around, from the environment:
 * COLIBRI_FUZZ_SKIP="1,4" skips findings 1 and 4 (numbers as in docs/fuzzing.md). Lets a
 * long run look past a defect that is already known and being fixed; empty by default. */
static inline bool fz_skip(int finding)
{
    static int parsed = 0;
    static unsigned mask = 0;
    if (!parsed) {
        const char *s = getenv("COLIBRI_FUZZ_SKIP");
        for (; s && *s; s++)
            if (*s >= '1' && *s <= '9') mask |= 1u << (*s - '0');
        parsed = 1;
    }
    return (mask >> finding) & 1u;
}

/* A unit quaternion from bytes (identity when they are all zero), or with mode 255 one
 * whose length is off, to exercise COL_ERR_BAD_QUATERNION. */
static inline col_quat fz_quat(fz_bytes *b)
{
    uint8_t mode = fz_u8(b);
    col_quat q = col_quat_identity();
    if (mode < 128) return q;
    double x = (int8_t)fz_u8(b), y = (int8_t)fz_u8(b), z = (int8_t)fz_u8(b), w = (int8_t)fz_u8(b);
    double n = sqrt(x * x + y * y + z * z + w * w);
    if (n == 0.0) return q;
    if (mode == 255) n *= 0.5;
    q.x = x / n, q.y = y / n, q.z = z / n, q.w = w / n;
    return q;
}

#endif
