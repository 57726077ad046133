/* SPDX-License-Identifier: MIT */
/* Mesh distance and contacts by branch and bound (mesh_distance.h). */
#include "narrowphase/mesh_distance.h"

#include <float.h>
#include <string.h>

#include "lib/core/exact.h"
#include "narrowphase/mesh_bv_bound.h"
#include "narrowphase/tri_dist.h"

/* ---- bounds ---- */

/* The rounding margin subtracted from every box bound: the world vertices the leaves see
 * (col_xform_point), the relative transform, the boxes carried through it and the
 * leaves' own distances each round by a few units of DBL_EPSILON times the size of the
 * coordinates involved, which s bounds (poses' offsets plus the shapes' radii). 128 units
 * cover the sum with room (docs/meshes.md "Distance"). */
static double rounding_margin(double s) { return 128.0 * DBL_EPSILON * s; }

/* B's frame expressed in A's: x_a = R x_b + p, with |R| kept for box half extents. */
typedef struct rel_frame {
    col_mat3 R, absR;
    col_vec3 p;
} rel_frame;

static rel_frame relative(const col_xform *xa, const col_xform *xb)
{
    rel_frame f;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = 0.0;
            for (int k = 0; k < 3; k++) s += xa->R.m[3 * k + i] * xb->R.m[3 * k + j];
            f.R.m[3 * i + j] = s;
            f.absR.m[3 * i + j] = fabs(s);
        }
    f.p = col_mat3_tmul(&xa->R, col_sub(xb->p, xa->p));
    return f;
}

/* Euclidean distance between box [amin, amax] and the box of centre c, half extents h
 * (both in one frame): a lower bound on the distance of anything inside them. */
static double box_gap(col_vec3 amin, col_vec3 amax, col_vec3 c, col_vec3 h)
{
    double lo[3] = {amin.x, amin.y, amin.z}, hi[3] = {amax.x, amax.y, amax.z};
    double cc[3] = {c.x, c.y, c.z}, hh[3] = {h.x, h.y, h.z};
    double s = 0.0;
    for (int i = 0; i < 3; i++) {
        double g = lo[i] - (cc[i] + hh[i]);
        double g2 = (cc[i] - hh[i]) - hi[i];
        g = g > g2 ? g : g2;
        if (g > 0.0) s += g * g;
    }
    return sqrt(s);
}

/* The box gap of node x's box and node y's box carried into x's frame by f. */
static double carried_gap(const col_mesh_node *x, const col_mesh_node *y, const rel_frame *f)
{
    col_vec3 c = col_scale(col_add(y->min, y->max), 0.5), h = col_scale(col_sub(y->max, y->min), 0.5);
    col_vec3 cw = col_add(col_mat3_mul(&f->R, c), f->p), hw = col_mat3_mul(&f->absR, h);
    return box_gap(x->min, x->max, cw, hw);
}

/* What a node pair's bound needs: the two hierarchies, each frame in the other's, the
 * optional oriented boxes, the rounding margin. */
typedef struct pair_bounds {
    const col_mesh *a, *b;
    rel_frame f[2]; /* b's frame in a's, a's in b's */
    const col_mesh_obb *oa, *ob;
    double margin;
    const col_bv_frame *rss; /* non-NULL: the fitted rectangle swept spheres' bound (below) */
    const col_mesh_closest *best; /* non-NULL: RSS only where the box bound does not prune */
} pair_bounds;

static col_mat3 mat_mul(const col_mat3 *x, const col_mat3 *y)
{
    col_mat3 r;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            r.m[3 * i + j] = x->m[3 * i] * y->m[j] + x->m[3 * i + 1] * y->m[3 + j] + x->m[3 * i + 2] * y->m[6 + j];
    return r;
}

/* The gap of oriented box x and the box of oriented box y carried into x's box frame
 * (y's mesh frame to x's by f). */
