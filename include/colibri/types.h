/* SPDX-License-Identifier: MIT */
/* Definition structs (fill them with the col_default_*_def() functions, then change
 * what you need), output records and counters. */
#ifndef COLIBRI_TYPES_H
#define COLIBRI_TYPES_H

#include <stdbool.h>
#include <stdint.h>

#include "colibri/base.h"
#include "colibri/id.h"
#include "colibri/vecmath.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Narrow-phase backends. Every backend answers the same question exactly: do the closed
 * convex hulls share a point (touching counts as colliding)? */
typedef enum col_backend {
    COL_BACKEND_DEFAULT = 0, /* the recommended backend (currently COL_BACKEND_SEPVEC) */
    COL_BACKEND_REFERENCE,   /* separating-axis test over face normals and Minkowski edge
                                pairs with full projections: slow, simple, the yardstick */
    COL_BACKEND_LPIP,        /* a 5-row linear program solved by a primal-dual interior-point
                                method (Akgunduz, Banerjee & Mehrotra 2005) with warm starts
                                and an active set; answers are certified (docs/lpip.md) */
    COL_BACKEND_VORONOI,     /* closest-feature tracking over Voronoi regions (Lin & Canny
                                1991, Mirtich's V-Clip 1998) with cycle detection and an exact
                                fallback; answers are certified (docs/voronoi.md) */
    COL_BACKEND_SEPVEC,      /* separating-vector search (Chung & Wang 1996): cached direction,
                                hill-climbed supports, reflection; exact certificates with
                                Hornus' search and the reference as fallbacks (docs/sepvec.md) */
    COL_BACKEND_COUNT
} col_backend;

/* Most workers a world accepts (worker_count and the app's task system alike). */
#define COL_MAX_WORKERS 64

/* The app's task system (Box2D v3's three-callback contract, box2d types.h, trimmed to
 * what Colibri needs). A parallel step calls enqueue_task(task, task_ctx, user_ctx)
 * worker_count - 1 times, works as worker 0 on the calling thread, then calls
 * finish_task(handle, user_ctx) for every non-NULL handle; finish_task must return only
 * once that task has run. The task must run exactly once, on any thread. Returning NULL
 * from enqueue_task means "not deferred": Colibri then runs the task itself at once (if
 * the callback already ran it inline, that run finds no work left). Results never depend
 * on which thread runs what, nor when. The calling thread does every part of the step
 * that no task has claimed before it calls finish_task, so a task that starts late finds
 * nothing left and returns at once: a finish_task that runs a task not yet started on
 * the calling thread (enkiTS, Jolt and TBB waits do) never makes the step wait for the
 * app's scheduler; only a task that has claimed a part and is running is waited for.
 * A task needs an ordinary thread stack: the exact stage of a sphere or capsule pair uses
 * about 50 KB of it (docs/rounded.md), more than some fiber schedulers give by default. */
typedef void col_task_fn(void *task_ctx);
typedef void *col_enqueue_task_fn(col_task_fn *task, void *task_ctx, void *user_ctx);
typedef void col_finish_task_fn(void *user_task, void *user_ctx);

/* Where the world's own pool threads run. Worker 0 is always the thread calling
 * col_world_update and is never bound; workers 1..N-1 are Colibri's threads. */
typedef enum col_thread_pinning {
    COL_PIN_CORES = 0, /* worker k bound to physical core k mod cores, cores in
                          hwloc's logical order (cores sharing a cache are adjacent);
                          for a machine given to the app: bind the calling thread to
                          core 0 as well, or the OS may put it beside a bound thread */
    COL_PIN_NONE,      /* default: threads are left to the OS scheduler, which can move
                          them off a core that another process keeps busy (measured in
                          docs/threads.md, "A busy core") */
    COL_PIN_CPUS       /* worker k bound to OS processor pin_cpus[k mod pin_cpu_count] */
} col_thread_pinning;

/* Which broad-phase pairs col_world_update hands to the narrow phase. */
typedef enum col_schedule {
    COL_SCHEDULE_TTC = 0, /* default: a pair found separated by a certified gap sleeps for as
                             many frames as its bodies' motion bounds cannot close the gap in
                             (time-to-collision queue, docs/schedule.md); results are exactly
                             those of COL_SCHEDULE_EVERY */
    COL_SCHEDULE_EVERY    /* every pair whose bodies moved is tested at every update */
} col_schedule;

/* World definition. The frame's parallel steps run on worker_count workers, either the
 * world's own thread pool (created with the world, joined when it is destroyed) or the
 * app's task system (enqueue_task and finish_task both set). Results are identical for
 * every worker count. */
/* The time-critical mode for pairs of two meshes (docs/adb.md; Klein & Zachmann,
 * "ADB-Trees", VMV 2003): the exact traversal estimates, for each node pair it splits,
 * the probability that the two nodes' triangles meet, and the pair is reported colliding
 * once k_min node pairs reach the probability p_min, or when a budget runs out, without
 * proof: an ESTIMATE, which can be wrong (docs/adb.md measures how often). A triangle
 * pair found meeting, or a traversal that runs to its end, gives the exact answer as
 * usual (an exact "apart" with its certified gap, so the pair may sleep). Off by default:
 * then nothing changes. Each mesh shape gets 1 byte a node of extra data
 * (col_shape_info.adb_bytes). Fill with col_default_time_critical_def(). Estimated
 * answers have no gap: those pairs are tested again every update. */
