/* SPDX-License-Identifier: MIT */
/* World API tests: defs, ids, validation with an unchanged world, pair output and
 * events, filters, disabled pairs, allocation counting and fault injection, and the
 * frame pipeline against a brute-force all-pairs run of the exact query. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colibri/colibri.h"
#include "lib/world.h"
#include "tests/test_util.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* ---- helpers ---- */

static col_shape_id make_box(col_world *w, double hx, double hy, double hz)
{
    col_vec3 p[8];
    for (int i = 0; i < 8; i++) p[i] = col_vec3_make(i & 1 ? hx : -hx, i & 2 ? hy : -hy, i & 4 ? hz : -hz);
    col_shape_id s;
    assert_int_equal(col_shape_create_convex(w, p, 8, &s), COL_OK);
    return s;
}

static col_shape_id make_blob(col_world *w, int n, double ax, double ay, double az)
{
    col_vec3 *p = malloc(sizeof *p * (size_t)n);
    for (int i = 0; i < n; i++) {
        double x, y, z, r2;
        do {
            x = urange(-1, 1), y = urange(-1, 1), z = urange(-1, 1);
            r2 = x * x + y * y + z * z;
        } while (r2 < 1e-4 || r2 > 1);
        double r = sqrt(r2);
        p[i] = col_vec3_make(ax * x / r, ay * y / r, az * z / r);
    }
    col_shape_id s;
    assert_int_equal(col_shape_create_convex(w, p, n, &s), COL_OK);
    free(p);
    return s;
}

static col_transform at(double x, double y, double z)
{
    col_transform t = col_transform_identity();
    t.p = col_vec3_make(x, y, z);
    return t;
}

static col_body_id add_body(col_world *w, col_shape_id s, col_transform pose, bool is_static)
{
    col_body_def d = col_default_body_def();
    d.shape = s;
    d.pose = pose;
    d.is_static = is_static;
    col_body_id id;
    assert_int_equal(col_body_create(w, &d, &id), COL_OK);
    return id;
}

static col_world *new_world(void)
{
    col_world_def def = col_default_world_def();
    col_world *w = NULL;
    assert_int_equal(col_world_create(&def, &w), COL_OK);
    assert_non_null(w);
    return w;
}

/* ---- defs ---- */

static void test_zeroed_defs_rejected(void **state)
{
    (void)state;
    col_world_def zero;
    memset(&zero, 0, sizeof zero);
    col_world *w = (col_world *)1;
    assert_int_equal(col_world_create(&zero, &w), COL_ERR_DEF_UNINITIALIZED);
    assert_null(w);
    assert_int_equal(col_world_create(NULL, &w), COL_ERR_INVALID_ARGUMENT);
    col_world_def bad = col_default_world_def();
    bad.worker_count = -1;
    assert_int_equal(col_world_create(&bad, &w), COL_ERR_INVALID_ARGUMENT);
    bad = col_default_world_def();
    bad.backend = COL_BACKEND_COUNT;
    assert_int_equal(col_world_create(&bad, &w), COL_ERR_INVALID_ARGUMENT);
    const double bad_margins[] = {-0.1, NAN, INFINITY, 10.5};
    for (int k = 0; k < 4; k++) {
        bad = col_default_world_def();
        bad.broadphase_margin = bad_margins[k];
        assert_int_equal(col_world_create(&bad, &w), COL_ERR_INVALID_ARGUMENT);
        assert_null(w);
    }

    w = new_world();
    col_shape_id s = make_box(w, 1, 1, 1);
    uint64_t h = col_world_hash(w);
    col_body_def bd;
    memset(&bd, 0, sizeof bd);
    bd.shape = s;
    bd.pose = col_transform_identity();
    col_body_id id;
    assert_int_equal(col_body_create(w, &bd, &id), COL_ERR_DEF_UNINITIALIZED);
    assert_true(strlen(col_world_last_error(w)) > 0);
    assert_int_equal(col_world_hash(w), h);
    col_world_destroy(w);
    col_world_destroy(NULL);
    assert_string_equal(col_status_string(COL_OK), "ok");
    assert_string_equal(col_status_string((col_status)999), "unknown status");
}

/* ---- ids ---- */

static void test_stale_ids(void **state)
{
    (void)state;
    col_world *w = new_world();
    col_shape_id s = make_box(w, 1, 1, 1);
    col_body_id a = add_body(w, s, at(0, 0, 0), false);
    col_body_id b = add_body(w, s, at(1.5, 0, 0), false);
    assert_int_equal(col_world_update(w), COL_OK);
    assert_int_equal(col_body_destroy(w, a), COL_OK);
    assert_false(col_body_is_valid(w, a));
    assert_int_equal(col_world_update(w), COL_OK);
    /* the slot is reused after the update, with a new generation */
    col_body_id c = add_body(w, s, at(0, 0, 0), false);
    assert_int_equal(c.index1, a.index1);
    assert_int_not_equal(c.generation, a.generation);
    assert_int_equal(col_world_update(w), COL_OK);

    uint64_t h = col_world_hash(w);
    col_transform t;
    assert_int_equal(col_body_destroy(w, a), COL_ERR_STALE_ID);
    assert_int_equal(col_body_set_pose(w, a, at(5, 5, 5)), COL_ERR_STALE_ID);
    assert_int_equal(col_body_get_pose(w, a, &t), COL_ERR_STALE_ID);
    assert_null(col_body_get_user_data(w, a));
    assert_int_equal(col_pair_set_enabled(w, a, b, false), COL_ERR_STALE_ID);
    assert_false(col_pair_is_enabled(w, a, b));
    col_body_id null_id = {0, 0, 0}, far_id = {12345, 0, 0};
    assert_int_equal(col_body_set_pose(w, null_id, at(0, 0, 0)), COL_ERR_STALE_ID);
    assert_int_equal(col_body_set_pose(w, far_id, at(0, 0, 0)), COL_ERR_STALE_ID);
    assert_false(col_body_is_valid(w, null_id));
    assert_false(col_body_is_valid(NULL, c));
    assert_int_equal(col_world_hash(w), h);

    /* a shape in use cannot go; a destroyed shape id is stale */
    assert_int_equal(col_shape_destroy(w, s), COL_ERR_SHAPE_IN_USE);
    col_shape_id s2 = make_box(w, 2, 1, 1);
    assert_int_equal(col_shape_destroy(w, s2), COL_OK);
    assert_false(col_shape_is_valid(w, s2));
    h = col_world_hash(w);
    col_body_def d = col_default_body_def();
    d.shape = s2;
    col_body_id x;
    assert_int_equal(col_body_create(w, &d, &x), COL_ERR_STALE_ID);
    assert_int_equal(col_shape_destroy(w, s2), COL_ERR_STALE_ID);
    col_shape_info info;
    assert_int_equal(col_shape_get_info(w, s2, &info), COL_ERR_STALE_ID);
    assert_int_equal(col_world_hash(w), h);
    assert_int_equal(col_pair_set_enabled(w, b, b, false), COL_ERR_SAME_BODY);
    assert_int_equal(col_world_hash(w), h);
    col_world_destroy(w);
}

