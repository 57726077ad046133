/* SPDX-License-Identifier: MIT */
/* Exact oracle for pieces made of a core and a radius (tests only; GMP rationals).
 *
 * A piece is the set of points within its radius of the convex hull of its WORLD core
 * points (docs/shapes.md). Two pieces collide iff dist^2 <= (ra + rb)^2, compared in
 * rationals, where dist is the distance between the hulls of the two world point sets.
 * oracle_dist2 computes it exactly: the distance of disjoint hulls is attained between a
 * point and a triangle or between two segments of their points (Ericson, Real-Time
 * Collision Detection, 2005, sections 5.1.5 and 5.1.9). To be fast, a double search over
 * hint features (a hull's own faces and edges, or every triple and pair) names the
 * probably closest pair; its exact closest points x, y give s = y - x, and if min over B
 * of s.b - max over A of s.a >= |s|^2 exactly, |s| is the distance (an upper and a lower
 * bound at once). Otherwise the hulls may overlap (the exact LP of tests/oracle_lp.h
 * decides: distance 0), or the hint was wrong, and every point-triangle and
 * segment-segment pair of the point sets is tried in rationals. So the hints only make it
 * fast; no double value ever decides. */
#ifndef COLIBRI_TESTS_ORACLE_ROUND_H
#define COLIBRI_TESTS_ORACLE_ROUND_H

#include <gmp.h>

#include "colibri/vecmath.h"

#define ORACLE_MAXP 16 /* points per set */
#define ORACLE_MAXF 64 /* hint triangles and segments per set */

typedef struct oracle_features {
    int tri[ORACLE_MAXF][3], nt;
    int seg[ORACLE_MAXF][2], ns;
} oracle_features;

/* World core points and the hint features over them. */
typedef struct oracle_set {
    int n;
    col_vec3 w[ORACLE_MAXP];
    oracle_features f;
} oracle_set;

/* Hints: every triple and pair (a point cloud); a hull's faces (fans) and edges, whose
 * vertex indices are those of w; a point or a segment (n 1 or 2). */
void oracle_features_all(oracle_set *p);
void oracle_features_hull(oracle_set *p, int face_count, const int *face_first, const int *face_verts, int edge_count,
                          const int *edge_verts);
void oracle_features_core(oracle_set *p);

/* A feature pair of the double search (type: 0 point of a - triangle of b, 1 triangle -
 * point, 2 segment - segment, 3 point - segment, 4 segment - point, 5 point - point). */
typedef struct fpair {
    int type, ia[3], ib[3];
} fpair;

/* The double search: the probably closest feature pair, its squared distance and its
 * closest points. */
double oracle_search(const oracle_set *a, const oracle_set *b, fpair *bp, col_vec3 *bx, col_vec3 *by);

/* The exact squared distance between the hulls of a->w and b->w. */
void oracle_dist2(const oracle_set *a, const oracle_set *b, mpq_t d2);
/* The sign of d2 - (ra + rb)^2. */
int oracle_vs_radius(const mpq_t d2, double ra, double rb);
/* 1 iff the pieces collide (touching counts), exactly. */
int oracle_round_collide(const oracle_set *a, double ra, const oracle_set *b, double rb);
/* col_oracle_intersect on the points scaled by one power of two to about unit size. */
int oracle_intersect_scaled(const oracle_set *a, const oracle_set *b);

/* How oracle_dist2 decided: the hint held, the LP found an overlap, or every pair. */
typedef struct oracle_stats {
    long fast, lp, exhaustive;
} oracle_stats;
extern oracle_stats ostats;

/* Rationals: a vector and the few operations the tests need. */
typedef struct qv {
    mpq_t x, y, z;
} qv;
void qv_init(qv *v);
void qv_clear(qv *v);
void qv_setd(qv *v, col_vec3 p);
void qv_set(qv *v, const qv *p);
void qv_sub(qv *o, const qv *a, const qv *b);
void qv_axpy(qv *o, const qv *a, const mpq_t t, const qv *b, mpq_t tmp); /* o = a + t b */
void qv_dot(mpq_t o, const qv *a, const qv *b, mpq_t tmp);

/* The oracle's scratch rationals: once per program, around every use. */
void oracle_round_init(void);
void oracle_round_fini(void);

#endif