typedef struct col_time_critical_def {
    bool enabled;          /* default false: every answer exact */
    double p_min;          /* in (0, 1]; default 0.99 */
    int k_min;             /* >= 1; default 10 */
    double frame_budget;   /* seconds of the monotonic clock per col_world_update for all
                              its time-critical pairs (a pair started after it ran out
                              stops after its first node pair); 0: none (default). With a
                              budget the answers depend on timing; without one they are
                              deterministic */
    int max_node_pairs;    /* node pairs split per pair query before it gives up with an
                              estimate; 0: no limit (default) */
    int internal_cookie;   /* set by col_default_time_critical_def(); do not touch */
} col_time_critical_def;

/* What the time-critical mode said about one mesh pair. */
typedef struct col_pair_estimate {
    bool tested;           /* col_pair_get_estimate: the pair was tested in the time-critical
                              mode at the last update (a mesh-mesh pair whose boxes met) */
    bool colliding;
    bool exact;            /* proven (a triangle pair met, or every node pair was decided) */
    double probability;    /* exact: 1 or 0; else the largest node-pair probability seen */
    int node_pairs;        /* node pairs visited (col_body_collide_time_critical; 0 from
                              col_pair_get_estimate, which keeps no count per pair) */
} col_pair_estimate;

typedef struct col_world_def {
    col_allocator allocator;      /* zero: malloc/free */
    col_backend backend;          /* narrow phase used by col_world_update */
    col_schedule schedule;        /* which pairs an update tests (default COL_SCHEDULE_TTC) */
    int worker_count;             /* 0: one per physical core (hwloc; else online CPUs);
                                     1: no threads at all; at most COL_MAX_WORKERS */
    col_thread_pinning pinning;   /* the pool threads' binding (unused with enqueue_task) */
    const int *pin_cpus;          /* COL_PIN_CPUS: OS processor numbers, read only by
                                     col_world_create; worker_count 0 means one per entry */
    int pin_cpu_count;
    col_enqueue_task_fn *enqueue_task; /* NULL: the world's own pool */
    col_finish_task_fn *finish_task;   /* set exactly when enqueue_task is */
    void *user_task_ctx;          /* passed to both callbacks as user_ctx */
    uint32_t body_capacity;       /* expected bodies, to size arrays up front (a hint) */
    double quaternion_tolerance;  /* accepted | |q| - 1 |; within it q is renormalised */
    double broadphase_margin;     /* the broad phase keeps, per body, the cube that holds its
                                     shape in any orientation, its half side widened by this
                                     fraction, and moves it only when the body's box leaves
                                     it: larger moves it less often but pairs more bodies.
                                     In [0, 10]; default 0 */
    bool report_interframe;       /* also report the pairs that touched BETWEEN
                                     updates (col_pair_events.interframe); default false */
    col_time_critical_def time_critical; /* estimated mesh-mesh answers (above); default off */
    int internal_cookie;          /* set by col_default_world_def(); do not touch */
} col_world_def;

/* A body's top speeds left to the world (col_body_def.max_linear_speed and
 * max_angular_speed, col_body_set_max_speeds): it derives a per-frame bound from the
 * pose changes instead (docs/schedule.md). */
#define COL_SPEED_UNDECLARED (-1.0)

/* Body definition. A body references one shape (shared with any number of bodies) at
 * a pose. Static bodies are never paired with other static bodies. Two bodies are tested
 * only if (a.filter_group & b.filter_mask) && (b.filter_group & a.filter_mask).
 * Declared top speeds (both >= 0, or both COL_SPEED_UNDECLARED) are a promise about the
 * motion from one update to the next that lets COL_SCHEDULE_TTC put pairs to sleep from
 * the first frame on; results never depend on them (a body that breaks its promise, e.g.
 * a teleport, is re-tested against every sleeping partner in that update). */
typedef struct col_body_def {
    col_shape_id shape;
    col_transform pose;      /* position (length units) and unit quaternion (x, y, z, w:
                                vecmath.h; col_transform_from_floats for OpenXR) */
    void *user_data;         /* returned by col_body_get_user_data, never dereferenced */
    uint32_t filter_group;   /* the groups this body belongs to (bits); default 1 */
    uint32_t filter_mask;    /* the groups it may collide with; default all bits */
    bool is_static;          /* default false */
    double max_linear_speed; /* most the body's origin moves per update (length units per
                                update); default COL_SPEED_UNDECLARED */
    double max_angular_speed; /* most the body turns per update (radians per update);
                                 default COL_SPEED_UNDECLARED */
    bool continuous;         /* continuous collision (docs/ccd.md): every update also reports
                                each pair of this body that touched at SOME instant of the
                                motion from the previous update's poses to this one's
                                (col_pair_events.continuous), so a fast body cannot pass
                                through another unseen; default false (no cost) */
    int internal_cookie;     /* set by col_default_body_def(); do not touch */
} col_body_def;

