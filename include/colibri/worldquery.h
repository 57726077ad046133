/* SPDX-License-Identifier: MIT */
/* Queries against every body of a world (issue 20; Box2D v3's b2World_CastRay,
 * b2World_OverlapAABB and b2World_OverlapShape, Jolt's closest/any/all collectors):
 * a pointer ray, a grab volume, "what does this shape touch". docs/queries.md has the
 * details, the proofs of the margins and the measurements.
 *
 * What they see: the bodies at the poses last set (col_body_set_pose or creation), not
 * at the last update. Bodies whose pose was set since the last col_world_update (and
 * bodies created since) are tested one by one; the others through a bounding-volume tree
 * over the broad phase's boxes, brought up to date by the first query after an update
 * (or by col_world_prepare_queries): a world that is never queried pays nothing.
 *
 * Exact like the pair test: a ray hits a body iff the segment from origin to
 * origin + translation (the end rounded to double) shares a point with it (touching
 * counts); a ray that starts inside or on a body hits it at fraction 0 (with the normal
 * -translation/|translation|: there is no entering surface); a zero-length ray is the
 * point origin. A triangle mesh is a surface (docs/meshes.md): a ray inside a closed mesh
 * hits it where it crosses a triangle, not at 0. The fraction is the first contact up to
 * rounding. Equal fractions go to the smaller body index (its slot, id.index1).
 *
 * Threads: every function here but col_world_prepare_queries takes a const world and may
 * run on several threads at once, and at once with any other call that takes a const
 * world, between updates; none may overlap a call that changes the world (update, pose,
 * create, destroy, filter calls). The first query after an update builds the tree under a
 * lock inside the world (the others wait for it). Results do not depend on threads.
 * The tree and the temporary lists (all hits, overlaps) and scratch come from the world's
 * allocator hooks (col_world_def.allocator), which must then be thread safe (malloc is);
 * they are not counted in col_counters (a const query never writes what the getters read). */
#ifndef COLIBRI_WORLD_QUERY_H
#define COLIBRI_WORLD_QUERY_H

#include <stdbool.h>
#include <stdint.h>

#include "colibri/base.h"
#include "colibri/id.h"
#include "colibri/shape.h"
#include "colibri/vecmath.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct col_world col_world;

/* Called for each body that passes the group/mask test (before any geometry): return
 * false to skip it. May run on the calling thread only; must not call the world's non-
 * const functions. */
typedef bool col_query_filter_fn(col_body_id body, void *body_user_data, void *ctx);

/* Which bodies a query sees: body b passes when (group & b.mask) != 0 and
 * (b.group & mask) != 0 (the pair rule of col_body_def), and fn, if set, says true. */
typedef struct col_query_filter {
    uint32_t group, mask;
    col_query_filter_fn *fn; /* may be NULL */
    void *ctx;
} col_query_filter;

/* group and mask all ones, no callback: every body. */
COL_API col_query_filter col_default_query_filter(void);

typedef struct col_ray_hit {
    col_body_id body;
    int piece;        /* the compound's piece, the mesh's triangle (the caller's number),
                         else 0 */
    double fraction;  /* in [0, 1]: the point is origin + fraction * translation */
    col_vec3 point;   /* world */
    col_vec3 normal;  /* world, unit, against the ray (see the top for a start inside) */
} col_ray_hit;

/* The first body the ray origin .. origin + translation (world, length units) meets:
 * *found says whether there is one, *hit (zeroed when not) says where. filter NULL: every
 * body. Errors: INVALID_ARGUMENT (NULL world, hit or found), NOT_FINITE (origin or
 * translation, or their sum, NaN, infinite or beyond COL_MAX_COORD), OUT_OF_MEMORY (the
 * tree could not be built). */
COL_API col_status col_world_cast_ray(const col_world *world, col_vec3 origin, col_vec3 translation,
                                      const col_query_filter *filter, col_ray_hit *hit, bool *found);

/* Some body the ray meets, the cheapest to find (not necessarily the first; still
 * deterministic). Arguments and errors as col_world_cast_ray. */
COL_API col_status col_world_cast_ray_any(const col_world *world, col_vec3 origin, col_vec3 translation,
                                          const col_query_filter *filter, col_ray_hit *hit, bool *found);

/* Every body the ray meets, each once (at its first contact), sorted by fraction then
 * body index: the first min(capacity, *count) go to hits (may be NULL when capacity is 0),
 * *count gets how many there are. Errors: as col_world_cast_ray, and INVALID_ARGUMENT for
 * count NULL, capacity < 0, or hits NULL with capacity > 0; OUT_OF_MEMORY (the list). */
COL_API col_status col_world_cast_ray_all(const col_world *world, col_vec3 origin, col_vec3 translation,
                                          const col_query_filter *filter, col_ray_hit *hits, int capacity,
                                          int *count);

/* The bodies whose boxes meet the box [lo, hi] (world, closed; touching counts), sorted by
 * body index: each body's box is the one the pair test starts from (its shape's box at its
 * pose, rounded outward: it may reach a little beyond the shape, never less). A box test
 * only, as Box2D's; for the shapes themselves, col_world_overlap_shape with a box
 * geometry. Output as col_world_cast_ray_all. Errors: INVALID_ARGUMENT (NULL world or
 * count, capacity < 0, bodies NULL with capacity > 0, lo above hi on an axis), NOT_FINITE,
 * OUT_OF_MEMORY. */
