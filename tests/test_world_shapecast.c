/* SPDX-License-Identifier: MIT */
/* Shape casts (issue 20: col_world_cast_shape in include/colibri/worldquery.h) against a
 * brute force that knows nothing of the query tree or of the pruning: the time of impact
 * (col_geometry_toi, tested against a substep reference in its own suite) of the moving
 * geometry against every body that passes the filter, the least fraction winning, ties
 * to the smaller body index. Every hit is also checked by the exact pair decision
 * (col_world_overlap_shape): no body touches the geometry just before the fraction, and
 * the hit body touches it just after (a sweep that only grazes excepted). Casts are drawn
 * to be hard: random ones, ones starting inside or on a body (fraction 0), zero-length
 * ones, filtered ones; grazing sweeps of boxes and spheres along faces are checked
 * against their known fractions. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "colibri/colibri.h"
#include "lib/core/vec.h"
#include "test_util.h"

#define SEED 0x5ca57ULL
#define ROOM 8.0
#define NB 40

static int scaled(int n)
{
    const char *env = getenv("COLIBRI_TEST_SCALE");
    double f = env != NULL ? atof(env) : 1.0;
    int k = (int)(n * (f > 0.0 ? f : 1.0));
    return k < 10 ? 10 : k;
}

static col_transform at(double x, double y, double z)
{
    col_transform t = {{x, y, z}, {0, 0, 0, 1}};
    return t;
}

static col_transform random_pose(void)
{
    col_transform t;
    t.p = col_v3(urange(1, ROOM - 1), urange(1, ROOM - 1), urange(1, ROOM - 1));
    t.q = random_quat();
    return t;
}

typedef struct scene {
    col_world *w;
    col_shape_id shapes[6];
    col_body_id id[NB];
} scene;

static void scene_make(scene *s)
{
    memset(s, 0, sizeof *s);
    col_world_def def = col_default_world_def();
    assert_int_equal(col_world_create(&def, &s->w), COL_OK);
    col_vec3 pts[12];
    for (int k = 0; k < 2; k++) {
        for (int i = 0; i < 12; i++) pts[i] = col_v3(urange(-0.7, 0.7), urange(-0.7, 0.7), urange(-0.7, 0.7));
        assert_int_equal(col_shape_create_convex(s->w, pts, 12, &s->shapes[k]), COL_OK);
    }
    assert_int_equal(col_shape_create_box(s->w, col_v3(0.6, 0.3, 0.45), &s->shapes[2]), COL_OK);
    assert_int_equal(col_shape_create_sphere(s->w, 0.5, &s->shapes[3]), COL_OK);
    assert_int_equal(col_shape_create_capsule(s->w, 0.6, 0.25, &s->shapes[4]), COL_OK);
    col_compound_child kids[2] = {{s->shapes[2], {{0.5, 0, 0}, {0, 0, 0, 1}}},
                                  {s->shapes[4], {{-0.5, 0, 0}, {0, 0.6, 0, 0.8}}}};
    assert_int_equal(col_shape_create_compound(s->w, kids, 2, &s->shapes[5]), COL_OK);
    for (int i = 0; i < NB; i++) {
        col_body_def bd = col_default_body_def();
        bd.shape = s->shapes[i % 6];
        bd.pose = random_pose();
        bd.filter_group = 1u << (i % 3);
        bd.user_data = (void *)(intptr_t)i;
        bd.is_static = i % 7 == 0;
        assert_int_equal(col_body_create(s->w, &bd, &s->id[i]), COL_OK);
    }
    assert_int_equal(col_world_update(s->w), COL_OK);
}

/* the query geometries: hull, sphere, capsule, compound (of a box and a capsule) */
static void make_geometries(col_geometry **g)
{
    col_vec3 pts[10];
    for (int i = 0; i < 10; i++) pts[i] = col_v3(urange(-0.6, 0.6), urange(-0.6, 0.6), urange(-0.6, 0.6));
    assert_int_equal(col_geometry_create_hull(NULL, pts, 10, &g[0], NULL), COL_OK);
    assert_int_equal(col_geometry_create_sphere(NULL, 0.4, &g[1], NULL), COL_OK);
    assert_int_equal(col_geometry_create_capsule(NULL, 0.5, 0.2, &g[2], NULL), COL_OK);
    col_geometry *box;
    assert_int_equal(col_geometry_create_box(NULL, col_v3(0.3, 0.2, 0.25), &box, NULL), COL_OK);
    col_geometry_child kids[2] = {{box, {{0.4, 0, 0}, {0, 0, 0, 1}}}, {g[2], {{-0.4, 0, 0}, {0, 0.6, 0, 0.8}}}};
    assert_int_equal(col_geometry_create_compound(NULL, kids, 2, &g[3], NULL), COL_OK);
    col_geometry_destroy(box);
}

