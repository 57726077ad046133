/* SPDX-License-Identifier: MIT */
/* Bad input everywhere (issue 13; docs/conventions.md item 6): every public entry point (every
 * function of the headers in include/colibri/) against every class of bad input: NaN,
 * +-Inf, huge and tiny magnitudes, zero and negative counts, NULL pointers, stale, forged and foreign ids,
 * degenerate geometry, and bad enums, defs and quaternions. The table `cells` below names
 * one case per (entry point, class), or says why the class does not apply; every failing
 * call must return its status with a message in col_world_last_error and leave
 * col_world_hash unchanged, and every accepted extreme (1e15 coordinates, subnormal
 * positions, DBL_MAX speeds) must give a world that still updates, with the pairs of a
 * brute-force run of the reference query where the geometry allows an exact answer.
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

#include "colibri/colibri.h"
#include "lib/world.h"
#include "tests/test_util.h"

/* ---- the fixture: a world with live, removed and foreign ids ---- */

enum { MAX_BAD = 12 };

typedef struct fx {
    counting_alloc ca;
    col_world *w;                 /* the world under test (2 workers, counting allocator) */
    col_world *other;             /* a second world, for foreign ids */
    col_shape_id box, blob, spare; /* live shapes: the bodies use box and blob */
    col_body_id a, b, st, d;      /* a and b overlap; st is static, far away; d reuses a slot */
    col_body_id bad_body[MAX_BAD];
    const char *bad_body_name[MAX_BAD];
    int nbad_body;
    col_shape_id bad_shape[MAX_BAD];
    const char *bad_shape_name[MAX_BAD];
    int nbad_shape;
    uint64_t hash;                /* the world's hash as it must be now */
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
}

/* The world still works and holds what it must; nothing leaked through its allocator. */
static void fx_teardown(fx *f)
{
    if (col_world_hash(f->w) != f->hash) fail_msg("the case left the world changed");
    assert_int_equal(col_world_update(f->w), COL_OK);
    col_world_destroy(f->w);
    col_world_destroy(f->other);
    assert_int_equal(f->ca.allocs, f->ca.frees);
}

/* ---- checks ---- */

static void fx_clear(fx *f) { f->w->last_error[0] = '\0'; }

/* A call's status: a failure leaves the world's hash as it was and (when the call had the
 * world to write to) a message; a success is the new state. */
static void fx_status(fx *f, col_status want, col_status got, const char *call, int line, bool message)
{
    if (got != want)
        fail_msg("line %d: %s returned %s, want %s (last error: \"%s\")", line, call, col_status_string(got),
                 col_status_string(want), col_world_last_error(f->w));
    if (want == COL_OK) {
        f->hash = col_world_hash(f->w);
        return;
    }
    if (col_world_hash(f->w) != f->hash) fail_msg("line %d: %s failed and changed the world", line, call);
    if (message && f->w->last_error[0] == '\0') fail_msg("line %d: %s failed without a message", line, call);
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
    col_shape_info info;
    EXPECT(f, COL_OK, col_shape_get_info(f->w, s, &info));
    assert_int_equal(info.vertex_count, 8);
    /* a slab 2e15 wide and 2 thick is flat to the hull builder's precision (1e-15 of its
     * diameter): refused as coplanar rather than built wrong */
    for (int i = 0; i < 8; i++) p[i].z = i & 4 ? 1 : -1;
    EXPECT(f, COL_ERR_DEGENERATE_SHAPE, col_shape_create_convex(f->w, p, 8, &s));
    /* a huge spread with tiny details: whatever the hull builder makes of it, a status */
    col_vec3 q[6] = {{-1e15, 0, 0}, {1e15, 0, 0}, {0, 1e15, 0}, {0, 0, 1e15}, {1e-15, 1e-15, 1e-15}, {0, 0, -1e-300}};
    const col_status ok[] = {COL_OK, COL_ERR_DEGENERATE_SHAPE, COL_ERR_HULL_FAILED};
    expect_one_of(f, col_shape_create_convex(f->w, q, 6, &s), ok, 3, "col_shape_create_convex(spread)", __LINE__);
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
    }
    /* 1e-100 wide: volume 8e-300, accepted (answers at that size: issue 13, finding 3) */
    col_vec3 p[8];
    for (int i = 0; i < 8; i++) p[i] = col_vec3_make(i & 1 ? 1e-100 : -1e-100, i & 2 ? 1e-100 : -1e-100, i & 4 ? 1e-100 : -1e-100);
    col_shape_id s;
    EXPECT(f, COL_OK, col_shape_create_convex(f->w, p, 8, &s));
    /* subnormal and signed-zero coordinates in an ordinary shape */
    col_vec3 q[6];
    memcpy(q, tetra, sizeof tetra);
    q[4] = col_vec3_make(5e-324, -0.0, DBL_MIN);
    q[5] = col_vec3_make(-5e-324, 0.3, 0.3);
    EXPECT(f, COL_OK, col_shape_create_convex(f->w, q, 6, &s));
}

