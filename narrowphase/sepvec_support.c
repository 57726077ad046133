/* SPDX-License-Identifier: MIT */
/* Support queries: linear scan, hill climbing (Chung & Wang 1996) and the direction-to-
 * vertex table that starts a cold climb near its answer (the paper uses an 8 x 16
 * latitude/longitude table; ours is a cube map whose resolution grows with the vertex
 * count). See sepvec_support.h. */
#include "narrowphase/sepvec_support.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "narrowphase/sepvec_dk_hierarchy.h"
#include "narrowphase/sepvec_support_tree.h"

/* Cube-map cells per hull vertex (6 N^2 ~ COL_TABLE_CELLS_PER_VERTEX * n): measured in
 * docs/sepvec.md; more cells start a cold climb nearer its answer at 2 bytes each. */
#define COL_TABLE_CELLS_PER_VERTEX 2.0
#define COL_TABLE_RES_MIN 3
#define COL_TABLE_RES_MAX 64

int col_support_table_res(int n, unsigned flags)
{
    int min = (flags & COL_SUPPORT_TABLE_ALL) ? COL_SUPPORT_SCAN_MAX : COL_SUPPORT_TABLE_MIN;
    if (n <= min || n > 65535) return 0;
    int r = (int)ceil(sqrt(COL_TABLE_CELLS_PER_VERTEX * (double)n / 6.0));
    if (r < COL_TABLE_RES_MIN) r = COL_TABLE_RES_MIN;
    if (r > COL_TABLE_RES_MAX) r = COL_TABLE_RES_MAX;
    return r;
}

static size_t round16(size_t x)
{
    return (x + 15) & ~(size_t)15;
}

static int want_dk(const col_hull *h, unsigned flags)
{
    if ((flags & COL_SUPPORT_DK_NEVER) || h->vertex_count <= COL_SUPPORT_SCAN_MAX) return 0;
    if (flags & COL_SUPPORT_DK_ALWAYS) return 1;
    return h->vertex_count >= COL_SUPPORT_DK_MIN;
}

size_t col_support_data_bytes(const col_hull *h, unsigned flags)
{
    int res = col_support_table_res(h->vertex_count, flags);
    size_t bytes = round16(sizeof(col_support_data));
    bytes += round16((size_t)6 * (size_t)res * (size_t)res * sizeof(uint16_t));
    if (h->vertex_count > COL_SUPPORT_SCAN_MAX) bytes += col_stree_bytes(h);
    if (want_dk(h, flags)) bytes += round16(col_dk_bytes(h));
    return bytes;
}

int col_support_climb(const col_hull *h, col_vec3 d, int start, col_support_stats *st)
{
    int moves;
    long evals;
    int v = col_hull_support_climb(h, d, start, &moves, &evals);
    if (st != NULL) {
        st->moves += moves;
        st->evals += evals;
    }
    return v;
}

/* Cube-map cell of a non-zero direction: the face of its largest component, then the
 * other two components over it, mapped from [-1, 1] to [0, N). */
static int table_cell(int res, col_vec3 d)
{
    double ax = fabs(d.x), ay = fabs(d.y), az = fabs(d.z);
    int face;
    double u, v, m;
    if (ax >= ay && ax >= az) {
        face = d.x >= 0.0 ? 0 : 1;
        m = ax;
        u = d.y;
        v = d.z;
    } else if (ay >= az) {
        face = d.y >= 0.0 ? 2 : 3;
        m = ay;
        u = d.z;
        v = d.x;
    } else {
        face = d.z >= 0.0 ? 4 : 5;
        m = az;
        u = d.x;
        v = d.y;
    }
    if (!(m > 0.0)) return 0;
    double k = 0.5 * (double)res / m;
    int i = (int)((u + m) * k), j = (int)((v + m) * k);
    i = i < 0 ? 0 : (i >= res ? res - 1 : i);
    j = j < 0 ? 0 : (j >= res ? res - 1 : j);
    return (face * res + i) * res + j;
}

/* The centre direction of cell (face, i, j), inverse of table_cell. */
static col_vec3 cell_dir(int res, int face, int i, int j)
{
    double u = -1.0 + (2.0 * i + 1.0) / res, v = -1.0 + (2.0 * j + 1.0) / res;
    double s = (face & 1) ? -1.0 : 1.0;
    switch (face >> 1) {
    case 0: return col_v3(s, u, v);
    case 1: return col_v3(v, s, u);
    default: return col_v3(u, v, s);
    }
}

static const uint16_t *table_of(const col_support_data *sd)
{
    return (const uint16_t *)(const void *)((const unsigned char *)sd + sd->table_off);
}

