/* SPDX-License-Identifier: MIT */
/* Ray casts against pieces and meshes (ray.h). Every double decision is taken only
 * outside a margin tau = COL_RAY_REL_MARGIN * S, S the sum of the magnitudes the
 * computation rounds (docs/queries.md, "Margins", bounds every rounding below by a few
 * hundred units of 2^-53 S, far inside tau); inside the margin the exact decision
 * answers. */
#include "narrowphase/ray.h"

#include <math.h>

#include "lib/core/v2.h"
#include "narrowphase/orient.h"
#include "narrowphase/rounded.h"
#include "narrowphase/tri_tri.h"

static const col_xform ray_identity = {{{1, 0, 0, 0, 1, 0, 0, 0, 1}}, {0, 0, 0}};

/* The inside normal: against the ray, or zero for a zero-length one. */
static col_vec3 ray_inside_normal(const col_ray_seg *r)
{
    col_vec3 d = col_sub(r->b, r->a);
    double l = col_len(d);
    return l > 0 ? col_scale(d, -1.0 / l) : col_v3(0, 0, 0);
}

/* Exact: is the segment within rho of the piece? */
static bool piece_within(const col_piece *p, const col_xform *xf, const col_ray_seg *r, double rho)
{
    col_vec3 seg[2] = {r->a, r->b};
    col_core a = {seg, seg[0].x == seg[1].x && seg[0].y == seg[1].y && seg[0].z == seg[1].z ? 1 : 2, NULL, rho};
    col_core b;
    b.points = col_piece_points(p, &b.count);
    b.hull = p->kind == COL_SHAPE_HULL ? &p->hull : NULL;
    b.radius = p->radius;
    col_np_result res;
    col_rounded_query(&a, &ray_identity, &b, xf, &res);
    return res.colliding;
}

bool col_ray_piece_exact(const col_piece *p, const col_xform *xf, const col_ray_seg *r)
{
    return piece_within(p, xf, r, 0.0);
}

static col_vec3 ray_at(const col_ray_seg *r, double t);

/* The first contact of a grazing ray, whose double estimate the margins cannot vouch
 * for: the exact decision on prefixes [a, a + t (b - a)], bisected to the last bit on
 * [lo, hi] (the prefixes that meet a convex piece are those past the first contact).
 * A prefix's end is rounded, which turns it by up to a unit of 2^-53 S: a ray that only
 * touches (at a vertex, along an edge) could be missed by every prefix. So prefixes are
 * thickened by rho = 2^-44 S, far above that turn and far below any fraction tolerance:
 * the answer is the first contact up to rho / |b - a| (docs/queries.md). */
static double exact_first_contact(const col_piece *p, const col_xform *xf, const col_ray_seg *r, double lo, double hi)
{
    double S = col_max_abs(r->a) + col_max_abs(r->b) + col_max_abs(xf->p) + p->bound_radius + p->radius;
    double rho = 0x1p-44 * S;
    col_ray_seg pre = {r->a, r->a};
    if (lo <= 0.0 && col_ray_piece_exact(p, xf, &pre)) return 0.0;
    /* to 2^-44 of the segment: the same order as rho's thickening */
    for (int i = 0; i < 80 && hi - lo > 0x1p-44; i++) {
        double mid = 0.5 * (lo + hi);
        pre.b = ray_at(r, mid);
        if (piece_within(p, xf, &pre, rho)) hi = mid;
        else lo = mid;
    }
    return hi;
}

/* ---- hulls: slab clipping against the face planes in the local frame ---- */

/* Nominal interval [lo, hi] against the planes n.x <= d (face: the entering one, -1 if
 * none) and the outer interval against n.x <= d + m; false when the outer one is empty:
 * a certified miss (docs/queries.md: the hull lies inside n.x <= d + e_H, m covers e_H
 * and every rounding). */
