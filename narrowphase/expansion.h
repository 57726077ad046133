/* SPDX-License-Identifier: MIT */
/* Floating-point expansions: exact sums and products of doubles as unevaluated sums of
 * non-overlapping doubles, for the exact fallback of the rounded narrow phase
 * (narrowphase/rounded.c). Shewchuk, "Adaptive precision floating-point arithmetic and
 * fast robust geometric predicates", Discrete & Computational Geometry 18, 1997:
 * expansion sum (Theorem 13, the components merged by magnitude and swept with Two-Sum)
 * and scale-expansion (Theorem 19), both with zero elimination.
 *
 * The important parts:
 * - col_xp holds at most COL_XP_CAP components in a fixed array (no allocation): an
 *   operation whose result could exceed it sets `bad` instead, and `bad` spreads to every
 *   result computed from it. A caller treats a bad value as "not decided", never as a
 *   sign. With zero elimination the length of a value is bounded by its bit span, a few
 *   components for inputs of similar magnitude; the cap is reached only by inputs
 *   spanning hundreds of binary orders of magnitude;
 * - exact as long as no product's error term underflows (Shewchuk section 2.6): the
 *   caller scales its inputs to about unit size and rejects components below 2^-160
 *   (rounded.c), so that every product of up to six factors stays in the normal range;
 * - the sign of a value is the sign of its largest component (the last one). */
#ifndef COLIBRI_NARROWPHASE_EXPANSION_H
#define COLIBRI_NARROWPHASE_EXPANSION_H

#include <stdbool.h>

#define COL_XP_CAP 120

typedef struct col_xp {
    int n;     /* components t[0..n), increasing magnitude, none zero; n = 0 is zero */
    bool bad;  /* the capacity was exceeded somewhere: the value is unknown */
    double t[COL_XP_CAP];
} col_xp;

/* x = a (one double). */
void col_xp_set(col_xp *x, double a);
/* x = a - b exactly (two components at most). */
void col_xp_diff(col_xp *x, double a, double b);
/* out = x + y, out = x - y (out may alias neither). */
void col_xp_add(col_xp *out, const col_xp *x, const col_xp *y);
void col_xp_sub(col_xp *out, const col_xp *x, const col_xp *y);
/* out = x * b for a double b, out = x * y (out may alias neither). */
void col_xp_scale(col_xp *out, const col_xp *x, double b);
void col_xp_mul(col_xp *out, const col_xp *x, const col_xp *y);
/* x = -x in place. */
void col_xp_negate(col_xp *x);
/* Sign of x: -1, 0 or 1 (meaningless when x->bad). */
int col_xp_sign(const col_xp *x);
/* A double near x (the sum of its components, largest last). */
double col_xp_approx(const col_xp *x);

#endif
