/* SPDX-License-Identifier: MIT */
/* Mesh distance (narrowphase/mesh_distance.c), contacts (narrowphase/mesh_contact.c)
 * and triangle distance
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

#include "lib/core/alloc.h"
#include "lib/core/mesh.h"
#include "lib/core/vec.h"
#include "narrowphase/mesh_contact.h"
#include "narrowphase/mesh_distance.h"
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
        if ((ex == 0.0) != (d == 0.0)) fail_msg("pair %d kind %d: exact %.17g, ours %.17g: 0 must be exact", it, k, ex, d);
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
    /* Tiny coordinates, whose squares underflow: the parallel faces scaled by 2^-540. */
    col_vec3 ta[3], tb[3];
    for (int i = 0; i < 3; i++) {
        ta[i] = col_scale(a[i], 0x1p-540);
        tb[i] = col_scale(b[i], 0x1p-540);
    }
    assert_true(col_tri_distance(ta, tb, &pa, &pb) == 0x1p-541);
    assert_true(pb.z - pa.z == 0x1p-541);
}

/* ---- meshes against brute force ---- */

static col_alloc g_alloc;

typedef struct soup {
    col_vec3 v[3 * 400];
    uint32_t idx[3 * 400];
    int nt;
    col_mesh m;
} soup;

/* nt triangles of size about t*s scattered in a cube of side s; every 7th degenerate
 * (a segment or a point), every 5th sharing a vertex with the one before. */
static void make_soup(soup *so, int nt, double s, double t)
{
    so->nt = nt;
    for (int k = 0; k < nt; k++) {
        col_vec3 c = rand_point(s * 0.5);
        for (int i = 0; i < 3; i++) so->v[3 * k + i] = col_add(c, rand_point(s * t));
        if (k % 7 == 3) so->v[3 * k + 2] = so->v[3 * k + 1];
        if (k % 14 == 10) so->v[3 * k + 1] = so->v[3 * k + 2] = so->v[3 * k];
        for (int i = 0; i < 3; i++) so->idx[3 * k + i] = (uint32_t)(3 * k + i);
        if (k % 5 == 4) so->idx[3 * k] = (uint32_t)(3 * (k - 1) + 1);
    }
    char err[128];
    assert_int_equal(col_mesh_build(&g_alloc, so->v, 3 * nt, so->idx, nt, &so->m, err, sizeof err), COL_OK);
}

static void world_tri(const col_mesh *m, const col_xform *x, int k, col_vec3 w[3])
{
    col_vec3 v[3];
    col_mesh_triangle(m, k, v);
    for (int i = 0; i < 3; i++) w[i] = col_xform_point(x, v[i]);
}

static double brute_mesh_mesh(const col_mesh *a, const col_xform *xa, const col_mesh *b, const col_xform *xb)
{
    double best = INFINITY;
    for (int i = 0; i < a->triangle_count; i++) {
        col_vec3 wa[3], pa, pb;
        world_tri(a, xa, i, wa);
        for (int j = 0; j < b->triangle_count; j++) {
            col_vec3 wb[3];
            world_tri(b, xb, j, wb);
            double d = col_tri_distance(wa, wb, &pa, &pb);
            best = d < best ? d : best;
        }
    }
    return best;
}

static const col_xform ident = {{{1, 0, 0, 0, 1, 0, 0, 0, 1}}, {0, 0, 0}};

/* The kernel of the mesh-convex leaves: distance of a world triangle to the rounded piece. */
static double tri_piece(const col_vec3 w[3], const col_core *c, const col_xform *xc)
{
    col_vec3 pa, pb;
    return col_tri_convex_distance(w, c, xc, &pa, &pb);
}

static double brute_mesh_convex(const col_mesh *m, const col_xform *xm, const col_core *c, const col_xform *xc)
{
    double best = INFINITY;
    for (int i = 0; i < m->triangle_count; i++) {
        col_vec3 w[3];
        world_tri(m, xm, i, w);
        double d = tri_piece(w, c, xc);
        best = d < best ? d : best;
    }
    return best;
}

static col_xform rand_pose(double s)
{
    col_transform t = {rand_point(s), random_quat()};
    return col_xform_from_transform(t);
}

/* The answer is the brute force's to 1e-12 relative (of the scene's size near 0), and the
 * reported triangles realise it with the reported points. */
