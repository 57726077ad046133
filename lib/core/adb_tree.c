/* SPDX-License-Identifier: MIT */
/* Counting the possible collision cells of every node (lib/core/adb_tree.h): each of the
 * node's triangles is clipped (Sutherland-Hodgman) against every grid cell its box
 * touches and the clipped areas are summed per cell. A triangle is counted in each of its
 * ancestors, so the work is the sum of the leaves' depths times the few cells a triangle
 * touches per level. */
#include "lib/core/adb_tree.h"

#include <math.h>
#include <string.h>

#include "lib/core/alloc.h"
#include "lib/core/mesh.h"

#define G COL_ADB_GRID

static double vk(col_vec3 v, int k) { return k == 0 ? v.x : (k == 1 ? v.y : v.z); }

/* Clips polygon p (n vertices) to x_k >= c (dir +1) or x_k <= c (dir -1). */
static int clip(const col_vec3 *p, int n, int k, double c, double dir, col_vec3 *out)
{
    int m = 0;
    for (int i = 0; i < n; i++) {
        col_vec3 u = p[i], v = p[(i + 1) % n];
        double du = dir * (vk(u, k) - c), dv = dir * (vk(v, k) - c);
        if (du >= 0) out[m++] = u;
        if ((du >= 0) != (dv >= 0)) {
            double t = du / (du - dv);
            out[m++] = col_add(u, col_scale(col_sub(v, u), t));
        }
    }
    return m;
}

static double polygon_area(const col_vec3 *p, int n)
{
    col_vec3 s = col_v3(0, 0, 0);
    for (int i = 1; i + 1 < n; i++) s = col_add(s, col_cross(col_sub(p[i], p[0]), col_sub(p[i + 1], p[0])));
    return 0.5 * col_len(s);
}

static int count_node(const col_mesh *m, int node, double factor, double *area)
{
    const col_mesh_node *nd = &m->nodes[node];
    const double lo[3] = {nd->min.x, nd->min.y, nd->min.z}, hi[3] = {nd->max.x, nd->max.y, nd->max.z};
    double corner[3], side[3];
    col_adb_cell_geometry(lo, hi, corner, side);
    memset(area, 0, sizeof(double) * G * G * G);
    for (int k = m->bvs[node].begin; k < m->bvs[node].end; k++) {
        col_vec3 t[3];
        col_mesh_triangle(m, k, t);
        int c0[3], c1[3];
        for (int d = 0; d < 3; d++) {
            double a = fmin(vk(t[0], d), fmin(vk(t[1], d), vk(t[2], d)));
            double b = fmax(vk(t[0], d), fmax(vk(t[1], d), vk(t[2], d)));
            int i0 = (int)floor((a - corner[d]) / side[d]), i1 = (int)floor((b - corner[d]) / side[d]);
            c0[d] = i0 < 0 ? 0 : (i0 >= G ? G - 1 : i0);
            c1[d] = i1 < 0 ? 0 : (i1 >= G ? G - 1 : i1);
        }
        for (int x = c0[0]; x <= c1[0]; x++)
            for (int y = c0[1]; y <= c1[1]; y++)
                for (int z = c0[2]; z <= c1[2]; z++) {
                    const int ci[3] = {x, y, z};
                    col_vec3 b1[12], b2[12];
                    int n = 3;
                    memcpy(b1, t, sizeof t);
                    for (int d = 0; d < 3 && n > 0; d++) {
                        double c_lo = corner[d] + ci[d] * side[d], c_hi = c_lo + side[d];
                        n = clip(b1, n, d, c_lo, 1.0, b2);
                        n = clip(b2, n, d, c_hi, -1.0, b1);
                    }
                    if (n >= 3) area[(x * G + y) * G + z] += polygon_area(b1, n);
                }
    }
    double thr = factor * cbrt(side[0] * side[1] * side[2]) * cbrt(side[0] * side[1] * side[2]);
    int count = 0;
    for (int c = 0; c < G * G * G; c++) count += area[c] >= thr;
    return count;
}

col_status col_adb_tree_build(struct col_alloc *a, const col_mesh *m, double area_factor, col_adb_tree *t)
{
    memset(t, 0, sizeof *t);
    if (m == NULL || m->node_count <= 0 || !isfinite(area_factor) || !(area_factor > 0))
        return COL_ERR_INVALID_ARGUMENT;
    uint8_t *cells = col_alloc_bytes(a, (size_t)m->node_count);
    if (cells == NULL) return COL_ERR_OUT_OF_MEMORY;
    double area[G * G * G];
    for (int i = 0; i < m->node_count; i++) cells[i] = (uint8_t)count_node(m, i, area_factor, area);
    t->node_count = m->node_count;
    t->area_factor = area_factor;
    t->cells = cells;
    return COL_OK;
}

void col_adb_tree_free(struct col_alloc *a, col_adb_tree *t)
{
    if (t->cells != NULL) col_free_bytes(a, t->cells, (size_t)t->node_count);
    memset(t, 0, sizeof *t);
}
