/* SPDX-License-Identifier: MIT */
/* Time-to-collision queue: the pairs the narrow phase need not look at until a given
 * frame, ordered by that frame (Lin's survey "Fast proximity queries for large game
 * environments" section 7.1; I-COLLIDE's priority queue of pairs; Mirtich's Impulse keeps a
 * heap of lower bounds on impact times). The world keys each sleeping pair by the first
 * frame at which it could touch (docs/schedule.md) and pops the pairs whose frame has come.
 *
 * The important parts:
 * - keys are frame numbers, so the queue is a timing wheel (Varghese & Lauck): one list per
 *   frame for the next COL_SLEEP_WHEEL_FRAMES frames, and one overflow list for later keys that is
 *   sorted into the wheel once per turn. Every operation is O(1) (a turn costs O(overflow)).
 *   On the world's recorded cw500 and dense10k traces it ran 5-6x faster than a binary heap
 *   with per-id positions (docs/schedule.md), so the heap was not kept;
 * - ids are small integers (the world uses pair-cache slot numbers) with their links stored
 *   per id, so an id is queued at most once and col_sleep_wheel_set (insert or re-key) and
 *   col_sleep_wheel_remove need no search;
 * - order: entries pop by key; entries with the same key pop in the order they were queued
 *   (a re-key queues anew): a total order that depends only on the sequence of calls
 *   (docs/architecture.md, "Determinism and memory");
 * - the cursor: pop_due(now) drains every key up to now and leaves the cursor at now + 1.
 *   A key below the cursor (in the drained past) counts as the cursor: due at once;
 * - no allocation except in col_sleep_wheel_reserve: reserve for the largest id first, and
 *   every other call is allocation-free and cannot fail.
 * Limits: ids below the reserved capacity (at most INT32_MAX of them); keys and now
 * below 2^62 (they are frame numbers). */
#ifndef COLIBRI_LIB_SLEEP_WHEEL_H
#define COLIBRI_LIB_SLEEP_WHEEL_H

#include <stdbool.h>
#include <stdint.h>

struct col_alloc;

/* Frames covered by the wheel's lists (a power of two). */
#define COL_SLEEP_WHEEL_FRAMES 64

typedef struct col_sleep_wheel {
    uint64_t *key;        /* [cap]: each queued id's key */
    uint32_t *next, *prev; /* [cap]: links within its list */
    uint8_t *list;        /* [cap]: 0 not queued, 1 + k in wheel list k, COL_SLEEP_WHEEL_FRAMES + 1 overflow */
    uint32_t head[COL_SLEEP_WHEEL_FRAMES + 1], tail[COL_SLEEP_WHEEL_FRAMES + 1]; /* the last list is the overflow */
    uint64_t cursor;      /* the first frame not yet drained; wheel list k holds key cursor..+W-1 = k mod W */
    int count;            /* queued ids */
    int in_wheel;         /* of which in the wheel lists (not overflow) */
    int cap;              /* ids must be below cap */
} col_sleep_wheel;

/* An empty queue with no memory (capacity 0), cursor at frame 0. */
void col_sleep_wheel_init(col_sleep_wheel *wheel);
/* Frees the arrays (allocated from alloc) and leaves an empty queue. */
void col_sleep_wheel_destroy(col_sleep_wheel *wheel, struct col_alloc *alloc);
/* Makes room for every id below id_count; queued entries are kept. Returns 0, or -1 on
 * allocation failure or a negative count (the queue is then unchanged). */
int col_sleep_wheel_reserve(col_sleep_wheel *wheel, struct col_alloc *alloc, int id_count);

/* Queues id with key, or changes its key if it is queued. id must be below the capacity. */
void col_sleep_wheel_set(col_sleep_wheel *wheel, uint32_t id, uint64_t key);
/* Takes id out of the queue. Returns false if it was not queued. */
bool col_sleep_wheel_remove(col_sleep_wheel *wheel, uint32_t id);
/* Whether id is queued; if so and key is not NULL, its key goes to *key. */
bool col_sleep_wheel_contains(const col_sleep_wheel *wheel, uint32_t id, uint64_t *key);
/* Pops one entry whose key is at most now (the smallest key first); false when none is
 * left, the cursor then being now + 1. */
bool col_sleep_wheel_pop_due(col_sleep_wheel *wheel, uint64_t now, uint32_t *id);

static inline int col_sleep_wheel_count(const col_sleep_wheel *wheel) { return wheel->count; }

#endif
