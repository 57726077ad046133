/* SPDX-License-Identifier: MIT */
/* The narrow-phase scratch is large enough for every pair (narrowphase/backend.h's scratch
 * rule).
 *
 * A backend's need for a pair can exceed its need for either shape with itself (the
 * reference keeps four doubles per face of B but three per face of A), so sizing the
 * world's scratch from single shapes is not enough. This test searches a family of
 * shapes like the suites' (n-gon prisms, pyramids and bipyramids, random points on a
 * sphere) for the pair of each backend whose need exceeds most what a per-shape sizing
 * would reserve (the largest self-need rounded up to a power of two of at least 4096,
 * the world's rule until this test), and then
 * - checks that every worker's scratch in a world holding the pair covers it, in both
 *   orders, also for shapes created after bodies exist and under failed allocations;
 * - runs the pair through col_world_update (every pair order, colliding, touching and
 *   separated poses; no update may grow the scratch), col_query_overlap with every
 *   backend, col_distance and col_contact, so that AddressSanitizer sees any write past
 *   the world's buffer;
 * - runs each backend's query in a buffer of exactly the bytes it asks for, at several
 *   alignments of its start (the end is the allocation's end, so ASan sees one byte
 *   more), and the voronoi backend's exact fallback and contact builder the same way;
 * - checks the rule itself: each need grows with every count, and the backends that
 *   fall back to the reference ask for at least the reference's need. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colibri/colibri.h"
#include "colibri/query.h"
#include "lib/core/alloc.h"
#include "lib/world.h"
#include "narrowphase/backend.h"
#include "narrowphase/voronoi.h"
#include "narrowphase/voronoi_contact.h"
#include "tests/test_util.h"

#define TWO_PI 6.283185307179586

static const col_backend k_backends[] = {COL_BACKEND_REFERENCE, COL_BACKEND_SEPVEC, COL_BACKEND_VORONOI,
                                         COL_BACKEND_LPIP};
#define NBACKENDS ((int)(sizeof k_backends / sizeof k_backends[0]))

/* ---- the shape family ---- */

enum { PRISM, PYRAMID, BIPYRAMID, SPHERE, KINDS };
static const char *const k_kind_name[KINDS] = {"prism", "pyramid", "bipyramid", "sphere"};

typedef struct fam_shape {
    int kind, n;       /* n-gon, or n points on the sphere */
    col_vec3 *pts;
    int npts;
    col_hull hull;
} fam_shape;

#define FAM_MAX 220
static fam_shape g_fam[FAM_MAX];
static int g_fam_count;
static col_alloc g_alloc;

/* Every backend's two worst ordered pairs of the family (search_pairs) and the first
 * measure of the first, all found by fam_setup. */
typedef struct worst_pairs {
    int pair[2][2];
} worst_pairs;
static worst_pairs g_worst[NBACKENDS];
static long long g_overshoot[NBACKENDS];

static int fam_points(int kind, int n, col_vec3 *p)
{
    int k = 0;
    switch (kind) {
    case PRISM:
        for (int i = 0; i < n; i++) {
            double t = TWO_PI * i / n;
            p[k++] = col_vec3_make(cos(t), sin(t), -0.5);
            p[k++] = col_vec3_make(cos(t), sin(t), 0.5);
        }
        break;
    case PYRAMID:
        for (int i = 0; i < n; i++) {
            double t = TWO_PI * i / n;
            p[k++] = col_vec3_make(cos(t), sin(t), -0.5);
        }
        p[k++] = col_vec3_make(0.0, 0.0, 0.7);
        break;
    case BIPYRAMID:
        for (int i = 0; i < n; i++) {
            double t = TWO_PI * i / n;
            p[k++] = col_vec3_make(cos(t), sin(t), 0.0);
        }
        p[k++] = col_vec3_make(0.0, 0.0, 1.0);
        p[k++] = col_vec3_make(0.0, 0.0, -1.0);
        break;
    default: /* points in general position on the unit sphere */
        while (k < n) {
            double x = urange(-1, 1), y = urange(-1, 1), z = urange(-1, 1);
            double r2 = x * x + y * y + z * z;
            if (r2 < 1e-2 || r2 > 1) continue;
            double r = sqrt(r2);
            p[k++] = col_vec3_make(x / r, y / r, z / r);
        }
        break;
    }
    return k;
}

