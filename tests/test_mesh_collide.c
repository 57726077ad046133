/* SPDX-License-Identifier: MIT */
/* Mesh collision (narrowphase/mesh_collide.c, issue 16) against brute force over every
 * triangle pair with the exact predicates: col_tri_tri_intersect for mesh-mesh and
 * col_rounded_query (a triangle as a core of three points, radius 0) for mesh-convex, on
 * random meshes (soups with degenerate triangles, closed bumpy spheres, open patches,
 * torus knots) at random poses, with pairs that touch by construction (a vertex of one
 * placed exactly on a world vertex of the other, an exact copy of a world triangle).
 * The hierarchy may only cull, so the answers must be equal on every pair. A separated
 * answer's certified gap must not exceed the brute-force minimum distance (GJK on each
 * triangle pair, relative accuracy about 1e-14, so 1e-9 relative slack). A convex piece
 * wholly inside a closed mesh does not collide. The per-pair cache gives the same
 * answers. Seeds are fixed and printed; sizes scale with COLIBRI_TEST_SCALE. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/alloc.h"
#include "lib/core/mesh.h"
#include "narrowphase/mesh_collide.h"
#include "narrowphase/rounded.h"
#include "narrowphase/tri_tri.h"
#include "tests/test_util.h"

#define PI 3.14159265358979323846

static double test_scale(void)
{
    const char *env = getenv("COLIBRI_TEST_SCALE");
    double s = env != NULL ? atof(env) : 1.0;
    return s > 0.0 ? s : 1.0;
}

static col_alloc g_alloc;

/* ---- meshes ---- */

typedef struct mesh_src {
    col_vec3 *v;
    uint32_t *idx;
    int nv, nt;
} mesh_src;

static void src_alloc(mesh_src *s, int nv, int nt)
{
    s->nv = nv;
    s->nt = nt;
    s->v = malloc((size_t)nv * sizeof *s->v);
    s->idx = malloc(3 * (size_t)nt * sizeof *s->idx);
}

static void src_free(mesh_src *s)
{
    free(s->v);
    free(s->idx);
}

/* A latitude-longitude sphere of radius about r with bumps: closed. */
static void make_bumpy_sphere(mesh_src *s, int nlat, int nlon, double r, double bump)
{
    src_alloc(s, 2 + (nlat - 1) * nlon, 2 * nlon * (nlat - 1));
    double f1 = urange(2, 5), f2 = urange(2, 5);
    s->v[0] = col_v3(0, 0, r);
    s->v[1] = col_v3(0, 0, -r);
    for (int i = 1; i < nlat; i++) {
        double th = PI * i / nlat;
        for (int j = 0; j < nlon; j++) {
            double ph = 2 * PI * j / nlon, rr = r * (1 + bump * sin(f1 * th) * cos(f2 * ph));
            s->v[2 + (i - 1) * nlon + j] = col_v3(rr * sin(th) * cos(ph), rr * sin(th) * sin(ph), rr * cos(th));
        }
    }
    int t = 0;
    for (int j = 0; j < nlon; j++) {
        int j1 = (j + 1) % nlon;
        uint32_t top[3] = {0, (uint32_t)(2 + j), (uint32_t)(2 + j1)};
        uint32_t bot[3] = {1, (uint32_t)(2 + (nlat - 2) * nlon + j1), (uint32_t)(2 + (nlat - 2) * nlon + j)};
        memcpy(&s->idx[3 * t++], top, sizeof top);
        memcpy(&s->idx[3 * t++], bot, sizeof bot);
        for (int i = 1; i < nlat - 1; i++) {
            uint32_t a = (uint32_t)(2 + (i - 1) * nlon + j), b = (uint32_t)(2 + (i - 1) * nlon + j1);
            uint32_t c = a + (uint32_t)nlon, d = b + (uint32_t)nlon;
            uint32_t q[6] = {a, c, d, a, d, b};
            memcpy(&s->idx[3 * t], q, sizeof q);
            t += 2;
        }
    }
    assert_int_equal(t, s->nt);
}

/* An open height-field patch of n x n squares over [-r, r]^2. */
static void make_patch(mesh_src *s, int n, double r)
{
    src_alloc(s, (n + 1) * (n + 1), 2 * n * n);
    double f = urange(1, 4);
    for (int i = 0; i <= n; i++)
        for (int j = 0; j <= n; j++) {
            double x = -r + 2 * r * i / n, y = -r + 2 * r * j / n;
            s->v[i * (n + 1) + j] = col_v3(x, y, 0.3 * r * sin(f * x) * cos(f * y));
        }
    int t = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            uint32_t a = (uint32_t)(i * (n + 1) + j), b = a + 1, c = a + (uint32_t)n + 1, d = c + 1;
            uint32_t q[6] = {a, b, d, a, d, c};
            memcpy(&s->idx[3 * t], q, sizeof q);
            t += 2;
        }
}

