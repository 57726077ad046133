/* SPDX-License-Identifier: MIT */
/* Exact collision of a triangle mesh (lib/core/mesh.h) with a convex piece or another
 * mesh (issue 16, docs/meshes.md): the hierarchy is traversed against the other side
 * (simultaneously for two meshes), and the surviving triangle pairs are decided exactly:
 * triangle-triangle by narrowphase/tri_tri.h, triangle-convex by the core+radius kernel
 * (narrowphase/rounded.h, a triangle being a core of three points). Touching counts.
 * The traversal stops at the first colliding triangle pair, and a per-pair cache keeps
 * that witness to try first in the next frame. When apart, the answer carries a certified
 * gap: a lower bound on the distance (the smallest over the pruned node pairs' box gaps
 * and the decided leaf pairs' gaps, rounding included), so the schedule may sleep on it.
 * Mesh pairs have no separating plane in general: out->axis is not one (set to (1,0,0)).
 * No allocation: the traversal stacks are fixed arrays (COL_MESH_MAX_DEPTH). */
#ifndef COLIBRI_NARROWPHASE_MESH_COLLIDE_H
#define COLIBRI_NARROWPHASE_MESH_COLLIDE_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/core/mesh.h"
#include "lib/core/vec.h"
#include "narrowphase/backend.h"
#include "narrowphase/rounded.h"

/* Per-pair coherence: the last witness (the caller's triangle numbers are not needed:
 * leaf-order numbers k of col_mesh). Plain values; zero it (or set both to -1) to start. */
typedef struct col_mesh_cache {
    int32_t tri_a, tri_b; /* the last colliding triangle of each side (-1: none; a convex side: -1) */
} col_mesh_cache;

static inline void col_mesh_cache_init(col_mesh_cache *c)
{
    c->tri_a = -1;
    c->tri_b = -1;
}

/* Mesh m at pose xm against the convex piece c at pose xc. cache may be NULL. */
void col_mesh_convex_query(const col_mesh *m, const col_xform *xm, const col_core *c, const col_xform *xc,
                           col_mesh_cache *cache, col_np_result *out);

/* Mesh a at xa against mesh b at xb. cache may be NULL. */
void col_mesh_mesh_query(const col_mesh *a, const col_xform *xa, const col_mesh *b, const col_xform *xb,
                         col_mesh_cache *cache, col_np_result *out);

/* Which node test mesh-mesh collision culls with (docs/meshes.md "Bounding volumes
 * measured"): the nodes' local boxes (15 axes, a's box against b's carried into a's
 * frame), the fitted boxes of col_mesh_bv (15 axes, narrowphase/mesh_bv_bound.h), or the
 * local boxes first and the fitted ones when those do not separate. Every kind gives the
 * same answer; only the work differs. */
typedef enum col_mesh_cull { COL_MESH_CULL_AABB, COL_MESH_CULL_OBB, COL_MESH_CULL_BOTH } col_mesh_cull;

/* col_mesh_mesh_query with the node test chosen. */
void col_mesh_mesh_query_cull(const col_mesh *a, const col_xform *xa, const col_mesh *b, const col_xform *xb,
                              col_mesh_cache *cache, col_mesh_cull cull, col_np_result *out);

/* A node-pair probe (the time-critical mode, docs/adb.md): called with every node pair the
 * mesh-mesh traversal neither culls nor decides as two leaves, before it is split, with
 * its depth (a's node's plus b's, the root pair 0); returning true stops the query. */
typedef bool (*col_mesh_probe)(void *ctx, int32_t node_a, int32_t node_b, int32_t depth);

/* col_mesh_mesh_query (the same order, culls, witness and gap) with a probe. Returns true
 * when the query was decided (out as col_mesh_mesh_query's), false when the probe stopped
 * it first: then out holds only iterations (the node pairs visited), and the cache is
 * left as it was. */
bool col_mesh_mesh_query_probe(const col_mesh *a, const col_xform *xa, const col_mesh *b, const col_xform *xb,
                               col_mesh_cache *cache, col_mesh_probe probe, void *probe_ctx, col_np_result *out);

#endif
