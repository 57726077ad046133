/* SPDX-License-Identifier: MIT */
/* Tests of the separating-vector backend (narrowphase/sepvec.c) and its parts: support
 * queries (scan, hill climbing, direction table, DK hierarchy) against a linear scan, the
 * paper's lemma 3 and 4 paths, identical bodies, grazing pairs that must leave the
 * reflection and still be exact (checked with the exact LP oracle), the certificates of
 * both answers, the scratch contract, and the randomized agreement harness
 * (tests/agreement.h) with and without per-shape data. */
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

#include "colibri/colibri.h"
#include "lib/core/alloc.h"
#include "lib/core/hull.h"
#include "lib/core/vec.h"
#include "narrowphase/backend.h"
#include "narrowphase/certify.h"
#include "narrowphase/sepvec_dk_hierarchy.h"
#include "narrowphase/sepvec.h"
#include "narrowphase/sepvec_sphere_poly.h"
#include "narrowphase/sepvec_support.h"
#include "tests/agreement.h"
#include "tests/oracle_lp.h"
#include "tests/test_util.h"

#define SEED UINT64_C(0x5e9fec0c0ffee003)
#define AGREEMENT_PAIRS 1e5

#if defined(__SIZEOF_FLOAT128__)
typedef __float128 wide;
#else
typedef long double wide;
#endif

static col_alloc g_alloc;

/* ---- random draws (generator: tests/test_util.h) ---- */

static col_vec3 rand_unit(void)
{
    for (;;) {
        double x = urange(-1, 1);
        double y = urange(-1, 1);
        double z = urange(-1, 1);
        double l2 = x * x + y * y + z * z;
        if (l2 > 1e-6 && l2 <= 1.0) return col_scale(col_v3(x, y, z), 1.0 / sqrt(l2));
    }
}
static col_quat rand_quat(void)
{
    for (;;) {
        double q[4];
        for (int k = 0; k < 4; k++) q[k] = urange(-1, 1);
        double l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        if (l < 1e-3 || l > 1.0) continue;
        col_quat r = {q[0] / l, q[1] / l, q[2] / l, q[3] / l};
        return r;
    }
}
static col_xform pose(col_vec3 p, col_quat q)
{
    col_transform t = {p, q};
    return col_xform_from_transform(t);
}

/* ---- shapes: ellipsoid, rod, plate (random surface points) and box hulls ---- */

enum { K_ELLIPSOID, K_ROD, K_PLATE, K_BOX };
static const double axes[4][3] = {{1, 0.6, 0.4}, {1, 0.12, 0.12}, {1, 1, 0.1}, {1, 0.6, 0.4}};

static void build_shape(col_hull *h, int kind, int n, double scale)
{
    col_vec3 *p = malloc(sizeof *p * (size_t)(n + 8));
    assert_non_null(p);
    int m = 0;
    const double *ax = axes[kind];
    if (kind == K_BOX) {
        for (; m < 8; m++) p[m] = col_v3(m & 1 ? ax[0] : -ax[0], m & 2 ? ax[1] : -ax[1], m & 4 ? ax[2] : -ax[2]);
        for (; m < n; m++) {
            int k = (int)(rng_next() % 3);
            double c[3];
            for (int i = 0; i < 3; i++) c[i] = urange(-ax[i], ax[i]);
            c[k] = urand() < 0.5 ? -ax[k] : ax[k];
            p[m] = col_v3(c[0], c[1], c[2]);
        }
    } else {
        for (; m < n; m++) {
            col_vec3 d = rand_unit();
            p[m] = col_v3(ax[0] * d.x, ax[1] * d.y, ax[2] * d.z);
        }
    }
    for (int i = 0; i < m; i++) p[i] = col_scale(p[i], scale);
    char err[256];
    col_status st = col_hull_build(&g_alloc, p, m, h, err, sizeof err);
    if (st != COL_OK) fprintf(stderr, "hull: %s\n", err);
    assert_int_equal(st, COL_OK);
    free(p);
}

static void *make_data(const col_hull *h, unsigned flags)
{
    size_t n = (col_support_data_bytes(h, flags) + 15) / 16 * 16;
    void *d = aligned_alloc(16, n);
    assert_non_null(d);
    col_support_data_init(d, h, flags);
    return d;
}

/* Scratch for any pair of hulls like these: grown on demand, poisoned when grown. */
static col_np_scratch g_scratch;

static col_np_scratch *scratch_for(const col_hull *a, const col_hull *b)
{
    size_t need = col_np_scratch_bytes(&col_np_sepvec, a, b);
    if (need > g_scratch.size) {
        free(g_scratch.mem);
        g_scratch.mem = malloc(need);
        assert_non_null(g_scratch.mem);
        memset(g_scratch.mem, 0xCD, need);
        g_scratch.size = need;
    }
    return &g_scratch;
}

