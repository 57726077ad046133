/* SPDX-License-Identifier: MIT */
/* The exact narrow phase of rounded pieces (rounded.h; the proofs in docs/rounded.md).
 *
 * Notation: A, B the world core points col_xform_point(x, p) (exact doubles, the
 * truth); D = {b - a} their differences, whose hull is conv(B) - conv(A); R = ra + rb.
 * The pieces collide iff dist(0, conv D) <= R.
 *
 * Three stages, each a proof:
 * 1. GJK (Gilbert, Johnson & Keerthi, IEEE J. Robotics and Automation 4(2), 1988) on D in
 *    double, scaled by one power of two to the pair's extent so that squares neither
 *    underflow nor overflow, gives a simplex of up to four differences, their weights and
 *    the closest point v.
 * 2. Filters in double with proven rounding bounds: separated when the unit axis along v
 *    gives a positive gap over EVERY core point (a scan, never a climb:
 *    docs/certificates.md); colliding when the weighted point of the simplex is within R
 *    (or four differences surround the origin, certify.h's col_origin_in_tetra).
 * 3. Exact, in expansion arithmetic (Shewchuk 1997; narrowphase/expansion.h), on
 *    candidate feature pairs taken from the simplex: a point, segment or triangle of A
 *    against one of B, at most two edge vectors in all. For each, the exact projection of
 *    the origin on the affine hull of the Minkowski feature; if it lies in the feature
 *    (exact signs) and within R of the origin: colliding; if instead the exact direction
 *    of that projection has min over D of s.d > R |s| (over every point, exactly):
 *    separated. The closest point of conv D lies in the relative interior of such a
 *    feature (the distance of two polytopes is attained between a vertex and a triangle
 *    or two edges: Ericson, Real-Time Collision Detection, 2005, section 5.1 and 9.5), so
 *    when the simplex holds the right feature one of the two proofs succeeds. When it
 *    does not, the nearest in-feature candidate's exact support point joins the
 *    candidates (an exact GJK step, XP_ROUNDS rounds); cores overlapping by less than
 *    their rounding are proven by exact origin-in-tetrahedron tests; a pair still
 *    undecided is answered colliding (fallbacks = 2). */
#include "narrowphase/rounded.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "lib/core/exact.h"
#include "narrowphase/certify.h"
#include "narrowphase/expansion.h"

#define GJK_MAX_ITER 64
/* GJK stops when |v|^2 - v.w <= GJK_REL_TOL |v|^2 (Gilbert's criterion): the lower bound
 * v.w / |v| is then within GJK_REL_TOL / 2 of the upper bound |v|. */
#define GJK_REL_TOL 1e-13
/* Exact path: inputs scaled to the pair's extent must have no component below this
 * (relative to the extent), so that products of up to eight factors keep their error
 * terms in the normal range (expansion.h). */
#define XP_MIN_COMPONENT 0x1p-120
#define XP_ROUNDS 8
/* At most this many points of each body among the exact candidates. */
#define XP_SET_MAX 6
/* At most this many differences in the tetrahedron tests. */
#define XP_TETRA_POINTS 16

/* ---- points and supports ---- */

static col_vec3 wpt(const col_core *c, const col_xform *x, int i) { return col_xform_point(x, c->points[i]); }

/* Index maximising d . p over the core's world points (approximately: through the local
 * frame; GJK needs no more, every certificate scans the world points itself). */
static int support(const col_core *c, const col_xform *x, col_vec3 d)
{
    col_vec3 u = col_mat3_tmul(&x->R, d);
    int best = 0;
    double bv = -INFINITY;
    for (int i = 0; i < c->count; i++) {
        col_vec3 p = c->points[i];
        double t = u.x * p.x + u.y * p.y + u.z * p.z;
        if (t > bv) {
            bv = t;
            best = i;
        }
    }
    return best;
}

static double local_radius(const col_core *c)
{
    if (c->hull != NULL) return c->hull->radius;
    double r = 0.0;
    for (int i = 0; i < c->count; i++) {
        double l = col_len(c->points[i]);
        r = l > r ? l : r;
    }
    return r;
}

/* The pair's extent: a power of two 2^e above every |component| of b - a (generously:
 * the poses' distance plus both radii about the local origins), so that the scaled
 * differences are at most about 1. */
static int pair_exponent(const col_core *a, const col_xform *xa, const col_core *b, const col_xform *xb)
{
    double ext = col_max_abs(col_sub(xb->p, xa->p)) + 1.01 * (local_radius(a) + local_radius(b));
    int e = 0;
    if (ext > 0.0 && isfinite(ext)) frexp(ext, &e);
    return e;
}

/* ---- GJK on the scaled differences ---- */

typedef struct simplex {
    int n;
    col_vec3 d[4];    /* fl(b - a) * 2^-e */
    int ia[4], ib[4];
    double lam[4];    /* weights of the closest point, >= 0, summing to about 1 */
} simplex;

static col_vec3 scaled_diff(const col_core *a, const col_xform *xa, int ia, const col_core *b, const col_xform *xb,
                            int ib, int e)
{
    col_vec3 d = col_sub(wpt(b, xb, ib), wpt(a, xa, ia));
    return col_v3(ldexp(d.x, -e), ldexp(d.y, -e), ldexp(d.z, -e));
}

static double det3(col_vec3 a, col_vec3 b, col_vec3 c) { return col_dot(a, col_cross(b, c)); }

/* Affine weights of the origin's projection on the points p[idx[0..k)]; 0 if degenerate
 * or some weight is not positive. */
