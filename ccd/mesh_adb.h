/* SPDX-License-Identifier: MIT */
/* Time-critical collision of two meshes with ADB-trees (Klein & Zachmann, "ADB-Trees:
 * Controlling the Error of Time-Critical Collision Detection", VMV 2003; docs/adb.md).
 * Node pairs whose boxes overlap are visited most probable first (a max-heap on the
 * probability that their triangles meet, estimated from the cells of lib/core/adb_tree.h
 * and the table of lib/core/adb_table.h); a visited pair with probability >= p_min is a
 * "collision node pair", and once k_min of them are found the answer is "colliding,
 * estimated". Pairs of leaves are decided exactly (narrowphase/tri_tri.h on the world
 * triangles, as narrowphase/mesh_collide.c does), so a colliding triangle pair ends the
 * query with an exact "colliding", and a heap that empties is an exact "apart". Node
 * pairs are culled as the exact traversal culls them: the local boxes, then the fitted
 * boxes' certified test (narrowphase/mesh_bv_bound.h). A budget
 * (node pairs, or seconds of the monotonic clock) ends it early with an estimate.
 * With k_min larger than the node pairs there are, no budget, the answer is exact and
 * equals col_mesh_mesh_query's (tests/test_adb.c checks it). No allocation: the heap is a
 * fixed array; a pair that does not fit is decided on the spot by an exact depth-first
 * traversal of its subtrees (exactness kept, order lost). */
#ifndef COLIBRI_CCD_MESH_ADB_H
#define COLIBRI_CCD_MESH_ADB_H

#include <stdbool.h>

#include "lib/core/adb_tree.h"
#include "lib/core/mesh.h"
#include "lib/core/vec.h"
#include "narrowphase/mesh_collide.h"

typedef struct col_adb_params {
    double p_min;       /* (0, 1]: a node pair at least this probable is a collision node pair */
    int k_min;          /* >= 1: collision node pairs that make an estimated "colliding" */
    int max_visits;     /* node pairs visited (depth-first: split) before giving up (0: no limit) */
    double time_budget; /* seconds (0: none); checked every 32 node pairs */
    double depth_rate;  /* >= 0: the depth factor's rate r, a pair at depth d has its estimate
                         * scaled by 1 - 2^(-r d) (0: COL_ADB_DEPTH_RATE; docs/adb.md) */
} col_adb_params;

/* The depth factor's rate when params say 0: chosen on the sweep's seed 2 (docs/adb.md
 * "The depth factor"). */
#define COL_ADB_DEPTH_RATE (2.0 / 3.0)

typedef struct col_adb_result {
    bool colliding;
    bool exact;         /* decided exactly (a triangle pair met, or every pair was decided) */
    double probability; /* exact: 1 or 0; estimated: the largest probability of a visited pair */
    int visits;         /* node pairs taken from the heap */
    int collision_pairs; /* visited pairs with probability >= p_min */
} col_adb_result;

/* Whether params are valid: p_min finite in (0, 1], k_min >= 1, max_visits >= 0,
 * time_budget and depth_rate finite and >= 0. */
bool col_adb_params_valid(const col_adb_params *p);

/* Mesh a (ADB counts ta) at pose xa against mesh b (tb) at xb. params must be valid
 * (col_adb_params_valid; an invalid one gives an exact traversal's answer). cache (may
 * be NULL): the per-pair witness of narrowphase/mesh_collide.h, tried first (exactly)
 * and updated: an exact hit stores its triangles, an exact "apart" clears it, an
 * estimate leaves it. */
void col_mesh_mesh_adb(const col_mesh *a, const col_adb_tree *ta, const col_xform *xa, const col_mesh *b,
                       const col_adb_tree *tb, const col_xform *xb, const col_adb_params *params,
                       col_mesh_cache *cache, col_adb_result *out);

/* The same estimate and stopping rule in the exact query's depth-first order, through
 * col_mesh_mesh_query_probe: its culls, witness and nearest-child-first descent, and a
 * pair decided exactly carries the exact query's certified gap (np: col_mesh_mesh_query's
 * answer when out->exact, else colliding as estimated with gap 0), so it costs the exact
 * query plus one probability per split node pair, and stops sooner when k_min of them
 * reach p_min (docs/adb.md "Two orders"). */
void col_mesh_mesh_adb_depth_first(const col_mesh *a, const col_adb_tree *ta, const col_xform *xa, const col_mesh *b,
                                   const col_adb_tree *tb, const col_xform *xb, const col_adb_params *params,
                                   col_mesh_cache *cache, col_adb_result *out, col_np_result *np);

/* The probability estimate of one node pair (exposed for tests): a's node ia, b's node ib,
 * with b's local frame carried into a's by y -> M y + t (M row-major). */
double col_adb_pair_probability(const col_mesh *a, const col_adb_tree *ta, int ia, const col_mesh *b,
                                const col_adb_tree *tb, int ib, const double M[9], const double t[3]);

#endif
