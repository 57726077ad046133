/* SPDX-License-Identifier: MIT */
/* Mesh validation and the top-down build of its box hierarchy (lib/core/mesh.h,
 * docs/meshes.md "The hierarchy").
 *
 * The build works on one record per triangle (its exact box, the box centre doubled,
 * its number) and splits ranges of those records in place, depth first with an explicit
 * stack, so the leaf order is the records' final order. The split rule is the binned
 * surface area heuristic (Wald 2007, "On fast construction of SAH-based bounding volume
 * hierarchies": SAH_BINS bins on the box centres per axis, the cut with the least
 * A_left N_left + A_right N_right); when the centres coincide, or once the depth nears
 * the cap, it is a split at the median by count, which makes the depth bound a theorem
 * (below) rather than a hope. The mean and median rules remain for the measurement of
 * docs/meshes.md. Node boxes are unions of the triangles' exact boxes: min and max of
 * doubles are exact, so a node box is the exact box of its vertices. */
#include "lib/core/mesh.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lib/core/alloc.h"

enum { SAH_BINS = 12 };

/* The depth bound. Depth counts nodes on a root-to-leaf path (the root alone: 1). From
 * depth MEDIAN_FROM on, every split is at the median by count, so a child of a node of n
 * triangles has at most ceil(n/2); ceil(ceil(n/2^k)/2) = ceil(n/2^(k+1)), so a node k
 * levels below depth MEDIAN_FROM holds at most ceil(2^28/2^k) triangles (n <=
 * COL_MESH_MAX_TRIANGLES = 2^28), which is <= COL_MESH_LEAF_MAX (>= 4) at k = 26, and a
 * node of at most leaf_max triangles is a leaf. Deepest leaf: MEDIAN_FROM + 26 = 62 <= 64.
 * Every split (SAH, mean, median) leaves both sides non-empty, so the build ends. */
#define MEDIAN_FROM (COL_MESH_MAX_DEPTH - 28)
_Static_assert(COL_MESH_MAX_TRIANGLES <= (1 << 28), "the depth proof assumes at most 2^28 triangles");
_Static_assert(COL_MESH_LEAF_MAX >= 4, "the depth proof assumes leaves of up to 4 triangles");
_Static_assert(MEDIAN_FROM + 26 <= COL_MESH_MAX_DEPTH, "depth bound");

typedef struct tri_ref {
    double lo[3], hi[3]; /* exact box of the triangle's three vertices */
    uint32_t src;        /* the caller's triangle number */
} tri_ref;

static inline double ref_key(const tri_ref *r, int axis) { return r->lo[axis] + r->hi[axis]; }

