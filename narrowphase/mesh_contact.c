/* SPDX-License-Identifier: MIT */
/* Contact manifolds of a mesh and a convex piece or of two meshes (mesh_contact.h), on the
 * distance traversals of narrowphase/mesh_distance.c. */
#include "narrowphase/mesh_contact.h"

#include <float.h>
#include <string.h>

#include "lib/core/exact.h"
#include "narrowphase/mesh_distance.h"
#include "narrowphase/tri_dist.h"

static const col_xform identity = {{{1, 0, 0, 0, 1, 0, 0, 0, 1}}, {0, 0, 0}};

/* Normals within about 18 degrees of the deepest candidate's join its manifold. */
#define CLUSTER_COS 0.95

typedef struct candidate {
    col_vec3 pa, pb, n;
    double sep;
    int32_t ta, tb;
} candidate;

typedef struct contact_set {
    candidate c[COL_MESH_CONTACT_CANDIDATES];
    int n;
} contact_set;

/* Indices of the candidates kept: the deepest, then greedily the one farthest from those
 * kept (Ericson 2005's contact reduction idea: spread points hold a resting body best),
 * among those whose normal agrees with the deepest's. Returns how many (<= max). */
static int reduce(const contact_set *s, int *keep, int max)
{
    if (s->n == 0) return 0;
    int deep = 0;
    for (int i = 1; i < s->n; i++)
        if (s->c[i].sep < s->c[deep].sep) deep = i;
    col_vec3 n0 = s->c[deep].n;
    /* Points nearer than 1e-6 of the cluster's extent to a kept one are the same point
     * (a corner found from two triangles, rounded differently). */
    col_vec3 lo = s->c[deep].pa, hi = lo;
    for (int i = 0; i < s->n; i++) {
        if (col_dot(s->c[i].n, n0) < CLUSTER_COS) continue;
        col_vec3 p = s->c[i].pa;
        lo = col_v3(fmin(lo.x, p.x), fmin(lo.y, p.y), fmin(lo.z, p.z));
        hi = col_v3(fmax(hi.x, p.x), fmax(hi.y, p.y), fmax(hi.z, p.z));
    }
    int k = 0;
    keep[k++] = deep;
    while (k < max) {
        int pick = -1;
        double far = 1e-12 * col_len2(col_sub(hi, lo));
        for (int i = 0; i < s->n; i++) {
            if (col_dot(s->c[i].n, n0) < CLUSTER_COS) continue;
            double near = INFINITY;
            for (int j = 0; j < k; j++) {
                double d = col_len2(col_sub(s->c[i].pa, s->c[keep[j]].pa));
                near = d < near ? d : near;
            }
            if (near > far) {
                far = near;
                pick = i;
            }
        }
        if (pick < 0) break;
        keep[k++] = pick;
    }
    return k;
}

static void add_candidate(contact_set *s, const candidate *c)
{
    if (s->n == COL_MESH_CONTACT_CANDIDATES) {
        /* Full: keep the current manifold's spread points and go on (greedy; see the header). */
        int keep[COL_MAX_CONTACT_POINTS];
        int k = reduce(s, keep, COL_MAX_CONTACT_POINTS);
        candidate t[COL_MAX_CONTACT_POINTS];
        for (int i = 0; i < k; i++) t[i] = s->c[keep[i]];
        memcpy(s->c, t, (size_t)k * sizeof t[0]);
        s->n = k;
    }
    s->c[s->n++] = *c;
}

static void finish_contact(const contact_set *s, col_mesh_contact *out)
{
    int keep[COL_MAX_CONTACT_POINTS];
    int k = reduce(s, keep, COL_MAX_CONTACT_POINTS);
    out->point_count = k;
    out->separation = INFINITY;
    if (k == 0) return;
    const candidate *deep = &s->c[keep[0]];
    out->normal = deep->n;
    out->tri_a = deep->ta;
    out->tri_b = deep->tb;
    for (int i = 0; i < k; i++) {
        const candidate *c = &s->c[keep[i]];
        col_contact_point *p = &out->points[i];
        p->point_a = c->pa;
        p->point_b = c->pb;
        p->separation = col_dot(col_sub(c->pb, c->pa), out->normal);
        if (p->separation < out->separation) out->separation = p->separation;
    }
}

/* Penetration of world point sets a and b along unit u: how far b must move along u. */
static double depth_along(const col_vec3 *a, int na, const col_vec3 *b, int nb, col_vec3 u, int *deepest_b)
{
    double hi = -INFINITY, lo = INFINITY;
    for (int i = 0; i < na; i++) {
        double t = col_dot(u, a[i]);
        hi = t > hi ? t : hi;
    }
    for (int i = 0; i < nb; i++) {
        double t = col_dot(u, b[i]);
        if (t < lo) {
            lo = t;
            *deepest_b = i;
        }
    }
    return hi - lo;
}

