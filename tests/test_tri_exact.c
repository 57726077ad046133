/* SPDX-License-Identifier: MIT */
/* The exact triangle decisions of the mesh narrow phase against an exact rational
 * oracle (GMP; tests only):
 * - col_tri_tri_intersect (narrowphase/tri_tri.c) on triangle pairs;
 * - col_rounded_query (narrowphase/rounded.c) on a triangle as a core of 3 points and
 *   radius 0 against a hull, a sphere and a capsule: how the mesh-convex path decides a
 *   leaf;
 * - the orientation predicates (narrowphase/orient.c) against determinants in rationals,
 *   on inputs spanning the whole double range.
 *
 * The oracle (tests/oracle_round.h): two triangles intersect iff the exact squared
 * distance between the convex hulls of their points is 0; a triangle is the hull of its
 * three points, degenerate or not. No tolerance: every answer must equal the oracle's.
 *
 * The pairs come in categories, each printed with its counts, and each must reach both
 * outcomes (a generator that only makes hits, or only misses, tests half the predicate):
 * random pairs; near misses and shallow crossings at signed gaps log-uniform in 1e-12..1
 * of the size; exact touching at a vertex, on an edge, on the face and edge on edge
 * (points on an integer lattice, a touching point an exact dyadic combination of the
 * other triangle's vertices) and those moved by one lattice step; coplanar pairs on a
 * small lattice of a tilted plane (overlap, disjoint, touching, collinear); pairs on a
 * small 3D lattice (every coincidence: shared vertices, collinear and repeated points);
 * degenerate triangles (segments and points) against triangles and each other. Lattice
 * pairs are moved by exact rigid motions (signed axis permutations, integer
 * translations) and scaled by powers of two (sizes about 1e-3, 1, 1e3, and 1e-80, 1e15);
 * the others by random rotations. Every triangle pair is also checked with the
 * triangles swapped and with their vertices permuted (orientation reversed included).
 * The fraction of pairs that needed an exact predicate (the filter's fallback rate) is
 * printed per category. Sizes scale with COLIBRI_TEST_SCALE (the ASan run uses 0.1). */
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
#include "lib/core/exact.h"
#include "lib/core/hull.h"
#include "lib/core/vec.h"
#include "narrowphase/orient.h"
#include "narrowphase/rounded.h"
#include "narrowphase/tri_tri.h"
#include "tests/oracle_lp.h"
#include "tests/oracle_round.h"
#include "tests/test_util.h"

static col_alloc g_alloc;

static double test_scale(void)
{
    const char *env = getenv("COLIBRI_TEST_SCALE");
    double s = env != NULL ? atof(env) : 1.0;
    return s > 0.0 ? s : 1.0;
}

static uint64_t seed_for(uint64_t seed)
{
    const char *env = getenv("COLIBRI_TRI_SEED"); /* replay another seed by hand */
    return env != NULL ? strtoull(env, NULL, 0) : seed;
}

/* ---- categories ---- */

typedef struct cat {
    const char *name;
    long pairs, hits, exact_pairs, exact_evals, wrong;
} cat;

static void cat_print(const cat *c)
{
    print_message("  %-22s %7ld pairs, %7ld intersecting, %7ld separated; exact predicates in %ld pairs (%.2f%%, "
                  "%ld evaluations); %ld wrong\n",
                  c->name, c->pairs, c->hits, c->pairs - c->hits, c->exact_pairs,
                  100.0 * (double)c->exact_pairs / (double)(c->pairs > 0 ? c->pairs : 1), c->exact_evals, c->wrong);
}

/* Prints every category, then checks: every answer right, and both outcomes reached by
 * at least min_frac of the pairs of each. */
static void cats_check(const cat *c, int n, double min_frac)
{
    for (int i = 0; i < n; i++) cat_print(&c[i]);
    for (int i = 0; i < n; i++) {
        assert_int_equal(c[i].wrong, 0);
        assert_true(c[i].pairs > 0);
        assert_true((double)c[i].hits >= min_frac * (double)c[i].pairs);
        assert_true((double)(c[i].pairs - c[i].hits) >= min_frac * (double)c[i].pairs);
    }
}

static void print_tri(const char *name, const col_vec3 t[3])
{
    print_message("    %s: {%a, %a, %a}, {%a, %a, %a}, {%a, %a, %a}\n", name, t[0].x, t[0].y, t[0].z, t[1].x, t[1].y,
                  t[1].z, t[2].x, t[2].y, t[2].z);
}