typedef struct sv_pair_cache {
    _Alignas(16) unsigned char b[128];
} sv_pair_cache;

static col_np_result sv(void *cache, const col_hull *a, const void *da, const col_xform *xa, const col_hull *b,
                        const void *db, const col_xform *xb, const col_sepvec_options *opt, col_sepvec_info *info)
{
    col_np_result r;
    col_sepvec_query_ex(cache, a, da, xa, b, db, xb, scratch_for(a, b), opt, &r, info);
    return r;
}

static int oracle(const col_hull *a, const col_xform *xa, const col_hull *b, const col_xform *xb)
{
    col_vec3 *pa = malloc(sizeof *pa * (size_t)a->vertex_count), *pb = malloc(sizeof *pb * (size_t)b->vertex_count);
    for (int i = 0; i < a->vertex_count; i++) pa[i] = col_xform_point(xa, a->vertices[i]);
    for (int i = 0; i < b->vertex_count; i++) pb[i] = col_xform_point(xb, b->vertices[i]);
    int r = col_oracle_intersect(pa, a->vertex_count, pb, b->vertex_count);
    free(pa);
    free(pb);
    assert_true(r == 0 || r == 1);
    return r;
}

/* The certificate of an answer, re-checked in wider arithmetic:
 * separated: min_b axis.b - max_a axis.a >= gap over every world vertex;
 * colliding with a cached tetrahedron: the origin in the hull of the four q - p. */
static void check_certificate(const void *cache, const col_hull *a, const col_xform *xa, const col_hull *b,
                              const col_xform *xb, const col_np_result *r)
{
    if (!r->colliding) {
        wide hi = -1e300, lo = 1e300;
        col_vec3 n = r->axis;
        for (int i = 0; i < a->vertex_count; i++) {
            col_vec3 w = col_xform_point(xa, a->vertices[i]);
            wide t = (wide)n.x * w.x + (wide)n.y * w.y + (wide)n.z * w.z;
            if (t > hi) hi = t;
        }
        for (int i = 0; i < b->vertex_count; i++) {
            col_vec3 w = col_xform_point(xb, b->vertices[i]);
            wide t = (wide)n.x * w.x + (wide)n.y * w.y + (wide)n.z * w.z;
            if (t < lo) lo = t;
        }
        double len = col_len(n);
        assert_true(fabs(len - 1.0) < 1e-12);
        assert_true(r->gap >= 0.0);
        assert_true(lo - hi >= (wide)r->gap * (wide)len);
        return;
    }
    int wa[4], wb[4];
    if (cache == NULL || !col_sepvec_cache_certificate(cache, wa, wb)) return;
    wide m[4][3];
    for (int k = 0; k < 4; k++) {
        col_vec3 p = col_xform_point(xa, a->vertices[wa[k]]), q = col_xform_point(xb, b->vertices[wb[k]]);
        m[k][0] = (wide)q.x - p.x;
        m[k][1] = (wide)q.y - p.y;
        m[k][2] = (wide)q.z - p.z;
    }
    if (wa[0] == wa[1] && wa[1] == wa[2] && wa[2] == wa[3] && wb[0] == wb[1] && wb[1] == wb[2] && wb[2] == wb[3]) {
        assert_true(m[0][0] == 0 && m[0][1] == 0 && m[0][2] == 0); /* a shared vertex */
        return;
    }
#define DET(x, y, z)                                                                                         \
    ((x)[0] * ((y)[1] * (z)[2] - (y)[2] * (z)[1]) - (x)[1] * ((y)[0] * (z)[2] - (y)[2] * (z)[0]) +        \
     (x)[2] * ((y)[0] * (z)[1] - (y)[1] * (z)[0]))
    wide mu[4] = {DET(m[1], m[2], m[3]), -DET(m[0], m[2], m[3]), DET(m[0], m[1], m[3]), -DET(m[0], m[1], m[2])};
#undef DET
    int pos = 0, neg = 0;
    for (int k = 0; k < 4; k++) {
        pos += mu[k] > 0;
        neg += mu[k] < 0;
    }
    assert_true(pos == 4 || neg == 4);
}

/* ---- support queries ---- */

static double value(const col_hull *h, col_vec3 d, int v)
{
    return col_dot(d, h->vertices[v]);
}

/* A computed local maximum may differ from the computed global one by roundings only. */
static void assert_support(const col_hull *h, col_vec3 d, int v)
{
    double best = value(h, d, col_hull_support_scan(h, d));
    assert_true(v >= 0 && v < h->vertex_count);
    assert_true(value(h, d, v) >= best - 8 * DBL_EPSILON * col_len(d) * h->radius);
}

