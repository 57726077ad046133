/* SPDX-License-Identifier: MIT */
/* Controlled conservative advancement for meshes (c2a.h; docs/ccd.md "C2A").
 *
 * One round at instant s walks the pair of hierarchies (the bounding volume traversal
 * tree, BVTT) and finds a step ds such that no triangle of a meets b in [s, s + ds]. Every
 * bound keeps a unit direction n FIXED over the step: if the two sets are separated along
 * n by a gap g at s (min over b of n.y - max over a of n.x >= g), a point x = p(t) + R(t) c
 * of a body moves along n at most at |v.n| + |n x omega| |c| (the slerp turns about the
 * body's origin at the constant rate omega of ccd/toi.h), so the gap along n stays
 * positive for ds < g / mu with mu = mu_a + mu_b, each body's term non-negative (C2A's
 * Lemma 1; FCL issue #555: adding signed speeds lets opposite motions cancel).
 * - A node pair: the rectangle swept spheres of lib/core/mesh.h at the poses (centre c,
 *   axes u_k scaled by the half lengths, radius r; the support along n is n.c + |n.u_0| +
 *   |n.u_1| + r exactly, whatever the frame's non-orthonormality), n from a toward b near
 *   the direction of their closest points (alternating projections between the
 *   rectangles, as narrowphase/mesh_bv_bound.c picks its axis), g the two supports'
 *   difference less a relative margin for the rounding of centres, axes and poses, and
 *   |c| at most the node's reach (the farthest point of its RSS from the origin). Against
 *   a convex body the same with b's bounding ball, and also the undirected bound: the
 *   distance from b's ball to the node's local box or its rectangle's ball over the sum of
 *   |v| + |omega| reach. (narrowphase/mesh_bv_bound.h's certified RSS distance bound was
 *   measured as the undirected alternative for mesh pairs: it costs more than it prunes.)
 * - A leaf pair (two triangles, or a triangle and a convex piece): first the same gap
 *   along the centroids' line; where that does not settle it, col_rounded_query
 *   (narrowphase/rounded.h) decides exactly and certifies an axis and a gap.
 * - The step is the least g / mu over the pairs where the descent stops. A pair is not
 *   refined when its step is no smaller than the running least (it cannot lower it: the
 *   early rejection of section V), the running least starting at 1 - s (nothing to prove
 *   beyond the interval).
 * The controlled part (section V): on the first rounds a pair is accepted unrefined when
 *   its step is within a factor 1 + w of the running least (the relaxed query with
 *   rel_err w: w = 3 on the first two rounds, 0.5 after, 0 from the sixth round on or once
 *   a step falls to 0.005 or the least gap to 1/100 of the bodies' size, the paper's
 *   absolute 0.5 rescaled). A smaller step is always safe; it only costs rounds.
 * Contact: a leaf pair decided touching, or certified apart by no more than the rounding
 * of the poses at s, ends the loop at s; a probe 5e-7 ahead by the exact discrete test
 * ends it when the steps have become tiny (grazing, a loose rotation bound), and the
 * iteration cap COL_TOI_MAX_ITERATIONS reports a capped contact at s (a lower bound). */
#include "ccd/c2a.h"

#include <float.h>
#include <math.h>

#include "lib/core/mesh.h"
#include "narrowphase/mesh_collide.h"
#include "narrowphase/mesh_distance.h"
#include "narrowphase/rounded.h"

col_c2a_options col_c2a_default_options(void)
{
    col_c2a_options o = {true, COL_C2A_BOUND_SUM};
    return o;
}

enum { C2A_STACK = 2 * COL_MESH_MAX_DEPTH + 4 };

