/* SPDX-License-Identifier: MIT */
#include "lib/core/id_pool.h"

#include <string.h>

#include "lib/core/alloc.h"

void col_id_pool_init(col_id_pool *pool) { memset(pool, 0, sizeof *pool); }

void col_id_pool_destroy(col_id_pool *pool, col_alloc *alloc)
{
    col_free_bytes(alloc, pool->generation, (size_t)pool->capacity * sizeof(uint32_t));
    col_free_bytes(alloc, pool->live, (size_t)pool->capacity);
    col_free_bytes(alloc, pool->free_list, (size_t)pool->free_cap * sizeof(uint32_t));
    col_free_bytes(alloc, pool->deferred, (size_t)pool->deferred_cap * sizeof(uint32_t));
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
    /* All four arrays are replaced together or not at all, so a failure leaves the
     * pool exactly as it was. The free and deferred lists can each hold every slot. */
    uint32_t *gen = col_alloc_zeroed(alloc, n, sizeof(uint32_t));
    uint8_t *live = col_alloc_zeroed(alloc, n, 1);
    uint32_t *fl = col_alloc_bytes(alloc, n * sizeof(uint32_t));
    uint32_t *df = col_alloc_bytes(alloc, n * sizeof(uint32_t));
    if (gen == NULL || live == NULL || fl == NULL || df == NULL) {
        col_free_bytes(alloc, gen, n * sizeof(uint32_t));
        col_free_bytes(alloc, live, n);
        col_free_bytes(alloc, fl, n * sizeof(uint32_t));
        col_free_bytes(alloc, df, n * sizeof(uint32_t));
        return -1;
    }
    if (old > 0) {
        memcpy(gen, pool->generation, old * sizeof(uint32_t));
        memcpy(live, pool->live, old);
        memcpy(fl, pool->free_list, (size_t)pool->free_count * sizeof(uint32_t));
        memcpy(df, pool->deferred, (size_t)pool->deferred_count * sizeof(uint32_t));
    }
    col_free_bytes(alloc, pool->generation, old * sizeof(uint32_t));
    col_free_bytes(alloc, pool->live, old);
    col_free_bytes(alloc, pool->free_list, (size_t)pool->free_cap * sizeof(uint32_t));
    col_free_bytes(alloc, pool->deferred, (size_t)pool->deferred_cap * sizeof(uint32_t));
    pool->generation = gen;
    pool->live = live;
    pool->free_list = fl;
    pool->deferred = df;
    pool->capacity = pool->free_cap = pool->deferred_cap = (int)n;
    return 0;
}

int col_id_pool_alloc(col_id_pool *pool)
{
    if (pool->free_count > 0) {
        int slot = (int)pool->free_list[--pool->free_count];
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
    if (pool->last_from_free) pool->free_list[pool->free_count++] = (uint32_t)slot;
    else pool->high_water--;
}

void col_id_pool_free(col_id_pool *pool, int slot, bool deferred)
{
    pool->live[slot] = 0;
    pool->live_count--;
    pool->generation[slot]++;
    if (pool->generation[slot] == UINT32_MAX) return; /* retired: never handed out again */
    if (deferred) pool->deferred[pool->deferred_count++] = (uint32_t)slot;
    else pool->free_list[pool->free_count++] = (uint32_t)slot;
}

void col_id_pool_release_deferred(col_id_pool *pool)
{
    /* Oldest first at the bottom of the LIFO stack: deterministic reuse order. */
    for (int i = 0; i < pool->deferred_count; i++) pool->free_list[pool->free_count++] = pool->deferred[i];
    pool->deferred_count = 0;
}

bool col_id_pool_check(const col_id_pool *pool, uint32_t index1, uint32_t generation)
{
    if (index1 == 0 || index1 > (uint32_t)pool->high_water) return false;
    uint32_t slot = index1 - 1;
    return pool->live[slot] != 0 && pool->generation[slot] == generation;
}
