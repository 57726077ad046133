/* SPDX-License-Identifier: MIT */
/* Ray casts against every body (include/colibri/worldquery.h, docs/queries.md): the query
 * tree (lib/query_tree.h) walked front to back, bodies moved since the last update one by
 * one from their set poses, each body's pieces or mesh through narrowphase/ray.h. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "colibri/worldquery.h"
#include "lib/core/v2.h"
#include "lib/query_tree.h"
#include "narrowphase/ray.h"

/* ---- rays ---- */

enum { RAY_CLOSEST, RAY_ANY, RAY_ALL };

typedef struct ray_hit_rec {
    double t;
    uint32_t slot;
    int piece;
    col_vec3 normal;
} ray_hit_rec;

typedef struct ray_query {
    const col_world *w;
    col_ray_seg seg;
    col_vec3 d;
    double margin;           /* box tests widened by this (docs/queries.md) */
    double inv[3];           /* 1 / d per axis (1e300 where |d| < 1e-290: seg_box_enter) */
    double am[3], ap[3];     /* the origin plus and minus the margin, per axis */
    bool near_lo[3];         /* inv > 0: the entering plane of an axis is the box's lo */
    double on[3], of[3];     /* the origin moved for the entering and the leaving plane (am or ap) */
    col_v2 on2[3], of2[3], inv2[3]; /* on, of and inv in both lanes (seg_pair_enter) */
    const col_query_filter *filter;
    int mode;
    bool found, done;
    ray_hit_rec best;
    ray_hit_rec *all;        /* RAY_ALL */
    int count, cap;
    col_status status;
} ray_query;

/* Entry parameter of the segment into [lo, hi] widened by the margin; above 1 when it
 * misses. Branch-free: am and ap are the origin moved by the margin (so l - am is
 * l - m - a), and an axis the ray does not move along has inv = 1e300, which sends the
 * slab's two parameters to +-huge (never NaN: the differences are finite) and so keeps
 * or rejects the ray by the origin's side alone. Per axis the slab's entering plane is
 * lo's when inv > 0 and hi's when inv < 0 (Williams et al., "An efficient and robust
 * ray-box intersection algorithm", 2005): the ray's sign picks each pair once (near_lo),
 * so the box test needs no min and max per axis. The picked values are those min and
 * max would give (lo - am <= hi - ap as rounding is monotone), so the answer is the same
 * bit for bit. */
static inline double seg_box_enter(const ray_query *q, col_vec3 lo, col_vec3 hi)
{
    const double x0 = q->near_lo[0] ? lo.x : hi.x, x1 = q->near_lo[0] ? hi.x : lo.x;
    const double y0 = q->near_lo[1] ? lo.y : hi.y, y1 = q->near_lo[1] ? hi.y : lo.y;
    const double z0 = q->near_lo[2] ? lo.z : hi.z, z1 = q->near_lo[2] ? hi.z : lo.z;
    double t0 = (x0 - q->on[0]) * q->inv[0], t1 = (x1 - q->of[0]) * q->inv[0];
    double n = (y0 - q->on[1]) * q->inv[1], f = (y1 - q->of[1]) * q->inv[1];
    t0 = n > t0 ? n : t0, t1 = f < t1 ? f : t1;
    n = (z0 - q->on[2]) * q->inv[2], f = (z1 - q->of[2]) * q->inv[2];
    t0 = n > t0 ? n : t0, t1 = f < t1 ? f : t1;
    t0 = t0 > 0.0 ? t0 : 0.0, t1 = t1 < 1.0 ? t1 : 1.0;
    return t0 <= t1 ? t0 : 2.0;
}

static double ray_tmax(const ray_query *q)
{
    return q->mode == RAY_CLOSEST && q->found ? q->best.t : 1.0;
}

