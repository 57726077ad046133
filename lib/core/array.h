/* SPDX-License-Identifier: MIT */
/* Typed growable arrays on the world's allocator, in the manner of Box2D v3's
 * b2Array: COL_ARRAY_DEFINE(name, T) declares `name` (T *data; int count, cap) with
 *   name_reserve(alloc, arr, need)  capacity >= need, the first `cap` elements kept;
 *                                   0, or -1 on allocation failure or overflow (then
 *                                   the array is unchanged);
 *   name_push(alloc, arr, value)    appends (growing as reserve does); 0 or -1;
 *   name_free(alloc, arr)           frees and zeroes.
 * Growth doubles from 16, so pushes are amortised O(1); nothing shrinks, so an array
 * that has reached its size allocates no more (the warmed-up frame allocates nothing).
 * Capacity is never world state: a failed call may leave another array grown. */
#ifndef COLIBRI_LIB_CORE_ARRAY_H
#define COLIBRI_LIB_CORE_ARRAY_H

#include <stddef.h>
#include <stdint.h>

#include "lib/core/alloc.h"

/* A new block for at least need elements of elem bytes (capacity doubled from cap, at
 * least 16) holding the first keep elements of data, which is freed; *new_cap gets the
 * capacity. NULL on failure or overflow, data then untouched. need > cap >= keep >= 0. */
void *col_array_grow(col_alloc *a, void *data, int cap, int keep, int need, size_t elem, int *new_cap);

#define COL_ARRAY_DEFINE(NAME, T)                                                                \
    typedef struct NAME {                                                                      \
        T *data;                                                                               \
        int count, cap;                                                                        \
    } NAME;                                                                                    \
    static inline int NAME##_reserve(col_alloc *a, NAME *arr, int need)                        \
    {                                                                                          \
        if (need <= arr->cap) return 0;                                                        \
        int cap;                                                                               \
        T *p = (T *)col_array_grow(a, arr->data, arr->cap, arr->cap, need, sizeof(T), &cap);  \
        if (p == NULL) return -1;                                                              \
        arr->data = p;                                                                         \
        arr->cap = cap;                                                                        \
        return 0;                                                                              \
    }                                                                                          \
    static inline int NAME##_push(col_alloc *a, NAME *arr, T value)                            \
    {                                                                                          \
        if (arr->count == arr->cap && NAME##_reserve(a, arr, arr->count + 1) != 0) return -1; \
        arr->data[arr->count++] = value;                                                       \
        return 0;                                                                              \
    }                                                                                          \
    static inline void NAME##_free(col_alloc *a, NAME *arr)                                    \
    {                                                                                          \
        col_free_bytes(a, arr->data, (size_t)arr->cap * sizeof(T));                            \
        arr->data = NULL;                                                                      \
        arr->count = arr->cap = 0;                                                             \
    }

/* The plain ones every floor uses. */
COL_ARRAY_DEFINE(col_int_array, int)
COL_ARRAY_DEFINE(col_u8_array, uint8_t)
COL_ARRAY_DEFINE(col_u32_array, uint32_t)
COL_ARRAY_DEFINE(col_u64_array, uint64_t)

#endif
