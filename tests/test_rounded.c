/* SPDX-License-Identifier: MIT */
/* The exact narrow phase of rounded pieces (narrowphase/rounded.c, docs/rounded.md)
 * against an exact rational oracle (GMP; tests only).
 *
 * The oracle: the squared distance between the convex hulls of two world point sets is
 * the minimum over point-triangle and segment-segment pairs of their points (Ericson,
 * Real-Time Collision Detection, 2005, sections 5.1.5 and 5.1.9; every face of a hull is
 * a union of triangles of its points), each computed exactly in rationals. To keep it
 * fast a double search over the hulls' own faces and edges first names the feature pair
 * that is probably closest; its exact closest points x, y give s = y - x, and if min over B
 * of s.b - max over A of s.a >= |s|^2 exactly, |s| is exactly the distance (it is both an
 * upper and a lower bound). Otherwise the cores may overlap (the exact LP
 * col_oracle_intersect decides, distance 0) or the double search named the wrong pair
 * (every triple and pair is then tried in rationals). The pieces collide iff
 * dist^2 <= (ra + rb)^2, compared in rationals. The oracle runs on EVERY pair of the
 * randomized test (no double shortcut).
 *
 * What is checked: the decision equals the oracle's on every pair (the ones within 1e-9
 * of the size from touching are counted and printed separately; they must agree too,
 * the decision being exact); every separated answer's axis and gap satisfy
 * min s.b - max s.a - ra - rb >= gap and gap + ra + rb <= dist, exactly (the exact band's
 * smallest-positive gaps are counted apart, see docs/rounded.md); col_core_distance_query
 * against the oracle's distance (relative 1e-9 of the size).
 * Sizes scale with COLIBRI_TEST_SCALE (the ASan run uses 0.1). */
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
#include <time.h>

#include "lib/core/alloc.h"
#include "lib/core/exact.h"
#include "lib/core/hull.h"
#include "lib/core/vec.h"
#include "narrowphase/rounded.h"
#include "tests/oracle_lp.h"
#include "tests/oracle_round.h"
#include "tests/test_util.h"

#define MAXP ORACLE_MAXP

static col_alloc g_alloc;

static double test_scale(void)
{
    const char *env = getenv("COLIBRI_TEST_SCALE");
    double s = env != NULL ? atof(env) : 1.0;
    return s > 0.0 ? s : 1.0;
}

/* ---- pieces ---- */

typedef struct piece {
    int kind; /* 0 sphere, 1 capsule, 2 hull, 3 a point cloud without its hull, 4 a thin hull */
    col_vec3 local[MAXP];
    col_hull hull;
    col_core core;
    oracle_set o; /* world core points and the oracle's hint features */
} piece;

static void piece_free(piece *p)
{
    if (p->kind == 2 || p->kind == 4) col_hull_free(&g_alloc, &p->hull);
}

static col_vec3 rand_in_ball(double r)
{
    for (;;) {
        double x = urange(-1, 1), y = urange(-1, 1), z = urange(-1, 1);
        if (x * x + y * y + z * z <= 1.0) return col_v3(r * x, r * y, r * z);
    }
}