static col_vec3 test_dir(const col_hull *h, int i)
{
    /* every fourth a face normal or an axis (plateaus: whole faces tie), else random */
    switch (i % 8) {
    case 0: return h->planes[(int)(rng_next() % (uint64_t)h->face_count)].n;
    case 4: {
        col_vec3 e[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
        return e[rng_next() % 6];
    }
    default: return rand_unit();
    }
}

static void test_climb_equals_scan(void **state)
{
    (void)state;
    rng_seed(SEED, __func__);
    static const int sizes[] = {4, 8, 12, 20, 50, 150, 400, 1000};
    for (int kind = 0; kind < 4; kind++)
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            col_hull h;
            build_shape(&h, kind, sizes[si] < 4 ? 4 : sizes[si], 1.0);
            void *data = make_data(&h, kind % 2 ? COL_SUPPORT_TABLE_ALL : COL_SUPPORT_DEFAULT);
            for (int i = 0; i < 400; i++) {
                col_vec3 d = col_scale(test_dir(&h, i), urange(0.5, 2.0));
                int start = (int)(rng_next() % (uint64_t)h.vertex_count);
                assert_support(&h, d, col_support_climb(&h, d, start, NULL));
                assert_support(&h, d, col_support_find(&h, data, d, -1, NULL));
                assert_support(&h, d, col_support_find(&h, data, d, start, NULL));
                assert_support(&h, d, col_support_find(&h, NULL, d, start, NULL));
                const col_support_data *sd = data;
                if (sd->table_res > 0) {
                    int t = col_support_table_vertex(sd, d);
                    assert_true(t >= 0 && t < h.vertex_count);
                }
            }
            free(data);
            col_hull_free(&g_alloc, &h);
        }
}

static void test_dk_equals_scan(void **state)
{
    (void)state;
    rng_seed(SEED + 1, __func__);
    static const int sizes[] = {20, 60, 300, 1000};
    for (int kind = 0; kind < 4; kind++)
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            col_hull h;
            build_shape(&h, kind, sizes[si], 1.0);
            void *data = make_data(&h, COL_SUPPORT_DK_ALWAYS);
            const col_support_data *sd = data;
            if (h.vertex_count > COL_DK_TOP && kind != K_BOX) assert_int_not_equal(sd->dk_off, 0);
            if (sd->dk_off != 0) {
                const void *dk = (const unsigned char *)data + sd->dk_off;
                int levels = col_dk_levels(dk);
                assert_true(levels >= 1);
                for (int k = 2; k <= levels; k++) assert_true(col_dk_level_size(dk, k) < col_dk_level_size(dk, k - 1));
                assert_true(col_support_data_used(sd) <= col_support_data_bytes(&h, COL_SUPPORT_DK_ALWAYS));
                for (int i = 0; i < 400; i++) {
                    col_vec3 d = test_dir(&h, i);
                    assert_support(&h, d, col_support_find_dk(&h, sd, d, NULL));
                }
            }
            free(data);
            col_hull_free(&g_alloc, &h);
        }
}

/* The world moves shape data into a smaller block after init: the data must not hold
 * pointers into itself. */
static void test_data_relocatable(void **state)
{
    (void)state;
    rng_seed(SEED + 2, __func__);
    col_hull h;
    build_shape(&h, K_ELLIPSOID, 500, 1.0);
    void *data = make_data(&h, COL_SUPPORT_DK_ALWAYS);
    size_t used = col_support_data_used(data);
    void *moved = aligned_alloc(16, (used + 15) / 16 * 16);
    memcpy(moved, data, used);
    memset(data, 0xAB, col_support_data_bytes(&h, COL_SUPPORT_DK_ALWAYS));
    free(data);
    for (int i = 0; i < 200; i++) {
        col_vec3 d = rand_unit();
        assert_support(&h, d, col_support_find(&h, moved, d, -1, NULL));
        assert_support(&h, d, col_support_find_dk(&h, moved, d, NULL));
    }
    free(moved);
    col_hull_free(&g_alloc, &h);
}

/* ---- the spherical polygon and the tetrahedron predicate ---- */

