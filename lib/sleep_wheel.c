/* SPDX-License-Identifier: MIT */
/* The time-to-collision queue as a timing wheel (sleep_wheel.h; Lin's survey section 7.1,
 * I-COLLIDE, Mirtich's Impulse): COL_SLEEP_WHEEL_FRAMES lists, one per frame of the coming turn,
 * each a doubly-linked list threaded through per-id arrays, plus an overflow list.
 * Invariants: an entry queued at cursor c with key k goes to wheel list max(k, c) mod W if
 * k < c + W, else to the overflow; a wheel list is passed by the cursor only when empty,
 * so each holds one key (a key below the cursor counting as the cursor); every overflow key is at or after the start of the next turn
 * (a turn: W frames starting at a multiple of W), and when the cursor enters a turn the
 * overflow keys inside it move to the wheel. So the list at the cursor holds the
 * smallest key, and with the wheel lists empty nothing is due before the next turn. */
#include "lib/sleep_wheel.h"

#include <string.h>

#include "lib/core/alloc.h"

#define NIL UINT32_MAX
#define OVERFLOW COL_SLEEP_WHEEL_FRAMES
#define WMASK ((uint64_t)COL_SLEEP_WHEEL_FRAMES - 1)

static void unlink_id(col_sleep_wheel *h, uint32_t id)
{
    int l = h->list[id] - 1;
    uint32_t n = h->next[id], p = h->prev[id];
    if (p != NIL) h->next[p] = n;
    else h->head[l] = n;
    if (n != NIL) h->prev[n] = p;
    else h->tail[l] = p;
    h->list[id] = 0;
    h->count--;
    if (l != OVERFLOW) h->in_wheel--;
}

/* Appends id (its key already stored) to the tail of the list the invariant names. */
static void link_id(col_sleep_wheel *h, uint32_t id)
{
    uint64_t k = h->key[id] < h->cursor ? h->cursor : h->key[id];
    int l = k - h->cursor < (uint64_t)COL_SLEEP_WHEEL_FRAMES ? (int)(k & WMASK) : OVERFLOW;
    h->list[id] = (uint8_t)(l + 1);
    h->next[id] = NIL;
    h->prev[id] = h->tail[l];
    if (h->tail[l] != NIL) h->next[h->tail[l]] = id;
    else h->head[l] = id;
    h->tail[l] = id;
    h->count++;
    if (l != OVERFLOW) h->in_wheel++;
}

/* The cursor just entered a new turn: overflow keys within it move to the front of their
 * wheel lists, in overflow order. They were queued before anything already in those lists
 * (an entry goes straight to the wheel only when queued less than W frames ahead), so
 * every list stays in queueing order. */
static void new_turn(col_sleep_wheel *h)
{
    uint32_t id = h->tail[OVERFLOW];
    while (id != NIL) { /* bounded by the overflow length; walks backwards, prepending */
        uint32_t before = h->prev[id];
        if (h->key[id] < h->cursor + COL_SLEEP_WHEEL_FRAMES) {
            unlink_id(h, id);
            int l = (int)(h->key[id] & WMASK);
            h->list[id] = (uint8_t)(l + 1);
            h->prev[id] = NIL;
            h->next[id] = h->head[l];
            if (h->head[l] != NIL) h->prev[h->head[l]] = id;
            else h->tail[l] = id;
            h->head[l] = id;
            h->count++;
            h->in_wheel++;
        }
        id = before;
    }
}

void col_sleep_wheel_init(col_sleep_wheel *wheel)
{
    memset(wheel, 0, sizeof *wheel);
    for (int l = 0; l <= COL_SLEEP_WHEEL_FRAMES; l++) wheel->head[l] = wheel->tail[l] = NIL;
}

void col_sleep_wheel_destroy(col_sleep_wheel *wheel, col_alloc *alloc)
{
    size_t n = (size_t)wheel->cap;
    col_free_bytes(alloc, wheel->key, n * sizeof(uint64_t));
    col_free_bytes(alloc, wheel->next, n * sizeof(uint32_t));
    col_free_bytes(alloc, wheel->prev, n * sizeof(uint32_t));
    col_free_bytes(alloc, wheel->list, n);
    col_sleep_wheel_init(wheel);
}