static void make_piece(piece *p, int kind, double size)
{
    memset(p, 0, sizeof *p);
    p->kind = kind;
    if (kind == 0) {
        p->local[0] = rand_in_ball(0.3 * size);
        p->core.points = p->local;
        p->core.count = 1;
        p->core.radius = urange(0.05, 1.0) * size;
    } else if (kind == 1) {
        col_vec3 c = rand_in_ball(0.3 * size), h = rand_in_ball(size);
        p->local[0] = col_add(c, h);
        p->local[1] = col_sub(c, h);
        p->core.points = p->local;
        p->core.count = 2;
        p->core.radius = urange(0.05, 0.7) * size;
    } else if (kind == 3) {
        p->core.count = 3 + (int)(urand() * 6.0);
        for (int i = 0; i < p->core.count; i++) p->local[i] = rand_in_ball(size);
        p->core.points = p->local;
        p->core.radius = urand() < 0.3 ? 0.0 : urange(0.0, 0.5) * size;
    } else {
        char err[200];
        for (;;) {
            int n = 4 + (int)(urand() * 9.0);
            for (int i = 0; i < n; i++) {
                p->local[i] = rand_in_ball(size);
                if (kind == 4) p->local[i].z *= 1e-6; /* a plate: nearly coplanar faces */
            }
            if (col_hull_build(&g_alloc, p->local, n, &p->hull, err, sizeof err) == COL_OK) break;
        }
        p->core.points = p->hull.vertices;
        p->core.count = p->hull.vertex_count;
        p->core.hull = &p->hull;
        p->core.radius = urand() < 0.5 ? 0.0 : urange(0.0, 0.5) * size;
    }
    p->o.n = p->core.count;
    if (kind == 3) oracle_features_all(&p->o);
    else if (kind == 2 || kind == 4)
        oracle_features_hull(&p->o, p->hull.face_count, p->hull.face_first, p->hull.face_verts, p->hull.edge_count,
                             p->hull.edge_verts);
    else oracle_features_core(&p->o);
}

static void place(piece *p, const col_xform *x)
{
    for (int i = 0; i < p->o.n; i++) p->o.w[i] = col_xform_point(x, p->core.points[i]);
}

/* The contract of a separated answer, exactly: min s.b - max s.a - ra - rb >= gap, and
 * gap + ra + rb <= dist ((gap + ra + rb)^2 <= dist^2). */
static int gap_contract(const piece *a, const piece *b, const mpq_t d2, col_vec3 s, double gap)
{
    mpq_t hi, lo, t, u, g;
    mpq_inits(hi, lo, t, u, g, NULL);
    qv qs, p;
    qv_init(&qs);
    qv_init(&p);
    qv_setd(&qs, s);
    for (int i = 0; i < a->o.n; i++) {
        qv_setd(&p, a->o.w[i]);
        qv_dot(t, &qs, &p, u);
        if (i == 0 || mpq_cmp(t, hi) > 0) mpq_set(hi, t);
    }
    for (int j = 0; j < b->o.n; j++) {
        qv_setd(&p, b->o.w[j]);
        qv_dot(t, &qs, &p, u);
        if (j == 0 || mpq_cmp(t, lo) < 0) mpq_set(lo, t);
    }
    mpq_sub(t, lo, hi);
    mpq_set_d(u, a->core.radius);
    mpq_sub(t, t, u);
    mpq_set_d(u, b->core.radius);
    mpq_sub(t, t, u);
    mpq_set_d(g, gap);
    int ok = mpq_cmp(t, g) >= 0;
    mpq_set_d(t, a->core.radius);
    mpq_set_d(u, b->core.radius);
    mpq_add(t, t, u);
    mpq_add(t, t, g);
    mpq_mul(t, t, t);
    ok = ok && mpq_cmp(t, d2) <= 0;
    mpq_clears(hi, lo, t, u, g, NULL);
    qv_clear(&qs);
    qv_clear(&p);
    return ok;
}

/* ---- random poses and placement ---- */

static col_xform random_xform(double spread)
{
    col_transform t;
    t.q = random_quat();
    t.p = col_v3(urange(-spread, spread), urange(-spread, spread), urange(-spread, spread));
    return col_xform_from_transform(t);
}

static col_vec3 random_unit(void)
{
    col_vec3 u;
    while (!col_unit_robust(col_v3(gauss(), gauss(), gauss()), &u)) {
    }
    return u;
}

/* Places b so that the distance of its core from a's core is about target (computed in
 * double: moving b along the closest points' direction by delta changes the distance by
 * delta). Returns 0 if b could not be placed (cores overlapping at the start). */
static int place_pair(piece *a, col_xform *xa, piece *b, col_xform *xb, double size, double target)
{
    place(a, xa);
    col_vec3 u = random_unit();
    xb->p = col_add(xa->p, col_scale(u, 6.0 * size));
    place(b, xb);
    fpair bp;
    col_vec3 x, y;
    double d0 = sqrt(oracle_search(&a->o, &b->o, &bp, &x, &y));
    col_vec3 n;
    if (!(d0 > 0.0) || !col_unit_robust(col_sub(y, x), &n)) return 0;
    xb->p = col_add(xb->p, col_scale(n, target - d0));
    place(b, xb);
    return 1;
}

