/* SPDX-License-Identifier: MIT */
/* Colibri: multi-body collision detection for convex bodies.
 *
 * A world owns shapes (convex hulls, spheres, capsules, compounds: shape.h) and bodies
 * (a shape at a pose). Each frame the app
 * moves bodies with col_body_set_pose, calls col_world_update once, then reads the
 * colliding pairs and the began/ended events with col_world_get_pair_events.
 * Every function validates its input before it changes anything: on error the world is
 * unchanged and col_world_last_error() says why in a sentence. No global state. */
#ifndef COLIBRI_COLIBRI_H
#define COLIBRI_COLIBRI_H

#include "colibri/base.h"
#include "colibri/id.h"
#include "colibri/query.h"
#include "colibri/record.h"
#include "colibri/shape.h"
#include "colibri/types.h"
#include "colibri/vecmath.h"
#include "colibri/worldquery.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct col_world col_world;

/* ---- world ---- */

/* The backend's short name ("reference", ...), or NULL for an unknown value. */
COL_API const char *col_backend_name(col_backend backend);

/* Defaults: malloc/free, the default backend, quaternion tolerance 1e-6. */
COL_API col_world_def col_default_world_def(void);

/* The time-critical mode's defaults (types.h col_time_critical_def): off, p_min 0.99,
 * k_min 10, no budgets. */
COL_API col_time_critical_def col_default_time_critical_def(void);

/* Creates a world and starts its worker threads (col_world_def.worker_count; none with
 * one worker or with the app's task system). *out receives it (NULL on error). Errors:
 * INVALID_ARGUMENT, DEF_UNINITIALIZED, OUT_OF_MEMORY (also: a thread could not start). */
COL_API col_status col_world_create(const col_world_def *def, col_world **out);

/* Joins the world's threads and frees it with every shape and body in it. NULL is
 * ignored. */
COL_API void col_world_destroy(col_world *world);

/* Runs one frame: refreshes bounds of moved bodies, updates the broad phase, runs the
 * narrow phase on candidate pairs and builds the sorted pair list and events. Uses all
 * the world's workers and returns when they are done; results are identical for every
 * worker count. Calls on one world must not overlap (a world is not thread safe).
 * Errors: INVALID_ARGUMENT (NULL world), OUT_OF_MEMORY (the previous frame's results are
 * kept and the update can be retried). */
COL_API col_status col_world_update(col_world *world);

/* What the time-critical mode (col_world_def.time_critical) said at the last update
 * about the pair of bodies a and b (either order): out->tested is false for a pair it did
 * not test then (not two meshes, boxes apart, asleep, the mode off). Errors:
 * INVALID_ARGUMENT (NULL), STALE_ID, SAME_BODY; on error *out is zeroed. */
COL_API col_status col_pair_get_estimate(const col_world *world, col_body_id a, col_body_id b,
                                         col_pair_estimate *out);

/* The results of the last update (zeros before the first). See col_pair_events. */
COL_API col_pair_events col_world_get_pair_events(const col_world *world);

/* Counters of the last update. Errors: INVALID_ARGUMENT. */
COL_API col_status col_world_get_counters(const col_world *world, col_counters *out);

/* What the last call on this world that changed its message said: a sentence that starts
 * with the failing function's name (e.g. "col_body_set_pose: quaternion length 2 differs
 * from 1 by more than 1e-06"), or "not an error" (SQLite's words) after a success.
 * The rule: every call that takes a non-const world (col_world_create, col_world_update,
 * the shape and body calls that create, destroy or set, col_pair_set_enabled) writes it:
 * "not an error" when it succeeds, its reason when it fails. A call that takes a const
 * world (the getters and the world-bound queries) writes it only when it fails, so that
 * queries may run on several threads at once (query.h); after a successful one the text
 * is still that of the call before. Owned by the world, valid until the next call;
 * "no world" for NULL. */
COL_API const char *col_world_last_error(const col_world *world);

/* A 64-bit fingerprint of everything the world holds (shapes, bodies, poses, filters,
 * declared speeds, disabled pairs, last results). Equal states give equal hashes, also in
 * two worlds (the ids' world tags are left out); used to check that a failed call changed
 * nothing. 0 for NULL. */
COL_API uint64_t col_world_hash(const col_world *world);

/* ---- shapes ---- */