static double obb_carried_gap(const col_mesh_obb *x, const col_mesh_obb *y, const rel_frame *f)
{
    col_mat3 xf = mat_mul(&x->R, &f->R), m;
    for (int i = 0; i < 3; i++) /* m = xf y.R^T: y's box axes in x's box frame */
        for (int j = 0; j < 3; j++)
            m.m[3 * i + j] = fabs(xf.m[3 * i] * y->R.m[3 * j] + xf.m[3 * i + 1] * y->R.m[3 * j + 1] +
                                  xf.m[3 * i + 2] * y->R.m[3 * j + 2]);
    col_vec3 t = col_mat3_mul(&x->R, col_sub(col_add(col_mat3_mul(&f->R, y->c), f->p), x->c));
    return box_gap(col_neg(x->h), x->h, t, col_mat3_mul(&m, y->h));
}

/* Lower bound for node pair (ia of a, ib of b): each node's box against the other's
 * carried into its frame and boxed there, both ways (each gap is a lower bound, so the
 * larger is too); with oriented boxes, the same on those. */
static double pair_bound(const pair_bounds *pb, int32_t ia, int32_t ib)
{
    /* certified on its own, rounding included (narrowphase/mesh_bv_bound.c) */
    if (pb->rss != NULL && pb->best == NULL) return col_bv_rss_bound(pb->rss, &pb->a->bvs[ia], &pb->b->bvs[ib]);
    double g1 = carried_gap(&pb->a->nodes[ia], &pb->b->nodes[ib], &pb->f[0]);
    double g2 = carried_gap(&pb->b->nodes[ib], &pb->a->nodes[ia], &pb->f[1]);
    double g = g1 > g2 ? g1 : g2;
    if (pb->oa != NULL) {
        g1 = obb_carried_gap(&pb->oa[ia], &pb->ob[ib], &pb->f[0]);
        g2 = obb_carried_gap(&pb->ob[ib], &pb->oa[ia], &pb->f[1]);
        g = g > g1 ? g : g1;
        g = g > g2 ? g : g2;
    }
    g -= pb->margin;
    /* the distance traversal's limit is the best distance so far: a pair the box bound
     * already prunes needs no RSS bound */
    if (pb->rss != NULL && g < pb->best->distance) {
        double r = col_bv_rss_bound(pb->rss, &pb->a->bvs[ia], &pb->b->bvs[ib]);
        g = g > r ? g : r;
    }
    return g;
}

static double node_size2(const col_mesh_node *n) { return col_len2(col_sub(n->max, n->min)); }

/* World vertices of the triangles of leaf n. */
static int leaf_world(const col_mesh *m, const col_xform *x, const col_mesh_node *n, col_vec3 w[][3])
{
    for (int k = 0; k < n->count; k++) {
        col_vec3 v[3];
        col_mesh_triangle(m, n->child + k, v);
        for (int i = 0; i < 3; i++) w[k][i] = col_xform_point(x, v[i]);
    }
    return n->count;
}

static double min2(double x, double y) { return x < y ? x : y; }
static double max2(double x, double y) { return x > y ? x : y; }

static void tri_box(const col_vec3 w[3], col_vec3 *lo, col_vec3 *hi)
{
    *lo = *hi = w[0];
    for (int i = 1; i < 3; i++) {
        *lo = col_v3(min2(lo->x, w[i].x), min2(lo->y, w[i].y), min2(lo->z, w[i].z));
        *hi = col_v3(max2(hi->x, w[i].x), max2(hi->y, w[i].y), max2(hi->z, w[i].z));
    }
}

/* The unit normal of w, or zero for a degenerate triangle (or one too small to tell). */
static col_vec3 unit_normal(const col_vec3 w[3])
{
    col_vec3 n = col_cross(col_sub(w[1], w[0]), col_sub(w[2], w[0])), u = col_v3(0, 0, 0);
    double l2 = col_len2(n);
    if (l2 > 0x1p-800 && l2 < 0x1p800) u = col_scale(n, 1.0 / sqrt(l2));
    return u;
}

/* How far triangle q lies on one side of the plane of triangle w (unit normal n; zero:
 * no plane): a lower bound on their distance, since w lies in that plane (0 when q
 * straddles it). */
static double plane_gap(const col_vec3 w[3], col_vec3 n, const col_vec3 q[3])
{
    double lo = INFINITY, hi = -INFINITY;
    for (int i = 0; i < 3; i++) {
        double h = col_dot(n, col_sub(q[i], w[0]));
        lo = h < lo ? h : lo;
        hi = h > hi ? h : hi;
    }
    return lo > 0.0 ? lo : (hi < 0.0 ? -hi : 0.0);
}