/* Issue 13, finding 6: ids carry their kind and their world. Every call that takes an id
 * must answer COL_ERR_STALE_ID for shape_id (where a shape is expected) and body_id
 * (where a body is expected), given live partners good_shape and good_body, and leave
 * the world's hash unchanged. */
static col_transform forged_pose_fn(int index, void *ctx)
{
    (void)index;
    (void)ctx;
    return col_transform_identity();
}

static void expect_ids_rejected(col_world *w, col_shape_id shape_id, col_body_id body_id, col_shape_id good_shape,
                                col_body_id good_body)
{
    uint64_t h = col_world_hash(w);
    assert_false(col_shape_is_valid(w, shape_id));
    assert_false(col_body_is_valid(w, body_id));
    col_shape_info info;
    assert_int_equal(col_shape_get_info(w, shape_id, &info), COL_ERR_STALE_ID);
    col_vec3 verts[64];
    int nv = 0;
    assert_int_equal(col_shape_get_vertices(w, shape_id, verts, 64, &nv), COL_ERR_STALE_ID);
    col_body_def d = col_default_body_def();
    d.shape = shape_id;
    col_body_id nb;
    assert_int_equal(col_body_create(w, &d, &nb), COL_ERR_STALE_ID);
    bool hit = false;
    for (int be = COL_BACKEND_DEFAULT; be < COL_BACKEND_COUNT; be++) {
        assert_int_equal(col_query_overlap(w, shape_id, at(0, 0, 0), good_shape, at(0, 0, 0), (col_backend)be, &hit),
                         COL_ERR_STALE_ID);
        assert_int_equal(col_query_overlap(w, good_shape, at(0, 0, 0), shape_id, at(0, 0, 0), (col_backend)be, &hit),
                         COL_ERR_STALE_ID);
    }
    col_distance_input din = {shape_id, good_shape, at(0, 0, 0), at(0, 0, 0)};
    col_distance_output dout;
    assert_int_equal(col_distance(w, &din, NULL, &dout), COL_ERR_STALE_ID);
    col_contact_input cin = {shape_id, good_shape, at(0, 0, 0), at(0, 0, 0), 0.0};
    col_contact_output cout;
    assert_int_equal(col_contact(w, &cin, NULL, &cout), COL_ERR_STALE_ID);

    assert_int_equal(col_body_set_pose(w, body_id, at(1, 2, 3)), COL_ERR_STALE_ID);
    col_transform pose = at(1, 2, 3);
    assert_int_equal(col_body_set_poses(w, &body_id, &pose, 1), COL_ERR_STALE_ID);
    assert_int_equal(col_body_set_poses_fn(w, &body_id, 1, forged_pose_fn, NULL), COL_ERR_STALE_ID);
    assert_int_equal(col_body_get_pose(w, body_id, &pose), COL_ERR_STALE_ID);
    assert_int_equal(col_body_set_max_speeds(w, body_id, 1.0, 1.0), COL_ERR_STALE_ID);
    double lin, ang;
    assert_int_equal(col_body_get_max_speeds(w, body_id, &lin, &ang), COL_ERR_STALE_ID);
    assert_null(col_body_get_user_data(w, body_id));
    assert_int_equal(col_pair_set_enabled(w, body_id, good_body, false), COL_ERR_STALE_ID);
    assert_int_equal(col_pair_set_enabled(w, good_body, body_id, false), COL_ERR_STALE_ID);
    assert_false(col_pair_is_enabled(w, body_id, good_body));
    col_interframe_result ir;
    assert_int_equal(col_query_interframe(w, body_id, good_body, &ir), COL_ERR_STALE_ID);
    assert_int_equal(col_body_distance(w, body_id, good_body, NULL, &dout), COL_ERR_STALE_ID);
    assert_int_equal(col_body_contact(w, good_body, body_id, 0.0, NULL, &cout), COL_ERR_STALE_ID);
    assert_int_equal(col_shape_destroy(w, shape_id), COL_ERR_STALE_ID);
    assert_int_equal(col_body_destroy(w, body_id), COL_ERR_STALE_ID);
    assert_int_equal(col_world_hash(w), h);
    /* the partners are still there */
    assert_true(col_shape_is_valid(w, good_shape));
    assert_true(col_body_is_valid(w, good_body));
}

/* A world with shapes in slots 1 and 2 and bodies in slots 1 and 2, all generation 0
 * (a body's user data is its world, to see which world answers). */
static col_world *two_of_each(col_shape_id s[2], col_body_id b[2])
{
    col_world *w = new_world();
    s[0] = make_box(w, 1, 1, 1);
    s[1] = make_box(w, 0.5, 0.5, 0.5);
    for (int k = 0; k < 2; k++) {
        col_body_def d = col_default_body_def();
        d.shape = s[k];
        d.pose = at(3.0 * k, 0, 0);
        d.user_data = w;
        assert_int_equal(col_body_create(w, &d, &b[k]), COL_OK);
    }
    assert_int_equal(col_world_update(w), COL_OK);
    return w;
}

/* A body id whose fields are copied into a shape id (what a cast, a union or a mixed-up
 * table does) names no shape, and a shape id copied into a body id names no body, even
 * where the slot and the generation match a live object of the other kind. */
