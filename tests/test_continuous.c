/* SPDX-License-Identifier: MIT */
/* The world's continuous mode (col_body_def.continuous, col_pair_events.continuous;
 * lib/continuous.c, docs/ccd.md "World mode"): a fast body through a thin plate between
 * two updates is reported (the discrete lists miss it); on random scenes of every convex
 * kind the list equals a brute force of the world-free time of impact over all pairs
 * (not only the swept-box candidates) and holds the discrete pairs of both updates; zero
 * tunneling of fast cubes through thin static plates against a substep-and-bisect
 * reference (exact overlap tests); the same list for 1 and 2 workers; no allocator call
 * once warm; nothing while no body is continuous. */
#include <string.h>

#include "colibri/colibri.h"
#include "colibri/query.h"
#include "ccd_ref.h"
#include "test_util.h"

static col_world *make_world(int workers)
{
    col_world_def d = col_default_world_def();
    d.worker_count = workers;
    col_world *w = NULL;
    assert_int_equal(col_world_create(&d, &w), COL_OK);
    return w;
}

static col_body_id add(col_world *w, col_shape_id s, col_transform x, bool cont, bool is_static)
{
    col_body_def d = col_default_body_def();
    d.shape = s;
    d.pose = x;
    d.continuous = cont;
    d.is_static = is_static;
    col_body_id id;
    assert_int_equal(col_body_create(w, &d, &id), COL_OK);
    return id;
}

static col_transform at(double x, double y, double z)
{
    col_transform t = col_transform_identity();
    t.p = col_vec3_make(x, y, z);
    return t;
}

/* A cube moving 2 through a plate 0.01 thick in one update: no discrete pair at either
 * update, one continuous pair with s = (1 - 0.005 - 0.05) / 2 - at most 1e-6. Without the
 * flag: nothing. */
static void test_plate_tunneling(void **state)
{
    (void)state;
    for (int cont = 0; cont < 2; cont++) {
        col_world *w = make_world(1);
        col_shape_id plate, cube;
        assert_int_equal(col_shape_create_box(w, col_vec3_make(1, 1, 0.005), &plate), COL_OK);
        assert_int_equal(col_shape_create_box(w, col_vec3_make(0.05, 0.05, 0.05), &cube), COL_OK);
        add(w, plate, at(0, 0, 0), false, true);
        col_body_id c = add(w, cube, at(0.2, 0.3, 1.0), cont, false);
        assert_int_equal(col_world_update(w), COL_OK);
        assert_int_equal(col_body_set_pose(w, c, at(0.2, 0.3, -1.0)), COL_OK);
        assert_int_equal(col_world_update(w), COL_OK);
        col_pair_events ev = col_world_get_pair_events(w);
        assert_int_equal(ev.pair_count, 0);
        if (!cont) {
            assert_int_equal(ev.continuous_count, 0);
            assert_null(ev.continuous);
        } else {
            assert_int_equal(ev.continuous_count, 1);
            double s = (1.0 - 0.005 - 0.05) / 2.0;
            assert_true(ev.continuous[0].s <= s + 1e-12 && ev.continuous[0].s >= s - 1e-6);
            assert_false(ev.continuous[0].swept_box_only);
            assert_true(fabs(fabs(ev.continuous[0].normal.z) - 1.0) < 1e-9);
        }
        col_world_destroy(w);
    }
}

/* Filters and life cycle: a disabled pair and a pair the groups keep apart are not listed;
 * a removed body's pairs leave the list; the last continuous body removed empties it; a
 * pair with a mesh is listed as swept_box_only while the swept boxes meet. */