static void check_mm(const soup *a, const col_xform *xa, const soup *b, const col_xform *xb, double size,
                     const col_mesh_closest *r, int it)
{
    double bf = brute_mesh_mesh(&a->m, xa, &b->m, xb);
    if (!(fabs(r->distance - bf) <= 1e-12 * fmax(bf, 1e-3 * size)))
        fail_msg("mesh-mesh %d: %.17g, brute force %.17g", it, r->distance, bf);
    assert_true(r->tri_a >= 0 && r->tri_a < a->m.triangle_count && r->tri_b >= 0 && r->tri_b < b->m.triangle_count);
    col_vec3 wa[3], wb[3], pa, pb;
    world_tri(&a->m, xa, r->tri_a, wa);
    world_tri(&b->m, xb, r->tri_b, wb);
    assert_true(col_tri_distance(wa, wb, &pa, &pb) == r->distance);
    assert_true(pa.x == r->point_a.x && pa.y == r->point_a.y && pa.z == r->point_a.z);
    assert_true(pb.x == r->point_b.x && pb.y == r->point_b.y && pb.z == r->point_b.z);
    assert_true(fabs(col_len(col_sub(pb, pa)) - r->distance) <= 1e-13 * size);
}

static void test_mesh_mesh_random(void **state)
{
    (void)state;
    rng_seed(0x3e5d157ULL, "mesh_mesh_random");
    soup *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    int runs = (int)fmax(15.0, 60 * test_scale()), zeros = 0;
    long leaf = 0, all = 0;
    for (int it = 0; it < runs; it++) {
        double s = it % 3 == 0 ? 1e-3 : (it % 3 == 1 ? 1.0 : 1e3);
        make_soup(a, 150 + (int)(rng_next() % 150), s, 0.1);
        make_soup(b, 150 + (int)(rng_next() % 150), s, 0.1);
        col_xform xa = rand_pose(s), xb = rand_pose(s);
        /* b's centre at a distance from a's of 0.3 .. 2 sizes: some overlap, some apart */
        col_vec3 dir = col_v3(gauss(), gauss(), gauss());
        xb.p = col_add(xa.p, col_scale(dir, s * urange(0.3, 2.0) / col_len(dir)));
        col_mesh_closest r;
        col_mesh_mesh_distance(&a->m, &xa, &b->m, &xb, &r);
        check_mm(a, &xa, b, &xb, s * 4.0, &r, it);
        /* the box bound (the default is the RSS): the same brute-force answer */
        col_mesh_closest ro;
        col_mesh_mesh_distance_bound(&a->m, &xa, &b->m, &xb, COL_MESH_BOUND_BOX, &ro);
        check_mm(a, &xa, b, &xb, s * 4.0, &ro, it);
        zeros += r.distance == 0.0;
        leaf += r.leaf_pairs;
        all += (long)a->m.triangle_count * b->m.triangle_count;
        col_mesh_free(&g_alloc, &a->m);
        col_mesh_free(&g_alloc, &b->m);
    }
    print_message("mesh_mesh_random: %d pairs of soups, %d at distance 0; %.2f%% of the triangle pairs evaluated\n",
                  runs, zeros, 100.0 * (double)leaf / (double)all);
    assert_true(zeros > 0 && zeros < runs);
    free(a);
    free(b);
}

/* Touching and overlapping: the same mesh at the same pose, a mesh sharing one vertex
 * with another (identity poses, so the world vertices are equal), a triangle through a
 * floor. All give 0 exactly. */
static void test_mesh_mesh_touching(void **state)
{
    (void)state;
    rng_seed(0x70c4ULL, "mesh_mesh_touching");
    soup *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    make_soup(a, 200, 1.0, 0.05);
    col_mesh_closest r;
    col_mesh_mesh_distance(&a->m, &ident, &a->m, &ident, &r);
    assert_true(r.distance == 0.0);
    for (int run = 0; run < 20; run++) {
        /* b: a soup far away plus one triangle from a vertex of a outward */
        make_soup(b, 100, 1.0, 0.05);
        col_vec3 sh = col_v3(5.0, 0, 0);
        for (int i = 0; i < 3 * b->nt; i++) b->v[i] = col_add(b->v[i], sh);
        int k = (int)(rng_next() % (uint64_t)a->nt);
        col_vec3 p = a->v[a->idx[3 * k + rng_next() % 3]];
        col_vec3 far = col_v3(p.x + 0.2, p.y + 3.0, p.z + 0.1);
        b->v[0] = p;
        b->v[1] = far;
        b->v[2] = col_add(far, col_v3(0, 0, 0.5));
        b->idx[0] = 0;
        b->idx[1] = 1;
        b->idx[2] = 2;
        col_mesh_free(&g_alloc, &b->m);
        char err[128];
        assert_int_equal(col_mesh_build(&g_alloc, b->v, 3 * b->nt, b->idx, b->nt, &b->m, err, sizeof err), COL_OK);
        col_mesh_mesh_distance(&a->m, &ident, &b->m, &ident, &r);
        check_mm(a, &ident, b, &ident, 4.0, &r, run);
        assert_true(r.distance == 0.0);
        col_mesh_free(&g_alloc, &b->m);
    }
    col_mesh_free(&g_alloc, &a->m);
    free(a);
    free(b);
}

