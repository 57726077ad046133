/* SPDX-License-Identifier: MIT */
/* Shape casts against every body (include/colibri/worldquery.h, docs/queries.md): the
 * candidates are the bodies whose boxes meet the swept box of the moving geometry (the
 * query tree, lib/query_tree.h, walked by that box; the bodies moved since the last update
 * one by one); each gets the entry fraction of the moving geometry's box into its box,
 * and they are decided in the order of that fraction by the time of impact (the geometry
 * moves, the body stays: ccd/toi.h for two convex sides, ccd/c2a.h's controlled
 * conservative advancement when either is a triangle mesh, as col_geometry_toi decides),
 * stopping at the first whose box is entered after the best hit so far (plus the time of
 * impact's tolerance): a body whose box is not yet reached cannot be touched earlier. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ccd/swept.h"
#include "ccd/toi.h"
#include "colibri/worldquery.h"
#include "lib/query_tree.h"

typedef struct cast_cand {
    double enter; /* entry fraction of the moving box into the body's box (a lower bound) */
    uint32_t slot;
} cast_cand;

typedef struct cast_query {
    const col_world *w;
    const col_query_filter *filter;
    col_aabb start;    /* the geometry's box at pose */
    col_aabb swept;    /* the join of its boxes at both ends */
    col_vec3 d;        /* translation */
    double margin;     /* entry fractions are taken for boxes widened by this */
    cast_cand *cand;
    int count, cap;
    col_alloc alloc;
    col_status status;
} cast_query;

static bool boxes_meet(col_vec3 amin, col_vec3 amax, col_vec3 bmin, col_vec3 bmax)
{
    return amin.x <= bmax.x && bmin.x <= amax.x && amin.y <= bmax.y && bmin.y <= amax.y && amin.z <= bmax.z &&
           bmin.z <= amax.z;
}

/* The fractions s in [0, 1] at which start + s d meets [lo, hi] (both widened by the
 * margin) begin at the returned value; above 1 when there are none. Per axis the moving
 * box meets the slab iff lo - amax <= s d <= hi - amin; an axis barely moved (|d| below
 * 1e-290) is decided at s = 0 with the box widened by that move. The margin covers the
 * rounding of these few operations, so the value is never above the true entry. */
static double box_enter(const cast_query *q, col_vec3 lo, col_vec3 hi)
{
    const double l[3] = {lo.x, lo.y, lo.z}, h[3] = {hi.x, hi.y, hi.z};
    const double a0[3] = {q->start.min.x, q->start.min.y, q->start.min.z};
    const double a1[3] = {q->start.max.x, q->start.max.y, q->start.max.z};
    const double d[3] = {q->d.x, q->d.y, q->d.z};
    double t0 = 0.0, t1 = 1.0;
    for (int k = 0; k < 3; k++) {
        double m = q->margin + 4e-16 * (fabs(l[k]) + fabs(h[k]));
        double from = l[k] - a1[k] - m, to = h[k] - a0[k] + m; /* s d must lie in [from, to] */
        if (fabs(d[k]) < 1e-290) {
            if (from > fabs(d[k]) || to < -fabs(d[k])) return 2.0;
            continue;
        }
        double ta = from / d[k], tb = to / d[k];
        double n = ta < tb ? ta : tb, f = ta < tb ? tb : ta;
        /* the divisions round: widen by a relative ulp or two */
        n -= 4e-16 * fabs(n), f += 4e-16 * fabs(f);
        t0 = n > t0 ? n : t0, t1 = f < t1 ? f : t1;
    }
    return t0 <= t1 ? t0 : 2.0;
}

static void cast_body(cast_query *q, uint32_t slot)
{
    const col_world *w = q->w;
    col_xform xf;
    col_aabb box;
    col_query_body_pose_box(w, slot, &xf, &box);
    if (!boxes_meet(box.min, box.max, q->swept.min, q->swept.max)) return;
    double e = box_enter(q, box.min, box.max);
    if (e > 1.0) return;
    if (!col_query_body_passes(w, slot, q->filter)) return;
    if (q->count == q->cap) {
        int cap = q->cap ? 2 * q->cap : 16;
        cast_cand *n = col_alloc_bytes(&q->alloc, (size_t)cap * sizeof *n);
        if (n == NULL) {
            q->status = COL_ERR_OUT_OF_MEMORY;
            return;
        }
        if (q->count) memcpy(n, q->cand, (size_t)q->count * sizeof *n);
        col_free_bytes(&q->alloc, q->cand, (size_t)q->cap * sizeof *q->cand);
        q->cand = n, q->cap = cap;
    }
    q->cand[q->count].enter = e;
    q->cand[q->count++].slot = slot;
}