static void test_filters_and_removal(void **state)
{
    (void)state;
    col_world *w = make_world(2);
    col_shape_id plate, cube;
    assert_int_equal(col_shape_create_box(w, col_vec3_make(1, 1, 0.005), &plate), COL_OK);
    assert_int_equal(col_shape_create_box(w, col_vec3_make(0.05, 0.05, 0.05), &cube), COL_OK);
    col_body_id p = add(w, plate, at(0, 0, 0), false, true);
    col_body_id c1 = add(w, cube, at(0.2, 0.3, 1.0), true, false);
    col_body_id c2 = add(w, cube, at(-0.2, 0.3, 1.0), true, false);
    col_body_def d = col_default_body_def();
    d.shape = cube;
    d.pose = at(0.5, -0.3, 1.0);
    d.continuous = true;
    d.filter_group = 2;
    d.filter_mask = 2; /* the plate is in group 1 */
    col_body_id c3;
    assert_int_equal(col_body_create(w, &d, &c3), COL_OK);
    assert_int_equal(col_pair_set_enabled(w, p, c2, false), COL_OK);
    assert_int_equal(col_world_update(w), COL_OK);
    assert_int_equal(col_body_set_pose(w, c1, at(0.2, 0.3, -1.0)), COL_OK);
    assert_int_equal(col_body_set_pose(w, c2, at(-0.2, 0.3, -1.0)), COL_OK);
    assert_int_equal(col_body_set_pose(w, c3, at(0.5, -0.3, -1.0)), COL_OK);
    assert_int_equal(col_world_update(w), COL_OK);
    col_pair_events ev = col_world_get_pair_events(w);
    assert_int_equal(ev.continuous_count, 1);
    assert_true(ev.continuous[0].pair.a.index1 == p.index1 && ev.continuous[0].pair.b.index1 == c1.index1);
    /* c1 removed, c2 and c3 back up through the plate: none listed (c2 disabled, c3 filtered) */
    assert_int_equal(col_body_destroy(w, c1), COL_OK);
    assert_int_equal(col_body_set_pose(w, c2, at(-0.2, 0.3, 1.0)), COL_OK);
    assert_int_equal(col_body_set_pose(w, c3, at(0.5, -0.3, 1.0)), COL_OK);
    assert_int_equal(col_world_update(w), COL_OK);
    assert_int_equal(col_world_get_pair_events(w).continuous_count, 0);
    /* a mesh triangle under the path of a continuous sphere: swept boxes only */
    col_vec3 v[3] = {{-1, -1, 0}, {1, -1, 0}, {0, 1, 0}};
    uint32_t idx[3] = {0, 1, 2};
    col_mesh_def md = col_default_mesh_def();
    md.vertices = v;
    md.vertex_count = 3;
    md.indices = idx;
    md.triangle_count = 1;
    col_shape_id mesh, ball;
    assert_int_equal(col_shape_create_mesh(w, &md, &mesh), COL_OK);
    assert_int_equal(col_shape_create_sphere(w, 0.05, &ball), COL_OK);
    add(w, mesh, at(5, 5, 5), false, true);
    col_body_id b = add(w, ball, at(5, 5, 6), true, false);
    assert_int_equal(col_world_update(w), COL_OK);
    assert_int_equal(col_body_set_pose(w, b, at(5, 5, 4)), COL_OK);
    assert_int_equal(col_world_update(w), COL_OK);
    ev = col_world_get_pair_events(w);
    assert_int_equal(ev.continuous_count, 1);
    assert_true(ev.continuous[0].swept_box_only && ev.continuous[0].s == 0.0);
    /* the continuous bodies removed: nothing */
    assert_int_equal(col_body_destroy(w, b), COL_OK);
    assert_int_equal(col_body_destroy(w, c2), COL_OK);
    assert_int_equal(col_body_destroy(w, c3), COL_OK);
    assert_int_equal(col_world_update(w), COL_OK);
    ev = col_world_get_pair_events(w);
    assert_int_equal(ev.continuous_count, 0);
    assert_null(ev.continuous);
    col_world_destroy(w);
}

/* A random scene: n bodies of every convex kind, each at a random pose at two updates. */
typedef struct scene {
    col_world *w;
    col_shape_id shapes[5];
    col_body_id bodies[64];
    int shape_of[64];
    bool cont[64];
    int n;
} scene;

