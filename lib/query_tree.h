/* SPDX-License-Identifier: MIT */
/* The world's query tree (issue 20; include/colibri/worldquery.h): a bounding-volume tree
 * (lib/core/box_tree.h) over the tight boxes (the pair test's) of the bodies that have not
 * moved since the last update, brought up to date by the first query after an update under
 * the world's query lock: refitted when the same bodies are in it, rebuilt when they are
 * not or when the refitted tree has grown slack (docs/queries.md measures both). Shared by the ray casts
 * (world_ray.c) and the overlap queries (world_overlap.c). */
#ifndef COLIBRI_LIB_QUERY_TREE_H
#define COLIBRI_LIB_QUERY_TREE_H

#include <stdbool.h>
#include <stdint.h>

#include "colibri/worldquery.h"
#include "lib/core/box_tree.h"
#include "lib/world.h"

/* Syncs the tree if an update ran since its last sync; safe from several threads at once
 * (the first builds, the others wait). OUT_OF_MEMORY: no message written; the next call
 * tries again. */
col_status col_world_queries_ready(const col_world *world);

/* The synced tree (after col_world_queries_ready). */
const col_box_tree *col_world_query_tree(const col_world *world);

/* Frees the tree (col_world_destroy). */
void col_world_query_destroy(col_world *world);

/* Live and not moved since the last update: in the tree (else tested one by one). Inline:
 * the walk asks it for every leaf item the ray's box test passes. */
static inline bool col_query_body_in_tree(const col_world *w, uint32_t slot)
{
    return w->body_ids.live[slot] && !w->dirty[slot];
}
/* The group/mask rule and the callback. */
bool col_query_body_passes(const col_world *w, uint32_t slot, const col_query_filter *f);
/* A body's pose and tight box: the update's for a body in the tree, else from its set pose. */
void col_query_body_pose_box(const col_world *w, uint32_t slot, col_xform *xf, col_aabb *box);
/* Finite and within COL_MAX_COORD. */
bool col_query_finite_point(col_vec3 v);

#endif
