/* SPDX-License-Identifier: MIT */
/* Contact data for touching or shallowly overlapping hulls, from the closest features of
 * voronoi.h: a unit normal, a signed separation and a few contact points, which is what an
 * impulse or haptic response needs and what the seed papers' boolean tests do not give
 * (Lin & Canny 1991 and Mirtich 1998 report features and a distance only).
 *
 * The important parts:
 * - normal and separation: a SEPARATED pair keeps the certified axis and its distance;
 *   otherwise the minimum-penetration axis of a separating-axis test over both hulls'
 *   face normals and the edge pairs whose Gauss-map arcs cross (Gregorius, GDC 2013),
 *   supports by hill climbing; the separation is then minus the penetration depth;
 * - points: if a face of either hull at its support is within COL_VOR_FACE_COS of the
 *   normal, that face is the reference and the other hull's best-aligned face at its
 *   support is clipped against the reference face's side planes (Sutherland-Hodgman),
 *   the classic face-face manifold (Box2D, Bullet); otherwise one point, the closest
 *   points or the closest points of the SAT edge pair. Points whose own separation
 *   exceeds the margin are dropped; more than COL_VOR_MAX_POINTS are reduced to the
 *   deepest one plus the farthest spread.
 * Limits: a face ring is clipped in scratch of col_vor_contact_scratch_bytes. */
#ifndef COLIBRI_NARROWPHASE_VORONOI_CONTACT_H
#define COLIBRI_NARROWPHASE_VORONOI_CONTACT_H

#include <stddef.h>

#include "narrowphase/voronoi.h"

#define COL_VOR_MAX_POINTS 8
/* A face is a contact face when its normal is within about 2.6 degrees of the contact
 * normal (cos >= 0.999). */
#define COL_VOR_FACE_COS 0.999

typedef struct col_vor_contact {
    col_vec3 normal;    /* unit, from a toward b */
    double separation;  /* distance, or minus the penetration depth along normal */
    int count;
    col_vec3 pa[COL_VOR_MAX_POINTS], pb[COL_VOR_MAX_POINTS];
    double sep[COL_VOR_MAX_POINTS]; /* (pb - pa) . normal */
} col_vor_contact;

/* Scratch bytes col_vor_contact_build needs for hulls a and b. */
size_t col_vor_contact_scratch_bytes(const col_hull *a, const col_hull *b);

/* Contact of a at xa and b at xb given their col_vor_query result r (with
 * COL_VOR_WANT_DISTANCE). Points are produced when r is TOUCHING or PENETRATING, or
 * SEPARATED with distance <= margin; each kept point has separation <= margin (the
 * deepest is always kept). scratch->size >= col_vor_contact_scratch_bytes(a, b). */
void col_vor_contact_build(const col_hull *a, const col_xform *xa, const col_hull *b, const col_xform *xb,
                          const col_vor_result *r, double margin, col_np_scratch *scratch, col_vor_contact *out);

#endif
