/* SPDX-License-Identifier: MIT */
/* Disabled pairs (pair_filter.c): the sorted keys lo_slot << 32 | hi_slot of the pairs
 * the app turned off with col_pair_set_enabled. */
#ifndef COLIBRI_LIB_PAIR_FILTER_H
#define COLIBRI_LIB_PAIR_FILTER_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/core/array.h"

typedef struct col_pair_filter {
    col_u64_array keys;
} col_pair_filter;

struct col_world;

/* True if the pair of body slots sa, sb is disabled (a binary search, only for bodies
 * that have a disabled pair at all). */
bool col_pair_filter_is_disabled(const struct col_world *world, uint32_t sa, uint32_t sb);
/* Drops every disabled pair of a body slot that is going away. */
void col_pair_filter_forget_body(struct col_world *world, uint32_t slot);
void col_pair_filter_destroy(col_pair_filter *f, col_alloc *a);

#endif
