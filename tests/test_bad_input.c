/* SPDX-License-Identifier: MIT */
/* Bad input everywhere (issue 13; docs/conventions.md item 6): every public entry point (every
 * function of the headers in include/colibri/) against every class of bad input: NaN,
 * +-Inf, huge and tiny magnitudes, zero and negative counts, NULL pointers, stale, forged and foreign ids,
 * degenerate geometry, and bad enums, defs and quaternions. The table `cells` below names
 * one case per (entry point, class), or says why the class does not apply; every failing
 * call must return its status with a message in col_world_last_error and leave
 * col_world_hash unchanged, and every accepted extreme (1e15 coordinates, subnormal
 * positions, DBL_MAX speeds) must give a world that still updates, with the pairs of a
 * brute-force run of the reference query where the geometry allows an exact answer. The
 * world-free calls of shape.h and query.h (issue 15) are held to the same: a status, a
 * message in their col_error or scratch, *out NULL or zeroed, and their own counting
 * allocator must get every block back.
 * `test_bad_input --table` prints the table of docs/bad-input.md (tests/bad_input_doc.sh
 * checks that the page shows it and that it lists every public function). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include "colibri/colibri.h"
#include "lib/query_scratch.h"
#include "lib/world.h"
#include "tests/test_util.h"

/* ---- the fixture: a world with live, removed and foreign ids ---- */

enum { MAX_BAD = 12 };

typedef struct fx {
    counting_alloc ca;
    col_world *w;                 /* the world under test (2 workers, counting allocator) */
    col_world *other;             /* a second world, for foreign ids */
    col_shape_id box, blob, spare; /* live shapes: the bodies use box and blob */
    col_shape_id ball, pill, combo; /* a sphere, a capsule and a compound (box and ball): no body */
    col_body_id a, b, st, d;      /* a and b overlap; st is static, far away; d reuses a slot */
    col_body_id bad_body[MAX_BAD];
    const char *bad_body_name[MAX_BAD];
    int nbad_body;
    col_shape_id bad_shape[MAX_BAD];
    const char *bad_shape_name[MAX_BAD];
    int nbad_shape;
    uint64_t hash;                /* the world's hash as it must be now */
    /* the world-free calls: their allocator, geometries of each kind, a scratch, a message */
    counting_alloc gca;
    col_allocator gh;
    col_geometry *gbox, *gball, *gpill, *gcombo;
    col_query_scratch *scratch;
    col_error err;
} fx;

static col_transform at(double x, double y, double z)
{
    col_transform t = col_transform_identity();
    t.p = col_vec3_make(x, y, z);
    return t;
}

/* The identity pose with component k (p.x, p.y, p.z, q.x, q.y, q.z, q.w) set to v. */
static col_transform pose_with(int k, double v)
{
    col_transform t = col_transform_identity();
    double *c[7] = {&t.p.x, &t.p.y, &t.p.z, &t.q.x, &t.q.y, &t.q.z, &t.q.w};
    *c[k] = v;
    return t;
}

static col_shape_id make_box(col_world *w, double hx, double hy, double hz)
{
    col_vec3 p[8];
    for (int i = 0; i < 8; i++) p[i] = col_vec3_make(i & 1 ? hx : -hx, i & 2 ? hy : -hy, i & 4 ? hz : -hz);
    col_shape_id s;
    assert_int_equal(col_shape_create_convex(w, p, 8, &s), COL_OK);
    return s;
}

/* 40 points on an ellipsoid of semi-axes (r, 0.6 r, 0.4 r), fixed seed. */
static col_shape_id make_blob(col_world *w, double r)
{
    col_vec3 p[40];
    rng_reseed(1313);
    for (int i = 0; i < 40; i++) {
        double x = gauss(), y = gauss(), z = gauss(), n = sqrt(x * x + y * y + z * z);
        p[i] = col_vec3_make(r * x / n, 0.6 * r * y / n, 0.4 * r * z / n);
    }
    col_shape_id s;
    assert_int_equal(col_shape_create_convex(w, p, 40, &s), COL_OK);
    return s;
}

static col_body_id add_body(col_world *w, col_shape_id s, col_transform pose, bool is_static)
{
    col_body_def d = col_default_body_def();
    d.shape = s;
    d.pose = pose;
    d.is_static = is_static;
    col_body_id id;
    assert_int_equal(col_body_create(w, &d, &id), COL_OK);
    return id;
}

static void add_bad_body(fx *f, const char *name, col_body_id id)
{
    f->bad_body_name[f->nbad_body] = name;
    f->bad_body[f->nbad_body++] = id;
}

static void add_bad_shape(fx *f, const char *name, col_shape_id id)
{
    f->bad_shape_name[f->nbad_shape] = name;
    f->bad_shape[f->nbad_shape++] = id;
}

static void fx_setup(fx *f)
{
    memset(f, 0, sizeof *f);
    col_world_def def = col_default_world_def();
    def.worker_count = 1;
    assert_int_equal(col_world_create(&def, &f->other), COL_OK);
    col_shape_id other_box = make_box(f->other, 1, 1, 1);
    make_box(f->other, 2, 2, 2);
    col_body_id other_a = add_body(f->other, other_box, at(0, 0, 0), false);

    def.worker_count = 2;
    def.allocator = counting_hooks(&f->ca);
    assert_int_equal(col_world_create(&def, &f->w), COL_OK);
    col_world *w = f->w;
    f->box = make_box(w, 1, 1, 1);
    f->blob = make_blob(w, 1.0);
    col_shape_id gone_reused = make_box(w, 0.5, 0.5, 0.5);
    assert_int_equal(col_shape_destroy(w, gone_reused), COL_OK);
    f->spare = make_box(w, 0.25, 0.5, 1); /* slot 3 again, next generation */
    assert_int_equal(col_shape_create_sphere(w, 0.5, &f->ball), COL_OK);
    assert_int_equal(col_shape_create_capsule(w, 0.5, 0.25, &f->pill), COL_OK);
    col_compound_child kids[2] = {{f->box, at(-1.5, 0, 0)}, {f->ball, at(1, 0, 0)}};
    assert_int_equal(col_shape_create_compound(w, kids, 2, &f->combo), COL_OK);
    col_shape_id gone = make_box(w, 3, 3, 3);
    assert_int_equal(col_shape_destroy(w, gone), COL_OK);

    f->a = add_body(w, f->box, at(0, 0, 0), false);
    f->b = add_body(w, f->blob, at(1.5, 0.2, 0), false);
    f->st = add_body(w, f->box, at(10, 0, 0), true);
    col_body_id tmp = add_body(w, f->box, at(-5, 0, 0), false);
    assert_int_equal(col_world_update(w), COL_OK);
    assert_int_equal(col_body_destroy(w, tmp), COL_OK);
    assert_int_equal(col_world_update(w), COL_OK);
    f->d = add_body(w, f->spare, at(0, 5, 0), false); /* tmp's slot, next generation */
    assert_int_equal(f->d.index1, tmp.index1);
    col_body_id e = add_body(w, f->box, at(0, -5, 0), false);
    assert_int_equal(col_body_destroy(w, e), COL_OK); /* held back until the next update */
    assert_int_equal(col_body_set_pose(w, f->a, at(0.1, 0, 0)), COL_OK);
    assert_int_equal(col_world_update(w), COL_OK);
    assert_int_equal(col_body_set_pose(w, f->b, at(1.4, 0.2, 0)), COL_OK);
    assert_int_equal(col_world_update(w), COL_OK);
    assert_int_equal(col_world_get_pair_events(w).pair_count, 1);

    col_body_id ab = f->a;
    col_shape_id as = f->box, body_as_shape;
    col_body_id shape_as_body;
    memcpy(&body_as_shape, &f->a, sizeof body_as_shape);
    memcpy(&shape_as_body, &f->box, sizeof shape_as_body);
    add_bad_body(f, "null", (col_body_id){0, 0, 0});
    add_bad_body(f, "null index with this world's tag", (col_body_id){0, 0, ab.tag});
    add_bad_body(f, "removed, slot reused", tmp);
    add_bad_body(f, "removed, slot held back", e);
    add_bad_body(f, "forged: next generation", (col_body_id){ab.index1, ab.generation + 1, ab.tag});
    add_bad_body(f, "forged: index past the end", (col_body_id){1000, 0, ab.tag});
    add_bad_body(f, "forged: index and generation UINT32_MAX", (col_body_id){UINT32_MAX, UINT32_MAX, ab.tag});
    add_bad_body(f, "forged: zero tag", (col_body_id){ab.index1, ab.generation, 0});
    add_bad_body(f, "forged: another tag", (col_body_id){ab.index1, ab.generation, ab.tag ^ 0x80000000u});
    add_bad_body(f, "foreign: another world's body in the same slot", other_a);
    add_bad_body(f, "wrong kind: a shape id's fields", shape_as_body);
    add_bad_shape(f, "null", (col_shape_id){0, 0, 0});
    add_bad_shape(f, "null index with this world's tag", (col_shape_id){0, 0, as.tag});
    add_bad_shape(f, "removed, slot reused", gone_reused);
    add_bad_shape(f, "removed", gone);
    add_bad_shape(f, "forged: next generation", (col_shape_id){as.index1, as.generation + 1, as.tag});
    add_bad_shape(f, "forged: index past the end", (col_shape_id){1000, 0, as.tag});
    add_bad_shape(f, "forged: index and generation UINT32_MAX", (col_shape_id){UINT32_MAX, UINT32_MAX, as.tag});
    add_bad_shape(f, "forged: zero tag", (col_shape_id){as.index1, as.generation, 0});
    add_bad_shape(f, "forged: another tag", (col_shape_id){as.index1, as.generation, as.tag ^ 0x80000000u});
    add_bad_shape(f, "foreign: another world's shape in the same slot", other_box);
    add_bad_shape(f, "wrong kind: a body id's fields", body_as_shape);
    f->hash = col_world_hash(w);

    f->gh = counting_hooks(&f->gca);
    assert_int_equal(col_geometry_create_box(&f->gh, col_vec3_make(1, 1, 1), &f->gbox, NULL), COL_OK);
    assert_int_equal(col_geometry_create_sphere(&f->gh, 0.5, &f->gball, NULL), COL_OK);
    assert_int_equal(col_geometry_create_capsule(&f->gh, 0.5, 0.25, &f->gpill, NULL), COL_OK);
    col_geometry_child gkids[2] = {{f->gbox, at(-1.5, 0, 0)}, {f->gball, at(1, 0, 0)}};
    assert_int_equal(col_geometry_create_compound(&f->gh, gkids, 2, &f->gcombo, NULL), COL_OK);
    assert_int_equal(col_query_scratch_create(&f->gh, &f->scratch), COL_OK);
}

/* The world still works and holds what it must; nothing leaked through its allocator. */
static void fx_teardown(fx *f)
{
    if (col_world_hash(f->w) != f->hash) fail_msg("the case left the world changed");
    assert_int_equal(col_world_update(f->w), COL_OK);
    col_world_destroy(f->w);
    col_world_destroy(f->other);
    assert_int_equal(f->ca.allocs, f->ca.frees);
    col_geometry_destroy(f->gbox);
    col_geometry_destroy(f->gball);
    col_geometry_destroy(f->gpill);
    col_geometry_destroy(f->gcombo);
    col_query_scratch_destroy(f->scratch);
    if (f->gca.allocs != f->gca.frees)
        fail_msg("the world-free calls leaked %ld blocks", f->gca.allocs - f->gca.frees);
}

/* ---- checks ---- */

static void fx_clear(fx *f) { f->w->last_error[0] = '\0'; }

/* Issue 21: a message starts with the name of the function that failed, the name the
 * call's text starts with ("col_body_set_pose(f->w, ...)"), then ':' or " (item 3)". */
static void expect_named(const char *msg, const char *call, int line)
{
    size_t n = strcspn(call, "( ");
    if (strncmp(msg, call, n) != 0 || (msg[n] != ':' && msg[n] != ' '))
        fail_msg("line %d: the message of %s does not start with its name: \"%s\"", line, call, msg);
}

/* The calls that take a non-const world: their success says "not an error" (colibri.h,
 * col_world_last_error); a const call that succeeds leaves the text alone. */
static bool takes_mutable_world(const char *call)
{
    static const char *const names[] = {
        "col_world_update",       "col_shape_create_convex", "col_shape_create",      "col_shape_create_box",
        "col_shape_create_sphere", "col_shape_create_capsule", "col_shape_create_compound", "col_shape_destroy",
        "col_body_create",        "col_body_destroy",        "col_body_set_pose",     "col_body_set_poses",
        "col_body_set_poses_fn",  "col_body_set_max_speeds", "col_pair_set_enabled",  "col_recorder_open",
        "col_recorder_frame",     "col_shape_create_mesh",   "col_world_prepare_queries",
        "col_body_collide_time_critical",
    };
    size_t n = strcspn(call, "( ");
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i]) == n && strncmp(names[i], call, n) == 0) return true;
    return false;
}

/* A call's status: a failure leaves the world's hash as it was and (when the call had the
 * world to write to) a message naming the call; a success is the new state, and says so
 * when the call could change the world. */
static void fx_status(fx *f, col_status want, col_status got, const char *call, int line, bool message)
{
    if (got != want)
        fail_msg("line %d: %s returned %s, want %s (last error: \"%s\")", line, call, col_status_string(got),
                 col_status_string(want), col_world_last_error(f->w));
    if (want == COL_OK) {
        f->hash = col_world_hash(f->w);
        const char *after = takes_mutable_world(call) ? "not an error" : "";
        if (message && strcmp(f->w->last_error, after) != 0)
            fail_msg("line %d: %s succeeded and left the message \"%s\", want \"%s\"", line, call, f->w->last_error,
                     after);
        return;
    }
    if (col_world_hash(f->w) != f->hash) fail_msg("line %d: %s failed and changed the world", line, call);
    if (message && f->w->last_error[0] == '\0') fail_msg("line %d: %s failed without a message", line, call);
    if (message) expect_named(f->w->last_error, call, line);
}

/* A call that returns no status: cond must hold and the world must be unchanged. */
static void fx_holds(fx *f, bool cond, const char *what, int line)
{
    if (!cond) fail_msg("line %d: %s does not hold", line, what);
    if (col_world_hash(f->w) != f->hash) fail_msg("line %d: %s changed the world", line, what);
}

#define EXPECT(f, want, call)                                                                                          \
    do {                                                                                                               \
        fx_clear(f);                                                                                                   \
        fx_status((f), (want), (call), #call, __LINE__, true);                                                        \
    } while (0)
/* The same for a call without the world (NULL): there is nowhere to write a message. */
#define EXPECT_NOWORLD(f, want, call)                                                                                  \
    do {                                                                                                               \
        fx_clear(f);                                                                                                   \
        fx_status((f), (want), (call), #call, __LINE__, false);                                                       \
    } while (0)
#define HOLDS(f, cond) fx_holds((f), (cond), #cond, __LINE__)

/* One of several statuses is acceptable (a degenerate input the hull builder may reject
 * one way or another); returns the status. */
static col_status expect_one_of(fx *f, col_status got, const col_status *ok, int n, const char *call, int line)
{
    for (int i = 0; i < n; i++)
        if (got == ok[i]) {
            fx_status(f, got, got, call, line, true);
            return got;
        }
    fail_msg("line %d: %s returned %s", line, call, col_status_string(got));
    return got;
}

/* ---- checks of the world-free calls (shape.h, query.h) ---- */

/* A world-free call's status: a failure leaves a message (msg: the col_error's or the
 * scratch's, NULL when the call had nowhere to write one); the world is never touched. */
static void free_status(fx *f, col_status want, col_status got, const char *msg, const char *call, int line)
{
    if (got != want)
        fail_msg("line %d: %s returned %s, want %s (message: \"%s\")", line, call, col_status_string(got),
                 col_status_string(want), msg != NULL ? msg : "");
    if (want != COL_OK && msg != NULL && msg[0] == '\0') fail_msg("line %d: %s failed without a message", line, call);
    if (want != COL_OK && msg != NULL) expect_named(msg, call, line);
    if (col_world_hash(f->w) != f->hash) fail_msg("line %d: %s changed the world", line, call);
}

/* A call making a geometry into g (its call names &g and &f->err): g is set to garbage
 * first and must be NULL after a failure; on success the geometry is destroyed. */
#define GEXPECT(f, want, g, call)                                                                                      \
    do {                                                                                                               \
        (g) = (col_geometry *)(void *)&(f)->err;                                                                       \
        (f)->err.message[0] = '\0';                                                                                    \
        col_status st_ = (call);                                                                                       \
        free_status((f), (want), st_, (f)->err.message, #call, __LINE__);                                              \
        if (st_ != COL_OK && (g) != NULL) fail_msg("line %d: %s failed and left *out set", __LINE__, #call);           \
        if (st_ == COL_OK) {                                                                                           \
            assert_non_null(g);                                                                                        \
            col_geometry_destroy(g);                                                                                   \
            (g) = NULL;                                                                                                \
        }                                                                                                              \
    } while (0)
/* The same, keeping the geometry (the case destroys it). */
#define GMAKE(f, g, call)                                                                                              \
    do {                                                                                                               \
        (g) = NULL;                                                                                                    \
        (f)->err.message[0] = '\0';                                                                                    \
        free_status((f), COL_OK, (call), (f)->err.message, #call, __LINE__);                                           \
        assert_non_null(g);                                                                                            \
    } while (0)
/* A query with the fixture's scratch: a failure leaves its message there. */
#define QEXPECT(f, want, call)                                                                                         \
    do {                                                                                                               \
        (f)->scratch->message[0] = '\0';                                                                               \
        free_status((f), (want), (call), col_query_scratch_last_error((f)->scratch), #call, __LINE__);                 \
    } while (0)
/* A query without a scratch (or a call without a message): the status only. */
#define QEXPECT_NOMSG(f, want, call) free_status((f), (want), (call), NULL, #call, __LINE__)

/* col_geometry_create_hull must answer the point set p as col_shape_create_convex did
 * (want), with *out NULL and a message on failure. */
static void hull_free_agrees(fx *f, const col_vec3 *p, int n, col_status want, int line)
{
    col_geometry *g = (col_geometry *)(void *)&f->err;
    f->err.message[0] = '\0';
    col_status got = col_geometry_create_hull(&f->gh, p, n, &g, &f->err);
    if (got != want)
        fail_msg("line %d: col_geometry_create_hull returned %s where col_shape_create_convex returned %s", line,
                 col_status_string(got), col_status_string(want));
    if (got != COL_OK && (g != NULL || f->err.message[0] == '\0'))
        fail_msg("line %d: col_geometry_create_hull failed without a message or left *out set", line);
    col_geometry_destroy(got == COL_OK ? g : NULL);
}

/* Every pair of live bodies ids[0..n) (not both static) against the reference query at
 * the poses set; the world's list must hold exactly the colliding ones among them. */
static void check_pairs_brute(col_world *w, const col_body_id *ids, const col_shape_id *shapes, const bool *is_static,
                              int n)
{
    col_pair_events ev = col_world_get_pair_events(w);
    int expect = 0;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            if (is_static[i] && is_static[j]) continue;
            col_transform pi, pj;
            assert_int_equal(col_body_get_pose(w, ids[i], &pi), COL_OK);
            assert_int_equal(col_body_get_pose(w, ids[j], &pj), COL_OK);
            bool hit = false;
            assert_int_equal(col_query_overlap(w, shapes[i], pi, shapes[j], pj, COL_BACKEND_REFERENCE, &hit), COL_OK);
            bool listed = false;
            for (int k = 0; k < ev.pair_count; k++)
                if ((col_body_id_equals(ev.pairs[k].a, ids[i]) && col_body_id_equals(ev.pairs[k].b, ids[j])) ||
                    (col_body_id_equals(ev.pairs[k].a, ids[j]) && col_body_id_equals(ev.pairs[k].b, ids[i])))
                    listed = true;
            if (hit != listed) fail_msg("bodies %d and %d: reference says %d, the world %d", i, j, hit, listed);
            expect += hit;
        }
    int among = 0;
    for (int k = 0; k < ev.pair_count; k++) {
        int in = 0;
        for (int i = 0; i < n; i++)
            in += col_body_id_equals(ev.pairs[k].a, ids[i]) + col_body_id_equals(ev.pairs[k].b, ids[i]);
        among += in == 2;
    }
    assert_int_equal(among, expect);
}

static const double tiny_values[] = {5e-324, -5e-324, DBL_MIN, 1e-300, -0.0};

/* ---- col_status_string, col_backend_name ---- */

static void status_string_other(fx *f)
{
    const int bad[] = {-1, COL_STATUS_COUNT, COL_STATUS_COUNT + 1, 999, INT_MAX, INT_MIN};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_string_equal(col_status_string((col_status)bad[i]), "unknown status");
    for (int s = 0; s < COL_STATUS_COUNT; s++) {
        const char *t = col_status_string((col_status)s);
        assert_non_null(t);
        assert_true(t[0] != '\0' && strcmp(t, "unknown status") != 0);
    }
    HOLDS(f, true);
}

static void backend_name_other(fx *f)
{
    const int bad[] = {-1, COL_BACKEND_COUNT, COL_BACKEND_COUNT + 1, INT_MAX, INT_MIN};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) assert_null(col_backend_name((col_backend)bad[i]));
    for (int be = 0; be < COL_BACKEND_COUNT; be++) assert_non_null(col_backend_name((col_backend)be));
    HOLDS(f, true);
}

/* ---- col_world_create ---- */

/* def must be refused with want; *out is NULL after, nothing is leaked. */
static void world_refused(const col_world_def *def, col_status want, int line)
{
    counting_alloc ca = {0};
    col_world_def d = *def;
    if (d.allocator.alloc == NULL && d.allocator.free == NULL) d.allocator = counting_hooks(&ca);
    col_world *w = (col_world *)&ca; /* not NULL: the call must clear it */
    col_status st = col_world_create(&d, &w);
    if (st != want)
        fail_msg("line %d: col_world_create returned %s, want %s", line, col_status_string(st), col_status_string(want));
    if (st != COL_OK) assert_null(w);
    col_world_destroy(w);
    assert_int_equal(ca.allocs, ca.frees);
}

static void world_create_nan(fx *f)
{
    col_world_def d = col_default_world_def();
    d.quaternion_tolerance = NAN;
    world_refused(&d, COL_ERR_INVALID_ARGUMENT, __LINE__);
    d = col_default_world_def();
    d.broadphase_margin = NAN;
    world_refused(&d, COL_ERR_INVALID_ARGUMENT, __LINE__);
    d.broadphase_margin = -NAN;
    world_refused(&d, COL_ERR_INVALID_ARGUMENT, __LINE__);
    HOLDS(f, true);
}

static void world_create_inf(fx *f)
{
    for (int s = -1; s <= 1; s += 2) {
        col_world_def d = col_default_world_def();
        d.quaternion_tolerance = s * INFINITY;
        world_refused(&d, COL_ERR_INVALID_ARGUMENT, __LINE__);
        d = col_default_world_def();
        d.broadphase_margin = s * INFINITY;
        world_refused(&d, COL_ERR_INVALID_ARGUMENT, __LINE__);
    }
    HOLDS(f, true);
}

/* An allocator that refuses any block over 64 MB (to ask for huge capacities safely). */
static void *capped_alloc(size_t size, void *user)
{
    counting_alloc *c = user;
    if (size > ((size_t)64 << 20)) {
        c->calls++;
        return NULL;
    }
    return counting_malloc(size, user);
}

static void world_create_huge(fx *f)
{
    col_world_def d = col_default_world_def();
    const int workers[] = {COL_MAX_WORKERS + 1, INT_MAX};
    for (int k = 0; k < 2; k++) {
        d.worker_count = workers[k];
        world_refused(&d, COL_ERR_INVALID_ARGUMENT, __LINE__);
    }
    d = col_default_world_def();
    d.quaternion_tolerance = 0.5;
    world_refused(&d, COL_ERR_INVALID_ARGUMENT, __LINE__);
    d.quaternion_tolerance = DBL_MAX;
    world_refused(&d, COL_ERR_INVALID_ARGUMENT, __LINE__);
    d = col_default_world_def();
    d.broadphase_margin = nextafter(10.0, 11.0);
    world_refused(&d, COL_ERR_INVALID_ARGUMENT, __LINE__);
    d.broadphase_margin = DBL_MAX;
    world_refused(&d, COL_ERR_INVALID_ARGUMENT, __LINE__);
    /* the largest accepted values */
    d = col_default_world_def();
    d.worker_count = 1;
    d.broadphase_margin = 10.0;
    d.quaternion_tolerance = nextafter(0.5, 0.0);
    world_refused(&d, COL_OK, __LINE__);
    /* body_capacity is a hint: UINT32_MAX asks for the most the world reserves (2^26
     * slots, about 900 MB), which an allocator refusing blocks over 64 MB turns down */
    counting_alloc ca = {0};
    d = col_default_world_def();
    d.worker_count = 1;
    d.body_capacity = UINT32_MAX;
    d.allocator.alloc = capped_alloc;
    d.allocator.free = counting_free;
    d.allocator.user = &ca;
    col_world *w = (col_world *)&ca;
    assert_int_equal(col_world_create(&d, &w), COL_ERR_OUT_OF_MEMORY);
    assert_null(w);
    assert_int_equal(ca.allocs, ca.frees);
    /* a CPU number no machine has: the threads run unbound (pinning is a hint) */
    const int cpus[2] = {INT_MAX, 0};
    d = col_default_world_def();
    d.worker_count = 2;
    d.pinning = COL_PIN_CPUS;
    d.pin_cpus = cpus;
    d.pin_cpu_count = 2;
    world_refused(&d, COL_OK, __LINE__);
    HOLDS(f, true);
}

static void world_create_tiny(fx *f)
{
    for (size_t k = 0; k < sizeof tiny_values / sizeof tiny_values[0]; k++) {
        double v = fabs(tiny_values[k]) == 0.0 ? tiny_values[k] : fabs(tiny_values[k]);
        col_world_def d = col_default_world_def();
        d.worker_count = 1;
        d.quaternion_tolerance = v;
        d.broadphase_margin = v;
        world_refused(&d, COL_OK, __LINE__);
        d.quaternion_tolerance = -5e-324;
        world_refused(&d, COL_ERR_INVALID_ARGUMENT, __LINE__);
        d.quaternion_tolerance = v;
        d.broadphase_margin = -5e-324;
        world_refused(&d, COL_ERR_INVALID_ARGUMENT, __LINE__);
    }
    /* a zero tolerance still takes an exactly unit quaternion */
    col_world_def d = col_default_world_def();
    d.worker_count = 1;
    d.quaternion_tolerance = 0.0;
    col_world *w = NULL;
    assert_int_equal(col_world_create(&d, &w), COL_OK);
    col_shape_id s = make_box(w, 1, 1, 1);
    add_body(w, s, at(0, 0, 0), false);
    col_world_destroy(w);
    HOLDS(f, true);
}

static void world_create_count(fx *f)
{
    col_world_def d = col_default_world_def();
    const int bad_workers[] = {-1, INT_MIN};
    for (int k = 0; k < 2; k++) {
        d.worker_count = bad_workers[k];
        world_refused(&d, COL_ERR_INVALID_ARGUMENT, __LINE__);
    }
    const int cpus[1] = {0};
    const int bad_counts[] = {0, -1, INT_MIN};
    for (int k = 0; k < 3; k++) {
        d = col_default_world_def();
        d.pinning = COL_PIN_CPUS;
        d.pin_cpus = cpus;
        d.pin_cpu_count = bad_counts[k];
        world_refused(&d, COL_ERR_INVALID_ARGUMENT, __LINE__);
    }
    d = col_default_world_def();
    d.worker_count = 0; /* one per core */
    world_refused(&d, COL_OK, __LINE__);
    HOLDS(f, true);
}

static void world_create_null(fx *f)
{
    col_world *w = (col_world *)f;
    col_world_def d = col_default_world_def();
    assert_int_equal(col_world_create(NULL, &w), COL_ERR_INVALID_ARGUMENT);
    assert_null(w);
    assert_int_equal(col_world_create(&d, NULL), COL_ERR_INVALID_ARGUMENT);
    d.pinning = COL_PIN_CPUS;
    d.pin_cpu_count = 2;
    world_refused(&d, COL_ERR_INVALID_ARGUMENT, __LINE__);
    d = col_default_world_def();
    d.enqueue_task = inline_enqueue_task;
    world_refused(&d, COL_ERR_INVALID_ARGUMENT, __LINE__);
    d = col_default_world_def();
    d.finish_task = inline_finish_task;
    world_refused(&d, COL_ERR_INVALID_ARGUMENT, __LINE__);
    counting_alloc ca = {0};
    d = col_default_world_def();
    d.allocator.alloc = counting_malloc;
    d.allocator.user = &ca;
    world_refused(&d, COL_ERR_INVALID_ARGUMENT, __LINE__);
    d.allocator.alloc = NULL;
    d.allocator.free = counting_free;
    world_refused(&d, COL_ERR_INVALID_ARGUMENT, __LINE__);
    assert_int_equal(ca.calls, 0);
    /* both task callbacks, a NULL user context: accepted */
    d = col_default_world_def();
    d.worker_count = 3;
    d.enqueue_task = inline_enqueue_task;
    d.finish_task = inline_finish_task;
    world_refused(&d, COL_OK, __LINE__);
    HOLDS(f, true);
}

static void world_create_other(fx *f)
{
    col_world_def d;
    memset(&d, 0, sizeof d);
    world_refused(&d, COL_ERR_DEF_UNINITIALIZED, __LINE__);
    d = col_default_world_def();
    d.internal_cookie ^= 1;
    world_refused(&d, COL_ERR_DEF_UNINITIALIZED, __LINE__);
    const int bad_enum[] = {-1, 99, INT_MAX, INT_MIN};
    for (int k = 0; k < 4; k++) {
        d = col_default_world_def();
        d.backend = (col_backend)bad_enum[k];
        world_refused(&d, COL_ERR_INVALID_ARGUMENT, __LINE__);
        d = col_default_world_def();
        d.schedule = (col_schedule)bad_enum[k];
        world_refused(&d, COL_ERR_INVALID_ARGUMENT, __LINE__);
        d = col_default_world_def();
        d.pinning = (col_thread_pinning)bad_enum[k];
        world_refused(&d, COL_ERR_INVALID_ARGUMENT, __LINE__);
    }
    d = col_default_world_def();
    d.backend = COL_BACKEND_COUNT;
    world_refused(&d, COL_ERR_INVALID_ARGUMENT, __LINE__);
    const int cpus[2] = {0, -1};
    d.backend = COL_BACKEND_DEFAULT;
    d.pinning = COL_PIN_CPUS;
    d.pin_cpus = cpus;
    d.pin_cpu_count = 2;
    world_refused(&d, COL_ERR_INVALID_ARGUMENT, __LINE__);
    HOLDS(f, true);
}

/* ---- col_world_destroy, update, events, counters, last error, hash ---- */

static void world_destroy_null(fx *f)
{
    col_world_destroy(NULL);
    HOLDS(f, true);
}

/* A world of its own for a case (two workers, malloc). */
static col_world *two_worker_world(void)
{
    col_world_def def = col_default_world_def();
    def.worker_count = 2;
    col_world *w = NULL;
    assert_int_equal(col_world_create(&def, &w), COL_OK);
    return w;
}

static void world_update_null(fx *f) { EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_world_update(NULL)); }

/* A scene at the edge of the coordinate range: shapes 2e14 wide at |x| up to 1e15
 * (COL_MAX_COORD), turned, with declared speeds up to DBL_MAX; its pairs are checked
 * against the reference query over several updates. */
static void world_update_huge(fx *f)
{
    col_world *w = two_worker_world();
    col_shape_id big = make_box(w, 1e14, 0.7e14, 0.5e14), round = make_blob(w, 1e14);
    enum { N = 6 };
    col_body_id ids[N];
    col_shape_id shapes[N];
    bool is_static[N] = {false, false, false, true, false, false};
    const double x[N] = {1e15 - 1e14, 1e15 - 2.5e14, -1e15, -1e15 + 1.2e14, 0, 1e14};
    for (int i = 0; i < N; i++) {
        shapes[i] = i % 2 ? round : big;
        col_transform t = at(x[i], i == 2 || i == 3 ? -1e15 : 0, i == 2 || i == 3 ? 1e15 : 0);
        t.q = (col_quat){0, 0, sin(0.1 * i), cos(0.1 * i)};
        ids[i] = add_body(w, shapes[i], t, is_static[i]);
    }
    assert_int_equal(col_body_set_max_speeds(w, ids[0], DBL_MAX, DBL_MAX), COL_OK);
    assert_int_equal(col_body_set_max_speeds(w, ids[1], 1e300, 0.0), COL_OK);
    for (int frame = 0; frame < 6; frame++) {
        for (int i = 0; i < N; i++) {
            if (is_static[i]) continue;
            col_transform t;
            assert_int_equal(col_body_get_pose(w, ids[i], &t), COL_OK);
            t.p.x = fmax(-1e15, fmin(1e15, t.p.x + (i % 2 ? 0.4e14 : -0.3e14)));
            t.q = (col_quat){sin(0.2 * frame + i), 0, 0, cos(0.2 * frame + i)};
            assert_int_equal(col_body_set_pose(w, ids[i], t), COL_OK);
        }
        assert_int_equal(col_world_update(w), COL_OK);
        check_pairs_brute(w, ids, shapes, is_static, N);
    }
    col_world_destroy(w);
    HOLDS(f, true);
}

/* Small and subnormal numbers where they are accepted: shapes 1e-60 wide (well above the
 * sizes of issue 13's finding 3), positions 1e-61 apart, subnormal offsets, declared
 * speeds of 5e-324; pairs against the reference query. */
static void world_update_tiny(fx *f)
{
    col_world *w = two_worker_world();
    col_shape_id small = make_box(w, 1e-60, 1e-60, 1e-60), round = make_blob(w, 1e-60);
    enum { N = 5 };
    col_body_id ids[N];
    col_shape_id shapes[N];
    bool is_static[N] = {false};
    for (int i = 0; i < N; i++) {
        shapes[i] = i % 2 ? round : small;
        ids[i] = add_body(w, shapes[i], at(1.9e-60 * i, i == 4 ? 5e-324 : 0, 0), false);
    }
    assert_int_equal(col_body_set_max_speeds(w, ids[0], 5e-324, 5e-324), COL_OK);
    assert_int_equal(col_body_set_max_speeds(w, ids[1], DBL_MIN, 0.0), COL_OK);
    for (int frame = 0; frame < 6; frame++) {
        for (int i = 1; i < N; i++) {
            col_transform t = at(1.9e-60 * i + (frame % 2 ? 1e-61 : -1e-61) * i, frame * 5e-324, 0);
            t.q = (col_quat){0, sin(0.3 * frame), 0, cos(0.3 * frame)};
            assert_int_equal(col_body_set_pose(w, ids[i], t), COL_OK);
        }
        assert_int_equal(col_world_update(w), COL_OK);
        check_pairs_brute(w, ids, shapes, is_static, N);
    }
    col_world_destroy(w);
    HOLDS(f, true);
}

/* Empty worlds, worlds of statics only, bodies all at one pose. */
static void world_update_degenerate(fx *f)
{
    col_world *w = two_worker_world();
    for (int k = 0; k < 3; k++) assert_int_equal(col_world_update(w), COL_OK);
    assert_int_equal(col_world_get_pair_events(w).pair_count, 0);
    col_shape_id s = make_box(w, 1, 1, 1);
    assert_int_equal(col_world_update(w), COL_OK); /* shapes but no bodies */
    enum { N = 6 };
    col_body_id ids[N];
    col_shape_id shapes[N];
    bool is_static[N];
    for (int i = 0; i < N; i++) {
        shapes[i] = s;
        is_static[i] = true;
        ids[i] = add_body(w, s, at(0, 0, 0), true);
    }
    assert_int_equal(col_world_update(w), COL_OK);
    assert_int_equal(col_world_get_pair_events(w).pair_count, 0); /* static-static: never */
    for (int i = 0; i < N; i++) assert_int_equal(col_body_destroy(w, ids[i]), COL_OK);
    for (int i = 0; i < N; i++) {
        is_static[i] = i == 0;
        ids[i] = add_body(w, s, at(0, 0, 0), is_static[i]); /* all at one pose */
    }
    assert_int_equal(col_world_update(w), COL_OK);
    check_pairs_brute(w, ids, shapes, is_static, N);
    assert_int_equal(col_world_get_pair_events(w).pair_count, N * (N - 1) / 2);
    for (int i = 0; i < N; i++) assert_int_equal(col_body_destroy(w, ids[i]), COL_OK);
    assert_int_equal(col_world_update(w), COL_OK); /* everything gone at once */
    assert_int_equal(col_world_get_pair_events(w).ended_count, N * (N - 1) / 2);
    assert_int_equal(col_world_get_pair_events(w).pair_count, 0);
    col_world_destroy(w);
    HOLDS(f, true);
}

static void pair_events_null(fx *f)
{
    col_pair_events ev = col_world_get_pair_events(NULL);
    HOLDS(f, ev.pairs == NULL && ev.pair_count == 0 && ev.began == NULL && ev.began_count == 0 && ev.ended == NULL &&
                 ev.ended_count == 0 && ev.interframe == NULL && ev.interframe_count == 0);
}

static void counters_null(fx *f)
{
    col_counters c;
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_world_get_counters(NULL, &c));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_world_get_counters(f->w, NULL));
}

/* ---- the pose helpers of vecmath.h (issue 21) ---- */

/* q must be all NaN, and a pose carrying it refused as not finite. */
static void axis_angle_refused(fx *f, col_quat q, int line)
{
    if (!(isnan(q.x) && isnan(q.y) && isnan(q.z) && isnan(q.w)))
        fail_msg("line %d: col_quat_from_axis_angle gave (%g, %g, %g, %g), want NaNs", line, q.x, q.y, q.z, q.w);
    col_transform t = {{0, 0, 0}, q};
    EXPECT(f, COL_ERR_NOT_FINITE, col_body_set_pose(f->w, f->a, t));
}

/* q must be unit to rounding and accepted as a pose. */
static void axis_angle_accepted(fx *f, col_quat q, int line)
{
    double n = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    if (!(fabs(n - 1.0) <= 4 * DBL_EPSILON)) fail_msg("line %d: |q| = %.17g", line, n);
    col_transform t;
    assert_int_equal(col_body_get_pose(f->w, f->a, &t), COL_OK);
    t.q = q;
    EXPECT(f, COL_OK, col_body_set_pose(f->w, f->a, t));
}

/* NaN (v) or infinity in each component of the axis and in the angle. */
static void axis_angle_bad_number(fx *f, double v)
{
    for (int c = 0; c < 4; c++) {
        double x[4] = {0.5, -1.0, 2.0, 1.0};
        x[c] = v;
        axis_angle_refused(f, col_quat_from_axis_angle(col_vec3_make(x[0], x[1], x[2]), x[3]), __LINE__);
        x[c] = -v;
        axis_angle_refused(f, col_quat_from_axis_angle(col_vec3_make(x[0], x[1], x[2]), x[3]), __LINE__);
    }
}
static void axis_angle_nan(fx *f) { axis_angle_bad_number(f, NAN); }
static void axis_angle_inf(fx *f) { axis_angle_bad_number(f, INFINITY); }

/* Huge axes and angles are a rotation: the axis is scaled before it is squared. */
static void axis_angle_huge(fx *f)
{
    const double big[] = {COL_MAX_COORD, 1e300, DBL_MAX};
    for (int k = 0; k < 3; k++) {
        axis_angle_accepted(f, col_quat_from_axis_angle(col_vec3_make(big[k], -big[k], big[k]), 1.0), __LINE__);
        axis_angle_accepted(f, col_quat_from_axis_angle(col_vec3_make(0, 0, 1), big[k]), __LINE__);
        axis_angle_accepted(f, col_quat_from_axis_angle(col_vec3_make(0, 0, 1), -big[k]), __LINE__);
    }
}

/* Subnormal and tiny axes are a rotation too; tiny angles are (nearly) the identity. */
static void axis_angle_tiny(fx *f)
{
    const double small[] = {5e-324, DBL_MIN, 1e-300, -0.0};
    for (int k = 0; k < 3; k++)
        axis_angle_accepted(f, col_quat_from_axis_angle(col_vec3_make(small[k], small[k], -small[k]), 2.0), __LINE__);
    for (int k = 0; k < 4; k++) {
        col_quat q = col_quat_from_axis_angle(col_vec3_make(1, 2, 3), small[k]);
        HOLDS(f, q.w == 1.0);
        axis_angle_accepted(f, q, __LINE__);
    }
}

/* No axis: the zero vector, -0.0 included, is refused (NaNs), whatever the angle. */
static void axis_angle_degenerate(fx *f)
{
    axis_angle_refused(f, col_quat_from_axis_angle(col_vec3_make(0, 0, 0), 1.0), __LINE__);
    axis_angle_refused(f, col_quat_from_axis_angle(col_vec3_make(-0.0, 0, -0.0), 0.0), __LINE__);
}

/* Floats widen exactly: NaN, infinities, FLT_MAX, subnormal floats come through as they
 * are, and the world refuses the poses it must refuse. */
static void from_floats_values(fx *f, float v)
{
    for (int c = 0; c < 7; c++) {
        float p[3] = {0.5f, 0.0f, 0.0f}, q[4] = {0.0f, 0.0f, 0.0f, 1.0f};
        if (c < 3) p[c] = v;
        else q[c - 3] = v;
        col_transform t = col_transform_from_floats(p, q);
        col_vec3 pv = col_vec3_from_floats(p);
        col_quat qv = col_quat_from_floats(q);
        double got = c < 3 ? (&t.p.x)[c] : (&t.q.x)[c - 3];
        HOLDS(f, memcmp(&got, &(double){v}, sizeof got) == 0 || (isnan(got) && isnan(v)));
        HOLDS(f, memcmp(&pv, &t.p, sizeof pv) == 0 && memcmp(&qv, &t.q, sizeof qv) == 0);
        /* what the world must answer, from the doubles */
        double n = sqrt(t.q.x * t.q.x + t.q.y * t.q.y + t.q.z * t.q.z + t.q.w * t.q.w);
        col_status w = !isfinite(v) || (c < 3 && fabs(v) > COL_MAX_COORD) ? COL_ERR_NOT_FINITE
                       : !(fabs(n - 1.0) <= 1e-6)                            ? COL_ERR_BAD_QUATERNION
                                                                             : COL_OK;
        EXPECT(f, w, col_body_set_pose(f->w, f->a, t));
    }
}
static void from_floats_nan(fx *f) { from_floats_values(f, NAN); }
static void from_floats_inf(fx *f)
{
    from_floats_values(f, INFINITY);
    from_floats_values(f, -INFINITY);
}
static void from_floats_huge(fx *f)
{
    from_floats_values(f, FLT_MAX);
    from_floats_values(f, -1e15f);
}
static void from_floats_tiny(fx *f)
{
    from_floats_values(f, 1e-45f);
    from_floats_values(f, -0.0f);
}
static void from_floats_quaternion(fx *f)
{
    /* a zero and a far-off quaternion, and one unit only in single precision */
    const float zero[4] = {0, 0, 0, 0}, far[4] = {1, 1, 1, 1}, p[3] = {0, 0, 0};
    EXPECT(f, COL_ERR_BAD_QUATERNION, col_body_set_pose(f->w, f->a, col_transform_from_floats(p, zero)));
    EXPECT(f, COL_ERR_BAD_QUATERNION, col_body_set_pose(f->w, f->a, col_transform_from_floats(p, far)));
    const float r[4] = {0.0f, 0.70710677f, 0.0f, 0.70710677f};
    EXPECT(f, COL_OK, col_body_set_pose(f->w, f->a, col_transform_from_floats(p, r)));
}

static void last_error_null(fx *f)
{
    const char *t = col_world_last_error(NULL);
    HOLDS(f, t != NULL && t[0] != '\0');
}

static void world_hash_null(fx *f) { HOLDS(f, col_world_hash(NULL) == 0); }

/* ---- shapes ---- */

static const col_vec3 tetra[5] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.2, 0.2, 0.2}};