static void test_issue13_id_of_wrong_kind_is_stale(void **state)
{
    (void)state;
    /* the layout id.h documents: three uint32_t */
    assert_int_equal(sizeof(col_body_id), 3 * sizeof(uint32_t));
    assert_int_equal(sizeof(col_shape_id), 3 * sizeof(uint32_t));
    col_shape_id s[2];
    col_body_id b[2];
    col_world *w = two_of_each(s, b);
    col_shape_id body_as_shape;
    col_body_id shape_as_body;
    memcpy(&body_as_shape, &b[0], sizeof body_as_shape);
    memcpy(&shape_as_body, &s[0], sizeof shape_as_body);
    assert_int_equal(body_as_shape.index1, s[0].index1); /* the slots and generations match */
    assert_int_equal(body_as_shape.generation, s[0].generation);
    expect_ids_rejected(w, body_as_shape, shape_as_body, s[1], b[1]);
    col_shape_info info;
    assert_int_equal(col_shape_get_info(w, body_as_shape, &info), COL_ERR_STALE_ID);
    assert_non_null(strstr(col_world_last_error(w), "is a body id, not a shape id"));
    assert_int_equal(col_body_set_pose(w, shape_as_body, at(0, 0, 0)), COL_ERR_STALE_ID);
    assert_non_null(strstr(col_world_last_error(w), "is a shape id, not a body id"));
    /* the real ids still work */
    assert_int_equal(col_shape_get_info(w, s[0], &info), COL_OK);
    assert_int_equal(info.body_count, 1);
    assert_ptr_equal(col_body_get_user_data(w, b[0]), w);
    col_world_destroy(w);
}

/* Two worlds with the same slots and generations: world A's ids are stale in world B
 * (they would reach B's objects if ids did not carry their world). */
static void test_issue13_id_of_other_world_is_stale(void **state)
{
    (void)state;
    col_shape_id sa[2], sb[2];
    col_body_id ba[2], bb[2];
    col_world *a = two_of_each(sa, ba);
    col_world *b = two_of_each(sb, bb);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(sa[k].index1, sb[k].index1);
        assert_int_equal(sa[k].generation, sb[k].generation);
        assert_int_equal(ba[k].index1, bb[k].index1);
        assert_int_equal(ba[k].generation, bb[k].generation);
        assert_false(col_shape_id_equals(sa[k], sb[k]));
        assert_false(col_body_id_equals(ba[k], bb[k]));
    }
    expect_ids_rejected(b, sa[0], ba[0], sb[1], bb[1]);
    assert_int_equal(col_body_set_pose(b, ba[0], at(0, 0, 0)), COL_ERR_STALE_ID);
    assert_non_null(strstr(col_world_last_error(b), "not made by this world"));
    expect_ids_rejected(a, sb[0], bb[0], sa[1], ba[1]);
    assert_ptr_equal(col_body_get_user_data(a, ba[0]), a);
    assert_ptr_equal(col_body_get_user_data(b, bb[0]), b);
    /* a pair of A's is not a pair of B's: both ids foreign */
    assert_int_equal(col_pair_set_enabled(b, ba[0], ba[1], false), COL_ERR_STALE_ID);
    assert_true(col_pair_is_enabled(b, bb[0], bb[1]));
    col_world_destroy(a);
    col_world_destroy(b);
}

/* ---- bad numbers ---- */

static void test_bad_numbers_leave_world_unchanged(void **state)
{
    (void)state;
    col_world *w = new_world();
    col_shape_id s = make_box(w, 1, 1, 1);
    col_body_id a = add_body(w, s, at(0, 0, 0), false);
    add_body(w, s, at(1, 0.5, 0), false);
    assert_int_equal(col_world_update(w), COL_OK);
    uint64_t h = col_world_hash(w);

    const double bad[] = {NAN, INFINITY, -INFINITY, 1e300};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        for (int comp = 0; comp < 7; comp++) {
            col_transform t = at(0, 0, 0);
            double *f[7] = {&t.p.x, &t.p.y, &t.p.z, &t.q.x, &t.q.y, &t.q.z, &t.q.w};
            *f[comp] = bad[k];
            col_status expect = COL_ERR_NOT_FINITE;
            if (comp >= 3 && isfinite(bad[k])) expect = COL_ERR_BAD_QUATERNION;
            assert_int_equal(col_body_set_pose(w, a, t), expect);
            col_body_def d = col_default_body_def();
            d.shape = s;
            d.pose = t;
            col_body_id id;
            assert_int_equal(col_body_create(w, &d, &id), expect);
            bool hit;
            assert_int_equal(col_query_overlap(w, s, t, s, at(0, 0, 0), COL_BACKEND_DEFAULT, &hit), expect);
            assert_int_equal(col_world_hash(w), h);
        }
        col_vec3 pts[5] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 1}};
        pts[3].y = bad[k];
        col_shape_id sh;
        assert_int_equal(col_shape_create_convex(w, pts, 5, &sh), COL_ERR_NOT_FINITE);
        assert_int_equal(col_world_hash(w), h);
    }
    /* non-unit quaternions: slightly off is renormalised, far off is an error */
    col_transform t = at(0, 0, 0);
    t.q.w = 1.0 + 1e-9;
    assert_int_equal(col_body_set_pose(w, a, t), COL_OK);
    col_transform got;
    assert_int_equal(col_body_get_pose(w, a, &got), COL_OK);
    assert_true(fabs(got.q.w - 1.0) < 1e-15);
    h = col_world_hash(w);
    t.q.w = 1.1;
    assert_int_equal(col_body_set_pose(w, a, t), COL_ERR_BAD_QUATERNION);
    t.q.w = 0;
    assert_int_equal(col_body_set_pose(w, a, t), COL_ERR_BAD_QUATERNION);
    assert_int_equal(col_world_hash(w), h);

    /* degenerate point sets */
    col_vec3 flat[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}};
    col_vec3 line[4] = {{0, 0, 0}, {1, 1, 1}, {2, 2, 2}, {3, 3, 3}};
    col_shape_id sh;
    assert_int_equal(col_shape_create_convex(w, flat, 4, &sh), COL_ERR_DEGENERATE_SHAPE);
    assert_int_equal(col_shape_create_convex(w, line, 4, &sh), COL_ERR_DEGENERATE_SHAPE);
    assert_int_equal(col_shape_create_convex(w, flat, 3, &sh), COL_ERR_TOO_FEW_POINTS);
    assert_int_equal(col_shape_create_convex(w, NULL, 3, &sh), COL_ERR_INVALID_ARGUMENT);
    assert_int_equal(col_shape_create_convex(w, flat, -1, &sh), COL_ERR_INVALID_ARGUMENT);
    assert_int_equal(col_world_hash(w), h);
    col_world_destroy(w);
}

/* ---- pair output, events, filters, disabled pairs ---- */

