/* SPDX-License-Identifier: MIT */
/* The fitted volumes of the mesh hierarchy (lib/core/mesh_bv.c) and the bounds between
 * them (narrowphase/mesh_bv_bound.c), against exact arithmetic (GMP rationals):
 * - containment: on random soups with degenerate triangles (repeated indices, collinear
 *   and coincident points, slivers), flat and single-point meshes, at scales 1e-3, 1 and
 *   1e3 and far from the origin, every double vertex of every node's triangles lies in
 *   the node's box {A (c + s) : |s| <= h} and within r of its rectangle, decided in
 *   rationals (t = A^{-1} v by Cramer's rule, so no rounding anywhere);
 * - bounds: for two such meshes at random poses, every node pair's RSS lower bound and
 *   every positive fitted-box gap is at most the exact distance of the node pair's world
 *   triangles (oracle_dist2 over all its triangle pairs), and enough of them are positive
 *   for the check to mean something; two flat meshes in one plane (touching, distance
 *   0) and a hair apart are among them;
 * - the traversals: distance with RSS bounds equals distance with box bounds, and
 *   collision with each node test gives the same answer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <gmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/alloc.h"
#include "lib/core/mesh.h"
#include "narrowphase/mesh_bv_bound.h"
#include "narrowphase/mesh_collide.h"
#include "narrowphase/mesh_distance.h"
#include "tests/oracle_round.h"
#include "tests/test_util.h"

enum { MAXV = 400, MAXT = 140 };

typedef struct soup {
    col_vec3 v[MAXV];
    uint32_t t[3 * MAXT];
    int nv, nt;
} soup;

static col_vec3 rnd(double s, col_vec3 o) { return col_add(o, col_v3(urange(-s, s), urange(-s, s), urange(-s, s))); }

/* nt triangles near offset o at scale s; kind 0 mixed soup, 1 flat (z constant), 2 one
 * vertex for all. About one in four triangles is degenerate. */
static void make_soup(soup *m, int nt, double s, col_vec3 o, int kind)
{
    m->nv = 0;
    m->nt = nt;
    if (kind == 2) {
        m->v[m->nv++] = rnd(s, o);
        for (int k = 0; k < 3 * nt; k++) m->t[k] = 0;
        return;
    }
    for (int k = 0; k < nt; k++) {
        col_vec3 c = rnd(s, o), p[3];
        double e = s * urange(0.01, 0.3);
        for (int j = 0; j < 3; j++) p[j] = rnd(e, c);
        if (kind == 1)
            for (int j = 0; j < 3; j++) p[j].z = o.z;
        int type = (int)(urand() * 8);
        if (type == 0) p[2] = col_add(p[0], col_scale(col_sub(p[1], p[0]), 0.5)); /* collinear */
        if (type == 1) p[1] = p[2] = p[0];                                         /* a point */
        if (type == 2) p[2] = col_add(p[1], col_scale(col_sub(p[1], p[0]), 1e-9)); /* sliver */
        int base = m->nv;
        for (int j = 0; j < 3; j++) m->v[m->nv++] = p[j];
        m->t[3 * k] = (uint32_t)base;
        m->t[3 * k + 1] = (uint32_t)base + 1;
        m->t[3 * k + 2] = (uint32_t)(type == 3 ? base : base + 2); /* repeated index */
    }
}

/* ---- exact containment ---- */

static void det3(mpq_t out, mpq_t m[9], mpq_t t1, mpq_t t2)
{
    /* m[0](m[4]m[8] - m[5]m[7]) - m[1](m[3]m[8] - m[5]m[6]) + m[2](m[3]m[7] - m[4]m[6]) */
    mpq_set_ui(out, 0, 1);
    static const int idx[3][5] = {{0, 4, 8, 5, 7}, {1, 3, 8, 5, 6}, {2, 3, 7, 4, 6}};
    for (int r = 0; r < 3; r++) {
        mpq_mul(t1, m[idx[r][1]], m[idx[r][2]]);
        mpq_mul(t2, m[idx[r][3]], m[idx[r][4]]);
        mpq_sub(t1, t1, t2);
        mpq_mul(t1, t1, m[idx[r][0]]);
        if (r == 1) mpq_sub(out, out, t1);
        else mpq_add(out, out, t1);
    }
}