typedef struct hull_clip {
    double lo, hi;
    double olo, ohi; /* the outer interval */
    int face, exit_face; /* the planes that set lo and hi (-1: none) */
    bool nominal_empty;
} hull_clip;

/* One plane f of the scalar clip (the planes' loop below, and its odd last plane). */
static bool clip_plane(const col_hull *h, int f, col_vec3 A, col_vec3 B, double m, double tmax, hull_clip *c,
                       double *olo, double *ohi)
{
    col_vec3 n = h->planes[f].n;
    double d = h->planes[f].d;
    double va = col_dot(n, A) - d, vb = col_dot(n, B) - d;
    double ua = va - m, ub = vb - m;
    if (ua > 0.0) {
        if (ub > 0.0) return false; /* the whole segment beyond the widened plane */
        double t = ua / (ua - ub);
        *olo = t > *olo ? t : *olo; /* not fmax: a call without -ffast-math, in the hot loop */
    } else if (ub > 0.0) {
        double t = ua / (ua - ub);
        *ohi = t < *ohi ? t : *ohi;
    }
    /* each plane alone bounds the hull: an empty outer interval so far is a miss, and
     * no contact comes before olo */
    if (*olo > *ohi || *olo > tmax) return false;
    if (va > 0.0) {
        if (vb > 0.0) {
            c->nominal_empty = true;
        } else {
            double t = va / (va - vb);
            if (t > c->lo) c->lo = t, c->face = f;
        }
    } else if (vb > 0.0) {
        double t = va / (va - vb);
        if (t < c->hi) c->hi = t, c->exit_face = f;
    }
    return true;
}

/* The planes two at a time (even f in lane 0, odd in lane 1), without branches on the
 * signs, which are coin flips for a branch predictor: both quotients are computed and
 * kept only where the scalar clip would have computed them (there the denominator is not
 * zero, so they are its values bit for bit). Each lane keeps its own running bounds and
 * its first strict maximum (minimum) with its plane; the two lanes are joined at the end,
 * an equal value going to the smaller plane index, which is what the scalar loop's first
 * strict maximum over all planes gives. The early outs are the scalar ones taken after
 * each pair (a miss is a miss whichever plane proves it). */