typedef struct c2a_ctx {
    const col_geometry *a, *b; /* a a mesh; b a mesh or convex */
    const col_toi_motion *ma, *mb;
    bool mesh_b;
    col_c2a_bound bound;
    col_xform xa, xb;
    col_vec3 pb_local;    /* mesh-convex: b's origin in a's local frame */
    double eps;           /* the rounding of the poses at s, a length */
    double margin;        /* the rounding of world centres and axes of nodes, a length */
    double slack;         /* certified gaps at or below it count as touching */
    double speed_a, speed_b, spin_a, spin_b; /* |v|, |omega| (rounded up) */
    double ball_b;        /* mesh-convex: b within this of its origin */
    double reach_core_b;  /* mesh-convex: b's core points within this of its origin */
    double w;             /* relaxation of this round */
    /* the round's answer */
    double best;          /* the least step so far (starts at 1 - s) */
    double dmin;          /* the least certified node or leaf bound seen */
    bool contact;
    int leaf_a, leaf_b;   /* the contact pair, else the leaf pair limiting the step (-1: none) */
    col_vec3 axis;        /* that pair's certified axis (zero: none) */
    col_c2a_stats st;
} c2a_ctx;

static inline double up(double x) { return x * (1.0 + 1e-12); }

/* min and max of finite values, inlined (libm's fmin and fmax are calls, which a profile of
 * the Table I benchmark found at 8% of the time) */
static inline double dmin(double a, double b) { return a < b ? a : b; }
static inline double dmax(double a, double b) { return a > b ? a : b; }

/* Farthest point from the mesh's origin of a node whose RSS (col_mesh_node_rss) has the
 * local centre c, half lengths h and radius r (local lengths are world lengths). */
static double rss_reach(const col_mesh *m, col_vec3 c, const double h[2], double r)
{
    double e = 4.0 * m->frame_defect + 1e-12;
    double reach = (col_len(c) + sqrt(h[0] * h[0] + h[1] * h[1]) * (1.0 + e) + r) * (1.0 + e) + 1e-14 * m->radius;
    return dmin(up(reach), up(m->radius));
}

static double tri_reach(const col_vec3 t[3])
{
    return up(dmax(col_len(t[0]), dmax(col_len(t[1]), col_len(t[2]))));
}

static col_core tri_core(const col_vec3 t[3])
{
    col_core c = {t, 3, NULL, 0.0};
    return c;
}

/* One body's rate along unit n for points within r of its origin. */
static double directed(const col_toi_motion *m, col_vec3 n, double r)
{
    return fabs(col_dot(m->v, n)) + col_len(col_cross(n, m->omega)) * r;
}

static double step_of(double d, double mu)
{
    if (!(d > 0.0)) return 0.0;
    return mu > 0.0 ? d / up(mu) * (1.0 - 1e-12) : INFINITY;
}

/* The two bodies' rate along unit n at a leaf pair (reaches ra, rb). */
static double leaf_rate(const c2a_ctx *x, col_vec3 n, double ra, double rb)
{
    if (x->bound == COL_C2A_BOUND_CANCELLING) /* FCL #555, for the tests: signed speeds added */
        return fabs(col_dot(x->ma->v, n) + col_dot(x->mb->v, n)) + col_len(col_cross(n, x->ma->omega)) * ra +
               col_len(col_cross(n, x->mb->omega)) * rb;
    return directed(x->ma, n, ra) + directed(x->mb, n, rb);
}

/* A leaf pair's certified decision: contact, or a step (updating best). */
static void leaf_pair(c2a_ctx *x, const col_vec3 ta[3], int ka, const col_core *cb, double rb, int kb)
{
    x->st.leaf_pairs++;
    col_core ca = tri_core(ta);
    col_np_result q;
    col_rounded_query(&ca, &x->xa, cb, &x->xb, &q);
    double g = q.colliding ? 0.0 : q.gap - x->eps;
    if (q.colliding || g <= x->slack) {
        x->contact = true;
        x->leaf_a = ka;
        x->leaf_b = kb;
        x->axis = q.colliding ? col_v3(0.0, 0.0, 0.0) : q.axis;
        return;
    }
    x->dmin = dmin(x->dmin, g);
    double dt = step_of(g, leaf_rate(x, q.axis, tri_reach(ta), rb));
    if (dt < x->best) {
        x->best = dt;
        x->leaf_a = ka;
        x->leaf_b = kb;
        x->axis = q.axis;
    }
}