static const col_xform identity = {{{1, 0, 0, 0, 1, 0, 0, 0, 1}}, {0, 0, 0}};

/* ---- the two traversals, shared by distance and contacts ----
 * A visitor gets leaf pairs and returns the new pruning threshold: the best distance for
 * a distance query, the margin for contacts. */

typedef struct pair_item {
    int32_t na, nb;
    double bound;
} pair_item;

typedef double (*leaf_pair_fn)(void *ctx, const col_mesh_node *la, const col_mesh_node *lb);

/* Pairs of nodes whose bound is below *limit (strictly), nearer pair first. */
static void traverse_pair(const pair_bounds *pb, double limit, leaf_pair_fn leaf, void *ctx, int32_t *node_pairs)
{
    const col_mesh *a = pb->a, *b = pb->b;
    pair_item stack[4 * COL_MESH_MAX_DEPTH + 8];
    int top = 0;
    stack[top++] = (pair_item){0, 0, pair_bound(pb, 0, 0)};
    *node_pairs = 1;
    while (top > 0) {
        pair_item it = stack[--top];
        if (!(it.bound < limit)) continue;
        const col_mesh_node *na = &a->nodes[it.na], *nb = &b->nodes[it.nb];
        if (na->count > 0 && nb->count > 0) {
            limit = leaf(ctx, na, nb);
            continue;
        }
        /* Split the inner node (the larger one when both are inner, as PQP does). */
        int split_a = nb->count > 0 || (na->count == 0 && node_size2(na) >= node_size2(nb));
        pair_item c0, c1;
        if (split_a) {
            c0 = (pair_item){na->child, it.nb, pair_bound(pb, na->child, it.nb)};
            c1 = (pair_item){na->child + 1, it.nb, pair_bound(pb, na->child + 1, it.nb)};
        } else {
            c0 = (pair_item){it.na, nb->child, pair_bound(pb, it.na, nb->child)};
            c1 = (pair_item){it.na, nb->child + 1, pair_bound(pb, it.na, nb->child + 1)};
        }
        *node_pairs += 2;
        /* The nearer child goes on top, so it is refined first. */
        if (c0.bound < c1.bound) {
            pair_item t = c0;
            c0 = c1;
            c1 = t;
        }
        if (c0.bound < limit) stack[top++] = c0;
        if (c1.bound < limit) stack[top++] = c1;
    }
}

typedef double (*leaf_fn)(void *ctx, const col_mesh_node *leaf);

/* Nodes of m whose box is nearer than *limit to the box [cmin, cmax] (m's frame). */
static void traverse_one(const col_mesh *m, col_vec3 cmin, col_vec3 cmax, double margin, double limit, leaf_fn leaf,
                         void *ctx, int32_t *node_pairs)
{
    struct {
        int32_t n;
        double bound;
    } stack[2 * COL_MESH_MAX_DEPTH + 8];
    col_vec3 c = col_scale(col_add(cmin, cmax), 0.5), h = col_scale(col_sub(cmax, cmin), 0.5);
    int top = 0;
    stack[top].n = 0;
    stack[top++].bound = box_gap(m->nodes[0].min, m->nodes[0].max, c, h) - margin;
    *node_pairs = 1;
    while (top > 0) {
        int32_t n = stack[top - 1].n;
        double bound = stack[--top].bound;
        if (!(bound < limit)) continue;
        const col_mesh_node *nd = &m->nodes[n];
        if (nd->count > 0) {
            limit = leaf(ctx, nd);
            continue;
        }
        int32_t k0 = nd->child, k1 = nd->child + 1;
        double b0 = box_gap(m->nodes[k0].min, m->nodes[k0].max, c, h) - margin;
        double b1 = box_gap(m->nodes[k1].min, m->nodes[k1].max, c, h) - margin;
        *node_pairs += 2;
        if (b0 < b1) {
            double tb = b0;
            b0 = b1;
            b1 = tb;
            int32_t tk = k0;
            k0 = k1;
            k1 = tk;
        }
        if (b0 < limit) {
            stack[top].n = k0;
            stack[top++].bound = b0;
        }
        if (b1 < limit) {
            stack[top].n = k1;
            stack[top++].bound = b1;
        }
    }
}

