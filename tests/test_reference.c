/* SPDX-License-Identifier: MIT */
/* Tests of the reference narrow phase (narrowphase/reference.c) against the exact LP
 * oracle (tests/oracle_lp.c): named touching configurations at several scales, nearly
 * parallel edges, rotated copies, the cache, and a random test of a few thousand pairs
 * of hulls placed near touching. Every answer is compared with the oracle (disagreement
 * allowed only within 1e-9 x size of touching, and printed), every "separated"
 * certificate is re-checked by a full projection in higher precision, and every pair is
 * asked both ways round (f(A,B) == f(B,A)). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/alloc.h"
#include "lib/core/hull.h"
#include "lib/core/vec.h"
#include "narrowphase/backend.h"
#include "tests/oracle_lp.h"
#include "tests/test_util.h"

/* Answers may differ from the oracle only this close to touching (x size): the
 * benchmark's rule (docs/scenes.md, "World vertices and the exact answer"). */
#define NEAR_REL 1e-9
#define RANDOM_PAIRS 3000
#define RANDOM_SEED UINT64_C(0x5eed2024c011b71)
#define MAX_PTS 200

#if defined(__SIZEOF_FLOAT128__)
typedef __float128 wide;
#else
typedef long double wide;
#endif

static col_alloc g_alloc;
static const col_np_backend *NP = &col_np_reference;

/* ---- random draws (generator: tests/test_util.h) ---- */

/* Every random draw below is its own statement: the order in which a compiler evaluates
 * function arguments is unspecified, and the seed must give the same pairs everywhere. */
static col_vec3 rand_unit(void)
{
    for (;;) {
        double x = gauss();
        double y = gauss();
        double z = gauss();
        col_vec3 v = col_v3(x, y, z);
        double l = col_len(v);
        if (l > 1e-6) return col_scale(v, 1.0 / l);
    }
}
static col_quat rand_quat(void)
{
    for (;;) {
        double q[4];
        for (int k = 0; k < 4; k++) q[k] = gauss();
        double l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        if (l < 1e-6) continue;
        col_quat r = {q[0] / l, q[1] / l, q[2] / l, q[3] / l};
        return r;
    }
}

/* ---- helpers ---- */

/* A point uniformly in the box [-a, a] x [-b, b] x [-c, c]. */
static col_vec3 rand_box(double a, double b, double c)
{
    double x = urange(-a, a);
    double y = urange(-b, b);
    double z = urange(-c, c);
    return col_v3(x, y, z);
}

/* A random direction times a length uniform in [lo, hi]. */
static col_vec3 rand_offset(double lo, double hi)
{
    col_vec3 u = rand_unit();
    return col_scale(u, urange(lo, hi));
}

static void build(const col_vec3 *pts, int n, col_hull *h)
{
    char err[256];
    col_status st = col_hull_build(&g_alloc, pts, n, h, err, sizeof err);
    if (st != COL_OK) fprintf(stderr, "hull build failed: %s\n", err);
    assert_int_equal(st, COL_OK);
}

static col_xform pose(col_vec3 p, col_quat q)
{
    col_transform t;
    t.p = p;
    t.q = q;
    return col_xform_from_transform(t);
}

static col_quat quat_axis_angle(col_vec3 axis, double angle)
{
    double l = col_len(axis), s = sin(0.5 * angle) / l;
    col_quat q = {axis.x * s, axis.y * s, axis.z * s, cos(0.5 * angle)};
    return q;
}

static int world_points(const col_hull *h, const col_xform *x, col_vec3 *out)
{
    for (int i = 0; i < h->vertex_count; i++) out[i] = col_xform_point(x, h->vertices[i]);
    return h->vertex_count;
}

static void query(void *cache, const col_hull *a, const col_xform *xa, const col_hull *b,
                  const col_xform *xb, col_np_result *r)
{
    size_t n = col_np_scratch_bytes(NP, a, b);
    col_np_scratch s;
    s.mem = malloc(n);
    s.size = n;
    assert_non_null(s.mem);
    memset(r, 0xA5, sizeof *r); /* the backend must fill every field */
    NP->query(cache, a, NULL, xa, b, NULL, xb, &s, r);
    free(s.mem);
    assert_true(r->iterations >= 1);
    assert_int_equal(r->fallbacks, 0);
}

/* The separation certificate, re-checked by a full projection in (at least) 113-bit
 * arithmetic, where a double product is exact: min_b s.b - max_a s.a >= gap. A gap of 0
 * means "separated by the computed values but inside their rounding bound", so there
 * only a tiny negative slack is allowed. */
