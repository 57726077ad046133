/* SPDX-License-Identifier: MIT */
/* The world-free queries from two threads at once (issue 15): each thread has its own
 * scratch and cache and queries the same geometries (shared, read only) with no lock;
 * every answer must equal the one computed alone first. Run under ThreadSanitizer by
 * scripts/test (suite threads): a report there fails the build. */
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "colibri/colibri.h"
#include "test_util.h"

enum { NG = 8, NQ = 3000, NT = 2 };

typedef struct job {
    col_geometry *const *geo;
    const int *ga, *gb;
    const col_transform *ta, *tb;
    int first, count;
    bool *hit;
    col_distance_output *dist;
    col_contact_output *contact;
    int status; /* first failing status, 0 if none */
} job;

static void run_queries(job *j)
{
    col_query_scratch *qs = NULL;
    if (col_query_scratch_create(NULL, &qs) != COL_OK) {
        j->status = -1;
        return;
    }
    col_distance_cache cache;
    memset(&cache, 0, sizeof cache);
    for (int i = j->first; i < j->first + j->count; i++) {
        const col_geometry *a = j->geo[j->ga[i]], *b = j->geo[j->gb[i]];
        col_status st = col_geometry_overlap(a, j->ta[i], b, j->tb[i], (col_backend)(i % COL_BACKEND_COUNT), qs, &j->hit[i]);
        if (st == COL_OK) st = col_geometry_distance(a, j->ta[i], b, j->tb[i], &cache, qs, &j->dist[i]);
        if (st == COL_OK) st = col_geometry_contact(a, j->ta[i], b, j->tb[i], 0.01, NULL, qs, &j->contact[i]);
        if (st != COL_OK && j->status == 0) j->status = (int)st;
    }
    col_query_scratch_destroy(qs);
}

static void *thread_main(void *arg)
{
    run_queries(arg);
    return NULL;
}

static col_geometry *make(int k)
{
    col_geometry *g = NULL;
    col_status st;
    if (k % 4 == 0) st = col_geometry_create_sphere(NULL, urange(0.3, 1), &g, NULL);
    else if (k % 4 == 1) st = col_geometry_create_capsule(NULL, urange(0.2, 1), urange(0.2, 0.5), &g, NULL);
    else if (k % 4 == 2) st = col_geometry_create_box(NULL, col_vec3_make(urange(0.3, 1), urange(0.3, 1), urange(0.3, 1)), &g, NULL);
    else {
        col_vec3 p[10];
        for (int i = 0; i < 10; i++) p[i] = col_vec3_make(gauss(), gauss(), gauss());
        st = col_geometry_create_hull(NULL, p, 10, &g, NULL);
    }
    assert_int_equal(st, COL_OK);
    return g;
}

static void test_two_threads(void **state)
{
    (void)state;
    rng_seed(15005, "test_two_threads");
    col_geometry *geo[NG];
    for (int i = 0; i < NG - 1; i++) geo[i] = make(i);
    col_geometry_child kids[2] = {{geo[0], {{1, 0, 0}, {0, 0, 0, 1}}}, {geo[1], {{-1, 0, 0}, {0, 0, 0, 1}}}};
    assert_int_equal(col_geometry_create_compound(NULL, kids, 2, &geo[NG - 1], NULL), COL_OK);
    static int ga[NQ], gb[NQ];
    static col_transform ta[NQ], tb[NQ];
    for (int i = 0; i < NQ; i++) {
        ga[i] = (int)(rng_next() % NG);
        gb[i] = (int)(rng_next() % NG);
        ta[i].p = col_vec3_make(urange(-1, 1), urange(-1, 1), urange(-1, 1));
        ta[i].q = random_quat();
        tb[i].p = col_vec3_make(urange(-2, 2), urange(-2, 2), urange(-2, 2));
        tb[i].q = random_quat();
    }
    static bool hit0[NQ], hit1[NQ];
    static col_distance_output d0[NQ], d1[NQ];
    static col_contact_output c0[NQ], c1[NQ];
    /* Alone first: the answers to compare with. */
    job alone = {geo, ga, gb, ta, tb, 0, NQ, hit0, d0, c0, 0};
    run_queries(&alone);
    assert_int_equal(alone.status, 0);
    /* Then two threads at once, each half, each its own scratch. */
    job half[NT];
    pthread_t th[NT];
    for (int t = 0; t < NT; t++) {
        half[t] = (job){geo, ga, gb, ta, tb, t * (NQ / NT), NQ / NT, hit1, d1, c1, 0};
        assert_int_equal(pthread_create(&th[t], NULL, thread_main, &half[t]), 0);
    }
    for (int t = 0; t < NT; t++) {
        pthread_join(th[t], NULL);
        assert_int_equal(half[t].status, 0);
    }
    int hits = 0;
    for (int i = 0; i < NQ; i++) {
        assert_int_equal(hit0[i], hit1[i]);
        hits += hit0[i];
        assert_int_equal(d0[i].outcome, d1[i].outcome);
        /* A warm cache may end the walk a rounding away: the same answer, not the same bits. */
        assert_true(fabs(d0[i].distance - d1[i].distance) <= 1e-12 * (1.0 + d0[i].distance));
        assert_int_equal(c0[i].point_count, c1[i].point_count);
    }
    printf("two threads: %d queries of three kinds, %d colliding\n", NQ, hits);
    assert_true(hits > NQ / 20 && hits < NQ - NQ / 20);
    for (int i = 0; i < NG; i++) col_geometry_destroy(geo[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_two_threads)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
