/* SPDX-License-Identifier: MIT */
/* Exact triangle-triangle intersection (issue 16, docs/meshes.md): do two closed
 * triangles, given by their vertices in one frame, share a point? Touching counts
 * (a shared vertex, an edge on the other's face, coplanar overlap). Degenerate triangles
 * are what they span: three collinear points a segment, three equal points a point. The
 * decision is exact for every double input: orientation predicates are evaluated in
 * double with a proven error bound and, inside the bound, in exact expansion arithmetic
 * (narrowphase/expansion.h; Shewchuk 1997), never with an epsilon. No allocation. */
#ifndef COLIBRI_NARROWPHASE_TRI_TRI_H
#define COLIBRI_NARROWPHASE_TRI_TRI_H

#include <stdbool.h>

#include "lib/core/vec.h"

bool col_tri_tri_intersect(const col_vec3 a[3], const col_vec3 b[3]);

/* The same decision, adding to *exact the number of orientation predicates the double
 * filter could not decide (evaluated exactly instead): for tests and measurements. */
bool col_tri_tri_intersect_counted(const col_vec3 a[3], const col_vec3 b[3], int *exact);

#endif
