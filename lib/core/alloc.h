/* SPDX-License-Identifier: MIT */
/* The world's allocator: the app's hooks (or malloc/free) plus counters, so tests can
 * prove that a warmed-up frame allocates nothing and can fail the Nth allocation. */
#ifndef COLIBRI_LIB_CORE_ALLOC_H
#define COLIBRI_LIB_CORE_ALLOC_H

#include <stddef.h>
#include <stdint.h>

#include "colibri/base.h"

typedef struct col_alloc {
    col_allocator hooks;  /* alloc == NULL: malloc/free */
    uint64_t calls;       /* alloc + free calls so far */
    uint64_t bytes;       /* bytes currently allocated */
} col_alloc;

void col_alloc_init(col_alloc *a, const col_allocator *hooks);
/* NULL on failure (or for size 0). Memory is not zeroed. */
void *col_alloc_bytes(col_alloc *a, size_t size);
/* Zeroed memory, NULL on failure or overflow of n * size. */
void *col_alloc_zeroed(col_alloc *a, size_t n, size_t size);
/* size must be what was allocated; NULL ptr is ignored. */
void col_free_bytes(col_alloc *a, void *ptr, size_t size);

/* Typed arrays on this allocator: lib/core/array.h; a frame's scratch: lib/core/arena.h. */

#endif
