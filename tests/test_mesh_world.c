/* SPDX-License-Identifier: MIT */
/* Meshes in the world (issue 16): bodies of every kind with static and moving triangle
 * meshes, frame after frame, against an exact brute force that knows nothing of the
 * hierarchy or the frame pipeline: every body pair is decided by the GMP oracle
 * (tests/oracle_round.h) over all triangle-triangle and triangle-piece pairs of the WORLD
 * vertices (col_xform_point of the pose, docs/meshes.md), after an exact box filter (two
 * world point sets whose boxes are disjoint share no point). Every backend and 1 and 2
 * workers must give that list, identically; meshes go through the schedule (sleeping on
 * their certified gaps) and the witness cache; bodies come and go; after a warm-up no
 * frame allocates. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "colibri/colibri.h"
#include "lib/core/geometry.h"
#include "oracle_round.h"
#include "test_util.h"

#define SEED 0x16bead
#define PI 3.14159265358979323846
#define MAXV 2000
#define MAXT 2000

/* ---- meshes ---- */

typedef struct test_mesh {
    col_vec3 v[MAXV];
    uint32_t t[3 * MAXT];
    int nv, nt;
} test_mesh;

static void tm_add(test_mesh *m, uint32_t a, uint32_t b, uint32_t c)
{
    assert_true(m->nt < MAXT);
    m->t[3 * m->nt] = a;
    m->t[3 * m->nt + 1] = b;
    m->t[3 * m->nt + 2] = c;
    m->nt++;
}

/* A closed bumpy sphere of radius about r: a latitude-longitude grid. */
static void mesh_bumpy(test_mesh *m, double r, int nlat, int nlon)
{
    m->nv = m->nt = 0;
    for (int i = 0; i <= nlat; i++)
        for (int j = 0; j < nlon; j++) {
            double th = PI * i / nlat, ph = 2 * PI * j / nlon;
            double rr = r * (1.0 + 0.15 * sin(3 * th) * cos(4 * ph) + 0.05 * urange(-1, 1));
            m->v[m->nv++] = col_v3(rr * sin(th) * cos(ph), rr * sin(th) * sin(ph), rr * cos(th));
        }
    for (int i = 0; i < nlat; i++)
        for (int j = 0; j < nlon; j++) {
            uint32_t a = (uint32_t)(i * nlon + j), b = (uint32_t)(i * nlon + (j + 1) % nlon);
            uint32_t c = a + (uint32_t)nlon, d = b + (uint32_t)nlon;
            tm_add(m, a, b, d); /* the pole rows give degenerate triangles: kept */
            tm_add(m, a, d, c);
        }
}

/* An open wavy patch (a heightfield) of half size s; bowl: rising at the rim. */
static void mesh_patch(test_mesh *m, double s, int n, double bowl)
{
    m->nv = m->nt = 0;
    for (int i = 0; i <= n; i++)
        for (int j = 0; j <= n; j++) {
            double x = s * (2.0 * i / n - 1), y = s * (2.0 * j / n - 1);
            double z = 0.1 * s * sin(3 * x / s) * cos(2 * y / s) + bowl * (x * x + y * y) / s;
            m->v[m->nv++] = col_v3(x, y, z);
        }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            uint32_t a = (uint32_t)(i * (n + 1) + j), b = a + 1, c = a + (uint32_t)(n + 1), d = c + 1;
            tm_add(m, a, b, d);
            tm_add(m, a, d, c);
        }
}

/* A soup: random triangles in a ball of radius r, some degenerate (segments, points,
 * repeated indices) and an unused vertex. */
static void mesh_soup(test_mesh *m, double r, int nt)
{
    m->nv = m->nt = 0;
    for (int k = 0; k < nt; k++) {
        col_vec3 c = col_v3(urange(-r, r) * 0.7, urange(-r, r) * 0.7, urange(-r, r) * 0.7);
        uint32_t base = (uint32_t)m->nv;
        for (int i = 0; i < 3; i++)
            m->v[m->nv++] = col_add(c, col_v3(urange(-0.3, 0.3) * r, urange(-0.3, 0.3) * r, urange(-0.3, 0.3) * r));
        switch (k % 7) {
        case 3: tm_add(m, base, base + 1, base); break;                         /* a segment */
        case 5: tm_add(m, base + 2, base + 2, base + 2); break;                 /* a point */
        case 6:                                                                 /* collinear */
            m->v[base + 2] = col_add(m->v[base], col_scale(col_sub(m->v[base + 1], m->v[base]), 0.25));
            tm_add(m, base, base + 1, base + 2);
            break;
        default: tm_add(m, base, base + 1, base + 2);
        }
    }
    m->v[m->nv++] = col_v3(r, 0, 0); /* used by no triangle: counts for the radius only */
}

