/* SPDX-License-Identifier: MIT */
/* The world queries (include/colibri/worldquery.h: rays, box overlaps, shape casts) from
 * several threads at once, between updates: right after each update every thread starts
 * casting at the same moment, so the first queries race to build the query tree (the
 * world's lock must make one build it and the others wait); every answer must equal the
 * one a twin world, built by the same calls, gives on one thread. Run under ThreadSanitizer by scripts/test (suite threads). With
 * 4 000 bodies the build takes long enough that the threads overlap in it: without the
 * lock ThreadSanitizer reports the race (tried; with 300 bodies it did not). */
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
#include "lib/core/vec.h"
#include "test_util.h"

enum { NB = 4000, NR = 300, NT = 4, FRAMES = 3 };

typedef struct world_set {
    col_world *w;
    col_body_id id[NB];
} world_set;

typedef struct answer {
    bool found;
    col_ray_hit hit;
    int all_count;
    int overlap_count;
    col_body_id overlap[8];
    bool cast_found;
    col_shape_hit cast;
    int cast_all_count;  /* col_world_cast_shape_all */
    bool cast_any_found; /* col_world_cast_shape_any */
    col_shape_hit cast_any;
} answer;

static col_vec3 ray_o[NR], ray_d[NR];
static col_transform pose0[NB], vel[NB];
static col_geometry *caster; /* the shape cast's geometry (a capsule) */

static void make_world(world_set *s)
{
    col_world_def def = col_default_world_def();
    def.worker_count = 1;
    assert_int_equal(col_world_create(&def, &s->w), COL_OK);
    col_shape_id sh[3];
    assert_int_equal(col_shape_create_box(s->w, col_v3(0.4, 0.3, 0.2), &sh[0]), COL_OK);
    assert_int_equal(col_shape_create_sphere(s->w, 0.3, &sh[1]), COL_OK);
    assert_int_equal(col_shape_create_capsule(s->w, 0.3, 0.2, &sh[2]), COL_OK);
    for (int i = 0; i < NB; i++) {
        col_body_def bd = col_default_body_def();
        bd.shape = sh[i % 3];
        bd.pose = pose0[i];
        assert_int_equal(col_body_create(s->w, &bd, &s->id[i]), COL_OK);
    }
}

static void move(world_set *s, int f)
{
    for (int i = 0; i < NB; i++) {
        col_transform p = pose0[i];
        p.p = col_add(p.p, col_scale(vel[i].p, (double)f));
        assert_int_equal(col_body_set_pose(s->w, s->id[i], p), COL_OK);
    }
    assert_int_equal(col_world_update(s->w), COL_OK);
}

static void ask(const col_world *w, int k, answer *a)
{
    memset(a, 0, sizeof *a);
    if (col_world_cast_ray(w, ray_o[k], ray_d[k], NULL, &a->hit, &a->found) != COL_OK) a->all_count = -1;
    if (col_world_cast_ray_all(w, ray_o[k], ray_d[k], NULL, NULL, 0, &a->all_count) != COL_OK) a->all_count = -1;
    col_vec3 hi = col_add(ray_o[k], col_v3(1, 1, 1));
    if (col_world_overlap_box(w, ray_o[k], hi, NULL, a->overlap, 8, &a->overlap_count) != COL_OK)
        a->overlap_count = -1;
    col_transform at = {ray_o[k], {0, 0, 0, 1}};
    if (col_world_cast_shape(w, caster, at, col_scale(ray_d[k], 0.5), NULL, &a->cast, &a->cast_found) != COL_OK)
        a->overlap_count = -1;
    if (col_world_cast_shape_all(w, caster, at, col_scale(ray_d[k], 0.5), NULL, NULL, 0, &a->cast_all_count) != COL_OK)
        a->cast_all_count = -1;
    if (col_world_cast_shape_any(w, caster, at, col_scale(ray_d[k], 0.5), NULL, &a->cast_any, &a->cast_any_found) !=
        COL_OK)
        a->cast_all_count = -1;
}

typedef struct job {
    const col_world *w;
    const answer *expect;
    pthread_barrier_t *start;
    int first, mismatches;
} job;