static int affine_weights(const col_vec3 *p, const int *idx, int k, double *w)
{
    if (k == 1) {
        w[0] = 1.0;
        return 1;
    }
    col_vec3 p0 = p[idx[0]];
    if (k == 2) {
        col_vec3 e = col_sub(p[idx[1]], p0);
        double ee = col_len2(e);
        if (!(ee > 0.0)) return 0;
        double t = -col_dot(p0, e) / ee;
        w[0] = 1.0 - t;
        w[1] = t;
    } else if (k == 3) {
        col_vec3 e1 = col_sub(p[idx[1]], p0), e2 = col_sub(p[idx[2]], p0);
        double nn = col_len2(col_cross(e1, e2));
        if (!(nn > 0.0)) return 0;
        double g11 = col_len2(e1), g12 = col_dot(e1, e2), g22 = col_len2(e2);
        double r1 = -col_dot(p0, e1), r2 = -col_dot(p0, e2);
        double t1 = (g22 * r1 - g12 * r2) / nn, t2 = (g11 * r2 - g12 * r1) / nn;
        w[0] = 1.0 - t1 - t2;
        w[1] = t1;
        w[2] = t2;
    } else {
        col_vec3 e1 = col_sub(p[idx[1]], p0), e2 = col_sub(p[idx[2]], p0), e3 = col_sub(p[idx[3]], p0);
        double vol = det3(e1, e2, e3);
        if (!(fabs(vol) > 0.0)) return 0;
        col_vec3 m = col_neg(p0);
        double t1 = det3(m, e2, e3) / vol, t2 = det3(e1, m, e3) / vol, t3 = det3(e1, e2, m) / vol;
        w[0] = 1.0 - t1 - t2 - t3;
        w[1] = t1;
        w[2] = t2;
        w[3] = t3;
    }
    for (int i = 0; i < k; i++)
        if (!(w[i] > 0.0)) return 0;
    return 1;
}

/* Reduces s to the face of its hull nearest the origin (the smallest |v| over the
 * subsets whose projection has positive weights: every such point lies in the hull,
 * and the nearest point's face is among them), fills the weights and returns v. */
static col_vec3 closest_on_simplex(simplex *s)
{
    double best = INFINITY, bw[4] = {0};
    int bmask = 1;
    col_vec3 bv = s->d[0];
    for (int mask = 1; mask < (1 << s->n); mask++) {
        int idx[4] = {0, 0, 0, 0}, k = 0;
        for (int i = 0; i < s->n; i++)
            if (mask & (1 << i)) idx[k++] = i;
        double w[4];
        if (!affine_weights(s->d, idx, k, w)) continue;
        col_vec3 v = col_v3(0, 0, 0);
        if (k < 4)
            for (int i = 0; i < k; i++) v = col_add(v, col_scale(s->d[idx[i]], w[i]));
        double l2 = col_len2(v);
        if (l2 < best) {
            best = l2;
            bmask = mask;
            bv = v;
            memcpy(bw, w, sizeof bw);
        }
    }
    simplex r;
    r.n = 0;
    for (int i = 0, k = 0; i < s->n; i++)
        if (bmask & (1 << i)) {
            r.d[r.n] = s->d[i];
            r.ia[r.n] = s->ia[i];
            r.ib[r.n] = s->ib[i];
            r.lam[r.n] = bw[k++];
            r.n++;
        }
    *s = r;
    return bv;
}

/* GJK; returns the closest point v of the final simplex (scaled by 2^-e). */
static col_vec3 gjk(const col_core *a, const col_xform *xa, const col_core *b, const col_xform *xb, int e, simplex *s,
                    int *iterations)
{
    s->n = 1;
    s->ia[0] = 0;
    s->ib[0] = 0;
    s->lam[0] = 1.0;
    s->d[0] = scaled_diff(a, xa, 0, b, xb, 0, e);
    col_vec3 v = s->d[0];
    double v2 = col_len2(v);
    int it = 0;
    while (it < GJK_MAX_ITER && v2 > 0.0) {
        it++;
        int ia = support(a, xa, v), ib = support(b, xb, col_neg(v));
        col_vec3 w = scaled_diff(a, xa, ia, b, xb, ib, e);
        if (v2 - col_dot(v, w) <= GJK_REL_TOL * v2) break;
        int dup = 0;
        for (int i = 0; i < s->n; i++) dup |= s->ia[i] == ia && s->ib[i] == ib;
        if (dup) break;
        simplex t = *s;
        t.d[t.n] = w;
        t.ia[t.n] = ia;
        t.ib[t.n] = ib;
        t.n++;
        col_vec3 nv = closest_on_simplex(&t);
        double n2 = col_len2(nv);
        if (t.n == 4) { /* the origin inside the tetrahedron */
            *s = t;
            v = col_v3(0, 0, 0);
            v2 = 0.0;
            break;
        }
        if (!(n2 < v2)) break; /* no progress in double: keep the best simplex */
        *s = t;
        v = nv;
        v2 = n2;
    }
    *iterations = it;
    return v;
}

/* A unit vector perpendicular to a non-zero u. */
static col_vec3 any_perpendicular(col_vec3 u)
{
    col_vec3 t = fabs(u.x) <= fabs(u.y) && fabs(u.x) <= fabs(u.z) ? col_v3(1, 0, 0)
                 : fabs(u.y) <= fabs(u.z)                         ? col_v3(0, 1, 0)
                                                                  : col_v3(0, 0, 1);
    col_vec3 r;
    if (!col_unit_robust(col_cross(u, t), &r)) r = col_v3(1, 0, 0);
    return r;
}

/* ---- the double filters ---- */

/* Colliding: the point sum lam_k d_k / sum lam_k lies in conv D; proven within R.
 * Rounding: each d_k carries u per component (one subtraction; the power-of-two scale is
 * exact), the weighted sum gamma_4 more, so |N* - fl(N)|_c <= 12 u sum lam |d_c| (with
 * slack) plus underflow; the weights' sum is within 3 u; R scaled within one rounding. */
