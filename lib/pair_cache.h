/* SPDX-License-Identifier: MIT */
/* Per-pair narrow-phase slots (pair_cache.c): a header (the last answer, the frame it
 * was given, the sleep state) then the backend's coherence cache, in one flat array with
 * a free list. The frame reserves a slot for every broad-phase pair before its pair loop,
 * so acquiring one there never allocates. */
#ifndef COLIBRI_LIB_PAIR_CACHE_H
#define COLIBRI_LIB_PAIR_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "lib/core/alloc.h"
#include "narrowphase/backend.h"

/* Header of a per-pair cache slot; the backend's cache follows at COL_PAIR_SLOT_HEADER. */
typedef struct col_pair_slot {
    uint64_t tested_frame; /* frame of the last narrow-phase answer, 0: never */
    uint64_t wake_frame;   /* when asleep: the frame it is due again (its key in the sleep wheel) */
    uint64_t seen_frame;   /* last frame it was a candidate (its tight boxes overlapped) */
    uint8_t colliding;     /* that answer */
    uint8_t asleep;        /* certified separated until wake_frame: not tested before */
    uint8_t estimated;     /* the time-critical mode's answer at tested_frame: 1 estimated,
                              2 exact, 0 not tested in that mode (docs/adb.md) */
    float probability;     /* its probability (the header stays 32 bytes) */
} col_pair_slot;

#define COL_PAIR_SLOT_HEADER ((sizeof(col_pair_slot) + 15) & ~(size_t)15)

typedef struct col_pair_cache {
    unsigned char *slots; /* cap slots of stride bytes */
    uint32_t *free_slots; /* a stack of free_count given-back slots (capacity cap) */
    size_t stride;
    int cap, high, free_count; /* high: slots ever handed out */
} col_pair_cache;

/* An empty cache for a backend whose per-pair cache has cache_size bytes. */
void col_pair_cache_init(col_pair_cache *pc, size_t cache_size);
/* Room for count slots in use at once; 0, or -1 on allocation failure (nothing changed). */
int col_pair_cache_reserve(col_pair_cache *pc, col_alloc *a, int count);
/* A slot with a cleared header (the caller initialises the backend's part); needs room. */
uint32_t col_pair_cache_acquire(col_pair_cache *pc);
/* Gives slot back (backend caches hold plain values: nothing to release). */
void col_pair_cache_release(col_pair_cache *pc, uint32_t slot);
void col_pair_cache_destroy(col_pair_cache *pc, col_alloc *a);

static inline col_pair_slot *col_pair_cache_slot(const col_pair_cache *pc, uint32_t slot)
{
    return (col_pair_slot *)(void *)(pc->slots + (size_t)slot * pc->stride);
}

static inline void *col_pair_cache_backend_data(const col_pair_cache *pc, uint32_t slot)
{
    return pc->slots + (size_t)slot * pc->stride + COL_PAIR_SLOT_HEADER;
}

#endif
