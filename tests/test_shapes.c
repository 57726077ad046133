/* SPDX-License-Identifier: MIT */
/* Shapes without a world and the round kinds in the world (issue 15): geometry facts,
 * bad input, compounds, the world's pairs against a brute force over all body pairs with
 * the world-free query, distances and contacts with known answers, and a warm frame that
 * allocates nothing. The exact agreement with rational arithmetic is
 * tests/test_round_agreement.c; threads are tests/test_query_threads.c. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "colibri/colibri.h"
#include "test_util.h"

static const double PI = 3.14159265358979323846;

static col_quat quat_axis(double ax, double ay, double az, double angle)
{
    double n = sqrt(ax * ax + ay * ay + az * az), s = sin(angle / 2) / n;
    col_quat q = {ax * s, ay * s, az * s, cos(angle / 2)};
    return q;
}

static col_transform pose_at(double x, double y, double z, col_quat q)
{
    col_transform t = {{x, y, z}, q};
    return t;
}

static col_geometry *sphere(double r)
{
    col_geometry *g = NULL;
    assert_int_equal(col_geometry_create_sphere(NULL, r, &g, NULL), COL_OK);
    return g;
}

static col_geometry *capsule(double h, double r)
{
    col_geometry *g = NULL;
    assert_int_equal(col_geometry_create_capsule(NULL, h, r, &g, NULL), COL_OK);
    return g;
}

static col_geometry *box(double x, double y, double z)
{
    col_geometry *g = NULL;
    assert_int_equal(col_geometry_create_box(NULL, col_vec3_make(x, y, z), &g, NULL), COL_OK);
    return g;
}

static void test_facts(void **state)
{
    (void)state;
    col_geometry *s = sphere(2.0), *c = capsule(1.0, 0.5), *b = box(1, 2, 3);
    col_shape_info i;
    assert_int_equal(col_geometry_get_info(s, &i), COL_OK);
    assert_int_equal(i.kind, COL_SHAPE_SPHERE);
    assert_int_equal(i.child_count, 1);
    assert_true(fabs(i.volume - 4.0 / 3.0 * PI * 8.0) < 1e-12);
    assert_true(i.radius >= 2.0 && i.radius < 2.0 * (1 + 1e-14));
    assert_true(i.aabb_min.x == -2.0 && i.aabb_max.z == 2.0);
    assert_true(i.sphere_radius == 2.0 && i.half_height == 0.0 && i.vertex_count == 0);
    assert_int_equal(col_geometry_get_info(c, &i), COL_OK);
    assert_int_equal(i.kind, COL_SHAPE_CAPSULE);
    assert_true(fabs(i.radius - 1.5) < 1e-14 && i.aabb_max.z == 1.5 && i.aabb_max.x == 0.5);
    assert_true(fabs(i.volume - PI * 0.25 * (4.0 / 3.0 * 0.5 + 2.0)) < 1e-12);
    assert_int_equal(col_geometry_get_info(b, &i), COL_OK);
    assert_int_equal(i.kind, COL_SHAPE_HULL);
    assert_int_equal(i.vertex_count, 8);
    assert_int_equal(i.face_count, 6);
    assert_int_equal(i.edge_count, 12);
    assert_true(fabs(i.volume - 48.0) < 1e-12);
    col_piece_info p;
    assert_int_equal(col_geometry_get_piece(b, 0, &p), COL_OK);
    assert_int_equal(p.hull.vertex_count, 8);
    assert_int_equal(p.hull.face_first[p.hull.face_count], 24);
    for (int e = 0; e < 2 * p.hull.edge_count; e++) assert_true(p.hull.edge_vertices[e] >= 0 && p.hull.edge_vertices[e] < 8);
    assert_int_equal(col_geometry_get_piece(b, 1, &p), COL_ERR_INVALID_ARGUMENT);

    /* A compound: the capsule turned to lie along y at (0, 2, 0), the sphere at (3, 0, 0);
     * then that compound and the box in a second one (flattened to three pieces). */
    col_geometry_child kids[2] = {{c, pose_at(0, 2, 0, quat_axis(1, 0, 0, PI / 2))}, {s, pose_at(3, 0, 0, col_quat_identity())}};
    col_geometry *k = NULL;
    assert_int_equal(col_geometry_create_compound(NULL, kids, 2, &k, NULL), COL_OK);
    assert_int_equal(col_geometry_get_info(k, &i), COL_OK);
    assert_int_equal(i.kind, COL_SHAPE_COMPOUND);
    assert_int_equal(i.child_count, 2);
    assert_true(fabs(i.aabb_max.x - 5.0) < 1e-12 && fabs(i.aabb_max.y - 3.5) < 1e-12 && fabs(i.aabb_min.y - -2.0) < 1e-12);
    assert_int_equal(col_geometry_get_piece(k, 0, &p), COL_OK);
    assert_int_equal(p.kind, COL_SHAPE_CAPSULE);
    assert_true(fabs(p.core[0].y - 3.0) < 1e-12 || fabs(p.core[0].y - 1.0) < 1e-12);
    assert_true(fabs(p.core[0].z) < 1e-12 && fabs(fabs(p.core[1].y - p.core[0].y) - 2.0) < 1e-12);
    assert_int_equal(col_geometry_get_piece(k, 1, &p), COL_OK);
    assert_true(p.kind == COL_SHAPE_SPHERE && p.core[0].x == 3.0 && p.sphere_radius == 2.0);
    col_geometry_child kids2[2] = {{k, pose_at(0, 0, 10, col_quat_identity())}, {b, pose_at(0, 0, 0, col_quat_identity())}};
    col_geometry *k2 = NULL;
    assert_int_equal(col_geometry_create_compound(NULL, kids2, 2, &k2, NULL), COL_OK);
    assert_int_equal(col_geometry_get_info(k2, &i), COL_OK);
    assert_int_equal(i.child_count, 3);
    assert_int_equal(col_geometry_get_piece(k2, 1, &p), COL_OK);
    assert_true(p.kind == COL_SHAPE_SPHERE && p.core[0].z == 10.0 && p.pose.p.z == 10.0);
    col_geometry *copy = NULL;
    assert_int_equal(col_geometry_clone(NULL, k2, &copy, NULL), COL_OK);
    col_geometry_destroy(k2);
    assert_int_equal(col_geometry_get_piece(copy, 2, &p), COL_OK);
    assert_true(p.kind == COL_SHAPE_HULL && p.hull.vertex_count == 8);
    col_geometry_destroy(copy);
    col_geometry_destroy(k);
    col_geometry_destroy(s);
    col_geometry_destroy(c);
    col_geometry_destroy(b);
}

