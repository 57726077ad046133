/* SPDX-License-Identifier: MIT */
/* The time-to-collision queue (lib/sleep_wheel.c, a timing wheel; Lin's survey
 * section 7.1, I-COLLIDE, Mirtich's Impulse): pop order by key, ties in queueing order,
 * re-keys across the wheel and the overflow, removal, keys in the drained past, cursor
 * jumps, allocation-free operation after reserve, and a clean failure of reserve.
 * Oracle for the randomized test: a plain array of (key, queue sequence) per id; at each
 * drain the popped ids must be exactly the due ones, sorted by (effective key, sequence). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/sleep_wheel.h"
#include "lib/core/alloc.h"
#include "tests/test_util.h"

/* ---- counting allocator and random numbers (tests/test_util.h) ---- */

static void init_alloc(col_alloc *a, counting_alloc *c)
{
    *c = (counting_alloc){0};
    col_allocator hooks = counting_hooks(c);
    col_alloc_init(a, &hooks);
}

static uint32_t rng_below(uint32_t n) { return (uint32_t)(rng_next() % n); }

/* Drains everything due at now into out[] (at most max); returns how many. */
static int drain(col_sleep_wheel *h, uint64_t now, uint32_t *out, int max)
{
    int n = 0;
    uint32_t id;
    while (col_sleep_wheel_pop_due(h, now, &id)) {
        assert_true(n < max);
        out[n++] = id;
    }
    return n;
}

static void test_empty(void **state)
{
    (void)state;
    col_alloc a;
    counting_alloc c;
    init_alloc(&a, &c);
    col_sleep_wheel h;
    col_sleep_wheel_init(&h);
    uint32_t id = 7;
    assert_false(col_sleep_wheel_pop_due(&h, 0, &id));
    assert_false(col_sleep_wheel_pop_due(&h, 1000000, &id));
    assert_int_equal(id, 7);
    assert_false(col_sleep_wheel_contains(&h, 0, NULL));
    assert_false(col_sleep_wheel_remove(&h, 3));
    assert_int_equal(col_sleep_wheel_reserve(&h, &a, 10), 0);
    assert_false(col_sleep_wheel_contains(&h, 9, NULL));
    assert_false(col_sleep_wheel_remove(&h, 9));
    assert_false(col_sleep_wheel_remove(&h, (uint32_t)h.cap)); /* beyond the capacity */
    assert_int_equal(col_sleep_wheel_count(&h), 0);
    assert_int_equal(col_sleep_wheel_reserve(&h, &a, -1), -1);
    col_sleep_wheel_destroy(&h, &a);
    assert_int_equal(c.allocs, c.frees);
    assert_int_equal(a.bytes, 0);
}

/* Keys near, far (overflow) and very far pop in key order and never early. */
static void test_order_by_key(void **state)
{
    (void)state;
    col_alloc a;
    counting_alloc c;
    init_alloc(&a, &c);
    col_sleep_wheel h;
    col_sleep_wheel_init(&h);
    assert_int_equal(col_sleep_wheel_reserve(&h, &a, 16), 0);
    const uint64_t keys[10] = {5, 1, 64, 63, 65, 200, 129, 3, 1u << 24, 128};
    for (uint32_t i = 0; i < 10; i++) col_sleep_wheel_set(&h, i, keys[i]);
    assert_int_equal(col_sleep_wheel_count(&h), 10);
    uint64_t k = 0;
    assert_true(col_sleep_wheel_contains(&h, 8, &k));
    assert_int_equal(k, 1u << 24);
    uint32_t got[16];
    /* nothing is due at frame 0 */
    assert_int_equal(drain(&h, 0, got, 16), 0);
    const uint32_t order[10] = {1, 7, 0, 3, 2, 4, 9, 6, 5, 8};
    int next = 0;
    for (uint64_t now = 1; next < 10 && now < (1u << 25); now += now < 300 ? 1 : 4093) {
        int n = drain(&h, now, got, 16);
        for (int j = 0; j < n; j++) {
            assert_true(next < 10);
            assert_int_equal(got[j], order[next]);
            assert_true(keys[got[j]] <= now);
            next++;
        }
        /* everything still queued is later than now */
        for (uint32_t i = 0; i < 10; i++)
            if (col_sleep_wheel_contains(&h, i, &k)) assert_true(k > now);
    }
    assert_int_equal(next, 10);
    assert_int_equal(col_sleep_wheel_count(&h), 0);
    col_sleep_wheel_destroy(&h, &a);
}