/* A (2,3) torus knot tube: closed. */
static void make_knot(mesh_src *s, int nu, int nv, double r)
{
    src_alloc(s, nu * nv, 2 * nu * nv);
    double tube = 0.12 * r;
    for (int i = 0; i < nu; i++) {
        double u = 2 * PI * i / nu, u2 = u + 1e-3;
        col_vec3 c = col_v3(r * (0.6 + 0.3 * cos(3 * u)) * cos(2 * u), r * (0.6 + 0.3 * cos(3 * u)) * sin(2 * u),
                            r * 0.3 * sin(3 * u));
        col_vec3 c2 = col_v3(r * (0.6 + 0.3 * cos(3 * u2)) * cos(2 * u2), r * (0.6 + 0.3 * cos(3 * u2)) * sin(2 * u2),
                             r * 0.3 * sin(3 * u2));
        col_vec3 tng = col_sub(c2, c);
        tng = col_scale(tng, 1 / col_len(tng));
        col_vec3 n1 = col_cross(tng, col_v3(0, 0, 1));
        n1 = col_scale(n1, 1 / col_len(n1));
        col_vec3 n2 = col_cross(tng, n1);
        for (int j = 0; j < nv; j++) {
            double a = 2 * PI * j / nv;
            s->v[i * nv + j] = col_add(c, col_add(col_scale(n1, tube * cos(a)), col_scale(n2, tube * sin(a))));
        }
    }
    int t = 0;
    for (int i = 0; i < nu; i++)
        for (int j = 0; j < nv; j++) {
            uint32_t a = (uint32_t)(i * nv + j), b = (uint32_t)(i * nv + (j + 1) % nv);
            uint32_t c = (uint32_t)(((i + 1) % nu) * nv + j), d = (uint32_t)(((i + 1) % nu) * nv + (j + 1) % nv);
            uint32_t q[6] = {a, c, d, a, d, b};
            memcpy(&s->idx[3 * t], q, sizeof q);
            t += 2;
        }
}

/* A soup of small random triangles in a ball of radius r; about one in six degenerate
 * (a repeated index, three collinear points, or one point). */
static void make_soup(mesh_src *s, int nt, double r)
{
    src_alloc(s, 3 * nt, nt);
    for (int t = 0; t < nt; t++) {
        col_vec3 c = col_v3(urange(-r, r), urange(-r, r), urange(-r, r));
        double e = 0.3 * r;
        for (int k = 0; k < 3; k++) {
            double dx = urange(-e, e), dy = urange(-e, e), dz = urange(-e, e);
            s->v[3 * t + k] = col_add(c, col_v3(dx, dy, dz));
            s->idx[3 * t + k] = (uint32_t)(3 * t + k);
        }
        uint64_t kind = rng_next() % 18;
        if (kind == 0) s->idx[3 * t + 2] = s->idx[3 * t];
        else if (kind == 1) s->v[3 * t + 2] = col_add(s->v[3 * t], col_scale(col_sub(s->v[3 * t + 1], s->v[3 * t]), 2));
        else if (kind == 2) s->idx[3 * t + 1] = s->idx[3 * t + 2] = s->idx[3 * t];
    }
}

static void make_random_mesh(mesh_src *s, int kind, double scale)
{
    switch (kind) {
    case 0: make_soup(s, 40 + (int)(rng_next() % 80), scale); break;
    case 1: make_bumpy_sphere(s, 6 + (int)(rng_next() % 6), 8 + (int)(rng_next() % 8), scale, 0.15); break;
    case 2: make_patch(s, 4 + (int)(rng_next() % 7), scale); break;
    default: make_knot(s, 24 + (int)(rng_next() % 16), 5, scale); break;
    }
}

static void build(const mesh_src *s, col_mesh *m)
{
    char err[200];
    col_status st = col_mesh_build(&g_alloc, s->v, s->nv, s->idx, s->nt, m, err, sizeof err);
    if (st != COL_OK) print_message("%s\n", err);
    assert_int_equal(st, COL_OK);
}

static col_xform random_pose(double spread)
{
    col_transform t;
    t.q = random_quat();
    double x = urange(-spread, spread), y = urange(-spread, spread), z = urange(-spread, spread);
    t.p = (col_vec3){x, y, z};
    return col_xform_from_transform(t);
}