static void check_certificate(const col_vec3 *A, int na, const col_vec3 *B, int nb,
                              const col_np_result *r)
{
    if (r->colliding) return;
    col_vec3 s = r->axis;
    assert_true(fabs(col_len(s) - 1.0) < 1e-12);
    assert_true(isfinite(r->gap) && r->gap >= 0.0);
    wide amax = -1e300, bmin = 1e300;
    double m = 0.0;
    for (int i = 0; i < na; i++) {
        wide p = (wide)s.x * A[i].x + (wide)s.y * A[i].y + (wide)s.z * A[i].z;
        if (p > amax) amax = p;
        m = fmax(m, col_max_abs(A[i]));
    }
    for (int j = 0; j < nb; j++) {
        wide p = (wide)s.x * B[j].x + (wide)s.y * B[j].y + (wide)s.z * B[j].z;
        if (p < bmin) bmin = p;
        m = fmax(m, col_max_abs(B[j]));
    }
    wide g = bmin - amax;
    if (r->gap > 0.0) {
        if (!(g >= (wide)r->gap))
            fprintf(stderr, "certificate: true gap %.17g < claimed %.17g\n", (double)g, r->gap);
        assert_true(g >= (wide)r->gap);
    } else {
        assert_true(g >= -(wide)(16.0 * DBL_EPSILON * m));
    }
}

typedef struct pair_outcome {
    int colliding;  /* the backend's answer */
    int oracle;     /* the exact answer */
    double margin;  /* oracle margin, only computed on disagreement (else NAN) */
    int iterations;
} pair_outcome;

/* Asks the backend both ways round (no cache), with a cache twice, checks symmetry,
 * certificates and the oracle. size is the length scale for the near-touching rule;
 * strict demands agreement with the oracle down to |margin| > strict * size. */
static pair_outcome check_pair(const col_hull *a, const col_xform *xa, const col_hull *b,
                               const col_xform *xb, double size, double strict,
                               const char *what)
{
    static col_vec3 A[4 * MAX_PTS], B[4 * MAX_PTS];
    assert_true(a->vertex_count <= 4 * MAX_PTS && b->vertex_count <= 4 * MAX_PTS);
    int na = world_points(a, xa, A), nb = world_points(b, xb, B);

    col_np_result r, rs, rc1, rc2;
    query(NULL, a, xa, b, xb, &r);
    query(NULL, b, xb, a, xa, &rs);
    check_certificate(A, na, B, nb, &r);
    check_certificate(B, nb, A, na, &rs);
    if (r.colliding != rs.colliding)
        fprintf(stderr, "%s: asymmetric answer %d / %d\n", what, r.colliding, rs.colliding);
    assert_int_equal(r.colliding, rs.colliding);

    /* With a cache: a fresh one, then the warmed one; both must agree with the above
     * except within the rounding band (where a certified cached axis may differ from the
     * SAT's computed sign); compared through the oracle below. */
    assert_true(NP->cache_size > 0);
    void *cache = malloc(NP->cache_size);
    assert_non_null(cache);
    NP->cache_init(cache, a, b);
    query(cache, a, xa, b, xb, &rc1);
    query(cache, a, xa, b, xb, &rc2);
    free(cache);
    check_certificate(A, na, B, nb, &rc1);
    check_certificate(A, na, B, nb, &rc2);

    pair_outcome o;
    o.colliding = r.colliding;
    o.iterations = r.iterations;
    o.margin = NAN;
    o.oracle = col_oracle_intersect(A, na, B, nb);
    assert_true(o.oracle == 0 || o.oracle == 1);
    int disagree = r.colliding != o.oracle || rc1.colliding != o.oracle ||
                   rc2.colliding != o.oracle;
    if (disagree) {
        o.margin = col_oracle_margin(A, na, B, nb);
        assert_false(isnan(o.margin));
        printf("  [%s] near-touching disagreement: backend %d (cache %d,%d) oracle %d "
               "margin %.3g (%.3g x size)\n",
               what, r.colliding, rc1.colliding, rc2.colliding, o.oracle, o.margin,
               o.margin / size);
        assert_true(fabs(o.margin) <= strict * size);
    }
    return o;
}

static void box_points(double hx, double hy, double hz, col_vec3 *p)
{
    for (int i = 0; i < 8; i++)
        p[i] = col_v3(i & 1 ? hx : -hx, i & 2 ? hy : -hy, i & 4 ? hz : -hz);
}

