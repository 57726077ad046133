/* SPDX-License-Identifier: MIT */
/* Tests of inter-frame collision (ccd/lpip_sweep.c, lib/interframe.c):
 * - pure translation with known answers (exact): a cube passing through another, passing
 *   beside it at a gap of 0 and +-1e-9, two bodies crossing one point at different times
 *   (separate sweeps would report it; the relative sweep must not), random translations
 *   against GLPK's exact LP on the swept points, the partial extension (eq. 35) against
 *   the full one;
 * - rotation: conservative against 1000 sub-steps of the model motion with the exact
 *   reference, and the bound's size;
 * - the public query's statuses and the world option's list (superset of pairs, sorted,
 *   tunnelling caught, filters);
 * - the public query (ccd/swept.h: the time of impact decides) on every kind of shape pair
 *   (hulls, spheres, capsules, compounds, meshes) against the substep-and-bisect reference
 *   of the time-of-impact tests (tests/ccd_ref.h), and the world option's list equal to
 *   the query's answers;
 * - the scene `fast` (the standard scene's options, made by the build with our generator,
 *   docs/scenes.md): for its first frames, every pair the world option does
 *   NOT report between frames f and f+1 is sub-stepped 100 times per frame along the
 *   scene's true motion (docs/scenes.md) with the exact reference backend (after an AABB
 *   prefilter) and must never touch. Frames where one of the two bodies bounces off a
 *   wall are outside what the world can know (it sees two poses); there the test splits
 *   the frame at the bounce and checks the split sweeps instead, and prints how many such
 *   pairs the unsplit test would miss. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/scene.h"
#include "broadphase/sap.h"
#include "ccd/lpip_sweep.h"
#include "colibri/colibri.h"
#include "lib/core/alloc.h"
#include "lib/core/hull.h"
#include "lib/core/vec.h"
#include "lib/world.h"
#include "narrowphase/backend.h"
#include "tests/hull_fixtures.h"
#include "tests/ccd_ref.h"
#include "tests/oracle_lp.h"
#include "test_scenes.h"

#define SEED UINT64_C(0x5eed1f0a7e5c0d05)
#define SUBSTEPS 100
#define SCENE_FRAMES 30
#define MAX_PTS 256

/* ---- helpers (hull setup and random draws: tests/hull_fixtures.h) ---- */

/* Hamilton product (Colibri's {x, y, z, w} order). */
/* The model motion at time t in [0, 1]: p0 + t v, rotation by t |w| about w (world). */
static col_xform model_pose(col_vec3 p0, col_vec3 v, col_quat q0, col_vec3 w, double t)
{
    double wl = col_len(w);
    col_quat dq = {0.0, 0.0, 0.0, 1.0};
    if (wl > 0.0) {
        double s = sin(0.5 * wl * t) / wl;
        dq.x = w.x * s;
        dq.y = w.y * s;
        dq.z = w.z * s;
        dq.w = cos(0.5 * wl * t);
    }
    return pose(col_add(p0, col_scale(v, t)), col_quat_mul(dq, q0));
}

static col_lpip_sweep_result sweep(const col_hull *a, const col_xform *xa0, const col_xform *xa1, const col_hull *b,
                                   const col_xform *xb0, const col_xform *xb1, bool partial)
{
    col_np_scratch s;
    s.size = col_lpip_sweep_scratch_bytes(a, b);
    s.mem = malloc(s.size);
    assert_non_null(s.mem);
    col_lpip_sweep_result r;
    col_lpip_sweep(a, xa0, xa1, b, xb0, xb1, partial, &s, &r);
    free(s.mem);
    return r;
}

static bool reference_overlap(const col_hull *a, const col_xform *xa, const col_hull *b, const col_xform *xb,
                              col_np_scratch *s)
{
    col_np_result r;
    col_np_reference.query(NULL, a, NULL, xa, b, NULL, xb, s, &r);
    return r.colliding;
}

/* ---- pure translation: exact ---- */