/* A pose whose matrix is the rotation formula of a quaternion 1e-6 off unit length: not
 * quite a rotation (a world-free caller may pass one), which the culling slacks must
 * cover, since they are derived from the matrix as given. */
static col_xform skewed_pose(double spread)
{
    col_xform x = random_pose(spread);
    col_quat q = random_quat();
    double f = 1 + 1e-6;
    q.x *= f;
    q.y *= f;
    q.z *= f;
    q.w *= f;
    x.R = col_mat3_from_quat(q);
    return x;
}

static const col_xform identity = {{{1, 0, 0, 0, 1, 0, 0, 0, 1}}, {0, 0, 0}};

/* ---- brute force ---- */

static void world_tri(const col_mesh *m, const col_xform *x, int k, col_vec3 w[3])
{
    col_vec3 t[3];
    col_mesh_triangle(m, k, t);
    for (int j = 0; j < 3; j++) w[j] = col_xform_point(x, t[j]);
}

static double tri_distance(const col_vec3 a[3], const col_vec3 b[3])
{
    const col_core ca = {a, 3, NULL, 0}, cb = {b, 3, NULL, 0};
    col_core_distance d;
    col_core_distance_query(&ca, &identity, &cb, &identity, &d);
    return d.overlap ? 0 : d.distance;
}

/* Whether some triangle pair meets, and the smallest triangle distance (when asked). */
static bool brute_mesh_mesh(const col_mesh *a, const col_xform *xa, const col_mesh *b, const col_xform *xb,
                            double *dmin)
{
    bool hit = false;
    if (dmin != NULL) *dmin = HUGE_VAL;
    for (int i = 0; i < a->triangle_count && !(hit && dmin == NULL); i++) {
        col_vec3 wa[3];
        world_tri(a, xa, i, wa);
        for (int j = 0; j < b->triangle_count; j++) {
            col_vec3 wb[3];
            world_tri(b, xb, j, wb);
            if (col_tri_tri_intersect(wa, wb)) {
                hit = true;
                if (dmin == NULL) break;
                *dmin = 0;
            } else if (dmin != NULL && *dmin > 0) {
                double d = tri_distance(wa, wb);
                if (d < *dmin) *dmin = d;
            }
        }
    }
    return hit;
}

static bool brute_mesh_convex(const col_mesh *m, const col_xform *xm, const col_core *c, const col_xform *xc,
                              double *dmin)
{
    bool hit = false;
    if (dmin != NULL) *dmin = HUGE_VAL;
    for (int k = 0; k < m->triangle_count; k++) {
        col_vec3 t[3];
        col_mesh_triangle(m, k, t);
        const col_core tri = {t, 3, NULL, 0};
        col_np_result r;
        col_rounded_query(&tri, xm, c, xc, &r);
        if (r.colliding) {
            hit = true;
            if (dmin == NULL) return true;
            *dmin = 0;
        } else if (dmin != NULL) {
            col_core_distance d;
            col_core_distance_query(&tri, xm, c, xc, &d);
            double g = (d.overlap ? 0 : d.distance) - c->radius;
            if (g < *dmin) *dmin = g;
        }
    }
    return hit;
}

/* ---- checks ---- */

typedef struct tally {
    long pairs, colliding, gaps_checked, touching;
    double ratio_sum, ratio_min; /* gap / distance over the gaps checked (how tight; printed) */
} tally;

static void note_ratio(tally *t, double gap, double dmin)
{
    double q = dmin > 0 ? gap / dmin : 1;
    t->ratio_sum += q;
    if (t->gaps_checked == 0 || q < t->ratio_min) t->ratio_min = q;
}

static void check_gap(double gap, double dmin)
{
    assert_true(gap > 0);
    if (!(gap <= dmin * (1 + 1e-9) + 1e-300)) print_message("gap %.17g above the distance %.17g\n", gap, dmin);
    assert_true(gap <= dmin * (1 + 1e-9) + 1e-300);
}

/* One mesh-mesh pair: the answer (with and without a cache, both orders) against brute
 * force; the gap against the smallest triangle distance when want_gap. */
