/* SPDX-License-Identifier: MIT */
/* Shape casts (issue 20: col_world_cast_shape in include/colibri/worldquery.h) against a
 * brute force that knows nothing of the query tree or of the pruning: the time of impact
 * (col_geometry_toi, tested against a substep reference in its own suite) of the moving
 * geometry against every body that passes the filter, the least fraction winning, ties
 * to the smaller body index. Every hit is also checked by the exact pair decision
 * (col_world_overlap_shape): no body touches the geometry just before the fraction, and
 * the hit body touches it just after (a sweep that only grazes excepted). Casts are drawn
 * to be hard: random ones, ones starting inside or on a body (fraction 0), zero-length
 * ones, filtered ones; grazing sweeps of boxes and spheres along faces are checked
 * against their known fractions. */
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
#include "lib/core/vec.h"
#include "test_util.h"

#define SEED 0x5ca57ULL
#define ROOM 8.0
#define NB 40
#define PI 3.14159265358979323846

static int scaled(int n)
{
    const char *env = getenv("COLIBRI_TEST_SCALE");
    double f = env != NULL ? atof(env) : 1.0;
    int k = (int)(n * (f > 0.0 ? f : 1.0));
    return k < 10 ? 10 : k;
}

static col_transform at(double x, double y, double z)
{
    col_transform t = {{x, y, z}, {0, 0, 0, 1}};
    return t;
}

static col_transform random_pose(void)
{
    col_transform t;
    t.p = col_v3(urange(1, ROOM - 1), urange(1, ROOM - 1), urange(1, ROOM - 1));
    t.q = random_quat();
    return t;
}

typedef struct scene {
    col_world *w;
    int nshapes, nb; /* body i has shapes[i % nshapes] */
    col_shape_id shapes[8];
    col_body_id id[NB];
} scene;

static void scene_bodies(scene *s);

static void scene_make(scene *s)
{
    memset(s, 0, sizeof *s);
    s->nshapes = 6, s->nb = NB;
    col_world_def def = col_default_world_def();
    assert_int_equal(col_world_create(&def, &s->w), COL_OK);
    col_vec3 pts[12];
    for (int k = 0; k < 2; k++) {
        for (int i = 0; i < 12; i++) pts[i] = col_v3(urange(-0.7, 0.7), urange(-0.7, 0.7), urange(-0.7, 0.7));
        assert_int_equal(col_shape_create_convex(s->w, pts, 12, &s->shapes[k]), COL_OK);
    }
    assert_int_equal(col_shape_create_box(s->w, col_v3(0.6, 0.3, 0.45), &s->shapes[2]), COL_OK);
    assert_int_equal(col_shape_create_sphere(s->w, 0.5, &s->shapes[3]), COL_OK);
    assert_int_equal(col_shape_create_capsule(s->w, 0.6, 0.25, &s->shapes[4]), COL_OK);
    col_compound_child kids[2] = {{s->shapes[2], {{0.5, 0, 0}, {0, 0, 0, 1}}},
                                  {s->shapes[4], {{-0.5, 0, 0}, {0, 0.6, 0, 0.8}}}};
    assert_int_equal(col_shape_create_compound(s->w, kids, 2, &s->shapes[5]), COL_OK);
    scene_bodies(s);
}

static void scene_bodies(scene *s)
{
    for (int i = 0; i < s->nb; i++) {
        col_body_def bd = col_default_body_def();
        bd.shape = s->shapes[i % s->nshapes];
        bd.pose = random_pose();
        bd.filter_group = 1u << (i % 3);
        bd.user_data = (void *)(intptr_t)i;
        bd.is_static = i % 7 == 0;
        assert_int_equal(col_body_create(s->w, &bd, &s->id[i]), COL_OK);
    }
    assert_int_equal(col_world_update(s->w), COL_OK);
}

/* the query geometries: hull, sphere, capsule, compound (of a box and a capsule) */
static void make_geometries(col_geometry **g)
{
    col_vec3 pts[10];
    for (int i = 0; i < 10; i++) pts[i] = col_v3(urange(-0.6, 0.6), urange(-0.6, 0.6), urange(-0.6, 0.6));
    assert_int_equal(col_geometry_create_hull(NULL, pts, 10, &g[0], NULL), COL_OK);
    assert_int_equal(col_geometry_create_sphere(NULL, 0.4, &g[1], NULL), COL_OK);
    assert_int_equal(col_geometry_create_capsule(NULL, 0.5, 0.2, &g[2], NULL), COL_OK);
    col_geometry *box;
    assert_int_equal(col_geometry_create_box(NULL, col_v3(0.3, 0.2, 0.25), &box, NULL), COL_OK);
    col_geometry_child kids[2] = {{box, {{0.4, 0, 0}, {0, 0, 0, 1}}}, {g[2], {{-0.4, 0, 0}, {0, 0.6, 0, 0.8}}}};
    assert_int_equal(col_geometry_create_compound(NULL, kids, 2, &g[3], NULL), COL_OK);
    col_geometry_destroy(box);
}

