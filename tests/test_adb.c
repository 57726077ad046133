/* SPDX-License-Identifier: MIT */
/* The ADB-tree's time-critical mode (issue 18, docs/adb.md).
 * - The probability table (lib/core/adb_table.inc, made by tools/adb_tables with GMP from
 *   a sum over the common cells): every stored entry against the closed form
 *   1 - C(s-a, b) / C(s, b) recomputed here independently (exactly, in unsigned 128-bit
 *   integers, for s <= 60: C(60, 30) < 2^60), symmetry, the exact 0 and 1 ends, and
 *   monotonicity (not decreasing in a and b, not increasing in s).
 * - The traversal: with p_min = 1, k_min = INT_MAX and no budget it must report exactly
 *   what the brute force over every triangle pair reports (small meshes; exact predicate
 *   col_tri_tri_intersect), and what col_mesh_mesh_query reports (larger meshes); the
 *   answers are flagged exact. Random poses from a fixed, printed seed; the hit rate of
 *   the generator is checked to lie in 20 .. 80 %.
 * - Budgets: max_visits = 1 leaves an overlapping pair estimated.
 * - Bad input: p_min outside (0, 1] or NaN, k_min < 1, a negative or NaN budget, a bad
 *   area factor. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/scene_mesh.h"
#include "bench/scene_rand.h"
#include "colibri/colibri.h"
#include "colibri/query.h"
#include "lib/core/adb_table.h"
#include "lib/core/adb_tree.h"
#include "lib/core/alloc.h"
#include "lib/core/mesh.h"
#include "ccd/mesh_adb.h"
#include "narrowphase/mesh_collide.h"
#include "narrowphase/tri_tri.h"

static col_alloc g_alloc;

typedef unsigned __int128 u128;

static u128 binom(int n, int k)
{
    if (k < 0 || k > n) return 0;
    u128 r = 1;
    for (int i = 1; i <= k; i++) r = r * (u128)(n - k + i) / (u128)i; /* exact at every step */
    return r;
}

/* the exact value 1 - num/den compared with d: |d - (den - num)/den| <= 2^-53 (half an ulp
 * of a value <= 1, plus nothing else: the table rounds once) */
static void check_entry(int s, int a, int b)
{
    u128 den = binom(s, b), num = binom(s - a, b); /* P(no common cell) = C(s-a,b)/C(s,b) */
    long double exact = (long double)(den - num) / (long double)den;
    double d = col_adb_probability(s, a, b);
    long double err = fabsl((long double)d - exact);
    if (err > 0x1p-53L * (1 + 1e-3L) + 1e-18L) {
        fprintf(stderr, "P(%d, %d, %d) = %.17g, closed form %.20Lg\n", s, a, b, d, exact);
        fail();
    }
}

static void table_matches_closed_form(void **state)
{
    (void)state;
    for (int s = 1; s <= 60; s++)
        for (int a = 0; a <= s; a++)
            for (int b = 0; b <= s; b++) check_entry(s, a, b);
    /* spot values by hand: two cells of one among two, one of one among two: 1/2;
     * a = b = 1 among s cells: 1/s */
    assert_true(col_adb_probability(2, 1, 1) == 0.5);
    assert_true(col_adb_probability(10, 1, 1) == 0.1);
    assert_true(col_adb_probability(64, 1, 1) == 1.0 / 64);
    /* 1 - C(62, 2) / C(64, 2) = 1 - 1891/2016 = 125/2016 */
    assert_true(fabs(col_adb_probability(64, 2, 2) - 125.0 / 2016.0) <= 0x1p-55);
    printf("table: %d values stored, %lu bytes\n", col_adb_table_stored(), col_adb_table_bytes());
}

static void table_monotone(void **state)
{
    (void)state;
    for (int s = 1; s <= COL_ADB_SMAX; s++)
        for (int a = 0; a <= s; a++)
            for (int b = 0; b <= s; b++) {
                double p = col_adb_probability(s, a, b);
                assert_true(p >= 0 && p <= 1);
                assert_true(p == col_adb_probability(s, b, a));
                if (a == 0 || b == 0) assert_true(p == 0);
                if (a + b > s) assert_true(p == 1);
                if (a < s) assert_true(col_adb_probability(s, a + 1, b) >= p);
                if (b < s) assert_true(col_adb_probability(s, a, b + 1) >= p);
                if (s < COL_ADB_SMAX) assert_true(col_adb_probability(s + 1, a, b) <= p);
            }
}