/* The convex piece's box in the mesh's frame (its world core points carried back, the
 * radius added), and the size s of the coordinates involved. */
static void convex_box(const col_xform *xm, const col_core *c, const col_xform *xc, col_vec3 *cmin, col_vec3 *cmax,
                       double *core_size)
{
    double big = INFINITY, sz = 0.0;
    col_vec3 lo = col_v3(big, big, big), hi = col_v3(-big, -big, -big);
    for (int i = 0; i < c->count; i++) {
        col_vec3 w = col_xform_point(xc, c->points[i]);
        col_vec3 l = col_mat3_tmul(&xm->R, col_sub(w, xm->p));
        lo = col_v3(fmin(lo.x, l.x), fmin(lo.y, l.y), fmin(lo.z, l.z));
        hi = col_v3(fmax(hi.x, l.x), fmax(hi.y, l.y), fmax(hi.z, l.z));
        double r = col_max_abs(c->points[i]);
        sz = r > sz ? r : sz;
    }
    col_vec3 r = col_v3(c->radius, c->radius, c->radius);
    *cmin = col_sub(lo, r);
    *cmax = col_add(hi, r);
    *core_size = 2.0 * sz + c->radius;
}

static double mesh_size(const col_mesh *m, const col_xform *x) { return col_max_abs(x->p) + 2.0 * m->radius; }

/* ---- distance ---- */

static void closest_init(col_mesh_closest *out)
{
    memset(out, 0, sizeof *out);
    out->distance = INFINITY;
    out->tri_a = out->tri_b = -1;
}

/* One more leaf pair evaluated: kept if nearer than the best so far. */
static void offer_closest(col_mesh_closest *out, double d, col_vec3 pa, col_vec3 pb, int32_t ta, int32_t tb)
{
    out->leaf_pairs++;
    if (d < out->distance) {
        out->distance = d;
        out->point_a = pa;
        out->point_b = pb;
        out->tri_a = ta;
        out->tri_b = tb;
    }
}

/* The world data of a leaf's triangles, kept in a small direct-mapped cache per side:
 * the traversal meets the same leaf against many leaves of the other side in a row. */
#define LEAF_CACHE 16

typedef struct leaf_data {
    int32_t node; /* -1: empty */
    int count;
    col_vec3 w[COL_MESH_LEAF_MAX][3];
    col_vec3 lo[COL_MESH_LEAF_MAX], hi[COL_MESH_LEAF_MAX]; /* world box */
    col_vec3 c[COL_MESH_LEAF_MAX], h[COL_MESH_LEAF_MAX];   /* its centre and half extents */
    col_vec3 n[COL_MESH_LEAF_MAX];                         /* unit normal (zero: none) */
} leaf_data;

static const leaf_data *leaf_get(leaf_data *cache, const col_mesh *m, const col_xform *x, const col_mesh_node *leaf)
{
    int32_t node = (int32_t)(leaf - m->nodes);
    leaf_data *d = &cache[node % LEAF_CACHE];
    if (d->node == node) return d;
    d->node = node;
    d->count = leaf_world(m, x, leaf, d->w);
    for (int i = 0; i < d->count; i++) {
        tri_box(d->w[i], &d->lo[i], &d->hi[i]);
        d->c[i] = col_scale(col_add(d->lo[i], d->hi[i]), 0.5);
        d->h[i] = col_scale(col_sub(d->hi[i], d->lo[i]), 0.5);
        d->n[i] = unit_normal(d->w[i]);
    }
    return d;
}

typedef struct mm_ctx {
    const col_mesh *a, *b;
    const col_xform *xa, *xb;
    double margin;
    col_mesh_closest *out;
    leaf_data cache_a[LEAF_CACHE], cache_b[LEAF_CACHE];
} mm_ctx;