static void test_sphere_poly(void **state)
{
    (void)state;
    col_vec3 v[16], tv[16], cons[8];
    int e[16], te[16];
    col_sphpoly p = {0, 16, v, e, tv, te};
    cons[0] = col_v3(0, 0, 1);
    cons[1] = col_v3(1, 0, 0);
    cons[2] = col_v3(0, 1, 0);
    cons[3] = col_scale(col_v3(-1, -1, -1), 1.0 / sqrt(3.0));
    int removed;
    col_vec3 w;
    assert_int_equal(col_sphpoly_clip(&p, cons[0], 0, &removed), COL_SPHPOLY_KEPT);
    assert_true(col_sphpoly_witness(&p, cons, &w) && w.z > 0.99);
    assert_int_equal(col_sphpoly_clip(&p, cons[1], 1, &removed), COL_SPHPOLY_KEPT); /* a lune */
    assert_true(col_sphpoly_witness(&p, cons, &w) && w.x > 0 && w.z > 0);
    assert_int_equal(col_sphpoly_clip(&p, cons[2], 2, &removed), COL_SPHPOLY_KEPT); /* an octant */
    assert_true(col_sphpoly_witness(&p, cons, &w) && w.x > 0 && w.y > 0 && w.z > 0);
    assert_int_equal(col_sphpoly_clip(&p, cons[0], 0, &removed), COL_SPHPOLY_KEPT); /* redundant */
    assert_int_equal(removed, 0);
    /* (-1,-1,-1) leaves nothing of the octant: the four constraints hold the origin */
    assert_int_equal(col_sphpoly_clip(&p, cons[3], 3, &removed), COL_SPHPOLY_EMPTY);
    int t[4];
    assert_true(col_sphpoly_certify(&p, cons, 3, t));
    assert_true(col_origin_in_tetra(cons[0], cons[1], cons[2], cons[3]));
    /* the origin on a face of the tetrahedron is not proven; outside is rejected */
    assert_false(col_origin_in_tetra(col_v3(1, 0, 0), col_v3(-1, 0, 0), col_v3(0, 1, 0), col_v3(0, 0, 1)));
    assert_false(col_origin_in_tetra(col_v3(1, 0, 0), col_v3(0, 1, 0), col_v3(0, 0, 1), col_v3(1, 1, 1)));
}

/* ---- lemmas 3 and 4 ---- */

/* Pure reflection (no grazing switch, no reflection cap) on random near-touching pairs:
 * the paper's own search. Lemma 3 (a pair repeated in consecutive steps means S now
 * separates) and lemma 4 (an earlier repeat restarts from the hemisphere witness) must
 * both occur, and every answer must match the exact oracle. */
static void test_lemma_paths(void **state)
{
    (void)state;
    rng_seed(SEED + 3, __func__);
    col_sepvec_options opt = {.graze = 1e-300, .reflect_max = 1 << 30};
    long lemma3 = 0, lemma4 = 0, checked = 0;
    enum { NSH = 8 };
    col_hull sh[NSH];
    void *data[NSH];
    for (int i = 0; i < NSH; i++) {
        build_shape(&sh[i], i % 4, 12 + (int)(rng_next() % 200), 1.0);
        data[i] = make_data(&sh[i], COL_SUPPORT_DEFAULT);
    }
    for (int it = 0; it < 4000; it++) {
        int ia = (int)(rng_next() % NSH), ib = (int)(rng_next() % NSH);
        col_xform xa = pose(col_v3(0, 0, 0), rand_quat()), xb = pose(col_v3(0, 0, 0), rand_quat());
        col_vec3 u = rand_unit();
        int pa = col_hull_support_scan(&sh[ia], col_mat3_tmul(&xa.R, u));
        int pb = col_hull_support_scan(&sh[ib], col_neg(col_mat3_tmul(&xb.R, u)));
        double g = (urand() < 0.5 ? -1 : 1) * pow(10.0, urange(-7, -1));
        xb.p = col_add(col_sub(col_xform_point(&xa, sh[ia].vertices[pa]), col_xform_point(&xb, sh[ib].vertices[pb])),
                       col_scale(u, g));
        sv_pair_cache c;
        col_np_sepvec.cache_init(c.b, &sh[ia], &sh[ib]);
        col_sepvec_info info;
        col_np_result r = sv(c.b, &sh[ia], data[ia], &xa, &sh[ib], data[ib], &xb, &opt, &info);
        lemma3 += info.lemma3;
        lemma4 += info.lemma4;
        if (info.lemma3 || info.lemma4 || it % 16 == 0) {
            assert_int_equal(r.colliding, oracle(&sh[ia], &xa, &sh[ib], &xb));
            check_certificate(c.b, &sh[ia], &xa, &sh[ib], &xb, &r);
            checked++;
        }
    }
    print_message("lemma paths: %ld answers on a consecutive repeat (lemma 3), %ld earlier repeats (lemma 4), "
                  "%ld checked with the oracle\n",
                  lemma3, lemma4, checked);
    assert_true(lemma3 > 0);
    assert_true(lemma4 > 0);
    for (int i = 0; i < NSH; i++) {
        free(data[i]);
        col_hull_free(&g_alloc, &sh[i]);
    }
}

/* ---- coherent fly-bys under the measurement options (docs/sepvec.md, "Repeats") ---- */

static col_quat turn(col_quat q, col_vec3 w)
{
    double a = col_len(w);
    if (a == 0.0) return q;
    col_vec3 u = col_scale(w, sin(a / 2) / a);
    col_quat d = {u.x, u.y, u.z, cos(a / 2)};
    col_quat r = col_quat_mul(d, q);
    double n = sqrt(r.x * r.x + r.y * r.y + r.z * r.z + r.w * r.w);
    col_quat out = {r.x / n, r.y / n, r.z / n, r.w / n};
    return out;
}

