/* SPDX-License-Identifier: MIT */
/* Exact triangle-triangle intersection (tri_tri.h).
 *
 * Every decision is the sign of an orientation determinant of input points
 * (narrowphase/orient.h: a double filter with a proven bound, exact arithmetic inside
 * it); no point is ever constructed, so nothing is rounded.
 *
 * The common case, two proper (non-collinear) triangles in different planes, is the
 * algorithm of Guigue and Devillers, "Fast and robust triangle-triangle overlap test
 * using orientation predicates", Journal of Graphics Tools 8(1), 2003: the signs of each
 * triangle's vertices against the other's plane reject most pairs; otherwise both
 * triangles are permuted into a canonical form (the vertex alone on its side first) and
 * two more orientations decide whether their intervals on the line where the planes
 * meet overlap. Their algorithm assumes proper triangles; the rest is decided here by
 * cases, each reduced to orientations:
 * - a collinear triangle is the segment between its two extreme points (or a point);
 * - coplanar proper triangles: projected along an axis the plane's normal is not
 *   perpendicular to (a bijection of the plane), then disjoint iff an edge line of one
 *   triangle has the whole other triangle strictly outside (the separating axis theorem:
 *   a point outside a convex polygon, here the origin outside A - B, is strictly outside
 *   one of its edge lines, and the edges of A - B are those of A and B);
 * - a segment and a proper triangle: both endpoints strictly on one side of the plane:
 *   disjoint; both in the plane: the 2D test in the projection; else the segment meets
 *   the plane in one point X, inside the closed triangle iff the three orientations of
 *   the segment's line against the edges have no two strictly opposite signs (each is
 *   the barycentric coordinate of X times one common non-zero factor);
 * - two segments: not coplanar: disjoint; else they meet iff their projections meet in
 *   all three coordinate planes (necessary; and one of the projections is a bijection of
 *   a plane through all four points, so it is also sufficient). */
#include "narrowphase/tri_tri.h"

#include "narrowphase/orient.h"

/* Counts the exact evaluations when `exact` is not NULL. */
typedef struct ctx {
    int *exact;
} ctx;

static int o3(const ctx *c, col_vec3 a, col_vec3 b, col_vec3 p, col_vec3 d)
{
    int s = col_orient3d_filter(a, b, p, d);
    if (s != 2) return s;
    if (c->exact) ++*c->exact;
    return col_orient3d_exact(a, b, p, d);
}

static int o2(const ctx *c, col_vec3 a, col_vec3 b, col_vec3 p, int k)
{
    int s = col_orient2d_filter(a, b, p, k);
    if (s != 2) return s;
    if (c->exact) ++*c->exact;
    return col_orient2d_exact(a, b, p, k);
}

/* s[i] = orient3d(t0, t1, t2, p[i]) with the plane's normal computed once. The filter
 * is col_orient3d_filter's with the permanent |w.x| px + |w.y| py + |w.z| pz bounded by
 * (|w.x| + |w.y| + |w.z|) max(px, py, pz), so that a point costs one product more than
 * its determinant (the slack of COL_O3D_ERR covers the roundings of the bound). */
static void plane_sides(const ctx *c, const col_vec3 t[3], const col_vec3 p[3], int s[3])
{
    col_vec3 u = col_sub(t[1], t[0]), v = col_sub(t[2], t[0]);
    double x1 = u.y * v.z, x2 = u.z * v.y, y1 = u.z * v.x, y2 = u.x * v.z, z1 = u.x * v.y, z2 = u.y * v.x;
    double nx = x1 - x2, ny = y1 - y2, nz = z1 - z2;
    double px = fabs(x1) + fabs(x2), py = fabs(y1) + fabs(y2), pz = fabs(z1) + fabs(z2);
    double m = px > py ? px : py;
    m = m > pz ? m : pz;
    double k = COL_O3D_ERR * m + COL_ORIENT_UF;
    bool sure[3];
    for (int i = 0; i < 3; i++) { /* without branches: the signs are hard to predict */
        col_vec3 w = col_sub(p[i], t[0]);
        double det = w.x * nx + w.y * ny + w.z * nz;
        double bound = k * (fabs(w.x) + fabs(w.y) + fabs(w.z)) + COL_ORIENT_UF;
        s[i] = (det > bound) - (det < -bound);
        sure[i] = fabs(det) > bound; /* false for NaN too */
    }
    if (sure[0] & sure[1] & sure[2]) return;
    for (int i = 0; i < 3; i++) {
        if (sure[i]) continue;
        if (c->exact) ++*c->exact;
        s[i] = col_orient3d_exact(t[0], t[1], t[2], p[i]);
    }
}

