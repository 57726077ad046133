/* SPDX-License-Identifier: MIT */
/* Mesh distance (narrowphase/mesh_distance.c) and triangle distance
 * (narrowphase/tri_dist.c), suite 'mesh'.
 *
 * Triangle distance against the exact rational oracle of tests/oracle_round.h (GMP: the
 * exact squared distance of the two closed triangles, overlap decided by the exact LP):
 * random pairs apart, crossing, touching at a vertex, an edge or a face, coplanar,
 * degenerate (segments, points), at scales 1e-3, 1 and 1e3 and far from the origin
 * (PQP issue 4: coordinates near 8000). Checked: |d - exact| within 64 DBL_EPSILON of the
 * pair's span; both points on their triangles (exact distance of each to its triangle
 * within the same bound); |pa - pb| = d; 0 exactly for a shared vertex.
 *
 * Mesh distance against the brute force over all triangle pairs with the same kernels
 * (tri_dist, col_core_distance_query): distance equal to 1e-12 relative (of the distance,
 * or of the scene's size near 0), the reported triangles realise it, the points lie on
 * them. Random soups (fixed printed seed) at scales 1e-3 and 1e3, touching and crossing
 * pairs (0), degenerate triangles. Contacts: points within the margin, normals unit,
 * separations consistent. Sizes scale with COLIBRI_TEST_SCALE (the ASan run uses 0.1). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <float.h>
#include <gmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/vec.h"
#include "narrowphase/tri_dist.h"
#include "tests/oracle_round.h"
#include "tests/test_util.h"

static double test_scale(void)
{
    const char *env = getenv("COLIBRI_TEST_SCALE");
    double s = env != NULL ? atof(env) : 1.0;
    return s > 0.0 ? s : 1.0;
}

/* ---- triangle distance against the exact oracle ---- */

static double exact_dist(const col_vec3 *a, int na, const col_vec3 *b, int nb)
{
    oracle_set sa, sb;
    memset(&sa, 0, sizeof sa);
    memset(&sb, 0, sizeof sb);
    sa.n = na;
    sb.n = nb;
    for (int i = 0; i < na; i++) sa.w[i] = a[i];
    for (int i = 0; i < nb; i++) sb.w[i] = b[i];
    oracle_features_all(&sa);
    oracle_features_all(&sb);
    mpq_t d2;
    mpq_init(d2);
    oracle_dist2(&sa, &sb, d2);
    double d = sqrt(mpq_get_d(d2));
    mpq_clear(d2);
    return d;
}

static double span_of(const col_vec3 a[3], const col_vec3 b[3])
{
    double s = 0.0;
    for (int i = 0; i < 3; i++) {
        double x = col_max_abs(col_sub(a[i], a[0])), y = col_max_abs(col_sub(b[i], a[0]));
        s = fmax(s, fmax(x, y));
    }
    return s;
}

static col_vec3 rand_point(double s) { return col_v3(urange(-s, s), urange(-s, s), urange(-s, s)); }

/* A point of triangle t with barycentric weights drawn at random (dyadic when exact:
 * multiples of 1/4 on an integer grid keep it exactly representable). */
static col_vec3 point_in(const col_vec3 t[3], int exact)
{
    double u, v;
    if (exact) {
        u = (double)(rng_next() % 3) * 0.25;
        v = (double)(rng_next() % 3) * 0.25;
    } else {
        u = urand();
        v = urand() * (1.0 - u);
    }
    return col_add(t[0], col_add(col_scale(col_sub(t[1], t[0]), u), col_scale(col_sub(t[2], t[0]), v)));
}

enum { K_APART, K_NEAR, K_CROSS, K_VERTEX, K_EDGE, K_COPLANAR, K_SEGMENT, K_POINT, K_PARALLEL, K_KINDS };

/* Triangle pair of kind k, at scale s, moved by offset o (both triangles). Kinds that
 * need exact incidences use integer grid coordinates times a power of two. */
