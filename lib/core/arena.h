/* SPDX-License-Identifier: MIT */
/* A frame arena: one block from which a frame takes its scratch arrays, all reserved at
 * once (a frame either gets every array it needs or fails before it changes anything)
 * and all dropped together at the next reservation. It grows, never shrinks, so a
 * warmed-up world's frames allocate nothing.
 *
 *   col_arena_reserve(alloc, ar, sizes, n)  makes room for n arrays of the given byte
 *                                           sizes (each rounded up to 64 bytes: no two
 *                                           arrays share a cache line, so workers writing
 *                                           neighbouring arrays do not false-share);
 *                                           0, or -1 on allocation failure (then the
 *                                           arena is unchanged);
 *   col_arena_take(ar, bytes)               the next array, in the order reserved
 *                                           (NULL while nothing was ever reserved);
 *   col_arena_free(alloc, ar)               frees the block.
 * The contents do not survive a reservation. */
#ifndef COLIBRI_LIB_CORE_ARENA_H
#define COLIBRI_LIB_CORE_ARENA_H

#include <stddef.h>

#include "lib/core/alloc.h"

typedef struct col_arena {
    unsigned char *base; /* 64-byte aligned start within block */
    void *block;         /* as allocated */
    size_t cap;          /* usable bytes from base */
    size_t used;
} col_arena;

int col_arena_reserve(col_alloc *a, col_arena *ar, const size_t *sizes, int n);
void *col_arena_take(col_arena *ar, size_t bytes);
void col_arena_free(col_alloc *a, col_arena *ar);

#endif