/* A cheap certified step for two world triangles before the exact decision: the gap
 * along the fixed line of their centroids (support of each along it) over the directed
 * rates along it. 0 when the gap is not positive. */
static double tri_pair_prestep(const c2a_ctx *x, const col_vec3 wa[3], double ra, const col_vec3 wb[3], double rb)
{
    col_vec3 ca = col_scale(col_add(col_add(wa[0], wa[1]), wa[2]), 1.0 / 3.0);
    col_vec3 cb = col_scale(col_add(col_add(wb[0], wb[1]), wb[2]), 1.0 / 3.0);
    col_vec3 d = col_sub(cb, ca);
    double l = col_len(d);
    if (!(l > 0.0)) return 0.0;
    col_vec3 n = col_scale(d, 1.0 / l);
    double ha = dmax(col_dot(n, wa[0]), dmax(col_dot(n, wa[1]), col_dot(n, wa[2])));
    double lb = dmin(col_dot(n, wb[0]), dmin(col_dot(n, wb[1]), col_dot(n, wb[2])));
    double g = (lb - ha) - x->margin - x->eps;
    if (!(g > 0.0)) return 0.0;
    return step_of(g, leaf_rate(x, n, ra, rb));
}

static void leaves(c2a_ctx *x, int ia, int ib)
{
    const col_mesh *ma = &x->a->mesh;
    const col_mesh_node *na = &ma->nodes[ia];
    if (!x->mesh_b) {
        for (int i = 0; i < na->count && !x->contact; i++) {
            col_vec3 ta[3];
            col_mesh_triangle(ma, na->child + i, ta);
            for (int j = 0; j < x->b->piece_count && !x->contact; j++) {
                col_core cb = col_toi_piece_core(&x->b->pieces[j]);
                leaf_pair(x, ta, na->child + i, &cb, col_toi_piece_reach(&x->b->pieces[j]), j);
            }
        }
        return;
    }
    const col_mesh *mb = &x->b->mesh;
    const col_mesh_node *nb = &mb->nodes[ib];
    col_vec3 ta[COL_MESH_LEAF_MAX][3], tb[COL_MESH_LEAF_MAX][3], wa[COL_MESH_LEAF_MAX][3], wb[COL_MESH_LEAF_MAX][3];
    double rta[COL_MESH_LEAF_MAX], rtb[COL_MESH_LEAF_MAX];
    for (int i = 0; i < na->count; i++) {
        col_mesh_triangle(ma, na->child + i, ta[i]);
        for (int k = 0; k < 3; k++) wa[i][k] = col_xform_point(&x->xa, ta[i][k]);
        rta[i] = tri_reach(ta[i]);
    }
    for (int j = 0; j < nb->count; j++) {
        col_mesh_triangle(mb, nb->child + j, tb[j]);
        for (int k = 0; k < 3; k++) wb[j][k] = col_xform_point(&x->xb, tb[j][k]);
        rtb[j] = tri_reach(tb[j]);
    }
    for (int i = 0; i < na->count && !x->contact; i++) {
        for (int j = 0; j < nb->count && !x->contact; j++) {
            double pre = tri_pair_prestep(x, wa[i], rta[i], wb[j], rtb[j]);
            if (pre >= x->best) continue; /* cannot lower the step */
            if (pre > 0.0 && pre * (1.0 + x->w) >= x->best) { /* relaxed: accepted as it is */
                x->best = pre;
                x->leaf_a = na->child + i;
                x->leaf_b = nb->child + j;
                x->axis = col_v3(0.0, 0.0, 0.0);
                continue;
            }
            col_core cb = tri_core(tb[j]);
            leaf_pair(x, ta[i], na->child + i, &cb, rtb[j], nb->child + j);
        }
    }
}

/* Node i of m at pose x as a world rectangle swept sphere: centre, the two rectangle
 * axes scaled by their half lengths (u_k = R A e_k l_k: for a non-orthonormal frame A the
 * support along n is still n.c + |n.u_0| + |n.u_1| + r |n|, exactly), radius. */
typedef struct world_rss {
    col_vec3 c, u0, u1;
    double r;
} world_rss;