int col_support_table_vertex(const col_support_data *sd, col_vec3 d)
{
    return table_of(sd)[table_cell(sd->table_res, d)];
}

void col_support_data_init(void *mem, const col_hull *h, unsigned flags)
{
    col_support_data *sd = mem;
    int n = h->vertex_count, res = col_support_table_res(n, flags);
    memset(sd, 0, sizeof *sd);
    sd->vertex_count = n;
    sd->table_res = res;
    sd->table_off = (uint32_t)round16(sizeof *sd);
    size_t table_bytes = round16((size_t)6 * (size_t)res * (size_t)res * sizeof(uint16_t));

    double size = 0.0;
    for (int i = 0; i < n; i++) {
        double r = col_len(col_sub(h->vertices[i], h->centroid));
        size = r > size ? r : size;
    }
    sd->size = size;
    if (res > 0) {
        /* Fill the table face by face, row by row, each cell's climb starting from its
         * neighbour's answer (a few moves per cell). */
        uint16_t *t = (uint16_t *)(void *)((unsigned char *)mem + sd->table_off);
        int prev = 0;
        for (int f = 0; f < 6; f++) {
            int row = col_hull_support_scan(h, cell_dir(res, f, 0, 0));
            for (int i = 0; i < res; i++) {
                prev = row;
                for (int j = 0; j < res; j++) {
                    prev = col_support_climb(h, cell_dir(res, f, i, j), prev, NULL);
                    if (j == 0) row = prev;
                    t[(f * res + i) * res + j] = (uint16_t)prev;
                }
            }
        }
    }
    size_t off = sd->table_off + table_bytes;
    sd->tree_off = 0;
    if (n > COL_SUPPORT_SCAN_MAX) {
        sd->tree_off = (uint32_t)off;
        col_stree_build((unsigned char *)mem + off, h);
        off += col_stree_bytes(h);
    }
    sd->dk_off = 0;
    if (want_dk(h, flags)) {
        if (col_dk_build((unsigned char *)mem + off, col_dk_bytes(h), h) == 0)
            sd->dk_off = (uint32_t)off;
    }
}

size_t col_support_data_used(const col_support_data *sd)
{
    if (sd->dk_off != 0)
        return sd->dk_off + round16(col_dk_used((const unsigned char *)sd + sd->dk_off));
    size_t end = sd->table_off + round16((size_t)6 * (size_t)sd->table_res * (size_t)sd->table_res *
                                         sizeof(uint16_t));
    if (sd->tree_off != 0) end = sd->tree_off + col_stree_used((const unsigned char *)sd + sd->tree_off);
    return end;
}

int col_support_find(const col_hull *h, const col_support_data *sd, col_vec3 d, int hint,
                     col_support_stats *st)
{
    if (st != NULL) st->queries++;
    if (sd != NULL && sd->table_res == 0 && sd->dk_off != 0 && hint < 0)
        return col_dk_support((const unsigned char *)sd + sd->dk_off, h, d, st);
    if (sd == NULL || sd->table_res == 0) {
        /* Without a table: a far hint is no better than a scan below the table's
         * crossover; without data a climb from the hint is all there is. */
        if (h->vertex_count <= COL_SUPPORT_SCAN_MAX || hint < 0 ||
            (sd != NULL && h->vertex_count <= COL_SUPPORT_TABLE_MIN)) {
            if (st != NULL) st->evals += h->vertex_count;
            return col_hull_support_scan(h, d);
        }
        return col_support_climb(h, d, hint, st);
    }
    int start = col_support_table_vertex(sd, d);
    if (hint >= 0 && hint != start) {
        /* The better of the two starts (two dot products). */
        if (col_dot(d, h->vertices[hint]) > col_dot(d, h->vertices[start])) start = hint;
        if (st != NULL) st->evals += 2;
    }
    return col_support_climb(h, d, start, st);
}

int col_support_exact(const col_hull *h, const col_support_data *sd, col_vec3 d, int hint,
                      col_support_stats *st)
{
    if (st != NULL) st->queries++;
    if (sd != NULL && sd->tree_off != 0 && sd->vertex_count == h->vertex_count) {
        int visited = 0;
        int v = col_stree_max((const unsigned char *)sd + sd->tree_off, h, d, hint, NULL, &visited);
        if (st != NULL) st->evals += visited;
        return v;
    }
    if (st != NULL) st->evals += h->vertex_count;
    return col_hull_support_scan(h, d);
}

int col_support_find_dk(const col_hull *h, const col_support_data *sd, col_vec3 d,
                        col_support_stats *st)
{
    if (st != NULL) st->queries++;
    const void *dk = (const unsigned char *)sd + sd->dk_off;
    return col_dk_support(dk, h, d, st);
}