/* Tries u and -u (any length; skipped when zero) as least-penetration axes. */
static void try_axis(const col_vec3 *a, int na, const col_vec3 *b, int nb, col_vec3 v, double *best, col_vec3 *bu,
                     int *bi)
{
    col_vec3 u;
    if (!col_unit_robust(v, &u)) return;
    for (int s = 0; s < 2; s++, u = col_neg(u)) {
        int i = 0;
        double d = depth_along(a, na, b, nb, u, &i);
        if (d < *best) {
            *best = d;
            *bu = u;
            *bi = i;
        }
    }
}

/* Is the foot of x on the plane of w (normal n) inside w, boundary included? */
static int tri_inside(const col_vec3 w[3], col_vec3 n, col_vec3 x)
{
    for (int i = 0; i < 3; i++)
        if (col_dot(col_cross(col_sub(w[(i + 1) % 3], w[i]), col_sub(x, w[i])), n) < 0.0) return 0;
    return 1;
}

static col_vec3 tri_normal(const col_vec3 w[3]) { return col_cross(col_sub(w[1], w[0]), col_sub(w[2], w[0])); }

/* Crossing (or touching) triangles as flat pieces: the least penetration over the
 * Minkowski difference's facet normals (both planes, the 9 edge-edge crosses). */
static void tri_tri_overlap(const col_vec3 wa[3], const col_vec3 wb[3], candidate *c)
{
    double best = INFINITY;
    col_vec3 u = col_v3(1, 0, 0);
    int bi = 0;
    try_axis(wa, 3, wb, 3, tri_normal(wa), &best, &u, &bi);
    try_axis(wa, 3, wb, 3, tri_normal(wb), &best, &u, &bi);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            try_axis(wa, 3, wb, 3,
                     col_cross(col_pow2_unit(col_sub(wa[(i + 1) % 3], wa[i]), NULL),
                               col_pow2_unit(col_sub(wb[(j + 1) % 3], wb[j]), NULL)),
                     &best, &u, &bi);
    if (!(best < INFINITY)) { /* both degenerate and parallel, or points: any axis */
        best = 0.0;
        bi = 0;
    }
    double depth = best > 0.0 ? best : 0.0;
    c->n = u;
    c->sep = -depth;
    c->pb = wb[bi];
    c->pa = col_add(wb[bi], col_scale(u, depth));
}

typedef struct mmc_ctx {
    const col_mesh *a, *b;
    const col_xform *xa, *xb;
    double margin, rounding;
    contact_set set;
} mmc_ctx;

static double mmc_leaf(void *vctx, const col_mesh_node *la, const col_mesh_node *lb)
{
    mmc_ctx *ctx = vctx;
    col_vec3 wa[COL_MESH_LEAF_MAX][3], wb[COL_MESH_LEAF_MAX][3];
    int ka = col_mesh_leaf_world(ctx->a, ctx->xa, la, wa), kb = col_mesh_leaf_world(ctx->b, ctx->xb, lb, wb);
    for (int i = 0; i < ka; i++)
        for (int j = 0; j < kb; j++) {
            candidate c;
            double d = col_tri_distance(wa[i], wb[j], &c.pa, &c.pb);
            if (d > ctx->margin) continue;
            c.ta = la->child + i;
            c.tb = lb->child + j;
            /* Within rounding of touching, the closest direction is noise: treat as crossing. */
            if (d > ctx->rounding && col_unit_robust(col_sub(c.pb, c.pa), &c.n)) {
                c.sep = d;
            } else {
                tri_tri_overlap(wa[i], wb[j], &c);
            }
            add_candidate(&ctx->set, &c);
        }
    return nextafter(ctx->margin, INFINITY); /* pairs with bound <= margin go on */
}

void col_mesh_mesh_contact(const col_mesh *a, const col_xform *xa, const col_mesh *b, const col_xform *xb,
                           double margin, col_mesh_contact *out)
{
    memset(out, 0, sizeof *out);
    out->tri_a = out->tri_b = -1;
    mmc_ctx ctx;
    ctx.a = a;
    ctx.b = b;
    ctx.xa = xa;
    ctx.xb = xb;
    ctx.margin = margin;
    ctx.set.n = 0;
    double rm = col_mesh_pair_rounding(a, xa, b, xb);
    ctx.rounding = rm;
    /* Pairs with bound <= margin are visited: the limit is just above it. */
    col_mesh_pair_visit(a, xa, b, xb, rm, nextafter(margin, INFINITY), mmc_leaf, &ctx);
    finish_contact(&ctx.set, out);
}

typedef struct mcc_ctx {
    const col_mesh *m;
    const col_xform *xm;
    const col_core *c;
    const col_xform *xc;
    double margin, rounding;
    contact_set set;
} mcc_ctx;

/* Penetration of triangle w and the piece's core along unit u (how far the piece must
 * move along u); *deepest: the core point of least u.x, world. */