static void fam_add(int kind, int n)
{
    assert_true(g_fam_count < FAM_MAX);
    fam_shape *s = &g_fam[g_fam_count];
    s->kind = kind;
    s->n = n;
    s->pts = malloc(sizeof(col_vec3) * (size_t)(2 * n + 2));
    assert_non_null(s->pts);
    s->npts = fam_points(kind, n, s->pts);
    char err[200];
    assert_int_equal(col_hull_build(&g_alloc, s->pts, s->npts, &s->hull, err, sizeof err), COL_OK);
    g_fam_count++;
}

static long long search_pairs(const col_np_backend *be, worst_pairs *wp);

static int fam_setup(void **state)
{
    (void)state;
    col_alloc_init(&g_alloc, NULL);
    rng_seed(0x5c7a7c4, "scratch family");
    for (int n = 3; n <= 48; n++) {
        fam_add(PRISM, n);
        fam_add(PYRAMID, n);
        fam_add(BIPYRAMID, n);
    }
    for (int n = 4; n <= 64; n++) fam_add(SPHERE, n);
    for (int e = 0; e < NBACKENDS; e++) g_overshoot[e] = search_pairs(col_np_backend_get(k_backends[e]), &g_worst[e]);
    return 0;
}

static int fam_teardown(void **state)
{
    (void)state;
    for (int i = 0; i < g_fam_count; i++) {
        col_hull_free(&g_alloc, &g_fam[i].hull);
        free(g_fam[i].pts);
    }
    g_fam_count = 0;
    return 0;
}

/* ---- needs and the search ---- */

static size_t need(const col_np_backend *be, const col_hull *a, const col_hull *b)
{
    return col_np_scratch_bytes(be, a, b);
}

/* What sizing from single shapes reserves for a and b: the larger self-need, rounded up
 * to 4096 times a power of two. */
static size_t per_shape_sizing(const col_np_backend *be, const col_hull *a, const col_hull *b)
{
    size_t na = need(be, a, a), nb = need(be, b, b), m = na > nb ? na : nb, r = 4096;
    while (r < m) r *= 2;
    return r;
}

/* The worst ordered pairs of the family for be, by two measures: pair[0] has the largest
 * need(a, b) - per_shape_sizing(a, b), pair[1] the largest need(a, b) - max(need(a, a),
 * need(b, b)) (the excess over any sizing from single shapes, before rounding). Returns
 * the first measure of pair[0]. */

static void print_pair(const col_np_backend *be, const char *what, int i, int j)
{
    const fam_shape *a = &g_fam[i], *b = &g_fam[j];
    print_message("%s: %s: %s(%d) [V %d F %d E %d] x %s(%d) [V %d F %d E %d] needs %zu; self-needs %zu, %zu; "
                  "per-shape sizing %zu\n",
                  be->name, what, k_kind_name[a->kind], a->n, a->hull.vertex_count, a->hull.face_count,
                  a->hull.edge_count, k_kind_name[b->kind], b->n, b->hull.vertex_count, b->hull.face_count,
                  b->hull.edge_count, need(be, &a->hull, &b->hull), need(be, &a->hull, &a->hull),
                  need(be, &b->hull, &b->hull), per_shape_sizing(be, &a->hull, &b->hull));
}

static long long search_pairs(const col_np_backend *be, worst_pairs *wp)
{
    long long best[2] = {LLONG_MIN, LLONG_MIN};
    for (int i = 0; i < g_fam_count; i++)
        for (int j = 0; j < g_fam_count; j++) {
            const col_hull *a = &g_fam[i].hull, *b = &g_fam[j].hull;
            long long ab = (long long)need(be, a, b), aa = (long long)need(be, a, a), bb = (long long)need(be, b, b);
            long long d[2] = {ab - (long long)per_shape_sizing(be, a, b), ab - (aa > bb ? aa : bb)};
            for (int k = 0; k < 2; k++)
                if (d[k] > best[k]) {
                    best[k] = d[k];
                    wp->pair[k][0] = i;
                    wp->pair[k][1] = j;
                }
        }
    print_pair(be, "worst against per-shape sizing", wp->pair[0][0], wp->pair[0][1]);
    print_pair(be, "worst against single-shape needs", wp->pair[1][0], wp->pair[1][1]);
    return best[0];
}

/* ---- world helpers ---- */

static col_world *world_of(col_backend kind, counting_alloc *ca)
{
    col_world_def def = col_default_world_def();
    def.backend = kind;
    def.worker_count = 2;
    if (ca != NULL) def.allocator = counting_hooks(ca);
    col_world *w = NULL;
    assert_int_equal(col_world_create(&def, &w), COL_OK);
    return w;
}

