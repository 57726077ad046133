/* SPDX-License-Identifier: MIT */
/* Exact orientation predicates on double points (issue 16: the triangle-triangle test of
 * narrowphase/tri_tri.c; docs/meshes.md). Each is the sign of a determinant of input
 * coordinates, evaluated in double with a proven error bound (Shewchuk, "Adaptive
 * precision floating-point arithmetic and fast robust geometric predicates", Discrete &
 * Computational Geometry 18, 1997, section 4: the bounds errboundA of orient2d and
 * orient3d, widened by an absolute term for underflow) and, when the filter cannot
 * decide, exactly: in floating-point expansions (narrowphase/expansion.h) on differences
 * scaled by a power of two, or, when the inputs span more binary orders of magnitude than
 * the expansions take without underflow, in integer arithmetic on the exact values. So
 * the sign is right for every finite double input, never an epsilon (a NaN or infinite
 * coordinate gives an unspecified sign, without undefined behaviour). No allocation.
 *
 * The important parts:
 * - col_orient3d(a, b, c, d): sign of ((b - a) x (c - a)) . (d - a): +1 when d lies on the
 *   side the normal of the counter-clockwise triangle abc points to, 0 when coplanar;
 * - col_orient2d(a, b, c, k): the same in the projection that drops axis k (the
 *   coordinates ((k+1) mod 3, (k+2) mod 3)), i.e. the sign of component k of
 *   (b - a) x (c - a);
 * - col_orient3d_exact, col_orient2d_exact: the exact paths alone, for filters computed
 *   elsewhere (tri_tri.c shares one plane among several points). */
#ifndef COLIBRI_NARROWPHASE_ORIENT_H
#define COLIBRI_NARROWPHASE_ORIENT_H

#include <math.h>

#include "lib/core/vec.h"

/* The filters: with eps = 2^-53, |det - fl(det)| <= (7 + 56 eps) eps * permanent for
 * orient3d and (3 + 16 eps) eps * permanent for orient2d (Shewchuk's errboundA, the
 * computed permanent being the same expression with every product and term in absolute
 * value), as long as no product underflows. The bounds used are looser on purpose:
 * - COL_O3D_ERR = 8 eps and COL_O2D_ERR = 4 eps, so that the few roundings of adding the
 *   terms below to the bound stay inside the slack;
 * - plus COL_ORIENT_UF * (|w.x| + |w.y| + |w.z| + 1) (orient3d, w the third difference)
 *   or COL_ORIENT_UF (orient2d) for underflow: a product that underflows is off by at
 *   most 2^-1075, spread by at most one more factor |w|, so a few units of 2^-1074 times
 *   (|w| + 1) would do; 2^-900 is chosen instead so that no value of the filter is ever
 *   subnormal, which costs a hundred cycles a product on x86. The price: determinants
 *   below about 2^-900 (shapes below about 1e-90) always take the exact path. */
#define COL_O3D_ERR 0x1p-50
#define COL_O2D_ERR 0x1p-51
#define COL_ORIENT_UF 0x1p-900

/* The double filters alone: the sign when the bound proves it, else 2. Inline: the
 * triangle test calls them per vertex. NaN or infinite intermediate values fail the
 * comparisons and give 2. */
static inline int col_orient3d_filter(col_vec3 a, col_vec3 b, col_vec3 c, col_vec3 d)
{
    col_vec3 u = col_sub(b, a), v = col_sub(c, a), w = col_sub(d, a);
    double x1 = u.y * v.z, x2 = u.z * v.y, y1 = u.z * v.x, y2 = u.x * v.z, z1 = u.x * v.y, z2 = u.y * v.x;
    double det = w.x * (x1 - x2) + w.y * (y1 - y2) + w.z * (z1 - z2);
    double ax = fabs(w.x), ay = fabs(w.y), az = fabs(w.z);
    double perm = ax * (fabs(x1) + fabs(x2)) + ay * (fabs(y1) + fabs(y2)) + az * (fabs(z1) + fabs(z2));
    double bound = COL_O3D_ERR * perm + COL_ORIENT_UF * (ax + ay + az + 1.0);
    if (det > bound) return 1;
    if (-det > bound) return -1;
    return 2;
}

static inline double col_orient_coord(col_vec3 p, int k) { return k == 0 ? p.x : (k == 1 ? p.y : p.z); }

static inline int col_orient2d_filter(col_vec3 a, col_vec3 b, col_vec3 c, int k)
{
    int i = k == 2 ? 0 : k + 1, j = i == 2 ? 0 : i + 1;
    double l = (col_orient_coord(b, i) - col_orient_coord(a, i)) * (col_orient_coord(c, j) - col_orient_coord(a, j));
    double r = (col_orient_coord(b, j) - col_orient_coord(a, j)) * (col_orient_coord(c, i) - col_orient_coord(a, i));
    double det = l - r;
    double bound = COL_O2D_ERR * (fabs(l) + fabs(r)) + COL_ORIENT_UF;
    if (det > bound) return 1;
    if (-det > bound) return -1;
    return 2;
}

/* Filter, then exact. */
int col_orient3d(col_vec3 a, col_vec3 b, col_vec3 c, col_vec3 d);
int col_orient2d(col_vec3 a, col_vec3 b, col_vec3 c, int k);
int col_orient3d_exact(col_vec3 a, col_vec3 b, col_vec3 c, col_vec3 d);
int col_orient2d_exact(col_vec3 a, col_vec3 b, col_vec3 c, int k);

#endif
