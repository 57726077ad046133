/* SPDX-License-Identifier: MIT */
/* World queries (issue 20: include/colibri/worldquery.h) against an exact brute force that
 * knows nothing of the query tree or the ray kernels: a ray hits a body iff the GMP oracle
 * (tests/oracle_round.h) says the segment (a two-point set, or one point) is within the
 * piece's radius of the piece's WORLD core points (col_xform_point of the pose as set), for
 * some piece, or shares a point with some triangle of a mesh. Rays are drawn to be hard:
 * random ones, ones ending exactly on a vertex, running along edges and inside face
 * planes, starting on a vertex, inside a body, tangent to spheres, and of zero length;
 * some bodies are moved after the update (the set poses must count). Fractions are
 * checked by the oracle on the prefixes just before and just after them. Shape overlap is
 * checked against the oracle pair decision, box overlap against the bodies' boxes. */
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
#include "lib/world.h"
#include "oracle_round.h"
#include "test_util.h"

#define SEED 0x20a7ULL
#define PI 3.14159265358979323846
#define ROOM 8.0
#define NB 48
#define FRAC_TOL 1e-9

typedef struct scene {
    col_world *w;
    col_shape_id shapes[12];
    int nshapes;
    col_body_id id[NB];
} scene;

/* Sizes scale with COLIBRI_TEST_SCALE (default 1). */
static int scaled(int n)
{
    const char *env = getenv("COLIBRI_TEST_SCALE");
    double f = env != NULL ? atof(env) : 1.0;
    int k = (int)(n * (f > 0.0 ? f : 1.0));
    return k < 6 ? 6 : k;
}

/* ---- shapes ---- */

static col_shape_id make_mesh(col_world *w, const col_vec3 *v, int nv, const uint32_t *t, int nt)
{
    col_mesh_def d = col_default_mesh_def();
    d.vertices = v, d.vertex_count = nv, d.indices = t, d.triangle_count = nt;
    col_shape_id id;
    assert_int_equal(col_shape_create_mesh(w, &d, &id), COL_OK);
    return id;
}

/* A closed octahedron-like bumpy ball (lat-long grid, poles shared). */
static col_shape_id mesh_ball(col_world *w, double r)
{
    enum { NLAT = 5, NLON = 6 };
    col_vec3 v[2 + (NLAT - 1) * NLON];
    uint32_t t[3 * 2 * NLAT * NLON];
    int nv = 0, nt = 0;
    v[nv++] = col_v3(0, 0, r);
    for (int i = 1; i < NLAT; i++)
        for (int j = 0; j < NLON; j++) {
            double th = PI * i / NLAT, ph = 2 * PI * j / NLON, rr = r * urange(0.8, 1.1);
            v[nv++] = col_v3(rr * sin(th) * cos(ph), rr * sin(th) * sin(ph), rr * cos(th));
        }
    v[nv++] = col_v3(0, 0, -r);
    for (int j = 0; j < NLON; j++) {
        uint32_t a = 1 + (uint32_t)j, b = 1 + (uint32_t)((j + 1) % NLON);
        t[3 * nt] = 0, t[3 * nt + 1] = a, t[3 * nt + 2] = b, nt++;
        uint32_t c = (uint32_t)(1 + (NLAT - 2) * NLON + j), d = (uint32_t)(1 + (NLAT - 2) * NLON + (j + 1) % NLON);
        t[3 * nt] = (uint32_t)(nv - 1), t[3 * nt + 1] = d, t[3 * nt + 2] = c, nt++;
    }
    for (int i = 0; i < NLAT - 2; i++)
        for (int j = 0; j < NLON; j++) {
            uint32_t a = (uint32_t)(1 + i * NLON + j), b = (uint32_t)(1 + i * NLON + (j + 1) % NLON);
            uint32_t c = a + NLON, d = b + NLON;
            t[3 * nt] = a, t[3 * nt + 1] = c, t[3 * nt + 2] = b, nt++;
            t[3 * nt] = b, t[3 * nt + 1] = c, t[3 * nt + 2] = d, nt++;
        }
    return make_mesh(w, v, nv, t, nt);
}