static col_shape_id make_mesh_shape(col_world *w, const test_mesh *m)
{
    col_mesh_def def = col_default_mesh_def();
    def.vertices = m->v;
    def.vertex_count = m->nv;
    def.indices = m->t;
    def.triangle_count = m->nt;
    col_shape_id s;
    assert_int_equal(col_shape_create_mesh(w, &def, &s), COL_OK);
    return s;
}

/* ---- the exact brute force ---- */

/* World points of a set, and their exact box. */
typedef struct wset {
    oracle_set s;
    double r;
    col_vec3 lo, hi;
} wset;

static void wset_box(wset *p)
{
    p->lo = p->hi = p->s.w[0];
    for (int i = 1; i < p->s.n; i++) {
        col_vec3 x = p->s.w[i];
        p->lo = col_v3(fmin(p->lo.x, x.x), fmin(p->lo.y, x.y), fmin(p->lo.z, x.z));
        p->hi = col_v3(fmax(p->hi.x, x.x), fmax(p->hi.y, x.y), fmax(p->hi.z, x.z));
    }
}

/* Disjoint boxes, each grown by its radius with room for rounding, share no point. */
static bool wset_apart(const wset *a, const wset *b)
{
    double ga = a->r * (1 + 1e-9), gb = b->r * (1 + 1e-9);
    return a->hi.x + ga < b->lo.x - gb || b->hi.x + gb < a->lo.x - ga || a->hi.y + ga < b->lo.y - gb ||
           b->hi.y + gb < a->lo.y - ga || a->hi.z + ga < b->lo.z - gb || b->hi.z + gb < a->lo.z - ga;
}

/* The solid pieces (or the triangles) of a geometry at a pose, as oracle sets. */
static int world_sets(const col_geometry *g, col_transform pose, wset *out, int cap)
{
    col_xform xf = col_xform_from_transform(pose);
    int n = 0;
    if (g->kind == COL_SHAPE_MESH) {
        for (int k = 0; k < g->mesh.triangle_count; k++) {
            assert_true(n < cap);
            wset *p = &out[n++];
            memset(p, 0, sizeof *p);
            col_vec3 t[3];
            col_mesh_triangle(&g->mesh, k, t);
            p->s.n = 3;
            for (int i = 0; i < 3; i++) p->s.w[i] = col_xform_point(&xf, t[i]);
            oracle_features_all(&p->s);
            wset_box(p);
        }
        return n;
    }
    for (int k = 0; k < g->piece_count; k++) {
        assert_true(n < cap);
        const col_piece *pc = &g->pieces[k];
        wset *p = &out[n++];
        memset(p, 0, sizeof *p);
        int np;
        const col_vec3 *c = col_piece_points(pc, &np);
        assert_true(np <= ORACLE_MAXP);
        p->s.n = np;
        for (int i = 0; i < np; i++) p->s.w[i] = col_xform_point(&xf, c[i]);
        if (pc->kind == COL_SHAPE_HULL)
            oracle_features_hull(&p->s, pc->hull.face_count, pc->hull.face_first, pc->hull.face_verts,
                                 pc->hull.edge_count, pc->hull.edge_verts);
        else
            oracle_features_core(&p->s);
        p->r = pc->radius;
        wset_box(p);
    }
    return n;
}

static bool exact_collide(const wset *a, int na, const wset *b, int nb)
{
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++)
            if (!wset_apart(&a[i], &b[j]) && oracle_round_collide(&a[i].s, a[i].r, &b[j].s, b[j].r)) return true;
    return false;
}

/* ---- the scene ---- */

#define NB 26
#define FRAMES 24
#define ROOM 6.0

typedef struct scene {
    col_world *w;
    col_body_id id[NB];
    bool live[NB];
    int shape_of[NB];
    col_shape_id shapes[12];
    int nshapes;
    col_vec3 p0[NB], v[NB], axis[NB];
    double spin[NB];
    bool is_static[NB];
} scene;