static col_shape_id world_shape(col_world *w, const fam_shape *s)
{
    col_shape_id id;
    assert_int_equal(col_shape_create_convex(w, s->pts, s->npts, &id), COL_OK);
    col_shape_info info;
    assert_int_equal(col_shape_get_info(w, id, &info), COL_OK);
    assert_int_equal(info.vertex_count, s->hull.vertex_count);
    assert_int_equal(info.face_count, s->hull.face_count);
    assert_int_equal(info.edge_count, s->hull.edge_count);
    return id;
}

static col_body_id world_body(col_world *w, col_shape_id s)
{
    col_body_def d = col_default_body_def();
    d.shape = s;
    col_body_id id;
    assert_int_equal(col_body_create(w, &d, &id), COL_OK);
    return id;
}

/* Every worker's scratch covers the world's backend on every ordered pair of its live
 * shapes (the check the heap overflow fails). */
static void check_world_scratch(const col_world *w)
{
    for (int i = 0; i < w->shape_cap; i++) {
        if (!col_id_pool_check(&w->shape_ids, (uint32_t)i + 1, w->shape_ids.generation[i])) continue;
        for (int j = 0; j < w->shape_cap; j++) {
            if (!col_id_pool_check(&w->shape_ids, (uint32_t)j + 1, w->shape_ids.generation[j])) continue;
            size_t n = need(w->backend, &w->shapes[i].geom->pieces[0].hull, &w->shapes[j].geom->pieces[0].hull);
            for (int k = 0; k < w->worker_count; k++) {
                if (w->workers[k].scratch.size < n)
                    fail_msg("%s: worker %d has %zu bytes of scratch, shapes %d and %d need %zu", w->backend->name, k,
                             w->workers[k].scratch.size, i, j, n);
            }
        }
    }
}

/* Poses that make the pair collide deeply, touch, and miss, with random rotations. */
static void pose_of(int config, const col_hull *ha, const col_hull *hb, col_transform *pa, col_transform *pb)
{
    *pa = col_transform_identity();
    *pb = col_transform_identity();
    if (config == 0) return;                      /* same pose: deep overlap */
    if (config == 1) {                            /* face to face along x, touching */
        pb->p.x = ha->aabb_max.x - hb->aabb_min.x;
        return;
    }
    pa->q = random_quat();
    pb->q = random_quat();
    double reach = ha->radius + hb->radius;
    col_vec3 d = col_vec3_make(gauss(), gauss(), gauss());
    double l = sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
    double r = urange(0.0, 1.2) * reach / (l > 0 ? l : 1);
    pb->p = col_vec3_make(r * d.x, r * d.y, r * d.z);
}

#define CONFIGS 24

/* The pair through the world (all four ordered pairs of shapes among four bodies) and
 * through every one-off query. */
static void run_pair_in_world(col_world *w, col_shape_id sa, col_shape_id sb, const col_hull *ha, const col_hull *hb)
{
    col_body_id b[4] = {world_body(w, sa), world_body(w, sb), world_body(w, sa), world_body(w, sb)};
    check_world_scratch(w);
    for (int c = 0; c < CONFIGS; c++) {
        col_transform pa, pb;
        pose_of(c, ha, hb, &pa, &pb);
        for (int k = 0; k < 4; k++) assert_int_equal(col_body_set_pose(w, b[k], k % 2 == 0 ? pa : pb), COL_OK);
        col_np_scratch before[COL_MAX_WORKERS];
        for (int k = 0; k < w->worker_count; k++) before[k] = w->workers[k].scratch;
        assert_int_equal(col_world_update(w), COL_OK);
        for (int k = 0; k < w->worker_count; k++) { /* the frame never grows scratch */
            assert_ptr_equal(w->workers[k].scratch.mem, before[k].mem);
            assert_true(w->workers[k].scratch.size == before[k].size);
        }
        for (int e = 0; e < NBACKENDS; e++) {
            bool hit1, hit2;
            assert_int_equal(col_query_overlap(w, sa, pa, sb, pb, k_backends[e], &hit1), COL_OK);
            assert_int_equal(col_query_overlap(w, sb, pb, sa, pa, k_backends[e], &hit2), COL_OK);
            assert_true(hit1 == hit2);
        }
        col_distance_input di = {sa, sb, pa, pb};
        col_distance_output dout;
        assert_int_equal(col_distance(w, &di, NULL, &dout), COL_OK);
        col_contact_input ci = {sa, sb, pa, pb, 0.1};
        col_contact_output cout;
        assert_int_equal(col_contact(w, &ci, NULL, &cout), COL_OK);
    }
    for (int k = 0; k < 4; k++) assert_int_equal(col_body_destroy(w, b[k]), COL_OK);
    assert_int_equal(col_world_update(w), COL_OK);
}

