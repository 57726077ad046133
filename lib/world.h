/* SPDX-License-Identifier: MIT */
/* The world's internal layout, shared by the files of lib/ (world.c: life cycle and
 * inspection; shape.c; body.c; frame.c: col_world_update; query.c). The groups other
 * files own are their own structs, each with its reserve and destroy: pair_cache.h
 * (per-pair narrow-phase slots), pair_filter.h (disabled pairs), results.h (pairs and
 * events), body_poses.h (batch pose calls), sleep_wheel.h (sleeping pairs), and the
 * frame's scratch in a col_arena (lib/core/arena.h). Not a public header. */
#ifndef COLIBRI_LIB_WORLD_H
#define COLIBRI_LIB_WORLD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "colibri/colibri.h"
#include "lib/core/adb_tree.h"
#include "lib/core/alloc.h"
#include "lib/core/arena.h"
#include "lib/core/geometry.h"
#include "lib/core/hull.h"
#include "lib/core/id_pool.h"
#include "broadphase/sap.h"
#include "lib/core/vec.h"
#include "lib/body_poses.h"
#include "lib/pair_cache.h"
#include "lib/pair_filter.h"
#include "lib/observe.h"
#include "lib/parallel.h"
#include "lib/results.h"
#include "lib/sleep_wheel.h"
#include "narrowphase/backend.h"

struct col_sap;

#define COL_DEF_COOKIE 0x636f6c31 /* "col1": a def filled by its default function */

typedef struct col_shape_rec {
    col_geometry *geom;   /* on the world's allocator, with the world backend's data in its
                             hull pieces (lib/geometry_data.h) */
    /* What the frame reads for every body, kept in the record itself (one cache line
     * fewer per body than through geom: measured 4 % of a cw500 frame): */
    double radius;        /* geom->radius */
    bool is_hull;         /* geom is one hull piece ... */
    col_hull hull;        /* ... and this a shallow copy of it (its arrays are geom's) */
    const void *np_data;  /* that piece's data for the world's backend, or NULL */
    int body_count;
    col_adb_tree adb;     /* MESH: the ADB counts (docs/adb.md), built at creation in the
                             time-critical mode, or by col_body_collide_time_critical;
                             cells NULL until then */
    /* The fat box's ball (col_world_fat_cube), kept so that a refit reads neither geom nor
     * takes a square root: its centre in the body frame (the origin if fat_at_origin) and
     * its radius before the margin. */
    col_vec3 fat_mid;
    double fat_h;
    bool fat_at_origin;
} col_shape_rec;

/* A body. The fields the update's bounds step (lib/frame.c, step 1) reads and writes for
 * every moved body come first and the three poses next, so that step touches about four
 * of the record's cache lines instead of all six (million streams a million records a
 * frame: docs/broadphase.md, "The frame around it"). */
typedef struct col_body_rec {
    col_xform xf;         /* rotation matrix and position of the pose at the last update */
    uint64_t moved_frame; /* the update that last changed xf (0: never moved) */
    /* time-to-collision schedule (lib/schedule.h): the per-frame motion bound the body is
     * armed with, the one it had before the update numbered moved_frame, and the last
     * update in which it moved farther than its bound (its sleeping pairs are re-tested) */
    double motion_bound, motion_bound_prev;
    uint64_t tripped_frame;
    /* the app's declared top speeds per update (length units, radians), or both
     * COL_SPEED_UNDECLARED; they floor motion_bound (col_motion_declared) */
    double max_linear_speed, max_angular_speed;
    uint32_t shape;       /* shape slot */
    /* Three poses in a ring, by index into poses[] (col_body_pose, col_body_upd_pose,
     * col_body_prev_pose): the pose as set; the pose of xf (as set before the last
     * update); the pose before the update numbered moved_frame (the quaternions the
     * continuous and inter-frame modes interpolate: lib/continuous.c, lib/interframe.c).
     * Between updates set_i == upd_i until a pose is set; a set then writes the slot that
     * is neither upd_i nor prev_i (col_body_store_pose), so col_query_interframe still
     * finds both older poses, and the update makes upd_i the set one by moving indices
     * instead of copying two poses. xf is always col_xform_from_transform(upd pose), so
     * the earlier xf is not stored but recomputed from the prev pose, bit for bit, where
     * needed (col_world_body_prev_xf). */
    uint8_t set_i, upd_i, prev_i;
    uint8_t is_static;
    uint8_t continuous;   /* col_body_def.continuous */
    col_transform poses[3];
    void *user_data;
    int disabled_count;   /* entries of this body in the disabled-pair list */
    /* The filter bits are the pair loop's copies in the hot array (col_body_hot) only;
     * the box the broad phase holds is the broad phase's own (col_sap_box). */
} col_body_rec;

