/* SPDX-License-Identifier: MIT */
/* Box and shape overlap against every body (include/colibri/worldquery.h): the query tree
 * (lib/query_tree.h) walked by box, bodies moved since the last update one by one, each
 * candidate's tight box tested, then (shapes) the exact pair test col_shape_pair_query. */
#include <stdlib.h>
#include <string.h>

#include "colibri/worldquery.h"
#include "lib/query_scratch.h"
#include "lib/query_tree.h"
#include "lib/shape_pair.h"

typedef struct overlap_query {
    const col_world *w;
    col_aabb box;
    const col_query_filter *filter;
    const col_geometry *g; /* NULL: box only */
    col_xform xf;
    col_query_scratch *scratch;
    uint32_t *slots;
    int count, cap;
    col_alloc alloc;
    col_status status;
} overlap_query;

static bool boxes_meet(col_vec3 amin, col_vec3 amax, col_vec3 bmin, col_vec3 bmax)
{
    return amin.x <= bmax.x && bmin.x <= amax.x && amin.y <= bmax.y && bmin.y <= amax.y && amin.z <= bmax.z &&
           bmin.z <= amax.z;
}

static void overlap_body(overlap_query *q, uint32_t slot)
{
    const col_world *w = q->w;
    col_xform xf;
    col_aabb box;
    col_query_body_pose_box(w, slot, &xf, &box);
    if (!boxes_meet(box.min, box.max, q->box.min, q->box.max)) return;
    if (!col_query_body_passes(w, slot, q->filter)) return;
    if (q->g != NULL) {
        col_np_result res;
        col_shape_pair_query(w->backend, NULL, q->g, &q->xf, w->shapes[w->bodies[slot].shape].geom, &xf,
                             &q->scratch->np, &res);
        if (!res.colliding) return;
    }
    if (q->count == q->cap) {
        int cap = q->cap ? 2 * q->cap : 16;
        uint32_t *n = col_alloc_bytes(&q->alloc, (size_t)cap * sizeof *n);
        if (n == NULL) {
            q->status = COL_ERR_OUT_OF_MEMORY;
            return;
        }
        if (q->count) memcpy(n, q->slots, (size_t)q->count * sizeof *n);
        col_free_bytes(&q->alloc, q->slots, (size_t)q->cap * sizeof *q->slots);
        q->slots = n, q->cap = cap;
    }
    q->slots[q->count++] = slot;
}

static void overlap_walk(overlap_query *q)
{
    const col_box_tree *t = col_world_query_tree(q->w);
    if (t->node_count > 0) {
        int stack[COL_BOX_TREE_STACK], top = 0;
        stack[top++] = 0;
        while (top > 0 && q->status == COL_OK) {
            const col_box_tree_node *nd = &t->nodes[stack[--top]];
            if (!boxes_meet(nd->min, nd->max, q->box.min, q->box.max)) continue;
            if (nd->count > 0) {
                for (int k = nd->child; k < nd->child + nd->count && q->status == COL_OK; k++)
                    if (col_query_body_in_tree(q->w, t->ids[k])) overlap_body(q, t->ids[k]);
                continue;
            }
            stack[top++] = nd->child + 1;
            stack[top++] = nd->child;
        }
    }
    for (int k = 0; k < q->w->dirty_count && q->status == COL_OK; k++) {
        uint32_t s = q->w->dirty_list[k];
        if (q->w->body_ids.live[s] && q->w->dirty[s]) overlap_body(q, s);
    }
}

static int slot_order(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    return a < b ? -1 : a > b;
}