/* ---- the tests ---- */

/* The search finds, for the reference backend, a pair that a per-shape sizing does not
 * cover (the defect class this file guards against), and the world covers each
 * backend's worst pair in both orders and runs it cleanly. */
static void test_world_covers_worst_pairs(void **state)
{
    (void)state;
    rng_seed(0x5c7a7c6, "scratch world poses");
    assert_true(g_overshoot[0] > 0); /* k_backends[0] is the reference */
    for (int e = 0; e < NBACKENDS; e++) {
        /* Every backend's worst pairs: a fallback may need what another backend does. */
        for (int p = 0; p < NBACKENDS; p++)
            for (int k = 0; k < 2; k++) {
                const fam_shape *a = &g_fam[g_worst[p].pair[k][0]], *b = &g_fam[g_worst[p].pair[k][1]];
                col_world *w = world_of(k_backends[e], NULL);
                col_shape_id sa = world_shape(w, a), sb = world_shape(w, b);
                run_pair_in_world(w, sa, sb, &a->hull, &b->hull);
                col_world_destroy(w);
            }
        /* A world holding the whole family covers every ordered pair of it. */
        col_world *w = world_of(k_backends[e], NULL);
        for (int i = 0; i < g_fam_count; i++) world_shape(w, &g_fam[i]);
        check_world_scratch(w);
        col_world_destroy(w);
    }
}

/* backend.h's scratch rule for every backend: a need never decreases when a count of
 * either hull grows (single steps from every point of a grid of counts), and the
 * backends that fall back to the reference ask for at least its need. */
static void test_rule_holds(void **state)
{
    (void)state;
    static const int grid[] = {0, 1, 5, 60, 999};
    static const int steps[] = {1, 37};
    const int ng = (int)(sizeof grid / sizeof grid[0]);
    for (int e = 0; e < NBACKENDS; e++) {
        const col_np_backend *be = col_np_backend_get(k_backends[e]);
        int c[6];
        for (int code = 0; code < ng * ng * ng * ng * ng * ng; code++) {
            for (int k = 0, r = code; k < 6; k++, r /= ng) c[k] = grid[r % ng];
            col_np_counts a = {c[0], c[1], c[2]}, b = {c[3], c[4], c[5]};
            size_t n0 = be->scratch_need(a, b);
            if (be != &col_np_reference) assert_true(n0 >= col_np_reference.scratch_need(a, b));
            for (int k = 0; k < 6; k++)
                for (int s = 0; s < 2; s++) {
                    int d[6];
                    memcpy(d, c, sizeof d);
                    d[k] += steps[s];
                    col_np_counts a1 = {d[0], d[1], d[2]}, b1 = {d[3], d[4], d[5]};
                    if (be->scratch_need(a1, b1) < n0)
                        fail_msg("%s: need falls from %zu when count %d grows by %d", be->name, n0, k, steps[s]);
                }
        }
    }
}

/* Shapes created after bodies and updates exist grow every worker's scratch at creation,
 * and a creation that runs out of memory at any allocation leaves the world as it was;
 * the frame itself never grows scratch. */
static void test_shapes_created_later_grow_scratch(void **state)
{
    (void)state;
    for (int e = 0; e < NBACKENDS; e++) {
        int ia = g_worst[0].pair[0][0], ib = g_worst[0].pair[0][1]; /* the reference's */
        counting_alloc ca;
        memset(&ca, 0, sizeof ca);
        col_world *w = world_of(k_backends[e], &ca);
        col_shape_id small = world_shape(w, &g_fam[0]); /* the triangular prism */
        col_body_id b0 = world_body(w, small), b1 = world_body(w, small);
        (void)b0;
        (void)b1;
        assert_int_equal(col_world_update(w), COL_OK);
        /* Fail each allocation of the two creations in turn. */
        for (long n = 1;; n++) {
            uint64_t h = col_world_hash(w);
            ca.fail_at = ca.calls + n;
            col_shape_id x, y;
            col_status s1 = col_shape_create_convex(w, g_fam[ia].pts, g_fam[ia].npts, &x);
            col_status s2 = s1 == COL_OK ? col_shape_create_convex(w, g_fam[ib].pts, g_fam[ib].npts, &y) : s1;
            bool injected = ca.calls >= ca.fail_at;
            ca.fail_at = 0;
            if (s1 == COL_OK && s2 == COL_OK && !injected) {
                check_world_scratch(w);
                run_pair_in_world(w, x, y, &g_fam[ia].hull, &g_fam[ib].hull);
                break;
            }
            assert_true(s1 == COL_ERR_OUT_OF_MEMORY || s2 == COL_ERR_OUT_OF_MEMORY || s1 == COL_OK);
            if (s2 == COL_OK) assert_int_equal(col_shape_destroy(w, y), COL_OK);
            if (s1 == COL_OK) assert_int_equal(col_shape_destroy(w, x), COL_OK);
            if (s1 != COL_OK) assert_true(h == col_world_hash(w));
            check_world_scratch(w);
            assert_int_equal(col_world_update(w), COL_OK);
        }
        col_world_destroy(w);
    }
}

