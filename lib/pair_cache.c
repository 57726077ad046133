/* SPDX-License-Identifier: MIT */
/* Per-pair narrow-phase slots (pair_cache.h). A slot is taken when a pair first reaches
 * the narrow phase and given back when the broad phase drops the pair, so the number of
 * slots in use never exceeds the number of pairs, and the frame loop reserves that many
 * before it starts (no allocation inside the loop). */
#include "lib/pair_cache.h"

#include <string.h>

void col_pair_cache_init(col_pair_cache *pc, size_t cache_size)
{
    memset(pc, 0, sizeof *pc);
    pc->stride = COL_PAIR_SLOT_HEADER + ((cache_size + 15) & ~(size_t)15);
}

int col_pair_cache_reserve(col_pair_cache *pc, col_alloc *a, int count)
{
    if (count <= pc->cap) return 0;
    long long want = pc->cap > 0 ? pc->cap : 256;
    while (want < count) want *= 2;
    if (want > 0x7fffffff) return -1;
    size_t n = (size_t)want;
    unsigned char *slots = col_alloc_bytes(a, n * pc->stride);
    uint32_t *fl = col_alloc_bytes(a, n * sizeof(uint32_t));
    if (slots == NULL || fl == NULL) {
        col_free_bytes(a, slots, n * pc->stride);
        col_free_bytes(a, fl, n * sizeof(uint32_t));
        return -1;
    }
    if (pc->cap > 0) {
        memcpy(slots, pc->slots, (size_t)pc->high * pc->stride);
        memcpy(fl, pc->free_slots, (size_t)pc->free_count * sizeof(uint32_t));
    }
    col_free_bytes(a, pc->slots, (size_t)pc->cap * pc->stride);
    col_free_bytes(a, pc->free_slots, (size_t)pc->cap * sizeof(uint32_t));
    pc->slots = slots;
    pc->free_slots = fl;
    pc->cap = (int)n;
    return 0;
}

uint32_t col_pair_cache_acquire(col_pair_cache *pc)
{
    uint32_t s = pc->free_count > 0 ? pc->free_slots[--pc->free_count] : (uint32_t)pc->high++;
    col_pair_slot *h = col_pair_cache_slot(pc, s);
    h->tested_frame = 0;
    h->colliding = 0;
    h->asleep = 0;
    h->wake_frame = 0;
    h->seen_frame = 0;
    return s;
}

void col_pair_cache_release(col_pair_cache *pc, uint32_t slot) { pc->free_slots[pc->free_count++] = slot; }

void col_pair_cache_destroy(col_pair_cache *pc, col_alloc *a)
{
    col_free_bytes(a, pc->slots, (size_t)pc->cap * pc->stride);
    col_free_bytes(a, pc->free_slots, (size_t)pc->cap * sizeof(uint32_t));
    size_t stride = pc->stride;
    memset(pc, 0, sizeof *pc);
    pc->stride = stride;
}