static bool odd_only(col_body_id body, void *user_data, void *ctx)
{
    (void)body, (void)ctx;
    return ((intptr_t)user_data & 1) != 0;
}

static bool passes(const scene *s, int i, const col_query_filter *f)
{
    if (f == NULL) return true;
    uint32_t group = 1u << (i % 3), mask = 0xffffffffu;
    if ((f->group & mask) == 0 || (group & f->mask) == 0) return false;
    return f->fn == NULL || f->fn(s->id[i], col_body_get_user_data(s->w, s->id[i]), f->ctx);
}

/* The time of impact of g sweeping from pose to end against body i at its pose. */
static void body_toi(const scene *s, col_query_scratch *scr, const col_geometry *g, col_transform pose,
                     col_transform end, int i, col_toi_output *o)
{
    col_transform bp;
    assert_int_equal(col_body_get_pose(s->w, s->id[i], &bp), COL_OK);
    const col_geometry *bg;
    assert_int_equal(col_shape_get_geometry(s->w, s->shapes[i % s->nshapes], &bg), COL_OK);
    assert_int_equal(col_geometry_toi(g, pose, end, bg, bp, bp, scr, o), COL_OK);
}

/* The brute force: the least time of impact over the bodies passing f, ties to the
 * smaller index (the bodies were created in index order into a fresh world). */
static bool brute(const scene *s, col_query_scratch *scr, const col_geometry *g, col_transform pose, col_vec3 d,
                  const col_query_filter *f, int *body, col_toi_output *best)
{
    bool found = false;
    col_transform end = pose;
    end.p = col_add(pose.p, d);
    for (int i = 0; i < s->nb; i++) {
        if (!passes(s, i, f)) continue;
        col_toi_output o;
        body_toi(s, scr, g, pose, end, i, &o);
        if (!o.hit) continue;
        if (!found || o.s < best->s) *best = o, *body = i, found = true;
    }
    return found;
}

static col_transform moved(col_transform pose, col_vec3 d, double s)
{
    pose.p = col_add(pose.p, col_scale(d, s));
    return pose;
}

static bool listed(const col_body_id *ids, int n, col_body_id id)
{
    for (int k = 0; k < n; k++)
        if (ids[k].index1 == id.index1) return true;
    return false;
}

/* The exact substep reference: the geometry at N + 1 equally spaced instants of the sweep
 * before the fraction (all of them without a hit), each decided exactly by the pair
 * test; a body touching at one of them is a late or missed hit. */
static void substeps_before(const scene *s, const col_geometry *qg, col_transform pose, col_vec3 d,
                            const col_query_filter *f, bool found, double fraction, int steps, int c)
{
    col_body_id ids[NB];
    for (int k = 0; k <= steps; k++) {
        double t = (double)k / steps;
        if (found && t >= fraction - 1e-9) break;
        int n;
        assert_int_equal(col_world_overlap_shape(s->w, qg, moved(pose, d, t), f, ids, NB, &n), COL_OK);
        if (n != 0)
            fail_msg("cast %d: body %u touches at substep %.17g, %s", c, (unsigned)ids[0].index1, t,
                     found ? "before the fraction" : "and the cast found nothing");
    }
}

/* The any-hit and all-hits casts of the same sweep against the brute force: all lists
 * exactly the bodies whose time of impact says hit, once each at that fraction, sorted by
 * fraction then body index, its first the closest cast's answer; any is one of them. */
static int check_any_all(const scene *s, col_query_scratch *scr, const col_geometry *qg, col_transform pose,
                          col_vec3 d, const col_query_filter *f, bool found, const col_shape_hit *closest, int c)
{
    col_shape_hit all[NB], any;
    int n;
    assert_int_equal(col_world_cast_shape_all(s->w, qg, pose, d, f, all, NB, &n), COL_OK);
    bool any_found;
    assert_int_equal(col_world_cast_shape_any(s->w, qg, pose, d, f, &any, &any_found), COL_OK);
    if (any_found != (n > 0) || found != (n > 0)) fail_msg("cast %d: any %d, all %d, closest %d", c, any_found, n, found);
    col_transform end = moved(pose, d, 1.0);
    int want = 0;
    for (int i = 0; i < s->nb; i++) {
        if (!passes(s, i, f)) continue;
        col_toi_output o;
        body_toi(s, scr, qg, pose, end, i, &o);
        int at = -1;
        for (int k = 0; k < n; k++)
            if (all[k].body.index1 == s->id[i].index1) at = k;
        if (o.hit != (at >= 0)) fail_msg("cast %d: body %d hit %d by the time of impact, listed %d", c, i, o.hit, at >= 0);
        if (!o.hit) continue;
        want++;
        if (fabs(all[at].fraction - o.s) > 1e-12) fail_msg("cast %d: body %d at %.17g, want %.17g", c, i, all[at].fraction, o.s);
        if (any_found && any.body.index1 == s->id[i].index1 && fabs(any.fraction - o.s) > 1e-12)
            fail_msg("cast %d: any at %.17g, want %.17g", c, any.fraction, o.s);
    }
    assert_int_equal(n, want);
    for (int k = 1; k < n; k++)
        assert_true(all[k - 1].fraction < all[k].fraction ||
                    (all[k - 1].fraction == all[k].fraction && all[k - 1].body.index1 < all[k].body.index1));
    if (n > 0) {
        assert_int_equal(all[0].body.index1, closest->body.index1);
        assert_true(all[0].fraction == closest->fraction);
        bool listed_any = false;
        for (int k = 0; k < n; k++) listed_any |= all[k].body.index1 == any.body.index1;
        assert_true(listed_any);
    }
    return n;
}

