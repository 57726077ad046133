/* SPDX-License-Identifier: MIT */
/* Time of impact with triangle meshes (C2A: ccd/c2a.h; query.h col_geometry_toi; docs/ccd.md
 * "C2A") against the substep-and-bisect reference of tests/test_toi.c: the motion model
 * written out again (tests/ccd_ref.h), 2048 equal substeps each decided by the exact
 * discrete test (col_geometry_overlap: exact triangle-triangle and triangle-piece
 * decisions), and bisection to 1e-9. Required: no contact the reference finds is missed,
 * none reported later than the reference's touching instant (+1e-12), none more than 1e-6
 * before its free one; a hit the reference does not see must be confirmed by a finer search
 * or a distance below 1e-9. Mesh-mesh and mesh-convex (either order), controlled and not;
 * grazing paths, pure rotation, thin open patches crossed in one interval, degenerate
 * soups (segments and points as triangles), bodies that start touching; and the FCL #555
 * head-on case, which the cancelling bound (c2a.h, for this test only) must miss. */
#include <float.h>
#include <string.h>

#include "ccd/c2a.h"
#include "colibri/colibri.h"
#include "colibri/query.h"
#include "colibri/shape.h"
#include "ccd_ref.h"
#include "test_util.h"

#define REF_STEPS 2048
#define PI 3.14159265358979323846

static col_query_scratch *scratch;

typedef ccd_ref_case ref_case;

static bool ref_first(const ref_case *c, double *lo, double *hi)
{
    return ccd_ref_first(scratch, c, REF_STEPS, lo, hi);
}

static bool fine_touch(const ref_case *c, double s0, double s1) { return ccd_ref_fine_touch(scratch, c, s0, s1); }

static int extra_hits, checked_hits, checked_misses, instant_hits;

static void check_output(const ref_case *c, const col_toi_output *o, const char *what, int n)
{
    double lo, hi;
    bool ref = ref_first(c, &lo, &hi);
    if (ref && !o->hit) fail_msg("%s %d: missed a contact at s in [%.17g, %.17g]", what, n, lo, hi);
    if (!o->hit) {
        checked_misses++;
        return;
    }
    assert_true(o->s >= 0.0 && o->s <= 1.0);
    assert_true(fabs(sqrt(o->normal.x * o->normal.x + o->normal.y * o->normal.y + o->normal.z * o->normal.z) - 1.0) <
                1e-9);
    if (ref) {
        if (o->s > hi + 1e-12)
            fail_msg("%s %d: late: s %.17g after the reference's contact at %.17g", what, n, o->s, hi);
        if (o->s < lo - 1e-6 && !fine_touch(c, o->s, o->s + 1e-6)) {
            /* an instantaneous contact before the reference's (a soup's point through a
             * face touches at one instant only, which no substep sees): the distance at s
             * must then be at the rounding level */
            col_distance_output d;
            assert_int_equal(col_geometry_distance(c->a, ccd_ref_pose(c->a0, c->a1, o->s), c->b,
                                                   ccd_ref_pose(c->b0, c->b1, o->s), NULL, scratch, &d),
                             COL_OK);
            if (d.distance > 1e-12)
                fail_msg("%s %d: early: s %.17g (%d rounds%s, distance %g there), the reference's contact in "
                         "[%.17g, %.17g]",
                         what, n, o->s, o->iterations, o->capped ? ", capped" : "", d.distance, lo, hi);
            instant_hits++;
        }
        checked_hits++;
        return;
    }
    if (!fine_touch(c, o->s, fmin(1.0, o->s + 1e-6))) {
        col_distance_output d;
        assert_int_equal(col_geometry_distance(c->a, ccd_ref_pose(c->a0, c->a1, o->s), c->b,
                                               ccd_ref_pose(c->b0, c->b1, o->s), NULL, scratch, &d),
                         COL_OK);
        if (d.distance > 1e-9)
            fail_msg("%s %d: a contact at s %.17g the reference does not see (distance %g there)", what, n, o->s,
                     d.distance);
    }
    extra_hits++;
}