static double mm_leaf(void *vctx, const col_mesh_node *la, const col_mesh_node *lb)
{
    mm_ctx *ctx = vctx;
    const leaf_data *da = leaf_get(ctx->cache_a, ctx->a, ctx->xa, la);
    const leaf_data *db = leaf_get(ctx->cache_b, ctx->b, ctx->xb, lb);
    col_mesh_closest *out = ctx->out;
    for (int i = 0; i < da->count; i++)
        for (int j = 0; j < db->count; j++) {
            /* Cheap lower bounds first: the triangles' world boxes, then each one's plane. */
            if (!(box_gap(da->lo[i], da->hi[i], db->c[j], db->h[j]) - ctx->margin < out->distance)) continue;
            if (!(plane_gap(da->w[i], da->n[i], db->w[j]) - ctx->margin < out->distance)) continue;
            if (!(plane_gap(db->w[j], db->n[j], da->w[i]) - ctx->margin < out->distance)) continue;
            col_vec3 pa, pb;
            double d = col_tri_distance(da->w[i], db->w[j], &pa, &pb);
            offer_closest(out, d, pa, pb, la->child + i, lb->child + j);
        }
    return out->distance > 0.0 ? out->distance : -INFINITY;
}

/* The distance traversal with the node bounds pb (its margin set here); out initialized. */
static void mm_distance(pair_bounds *pb, const col_xform *xa, const col_xform *xb, col_mesh_closest *out)
{
    mm_ctx ctx;
    ctx.a = pb->a;
    ctx.b = pb->b;
    ctx.xa = xa;
    ctx.xb = xb;
    ctx.out = out;
    ctx.margin = rounding_margin(mesh_size(pb->a, xa) + mesh_size(pb->b, xb));
    for (int i = 0; i < LEAF_CACHE; i++) ctx.cache_a[i].node = ctx.cache_b[i].node = -1;
    int32_t np;
    pb->margin = ctx.margin;
    traverse_pair(pb, INFINITY, mm_leaf, &ctx, &np);
    out->node_pairs = np;
}

void col_mesh_mesh_distance_obb(const col_mesh *a, const col_xform *xa, const col_mesh_obb *oa, const col_mesh *b,
                                const col_xform *xb, const col_mesh_obb *ob, col_mesh_closest *out)
{
    if (oa == NULL || ob == NULL) oa = ob = NULL;
    closest_init(out);
    pair_bounds pb = {a, b, {relative(xa, xb), relative(xb, xa)}, oa, ob, 0.0, NULL, NULL};
    mm_distance(&pb, xa, xb, out);
}

typedef struct mc_ctx {
    const col_mesh *m;
    const col_xform *xm;
    const col_core *c;
    const col_xform *xc;
    col_mesh_closest *out;
    col_vec3 cc, ch; /* the piece's box in the mesh's frame: centre, half extents */
    double margin;
} mc_ctx;

double col_tri_convex_distance(const col_vec3 w[3], const col_core *c, const col_xform *xc, col_vec3 *pa,
                               col_vec3 *pb)
{
    col_core tri = {w, 3, NULL, 0.0};
    col_core_distance cd;
    col_core_distance_query(&tri, &identity, c, xc, &cd);
    *pa = cd.point_a;
    double d = cd.overlap ? 0.0 : cd.distance - c->radius;
    double size = col_max_abs(w[0]) + col_max_abs(w[1]) + col_max_abs(w[2]) + col_max_abs(cd.point_b) + c->radius;
    if (d <= rounding_margin(size)) {
        /* Within rounding of touching: the exact decision of narrowphase/rounded.h. */
        col_np_result r;
        col_rounded_query(&tri, &identity, c, xc, &r);
        if (r.colliding) {
            *pb = *pa;
            return 0.0;
        }
        if (d <= 0.0) { /* apart, closer than GJK shows */
            *pb = *pa;
            return DBL_TRUE_MIN;
        }
    }
    *pb = col_sub(cd.point_b, col_scale(cd.normal, c->radius));
    return d;
}