static void ray_keep(ray_query *q, const ray_hit_rec *h)
{
    if (q->mode == RAY_ALL) {
        if (q->count == q->cap) {
            int cap = q->cap ? 2 * q->cap : 16;
            col_alloc a;
            col_alloc_init(&a, &q->w->def.allocator);
            ray_hit_rec *n = col_alloc_bytes(&a, (size_t)cap * sizeof *n);
            if (n == NULL) {
                q->status = COL_ERR_OUT_OF_MEMORY, q->done = true;
                return;
            }
            if (q->count) memcpy(n, q->all, (size_t)q->count * sizeof *n);
            col_free_bytes(&a, q->all, (size_t)q->cap * sizeof *q->all);
            q->all = n, q->cap = cap;
        }
        q->all[q->count++] = *h;
        q->found = true;
        return;
    }
    if (!q->found || h->t < q->best.t || (h->t == q->best.t && h->slot < q->best.slot)) q->best = *h;
    q->found = true;
    if (q->mode == RAY_ANY) q->done = true;
}

/* One body: box (unless the tree's leaf has tested it), filter, then its pieces (or its
 * mesh). */
static void ray_body(ray_query *q, uint32_t slot, bool boxed)
{
    const col_world *w = q->w;
    const col_body_rec *b = &w->bodies[slot];
    col_xform xf;
    double tmax = ray_tmax(q);
    if (w->dirty[slot]) {
        col_aabb box;
        col_query_body_pose_box(w, slot, &xf, &box);
        if (seg_box_enter(q, box.min, box.max) > tmax) return;
    } else {
        xf = b->xf;
        if (!boxed && seg_box_enter(q, w->hot[slot].box.min, w->hot[slot].box.max) > tmax) return;
    }
    if (!col_query_body_passes(w, slot, q->filter)) return;
    const col_geometry *g = w->shapes[w->bodies[slot].shape].geom;
    ray_hit_rec h = {0.0, slot, 0, {0, 0, 0}};
    bool hit = false;
    col_ray_out o;
    o.exact = 0;
    if (col_geometry_is_mesh(g)) {
        hit = col_ray_mesh(&g->mesh, &xf, &q->seg, tmax, &o);
        if (hit) h.t = o.t, h.piece = o.triangle, h.normal = o.normal;
    } else {
        for (int i = 0; i < g->piece_count; i++)
            if (col_ray_piece(&g->pieces[i], &xf, &q->seg, hit ? h.t : tmax, &o) && (!hit || o.t < h.t)) {
                h.t = o.t, h.piece = i, h.normal = o.normal;
                hit = true;
            }
    }
    if (!hit) return;
    if (q->mode == RAY_CLOSEST && q->found && (h.t > q->best.t || (h.t == q->best.t && slot > q->best.slot))) return;
    ray_keep(q, &h);
}

/* The entry parameters of both children of inner node i (pairs[i], box_tree.h): the
 * operations of seg_box_enter, lane by lane, in the same order, so each lane's value is
 * seg_box_enter's bit for bit. */
static inline void seg_pair_enter(const ray_query *q, const col_box_tree_pair *p, double e[2])
{
    col_v2 t0 = (col_v2_load(q->near_lo[0] ? p->lo[0] : p->hi[0]) - q->on2[0]) * q->inv2[0];
    col_v2 t1 = (col_v2_load(q->near_lo[0] ? p->hi[0] : p->lo[0]) - q->of2[0]) * q->inv2[0];
    for (int k = 1; k < 3; k++) {
        col_v2 n = (col_v2_load(q->near_lo[k] ? p->lo[k] : p->hi[k]) - q->on2[k]) * q->inv2[k];
        col_v2 f = (col_v2_load(q->near_lo[k] ? p->hi[k] : p->lo[k]) - q->of2[k]) * q->inv2[k];
        t0 = col_v2_max(n, t0), t1 = col_v2_min(f, t1);
    }
    const col_v2 zero = {0.0, 0.0}, one = {1.0, 1.0}, two = {2.0, 2.0};
    t0 = col_v2_max(t0, zero), t1 = col_v2_min(t1, one);
    col_v2 r = col_v2_select(t0 <= t1, t0, two);
    memcpy(e, &r, sizeof r);
}

/* Front to back: of an inner node's two children the nearer one reached is walked next,
 * the farther one reached is pushed with its entry parameter, which is tested against the
 * best hit so far when it is popped. The walk reads the pair blocks (box_tree.h) and the
 * leaves' items only: a node's child and count come with its parent's block. */
