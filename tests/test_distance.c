/* SPDX-License-Identifier: MIT */
/* Public distance and contact queries (query.h: col_distance, col_body_distance,
 * col_contact, col_body_contact): known configurations of boxes (separated, touching,
 * overlapping, crossed edges), the caller's cache, bodies' poses, agreement with the
 * exact overlap query on random pairs, and bad input (NULL, stale ids, NaN and
 * infinite poses, bad quaternions, bad margins, the same body twice), which must return
 * the status, zero the output and leave the world hash unchanged. */
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
#include "tests/test_util.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

#define SEED 0xd15ea5e0c011b71ULL

static col_world *new_world(void)
{
    col_world_def def = col_default_world_def();
    def.worker_count = 1;
    col_world *w = NULL;
    assert_int_equal(col_world_create(&def, &w), COL_OK);
    return w;
}

static col_shape_id make_box(col_world *w, double hx, double hy, double hz)
{
    col_vec3 p[8];
    for (int i = 0; i < 8; i++) p[i] = col_vec3_make(i & 1 ? hx : -hx, i & 2 ? hy : -hy, i & 4 ? hz : -hz);
    col_shape_id s;
    assert_int_equal(col_shape_create_convex(w, p, 8, &s), COL_OK);
    return s;
}

static col_shape_id make_blob(col_world *w, int n, double r)
{
    col_vec3 p[64];
    for (int i = 0; i < n; i++) {
        double x, y, z, r2;
        do {
            x = urange(-1, 1), y = urange(-1, 1), z = urange(-1, 1);
            r2 = x * x + y * y + z * z;
        } while (r2 < 1e-4 || r2 > 1);
        double s = r / sqrt(r2);
        p[i] = col_vec3_make(x * s, y * s, z * s);
    }
    col_shape_id id;
    assert_int_equal(col_shape_create_convex(w, p, n, &id), COL_OK);
    return id;
}

static col_transform at(double x, double y, double z)
{
    col_transform t = col_transform_identity();
    t.p = col_vec3_make(x, y, z);
    return t;
}

static col_distance_input pair_in(col_shape_id a, col_transform pa, col_shape_id b, col_transform pb)
{
    col_distance_input in;
    in.shape_a = a;
    in.shape_b = b;
    in.pose_a = pa;
    in.pose_b = pb;
    return in;
}

static col_contact_input contact_in(col_shape_id a, col_transform pa, col_shape_id b, col_transform pb, double margin)
{
    col_contact_input in;
    in.shape_a = a;
    in.shape_b = b;
    in.pose_a = pa;
    in.pose_b = pb;
    in.margin = margin;
    return in;
}

static void assert_near(double x, double y, double tol)
{
    if (!(fabs(x - y) <= tol)) fprintf(stderr, "assert_near: %.17g vs %.17g (tol %g)\n", x, y, tol);
    assert_true(fabs(x - y) <= tol);
}

/* ---- known configurations ---- */

static void test_boxes_separated(void **state)
{
    (void)state;
    col_world *w = new_world();
    col_shape_id box = make_box(w, 1, 1, 1);
    col_distance_cache cache;
    memset(&cache, 0, sizeof cache);
    col_distance_input in = pair_in(box, at(0, 0, 0), box, at(2.5, 0.3, -0.2));
    col_distance_output out;
    assert_int_equal(col_distance(w, &in, &cache, &out), COL_OK);
    assert_int_equal(out.outcome, COL_DISTANCE_SEPARATED);
    assert_near(out.distance, 0.5, 1e-12);
    assert_near(out.point_b.x - out.point_a.x, 0.5, 1e-12);
    assert_near(out.point_a.x, 1.0, 1e-12);
    assert_near(out.point_b.x, 1.5, 1e-12);
    /* parallel faces: one side's closest feature is a face, the other's a vertex,
     * edge or face */
    assert_true(out.feature_a.type == COL_FEATURE_FACE || out.feature_b.type == COL_FEATURE_FACE);
    assert_true(out.steps >= 1);
    assert_int_equal(out.fallbacks, 0);
    assert_true(cache.shape_a.index1 == box.index1 && cache.shape_b.index1 == box.index1);
    /* warm: the cached features still hold, one step */
    assert_int_equal(col_distance(w, &in, &cache, &out), COL_OK);
    assert_int_equal(out.steps, 1);
    assert_near(out.distance, 0.5, 1e-12);
    /* no cache */
    assert_int_equal(col_distance(w, &in, NULL, &out), COL_OK);
    assert_near(out.distance, 0.5, 1e-12);
    /* vertex to vertex along the diagonal */
    in.pose_b = at(3, 3, 3);
    assert_int_equal(col_distance(w, &in, &cache, &out), COL_OK);
    assert_near(out.distance, sqrt(3.0), 1e-12);
    assert_int_equal(out.feature_a.type, COL_FEATURE_VERTEX);
    assert_int_equal(out.feature_b.type, COL_FEATURE_VERTEX);
    col_world_destroy(w);
}