/* ncasts casts of the geometries g[0 .. ng) in scene s, each against the brute force and
 * the exact checks; solid[i] says whether g[i] is solid (not a mesh), body_solid whether
 * body i's shape is. steps > 0 adds the substep reference. */
static void run_casts(scene *s, col_geometry **g, int ng, const bool *solid, bool (*body_solid)(const scene *, int),
                      int ncasts, int steps, const char *name)
{
    col_query_scratch *scr;
    assert_int_equal(col_query_scratch_create(NULL, &scr), COL_OK);
    col_query_filter groups = col_default_query_filter(), callback = col_default_query_filter();
    groups.mask = 1u | 4u;
    callback.fn = odd_only;
    int casts = scaled(ncasts), hits = 0, at_zero = 0, zero_len = 0, moved_hits = 0, multi = 0;
    for (int c = 0; c < casts; c++) {
        if (c == casts / 2) /* set poses count, before the next update */
            for (int i = 1; i < s->nb; i += 5)
                assert_int_equal(col_body_set_pose(s->w, s->id[i], random_pose()), COL_OK);
        const col_geometry *qg = g[c % ng];
        col_transform pose = random_pose();
        int kind = c % 5, inside = (c / 5) % s->nb;
        if (kind < 3) /* a free start, so most of these casts travel before they hit */
            for (int tries = 0; tries < 20; tries++) {
                int n;
                assert_int_equal(col_world_overlap_shape(s->w, qg, pose, NULL, NULL, 0, &n), COL_OK);
                if (n == 0) break;
                pose = random_pose();
            }
        if (kind == 3) { /* start inside or on a body: fraction 0 when both are solid */
            col_transform bp;
            assert_int_equal(col_body_get_pose(s->w, s->id[inside], &bp), COL_OK);
            pose.p = bp.p;
        }
        col_vec3 d = col_v3(urange(-4, 4), urange(-4, 4), urange(-4, 4));
        if (kind == 4 && (c / 5) % 2 == 0) d = col_v3(0, 0, 0);
        const col_query_filter *f = c % 3 == 0 ? NULL : c % 3 == 1 ? &groups : &callback;
        col_shape_hit h;
        bool found;
        assert_int_equal(col_world_cast_shape(s->w, qg, pose, d, f, &h, &found), COL_OK);
        int body = -1;
        col_toi_output want = {0};
        bool bf = brute(s, scr, qg, pose, d, f, &body, &want);
        if (bf != found) fail_msg("cast %d: found %d, brute force %d", c, found, bf);
        zero_len += d.x == 0 && d.y == 0 && d.z == 0;
        if (steps > 0) substeps_before(s, qg, pose, d, f, found, found ? h.fraction : 2.0, steps, c);
        multi += check_any_all(s, scr, qg, pose, d, f, found, &h, c) > 1;
        if (!found) {
            assert_int_equal(h.body.index1, 0);
            continue;
        }
        hits++;
        at_zero += h.fraction == 0.0;
        moved_hits += h.fraction > 0.0;
        if (fabs(h.fraction - want.s) > 1e-12) fail_msg("cast %d: fraction %.17g, brute force %.17g", c, h.fraction, want.s);
        if (h.body.index1 != s->id[body].index1) {
            /* only a tie (to rounding: the brute force renormalises the poses) may differ */
            col_toi_output o;
            int other = (int)h.body.index1 - 1;
            assert_true(other >= 0 && other < s->nb);
            assert_true(other < body || fabs(h.fraction - want.s) > 0);
            body_toi(s, scr, qg, pose, moved(pose, d, 1.0), other, &o);
            if (!(o.hit && fabs(o.s - want.s) <= 1e-12)) fail_msg("cast %d: body %d, brute force %d", c, other, body);
        } else if (h.piece != want.piece_b || h.shape_piece != want.piece_a) {
            fail_msg("cast %d: pieces %d / %d, brute force %d / %d", c, h.piece, h.shape_piece, want.piece_b,
                     want.piece_a);
        }
        assert_true(h.fraction >= 0.0 && h.fraction <= 1.0);
        assert_true(fabs(col_len(h.normal) - 1.0) < 1e-9);
        /* the normal points from the body toward the shape: the shape's point lies on its side */
        if (h.fraction > 0.0 && col_dot(col_sub(h.shape_point, h.point), h.normal) < -1e-6)
            fail_msg("cast %d: normal (%g %g %g) fraction %g points %g %g %g / %g %g %g", c, h.normal.x, h.normal.y,
                     h.normal.z, h.fraction, h.point.x, h.point.y, h.point.z, h.shape_point.x, h.shape_point.y,
                     h.shape_point.z);
        /* at the fraction the two points are (nearly) one: the contact */
        if (h.fraction > 0.0 && col_len(col_sub(h.shape_point, h.point)) > 1e-5 * (1.0 + col_len(d)))
            fail_msg("cast %d: points %g apart at the fraction", c, col_len(col_sub(h.shape_point, h.point)));
        if (kind == 3 && solid[c % ng] && body_solid(s, inside) && passes(s, inside, f))
            assert_true(h.fraction == 0.0);
        /* exactly: nothing that passes the filter touches the shape just before the fraction */
        col_body_id ids[NB];
        int n;
        if (h.fraction > 1e-9) {
            assert_int_equal(col_world_overlap_shape(s->w, qg, moved(pose, d, h.fraction - 1e-9), f, ids, NB, &n),
                             COL_OK);
            if (n != 0) fail_msg("cast %d: a body touches before the fraction %.17g", c, h.fraction);
        }
        /* and the hit body touches it within the time of impact's 1e-6 after it */
        double after = fmin(1.0, h.fraction + 2e-6);
        assert_int_equal(col_world_overlap_shape(s->w, qg, moved(pose, d, after), f, ids, NB, &n), COL_OK);
        if (!listed(ids, n, h.body)) fail_msg("cast %d: the hit body does not touch just after %.17g", c, h.fraction);
    }
    print_message("%s: %d casts, %d hits (%d after a move, %d meeting several bodies), %d at fraction 0, %d of zero "
                  "length\n",
                  name, casts, hits, moved_hits, multi, at_zero, zero_len);
    /* the generator must make hard cases: hits and misses, travelling hits, starts in
     * contact, casts through several bodies (for the all-hits list) */
    assert_true(hits * 4 > casts && hits < casts && moved_hits * 8 > casts && at_zero > 0 && zero_len > 0 &&
                multi * 10 > casts);
    col_query_scratch_destroy(scr);
}

