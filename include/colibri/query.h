/* SPDX-License-Identifier: MIT */
/* Queries on shapes at given poses (like Box2D's collision.h): they do not touch the
 * broad phase or the pair lists.
 *
 * Two families. The world-free ones (col_geometry_*) take geometries (shape.h) and a
 * caller-owned col_query_scratch: they share nothing, so any number of threads may run
 * them at once, each with its own scratch (and cache), without locks. The world-bound
 * ones take a world's shape or body ids and are thin wrappers over the same code: they
 * only read the world (const means const) and use temporary scratch from the world's
 * allocator hooks (not counted in col_counters), so they too may run from several threads
 * at once, between updates, if those hooks are thread safe (malloc is); a hot loop should
 * keep a col_query_scratch and call the col_geometry_* form with col_shape_get_geometry.
 * Pairs with a sphere or a capsule are decided by the exact core+radius path for every
 * backend (docs/rounded.md); compounds piece pair by piece pair. */
#ifndef COLIBRI_QUERY_H
#define COLIBRI_QUERY_H

#include <stdbool.h>

#include "colibri/base.h"
#include "colibri/id.h"
#include "colibri/shape.h"
#include "colibri/types.h"
#include "colibri/vecmath.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct col_world col_world;

/* Scratch memory for the world-free queries, owned by the caller: one per thread. It
 * grows to what the largest query needed and is then reused; it also keeps the message
 * of the last failed call made with it. */
typedef struct col_query_scratch col_query_scratch;

/* allocator NULL (or both hooks NULL): malloc/free. *out is NULL on error. Errors:
 * INVALID_ARGUMENT (out NULL, an allocator with only one hook), OUT_OF_MEMORY. */
COL_API col_status col_query_scratch_create(const col_allocator *allocator, col_query_scratch **out);
/* NULL is ignored. */
COL_API void col_query_scratch_destroy(col_query_scratch *scratch);
/* A sentence about the last failed call made with this scratch ("" if none). */
COL_API const char *col_query_scratch_last_error(const col_query_scratch *scratch);

/* Exact test whether geometry a at pose_a and geometry b at pose_b share a point
 * (touching counts), with the chosen backend for hull pairs (COL_BACKEND_DEFAULT: the
 * default one). Quaternions unit within 1e-6 (renormalised). Errors: INVALID_ARGUMENT,
 * NOT_FINITE, BAD_QUATERNION, OUT_OF_MEMORY (the scratch could not grow). */
COL_API col_status col_geometry_overlap(const col_geometry *a, col_transform pose_a, const col_geometry *b,
                                        col_transform pose_b, col_backend backend, col_query_scratch *scratch,
                                        bool *colliding);

/* Exact test whether shape a at pose xa and shape b at pose xb share a point (touching
 * counts), with the chosen backend (COL_BACKEND_DEFAULT: the world's). *colliding gets the
 * answer. Only reads the world (see the top of this header). Errors: INVALID_ARGUMENT,
 * STALE_ID, NOT_FINITE, BAD_QUATERNION, OUT_OF_MEMORY. */
COL_API col_status col_query_overlap(const col_world *world, col_shape_id a, col_transform xa,
                                     col_shape_id b, col_transform xb, col_backend backend,
                                     bool *colliding);

/* Did bodies a and b touch at some instant from the update before the last to the last
 * col_world_update (both included), given their poses at those two updates? Each body is
 * taken to move between its two poses by the motion model of col_geometry_toi (position
 * linear, orientation slerp on the shorter arc: docs/ccd.md), and the answer is that of
 * the time of impact under it, for every kind of shape pair (hulls, spheres, capsules,
 * compounds, meshes): may_have_touched is true if and only if a first contact in [0, 1]
 * exists, except that a pass within the time of impact's distance tolerance of touching
 * (1e-13 of the two bodies' size, convex pairs) counts as touching, and exact is false
 * (and may_have_touched true) when the advancement reached its iteration cap
 * (docs/ccd.md, "The swept test"). Poses set since the last update are not seen. Only
 * reads the world and allocates nothing: it may run from several threads at once,
 * between updates. Errors: INVALID_ARGUMENT, STALE_ID, SAME_BODY. */
COL_API col_status col_query_interframe(const col_world *world, col_body_id a, col_body_id b,
                                        col_interframe_result *out);

/* ---- distance and contacts (closest features: Lin & Canny 1991, Mirtich's V-Clip
 * 1998; docs/voronoi.md; spheres and capsules: docs/rounded.md). ---- */

/* Features; for a hull piece the index numbers its vertices (the order of
 * col_shape_get_vertices or the piece's col_hull_view), edges or faces; a sphere's centre
 * is vertex 0, a capsule's core segment edge 0 with its ends vertices 0 (-z) and 1 (+z).
 * NONE: not tracked (the hull side of a pair with a sphere or a capsule). */
