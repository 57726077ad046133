/* SPDX-License-Identifier: MIT */
/* The query tree (box_tree.h): binned SAH splits near the root, median splits (by
 * quickselect) below SAH_DEPTH; O(n log n). */
#include "lib/core/box_tree.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

static double centre(const col_box_tree *t, int k, int axis)
{
    const col_vec3 *lo = &t->boxes[2 * k], *hi = &t->boxes[2 * k + 1];
    return axis == 0 ? lo->x + hi->x : axis == 1 ? lo->y + hi->y : lo->z + hi->z;
}

static void swap_items(col_box_tree *t, int i, int j)
{
    uint32_t id = t->ids[i];
    t->ids[i] = t->ids[j], t->ids[j] = id;
    col_vec3 a = t->boxes[2 * i], b = t->boxes[2 * i + 1];
    t->boxes[2 * i] = t->boxes[2 * j], t->boxes[2 * i + 1] = t->boxes[2 * j + 1];
    t->boxes[2 * j] = a, t->boxes[2 * j + 1] = b;
}

/* Items [lo, hi) rearranged so that item mid has the centre of rank mid - lo along axis
 * and those before it are not greater (Hoare's selection; ties broken by id so the tree
 * depends on the input only). */
static bool item_less(const col_box_tree *t, int i, int j, int axis)
{
    double a = centre(t, i, axis), b = centre(t, j, axis);
    return a < b || (a == b && t->ids[i] < t->ids[j]);
}

static void select_median(col_box_tree *t, int lo, int hi, int mid, int axis)
{
    while (hi - lo > 1) {
        int p = lo + (hi - lo) / 2;
        swap_items(t, p, hi - 1);
        int store = lo;
        for (int i = lo; i < hi - 1; i++)
            if (item_less(t, i, hi - 1, axis)) swap_items(t, i, store++);
        swap_items(t, store, hi - 1);
        if (store == mid) return;
        if (store < mid) lo = store + 1;
        else hi = store;
    }
}

static void node_box(col_box_tree *t, col_box_tree_node *nd, int first, int count)
{
    col_vec3 mn = t->boxes[2 * first], mx = t->boxes[2 * first + 1];
    for (int k = first + 1; k < first + count; k++) {
        col_vec3 a = t->boxes[2 * k], b = t->boxes[2 * k + 1];
        mn = col_v3(fmin(mn.x, a.x), fmin(mn.y, a.y), fmin(mn.z, a.z));
        mx = col_v3(fmax(mx.x, b.x), fmax(mx.y, b.y), fmax(mx.z, b.z));
    }
    nd->min = mn, nd->max = mx;
}

static double half_area(col_vec3 mn, col_vec3 mx)
{
    col_vec3 e = col_sub(mx, mn);
    return e.x * e.y + e.y * e.z + e.z * e.x;
}

#define SAH_BINS 12
/* Splits below this depth use the surface area heuristic (binned, Wald 2007: "On fast
 * construction of SAH-based bounding volume hierarchies"), deeper ones the median, so the
 * depth stays below SAH_DEPTH + ceil(log2 n) + 1 (COL_BOX_TREE_STACK covers it). */
#define SAH_DEPTH 24

/* The SAH split position of items [first, first + count) along axis (centres in
 * [cmin, cmax]): how many go left after partitioning, or -1 to split at the median. */
