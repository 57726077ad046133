/* SPDX-License-Identifier: MIT */
/* The pool under a busy core (issue 12, docs/threads.md "A busy core"): the calling
 * thread never waits for a pool thread that has not started a job, a thread that wakes
 * up late finds its job gone and touches nothing, and a thread descheduled in the middle
 * of a block it claimed is waited for (its items are done exactly once) and counted as a
 * stall. A descheduled thread is stood for by a test hook that blocks it at a chosen point
 * (col_thread_pool_set_hook): no timing is asserted, only what ran where. Without the
 * change the first test never returns (the caller waited for every thread to check in)
 * and meson's timeout fails it. Runs under ThreadSanitizer in scripts/test (suite
 * threads). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "lib/core/alloc.h"
#include "lib/core/thread_pool.h"

enum { ITEMS = 4096 };

/* Items run, and by whom. */
typedef struct cover {
    atomic_int hits[ITEMS];
    atomic_int by_pool_thread; /* items run by a worker index >= 1 */
    int slow_worker;           /* a worker whose blocks take `slow_ns` (0: none) */
    long slow_ns;
    atomic_int entered;        /* a pool thread has entered cover_fn */
    int caller_waits;          /* the caller's first block waits (up to 2 s) for that */
} cover;

static void sleep_ns(long ns)
{
    struct timespec t = {ns / 1000000000L, ns % 1000000000L};
    nanosleep(&t, NULL);
}

static void cover_fn(int begin, int end, int worker_index, void *ctx)
{
    cover *c = ctx;
    if (worker_index > 0) atomic_store(&c->entered, 1);
    for (int t = 0; worker_index == 0 && c->caller_waits && !atomic_load(&c->entered) && t < 20000; t++) sleep_ns(100000);
    if (worker_index == c->slow_worker && c->slow_ns > 0) sleep_ns(c->slow_ns);
    for (int i = begin; i < end; i++) atomic_fetch_add(&c->hits[i], 1);
    if (worker_index > 0) atomic_fetch_add(&c->by_pool_thread, end - begin);
}

static void cover_reset(cover *c)
{
    for (int i = 0; i < ITEMS; i++) atomic_store(&c->hits[i], 0);
    atomic_store(&c->by_pool_thread, 0);
    c->slow_worker = 0;
    c->slow_ns = 0;
    atomic_store(&c->entered, 0);
    c->caller_waits = 0;
}

static void assert_each_once(cover *c, int count)
{
    for (int i = 0; i < count; i++)
        if (atomic_load(&c->hits[i]) != 1) fail_msg("item %d ran %d times", i, atomic_load(&c->hits[i]));
}

/* A gate that holds pool threads at one hook point until opened. */
typedef struct gate {
    col_pool_hook_point point;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int open;
    int waiting; /* threads held now */
    int passed;  /* threads that went through the point */
} gate;

static void gate_hook(int worker_index, col_pool_hook_point point, void *ctx)
{
    (void)worker_index;
    gate *g = ctx;
    if (point != g->point) return;
    pthread_mutex_lock(&g->mu);
    g->waiting++;
    pthread_cond_broadcast(&g->cv);
    while (!g->open) pthread_cond_wait(&g->cv, &g->mu);
    g->waiting--;
    g->passed++;
    pthread_mutex_unlock(&g->mu);
}

static void gate_init(gate *g, col_pool_hook_point point)
{
    g->point = point;
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->cv, NULL);
    g->open = 0;
    g->waiting = 0;
    g->passed = 0;
}

static void gate_wait_held(gate *g, int n)
{
    pthread_mutex_lock(&g->mu);
    while (g->waiting < n) pthread_cond_wait(&g->cv, &g->mu);
    pthread_mutex_unlock(&g->mu);
}

static void gate_open(gate *g)
{
    pthread_mutex_lock(&g->mu);
    g->open = 1;
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
}

static col_thread_pool *make_pool(col_alloc *a, int workers)
{
    col_alloc_init(a, NULL);
    col_thread_pool *pool = NULL;
    assert_int_equal(col_thread_pool_create(a, workers, COL_PIN_NONE, NULL, 0, &pool), COL_OK);
    assert_non_null(pool);
    return pool;
}

/* Every pool thread is held as it wakes for the first job (the OS has not scheduled
 * it): 200 jobs still complete, all on the calling thread. Then the threads are let go:
 * they find only ended jobs, and the next jobs run each item once. */