static void test_mesh_convex_random(void **state)
{
    (void)state;
    rng_seed(0xc0de5ULL, "mesh_convex_random");
    soup *a = malloc(sizeof *a);
    int runs = (int)fmax(40.0, 150 * test_scale()), zeros = 0;
    for (int it = 0; it < runs; it++) {
        double s = it % 3 == 0 ? 1e-3 : (it % 3 == 1 ? 1.0 : 1e3);
        make_soup(a, 100 + (int)(rng_next() % 200), s, 0.1);
        col_vec3 pts[8];
        int kind = it % 4; /* sphere, capsule, point cloud, rounded point cloud */
        int n = kind == 0 ? 1 : (kind == 1 ? 2 : 8);
        for (int i = 0; i < n; i++) pts[i] = rand_point(s * 0.1);
        col_core c = {pts, n, NULL, kind == 2 ? 0.0 : s * urange(0.0, 0.1)};
        col_xform xm = rand_pose(s), xc = rand_pose(s);
        col_vec3 dir = col_v3(gauss(), gauss(), gauss());
        xc.p = col_add(xm.p, col_scale(dir, s * urange(0.0, 1.2) / col_len(dir)));
        col_mesh_closest r;
        col_mesh_convex_distance(&a->m, &xm, &c, &xc, &r);
        double bf = brute_mesh_convex(&a->m, &xm, &c, &xc);
        if (!(fabs(r.distance - bf) <= 1e-12 * fmax(bf, 1e-3 * s)))
            fail_msg("mesh-convex %d: %.17g, brute force %.17g", it, r.distance, bf);
        assert_true(r.tri_a >= 0 && r.tri_a < a->m.triangle_count && r.tri_b == -1);
        col_vec3 w[3];
        world_tri(&a->m, &xm, r.tri_a, w);
        assert_true(tri_piece(w, &c, &xc) == r.distance);
        /* 0 is exact: the GMP oracle agrees on the reported triangle */
        oracle_set ot, oc;
        memset(&ot, 0, sizeof ot);
        memset(&oc, 0, sizeof oc);
        ot.n = 3;
        oc.n = n;
        for (int i = 0; i < 3; i++) ot.w[i] = w[i];
        for (int i = 0; i < n; i++) oc.w[i] = col_xform_point(&xc, pts[i]);
        oracle_features_all(&ot);
        oracle_features_all(&oc);
        if (oracle_round_collide(&ot, 0.0, &oc, c.radius) != (r.distance == 0.0))
            fail_msg("mesh-convex %d: distance %.17g but the exact oracle says %s", it, r.distance,
                     r.distance == 0.0 ? "apart" : "colliding");
        /* point_a on the reported triangle, point_b at the distance from it */
        assert_true(exact_dist(&r.point_a, 1, w, 3) <= 1e-13 * s);
        assert_true(fabs(col_len(col_sub(r.point_b, r.point_a)) - r.distance) <= 1e-13 * s);
        zeros += r.distance == 0.0;
        col_mesh_free(&g_alloc, &a->m);
    }
    print_message("mesh_convex_random: %d pairs, %d at distance 0\n", runs, zeros);
    assert_true(zeros > runs / 10 && zeros < runs * 9 / 10);
    free(a);
}

/* ---- contacts ---- */