/* ---- the oracle ---- */

static void to_set(oracle_set *s, const col_vec3 *p, int n)
{
    memset(s, 0, sizeof *s);
    s->n = n;
    for (int i = 0; i < n; i++) s->w[i] = p[i];
    oracle_features_all(s);
}

static int truth_tri_tri(const col_vec3 a[3], const col_vec3 b[3])
{
    oracle_set oa, ob;
    to_set(&oa, a, 3);
    to_set(&ob, b, 3);
    mpq_t d2;
    mpq_init(d2);
    oracle_dist2(&oa, &ob, d2);
    int r = mpq_sgn(d2) == 0;
    mpq_clear(d2);
    return r;
}

static const int perms[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};

/* The decision on a pair, its swap and a vertex permutation of each, against the oracle. */
static void check_pair(cat *c, const col_vec3 a[3], const col_vec3 b[3])
{
    int truth = truth_tri_tri(a, b);
    int ex = 0;
    bool got = col_tri_tri_intersect_counted(a, b, &ex);
    bool swapped = col_tri_tri_intersect(b, a);
    const int *pa = perms[(int)(urand() * 6.0)], *pb = perms[(int)(urand() * 6.0)];
    col_vec3 ap[3] = {a[pa[0]], a[pa[1]], a[pa[2]]}, bp[3] = {b[pb[0]], b[pb[1]], b[pb[2]]};
    bool permuted = col_tri_tri_intersect(ap, bp);
    c->pairs++;
    c->hits += truth;
    c->exact_pairs += ex > 0;
    c->exact_evals += ex;
    if (got != truth || swapped != truth || permuted != truth) {
        if (c->wrong < 5) {
            print_message("  %s: oracle %d, answer %d, swapped %d, permuted %d\n", c->name, truth, got, swapped,
                          permuted);
            print_tri("a", a);
            print_tri("b", b);
        }
        c->wrong++;
    }
}

/* ---- generators ---- */

static col_vec3 rand_in_ball(double r)
{
    for (;;) {
        double x = urange(-1, 1), y = urange(-1, 1), z = urange(-1, 1);
        if (x * x + y * y + z * z <= 1.0) return col_v3(r * x, r * y, r * z);
    }
}

static col_vec3 random_unit(void)
{
    col_vec3 u;
    while (!col_unit_robust(col_v3(gauss(), gauss(), gauss()), &u)) {
    }
    return u;
}

static long irand(long lo, long hi) { return lo + (long)(urand() * (double)(hi - lo + 1)); }

static col_vec3 lattice_point(long r) { return col_v3((double)irand(-r, r), (double)irand(-r, r), (double)irand(-r, r)); }

/* An exact rigid motion and scale of lattice points: a signed permutation of the axes,
 * an integer translation (|t| <= shift), then a power of two. Exact while the integers
 * stay below 2^53. */
typedef struct lmotion {
    int axis[3];
    double sign[3], shift[3];
    int e;
} lmotion;

static lmotion random_lmotion(long shift, int e)
{
    lmotion m;
    const int *p = perms[(int)(urand() * 6.0)];
    for (int k = 0; k < 3; k++) {
        m.axis[k] = p[k];
        m.sign[k] = urand() < 0.5 ? -1.0 : 1.0;
        m.shift[k] = (double)irand(-shift, shift);
    }
    m.e = e;
    return m;
}

static col_vec3 lmove(const lmotion *m, col_vec3 p)
{
    double v[3] = {p.x, p.y, p.z}, o[3];
    for (int k = 0; k < 3; k++) o[k] = ldexp(m->sign[k] * v[m->axis[k]] + m->shift[k], m->e);
    return col_v3(o[0], o[1], o[2]);
}

/* The exponent of the lattice unit for a triangle of about 2^bits units and the size
 * given. */
static int unit_exp(double size, int bits)
{
    int e;
    frexp(size, &e);
    return e - bits;
}

static const double g_sizes[5] = {1e-3, 1.0, 1e3, 1e-80, 1e15};

static double pick_size(long i) { return g_sizes[i % 5 < 3 ? i % 5 : (i % 20 == 3 ? 3 : (i % 20 == 4 ? 4 : i % 3))]; }