static void test_translation_known(void **state)
{
    (void)state;
    col_hull c;
    build_box(1.0, 1.0, 1.0, &c);
    col_xform a = pose(col_v3(0, 0, 0), Q_ID);
    /* Straight through: the end poses are far apart, the sweep is not. */
    col_xform b0 = pose(col_v3(5, 0.5, 0), Q_ID), b1 = pose(col_v3(-5, 0.5, 0), Q_ID);
    for (int partial = 0; partial < 2; partial++) {
        col_lpip_sweep_result r = sweep(&c, &a, &a, &c, &b0, &b1, partial);
        assert_true(r.may_touch && r.exact && !r.undecided);
        assert_true(r.inflation == 0.0);
    }
    /* Beside it: offset 2 touches (closed sets), 2 + 1e-9 misses, 2 - 1e-9 touches,
     * and so on at larger margins. */
    const double offs[7] = {2.0, 2.0 + 1e-9, 2.0 - 1e-9, 2.0 + 1e-6, 2.0 - 1e-6, 2.1, 1.9};
    const bool want[7] = {true, false, true, false, true, false, true};
    for (int k = 0; k < 7; k++)
        for (int partial = 0; partial < 2; partial++) {
            b0 = pose(col_v3(5, offs[k], 0.3), Q_ID);
            b1 = pose(col_v3(-5, offs[k], 0.3), Q_ID);
            col_lpip_sweep_result r = sweep(&c, &a, &a, &c, &b0, &b1, partial);
            assert_int_equal(r.may_touch, want[k]);
            /* Within ~1e-9 of touching the solver may not certify a contact and answers
             * "may touch" as undecided (exact false): the right answer, conservatively;
             * farther out every answer is certified. */
            assert_true(r.exact || ((k == 0 || k == 2) && r.undecided));
        }
    /* Both moving, crossing the origin at different times: relative to A, B stays
     * outside |x| <= 2 while |y| <= 2 and vice versa (x meets at t in [0.3, 0.7], y at
     * [23/30, 27/30]); sweeping each body separately would report a contact. */
    col_xform a0 = pose(col_v3(-5, 0, 0), Q_ID), a1 = pose(col_v3(5, 0, 0), Q_ID);
    b0 = pose(col_v3(0, -25, 0), Q_ID);
    b1 = pose(col_v3(0, 5, 0), Q_ID);
    col_lpip_sweep_result r = sweep(&c, &a0, &a1, &c, &b0, &b1, true);
    assert_true(r.exact);
    assert_false(r.may_touch);
    /* Whereas with B arriving earlier (y meets at [0.65, 0.85]) they do touch. */
    b0 = pose(col_v3(0, -15, 0), Q_ID);
    r = sweep(&c, &a0, &a1, &c, &b0, &b1, true);
    assert_true(r.exact && r.may_touch);
    /* No relative motion at all (both translate together): a static test. */
    b0 = pose(col_v3(-5, 2.5, 0), Q_ID);
    b1 = pose(col_v3(5, 2.5, 0), Q_ID);
    r = sweep(&c, &a0, &a1, &c, &b0, &b1, true);
    assert_true(r.exact && !r.may_touch);
    col_hull_free(&g_alloc, &c);
}

/* Random translations of random hulls: the swept answer equals GLPK's exact LP on A's
 * vertices and B's at both ends (in A's frame) except within 1e-9 x size of touching,
 * and the partial extension answers like the full one. */
static void test_translation_random(void **state)
{
    (void)state;
    col_hull a, b;
    build_blob(40, 1.0, 0.6, 0.8, &a);
    build_blob(30, 0.7, 0.9, 0.3, &b);
    int hits = 0, n = 400, near = 0, fewer = 0;
    static col_vec3 A[MAX_PTS], S[2 * MAX_PTS];
    for (int i = 0; i < n; i++) {
        col_quat qa = rand_quat(), qb = rand_quat();
        col_xform a0 = pose(col_scale(rand_unit(), urange(0, 2)), qa);
        col_xform a1 = pose(col_add(a0.p, col_scale(rand_unit(), urange(0, 3))), qa);
        col_xform b0 = pose(col_add(a0.p, col_scale(rand_unit(), urange(1.5, 4))), qb);
        col_vec3 dir = col_add(col_scale(col_sub(a1.p, b0.p), 1.0 / col_len(col_sub(a1.p, b0.p))),
                               col_scale(rand_unit(), 0.7));
        col_xform b1 = pose(col_add(b0.p, col_scale(dir, urange(0, 4))), qb);
        col_lpip_sweep_result rf = sweep(&a, &a0, &a1, &b, &b0, &b1, false);
        col_lpip_sweep_result rp = sweep(&a, &a0, &a1, &b, &b0, &b1, true);
        assert_true(rf.exact && rp.exact);
        fewer += rp.points < rf.points;
        /* The oracle, in A's frame (A's points local, B's at both poses). */
        for (int k = 0; k < a.vertex_count; k++) A[k] = a.vertices[k];
        int ns = 0;
        for (int k = 0; k < b.vertex_count; k++) {
            S[ns++] = col_mat3_tmul(&a0.R, col_sub(col_xform_point(&b0, b.vertices[k]), a0.p));
            S[ns++] = col_mat3_tmul(&a1.R, col_sub(col_xform_point(&b1, b.vertices[k]), a1.p));
        }
        int o = col_oracle_intersect(A, a.vertex_count, S, ns);
        assert_true(o == 0 || o == 1);
        hits += o;
        if (rf.may_touch != o || rp.may_touch != o) {
            double m = col_oracle_margin(A, a.vertex_count, S, ns);
            assert_true(fabs(m) <= 1e-9);
            near++;
        }
    }
    printf("  random translations: %d of %d touch; %d near-touching disagreements; partial used fewer points in %d\n",
           hits, n, near, fewer);
    assert_true(hits > n / 5 && hits < 4 * n / 5);
    assert_true(fewer > n / 2);
    col_hull_free(&g_alloc, &a);
    col_hull_free(&g_alloc, &b);
}

/* ---- rotation: conservative ---- */