static bool check_mm(const col_mesh *a, const col_xform *xa, const col_mesh *b, const col_xform *xb, bool want_gap,
                     tally *t)
{
    double dmin;
    bool truth = brute_mesh_mesh(a, xa, b, xb, want_gap ? &dmin : NULL);
    col_np_result r, r2, r3;
    col_mesh_mesh_query(a, xa, b, xb, NULL, &r);
    if (r.colliding != truth) print_message("mesh-mesh: answered %d, brute force %d\n", r.colliding, truth);
    assert_int_equal(r.colliding, truth);
    col_mesh_cache cache;
    col_mesh_cache_init(&cache);
    col_mesh_mesh_query(a, xa, b, xb, &cache, &r2);
    assert_int_equal(r2.colliding, truth);
    if (truth) {
        assert_true(cache.tri_a >= 0 && cache.tri_a < a->triangle_count);
        assert_true(cache.tri_b >= 0 && cache.tri_b < b->triangle_count);
        col_vec3 wa[3], wb[3];
        world_tri(a, xa, cache.tri_a, wa);
        world_tri(b, xb, cache.tri_b, wb);
        assert_true(col_tri_tri_intersect(wa, wb)); /* the witness is a colliding pair */
    }
    col_mesh_mesh_query(a, xa, b, xb, &cache, &r3); /* the cached witness first */
    assert_int_equal(r3.colliding, truth);
    if (truth) assert_int_equal(r3.iterations, 0);
    col_np_result rs;
    col_mesh_mesh_query(b, xb, a, xa, NULL, &rs);
    assert_int_equal(rs.colliding, truth);
    t->pairs++;
    t->colliding += truth;
    if (!truth) {
        assert_true(r.axis.x == 1 && r.axis.y == 0 && r.axis.z == 0);
        assert_true(r.gap == r2.gap);
        if (want_gap) {
            check_gap(r.gap, dmin);
            check_gap(rs.gap, dmin);
            note_ratio(t, r.gap, dmin);
            t->gaps_checked++;
        }
    }
    return truth;
}

static bool check_mc(const col_mesh *m, const col_xform *xm, const col_core *c, const col_xform *xc, bool want_gap,
                     tally *t)
{
    double dmin;
    bool truth = brute_mesh_convex(m, xm, c, xc, want_gap ? &dmin : NULL);
    col_np_result r, r2, r3;
    col_mesh_convex_query(m, xm, c, xc, NULL, &r);
    if (r.colliding != truth) print_message("mesh-convex: answered %d, brute force %d\n", r.colliding, truth);
    assert_int_equal(r.colliding, truth);
    col_mesh_cache cache;
    col_mesh_cache_init(&cache);
    col_mesh_convex_query(m, xm, c, xc, &cache, &r2);
    assert_int_equal(r2.colliding, truth);
    if (truth) assert_true(cache.tri_a >= 0 && cache.tri_a < m->triangle_count);
    col_mesh_convex_query(m, xm, c, xc, &cache, &r3);
    assert_int_equal(r3.colliding, truth);
    if (truth) assert_int_equal(r3.iterations, 0);
    t->pairs++;
    t->colliding += truth;
    if (!truth && want_gap) {
        check_gap(r.gap, dmin);
        note_ratio(t, r.gap, dmin);
        t->gaps_checked++;
    }
    return truth;
}

/* The world vertex of m at xm with the largest x (ties: the first): every point of the
 * mesh has x <= its x, so a piece beyond it in +x can meet the mesh only there. */
static col_vec3 max_x_vertex(const col_mesh *m, const col_xform *xm)
{
    col_vec3 best = col_xform_point(xm, m->vertices[m->tris[0]]);
    for (int k = 0; k < 3 * m->triangle_count; k++) {
        col_vec3 w = col_xform_point(xm, m->vertices[m->tris[k]]);
        if (w.x > best.x) best = w;
    }
    return best;
}

/* c - w when the subtraction is exact (Knuth's TwoSum error is zero), else -1. */
static double exact_diff(double c, double w)
{
    double s = c - w, bv = s - c, err = (c - (s - bv)) + (-w - bv);
    return err == 0 ? s : -1;
}

/* ---- the tests ---- */