static const col_quat Q_ID = {0.0, 0.0, 0.0, 1.0};

/* ---- named cases ---- */

static void test_identical_boxes(void **state)
{
    (void)state;
    col_vec3 p[8];
    box_points(1.0, 2.0, 0.5, p);
    col_hull h;
    build(p, 8, &h);
    for (int k = 0; k < 8; k++) {
        col_quat q = k == 0 ? Q_ID : rand_quat();
        col_vec3 t = k == 0 ? col_v3(0, 0, 0) : rand_offset(0.0, 100.0);
        col_xform x = pose(t, q);
        pair_outcome o = check_pair(&h, &x, &h, &x, 2.0, 0.0, "identical");
        assert_int_equal(o.colliding, 1);
        assert_int_equal(o.oracle, 1);
    }
    col_hull_free(&g_alloc, &h);
}

/* Boxes of half-size s touching face to face exactly (world coordinates exact: the
 * contact plane is x = s on both sides), then 1e-12 x s apart, along each axis and with
 * the faces offset sideways; then the same pairs as rotated copies (common rotation and
 * translation; touching is then decided by the oracle on the rounded coordinates). */
static void test_face_face_touching(void **state)
{
    (void)state;
    const double scales[3] = {1e-3, 1.0, 1e3};
    for (int si = 0; si < 3; si++) {
        double s = scales[si];
        col_vec3 p[8];
        box_points(s, s, s, p);
        col_hull h;
        build(p, 8, &h);
        for (int axis = 0; axis < 3; axis++) {
            for (int off = 0; off < 2; off++) {
                double side = off ? 0.5 * s : 0.0;
                double d[3] = {side, -side, 0.75 * side};
                d[axis] = 2.0 * s;
                col_xform xa = pose(col_v3(0, 0, 0), Q_ID);
                col_xform xb = pose(col_v3(d[0], d[1], d[2]), Q_ID);
                pair_outcome o = check_pair(&h, &xa, &h, &xb, s, 0.0, "face-face touching");
                assert_int_equal(o.oracle, 1);
                assert_int_equal(o.colliding, 1);

                d[axis] = 2.0 * s + 1e-12 * s;
                xb = pose(col_v3(d[0], d[1], d[2]), Q_ID);
                o = check_pair(&h, &xa, &h, &xb, s, 0.0, "face-face 1e-12 apart");
                assert_int_equal(o.oracle, 0);
                assert_int_equal(o.colliding, 0);

                /* The negative side, and B in the first slot. */
                d[axis] = -2.0 * s - 1e-12 * s;
                xb = pose(col_v3(d[0], d[1], d[2]), Q_ID);
                o = check_pair(&h, &xb, &h, &xa, s, 0.0, "face-face 1e-12 apart (neg)");
                assert_int_equal(o.colliding, 0);

                /* Rotated copies of both configurations. */
                for (int k = 0; k < 4; k++) {
                    col_quat q = rand_quat();
                    col_xform rot = pose(col_v3(0, 0, 0), q);
                    col_vec3 t = rand_offset(0.0, 10.0 * s);
                    double gaps[3] = {0.0, 1e-12 * s, 1e-9 * s};
                    for (int g = 0; g < 3; g++) {
                        d[axis] = 2.0 * s + gaps[g];
                        col_vec3 pb = col_add(t, col_mat3_mul(&rot.R, col_v3(d[0], d[1], d[2])));
                        col_xform ra = pose(t, q), rb = pose(pb, q);
                        check_pair(&h, &ra, &h, &rb, s, NEAR_REL, "face-face rotated");
                    }
                    /* Clearly apart and clearly overlapping: must agree exactly. */
                    d[axis] = 2.0 * s + 1e-6 * s;
                    col_vec3 pb = col_add(t, col_mat3_mul(&rot.R, col_v3(d[0], d[1], d[2])));
                    col_xform ra = pose(t, q), rb = pose(pb, q);
                    pair_outcome o2 = check_pair(&h, &ra, &h, &rb, s, 0.0, "face-face rotated apart");
                    assert_int_equal(o2.colliding, 0);
                    d[axis] = 2.0 * s - 1e-6 * s;
                    pb = col_add(t, col_mat3_mul(&rot.R, col_v3(d[0], d[1], d[2])));
                    rb = pose(pb, q);
                    o2 = check_pair(&h, &ra, &h, &rb, s, 0.0, "face-face rotated overlap");
                    assert_int_equal(o2.colliding, 1);
                }
            }
        }
        col_hull_free(&g_alloc, &h);
    }
}

