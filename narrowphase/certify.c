/* SPDX-License-Identifier: MIT */
/* Separation certificates by full projection, and the overlap proof (certify.h). Shared
 * by every backend; the overlap proof's GJK walk climbs the hull's vertex graph
 * (col_hull_support_climb, lib/core/hull.h), which needs no shape data.
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

/* ---- the overlap proof ---- */

/* Relative error bound of a 3 x 3 determinant of vectors whose components carry one
 * rounding each, in units of the determinant's permanent: 3 eps from the inputs (one
 * per factor of each term), 5 eps from the cross and dot products; 16 for slack. */
#define TETRA_DET_BOUND (16.0 * DBL_EPSILON)

static double det3(col_vec3 a, col_vec3 b, col_vec3 c)
{
    return col_dot(a, col_cross(b, c));
}

static double perm3(col_vec3 a, col_vec3 b, col_vec3 c)
{
    double ax = fabs(a.x), ay = fabs(a.y), az = fabs(a.z);
    double bx = fabs(b.x), by = fabs(b.y), bz = fabs(b.z);
    double cx = fabs(c.x), cy = fabs(c.y), cz = fabs(c.z);
    return ax * (by * cz + bz * cy) + ay * (bz * cx + bx * cz) + az * (bx * cy + by * cx);
}

int col_origin_in_tetra(col_vec3 m0, col_vec3 m1, col_vec3 m2, col_vec3 m3)
{
    /* det(b,c,d) a - det(a,c,d) b + det(a,b,d) c - det(a,b,c) d = 0 for any four vectors;
     * with all four weights of one sign, the origin is a strict convex combination. The
     * question is unchanged by a common positive scale: the four vectors are first scaled
     * by one power of two (exact) to about unit size, so that the determinants, cubes of
     * the size, stay in the normal range for every shape size (issue 13, finding 3). A
     * component far below the largest that lands under the normal range moves by at most
     * DBL_TRUE_MIN, which the bound's absolute term covers. */
    double mx = col_max_abs(m0), t;
    t = col_max_abs(m1);
    mx = t > mx ? t : mx;
    t = col_max_abs(m2);
    mx = t > mx ? t : mx;
    t = col_max_abs(m3);
    mx = t > mx ? t : mx;
    if (!(mx > 0.0) || !isfinite(mx)) return 0;
    int e;
    frexp(mx, &e);
    m0 = col_v3(ldexp(m0.x, -e), ldexp(m0.y, -e), ldexp(m0.z, -e));
    m1 = col_v3(ldexp(m1.x, -e), ldexp(m1.y, -e), ldexp(m1.z, -e));
    m2 = col_v3(ldexp(m2.x, -e), ldexp(m2.y, -e), ldexp(m2.z, -e));
    m3 = col_v3(ldexp(m3.x, -e), ldexp(m3.y, -e), ldexp(m3.z, -e));
    double mu[4] = {det3(m1, m2, m3), -det3(m0, m2, m3), det3(m0, m1, m3), -det3(m0, m1, m2)};
    double bd[4] = {perm3(m1, m2, m3), perm3(m0, m2, m3), perm3(m0, m1, m3), perm3(m0, m1, m2)};
    int pos = 0, neg = 0;
    for (int k = 0; k < 4; k++) {
        double b = TETRA_DET_BOUND * bd[k] + COL_UNDERFLOW_ERR;
        pos += mu[k] > b;
        neg += mu[k] < -b;
    }
    return pos == 4 || neg == 4;
}


/* GJK steps before giving up: a penetrating pair is enclosed in a handful; what takes
 * longer sits within rounding of contact, which the exact fallback decides. */
#define OV_MAX_STEPS 64

typedef struct ov_ctx {
    const col_hull *a, *b;
    const col_xform *xa, *xb;
    int ha, hb; /* the last supports, where the next climbs start */
    int e;      /* the search runs on differences scaled by 2^-e (exact) */
} ov_ctx;

/* Small hulls are scanned (a climb's bookkeeping costs more than a few dot products). */
#define OV_SCAN_MAX 16

static int ov_support_of(const col_hull *h, col_vec3 d, int hint)
{
    if (h->vertex_count <= OV_SCAN_MAX) return col_hull_support_scan(h, d);
    return col_hull_support_climb(h, d, hint, NULL, NULL);
}

/* The difference of the supports along d (world): B's highest vertex minus A's lowest,
 * as the truth computes the world vertices, rounded once (what col_origin_in_tetra
 * allows for). Any vertices would do for the proof; supports make the search converge. */