static void scene_make(scene *sc, int workers, uint64_t seed, int n)
{
    rng_reseed(seed);
    sc->w = make_world(workers);
    sc->n = n;
    col_world *w = sc->w;
    assert_int_equal(col_shape_create_box(w, col_vec3_make(0.3, 0.1, 0.5), &sc->shapes[0]), COL_OK);
    assert_int_equal(col_shape_create_sphere(w, 0.3, &sc->shapes[1]), COL_OK);
    assert_int_equal(col_shape_create_capsule(w, 0.4, 0.1, &sc->shapes[2]), COL_OK);
    assert_int_equal(col_shape_create_box(w, col_vec3_make(1.0, 0.02, 0.02), &sc->shapes[3]), COL_OK);
    col_compound_child ch[2] = {{sc->shapes[0], at(-0.5, 0, 0)}, {sc->shapes[1], at(0.5, 0, 0)}};
    assert_int_equal(col_shape_create_compound(w, ch, 2, &sc->shapes[4]), COL_OK);
    for (int i = 0; i < n; i++) {
        sc->shape_of[i] = (int)(rng_next() % 5);
        sc->cont[i] = (rng_next() % 4) != 0;
        col_transform x = {{urange(0, 6), urange(0, 6), urange(0, 6)}, random_quat()};
        sc->bodies[i] = add(w, sc->shapes[sc->shape_of[i]], x, sc->cont[i], i % 9 == 0);
    }
    assert_int_equal(col_world_update(w), COL_OK);
}

/* Moves every non-static body by up to 3 and turns it by a random rotation. */
static void scene_move(scene *sc, col_transform *before, col_transform *after)
{
    for (int i = 0; i < sc->n; i++) {
        assert_int_equal(col_body_get_pose(sc->w, sc->bodies[i], &before[i]), COL_OK);
        after[i] = before[i];
        if (i % 9 == 0) continue;
        after[i].p = col_vec3_make(before[i].p.x + urange(-3, 3), before[i].p.y + urange(-3, 3),
                                   before[i].p.z + urange(-3, 3));
        after[i].q = random_quat();
        assert_int_equal(col_body_set_pose(sc->w, sc->bodies[i], after[i]), COL_OK);
    }
}

static int find_pair(const col_pair_events *ev, uint32_t a, uint32_t b)
{
    for (int k = 0; k < ev->continuous_count; k++)
        if (ev->continuous[k].pair.a.index1 == a && ev->continuous[k].pair.b.index1 == b) return k;
    return -1;
}

static bool in_pairs(const col_pair *p, int n, uint32_t a, uint32_t b)
{
    for (int k = 0; k < n; k++)
        if (p[k].a.index1 == a && p[k].b.index1 == b) return true;
    return false;
}

/* The list against the world-free time of impact of every pair (brute force), and the
 * discrete pairs of both updates in it. */