/* ---- the traversal ---- */

static void build_mesh(scene_mesh *sm, col_mesh *m)
{
    scene_mesh_fit(sm, 1.0);
    char err[200];
    col_status st = col_mesh_build(&g_alloc, sm->v, sm->nv, sm->t, sm->nt, m, err, sizeof err);
    if (st != COL_OK) fprintf(stderr, "%s\n", err);
    assert_int_equal(st, COL_OK);
}

static col_quat rand_quat(void)
{
    for (;;) {
        double x = scene_rand_range(-1, 1), y = scene_rand_range(-1, 1), z = scene_rand_range(-1, 1),
               w = scene_rand_range(-1, 1);
        double n = sqrt(x * x + y * y + z * z + w * w);
        if (n > 0.1 && n <= 1) return (col_quat){x / n, y / n, z / n, w / n};
    }
}

static col_xform rand_pose(double reach)
{
    col_vec3 p = col_v3(scene_rand_range(-reach, reach), scene_rand_range(-reach, reach), scene_rand_range(-reach, reach));
    return col_xform_from_transform((col_transform){p, rand_quat()});
}

static bool brute(const col_mesh *a, const col_xform *xa, const col_mesh *b, const col_xform *xb)
{
    for (int i = 0; i < a->triangle_count; i++) {
        col_vec3 t[3], u[3];
        col_mesh_triangle(a, i, t);
        for (int k = 0; k < 3; k++) t[k] = col_xform_point(xa, t[k]);
        for (int j = 0; j < b->triangle_count; j++) {
            col_mesh_triangle(b, j, u);
            for (int k = 0; k < 3; k++) u[k] = col_xform_point(xb, u[k]);
            if (col_tri_tri_intersect(t, u)) return true;
        }
    }
    return false;
}

/* The two meshes of the traversal tests (seeded by the caller): a torus knot of tris_a
 * triangles and a bumpy sphere of tris_b, with their ADB counts. */
static void two_meshes(int tris_a, int tris_b, col_mesh *ma, col_mesh *mb, col_adb_tree *ta, col_adb_tree *tb)
{
    scene_mesh sa = {0}, sb = {0};
    assert_true(scene_mesh_torusknot(&sa, tris_a, 0, 0.16));
    assert_true(scene_mesh_bumpy(&sb, tris_b));
    build_mesh(&sa, ma);
    build_mesh(&sb, mb);
    scene_mesh_free(&sa);
    scene_mesh_free(&sb);
    assert_int_equal(col_adb_tree_build(&g_alloc, ma, COL_ADB_AREA_FACTOR_DEFAULT, ta), COL_OK);
    assert_int_equal(col_adb_tree_build(&g_alloc, mb, COL_ADB_AREA_FACTOR_DEFAULT, tb), COL_OK);
}

static void free_two_meshes(col_mesh *ma, col_mesh *mb, col_adb_tree *ta, col_adb_tree *tb)
{
    col_adb_tree_free(&g_alloc, ta);
    col_adb_tree_free(&g_alloc, tb);
    col_mesh_free(&g_alloc, ma);
    col_mesh_free(&g_alloc, mb);
}