static bool odd_only(col_body_id body, void *user_data, void *ctx)
{
    (void)body, (void)ctx;
    return ((intptr_t)user_data & 1) != 0;
}

static bool passes(const scene *s, int i, const col_query_filter *f)
{
    if (f == NULL) return true;
    uint32_t group = 1u << (i % 3), mask = 0xffffffffu;
    if ((f->group & mask) == 0 || (group & f->mask) == 0) return false;
    return f->fn == NULL || f->fn(s->id[i], col_body_get_user_data(s->w, s->id[i]), f->ctx);
}

/* The brute force: the least time of impact over the bodies passing f, ties to the
 * smaller index (the bodies were created in index order into a fresh world). */
static bool brute(const scene *s, col_query_scratch *scr, const col_geometry *g, col_transform pose, col_vec3 d,
                  const col_query_filter *f, int *body, col_toi_output *best)
{
    bool found = false;
    col_transform end = pose;
    end.p = col_add(pose.p, d);
    for (int i = 0; i < NB; i++) {
        if (!passes(s, i, f)) continue;
        col_transform bp;
        assert_int_equal(col_body_get_pose(s->w, s->id[i], &bp), COL_OK);
        const col_geometry *bg;
        assert_int_equal(col_shape_get_geometry(s->w, s->shapes[i % 6], &bg), COL_OK);
        col_toi_output o;
        assert_int_equal(col_geometry_toi(g, pose, end, bg, bp, bp, scr, &o), COL_OK);
        if (!o.hit) continue;
        if (!found || o.s < best->s) *best = o, *body = i, found = true;
    }
    return found;
}

static col_transform moved(col_transform pose, col_vec3 d, double s)
{
    pose.p = col_add(pose.p, col_scale(d, s));
    return pose;
}

static bool listed(const col_body_id *ids, int n, col_body_id id)
{
    for (int k = 0; k < n; k++)
        if (ids[k].index1 == id.index1) return true;
    return false;
}

