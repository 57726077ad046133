/* SPDX-License-Identifier: MIT */
/* Conservative advancement over piece pairs (toi.h; docs/ccd.md).
 *
 * Why a step is safe. At instant s the exact core+radius decision (narrowphase/rounded.h)
 * either finds the pieces sharing a point (contact at s) or certifies an axis n and a gap
 * g with min over b of n.b - max over a of n.a >= g (rounding included). Keep n FIXED:
 * a core point x = p(t) + R(t) c of a body moves with velocity v + omega x (x - p(t)), so
 * its speed along n is at most |v.n| + |n x omega| |x - p(t)| <= |v.n| + |n x omega| r,
 * r the piece's farthest core point from the body's origin (the slerp rotates about the
 * origin at the constant rate omega, a fixed world axis). The radius of a rounded piece
 * travels with its core. So the plane gap along n shrinks at most at the rate mu = mu_a +
 * mu_b, the sum of the two bodies' NON-NEGATIVE terms (opposite motions never cancel:
 * FCL issue #555), and stays positive for t < s + g / mu: no contact there.
 *
 * Never late: the gap is reduced by a bound of the rounding of the poses at s (a few ulps
 * of the coordinates) before the division, and the step by a relative 1e-12. Near
 * contact the steps shrink; the loop stops with contact when the certified gap falls
 * below the distance tolerance, or when a probe 5e-7 ahead finds the pieces sharing a
 * point (the first contact is then within 5e-7 after s), or at the iteration cap. */
#include "ccd/toi.h"

#include <float.h>
#include <math.h>


static col_quat quat_scale_add(col_quat a, double ka, col_quat b, double kb)
{
    col_quat q = {ka * a.x + kb * b.x, ka * a.y + kb * b.y, ka * a.z + kb * b.z, ka * a.w + kb * b.w};
    return q;
}

static col_quat quat_normalize(col_quat q)
{
    double n = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    return quat_scale_add(q, 1.0 / n, q, 0.0);
}

void col_toi_motion_init(col_toi_motion *m, col_transform x0, col_transform x1)
{
    col_quat q0 = x0.q, q1 = x1.q;
    double d = q0.x * q1.x + q0.y * q1.y + q0.z * q1.z + q0.w * q1.w;
    if (d < 0.0) {
        q1 = quat_scale_add(q1, -1.0, q1, 0.0);
        d = -d;
    }
    x1.q = q1;
    m->x0 = x0;
    m->x1 = x1;
    m->v = col_sub(x1.p, x0.p);
    /* q1 q0* = (cos h, u sin h): the world-frame rotation from q0 to q1, angle 2h. */
    col_vec3 v0 = col_v3(q0.x, q0.y, q0.z), v1 = col_v3(q1.x, q1.y, q1.z);
    col_vec3 rv = col_add(col_sub(col_scale(v1, q0.w), col_scale(v0, q1.w)), col_cross(v0, v1));
    double sn = col_len(rv);
    m->half_angle = atan2(sn, d);
    /* Rounded up: |omega| >= the true angle, whatever the rounding of rv and atan2. */
    double ang = 2.0 * m->half_angle * (1.0 + 1e-9) + 1e-15;
    m->omega = sn > 0.0 ? col_scale(rv, ang / sn) : col_v3(0.0, 0.0, 0.0);
    if (sn > 0.0 && sn < 1e-150) m->omega = col_scale(col_v3(1.0, 1.0, 1.0), ang); /* axis lost: any n */
}

col_transform col_toi_pose_at(const col_toi_motion *m, double s)
{
    if (s <= 0.0) return m->x0;
    if (s >= 1.0) return m->x1;
    col_transform t;
    t.p = col_add(m->x0.p, col_scale(m->v, s));
    double h = m->half_angle;
    double sh = sin(h);
    if (sh < 1e-8) /* slerp and the normalised chord differ by O(h^3) there */
        t.q = quat_normalize(quat_scale_add(m->x0.q, 1.0 - s, m->x1.q, s));
    else
        t.q = quat_normalize(quat_scale_add(m->x0.q, sin((1.0 - s) * h) / sh, m->x1.q, sin(s * h) / sh));
    return t;
}

/* A body's speed bound along unit n for a piece of reach r (docs/ccd.md). */
static double motion_bound(const col_toi_motion *m, col_vec3 n, double r)
{
    return fabs(col_dot(m->v, n)) + col_len(col_cross(n, m->omega)) * r;
}

/* What one round at s found over every piece pair. */
typedef struct toi_round {
    bool contact;      /* some pair shares a point (or is within the tolerance) */
    double step;       /* else: no contact in [s, s + step] (INFINITY: none ever) */
    int pa, pb;        /* the pair of contact, or the pair limiting the step */
    col_vec3 axis;     /* that pair's certified axis (when separated) */
} toi_round;