static bool all_solid(const scene *s, int i)
{
    (void)s, (void)i;
    return true;
}

static void test_cast_shape_matches_brute_force(void **state)
{
    (void)state;
    rng_seed(SEED, "cast_shape_matches_brute_force");
    scene s;
    scene_make(&s);
    col_geometry *g[4];
    make_geometries(g);
    const bool solid[4] = {true, true, true, true};
    run_casts(&s, g, 4, solid, all_solid, 400, 0, "shape casts");
    for (int k = 0; k < 4; k++) col_geometry_destroy(g[k]);
    col_world_destroy(s.w);
}

/* Sweeps along faces, whose first contact is known: a box sliding on a box's top face
 * touches when the faces start to share a point; a hair higher it misses. */
static void test_cast_shape_grazing(void **state)
{
    (void)state;
    col_world_def def = col_default_world_def();
    col_world *w;
    assert_int_equal(col_world_create(&def, &w), COL_OK);
    col_shape_id box;
    assert_int_equal(col_shape_create_box(w, col_v3(1, 1, 1), &box), COL_OK);
    col_body_def bd = col_default_body_def();
    bd.shape = box;
    bd.pose = at(0, 0, 0);
    col_body_id b0, b1;
    assert_int_equal(col_body_create(w, &bd, &b0), COL_OK);
    bd.pose = at(3, 0, 0);
    assert_int_equal(col_body_create(w, &bd, &b1), COL_OK);
    assert_int_equal(col_world_update(w), COL_OK);
    col_geometry *qb, *qs;
    assert_int_equal(col_geometry_create_box(NULL, col_v3(0.5, 0.5, 0.5), &qb, NULL), COL_OK);
    assert_int_equal(col_geometry_create_sphere(NULL, 0.5, &qs, NULL), COL_OK);
    col_shape_hit h;
    bool found;
    /* box on the top face plane y = 1: contact when its right face reaches x = -1 */
    assert_int_equal(col_world_cast_shape(w, qb, at(-5, 1.5, 0), col_v3(10, 0, 0), NULL, &h, &found), COL_OK);
    assert_true(found);
    assert_int_equal(h.body.index1, b0.index1);
    assert_true(h.fraction <= 0.35 && h.fraction >= 0.35 - 1e-6);
    /* a hair above: nothing */
    assert_int_equal(col_world_cast_shape(w, qb, at(-5, 1.5 + 1e-9, 0), col_v3(10, 0, 0), NULL, &h, &found), COL_OK);
    assert_false(found);
    /* a sphere rolling on the top face: contact when its centre is above x = -1, normal +y */
    assert_int_equal(col_world_cast_shape(w, qs, at(-5, 1.5, 0), col_v3(10, 0, 0), NULL, &h, &found), COL_OK);
    assert_true(found);
    assert_int_equal(h.body.index1, b0.index1);
    assert_true(h.fraction <= 0.4 && h.fraction >= 0.4 - 1e-6);
    assert_true(h.normal.y > 0.999);
    /* a sphere sliding down along the side face x = -1: contact when its centre reaches z = 1 */
    assert_int_equal(col_world_cast_shape(w, qs, at(-1.5, 0, 5), col_v3(0, 0, -10), NULL, &h, &found), COL_OK);
    assert_true(found);
    assert_int_equal(h.body.index1, b0.index1);
    assert_true(h.fraction <= 0.4 && h.fraction >= 0.4 - 1e-6);
    assert_true(h.normal.x < -0.999);
    /* between the boxes (x in [1, 2]) a box of half width 0.5 touches both edges at once:
     * the time of impact may place the two contacts a little apart (within its 1e-6), so
     * either may win, at the right fraction */
    assert_int_equal(col_world_cast_shape(w, qb, at(1.5, 5, 0), col_v3(0, -10, 0), NULL, &h, &found), COL_OK);
    assert_true(found);
    assert_true(h.body.index1 == b0.index1 || h.body.index1 == b1.index1);
    assert_true(h.fraction <= 0.35 && h.fraction >= 0.35 - 1e-6);
    /* starting on the face: fraction 0 whatever the direction; zero length too */
    assert_int_equal(col_world_cast_shape(w, qb, at(0, 1.5, 0), col_v3(0, 5, 0), NULL, &h, &found), COL_OK);
    assert_true(found && h.fraction == 0.0);
    assert_int_equal(col_world_cast_shape(w, qb, at(0, 1.5, 0), col_v3(0, 0, 0), NULL, &h, &found), COL_OK);
    assert_true(found && h.fraction == 0.0);
    assert_int_equal(col_world_cast_shape(w, qb, at(0, 1.6, 0), col_v3(0, 0, 0), NULL, &h, &found), COL_OK);
    assert_false(found);
    col_geometry_destroy(qb);
    col_geometry_destroy(qs);
    col_world_destroy(w);
}