static void test_cast_shape_matches_brute_force(void **state)
{
    (void)state;
    rng_seed(SEED, "cast_shape_matches_brute_force");
    scene s;
    scene_make(&s);
    col_geometry *g[4];
    make_geometries(g);
    col_query_scratch *scr;
    assert_int_equal(col_query_scratch_create(NULL, &scr), COL_OK);
    col_query_filter groups = col_default_query_filter(), callback = col_default_query_filter();
    groups.mask = 1u | 4u;
    callback.fn = odd_only;
    int casts = scaled(400), hits = 0, at_zero = 0, zero_len = 0;
    for (int c = 0; c < casts; c++) {
        if (c == casts / 2) /* set poses count, before the next update */
            for (int i = 1; i < NB; i += 5) assert_int_equal(col_body_set_pose(s.w, s.id[i], random_pose()), COL_OK);
        const col_geometry *qg = g[c % 4];
        col_transform pose = random_pose();
        int kind = c % 5;
        if (kind < 3) /* a free start, so most of these casts travel before they hit */
            for (int tries = 0; tries < 20; tries++) {
                int n;
                assert_int_equal(col_world_overlap_shape(s.w, qg, pose, NULL, NULL, 0, &n), COL_OK);
                if (n == 0) break;
                pose = random_pose();
            }
        if (kind == 3) { /* start inside or on a body: fraction 0 */
            col_transform bp;
            assert_int_equal(col_body_get_pose(s.w, s.id[(c / 5) % NB], &bp), COL_OK);
            pose.p = bp.p;
        }
        col_vec3 d = col_v3(urange(-4, 4), urange(-4, 4), urange(-4, 4));
        if (kind == 4 && (c / 5) % 2 == 0) d = col_v3(0, 0, 0);
        const col_query_filter *f = c % 3 == 0 ? NULL : c % 3 == 1 ? &groups : &callback;
        col_shape_hit h;
        bool found;
        assert_int_equal(col_world_cast_shape(s.w, qg, pose, d, f, &h, &found), COL_OK);
        int body = -1;
        col_toi_output want = {0};
        bool bf = brute(&s, scr, qg, pose, d, f, &body, &want);
        if (bf != found) fail_msg("cast %d: found %d, brute force %d", c, found, bf);
        zero_len += d.x == 0 && d.y == 0 && d.z == 0;
        if (!found) {
            assert_int_equal(h.body.index1, 0);
            continue;
        }
        hits++;
        at_zero += h.fraction == 0.0;
        if (fabs(h.fraction - want.s) > 1e-12) fail_msg("cast %d: fraction %.17g, brute force %.17g", c, h.fraction, want.s);
        if (h.body.index1 != s.id[body].index1) {
            /* only a tie (to rounding: the brute force renormalises the poses) may differ */
            col_toi_output o;
            int other = (int)h.body.index1 - 1;
            assert_true(other >= 0 && other < NB);
            assert_true(other < body || fabs(h.fraction - want.s) > 0);
            col_transform bp, end = moved(pose, d, 1.0);
            assert_int_equal(col_body_get_pose(s.w, s.id[other], &bp), COL_OK);
            const col_geometry *bg;
            assert_int_equal(col_shape_get_geometry(s.w, s.shapes[other % 6], &bg), COL_OK);
            assert_int_equal(col_geometry_toi(qg, pose, end, bg, bp, bp, scr, &o), COL_OK);
            if (!(o.hit && fabs(o.s - want.s) <= 1e-12)) fail_msg("cast %d: body %d, brute force %d", c, other, body);
        }
        assert_true(h.fraction >= 0.0 && h.fraction <= 1.0);
        assert_true(fabs(col_len(h.normal) - 1.0) < 1e-9);
        /* the normal points from the body toward the shape: the shape's point lies on its side */
        if (h.fraction > 0.0 && col_dot(col_sub(h.shape_point, h.point), h.normal) < -1e-6)
            fail_msg("cast %d: normal (%g %g %g) fraction %g points %g %g %g / %g %g %g", c, h.normal.x, h.normal.y,
                     h.normal.z, h.fraction, h.point.x, h.point.y, h.point.z, h.shape_point.x, h.shape_point.y,
                     h.shape_point.z);
        if (kind == 3 && passes(&s, (c / 5) % NB, f)) assert_true(h.fraction == 0.0);
        /* exactly: nothing that passes the filter touches the shape just before the fraction */
        col_body_id ids[NB];
        int n;
        if (h.fraction > 1e-9) {
            assert_int_equal(col_world_overlap_shape(s.w, qg, moved(pose, d, h.fraction - 1e-9), f, ids, NB, &n),
                             COL_OK);
            if (n != 0) fail_msg("cast %d: a body touches before the fraction %.17g", c, h.fraction);
        }
        /* and the hit body touches it within the time of impact's 1e-6 after it */
        double after = fmin(1.0, h.fraction + 2e-6);
        assert_int_equal(col_world_overlap_shape(s.w, qg, moved(pose, d, after), f, ids, NB, &n), COL_OK);
        if (!listed(ids, n, h.body)) fail_msg("cast %d: the hit body does not touch just after %.17g", c, h.fraction);
    }
    print_message("shape casts: %d casts, %d hits, %d at fraction 0, %d of zero length\n", casts, hits, at_zero,
                  zero_len);
    assert_true(hits * 4 > casts && hits < casts && at_zero > 0 && zero_len > 0);
    for (int k = 0; k < 4; k++) col_geometry_destroy(g[k]);
    col_query_scratch_destroy(scr);
    col_world_destroy(s.w);
}

