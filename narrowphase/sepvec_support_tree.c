/* SPDX-License-Identifier: MIT */
/* The support tree (sepvec_support_tree.h): exact maxima of d.v by branch and bound over
 * bounding spheres.
 *
 * The pruning bound. For a vertex x of a node with centre c and radius r (|x - c|_2 <= r
 * exactly), the computed value t = fl(d.x) carries at most gamma_3 sum |d_i x_i| <=
 * gamma_3 |d|_2 |x|_2 of rounding (Higham, "Accuracy and Stability of Numerical
 * Algorithms", 2nd ed., section 3.1), and the node's own fl(d.c) at most gamma_3 |d|_2
 * |c|_2, so
 *     t <= d.x + gamma_3 |d| |x| <= d.c + |d| r + gamma_3 |d| (|c| + r)
 *       <= fl(d.c) + |d| (r + 2 gamma_3 (|c| + r)) = fl(d.c) + |d| k,
 * k stored per node (rounded up), |d| taken from above at the query, and the rounding of
 * that sum itself, and underflow (a few DBL_TRUE_MIN per product), added on top. A node
 * whose bound does not exceed the best value found holds no better vertex. */
#include "narrowphase/sepvec_support_tree.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "lib/core/exact.h"

typedef struct stree_head {
    int32_t node_count, vertex_count;
    uint32_t node_off, perm_off;
} stree_head;

typedef struct stree_node {
    double c[3];
    double k;                    /* r + 2 gamma_3 (|c| + r), rounded up */
    int32_t first, count;        /* the node's vertices: perm[first .. first + count) */
    int32_t left, right;         /* children (-1: a leaf) */
} stree_node;

static size_t round16(size_t x) { return (x + 15) & ~(size_t)15; }

/* Nodes for n vertices: every split node has more than COL_STREE_LEAF vertices and halves
 * them, so every leaf keeps at least COL_STREE_LEAF / 2 and there are at most
 * 2 n / (COL_STREE_LEAF / 2) nodes. */
static size_t node_cap(int n) { return 2 * ((size_t)n / (COL_STREE_LEAF / 2) + 1); }

/* Layout: header, vertex indices, nodes (the last, so that a block may be cut after the
 * nodes actually built). */
static size_t node_offset(int n) { return round16(sizeof(stree_head)) + round16((size_t)n * sizeof(int32_t)); }

size_t col_stree_bytes(const col_hull *h)
{
    return node_offset(h->vertex_count) + round16(node_cap(h->vertex_count) * sizeof(stree_node));
}

size_t col_stree_used(const void *tree)
{
    const stree_head *hd = tree;
    return hd->node_off + round16((size_t)hd->node_count * sizeof(stree_node));
}

static double coord(col_vec3 v, int axis) { return axis == 0 ? v.x : (axis == 1 ? v.y : v.z); }

/* Reorders p[0 .. n) so that p[m] holds the vertex of rank m along axis, smaller ones
 * before it and larger ones after (Hoare's selection, middle pivot; deterministic). */
static void select_rank(int32_t *p, int n, int m, const col_vec3 *v, int axis)
{
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        double pivot = coord(v[p[lo + (hi - lo) / 2]], axis);
        int i = lo, j = hi;
        while (i <= j) {
            while (coord(v[p[i]], axis) < pivot) i++;
            while (coord(v[p[j]], axis) > pivot) j--;
            if (i <= j) {
                int32_t t = p[i];
                p[i] = p[j];
                p[j] = t;
                i++;
                j--;
            }
        }
        if (m <= j)
            hi = j;
        else if (m >= i)
            lo = i;
        else
            return;
    }
}

typedef struct stree_build {
    const col_vec3 *v;
    stree_node *nodes;
    int32_t *perm;
    int count;
} stree_build;