static void test_rotation_conservative(void **state)
{
    (void)state;
    col_hull a, b;
    build_blob(30, 1.0, 0.4, 0.7, &a);
    build_blob(30, 1.2, 0.3, 0.3, &b);
    col_np_scratch s;
    s.size = col_np_scratch_bytes(&col_np_reference, &a, &b);
    s.mem = malloc(s.size);
    assert_non_null(s.mem);
    int n = 300, touched = 0, reported = 0, inexact = 0;
    for (int i = 0; i < n; i++) {
        col_quat qa = rand_quat(), qb = rand_quat();
        col_vec3 pa = col_v3(0, 0, 0), va = col_scale(rand_unit(), urange(0, 1.5));
        col_vec3 wa = i % 3 == 0 ? col_v3(0, 0, 0) : col_scale(rand_unit(), urange(0, 2.8));
        col_vec3 pb = col_scale(rand_unit(), urange(1.0, 3.5)), vb = col_scale(rand_unit(), urange(0, 2.5));
        col_vec3 wb = col_scale(rand_unit(), urange(0, 2.8));
        bool hit = false;
        for (int k = 0; k <= 1000 && !hit; k++) {
            double t = k / 1000.0;
            col_xform xa = model_pose(pa, va, qa, wa, t), xb = model_pose(pb, vb, qb, wb, t);
            hit = reference_overlap(&a, &xa, &b, &xb, &s);
        }
        col_xform a0 = model_pose(pa, va, qa, wa, 0), a1 = model_pose(pa, va, qa, wa, 1);
        col_xform b0 = model_pose(pb, vb, qb, wb, 0), b1 = model_pose(pb, vb, qb, wb, 1);
        col_lpip_sweep_result r = sweep(&a, &a0, &a1, &b, &b0, &b1, true);
        assert_false(r.exact);
        assert_true(r.inflation > 0.0);
        if (hit) assert_true(r.may_touch);
        touched += hit;
        reported += r.may_touch;
        inexact += r.may_touch && !hit;
    }
    printf("  rotation: %d of %d touched (1000 sub-steps); %d reported, %d of them conservatively\n", touched,
           n, reported, inexact);
    assert_true(touched > n / 10);
    free(s.mem);
    col_hull_free(&g_alloc, &a);
    col_hull_free(&g_alloc, &b);
}

/* The rotation angle recovered from two orientations by col_lpip_angle_bound is never
 * below the true one (the bulge bound r theta^2 / 8 rests on it) and close above it. */
static void test_angle_bound(void **state)
{
    (void)state;
    for (int i = 0; i < 200; i++) {
        double th = urange(0, 3.14);
        col_vec3 u = rand_unit();
        col_quat q0 = rand_quat();
        col_quat dq = {u.x * sin(0.5 * th), u.y * sin(0.5 * th), u.z * sin(0.5 * th), cos(0.5 * th)};
        col_xform x0 = pose(col_v3(0, 0, 0), q0), x1 = pose(col_v3(0, 0, 0), col_quat_mul(dq, q0));
        double b = col_lpip_angle_bound(&x0.R, &x1.R);
        assert_true(b >= th);
        assert_true(b <= 1.7 * th + 1e-12);
        if (th < 0.6) assert_true(b <= th * 1.07 + 1e-12);
    }
    col_xform x = pose(col_v3(1, 2, 3), rand_quat());
    assert_true(col_lpip_angle_bound(&x.R, &x.R) == 0.0);
}

/* ---- the public query and the world option ---- */

static col_shape_id make_cube(col_world *w, double h)
{
    col_vec3 p[8];
    for (int i = 0; i < 8; i++) p[i] = col_v3(i & 1 ? h : -h, i & 2 ? h : -h, i & 4 ? h : -h);
    col_shape_id s;
    assert_int_equal(col_shape_create_convex(w, p, 8, &s), COL_OK);
    return s;
}

static col_body_id make_body(col_world *w, col_shape_id s, col_vec3 p, bool is_static)
{
    col_body_def d = col_default_body_def();
    d.shape = s;
    d.pose.p = p;
    d.pose.q = Q_ID;
    d.is_static = is_static;
    col_body_id id;
    assert_int_equal(col_body_create(w, &d, &id), COL_OK);
    return id;
}

static void move(col_world *w, col_body_id id, col_vec3 p, col_quat q)
{
    col_transform t;
    t.p = p;
    t.q = q;
    assert_int_equal(col_body_set_pose(w, id, t), COL_OK);
}

static bool in_list(const col_pair *l, int n, col_body_id a, col_body_id b)
{
    for (int i = 0; i < n; i++)
        if ((l[i].a.index1 == a.index1 && l[i].b.index1 == b.index1) ||
            (l[i].a.index1 == b.index1 && l[i].b.index1 == a.index1))
            return true;
    return false;
}