/* ---- the randomized test ---- */

typedef struct tally {
    long pairs, near, near_agree, far_agree, far, sep, exact_path, undecided, band_gaps, colliding;
    double seconds_query, seconds_exact;
} tally;

static void one_pair(tally *t, int ka, int kb, double size, double spread, int mode)
{
    piece a, b;
    make_piece(&a, ka, size);
    make_piece(&b, kb, size);
    if (mode == 1 && ka == 1 && kb == 1) { /* parallel segments */
        b.local[0] = col_add(a.local[0], col_v3(0.1 * size, 0, 0));
        b.local[1] = col_add(a.local[1], col_v3(0.1 * size, 0, 0));
    }
    col_xform xa = random_xform(spread), xb = mode == 1 ? xa : random_xform(spread);
    double r = a.core.radius + b.core.radius;
    /* the signed distance of the rounded pieces: log-uniform in [1e-12, 1] of the size on
     * both sides of touching; mode 2 puts the cores themselves near touching */
    double mag = size * pow(10.0, urange(-12.0, 0.0)), sgn = urand() < 0.5 ? -1.0 : 1.0;
    double target = mode == 2 ? sgn * mag : r + sgn * mag;
    if (target <= 0.0 && mode != 2) target = r * urand();
    if (!place_pair(&a, &xa, &b, &xb, size, target)) {
        piece_free(&a);
        piece_free(&b);
        return;
    }
    col_np_result res;
    clock_t c0 = clock();
    col_rounded_query(&a.core, &xa, &b.core, &xb, &res);
    double dt = (double)(clock() - c0) / CLOCKS_PER_SEC;
    t->seconds_query += dt;
    if (res.fallbacks >= 1) t->seconds_exact += dt;
    mpq_t d2;
    mpq_init(d2);
    oracle_dist2(&a.o, &b.o, d2);
    int c = oracle_vs_radius(d2, a.core.radius, b.core.radius);
    bool truth = c <= 0;
    double dist = sqrt(mpq_get_d(d2));
    bool near = fabs(dist - r) <= 1e-9 * size;
    t->pairs++;
    t->colliding += truth;
    t->exact_path += res.fallbacks >= 1;
    t->undecided += res.fallbacks == 2;
    if (near) {
        t->near++;
        t->near_agree += res.colliding == truth;
        if (res.colliding != truth || res.fallbacks == 2)
            print_message("near: kinds %d %d (n %d %d) size %g mode %d dist-r %.3g answer %d truth %d fallbacks %d\n", ka,
                          kb, a.o.n, b.o.n, size, mode, dist - r, res.colliding, truth, res.fallbacks);
    } else {
        t->far++;
        t->far_agree += res.colliding == truth;
        if (res.colliding != truth)
            print_message("far disagreement: kinds %d %d size %g dist %.17g r %.17g answer %d\n", ka, kb, size, dist,
                          r, res.colliding);
    }
    if (!res.colliding) {
        t->sep++;
        assert_true(res.gap > 0.0);
        assert_true(fabs(col_len(res.axis) - 1.0) < 1e-12);
        if (res.gap == DBL_TRUE_MIN) {
            t->band_gaps++;
        } else if (!gap_contract(&a, &b, d2, res.axis, res.gap)) {
            print_message("gap contract broken: kinds %d %d gap %.17g dist %.17g r %.17g\n", ka, kb, res.gap, dist, r);
            fail();
        }
    }
    mpq_clear(d2);
    piece_free(&a);
    piece_free(&b);
}