typedef enum col_feature_type {
    COL_FEATURE_VERTEX = 0,
    COL_FEATURE_EDGE,
    COL_FEATURE_FACE,
    COL_FEATURE_NONE
} col_feature_type;

typedef struct col_feature {
    col_feature_type type;
    int index;
} col_feature;

/* How two convex bodies lie. Touching counts as colliding (col_world_update). */
typedef enum col_distance_outcome {
    COL_DISTANCE_SEPARATED = 0, /* apart: a positive gap is certified */
    COL_DISTANCE_TOUCHING,      /* within rounding of contact */
    COL_DISTANCE_PENETRATING    /* overlapping */
} col_distance_outcome;

/* Two shapes at two poses (world frame; the quaternions unit within the world's
 * tolerance). */
typedef struct col_distance_input {
    col_shape_id shape_a, shape_b;
    col_transform pose_a, pose_b;
} col_distance_input;

/* Warm start for repeated queries on one pair of hulls, owned by the caller: zero it
 * before the first call, then pass it back each time. Plain values only (copy or drop it
 * freely); a cache filled for another pair of shapes is ignored. */
typedef struct col_distance_cache {
    col_shape_id shape_a, shape_b; /* the world shapes it was filled for (zero: empty) */
    const col_geometry *geometry_a, *geometry_b; /* or the geometries (world-free calls);
                                                    compared, never dereferenced */
    col_feature feature_a, feature_b;
    col_vec3 direction_a, direction_b; /* the centroids' direction in a's and in b's frame */
} col_distance_cache;

typedef struct col_distance_output {
    col_distance_outcome outcome;
    double distance;                  /* length units, >= 0; 0 when PENETRATING */
    col_vec3 point_a, point_b;        /* world: closest points (SEPARATED, TOUCHING), or a
                                         common point of both bodies (PENETRATING; after
                                         a fallback only the centroids' midpoint) */
    col_feature feature_a, feature_b; /* the features holding point_a and point_b */
    int piece_a, piece_b;             /* the pieces they are on (compounds; else 0) */
    int steps;                        /* feature-walk steps (1: the cached pair held) */
    int fallbacks;                    /* exact fallbacks taken (rare; see docs) */
} col_distance_output;

/* Distance, closest points and closest features of two shapes at two poses. cache may
 * be NULL. Errors: INVALID_ARGUMENT, STALE_ID, NOT_FINITE, BAD_QUATERNION,
 * OUT_OF_MEMORY; on error *out is zeroed and the world is unchanged. */
COL_API col_status col_distance(const col_world *world, const col_distance_input *input,
                                col_distance_cache *cache, col_distance_output *out);

/* Time-critical collision of two mesh bodies at the poses last set (docs/adb.md): the
 * ADB-tree traversal with def's p_min, k_min and max_node_pairs (def->enabled and
 * def->frame_budget are ignored: no budget in seconds here, so the answer is
 * deterministic). Builds the shapes' ADB data on first use (1 byte a node, kept).
 * Errors: INVALID_ARGUMENT (NULL, a body that is not a mesh, p_min outside (0, 1] or
 * NaN, k_min < 1, max_node_pairs < 0), DEF_UNINITIALIZED, STALE_ID, SAME_BODY,
 * OUT_OF_MEMORY; on error *out is zeroed and the world is unchanged. */
COL_API col_status col_body_collide_time_critical(col_world *world, col_body_id a, col_body_id b,
                                                  const col_time_critical_def *def, col_pair_estimate *out);

/* The same for two bodies at the poses last set (col_body_set_pose or creation).
 * Errors: INVALID_ARGUMENT, STALE_ID, SAME_BODY, OUT_OF_MEMORY. */
COL_API col_status col_body_distance(const col_world *world, col_body_id a, col_body_id b,
                                     col_distance_cache *cache, col_distance_output *out);

#define COL_MAX_CONTACT_POINTS 8

typedef struct col_contact_point {
    col_vec3 point_a, point_b; /* world: on a's and on b's surface */
    double separation;         /* (point_b - point_a) . normal: < 0 where they overlap */
} col_contact_point;

typedef struct col_contact_input {
    col_shape_id shape_a, shape_b;
    col_transform pose_a, pose_b;
    double margin; /* >= 0, length units: SEPARATED pairs this close get points too */
} col_contact_input;

