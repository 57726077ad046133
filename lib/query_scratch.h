/* SPDX-License-Identifier: MIT */
/* The caller-owned scratch of the world-free queries (query.h: col_query_scratch): an
 * allocator record of its own, the narrow phase's scratch block and the last message.
 * The world-bound queries use one on their stack, on the world's allocator hooks, so they
 * never write the world. */
#ifndef COLIBRI_LIB_QUERY_SCRATCH_H
#define COLIBRI_LIB_QUERY_SCRATCH_H

#include "colibri/query.h"
#include "lib/core/alloc.h"
#include "narrowphase/backend.h"

struct col_query_scratch {
    col_alloc alloc;
    col_np_scratch np;  /* 16-byte aligned block, grown on demand, never shrunk */
    char message[256];
};

/* A scratch on hooks (NULL: malloc/free) with nothing allocated yet. */
void col_query_scratch_init(col_query_scratch *s, const col_allocator *hooks);
/* Frees the block (the struct itself is the caller's). */
void col_query_scratch_release(col_query_scratch *s);
/* Grows the block to at least bytes. Errors: OUT_OF_MEMORY (the old block kept). */
col_status col_query_scratch_reserve(col_query_scratch *s, size_t bytes);
/* Records a message and returns st. */
col_status col_query_scratch_fail(col_query_scratch *s, col_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

#endif