/* A buffer of n bytes that starts off bytes past malloc's alignment and ends exactly at
 * the allocation's end. */
static col_np_scratch exact_buffer(size_t n, size_t off, unsigned char **mem)
{
    *mem = malloc(off + n);
    assert_non_null(*mem);
    col_np_scratch s = {*mem + off, n};
    return s;
}

/* One query of backend be in a buffer of exactly be's bytes for (a, b), its start moved
 * by off bytes from malloc's alignment. */
static void exact_query(const col_np_backend *be, const col_hull *a, const col_xform *xa, const col_hull *b,
                        const col_xform *xb, size_t off, col_np_result *out)
{
    unsigned char *mem;
    col_np_scratch s = exact_buffer(need(be, a, b), off, &mem);
    void *cache = calloc(1, be->cache_size > 0 ? be->cache_size : 1);
    assert_non_null(cache);
    be->cache_init(cache, a, b);
    be->query(cache, a, NULL, xa, b, NULL, xb, &s, out);
    be->query(cache, a, NULL, xa, b, NULL, xb, &s, out); /* warm */
    free(cache);
    free(mem);
}

/* Every backend's query, the voronoi walk's exact fallback and the contact builder,
 * each within exactly the bytes it asks for, on every backend's worst pairs, both
 * orders, at several alignments. */
static void test_queries_fit_their_stated_need(void **state)
{
    (void)state;
    enum { NPAIRS = 2 * NBACKENDS };
    int pairs[NPAIRS][2];
    for (int e = 0; e < NBACKENDS; e++) memcpy(pairs[2 * e], g_worst[e].pair, sizeof g_worst[e].pair);
    rng_seed(0x5c7a7c5, "scratch exact queries");
    for (int p = 0; p < NPAIRS; p++)
        for (int order = 0; order < 2; order++) {
            const col_hull *a = &g_fam[pairs[p][order]].hull, *b = &g_fam[pairs[p][1 - order]].hull;
            for (int c = 0; c < 6; c++) {
                col_transform pa, pb;
                pose_of(c, a, b, &pa, &pb);
                col_xform xa = col_xform_from_transform(pa), xb = col_xform_from_transform(pb);
                size_t off = (size_t)(c * 3) % 16;
                for (int e = 0; e < NBACKENDS; e++) {
                    col_np_result r;
                    exact_query(col_np_backend_get(k_backends[e]), a, &xa, b, &xb, off, &r);
                }
                unsigned char *mem, *cmem;
                col_np_scratch s = exact_buffer(col_vor_scratch_bytes(a, b), off, &mem);
                col_vor_result r;
                col_vor_query(NULL, a, &xa, b, &xb, COL_VOR_FORCE_FALLBACK, &s, &r);
                assert_true(r.fallbacks > 0);
                col_vor_query(NULL, a, &xa, b, &xb, COL_VOR_WANT_DISTANCE, &s, &r);
                col_np_scratch cs = exact_buffer(col_vor_contact_scratch_bytes(a, b), off, &cmem);
                col_vor_contact ct;
                col_vor_contact_build(a, &xa, b, &xb, &r, 0.1, &cs, &ct);
                free(cmem);
                free(mem);
            }
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rule_holds),
        cmocka_unit_test(test_world_covers_worst_pairs),
        cmocka_unit_test(test_shapes_created_later_grow_scratch),
        cmocka_unit_test(test_queries_fit_their_stated_need),
    };
    return cmocka_run_group_tests(tests, fam_setup, fam_teardown);
}
