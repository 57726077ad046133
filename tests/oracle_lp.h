/* SPDX-License-Identifier: MIT */
/* Exact intersection oracle for tests: linear programs solved by GLPK, in rational
 * arithmetic (glp_exact) where the answer must be exact. Works on WORLD point sets (the
 * doubles as given; compute them with col_xform_point so they match the backends).
 *
 * The important parts:
 * - col_oracle_intersect: do the convex hulls of two point sets share a point? Exact for
 *   the given doubles (touching counts): feasibility of
 *       sum_i l_i a_i = sum_j m_j b_j,  sum l = 1,  sum m = 1,  l, m >= 0,
 *   the LP of the exact answer (docs/scenes.md);
 * - col_oracle_margin: a signed separation measure to classify near-touching pairs;
 * - col_oracle_contact_shift: how far one set can be moved along a direction before
 *   the hulls stop touching (to place test pairs near touching).
 * Limits: the point counts must be >= 1; GLPK failures are reported, not hidden. */
#ifndef COLIBRI_TESTS_ORACLE_LP_H
#define COLIBRI_TESTS_ORACLE_LP_H

#include "colibri/vecmath.h"

/* 1 if the hulls of A (na points) and B (nb points) intersect, 0 if not, -1 if GLPK
 * failed (never expected). */
int col_oracle_intersect(const col_vec3 *A, int na, const col_vec3 *B, int nb);

/* The signed margin  -min over ||d||_inf = 1 of h_{B-A}(d)  (h the support function of
 * the Minkowski difference B - A, in length units): the L1 distance between the hulls
 * when they are apart (> 0), minus the smallest L1 translation that separates them when
 * they overlap (< 0), 0 when touching. Its sign agrees with col_oracle_intersect, and
 * |margin| >= the Euclidean distance (or penetration depth). Found with one LP per face
 * of the unit cube (d_k = +-1); values below 1e-6 x the coordinate scale are re-solved
 * in rational arithmetic. Accuracy: about one rounding of the largest coordinate (GLPK
 * reports the objective as the double sum of its rounded primal values, and the two
 * support values cancel), i.e. ~1e-16 x scale: ample for the 1e-9 near-touching rule.
 * NaN if GLPK failed. */
double col_oracle_margin(const col_vec3 *A, int na, const col_vec3 *B, int nb);

/* The largest t with hull(A) and hull(B) + t dir sharing a point (B moved along dir),
 * by a double-precision simplex; NaN if no such t (the line t dir misses A - B) or on
 * failure. Beyond it the hulls are apart, just before it they overlap. */
double col_oracle_contact_shift(const col_vec3 *A, int na, const col_vec3 *B, int nb,
                                col_vec3 dir);

#endif