static int proven_within(const simplex *s, double rs)
{
    if (s->n == 4 && col_origin_in_tetra(s->d[0], s->d[1], s->d[2], s->d[3])) return 1;
    col_vec3 num = col_v3(0, 0, 0), abs_sum = col_v3(0, 0, 0);
    double lsum = 0.0;
    for (int k = 0; k < s->n; k++) {
        double l = s->lam[k] > 0.0 ? s->lam[k] : 0.0;
        num = col_add(num, col_scale(s->d[k], l));
        abs_sum = col_add(abs_sum, col_scale(col_v3(fabs(s->d[k].x), fabs(s->d[k].y), fabs(s->d[k].z)), l));
        lsum += l;
    }
    if (!(lsum > 0.0)) return 0;
    double c = 12.0 * COL_U, z = 8.0 * COL_UNDERFLOW_ERR;
    col_vec3 up = col_v3(fabs(num.x) + c * abs_sum.x + z, fabs(num.y) + c * abs_sum.y + z,
                         fabs(num.z) + c * abs_sum.z + z);
    double lhs = col_len(up) * (1.0 + 8.0 * DBL_EPSILON);
    double rhs = (rs * (1.0 - 2.0 * DBL_EPSILON) - 2.0 * COL_UNDERFLOW_ERR) * lsum * (1.0 - 8.0 * DBL_EPSILON);
    return lhs <= rhs;
}

/* Separated: the certified gap along the axis s (|s| <= 1 + 4 eps) over every world core
 * point, centred at c so that the bound grows with the pair's extent and not with its
 * distance from the origin: each centred point carries u |p - c| per component and the
 * dot product gamma_3 (certify.c's world bound, 10 u |s|_1 ext for both bodies), the
 * subtractions of the gap and of R |s| one rounding each. Returns the certified gap
 * (<= 0: not certified) and the extreme indices. */
static double certified_gap(const col_core *a, const col_xform *xa, const col_core *b, const col_xform *xb,
                            col_vec3 s, double r, int *ia, int *ib)
{
    col_vec3 c = wpt(a, xa, 0);
    double hi = -INFINITY, lo = INFINITY, ext = 0.0;
    for (int i = 0; i < a->count; i++) {
        col_vec3 d = col_sub(wpt(a, xa, i), c);
        double t = col_dot(s, d), m = col_max_abs(d);
        if (t > hi) {
            hi = t;
            *ia = i;
        }
        ext = m > ext ? m : ext;
    }
    for (int i = 0; i < b->count; i++) {
        col_vec3 d = col_sub(wpt(b, xb, i), c);
        double t = col_dot(s, d), m = col_max_abs(d);
        if (t < lo) {
            lo = t;
            *ib = i;
        }
        ext = m > ext ? m : ext;
    }
    double rup = r * (1.0 + 4.0 * DBL_EPSILON) * (1.0 + 2.0 * DBL_EPSILON);
    double g = lo - hi;
    double raw = g - rup;
    double s1 = fabs(s.x) + fabs(s.y) + fabs(s.z);
    double bound = 10.0 * COL_U * s1 * ext + 2.0 * DBL_EPSILON * (fabs(g) + rup) + 4.0 * COL_UNDERFLOW_ERR;
    double cert = raw - bound;
    /* divided by |s|'s bound L = 1 + 4 eps (times 1 - 8 eps), so that also
     * gap <= (min s.b - max s.a) / |s| - R <= dist - R */
    return cert > 0.0 ? cert * (1.0 - 8.0 * DBL_EPSILON) : cert;
}

/* ---- the exact stage ---- */

typedef struct xvec {
    col_xp c[3];
} xvec;

typedef struct exact_ctx {
    const col_core *a, *b;
    const col_xform *xa, *xb;
    int e;
    bool bad;          /* an input could not be represented exactly (XP_MIN_COMPONENT) */
    col_xp r, r2;      /* R 2^-e and its square */
    col_vec3 centre;   /* world point a0: the separation tests run on p - centre */
    int ext_a, ext_b;  /* extreme indices of the last exact separation test */
} exact_ctx;

/* x = (p - q) 2^-e exactly, or ctx->bad. */
static void xp_scaled_diff(exact_ctx *ctx, col_xp *x, double p, double q)
{
    col_xp_diff(x, p, q);
    for (int i = 0; i < x->n; i++) {
        double t = ldexp(x->t[i], -ctx->e);
        if (ldexp(t, ctx->e) != x->t[i] || fabs(t) < XP_MIN_COMPONENT) ctx->bad = true;
        x->t[i] = t;
    }
}

static void xv_diff(exact_ctx *ctx, xvec *out, col_vec3 p, col_vec3 q)
{
    xp_scaled_diff(ctx, &out->c[0], p.x, q.x);
    xp_scaled_diff(ctx, &out->c[1], p.y, q.y);
    xp_scaled_diff(ctx, &out->c[2], p.z, q.z);
}

static void xv_dot(col_xp *out, const xvec *x, const xvec *y)
{
    col_xp p, q, s;
    col_xp_mul(&p, &x->c[0], &y->c[0]);
    col_xp_mul(&q, &x->c[1], &y->c[1]);
    col_xp_add(&s, &p, &q);
    col_xp_mul(&p, &x->c[2], &y->c[2]);
    col_xp_add(out, &s, &p);
}

static void xv_cross(xvec *out, const xvec *x, const xvec *y)
{
    col_xp p, q;
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3, k = (i + 2) % 3;
        col_xp_mul(&p, &x->c[j], &y->c[k]);
        col_xp_mul(&q, &x->c[k], &y->c[j]);
        col_xp_sub(&out->c[i], &p, &q);
    }
}

static bool xv_bad(const xvec *x) { return x->c[0].bad || x->c[1].bad || x->c[2].bad; }
static bool xv_zero(const xvec *x) { return x->c[0].n == 0 && x->c[1].n == 0 && x->c[2].n == 0; }