/* Random triangles of about the size, b about `spread` sizes from a. */
static void gen_random(col_vec3 a[3], col_vec3 b[3], double size)
{
    col_vec3 ca = rand_in_ball(10.0 * size), cb = col_add(ca, rand_in_ball(1.5 * size));
    for (int i = 0; i < 3; i++) {
        a[i] = col_add(ca, rand_in_ball(size));
        b[i] = col_add(cb, rand_in_ball(size));
    }
}

/* b moved so that the triangles are about `target` apart (< 0: crossing that deep),
 * along the direction of their closest points computed in double; the oracle decides
 * what the rounded result is. Far from the origin when `far` (1e6 sizes). */
static bool gen_near(col_vec3 a[3], col_vec3 b[3], double size, int far)
{
    col_vec3 ca = far ? rand_in_ball(1e6 * size) : rand_in_ball(10.0 * size);
    col_vec3 u = random_unit();
    col_vec3 cb = col_add(ca, col_scale(u, 4.0 * size));
    for (int i = 0; i < 3; i++) {
        a[i] = col_add(ca, rand_in_ball(size));
        b[i] = col_add(cb, rand_in_ball(size));
    }
    oracle_set oa, ob;
    to_set(&oa, a, 3);
    to_set(&ob, b, 3);
    fpair bp;
    col_vec3 x, y, n;
    double d0 = sqrt(oracle_search(&oa, &ob, &bp, &x, &y));
    if (!(d0 > 0.0) || !col_unit_robust(col_sub(y, x), &n)) return false;
    double mag = size * pow(10.0, urange(-12.0, 0.0));
    double target = urand() < 0.5 ? mag : -mag;
    col_vec3 shift = col_scale(n, target - d0);
    for (int i = 0; i < 3; i++) b[i] = col_add(b[i], shift);
    return true;
}

/* A randomly rotated triangle of about 2^bits lattice units, its coordinates multiples
 * of 16 (so that dyadic combinations with weights k/16 stay on the lattice). */
static void lattice_triangle(col_vec3 t[3], int bits)
{
    double r = ldexp(1.0, bits - 4);
    for (int i = 0; i < 3; i++) {
        col_vec3 p = rand_in_ball(r);
        t[i] = col_v3(16.0 * nearbyint(p.x), 16.0 * nearbyint(p.y), 16.0 * nearbyint(p.z));
    }
}

/* kind: 0 vertex on vertex, 1 vertex on an edge, 2 vertex on the face, 3 edge crossing
 * an edge. Half the time b's other vertices lie on one side of a's plane (the triangles
 * then touch exactly), a third of the time b is moved by one lattice step. */
static void gen_touch(col_vec3 a[3], col_vec3 b[3], int kind, int bits)
{
    lattice_triangle(a, bits);
    int i = (int)(urand() * 3.0), j = (i + 1) % 3, k = (i + 2) % 3;
    col_vec3 x;
    if (kind == 0) {
        x = a[i];
    } else if (kind == 1 || kind == 3) {
        double w = (double)irand(1, 15);
        x = col_scale(col_add(col_scale(a[i], 16.0 - w), col_scale(a[j], w)), 1.0 / 16.0);
    } else {
        double w0 = (double)irand(1, 14), w1 = (double)irand(1, 15 - (long)w0), w2 = 16.0 - w0 - w1;
        x = col_scale(col_add(col_add(col_scale(a[i], w0), col_scale(a[j], w1)), col_scale(a[k], w2)), 1.0 / 16.0);
    }
    double r = ldexp(1.0, bits);
    col_vec3 n = col_cross(col_sub(a[1], a[0]), col_sub(a[2], a[0]));
    bool one_side = urand() < 0.5;
    double side = urand() < 0.5 ? 1.0 : -1.0;
    for (int m = 0; m < 3; m++) {
        col_vec3 d = col_v3(nearbyint(urange(-r, r)), nearbyint(urange(-r, r)), nearbyint(urange(-r, r)));
        if (one_side && side * col_dot(d, n) < 0.0) d = col_neg(d);
        b[m] = col_add(x, d);
    }
    b[0] = x;
    if (kind == 3) { /* b's edge 01 through x: b1 = x - (b2 - x) reflected */
        col_vec3 d = col_sub(b[2], x);
        b[1] = col_sub(x, d);
        /* b0 then moves off x, keeping b1 b2 through it */
        col_vec3 e = col_v3(nearbyint(urange(-r, r)), nearbyint(urange(-r, r)), nearbyint(urange(-r, r)));
        b[0] = col_add(x, e);
    }
    if (urand() < 1.0 / 3.0) {
        col_vec3 step = col_v3(0, 0, 0);
        double s = urand() < 0.5 ? -1.0 : 1.0;
        int ax = (int)(urand() * 3.0);
        if (ax == 0) step.x = s;
        else if (ax == 1) step.y = s;
        else step.z = s;
        for (int m = 0; m < 3; m++) b[m] = col_add(b[m], step);
    }
}