static void test_touching_and_overlapping_boxes(void **state)
{
    (void)state;
    col_world *w = new_world();
    col_shape_id box = make_box(w, 1, 1, 1);
    col_distance_output out;
    col_contact_output c;

    /* face to face, exactly touching, offset sideways: a 4-point square contact */
    col_distance_input in = pair_in(box, at(0, 0, 0), box, at(2, 0.5, 0.25));
    assert_int_equal(col_distance(w, &in, NULL, &out), COL_OK);
    assert_int_equal(out.outcome, COL_DISTANCE_TOUCHING);
    assert_true(out.distance <= 1e-12);
    col_contact_input ci = contact_in(box, at(0, 0, 0), box, at(2, 0.5, 0.25), 0.0);
    assert_int_equal(col_contact(w, &ci, NULL, &c), COL_OK);
    assert_int_not_equal(c.outcome, COL_DISTANCE_SEPARATED);
    assert_near(c.normal.x, 1.0, 1e-9);
    assert_near(c.separation, 0.0, 1e-12);
    assert_int_equal(c.point_count, 4);
    for (int i = 0; i < c.point_count; i++) {
        assert_near(c.points[i].point_a.x, 1.0, 1e-12);
        assert_near(c.points[i].separation, 0.0, 1e-12);
        assert_true(c.points[i].point_a.y >= -0.5 - 1e-12 && c.points[i].point_a.y <= 1.0 + 1e-12);
        assert_true(c.points[i].point_a.z >= -0.75 - 1e-12 && c.points[i].point_a.z <= 1.0 + 1e-12);
    }

    /* overlapping by 0.1 along x: penetrating, depth 0.1 along +x, 4 points */
    ci.pose_b = at(1.9, 0.5, 0.25);
    in.pose_b = ci.pose_b;
    assert_int_equal(col_distance(w, &in, NULL, &out), COL_OK);
    assert_int_equal(out.outcome, COL_DISTANCE_PENETRATING);
    assert_true(out.distance == 0.0);
    assert_int_equal(col_contact(w, &ci, NULL, &c), COL_OK);
    assert_int_equal(c.outcome, COL_DISTANCE_PENETRATING);
    assert_near(c.normal.x, 1.0, 1e-9);
    assert_near(c.separation, -0.1, 1e-12);
    assert_int_equal(c.point_count, 4);
    for (int i = 0; i < c.point_count; i++) assert_near(c.points[i].separation, -0.1, 1e-12);

    /* separated by 0.05: points only within the margin */
    ci.pose_b = at(2.05, 0.5, 0.25);
    assert_int_equal(col_contact(w, &ci, NULL, &c), COL_OK);
    assert_int_equal(c.outcome, COL_DISTANCE_SEPARATED);
    assert_near(c.separation, 0.05, 1e-12);
    assert_int_equal(c.point_count, 0);
    ci.margin = 0.1;
    assert_int_equal(col_contact(w, &ci, NULL, &c), COL_OK);
    assert_int_equal(c.point_count, 4);
    for (int i = 0; i < c.point_count; i++) assert_near(c.points[i].separation, 0.05, 1e-12);

    /* crossed edges: a turned 45 degrees about x (its top is an edge along x at
     * z = sqrt 2), b turned 45 degrees about y and pushed 0.01 down into it (its bottom
     * is an edge along y): one contact point, depth 0.01 along z */
    double s8 = sin(M_PI / 8), c8 = cos(M_PI / 8);
    col_transform pa = col_transform_identity(), pb = at(0.3, -0.2, 2.0 * sqrt(2.0) - 0.01);
    pa.q.x = s8;
    pa.q.w = c8;
    pb.q.y = s8;
    pb.q.w = c8;
    ci = contact_in(box, pa, box, pb, 0.0);
    assert_int_equal(col_contact(w, &ci, NULL, &c), COL_OK);
    assert_int_equal(c.outcome, COL_DISTANCE_PENETRATING);
    assert_int_equal(c.point_count, 1);
    assert_near(c.separation, -0.01, 1e-12);
    assert_near(c.normal.z, 1.0, 1e-12);
    assert_near(c.points[0].point_a.x, 0.3, 1e-12);
    assert_near(c.points[0].point_a.y, 0.0, 1e-12);
    assert_near(c.points[0].point_a.z, sqrt(2.0), 1e-12);
    assert_near(c.points[0].point_b.z, sqrt(2.0) - 0.01, 1e-12);
    assert_near(c.points[0].separation, -0.01, 1e-12);
    col_world_destroy(w);
}

