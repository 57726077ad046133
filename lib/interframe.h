/* SPDX-License-Identifier: MIT */
/* Inter-frame contacts (lib/interframe.c): which pairs may have touched between two
 * updates, from the bodies' poses at both (the swept-hull test of
 * ccd/lpip_sweep.c), for col_query_interframe and for the world option
 * col_world_def.report_interframe.
 *
 * The important parts:
 *   col_interframe_prepare  called by col_world_update after its reservations (step 3),
 *                           before anything is committed: swept boxes of every live body
 *                           (both poses, widened by the rotation bulge), a sort-and-sweep
 *                           on them for candidate pairs (filters, disabled pairs and the
 *                           static-static rule applied), and every reservation the
 *                           finishing step needs. OUT_OF_MEMORY leaves the last results.
 *   col_interframe_finish   called once the update's new pair list is in place (it
 *                           cannot fail): pairs colliding now or at the previous update
 *                           are in without a test, the others are swept-tested (in
 *                           parallel on the world's workers), and the list is sorted
 *                           like col_pair_events.pairs.
 * Limits: as the world's; the candidates are all pairs whose swept boxes overlap. */
#ifndef COLIBRI_LIB_INTERFRAME_H
#define COLIBRI_LIB_INTERFRAME_H

#include "colibri/colibri.h"

struct col_world;

col_status col_interframe_prepare(struct col_world *world);
void col_interframe_finish(struct col_world *world);

/* The last finished list (NULL, 0 before the first or when the option is off). */
void col_interframe_events(const struct col_world *world, const col_pair **pairs, int *count);

/* Frees the inter-frame state (col_world_destroy). */
void col_interframe_destroy(struct col_world *world);

#endif
