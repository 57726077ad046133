/* SPDX-License-Identifier: MIT */
/* The narrow-phase backend interface: one static const vtable per backend, chosen by
 * enum in the world def (no runtime registration). A backend answers one question
 * exactly: do two convex hulls at two poses share a point? Touching counts as
 * colliding, and an iteration cap is never an answer.
 *
 * Per pair the world keeps a cache slot of cache_size bytes (coherence data such as a
 * separating axis); cache_init is called when the pair first reaches the narrow phase
 * (or comes back to it after frames away). A cache holds plain values only (no memory
 * of its own, no pointers), so a pair leaving the broad phase just frees its slot: there
 * is no release hook. Scratch memory for one query is provided by the caller, sized by
 * the rule below, so a query never allocates.
 *
 * The scratch rule (the one place it is stated). A backend's scratch_need(ca, cb) is the
 * bytes one query on hulls a and b needs (the fallbacks it may call included, and slack
 * for aligning an unaligned start). It is a function of the two hulls' counts alone
 * (col_np_counts: vertices, faces, edges) and never decreases when any count of either
 * hull grows. Hence for any set of hulls, with M the componentwise maximum of their
 * counts, scratch_need(M, M) covers every ordered pair of the set, and that is how the
 * world sizes its workers' scratch, once, when a shape is created (lib/shape.c): a frame
 * never grows it. The larger of the single shapes' needs scratch_need(a, a) and
 * scratch_need(b, b) is NOT an upper bound: the reference keeps four doubles per face of
 * b but three per face of a, so (a, b) may need more than either hull with itself.
 * One-off queries size for their pair: col_np_scratch_bytes(be, a, b). */
#ifndef COLIBRI_NARROWPHASE_BACKEND_H
#define COLIBRI_NARROWPHASE_BACKEND_H

#include <assert.h>
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

/* What a scratch need depends on: a hull's counts (the scratch rule above). */
typedef struct col_np_counts {
    int vertices, faces, edges;
} col_np_counts;

static inline col_np_counts col_np_counts_of(const col_hull *h)
{
    col_np_counts c = {h->vertex_count, h->face_count, h->edge_count};
    return c;
}

/* The componentwise maximum: counts that cover both x and y. */
static inline col_np_counts col_np_counts_max(col_np_counts x, col_np_counts y)
{
    col_np_counts m = {x.vertices > y.vertices ? x.vertices : y.vertices, x.faces > y.faces ? x.faces : y.faces,
                       x.edges > y.edges ? x.edges : y.edges};
    return m;
}

/* A backend. The per-shape data hooks are optional (NULL when the backend has none):
 * shape_data_bytes gives the bytes for hull h (0: none); shape_data_init fills data
 * (16-byte aligned, that many bytes, hull h) and returns the bytes used (<= the size:
 * the world may move the block into a smaller one, so the data holds no pointers into
 * itself). The world builds a shape's data once, when the shape is created, for the
 * world's backend only. */
typedef struct col_np_backend {
    const char *name;
    size_t cache_size;
    void (*cache_init)(void *cache, const col_hull *a, const col_hull *b);
    /* Scratch bytes of one query on hulls with counts a and b: the scratch rule above. */
    size_t (*scratch_need)(col_np_counts a, col_np_counts b);
    size_t (*shape_data_bytes)(const col_hull *h);
    size_t (*shape_data_init)(void *data, size_t bytes, const col_hull *h);
    /* The one query. cache may be NULL (a one-off query); da and db are the hulls'
     * shape data, either may be NULL (not built, or a backend without shape data, which
     * ignores them); scratch->size >= scratch_need(a, b). */
    void (*query)(void *cache, const col_hull *a, const void *da, const col_xform *xa,
                  const col_hull *b, const void *db, const col_xform *xb,
                  col_np_scratch *scratch, col_np_result *out);
} col_np_backend;

/* The scratch one query of be on the pair (a, b) needs. */
static inline size_t col_np_scratch_bytes(const col_np_backend *be, const col_hull *a, const col_hull *b)
{
    return be->scratch_need(col_np_counts_of(a), col_np_counts_of(b));
}

/* One query of be (its arguments as in col_np_backend.query), with the scratch rule
 * checked in debug builds (a few multiplications per query). */
static inline void col_np_query(const col_np_backend *be, void *cache, const col_hull *a,
                                const void *da, const col_xform *xa, const col_hull *b,
                                const void *db, const col_xform *xb, col_np_scratch *scratch,
                                col_np_result *out)
{
    assert(scratch->size >= col_np_scratch_bytes(be, a, b));
    be->query(cache, a, da, xa, b, db, xb, scratch, out);
}

/* The backend for an enum value (COL_BACKEND_DEFAULT resolves to the default one), or
 * NULL for an unknown value. */
const col_np_backend *col_np_backend_get(col_backend kind);

extern const col_np_backend col_np_reference;
extern const col_np_backend col_np_sepvec;
extern const col_np_backend col_np_voronoi;
extern const col_np_backend col_np_lpip;

#endif
