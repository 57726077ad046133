/* SPDX-License-Identifier: MIT */
/* The ADB-tree of a mesh (Klein & Zachmann, "ADB-Trees: Controlling the Error of
 * Time-Critical Collision Detection", VMV 2003; docs/adb.md): the mesh's own box
 * hierarchy (lib/core/mesh.h; docs/adb.md says why it is reused rather than rebuilt by
 * the paper's split heuristic) plus, per node, how many cells of a 4 x 4 x 4 grid over the
 * node's local box are "possible collision cells": cells in which the node's triangles
 * cover an area of at least area_factor times the cell's size squared (the paper's a^2
 * sqrt 2 for area_factor sqrt 2; a = the cube root of the cuboid cell's volume). Which
 * cells they are is not kept, only the count (1 byte a node). A flat box axis (a planar
 * node) is widened to 1/1000 of the node's largest extent so cells have a volume.
 * Read-only after building: any number of threads may read it. */
#ifndef COLIBRI_LIB_CORE_ADB_TREE_H
#define COLIBRI_LIB_CORE_ADB_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "colibri/base.h"

struct col_alloc;
struct col_mesh;

#define COL_ADB_GRID 4 /* cells per axis of a node's grid; COL_ADB_GRID^3 = COL_ADB_SMAX */

typedef struct col_adb_tree {
    int node_count;        /* = the mesh's */
    double area_factor;    /* the threshold it was built with */
    uint8_t *cells;        /* [node_count]: possible collision cells of node i, 0 .. 64 */
} col_adb_tree;

/* The default area factor (docs/adb.md "Possible collision cells" measures others). */
#define COL_ADB_AREA_FACTOR_DEFAULT 0.5

/* Builds the counts of mesh m (its nodes and triangles). area_factor must be finite and
 * > 0 (else INVALID_ARGUMENT); OUT_OF_MEMORY leaves *t zeroed. */
col_status col_adb_tree_build(struct col_alloc *a, const struct col_mesh *m, double area_factor, col_adb_tree *t);

void col_adb_tree_free(struct col_alloc *a, col_adb_tree *t);

/* Bytes per node (the counts): what col_shape_info and docs/adb.md report. */
static inline size_t col_adb_tree_bytes(const col_adb_tree *t)
{
    return (size_t)t->node_count * sizeof t->cells[0];
}

/* The cuboid cells of node box [lo, hi] (after the widening above): the grid's corner
 * and one cell's sides. Shared by the builder and the traversal's volume estimate (inline:
 * the estimate calls it twice per node pair). */
static inline void col_adb_cell_geometry(const double lo[3], const double hi[3], double corner[3], double side[3])
{
    double ext = 0;
    for (int k = 0; k < 3; k++) ext = hi[k] - lo[k] > ext ? hi[k] - lo[k] : ext;
    double floor_w = ext > 0 ? ext * 1e-3 : 1e-300;
    for (int k = 0; k < 3; k++) {
        double w = hi[k] - lo[k];
        double ww = w > floor_w ? w : floor_w;
        corner[k] = lo[k] - 0.5 * (ww - w);
        side[k] = ww / COL_ADB_GRID;
    }
}

#endif