static void shape_create_count(fx *f)
{
    col_shape_id s = {7, 7, 7};
    const int bad[] = {-1, INT_MIN};
    for (int k = 0; k < 2; k++) EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_shape_create_convex(f->w, tetra, bad[k], &s));
    for (int n = 0; n < 4; n++) {
        EXPECT(f, COL_ERR_TOO_FEW_POINTS, col_shape_create_convex(f->w, tetra, n, &s));
        assert_true(col_shape_id_is_null(s));
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
    for (int i = 0; i < M; i++) p[i] = tetra[i % 4];
    EXPECT(f, COL_OK, col_shape_create_convex(f->w, p, M, &s));
    col_shape_info info;
    EXPECT(f, COL_OK, col_shape_get_info(f->w, s, &info));
    assert_int_equal(info.vertex_count, 4);
    for (int i = 0; i < M; i++) p[i] = tetra[i % 3];
    EXPECT(f, COL_ERR_TOO_FEW_POINTS, col_shape_create_convex(f->w, p, M, &s));
    free(p);
}

static void shape_create_null(fx *f)
{
    col_shape_id s;
    EXPECT_NOWORLD(f, COL_ERR_INVALID_ARGUMENT, col_shape_create_convex(NULL, tetra, 5, &s));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_shape_create_convex(f->w, NULL, 5, &s));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_shape_create_convex(f->w, NULL, 0, &s));
    EXPECT(f, COL_ERR_INVALID_ARGUMENT, col_shape_create_convex(f->w, tetra, 5, NULL));
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
    expect_one_of(f, col_shape_create_convex(f->w, same, 10, &s), flat, 2, "coincident", __LINE__);
    assert_true(col_shape_id_is_null(s));
    EXPECT(f, COL_ERR_DEGENERATE_SHAPE, col_shape_create_convex(f->w, line, 10, &s));
    EXPECT(f, COL_ERR_DEGENERATE_SHAPE, col_shape_create_convex(f->w, plane, 10, &s));
    col_vec3 dup[5] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 0, 0}, {0, 0, 0}};
    EXPECT(f, COL_ERR_TOO_FEW_POINTS, col_shape_create_convex(f->w, dup, 5, &s));
    /* a sliver: a square and a point 1e-200 above it (volume about 3e-201, accepted or
     * rejected as flat, never a hull that is not one) */
    memcpy(sliver, (col_vec3[5]){{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {1, 1, 0}, {0.5, 0.5, 1e-200}}, sizeof sliver);
    const col_status thin[] = {COL_OK, COL_ERR_DEGENERATE_SHAPE};
    if (expect_one_of(f, col_shape_create_convex(f->w, sliver, 5, &s), thin, 2, "sliver", __LINE__) == COL_OK) {
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
    }
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
    NA_ALL_BUT(col_vec3_make, NA_VALUE),
    NA_ALL_BUT(col_quat_identity, NA_NOARG),
    NA_ALL_BUT(col_quat_mul, NA_VALUE),
    NA_ALL_BUT(col_transform_identity, NA_NOARG),
};
#define NCELLS ((int)(sizeof cells / sizeof cells[0]))

/* The public functions in the order of their headers (tests/bad_input_doc.sh checks
 * this list against include/colibri/). */
static const char *const entries[] = {
    "col_status_string", "col_backend_name", "col_default_world_def", "col_world_create", "col_world_destroy",
    "col_world_update", "col_world_get_pair_events", "col_world_get_counters", "col_world_last_error",
    "col_world_hash", "col_shape_create_convex", "col_shape_destroy", "col_shape_is_valid", "col_shape_get_info",
    "col_shape_get_vertices", "col_default_body_def", "col_body_create", "col_body_destroy", "col_body_is_valid",
    "col_body_set_pose", "col_body_set_poses", "col_body_set_poses_fn", "col_body_get_pose",
    "col_body_set_max_speeds", "col_body_get_max_speeds", "col_body_get_user_data", "col_pair_set_enabled",
    "col_pair_is_enabled", "col_body_id_is_null", "col_shape_id_is_null", "col_body_id_equals",
    "col_shape_id_equals", "col_query_overlap", "col_query_interframe", "col_distance", "col_body_distance",
    "col_contact", "col_body_contact", "col_vec3_make", "col_quat_identity", "col_quat_mul", "col_transform_identity"};
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