/* The shape kinds of the scene, made once per world from the same seed. */
static void make_shapes(scene *s)
{
    static test_mesh m;
    rng_reseed(SEED);
    mesh_patch(&m, 5.0, 24, 0.25); /* 0: the floor bowl, 1152 triangles */
    s->shapes[0] = make_mesh_shape(s->w, &m);
    mesh_bumpy(&m, 0.9, 10, 14); /* 1: a closed bumpy sphere */
    s->shapes[1] = make_mesh_shape(s->w, &m);
    mesh_patch(&m, 0.8, 6, 0.0); /* 2: an open patch */
    s->shapes[2] = make_mesh_shape(s->w, &m);
    mesh_soup(&m, 0.8, 60); /* 3: a soup with degenerate triangles */
    s->shapes[3] = make_mesh_shape(s->w, &m);
    col_vec3 pts[12];
    for (int i = 0; i < 12; i++) pts[i] = col_v3(urange(-0.5, 0.5), urange(-0.5, 0.5), urange(-0.5, 0.5));
    assert_int_equal(col_shape_create_convex(s->w, pts, 12, &s->shapes[4]), COL_OK);
    assert_int_equal(col_shape_create_sphere(s->w, 0.4, &s->shapes[5]), COL_OK);
    assert_int_equal(col_shape_create_capsule(s->w, 0.5, 0.2, &s->shapes[6]), COL_OK);
    assert_int_equal(col_shape_create_box(s->w, col_v3(0.3, 0.5, 0.2), &s->shapes[7]), COL_OK);
    col_compound_child kids[2] = {{s->shapes[7], {{0.4, 0, 0}, {0, 0, 0, 1}}}, {s->shapes[5], {{-0.4, 0, 0}, {0, 0, 0, 1}}}};
    assert_int_equal(col_shape_create_compound(s->w, kids, 2, &s->shapes[8]), COL_OK);
    s->nshapes = 9;
}

static col_transform pose_at(const scene *s, int i, int f)
{
    col_transform t;
    double u = (double)f;
    t.p = col_add(s->p0[i], col_scale(s->v[i], u));
    /* fold into the room (a triangle wave), so bodies keep meeting */
    double *c[3] = {&t.p.x, &t.p.y, &t.p.z};
    for (int k = 0; k < 3; k++) {
        double L = k == 2 ? 2.0 : ROOM - 1.0, x = fmod(fabs(*c[k] + L), 4 * L);
        *c[k] = (x < 2 * L ? x : 4 * L - x) - L;
    }
    double a = s->spin[i] * u;
    col_vec3 ax = s->axis[i];
    t.q = (col_quat){ax.x * sin(a / 2), ax.y * sin(a / 2), ax.z * sin(a / 2), cos(a / 2)};
    if (s->is_static[i]) t = (col_transform){{0, 0, -2.6}, {0, 0, 0, 1}};
    return t;
}

static void scene_make(scene *s, col_backend backend, int workers, counting_alloc *ca)
{
    memset(s, 0, sizeof *s);
    col_world_def def = col_default_world_def();
    def.backend = backend;
    def.worker_count = workers;
    if (ca != NULL) def.allocator = counting_hooks(ca);
    assert_int_equal(col_world_create(&def, &s->w), COL_OK);
    make_shapes(s);
    rng_reseed(SEED + 1);
    for (int i = 0; i < NB; i++) {
        s->shape_of[i] = i == 0 ? 0 : 1 + (i - 1) % (s->nshapes - 1);
        s->is_static[i] = i == 0;
        s->p0[i] = col_v3(urange(-4, 4), urange(-4, 4), urange(-1.5, 1.5));
        s->v[i] = col_v3(urange(-0.15, 0.15), urange(-0.15, 0.15), urange(-0.1, 0.1));
        double th = urange(0, 2 * PI), z = urange(-1, 1);
        s->axis[i] = col_v3(sqrt(1 - z * z) * cos(th), sqrt(1 - z * z) * sin(th), z);
        s->spin[i] = urange(0, 0.2);
    }
}

static void scene_add(scene *s, int i, int f)
{
    col_body_def bd = col_default_body_def();
    bd.shape = s->shapes[s->shape_of[i]];
    bd.pose = pose_at(s, i, f);
    bd.is_static = s->is_static[i];
    assert_int_equal(col_body_create(s->w, &bd, &s->id[i]), COL_OK);
    s->live[i] = true;
}

