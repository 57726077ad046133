/* SPDX-License-Identifier: MIT */
/* Certified bounds between the fitted volumes (col_mesh_bv, lib/core/mesh.h) of a node
 * of mesh a and a node of mesh b, both at poses, for the traversals of
 * narrowphase/mesh_collide.c and narrowphase/mesh_distance.c (docs/meshes.md "Bounding
 * volumes measured"):
 * - col_bv_obb_gap: the separating axis test of the two fitted boxes (Gottschalk, Lin &
 *   Manocha, "OBBTree", SIGGRAPH 1996: 15 axes);
 * - col_bv_rss_bound: a lower bound on the distance of the two rectangle swept spheres
 *   (Larsen, Gottschalk, Lin & Manocha, ICRA 2000), as PQP's distance traversal uses.
 * Both are about the world triangles the leaves decide (world vertices by
 * col_xform_point): a returned positive gap never exceeds the world distance of any
 * triangle of a's node to any triangle of b's node, rounding included (the proof is in
 * mesh_bv_bound.c). Neither allocates; the frame is set up once per query. */
#ifndef COLIBRI_NARROWPHASE_MESH_BV_BOUND_H
#define COLIBRI_NARROWPHASE_MESH_BV_BOUND_H

#include "lib/core/mesh.h"
#include "lib/core/vec.h"

typedef struct col_bv_frame {
    double M[9];  /* fl(Ra^T Rb): b's local frame into a's (row-major) */
    double t[3];  /* fl(Ra^T fl(pb - pa)) */
    double D;     /* every rounding and non-orthonormality margin, a length (mesh_bv_bound.c) */
    double slack; /* the separating axis tests' margin per unit of |L|_1 */
    double lnorm; /* an upper bound on |L|_2 of any of the 15 axes */
    double scale; /* world distance >= scale times a distance in a node's frame */
} col_bv_frame;

/* The frame of meshes a at xa and b at xb (their fitted volumes built). */
void col_bv_frame_setup(col_bv_frame *f, const col_mesh *a, const col_xform *xa, const col_mesh *b,
                        const col_xform *xb);

/* > 0: a separating axis of the two boxes was found, and the value is a lower bound on
 * the world distance of the two nodes' triangles; 0: no axis separates them (they may
 * still be apart). */
double col_bv_obb_gap(const col_bv_frame *f, const col_mesh_bv *ba, const col_mesh_bv *bb);

/* A lower bound on the world distance of the two nodes' triangles (may be negative: no
 * information). */
double col_bv_rss_bound(const col_bv_frame *f, const col_mesh_bv *ba, const col_mesh_bv *bb);

#endif
