/* SPDX-License-Identifier: MIT */
/* Mesh distance by branch and bound (mesh_distance.h); its traversals also serve the
 * contact builder (narrowphase/mesh_contact.c). */
#include "narrowphase/mesh_distance.h"

#include <float.h>
#include <string.h>

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
 * rounding margin, the fitted volumes when they bound. */
typedef struct pair_bounds {
    const col_mesh *a, *b;
    rel_frame f[2]; /* b's frame in a's, a's in b's */
    double margin;
    const col_bv_frame *rss; /* non-NULL: the fitted rectangle swept spheres' bound (below) */
    const col_mesh_closest *best; /* non-NULL: RSS only where the box bound does not prune */
} pair_bounds;

/* Lower bound for node pair (ia of a, ib of b): each node's box against the other's
 * carried into its frame and boxed there, both ways (each gap is a lower bound, so the
 * larger is too); with the fitted RSS, their bound instead or (BOX_RSS) as well. */
static double pair_bound(const pair_bounds *pb, int32_t ia, int32_t ib)
{
    /* certified on its own, rounding included (narrowphase/mesh_bv_bound.c) */
    if (pb->rss != NULL && pb->best == NULL) return col_bv_rss_bound(pb->rss, &pb->a->bvs[ia], &pb->b->bvs[ib]);
    double g1 = carried_gap(&pb->a->nodes[ia], &pb->b->nodes[ib], &pb->f[0]);
    double g2 = carried_gap(&pb->b->nodes[ib], &pb->a->nodes[ia], &pb->f[1]);
    double g = g1 > g2 ? g1 : g2;
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

typedef col_mesh_leaf_pair_fn leaf_pair_fn;

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

typedef col_mesh_leaf_fn leaf_fn;

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
    closest_init(out);
    col_bv_frame bvf;
    pair_bounds pb = {a, b, {relative(xa, xb), relative(xb, xa)}, 0.0, NULL, NULL};
    if (bound != COL_MESH_BOUND_BOX) {
        col_bv_frame_setup(&bvf, a, xa, b, xb);
        pb.rss = &bvf;
        pb.best = bound == COL_MESH_BOUND_BOX_RSS ? out : NULL;
    }
    mm_distance(&pb, xa, xb, out);
}

/* ---- the traversals for the contact builder (narrowphase/mesh_contact.c) ---- */

int col_mesh_leaf_world(const col_mesh *m, const col_xform *x, const col_mesh_node *leaf, col_vec3 w[][3])
{
    return leaf_world(m, x, leaf, w);
}

double col_mesh_pair_rounding(const col_mesh *a, const col_xform *xa, const col_mesh *b, const col_xform *xb)
{
    return rounding_margin(mesh_size(a, xa) + mesh_size(b, xb));
}

void col_mesh_pair_visit(const col_mesh *a, const col_xform *xa, const col_mesh *b, const col_xform *xb,
                         double rounding, double limit, col_mesh_leaf_pair_fn leaf, void *ctx)
{
    pair_bounds pb = {a, b, {relative(xa, xb), relative(xb, xa)}, rounding, NULL, NULL};
    int32_t np;
    traverse_pair(&pb, limit, leaf, ctx, &np);
}

double col_mesh_convex_rounding(const col_mesh *m, const col_xform *xm, const col_core *c, const col_xform *xc,
                                col_vec3 *cmin, col_vec3 *cmax)
{
    double csize;
    convex_box(xm, c, xc, cmin, cmax, &csize);
    return rounding_margin(mesh_size(m, xm) + col_max_abs(xc->p) + csize);
}

void col_mesh_convex_visit(const col_mesh *m, col_vec3 cmin, col_vec3 cmax, double rounding, double limit,
                           col_mesh_leaf_fn leaf, void *ctx)
{
    int32_t np;
    traverse_one(m, cmin, cmax, rounding, limit, leaf, ctx, &np);
}