/* n pairs over the given sizes and spreads (of the size); prints and checks the tally. */
static void run_pairs(const char *name, uint64_t seed, long n, const double *sizes, int nsizes, const double *spreads,
                      int nspreads, long near_min_divisor, int nkinds)
{
    const char *env = getenv("COLIBRI_ROUNDED_SEED"); /* replay another seed by hand */
    rng_seed(env != NULL ? strtoull(env, NULL, 0) : seed, name);
    tally t;
    memset(&t, 0, sizeof t);
    memset(&ostats, 0, sizeof ostats);
    clock_t c0 = clock();
    for (long i = 0; i < n; i++) {
        int ka = (int)(urand() * nkinds), kb = (int)(urand() * nkinds);
        double size = sizes[i % nsizes];
        double spread = spreads[(int)(urand() * nspreads)] * size;
        int mode = urand() < 0.1 ? 1 : urand() < 0.15 ? 2 : 0;
        if (mode == 1) ka = kb = 1;
        one_pair(&t, ka, kb, size, spread, mode);
    }
    double secs = (double)(clock() - c0) / CLOCKS_PER_SEC;
    print_message("  %ld pairs (%ld colliding, %ld separated): far from touching %ld/%ld agree, within 1e-9 of the "
                  "size %ld/%ld agree\n",
                  t.pairs, t.colliding, t.sep, t.far_agree, t.far, t.near_agree, t.near);
    print_message("  exact path %ld, undecided %ld, exact-band gaps %ld; oracle: %ld fast, %ld LP, %ld exhaustive\n",
                  t.exact_path, t.undecided, t.band_gaps, ostats.fast, ostats.lp, ostats.exhaustive);
    print_message("  time: %.3f s in col_rounded_query (%.2f us a pair; %.1f us a pair on the exact path), %.1f s in "
                  "all\n",
                  t.seconds_query, 1e6 * t.seconds_query / (double)(t.pairs > 0 ? t.pairs : 1),
                  1e6 * t.seconds_exact / (double)(t.exact_path > 0 ? t.exact_path : 1), secs);
    assert_true(t.pairs > n / 2);
    assert_int_equal(t.far_agree, t.far);
    assert_int_equal(t.near_agree, t.near);
    assert_int_equal(t.undecided, 0); /* every answer a proof (none answered colliding by default) */
    assert_true(t.near > t.pairs / near_min_divisor); /* the generator does reach the exact band */
}

/* The acceptance run: 10^5 pairs (release) at sizes 1e-3, 1 and 1e3, a fifth of
 * them 1e6 sizes from the origin. */
static void test_random_pairs(void **state)
{
    (void)state;
    const double sizes[3] = {1e-3, 1.0, 1e3}, spreads[5] = {10, 10, 10, 10, 1e6};
    run_pairs("test_random_pairs", 0x5eed15c0ffeeULL, (long)(100000 * test_scale()), sizes, 3, spreads, 5, 20, 3);
}

/* Tiny shapes (squares of their sizes underflow unless scaled) and shapes far from the
 * origin (coordinates up to 1e15, where a size-1 shape's points are rounded to 1/8). */
static void test_tiny_and_far(void **state)
{
    (void)state;
    const double tiny[2] = {1e-80, 1e-40}, tiny_spreads[2] = {10, 1e6};
    run_pairs("test_tiny", 0x71417ULL, (long)(10000 * test_scale()), tiny, 2, tiny_spreads, 2, 20, 3);
    const double far[2] = {1e-3, 1.0}, far_spreads[2] = {1e12, 1e15};
    /* there, the pose's rounding (1/8 at 1e15) scatters the targets: fewer pairs land
     * within 1e-9 of the size from touching */
    run_pairs("test_far", 0xfa7ULL, (long)(10000 * test_scale()), far, 2, far_spreads, 2, 200, 3);
}

/* col_core_distance_query against the oracle: apart, the distance within 1e-9 relative
 * (plus 1e-12 of the size: the rounding of the world points), the points that far apart
 * and the normal along them; overlapping by more than 1e-6 of the size, the overlap flag,
 * and b moved by (depth + 1e-9 size) along the normal no longer meets a (exact LP). */
