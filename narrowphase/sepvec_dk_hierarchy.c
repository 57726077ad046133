/* SPDX-License-Identifier: MIT */
/* Dobkin-Kirkpatrick hierarchy for cold support queries (see sepvec_dk_hierarchy.h).
 *
 * Construction (Dobkin & Kirkpatrick 1990; the hierarchy Chung & Wang 1996 section 5
 * suggest for big hulls): the faces of the hull are fan-triangulated, then level after
 * level a greedy independent set of vertices of degree <= COL_DK_REMOVE_DEG is removed.
 * Removing a vertex v of a convex polytope only replaces the faces around v, and the new
 * faces are the faces of conv(N(v)) that v sees (v strictly beyond their plane, every
 * other neighbour on or below it), so the new edges join neighbours of v only. Removed
 * vertices are independent, so their holes are filled one after the other. When
 * rounding hides every such face (a flat neighbourhood), all neighbours are joined: a
 * supergraph of the true edge graph keeps "local maximum = global maximum", it only
 * costs evaluations.
 *
 * The block: a header with the byte offset of every level record, the level records
 * (n, adjacency count, then orig[n], down[n], first[n + 1], adj[]), and at the end the
 * construction's work space (fixed-width adjacency rows), which the world may cut off
 * after construction (col_dk_build writes levels below it only). */
#include "narrowphase/sepvec_dk_hierarchy.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define DK_DEG_CAP 48
/* Stored levels may hold at most this many vertices and adjacency entries per hull
 * vertex in total (the geometric shrink of the levels keeps far below). */
#define DK_VERTEX_BUDGET 4
#define DK_ADJ_BUDGET 32

typedef struct dk_header {
    int levels;
    int used;                                /* bytes of header + level records */
    uint32_t level_off[COL_DK_MAX_LEVELS + 1]; /* [k]: record of level k >= 1 */
} dk_header;

typedef struct dk_level {
    int n;
    int adj_count;
} dk_level;

static size_t round16(size_t x)
{
    return (x + 15) & ~(size_t)15;
}

static size_t levels_region(int n)
{
    size_t hdr = round16(sizeof(dk_header));
    size_t per_level = round16(sizeof(dk_level)) + 16;
    return hdr + (size_t)COL_DK_MAX_LEVELS * per_level +
           (size_t)n * DK_VERTEX_BUDGET * 3 * sizeof(int) + (size_t)COL_DK_MAX_LEVELS * 16 +
           (size_t)n * DK_ADJ_BUDGET * sizeof(int);
}

static size_t work_region(int n)
{
    /* rows [n][DEG_CAP], deg, orig, newidx, down (ints), removed/blocked flags */
    return round16((size_t)n * (DK_DEG_CAP + 4) * sizeof(int) + (size_t)n);
}

size_t col_dk_bytes(const col_hull *h)
{
    return round16(levels_region(h->vertex_count)) + work_region(h->vertex_count);
}

static const dk_level *level_of(const void *dk, int k)
{
    const dk_header *hd = dk;
    return (const dk_level *)(const void *)((const unsigned char *)dk + hd->level_off[k]);
}
static const int *lv_orig(const dk_level *lv)
{
    return (const int *)(const void *)(lv + 1);
}
static const int *lv_down(const dk_level *lv)
{
    return lv_orig(lv) + lv->n;
}
static const int *lv_first(const dk_level *lv)
{
    return lv_down(lv) + lv->n;
}
static const int *lv_adj(const dk_level *lv)
{
    return lv_first(lv) + lv->n + 1;
}

size_t col_dk_used(const void *dk)
{
    return (size_t)((const dk_header *)dk)->used;
}

int col_dk_levels(const void *dk)
{
    return ((const dk_header *)dk)->levels;
}

int col_dk_level_size(const void *dk, int k)
{
    return level_of(dk, k)->n;
}

/* ---- construction ---- */

typedef struct dk_work {
    int n;          /* vertices of the current level */
    int *rows;      /* [n][DK_DEG_CAP] neighbours (current-level indices) */
    int *deg, *orig, *newidx, *down;
    unsigned char *flag; /* 1 removed, 2 blocked (neighbour of a removed vertex) */
} dk_work;

static int row_has(const dk_work *w, int v, int u)
{
    const int *r = w->rows + (size_t)v * DK_DEG_CAP;
    for (int k = 0; k < w->deg[v]; k++)
        if (r[k] == u) return 1;
    return 0;
}

/* Adds edge (v, u) to both rows; 0 if a row is full. */
static int add_edge(dk_work *w, int v, int u)
{
    if (v == u || row_has(w, v, u)) return 1;
    if (w->deg[v] >= DK_DEG_CAP || w->deg[u] >= DK_DEG_CAP) return 0;
    w->rows[(size_t)v * DK_DEG_CAP + w->deg[v]++] = u;
    w->rows[(size_t)u * DK_DEG_CAP + w->deg[u]++] = v;
    return 1;
}