static bool hull_clip_planes(const col_hull *h, col_vec3 A, col_vec3 B, double m, double tmax, hull_clip *c)
{
    c->lo = 0.0, c->hi = 1.0, c->face = -1, c->exit_face = -1, c->nominal_empty = false;
    const col_v2 zero = {0.0, 0.0}, mm = {m, m};
    const col_v2 ax = {A.x, A.x}, ay = {A.y, A.y}, az = {A.z, A.z}, bx = {B.x, B.x}, by = {B.y, B.y}, bz = {B.z, B.z};
    col_v2 olo = zero, ohi = {1.0, 1.0}, lo = zero, hi = {1.0, 1.0};
    col_v2 face = {-1.0, -1.0}, exit_face = {-1.0, -1.0}, idx = {0.0, 1.0};
    const col_v2 two = {2.0, 2.0};
    col_m2 empty = {0, 0};
    const col_plane *pl = h->planes;
    int f = 0;
    for (; f + 1 < h->face_count; f += 2, idx += two) {
        col_v2 nx = col_v2_set(pl[f].n.x, pl[f + 1].n.x), ny = col_v2_set(pl[f].n.y, pl[f + 1].n.y);
        col_v2 nz = col_v2_set(pl[f].n.z, pl[f + 1].n.z), d = col_v2_set(pl[f].d, pl[f + 1].d);
        col_v2 va = nx * ax + ny * ay + nz * az - d, vb = nx * bx + ny * by + nz * bz - d;
        col_v2 ua = va - mm, ub = vb - mm;
        col_m2 qa = ua > zero, qb = ub > zero;
        if (col_m2_any(qa & qb)) return false; /* the whole segment beyond a widened plane */
        col_v2 to = ua / (ua - ub), tn = va / (va - vb);
        olo = col_v2_select(qa & (to > olo), to, olo);
        ohi = col_v2_select(~qa & qb & (to < ohi), to, ohi);
        double olo1 = olo[0] > olo[1] ? olo[0] : olo[1], ohi1 = ohi[0] < ohi[1] ? ohi[0] : ohi[1];
        if (olo1 > ohi1 || olo1 > tmax) return false;
        col_m2 pa = va > zero, pb = vb > zero;
        empty |= pa & pb;
        col_m2 enter = pa & ~pb & (tn > lo), leave = ~pa & pb & (tn < hi);
        lo = col_v2_select(enter, tn, lo), face = col_v2_select(enter, idx, face);
        hi = col_v2_select(leave, tn, hi), exit_face = col_v2_select(leave, idx, exit_face);
    }
    /* join the lanes: the larger entry (the smaller exit), ties to the smaller plane */
    for (int j = 0; j < 2; j++) {
        int fj = (int)face[j], ej = (int)exit_face[j];
        if (lo[j] > c->lo || (lo[j] == c->lo && fj >= 0 && (c->face < 0 || fj < c->face))) c->lo = lo[j], c->face = fj;
        if (hi[j] < c->hi || (hi[j] == c->hi && ej >= 0 && (c->exit_face < 0 || ej < c->exit_face)))
            c->hi = hi[j], c->exit_face = ej;
    }
    c->nominal_empty = col_m2_any(empty);
    double olo1 = olo[0] > olo[1] ? olo[0] : olo[1], ohi1 = ohi[0] < ohi[1] ? ohi[0] : ohi[1];
    if (f < h->face_count && !clip_plane(h, f, A, B, m, tmax, c, &olo1, &ohi1)) return false;
    if (c->lo > c->hi) c->nominal_empty = true;
    c->olo = olo1, c->ohi = ohi1;
    return olo1 <= ohi1;
}

/* Is the nominal entry point (a itself when no plane is entered) inside every other face
 * plane by the margin m? Then the ray enters through the face's interior, or starts well
 * inside: not a ray that grazes an edge or a vertex. */
static bool entry_clear(const col_hull *h, col_vec3 A, col_vec3 B, const hull_clip *c, double m)
{
    col_vec3 x = c->face < 0 ? A : col_add(A, col_scale(col_sub(B, A), c->lo));
    for (int f = 0; f < h->face_count; f++)
        if (f != c->face && !(col_dot(h->planes[f].n, x) - h->planes[f].d <= -m)) return false;
    return true;
}

/* Does the segment cross a triangle of face f's fan (world vertices)? Exact. */
static bool face_crossed(const col_hull *h, const col_xform *xf, const col_ray_seg *r, int f)
{
    const int *ring = h->face_verts + h->face_first[f];
    int len = h->face_first[f + 1] - h->face_first[f];
    col_vec3 w[3];
    w[0] = col_xform_point(xf, h->vertices[ring[0]]);
    w[2] = col_xform_point(xf, h->vertices[ring[1]]);
    for (int i = 2; i < len; i++) {
        w[1] = w[2];
        w[2] = col_xform_point(xf, h->vertices[ring[i]]);
        double t;
        col_vec3 n;
        if (col_ray_triangle(w, r, &t, &n)) return true;
    }
    return false;
}

