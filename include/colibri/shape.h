/* SPDX-License-Identifier: MIT */
/* Shapes without a world (like Box2D's b2Polygon, b2Capsule; Jolt's Shape objects): a
 * col_geometry is built from an allocator, queried on its own (query.h: col_geometry_*)
 * and turned into world shapes (col_shape_create in colibri.h copies it), so the world
 * and the world-free queries share one geometry.
 *
 * Kinds: a convex hull of points, a sphere (the ball of radius r about the local
 * origin), a capsule (the points within r of the segment (0,0,-h)..(0,0,+h)), a box
 * (a hull of 8 points), and a compound (several of those at local poses). Every solid
 * piece is a core plus a radius: the points within radius of the convex hull of its
 * core points (hull: its vertices, radius 0; sphere: one point; capsule: two). Its world
 * core points are computed like hull vertices, R(q) c + p in double (docs/scenes.md),
 * and two pieces collide when they share a point, touching included, decided exactly
 * (docs/rounded.md). A compound's children are copied into the compound's frame when it
 * is made (their points transformed by their poses once, in double): the compound is
 * then the union of those pieces.
 *
 * A geometry is immutable after creation; any number of threads may read and query it
 * at once. Stands alone: includes only other public headers. */
#ifndef COLIBRI_SHAPE_H
#define COLIBRI_SHAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "colibri/base.h"
#include "colibri/vecmath.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum col_shape_kind {
    COL_SHAPE_HULL = 0, /* convex hull of points (boxes are hulls) */
    COL_SHAPE_SPHERE,
    COL_SHAPE_CAPSULE,
    COL_SHAPE_COMPOUND,
    COL_SHAPE_MESH      /* triangle soup: the union of its closed triangles (no inside) */
} col_shape_kind;

typedef struct col_geometry col_geometry;

/* A message for the world-free calls (the world's calls use col_world_last_error). */
typedef struct col_error {
    char message[256];
} col_error;

/* Builds the convex hull of count points (local frame, length units); interior and
 * duplicate points are dropped, the points are copied. *out receives the new geometry
 * (NULL on error), owned by the caller (col_geometry_destroy). allocator and error may
 * be NULL (malloc/free; no message); an allocator sets both hooks or neither (neither:
 * malloc/free). The same holds for every call below that makes a geometry. Errors:
 * INVALID_ARGUMENT (also: an allocator with one hook), NOT_FINITE,
 * TOO_FEW_POINTS, DEGENERATE_SHAPE (zero volume), HULL_FAILED, OUT_OF_MEMORY. */
COL_API col_status col_geometry_create_hull(const col_allocator *allocator, const col_vec3 *points, int count,
                                            col_geometry **out, col_error *error);

/* The box [-h.x, h.x] x [-h.y, h.y] x [-h.z, h.z] as a hull of its 8 corners. Errors: as
 * col_geometry_create_hull, and INVALID_ARGUMENT for a half extent that is not a finite
 * number > 0. */
COL_API col_status col_geometry_create_box(const col_allocator *allocator, col_vec3 half_extents,
                                           col_geometry **out, col_error *error);

/* The ball of the given radius (length units, finite and > 0) about the local origin.
 * Errors: INVALID_ARGUMENT (radius), NOT_FINITE (beyond COL_MAX_COORD), OUT_OF_MEMORY. */
COL_API col_status col_geometry_create_sphere(const col_allocator *allocator, double radius, col_geometry **out,
                                              col_error *error);

/* The points within radius of the segment (0,0,-half_height)..(0,0,+half_height): both
 * finite and > 0 (a zero half height is a sphere: use col_geometry_create_sphere).
 * Errors: as col_geometry_create_sphere. */
COL_API col_status col_geometry_create_capsule(const col_allocator *allocator, double half_height, double radius,
                                               col_geometry **out, col_error *error);

/* One child of a compound: a geometry at a pose in the compound's frame. */
typedef struct col_geometry_child {
    const col_geometry *geometry; /* read only by the call (its pieces are copied) */
    col_transform pose;           /* unit quaternion (within 1e-6: renormalised) */
} col_geometry_child;

/* A compound of count >= 1 children (at most COL_MAX_COMPOUND_PIECES pieces in all; a
 * compound child adds its own pieces). The children are copied and may be destroyed
 * afterwards. Errors: INVALID_ARGUMENT (NULL, count < 1, a NULL child, too many pieces),
 * NOT_FINITE (also: a piece the pose puts beyond COL_MAX_COORD), BAD_QUATERNION, DEGENERATE_SHAPE (a child hull flattened by its pose),
 * OUT_OF_MEMORY. */
#define COL_MAX_COMPOUND_PIECES 4096
COL_API col_status col_geometry_create_compound(const col_allocator *allocator, const col_geometry_child *children,
                                                int count, col_geometry **out, col_error *error);

/* A triangle mesh (docs/meshes.md): the union of its closed triangles, a surface with no
 * inside; no connectivity, orientation or closedness assumed; a degenerate triangle is the
 * segment or point it spans. A convex shape wholly inside a closed mesh does not collide
 * with it (as in FCL and Bullet). Fill with col_default_mesh_def(). */