static void test_query_and_world_option(void **state)
{
    (void)state;
    col_world_def def = col_default_world_def();
    assert_false(def.report_interframe);
    def.report_interframe = true;
    def.worker_count = 1;
    col_world *w;
    assert_int_equal(col_world_create(&def, &w), COL_OK);
    col_shape_id cube = make_cube(w, 1.0);
    col_body_id bullet = make_body(w, cube, col_v3(-10, 0, 0), false);
    col_body_id wall = make_body(w, cube, col_v3(0, 0, 0), true);
    col_body_id wall2 = make_body(w, cube, col_v3(0, 1.5, 0), true);   /* static-static: never */
    col_body_id spinner = make_body(w, cube, col_v3(0, 20, 0), false);
    col_body_id bystander = make_body(w, cube, col_v3(0, 24.2, 0), false);
    assert_int_equal(col_world_update(w), COL_OK);

    col_interframe_result r;
    assert_int_equal(col_query_interframe(NULL, bullet, wall, &r), COL_ERR_INVALID_ARGUMENT);
    assert_int_equal(col_query_interframe(w, bullet, wall, NULL), COL_ERR_INVALID_ARGUMENT);
    assert_int_equal(col_query_interframe(w, bullet, bullet, &r), COL_ERR_SAME_BODY);
    col_body_id stale = {999, 1, 0};
    assert_int_equal(col_query_interframe(w, bullet, stale, &r), COL_ERR_STALE_ID);

    /* The bullet jumps through the wall in one update: no pose overlaps, the sweep does. */
    move(w, bullet, col_v3(10, 0, 0), Q_ID);
    /* The spinner turns by 0.9 rad in place; the bystander is 4.2 away (the spinning
     * cube reaches sqrt(2) + 1 < 4.2 - 1 from its centre): never touches. */
    col_quat turn = {0.0, 0.0, sin(0.45), cos(0.45)};
    move(w, spinner, col_v3(0, 20, 0), turn);
    assert_int_equal(col_world_update(w), COL_OK);
    col_pair_events ev = col_world_get_pair_events(w);
    assert_int_equal(ev.pair_count, 0); /* the static cubes overlap but are never paired */
    assert_true(in_list(ev.interframe, ev.interframe_count, bullet, wall));
    assert_true(in_list(ev.interframe, ev.interframe_count, bullet, wall2));
    assert_false(in_list(ev.interframe, ev.interframe_count, wall, wall2));
    assert_false(in_list(ev.interframe, ev.interframe_count, spinner, bystander));
    for (int i = 0; i < ev.pair_count; i++) assert_true(in_list(ev.interframe, ev.interframe_count, ev.pairs[i].a, ev.pairs[i].b));
    for (int i = 1; i < ev.interframe_count; i++) {
        const col_pair *p = &ev.interframe[i - 1], *q = &ev.interframe[i];
        assert_true(p->a.index1 < q->a.index1 || (p->a.index1 == q->a.index1 && p->b.index1 < q->b.index1));
    }
    assert_int_equal(col_query_interframe(w, bullet, wall, &r), COL_OK);
    assert_true(r.may_have_touched && r.exact && r.inflation == 0.0);
    assert_int_equal(col_query_interframe(w, spinner, bystander, &r), COL_OK);
    assert_false(r.may_have_touched);
    assert_true(r.exact && r.inflation == 0.0); /* the time of impact proves it, rotation or not */

    /* Poses set after the update do not change what the query sees until the next one:
     * it keeps both poses of that update's motion (the record's pose ring, lib/world.h),
     * through a single set and a batch set of the same body, while col_body_get_pose
     * gives the last pose set. */
    move(w, bullet, col_v3(0, -50, 0), Q_ID);
    const col_transform far = {{0.0, -60.0, 0.0}, Q_ID};
    assert_int_equal(col_body_set_poses(w, &bullet, &far, 1), COL_OK);
    assert_int_equal(col_query_interframe(w, bullet, wall, &r), COL_OK);
    assert_true(r.may_have_touched && r.exact && r.inflation == 0.0);
    col_transform got;
    assert_int_equal(col_body_get_pose(w, bullet, &got), COL_OK);
    assert_true(got.p.x == 0.0 && got.p.y == -60.0 && got.p.z == 0.0);
    move(w, bullet, col_v3(10, 0, 0), Q_ID); /* back where the update left it */
    assert_int_equal(col_query_interframe(w, bullet, wall, &r), COL_OK);
    assert_true(r.may_have_touched && r.exact && r.inflation == 0.0);

    /* A disabled pair is not reported; nothing moves: only overlapping pairs remain. */
    assert_int_equal(col_pair_set_enabled(w, bullet, wall, false), COL_OK);
    move(w, bullet, col_v3(-10, 0, 0), Q_ID);
    assert_int_equal(col_world_update(w), COL_OK);
    ev = col_world_get_pair_events(w);
    assert_false(in_list(ev.interframe, ev.interframe_count, bullet, wall));
    assert_true(in_list(ev.interframe, ev.interframe_count, bullet, wall2));
    assert_int_equal(col_world_update(w), COL_OK);
    ev = col_world_get_pair_events(w);
    assert_int_equal(ev.interframe_count, ev.pair_count);
    col_world_destroy(w);

    /* Without the option: no list. */
    def.report_interframe = false;
    assert_int_equal(col_world_create(&def, &w), COL_OK);
    cube = make_cube(w, 1.0);
    make_body(w, cube, col_v3(0, 0, 0), false);
    make_body(w, cube, col_v3(0.5, 0, 0), false);
    assert_int_equal(col_world_update(w), COL_OK);
    ev = col_world_get_pair_events(w);
    assert_int_equal(ev.pair_count, 1);
    assert_null(ev.interframe);
    assert_int_equal(ev.interframe_count, 0);
    col_world_destroy(w);
}

/* The world option's list does not depend on the worker count (the swept tests run
 * in parallel, each writing its own byte, gathered in candidate order). */