typedef struct col_contact_output {
    col_distance_outcome outcome;
    col_vec3 normal;    /* unit, from a toward b (push b along it to separate) */
    double separation;  /* distance (>= 0), or minus the penetration depth along normal */
    int point_count;    /* 0 when SEPARATED by more than the margin */
    col_contact_point points[COL_MAX_CONTACT_POINTS];
    int piece_a, piece_b; /* the pieces in contact (compounds: the deepest pair; else 0) */
    int steps, fallbacks; /* as in col_distance_output */
} col_contact_output;

/* Contact normal, separation and up to COL_MAX_CONTACT_POINTS points for touching,
 * overlapping or nearly touching shapes (hull face contacts are clipped polygons; a
 * capsule lying along the other shape gives its two ends; others one point; a compound
 * pair: the piece pair of least separation). cache may be NULL. Errors: as col_distance,
 * and INVALID_ARGUMENT for a negative or non-finite margin. */
COL_API col_status col_contact(const col_world *world, const col_contact_input *input,
                               col_distance_cache *cache, col_contact_output *out);

/* The same for two bodies at the poses last set. Errors: as col_body_distance, and
 * INVALID_ARGUMENT for a negative or non-finite margin. */
COL_API col_status col_body_contact(const col_world *world, col_body_id a, col_body_id b, double margin,
                                    col_distance_cache *cache, col_contact_output *out);

/* The world-free forms of col_distance and col_contact: geometries at poses (quaternions
 * unit within 1e-6), the caller's cache (may be NULL) and scratch. Errors: INVALID_ARGUMENT,
 * NOT_FINITE, BAD_QUATERNION, OUT_OF_MEMORY; on error *out is zeroed. */
COL_API col_status col_geometry_distance(const col_geometry *a, col_transform pose_a, const col_geometry *b,
                                         col_transform pose_b, col_distance_cache *cache,
                                         col_query_scratch *scratch, col_distance_output *out);
COL_API col_status col_geometry_contact(const col_geometry *a, col_transform pose_a, const col_geometry *b,
                                        col_transform pose_b, double margin, col_distance_cache *cache,
                                        col_query_scratch *scratch, col_contact_output *out);

/* ---- continuous collision: time of impact (docs/ccd.md) ---- */

/* Motion model. Each shape moves from its pose at s = 0 to its pose at s = 1 by
 * interpolating them: position linear, p(s) = p0 + s (p1 - p0); orientation slerp along
 * the shorter arc, q(s) = slerp(q0, q1', s) with q1' = -q1 when q0.q1 < 0 (constant
 * linear and angular velocity; the rotation is about the shape's origin). */

/* The first contact of two moving shapes. */
typedef struct col_toi_output {
    bool hit;            /* they share a point at some s in [0, 1] (touching counts); false only when
                            no contact is proven */
    bool capped;         /* hit reported at the instant the iteration cap stopped the advancement (s is
                            then only a lower bound of the first contact: docs/ccd.md) */
    double s;            /* hit: at or before the first instant of contact, and at most 1e-6 before it
                            (0 when they share a point at s = 0); no hit: 1 */
    col_vec3 normal;     /* hit: unit, from a toward b at s */
    col_vec3 point_a, point_b; /* hit: world closest points at s (a common point when they overlap) */
    int piece_a, piece_b;      /* hit: the pieces (compounds; mesh: the triangle; else 0) */
    int iterations;      /* conservative-advancement rounds */
} col_toi_output;

/* Time of impact of geometry a moving from pose a0 to a1 and b from b0 to b1 (the motion
 * model above; quaternions unit within 1e-6, renormalised). Conservative advancement
 * with certified distances and a motion bound that is a sum of non-negative per-body
 * terms: never later than the first contact. Meshes (against meshes or convex shapes):
 * C2A over the mesh hierarchy, with the same promises (docs/ccd.md "C2A"). Errors:
 * INVALID_ARGUMENT (NULL), NOT_FINITE, BAD_QUATERNION; on error *out is zeroed. */
COL_API col_status col_geometry_toi(const col_geometry *a, col_transform a0, col_transform a1, const col_geometry *b,
                                    col_transform b0, col_transform b1, col_query_scratch *scratch,
                                    col_toi_output *out);

/* Two world shapes, each moving between two poses. */
typedef struct col_toi_input {
    col_shape_id shape_a, shape_b;
    col_transform pose_a0, pose_a1; /* a at s = 0 and s = 1 */
    col_transform pose_b0, pose_b1; /* b at s = 0 and s = 1 */
} col_toi_input;

/* col_geometry_toi on world shapes. Only reads the world (see the top of this header).
 * Errors: INVALID_ARGUMENT (NULL), STALE_ID, NOT_FINITE, BAD_QUATERNION;
 * on error *out is zeroed and the world is unchanged. */
COL_API col_status col_toi(const col_world *world, const col_toi_input *input, col_toi_output *out);

#ifdef __cplusplus
}
#endif
#endif