static void test_brute_force(void **state)
{
    (void)state;
    rng_seed(0xcc01, "brute_force");
    col_query_scratch *qs;
    assert_int_equal(col_query_scratch_create(NULL, &qs), COL_OK);
    int total = 0;
    for (int round = 0; round < 6; round++) {
        scene sc;
        scene_make(&sc, 2, 0xcc01 + (uint64_t)round, 48);
        col_transform x0[64], x1[64];
        col_pair prev[2048];
        for (int frame = 0; frame < 3; frame++) {
            col_pair_events ev = col_world_get_pair_events(sc.w);
            int nprev = ev.pair_count;
            assert_true(nprev <= 2048);
            memcpy(prev, ev.pairs, (size_t)nprev * sizeof *prev);
            scene_move(&sc, x0, x1);
            assert_int_equal(col_world_update(sc.w), COL_OK);
            ev = col_world_get_pair_events(sc.w);
            int found = 0;
            for (int i = 0; i < sc.n; i++)
                for (int j = i + 1; j < sc.n; j++) {
                    uint32_t a = sc.bodies[i].index1, b = sc.bodies[j].index1;
                    int k = find_pair(&ev, a < b ? a : b, a < b ? b : a);
                    bool want = (sc.cont[i] || sc.cont[j]) && !(i % 9 == 0 && j % 9 == 0);
                    if (!want) {
                        assert_int_equal(k, -1);
                        continue;
                    }
                    const col_geometry *gi, *gj;
                    assert_int_equal(col_shape_get_geometry(sc.w, sc.shapes[sc.shape_of[i]], &gi), COL_OK);
                    assert_int_equal(col_shape_get_geometry(sc.w, sc.shapes[sc.shape_of[j]], &gj), COL_OK);
                    col_toi_output o;
                    if (a < b)
                        assert_int_equal(col_geometry_toi(gi, x0[i], x1[i], gj, x0[j], x1[j], qs, &o), COL_OK);
                    else
                        assert_int_equal(col_geometry_toi(gj, x0[j], x1[j], gi, x0[i], x1[i], qs, &o), COL_OK);
                    uint32_t lo = a < b ? a : b, hi = a ^ b ^ lo;
                    bool before = in_pairs(prev, nprev, lo, hi);
                    bool discrete = in_pairs(ev.pairs, ev.pair_count, lo, hi) || before;
                    if (discrete && k < 0) fail_msg("round %d frame %d: discrete pair (%u, %u) missing", round, frame, lo, hi);
                    if (o.hit && k < 0) fail_msg("round %d frame %d: pair (%u, %u) hit at %.17g missing", round, frame, lo, hi, o.s);
                    if (k >= 0 && !o.hit && !discrete) fail_msg("round %d frame %d: pair (%u, %u) extra", round, frame, lo, hi);
                    /* touching at the previous update: s = 0 from its list (the query agrees
                     * but within rounding of touching) */
                    if (before && ev.continuous[k].s != 0.0) fail_msg("pair (%u, %u): s %.17g, not 0", lo, hi, ev.continuous[k].s);
                    if (k >= 0 && !before && o.hit && ev.continuous[k].s != o.s)
                        fail_msg("pair (%u, %u): s %.17g, the query's %.17g", lo, hi, ev.continuous[k].s, o.s);
                    found += k >= 0;
                }
            assert_int_equal(found, ev.continuous_count);
            total += found;
        }
        col_world_destroy(sc.w);
    }
    print_message("brute_force: %d continuous pairs checked\n", total);
    assert_true(total > 50);
    col_query_scratch_destroy(qs);
}

/* Fast cubes through thin static plates (10 to 100 plate thicknesses per update), all in
 * one world: every contact a substep-and-bisect reference finds (2^12 exact overlap tests
 * per pair and update) is in the list, never later. */
static void test_plates_zero_tunneling(void **state)
{
    (void)state;
    rng_seed(0xcc02, "plates_zero_tunneling");
    col_world *w = make_world(2);
    const double t = 0.01;
    col_shape_id plate, cube;
    assert_int_equal(col_shape_create_box(w, col_vec3_make(1, 1, 0.5 * t), &plate), COL_OK);
    assert_int_equal(col_shape_create_box(w, col_vec3_make(0.02, 0.02, 0.02), &cube), COL_OK);
    enum { NP = 4, NC = 24 };
    col_body_id plates[NP], cubes[NC];
    for (int k = 0; k < NP; k++) plates[k] = add(w, plate, at(0, 0, 0.5 * k), false, true);
    col_transform pose[NC];
    for (int k = 0; k < NC; k++) {
        pose[k] = (col_transform){{urange(-1, 1), urange(-1, 1), urange(0, 1.5)}, random_quat()};
        cubes[k] = add(w, cube, pose[k], true, false);
    }
    assert_int_equal(col_world_update(w), COL_OK);
    const col_geometry *gp, *gc;
    assert_int_equal(col_shape_get_geometry(w, plate, &gp), COL_OK);
    assert_int_equal(col_shape_get_geometry(w, cube, &gc), COL_OK);
    col_query_scratch *qs;
    assert_int_equal(col_query_scratch_create(NULL, &qs), COL_OK);
    int contacts = 0;
    for (int frame = 0; frame < 6; frame++) {
        col_transform next[NC];
        for (int k = 0; k < NC; k++) {
            double sp = urange(10, 100) * t;
            next[k] = pose[k];
            next[k].p.z += (pose[k].p.z > 0.75 ? -sp : sp);
            next[k].p.x += urange(-0.05, 0.05);
            next[k].q = random_quat();
            assert_int_equal(col_body_set_pose(w, cubes[k], next[k]), COL_OK);
        }
        assert_int_equal(col_world_update(w), COL_OK);
        col_pair_events ev = col_world_get_pair_events(w);
        for (int k = 0; k < NC; k++)
            for (int p = 0; p < NP; p++) {
                col_transform x = at(0, 0, 0.5 * p);
                /* the reference: the first touching substep, then bisection */
                double hi = -1;
                for (int i = 0; i <= 4096 && hi < 0; i++) {
                    double s = i / 4096.0;
                    col_transform c = ccd_ref_pose(pose[k], next[k], s);
                    bool hit;
                    assert_int_equal(col_geometry_overlap(gp, x, gc, c, COL_BACKEND_REFERENCE, qs, &hit), COL_OK);
                    if (hit) hi = s;
                }
                uint32_t a = plates[p].index1, b = cubes[k].index1;
                int at_k = find_pair(&ev, a < b ? a : b, a < b ? b : a);
                if (hi >= 0 && at_k < 0) fail_msg("frame %d: cube %d tunneled through plate %d near s %g", frame, k, p, hi);
                if (hi >= 0) {
                    contacts++;
                    if (ev.continuous[at_k].s > hi + 1e-12) fail_msg("cube %d plate %d: late", k, p);
                }
            }
        memcpy(pose, next, sizeof pose);
    }
    print_message("plates: %d contacts found by the reference, none missed\n", contacts);
    assert_true(contacts > 10);
    col_query_scratch_destroy(qs);
    col_world_destroy(w);
}