static void test_geometry_bad_input(void **state)
{
    (void)state;
    counting_alloc ca = {0};
    col_allocator hooks = counting_hooks(&ca);
    const double bad[] = {0.0, -0.0, -1.0, NAN, -NAN, INFINITY, -INFINITY, -5e-324};
    col_error err;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        col_geometry *g = (col_geometry *)&err; /* must be nulled */
        assert_int_equal(col_geometry_create_sphere(&hooks, bad[i], &g, &err), COL_ERR_INVALID_ARGUMENT);
        assert_null(g);
        assert_non_null(strstr(err.message, "radius"));
        assert_int_equal(col_geometry_create_capsule(&hooks, 1.0, bad[i], &g, &err), COL_ERR_INVALID_ARGUMENT);
        assert_int_equal(col_geometry_create_capsule(&hooks, bad[i], 1.0, &g, &err), COL_ERR_INVALID_ARGUMENT);
        assert_non_null(strstr(err.message, "half height"));
        assert_int_equal(col_geometry_create_box(&hooks, col_vec3_make(1, bad[i], 1), &g, &err), COL_ERR_INVALID_ARGUMENT);
    }
    col_geometry *g = NULL;
    assert_int_equal(col_geometry_create_sphere(&hooks, 2e15, &g, &err), COL_ERR_NOT_FINITE);
    assert_int_equal(col_geometry_create_capsule(&hooks, 1e15, 1.0, &g, &err), COL_ERR_NOT_FINITE);
    assert_int_equal(col_geometry_create_compound(&hooks, NULL, 1, &g, &err), COL_ERR_INVALID_ARGUMENT);
    col_geometry *s = sphere(1.0);
    col_geometry_child kid = {s, col_transform_identity()};
    assert_int_equal(col_geometry_create_compound(&hooks, &kid, 0, &g, &err), COL_ERR_INVALID_ARGUMENT);
    kid.geometry = NULL;
    assert_int_equal(col_geometry_create_compound(&hooks, &kid, 1, &g, &err), COL_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(err.message, "child 0"));
    kid.geometry = s;
    kid.pose.q.w = 2.0;
    assert_int_equal(col_geometry_create_compound(&hooks, &kid, 1, &g, &err), COL_ERR_BAD_QUATERNION);
    kid.pose = col_transform_identity();
    kid.pose.p.x = NAN;
    assert_int_equal(col_geometry_create_compound(&hooks, &kid, 1, &g, &err), COL_ERR_NOT_FINITE);
    /* Every failed call returned what it took. */
    assert_int_equal(ca.allocs, ca.frees);
    /* The allocator's failures are clean too: each allocation of a compound fails in turn. */
    col_geometry *c = capsule(1, 1), *b = box(1, 1, 1);
    col_geometry_child kids[3] = {{s, col_transform_identity()}, {c, pose_at(1, 2, 3, quat_axis(1, 1, 0, 0.3))},
                                  {b, pose_at(-1, 0, 0, quat_axis(0, 0, 1, 1.0))}};
    for (long n = 1; n < 200; n++) {
        counting_alloc f = {0};
        f.fail_attempt = n;
        col_allocator fh = counting_hooks(&f);
        col_status st = col_geometry_create_compound(&fh, kids, 3, &g, &err);
        if (st == COL_OK) {
            col_geometry_destroy(g);
            assert_int_equal(f.allocs, f.frees);
            break;
        }
        assert_int_equal(st, COL_ERR_OUT_OF_MEMORY);
        assert_null(g);
        assert_int_equal(f.allocs, f.frees);
    }
    col_geometry_destroy(s);
    col_geometry_destroy(c);
    col_geometry_destroy(b);
}

