/* SPDX-License-Identifier: MIT */
/* Slot allocator with generations (sokol's and Box2D's id pools): a freed slot's
 * generation is bumped so an old id no longer matches, and a slot whose generation
 * would wrap is retired for good, so an id is never silently reused.
 * Freed slots can be held back ("deferred") until the owner says they may be reused:
 * the world keeps a removed body's slot out of circulation until the broad phase has
 * dropped it at the next update. */
#ifndef COLIBRI_LIB_CORE_ID_POOL_H
#define COLIBRI_LIB_CORE_ID_POOL_H

#include <stdbool.h>
#include <stdint.h>

struct col_alloc;

#define COL_ID_POOL_MAX_SLOTS 0x7ffffffe

typedef struct col_id_pool {
    uint32_t *generation; /* [capacity] */
    uint8_t *live;        /* [capacity] */
    int capacity;
    int high_water;       /* slots ever handed out: [0, high_water) */
    int live_count;
    /* [capacity]: the reusable slots from the bottom, [0, free_count), used LIFO; the
     * freed slots not yet reusable from the top, the oldest at [capacity - 1]. A slot is
     * in at most one of the two, and neither holds a live one, so one array holds both
     * (4 bytes a slot less than two: a million bodies, docs/broadphase.md). */
    uint32_t *lists;
    int free_count;
    int deferred_count;
    bool last_from_free;  /* how the last alloc got its slot, for col_id_pool_unalloc */
} col_id_pool;

void col_id_pool_init(col_id_pool *pool);
void col_id_pool_destroy(col_id_pool *pool, struct col_alloc *alloc);

/* Makes sure the next col_id_pool_alloc and col_id_pool_free cannot fail: grows the
 * arrays if needed. Returns 0, or -1 on allocation failure (pool unchanged). */
int col_id_pool_reserve(col_id_pool *pool, struct col_alloc *alloc, int extra);

/* Takes a slot (after a successful reserve this cannot fail). Returns -1 when every
 * slot is used or retired (COL_ERR_CAPACITY for the caller). The slot index is in
 * [0, capacity): callers size their per-slot arrays by capacity. */
int col_id_pool_alloc(col_id_pool *pool);

/* Undoes the col_id_pool_alloc that returned slot, as if it never happened (used when
 * a later step of a creation fails). */
void col_id_pool_unalloc(col_id_pool *pool, int slot);

/* Frees a live slot: bumps its generation; deferred slots wait for
 * col_id_pool_release_deferred. */
void col_id_pool_free(col_id_pool *pool, int slot, bool deferred);

/* Makes every deferred slot reusable. */
void col_id_pool_release_deferred(col_id_pool *pool);

/* True if slot = index1 - 1 is live with this generation. */
bool col_id_pool_check(const col_id_pool *pool, uint32_t index1, uint32_t generation);

#endif
