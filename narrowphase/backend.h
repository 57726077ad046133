/* SPDX-License-Identifier: MIT */
/* The narrow-phase backend interface: one static const vtable per backend, chosen by
 * enum in the world def (no runtime registration). A backend answers one question
 * exactly: do two convex hulls at two poses share a point? Touching counts as
 * colliding, and an iteration cap is never an answer.
 *
 * Per pair the world keeps a cache slot of cache_size bytes (coherence data such as a
 * separating axis); cache_init is called when the pair first reaches the narrow phase
 * and cache_release when the pair leaves the broad phase. Scratch memory for one query
 * is provided by the caller, sized by scratch_bytes, so a query never allocates. */
#ifndef COLIBRI_NARROWPHASE_BACKEND_H
#define COLIBRI_NARROWPHASE_BACKEND_H

#include <stdbool.h>
#include <stddef.h>

#include "colibri/types.h"
#include "lib/core/hull.h"
#include "lib/core/vec.h"

/* What one query found. */
typedef struct col_np_result {
    bool colliding;
    /* When separated: a unit world direction s and a certified gap g > 0 with
     * min over b of s.b - max over a of s.a >= g (rounding already subtracted). */
    col_vec3 axis;
    double gap;
    int iterations;   /* backend-specific work count (axes tested, steps taken) */
    int fallbacks;    /* times the backend fell back to a slower exact decision */
} col_np_result;

typedef struct col_np_scratch {
    void *mem;
    size_t size;
} col_np_scratch;

typedef struct col_np_backend {
    const char *name;
    size_t cache_size;
    void (*cache_init)(void *cache, const col_hull *a, const col_hull *b);
    void (*cache_release)(void *cache);
    size_t (*scratch_bytes)(const col_hull *a, const col_hull *b);
    /* cache may be NULL (a one-off query); scratch->size >= scratch_bytes(a, b). */
    void (*query)(void *cache, const col_hull *a, const col_xform *xa, const col_hull *b,
                  const col_xform *xb, col_np_scratch *scratch, col_np_result *out);
} col_np_backend;

/* The backend for an enum value (COL_BACKEND_DEFAULT resolves to the default one), or
 * NULL for an unknown value. */
const col_np_backend *col_np_backend_get(col_backend kind);

extern const col_np_backend col_np_reference;

#endif