/* A pair of bodies, a.index1 < b.index1, with the user_data of each body's def
 * (col_body_def.user_data) as it was when the update reported the pair: an ended pair
 * whose body was removed still carries it, though its id is stale by then. */
typedef struct col_pair {
    col_body_id a, b;
    void *user_data_a, *user_data_b;
} col_pair;

/* A pair that touched at some instant between two updates (col_pair_events.continuous).
 * The motion between the updates is the model of query.h's time of impact: each body's
 * position linear from its pose at the previous update to its pose at this one, its
 * orientation slerp along the shorter arc (docs/ccd.md). */
typedef struct col_continuous_pair {
    col_pair pair;         /* a.index1 < b.index1, with the user data, as in pairs */
    double s;              /* in [0, 1]: the first instant of contact (0: the previous update,
                              1: this one), never later than it and at most 1e-6 earlier
                              (col_toi_output.s) */
    col_vec3 normal;       /* unit, from a toward b at s */
    col_vec3 point_a, point_b; /* world closest points at s */
    bool swept_box_only;   /* always false: pairs with a mesh get C2A's time of impact like
                              any other (docs/ccd.md "C2A"); kept for source compatibility */
} col_continuous_pair;

/* What the last col_world_update found. The arrays belong to the world and stay valid
 * until the next col_world_update or col_world_destroy.
 * pairs: every colliding pair, sorted by (a.index1, b.index1);
 * began: pairs colliding now that were not at the previous update (same order);
 * ended: pairs colliding at the previous update that are not now, including pairs whose
 *        body was removed or whose pair was disabled in between (their ids may be stale;
 *        the records still carry both bodies' user data);
 * interframe: with col_world_def.report_interframe, every pair whose bodies touched at
 *        some instant from the previous update to this one, both included (so every
 *        pair of `pairs` is in it, and of the previous update's unless a body was
 *        removed), decided as col_query_interframe decides; same order and filters as
 *        pairs. NULL and 0 without the option.
 * continuous: every pair with at least one continuous body (col_body_def.continuous)
 *        that shared a point at some instant from the previous update to this one, both
 *        included (so each such pair of `pairs` is in it, and each of the previous
 *        update's, unless a body was removed), with the first instant and the contact;
 *        same order and filters as pairs. NULL and 0 while no body is continuous. */
typedef struct col_pair_events {
    const col_pair *pairs;
    int pair_count;
    const col_pair *began;
    int began_count;
    const col_pair *ended;
    int ended_count;
    const col_pair *interframe;
    int interframe_count;
    const col_continuous_pair *continuous;
    int continuous_count;
} col_pair_events;

/* What col_query_interframe found about two bodies moving from their poses at the
 * update before the last to their poses at the last update. The motion in between is
 * taken to be, for each body, its position linear and its orientation slerped on the
 * shorter arc (a rotation about a fixed axis at a constant rate through the smaller
 * angle, <= pi): the motion model of the time of impact (docs/ccd.md), what a world that
 * sees two poses can assume. */
typedef struct col_interframe_result {
    bool may_have_touched; /* false: under that motion they never touched (a proof);
                              true: they touched (or came within the time of impact's
                              distance tolerance of touching: docs/ccd.md), unless exact
                              is false */
    bool exact;            /* the answer is certified; false only when the time of impact
                              reached its iteration cap (may_have_touched is then true
                              without a proof) */
    double inflation;      /* always 0: nothing is widened (an earlier swept-hull test
                              widened its volume to cover rotation); kept for source
                              compatibility */
} col_interframe_result;

/* Counters of the last col_world_update (alloc_* cover the update call alone). */
typedef struct col_counters {
    int bodies;              /* live bodies */
    int static_bodies;       /* of which static */
    int shapes;              /* live shapes */
    int broadphase_pairs;    /* pairs whose bounding boxes overlap (never static-static) */
    int narrow_calls;        /* narrow-phase queries run in the update */
    int colliding_pairs;     /* pairs reported as colliding */
    int began;               /* began events */
    int ended;               /* ended events */
    int alloc_calls;         /* allocator calls (alloc + free) made during the update */
    int workers;             /* workers the world runs its parallel steps on */
    int sleeping_pairs;      /* of the broadphase_pairs, those asleep after the update
                                (COL_SCHEDULE_TTC); a sleeping pair whose boxes parted is
                                not counted until they overlap again */
    int woken_early;         /* sleeping pairs re-tested before their frame because a body
                                moved farther than its motion bound allowed */
    uint64_t alloc_calls_total; /* allocator calls over the world's life */
    uint64_t bytes_in_use;   /* bytes currently allocated through the world's allocator */
    int worker_stalls;       /* over the world's life: times the calling thread found one of
                                the world's pool threads descheduled in the middle of its
                                share of a step and had to wait for it (its core was busy
                                elsewhere); the pool then leaves such steps to the calling
                                thread for a while (docs/threads.md, "A busy core") */
} col_counters;


#ifdef __cplusplus
}
#endif
#endif
