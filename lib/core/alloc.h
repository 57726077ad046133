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

/* Grows *data (elements of elem bytes, capacity *cap) to hold at least need elements,
 * keeping the first *cap elements; doubles so growth is amortised. Returns 0 on success,
 * -1 on allocation failure or overflow (then *data and *cap are unchanged). */
int col_array_reserve(col_alloc *a, void **data, int *cap, int need, size_t elem);
/* Frees an array made by col_array_reserve and zeroes *data and *cap. */
void col_array_free(col_alloc *a, void **data, int *cap, size_t elem);

#endif
