/* SPDX-License-Identifier: MIT */
/* Time of impact with triangle meshes: controlled conservative advancement (C2A; Tang,
 * Kim & Manocha, "C2A: Controlled Conservative Advancement for Continuous Collision
 * Detection of Polygonal Models", ICRA 2009) over the mesh hierarchy's rectangle swept
 * spheres (lib/core/mesh.h), mesh against mesh and mesh against a convex shape, under the
 * motion model of ccd/toi.h. The algorithm, its bounds and the promises are in
 * docs/ccd.md ("C2A"); the code in c2a.c.
 *
 * The important parts:
 * - col_c2a_toi: hit or proven miss, the first instant s (never late, at most the
 *   tolerance of col_toi_convex before the first contact), the normal and points at s;
 *   piece_a / piece_b are the caller's triangle numbers on a mesh side, the piece on a
 *   convex side. No allocation.
 * - col_c2a_options: the controlled advancement on or off (the benchmark's two columns)
 *   and, for the tests only, the FCL #555 bound that lets opposite motions cancel. */
#ifndef COLIBRI_CCD_C2A_H
#define COLIBRI_CCD_C2A_H

#include <stdbool.h>

#include "ccd/toi.h"

typedef enum col_c2a_bound {
    /* Sum of non-negative per-body terms, each along the certified axis (never cancels). */
    COL_C2A_BOUND_SUM,
    /* FCL issue #555's leaf bound: the bodies' signed speeds along one normal added before
     * the magnitude is taken, so two bodies moving toward each other cancel. WRONG: only
     * for the tests that show they catch it. */
    COL_C2A_BOUND_CANCELLING,
} col_c2a_bound;

typedef struct col_c2a_options {
    bool controlled;     /* section V: relaxed node pairs (rel_err schedule) early on */
    col_c2a_bound bound; /* COL_C2A_BOUND_SUM */
} col_c2a_options;

/* Controlled, summed bound. */
col_c2a_options col_c2a_default_options(void);

/* Work counters of one query (benchmarks). */
typedef struct col_c2a_stats {
    long node_pairs; /* node pairs whose bound was computed */
    long leaf_pairs; /* triangle-triangle or triangle-piece certified decisions */
} col_c2a_stats;

/* The first contact of a (moving by ma) and b (moving by mb), at least one of them a mesh
 * (either order). opt NULL: the defaults; stats may be NULL. */
void col_c2a_toi(const col_geometry *a, const col_toi_motion *ma, const col_geometry *b, const col_toi_motion *mb,
                 const col_c2a_options *opt, col_toi_result *out, col_c2a_stats *stats);

#endif
