/* SPDX-License-Identifier: MIT */
/* Distance and closest points of two closed triangles given by their vertices in one
 * frame (issue 16, docs/meshes.md "Distance"). Degenerate triangles are what they span
 * (a segment, a point). The answer is the smallest of three families of candidates, which
 * together always hold a closest pair:
 * - the 9 edge-edge pairs (segment-segment closest points, Ericson, Real-Time Collision
 *   Detection 5.1.9), which also cover vertex-edge and vertex-vertex;
 * - the 6 vertex-face pairs whose projection falls inside the other triangle;
 * - the 6 edge-face crossings (an edge through the other's plane inside it: distance 0).
 * Double arithmetic, no absolute threshold (PQP's TriDist gates on absolute ones and fails
 * for coordinates near 8000, GammaUNC/PQP issue 4): the inputs are first moved to a common
 * origin (and scaled by a power of two when the pair's span is below 2^-400 or above
 * 2^400, so squares neither underflow nor overflow), and every test is a sign or a
 * relative comparison. Accuracy (tested against exact rational arithmetic): the distance
 * is within a few 1e-16 of the triangles' extent of the true one. The two points lie on the triangles up to rounding. Zero is exact: the
 * answer is 0 if and only if the triangles share a point, decided by the exact test of
 * narrowphase/tri_tri.h whenever the double answer is within its rounding bound of 0
 * (apart but closer than rounding can show: the smallest positive double). No
 * allocation. */
#ifndef COLIBRI_NARROWPHASE_TRI_DIST_H
#define COLIBRI_NARROWPHASE_TRI_DIST_H

#include "lib/core/vec.h"

/* Distance between triangles a and b (>= 0); *pa on a and *pb on b realise it (*pa ==
 * *pb when 0: a common point up to rounding). */
double col_tri_distance(const col_vec3 a[3], const col_vec3 b[3], col_vec3 *pa, col_vec3 *pb);

/* Closest points of segments p0p1 and q0q1 (either may be a point): *s, *t in [0, 1]
 * with p0 + s (p1 - p0) and q0 + t (q1 - q0) closest. Returns the squared distance. */
double col_segment_closest(col_vec3 p0, col_vec3 p1, col_vec3 q0, col_vec3 q1, double *s, double *t,
                           col_vec3 *cp, col_vec3 *cq);

#endif