/* Asserts that no face normal of either hull separates the pair (so that a separated
 * answer must come from an edge-edge axis). */
static void assert_no_face_separates(const col_hull *a, const col_xform *xa, const col_hull *b,
                                     const col_xform *xb)
{
    col_vec3 A[16], B[16];
    assert_true(a->vertex_count <= 16 && b->vertex_count <= 16);
    world_points(a, xa, A);
    world_points(b, xb, B);
    for (int f = 0; f < a->face_count + b->face_count; f++) {
        col_vec3 n = f < a->face_count ? col_mat3_mul(&xa->R, a->planes[f].n)
                                       : col_mat3_mul(&xb->R, b->planes[f - a->face_count].n);
        double amin = INFINITY, amax = -INFINITY, bmin = INFINITY, bmax = -INFINITY;
        for (int i = 0; i < a->vertex_count; i++) {
            amin = fmin(amin, col_dot(n, A[i]));
            amax = fmax(amax, col_dot(n, A[i]));
        }
        for (int i = 0; i < b->vertex_count; i++) {
            bmin = fmin(bmin, col_dot(n, B[i]));
            bmax = fmax(bmax, col_dot(n, B[i]));
        }
        assert_true(bmin - amax < 0.0 && amin - bmax < 0.0);
    }
}

/* Two tetrahedral wedges, each with a top and a bottom edge at right angles and no
 * horizontal face: A's top edge runs along x at z = s; B's bottom edge runs along y
 * (b_along_x = 0) or along x (1) at its local z = 0, so B placed at height s touches A
 * edge to edge. */
static void make_wedges(double s, int b_along_x, col_hull *a, col_hull *b)
{
    col_vec3 pa[4] = {{-s, 0, s}, {s, 0, s}, {0, -s, 0}, {0, s, 0}};
    col_vec3 pb[4] = {{0, -s, 0}, {0, s, 0}, {-s, 0, s}, {s, 0, s}};
    if (b_along_x) {
        col_vec3 q[4] = {{-s, 0, 0}, {s, 0, 0}, {0, -s, s}, {0, s, s}};
        memcpy(pb, q, sizeof q);
    }
    build(pa, 4, a);
    build(pb, 4, b);
}

/* The wedges edge to edge, the edges crossing, B shifted sideways so that the centroid
 * direction is not vertical: exactly touching at (0.25 s, 0, s). Lifted by 1e-12 s they
 * are apart, and only the edge-edge axis (0, 0, 1) shows it. */
static void test_edge_edge_touching(void **state)
{
    (void)state;
    const double scales[3] = {1e-3, 1.0, 1e3};
    for (int si = 0; si < 3; si++) {
        double s = scales[si];
        col_hull a, b;
        make_wedges(s, 0, &a, &b);
        col_xform xa = pose(col_v3(0, 0, 0), Q_ID);
        col_xform xb = pose(col_v3(0.25 * s, 0.5 * s, s), Q_ID);
        pair_outcome o = check_pair(&a, &xa, &b, &xb, s, 0.0, "edge-edge touching");
        assert_int_equal(o.oracle, 1);
        assert_int_equal(o.colliding, 1);

        xb = pose(col_v3(0.25 * s, 0.5 * s, s + 1e-12 * s), Q_ID);
        col_np_result r;
        query(NULL, &a, &xa, &b, &xb, &r);
        assert_false(r.colliding);
        assert_true(fabs(r.axis.z - 1.0) < 1e-12); /* the edge-edge axis, from A to B */
        assert_true(r.gap > 0.0 && r.gap <= 1e-12 * s);
        assert_no_face_separates(&a, &xa, &b, &xb);
        o = check_pair(&a, &xa, &b, &xb, s, 0.0, "edge-edge 1e-12 apart");
        assert_int_equal(o.oracle, 0);
        assert_int_equal(o.colliding, 0);

        /* B's ridge turned by an angle about z: still an edge-edge contact. */
        double angles[4] = {0.3, 0.5, -0.7, 1e-3}; /* the crossing stays on both ridges */
        for (int k = 0; k < 4; k++) {
            col_quat q = quat_axis_angle(col_v3(0, 0, 1), angles[k]);
            double gaps[4] = {0.0, 1e-12 * s, 1e-6 * s, -1e-6 * s};
            for (int g = 0; g < 4; g++) {
                xb = pose(col_v3(0.25 * s, 0.5 * s, s + gaps[g]), q);
                o = check_pair(&a, &xa, &b, &xb, s, g >= 2 ? 0.0 : NEAR_REL, "edge-edge turned");
                if (g == 0) assert_int_equal(o.colliding, 1); /* z of the ridges stays exact */
                if (g == 2) assert_int_equal(o.colliding, 0);
                if (g == 3) assert_int_equal(o.colliding, 1);
            }
        }
        col_hull_free(&g_alloc, &a);
        col_hull_free(&g_alloc, &b);
    }
}

