/* SPDX-License-Identifier: MIT */
/* Separation certificates by full projection: the gap of two hulls along an axis over
 * EVERY vertex, minus a proven bound on its rounding, for the backends whose own gap
 * rests on hill climbs (a computed local maximum of the climb is not always the global
 * one: docs/voronoi.md, docs/sepvec.md) or on local-frame shortcuts.
 *
 * The important parts:
 * - col_np_gap_local: the cheap projection through the local frames, (R^T s).v + s.p
 *   (five flops per vertex, no world vertex is formed); its bound covers the rounding of
 *   the world vertices themselves, so it grows with the distance from the origin;
 * - col_np_gap_world: the world vertices exactly as the truth computes them
 *   (col_xform_point), projected relative to a centre point, so that the bound grows with
 *   the pair's extent only (issue 13: small shapes far from the origin);
 * - col_np_certify_gap: the first, then the second when the first is inconclusive.
 * - col_np_prove_overlap: the opposite certificate, that two hulls overlap with a common
 *   interior point, for the backends whose own "colliding" holds only up to a tolerance
 *   (lpip's common point, voronoi's penetration tests): four differences of world
 *   vertices whose tetrahedron holds the origin strictly, proven (col_origin_in_tetra).
 * The gap functions return the certified gap g (col_np_gap.certified): min over B of s.b -
 * max over A of s.a >= g holds exactly for the world vertices and the axis s as given (no
 * unit length assumed); g <= 0 means "not certified". The bounds are derived in
 * certify.c. */
#ifndef COLIBRI_NARROWPHASE_CERTIFY_H
#define COLIBRI_NARROWPHASE_CERTIFY_H

#include "lib/core/hull.h"
#include "lib/core/vec.h"

/* One certificate: certified = (raw - bound) (1 - 2 eps) when positive, else raw - bound;
 * ia, ib the extreme vertices of A (highest) and B (lowest) along s. */
typedef struct col_np_gap {
    double certified, raw, bound;
    int ia, ib;
} col_np_gap;

col_np_gap col_np_gap_local(const col_hull *a, const col_xform *xa, const col_hull *b, const col_xform *xb,
                            col_vec3 s);
col_np_gap col_np_gap_world(const col_hull *a, const col_xform *xa, const col_hull *b, const col_xform *xb,
                            col_vec3 s);
col_np_gap col_np_certify_gap(const col_hull *a, const col_xform *xa, const col_hull *b, const col_xform *xb,
                              col_vec3 s);

/* A certified gap between two hulls from balls about their bodies' origins, radius the
 * hulls' radii (col_hull.radius): along the unit axis from A's origin to B's (*axis),
 * min over B of axis.b - max over A of axis.a >= the returned gap for the world vertices
 * as col_xform_point computes them. 0 when the balls are not proven disjoint (the caller
 * asks the backend then). A few flops: a rejection before the backend's query. */
double col_np_ball_gap(double ra, const col_xform *xa, double rb, const col_xform *xb, col_vec3 *axis);

/* The same for hull A's local box (col_hull.aabb_min/max at A's pose) against the ball of
 * radius rb about B's origin: tighter than A's ball for long or flat hulls. *axis points
 * from A to B. 0 when not proven. */
double col_np_box_ball_gap(const col_hull *a, const col_xform *xa, double rb, const col_xform *xb, col_vec3 *axis);

/* Proves that the origin lies strictly inside the tetrahedron of m0..m3 (vectors whose
 * components carry a relative error of at most one rounding): all four cofactor weights
 * of the linear dependency have one sign beyond their error bounds. Returns 1 if proven. */
int col_origin_in_tetra(col_vec3 m0, col_vec3 m1, col_vec3 m2, col_vec3 m3);

/* Proves that the hulls overlap (their Minkowski difference holds the origin strictly):
 * GJK's simplex search (Gilbert, Johnson & Keerthi, IEEE J. Robotics and Automation 4(2),
 * 1988) over differences of world vertices (col_xform_point), ended by
 * col_origin_in_tetra's proven test. Returns 1 when proven; 0 when the pair is
 * separated, touching within rounding, or the search found no proof in its steps: the
 * caller then decides exactly (the reference backend). Allocates nothing. */
int col_np_prove_overlap(const col_hull *a, const col_xform *xa, const col_hull *b, const col_xform *xb);

#endif