/* Every candidate; the pruning by the best hit is in cast_decide, after the sort. */
static void cast_walk(cast_query *q)
{
    const col_box_tree *t = col_world_query_tree(q->w);
    if (t->node_count > 0) {
        int stack[COL_BOX_TREE_STACK], top = 0;
        stack[top++] = 0;
        while (top > 0 && q->status != COL_ERR_OUT_OF_MEMORY) {
            const col_box_tree_node *nd = &t->nodes[stack[--top]];
            if (!boxes_meet(nd->min, nd->max, q->swept.min, q->swept.max)) continue;
            if (nd->count > 0) {
                for (int k = nd->child; k < nd->child + nd->count; k++)
                    if (col_query_body_in_tree(q->w, t->ids[k])) cast_body(q, t->ids[k]);
                continue;
            }
            stack[top++] = nd->child + 1;
            stack[top++] = nd->child;
        }
    }
    for (int k = 0; k < q->w->dirty_count && q->status != COL_ERR_OUT_OF_MEMORY; k++) {
        uint32_t s = q->w->dirty_list[k];
        if (q->w->body_ids.live[s] && q->w->dirty[s]) cast_body(q, s);
    }
}

static int cand_order(const void *pa, const void *pb)
{
    const cast_cand *a = pa, *b = pb;
    if (a->enter != b->enter) return a->enter < b->enter ? -1 : 1;
    return a->slot < b->slot ? -1 : a->slot > b->slot;
}

/* A decided candidate: its time of impact (r.hit) and its slot. */
static void cast_one(const cast_query *q, const col_toi_motion *mg, const col_geometry *g, uint32_t slot,
                     col_toi_result *r)
{
    const col_body_rec *b = &q->w->bodies[slot];
    col_toi_motion mb;
    col_toi_motion_init(&mb, *col_body_pose(b), *col_body_pose(b));
    const col_geometry *bg = q->w->shapes[b->shape].geom;
    /* the one dispatch of col_geometry_toi (lib/toi.c), so a cast answers as it does */
    col_ccd_toi(g, mg, bg, &mb, r);
}

static col_shape_hit hit_of(const cast_query *q, uint32_t slot, const col_toi_result *r)
{
    col_shape_hit h;
    memset(&h, 0, sizeof h);
    h.body = col_world_body_id(q->w, slot);
    h.piece = r->piece_b;
    h.shape_piece = r->piece_a;
    h.fraction = r->s;
    h.point = r->point_b;
    h.shape_point = r->point_a;
    h.normal = col_scale(r->normal, -1.0);
    h.capped = r->capped;
    return h;
}

enum { CAST_CLOSEST, CAST_ANY, CAST_ALL };

static int hit_order(const void *pa, const void *pb)
{
    const col_shape_hit *a = pa, *b = pb;
    if (a->fraction != b->fraction) return a->fraction < b->fraction ? -1 : 1;
    return a->body.index1 < b->body.index1 ? -1 : a->body.index1 > b->body.index1;
}

/* The candidates in entry order, each by the time of impact. Closest: until one's box is
 * entered after the best hit. Any: until the first hit. All: every candidate, the hits
 * kept in q->cand's place (a hit list of at most count entries) and sorted. */
static void cast_decide(cast_query *q, const col_geometry *g, col_transform pose, int mode, col_shape_hit *hits,
                        int *nhits)
{
    if (q->count > 1) qsort(q->cand, (size_t)q->count, sizeof *q->cand, cand_order);
    col_toi_motion mg;
    col_transform end = pose;
    end.p = col_add(pose.p, q->d);
    col_toi_motion_init(&mg, pose, end);
    bool found = false;
    uint32_t best_slot = 0;
    col_toi_result best = {0};
    *nhits = 0;
    for (int k = 0; k < q->count; k++) {
        /* The time of impact may report a contact up to 1e-6 of the sweep early (query.h),
         * so a body whose box is entered at e may report e - 1e-6: stopping only past
         * best + 2e-6 gives the same hit as deciding every candidate. */
        if (mode == CAST_CLOSEST && found && q->cand[k].enter > best.s + 2e-6) break;
        uint32_t slot = q->cand[k].slot;
        col_toi_result r;
        cast_one(q, &mg, g, slot, &r);
        if (!r.hit) continue;
        if (mode == CAST_ALL) {
            hits[(*nhits)++] = hit_of(q, slot, &r);
            continue;
        }
        if (found && (r.s > best.s || (r.s == best.s && slot > best_slot))) continue;
        best = r, best_slot = slot, found = true;
        if (mode == CAST_ANY) break;
    }
    if (mode == CAST_ALL) {
        if (*nhits > 1) qsort(hits, (size_t)*nhits, sizeof *hits, hit_order);
        return;
    }
    if (!found) return;
    hits[0] = hit_of(q, best_slot, &best);
    *nhits = 1;
}

/* Validates, collects the candidates and decides them; *nhits hits in *out (one for the
 * closest and any modes; for all, an array from the world's hooks the caller frees with
 * *out_cap entries). */
