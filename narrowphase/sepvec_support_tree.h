/* SPDX-License-Identifier: MIT */
/* A bounding-sphere tree over a hull's vertices that gives the EXACT largest computed
 * value of d.v over all vertices (the value a linear scan finds) by branch and bound,
 * in about O(log n) work when the starting guess is good.
 *
 * Why: hill climbing over the hull's graph (sepvec_support.h) stops at a local maximum, which is
 * the global one only if the hull is convex exactly. The hull is convex to within its
 * builder's tolerance, and where facets are nearly coplanar the graph can fold (measured:
 * a flat dome, sagitta 1e-13, whose climb stopped 7e-6 of its size below the maximum for
 * a direction 3e-5 rad off its axis; issue 13). A certificate built on a climbed support
 * is then no proof. The tree proves the maximum instead, whatever the graph.
 *
 * The important parts:
 * - nodes: centre c and radius r with |v - c| <= r for every vertex below, exactly
 *   (r rounded up), children split at the median of the longest box side, leaves of at
 *   most COL_STREE_LEAF vertices, their vertex indices stored leaf by leaf;
 * - col_stree_max: depth-first from the better child, a node pruned when an upper bound
 *   on the computed values below it, fl(d.c) + |d| (r + 2 gamma_3 (|c| + r)), cannot
 *   beat the best value found (the bound's derivation is in sepvec_support_tree.c);
 * - the tree holds offsets only (no pointers), so its block may be moved or copied.
 * Limits: hulls of up to 2^31 vertices; depth at most COL_STREE_MAX_DEPTH. */
#ifndef COLIBRI_NARROWPHASE_SEPVEC_SUPPORT_TREE_H
#define COLIBRI_NARROWPHASE_SEPVEC_SUPPORT_TREE_H

#include <stddef.h>

#include "lib/core/hull.h"
#include "lib/core/vec.h"

#define COL_STREE_LEAF 16
#define COL_STREE_MAX_DEPTH 48

/* Bytes of the tree of hull h (a multiple of 16). */
size_t col_stree_bytes(const col_hull *h);

/* Bytes of a built tree: at most its col_stree_bytes, the rest may be cut off. */
size_t col_stree_used(const void *tree);

/* Builds the tree of h into mem (16-byte aligned, col_stree_bytes(h) bytes). */
void col_stree_build(void *mem, const col_hull *h);

/* The vertex with the largest computed d.v = fl(d.x v.x + d.y v.y + d.z v.z) over all
 * vertices of h (ties: any of them), and that value through *value; hint (a vertex, or
 * -1) seeds the bound, so a good guess (a climbed support) makes the search short.
 * *nodes (may be NULL) gets the nodes visited. */
int col_stree_max(const void *tree, const col_hull *h, col_vec3 d, int hint, double *value, int *nodes);

#endif
