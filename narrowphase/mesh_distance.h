/* SPDX-License-Identifier: MIT */
/* Distance, closest points and closest triangles of a triangle mesh (lib/core/mesh.h)
 * with a convex piece or another mesh (issue 16, docs/meshes.md "Distance"); contacts
 * are narrowphase/mesh_contact.h, on the traversals below.
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
 * The answers equal the brute force over all triangle pairs with the same kernels up to
 * the rounding margin (about 1e-14 of the scene's size; tests/test_mesh_distance.c).
 * Limits: no allocation (fixed stacks of COL_MESH_MAX_DEPTH levels per side). */
#ifndef COLIBRI_NARROWPHASE_MESH_DISTANCE_H
#define COLIBRI_NARROWPHASE_MESH_DISTANCE_H

#include <stdint.h>

#include "colibri/query.h"
#include "lib/core/mesh.h"
#include "lib/core/vec.h"
#include "narrowphase/rounded.h"

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

/* ---- for the contact builder (narrowphase/mesh_contact.c): the same traversals ----
 * A visitor gets a leaf (pair) and returns the new pruning threshold: pairs whose lower
 * bound is not below it are dropped. The bounds are the nodes' boxes less the rounding
 * margin given. */
typedef double (*col_mesh_leaf_pair_fn)(void *ctx, const col_mesh_node *la, const col_mesh_node *lb);
typedef double (*col_mesh_leaf_fn)(void *ctx, const col_mesh_node *leaf);

/* World vertices (col_xform_point) of leaf's triangles into w; returns their count. */
int col_mesh_leaf_world(const col_mesh *m, const col_xform *x, const col_mesh_node *leaf, col_vec3 w[][3]);

/* The rounding margin of mesh pair a, b at their poses (docs/meshes.md "Distance"). */
double col_mesh_pair_rounding(const col_mesh *a, const col_xform *xa, const col_mesh *b, const col_xform *xb);

/* Visits the leaf pairs of a and b whose box bound less rounding is below limit, nearer first. */
void col_mesh_pair_visit(const col_mesh *a, const col_xform *xa, const col_mesh *b, const col_xform *xb,
                         double rounding, double limit, col_mesh_leaf_pair_fn leaf, void *ctx);

/* The box [*cmin, *cmax] of piece c in m's frame; returns the pair's rounding margin. */
double col_mesh_convex_rounding(const col_mesh *m, const col_xform *xm, const col_core *c, const col_xform *xc,
                                col_vec3 *cmin, col_vec3 *cmax);

/* Visits the leaves of m whose box is nearer than limit (less rounding) to [cmin, cmax]. */
void col_mesh_convex_visit(const col_mesh *m, col_vec3 cmin, col_vec3 cmax, double rounding, double limit,
                           col_mesh_leaf_fn leaf, void *ctx);

#endif
