/* SPDX-License-Identifier: MIT */
/* Contact manifolds of a triangle mesh (lib/core/mesh.h) with a convex piece or another
 * mesh within a margin (docs/meshes.md "Distance", its "Contacts"), on the distance
 * traversals of narrowphase/mesh_distance.h.
 *
 * col_mesh_mesh_contact, col_mesh_convex_contact: every triangle pair within the
 *   margin gives a candidate point pair and normal; the candidates that agree in normal
 *   with the deepest one (the cluster of least separation) are reduced to at most
 *   COL_MAX_CONTACT_POINTS spread points.
 * Limits: no allocation; candidates beyond COL_MESH_CONTACT_CANDIDATES are reduced on
 * the way. */
#ifndef COLIBRI_NARROWPHASE_MESH_CONTACT_H
#define COLIBRI_NARROWPHASE_MESH_CONTACT_H

#include <stdint.h>

#include "colibri/query.h"
#include "lib/core/mesh.h"
#include "lib/core/vec.h"
#include "narrowphase/rounded.h"

/* Contact candidates held before a reduction pass (see above). */
#define COL_MESH_CONTACT_CANDIDATES 64

/* A contact manifold: one normal, its points (col_contact_point of colibri/query.h). */
typedef struct col_mesh_contact {
    col_vec3 normal;       /* unit, from a toward b (push b along it to separate) */
    double separation;     /* least separation over the points: distance, or minus a depth (INFINITY: no points) */
    int point_count;       /* 0 when no triangle pair is within the margin */
    col_contact_point points[COL_MAX_CONTACT_POINTS];
    int32_t tri_a, tri_b;  /* the triangle pair of least separation (-1: the convex side) */
} col_mesh_contact;

/* Contacts of mesh m at xm and convex piece c at xc within margin (>= 0, length units).
 * A triangle apart from the rounded piece gives its closest points, the normal from the
 * triangle toward the piece; a triangle meeting it gives the least-penetration direction
 * of the triangle and the piece (over the piece's faces, the triangle's plane and the
 * edge-edge axes) with the separation minus the depth, the points being the deepest
 * point of the piece (on b) and its shift back by the depth (on a). */
void col_mesh_convex_contact(const col_mesh *m, const col_xform *xm, const col_core *c, const col_xform *xc,
                             double margin, col_mesh_contact *out);

/* Contacts of meshes a at xa and b at xb within margin. Surfaces have no inside, so
 * triangles that cross give a separation of minus their least-penetration depth as flat
 * pieces (col_core_distance_query on the two triangles, their planes included), and a
 * triangle pair that only touches gives 0 along its closest direction (or a's triangle
 * normal, turned toward b's triangle). */
void col_mesh_mesh_contact(const col_mesh *a, const col_xform *xa, const col_mesh *b, const col_xform *xb,
                           double margin, col_mesh_contact *out);

#endif