static void ray_walk(ray_query *q, const col_box_tree *t)
{
    if (t->node_count == 0) return;
    int stack[COL_BOX_TREE_STACK], schild[COL_BOX_TREE_STACK], scount[COL_BOX_TREE_STACK], top = 0;
    double enter[COL_BOX_TREE_STACK];
    if (seg_box_enter(q, t->nodes[0].min, t->nodes[0].max) > 1.0) return;
    int i = 0, child = t->nodes[0].child, count = t->nodes[0].count;
    for (;;) {
        if (count > 0) {
            for (int k = child; k < child + count && !q->done; k++)
                if (seg_box_enter(q, t->boxes[2 * k], t->boxes[2 * k + 1]) <= ray_tmax(q) &&
                    col_query_body_in_tree(q->w, t->ids[k]))
                    ray_body(q, t->ids[k], true);
        } else {
            const col_box_tree_pair *pr = &t->pairs[i];
            /* what the children's visits read next (a walk is a chain of dependent loads,
             * and on a shared machine the tree is often out of the nearer caches): ask for
             * it while this node's boxes are tested */
            for (int j = 0; j < 2; j++) {
                const char *next = pr->count[j] > 0 ? (const char *)&t->boxes[2 * pr->child[j]]
                                                    : (const char *)&t->pairs[child + j];
                __builtin_prefetch(next);
                __builtin_prefetch(next + 64);
            }
            double e[2];
            seg_pair_enter(q, pr, e);
            int j0 = 0, j1 = 1;
            double e0 = e[0], e1 = e[1];
            if (e0 > e1) j0 = 1, j1 = 0, e0 = e[1], e1 = e[0];
            double tm = ray_tmax(q);
            if (e0 <= tm) {
                if (e1 <= tm)
                    stack[top] = child + j1, schild[top] = pr->child[j1], scount[top] = pr->count[j1],
                    enter[top++] = e1;
                i = child + j0, child = pr->child[j0], count = pr->count[j0];
                continue;
            }
        }
        /* the next reached node on the stack */
        for (;;) {
            if (top == 0 || q->done) return;
            top--;
            if (enter[top] <= ray_tmax(q)) break;
        }
        i = stack[top], child = schild[top], count = scount[top];
    }
}

static int hit_order(const void *pa, const void *pb)
{
    const ray_hit_rec *a = pa, *b = pb;
    if (a->t != b->t) return a->t < b->t ? -1 : 1;
    return a->slot < b->slot ? -1 : a->slot > b->slot;
}

static col_ray_hit hit_out(const ray_query *q, const ray_hit_rec *h)
{
    col_ray_hit o;
    o.body = col_world_body_id(q->w, h->slot);
    o.piece = h->piece;
    o.fraction = h->t;
    o.point = h->t == 1.0 ? q->seg.b : col_add(q->seg.a, col_scale(q->d, h->t));
    o.normal = h->normal;
    return o;
}

/* Validates, syncs the tree and runs the walk; the caller reads q. */
static col_status ray_run(const col_world *w, col_vec3 origin, col_vec3 translation, const col_query_filter *filter,
                          int mode, ray_query *q, const char *what)
{
    static const col_query_filter every = {0xffffffffu, 0xffffffffu, NULL, NULL};
    memset(q, 0, sizeof *q);
    col_vec3 end = col_add(origin, translation);
    if (!col_query_finite_point(origin) || !col_query_finite_point(translation) || !col_query_finite_point(end))
        return col_world_fail(w, COL_ERR_NOT_FINITE, "%s: the ray has a coordinate that is NaN, infinite or beyond %g",
                              what, COL_MAX_COORD);
    col_status st = col_world_queries_ready(w);
    if (st != COL_OK) return col_world_fail(w, st, "%s: out of memory for the query tree", what);
    q->w = w;
    q->seg.a = origin, q->seg.b = end;
    q->d = col_sub(end, origin);
    q->margin = COL_RAY_REL_MARGIN * (col_max_abs(origin) + col_max_abs(end));
    q->filter = filter ? filter : &every;
    q->mode = mode;
    const double d[3] = {q->d.x, q->d.y, q->d.z}, a[3] = {origin.x, origin.y, origin.z};
    for (int k = 0; k < 3; k++) {
        /* an axis moved by less than 1e-290 is taken as not moved, the box widened by that
         * move: 1 / d stays finite, so no product is ever 0 * inf */
        bool flat = fabs(d[k]) < 1e-290;
        double m = q->margin + (flat ? fabs(d[k]) : 0.0);
        q->inv[k] = flat ? 1e300 : 1.0 / d[k];
        q->am[k] = a[k] + m, q->ap[k] = a[k] - m;
        q->near_lo[k] = q->inv[k] > 0.0;
        q->on[k] = q->near_lo[k] ? q->am[k] : q->ap[k], q->of[k] = q->near_lo[k] ? q->ap[k] : q->am[k];
        q->on2[k] = (col_v2){q->on[k], q->on[k]}, q->of2[k] = (col_v2){q->of[k], q->of[k]};
        q->inv2[k] = (col_v2){q->inv[k], q->inv[k]};
    }
    ray_walk(q, col_world_query_tree(w));
    for (int k = 0; k < w->dirty_count && !q->done; k++) {
        uint32_t s = w->dirty_list[k];
        if (w->body_ids.live[s] && w->dirty[s]) ray_body(q, s, false);
    }
    if (q->status != COL_OK) return col_world_fail(w, q->status, "%s: out of memory for the hit list", what);
    return COL_OK;
}

