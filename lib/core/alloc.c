/* SPDX-License-Identifier: MIT */
#include "lib/core/alloc.h"

#include <stdlib.h>
#include <string.h>

void col_alloc_init(col_alloc *a, const col_allocator *hooks)
{
    memset(a, 0, sizeof *a);
    if (hooks != NULL && hooks->alloc != NULL && hooks->free != NULL) a->hooks = *hooks;
}

void *col_alloc_bytes(col_alloc *a, size_t size)
{
    if (size == 0) return NULL;
    a->calls++;
    void *p = a->hooks.alloc != NULL ? a->hooks.alloc(size, a->hooks.user) : malloc(size);
    if (p != NULL) a->bytes += size;
    return p;
}

void *col_alloc_zeroed(col_alloc *a, size_t n, size_t size)
{
    if (size != 0 && n > SIZE_MAX / size) return NULL;
    void *p = col_alloc_bytes(a, n * size);
    if (p != NULL) memset(p, 0, n * size);
    return p;
}

void col_free_bytes(col_alloc *a, void *ptr, size_t size)
{
    if (ptr == NULL) return;
    a->calls++;
    a->bytes -= size;
    if (a->hooks.free != NULL) a->hooks.free(ptr, size, a->hooks.user);
    else free(ptr);
}

void *col_array_grow(col_alloc *a, void *data, int cap, int keep, int need, size_t elem, int *new_cap)
{
    if (need < 0 || cap < 0 || keep < 0 || keep > cap) return NULL;
    long long want = cap > 0 ? (long long)cap : 16;
    while (want < need) want *= 2;
    if (want > 0x7fffffffLL) want = 0x7fffffffLL;
    if (want < need || (unsigned long long)want > SIZE_MAX / elem) return NULL;
    void *p = col_alloc_bytes(a, (size_t)want * elem);
    if (p == NULL) return NULL;
    if (data != NULL) {
        if (keep > 0) memcpy(p, data, (size_t)keep * elem);
        col_free_bytes(a, data, (size_t)cap * elem);
    }
    *new_cap = (int)want;
    return p;
}