static void run_equal(int tris_a, int tris_b, int queries, bool use_brute, uint64_t seed)
{
    printf("adb traversal vs %s: seed %llu, %d and %d triangles, %d queries\n", use_brute ? "brute force" : "exact query",
           (unsigned long long)seed, tris_a, tris_b, queries);
    scene_rand_seed(seed);
    col_mesh ma, mb;
    col_adb_tree ta, tb;
    two_meshes(tris_a, tris_b, &ma, &mb, &ta, &tb);
    const col_adb_params exact = {1.0, INT_MAX, 0, 0, 0};
    int hits = 0;
    for (int q = 0; q < queries; q++) {
        col_xform xa = rand_pose(0.3), xb = rand_pose(1.6);
        col_adb_result r;
        col_mesh_mesh_adb(&ma, &ta, &xa, &mb, &tb, &xb, &exact, NULL, &r);
        bool truth;
        if (use_brute) {
            truth = brute(&ma, &xa, &mb, &xb);
        } else {
            col_np_result e;
            col_mesh_mesh_query(&ma, &xa, &mb, &xb, NULL, &e);
            truth = e.colliding;
        }
        if (r.colliding != truth || !r.exact) {
            fprintf(stderr, "query %d: adb %d (exact %d), truth %d\n", q, r.colliding, r.exact, truth);
            fail();
        }
        /* the depth-first variant: the same answer, and the exact query's own result
         * (its certified gap included) */
        col_np_result np, e;
        col_mesh_mesh_adb_depth_first(&ma, &ta, &xa, &mb, &tb, &xb, &exact, NULL, &r, &np);
        col_mesh_mesh_query(&ma, &xa, &mb, &xb, NULL, &e);
        assert_true(r.colliding == truth && r.exact);
        assert_true(np.colliding == e.colliding && np.gap == e.gap && np.iterations == e.iterations);
        hits += truth;
        /* the same query with b and a swapped */
        col_mesh_mesh_adb(&mb, &tb, &xb, &ma, &ta, &xa, &exact, NULL, &r);
        assert_true(r.colliding == truth && r.exact);
    }
    printf("  %d of %d colliding\n", hits, queries);
    assert_true(hits >= queries / 5 && hits <= 4 * queries / 5);
    free_two_meshes(&ma, &mb, &ta, &tb);
}

static void traversal_equals_brute_force(void **state)
{
    (void)state;
    run_equal(300, 200, 150, true, 18001);
}

static void traversal_equals_exact_query(void **state)
{
    (void)state;
    run_equal(6000, 3000, 400, false, 18002);
}

/* The depth factor's rate (col_adb_params.depth_rate): a rate so small that no pair's
 * factor reaches p_min leaves the exact query (answer, node pairs, gap); rate 0 means
 * COL_ADB_DEPTH_RATE; with it some of these queries stop as estimates. */
static void depth_rate_controls_counting(void **state)
{
    (void)state;
    const uint64_t seed = 18005;
    printf("depth rate: seed %llu\n", (unsigned long long)seed);
    scene_rand_seed(seed);
    col_mesh ma, mb;
    col_adb_tree ta, tb;
    two_meshes(3000, 2000, &ma, &mb, &ta, &tb);
    const col_adb_params slow = {0.99, 1, 0, 0, 1e-3}, dflt = {0.99, 1, 0, 0, 0},
                         named = {0.99, 1, 0, 0, COL_ADB_DEPTH_RATE};
    int estimated = 0;
    for (int q = 0; q < 200; q++) {
        col_xform xa = rand_pose(0.3), xb = rand_pose(1.6);
        col_adb_result r, r2;
        col_np_result np, np2, e;
        col_mesh_mesh_query(&ma, &xa, &mb, &xb, NULL, &e);
        col_mesh_mesh_adb_depth_first(&ma, &ta, &xa, &mb, &tb, &xb, &slow, NULL, &r, &np);
        assert_true(r.exact && r.collision_pairs == 0);
        assert_true(np.colliding == e.colliding && np.gap == e.gap && np.iterations == e.iterations);
        col_mesh_mesh_adb(&ma, &ta, &xa, &mb, &tb, &xb, &slow, NULL, &r);
        assert_true(r.exact && r.colliding == e.colliding && r.collision_pairs == 0);
        col_mesh_mesh_adb_depth_first(&ma, &ta, &xa, &mb, &tb, &xb, &dflt, NULL, &r, &np);
        col_mesh_mesh_adb_depth_first(&ma, &ta, &xa, &mb, &tb, &xb, &named, NULL, &r2, &np2);
        assert_true(r.colliding == r2.colliding && r.exact == r2.exact && r.visits == r2.visits &&
                    r.probability == r2.probability);
        estimated += !r.exact;
    }
    printf("  %d of 200 estimated at the default rate\n", estimated);
    assert_true(estimated > 0);
    free_two_meshes(&ma, &mb, &ta, &tb);
}