/* sign(x - y) */
static int xp_cmp(const col_xp *x, const col_xp *y, bool *bad)
{
    col_xp d;
    col_xp_sub(&d, x, y);
    *bad |= d.bad;
    return col_xp_sign(&d);
}

/* The approximate projections of a filter pass: sd = the direction s rounded and scaled
 * by a power of two to about unit size (the order of the projections is unchanged), and
 * the bound on |t - exact| of one projection t = sd.fl(p - c) 2^-e: the components of sd
 * carry (n + 1) eps from summing an expansion of n components and the power of two, the
 * difference u, the dot product gamma_3; 2 (n + 6) eps covers them, plus underflow. */
typedef struct approx_dir {
    col_vec3 sd;
    double rel;
} approx_dir;

static approx_dir approx_of(const xvec *s)
{
    approx_dir d;
    int n = 0;
    for (int k = 0; k < 3; k++) n = s->c[k].n > n ? s->c[k].n : n;
    d.sd = col_pow2_unit(col_v3(col_xp_approx(&s->c[0]), col_xp_approx(&s->c[1]), col_xp_approx(&s->c[2])), NULL);
    d.rel = 2.0 * (double)(n + 6) * DBL_EPSILON;
    return d;
}

static double approx_proj(const exact_ctx *ctx, const approx_dir *d, col_vec3 p, double *err)
{
    col_vec3 q = col_sub(p, ctx->centre);
    q = col_v3(ldexp(q.x, -ctx->e), ldexp(q.y, -ctx->e), ldexp(q.z, -ctx->e));
    *err = d->rel * (fabs(d->sd.x * q.x) + fabs(d->sd.y * q.y) + fabs(d->sd.z * q.z)) + 8.0 * COL_UNDERFLOW_ERR;
    return col_dot(d->sd, q);
}

/* The exact extreme of s.(p - c) over one core (max if sign = 1, min if -1): a double
 * pass keeps only the points whose projection may be the extreme (within the bound of
 * approx_proj), and those are evaluated exactly. Returns the index, *val the value. */
static int exact_extreme(exact_ctx *ctx, const col_core *c, const col_xform *x, const xvec *s, const approx_dir *d,
                         double sign, col_xp *val, bool *bad)
{
    double cut = -INFINITY, err;
    for (int i = 0; i < c->count; i++) {
        double t = sign * approx_proj(ctx, d, wpt(c, x, i), &err);
        cut = t - err > cut ? t - err : cut;
    }
    int best = -1;
    col_xp t;
    xvec p;
    for (int i = 0; i < c->count; i++) {
        double a = sign * approx_proj(ctx, d, wpt(c, x, i), &err);
        if (!(a + err >= cut)) continue;
        xv_diff(ctx, &p, wpt(c, x, i), ctx->centre);
        xv_dot(&t, s, &p);
        if (best < 0 || sign * (double)xp_cmp(&t, val, bad) > 0) {
            *val = t;
            best = i;
        }
    }
    if (best < 0) { /* a non-finite projection: no point passed the cut */
        *bad = true;
        best = 0;
        val->n = 0;
        val->bad = true;
    }
    return best;
}

/* g = min over B of s.(b - c) - max over A of s.(a - c) over every core point, exactly
 * (scaled by 2^-e; the centre c cancels). Returns 0, or -1 if the arithmetic gave up. */
static int exact_support_gap(exact_ctx *ctx, const xvec *s, col_xp *g)
{
    bool bad = false;
    col_xp hi, lo;
    approx_dir d = approx_of(s);
    ctx->ext_a = exact_extreme(ctx, ctx->a, ctx->xa, s, &d, 1.0, &hi, &bad);
    ctx->ext_b = exact_extreme(ctx, ctx->b, ctx->xb, s, &d, -1.0, &lo, &bad);
    col_xp_sub(g, &lo, &hi);
    return g->bad || bad || ctx->bad ? -1 : 0;
}

/* Exact separation along s: with G the support gap above, separated iff G > 0 and
 * G^2 > R^2 |s|^2 (then dist >= G / |s| > R). Returns 1 if proven, 0 if not, -1 if the
 * arithmetic gave up. */
static int exact_separated(exact_ctx *ctx, const xvec *s)
{
    col_xp g, g2, s2, rs2, d;
    if (exact_support_gap(ctx, s, &g) < 0) return -1;
    if (col_xp_sign(&g) <= 0) return 0;
    col_xp_mul(&g2, &g, &g);
    xv_dot(&s2, s, s);
    col_xp_mul(&rs2, &ctx->r2, &s2);
    col_xp_sub(&d, &g2, &rs2);
    if (d.bad) return -1;
    return col_xp_sign(&d) > 0;
}

/* The contract's gap along a double axis s, exactly: min s.b - max s.a - ra - rb rounded
 * down to a double, or 0 when it is not positive (or not representable above the
 * subnormal range). For pairs the double filter leaves in the exact band. */
static double exact_axis_gap(exact_ctx *ctx, col_vec3 s)
{
    xvec sv;
    col_xp_set(&sv.c[0], s.x);
    col_xp_set(&sv.c[1], s.y);
    col_xp_set(&sv.c[2], s.z);
    col_xp g, v;
    ctx->bad = false;
    if (exact_support_gap(ctx, &sv, &g) < 0) return 0.0;
    /* V = G - R L with L = 1 + 4 eps >= |s| (col_unit_robust), and the gap V / L: then
     * both G - R >= gap and gap <= G / |s| - R <= dist - R hold */
    col_xp rl;
    col_xp_scale(&rl, &ctx->r, 1.0 + 4.0 * DBL_EPSILON);
    col_xp_sub(&v, &g, &rl);
    if (v.bad || col_xp_sign(&v) <= 0) return 0.0;
    /* the sum of n non-overlapping components, smallest first, is within (n + 1) eps of
     * the value: scaled down by more than that and by 1 / L, then by 2^e (exact in the
     * normal range) */
    double x = col_xp_approx(&v) * (1.0 - 4.0 * (double)(v.n + 3) * DBL_EPSILON);
    x = ldexp(x, ctx->e);
    return x >= DBL_MIN ? x : 0.0;
}