/* Builds the convex hull of count points (local frame, length units) as a new shape.
 * Interior and duplicate points are dropped. Zero-volume sets (coincident, collinear or
 * coplanar points) are rejected: Colibri has no flat or needle shapes; give them a
 * thickness. Errors: INVALID_ARGUMENT, NOT_FINITE, TOO_FEW_POINTS, DEGENERATE_SHAPE,
 * HULL_FAILED, OUT_OF_MEMORY, CAPACITY. The points are copied. */
COL_API col_status col_shape_create_convex(col_world *world, const col_vec3 *points, int count,
                                           col_shape_id *out);

/* A world shape from a world-free geometry (shape.h), copied: the geometry may be
 * destroyed afterwards. Errors: INVALID_ARGUMENT, OUT_OF_MEMORY, CAPACITY. */
COL_API col_status col_shape_create(col_world *world, const col_geometry *geometry, col_shape_id *out);

/* The box [-h.x, h.x] x [-h.y, h.y] x [-h.z, h.z] (a hull of its 8 corners); each half
 * extent finite and > 0. Errors: INVALID_ARGUMENT, NOT_FINITE (beyond COL_MAX_COORD),
 * DEGENERATE_SHAPE (a volume below DBL_MIN, or flat to the hull builder's precision),
 * OUT_OF_MEMORY, CAPACITY. */
COL_API col_status col_shape_create_box(col_world *world, col_vec3 half_extents, col_shape_id *out);

/* The ball of radius (length units, finite, > 0) about the local origin. Errors:
 * INVALID_ARGUMENT (radius zero, negative, NaN or infinite), NOT_FINITE (beyond
 * COL_MAX_COORD), OUT_OF_MEMORY, CAPACITY. */
COL_API col_status col_shape_create_sphere(col_world *world, double radius, col_shape_id *out);

/* The points within radius of the segment (0,0,-half_height)..(0,0,+half_height); both
 * finite and > 0 (a zero half height is a sphere). Errors: as col_shape_create_sphere. */
COL_API col_status col_shape_create_capsule(col_world *world, double half_height, double radius,
                                            col_shape_id *out);

/* A triangle-mesh shape (shape.h: col_mesh_def; docs/meshes.md): vertices and triangles
 * copied, its hierarchy built once here. Bodies using it may move or stay (a static body:
 * col_body_def.is_static); it collides with every other kind; a mesh is not a compound
 * child. Errors: as col_geometry_create_mesh, and CAPACITY. */
COL_API col_status col_shape_create_mesh(col_world *world, const col_mesh_def *def, col_shape_id *out);

/* One child of a compound shape: a live shape of this world at a pose in the compound's
 * frame. */
typedef struct col_compound_child {
    col_shape_id shape;
    col_transform pose; /* unit quaternion (x, y, z, w) within the world's tolerance */
} col_compound_child;

/* A compound of count >= 1 children: a body using it collides with another when any of
 * its pieces does (one pair per body pair). The children's geometry is copied into the
 * compound's frame (their points transformed by the poses once; a compound child adds
 * its pieces): the child shapes stay independent and may be destroyed afterwards.
 * Errors: INVALID_ARGUMENT (NULL, count < 1: an empty compound, or too many pieces),
 * STALE_ID (a child), NOT_FINITE, BAD_QUATERNION, DEGENERATE_SHAPE, OUT_OF_MEMORY,
 * CAPACITY. */
COL_API col_status col_shape_create_compound(col_world *world, const col_compound_child *children, int count,
                                             col_shape_id *out);

/* The shape's geometry, read only, owned by the world and valid until the shape is
 * destroyed: its facts (col_geometry_get_info, col_geometry_get_piece) and the world-free
 * queries of query.h take it. Errors: STALE_ID, INVALID_ARGUMENT. */
COL_API col_status col_shape_get_geometry(const col_world *world, col_shape_id shape, const col_geometry **out);

/* Destroys a shape no body uses. Errors: STALE_ID, SHAPE_IN_USE. */
COL_API col_status col_shape_destroy(col_world *world, col_shape_id shape);

/* True if the id names a live shape of this world. Never traps. */
COL_API bool col_shape_is_valid(const col_world *world, col_shape_id shape);

/* Facts about a shape (shape.h), with the bodies using it. Errors: STALE_ID,
 * INVALID_ARGUMENT. */
COL_API col_status col_shape_get_info(const col_world *world, col_shape_id shape,
                                      col_shape_info *out);

/* Copies up to capacity hull vertices (local frame) into out and sets *count to the
 * vertex count (call with capacity 0 to ask the size). Errors: STALE_ID, INVALID_ARGUMENT
 * (also: the shape is not a hull; read other kinds with col_shape_get_geometry). */