static void test_mesh_mesh_random(void **state)
{
    (void)state;
    rng_seed(0x6d6d72616e64ULL, "mesh_collide mesh-mesh");
    int runs = (int)(400 * test_scale());
    tally t = {0, 0, 0, 0, 0, 0};
    for (int run = 0; run < runs; run++) {
        double scale = run % 3 == 0 ? 1e-3 : (run % 3 == 1 ? 1.0 : 1e3);
        mesh_src sa, sb;
        make_random_mesh(&sa, (int)(rng_next() % 4), scale);
        make_random_mesh(&sb, (int)(rng_next() % 4), scale * urange(0.3, 1.5));
        col_mesh a, b;
        build(&sa, &a);
        build(&sb, &b);
        for (int k = 0; k < 5; k++) {
            col_xform xa = random_pose(2 * scale), xb = k == 4 ? skewed_pose(2 * scale) : random_pose(2 * scale);
            if (k == 4) xa = skewed_pose(2 * scale);
            check_mm(&a, &xa, &b, &xb, k < 2, &t);
        }
        /* touching by construction: a one-triangle mesh at the identity pose with a vertex
         * on a world vertex of a (the identity maps local to world exactly), pointing away
         * from a's centre; and an exact copy of a world triangle of a */
        col_xform xa = run % 4 == 3 ? skewed_pose(2 * scale) : random_pose(2 * scale);
        int ka = (int)(rng_next() % (uint64_t)a.triangle_count);
        col_vec3 wa[3];
        world_tri(&a, &xa, ka, wa);
        col_vec3 out = col_sub(wa[0], xa.p);
        col_vec3 side = col_cross(out, col_v3(urange(-1, 1), urange(-1, 1), urange(-1, 1)));
        col_vec3 tv[3] = {wa[0], col_add(wa[0], col_add(out, col_scale(side, 0.1 / (scale + col_len(side))))),
                          col_add(wa[0], col_sub(out, col_scale(side, 0.1 / (scale + col_len(side)))))};
        uint32_t ti[3] = {0, 1, 2};
        mesh_src st = {tv, ti, 3, 1};
        col_mesh tm;
        build(&st, &tm);
        assert_true(check_mm(&a, &xa, &tm, &identity, false, &t)); /* they share a vertex */
        col_mesh_free(&g_alloc, &tm);
        mesh_src sc = {wa, ti, 3, 1};
        build(&sc, &tm);
        assert_true(check_mm(&a, &xa, &tm, &identity, false, &t));
        col_mesh_free(&g_alloc, &tm);
        /* touching at one point only: a triangle with a vertex on a's vertex of largest
         * world x, the others beyond it in +x */
        col_vec3 w = max_x_vertex(&a, &xa);
        col_vec3 sv[3] = {w, col_add(w, col_v3(scale * urange(0.1, 1), scale * urange(-1, 1), scale * urange(-1, 1))),
                          col_add(w, col_v3(scale * urange(0.1, 1), scale * urange(-1, 1), scale * urange(-1, 1)))};
        mesh_src ss = {sv, ti, 3, 1};
        build(&ss, &tm);
        assert_true(check_mm(&a, &xa, &tm, &identity, false, &t));
        /* and moved off by the smallest step in x: apart */
        for (int j = 0; j < 3; j++) sv[j].x = nextafter(sv[j].x, HUGE_VAL);
        col_mesh_free(&g_alloc, &tm);
        build(&ss, &tm);
        assert_false(check_mm(&a, &xa, &tm, &identity, false, &t));
        col_mesh_free(&g_alloc, &tm);
        t.touching += 4;
        col_mesh_free(&g_alloc, &a);
        col_mesh_free(&g_alloc, &b);
        src_free(&sa);
        src_free(&sb);
    }
    print_message("mesh-mesh: %ld pairs, %ld colliding, %ld touching by construction, %ld gaps checked "
                  "(gap / distance: mean %.3f, least %.3g)\n",
                  t.pairs, t.colliding, t.touching, t.gaps_checked, t.ratio_sum / (double)t.gaps_checked, t.ratio_min);
    assert_true(t.colliding > t.pairs / 5 && t.colliding < t.pairs * 4 / 5);
}

/* A random convex piece about the size s: a sphere, a capsule or a point cloud hull. */
typedef struct piece {
    col_vec3 pts[12];
    col_core core;
} piece;

static void random_piece(piece *p, double s)
{
    int kind = (int)(rng_next() % 3);
    p->core.points = p->pts;
    p->core.hull = NULL;
    if (kind == 0) {
        p->pts[0] = col_v3(0, 0, 0);
        p->core.count = 1;
        p->core.radius = s * urange(0.1, 0.6);
    } else if (kind == 1) {
        double h = s * urange(0.1, 0.5);
        p->pts[0] = col_v3(0, 0, -h);
        p->pts[1] = col_v3(0, 0, h);
        p->core.count = 2;
        p->core.radius = s * urange(0.05, 0.3);
    } else {
        p->core.count = 4 + (int)(rng_next() % 9);
        for (int i = 0; i < p->core.count; i++) {
            double x = urange(-s, s) * 0.5, y = urange(-s, s) * 0.5, z = urange(-s, s) * 0.5;
            p->pts[i] = col_v3(x, y, z);
        }
        p->core.radius = rng_next() % 2 ? 0 : s * 0.05;
    }
}