typedef struct exact_ctx {
    mpq_t A[9], M[9], t[3], det, dk, t1, t2, lo, hi, w[3], x, r2, s;
} exact_ctx;

static void exact_init(exact_ctx *e)
{
    for (int i = 0; i < 9; i++) mpq_inits(e->A[i], e->M[i], NULL);
    for (int i = 0; i < 3; i++) mpq_inits(e->t[i], e->w[i], NULL);
    mpq_inits(e->det, e->dk, e->t1, e->t2, e->lo, e->hi, e->x, e->r2, e->s, NULL);
}

static void exact_clear(exact_ctx *e)
{
    for (int i = 0; i < 9; i++) mpq_clears(e->A[i], e->M[i], NULL);
    for (int i = 0; i < 3; i++) mpq_clears(e->t[i], e->w[i], NULL);
    mpq_clears(e->det, e->dk, e->t1, e->t2, e->lo, e->hi, e->x, e->r2, e->s, NULL);
}

/* lo = a - b, hi = a + b, exactly */
static void range_q(exact_ctx *e, double a, double b)
{
    mpq_set_d(e->s, b);
    mpq_set_d(e->lo, a);
    mpq_set(e->hi, e->lo);
    mpq_sub(e->lo, e->lo, e->s);
    mpq_add(e->hi, e->hi, e->s);
}

/* Is v in bv's box, and within r of its rectangle, exactly? */
static void check_vertex(exact_ctx *e, const col_mesh_bv *bv, col_vec3 v)
{
    const double vv[3] = {v.x, v.y, v.z};
    for (int i = 0; i < 9; i++) mpq_set_d(e->A[i], bv->frame.m[i]);
    det3(e->det, e->A, e->t1, e->t2);
    assert_true(mpq_sgn(e->det) != 0);
    for (int k = 0; k < 3; k++) { /* Cramer: column k replaced by v */
        for (int i = 0; i < 9; i++) mpq_set(e->M[i], e->A[i]);
        for (int r = 0; r < 3; r++) mpq_set_d(e->M[3 * r + k], vv[r]);
        det3(e->dk, e->M, e->t1, e->t2);
        mpq_div(e->t[k], e->dk, e->det);
    }
    for (int k = 0; k < 3; k++) {
        range_q(e, bv->c[k], bv->h[k]);
        if (mpq_cmp(e->t[k], e->lo) < 0 || mpq_cmp(e->t[k], e->hi) > 0) {
            print_error("vertex (%.17g %.17g %.17g) outside the box on axis %d\n", v.x, v.y, v.z, k);
            fail();
        }
    }
    /* w = t - clamp(t) on the rectangle, then |A w|^2 <= r^2 */
    for (int k = 0; k < 2; k++) {
        range_q(e, bv->rc[k], bv->l[k]);
        if (mpq_cmp(e->t[k], e->lo) < 0) mpq_sub(e->w[k], e->t[k], e->lo);
        else if (mpq_cmp(e->t[k], e->hi) > 0) mpq_sub(e->w[k], e->t[k], e->hi);
        else mpq_set_ui(e->w[k], 0, 1);
    }
    mpq_set_d(e->s, bv->c[2]);
    mpq_sub(e->w[2], e->t[2], e->s);
    mpq_set_ui(e->r2, 0, 1);
    for (int i = 0; i < 3; i++) {
        mpq_set_ui(e->x, 0, 1);
        for (int k = 0; k < 3; k++) {
            mpq_mul(e->t1, e->A[3 * i + k], e->w[k]);
            mpq_add(e->x, e->x, e->t1);
        }
        mpq_mul(e->x, e->x, e->x);
        mpq_add(e->r2, e->r2, e->x);
    }
    mpq_set_d(e->s, bv->r);
    mpq_mul(e->s, e->s, e->s);
    if (mpq_cmp(e->r2, e->s) > 0) {
        print_error("vertex (%.17g %.17g %.17g) farther than r = %.17g from the rectangle (%.17g)\n", v.x, v.y, v.z,
                    bv->r, sqrt(mpq_get_d(e->r2)));
        fail();
    }
}

