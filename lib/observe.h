/* SPDX-License-Identifier: MIT */
/* An observer of the world's narrow-phase queries, for tools that study a backend on
 * the world's own pairs (bench/lpip_stats.c) without reading the world's records. Not
 * part of the public API.
 *
 * The observer is called after every narrow-phase query of col_world_update, on the
 * worker that made it (so with more than one worker it must be thread-safe), with the
 * two body slots, their hulls and poses, the pair's cache slot (stable while the pair
 * stays in the broad phase) and the answer. It must not call into the world. */
#ifndef COLIBRI_LIB_OBSERVE_H
#define COLIBRI_LIB_OBSERVE_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/core/hull.h"
#include "lib/core/vec.h"

typedef struct col_narrow_event {
    uint32_t body_a, body_b; /* body slots (index1 - 1) */
    uint32_t pair_slot;      /* the pair's cache slot */
    const col_hull *hull_a, *hull_b;
    const col_xform *pose_a, *pose_b;
    bool colliding;          /* the backend's answer */
} col_narrow_event;

typedef void col_narrow_observer_fn(void *ctx, const col_narrow_event *event);

struct col_world;

/* Sets (fn NULL: removes) the world's observer. */
void col_world_set_narrow_observer(struct col_world *world, col_narrow_observer_fn *fn, void *ctx);

#endif