static int build_node(stree_build *b, int first, int count, int depth)
{
    int idx = b->count++;
    stree_node *nd = &b->nodes[idx];
    const col_vec3 *v = b->v;
    const int32_t *p = b->perm + first;
    col_vec3 lo = v[p[0]], hi = v[p[0]];
    for (int i = 1; i < count; i++) {
        col_vec3 x = v[p[i]];
        lo = col_v3(fmin(lo.x, x.x), fmin(lo.y, x.y), fmin(lo.z, x.z));
        hi = col_v3(fmax(hi.x, x.x), fmax(hi.y, x.y), fmax(hi.z, x.z));
    }
    col_vec3 c = col_v3(0.5 * lo.x + 0.5 * hi.x, 0.5 * lo.y + 0.5 * hi.y, 0.5 * lo.z + 0.5 * hi.z);
    double r2 = 0.0;
    for (int i = 0; i < count; i++) {
        double t = col_len2(col_sub(v[p[i]], c));
        r2 = t > r2 ? t : r2;
    }
    /* |x - c|^2 is computed with a relative error of a few u: 16 eps covers it, and the
     * square root's rounding the last factor. */
    double r = sqrt(r2 * (1.0 + 16.0 * DBL_EPSILON)) * (1.0 + 2.0 * DBL_EPSILON);
    double cl = sqrt(col_len2(c)) * (1.0 + 4.0 * DBL_EPSILON);
    nd->c[0] = c.x;
    nd->c[1] = c.y;
    nd->c[2] = c.z;
    nd->k = (r + 4.0 * DBL_EPSILON * (cl + r)) * (1.0 + 4.0 * DBL_EPSILON);
    nd->first = first;
    nd->count = count;
    nd->left = nd->right = -1;
    if (count <= COL_STREE_LEAF || depth >= COL_STREE_MAX_DEPTH) return idx;
    col_vec3 ext = col_sub(hi, lo);
    int axis = ext.x >= ext.y && ext.x >= ext.z ? 0 : (ext.y >= ext.z ? 1 : 2);
    int half = count / 2;
    select_rank(b->perm + first, count, half, v, axis);
    int l = build_node(b, first, half, depth + 1);
    int r_ = build_node(b, first + half, count - half, depth + 1);
    b->nodes[idx].left = l;
    b->nodes[idx].right = r_;
    return idx;
}

void col_stree_build(void *mem, const col_hull *h)
{
    int n = h->vertex_count;
    stree_head *hd = mem;
    memset(hd, 0, sizeof *hd);
    hd->vertex_count = n;
    hd->perm_off = (uint32_t)round16(sizeof(stree_head));
    hd->node_off = (uint32_t)node_offset(n);
    stree_build b;
    b.v = h->vertices;
    b.nodes = (stree_node *)(void *)((unsigned char *)mem + hd->node_off);
    b.perm = (int32_t *)(void *)((unsigned char *)mem + hd->perm_off);
    b.count = 0;
    for (int i = 0; i < n; i++) b.perm[i] = i;
    if (n > 0) build_node(&b, 0, n, 0);
    hd->node_count = b.count;
}

/* The upper bound of the computed values d.v below node x (see the top of the file). */
static inline double stree_bound(const stree_node *x, col_vec3 d, double dl)
{
    double dc = d.x * x->c[0] + d.y * x->c[1] + d.z * x->c[2];
    double rk = dl * x->k;
    double ub = dc + rk;
    return ub + 2.0 * DBL_EPSILON * (fabs(dc) + rk) + 4.0 * COL_UNDERFLOW_ERR;
}

int col_stree_max(const void *tree, const col_hull *h, col_vec3 d, int hint, double *value, int *nodes)
{
    const stree_head *hd = tree;
    const stree_node *nd = (const stree_node *)(const void *)((const unsigned char *)tree + hd->node_off);
    const int32_t *perm = (const int32_t *)(const void *)((const unsigned char *)tree + hd->perm_off);
    const col_vec3 *v = h->vertices;
    int best = hint >= 0 && hint < h->vertex_count ? hint : 0;
    double bv = col_dot(d, v[best]);
    double dl = sqrt(col_len2(col_pow2_unit(d, NULL)));
    int e;
    col_pow2_unit(d, &e);
    dl = ldexp(dl * (1.0 + 8.0 * DBL_EPSILON), e); /* |d|_2 from above, at any scale */
    /* Each stacked node carries its upper bound, computed once when its parent is split,
     * so that a node pruned meanwhile by a better value costs no more work. */
    int stack[2 * COL_STREE_MAX_DEPTH + 4], sp = 0, visited = 0;
    double stub[2 * COL_STREE_MAX_DEPTH + 4];
    stack[sp] = 0;
    stub[sp++] = INFINITY;
    while (sp > 0) {
        --sp;
        if (!(stub[sp] > bv)) continue;
        const stree_node *x = &nd[stack[sp]];
        visited++;
        if (x->left < 0) {
            for (int i = x->first; i < x->first + x->count; i++) {
                double t = col_dot(d, v[perm[i]]);
                if (t > bv) {
                    bv = t;
                    best = perm[i];
                }
            }
            continue;
        }
        /* The child with the larger bound last on the stack, so it is searched first: it
         * likely holds the maximum, which then prunes the other. */
        double ul = stree_bound(&nd[x->left], d, dl), ur = stree_bound(&nd[x->right], d, dl);
        int first = x->left, second = x->right;
        double uf = ul, us = ur;
        if (ur > ul) {
            first = x->right;
            second = x->left;
            uf = ur;
            us = ul;
        }
        if (us > bv) {
            stack[sp] = second;
            stub[sp++] = us;
        }
        if (uf > bv) {
            stack[sp] = first;
            stub[sp++] = uf;
        }
    }
    if (value != NULL) *value = bv;
    if (nodes != NULL) *nodes = visited;
    return best;
}