/* Worlds with nothing to pair: no shapes, shapes but no bodies, one body, and every
 * body removed again, for every backend, schedule and one or two workers, with the
 * inter-frame report on and off. Arrays never grown are NULL there, and pointer
 * arithmetic on them is undefined behaviour that clang's -fsanitize=undefined reports
 * (the first update of an empty world once sorted its pair keys at NULL + 0). */
static void test_empty_worlds(void **state)
{
    (void)state;
    for (int cfg = 0; cfg < 2 * 2 * 2 * (COL_BACKEND_COUNT - 1); cfg++) {
        col_world_def def = col_default_world_def();
        def.backend = (col_backend)(1 + cfg % (COL_BACKEND_COUNT - 1));
        def.schedule = (cfg / (COL_BACKEND_COUNT - 1)) % 2 ? COL_SCHEDULE_EVERY : COL_SCHEDULE_TTC;
        def.worker_count = 1 + (cfg / (2 * (COL_BACKEND_COUNT - 1))) % 2;
        def.report_interframe = cfg / (4 * (COL_BACKEND_COUNT - 1)) != 0;
        col_world *w = NULL;
        assert_int_equal(col_world_create(&def, &w), COL_OK);
        for (int step = 0; step < 5; step++) {
            if (step == 1) make_box(w, 0.5, 0.5, 0.5);
            col_body_id b = {0, 0, 0};
            if (step == 2 || step == 3) b = add_body(w, make_box(w, 1, 1, 1), at(0, 0, 0), step == 3);
            assert_int_equal(col_world_update(w), COL_OK);
            col_pair_events ev = col_world_get_pair_events(w);
            assert_int_equal(ev.pair_count + ev.began_count + ev.ended_count, 0);
            if (b.index1 != 0) {
                assert_int_equal(col_body_destroy(w, b), COL_OK);
                assert_int_equal(col_world_update(w), COL_OK);
            }
        }
        col_world_destroy(w);
    }
}

static void test_sorted_pairs_and_events(void **state)
{
    (void)state;
    col_world *w = new_world();
    col_shape_id s = make_box(w, 0.5, 0.5, 0.5);
    /* a row of unit cubes 0.9 apart: neighbours overlap, others do not */
    col_body_id ids[10];
    for (int i = 9; i >= 0; i--) ids[9 - i] = add_body(w, s, at(0.9 * i, 0, 0), false);
    assert_int_equal(col_world_update(w), COL_OK);
    col_pair_events ev = col_world_get_pair_events(w);
    assert_int_equal(ev.pair_count, 9);
    assert_int_equal(ev.began_count, 9);
    assert_int_equal(ev.ended_count, 0);
    for (int k = 0; k < ev.pair_count; k++) {
        assert_true(ev.pairs[k].a.index1 < ev.pairs[k].b.index1);
        if (k > 0) assert_true(ev.pairs[k - 1].a.index1 < ev.pairs[k].a.index1);
        assert_int_equal(ev.pairs[k].b.index1, ev.pairs[k].a.index1 + 1);
    }
    /* nothing moves: same pairs, no events, no narrow-phase calls */
    assert_int_equal(col_world_update(w), COL_OK);
    ev = col_world_get_pair_events(w);
    assert_int_equal(ev.pair_count, 9);
    assert_int_equal(ev.began_count + ev.ended_count, 0);
    col_counters c;
    assert_int_equal(col_world_get_counters(w, &c), COL_OK);
    assert_int_equal(c.narrow_calls, 0);
    assert_int_equal(c.colliding_pairs, 9);

    /* exact touching counts: move the last cube to touch its neighbour face to face */
    assert_int_equal(col_body_set_pose(w, ids[0], at(0.9 * 8 + 1.0, 0, 0)), COL_OK);
    assert_int_equal(col_world_update(w), COL_OK);
    ev = col_world_get_pair_events(w);
    assert_int_equal(ev.pair_count, 9);
    assert_int_equal(ev.began_count + ev.ended_count, 0);
    /* a hair apart: the pair ends */
    assert_int_equal(col_body_set_pose(w, ids[0], at(0.9 * 8 + 1.0 + 1e-12, 0, 0)), COL_OK);
    assert_int_equal(col_world_update(w), COL_OK);
    ev = col_world_get_pair_events(w);
    assert_int_equal(ev.pair_count, 8);
    assert_int_equal(ev.ended_count, 1);
    assert_true(col_body_id_equals(ev.ended[0].a, ids[0]) && col_body_id_equals(ev.ended[0].b, ids[1]));
    assert_int_equal(ev.began_count, 0);

    /* removing a body ends its pairs; disabling a pair ends it too */
    assert_int_equal(col_body_destroy(w, ids[5]), COL_OK);
    assert_int_equal(col_pair_set_enabled(w, ids[1], ids[2], false), COL_OK);
    assert_false(col_pair_is_enabled(w, ids[1], ids[2]));
    assert_int_equal(col_world_update(w), COL_OK);
    ev = col_world_get_pair_events(w);
    assert_int_equal(ev.pair_count, 5);
    assert_int_equal(ev.ended_count, 3);
    assert_int_equal(ev.began_count, 0);
    /* re-enabling begins it again */
    assert_int_equal(col_pair_set_enabled(w, ids[2], ids[1], true), COL_OK);
    assert_true(col_pair_is_enabled(w, ids[1], ids[2]));
    assert_int_equal(col_world_update(w), COL_OK);
    ev = col_world_get_pair_events(w);
    assert_int_equal(ev.pair_count, 6);
    assert_int_equal(ev.began_count, 1);
    col_world_destroy(w);
}

/* Issue 21: every pair record carries both bodies' user data, so an app can tell what
 * an ended pair was about after a body's removal made its id stale. */
static col_body_id add_tagged(col_world *w, col_shape_id s, double x, void *tag)
{
    col_body_def d = col_default_body_def();
    d.shape = s;
    d.pose = at(x, 0, 0);
    d.user_data = tag;
    col_body_id id;
    assert_int_equal(col_body_create(w, &d, &id), COL_OK);
    return id;
}

static void expect_tags(const col_pair *p, void *ta, void *tb)
{
    assert_ptr_equal(p->user_data_a, ta);
    assert_ptr_equal(p->user_data_b, tb);
}

