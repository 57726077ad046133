/* SPDX-License-Identifier: MIT */
/* Batch pose calls (col_body_set_poses, col_body_set_poses_fn, lib/body_poses.c): the
 * same world as single col_body_set_pose calls for 1, 2 and 3 workers, all or nothing on
 * a bad item with the lowest failing item named, each pose function index evaluated
 * once, argument errors, and no allocation once the batch buffer has its size. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colibri/colibri.h"
#include "tests/test_util.h"

/* Bodies per world: above the batch's 512-item serial cutoff, so several workers share
 * the checks. */
enum { NB = 1500 };

static col_world *make_world(int workers, counting_alloc *ca)
{
    col_world_def def = col_default_world_def();
    def.worker_count = workers;
    if (ca != NULL) def.allocator = counting_hooks(ca);
    col_world *w = NULL;
    assert_int_equal(col_world_create(&def, &w), COL_OK);
    return w;
}

/* A world of NB small boxes in a cube where a few hundred pairs touch. */
static col_shape_id populate(col_world *w, col_body_id *ids)
{
    col_vec3 p[8];
    for (int i = 0; i < 8; i++)
        p[i] = col_vec3_make(i & 1 ? 0.5 : -0.5, i & 2 ? 0.3 : -0.3, i & 4 ? 0.2 : -0.2);
    col_shape_id s;
    assert_int_equal(col_shape_create_convex(w, p, 8, &s), COL_OK);
    for (int b = 0; b < NB; b++) {
        col_body_def d = col_default_body_def();
        d.shape = s;
        d.pose.p = col_vec3_make(b % 15, (b / 15) % 10, b / 150);
        assert_int_equal(col_body_create(w, &d, &ids[b]), COL_OK);
    }
    return s;
}

/* Pose of body b at frame f: a closed form, so worlds can be fed the same motion. */
static col_transform motion(int b, int f)
{
    double t = 0.07 * f + 0.37 * b;
    col_transform x = col_transform_identity();
    x.p = col_vec3_make(1.1 * (b % 15) + sin(t), 1.1 * ((b / 15) % 10) + 0.5 * cos(1.3 * t),
                        1.1 * (b / 150) + 0.5 * sin(0.7 * t));
    double a = 0.2 * f + b, s = sin(a / 2) / sqrt(3.0);
    x.q = (col_quat){s, s, s, cos(a / 2)};
    return x;
}

typedef struct motion_ctx {
    int frame;
    atomic_int *calls; /* per index, or NULL */
} motion_ctx;

static col_transform motion_fn(int index, void *ctx)
{
    const motion_ctx *m = ctx;
    if (m->calls != NULL) atomic_fetch_add(&m->calls[index], 1);
    return motion(index, m->frame);
}

static void same_events(col_world *a, col_world *b)
{
    col_pair_events ea = col_world_get_pair_events(a), eb = col_world_get_pair_events(b);
    assert_int_equal(ea.pair_count, eb.pair_count);
    assert_int_equal(ea.began_count, eb.began_count);
    assert_int_equal(ea.ended_count, eb.ended_count);
    assert_true(same_pair_lists(ea.pairs, eb.pairs, ea.pair_count));
    assert_true(same_pair_lists(ea.began, eb.began, ea.began_count));
    assert_true(same_pair_lists(ea.ended, eb.ended, ea.ended_count));
    assert_true(col_world_hash(a) == col_world_hash(b));
}

/* Single calls on one worker against the two batch calls on 1, 2 and 3 workers; every
 * fourth frame the batch also names some bodies twice (the last pose counts). */