static int sah_split(col_box_tree *t, int first, int count, int axis, double cmin, double cmax)
{
    if (!(cmax > cmin)) return -1;
    int n[SAH_BINS] = {0};
    col_vec3 bmin[SAH_BINS], bmax[SAH_BINS];
    double scale = SAH_BINS / (cmax - cmin);
    for (int k = first; k < first + count; k++) {
        int b = (int)((centre(t, k, axis) - cmin) * scale);
        b = b < 0 ? 0 : b >= SAH_BINS ? SAH_BINS - 1 : b;
        col_vec3 lo = t->boxes[2 * k], hi = t->boxes[2 * k + 1];
        if (n[b]++ == 0) bmin[b] = lo, bmax[b] = hi;
        bmin[b] = col_v3(fmin(bmin[b].x, lo.x), fmin(bmin[b].y, lo.y), fmin(bmin[b].z, lo.z));
        bmax[b] = col_v3(fmax(bmax[b].x, hi.x), fmax(bmax[b].y, hi.y), fmax(bmax[b].z, hi.z));
    }
    double right_cost[SAH_BINS];
    int right_n = 0;
    col_vec3 rmin = col_v3(HUGE_VAL, HUGE_VAL, HUGE_VAL), rmax = col_v3(-HUGE_VAL, -HUGE_VAL, -HUGE_VAL);
    for (int b = SAH_BINS - 1; b > 0; b--) {
        if (n[b]) {
            rmin = col_v3(fmin(rmin.x, bmin[b].x), fmin(rmin.y, bmin[b].y), fmin(rmin.z, bmin[b].z));
            rmax = col_v3(fmax(rmax.x, bmax[b].x), fmax(rmax.y, bmax[b].y), fmax(rmax.z, bmax[b].z));
        }
        right_n += n[b];
        right_cost[b] = right_n ? right_n * half_area(rmin, rmax) : 0.0;
    }
    int best = -1, left_n = 0;
    double best_cost = HUGE_VAL;
    col_vec3 lmin = col_v3(HUGE_VAL, HUGE_VAL, HUGE_VAL), lmax = col_v3(-HUGE_VAL, -HUGE_VAL, -HUGE_VAL);
    for (int b = 0; b < SAH_BINS - 1; b++) {
        if (n[b]) {
            lmin = col_v3(fmin(lmin.x, bmin[b].x), fmin(lmin.y, bmin[b].y), fmin(lmin.z, bmin[b].z));
            lmax = col_v3(fmax(lmax.x, bmax[b].x), fmax(lmax.y, bmax[b].y), fmax(lmax.z, bmax[b].z));
        }
        left_n += n[b];
        if (left_n == 0 || left_n == count) continue;
        double c = left_n * half_area(lmin, lmax) + right_cost[b + 1];
        if (c < best_cost) best_cost = c, best = b;
    }
    if (best < 0) return -1;
    int store = first;
    for (int k = first; k < first + count; k++) {
        int b = (int)((centre(t, k, axis) - cmin) * scale);
        b = b < 0 ? 0 : b >= SAH_BINS ? SAH_BINS - 1 : b;
        if (b <= best) swap_items(t, k, store++);
    }
    return store - first;
}

/* Builds the subtree of items [first, first + count) at node index at; children are
 * allocated from t->node_count. Recursion depth is the tree's depth. */
static void build_node(col_box_tree *t, int at, int first, int count, int depth)
{
    col_box_tree_node *nd = &t->nodes[at];
    node_box(t, nd, first, count);
    if (count <= COL_BOX_TREE_LEAF) {
        nd->child = first, nd->count = count;
        return;
    }
    /* widest spread of the centres */
    double cmin[3], cmax[3];
    for (int a = 0; a < 3; a++) cmin[a] = HUGE_VAL, cmax[a] = -HUGE_VAL;
    for (int k = first; k < first + count; k++)
        for (int a = 0; a < 3; a++) {
            double c = centre(t, k, a);
            cmin[a] = fmin(cmin[a], c), cmax[a] = fmax(cmax[a], c);
        }
    int axis = 0;
    for (int a = 1; a < 3; a++)
        if (cmax[a] - cmin[a] > cmax[axis] - cmin[axis]) axis = a;
    int half = depth < SAH_DEPTH ? sah_split(t, first, count, axis, cmin[axis], cmax[axis]) : -1;
    if (half <= 0 || half >= count) {
        half = count / 2;
        select_median(t, first, first + count, first + half, axis);
    }
    int c = t->node_count;
    t->node_count += 2;
    nd->child = c, nd->count = 0;
    build_node(t, c, first, half, depth + 1);
    build_node(t, c + 1, first + half, count - half, depth + 1);
}