static void test_events_carry_user_data(void **state)
{
    (void)state;
    col_world_def def = col_default_world_def();
    def.report_interframe = true;
    col_world *w = NULL;
    assert_int_equal(col_world_create(&def, &w), COL_OK);
    col_shape_id s = make_box(w, 0.5, 0.5, 0.5);
    int tags[4];
    col_body_id left = add_tagged(w, s, 0.0, &tags[0]);
    col_body_id mid = add_tagged(w, s, 0.9, &tags[1]);
    add_tagged(w, s, 5.0, &tags[2]);
    assert_int_equal(col_world_update(w), COL_OK);
    col_pair_events ev = col_world_get_pair_events(w);
    assert_int_equal(ev.pair_count, 1);
    assert_int_equal(ev.began_count, 1);
    assert_int_equal(ev.interframe_count, 1);
    expect_tags(&ev.pairs[0], &tags[0], &tags[1]);
    expect_tags(&ev.began[0], &tags[0], &tags[1]);
    expect_tags(&ev.interframe[0], &tags[0], &tags[1]);

    /* the removed body's id is stale, its user data is in the ended record */
    assert_int_equal(col_body_destroy(w, mid), COL_OK);
    assert_int_equal(col_world_update(w), COL_OK);
    ev = col_world_get_pair_events(w);
    assert_int_equal(ev.pair_count + ev.began_count, 0);
    assert_int_equal(ev.ended_count, 1);
    assert_false(col_body_is_valid(w, ev.ended[0].b));
    assert_null(col_body_get_user_data(w, ev.ended[0].b));
    assert_true(col_body_id_equals(ev.ended[0].a, left));
    expect_tags(&ev.ended[0], &tags[0], &tags[1]);

    /* a new body in the freed slot brings its own user data, not the old one's */
    col_body_id again = add_tagged(w, s, -0.9, &tags[3]);
    assert_int_equal(again.index1, mid.index1);
    assert_int_equal(col_world_update(w), COL_OK);
    ev = col_world_get_pair_events(w);
    assert_int_equal(ev.pair_count, 1);
    assert_int_equal(ev.began_count, 1);
    expect_tags(&ev.began[0], &tags[0], &tags[3]);
    col_world_destroy(w);
}

/* Issue 21: a message names the failing call (a pose check is shared by many calls), and
 * a successful call on a non-const world says "not an error"; a const call's success
 * leaves the text as it was (colibri.h, col_world_last_error). */
static void test_messages_name_the_call(void **state)
{
    (void)state;
    col_world *w = new_world();
    assert_string_equal(col_world_last_error(w), "not an error");
    col_shape_id s = make_box(w, 0.5, 0.5, 0.5);
    col_body_id b = add_body(w, s, at(0, 0, 0), false);
    col_transform bad = at(1, 2, 3);
    bad.q.w = 2.0;
    assert_int_equal(col_body_set_pose(w, b, bad), COL_ERR_BAD_QUATERNION);
    assert_non_null(strstr(col_world_last_error(w), "col_body_set_pose: quaternion length 2 differs from 1"));
    assert_ptr_equal(strstr(col_world_last_error(w), "col_body_set_pose: "), col_world_last_error(w));
    col_transform got;
    assert_int_equal(col_body_get_pose(w, b, &got), COL_OK); /* const: the text stays */
    assert_non_null(strstr(col_world_last_error(w), "col_body_set_pose: quaternion"));
    assert_int_equal(col_body_set_pose(w, b, at(1, 2, 3)), COL_OK);
    assert_string_equal(col_world_last_error(w), "not an error");

    col_body_id two[2] = {b, b};
    col_transform poses[2] = {at(0, 0, 0), bad};
    assert_int_equal(col_body_set_poses(w, two, poses, 2), COL_ERR_BAD_QUATERNION);
    assert_ptr_equal(strstr(col_world_last_error(w), "col_body_set_poses (item 1): quaternion"), col_world_last_error(w));
    col_compound_child kids[2] = {{s, at(0, 0, 0)}, {s, bad}};
    col_shape_id c;
    assert_int_equal(col_shape_create_compound(w, kids, 2, &c), COL_ERR_BAD_QUATERNION);
    assert_ptr_equal(strstr(col_world_last_error(w), "col_shape_create_compound (child 1): quaternion"),
                     col_world_last_error(w));
    bool hit;
    assert_int_equal(col_query_overlap(w, s, bad, s, at(0, 0, 0), COL_BACKEND_DEFAULT, &hit), COL_ERR_BAD_QUATERNION);
    assert_ptr_equal(strstr(col_world_last_error(w), "col_query_overlap: quaternion"), col_world_last_error(w));
    assert_int_equal(col_world_update(w), COL_OK);
    assert_string_equal(col_world_last_error(w), "not an error");
    col_world_destroy(w);
}

static void test_filters_and_statics(void **state)
{
    (void)state;
    col_world *w = new_world();
    col_shape_id s = make_box(w, 1, 1, 1);
    col_body_id st1 = add_body(w, s, at(0, 0, 0), true);
    col_body_id st2 = add_body(w, s, at(0.5, 0, 0), true);
    col_body_id mv = add_body(w, s, at(0.2, 0.2, 0), false);
    col_body_def d = col_default_body_def();
    d.shape = s;
    d.pose = at(0.1, 0, 0);
    d.filter_group = 2;
    d.filter_mask = 2; /* only meets group 2: none of the others */
    col_body_id picky;
    assert_int_equal(col_body_create(w, &d, &picky), COL_OK);
    assert_int_equal(col_world_update(w), COL_OK);
    col_pair_events ev = col_world_get_pair_events(w);
    /* static-static never; picky never; the moving body meets both statics */
    assert_int_equal(ev.pair_count, 2);
    for (int k = 0; k < ev.pair_count; k++) {
        assert_true(col_body_id_equals(ev.pairs[k].b, mv));
        assert_true(col_body_id_equals(ev.pairs[k].a, st1) || col_body_id_equals(ev.pairs[k].a, st2));
    }
    col_counters c;
    col_world_get_counters(w, &c);
    assert_int_equal(c.static_bodies, 2);
    assert_int_equal(c.bodies, 4);
    /* broad phase holds the AABB pairs except static-static: 3 (mv, picky x 2 statics) + mv-picky */
    assert_int_equal(c.broadphase_pairs, 5);
    col_world_destroy(w);
}

/* ---- allocations ---- */

/* workers: col_world_def.worker_count (0: the default, one per physical core). */
static col_world *counted_world_workers(counting_alloc *ca, int workers)
{
    col_world_def def = col_default_world_def();
    def.worker_count = workers;
    def.allocator = counting_hooks(ca);
    col_world *w = NULL;
    col_status st = col_world_create(&def, &w);
    if (st != COL_OK) return NULL;
    return w;
}