/* Points O + s U + t V of a tilted plane, s and t small integers. */
static void gen_coplanar(col_vec3 a[3], col_vec3 b[3])
{
    col_vec3 o = lattice_point(20), u, v;
    do {
        u = lattice_point(6);
        v = lattice_point(6);
    } while (col_len2(col_cross(u, v)) == 0.0);
    col_vec3 *t[6] = {&a[0], &a[1], &a[2], &b[0], &b[1], &b[2]};
    long r = irand(2, 6);
    for (int i = 0; i < 6; i++) {
        double s = (double)irand(-r, r), w = (double)irand(-r, r);
        *t[i] = col_add(o, col_add(col_scale(u, s), col_scale(v, w)));
    }
}

/* All six points on a small 3D lattice. */
static void gen_lattice(col_vec3 a[3], col_vec3 b[3])
{
    long r = irand(1, 3);
    for (int i = 0; i < 3; i++) {
        a[i] = lattice_point(r);
        b[i] = lattice_point(r);
    }
}

/* A segment (three collinear lattice points, possibly repeated) or a point. */
static void degenerate_triangle(col_vec3 t[3], long r)
{
    col_vec3 p = lattice_point(r);
    if (urand() < 0.3) {
        t[0] = t[1] = t[2] = p;
        return;
    }
    col_vec3 d = lattice_point(2);
    for (int i = 0; i < 3; i++) t[i] = col_add(p, col_scale(d, (double)irand(-2, 2)));
}

/* One degenerate triangle against a proper one (lattice), or two degenerate ones. */
static void gen_degenerate(col_vec3 a[3], col_vec3 b[3])
{
    long r = irand(1, 3);
    degenerate_triangle(a, r);
    if (urand() < 0.5) {
        degenerate_triangle(b, r);
    } else {
        do {
            for (int i = 0; i < 3; i++) b[i] = lattice_point(r + 1);
        } while (col_len2(col_cross(col_sub(b[1], b[0]), col_sub(b[2], b[0]))) == 0.0);
    }
    if (urand() < 0.5) {
        for (int i = 0; i < 3; i++) {
            col_vec3 t = a[i];
            a[i] = b[i];
            b[i] = t;
        }
    }
}

static void apply(const lmotion *m, col_vec3 a[3], col_vec3 b[3])
{
    for (int i = 0; i < 3; i++) {
        a[i] = lmove(m, a[i]);
        b[i] = lmove(m, b[i]);
    }
}

/* ---- the triangle-triangle test ---- */

static void test_tri_tri_random(void **state)
{
    (void)state;
    rng_seed(seed_for(0x7121c0deULL), "test_tri_tri_random");
    long n = (long)(20000 * test_scale());
    cat cats[12] = {{.name = "random"},        {.name = "near miss/crossing"}, {.name = "near, far from 0"}, {.name = "touch: vertex"},
                    {.name = "touch: on edge"}, {.name = "touch: on face"},     {.name = "touch: edge-edge"}, {.name = "coplanar"},
                    {.name = "3D lattice"},     {.name = "degenerate"},         {.name = "lattice 1e-80"},    {.name = "lattice 1e15"}};
    col_vec3 a[3], b[3];
    for (long i = 0; i < n; i++) {
        double size = pick_size(i);
        if (size >= 1e-3 && size <= 1e3) {
            gen_random(a, b, size);
            check_pair(&cats[0], a, b);
        }
        if (gen_near(a, b, size, 0)) check_pair(&cats[1], a, b);
        if (i % 4 == 0 && gen_near(a, b, size, 1)) check_pair(&cats[2], a, b);
        int ue = unit_exp(size, 20);
        for (int kind = 0; kind < 4; kind++) {
            gen_touch(a, b, kind, 20);
            lmotion m = random_lmotion(1L << 24, ue);
            apply(&m, a, b);
            check_pair(&cats[3 + kind], a, b);
        }
        /* the small lattices: unit about size / 4 */
        int se = unit_exp(size, 2);
        int which = i % 20 == 3 ? 10 : (i % 20 == 4 ? 11 : -1);
        for (int rep = 0; rep < 2; rep++) {
            lmotion m = random_lmotion(8, se);
            gen_coplanar(a, b);
            apply(&m, a, b);
            check_pair(&cats[which >= 0 && rep == 0 ? which : 7], a, b);
            gen_lattice(a, b);
            apply(&m, a, b);
            check_pair(&cats[which >= 0 && rep == 1 ? which : 8], a, b);
            gen_degenerate(a, b);
            apply(&m, a, b);
            check_pair(&cats[9], a, b);
        }
    }
    long total = 0;
    for (int c = 0; c < 12; c++) total += cats[c].pairs;
    print_message("  %ld triangle pairs (each also swapped and permuted); oracle: %ld fast, %ld LP, %ld exhaustive\n",
                  total, ostats.fast, ostats.lp, ostats.exhaustive);
    cats_check(cats, 12, 0.02);
    assert_true(total >= (long)(100000 * test_scale()));
}