int col_sleep_wheel_reserve(col_sleep_wheel *wheel, col_alloc *alloc, int id_count)
{
    if (id_count < 0) return -1;
    if (id_count <= wheel->cap) return 0;
    long long want = wheel->cap > 0 ? wheel->cap : 256;
    while (want < id_count) want *= 2;
    if (want > 0x7fffffffLL) want = 0x7fffffffLL;
    size_t n = (size_t)want, old = (size_t)wheel->cap;
    uint64_t *key = col_alloc_bytes(alloc, n * sizeof *key);
    uint32_t *next = col_alloc_bytes(alloc, n * sizeof *next);
    uint32_t *prev = col_alloc_bytes(alloc, n * sizeof *prev);
    uint8_t *list = col_alloc_bytes(alloc, n);
    if (key == NULL || next == NULL || prev == NULL || list == NULL) {
        col_free_bytes(alloc, key, n * sizeof *key);
        col_free_bytes(alloc, next, n * sizeof *next);
        col_free_bytes(alloc, prev, n * sizeof *prev);
        col_free_bytes(alloc, list, n);
        return -1;
    }
    if (old > 0) {
        memcpy(key, wheel->key, old * sizeof *key);
        memcpy(next, wheel->next, old * sizeof *next);
        memcpy(prev, wheel->prev, old * sizeof *prev);
        memcpy(list, wheel->list, old);
    }
    memset(list + old, 0, n - old);
    col_free_bytes(alloc, wheel->key, old * sizeof *key);
    col_free_bytes(alloc, wheel->next, old * sizeof *next);
    col_free_bytes(alloc, wheel->prev, old * sizeof *prev);
    col_free_bytes(alloc, wheel->list, old);
    wheel->key = key;
    wheel->next = next;
    wheel->prev = prev;
    wheel->list = list;
    wheel->cap = (int)n;
    return 0;
}

void col_sleep_wheel_set(col_sleep_wheel *wheel, uint32_t id, uint64_t key)
{
    if (wheel->list[id] != 0) unlink_id(wheel, id);
    wheel->key[id] = key;
    link_id(wheel, id);
}

bool col_sleep_wheel_remove(col_sleep_wheel *wheel, uint32_t id)
{
    if ((int64_t)id >= wheel->cap || wheel->list[id] == 0) return false;
    unlink_id(wheel, id);
    return true;
}

bool col_sleep_wheel_contains(const col_sleep_wheel *wheel, uint32_t id, uint64_t *key)
{
    if ((int64_t)id >= wheel->cap || wheel->list[id] == 0) return false;
    if (key != NULL) *key = wheel->key[id];
    return true;
}

bool col_sleep_wheel_pop_due(col_sleep_wheel *wheel, uint64_t now, uint32_t *id)
{
    /* Each turn of the loop pops, or moves the cursor forward: one frame while an entry
     * waits in the wheel (at most W frames before it is reached), or in one jump to the
     * turn of the first overflow key or to now + 1 when the wheel lists are empty. */
    while (wheel->cursor <= now) {
        uint32_t top = wheel->head[wheel->cursor & WMASK];
        if (top != NIL) {
            unlink_id(wheel, top);
            if (id != NULL) *id = top;
            return true;
        }
        if (wheel->in_wheel == 0) {
            /* Overflow keys are all at the next turn or later: nothing is due before the
             * turn of the smallest one, so the cursor jumps there (or just past now). */
            uint64_t first = UINT64_MAX;
            for (uint32_t o = wheel->head[OVERFLOW]; o != NIL; o = wheel->next[o])
                if (wheel->key[o] < first) first = wheel->key[o];
            uint64_t turn = first & ~WMASK;
            wheel->cursor = now < turn ? now + 1 : turn;
        } else {
            wheel->cursor++;
        }
        if ((wheel->cursor & WMASK) == 0) new_turn(wheel);
    }
    return false;
}