/* Issue 13 (degenerate input): aligned boxes meet vertex to vertex or vertex on face at
 * an exact zero distance even when they overlap deeply; that is PENETRATING (depth up to
 * 2), not TOUCHING, for col_distance and col_contact alike. Exact touching stays
 * TOUCHING. */
static void test_issue13_aligned_overlap_is_penetrating(void **state)
{
    (void)state;
    col_world *w = new_world();
    col_shape_id box = make_box(w, 1, 1, 1);
    const double off[][3] = {{0, 0, 0}, {0.5, 0, 0}, {0.5, 0.5, 0}, {1.5, 0, 0}, {0, 1.9, 0}, {1, 1, 1}};
    for (size_t k = 0; k < sizeof off / sizeof off[0]; k++) {
        col_transform pb = at(off[k][0], off[k][1], off[k][2]);
        col_distance_input in = pair_in(box, at(0, 0, 0), box, pb);
        col_distance_output out;
        assert_int_equal(col_distance(w, &in, NULL, &out), COL_OK);
        assert_int_equal(out.outcome, COL_DISTANCE_PENETRATING);
        assert_true(out.distance == 0.0);
        col_contact_output c;
        col_contact_input ci = contact_in(box, at(0, 0, 0), box, pb, 0.0);
        assert_int_equal(col_contact(w, &ci, NULL, &c), COL_OK);
        assert_int_equal(c.outcome, COL_DISTANCE_PENETRATING);
        assert_true(c.separation < -0.09);
    }
    const double touch[][3] = {{2, 0, 0}, {2, 2, 0}, {2, 2, 2}, {0, -2, 0.5}};
    for (size_t k = 0; k < sizeof touch / sizeof touch[0]; k++) {
        col_distance_input in = pair_in(box, at(0, 0, 0), box, at(touch[k][0], touch[k][1], touch[k][2]));
        col_distance_output out;
        assert_int_equal(col_distance(w, &in, NULL, &out), COL_OK);
        assert_int_equal(out.outcome, COL_DISTANCE_TOUCHING);
    }
    col_world_destroy(w);
}

/* Bodies: the poses last set; the cache follows the pair. */
static void test_body_queries(void **state)
{
    (void)state;
    col_world *w = new_world();
    col_shape_id box = make_box(w, 1, 1, 1);
    col_body_def d = col_default_body_def();
    d.shape = box;
    col_body_id a, b;
    assert_int_equal(col_body_create(w, &d, &a), COL_OK);
    d.pose = at(0, 3, 0);
    assert_int_equal(col_body_create(w, &d, &b), COL_OK);
    col_distance_cache cache;
    memset(&cache, 0, sizeof cache);
    col_distance_output out;
    assert_int_equal(col_body_distance(w, a, b, &cache, &out), COL_OK);
    assert_near(out.distance, 1.0, 1e-12);
    assert_int_equal(col_body_set_pose(w, b, at(0, 2.25, 0)), COL_OK);
    assert_int_equal(col_body_distance(w, a, b, &cache, &out), COL_OK);
    assert_near(out.distance, 0.25, 1e-12);
    assert_int_equal(out.steps, 1);
    col_contact_output c;
    assert_int_equal(col_body_contact(w, a, b, 0.5, &cache, &c), COL_OK);
    assert_int_equal(c.point_count, 4);
    assert_near(c.normal.y, 1.0, 1e-12);
    assert_int_equal(col_world_update(w), COL_OK);
    assert_int_equal(col_body_distance(w, b, a, NULL, &out), COL_OK);
    assert_near(out.distance, 0.25, 1e-12);
    col_world_destroy(w);
}

/* A cache filled for other shapes is ignored; random pairs agree with the exact
 * overlap query (every backend) except within rounding of contact. */
