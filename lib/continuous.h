/* SPDX-License-Identifier: MIT */
/* The world's continuous mode (lib/continuous.c; docs/ccd.md, "World mode"): the pairs
 * of continuous bodies (col_body_def.continuous) that touched at some instant between
 * two updates, with the first instant (col_pair_events.continuous).
 *
 * The important parts:
 *   col_continuous_prepare  called by col_world_update after its reservations (step 3),
 *                           before anything is committed, only while some body is
 *                           continuous: swept boxes of every live body between its poses
 *                           at the last two updates (ccd/swept_box.h), a sort-and-sweep
 *                           on them for the candidate pairs with a continuous body
 *                           (filters, disabled pairs and the static-static rule as the
 *                           frame's), and every reservation the finishing step needs.
 *                           OUT_OF_MEMORY leaves the last results.
 *   col_continuous_finish   once the update's new pair list is in place (cannot fail):
 *                           the time of impact (ccd/toi.h) of every candidate on the
 *                           world's workers, each writing its own record, then the hits
 *                           in candidate order, sorted like col_pair_events.pairs. */
#ifndef COLIBRI_LIB_CONTINUOUS_H
#define COLIBRI_LIB_CONTINUOUS_H

#include "colibri/colibri.h"

struct col_world;

col_status col_continuous_prepare(struct col_world *world);
void col_continuous_finish(struct col_world *world);

/* The last finished list (NULL, 0 while no body is continuous). */
void col_continuous_events(const struct col_world *world, const col_continuous_pair **pairs, int *count);

/* Frees the state (col_world_destroy). */
void col_continuous_destroy(struct col_world *world);

#endif