/* Point sets whose coordinate c of point i is v must be refused with want. */
static void shape_refused_values(fx *f, const double *vals, int nv, col_status want)
{
    for (int k = 0; k < nv; k++)
        for (int i = 0; i < 5; i++)
            for (int c = 0; c < 3; c++) {
                col_vec3 p[5];
                memcpy(p, tetra, sizeof p);
                double *x[3] = {&p[i].x, &p[i].y, &p[i].z};
                *x[c] = vals[k];
                col_shape_id s = {7, 7, 7};
                EXPECT(f, want, col_shape_create_convex(f->w, p, 5, &s));
                assert_true(col_shape_id_is_null(s));
                hull_free_agrees(f, p, 5, want, __LINE__);
            }
}

static void shape_create_nan(fx *f)
{
    const double v[] = {NAN, -NAN};
    shape_refused_values(f, v, 2, COL_ERR_NOT_FINITE);
}

static void shape_create_inf(fx *f)
{
    const double v[] = {INFINITY, -INFINITY};
    shape_refused_values(f, v, 2, COL_ERR_NOT_FINITE);
}

static void shape_create_huge(fx *f)
{
    const double v[] = {DBL_MAX, -1e300, nextafter(COL_MAX_COORD, INFINITY), -2e15};
    shape_refused_values(f, v, 4, COL_ERR_NOT_FINITE);
    /* the edge of the range is accepted */
    col_vec3 p[8];
    for (int i = 0; i < 8; i++)
        p[i] = col_vec3_make(i & 1 ? COL_MAX_COORD : -COL_MAX_COORD, i & 2 ? 1e15 : -1e15, i & 4 ? 1e15 : -1e15);
    col_shape_id s;
    EXPECT(f, COL_OK, col_shape_create_convex(f->w, p, 8, &s));
    hull_free_agrees(f, p, 8, COL_OK, __LINE__);
    col_shape_info info;
    EXPECT(f, COL_OK, col_shape_get_info(f->w, s, &info));
    assert_int_equal(info.vertex_count, 8);
    /* a slab 2e15 wide and 2 thick is flat to the hull builder's precision (1e-15 of its
     * diameter): refused as coplanar rather than built wrong */
    for (int i = 0; i < 8; i++) p[i].z = i & 4 ? 1 : -1;
    EXPECT(f, COL_ERR_DEGENERATE_SHAPE, col_shape_create_convex(f->w, p, 8, &s));
    hull_free_agrees(f, p, 8, COL_ERR_DEGENERATE_SHAPE, __LINE__);
    /* a huge spread with tiny details: whatever the hull builder makes of it, a status */
    col_vec3 q[6] = {{-1e15, 0, 0}, {1e15, 0, 0}, {0, 1e15, 0}, {0, 0, 1e15}, {1e-15, 1e-15, 1e-15}, {0, 0, -1e-300}};
    const col_status ok[] = {COL_OK, COL_ERR_DEGENERATE_SHAPE, COL_ERR_HULL_FAILED};
    col_status got = expect_one_of(f, col_shape_create_convex(f->w, q, 6, &s), ok, 3, "col_shape_create_convex(spread)", __LINE__);
    hull_free_agrees(f, q, 6, got, __LINE__);
}

static void shape_create_tiny(fx *f)
{
    /* volumes below DBL_MIN are zero volumes (COL_ERR_DEGENERATE_SHAPE) */
    const double refused[] = {5e-324, 1e-300, 1e-103};
    for (int k = 0; k < 3; k++) {
        col_vec3 p[8];
        for (int i = 0; i < 8; i++)
            p[i] = col_vec3_make(i & 1 ? refused[k] : -refused[k], i & 2 ? refused[k] : -refused[k],
                                 i & 4 ? refused[k] : -refused[k]);
        col_shape_id s = {7, 7, 7};
        EXPECT(f, COL_ERR_DEGENERATE_SHAPE, col_shape_create_convex(f->w, p, 8, &s));
        assert_true(col_shape_id_is_null(s));
        hull_free_agrees(f, p, 8, COL_ERR_DEGENERATE_SHAPE, __LINE__);
    }
    /* 1e-100 wide: volume 8e-300, accepted (answers at that size: issue 13, finding 3) */
    col_vec3 p[8];
    for (int i = 0; i < 8; i++) p[i] = col_vec3_make(i & 1 ? 1e-100 : -1e-100, i & 2 ? 1e-100 : -1e-100, i & 4 ? 1e-100 : -1e-100);
    col_shape_id s;
    EXPECT(f, COL_OK, col_shape_create_convex(f->w, p, 8, &s));
    hull_free_agrees(f, p, 8, COL_OK, __LINE__);
    /* subnormal and signed-zero coordinates in an ordinary shape */
    col_vec3 q[6];
    memcpy(q, tetra, sizeof tetra);
    q[4] = col_vec3_make(5e-324, -0.0, DBL_MIN);
    q[5] = col_vec3_make(-5e-324, 0.3, 0.3);
    EXPECT(f, COL_OK, col_shape_create_convex(f->w, q, 6, &s));
    hull_free_agrees(f, q, 6, COL_OK, __LINE__);
}

static void shape_create_count(fx *f)
{
    col_shape_id s = {7, 7, 7};
    const int bad[] = {-1, INT_MIN};
    for (int k = 0; k < 2; k++) {
        EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_shape_create_convex(f->w, tetra, bad[k], &s));
        hull_free_agrees(f, tetra, bad[k], COL_ERR_INVALID_ARGUMENT, __LINE__);
    }
    for (int n = 0; n < 4; n++) {
        EXPECT(f, COL_ERR_TOO_FEW_POINTS, col_shape_create_convex(f->w, tetra, n, &s));
        assert_true(col_shape_id_is_null(s));
        hull_free_agrees(f, tetra, n, COL_ERR_TOO_FEW_POINTS, __LINE__);
    }
    /* many points: 20000 on a sphere, then 20000 copies of four */
    enum { M = 20000 };
    col_vec3 *p = malloc(M * sizeof *p);
    rng_reseed(99);
    for (int i = 0; i < M; i++) {
        double x = gauss(), y = gauss(), z = gauss(), n = sqrt(x * x + y * y + z * z);
        p[i] = col_vec3_make(x / n, y / n, z / n);
    }
    EXPECT(f, COL_OK, col_shape_create_convex(f->w, p, M, &s));
    hull_free_agrees(f, p, M, COL_OK, __LINE__);
    for (int i = 0; i < M; i++) p[i] = tetra[i % 4];
    EXPECT(f, COL_OK, col_shape_create_convex(f->w, p, M, &s));
    hull_free_agrees(f, p, M, COL_OK, __LINE__);
    col_shape_info info;
    EXPECT(f, COL_OK, col_shape_get_info(f->w, s, &info));
    assert_int_equal(info.vertex_count, 4);
    for (int i = 0; i < M; i++) p[i] = tetra[i % 3];
    EXPECT(f, COL_ERR_TOO_FEW_POINTS, col_shape_create_convex(f->w, p, M, &s));
    hull_free_agrees(f, p, M, COL_ERR_TOO_FEW_POINTS, __LINE__);
    free(p);
}

static void shape_create_null(fx *f)
{
    col_shape_id s = {7, 7, 7};
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_shape_create_convex(NULL, tetra, 5, &s));
    assert_true(col_shape_id_is_null(s)); /* cleared even without a world */
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_shape_create_convex(f->w, NULL, 5, &s));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_shape_create_convex(f->w, NULL, 0, &s));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_shape_create_convex(f->w, tetra, 5, NULL));
    hull_free_agrees(f, NULL, 5, COL_ERR_INVALID_ARGUMENT, __LINE__);
    hull_free_agrees(f, NULL, 0, COL_ERR_INVALID_ARGUMENT, __LINE__);
    col_geometry *g;
    QEXPECT_NOMSG(f, COL_ERR_INVALID_ARGUMENT, col_geometry_create_hull(&f->gh, tetra, 5, NULL, NULL));
    QEXPECT_NOMSG(f, COL_ERR_INVALID_ARGUMENT, col_geometry_create_hull(&f->gh, NULL, 5, &g, NULL)); /* no message */
    assert_null(g);
    GEXPECT(f, COL_OK, g, col_geometry_create_hull(NULL, tetra, 5, &g, &f->err)); /* malloc and free */
    GEXPECT(f, COL_OK, g, col_geometry_create_hull(&(col_allocator){NULL, NULL, f}, tetra, 5, &g, &f->err));
    /* an allocator with one hook: refused before any call to it, as col_world_create does */
    col_allocator half = {counting_malloc, NULL, &f->gca};
    long calls = f->gca.calls;
    GEXPECT(f, COL_ERR_INVALID_ARGUMENT, g, col_geometry_create_hull(&half, tetra, 5, &g, &f->err));
    half = (col_allocator){NULL, counting_free, &f->gca};
    GEXPECT(f, COL_ERR_INVALID_ARGUMENT, g, col_geometry_create_hull(&half, tetra, 5, &g, &f->err));
    assert_int_equal(f->gca.calls, calls);
}

static void shape_create_degenerate(fx *f)
{
    col_vec3 same[10], line[10], plane[10], sliver[5];
    for (int i = 0; i < 10; i++) {
        same[i] = col_vec3_make(0.5, -2, 3);
        line[i] = col_vec3_make(i, 2.0 * i, -3.0 * i);
        plane[i] = col_vec3_make(cos(i), sin(i), 0.25 * cos(i) - 0.5 * sin(i)); /* on a plane */
    }
    col_shape_id s = {7, 7, 7};
    const col_status flat[] = {COL_ERR_DEGENERATE_SHAPE, COL_ERR_TOO_FEW_POINTS};
    col_status got = expect_one_of(f, col_shape_create_convex(f->w, same, 10, &s), flat, 2, "col_shape_create_convex(coincident)", __LINE__);
    assert_true(col_shape_id_is_null(s));
    hull_free_agrees(f, same, 10, got, __LINE__);
    EXPECT(f, COL_ERR_DEGENERATE_SHAPE, col_shape_create_convex(f->w, line, 10, &s));
    hull_free_agrees(f, line, 10, COL_ERR_DEGENERATE_SHAPE, __LINE__);
    EXPECT(f, COL_ERR_DEGENERATE_SHAPE, col_shape_create_convex(f->w, plane, 10, &s));
    hull_free_agrees(f, plane, 10, COL_ERR_DEGENERATE_SHAPE, __LINE__);
    col_vec3 dup[5] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 0, 0}, {0, 0, 0}};
    EXPECT(f, COL_ERR_TOO_FEW_POINTS, col_shape_create_convex(f->w, dup, 5, &s));
    hull_free_agrees(f, dup, 5, COL_ERR_TOO_FEW_POINTS, __LINE__);
    /* a sliver: a square and a point 1e-200 above it (volume about 3e-201, accepted or
     * rejected as flat, never a hull that is not one) */
    memcpy(sliver, (col_vec3[5]){{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0.5, 0.5, 1e-200}}, sizeof sliver);
    const col_status thin[] = {COL_OK, COL_ERR_DEGENERATE_SHAPE};
    got = expect_one_of(f, col_shape_create_convex(f->w, sliver, 5, &s), thin, 2, "col_shape_create_convex(sliver)", __LINE__);
    hull_free_agrees(f, sliver, 5, got, __LINE__);
    if (got == COL_OK) {
        col_shape_info info;
        EXPECT(f, COL_OK, col_shape_get_info(f->w, s, &info));
        assert_true(info.volume >= DBL_MIN);
        col_body_def d = col_default_body_def();
        d.shape = s;
        col_body_id body;
        EXPECT(f, COL_OK, col_body_create(f->w, &d, &body));
        EXPECT(f, COL_OK, col_world_update(f->w));
    }
}

static void shape_destroy_null(fx *f) { EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_shape_destroy(NULL, f->spare)); }

static void shape_destroy_id(fx *f)
{
    for (int k = 0; k < f->nbad_shape; k++) {
        print_message("    %s\n", f->bad_shape_name[k]);
        EXPECT(f, COL_ERR_STALE_ID, col_shape_destroy(f->w, f->bad_shape[k]));
    }
}

static void shape_destroy_other(fx *f)
{
    EXPECT(f, COL_ERR_SHAPE_IN_USE, col_shape_destroy(f->w, f->box));
    EXPECT(f, COL_ERR_SHAPE_IN_USE, col_shape_destroy(f->w, f->spare)); /* d uses it */
    col_shape_id s = make_box(f->w, 1, 2, 3);
    f->hash = col_world_hash(f->w);
    EXPECT(f, COL_OK, col_shape_destroy(f->w, s));
    EXPECT(f, COL_ERR_STALE_ID, col_shape_destroy(f->w, s)); /* twice */
}

static void shape_is_valid_null(fx *f) { HOLDS(f, !col_shape_is_valid(NULL, f->box)); }

static void shape_is_valid_id(fx *f)
{
    for (int k = 0; k < f->nbad_shape; k++) HOLDS(f, !col_shape_is_valid(f->w, f->bad_shape[k]));
    HOLDS(f, col_shape_is_valid(f->w, f->spare));
}

static void shape_info_null(fx *f)
{
    col_shape_info info;
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_shape_get_info(NULL, f->box, &info));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_shape_get_info(f->w, f->box, NULL));
}

static void shape_info_id(fx *f)
{
    col_shape_info info;
    for (int k = 0; k < f->nbad_shape; k++) EXPECT(f, COL_ERR_STALE_ID, col_shape_get_info(f->w, f->bad_shape[k], &info));
}

static void shape_vertices_count(fx *f)
{
    col_vec3 v[9];
    int n = -7;
    const int bad[] = {-1, INT_MIN};
    for (int k = 0; k < 2; k++) EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_shape_get_vertices(f->w, f->box, v, bad[k], &n));
    assert_int_equal(n, -7);
    EXPECT(f, COL_OK, col_shape_get_vertices(f->w, f->box, NULL, 0, &n)); /* the size */
    assert_int_equal(n, 8);
    for (int i = 0; i < 9; i++) v[i] = col_vec3_make(42, 42, 42);
    EXPECT(f, COL_OK, col_shape_get_vertices(f->w, f->box, v, 3, &n)); /* too small: the first 3 */
    assert_int_equal(n, 8);
    assert_true(v[3].x == 42 && v[2].x != 42);
}

static void shape_vertices_null(fx *f)
{
    col_vec3 v[8];
    int n;
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_shape_get_vertices(NULL, f->box, v, 8, &n));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_shape_get_vertices(f->w, f->box, NULL, 8, &n));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_shape_get_vertices(f->w, f->box, v, 8, NULL));
}

static void shape_vertices_id(fx *f)
{
    col_vec3 v[8];
    int n;
    for (int k = 0; k < f->nbad_shape; k++)
        EXPECT(f, COL_ERR_STALE_ID, col_shape_get_vertices(f->w, f->bad_shape[k], v, 8, &n));
}

/* ---- bodies ---- */

/* A def with pose component k set to v must be refused with want (and *out nulled). */
static void body_create_refused(fx *f, double v, col_status want_pos, col_status want_quat)
{
    for (int k = 0; k < 7; k++) {
        col_body_def d = col_default_body_def();
        d.shape = f->box;
        d.pose = pose_with(k, v);
        col_body_id id = {7, 7, 7};
        EXPECT(f, k < 3 ? want_pos : want_quat, col_body_create(f->w, &d, &id));
        assert_true(col_body_id_is_null(id));
    }
}

/* Declared speeds (lin, ang) must be refused by create and set_max_speeds alike. */
static void speeds_refused(fx *f, double lin, double ang)
{
    col_body_def d = col_default_body_def();
    d.shape = f->box;
    d.max_linear_speed = lin;
    d.max_angular_speed = ang;
    col_body_id id;
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_body_create(f->w, &d, &id));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_body_set_max_speeds(f->w, f->a, lin, ang));
}

static void body_create_nan(fx *f)
{
    body_create_refused(f, NAN, COL_ERR_NOT_FINITE, COL_ERR_NOT_FINITE);
    body_create_refused(f, -NAN, COL_ERR_NOT_FINITE, COL_ERR_NOT_FINITE);
    speeds_refused(f, NAN, 0.1);
    speeds_refused(f, 0.1, NAN);
    speeds_refused(f, NAN, NAN);
    speeds_refused(f, COL_SPEED_UNDECLARED, NAN);
}

static void body_create_inf(fx *f)
{
    body_create_refused(f, INFINITY, COL_ERR_NOT_FINITE, COL_ERR_NOT_FINITE);
    body_create_refused(f, -INFINITY, COL_ERR_NOT_FINITE, COL_ERR_NOT_FINITE);
    speeds_refused(f, INFINITY, 0.1);
    speeds_refused(f, 0.1, INFINITY);
    speeds_refused(f, -INFINITY, 0.1);
}

static void body_create_huge(fx *f)
{
    body_create_refused(f, 1e300, COL_ERR_NOT_FINITE, COL_ERR_BAD_QUATERNION);
    body_create_refused(f, -DBL_MAX, COL_ERR_NOT_FINITE, COL_ERR_BAD_QUATERNION);
    body_create_refused(f, nextafter(COL_MAX_COORD, INFINITY), COL_ERR_NOT_FINITE, COL_ERR_BAD_QUATERNION);
    /* the edge of the range, and the largest speeds, are accepted */
    col_body_def d = col_default_body_def();
    d.shape = f->box;
    d.pose = at(COL_MAX_COORD, -COL_MAX_COORD, COL_MAX_COORD);
    d.max_linear_speed = DBL_MAX;
    d.max_angular_speed = DBL_MAX;
    col_body_id id;
    EXPECT(f, COL_OK, col_body_create(f->w, &d, &id));
    d.pose = at(-COL_MAX_COORD, 0, 0);
    d.max_linear_speed = 1e300;
    d.max_angular_speed = 0;
    EXPECT(f, COL_OK, col_body_create(f->w, &d, &id));
    EXPECT(f, COL_OK, col_world_update(f->w));
    EXPECT(f, COL_OK, col_body_set_pose(f->w, id, at(-COL_MAX_COORD + 1e14, 0, 0)));
    EXPECT(f, COL_OK, col_world_update(f->w));
}

static void body_create_tiny(fx *f)
{
    for (size_t k = 0; k < sizeof tiny_values / sizeof tiny_values[0]; k++) {
        double v = tiny_values[k];
        col_body_def d = col_default_body_def();
        d.shape = f->box;
        d.pose = at(v, -v, 3.0 + v);
        d.max_linear_speed = fabs(v);
        d.max_angular_speed = fabs(v);
        col_body_id id;
        EXPECT(f, COL_OK, col_body_create(f->w, &d, &id));
        /* a quaternion of tiny length is no rotation */
        d.pose = col_transform_identity();
        d.pose.q = (col_quat){v, v, v, v};
        EXPECT(f, COL_ERR_BAD_QUATERNION, col_body_create(f->w, &d, &id));
    }
    EXPECT(f, COL_OK, col_world_update(f->w));
    check_pairs_brute(f->w, (col_body_id[]){f->a, f->b, f->st, f->d}, (col_shape_id[]){f->box, f->blob, f->box, f->spare},
                      (bool[]){false, false, true, false}, 4);
}

static void body_create_null(fx *f)
{
    col_body_def d = col_default_body_def();
    d.shape = f->box;
    col_body_id id;
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_body_create(NULL, &d, &id));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_body_create(f->w, NULL, &id));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_body_create(f->w, &d, NULL));
    d.user_data = NULL; /* NULL user data is a value like any other */
    EXPECT(f, COL_OK, col_body_create(f->w, &d, &id));
}

static void body_create_id(fx *f)
{
    for (int k = 0; k < f->nbad_shape; k++) {
        col_body_def d = col_default_body_def();
        d.shape = f->bad_shape[k];
        col_body_id id = {7, 7, 7};
        EXPECT(f, COL_ERR_STALE_ID, col_body_create(f->w, &d, &id));
        assert_true(col_body_id_is_null(id));
    }
}

/* Bodies exactly on top of each other, moving and static. */
static void body_create_degenerate(fx *f)
{
    col_body_def d = col_default_body_def();
    d.shape = f->box;
    d.pose = at(0.1, 0, 0); /* exactly a's pose */
    col_body_id twin, twin_static;
    EXPECT(f, COL_OK, col_body_create(f->w, &d, &twin));
    d.is_static = true;
    d.pose = at(10, 0, 0); /* exactly st's pose: static-static, never a pair */
    EXPECT(f, COL_OK, col_body_create(f->w, &d, &twin_static));
    d.is_static = false;
    d.filter_group = 0; /* in no group: collides with nothing */
    col_body_id loner;
    EXPECT(f, COL_OK, col_body_create(f->w, &d, &loner));
    EXPECT(f, COL_OK, col_world_update(f->w));
    col_pair_events ev = col_world_get_pair_events(f->w);
    assert_int_equal(ev.pair_count, 3); /* a-b, a-twin, b-twin */
    for (int k = 0; k < ev.pair_count; k++) {
        assert_false(col_body_id_equals(ev.pairs[k].a, loner) || col_body_id_equals(ev.pairs[k].b, loner));
        assert_false(col_body_id_equals(ev.pairs[k].a, twin_static) || col_body_id_equals(ev.pairs[k].b, twin_static));
    }
}

static void body_create_other(fx *f)
{
    col_body_def d;
    memset(&d, 0, sizeof d);
    d.shape = f->box;
    d.pose = col_transform_identity();
    col_body_id id = {7, 7, 7};
    EXPECT(f, COL_ERR_DEF_UNINITIALIZED, col_body_create(f->w, &d, &id));
    assert_true(col_body_id_is_null(id));
    d = col_default_body_def();
    d.shape = f->box;
    d.internal_cookie = 0x636f6c32;
    EXPECT(f, COL_ERR_DEF_UNINITIALIZED, col_body_create(f->w, &d, &id));
    const col_quat bad_q[] = {{0, 0, 0, 0}, {0, 0, 0, 1.1}, {1, 1, 0, 0}, {0, 0, 0, -0.9}, {1e-3, 0, 0, 1 + 1e-5}};
    for (int k = 0; k < 5; k++) {
        d = col_default_body_def();
        d.shape = f->box;
        d.pose.q = bad_q[k];
        EXPECT(f, COL_ERR_BAD_QUATERNION, col_body_create(f->w, &d, &id));
    }
    speeds_refused(f, COL_SPEED_UNDECLARED, 0.1);
    speeds_refused(f, 0.1, COL_SPEED_UNDECLARED);
    speeds_refused(f, -0.5, 0.1);
    speeds_refused(f, 0.1, -2.0);
    speeds_refused(f, -2.0, -2.0);
    speeds_refused(f, -5e-324, 0.0);
}

static void body_destroy_null(fx *f) { EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_body_destroy(NULL, f->a)); }

static void body_destroy_id(fx *f)
{
    for (int k = 0; k < f->nbad_body; k++) {
        print_message("    %s\n", f->bad_body_name[k]);
        EXPECT(f, COL_ERR_STALE_ID, col_body_destroy(f->w, f->bad_body[k]));
    }
    EXPECT(f, COL_OK, col_body_destroy(f->w, f->d));
    EXPECT(f, COL_ERR_STALE_ID, col_body_destroy(f->w, f->d)); /* twice */
}

static void body_is_valid_null(fx *f) { HOLDS(f, !col_body_is_valid(NULL, f->a)); }

static void body_is_valid_id(fx *f)
{
    for (int k = 0; k < f->nbad_body; k++) HOLDS(f, !col_body_is_valid(f->w, f->bad_body[k]));
    HOLDS(f, col_body_is_valid(f->w, f->d));
}

/* Poses with component k at v: set_pose, set_poses and set_poses_fn refuse them alike. */
static col_transform array_pose_fn(int index, void *ctx) { return ((const col_transform *)ctx)[index]; }

static void poses_refused(fx *f, col_transform bad, col_status want)
{
    EXPECT(f, want, col_body_set_pose(f->w, f->b, bad));
    /* a batch of 600 (the checks run on the workers) naming a, b and d in turn, bad
     * items at 451 and 452: the error names item 451 */
    enum { N = 600 };
    static col_body_id ids[N];
    static col_transform poses[N];
    const col_body_id live[3] = {f->a, f->b, f->d};
    for (int i = 0; i < N; i++) {
        ids[i] = live[i % 3];
        poses[i] = at(0.001 * i, 0, 0);
    }
    poses[451] = poses[452] = bad;
    EXPECT(f, want, col_body_set_poses(f->w, ids, poses, N));
    assert_non_null(strstr(col_world_last_error(f->w), "item 451"));
    EXPECT(f, want, col_body_set_poses_fn(f->w, ids, N, array_pose_fn, poses));
    assert_non_null(strstr(col_world_last_error(f->w), "item 451"));
    EXPECT(f, want, col_body_set_poses(f->w, &ids[451], &poses[451], 1));
}

static void set_pose_values(fx *f, double v, col_status want_pos, col_status want_quat)
{
    for (int k = 0; k < 7; k++) poses_refused(f, pose_with(k, v), k < 3 ? want_pos : want_quat);
}

static void set_pose_nan(fx *f)
{
    set_pose_values(f, NAN, COL_ERR_NOT_FINITE, COL_ERR_NOT_FINITE);
    set_pose_values(f, -NAN, COL_ERR_NOT_FINITE, COL_ERR_NOT_FINITE);
}

static void set_pose_inf(fx *f)
{
    set_pose_values(f, INFINITY, COL_ERR_NOT_FINITE, COL_ERR_NOT_FINITE);
    set_pose_values(f, -INFINITY, COL_ERR_NOT_FINITE, COL_ERR_NOT_FINITE);
}

static void set_pose_huge(fx *f)
{
    set_pose_values(f, 1e300, COL_ERR_NOT_FINITE, COL_ERR_BAD_QUATERNION);
    set_pose_values(f, -DBL_MAX, COL_ERR_NOT_FINITE, COL_ERR_BAD_QUATERNION);
    set_pose_values(f, nextafter(-COL_MAX_COORD, -INFINITY), COL_ERR_NOT_FINITE, COL_ERR_BAD_QUATERNION);
    /* the edge of the range: accepted, one body at a time and in a batch */
    EXPECT(f, COL_OK, col_body_set_pose(f->w, f->b, at(COL_MAX_COORD, COL_MAX_COORD, -COL_MAX_COORD)));
    EXPECT(f, COL_OK, col_world_update(f->w));
    col_body_id ids[2] = {f->a, f->d};
    col_transform poses[2] = {at(-COL_MAX_COORD, 0, 0), at(COL_MAX_COORD, COL_MAX_COORD, -COL_MAX_COORD)};
    EXPECT(f, COL_OK, col_body_set_poses(f->w, ids, poses, 2));
    EXPECT(f, COL_OK, col_world_update(f->w));
    check_pairs_brute(f->w, (col_body_id[]){f->a, f->b, f->st, f->d}, (col_shape_id[]){f->box, f->blob, f->box, f->spare},
                      (bool[]){false, false, true, false}, 4);
    assert_int_equal(col_world_get_pair_events(f->w).pair_count, 1); /* b and d at one corner */
}

static void set_pose_tiny(fx *f)
{
    for (size_t k = 0; k < sizeof tiny_values / sizeof tiny_values[0]; k++) {
        double v = tiny_values[k];
        EXPECT(f, COL_OK, col_body_set_pose(f->w, f->b, at(1.4 + v, v, -v)));
        col_body_id ids[2] = {f->a, f->d};
        col_transform poses[2] = {at(v, v, v), at(-v, 5, v)};
        EXPECT(f, COL_OK, col_body_set_poses(f->w, ids, poses, 2));
        EXPECT(f, COL_OK, col_world_update(f->w));
        col_transform bad = col_transform_identity();
        bad.q = (col_quat){0, 0, 0, v};
        poses_refused(f, bad, COL_ERR_BAD_QUATERNION);
    }
    check_pairs_brute(f->w, (col_body_id[]){f->a, f->b, f->st, f->d}, (col_shape_id[]){f->box, f->blob, f->box, f->spare},
                      (bool[]){false, false, true, false}, 4);
}

static void set_pose_null(fx *f) { EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_body_set_pose(NULL, f->a, at(0, 0, 0))); }

static void set_pose_id(fx *f)
{
    for (int k = 0; k < f->nbad_body; k++) EXPECT(f, COL_ERR_STALE_ID, col_body_set_pose(f->w, f->bad_body[k], at(0, 0, 0)));
}

/* b moved exactly onto a: the pair stays. */
static void set_pose_degenerate(fx *f)
{
    EXPECT(f, COL_OK, col_body_set_pose(f->w, f->b, at(0.1, 0, 0)));
    EXPECT(f, COL_OK, col_body_set_pose(f->w, f->d, at(0.1, 0, 0)));
    EXPECT(f, COL_OK, col_world_update(f->w));
    assert_int_equal(col_world_get_pair_events(f->w).pair_count, 3);
}