/* The public query, then the internal one with the given options (same answer rules). */
static void check_case(const ref_case *c, const char *what, int n)
{
    col_toi_output o;
    assert_int_equal(col_geometry_toi(c->a, c->a0, c->a1, c->b, c->b0, c->b1, scratch, &o), COL_OK);
    check_output(c, &o, what, n);
    /* without the controlled advancement: the same promises */
    col_toi_motion ma, mb;
    col_toi_motion_init(&ma, c->a0, c->a1);
    col_toi_motion_init(&mb, c->b0, c->b1);
    col_c2a_options opt = col_c2a_default_options();
    opt.controlled = false;
    col_toi_result r;
    col_c2a_toi(c->a, &ma, c->b, &mb, &opt, &r, NULL);
    assert_int_equal(r.hit, o.hit);
    if (o.hit) assert_true(fabs(r.s - o.s) <= 2e-6);
}

/* ---- meshes ---- */

static col_geometry *mesh_of(const col_vec3 *v, int nv, const uint32_t *idx, int nt)
{
    col_mesh_def md = col_default_mesh_def();
    md.vertices = v;
    md.vertex_count = nv;
    md.indices = idx;
    md.triangle_count = nt;
    col_geometry *g = NULL;
    assert_int_equal(col_geometry_create_mesh(NULL, &md, &g, NULL), COL_OK);
    return g;
}

/* A closed bumpy ball: a UV sphere of radius r (stacks x slices), each vertex moved
 * radially by up to bump of r. */
static col_geometry *make_ball(double r, int st, int sl, double bump)
{
    col_vec3 v[2 + 32 * 32];
    uint32_t idx[6 * 32 * 32];
    int nv = 0, nt = 0;
    v[nv++] = (col_vec3){0, 0, r * (1 + bump * urange(-1, 1))};
    for (int i = 1; i < st; i++) {
        double th = PI * i / st;
        for (int j = 0; j < sl; j++) {
            double ph = 2 * PI * j / sl, rr = r * (1 + bump * urange(-1, 1));
            v[nv++] = (col_vec3){rr * sin(th) * cos(ph), rr * sin(th) * sin(ph), rr * cos(th)};
        }
    }
    v[nv++] = (col_vec3){0, 0, -r * (1 + bump * urange(-1, 1))};
    for (int j = 0; j < sl; j++) {
        uint32_t t[3] = {0, (uint32_t)(1 + j), (uint32_t)(1 + (j + 1) % sl)};
        memcpy(idx + 3 * nt++, t, sizeof t);
    }
    for (int i = 0; i < st - 2; i++)
        for (int j = 0; j < sl; j++) {
            uint32_t a = (uint32_t)(1 + i * sl + j), b = (uint32_t)(1 + i * sl + (j + 1) % sl);
            uint32_t c = a + (uint32_t)sl, d = b + (uint32_t)sl;
            uint32_t t0[3] = {a, c, b}, t1[3] = {b, c, d};
            memcpy(idx + 3 * nt++, t0, sizeof t0);
            memcpy(idx + 3 * nt++, t1, sizeof t1);
        }
    for (int j = 0; j < sl; j++) {
        uint32_t base = (uint32_t)(1 + (st - 2) * sl);
        uint32_t t[3] = {base + (uint32_t)j, (uint32_t)(nv - 1), base + (uint32_t)((j + 1) % sl)};
        memcpy(idx + 3 * nt++, t, sizeof t);
    }
    return mesh_of(v, nv, idx, nt);
}

/* An open square patch of side 2h in the z = 0 plane, n x n cells, zero thickness. */
static col_geometry *make_patch(double h, int n)
{
    col_vec3 v[17 * 17];
    uint32_t idx[6 * 16 * 16];
    int nv = 0, nt = 0;
    for (int i = 0; i <= n; i++)
        for (int j = 0; j <= n; j++) v[nv++] = (col_vec3){-h + 2 * h * i / n, -h + 2 * h * j / n, 0};
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            uint32_t a = (uint32_t)(i * (n + 1) + j), b = a + 1, c = a + (uint32_t)(n + 1), d = c + 1;
            uint32_t t0[3] = {a, b, c}, t1[3] = {b, d, c};
            memcpy(idx + 3 * nt++, t0, sizeof t0);
            memcpy(idx + 3 * nt++, t1, sizeof t1);
        }
    return mesh_of(v, nv, idx, nt);
}