static bool ray_hull(const col_piece *p, const col_xform *xf, const col_ray_seg *r, double tmax, col_ray_out *out)
{
    const col_hull *h = &p->hull;
    col_vec3 ap = col_sub(r->a, xf->p), bp = col_sub(r->b, xf->p);
    /* The ball of the hull's radius about its origin first: a segment farther from the
     * origin than the radius, with the margin below to spare, misses. */
    {
        col_vec3 d = col_sub(bp, ap);
        double dd = col_dot(d, d), s = dd > 0.0 ? -col_dot(ap, d) / dd : 0.0;
        s = s < 0.0 ? 0.0 : s > 1.0 ? 1.0 : s;
        double R = h->radius * (1.0 + 0x1p-30) + COL_RAY_REL_MARGIN * (col_max_abs(ap) + col_max_abs(bp) +
                                                                        col_max_abs(xf->p) + h->radius);
        if (col_len2(col_add(ap, col_scale(d, s))) > R * R) return false;
    }
    col_vec3 A = col_mat3_tmul(&xf->R, ap), B = col_mat3_tmul(&xf->R, bp);
    double S = col_max_abs(ap) + col_max_abs(bp) + col_max_abs(xf->p) + h->radius;
    double m = 4.0 * COL_HULL_CHECK_EPS * h->radius + COL_RAY_REL_MARGIN * S;
    hull_clip c;
    if (!hull_clip_planes(h, A, B, m, tmax, &c)) return false;
    /* No contact before olo (certified by the outer planes). The nominal entry is the
     * fraction when the ray enters through the interior of the entering face (entry_clear)
     * and not too flat (outer and nominal entries within 2^-16: the nominal entry is then
     * off by the plane's own error over |n.d|, which is that gap times the plane's error
     * over m, ~1e-5, so ~1e-10 of the segment at worst); otherwise (grazing an edge,
     * running along the surface, starting on it) the exact decision is bisected on
     * prefixes. */
    bool vouched = !c.nominal_empty && c.lo - c.olo <= 0x1p-16 && entry_clear(h, A, B, &c, m);
    /* A hit is proven by the segment crossing a triangle of hull vertices (exactly, with
     * orientation predicates): the entering face's, or for a ray that starts inside the
     * exit face's; else by the exact decision. */
    int cert = c.face >= 0 ? c.face : c.exit_face;
    if (!(vouched && cert >= 0 && face_crossed(h, xf, r, cert))) {
        out->exact++;
        if (!col_ray_piece_exact(p, xf, r)) return false;
    }
    double t = c.lo;
    if (!vouched) {
        /* bracket: no contact before olo; try the nominal entry pushed out by as much first */
        double hi = c.nominal_empty ? 1.0 : fmin(1.0, c.lo + (c.lo - c.olo) + 0x1p-40);
        col_ray_seg pre = {r->a, ray_at(r, hi)};
        if (hi < 1.0 && !piece_within(p, xf, &pre, 0.0)) hi = 1.0;
        t = exact_first_contact(p, xf, r, c.olo, hi);
    }
    out->t = t;
    out->triangle = -1;
    out->normal = c.face >= 0 ? col_mat3_mul(&xf->R, h->planes[c.face].n) : ray_inside_normal(r);
    return true;
}

/* ---- spheres and capsules: the segment against the core segment P0 P1 plus radius ---- */

/* Distance from x to segment [p, q] (p == q: a point), and the parameter of the nearest
 * point. Computed within a few units of 2^-53 (|x| + |p| + |q|) of the true distance
 * (docs/queries.md). */
static double point_seg_dist(col_vec3 x, col_vec3 p, col_vec3 q, double *s_out)
{
    col_vec3 e = col_sub(q, p);
    double ee = col_dot(e, e), s = 0.0;
    if (ee > 0.0) s = fmin(fmax(col_dot(col_sub(x, p), e) / ee, 0.0), 1.0);
    if (s_out) *s_out = s;
    return col_len(col_sub(x, col_add(p, col_scale(e, s))));
}

/* Bounds on the distance of segments [a, b] and [p, q]: lower from the four end point
 * distances and the lines' distance along their common normal (less the normal's
 * rounding over the segments' lengths), upper from the end points. The true distance is
 * an end point distance or, when both closest points are interior, the lines'. */
