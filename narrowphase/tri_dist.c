/* SPDX-License-Identifier: MIT */
/* Triangle-triangle distance (tri_dist.h). Why the three candidate families suffice:
 * if the triangles are apart, a closest pair has a point on the boundary of one of them
 * (two convex polygons; when both points could be interior the faces are parallel and a
 * boundary point does as well), so it is an edge-edge pair or a vertex-face pair whose
 * projection lies inside the face. If they meet, an edge of one meets the other triangle:
 * either it crosses the other's plane (the crossing family), or it lies in that plane,
 * and then one of its ends is inside the triangle (vertex-face gives 0) or it crosses an
 * edge (edge-edge gives 0). A degenerate triangle has no plane: its edges still meet the
 * other's plane and its vertices still project onto the other's face. */
#include "narrowphase/tri_dist.h"

#include <float.h>

#include "lib/core/exact.h"
#include "narrowphase/tri_tri.h"

static double clamp01(double x) { return x < 0.0 ? 0.0 : (x > 1.0 ? 1.0 : x); }

double col_segment_closest(col_vec3 p0, col_vec3 p1, col_vec3 q0, col_vec3 q1, double *s_out, double *t_out,
                           col_vec3 *cp, col_vec3 *cq)
{
    col_vec3 d1 = col_sub(p1, p0), d2 = col_sub(q1, q0), r = col_sub(p0, q0);
    double a = col_dot(d1, d1), e = col_dot(d2, d2), f = col_dot(d2, r);
    double s = 0.0, t = 0.0;
    if (a == 0.0 && e == 0.0) {
        s = t = 0.0;
    } else if (a == 0.0) {
        t = clamp01(f / e);
    } else {
        double c = col_dot(d1, r);
        if (e == 0.0) {
            s = clamp01(-c / a);
        } else {
            /* Parallel (denom 0, or rounded to <= 0): any s in [0, 1] works, since the
             * clamped alternation below then finds the 1-D closest pair. Near parallel,
             * the cancellation in denom perturbs s only: the squared distance is
             * quadratic about the optimum along the recomputed t, so the error is of
             * second order. */
            double b = col_dot(d1, d2), denom = a * e - b * b;
            s = denom > 0.0 ? clamp01((b * f - c * e) / denom) : 0.0;
            t = (b * s + f) / e;
            if (t < 0.0) {
                t = 0.0;
                s = clamp01(-c / a);
            } else if (t > 1.0) {
                t = 1.0;
                s = clamp01((b - c) / a);
            }
        }
    }
    *s_out = s;
    *t_out = t;
    *cp = col_add(p0, col_scale(d1, s));
    *cq = col_add(q0, col_scale(d2, t));
    return col_len2(col_sub(*cp, *cq));
}

/* Is x inside triangle v (normal n, any non-zero length), boundary included? Signs of
 * the edge functions only; a point on an edge is found by the edge-edge family anyway. */
static int inside(const col_vec3 v[3], col_vec3 n, col_vec3 x)
{
    for (int i = 0; i < 3; i++) {
        col_vec3 e = col_sub(v[(i + 1) % 3], v[i]);
        if (col_dot(col_cross(e, col_sub(x, v[i])), n) < 0.0) return 0;
    }
    return 1;
}

typedef struct best_pair {
    double d2;
    col_vec3 pa, pb;
} best_pair;

static void offer(best_pair *b, double d2, col_vec3 pa, col_vec3 pb)
{
    if (d2 < b->d2) {
        b->d2 = d2;
        b->pa = pa;
        b->pb = pb;
    }
}

/* Vertex-face and edge-face candidates of the points p[3] (their triangle's edges)
 * against face v with normal n (scaled to about unit size). swap: p is on b. */