static void test_batch_equals_single_calls(void **state)
{
    (void)state;
    static col_body_id ids_ref[NB], ids[NB], twice[NB + 64];
    static col_transform poses[NB + 64];
    for (int workers = 1; workers <= 3; workers++) {
        col_world *ref = make_world(1, NULL), *w = make_world(workers, NULL);
        populate(ref, ids_ref);
        populate(w, ids);
        long pairs = 0;
        for (int f = 0; f < 40; f++) {
            for (int b = 0; b < NB; b++) assert_int_equal(col_body_set_pose(ref, ids_ref[b], motion(b, f)), COL_OK);
            if (f % 4 == 3) {
                /* 64 bodies first get a wrong pose, then their right one at the end */
                for (int k = 0; k < 64; k++) {
                    twice[k] = ids[(k * 23) % NB];
                    poses[k] = motion((k * 23) % NB, f + 50);
                }
                for (int b = 0; b < NB; b++) {
                    twice[64 + b] = ids[b];
                    poses[64 + b] = motion(b, f);
                }
                assert_int_equal(col_body_set_poses(w, twice, poses, NB + 64), COL_OK);
            } else if (f % 2 == 0) {
                for (int b = 0; b < NB; b++) poses[b] = motion(b, f);
                assert_int_equal(col_body_set_poses(w, ids, poses, NB), COL_OK);
            } else {
                motion_ctx m = {f, NULL};
                assert_int_equal(col_body_set_poses_fn(w, ids, NB, motion_fn, &m), COL_OK);
            }
            assert_int_equal(col_world_update(ref), COL_OK);
            assert_int_equal(col_world_update(w), COL_OK);
            same_events(ref, w);
            pairs += col_world_get_pair_events(w).pair_count;
        }
        print_message("%d workers: 40 frames, %ld colliding pairs, same as single calls\n", workers, pairs);
        assert_true(pairs > 40);
        col_world_destroy(ref);
        col_world_destroy(w);
    }
}

/* The pose function runs once per index, whatever the worker count. */
static void test_fn_called_once_per_index(void **state)
{
    (void)state;
    static col_body_id ids[NB];
    static atomic_int calls[NB];
    for (int workers = 1; workers <= 3; workers++) {
        col_world *w = make_world(workers, NULL);
        populate(w, ids);
        for (int b = 0; b < NB; b++) atomic_store(&calls[b], 0);
        motion_ctx m = {3, calls};
        assert_int_equal(col_body_set_poses_fn(w, ids, NB, motion_fn, &m), COL_OK);
        for (int b = 0; b < NB; b++) assert_int_equal(atomic_load(&calls[b]), 1);
        col_transform got;
        assert_int_equal(col_body_get_pose(w, ids[777], &got), COL_OK);
        col_transform want = motion(777, 3);
        assert_memory_equal(&got, &want, sizeof got);
        col_world_destroy(w);
    }
}

static col_transform array_fn(int index, void *ctx) { return ((const col_transform *)ctx)[index]; }

/* A bad item anywhere: the call fails with that item's error, names the lowest bad item,
 * and leaves every pose, the hash and the next update's pairs as they were. */
static void test_all_or_nothing(void **state)
{
    (void)state;
    static col_body_id ids[NB], gone;
    static col_transform poses[NB];
    rng_seed(20261122, __func__);
    col_world *w = make_world(2, NULL);
    col_shape_id shape = populate(w, ids);
    for (int b = 0; b < NB; b++) assert_int_equal(col_body_set_pose(w, ids[b], motion(b, 0)), COL_OK);
    assert_int_equal(col_world_update(w), COL_OK);
    /* a removed body's id for the stale-id case */
    col_body_def d = col_default_body_def();
    d.shape = shape;
    assert_int_equal(col_body_create(w, &d, &gone), COL_OK);
    assert_int_equal(col_body_destroy(w, gone), COL_OK);
    assert_int_equal(col_world_update(w), COL_OK);
    uint64_t hash = col_world_hash(w);
    int pair_count = col_world_get_pair_events(w).pair_count;

    static const char *kinds[] = {"nan", "inf", "far", "quat", "stale"};
    for (int round = 0; round < 20; round++) {
        int kind = round % 5;
        int bad = (int)(rng_next() % NB), bad2 = bad + 1 + (int)(rng_next() % 50);
        col_body_id batch_ids[NB];
        memcpy(batch_ids, ids, sizeof batch_ids);
        for (int b = 0; b < NB; b++) poses[b] = motion(b, 1 + round);
        for (int k = 0; k < 2; k++) {
            int at = k == 0 ? bad : bad2;
            if (at >= NB) continue;
            switch (kind) {
            case 0: poses[at].p.y = NAN; break;
            case 1: poses[at].q.x = INFINITY; break;
            case 2: poses[at].p.z = 2 * COL_MAX_COORD; break;
            case 3: poses[at].q = (col_quat){0, 0, 0, 2}; break;
            default: batch_ids[at] = gone; break;
            }
        }
        col_status want = kind == 4 ? COL_ERR_STALE_ID : kind == 3 ? COL_ERR_BAD_QUATERNION : COL_ERR_NOT_FINITE;
        col_status st = round % 2 == 0 ? col_body_set_poses(w, batch_ids, poses, NB)
                                       : col_body_set_poses_fn(w, batch_ids, NB, array_fn, poses);
        assert_int_equal(st, want);
        char item[32];
        snprintf(item, sizeof item, "(item %d)", bad);
        const char *msg = col_world_last_error(w);
        if (strstr(msg, item) == NULL) fail_msg("%s at %d: message \"%s\" lacks \"%s\"", kinds[kind], bad, msg, item);
        assert_true(col_world_hash(w) == hash);
        col_transform got;
        assert_int_equal(col_body_get_pose(w, ids[bad == 0 ? 1 : 0], &got), COL_OK);
        col_transform was = motion(bad == 0 ? 1 : 0, 0);
        assert_memory_equal(&got.p, &was.p, sizeof got.p);
    }
    /* nothing moved: the update finds the same pairs */
    assert_int_equal(col_world_update(w), COL_OK);
    assert_int_equal(col_world_get_pair_events(w).pair_count, pair_count);
    assert_int_equal(col_world_get_pair_events(w).began_count, 0);
    col_world_destroy(w);
}

