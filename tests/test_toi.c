/* SPDX-License-Identifier: MIT */
/* Time of impact (query.h: col_geometry_toi, col_toi; ccd/toi.h; docs/ccd.md) against a
 * reference that shares nothing with conservative advancement: the motion model written
 * out again here from docs/ccd.md (position linear, slerp on the shorter
 * arc by the acos formula), 2^12 equal substeps each decided by the exact overlap test
 * (col_geometry_overlap, with the reference backend), and bisection to 1e-9 between the
 * last free and the first touching substep. Required: every contact the reference finds
 * is found, never later than the reference's touching instant (+1e-12) and at most 1e-6
 * before its free one; a contact the reference does not see (between its substeps) must
 * be confirmed by a finer search. Plus analytic cases (spheres in pure translation: a
 * quadratic), grazing paths, pure rotation, thin plates and needles, bodies that start
 * touching, fast bodies, and the FCL #555 case (both bodies moving toward each other). */
#include <float.h>
#include <string.h>

#include "colibri/query.h"
#include "colibri/shape.h"
#include "ccd_ref.h"
#include "test_util.h"

#define REF_STEPS 4096

static col_query_scratch *scratch;

/* ---- the reference ---- */

typedef ccd_ref_case ref_case;

static bool ref_first(const ref_case *c, double *lo, double *hi)
{
    return ccd_ref_first(scratch, c, REF_STEPS, lo, hi);
}

static bool fine_touch(const ref_case *c, double s0, double s1) { return ccd_ref_fine_touch(scratch, c, s0, s1); }

static int extra_hits, checked_hits, checked_misses, iterations_max;

/* One case: the query against the reference. */
static void check_case(const ref_case *c, const char *what, int n)
{
    col_toi_output o;
    assert_int_equal(col_geometry_toi(c->a, c->a0, c->a1, c->b, c->b0, c->b1, scratch, &o), COL_OK);
    if (o.iterations > iterations_max) iterations_max = o.iterations;
    double lo, hi;
    bool ref = ref_first(c, &lo, &hi);
    if (ref && !o.hit) fail_msg("%s %d: missed a contact at s in [%.17g, %.17g]", what, n, lo, hi);
    if (!o.hit) {
        checked_misses++;
        return;
    }
    assert_true(o.s >= 0.0 && o.s <= 1.0);
    assert_true(fabs(sqrt(o.normal.x * o.normal.x + o.normal.y * o.normal.y + o.normal.z * o.normal.z) - 1.0) < 1e-9);
    if (ref) {
        if (o.s > hi + 1e-12) fail_msg("%s %d: late: s %.17g after the reference's contact at %.17g", what, n, o.s, hi);
        if (o.s < lo - 1e-6 && !fine_touch(c, o.s, o.s + 1e-6))
            fail_msg("%s %d: early: s %.17g, the reference's contact in [%.17g, %.17g]", what, n, o.s, lo, hi);
        checked_hits++;
        return;
    }
    /* A contact between the reference's substeps, or a graze within the tolerance. */
    if (!fine_touch(c, o.s, fmin(1.0, o.s + 1e-6))) {
        col_distance_output d;
        assert_int_equal(col_geometry_distance(c->a, ccd_ref_pose(c->a0, c->a1, o.s), c->b, ccd_ref_pose(c->b0, c->b1, o.s),
                                               NULL, scratch, &d),
                         COL_OK);
        if (d.distance > 1e-9)
            fail_msg("%s %d: a contact at s %.17g the reference does not see (distance %g there)", what, n, o.s,
                     d.distance);
    }
    extra_hits++;
}

/* ---- shapes and motions ---- */

static col_geometry *make_hull(int n, double sx, double sy, double sz)
{
    col_vec3 p[64];
    for (int i = 0; i < n; i++) {
        double x = gauss(), y = gauss(), z = gauss(), l = sqrt(x * x + y * y + z * z);
        p[i] = (col_vec3){sx * x / l, sy * y / l, sz * z / l};
    }
    col_geometry *g = NULL;
    assert_int_equal(col_geometry_create_hull(NULL, p, n, &g, NULL), COL_OK);
    return g;
}