static col_status ray_one(const col_world *w, col_vec3 origin, col_vec3 translation, const col_query_filter *filter,
                          col_ray_hit *hit, bool *found, int mode, const char *what)
{
    if (w == NULL || hit == NULL || found == NULL) {
        if (hit) memset(hit, 0, sizeof *hit);
        return col_world_fail(w, COL_ERR_INVALID_ARGUMENT, "%s: NULL argument", what);
    }
    memset(hit, 0, sizeof *hit);
    *found = false;
    ray_query q;
    col_status st = ray_run(w, origin, translation, filter, mode, &q, what);
    if (st != COL_OK) return st;
    *found = q.found;
    if (q.found) *hit = hit_out(&q, &q.best);
    return COL_OK;
}

col_status col_world_cast_ray(const col_world *world, col_vec3 origin, col_vec3 translation,
                              const col_query_filter *filter, col_ray_hit *hit, bool *found)
{
    return ray_one(world, origin, translation, filter, hit, found, RAY_CLOSEST, "col_world_cast_ray");
}

col_status col_world_cast_ray_any(const col_world *world, col_vec3 origin, col_vec3 translation,
                                  const col_query_filter *filter, col_ray_hit *hit, bool *found)
{
    return ray_one(world, origin, translation, filter, hit, found, RAY_ANY, "col_world_cast_ray_any");
}

/* Checks the output list arguments shared by the list queries. */
static col_status list_args(const col_world *w, const void *out, int capacity, int *count, const char *what)
{
    if (w == NULL || count == NULL) return col_world_fail(w, COL_ERR_INVALID_ARGUMENT, "%s: NULL argument", what);
    *count = 0;
    if (capacity < 0) return col_world_fail(w, COL_ERR_INVALID_ARGUMENT, "%s: capacity %d is negative", what, capacity);
    if (out == NULL && capacity > 0)
        return col_world_fail(w, COL_ERR_INVALID_ARGUMENT, "%s: NULL output with capacity %d", what, capacity);
    return COL_OK;
}

col_status col_world_cast_ray_all(const col_world *world, col_vec3 origin, col_vec3 translation,
                                  const col_query_filter *filter, col_ray_hit *hits, int capacity, int *count)
{
    const char *what = "col_world_cast_ray_all";
    col_status st = list_args(world, hits, capacity, count, what);
    if (st != COL_OK) return st;
    ray_query q;
    st = ray_run(world, origin, translation, filter, RAY_ALL, &q, what);
    if (st == COL_OK) {
        if (q.count > 1) qsort(q.all, (size_t)q.count, sizeof *q.all, hit_order);
        for (int k = 0; k < q.count && k < capacity; k++) hits[k] = hit_out(&q, &q.all[k]);
        *count = q.count;
    }
    col_alloc a;
    col_alloc_init(&a, &world->def.allocator);
    col_free_bytes(&a, q.all, (size_t)q.cap * sizeof *q.all);
    return st;
}
