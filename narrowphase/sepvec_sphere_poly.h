/* SPDX-License-Identifier: MIT */
/* The set of directions that may still separate two convex sets, kept as a convex
 * spherical polygon, and the collision certificate read off it when it empties.
 *
 * Every vertex pair (p in A, q in B) seen by a separating-vector search gives m = q - p,
 * and every strict separator s has s . m > 0. The intersection of those open hemispheres
 * is a convex spherical polygon; when it is empty no direction separates and the sets
 * collide (Chung & Wang 1996, section 4.2, "FindSeparatePlane": no open hemisphere
 * contains all r_k). Hornus (CAD 2017, "Detecting the intersection of two convex shapes
 * by searching on the 2-sphere") keeps the polygon explicitly and takes its average
 * direction as the next candidate; so do we, as the witness of Chung & Wang's lemma 4
 * and in the search mode that follows grazing.
 *
 * The important parts:
 * - vertices are unit vectors, counter-clockwise seen from outside the sphere; edge i
 *   (v[i] -> v[i+1]) lies on the great circle of constraint e[i];
 * - the first constraint c gives the hemisphere c.s >= 0 as the square u, w, -u, -w on
 *   its boundary (every edge shorter than a half circle, so clipping stays generic);
 * - clipping is Sutherland-Hodgman on the sphere: the crossing point of edge (a, b)
 *   with the circle c.s = 0 is d_a b - d_b a (d = c . vertex), a positive combination;
 * - the polygon only guides the search: "empty" is never an answer by itself. The
 *   answer "colliding" needs col_sphpoly_certify, which finds four vertex-pair vectors
 *   with the origin strictly inside their tetrahedron, each sign proven by a
 *   floating-point error bound (else the caller decides exactly by other means).
 * Limits: capacity fixed by the caller (cap vertices); a clip that would exceed it
 * reports "degenerate". */
#ifndef COLIBRI_NARROWPHASE_SEPVEC_SPHERE_POLY_H
#define COLIBRI_NARROWPHASE_SEPVEC_SPHERE_POLY_H

#include "lib/core/vec.h"

typedef struct col_sphpoly {
    int n;          /* vertices; 0: no constraint yet (the whole sphere) */
    int cap;        /* capacity of every array below */
    col_vec3 *v;    /* [cap] */
    int *e;         /* [cap] */
    col_vec3 *tv;   /* [cap] clip buffers */
    int *te;        /* [cap] */
} col_sphpoly;

enum col_sphpoly_clip_result {
    COL_SPHPOLY_KEPT = 0,    /* something is left */
    COL_SPHPOLY_EMPTY = 1,   /* nothing is left (or only a sliver within rounding) */
    COL_SPHPOLY_FULL = 2     /* capacity reached: the caller must decide otherwise */
};

/* Clips the polygon by {s : c . s >= 0}; c must be a unit vector, id names it. Sets
 * *removed to whether any vertex was cut off (NULL allowed). */
int col_sphpoly_clip(col_sphpoly *p, col_vec3 c, int id, int *removed);

/* A direction strictly inside the polygon: u . cons[e[i]] > 0 for every edge constraint
 * (cons indexed by constraint id, unit vectors). Tries the vertex average (Hornus), the
 * average of the edge constraints, and their sum. Returns 0 if none qualifies. */
int col_sphpoly_witness(const col_sphpoly *p, const col_vec3 *cons, col_vec3 *out);

/* Searches for a tetrahedron that col_origin_in_tetra (certify.h) proves holds the
 * origin, among the constraint vectors m[] (indexed by id) of the polygon's edges
 * together with constraint id_new, which emptied it. The polygon must be the one before
 * the emptying clip. On success writes the four ids to out[4], returns 1. */
int col_sphpoly_certify(const col_sphpoly *p, const col_vec3 *m, int id_new, int out[4]);

#endif
