/* SPDX-License-Identifier: MIT */
/* The world's query tree (lib/query_tree.h): synced lazily under the world's query lock. */
#include "lib/query_tree.h"

#include <stdatomic.h>
#include <string.h>

struct col_query_tree {
    col_alloc alloc;    /* the world's hooks, counted apart from the world's allocator, so that
                           a build inside a const query never writes what col_world_get_counters
                           reads (alloc_calls_total, bytes_in_use) */
    col_box_tree tree;
    double build_cost;  /* tree_cost right after the last build */
    uint32_t *ids;      /* build input, [cap] */
    col_vec3 *mins, *maxs;
    int cap;
};

col_query_filter col_default_query_filter(void)
{
    col_query_filter f = {0xffffffffu, 0xffffffffu, NULL, NULL};
    return f;
}

const col_box_tree *col_world_query_tree(const col_world *w)
{
    return &w->query_tree->tree;
}

static col_status tree_grow_input(struct col_query_tree *q, int n)
{
    if (n <= q->cap) return COL_OK;
    col_alloc *a = &q->alloc;
    uint32_t *ids = col_alloc_bytes(a, (size_t)n * sizeof *ids);
    col_vec3 *mins = col_alloc_bytes(a, (size_t)n * sizeof *mins);
    col_vec3 *maxs = col_alloc_bytes(a, (size_t)n * sizeof *maxs);
    if (ids == NULL || mins == NULL || maxs == NULL) {
        col_free_bytes(a, ids, (size_t)n * sizeof *ids);
        col_free_bytes(a, mins, (size_t)n * sizeof *mins);
        col_free_bytes(a, maxs, (size_t)n * sizeof *maxs);
        return COL_ERR_OUT_OF_MEMORY;
    }
    col_free_bytes(a, q->ids, (size_t)q->cap * sizeof *q->ids);
    col_free_bytes(a, q->mins, (size_t)q->cap * sizeof *q->mins);
    col_free_bytes(a, q->maxs, (size_t)q->cap * sizeof *q->maxs);
    q->ids = ids, q->mins = mins, q->maxs = maxs, q->cap = n;
    return COL_OK;
}

/* The summed surface areas of the inner nodes: what a ray pays to walk the tree (the
 * surface area heuristic's cost, up to constants), to notice a refitted tree gone slack. */
static double tree_cost(const col_box_tree *t)
{
    double c = 0.0;
    for (int i = 0; i < t->node_count; i++) {
        if (t->nodes[i].count > 0) continue;
        col_vec3 e = col_sub(t->nodes[i].max, t->nodes[i].min);
        c += e.x * e.y + e.y * e.z + e.z * e.x;
    }
    return c;
}

/* Leaves hold the bodies' tight boxes (the pair test's, refreshed by every update for the
 * bodies that moved): a ray meets far fewer of those than of the broad phase's fat boxes.
 * When the tree holds exactly the bodies it should (same count, each still live and
 * unmoved since the update) the leaves are refitted, and the tree rebuilt only when its
 * cost has grown by half since its build (bodies wandered off); else rebuilt. */
static col_status tree_sync(col_world *w, struct col_query_tree *q)
{
    /* Who is out of the tree: the live bodies of the dirty list (none right after an
     * update). Counting that way reads the dirty list, not every body record: on
     * sparse100k the records are 30 MB. */
    int dirty_live = 0, hw = w->body_ids.high_water;
    for (int k = 0; k < w->dirty_count; k++) {
        uint32_t s = w->dirty_list[k];
        dirty_live += w->body_ids.live[s] && w->dirty[s];
    }
    int n = w->body_ids.live_count - dirty_live;
    col_box_tree *t = &q->tree;
    bool same = t->item_count == n && n > 0;
    for (int k = 0; same && k < n; k++)
        same = w->body_ids.live[t->ids[k]] && (dirty_live == 0 || !w->dirty[t->ids[k]]);
    if (same) {
        for (int k = 0; k < n; k++) {
            const col_aabb *b = &w->hot[t->ids[k]].box;
            t->boxes[2 * k] = b->min, t->boxes[2 * k + 1] = b->max;
        }
        col_box_tree_refit(t);
        if (tree_cost(t) <= 1.5 * q->build_cost) return COL_OK;
    }
    col_status st = tree_grow_input(q, n);
    if (st != COL_OK) return st;
    int k = 0;
    for (int s = 0; s < hw; s++)
        if (w->body_ids.live[s] && (dirty_live == 0 || !w->dirty[s])) {
            q->ids[k] = (uint32_t)s;
            q->mins[k] = w->hot[s].box.min, q->maxs[k] = w->hot[s].box.max;
            k++;
        }
    st = col_box_tree_build(t, &q->alloc, q->ids, q->mins, q->maxs, n);
    q->build_cost = tree_cost(t);
    return st;
}

