/* SPDX-License-Identifier: MIT */
/* A bounding-volume tree over a set of boxes (the world's queries, lib/query_tree.c, keep
 * one over the bodies' boxes). Built top down along the widest spread of the box centres:
 * binned surface-area-heuristic splits for the top 24 levels, median splits below (each
 * halves the items), so its depth is at most 24 + ceil(log2(n)) + 1; refitted in one
 * backward pass over the nodes when boxes change.
 *
 * The important parts:
 * - nodes[0] the root; an inner node's children are nodes[child] and nodes[child + 1],
 *   both after it (pre-order), so a backward pass visits children before parents;
 * - a leaf holds items [child, child + count) of ids[] and boxes[] (at most
 *   COL_BOX_TREE_LEAF items), in leaf order;
 * - pairs[i] of an inner node i holds its two children's boxes again, coordinate by
 *   coordinate (lo[axis][child]): a walk tests both children with the same operations on
 *   adjacent values (two lanes a compiler may put in one vector register), from one block
 *   of 112 bytes instead of two nodes, with their child and count fields, so a walk that
 *   starts from the root reads pairs[] (and the leaves' items) only. */
#ifndef COLIBRI_LIB_CORE_BOX_TREE_H
#define COLIBRI_LIB_CORE_BOX_TREE_H

#include <stdint.h>

#include "colibri/base.h"
#include "lib/core/alloc.h"
#include "lib/core/vec.h"

#define COL_BOX_TREE_LEAF 4
/* A traversal stack of this many entries never overflows (two per level). */
#define COL_BOX_TREE_STACK 80

typedef struct col_box_tree_node {
    col_vec3 min, max;
    int32_t child; /* inner: first child; leaf: first item */
    int32_t count; /* 0: inner */
} col_box_tree_node;

typedef struct col_box_tree_pair {
    double lo[3][2], hi[3][2]; /* [axis][0 or 1]: the boxes of nodes[child] and nodes[child + 1] */
    int32_t child[2], count[2]; /* those two nodes' child and count */
} col_box_tree_pair;

typedef struct col_box_tree {
    col_box_tree_node *nodes;
    col_box_tree_pair *pairs; /* [node_cap]: set for inner nodes */
    int node_count, node_cap;
    uint32_t *ids;     /* [item_cap]: the items' ids, leaf order */
    col_vec3 *boxes;   /* [2 * item_cap]: item k's box is boxes[2k] .. boxes[2k + 1] */
    int item_count, item_cap;
} col_box_tree;

/* Builds the tree of n items (ids[k] with box mins[k] .. maxs[k]), replacing what it held;
 * grows its arrays from a (OUT_OF_MEMORY: the tree is then empty but valid). */
col_status col_box_tree_build(col_box_tree *t, col_alloc *a, const uint32_t *ids, const col_vec3 *mins,
                              const col_vec3 *maxs, int n);

/* Recomputes every inner node's box from its children after items' boxes changed. */
void col_box_tree_refit(col_box_tree *t);

void col_box_tree_free(col_box_tree *t, col_alloc *a);

#endif
