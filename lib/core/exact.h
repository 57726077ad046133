/* SPDX-License-Identifier: MIT */
/* Exact and scale-free arithmetic for the certificates of the narrow phase.
 *
 * The important parts:
 * - col_two_sum, col_two_prod: a + b and a * b as an unevaluated sum hi + lo, exactly
 *   (Knuth's TwoSum; Dekker's product with Veltkamp's split). Plain operations only, so
 *   they are exact under -ffp-contract=off on any IEEE-754 binary64 target without an fma
 *   unit, as long as nothing overflows and, for the product, the error term does not
 *   underflow (Shewchuk, "Adaptive precision floating-point arithmetic", 1997, sections
 *   2.5-2.6);
 * - col_acc2: a sum of products accumulated in twice the working precision (Ogita, Rump
 *   and Oishi, "Accurate sum and dot product", SIAM J. Sci. Comput. 26(6), 2005, Dot2):
 *   the result is as accurate as if computed with a 106-bit significand and then
 *   rounded, |result - exact| <= u |exact| + gamma_n^2 sum |terms| (u = 2^-53,
 *   gamma_n = n u / (1 - n u), n the number of products), plus COL_UNDERFLOW_ERR per
 *   product whose error term falls below the normal range;
 * - col_pow2_unit: a vector scaled by a power of two (exact) so that its largest
 *   component lies in [0.5, 1), and col_unit_robust: a unit vector along any finite
 *   non-zero vector. Squares of lengths then neither underflow nor overflow: a shape of
 *   size 1e-80 has edges whose fourth power is below the smallest double (issue 13,
 *   finding 3), and a test that squares a cross product of two edges must not see 0.
 * Everything is static inline (a header of the foundation floor). */
#ifndef COLIBRI_LIB_CORE_EXACT_H
#define COLIBRI_LIB_CORE_EXACT_H

#include <float.h>
#include <math.h>

#include "lib/core/vec.h"

/* Unit roundoff of binary64 (half of DBL_EPSILON). */
#define COL_U (0.5 * DBL_EPSILON)
/* A bound on the absolute error that underflow adds to one product or to the error term
 * of col_two_prod: a few units of the smallest subnormal, written generously. */
#define COL_UNDERFLOW_ERR (16.0 * DBL_TRUE_MIN)

static inline void col_two_sum(double a, double b, double *s, double *e)
{
    double x = a + b;
    double bv = x - a;
    double av = x - bv;
    *s = x;
    *e = (a - av) + (b - bv);
}

static inline void col_split(double a, double *hi, double *lo)
{
    double c = 134217729.0 * a; /* 2^27 + 1 */
    double h = c - (c - a);
    *hi = h;
    *lo = a - h;
}

static inline void col_two_prod(double a, double b, double *p, double *e)
{
    double x = a * b, ah, al, bh, bl;
    col_split(a, &ah, &al);
    col_split(b, &bh, &bl);
    *p = x;
    *e = ((ah * bh - x) + ah * bl + al * bh) + al * bl;
}

/* A running sum hi + lo (Dot2 / Sum2). Start from {0, 0}. */
typedef struct col_acc2 {
    double hi, lo;
} col_acc2;

static inline void col_acc2_add(col_acc2 *s, double a)
{
    double q;
    col_two_sum(s->hi, a, &s->hi, &q);
    s->lo += q;
}

static inline void col_acc2_add_prod(col_acc2 *s, double a, double b)
{
    double h, r, q;
    col_two_prod(a, b, &h, &r);
    col_two_sum(s->hi, h, &s->hi, &q);
    s->lo += q + r;
}

static inline double col_acc2_value(const col_acc2 *s) { return s->hi + s->lo; }

/* gamma_n^2 of the Dot2 bound for n terms (+inf when n u >= 1/2). */
static inline double col_acc2_gamma2(double n)
{
    double g = n * COL_U;
    if (!(g < 0.5)) return INFINITY;
    g = g / (1.0 - g);
    return g * g * (1.0 + DBL_EPSILON);
}

/* v scaled by 2^-e (exactly, unless a component far below the largest one becomes
 * subnormal, which moves it by at most DBL_TRUE_MIN of the new unit) so that its largest
 * |component| lies in [0.5, 1); e through *e if not NULL. The zero vector and non-finite
 * vectors come back unchanged with e = 0. */
static inline col_vec3 col_pow2_unit(col_vec3 v, int *e)
{
    double m = col_max_abs(v);
    int k = 0;
    if (m > 0.0 && isfinite(m)) frexp(m, &k);
    if (e != NULL) *e = k;
    return k == 0 ? v : col_v3(ldexp(v.x, -k), ldexp(v.y, -k), ldexp(v.z, -k));
}

/* A unit vector along v, for any finite non-zero v however small or large (scaled to
 * about unit size first, so |v|^2 cannot underflow or overflow). Returns 0 (out
 * untouched) for the zero vector or a non-finite one. */
static inline int col_unit_robust(col_vec3 v, col_vec3 *out)
{
    col_vec3 s = col_pow2_unit(v, NULL);
    double l2 = col_len2(s);
    if (!(l2 > 0.0) || !isfinite(l2)) return 0;
    *out = col_scale(s, 1.0 / sqrt(l2));
    return 1;
}

#endif