COL_API col_status col_shape_get_vertices(const col_world *world, col_shape_id shape,
                                          col_vec3 *out, int capacity, int *count);

/* ---- bodies ---- */

/* Defaults: null shape, identity pose, group 1, mask all, moving, speeds undeclared. */
COL_API col_body_def col_default_body_def(void);

/* Adds a body. It takes part from the next col_world_update on. Errors: INVALID_ARGUMENT
 * (also: speeds not both COL_SPEED_UNDECLARED or both finite and >= 0), DEF_UNINITIALIZED,
 * STALE_ID (shape), NOT_FINITE, BAD_QUATERNION, OUT_OF_MEMORY, CAPACITY. */
COL_API col_status col_body_create(col_world *world, const col_body_def *def, col_body_id *out);

/* Removes a body; its id becomes stale and is never handed out again with the same
 * generation. Pairs it was in are reported as ended by the next update. Errors: STALE_ID. */
COL_API col_status col_body_destroy(col_world *world, col_body_id body);

/* True if the id names a live body of this world. Never traps. */
COL_API bool col_body_is_valid(const col_world *world, col_body_id body);

/* Moves a body (takes effect at the next update). The quaternion must be unit within the
 * world's tolerance. Errors: STALE_ID, NOT_FINITE, BAD_QUATERNION. */
COL_API col_status col_body_set_pose(col_world *world, col_body_id body, col_transform pose);

/* Computes the pose of item index of a col_body_set_poses_fn call. It is called once per
 * index, from the world's worker threads and in no fixed order, so it must be safe to
 * run concurrently and must not call into the world. */
typedef col_transform col_pose_fn(int index, void *ctx);

/* Moves count bodies at once: the same as col_body_set_pose(world, bodies[i], poses[i])
 * for i = 0 .. count - 1 in order (a body named twice takes its last pose), with the
 * checks spread over the world's workers. All or nothing: on an error no body moves and
 * the error and message are those of the lowest failing i. A call that names a body
 * twice, or one whose pose was set since the last update, checks the poses into a
 * buffer of count poses first, which the world keeps for the next calls. Errors: INVALID_ARGUMENT (NULL
 * with count > 0, count < 0), STALE_ID, NOT_FINITE, BAD_QUATERNION, OUT_OF_MEMORY. */
COL_API col_status col_body_set_poses(col_world *world, const col_body_id *bodies, const col_transform *poses,
                                      int count);

/* As col_body_set_poses with poses[i] = fn(i, ctx), evaluated on the workers too: an app
 * that animates many bodies (or the benchmark, which evaluates the scenes' closed-form
 * motion) spreads that work over the cores the world already holds. */
COL_API col_status col_body_set_poses_fn(col_world *world, const col_body_id *bodies, int count, col_pose_fn *fn,
                                         void *ctx);

/* Reads the pose last set. Errors: STALE_ID, INVALID_ARGUMENT. */
COL_API col_status col_body_get_pose(const col_world *world, col_body_id body,
                                     col_transform *out);

/* Declares the body's top speeds from the next update on: its origin moves at most
 * max_linear_speed (length units per update) and it turns at most max_angular_speed
 * (radians per update); both finite and >= 0, or both COL_SPEED_UNDECLARED to let the world
 * derive its bound from pose changes (see col_body_def). Errors: STALE_ID, INVALID_ARGUMENT. */
COL_API col_status col_body_set_max_speeds(col_world *world, col_body_id body, double max_linear_speed,
                                           double max_angular_speed);

/* Reads the speeds last declared (COL_SPEED_UNDECLARED for none). Errors: STALE_ID,
 * INVALID_ARGUMENT. */
COL_API col_status col_body_get_max_speeds(const col_world *world, col_body_id body, double *max_linear_speed,
                                           double *max_angular_speed);

/* The def's user_data, or NULL for a stale id. */
COL_API void *col_body_get_user_data(const col_world *world, col_body_id body);

/* ---- pairs ---- */

/* Enables or disables narrow-phase testing of one pair (enabled by default). A disabled
 * pair is never reported. The setting is forgotten when either body is removed.
 * Errors: STALE_ID, SAME_BODY, OUT_OF_MEMORY. */
COL_API col_status col_pair_set_enabled(col_world *world, col_body_id a, col_body_id b,
                                        bool enabled);

/* Whether the pair is enabled; false for stale ids. */
COL_API bool col_pair_is_enabled(const col_world *world, col_body_id a, col_body_id b);

#ifdef __cplusplus
}
#endif
#endif