static col_world *new_world(col_backend backend)
{
    col_world_def def = col_default_world_def();
    def.backend = backend;
    def.worker_count = 1;
    col_world *w = NULL;
    assert_int_equal(col_world_create(&def, &w), COL_OK);
    return w;
}

static void test_world_bad_input(void **state)
{
    (void)state;
    col_world *w = new_world(COL_BACKEND_DEFAULT);
    col_shape_id s, c, gone;
    assert_int_equal(col_shape_create_sphere(w, 1.0, &s), COL_OK);
    assert_int_equal(col_shape_create_capsule(w, 1.0, 0.5, &c), COL_OK);
    assert_int_equal(col_shape_create_sphere(w, 3.0, &gone), COL_OK);
    assert_int_equal(col_shape_destroy(w, gone), COL_OK);
    col_body_def bd = col_default_body_def();
    bd.shape = s;
    col_body_id body;
    assert_int_equal(col_body_create(w, &bd, &body), COL_OK);
    assert_int_equal(col_world_update(w), COL_OK);
    uint64_t h = col_world_hash(w);
    col_shape_id out;
    const double bad[] = {0.0, -1.0, NAN, INFINITY, -INFINITY};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(col_shape_create_sphere(w, bad[i], &out), COL_ERR_INVALID_ARGUMENT);
        assert_true(col_shape_id_is_null(out));
        assert_non_null(strstr(col_world_last_error(w), "radius"));
        assert_int_equal(col_shape_create_capsule(w, bad[i], 1.0, &out), COL_ERR_INVALID_ARGUMENT);
        assert_int_equal(col_shape_create_capsule(w, 1.0, bad[i], &out), COL_ERR_INVALID_ARGUMENT);
        assert_int_equal(col_shape_create_box(w, col_vec3_make(bad[i], 1, 1), &out), COL_ERR_INVALID_ARGUMENT);
        assert_int_equal(col_world_hash(w), h);
    }
    col_compound_child kids[2] = {{s, col_transform_identity()}, {gone, col_transform_identity()}};
    assert_int_equal(col_shape_create_compound(w, kids, 0, &out), COL_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(col_world_last_error(w), "empty compound"));
    assert_int_equal(col_shape_create_compound(w, NULL, 2, &out), COL_ERR_INVALID_ARGUMENT);
    assert_int_equal(col_shape_create_compound(w, kids, 2, &out), COL_ERR_STALE_ID);
    assert_non_null(strstr(col_world_last_error(w), "child 1"));
    kids[1].shape.index1 = 0;
    assert_int_equal(col_shape_create_compound(w, kids, 2, &out), COL_ERR_STALE_ID);
    kids[1].shape = c;
    kids[1].pose.q.w = 0.5;
    assert_int_equal(col_shape_create_compound(w, kids, 2, &out), COL_ERR_BAD_QUATERNION);
    assert_int_equal(col_shape_create(w, NULL, &out), COL_ERR_INVALID_ARGUMENT);
    assert_int_equal(col_world_hash(w), h);
    int n;
    assert_int_equal(col_shape_get_vertices(w, s, NULL, 0, &n), COL_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(col_world_last_error(w), "not a hull"));
    const col_geometry *g;
    assert_int_equal(col_shape_get_geometry(w, gone, &g), COL_ERR_STALE_ID);
    assert_null(g);
    assert_int_equal(col_world_update(w), COL_OK);
    col_world_destroy(w);
}