static void budget_estimates(void **state)
{
    (void)state;
    scene_rand_seed(18003);
    scene_mesh sa = {0};
    assert_true(scene_mesh_torusknot(&sa, 2000, 0, 0.16));
    col_mesh m;
    build_mesh(&sa, &m);
    scene_mesh_free(&sa);
    col_adb_tree t;
    assert_int_equal(col_adb_tree_build(&g_alloc, &m, COL_ADB_AREA_FACTOR_DEFAULT, &t), COL_OK);
    assert_int_equal(col_adb_tree_bytes(&t), (size_t)m.node_count);
    const col_xform id = col_xform_from_transform((col_transform){col_v3(0, 0, 0), {0, 0, 0, 1}});
    /* the same mesh twice at the same pose: the root pair overlaps, so one visit cannot
     * decide it */
    col_adb_params p = {0.99, 10, 1, 0, 0};
    col_adb_result r;
    col_mesh_mesh_adb(&m, &t, &id, &m, &t, &id, &p, NULL, &r);
    assert_false(r.exact);
    assert_int_equal(r.visits, 1);
    /* far apart: decided exactly at the root, whatever the settings */
    const col_xform far = col_xform_from_transform((col_transform){col_v3(5, 0, 0), {0, 0, 0, 1}});
    col_mesh_mesh_adb(&m, &t, &id, &m, &t, &far, &p, NULL, &r);
    assert_true(r.exact && !r.colliding && r.probability == 0);
    /* the depth-first variant: the same two cases (its stop needs a depth whose factor
     * reaches p_min, so one visit cannot estimate: the budget is 8 there), and an
     * estimate at k_min collision pairs leaves the witness as it was */
    col_np_result np;
    p.max_visits = 8;
    col_mesh_mesh_adb_depth_first(&m, &t, &id, &m, &t, &id, &p, NULL, &r, &np);
    assert_false(r.exact);
    assert_true(r.visits <= 8 && np.gap == 0);
    p.max_visits = 0;
    p.k_min = 1;
    /* a witness far apart in leaf order (its window does not meet) */
    col_mesh_cache cache = {0, m.triangle_count - 1};
    col_mesh_mesh_adb_depth_first(&m, &t, &id, &m, &t, &id, &p, &cache, &r, &np);
    /* the same pose: every triangle meets its copy, so the nearest-first descent may
     * find a meeting pair before a collision node pair; either answer says colliding */
    assert_true(r.colliding && np.colliding && np.gap == 0);
    if (!r.exact) assert_true(cache.tri_a == 0 && cache.tri_b == m.triangle_count - 1 && r.collision_pairs == 1 && r.probability >= 0.99);
    col_mesh_mesh_adb_depth_first(&m, &t, &id, &m, &t, &far, &p, NULL, &r, &np);
    assert_true(r.exact && !r.colliding && r.probability == 0 && np.gap > 0);
    col_adb_tree_free(&g_alloc, &t);
    col_mesh_free(&g_alloc, &m);
}

/* good with the double at byte offset off set to each of bad[0 .. n) is invalid */
static void reject_each(const col_adb_params *good, size_t off, const double *bad, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        col_adb_params p = *good;
        memcpy((char *)&p + off, &bad[i], sizeof bad[i]);
        assert_false(col_adb_params_valid(&p));
    }
}

static void bad_input(void **state)
{
    (void)state;
    const col_adb_params good = {0.99, 10, 0, 0, 0};
    assert_true(col_adb_params_valid(&good));
    col_adb_params p = good;
    assert_false(col_adb_params_valid(NULL));
    const double bad_p[] = {0.0, -0.5, 1.0000001, NAN, INFINITY, -INFINITY};
    reject_each(&good, offsetof(col_adb_params, p_min), bad_p, sizeof bad_p / sizeof bad_p[0]);
    p = good;
    p.p_min = 1.0;
    assert_true(col_adb_params_valid(&p));
    p = good;
    p.k_min = 0;
    assert_false(col_adb_params_valid(&p));
    p = good;
    p.k_min = -3;
    assert_false(col_adb_params_valid(&p));
    p = good;
    p.max_visits = -1;
    assert_false(col_adb_params_valid(&p));
    const double bad_budget[] = {NAN, -1e-3, INFINITY}, bad_rate[] = {-1e-9, NAN, INFINITY};
    reject_each(&good, offsetof(col_adb_params, time_budget), bad_budget, sizeof bad_budget / sizeof bad_budget[0]);
    reject_each(&good, offsetof(col_adb_params, depth_rate), bad_rate, sizeof bad_rate / sizeof bad_rate[0]);
    p = good;
    p.depth_rate = 2.5;
    assert_true(col_adb_params_valid(&p));
    /* a bad area factor */
    scene_rand_seed(18004);
    scene_mesh sa = {0};
    assert_true(scene_mesh_bumpy(&sa, 200));
    col_mesh m;
    build_mesh(&sa, &m);
    scene_mesh_free(&sa);
    col_adb_tree t;
    assert_int_equal(col_adb_tree_build(&g_alloc, &m, NAN, &t), COL_ERR_INVALID_ARGUMENT);
    assert_null(t.cells);
    assert_int_equal(col_adb_tree_build(&g_alloc, &m, 0.0, &t), COL_ERR_INVALID_ARGUMENT);
    assert_int_equal(col_adb_tree_build(&g_alloc, &m, -1.0, &t), COL_ERR_INVALID_ARGUMENT);
    col_mesh_free(&g_alloc, &m);
}