/* Frame f: poses set, one body removed and re-added now and then, the world updated. */
static void scene_step(scene *s, int f)
{
    if (f == 0)
        for (int i = 0; i < NB; i++) scene_add(s, i, 0);
    int gone = 1 + f % (NB - 1);
    if (f % 5 == 3) {
        assert_int_equal(col_body_destroy(s->w, s->id[gone]), COL_OK);
        s->live[gone] = false;
    } else if (f % 5 == 4) {
        int back = 1 + (f - 1) % (NB - 1);
        if (!s->live[back]) scene_add(s, back, f);
    }
    for (int i = 1; i < NB; i++)
        if (s->live[i]) assert_int_equal(col_body_set_pose(s->w, s->id[i], pose_at(s, i, f)), COL_OK);
    assert_int_equal(col_world_update(s->w), COL_OK);
}

/* The world's pairs as (i, j) body numbers, i < j, sorted. */
static int world_pairs(const scene *s, int *out)
{
    col_pair_events ev = col_world_get_pair_events(s->w);
    const col_pair *p = ev.pairs;
    int n = ev.pair_count;
    int k = 0;
    for (int q = 0; q < n; q++) {
        int a = -1, b = -1;
        for (int i = 0; i < NB; i++) {
            if (s->live[i] && col_body_id_equals(s->id[i], p[q].a)) a = i;
            if (s->live[i] && col_body_id_equals(s->id[i], p[q].b)) b = i;
        }
        assert_true(a >= 0 && b >= 0);
        out[k++] = a < b ? a * NB + b : b * NB + a;
    }
    for (int i = 1; i < k; i++)
        for (int j = i; j > 0 && out[j - 1] > out[j]; j--) {
            int t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return k;
}

static wset sets_buf[NB][1200];
static int sets_n[NB];

/* The exact pairs of frame f (after scene_step made it), and how many were mesh pairs. */
static int exact_pairs(const scene *s, int *out, int *mesh_pairs)
{
    for (int i = 0; i < NB; i++) {
        sets_n[i] = 0;
        if (!s->live[i]) continue;
        const col_geometry *g;
        assert_int_equal(col_shape_get_geometry(s->w, s->shapes[s->shape_of[i]], &g), COL_OK);
        col_transform t;
        assert_int_equal(col_body_get_pose(s->w, s->id[i], &t), COL_OK);
        sets_n[i] = world_sets(g, t, sets_buf[i], 1200);
    }
    int k = 0;
    for (int i = 0; i < NB; i++)
        for (int j = i + 1; j < NB; j++) {
            if (!s->live[i] || !s->live[j] || (s->is_static[i] && s->is_static[j])) continue;
            if (exact_collide(sets_buf[i], sets_n[i], sets_buf[j], sets_n[j])) {
                out[k++] = i * NB + j;
                if (s->shape_of[i] <= 3 || s->shape_of[j] <= 3) (*mesh_pairs)++;
            }
        }
    return k;
}

/* Every backend, 1 and 2 workers: the same pairs as the exact brute force, every frame. */
static void test_world_matches_exact_brute_force(void **state)
{
    (void)state;
    rng_seed(SEED, __func__);
    oracle_round_init();
    static int truth[FRAMES][NB * NB], ntruth[FRAMES];
    int mesh_pairs = 0, total = 0;
    {
        scene s;
        scene_make(&s, COL_BACKEND_REFERENCE, 1, NULL);
        for (int f = 0; f < FRAMES; f++) {
            scene_step(&s, f);
            ntruth[f] = exact_pairs(&s, truth[f], &mesh_pairs);
            total += ntruth[f];
        }
        col_world_destroy(s.w);
    }
    print_message("exact brute force: %d colliding pairs over %d frames, %d with a mesh\n", total, FRAMES, mesh_pairs);
    assert_true(mesh_pairs > 20 && total > mesh_pairs); /* the scene must exercise meshes and the rest */
    for (int be = COL_BACKEND_REFERENCE; be < COL_BACKEND_COUNT; be++)
        for (int workers = 1; workers <= 2; workers++) {
            scene s;
            scene_make(&s, (col_backend)be, workers, NULL);
            uint64_t slept = 0;
            for (int f = 0; f < FRAMES; f++) {
                scene_step(&s, f);
                int got[NB * NB];
                int n = world_pairs(&s, got);
                if (n != ntruth[f] || memcmp(got, truth[f], (size_t)n * sizeof *got) != 0) {
                    print_error("backend %d, %d workers, frame %d: %d pairs, exact %d\n", be, workers, f, n, ntruth[f]);
                    fail();
                }
                col_counters c;
                col_world_get_counters(s.w, &c);
                slept += (uint64_t)c.sleeping_pairs;
            }
            if (be == COL_BACKEND_REFERENCE && workers == 1) {
                print_message("pairs asleep, summed over frames: %llu\n", (unsigned long long)slept);
                assert_true(slept > 0); /* separated mesh pairs sleep on their certified gaps */
            }
            col_world_destroy(s.w);
        }
    oracle_round_fini();
}

/* After a warm-up the frames of a scene with meshes make no allocator call. */
static void test_no_allocation_after_warmup(void **state)
{
    (void)state;
    rng_seed(SEED, __func__);
    counting_alloc ca = {0};
    scene s;
    scene_make(&s, COL_BACKEND_DEFAULT, 2, &ca);
    for (int f = 0; f < FRAMES; f++) scene_step(&s, f); /* bodies come and go: warm-up */
    long before = ca.calls;
    for (int f = FRAMES; f < 2 * FRAMES; f++) {
        for (int i = 1; i < NB; i++)
            if (s.live[i]) assert_int_equal(col_body_set_pose(s.w, s.id[i], pose_at(&s, i, f % FRAMES)), COL_OK);
        assert_int_equal(col_world_update(s.w), COL_OK);
    }
    print_message("%ld allocator calls in %d frames after the warm-up\n", ca.calls - before, FRAMES);
    assert_int_equal(ca.calls, before);
    col_world_destroy(s.w);
}

/* Shape facts, the mesh view and a mesh refused as a compound child. */
static void test_mesh_shape_facts(void **state)
{
    (void)state;
    rng_seed(SEED, __func__);
    static test_mesh m;
    mesh_soup(&m, 1.0, 40);
    col_world *w;
    col_world_def def = col_default_world_def();
    assert_int_equal(col_world_create(&def, &w), COL_OK);
    col_shape_id s = make_mesh_shape(w, &m);
    col_shape_info info;
    assert_int_equal(col_shape_get_info(w, s, &info), COL_OK);
    assert_int_equal(info.kind, COL_SHAPE_MESH);
    assert_int_equal(info.triangle_count, m.nt);
    assert_int_equal(info.vertex_count, m.nv);
    assert_true(info.memory_bytes > (size_t)m.nt * 12);
    print_message("%d triangles: %zu bytes, %.1f per triangle\n", m.nt, info.memory_bytes,
                  (double)info.memory_bytes / m.nt);
    double far = 0;
    for (int i = 0; i < m.nv; i++) far = fmax(far, col_len(m.v[i]));
    assert_true(info.radius >= far && info.radius <= far * (1 + 1e-12));
    const col_geometry *g;
    assert_int_equal(col_shape_get_geometry(w, s, &g), COL_OK);
    col_mesh_view view;
    assert_int_equal(col_geometry_get_mesh(g, &view), COL_OK);
    assert_int_equal(view.triangle_count, m.nt);
    /* every stored triangle is the def's triangle source[k], each exactly once */
    int seen[MAXT] = {0};
    for (int k = 0; k < view.triangle_count; k++) {
        uint32_t src = view.source[k];
        assert_true(src < (uint32_t)m.nt);
        seen[src]++;
        for (int i = 0; i < 3; i++) assert_int_equal(view.indices[3 * k + i], m.t[3 * src + i]);
    }
    for (int k = 0; k < m.nt; k++) assert_int_equal(seen[k], 1);
    col_piece_info piece;
    assert_int_equal(col_geometry_get_piece(g, 0, &piece), COL_ERR_INVALID_ARGUMENT);
    col_shape_id box, compound;
    assert_int_equal(col_shape_create_box(w, col_v3(1, 1, 1), &box), COL_OK);
    col_compound_child kids[2] = {{box, {{0, 0, 0}, {0, 0, 0, 1}}}, {s, {{1, 0, 0}, {0, 0, 0, 1}}}};
    uint64_t h = col_world_hash(w);
    assert_int_equal(col_shape_create_compound(w, kids, 2, &compound), COL_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(col_world_last_error(w), "mesh"));
    assert_int_equal(col_world_hash(w), h);
    col_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mesh_shape_facts),
        cmocka_unit_test(test_world_matches_exact_brute_force),
        cmocka_unit_test(test_no_allocation_after_warmup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