COL_API col_status col_world_overlap_box(const col_world *world, col_vec3 lo, col_vec3 hi,
                                         const col_query_filter *filter, col_body_id *bodies, int capacity,
                                         int *count);

/* The bodies that share a point with geometry at pose (exactly, touching counts, as the
 * update decides pairs; the world's backend for hull pairs), sorted by body index. The
 * geometry is a world-free one (shape.h; col_shape_get_geometry gives a world shape's).
 * Output as col_world_cast_ray_all. Errors: INVALID_ARGUMENT (NULL world, geometry or
 * count, capacity < 0, bodies NULL with capacity > 0), NOT_FINITE, BAD_QUATERNION (the
 * pose's quaternion not unit within the world's tolerance), OUT_OF_MEMORY. */
COL_API col_status col_world_overlap_shape(const col_world *world, const col_geometry *geometry,
                                           col_transform pose, const col_query_filter *filter,
                                           col_body_id *bodies, int capacity, int *count);

typedef struct col_shape_hit {
    col_body_id body;
    int piece;          /* the body's piece (compound) or triangle (mesh: the caller's
                           number, as col_ray_hit.piece), else 0 */
    int shape_piece;    /* the moving geometry's piece (compound) or triangle (mesh), else 0 */
    double fraction;    /* in [0, 1]: the moving shape is at pose.p + fraction * translation */
    col_vec3 point;     /* world: the contact point on the body at that fraction */
    col_vec3 shape_point; /* world: the contact point on the moving shape at that fraction */
    col_vec3 normal;    /* world, unit: from the body toward the moving shape (the body's
                           surface normal at point; see below for a start in contact) */
    bool capped;        /* the time of impact stopped at its iteration cap (query.h's
                           col_toi_output.capped): fraction is then only a lower bound */
} col_shape_hit;

/* Shape cast: the first body that geometry (a world-free geometry of any kind: hull,
 * sphere, capsule, box, compound or triangle mesh) meets while it moves by translation from
 * pose, keeping pose's orientation, against every body at its last-set pose (they stay
 * put). Each candidate is decided by the time of impact of query.h (col_geometry_toi:
 * conservative advancement, C2A when either side is a mesh; never later than the first
 * contact, at most 1e-6 of the sweep before it; docs/ccd.md), so fraction is that query's
 * s. Touching counts; a geometry that already shares a point with a body at pose hits it
 * at fraction 0 (normal: the direction of the least separation of the pieces there,
 * docs/queries.md); a mesh is a surface (docs/meshes.md), so a shape inside a closed mesh
 * does not touch it until it reaches a triangle. A zero translation asks "does it touch
 * anything at pose". Equal fractions go to the smaller body index. *found says whether
 * there is a hit, *hit (zeroed when not) says where.
 * Errors: INVALID_ARGUMENT (NULL world, geometry, hit or found), NOT_FINITE (pose or
 * translation, or the end position, NaN, infinite or beyond COL_MAX_COORD),
 * BAD_QUATERNION, OUT_OF_MEMORY (the tree or the candidate list). */
COL_API col_status col_world_cast_shape(const col_world *world, const col_geometry *geometry, col_transform pose,
                                        col_vec3 translation, const col_query_filter *filter, col_shape_hit *hit,
                                        bool *found);

/* Some body the shape cast meets (Jolt's any-hit collector): the first of the candidates,
 * taken in the order in which the moving geometry's box enters their boxes (then body
 * index), that the time of impact says it meets, at that time of impact. Deterministic, not
 * necessarily the first contact; cheaper than col_world_cast_shape when a yes or no is
 * enough. Arguments, output and errors as col_world_cast_shape. */
COL_API col_status col_world_cast_shape_any(const col_world *world, const col_geometry *geometry,
                                            col_transform pose, col_vec3 translation,
                                            const col_query_filter *filter, col_shape_hit *hit, bool *found);

/* Every body the shape cast meets, each once at its time of impact (as col_world_cast_shape
 * would report it were it the only body), sorted by fraction then body index: the first
 * min(capacity, *count) go to hits (may be NULL when capacity is 0), *count is the total.
 * Errors: as col_world_cast_shape, and INVALID_ARGUMENT for count NULL, capacity < 0, or
 * hits NULL with capacity > 0; OUT_OF_MEMORY (the lists). */
COL_API col_status col_world_cast_shape_all(const col_world *world, const col_geometry *geometry,
                                            col_transform pose, col_vec3 translation,
                                            const col_query_filter *filter, col_shape_hit *hits, int capacity,
                                            int *count);

/* Brings the query tree up to date now (else the first query after an update does): an
 * app that wants the cost on this thread, or the bench to time it apart. Not concurrent
 * with anything on this world. Errors: INVALID_ARGUMENT (NULL world), OUT_OF_MEMORY (the
 * next query tries again). */
COL_API col_status col_world_prepare_queries(col_world *world);

#ifdef __cplusplus
}
#endif
#endif
