/* SPDX-License-Identifier: MIT */
/* A triangle mesh (issue 16): a polygon soup with a bounding-volume hierarchy, built once
 * and read-only afterwards, so any number of bodies and threads may share it. What it
 * means (docs/meshes.md): the union of its closed triangles, a surface with no inside; a
 * degenerate triangle is the segment or point it spans, never dropped.
 *
 * The important parts:
 * - vertices, as given (local frame), and triangles as index triples into them, in the
 *   hierarchy's leaf order; tri_source maps each back to the caller's triangle number
 *   (what queries report);
 * - the hierarchy: a binary tree of boxes in the mesh's local frame, nodes[0] the root,
 *   built top down (docs/meshes.md says which split rule and why); a leaf holds at most
 *   COL_MESH_LEAF_MAX consecutive triangles; depth at most COL_MESH_MAX_DEPTH, so a
 *   traversal's stack can be a fixed array;
 * - per node the local box as exact min/max of its triangles' vertex coordinates (no
 *   rounding: a min or max of doubles is one of them).
 * Limits: 1 <= triangles <= COL_MESH_MAX_TRIANGLES, indices below vertex_count, vertex
 * coordinates finite and at most COL_MAX_COORD in magnitude. */
#ifndef COLIBRI_LIB_CORE_MESH_H
#define COLIBRI_LIB_CORE_MESH_H

#include <float.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "colibri/base.h"
#include "lib/core/vec.h"

struct col_alloc;

#define COL_MESH_LEAF_MAX 4
#define COL_MESH_MAX_DEPTH 64
/* Triangles a mesh may have (indices and node numbers stay in int32 with room to spare). */
#define COL_MESH_MAX_TRIANGLES (1 << 28)

typedef struct col_mesh_node {
    col_vec3 min, max; /* local box of the node's triangles */
    /* inner node (count == 0): children are nodes[child] and nodes[child + 1];
     * leaf (count > 0): triangles tris[child .. child + count) */
    int32_t child;
    int32_t count;
} col_mesh_node;

/* A node's fitted volumes (lib/core/mesh_bv.c proves that both contain every point of
 * the node's triangles, exactly): a frame A (col_mat3, its columns the axes, near
 * orthonormal: frame_defect of col_mesh bounds |A^T A - I|), and in the frame
 * coordinates t of a local point x = A t:
 * - the box {A (c + s) : |s_k| <= h_k} (Gottschalk, Lin & Manocha 1996: an OBB);
 * - the rectangle swept sphere (Larsen, Gottschalk, Lin & Manocha 2000): the points
 *   within r (local length) of the rectangle {A (rc0 + s0, rc1 + s1, c2) : |s0| <= l0,
 *   |s1| <= l1}.
 * begin, end: the node's triangles in leaf order. */
typedef struct col_mesh_bv {
    col_mat3 frame;
    double c[3], h[3];
    double rc[2], l[2], r;
    int32_t begin, end;
} col_mesh_bv;

typedef struct col_mesh {
    int vertex_count, triangle_count, node_count;
    int depth;            /* nodes on the longest root-to-leaf path (the root alone: 1) */
    col_vec3 *vertices;   /* [vertex_count], local frame, as given */
    uint32_t *tris;       /* [3 * triangle_count]: triangle k is tris[3k .. 3k+3), leaf order */
    uint32_t *tri_source; /* [triangle_count]: the caller's number of triangle k */
    col_mesh_node *nodes; /* [node_count], nodes[0] the root */
    col_mesh_bv *bvs;     /* [node_count]: the fitted volumes of node i (a parallel array) */
    double frame_defect;  /* max over the nodes of max |(A^T A - I)_ij| (rounding included) */
    double radius;        /* largest |vertex| over all vertices (used or not) */
    col_vec3 aabb_min, aabb_max; /* box of all vertices (used or not) */
    void *block;          /* one allocation holding every array above */
    size_t block_size;
} col_mesh;