static void test_world_option_workers(void **state)
{
    (void)state;
    enum { N = 300, F = 8 };
    static col_vec3 p0[N], v[N], w[N];
    static col_quat q0[N];
    col_vec3 pts[24];
    for (int i = 0; i < 24; i++) pts[i] = col_scale(rand_unit(), urange(0.7, 1.0));
    for (int i = 0; i < N; i++) {
        p0[i] = col_v3(urange(0, 25), urange(0, 25), urange(0, 25));
        v[i] = col_scale(rand_unit(), urange(0, 1.5));
        w[i] = col_scale(rand_unit(), urange(0, 0.6));
        q0[i] = rand_quat();
    }
    const int workers[2] = {1, 4};
    col_world *wd[2];
    col_body_id ids[2][N];
    for (int k = 0; k < 2; k++) {
        col_world_def def = col_default_world_def();
        def.report_interframe = true;
        def.worker_count = workers[k];
        assert_int_equal(col_world_create(&def, &wd[k]), COL_OK);
        col_shape_id sh;
        assert_int_equal(col_shape_create_convex(wd[k], pts, 24, &sh), COL_OK);
        for (int i = 0; i < N; i++) {
            col_body_def d = col_default_body_def();
            d.shape = sh;
            d.pose.p = p0[i];
            d.pose.q = q0[i];
            assert_int_equal(col_body_create(wd[k], &d, &ids[k][i]), COL_OK);
        }
    }
    long total = 0, extra = 0;
    for (int f = 1; f <= F; f++) {
        for (int k = 0; k < 2; k++) {
            for (int i = 0; i < N; i++) {
                col_xform x = model_pose(p0[i], v[i], q0[i], w[i], (double)f);
                col_transform t;
                t.p = x.p;
                col_quat dq = {0, 0, 0, 1};
                double wl = col_len(w[i]);
                if (wl > 0.0) {
                    double sn = sin(0.5 * wl * f) / wl;
                    dq.x = w[i].x * sn;
                    dq.y = w[i].y * sn;
                    dq.z = w[i].z * sn;
                    dq.w = cos(0.5 * wl * f);
                }
                t.q = col_quat_mul(dq, q0[i]);
                assert_int_equal(col_body_set_pose(wd[k], ids[k][i], t), COL_OK);
            }
            assert_int_equal(col_world_update(wd[k]), COL_OK);
        }
        col_pair_events e0 = col_world_get_pair_events(wd[0]), e1 = col_world_get_pair_events(wd[1]);
        assert_int_equal(e0.interframe_count, e1.interframe_count);
        assert_true(same_pair_lists(e0.interframe, e1.interframe, e0.interframe_count));
        assert_true(e0.interframe_count >= e0.pair_count);
        total += e0.interframe_count;
        extra += e0.interframe_count - e0.pair_count;
    }
    printf("  world option, %d bodies, %d updates: %ld inter-frame pairs (%ld beyond the colliding ones), equal for 1 and 4 workers\n",
           N, F, total, extra);
    assert_true(extra > 0);
    for (int k = 0; k < 2; k++) col_world_destroy(wd[k]);
}

/* ---- the public query on every kind of shape pair against the reference ---- */

static col_shape_id random_world_shape(col_world *w, int kind)
{
    col_shape_id s;
    switch (kind) {
    case 0: { /* a hull of 12 points */
        col_vec3 p[12];
        double r = urange(0.2, 0.6);
        for (int i = 0; i < 12; i++) p[i] = col_scale(rand_unit(), r);
        assert_int_equal(col_shape_create_convex(w, p, 12, &s), COL_OK);
        break;
    }
    case 1: assert_int_equal(col_shape_create_sphere(w, urange(0.1, 0.5), &s), COL_OK); break;
    case 2: assert_int_equal(col_shape_create_capsule(w, urange(0.1, 0.6), urange(0.05, 0.2), &s), COL_OK); break;
    case 3: { /* a dumbbell: two boxes and a thin capsule */
        col_shape_id b, c;
        assert_int_equal(col_shape_create_box(w, col_v3(0.15, 0.15, 0.15), &b), COL_OK);
        assert_int_equal(col_shape_create_capsule(w, 0.4, 0.04, &c), COL_OK);
        col_compound_child ch[3] = {{b, {{0, 0, -0.55}, {0, 0, 0, 1}}}, {b, {{0, 0, 0.55}, {0, 0, 0, 1}}},
                                    {c, {{0, 0, 0}, {0, 0, 0, 1}}}};
        assert_int_equal(col_shape_create_compound(w, ch, 3, &s), COL_OK);
        break;
    }
    default: { /* a mesh: a closed thin box (12 triangles) or an open two-triangle patch */
        double hx = urange(0.02, 0.5), hy = urange(0.02, 0.5), hz = urange(0.02, 0.5);
        col_vec3 v[8];
        for (int i = 0; i < 8; i++) v[i] = col_v3(i & 1 ? hx : -hx, i & 2 ? hy : -hy, i & 4 ? hz : -hz);
        static const uint32_t box[36] = {0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4,
                                         2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5};
        col_mesh_def md = col_default_mesh_def();
        md.vertices = v;
        md.vertex_count = 8;
        md.indices = box;
        md.triangle_count = kind == 4 ? 12 : 2; /* the first two triangles: the z = -hz face */
        assert_int_equal(col_shape_create_mesh(w, &md, &s), COL_OK);
        break;
    }
    }
    return s;
}