/* A box [-h, h] as 12 triangles. */
static col_geometry *make_box_mesh(double hx, double hy, double hz)
{
    col_vec3 v[8];
    for (int k = 0; k < 8; k++) v[k] = (col_vec3){k & 1 ? hx : -hx, k & 2 ? hy : -hy, k & 4 ? hz : -hz};
    static const uint32_t idx[36] = {0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4,
                                     2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5};
    return mesh_of(v, 8, idx, 12);
}

/* A soup of n triangles in a ball of radius r: some proper, some segments (two equal
 * vertices or three collinear ones), some points. */
static col_geometry *make_soup(double r, int n)
{
    col_vec3 v[3 * 64];
    uint32_t idx[3 * 64];
    for (int k = 0; k < n; k++) {
        col_vec3 c = {urange(-r, r), urange(-r, r), urange(-r, r)};
        double e = 0.3 * r;
        col_vec3 p = {c.x + urange(-e, e), c.y + urange(-e, e), c.z + urange(-e, e)};
        col_vec3 q = {c.x + urange(-e, e), c.y + urange(-e, e), c.z + urange(-e, e)};
        int kind = k % 4;
        v[3 * k] = c;
        v[3 * k + 1] = kind == 3 ? c : p;
        v[3 * k + 2] = kind == 1 ? p : kind == 2 ? (col_vec3){(c.x + p.x) / 2, (c.y + p.y) / 2, (c.z + p.z) / 2}
                     : kind == 3 ? c
                                 : q;
        for (int i = 0; i < 3; i++) idx[3 * k + i] = (uint32_t)(3 * k + i);
    }
    return mesh_of(v, 3 * n, idx, n);
}

static col_geometry *make_hull(int n, double s)
{
    col_vec3 p[64];
    for (int i = 0; i < n; i++) {
        double x = gauss(), y = gauss(), z = gauss(), l = sqrt(x * x + y * y + z * z);
        p[i] = (col_vec3){s * x / l, s * y / l, s * z / l};
    }
    col_geometry *g = NULL;
    assert_int_equal(col_geometry_create_hull(NULL, p, n, &g, NULL), COL_OK);
    return g;
}

static col_geometry *make_sphere(double r)
{
    col_geometry *g = NULL;
    assert_int_equal(col_geometry_create_sphere(NULL, r, &g, NULL), COL_OK);
    return g;
}

static col_geometry *make_capsule(double h, double r)
{
    col_geometry *g = NULL;
    assert_int_equal(col_geometry_create_capsule(NULL, h, r, &g, NULL), COL_OK);
    return g;
}

static col_vec3 rand_vec(double r) { return (col_vec3){urange(-r, r), urange(-r, r), urange(-r, r)}; }

static col_transform pose_of(col_vec3 p, col_quat q) { return (col_transform){p, q}; }

static col_quat quat_axis(col_vec3 u, double angle)
{
    double l = sqrt(u.x * u.x + u.y * u.y + u.z * u.z), s = sin(0.5 * angle) / l;
    return (col_quat){u.x * s, u.y * s, u.z * s, cos(0.5 * angle)};
}

static col_quat quat_turn(col_quat q, double angle)
{
    col_quat r = quat_axis((col_vec3){gauss(), gauss(), gauss()}, angle);
    col_quat o = {r.w * q.x + r.x * q.w + r.y * q.z - r.z * q.y, r.w * q.y - r.x * q.z + r.y * q.w + r.z * q.x,
                  r.w * q.z + r.x * q.y - r.y * q.x + r.z * q.w, r.w * q.w - r.x * q.x - r.y * q.y - r.z * q.z};
    return o;
}

static col_vec3 vadd(col_vec3 a, col_vec3 b) { return (col_vec3){a.x + b.x, a.y + b.y, a.z + b.z}; }

static const col_quat ID = {0, 0, 0, 1};

/* ---- tests ---- */