/* Builds the mesh of nv vertices and nt triangles (indices: 3 * nt values, each a vertex
 * number), copying both. On error returns INVALID_ARGUMENT (a count out of range, an
 * index >= nv, NULL arrays), NOT_FINITE (a coordinate NaN, infinite or beyond
 * COL_MAX_COORD) or OUT_OF_MEMORY, writes a sentence naming the first bad value into err
 * (errlen may be 0) and leaves *m zeroed. */
col_status col_mesh_build(struct col_alloc *a, const col_vec3 *vertices, int nv, const uint32_t *indices, int nt,
                          col_mesh *m, char *err, size_t errlen);

/* How the hierarchy is split (docs/meshes.md "The hierarchy" measures them): binned SAH
 * (the default), the mean or the median of the triangles' box centres along the widest
 * axis. Whatever the rule, the depth cap holds (median splits near it, proven in mesh.c). */
typedef enum col_mesh_split { COL_MESH_SPLIT_SAH, COL_MESH_SPLIT_MEAN, COL_MESH_SPLIT_MEDIAN } col_mesh_split;

typedef struct col_mesh_build_options {
    col_mesh_split split;
    int leaf_max; /* 1 .. COL_MESH_LEAF_MAX triangles per leaf */
} col_mesh_build_options;

/* SAH, leaves of COL_MESH_LEAF_MAX. */
col_mesh_build_options col_mesh_default_build_options(void);

/* col_mesh_build with a split rule and leaf size (opt NULL: the defaults); a leaf size
 * out of range is INVALID_ARGUMENT. */
col_status col_mesh_build_with(struct col_alloc *a, const col_vec3 *vertices, int nv, const uint32_t *indices, int nt,
                               const col_mesh_build_options *opt, col_mesh *m, char *err, size_t errlen);

/* A deep copy (the arrays are position independent: one block copied). */
col_status col_mesh_copy(struct col_alloc *a, const col_mesh *src, col_mesh *dst);

/* Frees the arrays; *m zeroed. */
void col_mesh_free(struct col_alloc *a, col_mesh *m);

/* Bytes the mesh holds (vertices, triangles, hierarchy). */
static inline size_t col_mesh_bytes(const col_mesh *m)
{
    return m->block_size;
}

/* max |(A^T A - I)_ij| of the 3x3 matrix m (row-major, entries at most about 1 in size),
 * plus a bound on its own rounding: what the proofs of lib/core/mesh_bv.c and
 * narrowphase/mesh_bv_bound.c call a frame's defect e. */
static inline double col_frame_defect(const double *m)
{
    double e = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = fabs(m[i] * m[j] + m[3 + i] * m[3 + j] + m[6 + i] * m[6 + j] - (i == j ? 1.0 : 0.0));
            e = s > e ? s : e;
        }
    return e + 8 * (DBL_EPSILON / 2) * (1 + e);
}

/* Fills m->bvs and m->frame_defect from the built tree (col_mesh_build calls it); its
 * scratch (80 bytes a node and 72 a triangle) from a; OUT_OF_MEMORY leaves m->bvs
 * unfinished. */
col_status col_mesh_fit_bvs(struct col_alloc *a, col_mesh *m);

/* Node i's rectangle swept sphere in the mesh's local frame, for users that want it as
 * PQP stores it (continuous collision's motion bounds, issue 17): the frame's axes
 * (columns of *axes), the rectangle's centre (A (rc0, rc1, c2), computed in double: within
 * a few units of rounding of the exact centre, which the caller's margins must cover),
 * its half lengths and the radius. */
static inline void col_mesh_node_rss(const col_mesh *m, int i, col_mat3 *axes, col_vec3 *centre, double half[2],
                                     double *radius)
{
    const col_mesh_bv *b = &m->bvs[i];
    *axes = b->frame;
    *centre = col_mat3_mul(&b->frame, col_v3(b->rc[0], b->rc[1], b->c[2]));
    half[0] = b->l[0];
    half[1] = b->l[1];
    *radius = b->r;
}

/* Triangle k's three local vertices. */
static inline void col_mesh_triangle(const col_mesh *m, int k, col_vec3 out[3])
{
    out[0] = m->vertices[m->tris[3 * k]];
    out[1] = m->vertices[m->tris[3 * k + 1]];
    out[2] = m->vertices[m->tris[3 * k + 2]];
}

#endif