static col_world *counted_world(counting_alloc *ca) { return counted_world_workers(ca, 0); }

static void moving_scene_step(col_world *w, col_body_id *ids, int n, int frame)
{
    for (int i = 0; i < n; i++) {
        double ph = 0.05 * frame + i;
        col_transform t = at(3 * cos(ph) + (i % 5), 3 * sin(ph * 0.7) + (double)(i / 5) * 0.8, 0.3 * sin(ph));
        double a = 0.1 * frame + i;
        t.q = (col_quat){sin(a / 2) / sqrt(3.0), sin(a / 2) / sqrt(3.0), sin(a / 2) / sqrt(3.0), cos(a / 2)};
        assert_int_equal(col_body_set_pose(w, ids[i], t), COL_OK);
    }
}

/* N bodies on `workers` workers; from frame 201 on no update may call the allocator. */
static void no_allocation_after_warmup(int workers, int N)
{
    counting_alloc ca = {0};
    col_world *w = counted_world_workers(&ca, workers);
    assert_non_null(w);
    print_message("%d workers (0: default), %d bodies\n", workers, N);
    rng_seed(7, __func__);
    col_shape_id s1 = make_blob(w, 40, 1, 0.6, 0.4), s2 = make_box(w, 0.5, 0.3, 0.2);
    col_body_id ids[160];
    assert_true(N <= 160);
    for (int i = 0; i < N; i++) ids[i] = add_body(w, i % 2 ? s1 : s2, at(i, 0, 0), false);
    /* Warm-up: the scene visits its whole range of configurations once. */
    for (int f = 0; f < 200; f++) {
        moving_scene_step(w, ids, N, f);
        assert_int_equal(col_world_update(w), COL_OK);
    }
    long before = ca.calls;
    long pairs = 0, narrow = 0;
    for (int f = 0; f < 200; f++) {
        moving_scene_step(w, ids, N, f);
        assert_int_equal(col_world_update(w), COL_OK);
        col_counters c;
        col_world_get_counters(w, &c);
        assert_int_equal(c.alloc_calls, 0);
        pairs += c.colliding_pairs;
        narrow += c.narrow_calls;
    }
    print_message("replayed 200 frames: %ld colliding pairs, %ld narrow calls, %ld allocator calls\n", pairs, narrow,
                  ca.calls - before);
    assert_true(pairs > 0);
    assert_int_equal(ca.calls, before);
    col_world_destroy(w);
}

/* Also with 1, 2 and 8 workers on a scene big enough that the pair loop is split into
 * blocks (issue 7): per-worker scratch and result bytes are reserved before the loop. */
static void test_no_allocation_after_warmup(void **state)
{
    (void)state;
    no_allocation_after_warmup(0, 40);
    no_allocation_after_warmup(1, 160);
    no_allocation_after_warmup(2, 160);
    no_allocation_after_warmup(8, 160);
}

/* SQLite-style fault injection: fail the Nth allocation for every N of a scenario and
 * require a clean error with the world's state intact (hash unchanged by the failed call). */
static void test_out_of_memory_every_n(void **state)
{
    (void)state;
    int failures_seen = 0;
    print_message("seeds 100 + N for the run that fails allocation N\n");
    for (long n = 1; n < 400; n++) {
        counting_alloc ca = {0};
        ca.fail_at = n;
        col_world *w = counted_world(&ca);
        if (w == NULL) {
            failures_seen++;
            continue;
        }
        bool done = true;
        col_vec3 pts[30];
        rng_reseed(100 + (uint64_t)n); /* seed 100 + N for the N-th run */
        for (int i = 0; i < 30; i++) pts[i] = col_vec3_make(urange(-1, 1), urange(-1, 1), urange(-1, 1));
        col_shape_id s = {0, 0, 0};
        col_body_id ids[12];
        int nb = 0;
        for (int step = 0; step < 30 && done; step++) {
            uint64_t h = col_world_hash(w);
            col_status st;
            if (step == 0) {
                st = col_shape_create_convex(w, pts, 30, &s);
            } else if (step <= 12) {
                col_body_def d = col_default_body_def();
                d.shape = s;
                d.pose = at(step * 0.7, 0, 0);
                st = col_body_create(w, &d, &ids[nb]);
                if (st == COL_OK) nb++;
            } else if (step == 13) {
                st = col_pair_set_enabled(w, ids[0], ids[1], false);
            } else {
                if (nb > 3 && step == 20) {
                    assert_int_equal(col_body_destroy(w, ids[nb - 1]), COL_OK);
                    nb--;
                    h = col_world_hash(w);
                }
                if (step % 2 == 0) {
                    /* the batch call: all or nothing, also when its buffers cannot grow */
                    col_transform poses[12];
                    for (int i = 0; i < nb; i++) poses[i] = at(i * 0.7 + 0.01 * step, 0, 0);
                    h = col_world_hash(w);
                    st = col_body_set_poses(w, ids, poses, nb);
                    if (st == COL_ERR_OUT_OF_MEMORY) {
                        assert_int_equal(col_world_hash(w), h);
                        failures_seen++;
                        done = false;
                        continue;
                    }
                    assert_int_equal(st, COL_OK);
                } else {
                    for (int i = 0; i < nb; i++) col_body_set_pose(w, ids[i], at(i * 0.7 + 0.01 * step, 0, 0));
                }
                h = col_world_hash(w);
                st = col_world_update(w);
                if (st != COL_OK) {
                    /* a failed update keeps the last results: retrying succeeds once memory returns */
                    assert_int_equal(col_world_hash(w), h);
                    ca.fail_at = 0;
                    assert_int_equal(col_world_update(w), COL_OK);
                    st = COL_ERR_OUT_OF_MEMORY;
                }
            }
            if (st == COL_ERR_OUT_OF_MEMORY) {
                failures_seen++;
                if (step < 14) assert_int_equal(col_world_hash(w), h);
                done = false;
            } else {
                assert_int_equal(st, COL_OK);
            }
        }
        col_world_destroy(w);
        if (done && ca.fail_at > ca.calls) break; /* the scenario no longer reaches the failing call */
    }
    print_message("%d injected failures handled\n", failures_seen);
    assert_true(failures_seen > 10);
}

/* ---- the frame pipeline against brute force ---- */

/* margin: col_world_def.broadphase_margin; a large one keeps many pairs of fat boxes
 * whose tight boxes do not overlap, and moves proxies rarely. */