static void set_pose_other(fx *f)
{
    const col_quat bad_q[] = {{0, 0, 0, 0}, {0, 0, 0, 1.1}, {1, 1, 0, 0}, {0, 0, 0, -0.9}, {1e-3, 0, 0, 1 + 1e-5}};
    for (int k = 0; k < 5; k++) {
        col_transform t = col_transform_identity();
        t.q = bad_q[k];
        poses_refused(f, t, COL_ERR_BAD_QUATERNION);
    }
    /* within the tolerance: renormalised, accepted */
    col_transform t = col_transform_identity();
    t.q.w = -(1.0 + 1e-7);
    EXPECT(f, COL_OK, col_body_set_pose(f->w, f->a, t));
}

static void set_poses_count(fx *f)
{
    col_body_id ids[1] = {f->a};
    col_transform poses[1] = {at(0, 0, 0)};
    const int bad[] = {-1, INT_MIN};
    for (int k = 0; k < 2; k++) {
        EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_body_set_poses(f->w, ids, poses, bad[k]));
        EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_body_set_poses_fn(f->w, ids, bad[k], array_pose_fn, poses));
    }
    EXPECT(f, COL_OK, col_body_set_poses(f->w, NULL, NULL, 0)); /* nothing to do */
    EXPECT(f, COL_OK, col_body_set_poses_fn(f->w, NULL, 0, NULL, NULL));
}

static void set_poses_null(fx *f)
{
    col_body_id ids[1] = {f->a};
    col_transform poses[1] = {at(0, 0, 0)};
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_body_set_poses(NULL, ids, poses, 1));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_body_set_poses(f->w, NULL, poses, 1));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_body_set_poses(f->w, ids, NULL, 1));
}

static void set_poses_fn_null(fx *f)
{
    col_body_id ids[1] = {f->a};
    col_transform poses[1] = {at(0, 0, 0)};
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_body_set_poses_fn(NULL, ids, 1, array_pose_fn, poses));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_body_set_poses_fn(f->w, NULL, 1, array_pose_fn, poses));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_body_set_poses_fn(f->w, ids, 1, NULL, poses));
    EXPECT(f, COL_OK, col_body_set_poses_fn(f->w, ids, 1, array_pose_fn, poses)); /* ctx is the app's */
}

static void set_poses_id(fx *f)
{
    for (int k = 0; k < f->nbad_body; k++) {
        col_body_id ids[700];
        col_transform poses[700];
        for (int i = 0; i < 700; i++) {
            ids[i] = i % 2 ? f->a : f->b;
            poses[i] = at(0.01 * i, 0, 0);
        }
        ids[650] = f->bad_body[k];
        EXPECT(f, COL_ERR_STALE_ID, col_body_set_poses(f->w, ids, poses, 700));
        assert_non_null(strstr(col_world_last_error(f->w), "item 650"));
        EXPECT(f, COL_ERR_STALE_ID, col_body_set_poses_fn(f->w, ids, 700, array_pose_fn, poses));
    }
}

/* The same body many times in one batch: the last pose counts (documented). */
static void set_poses_degenerate(fx *f)
{
    col_body_id ids[900];
    col_transform poses[900];
    for (int i = 0; i < 900; i++) {
        ids[i] = f->b;
        poses[i] = at(100.0 + i, 0, 0);
    }
    EXPECT(f, COL_OK, col_body_set_poses(f->w, ids, poses, 900));
    col_transform got;
    EXPECT(f, COL_OK, col_body_get_pose(f->w, f->b, &got));
    assert_true(got.p.x == 999.0);
    EXPECT(f, COL_OK, col_body_set_poses_fn(f->w, ids, 900, array_pose_fn, poses));
    EXPECT(f, COL_OK, col_world_update(f->w));
    assert_int_equal(col_world_get_pair_events(f->w).pair_count, 0);
}

static void get_pose_null(fx *f)
{
    col_transform t;
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_body_get_pose(NULL, f->a, &t));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_body_get_pose(f->w, f->a, NULL));
}

static void get_pose_id(fx *f)
{
    col_transform t;
    for (int k = 0; k < f->nbad_body; k++) EXPECT(f, COL_ERR_STALE_ID, col_body_get_pose(f->w, f->bad_body[k], &t));
}

static void set_speeds_nan(fx *f)
{
    speeds_refused(f, NAN, 1.0);
    speeds_refused(f, 1.0, -NAN);
}

static void set_speeds_inf(fx *f)
{
    speeds_refused(f, INFINITY, INFINITY);
    speeds_refused(f, 0.0, INFINITY);
    speeds_refused(f, -INFINITY, -INFINITY);
}

/* The largest speeds: the schedule's bounds overflow to infinity, which only means "test
 * every frame". */
static void set_speeds_huge(fx *f)
{
    EXPECT(f, COL_OK, col_body_set_max_speeds(f->w, f->a, DBL_MAX, DBL_MAX));
    EXPECT(f, COL_OK, col_body_set_max_speeds(f->w, f->b, 1e300, 1e300));
    for (int frame = 0; frame < 4; frame++) {
        EXPECT(f, COL_OK, col_body_set_pose(f->w, f->b, at(1.4 + 0.5 * frame, 0.2, 0)));
        EXPECT(f, COL_OK, col_world_update(f->w));
        assert_int_equal(col_world_get_pair_events(f->w).pair_count, frame < 2 ? 1 : 0);
    }
}

/* The smallest: a pair may sleep for the longest the schedule allows. */
static void set_speeds_tiny(fx *f)
{
    EXPECT(f, COL_OK, col_body_set_pose(f->w, f->b, at(3, 0, 0)));
    EXPECT(f, COL_OK, col_world_update(f->w));
    for (size_t k = 0; k < sizeof tiny_values / sizeof tiny_values[0]; k++) {
        double v = fabs(tiny_values[k]);
        EXPECT(f, COL_OK, col_body_set_max_speeds(f->w, f->a, v, v));
        EXPECT(f, COL_OK, col_body_set_max_speeds(f->w, f->b, v, tiny_values[k] == 0 ? tiny_values[k] : v));
        EXPECT(f, COL_OK, col_world_update(f->w));
    }
    /* a promise broken by a jump: the pair is still seen in that frame */
    EXPECT(f, COL_OK, col_body_set_pose(f->w, f->b, at(1.4, 0.2, 0)));
    EXPECT(f, COL_OK, col_world_update(f->w));
    assert_int_equal(col_world_get_pair_events(f->w).pair_count, 1);
}

static void set_speeds_null(fx *f) { EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_body_set_max_speeds(NULL, f->a, 1, 1)); }

static void set_speeds_id(fx *f)
{
    for (int k = 0; k < f->nbad_body; k++) EXPECT(f, COL_ERR_STALE_ID, col_body_set_max_speeds(f->w, f->bad_body[k], 1, 1));
}

static void set_speeds_other(fx *f)
{
    speeds_refused(f, COL_SPEED_UNDECLARED, 0.1);
    speeds_refused(f, -0.5, 0.1);
    speeds_refused(f, -1.0000000000000002, -1.0);
}

static void get_speeds_null(fx *f)
{
    double l, a;
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_body_get_max_speeds(NULL, f->a, &l, &a));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_body_get_max_speeds(f->w, f->a, NULL, &a));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_body_get_max_speeds(f->w, f->a, &l, NULL));
}

static void get_speeds_id(fx *f)
{
    double l, a;
    for (int k = 0; k < f->nbad_body; k++) EXPECT(f, COL_ERR_STALE_ID, col_body_get_max_speeds(f->w, f->bad_body[k], &l, &a));
}

static void user_data_null(fx *f) { HOLDS(f, col_body_get_user_data(NULL, f->a) == NULL); }

static void user_data_id(fx *f)
{
    for (int k = 0; k < f->nbad_body; k++) HOLDS(f, col_body_get_user_data(f->w, f->bad_body[k]) == NULL);
}

/* ---- pairs ---- */

static void pair_enabled_null(fx *f) { EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_pair_set_enabled(NULL, f->a, f->b, false)); }

static void pair_enabled_id(fx *f)
{
    for (int k = 0; k < f->nbad_body; k++) {
        EXPECT(f, COL_ERR_STALE_ID, col_pair_set_enabled(f->w, f->bad_body[k], f->b, false));
        EXPECT(f, COL_ERR_STALE_ID, col_pair_set_enabled(f->w, f->a, f->bad_body[k], true));
        EXPECT(f, COL_ERR_STALE_ID, col_pair_set_enabled(f->w, f->bad_body[k], f->bad_body[k], false));
    }
}

static void pair_enabled_other(fx *f)
{
    EXPECT(f, COL_ERR_SAME_BODY, col_pair_set_enabled(f->w, f->a, f->a, false));
    EXPECT(f, COL_ERR_SAME_BODY, col_pair_set_enabled(f->w, f->st, f->st, true));
    EXPECT(f, COL_OK, col_pair_set_enabled(f->w, f->a, f->b, true)); /* already: no change */
    EXPECT(f, COL_OK, col_pair_set_enabled(f->w, f->b, f->a, false));
    EXPECT(f, COL_OK, col_pair_set_enabled(f->w, f->a, f->b, false)); /* twice */
    EXPECT(f, COL_OK, col_pair_set_enabled(f->w, f->st, f->a, false)); /* never overlapping: allowed */
    EXPECT(f, COL_OK, col_world_update(f->w));
    assert_int_equal(col_world_get_pair_events(f->w).pair_count, 0);
}

static void pair_is_enabled_null(fx *f) { HOLDS(f, !col_pair_is_enabled(NULL, f->a, f->b)); }

static void pair_is_enabled_id(fx *f)
{
    for (int k = 0; k < f->nbad_body; k++) {
        HOLDS(f, !col_pair_is_enabled(f->w, f->bad_body[k], f->b));
        HOLDS(f, !col_pair_is_enabled(f->w, f->a, f->bad_body[k]));
    }
    HOLDS(f, col_pair_is_enabled(f->w, f->a, f->b));
}

static void pair_is_enabled_other(fx *f) { HOLDS(f, !col_pair_is_enabled(f->w, f->a, f->a)); }

/* ---- id and value helpers ---- */

static void id_helpers_id(fx *f)
{
    col_body_id null = {0, 0, 0};
    assert_true(col_body_id_is_null(null));
    assert_true(col_shape_id_is_null((col_shape_id){0, 5, 5})); /* index 0: null whatever the rest */
    assert_false(col_body_id_is_null(f->a));
    for (int k = 0; k < f->nbad_body; k++) assert_false(col_body_id_equals(f->a, f->bad_body[k]));
    for (int k = 0; k < f->nbad_shape; k++) assert_false(col_shape_id_equals(f->box, f->bad_shape[k]));
    assert_true(col_body_id_equals(f->a, f->a) && col_shape_id_equals(f->box, f->box));
    HOLDS(f, true);
}

/* ---- world-free queries ---- */

/* col_query_overlap and col_distance/col_contact refuse a pose with component k at v. */
static void queries_refuse_pose(fx *f, col_transform bad, col_status want)
{
    bool hit = true;
    for (int be = COL_BACKEND_DEFAULT; be < COL_BACKEND_COUNT; be++) {
        EXPECT(f, want, col_query_overlap(f->w, f->box, bad, f->blob, at(0, 0, 0), (col_backend)be, &hit));
        EXPECT(f, want, col_query_overlap(f->w, f->box, at(0, 0, 0), f->blob, bad, (col_backend)be, &hit));
        EXPECT(f, want, col_query_overlap(f->w, f->ball, bad, f->combo, at(0, 0, 0), (col_backend)be, &hit));
        EXPECT(f, want, col_query_overlap(f->w, f->combo, at(0, 0, 0), f->pill, bad, (col_backend)be, &hit));
    }
    col_distance_input rin = {f->pill, f->combo, bad, at(0, 0, 0)};
    col_distance_output rout;
    EXPECT(f, want, col_distance(f->w, &rin, NULL, &rout));
    col_contact_input rcin = {f->combo, f->ball, at(0, 0, 0), bad, 0.5};
    col_contact_output rcout;
    EXPECT(f, want, col_contact(f->w, &rcin, NULL, &rcout));
    col_distance_input din = {f->box, f->blob, bad, at(0, 0, 0)};
    col_distance_output dout;
    EXPECT(f, want, col_distance(f->w, &din, NULL, &dout));
    assert_true(dout.outcome == 0 && dout.distance == 0.0 && dout.steps == 0);
    din.pose_a = at(0, 0, 0);
    din.pose_b = bad;
    EXPECT(f, want, col_distance(f->w, &din, NULL, &dout));
    col_contact_input cin = {f->box, f->blob, bad, at(0, 0, 0), 0.0};
    col_contact_output cout;
    EXPECT(f, want, col_contact(f->w, &cin, NULL, &cout));
    assert_int_equal(cout.point_count, 0);
    cin.pose_a = at(0, 0, 0);
    cin.pose_b = bad;
    EXPECT(f, want, col_contact(f->w, &cin, NULL, &cout));
}

static void queries_refuse_values(fx *f, double v, col_status want_pos, col_status want_quat)
{
    for (int k = 0; k < 7; k++) queries_refuse_pose(f, pose_with(k, v), k < 3 ? want_pos : want_quat);
}

static void query_overlap_nan(fx *f) { queries_refuse_values(f, NAN, COL_ERR_NOT_FINITE, COL_ERR_NOT_FINITE); }
static void query_overlap_inf(fx *f)
{
    queries_refuse_values(f, INFINITY, COL_ERR_NOT_FINITE, COL_ERR_NOT_FINITE);
    queries_refuse_values(f, -INFINITY, COL_ERR_NOT_FINITE, COL_ERR_NOT_FINITE);
}

/* Every backend, the distance and the contact answer as they must at the edge of the
 * coordinate range, for boxes 2e13 wide: apart by 2e12, overlapping, far apart. */
static void queries_huge(fx *f)
{
    queries_refuse_values(f, 1e300, COL_ERR_NOT_FINITE, COL_ERR_BAD_QUATERNION);
    queries_refuse_values(f, -nextafter(COL_MAX_COORD, INFINITY), COL_ERR_NOT_FINITE, COL_ERR_BAD_QUATERNION);
    col_shape_id big = make_box(f->w, 1e13, 1e13, 1e13);
    f->hash = col_world_hash(f->w);
    const double c = COL_MAX_COORD, dx[3] = {-2.2e13, -1.5e13, -2 * c + 1e13};
    for (int k = 0; k < 3; k++) {
        col_transform xa = at(c - 1e13, -c + 1e13, c - 1e13), xb = xa;
        xb.p.x += dx[k];
        bool want = k == 1, hit;
        for (int be = COL_BACKEND_DEFAULT; be < COL_BACKEND_COUNT; be++) {
            EXPECT(f, COL_OK, col_query_overlap(f->w, big, xa, big, xb, (col_backend)be, &hit));
            if (hit != want) fail_msg("backend %d at 1e15, dx %g: %d", be, dx[k], hit);
        }
        col_distance_input din = {big, big, xa, xb};
        col_distance_output dout;
        EXPECT(f, COL_OK, col_distance(f->w, &din, NULL, &dout));
        assert_int_equal(dout.outcome == COL_DISTANCE_SEPARATED, !want);
        col_contact_input cin = {big, big, xa, xb, 1e300};
        col_contact_output cout;
        EXPECT(f, COL_OK, col_contact(f->w, &cin, NULL, &cout));
        assert_true(cout.point_count >= 1 && cout.point_count <= COL_MAX_CONTACT_POINTS);
    }
}

static void queries_tiny(fx *f)
{
    for (size_t k = 0; k < sizeof tiny_values / sizeof tiny_values[0]; k++) {
        double v = tiny_values[k];
        col_transform xa = at(v, v, -v), xb = at(2.0 + v, v, 0), xc = at(2.0 - v, 0, 0);
        bool hit;
        for (int be = COL_BACKEND_DEFAULT; be < COL_BACKEND_COUNT; be++) {
            EXPECT(f, COL_OK, col_query_overlap(f->w, f->box, xa, f->box, xb, (col_backend)be, &hit));
            bool want = xb.p.x - xa.p.x <= 2.0;
            if (hit != want) fail_msg("backend %d, offsets %g: %d", be, v, hit);
            EXPECT(f, COL_OK, col_query_overlap(f->w, f->box, xa, f->box, xc, (col_backend)be, &hit));
            if (!hit) fail_msg("backend %d, offsets %g: overlap missed", be, v);
        }
        col_distance_input din = {f->box, f->box, xa, xb};
        col_distance_output dout;
        EXPECT(f, COL_OK, col_distance(f->w, &din, NULL, &dout));
        col_contact_input cin = {f->box, f->box, xa, xb, fabs(v)};
        col_contact_output cout;
        EXPECT(f, COL_OK, col_contact(f->w, &cin, NULL, &cout));
        col_transform bad = col_transform_identity();
        bad.q = (col_quat){v, 0, 0, v};
        queries_refuse_pose(f, bad, COL_ERR_BAD_QUATERNION);
    }
}

static void query_overlap_null(fx *f)
{
    bool hit;
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT,
                   col_query_overlap(NULL, f->box, at(0, 0, 0), f->box, at(0, 0, 0), COL_BACKEND_DEFAULT, &hit));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_query_overlap(f->w, f->box, at(0, 0, 0), f->box, at(0, 0, 0), COL_BACKEND_DEFAULT, NULL));
}

static void query_overlap_id(fx *f)
{
    bool hit;
    for (int k = 0; k < f->nbad_shape; k++)
        for (int be = COL_BACKEND_DEFAULT; be < COL_BACKEND_COUNT; be++) {
            EXPECT(f, COL_ERR_STALE_ID,
                   col_query_overlap(f->w, f->bad_shape[k], at(0, 0, 0), f->box, at(0, 0, 0), (col_backend)be, &hit));
            EXPECT(f, COL_ERR_STALE_ID,
                   col_query_overlap(f->w, f->box, at(0, 0, 0), f->bad_shape[k], at(0, 0, 0), (col_backend)be, &hit));
        }
}

/* Identical shapes at identical poses, and faces exactly touching: colliding for all. */
static void query_overlap_degenerate(fx *f)
{
    bool hit;
    col_transform t = at(0.3, -0.7, 2);
    t.q = (col_quat){0.6, 0, 0, 0.8};
    for (int be = COL_BACKEND_DEFAULT; be < COL_BACKEND_COUNT; be++) {
        EXPECT(f, COL_OK, col_query_overlap(f->w, f->blob, t, f->blob, t, (col_backend)be, &hit));
        assert_true(hit);
        EXPECT(f, COL_OK, col_query_overlap(f->w, f->box, at(0, 0, 0), f->box, at(2, 0, 0), (col_backend)be, &hit));
        assert_true(hit);
        EXPECT(f, COL_OK, col_query_overlap(f->w, f->box, at(0, 0, 0), f->box, at(2, 2, 2), (col_backend)be, &hit));
        assert_true(hit); /* corner to corner */
        const col_shape_id round[3] = {f->ball, f->pill, f->combo};
        for (int k = 0; k < 3; k++) {
            EXPECT(f, COL_OK, col_query_overlap(f->w, round[k], t, round[k], t, (col_backend)be, &hit));
            assert_true(hit);
        }
        EXPECT(f, COL_OK, col_query_overlap(f->w, f->ball, at(0, 0, 0), f->box, at(1.5, 0, 0), (col_backend)be, &hit));
        assert_true(hit); /* the ball touching a face */
        EXPECT(f, COL_OK, col_query_overlap(f->w, f->pill, at(0, 0, 0), f->pill, at(0, 0, 1.5), (col_backend)be, &hit));
        assert_true(hit); /* cap to cap */
    }
}

static void query_overlap_other(fx *f)
{
    bool hit;
    const int bad[] = {-1, COL_BACKEND_COUNT, 99, INT_MAX, INT_MIN};
    for (int k = 0; k < 5; k++)
        EXPECT(f, COL_ERR_INVALID_ARGUMENT,
               col_query_overlap(f->w, f->box, at(0, 0, 0), f->box, at(0, 0, 0), (col_backend)bad[k], &hit));
    const col_quat bad_q[] = {{0, 0, 0, 0}, {0, 0, 0, 1.1}, {1, 1, 0, 0}};
    for (int k = 0; k < 3; k++) {
        col_transform t = col_transform_identity();
        t.q = bad_q[k];
        queries_refuse_pose(f, t, COL_ERR_BAD_QUATERNION);
    }
}

static void interframe_null(fx *f)
{
    col_interframe_result r;
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_query_interframe(NULL, f->a, f->b, &r));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_query_interframe(f->w, f->a, f->b, NULL));
}

static void interframe_id(fx *f)
{
    col_interframe_result r;
    for (int k = 0; k < f->nbad_body; k++) {
        EXPECT(f, COL_ERR_STALE_ID, col_query_interframe(f->w, f->bad_body[k], f->b, &r));
        EXPECT(f, COL_ERR_STALE_ID, col_query_interframe(f->w, f->a, f->bad_body[k], &r));
    }
}

static void interframe_other(fx *f)
{
    col_interframe_result r;
    EXPECT(f, COL_ERR_SAME_BODY, col_query_interframe(f->w, f->a, f->a, &r));
}

/* Bodies that never moved (both poses equal), bodies on one pose, a body just created
 * (no update yet) and the world's largest jump, -1e15 to 1e15 in one update. */
static void interframe_degenerate(fx *f)
{
    col_interframe_result r;
    EXPECT(f, COL_OK, col_query_interframe(f->w, f->st, f->d, &r));
    assert_false(r.may_have_touched);
    EXPECT(f, COL_OK, col_query_interframe(f->w, f->a, f->b, &r));
    assert_true(r.may_have_touched);
    col_body_def d = col_default_body_def();
    d.shape = f->box;
    d.pose = at(0.1, 0, 0);
    col_body_id twin;
    EXPECT(f, COL_OK, col_body_create(f->w, &d, &twin));
    EXPECT(f, COL_OK, col_query_interframe(f->w, f->a, twin, &r));
    EXPECT(f, COL_OK, col_world_update(f->w));
    EXPECT(f, COL_OK, col_query_interframe(f->w, f->a, twin, &r));
    assert_true(r.may_have_touched && r.exact);
}

/* The body queries at the edge of the coordinate range: a jump from -1e15 to 1e15 in
 * one update, and a and b side by side at the far corner. */
static void body_queries_huge(fx *f)
{
    col_interframe_result r;
    EXPECT(f, COL_OK, col_body_set_pose(f->w, f->d, at(-COL_MAX_COORD, 0, 0)));
    EXPECT(f, COL_OK, col_world_update(f->w));
    col_transform t = at(COL_MAX_COORD, 0, 0);
    t.q = (col_quat){0, 0, 1, 0};
    EXPECT(f, COL_OK, col_body_set_pose(f->w, f->d, t));
    EXPECT(f, COL_OK, col_world_update(f->w));
    EXPECT(f, COL_OK, col_query_interframe(f->w, f->st, f->d, &r));
    assert_true(r.may_have_touched); /* it swept through everything on the x axis */
    EXPECT(f, COL_OK, col_body_set_pose(f->w, f->d, at(COL_MAX_COORD, 5, 0)));
    EXPECT(f, COL_OK, col_world_update(f->w));
    EXPECT(f, COL_OK, col_query_interframe(f->w, f->st, f->d, &r));
    assert_false(r.may_have_touched); /* then it stepped 5 off the axis, far from st */
    const double c = COL_MAX_COORD;
    EXPECT(f, COL_OK, col_body_set_pose(f->w, f->a, at(c - 3, -c, c)));
    EXPECT(f, COL_OK, col_body_set_pose(f->w, f->b, at(c - 1.5, -c, c)));
    EXPECT(f, COL_OK, col_world_update(f->w));
    EXPECT(f, COL_OK, col_query_interframe(f->w, f->a, f->b, &r));
    assert_true(r.may_have_touched);
    col_distance_output dout;
    EXPECT(f, COL_OK, col_body_distance(f->w, f->a, f->b, NULL, &dout));
    assert_int_equal(dout.outcome, COL_DISTANCE_PENETRATING);
    EXPECT(f, COL_OK, col_body_distance(f->w, f->a, f->st, NULL, &dout));
    assert_int_equal(dout.outcome, COL_DISTANCE_SEPARATED);
    col_contact_output cout;
    EXPECT(f, COL_OK, col_body_contact(f->w, f->a, f->b, 1e300, NULL, &cout));
    assert_true(cout.point_count >= 1 && cout.point_count <= COL_MAX_CONTACT_POINTS);
    EXPECT(f, COL_OK, col_body_contact(f->w, f->a, f->st, DBL_MAX, NULL, &cout));
    assert_true(cout.point_count >= 1 && cout.point_count <= COL_MAX_CONTACT_POINTS);
}

/* The body queries with subnormal positions and subnormal motion between updates. */
static void body_queries_tiny(fx *f)
{
    for (size_t k = 0; k < sizeof tiny_values / sizeof tiny_values[0]; k++) {
        double v = tiny_values[k];
        EXPECT(f, COL_OK, col_body_set_pose(f->w, f->a, at(v, -v, v)));
        EXPECT(f, COL_OK, col_body_set_pose(f->w, f->d, at(2.0 + v, 0, v)));
        EXPECT(f, COL_OK, col_world_update(f->w));
        col_interframe_result r;
        EXPECT(f, COL_OK, col_query_interframe(f->w, f->a, f->b, &r));
        assert_true(r.may_have_touched);
        EXPECT(f, COL_OK, col_query_interframe(f->w, f->a, f->d, &r));
        col_distance_output dout;
        EXPECT(f, COL_OK, col_body_distance(f->w, f->a, f->b, NULL, &dout));
        assert_int_equal(dout.outcome, COL_DISTANCE_PENETRATING);
        col_contact_output cout;
        EXPECT(f, COL_OK, col_body_contact(f->w, f->a, f->d, fabs(v), NULL, &cout));
    }
}

static void distance_null(fx *f)
{
    col_distance_input in = {f->box, f->blob, at(0, 0, 0), at(3, 0, 0)};
    col_distance_output out;
    col_distance_cache cache;
    memset(&cache, 0, sizeof cache);
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_distance(NULL, &in, &cache, &out));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_distance(f->w, NULL, &cache, &out));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_distance(f->w, &in, &cache, NULL));
    EXPECT(f, COL_OK, col_distance(f->w, &in, NULL, &out)); /* no cache: allowed */
}

static void distance_id(fx *f)
{
    col_distance_output out;
    for (int k = 0; k < f->nbad_shape; k++) {
        col_distance_input in = {f->bad_shape[k], f->blob, at(0, 0, 0), at(3, 0, 0)};
        EXPECT(f, COL_ERR_STALE_ID, col_distance(f->w, &in, NULL, &out));
        in.shape_a = f->box;
        in.shape_b = f->bad_shape[k];
        EXPECT(f, COL_ERR_STALE_ID, col_distance(f->w, &in, NULL, &out));
    }
}

/* Forged warm-start caches naming the right shapes: features out of range, of unknown
 * kinds, face-face, NaN and zero directions. The answer must be the cold one. */
static void forged_caches(fx *f, col_distance_cache *c, int *n)
{
    const col_feature bad_f[] = {{COL_FEATURE_VERTEX, -1}, {COL_FEATURE_VERTEX, 8},     {COL_FEATURE_EDGE, 12},
                                 {COL_FEATURE_FACE, 6},    {COL_FEATURE_FACE, INT_MAX}, {(col_feature_type)7, 0},
                                 {(col_feature_type)-1, 0}, {COL_FEATURE_FACE, 0}};
    int k = 0;
    for (size_t i = 0; i < sizeof bad_f / sizeof bad_f[0]; i++) {
        memset(&c[k], 0, sizeof c[k]);
        c[k].shape_a = f->box;
        c[k].shape_b = f->box;
        c[k].feature_a = bad_f[i];
        c[k].feature_b = (col_feature){COL_FEATURE_FACE, 1}; /* with FACE 0: face-face */
        c[k].direction_a = col_vec3_make(1, 0, 0);
        c[k].direction_b = col_vec3_make(-1, 0, 0);
        k++;
    }
    memset(&c[k], 0, sizeof c[k]);
    c[k].shape_a = f->box;
    c[k].shape_b = f->box;
    c[k].direction_a = col_vec3_make(NAN, INFINITY, 0);
    c[k].direction_b = col_vec3_make(0, -INFINITY, NAN);
    k++;
    memset(&c[k], 0, sizeof c[k]);
    c[k].shape_a = f->box;
    c[k].shape_b = f->box;
    c[k].feature_a = (col_feature){COL_FEATURE_VERTEX, 7};
    c[k].feature_b = (col_feature){COL_FEATURE_VERTEX, 0}; /* in range, far from the answer */
    k++;
    *n = k;
}

static void distance_other(fx *f)
{
    col_distance_cache c[16];
    int n;
    forged_caches(f, c, &n);
    const col_transform xb[3] = {at(3, 0.5, 0), at(1.5, 0.3, 0.2), at(2, 0, 0)};
    for (int p = 0; p < 3; p++) {
        col_distance_input in = {f->box, f->box, at(0, 0, 0), xb[p]};
        col_distance_output cold, warm;
        EXPECT(f, COL_OK, col_distance(f->w, &in, NULL, &cold));
        col_contact_input cin = {f->box, f->box, at(0, 0, 0), xb[p], 0.1};
        col_contact_output ccold, cwarm;
        EXPECT(f, COL_OK, col_contact(f->w, &cin, NULL, &ccold));
        for (int k = 0; k < n; k++) {
            col_distance_cache cc = c[k];
            EXPECT(f, COL_OK, col_distance(f->w, &in, &cc, &warm));
            assert_int_equal(warm.outcome, cold.outcome);
            assert_true(fabs(warm.distance - cold.distance) <= 1e-12);
            cc = c[k];
            EXPECT(f, COL_OK, col_contact(f->w, &cin, &cc, &cwarm));
            assert_int_equal(cwarm.outcome, ccold.outcome);
            assert_true(fabs(cwarm.separation - ccold.separation) <= 1e-12);
        }
    }
    col_transform t = col_transform_identity();
    t.q.w = 1.5;
    queries_refuse_pose(f, t, COL_ERR_BAD_QUATERNION);
}

static void distance_degenerate(fx *f)
{
    col_distance_input in = {f->blob, f->blob, at(1, 2, 3), at(1, 2, 3)};
    col_distance_output out;
    EXPECT(f, COL_OK, col_distance(f->w, &in, NULL, &out));
    assert_int_equal(out.outcome, COL_DISTANCE_PENETRATING);
    col_contact_input cin = {f->box, f->box, at(0, 0, 0), at(0, 0, 0), 0.0};
    col_contact_output cout;
    EXPECT(f, COL_OK, col_contact(f->w, &cin, NULL, &cout));
    assert_int_equal(cout.outcome, COL_DISTANCE_PENETRATING);
    in = (col_distance_input){f->box, f->box, at(0, 0, 0), at(2, 0, 0)}; /* faces touching */
    EXPECT(f, COL_OK, col_distance(f->w, &in, NULL, &out));
    assert_true(out.outcome != COL_DISTANCE_SEPARATED && out.distance == 0.0);
}

/* ---- the time-critical mode (docs/adb.md) ---- */

static void pair_estimate_null(fx *f)
{
    col_pair_estimate e;
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_pair_get_estimate(NULL, f->a, f->b, &e));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_pair_get_estimate(f->w, f->a, f->b, NULL));
}

static void pair_estimate_id(fx *f)
{
    col_pair_estimate e;
    for (int k = 0; k < f->nbad_body; k++) {
        EXPECT(f, COL_ERR_STALE_ID, col_pair_get_estimate(f->w, f->bad_body[k], f->b, &e));
        EXPECT(f, COL_ERR_STALE_ID, col_pair_get_estimate(f->w, f->a, f->bad_body[k], &e));
    }
}

static void pair_estimate_other(fx *f)
{
    col_pair_estimate e;
    EXPECT(f, COL_ERR_SAME_BODY, col_pair_get_estimate(f->w, f->a, f->a, &e));
    /* the mode is off in this world: a pair is never tested in it */
    EXPECT(f, COL_OK, col_pair_get_estimate(f->w, f->a, f->b, &e));
    HOLDS(f, !e.tested);
}

/* col_body_collide_time_critical on hull bodies a, b with these settings: want, and no
 * estimate written */
static void tc_expect(fx *f, col_status want, double p_min, int k_min, int max_pairs)
{
    col_time_critical_def d = col_default_time_critical_def();
    d.p_min = p_min;
    d.k_min = k_min;
    d.max_node_pairs = max_pairs;
    col_pair_estimate e;
    EXPECT(f, want, col_body_collide_time_critical(f->w, f->a, f->b, &d, &e));
    HOLDS(f, !e.tested);
}

static void tc_nan(fx *f) { tc_expect(f, COL_ERR_INVALID_ARGUMENT, NAN, 10, 0); }
static void tc_inf(fx *f)
{
    tc_expect(f, COL_ERR_INVALID_ARGUMENT, INFINITY, 10, 0);
    tc_expect(f, COL_ERR_INVALID_ARGUMENT, -INFINITY, 10, 0);
}
static void tc_huge(fx *f)
{
    tc_expect(f, COL_ERR_INVALID_ARGUMENT, 1e300, 10, 0);
    tc_expect(f, COL_ERR_INVALID_ARGUMENT, -1e300, 10, 0);
    tc_expect(f, COL_ERR_INVALID_ARGUMENT, 1.0 + 0x1p-52, 10, 0); /* just above 1 */
}
static void tc_tiny(fx *f)
{
    tc_expect(f, COL_ERR_INVALID_ARGUMENT, 0.0, 10, 0);
    tc_expect(f, COL_ERR_INVALID_ARGUMENT, -0.0, 10, 0);
    tc_expect(f, COL_ERR_INVALID_ARGUMENT, -DBL_MIN, 10, 0);
    /* a valid tiny p_min: the bodies (hulls) are then refused, not the number */
    tc_expect(f, COL_ERR_INVALID_ARGUMENT, DBL_TRUE_MIN, 10, 0);
    HOLDS(f, strstr(col_world_last_error(f->w), "not both meshes") != NULL);
}
static void tc_count(fx *f)
{
    const int bad[] = {0, -1, INT_MIN};
    for (int k = 0; k < 3; k++) tc_expect(f, COL_ERR_INVALID_ARGUMENT, 0.99, bad[k], 0);
    tc_expect(f, COL_ERR_INVALID_ARGUMENT, 0.99, 10, -1);
    tc_expect(f, COL_ERR_INVALID_ARGUMENT, 0.99, 10, INT_MIN);
}
static void tc_null(fx *f)
{
    col_time_critical_def d = col_default_time_critical_def();
    col_pair_estimate e;
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_body_collide_time_critical(NULL, f->a, f->b, &d, &e));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_body_collide_time_critical(f->w, f->a, f->b, NULL, &e));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_body_collide_time_critical(f->w, f->a, f->b, &d, NULL));
}
static void tc_id(fx *f)
{
    col_time_critical_def d = col_default_time_critical_def();
    col_pair_estimate e;
    for (int k = 0; k < f->nbad_body; k++) {
        EXPECT(f, COL_ERR_STALE_ID, col_body_collide_time_critical(f->w, f->bad_body[k], f->b, &d, &e));
        EXPECT(f, COL_ERR_STALE_ID, col_body_collide_time_critical(f->w, f->a, f->bad_body[k], &d, &e));
    }
}
static void tc_other(fx *f)
{
    col_time_critical_def d = col_default_time_critical_def();
    col_pair_estimate e;
    EXPECT(f, COL_ERR_SAME_BODY, col_body_collide_time_critical(f->w, f->a, f->a, &d, &e));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_body_collide_time_critical(f->w, f->a, f->b, &d, &e)); /* hulls */
    d.internal_cookie = 0;
    EXPECT(f, COL_ERR_DEF_UNINITIALIZED, col_body_collide_time_critical(f->w, f->a, f->b, &d, &e));
    col_time_critical_def z;
    memset(&z, 0, sizeof z);
    EXPECT(f, COL_ERR_DEF_UNINITIALIZED, col_body_collide_time_critical(f->w, f->a, f->b, &z, &e));
}

static void body_distance_null(fx *f)
{
    col_distance_output out;
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_body_distance(NULL, f->a, f->b, NULL, &out));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_body_distance(f->w, f->a, f->b, NULL, NULL));
}