static void against_face(const col_vec3 p[3], const col_vec3 v[3], col_vec3 n, int swap, best_pair *best)
{
    double nn = col_dot(n, n);
    double h[3];
    for (int i = 0; i < 3; i++) {
        h[i] = col_dot(n, col_sub(p[i], v[0]));
        col_vec3 q = col_sub(p[i], col_scale(n, h[i] / nn));
        if (inside(v, n, q)) {
            double d2 = col_len2(col_sub(p[i], q));
            if (swap) offer(best, d2, q, p[i]);
            else offer(best, d2, p[i], q);
        }
    }
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3;
        double hi = h[i], hj = h[j];
        if ((hi > 0.0 && hj > 0.0) || (hi < 0.0 && hj < 0.0) || (hi == 0.0 && hj == 0.0)) continue;
        col_vec3 x = col_add(p[i], col_scale(col_sub(p[j], p[i]), hi / (hi - hj)));
        if (inside(v, n, x)) offer(best, 0.0, x, x);
    }
}

/* The triangle's normal (cross product of two edges), scaled by a power of two when its
 * size is so far from 1 that its square could underflow or overflow. */
static col_vec3 normal_of(const col_vec3 v[3])
{
    col_vec3 n = col_cross(col_sub(v[1], v[0]), col_sub(v[2], v[0]));
    double m = col_max_abs(n);
    return m > 0x1p-400 && m < 0x1p400 ? n : col_pow2_unit(n, NULL);
}

double col_tri_distance(const col_vec3 a[3], const col_vec3 b[3], col_vec3 *pa, col_vec3 *pb)
{
    /* A common origin: a's first vertex. Points are then of the size of the pair's span,
     * so the rounding of the results is relative to it, not to the coordinates. */
    col_vec3 o = a[0], la[3], lb[3];
    double span = 0.0;
    for (int i = 0; i < 3; i++) {
        la[i] = col_sub(a[i], o);
        lb[i] = col_sub(b[i], o);
        span = fmax(span, fmax(col_max_abs(la[i]), col_max_abs(lb[i])));
    }
    /* A span so small (or large) that squared lengths would underflow (or overflow): work
     * at unit size, scaled by a power of two (exact). */
    double unscale = 1.0;
    if (span > 0.0 && (span < 0x1p-400 || span > 0x1p400)) {
        int k;
        frexp(span, &k);
        double sc = ldexp(1.0, -k);
        unscale = ldexp(1.0, k);
        for (int i = 0; i < 3; i++) {
            la[i] = col_scale(la[i], sc);
            lb[i] = col_scale(lb[i], sc);
        }
        span = ldexp(span, -k);
    }
    best_pair best = {INFINITY, la[0], lb[0]};
    for (int i = 0; i < 3 && best.d2 > 0.0; i++)
        for (int j = 0; j < 3 && best.d2 > 0.0; j++) {
            double s, t;
            col_vec3 cp, cq;
            double d2 = col_segment_closest(la[i], la[(i + 1) % 3], lb[j], lb[(j + 1) % 3], &s, &t, &cp, &cq);
            offer(&best, d2, cp, cq);
        }
    if (best.d2 > 0.0) {
        col_vec3 na = normal_of(la), nb = normal_of(lb);
        if (col_max_abs(nb) > 0.0) against_face(la, lb, nb, 0, &best);
        if (col_max_abs(na) > 0.0) against_face(lb, la, na, 1, &best);
    }
    /* Within the rounding bound of touching (64 units of the span; the exact tests saw
     * errors below 2 units), the exact decision says whether the answer is 0. */
    double tol = 64.0 * DBL_EPSILON * span;
    int apart = 1;
    if (best.d2 <= tol * tol) {
        apart = !col_tri_tri_intersect(a, b);
        if (!apart) best.d2 = 0.0;
    }
    *pa = col_add(col_scale(best.pa, unscale), o);
    *pb = best.d2 == 0.0 ? *pa : col_add(col_scale(best.pb, unscale), o);
    double d = sqrt(best.d2) * unscale;
    /* apart but closer than rounding shows: the smallest positive double, never 0 */
    return apart && !(d > 0.0) ? DBL_TRUE_MIN : d;
}