static void test_random_agreement(void **state)
{
    (void)state;
    rng_seed(SEED, __func__);
    col_world *w = new_world();
    col_shape_id shapes[6];
    for (int i = 0; i < 6; i++) shapes[i] = i < 2 ? make_box(w, urange(0.2, 1), urange(0.2, 1), urange(0.2, 1)) : make_blob(w, 8 + 6 * i, urange(0.3, 1.0));
    col_distance_cache cache;
    memset(&cache, 0, sizeof cache);
    int hits = 0, n = 3000;
    for (int i = 0; i < n; i++) {
        col_shape_id sa = shapes[rng_next() % 6], sb = shapes[rng_next() % 6];
        col_transform pa = at(0, 0, 0), pb = at(urange(-1.1, 1.1), urange(-1.1, 1.1), urange(-1.1, 1.1));
        pa.q = random_quat();
        pb.q = random_quat();
        col_distance_input in = pair_in(sa, pa, sb, pb);
        col_distance_output out;
        assert_int_equal(col_distance(w, &in, &cache, &out), COL_OK); /* cache often from another pair */
        bool colliding;
        assert_int_equal(col_query_overlap(w, sa, pa, sb, pb, COL_BACKEND_REFERENCE, &colliding), COL_OK);
        bool vor;
        assert_int_equal(col_query_overlap(w, sa, pa, sb, pb, COL_BACKEND_VORONOI, &vor), COL_OK);
        assert_int_equal(vor, colliding);
        hits += colliding;
        if (out.outcome == COL_DISTANCE_TOUCHING) continue;
        assert_int_equal(out.outcome == COL_DISTANCE_PENETRATING, colliding);
        if (!colliding) {
            double dx = out.point_b.x - out.point_a.x, dy = out.point_b.y - out.point_a.y, dz = out.point_b.z - out.point_a.z;
            assert_near(sqrt(dx * dx + dy * dy + dz * dz), out.distance, 1e-12);
        } else {
            col_contact_input ci = contact_in(sa, pa, sb, pb, 0.0);
            col_contact_output c;
            assert_int_equal(col_contact(w, &ci, &cache, &c), COL_OK);
            assert_true(c.separation <= 1e-12);
            assert_true(c.point_count >= 1 && c.point_count <= COL_MAX_CONTACT_POINTS);
            assert_near(c.normal.x * c.normal.x + c.normal.y * c.normal.y + c.normal.z * c.normal.z, 1.0, 1e-12);
            /* pushing b along the normal by the depth (plus a hair) separates them */
            col_transform moved = pb;
            double push = -c.separation + 1e-9;
            moved.p.x += c.normal.x * push;
            moved.p.y += c.normal.y * push;
            moved.p.z += c.normal.z * push;
            assert_int_equal(col_query_overlap(w, sa, pa, sb, moved, COL_BACKEND_REFERENCE, &colliding), COL_OK);
            assert_false(colliding);
        }
    }
    print_message("distance: %d of %d random pairs colliding\n", hits, n);
    assert_true(hits > n * 3 / 10 && hits < n * 7 / 10);
    col_world_destroy(w);
}

/* ---- bad input ---- */

