/* SPDX-License-Identifier: MIT */
#include "lib/core/id_pool.h"

#include <string.h>

#include "lib/core/alloc.h"

void col_id_pool_init(col_id_pool *pool) { memset(pool, 0, sizeof *pool); }

void col_id_pool_destroy(col_id_pool *pool, col_alloc *alloc)
{
    col_free_bytes(alloc, pool->generation, (size_t)pool->capacity * sizeof(uint32_t));
    col_free_bytes(alloc, pool->live, (size_t)pool->capacity);
    col_free_bytes(alloc, pool->lists, (size_t)pool->capacity * sizeof(uint32_t));
    memset(pool, 0, sizeof *pool);
}

int col_id_pool_reserve(col_id_pool *pool, col_alloc *alloc, int extra)
{
    if (extra < 0 || pool->high_water > COL_ID_POOL_MAX_SLOTS - extra) return -1;
    int need = pool->high_water + extra;
    if (need <= pool->capacity) return 0;
    long long want = pool->capacity > 0 ? pool->capacity : 64;
    while (want < need) want *= 2;
    if (want > COL_ID_POOL_MAX_SLOTS) want = COL_ID_POOL_MAX_SLOTS;
    size_t n = (size_t)want, old = (size_t)pool->capacity;
    /* All three arrays are replaced together or not at all, so a failure leaves the
     * pool exactly as it was. */
    uint32_t *gen = col_alloc_zeroed(alloc, n, sizeof(uint32_t));
    uint8_t *live = col_alloc_zeroed(alloc, n, 1);
    uint32_t *lists = col_alloc_bytes(alloc, n * sizeof(uint32_t));
    if (gen == NULL || live == NULL || lists == NULL) {
        col_free_bytes(alloc, gen, n * sizeof(uint32_t));
        col_free_bytes(alloc, live, n);
        col_free_bytes(alloc, lists, n * sizeof(uint32_t));
        return -1;
    }
    if (old > 0) {
        memcpy(gen, pool->generation, old * sizeof(uint32_t));
        memcpy(live, pool->live, old);
        memcpy(lists, pool->lists, (size_t)pool->free_count * sizeof(uint32_t));
        size_t d = (size_t)pool->deferred_count;
        memcpy(lists + n - d, pool->lists + old - d, d * sizeof(uint32_t));
    }
    col_free_bytes(alloc, pool->generation, old * sizeof(uint32_t));
    col_free_bytes(alloc, pool->live, old);
    col_free_bytes(alloc, pool->lists, old * sizeof(uint32_t));
    pool->generation = gen;
    pool->live = live;
    pool->lists = lists;
    pool->capacity = (int)n;
    return 0;
}

int col_id_pool_alloc(col_id_pool *pool)
{
    if (pool->free_count > 0) {
        int slot = (int)pool->lists[--pool->free_count];
        pool->last_from_free = true;
        pool->live[slot] = 1;
        pool->live_count++;
        return slot;
    }
    if (pool->high_water >= pool->capacity) return -1;
    int slot = pool->high_water++;
    pool->last_from_free = false;
    pool->live[slot] = 1;
    pool->live_count++;
    return slot;
}

void col_id_pool_unalloc(col_id_pool *pool, int slot)
{
    pool->live[slot] = 0;
    pool->live_count--;
    if (pool->last_from_free) pool->lists[pool->free_count++] = (uint32_t)slot;
    else pool->high_water--;
}

void col_id_pool_free(col_id_pool *pool, int slot, bool deferred)
{
    pool->live[slot] = 0;
    pool->live_count--;
    pool->generation[slot]++;
    if (pool->generation[slot] == UINT32_MAX) return; /* retired: never handed out again */
    if (deferred) pool->lists[pool->capacity - 1 - pool->deferred_count++] = (uint32_t)slot;
    else pool->lists[pool->free_count++] = (uint32_t)slot;
}

void col_id_pool_release_deferred(col_id_pool *pool)
{
    /* Oldest first at the bottom of the LIFO stack: deterministic reuse order. The
     * deferred slots, oldest at the top, are turned over in place and then moved down
     * (memmove: free_count + deferred_count <= capacity, but the two ranges may meet). */
    if (pool->deferred_count == 0) return; /* lists may be NULL */
    uint32_t *d = pool->lists + pool->capacity - pool->deferred_count;
    for (int i = 0, j = pool->deferred_count - 1; i < j; i++, j--) {
        uint32_t t = d[i];
        d[i] = d[j];
        d[j] = t;
    }
    memmove(pool->lists + pool->free_count, d, (size_t)pool->deferred_count * sizeof(uint32_t));
    pool->free_count += pool->deferred_count;
    pool->deferred_count = 0;
}

bool col_id_pool_check(const col_id_pool *pool, uint32_t index1, uint32_t generation)
{
    if (index1 == 0 || index1 > (uint32_t)pool->high_water) return false;
    uint32_t slot = index1 - 1;
    return pool->live[slot] != 0 && pool->generation[slot] == generation;
}