/* ---- Guigue-Devillers for proper triangles in different planes ---- */

/* The canonical form: p1 alone on its side of plane 2 and p2 alone on its side of plane
 * 1, both oriented so that the triangles meet iff these two orientations allow the
 * intervals on the common line to overlap. */
static bool gd_check(const ctx *c, col_vec3 p1, col_vec3 q1, col_vec3 r1, col_vec3 p2, col_vec3 q2, col_vec3 r2)
{
    if (o3(c, q1, p2, p1, q2) > 0) return false;
    if (o3(c, p1, p2, r1, r2) > 0) return false;
    return true;
}

/* Triangle 2 permuted so that p2 is alone on its side of plane 1 (d = its sides). */
static bool gd_perm2(const ctx *c, col_vec3 p1, col_vec3 q1, col_vec3 r1, col_vec3 p2, col_vec3 q2, col_vec3 r2,
                     int dp2, int dq2, int dr2)
{
    if (dp2 > 0) {
        if (dq2 > 0) return gd_check(c, p1, r1, q1, r2, p2, q2);
        if (dr2 > 0) return gd_check(c, p1, r1, q1, q2, r2, p2);
        return gd_check(c, p1, q1, r1, p2, q2, r2);
    }
    if (dp2 < 0) {
        if (dq2 < 0) return gd_check(c, p1, q1, r1, r2, p2, q2);
        if (dr2 < 0) return gd_check(c, p1, q1, r1, q2, r2, p2);
        return gd_check(c, p1, r1, q1, p2, q2, r2);
    }
    if (dq2 < 0) {
        if (dr2 >= 0) return gd_check(c, p1, r1, q1, q2, r2, p2);
        return gd_check(c, p1, q1, r1, p2, q2, r2);
    }
    if (dq2 > 0) {
        if (dr2 > 0) return gd_check(c, p1, r1, q1, p2, q2, r2);
        return gd_check(c, p1, q1, r1, q2, r2, p2);
    }
    /* dp2 = dq2 = 0: dr2 != 0, since triangle 2 is not in plane 1 */
    if (dr2 > 0) return gd_check(c, p1, q1, r1, r2, p2, q2);
    return gd_check(c, p1, r1, q1, r2, p2, q2);
}

/* Triangle 1 permuted so that p1 is alone on its side of plane 2; triangle 2's
 * orientation swapped (q2 <-> r2) where that puts p1 on the positive side. */