/* Random pairs of every kind (hull, sphere, capsule, compound, closed mesh, open patch)
 * moving up to 6 sizes and turning up to 3.1 rad between two updates, b across a's path
 * (its end about its start mirrored through a's midpoint): the query and the
 * world option's list must agree with the reference (2048 substeps decided exactly,
 * bisection to 1e-9): every contact it finds is reported, and a pair reported touching
 * that it does not see must be confirmed by a finer search near the time of impact's
 * instant or lie within 1e-9 of touching there. The old swept test answered a pair with
 * a round piece or a compound from its swept boxes alone (the extra hits fail here). */
static void test_query_against_reference(void **state)
{
    (void)state;
    col_query_scratch *sc;
    assert_int_equal(col_query_scratch_create(NULL, &sc), COL_OK);
    int hits = 0, misses = 0, extra = 0, mesh_pairs = 0;
    for (int n = 0; n < 300; n++) {
        col_world_def def = col_default_world_def();
        def.report_interframe = true;
        def.worker_count = 1;
        col_world *w;
        assert_int_equal(col_world_create(&def, &w), COL_OK);
        int ka = (int)(rng_next() % 6), kb = (int)(rng_next() % 6);
        mesh_pairs += ka >= 4 || kb >= 4;
        col_shape_id sa = random_world_shape(w, ka), sb = random_world_shape(w, kb);
        double speed = n % 4 == 0 ? 6.0 : 2.0, turn = n % 2 ? 3.1 : 0.8;
        ccd_ref_case c;
        assert_int_equal(col_shape_get_geometry(w, sa, &c.a), COL_OK);
        assert_int_equal(col_shape_get_geometry(w, sb, &c.b), COL_OK);
        c.a0 = (col_transform){col_v3(urange(-1, 1), urange(-1, 1), urange(-1, 1)), rand_quat()};
        c.b0 = (col_transform){col_v3(urange(-1, 1), urange(-1, 1), urange(-1, 1)), rand_quat()};
        c.a1 = (col_transform){col_add(c.a0.p, col_v3(urange(-speed, speed), urange(-speed, speed), urange(-speed, speed))),
                               col_quat_mul(col_quat_from_axis_angle(rand_unit(), urange(0, turn)), c.a0.q)};
        /* b crosses a's path: to about its start mirrored through a's midpoint */
        col_vec3 mid = col_scale(col_add(c.a0.p, c.a1.p), 0.5), e = col_v3(urange(-1, 1), urange(-1, 1), urange(-1, 1));
        c.b1 = (col_transform){col_add(col_sub(col_scale(mid, 2.0), c.b0.p), e),
                               col_quat_mul(col_quat_from_axis_angle(rand_unit(), urange(0, turn)), c.b0.q)};
        col_body_def d = col_default_body_def();
        col_body_id ia, ib;
        d.shape = sa;
        d.pose = c.a0;
        assert_int_equal(col_body_create(w, &d, &ia), COL_OK);
        d.shape = sb;
        d.pose = c.b0;
        assert_int_equal(col_body_create(w, &d, &ib), COL_OK);
        assert_int_equal(col_world_update(w), COL_OK);
        assert_int_equal(col_body_set_pose(w, ia, c.a1), COL_OK);
        assert_int_equal(col_body_set_pose(w, ib, c.b1), COL_OK);
        assert_int_equal(col_world_update(w), COL_OK);
        col_interframe_result r;
        assert_int_equal(col_query_interframe(w, ia, ib, &r), COL_OK);
        col_pair_events ev = col_world_get_pair_events(w);
        assert_int_equal(in_list(ev.interframe, ev.interframe_count, ia, ib), r.may_have_touched);
        double lo, hi;
        bool ref = ccd_ref_first(sc, &c, 2048, &lo, &hi);
        if (ref && !r.may_have_touched)
            fail_msg("case %d (kinds %d, %d): missed a contact at s in [%.17g, %.17g]", n, ka, kb, lo, hi);
        if (ref) hits++;
        else if (!r.may_have_touched) misses++;
        else {
            /* where the time of impact puts the contact: confirmed there by the reference */
            col_toi_output o;
            assert_int_equal(col_geometry_toi(c.a, c.a0, c.a1, c.b, c.b0, c.b1, sc, &o), COL_OK);
            if (!o.hit)
                fail_msg("case %d (kinds %d, %d): reported touching; neither the reference nor the time of impact "
                         "finds a contact",
                         n, ka, kb);
            if (!ccd_ref_fine_touch(sc, &c, o.s, fmin(1.0, o.s + 1e-6))) {
                col_distance_output dd;
                assert_int_equal(col_geometry_distance(c.a, ccd_ref_pose(c.a0, c.a1, o.s), c.b,
                                                       ccd_ref_pose(c.b0, c.b1, o.s), NULL, sc, &dd),
                                 COL_OK);
                if (dd.distance > 1e-9)
                    fail_msg("case %d (kinds %d, %d): reported touching, but the reference sees no contact "
                             "(distance %g at the time of impact's s %.17g)",
                             n, ka, kb, dd.distance, o.s);
            }
            extra++;
        }
        assert_true(r.exact && r.inflation == 0.0);
        col_world_destroy(w);
    }
    col_query_scratch_destroy(sc);
    printf("  query against the reference: 300 pairs (%d with a mesh): %d touched, %d apart, %d contacts "
           "between the reference's substeps confirmed\n",
           mesh_pairs, hits, misses, extra);
    assert_true(hits > 30 && misses > 30);
}

/* ---- the standard scene `fast` ---- */

