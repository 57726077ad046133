/* SPDX-License-Identifier: MIT */
/* Broad-phase pair set: uthash (through lib/core/hash.h) from the 64-bit key
 * (min << 32 | max) to an index into a dense col_bp_pair array, removed by swap-remove.
 *
 * Why this shape: the frame loop walks the dense array, so its order is the order of
 * the adds and removes, never the hash's bucket order (docs/architecture.md, "Determinism and memory"); SAP looks a
 * pair up at every min/max swap (Bullet's btHashedOverlappingPairCache plays the same
 * role for btAxisSweep3), so find/add/remove must be O(1).
 *
 * Zero allocation after warm-up (docs/architecture.md, "Determinism and memory"):
 * - hash entries come from a pool of chunks with a free list; chunks are never freed
 *   before destroy, so entries never move (uthash keeps a pointer to each key);
 * - the dense arrays and the pool only grow;
 * - the table's automatic expansion is switched off (noexpand) and we double the bucket
 *   array ourselves whenever the number of pairs would exceed the number of buckets
 *   (load factor <= 1, chains stay short with the fmix64 hash), so the only allocations
 *   happen when the set outgrows its previous peak, or in col_pair_set_reserve;
 * - uthash frees its table when the last element leaves: a permanent sentinel entry
 *   (key UINT64_MAX = (UINT32_MAX, UINT32_MAX), never a real pair since a < b) keeps
 *   the table alive from create to destroy, so emptying and refilling the set does not
 *   allocate either. */
#include "broadphase/pair_set.h"

#include <assert.h>
#include <stddef.h>

#include "lib/core/alloc.h"
#include "lib/core/array.h"
#include "lib/core/hash.h"

#define COL_PAIR_SENTINEL_KEY UINT64_MAX
#define COL_PAIR_MIN_CHUNK 64

typedef struct col_pair_entry {
    uint64_t key;
    union {
        int index;                        /* in the table: slot in the dense array */
        struct col_pair_entry *next_free; /* in the pool's free list */
    } u;
    UT_hash_handle hh;
} col_pair_entry;

typedef struct col_pair_chunk {
    struct col_pair_chunk *next;
    size_t bytes;
    col_pair_entry entries[];
} col_pair_chunk;

COL_ARRAY_DEFINE(col_bp_pair_array, col_bp_pair)
COL_ARRAY_DEFINE(col_entry_ptr_array, col_pair_entry *)

struct col_pair_set {
    col_alloc *alloc;
    col_pair_entry *head; /* uthash head; always &sentinel (added first, never deleted) */
    col_pair_entry sentinel;
    col_bp_pair_array pairs;   /* dense records (count: count) */
    col_entry_ptr_array entries; /* entries.data[i] is the hash entry of pairs.data[i] */
    int count;
    col_pair_entry *free_list;
    col_pair_chunk *chunks;
    int pool_size; /* entries allocated in all chunks */
};

static uint64_t pair_key(uint32_t a, uint32_t b)
{
    uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
    return (uint64_t)lo << 32 | hi;
}

static col_pair_entry *find_entry(const col_pair_set *set, uint64_t key)
{
    col_pair_entry *out;
    HASH_FIND_BYHASHVALUE(hh, set->head, &key, sizeof key, col_hash_u64(key), out);
    return out;
}

/* Adds a chunk of n entries to the free list. */
static int pool_grow(col_pair_set *set, int n)
{
    size_t bytes = sizeof(col_pair_chunk) + (size_t)n * sizeof(col_pair_entry);
    col_pair_chunk *c = col_alloc_bytes(set->alloc, bytes);
    if (c == NULL) return -1;
    c->bytes = bytes;
    c->next = set->chunks;
    set->chunks = c;
    /* Pushed in reverse so entries are handed out in address order. */
    for (int i = n - 1; i >= 0; i--) {
        c->entries[i].u.next_free = set->free_list;
        set->free_list = &c->entries[i];
    }
    set->pool_size += n;
    return 0;
}

/* Room for need records: dense arrays, pool entries and buckets. On failure the set's
 * contents are unchanged (only capacities may have grown). */
static int ensure_capacity(col_pair_set *set, int need)
{
    if (col_bp_pair_array_reserve(set->alloc, &set->pairs, need) != 0 ||
        col_entry_ptr_array_reserve(set->alloc, &set->entries, need) != 0)
        return -1;
    if (set->pool_size < need) {
        /* Chunks at least double the pool, so growth is amortised O(1) per add. */
        int grow = need - set->pool_size;
        if (grow < set->pool_size) grow = set->pool_size;
        if (grow < COL_PAIR_MIN_CHUNK) grow = COL_PAIR_MIN_CHUNK;
        if (pool_grow(set, grow) != 0 && pool_grow(set, need - set->pool_size) != 0) return -1;
    }
    /* +1: the sentinel is in the table too. */
    return col_hash_reserve_buckets(set->alloc, set->head->hh.tbl, (unsigned)need + 1u);
}