/* One candidate feature pair: A points ia[0..na), B points ib[0..nb), at most two edge
 * vectors in all. The Minkowski feature is w + span(edges) with w = b0 - a0, edges
 * b_k - b0 and a0 - a_k (2-term expansions: differences of doubles). Returns 1
 * colliding proven, -1 separated proven (*sdir the exact direction), 0 neither. */
static int exact_candidate(exact_ctx *ctx, const int *ia, int na, const int *ib, int nb, xvec *sdir, bool *gave_up,
                           double *approx_d2)
{
    xvec w, e[2];
    int from_a[2], q = 0;
    col_vec3 a0 = wpt(ctx->a, ctx->xa, ia[0]), b0 = wpt(ctx->b, ctx->xb, ib[0]);
    ctx->bad = false;
    xv_diff(ctx, &w, b0, a0);
    for (int k = 1; k < na; k++) {
        xv_diff(ctx, &e[q], a0, wpt(ctx->a, ctx->xa, ia[k]));
        from_a[q++] = 1;
    }
    for (int k = 1; k < nb; k++) {
        xv_diff(ctx, &e[q], wpt(ctx->b, ctx->xb, ib[k]), b0);
        from_a[q++] = 0;
    }
    if (ctx->bad) {
        *gave_up = true;
        return 0;
    }
    col_xp d2, t, u, v;
    bool in_conv = true;
    if (q == 0) {
        xv_dot(&d2, &w, &w); /* |p|^2 */
        *sdir = w;
        col_xp_sub(&t, &d2, &ctx->r2);
        if (t.bad) goto gave;
        if (col_xp_sign(&t) <= 0) return 1;
        if (xv_zero(&w)) return 0;
        *approx_d2 = col_xp_approx(&d2);
    } else if (q == 1) {
        col_xp ee, we;
        xv_dot(&ee, &e[0], &e[0]);
        xv_dot(&we, &w, &e[0]);
        col_xp_negate(&we); /* te = -(w.e) = t ee */
        if (ee.bad || we.bad) goto gave;
        if (col_xp_sign(&ee) <= 0) return 0;
        col_xp_sub(&t, &ee, &we);
        in_conv = col_xp_sign(&we) >= 0 && col_xp_sign(&t) >= 0;
        xvec c;
        xv_cross(&c, &e[0], &w);
        xv_dot(&d2, &c, &c); /* |p|^2 ee */
        col_xp_mul(&u, &ctx->r2, &ee);
        col_xp_sub(&v, &d2, &u);
        if (v.bad || xv_bad(&c)) goto gave;
        if (in_conv && col_xp_sign(&v) <= 0) return 1;
        if (!in_conv) return 0;
        *approx_d2 = col_xp_approx(&d2) / col_xp_approx(&ee);
        for (int i = 0; i < 3; i++) { /* s = w ee + e te = ee p */
            col_xp_mul(&t, &w.c[i], &ee);
            col_xp_mul(&u, &e[0].c[i], &we);
            col_xp_add(&sdir->c[i], &t, &u);
        }
        if (xv_bad(sdir)) goto gave;
        if (xv_zero(sdir)) return 0;
    } else {
        xvec n;
        xv_cross(&n, &e[0], &e[1]);
        if (xv_bad(&n)) goto gave;
        if (xv_zero(&n)) return 0;
        col_xp nn, nw, g11, g12, g22, r1, r2, T1, T2;
        xv_dot(&nn, &n, &n);
        xv_dot(&nw, &n, &w);
        xv_dot(&g11, &e[0], &e[0]);
        xv_dot(&g12, &e[0], &e[1]);
        xv_dot(&g22, &e[1], &e[1]);
        xv_dot(&r1, &w, &e[0]);
        xv_dot(&r2, &w, &e[1]);
        col_xp_negate(&r1);
        col_xp_negate(&r2);
        /* T1 = t1 nn, T2 = t2 nn: the projection w + t1 e1 + t2 e2 (Cramer on the Gram
         * matrix, whose determinant is |e1 x e2|^2 exactly). */
        col_xp_mul(&t, &g22, &r1);
        col_xp_mul(&u, &g12, &r2);
        col_xp_sub(&T1, &t, &u);
        col_xp_mul(&t, &g11, &r2);
        col_xp_mul(&u, &g12, &r1);
        col_xp_sub(&T2, &t, &u);
        if (T1.bad || T2.bad || nw.bad || nn.bad) goto gave;
        if (from_a[0] == from_a[1]) { /* a triangle of one body: t1, t2 >= 0, t1 + t2 <= 1 */
            col_xp_add(&t, &T1, &T2);
            col_xp_sub(&u, &nn, &t);
            in_conv = col_xp_sign(&T1) >= 0 && col_xp_sign(&T2) >= 0 && col_xp_sign(&u) >= 0;
        } else { /* two segments: both parameters in [0, 1] */
            col_xp_sub(&t, &nn, &T1);
            col_xp_sub(&u, &nn, &T2);
            in_conv = col_xp_sign(&T1) >= 0 && col_xp_sign(&T2) >= 0 && col_xp_sign(&t) >= 0 &&
                      col_xp_sign(&u) >= 0;
        }
        if (!in_conv) return 0;
        col_xp_mul(&d2, &nw, &nw); /* |p|^2 nn */
        col_xp_mul(&u, &ctx->r2, &nn);
        col_xp_sub(&v, &d2, &u);
        if (v.bad) goto gave;
        if (col_xp_sign(&v) <= 0) return 1;
        *approx_d2 = col_xp_approx(&d2) / col_xp_approx(&nn);
        *sdir = n;
        if (col_xp_sign(&nw) < 0)
            for (int i = 0; i < 3; i++) col_xp_negate(&sdir->c[i]);
    }
    int r = exact_separated(ctx, sdir);
    if (r < 0) goto gave;
    return r ? -1 : 0;
gave:
    *gave_up = true;
    return 0;
}