static col_geometry *random_shape(bool mesh)
{
    if (mesh) {
        int k = (int)(rng_next() % 4);
        return k == 0 ? make_ball(urange(0.3, 0.7), 6, 8, 0.3)
             : k == 1 ? make_patch(urange(0.3, 0.8), 3)
             : k == 2 ? make_soup(0.5, 12)
                      : make_box_mesh(urange(0.02, 0.6), urange(0.02, 0.6), urange(0.02, 0.6));
    }
    int k = (int)(rng_next() % 3);
    return k == 0 ? make_hull(12, urange(0.2, 0.6)) : k == 1 ? make_sphere(urange(0.1, 0.5))
                                                           : make_capsule(urange(0.1, 0.6), urange(0.05, 0.2));
}

/* Random meshes (bumpy balls, open patches, soups, thin boxes) against meshes and convex
 * shapes (either order), random translations and turns of up to a half turn. */
static void test_random_against_reference(void **state)
{
    (void)state;
    rng_seed(0xC2A01, "c2a_random_against_reference");
    extra_hits = checked_hits = checked_misses = instant_hits = 0;
    for (int n = 0; n < 400; n++) {
        int mode = n % 3; /* 0 mesh-mesh, 1 mesh-convex, 2 convex-mesh */
        col_geometry *a = random_shape(mode != 2), *b = random_shape(mode != 1);
        double speed = n % 4 == 0 ? 6.0 : 2.0, turn = n % 2 ? 3.1 : 0.8;
        ref_case c = {a, b, pose_of(rand_vec(1.0), random_quat()), pose_of((col_vec3){0, 0, 0}, ID),
                      pose_of(rand_vec(1.0), random_quat()), pose_of((col_vec3){0, 0, 0}, ID)};
        c.a1 = pose_of(vadd(c.a0.p, rand_vec(speed)), quat_turn(c.a0.q, urange(0, turn)));
        c.b1 = pose_of(vadd(c.b0.p, rand_vec(speed)), quat_turn(c.b0.q, urange(0, turn)));
        check_case(&c, mode == 0 ? "mesh-mesh" : mode == 1 ? "mesh-convex" : "convex-mesh", n);
        col_geometry_destroy(a);
        col_geometry_destroy(b);
    }
    print_message("c2a random: %d hits (%d instantaneous, before the reference's), %d misses checked, %d extra hits "
                  "confirmed\n",
                  checked_hits, instant_hits, checked_misses, extra_hits);
    assert_true(checked_hits > 20 && checked_misses > 20);
}

/* Pure rotation: a long thin strip (a 2 x 0.1 patch of triangles) spinning about its centre
 * by up to a full half turn hits or misses small boxes around it; no translation. */
static void test_pure_rotation(void **state)
{
    (void)state;
    rng_seed(0xC2A02, "c2a_pure_rotation");
    col_vec3 v[4] = {{-1, -0.05, 0}, {1, -0.05, 0}, {1, 0.05, 0}, {-1, 0.05, 0}};
    uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
    col_geometry *strip = mesh_of(v, 4, idx, 2);
    col_geometry *box = make_box_mesh(0.05, 0.05, 0.05), *ball = make_sphere(0.05);
    extra_hits = checked_hits = checked_misses = 0;
    for (int n = 0; n < 60; n++) {
        double ang = urange(0.1, 3.1), place = urange(0, 2 * PI), rad = urange(0.3, 1.2);
        ref_case c = {strip, n % 2 ? box : ball, pose_of((col_vec3){0, 0, 0}, ID), pose_of((col_vec3){0, 0, 0}, ID),
                      pose_of((col_vec3){rad * cos(place), rad * sin(place), urange(-0.06, 0.06)}, random_quat()),
                      pose_of((col_vec3){0, 0, 0}, ID)};
        c.a1 = pose_of((col_vec3){0, 0, 0}, quat_axis((col_vec3){0, 0, 1}, ang));
        c.b1 = c.b0;
        check_case(&c, "rotation", n);
    }
    print_message("rotation: %d hits, %d misses\n", checked_hits, checked_misses);
    assert_true(checked_hits > 5 && checked_misses > 5);
    col_geometry_destroy(strip);
    col_geometry_destroy(box);
    col_geometry_destroy(ball);
}

/* Thin open patches crossed within one interval (tunneling): a small box mesh or sphere
 * moving 10 to 100 of its sizes through a zero-thickness patch must hit it, at the
 * analytic instant for a flat approach. */