/* The pose as set (col_body_get_pose). */
static inline const col_transform *col_body_pose(const col_body_rec *b) { return &b->poses[b->set_i]; }
/* The pose xf was made from: the pose as set before the last update. */
static inline const col_transform *col_body_upd_pose(const col_body_rec *b) { return &b->poses[b->upd_i]; }
/* The pose before the update numbered moved_frame. */
static inline const col_transform *col_body_prev_pose(const col_body_rec *b) { return &b->poses[b->prev_i]; }

/* Sets the pose as set (the caller marks the body dirty): into the ring's free slot if
 * this is the first set since the update (the upd and prev poses stay), else over the
 * earlier set. */
static inline void col_body_store_pose(col_body_rec *b, const col_transform *p)
{
    if (b->set_i == b->upd_i) {
        uint8_t f = (uint8_t)((b->upd_i + 1) % 3);
        if (f == b->prev_i) f = (uint8_t)((f + 1) % 3);
        b->set_i = f;
    }
    b->poses[b->set_i] = *p;
}

/* What the pair loop reads of both bodies of every broad-phase record, in its own array:
 * most records fail here (their fat boxes overlap, their tight boxes do not), and a
 * 56-byte entry is one cache miss where the body record would be several. */
typedef struct col_body_hot {
    col_aabb box;         /* the hull's box at xf */
    uint32_t group, mask; /* copies of the body's filter bits */
} col_body_hot;

struct col_world {
    col_alloc alloc;
    col_world_def def;
    const col_np_backend *backend;
    int np_slot; /* the backend's slot in a piece's np_data (lib/geometry_data.h) */

    /* The tag every id of this world carries (include/colibri/id.h): bits 2..31 drawn at
     * creation (col_world_create), bits 0..1 zero; ids add their kind. */
    uint32_t id_tag;

    col_id_pool shape_ids;
    col_shape_rec *shapes;
    int shape_cap;
    /* The componentwise maximum of the counts of every shape created so far (never
     * lowered, as the scratch never shrinks): the workers' scratch holds the backend's
     * scratch_need of it with itself, which covers every pair (backend.h). Sizing
     * data, not world state: not in the hash. */
    col_np_counts shape_counts_max;

    col_id_pool body_ids;
    col_body_rec *bodies;
    uint32_t *dirty_list; /* bodies whose pose changed since the last update */
    col_body_hot *hot;    /* per body slot: what the pair loop tests first */
    /* per body slot: 1 while in the dirty list (pose set since the last update). Its own
     * array, not a field of the body record: the end of every frame clears it for every
     * moved body, which on the record was one more cache line per body (million: 8 ms of
     * a 300 ms frame; docs/broadphase.md, "The frame around it") */
    uint8_t *dirty;
    int body_cap;         /* size of bodies[] and dirty_list[] */
    int dirty_count;
    int static_count;
    int continuous_count; /* live bodies with the continuous flag */

    struct col_sap *sap;
    col_sleep_wheel sleep_queue; /* sleeping pairs' cache slots keyed by wake frame (frame.c) */

    col_pair_cache pair_cache; /* per-pair narrow-phase slots (pair_cache.h) */
    col_pair_filter disabled;  /* disabled pairs (pair_filter.h) */
    col_results results;       /* the colliding pairs and their events (results.h) */

    /* workers (parallel.c): workers[k] is worker k's context (scratch, counters);
     * workers[0] is the calling thread's. pool is NULL with one worker or with the
     * app's task system. */
    col_worker_ctx *workers;
    int worker_count;
    struct col_thread_pool *pool;

    col_arena frame_arena; /* the frame's scratch arrays (frame.c, step 3) */
    col_pose_batch poses;  /* batch pose calls (body_poses.h) */

    uint64_t frame;       /* updates completed */
    col_counters counters;
    struct col_interframe_state *interframe; /* lib/interframe.c; NULL until first used */
    struct col_continuous_state *continuous; /* lib/continuous.c; NULL until first used */
    /* The world queries' tree (lib/query_tree.h): NULL until the first query; written only
     * under query_lock, and query_synced (frame + 1 of its last sync, 0: never) tells
     * readers it is up to date. Query state, not world state: not in the hash. */
    struct col_query_tree *query_tree;
    atomic_flag query_lock;
    _Atomic uint64_t query_synced;
    col_narrow_observer_fn *narrow_observer; /* lib/observe.h; NULL: none */
    void *narrow_observer_ctx;
    char last_error[256];
};