static bool gd(const ctx *c, const col_vec3 a[3], const col_vec3 b[3], const int da[3], const int db[3])
{
    col_vec3 p1 = a[0], q1 = a[1], r1 = a[2], p2 = b[0], q2 = b[1], r2 = b[2];
    int dp1 = da[0], dq1 = da[1], dr1 = da[2], dp2 = db[0], dq2 = db[1], dr2 = db[2];
    if (dp1 > 0) {
        if (dq1 > 0) return gd_perm2(c, r1, p1, q1, p2, r2, q2, dp2, dr2, dq2);
        if (dr1 > 0) return gd_perm2(c, q1, r1, p1, p2, r2, q2, dp2, dr2, dq2);
        return gd_perm2(c, p1, q1, r1, p2, q2, r2, dp2, dq2, dr2);
    }
    if (dp1 < 0) {
        if (dq1 < 0) return gd_perm2(c, r1, p1, q1, p2, q2, r2, dp2, dq2, dr2);
        if (dr1 < 0) return gd_perm2(c, q1, r1, p1, p2, q2, r2, dp2, dq2, dr2);
        return gd_perm2(c, p1, q1, r1, p2, r2, q2, dp2, dr2, dq2);
    }
    if (dq1 < 0) {
        if (dr1 >= 0) return gd_perm2(c, q1, r1, p1, p2, r2, q2, dp2, dr2, dq2);
        return gd_perm2(c, p1, q1, r1, p2, q2, r2, dp2, dq2, dr2);
    }
    if (dq1 > 0) {
        if (dr1 > 0) return gd_perm2(c, p1, q1, r1, p2, r2, q2, dp2, dr2, dq2);
        return gd_perm2(c, q1, r1, p1, p2, q2, r2, dp2, dq2, dr2);
    }
    /* dp1 = dq1 = 0: dr1 != 0, since triangle 1 is not in plane 2 */
    if (dr1 > 0) return gd_perm2(c, r1, p1, q1, p2, q2, r2, dp2, dq2, dr2);
    return gd_perm2(c, r1, p1, q1, p2, r2, q2, dp2, dr2, dq2);
}

/* ---- The other cases ---- */

/* Is t collinear (all three components of its normal exactly zero)? */
static bool collinear(const ctx *c, const col_vec3 t[3])
{
    for (int k = 0; k < 3; k++)
        if (o2(c, t[0], t[1], t[2], k) != 0) return false;
    return true;
}

/* The extreme points of collinear points: along an axis where they differ, the order on
 * their line is the order of that coordinate. Equal points: a point (s0 = s1). */
static void as_segment(const col_vec3 t[3], col_vec3 s[2])
{
    for (int k = 0; k < 3; k++) {
        int lo = 0, hi = 0;
        for (int i = 1; i < 3; i++) {
            if (col_orient_coord(t[i], k) < col_orient_coord(t[lo], k)) lo = i;
            if (col_orient_coord(t[i], k) > col_orient_coord(t[hi], k)) hi = i;
        }
        if (lo != hi) {
            s[0] = t[lo];
            s[1] = t[hi];
            return;
        }
    }
    s[0] = s[1] = t[0];
}

/* An axis whose projection is a bijection of the plane of the proper triangle t, and
 * the sign of t's orientation in it. */
static int plane_axis(const ctx *c, const col_vec3 t[3], int *orient)
{
    for (int k = 0; k < 3; k++) {
        int o = o2(c, t[0], t[1], t[2], k);
        if (o != 0) {
            *orient = o;
            return k;
        }
    }
    *orient = 0; /* unreachable for a proper triangle */
    return 2;
}

/* 2D, axis k dropped: is there an edge of the proper triangle t (orientation o) with all
 * n points p strictly outside? */
static bool edge_separates(const ctx *c, const col_vec3 t[3], int o, const col_vec3 *p, int n, int k)
{
    for (int e = 0; e < 3; e++) {
        col_vec3 u = t[e], v = t[e == 2 ? 0 : e + 1];
        int out = 0;
        for (int i = 0; i < n; i++)
            if (o2(c, u, v, p[i], k) * o < 0) out++;
        if (out == n) return true;
    }
    return false;
}

static bool tri_tri_2d(const ctx *c, const col_vec3 a[3], int oa, const col_vec3 b[3], int k)
{
    if (edge_separates(c, a, oa, b, 3, k)) return false;
    int ob = o2(c, b[0], b[1], b[2], k);
    return !edge_separates(c, b, ob, a, 3, k);
}

static bool seg_tri_2d(const ctx *c, const col_vec3 s[2], const col_vec3 t[3], int ot, int k)
{
    if (edge_separates(c, t, ot, s, 2, k)) return false;
    int pos = 0, neg = 0;
    for (int i = 0; i < 3; i++) {
        int o = o2(c, s[0], s[1], t[i], k);
        pos += o > 0;
        neg += o < 0;
    }
    return pos < 3 && neg < 3;
}