/* Sweeps along faces, whose first contact is known: a box sliding on a box's top face
 * touches when the faces start to share a point; a hair higher it misses. */
static void test_cast_shape_grazing(void **state)
{
    (void)state;
    col_world_def def = col_default_world_def();
    col_world *w;
    assert_int_equal(col_world_create(&def, &w), COL_OK);
    col_shape_id box;
    assert_int_equal(col_shape_create_box(w, col_v3(1, 1, 1), &box), COL_OK);
    col_body_def bd = col_default_body_def();
    bd.shape = box;
    bd.pose = at(0, 0, 0);
    col_body_id b0, b1;
    assert_int_equal(col_body_create(w, &bd, &b0), COL_OK);
    bd.pose = at(3, 0, 0);
    assert_int_equal(col_body_create(w, &bd, &b1), COL_OK);
    assert_int_equal(col_world_update(w), COL_OK);
    col_geometry *qb, *qs;
    assert_int_equal(col_geometry_create_box(NULL, col_v3(0.5, 0.5, 0.5), &qb, NULL), COL_OK);
    assert_int_equal(col_geometry_create_sphere(NULL, 0.5, &qs, NULL), COL_OK);
    col_shape_hit h;
    bool found;
    /* box on the top face plane y = 1: contact when its right face reaches x = -1 */
    assert_int_equal(col_world_cast_shape(w, qb, at(-5, 1.5, 0), col_v3(10, 0, 0), NULL, &h, &found), COL_OK);
    assert_true(found);
    assert_int_equal(h.body.index1, b0.index1);
    assert_true(h.fraction <= 0.35 && h.fraction >= 0.35 - 1e-6);
    /* a hair above: nothing */
    assert_int_equal(col_world_cast_shape(w, qb, at(-5, 1.5 + 1e-9, 0), col_v3(10, 0, 0), NULL, &h, &found), COL_OK);
    assert_false(found);
    /* a sphere rolling on the top face: contact when its centre is above x = -1, normal +y */
    assert_int_equal(col_world_cast_shape(w, qs, at(-5, 1.5, 0), col_v3(10, 0, 0), NULL, &h, &found), COL_OK);
    assert_true(found);
    assert_int_equal(h.body.index1, b0.index1);
    assert_true(h.fraction <= 0.4 && h.fraction >= 0.4 - 1e-6);
    assert_true(h.normal.y > 0.999);
    /* a sphere sliding down along the side face x = -1: contact when its centre reaches z = 1 */
    assert_int_equal(col_world_cast_shape(w, qs, at(-1.5, 0, 5), col_v3(0, 0, -10), NULL, &h, &found), COL_OK);
    assert_true(found);
    assert_int_equal(h.body.index1, b0.index1);
    assert_true(h.fraction <= 0.4 && h.fraction >= 0.4 - 1e-6);
    assert_true(h.normal.x < -0.999);
    /* between the boxes (x in [1, 2]) a box of half width 0.5 touches both edges at once:
     * the time of impact may place the two contacts a little apart (within its 1e-6), so
     * either may win, at the right fraction */
    assert_int_equal(col_world_cast_shape(w, qb, at(1.5, 5, 0), col_v3(0, -10, 0), NULL, &h, &found), COL_OK);
    assert_true(found);
    assert_true(h.body.index1 == b0.index1 || h.body.index1 == b1.index1);
    assert_true(h.fraction <= 0.35 && h.fraction >= 0.35 - 1e-6);
    /* starting on the face: fraction 0 whatever the direction; zero length too */
    assert_int_equal(col_world_cast_shape(w, qb, at(0, 1.5, 0), col_v3(0, 5, 0), NULL, &h, &found), COL_OK);
    assert_true(found && h.fraction == 0.0);
    assert_int_equal(col_world_cast_shape(w, qb, at(0, 1.5, 0), col_v3(0, 0, 0), NULL, &h, &found), COL_OK);
    assert_true(found && h.fraction == 0.0);
    assert_int_equal(col_world_cast_shape(w, qb, at(0, 1.6, 0), col_v3(0, 0, 0), NULL, &h, &found), COL_OK);
    assert_false(found);
    col_geometry_destroy(qb);
    col_geometry_destroy(qs);
    col_world_destroy(w);
}

