/* SPDX-License-Identifier: MIT */
/* FNV-1a over bytes: the fingerprints of col_world_hash and of a geometry. */
#ifndef COLIBRI_LIB_CORE_FNV_H
#define COLIBRI_LIB_CORE_FNV_H

#include <stddef.h>
#include <stdint.h>

#define COL_FNV_OFFSET 14695981039346656037ULL

/* h folded with the n bytes at data (start from COL_FNV_OFFSET). */
static inline uint64_t col_fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    return h;
}

#endif
