/* SPDX-License-Identifier: MIT */
/* Features of a convex hull and their Voronoi regions, for the voronoi backend
 * (voronoi.c) and the contact code (voronoi_contact.c). Everything is derived on the fly from the
 * col_hull arrays at a pose, in world coordinates; nothing is stored per shape.
 *
 * The important parts:
 * - a feature is a vertex, an edge (tail = its lower vertex index, head = the higher,
 *   direction u = head - tail) or a face (its ring counter-clockwise from outside);
 *   the "left" face of an edge is the one whose ring runs tail -> head (hull.h:
 *   edge_faces[2e]), the "right" one edge_faces[2e + 1];
 * - a region plane is a point o and a normal n with value (x - o) . n, >= 0 inside.
 *   The side plane of a face along a ring edge and that edge's plane for the face are
 *   built from the same o and n (the edge's tail, n_face x u) with opposite signs, so
 *   their values are exact negations (no gap or overlap between regions by rounding);
 *   the vertex planes V - W likewise negate the edge's end planes exactly;
 * - col_vor_climb: support vertex by hill climbing (a local maximum of a linear function
 *   on a convex polytope's graph is global);
 * - col_vor_segment_closest: closest points of two segments;
 * - col_vor_brute_distance: the distance over all feature pairs (slow, exact fallback).
 * Features and regions as in Lin & Canny 1991 and Mirtich 1998 (V-Clip). */
#ifndef COLIBRI_NARROWPHASE_VORONOI_FEATURES_H
#define COLIBRI_NARROWPHASE_VORONOI_FEATURES_H

#include "lib/core/hull.h"
#include "lib/core/vec.h"

/* Feature kinds; index numbers hull->vertices, the edges or the faces. */
enum col_vor_type { COL_VOR_VERTEX = 0, COL_VOR_EDGE = 1, COL_VOR_FACE = 2 };

typedef struct col_vor_feature {
    int type;  /* enum col_vor_type */
    int index;
} col_vor_feature;

/* A hull at a pose. */
typedef struct col_vor_body {
    const col_hull *h;
    const col_xform *x;
} col_vor_body;

/* A region plane: value (p - o) . n, >= 0 inside the region it bounds. */
typedef struct col_vor_plane {
    col_vec3 o, n;
} col_vor_plane;

/* Closest points of two bodies and their features. */
typedef struct col_vor_closest {
    double distance;
    col_vec3 pa, pb;
    col_vor_feature fa, fb;
} col_vor_closest;

/* Index of the edge joining vertices u and v of h (binary search over the edge list,
 * which hull.c sorts by (lower, higher) vertex), or -1. */
int col_vor_edge_index(const col_hull *h, int u, int v);

static inline col_vec3 col_vor_vert(const col_vor_body *b, int v) { return col_xform_point(b->x, b->h->vertices[v]); }
static inline col_vec3 col_vor_normal(const col_vor_body *b, int f) { return col_mat3_mul(&b->x->R, b->h->planes[f].n); }
static inline double col_vor_val(const col_vor_plane *p, col_vec3 x) { return col_dot(col_sub(x, p->o), p->n); }
static inline int col_vor_is_zero(col_vec3 v) { return v.x == 0.0 && v.y == 0.0 && v.z == 0.0; }
static inline col_vec3 col_vor_lerp(col_vec3 a, col_vec3 d, double t) { return col_add(a, col_scale(d, t)); }
static inline col_vor_feature col_vor_feat(int type, int index)
{
    col_vor_feature f = {type, index};
    return f;
}

static inline col_vor_feature col_vor_edge_feat(const col_hull *h, int u, int v)
{
    return col_vor_feat(COL_VOR_EDGE, col_vor_edge_index(h, u, v));
}

/* The side plane of face f (world normal nf) along its ring edge va -> vb: >= 0 toward
 * the face's interior. */
col_vor_plane col_vor_side_plane(const col_vor_body *b, col_vec3 nf, int va, int vb);

/* The plane of edge e's region bordering its face on side 0 (left) or 1 (right), >= 0
 * inside the edge's region; *face receives that face. */
col_vor_plane col_vor_edge_face_plane(const col_vor_body *b, int e, int side, int *face);

/* Signed distance of x above face f (world normal nf). */
double col_vor_face_dist(const col_vor_body *b, int f, col_vec3 nf, col_vec3 x);

/* A vertex maximising n . v by steepest-ascent hill climbing from v (at most
 * vertex_count moves); *value gets n . v there. */
int col_vor_climb(const col_vor_body *b, int v, col_vec3 n, double *value);

/* A vertex of a feature. */
int col_vor_some_vertex(const col_hull *h, col_vor_feature f);

/* Closest points of segments p0 p1 and q0 q1: parameters *s, *t in [0, 1]; returns the
 * squared distance. The best of the lines' critical point (Ericson, Real-Time Collision
 * Detection, ClosestPtSegmentSegment) and the four end-point projections: every
 * candidate is a pair of actual points, and nearly parallel segments, where the formula
 * cancels, have their minimum at an end point. */
double col_vor_segment_closest(col_vec3 p0, col_vec3 p1, col_vec3 q0, col_vec3 q1, double *s, double *t);

/* Distance between two SEPARATED bodies over all feature pairs (every vertex against
 * every face whose prism holds it, every edge pair): O(V F + E E), for fallbacks. */
void col_vor_brute_distance(const col_vor_body *A, const col_vor_body *B, col_vor_closest *out);

#endif