/* A random shape of every kind, and compounds of them. */
enum { NKIND = 5 };
static col_geometry *random_geometry(int kind, double size)
{
    switch (kind) {
    case 0: return sphere(size * urange(0.3, 1.0));
    case 1: return capsule(size * urange(0.1, 1.0), size * urange(0.2, 0.6));
    case 2: {
        col_vec3 p[12];
        for (int i = 0; i < 12; i++) p[i] = col_vec3_make(size * gauss(), size * gauss(), size * 0.6 * gauss());
        col_geometry *g = NULL;
        assert_int_equal(col_geometry_create_hull(NULL, p, 12, &g, NULL), COL_OK);
        return g;
    }
    case 3: return box(size * urange(0.3, 1), size * urange(0.3, 1), size * urange(0.3, 1));
    default: {
        col_geometry *kids[3];
        col_geometry_child c[3];
        for (int i = 0; i < 3; i++) {
            kids[i] = random_geometry(i == 2 ? 3 : i, size * 0.5);
            c[i].geometry = kids[i];
            c[i].pose = pose_at(size * gauss() * 0.6, size * gauss() * 0.6, size * gauss() * 0.6, random_quat());
        }
        col_geometry *g = NULL;
        assert_int_equal(col_geometry_create_compound(NULL, c, 3, &g, NULL), COL_OK);
        for (int i = 0; i < 3; i++) col_geometry_destroy(kids[i]);
        return g;
    }
    }
}

/* A world of every kind against a brute force over all body pairs with the world-free
 * query (each backend's world against the reference query): the pair loop, the boxes,
 * the schedule and the compound loop may only ever agree with the pair decision. */