static bool seg_tri(const ctx *c, const col_vec3 s[2], const col_vec3 t[3])
{
    int s0 = o3(c, t[0], t[1], t[2], s[0]), s1 = o3(c, t[0], t[1], t[2], s[1]);
    if (s0 * s1 > 0) return false;
    if (s0 == 0 && s1 == 0) {
        int ot, k = plane_axis(c, t, &ot);
        return seg_tri_2d(c, s, t, ot, k);
    }
    int pos = 0, neg = 0;
    for (int i = 0; i < 3; i++) {
        int o = o3(c, s[0], s[1], t[i], t[i == 2 ? 0 : i + 1]);
        pos += o > 0;
        neg += o < 0;
    }
    return pos == 0 || neg == 0;
}

static bool interval_overlap(double a0, double a1, double b0, double b1)
{
    double alo = a0 < a1 ? a0 : a1, ahi = a0 < a1 ? a1 : a0;
    double blo = b0 < b1 ? b0 : b1, bhi = b0 < b1 ? b1 : b0;
    return alo <= bhi && blo <= ahi;
}

static bool seg_seg_2d(const ctx *c, const col_vec3 s[2], const col_vec3 t[2], int k)
{
    int o1 = o2(c, s[0], s[1], t[0], k), o2v = o2(c, s[0], s[1], t[1], k);
    if (o1 * o2v > 0) return false;
    int o3v = o2(c, t[0], t[1], s[0], k), o4 = o2(c, t[0], t[1], s[1], k);
    if (o3v * o4 > 0) return false;
    if (o1 != 0 || o2v != 0 || o3v != 0 || o4 != 0) return true;
    /* collinear: the bounding boxes decide */
    for (int j = 0; j < 3; j++) {
        if (j == k) continue;
        if (!interval_overlap(col_orient_coord(s[0], j), col_orient_coord(s[1], j), col_orient_coord(t[0], j),
                              col_orient_coord(t[1], j)))
            return false;
    }
    return true;
}

static bool seg_seg(const ctx *c, const col_vec3 s[2], const col_vec3 t[2])
{
    if (o3(c, s[0], s[1], t[0], t[1]) != 0) return false;
    for (int k = 0; k < 3; k++)
        if (!seg_seg_2d(c, s, t, k)) return false;
    return true;
}

/* Some triangle lies in the other's plane or is collinear. */
static bool special(const ctx *c, const col_vec3 a[3], const col_vec3 b[3])
{
    bool dega = collinear(c, a), degb = collinear(c, b);
    col_vec3 sa[2], sb[2];
    if (dega) as_segment(a, sa);
    if (degb) as_segment(b, sb);
    if (dega && degb) return seg_seg(c, sa, sb);
    if (dega) return seg_tri(c, sa, b);
    if (degb) return seg_tri(c, sb, a);
    /* proper and coplanar */
    int oa, k = plane_axis(c, a, &oa);
    return tri_tri_2d(c, a, oa, b, k);
}

static bool all_same(const int s[3]) { return s[0] != 0 && s[0] == s[1] && s[0] == s[2]; }
static bool all_zero(const int s[3]) { return s[0] == 0 && s[1] == 0 && s[2] == 0; }

static bool tri_tri(const ctx *c, const col_vec3 a[3], const col_vec3 b[3])
{
    int da[3], db[3];
    /* A strict side proves the other triangle proper, so these rejections hold for any. */
    plane_sides(c, b, a, da);
    if (all_same(da)) return false;
    plane_sides(c, a, b, db);
    if (all_same(db)) return false;
    /* Neither all zero: both triangles proper (a collinear one has every point of space
     * in its "plane") and not coplanar. */
    if (all_zero(da) || all_zero(db)) return special(c, a, b);
    return gd(c, a, b, da, db);
}

bool col_tri_tri_intersect(const col_vec3 a[3], const col_vec3 b[3])
{
    ctx c = {NULL};
    return tri_tri(&c, a, b);
}

bool col_tri_tri_intersect_counted(const col_vec3 a[3], const col_vec3 b[3], int *exact)
{
    ctx c = {exact};
    return tri_tri(&c, a, b);
}
