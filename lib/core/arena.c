/* SPDX-License-Identifier: MIT */
#include "lib/core/arena.h"

#include <assert.h>
#include <stdint.h>

#define ARENA_ALIGN 64

static size_t arena_round(size_t n) { return (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1); }

int col_arena_reserve(col_alloc *a, col_arena *ar, const size_t *sizes, int n)
{
    size_t total = 0;
    for (int k = 0; k < n; k++) {
        size_t s = arena_round(sizes[k]);
        if (s < sizes[k] || total > SIZE_MAX - s) return -1;
        total += s;
    }
    ar->used = 0;
    if (total <= ar->cap) return 0;
    /* Grow by half again over the need, so that a slowly growing frame does not
     * reallocate every time. */
    size_t want = total + total / 2;
    if (want < total || want > SIZE_MAX - ARENA_ALIGN) want = total;
    void *block = col_alloc_bytes(a, want + ARENA_ALIGN);
    if (block == NULL) return -1;
    col_arena_free(a, ar);
    ar->block = block;
    ar->base = (unsigned char *)block + (ARENA_ALIGN - (uintptr_t)block % ARENA_ALIGN) % ARENA_ALIGN;
    ar->cap = want;
    ar->used = 0;
    return 0;
}

void *col_arena_take(col_arena *ar, size_t bytes)
{
    /* Nothing reserved yet (an empty world's first frames): even base + 0 would be
     * undefined on a null base (C11 6.5.6p8; issue 13, finding 4). */
    if (ar->base == NULL) return NULL;
    size_t s = arena_round(bytes);
    assert(ar->used + s <= ar->cap); /* reserved by col_arena_reserve */
    void *p = ar->base + ar->used;
    ar->used += s;
    return p;
}

void col_arena_free(col_alloc *a, col_arena *ar)
{
    if (ar->block != NULL) col_free_bytes(a, ar->block, ar->cap + ARENA_ALIGN);
    ar->block = NULL;
    ar->base = NULL;
    ar->cap = ar->used = 0;
}