static void test_caller_never_waits_for_a_thread_that_has_not_started(void **state)
{
    (void)state;
    col_alloc a;
    col_thread_pool *pool = make_pool(&a, 3);
    static cover c;
    gate g;
    gate_init(&g, COL_POOL_HOOK_WOKE);
    col_thread_pool_set_hook(pool, gate_hook, &g);
    for (int job = 0; job < 200; job++) {
        cover_reset(&c);
        int count = 1 + job * 37 % ITEMS;
        col_thread_pool_run(pool, cover_fn, &c, count, 1 + job % 5);
        assert_each_once(&c, count);
        assert_int_equal(atomic_load(&c.by_pool_thread), 0);
    }
    gate_open(&g);
    for (int job = 0; job < 200; job++) {
        cover_reset(&c);
        int count = ITEMS - job;
        col_thread_pool_run(pool, cover_fn, &c, count, 3);
        assert_each_once(&c, count);
    }
    col_thread_pool_set_hook(pool, NULL, NULL);
    col_thread_pool_destroy(pool);
    assert_int_equal(a.bytes, 0);
}

/* A pool thread is held after it read a job's description and before its first claim
 * (the worst moment to be descheduled): the caller finishes that job and several more;
 * when the thread resumes, its claim on the ended job must fail, so no item of the job
 * running then is done twice or with the old function. */
static void other_fn(int begin, int end, int worker_index, void *ctx)
{
    cover_fn(begin, end, worker_index, ctx);
}

static void test_late_thread_cannot_claim_a_newer_job(void **state)
{
    (void)state;
    col_alloc a;
    col_thread_pool *pool = make_pool(&a, 2);
    static cover c1, c2;
    gate g;
    gate_init(&g, COL_POOL_HOOK_READ);
    col_thread_pool_set_hook(pool, gate_hook, &g);
    cover_reset(&c1);
    col_thread_pool_run(pool, cover_fn, &c1, 100, 1);
    assert_each_once(&c1, 100);
    /* The thread may not have woken for that job at all; run jobs until it is held. */
    for (int job = 0; job < 100000; job++) {
        pthread_mutex_lock(&g.mu);
        int held = g.waiting;
        pthread_mutex_unlock(&g.mu);
        if (held > 0) break;
        cover_reset(&c1);
        col_thread_pool_run(pool, cover_fn, &c1, 100, 1);
        assert_each_once(&c1, 100);
    }
    gate_wait_held(&g, 1);
    /* Newer jobs with another function, context and count, while the thread is held. */
    for (int job = 0; job < 50; job++) {
        cover_reset(&c2);
        col_thread_pool_run(pool, other_fn, &c2, 3000 + job, 7);
        assert_each_once(&c2, 3000 + job);
    }
    /* Let it go in the middle of a long job: it may join that one, never the old one. */
    cover_reset(&c1);
    cover_reset(&c2);
    c2.slow_worker = 0;
    col_thread_pool_set_hook(pool, NULL, NULL);
    gate_open(&g);
    col_thread_pool_run(pool, other_fn, &c2, ITEMS, 1);
    assert_each_once(&c2, ITEMS);
    for (int i = 0; i < 100; i++) assert_int_equal(atomic_load(&c1.hits[i]), 0);
    col_thread_pool_destroy(pool);
    assert_int_equal(a.bytes, 0);
}

/* A pool thread whose blocks take 50 ms (a thread descheduled mid-block): the caller
 * waits for the blocks it claimed, each item runs once, and the wait is counted as a
 * stall, after which the caller runs jobs alone for a while. */
static void test_stalled_block_is_waited_for_and_counted(void **state)
{
    (void)state;
    col_alloc a;
    col_thread_pool *pool = make_pool(&a, 2);
    static cover c;
    assert_int_equal(col_thread_pool_stall_count(pool), 0);
    int stalled_jobs = 0;
    for (int job = 0; job < 20 && col_thread_pool_stall_count(pool) == 0; job++) {
        cover_reset(&c);
        c.slow_worker = 1;
        c.slow_ns = 50000000L;
        c.caller_waits = 1;
        col_thread_pool_run(pool, cover_fn, &c, 64, 1);
        assert_each_once(&c, 64);
        if (atomic_load(&c.by_pool_thread) > 0) stalled_jobs++;
    }
    /* The pool thread joined a job (the caller waited for it to come) and stalled it. */
    print_message("jobs the slow thread joined: %d, stalls: %d\n", stalled_jobs, col_thread_pool_stall_count(pool));
    assert_true(stalled_jobs > 0);
    assert_int_equal(col_thread_pool_stall_count(pool), 1);
    cover_reset(&c);
    col_thread_pool_run(pool, cover_fn, &c, ITEMS, 4);
    assert_each_once(&c, ITEMS);
    col_thread_pool_destroy(pool);
    assert_int_equal(a.bytes, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_caller_never_waits_for_a_thread_that_has_not_started),
        cmocka_unit_test(test_late_thread_cannot_claim_a_newer_job),
        cmocka_unit_test(test_stalled_block_is_waited_for_and_counted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