/* Nearly parallel edges: the wedges with both edges along x, B's turned by a tiny angle
 * th about z and lifted by gap = 0.1 s th. Every face normal then shows a negative gap
 * (about gap - s th), and B is shifted along x so that the centroid direction is tilted;
 * only the cross product of the two almost parallel edges separates
 * (the backend must neither skip it as parallel nor get its direction wrong). Also run
 * as rotated copies, so that the world edge vectors carry rounding. */
static void test_nearly_parallel_edges(void **state)
{
    (void)state;
    double s = 1.0;
    col_hull a, b;
    make_wedges(s, 1, &a, &b);
    const double th[3] = {1e-4, 1e-7, 1e-9};
    for (int k = 0; k < 3; k++) {
        for (int rep = 0; rep < 6; rep++) {
            col_quat qc = rep == 0 ? Q_ID : rand_quat();
            col_xform common = pose(col_v3(0, 0, 0), qc);
            col_vec3 t = rep == 0 ? col_v3(0, 0, 0) : rand_offset(0.0, 3.0);
            double gap = 0.1 * s * th[k];
            for (int sg = 0; sg < 2; sg++) {
                double lift = s + (sg ? -gap : gap);
                /* B's pose: common rotation times the small turn about z. */
                col_quat qt = quat_axis_angle(col_v3(0, 0, 1), th[k]);
                col_quat qb = {qc.w * qt.x + qc.x * qt.w + qc.y * qt.z - qc.z * qt.y,
                               qc.w * qt.y - qc.x * qt.z + qc.y * qt.w + qc.z * qt.x,
                               qc.w * qt.z + qc.x * qt.y - qc.y * qt.x + qc.z * qt.w,
                               qc.w * qt.w - qc.x * qt.x - qc.y * qt.y - qc.z * qt.z};
                col_xform xa = pose(t, qc);
                col_xform xb = pose(col_add(t, col_mat3_mul(&common.R, col_v3(0.3 * s, 0, lift))), qb);
                if (rep == 0) assert_no_face_separates(&a, &xa, &b, &xb);
                pair_outcome o = check_pair(&a, &xa, &b, &xb, s, 1e-13, "nearly parallel");
                if (o.oracle != o.colliding) continue; /* printed and bounded above */
                assert_int_equal(o.colliding, sg ? 1 : 0);
            }
        }
    }
    col_hull_free(&g_alloc, &a);
    col_hull_free(&g_alloc, &b);
}

/* A pyramid standing on its apex on the top face of a box: vertex on face, exact. */
static void test_vertex_on_face(void **state)
{
    (void)state;
    const double scales[3] = {1e-3, 1.0, 1e3};
    for (int si = 0; si < 3; si++) {
        double s = scales[si];
        col_vec3 pbox[8];
        box_points(s, s, s, pbox);
        col_vec3 ppyr[5] = {{0, 0, 0}, {s, s, s}, {-s, s, s}, {s, -s, s}, {-s, -s, s}};
        col_hull a, b;
        build(pbox, 8, &a);
        build(ppyr, 5, &b);
        col_xform xa = pose(col_v3(0, 0, 0), Q_ID);
        const double sx[3] = {0.0, 0.2, -0.9};
        for (int k = 0; k < 3; k++) {
            col_xform xb = pose(col_v3(sx[k] * s, -0.3 * s, s), Q_ID);
            pair_outcome o = check_pair(&a, &xa, &b, &xb, s, 0.0, "vertex on face");
            assert_int_equal(o.oracle, 1);
            assert_int_equal(o.colliding, 1);
            xb = pose(col_v3(sx[k] * s, -0.3 * s, s + 1e-12 * s), Q_ID);
            o = check_pair(&a, &xa, &b, &xb, s, 0.0, "vertex 1e-12 above face");
            assert_int_equal(o.oracle, 0);
            assert_int_equal(o.colliding, 0);
            /* Pyramid tilted about its apex: still touching at one vertex. */
            col_quat q = quat_axis_angle(col_v3(1, 2, 0), 0.2);
            xb = pose(col_v3(sx[k] * s, -0.3 * s, s), q);
            o = check_pair(&a, &xa, &b, &xb, s, NEAR_REL, "vertex on face, tilted");
            /* Apex precisely at the box corner: vertex on vertex. */
            xb = pose(col_v3(s, s, s), Q_ID);
            o = check_pair(&a, &xa, &b, &xb, s, 0.0, "vertex on vertex");
            assert_int_equal(o.colliding, 1);
        }
        col_hull_free(&g_alloc, &a);
        col_hull_free(&g_alloc, &b);
    }
}