typedef struct col_mesh_def {
    const col_vec3 *vertices;  /* [vertex_count], local frame, length units; copied */
    int vertex_count;          /* >= 1 */
    const uint32_t *indices;   /* [3 * triangle_count] vertex numbers, triangle k is
                                  indices[3k .. 3k+3); copied */
    int triangle_count;        /* 1 .. COL_MAX_MESH_TRIANGLES */
    int internal_cookie;       /* set by col_default_mesh_def; leave it */
} col_mesh_def;

#define COL_MAX_MESH_TRIANGLES (1 << 28)

COL_API col_mesh_def col_default_mesh_def(void);

/* Builds a mesh shape with its bounding-volume hierarchy (build times: docs/meshes.md).
 * Errors: INVALID_ARGUMENT (NULL arrays, a count out of range, an index >= vertex_count;
 * the message names the first), DEF_UNINITIALIZED (a def not from col_default_mesh_def),
 * NOT_FINITE (a vertex coordinate NaN, infinite or beyond COL_MAX_COORD), OUT_OF_MEMORY. */
COL_API col_status col_geometry_create_mesh(const col_allocator *allocator, const col_mesh_def *def,
                                            col_geometry **out, col_error *error);

/* A deep copy with the given allocator (NULL: malloc/free). Errors: INVALID_ARGUMENT,
 * OUT_OF_MEMORY. */
COL_API col_status col_geometry_clone(const col_allocator *allocator, const col_geometry *geometry,
                                      col_geometry **out, col_error *error);

/* Frees a geometry (NULL is ignored). World shapes made from it are copies: unaffected. */
COL_API void col_geometry_destroy(col_geometry *geometry);

/* Facts about a shape, in its local frame (col_geometry_get_info, col_shape_get_info). */
typedef struct col_shape_info {
    col_shape_kind kind;
    int vertex_count;        /* HULL: hull vertices (interior and duplicate points dropped);
                                else 0 */
    int face_count;          /* HULL: faces (coplanar triangles merged into polygons); else 0 */
    int edge_count;          /* HULL: edges; else 0 */
    int child_count;         /* COMPOUND: pieces (nested compounds flattened); else 1 */
    double sphere_radius;    /* SPHERE, CAPSULE: the radius; else 0 */
    double half_height;      /* CAPSULE: the half length of the core segment; else 0 */
    col_vec3 centroid;       /* volume centroid (COMPOUND: of the pieces, overlaps counted
                                twice) */
    double volume;           /* likewise */
    double radius;           /* largest distance of a point of the shape from the local
                                origin (the rotation centre) */
    col_vec3 aabb_min, aabb_max; /* local box holding the whole shape */
    int body_count;          /* world shapes: bodies using it; 0 for a col_geometry */
    int triangle_count;      /* MESH: triangles (vertex_count: its vertices); else 0 */
    size_t memory_bytes;     /* bytes the geometry holds (MESH: vertices, triangles and
                                hierarchy; divide by triangle_count for the per-triangle cost) */
    size_t adb_bytes;        /* world MESH shapes with ADB data (the time-critical mode,
                                docs/adb.md): its bytes, 1 a hierarchy node; else 0 */
} col_shape_info;

/* Errors: INVALID_ARGUMENT (NULL). */
COL_API col_status col_geometry_get_info(const col_geometry *geometry, col_shape_info *out);

/* A hull's arrays, read only, owned by the geometry (valid while it lives). */
typedef struct col_hull_view {
    int vertex_count;
    const col_vec3 *vertices;  /* local frame (a compound piece's: the compound's frame) */
    int face_count;
    const int *face_first;     /* [face_count + 1]: face f is face_vertices[face_first[f] ..
                                  face_first[f+1]), counter-clockwise seen from outside */
    const int *face_vertices;
    int edge_count;
    const int *edge_vertices;  /* [2 * edge_count]: the two vertices of each edge */
} col_hull_view;

/* One piece of a shape (index 0 for a single shape; 0 .. child_count - 1 for a compound),
 * in the shape's local frame. */
typedef struct col_piece_info {
    col_shape_kind kind;   /* HULL, SPHERE or CAPSULE */
    col_transform pose;    /* the pose the piece was given in its compound (identity for a
                              single shape; composed for a nested compound's pieces) */
    col_vec3 core[2];      /* SPHERE: core[0] its centre; CAPSULE: the segment's ends (in the
                              shape's frame: the pose applied) */
    double sphere_radius;  /* SPHERE, CAPSULE */
    double half_height;    /* CAPSULE */
    col_hull_view hull;    /* HULL: its arrays (in the shape's frame); zero otherwise */
} col_piece_info;

/* A mesh's arrays, read only, owned by the geometry (valid while it lives). The
 * vertices are as given; the triangles are stored in the hierarchy's order: stored
 * triangle k is indices[3k .. 3k+3) and was triangle source[k] of the def (the number
 * queries report). */
typedef struct col_mesh_view {
    int vertex_count;
    const col_vec3 *vertices;
    int triangle_count;
    const uint32_t *indices;
    const uint32_t *source;
} col_mesh_view;

/* Errors: INVALID_ARGUMENT (NULL, not a MESH). */
COL_API col_status col_geometry_get_mesh(const col_geometry *geometry, col_mesh_view *out);

/* Errors: INVALID_ARGUMENT (NULL, index out of range; a MESH has no pieces). */
COL_API col_status col_geometry_get_piece(const col_geometry *geometry, int index, col_piece_info *out);

#ifdef __cplusplus
}
#endif
#endif