/* A soup: random triangles, some degenerate (a repeated index, collinear points). */
static col_shape_id mesh_soup(col_world *w, double r)
{
    col_vec3 v[40];
    uint32_t t[3 * 30];
    for (int i = 0; i < 36; i++) v[i] = col_v3(urange(-r, r), urange(-r, r), urange(-r, r));
    v[36] = col_v3(-r, 0, 0), v[37] = col_v3(0, 0, 0), v[38] = col_v3(r, 0, 0), v[39] = col_v3(0, r, 0);
    for (int k = 0; k < 27; k++)
        for (int i = 0; i < 3; i++) t[3 * k + i] = (uint32_t)(rng_next() % 36);
    t[81] = 36, t[82] = 37, t[83] = 38; /* collinear */
    t[84] = 39, t[85] = 39, t[86] = 37; /* a repeated index: a segment */
    t[87] = 5, t[88] = 5, t[89] = 5;    /* a point */
    return make_mesh(w, v, 40, t, 30);
}

static void make_shapes(scene *s)
{
    col_world *w = s->w;
    col_vec3 pts[12];
    for (int k = 0; k < 2; k++) {
        for (int i = 0; i < 12; i++) pts[i] = col_v3(urange(-0.7, 0.7), urange(-0.7, 0.7), urange(-0.7, 0.7));
        assert_int_equal(col_shape_create_convex(w, pts, 12, &s->shapes[k]), COL_OK);
    }
    assert_int_equal(col_shape_create_box(w, col_v3(0.6, 0.3, 0.45), &s->shapes[2]), COL_OK);
    assert_int_equal(col_shape_create_sphere(w, 0.5, &s->shapes[3]), COL_OK);
    assert_int_equal(col_shape_create_capsule(w, 0.6, 0.25, &s->shapes[4]), COL_OK);
    col_compound_child kids[2] = {{s->shapes[2], {{0.5, 0, 0}, {0, 0, 0, 1}}},
                                  {s->shapes[4], {{-0.5, 0, 0}, {0, 0.6, 0, 0.8}}}};
    assert_int_equal(col_shape_create_compound(w, kids, 2, &s->shapes[5]), COL_OK);
    s->shapes[6] = mesh_ball(w, 0.8);
    s->shapes[7] = mesh_soup(w, 0.8);
    s->nshapes = 8;
}

static col_transform random_pose(void)
{
    col_transform t;
    t.p = col_v3(urange(1, ROOM - 1), urange(1, ROOM - 1), urange(1, ROOM - 1));
    t.q = random_quat();
    return t;
}

/* Bodies in a room, updated once; then a few moved (their set poses count) and a few with
 * other filter groups. */
static void scene_make(scene *s, int workers)
{
    memset(s, 0, sizeof *s);
    col_world_def def = col_default_world_def();
    def.worker_count = workers;
    assert_int_equal(col_world_create(&def, &s->w), COL_OK);
    make_shapes(s);
    for (int i = 0; i < NB; i++) {
        col_body_def bd = col_default_body_def();
        bd.shape = s->shapes[i % s->nshapes];
        bd.pose = random_pose();
        bd.filter_group = 1u << (i % 3);
        bd.is_static = i % 7 == 0;
        assert_int_equal(col_body_create(s->w, &bd, &s->id[i]), COL_OK);
    }
    assert_int_equal(col_world_update(s->w), COL_OK);
}

static void scene_move_some(scene *s)
{
    for (int i = 1; i < NB; i += 5) assert_int_equal(col_body_set_pose(s->w, s->id[i], random_pose()), COL_OK);
}

/* ---- the oracle ---- */

static col_xform body_xf(const scene *s, int i)
{
    col_transform p;
    assert_int_equal(col_body_get_pose(s->w, s->id[i], &p), COL_OK);
    return col_xform_from_transform(p);
}

static const col_geometry *body_geom(const scene *s, int i)
{
    const col_world *w = s->w;
    return w->shapes[w->bodies[s->id[i].index1 - 1].shape].geom;
}

static void set_points(oracle_set *o, const col_vec3 *p, int n)
{
    assert_true(n <= ORACLE_MAXP);
    o->n = n;
    for (int i = 0; i < n; i++) o->w[i] = p[i];
}