static world_rss node_world(const col_mesh *m, const col_xform *x, int i, double *reach)
{
    const col_mesh_bv *b = &m->bvs[i];
    col_vec3 a0 = col_v3(b->frame.m[0], b->frame.m[3], b->frame.m[6]);
    col_vec3 a1 = col_v3(b->frame.m[1], b->frame.m[4], b->frame.m[7]);
    col_mat3 A;
    col_vec3 c;
    double h[2], r;
    col_mesh_node_rss(m, i, &A, &c, h, &r);
    *reach = rss_reach(m, c, h, r); /* the node's reach (the same local RSS, computed once) */
    world_rss w;
    w.c = col_xform_point(x, c);
    w.u0 = col_mat3_mul(&x->R, col_scale(a0, b->l[0]));
    w.u1 = col_mat3_mul(&x->R, col_scale(a1, b->l[1]));
    w.r = b->r;
    return w;
}

/* The half width of a world RSS along unit n (its support less n.c). */
static inline double rss_width(const world_rss *w, col_vec3 n)
{
    return fabs(col_dot(n, w->u0)) + fabs(col_dot(n, w->u1)) + w->r;
}

/* The nearest point of rectangle w (radius ignored) to p, by clamping p's coordinates
 * along the two axes (the axes are near orthogonal: any direction this gives is valid,
 * only its quality depends on it). */
static col_vec3 rect_nearest(const world_rss *w, col_vec3 p)
{
    col_vec3 d = col_sub(p, w->c), q = w->c;
    double n0 = col_len2(w->u0), n1 = col_len2(w->u1);
    if (n0 > 0.0) q = col_add(q, col_scale(w->u0, dmax(-1.0, dmin(1.0, col_dot(d, w->u0) / n0))));
    if (n1 > 0.0) q = col_add(q, col_scale(w->u1, dmax(-1.0, dmin(1.0, col_dot(d, w->u1) / n1))));
    return q;
}

/* A unit direction from a toward b near the one of their closest points: two rounds of
 * alternating projections between the rectangles (as narrowphase/mesh_bv_bound.c picks
 * its axis), else the centres' line, else z. */
static col_vec3 near_direction(const world_rss *a, const world_rss *b)
{
    col_vec3 pa = rect_nearest(a, b->c), pb = b->c;
    for (int round = 0; round < 2; round++) {
        pb = rect_nearest(b, pa);
        pa = rect_nearest(a, pb);
    }
    col_vec3 n = col_sub(pb, pa);
    double l = col_len(n);
    if (!(l > 0.0)) {
        n = col_sub(b->c, a->c);
        l = col_len(n);
    }
    return l > 0.0 ? col_scale(n, 1.0 / l) : col_v3(0.0, 0.0, 1.0);
}

/* The directed step of two world sets along the fixed unit n from a toward b (C2A's
 * Lemma 1): their gap along n is n.(cb - ca) - wa - wb (wa, wb their half widths along n
 * about the centres), each body's rate |v.n| + |n x omega| reach. margin: the rounding of
 * the centres, axes and n. */
static double directed_step(c2a_ctx *x, col_vec3 n, col_vec3 ca, double wa, double reach_a, col_vec3 cb,
                            double wb, double reach_b, double margin)
{
    double g = col_dot(n, col_sub(cb, ca)) - wa - wb;
    g = g * (1.0 - 1e-12) - margin - x->eps;
    if (!(g > 0.0)) return 0.0;
    x->dmin = dmin(x->dmin, g);
    double mu = directed(x->ma, n, reach_a) + directed(x->mb, n, reach_b);
    return step_of(g, mu);
}