static void test_mesh_convex_random(void **state)
{
    (void)state;
    rng_seed(0x6d63726e64ULL, "mesh_collide mesh-convex");
    int runs = (int)(400 * test_scale());
    tally t = {0, 0, 0, 0, 0, 0};
    for (int run = 0; run < runs; run++) {
        double scale = run % 3 == 0 ? 1e-3 : (run % 3 == 1 ? 1.0 : 1e3);
        mesh_src sm;
        make_random_mesh(&sm, (int)(rng_next() % 4), scale);
        col_mesh m;
        build(&sm, &m);
        for (int k = 0; k < 6; k++) {
            piece p;
            random_piece(&p, scale * urange(0.2, 1.0));
            col_xform xm = k == 5 ? skewed_pose(scale) : random_pose(scale), xc = random_pose(1.5 * scale);
            check_mc(&m, &xm, &p.core, &xc, k < 3 || k == 5, &t);
        }
        /* touching by construction: a hull (at the identity) with a vertex on a world
         * vertex of the mesh, the rest beyond it away from the mesh's centre */
        col_xform xm = run % 4 == 3 ? skewed_pose(scale) : random_pose(scale);
        col_vec3 w[3];
        world_tri(&m, &xm, (int)(rng_next() % (uint64_t)m.triangle_count), w);
        col_vec3 out = col_sub(w[0], xm.p);
        piece p;
        p.core.points = p.pts;
        p.core.hull = NULL;
        p.core.count = 4;
        p.core.radius = 0;
        p.pts[0] = w[0];
        for (int i = 1; i < 4; i++) {
            double dx = urange(-0.2, 0.2) * scale, dy = urange(-0.2, 0.2) * scale, dz = urange(-0.2, 0.2) * scale;
            p.pts[i] = col_add(w[0], col_add(out, col_v3(dx, dy, dz)));
        }
        assert_true(check_mc(&m, &xm, &p.core, &identity, false, &t));
        /* touching at one point only: a hull with a vertex on the mesh's vertex of largest
         * world x, the rest beyond it in +x; then a sphere centred at distance exactly r
         * from that vertex in +x (when the subtraction is exact); then both moved off by
         * the smallest step. At a random pose and at one without rotation (where the
         * contact is on a face of the local boxes, so a margin too small shows). */
        for (int pose = 0; pose < 2; pose++) {
            if (pose == 1) xm.R = identity.R;
            p.core.count = 4;
            p.core.radius = 0;
            col_vec3 wx = max_x_vertex(&m, &xm);
            p.pts[0] = wx;
            for (int i = 1; i < 4; i++) {
                double dx = urange(0.1, 0.5) * scale, dy = urange(-0.3, 0.3) * scale, dz = urange(-0.3, 0.3) * scale;
                p.pts[i] = col_add(wx, col_v3(dx, dy, dz));
            }
            assert_true(check_mc(&m, &xm, &p.core, &identity, false, &t));
            for (int i = 0; i < 4; i++) p.pts[i].x = nextafter(p.pts[i].x, HUGE_VAL);
            assert_false(check_mc(&m, &xm, &p.core, &identity, false, &t));
            double cx = wx.x + scale * urange(0.1, 0.5), r = exact_diff(cx, wx.x);
            if (r > 0) {
                p.core.count = 1;
                p.core.radius = r;
                p.pts[0] = col_v3(cx, wx.y, wx.z);
                assert_true(check_mc(&m, &xm, &p.core, &identity, false, &t));
                p.pts[0].x = nextafter(cx, HUGE_VAL);
                assert_false(check_mc(&m, &xm, &p.core, &identity, false, &t));
                t.touching += 2;
            }
            t.touching += 2;
        }
        t.touching++;
        col_mesh_free(&g_alloc, &m);
        src_free(&sm);
    }
    print_message("mesh-convex: %ld pairs, %ld colliding, %ld touching by construction, %ld gaps checked "
                  "(gap / distance: mean %.3f, least %.3g)\n",
                  t.pairs, t.colliding, t.touching, t.gaps_checked, t.ratio_sum / (double)t.gaps_checked, t.ratio_min);
    assert_true(t.colliding > t.pairs / 5 && t.colliding < t.pairs * 4 / 5);
}

/* Exact contacts on a flat patch (in the plane z = 2 of the world, the mesh without
 * rotation, so every coordinate here is exact): spheres resting on a face at distance
 * exactly r, hulls with a vertex or a face on the plane, triangles of another mesh lying
 * in the plane or standing on it; each touching (colliding), then lifted by the smallest
 * step (apart). These catch any slack too small in the culling tests whose axis is the
 * face normal. */