static void set_piece(oracle_set *o, const col_piece *pc, const col_xform *xf)
{
    int n;
    const col_vec3 *p = col_piece_points(pc, &n);
    assert_true(n <= ORACLE_MAXP);
    o->n = n;
    for (int i = 0; i < n; i++) o->w[i] = col_xform_point(xf, p[i]);
    if (pc->kind == COL_SHAPE_HULL)
        oracle_features_hull(o, pc->hull.face_count, pc->hull.face_first, pc->hull.face_verts, pc->hull.edge_count,
                             pc->hull.edge_verts);
    else
        oracle_features_core(o);
}

/* Exact: does geometry g at xf share a point with the set q of radius rq? Boxes first (exact
 * on the world points, widened by the radii). */
static bool oracle_meets(const col_geometry *g, const col_xform *xf, const oracle_set *q, double rq)
{
    col_vec3 qmin = q->w[0], qmax = q->w[0];
    for (int i = 1; i < q->n; i++) {
        qmin = col_v3(fmin(qmin.x, q->w[i].x), fmin(qmin.y, q->w[i].y), fmin(qmin.z, q->w[i].z));
        qmax = col_v3(fmax(qmax.x, q->w[i].x), fmax(qmax.y, q->w[i].y), fmax(qmax.z, q->w[i].z));
    }
    oracle_set o;
    if (col_geometry_is_mesh(g)) {
        const col_mesh *m = &g->mesh;
        for (int k = 0; k < m->triangle_count; k++) {
            col_vec3 loc[3], wv[3];
            col_mesh_triangle(m, k, loc);
            for (int i = 0; i < 3; i++) wv[i] = col_xform_point(xf, loc[i]);
            double pad = rq * 1.000001 + 1e-300;
            bool apart = false;
            for (int a = 0; a < 3 && !apart; a++) {
                double lo = HUGE_VAL, hi = -HUGE_VAL;
                for (int i = 0; i < 3; i++) {
                    double c = a == 0 ? wv[i].x : a == 1 ? wv[i].y : wv[i].z;
                    lo = fmin(lo, c), hi = fmax(hi, c);
                }
                double ql = a == 0 ? qmin.x : a == 1 ? qmin.y : qmin.z, qh = a == 0 ? qmax.x : a == 1 ? qmax.y : qmax.z;
                apart = lo > qh + pad || ql > hi + pad;
            }
            if (apart) continue;
            set_points(&o, wv, 3);
            oracle_features_all(&o);
            if (oracle_round_collide(&o, 0.0, q, rq)) return true;
        }
        return false;
    }
    for (int k = 0; k < g->piece_count; k++) {
        set_piece(&o, &g->pieces[k], xf);
        if (oracle_round_collide(&o, g->pieces[k].radius, q, rq)) return true;
    }
    return false;
}

static void set_segment(oracle_set *o, col_vec3 a, col_vec3 b)
{
    bool same = a.x == b.x && a.y == b.y && a.z == b.z;
    o->n = same ? 1 : 2;
    o->w[0] = a, o->w[1] = b;
    oracle_features_core(o);
}

/* Is the segment within rho of body i (rho 0: does it meet it)? */
static bool oracle_ray_body_within(const scene *s, int i, col_vec3 a, col_vec3 b, double rho)
{
    col_xform xf = body_xf(s, i);
    oracle_set q;
    set_segment(&q, a, b);
    return oracle_meets(body_geom(s, i), &xf, &q, rho);
}

static bool oracle_ray_body(const scene *s, int i, col_vec3 a, col_vec3 b)
{
    return oracle_ray_body_within(s, i, a, b, 0.0);
}

/* ---- rays ---- */

typedef struct ray {
    col_vec3 a, d;
    int kind, body; /* the body it was drawn from */
} ray;

/* A world core point of body i (a hull or mesh vertex, a sphere's centre, ...). */
static col_vec3 body_point(const scene *s, int i, int *count, int pick)
{
    const col_geometry *g = body_geom(s, i);
    col_xform xf = body_xf(s, i);
    if (col_geometry_is_mesh(g)) {
        *count = g->mesh.vertex_count;
        return col_xform_point(&xf, g->mesh.vertices[pick % g->mesh.vertex_count]);
    }
    const col_piece *pc = &g->pieces[pick % g->piece_count];
    int n;
    const col_vec3 *p = col_piece_points(pc, &n);
    *count = n;
    return col_xform_point(&xf, p[(pick / g->piece_count) % n]);
}

