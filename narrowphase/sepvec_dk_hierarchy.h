/* SPDX-License-Identifier: MIT */
/* A Dobkin-Kirkpatrick hierarchy of one hull for support queries from a cold start
 * (Dobkin & Kirkpatrick, "Determining the separation of preprocessed polyhedra - a
 * unified approach", ICALP 1990; Chung & Wang 1996, section 5).
 *
 * The important parts:
 * - level 0 is the hull itself; level k+1 drops an independent set of vertices of degree
 *   <= COL_DK_REMOVE_DEG from level k and fills each hole with the faces of the hull of
 *   the removed vertex's neighbours that face it (the new edges join neighbours only);
 * - a query scans the top level (<= COL_DK_TOP vertices) and walks down, hill climbing
 *   on each level from the answer of the level above (in exact arithmetic one move per
 *   level at most; a few in floating point);
 * - only the last climb, on the hull's own graph, decides the answer, so rounding in the
 *   coarser levels can cost moves, never correctness;
 * - levels store vertex indices and CSR adjacency only (coordinates are the hull's).
 * Limits: at most COL_DK_MAX_LEVELS levels; building stops early when a level would
 * remove less than a sixteenth of its vertices or outgrow the block. */
#ifndef COLIBRI_NARROWPHASE_SEPVEC_DK_HIERARCHY_H
#define COLIBRI_NARROWPHASE_SEPVEC_DK_HIERARCHY_H

#include <stddef.h>

#include "lib/core/hull.h"
#include "lib/core/vec.h"
#include "narrowphase/sepvec_support.h"

#define COL_DK_MAX_LEVELS 40
#define COL_DK_TOP 12
#define COL_DK_REMOVE_DEG 8

/* Hulls with at least this many vertices get a hierarchy when the caller lets the
 * support module decide: those above the direction table's limit, the only ones where
 * it was measured to pay (docs/sepvec.md). */
#define COL_SUPPORT_DK_MIN 65536

/* Bytes the hierarchy of h may need, including the construction's work space. */
size_t col_dk_bytes(const col_hull *h);

/* Builds the hierarchy into mem (col_dk_bytes(h) bytes, 16-byte aligned). Returns 0, or
 * -1 when the hull is too small to need one (then mem holds nothing usable). */
int col_dk_build(void *mem, size_t bytes, const col_hull *h);

/* Bytes of the block the built hierarchy uses (header and levels, no work space). */
size_t col_dk_used(const void *dk);

/* Number of levels above the hull (0: none) and the vertex count of level k >= 1. */
int col_dk_levels(const void *dk);
int col_dk_level_size(const void *dk, int k);

/* The support vertex for direction d (the hull's local frame), walking down from the top
 * level; adds its work to st (may be NULL). */
int col_dk_support(const void *dk, const col_hull *h, col_vec3 d, col_support_stats *st);

#endif
