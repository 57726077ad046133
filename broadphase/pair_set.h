/* SPDX-License-Identifier: MIT */
/* The set of broad-phase overlapping pairs: a hash from the pair key to a slot of a
 * dense record array (swap-remove), so the frame loop walks a flat array in a
 * deterministic order (the order of the operations, never hash bucket order).
 * Hashing goes through lib/core/hash.h (uthash with the world allocator); entries come
 * from a pool, so a warmed-up set adds and removes pairs without allocating. */
#ifndef COLIBRI_BROADPHASE_PAIR_SET_H
#define COLIBRI_BROADPHASE_PAIR_SET_H

#include <stdint.h>

struct col_alloc;

#define COL_PAIR_NO_USER UINT32_MAX

/* One overlapping pair of proxies, a < b. user is free for the owner (the world keeps
 * the narrow-phase cache slot there); it starts as COL_PAIR_NO_USER. */
typedef struct col_bp_pair {
    uint32_t a, b;
    uint32_t user;
    uint32_t mark; /* scratch for the broad phase's rebuild diff */
} col_bp_pair;

typedef struct col_pair_set col_pair_set;

/* NULL on allocation failure. */
col_pair_set *col_pair_set_create(struct col_alloc *alloc);
void col_pair_set_destroy(col_pair_set *set);

/* Adds (a, b) (any order; a != b). Returns 1 if added, 0 if it was there, -1 on
 * allocation failure (set unchanged). */
int col_pair_set_add(col_pair_set *set, uint32_t a, uint32_t b);
/* Removes (a, b). Returns 1 if removed (its user value in *user if not NULL), 0 if absent. */
int col_pair_set_remove(col_pair_set *set, uint32_t a, uint32_t b, uint32_t *user);
/* Hints that the pair (a, b) is about to be added, removed or found: starts loading its
 * hash bucket (level 0) or the first entry of that bucket (level 1, once the bucket is
 * loaded) into the cache. No effect on the contents; a batch of updates that calls it a
 * few pairs ahead overlaps its cache misses (SAP's apply step, broadphase/sap.c). */
void col_pair_set_prefetch(const col_pair_set *set, uint32_t a, uint32_t b, int level);

/* The record of (a, b), or NULL. The pointer is valid until the next add or remove. */
col_bp_pair *col_pair_set_find(col_pair_set *set, uint32_t a, uint32_t b);
/* The dense records; valid until the next add or remove. */
col_bp_pair *col_pair_set_records(col_pair_set *set, int *count);
int col_pair_set_count(const col_pair_set *set);
/* Removes the record at dense index i (swap-remove: the last record moves to i). */
void col_pair_set_remove_at(col_pair_set *set, int i);
/* Makes room for n pairs in total so that adds up to n do not allocate; -1 on failure. */
int col_pair_set_reserve(col_pair_set *set, int n);

#endif