static void test_world_matches_brute_force(void **state)
{
    (void)state;
    rng_seed(15001, "test_world_matches_brute_force");
    enum { NG = 20, NB = 120, FRAMES = 12 };
    col_geometry *geo[NG];
    for (int i = 0; i < NG; i++) geo[i] = random_geometry(i % NKIND, urange(0.5, 1.5));
    col_query_scratch *qs = NULL;
    assert_int_equal(col_query_scratch_create(NULL, &qs), COL_OK);
    for (int be = COL_BACKEND_REFERENCE; be < COL_BACKEND_COUNT; be++) {
        col_world *w = new_world((col_backend)be);
        col_shape_id sid[NG];
        for (int i = 0; i < NG; i++) assert_int_equal(col_shape_create(w, geo[i], &sid[i]), COL_OK);
        col_body_id bid[NB];
        int shape_of[NB];
        col_vec3 p0[NB], v[NB];
        rng_reseed(15002);
        for (int i = 0; i < NB; i++) {
            col_body_def bd = col_default_body_def();
            shape_of[i] = (int)(rng_next() % NG);
            bd.shape = sid[shape_of[i]];
            p0[i] = col_vec3_make(urange(0, 12), urange(0, 12), urange(0, 12));
            v[i] = col_vec3_make(urange(-0.3, 0.3), urange(-0.3, 0.3), urange(-0.3, 0.3));
            bd.pose = pose_at(p0[i].x, p0[i].y, p0[i].z, random_quat());
            assert_int_equal(col_body_create(w, &bd, &bid[i]), COL_OK);
        }
        long pairs_seen = 0;
        for (int f = 0; f < FRAMES; f++) {
            for (int i = 0; i < NB && f > 0; i++) {
                col_transform t;
                assert_int_equal(col_body_get_pose(w, bid[i], &t), COL_OK);
                t.p = col_vec3_make(p0[i].x + v[i].x * f, p0[i].y + v[i].y * f, p0[i].z + v[i].z * f);
                t.q = col_quat_mul(quat_axis(v[i].y, v[i].z, v[i].x + 0.01, 0.15), t.q);
                double n = sqrt(t.q.x * t.q.x + t.q.y * t.q.y + t.q.z * t.q.z + t.q.w * t.q.w);
                t.q.x /= n, t.q.y /= n, t.q.z /= n, t.q.w /= n;
                assert_int_equal(col_body_set_pose(w, bid[i], t), COL_OK);
            }
            assert_int_equal(col_world_update(w), COL_OK);
            col_pair_events ev = col_world_get_pair_events(w);
            int k = 0;
            for (int i = 0; i < NB; i++)
                for (int j = i + 1; j < NB; j++) {
                    col_transform ta, tb;
                    col_body_get_pose(w, bid[i], &ta);
                    col_body_get_pose(w, bid[j], &tb);
                    bool hit;
                    assert_int_equal(col_geometry_overlap(geo[shape_of[i]], ta, geo[shape_of[j]], tb,
                                                          COL_BACKEND_REFERENCE, qs, &hit),
                                     COL_OK);
                    bool listed = k < ev.pair_count && ev.pairs[k].a.index1 == bid[i].index1 &&
                                  ev.pairs[k].b.index1 == bid[j].index1;
                    if (hit != listed)
                        fail_msg("backend %s frame %d bodies %d (kind %d) and %d (kind %d): world says %d, brute force %d",
                                 col_backend_name((col_backend)be), f, i, shape_of[i] % NKIND, j, shape_of[j] % NKIND,
                                 listed, hit);
                    k += listed;
                }
            assert_int_equal(k, ev.pair_count);
            pairs_seen += k;
        }
        /* The generator's hit rate: enough pairs to mean something. */
        assert_true(pairs_seen > 50);
        col_world_destroy(w);
    }
    col_query_scratch_destroy(qs);
    for (int i = 0; i < NG; i++) col_geometry_destroy(geo[i]);
}

/* Known answers: two spheres, a sphere on a box face, a capsule lying on a box (two
 * contact points), crossed capsules, a compound naming its piece. */