static void test_core_distance(void **state)
{
    (void)state;
    rng_seed(0xd157a9ceULL, "test_core_distance");
    long n = (long)(6000 * test_scale()), apart = 0, over = 0, its = 0;
    const double sizes[3] = {1e-3, 1.0, 1e3};
    double worst = 0.0;
    for (long i = 0; i < n; i++) {
        piece a, b;
        double size = sizes[i % 3];
        make_piece(&a, (int)(urand() * 3.0), size);
        make_piece(&b, (int)(urand() * 3.0), size);
        col_xform xa = random_xform(10.0 * size), xb = random_xform(10.0 * size);
        double target = size * pow(10.0, urange(-6.0, 0.0)) * (urand() < 0.3 ? -1.0 : 1.0);
        if (place_pair(&a, &xa, &b, &xb, size, target)) {
            col_core_distance cd;
            col_core_distance_query(&a.core, &xa, &b.core, &xb, &cd);
            its += cd.iterations;
            assert_true(fabs(col_len(cd.normal) - 1.0) < 1e-12);
            mpq_t d2;
            mpq_init(d2);
            oracle_dist2(&a.o, &b.o, d2);
            double dist = sqrt(mpq_get_d(d2));
            if (dist > 0.0) {
                apart++;
                assert_false(cd.overlap);
                double err = fabs(cd.distance - dist);
                worst = fmax(worst, err / (dist + size));
                if (!(err <= 1e-9 * dist + 1e-12 * size))
                    print_message("distance %.17g exact %.17g kinds %d %d\n", cd.distance, dist, a.kind, b.kind);
                assert_true(err <= 1e-9 * dist + 1e-12 * size);
                col_vec3 d = col_sub(cd.point_b, cd.point_a);
                assert_true(fabs(col_len(d) - dist) <= 1e-9 * dist + 1e-12 * size);
                assert_true(fabs(col_dot(d, cd.normal) - dist) <= 1e-9 * dist + 1e-12 * size);
            } else if (target < -1e-6 * size) {
                over++;
                assert_true(cd.overlap);
                assert_true(cd.depth >= 0.0);
                xb.p = col_add(xb.p, col_scale(cd.normal, cd.depth + 1e-9 * size));
                place(&b, &xb);
                assert_int_equal(oracle_intersect_scaled(&a.o, &b.o), 0);
            }
            mpq_clear(d2);
        }
        piece_free(&a);
        piece_free(&b);
    }
    print_message("  %ld apart (worst error %.3g of distance + size), %ld overlapping moved apart by depth; %.2f GJK "
                  "steps a query\n",
                  apart, worst, over, (double)its / (double)(n > 0 ? n : 1));
    assert_true(apart > n / 2 && over > n / 10);
}

/* Exact touching by construction, and one ulp either side: spheres, crossing capsules, a
 * sphere on a cube's face (also 1e15 from the origin), two cubes sharing a corner. */
static col_xform at(double x, double y, double z)
{
    col_xform t;
    memset(&t, 0, sizeof t);
    t.R.m[0] = t.R.m[4] = t.R.m[8] = 1.0;
    t.p = col_v3(x, y, z);
    return t;
}

static int collides(const col_core *a, col_xform xa, const col_core *b, col_xform xb, int *fallbacks)
{
    col_np_result r;
    col_rounded_query(a, &xa, b, &xb, &r);
    *fallbacks = r.fallbacks;
    if (!r.colliding) assert_true(r.gap > 0.0);
    return r.colliding;
}