/* ---- random shapes ---- */

/* Point sets of 4..200 points of four kinds: ellipsoid surface, rod, plate (two
 * parallel planes: many coplanar points) and box-like (corners plus points on the
 * faces), scaled and offset from the local origin. */
static int random_points(int kind, int n, col_vec3 *p)
{
    double a = urange(0.4, 1.0), b = urange(0.4, 1.0), c = urange(0.4, 1.0);
    double r = urange(0.05, 0.2);
    for (int i = 0; i < n; i++) {
        col_vec3 u = rand_unit();
        switch (kind) {
        case 0: p[i] = col_v3(a * u.x, b * u.y, c * u.z); break;
        case 1: {
            double l = sqrt(u.y * u.y + u.z * u.z);
            if (l < 1e-9) l = 1e-9;
            p[i] = col_v3(urange(-1.0, 1.0), r * u.y / l, r * u.z / l);
            break;
        }
        case 2:
            p[i] = rand_box(a, b, 0.0);
            p[i].z = i & 1 ? r : -r;
            break;
        default:
            if (n >= 8 && i < 8) {
                p[i] = col_v3(i & 1 ? a : -a, i & 2 ? b : -b, i & 4 ? c : -c);
            } else if (n >= 8) {
                col_vec3 q = rand_box(a, b, c);
                int f = (int)(rng_next() % 6);
                double sgn = f & 1 ? 1.0 : -1.0;
                if (f / 2 == 0) q.x = sgn * a;
                else if (f / 2 == 1) q.y = sgn * b;
                else q.z = sgn * c;
                p[i] = q;
            } else {
                p[i] = rand_box(a, b, c);
            }
            break;
        }
    }
    double scale = pow(10.0, urange(-0.3, 0.3));
    col_vec3 off = rand_box(0.3, 0.3, 0.3);
    for (int i = 0; i < n; i++) p[i] = col_scale(col_add(p[i], off), scale);
    return n;
}

static void random_hull(col_hull *h)
{
    static col_vec3 p[MAX_PTS];
    for (;;) {
        int kind = (int)(rng_next() % 4);
        int n = 4 + (int)(rng_next() % (MAX_PTS - 3));
        random_points(kind, n, p);
        char err[256];
        if (col_hull_build(&g_alloc, p, n, h, err, sizeof err) == COL_OK) return;
    }
}

/* Brute-force SAT without Gauss-map pruning: face normals and the cross products of
 * ALL edge pairs, full projections, both orientations; returns the largest gap. Used on
 * small hulls to check that the backend's pruning never drops a separating axis. */
static double brute_sat_gap(const col_hull *a, const col_vec3 *A, const col_hull *b,
                            const col_vec3 *B, const col_xform *xa, const col_xform *xb)
{
    double best = -INFINITY;
    int nf = a->face_count + b->face_count, ne = a->edge_count * b->edge_count;
    for (int k = 0; k < nf + ne; k++) {
        col_vec3 n;
        if (k < a->face_count) {
            n = col_mat3_mul(&xa->R, a->planes[k].n);
        } else if (k < nf) {
            n = col_mat3_mul(&xb->R, b->planes[k - a->face_count].n);
        } else {
            int i = (k - nf) / b->edge_count, j = (k - nf) % b->edge_count;
            col_vec3 ea = col_sub(A[a->edge_verts[2 * i + 1]], A[a->edge_verts[2 * i]]);
            col_vec3 eb = col_sub(B[b->edge_verts[2 * j + 1]], B[b->edge_verts[2 * j]]);
            n = col_cross(ea, eb);
            if (col_len(n) <= 1e-6 * col_len(ea) * col_len(eb)) continue;
        }
        n = col_scale(n, 1.0 / col_len(n));
        double amin = INFINITY, amax = -INFINITY, bmin = INFINITY, bmax = -INFINITY;
        for (int i = 0; i < a->vertex_count; i++) {
            double p = col_dot(n, A[i]);
            amin = fmin(amin, p);
            amax = fmax(amax, p);
        }
        for (int j = 0; j < b->vertex_count; j++) {
            double p = col_dot(n, B[j]);
            bmin = fmin(bmin, p);
            bmax = fmax(bmax, p);
        }
        best = fmax(best, fmax(bmin - amax, amin - bmax));
    }
    return best;
}