/* ---- triangle against hull, sphere and capsule (col_rounded_query) ---- */

typedef struct convex {
    col_vec3 local[ORACLE_MAXP];
    col_hull hull;
    bool has_hull;
    col_core core;
    oracle_set o;
} convex;

static void convex_free(convex *c)
{
    if (c->has_hull) col_hull_free(&g_alloc, &c->hull);
    c->has_hull = false;
}

/* A hull of 4..12 points (in a ball of the size, or on a small lattice of unit `unit`). */
static void make_hull(convex *c, double size, double unit, bool lattice)
{
    memset(c, 0, sizeof *c);
    char err[200];
    for (;;) {
        int n = 4 + (int)(urand() * 9.0);
        for (int i = 0; i < n; i++) {
            if (lattice) {
                col_vec3 p = lattice_point(3);
                c->local[i] = col_scale(p, unit);
            } else {
                c->local[i] = rand_in_ball(size);
            }
        }
        if (col_hull_build(&g_alloc, c->local, n, &c->hull, err, sizeof err) == COL_OK) break;
    }
    c->has_hull = true;
    c->core.points = c->hull.vertices;
    c->core.count = c->hull.vertex_count;
    c->core.hull = &c->hull;
    c->core.radius = 0.0;
    c->o.n = c->core.count;
    oracle_features_hull(&c->o, c->hull.face_count, c->hull.face_first, c->hull.face_verts, c->hull.edge_count,
                         c->hull.edge_verts);
}

static void make_triangle(convex *c, const col_vec3 t[3])
{
    memset(c, 0, sizeof *c);
    for (int i = 0; i < 3; i++) c->local[i] = t[i];
    c->core.points = c->local;
    c->core.count = 3;
    c->core.radius = 0.0;
    c->o.n = 3;
    oracle_features_all(&c->o);
}

static void place(convex *c, const col_xform *x)
{
    for (int i = 0; i < c->o.n; i++) c->o.w[i] = col_xform_point(x, c->core.points[i]);
}

static col_xform random_xform(double spread)
{
    col_transform t;
    t.q = random_quat();
    t.p = col_v3(urange(-spread, spread), urange(-spread, spread), urange(-spread, spread));
    return col_xform_from_transform(t);
}

/* An exact pose: a signed axis permutation and a translation on the lattice of `unit`. */
static col_xform lattice_xform(double unit, long shift)
{
    col_xform x;
    memset(&x, 0, sizeof x);
    const int *p = perms[(int)(urand() * 6.0)];
    for (int r = 0; r < 3; r++) x.R.m[3 * r + p[r]] = urand() < 0.5 ? -1.0 : 1.0;
    x.p = col_scale(col_v3((double)irand(-shift, shift), (double)irand(-shift, shift), (double)irand(-shift, shift)),
                    unit);
    return x;
}

/* Moves b (pose xb) so that its core is about target from a's (the closest points of a
 * double search); false if the cores overlap from the start. */
