/* SPDX-License-Identifier: MIT */
/* Procedural triangle meshes for the benchmark scenes (docs/scenes.md, "Meshes"): the kinds
 * colibri-scene-gen writes as version-2 `mesh NV NT` records. Each is built in its own
 * frame at about unit size and then fitted (scene_mesh_fit) to the radius asked for. Every
 * random number comes from bench/scene_rand.h's sequence, so a seed gives the same mesh on
 * every machine.
 *
 *   torus knot  a closed tube about a (p, q) torus-knot centre line (closed, not convex,
 *               long thin parts that interlock when two meet);
 *   bumpy       a closed latitude-longitude sphere whose radius varies with a sum of smooth
 *               bumps and a little per-vertex noise;
 *   patch       an open heightfield square with bumps (a surface with a boundary);
 *   soup        unconnected random triangles in a ball, a few of them degenerate on purpose:
 *               segments (a repeated index), points (one index thrice) and three distinct
 *               collinear points;
 *   floor       a large heightfield bowl (a bumpy floor rising into walls), for a static body.
 * The triangle counts are approximate: each kind rounds to its own grid. */
#ifndef COLIBRI_BENCH_SCENE_MESH_H
#define COLIBRI_BENCH_SCENE_MESH_H

#include <stdbool.h>
#include <stdint.h>

#include "colibri/vecmath.h"

typedef enum scene_mesh_kind {
    SCENE_MESH_TORUSKNOT,
    SCENE_MESH_BUMPY,
    SCENE_MESH_PATCH,
    SCENE_MESH_SOUP,
    SCENE_MESH_KIND_COUNT
} scene_mesh_kind;

/* "torusknot", "bumpy", "patch", "soup". */
extern const char *const scene_mesh_kind_name[SCENE_MESH_KIND_COUNT];

/* A mesh being built: growable arrays, owned (scene_mesh_free). */
typedef struct scene_mesh {
    col_vec3 *v;
    int nv, cap_v;
    uint32_t *t;        /* 3 nt indices */
    int nt, cap_t;
    double radius;      /* after scene_mesh_fit: the largest sqrt(x*x + y*y + z*z) of a vertex */
    int degenerate;     /* soup: how many triangles were made degenerate on purpose */
    const char *what;   /* the kind's name, for the scene's comment line */
} scene_mesh;

/* Each builder appends to an empty mesh and returns false only when out of memory.
 * `tris` is the triangle count asked for (>= 1). */
bool scene_mesh_torusknot(scene_mesh *m, int tris, int variant, double tube);
bool scene_mesh_bumpy(scene_mesh *m, int tris);
bool scene_mesh_patch(scene_mesh *m, int tris);
bool scene_mesh_soup(scene_mesh *m, int tris);
bool scene_mesh_floor(scene_mesh *m, int tris);

/* Centres the mesh on its bounding box and scales it so that its farthest vertex is at
 * about `radius` (> 0); then sets m->radius as a scene reader computes it. */
void scene_mesh_fit(scene_mesh *m, double radius);

/* A copy of v (nv >= 1 vertices, malloc'd: the caller frees it) centred on its bounding box and
 * scaled so that its farthest vertex is at distance 1; NULL when out of memory. */
col_vec3 *scene_vertices_unit(const col_vec3 *v, int nv);

void scene_mesh_free(scene_mesh *m);

#endif
