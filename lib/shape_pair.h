/* SPDX-License-Identifier: MIT */
/* The narrow phase of two shapes of any kind (lib/core/geometry.h): a hull pair goes to
 * the chosen backend with the pair's cache; a pair with a sphere or a capsule goes to the
 * shared exact core+radius path (narrowphase/rounded.h, docs/rounded.md) for every
 * backend; a compound pair is decided piece pair by piece pair, the pieces' boxes first.
 * Used by the frame's pair loop (lib/frame.c) and the world-free queries (lib/query.c). */
#ifndef COLIBRI_LIB_SHAPE_PAIR_H
#define COLIBRI_LIB_SHAPE_PAIR_H

#include "lib/core/geometry.h"
#include "narrowphase/backend.h"
#include "narrowphase/rounded.h"

/* The piece as a core and a radius. */
static inline col_core col_piece_core(const col_piece *p)
{
    col_core c;
    c.points = col_piece_points(p, &c.count);
    c.hull = p->kind == COL_SHAPE_HULL ? &p->hull : NULL;
    c.radius = p->radius;
    return c;
}

/* A certified gap between two disjoint boxes: the largest separation along a coordinate
 * axis, less the rounding of that one subtraction; 0 if they meet. *axis (may be NULL)
 * gets that unit axis, from the first box toward the second. A lower bound on the
 * distance of anything the boxes hold. */
double col_box_gap(col_vec3 amin, col_vec3 amax, col_vec3 bmin, col_vec3 bmax, col_vec3 *axis);

/* The hull pieces' counts: what the backends' scratch is sized by (backend.h). */
col_np_counts col_geometry_counts(const col_geometry *g);

/* True when the pair's cache is a col_mesh_cache (narrowphase/mesh_collide.h), not the
 * backend's: one of the two is a mesh. */
static inline bool col_shape_pair_is_mesh(const col_geometry *a, const col_geometry *b)
{
    return a->kind == COL_SHAPE_MESH || b->kind == COL_SHAPE_MESH;
}

/* Decides geometries a and b at poses xa and xb with backend be. cache may be NULL; else
 * for a pair of single hulls it is the backend's, for a pair with a mesh a
 * col_mesh_cache, and otherwise unused. scratch as be->scratch_need of the hull pieces'
 * counts. Separated answers carry a certified gap, the smallest over the piece pairs
 * (each piece pair's gap, or its boxes' gap), so the schedule may sleep on it; a pair
 * with a mesh: a lower bound on the distance (mesh_collide.h; its axis is no
 * separating plane). Meshes are decided the same way for every backend. */
void col_shape_pair_query(const col_np_backend *be, void *cache, const col_geometry *a, const col_xform *xa,
                          const col_geometry *b, const col_xform *xb, col_np_scratch *scratch, col_np_result *out);

#endif
