/* SPDX-License-Identifier: MIT */
/* Distance and contact of a shape pair with a triangle mesh, for the public queries of
 * lib/distance.c (issue 16, docs/meshes.md "Distance"): the exact collision decision
 * (narrowphase/mesh_collide.h) gives the outcome, the branch-and-bound distance and the
 * contact builder (narrowphase/mesh_contact.h) the numbers; a compound on the other side
 * is taken piece by piece, keeping the least separated. */
#ifndef COLIBRI_LIB_DISTANCE_MESH_H
#define COLIBRI_LIB_DISTANCE_MESH_H

#include <stdbool.h>

#include "lib/core/geometry.h"
#include "lib/distance_piece.h"

/* a or b (or both) a mesh. Features: a mesh side's is the FACE of its triangle in the
 * caller's numbering (col_mesh_view.source), a convex side's NONE; pieces: the compound
 * piece on the convex side, 0 on a mesh side. PENETRATING when triangles cross the other
 * side by more than rounding (separation < 0), TOUCHING when they only meet. */
void col_mesh_pair_nearest(const col_geometry *a, const col_xform *xa, const col_geometry *b, const col_xform *xb,
                           double margin, bool want_points, col_piece_contact *out);

#endif
