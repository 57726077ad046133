/* SPDX-License-Identifier: MIT */
/* The frame's results (results.c): the colliding pairs of the last update and of the one
 * before, and the began/ended events between them, as col_world_get_pair_events hands
 * them out (I-COLLIDE and V-COLLIDE report pair changes this way). */
#ifndef COLIBRI_LIB_RESULTS_H
#define COLIBRI_LIB_RESULTS_H

#include "colibri/colibri.h"
#include "lib/core/array.h"

COL_ARRAY_DEFINE(col_pair_array, col_pair)

typedef struct col_results {
    col_pair_array lists[2]; /* lists[cur]: the last update's pairs; lists[1 - cur]: the next */
    int cur;
    col_pair_array began, ended;
} col_results;

/* Room for an update that finds up to max_pairs pairs: the next list, began, and ended
 * (up to the current list's length). 0, or -1 on allocation failure (results unchanged,
 * though capacities may have grown). */
int col_results_reserve(col_results *r, col_alloc *a, int max_pairs);

/* The list the update fills (sorted by (a.index1, b.index1), ids unique), then publish:
 * it becomes the current list and began/ended are its differences from the previous one
 * (a pair whose body slot was reused by a new body counts as a different pair). */
static inline col_pair_array *col_results_next(col_results *r) { return &r->lists[1 - r->cur]; }
void col_results_publish(col_results *r);

static inline const col_pair_array *col_results_current(const col_results *r) { return &r->lists[r->cur]; }
static inline const col_pair_array *col_results_previous(const col_results *r) { return &r->lists[1 - r->cur]; }

void col_results_destroy(col_results *r, col_alloc *a);

/* Is (a, b) in a list sorted like the results (binary search on index1)? With gen, the
 * generations must match too (the previous update's list may name removed bodies). */
bool col_pair_list_contains(const col_pair *list, int n, col_body_id a, col_body_id b, bool gen);

#endif