static void body_distance_id(fx *f)
{
    col_distance_output out;
    for (int k = 0; k < f->nbad_body; k++) {
        EXPECT(f, COL_ERR_STALE_ID, col_body_distance(f->w, f->bad_body[k], f->b, NULL, &out));
        EXPECT(f, COL_ERR_STALE_ID, col_body_distance(f->w, f->a, f->bad_body[k], NULL, &out));
    }
}

static void body_distance_other(fx *f)
{
    col_distance_output out, cold;
    EXPECT(f, COL_ERR_SAME_BODY, col_body_distance(f->w, f->a, f->a, NULL, &out));
    /* a cache filled for other shapes, and forged ones for these shapes */
    col_distance_cache c[16];
    int n;
    forged_caches(f, c, &n);
    EXPECT(f, COL_OK, col_body_distance(f->w, f->a, f->st, NULL, &cold));
    for (int k = 0; k < n; k++) {
        EXPECT(f, COL_OK, col_body_distance(f->w, f->a, f->st, &c[k], &out));
        assert_int_equal(out.outcome, cold.outcome);
        assert_true(fabs(out.distance - cold.distance) <= 1e-12);
    }
}

static void body_distance_degenerate(fx *f)
{
    EXPECT(f, COL_OK, col_body_set_pose(f->w, f->d, at(0.1, 0, 0))); /* d's box inside a's */
    col_distance_output out;
    EXPECT(f, COL_OK, col_body_distance(f->w, f->a, f->d, NULL, &out));
    assert_int_equal(out.outcome, COL_DISTANCE_PENETRATING);
}

static void contact_margin(fx *f, double margin, col_status want)
{
    col_contact_input in = {f->box, f->blob, at(0, 0, 0), at(3, 0, 0), margin};
    col_contact_output out;
    EXPECT(f, want, col_contact(f->w, &in, NULL, &out));
    EXPECT(f, want, col_body_contact(f->w, f->a, f->b, margin, NULL, &out));
    if (want == COL_OK) assert_true(out.point_count >= 0 && out.point_count <= COL_MAX_CONTACT_POINTS);
}

static void contact_nan(fx *f)
{
    contact_margin(f, NAN, COL_ERR_INVALID_ARGUMENT);
    contact_margin(f, -NAN, COL_ERR_INVALID_ARGUMENT);
    queries_refuse_values(f, NAN, COL_ERR_NOT_FINITE, COL_ERR_NOT_FINITE);
}

static void contact_inf(fx *f)
{
    contact_margin(f, INFINITY, COL_ERR_INVALID_ARGUMENT);
    contact_margin(f, -INFINITY, COL_ERR_INVALID_ARGUMENT);
}

static void contact_huge(fx *f)
{
    contact_margin(f, DBL_MAX, COL_OK);
    contact_margin(f, 1e300, COL_OK);
    queries_huge(f);
}

static void contact_tiny(fx *f)
{
    for (size_t k = 0; k < sizeof tiny_values / sizeof tiny_values[0]; k++)
        contact_margin(f, tiny_values[k], tiny_values[k] < 0 ? COL_ERR_INVALID_ARGUMENT : COL_OK);
}

static void contact_null(fx *f)
{
    col_contact_input in = {f->box, f->blob, at(0, 0, 0), at(3, 0, 0), 0.0};
    col_contact_output out;
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_contact(NULL, &in, NULL, &out));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_contact(f->w, NULL, NULL, &out));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_contact(f->w, &in, NULL, NULL));
}

static void contact_id(fx *f)
{
    col_contact_output out;
    for (int k = 0; k < f->nbad_shape; k++) {
        col_contact_input in = {f->bad_shape[k], f->blob, at(0, 0, 0), at(3, 0, 0), 0.0};
        EXPECT(f, COL_ERR_STALE_ID, col_contact(f->w, &in, NULL, &out));
        in.shape_a = f->box;
        in.shape_b = f->bad_shape[k];
        EXPECT(f, COL_ERR_STALE_ID, col_contact(f->w, &in, NULL, &out));
    }
}

static void contact_other(fx *f)
{
    contact_margin(f, -1.0, COL_ERR_INVALID_ARGUMENT);
    contact_margin(f, -5e-324, COL_ERR_INVALID_ARGUMENT);
    distance_other(f); /* forged caches and bad quaternions, col_contact included */
}

static void contact_degenerate(fx *f) { distance_degenerate(f); }

static void body_contact_null(fx *f)
{
    col_contact_output out;
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_body_contact(NULL, f->a, f->b, 0.0, NULL, &out));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_body_contact(f->w, f->a, f->b, 0.0, NULL, NULL));
}

static void body_contact_id(fx *f)
{
    col_contact_output out;
    for (int k = 0; k < f->nbad_body; k++) {
        EXPECT(f, COL_ERR_STALE_ID, col_body_contact(f->w, f->bad_body[k], f->b, 0.0, NULL, &out));
        EXPECT(f, COL_ERR_STALE_ID, col_body_contact(f->w, f->a, f->bad_body[k], 0.0, NULL, &out));
    }
}

static void body_contact_other(fx *f)
{
    col_contact_output out, cold;
    EXPECT(f, COL_ERR_SAME_BODY, col_body_contact(f->w, f->b, f->b, 0.0, NULL, &out));
    contact_margin(f, -1.0, COL_ERR_INVALID_ARGUMENT);
    col_distance_cache c[16];
    int n;
    forged_caches(f, c, &n);
    EXPECT(f, COL_OK, col_body_contact(f->w, f->a, f->st, 0.5, NULL, &cold));
    for (int k = 0; k < n; k++) {
        EXPECT(f, COL_OK, col_body_contact(f->w, f->a, f->st, 0.5, &c[k], &out));
        assert_int_equal(out.outcome, cold.outcome);
        assert_true(fabs(out.separation - cold.separation) <= 1e-12);
    }
}

static void body_contact_degenerate(fx *f)
{
    EXPECT(f, COL_OK, col_body_set_pose(f->w, f->d, at(0.1, 0, 0)));
    col_contact_output out;
    EXPECT(f, COL_OK, col_body_contact(f->w, f->a, f->d, 0.0, NULL, &out));
    assert_int_equal(out.outcome, COL_DISTANCE_PENETRATING);
}

/* ---- shapes of every kind, in the world and without one (issue 15) ---- */

/* A fresh world of two workers holding bodies of shapes[i] at poses[i] (all moving): two
 * updates must succeed and list exactly the pairs of the reference query, want_pairs of
 * them (when >= 0; chosen far from touching, so the count is the truth). */
static void scene_pairs(col_world *w, const col_shape_id *shapes, const col_transform *poses, int n, int want_pairs)
{
    enum { MAXN = 16 };
    col_body_id ids[MAXN];
    bool is_static[MAXN] = {false};
    assert_true(n <= MAXN);
    for (int i = 0; i < n; i++) ids[i] = add_body(w, shapes[i], poses[i], false);
    for (int frame = 0; frame < 2; frame++) {
        assert_int_equal(col_world_update(w), COL_OK);
        check_pairs_brute(w, ids, shapes, is_static, n);
    }
    if (want_pairs >= 0) assert_int_equal(col_world_get_pair_events(w).pair_count, want_pairs);
}

/* The world's and the world-free builder of a sphere, a capsule or a box must both refuse
 * (or both accept) the same numbers with the same status; *out nulled, a message. kind:
 * 0 sphere (r), 1 capsule (h, r), 2 box (h, r, r as half extents x, y, z). */
static void round_both(fx *f, int kind, double h, double r, col_status want, int line)
{
    col_shape_id s = {7, 7, 7};
    col_geometry *g;
    fx_clear(f);
    col_status got = kind == 0   ? col_shape_create_sphere(f->w, r, &s)
                     : kind == 1 ? col_shape_create_capsule(f->w, h, r, &s)
                                 : col_shape_create_box(f->w, col_vec3_make(h, r, r), &s);
    char call[96];
    snprintf(call, sizeof call, "col_shape_create_%s(%g, %g)", kind == 0 ? "sphere" : kind == 1 ? "capsule" : "box", h, r);
    fx_status(f, want, got, call, line, true);
    if (want != COL_OK) assert_true(col_shape_id_is_null(s));
    g = (col_geometry *)(void *)&f->err;
    f->err.message[0] = '\0';
    got = kind == 0   ? col_geometry_create_sphere(&f->gh, r, &g, &f->err)
          : kind == 1 ? col_geometry_create_capsule(&f->gh, h, r, &g, &f->err)
                      : col_geometry_create_box(&f->gh, col_vec3_make(h, r, r), &g, &f->err);
    snprintf(call, sizeof call, "col_geometry_create_%s(%g, %g)", kind == 0 ? "sphere" : kind == 1 ? "capsule" : "box", h,
             r);
    free_status(f, want, got, f->err.message, call, line);
    if (want != COL_OK && g != NULL) fail_msg("line %d: %s (world-free) left *out set", line, call);
    col_geometry_destroy(want == COL_OK ? g : NULL);
}

/* Every parameter of each builder at v: refused with want (a box's half extents one
 * component at a time). */
static void round_refused_value(fx *f, double v, col_status want)
{
    round_both(f, 0, 0, v, want, __LINE__);
    round_both(f, 1, v, 1.0, want, __LINE__);
    round_both(f, 1, 1.0, v, want, __LINE__);
    round_both(f, 1, v, v, want, __LINE__);
    for (int c = 0; c < 3; c++) {
        col_vec3 h = col_vec3_make(1, 1, 1);
        double *x[3] = {&h.x, &h.y, &h.z};
        *x[c] = v;
        col_shape_id s = {7, 7, 7};
        EXPECT(f, want, col_shape_create_box(f->w, h, &s));
        assert_true(col_shape_id_is_null(s));
        col_geometry *g;
        GEXPECT(f, want, g, col_geometry_create_box(&f->gh, h, &g, &f->err));
    }
}

static void round_create_nan(fx *f)
{
    round_refused_value(f, NAN, COL_ERR_INVALID_ARGUMENT);
    round_refused_value(f, -NAN, COL_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(f->err.message, "half extents"));
}

static void round_create_inf(fx *f)
{
    round_refused_value(f, INFINITY, COL_ERR_INVALID_ARGUMENT);
    round_refused_value(f, -INFINITY, COL_ERR_INVALID_ARGUMENT);
}

/* Beyond COL_MAX_COORD: NOT_FINITE (a capsule counts its half height plus its radius).
 * The edge itself is accepted, and bodies of such shapes at the edge of the coordinate
 * range give a world that updates with the reference query's pairs. */
static void round_create_huge(fx *f)
{
    const double over[] = {nextafter(COL_MAX_COORD, INFINITY), 2e15, 1e300, DBL_MAX};
    for (int k = 0; k < 4; k++) {
        round_both(f, 0, 0, over[k], COL_ERR_NOT_FINITE, __LINE__);
        round_both(f, 1, over[k], 1.0, COL_ERR_NOT_FINITE, __LINE__);
        round_both(f, 1, 1.0, over[k], COL_ERR_NOT_FINITE, __LINE__);
        round_both(f, 2, over[k], 1.0, COL_ERR_NOT_FINITE, __LINE__);
    }
    round_both(f, 1, 5e14, 5e14 + 0.125, COL_ERR_NOT_FINITE, __LINE__); /* the sum 1e15 + 0.125 */
    round_both(f, 0, 0, COL_MAX_COORD, COL_OK, __LINE__);
    round_both(f, 1, 5e14, 5e14, COL_OK, __LINE__);
    round_both(f, 1, COL_MAX_COORD - 1.0, 1.0, COL_OK, __LINE__);
    round_both(f, 2, COL_MAX_COORD, COL_MAX_COORD, COL_OK, __LINE__);
    /* a box 2e15 long and 2 thick is flat to the hull builder, like the slab of shape_create_huge */
    round_both(f, 2, COL_MAX_COORD, 1.0, COL_ERR_DEGENERATE_SHAPE, __LINE__);
    /* spheres and capsules 2e14 across at |x| up to 1e15: two pairs, far from touching */
    col_world *w = two_worker_world();
    col_shape_id ball, pill, big;
    assert_int_equal(col_shape_create_sphere(w, 1e14, &ball), COL_OK);
    assert_int_equal(col_shape_create_capsule(w, 2e14, 1e14, &pill), COL_OK);
    assert_int_equal(col_shape_create_sphere(w, COL_MAX_COORD, &big), COL_OK);
    const col_shape_id shapes[5] = {ball, ball, pill, pill, big};
    col_transform poses[5] = {at(COL_MAX_COORD, 0, 0), at(COL_MAX_COORD - 1.9e14, 0, 0), at(-COL_MAX_COORD, 0, 0),
                              at(-COL_MAX_COORD, 2.2e14, 0), at(0, -COL_MAX_COORD, COL_MAX_COORD)};
    poses[3] = at(-COL_MAX_COORD, 1.9e14, 0);
    poses[3].q = (col_quat){0, 0.6, 0, 0.8}; /* turned about y: still 1.9e14 from the other */
    scene_pairs(w, shapes, poses, 5, 2);
    col_world_destroy(w);
}

/* Tiny sizes: any finite size > 0 is a sphere or a capsule (exact answers at any scale:
 * the kernel scales each pair by a power of two); a box below DBL_MIN in volume is a zero
 * volume; -0.0 and negative subnormals are not > 0. Bodies of spheres 1e-300 wide, and
 * capsules of half height 5e-324, answer as the arithmetic says. */
static void round_create_tiny(fx *f)
{
    const double ok[] = {5e-324, DBL_MIN, 1e-300};
    for (int k = 0; k < 3; k++) {
        round_both(f, 0, 0, ok[k], COL_OK, __LINE__);
        round_both(f, 1, ok[k], 1.0, COL_OK, __LINE__);
        round_both(f, 1, 1.0, ok[k], COL_OK, __LINE__);
        round_both(f, 1, ok[k], ok[k], COL_OK, __LINE__);
        round_both(f, 2, ok[k], ok[k], COL_ERR_DEGENERATE_SHAPE, __LINE__);
    }
    round_refused_value(f, -0.0, COL_ERR_INVALID_ARGUMENT);
    round_refused_value(f, -5e-324, COL_ERR_INVALID_ARGUMENT);
    round_both(f, 2, 1e-100, 1e-100, COL_OK, __LINE__); /* volume 8e-300: a box */
    col_world *w = two_worker_world();
    col_shape_id tiny, flat_pill;
    assert_int_equal(col_shape_create_sphere(w, 1e-300, &tiny), COL_OK);
    assert_int_equal(col_shape_create_capsule(w, 5e-324, 1.0, &flat_pill), COL_OK);
    /* spheres 1.5e-300 apart (overlapping), 3e-300 apart (apart); capsules side by side
     * 1.9 and 2.1 apart, and one 2 - 1e-9 above another (overlapping) */
    const col_shape_id shapes[7] = {tiny, tiny, tiny, flat_pill, flat_pill, flat_pill, flat_pill};
    col_transform poses[7] = {at(0, 0, 0), at(1.5e-300, 0, 0), at(4.5e-300, 0, 0), at(0, 10, 0),
                              at(1.9, 10, 0),  at(4.0, 10, 0),     at(1.9, 10, 2 - 1e-9)};
    scene_pairs(w, shapes, poses, 7, 3);
    col_world_destroy(w);
}

static void round_create_null(fx *f)
{
    col_shape_id s;
    col_geometry *g;
    s = (col_shape_id){7, 7, 7};
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_shape_create_sphere(NULL, 1.0, &s));
    assert_true(col_shape_id_is_null(s));
    s = (col_shape_id){7, 7, 7};
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_shape_create_capsule(NULL, 1.0, 1.0, &s));
    assert_true(col_shape_id_is_null(s));
    s = (col_shape_id){7, 7, 7};
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_shape_create_box(NULL, col_vec3_make(1, 1, 1), &s));
    assert_true(col_shape_id_is_null(s));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_shape_create_sphere(f->w, 1.0, NULL));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_shape_create_capsule(f->w, 1.0, 1.0, NULL));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_shape_create_box(f->w, col_vec3_make(1, 1, 1), NULL));
    QEXPECT_NOMSG(f, COL_ERR_INVALID_ARGUMENT, col_geometry_create_sphere(&f->gh, 1.0, NULL, &f->err));
    QEXPECT_NOMSG(f, COL_ERR_INVALID_ARGUMENT, col_geometry_create_capsule(&f->gh, 1.0, 1.0, NULL, &f->err));
    QEXPECT_NOMSG(f, COL_ERR_INVALID_ARGUMENT, col_geometry_create_box(&f->gh, col_vec3_make(1, 1, 1), NULL, &f->err));
    /* NULL allocator (malloc) and NULL error (no message) are accepted; one hook is not */
    GEXPECT(f, COL_OK, g, col_geometry_create_sphere(NULL, 1.0, &g, NULL));
    GEXPECT(f, COL_OK, g, col_geometry_create_capsule(NULL, 1.0, 1.0, &g, NULL));
    GEXPECT(f, COL_OK, g, col_geometry_create_box(NULL, col_vec3_make(1, 1, 1), &g, NULL));
    QEXPECT_NOMSG(f, COL_ERR_INVALID_ARGUMENT, col_geometry_create_sphere(&f->gh, -1.0, &g, NULL));
    assert_null(g);
    col_allocator half[2] = {{counting_malloc, NULL, &f->gca}, {NULL, counting_free, &f->gca}};
    long calls = f->gca.calls;
    for (int k = 0; k < 2; k++) {
        GEXPECT(f, COL_ERR_INVALID_ARGUMENT, g, col_geometry_create_sphere(&half[k], 1.0, &g, &f->err));
        GEXPECT(f, COL_ERR_INVALID_ARGUMENT, g, col_geometry_create_capsule(&half[k], 1.0, 1.0, &g, &f->err));
        GEXPECT(f, COL_ERR_INVALID_ARGUMENT, g, col_geometry_create_box(&half[k], col_vec3_make(1, 1, 1), &g, &f->err));
    }
    assert_int_equal(f->gca.calls, calls);
}

/* The degenerate sizes: a zero radius (a point, a segment), a zero half height (a sphere:
 * made with the sphere call), a zero or flat box. */
static void round_create_degenerate(fx *f)
{
    round_both(f, 0, 0, 0.0, COL_ERR_INVALID_ARGUMENT, __LINE__);
    round_both(f, 1, 0.0, 1.0, COL_ERR_INVALID_ARGUMENT, __LINE__);
    assert_non_null(strstr(f->err.message, "sphere"));
    round_both(f, 1, 1.0, 0.0, COL_ERR_INVALID_ARGUMENT, __LINE__);
    round_both(f, 1, 0.0, 0.0, COL_ERR_INVALID_ARGUMENT, __LINE__);
    round_both(f, 2, 0.0, 1.0, COL_ERR_INVALID_ARGUMENT, __LINE__);
    round_both(f, 2, 1e-17, 1.0, COL_ERR_DEGENERATE_SHAPE, __LINE__); /* flat to the hull builder */
    /* equal spheres and capsules at one pose, and exactly touching ones: all pairs */
    col_world *w = two_worker_world();
    col_shape_id ball, pill;
    assert_int_equal(col_shape_create_sphere(w, 1.0, &ball), COL_OK);
    assert_int_equal(col_shape_create_capsule(w, 1.0, 0.5, &pill), COL_OK);
    const col_shape_id shapes[6] = {ball, ball, ball, pill, pill, pill};
    const col_transform poses[6] = {at(0, 0, 0), at(0, 0, 0), at(2, 0, 0), at(0, 10, 0), at(0, 10, 0), at(0, 10, 3)};
    scene_pairs(w, shapes, poses, 6, 3 + 3);
    col_world_destroy(w);
}

/* A compound of the fixture's shapes kind[i] (0 the box, 1 the ball, 2 the capsule, 3 the
 * compound of box and ball) at poses[i], made in the world and without one (the world's
 * quaternion tolerance is the default, the world-free calls' 1e-6): both must answer
 * want, with *out nulled and a message on failure. */
static void compound_both(fx *f, const int *kind, const col_transform *poses, int n, col_status want, int line)
{
    enum { MAXC = 8 };
    col_compound_child wk[MAXC];
    col_geometry_child gk[MAXC];
    const col_shape_id ws[4] = {f->box, f->ball, f->pill, f->combo};
    const col_geometry *gs[4] = {f->gbox, f->gball, f->gpill, f->gcombo};
    assert_true(n <= MAXC);
    for (int i = 0; i < n; i++) {
        wk[i] = (col_compound_child){ws[kind[i]], poses[i]};
        gk[i] = (col_geometry_child){gs[kind[i]], poses[i]};
    }
    col_shape_id s = {7, 7, 7};
    fx_clear(f);
    fx_status(f, want, col_shape_create_compound(f->w, wk, n, &s), "col_shape_create_compound", line, true);
    if (want != COL_OK) assert_true(col_shape_id_is_null(s));
    col_geometry *g = (col_geometry *)(void *)&f->err;
    f->err.message[0] = '\0';
    col_status got = col_geometry_create_compound(&f->gh, gk, n, &g, &f->err);
    free_status(f, want, got, f->err.message, "col_geometry_create_compound", line);
    if (got != COL_OK && g != NULL) fail_msg("line %d: col_geometry_create_compound left *out set", line);
    col_geometry_destroy(got == COL_OK ? g : NULL);
}

/* Three children (box, capsule, compound) with child c's pose component k at v. */
static void compound_pose_value(fx *f, double v, col_status want_pos, col_status want_quat)
{
    const int kind[3] = {0, 2, 3};
    for (int c = 0; c < 3; c++)
        for (int k = 0; k < 7; k++) {
            col_transform poses[3] = {at(0, 0, 0), at(3, 0, 0), at(0, 4, 0)};
            poses[c] = pose_with(k, v);
            compound_both(f, kind, poses, 3, k < 3 ? want_pos : want_quat, __LINE__);
        }
}

static void compound_create_nan(fx *f)
{
    compound_pose_value(f, NAN, COL_ERR_NOT_FINITE, COL_ERR_NOT_FINITE);
    compound_pose_value(f, -NAN, COL_ERR_NOT_FINITE, COL_ERR_NOT_FINITE);
    assert_non_null(strstr(col_world_last_error(f->w), "child 2"));
}

static void compound_create_inf(fx *f)
{
    compound_pose_value(f, INFINITY, COL_ERR_NOT_FINITE, COL_ERR_NOT_FINITE);
    compound_pose_value(f, -INFINITY, COL_ERR_NOT_FINITE, COL_ERR_NOT_FINITE);
}

/* Positions beyond COL_MAX_COORD, huge quaternions, and pieces a pose puts beyond
 * COL_MAX_COORD: a hull's points, and a sphere's or capsule's radius too (the rule of a
 * single sphere or capsule: the whole piece within COL_MAX_COORD of the origin). At the
 * edge: accepted, and bodies of them give a world with the reference query's pairs. */
static void compound_create_huge(fx *f)
{
    compound_pose_value(f, 1e300, COL_ERR_NOT_FINITE, COL_ERR_BAD_QUATERNION);
    compound_pose_value(f, -DBL_MAX, COL_ERR_NOT_FINITE, COL_ERR_BAD_QUATERNION);
    compound_pose_value(f, nextafter(COL_MAX_COORD, INFINITY), COL_ERR_NOT_FINITE, COL_ERR_BAD_QUATERNION);
    const double c = COL_MAX_COORD;
    const int one[4] = {0, 1, 2, 3};
    for (int k = 0; k < 4; k++) {
        /* the box (1 wide), ball (0.5), capsule (0.75 long) and compound (2.5 to the left)
         * each just past the edge in x, then just inside it */
        const double reach[4] = {1.0, 0.5, 0.25, 2.5};
        col_transform t = at(c, 0, 0);
        if (k == 2) t = at(0, 0, c - 0.5); /* the capsule along z: its cap reaches c + 0.25 */
        if (k == 3) t = at(-c + 2.0, 0, 0);
        compound_both(f, &one[k], &t, 1, COL_ERR_NOT_FINITE, __LINE__);
        if (k < 2) t.p.x = c - reach[k];
        if (k == 2) t.p.z = c - 0.75;
        if (k == 3) t.p.x = -c + reach[k];
        compound_both(f, &one[k], &t, 1, COL_OK, __LINE__);
    }
    /* a sphere as wide as the range, moved off the origin: beyond it */
    col_geometry *big, *g;
    GMAKE(f, big, col_geometry_create_sphere(&f->gh, c, &big, &f->err));
    col_geometry_child kid = {big, at(1.0, 0, 0)};
    GEXPECT(f, COL_ERR_NOT_FINITE, g, col_geometry_create_compound(&f->gh, &kid, 1, &g, &f->err));
    assert_non_null(strstr(f->err.message, "child 0"));
    kid.pose = at(0, 0, 0);
    GEXPECT(f, COL_OK, g, col_geometry_create_compound(&f->gh, &kid, 1, &g, &f->err));
    col_geometry_destroy(big);
    /* compounds of spheres and capsules 2e14 across, pieces at |x| up to 1e15 - 1e14:
     * bodies near the corners, far from touching */
    col_world *w = two_worker_world();
    col_shape_id ball, pill, both;
    assert_int_equal(col_shape_create_sphere(w, 1e14, &ball), COL_OK);
    assert_int_equal(col_shape_create_capsule(w, 1e14, 1e14, &pill), COL_OK);
    col_compound_child kids[2] = {{ball, at(c - 1e14, 0, 0)}, {pill, at(-c + 2e14, 0, 0)}};
    kids[1].pose.q = (col_quat){0.6, 0, 0, 0.8};
    assert_int_equal(col_shape_create_compound(w, kids, 2, &both), COL_OK);
    const col_shape_id shapes[4] = {both, both, ball, pill};
    const col_transform poses[4] = {at(0, 0, 0), at(1.5e14, 0, 0), at(c - 1e14, 1.5e14, 0), at(-c + 2e14, -5e14, 0)};
    scene_pairs(w, shapes, poses, 4, 2);
    col_world_destroy(w);
}

/* Tiny offsets and subnormal positions are accepted; quaternions of tiny length are not.
 * Children of tiny sizes are accepted, and the compound's facts stay sane: its centroid
 * weighs pieces whose volumes underflow (issue 15). */
static void compound_create_tiny(fx *f)
{
    const int kind[3] = {0, 1, 3};
    for (size_t k = 0; k < sizeof tiny_values / sizeof tiny_values[0]; k++) {
        double v = tiny_values[k];
        col_transform poses[3] = {at(v, -v, v), at(3 + v, v, 0), at(0, 5, v)};
        compound_both(f, kind, poses, 3, COL_OK, __LINE__);
        poses[1].q = (col_quat){v, v, v, v};
        compound_both(f, kind, poses, 3, COL_ERR_BAD_QUATERNION, __LINE__);
    }
    col_geometry *t, *pill, *g;
    GMAKE(f, t, col_geometry_create_sphere(&f->gh, 1e-200, &t, &f->err));
    GMAKE(f, pill, col_geometry_create_capsule(&f->gh, 5e-324, 1e-200, &pill, &f->err));
    col_geometry_child kids[3] = {{t, at(0, 0, 0)}, {t, at(10, 0, 0)}, {pill, at(5, 3e-200, 0)}};
    GMAKE(f, g, col_geometry_create_compound(&f->gh, kids, 3, &g, &f->err));
    col_shape_info info;
    QEXPECT_NOMSG(f, COL_OK, col_geometry_get_info(g, &info));
    assert_true(info.volume == 0.0 && info.child_count == 3);
    if (!(fabs(info.centroid.x - 5.0) < 1e-12 && fabs(info.centroid.y) < 1e-199 && info.centroid.z == 0.0))
        fail_msg("centroid of tiny spheres at 0 and 10 and a capsule at 5: (%g, %g, %g)", info.centroid.x,
                 info.centroid.y, info.centroid.z);
    bool hit;
    QEXPECT(f, COL_OK, col_geometry_overlap(g, at(0, 0, 0), g, at(1.5e-200, 0, 0), COL_BACKEND_DEFAULT, f->scratch, &hit));
    assert_true(hit);
    QEXPECT(f, COL_OK, col_geometry_overlap(g, at(0, 0, 0), t, at(5, 0, 3.5e-200), COL_BACKEND_DEFAULT, f->scratch, &hit));
    assert_false(hit); /* 4.6e-200 from the capsule's core, radii 2e-200 in all */
    col_geometry_destroy(g);
    col_geometry_destroy(t);
    col_geometry_destroy(pill);
}

static void compound_create_count(fx *f)
{
    const int kind[1] = {1};
    const col_transform pose[1] = {at(0, 0, 0)};
    const int bad[] = {0, -1, INT_MIN, COL_MAX_COMPOUND_PIECES + 1, INT_MAX};
    for (int k = 0; k < 5; k++) {
        col_shape_id s = {7, 7, 7};
        EXPECT(f, COL_ERR_INVALID_ARGUMENT,
               col_shape_create_compound(f->w, &(col_compound_child){f->ball, pose[0]}, bad[k], &s));
        assert_true(col_shape_id_is_null(s));
        if (bad[k] <= 0) assert_non_null(strstr(col_world_last_error(f->w), "empty compound"));
        col_geometry *g;
        GEXPECT(f, COL_ERR_INVALID_ARGUMENT, g,
                col_geometry_create_compound(&f->gh, &(col_geometry_child){f->gball, pose[0]}, bad[k], &g, &f->err));
    }
    compound_both(f, kind, pose, 1, COL_OK, __LINE__); /* one child: a compound of one piece */
    /* COL_MAX_COMPOUND_PIECES pieces: accepted; one more, directly or through a nested
     * compound, is too many */
    enum { M = COL_MAX_COMPOUND_PIECES };
    col_compound_child *wk = malloc((M + 1) * sizeof *wk);
    col_geometry_child *gk = malloc((M + 1) * sizeof *gk);
    for (int i = 0; i <= M; i++) {
        wk[i] = (col_compound_child){f->ball, at(1.5 * (i % 64), 1.5 * (i / 64), 0)};
        gk[i] = (col_geometry_child){f->gball, wk[i].pose};
    }
    col_shape_id full, s;
    EXPECT(f, COL_OK, col_shape_create_compound(f->w, wk, M, &full));
    col_geometry *gfull, *g;
    GMAKE(f, gfull, col_geometry_create_compound(&f->gh, gk, M, &gfull, &f->err));
    col_compound_child wnest[2] = {{full, at(0, 0, 0)}, {f->box, at(0, 0, -3)}};
    col_geometry_child gnest[2] = {{gfull, at(0, 0, 0)}, {f->gbox, at(0, 0, -3)}};
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_shape_create_compound(f->w, wnest, 2, &s));
    assert_non_null(strstr(col_world_last_error(f->w), "4097 pieces"));
    GEXPECT(f, COL_ERR_INVALID_ARGUMENT, g, col_geometry_create_compound(&f->gh, gnest, 2, &g, &f->err));
    EXPECT(f, COL_OK, col_shape_create_compound(f->w, wnest, 1, &s)); /* nested, exactly M */
    /* the full compound as a body, against a box lying on its spheres: a world that updates */
    col_body_id b1, b2;
    col_body_def d = col_default_body_def();
    d.shape = full;
    d.pose = at(0, 200, 0);
    EXPECT(f, COL_OK, col_body_create(f->w, &d, &b1));
    d.shape = f->box;
    d.pose = at(20, 220, 1.5);
    EXPECT(f, COL_OK, col_body_create(f->w, &d, &b2));
    EXPECT(f, COL_OK, col_world_update(f->w));
    check_pairs_brute(f->w, (col_body_id[]){b1, b2}, (col_shape_id[]){full, f->box}, (bool[]){false, false}, 2);
    assert_int_equal(col_world_get_pair_events(f->w).pair_count, 1 + 1); /* a-b of the fixture, and this one */
    col_geometry_destroy(gfull);
    free(wk);
    free(gk);
}

static void compound_create_null(fx *f)
{
    col_shape_id s;
    col_compound_child wk[2] = {{f->box, at(0, 0, 0)}, {f->ball, at(2, 0, 0)}};
    s = (col_shape_id){7, 7, 7};
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_shape_create_compound(NULL, wk, 2, &s));
    assert_true(col_shape_id_is_null(s));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_shape_create_compound(f->w, NULL, 2, &s));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_shape_create_compound(f->w, wk, 2, NULL));
    col_geometry *g;
    col_geometry_child gk[3] = {{f->gbox, at(0, 0, 0)}, {f->gball, at(2, 0, 0)}, {f->gpill, at(0, 3, 0)}};
    GEXPECT(f, COL_ERR_INVALID_ARGUMENT, g, col_geometry_create_compound(&f->gh, NULL, 2, &g, &f->err));
    QEXPECT_NOMSG(f, COL_ERR_INVALID_ARGUMENT, col_geometry_create_compound(&f->gh, gk, 3, NULL, &f->err));
    for (int k = 0; k < 3; k++) { /* each child's geometry NULL in turn */
        const col_geometry *keep = gk[k].geometry;
        gk[k].geometry = NULL;
        GEXPECT(f, COL_ERR_INVALID_ARGUMENT, g, col_geometry_create_compound(&f->gh, gk, 3, &g, &f->err));
        char want[16];
        snprintf(want, sizeof want, "child %d", k);
        assert_non_null(strstr(f->err.message, want));
        gk[k].geometry = keep;
    }
    GEXPECT(f, COL_OK, g, col_geometry_create_compound(NULL, gk, 3, &g, NULL));
    col_allocator half[2] = {{counting_malloc, NULL, &f->gca}, {NULL, counting_free, &f->gca}};
    long calls = f->gca.calls;
    for (int k = 0; k < 2; k++) GEXPECT(f, COL_ERR_INVALID_ARGUMENT, g, col_geometry_create_compound(&half[k], gk, 3, &g, &f->err));
    assert_int_equal(f->gca.calls, calls);
}

/* Every bad shape id as the first, the middle or the last child: STALE_ID naming it. */
static void compound_create_id(fx *f)
{
    for (int k = 0; k < f->nbad_shape; k++)
        for (int c = 0; c < 3; c++) {
            col_compound_child wk[3] = {{f->box, at(0, 0, 0)}, {f->pill, at(2, 0, 0)}, {f->combo, at(0, 3, 0)}};
            wk[c].shape = f->bad_shape[k];
            col_shape_id s = {7, 7, 7};
            EXPECT(f, COL_ERR_STALE_ID, col_shape_create_compound(f->w, wk, 3, &s));
            assert_true(col_shape_id_is_null(s));
            char want[16];
            snprintf(want, sizeof want, "child %d", c);
            if (strstr(col_world_last_error(f->w), want) == NULL)
                fail_msg("%s as child %d: \"%s\"", f->bad_shape_name[k], c, col_world_last_error(f->w));
        }
}

/* Children flattened by their poses (a thin box moved where the spacing of doubles
 * exceeds its thickness; a tiny box there collapses to one point); the same child many
 * times at one pose, nested compounds, pieces exactly touching: accepted, and bodies of
 * them give the reference query's pairs. */
