/* SPDX-License-Identifier: MIT */
/* The world's time-critical mode for mesh-mesh pairs (docs/adb.md): the def's checks,
 * the shapes' ADB data, and the pair test the frame calls instead of the exact one. */
#ifndef COLIBRI_LIB_TIME_CRITICAL_H
#define COLIBRI_LIB_TIME_CRITICAL_H

#include <stdbool.h>

#include "lib/world.h"

struct col_mesh_cache;
struct col_np_result;
struct col_pair_slot;

/* p_min finite in (0, 1], k_min >= 1, max_node_pairs >= 0, and (with_budget) frame_budget
 * finite and >= 0. */
bool col_time_critical_def_valid(const col_time_critical_def *d, bool with_budget);

/* Builds shape record r's ADB counts if it is a mesh without them. OUT_OF_MEMORY leaves
 * it without. */
col_status col_time_critical_prepare(col_world *w, col_shape_rec *r);

/* Whether an update tests this pair in the mode (both shapes meshes with ADB data). */
static inline bool col_time_critical_applies(const col_world *w, const col_shape_rec *ra, const col_shape_rec *rb)
{
    return w->def.time_critical.enabled && ra->adb.cells != NULL && rb->adb.cells != NULL;
}

/* The frame's pair test in the mode: the answer into *res (gap 0: never put to sleep) and
 * the estimate into the slot; cache: the pair's witness (ccd/mesh_adb.h). deadline: the monotonic clock's seconds at which the
 * update's budget runs out (0: none). */
void col_time_critical_test(const col_world *w, const col_shape_rec *ra, const col_xform *xa, const col_shape_rec *rb,
                            const col_xform *xb, double deadline, struct col_mesh_cache *cache,
                            struct col_np_result *res, struct col_pair_slot *slot);

/* The monotonic clock in seconds. */
double col_time_critical_now(void);

#endif