static double core_depth(const col_vec3 w[3], const col_core *c, const col_xform *xc, col_vec3 u, col_vec3 *deepest)
{
    double hi = -INFINITY, lo = INFINITY;
    for (int i = 0; i < 3; i++) {
        double t = col_dot(u, w[i]);
        hi = t > hi ? t : hi;
    }
    for (int i = 0; i < c->count; i++) {
        col_vec3 p = col_xform_point(xc, c->points[i]);
        double t = col_dot(u, p);
        if (t < lo) {
            lo = t;
            *deepest = p;
        }
    }
    return hi - lo;
}

/* A triangle whose core overlaps the piece's core: the least penetration over the
 * kernel's axis and both sides of the triangle's plane, plus the radius. */
static void tri_convex_overlap(const mcc_ctx *ctx, const col_vec3 w[3], const col_core_distance *cd, candidate *c)
{
    col_vec3 u = cd->normal, deep = col_v3(0, 0, 0), n;
    double best = core_depth(w, ctx->c, ctx->xc, u, &deep);
    if (col_unit_robust(tri_normal(w), &n))
        for (int s = 0; s < 2; s++, n = col_neg(n)) {
            col_vec3 p = deep;
            double d = core_depth(w, ctx->c, ctx->xc, n, &p);
            if (d < best) {
                best = d;
                u = n;
                deep = p;
            }
        }
    double depth = (best > 0.0 ? best : 0.0) + ctx->c->radius;
    c->n = u;
    c->sep = -depth;
    c->pb = col_sub(deep, col_scale(u, ctx->c->radius));
    c->pa = col_add(c->pb, col_scale(u, depth));
}

/* A face contact (u along the triangle's normal): every core point within the margin
 * whose foot on the triangle's plane lies inside it is a point of the manifold too (a box
 * resting on a floor gives its corners, not one point per triangle). */
static void face_points(mcc_ctx *ctx, const col_vec3 w[3], const candidate *base)
{
    col_vec3 n;
    if (!col_unit_robust(tri_normal(w), &n) || fabs(col_dot(n, base->n)) < CLUSTER_COS) return;
    col_vec3 u = base->n;
    double hi = -INFINITY;
    for (int i = 0; i < 3; i++) hi = fmax(hi, col_dot(u, w[i]));
    double r = ctx->c->radius;
    for (int i = 0; i < ctx->c->count; i++) {
        col_vec3 p = col_xform_point(ctx->xc, ctx->c->points[i]);
        double sep = col_dot(u, p) - r - hi;
        if (sep > ctx->margin || !tri_inside(w, n, p)) continue;
        candidate c = *base;
        c.pb = col_sub(p, col_scale(u, r));
        c.pa = col_sub(c.pb, col_scale(u, sep));
        c.sep = sep;
        add_candidate(&ctx->set, &c);
    }
}

static double mcc_leaf(void *vctx, const col_mesh_node *leaf)
{
    mcc_ctx *ctx = vctx;
    col_vec3 w[COL_MESH_LEAF_MAX][3];
    int k = col_mesh_leaf_world(ctx->m, ctx->xm, leaf, w);
    for (int i = 0; i < k; i++) {
        col_core tri = {w[i], 3, NULL, 0.0};
        col_core_distance cd;
        col_core_distance_query(&tri, &identity, ctx->c, ctx->xc, &cd);
        candidate c;
        c.ta = leaf->child + i;
        c.tb = -1;
        /* Within rounding of touching, GJK's direction is noise: treat as overlapping. */
        if (cd.overlap || cd.distance <= ctx->rounding) {
            tri_convex_overlap(ctx, w[i], &cd, &c);
        } else {
            double sep = cd.distance - ctx->c->radius;
            if (sep > ctx->margin) continue;
            c.n = cd.normal;
            c.sep = sep;
            c.pa = cd.point_a;
            c.pb = col_sub(cd.point_b, col_scale(cd.normal, ctx->c->radius));
        }
        add_candidate(&ctx->set, &c);
        face_points(ctx, w[i], &c);
    }
    return nextafter(ctx->margin, INFINITY); /* pairs with bound <= margin go on */
}

void col_mesh_convex_contact(const col_mesh *m, const col_xform *xm, const col_core *c, const col_xform *xc,
                             double margin, col_mesh_contact *out)
{
    memset(out, 0, sizeof *out);
    out->tri_a = out->tri_b = -1;
    col_vec3 cmin, cmax;
    double rm = col_mesh_convex_rounding(m, xm, c, xc, &cmin, &cmax);
    mcc_ctx ctx;
    ctx.m = m;
    ctx.xm = xm;
    ctx.c = c;
    ctx.xc = xc;
    ctx.margin = margin;
    ctx.rounding = rm;
    ctx.set.n = 0;
    col_mesh_convex_visit(m, cmin, cmax, rm, nextafter(margin, INFINITY), mcc_leaf, &ctx);
    finish_contact(&ctx.set, out);
}