/* The same scene with 1 and 2 workers gives the same list (ids, s, normals, points). */
static void test_workers(void **state)
{
    (void)state;
    rng_seed(0xcc03, "workers");
    scene s1, s2;
    scene_make(&s1, 1, 0xcc03, 60);
    scene_make(&s2, 2, 0xcc03, 60);
    for (int frame = 0; frame < 4; frame++) {
        col_transform x0[64], x1[64], y0[64], y1[64];
        uint64_t st = rng_state;
        scene_move(&s1, x0, x1);
        rng_state = st;
        scene_move(&s2, y0, y1);
        assert_int_equal(col_world_update(s1.w), COL_OK);
        assert_int_equal(col_world_update(s2.w), COL_OK);
        col_pair_events e1 = col_world_get_pair_events(s1.w), e2 = col_world_get_pair_events(s2.w);
        assert_int_equal(e1.continuous_count, e2.continuous_count);
        for (int k = 0; k < e1.continuous_count; k++) {
            const col_continuous_pair *p = &e1.continuous[k], *q = &e2.continuous[k];
            assert_true(p->pair.a.index1 == q->pair.a.index1 && p->pair.b.index1 == q->pair.b.index1);
            assert_true(p->s == q->s && memcmp(&p->normal, &q->normal, sizeof p->normal) == 0 &&
                        memcmp(&p->point_a, &q->point_a, sizeof p->point_a) == 0);
        }
        assert_true(col_world_hash(s1.w) == col_world_hash(s2.w));
    }
    col_world_destroy(s1.w);
    col_world_destroy(s2.w);
}

/* Warm: a scene moving between two pose sets makes no allocator call in its updates. */
static void test_no_allocation_when_warm(void **state)
{
    (void)state;
    scene sc;
    scene_make(&sc, 2, 0xcc04, 60);
    col_transform a[64], b[64];
    scene_move(&sc, a, b); /* a: the poses now, b: the new ones */
    for (int frame = 0; frame < 12; frame++) {
        for (int i = 0; i < sc.n; i++)
            assert_int_equal(col_body_set_pose(sc.w, sc.bodies[i], frame % 2 ? b[i] : a[i]), COL_OK);
        assert_int_equal(col_world_update(sc.w), COL_OK);
        col_counters c;
        assert_int_equal(col_world_get_counters(sc.w, &c), COL_OK);
        if (frame >= 4 && c.alloc_calls != 0) fail_msg("update %d: %d allocator calls", frame, c.alloc_calls);
        if (frame >= 4) assert_true(col_world_get_pair_events(sc.w).continuous_count > 0);
    }
    col_world_destroy(sc.w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plate_tunneling), cmocka_unit_test(test_filters_and_removal),       cmocka_unit_test(test_brute_force),
        cmocka_unit_test(test_plates_zero_tunneling), cmocka_unit_test(test_workers),
        cmocka_unit_test(test_no_allocation_when_warm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