static col_vec3 random_dir(void)
{
    double z = urange(-1, 1), ph = urange(0, 2 * PI);
    return col_v3(sqrt(1 - z * z) * cos(ph), sqrt(1 - z * z) * sin(ph), z);
}

static ray make_ray(const scene *s, int kind)
{
    ray r;
    r.kind = kind;
    int i = (int)(rng_next() % NB), n;
    int pick = (int)(rng_next() % 1000);
    r.body = i;
    col_vec3 v = body_point(s, i, &n, pick);
    switch (kind) {
    case 0: /* anywhere */
        r.a = col_v3(urange(0, ROOM), urange(0, ROOM), urange(0, ROOM));
        r.d = col_scale(random_dir(), urange(0.5, ROOM));
        break;
    case 1: /* ending on a vertex */
        r.d = col_scale(random_dir(), urange(0.5, 4));
        r.a = col_sub(v, r.d);
        r.d = col_sub(v, r.a);
        break;
    case 2: { /* along an edge or a face of a piece: from one core point to another */
        col_vec3 u = body_point(s, i, &n, pick + 1 + (int)(rng_next() % 7));
        r.a = v;
        r.d = col_scale(col_sub(u, v), urange(0.2, 3));
        break;
    }
    case 3: /* starting on a vertex */
        r.a = v;
        r.d = col_scale(random_dir(), urange(0.5, 4));
        break;
    case 4: { /* starting inside (the body's origin) */
        col_transform p;
        assert_int_equal(col_body_get_pose(s->w, s->id[i], &p), COL_OK);
        r.a = p.p;
        r.d = col_scale(random_dir(), urange(0.5, 4));
        break;
    }
    case 5: /* zero length: on a vertex or anywhere */
        r.a = rng_next() % 2 ? v : col_v3(urange(0, ROOM), urange(0, ROOM), urange(0, ROOM));
        r.d = col_v3(0, 0, 0);
        break;
    default: { /* through a vertex, both ways */
        col_vec3 d = col_scale(random_dir(), urange(0.5, 3));
        r.a = col_sub(v, d);
        r.d = col_scale(d, 2.0);
        break;
    }
    }
    return r;
}

static int body_index(const scene *s, col_body_id id)
{
    for (int i = 0; i < NB; i++)
        if (s->id[i].index1 == id.index1) return i;
    fail_msg("unknown body %u", id.index1);
    return -1;
}

static bool drop_fifths(col_body_id body, void *user_data, void *ctx)
{
    (void)user_data, (void)ctx;
    return (body.index1 - 1) % 5 != 0;
}

static bool body_filtered_in(const scene *s, int i, const col_query_filter *f)
{
    const col_body_rec *b = &s->w->bodies[s->id[i].index1 - 1];
    const col_body_hot *h = &s->w->hot[s->id[i].index1 - 1]; /* the filter bits' one copy */
    if ((f->group & h->mask) == 0 || (h->group & f->mask) == 0) return false;
    return f->fn == NULL || f->fn(s->id[i], b->user_data, f->ctx);
}

