/* SPDX-License-Identifier: MIT */
/* Per-pair enable/disable: a sorted array of the disabled pairs' slot keys. Changes
 * are rare (app calls), lookups happen in the frame loop only for bodies that have a
 * disabled pair at all (col_body_rec.disabled_count), so a binary search is enough. */
#include "lib/pair_filter.h"

#include <string.h>

#include "lib/world.h"

static uint64_t key_of(uint32_t sa, uint32_t sb)
{
    uint32_t lo = sa < sb ? sa : sb, hi = sa < sb ? sb : sa;
    return (uint64_t)lo << 32 | hi;
}

/* Index of the first key >= k. */
static int lower_bound(const col_world *w, uint64_t k)
{
    int lo = 0, hi = w->disabled.keys.count;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (w->disabled.keys.data[mid] < k) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

bool col_pair_filter_is_disabled(const col_world *w, uint32_t sa, uint32_t sb)
{
    if (w->bodies[sa].disabled_count == 0 || w->bodies[sb].disabled_count == 0) return false;
    uint64_t k = key_of(sa, sb);
    int i = lower_bound(w, k);
    return i < w->disabled.keys.count && w->disabled.keys.data[i] == k;
}

static col_status check_pair(const col_world *world, col_body_id a, col_body_id b, const char *what)
{
    col_status st = col_world_check_body(world, a, what);
    if (st == COL_OK) st = col_world_check_body(world, b, what);
    if (st == COL_OK && a.index1 == b.index1)
        st = col_world_fail(world, COL_ERR_SAME_BODY, "%s: both ids name body %u", what, a.index1);
    return st;
}

col_status col_pair_set_enabled(col_world *world, col_body_id a, col_body_id b, bool enabled)
{
    if (world == NULL) return COL_ERR_INVALID_ARGUMENT;
    col_world_begin_call(world);
    col_status st = check_pair(world, a, b, "col_pair_set_enabled");
    if (st != COL_OK) return st;
    uint32_t sa = a.index1 - 1, sb = b.index1 - 1;
    uint64_t k = key_of(sa, sb);
    int i = lower_bound(world, k);
    bool present = i < world->disabled.keys.count && world->disabled.keys.data[i] == k;
    if (enabled == !present) return COL_OK; /* already as asked */
    if (enabled) {
        memmove(world->disabled.keys.data + i, world->disabled.keys.data + i + 1, (size_t)(world->disabled.keys.count - i - 1) * sizeof(uint64_t));
        world->disabled.keys.count--;
        world->bodies[sa].disabled_count--;
        world->bodies[sb].disabled_count--;
        return COL_OK;
    }
    if (col_u64_array_reserve(&world->alloc, &world->disabled.keys, world->disabled.keys.count + 1) != 0)
        return col_world_fail(world, COL_ERR_OUT_OF_MEMORY, "col_pair_set_enabled: out of memory");
    memmove(world->disabled.keys.data + i + 1, world->disabled.keys.data + i, (size_t)(world->disabled.keys.count - i) * sizeof(uint64_t));
    world->disabled.keys.data[i] = k;
    world->disabled.keys.count++;
    world->bodies[sa].disabled_count++;
    world->bodies[sb].disabled_count++;
    return COL_OK;
}

bool col_pair_is_enabled(const col_world *world, col_body_id a, col_body_id b)
{
    if (world == NULL || !col_body_is_valid(world, a) || !col_body_is_valid(world, b) || a.index1 == b.index1) return false;
    return !col_pair_filter_is_disabled(world, a.index1 - 1, b.index1 - 1);
}

void col_pair_filter_forget_body(col_world *w, uint32_t slot)
{
    int k = 0;
    for (int i = 0; i < w->disabled.keys.count; i++) {
        uint32_t lo = (uint32_t)(w->disabled.keys.data[i] >> 32), hi = (uint32_t)w->disabled.keys.data[i];
        if (lo == slot || hi == slot) {
            uint32_t other = lo == slot ? hi : lo;
            w->bodies[other].disabled_count--;
            continue;
        }
        w->disabled.keys.data[k++] = w->disabled.keys.data[i];
    }
    w->disabled.keys.count = k;
    w->bodies[slot].disabled_count = 0;
}

void col_pair_filter_destroy(col_pair_filter *f, col_alloc *a) { col_u64_array_free(a, &f->keys); }