/* The certified step of node pair (ia, ib) (ib ignored for a convex b). */
static double node_step(c2a_ctx *x, int ia, int ib)
{
    x->st.node_pairs++;
    const col_mesh *ma = &x->a->mesh;
    if (x->mesh_b) {
        /* the directed bound along the centres' line; the RSS distance bound (costlier)
         * only when the pair is popped and this one does not already reject it
         * (node_step_rss) */
        const col_mesh *mb = &x->b->mesh;
        double ra, rb;
        world_rss wa = node_world(ma, &x->xa, ia, &ra), wb = node_world(mb, &x->xb, ib, &rb);
        col_vec3 n = near_direction(&wa, &wb);
        return directed_step(x, n, wa.c, rss_width(&wa, n), ra, wb.c, rss_width(&wb, n), rb, x->margin);
    } else {
        /* b lies in the ball of ball_b about its origin, at pb_local in a's frame: the
         * distance to the node's local box (exact bounds) and to the ball about the
         * node's rectangle, less a relative margin for the rounding of pb_local and of
         * the rectangle's centre */
        const col_mesh_node *n = &ma->nodes[ia];
        col_vec3 y = x->pb_local;
        double dx = dmax(dmax(n->min.x - y.x, y.x - n->max.x), 0.0);
        double dy = dmax(dmax(n->min.y - y.y, y.y - n->max.y), 0.0);
        double dz = dmax(dmax(n->min.z - y.z, y.z - n->max.z), 0.0);
        double dbox = sqrt(dx * dx + dy * dy + dz * dz);
        col_mat3 A;
        col_vec3 c;
        double h[2], r;
        col_mesh_node_rss(ma, ia, &A, &c, h, &r);
        double e = 4.0 * ma->frame_defect + 1e-12;
        double dball = col_len(col_sub(y, c)) - (sqrt(h[0] * h[0] + h[1] * h[1]) * (1.0 + e) + r) * (1.0 + e);
        double margin = 1e-12 * (ma->radius + col_len(y) + x->ball_b);
        double d = dmax(dbox, dball) - x->ball_b - margin - x->eps;
        double ra;
        world_rss wa = node_world(ma, &x->xa, ia, &ra);
        double mu = x->speed_a + x->spin_a * ra + x->speed_b + x->spin_b * x->reach_core_b;
        world_rss wb = {x->xb.p, col_v3(0.0, 0.0, 0.0), col_v3(0.0, 0.0, 0.0), 0.0};
        col_vec3 u = near_direction(&wa, &wb);
        double dir = directed_step(x, u, wa.c, rss_width(&wa, u), ra, x->xb.p, x->ball_b, x->reach_core_b, x->margin);
        double dt = step_of(d, mu);
        if (d > 0.0) x->dmin = dmin(x->dmin, d);
        return dmax(dt, dir);
    }
}

static inline bool is_leaf(const col_mesh *m, int i) { return m->nodes[i].count > 0; }

static inline double node_size(const col_mesh *m, int i)
{
    const col_mesh_bv *b = &m->bvs[i];
    return b->l[0] + b->l[1] + b->r;
}

/* One round's traversal at the poses already set. */
static void c2a_traverse(c2a_ctx *x)
{
    const col_mesh *ma = &x->a->mesh, *mb = x->mesh_b ? &x->b->mesh : NULL;
    struct {
        int32_t a, b;
        double dt;
    } stack[C2A_STACK];
    int sp = 0;
    stack[0].a = 0;
    stack[0].b = 0;
    stack[0].dt = node_step(x, 0, 0);
    sp = 1;
    while (sp > 0 && !x->contact) {
        sp--;
        const int ia = stack[sp].a, ib = stack[sp].b;
        double dt = stack[sp].dt;
        if (dt >= x->best) continue; /* cannot lower the step: early rejection */
        bool la = is_leaf(ma, ia), lb = mb == NULL || is_leaf(mb, ib);
        if (la && lb) {
            leaves(x, ia, ib);
            continue;
        }
        if (dt > 0.0 && dt * (1.0 + x->w) >= x->best) { /* relaxed: accept the node pair's step */
            x->best = dt;
            x->leaf_a = x->leaf_b = -1;
            x->axis = col_v3(0.0, 0.0, 0.0);
            continue;
        }
        int ca[2] = {ia, ia}, cb[2] = {ib, ib};
        if (!la && (lb || node_size(ma, ia) >= node_size(mb, ib))) {
            ca[0] = ma->nodes[ia].child;
            ca[1] = ca[0] + 1;
        } else {
            cb[0] = mb->nodes[ib].child;
            cb[1] = cb[0] + 1;
        }
        double d0 = node_step(x, ca[0], cb[0]), d1 = node_step(x, ca[1], cb[1]);
        /* the smaller step popped first: the running least falls sooner */
        int first = d0 <= d1 ? 0 : 1;
        double dd[2] = {d0, d1};
        for (int k = 1; k >= 0; k--) {
            int c = k == 1 ? 1 - first : first;
            if (dd[c] >= x->best) continue;
            stack[sp].a = ca[c];
            stack[sp].b = cb[c];
            stack[sp].dt = dd[c];
            sp++;
        }
    }
}