static void compound_create_degenerate(fx *f)
{
    col_geometry *slab, *speck, *g;
    col_shape_id wslab, wspeck, s;
    EXPECT(f, COL_OK, col_shape_create_box(f->w, col_vec3_make(1, 1, 0.01), &wslab));
    EXPECT(f, COL_OK, col_shape_create_box(f->w, col_vec3_make(1e-3, 1e-3, 1e-3), &wspeck));
    GMAKE(f, slab, col_geometry_create_box(&f->gh, col_vec3_make(1, 1, 0.01), &slab, &f->err));
    GMAKE(f, speck, col_geometry_create_box(&f->gh, col_vec3_make(1e-3, 1e-3, 1e-3), &speck, &f->err));
    const col_transform far = at(0, 0, COL_MAX_COORD - 2.0); /* doubles 0.125 apart there */
    col_compound_child wk[2] = {{f->ball, at(0, 0, 0)}, {wslab, far}};
    col_geometry_child gk[2] = {{f->gball, at(0, 0, 0)}, {slab, far}};
    EXPECT(f, COL_ERR_DEGENERATE_SHAPE, col_shape_create_compound(f->w, wk, 2, &s));
    assert_non_null(strstr(col_world_last_error(f->w), "child 1"));
    GEXPECT(f, COL_ERR_DEGENERATE_SHAPE, g, col_geometry_create_compound(&f->gh, gk, 2, &g, &f->err));
    wk[1] = (col_compound_child){wspeck, at(COL_MAX_COORD - 2.0, COL_MAX_COORD - 2.0, COL_MAX_COORD - 2.0)};
    gk[1] = (col_geometry_child){speck, wk[1].pose}; /* all eight corners on one point */
    EXPECT(f, COL_ERR_DEGENERATE_SHAPE, col_shape_create_compound(f->w, wk, 2, &s));
    GEXPECT(f, COL_ERR_DEGENERATE_SHAPE, g, col_geometry_create_compound(&f->gh, gk, 2, &g, &f->err));
    col_geometry_destroy(slab);
    col_geometry_destroy(speck);
    /* one child five times at one pose, a compound of compounds */
    const int same[5] = {2, 2, 2, 2, 2};
    const col_transform one[5] = {at(1, 1, 1), at(1, 1, 1), at(1, 1, 1), at(1, 1, 1), at(1, 1, 1)};
    compound_both(f, same, one, 5, COL_OK, __LINE__);
    col_shape_id stack, nest;
    col_compound_child sk[5];
    for (int i = 0; i < 5; i++) sk[i] = (col_compound_child){f->pill, one[i]};
    EXPECT(f, COL_OK, col_shape_create_compound(f->w, sk, 5, &stack));
    col_compound_child nk[2] = {{f->combo, at(0, 0, 0)}, {stack, at(0, 0, 0)}};
    EXPECT(f, COL_OK, col_shape_create_compound(f->w, nk, 2, &nest));
    col_shape_info info;
    EXPECT(f, COL_OK, col_shape_get_info(f->w, nest, &info));
    assert_int_equal(info.child_count, 2 + 5);
    /* bodies far from the fixture's: the nest, the combo overlapping it (box into box),
     * the capsule stack above it, apart */
    col_body_id ids[3];
    col_shape_id shapes[3] = {nest, f->combo, stack};
    col_transform poses[3] = {at(50, 50, 0), at(51, 50, 0), at(50, 50, 3.1)};
    for (int i = 0; i < 3; i++) {
        col_body_def d = col_default_body_def();
        d.shape = shapes[i];
        d.pose = poses[i];
        EXPECT(f, COL_OK, col_body_create(f->w, &d, &ids[i]));
    }
    EXPECT(f, COL_OK, col_world_update(f->w));
    check_pairs_brute(f->w, ids, shapes, (bool[]){false, false, false}, 3);
    assert_int_equal(col_world_get_pair_events(f->w).pair_count, 1 + 1);
}

/* Bad quaternions in the children's poses; within the tolerance they are renormalised. */
static void compound_create_other(fx *f)
{
    const col_quat bad_q[] = {{0, 0, 0, 0}, {0, 0, 0, 1.1}, {1, 1, 0, 0}, {0, 0, 0, -0.9}, {1e-3, 0, 0, 1 + 1e-5}};
    const int kind[2] = {3, 2};
    for (int k = 0; k < 5; k++)
        for (int c = 0; c < 2; c++) {
            col_transform poses[2] = {at(0, 0, 0), at(0, 4, 0)};
            poses[c].q = bad_q[k];
            compound_both(f, kind, poses, 2, COL_ERR_BAD_QUATERNION, __LINE__);
        }
    col_transform poses[2] = {at(0, 0, 0), at(0, 4, 0)};
    poses[1].q.w = -(1.0 + 1e-7);
    compound_both(f, kind, poses, 2, COL_OK, __LINE__);
}

/* ---- col_shape_create (a world shape from a geometry), col_shape_get_geometry ---- */

/* The world shape made from g has g's facts (and no body yet). */
static void same_facts(fx *f, col_shape_id s, const col_geometry *g)
{
    col_shape_info a, b;
    EXPECT(f, COL_OK, col_shape_get_info(f->w, s, &a));
    QEXPECT_NOMSG(f, COL_OK, col_geometry_get_info(g, &b));
    assert_int_equal(a.body_count, 0);
    if (memcmp(&a, &b, sizeof a) != 0) fail_msg("the shape's facts differ from its geometry's");
}

/* Geometries at the edge of the range become world shapes with the same facts, and
 * bodies of them update with the reference query's pairs. */
static void from_geometry_huge(fx *f)
{
    const double c = COL_MAX_COORD;
    col_geometry *g[4];
    GMAKE(f, g[0], col_geometry_create_sphere(&f->gh, c, &g[0], &f->err));
    GMAKE(f, g[1], col_geometry_create_capsule(&f->gh, 4e14, 4e14, &g[1], &f->err));
    GMAKE(f, g[2], col_geometry_create_box(&f->gh, col_vec3_make(c, c, c), &g[2], &f->err));
    col_geometry_child kid = {f->gball, at(c - 0.5, 0, 0)};
    GMAKE(f, g[3], col_geometry_create_compound(&f->gh, &kid, 1, &g[3], &f->err));
    col_shape_id s[4];
    for (int k = 0; k < 4; k++) {
        EXPECT(f, COL_OK, col_shape_create(f->w, g[k], &s[k]));
        same_facts(f, s[k], g[k]);
    }
    /* the range-wide sphere at the origin, a capsule on its pole (its bottom 2e14 above
     * the origin), the compound's ball moved back to x = -0.5: two pairs */
    col_world *w = two_worker_world();
    col_shape_id ws[4];
    for (int k = 0; k < 4; k++) assert_int_equal(col_shape_create(w, g[k], &ws[k]), COL_OK);
    const col_shape_id shapes[4] = {ws[0], ws[1], ws[3], ws[2]};
    const col_transform poses[4] = {at(0, 0, 0), at(0, 0, c), at(-c, 0, 0), at(c, c, -c)};
    scene_pairs(w, shapes, poses, 3, 2);
    col_world_destroy(w);
    for (int k = 0; k < 4; k++) col_geometry_destroy(g[k]);
}

/* Tiny round geometries become world shapes with the same facts, and bodies of them
 * answer as the arithmetic says. */
static void from_geometry_tiny(fx *f)
{
    col_geometry *g[3];
    GMAKE(f, g[0], col_geometry_create_sphere(&f->gh, 1e-300, &g[0], &f->err));
    GMAKE(f, g[1], col_geometry_create_capsule(&f->gh, 5e-324, 5e-324, &g[1], &f->err));
    col_geometry_child kids[2] = {{g[0], at(0, 0, 0)}, {g[1], at(0, 1e-300, 0)}};
    GMAKE(f, g[2], col_geometry_create_compound(&f->gh, kids, 2, &g[2], &f->err));
    col_shape_id s[3];
    for (int k = 0; k < 3; k++) {
        EXPECT(f, COL_OK, col_shape_create(f->w, g[k], &s[k]));
        same_facts(f, s[k], g[k]);
    }
    col_world *w = two_worker_world();
    col_shape_id ws[3];
    for (int k = 0; k < 3; k++) assert_int_equal(col_shape_create(w, g[k], &ws[k]), COL_OK);
    /* spheres 1.5e-300 apart; the compound 3e-300 to the side of the second (apart);
     * the subnormal capsule on its own */
    const col_shape_id shapes[4] = {ws[0], ws[0], ws[2], ws[1]};
    const col_transform poses[4] = {at(0, 0, 0), at(1.5e-300, 0, 0), at(1.5e-300, 0, 4e-300), at(1, 1, 1)};
    scene_pairs(w, shapes, poses, 4, 1);
    col_world_destroy(w);
    for (int k = 0; k < 3; k++) col_geometry_destroy(g[k]);
}

static void from_geometry_null(fx *f)
{
    col_shape_id s = {7, 7, 7};
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_shape_create(NULL, f->gball, &s));
    assert_true(col_shape_id_is_null(s));
    s = (col_shape_id){7, 7, 7};
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_shape_create(f->w, NULL, &s));
    assert_true(col_shape_id_is_null(s));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_shape_create(f->w, f->gball, NULL));
}

/* One geometry made into shapes twice; a geometry borrowed from this world's shape, and
 * from another world's: copies, which outlive their origin. */
static void from_geometry_degenerate(fx *f)
{
    col_shape_id s1, s2, s3, s4;
    EXPECT(f, COL_OK, col_shape_create(f->w, f->gcombo, &s1));
    EXPECT(f, COL_OK, col_shape_create(f->w, f->gcombo, &s2));
    assert_false(col_shape_id_equals(s1, s2));
    same_facts(f, s2, f->gcombo);
    const col_geometry *own, *foreign;
    EXPECT(f, COL_OK, col_shape_get_geometry(f->w, f->combo, &own));
    EXPECT(f, COL_OK, col_shape_create(f->w, own, &s3));
    same_facts(f, s3, own);
    col_shape_id other_box = col_world_shape_id(f->other, 0); /* its unit box, made first */
    assert_int_equal(col_shape_get_geometry(f->other, other_box, &foreign), COL_OK);
    EXPECT(f, COL_OK, col_shape_create(f->w, foreign, &s4));
    same_facts(f, s4, foreign);
    col_shape_info before, after;
    EXPECT(f, COL_OK, col_shape_get_info(f->w, s3, &before));
    EXPECT(f, COL_OK, col_shape_destroy(f->w, f->combo)); /* the copy s3 stays */
    EXPECT(f, COL_OK, col_shape_get_info(f->w, s3, &after));
    assert_memory_equal(&before, &after, sizeof before);
    col_body_def d = col_default_body_def();
    d.shape = s3;
    d.pose = at(0, -40, 0);
    col_body_id b1, b2;
    EXPECT(f, COL_OK, col_body_create(f->w, &d, &b1));
    d.shape = s4;
    d.pose = at(1.2, -40, 0); /* the other world's unit box, against s3's ball at x = 1 */
    EXPECT(f, COL_OK, col_body_create(f->w, &d, &b2));
    EXPECT(f, COL_OK, col_world_update(f->w));
    check_pairs_brute(f->w, (col_body_id[]){b1, b2}, (col_shape_id[]){s3, s4}, (bool[]){false, false}, 2);
    assert_int_equal(col_world_get_pair_events(f->w).pair_count, 1 + 1);
}

static void shape_geometry_null(fx *f)
{
    const col_geometry *g = (const col_geometry *)f;
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_shape_get_geometry(NULL, f->combo, &g));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_shape_get_geometry(f->w, f->combo, NULL));
}

static void shape_geometry_id(fx *f)
{
    for (int k = 0; k < f->nbad_shape; k++) {
        const col_geometry *g = (const col_geometry *)f;
        EXPECT(f, COL_ERR_STALE_ID, col_shape_get_geometry(f->w, f->bad_shape[k], &g));
        if (g != NULL) fail_msg("%s: *out not nulled", f->bad_shape_name[k]);
    }
    const col_geometry *g = NULL;
    EXPECT(f, COL_OK, col_shape_get_geometry(f->w, f->pill, &g));
    same_facts(f, f->pill, g);
}

/* ---- col_query_scratch_create, _destroy, _last_error ---- */

static void scratch_create_null(fx *f)
{
    QEXPECT_NOMSG(f, COL_ERR_INVALID_ARGUMENT, col_query_scratch_create(&f->gh, NULL));
    col_allocator half[2] = {{counting_malloc, NULL, &f->gca}, {NULL, counting_free, &f->gca}};
    long calls = f->gca.calls;
    for (int k = 0; k < 2; k++) {
        col_query_scratch *s = (col_query_scratch *)f;
        QEXPECT_NOMSG(f, COL_ERR_INVALID_ARGUMENT, col_query_scratch_create(&half[k], &s));
        assert_null(s);
    }
    assert_int_equal(f->gca.calls, calls);
    col_query_scratch *s = NULL, *t = NULL;
    QEXPECT_NOMSG(f, COL_OK, col_query_scratch_create(NULL, &s)); /* malloc and free */
    QEXPECT_NOMSG(f, COL_OK, col_query_scratch_create(&(col_allocator){NULL, NULL, f}, &t));
    assert_string_equal(col_query_scratch_last_error(s), "");
    bool hit;
    QEXPECT_NOMSG(f, COL_OK, col_geometry_overlap(f->gpill, at(0, 0, 0), f->gcombo, at(0, 0, 0), COL_BACKEND_DEFAULT, t, &hit));
    col_query_scratch_destroy(s);
    col_query_scratch_destroy(t);
}

static void scratch_destroy_null(fx *f)
{
    col_query_scratch_destroy(NULL);
    HOLDS(f, true);
}

static void scratch_last_error_null(fx *f)
{
    const char *t = col_query_scratch_last_error(NULL);
    HOLDS(f, t != NULL && t[0] == '\0');
    bool hit;
    QEXPECT(f, COL_ERR_INVALID_ARGUMENT, col_geometry_overlap(NULL, at(0, 0, 0), f->gball, at(0, 0, 0), COL_BACKEND_DEFAULT, f->scratch, &hit));
    HOLDS(f, strstr(col_query_scratch_last_error(f->scratch), "col_geometry_overlap") != NULL);
}

/* ---- col_geometry_clone, _destroy, _get_info, _get_piece ---- */

static void clone_null(fx *f)
{
    col_geometry *g;
    GEXPECT(f, COL_ERR_INVALID_ARGUMENT, g, col_geometry_clone(&f->gh, NULL, &g, &f->err));
    QEXPECT_NOMSG(f, COL_ERR_INVALID_ARGUMENT, col_geometry_clone(&f->gh, f->gcombo, NULL, &f->err));
    QEXPECT_NOMSG(f, COL_ERR_INVALID_ARGUMENT, col_geometry_clone(&f->gh, NULL, &g, NULL));
    assert_null(g);
    col_allocator half[2] = {{counting_malloc, NULL, &f->gca}, {NULL, counting_free, &f->gca}};
    long calls = f->gca.calls;
    for (int k = 0; k < 2; k++) GEXPECT(f, COL_ERR_INVALID_ARGUMENT, g, col_geometry_clone(&half[k], f->gcombo, &g, &f->err));
    assert_int_equal(f->gca.calls, calls);
    GEXPECT(f, COL_OK, g, col_geometry_clone(NULL, f->gcombo, &g, NULL));
}

/* A clone of a world's geometry outlives the world; a clone of a clone; every kind. */
static void clone_degenerate(fx *f)
{
    col_world *w = two_worker_world();
    col_shape_id s;
    col_compound_child kid = {{0, 0, 0}, at(0, 0, 1)};
    assert_int_equal(col_shape_create_capsule(w, 1.0, 0.5, &kid.shape), COL_OK);
    assert_int_equal(col_shape_create_compound(w, &kid, 1, &s), COL_OK);
    const col_geometry *in_world;
    assert_int_equal(col_shape_get_geometry(w, s, &in_world), COL_OK);
    col_geometry *c1, *c2;
    GMAKE(f, c1, col_geometry_clone(&f->gh, in_world, &c1, &f->err));
    col_world_destroy(w);
    GMAKE(f, c2, col_geometry_clone(&f->gh, c1, &c2, &f->err));
    col_geometry_destroy(c1);
    bool hit;
    QEXPECT(f, COL_OK, col_geometry_overlap(c2, at(0, 0, 0), f->gball, at(0, 0, 3.0 - 1e-9), COL_BACKEND_DEFAULT, f->scratch, &hit));
    assert_true(hit); /* the capsule's top at z = 2.5, the ball's bottom 1e-9 below it */
    QEXPECT(f, COL_OK, col_geometry_overlap(c2, at(0, 0, 0), f->gball, at(0, 0, 3.0 + 1e-9), COL_BACKEND_DEFAULT, f->scratch, &hit));
    assert_false(hit);
    col_geometry_destroy(c2);
    const col_geometry *kinds[4] = {f->gbox, f->gball, f->gpill, f->gcombo};
    for (int k = 0; k < 4; k++) {
        col_shape_info a, b;
        GMAKE(f, c1, col_geometry_clone(&f->gh, kinds[k], &c1, &f->err));
        QEXPECT_NOMSG(f, COL_OK, col_geometry_get_info(kinds[k], &a));
        QEXPECT_NOMSG(f, COL_OK, col_geometry_get_info(c1, &b));
        assert_memory_equal(&a, &b, sizeof a);
        col_geometry_destroy(c1);
    }
}

static void geometry_destroy_null(fx *f)
{
    col_geometry_destroy(NULL);
    HOLDS(f, true);
}

static void geometry_info_null(fx *f)
{
    col_shape_info info;
    QEXPECT_NOMSG(f, COL_ERR_INVALID_ARGUMENT, col_geometry_get_info(NULL, &info));
    QEXPECT_NOMSG(f, COL_ERR_INVALID_ARGUMENT, col_geometry_get_info(f->gball, NULL));
}

/* The facts of spheres and capsules whose volumes underflow: centred where they are
 * (issue 15: a sphere of radius 1e-300 had its centroid at its box's corner). */
static void geometry_info_tiny(fx *f)
{
    const double r[] = {5e-324, 1e-300, 1e-200};
    for (int k = 0; k < 3; k++) {
        col_geometry *s, *c;
        col_shape_info i;
        GMAKE(f, s, col_geometry_create_sphere(&f->gh, r[k], &s, &f->err));
        QEXPECT_NOMSG(f, COL_OK, col_geometry_get_info(s, &i));
        if (!(i.centroid.x == 0 && i.centroid.y == 0 && i.centroid.z == 0))
            fail_msg("sphere of radius %g: centroid (%g, %g, %g)", r[k], i.centroid.x, i.centroid.y, i.centroid.z);
        assert_true(i.volume >= 0.0 && i.radius >= r[k] && i.aabb_max.x == r[k] && i.aabb_min.z == -r[k]);
        GMAKE(f, c, col_geometry_create_capsule(&f->gh, 3 * r[k], r[k], &c, &f->err));
        QEXPECT_NOMSG(f, COL_OK, col_geometry_get_info(c, &i));
        assert_true(i.centroid.x == 0 && i.centroid.y == 0 && i.centroid.z == 0);
        assert_true(i.half_height == 3 * r[k] && fabs(i.aabb_max.z - 4 * r[k]) <= 4e-15 * r[k]);
        /* the sphere moved off the origin in a compound: its centroid follows */
        col_geometry_child kid = {s, at(0, 7, 0)};
        col_geometry *k1;
        GMAKE(f, k1, col_geometry_create_compound(&f->gh, &kid, 1, &k1, &f->err));
        QEXPECT_NOMSG(f, COL_OK, col_geometry_get_info(k1, &i));
        assert_true(i.centroid.x == 0 && fabs(i.centroid.y - 7) < 1e-14 && i.centroid.z == 0);
        col_geometry_destroy(k1);
        col_geometry_destroy(s);
        col_geometry_destroy(c);
    }
}

static void geometry_piece_count(fx *f)
{
    const int bad[] = {-1, INT_MIN, 1, INT_MAX};
    col_piece_info p;
    memset(&p, 0x5a, sizeof p);
    for (int k = 0; k < 4; k++) QEXPECT_NOMSG(f, COL_ERR_INVALID_ARGUMENT, col_geometry_get_piece(f->gball, bad[k], &p));
    QEXPECT_NOMSG(f, COL_ERR_INVALID_ARGUMENT, col_geometry_get_piece(f->gcombo, 2, &p));
    unsigned char *b = (unsigned char *)&p;
    for (size_t i = 0; i < sizeof p; i++) assert_int_equal(b[i], 0x5a); /* untouched */
    QEXPECT_NOMSG(f, COL_OK, col_geometry_get_piece(f->gcombo, 1, &p));
    assert_true(p.kind == COL_SHAPE_SPHERE && p.core[0].x == 1.0 && p.hull.vertices == NULL);
}

static void geometry_piece_null(fx *f)
{
    col_piece_info p;
    QEXPECT_NOMSG(f, COL_ERR_INVALID_ARGUMENT, col_geometry_get_piece(NULL, 0, &p));
    QEXPECT_NOMSG(f, COL_ERR_INVALID_ARGUMENT, col_geometry_get_piece(f->gbox, 0, NULL));
}

/* ---- meshes: col_shape_create_mesh and col_geometry_create_mesh ---- */

/* A small mesh: a tetrahedron's four faces plus one triangle per extra vertex pair, over
 * nv vertices (the first four a tetrahedron of size 1 at the origin). */
enum { MESH_NV = 8, MESH_NT = 6 };
static void mesh_fill(col_vec3 *v, uint32_t *t)
{
    const col_vec3 base[MESH_NV] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1},
                                    {2, 2, 2}, {2, 3, 2}, {3, 2, 2}, {5, 5, 5}};
    const uint32_t tri[3 * MESH_NT] = {0, 1, 2, 0, 1, 3, 0, 2, 3, 1, 2, 3, 4, 5, 6, 4, 4, 6};
    memcpy(v, base, sizeof base);
    memcpy(t, tri, sizeof tri);
}

/* The world call and the world-free call on the same def must both answer want (the
 * world's hash unchanged and *out cleared on failure, a message naming the function). */
static void mesh_both(fx *f, const col_mesh_def *def, col_status want, const char *needle, int line)
{
    col_shape_id s = {7, 7, 7};
    fx_clear(f);
    fx_status(f, want, col_shape_create_mesh(f->w, def, &s), "col_shape_create_mesh", line, true);
    if (want != COL_OK) assert_true(col_shape_id_is_null(s));
    if (want != COL_OK && needle != NULL && strstr(col_world_last_error(f->w), needle) == NULL)
        fail_msg("line %d: message '%s' does not name '%s'", line, col_world_last_error(f->w), needle);
    col_geometry *g = (col_geometry *)(void *)&f->err;
    f->err.message[0] = '\0';
    col_status got = col_geometry_create_mesh(&f->gh, def, &g, &f->err);
    free_status(f, want, got, f->err.message, "col_geometry_create_mesh", line);
    if (got != COL_OK && g != NULL) fail_msg("line %d: col_geometry_create_mesh left *out set", line);
    col_geometry_destroy(got == COL_OK ? g : NULL);
}

/* Vertex i's coordinate k set to x (i = MESH_NV - 1 is used by no triangle: it still
 * counts). */
static void mesh_coordinate(fx *f, double x, col_status want)
{
    for (int i = 0; i < MESH_NV; i += 3)
        for (int k = 0; k < 3; k++) {
            col_vec3 v[MESH_NV];
            uint32_t t[3 * MESH_NT];
            mesh_fill(v, t);
            double *c[3] = {&v[i].x, &v[i].y, &v[i].z};
            *c[k] = x;
            col_mesh_def def = col_default_mesh_def();
            def.vertices = v;
            def.vertex_count = MESH_NV;
            def.indices = t;
            def.triangle_count = MESH_NT;
            mesh_both(f, &def, want, want == COL_OK ? NULL : "vertex", __LINE__);
        }
}

static void mesh_create_nan(fx *f)
{
    mesh_coordinate(f, NAN, COL_ERR_NOT_FINITE);
    mesh_coordinate(f, -NAN, COL_ERR_NOT_FINITE);
}

static void mesh_create_inf(fx *f)
{
    mesh_coordinate(f, INFINITY, COL_ERR_NOT_FINITE);
    mesh_coordinate(f, -INFINITY, COL_ERR_NOT_FINITE);
}

static void mesh_create_huge(fx *f)
{
    mesh_coordinate(f, nextafter(COL_MAX_COORD, INFINITY), COL_ERR_NOT_FINITE);
    mesh_coordinate(f, -2e15, COL_ERR_NOT_FINITE);
    mesh_coordinate(f, DBL_MAX, COL_ERR_NOT_FINITE);
    mesh_coordinate(f, COL_MAX_COORD, COL_OK);
    mesh_coordinate(f, -COL_MAX_COORD, COL_OK);
    /* a mesh spanning the whole range, in a body beside a box at the corner: updated and
     * the pair decided (the box's corner lies on the mesh's long triangle's edge) */
    col_vec3 v[3] = {{-COL_MAX_COORD, -COL_MAX_COORD, 0}, {COL_MAX_COORD, COL_MAX_COORD, 0}, {0, 0, 1}};
    const uint32_t t[3] = {0, 1, 2};
    col_mesh_def def = col_default_mesh_def();
    def.vertices = v;
    def.vertex_count = 3;
    def.indices = t;
    def.triangle_count = 1;
    col_shape_id s;
    EXPECT(f, COL_OK, col_shape_create_mesh(f->w, &def, &s));
    col_body_def bd = col_default_body_def();
    bd.shape = s;
    col_body_id m, bx;
    EXPECT(f, COL_OK, col_body_create(f->w, &bd, &m));
    bd.shape = f->box;
    bd.pose = at(1e14 + 1, 1e14 + 1, -1); /* the box is 2 x 2 x 2: its top corner (1e14, 1e14, 0) */
    EXPECT(f, COL_OK, col_body_create(f->w, &bd, &bx));
    EXPECT(f, COL_OK, col_world_update(f->w));
    col_pair_events ev = col_world_get_pair_events(f->w);
    bool found = false;
    for (int i = 0; i < ev.pair_count; i++)
        found = found || ((col_body_id_equals(ev.pairs[i].a, m) || col_body_id_equals(ev.pairs[i].b, m)) &&
                          (col_body_id_equals(ev.pairs[i].a, bx) || col_body_id_equals(ev.pairs[i].b, bx)));
    HOLDS(f, found);
}

static void mesh_create_tiny(fx *f)
{
    mesh_coordinate(f, 5e-324, COL_OK);
    mesh_coordinate(f, -5e-324, COL_OK);
    mesh_coordinate(f, DBL_MIN, COL_OK);
    mesh_coordinate(f, -0.0, COL_OK);
    /* a mesh 1e-300 wide touching a sphere of radius 1e-300 exactly at a vertex: they collide */
    col_vec3 v[3] = {{0, 0, 0}, {1e-300, 0, 0}, {0, 1e-300, 0}};
    const uint32_t t[3] = {0, 1, 2};
    col_mesh_def def = col_default_mesh_def();
    def.vertices = v;
    def.vertex_count = 3;
    def.indices = t;
    def.triangle_count = 1;
    col_geometry *g, *ball;
    GMAKE(f, g, col_geometry_create_mesh(&f->gh, &def, &g, &f->err));
    GMAKE(f, ball, col_geometry_create_sphere(&f->gh, 1e-300, &ball, &f->err));
    bool hit = false;
    QEXPECT(f, COL_OK, col_geometry_overlap(g, at(0, 0, 0), ball, at(-1e-300, 0, 0), COL_BACKEND_DEFAULT, f->scratch, &hit));
    HOLDS(f, hit);
    QEXPECT(f, COL_OK, col_geometry_overlap(g, at(0, 0, 0), ball, at(-2e-300, 0, 0), COL_BACKEND_DEFAULT, f->scratch, &hit));
    HOLDS(f, !hit);
    col_geometry_destroy(g);
    col_geometry_destroy(ball);
}

static void mesh_create_count(fx *f)
{
    col_vec3 v[MESH_NV];
    uint32_t t[3 * MESH_NT];
    mesh_fill(v, t);
    const int bad_nv[] = {0, -1, INT_MIN};
    for (int k = 0; k < 3; k++) {
        col_mesh_def def = col_default_mesh_def();
        def.vertices = v;
        def.vertex_count = bad_nv[k];
        def.indices = t;
        def.triangle_count = MESH_NT;
        mesh_both(f, &def, COL_ERR_INVALID_ARGUMENT, NULL, __LINE__);
    }
    const int bad_nt[] = {0, -1, INT_MIN, COL_MAX_MESH_TRIANGLES + 1, INT_MAX};
    for (int k = 0; k < 5; k++) {
        col_mesh_def def = col_default_mesh_def();
        def.vertices = v;
        def.vertex_count = MESH_NV;
        def.indices = t;
        def.triangle_count = bad_nt[k];
        mesh_both(f, &def, COL_ERR_INVALID_ARGUMENT, NULL, __LINE__);
    }
    /* indices at the vertex count, 2^31 and 2^32 - 1, in the first, a middle and the last triangle */
    const uint32_t bad_index[] = {MESH_NV, 1u << 31, UINT32_MAX};
    const int where[] = {0, 7, 3 * MESH_NT - 1};
    for (int k = 0; k < 3; k++)
        for (int w = 0; w < 3; w++) {
            mesh_fill(v, t);
            t[where[w]] = bad_index[k];
            col_mesh_def def = col_default_mesh_def();
            def.vertices = v;
            def.vertex_count = MESH_NV;
            def.indices = t;
            def.triangle_count = MESH_NT;
            mesh_both(f, &def, COL_ERR_INVALID_ARGUMENT, "triangle", __LINE__);
        }
    /* one vertex, one triangle (a point): accepted */
    const uint32_t point[3] = {0, 0, 0};
    col_mesh_def def = col_default_mesh_def();
    def.vertices = v;
    def.vertex_count = 1;
    def.indices = point;
    def.triangle_count = 1;
    mesh_both(f, &def, COL_OK, NULL, __LINE__);
}

static void mesh_create_null(fx *f)
{
    col_vec3 v[MESH_NV];
    uint32_t t[3 * MESH_NT];
    mesh_fill(v, t);
    col_mesh_def def = col_default_mesh_def();
    def.vertices = v;
    def.vertex_count = MESH_NV;
    def.indices = t;
    def.triangle_count = MESH_NT;
    col_shape_id s = {7, 7, 7};
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_shape_create_mesh(NULL, &def, &s));
    assert_true(col_shape_id_is_null(s));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_shape_create_mesh(f->w, NULL, &s));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_shape_create_mesh(f->w, &def, NULL));
    col_geometry *g;
    GEXPECT(f, COL_ERR_INVALID_ARGUMENT, g, col_geometry_create_mesh(&f->gh, NULL, &g, &f->err));
    QEXPECT_NOMSG(f, COL_ERR_INVALID_ARGUMENT, col_geometry_create_mesh(&f->gh, &def, NULL, &f->err));
    GEXPECT(f, COL_OK, g, col_geometry_create_mesh(NULL, &def, &g, NULL));
    col_mesh_def d2 = def;
    d2.vertices = NULL;
    mesh_both(f, &d2, COL_ERR_INVALID_ARGUMENT, NULL, __LINE__);
    d2 = def;
    d2.indices = NULL;
    mesh_both(f, &d2, COL_ERR_INVALID_ARGUMENT, NULL, __LINE__);
    col_allocator half = {counting_malloc, NULL, &f->gca};
    GEXPECT(f, COL_ERR_INVALID_ARGUMENT, g, col_geometry_create_mesh(&half, &def, &g, &f->err));
}

/* Degenerate triangles are the points and segments they span: accepted, and decided. */
static void mesh_create_degenerate(fx *f)
{
    /* every triangle degenerate: a point (i i i), a repeated index (a segment), collinear */
    col_vec3 v[5] = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}, {0, 1, 0}};
    const uint32_t t[9] = {0, 0, 0, 0, 1, 0, 0, 1, 2};
    col_mesh_def def = col_default_mesh_def();
    def.vertices = v;
    def.vertex_count = 5;
    def.indices = t;
    def.triangle_count = 3;
    mesh_both(f, &def, COL_OK, NULL, __LINE__);
    col_geometry *g;
    GMAKE(f, g, col_geometry_create_mesh(&f->gh, &def, &g, &f->err));
    bool hit;
    /* the box [-1, 1]^3 at (3, 0, 1) touches the segment (0,0,0)..(2,0,0) at its end */
    QEXPECT(f, COL_OK, col_geometry_overlap(g, at(0, 0, 0), f->gbox, at(3, 0, 1), COL_BACKEND_DEFAULT, f->scratch, &hit));
    HOLDS(f, hit);
    QEXPECT(f, COL_OK, col_geometry_overlap(g, at(0, 0, 0), f->gbox, at(3.0000001, 0, 1), COL_BACKEND_DEFAULT, f->scratch, &hit));
    HOLDS(f, !hit);
    /* the mesh against itself at one pose, and moved by its length along the segment */
    QEXPECT(f, COL_OK, col_geometry_overlap(g, at(0, 0, 0), g, at(0, 0, 0), COL_BACKEND_DEFAULT, f->scratch, &hit));
    HOLDS(f, hit);
    QEXPECT(f, COL_OK, col_geometry_overlap(g, at(0, 0, 0), g, at(2, 0, 0), COL_BACKEND_DEFAULT, f->scratch, &hit));
    HOLDS(f, hit);
    QEXPECT(f, COL_OK, col_geometry_overlap(g, at(0, 0, 0), g, at(2.5, 0.5, 0), COL_BACKEND_DEFAULT, f->scratch, &hit));
    HOLDS(f, !hit);
    col_shape_info info;
    QEXPECT_NOMSG(f, COL_OK, col_geometry_get_info(g, &info));
    HOLDS(f, info.kind == COL_SHAPE_MESH && info.triangle_count == 3 && info.volume == 0.0);
    col_geometry_destroy(g);
    /* a mesh is not a compound child */
    col_mesh_def d2 = def;
    GMAKE(f, g, col_geometry_create_mesh(&f->gh, &d2, &g, &f->err));
    col_geometry *c;
    GEXPECT(f, COL_ERR_INVALID_ARGUMENT, c,
            col_geometry_create_compound(&f->gh, &(col_geometry_child){g, at(0, 0, 0)}, 1, &c, &f->err));
    col_geometry_destroy(g);
}

static void mesh_create_other(fx *f)
{
    col_vec3 v[MESH_NV];
    uint32_t t[3 * MESH_NT];
    mesh_fill(v, t);
    col_mesh_def def;
    memset(&def, 0, sizeof def);
    def.vertices = v;
    def.vertex_count = MESH_NV;
    def.indices = t;
    def.triangle_count = MESH_NT;
    mesh_both(f, &def, COL_ERR_DEF_UNINITIALIZED, "col_default_mesh_def", __LINE__);
    def = col_default_mesh_def();
    def.internal_cookie ^= 1;
    mesh_both(f, &def, COL_ERR_DEF_UNINITIALIZED, NULL, __LINE__);
}

static void geometry_mesh_null(fx *f)
{
    col_mesh_view m;
    memset(&m, 0x5a, sizeof m);
    QEXPECT_NOMSG(f, COL_ERR_INVALID_ARGUMENT, col_geometry_get_mesh(NULL, &m));
    HOLDS(f, m.vertices == NULL && m.triangle_count == 0);
    QEXPECT_NOMSG(f, COL_ERR_INVALID_ARGUMENT, col_geometry_get_mesh(f->gbox, NULL));
}

static void geometry_mesh_other(fx *f)
{
    col_mesh_view m;
    QEXPECT_NOMSG(f, COL_ERR_INVALID_ARGUMENT, col_geometry_get_mesh(f->gbox, &m)); /* not a mesh */
    QEXPECT_NOMSG(f, COL_ERR_INVALID_ARGUMENT, col_geometry_get_mesh(f->gcombo, &m));
    HOLDS(f, m.vertices == NULL && m.indices == NULL && m.source == NULL);
}

/* ---- col_geometry_overlap, col_geometry_distance, col_geometry_contact ---- */

static bool all_zero(const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != 0) return false;
    return true;
}

/* The three world-free queries refuse pose bad (as a's and as b's) for every pair of
 * kinds, every backend, with a message in the scratch and the outputs zeroed. */
static void geom_queries_refuse_pose(fx *f, col_transform bad, col_status want)
{
    const col_geometry *g[4] = {f->gbox, f->gball, f->gpill, f->gcombo};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            for (int side = 0; side < 2; side++) {
                col_transform pa = side ? at(0, 0, 0) : bad, pb = side ? bad : at(3, 0, 0);
                for (int be = COL_BACKEND_DEFAULT; be < COL_BACKEND_COUNT; be++) {
                    bool hit = true;
                    QEXPECT(f, want, col_geometry_overlap(g[i], pa, g[j], pb, (col_backend)be, f->scratch, &hit));
                }
                col_distance_output d;
                memset(&d, 0x5a, sizeof d);
                QEXPECT(f, want, col_geometry_distance(g[i], pa, g[j], pb, NULL, f->scratch, &d));
                if (!all_zero(&d, sizeof d)) fail_msg("col_geometry_distance failed without zeroing *out");
                col_contact_output c;
                memset(&c, 0x5a, sizeof c);
                QEXPECT(f, want, col_geometry_contact(g[i], pa, g[j], pb, 0.1, NULL, f->scratch, &c));
                if (!all_zero(&c, sizeof c)) fail_msg("col_geometry_contact failed without zeroing *out");
            }
}

static void geom_queries_refuse_values(fx *f, double v, col_status want_pos, col_status want_quat)
{
    for (int k = 0; k < 7; k++) geom_queries_refuse_pose(f, pose_with(k, v), k < 3 ? want_pos : want_quat);
}

/* col_geometry_contact's margin must be finite and >= 0. */
static void geom_margin(fx *f, double margin, col_status want)
{
    col_contact_output c;
    memset(&c, 0x5a, sizeof c);
    QEXPECT(f, want, col_geometry_contact(f->gpill, at(0, 0, 0), f->gcombo, at(3, 0, 0), margin, NULL, f->scratch, &c));
    if (want != COL_OK && !all_zero(&c, sizeof c)) fail_msg("margin %g refused without zeroing *out", margin);
    if (want == COL_OK) assert_true(c.point_count >= 0 && c.point_count <= COL_MAX_CONTACT_POINTS);
}