static void test_flat_contacts(void **state)
{
    (void)state;
    rng_seed(0x666c6174ULL, "mesh_collide flat contacts");
    mesh_src s;
    make_patch(&s, 8, 1.0);
    for (int i = 0; i < s.nv; i++) s.v[i].z = 0;
    col_mesh m;
    build(&s, &m);
    col_xform xm = identity;
    xm.p = col_v3(0.5, -0.25, 2);
    tally t = {0, 0, 0, 0, 0, 0};
    for (int run = 0; run < 200; run++) {
        double x = 0.5 + urange(-0.9, 0.9), y = -0.25 + urange(-0.9, 0.9);
        piece p;
        p.core.points = p.pts;
        p.core.hull = NULL;
        /* a sphere: centre at z = fl(2 + r), radius the exact z - 2 (Sterbenz) */
        double z = 2 + urange(0.1, 0.5);
        p.core.count = 1;
        p.core.radius = z - 2;
        p.pts[0] = col_v3(x, y, z);
        assert_true(check_mc(&m, &xm, &p.core, &identity, run < 20, &t));
        p.pts[0].z = nextafter(z, HUGE_VAL);
        assert_false(check_mc(&m, &xm, &p.core, &identity, run < 20, &t));
        /* a capsule lying flat on the plane */
        p.core.count = 2;
        p.pts[0] = col_v3(x - 0.1, y, z);
        p.pts[1] = col_v3(x + 0.1, y + 0.05, z);
        assert_true(check_mc(&m, &xm, &p.core, &identity, false, &t));
        p.pts[0].z = p.pts[1].z = nextafter(z, HUGE_VAL);
        assert_false(check_mc(&m, &xm, &p.core, &identity, false, &t));
        /* a hull standing on a vertex, then on a face */
        p.core.count = 4;
        p.core.radius = 0;
        p.pts[0] = col_v3(x, y, 2);
        for (int i = 1; i < 4; i++) p.pts[i] = col_v3(x + urange(-0.2, 0.2), y + urange(-0.2, 0.2), 2 + urange(0.1, 0.3));
        assert_true(check_mc(&m, &xm, &p.core, &identity, false, &t));
        p.pts[1].z = p.pts[2].z = 2;
        assert_true(check_mc(&m, &xm, &p.core, &identity, false, &t));
        for (int i = 0; i < 4; i++) p.pts[i].z = nextafter(p.pts[i].z, HUGE_VAL);
        assert_false(check_mc(&m, &xm, &p.core, &identity, false, &t));
        /* a triangle of another mesh lying in the plane, then standing on it */
        col_vec3 tv[3] = {col_v3(x, y, 2), col_v3(x + urange(-0.3, 0.3), y + urange(-0.3, 0.3), 2),
                          col_v3(x + urange(-0.3, 0.3), y + urange(-0.3, 0.3), 2)};
        uint32_t ti[3] = {0, 1, 2};
        mesh_src st = {tv, ti, 3, 1};
        col_mesh tm;
        build(&st, &tm);
        assert_true(check_mm(&m, &xm, &tm, &identity, false, &t));
        col_mesh_free(&g_alloc, &tm);
        tv[1].z = 2 + urange(0.1, 0.3);
        tv[2].z = 2 + urange(0.1, 0.3);
        build(&st, &tm);
        assert_true(check_mm(&m, &xm, &tm, &identity, false, &t));
        col_mesh_free(&g_alloc, &tm);
        for (int j = 0; j < 3; j++) tv[j].z = nextafter(tv[j].z, HUGE_VAL);
        build(&st, &tm);
        assert_false(check_mm(&m, &xm, &tm, &identity, false, &t));
        col_mesh_free(&g_alloc, &tm);
    }
    print_message("flat contacts: %ld pairs, %ld colliding\n", t.pairs, t.colliding);
    col_mesh_free(&g_alloc, &m);
    src_free(&s);
}

/* A convex piece wholly inside a closed mesh does not collide (the mesh is a surface); the
 * same piece grown through the surface does. */