static void c2a_set_poses(c2a_ctx *x, double s)
{
    col_transform ta = col_toi_pose_at(x->ma, s), tb = col_toi_pose_at(x->mb, s);
    x->xa = col_xform_from_transform(ta);
    x->xb = col_xform_from_transform(tb);
    double rb = x->mesh_b ? x->b->mesh.radius : x->b->radius;
    x->eps = 64.0 * DBL_EPSILON * (col_max_abs(ta.p) + x->a->mesh.radius + col_max_abs(tb.p) + rb);
    x->margin = 1e-12 * (col_max_abs(ta.p) + x->a->mesh.radius + col_max_abs(tb.p) + rb);
    if (!x->mesh_b) x->pb_local = col_mat3_tmul(&x->xa.R, col_sub(x->xb.p, x->xa.p));
}

/* The exact discrete test at s (the probe). */
static bool c2a_touch_at(c2a_ctx *x, double s)
{
    c2a_set_poses(x, s);
    col_np_result r;
    if (x->mesh_b) {
        col_mesh_mesh_query(&x->a->mesh, &x->xa, &x->b->mesh, &x->xb, NULL, &r);
        return r.colliding;
    }
    for (int j = 0; j < x->b->piece_count; j++) {
        col_core c = col_toi_piece_core(&x->b->pieces[j]);
        col_mesh_convex_query(&x->a->mesh, &x->xa, &c, &x->xb, NULL, &r);
        if (r.colliding) return true;
    }
    return false;
}

/* Normal and points at s from the contact (or limiting) leaf pair; without one, from the
 * closest pair of the mesh distance query. */
static void c2a_finish(c2a_ctx *x, double s, col_toi_result *out)
{
    c2a_set_poses(x, s);
    const col_mesh *ma = &x->a->mesh;
    int ka = x->leaf_a, kb = x->leaf_b;
    if (ka < 0) {
        col_mesh_closest c;
        if (x->mesh_b) {
            col_mesh_mesh_distance(ma, &x->xa, &x->b->mesh, &x->xb, &c);
            ka = c.tri_a;
            kb = c.tri_b;
        } else {
            double best = INFINITY;
            for (int j = 0; j < x->b->piece_count; j++) {
                col_core cb = col_toi_piece_core(&x->b->pieces[j]);
                col_mesh_convex_distance(ma, &x->xa, &cb, &x->xb, &c);
                if (c.distance < best) {
                    best = c.distance;
                    ka = c.tri_a;
                    kb = j;
                }
            }
        }
        x->axis = col_v3(0.0, 0.0, 0.0);
    }
    col_vec3 ta[3], tb[3];
    col_mesh_triangle(ma, ka, ta);
    col_core ca = tri_core(ta), cb;
    double radius_b = 0.0;
    if (x->mesh_b) {
        col_mesh_triangle(&x->b->mesh, kb, tb);
        cb = tri_core(tb);
    } else {
        cb = col_toi_piece_core(&x->b->pieces[kb]);
        radius_b = x->b->pieces[kb].radius;
    }
    col_core_distance d;
    col_core_distance_query(&ca, &x->xa, &cb, &x->xb, &d);
    /* cores nearly touching give a poor direction; the certified axis is then better */
    col_vec3 n = d.normal;
    double scale = ma->radius + (x->mesh_b ? x->b->mesh.radius : x->b->radius);
    if (!d.overlap && d.distance <= 1e-9 * scale && col_len2(x->axis) > 0.0) n = x->axis;
    double ln = col_len(n);
    n = ln > 0.0 ? col_scale(n, 1.0 / ln) : col_v3(0.0, 0.0, 1.0);
    out->hit = true;
    out->s = s;
    out->normal = n;
    out->point_a = d.point_a;
    out->point_b = d.overlap ? d.point_b : col_sub(d.point_b, col_scale(n, radius_b));
    out->piece_a = (int)ma->tri_source[ka];
    out->piece_b = x->mesh_b ? (int)x->b->mesh.tri_source[kb] : kb;
}