/* det(x, y, z) exactly. */
static void xv_det(col_xp *out, const xvec *x, const xvec *y, const xvec *z)
{
    xvec c;
    xv_cross(&c, y, z);
    xv_dot(out, x, &c);
}

/* The origin in the closed tetrahedron of four differences b - a (exact): the cofactor
 * weights of det(m1,m2,m3) m0 - det(m0,m2,m3) m1 + det(m0,m1,m3) m2 - det(m0,m1,m2) m3 = 0
 * all of one sign and not all zero (col_origin_in_tetra's identity, decided exactly, so
 * that it also proves an overlap of the cores by less than their rounding). Returns 1 if
 * proven, 0 if not, -1 if the arithmetic gave up. */
static int exact_origin_in_tetra(exact_ctx *ctx, const int *ia, const int *ib)
{
    xvec m[4];
    ctx->bad = false;
    for (int k = 0; k < 4; k++) xv_diff(ctx, &m[k], wpt(ctx->b, ctx->xb, ib[k]), wpt(ctx->a, ctx->xa, ia[k]));
    if (ctx->bad) return -1;
    col_xp mu[4];
    xv_det(&mu[0], &m[1], &m[2], &m[3]);
    xv_det(&mu[1], &m[0], &m[2], &m[3]);
    col_xp_negate(&mu[1]);
    xv_det(&mu[2], &m[0], &m[1], &m[3]);
    xv_det(&mu[3], &m[0], &m[1], &m[2]);
    col_xp_negate(&mu[3]);
    int pos = 0, neg = 0;
    for (int k = 0; k < 4; k++) {
        if (mu[k].bad) return -1;
        pos += col_xp_sign(&mu[k]) > 0;
        neg += col_xp_sign(&mu[k]) < 0;
    }
    return (pos == 0 || neg == 0) && pos + neg > 0;
}

static int add_unique(int *list, int *n, int v)
{
    for (int i = 0; i < *n; i++)
        if (list[i] == v) return 0;
    if (*n >= XP_SET_MAX) return 0;
    list[(*n)++] = v;
    return 1;
}

/* Differences b - a by index pairs, for the tetrahedron tests. */
typedef struct dpoints {
    int ia[XP_TETRA_POINTS], ib[XP_TETRA_POINTS], n;
} dpoints;

static int dp_add(dpoints *dp, int ia, int ib)
{
    for (int k = 0; k < dp->n; k++)
        if (dp->ia[k] == ia && dp->ib[k] == ib) return 0;
    if (dp->n >= XP_TETRA_POINTS) return 0;
    dp->ia[dp->n] = ia;
    dp->ib[dp->n++] = ib;
    return 1;
}

/* The tetrahedra of dp with at least one point of index >= from: 1 if one holds the
 * origin (proven exactly). */
static int dp_tetrahedra(exact_ctx *ctx, const dpoints *dp, int from)
{
    for (int l = 3; l < dp->n; l++)
        for (int k = 2; k < l; k++)
            for (int j = 1; j < k; j++)
                for (int i = 0; i < j; i++) {
                    if (l < from) continue;
                    int qa[4] = {dp->ia[i], dp->ia[j], dp->ia[k], dp->ia[l]};
                    int qb[4] = {dp->ib[i], dp->ib[j], dp->ib[k], dp->ib[l]};
                    if (exact_origin_in_tetra(ctx, qa, qb) == 1) return 1;
                }
    return 0;
}

/* The exact stage over the candidates of the simplex: 1 colliding, -1 separated (axis
 * set to the exact direction, rounded), 0 undecided. */
