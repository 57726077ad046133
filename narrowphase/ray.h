/* SPDX-License-Identifier: MIT */
/* Ray casts against one convex piece or one triangle mesh at a pose (issue 20; the
 * world's queries in lib/world_query.c call them per body; docs/queries.md proves the
 * margins). A ray is the segment from a to b (world); its points are a + t (b - a),
 * t in [0, 1], and its first contact with a shape is the smallest such t at which the
 * point lies in the shape (0 when a does).
 *
 * Exact like the pair test: a ray hits a piece iff the segment and the piece share a
 * point (touching counts), for the world core points R c + p as col_xform_point computes
 * them, the piece's radius added. Each kernel first decides in double with a margin that
 * covers every rounding (docs/queries.md, "Margins"); inside the margin it asks the exact
 * decision (col_rounded_query with the segment as a two-point core; for triangles the
 * orientation predicates of narrowphase/orient.h and col_tri_tri_intersect). The
 * fraction is computed in double: the first contact up to rounding.
 *
 * The important parts:
 * - col_ray_piece: a hull (slab clipping against its face planes), a sphere or a capsule;
 * - col_ray_mesh: the mesh's hierarchy walked front to back, the nearest triangle;
 * - col_ray_triangle: one world triangle, exactly. */
#ifndef COLIBRI_NARROWPHASE_RAY_H
#define COLIBRI_NARROWPHASE_RAY_H

#include <stdbool.h>

#include "lib/core/geometry.h"
#include "lib/core/mesh.h"
#include "lib/core/vec.h"

typedef struct col_ray_seg {
    col_vec3 a, b; /* world: from a to b */
} col_ray_seg;

typedef struct col_ray_out {
    double t;        /* first contact, in [0, 1] */
    col_vec3 normal; /* world, unit: the surface normal there, against the ray; a ray that
                        starts inside (t = 0 with no entering surface): -(b - a)/|b - a|,
                        or zero for a zero-length ray */
    int triangle;    /* col_ray_mesh: the caller's number of the triangle hit; else -1 */
    int exact;       /* exact decisions taken (0: the double margins decided) */
} col_ray_out;

/* Does the ray meet piece p at pose xf (exactly, touching counts)? On a hit fills *out.
 * Only contacts with t <= tmax are wanted: a piece met only later may be reported as
 * missed (the caller already has a hit at tmax); pass 1 for every hit. */
bool col_ray_piece(const col_piece *p, const col_xform *xf, const col_ray_seg *r, double tmax, col_ray_out *out);

/* The same for a mesh: its nearest triangle met at t <= tmax (ties: the smaller leaf-order
 * triangle). */
bool col_ray_mesh(const col_mesh *m, const col_xform *xf, const col_ray_seg *r, double tmax, col_ray_out *out);

/* Exact: does the segment meet the closed world triangle w (degenerate ones are the
 * segment or point they span)? On a hit, *t the first contact (double) and *n the unit
 * normal against the ray (zero for a degenerate triangle). */
bool col_ray_triangle(const col_vec3 w[3], const col_ray_seg *r, double *t, col_vec3 *n);

/* Exact decision alone for a piece (no fraction): for the tests and the margins' band. */
bool col_ray_piece_exact(const col_piece *p, const col_xform *xf, const col_ray_seg *r);

/* The margins' relative size (docs/queries.md): 2^-30 of the problem's coordinate scale. */
#define COL_RAY_REL_MARGIN 0x1p-30

#endif
