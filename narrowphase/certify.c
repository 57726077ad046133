/* SPDX-License-Identifier: MIT */
/* Separation certificates by full projection (certify.h).
 *
 * Notation: u = 2^-53 (COL_U), eps = 2u (DBL_EPSILON), gamma_n = n u / (1 - n u) (Higham,
 * "Accuracy and Stability of Numerical Algorithms", 2nd ed., section 3.1), eta the absolute
 * error underflow adds to a product (COL_UNDERFLOW_ERR covers a handful). The truth is the
 * world vertex w = fl(R v + p) as col_xform_point computes it; |R|_2 <= 1 + 1e-14 (the
 * world keeps quaternions unit to 8 ulps, lib/world.c).
 *
 * Local frames: t = fl(u'.v + o) with u' = fl(R^T s), o = fl(s.p). Against the exact s.w:
 *   w against R v + p              <= gamma_4 |s|_1 (r + |p|_inf)   (3 products, 3 sums)
 *   u' against R^T s, times v      <= sqrt 3 gamma_3 |s|_1 r
 *   o against s.p                  <= gamma_3 |s|_1 |p|_inf
 *   the sum of 3 products and o    <= gamma_4 |s|_1 (r + |p|_inf)
 * about 14 u |s|_1 (r + |p|_inf) in all (r = hull radius about the local origin >= |v|);
 * GAP_LOCAL_C = 10 eps = 20 u per body. The extreme computed values are within that of
 * the exact extremes, so the gap is too, plus one rounding of the subtraction.
 *
 * World, centred: t = fl(s.fl(w - c)) for a fixed point c. Each difference carries u
 * |w_i - c_i|, the dot product gamma_3 |s|.|d|: about 4 u |s|_1 ext per body, ext the
 * largest |component| of the differences, and c cancels exactly from the gap (it shifts
 * both bodies' projections by s.c). GAP_WORLD_C = 5 eps = 10 u for both bodies together.
 *
 * The certified gap is (gap - bound) (1 - 2 eps): the last factor covers the rounding of
 * that subtraction and of the bound itself. */
#include "narrowphase/certify.h"

#include <float.h>
#include <math.h>

#include "lib/core/exact.h"

#define GAP_LOCAL_C (10.0 * DBL_EPSILON)
#define GAP_WORLD_C (5.0 * DBL_EPSILON)
#define GAP_SUB_C (2.0 * DBL_EPSILON)

static double certified(double raw, double bound)
{
    double g = raw - bound;
    return g > 0.0 ? g * (1.0 - 2.0 * DBL_EPSILON) : g;
}

static double s_norm1(col_vec3 s) { return fabs(s.x) + fabs(s.y) + fabs(s.z); }

/* Extreme of (R^T s).v + s.p over the hull (max if want_max, else min). */
static double local_extreme(const col_hull *h, const col_xform *x, col_vec3 s, int want_max, int *arg)
{
    col_vec3 u = col_mat3_tmul(&x->R, s);
    double o = col_dot(s, x->p), best = want_max ? -INFINITY : INFINITY;
    int bi = 0;
    for (int i = 0; i < h->vertex_count; i++) {
        col_vec3 v = h->vertices[i];
        double t = u.x * v.x + u.y * v.y + u.z * v.z + o;
        if (want_max ? t > best : t < best) {
            best = t;
            bi = i;
        }
    }
    *arg = bi;
    return best;
}

/* The local-frame gap and its bound. */
static double local_gap(const col_hull *a, const col_xform *xa, const col_hull *b, const col_xform *xb, col_vec3 s,
                        double *bound, int *ia, int *ib)
{
    double hi = local_extreme(a, xa, s, 1, ia), lo = local_extreme(b, xb, s, 0, ib);
    double g = lo - hi;
    double m = a->radius + col_max_abs(xa->p) + b->radius + col_max_abs(xb->p);
    *bound = GAP_LOCAL_C * s_norm1(s) * m + GAP_SUB_C * fabs(g) + 2.0 * COL_UNDERFLOW_ERR;
    return g;
}

/* Extreme of s.fl(w - c) over the hull's world vertices; *ext grows to the largest
 * |component| of the differences. */
static double world_extreme(const col_hull *h, const col_xform *x, col_vec3 s, col_vec3 c, int want_max, int *arg,
                            double *ext)
{
    double best = want_max ? -INFINITY : INFINITY, m = *ext;
    int bi = 0;
    for (int i = 0; i < h->vertex_count; i++) {
        col_vec3 d = col_sub(col_xform_point(x, h->vertices[i]), c);
        double t = s.x * d.x + s.y * d.y + s.z * d.z;
        if (want_max ? t > best : t < best) {
            best = t;
            bi = i;
        }
        double e = col_max_abs(d);
        m = e > m ? e : m;
    }
    *arg = bi;
    *ext = m;
    return best;
}

static double world_gap(const col_hull *a, const col_xform *xa, const col_hull *b, const col_xform *xb, col_vec3 s,
                        double *bound, int *ia, int *ib)
{
    col_vec3 c = col_xform_point(xa, a->centroid);
    double ext = 0.0;
    double hi = world_extreme(a, xa, s, c, 1, ia, &ext), lo = world_extreme(b, xb, s, c, 0, ib, &ext);
    double g = lo - hi;
    *bound = GAP_WORLD_C * s_norm1(s) * ext + GAP_SUB_C * fabs(g) + 2.0 * COL_UNDERFLOW_ERR;
    return g;
}

static col_np_gap make(double raw, double bound, int ia, int ib)
{
    col_np_gap g;
    g.raw = raw;
    g.bound = bound;
    g.certified = certified(raw, bound);
    g.ia = ia;
    g.ib = ib;
    return g;
}

col_np_gap col_np_gap_local(const col_hull *a, const col_xform *xa, const col_hull *b, const col_xform *xb, col_vec3 s)
{
    double bound;
    int ia, ib;
    double g = local_gap(a, xa, b, xb, s, &bound, &ia, &ib);
    return make(g, bound, ia, ib);
}

col_np_gap col_np_gap_world(const col_hull *a, const col_xform *xa, const col_hull *b, const col_xform *xb, col_vec3 s)
{
    double bound;
    int ia, ib;
    double g = world_gap(a, xa, b, xb, s, &bound, &ia, &ib);
    return make(g, bound, ia, ib);
}

col_np_gap col_np_certify_gap(const col_hull *a, const col_xform *xa, const col_hull *b, const col_xform *xb,
                              col_vec3 s)
{
    col_np_gap g = col_np_gap_local(a, xa, b, xb, s);
    /* Inconclusive (within the local bound of zero, which grows with the distance from
     * the origin): the centred projection's bound grows with the pair's extent only. */
    if (g.certified > 0.0 || g.raw < -g.bound) return g;
    return col_np_gap_world(a, xa, b, xb, s);
}