static col_vec3 ov_support(ov_ctx *c, col_vec3 d)
{
    c->ha = ov_support_of(c->a, col_neg(col_mat3_tmul(&c->xa->R, d)), c->ha);
    c->hb = ov_support_of(c->b, col_mat3_tmul(&c->xb->R, d), c->hb);
    return col_sub(col_xform_point(c->xb, c->b->vertices[c->hb]), col_xform_point(c->xa, c->a->vertices[c->ha]));
}

static col_vec3 ov_scaled(const ov_ctx *c, col_vec3 v) { return col_v3(ldexp(v.x, -c->e), ldexp(v.y, -c->e), ldexp(v.z, -c->e)); }

/* A direction perpendicular to u (non-zero for a non-zero u). */
static col_vec3 ov_perp(col_vec3 u)
{
    col_vec3 t = fabs(u.x) < fabs(u.y) ? (fabs(u.x) < fabs(u.z) ? col_v3(1, 0, 0) : col_v3(0, 0, 1))
                                       : (fabs(u.y) < fabs(u.z) ? col_v3(0, 1, 0) : col_v3(0, 0, 1));
    return col_cross(u, t);
}

/* The segment case of the simplex step: p[0] the newest point. */
static col_vec3 ov_line(col_vec3 *p, int *n)
{
    col_vec3 ab = col_sub(p[1], p[0]), ao = col_neg(p[0]);
    if (col_dot(ab, ao) > 0.0) {
        col_vec3 d = col_cross(col_cross(ab, ao), ab);
        if (col_max_abs(d) > 0.0) {
            *n = 2;
            return d;
        }
        /* The origin on the segment (a centrally symmetric difference: equal bodies at
         * one pose): every simplex through the segment would hold it on its boundary,
         * where no proof exists. Keep the newest point only and look sideways. */
        *n = 1;
        return ov_perp(ab);
    }
    *n = 1;
    return ao;
}

/* One step of the simplex (newest point first in p and s, the true and the scaled
 * differences): keeps the face nearest the origin and returns the next direction (in
 * *d); 1 when the tetrahedron holds the origin (computed, not yet proven). */
static int ov_simplex(col_vec3 *s, col_vec3 *p, int *n, col_vec3 *d)
{
#define OV_KEEP(i, j) do { s[i] = s[j]; p[i] = p[j]; } while (0)
    if (*n == 2) {
        *d = ov_line(p, n);
        return 0;
    }
    if (*n == 3) {
        col_vec3 a = p[0], ab = col_sub(p[1], a), ac = col_sub(p[2], a), ao = col_neg(a);
        col_vec3 abc = col_cross(ab, ac);
        if (!(col_max_abs(abc) > 0.0)) {
            /* Collinear (ties among supports of aligned bodies): the two farthest apart
             * stand for the three. */
            double d01 = col_max_abs(ab), d02 = col_max_abs(ac), d12 = col_max_abs(col_sub(p[2], p[1]));
            if (d02 >= d01 && d02 >= d12) OV_KEEP(1, 2);
            else if (d12 > d01) OV_KEEP(0, 2);
            *n = 2;
            *d = ov_line(p, n);
            return 0;
        }
        if (col_dot(col_cross(abc, ac), ao) > 0.0) {
            if (col_dot(ac, ao) > 0.0) {
                OV_KEEP(1, 2);
                *n = 2;
                *d = col_cross(col_cross(ac, ao), ac);
                if (!(col_max_abs(*d) > 0.0)) *d = ov_perp(ac);
                return 0;
            }
            *n = 2;
            *d = ov_line(p, n);
            return 0;
        }
        if (col_dot(col_cross(ab, abc), ao) > 0.0) {
            *n = 2;
            *d = ov_line(p, n);
            return 0;
        }
        double side = col_dot(abc, ao);
        if (side > 0.0) *d = abc;
        else {
            /* Below the triangle: flip its winding so that its normal faces the origin. */
            col_vec3 ts = s[1], tp = p[1];
            OV_KEEP(1, 2);
            s[2] = ts;
            p[2] = tp;
            *d = col_neg(abc);
        }
        return 0;
    }
    /* A tetrahedron: p[0] newest, the triangle p[1] p[2] p[3] wound with its normal
     * towards p[0]'s side. The origin lies beyond at most the faces through p[0]. */
    col_vec3 a = p[0], ao = col_neg(a);
    col_vec3 ab = col_sub(p[1], a), ac = col_sub(p[2], a), ad = col_sub(p[3], a);
    col_vec3 abc = col_cross(ab, ac), acd = col_cross(ac, ad), adb = col_cross(ad, ab);
    if (col_dot(abc, ao) > 0.0) {
        *n = 3;
        return ov_simplex(s, p, n, d);
    }
    if (col_dot(acd, ao) > 0.0) {
        OV_KEEP(1, 2);
        OV_KEEP(2, 3);
        *n = 3;
        return ov_simplex(s, p, n, d);
    }
    if (col_dot(adb, ao) > 0.0) {
        col_vec3 ts = s[1], tp = p[1];
        OV_KEEP(1, 3);
        s[2] = ts;
        p[2] = tp;
        *n = 3;
        return ov_simplex(s, p, n, d);
    }
    return 1;
#undef OV_KEEP
}