static void geom_queries_nan(fx *f)
{
    geom_queries_refuse_values(f, NAN, COL_ERR_NOT_FINITE, COL_ERR_NOT_FINITE);
    geom_queries_refuse_values(f, -NAN, COL_ERR_NOT_FINITE, COL_ERR_NOT_FINITE);
    geom_margin(f, NAN, COL_ERR_INVALID_ARGUMENT);
    geom_margin(f, -NAN, COL_ERR_INVALID_ARGUMENT);
}

static void geom_queries_inf(fx *f)
{
    geom_queries_refuse_values(f, INFINITY, COL_ERR_NOT_FINITE, COL_ERR_NOT_FINITE);
    geom_queries_refuse_values(f, -INFINITY, COL_ERR_NOT_FINITE, COL_ERR_NOT_FINITE);
    geom_margin(f, INFINITY, COL_ERR_INVALID_ARGUMENT);
    geom_margin(f, -INFINITY, COL_ERR_INVALID_ARGUMENT);
}

/* Every kind at the corner of the coordinate range, 1e13 in size: overlapping by 5%,
 * apart by 5%, and a range apart; every backend, the distance and the contact. */
static void geom_queries_huge(fx *f)
{
    geom_queries_refuse_values(f, 1e300, COL_ERR_NOT_FINITE, COL_ERR_BAD_QUATERNION);
    geom_queries_refuse_values(f, nextafter(-COL_MAX_COORD, -INFINITY), COL_ERR_NOT_FINITE, COL_ERR_BAD_QUATERNION);
    geom_margin(f, DBL_MAX, COL_OK);
    const double c = COL_MAX_COORD, s = 1e13;
    col_geometry *g[3];
    GMAKE(f, g[0], col_geometry_create_sphere(&f->gh, s, &g[0], &f->err));
    GMAKE(f, g[1], col_geometry_create_box(&f->gh, col_vec3_make(s, s, s), &g[1], &f->err));
    GMAKE(f, g[2], col_geometry_create_capsule(&f->gh, s, s, &g[2], &f->err));
    /* along x a sphere, a box and a capsule (lying across x) all reach s from the centre */
    const double dx[3] = {-1.9 * s, -2.1 * s, -2 * c + 2 * s};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < 3; k++) {
                col_transform xa = at(c - s, -c + 2 * s, c - 2 * s), xb = xa;
                xb.p.x += dx[k];
                bool want = k == 0, hit;
                for (int be = COL_BACKEND_DEFAULT; be < COL_BACKEND_COUNT; be++) {
                    QEXPECT(f, COL_OK, col_geometry_overlap(g[i], xa, g[j], xb, (col_backend)be, f->scratch, &hit));
                    if (hit != want) fail_msg("kinds %d, %d, backend %d at 1e15, dx %g: %d", i, j, be, dx[k], hit);
                }
                col_distance_output d;
                QEXPECT(f, COL_OK, col_geometry_distance(g[i], xa, g[j], xb, NULL, f->scratch, &d));
                assert_int_equal(d.outcome == COL_DISTANCE_SEPARATED, !want);
                if (k == 1 && fabs(d.distance - 0.1 * s) > 1e-9 * s) fail_msg("kinds %d, %d: distance %g", i, j, d.distance);
                col_contact_output ct;
                QEXPECT(f, COL_OK, col_geometry_contact(g[i], xa, g[j], xb, DBL_MAX, NULL, f->scratch, &ct));
                assert_true(ct.point_count >= 1 && ct.point_count <= COL_MAX_CONTACT_POINTS);
            }
    for (int k = 0; k < 3; k++) col_geometry_destroy(g[k]);
}

/* Subnormal offsets; spheres 1e-300 wide; quaternions of tiny length; tiny margins. */
static void geom_queries_tiny(fx *f)
{
    col_geometry *t;
    GMAKE(f, t, col_geometry_create_sphere(&f->gh, 1e-300, &t, &f->err));
    for (size_t k = 0; k < sizeof tiny_values / sizeof tiny_values[0]; k++) {
        double v = tiny_values[k];
        bool hit;
        const double gap[3] = {1.5e-300, 2.5e-300, 4e-300};
        for (int i = 0; i < 3; i++) {
            col_transform xa = at(v, v, v), xb = at(gap[i] + v, v, v);
            for (int be = COL_BACKEND_DEFAULT; be < COL_BACKEND_COUNT; be++) {
                QEXPECT(f, COL_OK, col_geometry_overlap(t, xa, t, xb, (col_backend)be, f->scratch, &hit));
                if (hit != (i == 0)) fail_msg("spheres 1e-300 wide %g apart, offsets %g, backend %d: %d", gap[i], v, be, hit);
            }
            col_distance_output d;
            QEXPECT(f, COL_OK, col_geometry_distance(t, xa, t, xb, NULL, f->scratch, &d));
            assert_int_equal(d.outcome == COL_DISTANCE_SEPARATED, i > 0);
            if (i > 0 && fabs(d.distance - (gap[i] - 2e-300)) > 1e-9 * gap[i]) fail_msg("distance %g", d.distance);
        }
        QEXPECT(f, COL_OK, col_geometry_overlap(f->gcombo, at(v, v, v), f->gpill, at(2.0 + v, 0, v), COL_BACKEND_DEFAULT, f->scratch, &hit));
        col_transform bad = col_transform_identity();
        bad.q = (col_quat){v, 0, 0, v};
        geom_queries_refuse_pose(f, bad, COL_ERR_BAD_QUATERNION);
        geom_margin(f, v, v < 0 ? COL_ERR_INVALID_ARGUMENT : COL_OK); /* -0.0 is >= 0 */
    }
    col_geometry_destroy(t);
}

static void geom_queries_null(fx *f)
{
    bool hit;
    col_distance_output d;
    col_contact_output c;
    const col_geometry *g = f->gball;
    QEXPECT(f, COL_ERR_INVALID_ARGUMENT, col_geometry_overlap(NULL, at(0, 0, 0), g, at(0, 0, 0), COL_BACKEND_DEFAULT, f->scratch, &hit));
    QEXPECT(f, COL_ERR_INVALID_ARGUMENT, col_geometry_overlap(g, at(0, 0, 0), NULL, at(0, 0, 0), COL_BACKEND_DEFAULT, f->scratch, &hit));
    QEXPECT(f, COL_ERR_INVALID_ARGUMENT, col_geometry_overlap(g, at(0, 0, 0), g, at(0, 0, 0), COL_BACKEND_DEFAULT, f->scratch, NULL));
    QEXPECT_NOMSG(f, COL_ERR_INVALID_ARGUMENT, col_geometry_overlap(g, at(0, 0, 0), g, at(0, 0, 0), COL_BACKEND_DEFAULT, NULL, &hit));
    QEXPECT(f, COL_ERR_INVALID_ARGUMENT, col_geometry_distance(NULL, at(0, 0, 0), g, at(0, 0, 0), NULL, f->scratch, &d));
    QEXPECT(f, COL_ERR_INVALID_ARGUMENT, col_geometry_distance(g, at(0, 0, 0), NULL, at(0, 0, 0), NULL, f->scratch, &d));
    QEXPECT(f, COL_ERR_INVALID_ARGUMENT, col_geometry_distance(g, at(0, 0, 0), g, at(0, 0, 0), NULL, f->scratch, NULL));
    memset(&d, 0x5a, sizeof d);
    QEXPECT_NOMSG(f, COL_ERR_INVALID_ARGUMENT, col_geometry_distance(g, at(0, 0, 0), g, at(0, 0, 0), NULL, NULL, &d));
    assert_true(all_zero(&d, sizeof d));
    QEXPECT(f, COL_ERR_INVALID_ARGUMENT, col_geometry_contact(NULL, at(0, 0, 0), g, at(0, 0, 0), 0, NULL, f->scratch, &c));
    QEXPECT(f, COL_ERR_INVALID_ARGUMENT, col_geometry_contact(g, at(0, 0, 0), NULL, at(0, 0, 0), 0, NULL, f->scratch, &c));
    QEXPECT(f, COL_ERR_INVALID_ARGUMENT, col_geometry_contact(g, at(0, 0, 0), g, at(0, 0, 0), 0, NULL, f->scratch, NULL));
    memset(&c, 0x5a, sizeof c);
    QEXPECT_NOMSG(f, COL_ERR_INVALID_ARGUMENT, col_geometry_contact(g, at(0, 0, 0), g, at(0, 0, 0), 0, NULL, NULL, &c));
    assert_true(all_zero(&c, sizeof c));
    /* a NULL cache is allowed */
    QEXPECT(f, COL_OK, col_geometry_distance(g, at(0, 0, 0), f->gcombo, at(3, 0, 0), NULL, f->scratch, &d));
}

/* Every kind against every kind at one pose (penetrating), exactly touching spheres and
 * capsule caps (colliding), and a capsule of half height 5e-324 near touching. */
static void geom_queries_degenerate(fx *f)
{
    const col_geometry *g[4] = {f->gbox, f->gball, f->gpill, f->gcombo};
    col_transform t = at(0.3, -0.7, 2);
    t.q = (col_quat){0.6, 0, 0, 0.8};
    bool hit;
    /* at one pose the compound (a box reaching x = -0.5, a ball from 0.5 to 1.5) touches
     * the ball exactly on both sides and is 0.25 from the capsule; the rest overlap */
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            int with = i == 3 && j != 3 ? j : j == 3 && i != 3 ? i : -1; /* the compound's partner */
            col_distance_outcome want = with == 1 ? COL_DISTANCE_TOUCHING : with == 2 ? COL_DISTANCE_SEPARATED
                                                                                      : COL_DISTANCE_PENETRATING;
            for (int be = COL_BACKEND_DEFAULT; be < COL_BACKEND_COUNT; be++) {
                QEXPECT(f, COL_OK, col_geometry_overlap(g[i], t, g[j], t, (col_backend)be, f->scratch, &hit));
                if (hit != (want != COL_DISTANCE_SEPARATED)) fail_msg("kinds %d, %d at one pose, backend %d: %d", i, j, be, hit);
            }
            col_distance_output d;
            QEXPECT(f, COL_OK, col_geometry_distance(g[i], t, g[j], t, NULL, f->scratch, &d));
            if (d.outcome != want) fail_msg("kinds %d, %d at one pose: outcome %d, want %d", i, j, d.outcome, want);
            if (want == COL_DISTANCE_SEPARATED && fabs(d.distance - 0.25) > 1e-12) fail_msg("distance %g", d.distance);
        }
    /* balls of radius 0.5 one apart; capsules (0.5 + 0.25 from the centre) 1.5 apart on end */
    const col_transform xb[2] = {at(1, 0, 0), at(0, 0, 1.5)};
    for (int k = 0; k < 2; k++) {
        const col_geometry *s = k == 0 ? f->gball : f->gpill;
        for (int be = COL_BACKEND_DEFAULT; be < COL_BACKEND_COUNT; be++) {
            QEXPECT(f, COL_OK, col_geometry_overlap(s, at(0, 0, 0), s, xb[k], (col_backend)be, f->scratch, &hit));
            assert_true(hit);
        }
        col_distance_output d;
        QEXPECT(f, COL_OK, col_geometry_distance(s, at(0, 0, 0), s, xb[k], NULL, f->scratch, &d));
        assert_true(d.outcome != COL_DISTANCE_SEPARATED && d.distance == 0.0);
    }
    /* a capsule of half height 5e-324 and radius 1 against a unit ball: 1e-9 inside and
     * outside contact sideways and on end, and exactly touching on end */
    col_geometry *flat, *unit;
    GMAKE(f, flat, col_geometry_create_capsule(&f->gh, 5e-324, 1.0, &flat, &f->err));
    GMAKE(f, unit, col_geometry_create_sphere(&f->gh, 1.0, &unit, &f->err));
    const col_transform near[5] = {at(2 - 1e-9, 0, 0), at(2 + 1e-9, 0, 0), at(0, 0, 2 - 1e-9), at(0, 0, 2 + 1e-9), at(0, 0, 2)};
    const bool want[5] = {true, false, true, false, true};
    for (int k = 0; k < 5; k++)
        for (int be = COL_BACKEND_DEFAULT; be < COL_BACKEND_COUNT; be++) {
            QEXPECT(f, COL_OK, col_geometry_overlap(flat, at(0, 0, 0), unit, near[k], (col_backend)be, f->scratch, &hit));
            if (hit != want[k]) fail_msg("capsule of half height 5e-324, case %d, backend %d: %d", k, be, hit);
        }
    col_geometry_destroy(flat);
    col_geometry_destroy(unit);
}

/* Unknown backends; bad quaternions; forged warm-start caches naming these geometries
 * (the answer must be the cold one); a cache filled for another pair. */
static void geom_queries_other(fx *f)
{
    bool hit;
    const int bad[] = {-1, COL_BACKEND_COUNT, 99, INT_MAX, INT_MIN};
    for (int k = 0; k < 5; k++)
        QEXPECT(f, COL_ERR_INVALID_ARGUMENT,
                col_geometry_overlap(f->gball, at(0, 0, 0), f->gbox, at(0, 0, 0), (col_backend)bad[k], f->scratch, &hit));
    assert_non_null(strstr(col_query_scratch_last_error(f->scratch), "backend"));
    const col_quat bad_q[] = {{0, 0, 0, 0}, {0, 0, 0, 1.1}, {1, 1, 0, 0}, {1e-3, 0, 0, 1 + 1e-5}};
    for (int k = 0; k < 4; k++) {
        col_transform t = col_transform_identity();
        t.q = bad_q[k];
        geom_queries_refuse_pose(f, t, COL_ERR_BAD_QUATERNION);
    }
    col_distance_cache c[16];
    int n;
    forged_caches(f, c, &n);
    const col_transform xb[3] = {at(3, 0.5, 0), at(1.5, 0.3, 0.2), at(2, 0, 0)};
    for (int p = 0; p < 3; p++) {
        col_distance_output cold, warm;
        col_contact_output ccold, cwarm;
        QEXPECT(f, COL_OK, col_geometry_distance(f->gbox, at(0, 0, 0), f->gbox, xb[p], NULL, f->scratch, &cold));
        QEXPECT(f, COL_OK, col_geometry_contact(f->gbox, at(0, 0, 0), f->gbox, xb[p], 0.1, NULL, f->scratch, &ccold));
        for (int k = 0; k < n; k++) {
            col_distance_cache cc = c[k];
            cc.shape_a = cc.shape_b = (col_shape_id){0, 0, 0};
            cc.geometry_a = cc.geometry_b = f->gbox;
            col_distance_cache cc2 = cc;
            QEXPECT(f, COL_OK, col_geometry_distance(f->gbox, at(0, 0, 0), f->gbox, xb[p], &cc, f->scratch, &warm));
            assert_int_equal(warm.outcome, cold.outcome);
            assert_true(fabs(warm.distance - cold.distance) <= 1e-12);
            QEXPECT(f, COL_OK, col_geometry_contact(f->gbox, at(0, 0, 0), f->gbox, xb[p], 0.1, &cc2, f->scratch, &cwarm));
            assert_int_equal(cwarm.outcome, ccold.outcome);
            assert_true(fabs(cwarm.separation - ccold.separation) <= 1e-12);
        }
        /* a cache filled for the box pair, handed to a pair with a capsule: dropped */
        col_distance_cache filled;
        memset(&filled, 0, sizeof filled);
        QEXPECT(f, COL_OK, col_geometry_distance(f->gbox, at(0, 0, 0), f->gbox, xb[p], &filled, f->scratch, &warm));
        QEXPECT(f, COL_OK, col_geometry_distance(f->gbox, at(0, 0, 0), f->gpill, xb[p], &filled, f->scratch, &warm));
        QEXPECT(f, COL_OK, col_geometry_distance(f->gbox, at(0, 0, 0), f->gpill, xb[p], NULL, f->scratch, &cold));
        assert_int_equal(warm.outcome, cold.outcome);
        assert_true(fabs(warm.distance - cold.distance) <= 1e-12);
    }
    geom_margin(f, -1.0, COL_ERR_INVALID_ARGUMENT);
    geom_margin(f, -5e-324, COL_ERR_INVALID_ARGUMENT);
}

/* ---- the recorder (record.h) ---- */

/* A fresh temporary file name (the file exists, empty); the case removes it. */
static void temp_path(char *buf, size_t n)
{
    snprintf(buf, n, "%s/colibri_bad_input_XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    int fd = mkstemp(buf);
    assert_true(fd >= 0);
    close(fd);
}

/* The lines of a file (at most 64 counted). */
static int file_lines(const char *path)
{
    FILE *fp = fopen(path, "r");
    assert_non_null(fp);
    int n = 0, c;
    while ((c = fgetc(fp)) != EOF) n += c == '\n';
    fclose(fp);
    return n;
}

static void recorder_open_null(fx *f)
{
    char path[256];
    temp_path(path, sizeof path);
    col_recorder *r = (col_recorder *)(void *)f;
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_recorder_open(NULL, path, &r));
    assert_null(r);
    r = (col_recorder *)(void *)f;
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_recorder_open(f->w, NULL, &r));
    assert_null(r);
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_recorder_open(f->w, path, NULL));
    assert_int_equal(file_lines(path), 0); /* nothing written */
    remove(path);
}

/* An empty path (a zero-length name). */
static void recorder_open_count(fx *f)
{
    col_recorder *r = (col_recorder *)(void *)f;
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_recorder_open(f->w, "", &r));
    assert_null(r);
}

/* Files that cannot be made: a directory, a file in a missing directory. IO, with the
 * path in the message; a write that fails (/dev/full, where it exists) is IO at the
 * frame that hits it, and every later call fails too. */
static void recorder_open_other(fx *f)
{
    col_recorder *r = (col_recorder *)(void *)f;
    const char *bad[] = {"/", "/nonexistent-colibri-dir/x/run.colrec"};
    for (int k = 0; k < 2; k++) {
        EXPECT(f, COL_ERR_IO, col_recorder_open(f->w, bad[k], &r));
        assert_null(r);
        assert_non_null(strstr(col_world_last_error(f->w), bad[k]));
        assert_non_null(strstr(col_world_last_error(f->w), "col_recorder_open"));
    }
    /* A full disk at open (/dev/full, where it exists): the header's flush fails. */
    FILE *probe = fopen("/dev/full", "w");
    if (probe != NULL) {
        fclose(probe);
        EXPECT(f, COL_ERR_IO, col_recorder_open(f->w, "/dev/full", &r));
        assert_null(r);
    }
    /* A write that fails later (the file size limit, SIGXFSZ ignored so the write
     * returns EFBIG): IO at the frame that hits it, then at every later call. */
    char path[256];
    temp_path(path, sizeof path);
    EXPECT(f, COL_OK, col_recorder_open(f->w, path, &r));
    struct rlimit old, lim;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    void (*old_handler)(int) = signal(SIGXFSZ, SIG_IGN);
    lim = old;
    lim.rlim_cur = 64; /* the header line is longer than this */
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    EXPECT(f, COL_ERR_IO, col_recorder_frame(r));
    EXPECT(f, COL_ERR_IO, col_recorder_frame(r));
    EXPECT(f, COL_ERR_IO, col_recorder_close(r));
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, old_handler);
    remove(path);
}

static void recorder_frame_null(fx *f)
{
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_recorder_frame(NULL));
}

/* The world changed since its update (a pose set, a body added, a body removed), or a
 * world never updated: refused, nothing written; then an empty world records. */
static void recorder_frame_degenerate(fx *f)
{
    char path[256];
    temp_path(path, sizeof path);
    col_recorder *r;
    EXPECT(f, COL_OK, col_recorder_open(f->w, path, &r));
    EXPECT(f, COL_OK, col_recorder_frame(r));
    assert_int_equal(file_lines(path), 1 + 3 + 1); /* the header, the shapes box, blob and spare, a frame */
    int lines = file_lines(path);
    col_world *w = f->w;
    /* a pose set since the update */
    assert_int_equal(col_body_set_pose(w, f->a, at(0.2, 0, 0)), COL_OK);
    f->hash = col_world_hash(w);
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_recorder_frame(r));
    assert_int_equal(col_world_update(w), COL_OK);
    f->hash = col_world_hash(w);
    EXPECT(f, COL_OK, col_recorder_frame(r));
    assert_int_equal(file_lines(path), ++lines);
    /* a body added, then removed, since the update */
    col_body_id x = add_body(w, f->pill, at(0, 0, 3), false);
    f->hash = col_world_hash(w);
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_recorder_frame(r));
    assert_int_equal(col_world_update(w), COL_OK);
    assert_int_equal(col_body_destroy(w, x), COL_OK);
    f->hash = col_world_hash(w);
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_recorder_frame(r));
    assert_int_equal(file_lines(path), lines);
    assert_int_equal(col_world_update(w), COL_OK);
    f->hash = col_world_hash(w);
    EXPECT(f, COL_OK, col_recorder_close(r));
    remove(path);

    /* a world never updated, then the same world empty */
    col_world_def def = col_default_world_def();
    def.worker_count = 1;
    col_world *e;
    assert_int_equal(col_world_create(&def, &e), COL_OK);
    temp_path(path, sizeof path);
    assert_int_equal(col_recorder_open(e, path, &r), COL_OK);
    uint64_t h = col_world_hash(e);
    assert_int_equal(col_recorder_frame(r), COL_ERR_INVALID_ARGUMENT);
    assert_true(strstr(col_world_last_error(e), "col_recorder_frame") != NULL);
    assert_int_equal(col_world_update(e), COL_OK);
    h = col_world_hash(e);
    assert_int_equal(col_recorder_frame(r), COL_OK);
    assert_true(col_world_hash(e) == h);
    assert_int_equal(col_recorder_close(r), COL_OK);
    assert_int_equal(file_lines(path), 3); /* header, one frame, end */
    col_world_destroy(e);
    remove(path);
}

/* Bodies at the corners of the range (+-COL_MAX_COORD) record as numbers JSON reads. */
static void recorder_frame_huge(fx *f)
{
    char path[256];
    temp_path(path, sizeof path);
    col_world *w = f->w;
    assert_int_equal(col_body_set_pose(w, f->d, at(COL_MAX_COORD, -COL_MAX_COORD, COL_MAX_COORD)), COL_OK);
    assert_int_equal(col_world_update(w), COL_OK);
    f->hash = col_world_hash(w);
    col_recorder *r;
    EXPECT(f, COL_OK, col_recorder_open(w, path, &r));
    EXPECT(f, COL_OK, col_recorder_frame(r));
    EXPECT(f, COL_OK, col_recorder_close(r));
    FILE *fp = fopen(path, "r");
    assert_non_null(fp);
    char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    buf[n] = '\0';
    fclose(fp);
    assert_non_null(strstr(buf, ",1e+15,-1e+15,1e+15,"));
    assert_null(strstr(buf, "nan"));
    assert_null(strstr(buf, "inf"));
    remove(path);
}

static void recorder_close_null(fx *f)
{
    EXPECT_NOWORLD(f, COL_OK, col_recorder_close(NULL));
}

/* ---- the world queries (worldquery.h) ---- */

/* Every world query with the vector argument k (0 origin, 1 translation, 2 box lo, 3 box
 * hi, 4 the shape's pose position) component c set to v must answer want. */
static void wq_refuse_vector(fx *f, double v, col_status want, col_status want_quat)
{
    col_ray_hit hit, hits[4];
    bool found = true;
    int n = 7;
    col_body_id ids[4];
    for (int c = 0; c < 3; c++) {
        col_vec3 bad = col_vec3_make(0, 0, 0), one = col_vec3_make(1, 0, 0);
        double *b = c == 0 ? &bad.x : c == 1 ? &bad.y : &bad.z;
        *b = v;
        EXPECT(f, want, col_world_cast_ray(f->w, bad, one, NULL, &hit, &found));
        HOLDS(f, !found && hit.fraction == 0.0);
        EXPECT(f, want, col_world_cast_ray(f->w, one, bad, NULL, &hit, &found));
        EXPECT(f, want, col_world_cast_ray_any(f->w, bad, one, NULL, &hit, &found));
        EXPECT(f, want, col_world_cast_ray_any(f->w, one, bad, NULL, &hit, &found));
        EXPECT(f, want, col_world_cast_ray_all(f->w, bad, one, NULL, hits, 4, &n));
        HOLDS(f, n == 0);
        EXPECT(f, want, col_world_cast_ray_all(f->w, one, bad, NULL, hits, 4, &n));
        col_vec3 lo = col_vec3_make(-1, -1, -1), hi = col_vec3_make(1, 1, 1);
        double *l = c == 0 ? &lo.x : c == 1 ? &lo.y : &lo.z, *h = c == 0 ? &hi.x : c == 1 ? &hi.y : &hi.z;
        double keep = *l;
        *l = v;
        EXPECT(f, want, col_world_overlap_box(f->w, lo, hi, NULL, ids, 4, &n));
        *l = keep;
        *h = v;
        EXPECT(f, want, col_world_overlap_box(f->w, lo, hi, NULL, ids, 4, &n));
    }
    for (int k = 0; k < 7; k++)
        EXPECT(f, k < 3 ? want : want_quat, col_world_overlap_shape(f->w, f->gball, pose_with(k, v), NULL, ids, 4, &n));
}

static void world_queries_nan(fx *f) { wq_refuse_vector(f, NAN, COL_ERR_NOT_FINITE, COL_ERR_NOT_FINITE); }
static void world_queries_inf(fx *f)
{
    wq_refuse_vector(f, INFINITY, COL_ERR_NOT_FINITE, COL_ERR_NOT_FINITE);
    wq_refuse_vector(f, -INFINITY, COL_ERR_NOT_FINITE, COL_ERR_NOT_FINITE);
}

/* Beyond COL_MAX_COORD refused (also an end point origin + translation beyond it); at it,
 * accepted, and the answers are what the arithmetic says. */
static void world_queries_huge(fx *f)
{
    const double beyond[] = {nextafter(COL_MAX_COORD, INFINITY), 2e15, 1e300, DBL_MAX, -DBL_MAX};
    for (int i = 0; i < 5; i++) wq_refuse_vector(f, beyond[i], COL_ERR_NOT_FINITE, COL_ERR_BAD_QUATERNION);
    col_ray_hit hit;
    bool found;
    EXPECT(f, COL_ERR_NOT_FINITE, col_world_cast_ray(f->w, col_vec3_make(COL_MAX_COORD, 0, 0),
                                                     col_vec3_make(COL_MAX_COORD, 0, 0), NULL, &hit, &found));
    /* from the edge of the range to the origin: meets a's box (x from -0.9) at its face */
    EXPECT(f, COL_OK, col_world_cast_ray(f->w, col_vec3_make(-COL_MAX_COORD, 0, 0), col_vec3_make(COL_MAX_COORD, 0, 0),
                                         NULL, &hit, &found));
    HOLDS(f, found && hit.body.index1 == f->a.index1 && hit.fraction > 0.999999 && hit.fraction < 1.0);
    col_body_id ids[8];
    int n;
    EXPECT(f, COL_OK, col_world_overlap_box(f->w, col_vec3_make(-COL_MAX_COORD, -COL_MAX_COORD, -COL_MAX_COORD),
                                            col_vec3_make(COL_MAX_COORD, COL_MAX_COORD, COL_MAX_COORD), NULL, ids, 8, &n));
    HOLDS(f, n == 4); /* a, b, st, d */
    EXPECT(f, COL_OK, col_world_overlap_shape(f->w, f->gball, at(COL_MAX_COORD, 0, 0), NULL, ids, 8, &n));
    HOLDS(f, n == 0);
}

/* Tiny origins and translations: accepted, answered as the arithmetic says. */
static void world_queries_tiny(fx *f)
{
    col_ray_hit hit;
    bool found;
    col_body_id ids[8];
    int n;
    for (size_t i = 0; i < sizeof tiny_values / sizeof tiny_values[0]; i++) {
        double v = tiny_values[i];
        /* inside a (the origin is inside its box): fraction 0 */
        EXPECT(f, COL_OK, col_world_cast_ray(f->w, col_vec3_make(v, v, v), col_vec3_make(v, 0, 0), NULL, &hit, &found));
        HOLDS(f, found && hit.body.index1 == f->a.index1 && hit.fraction == 0.0);
        EXPECT(f, COL_OK, col_world_cast_ray_any(f->w, col_vec3_make(0, 20, 0), col_vec3_make(v, v, v), NULL, &hit, &found));
        HOLDS(f, !found);
        EXPECT(f, COL_OK, col_world_cast_ray_all(f->w, col_vec3_make(0, 0, 3), col_vec3_make(0, 0, v), NULL, NULL, 0, &n));
        HOLDS(f, n == 0);
        EXPECT(f, COL_OK, col_world_overlap_box(f->w, col_vec3_make(v, v, v), col_vec3_make(fabs(v), fabs(v), fabs(v)),
                                                NULL, ids, 8, &n));
        HOLDS(f, n == 1 && ids[0].index1 == f->a.index1);
    }
}

/* Capacities: negative refused; 0 and too small give the count. */
static void world_queries_count(fx *f)
{
    col_ray_hit hits[2];
    col_body_id ids[2];
    int n = 7;
    const int bad[] = {-1, INT_MIN};
    for (int i = 0; i < 2; i++) {
        EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_world_cast_ray_all(f->w, col_vec3_make(-3, 0.1, 0),
                                                                   col_vec3_make(20, 0, 0), NULL, hits, bad[i], &n));
        HOLDS(f, n == 0);
        EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_world_overlap_box(f->w, col_vec3_make(-20, -20, -20),
                                                                  col_vec3_make(20, 20, 20), NULL, ids, bad[i], &n));
        EXPECT(f, COL_ERR_INVALID_ARGUMENT,
               col_world_overlap_shape(f->w, f->gbox, at(0, 0, 0), NULL, ids, bad[i], &n));
    }
    /* the ray along y = 0.1 through a, b and st: three hits, two slots */
    EXPECT(f, COL_OK, col_world_cast_ray_all(f->w, col_vec3_make(-3, 0.1, 0), col_vec3_make(20, 0, 0), NULL, NULL, 0, &n));
    HOLDS(f, n == 3);
    EXPECT(f, COL_OK, col_world_cast_ray_all(f->w, col_vec3_make(-3, 0.1, 0), col_vec3_make(20, 0, 0), NULL, hits, 2, &n));
    HOLDS(f, n == 3 && hits[0].body.index1 == f->a.index1 && hits[1].body.index1 == f->b.index1);
    EXPECT(f, COL_OK, col_world_overlap_box(f->w, col_vec3_make(-20, -20, -20), col_vec3_make(20, 20, 20), NULL, ids, 2, &n));
    HOLDS(f, n == 4 && ids[0].index1 < ids[1].index1);
    EXPECT(f, COL_OK, col_world_overlap_shape(f->w, f->gbox, at(0.5, 0, 0), NULL, NULL, 0, &n));
    HOLDS(f, n == 2); /* a and b */
}

static void world_queries_null(fx *f)
{
    col_ray_hit hit, hits[2];
    bool found;
    col_body_id ids[2];
    int n;
    col_vec3 o = col_vec3_make(-3, 0, 0), d = col_vec3_make(6, 0, 0);
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_world_cast_ray(NULL, o, d, NULL, &hit, &found));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_world_cast_ray(f->w, o, d, NULL, NULL, &found));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_world_cast_ray(f->w, o, d, NULL, &hit, NULL));
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_world_cast_ray_any(NULL, o, d, NULL, &hit, &found));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_world_cast_ray_any(f->w, o, d, NULL, NULL, &found));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_world_cast_ray_any(f->w, o, d, NULL, &hit, NULL));
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_world_cast_ray_all(NULL, o, d, NULL, hits, 2, &n));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_world_cast_ray_all(f->w, o, d, NULL, NULL, 2, &n));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_world_cast_ray_all(f->w, o, d, NULL, hits, 2, NULL));
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_world_overlap_box(NULL, o, d, NULL, ids, 2, &n));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_world_overlap_box(f->w, o, d, NULL, NULL, 2, &n));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_world_overlap_box(f->w, o, d, NULL, ids, 2, NULL));
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_world_overlap_shape(NULL, f->gbox, at(0, 0, 0), NULL, ids, 2, &n));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_world_overlap_shape(f->w, NULL, at(0, 0, 0), NULL, ids, 2, &n));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_world_overlap_shape(f->w, f->gbox, at(0, 0, 0), NULL, NULL, 2, &n));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_world_overlap_shape(f->w, f->gbox, at(0, 0, 0), NULL, ids, 2, NULL));
    /* a NULL filter is every body; a filter with a NULL callback too */
    col_query_filter every = col_default_query_filter();
    EXPECT(f, COL_OK, col_world_cast_ray(f->w, o, d, &every, &hit, &found));
    HOLDS(f, found && hit.body.index1 == f->a.index1);
}

static void prepare_queries_null(fx *f)
{
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_world_prepare_queries(NULL));
    EXPECT(f, COL_OK, col_world_prepare_queries(f->w));
}

static bool wq_skip_a(col_body_id body, void *user_data, void *ctx)
{
    (void)user_data;
    return body.index1 != ((const col_body_id *)ctx)->index1;
}

/* Zero-length rays, rays along faces, a point box, a world changed since its update,
 * filters that drop everything: accepted and answered as the geometry says. */
static void world_queries_degenerate(fx *f)
{
    col_ray_hit hit;
    bool found;
    col_body_id ids[8];
    int n;
    /* a is the box [-0.9, 1.1] x [-1, 1] x [-1, 1] */
    EXPECT(f, COL_OK, col_world_cast_ray(f->w, col_vec3_make(0, 0, 0), col_vec3_make(0, 0, 0), NULL, &hit, &found));
    HOLDS(f, found && hit.fraction == 0.0 && hit.normal.x == 0.0 && hit.normal.y == 0.0 && hit.normal.z == 0.0);
    EXPECT(f, COL_OK, col_world_cast_ray(f->w, col_vec3_make(-0.9, 1, 1), col_vec3_make(0, 0, 0), NULL, &hit, &found));
    HOLDS(f, found && hit.body.index1 == f->a.index1); /* a corner, touching */
    EXPECT(f, COL_OK, col_world_cast_ray(f->w, col_vec3_make(-0.9, 1, nextafter(1.0, 2.0)), col_vec3_make(0, 0, 0),
                                         NULL, &hit, &found));
    HOLDS(f, !found);
    EXPECT(f, COL_OK, col_world_cast_ray(f->w, col_vec3_make(-3, -1, 1), col_vec3_make(0, 2, 0), NULL, &hit, &found));
    HOLDS(f, !found); /* along x = -3: nothing */
    EXPECT(f, COL_OK, col_world_cast_ray(f->w, col_vec3_make(-0.9, -3, 1), col_vec3_make(0, 6, 0), NULL, &hit, &found));
    HOLDS(f, found && hit.body.index1 == f->a.index1); /* along a's edge */
    EXPECT(f, COL_OK, col_world_overlap_box(f->w, col_vec3_make(-0.9, 1, 1), col_vec3_make(-0.9, 1, 1), NULL, ids, 8, &n));
    HOLDS(f, n == 1 && ids[0].index1 == f->a.index1); /* a point box on a's corner */
    /* a filter that drops every body, and a callback that drops a */
    col_query_filter none = col_default_query_filter();
    none.mask = 0;
    EXPECT(f, COL_OK, col_world_cast_ray(f->w, col_vec3_make(-3, 0, 0), col_vec3_make(6, 0, 0), &none, &hit, &found));
    HOLDS(f, !found);
    col_query_filter no_a = col_default_query_filter();
    no_a.fn = wq_skip_a, no_a.ctx = &f->a;
    EXPECT(f, COL_OK, col_world_cast_ray(f->w, col_vec3_make(-3, 0.1, 0), col_vec3_make(20, 0, 0), &no_a, &hit, &found));
    HOLDS(f, found && hit.body.index1 == f->b.index1);
    /* the shape at a body's own pose, and exactly touching a's face from outside */
    EXPECT(f, COL_OK, col_world_overlap_shape(f->w, f->gbox, at(10, 0, 0), NULL, ids, 8, &n));
    HOLDS(f, n == 1 && ids[0].index1 == f->st.index1);
    EXPECT(f, COL_OK, col_world_overlap_shape(f->w, f->gbox, at(0.1, 0, -2), NULL, ids, 8, &n));
    HOLDS(f, n == 1 && ids[0].index1 == f->a.index1); /* face on face */
    /* a world changed since its update: the set poses count */
    assert_int_equal(col_body_set_pose(f->w, f->a, at(0.1, 0, 50)), COL_OK);
    f->hash = col_world_hash(f->w);
    EXPECT(f, COL_OK, col_world_cast_ray(f->w, col_vec3_make(0, 0, 40), col_vec3_make(0, 0, 20), NULL, &hit, &found));
    HOLDS(f, found && hit.body.index1 == f->a.index1 && hit.fraction == 0.45);
}