static int exact_decide(const col_core *a, const col_xform *xa, const col_core *b, const col_xform *xb, int e,
                        const simplex *s, col_vec3 *axis, double *axis_gap)
{
    exact_ctx ctx;
    ctx.a = a;
    ctx.b = b;
    ctx.xa = xa;
    ctx.xb = xb;
    ctx.e = e;
    ctx.bad = false;
    ctx.centre = wpt(a, xa, 0);
    col_xp r;
    col_xp_diff(&r, a->radius, -b->radius);
    for (int i = 0; i < r.n; i++) {
        double t = ldexp(r.t[i], -e);
        if (ldexp(t, e) != r.t[i] || fabs(t) < XP_MIN_COMPONENT) return 0;
        r.t[i] = t;
    }
    col_xp_mul(&ctx.r2, &r, &r);
    ctx.r = r;
    int sa[XP_SET_MAX], sb[XP_SET_MAX], na = 0, nb = 0;
    for (int k = 0; k < s->n; k++) {
        add_unique(sa, &na, s->ia[k]);
        add_unique(sb, &nb, s->ib[k]);
    }
    /* A point or segment core brings all its points: every feature pair of a sphere or
     * capsule pair is then a candidate, and one of them holds the true closest points,
     * so those pairs are always decided (unless the arithmetic gives up). */
    for (int k = 0; k < a->count && a->count <= 2; k++) add_unique(sa, &na, k);
    for (int k = 0; k < b->count && b->count <= 2; k++) add_unique(sb, &nb, k);
    /* Overlapping cores (R = 0 within rounding): tetrahedra of differences around the
     * origin. The differences tried: the simplex's points of A against those of B (an
     * edge-edge face of the difference is a parallelogram, of which the simplex may hold
     * the wrong half), supports along directions across the simplex's affine hull, and
     * each round's exact support point (below): an exact GJK in effect. */
    dpoints dp;
    dp.n = 0;
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++) dp_add(&dp, sa[i], sb[j]);
    col_vec3 dirs[6];
    int nd = 0;
    if (s->n == 3) {
        dirs[nd++] = col_cross(col_sub(s->d[1], s->d[0]), col_sub(s->d[2], s->d[0]));
    } else if (s->n == 2 && col_max_abs(col_sub(s->d[1], s->d[0])) > 0.0) {
        dirs[nd] = any_perpendicular(col_pow2_unit(col_sub(s->d[1], s->d[0]), NULL));
        dirs[nd + 1] = col_cross(col_pow2_unit(col_sub(s->d[1], s->d[0]), NULL), dirs[nd]);
        nd += 2;
    } else {
        dirs[nd++] = col_v3(1, 0, 0);
        dirs[nd++] = col_v3(0, 1, 0);
        dirs[nd++] = col_v3(0, 0, 1);
    }
    for (int k = 0; k < nd; k++)
        for (int sg = 0; sg < 2; sg++) {
            col_vec3 dir = sg ? col_neg(dirs[k]) : dirs[k];
            dp_add(&dp, support(a, xa, col_neg(dir)), support(b, xb, dir));
        }
    int tested = 0;
    xvec sdir;
    for (int round = 0; round < XP_ROUNDS; round++) {
        if (dp_tetrahedra(&ctx, &dp, tested)) return 1;
        tested = dp.n;
        int new_a = -1, new_b = -1, best_k = 0;
        dpoints feat;
        feat.n = 0;
        double best_d2 = INFINITY;
        for (int ma = 1; ma < (1 << na); ma++) {
            int ca[XP_SET_MAX], ka = 0;
            for (int i = 0; i < na; i++)
                if (ma & (1 << i)) ca[ka++] = sa[i];
            if (ka > 3) continue;
            for (int mb = 1; mb < (1 << nb); mb++) {
                int cb[XP_SET_MAX], kb = 0;
                for (int i = 0; i < nb; i++)
                    if (mb & (1 << i)) cb[kb++] = sb[i];
                if (kb > 3 || ka + kb > 4) continue;
                bool gave_up = false;
                ctx.ext_a = ctx.ext_b = -1;
                double ad2 = INFINITY;
                int r2 = exact_candidate(&ctx, ca, ka, cb, kb, &sdir, &gave_up, &ad2);
                if (r2 == 1) return 1;
                if (r2 == -1) {
                    col_vec3 ap = col_v3(col_xp_approx(&sdir.c[0]), col_xp_approx(&sdir.c[1]),
                                         col_xp_approx(&sdir.c[2]));
                    if (!col_unit_robust(ap, axis)) *axis = col_v3(1, 0, 0);
                    *axis_gap = exact_axis_gap(&ctx, *axis);
                    return -1;
                }
                if (ctx.ext_a >= 0 && (ad2 < best_d2 || (ad2 == best_d2 && ka + kb > best_k))) {
                    best_d2 = ad2;
                    best_k = ka + kb;
                    new_a = ctx.ext_a;
                    new_b = ctx.ext_b;
                    feat.n = 0;
                    for (int i = 0; i < ka; i++)
                        for (int j = 0; j < kb; j++) dp_add(&feat, ca[i], cb[j]);
                }
            }
        }
        /* No proof: the simplex missed the closest features. The nearest candidate whose
         * projection lies in its feature is (up to the rounding of this choice) the
         * closest point of the candidates' hull; the extreme points of its failed
         * separation test are the support point GJK would add next, found exactly: they
         * join the candidates (an exact GJK step). */
        if (new_a < 0) break;
        /* GJK's next simplex: the nearest feature's differences and the new support
         * point (the overlap case: its tetrahedra may hold the origin). */
        if (dp_add(&feat, new_a, new_b) && dp_tetrahedra(&ctx, &feat, feat.n - 1)) return 1;
        int grew = dp_add(&dp, new_a, new_b);
        grew |= add_unique(sa, &na, new_a);
        grew |= add_unique(sb, &nb, new_b);
        if (!grew) break;
    }
    return dp_tetrahedra(&ctx, &dp, tested);
}

void col_rounded_query(const col_core *a, const col_xform *xa, const col_core *b, const col_xform *xb,
                       col_np_result *out)
{
    memset(out, 0, sizeof *out);
    int e = pair_exponent(a, xa, b, xb);
    simplex s;
    col_vec3 v = gjk(a, xa, b, xb, e, &s, &out->iterations);
    double r = a->radius + b->radius, rs = ldexp(r, -e);
    double v2 = col_len2(v);
    col_vec3 axis;
    int ia, ib;
    if (v2 > rs * rs && col_unit_robust(v, &axis)) {
        double g = certified_gap(a, xa, b, xb, axis, r, &ia, &ib);
        if (g > 0.0) {
            out->colliding = false;
            out->axis = axis;
            out->gap = g;
            return;
        }
    } else if (proven_within(&s, rs)) {
        out->colliding = true;
        return;
    }
    out->fallbacks = 1;
    double axis_gap = 0.0;
    int d = exact_decide(a, xa, b, xb, e, &s, &axis, &axis_gap);
    if (d == -1) {
        out->colliding = false;
        out->axis = axis;
        /* The exact band: proven separated, and the gap along the rounded axis evaluated
         * exactly; when even that is not positive (the exact direction is not a double),
         * the smallest positive gap (docs/rounded.md). */
        out->gap = axis_gap > 0.0 ? axis_gap : DBL_TRUE_MIN;
        return;
    }
    if (d == 0) out->fallbacks = 2;
    out->colliding = true;
}

/* ---- closest points of the cores ---- */

/* Edge k of a core's edge list (hull edges; a segment; all pairs of a small point set
 * without a hull). Returns the number of edges, or fills *i, *j for edge k. */
