/* SPDX-License-Identifier: MIT */
/* The voronoi narrow phase: closest-feature tracking between two convex hulls, after
 * Lin & Canny 1991 ("A fast algorithm for incremental distance calculation", the
 * closest-feature / Voronoi-region idea used in I-COLLIDE) and Mirtich 1998 ("V-Clip:
 * fast and robust polyhedral collision detection", ACM TOG 17(3): the clipping of edges
 * against Voronoi regions with derivative checks, and its penetration rules).
 *
 * The important parts:
 * - features are vertices, edges and faces of col_hull (lib/core/hull.h); their Voronoi
 *   region planes are derived on the fly from the hull arrays at the query's poses (a
 *   plane is a point and a normal: an edge direction, or a face normal crossed with an
 *   edge direction), so nothing is built per shape and nothing O(n) runs per query;
 * - col_vor_query walks from a cached (or cold-start) feature pair to the closest pair
 *   or to a penetration witness, then certifies the answer: "separated" only with a gap
 *   proved by hill-climbed supports along the closest-point direction, "penetrating"
 *   only with a common point of the two bodies (an edge crossing a face inside its
 *   region, or a vertex inside every face plane);
 * - cycles (a repeated feature pair) and the step cap are detected, counted and never
 *   answered from: the walk restarts (cold start, then vertex 0 of each hull), and after
 *   that the exact reference decides (counted as a fallback; with want_distance, a brute
 *   force over all feature pairs gives the distance of a separated pair).
 * Limits: hulls as col_hull_build makes them (solid, merged coplanar facets); poses
 * with coordinates within COL_MAX_COORD. Thread safe for distinct caches and scratch. */
#ifndef COLIBRI_NARROWPHASE_VORONOI_H
#define COLIBRI_NARROWPHASE_VORONOI_H

#include "narrowphase/backend.h"
#include "narrowphase/voronoi_features.h"

/* Per-pair warm start (the backend's cache slot). All zero: empty (cold start). dir_a is
 * the unit direction from a's centroid to b's in a's local frame at the last query, dir_b
 * the opposite one in b's frame (zero: unknown); when either has turned by more than
 * about 25 degrees since (a jump, or a fast spin), the cached features are worse than a
 * cold start's supports. */
typedef struct col_vor_cache {
    int valid;
    col_vor_feature fa, fb;
    col_vec3 dir_a, dir_b;
} col_vor_cache;

enum col_vor_outcome {
    COL_VOR_SEPARATED = 0,  /* certified gap > 0 */
    COL_VOR_TOUCHING = 1,   /* closest points within rounding of each other */
    COL_VOR_PENETRATING = 2 /* a common point with the boundaries crossing */
};

typedef struct col_vor_result {
    int outcome;            /* enum col_vor_outcome */
    double distance;        /* |pb - pa| when SEPARATED or TOUCHING, else 0 */
    col_vec3 pa, pb;        /* world: closest points, or the witness (pa == pb) */
    col_vec3 axis;          /* SEPARATED: unit world direction from a to b ... */
    double gap;             /* ... with min_b axis.b - max_a axis.a >= gap > 0 */
    col_vor_feature fa, fb;  /* the final features (fallback: the brute force's) */
    int steps;              /* walk steps over all attempts (>= 1) */
    int warm;               /* 1 if the walk started from a valid cache */
    int jumped;             /* 1 if a valid cache was dropped as stale (see dir) */
    int cycles;             /* repeated feature pairs or step caps met */
    int cert_failures;      /* walk ends whose closest points failed the certificate */
    int scans;              /* O(F) vertex-face local-minimum scans (V-Clip) */
    int fallbacks;          /* exact decisions by the reference (and brute force) */
    int band;               /* 1 if the fallback was for a pair within rounding of contact */
} col_vor_result;

/* Scratch bytes for col_vor_query on the pair (a, b) (for the exact fallback): the
 * backend's scratch_need, backend.h's scratch rule. */
size_t col_vor_scratch_bytes(const col_hull *a, const col_hull *b);

/* Flags of col_vor_query. */
enum {
    COL_VOR_WANT_DISTANCE = 1, /* the distance and closest points must be exact too, not
                                 only the boolean: TOUCHING is then reported within
                                 rounding of contact instead of asking the reference */
    COL_VOR_FORCE_FALLBACK = 2, /* skip the walk, decide by the exact fallback (tests) */
    COL_VOR_NO_JUMP_TEST = 4    /* keep a valid cache however far the centroid direction
                                 turned (measurements: docs/voronoi.md, the jump test) */
};

/* Closest features of hull a at xa and hull b at xb. cache may be NULL; it is read as a
 * warm start and updated. flags: COL_VOR_* above (0: only the boolean answer must be
 * exact; an uncertifiable near-touching pair goes to the reference).
 * scratch->size >= col_vor_scratch_bytes(a, b). */
void col_vor_query(col_vor_cache *cache, const col_hull *a, const col_xform *xa, const col_hull *b,
                     const col_xform *xb, int flags, col_np_scratch *scratch, col_vor_result *out);

#endif