/* Random pairs near touching: A at a random pose (up to 1e3 x size from the origin, so
 * rounding grows with the coordinates); B at a random orientation, first with
 * its centroid on A's (so the line below crosses A - B), then moved along a random unit
 * direction to the last contact t* (an LP) plus a gap sampled log-uniformly in
 * +-[1e-12, 1e-1] x size; half the gaps are negative (overlap), so about half the pairs
 * intersect. */
static void test_random_pairs(void **state)
{
    (void)state;
    rng_seed(RANDOM_SEED, __func__);
    printf("  random pairs: %d pairs\n", RANDOM_PAIRS);
    enum { POOL = 40 };
    col_hull pool[POOL];
    for (int i = 0; i < POOL; i++) random_hull(&pool[i]);

    static col_vec3 A[MAX_PTS], B[MAX_PTS];
    int hits = 0, disagreements = 0, brute_checked = 0, iter_max = 0;
    long iter_sum_sep = 0, iter_sum_col = 0;
    int separated = 0;
    for (int k = 0; k < RANDOM_PAIRS; k++) {
        const col_hull *a = &pool[rng_next() % POOL], *b = &pool[rng_next() % POOL];
        double size = fmax(a->radius, b->radius);
        col_vec3 pa = rand_offset(0.0, 1.0);
        pa = col_scale(pa, pow(10.0, urange(-1.0, 3.0)) * size);
        col_quat qa = rand_quat();
        col_xform xa = pose(pa, qa);
        col_quat qb = rand_quat();
        col_xform xb0 = pose(col_v3(0, 0, 0), qb);
        col_vec3 ca = col_xform_point(&xa, a->centroid);
        xb0.p = col_sub(ca, col_mat3_mul(&xb0.R, b->centroid));
        int na = world_points(a, &xa, A), nb = world_points(b, &xb0, B);
        col_vec3 dir = rand_unit();
        double t = col_oracle_contact_shift(A, na, B, nb, dir);
        assert_false(isnan(t));
        double gap = size * pow(10.0, urange(-12.0, -1.0));
        if (rng_next() & 1) gap = -gap;
        col_xform xb = xb0;
        xb.p = col_add(xb0.p, col_scale(dir, t + gap));
        nb = world_points(b, &xb, B);

        char what[64];
        snprintf(what, sizeof what, "random pair %d", k);
        pair_outcome o = check_pair(a, &xa, b, &xb, size, NEAR_REL, what);
        hits += o.oracle;
        disagreements += o.colliding != o.oracle;
        iter_max = o.iterations > iter_max ? o.iterations : iter_max;
        if (o.colliding) iter_sum_col += o.iterations;
        else {
            iter_sum_sep += o.iterations;
            separated++;
        }

        /* The pruning must keep every axis a brute-force SAT finds clearly separating. */
        if ((long)a->edge_count * b->edge_count <= 3000) {
            brute_checked++;
            double g = brute_sat_gap(a, A, b, B, &xa, &xb);
            if (g > 1e-10 * size && o.colliding)
                fprintf(stderr, "%s: brute-force SAT gap %.3g but backend says colliding\n", what, g);
            assert_false(g > 1e-10 * size && o.colliding);
        }
    }
    double rate = 100.0 * hits / RANDOM_PAIRS;
    printf("  random pairs: hit rate %.1f%%, %d near-touching disagreements, %d brute-force "
           "checked, mean axes %.1f separated / %.1f colliding, max %d\n",
           rate, disagreements, brute_checked,
           separated ? (double)iter_sum_sep / separated : 0.0,
           RANDOM_PAIRS - separated ? (double)iter_sum_col / (RANDOM_PAIRS - separated) : 0.0,
           iter_max);
    assert_true(rate >= 30.0 && rate <= 70.0);
    for (int i = 0; i < POOL; i++) col_hull_free(&g_alloc, &pool[i]);
}

/* Rotated copies: one shape against itself at random orientations, at the exact contact
 * shift t* (touching up to the LP's rounding) and a few gaps around it. */