static col_transform identity_fn(int index, void *ctx)
{
    (void)index;
    (void)ctx;
    return col_transform_identity();
}

static void test_argument_errors(void **state)
{
    (void)state;
    static col_body_id ids[NB];
    col_world *w = make_world(1, NULL);
    populate(w, ids);
    col_transform t = col_transform_identity();
    assert_int_equal(col_body_set_poses(NULL, ids, &t, 1), COL_ERR_INVALID_ARGUMENT);
    assert_int_equal(col_body_set_poses(w, ids, &t, -1), COL_ERR_INVALID_ARGUMENT);
    assert_int_equal(col_body_set_poses(w, NULL, &t, 1), COL_ERR_INVALID_ARGUMENT);
    assert_int_equal(col_body_set_poses(w, ids, NULL, 1), COL_ERR_INVALID_ARGUMENT);
    assert_int_equal(col_body_set_poses_fn(w, ids, 1, NULL, NULL), COL_ERR_INVALID_ARGUMENT);
    assert_int_equal(col_body_set_poses_fn(NULL, ids, 1, identity_fn, NULL), COL_ERR_INVALID_ARGUMENT);
    /* an empty batch is a no-op, even with NULL arrays */
    assert_int_equal(col_body_set_poses(w, NULL, NULL, 0), COL_OK);
    assert_int_equal(col_body_set_poses_fn(w, NULL, 0, NULL, NULL), COL_OK);
    col_world_destroy(w);
}

/* Once the world has a buffer for the largest batch, batches allocate nothing (with the
 * world's updates, docs/architecture.md, "Determinism and memory": a warm frame never allocates). */
static void test_no_allocation_after_warmup(void **state)
{
    (void)state;
    static col_body_id ids[NB];
    for (int workers = 1; workers <= 2; workers++) {
        counting_alloc ca = {0};
        col_world *w = make_world(workers, &ca);
        populate(w, ids);
        for (int f = 0; f < 30; f++) {
            motion_ctx m = {f, NULL};
            assert_int_equal(col_body_set_poses_fn(w, ids, NB, motion_fn, &m), COL_OK);
            assert_int_equal(col_world_update(w), COL_OK);
        }
        long before = ca.calls;
        for (int f = 30; f < 60; f++) {
            motion_ctx m = {f, NULL};
            assert_int_equal(col_body_set_poses_fn(w, ids, f % 2 ? NB : NB / 2, motion_fn, &m), COL_OK);
            assert_int_equal(col_world_update(w), COL_OK);
        }
        print_message("%d workers: %ld allocator calls in 30 warm frames\n", workers, ca.calls - before);
        assert_int_equal(ca.calls, before);
        col_world_destroy(w);
    }
}

/* ---- pose helpers of vecmath.h (issue 21) ---- */

/* R(q) v, written out as q v q* (the definition in vecmath.h), independently of the
 * library's matrix. */
static col_vec3 rotate(col_quat q, col_vec3 v)
{
    col_quat p = {v.x, v.y, v.z, 0.0}, c = {-q.x, -q.y, -q.z, q.w};
    col_quat r = col_quat_mul(col_quat_mul(q, p), c);
    return col_vec3_make(r.x, r.y, r.z);
}

static void near3(col_vec3 a, col_vec3 b, double tol)
{
    if (!(fabs(a.x - b.x) <= tol && fabs(a.y - b.y) <= tol && fabs(a.z - b.z) <= tol))
        fail_msg("(%.17g, %.17g, %.17g) vs (%.17g, %.17g, %.17g)", a.x, a.y, a.z, b.x, b.y, b.z);
}