/* The second way: supports along the four directions of a regular tetrahedron, in a few
 * fixed generic orientations. GJK's searches pass through the origin when the difference
 * is symmetric about it (equal bodies at one pose, or bodies sharing a centre): a
 * segment between opposite supports then holds the origin, and so does the boundary of
 * every simplex built on it, where no proof exists. Four supports spread over the sphere
 * surround the origin of a body that holds it well inside, whatever its symmetry. */
static int ov_frames(ov_ctx *c)
{
    /* The tetrahedron's directions (+,+,+), (+,-,-), (-,+,-), (-,-,+), each frame turned
     * by a different rotation with no axis along a body axis of common shapes. */
    static const double rot[3][9] = {
        {0.9362934, -0.2896295, 0.1986693, 0.3129918, 0.9447025, -0.0978434, -0.1593451, 0.1537920, 0.9751703},
        {0.8678192, 0.3735808, -0.3275234, -0.2829278, 0.9210587, 0.2675352, 0.4015934, -0.1101723, 0.9091665},
        {0.7071068, -0.5000000, 0.5000000, 0.7071068, 0.5000000, -0.5000000, 0.0000000, 0.7071068, 0.7071068},
    };
    static const double tet[4][3] = {{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};
    for (int f = 0; f < 3; f++) {
        col_vec3 w[4];
        for (int k = 0; k < 4; k++) {
            const double *r = rot[f], *t = tet[k];
            col_vec3 d = col_v3(r[0] * t[0] + r[1] * t[1] + r[2] * t[2], r[3] * t[0] + r[4] * t[1] + r[5] * t[2],
                                r[6] * t[0] + r[7] * t[1] + r[8] * t[2]);
            w[k] = ov_support(c, d);
        }
        if (col_origin_in_tetra(w[0], w[1], w[2], w[3])) return 1;
    }
    return 0;
}

int col_np_prove_overlap(const col_hull *a, const col_xform *xa, const col_hull *b, const col_xform *xb)
{
    ov_ctx c = {a, b, xa, xb, 0, 0, 0};
    col_vec3 ca = col_xform_point(xa, a->centroid), cb = col_xform_point(xb, b->centroid);
    /* The pair's extent sets the search's scale: cross products of cross products are
     * cubes of it, which underflow for tiny shapes (issue 13, finding 3). */
    double ext = a->radius + b->radius + col_max_abs(col_sub(cb, ca));
    if (!(ext > 0.0) || !isfinite(ext)) return 0;
    frexp(ext, &c.e);
    col_vec3 d = col_sub(ca, cb); /* from B towards A: the first support heads for the origin */
    if (!(col_max_abs(d) > 0.0)) d = col_v3(1.0, 0.0, 0.0);
    col_vec3 s[4], p[4]; /* newest first: the true differences, and scaled by 2^-e */
    int n = 1;
    s[0] = ov_support(&c, col_pow2_unit(d, NULL));
    p[0] = ov_scaled(&c, s[0]);
    d = col_neg(p[0]);
    for (int step = 0; step < OV_MAX_STEPS; step++) {
        d = col_pow2_unit(d, NULL);
        if (!(col_max_abs(d) > 0.0) || !isfinite(col_max_abs(d))) break; /* the origin on the simplex */
        col_vec3 w = ov_support(&c, d), ws = ov_scaled(&c, w);
        /* No difference beyond the origin along d: the origin is not strictly inside. */
        if (!(col_dot(ws, d) > 0.0)) return 0;
        for (int k = n; k > 0; k--) {
            s[k] = s[k - 1];
            p[k] = p[k - 1];
        }
        s[0] = w;
        p[0] = ws;
        n++;
        if (!ov_simplex(s, p, &n, &d)) continue;
        if (col_origin_in_tetra(s[0], s[1], s[2], s[3])) return 1;
        break; /* inside as computed, on or near a face: not proven this way */
    }
    return ov_frames(&c);
}

/* The bound, for a hull of radius r (the largest computed |v| of its local vertices) at a
 * pose (R, p) whose matrix is within 2e-14 of a rotation in the 2-norm (lib/schedule.c
 * derives it: unit quaternions to 8 ulps, the formula of docs/scenes.md): a world vertex
 * w = fl(fl(R v) + p) lies within
 *   |R v| <= (1 + 2e-14)(1 + 3 eps) r                (the norm, |v| <= r (1 + 3 eps))
 *   + 9 eps r                                        (three 3-term dot products, fl(R v))
 *   + sqrt 3 eps (1.01 r + |p|_inf)                  (the sum with p, per coordinate)
 * of p, all below r + 1e-12 (r + |p|_inf) =: r + s. So the hull is in the ball B(p, r + s),
 * and two such balls whose centres lie farther apart than the sum of their radii are
 * disjoint. The computed centre distance L = fl(|fl(pb - pa)|) is within 5 eps L of the
 * exact |pb - pa| (one rounding per coordinate of the difference, three of the sum of
 * squares, one of the square root), and the computed axis u = fl(d / L) is within 5 eps of
 * the exact unit vector d / |d| (hence u.(pb - pa) >= (1 - 1e-14) L and |u| <= 1 + 1e-14).
 * Along u: min_B u.b - max_A u.a >= u.(pb - pa) - |u| (ra + sa + rb + sb)
 *   >= (1 - 1e-14) L - (1 + 1e-14)(ra + rb + sa + sb);
 * the factors 1e-12 below cover every one of these terms many times over. */
double col_np_ball_gap(double ra, const col_xform *xa, double rb, const col_xform *xb, col_vec3 *axis)
{
    col_vec3 d = col_sub(xb->p, xa->p);
    double l = col_len(d);
    double reach = (ra + rb + 1e-12 * (ra + rb + col_max_abs(xa->p) + col_max_abs(xb->p))) * (1.0 + 1e-12);
    double gap = l * (1.0 - 1e-12) - reach;
    if (!(gap > 0.0)) return 0.0;
    *axis = col_scale(d, 1.0 / l);
    return gap;
}

static double clamp(double x, double lo, double hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

/* For any axis u, any matrix R (no orthogonality needed) and every vertex v of A (inside
 * its local box [lo, hi], which is exact: the min and max of the vertices),
 *   u.(R v + pa) = (R^T u).v + u.pa <= h(R^T u) + u.pa,  h(t) = sum_i max(t_i lo_i, t_i hi_i),
 * the box's support function; and every world vertex of B lies within rb + 1e-12 (rb +
 * |pb|_inf) of pb (col_np_ball_gap). So along u
 *   min_B u.b - max_A u.a >= u.(pb - pa) - h(R^T u) - |u| rb - (the roundings),
 * the roundings being those of A's world vertices (a few eps (ra + |pa|_inf)), of B's
 * bound, of d = pb - pa (eps |d_i| each) and u.d (3 eps |u| |d|_1), of t = R^T u (3 eps
 * per component, |R| entries <= 1 + 1e-13) and of h (3 eps |t|_1 max |box|): each a few
 * eps of one of the magnitudes summed in mag below, which 1e-12 mag covers hundreds of
 * times over. u is any direction; the one from the box's nearest point to B's origin
 * (the local e = c - clamp(c), turned to the world) makes the gap that of the box and the
 * ball up to rounding. */
double col_np_box_ball_gap(const col_hull *a, const col_xform *xa, double rb, const col_xform *xb, col_vec3 *axis)
{
    col_vec3 lo = a->aabb_min, hi = a->aabb_max;
    col_vec3 d = col_sub(xb->p, xa->p);
    col_vec3 c = col_mat3_tmul(&xa->R, d);
    col_vec3 e = col_v3(c.x - clamp(c.x, lo.x, hi.x), c.y - clamp(c.y, lo.y, hi.y), c.z - clamp(c.z, lo.z, hi.z));
    col_vec3 w = col_mat3_mul(&xa->R, e);
    double wl = col_len(w);
    if (!(wl > 0.0) || !isfinite(wl)) return 0.0;
    col_vec3 u = col_scale(w, 1.0 / wl);
    col_vec3 t = col_mat3_tmul(&xa->R, u);
    double h = fmax(t.x * lo.x, t.x * hi.x) + fmax(t.y * lo.y, t.y * hi.y) + fmax(t.z * lo.z, t.z * hi.z);
    double raw = col_dot(u, d) - h - rb * (1.0 + 1e-12);
    double box = fmax(col_max_abs(lo), col_max_abs(hi));
    double mag = 3.0 * col_max_abs(d) + (fabs(t.x) + fabs(t.y) + fabs(t.z)) * box + a->radius + rb +
                 col_max_abs(xa->p) + col_max_abs(xb->p);
    double gap = (raw - 1e-12 * mag) * (1.0 - 1e-12);
    if (!(gap > 0.0)) return 0.0;
    *axis = u;
    return gap;
}
