/* SPDX-License-Identifier: MIT */
/* The slot allocator (lib/core/id_pool.c): its free and deferred lists share one array
 * (free slots from the bottom, deferred ones from the top). Oracle for the randomized
 * test: a model with two plain lists (the pool before it shared them), which must hand
 * out the same slots in the same order through allocations, undone allocations, frees
 * (deferred or not), releases of the deferred slots and growth; and a failed growth
 * leaves the pool as it was. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/alloc.h"
#include "lib/core/id_pool.h"
#include "tests/test_util.h"

#define MAXS 4096

typedef struct model {
    uint32_t gen[MAXS];
    bool live[MAXS];
    int high_water;
    uint32_t free_list[MAXS], deferred[MAXS];
    int nfree, ndeferred;
} model;

static int model_alloc(model *m)
{
    int s = m->nfree > 0 ? (int)m->free_list[--m->nfree] : m->high_water++;
    m->live[s] = true;
    return s;
}

static void model_free(model *m, int s, bool deferred)
{
    m->live[s] = false;
    if (++m->gen[s] == UINT32_MAX) return;
    if (deferred) m->deferred[m->ndeferred++] = (uint32_t)s;
    else m->free_list[m->nfree++] = (uint32_t)s;
}

static void model_release(model *m)
{
    for (int i = 0; i < m->ndeferred; i++) m->free_list[m->nfree++] = m->deferred[i];
    m->ndeferred = 0;
}

static void check_same(const col_id_pool *p, const model *m)
{
    assert_int_equal(p->high_water, m->high_water);
    assert_int_equal(p->free_count, m->nfree);
    assert_int_equal(p->deferred_count, m->ndeferred);
    for (int s = 0; s < m->high_water; s++) {
        assert_int_equal(p->live[s] != 0, m->live[s]);
        assert_int_equal(p->generation[s], m->gen[s]);
    }
}

static void test_same_order_as_two_lists(void **state)
{
    (void)state;
    rng_seed(0x1d9001ULL, __func__);
    counting_alloc c = {0};
    col_allocator hooks = counting_hooks(&c);
    col_alloc a;
    col_alloc_init(&a, &hooks);
    col_id_pool p;
    col_id_pool_init(&p);
    model *m = calloc(1, sizeof *m);
    assert_non_null(m);
    int live[MAXS], nlive = 0;
    long allocs = 0, releases = 0, met = 0;
    for (int step = 0; step < 200000; step++) {
        int op = (int)(rng_next() % 100);
        if (step % 2000 == 1999) { /* free nearly everything: the lists fill the array */
            while (nlive > 1) {
                int s = live[--nlive];
                bool deferred = rng_next() % 4 != 0;
                col_id_pool_free(&p, s, deferred);
                model_free(m, s, deferred);
            }
            op = 95;
        }
        if (op < 45 && m->high_water < MAXS - 1) {
            /* a failed growth first, sometimes: nothing changes */
            if (p.high_water == p.capacity && rng_next() % 4 == 0) {
                c.fail_at = c.calls + 1;
                assert_int_equal(col_id_pool_reserve(&p, &a, 1), -1);
                c.fail_at = 0;
                check_same(&p, m);
            }
            assert_int_equal(col_id_pool_reserve(&p, &a, 1), 0);
            int s = col_id_pool_alloc(&p);
            if (rng_next() % 10 == 0) { /* undone at once, as a failed creation does */
                col_id_pool_unalloc(&p, s);
                continue;
            }
            assert_int_equal(s, model_alloc(m));
            live[nlive++] = s;
            allocs++;
        } else if (op < 90 && nlive > 0) {
            int k = (int)(rng_next() % (uint64_t)nlive);
            int s = live[k];
            live[k] = live[--nlive];
            bool deferred = rng_next() % 2 == 0;
            col_id_pool_free(&p, s, deferred);
            model_free(m, s, deferred);
        } else if (op >= 90) {
            /* the deferred range, moved down, overlaps where it was when nearly every
             * slot is free: the release's memmove */
            if (p.deferred_count > 0 && p.free_count + 2 * p.deferred_count > p.capacity) met++;
            col_id_pool_release_deferred(&p);
            model_release(m);
            releases++;
        }
        check_same(&p, m);
    }
    assert_true(allocs > 10000 && releases > 1000 && met > 10);
    print_message("id pool: %ld allocations, %ld releases, %ld with overlapping moves\n", allocs, releases, met);
    col_id_pool_destroy(&p, &a);
    assert_int_equal(c.allocs, c.frees); /* every block given back */
    free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same_order_as_two_lists),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