/* B flies through or past A, both spinning, each frame one query with the pair's cache, so
 * that pairs go from separated to colliding and back: last frame's tetrahedron seeds the
 * polygon and the seeded pairs come back in the search. Every answer is checked against
 * the exact LP oracle and its certificate in wider arithmetic, under the default and under
 * each option sepvec-stats measures (seed_reflect, no_seed, dir_frame_a), which must
 * change the steps only, never an answer. */
static void test_coherent_options(void **state)
{
    (void)state;
    rng_seed(SEED + 7, __func__);
    enum { NSH = 6, PASSES = 80, FRAMES = 40, NOPT = 4 };
    col_sepvec_options opts[NOPT];
    memset(opts, 0, sizeof opts);
    opts[1].seed_reflect = 1;
    opts[2].no_seed = 1;
    opts[3].dir_frame_a = 1;
    static const char *const names[NOPT] = {"default", "seed_reflect", "no_seed", "dir_frame_a"};
    col_hull sh[NSH];
    void *data[NSH];
    for (int i = 0; i < NSH; i++) {
        build_shape(&sh[i], i % 4, 10 + (int)(rng_next() % 30), 1.0);
        data[i] = make_data(&sh[i], COL_SUPPORT_DEFAULT);
    }
    long seeded[NOPT] = {0}, reflected[NOPT] = {0}, queries[NOPT] = {0}, colliding[NOPT] = {0}, started[NOPT] = {0};
    for (int pass = 0; pass < PASSES; pass++) {
        int ia = (int)(rng_next() % NSH), ib = (int)(rng_next() % NSH);
        double R = sh[ia].radius + sh[ib].radius;
        col_vec3 start = col_scale(rand_unit(), 1.2 * R), target = col_scale(rand_unit(), urange(0.0, 0.6) * R);
        col_vec3 v = col_scale(col_sub(target, start), 2.0 / FRAMES);
        col_quat qa0 = rand_quat(), qb0 = rand_quat();
        col_vec3 wa = col_scale(rand_unit(), urange(0.0, 0.2)), wb = col_scale(rand_unit(), urange(0.0, 0.2));
        for (int o = 0; o < NOPT; o++) {
            sv_pair_cache c;
            col_np_sepvec.cache_init(c.b, &sh[ia], &sh[ib]);
            col_quat qa = qa0, qb = qb0;
            col_vec3 p = start;
            for (int f = 0; f < FRAMES; f++) {
                col_xform xa = pose(col_v3(0, 0, 0), qa), xb = pose(p, qb);
                col_sepvec_info info;
                col_np_result r = sv(c.b, &sh[ia], data[ia], &xa, &sh[ib], data[ib], &xb, &opts[o], &info);
                assert_int_equal(r.colliding, oracle(&sh[ia], &xa, &sh[ib], &xb));
                check_certificate(c.b, &sh[ia], &xa, &sh[ib], &xb, &r);
                queries[o]++;
                colliding[o] += r.colliding;
                seeded[o] += info.seed_repeats;
                reflected[o] += info.seed_hits;
                started[o] += info.seed_start;
                p = col_add(p, v);
                qa = turn(qa, wa);
                qb = turn(qb, wb);
            }
        }
    }
    for (int o = 0; o < NOPT; o++)
        print_message("coherent fly-bys, %s: %ld queries, %ld colliding, %ld seeded pairs met again (lemma 4), "
                      "%ld reflected on, %ld started at the seeds' witness\n",
                      names[o], queries[o], colliding[o], seeded[o], reflected[o], started[o]);
    /* the paths these options switch were taken */
    assert_true(seeded[0] > 0);
    assert_true(reflected[1] > 0 && seeded[1] == 0);
    assert_true(seeded[2] == 0 && reflected[2] == 0 && started[2] == 0);
    assert_true(started[0] > 0);
    for (int o = 0; o < NOPT; o++) assert_true(colliding[o] > queries[o] / 10 && colliding[o] < queries[o] * 9 / 10);
    for (int i = 0; i < NSH; i++) {
        free(data[i]);
        col_hull_free(&g_alloc, &sh[i]);
    }
}

/* ---- identical bodies ---- */