static void remove_from_row(dk_work *w, int v, int u)
{
    int *r = w->rows + (size_t)v * DK_DEG_CAP;
    for (int k = 0; k < w->deg[v]; k++)
        if (r[k] == u) {
            r[k] = r[--w->deg[v]];
            return;
        }
}

/* Level 0: the hull's graph plus fan diagonals of every face (DK works on triangulated
 * polytopes; non-adjacent vertices of one polygon face would otherwise share a hole). */
static int load_hull(dk_work *w, const col_hull *h)
{
    w->n = h->vertex_count;
    for (int v = 0; v < w->n; v++) {
        w->deg[v] = 0;
        w->orig[v] = v;
        w->flag[v] = 0;
    }
    for (int v = 0; v < w->n; v++)
        for (int k = h->adj_first[v]; k < h->adj_first[v + 1]; k++)
            if (!add_edge(w, v, h->adj[k])) return -1;
    for (int f = 0; f < h->face_count; f++) {
        const int *ring = h->face_verts + h->face_first[f];
        int m = h->face_first[f + 1] - h->face_first[f];
        for (int i = 2; i < m - 1; i++)
            if (!add_edge(w, ring[0], ring[i])) return -1;
    }
    return 0;
}

/* Joins the neighbours of v that bound a face of conv(N(v)) seen from v. */
static int fill_hole(dk_work *w, const col_hull *h, int v, double size)
{
    int m = w->deg[v];
    int ring[COL_DK_REMOVE_DEG];
    memcpy(ring, w->rows + (size_t)v * DK_DEG_CAP, (size_t)m * sizeof(int));
    col_vec3 p[COL_DK_REMOVE_DEG];
    for (int i = 0; i < m; i++) p[i] = h->vertices[w->orig[ring[i]]];
    col_vec3 pv = h->vertices[w->orig[v]];
    unsigned char conn[COL_DK_REMOVE_DEG][COL_DK_REMOVE_DEG];
    memset(conn, 0, sizeof conn);
    int faces = 0;
    for (int i = 0; i < m; i++)
        for (int j = i + 1; j < m; j++)
            for (int l = j + 1; l < m; l++) {
                col_vec3 nrm = col_cross(col_sub(p[j], p[i]), col_sub(p[l], p[i]));
                double tol = 1e-12 * col_len(nrm) * size;
                double sv = col_dot(nrm, col_sub(pv, p[i]));
                if (!(fabs(sv) > tol)) continue;
                int ok = 1;
                for (int t = 0; t < m && ok; t++) {
                    if (t == i || t == j || t == l) continue;
                    double st = col_dot(nrm, col_sub(p[t], p[i]));
                    if ((sv > 0.0 ? st : -st) > tol) ok = 0;
                }
                if (!ok) continue;
                conn[i][j] = conn[j][l] = conn[i][l] = 1;
                faces++;
            }
    for (int i = 0; i < m; i++) remove_from_row(w, ring[i], v);
    w->deg[v] = 0;
    for (int i = 0; i < m; i++)
        for (int j = i + 1; j < m; j++)
            if ((faces == 0 || conn[i][j]) && !add_edge(w, ring[i], ring[j])) return -1;
    return 0;
}

/* One level up: removes a greedy independent set; returns how many were removed, or -1
 * when a row would overflow (then the hierarchy stops at the levels built so far). */
static int coarsen(dk_work *w, const col_hull *h, double size)
{
    int removed = 0;
    for (int v = 0; v < w->n; v++) w->flag[v] = 0;
    for (int v = 0; v < w->n; v++) {
        if (w->flag[v] != 0 || w->deg[v] > COL_DK_REMOVE_DEG || w->deg[v] < 3) continue;
        const int *r = w->rows + (size_t)v * DK_DEG_CAP;
        int fits = 1;
        for (int k = 0; k < w->deg[v]; k++)
            if (w->flag[r[k]] == 1 || w->deg[r[k]] + w->deg[v] - 2 > DK_DEG_CAP) fits = 0;
        if (!fits) continue;
        for (int k = 0; k < w->deg[v]; k++) w->flag[r[k]] = 2;
        w->flag[v] = 1;
        if (fill_hole(w, h, v, size) != 0) return -1;
        removed++;
    }
    /* Compact in place: new index <= old index, so rows move forward safely. */
    int n2 = 0;
    for (int v = 0; v < w->n; v++) w->newidx[v] = w->flag[v] == 1 ? -1 : n2++;
    for (int v = 0; v < w->n; v++) {
        int i = w->newidx[v];
        if (i < 0) continue;
        int *src = w->rows + (size_t)v * DK_DEG_CAP, *dst = w->rows + (size_t)i * DK_DEG_CAP;
        for (int k = 0; k < w->deg[v]; k++) dst[k] = w->newidx[src[k]];
        w->deg[i] = w->deg[v];
        w->orig[i] = w->orig[v];
        w->down[i] = v;
    }
    w->n = n2;
    return removed;
}