static int core_edge_count(const col_core *c)
{
    if (c->hull != NULL) return c->hull->edge_count;
    if (c->count <= 8) return c->count * (c->count - 1) / 2;
    return 0;
}

static void core_edge(const col_core *c, int k, int *i, int *j)
{
    *i = 0;
    *j = 0;
    if (c->hull != NULL) {
        *i = c->hull->edge_verts[2 * k];
        *j = c->hull->edge_verts[2 * k + 1];
        return;
    }
    for (int p = 0; p < c->count; p++)
        for (int q = p + 1; q < c->count; q++)
            if (k-- == 0) {
                *i = p;
                *j = q;
                return;
            }
}

/* Penetration along u: how far b must move along u for the cores to touch. The
 * projections go through the local frames (u turned by R^T, plus u.p): three products a
 * point instead of a world transform, which matters in the many-axis scan below; the
 * answer is a best-effort direction, not a certificate. */
static double depth_along(const col_core *a, const col_xform *xa, const col_core *b, const col_xform *xb, col_vec3 u)
{
    double hi = -INFINITY, lo = INFINITY;
    col_vec3 ua = col_mat3_tmul(&xa->R, u), ub = col_mat3_tmul(&xb->R, u);
    for (int i = 0; i < a->count; i++) {
        double t = col_dot(ua, a->points[i]);
        hi = t > hi ? t : hi;
    }
    for (int i = 0; i < b->count; i++) {
        double t = col_dot(ub, b->points[i]);
        lo = t < lo ? t : lo;
    }
    return (hi + col_dot(u, xa->p)) - (lo + col_dot(u, xb->p));
}

static void try_axis(const col_core *a, const col_xform *xa, const col_core *b, const col_xform *xb, col_vec3 u,
                     double *best, col_vec3 *best_u)
{
    double d = depth_along(a, xa, b, xb, u);
    if (d < *best) {
        *best = d;
        *best_u = u;
    }
}


/* The least penetration over the separating-axis candidates (Ericson, Real-Time Collision
 * Detection, section 5.2.1): face normals of hull cores (outward of a, inward of b),
 * cross products of core edges (both signs). */
static void least_penetration(const col_core *a, const col_xform *xa, const col_core *b, const col_xform *xb,
                              col_core_distance *out)
{
    double best = INFINITY;
    col_vec3 bu = col_v3(1, 0, 0);
    if (a->hull != NULL)
        for (int f = 0; f < a->hull->face_count; f++)
            try_axis(a, xa, b, xb, col_mat3_mul(&xa->R, a->hull->planes[f].n), &best, &bu);
    if (b->hull != NULL)
        for (int f = 0; f < b->hull->face_count; f++)
            try_axis(a, xa, b, xb, col_neg(col_mat3_mul(&xb->R, b->hull->planes[f].n)), &best, &bu);
    int ea = core_edge_count(a), eb = core_edge_count(b);
    if ((long)ea * eb <= COL_ROUNDED_SAT_EDGE_PAIRS)
        for (int i = 0; i < ea; i++) {
            int p, q;
            core_edge(a, i, &p, &q);
            col_vec3 da = col_sub(wpt(a, xa, q), wpt(a, xa, p));
            for (int j = 0; j < eb; j++) {
                int r, t;
                core_edge(b, j, &r, &t);
                col_vec3 db = col_sub(wpt(b, xb, t), wpt(b, xb, r)), u;
                if (!col_unit_robust(col_cross(col_pow2_unit(da, NULL), col_pow2_unit(db, NULL)), &u)) continue;
                try_axis(a, xa, b, xb, u, &best, &bu);
                try_axis(a, xa, b, xb, col_neg(u), &best, &bu);
            }
        }
    if (!(best < INFINITY)) {
        /* Points and segments only, crossing exactly or parallel: any perpendicular of a
         * segment (or any axis for two points) has depth 0. */
        col_vec3 dir = col_v3(0, 0, 0);
        if (ea > 0) {
            int p, q;
            core_edge(a, 0, &p, &q);
            dir = col_sub(wpt(a, xa, q), wpt(a, xa, p));
        } else if (eb > 0) {
            int p, q;
            core_edge(b, 0, &p, &q);
            dir = col_sub(wpt(b, xb, q), wpt(b, xb, p));
        }
        bu = col_max_abs(dir) > 0.0 ? any_perpendicular(col_pow2_unit(dir, NULL)) : col_v3(1, 0, 0);
        best = 0.0;
    }
    out->normal = bu;
    out->depth = best > 0.0 ? best : 0.0;
}

void col_core_distance_query(const col_core *a, const col_xform *xa, const col_core *b, const col_xform *xb,
                             col_core_distance *out)
{
    memset(out, 0, sizeof *out);
    int e = pair_exponent(a, xa, b, xb);
    simplex s;
    col_vec3 v = gjk(a, xa, b, xb, e, &s, &out->iterations);
    col_vec3 pa = col_v3(0, 0, 0), pb = col_v3(0, 0, 0);
    double lsum = 0.0;
    for (int k = 0; k < s.n; k++) lsum += s.lam[k];
    for (int k = 0; k < s.n; k++) {
        double l = s.lam[k] / lsum;
        pa = col_add(pa, col_scale(wpt(a, xa, s.ia[k]), l));
        pb = col_add(pb, col_scale(wpt(b, xb, s.ib[k]), l));
    }
    out->point_a = pa;
    out->point_b = pb;
    col_vec3 n;
    if (s.n == 4 || !col_unit_robust(v, &n)) {
        out->overlap = true;
        out->distance = 0.0;
        out->point_b = pa;
        least_penetration(a, xa, b, xb, out);
        return;
    }
    int k;
    col_vec3 u = col_pow2_unit(v, &k);
    out->distance = ldexp(col_len(u), e + k);
    out->normal = n;
}