/* ---- the world's mode ---- */

typedef struct world_meshes {
    col_world *w;
    col_shape_id shape[2];
    col_body_id body[12];
    int bodies;
} world_meshes;

static void world_make(world_meshes *wm, const col_time_critical_def *tc, uint64_t seed)
{
    col_world_def def = col_default_world_def();
    def.worker_count = 1;
    def.time_critical = *tc;
    assert_int_equal(col_world_create(&def, &wm->w), COL_OK);
    scene_rand_seed(seed);
    for (int k = 0; k < 2; k++) {
        scene_mesh sm = {0};
        assert_true(k == 0 ? scene_mesh_torusknot(&sm, 1500, 0, 0.16) : scene_mesh_bumpy(&sm, 800));
        scene_mesh_fit(&sm, 1.0);
        col_mesh_def md = col_default_mesh_def();
        md.vertices = sm.v;
        md.vertex_count = sm.nv;
        md.indices = sm.t;
        md.triangle_count = sm.nt;
        assert_int_equal(col_shape_create_mesh(wm->w, &md, &wm->shape[k]), COL_OK);
        scene_mesh_free(&sm);
    }
    wm->bodies = 12;
    for (int i = 0; i < wm->bodies; i++) {
        col_body_def bd = col_default_body_def();
        bd.shape = wm->shape[i % 2];
        bd.pose.p = col_v3(scene_rand_range(-2, 2), scene_rand_range(-2, 2), scene_rand_range(-2, 2));
        bd.pose.q = rand_quat();
        assert_int_equal(col_body_create(wm->w, &bd, &wm->body[i]), COL_OK);
    }
}

/* One frame of both worlds: every body to the same random pose in each, then an update. */
static void step_both(world_meshes *a, world_meshes *b)
{
    for (int i = 0; i < a->bodies; i++) {
        col_transform t = {col_v3(scene_rand_range(-1.5, 1.5), scene_rand_range(-1.5, 1.5), scene_rand_range(-1.5, 1.5)),
                           rand_quat()};
        assert_int_equal(col_body_set_pose(a->w, a->body[i], t), COL_OK);
        assert_int_equal(col_body_set_pose(b->w, b->body[i], t), COL_OK);
    }
    assert_int_equal(col_world_update(a->w), COL_OK);
    assert_int_equal(col_world_update(b->w), COL_OK);
}

/* The same bodies moved the same way in a world with the mode (p_min 1, k_min INT_MAX:
 * every answer exact) and one without: equal pair lists every frame, and every tested
 * pair's estimate flagged exact. */