/* pairs[i] from the boxes of inner node i's children */
static void set_pair(col_box_tree *t, int i)
{
    const col_box_tree_node *c = &t->nodes[t->nodes[i].child];
    col_box_tree_pair *p = &t->pairs[i];
    for (int j = 0; j < 2; j++) {
        p->lo[0][j] = c[j].min.x, p->lo[1][j] = c[j].min.y, p->lo[2][j] = c[j].min.z;
        p->hi[0][j] = c[j].max.x, p->hi[1][j] = c[j].max.y, p->hi[2][j] = c[j].max.z;
        p->child[j] = c[j].child, p->count[j] = c[j].count;
    }
}

col_status col_box_tree_build(col_box_tree *t, col_alloc *a, const uint32_t *ids, const col_vec3 *mins,
                              const col_vec3 *maxs, int n)
{
    t->node_count = 0;
    t->item_count = 0;
    int need_nodes = n > 0 ? 2 * n : 1;
    if (n > t->item_cap) {
        uint32_t *ni = col_alloc_bytes(a, (size_t)n * sizeof *ni);
        col_vec3 *nb = col_alloc_bytes(a, (size_t)n * 2 * sizeof *nb);
        if (ni == NULL || nb == NULL) {
            col_free_bytes(a, ni, (size_t)n * sizeof *ni);
            col_free_bytes(a, nb, (size_t)n * 2 * sizeof *nb);
            return COL_ERR_OUT_OF_MEMORY;
        }
        col_free_bytes(a, t->ids, (size_t)t->item_cap * sizeof *t->ids);
        col_free_bytes(a, t->boxes, (size_t)t->item_cap * 2 * sizeof *t->boxes);
        t->ids = ni, t->boxes = nb, t->item_cap = n;
    }
    if (need_nodes > t->node_cap) {
        col_box_tree_node *nn = col_alloc_bytes(a, (size_t)need_nodes * sizeof *nn);
        col_box_tree_pair *np = col_alloc_bytes(a, (size_t)need_nodes * sizeof *np);
        if (nn == NULL || np == NULL) {
            col_free_bytes(a, nn, (size_t)need_nodes * sizeof *nn);
            col_free_bytes(a, np, (size_t)need_nodes * sizeof *np);
            return COL_ERR_OUT_OF_MEMORY;
        }
        col_free_bytes(a, t->nodes, (size_t)t->node_cap * sizeof *t->nodes);
        col_free_bytes(a, t->pairs, (size_t)t->node_cap * sizeof *t->pairs);
        t->nodes = nn, t->pairs = np, t->node_cap = need_nodes;
    }
    for (int k = 0; k < n; k++) {
        t->ids[k] = ids[k];
        t->boxes[2 * k] = mins[k];
        t->boxes[2 * k + 1] = maxs[k];
    }
    t->item_count = n;
    if (n == 0) return COL_OK;
    t->node_count = 1;
    build_node(t, 0, 0, n, 0);
    for (int i = 0; i < t->node_count; i++)
        if (t->nodes[i].count == 0) set_pair(t, i);
    return COL_OK;
}

void col_box_tree_refit(col_box_tree *t)
{
    for (int i = t->node_count - 1; i >= 0; i--) {
        col_box_tree_node *nd = &t->nodes[i];
        if (nd->count > 0) {
            node_box(t, nd, nd->child, nd->count);
        } else {
            const col_box_tree_node *a = &t->nodes[nd->child], *b = &t->nodes[nd->child + 1];
            nd->min = col_v3(fmin(a->min.x, b->min.x), fmin(a->min.y, b->min.y), fmin(a->min.z, b->min.z));
            nd->max = col_v3(fmax(a->max.x, b->max.x), fmax(a->max.y, b->max.y), fmax(a->max.z, b->max.z));
            set_pair(t, i);
        }
    }
}

void col_box_tree_free(col_box_tree *t, col_alloc *a)
{
    col_free_bytes(a, t->nodes, (size_t)t->node_cap * sizeof *t->nodes);
    col_free_bytes(a, t->pairs, (size_t)t->node_cap * sizeof *t->pairs);
    col_free_bytes(a, t->ids, (size_t)t->item_cap * sizeof *t->ids);
    col_free_bytes(a, t->boxes, (size_t)t->item_cap * 2 * sizeof *t->boxes);
    memset(t, 0, sizeof *t);
}