static bool place_near(convex *a, const col_xform *xa, convex *b, col_xform *xb, double size, double target)
{
    place(a, xa);
    xb->p = col_add(xa->p, col_scale(random_unit(), 6.0 * size));
    place(b, xb);
    fpair bp;
    col_vec3 x, y, n;
    double d0 = sqrt(oracle_search(&a->o, &b->o, &bp, &x, &y));
    if (!(d0 > 0.0) || !col_unit_robust(col_sub(y, x), &n)) return false;
    xb->p = col_add(xb->p, col_scale(n, target - d0));
    place(b, xb);
    return true;
}

static void check_rounded(cat *c, convex *t, const col_xform *xt, convex *h, const col_xform *xh)
{
    place(t, xt);
    place(h, xh);
    int truth = oracle_round_collide(&t->o, t->core.radius, &h->o, h->core.radius);
    col_np_result r, rs;
    col_rounded_query(&t->core, xt, &h->core, xh, &r);
    col_rounded_query(&h->core, xh, &t->core, xt, &rs);
    c->pairs++;
    c->hits += truth;
    c->exact_pairs += r.fallbacks >= 1;
    c->exact_evals += r.fallbacks;
    if (r.colliding != truth || rs.colliding != truth || r.fallbacks == 2) {
        if (c->wrong < 5) {
            print_message("  %s: oracle %d, answer %d (fallbacks %d), swapped %d\n", c->name, truth, r.colliding,
                          r.fallbacks, rs.colliding);
            print_tri("triangle (world)", t->o.w);
        }
        c->wrong++;
    }
}

static void test_tri_hull_random(void **state)
{
    (void)state;
    rng_seed(seed_for(0x7121f0ceULL), "test_tri_hull_random");
    long n = (long)(32000 * test_scale());
    cat cats[4] = {{.name = "hull: near/crossing"}, {.name = "hull: lattice"}, {.name = "hull: random"}, {.name = "hull: near, far from 0"}};
    memset(&ostats, 0, sizeof ostats);
    for (long i = 0; i < n; i++) {
        double size = pick_size(i);
        convex t, h;
        col_vec3 tri[3];
        /* near misses and shallow crossings, random rotations */
        for (int far = 0; far < 2; far++) {
            if (far && i % 4 != 0) continue;
            for (int k = 0; k < 3; k++) tri[k] = rand_in_ball(size);
            if (urand() < 0.1) {
                degenerate_triangle(tri, 2);
                for (int k = 0; k < 3; k++) tri[k] = col_scale(tri[k], size / 4.0);
            }
            make_triangle(&t, tri);
            make_hull(&h, size, 0.0, false);
            col_xform xt = random_xform(far ? 1e6 * size : 10.0 * size), xh = random_xform(0.0);
            double mag = size * pow(10.0, urange(-12.0, 0.0));
            if (place_near(&t, &xt, &h, &xh, size, urand() < 0.5 ? mag : -mag))
                check_rounded(&cats[far ? 3 : 0], &t, &xt, &h, &xh);
            convex_free(&h);
        }
        /* the lattice: touching faces, edges and vertices, collinear and repeated points */
        {
            double unit = ldexp(1.0, unit_exp(size, 2));
            make_hull(&h, size, unit, true);
            for (int k = 0; k < 3; k++) tri[k] = col_scale(lattice_point(4), unit);
            if (urand() < 0.2) {
                degenerate_triangle(tri, 3);
                for (int k = 0; k < 3; k++) tri[k] = col_scale(tri[k], unit);
            }
            make_triangle(&t, tri);
            col_xform xt = lattice_xform(unit, 3), xh = lattice_xform(unit, 3);
            check_rounded(&cats[1], &t, &xt, &h, &xh);
            convex_free(&h);
        }
        /* random pairs */
        if (size >= 1e-3 && size <= 1e3) {
            for (int k = 0; k < 3; k++) tri[k] = rand_in_ball(size);
            make_triangle(&t, tri);
            make_hull(&h, size, 0.0, false);
            col_xform xt = random_xform(1.2 * size), xh = random_xform(1.2 * size);
            check_rounded(&cats[2], &t, &xt, &h, &xh);
            convex_free(&h);
        }
    }
    long total = 0;
    for (int c = 0; c < 4; c++) total += cats[c].pairs;
    print_message("  %ld triangle-hull pairs (each also swapped); oracle: %ld fast, %ld LP, %ld exhaustive\n", total,
                  ostats.fast, ostats.lp, ostats.exhaustive);
    cats_check(cats, 4, 0.02);
    assert_true(total >= (long)(100000 * test_scale()));
}