static col_geometry *make_box(double hx, double hy, double hz)
{
    col_geometry *g = NULL;
    assert_int_equal(col_geometry_create_box(NULL, (col_vec3){hx, hy, hz}, &g, NULL), COL_OK);
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

/* A dumbbell: two boxes and a capsule between them. */
static col_geometry *make_compound(void)
{
    col_geometry *b = make_box(0.2, 0.2, 0.2), *c = make_capsule(0.5, 0.05);
    col_geometry_child ch[3] = {{b, {{0, 0, -0.7}, {0, 0, 0, 1}}}, {b, {{0, 0, 0.7}, {0, 0, 0, 1}}},
                                {c, {{0, 0, 0}, {0, 0, 0, 1}}}};
    col_geometry *g = NULL;
    assert_int_equal(col_geometry_create_compound(NULL, ch, 3, &g, NULL), COL_OK);
    col_geometry_destroy(b);
    col_geometry_destroy(c);
    return g;
}

static col_vec3 rand_vec(double r) { return (col_vec3){urange(-r, r), urange(-r, r), urange(-r, r)}; }

static col_transform pose_of(col_vec3 p, col_quat q) { return (col_transform){p, q}; }

static col_quat quat_axis(col_vec3 u, double angle)
{
    double l = sqrt(u.x * u.x + u.y * u.y + u.z * u.z), s = sin(0.5 * angle) / l;
    return (col_quat){u.x * s, u.y * s, u.z * s, cos(0.5 * angle)};
}

/* q rotated further by angle about a random axis. */
static col_quat quat_turn(col_quat q, double angle)
{
    col_quat r = quat_axis((col_vec3){gauss(), gauss(), gauss()}, angle);
    col_quat o = {r.w * q.x + r.x * q.w + r.y * q.z - r.z * q.y, r.w * q.y - r.x * q.z + r.y * q.w + r.z * q.x,
                  r.w * q.z + r.x * q.y - r.y * q.x + r.z * q.w, r.w * q.w - r.x * q.x - r.y * q.y - r.z * q.z};
    return o;
}

/* ---- tests ---- */

/* Spheres in pure translation: the first contact solves |dp + s dv| = ra + rb. Exact hits
 * and misses by 1e-3 on both sides of grazing, head-on, both moving (FCL #555). */
static void test_spheres_analytic(void **state)
{
    (void)state;
    rng_seed(0x70105a, "spheres_analytic");
    for (int n = 0; n < 400; n++) {
        double ra = urange(0.1, 1.0), rb = urange(0.1, 1.0), R = ra + rb;
        col_geometry *a = make_sphere(ra), *b = make_sphere(rb);
        col_vec3 dir = {gauss(), gauss(), gauss()}, side = {gauss(), gauss(), gauss()};
        double l = sqrt(dir.x * dir.x + dir.y * dir.y + dir.z * dir.z);
        dir = (col_vec3){dir.x / l, dir.y / l, dir.z / l};
        double k = side.x * dir.x + side.y * dir.y + side.z * dir.z;
        side = (col_vec3){side.x - k * dir.x, side.y - k * dir.y, side.z - k * dir.z};
        l = sqrt(side.x * side.x + side.y * side.y + side.z * side.z);
        side = (col_vec3){side.x / l, side.y / l, side.z / l};
        double off = (n % 4 == 0) ? R * (1.0 + 1e-3) : (n % 4 == 1) ? R * (1.0 - 1e-3) : urange(0.0, R);
        double travel = urange(2.0, 40.0) * R, share = urange(0.0, 1.0), start = urange(0.3, 0.7) * travel;
        /* relative motion: b starts at -start along dir (offset side), moves travel along dir */
        col_vec3 rel0 = {off * side.x - start * dir.x, off * side.y - start * dir.y, off * side.z - start * dir.z};
        col_vec3 pa0 = rand_vec(10.0);
        col_vec3 va = {-share * travel * dir.x, -share * travel * dir.y, -share * travel * dir.z};
        col_vec3 vb = {(1 - share) * travel * dir.x, (1 - share) * travel * dir.y, (1 - share) * travel * dir.z};
        col_quat qa = random_quat(), qb = random_quat();
        col_transform a0 = pose_of(pa0, qa), a1 = pose_of((col_vec3){pa0.x + va.x, pa0.y + va.y, pa0.z + va.z}, qa);
        col_vec3 pb0 = {pa0.x + rel0.x, pa0.y + rel0.y, pa0.z + rel0.z};
        col_transform b0 = pose_of(pb0, qb), b1 = pose_of((col_vec3){pb0.x + vb.x, pb0.y + vb.y, pb0.z + vb.z}, qb);
        /* |rel0 + s travel dir|^2 = R^2: s = (start - sqrt(R^2 - off^2)) / travel */
        bool hit = off <= R;
        double s_true = hit ? (start - sqrt(R * R - off * off)) / travel : 1.0;
        col_toi_output o;
        assert_int_equal(col_geometry_toi(a, a0, a1, b, b0, b1, scratch, &o), COL_OK);
        if (o.hit != hit) fail_msg("case %d: hit %d, expected %d (offset %.17g, R %.17g)", n, o.hit, hit, off, R);
        if (hit) {
            if (o.s > s_true + 1e-12 || o.s < s_true - 1e-6)
                fail_msg("case %d: s %.17g, exact %.17g", n, o.s, s_true);
            /* the normal at contact points from a's centre toward b's */
            col_transform pa = ccd_ref_pose(a0, a1, o.s), pb = ccd_ref_pose(b0, b1, o.s);
            col_vec3 d = {pb.p.x - pa.p.x, pb.p.y - pa.p.y, pb.p.z - pa.p.z};
            double dl = sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
            assert_true((d.x * o.normal.x + d.y * o.normal.y + d.z * o.normal.z) / dl > 1.0 - 1e-6);
        }
        col_geometry_destroy(a);
        col_geometry_destroy(b);
    }
}

/* Random pairs of every kind, both moving several sizes per interval and turning. */
static void test_random_against_reference(void **state)
{
    (void)state;
    rng_seed(0x70101, "random_against_reference");
    extra_hits = checked_hits = checked_misses = iterations_max = 0;
    for (int n = 0; n < 200; n++) {
        col_geometry *g[2];
        for (int k = 0; k < 2; k++) {
            int kind = (int)(rng_next() % 5);
            g[k] = kind == 0 ? make_hull(6 + (int)(rng_next() % 20), 0.5, 0.5, 0.5)
                 : kind == 1 ? make_sphere(urange(0.2, 0.6))
                 : kind == 2 ? make_capsule(urange(0.2, 0.8), urange(0.05, 0.3))
                 : kind == 3 ? make_compound()
                             : make_hull(8, urange(0.02, 1.0), urange(0.02, 1.0), urange(0.02, 1.0));
        }
        double speed = n % 3 == 0 ? 8.0 : 2.0, turn = n % 2 ? 3.14 : 0.8;
        ref_case c;
        memset(&c, 0, sizeof c);
        c.a = g[0];
        c.b = g[1];
        c.a0 = pose_of(rand_vec(1.0), random_quat());
        c.b0 = pose_of(rand_vec(1.0), random_quat());
        col_vec3 da = rand_vec(speed), db = rand_vec(speed);
        c.a1 = pose_of((col_vec3){c.a0.p.x + da.x, c.a0.p.y + da.y, c.a0.p.z + da.z}, quat_turn(c.a0.q, urange(0, turn)));
        c.b1 = pose_of((col_vec3){c.b0.p.x + db.x, c.b0.p.y + db.y, c.b0.p.z + db.z}, quat_turn(c.b0.q, urange(0, turn)));
        check_case(&c, "random", n);
        col_geometry_destroy(g[0]);
        col_geometry_destroy(g[1]);
    }
    print_message("random: %d hits, %d misses checked, %d extra hits confirmed, at most %d iterations\n",
                  checked_hits, checked_misses, extra_hits, iterations_max);
    /* the generator must make both outcomes (Jolt's hit-rate rule) */
    assert_true(checked_hits > 20 && checked_misses > 20);
}

/* Pure rotation: a needle spinning about its centre sweeps a disc; small boxes placed
 * around it are hit or missed by rotation alone (no translation at all). */
static void test_pure_rotation(void **state)
{
    (void)state;
    rng_seed(0x70102, "pure_rotation");
    extra_hits = checked_hits = checked_misses = 0;
    col_geometry *needle = make_box(2.0, 0.01, 0.01), *cube = make_box(0.05, 0.05, 0.05);
    for (int n = 0; n < 120; n++) {
        col_quat q0 = random_quat();
        col_vec3 p = rand_vec(5.0);
        /* the needle's long axis e1 at s = 0, a turning axis u normal to it, e2 = u x e1 */
        col_vec3 e1 = {1 - 2 * (q0.y * q0.y + q0.z * q0.z), 2 * (q0.x * q0.y + q0.w * q0.z), 2 * (q0.x * q0.z - q0.w * q0.y)};
        col_vec3 g = {gauss(), gauss(), gauss()};
        col_vec3 u = {e1.y * g.z - e1.z * g.y, e1.z * g.x - e1.x * g.z, e1.x * g.y - e1.y * g.x};
        double lu = sqrt(u.x * u.x + u.y * u.y + u.z * u.z);
        u = (col_vec3){u.x / lu, u.y / lu, u.z / lu};
        col_vec3 e2 = {u.y * e1.z - u.z * e1.y, u.z * e1.x - u.x * e1.z, u.x * e1.y - u.y * e1.x};
        col_quat r = quat_axis(u, urange(0.1, 3.1));
        col_quat q1 = {r.w * q0.x + r.x * q0.w + r.y * q0.z - r.z * q0.y, r.w * q0.y - r.x * q0.z + r.y * q0.w + r.z * q0.x,
                       r.w * q0.z + r.x * q0.y - r.y * q0.x + r.z * q0.w, r.w * q0.w - r.x * q0.x - r.y * q0.y - r.z * q0.z};
        ref_case c;
        c.a = needle;
        c.b = cube;
        c.a0 = pose_of(p, q0);
        c.a1 = pose_of(p, q1);
        double rr = urange(0.3, 2.2), phi = urange(0.0, 6.283185307179586), h = urange(-0.1, 0.1);
        col_vec3 pc = {p.x + rr * (cos(phi) * e1.x + sin(phi) * e2.x) + h * u.x,
                       p.y + rr * (cos(phi) * e1.y + sin(phi) * e2.y) + h * u.y,
                       p.z + rr * (cos(phi) * e1.z + sin(phi) * e2.z) + h * u.z};
        c.b0 = c.b1 = pose_of(pc, random_quat());
        if (n % 2) { /* swap roles: the moving body second */
            ref_case d = {cube, needle, c.b0, c.b1, c.a0, c.a1};
            c = d;
        }
        check_case(&c, "rotation", n);
    }
    print_message("rotation: %d hits, %d misses, %d extra\n", checked_hits, checked_misses, extra_hits);
    assert_true(checked_hits > 10 && checked_misses > 10);
    col_geometry_destroy(needle);
    col_geometry_destroy(cube);
}

/* Thin plates and fast small cubes: 10 to 100 plate thicknesses per interval, crossing
 * the plate (the tunneling case), grazing its edge, or stopping short. */
static void test_thin_plates(void **state)
{
    (void)state;
    rng_seed(0x70103, "thin_plates");
    extra_hits = checked_hits = checked_misses = 0;
    double t = 0.01;
    col_geometry *plate = make_box(1.0, 1.0, 0.5 * t), *cube = make_box(0.02, 0.02, 0.02);
    for (int n = 0; n < 150; n++) {
        col_transform p0 = pose_of(rand_vec(1.0), quat_turn(random_quat(), 0.0));
        col_transform p1 = n % 3 == 0 ? pose_of(p0.p, quat_turn(p0.q, urange(0.0, 0.05))) : p0;
        /* the cube's path in the plate's frame: from above to below, at speed 10..100 t */
        double sp = urange(10.0, 100.0) * t, x = urange(-1.1, 1.1), y = urange(-1.1, 1.1);
        double z0 = urange(-0.2, 1.2) * sp;
        col_vec3 l0 = {x, y, z0}, l1 = {x + urange(-0.1, 0.1), y + urange(-0.1, 0.1), z0 - sp};
        /* to the world by the plate's pose at 0 (the plate may turn a little) */
        col_quat q = p0.q;
        col_vec3 w0, w1;
        {
            double xx = q.x, yy = q.y, zz = q.z, ww = q.w;
            double m[9] = {1 - 2 * (yy * yy + zz * zz), 2 * (xx * yy - ww * zz), 2 * (xx * zz + ww * yy),
                           2 * (xx * yy + ww * zz), 1 - 2 * (xx * xx + zz * zz), 2 * (yy * zz - ww * xx),
                           2 * (xx * zz - ww * yy), 2 * (yy * zz + ww * xx), 1 - 2 * (xx * xx + yy * yy)};
            w0 = (col_vec3){m[0] * l0.x + m[1] * l0.y + m[2] * l0.z + p0.p.x, m[3] * l0.x + m[4] * l0.y + m[5] * l0.z + p0.p.y,
                            m[6] * l0.x + m[7] * l0.y + m[8] * l0.z + p0.p.z};
            w1 = (col_vec3){m[0] * l1.x + m[1] * l1.y + m[2] * l1.z + p0.p.x, m[3] * l1.x + m[4] * l1.y + m[5] * l1.z + p0.p.y,
                            m[6] * l1.x + m[7] * l1.y + m[8] * l1.z + p0.p.z};
        }
        col_quat qc = random_quat();
        ref_case c = {plate, cube, p0, p1, pose_of(w0, qc), pose_of(w1, quat_turn(qc, urange(0.0, 2.0)))};
        check_case(&c, "plate", n);
    }
    print_message("plates: %d hits, %d misses, %d extra\n", checked_hits, checked_misses, extra_hits);
    assert_true(checked_hits > 20 && checked_misses > 10);
    col_geometry_destroy(plate);
    col_geometry_destroy(cube);
}

/* Bodies that already touch or overlap at s = 0 give s = 0; touching exactly (face on
 * face) too. */
static void test_start_touching(void **state)
{
    (void)state;
    col_geometry *a = make_box(0.5, 0.5, 0.5), *b = make_box(0.5, 0.5, 0.5), *s = make_sphere(0.5);
    col_quat id = {0, 0, 0, 1};
    col_toi_output o;
    /* faces exactly touching, moving apart */
    assert_int_equal(col_geometry_toi(a, pose_of((col_vec3){0, 0, 0}, id), pose_of((col_vec3){-3, 0, 0}, id), b,
                                      pose_of((col_vec3){1, 0, 0}, id), pose_of((col_vec3){4, 0, 0}, id), scratch, &o),
                     COL_OK);
    assert_true(o.hit);
    assert_true(o.s == 0.0);
    assert_true(fabs(o.normal.x - 1.0) < 1e-9);
    /* overlapping */
    assert_int_equal(col_geometry_toi(a, pose_of((col_vec3){0, 0, 0}, id), pose_of((col_vec3){0, 0, 0}, id), s,
                                      pose_of((col_vec3){0.7, 0.2, 0}, id), pose_of((col_vec3){9, 0, 0}, id), scratch,
                                      &o),
                     COL_OK);
    assert_true(o.hit && o.s == 0.0);
    /* apart by 1e-9 and not moving: no contact, proven */
    assert_int_equal(col_geometry_toi(a, pose_of((col_vec3){0, 0, 0}, id), pose_of((col_vec3){0, 0, 0}, id), b,
                                      pose_of((col_vec3){1 + 1e-9, 0, 0}, id), pose_of((col_vec3){1 + 1e-9, 0, 0}, id),
                                      scratch, &o),
                     COL_OK);
    assert_false(o.hit);
    assert_true(o.s == 1.0);
    /* head-on, both moving (FCL #555: opposite motions along one normal must not cancel):
     * a gap of 1 closed at relative speed 4: s = 0.25 exactly */
    assert_int_equal(col_geometry_toi(a, pose_of((col_vec3){0, 0, 0}, id), pose_of((col_vec3){2, 0, 0}, id), b,
                                      pose_of((col_vec3){2, 0, 0}, id), pose_of((col_vec3){0, 0, 0}, id), scratch, &o),
                     COL_OK);
    assert_true(o.hit);
    assert_true(o.s <= 0.25 + 1e-12 && o.s >= 0.25 - 1e-6);
    col_geometry_destroy(a);
    col_geometry_destroy(b);
    col_geometry_destroy(s);
}

/* Grazing paths that touch at one instant only: a cube's corner passing exactly through
 * another's (exact in doubles), and spheres passing at exactly the sum of their radii. A
 * hit must be at or before the instant and within 1e-6 of it; the corner case must hit
 * (touching counts, and the arithmetic is exact there). */
static void test_grazing(void **state)
{
    (void)state;
    col_geometry *a = make_box(0.5, 0.5, 0.5), *b = make_box(0.5, 0.5, 0.5);
    col_quat id = {0, 0, 0, 1};
    col_toi_output o;
    /* b's centre (1 + 4 (s - 1/2), 1 - 4 (s - 1/2), 1): corner on corner at s = 1/2 only */
    assert_int_equal(col_geometry_toi(a, pose_of((col_vec3){0, 0, 0}, id), pose_of((col_vec3){0, 0, 0}, id), b,
                                      pose_of((col_vec3){-1, 3, 1}, id), pose_of((col_vec3){3, -1, 1}, id), scratch, &o),
                     COL_OK);
    assert_true(o.hit);
    assert_true(o.s <= 0.5 && o.s >= 0.5 - 1e-6);
    /* the same 1e-9 farther out: a miss, proven */
    assert_int_equal(col_geometry_toi(a, pose_of((col_vec3){0, 0, 0}, id), pose_of((col_vec3){0, 0, 0}, id), b,
                                      pose_of((col_vec3){-1, 3, 1 + 1e-9}, id), pose_of((col_vec3){3, -1, 1 + 1e-9}, id),
                                      scratch, &o),
                     COL_OK);
    assert_false(o.hit);
    /* spheres: b passes a at offset exactly ra + rb, moving along x; closest at s = 1/2 */
    col_geometry *sa = make_sphere(0.75), *sb = make_sphere(0.25);
    assert_int_equal(col_geometry_toi(sa, pose_of((col_vec3){0, 0, 0}, id), pose_of((col_vec3){0, 0, 0}, id), sb,
                                      pose_of((col_vec3){-2, 1, 0}, id), pose_of((col_vec3){2, 1, 0}, id), scratch, &o),
                     COL_OK);
    if (o.hit) assert_true(o.s <= 0.5 && o.s >= 0.5 - 1e-6);
    print_message("grazing spheres: hit %d at %.17g after %d iterations\n", o.hit, o.s, o.iterations);
    col_geometry_destroy(a);
    col_geometry_destroy(b);
    col_geometry_destroy(sa);
    col_geometry_destroy(sb);
}

/* Scale: the same random cases shrunk by 1e-3 and grown by 1e3 (sizes, positions and
 * paths; the rotations unchanged) give the same hit and s within 2e-6 (each answer is
 * within 1e-6 before the first contact, which does not depend on the scale). */
static col_geometry *scaled_hull(uint64_t seed, double k)
{
    rng_reseed(seed);
    col_vec3 p[12];
    for (int i = 0; i < 12; i++) p[i] = (col_vec3){k * gauss(), k * gauss(), 0.3 * k * gauss()};
    col_geometry *g = NULL;
    assert_int_equal(col_geometry_create_hull(NULL, p, 12, &g, NULL), COL_OK);
    return g;
}

static void test_scale_invariance(void **state)
{
    (void)state;
    rng_seed(0x70104, "scale_invariance");
    int hits = 0;
    for (int n = 0; n < 60; n++) {
        uint64_t seed = rng_next();
        col_vec3 pa = rand_vec(2.5), pb = rand_vec(2.5), da = rand_vec(5.0), db = rand_vec(5.0);
        col_quat qa = random_quat(), qb = random_quat(), qa1 = quat_turn(qa, urange(0, 3)), qb1 = quat_turn(qb, urange(0, 3));
        const double scale[3] = {1.0, 1e-3, 1e3};
        col_toi_output o[3];
        for (int k = 0; k < 3; k++) {
            double c = scale[k];
            uint64_t keep = rng_state;
            col_geometry *a = scaled_hull(seed, c), *b = scaled_hull(seed + 1, c);
            rng_state = keep;
            col_transform a0 = {{c * pa.x, c * pa.y, c * pa.z}, qa}, b0 = {{c * pb.x, c * pb.y, c * pb.z}, qb};
            col_transform a1 = {{c * (pa.x + da.x), c * (pa.y + da.y), c * (pa.z + da.z)}, qa1};
            col_transform b1 = {{c * (pb.x + db.x), c * (pb.y + db.y), c * (pb.z + db.z)}, qb1};
            assert_int_equal(col_geometry_toi(a, a0, a1, b, b0, b1, scratch, &o[k]), COL_OK);
            col_geometry_destroy(a);
            col_geometry_destroy(b);
        }
        for (int k = 1; k < 3; k++) {
            if (o[k].hit != o[0].hit) fail_msg("case %d: scale %g hit %d, scale 1 hit %d", n, scale[k], o[k].hit, o[0].hit);
            if (o[0].hit && fabs(o[k].s - o[0].s) > 2e-6)
                fail_msg("case %d: scale %g s %.17g, scale 1 s %.17g", n, scale[k], o[k].s, o[0].s);
        }
        hits += o[0].hit;
    }
    print_message("scale: %d of 60 cases hit\n", hits);
    assert_true(hits > 10 && hits < 50);
}

/* Bad input: NULLs, non-finite and non-unit poses; *out zeroed. A mesh is accepted (C2A,
 * tests/test_c2a.c): a sphere touching a triangle at s = 0. */
static void test_bad_input(void **state)
{
    (void)state;
    col_geometry *a = make_sphere(1.0);
    col_transform x = {{0, 0, 0}, {0, 0, 0, 1}}, bad = {{NAN, 0, 0}, {0, 0, 0, 1}}, badq = {{0, 0, 0}, {0, 0, 0, 2}};
    col_toi_output o;
    memset(&o, 0xff, sizeof o);
    assert_int_equal(col_geometry_toi(NULL, x, x, a, x, x, scratch, &o), COL_ERR_INVALID_ARGUMENT);
    assert_false(o.hit);
    assert_int_equal(col_geometry_toi(a, x, x, a, x, x, NULL, &o), COL_ERR_INVALID_ARGUMENT);
    assert_int_equal(col_geometry_toi(a, x, x, a, x, x, scratch, NULL), COL_ERR_INVALID_ARGUMENT);
    assert_int_equal(col_geometry_toi(a, x, x, a, x, bad, scratch, &o), COL_ERR_NOT_FINITE);
    assert_int_equal(col_geometry_toi(a, x, badq, a, x, x, scratch, &o), COL_ERR_BAD_QUATERNION);
    assert_non_null(strstr(col_query_scratch_last_error(scratch), "col_geometry_toi"));
    col_vec3 v[3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    uint32_t idx[3] = {0, 1, 2};
    col_mesh_def md = col_default_mesh_def();
    md.vertices = v;
    md.vertex_count = 3;
    md.indices = idx;
    md.triangle_count = 1;
    col_geometry *m = NULL;
    assert_int_equal(col_geometry_create_mesh(NULL, &md, &m, NULL), COL_OK);
    assert_int_equal(col_geometry_toi(a, x, x, m, x, x, scratch, &o), COL_OK);
    assert_true(o.hit && o.s == 0.0);
    col_geometry_destroy(m);
    col_geometry_destroy(a);
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
        cmocka_unit_test(test_spheres_analytic),   cmocka_unit_test(test_random_against_reference),
        cmocka_unit_test(test_pure_rotation),      cmocka_unit_test(test_thin_plates),
        cmocka_unit_test(test_start_touching),     cmocka_unit_test(test_grazing), cmocka_unit_test(test_scale_invariance),     cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