/* The quaternion check's answers at the edge of rounding (lib/world.c skips the square
 * root for quaternions unit to rounding): with the default tolerance a length 2 ulps off
 * 1 is accepted and kept bit for bit, through single and batch calls; with tolerance 0
 * only a length that is exactly 1 passes, so the same quaternion is refused. */
static void test_quaternion_near_unit(void **state)
{
    (void)state;
    const double w_near = 1.0 + 2 * DBL_EPSILON; /* |q|^2 = 1 + 4 ulps, |q| = 1 + 2 ulps */
    for (int tol0 = 0; tol0 < 2; tol0++) {
        col_world_def def = col_default_world_def();
        if (tol0) def.quaternion_tolerance = 0.0;
        col_world *w = NULL;
        assert_int_equal(col_world_create(&def, &w), COL_OK);
        col_vec3 p[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
        col_shape_id s;
        assert_int_equal(col_shape_create_convex(w, p, 4, &s), COL_OK);
        col_body_def d = col_default_body_def();
        d.shape = s;
        col_body_id b;
        assert_int_equal(col_body_create(w, &d, &b), COL_OK);
        col_transform t = col_transform_identity();
        t.q.w = w_near;
        col_status want = tol0 ? COL_ERR_BAD_QUATERNION : COL_OK;
        assert_int_equal(col_body_set_pose(w, b, t), want);
        assert_int_equal(col_body_set_poses(w, &b, &t, 1), want);
        col_transform got;
        assert_int_equal(col_body_get_pose(w, b, &got), COL_OK);
        assert_true(got.q.w == (tol0 ? 1.0 : w_near));
        t.q.w = 1.0; /* exactly unit: passes any tolerance */
        assert_int_equal(col_body_set_pose(w, b, t), COL_OK);
        col_world_destroy(w);
    }
}

static void test_axis_angle(void **state)
{
    (void)state;
    const double h = 1.57079632679489661923; /* pi / 2 */
    /* right-handed quarter turns: x to y about z, y to z about x, z to x about y; the
     * axis need not be unit, and huge or subnormal axes give the unit axis's answer */
    near3(rotate(col_quat_from_axis_angle(col_vec3_make(0, 0, 5), h), col_vec3_make(1, 0, 0)), col_vec3_make(0, 1, 0), 1e-15);
    near3(rotate(col_quat_from_axis_angle(col_vec3_make(1e-310, 0, 0), h), col_vec3_make(0, 1, 0)), col_vec3_make(0, 0, 1), 1e-15);
    near3(rotate(col_quat_from_axis_angle(col_vec3_make(0, 1e300, 0), h), col_vec3_make(0, 0, 1)), col_vec3_make(1, 0, 0), 1e-15);
    col_quat z = col_quat_from_axis_angle(col_vec3_make(0, 0, 1), h);
    assert_true(z.x == 0.0 && z.y == 0.0 && fabs(z.z - sqrt(0.5)) <= 2.3e-16 && fabs(z.w - sqrt(0.5)) <= 2.3e-16);
    col_quat id = col_quat_from_axis_angle(col_vec3_make(3, -4, 12), 0.0);
    assert_true(id.x == 0.0 && id.y == 0.0 && id.z == 0.0 && id.w == 1.0);

    /* random axes and angles (fixed seed): unit, the axis stays put, and turning by a
     * then by b about one axis is turning by a + b */
    rng_seed(0x21a5e1ULL, "test_axis_angle");
    for (int i = 0; i < 1000; i++) {
        col_vec3 u = col_vec3_make(urange(-1, 1), urange(-1, 1), urange(-1, 1));
        double a = urange(-7, 7), b = urange(-7, 7);
        col_quat qa = col_quat_from_axis_angle(u, a), qb = col_quat_from_axis_angle(u, b);
        double n = sqrt(qa.x * qa.x + qa.y * qa.y + qa.z * qa.z + qa.w * qa.w);
        assert_true(fabs(n - 1.0) <= 4e-16);
        double len = sqrt(u.x * u.x + u.y * u.y + u.z * u.z);
        near3(rotate(qa, u), u, 1e-15 * (1 + len));
        col_quat ab = col_quat_mul(qb, qa), sum = col_quat_from_axis_angle(u, a + b);
        double d = fabs(ab.x - sum.x) + fabs(ab.y - sum.y) + fabs(ab.z - sum.z) + fabs(ab.w - sum.w);
        assert_true(d <= 1e-14);
    }

    /* nothing to rotate about: NaNs, which a pose check refuses */
    col_world *w = make_world(1, NULL);
    col_shape_id s;
    assert_int_equal(col_shape_create_sphere(w, 1.0, &s), COL_OK);
    col_body_def bd = col_default_body_def();
    bd.shape = s;
    col_body_id body;
    assert_int_equal(col_body_create(w, &bd, &body), COL_OK);
    const col_vec3 axes[] = {{0, 0, 0}, {NAN, 0, 1}, {0, INFINITY, 0}, {1, 0, -INFINITY}, {0, 0, 1}, {0, 0, 1}};
    const double angles[] = {1.0, 1.0, 1.0, 1.0, NAN, INFINITY};
    for (int k = 0; k < 6; k++) {
        col_quat q = col_quat_from_axis_angle(axes[k], angles[k]);
        assert_true(isnan(q.x) && isnan(q.y) && isnan(q.z) && isnan(q.w));
        col_transform t = {{0, 0, 0}, q};
        assert_int_equal(col_body_set_pose(w, body, t), COL_ERR_NOT_FINITE);
    }
    col_world_destroy(w);
}

/* OpenXR's pose layout (XrPosef: orientation x, y, z, w, then position), restated here
 * so that the test needs no OpenXR headers. */
typedef struct xr_posef {
    struct { float x, y, z, w; } orientation;
    struct { float x, y, z; } position;
} xr_posef;

static void test_pose_from_floats(void **state)
{
    (void)state;
    /* a quarter turn about z, as an OpenXR runtime hands it (floats, scalar last) */
    xr_posef xr = {{0.0f, 0.0f, 0.70710677f, 0.70710677f}, {0.25f, -1.5f, 3.0f}};
    col_transform t = col_transform_from_floats(&xr.position.x, &xr.orientation.x);
    assert_true(t.p.x == 0.25 && t.p.y == -1.5 && t.p.z == 3.0);
    assert_true(t.q.x == 0.0 && t.q.y == 0.0 && t.q.z == (double)0.70710677f && t.q.w == (double)0.70710677f);
    const float v[3] = {1e-40f, -3.4e38f, 0.1f};
    col_vec3 d = col_vec3_from_floats(v);
    assert_true(d.x == (double)v[0] && d.y == (double)v[1] && d.z == (double)v[2]);

    /* through a world: a rod along x, turned by that pose, lies along y, so it reaches a
     * ball on the y axis and misses one on the x axis (read w first, the quaternion
     * would be a half turn that leaves the rod along x) */
    col_world_def def = col_default_world_def();
    def.worker_count = 1;
    col_world *w = NULL;
    assert_int_equal(col_world_create(&def, &w), COL_OK);
    col_shape_id rod, ball;
    assert_int_equal(col_shape_create_box(w, col_vec3_make(2.0, 0.1, 0.1), &rod), COL_OK);
    assert_int_equal(col_shape_create_sphere(w, 0.2, &ball), COL_OK);
    col_body_def bd = col_default_body_def();
    bd.shape = rod;
    col_body_id r;
    assert_int_equal(col_body_create(w, &bd, &r), COL_OK);
    assert_int_equal(col_body_set_pose(w, r, t), COL_OK);
    bd.shape = ball;
    bd.pose = col_transform_identity();
    bd.pose.p = col_vec3_make(0.25, -1.5 + 1.9, 3.0);
    col_body_id on_y, on_x;
    assert_int_equal(col_body_create(w, &bd, &on_y), COL_OK);
    bd.pose.p = col_vec3_make(0.25 + 1.9, -1.5, 3.0);
    assert_int_equal(col_body_create(w, &bd, &on_x), COL_OK);
    assert_int_equal(col_world_update(w), COL_OK);
    col_pair_events ev = col_world_get_pair_events(w);
    assert_int_equal(ev.pair_count, 1);
    assert_true(col_body_id_equals(ev.pairs[0].a, r) && col_body_id_equals(ev.pairs[0].b, on_y));
    col_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_batch_equals_single_calls),
        cmocka_unit_test(test_fn_called_once_per_index),
        cmocka_unit_test(test_all_or_nothing),
        cmocka_unit_test(test_argument_errors),
        cmocka_unit_test(test_no_allocation_after_warmup),
        cmocka_unit_test(test_quaternion_near_unit),
        cmocka_unit_test(test_axis_angle),
        cmocka_unit_test(test_pose_from_floats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