/* A few triangles against spheres and capsules, near touching. */
static void test_tri_round(void **state)
{
    (void)state;
    rng_seed(seed_for(0x7121babeULL), "test_tri_round");
    long n = (long)(2000 * test_scale());
    cat cats[2] = {{.name = "sphere: near"}, {.name = "capsule: near"}};
    for (long i = 0; i < n; i++) {
        double size = g_sizes[i % 3];
        for (int kind = 0; kind < 2; kind++) {
            convex t, s;
            col_vec3 tri[3];
            for (int k = 0; k < 3; k++) tri[k] = rand_in_ball(size);
            make_triangle(&t, tri);
            memset(&s, 0, sizeof s);
            s.local[0] = rand_in_ball(0.3 * size);
            s.local[1] = col_add(s.local[0], rand_in_ball(size));
            s.core.points = s.local;
            s.core.count = kind + 1;
            s.core.radius = urange(0.05, 1.0) * size;
            s.o.n = kind + 1;
            oracle_features_core(&s.o);
            col_xform xt = random_xform(10.0 * size), xs = random_xform(0.0);
            double mag = size * pow(10.0, urange(-12.0, 0.0));
            double target = s.core.radius + (urand() < 0.5 ? mag : -mag);
            if (place_near(&t, &xt, &s, &xs, size, target)) check_rounded(&cats[kind], &t, &xt, &s, &xs);
        }
    }
    cats_check(cats, 2, 0.02);
}

/* ---- the predicates on the whole double range ---- */

static double wild_double(void)
{
    double m = urange(-1.0, 1.0);
    int e = (int)irand(-1060, 1024);
    double x = ldexp(m, e);
    return urand() < 0.1 ? 0.0 : x;
}

static int q_orient3d(col_vec3 a, col_vec3 b, col_vec3 c, col_vec3 d)
{
    qv qa, qb, qc, qd, u, v, w;
    qv *all[7] = {&qa, &qb, &qc, &qd, &u, &v, &w};
    for (int i = 0; i < 7; i++) qv_init(all[i]);
    qv_setd(&qa, a);
    qv_setd(&qb, b);
    qv_setd(&qc, c);
    qv_setd(&qd, d);
    qv_sub(&u, &qb, &qa);
    qv_sub(&v, &qc, &qa);
    qv_sub(&w, &qd, &qa);
    mpq_t t, s, det;
    mpq_inits(t, s, det, NULL);
    /* det = w . (u x v) */
    mpq_mul(t, u.y, v.z);
    mpq_mul(s, u.z, v.y);
    mpq_sub(t, t, s);
    mpq_mul(det, w.x, t);
    mpq_mul(t, u.z, v.x);
    mpq_mul(s, u.x, v.z);
    mpq_sub(t, t, s);
    mpq_mul(t, w.y, t);
    mpq_add(det, det, t);
    mpq_mul(t, u.x, v.y);
    mpq_mul(s, u.y, v.x);
    mpq_sub(t, t, s);
    mpq_mul(t, w.z, t);
    mpq_add(det, det, t);
    int r = mpq_sgn(det);
    mpq_clears(t, s, det, NULL);
    for (int i = 0; i < 7; i++) qv_clear(all[i]);
    return r;
}

static double comp(col_vec3 p, int k) { return k == 0 ? p.x : (k == 1 ? p.y : p.z); }

static int q_orient2d(col_vec3 a, col_vec3 b, col_vec3 c, int k)
{
    int i = (k + 1) % 3, j = (k + 2) % 3;
    mpq_t x[6], l, r;
    for (int m = 0; m < 6; m++) mpq_init(x[m]);
    mpq_inits(l, r, NULL);
    mpq_set_d(x[0], comp(a, i));
    mpq_set_d(x[1], comp(a, j));
    mpq_set_d(x[2], comp(b, i));
    mpq_set_d(x[3], comp(b, j));
    mpq_set_d(x[4], comp(c, i));
    mpq_set_d(x[5], comp(c, j));
    mpq_sub(x[2], x[2], x[0]);
    mpq_sub(x[3], x[3], x[1]);
    mpq_sub(x[4], x[4], x[0]);
    mpq_sub(x[5], x[5], x[1]);
    mpq_mul(l, x[2], x[5]);
    mpq_mul(r, x[3], x[4]);
    int s = mpq_cmp(l, r);
    for (int m = 0; m < 6; m++) mpq_clear(x[m]);
    mpq_clears(l, r, NULL);
    return s > 0 ? 1 : (s < 0 ? -1 : 0);
}