/* Walks, sorts and writes the output; frees the list. */
static col_status overlap_finish(overlap_query *q, col_body_id *bodies, int capacity, int *count, const char *what)
{
    col_status st = col_world_queries_ready(q->w);
    if (st != COL_OK) return col_world_fail(q->w, st, "%s: out of memory for the query tree", what);
    overlap_walk(q);
    if (q->status == COL_OK) {
        if (q->count > 1) qsort(q->slots, (size_t)q->count, sizeof *q->slots, slot_order);
        for (int k = 0; k < q->count && k < capacity; k++) bodies[k] = col_world_body_id(q->w, q->slots[k]);
        *count = q->count;
    }
    col_free_bytes(&q->alloc, q->slots, (size_t)q->cap * sizeof *q->slots);
    if (q->status != COL_OK) return col_world_fail(q->w, q->status, "%s: out of memory for the body list", what);
    return COL_OK;
}

static col_status overlap_args(const col_world *w, const col_body_id *bodies, int capacity, int *count,
                               const char *what)
{
    if (w == NULL || count == NULL) return col_world_fail(w, COL_ERR_INVALID_ARGUMENT, "%s: NULL argument", what);
    *count = 0;
    if (capacity < 0) return col_world_fail(w, COL_ERR_INVALID_ARGUMENT, "%s: capacity %d is negative", what, capacity);
    if (bodies == NULL && capacity > 0)
        return col_world_fail(w, COL_ERR_INVALID_ARGUMENT, "%s: NULL output with capacity %d", what, capacity);
    return COL_OK;
}

static void overlap_init(overlap_query *q, const col_world *w, const col_query_filter *filter)
{
    static const col_query_filter every = {0xffffffffu, 0xffffffffu, NULL, NULL};
    memset(q, 0, sizeof *q);
    q->w = w;
    q->filter = filter ? filter : &every;
    col_alloc_init(&q->alloc, &w->def.allocator);
}

col_status col_world_overlap_box(const col_world *world, col_vec3 lo, col_vec3 hi, const col_query_filter *filter,
                                 col_body_id *bodies, int capacity, int *count)
{
    const char *what = "col_world_overlap_box";
    col_status st = overlap_args(world, bodies, capacity, count, what);
    if (st != COL_OK) return st;
    if (!col_query_finite_point(lo) || !col_query_finite_point(hi))
        return col_world_fail(world, COL_ERR_NOT_FINITE, "%s: a box coordinate is NaN, infinite or beyond %g", what,
                              COL_MAX_COORD);
    if (lo.x > hi.x || lo.y > hi.y || lo.z > hi.z)
        return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "%s: lo is above hi on an axis", what);
    overlap_query q;
    overlap_init(&q, world, filter);
    q.box.min = lo, q.box.max = hi;
    return overlap_finish(&q, bodies, capacity, count, what);
}

col_status col_world_overlap_shape(const col_world *world, const col_geometry *geometry, col_transform pose,
                                   const col_query_filter *filter, col_body_id *bodies, int capacity, int *count)
{
    const char *what = "col_world_overlap_shape";
    col_status st = overlap_args(world, bodies, capacity, count, what);
    if (st != COL_OK) return st;
    if (geometry == NULL) return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "%s: NULL geometry", what);
    col_transform p;
    st = col_world_check_pose(world, pose, &p, what);
    if (st != COL_OK) return st;
    overlap_query q;
    overlap_init(&q, world, filter);
    q.g = geometry;
    q.xf = col_xform_from_transform(p);
    col_geometry_box_at(geometry, &q.xf, &q.box.min, &q.box.max);
    /* One scratch for every pair: sized for the componentwise maxima (backend.h's rule). */
    col_np_counts m = col_np_counts_max(col_geometry_counts(geometry), world->shape_counts_max);
    col_query_scratch s;
    col_query_scratch_init(&s, &world->def.allocator);
    if (col_query_scratch_reserve(&s, world->backend->scratch_need(m, m)) != COL_OK) {
        col_query_scratch_release(&s);
        return col_world_fail(world, COL_ERR_OUT_OF_MEMORY, "%s: out of memory for scratch", what);
    }
    q.scratch = &s;
    st = overlap_finish(&q, bodies, capacity, count, what);
    col_query_scratch_release(&s);
    return st;
}