/* Checks one ray against the brute force; returns the number of hits. */
static int check_ray(const scene *s, const ray *r, const col_query_filter *f, long *exact_touch)
{
    col_vec3 b = col_add(r->a, r->d);
    bool truth[NB];
    int nt = 0;
    for (int i = 0; i < NB; i++) {
        truth[i] = body_filtered_in(s, i, f) && oracle_ray_body(s, i, r->a, b);
        nt += truth[i];
    }
    col_ray_hit hits[NB];
    int count = -1;
    assert_int_equal(col_world_cast_ray_all(s->w, r->a, r->d, f, hits, NB, &count), COL_OK);
    bool got[NB] = {false};
    for (int k = 0; k < count; k++) {
        int i = body_index(s, hits[k].body);
        if (!truth[i]) fail_msg("ray kind %d: body %d reported hit at %.17g, the oracle says miss", r->kind, i, hits[k].fraction);
        assert_false(got[i]);
        got[i] = true;
        double t = hits[k].fraction;
        assert_true(t >= 0.0 && t <= 1.0);
        if (k > 0) {
            assert_true(hits[k - 1].fraction <= t);
            if (hits[k - 1].fraction == t) assert_true(hits[k - 1].body.index1 < hits[k].body.index1);
        }
        /* the first contact: the prefix just after t meets the body, the one just before
         * does not. A prefix's end is rounded, which turns it by ~1e-16: a ray that only
         * touches (at a vertex) may miss with every prefix, so the after-prefix is
         * thickened by 1e-12 (still far below the fraction tolerance times |d|) */
        double hi = fmin(1.0, t + FRAC_TOL), lo = t - FRAC_TOL;
        col_vec3 xh = hi == 1.0 ? b : col_add(r->a, col_scale(r->d, hi));
        if (!oracle_ray_body_within(s, i, r->a, xh, 1e-12)) fail_msg("ray kind %d body %d: nothing by t = %.17g + tol", r->kind, i, t);
        if (lo > 0.0 && oracle_ray_body(s, i, r->a, col_add(r->a, col_scale(r->d, lo))))
            fail_msg("ray kind %d body %d: a contact before t = %.17g - tol", r->kind, i, t);
        double nl = col_len(hits[k].normal);
        assert_true(nl == 0.0 || fabs(nl - 1.0) < 1e-9);
    }
    for (int i = 0; i < NB; i++)
        if (truth[i] && !got[i]) fail_msg("ray kind %d: body %d missed (the oracle says hit)", r->kind, i);
    assert_int_equal(count, nt);
    /* closest and any agree with the list */
    col_ray_hit h;
    bool found;
    assert_int_equal(col_world_cast_ray(s->w, r->a, r->d, f, &h, &found), COL_OK);
    assert_int_equal(found, nt > 0);
    if (found) {
        assert_int_equal(h.body.index1, hits[0].body.index1);
        assert_true(h.fraction == hits[0].fraction);
    }
    assert_int_equal(col_world_cast_ray_any(s->w, r->a, r->d, f, &h, &found), COL_OK);
    assert_int_equal(found, nt > 0);
    if (found) assert_true(truth[body_index(s, h.body)]);
    /* a ray that ends exactly on a vertex touches */
    if (r->kind == 1 && nt > 0) (*exact_touch)++;
    return nt;
}

static void run_rays(scene *s, const char *what)
{
    col_query_filter every = col_default_query_filter();
    col_query_filter some = col_default_query_filter();
    some.mask = 3u; /* not group 4 */
    some.fn = drop_fifths;
    long hits[8] = {0}, rays[8] = {0}, touch = 0;
    int per_kind = scaled(90);
    for (int kind = 0; kind < 7; kind++)
        for (int k = 0; k < per_kind; k++) {
            ray r = make_ray(s, kind);
            int n = check_ray(s, &r, k % 3 == 2 ? &some : &every, &touch);
            hits[kind] += n > 0;
            rays[kind]++;
            if (kind == 4 && r.body % s->nshapes < 5 && k % 3 != 2) { /* a solid convex body */
                col_ray_hit h;
                bool found;
                assert_int_equal(col_world_cast_ray(s->w, r.a, r.d, NULL, &h, &found), COL_OK);
                assert_true(found && h.fraction == 0.0); /* starts inside: fraction 0 */
            }
        }
    for (int kind = 0; kind < 7; kind++)
        print_message("%s: ray kind %d: %ld of %ld hit\n", what, kind, hits[kind], rays[kind]);
    /* the generator must make hard cases: most vertex, edge and inside rays hit */
    for (int kind = 1; kind <= 4; kind++) assert_true(hits[kind] * 2 > rays[kind]);
    assert_true(hits[0] > 0 && hits[0] < rays[0]);
}

static void test_rays_match_exact_brute_force(void **state)
{
    (void)state;
    rng_seed(SEED, __func__);
    oracle_round_init();
    scene s;
    scene_make(&s, 1);
    run_rays(&s, "after the update");
    scene_move_some(&s);
    run_rays(&s, "moved since");
    assert_int_equal(col_world_update(s.w), COL_OK);
    run_rays(&s, "updated again");
    col_world_destroy(s.w);
    oracle_round_fini();
}