/* ---- meshes (C2A) ---- */

typedef struct mesh_data {
    col_vec3 v[64];
    uint32_t t[3 * 80];
    int nv, nt;
} mesh_data;

static col_mesh_def mesh_def(const mesh_data *m)
{
    col_mesh_def d = col_default_mesh_def();
    d.vertices = m->v, d.vertex_count = m->nv, d.indices = m->t, d.triangle_count = m->nt;
    return d;
}

static void tri(mesh_data *m, int a, int b, int c)
{
    m->t[3 * m->nt] = (uint32_t)a, m->t[3 * m->nt + 1] = (uint32_t)b, m->t[3 * m->nt + 2] = (uint32_t)c, m->nt++;
}

/* A closed bumpy ball (lat-long grid, poles shared), radius about r. */
static void md_ball(mesh_data *m, double r)
{
    enum { NLAT = 5, NLON = 6 };
    m->nv = m->nt = 0;
    m->v[m->nv++] = col_v3(0, 0, r);
    for (int i = 1; i < NLAT; i++)
        for (int j = 0; j < NLON; j++) {
            double th = PI * i / NLAT, ph = 2 * PI * j / NLON, rr = r * urange(0.8, 1.1);
            m->v[m->nv++] = col_v3(rr * sin(th) * cos(ph), rr * sin(th) * sin(ph), rr * cos(th));
        }
    m->v[m->nv++] = col_v3(0, 0, -r);
    int last = m->nv - 1;
    for (int j = 0; j < NLON; j++) {
        tri(m, 0, 1 + j, 1 + (j + 1) % NLON);
        tri(m, last, 1 + (NLAT - 2) * NLON + (j + 1) % NLON, 1 + (NLAT - 2) * NLON + j);
    }
    for (int i = 0; i < NLAT - 2; i++)
        for (int j = 0; j < NLON; j++) {
            int a = 1 + i * NLON + j, b = 1 + i * NLON + (j + 1) % NLON;
            tri(m, a, a + NLON, b);
            tri(m, b, a + NLON, b + NLON);
        }
}

/* An open wavy patch over [-r, r]^2 (a surface with a boundary: casts pass beside it,
 * graze its edges, cross it from either side). */
static void md_patch(mesh_data *m, double r)
{
    enum { N = 4 };
    m->nv = m->nt = 0;
    for (int i = 0; i <= N; i++)
        for (int j = 0; j <= N; j++)
            m->v[m->nv++] = col_v3(-r + 2 * r * i / N, urange(-0.1, 0.1) * r, -r + 2 * r * j / N);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            int a = i * (N + 1) + j;
            tri(m, a, a + 1, a + N + 1);
            tri(m, a + 1, a + N + 2, a + N + 1);
        }
}

/* A closed box of half extents h as 12 triangles (thin when one extent is small). */
static void md_slab(mesh_data *m, col_vec3 h)
{
    m->nv = m->nt = 0;
    for (int i = 0; i < 8; i++)
        m->v[m->nv++] = col_v3(i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z);
    static const int q[6][4] = {{0, 1, 3, 2}, {4, 6, 7, 5}, {0, 4, 5, 1}, {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 5, 7, 3}};
    for (int f = 0; f < 6; f++) tri(m, q[f][0], q[f][1], q[f][2]), tri(m, q[f][0], q[f][2], q[f][3]);
}