/* The tree and its input arrays are the world's query cache: written only here, under
 * query_lock, by the first query after an update; readers see a finished tree through
 * query_synced (release/acquire). */
col_status col_world_queries_ready(const col_world *cw)
{
    col_world *w = (col_world *)cw;
    uint64_t want = w->frame + 1;
    if (atomic_load_explicit(&w->query_synced, memory_order_acquire) == want) return COL_OK;
    while (atomic_flag_test_and_set_explicit(&w->query_lock, memory_order_acquire)) {
    }
    col_status st = COL_OK;
    if (atomic_load_explicit(&w->query_synced, memory_order_relaxed) != want) {
        if (w->query_tree == NULL) {
            col_alloc a;
            col_alloc_init(&a, &w->def.allocator);
            w->query_tree = col_alloc_zeroed(&a, 1, sizeof *w->query_tree);
            if (w->query_tree != NULL) w->query_tree->alloc = a;
        }
        st = w->query_tree == NULL ? COL_ERR_OUT_OF_MEMORY : tree_sync(w, w->query_tree);
        if (st == COL_OK) atomic_store_explicit(&w->query_synced, want, memory_order_release);
    }
    atomic_flag_clear_explicit(&w->query_lock, memory_order_release);
    return st;
}

void col_world_query_destroy(col_world *w)
{
    struct col_query_tree *q = w->query_tree;
    if (q == NULL) return;
    col_alloc a = q->alloc;
    col_box_tree_free(&q->tree, &a);
    col_free_bytes(&a, q->ids, (size_t)q->cap * sizeof *q->ids);
    col_free_bytes(&a, q->mins, (size_t)q->cap * sizeof *q->mins);
    col_free_bytes(&a, q->maxs, (size_t)q->cap * sizeof *q->maxs);
    col_free_bytes(&a, q, sizeof *q);
    w->query_tree = NULL;
}

col_status col_world_prepare_queries(col_world *world)
{
    if (world == NULL) return COL_ERR_INVALID_ARGUMENT;
    col_world_begin_call(world);
    col_status st = col_world_queries_ready(world);
    if (st != COL_OK) return col_world_fail(world, st, "col_world_prepare_queries: out of memory for the query tree");
    return COL_OK;
}

/* ---- shared pieces ---- */

bool col_query_body_passes(const col_world *w, uint32_t slot, const col_query_filter *f)
{
    const col_body_hot *h = &w->hot[slot];
    if ((f->group & h->mask) == 0 || (h->group & f->mask) == 0) return false;
    return f->fn == NULL || f->fn(col_world_body_id(w, slot), w->bodies[slot].user_data, f->ctx);
}

/* A body's pose and tight box: the update's for a body in the tree, else from its set pose. */
void col_query_body_pose_box(const col_world *w, uint32_t slot, col_xform *xf, col_aabb *box)
{
    const col_body_rec *b = &w->bodies[slot];
    if (!w->dirty[slot]) {
        *xf = b->xf;
        *box = w->hot[slot].box;
        return;
    }
    *xf = col_xform_from_transform(*col_body_pose(b));
    col_world_shape_aabb(&w->shapes[b->shape], xf, box);
}

bool col_query_finite_point(col_vec3 v)
{
    return col_vec3_is_finite(v) && col_max_abs(v) <= COL_MAX_COORD;
}