static void c2a_run(c2a_ctx *x, const col_c2a_options *opt, col_toi_result *out)
{
    *out = (col_toi_result){0};
    out->s = 1.0;
    double size = x->a->mesh.radius + (x->mesh_b ? x->b->mesh.radius : x->b->radius);
    /* No distance tolerance beyond the rounding of the poses: a near graze (two sliver
     * triangles passing 1e-13 apart) is not a contact, and the time tolerance comes from
     * the probe alone (tests/test_c2a.c has such a case). */
    x->slack = 0.0;
    x->speed_a = up(col_len(x->ma->v));
    x->speed_b = up(col_len(x->mb->v));
    x->spin_a = up(col_len(x->ma->omega));
    x->spin_b = up(col_len(x->mb->omega));
    x->bound = opt->bound;
    if (!x->mesh_b) {
        x->ball_b = up(x->b->radius);
        x->reach_core_b = 0.0;
        for (int j = 0; j < x->b->piece_count; j++)
            x->reach_core_b = dmax(x->reach_core_b, col_toi_piece_reach(&x->b->pieces[j]));
    }
    double s = 0.0, last_step = 1.0, dmin = INFINITY;
    for (int it = 0;; it++) {
        x->w = 0.0;
        if (opt->controlled && it < 5 && last_step > 0.005 && dmin > 0.01 * size) x->w = it < 2 ? 3.0 : 0.5;
        c2a_set_poses(x, s);
        x->best = 1.0 - s;
        x->dmin = INFINITY;
        x->contact = false;
        x->leaf_a = x->leaf_b = -1;
        x->axis = col_v3(0.0, 0.0, 0.0);
        c2a_traverse(x);
        out->iterations = it + 1;
        if (x->contact) break;
        if (!(x->best < 1.0 - s)) return; /* no contact in [s, 1]: proven (or nothing moves) */
        last_step = x->best;
        dmin = x->dmin;
        s += x->best;
        if (it + 1 >= COL_TOI_MAX_ITERATIONS) {
            out->capped = true;
            break;
        }
        /* slow convergence: a probe ahead that finds contact ends the loop within 5e-7 */
        if (last_step < 1e-7 && (it & 7) == 7 && s + 5e-7 <= 1.0) {
            if (c2a_touch_at(x, s + 5e-7)) {
                x->axis = col_v3(0.0, 0.0, 0.0); /* the limiting pair's axis is of another instant's poses */
                break;
            }
        }
    }
    c2a_finish(x, s, out);
}

void col_c2a_toi(const col_geometry *a, const col_toi_motion *ma, const col_geometry *b, const col_toi_motion *mb,
                 const col_c2a_options *opt, col_toi_result *out, col_c2a_stats *stats)
{
    col_c2a_options def = col_c2a_default_options();
    if (opt == NULL) opt = &def;
    c2a_ctx x = {0};
    bool swap = !col_geometry_is_mesh(a);
    x.a = swap ? b : a;
    x.b = swap ? a : b;
    x.ma = swap ? mb : ma;
    x.mb = swap ? ma : mb;
    x.mesh_b = col_geometry_is_mesh(x.b);
    c2a_run(&x, opt, out);
    if (swap && out->hit) {
        out->normal = col_scale(out->normal, -1.0);
        col_vec3 p = out->point_a;
        out->point_a = out->point_b;
        out->point_b = p;
        int k = out->piece_a;
        out->piece_a = out->piece_b;
        out->piece_b = k;
    }
    if (stats != NULL) *stats = x.st;
}
