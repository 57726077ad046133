/* SPDX-License-Identifier: MIT */
/* Caller-owned query scratch (lib/query_scratch.h, query.h). */
#include "lib/query_scratch.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void col_query_scratch_init(col_query_scratch *s, const col_allocator *hooks)
{
    memset(s, 0, sizeof *s);
    col_alloc_init(&s->alloc, hooks);
}

void col_query_scratch_release(col_query_scratch *s)
{
    col_free_bytes(&s->alloc, s->np.mem, s->np.size);
    s->np.mem = NULL;
    s->np.size = 0;
}

col_status col_query_scratch_reserve(col_query_scratch *s, size_t bytes)
{
    if (bytes <= s->np.size) return COL_OK;
    size_t want = (bytes + 63) & ~(size_t)63;
    void *mem = col_alloc_bytes(&s->alloc, want);
    if (mem == NULL) return COL_ERR_OUT_OF_MEMORY;
    col_free_bytes(&s->alloc, s->np.mem, s->np.size);
    s->np.mem = mem;
    s->np.size = want;
    return COL_OK;
}

col_status col_query_scratch_fail(col_query_scratch *s, col_status st, const char *fmt, ...)
{
    if (s == NULL) return st;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->message, sizeof s->message, fmt, ap);
    va_end(ap);
    return st;
}

col_status col_query_scratch_create(const col_allocator *allocator, col_query_scratch **out)
{
    if (out == NULL) return COL_ERR_INVALID_ARGUMENT;
    *out = NULL;
    /* Both hooks or neither, as col_world_create and the geometry builders ask. */
    if (allocator != NULL && (allocator->alloc == NULL) != (allocator->free == NULL)) return COL_ERR_INVALID_ARGUMENT;
    col_alloc a;
    col_alloc_init(&a, allocator);
    col_query_scratch *s = col_alloc_bytes(&a, sizeof *s);
    *out = s;
    if (s == NULL) return COL_ERR_OUT_OF_MEMORY;
    col_query_scratch_init(s, allocator);
    return COL_OK;
}

void col_query_scratch_destroy(col_query_scratch *s)
{
    if (s == NULL) return;
    col_query_scratch_release(s);
    col_alloc a = s->alloc;
    col_free_bytes(&a, s, sizeof *s);
}

const char *col_query_scratch_last_error(const col_query_scratch *s)
{
    return s != NULL ? s->message : "";
}