/* A few fixed rays whose answers are known by construction. */
static void test_rays_by_construction(void **state)
{
    (void)state;
    col_world *w;
    col_world_def def = col_default_world_def();
    assert_int_equal(col_world_create(&def, &w), COL_OK);
    col_shape_id box, ball;
    assert_int_equal(col_shape_create_box(w, col_v3(1, 1, 1), &box), COL_OK);
    assert_int_equal(col_shape_create_sphere(w, 1, &ball), COL_OK);
    col_body_def bd = col_default_body_def();
    col_body_id a, c, d;
    bd.shape = box, bd.pose.p = col_v3(0, 0, 0);
    assert_int_equal(col_body_create(w, &bd, &a), COL_OK);
    bd.shape = ball, bd.pose.p = col_v3(5, 0, 0);
    assert_int_equal(col_body_create(w, &bd, &c), COL_OK);
    bd.shape = box, bd.pose.p = col_v3(0, 5, 0); /* a twin of a, same distance: ties */
    assert_int_equal(col_body_create(w, &bd, &d), COL_OK);
    assert_int_equal(col_world_update(w), COL_OK);
    col_ray_hit h;
    bool found;
    /* straight into the box's face x = -1 */
    assert_int_equal(col_world_cast_ray(w, col_v3(-3, 0.5, 0.5), col_v3(4, 0, 0), NULL, &h, &found), COL_OK);
    assert_true(found && h.body.index1 == a.index1 && h.fraction == 0.5);
    assert_true(h.normal.x == -1.0 && h.point.x == -1.0);
    /* grazing the edge y = 1, z = 1 of the box: touching counts */
    assert_int_equal(col_world_cast_ray(w, col_v3(-3, 1, 1), col_v3(6, 0, 0), NULL, &h, &found), COL_OK);
    assert_true(found && h.body.index1 == a.index1);
    /* just above it: a miss */
    assert_int_equal(col_world_cast_ray(w, col_v3(-3, 1, nextafter(1.0, 2.0)), col_v3(6, 0, 0), NULL, &h, &found),
                     COL_OK);
    assert_false(found);
    /* tangent to the ball at its top: touching counts; a hair above misses */
    assert_int_equal(col_world_cast_ray(w, col_v3(3, 0, 1), col_v3(4, 0, 0), NULL, &h, &found), COL_OK);
    assert_true(found && h.body.index1 == c.index1 && fabs(h.fraction - 0.5) < 1e-7);
    assert_int_equal(col_world_cast_ray(w, col_v3(3, 0, nextafter(1.0, 2.0)), col_v3(4, 0, 0), NULL, &h, &found),
                     COL_OK);
    assert_false(found);
    /* ending exactly on the face: t = 1 */
    assert_int_equal(col_world_cast_ray(w, col_v3(-3, 0, 0), col_v3(2, 0, 0), NULL, &h, &found), COL_OK);
    assert_true(found && h.fraction == 1.0);
    /* starting inside: fraction 0, normal against the ray */
    assert_int_equal(col_world_cast_ray(w, col_v3(0.2, 0, 0), col_v3(0, 0, 3), NULL, &h, &found), COL_OK);
    assert_true(found && h.fraction == 0.0 && h.normal.z == -1.0);
    /* zero length: inside, on the surface, outside */
    assert_int_equal(col_world_cast_ray(w, col_v3(0.2, 0, 0), col_v3(0, 0, 0), NULL, &h, &found), COL_OK);
    assert_true(found && h.fraction == 0.0);
    assert_int_equal(col_world_cast_ray(w, col_v3(1, 1, 1), col_v3(0, 0, 0), NULL, &h, &found), COL_OK);
    assert_true(found && h.body.index1 == a.index1);
    assert_int_equal(col_world_cast_ray(w, col_v3(1, 1, nextafter(1.0, 2.0)), col_v3(0, 0, 0), NULL, &h, &found),
                     COL_OK);
    assert_false(found);
    /* a tie: the ray from (3, 3, 0) toward (-1, -1, 0) meets both boxes' corners... use the
     * symmetric ray along the diagonal between a and d: equal fractions, smaller index wins */
    assert_int_equal(col_world_cast_ray(w, col_v3(-2, 2.5, 0), col_v3(4, 0, 0), NULL, &h, &found), COL_OK);
    assert_false(found);
    col_ray_hit all[3];
    int n;
    assert_int_equal(col_world_cast_ray_all(w, col_v3(3, 2.5, 0.5), col_v3(-6, 0, 0), NULL, all, 3, &n), COL_OK);
    assert_int_equal(n, 0);
    assert_int_equal(col_world_cast_ray_all(w, col_v3(-1, -3, 0.5), col_v3(0, 10, 0), NULL, all, 3, &n), COL_OK);
    assert_int_equal(n, 2); /* runs along the face x = -1 of both boxes */
    assert_true(all[0].body.index1 == a.index1 && all[1].body.index1 == d.index1);
    /* capacity below the count: the first ones, the count of all */
    assert_int_equal(col_world_cast_ray_all(w, col_v3(-1, -3, 0.5), col_v3(0, 10, 0), NULL, all, 1, &n), COL_OK);
    assert_int_equal(n, 2);
    assert_true(all[0].body.index1 == a.index1);
    /* the tie: a ray through the midpoint between a and d parallel to the x axis at
     * y = 2.5 misses both; one along z through both boxes' shared x-y range is not a tie,
     * but two boxes at equal distance along a ray are: from (0, 2.5, 5) straight down the
     * plane y = 2.5 meets neither; so build one: from (-5, 0.5, 0.5) along +x meets a at
     * 0.4; d does not lie on it. Ties are checked in the randomized test (sorted list). */
    col_world_destroy(w);
}

