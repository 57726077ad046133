/* SPDX-License-Identifier: MIT */
/* The one include of <uthash.h> (docs/architecture.md, "Floors"), wired to the world allocator.
 *
 * The important parts:
 * - Allocator: uthash's macros take no context pointer, so uthash_malloc/uthash_free
 *   name a variable that must be in scope wherever a HASH_ macro that can allocate or
 *   free is expanded (HASH_ADD*, HASH_DELETE/HASH_DEL, HASH_CLEAR, HASH_REPLACE*):
 *
 *       col_alloc *col_hash_alloc_ = set->alloc;   (the allocator of that table)
 *       HASH_ADD_BYHASHVALUE(hh, set->head, key, sizeof(uint64_t), hv, entry);
 *
 *   A missing variable is a compile error, never a silent fall-back to malloc. The
 *   variable must be the allocator the table was made with: uthash_free passes the size
 *   back to col_free_bytes, which keeps the world's byte counter exact.
 * - Out of memory never exits: HASH_NONFATAL_OOM is 1, so a failed HASH_ADD leaves the
 *   table as it was and sets the element's hh.tbl to NULL, which the caller must test
 *   (uthash_nonfatal_oom is a no-op; the NULL is the signal). The default would
 *   exit(-1) from inside the library.
 * - Order: iterate only along the application-order list (HASH_ITER: insertion order),
 *   never over buckets, whose order depends on the hash and table size. Results then do
 *   not depend on hashing details (docs/architecture.md, "Determinism and memory").
 * - Growth under our control: col_hash_reserve_buckets grows the bucket array ahead of
 *   time; a table whose hh.tbl->noexpand is 1 never grows by itself, so adds into it
 *   never allocate (broadphase/pair_set.c relies on this for its zero-allocation frames).
 * - uthash frees its table when the last element is deleted (and makes it again on the
 *   next add, with 32 buckets). A user that must not allocate after warm-up keeps one
 *   permanent sentinel element in the table (see pair_set.c).
 * - Limits: bucket counts are unsigned and powers of two; keys are compared bytewise. */
#ifndef COLIBRI_LIB_CORE_HASH_H
#define COLIBRI_LIB_CORE_HASH_H

#include <stdint.h>

#include "lib/core/alloc.h"

#define uthash_malloc(sz) col_alloc_bytes(col_hash_alloc_, (sz))
#define uthash_free(ptr, sz) col_free_bytes(col_hash_alloc_, (ptr), (sz))
#define HASH_NONFATAL_OOM 1
#define uthash_nonfatal_oom(obj) ((void)(obj))

#include <uthash.h>

/* A 32-bit hash of a 64-bit key for HASH_ADD_BYHASHVALUE / HASH_FIND_BYHASHVALUE:
 * the finaliser of MurmurHash3 (fmix64), whose avalanche makes the low bits that pick
 * the bucket depend on every key bit. Cheaper than uthash's default Jenkins hash over
 * 8 bytes, and defined here so the table's hash function stays local to its users. */
static inline unsigned col_hash_u64(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return (unsigned)(uint32_t)k;
}

/* Doubles the bucket array of tbl until it has at least min_buckets buckets (uthash's
 * own expansion step, so chains are redistributed exactly as uthash would). Returns 0,
 * or -1 on allocation failure (the table is then unchanged, perhaps already grown by
 * some doublings, and still valid). col_hash_alloc_ is the table's allocator. */
static inline int col_hash_reserve_buckets(col_alloc *col_hash_alloc_, UT_hash_table *tbl,
                                           unsigned min_buckets)
{
    while (tbl->num_buckets < min_buckets) {
        int oomed = 0;
        unsigned noexpand = tbl->noexpand;
        HASH_EXPAND_BUCKETS(unused_hh, tbl, oomed);
        /* HASH_EXPAND_BUCKETS may set noexpand when it judges the hash poor; the caller's
         * choice of who grows the table wins. */
        tbl->noexpand = noexpand;
        if (oomed) return -1;
    }
    return 0;
}

#endif