col_pair_set *col_pair_set_create(struct col_alloc *alloc)
{
    col_alloc *col_hash_alloc_ = alloc;
    col_pair_set *set = col_alloc_zeroed(alloc, 1, sizeof *set);
    if (set == NULL) return NULL;
    set->alloc = alloc;
    set->sentinel.key = COL_PAIR_SENTINEL_KEY;
    set->sentinel.u.index = -1;
    col_pair_entry *s = &set->sentinel;
    HASH_ADD_BYHASHVALUE(hh, set->head, key, sizeof(uint64_t), col_hash_u64(s->key), s);
    if (s->hh.tbl == NULL) {
        col_free_bytes(alloc, set, sizeof *set);
        return NULL;
    }
    set->head->hh.tbl->noexpand = 1; /* we grow the buckets ourselves (ensure_capacity) */
    return set;
}

void col_pair_set_destroy(col_pair_set *set)
{
    if (set == NULL) return;
    col_alloc *col_hash_alloc_ = set->alloc;
    HASH_CLEAR(hh, set->head);
    while (set->chunks != NULL) {
        col_pair_chunk *c = set->chunks;
        set->chunks = c->next;
        col_free_bytes(set->alloc, c, c->bytes);
    }
    col_bp_pair_array_free(set->alloc, &set->pairs);
    col_entry_ptr_array_free(set->alloc, &set->entries);
    col_free_bytes(col_hash_alloc_, set, sizeof *set);
}

int col_pair_set_add(col_pair_set *set, uint32_t a, uint32_t b)
{
    assert(a != b);
    if (a == b) return -1; /* not a pair; the sentinel's key has a == b */
    col_alloc *col_hash_alloc_ = set->alloc;
    uint64_t key = pair_key(a, b);
    unsigned hv = col_hash_u64(key);
    col_pair_entry *e;
    HASH_FIND_BYHASHVALUE(hh, set->head, &key, sizeof key, hv, e);
    if (e != NULL) return 0;
    if (ensure_capacity(set, set->count + 1) != 0) return -1;

    e = set->free_list;
    set->free_list = e->u.next_free;
    e->key = key;
    e->u.index = set->count;
    /* Cannot fail: the table exists (sentinel) and never expands by itself. */
    HASH_ADD_BYHASHVALUE(hh, set->head, key, sizeof(uint64_t), hv, e);
    if (e->hh.tbl == NULL) {
        e->u.next_free = set->free_list;
        set->free_list = e;
        return -1;
    }
    col_bp_pair *r = &set->pairs.data[set->count];
    r->a = (uint32_t)(key >> 32);
    r->b = (uint32_t)key;
    r->user = COL_PAIR_NO_USER;
    r->mark = 0;
    set->entries.data[set->count] = e;
    set->count++;
    return 1;
}

void col_pair_set_remove_at(col_pair_set *set, int i)
{
    assert(i >= 0 && i < set->count);
    if (i < 0 || i >= set->count) return;
    col_alloc *col_hash_alloc_ = set->alloc;
    col_pair_entry *e = set->entries.data[i];
    HASH_DELETE(hh, set->head, e);
    e->u.next_free = set->free_list;
    set->free_list = e;
    int last = --set->count;
    if (i != last) {
        set->pairs.data[i] = set->pairs.data[last];
        set->entries.data[i] = set->entries.data[last];
        set->entries.data[i]->u.index = i;
    }
}

int col_pair_set_remove(col_pair_set *set, uint32_t a, uint32_t b, uint32_t *user)
{
    if (a == b) return 0;
    col_pair_entry *e = find_entry(set, pair_key(a, b));
    if (e == NULL) return 0;
    int i = e->u.index;
    if (user != NULL) *user = set->pairs.data[i].user;
    col_pair_set_remove_at(set, i);
    return 1;
}

void col_pair_set_prefetch(const col_pair_set *set, uint32_t a, uint32_t b, int level)
{
    const UT_hash_table *tbl = set->head->hh.tbl;
    const UT_hash_bucket *bkt = &tbl->buckets[col_hash_u64(pair_key(a, b)) & (tbl->num_buckets - 1u)];
    if (level == 0) __builtin_prefetch(bkt);
    else if (bkt->hh_head != NULL) __builtin_prefetch(bkt->hh_head);
}

col_bp_pair *col_pair_set_find(col_pair_set *set, uint32_t a, uint32_t b)
{
    if (a == b) return NULL;
    col_pair_entry *e = find_entry(set, pair_key(a, b));
    return e != NULL ? &set->pairs.data[e->u.index] : NULL;
}

col_bp_pair *col_pair_set_records(col_pair_set *set, int *count)
{
    if (count != NULL) *count = set->count;
    return set->pairs.data;
}

int col_pair_set_count(const col_pair_set *set) { return set->count; }

int col_pair_set_reserve(col_pair_set *set, int n)
{
    if (n < 0) return -1;
    return ensure_capacity(set, n);
}