static void test_identical(void **state)
{
    (void)state;
    rng_seed(SEED + 4, __func__);
    for (int kind = 0; kind < 4; kind++) {
        col_hull a, b;
        uint64_t keep = rng_state;
        build_shape(&a, kind, 60, 1.0);
        rng_reseed(keep);
        build_shape(&b, kind, 60, 1.0); /* the same points: an equal hull, another object */
        void *da = make_data(&a, COL_SUPPORT_DEFAULT);
        for (int t = 0; t < 20; t++) {
            col_xform x = pose(col_scale(rand_unit(), urange(0, 1e3)), rand_quat());
            sv_pair_cache c;
            col_np_sepvec.cache_init(c.b, &a, &a);
            col_sepvec_info info;
            col_np_result r = sv(c.b, &a, da, &x, &a, da, &x, NULL, &info);
            assert_true(r.colliding);
            assert_int_equal(info.outcome, COL_SV_IDENTICAL);
            col_np_sepvec.cache_init(c.b, &a, &b);
            for (int rep = 0; rep < 2; rep++) { /* cold, then warm */
                r = sv(c.b, &a, da, &x, &b, NULL, &x, NULL, &info);
                assert_true(r.colliding);
                assert_int_equal(info.fallback, 0);
                check_certificate(c.b, &a, &x, &b, &x, &r);
            }
            r = sv(NULL, &b, NULL, &x, &a, da, &x, NULL, &info);
            assert_true(r.colliding);
        }
        free(da);
        col_hull_free(&g_alloc, &a);
        col_hull_free(&g_alloc, &b);
    }
}

/* ---- small hulls: scanned, never climbed ---- */

/* Hulls of up to 32 vertices (sepvec.c's SV_SCAN_MAX) are scanned at every step, and the
 * search then certifies their gaps without the support tree's proof, which is sound only
 * because a scan's maximum is exact. So the answers must not depend on the hull's graph:
 * here every vertex's neighbours are itself (a climb never moves), and warm queries, whose
 * cached vertices are stale after a random turn, must still agree with the exact LP oracle
 * and carry true certificates. Climbing these hulls from the cache without the proof gives
 * false "separated" answers here (checked by making sv_support climb above 16 vertices). */
static void test_small_hull_graph_free(void **state)
{
    (void)state;
    rng_seed(SEED + 9, __func__);
    long hits = 0, total = 0;
    for (int n = 17; n <= 32; n++) {
        col_hull h;
        build_shape(&h, n % 3, n, 1.0); /* ellipsoid, rod or plate */
        for (int v = 0; v < h.vertex_count; v++)
            for (int k = h.adj_first[v]; k < h.adj_first[v + 1]; k++) h.adj[k] = v;
        void *d = make_data(&h, COL_SUPPORT_DEFAULT);
        for (int t = 0; t < 40; t++) {
            sv_pair_cache c;
            col_np_sepvec.cache_init(c.b, &h, &h);
            col_vec3 u = rand_unit();
            col_xform xa = pose(col_v3(0, 0, 0), rand_quat()), xb = pose(col_scale(u, 3.0), rand_quat());
            col_np_result r = sv(c.b, &h, d, &xa, &h, d, &xb, NULL, NULL);
            assert_false(r.colliding);
            /* A turned, B moved nearer: the cached vertices are no longer the supports. */
            xa = pose(col_v3(0, 0, 0), rand_quat());
            xb = pose(col_scale(u, urange(0.3, 1.6)), rand_quat());
            r = sv(c.b, &h, d, &xa, &h, d, &xb, NULL, NULL);
            assert_int_equal(r.colliding, oracle(&h, &xa, &h, &xb));
            check_certificate(c.b, &h, &xa, &h, &xb, &r);
            hits += r.colliding;
            total++;
        }
        free(d);
        col_hull_free(&g_alloc, &h);
    }
    print_message("  %ld warm queries on graph-free hulls of 17 .. 32 vertices, %ld colliding\n", total, hits);
    assert_true(hits > total * 3 / 10 && hits < total * 7 / 10);
}

/* ---- grazing ---- */

/* A plate resting on a box's top face with one vertex, at signed gaps of 1e-11 .. 1e-8 of
 * their size (scales 1e-3 .. 1e3): the reflection grazes (r nearly perpendicular to S),
 * so the search must leave it (Hornus steps, a full projection or the reference) and
 * still answer exactly. The vertex sits well inside the face, so the gap is the true
 * signed distance; then a warm query after a hair's move, checked wherever the oracle's
 * margin is beyond rounding (1e-12 x size). */