static void seg_seg_bounds(col_vec3 a, col_vec3 b, col_vec3 p, col_vec3 q, double *lower, double *upper)
{
    double e1 = point_seg_dist(a, p, q, NULL), e2 = point_seg_dist(b, p, q, NULL);
    double e3 = point_seg_dist(p, a, b, NULL), e4 = point_seg_dist(q, a, b, NULL);
    double up = fmin(fmin(e1, e2), fmin(e3, e4));
    col_vec3 d = col_sub(b, a), e = col_sub(q, p), n = col_cross(d, e);
    double nl = col_len(n), lo = up;
    if (nl > 0.0) {
        double ld = col_len(d), le = col_len(e);
        double tilt = 8.0 * 0x1p-53 * ld * le / nl * (ld + le); /* the computed normal's tilt over the segments */
        double ll = fabs(col_dot(col_sub(a, p), n)) / nl - tilt;
        lo = fmin(up, ll);
    }
    *lower = lo;
    *upper = up;
}

/* g(t) = distance of a + t d from the core minus the radius: convex in t. */
static double core_gap(col_vec3 x, col_vec3 p, col_vec3 q, double radius)
{
    return point_seg_dist(x, p, q, NULL) - radius;
}

static col_vec3 ray_at(const col_ray_seg *r, double t)
{
    return t == 1.0 ? r->b : col_add(r->a, col_scale(col_sub(r->b, r->a), t));
}

/* First t with g(t) <= 0, given g(0) > 0 and g(t1) <= 0: bisection to the last bit (g
 * is convex, so g > 0 before the first root and the root is unique on [0, t1]). */
static double core_first_root(const col_ray_seg *r, col_vec3 p, col_vec3 q, double radius, double t1)
{
    double lo = 0.0, hi = t1;
    for (int i = 0; i < 80 && hi - lo > 0x1p-53 * hi; i++) {
        double mid = 0.5 * (lo + hi);
        if (core_gap(ray_at(r, mid), p, q, radius) <= 0.0) hi = mid;
        else lo = mid;
    }
    return hi;
}

/* The parameter of the point of the ray nearest to the core segment [p, q] (Ericson,
 * Real-Time Collision Detection, 2005, 5.1.9: closest points of two segments). */
static double seg_nearest_t(const col_ray_seg *r, col_vec3 p, col_vec3 q)
{
    col_vec3 d1 = col_sub(r->b, r->a), d2 = col_sub(q, p), w = col_sub(r->a, p);
    double a = col_dot(d1, d1), e = col_dot(d2, d2), f = col_dot(d2, w);
    if (a == 0.0) return 0.0;
    double c = col_dot(d1, w), s, t;
    if (e == 0.0) return fmin(fmax(-c / a, 0.0), 1.0);
    double b = col_dot(d1, d2), den = a * e - b * b;
    s = den > 0.0 ? fmin(fmax((b * f - c * e) / den, 0.0), 1.0) : 0.0;
    t = (b * s + f) / e;
    if (t < 0.0) s = fmin(fmax(-c / a, 0.0), 1.0);
    else if (t > 1.0) s = fmin(fmax((b - c) / a, 0.0), 1.0);
    return s;
}