static void test_exact_touching(void **state)
{
    (void)state;
    int fb;
    col_vec3 o = col_v3(0, 0, 0);
    col_core s1 = {&o, 1, NULL, 1.0}, s2 = {&o, 1, NULL, 2.0}, s2m = {&o, 1, NULL, nextafter(2.0, 0.0)};
    assert_true(collides(&s1, at(0, 0, 0), &s2, at(3, 0, 0), &fb));
    assert_int_equal(fb, 1);
    assert_false(collides(&s1, at(0, 0, 0), &s2m, at(3, 0, 0), &fb));
    assert_int_equal(fb, 1);
    assert_false(collides(&s1, at(0, 0, 0), &s2, at(nextafter(3.0, 4.0), 0, 0), &fb));

    col_vec3 sa[2] = {{-1, 0, 0}, {1, 0, 0}}, sb[2] = {{0, -1, 0}, {0, 1, 0}};
    col_core ca = {sa, 2, NULL, 0.25}, cb = {sb, 2, NULL, 0.5};
    assert_true(collides(&ca, at(0, 0, 0), &cb, at(0.125, 0.25, 0.75), &fb));
    assert_int_equal(fb, 1);
    assert_false(collides(&ca, at(0, 0, 0), &cb, at(0.125, 0.25, nextafter(0.75, 1.0)), &fb));
    /* parallel capsules, touching along a stretch */
    col_core cc = {sa, 2, NULL, 0.5};
    assert_true(collides(&ca, at(0, 0, 0), &cc, at(0.5, 0.75, 0), &fb));
    assert_false(collides(&ca, at(0, 0, 0), &cc, at(0.5, nextafter(0.75, 1.0), 0), &fb));

    col_vec3 cube[8];
    for (int i = 0; i < 8; i++) cube[i] = col_v3(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1);
    col_hull h;
    char err[200];
    assert_int_equal(col_hull_build(&g_alloc, cube, 8, &h, err, sizeof err), COL_OK);
    col_core box = {h.vertices, h.vertex_count, &h, 0.0}, ball = {&o, 1, NULL, 0.5};
    col_core ball_up = {&o, 1, NULL, 0.5 + 0x1p-52}; /* reaches exactly one ulp of 1.5 further */
    for (int far = 0; far < 2; far++) {
        double X = far ? 1e15 : 0.0;
        assert_true(collides(&box, at(X, 0, 0), &ball, at(X + 1.5, 0.25, -0.5), &fb));
        assert_int_equal(fb, 1);
        double next = nextafter(X + 1.5, INFINITY);
        assert_false(collides(&box, at(X, 0, 0), &ball, at(next, 0.25, -0.5), &fb));
        if (far) /* 0.125 beyond at 1e15: does not reach */
            assert_false(collides(&box, at(X, 0, 0), &ball_up, at(next, 0.25, -0.5), &fb));
        else
            assert_true(collides(&box, at(X, 0, 0), &ball_up, at(next, 0.25, -0.5), &fb));
    }
    /* two cubes sharing one corner exactly (radius 0: the hull-hull case), then apart */
    assert_true(collides(&box, at(0, 0, 0), &box, at(2, 2, 2), &fb));
    assert_false(collides(&box, at(0, 0, 0), &box, at(2, 2, nextafter(2.0, 3.0)), &fb));
    /* a sphere touching the cube's edge */
    assert_true(collides(&box, at(0, 0, 0), &ball, at(1.5, 1, 0.25), &fb));
    assert_false(collides(&box, at(0, 0, 0), &ball, at(nextafter(1.5, 2.0), 1, 0.25), &fb));
    /* non-finite input (the world rejects it before; docs/rounded.md): undecided,
     * answered colliding, no loop */
    col_np_result r;
    col_rounded_query(&s1, &(col_xform){.R = at(0, 0, 0).R, .p = {NAN, 0, 0}}, &s2, &(col_xform){.R = at(0, 0, 0).R},
                      &r);
    assert_true(r.colliding);
    assert_int_equal(r.fallbacks, 2);
    col_hull_free(&g_alloc, &h);
}

/* Cores the world may also hand over: a point cloud without its hull (hull = NULL,
 * count 3-8: the scans and the exact stage need no hull) and thin plates (qhull's merged,
 * nearly coplanar faces), mixed with the three kinds above. */
static void test_odd_cores(void **state)
{
    (void)state;
    const double sizes[3] = {1e-3, 1.0, 1e3}, spreads[1] = {10};
    run_pairs("test_odd_cores", 0x0ddc0e5ULL, (long)(10000 * test_scale()), sizes, 3, spreads, 1, 20, 5);
}

int main(void)
{
    col_alloc_init(&g_alloc, NULL);
    oracle_round_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_touching),
        cmocka_unit_test(test_random_pairs),
        cmocka_unit_test(test_tiny_and_far),
        cmocka_unit_test(test_odd_cores),
        cmocka_unit_test(test_core_distance),
    };
    int r = cmocka_run_group_tests(tests, NULL, NULL);
    oracle_round_fini();
    return r;
}