static void test_grazing_exact(void **state)
{
    (void)state;
    rng_seed(SEED + 5, __func__);
    long switched = 0, fallbacks = 0, nq = 0;
    static const double scales[] = {1e-3, 1.0, 1e3};
    for (int si = 0; si < 3; si++) {
        double sc = scales[si];
        col_hull a, b;
        build_shape(&a, K_BOX, 8, sc);
        build_shape(&b, K_PLATE, 40, sc);
        void *da = make_data(&a, COL_SUPPORT_DEFAULT), *db = make_data(&b, COL_SUPPORT_DEFAULT);
        for (int t = 0; t < 120; t++) {
            col_xform xa = pose(col_scale(rand_unit(), urange(0, 3) * sc), rand_quat());
            col_vec3 up = col_mat3_mul(&xa.R, col_v3(0, 0, 1));
            double fu = urange(-0.8, 0.8);
            double fv = urange(-0.8, 0.8);
            col_vec3 top = col_xform_point(&xa, col_v3(fu * axes[K_BOX][0] * sc, fv * axes[K_BOX][1] * sc, axes[K_BOX][2] * sc));
            col_xform xb = pose(col_v3(0, 0, 0), rand_quat());
            int pb = col_hull_support_scan(&b, col_neg(col_mat3_tmul(&xb.R, up)));
            double g = (t % 2 ? 1.0 : -1.0) * pow(10.0, urange(-11, -8)) * sc;
            xb.p = col_add(col_sub(top, col_xform_point(&xb, b.vertices[pb])), col_scale(up, g));
            sv_pair_cache c;
            col_np_sepvec.cache_init(c.b, &a, &b);
            col_sepvec_info info;
            col_np_result r = sv(c.b, &a, da, &xa, &b, db, &xb, NULL, &info);
            switched += info.mode_switch != 0;
            fallbacks += info.fallback != 0 || info.full_projections > 0;
            assert_int_equal(r.colliding, g < 0);
            assert_int_equal(r.colliding, oracle(&a, &xa, &b, &xb));
            check_certificate(c.b, &a, &xa, &b, &xb, &r);
            /* warm, after a hair's move along the face normal (the sign may flip) */
            xb.p = col_add(xb.p, col_scale(up, -g * urange(0.0, 2.0)));
            r = sv(c.b, &a, da, &xa, &b, db, &xb, NULL, &info);
            switched += info.mode_switch != 0;
            fallbacks += info.fallback != 0 || info.full_projections > 0;
            check_certificate(c.b, &a, &xa, &b, &xb, &r);
            col_vec3 pa[8], pw[64];
            for (int i = 0; i < a.vertex_count; i++) pa[i] = col_xform_point(&xa, a.vertices[i]);
            for (int i = 0; i < b.vertex_count && i < 64; i++) pw[i] = col_xform_point(&xb, b.vertices[i]);
            double margin = col_oracle_margin(pa, a.vertex_count, pw, b.vertex_count < 64 ? b.vertex_count : 64);
            if (fabs(margin) > 1e-12 * sc) assert_int_equal(r.colliding, margin < 0);
            nq += 2;
        }
        free(da);
        free(db);
        col_hull_free(&g_alloc, &a);
        col_hull_free(&g_alloc, &b);
    }
    print_message("grazing: %ld queries, %ld left the reflection for Hornus steps, %ld decided by a full "
                  "projection or the reference\n",
                  nq, switched, fallbacks);
    assert_true(switched + fallbacks > 0);
}

/* ---- certificates on random pairs, both answers, cold and warm ---- */

static void test_certificates(void **state)
{
    (void)state;
    rng_seed(SEED + 6, __func__);
    long sep = 0, col = 0, tetra = 0;
    for (int it = 0; it < 600; it++) {
        col_hull a, b;
        build_shape(&a, (int)(rng_next() % 4), 8 + (int)(rng_next() % 300), 1.0);
        build_shape(&b, (int)(rng_next() % 4), 8 + (int)(rng_next() % 300), 1.0);
        void *da = make_data(&a, COL_SUPPORT_DEFAULT), *db = make_data(&b, COL_SUPPORT_DEFAULT);
        col_xform xa = pose(col_v3(0, 0, 0), rand_quat());
        col_vec3 p = col_scale(rand_unit(), urange(0.0, 2.2));
        col_quat qb = rand_quat();
        col_vec3 v = col_scale(rand_unit(), 0.02);
        sv_pair_cache c;
        col_np_sepvec.cache_init(c.b, &a, &b);
        for (int f = 0; f < 6; f++) {
            col_xform xb = pose(col_add(p, col_scale(v, f)), qb);
            col_sepvec_info info;
            col_np_result r = sv(c.b, &a, da, &xa, &b, db, &xb, NULL, &info);
            check_certificate(c.b, &a, &xa, &b, &xb, &r);
            if (f == 0 || f == 5) assert_int_equal(r.colliding, oracle(&a, &xa, &b, &xb));
            sep += !r.colliding;
            col += r.colliding;
            tetra += info.outcome == COL_SV_TETRA || info.outcome == COL_SV_WARM_TETRA;
        }
        free(da);
        free(db);
        col_hull_free(&g_alloc, &a);
        col_hull_free(&g_alloc, &b);
    }
    print_message("certificates: %ld separated, %ld colliding (%ld by a tetrahedron)\n", sep, col, tetra);
    assert_true(sep > 0 && col > 0 && tetra > 0);
}