static void make_pair(int k, double s, col_vec3 o, col_vec3 a[3], col_vec3 b[3])
{
    double g = ldexp(1.0, (int)floor(log2(s))) / 16.0; /* grid step: a power of two */
    for (int i = 0; i < 3; i++) a[i] = rand_point(s);
    for (int i = 0; i < 3; i++) b[i] = rand_point(s);
    switch (k) {
    case K_APART: {
        col_vec3 d = col_scale(col_v3(gauss(), gauss(), gauss()), s * 2.0);
        for (int i = 0; i < 3; i++) b[i] = col_add(b[i], d);
        break;
    }
    case K_NEAR: { /* b shifted off a's point along a random direction by a log-uniform gap */
        col_vec3 p = point_in(a, 0), d = col_v3(gauss(), gauss(), gauss());
        double gap = s * pow(10.0, urange(-12.0, 0.0)) / col_len(d);
        col_vec3 q = col_add(p, col_scale(d, gap));
        for (int i = 0; i < 3; i++) b[i] = col_add(q, col_scale(rand_point(s), 1.0));
        b[0] = q;
        break;
    }
    case K_CROSS: { /* b through an interior point of a */
        col_vec3 p = point_in(a, 0), d = rand_point(s);
        b[0] = col_add(p, d);
        b[1] = col_sub(p, d);
        break;
    }
    case K_VERTEX: /* a shared vertex, a vertex on an edge, or a vertex on a face (exact grid) */
    case K_EDGE:
    case K_COPLANAR:
    case K_SEGMENT:
    case K_POINT:
    case K_PARALLEL:
        for (int i = 0; i < 3; i++) {
            a[i] = col_v3(g * (double)(rng_next() % 33) - 16 * g, g * (double)(rng_next() % 33) - 16 * g,
                          g * (double)(rng_next() % 33) - 16 * g);
            b[i] = col_v3(g * (double)(rng_next() % 33) - 16 * g, g * (double)(rng_next() % 33) - 16 * g,
                          g * (double)(rng_next() % 33) - 16 * g);
        }
        if (k != K_POINT && (rng_next() & 1)) a[2] = a[1]; /* a degenerate too, sometimes */
        if (k == K_VERTEX) b[rng_next() % 3] = a[rng_next() % 3];
        if (k == K_EDGE) {
            int i = (int)(rng_next() % 3);
            b[0] = col_scale(col_add(a[i], a[(i + 1) % 3]), 0.5);
        }
        if (k == K_COPLANAR || k == K_PARALLEL) { /* both in a plane z = c (parallel: two planes) */
            double z = a[0].z, z2 = k == K_PARALLEL ? z + g * (double)(1 + rng_next() % 4) : z;
            for (int i = 0; i < 3; i++) {
                a[i].z = z;
                b[i].z = z2;
            }
        }
        if (k == K_SEGMENT) b[2] = col_sub(col_scale(b[1], 2.0), b[0]);
        if (k == K_POINT) b[1] = b[2] = b[0];
        break;
    }
    for (int i = 0; i < 3; i++) {
        a[i] = col_add(a[i], o);
        b[i] = col_add(b[i], o);
    }
}