/* Equal keys pop in queueing order, whether queued straight into the wheel or through the
 * overflow; a re-key with the same key queues anew (goes last). */
static void test_ties(void **state)
{
    (void)state;
    col_alloc a;
    counting_alloc c;
    init_alloc(&a, &c);
    col_sleep_wheel h;
    col_sleep_wheel_init(&h);
    assert_int_equal(col_sleep_wheel_reserve(&h, &a, 16), 0);
    uint32_t got[16];
    /* at cursor 0: 9 and 4 with key 100 go to the overflow */
    col_sleep_wheel_set(&h, 9, 100);
    col_sleep_wheel_set(&h, 4, 100);
    assert_int_equal(drain(&h, 50, got, 16), 0);
    /* at cursor 51: key 100 is within a wheel's reach: straight into the wheel */
    col_sleep_wheel_set(&h, 2, 100);
    col_sleep_wheel_set(&h, 11, 100);
    col_sleep_wheel_set(&h, 0, 100);
    col_sleep_wheel_set(&h, 11, 100); /* re-queued: now last */
    assert_int_equal(drain(&h, 99, got, 16), 0);
    assert_int_equal(drain(&h, 100, got, 16), 5);
    const uint32_t want[5] = {9, 4, 2, 0, 11};
    for (int j = 0; j < 5; j++) assert_int_equal(got[j], want[j]);
    col_sleep_wheel_destroy(&h, &a);
}

/* Re-keys move entries between wheel lists and the overflow both ways; removed entries
 * never pop, even if they were due. */
static void test_update_and_remove(void **state)
{
    (void)state;
    col_alloc a;
    counting_alloc c;
    init_alloc(&a, &c);
    col_sleep_wheel h;
    col_sleep_wheel_init(&h);
    assert_int_equal(col_sleep_wheel_reserve(&h, &a, 8), 0);
    uint32_t got[8];
    col_sleep_wheel_set(&h, 0, 10);
    col_sleep_wheel_set(&h, 1, 500);
    col_sleep_wheel_set(&h, 2, 20);
    col_sleep_wheel_set(&h, 3, 30);
    col_sleep_wheel_set(&h, 0, 700);  /* wheel -> overflow, later */
    col_sleep_wheel_set(&h, 1, 5);    /* overflow -> wheel, earlier */
    col_sleep_wheel_set(&h, 2, 19);   /* within the wheel */
    assert_true(col_sleep_wheel_remove(&h, 3));
    assert_false(col_sleep_wheel_remove(&h, 3));
    assert_false(col_sleep_wheel_contains(&h, 3, NULL));
    assert_int_equal(col_sleep_wheel_count(&h), 3);
    assert_int_equal(drain(&h, 4, got, 8), 0);
    assert_int_equal(drain(&h, 5, got, 8), 1);
    assert_int_equal(got[0], 1);
    assert_int_equal(drain(&h, 100, got, 8), 1);
    assert_int_equal(got[0], 2);
    /* a due entry removed before the drain does not pop */
    col_sleep_wheel_set(&h, 5, 150);
    col_sleep_wheel_set(&h, 6, 150);
    assert_true(col_sleep_wheel_remove(&h, 5));
    assert_int_equal(drain(&h, 699, got, 8), 1);
    assert_int_equal(got[0], 6);
    assert_int_equal(drain(&h, 700, got, 8), 1);
    assert_int_equal(got[0], 0);
    assert_int_equal(col_sleep_wheel_count(&h), 0);
    col_sleep_wheel_destroy(&h, &a);
}