static void toi_eval(const col_geometry *a, const col_toi_motion *ma, const col_geometry *b,
                     const col_toi_motion *mb, double s, double slack, toi_round *r)
{
    col_transform ta = col_toi_pose_at(ma, s), tb = col_toi_pose_at(mb, s);
    col_xform xa = col_xform_from_transform(ta), xb = col_xform_from_transform(tb);
    /* The rounding of the poses and of the world points (a few ulps of the coordinates). */
    double eps = 64.0 * DBL_EPSILON * (col_max_abs(ta.p) + a->radius + col_max_abs(tb.p) + b->radius);
    r->contact = false;
    r->step = INFINITY;
    r->pa = r->pb = 0;
    r->axis = col_v3(0.0, 0.0, 1.0);
    for (int i = 0; i < a->piece_count; i++) {
        col_core ca = col_toi_piece_core(&a->pieces[i]);
        double ra = col_toi_piece_reach(&a->pieces[i]);
        for (int j = 0; j < b->piece_count; j++) {
            col_core cb = col_toi_piece_core(&b->pieces[j]);
            col_np_result q;
            col_rounded_query(&ca, &xa, &cb, &xb, &q);
            double g = q.gap - eps;
            if (q.colliding || g <= slack) {
                r->contact = true;
                r->pa = i;
                r->pb = j;
                r->axis = q.axis;
                if (q.colliding) return;
                continue;
            }
            double rb = col_toi_piece_reach(&b->pieces[j]);
            double mu = (motion_bound(ma, q.axis, ra) + motion_bound(mb, q.axis, rb)) * (1.0 + 1e-12);
            double step = mu > 0.0 ? g / mu * (1.0 - 1e-12) : INFINITY;
            if (!r->contact && step < r->step) {
                r->step = step;
                r->pa = i;
                r->pb = j;
                r->axis = q.axis;
            }
        }
    }
}

/* Normal and points of the contact pair at s. */
static void toi_finish(const col_geometry *a, const col_toi_motion *ma, const col_geometry *b,
                       const col_toi_motion *mb, const toi_round *r, double s, col_toi_result *out)
{
    col_xform xa = col_xform_from_transform(col_toi_pose_at(ma, s));
    col_xform xb = col_xform_from_transform(col_toi_pose_at(mb, s));
    const col_piece *pa = &a->pieces[r->pa], *pb = &b->pieces[r->pb];
    col_core ca = col_toi_piece_core(pa), cb = col_toi_piece_core(pb);
    col_core_distance d;
    col_core_distance_query(&ca, &xa, &cb, &xb, &d);
    /* Cores nearly touching give a poor direction; the certified axis is then better. */
    double scale = a->radius + b->radius;
    col_vec3 n = d.normal;
    if (!d.overlap && d.distance <= 1e-9 * scale && col_len2(r->axis) > 0.0) n = r->axis;
    double ln = col_len(n);
    n = ln > 0.0 ? col_scale(n, 1.0 / ln) : col_v3(0.0, 0.0, 1.0);
    out->hit = true;
    out->s = s;
    out->normal = n;
    out->point_a = d.overlap ? d.point_a : col_add(d.point_a, col_scale(n, pa->radius));
    out->point_b = d.overlap ? d.point_b : col_sub(d.point_b, col_scale(n, pb->radius));
    out->piece_a = r->pa;
    out->piece_b = r->pb;
}

void col_toi_convex(const col_geometry *a, const col_toi_motion *ma, const col_geometry *b, const col_toi_motion *mb,
                    col_toi_result *out)
{
    *out = (col_toi_result){0};
    out->s = 1.0;
    /* The distance tolerance: pieces certified closer than this count as touching. */
    double slack = 1e-13 * (a->radius + b->radius);
    double s = 0.0;
    toi_round r;
    for (int it = 0;; it++) {
        toi_eval(a, ma, b, mb, s, slack, &r);
        out->iterations = it + 1;
        if (r.contact) break;
        if (!(r.step < 1.0 - s)) return; /* no contact in [s, 1]: proven (or nothing moves) */
        s += r.step;
        if (it + 1 >= COL_TOI_MAX_ITERATIONS) {
            out->capped = true;
            break;
        }
        /* Slow convergence (a loose rotation bound, a grazing approach): a probe ahead
         * that finds contact ends the loop within 5e-7 of the first contact. */
        if (r.step < 1e-7 && (it & 7) == 7 && s + 5e-7 <= 1.0) {
            toi_round p;
            toi_eval(a, ma, b, mb, s + 5e-7, -INFINITY, &p);
            if (p.contact) {
                r.pa = p.pa;
                r.pb = p.pb;
                r.axis = col_v3(0.0, 0.0, 0.0);
                break;
            }
        }
    }
    toi_finish(a, ma, b, mb, &r, s, out);
}

void col_toi_contact_at(const col_geometry *a, const col_toi_motion *ma, const col_geometry *b,
                        const col_toi_motion *mb, double s, col_toi_result *out)
{
    *out = (col_toi_result){0};
    col_xform xa = col_xform_from_transform(col_toi_pose_at(ma, s));
    col_xform xb = col_xform_from_transform(col_toi_pose_at(mb, s));
    toi_round r = {true, 0.0, 0, 0, col_v3(0.0, 0.0, 0.0)};
    /* One piece each: nothing to choose (and the contact needs no decision). */
    double best = a->piece_count == 1 && b->piece_count == 1 ? 0.0 : INFINITY;
    for (int i = 0; i < a->piece_count && best > 0.0; i++) {
        col_core ca = col_toi_piece_core(&a->pieces[i]);
        for (int j = 0; j < b->piece_count && best > 0.0; j++) {
            col_core cb = col_toi_piece_core(&b->pieces[j]);
            col_np_result q;
            col_rounded_query(&ca, &xa, &cb, &xb, &q);
            double g = q.colliding ? 0.0 : q.gap;
            if (g < best) {
                best = g;
                r.pa = i;
                r.pb = j;
                r.axis = q.colliding ? col_v3(0.0, 0.0, 0.0) : q.axis;
            }
        }
    }
    toi_finish(a, ma, b, mb, &r, s, out);
    out->iterations = 1;
}