/* Times in (f, f + 1) where body b bounces off a wall (any axis), sorted; returns the
 * count (at most 6 here: |v| per frame is far below the span). */
static int bounce_times(const bench_scene *sc, int b, int f, double *out)
{
    const bench_body *bd = &sc->bodies[b];
    double r = sc->shapes[bd->shape].radius, span = sc->room - 2 * r;
    int n = 0;
    for (int k = 0; k < 3; k++) {
        double v = bd->v[k];
        if (v == 0.0) continue;
        double s0 = bd->p0[k] + v * f - r, s1 = s0 + v;
        double lo = fmin(s0, s1), hi = fmax(s0, s1);
        for (double j = ceil(lo / span); j * span <= hi; j++) {
            double t = f + (j * span - s0) / v;
            if (t > f && t < f + 1 && n < 6) out[n++] = t;
        }
    }
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && out[j] < out[j - 1]; j--) {
            double tmp = out[j];
            out[j] = out[j - 1];
            out[j - 1] = tmp;
        }
    return n;
}

typedef struct sub_box {
    double lo[3], hi[3];
} sub_box;

static bool box_overlap(const sub_box *a, const sub_box *b)
{
    for (int k = 0; k < 3; k++)
        if (a->lo[k] > b->hi[k] || b->lo[k] > a->hi[k]) return false;
    return true;
}