static double mc_leaf(void *vctx, const col_mesh_node *leaf)
{
    mc_ctx *ctx = vctx;
    col_vec3 w[COL_MESH_LEAF_MAX][3];
    int k = leaf_world(ctx->m, ctx->xm, leaf, w);
    col_mesh_closest *out = ctx->out;
    for (int i = 0; i < k; i++) {
        /* The triangle's local box against the piece's: a cheap lower bound first. */
        col_vec3 v[3], lo, hi;
        col_mesh_triangle(ctx->m, leaf->child + i, v);
        tri_box(v, &lo, &hi);
        if (!(box_gap(lo, hi, ctx->cc, ctx->ch) - ctx->margin < out->distance)) continue;
        col_vec3 pa, pb;
        double d = col_tri_convex_distance(w[i], ctx->c, ctx->xc, &pa, &pb);
        offer_closest(out, d, pa, pb, leaf->child + i, -1);
    }
    return out->distance > 0.0 ? out->distance : -INFINITY;
}

void col_mesh_convex_distance(const col_mesh *m, const col_xform *xm, const col_core *c, const col_xform *xc,
                              col_mesh_closest *out)
{
    closest_init(out);
    col_vec3 cmin, cmax;
    double csize;
    convex_box(xm, c, xc, &cmin, &cmax, &csize);
    double margin = rounding_margin(mesh_size(m, xm) + col_max_abs(xc->p) + csize);
    mc_ctx ctx = {m, xm, c, xc, out, col_scale(col_add(cmin, cmax), 0.5), col_scale(col_sub(cmax, cmin), 0.5), margin};
    int32_t np;
    traverse_one(m, cmin, cmax, margin, INFINITY, mc_leaf, &ctx, &np);
    out->node_pairs = np;
}

/* ---- contacts ---- */

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
    int ka = leaf_world(ctx->a, ctx->xa, la, wa), kb = leaf_world(ctx->b, ctx->xb, lb, wb);
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
    double rm = rounding_margin(mesh_size(a, xa) + mesh_size(b, xb));
    ctx.rounding = rm;
    int32_t np;
    /* Pairs with bound <= margin are visited: the limit is just above it. */
    pair_bounds pb = {a, b, {relative(xa, xb), relative(xb, xa)}, NULL, NULL, rm, NULL, NULL};
    traverse_pair(&pb, nextafter(margin, INFINITY), mmc_leaf, &ctx, &np);
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
    int k = leaf_world(ctx->m, ctx->xm, leaf, w);
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
    double csize;
    convex_box(xm, c, xc, &cmin, &cmax, &csize);
    double rm = rounding_margin(mesh_size(m, xm) + col_max_abs(xc->p) + csize);
    mcc_ctx ctx;
    ctx.m = m;
    ctx.xm = xm;
    ctx.c = c;
    ctx.xc = xc;
    ctx.margin = margin;
    ctx.rounding = rm;
    ctx.set.n = 0;
    int32_t np;
    traverse_one(m, cmin, cmax, rm, nextafter(margin, INFINITY), mcc_leaf, &ctx, &np);
    finish_contact(&ctx.set, out);
}

void col_mesh_mesh_distance(const col_mesh *a, const col_xform *xa, const col_mesh *b, const col_xform *xb,
                            col_mesh_closest *out)
{
    /* the fitted RSS bounds: a third to two thirds of the box bounds' time on the mesh
     * scenes (docs/meshes.md "Bounding volumes measured") */
    col_mesh_mesh_distance_bound(a, xa, b, xb, COL_MESH_BOUND_RSS, out);
}

void col_mesh_mesh_distance_bound(const col_mesh *a, const col_xform *xa, const col_mesh *b, const col_xform *xb,
                                  col_mesh_bound bound, col_mesh_closest *out)
{
    if (bound == COL_MESH_BOUND_BOX) {
        col_mesh_mesh_distance_obb(a, xa, NULL, b, xb, NULL, out);
        return;
    }
    closest_init(out);
    col_bv_frame bvf;
    col_bv_frame_setup(&bvf, a, xa, b, xb);
    pair_bounds pb = {a, b, {relative(xa, xb), relative(xb, xa)}, NULL, NULL, 0.0, &bvf,
                      bound == COL_MESH_BOUND_BOX_RSS ? out : NULL};
    mm_distance(&pb, xa, xb, out);
}

/* ---- oriented boxes per node (the layout experiment) ---- */