int col_dk_build(void *mem, size_t bytes, const col_hull *h)
{
    int n = h->vertex_count;
    if (n <= COL_DK_TOP || bytes < col_dk_bytes(h)) return -1;
    unsigned char *base = mem;
    size_t lim = round16(levels_region(n));
    dk_work w;
    int *wi = (int *)(void *)(base + lim);
    w.rows = wi;
    w.deg = wi + (size_t)n * DK_DEG_CAP;
    w.orig = w.deg + n;
    w.newidx = w.orig + n;
    w.down = w.newidx + n;
    w.flag = (unsigned char *)(w.down + n);
    dk_header *hd = mem;
    memset(hd, 0, sizeof *hd);
    size_t off = round16(sizeof *hd);
    hd->used = (int)off;
    if (load_hull(&w, h) != 0) return -1;
    double size = 0.0;
    for (int v = 0; v < n; v++) {
        double r = col_len(col_sub(h->vertices[v], h->centroid));
        size = r > size ? r : size;
    }
    long vbudget = (long)n * DK_VERTEX_BUDGET, abudget = (long)n * DK_ADJ_BUDGET;
    while (w.n > COL_DK_TOP && hd->levels < COL_DK_MAX_LEVELS) {
        int before = w.n;
        int removed = coarsen(&w, h, size);
        if (removed < 0 || removed * 16 < before) break;
        long adj = 0;
        for (int v = 0; v < w.n; v++) adj += w.deg[v];
        vbudget -= w.n;
        abudget -= adj;
        size_t need = round16(sizeof(dk_level) + ((size_t)3 * w.n + 1 + (size_t)adj) * sizeof(int));
        if (vbudget < 0 || abudget < 0 || off + need > lim) break;
        dk_level *lv = (dk_level *)(void *)(base + off);
        lv->n = w.n;
        lv->adj_count = (int)adj;
        int *orig = (int *)(void *)(lv + 1), *down = orig + w.n, *first = down + w.n;
        int *adjv = first + w.n + 1;
        first[0] = 0;
        for (int v = 0; v < w.n; v++) {
            orig[v] = w.orig[v];
            down[v] = w.down[v];
            memcpy(adjv + first[v], w.rows + (size_t)v * DK_DEG_CAP, (size_t)w.deg[v] * sizeof(int));
            first[v + 1] = first[v] + w.deg[v];
        }
        hd->levels++;
        hd->level_off[hd->levels] = (uint32_t)off;
        off += need;
        hd->used = (int)off;
    }
    return hd->levels > 0 ? 0 : -1;
}

/* ---- query ---- */

static int climb_level(const dk_level *lv, const col_hull *h, col_vec3 d, int c,
                       col_support_stats *st)
{
    const int *orig = lv_orig(lv), *first = lv_first(lv), *adj = lv_adj(lv);
    const col_vec3 *vx = h->vertices;
    double best = col_dot(d, vx[orig[c]]);
    long evals = 1, moves = 0;
    for (int it = 0; it < lv->n; it++) { /* strictly increasing: at most n moves */
        int next = c;
        for (int k = first[c]; k < first[c + 1]; k++) {
            double t = col_dot(d, vx[orig[adj[k]]]);
            if (t > best) {
                best = t;
                next = adj[k];
            }
        }
        evals += first[c + 1] - first[c];
        if (next == c) break;
        c = next;
        moves++;
    }
    if (st != NULL) {
        st->evals += evals;
        st->moves += moves;
    }
    return c;
}

int col_dk_support(const void *dk, const col_hull *h, col_vec3 d, col_support_stats *st)
{
    const dk_header *hd = dk;
    int top = hd->levels;
    if (top == 0) return col_support_climb(h, d, 0, st);
    const dk_level *lv = level_of(dk, top);
    const int *orig = lv_orig(lv);
    int c = 0;
    double best = col_dot(d, h->vertices[orig[0]]);
    for (int i = 1; i < lv->n; i++) {
        double t = col_dot(d, h->vertices[orig[i]]);
        if (t > best) {
            best = t;
            c = i;
        }
    }
    if (st != NULL) st->evals += lv->n;
    for (int k = top; k >= 1; k--) {
        lv = level_of(dk, k);
        if (k < top) c = climb_level(lv, h, d, c, st);
        c = lv_down(lv)[c];
    }
    return col_support_climb(h, d, c, st);
}