/* A key in the drained past is due at the next drain, even for an earlier now; its key
 * reads back unchanged. A drain far ahead over an empty wheel jumps, and keeps overflow
 * entries that are not due. */
static void test_past_keys_and_jumps(void **state)
{
    (void)state;
    col_alloc a;
    counting_alloc c;
    init_alloc(&a, &c);
    col_sleep_wheel h;
    col_sleep_wheel_init(&h);
    assert_int_equal(col_sleep_wheel_reserve(&h, &a, 8), 0);
    uint32_t got[8];
    assert_int_equal(drain(&h, 1000, got, 8), 0); /* cursor 1001 */
    col_sleep_wheel_set(&h, 3, 7);
    uint64_t k = 0;
    assert_true(col_sleep_wheel_contains(&h, 3, &k));
    assert_int_equal(k, 7);
    assert_int_equal(drain(&h, 1001, got, 8), 1);
    assert_int_equal(got[0], 3);
    col_sleep_wheel_set(&h, 1, 5000000000ULL);
    col_sleep_wheel_set(&h, 2, 4000000000ULL);
    assert_int_equal(drain(&h, 3999999999ULL, got, 8), 0);
    assert_int_equal(col_sleep_wheel_count(&h), 2);
    assert_int_equal(drain(&h, 4000000000ULL, got, 8), 1);
    assert_int_equal(got[0], 2);
    assert_int_equal(drain(&h, 6000000000ULL, got, 8), 1);
    assert_int_equal(got[0], 1);
    col_sleep_wheel_destroy(&h, &a);
}

/* Random operations against the array oracle; keys up to a few turns ahead, some far,
 * some in the past; drains at random steps. */
static void test_random_vs_oracle(void **state)
{
    (void)state;
    rng_seed(0x70c4ea9ULL, __func__);
    enum { N = 300 };
    col_alloc a;
    counting_alloc c;
    init_alloc(&a, &c);
    col_sleep_wheel h;
    col_sleep_wheel_init(&h);
    assert_int_equal(col_sleep_wheel_reserve(&h, &a, N), 0);
    bool queued[N] = {false};
    uint64_t key[N], eff[N], seq[N], next_seq = 0, cursor = 0;
    uint32_t got[N], want[N];
    long popped_total = 0;
    for (int round = 0; round < 3000; round++) {
        int ops = (int)rng_below(40);
        for (int o = 0; o < ops; o++) {
            uint32_t id = rng_below(N);
            uint32_t r = rng_below(100);
            if (r < 70) {
                uint64_t k;
                uint32_t kind = rng_below(100);
                if (kind < 70) k = cursor + rng_below(2 * COL_SLEEP_WHEEL_FRAMES);
                else if (kind < 90) k = cursor + rng_below(5000);
                else if (kind < 95) k = cursor > 10 ? cursor - 1 - rng_below(10) : cursor;
                else k = cursor + (1u << 22) + rng_below(1000);
                col_sleep_wheel_set(&h, id, k);
                queued[id] = true;
                key[id] = k;
                eff[id] = k < cursor ? cursor : k;
                seq[id] = next_seq++;
            } else {
                assert_int_equal(col_sleep_wheel_remove(&h, id), queued[id]);
                queued[id] = false;
            }
        }
        int count = 0;
        for (int i = 0; i < N; i++) count += queued[i];
        assert_int_equal(col_sleep_wheel_count(&h), count);
        for (uint32_t i = 0; i < N; i++) {
            uint64_t k = 0;
            assert_int_equal(col_sleep_wheel_contains(&h, i, &k), queued[i]);
            if (queued[i]) assert_int_equal(k, key[i]);
        }
        uint64_t now = cursor + (rng_below(4) == 0 ? rng_below(300) : rng_below(3));
        /* oracle: due ids sorted by (effective key, sequence) */
        int nw = 0;
        for (uint32_t i = 0; i < N; i++)
            if (queued[i] && eff[i] <= now) want[nw++] = i;
        for (int x = 1; x < nw; x++) /* insertion sort, small n */
            for (int y = x; y > 0; y--) {
                uint32_t p = want[y - 1], q = want[y];
                if (eff[p] < eff[q] || (eff[p] == eff[q] && seq[p] < seq[q])) break;
                want[y - 1] = q;
                want[y] = p;
            }
        int ng = drain(&h, now, got, N);
        assert_int_equal(ng, nw);
        for (int j = 0; j < ng; j++) {
            assert_int_equal(got[j], want[j]);
            queued[got[j]] = false;
        }
        popped_total += ng;
        cursor = now + 1;
    }
    /* the generator's mix exercised the queue: a fair share of entries popped */
    assert_true(popped_total > 5000);
    col_sleep_wheel_destroy(&h, &a);
    assert_int_equal(c.allocs, c.frees);
}