static void test_thin_patches(void **state)
{
    (void)state;
    rng_seed(0xC2A03, "c2a_thin_patches");
    col_geometry *patch = make_patch(1.0, 4), *cube = make_box_mesh(0.01, 0.01, 0.01), *ball = make_sphere(0.01);
    for (int n = 0; n < 40; n++) {
        double z0 = urange(0.2, 1.0), z1 = -urange(0.2, 1.0);
        col_vec3 xy = {urange(-0.9, 0.9), urange(-0.9, 0.9), 0};
        const col_geometry *mover = n % 2 ? cube : ball;
        ref_case c = {patch, mover, pose_of((col_vec3){0, 0, 0}, ID), pose_of((col_vec3){0, 0, 0}, ID),
                      pose_of((col_vec3){xy.x, xy.y, z0}, ID), pose_of((col_vec3){xy.x, xy.y, z1}, ID)};
        col_toi_output o;
        assert_int_equal(col_geometry_toi(c.a, c.a0, c.a1, c.b, c.b0, c.b1, scratch, &o), COL_OK);
        assert_true(o.hit);
        double s = (z0 - 0.01) / (z0 - z1);
        if (o.s > s + 1e-12 || o.s < s - 1e-6) fail_msg("patch %d: s %.17g, analytic %.17g", n, o.s, s);
        assert_true(o.normal.z > 0.99); /* from the patch toward the mover above it */
        check_case(&c, "patch", n);
    }
    col_geometry_destroy(patch);
    col_geometry_destroy(cube);
    col_geometry_destroy(ball);
}

/* Grazing: a box mesh slides over a patch at heights 1e-3 above (miss), exactly touching
 * (hit) and 1e-3 below (hit), with and without a turn of the patch about the path. */
static void test_grazing(void **state)
{
    (void)state;
    col_geometry *patch = make_patch(1.0, 2), *cube = make_box_mesh(0.1, 0.1, 0.1);
    const double h[3] = {1e-3, 0.0, -1e-3};
    for (int k = 0; k < 3; k++) {
        ref_case c = {patch, cube, pose_of((col_vec3){0, 0, 0}, ID), pose_of((col_vec3){0, 0, 0}, ID),
                      pose_of((col_vec3){-3, 0, 0.1 + h[k]}, ID), pose_of((col_vec3){3, 0, 0.1 + h[k]}, ID)};
        col_toi_output o;
        assert_int_equal(col_geometry_toi(c.a, c.a0, c.a1, c.b, c.b0, c.b1, scratch, &o), COL_OK);
        assert_int_equal(o.hit, k > 0);
        if (o.hit) {
            double s = (3.0 - 1.1) / 6.0;
            if (o.s > s + 1e-12 || o.s < s - 1e-6) fail_msg("grazing %d: s %.17g, analytic %.17g", k, o.s, s);
        }
        check_case(&c, "grazing", k);
    }
    col_geometry_destroy(patch);
    col_geometry_destroy(cube);
}

/* Start touching (overlapping or sharing a face): s = 0. */
static void test_start_touching(void **state)
{
    (void)state;
    rng_seed(0xC2A05, "c2a_start_touching");
    col_geometry *ball = make_ball(0.5, 6, 8, 0.2), *cube = make_box_mesh(0.5, 0.5, 0.5), *s = make_sphere(0.3);
    /* a mesh is a surface: b is placed across a's face x = 0.5 (its centre on the face,
     * its surface at least 0.3 from its centre), so they share a point */
    /* faces in contact: two unit cubes side by side */
    col_toi_output o;
    col_transform x0 = pose_of((col_vec3){0, 0, 0}, ID), x1 = pose_of((col_vec3){1, 0, 0}, ID);
    assert_int_equal(col_geometry_toi(cube, x0, x0, cube, x1, pose_of((col_vec3){2, 0, 0}, ID), scratch, &o), COL_OK);
    assert_true(o.hit);
    assert_true(o.s == 0.0);
    for (int n = 0; n < 20; n++) {
        col_transform a0 = pose_of((col_vec3){0, 0, 0}, ID);
        col_transform b0 = pose_of((col_vec3){0.5, urange(-0.3, 0.3), urange(-0.3, 0.3)}, random_quat());
        ref_case c = {cube, n % 2 ? s : ball, a0, pose_of(vadd(a0.p, rand_vec(3)), random_quat()), b0,
                      pose_of(vadd(b0.p, rand_vec(3)), random_quat())};
        assert_int_equal(col_geometry_toi(c.a, c.a0, c.a1, c.b, c.b0, c.b1, scratch, &o), COL_OK);
        assert_true(o.hit);
        assert_true(o.s == 0.0);
        check_case(&c, "start", n);
    }
    col_geometry_destroy(ball);
    col_geometry_destroy(cube);
    col_geometry_destroy(s);
}