static void test_inside_closed_mesh(void **state)
{
    (void)state;
    rng_seed(0x696e73696465ULL, "mesh_collide inside");
    for (int run = 0; run < 50; run++) {
        mesh_src s;
        make_bumpy_sphere(&s, 10, 14, 1.0, 0.1);
        col_mesh m;
        build(&s, &m);
        col_xform xm = random_pose(5);
        piece p;
        p.core.points = p.pts;
        p.core.hull = NULL;
        p.core.count = 1;
        p.pts[0] = col_v3(0, 0, 0);
        p.core.radius = 0.5;
        col_np_result r;
        col_mesh_convex_query(&m, &xm, &p.core, &xm, NULL, &r);
        assert_false(r.colliding);
        assert_false(brute_mesh_convex(&m, &xm, &p.core, &xm, NULL));
        p.core.radius = 1.5;
        col_mesh_convex_query(&m, &xm, &p.core, &xm, NULL, &r);
        assert_true(r.colliding);
        /* a smaller closed mesh inside */
        mesh_src s2;
        make_bumpy_sphere(&s2, 6, 8, 0.4, 0.1);
        col_mesh m2;
        build(&s2, &m2);
        col_mesh_mesh_query(&m, &xm, &m2, &xm, NULL, &r);
        assert_false(r.colliding);
        assert_true(r.gap > 0);
        col_mesh_free(&g_alloc, &m);
        col_mesh_free(&g_alloc, &m2);
        src_free(&s);
        src_free(&s2);
    }
}

/* A stale or foreign cache (out of range, or a pair that no longer touches) changes no
 * answer. */
static void test_cache(void **state)
{
    (void)state;
    rng_seed(0x6361636865ULL, "mesh_collide cache");
    mesh_src sa, sb;
    make_knot(&sa, 40, 6, 1.0);
    make_bumpy_sphere(&sb, 8, 10, 0.5, 0.2);
    col_mesh a, b;
    build(&sa, &a);
    build(&sb, &b);
    col_mesh_cache cache;
    col_mesh_cache_init(&cache);
    int hits = 0;
    for (int f = 0; f < 300; f++) {
        col_xform xa = random_pose(0.3), xb = random_pose(0.8);
        if (f % 50 == 7) {
            cache.tri_a = 1 << 30;
            cache.tri_b = -5;
        }
        col_np_result r, r0;
        col_mesh_mesh_query(&a, &xa, &b, &xb, &cache, &r);
        col_mesh_mesh_query(&a, &xa, &b, &xb, NULL, &r0);
        assert_int_equal(r.colliding, r0.colliding);
        assert_int_equal(r.colliding, brute_mesh_mesh(&a, &xa, &b, &xb, NULL));
        if (!r.colliding) assert_true(r.gap == r0.gap);
        hits += r.colliding;
    }
    print_message("cache: %d of 300 frames colliding\n", hits);
    col_mesh_free(&g_alloc, &a);
    col_mesh_free(&g_alloc, &b);
    src_free(&sa);
    src_free(&sb);
}

/* A witness that moved to a neighbouring triangle (leaf order) is found without a
 * traversal: a tiny triangle (and a tiny sphere) pierces one triangle of a flat patch
 * whose cache names a triangle two places away. */
static void test_witness_window(void **state)
{
    (void)state;
    mesh_src s;
    rng_seed(0x77696e646f77ULL, "mesh_collide witness window");
    make_patch(&s, 8, 1.0);
    for (int i = 0; i < s.nv; i++) s.v[i].z = 0;
    col_mesh m;
    build(&s, &m);
    for (int k = 2; k < m.triangle_count - 2; k += 7) {
        col_vec3 t[3];
        col_mesh_triangle(&m, k, t);
        col_vec3 c = col_scale(col_add(t[0], col_add(t[1], t[2])), 1.0 / 3);
        col_vec3 tv[3] = {col_add(c, col_v3(0, 0, -1e-3)), col_add(c, col_v3(1e-3, 0, 1e-3)),
                          col_add(c, col_v3(-1e-3, 1e-3, 1e-3))};
        uint32_t ti[3] = {0, 1, 2};
        mesh_src st = {tv, ti, 3, 1};
        col_mesh tm;
        build(&st, &tm);
        col_mesh_cache cache = {k + 2, 0};
        col_np_result r;
        col_mesh_mesh_query(&m, &identity, &tm, &identity, &cache, &r);
        assert_true(r.colliding);
        assert_int_equal(r.iterations, 0);
        assert_int_equal(cache.tri_a, k);
        col_mesh_free(&g_alloc, &tm);
        const col_core ball = {&c, 1, NULL, 1e-3};
        cache.tri_a = k - 2;
        col_mesh_convex_query(&m, &identity, &ball, &identity, &cache, &r);
        assert_true(r.colliding);
        assert_int_equal(r.iterations, 0);
        assert_int_equal(cache.tri_a, k);
    }
    col_mesh_free(&g_alloc, &m);
    src_free(&s);
}

int main(void)
{
    col_alloc_init(&g_alloc, NULL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mesh_mesh_random),
        cmocka_unit_test(test_mesh_convex_random),
        cmocka_unit_test(test_flat_contacts),
        cmocka_unit_test(test_inside_closed_mesh),
        cmocka_unit_test(test_cache),
        cmocka_unit_test(test_witness_window),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