/* Eigenvectors of the symmetric a (cyclic Jacobi, Golub and Van Loan 8.5), as the rows of
 * *v: orthonormal to rounding. */
static void jacobi3(double a[3][3], col_mat3 *v)
{
    double e[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int sweep = 0; sweep < 32; sweep++) {
        double off = fabs(a[0][1]) + fabs(a[0][2]) + fabs(a[1][2]);
        if (off <= 1e-30 * (fabs(a[0][0]) + fabs(a[1][1]) + fabs(a[2][2])) || off == 0.0) break;
        for (int p = 0; p < 2; p++)
            for (int q = p + 1; q < 3; q++) {
                if (a[p][q] == 0.0) continue;
                double th = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
                double t = (th >= 0 ? 1.0 : -1.0) / (fabs(th) + sqrt(th * th + 1.0));
                double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
                for (int k = 0; k < 3; k++) { /* a = J^T a J */
                    double akp = a[k][p], akq = a[k][q];
                    a[k][p] = c * akp - s * akq;
                    a[k][q] = s * akp + c * akq;
                }
                for (int k = 0; k < 3; k++) {
                    double apk = a[p][k], aqk = a[q][k];
                    a[p][k] = c * apk - s * aqk;
                    a[q][k] = s * apk + c * aqk;
                }
                for (int k = 0; k < 3; k++) {
                    double ekp = e[k][p], ekq = e[k][q];
                    e[k][p] = c * ekp - s * ekq;
                    e[k][q] = s * ekp + c * ekq;
                }
            }
    }
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) v->m[3 * i + k] = e[k][i];
}

static void fit_obb(const col_mesh *m, int first, int count, col_mesh_obb *o)
{
    col_vec3 mean = col_v3(0, 0, 0);
    int n = 3 * count;
    for (int k = first; k < first + count; k++)
        for (int i = 0; i < 3; i++) mean = col_add(mean, m->vertices[m->tris[3 * k + i]]);
    mean = col_scale(mean, 1.0 / n);
    double cov[3][3] = {{0}};
    for (int k = first; k < first + count; k++)
        for (int i = 0; i < 3; i++) {
            col_vec3 d = col_sub(m->vertices[m->tris[3 * k + i]], mean);
            double x[3] = {d.x, d.y, d.z};
            for (int r = 0; r < 3; r++)
                for (int c = 0; c < 3; c++) cov[r][c] += x[r] * x[c];
        }
    jacobi3(cov, &o->R);
    col_vec3 lo = col_v3(INFINITY, INFINITY, INFINITY), hi = col_scale(lo, -1.0);
    double big = 0.0;
    for (int k = first; k < first + count; k++)
        for (int i = 0; i < 3; i++) {
            col_vec3 x = m->vertices[m->tris[3 * k + i]], p = col_mat3_mul(&o->R, x);
            lo = col_v3(min2(lo.x, p.x), min2(lo.y, p.y), min2(lo.z, p.z));
            hi = col_v3(max2(hi.x, p.x), max2(hi.y, p.y), max2(hi.z, p.z));
            big = max2(big, col_max_abs(x));
        }
    double w = 1e-12 * big;
    o->h = col_add(col_scale(col_sub(hi, lo), 0.5), col_v3(w, w, w));
    o->c = col_mat3_tmul(&o->R, col_scale(col_add(lo, hi), 0.5));
}

/* Triangle range of node n (leaf order keeps a subtree's triangles together). */
static void node_range(const col_mesh *m, int32_t n, int *first, int *count)
{
    int32_t lo = n, hi = n;
    while (m->nodes[lo].count == 0) lo = m->nodes[lo].child;
    while (m->nodes[hi].count == 0) hi = m->nodes[hi].child + 1;
    *first = m->nodes[lo].child;
    *count = m->nodes[hi].child + m->nodes[hi].count - *first;
}

void col_mesh_fit_obbs(const col_mesh *m, col_mesh_obb *obb)
{
    for (int32_t n = 0; n < m->node_count; n++) {
        int first, count;
        node_range(m, n, &first, &count);
        fit_obb(m, first, count, &obb[n]);
    }
}