static void world_matches_brute_force(double margin)
{
    rng_seed(2026, __func__);
    print_message("broadphase_margin %g\n", margin);
    col_world_def def = col_default_world_def();
    def.broadphase_margin = margin;
    col_world *w = NULL;
    assert_int_equal(col_world_create(&def, &w), COL_OK);
    col_shape_id shapes[6];
    shapes[0] = make_blob(w, 30, 1, 0.6, 0.4);
    shapes[1] = make_blob(w, 20, 1, 0.12, 0.12);
    shapes[2] = make_blob(w, 40, 1, 1, 0.1);
    shapes[3] = make_box(w, 1, 0.6, 0.4);
    shapes[4] = make_blob(w, 8, 0.5, 0.5, 0.5);
    shapes[5] = make_box(w, 0.3, 0.3, 0.3);
    enum { MAXB = 120 };
    col_body_id ids[MAXB];
    col_transform poses[MAXB];
    int shape_of[MAXB];
    bool alive[MAXB] = {false}, is_static[MAXB] = {false};
    const double L = 9;
    long total = 0, frames = 300, hits = 0, tested = 0;
    for (int f = 0; f < frames; f++) {
        /* churn: add and remove bodies between frames */
        for (int k = 0; k < 6; k++) {
            int i = (int)(rng_next() % MAXB);
            if (alive[i] && urand() < 0.5) {
                assert_int_equal(col_body_destroy(w, ids[i]), COL_OK);
                alive[i] = false;
            } else if (!alive[i]) {
                shape_of[i] = (int)(rng_next() % 6);
                is_static[i] = urand() < 0.15;
                poses[i] = at(urange(0, L), urange(0, L), urange(0, L));
                poses[i].q = random_quat();
                ids[i] = add_body(w, shapes[shape_of[i]], poses[i], is_static[i]);
                alive[i] = true;
            }
        }
        for (int i = 0; i < MAXB; i++) {
            if (!alive[i] || is_static[i]) continue;
            if (urand() < 0.02) poses[i].p = col_vec3_make(urange(0, L), urange(0, L), urange(0, L)); /* teleport */
            else {
                poses[i].p.x += urange(-0.1, 0.1);
                poses[i].p.y += urange(-0.1, 0.1);
                poses[i].p.z += urange(-0.1, 0.1);
            }
            poses[i].q = random_quat();
            assert_int_equal(col_body_set_pose(w, ids[i], poses[i]), COL_OK);
        }
        assert_int_equal(col_world_update(w), COL_OK);
        col_pair_events ev = col_world_get_pair_events(w);
        /* brute force over all pairs with the exact query */
        int k = 0, who[4 * MAXB + 1];
        for (int i = 0; i <= 4 * MAXB; i++) who[i] = -1;
        for (int i = 0; i < MAXB; i++) {
            if (!alive[i]) continue;
            assert_true(ids[i].index1 <= 4 * MAXB);
            who[ids[i].index1] = i;
        }
        for (uint32_t ia = 1; ia <= 4 * MAXB; ia++) {
            for (uint32_t ib = ia + 1; ib <= 4 * MAXB; ib++) {
                int x = who[ia], y = who[ib];
                if (x < 0 || y < 0 || (is_static[x] && is_static[y])) continue;
                bool hit;
                assert_int_equal(col_query_overlap(w, shapes[shape_of[x]], poses[x], shapes[shape_of[y]], poses[y],
                                                   COL_BACKEND_REFERENCE, &hit),
                                 COL_OK);
                tested++;
                if (!hit) continue;
                hits++;
                assert_true(k < ev.pair_count);
                assert_true(col_body_id_equals(ev.pairs[k].a, ids[x]));
                assert_true(col_body_id_equals(ev.pairs[k].b, ids[y]));
                k++;
            }
        }
        assert_int_equal(k, ev.pair_count);
        total += k;
    }
    print_message("%ld frames, %ld colliding pairs, %ld pairs tested by brute force\n", frames, total, tested);
    assert_true(total > frames); /* the scene is dense enough to mean something */
    (void)hits;
    col_world_destroy(w);
}

static void test_world_matches_brute_force(void **state)
{
    (void)state;
    world_matches_brute_force(0.0);
    world_matches_brute_force(0.5);
    world_matches_brute_force(4.0);
}

/* A pair that sleeps, leaves the candidates (its tight boxes part, its fat boxes still
 * overlap, so the broad phase keeps it), and comes back after a trip of one body that
 * happened while it was out: the trip must wake it. Two unit boxes turned 45 degrees
 * about z: their boxes overlap, the hulls are 0.84 apart along the diagonal. B moves
 * 1e-3 a frame (the pair sleeps for hundreds of frames), jumps to (5, 5) (a trip, tight
 * boxes apart), steps to (4, 4) (within its new bound) and comes back onto A (also within
 * it): only the trip at the jump says that the sleep is void. */
static void test_sleep_void_after_trip_out_of_candidates(void **state)
{
    (void)state;
    col_world_def def = col_default_world_def();
    def.broadphase_margin = 4.0; /* fat cubes of half side 0.866 * 5: still overlapping at (5, 5) */
    col_world *w = NULL;
    assert_int_equal(col_world_create(&def, &w), COL_OK);
    col_shape_id s = make_box(w, 0.5, 0.5, 0.5);
    col_transform pa = at(0, 0, 0), pb = at(1.3, 1.3, 0);
    pa.q = pb.q = (col_quat){0, 0, sin(M_PI / 8), cos(M_PI / 8)};
    col_body_id a = add_body(w, s, pa, false), b = add_body(w, s, pb, false);
    col_counters c;
    for (int f = 1; f <= 3; f++) {
        pb.p.x += 1e-3;
        assert_int_equal(col_body_set_pose(w, b, pb), COL_OK);
        assert_int_equal(col_world_update(w), COL_OK);
        assert_int_equal(col_world_get_pair_events(w).pair_count, 0);
    }
    assert_int_equal(col_world_get_counters(w, &c), COL_OK);
    assert_int_equal(c.broadphase_pairs, 1);
    assert_int_equal(c.sleeping_pairs, 1); /* asleep, as the scenario needs */
    const double path[3][2] = {{5, 5}, {4, 4}, {0.3, 0.3}};
    for (int k = 0; k < 3; k++) {
        pb.p.x = path[k][0];
        pb.p.y = path[k][1];
        assert_int_equal(col_body_set_pose(w, b, pb), COL_OK);
        assert_int_equal(col_world_update(w), COL_OK);
        assert_int_equal(col_world_get_counters(w, &c), COL_OK);
        col_pair_events ev = col_world_get_pair_events(w);
        if (k < 2) {
            assert_int_equal(c.broadphase_pairs, 0); /* out of the candidates */
            assert_int_equal(ev.pair_count, 0);
        } else {
            assert_int_equal(c.broadphase_pairs, 1);
            assert_int_equal(ev.pair_count, 1);
            assert_true(col_body_id_equals(ev.pairs[0].a, a) && col_body_id_equals(ev.pairs[0].b, b));
        }
    }
    col_world_destroy(w);
}