/* A soup of random triangles over [-r, r]^3 with degenerate ones: collinear points and a
 * repeated index (segments). No point triangles: a point crossing a surface touches it
 * for one instant only, which the check "touching just after the fraction" cannot see
 * (tests/test_c2a.c covers them). */
static void md_soup(mesh_data *m, double r)
{
    m->nv = m->nt = 0;
    for (int i = 0; i < 24; i++) m->v[m->nv++] = col_v3(urange(-r, r), urange(-r, r), urange(-r, r));
    m->v[m->nv++] = col_v3(-r, 0, 0), m->v[m->nv++] = col_v3(0, 0, 0), m->v[m->nv++] = col_v3(r, 0, 0);
    m->v[m->nv++] = col_v3(0, r, 0);
    for (int k = 0; k < 14; k++) tri(m, (int)(rng_next() % 24), (int)(rng_next() % 24), (int)(rng_next() % 24));
    tri(m, 24, 25, 26); /* collinear */
    tri(m, 27, 27, 25); /* a repeated index: a segment */
}

static col_shape_id shape_of(col_world *w, const mesh_data *m)
{
    col_mesh_def d = mesh_def(m);
    col_shape_id id;
    assert_int_equal(col_shape_create_mesh(w, &d, &id), COL_OK);
    return id;
}

static col_geometry *geometry_of(const mesh_data *m)
{
    col_mesh_def d = mesh_def(m);
    col_geometry *g;
    assert_int_equal(col_geometry_create_mesh(NULL, &d, &g, NULL), COL_OK);
    return g;
}

/* shapes 0..3 are meshes (ball, patch, thin slab, soup), 4..7 convex */
static bool mesh_scene_solid(const scene *s, int i)
{
    return i % s->nshapes >= 4;
}

/* Casts of convex and of mesh geometries among mesh and convex bodies: the brute force
 * (every body by col_geometry_toi, which hands meshes to C2A) and the exact substep
 * reference (the pair test at 192 instants: no contact before the fraction, none at all
 * without a hit), besides the checks of run_casts. */
static void test_cast_shape_meshes(void **state)
{
    (void)state;
    rng_seed(SEED + 1, "cast_shape_meshes");
    scene s;
    memset(&s, 0, sizeof s);
    s.nshapes = 8, s.nb = 32;
    col_world_def def = col_default_world_def();
    assert_int_equal(col_world_create(&def, &s.w), COL_OK);
    mesh_data m;
    md_ball(&m, 0.8);
    s.shapes[0] = shape_of(s.w, &m);
    md_patch(&m, 0.9);
    s.shapes[1] = shape_of(s.w, &m);
    md_slab(&m, col_v3(0.7, 0.004, 0.5));
    s.shapes[2] = shape_of(s.w, &m);
    md_soup(&m, 0.8);
    s.shapes[3] = shape_of(s.w, &m);
    col_vec3 pts[12];
    for (int i = 0; i < 12; i++) pts[i] = col_v3(urange(-0.7, 0.7), urange(-0.7, 0.7), urange(-0.7, 0.7));
    assert_int_equal(col_shape_create_convex(s.w, pts, 12, &s.shapes[4]), COL_OK);
    assert_int_equal(col_shape_create_box(s.w, col_v3(0.6, 0.3, 0.45), &s.shapes[5]), COL_OK);
    assert_int_equal(col_shape_create_sphere(s.w, 0.5, &s.shapes[6]), COL_OK);
    assert_int_equal(col_shape_create_capsule(s.w, 0.6, 0.25, &s.shapes[7]), COL_OK);
    scene_bodies(&s);
    col_geometry *g[6];
    make_geometries(g);
    md_ball(&m, 0.5);
    g[4] = geometry_of(&m);
    md_patch(&m, 0.6);
    g[5] = geometry_of(&m);
    const bool solid[6] = {true, true, true, true, false, false};
    run_casts(&s, g, 6, solid, mesh_scene_solid, 240, 192, "shape casts with meshes");
    for (int k = 0; k < 6; k++) col_geometry_destroy(g[k]);
    col_world_destroy(s.w);
}

static col_world *mesh_world(const mesh_data *m, col_transform pose, col_body_id *body)
{
    col_world_def def = col_default_world_def();
    col_world *w;
    assert_int_equal(col_world_create(&def, &w), COL_OK);
    col_body_def bd = col_default_body_def();
    bd.shape = shape_of(w, m);
    bd.pose = pose;
    bd.is_static = true;
    assert_int_equal(col_body_create(w, &bd, body), COL_OK);
    assert_int_equal(col_world_update(w), COL_OK);
    return w;
}

/* the one hit of a cast that must hit body b at a known fraction s, at most 1e-6 early */
static col_shape_hit hit_at(col_world *w, const col_geometry *g, col_transform pose, col_vec3 d, col_body_id b,
                            double s)
{
    col_shape_hit h;
    bool found;
    assert_int_equal(col_world_cast_shape(w, g, pose, d, NULL, &h, &found), COL_OK);
    if (!found) fail_msg("no hit, want %.17g", s);
    assert_int_equal(h.body.index1, b.index1);
    /* s itself is rounded (the vertices are): allow it 1e-12 */
    if (!(h.fraction <= s + 1e-12 && h.fraction >= s - 1e-6)) fail_msg("fraction %.17g, want %.17g", h.fraction, s);
    return h;
}

