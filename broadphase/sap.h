/* SPDX-License-Identifier: MIT */
/* Sweep and prune in the cells of a uniform grid (multi-SAP; docs/broadphase.md): each
 * cell keeps a list of the boxes that overlap it, sorted by their mins on one axis and
 * kept sorted from frame to frame by insertion sort (nearly linear: motion is coherent).
 * Each update sweeps every cell that changed (for each box, the boxes whose mins lie in
 * its interval on that axis, the other two axes tested on the spot) and adds the pairs
 * that begin; one pass over the pair set (pair_set.h) drops the pairs of moved boxes
 * that no longer overlap. A box entering or leaving a cell is just put in or taken out
 * of its list.
 *
 * The contract is on rounded boxes. The structure holds each proxy's box rounded outward
 * to floats (col_sap_round_box: min toward -inf, max toward +inf) and compares nothing
 * else, so after col_sap_update the set holds exactly the pairs of proxies whose ROUNDED
 * closed boxes overlap on all three axes (touching boxes overlap), never two static
 * proxies. A rounded box contains the caller's box, so the set holds every pair whose
 * double boxes overlap, and also some pairs apart by less than two float ulps (each box
 * grows by up to one; about 2^-22 of the coordinates' magnitude), which the caller
 * filters if it must: the world gives the SAP fat boxes and tests the tight ones itself
 * (lib/frame.c, candidate). Floats because the passes are memory-bound: a box is 24
 * bytes instead of 48 (sap.c).
 *
 * Proxies are numbered by the caller (the world uses body slot indices). Inserts, moves
 * and removals are recorded and applied together by col_sap_update:
 * - removals: one pass over the pairs and one compaction of the cells, O(n + pairs);
 * - a few inserts: each joins the cells its box overlaps (put in place in their lists
 *   by binary search; the cells' sweeps find its pairs);
 * - many inserts (a bulk load): the grid is fitted to the boxes, and a sort plus one
 *   sweep per cell rebuilds the set, diffed against the old one so surviving pairs keep
 *   their user values. */
#ifndef COLIBRI_BROADPHASE_SAP_H
#define COLIBRI_BROADPHASE_SAP_H

#include <stdbool.h>
#include <stdint.h>

#include "broadphase/pair_set.h"
#include "lib/core/runner.h"
#include "colibri/vecmath.h"

struct col_alloc;

typedef struct col_aabb {
    col_vec3 min, max;
} col_aabb;

typedef struct col_sap col_sap;

/* Called for every pair that leaves the set, with the record's user value. */
typedef void (*col_sap_pair_removed_fn)(void *ctx, uint32_t a, uint32_t b, uint32_t user);

/* NULL on allocation failure. */
col_sap *col_sap_create(struct col_alloc *alloc);
void col_sap_destroy(col_sap *sap);

/* Registers proxy p with box and static flag; it joins the pair set at the next update.
 * p must not be live, nor removed since the last update. Returns 0, or -1 on allocation
 * failure (nothing changed). */
int col_sap_insert(col_sap *sap, uint32_t p, const col_aabb *box, bool is_static);
/* Sets the box of live proxy p; applied at the next update. */
void col_sap_move(col_sap *sap, uint32_t p, const col_aabb *box);
/* col_sap_move for callers that move many proxies from several threads: calls for
 * distinct proxies may run at once (each writes only its proxy's data). The caller then
 * calls col_sap_note_moves once, on one thread, before col_sap_update. */
void col_sap_move_concurrent(col_sap *sap, uint32_t p, const col_aabb *box);
void col_sap_note_moves(col_sap *sap);
/* Removes live proxy p; its pairs leave the set (callback) at the next update. */
void col_sap_remove(col_sap *sap, uint32_t p);

/* Applies the recorded changes. Returns 0, or -1 on allocation failure: the set is then
 * marked stale and the next successful update rebuilds it. */
int col_sap_update(col_sap *sap, col_sap_pair_removed_fn removed, void *ctx);

/* Lets col_sap_update run its passes on the owner's workers (a runner with run NULL:
 * on the calling thread). The result is the same either way, for any number of workers:
 * the work is cut into items of fixed size and their outcomes are merged in item order
 * (sap.c). */
void col_sap_set_runner(col_sap *sap, col_runner runner);

/* The pair set (valid until the next update or remove). */
col_pair_set *col_sap_pair_set(col_sap *sap);

/* Number of live proxies. */
int col_sap_proxy_count(const col_sap *sap);
/* The box the broad phase currently holds for p, as rounded (col_sap_round_box) into
 * *out; false, with *out untouched, if p is not registered. */
bool col_sap_box(const col_sap *sap, uint32_t p, col_aabb *out);
/* The box the broad phase works with for a caller's box: each coordinate rounded outward
 * to a float (min toward -inf, max toward +inf), given back exactly as a double. in and
 * out may be the same. The pair set is defined on these boxes (see the top). */
void col_sap_round_box(const col_aabb *in, col_aabb *out);

/* How many full rebuilds (sort plus sweep) updates have done so far; for tests and
 * counters, so they can tell the few-inserts path from the bulk path. */
int col_sap_rebuild_count(const col_sap *sap);

/* The grid's cells per axis into cells[0..2], and the number of (proxy, cell) memberships
 * (a proxy is a member of every cell its box overlaps); for tests and counters. */
void col_sap_grid_stats(const col_sap *sap, int cells[3], long long *memberships);

#endif