static bool ray_rounded(const col_piece *pc, const col_xform *xf, const col_ray_seg *r, double tmax,
                        col_ray_out *out)
{
    col_vec3 p = col_xform_point(xf, pc->ends[0]);
    col_vec3 q = pc->kind == COL_SHAPE_SPHERE ? p : col_xform_point(xf, pc->ends[1]);
    double rad = pc->radius;
    double S = col_max_abs(r->a) + col_max_abs(r->b) + col_max_abs(p) + col_max_abs(q) + rad;
    double tau = COL_RAY_REL_MARGIN * S;
    double lower, upper;
    seg_seg_bounds(r->a, r->b, p, q, &lower, &upper);
    if (lower > rad + tau) return false; /* certified miss */
    double g0 = core_gap(r->a, p, q, rad);
    double tn = seg_nearest_t(r, p, q), gn = core_gap(ray_at(r, tn), p, q, rad);
    /* The fraction: 0 from inside; else the first root of the convex gap g on [0, tn] by
     * bisection in double (where g is well below 0 at tn its slope at the root is at
     * least |b - a| sqrt(2 tau / radius), so the root is good to rounding); a ray that
     * only grazes (g(tn) >= 0 in double, a hit by the exact decision) touches at tn. */
    double t = g0 <= 0.0 ? 0.0 : gn < 0.0 ? core_first_root(r, p, q, rad, tn) : tn;
    if (t > tmax) return false;
    if (!(upper <= rad - 0x1p-20 * S) && !(g0 <= -tau)) {
        out->exact++;
        if (!col_ray_piece_exact(pc, xf, r)) return false;
        if (g0 <= 0.0 && g0 > -tau) t = 0.0;
    }
    out->t = t;
    out->triangle = -1;
    col_vec3 x = ray_at(r, t);
    double s;
    point_seg_dist(x, p, q, &s);
    col_vec3 nrm = col_sub(x, col_add(p, col_scale(col_sub(q, p), s)));
    double l = col_len(nrm);
    out->normal = t > 0.0 && l > 0.0 ? col_scale(nrm, 1.0 / l) : (l > 0.0 && g0 > -tau ? col_scale(nrm, 1.0 / l)
                                                                                       : ray_inside_normal(r));
    return true;
}

bool col_ray_piece(const col_piece *p, const col_xform *xf, const col_ray_seg *r, double tmax, col_ray_out *out)
{
    if (p->kind == COL_SHAPE_HULL) return ray_hull(p, xf, r, tmax, out);
    return ray_rounded(p, xf, r, tmax, out);
}

/* ---- triangles ---- */

/* First contact of the segment with a triangle it lies in the plane of (or a degenerate
 * one): the exact test on growing prefixes of the segment, bisected to the last bit. */
static double tri_first_contact(const col_vec3 w[3], const col_ray_seg *r)
{
    col_vec3 pre[3] = {r->a, r->a, r->a};
    if (col_tri_tri_intersect(w, pre)) return 0.0;
    double lo = 0.0, hi = 1.0;
    for (int i = 0; i < 80 && hi - lo > 0x1p-53 * hi; i++) {
        double mid = 0.5 * (lo + hi);
        pre[1] = pre[2] = ray_at(r, mid);
        if (col_tri_tri_intersect(w, pre)) hi = mid;
        else lo = mid;
    }
    return hi;
}

bool col_ray_triangle(const col_vec3 w[3], const col_ray_seg *r, double *t, col_vec3 *n)
{
    int sa = col_orient3d(w[0], w[1], w[2], r->a), sb = col_orient3d(w[0], w[1], w[2], r->b);
    if (sa == sb && sa != 0) return false;
    col_vec3 nn = col_cross(col_sub(w[1], w[0]), col_sub(w[2], w[0]));
    double nl = col_len(nn);
    col_vec3 d = col_sub(r->b, r->a);
    if (sa == 0 && sb == 0) { /* coplanar, or a degenerate triangle */
        col_vec3 seg[3] = {r->a, r->b, r->b};
        if (!col_tri_tri_intersect(w, seg)) return false;
        *t = tri_first_contact(w, r);
        *n = nl > 0.0 ? col_scale(nn, 1.0 / nl) : col_v3(0, 0, 0);
    } else {
        /* The line a b passes the triangle iff no two edge orientations differ strictly. */
        int o1 = col_orient3d(r->a, r->b, w[0], w[1]);
        int o2 = col_orient3d(r->a, r->b, w[1], w[2]);
        int o3 = col_orient3d(r->a, r->b, w[2], w[0]);
        bool neg = o1 < 0 || o2 < 0 || o3 < 0, pos = o1 > 0 || o2 > 0 || o3 > 0;
        if (neg && pos) return false;
        if (sa == 0) {
            *t = 0.0;
        } else {
            double da = col_dot(nn, col_sub(r->a, w[0])), db = col_dot(nn, col_sub(r->b, w[0]));
            double tt = da / (da - db);
            *t = sb == 0 ? 1.0 : (tt >= 0.0 && tt <= 1.0 ? tt : (tt < 0.0 ? 0.0 : 1.0));
            if (!(*t == *t)) *t = 0.0;
        }
        *n = nl > 0.0 ? col_scale(nn, 1.0 / nl) : col_v3(0, 0, 0);
    }
    if (col_dot(*n, d) > 0.0) *n = col_neg(*n);
    return true;
}