static void check_mesh_bvs(exact_ctx *e, const col_mesh *m)
{
    assert_true(m->frame_defect >= 0 && m->frame_defect <= 1e-8);
    for (int i = 0; i < m->node_count; i++) {
        const col_mesh_node *n = &m->nodes[i];
        const col_mesh_bv *bv = &m->bvs[i];
        if (n->count > 0) {
            assert_int_equal(bv->begin, n->child);
            assert_int_equal(bv->end, n->child + n->count);
        } else {
            assert_int_equal(bv->begin, m->bvs[n->child].begin);
            assert_int_equal(m->bvs[n->child].end, m->bvs[n->child + 1].begin);
            assert_int_equal(bv->end, m->bvs[n->child + 1].end);
        }
        for (int k = bv->begin; k < bv->end; k++) {
            col_vec3 t[3];
            col_mesh_triangle(m, k, t);
            for (int j = 0; j < 3; j++) check_vertex(e, bv, t[j]);
        }
    }
}

static const double scales[3] = {1e-3, 1.0, 1e3};

static col_vec3 offset_for(int o, double s)
{
    /* the origin, then far from it: 1e4 sizes away, then 1e7 (where the spacing of the
     * coordinates is near 1e-9 of the size) */
    return o == 0 ? col_v3(0, 0, 0) : (o == 1 ? col_v3(1e4 * s, -3e3 * s, 7e3 * s) : col_v3(-1e7 * s, 2e7 * s, 5e6 * s));
}

static void test_containment(void **state)
{
    (void)state;
    rng_seed(0xb0b5eedULL, "mesh_bv_containment");
    col_alloc a;
    col_alloc_init(&a, NULL);
    exact_ctx e;
    exact_init(&e);
    static soup s;
    int meshes = 0;
    for (int si = 0; si < 3; si++)
        for (int o = 0; o < 3; o++)
            for (int kind = 0; kind < 3; kind++) {
                make_soup(&s, kind == 2 ? 9 : 60 + (int)(urand() * 60), scales[si], offset_for(o, scales[si]), kind);
                col_mesh m;
                char err[200];
                assert_int_equal(col_mesh_build(&a, s.v, s.nv, s.t, s.nt, &m, err, sizeof err), COL_OK);
                check_mesh_bvs(&e, &m);
                col_mesh copy;
                assert_int_equal(col_mesh_copy(&a, &m, &copy), COL_OK);
                assert_memory_equal(copy.bvs, m.bvs, (size_t)m.node_count * sizeof *m.bvs);
                col_mesh_free(&a, &copy);
                col_mesh_free(&a, &m);
                meshes++;
            }
    exact_clear(&e);
    printf("containment: %d meshes checked exactly\n", meshes);
}

/* ---- bounds against the exact node-pair distance ---- */

static col_xform random_pose(double s, col_vec3 o)
{
    col_transform t;
    t.q = random_quat();
    t.p = rnd(s, o);
    return col_xform_from_transform(t);
}

static void world_tri(const col_mesh *m, const col_xform *x, int k, col_vec3 w[3])
{
    col_vec3 t[3];
    col_mesh_triangle(m, k, t);
    for (int j = 0; j < 3; j++) w[j] = col_xform_point(x, t[j]);
}