/* After reserve, nothing allocates; a larger reserve keeps the entries; a failed reserve
 * changes nothing. */
static void test_allocation_free(void **state)
{
    (void)state;
    col_alloc a;
    counting_alloc c;
    init_alloc(&a, &c);
    col_sleep_wheel h;
    col_sleep_wheel_init(&h);
    assert_int_equal(col_sleep_wheel_reserve(&h, &a, 1000), 0);
    long before = c.allocs + c.frees;
    rng_seed(42, __func__);
    uint64_t now = 0;
    uint32_t got[1000];
    for (int round = 0; round < 2000; round++) {
        for (int o = 0; o < 50; o++) {
            uint32_t id = rng_below(1000);
            if (rng_below(4) == 0) col_sleep_wheel_remove(&h, id);
            else col_sleep_wheel_set(&h, id, now + 1 + rng_below(200));
        }
        now += 1 + rng_below(3);
        drain(&h, now, got, 1000);
    }
    assert_int_equal(c.allocs + c.frees, before);
    assert_int_equal(col_sleep_wheel_reserve(&h, &a, 1000), 0); /* no growth needed */
    assert_int_equal(c.allocs + c.frees, before);

    /* growth keeps what is queued */
    col_sleep_wheel_set(&h, 999, now + 10);
    col_sleep_wheel_set(&h, 5, now + 500);
    int count = col_sleep_wheel_count(&h);
    assert_int_equal(col_sleep_wheel_reserve(&h, &a, 5000), 0);
    assert_int_equal(col_sleep_wheel_count(&h), count);
    uint64_t k = 0;
    assert_true(col_sleep_wheel_contains(&h, 999, &k));
    assert_int_equal(k, now + 10);
    assert_false(col_sleep_wheel_contains(&h, 4999, NULL));
    col_sleep_wheel_set(&h, 4999, now + 1);
    int due = drain(&h, now + 1, got, 1000); /* 4999 was queued last for its frame */
    assert_true(due >= 1);
    assert_int_equal(got[due - 1], 4999);
    count = col_sleep_wheel_count(&h);

    /* a failed reserve leaves the queue as it was */
    int cap = h.cap;
    c.limit = true; /* every allocation fails */
    assert_int_equal(col_sleep_wheel_reserve(&h, &a, cap + 1), -1);
    c.limit = false;
    assert_int_equal(h.cap, cap);
    assert_int_equal(col_sleep_wheel_count(&h), count);
    assert_true(col_sleep_wheel_contains(&h, 5, &k));
    assert_int_equal(k, now + 500);
    col_sleep_wheel_destroy(&h, &a);
    assert_int_equal(c.allocs, c.frees);
    assert_int_equal(a.bytes, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_order_by_key),
        cmocka_unit_test(test_ties),
        cmocka_unit_test(test_update_and_remove),
        cmocka_unit_test(test_past_keys_and_jumps),
        cmocka_unit_test(test_random_vs_oracle),
        cmocka_unit_test(test_allocation_free),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