/* A floor of n x n unit cells (two triangles each) in z = 0. */
static void make_floor(soup *so, int n)
{
    so->nt = 2 * n * n;
    int k = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            col_vec3 p00 = col_v3(i, j, 0), p10 = col_v3(i + 1, j, 0), p01 = col_v3(i, j + 1, 0),
                     p11 = col_v3(i + 1, j + 1, 0);
            col_vec3 t[2][3] = {{p00, p10, p11}, {p00, p11, p01}};
            for (int h = 0; h < 2; h++, k++)
                for (int v = 0; v < 3; v++) {
                    so->v[3 * k + v] = t[h][v];
                    so->idx[3 * k + v] = (uint32_t)(3 * k + v);
                }
        }
    char err[128];
    assert_int_equal(col_mesh_build(&g_alloc, so->v, 3 * so->nt, so->idx, so->nt, &so->m, err, sizeof err), COL_OK);
}

static const col_vec3 cube[8] = {{-0.5, -0.5, -0.5}, {0.5, -0.5, -0.5}, {0.5, 0.5, -0.5}, {-0.5, 0.5, -0.5},
                                 {-0.5, -0.5, 0.5},  {0.5, -0.5, 0.5},  {0.5, 0.5, 0.5},  {-0.5, 0.5, 0.5}};

/* The cube's surface as 12 triangles. */
static void make_cube_mesh(soup *so)
{
    static const int f[12][3] = {{0, 2, 1}, {0, 3, 2}, {4, 5, 6}, {4, 6, 7}, {0, 1, 5}, {0, 5, 4},
                                 {1, 2, 6}, {1, 6, 5}, {2, 3, 7}, {2, 7, 6}, {3, 0, 4}, {3, 4, 7}};
    so->nt = 12;
    for (int i = 0; i < 8; i++) so->v[i] = cube[i];
    for (int k = 0; k < 12; k++)
        for (int v = 0; v < 3; v++) so->idx[3 * k + v] = (uint32_t)f[k][v];
    char err[128];
    assert_int_equal(col_mesh_build(&g_alloc, so->v, 8, so->idx, 12, &so->m, err, sizeof err), COL_OK);
}

/* What every manifold satisfies: unit normal, at most the maximum of points, each point's
 * separation its points' offset along the normal and within the margin, the manifold's
 * separation the least. */
static void check_manifold(const col_mesh_contact *c, double margin, double size)
{
    assert_true(c->point_count >= 0 && c->point_count <= COL_MAX_CONTACT_POINTS);
    if (c->point_count == 0) return;
    assert_true(fabs(col_len(c->normal) - 1.0) <= 1e-14);
    double least = INFINITY;
    for (int i = 0; i < c->point_count; i++) {
        const col_contact_point *p = &c->points[i];
        assert_true(p->separation == col_dot(col_sub(p->point_b, p->point_a), c->normal));
        assert_true(p->separation <= margin + 1e-12 * size);
        least = fmin(least, p->separation);
    }
    assert_true(least == c->separation);
}