static void world_mode_exact_equals_off(void **state)
{
    (void)state;
    const uint64_t seed = 18005;
    printf("world mode: seed %llu\n", (unsigned long long)seed);
    col_time_critical_def on = col_default_time_critical_def(), off = col_default_time_critical_def();
    on.enabled = true;
    on.p_min = 1.0;
    on.k_min = INT_MAX;
    world_meshes a, b;
    world_make(&a, &on, seed);
    world_make(&b, &off, seed);
    col_shape_info info;
    assert_int_equal(col_shape_get_info(a.w, a.shape[0], &info), COL_OK);
    assert_true(info.adb_bytes > 0);
    assert_int_equal(col_shape_get_info(b.w, b.shape[0], &info), COL_OK);
    assert_int_equal(info.adb_bytes, 0);
    scene_rand_seed(seed + 1);
    int total = 0, tested = 0;
    for (int f = 0; f < 20; f++) {
        step_both(&a, &b);
        col_pair_events ea = col_world_get_pair_events(a.w), eb = col_world_get_pair_events(b.w);
        assert_int_equal(ea.pair_count, eb.pair_count);
        for (int k = 0; k < ea.pair_count; k++) {
            assert_int_equal(ea.pairs[k].a.index1, eb.pairs[k].a.index1);
            assert_int_equal(ea.pairs[k].b.index1, eb.pairs[k].b.index1);
        }
        total += ea.pair_count;
        for (int i = 0; i < a.bodies; i++)
            for (int j = i + 1; j < a.bodies; j++) {
                col_pair_estimate e, e0;
                assert_int_equal(col_pair_get_estimate(a.w, a.body[i], a.body[j], &e), COL_OK);
                assert_int_equal(col_pair_get_estimate(b.w, b.body[i], b.body[j], &e0), COL_OK);
                assert_false(e0.tested); /* the mode off: nothing tested in it */
                if (!e.tested) continue;
                tested++;
                assert_true(e.exact);
                assert_true(e.probability == (e.colliding ? 1.0 : 0.0));
            }
    }
    printf("  %d colliding pairs over 20 frames, %d estimates read\n", total, tested);
    assert_true(total > 0 && tested > total);
    col_world_destroy(a.w);
    col_world_destroy(b.w);
}

/* A frame budget that has run out before the pairs are tested (1e-12 s): the answers may
 * be estimates, but whatever is flagged exact must be what the mode-off world says. */
static void world_budget_exact_claims_hold(void **state)
{
    (void)state;
    const uint64_t seed = 18007;
    printf("world budget: seed %llu\n", (unsigned long long)seed);
    col_time_critical_def on = col_default_time_critical_def(), off = col_default_time_critical_def();
    on.enabled = true;
    on.frame_budget = 1e-12;
    world_meshes a, b;
    world_make(&a, &on, seed);
    world_make(&b, &off, seed);
    scene_rand_seed(seed + 1);
    int exact = 0, estimated = 0;
    for (int f = 0; f < 10; f++) {
        step_both(&a, &b);
        col_pair_events eb = col_world_get_pair_events(b.w);
        for (int i = 0; i < a.bodies; i++)
            for (int j = i + 1; j < a.bodies; j++) {
                col_pair_estimate e;
                assert_int_equal(col_pair_get_estimate(a.w, a.body[i], a.body[j], &e), COL_OK);
                if (!e.tested) continue;
                if (!e.exact) {
                    estimated++;
                    continue;
                }
                exact++;
                bool truth = false;
                for (int k = 0; k < eb.pair_count; k++)
                    truth |= (eb.pairs[k].a.index1 == b.body[i].index1 && eb.pairs[k].b.index1 == b.body[j].index1) ||
                             (eb.pairs[k].a.index1 == b.body[j].index1 && eb.pairs[k].b.index1 == b.body[i].index1);
                assert_int_equal(e.colliding, truth);
            }
    }
    printf("  %d exact and %d estimated answers\n", exact, estimated);
    col_world_destroy(a.w);
    col_world_destroy(b.w);
}

/* The per-query call: exact settings agree with col_query_overlap's answer; bad input
 * gives a status and a message and leaves the world as it was. */