static void test_rotated_copies(void **state)
{
    (void)state;
    static col_vec3 A[MAX_PTS], B[MAX_PTS];
    for (int s = 0; s < 6; s++) {
        col_hull h;
        random_hull(&h);
        double size = h.radius;
        for (int k = 0; k < 10; k++) {
            col_xform xa = pose(col_v3(0, 0, 0), rand_quat());
            col_xform xb0 = pose(col_v3(0, 0, 0), rand_quat());
            xb0.p = col_sub(col_xform_point(&xa, h.centroid), col_mat3_mul(&xb0.R, h.centroid));
            int na = world_points(&h, &xa, A), nb = world_points(&h, &xb0, B);
            col_vec3 dir = rand_unit();
            double t = col_oracle_contact_shift(A, na, B, nb, dir);
            assert_false(isnan(t));
            const double gaps[5] = {0.0, 1e-12, -1e-12, 1e-5, -1e-5};
            for (int g = 0; g < 5; g++) {
                col_xform xb = xb0;
                xb.p = col_add(xb0.p, col_scale(dir, t + gaps[g] * size));
                check_pair(&h, &xa, &h, &xb, size, g >= 3 ? 0.0 : NEAR_REL, "rotated copy");
            }
        }
        col_hull_free(&g_alloc, &h);
    }
}

/* The cache: a pair moved through a sequence of poses, queried with one cache all
 * along, must give the oracle's answer at every step; once warm, a separated pair is
 * usually decided by the first (cached) axis. */
static void test_cache_sequence(void **state)
{
    (void)state;
    col_hull a, b;
    random_hull(&a);
    random_hull(&b);
    double size = fmax(a.radius, b.radius);
    void *cache = malloc(NP->cache_size);
    assert_non_null(cache);
    NP->cache_init(cache, &a, &b);
    col_vec3 dir = rand_unit();
    col_quat qa = rand_quat(), qb = rand_quat();
    int first_axis = 0, sep = 0;
    static col_vec3 A[MAX_PTS], B[MAX_PTS];
    for (int step = 0; step <= 80; step++) {
        double t = (step - 40) * 0.1 * size;
        col_xform xa = pose(col_v3(0, 0, 0), qa);
        col_xform xb = pose(col_scale(dir, t), qb);
        col_np_result r, r0;
        query(cache, &a, &xa, &b, &xb, &r);
        query(NULL, &a, &xa, &b, &xb, &r0);
        int na = world_points(&a, &xa, A), nb = world_points(&b, &xb, B);
        check_certificate(A, na, B, nb, &r);
        int ex = col_oracle_intersect(A, na, B, nb);
        if (r.colliding != ex || r0.colliding != ex) {
            double m = col_oracle_margin(A, na, B, nb);
            printf("  [cache] near-touching disagreement at step %d, margin %.3g\n", step, m);
            assert_true(fabs(m) <= NEAR_REL * size);
        }
        if (!r.colliding) {
            sep++;
            first_axis += r.iterations == 1;
        }
        /* Slow rotation so the cached feature has to follow. */
        qb = quat_axis_angle(col_v3(1, 1, 0), 0.01 * step);
    }
    free(cache);
    printf("  cache: %d of %d separated steps decided by the first axis\n", first_axis, sep);
    assert_true(sep > 0);
    assert_true(first_axis > 0);
    col_hull_free(&g_alloc, &a);
    col_hull_free(&g_alloc, &b);
}

static void test_backend_table(void **state)
{
    (void)state;
    assert_string_equal(NP->name, "reference");
    assert_non_null(NP->cache_init);
    assert_null(NP->shape_data_bytes); /* no shape data: the world builds none */
    assert_non_null(NP->scratch_need);
    assert_non_null(NP->query);
    assert_true(NP->cache_size > 0 && NP->cache_size <= 64);
}

static int setup(void **state)
{
    (void)state;
    col_alloc_init(&g_alloc, NULL);
    /* the tests without a seed of their own draw from this sequence, in main's order */
    rng_seed(RANDOM_SEED ^ UINT64_C(0x1234), "test_reference");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    /* Every hull built by a test was freed again. */
    return g_alloc.bytes == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_backend_table),
        cmocka_unit_test(test_identical_boxes),
        cmocka_unit_test(test_face_face_touching),
        cmocka_unit_test(test_edge_edge_touching),
        cmocka_unit_test(test_nearly_parallel_edges),
        cmocka_unit_test(test_vertex_on_face),
        cmocka_unit_test(test_rotated_copies),
        cmocka_unit_test(test_cache_sequence),
        cmocka_unit_test(test_random_pairs),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