/* A mesh body in the way is refused (the time of impact has no meshes yet), without
 * touching the world; filtered out, the cast goes past it. */
static void test_cast_shape_mesh_body(void **state)
{
    (void)state;
    col_world_def def = col_default_world_def();
    col_world *w;
    assert_int_equal(col_world_create(&def, &w), COL_OK);
    col_vec3 v[3] = {{-2, 0, -2}, {2, 0, -2}, {0, 0, 2}};
    uint32_t t[3] = {0, 1, 2};
    col_mesh_def md = col_default_mesh_def();
    md.vertices = v, md.vertex_count = 3, md.indices = t, md.triangle_count = 1;
    col_shape_id mesh, ball;
    assert_int_equal(col_shape_create_mesh(w, &md, &mesh), COL_OK);
    assert_int_equal(col_shape_create_sphere(w, 1, &ball), COL_OK);
    col_body_def bd = col_default_body_def();
    bd.shape = mesh;
    bd.pose = at(0, 0, 0);
    bd.filter_group = 2;
    col_body_id m, b;
    assert_int_equal(col_body_create(w, &bd, &m), COL_OK);
    bd.shape = ball;
    bd.pose = at(0, -5, 0);
    bd.filter_group = 1;
    assert_int_equal(col_body_create(w, &bd, &b), COL_OK);
    assert_int_equal(col_world_update(w), COL_OK);
    col_geometry *qs;
    assert_int_equal(col_geometry_create_sphere(NULL, 0.5, &qs, NULL), COL_OK);
    uint64_t hash = col_world_hash(w);
    col_shape_hit h;
    bool found = true;
    assert_int_equal(col_world_cast_shape(w, qs, at(0, 5, 0), col_v3(0, -10, 0), NULL, &h, &found),
                     COL_ERR_INVALID_ARGUMENT);
    assert_false(found);
    assert_non_null(strstr(col_world_last_error(w), "mesh"));
    assert_true(col_world_hash(w) == hash);
    col_query_filter f = col_default_query_filter();
    f.mask = 1;
    assert_int_equal(col_world_cast_shape(w, qs, at(0, 5, 0), col_v3(0, -10, 0), &f, &h, &found), COL_OK);
    assert_true(found);
    assert_int_equal(h.body.index1, b.index1);
    assert_true(h.fraction <= 0.85 && h.fraction >= 0.85 - 1e-6);
    assert_true(h.normal.y > 0.999);
    /* a mesh geometry does not move */
    const col_geometry *mg;
    assert_int_equal(col_shape_get_geometry(w, mesh, &mg), COL_OK);
    assert_int_equal(col_world_cast_shape(w, mg, at(0, 5, 0), col_v3(0, -10, 0), &f, &h, &found),
                     COL_ERR_INVALID_ARGUMENT);
    col_geometry_destroy(qs);
    col_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cast_shape_matches_brute_force),
        cmocka_unit_test(test_cast_shape_grazing),
        cmocka_unit_test(test_cast_shape_mesh_body),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