static void world_query_and_bad_input(void **state)
{
    (void)state;
    const uint64_t seed = 18006;
    printf("world query: seed %llu\n", (unsigned long long)seed);
    col_time_critical_def off = col_default_time_critical_def();
    world_meshes a;
    world_make(&a, &off, seed);
    col_time_critical_def d = col_default_time_critical_def();
    d.p_min = 1.0;
    d.k_min = INT_MAX;
    int hits = 0;
    for (int i = 0; i < a.bodies; i++)
        for (int j = i + 1; j < a.bodies; j++) {
            col_pair_estimate e;
            assert_int_equal(col_body_collide_time_critical(a.w, a.body[i], a.body[j], &d, &e), COL_OK);
            col_transform pi, pj;
            assert_int_equal(col_body_get_pose(a.w, a.body[i], &pi), COL_OK);
            assert_int_equal(col_body_get_pose(a.w, a.body[j], &pj), COL_OK);
            bool ov = false;
            assert_int_equal(col_query_overlap(a.w, a.shape[i % 2], pi, a.shape[j % 2], pj, COL_BACKEND_DEFAULT, &ov), COL_OK);
            assert_true(e.tested && e.exact);
            assert_int_equal(e.colliding, ov);
            hits += ov;
        }
    printf("  %d of %d pairs colliding\n", hits, a.bodies * (a.bodies - 1) / 2);
    uint64_t h = col_world_hash(a.w);
    col_pair_estimate e;
    col_time_critical_def bad = col_default_time_critical_def();
    const double bad_p[] = {0.0, 1.5, NAN, -1.0};
    for (size_t k = 0; k < 4; k++) {
        bad.p_min = bad_p[k];
        assert_int_equal(col_body_collide_time_critical(a.w, a.body[0], a.body[1], &bad, &e), COL_ERR_INVALID_ARGUMENT);
        assert_false(e.tested);
        assert_non_null(strstr(col_world_last_error(a.w), "p_min"));
    }
    bad = col_default_time_critical_def();
    bad.k_min = 0;
    assert_int_equal(col_body_collide_time_critical(a.w, a.body[0], a.body[1], &bad, &e), COL_ERR_INVALID_ARGUMENT);
    bad = col_default_time_critical_def();
    bad.internal_cookie = 0;
    assert_int_equal(col_body_collide_time_critical(a.w, a.body[0], a.body[1], &bad, &e), COL_ERR_DEF_UNINITIALIZED);
    assert_int_equal(col_body_collide_time_critical(a.w, a.body[0], a.body[0], &d, &e), COL_ERR_SAME_BODY);
    assert_int_equal(col_body_collide_time_critical(a.w, a.body[0], a.body[1], NULL, &e), COL_ERR_INVALID_ARGUMENT);
    assert_int_equal(col_body_collide_time_critical(NULL, a.body[0], a.body[1], &d, &e), COL_ERR_INVALID_ARGUMENT);
    assert_int_equal(col_pair_get_estimate(a.w, a.body[0], a.body[0], &e), COL_ERR_SAME_BODY);
    col_shape_id box;
    assert_int_equal(col_shape_create_box(a.w, col_v3(0.5, 0.5, 0.5), &box), COL_OK);
    col_body_def bd = col_default_body_def();
    bd.shape = box;
    col_body_id bb;
    assert_int_equal(col_body_create(a.w, &bd, &bb), COL_OK);
    h = col_world_hash(a.w);
    assert_int_equal(col_body_collide_time_critical(a.w, a.body[0], bb, &d, &e), COL_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(col_world_last_error(a.w), "not both meshes"));
    assert_true(col_world_hash(a.w) == h);
    col_world_destroy(a.w);
    /* world defs */
    col_world_def wd = col_default_world_def();
    col_world *w = NULL;
    wd.time_critical.enabled = true;
    wd.time_critical.p_min = NAN;
    assert_int_equal(col_world_create(&wd, &w), COL_ERR_INVALID_ARGUMENT);
    assert_null(w);
    wd = col_default_world_def();
    wd.time_critical.k_min = 0;
    assert_int_equal(col_world_create(&wd, &w), COL_ERR_INVALID_ARGUMENT);
    wd = col_default_world_def();
    wd.time_critical.frame_budget = -1;
    assert_int_equal(col_world_create(&wd, &w), COL_ERR_INVALID_ARGUMENT);
    wd = col_default_world_def();
    wd.time_critical.frame_budget = NAN;
    assert_int_equal(col_world_create(&wd, &w), COL_ERR_INVALID_ARGUMENT);
    wd = col_default_world_def();
    wd.time_critical.internal_cookie = 0;
    assert_int_equal(col_world_create(&wd, &w), COL_ERR_DEF_UNINITIALIZED);
    assert_null(w);
}

int main(void)
{
    col_alloc_init(&g_alloc, NULL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_matches_closed_form), cmocka_unit_test(table_monotone),
        cmocka_unit_test(traversal_equals_brute_force), cmocka_unit_test(traversal_equals_exact_query),
        cmocka_unit_test(depth_rate_controls_counting), cmocka_unit_test(budget_estimates), cmocka_unit_test(bad_input),
        cmocka_unit_test(world_mode_exact_equals_off), cmocka_unit_test(world_budget_exact_claims_hold),
        cmocka_unit_test(world_query_and_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