static void test_distance_known(void **state)
{
    (void)state;
    col_query_scratch *qs = NULL;
    assert_int_equal(col_query_scratch_create(NULL, &qs), COL_OK);
    col_geometry *s1 = sphere(1.0), *s2 = sphere(0.5), *bx = box(2, 2, 1), *cp = capsule(1.0, 0.25);
    col_transform id = col_transform_identity();
    col_distance_output d;
    assert_int_equal(col_geometry_distance(s1, id, s2, pose_at(3, 0, 0, col_quat_identity()), NULL, qs, &d), COL_OK);
    assert_int_equal(d.outcome, COL_DISTANCE_SEPARATED);
    assert_true(fabs(d.distance - 1.5) < 1e-12);
    assert_true(fabs(d.point_a.x - 1.0) < 1e-12 && fabs(d.point_b.x - 2.5) < 1e-12);
    assert_int_equal(d.feature_a.type, COL_FEATURE_VERTEX);
    /* A sphere resting exactly on the box's top face touches it. */
    assert_int_equal(col_geometry_distance(bx, id, s1, pose_at(0.5, -0.25, 2.0, col_quat_identity()), NULL, qs, &d),
                     COL_OK);
    assert_int_equal(d.outcome, COL_DISTANCE_TOUCHING);
    assert_true(fabs(d.distance) < 1e-12 && fabs(d.point_a.z - 1.0) < 1e-12);
    assert_int_equal(d.feature_a.type, COL_FEATURE_NONE);
    bool hit;
    assert_int_equal(col_geometry_overlap(bx, id, s1, pose_at(0.5, -0.25, 2.0, col_quat_identity()), COL_BACKEND_DEFAULT,
                                          qs, &hit),
                     COL_OK);
    assert_true(hit);
    assert_int_equal(col_geometry_overlap(bx, id, s1, pose_at(0.5, -0.25, 2.0 + 1e-15 * 4, col_quat_identity()),
                                          COL_BACKEND_DEFAULT, qs, &hit),
                     COL_OK);
    assert_false(hit);
    /* A capsule lying along x on the box, sunk by 0.05: two points, at its ends. */
    col_transform lying = pose_at(0, 0, 1.2, quat_axis(0, 1, 0, PI / 2));
    col_contact_output c;
    assert_int_equal(col_geometry_contact(bx, id, cp, lying, 0.0, NULL, qs, &c), COL_OK);
    assert_int_equal(c.outcome, COL_DISTANCE_PENETRATING);
    assert_true(fabs(c.separation + 0.05) < 1e-9);
    assert_true(fabs(c.normal.z - 1.0) < 1e-9);
    assert_int_equal(c.point_count, 2);
    assert_true(fabs(fabs(c.points[0].point_b.x) - 1.0) < 1e-9 && fabs(c.points[0].point_b.x + c.points[1].point_b.x) < 1e-9);
    for (int i = 0; i < 2; i++) assert_true(fabs(c.points[i].separation + 0.05) < 1e-9);
    /* Crossed capsules: one along x at z = 0, one along y at z = 0.6: 0.1 apart. */
    assert_int_equal(col_geometry_distance(cp, pose_at(0, 0, 0, quat_axis(0, 1, 0, PI / 2)), cp,
                                           pose_at(0, 0, 0.6, quat_axis(1, 0, 0, PI / 2)), NULL, qs, &d),
                     COL_OK);
    assert_int_equal(d.outcome, COL_DISTANCE_SEPARATED);
    assert_true(fabs(d.distance - 0.1) < 1e-12);
    assert_int_equal(d.feature_a.type, COL_FEATURE_EDGE);
    /* A compound: the far piece is 0, the near one 1. */
    col_geometry_child kids[2] = {{s2, pose_at(-5, 0, 0, col_quat_identity())}, {s2, pose_at(5, 0, 0, col_quat_identity())}};
    col_geometry *k = NULL;
    assert_int_equal(col_geometry_create_compound(NULL, kids, 2, &k, NULL), COL_OK);
    assert_int_equal(col_geometry_distance(k, id, s1, pose_at(8, 0, 0, col_quat_identity()), NULL, qs, &d), COL_OK);
    assert_int_equal(d.piece_a, 1);
    assert_int_equal(d.piece_b, 0);
    assert_true(fabs(d.distance - 1.5) < 1e-12);
    assert_int_equal(col_geometry_contact(k, id, s1, pose_at(6.4, 0, 0, col_quat_identity()), 0.0, NULL, qs, &c), COL_OK);
    assert_int_equal(c.outcome, COL_DISTANCE_PENETRATING);
    assert_int_equal(c.piece_a, 1);
    assert_int_equal(c.point_count, 1);
    assert_true(fabs(c.separation + 0.1) < 1e-12 && fabs(c.normal.x - 1.0) < 1e-12);
    /* A compound's deepest piece pair is the one reported, even after a shallower
     * penetrating pair was found first (two boxes under a long bar: 0.01 and 0.91 deep). */
    col_geometry *cube = box(1, 1, 1), *bar = box(5, 0.5, 0.5);
    col_geometry_child legs[2] = {{cube, pose_at(-3, 0, 0, col_quat_identity())}, {cube, pose_at(3, 0.9, 0, col_quat_identity())}};
    col_geometry *two = NULL;
    assert_int_equal(col_geometry_create_compound(NULL, legs, 2, &two, NULL), COL_OK);
    col_transform over = pose_at(0, 1.49, 0, col_quat_identity());
    assert_int_equal(col_geometry_contact(two, id, bar, over, 0.0, NULL, qs, &c), COL_OK);
    assert_int_equal(c.outcome, COL_DISTANCE_PENETRATING);
    assert_int_equal(c.piece_a, 1);
    assert_true(fabs(c.separation + 0.91) < 1e-9);
    assert_int_equal(col_geometry_distance(two, id, bar, over, NULL, qs, &d), COL_OK);
    assert_int_equal(d.outcome, COL_DISTANCE_PENETRATING);
    assert_int_equal(d.piece_a, 1);
    col_geometry_child balls[2] = {{s2, pose_at(-3, 0, 0, col_quat_identity())}, {s2, pose_at(3, 0.4, 0, col_quat_identity())}};
    col_geometry *twob = NULL;
    assert_int_equal(col_geometry_create_compound(NULL, balls, 2, &twob, NULL), COL_OK);
    assert_int_equal(col_geometry_contact(twob, id, bar, pose_at(0, 0.99, 0, col_quat_identity()), 0.0, NULL, qs, &c), COL_OK);
    assert_int_equal(c.piece_a, 1);
    assert_true(fabs(c.separation + 0.41) < 1e-9);
    col_geometry_destroy(twob);
    col_geometry_destroy(two);
    col_geometry_destroy(cube);
    col_geometry_destroy(bar);
    /* Bad input: a message in the scratch, outputs zeroed. */
    assert_int_equal(col_geometry_distance(NULL, id, s1, id, NULL, qs, &d), COL_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(col_query_scratch_last_error(qs), "NULL"));
    col_transform nan_pose = pose_at(NAN, 0, 0, col_quat_identity());
    assert_int_equal(col_geometry_contact(s1, nan_pose, s2, id, 0.0, NULL, qs, &c), COL_ERR_NOT_FINITE);
    assert_int_equal(c.point_count, 0);
    assert_int_equal(col_geometry_contact(s1, id, s2, id, -1.0, NULL, qs, &c), COL_ERR_INVALID_ARGUMENT);
    assert_int_equal(col_geometry_overlap(s1, id, s2, id, (col_backend)99, qs, &hit), COL_ERR_INVALID_ARGUMENT);
    col_geometry_destroy(k);
    col_geometry_destroy(s1);
    col_geometry_destroy(s2);
    col_geometry_destroy(bx);
    col_geometry_destroy(cp);
    col_query_scratch_destroy(qs);
}