/* Shape overlap against the oracle pair decision; box overlap against the boxes. */
static void test_overlaps_match_brute_force(void **state)
{
    (void)state;
    rng_seed(SEED + 1, __func__);
    oracle_round_init();
    scene s;
    scene_make(&s, 1);
    col_geometry *qg[3];
    col_vec3 pts[10];
    for (int i = 0; i < 10; i++) pts[i] = col_v3(urange(-1, 1), urange(-1, 1), urange(-1, 1));
    assert_int_equal(col_geometry_create_hull(NULL, pts, 10, &qg[0], NULL), COL_OK);
    assert_int_equal(col_geometry_create_sphere(NULL, 0.7, &qg[1], NULL), COL_OK);
    assert_int_equal(col_geometry_create_capsule(NULL, 0.8, 0.3, &qg[2], NULL), COL_OK);
    int rounds = scaled(60), touched = 0, total = 0;
    for (int round = 0; round < rounds; round++) {
        if (round == rounds / 2) scene_move_some(&s);
        const col_geometry *g = qg[round % 3];
        col_transform pose = random_pose();
        col_xform xf = col_xform_from_transform(pose);
        col_body_id out[NB];
        int n;
        assert_int_equal(col_world_overlap_shape(s.w, g, pose, NULL, out, NB, &n), COL_OK);
        int k = 0;
        for (int i = 0; i < NB; i++) {
            bool hit = false;
            for (int p = 0; p < g->piece_count && !hit; p++) {
                oracle_set q;
                set_piece(&q, &g->pieces[p], &xf);
                col_xform bx = body_xf(&s, i);
                hit = oracle_meets(body_geom(&s, i), &bx, &q, g->pieces[p].radius);
            }
            if (hit) {
                if (!(k < n && out[k].index1 == s.id[i].index1)) fail_msg("round %d: body %d touches, not reported", round, i);
                k++;
            }
        }
        assert_int_equal(k, n);
        touched += n > 0;
        total++;
        /* box overlap: the bodies' boxes (as the pair test computes them) against a box */
        col_vec3 lo = col_v3(urange(0, ROOM), urange(0, ROOM), urange(0, ROOM));
        col_vec3 hi = col_add(lo, col_v3(urange(0, 3), urange(0, 3), urange(0, 3)));
        assert_int_equal(col_world_overlap_box(s.w, lo, hi, NULL, out, NB, &n), COL_OK);
        k = 0;
        for (int i = 0; i < NB; i++) {
            const col_world *w = s.w;
            col_xform bx = body_xf(&s, i);
            col_aabb bb;
            col_world_shape_aabb(&w->shapes[w->bodies[s.id[i].index1 - 1].shape], &bx, &bb);
            bool meet = bb.min.x <= hi.x && lo.x <= bb.max.x && bb.min.y <= hi.y && lo.y <= bb.max.y &&
                        bb.min.z <= hi.z && lo.z <= bb.max.z;
            if (meet) {
                assert_true(k < n && out[k].index1 == s.id[i].index1);
                k++;
            }
        }
        assert_int_equal(k, n);
    }
    print_message("shape overlap: %d of %d queries touched something\n", touched, total);
    assert_true(touched * 4 > total && touched < total);
    for (int i = 0; i < 3; i++) col_geometry_destroy(qg[i]);
    col_world_destroy(s.w);
    oracle_round_fini();
}

