/* SPDX-License-Identifier: MIT */
/* Benchmark scenes (the format and motion of docs/scenes.md): loading a scene file
 * and computing any body's pose at any frame in closed form.
 *
 * The important parts:
 *   bench_scene_load   parses a "colibri-scene 1" or "colibri-scene 2" text file: hulls, and in
 *                      version 2 spheres, capsules and triangle meshes too; on a bad line it
 *                      says which line and why, and leaves nothing allocated.
 *   bench_scene_pose   the formulas of docs/scenes.md, written as there (fmod triangle wave, Hamilton
 *                      product dq * q0, normalize), returned as a Colibri transform.
 *   bench_scene_free   releases what the loader allocated.
 * Limits: counts (shapes, vertices and triangles per shape, bodies, frames) up to INT_MAX; every number
 * must be finite; the room side must be positive and every shape must fit in it
 * (2 * radius < L), as docs/scenes.md requires; a sphere's or capsule's R > 0 and a
 * capsule's H >= 0 (a capsule with H = 0 is read as the sphere it is, since Colibri's
 * capsules need a positive half height); sphere, capsule and mesh records only in version 2; a
 * mesh has NV >= 1 vertices and NT >= 1 triangles, each three indices in 0 .. NV-1 (degenerate
 * triangles are kept as written). Beyond that, so that any text gives either
 * a scene or a message, never a crash: memory grows with the records actually read
 * (never from a declared count alone; a file shorter than its counts is reported as
 * such); 2 L must be finite, a body's q0 must have a normal squared length, and its
 * motion must stay finite up to the last frame (|p0| + |v| F + L and |w| F); a line
 * must hold no NUL byte. */
#ifndef COLIBRI_BENCH_SCENE_H
#define COLIBRI_BENCH_SCENE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "colibri/vecmath.h"

/* What a scene shape is (docs/scenes.md, "The file"). */
typedef enum bench_shape_kind {
    BENCH_SHAPE_HULL,    /* "shape NV": the convex hull of the points */
    BENCH_SHAPE_SPHERE,  /* "sphere R", and "capsule 0 R" */
    BENCH_SHAPE_CAPSULE, /* "capsule H R" with H > 0 */
    BENCH_SHAPE_MESH     /* "mesh NV NT": the union of its closed triangles (a surface) */
} bench_shape_kind;


typedef struct bench_shape {
    bench_shape_kind kind;
    int vertex_count;    /* hull and mesh: the points, as read; 0 for a sphere or a capsule */
    col_vec3 *vertices;  /* hull and mesh: local frame, as read; NULL for a sphere or a capsule */
    int triangle_count;  /* mesh: NT >= 1; 0 otherwise */
    uint32_t *indices;   /* mesh: 3 NT vertex indices, triangle k is indices[3k .. 3k+3), as read
                          * (col_mesh_def's layout); NULL otherwise */
    double half_height;  /* capsule: H > 0, the core segment is (0,0,-H)..(0,0,+H); 0 otherwise */
    double core_radius;  /* sphere and capsule: R > 0; 0 for a hull */
    double radius;       /* the shape's radius for the motion and the room (docs/scenes.md): a hull's
                          * or a mesh's max sqrt(x*x + y*y + z*z) over its points, a sphere's R, a
                          * capsule's H + R */
} bench_shape;

typedef struct bench_body {
    int shape;      /* index into bench_scene.shapes */
    double p0[3];   /* position at frame 0 */
    double q0[4];   /* orientation at frame 0, scene order: w, x, y, z (not normalized) */
    double v[3];    /* linear velocity, length per frame */
    double w[3];    /* world angular velocity, radians per frame */
} bench_body;

typedef struct bench_scene {
    double room;    /* the room is the cube [0, room]^3 */
    int frames;
    int shape_count;
    bench_shape *shapes;
    int body_count;
    bench_body *bodies;
} bench_scene;

/* Reads a scene from fp (path only names it in messages). On failure returns false, writes
 * a one-line reason "path:LINE: what" into err (err_size bytes) and leaves *scene empty. */
bool bench_scene_load(FILE *fp, const char *path, bench_scene *scene, char *err,
                      size_t err_size);

/* Whether every shape of the scene is a hull. If not, writes "path: shape S is a KIND: WHO
 * reads convex hulls only" into err (for the tools that work on hulls alone) and returns
 * false. */
bool bench_scene_hulls_only(const bench_scene *scene, const char *path, const char *who, char *err,
                            size_t err_size);

/* "hull", "sphere", "capsule" or "mesh". */
const char *bench_shape_kind_name(bench_shape_kind kind);

/* Frees every array of the scene and zeroes it. Safe on a zeroed or freed scene. */
void bench_scene_free(bench_scene *scene);

/* Pose of body b at frame f by docs/scenes.md's closed-form motion (never integrated, so every
 * engine sees the same doubles). The quaternion is unit, in Colibri's {x, y, z, w} order. */
col_transform bench_scene_pose(const bench_scene *scene, int b, int f);
/* The same motion at a real time t in frames (sub-steps between frames); equal to
 * bench_scene_pose bit for bit at integer t. */
col_transform bench_scene_pose_at(const bench_scene *scene, int b, double t);

#endif