static void test_contact_box_on_floor(void **state)
{
    (void)state;
    soup *fl = malloc(sizeof *fl), *bx = malloc(sizeof *bx);
    make_floor(fl, 8);
    /* a solid cube sunk 0.01 into the floor: its four bottom corners, normal up */
    col_core c = {cube, 8, NULL, 0.0};
    col_xform xc = ident;
    xc.p = col_v3(3.3, 4.1, 0.49);
    col_mesh_contact mc;
    col_mesh_convex_contact(&fl->m, &ident, &c, &xc, 0.001, &mc);
    check_manifold(&mc, 0.001, 10.0);
    assert_int_equal(mc.point_count, 4);
    assert_true(fabs(mc.normal.z - 1.0) <= 1e-12);
    for (int i = 0; i < 4; i++) assert_true(fabs(mc.points[i].separation + 0.01) <= 1e-12);
    /* a rounded cube (radius 0.1) 0.002 above: separated within the margin */
    c.radius = 0.1;
    xc.p = col_v3(3.3, 4.1, 0.602);
    col_mesh_convex_contact(&fl->m, &ident, &c, &xc, 0.01, &mc);
    check_manifold(&mc, 0.01, 10.0);
    assert_true(mc.point_count >= 4);
    assert_true(fabs(mc.separation - 0.002) <= 1e-12 && fabs(mc.normal.z - 1.0) <= 1e-12);
    /* all on the bottom face's footprint, its corners among them (the spread points) */
    double lo_x = INFINITY, hi_x = -INFINITY, lo_y = INFINITY, hi_y = -INFINITY;
    for (int i = 0; i < mc.point_count; i++) {
        col_vec3 p = mc.points[i].point_a;
        assert_true(fabs(mc.points[i].separation - 0.002) <= 1e-12);
        lo_x = fmin(lo_x, p.x), hi_x = fmax(hi_x, p.x), lo_y = fmin(lo_y, p.y), hi_y = fmax(hi_y, p.y);
    }
    assert_true(fabs(lo_x - 2.8) <= 1e-12 && fabs(hi_x - 3.8) <= 1e-12 && fabs(lo_y - 3.6) <= 1e-12 &&
                fabs(hi_y - 4.6) <= 1e-12);
    /* beyond the margin: no points */
    col_mesh_convex_contact(&fl->m, &ident, &c, &xc, 0.001, &mc);
    assert_int_equal(mc.point_count, 0);
    /* the cube as a mesh 0.001 above the floor mesh */
    make_cube_mesh(bx);
    col_xform xb = ident;
    xb.p = col_v3(3.3, 4.1, 0.501);
    col_mesh_mesh_contact(&fl->m, &ident, &bx->m, &xb, 0.01, &mc);
    check_manifold(&mc, 0.01, 10.0);
    assert_true(mc.point_count >= 4);
    assert_true(fabs(mc.separation - 0.001) <= 1e-12 && fabs(mc.normal.z - 1.0) <= 1e-12);
    /* sunk 0.01: crossing triangles, normal still up, depth 0.01 */
    xb.p = col_v3(3.3, 4.1, 0.49);
    col_mesh_mesh_contact(&fl->m, &ident, &bx->m, &xb, 0.0, &mc);
    check_manifold(&mc, 0.0, 10.0);
    assert_true(mc.point_count >= 1);
    assert_true(fabs(mc.separation + 0.01) <= 1e-12 && fabs(mc.normal.z - 1.0) <= 1e-12);
    col_mesh_free(&g_alloc, &fl->m);
    col_mesh_free(&g_alloc, &bx->m);
    free(fl);
    free(bx);
}

/* Separated soups: the manifold's least separation is the distance (brute force). */
static void test_contact_random(void **state)
{
    (void)state;
    rng_seed(0xc0a7ac7ULL, "contact_random");
    soup *a = malloc(sizeof *a), *b = malloc(sizeof *b);
    int runs = 40, within = 0; /* cheap: not scaled */
    for (int it = 0; it < runs; it++) {
        double s = it % 2 ? 1e-3 : 1e3;
        make_soup(a, 100, s, 0.1);
        make_soup(b, 100, s, 0.1);
        col_xform xa = rand_pose(s), xb = rand_pose(s);
        col_vec3 dir = col_v3(gauss(), gauss(), gauss());
        xb.p = col_add(xa.p, col_scale(dir, s * urange(0.8, 2.0) / col_len(dir)));
        double margin = 0.1 * s, bf = brute_mesh_mesh(&a->m, &xa, &b->m, &xb);
        col_mesh_contact mc;
        col_mesh_mesh_contact(&a->m, &xa, &b->m, &xb, margin, &mc);
        check_manifold(&mc, margin, 4 * s);
        if (bf > margin) {
            assert_int_equal(mc.point_count, 0);
        } else if (bf > 0.0) {
            within++;
            assert_true(mc.point_count >= 1);
            if (!(fabs(mc.separation - bf) <= 1e-12 * bf)) fail_msg("contact %d: %.17g, brute force %.17g", it, mc.separation, bf);
        }
        col_mesh_free(&g_alloc, &a->m);
        col_mesh_free(&g_alloc, &b->m);
    }
    print_message("contact_random: %d pairs, %d within the margin\n", runs, within);
    assert_true(within > 0 && within < runs);
    free(a);
    free(b);
}

int main(void)
{
    oracle_round_init();
    col_alloc_init(&g_alloc, NULL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tri_distance_named),
        cmocka_unit_test(test_tri_distance_exact),
        cmocka_unit_test(test_mesh_mesh_random),
        cmocka_unit_test(test_mesh_mesh_touching),
        cmocka_unit_test(test_mesh_convex_random),
        cmocka_unit_test(test_contact_box_on_floor),
        cmocka_unit_test(test_contact_random),
    };
    int r = cmocka_run_group_tests(tests, NULL, NULL);
    oracle_round_fini();
    return r;
}