static void test_bounds(void **state)
{
    (void)state;
    rng_seed(0x55b0d5ULL, "mesh_bv_bounds");
    oracle_round_init();
    col_alloc a;
    col_alloc_init(&a, NULL);
    static soup sa, sb;
    long checked = 0, rss_pos = 0, obb_pos = 0;
    mpq_t *d2 = malloc(sizeof(mpq_t) * 40 * 40), q, nmin;
    mpq_inits(q, nmin, NULL);
    for (int i = 0; i < 40 * 40; i++) mpq_init(d2[i]);
    for (int si = 0; si < 3; si++)
        for (int o = 0; o < 2; o++)
            for (int rep = 0; rep < 4; rep++) {
                double s = scales[si];
                col_vec3 off = offset_for(o, s);
                make_soup(&sa, 30 + (int)(urand() * 10), s, col_v3(0, 0, 0), rep == 3 ? 1 : 0);
                make_soup(&sb, 30 + (int)(urand() * 10), s, col_v3(0, 0, 0), rep == 3 ? 1 : 0);
                col_mesh ma, mb;
                assert_int_equal(col_mesh_build(&a, sa.v, sa.nv, sa.t, sa.nt, &ma, NULL, 0), COL_OK);
                assert_int_equal(col_mesh_build(&a, sb.v, sb.nv, sb.t, sb.nt, &mb, NULL, 0), COL_OK);
                col_xform xa = random_pose(s, off);
                col_xform xb = random_pose(rep < 2 ? 0.8 * s : 2.5 * s, off);
                if (rep == 3) { /* two flat meshes in one plane (touching), or a hair above it */
                    xb = xa;
                    xb.p = col_add(xb.p, col_scale(col_v3(xa.R.m[2], xa.R.m[5], xa.R.m[8]), o == 0 ? 0.0 : 1e-9 * s));
                }
                /* exact squared distances of all world triangle pairs */
                for (int i = 0; i < ma.triangle_count; i++)
                    for (int j = 0; j < mb.triangle_count; j++) {
                        oracle_set A, B;
                        memset(&A, 0, sizeof A);
                        memset(&B, 0, sizeof B);
                        A.n = B.n = 3;
                        world_tri(&ma, &xa, i, A.w);
                        world_tri(&mb, &xb, j, B.w);
                        oracle_features_all(&A);
                        oracle_features_all(&B);
                        oracle_dist2(&A, &B, d2[i * 40 + j]);
                    }
                col_bv_frame f;
                col_bv_frame_setup(&f, &ma, &xa, &mb, &xb);
                for (int ia = 0; ia < ma.node_count; ia++)
                    for (int ib = 0; ib < mb.node_count; ib++) {
                        const col_mesh_bv *ba = &ma.bvs[ia], *bb = &mb.bvs[ib];
                        double rss = col_bv_rss_bound(&f, ba, bb), obb = col_bv_obb_gap(&f, ba, bb);
                        assert_true(obb >= 0);
                        mpq_set(nmin, d2[ba->begin * 40 + bb->begin]);
                        for (int i = ba->begin; i < ba->end; i++)
                            for (int j = bb->begin; j < bb->end; j++)
                                if (mpq_cmp(d2[i * 40 + j], nmin) < 0) mpq_set(nmin, d2[i * 40 + j]);
                        const double g[2] = {rss, obb};
                        for (int k = 0; k < 2; k++) {
                            if (!(g[k] > 0)) continue;
                            mpq_set_d(q, g[k]);
                            mpq_mul(q, q, q);
                            if (mpq_cmp(q, nmin) > 0) {
                                print_error("%s bound %.17g above the exact distance %.17g (scale %g, nodes %d %d)\n",
                                            k == 0 ? "RSS" : "OBB", g[k], sqrt(mpq_get_d(nmin)), s, ia, ib);
                                fail();
                            }
                        }
                        checked++;
                        rss_pos += rss > 0;
                        obb_pos += obb > 0;
                    }
                /* the traversals agree whatever the bound */
                col_mesh_closest d[3];
                for (int k = 0; k < 3; k++) col_mesh_mesh_distance_bound(&ma, &xa, &mb, &xb, (col_mesh_bound)k, &d[k]);
                assert_true(d[0].distance == d[1].distance && d[0].distance == d[2].distance);
                col_np_result r[3];
                for (int c = 0; c < 3; c++) col_mesh_mesh_query_cull(&ma, &xa, &mb, &xb, NULL, (col_mesh_cull)c, &r[c]);
                assert_true(r[0].colliding == r[1].colliding && r[0].colliding == r[2].colliding);
                col_mesh_free(&a, &ma);
                col_mesh_free(&a, &mb);
            }
    printf("bounds: %ld node pairs, RSS bound positive in %ld, fitted-box gap in %ld\n", checked, rss_pos, obb_pos);
    /* a check that never meets a positive bound proves nothing */
    assert_true(rss_pos * 10 > checked && obb_pos * 20 > checked);
    for (int i = 0; i < 40 * 40; i++) mpq_clear(d2[i]);
    free(d2);
    mpq_clears(q, nmin, NULL);
    oracle_round_fini();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_containment),
        cmocka_unit_test(test_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
