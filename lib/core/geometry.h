/* SPDX-License-Identifier: MIT */
/* The shape model behind include/colibri/shape.h: a geometry is one convex piece or a
 * compound of pieces, each a core plus a radius (a hull: its vertices and radius 0; a
 * sphere: one point; a capsule: two), all in the geometry's own frame. Built once,
 * read-only afterwards, shared by the world's shapes (lib/shape.c holds a copy per
 * shape) and the world-free queries.
 *
 * The important parts:
 * - col_piece: the core points (hull vertices, or ends[]), the radius, the local box and
 *   the bounding radius about the geometry's origin;
 * - a compound's pieces are its children's pieces with the child poses applied to their
 *   points once, in double (nested compounds flattened), so the truth of docs/scenes.md
 *   ("world core points are R(q) c + p") holds for every piece of every kind;
 * - per piece, an opaque slot per narrow-phase backend for its per-shape data
 *   (narrowphase/backend.h), filled and freed by lib/ (this floor cannot call a backend:
 *   it frees them with their recorded sizes). */
#ifndef COLIBRI_LIB_CORE_GEOMETRY_H
#define COLIBRI_LIB_CORE_GEOMETRY_H

#include <stdbool.h>
#include <stddef.h>

#include "colibri/shape.h"
#include "colibri/types.h"
#include "lib/core/alloc.h"
#include "lib/core/hull.h"
#include "lib/core/mesh.h"
#include "lib/core/vec.h"

/* Backend data slots per piece: at least COL_BACKEND_COUNT. */
#define COL_GEOM_NP_SLOTS 8

typedef struct col_piece {
    col_shape_kind kind;       /* HULL, SPHERE or CAPSULE */
    col_hull hull;             /* HULL */
    col_vec3 ends[2];          /* SPHERE: ends[0] the centre; CAPSULE: the core segment */
    double radius;             /* SPHERE, CAPSULE: > 0; HULL: 0 */
    double half_height;        /* CAPSULE, as made */
    col_transform pose;        /* the pose given in the compound (identity otherwise) */
    col_vec3 box_min, box_max; /* the piece's box in the geometry's frame, radius included */
    double bound_radius;       /* largest |x| over the piece's points x */
    void *np_data[COL_GEOM_NP_SLOTS];
    size_t np_bytes[COL_GEOM_NP_SLOTS];
} col_piece;

/* A MESH geometry has no pieces (piece_count 0, pieces NULL): its triangles and their
 * hierarchy are in mesh (lib/core/mesh.h); volume 0 (a surface), centroid the middle of
 * its box. */
struct col_geometry {
    col_alloc *alloc;          /* where it lives: &own for a world-free geometry (lib/geometry.c
                                  moves the builder's allocator there), the world's for a shape */
    col_alloc own;
    col_shape_kind kind;
    int piece_count;           /* 1, or the compound's pieces */
    col_piece *pieces;
    col_vec3 box_min, box_max; /* union of the pieces' boxes */
    double radius;             /* largest bound_radius */
    double volume;
    col_vec3 centroid;
    col_mesh mesh;             /* MESH only */
    double mesh_ball;          /* MESH only: every vertex lies within this of centroid (rounded up) */
};

/* The core points of a piece (hull vertices, or its ends) and their count. */
static inline const col_vec3 *col_piece_points(const col_piece *p, int *count)
{
    *count = p->kind == COL_SHAPE_HULL ? p->hull.vertex_count : p->kind == COL_SHAPE_SPHERE ? 1 : 2;
    return p->kind == COL_SHAPE_HULL ? p->hull.vertices : p->ends;
}

/* True for a triangle mesh. */
static inline bool col_geometry_is_mesh(const col_geometry *g)
{
    return g->kind == COL_SHAPE_MESH;
}

/* True for one hull piece (the backends' case). */
static inline bool col_geometry_is_hull(const col_geometry *g)
{
    return g->kind == COL_SHAPE_HULL;
}

/* Builders. Each writes a sentence to err on failure (errlen may be 0) and leaves *out
 * NULL; the geometry and its arrays come from alloc, which it keeps a pointer to (it
 * must outlive the geometry). The pieces' backend slots are empty. */
col_status col_geom_hull(col_alloc *alloc, const col_vec3 *points, int count, col_geometry **out,
                         char *err, size_t errlen);
/* The box [-h, h] as the hull of its corners; INVALID_ARGUMENT unless each h is finite > 0. */
col_status col_geom_box(col_alloc *alloc, col_vec3 h, col_geometry **out, char *err, size_t errlen);
col_status col_geom_sphere(col_alloc *alloc, double radius, col_geometry **out, char *err, size_t errlen);
col_status col_geom_capsule(col_alloc *alloc, double half_height, double radius, col_geometry **out,
                            char *err, size_t errlen);
/* children[i] at poses[i] (quaternions already checked and normalised by the caller). */
col_status col_geom_compound(col_alloc *alloc, const col_geometry *const *children,
                             const col_transform *poses, int count, col_geometry **out, char *err, size_t errlen);
/* The mesh of nv vertices and nt index triples (copied; lib/core/mesh.h says what is
 * refused and how). */
col_status col_geom_mesh(col_alloc *alloc, const col_vec3 *vertices, int nv, const uint32_t *indices, int nt,
                         col_geometry **out, char *err, size_t errlen);
/* A deep copy without the backend data. */
col_status col_geom_clone(col_alloc *alloc, const col_geometry *g, col_geometry **out);
/* Frees the pieces' hulls, backend data (np_bytes each) and the geometry. NULL ignored. */
void col_geom_free(col_geometry *g);

/* The box of a piece at a pose, rounded outward like col_hull_box_at: every world core
 * point R c + p as col_xform_point computes it, widened by the radius, lies inside. */
void col_piece_box_at(const col_piece *p, const col_xform *xf, col_vec3 *min, col_vec3 *max);
/* The union of the pieces' boxes at a pose. */
void col_geometry_box_at(const col_geometry *g, const col_xform *xf, col_vec3 *min, col_vec3 *max);

/* A 64-bit FNV-1a of the geometry's defining numbers (kinds, points, radii), from h. */
uint64_t col_geometry_hash(const col_geometry *g, uint64_t h);

#endif
