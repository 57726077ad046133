/* SPDX-License-Identifier: MIT */
/* The exact narrow phase of rounded pieces (issue 15): spheres, capsules and hulls, each
 * a core (a point, a segment, a hull's vertices) plus a radius. Any pair where one
 * radius is positive comes here; hull-hull pairs (both radii 0) go to the backends, but
 * the answers here are exact for them too. docs/rounded.md says how each answer is
 * proven.
 *
 * The important parts:
 * - col_rounded_query: do the two pieces share a point (touching counts), exactly, with
 *   a certified gap when separated;
 * - col_core_distance_query: the closest points of the two cores (not of the rounded
 *   shapes), by GJK in double, and on overlap a direction of least penetration. */
#ifndef COLIBRI_NARROWPHASE_ROUNDED_H
#define COLIBRI_NARROWPHASE_ROUNDED_H

#include <stdbool.h>

#include "lib/core/hull.h"
#include "lib/core/vec.h"
#include "narrowphase/backend.h"

/* A convex piece as a core and a radius: the points within radius of the convex hull of
 * points[0..count) (local frame). Sphere: count 1; capsule: count 2; hull: its vertices,
 * radius 0 (hull may then point at it for faster supports; NULL otherwise). */
typedef struct col_core {
    const col_vec3 *points;
    int count;               /* >= 1 */
    const col_hull *hull;    /* the hull of points when it is a hull, else NULL */
    double radius;           /* >= 0, finite */
} col_core;

/* Exact decision: do the two pieces at the poses share a point? colliding iff
 * dist(conv(world points of a), conv(world points of b)) <= ra + rb, in real arithmetic
 * (touching counts), the world points being col_xform_point(x, p). When separated:
 * out->axis unit (world) and out->gap > 0 with min_b s.b - max_a s.a - ra - rb >= gap for
 * the world core points, rounding included; the one exception is a pair proven
 * separated by less than the rounding of any double axis (docs/rounded.md, "The exact
 * band"), answered with gap = the smallest positive double. out->iterations: GJK steps;
 * out->fallbacks: 0 decided by the double filters, 1 by the exact expansion arithmetic,
 * 2 undecided (then answered colliding; docs/rounded.md says when). No allocation. */
void col_rounded_query(const col_core *a, const col_xform *xa, const col_core *b, const col_xform *xb,
                       col_np_result *out);

/* Closest points of the two cores (not the rounded shapes). */
typedef struct col_core_distance {
    bool overlap;          /* the cores themselves share a point (distance 0) */
    double distance;       /* between the cores, >= 0 (0 when overlap) */
    col_vec3 point_a, point_b; /* world: closest points on the cores (overlap: a common point, best effort) */
    col_vec3 normal;       /* unit, from a toward b: (point_b - point_a)/distance when apart; when the cores
                              overlap, the direction of least penetration: moving b by depth * normal makes
                              the cores touch */
    double depth;          /* when overlap: the penetration depth of the cores along normal (>= 0) */
    int iterations;
} col_core_distance;

/* GJK (Gilbert, Johnson & Keerthi 1988) in double with the relative stopping rule of
 * docs/rounded.md (about 1e-14 of the distance) and a fixed step cap (then the best
 * simplex found). Overlap: the least-penetration axis over the hull cores' face normals
 * and the cross products of core edges (segments and hull edges; pairs of hulls with more
 * than COL_ROUNDED_SAT_EDGE_PAIRS edge pairs use face normals only). */
void col_core_distance_query(const col_core *a, const col_xform *xa, const col_core *b, const col_xform *xb,
                             col_core_distance *out);

#define COL_ROUNDED_SAT_EDGE_PAIRS 4096

#endif