/* ---- meshes ---- */

/* Entry parameter of the local segment A + t D into the box widened by m, or a value
 * above 1 when it misses. */
static double box_enter(const col_mesh_node *nd, col_vec3 A, col_vec3 D, double m)
{
    const double a[3] = {A.x, A.y, A.z}, d[3] = {D.x, D.y, D.z};
    const double lo[3] = {nd->min.x - m, nd->min.y - m, nd->min.z - m};
    const double hi[3] = {nd->max.x + m, nd->max.y + m, nd->max.z + m};
    double t0 = 0.0, t1 = 1.0;
    for (int k = 0; k < 3; k++) {
        if (d[k] == 0.0) {
            if (a[k] < lo[k] || a[k] > hi[k]) return 2.0;
            continue;
        }
        double inv = 1.0 / d[k];
        double ta = (lo[k] - a[k]) * inv, tb = (hi[k] - a[k]) * inv;
        if (ta > tb) {
            double s = ta;
            ta = tb, tb = s;
        }
        t0 = ta > t0 ? ta : t0;
        t1 = tb < t1 ? tb : t1;
        if (t0 > t1) return 2.0;
    }
    return t0;
}

bool col_ray_mesh(const col_mesh *m, const col_xform *xf, const col_ray_seg *r, double tmax, col_ray_out *out)
{
    col_vec3 ap = col_sub(r->a, xf->p), bp = col_sub(r->b, xf->p);
    col_vec3 A = col_mat3_tmul(&xf->R, ap), B = col_mat3_tmul(&xf->R, bp), D = col_sub(B, A);
    double S = col_max_abs(ap) + col_max_abs(bp) + col_max_abs(xf->p) + m->radius;
    double tau = COL_RAY_REL_MARGIN * S;
    int stack[2 * COL_MESH_MAX_DEPTH + 2], top = 0, best_k = -1;
    double best_t = tmax;
    col_vec3 best_n = col_v3(0, 0, 0);
    stack[top++] = 0;
    while (top > 0) {
        const col_mesh_node *nd = &m->nodes[stack[--top]];
        if (box_enter(nd, A, D, tau) > best_t) continue;
        if (nd->count > 0) {
            for (int k = nd->child; k < nd->child + nd->count; k++) {
                col_vec3 loc[3], w[3], n;
                col_mesh_triangle(m, k, loc);
                for (int i = 0; i < 3; i++) w[i] = col_xform_point(xf, loc[i]);
                double t;
                if (col_ray_triangle(w, r, &t, &n) &&
                    (t < best_t || (t == best_t && (best_k < 0 || m->tri_source[k] < m->tri_source[best_k]))))
                    best_t = t, best_k = k, best_n = n;
            }
            continue;
        }
        int c0 = nd->child, c1 = nd->child + 1;
        double t0 = box_enter(&m->nodes[c0], A, D, tau), t1 = box_enter(&m->nodes[c1], A, D, tau);
        if (t0 > t1) {
            int s = c0;
            double u = t0;
            c0 = c1, c1 = s, t0 = t1, t1 = u;
        }
        if (t1 <= best_t) stack[top++] = c1; /* the nearer child on top */
        if (t0 <= best_t) stack[top++] = c0;
    }
    if (best_k < 0) return false;
    out->t = best_t;
    out->normal = best_n;
    out->triangle = (int)m->tri_source[best_k];
    return true;
}
