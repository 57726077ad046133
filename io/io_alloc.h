/* SPDX-License-Identifier: MIT */
/* The caller's allocator hooks for colibri-io's own arrays (include/colibri/base.h: a
 * zero-filled col_allocator, or a NULL one, means malloc/free). colibri-io uses only the
 * public API, so it cannot share lib/core/alloc.c. */
#ifndef COLIBRI_IO_IO_ALLOC_H
#define COLIBRI_IO_IO_ALLOC_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "colibri/base.h"

/* n items of size bytes, or NULL (also when n * size overflows). */
static inline void *col_io_alloc(const col_allocator *a, size_t n, size_t size)
{
    if (n == 0) n = 1;
    if (n > SIZE_MAX / size) return NULL;
    if (a != NULL && a->alloc != NULL) return a->alloc(n * size, a->user);
    return malloc(n * size);
}

/* Frees what col_io_alloc(a, n, size) gave (NULL is ignored). */
static inline void col_io_free(const col_allocator *a, void *p, size_t n, size_t size)
{
    if (p == NULL) return;
    if (n == 0) n = 1;
    if (a != NULL && a->free != NULL) {
        a->free(p, n * size, a->user);
    } else {
        free(p);
    }
}

#endif