static col_status cast_run(const col_world *world, const col_geometry *geometry, col_transform pose,
                           col_vec3 translation, const col_query_filter *filter, int mode, const char *what,
                           col_shape_hit *one, col_shape_hit **all, int *all_cap, int *nhits)
{
    static const col_query_filter every = {0xffffffffu, 0xffffffffu, NULL, NULL};
    *nhits = 0;
    col_transform p;
    col_status st = col_world_check_pose(world, pose, &p, what);
    if (st != COL_OK) return st;
    col_vec3 endp = col_add(p.p, translation);
    if (!col_query_finite_point(translation) || !col_query_finite_point(endp))
        return col_world_fail(world, COL_ERR_NOT_FINITE,
                              "%s: the translation or the end position is NaN, infinite or beyond %g", what,
                              COL_MAX_COORD);
    st = col_world_queries_ready(world);
    if (st != COL_OK) return col_world_fail(world, st, "%s: out of memory for the query tree", what);
    cast_query q;
    memset(&q, 0, sizeof q);
    q.w = world;
    q.filter = filter ? filter : &every;
    q.d = translation;
    col_alloc_init(&q.alloc, &world->def.allocator);
    col_xform x0 = col_xform_from_transform(p), x1 = x0;
    x1.p = endp;
    col_aabb e;
    col_geometry_box_at(geometry, &x0, &q.start.min, &q.start.max);
    col_geometry_box_at(geometry, &x1, &e.min, &e.max);
    q.swept.min = col_v3(fmin(q.start.min.x, e.min.x), fmin(q.start.min.y, e.min.y), fmin(q.start.min.z, e.min.z));
    q.swept.max = col_v3(fmax(q.start.max.x, e.max.x), fmax(q.start.max.y, e.max.y), fmax(q.start.max.z, e.max.z));
    /* the subtractions in box_enter round by an ulp of the coordinates involved */
    q.margin = 4e-16 * (col_max_abs(q.swept.min) + col_max_abs(q.swept.max));
    cast_walk(&q);
    col_shape_hit *hits = one;
    if (q.status == COL_OK && mode == CAST_ALL && q.count > 0) {
        hits = col_alloc_bytes(&q.alloc, (size_t)q.count * sizeof *hits);
        if (hits == NULL) q.status = COL_ERR_OUT_OF_MEMORY;
        else *all = hits, *all_cap = q.count;
    }
    if (q.status == COL_OK) cast_decide(&q, geometry, p, mode, hits, nhits);
    col_free_bytes(&q.alloc, q.cand, (size_t)q.cap * sizeof *q.cand);
    if (q.status == COL_ERR_OUT_OF_MEMORY)
        return col_world_fail(world, q.status, "%s: out of memory for the candidate list", what);
    return COL_OK;
}

static col_status cast_one_hit(const col_world *world, const col_geometry *geometry, col_transform pose,
                               col_vec3 translation, const col_query_filter *filter, col_shape_hit *hit,
                               bool *found, int mode, const char *what)
{
    if (hit != NULL) memset(hit, 0, sizeof *hit);
    if (found != NULL) *found = false;
    if (world == NULL || geometry == NULL || hit == NULL || found == NULL)
        return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "%s: NULL argument", what);
    int n;
    col_status st = cast_run(world, geometry, pose, translation, filter, mode, what, hit, NULL, NULL, &n);
    *found = st == COL_OK && n > 0;
    return st;
}

col_status col_world_cast_shape(const col_world *world, const col_geometry *geometry, col_transform pose,
                                col_vec3 translation, const col_query_filter *filter, col_shape_hit *hit,
                                bool *found)
{
    return cast_one_hit(world, geometry, pose, translation, filter, hit, found, CAST_CLOSEST,
                        "col_world_cast_shape");
}

col_status col_world_cast_shape_any(const col_world *world, const col_geometry *geometry, col_transform pose,
                                    col_vec3 translation, const col_query_filter *filter, col_shape_hit *hit,
                                    bool *found)
{
    return cast_one_hit(world, geometry, pose, translation, filter, hit, found, CAST_ANY,
                        "col_world_cast_shape_any");
}

col_status col_world_cast_shape_all(const col_world *world, const col_geometry *geometry, col_transform pose,
                                    col_vec3 translation, const col_query_filter *filter, col_shape_hit *hits,
                                    int capacity, int *count)
{
    const char *what = "col_world_cast_shape_all";
    if (world == NULL || geometry == NULL || count == NULL)
        return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "%s: NULL argument", what);
    *count = 0;
    if (capacity < 0) return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "%s: capacity %d is negative", what, capacity);
    if (hits == NULL && capacity > 0)
        return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "%s: NULL output with capacity %d", what, capacity);
    col_shape_hit *all = NULL;
    int cap = 0, n = 0;
    col_status st = cast_run(world, geometry, pose, translation, filter, CAST_ALL, what, NULL, &all, &cap, &n);
    if (st == COL_OK) {
        for (int k = 0; k < n && k < capacity; k++) hits[k] = all[k];
        *count = n;
    }
    col_alloc a;
    col_alloc_init(&a, &world->def.allocator);
    col_free_bytes(&a, all, (size_t)cap * sizeof *all);
    return st;
}
