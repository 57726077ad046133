/* SPDX-License-Identifier: MIT */
/* Distance, closest points and contacts of a triangle mesh (lib/core/mesh.h) with a
 * convex piece or another mesh (issue 16, docs/meshes.md "Distance").
 *
 * The important parts:
 * - col_mesh_mesh_distance, col_mesh_convex_distance: branch and bound over the
 *   hierarchy (PQP's distance traversal, Larsen, Gottschalk, Lin & Manocha 2000): a node
 *   pair's lower bound is the distance between its two boxes, one of them carried into
 *   the other's frame and boxed there, less a rounding margin, so it never exceeds the
 *   distance of any triangle pair below it; the pair with the smaller bound is descended
 *   first and a pair whose bound is not below the best distance found is dropped. Leaves
 *   are decided on world vertices (col_xform_point, as the collision test sees them):
 *   triangle-triangle by narrowphase/tri_dist.h, triangle-convex by
 *   col_core_distance_query (narrowphase/rounded.h, a triangle being a core of three
 *   points) less the convex piece's radius.
 * - col_mesh_mesh_contact, col_mesh_convex_contact: every triangle pair within the
 *   margin gives a candidate point pair and normal; the candidates that agree in normal
 *   with the deepest one (the cluster of least separation) are reduced to at most
 *   COL_MAX_CONTACT_POINTS spread points.
 * The answers equal the brute force over all triangle pairs with the same kernels up to
 * the rounding margin (about 1e-14 of the scene's size; tests/test_mesh_distance.c).
 * Limits: no allocation (fixed stacks of COL_MESH_MAX_DEPTH levels per side; contact
 * candidates beyond COL_MESH_CONTACT_CANDIDATES are reduced on the way). */
#ifndef COLIBRI_NARROWPHASE_MESH_DISTANCE_H
#define COLIBRI_NARROWPHASE_MESH_DISTANCE_H

#include <stdint.h>

#include "colibri/query.h"
#include "lib/core/mesh.h"
#include "lib/core/vec.h"
#include "narrowphase/rounded.h"

/* Contact candidates held before a reduction pass (see above). */
#define COL_MESH_CONTACT_CANDIDATES 64

typedef struct col_mesh_closest {
    double distance;           /* >= 0; 0 if and only if they share a point (decided exactly) */
    col_vec3 point_a, point_b; /* world closest points (a common point when they touch or overlap) */
    int32_t tri_a, tri_b;      /* leaf-order triangle numbers k of col_mesh (-1: the convex side) */
    int32_t leaf_pairs;        /* triangle pairs (or triangle-convex pairs) evaluated */
    int32_t node_pairs;        /* node pairs whose bound was computed */
} col_mesh_closest;

/* Mesh m at pose xm against the convex piece c at pose xc; the distance is to the solid
 * rounded piece (core plus radius), 0 exactly when a triangle meets it (then point_a =
 * point_b, a point of the triangle in the piece up to rounding). tri_b = -1. Mesh-mesh
 * distances are 0 exactly when two triangles share a point (narrowphase/tri_dist.h). */
void col_mesh_convex_distance(const col_mesh *m, const col_xform *xm, const col_core *c, const col_xform *xc,
                              col_mesh_closest *out);

/* The leaves' kernel: distance of the world triangle w to the rounded piece c at xc (0
 * exactly when they share a point, decided by col_rounded_query within rounding of 0;
 * the smallest positive double when apart but closer than GJK shows); *pa on the
 * triangle, *pb on the piece's surface (*pa when 0). */
double col_tri_convex_distance(const col_vec3 w[3], const col_core *c, const col_xform *xc, col_vec3 *pa,
                               col_vec3 *pb);

/* Mesh a at xa against mesh b at xb. */
void col_mesh_mesh_distance(const col_mesh *a, const col_xform *xa, const col_mesh *b, const col_xform *xb,
                            col_mesh_closest *out);

/* The node pairs' lower bound of mesh-mesh distance: the boxes (the nodes' local boxes,
 * each carried into the other's frame), the fitted rectangle swept spheres (col_mesh_bv;
 * narrowphase/mesh_bv_bound.h), or the boxes first and the larger of both where the box
 * bound does not already prune. The same answer whichever; docs/meshes.md "Bounding
 * volumes measured" compares the work. */
typedef enum col_mesh_bound { COL_MESH_BOUND_BOX, COL_MESH_BOUND_RSS, COL_MESH_BOUND_BOX_RSS } col_mesh_bound;

/* col_mesh_mesh_distance with the bound chosen. */
void col_mesh_mesh_distance_bound(const col_mesh *a, const col_xform *xa, const col_mesh *b, const col_xform *xb,
                                  col_mesh_bound bound, col_mesh_closest *out);

/* An experiment for the hierarchy's layout (docs/meshes.md "Distance" measures it): an
 * oriented box per node, fitted to the node's triangles, local frame: the points x with
 * |(R (x - c))_k| <= h_k (R's rows the box's axes). */
typedef struct col_mesh_obb {
    col_mat3 R;
    col_vec3 c, h;
} col_mesh_obb;

/* Fits obb[node_count] to m: the axes of the covariance of each node's vertices, the
 * extents of their projections (widened by a relative 1e-12 for the rounding of the
 * projections). */
void col_mesh_fit_obbs(const col_mesh *m, col_mesh_obb *obb);

/* col_mesh_mesh_distance with the node bounds on oriented boxes instead of the nodes'
 * boxes (both arrays, or neither: NULL). */
void col_mesh_mesh_distance_obb(const col_mesh *a, const col_xform *xa, const col_mesh_obb *oa, const col_mesh *b,
                                const col_xform *xb, const col_mesh_obb *ob, col_mesh_closest *out);

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
