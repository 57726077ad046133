/* SPDX-License-Identifier: MIT */
/* Per-pair narrow-phase slots: a header (last answer and the frame it was given) plus
 * the backend's coherence cache, in one flat array with a free list. A slot is taken
 * when a pair first reaches the narrow phase and given back when the broad phase drops
 * the pair, so the number of slots in use never exceeds the number of pairs, and the
 * frame loop reserves that many before it starts (no allocation inside the loop). */
#include <string.h>

#include "lib/world.h"

int col_pair_cache_reserve(col_world *w, int count)
{
    if (count <= w->slot_cap) return 0;
    long long want = w->slot_cap > 0 ? w->slot_cap : 256;
    while (want < count) want *= 2;
    if (want > 0x7fffffff) return -1;
    size_t n = (size_t)want;
    unsigned char *slots = col_alloc_bytes(&w->alloc, n * w->slot_stride);
    uint32_t *fl = col_alloc_bytes(&w->alloc, n * sizeof(uint32_t));
    if (slots == NULL || fl == NULL) {
        col_free_bytes(&w->alloc, slots, n * w->slot_stride);
        col_free_bytes(&w->alloc, fl, n * sizeof(uint32_t));
        return -1;
    }
    if (w->slot_cap > 0) {
        memcpy(slots, w->slots, (size_t)w->slot_high * w->slot_stride);
        memcpy(fl, w->slot_free, (size_t)w->slot_free_count * sizeof(uint32_t));
    }
    col_free_bytes(&w->alloc, w->slots, (size_t)w->slot_cap * w->slot_stride);
    col_free_bytes(&w->alloc, w->slot_free, (size_t)w->slot_cap * sizeof(uint32_t));
    w->slots = slots;
    w->slot_free = fl;
    w->slot_cap = (int)n;
    return 0;
}

uint32_t col_pair_cache_acquire(col_world *w)
{
    uint32_t s = w->slot_free_count > 0 ? w->slot_free[--w->slot_free_count] : (uint32_t)w->slot_high++;
    col_pair_slot *h = col_pair_cache_slot(w, s);
    h->tested_frame = 0;
    h->colliding = 0;
    h->asleep = 0;
    h->wake_frame = 0;
    h->seen_frame = 0;
    return s;
}

void *col_pair_cache_backend_data(const col_world *w, uint32_t slot)
{
    size_t header = (sizeof(col_pair_slot) + 15) & ~(size_t)15;
    return w->slots + (size_t)slot * w->slot_stride + header;
}

void col_pair_cache_release(col_world *w, uint32_t slot)
{
    w->slot_free[w->slot_free_count++] = slot;
}

void col_pair_cache_destroy(col_world *w)
{
    col_free_bytes(&w->alloc, w->slots, (size_t)w->slot_cap * w->slot_stride);
    col_free_bytes(&w->alloc, w->slot_free, (size_t)w->slot_cap * sizeof(uint32_t));
    w->slots = NULL;
    w->slot_free = NULL;
    w->slot_cap = w->slot_high = w->slot_free_count = 0;
}