static void test_bad_input(void **state)
{
    (void)state;
    col_world *w = new_world();
    col_shape_id box = make_box(w, 1, 1, 1), gone = make_box(w, 2, 2, 2);
    assert_int_equal(col_shape_destroy(w, gone), COL_OK);
    col_body_def d = col_default_body_def();
    d.shape = box;
    col_body_id a, b, dead;
    assert_int_equal(col_body_create(w, &d, &a), COL_OK);
    d.pose = at(3, 0, 0);
    assert_int_equal(col_body_create(w, &d, &b), COL_OK);
    assert_int_equal(col_body_create(w, &d, &dead), COL_OK);
    assert_int_equal(col_body_destroy(w, dead), COL_OK);
    assert_int_equal(col_world_update(w), COL_OK);
    uint64_t h = col_world_hash(w);

    col_distance_output out;
    col_contact_output c;
    col_distance_cache cache;
    memset(&cache, 0, sizeof cache);
    col_distance_input ok = pair_in(box, at(0, 0, 0), box, at(3, 0, 0));
    col_contact_input cok = contact_in(box, at(0, 0, 0), box, at(3, 0, 0), 0.0);

    /* NULL arguments */
    assert_int_equal(col_distance(NULL, &ok, &cache, &out), COL_ERR_INVALID_ARGUMENT);
    assert_int_equal(col_distance(w, NULL, &cache, &out), COL_ERR_INVALID_ARGUMENT);
    assert_int_equal(col_distance(w, &ok, &cache, NULL), COL_ERR_INVALID_ARGUMENT);
    assert_int_equal(col_body_distance(w, a, b, &cache, NULL), COL_ERR_INVALID_ARGUMENT);
    assert_int_equal(col_contact(w, NULL, &cache, &c), COL_ERR_INVALID_ARGUMENT);
    assert_int_equal(col_contact(NULL, &cok, &cache, &c), COL_ERR_INVALID_ARGUMENT);
    assert_int_equal(col_body_contact(w, a, b, 0.0, &cache, NULL), COL_ERR_INVALID_ARGUMENT);

    /* stale and null ids */
    col_shape_id none = {0, 0, 0};
    col_distance_input in = ok;
    in.shape_b = gone;
    memset(&out, 0x5a, sizeof out);
    assert_int_equal(col_distance(w, &in, &cache, &out), COL_ERR_STALE_ID);
    assert_int_equal(out.outcome, 0);
    assert_true(out.distance == 0.0 && out.steps == 0);
    in = ok;
    in.shape_a = none;
    assert_int_equal(col_distance(w, &in, &cache, &out), COL_ERR_STALE_ID);
    assert_int_equal(col_body_distance(w, a, dead, &cache, &out), COL_ERR_STALE_ID);
    col_body_id null_body = {0, 0, 0};
    assert_int_equal(col_body_distance(w, null_body, b, &cache, &out), COL_ERR_STALE_ID);
    assert_int_equal(col_body_distance(w, a, a, &cache, &out), COL_ERR_SAME_BODY);
    assert_int_equal(col_body_contact(w, a, dead, 0.0, &cache, &c), COL_ERR_STALE_ID);
    assert_int_equal(col_body_contact(w, b, b, 0.0, &cache, &c), COL_ERR_SAME_BODY);
    col_contact_input ci = cok;
    ci.shape_a = gone;
    assert_int_equal(col_contact(w, &ci, &cache, &c), COL_ERR_STALE_ID);

    /* NaN, infinite and huge coordinates, bad quaternions */
    double bad[4] = {NAN, INFINITY, -INFINITY, 1e300};
    for (int k = 0; k < 4; k++) {
        in = ok;
        in.pose_b.p.y = bad[k];
        assert_int_equal(col_distance(w, &in, &cache, &out), COL_ERR_NOT_FINITE);
        in = ok;
        in.pose_a.q.x = bad[k];
        col_status st = col_distance(w, &in, &cache, &out);
        assert_true(st == COL_ERR_NOT_FINITE || st == COL_ERR_BAD_QUATERNION);
        ci = cok;
        ci.pose_a.p.z = bad[k];
        assert_int_equal(col_contact(w, &ci, &cache, &c), COL_ERR_NOT_FINITE);
    }
    in = ok;
    in.pose_b.q.w = 0.5;
    assert_int_equal(col_distance(w, &in, &cache, &out), COL_ERR_BAD_QUATERNION);
    in.pose_b.q.w = 0.0;
    assert_int_equal(col_distance(w, &in, &cache, &out), COL_ERR_BAD_QUATERNION);

    /* bad margins */
    double margins[3] = {-1.0, NAN, INFINITY};
    for (int k = 0; k < 3; k++) {
        ci = cok;
        ci.margin = margins[k];
        memset(&c, 0x5a, sizeof c);
        assert_int_equal(col_contact(w, &ci, &cache, &c), COL_ERR_INVALID_ARGUMENT);
        assert_int_equal(c.point_count, 0);
        assert_int_equal(col_body_contact(w, a, b, margins[k], &cache, &c), COL_ERR_INVALID_ARGUMENT);
    }

    /* a garbage cache (its shapes match, its features are out of range) is harmless */
    cache.shape_a = box;
    cache.shape_b = box;
    cache.feature_a.type = COL_FEATURE_EDGE;
    cache.feature_a.index = 123456;
    cache.feature_b.type = (col_feature_type)7;
    cache.feature_b.index = -5;
    assert_int_equal(col_distance(w, &ok, &cache, &out), COL_OK);
    assert_near(out.distance, 1.0, 1e-12);

    assert_int_equal(col_world_hash(w), h);
    assert_true(strlen(col_world_last_error(w)) > 0);
    col_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_boxes_separated),
        cmocka_unit_test(test_touching_and_overlapping_boxes),
        cmocka_unit_test(test_issue13_aligned_overlap_is_penetrating),
        cmocka_unit_test(test_body_queries),
        cmocka_unit_test(test_random_agreement),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