/* Records a formatted message as the world's last error and returns status. */
col_status col_world_fail(const col_world *world, col_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* The text of col_world_last_error after a successful call that takes a non-const world
 * (colibri.h states the rule). */
#define COL_NOT_AN_ERROR "not an error"

/* The start of every public call that may change the world: the message says "not an
 * error" until a check fails (a failure overwrites it). */
static inline void col_world_begin_call(col_world *world)
{
    memcpy(world->last_error, COL_NOT_AN_ERROR, sizeof COL_NOT_AN_ERROR);
}

/* Validation helpers: OK or a recorded error, what naming the public call. */
col_status col_world_check_body(const col_world *world, col_body_id id, const char *what);
col_status col_world_check_shape(const col_world *world, col_shape_id id, const char *what);
/* Checks a pose and writes its normalised form to *out. */
col_status col_world_check_pose(const col_world *world, col_transform pose, col_transform *out, const char *what);
/* The same check with no message and no write but *out: safe on any thread (the batch
 * pose calls run it on the workers, then col_world_check_pose on the first failure). */
col_status col_pose_normalize(double quaternion_tolerance, col_transform pose, col_transform *out);

/* Puts a body in the dirty list (its pose counts as changed at the next update). */
static inline void col_world_mark_dirty(col_world *w, uint32_t slot)
{
    if (!w->dirty[slot]) {
        w->dirty[slot] = 1;
        w->dirty_list[w->dirty_count++] = slot;
    }
}

/* Grows every worker's narrow-phase scratch to at least size bytes. A failure may leave
 * some grown: scratch is not world state. */
col_status col_world_reserve_scratch(col_world *world, size_t size, const char *what);

/* Bounding box of a shape at a pose (col_geometry_box_at; a hull's straight from the
 * record): every world core point as the narrow phase computes it, widened by its piece's
 * radius, lies inside despite rounding. */
void col_world_shape_aabb(const col_shape_rec *shape, const col_xform *xf, col_aabb *out);

/* The box a body holds in the broad phase (I-COLLIDE's fixed-size bounding cube, grown
 * by a margin): the cube of a ball that holds the shape in any orientation (about its
 * local box's centre or about its origin, the smaller), its side widened by the fraction
 * margin, joined with the tight box. */
void col_world_fat_aabb(const col_shape_rec *shape, const col_xform *xf, const col_aabb *tight, double margin,
                        col_aabb *out);

/* That ball for a geometry, as col_world_fat_aabb uses it (the record's fat_mid, fat_h,
 * fat_at_origin, set once when the shape is made). */
void col_world_fat_cube(const col_geometry *g, col_vec3 *mid, double *h, bool *at_origin);

static inline bool col_aabb_overlap(const col_aabb *a, const col_aabb *b)
{
    return a->min.x <= b->max.x && b->min.x <= a->max.x && a->min.y <= b->max.y && b->min.y <= a->max.y &&
           a->min.z <= b->max.z && b->min.z <= a->max.z;
}

static inline bool col_aabb_contains(const col_aabb *outer, const col_aabb *inner)
{
    return outer->min.x <= inner->min.x && outer->min.y <= inner->min.y && outer->min.z <= inner->min.z &&
           inner->max.x <= outer->max.x && inner->max.y <= outer->max.y && inner->max.z <= outer->max.z;
}

/* The xform a body had at the update before update number frame, while or after that
 * update is built: recomputed from the prev pose if that update moved it (the same function
 * of the same pose made it then), else its current xf (it did not move in between). */
static inline col_xform col_world_body_prev_xf(const col_world *world, uint32_t slot, uint64_t frame)
{
    const col_body_rec *b = &world->bodies[slot];
    return b->moved_frame == frame && frame != 0 ? col_xform_from_transform(*col_body_prev_pose(b)) : b->xf;
}

/* The kinds in the low bits of an id's tag (include/colibri/id.h); 0 is the null id's. */
#define COL_ID_KIND_BODY 1u
#define COL_ID_KIND_SHAPE 2u
#define COL_ID_KIND_MASK 3u

/* The id of a live body slot. */
static inline col_body_id col_world_body_id(const col_world *world, uint32_t slot)
{
    col_body_id id = {slot + 1, world->body_ids.generation[slot], world->id_tag | COL_ID_KIND_BODY};
    return id;
}

/* The pair record of two live body slots (sa's index first): their ids and user data,
 * as the update reports them (an ended pair keeps what it had when it was reported). */
static inline col_pair col_world_pair_of(const col_world *world, uint32_t sa, uint32_t sb)
{
    col_pair p;
    p.a = col_world_body_id(world, sa);
    p.b = col_world_body_id(world, sb);
    p.user_data_a = world->bodies[sa].user_data;
    p.user_data_b = world->bodies[sb].user_data;
    return p;
}

/* The id of a live shape slot. */
static inline col_shape_id col_world_shape_id(const col_world *world, uint32_t slot)
{
    col_shape_id id = {slot + 1, world->shape_ids.generation[slot], world->id_tag | COL_ID_KIND_SHAPE};
    return id;
}

/* True if the id names a live body (a shape) of this world: its tag is this world's
 * with the right kind, and its slot is live with its generation. No message: safe on
 * any thread (the batch pose calls check on the workers). */
static inline bool col_world_body_live(const col_world *world, col_body_id id)
{
    return id.tag == (world->id_tag | COL_ID_KIND_BODY) && col_id_pool_check(&world->body_ids, id.index1, id.generation);
}

static inline bool col_world_shape_live(const col_world *world, col_shape_id id)
{
    return id.tag == (world->id_tag | COL_ID_KIND_SHAPE) &&
           col_id_pool_check(&world->shape_ids, id.index1, id.generation);
}

#endif