/* FCL #555: two boxes moving head on toward each other at equal speeds. Their signed
 * speeds along the normal cancel in FCL's leaf bound; the summed bound finds the analytic
 * instant, and the cancelling bound (c2a.h, for this test) misses it: this check fails on
 * such a bound. */
static void test_fcl555_head_on(void **state)
{
    (void)state;
    col_geometry *a = make_box_mesh(0.5, 0.5, 0.5), *b = make_box_mesh(0.5, 0.5, 0.5);
    col_toi_motion ma, mb;
    col_toi_motion_init(&ma, pose_of((col_vec3){-3, 0, 0}, ID), pose_of((col_vec3){3, 0, 0}, ID));
    col_toi_motion_init(&mb, pose_of((col_vec3){3, 0, 0}, ID), pose_of((col_vec3){-3, 0, 0}, ID));
    const double s = 5.0 / 12.0;
    col_toi_result r;
    col_c2a_options opt = col_c2a_default_options();
    for (int controlled = 0; controlled < 2; controlled++) {
        opt.controlled = controlled;
        opt.bound = COL_C2A_BOUND_SUM;
        col_c2a_toi(a, &ma, b, &mb, &opt, &r, NULL);
        assert_true(r.hit);
        if (r.s > s + 1e-12 || r.s < s - 1e-6) fail_msg("head on: s %.17g, analytic %.17g", r.s, s);
        assert_true(r.normal.x > 0.99);
        opt.bound = COL_C2A_BOUND_CANCELLING;
        col_c2a_toi(a, &ma, b, &mb, &opt, &r, NULL);
        assert_false(r.hit); /* the defect the check above catches */
    }
    col_geometry_destroy(a);
    col_geometry_destroy(b);
}

/* The world query and a mesh the same as the geometry query. */
static void test_world_query(void **state)
{
    (void)state;
    col_world *w = NULL;
    col_world_def wd = col_default_world_def();
    assert_int_equal(col_world_create(&wd, &w), COL_OK);
    col_vec3 v[4] = {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
    uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
    col_mesh_def md = col_default_mesh_def();
    md.vertices = v;
    md.vertex_count = 4;
    md.indices = idx;
    md.triangle_count = 2;
    col_shape_id mesh, ball;
    assert_int_equal(col_shape_create_mesh(w, &md, &mesh), COL_OK);
    assert_int_equal(col_shape_create_sphere(w, 0.1, &ball), COL_OK);
    col_toi_input in = {mesh, ball, pose_of((col_vec3){0, 0, 0}, ID), pose_of((col_vec3){0, 0, 0}, ID),
                        pose_of((col_vec3){0.2, 0.3, 1.1}, ID), pose_of((col_vec3){0.2, 0.3, -0.9}, ID)};
    col_toi_output o;
    assert_int_equal(col_toi(w, &in, &o), COL_OK);
    assert_true(o.hit);
    assert_true(o.s <= 0.5 + 1e-12 && o.s >= 0.5 - 1e-6);
    assert_true(o.piece_a == 0 || o.piece_a == 1);
    col_world_destroy(w);
}

static int setup(void **state)
{
    (void)state;
    return col_query_scratch_create(NULL, &scratch) == COL_OK ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    col_query_scratch_destroy(scratch);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_against_reference), cmocka_unit_test(test_pure_rotation),
        cmocka_unit_test(test_thin_patches),             cmocka_unit_test(test_grazing),
        cmocka_unit_test(test_start_touching),           cmocka_unit_test(test_fcl555_head_on),
        cmocka_unit_test(test_world_query),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