/* The world-bound queries are the world-free ones on the world's geometry, and const:
 * the world's hash does not move. */
static void test_world_queries_wrap(void **state)
{
    (void)state;
    col_world *w = new_world(COL_BACKEND_VORONOI);
    col_shape_id s, c;
    assert_int_equal(col_shape_create_sphere(w, 1.0, &s), COL_OK);
    assert_int_equal(col_shape_create_capsule(w, 1.0, 0.5, &c), COL_OK);
    const col_geometry *gs, *gc;
    assert_int_equal(col_shape_get_geometry(w, s, &gs), COL_OK);
    assert_int_equal(col_shape_get_geometry(w, c, &gc), COL_OK);
    col_query_scratch *qs = NULL;
    assert_int_equal(col_query_scratch_create(NULL, &qs), COL_OK);
    uint64_t h = col_world_hash(w);
    rng_seed(15003, "test_world_queries_wrap");
    for (int i = 0; i < 500; i++) {
        col_transform ta = pose_at(urange(-1, 1), urange(-1, 1), urange(-1, 1), random_quat());
        col_transform tb = pose_at(urange(-2, 2), urange(-2, 2), urange(-2, 2), random_quat());
        bool x, y;
        assert_int_equal(col_query_overlap(w, s, ta, c, tb, COL_BACKEND_DEFAULT, &x), COL_OK);
        assert_int_equal(col_geometry_overlap(gs, ta, gc, tb, COL_BACKEND_DEFAULT, qs, &y), COL_OK);
        assert_int_equal(x, y);
        col_distance_input in = {s, c, ta, tb};
        col_distance_output d1, d2;
        assert_int_equal(col_distance(w, &in, NULL, &d1), COL_OK);
        assert_int_equal(col_geometry_distance(gs, ta, gc, tb, NULL, qs, &d2), COL_OK);
        assert_memory_equal(&d1, &d2, sizeof d1);
        assert_int_equal(d1.outcome == COL_DISTANCE_SEPARATED, !x);
    }
    assert_int_equal(col_world_hash(w), h);
    col_query_scratch_destroy(qs);
    col_world_destroy(w);
}