/* col_world_fat_aabb, with the shape record's ball (col_world_fat_cube), against its
 * former formula straight from the geometry with libm's fmin and fmax: the same bits for random boxes, poses and margins, for
 * tight boxes that reach past the cube or touch it, for zeros of both signs, and for a
 * NaN on either side (fmin and fmax then give the other operand). The fat box is what the
 * broad phase holds: a smaller one loses pairs, another one changes the pair hashes. */
static void reference_fat(const col_geometry *g, const col_xform *xf, const col_aabb *t, double margin, col_aabb *o)
{
    /* Through pointers: libm's functions, as lib/world.c called them, not the compiler's
     * inline forms (which may give the other zero on +0 against -0). */
    double (*volatile fmin_libm)(double, double) = fmin, (*volatile fmax_libm)(double, double) = fmax;
    col_vec3 mid = col_scale(col_add(g->box_min, g->box_max), 0.5);
    col_vec3 half = col_scale(col_sub(g->box_max, g->box_min), 0.5);
    col_vec3 c = col_xform_point(xf, mid);
    double h = sqrt(col_dot(half, half));
    if (g->kind != COL_SHAPE_HULL && g->radius < h) {
        c = xf->p;
        h = g->radius;
    }
    h *= 1.0 + margin;
    o->min = col_v3(fmin_libm(c.x - h, t->min.x), fmin_libm(c.y - h, t->min.y), fmin_libm(c.z - h, t->min.z));
    o->max = col_v3(fmax_libm(c.x + h, t->max.x), fmax_libm(c.y + h, t->max.y), fmax_libm(c.z + h, t->max.z));
}

static void test_fat_box_matches_fmin_fmax(void **state)
{
    (void)state;
    rng_seed(19, __func__);
    static const double special[] = {0.0, -0.0, NAN, -NAN};
    for (int it = 0; it < 20000; it++) {
        col_geometry g;
        memset(&g, 0, sizeof g);
        g.kind = it % 3 == 0 ? COL_SHAPE_SPHERE : COL_SHAPE_HULL;
        g.box_min = col_v3(urange(-2, 0), urange(-2, 0), urange(-2, 0));
        g.box_max = col_v3(urange(0, 2), urange(0, 2), urange(0, 2));
        g.radius = urange(0.5, 3.0);
        col_transform pose = {.p = col_v3(urange(-50, 50), urange(-50, 50), urange(-50, 50)),
                              .q = random_quat()};
        if (it % 7 == 0) pose.p = col_v3(0, 0, 0);
        col_xform xf = col_xform_from_transform(pose);
        double margin = it % 5 == 0 ? 0.0 : urange(0.0, 0.5);
        col_aabb tight, ref, got;
        /* Near the cube's faces, sometimes on them, sometimes beyond. */
        col_aabb cube;
        reference_fat(&g, &xf, &(col_aabb){.min = col_v3(INFINITY, INFINITY, INFINITY),
                                            .max = col_v3(-INFINITY, -INFINITY, -INFINITY)},
                      margin, &cube);
        double *tl = &tight.min.x, *th = &tight.max.x, *cl = &cube.min.x, *ch = &cube.max.x;
        for (int a = 0; a < 3; a++) {
            int k = (int)(rng_next() % 6);
            tl[a] = k == 0 ? cl[a] : k == 1 ? cl[a] - urand() : k < 4 ? special[rng_next() % 4] : cl[a] + urand();
            k = (int)(rng_next() % 6);
            th[a] = k == 0 ? ch[a] : k == 1 ? ch[a] + urand() : k < 4 ? special[rng_next() % 4] : ch[a] - urand();
        }
        if (it % 11 == 0) { /* the cube's face at +0 against a tight face at -0 */
            g.kind = COL_SHAPE_HULL;
            g.box_min = col_neg(g.box_max);
            col_vec3 half = col_scale(col_sub(g.box_max, g.box_min), 0.5);
            double h = sqrt(col_dot(half, half)) * (1.0 + margin);
            xf = col_xform_from_transform((col_transform){.p = col_v3(h, -h, h), .q = pose.q});
            tight.min.x = -0.0;
            tight.max.y = -0.0;
        }
        reference_fat(&g, &xf, &tight, margin, &ref);
        col_shape_rec sr = {.geom = &g};
        col_world_fat_cube(&g, &sr.fat_mid, &sr.fat_h, &sr.fat_at_origin);
        col_world_fat_aabb(&sr, &xf, &tight, margin, &got);
        if (memcmp(&ref, &got, sizeof ref) != 0) {
            print_message("iteration %d: fat box differs from the fmin/fmax formula\n", it);
            for (int a = 0; a < 6; a++) print_message("  %a %a (tight %a)\n", (&ref.min.x)[a], (&got.min.x)[a], (&tight.min.x)[a]);
            fail();
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zeroed_defs_rejected),
        cmocka_unit_test(test_fat_box_matches_fmin_fmax),
        cmocka_unit_test(test_stale_ids),
        cmocka_unit_test(test_issue13_id_of_wrong_kind_is_stale),
        cmocka_unit_test(test_issue13_id_of_other_world_is_stale),
        cmocka_unit_test(test_bad_numbers_leave_world_unchanged),
        cmocka_unit_test(test_empty_worlds),
        cmocka_unit_test(test_sorted_pairs_and_events),
        cmocka_unit_test(test_events_carry_user_data),
        cmocka_unit_test(test_messages_name_the_call),
        cmocka_unit_test(test_filters_and_statics),
        cmocka_unit_test(test_no_allocation_after_warmup),
        cmocka_unit_test(test_out_of_memory_every_n),
        cmocka_unit_test(test_world_matches_brute_force),
        cmocka_unit_test(test_sleep_void_after_trip_out_of_candidates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