static void miss(col_world *w, const col_geometry *g, col_transform pose, col_vec3 d)
{
    col_shape_hit h;
    bool found = true;
    assert_int_equal(col_world_cast_shape(w, g, pose, d, NULL, &h, &found), COL_OK);
    if (found) fail_msg("a hit at %.17g, want none", h.fraction);
}

/* Known first contacts with a mesh floor (the square [-2, 2]^2 at y = 0, two triangles):
 * grazing along its plane (hit at its edge) and a hair above (miss), landing from above
 * and from below (a surface: both sides, normal toward the shape, the caller's triangle
 * number), starting on it (fraction 0, any direction, zero length), a small fast sphere
 * crossing it in one cast, and a mesh moving onto it. */
static void test_cast_shape_mesh_floor(void **state)
{
    (void)state;
    mesh_data m = {.nv = 4};
    m.v[0] = col_v3(-2, 0, -2), m.v[1] = col_v3(2, 0, -2), m.v[2] = col_v3(2, 0, 2), m.v[3] = col_v3(-2, 0, 2);
    tri(&m, 0, 2, 1);
    tri(&m, 0, 3, 2);
    col_body_id b;
    col_world *w = mesh_world(&m, at(0, 0, 0), &b);
    col_geometry *qb, *qs, *qt;
    assert_int_equal(col_geometry_create_box(NULL, col_v3(0.5, 0.5, 0.5), &qb, NULL), COL_OK);
    assert_int_equal(col_geometry_create_sphere(NULL, 0.5, &qs, NULL), COL_OK);
    /* box on the plane: contact when its right face reaches x = -2 */
    hit_at(w, qb, at(-5, 0.5, 0), col_v3(10, 0, 0), b, 0.25);
    miss(w, qb, at(-5, 0.5 + 1e-9, 0), col_v3(10, 0, 0));
    /* sphere rolling on it: contact when its centre is above the edge x = -2 */
    hit_at(w, qs, at(-5, 0.5, 0), col_v3(10, 0, 0), b, 0.3);
    miss(w, qs, at(-5, 0.5 + 1e-9, 0), col_v3(10, 0, 0));
    /* landing on triangle 1 (z > x) from above and from below */
    col_shape_hit h = hit_at(w, qs, at(0.3, 5, 0.7), col_v3(0, -10, 0), b, 0.45);
    assert_int_equal(h.piece, 1);
    assert_true(h.normal.y > 0.999999);
    assert_true(col_len(col_sub(h.point, col_v3(0.3, 0, 0.7))) < 1e-5);
    assert_true(col_len(col_sub(h.shape_point, col_v3(0.3, 0, 0.7))) < 1e-5);
    h = hit_at(w, qs, at(0.3, -5, 0.7), col_v3(0, 10, 0), b, 0.45);
    assert_int_equal(h.piece, 1);
    assert_true(h.normal.y < -0.999999);
    h = hit_at(w, qs, at(0.7, 5, 0.3), col_v3(0, -10, 0), b, 0.45);
    assert_int_equal(h.piece, 0);
    /* starting on it: fraction 0 whatever the direction; zero length; just off it: none */
    hit_at(w, qs, at(0, 0.5, 0), col_v3(3, 0, 0), b, 0.0);
    hit_at(w, qs, at(0, 0.5, 0), col_v3(0, 3, 0), b, 0.0);
    hit_at(w, qs, at(0, 0.5, 0), col_v3(0, 0, 0), b, 0.0);
    miss(w, qs, at(0, 0.6, 0), col_v3(0, 0, 0));
    /* a small sphere crossing the plane in one long cast: contact at y = 0.05 */
    assert_int_equal(col_geometry_create_sphere(NULL, 0.05, &qt, NULL), COL_OK);
    hit_at(w, qt, at(1, 50, 1), col_v3(0, -100, 0), b, (50 - 0.05) / 100);
    /* a mesh falling onto it: a triangle whose lowest vertex is its origin (mesh-mesh) */
    mesh_data t = {.nv = 3};
    t.v[0] = col_v3(0, 0, 0), t.v[1] = col_v3(1, 0.5, 0), t.v[2] = col_v3(0, 0.5, 1);
    tri(&t, 0, 1, 2);
    col_geometry *gt = geometry_of(&t);
    h = hit_at(w, gt, at(0.2, 3, 0.3), col_v3(0, -6, 0), b, 0.5);
    assert_true(col_len(col_sub(h.shape_point, col_v3(0.2, 0, 0.3))) < 1e-5);
    assert_int_equal(h.shape_piece, 0);
    hit_at(w, gt, at(0.2, 0, 0.3), col_v3(5, 0, 0), b, 0.0);
    miss(w, gt, at(0.2, 1e-9, 0.3), col_v3(0, 0, 3));
    /* a closed mesh box falling onto it: its bottom face at y = 0 */
    mesh_data sl;
    md_slab(&sl, col_v3(0.5, 0.05, 0.5));
    col_geometry *gs = geometry_of(&sl);
    hit_at(w, gs, at(0, 5, 0), col_v3(0, -10, 0), b, (5 - 0.05) / 10);
    col_geometry_destroy(gs);
    col_geometry_destroy(gt);
    col_geometry_destroy(qt);
    col_geometry_destroy(qb);
    col_geometry_destroy(qs);
    col_world_destroy(w);
}