/* Points with every coordinate of a random binary order in [-1060, 1000] (so the
 * differences span up to the whole range: the integer path), points near a common
 * plane or line at such scales (the expansion path), and exactly coplanar ones. */
static void test_orient_exact(void **state)
{
    (void)state;
    rng_seed(seed_for(0x0e1e47ULL), "test_orient_exact");
    long n = (long)(40000 * test_scale());
    long zero3 = 0, zero2 = 0, wrong = 0;
    for (long i = 0; i < n; i++) {
        col_vec3 p[4];
        int mode = (int)(i % 5);
        if (mode == 0) {
            for (int k = 0; k < 4; k++) p[k] = col_v3(wild_double(), wild_double(), wild_double());
        } else if (mode == 4) {
            /* points of the plane z = (x + y) 2^-600, x and y of 20 bits at binary orders
             * from -400 to 400 (exact: the differences span over a thousand bits, beyond
             * the expansions' range), maybe one nudged by one ulp */
            for (int k = 0; k < 4; k++) {
                int e = (int)irand(-420, 380);
                double x = ldexp((double)irand(-(1L << 20), 1L << 20), e);
                double y = ldexp((double)irand(-(1L << 20), 1L << 20), urand() < 0.5 ? e : (int)irand(-420, 380));
                double sum, err;
                col_two_sum(x, y, &sum, &err);
                p[k] = col_v3(x, y, ldexp(sum, -600));
                if (err != 0.0 || ldexp(p[k].z, 600) != sum) p[k] = col_v3(0.0, 0.0, 0.0); /* inexact: the origin */
            }
            if (urand() < 0.5) {
                int k = (int)(urand() * 4.0);
                p[k].z = nextafter(p[k].z, urand() < 0.5 ? INFINITY : -INFINITY);
            }
        } else {
            /* four lattice points of a plane O + s U + t V (exactly coplanar), scaled by
             * one of two far apart powers of two per point pair, maybe nudged by one ulp */
            col_vec3 o = lattice_point(1000), u = lattice_point(1000), v = lattice_point(1000);
            int e = (int)irand(-1000, 900);
            for (int k = 0; k < 4; k++) {
                col_vec3 q = col_add(o, col_add(col_scale(u, (double)irand(-50, 50)), col_scale(v, (double)irand(-50, 50))));
                p[k] = col_v3(ldexp(q.x, e), ldexp(q.y, e), ldexp(q.z, e));
            }
            if (mode == 3) { /* one point tiny next to the others */
                p[(int)(urand() * 4.0)] = col_v3(wild_double(), 0.0, wild_double());
            }
            if (urand() < 0.5) {
                int k = (int)(urand() * 4.0);
                p[k].z = nextafter(p[k].z, urand() < 0.5 ? INFINITY : -INFINITY);
            }
        }
        int t3 = q_orient3d(p[0], p[1], p[2], p[3]);
        int g3 = col_orient3d(p[0], p[1], p[2], p[3]);
        int k = (int)(urand() * 3.0);
        int t2 = q_orient2d(p[0], p[1], p[2], k);
        int g2 = col_orient2d(p[0], p[1], p[2], k);
        zero3 += t3 == 0;
        zero2 += t2 == 0;
        if (t3 != g3 || t2 != g2) {
            if (wrong < 5) {
                print_message("  orient3d %d (exact %d), orient2d %d (exact %d)\n", g3, t3, g2, t2);
                for (int m = 0; m < 4; m++) print_message("    {%a, %a, %a}\n", p[m].x, p[m].y, p[m].z);
            }
            wrong++;
        }
    }
    print_message("  %ld point sets: %ld coplanar, %ld collinear in a projection, %ld wrong\n", n, zero3, zero2, wrong);
    assert_int_equal(wrong, 0);
    assert_true(zero3 > n / 20);
}

int main(void)
{
    col_alloc_init(&g_alloc, NULL);
    oracle_round_init();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_orient_exact),
        cmocka_unit_test(test_tri_tri_random),
        cmocka_unit_test(test_tri_hull_random),
        cmocka_unit_test(test_tri_round),
    };
    int r = cmocka_run_group_tests(tests, NULL, NULL);
    oracle_round_fini();
    return r;
}