/* Round kinds and compounds keep the promise of docs/conventions.md item 11: once warm,
 * an update makes no allocator call. */
static void test_warm_frame_allocates_nothing(void **state)
{
    (void)state;
    rng_seed(15004, "test_warm_frame_allocates_nothing");
    col_world_def def = col_default_world_def();
    def.worker_count = 2;
    col_world *w = NULL;
    assert_int_equal(col_world_create(&def, &w), COL_OK);
    col_shape_id sid[NKIND];
    for (int k = 0; k < NKIND; k++) {
        col_geometry *g = random_geometry(k, 1.0);
        assert_int_equal(col_shape_create(w, g, &sid[k]), COL_OK);
        col_geometry_destroy(g);
    }
    enum { NB = 200 };
    col_body_id b[NB];
    for (int i = 0; i < NB; i++) {
        col_body_def bd = col_default_body_def();
        bd.shape = sid[i % NKIND];
        bd.pose = pose_at(urange(0, 10), urange(0, 10), urange(0, 10), random_quat());
        assert_int_equal(col_body_create(w, &bd, &b[i]), COL_OK);
    }
    col_counters cnt;
    for (int f = 0; f < 30; f++) {
        for (int i = 0; i < NB; i++) {
            col_transform t;
            col_body_get_pose(w, b[i], &t);
            t.p.x += 0.05 * sin(f + i);
            t.p.y += 0.05 * cos(f * 1.3 + i);
            assert_int_equal(col_body_set_pose(w, b[i], t), COL_OK);
        }
        assert_int_equal(col_world_update(w), COL_OK);
        assert_int_equal(col_world_get_counters(w, &cnt), COL_OK);
    }
    assert_int_equal(cnt.alloc_calls, 0);
    assert_true(cnt.colliding_pairs > 0);
    col_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_facts),
        cmocka_unit_test(test_geometry_bad_input),
        cmocka_unit_test(test_world_bad_input),
        cmocka_unit_test(test_world_matches_brute_force),
        cmocka_unit_test(test_distance_known),
        cmocka_unit_test(test_world_queries_wrap),
        cmocka_unit_test(test_warm_frame_allocates_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