/* Casts that pass between triangles: two quads of a mesh leave a slit 0.2 wide (x in
 * [-0.1, 0.1]) at y = 0. A sphere of radius 0.1 dropped through its middle touches both
 * edges as its centre crosses y = 0; a hair thinner, or a thin box, falls through; a
 * capsule lying across it lands on both. A thin closed slab (0.002 thick) below stops
 * what passes. */
static void test_cast_shape_mesh_slit(void **state)
{
    (void)state;
    mesh_data m = {.nv = 8};
    m.v[0] = col_v3(-2, 0, -2), m.v[1] = col_v3(-0.1, 0, -2), m.v[2] = col_v3(-0.1, 0, 2), m.v[3] = col_v3(-2, 0, 2);
    m.v[4] = col_v3(0.1, 0, -2), m.v[5] = col_v3(2, 0, -2), m.v[6] = col_v3(2, 0, 2), m.v[7] = col_v3(0.1, 0, 2);
    tri(&m, 0, 1, 2), tri(&m, 0, 2, 3), tri(&m, 4, 5, 6), tri(&m, 4, 6, 7);
    col_body_id b, slab;
    col_world *w = mesh_world(&m, at(0, 0, 0), &b);
    mesh_data sl;
    md_slab(&sl, col_v3(1, 0.001, 1));
    col_body_def bd = col_default_body_def();
    bd.shape = shape_of(w, &sl);
    bd.pose = at(0, -3, 0);
    assert_int_equal(col_body_create(w, &bd, &slab), COL_OK);
    assert_int_equal(col_world_update(w), COL_OK);
    col_geometry *g;
    assert_int_equal(col_geometry_create_sphere(NULL, 0.1, &g, NULL), COL_OK);
    hit_at(w, g, at(0, 5, 0), col_v3(0, -10, 0), b, 0.5);
    col_geometry_destroy(g);
    /* a hair thinner: through the slit, onto the slab's top face at y = -2.999 */
    assert_int_equal(col_geometry_create_sphere(NULL, 0.1 - 1e-9, &g, NULL), COL_OK);
    hit_at(w, g, at(0, 5, 0), col_v3(0, -10, 0), slab, (5 + 2.999 - (0.1 - 1e-9)) / 10);
    col_geometry_destroy(g);
    assert_int_equal(col_geometry_create_box(NULL, col_v3(0.05, 0.3, 1), &g, NULL), COL_OK);
    hit_at(w, g, at(0, 5, 0), col_v3(0, -10, 0), slab, (5 + 2.999 - 0.3) / 10);
    /* beside the slab: nothing */
    miss(w, g, at(0, 5, 3.5), col_v3(0, -10, 0));
    col_geometry_destroy(g);
    /* a capsule across the slit (its axis, z, along x after a quarter turn about y) */
    assert_int_equal(col_geometry_create_capsule(NULL, 0.5, 0.05, &g, NULL), COL_OK);
    col_transform p = at(0, 5, 0);
    p.q = (col_quat){0, sqrt(0.5), 0, sqrt(0.5)};
    hit_at(w, g, p, col_v3(0, -10, 0), b, (5 - 0.05) / 10);
    col_geometry_destroy(g);
    /* a mesh through the slit: a vertical triangle 0.1 wide falls onto the slab */
    mesh_data t = {.nv = 3};
    t.v[0] = col_v3(0, 0, 0), t.v[1] = col_v3(-0.05, 1, 0), t.v[2] = col_v3(0.05, 1, 0);
    tri(&t, 0, 1, 2);
    g = geometry_of(&t);
    hit_at(w, g, at(0, 5, 0), col_v3(0, -10, 0), slab, (5 + 2.999) / 10);
    /* wider than the slit: its edges land on the slit's edges */
    t.v[1] = col_v3(-0.3, 1, 0), t.v[2] = col_v3(0.3, 1, 0);
    col_geometry *g2 = geometry_of(&t);
    hit_at(w, g2, at(0, 5, 0), col_v3(0, -10, 0), b, (5 + 1.0 / 3.0) / 10);
    col_geometry_destroy(g2);
    col_geometry_destroy(g);
    col_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cast_shape_matches_brute_force),
        cmocka_unit_test(test_cast_shape_grazing),
        cmocka_unit_test(test_cast_shape_meshes),
        cmocka_unit_test(test_cast_shape_mesh_floor),
        cmocka_unit_test(test_cast_shape_mesh_slit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
