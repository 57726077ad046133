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
    COL_BACKEND_DEFAULT = 0, /* the recommended backend (currently COL_BACKEND_REFERENCE) */
    COL_BACKEND_REFERENCE,   /* separating-axis test over face normals and Minkowski edge
                                pairs with full projections: slow, simple, the yardstick */
    COL_BACKEND_COUNT
} col_backend;

/* World definition. worker_count is accepted and validated for the coming thread pool;
 * until then every frame runs on the calling thread whatever its value. */
typedef struct col_world_def {
    col_allocator allocator;      /* zero: malloc/free */
    col_backend backend;          /* narrow phase used by col_world_update */
    int worker_count;             /* 0: one per physical core (when the pool lands); >= 0 */
    uint32_t body_capacity;       /* expected bodies, to size arrays up front (a hint) */
    double quaternion_tolerance;  /* accepted | |q| - 1 |; within it q is renormalised */
    int internal_cookie;          /* set by col_default_world_def(); do not touch */
} col_world_def;

/* Body definition. A body references one shape (shared with any number of bodies) at
 * a pose. Static bodies are never paired with other static bodies. Two bodies are tested
 * only if (a.filter_group & b.filter_mask) && (b.filter_group & a.filter_mask). */
typedef struct col_body_def {
    col_shape_id shape;
    col_transform pose;      /* position (length units) and unit quaternion */
    void *user_data;         /* returned by col_body_get_user_data, never dereferenced */
    uint32_t filter_group;   /* the groups this body belongs to (bits); default 1 */
    uint32_t filter_mask;    /* the groups it may collide with; default all bits */
    bool is_static;          /* default false */
    int internal_cookie;     /* set by col_default_body_def(); do not touch */
} col_body_def;

/* A pair of bodies, a.index1 < b.index1. */
typedef struct col_pair {
    col_body_id a, b;
} col_pair;

/* What the last col_world_update found. The arrays belong to the world and stay valid
 * until the next col_world_update or col_world_destroy.
 * pairs: every colliding pair, sorted by (a.index1, b.index1);
 * began: pairs colliding now that were not at the previous update (same order);
 * ended: pairs colliding at the previous update that are not now, including pairs whose
 *        body was removed or whose pair was disabled in between (their ids may be stale). */
typedef struct col_pair_events {
    const col_pair *pairs;
    int pair_count;
    const col_pair *began;
    int began_count;
    const col_pair *ended;
    int ended_count;
} col_pair_events;

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
    uint64_t alloc_calls_total; /* allocator calls over the world's life */
    uint64_t bytes_in_use;   /* bytes currently allocated through the world's allocator */
} col_counters;

/* Facts about a convex shape (its hull), in the shape's local frame. */
typedef struct col_shape_info {
    int vertex_count;        /* hull vertices (interior and duplicate input points dropped) */
    int face_count;          /* hull faces (coplanar triangles merged into polygons) */
    int edge_count;
    col_vec3 centroid;       /* volume centroid */
    double volume;
    double radius;           /* largest distance of a hull vertex from the local origin */
    col_vec3 aabb_min, aabb_max;
    int body_count;          /* bodies currently using the shape */
} col_shape_info;

#ifdef __cplusplus
}
#endif
#endif
