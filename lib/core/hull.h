/* SPDX-License-Identifier: MIT */
/* Convex hull of a point cloud with full adjacency, in compact arrays (the only file
 * that includes qhull is hull.c). Built once per shape; read-only afterwards, so any
 * number of bodies and threads may share it.
 *
 * The important parts:
 * - vertices: the hull's extreme points only (interior, duplicate and coplanar-within-
 *   roundoff input points are dropped);
 * - faces: planar convex polygons (qhull merges coplanar triangles), each a ring of
 *   vertex indices counter-clockwise seen from outside, with a unit outward plane;
 * - edges: each edge once, with its two vertices and the two faces beside it;
 * - vertex adjacency (CSR): the neighbours of each vertex along hull edges, the graph
 *   that hill climbing walks (a local maximum of a linear function on it is global);
 * - centroid (volume centroid, strictly inside), volume, radius (largest |vertex| from
 *   the local origin, the rotation centre) and the local AABB.
 * Limits: at least 4 affinely independent points; coordinates finite and at most
 * COL_MAX_COORD in magnitude; zero-volume sets are rejected (no flat or needle shapes). */
#ifndef COLIBRI_LIB_CORE_HULL_H
#define COLIBRI_LIB_CORE_HULL_H

#include <stddef.h>

#include "colibri/base.h"
#include "colibri/vecmath.h"
#include "lib/core/vec.h"

struct col_alloc;

/* What a built hull promises about its planes: every input point x (so every vertex)
 * satisfies n.x <= d + COL_HULL_CHECK_EPS * L for every face plane (n, d), L the distance
 * of two input points (so L <= 2 radius), up to the rounding of those dot products; hull.c
 * checks it and fails the build otherwise. Ray casts (narrowphase/ray.c) widen the planes
 * by it before they call a ray a miss. */
#define COL_HULL_CHECK_EPS 1e-10

typedef struct col_plane {
    col_vec3 n; /* unit outward normal */
    double d;   /* n . x <= d for every point x of the hull (within rounding) */
} col_plane;

typedef struct col_hull {
    int vertex_count;
    col_vec3 *vertices;   /* [vertex_count] */

    int face_count;
    col_plane *planes;    /* [face_count] */
    int *face_first;      /* [face_count + 1]: face f's ring is face_verts[face_first[f] .. face_first[f+1]) */
    int *face_verts;      /* vertex indices, counter-clockwise seen from outside */

    int edge_count;
    int *edge_verts;      /* [2 * edge_count]: the two vertices of edge e */
    int *edge_faces;      /* [2 * edge_count]: the two faces beside edge e (left, right) */

    int *adj_first;       /* [vertex_count + 1] */
    int *adj;             /* [2 * edge_count]: neighbours of vertex v are adj[adj_first[v] .. adj_first[v+1]) */

    col_vec3 centroid;    /* volume centroid */
    double volume;
    double radius;        /* max |vertex| (about the local origin) */
    col_vec3 aabb_min, aabb_max;

    void *block;          /* one allocation holding every array above */
    size_t block_size;
} col_hull;

/* Builds the hull of n points. On error returns the status (TOO_FEW_POINTS,
 * DEGENERATE_SHAPE, NOT_FINITE, HULL_FAILED, OUT_OF_MEMORY), writes a sentence into
 * err (if errlen > 0) and leaves *out zeroed. Arrays come from alloc; qhull's own
 * temporary memory does not (it is freed before returning). */
col_status col_hull_build(struct col_alloc *alloc, const col_vec3 *points, int n, col_hull *out,
                          char *err, size_t errlen);

/* Steepest-ascent hill climbing of d . v over the hull's vertex graph from vertex start:
 * stops when no neighbour is strictly larger, at a local maximum (the global one only
 * where the hull is convex exactly: a certificate needs a proven maximum). *moves and
 * *evals (may be NULL) get the moves made and the dot products evaluated. */
int col_hull_support_climb(const col_hull *hull, col_vec3 d, int start, int *moves, long *evals);

/* The box of a hull at a pose: |R| times the local box half extents about the rotated
 * local box centre, widened outward by a relative 1e-12 so that every world vertex
 * R v + p as col_xform_point computes it lies inside despite rounding. */
void col_hull_box_at(const col_hull *hull, const col_xform *xf, col_vec3 *min, col_vec3 *max);

/* Frees the arrays of a built hull and zeroes it. */
void col_hull_free(struct col_alloc *alloc, col_hull *hull);

/* A deep copy of a built hull (one block, same layout) from alloc. Errors: OUT_OF_MEMORY
 * (then *out is zeroed). */
col_status col_hull_copy(struct col_alloc *alloc, const col_hull *src, col_hull *out);

/* Index of a vertex maximising d . v, by a linear scan (ties: lowest index). */
int col_hull_support_scan(const col_hull *hull, col_vec3 d);

#endif