static void test_fast_scene(void **state)
{
    (void)state;
    char path[1100];
    snprintf(path, sizeof path, "%s/fast.scene", COL_TEST_SCENE_DIR);
    FILE *fp = fopen(path, "r");
    if (fp == NULL) fail_msg("cannot open %s (the build makes it: ninja builds every scene)", path);
    bench_scene sc;
    char err[256];
    bool ok = bench_scene_load(fp, path, &sc, err, sizeof err);
    fclose(fp);
    if (!ok) fprintf(stderr, "%s\n", err);
    assert_true(ok);
    int nb = sc.body_count, frames = SCENE_FRAMES < sc.frames ? SCENE_FRAMES : sc.frames;

    col_world_def def = col_default_world_def();
    def.report_interframe = true;
    col_world *w;
    assert_int_equal(col_world_create(&def, &w), COL_OK);
    col_shape_id *shape_ids = malloc((size_t)sc.shape_count * sizeof *shape_ids);
    col_hull *hulls = calloc((size_t)sc.shape_count, sizeof *hulls);
    col_body_id *ids = malloc((size_t)nb * sizeof *ids);
    assert_true(shape_ids && hulls && ids);
    col_np_counts most = {0, 0, 0}; /* one buffer for every pair: backend.h's scratch rule */
    for (int s = 0; s < sc.shape_count; s++) {
        assert_int_equal(col_shape_create_convex(w, sc.shapes[s].vertices, sc.shapes[s].vertex_count, &shape_ids[s]), COL_OK);
        build(sc.shapes[s].vertices, sc.shapes[s].vertex_count, &hulls[s]);
        most = col_np_counts_max(most, col_np_counts_of(&hulls[s]));
    }
    col_np_scratch rs;
    rs.size = col_np_reference.scratch_need(most, most);
    rs.mem = malloc(rs.size);
    col_np_scratch ss;
    ss.size = 0;
    ss.mem = NULL;
    for (int s = 0; s < sc.shape_count; s++) {
        size_t nbytes = col_lpip_sweep_scratch_bytes(&hulls[s], &hulls[s]);
        ss.size = nbytes > ss.size ? nbytes : ss.size;
    }
    ss.mem = malloc(ss.size);
    for (int i = 0; i < nb; i++) {
        col_body_def d = col_default_body_def();
        d.shape = shape_ids[sc.bodies[i].shape];
        d.pose = bench_scene_pose(&sc, i, 0);
        assert_int_equal(col_body_create(w, &d, &ids[i]), COL_OK);
    }
    assert_int_equal(col_world_update(w), COL_OK);

    /* Per body, per sub-step: pose and box. */
    col_xform *xf = malloc((size_t)nb * (SUBSTEPS + 1) * sizeof *xf);
    sub_box *bx = malloc((size_t)nb * (SUBSTEPS + 1) * sizeof *bx);
    sub_box *sweepbox = malloc((size_t)nb * sizeof *sweepbox);
    assert_true(xf && bx && sweepbox);
    long checked = 0, reported = 0, reported_touched = 0, substep_queries = 0, bounce_pairs = 0, bounce_misses_unsplit = 0, misses = 0;
    for (int f = 0; f + 1 < frames; f++) {
        for (int i = 0; i < nb; i++) assert_int_equal(col_body_set_pose(w, ids[i], bench_scene_pose(&sc, i, f + 1)), COL_OK);
        assert_int_equal(col_world_update(w), COL_OK);
        col_pair_events ev = col_world_get_pair_events(w);
        reported += ev.interframe_count;
        for (int i = 0; i < ev.pair_count; i++) assert_true(in_list(ev.interframe, ev.interframe_count, ev.pairs[i].a, ev.pairs[i].b));

        for (int i = 0; i < nb; i++) {
            const col_hull *h = &hulls[sc.bodies[i].shape];
            sub_box *u = &sweepbox[i];
            for (int k = 0; k < 3; k++) {
                u->lo[k] = INFINITY;
                u->hi[k] = -INFINITY;
            }
            for (int s = 0; s <= SUBSTEPS; s++) {
                col_xform x = col_xform_from_transform(bench_scene_pose_at(&sc, i, f + (double)s / SUBSTEPS));
                col_aabb b;
                col_hull_box_at(h, &x, &b.min, &b.max);
                xf[(size_t)i * (SUBSTEPS + 1) + s] = x;
                sub_box *o = &bx[(size_t)i * (SUBSTEPS + 1) + s];
                o->lo[0] = b.min.x;
                o->lo[1] = b.min.y;
                o->lo[2] = b.min.z;
                o->hi[0] = b.max.x;
                o->hi[1] = b.max.y;
                o->hi[2] = b.max.z;
                for (int k = 0; k < 3; k++) {
                    u->lo[k] = fmin(u->lo[k], o->lo[k]);
                    u->hi[k] = fmax(u->hi[k], o->hi[k]);
                }
            }
        }
        /* Candidates: all pairs whose sub-step boxes' union overlaps (O(n^2) box tests
         * are cheap at 2000 bodies). */
        for (int i = 0; i < nb; i++)
            for (int j = i + 1; j < nb; j++) {
                if (!box_overlap(&sweepbox[i], &sweepbox[j])) continue;
                bool listed = in_list(ev.interframe, ev.interframe_count, ids[i], ids[j]);
                const col_hull *ha = &hulls[sc.bodies[i].shape], *hb = &hulls[sc.bodies[j].shape];
                bool touched = false;
                for (int s = 0; s <= SUBSTEPS && !touched; s++) {
                    size_t ki = (size_t)i * (SUBSTEPS + 1) + s, kj = (size_t)j * (SUBSTEPS + 1) + s;
                    if (!box_overlap(&bx[ki], &bx[kj])) continue;
                    substep_queries++;
                    touched = reference_overlap(ha, &xf[ki], hb, &xf[kj], &rs);
                }
                if (listed) {
                    reported_touched += touched;
                    continue;
                }
                checked++;
                double tb[12];
                int nbounce = bounce_times(&sc, i, f, tb);
                nbounce += bounce_times(&sc, j, f, tb + nbounce);
                if (nbounce == 0) {
                    if (touched) {
                        printf("  MISS: bodies %d %d touched between frames %d and %d\n", i, j, f, f + 1);
                        misses++;
                    }
                    continue;
                }
                /* A bounce inside the frame: outside the model the world can see. Split
                 * the frame at the bounces; each piece is a straight motion. */
                bounce_pairs++;
                for (int a = 1; a < nbounce; a++)
                    for (int c = a; c > 0 && tb[c] < tb[c - 1]; c--) {
                        double t = tb[c];
                        tb[c] = tb[c - 1];
                        tb[c - 1] = t;
                    }
                bool split_hit = false;
                double t0 = f;
                for (int k = 0; k <= nbounce; k++) {
                    double t1 = k < nbounce ? tb[k] : f + 1;
                    col_xform a0 = col_xform_from_transform(bench_scene_pose_at(&sc, i, t0));
                    col_xform a1 = col_xform_from_transform(bench_scene_pose_at(&sc, i, t1));
                    col_xform b0 = col_xform_from_transform(bench_scene_pose_at(&sc, j, t0));
                    col_xform b1 = col_xform_from_transform(bench_scene_pose_at(&sc, j, t1));
                    col_lpip_sweep_result r;
                    col_lpip_sweep(ha, &a0, &a1, hb, &b0, &b1, true, &ss, &r);
                    split_hit |= r.may_touch;
                    t0 = t1;
                }
                if (touched) {
                    bounce_misses_unsplit++;
                    if (!split_hit) {
                        printf("  MISS (split at the bounce): bodies %d %d, frames %d-%d\n", i, j, f, f + 1);
                        misses++;
                    }
                }
            }
    }
    printf("  fast scene, %d frames: %ld inter-frame pairs reported, %ld of them seen touching in the sub-steps; %ld unreported pairs with overlapping swept "
           "boxes sub-stepped %d times (%ld narrow-phase queries): %ld touched; %ld unreported pairs had a bounce, "
           "%ld of them touched (caught by the split sweep)\n",
           frames, reported, reported_touched, checked, SUBSTEPS, substep_queries, misses, bounce_pairs, bounce_misses_unsplit);
    assert_int_equal(misses, 0);
    assert_true(reported > 0 && checked > 0);

    free(xf);
    free(bx);
    free(sweepbox);
    free(rs.mem);
    free(ss.mem);
    for (int s = 0; s < sc.shape_count; s++) col_hull_free(&g_alloc, &hulls[s]);
    free(hulls);
    free(shape_ids);
    free(ids);
    col_world_destroy(w);
    bench_scene_free(&sc);
}

int main(void)
{
    col_alloc_init(&g_alloc, NULL);
    /* the tests draw from one sequence, in the order below */
    rng_seed(SEED, "test_interframe");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_angle_bound),
        cmocka_unit_test(test_translation_known),
        cmocka_unit_test(test_translation_random),
        cmocka_unit_test(test_rotation_conservative),
        cmocka_unit_test(test_query_and_world_option),
        cmocka_unit_test(test_world_option_workers),
        cmocka_unit_test(test_query_against_reference),
        cmocka_unit_test(test_fast_scene),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
