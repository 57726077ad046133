/* SPDX-License-Identifier: MIT */
/* Support queries on one hull: the vertex that maximises d . v for a direction d given in
 * the hull's local frame (the caller transforms d once per query, never each vertex).
 *
 * The important parts:
 * - linear scan for small hulls (<= COL_SUPPORT_SCAN_MAX vertices: below the measured
 *   crossover a branch-light scan beats any walk);
 * - hill climbing over the hull's vertex adjacency (Chung & Wang 1996: a local maximum
 *   of a linear function on the edge graph of a convex polytope is global), started from
 *   the better of a caller's hint (the vertex cached for the pair) and the per-shape
 *   direction-to-vertex table below;
 * - the direction table: a cube map of 6 N x N cells over the unit sphere, each holding
 *   the support vertex of its centre direction (Chung & Wang use an 8 x 16 latitude /
 *   longitude table; a cube map needs no trigonometry to index and N grows with the
 *   vertex count, so a cold query starts a few edges from the answer);
 * - optionally a Dobkin-Kirkpatrick hierarchy (narrowphase/sepvec_dk_hierarchy.h) for big hulls,
 *   used for cold queries only where it was measured to pay (docs/sepvec.md);
 * - col_support_exact: the exact largest computed value (a scan's), by the support tree
 *   (narrowphase/sepvec_support_tree.h) above COL_SUPPORT_SCAN_MAX vertices. A climb finds the
 *   maximum only where the hull's graph is convex exactly; certificates use this.
 * All of it lives in one block per shape (the backend's shape data), built once when the
 * shape is created: no allocation and no global state at query time.
 * Limits: tables only for hulls of at most 65535 vertices (16-bit entries); bigger hulls
 * get the DK hierarchy instead (the only place it pays: the table beats it at every size
 * measured). */
#ifndef COLIBRI_NARROWPHASE_SEPVEC_SUPPORT_H
#define COLIBRI_NARROWPHASE_SEPVEC_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

#include "lib/core/hull.h"
#include "lib/core/vec.h"

/* Hulls with at most this many vertices are always scanned; up to COL_SUPPORT_TABLE_MIN
 * a cold query scans and a warm one climbs from its hint; above it a cold query climbs
 * from the table (measured crossovers, docs/sepvec.md). */
#define COL_SUPPORT_SCAN_MAX 16
#define COL_SUPPORT_TABLE_MIN 40

/* Per-shape support data. The table and the hierarchy follow the header in the same
 * block, found by byte offsets (the block holds no pointers). */
typedef struct col_support_data {
    int vertex_count;   /* of the hull the block was built for */
    int table_res;      /* N: cells per cube face edge (0: no table, scan the hull) */
    uint32_t table_off; /* byte offset of the uint16_t table [6 N N] */
    uint32_t dk_off;    /* byte offset of the DK hierarchy (0: none) */
    uint32_t tree_off;  /* byte offset of the support tree (sepvec_support_tree.h; 0: none, the
                           hull is small enough to scan) */
    uint32_t pad;
    double size;        /* largest distance of a vertex from the centroid */
} col_support_data;

/* Where col_support_find started and how it walked (for statistics and tests). */
typedef struct col_support_stats {
    long queries;
    long moves;         /* hill-climbing moves */
    long evals;         /* dot products evaluated */
} col_support_stats;

/* Options of the shape data: by default the DK hierarchy is built where it pays (n >=
 * COL_SUPPORT_DK_MIN) and the table above COL_SUPPORT_TABLE_MIN vertices; tests and
 * measurements may ask for other choices. */
enum {
    COL_SUPPORT_DEFAULT = 0,
    COL_SUPPORT_DK_NEVER = 1,
    COL_SUPPORT_DK_ALWAYS = 2,
    COL_SUPPORT_TABLE_ALL = 4 /* a table for every hull above COL_SUPPORT_SCAN_MAX */
};

/* Size of the shape data for hull h (a multiple of 16) and its construction (flags:
 * the options above). */
size_t col_support_data_bytes(const col_hull *h, unsigned flags);
void col_support_data_init(void *mem, const col_hull *h, unsigned flags);

/* Bytes of the block that col_support_data_init actually used (the rest, the DK
 * construction's work space, may be cut off). */
size_t col_support_data_used(const col_support_data *sd);

/* Steepest-ascent hill climbing from vertex start; stops when no neighbour is strictly
 * larger (so a plateau keeps the first vertex reached). Adds its work to st (may be
 * NULL). */
int col_support_climb(const col_hull *h, col_vec3 d, int start, col_support_stats *st);

/* A vertex whose computed d.v is the largest over ALL vertices (a scan's maximum value),
 * whatever the hull's graph: by the support tree from hint (a vertex or -1) when sd has
 * one, else by a scan. */
int col_support_exact(const col_hull *h, const col_support_data *sd, col_vec3 d, int hint,
                      col_support_stats *st);

/* The table's vertex for direction d (any length; 0 for d = 0). */
int col_support_table_vertex(const col_support_data *sd, col_vec3 d);

/* The support vertex for a direction that may be far from the last one: scan for small
 * hulls, otherwise a climb from the better of hint (a vertex index or -1) and the
 * table's vertex, or the DK descent when there is no table (without data: a climb from
 * the hint, or a scan). A direction close to the hint's is cheaper with
 * col_support_climb from the hint alone. */
int col_support_find(const col_hull *h, const col_support_data *sd, col_vec3 d, int hint,
                     col_support_stats *st);

/* The same answer by a cold query through the DK hierarchy (sd must have one). */
int col_support_find_dk(const col_hull *h, const col_support_data *sd, col_vec3 d,
                        col_support_stats *st);

/* The table resolution col_support_data_init uses for n vertices (0: no table). */
int col_support_table_res(int n, unsigned flags);

#endif