static void mesh_error(char *err, size_t errlen, const char *fmt, ...)
{
    if (err == NULL || errlen == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* ---- validation ---- */

static col_status validate(const col_vec3 *v, int nv, const uint32_t *idx, int nt, char *err, size_t errlen)
{
    if (v == NULL || idx == NULL) {
        mesh_error(err, errlen, "the %s array is NULL", v == NULL ? "vertex" : "index");
        return COL_ERR_INVALID_ARGUMENT;
    }
    if (nv < 1) {
        mesh_error(err, errlen, "vertex count %d: a mesh needs at least 1 vertex", nv);
        return COL_ERR_INVALID_ARGUMENT;
    }
    if (nt < 1 || nt > COL_MESH_MAX_TRIANGLES) {
        mesh_error(err, errlen, "triangle count %d is outside 1 .. %d", nt, COL_MESH_MAX_TRIANGLES);
        return COL_ERR_INVALID_ARGUMENT;
    }
    static const char axis_name[3] = {'x', 'y', 'z'};
    for (int i = 0; i < nv; i++) {
        const double c[3] = {v[i].x, v[i].y, v[i].z};
        for (int k = 0; k < 3; k++) {
            if (!isfinite(c[k]) || fabs(c[k]) > COL_MAX_COORD) {
                mesh_error(err, errlen, "coordinate %c of vertex %d is %g: not finite or beyond COL_MAX_COORD (%g)",
                           axis_name[k], i, c[k], COL_MAX_COORD);
                return COL_ERR_NOT_FINITE;
            }
        }
    }
    /* 3 * nt <= 3 * 2^28 fits an int and a size_t: no overflow. */
    for (size_t j = 0; j < 3 * (size_t)nt; j++) {
        if (idx[j] >= (uint32_t)nv) {
            mesh_error(err, errlen, "index %d of triangle %zu is %lu, beyond the %d vertices", (int)(j % 3), j / 3,
                       (unsigned long)idx[j], nv);
            return COL_ERR_INVALID_ARGUMENT;
        }
    }
    return COL_OK;
}

/* ---- split rules: each returns the left part's count, in 1 .. n-1, after reordering ---- */

/* Moves the records with key < pivot (or == pivot, when below) to the front: a
 * three-way partition (Dijkstra's flag), so runs of equal keys cost linear time.
 * Returns [lt, gt): the equal block. */
static void partition3(tri_ref *r, int n, int axis, double pivot, int *lt_out, int *gt_out)
{
    int lt = 0, i = 0, gt = n;
    while (i < gt) {
        double k = ref_key(&r[i], axis);
        if (k < pivot) {
            tri_ref t = r[lt];
            r[lt++] = r[i];
            r[i++] = t;
        } else if (k > pivot) {
            tri_ref t = r[--gt];
            r[gt] = r[i];
            r[i] = t;
        } else {
            i++;
        }
    }
    *lt_out = lt;
    *gt_out = gt;
}

/* Puts the records in order of key along axis around position mid (quickselect with a
 * median-of-three pivot), then returns mid: the median split by count. */
static int split_median(tri_ref *r, int n, int axis)
{
    int mid = n / 2, lo = 0, hi = n;
    if (axis < 0) return mid; /* the centres coincide: any split by count */
    while (hi - lo > 1) {
        double a = ref_key(&r[lo], axis), b = ref_key(&r[lo + (hi - lo) / 2], axis), c = ref_key(&r[hi - 1], axis);
        double pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
        int lt, gt;
        partition3(r + lo, hi - lo, axis, pivot, &lt, &gt);
        lt += lo;
        gt += lo;
        if (mid < lt) hi = lt;
        else if (mid >= gt) lo = gt;
        else break;
    }
    return mid;
}

/* At the mean of the keys along axis; the median when one side would be empty. */
static int split_mean(tri_ref *r, int n, int axis)
{
    if (axis < 0) return n / 2;
    double sum = 0;
    for (int i = 0; i < n; i++) sum += ref_key(&r[i], axis);
    double mean = sum / n;
    int lt, gt;
    partition3(r, n, axis, mean, &lt, &gt);
    (void)gt;
    if (lt == 0 || lt == n) return split_median(r, n, axis);
    return lt;
}

typedef struct sah_bin {
    double lo[3], hi[3];
    int count;
} sah_bin;

static inline double half_area(const double lo[3], const double hi[3])
{
    double dx = hi[0] - lo[0], dy = hi[1] - lo[1], dz = hi[2] - lo[2];
    return dx * dy + dy * dz + dz * dx;
}

/* Clamped in double before the conversion: a tiny key range makes scale huge or
 * infinite, and (key - kmin) * scale may then be inf or NaN (0 * inf). */
static inline int sah_bin_of(double key, double kmin, double scale)
{
    double f = (key - kmin) * scale;
    if (!(f > 0)) return 0;
    if (f >= SAH_BINS - 1) return SAH_BINS - 1;
    return (int)f;
}

static void bin_grow(sah_bin *b, const double lo[3], const double hi[3])
{
    for (int k = 0; k < 3; k++) {
        if (lo[k] < b->lo[k]) b->lo[k] = lo[k];
        if (hi[k] > b->hi[k]) b->hi[k] = hi[k];
    }
}

/* The best cut of one axis into bins [0, s) and [s, SAH_BINS): its cost, and *s_out. */
static double sah_axis(const tri_ref *r, int n, int axis, double kmin, double scale, int *s_out)
{
    sah_bin bins[SAH_BINS];
    for (int b = 0; b < SAH_BINS; b++) {
        for (int k = 0; k < 3; k++) {
            bins[b].lo[k] = HUGE_VAL;
            bins[b].hi[k] = -HUGE_VAL;
        }
        bins[b].count = 0;
    }
    for (int i = 0; i < n; i++) {
        sah_bin *b = &bins[sah_bin_of(ref_key(&r[i], axis), kmin, scale)];
        b->count++;
        bin_grow(b, r[i].lo, r[i].hi);
    }
    double right_cost[SAH_BINS];
    sah_bin acc = bins[SAH_BINS - 1];
    for (int s = SAH_BINS - 1; s >= 1; s--) {
        if (s < SAH_BINS - 1) {
            acc.count += bins[s].count;
            bin_grow(&acc, bins[s].lo, bins[s].hi);
        }
        right_cost[s] = acc.count > 0 ? half_area(acc.lo, acc.hi) * acc.count : -1;
    }
    double best = HUGE_VAL;
    acc = bins[0];
    for (int s = 1; s < SAH_BINS; s++) {
        if (acc.count > 0 && right_cost[s] >= 0) {
            double cost = half_area(acc.lo, acc.hi) * acc.count + right_cost[s];
            if (cost < best) {
                best = cost;
                *s_out = s;
            }
        }
        acc.count += bins[s].count;
        bin_grow(&acc, bins[s].lo, bins[s].hi);
    }
    return best;
}

/* Binned SAH over the three axes; kmin/kmax: the keys' range per axis. */
static int split_sah(tri_ref *r, int n, const double kmin[3], const double kmax[3])
{
    int best_axis = -1, best_s = 0;
    double best = HUGE_VAL;
    for (int axis = 0; axis < 3; axis++) {
        double ext = kmax[axis] - kmin[axis];
        if (!(ext > 0)) continue;
        int s = 0;
        double cost = sah_axis(r, n, axis, kmin[axis], SAH_BINS / ext, &s);
        if (cost < best) {
            best = cost;
            best_axis = axis;
            best_s = s;
        }
    }
    if (best_axis < 0) return n / 2; /* the centres coincide */
    double kmin_a = kmin[best_axis], scale = SAH_BINS / (kmax[best_axis] - kmin[best_axis]);
    int i = 0, j = n;
    while (i < j) {
        if (sah_bin_of(ref_key(&r[i], best_axis), kmin_a, scale) < best_s) {
            i++;
        } else {
            tri_ref t = r[--j];
            r[j] = r[i];
            r[i] = t;
        }
    }
    /* The smallest key is in bin 0 and the largest in bin SAH_BINS-1 (ext * scale rounds
     * to SAH_BINS, at least 1 away from 0), and the chosen cut has both sides counted
     * non-empty, so i is in 1 .. n-1; the median guards against a surprise anyway. */
    if (i == 0 || i == n) return split_median(r, n, best_axis);
    return i;
}

/* ---- the build ---- */

typedef struct build_item {
    int32_t node, begin, end, depth;
} build_item;

/* The node's box and the range of its records' keys; returns the axis of the widest key
 * range (-1 when the keys coincide). */
static int range_bounds(const tri_ref *r, int n, col_mesh_node *node, double kmin[3], double kmax[3])
{
    double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (int k = 0; k < 3; k++) {
        kmin[k] = HUGE_VAL;
        kmax[k] = -HUGE_VAL;
    }
    for (int i = 0; i < n; i++) {
        for (int k = 0; k < 3; k++) {
            double key = ref_key(&r[i], k);
            if (r[i].lo[k] < lo[k]) lo[k] = r[i].lo[k];
            if (r[i].hi[k] > hi[k]) hi[k] = r[i].hi[k];
            if (key < kmin[k]) kmin[k] = key;
            if (key > kmax[k]) kmax[k] = key;
        }
    }
    node->min = col_v3(lo[0], lo[1], lo[2]);
    node->max = col_v3(hi[0], hi[1], hi[2]);
    int axis = -1;
    double widest = 0;
    for (int k = 0; k < 3; k++) {
        if (kmax[k] - kmin[k] > widest) {
            widest = kmax[k] - kmin[k];
            axis = k;
        }
    }
    return axis;
}

static int choose_split(tri_ref *r, int n, int depth, const col_mesh_build_options *opt, const double kmin[3],
                        const double kmax[3], int axis)
{
    if (axis < 0) return n / 2;
    if (depth >= MEDIAN_FROM || opt->split == COL_MESH_SPLIT_MEDIAN) return split_median(r, n, axis);
    if (opt->split == COL_MESH_SPLIT_MEAN) return split_mean(r, n, axis);
    return split_sah(r, n, kmin, kmax);
}

/* Builds the tree over r[0..nt) into nodes (room for 2 nt - 1); returns the node count
 * and the depth. */
static int build_tree(tri_ref *r, int nt, const col_mesh_build_options *opt, col_mesh_node *nodes, int *depth_out)
{
    /* Depth first, the right child pushed under the left: the stack holds at most one
     * pending sibling per level of the current path, plus the item popped. */
    build_item stack[COL_MESH_MAX_DEPTH + 2];
    int sp = 0, used = 1, depth = 0;
    stack[sp++] = (build_item){0, 0, nt, 1};
    while (sp > 0) {
        build_item it = stack[--sp];
        int n = it.end - it.begin;
        double kmin[3], kmax[3];
        col_mesh_node *node = &nodes[it.node];
        int axis = range_bounds(r + it.begin, n, node, kmin, kmax);
        if (it.depth > depth) depth = it.depth;
        if (n <= opt->leaf_max) {
            node->child = it.begin;
            node->count = n;
            continue;
        }
        int left = choose_split(r + it.begin, n, it.depth, opt, kmin, kmax, axis);
        node->child = used;
        node->count = 0;
        used += 2;
        stack[sp++] = (build_item){node->child + 1, it.begin + left, it.end, it.depth + 1};
        stack[sp++] = (build_item){node->child, it.begin, it.begin + left, it.depth + 1};
    }
    *depth_out = depth;
    return used;
}

static void fill_refs(const col_vec3 *v, const uint32_t *idx, int nt, tri_ref *r)
{
    for (int t = 0; t < nt; t++) {
        const col_vec3 p[3] = {v[idx[3 * t]], v[idx[3 * t + 1]], v[idx[3 * t + 2]]};
        for (int k = 0; k < 3; k++) {
            double a = k == 0 ? p[0].x : (k == 1 ? p[0].y : p[0].z);
            double b = k == 0 ? p[1].x : (k == 1 ? p[1].y : p[1].z);
            double c = k == 0 ? p[2].x : (k == 1 ? p[2].y : p[2].z);
            double lo = a < b ? a : b, hi = a < b ? b : a;
            r[t].lo[k] = c < lo ? c : lo;
            r[t].hi[k] = c > hi ? c : hi;
        }
        r[t].src = (uint32_t)t;
    }
}

/* The block: vertices, nodes, fitted volumes (all 8-byte aligned), then the two uint32
 * arrays. */
typedef struct block_layout {
    size_t nodes, bvs, tris, source, size;
} block_layout;

static block_layout layout_of(int nv, int nt, int nn)
{
    block_layout l;
    l.nodes = (size_t)nv * sizeof(col_vec3);
    l.bvs = l.nodes + (size_t)nn * sizeof(col_mesh_node);
    l.tris = l.bvs + (size_t)nn * sizeof(col_mesh_bv);
    l.source = l.tris + 3 * (size_t)nt * sizeof(uint32_t);
    l.size = l.source + (size_t)nt * sizeof(uint32_t);
    return l;
}

static void point_arrays(col_mesh *m, const block_layout *l)
{
    char *b = m->block;
    m->vertices = (col_vec3 *)(void *)b;
    m->nodes = (col_mesh_node *)(void *)(b + l->nodes);
    m->bvs = (col_mesh_bv *)(void *)(b + l->bvs);
    m->tris = (uint32_t *)(void *)(b + l->tris);
    m->tri_source = (uint32_t *)(void *)(b + l->source);
}

static void fill_mesh(col_mesh *m, const col_vec3 *v, int nv, const uint32_t *idx, int nt, const tri_ref *r,
                      const col_mesh_node *nodes, int nn)
{
    memcpy(m->vertices, v, (size_t)nv * sizeof(col_vec3));
    memcpy(m->nodes, nodes, (size_t)nn * sizeof(col_mesh_node));
    for (int k = 0; k < nt; k++) {
        uint32_t s = r[k].src;
        m->tri_source[k] = s;
        m->tris[3 * k] = idx[3 * (size_t)s];
        m->tris[3 * k + 1] = idx[3 * (size_t)s + 1];
        m->tris[3 * k + 2] = idx[3 * (size_t)s + 2];
    }
    double r2 = 0;
    col_vec3 lo = v[0], hi = v[0];
    for (int i = 0; i < nv; i++) {
        double d2 = v[i].x * v[i].x + v[i].y * v[i].y + v[i].z * v[i].z;
        if (d2 > r2) r2 = d2;
        lo = col_v3(fmin(lo.x, v[i].x), fmin(lo.y, v[i].y), fmin(lo.z, v[i].z));
        hi = col_v3(fmax(hi.x, v[i].x), fmax(hi.y, v[i].y), fmax(hi.z, v[i].z));
    }
    m->radius = sqrt(r2);
    m->aabb_min = lo;
    m->aabb_max = hi;
}

col_mesh_build_options col_mesh_default_build_options(void)
{
    col_mesh_build_options o = {COL_MESH_SPLIT_SAH, COL_MESH_LEAF_MAX};
    return o;
}

col_status col_mesh_build_with(struct col_alloc *a, const col_vec3 *vertices, int nv, const uint32_t *indices, int nt,
                               const col_mesh_build_options *opt, col_mesh *m, char *err, size_t errlen)
{
    if (err != NULL && errlen > 0) err[0] = '\0';
    if (m != NULL) memset(m, 0, sizeof *m);
    if (m == NULL || a == NULL) {
        mesh_error(err, errlen, "the %s is NULL", m == NULL ? "output mesh" : "allocator");
        return COL_ERR_INVALID_ARGUMENT;
    }
    col_mesh_build_options o = opt != NULL ? *opt : col_mesh_default_build_options();
    if (o.leaf_max < 1 || o.leaf_max > COL_MESH_LEAF_MAX) {
        mesh_error(err, errlen, "leaf size %d is outside 1 .. %d", o.leaf_max, COL_MESH_LEAF_MAX);
        return COL_ERR_INVALID_ARGUMENT;
    }
    col_status st = validate(vertices, nv, indices, nt, err, errlen);
    if (st != COL_OK) return st;
    size_t max_nodes = 2 * (size_t)nt - 1;
    tri_ref *r = col_alloc_bytes(a, (size_t)nt * sizeof *r);
    col_mesh_node *nodes = col_alloc_bytes(a, max_nodes * sizeof *nodes);
    if (r == NULL || nodes == NULL) {
        col_free_bytes(a, r, (size_t)nt * sizeof *r);
        col_free_bytes(a, nodes, max_nodes * sizeof *nodes);
        mesh_error(err, errlen, "out of memory building the hierarchy of %d triangles", nt);
        return COL_ERR_OUT_OF_MEMORY;
    }
    fill_refs(vertices, indices, nt, r);
    int depth = 0;
    int nn = build_tree(r, nt, &o, nodes, &depth);
    block_layout l = layout_of(nv, nt, nn);
    m->block = col_alloc_bytes(a, l.size);
    if (m->block == NULL) {
        mesh_error(err, errlen, "out of memory: %zu bytes for a mesh of %d triangles", l.size, nt);
        st = COL_ERR_OUT_OF_MEMORY;
    } else {
        m->block_size = l.size;
        point_arrays(m, &l);
        m->vertex_count = nv;
        m->triangle_count = nt;
        m->node_count = nn;
        m->depth = depth;
        fill_mesh(m, vertices, nv, indices, nt, r, nodes, nn);
        st = col_mesh_fit_bvs(a, m);
        if (st != COL_OK) {
            mesh_error(err, errlen, "out of memory fitting the volumes of a mesh of %d triangles", nt);
            col_free_bytes(a, m->block, m->block_size);
            memset(m, 0, sizeof *m);
        }
    }
    col_free_bytes(a, r, (size_t)nt * sizeof *r);
    col_free_bytes(a, nodes, max_nodes * sizeof *nodes);
    return st;
}

col_status col_mesh_build(struct col_alloc *a, const col_vec3 *vertices, int nv, const uint32_t *indices, int nt,
                          col_mesh *m, char *err, size_t errlen)
{
    return col_mesh_build_with(a, vertices, nv, indices, nt, NULL, m, err, errlen);
}

col_status col_mesh_copy(struct col_alloc *a, const col_mesh *src, col_mesh *dst)
{
    if (dst == NULL) return COL_ERR_INVALID_ARGUMENT;
    memset(dst, 0, sizeof *dst);
    if (a == NULL || src == NULL || src->block == NULL) return COL_ERR_INVALID_ARGUMENT;
    void *block = col_alloc_bytes(a, src->block_size);
    if (block == NULL) return COL_ERR_OUT_OF_MEMORY;
    memcpy(block, src->block, src->block_size);
    *dst = *src;
    dst->block = block;
    block_layout l = layout_of(src->vertex_count, src->triangle_count, src->node_count);
    point_arrays(dst, &l);
    return COL_OK;
}

void col_mesh_free(struct col_alloc *a, col_mesh *m)
{
    if (m == NULL) return;
    if (m->block != NULL) col_free_bytes(a, m->block, m->block_size);
    memset(m, 0, sizeof *m);
}
