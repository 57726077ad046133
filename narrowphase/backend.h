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

/* Optional per-shape data of a backend (direction tables, hierarchies), kept beside the
 * vtable so that backends without it need no new fields. The world builds a shape's data
 * once, when the shape is created, for the world's backend only:
 * data_bytes: bytes for hull h (0: none); data_init fills data (16-byte aligned, that
 * many bytes, hull h) and returns the bytes used (<= the size: the world may move the
 * block into a smaller one, so the data holds no pointers into itself);
 * query: the backend's query with each hull's data (either may be NULL: not built). */
typedef struct col_np_shape_ops {
    size_t (*data_bytes)(const col_hull *h);
    size_t (*data_init)(void *data, size_t bytes, const col_hull *h);
    void (*query)(void *cache, const col_hull *a, const void *da, const col_xform *xa,
                  const col_hull *b, const void *db, const col_xform *xb,
                  col_np_scratch *scratch, col_np_result *out);
} col_np_shape_ops;

/* The shape-data operations of a backend, or NULL if it has none (registry.c). */
const col_np_shape_ops *col_np_shape_ops_get(const col_np_backend *be);

/* One query with per-shape data when the backend takes it (ops from
 * col_np_shape_ops_get(be), may be NULL), else the plain query. */
static inline void col_np_query(const col_np_backend *be, const col_np_shape_ops *ops,
                                void *cache, const col_hull *a, const void *da,
                                const col_xform *xa, const col_hull *b, const void *db,
                                const col_xform *xb, col_np_scratch *scratch,
                                col_np_result *out)
{
    if (ops != NULL)
        ops->query(cache, a, da, xa, b, db, xb, scratch, out);
    else
        be->query(cache, a, xa, b, xb, scratch, out);
}

/* The backend for an enum value (COL_BACKEND_DEFAULT resolves to the default one), or
 * NULL for an unknown value. */
const col_np_backend *col_np_backend_get(col_backend kind);

extern const col_np_backend col_np_reference;
extern const col_np_backend col_np_sepvec;
extern const col_np_shape_ops col_np_sepvec_shape_ops;
extern const col_np_backend col_np_voronoi;
extern const col_np_backend col_np_lpip;

#endif