/* Bad quaternions in the shape's pose; a box whose lo is above its hi. */
static void world_queries_other(fx *f)
{
    col_body_id ids[4];
    int n;
    col_transform p = at(0, 0, 0);
    const col_quat bad[] = {{0, 0, 0, 0}, {0, 0, 0, 2}, {0.5, 0.5, 0.5, 0.4}};
    for (int i = 0; i < 3; i++) {
        p.q = bad[i];
        EXPECT(f, COL_ERR_BAD_QUATERNION, col_world_overlap_shape(f->w, f->gbox, p, NULL, ids, 4, &n));
    }
    EXPECT(f, COL_ERR_INVALID_ARGUMENT,
           col_world_overlap_box(f->w, col_vec3_make(1, 0, 0), col_vec3_make(0, 1, 1), NULL, ids, 4, &n));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT,
           col_world_overlap_box(f->w, col_vec3_make(0, 0, 1), col_vec3_make(1, 1, nextafter(1.0, 0.0)), NULL, ids, 4, &n));
}

/* ---- col_world_cast_shape ---- */

/* v in each pose component (position: NOT_FINITE; quaternion: want_quat) and in each
 * translation component; refused, *hit zeroed, *found false. */
static void sc_refuse_vector(fx *f, double v, col_status want_quat)
{
    col_shape_hit hit;
    bool found;
    for (int k = 0; k < 7; k++) {
        found = true;
        EXPECT(f, k < 3 ? COL_ERR_NOT_FINITE : want_quat,
               col_world_cast_shape(f->w, f->gball, pose_with(k, v), col_vec3_make(1, 0, 0), NULL, &hit, &found));
        HOLDS(f, !found && hit.fraction == 0.0 && hit.body.index1 == 0);
        found = true;
        EXPECT(f, k < 3 ? COL_ERR_NOT_FINITE : want_quat,
               col_world_cast_shape_any(f->w, f->gball, pose_with(k, v), col_vec3_make(1, 0, 0), NULL, &hit, &found));
        HOLDS(f, !found && hit.fraction == 0.0 && hit.body.index1 == 0);
        int n = -1;
        EXPECT(f, k < 3 ? COL_ERR_NOT_FINITE : want_quat,
               col_world_cast_shape_all(f->w, f->gball, pose_with(k, v), col_vec3_make(1, 0, 0), NULL, &hit, 1, &n));
        HOLDS(f, n == 0);
    }
    for (int c = 0; c < 3; c++) {
        col_vec3 d = col_vec3_make(c == 0 ? v : 0, c == 1 ? v : 0, c == 2 ? v : 0);
        EXPECT(f, COL_ERR_NOT_FINITE, col_world_cast_shape(f->w, f->gball, at(0, 20, 0), d, NULL, &hit, &found));
        HOLDS(f, !found);
        EXPECT(f, COL_ERR_NOT_FINITE, col_world_cast_shape_any(f->w, f->gball, at(0, 20, 0), d, NULL, &hit, &found));
        HOLDS(f, !found);
        int n = -1;
        EXPECT(f, COL_ERR_NOT_FINITE, col_world_cast_shape_all(f->w, f->gball, at(0, 20, 0), d, NULL, &hit, 1, &n));
        HOLDS(f, n == 0);
    }
}

static void shape_cast_nan(fx *f) { sc_refuse_vector(f, NAN, COL_ERR_NOT_FINITE); }
static void shape_cast_inf(fx *f)
{
    sc_refuse_vector(f, INFINITY, COL_ERR_NOT_FINITE);
    sc_refuse_vector(f, -INFINITY, COL_ERR_NOT_FINITE);
}

/* Beyond COL_MAX_COORD refused (also an end pose + translation beyond it); at it,
 * accepted, and the answers are what the geometry says. */
static void shape_cast_huge(fx *f)
{
    const double beyond[] = {nextafter(COL_MAX_COORD, INFINITY), 2e15, 1e300, DBL_MAX, -DBL_MAX};
    for (int i = 0; i < 5; i++) sc_refuse_vector(f, beyond[i], COL_ERR_BAD_QUATERNION);
    col_shape_hit hit;
    bool found;
    EXPECT(f, COL_ERR_NOT_FINITE, col_world_cast_shape(f->w, f->gball, at(COL_MAX_COORD, 0, 0),
                                                       col_vec3_make(COL_MAX_COORD, 0, 0), NULL, &hit, &found));
    /* from the edge of the range toward the origin, at y = 20: nothing */
    EXPECT(f, COL_OK, col_world_cast_shape(f->w, f->gball, at(-COL_MAX_COORD, 20, 0),
                                           col_vec3_make(COL_MAX_COORD, 0, 0), NULL, &hit, &found));
    HOLDS(f, !found);
    /* along y = 0 from far away: a's face x = -0.9 first, touched by the ball's side */
    EXPECT(f, COL_OK, col_world_cast_shape(f->w, f->gball, at(-1e6, 0, 0), col_vec3_make(1e6, 0, 0), NULL, &hit,
                                           &found));
    HOLDS(f, found && hit.body.index1 == f->a.index1 && hit.fraction <= 1.0 - 1.4e-6 && hit.fraction > 0.99999);
    col_shape_hit first = hit, all[4];
    int n;
    EXPECT(f, COL_OK, col_world_cast_shape_all(f->w, f->gball, at(-1e6, 0, 0), col_vec3_make(1e6, 0, 0), NULL, all,
                                               4, &n));
    HOLDS(f, n >= 1 && all[0].body.index1 == f->a.index1 && all[0].fraction == first.fraction);
    EXPECT(f, COL_OK, col_world_cast_shape_any(f->w, f->gball, at(-1e6, 0, 0), col_vec3_make(1e6, 0, 0), NULL, &hit,
                                               &found));
    HOLDS(f, found && hit.fraction > 0.99999);
    EXPECT(f, COL_ERR_NOT_FINITE, col_world_cast_shape_all(f->w, f->gball, at(COL_MAX_COORD, 0, 0),
                                                           col_vec3_make(COL_MAX_COORD, 0, 0), NULL, all, 4, &n));
    EXPECT(f, COL_ERR_NOT_FINITE, col_world_cast_shape_any(f->w, f->gball, at(COL_MAX_COORD, 0, 0),
                                                           col_vec3_make(COL_MAX_COORD, 0, 0), NULL, &hit, &found));
}

/* Tiny translations: accepted; a tiny sweep of a ball just off a's face misses it. */
static void shape_cast_tiny(fx *f)
{
    col_shape_hit hit;
    bool found;
    for (size_t i = 0; i < sizeof tiny_values / sizeof tiny_values[0]; i++) {
        double v = tiny_values[i];
        EXPECT(f, COL_OK, col_world_cast_shape(f->w, f->gball, at(0, 1.75, -3), col_vec3_make(v, v, v), NULL, &hit,
                                               &found));
        HOLDS(f, !found);
        EXPECT(f, COL_OK, col_world_cast_shape(f->w, f->gball, at(0, 0, 0), col_vec3_make(v, 0, v), NULL, &hit,
                                               &found));
        HOLDS(f, found && hit.body.index1 == f->a.index1 && hit.fraction == 0.0);
        EXPECT(f, COL_OK, col_world_cast_shape_any(f->w, f->gball, at(0, 0, 0), col_vec3_make(v, 0, v), NULL, &hit,
                                                   &found));
        HOLDS(f, found && hit.body.index1 == f->a.index1 && hit.fraction == 0.0);
        int n;
        EXPECT(f, COL_OK, col_world_cast_shape_all(f->w, f->gball, at(0, 1.75, -3), col_vec3_make(v, v, v), NULL,
                                                   NULL, 0, &n));
        HOLDS(f, n == 0);
    }
}

static void shape_cast_null(fx *f)
{
    col_shape_hit hit;
    bool found;
    col_vec3 d = col_vec3_make(6, 0, 0);
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_world_cast_shape(NULL, f->gball, at(-3, 0, 0), d, NULL, &hit, &found));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_world_cast_shape(f->w, NULL, at(-3, 0, 0), d, NULL, &hit, &found));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_world_cast_shape(f->w, f->gball, at(-3, 0, 0), d, NULL, NULL, &found));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_world_cast_shape(f->w, f->gball, at(-3, 0, 0), d, NULL, &hit, NULL));
    col_query_filter every = col_default_query_filter();
    EXPECT(f, COL_OK, col_world_cast_shape(f->w, f->gball, at(-3, 0, 0), d, &every, &hit, &found));
    /* the ball's side reaches a's face x = -0.9 when its centre is at -1.4: 1.6 / 6 */
    HOLDS(f, found && hit.body.index1 == f->a.index1 && hit.fraction <= 1.6 / 6 + 1e-15 &&
                 hit.fraction >= 1.6 / 6 - 1e-6);
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT,
                   col_world_cast_shape_any(NULL, f->gball, at(-3, 0, 0), d, NULL, &hit, &found));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_world_cast_shape_any(f->w, NULL, at(-3, 0, 0), d, NULL, &hit, &found));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_world_cast_shape_any(f->w, f->gball, at(-3, 0, 0), d, NULL, NULL, &found));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_world_cast_shape_any(f->w, f->gball, at(-3, 0, 0), d, NULL, &hit, NULL));
    EXPECT(f, COL_OK, col_world_cast_shape_any(f->w, f->gball, at(-3, 0, 0), d, &every, &hit, &found));
    HOLDS(f, found && hit.body.index1 == f->a.index1);
    int n;
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT,
                   col_world_cast_shape_all(NULL, f->gball, at(-3, 0, 0), d, NULL, &hit, 1, &n));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_world_cast_shape_all(f->w, NULL, at(-3, 0, 0), d, NULL, &hit, 1, &n));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_world_cast_shape_all(f->w, f->gball, at(-3, 0, 0), d, NULL, NULL, 1, &n));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_world_cast_shape_all(f->w, f->gball, at(-3, 0, 0), d, NULL, &hit, 1, NULL));
    EXPECT(f, COL_OK, col_world_cast_shape_all(f->w, f->gball, at(-3, 0, 0), d, NULL, NULL, 0, &n));
    HOLDS(f, n >= 1);
}

/* capacity: negative refused; 0 counts only; below the count fills the first ones */
static void shape_cast_count(fx *f)
{
    col_shape_hit hits[4];
    int n = -1, all;
    /* along y = 0.1 from x = -3 by 20: a, then b (docs: the fixture's two boxes) */
    col_vec3 d = col_vec3_make(20, 0, 0);
    const int bad[] = {-1, INT_MIN};
    for (int i = 0; i < 2; i++) {
        EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_world_cast_shape_all(f->w, f->gball, at(-3, 0.1, 0), d, NULL, hits,
                                                                     bad[i], &n));
        HOLDS(f, n == 0);
    }
    EXPECT(f, COL_OK, col_world_cast_shape_all(f->w, f->gball, at(-3, 0.1, 0), d, NULL, NULL, 0, &all));
    HOLDS(f, all >= 2);
    EXPECT(f, COL_OK, col_world_cast_shape_all(f->w, f->gball, at(-3, 0.1, 0), d, NULL, hits, 4, &n));
    HOLDS(f, n == all && hits[0].fraction <= hits[1].fraction && hits[0].body.index1 == f->a.index1);
    col_shape_hit one[1];
    EXPECT(f, COL_OK, col_world_cast_shape_all(f->w, f->gball, at(-3, 0.1, 0), d, NULL, one, 1, &n));
    HOLDS(f, n == all && one[0].body.index1 == hits[0].body.index1 && one[0].fraction == hits[0].fraction);
}

/* Zero-length sweeps, sweeps along faces, filters that drop everything, a world changed
 * since its update: accepted and answered as the geometry says. */
static void shape_cast_degenerate(fx *f)
{
    col_shape_hit hit;
    bool found;
    /* a is the box [-0.9, 1.1] x [-1, 1] x [-1, 1]; the ball has radius 0.5 */
    EXPECT(f, COL_OK, col_world_cast_shape(f->w, f->gball, at(0, 1.5, 0), col_vec3_make(0, 0, 0), NULL, &hit, &found));
    HOLDS(f, found && hit.body.index1 == f->a.index1 && hit.fraction == 0.0); /* touching a's top face */
    EXPECT(f, COL_OK,
           col_world_cast_shape_any(f->w, f->gball, at(0, 1.5, 0), col_vec3_make(0, 0, 0), NULL, &hit, &found));
    HOLDS(f, found && hit.body.index1 == f->a.index1 && hit.fraction == 0.0);
    col_shape_hit hs[4];
    int n;
    EXPECT(f, COL_OK,
           col_world_cast_shape_all(f->w, f->gball, at(0, 1.5, 0), col_vec3_make(0, 0, 0), NULL, hs, 4, &n));
    HOLDS(f, n == 1 && hs[0].body.index1 == f->a.index1 && hs[0].fraction == 0.0);
    EXPECT(f, COL_OK, col_world_cast_shape(f->w, f->gball, at(0, nextafter(1.5, 2.0) + 1e-12, 0),
                                           col_vec3_make(0, 0, 0), NULL, &hit, &found));
    HOLDS(f, !found);
    /* sliding along a's top face plane from the side: contact when the ball is above x = -0.9 */
    EXPECT(f, COL_OK, col_world_cast_shape(f->w, f->gball, at(-3.9, 1.5, 0), col_vec3_make(6, 0, 0), NULL, &hit,
                                           &found));
    HOLDS(f, found && hit.body.index1 == f->a.index1 && hit.fraction <= 0.5 && hit.fraction >= 0.5 - 1e-6);
    col_query_filter none = col_default_query_filter();
    none.mask = 0;
    EXPECT(f, COL_OK, col_world_cast_shape(f->w, f->gball, at(-3, 0, 0), col_vec3_make(6, 0, 0), &none, &hit, &found));
    HOLDS(f, !found);
    EXPECT(f, COL_OK,
           col_world_cast_shape_any(f->w, f->gball, at(-3, 0, 0), col_vec3_make(6, 0, 0), &none, &hit, &found));
    HOLDS(f, !found);
    EXPECT(f, COL_OK, col_world_cast_shape_all(f->w, f->gball, at(-3, 0, 0), col_vec3_make(6, 0, 0), &none, hs, 4, &n));
    HOLDS(f, n == 0);
    col_query_filter no_a = col_default_query_filter();
    no_a.fn = wq_skip_a, no_a.ctx = &f->a;
    EXPECT(f, COL_OK, col_world_cast_shape(f->w, f->gball, at(-3, 0.1, 0), col_vec3_make(20, 0, 0), &no_a, &hit,
                                           &found));
    HOLDS(f, found && hit.body.index1 == f->b.index1);
    assert_int_equal(col_body_set_pose(f->w, f->a, at(0.1, 0, 50)), COL_OK);
    f->hash = col_world_hash(f->w);
    EXPECT(f, COL_OK, col_world_cast_shape(f->w, f->gball, at(0, 0, 40), col_vec3_make(0, 0, 20), NULL, &hit, &found));
    HOLDS(f, found && hit.body.index1 == f->a.index1 && hit.fraction <= 0.425 && hit.fraction >= 0.425 - 1e-6);
}

/* Bad quaternions in the pose (refused). A mesh as the moving geometry and a mesh body in
 * the way are no bad input (C2A decides them): the mesh triangle at y = 20 falls onto the
 * mesh body's copy of it at y = 20 at s = 0 (they start in contact), and the ball of
 * radius 0.5 dropped from y = 25 by 10 meets the body's triangle at s = 0.45. */
static void shape_cast_other(fx *f)
{
    col_shape_hit hit;
    bool found;
    col_transform p = at(0, 0, 0);
    const col_quat bad[] = {{0, 0, 0, 0}, {0, 0, 0, 2}, {0.5, 0.5, 0.5, 0.4}};
    for (int i = 0; i < 3; i++) {
        p.q = bad[i];
        EXPECT(f, COL_ERR_BAD_QUATERNION, col_world_cast_shape(f->w, f->gball, p, col_vec3_make(1, 0, 0), NULL, &hit,
                                                               &found));
        EXPECT(f, COL_ERR_BAD_QUATERNION, col_world_cast_shape_any(f->w, f->gball, p, col_vec3_make(1, 0, 0), NULL,
                                                                   &hit, &found));
        int n;
        EXPECT(f, COL_ERR_BAD_QUATERNION, col_world_cast_shape_all(f->w, f->gball, p, col_vec3_make(1, 0, 0), NULL,
                                                                   &hit, 1, &n));
    }
    col_vec3 v[3] = {{-2, 0, -2}, {2, 0, -2}, {0, 0, 2}};
    uint32_t t[3] = {0, 1, 2};
    col_mesh_def md = col_default_mesh_def();
    md.vertices = v, md.vertex_count = 3, md.indices = t, md.triangle_count = 1;
    col_shape_id ms;
    assert_int_equal(col_shape_create_mesh(f->w, &md, &ms), COL_OK);
    col_body_id mb = add_body(f->w, ms, at(0, 20, 0), true);
    f->hash = col_world_hash(f->w);
    EXPECT(f, COL_OK,
           col_world_cast_shape(f->w, f->gball, at(0, 25, 0), col_vec3_make(0, -10, 0), NULL, &hit, &found));
    HOLDS(f, found && hit.body.index1 == mb.index1 && hit.fraction <= 0.45 && hit.fraction >= 0.45 - 1e-6);
    col_geometry *gm;
    assert_int_equal(col_geometry_create_mesh(NULL, &md, &gm, NULL), COL_OK);
    EXPECT(f, COL_OK, col_world_cast_shape(f->w, gm, at(0, 20, 0), col_vec3_make(1, 0, 0), NULL, &hit, &found));
    HOLDS(f, found && hit.body.index1 == mb.index1 && hit.fraction == 0.0);
    col_geometry_destroy(gm);
}

/* ---- the table: every public function x every class of bad input ---- */

enum { C_NAN, C_INF, C_HUGE, C_TINY, C_COUNT, C_NULL, C_ID, C_DEGEN, C_OTHER, NCOL };
static const char *const col_title[NCOL] = {
    "NaN", "+-Inf", "huge magnitudes", "tiny magnitudes", "zero and negative counts", "NULL pointers",
    "stale, forged and foreign ids", "degenerate geometry", "bad enums, defs and quaternions"};

typedef void case_fn(fx *f);

typedef struct cell {
    const char *entry; /* the public function */
    int col;
    case_fn *fn;       /* its test, or NULL: */
    const char *test;  /* the test's name */
    const char *na;    /* why the class does not apply */
} cell;

/* ---- col_toi and col_geometry_toi (continuous collision) ---- */

/* Both forms refuse pose bad in each of the four poses (a0, a1, b0, b1), for every pair
 * of kinds, with *out zeroed, a message naming the call and the world unchanged. */
static void toi_refuse_pose(fx *f, col_transform bad, col_status want)
{
    const col_geometry *g[4] = {f->gbox, f->gball, f->gpill, f->gcombo};
    const col_shape_id s[4] = {f->box, f->ball, f->pill, f->combo};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            for (int slot = 0; slot < 4; slot++) {
                col_transform x[4] = {at(0, 0, 0), at(1, 0, 0), at(3, 0, 0), at(-2, 0, 0)};
                x[slot] = bad;
                col_toi_output o;
                memset(&o, 0x5a, sizeof o);
                QEXPECT(f, want, col_geometry_toi(g[i], x[0], x[1], g[j], x[2], x[3], f->scratch, &o));
                if (!all_zero(&o, sizeof o)) fail_msg("col_geometry_toi failed without zeroing *out");
                col_toi_input in = {s[i], s[j], x[0], x[1], x[2], x[3]};
                memset(&o, 0x5a, sizeof o);
                EXPECT(f, want, col_toi(f->w, &in, &o));
                if (!all_zero(&o, sizeof o)) fail_msg("col_toi failed without zeroing *out");
            }
}

static void toi_refuse_values(fx *f, double v, col_status want_pos, col_status want_quat)
{
    for (int k = 0; k < 7; k++) toi_refuse_pose(f, pose_with(k, v), k < 3 ? want_pos : want_quat);
}

static void toi_nan(fx *f)
{
    toi_refuse_values(f, NAN, COL_ERR_NOT_FINITE, COL_ERR_NOT_FINITE);
    toi_refuse_values(f, -NAN, COL_ERR_NOT_FINITE, COL_ERR_NOT_FINITE);
}

static void toi_inf(fx *f)
{
    toi_refuse_values(f, INFINITY, COL_ERR_NOT_FINITE, COL_ERR_NOT_FINITE);
    toi_refuse_values(f, -INFINITY, COL_ERR_NOT_FINITE, COL_ERR_NOT_FINITE);
}

/* The both forms' answer on one case (geometries and the world's shapes of the same
 * kinds): hit and s as want says (s_max: the latest s allowed, s_min: the earliest). */
static void toi_both(fx *f, const col_geometry *ga, col_shape_id sa, const col_geometry *gb, col_shape_id sb,
                     const col_transform *x, bool want, double s_min, double s_max)
{
    col_toi_output o, w;
    QEXPECT(f, COL_OK, col_geometry_toi(ga, x[0], x[1], gb, x[2], x[3], f->scratch, &o));
    col_toi_input in = {sa, sb, x[0], x[1], x[2], x[3]};
    EXPECT(f, COL_OK, col_toi(f->w, &in, &w));
    if (o.hit != want || w.hit != want)
        fail_msg("toi: hit %d and %d, want %d (a0 %g, b0 %g)", o.hit, w.hit, want, x[0].p.x, x[2].p.x);
    if (want && (o.s < s_min || o.s > s_max || w.s < s_min || w.s > s_max))
        fail_msg("toi: s %.17g and %.17g, want [%.17g, %.17g]", o.s, w.s, s_min, s_max);
}

/* Huge: refused beyond COL_MAX_COORD; accepted at the corners of the range, with a box
 * 2e13 wide jumping -1e15 to 1e15 through another in one interval (hit near s = 1/2). */
static void toi_huge(fx *f)
{
    toi_refuse_values(f, 1e300, COL_ERR_NOT_FINITE, COL_ERR_BAD_QUATERNION);
    toi_refuse_values(f, nextafter(-COL_MAX_COORD, -INFINITY), COL_ERR_NOT_FINITE, COL_ERR_BAD_QUATERNION);
    const double c = COL_MAX_COORD, h = 1e13;
    col_shape_id big = make_box(f->w, h, h, h);
    f->hash = col_world_hash(f->w);
    col_geometry *g = NULL;
    GMAKE(f, g, col_geometry_create_box(&f->gh, col_vec3_make(h, h, h), &g, &f->err));
    /* b still at 0, a from -c + h to c - h: contact when a's centre reaches -2h */
    col_transform x[4] = {at(-c + h, 0, 0), at(c - h, 0, 0), at(0, 0, 0), at(0, 0, 0)};
    double s_true = (c - h - 2 * h) / (2 * c - 2 * h);
    toi_both(f, g, big, g, big, x, true, s_true - 1e-6, s_true + 1e-12);
    /* the same path 3h to the side: a miss */
    x[2] = x[3] = at(0, 3 * h, 0);
    toi_both(f, g, big, g, big, x, false, 0, 1);
    col_geometry_destroy(g);
}

/* Tiny: subnormal and -0.0 coordinates accepted; a box of half extent 1 moving by 4
 * toward another hits at s = 1/4 (its centre at -2) whatever v adds. */
static void toi_tiny(fx *f)
{
    for (size_t k = 0; k < sizeof tiny_values / sizeof tiny_values[0]; k++) {
        double v = tiny_values[k];
        col_transform x[4] = {at(v, v, -v), at(v, v, v), at(-3.0 + v, 0, 0), at(1.0, v, 0)};
        toi_both(f, f->gbox, f->box, f->gbox, f->box, x, true, 0.25 - 1e-6, 0.25 + 1e-12);
    }
}

static void toi_null(fx *f)
{
    col_transform x = at(0, 0, 0), y = at(3, 0, 0);
    col_toi_output o;
    QEXPECT(f, COL_ERR_INVALID_ARGUMENT, col_geometry_toi(NULL, x, x, f->gbox, y, y, f->scratch, &o));
    QEXPECT(f, COL_ERR_INVALID_ARGUMENT, col_geometry_toi(f->gbox, x, x, NULL, y, y, f->scratch, &o));
    QEXPECT(f, COL_ERR_INVALID_ARGUMENT, col_geometry_toi(f->gbox, x, x, f->gbox, y, y, f->scratch, NULL));
    QEXPECT_NOMSG(f, COL_ERR_INVALID_ARGUMENT, col_geometry_toi(f->gbox, x, x, f->gbox, y, y, NULL, &o));
    col_toi_input in = {f->box, f->blob, x, x, y, y};
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_toi(NULL, &in, &o));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_toi(f->w, NULL, &o));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_toi(f->w, &in, NULL));
}

static void toi_id(fx *f)
{
    col_transform x = at(0, 0, 0), y = at(3, 0, 0);
    col_toi_output o;
    for (int k = 0; k < f->nbad_shape; k++) {
        col_toi_input in = {f->bad_shape[k], f->blob, x, x, y, y};
        EXPECT(f, COL_ERR_STALE_ID, col_toi(f->w, &in, &o));
        in.shape_a = f->box;
        in.shape_b = f->bad_shape[k];
        EXPECT(f, COL_ERR_STALE_ID, col_toi(f->w, &in, &o));
    }
}

/* Degenerate: every kind against every kind at one pose, not moving (s = 0 where they
 * meet there, else a proven miss); faces
 * exactly touching and parting (s = 0); no motion and apart (a proven miss); a mesh on
 * either side (refused: meshes wait for C2A, docs/ccd.md). */
static void toi_degenerate(fx *f)
{
    const col_geometry *g[4] = {f->gbox, f->gball, f->gpill, f->gcombo};
    const col_shape_id s[4] = {f->box, f->ball, f->pill, f->combo};
    col_transform same[4] = {at(1, 2, 3), at(1, 2, 3), at(1, 2, 3), at(1, 2, 3)};
    col_transform apart[4] = {at(0, 0, 0), at(0, 0, 0), at(9, 0, 0), at(9, 0, 0)};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++) {
            bool meet = false; /* the compound's pieces leave a gap about its origin */
            QEXPECT(f, COL_OK, col_geometry_overlap(g[i], same[0], g[j], same[0], COL_BACKEND_REFERENCE, f->scratch, &meet));
            toi_both(f, g[i], s[i], g[j], s[j], same, meet, 0.0, 0.0);
            toi_both(f, g[i], s[i], g[j], s[j], apart, false, 0, 1);
        }
    col_transform touch[4] = {at(0, 0, 0), at(-5, 0, 0), at(1, 0, 0), at(6, 0, 0)};
    toi_both(f, f->gbox, f->box, f->gbox, f->box, touch, true, 0.0, 0.0);
    col_vec3 v[MESH_NV];
    uint32_t t[3 * MESH_NT];
    mesh_fill(v, t);
    col_mesh_def def = col_default_mesh_def();
    def.vertices = v;
    def.vertex_count = MESH_NV;
    def.indices = t;
    def.triangle_count = MESH_NT;
    col_geometry *m = NULL;
    GMAKE(f, m, col_geometry_create_mesh(&f->gh, &def, &m, &f->err));
    col_shape_id ms;
    EXPECT(f, COL_OK, col_shape_create_mesh(f->w, &def, &ms));
    f->hash = col_world_hash(f->w);
    /* meshes (C2A, docs/ccd.md): apart and staying apart, and a box sweeping through the
     * mesh's tetrahedron from x = 9 to x = -9: first contact when its face x = c - 1
     * reaches the vertex (1, 0, 0), at c = 2, s = 7/18 */
    toi_both(f, m, ms, f->gbox, f->box, apart, false, 0, 1);
    toi_both(f, f->gball, f->ball, m, ms, apart, false, 0, 1);
    col_transform through[4] = {at(0, 0, 0), at(0, 0, 0), at(9, 0, 0), at(-9, 0, 0)};
    toi_both(f, m, ms, f->gbox, f->box, through, true, 7.0 / 18 - 1e-6, 7.0 / 18 + 1e-12);
    col_geometry_destroy(m);
}

/* Quaternions: zero, non-unit and far off refused in each pose; q1 = -q0 (the same
 * orientation) is no rotation at all: the answer equals that of q1 = q0. */
static void toi_other(fx *f)
{
    toi_refuse_pose(f, pose_with(6, 0.0), COL_ERR_BAD_QUATERNION);
    toi_refuse_pose(f, pose_with(6, 1.5), COL_ERR_BAD_QUATERNION);
    col_transform far = at(0, 0, 0);
    far.q = (col_quat){0.6, 0.6, 0.6, 0.6};
    toi_refuse_pose(f, far, COL_ERR_BAD_QUATERNION);
    col_transform x[4] = {at(0, 0, 0), at(0, 0, 0), at(-4, 0.3, 0), at(4, 0.3, 0)};
    x[1].q = (col_quat){0, 0, 0, -1};
    col_toi_output o, p;
    QEXPECT(f, COL_OK, col_geometry_toi(f->gpill, x[0], x[1], f->gbox, x[2], x[3], f->scratch, &o));
    x[1].q = (col_quat){0, 0, 0, 1};
    QEXPECT(f, COL_OK, col_geometry_toi(f->gpill, x[0], x[1], f->gbox, x[2], x[3], f->scratch, &p));
    HOLDS(f, o.hit && p.hit && o.s == p.s);
}

#define T(entry, col, fn) {#entry, (col), (fn), #fn, NULL}
#define NA(entry, col, why) {#entry, (col), NULL, NULL, (why)}
/* The same reason for every class but those a row lists with T. */
#define NA_ALL_BUT(entry, why)                                                                                          \
    NA(entry, -1, why)

static const char NA_ENUM[] = "takes an enum only";
static const char NA_NOARG[] = "no arguments";
static const char NA_WORLD[] = "takes the world only";
static const char NA_NONUM[] = "no number";
static const char NA_NOCOUNT[] = "no count";
static const char NA_NOID[] = "no id";
static const char NA_MAKESID[] = "makes an id, takes none";
static const char NA_NOGEOM[] = "no geometry";
static const char NA_NOENUM[] = "no enum, def or quaternion";
static const char NA_VALUE[] = "a value: checked where it enters a world";
static const char NA_FROMWORLD[] = "poses come from the world, which refuses these where they enter";
static const char NA_GEOMNUM[] = "a geometry: its numbers were checked when it was made";
static const char NA_GEOMIDS[] = "takes geometries, not ids";
static const char NA_NOID_FREE[] = "no id";
static const char NA_QUERYIDS[] = "takes no id (reports live bodies' ids)";