/* ---- the scratch contract ---- */

static void test_scratch(void **state)
{
    (void)state;
    rng_seed(SEED + 7, __func__);
    col_hull h[6];
    for (int i = 0; i < 6; i++) build_shape(&h[i], i % 4, 4 + i * 150, 1.0 + i);
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
            /* backend.h's scratch rule: covered by the maximum counts' need */
            size_t ab = col_np_scratch_bytes(&col_np_sepvec, &h[i], &h[j]);
            col_np_counts m = col_np_counts_max(col_np_counts_of(&h[i]), col_np_counts_of(&h[j]));
            assert_true(ab <= col_np_sepvec.scratch_need(m, m));
            /* room for the reference fallback after sepvec's own work area */
            assert_true(ab > col_np_scratch_bytes(&col_np_reference, &h[i], &h[j]));
        }
    /* a scratch another backend just used (its data where our visited table lies) */
    col_xform xa = pose(col_v3(0, 0, 0), rand_quat()), xb = pose(col_v3(0.5, 0, 0), rand_quat());
    size_t n = col_np_scratch_bytes(&col_np_sepvec, &h[5], &h[5]);
    col_np_scratch s = {malloc(n), n};
    for (int rep = 0; rep < 3; rep++) {
        col_np_result rr, rs;
        col_np_reference.query(NULL, &h[4], NULL, &xa, &h[5], NULL, &xb, &s, &rr);
        col_sepvec_query_ex(NULL, &h[4], NULL, &xa, &h[5], NULL, &xb, &s, NULL, &rs, NULL);
        assert_int_equal(rr.colliding, rs.colliding);
        memset(s.mem, rep == 0 ? 0xFF : 0x00, n);
    }
    free(s.mem);
    for (int i = 0; i < 6; i++) col_hull_free(&g_alloc, &h[i]);
}

static void test_registry(void **state)
{
    (void)state;
    assert_ptr_equal(col_np_backend_get(COL_BACKEND_DEFAULT), &col_np_sepvec);
    assert_ptr_equal(col_np_backend_get(COL_BACKEND_SEPVEC), &col_np_sepvec);
    assert_non_null(col_np_sepvec.shape_data_bytes);
    assert_non_null(col_np_sepvec.shape_data_init);
    assert_null(col_np_reference.shape_data_bytes);
    assert_string_equal(col_backend_name(COL_BACKEND_SEPVEC), "sepvec");
}

/* ---- the agreement harness ---- */

/* sepvec with per-shape data (direction tables, hill climbing from them), as the world
 * runs it: the data is built for every query here (tests only). */
static void shaped_query(void *cache, const col_hull *a, const void *da0, const col_xform *xa, const col_hull *b,
                         const void *db0, const col_xform *xb, col_np_scratch *scratch, col_np_result *out)
{
    (void)da0;
    (void)db0;
    void *da = make_data(a, COL_SUPPORT_DEFAULT), *db = make_data(b, COL_SUPPORT_DEFAULT);
    col_np_sepvec.query(cache, a, da, xa, b, db, xb, scratch, out);
    free(da);
    free(db);
}

static void run_agreement(const col_np_backend *be, uint64_t seed)
{
    col_agreement_stats st;
    long n = (long)(AGREEMENT_PAIRS * col_agreement_scale());
    if (n < 200) n = 200;
    long failures = col_agreement_run(be, seed, n, &st);
    assert_int_equal(failures, 0);
    double hit = (double)st.hits / (double)st.pairs;
    print_message("agreement: hit rate %.1f %%\n", 100.0 * hit);
    assert_true(hit >= 0.30 && hit <= 0.70);
}

static void test_agreement(void **state)
{
    (void)state;
    run_agreement(&col_np_sepvec, SEED);
}

static void test_agreement_shaped(void **state)
{
    (void)state;
    col_np_backend be = col_np_sepvec;
    be.query = shaped_query;
    run_agreement(&be, SEED ^ UINT64_C(0xda7a));
}

static int setup(void **state)
{
    (void)state;
    col_alloc_init(&g_alloc, NULL);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    free(g_scratch.mem);
    g_scratch.mem = NULL;
    g_scratch.size = 0;
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_climb_equals_scan),
        cmocka_unit_test(test_dk_equals_scan),
        cmocka_unit_test(test_data_relocatable),
        cmocka_unit_test(test_sphere_poly),
        cmocka_unit_test(test_lemma_paths),
        cmocka_unit_test(test_coherent_options),
        cmocka_unit_test(test_identical),
        cmocka_unit_test(test_small_hull_graph_free),
        cmocka_unit_test(test_grazing_exact),
        cmocka_unit_test(test_certificates),
        cmocka_unit_test(test_scratch),
        cmocka_unit_test(test_agreement),
        cmocka_unit_test(test_agreement_shaped),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