/* A query changes nothing the hash sees; a failed one neither. */
static void test_queries_leave_the_world_alone(void **state)
{
    (void)state;
    rng_seed(SEED + 2, __func__);
    scene s;
    scene_make(&s, 1);
    uint64_t h = col_world_hash(s.w);
    col_ray_hit hit;
    bool found;
    assert_int_equal(col_world_cast_ray(s.w, col_v3(0, 0, 0), col_v3(ROOM, ROOM, ROOM), NULL, &hit, &found), COL_OK);
    assert_int_equal(col_world_cast_ray(s.w, col_v3(NAN, 0, 0), col_v3(1, 0, 0), NULL, &hit, &found),
                     COL_ERR_NOT_FINITE);
    assert_int_equal(col_world_hash(s.w), h);
    col_world_destroy(s.w);
}

/* Every allocation a query makes (the tree's first build, the hit and body lists, the
 * shape query's scratch) failed in turn: the query says OUT_OF_MEMORY, the world's hash is
 * unchanged, the next query succeeds with the right answer, and every block comes back. */
static void test_queries_out_of_memory(void **state)
{
    (void)state;
    for (long k = 1;; k++) {
        counting_alloc ca = {0};
        col_world_def def = col_default_world_def();
        def.worker_count = 1;
        def.allocator = counting_hooks(&ca);
        col_world *w;
        assert_int_equal(col_world_create(&def, &w), COL_OK);
        col_shape_id box, ball;
        assert_int_equal(col_shape_create_box(w, col_v3(1, 1, 1), &box), COL_OK);
        assert_int_equal(col_shape_create_sphere(w, 1, &ball), COL_OK);
        col_body_id ids[20];
        for (int i = 0; i < 20; i++) {
            col_body_def bd = col_default_body_def();
            bd.shape = i % 2 ? box : ball;
            bd.pose.p = col_v3(3.0 * i, 0, 0);
            assert_int_equal(col_body_create(w, &bd, &ids[i]), COL_OK);
        }
        assert_int_equal(col_world_update(w), COL_OK);
        uint64_t h = col_world_hash(w);
        ca.fail_attempt = ca.attempts + k;
        col_ray_hit hits[20];
        col_body_id out[20];
        int n = 0;
        col_geometry *g;
        assert_int_equal(col_geometry_create_sphere(NULL, 4.0, &g, NULL), COL_OK);
        col_status st = col_world_cast_ray_all(w, col_v3(-5, 0, 0), col_v3(70, 0, 0), NULL, hits, 20, &n);
        if (st == COL_OK) st = col_world_overlap_box(w, col_v3(-1, -1, -1), col_v3(30, 1, 1), NULL, out, 20, &n);
        if (st == COL_OK) st = col_world_overlap_shape(w, g, (col_transform){{6, 0, 0}, {0, 0, 0, 1}}, NULL, out, 20, &n);
        bool failed = ca.attempts >= ca.fail_attempt;
        if (st != COL_OK) assert_int_equal(st, COL_ERR_OUT_OF_MEMORY);
        else assert_false(failed);
        assert_int_equal(col_world_hash(w), h);
        ca.fail_attempt = 0;
        assert_int_equal(col_world_cast_ray_all(w, col_v3(-5, 0, 0), col_v3(70, 0, 0), NULL, hits, 20, &n), COL_OK);
        assert_int_equal(n, 20);
        assert_int_equal(col_world_overlap_shape(w, g, (col_transform){{6, 0, 0}, {0, 0, 0, 1}}, NULL, out, 20, &n),
                         COL_OK);
        assert_int_equal(n, 3); /* the bodies at 3, 6 and 9 */
        col_geometry_destroy(g);
        col_world_destroy(w);
        assert_int_equal(ca.allocs, ca.frees);
        if (!failed) {
            print_message("%ld allocations failed in turn\n", k - 1);
            assert_true(k > 3);
            break;
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rays_by_construction),
        cmocka_unit_test(test_rays_match_exact_brute_force),
        cmocka_unit_test(test_overlaps_match_brute_force),
        cmocka_unit_test(test_queries_leave_the_world_alone),
        cmocka_unit_test(test_queries_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