static void *run(void *arg)
{
    job *j = arg;
    pthread_barrier_wait(j->start);
    /* a const call beside the racing first queries: the tree's build must not write what it
     * reads (the world's allocator counts) */
    col_counters c;
    if (col_world_get_counters(j->w, &c) != COL_OK) j->mismatches++;
    for (int n = 0; n < NR; n++) {
        int k = (j->first + n) % NR; /* every thread all rays, from different starts */
        answer a;
        ask(j->w, k, &a);
        const answer *e = &j->expect[k];
        int m = e->overlap_count < 8 ? e->overlap_count : 8;
        bool same_overlap = true; /* by slot: the twin world's ids carry another world tag */
        for (int i = 0; i < m; i++) same_overlap = same_overlap && a.overlap[i].index1 == e->overlap[i].index1;
        if (a.found != e->found || a.all_count != e->all_count || a.overlap_count != e->overlap_count ||
            (a.found && (a.hit.body.index1 != e->hit.body.index1 || a.hit.fraction != e->hit.fraction)) ||
            !same_overlap || a.cast_found != e->cast_found ||
            (a.cast_found && (a.cast.body.index1 != e->cast.body.index1 || a.cast.fraction != e->cast.fraction)) ||
            a.cast_all_count != e->cast_all_count || a.cast_any_found != e->cast_any_found ||
            (a.cast_any_found &&
             (a.cast_any.body.index1 != e->cast_any.body.index1 || a.cast_any.fraction != e->cast_any.fraction)))
            j->mismatches++;
    }
    return NULL;
}

static void test_queries_from_threads_match_one_thread(void **state)
{
    (void)state;
    rng_seed(0x20b1, __func__);
    for (int i = 0; i < NB; i++) {
        pose0[i].p = col_v3(urange(0, 30), urange(0, 30), urange(0, 30));
        pose0[i].q = random_quat();
        vel[i].p = col_v3(urange(-0.3, 0.3), urange(-0.3, 0.3), urange(-0.3, 0.3));
    }
    for (int k = 0; k < NR; k++) {
        ray_o[k] = col_v3(urange(0, 30), urange(0, 30), urange(0, 30));
        ray_d[k] = col_v3(urange(-6, 6), urange(-6, 6), urange(-6, 6));
    }
    assert_int_equal(col_geometry_create_capsule(NULL, 0.3, 0.15, &caster, NULL), COL_OK);
    world_set shared, alone;
    make_world(&shared);
    make_world(&alone);
    static answer expect[NR];
    long hits = 0, cast_hits = 0;
    for (int f = 0; f < FRAMES; f++) {
        move(&shared, f);
        move(&alone, f);
        for (int k = 0; k < NR; k++) {
            ask(alone.w, k, &expect[k]);
            hits += expect[k].found;
            cast_hits += expect[k].cast_found;
            assert_true(expect[k].cast_all_count >= (int)expect[k].cast_found && expect[k].overlap_count >= 0);
        }
        pthread_barrier_t start;
        pthread_barrier_init(&start, NULL, NT);
        pthread_t th[NT];
        job jobs[NT];
        for (int t = 0; t < NT; t++) {
            jobs[t] = (job){shared.w, expect, &start, t * NR / NT, 0};
            assert_int_equal(pthread_create(&th[t], NULL, run, &jobs[t]), 0);
        }
        for (int t = 0; t < NT; t++) {
            pthread_join(th[t], NULL);
            assert_int_equal(jobs[t].mismatches, 0);
        }
        pthread_barrier_destroy(&start);
    }
    print_message("%ld of %d rays hit, %ld of %d shape casts\n", hits, NR * FRAMES, cast_hits, NR * FRAMES);
    assert_true(cast_hits > NR * FRAMES / 10 && cast_hits < NR * FRAMES);
    assert_true(hits > NR * FRAMES / 10 && hits < NR * FRAMES);
    col_world_destroy(shared.w);
    col_world_destroy(alone.w);
    col_geometry_destroy(caster);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_queries_from_threads_match_one_thread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