static const cell cells[] = {
    T(col_status_string, C_OTHER, status_string_other),
    NA_ALL_BUT(col_status_string, NA_ENUM),
    T(col_backend_name, C_OTHER, backend_name_other),
    NA_ALL_BUT(col_backend_name, NA_ENUM),
    NA_ALL_BUT(col_default_world_def, NA_NOARG),
    T(col_world_create, C_NAN, world_create_nan),
    T(col_world_create, C_INF, world_create_inf),
    T(col_world_create, C_HUGE, world_create_huge),
    T(col_world_create, C_TINY, world_create_tiny),
    T(col_world_create, C_COUNT, world_create_count),
    T(col_world_create, C_NULL, world_create_null),
    NA(col_world_create, C_ID, NA_NOID),
    NA(col_world_create, C_DEGEN, NA_NOGEOM),
    T(col_world_create, C_OTHER, world_create_other),
    T(col_world_destroy, C_NULL, world_destroy_null),
    NA_ALL_BUT(col_world_destroy, NA_WORLD),
    NA(col_world_update, C_NAN, NA_FROMWORLD),
    NA(col_world_update, C_INF, NA_FROMWORLD),
    T(col_world_update, C_HUGE, world_update_huge),
    T(col_world_update, C_TINY, world_update_tiny),
    T(col_world_update, C_NULL, world_update_null),
    T(col_world_update, C_DEGEN, world_update_degenerate),
    NA_ALL_BUT(col_world_update, NA_WORLD),
    T(col_world_get_pair_events, C_NULL, pair_events_null),
    NA_ALL_BUT(col_world_get_pair_events, NA_WORLD),
    T(col_world_get_counters, C_NULL, counters_null),
    NA_ALL_BUT(col_world_get_counters, "takes the world and an output"),
    T(col_world_last_error, C_NULL, last_error_null),
    NA_ALL_BUT(col_world_last_error, NA_WORLD),
    T(col_world_hash, C_NULL, world_hash_null),
    NA_ALL_BUT(col_world_hash, NA_WORLD),
    T(col_shape_create_convex, C_NAN, shape_create_nan),
    T(col_shape_create_convex, C_INF, shape_create_inf),
    T(col_shape_create_convex, C_HUGE, shape_create_huge),
    T(col_shape_create_convex, C_TINY, shape_create_tiny),
    T(col_shape_create_convex, C_COUNT, shape_create_count),
    T(col_shape_create_convex, C_NULL, shape_create_null),
    NA(col_shape_create_convex, C_ID, NA_MAKESID),
    T(col_shape_create_convex, C_DEGEN, shape_create_degenerate),
    NA(col_shape_create_convex, C_OTHER, NA_NOENUM),
    T(col_shape_create, C_HUGE, from_geometry_huge),
    T(col_shape_create, C_TINY, from_geometry_tiny),
    NA(col_shape_create, C_COUNT, NA_NOCOUNT),
    T(col_shape_create, C_NULL, from_geometry_null),
    NA(col_shape_create, C_ID, NA_MAKESID),
    T(col_shape_create, C_DEGEN, from_geometry_degenerate),
    NA(col_shape_create, C_OTHER, NA_NOENUM),
    NA_ALL_BUT(col_shape_create, NA_GEOMNUM),
    T(col_shape_create_box, C_NAN, round_create_nan),
    T(col_shape_create_box, C_INF, round_create_inf),
    T(col_shape_create_box, C_HUGE, round_create_huge),
    T(col_shape_create_box, C_TINY, round_create_tiny),
    NA(col_shape_create_box, C_COUNT, NA_NOCOUNT),
    T(col_shape_create_box, C_NULL, round_create_null),
    NA(col_shape_create_box, C_ID, NA_MAKESID),
    T(col_shape_create_box, C_DEGEN, round_create_degenerate),
    NA(col_shape_create_box, C_OTHER, NA_NOENUM),
    T(col_shape_create_sphere, C_NAN, round_create_nan),
    T(col_shape_create_sphere, C_INF, round_create_inf),
    T(col_shape_create_sphere, C_HUGE, round_create_huge),
    T(col_shape_create_sphere, C_TINY, round_create_tiny),
    NA(col_shape_create_sphere, C_COUNT, NA_NOCOUNT),
    T(col_shape_create_sphere, C_NULL, round_create_null),
    NA(col_shape_create_sphere, C_ID, NA_MAKESID),
    T(col_shape_create_sphere, C_DEGEN, round_create_degenerate),
    NA(col_shape_create_sphere, C_OTHER, NA_NOENUM),
    T(col_shape_create_capsule, C_NAN, round_create_nan),
    T(col_shape_create_capsule, C_INF, round_create_inf),
    T(col_shape_create_capsule, C_HUGE, round_create_huge),
    T(col_shape_create_capsule, C_TINY, round_create_tiny),
    NA(col_shape_create_capsule, C_COUNT, NA_NOCOUNT),
    T(col_shape_create_capsule, C_NULL, round_create_null),
    NA(col_shape_create_capsule, C_ID, NA_MAKESID),
    T(col_shape_create_capsule, C_DEGEN, round_create_degenerate),
    NA(col_shape_create_capsule, C_OTHER, NA_NOENUM),
    T(col_shape_create_compound, C_NAN, compound_create_nan),
    T(col_shape_create_compound, C_INF, compound_create_inf),
    T(col_shape_create_compound, C_HUGE, compound_create_huge),
    T(col_shape_create_compound, C_TINY, compound_create_tiny),
    T(col_shape_create_compound, C_COUNT, compound_create_count),
    T(col_shape_create_compound, C_NULL, compound_create_null),
    T(col_shape_create_compound, C_ID, compound_create_id),
    T(col_shape_create_compound, C_DEGEN, compound_create_degenerate),
    T(col_shape_create_compound, C_OTHER, compound_create_other),
    T(col_shape_get_geometry, C_NULL, shape_geometry_null),
    T(col_shape_get_geometry, C_ID, shape_geometry_id),
    NA_ALL_BUT(col_shape_get_geometry, "takes the world, an id and an output"),
    T(col_shape_destroy, C_NULL, shape_destroy_null),
    T(col_shape_destroy, C_ID, shape_destroy_id),
    T(col_shape_destroy, C_OTHER, shape_destroy_other),
    NA(col_shape_destroy, C_COUNT, NA_NOCOUNT),
    NA(col_shape_destroy, C_DEGEN, NA_NOGEOM),
    NA_ALL_BUT(col_shape_destroy, NA_NONUM),
    T(col_shape_is_valid, C_NULL, shape_is_valid_null),
    T(col_shape_is_valid, C_ID, shape_is_valid_id),
    NA_ALL_BUT(col_shape_is_valid, "takes the world and an id only"),
    T(col_shape_get_info, C_NULL, shape_info_null),
    T(col_shape_get_info, C_ID, shape_info_id),
    NA_ALL_BUT(col_shape_get_info, "takes the world, an id and an output"),
    T(col_shape_get_vertices, C_COUNT, shape_vertices_count),
    T(col_shape_get_vertices, C_NULL, shape_vertices_null),
    T(col_shape_get_vertices, C_ID, shape_vertices_id),
    NA_ALL_BUT(col_shape_get_vertices, "takes the world, an id, a capacity and outputs"),
    NA_ALL_BUT(col_default_body_def, NA_NOARG),
    T(col_body_create, C_NAN, body_create_nan),
    T(col_body_create, C_INF, body_create_inf),
    T(col_body_create, C_HUGE, body_create_huge),
    T(col_body_create, C_TINY, body_create_tiny),
    NA(col_body_create, C_COUNT, NA_NOCOUNT),
    T(col_body_create, C_NULL, body_create_null),
    T(col_body_create, C_ID, body_create_id),
    T(col_body_create, C_DEGEN, body_create_degenerate),
    T(col_body_create, C_OTHER, body_create_other),
    T(col_body_destroy, C_NULL, body_destroy_null),
    T(col_body_destroy, C_ID, body_destroy_id),
    NA_ALL_BUT(col_body_destroy, "takes the world and an id only"),
    T(col_body_is_valid, C_NULL, body_is_valid_null),
    T(col_body_is_valid, C_ID, body_is_valid_id),
    NA_ALL_BUT(col_body_is_valid, "takes the world and an id only"),
    T(col_body_set_pose, C_NAN, set_pose_nan),
    T(col_body_set_pose, C_INF, set_pose_inf),
    T(col_body_set_pose, C_HUGE, set_pose_huge),
    T(col_body_set_pose, C_TINY, set_pose_tiny),
    NA(col_body_set_pose, C_COUNT, NA_NOCOUNT),
    T(col_body_set_pose, C_NULL, set_pose_null),
    T(col_body_set_pose, C_ID, set_pose_id),
    T(col_body_set_pose, C_DEGEN, set_pose_degenerate),
    T(col_body_set_pose, C_OTHER, set_pose_other),
    T(col_body_set_poses, C_NAN, set_pose_nan),
    T(col_body_set_poses, C_INF, set_pose_inf),
    T(col_body_set_poses, C_HUGE, set_pose_huge),
    T(col_body_set_poses, C_TINY, set_pose_tiny),
    T(col_body_set_poses, C_COUNT, set_poses_count),
    T(col_body_set_poses, C_NULL, set_poses_null),
    T(col_body_set_poses, C_ID, set_poses_id),
    T(col_body_set_poses, C_DEGEN, set_poses_degenerate),
    T(col_body_set_poses, C_OTHER, set_pose_other),
    T(col_body_set_poses_fn, C_NAN, set_pose_nan),
    T(col_body_set_poses_fn, C_INF, set_pose_inf),
    T(col_body_set_poses_fn, C_HUGE, set_pose_huge),
    T(col_body_set_poses_fn, C_TINY, set_pose_tiny),
    T(col_body_set_poses_fn, C_COUNT, set_poses_count),
    T(col_body_set_poses_fn, C_NULL, set_poses_fn_null),
    T(col_body_set_poses_fn, C_ID, set_poses_id),
    T(col_body_set_poses_fn, C_DEGEN, set_poses_degenerate),
    T(col_body_set_poses_fn, C_OTHER, set_pose_other),
    T(col_body_get_pose, C_NULL, get_pose_null),
    T(col_body_get_pose, C_ID, get_pose_id),
    NA_ALL_BUT(col_body_get_pose, "takes the world, an id and an output"),
    T(col_body_set_max_speeds, C_NAN, set_speeds_nan),
    T(col_body_set_max_speeds, C_INF, set_speeds_inf),
    T(col_body_set_max_speeds, C_HUGE, set_speeds_huge),
    T(col_body_set_max_speeds, C_TINY, set_speeds_tiny),
    NA(col_body_set_max_speeds, C_COUNT, NA_NOCOUNT),
    T(col_body_set_max_speeds, C_NULL, set_speeds_null),
    T(col_body_set_max_speeds, C_ID, set_speeds_id),
    NA(col_body_set_max_speeds, C_DEGEN, NA_NOGEOM),
    T(col_body_set_max_speeds, C_OTHER, set_speeds_other),
    T(col_body_get_max_speeds, C_NULL, get_speeds_null),
    T(col_body_get_max_speeds, C_ID, get_speeds_id),
    NA_ALL_BUT(col_body_get_max_speeds, "takes the world, an id and outputs"),
    T(col_body_get_user_data, C_NULL, user_data_null),
    T(col_body_get_user_data, C_ID, user_data_id),
    NA_ALL_BUT(col_body_get_user_data, "takes the world and an id only"),
    T(col_pair_get_estimate, C_NULL, pair_estimate_null),
    T(col_pair_get_estimate, C_ID, pair_estimate_id),
    T(col_pair_get_estimate, C_OTHER, pair_estimate_other),
    NA_ALL_BUT(col_pair_get_estimate, "takes the world, two ids and an output"),
    NA_ALL_BUT(col_default_time_critical_def, NA_NOARG),
    T(col_body_collide_time_critical, C_NAN, tc_nan),
    T(col_body_collide_time_critical, C_INF, tc_inf),
    T(col_body_collide_time_critical, C_HUGE, tc_huge),
    T(col_body_collide_time_critical, C_TINY, tc_tiny),
    T(col_body_collide_time_critical, C_COUNT, tc_count),
    T(col_body_collide_time_critical, C_NULL, tc_null),
    T(col_body_collide_time_critical, C_ID, tc_id),
    NA(col_body_collide_time_critical, C_DEGEN, "meshes only; a mesh's degenerate triangles are decided exactly (test_adb)"),
    T(col_body_collide_time_critical, C_OTHER, tc_other),
    T(col_pair_set_enabled, C_NULL, pair_enabled_null),
    T(col_pair_set_enabled, C_ID, pair_enabled_id),
    T(col_pair_set_enabled, C_OTHER, pair_enabled_other),
    NA_ALL_BUT(col_pair_set_enabled, "takes the world, two ids and a bool"),
    T(col_pair_is_enabled, C_NULL, pair_is_enabled_null),
    T(col_pair_is_enabled, C_ID, pair_is_enabled_id),
    T(col_pair_is_enabled, C_OTHER, pair_is_enabled_other),
    NA_ALL_BUT(col_pair_is_enabled, "takes the world and two ids"),
    T(col_body_id_is_null, C_ID, id_helpers_id),
    NA_ALL_BUT(col_body_id_is_null, NA_VALUE),
    T(col_shape_id_is_null, C_ID, id_helpers_id),
    NA_ALL_BUT(col_shape_id_is_null, NA_VALUE),
    T(col_body_id_equals, C_ID, id_helpers_id),
    NA_ALL_BUT(col_body_id_equals, NA_VALUE),
    T(col_shape_id_equals, C_ID, id_helpers_id),
    NA_ALL_BUT(col_shape_id_equals, NA_VALUE),
    T(col_query_scratch_create, C_NULL, scratch_create_null),
    NA_ALL_BUT(col_query_scratch_create, "takes an allocator and an output"),
    T(col_query_scratch_destroy, C_NULL, scratch_destroy_null),
    NA_ALL_BUT(col_query_scratch_destroy, "takes the scratch only"),
    T(col_query_scratch_last_error, C_NULL, scratch_last_error_null),
    NA_ALL_BUT(col_query_scratch_last_error, "takes the scratch only"),
    T(col_geometry_overlap, C_NAN, geom_queries_nan),
    T(col_geometry_overlap, C_INF, geom_queries_inf),
    T(col_geometry_overlap, C_HUGE, geom_queries_huge),
    T(col_geometry_overlap, C_TINY, geom_queries_tiny),
    NA(col_geometry_overlap, C_COUNT, NA_NOCOUNT),
    T(col_geometry_overlap, C_NULL, geom_queries_null),
    NA(col_geometry_overlap, C_ID, NA_GEOMIDS),
    T(col_geometry_overlap, C_DEGEN, geom_queries_degenerate),
    T(col_geometry_overlap, C_OTHER, geom_queries_other),
    T(col_query_overlap, C_NAN, query_overlap_nan),
    T(col_query_overlap, C_INF, query_overlap_inf),
    T(col_query_overlap, C_HUGE, queries_huge),
    T(col_query_overlap, C_TINY, queries_tiny),
    NA(col_query_overlap, C_COUNT, NA_NOCOUNT),
    T(col_query_overlap, C_NULL, query_overlap_null),
    T(col_query_overlap, C_ID, query_overlap_id),
    T(col_query_overlap, C_DEGEN, query_overlap_degenerate),
    T(col_query_overlap, C_OTHER, query_overlap_other),
    NA(col_query_interframe, C_NAN, NA_FROMWORLD),
    NA(col_query_interframe, C_INF, NA_FROMWORLD),
    T(col_query_interframe, C_HUGE, body_queries_huge),
    T(col_query_interframe, C_TINY, body_queries_tiny),
    NA(col_query_interframe, C_COUNT, NA_NOCOUNT),
    T(col_query_interframe, C_NULL, interframe_null),
    T(col_query_interframe, C_ID, interframe_id),
    T(col_query_interframe, C_DEGEN, interframe_degenerate),
    T(col_query_interframe, C_OTHER, interframe_other),
    T(col_distance, C_NAN, query_overlap_nan),
    T(col_distance, C_INF, query_overlap_inf),
    T(col_distance, C_HUGE, queries_huge),
    T(col_distance, C_TINY, queries_tiny),
    NA(col_distance, C_COUNT, NA_NOCOUNT),
    T(col_distance, C_NULL, distance_null),
    T(col_distance, C_ID, distance_id),
    T(col_distance, C_DEGEN, distance_degenerate),
    T(col_distance, C_OTHER, distance_other),
    NA(col_body_distance, C_NAN, NA_FROMWORLD),
    NA(col_body_distance, C_INF, NA_FROMWORLD),
    T(col_body_distance, C_HUGE, body_queries_huge),
    T(col_body_distance, C_TINY, body_queries_tiny),
    NA(col_body_distance, C_COUNT, NA_NOCOUNT),
    T(col_body_distance, C_NULL, body_distance_null),
    T(col_body_distance, C_ID, body_distance_id),
    T(col_body_distance, C_DEGEN, body_distance_degenerate),
    T(col_body_distance, C_OTHER, body_distance_other),
    T(col_contact, C_NAN, contact_nan),
    T(col_contact, C_INF, contact_inf),
    T(col_contact, C_HUGE, contact_huge),
    T(col_contact, C_TINY, contact_tiny),
    NA(col_contact, C_COUNT, NA_NOCOUNT),
    T(col_contact, C_NULL, contact_null),
    T(col_contact, C_ID, contact_id),
    T(col_contact, C_DEGEN, contact_degenerate),
    T(col_contact, C_OTHER, contact_other),
    T(col_body_contact, C_NAN, contact_nan),
    T(col_body_contact, C_INF, contact_inf),
    T(col_body_contact, C_HUGE, body_queries_huge),
    T(col_body_contact, C_TINY, contact_tiny),
    NA(col_body_contact, C_COUNT, NA_NOCOUNT),
    T(col_body_contact, C_NULL, body_contact_null),
    T(col_body_contact, C_ID, body_contact_id),
    T(col_body_contact, C_DEGEN, body_contact_degenerate),
    T(col_body_contact, C_OTHER, body_contact_other),
    T(col_geometry_distance, C_NAN, geom_queries_nan),
    T(col_geometry_distance, C_INF, geom_queries_inf),
    T(col_geometry_distance, C_HUGE, geom_queries_huge),
    T(col_geometry_distance, C_TINY, geom_queries_tiny),
    NA(col_geometry_distance, C_COUNT, NA_NOCOUNT),
    T(col_geometry_distance, C_NULL, geom_queries_null),
    NA(col_geometry_distance, C_ID, NA_GEOMIDS),
    T(col_geometry_distance, C_DEGEN, geom_queries_degenerate),
    T(col_geometry_distance, C_OTHER, geom_queries_other),
    T(col_geometry_contact, C_NAN, geom_queries_nan),
    T(col_geometry_contact, C_INF, geom_queries_inf),
    T(col_geometry_contact, C_HUGE, geom_queries_huge),
    T(col_geometry_contact, C_TINY, geom_queries_tiny),
    NA(col_geometry_contact, C_COUNT, NA_NOCOUNT),
    T(col_geometry_contact, C_NULL, geom_queries_null),
    NA(col_geometry_contact, C_ID, NA_GEOMIDS),
    T(col_geometry_contact, C_DEGEN, geom_queries_degenerate),
    T(col_geometry_contact, C_OTHER, geom_queries_other),
    T(col_geometry_toi, C_NAN, toi_nan),
    T(col_geometry_toi, C_INF, toi_inf),
    T(col_geometry_toi, C_HUGE, toi_huge),
    T(col_geometry_toi, C_TINY, toi_tiny),
    NA(col_geometry_toi, C_COUNT, NA_NOCOUNT),
    T(col_geometry_toi, C_NULL, toi_null),
    NA(col_geometry_toi, C_ID, NA_GEOMIDS),
    T(col_geometry_toi, C_DEGEN, toi_degenerate),
    T(col_geometry_toi, C_OTHER, toi_other),
    T(col_toi, C_NAN, toi_nan),
    T(col_toi, C_INF, toi_inf),
    T(col_toi, C_HUGE, toi_huge),
    T(col_toi, C_TINY, toi_tiny),
    NA(col_toi, C_COUNT, NA_NOCOUNT),
    T(col_toi, C_NULL, toi_null),
    T(col_toi, C_ID, toi_id),
    T(col_toi, C_DEGEN, toi_degenerate),
    T(col_toi, C_OTHER, toi_other),
    T(col_geometry_create_hull, C_NAN, shape_create_nan),
    T(col_geometry_create_hull, C_INF, shape_create_inf),
    T(col_geometry_create_hull, C_HUGE, shape_create_huge),
    T(col_geometry_create_hull, C_TINY, shape_create_tiny),
    T(col_geometry_create_hull, C_COUNT, shape_create_count),
    T(col_geometry_create_hull, C_NULL, shape_create_null),
    T(col_geometry_create_hull, C_DEGEN, shape_create_degenerate),
    NA(col_geometry_create_hull, C_ID, NA_NOID_FREE),
    NA(col_geometry_create_hull, C_OTHER, NA_NOENUM),
    T(col_geometry_create_box, C_NAN, round_create_nan),
    T(col_geometry_create_box, C_INF, round_create_inf),
    T(col_geometry_create_box, C_HUGE, round_create_huge),
    T(col_geometry_create_box, C_TINY, round_create_tiny),
    NA(col_geometry_create_box, C_COUNT, NA_NOCOUNT),
    T(col_geometry_create_box, C_NULL, round_create_null),
    NA(col_geometry_create_box, C_ID, NA_NOID_FREE),
    T(col_geometry_create_box, C_DEGEN, round_create_degenerate),
    NA(col_geometry_create_box, C_OTHER, NA_NOENUM),
    T(col_geometry_create_sphere, C_NAN, round_create_nan),
    T(col_geometry_create_sphere, C_INF, round_create_inf),
    T(col_geometry_create_sphere, C_HUGE, round_create_huge),
    T(col_geometry_create_sphere, C_TINY, round_create_tiny),
    NA(col_geometry_create_sphere, C_COUNT, NA_NOCOUNT),
    T(col_geometry_create_sphere, C_NULL, round_create_null),
    NA(col_geometry_create_sphere, C_ID, NA_NOID_FREE),
    T(col_geometry_create_sphere, C_DEGEN, round_create_degenerate),
    NA(col_geometry_create_sphere, C_OTHER, NA_NOENUM),
    T(col_geometry_create_capsule, C_NAN, round_create_nan),
    T(col_geometry_create_capsule, C_INF, round_create_inf),
    T(col_geometry_create_capsule, C_HUGE, round_create_huge),
    T(col_geometry_create_capsule, C_TINY, round_create_tiny),
    NA(col_geometry_create_capsule, C_COUNT, NA_NOCOUNT),
    T(col_geometry_create_capsule, C_NULL, round_create_null),
    NA(col_geometry_create_capsule, C_ID, NA_NOID_FREE),
    T(col_geometry_create_capsule, C_DEGEN, round_create_degenerate),
    NA(col_geometry_create_capsule, C_OTHER, NA_NOENUM),
    T(col_geometry_create_compound, C_NAN, compound_create_nan),
    T(col_geometry_create_compound, C_INF, compound_create_inf),
    T(col_geometry_create_compound, C_HUGE, compound_create_huge),
    T(col_geometry_create_compound, C_TINY, compound_create_tiny),
    T(col_geometry_create_compound, C_COUNT, compound_create_count),
    T(col_geometry_create_compound, C_NULL, compound_create_null),
    NA(col_geometry_create_compound, C_ID, NA_GEOMIDS),
    T(col_geometry_create_compound, C_DEGEN, compound_create_degenerate),
    T(col_geometry_create_compound, C_OTHER, compound_create_other),
    T(col_geometry_clone, C_NULL, clone_null),
    T(col_geometry_clone, C_DEGEN, clone_degenerate),
    NA_ALL_BUT(col_geometry_clone, "copies a geometry, whose numbers were checked when it was made"),
    T(col_geometry_destroy, C_NULL, geometry_destroy_null),
    NA_ALL_BUT(col_geometry_destroy, "takes the geometry only"),
    T(col_geometry_get_info, C_TINY, geometry_info_tiny),
    T(col_geometry_get_info, C_NULL, geometry_info_null),
    NA_ALL_BUT(col_geometry_get_info, "takes a geometry and an output"),
    T(col_geometry_get_piece, C_COUNT, geometry_piece_count),
    T(col_geometry_get_piece, C_NULL, geometry_piece_null),
    NA_ALL_BUT(col_geometry_get_piece, "takes a geometry, an index and an output"),
    NA_ALL_BUT(col_default_mesh_def, NA_NOARG),
    T(col_shape_create_mesh, C_NAN, mesh_create_nan),
    T(col_shape_create_mesh, C_INF, mesh_create_inf),
    T(col_shape_create_mesh, C_HUGE, mesh_create_huge),
    T(col_shape_create_mesh, C_TINY, mesh_create_tiny),
    T(col_shape_create_mesh, C_COUNT, mesh_create_count),
    T(col_shape_create_mesh, C_NULL, mesh_create_null),
    NA(col_shape_create_mesh, C_ID, NA_MAKESID),
    T(col_shape_create_mesh, C_DEGEN, mesh_create_degenerate),
    T(col_shape_create_mesh, C_OTHER, mesh_create_other),
    T(col_geometry_create_mesh, C_NAN, mesh_create_nan),
    T(col_geometry_create_mesh, C_INF, mesh_create_inf),
    T(col_geometry_create_mesh, C_HUGE, mesh_create_huge),
    T(col_geometry_create_mesh, C_TINY, mesh_create_tiny),
    T(col_geometry_create_mesh, C_COUNT, mesh_create_count),
    T(col_geometry_create_mesh, C_NULL, mesh_create_null),
    NA(col_geometry_create_mesh, C_ID, NA_NOID_FREE),
    T(col_geometry_create_mesh, C_DEGEN, mesh_create_degenerate),
    T(col_geometry_create_mesh, C_OTHER, mesh_create_other),
    T(col_geometry_get_mesh, C_NULL, geometry_mesh_null),
    T(col_geometry_get_mesh, C_OTHER, geometry_mesh_other),
    NA_ALL_BUT(col_geometry_get_mesh, "takes a geometry and an output"),
    NA_ALL_BUT(col_vec3_make, NA_VALUE),
    NA_ALL_BUT(col_quat_identity, NA_NOARG),
    NA_ALL_BUT(col_quat_mul, NA_VALUE),
    NA_ALL_BUT(col_transform_identity, NA_NOARG),
    T(col_vec3_from_floats, C_NAN, from_floats_nan),
    T(col_vec3_from_floats, C_INF, from_floats_inf),
    T(col_vec3_from_floats, C_HUGE, from_floats_huge),
    T(col_vec3_from_floats, C_TINY, from_floats_tiny),
    NA_ALL_BUT(col_vec3_from_floats, "three numbers, widened exactly"),
    T(col_quat_from_floats, C_NAN, from_floats_nan),
    T(col_quat_from_floats, C_INF, from_floats_inf),
    T(col_quat_from_floats, C_HUGE, from_floats_huge),
    T(col_quat_from_floats, C_TINY, from_floats_tiny),
    T(col_quat_from_floats, C_OTHER, from_floats_quaternion),
    NA_ALL_BUT(col_quat_from_floats, "four numbers, widened exactly"),
    T(col_transform_from_floats, C_NAN, from_floats_nan),
    T(col_transform_from_floats, C_INF, from_floats_inf),
    T(col_transform_from_floats, C_HUGE, from_floats_huge),
    T(col_transform_from_floats, C_TINY, from_floats_tiny),
    T(col_transform_from_floats, C_OTHER, from_floats_quaternion),
    NA_ALL_BUT(col_transform_from_floats, "seven numbers, widened exactly"),
    T(col_quat_from_axis_angle, C_NAN, axis_angle_nan),
    T(col_quat_from_axis_angle, C_INF, axis_angle_inf),
    T(col_quat_from_axis_angle, C_HUGE, axis_angle_huge),
    T(col_quat_from_axis_angle, C_TINY, axis_angle_tiny),
    T(col_quat_from_axis_angle, C_DEGEN, axis_angle_degenerate),
    NA_ALL_BUT(col_quat_from_axis_angle, "an axis and an angle: numbers only"),
    NA(col_recorder_open, C_NAN, "takes a world, a path and an output"),
    NA(col_recorder_open, C_INF, "takes a world, a path and an output"),
    NA(col_recorder_open, C_HUGE, "takes a world, a path and an output"),
    NA(col_recorder_open, C_TINY, "takes a world, a path and an output"),
    T(col_recorder_open, C_COUNT, recorder_open_count),
    T(col_recorder_open, C_NULL, recorder_open_null),
    NA(col_recorder_open, C_ID, NA_NOID),
    NA(col_recorder_open, C_DEGEN, NA_NOGEOM),
    T(col_recorder_open, C_OTHER, recorder_open_other),
    NA(col_recorder_frame, C_NAN, NA_FROMWORLD),
    NA(col_recorder_frame, C_INF, NA_FROMWORLD),
    T(col_recorder_frame, C_HUGE, recorder_frame_huge),
    NA(col_recorder_frame, C_TINY, NA_FROMWORLD),
    NA(col_recorder_frame, C_COUNT, NA_NOCOUNT),
    T(col_recorder_frame, C_NULL, recorder_frame_null),
    NA(col_recorder_frame, C_ID, NA_NOID),
    T(col_recorder_frame, C_DEGEN, recorder_frame_degenerate),
    T(col_recorder_frame, C_OTHER, recorder_open_other),
    T(col_recorder_close, C_NULL, recorder_close_null),
    NA_ALL_BUT(col_default_query_filter, NA_NOARG),
    T(col_world_cast_ray, C_NAN, world_queries_nan),
    T(col_world_cast_ray, C_INF, world_queries_inf),
    T(col_world_cast_ray, C_HUGE, world_queries_huge),
    T(col_world_cast_ray, C_TINY, world_queries_tiny),
    NA(col_world_cast_ray, C_COUNT, NA_NOCOUNT),
    T(col_world_cast_ray, C_NULL, world_queries_null),
    NA(col_world_cast_ray, C_ID, NA_QUERYIDS),
    T(col_world_cast_ray, C_DEGEN, world_queries_degenerate),
    NA(col_world_cast_ray, C_OTHER, NA_NOENUM),
    T(col_world_cast_ray_any, C_NAN, world_queries_nan),
    T(col_world_cast_ray_any, C_INF, world_queries_inf),
    T(col_world_cast_ray_any, C_HUGE, world_queries_huge),
    T(col_world_cast_ray_any, C_TINY, world_queries_tiny),
    NA(col_world_cast_ray_any, C_COUNT, NA_NOCOUNT),
    T(col_world_cast_ray_any, C_NULL, world_queries_null),
    NA(col_world_cast_ray_any, C_ID, NA_QUERYIDS),
    T(col_world_cast_ray_any, C_DEGEN, world_queries_degenerate),
    NA(col_world_cast_ray_any, C_OTHER, NA_NOENUM),
    T(col_world_cast_ray_all, C_NAN, world_queries_nan),
    T(col_world_cast_ray_all, C_INF, world_queries_inf),
    T(col_world_cast_ray_all, C_HUGE, world_queries_huge),
    T(col_world_cast_ray_all, C_TINY, world_queries_tiny),
    T(col_world_cast_ray_all, C_COUNT, world_queries_count),
    T(col_world_cast_ray_all, C_NULL, world_queries_null),
    NA(col_world_cast_ray_all, C_ID, NA_QUERYIDS),
    T(col_world_cast_ray_all, C_DEGEN, world_queries_degenerate),
    NA(col_world_cast_ray_all, C_OTHER, NA_NOENUM),
    T(col_world_overlap_box, C_NAN, world_queries_nan),
    T(col_world_overlap_box, C_INF, world_queries_inf),
    T(col_world_overlap_box, C_HUGE, world_queries_huge),
    T(col_world_overlap_box, C_TINY, world_queries_tiny),
    T(col_world_overlap_box, C_COUNT, world_queries_count),
    T(col_world_overlap_box, C_NULL, world_queries_null),
    NA(col_world_overlap_box, C_ID, NA_QUERYIDS),
    T(col_world_overlap_box, C_DEGEN, world_queries_degenerate),
    T(col_world_overlap_box, C_OTHER, world_queries_other),
    T(col_world_overlap_shape, C_NAN, world_queries_nan),
    T(col_world_overlap_shape, C_INF, world_queries_inf),
    T(col_world_overlap_shape, C_HUGE, world_queries_huge),
    NA(col_world_overlap_shape, C_TINY, NA_GEOMNUM),
    T(col_world_overlap_shape, C_COUNT, world_queries_count),
    T(col_world_overlap_shape, C_NULL, world_queries_null),
    NA(col_world_overlap_shape, C_ID, NA_QUERYIDS),
    T(col_world_overlap_shape, C_DEGEN, world_queries_degenerate),
    T(col_world_overlap_shape, C_OTHER, world_queries_other),
    T(col_world_cast_shape, C_NAN, shape_cast_nan),
    T(col_world_cast_shape, C_INF, shape_cast_inf),
    T(col_world_cast_shape, C_HUGE, shape_cast_huge),
    T(col_world_cast_shape, C_TINY, shape_cast_tiny),
    NA(col_world_cast_shape, C_COUNT, NA_NOCOUNT),
    T(col_world_cast_shape, C_NULL, shape_cast_null),
    NA(col_world_cast_shape, C_ID, NA_QUERYIDS),
    T(col_world_cast_shape, C_DEGEN, shape_cast_degenerate),
    T(col_world_cast_shape, C_OTHER, shape_cast_other),
    T(col_world_cast_shape_any, C_NAN, shape_cast_nan),
    T(col_world_cast_shape_any, C_INF, shape_cast_inf),
    T(col_world_cast_shape_any, C_HUGE, shape_cast_huge),
    T(col_world_cast_shape_any, C_TINY, shape_cast_tiny),
    NA(col_world_cast_shape_any, C_COUNT, NA_NOCOUNT),
    T(col_world_cast_shape_any, C_NULL, shape_cast_null),
    NA(col_world_cast_shape_any, C_ID, NA_QUERYIDS),
    T(col_world_cast_shape_any, C_DEGEN, shape_cast_degenerate),
    T(col_world_cast_shape_any, C_OTHER, shape_cast_other),
    T(col_world_cast_shape_all, C_NAN, shape_cast_nan),
    T(col_world_cast_shape_all, C_INF, shape_cast_inf),
    T(col_world_cast_shape_all, C_HUGE, shape_cast_huge),
    T(col_world_cast_shape_all, C_TINY, shape_cast_tiny),
    T(col_world_cast_shape_all, C_COUNT, shape_cast_count),
    T(col_world_cast_shape_all, C_NULL, shape_cast_null),
    NA(col_world_cast_shape_all, C_ID, NA_QUERYIDS),
    T(col_world_cast_shape_all, C_DEGEN, shape_cast_degenerate),
    T(col_world_cast_shape_all, C_OTHER, shape_cast_other),
    T(col_world_prepare_queries, C_NULL, prepare_queries_null),
    NA_ALL_BUT(col_world_prepare_queries, NA_WORLD),

    T(col_recorder_close, C_OTHER, recorder_open_other),
    NA_ALL_BUT(col_recorder_close, "takes the recorder only"),
};
#define NCELLS ((int)(sizeof cells / sizeof cells[0]))

/* The public functions in the order of their headers (tests/bad_input_doc.sh checks
 * this list against include/colibri/). */
static const char *const entries[] = {
    "col_status_string", "col_backend_name", "col_default_world_def", "col_default_time_critical_def", "col_world_create", "col_world_destroy",
    "col_world_update", "col_pair_get_estimate", "col_world_get_pair_events", "col_world_get_counters", "col_world_last_error",
    "col_world_hash", "col_shape_create_convex", "col_shape_create", "col_shape_create_box", "col_shape_create_sphere",
    "col_shape_create_capsule", "col_shape_create_mesh", "col_shape_create_compound", "col_shape_get_geometry", "col_shape_destroy",
    "col_shape_is_valid", "col_shape_get_info",
    "col_shape_get_vertices", "col_default_body_def", "col_body_create", "col_body_destroy", "col_body_is_valid",
    "col_body_set_pose", "col_body_set_poses", "col_body_set_poses_fn", "col_body_get_pose",
    "col_body_set_max_speeds", "col_body_get_max_speeds", "col_body_get_user_data", "col_pair_set_enabled",
    "col_pair_is_enabled", "col_body_id_is_null", "col_shape_id_is_null", "col_body_id_equals",
    "col_shape_id_equals", "col_query_scratch_create", "col_query_scratch_destroy", "col_query_scratch_last_error",
    "col_geometry_overlap", "col_query_overlap", "col_query_interframe", "col_distance", "col_body_collide_time_critical", "col_body_distance",
    "col_contact", "col_body_contact", "col_geometry_distance", "col_geometry_contact", "col_geometry_toi", "col_toi", "col_geometry_create_hull",
    "col_geometry_create_box", "col_geometry_create_sphere", "col_geometry_create_capsule",
    "col_geometry_create_compound", "col_default_mesh_def", "col_geometry_create_mesh", "col_geometry_clone",
    "col_geometry_destroy", "col_geometry_get_info", "col_geometry_get_mesh", "col_geometry_get_piece", "col_vec3_make", "col_quat_identity", "col_quat_mul", "col_transform_identity",
    "col_vec3_from_floats", "col_quat_from_floats", "col_transform_from_floats", "col_quat_from_axis_angle",
    "col_recorder_open", "col_recorder_frame", "col_recorder_close", "col_default_query_filter", "col_world_cast_ray",
    "col_world_cast_ray_any", "col_world_cast_ray_all", "col_world_overlap_box", "col_world_overlap_shape",
    "col_world_cast_shape", "col_world_cast_shape_any", "col_world_cast_shape_all", "col_world_prepare_queries"};
#define NENTRIES ((int)(sizeof entries / sizeof entries[0]))

/* The cell of (entry, col): its own line, else the row's NA_ALL_BUT line; NULL if none. */
static const cell *find_cell(const char *entry, int col)
{
    const cell *fallback = NULL;
    for (int i = 0; i < NCELLS; i++) {
        if (strcmp(cells[i].entry, entry) != 0) continue;
        if (cells[i].col == col) return &cells[i];
        if (cells[i].col == -1) fallback = &cells[i];
    }
    return fallback;
}

/* Every entry has every column exactly once (a T or NA line, or the row's default) and
 * every line names a listed entry. */
static void test_table_complete(void **state)
{
    (void)state;
    for (int i = 0; i < NCELLS; i++) {
        bool known = false;
        for (int e = 0; e < NENTRIES; e++) known |= strcmp(cells[i].entry, entries[e]) == 0;
        if (!known) fail_msg("cell of unknown entry %s", cells[i].entry);
        for (int j = 0; j < i; j++)
            if (strcmp(cells[i].entry, cells[j].entry) == 0 && cells[i].col == cells[j].col)
                fail_msg("%s: column %d twice", cells[i].entry, cells[i].col);
    }
    int tests = 0;
    for (int e = 0; e < NENTRIES; e++)
        for (int c = 0; c < NCOL; c++) {
            const cell *x = find_cell(entries[e], c);
            if (x == NULL) fail_msg("%s: no cell for %s", entries[e], col_title[c]);
            tests += x->fn != NULL;
        }
    print_message("%d entry points x %d classes: %d cells with a test\n", NENTRIES, NCOL, tests);
}

/* Runs every test of column col once (a test shared by several cells runs once). */
static void run_column(int col)
{
    for (int i = 0; i < NCELLS; i++) {
        if (cells[i].col != col || cells[i].fn == NULL) continue;
        bool seen = false;
        for (int j = 0; j < i; j++) seen |= cells[j].col == col && cells[j].fn == cells[i].fn;
        if (seen) continue;
        print_message("  %s (%s)\n", cells[i].test, cells[i].entry);
        fx f;
        fx_setup(&f);
        cells[i].fn(&f);
        fx_teardown(&f);
    }
}

static void test_nan(void **state) { (void)state; run_column(C_NAN); }
static void test_inf(void **state) { (void)state; run_column(C_INF); }
static void test_huge(void **state) { (void)state; run_column(C_HUGE); }
static void test_tiny(void **state) { (void)state; run_column(C_TINY); }
static void test_counts(void **state) { (void)state; run_column(C_COUNT); }
static void test_null(void **state) { (void)state; run_column(C_NULL); }
static void test_ids(void **state) { (void)state; run_column(C_ID); }
static void test_degenerate(void **state) { (void)state; run_column(C_DEGEN); }
static void test_other(void **state) { (void)state; run_column(C_OTHER); }

/* The markdown table of docs/bad-input.md. */
static void print_table(void)
{
    printf("| entry point |");
    for (int c = 0; c < NCOL; c++) printf(" %s |", col_title[c]);
    printf("\n|---|");
    for (int c = 0; c < NCOL; c++) printf("---|");
    printf("\n");
    for (int e = 0; e < NENTRIES; e++) {
        printf("| `%s` |", entries[e]);
        for (int c = 0; c < NCOL; c++) {
            const cell *x = find_cell(entries[e], c);
            if (x == NULL) printf(" ? |");
            else if (x->fn != NULL) printf(" `%s` |", x->test);
            else printf(" n/a: %s |", x->na);
        }
        printf("\n");
    }
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--table") == 0) {
        print_table();
        return 0;
    }
    if (argc > 1 && strcmp(argv[1], "--entries") == 0) {
        for (int e = 0; e < NENTRIES; e++) printf("%s\n", entries[e]);
        return 0;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_complete), cmocka_unit_test(test_nan),    cmocka_unit_test(test_inf),
        cmocka_unit_test(test_huge),           cmocka_unit_test(test_tiny),   cmocka_unit_test(test_counts),
        cmocka_unit_test(test_null),           cmocka_unit_test(test_ids),    cmocka_unit_test(test_degenerate),
        cmocka_unit_test(test_other),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