static void test_tri_distance_exact(void **state)
{
    (void)state;
    rng_seed(0x7d157a11ULL, "tri_distance_exact");
    int n = (int)(20000 * test_scale());
    const double scales[3] = {1e-3, 1.0, 1e3};
    double worst = 0.0;
    int zeros = 0, exact_zero = 0;
    for (int it = 0; it < n; it++) {
        int k = it % K_KINDS;
        double s = scales[(it / K_KINDS) % 3];
        col_vec3 o = (it / (3 * K_KINDS)) % 2 ? col_v3(8000.0, -8000.5, 7999.0) : col_v3(0, 0, 0);
        col_vec3 a[3], b[3], pa, pb;
        make_pair(k, s, o, a, b);
        double d = col_tri_distance(a, b, &pa, &pb);
        double ex = exact_dist(a, 3, b, 3);
        double span = span_of(a, b), tol = 64.0 * DBL_EPSILON * span;
        double tolp = tol + 8.0 * DBL_EPSILON * col_max_abs(o); /* the points are moved back by o */
        double err = fabs(d - ex) / (tol > 0 ? tol : 1.0);
        worst = fmax(worst, err);
        if (!(fabs(d - ex) <= tol) || !(d >= 0.0))
            fail_msg("pair %d kind %d scale %g: d %.17g exact %.17g (tol %.3g)", it, k, s, d, ex, tol);
        /* the points lie on their triangles and realise d */
        double on_a = exact_dist(&pa, 1, a, 3), on_b = exact_dist(&pb, 1, b, 3);
        if (!(on_a <= tolp && on_b <= tolp))
            fail_msg("pair %d kind %d: points off their triangles by %.3g and %.3g (tol %.3g)", it, k, on_a, on_b, tolp);
        if (!(fabs(col_len(col_sub(pb, pa)) - d) <= tolp))
            fail_msg("pair %d kind %d: |pa - pb| %.17g, d %.17g", it, k, col_len(col_sub(pb, pa)), d);
        if (ex == 0.0) zeros++;
        if (ex == 0.0 && d == 0.0) exact_zero++;
        if (k == K_VERTEX && d != 0.0) fail_msg("pair %d: a shared vertex gave %.17g", it, d);
    }
    print_message("tri_distance_exact: %d pairs, %d touching or crossing (%d answered exactly 0), "
                  "worst error %.3f of the bound\n",
                  n, zeros, exact_zero, worst);
    assert_true(zeros > n / 10 && zeros < n * 9 / 10); /* a representative mix */
}

/* Named cases: parallel faces, an edge through a face, a point triangle on a face,
 * and PQP issue 4's kind of input (large coordinates, small gap). */
static void test_tri_distance_named(void **state)
{
    (void)state;
    col_vec3 pa, pb;
    col_vec3 a[3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    col_vec3 b[3] = {{0.25, 0.25, 0.5}, {2, 0.25, 0.5}, {0.25, 2, 0.5}};
    assert_true(col_tri_distance(a, b, &pa, &pb) == 0.5);
    col_vec3 c[3] = {{0.25, 0.25, -1}, {0.25, 0.25, 1}, {0.5, 0.25, 1}}; /* pierces a at (0.25, 0.25, 0) */
    assert_true(col_tri_distance(a, c, &pa, &pb) == 0.0);
    assert_true(pa.x == 0.25 && pa.y == 0.25 && pa.z == 0.0);
    col_vec3 p[3] = {{0.25, 0.25, 0}, {0.25, 0.25, 0}, {0.25, 0.25, 0}};
    assert_true(col_tri_distance(a, p, &pa, &pb) == 0.0);
    assert_true(col_tri_distance(p, a, &pa, &pb) == 0.0);
    /* Large coordinates: a translated copy 1e-6 above, near 8000 (PQP issue 4). */
    col_vec3 o = {8191.5, -8000.25, 7999.75}, big_a[3], big_b[3];
    for (int i = 0; i < 3; i++) {
        big_a[i] = col_add(a[i], o);
        big_b[i] = col_add(col_add(a[i], o), col_v3(0.125, 0.125, 0x1p-20));
    }
    double d = col_tri_distance(big_a, big_b, &pa, &pb);
    assert_true(fabs(d - 0x1p-20) <= 64 * DBL_EPSILON * 8192);
}

int main(void)
{
    oracle_round_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tri_distance_named),
        cmocka_unit_test(test_tri_distance_exact),
    };
    int r = cmocka_run_group_tests(tests, NULL, NULL);
    oracle_round_fini();
    return r;
}
