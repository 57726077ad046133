/* SPDX-License-Identifier: MIT */
/* Out of memory at every allocation (issue 13; docs/architecture.md, "Determinism and memory", SQLite's faultsim): a
 * scripted scenario that makes every public call of include/colibri/ runs once without
 * failures, then once for each N with the Nth allocation failing. The call that meets the
 * failure must answer COL_ERR_OUT_OF_MEMORY (or succeed, if it can do without the
 * memory) with a message, leave col_world_hash unchanged, and succeed when retried; the
 * run then goes on, and everything the scenario observes (statuses, query answers, pair
 * lists, counters, hashes) must equal the run without failures. Every run ends with
 * col_world_destroy and the allocator must have every block back; scripts/test runs this
 * under AddressSanitizer with leak detection, which also sees blocks taken outside the
 * allocator hooks. The scenario runs with each narrow-phase backend as the world's. The
 * shape calls of issue 15 (compounds, shapes from geometries, the world-free builders and
 * queries) have their own runs below, one call at a time. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colibri/colibri.h"
#include "lib/world.h"
#include "tests/test_util.h"

enum { NBODY = 9 };

typedef struct scen {
    counting_alloc ca;
    col_backend backend;
    bool app_tasks; /* the app's task system instead of the world's pool */
    col_world *w;
    col_shape_id box, blob, tet, extra;
    col_body_id b[NBODY];
    col_distance_cache cache;
    uint64_t trace; /* everything the scenario observed */
} scen;

/* ---- what the scenario observes ---- */

static void fold(scen *s, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        s->trace ^= p[i];
        s->trace *= 1099511628211ULL;
    }
}

static void fold_u64(scen *s, uint64_t v) { fold(s, &v, sizeof v); }
static void fold_double(scen *s, double v) { fold(s, &v, sizeof v); }
static void fold_vec(scen *s, col_vec3 v)
{
    fold_double(s, v.x);
    fold_double(s, v.y);
    fold_double(s, v.z);
}
static void fold_str(scen *s, const char *t) { fold(s, t, strlen(t)); }

/* Pairs by slot and generation (the ids' tags differ from world to world). */
static void fold_pairs(scen *s, const col_pair *p, int n)
{
    fold_u64(s, (uint64_t)n);
    for (int i = 0; i < n; i++) {
        const uint32_t v[4] = {p[i].a.index1, p[i].a.generation, p[i].b.index1, p[i].b.generation};
        fold(s, v, sizeof v);
    }
}

static void fold_events(scen *s)
{
    col_pair_events ev = col_world_get_pair_events(s->w);
    fold_pairs(s, ev.pairs, ev.pair_count);
    fold_pairs(s, ev.began, ev.began_count);
    fold_pairs(s, ev.ended, ev.ended_count);
    fold_pairs(s, ev.interframe, ev.interframe_count);
}

static void fold_distance(scen *s, const col_distance_output *o)
{
    fold_u64(s, (uint64_t)o->outcome);
    fold_double(s, o->distance);
    fold_vec(s, o->point_a);
    fold_vec(s, o->point_b);
}

static void fold_contact(scen *s, const col_contact_output *o)
{
    fold_u64(s, (uint64_t)o->outcome);
    fold_vec(s, o->normal);
    fold_double(s, o->separation);
    fold_u64(s, (uint64_t)o->point_count);
    for (int i = 0; i < o->point_count; i++) fold_double(s, o->points[i].separation);
}

/* ---- the scenario: one public call per step (the ones that cannot allocate are grouped
 * with others that cannot) ---- */

static col_transform at(double x, double y, double z)
{
    col_transform t = col_transform_identity();
    t.p = col_vec3_make(x, y, z);
    return t;
}

static col_transform turned(double x, double y, double z, double angle)
{
    col_transform t = at(x, y, z);
    t.q = (col_quat){0, sin(angle / 2), 0, cos(angle / 2)};
    return t;
}

/* Body k's pose at frame f of the scripted motion: a row that closes up. */
static col_transform motion(int k, int f) { return turned(1.6 * k - 0.15 * f * (k % 3), 0.1 * (k % 2), 0, 0.3 * f + k); }

static col_transform motion_fn(int index, void *ctx)
{
    const int *frame = ctx;
    return motion(index % 6, *frame);
}

static col_status make_shape(scen *s, int which, col_shape_id *out)
{
    col_vec3 p[40];
    int n;
    if (which == 0 || which == 3) {
        double h = which == 0 ? 1.0 : 0.3;
        for (int i = 0; i < 8; i++) p[i] = col_vec3_make(i & 1 ? h : -h, i & 2 ? h : -h, i & 4 ? h : -h);
        n = 8;
    } else if (which == 1) {
        for (int i = 0; i < 40; i++) { /* points on an ellipsoid, a fixed pattern */
            double u = (i + 0.5) / 40.0, phi = 2.399963229728653 * i, z = 1 - 2 * u, r = sqrt(1 - z * z);
            p[i] = col_vec3_make(r * cos(phi), 0.6 * r * sin(phi), 0.4 * z);
        }
        n = 40;
    } else {
        const col_vec3 t[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
        memcpy(p, t, sizeof t);
        n = 4;
    }
    return col_shape_create_convex(s->w, p, n, out);
}

static col_status make_body(scen *s, int k, col_shape_id shape, bool is_static)
{
    col_body_def d = col_default_body_def();
    d.shape = shape;
    d.pose = motion(k % 6, 0);
    d.is_static = is_static;
    d.user_data = &s->b[k];
    return col_body_create(s->w, &d, &s->b[k]);
}

#define STEP_END ((col_status)-1)

static col_status step(scen *s, int i)
{
    int n = 0;
    col_world *w = s->w;
    switch (i) {
    case 0: {
        col_world_def def = col_default_world_def();
        def.worker_count = 2;
        def.backend = s->backend;
        def.report_interframe = true;
        def.allocator = counting_hooks(&s->ca);
        if (s->app_tasks) {
            def.worker_count = 3;
            def.enqueue_task = inline_enqueue_task;
            def.finish_task = inline_finish_task;
        }
        return col_world_create(&def, &s->w);
    }
    case 1: /* calls that need no world */
        fold_str(s, col_status_string(COL_ERR_OUT_OF_MEMORY));
        fold_str(s, col_backend_name(s->backend == COL_BACKEND_DEFAULT ? COL_BACKEND_SEPVEC : s->backend));
        fold_u64(s, (uint64_t)col_default_body_def().filter_group);
        fold_vec(s, col_vec3_make(1, 2, 3));
        fold_double(s, col_quat_identity().w + col_transform_identity().q.w);
        fold_u64(s, (uint64_t)(col_body_id_is_null((col_body_id){0, 0, 0}) + col_shape_id_is_null((col_shape_id){0, 0, 0})));
        return COL_OK;
    case 2: return make_shape(s, 0, &s->box);
    case 3: return make_shape(s, 1, &s->blob);
    case 4: return make_shape(s, 2, &s->tet);
    case 5: return make_shape(s, 3, &s->extra);
    case 6: {
        col_shape_info info;
        col_status st = col_shape_get_info(w, s->blob, &info);
        fold_u64(s, (uint64_t)(info.vertex_count * 1000 + info.face_count));
        fold_double(s, info.volume);
        return st;
    }
    case 7: {
        col_vec3 v[64];
        col_status st = col_shape_get_vertices(w, s->blob, v, 64, &n);
        for (int k = 0; k < n; k++) fold_vec(s, v[k]);
        fold_u64(s, (uint64_t)(col_shape_is_valid(w, s->tet) + 2 * col_shape_id_equals(s->tet, s->tet)));
        return st;
    }
    case 8: return make_body(s, 0, s->box, false);
    case 9: return make_body(s, 1, s->blob, false);
    case 10: return make_body(s, 2, s->tet, false);
    case 11: return make_body(s, 3, s->box, false);
    case 12: return make_body(s, 4, s->blob, false);
    case 13: return make_body(s, 5, s->box, true);
    case 14: return col_body_set_max_speeds(w, s->b[1], 0.5, 0.2);
    case 15: {
        double l = 0, a = 0;
        col_status st = col_body_get_max_speeds(w, s->b[1], &l, &a);
        fold_double(s, l + 2 * a);
        fold_u64(s, (uint64_t)(col_body_get_user_data(w, s->b[2]) == &s->b[2]));
        fold_u64(s, (uint64_t)(col_body_is_valid(w, s->b[3]) + 2 * col_body_id_equals(s->b[3], s->b[3])));
        return st;
    }
    case 16: return col_pair_set_enabled(w, s->b[0], s->b[1], false);
    case 17:
        fold_u64(s, (uint64_t)col_pair_is_enabled(w, s->b[1], s->b[0]));
        return COL_OK;
    case 18: return col_world_update(w);
    case 19: {
        fold_events(s);
        col_counters c;
        col_status st = col_world_get_counters(w, &c);
        const int v[] = {c.bodies, c.static_bodies, c.shapes, c.broadphase_pairs, c.narrow_calls, c.colliding_pairs,
                         c.began, c.ended, c.workers, c.sleeping_pairs, c.woken_early};
        fold(s, v, sizeof v);
        fold_u64(s, col_world_hash(w));
        fold_str(s, col_world_last_error(w));
        return st;
    }
    case 20: {
        col_transform p;
        col_status st = col_body_get_pose(w, s->b[4], &p);
        fold_vec(s, p.p);
        if (st == COL_OK) st = col_body_set_pose(w, s->b[0], motion(0, 1));
        return st;
    }
    case 21: {
        const col_transform poses[4] = {motion(1, 1), motion(2, 1), motion(3, 1), motion(4, 1)};
        return col_body_set_poses(w, &s->b[1], poses, 4);
    }
    case 22: { /* 600 items naming the bodies in turn (the last pose of each counts) */
        static col_body_id ids[600];
        for (int k = 0; k < 600; k++) ids[k] = s->b[k % 5];
        static int frame = 2;
        return col_body_set_poses_fn(w, ids, 600, motion_fn, &frame);
    }
    case 23: return col_world_update(w);
    case 24:
        fold_events(s);
        fold_u64(s, col_world_hash(w));
        return COL_OK;
    case 25:
    case 26:
    case 27:
    case 28:
    case 29: { /* every backend on one pair: each may need more scratch */
        bool hit = false;
        col_status st =
            col_query_overlap(w, s->blob, motion(1, 2), s->box, motion(0, 2), (col_backend)(i - 25), &hit);
        fold_u64(s, (uint64_t)hit);
        return st;
    }
    case 30: {
        col_interframe_result r;
        col_status st = col_query_interframe(w, s->b[0], s->b[1], &r);
        fold_u64(s, (uint64_t)(r.may_have_touched + 2 * r.exact));
        fold_double(s, r.inflation);
        return st;
    }
    case 31: {
        col_distance_input in = {s->blob, s->tet, motion(1, 2), motion(2, 2)};
        col_distance_output o;
        col_status st = col_distance(w, &in, &s->cache, &o);
        fold_distance(s, &o);
        return st;
    }
    case 32: {
        col_distance_output o;
        col_status st = col_body_distance(w, s->b[3], s->b[4], &s->cache, &o);
        fold_distance(s, &o);
        return st;
    }
    case 33: {
        col_contact_input in = {s->box, s->box, at(0, 0, 0), turned(1.9, 0.2, 0, 0.1), 0.05};
        col_contact_output o;
        col_status st = col_contact(w, &in, NULL, &o);
        fold_contact(s, &o);
        return st;
    }
    case 34: {
        col_contact_output o;
        col_status st = col_body_contact(w, s->b[0], s->b[1], 0.1, &s->cache, &o);
        fold_contact(s, &o);
        return st;
    }
    case 35: return col_body_destroy(w, s->b[3]);
    case 36: return col_shape_destroy(w, s->extra);
    case 37: return col_pair_set_enabled(w, s->b[0], s->b[1], true);
    case 38: return col_world_update(w);
    case 39:
        fold_events(s);
        return COL_OK;
    case 40: return make_body(s, 3, s->tet, false); /* b3's slot, next generation */
    case 41: return make_body(s, 6, s->blob, false);
    case 42: return make_body(s, 7, s->box, false);
    case 43: return make_body(s, 8, s->box, true);
    case 44: return col_pair_set_enabled(w, s->b[6], s->b[7], false);
    case 45: {
        col_transform poses[NBODY];
        for (int k = 0; k < NBODY; k++) poses[k] = motion(k % 6, 3);
        return col_body_set_poses(w, s->b, poses, NBODY);
    }
    case 46: return col_world_update(w);
    case 47:
        fold_events(s);
        fold_u64(s, col_world_hash(w));
        return COL_OK;
    case 48: {
        static col_body_id ids[2000];
        for (int k = 0; k < 2000; k++) ids[k] = s->b[k % NBODY];
        static int frame = 4;
        return col_body_set_poses_fn(w, ids, 2000, motion_fn, &frame);
    }
    case 49: return col_world_update(w);
    case 50: {
        fold_events(s);
        col_counters c;
        col_status st = col_world_get_counters(w, &c);
        fold_u64(s, (uint64_t)(c.bodies * 100 + c.colliding_pairs));
        fold_u64(s, col_world_hash(w));
        return st;
    }
    case 51:
        col_world_destroy(w);
        s->w = NULL;
        return COL_OK;
    default: return STEP_END;
    }
}

/* ---- the runs ---- */

enum { MAX_STEPS = 64 };

typedef struct run_result {
    col_status status[MAX_STEPS];
    int steps;
    long step_attempts[MAX_STEPS]; /* allocations each step attempted (its first call) */
    uint64_t step_trace[MAX_STEPS];  /* the trace after each step */
    uint64_t trace;
    long attempts;       /* allocations the run attempted */
    int injected;        /* 1 if the failing allocation was reached */
    int failed_step;     /* the step that met it */
    bool succeeded_anyway; /* that step did without the memory */
} run_result;

/* One run with allocation fail_attempt failing (0: none); ref: the run without failures. */
static void run(col_backend backend, bool app_tasks, long fail_attempt, const run_result *ref, run_result *out)
{
    scen s;
    memset(&s, 0, sizeof s);
    memset(out, 0, sizeof *out);
    s.backend = backend;
    s.app_tasks = app_tasks;
    s.ca.fail_attempt = fail_attempt;
    s.trace = 14695981039346656037ULL;
    out->failed_step = -1;
    for (int i = 0;; i++) {
        assert_true(i < MAX_STEPS);
        uint64_t h = s.w != NULL ? col_world_hash(s.w) : 0;
        long before = s.ca.attempts;
        uint64_t trace = s.trace;
        if (s.w != NULL) s.w->last_error[0] = '\0';
        col_status st = step(&s, i);
        if (st == STEP_END) {
            out->steps = i;
            break;
        }
        out->step_attempts[i] = s.ca.attempts - before;
        bool hit = fail_attempt > before && fail_attempt <= s.ca.attempts;
        if (hit) {
            out->injected = 1;
            out->failed_step = i;
        }
        if (st == COL_ERR_OUT_OF_MEMORY) {
            if (!hit) fail_msg("step %d: out of memory without an injected failure (allocation %ld)", i, fail_attempt);
            if (i == 0) {
                assert_null(s.w);
                assert_int_equal(s.ca.allocs, s.ca.frees);
            } else {
                if (col_world_hash(s.w) != h) fail_msg("step %d: the failed call changed the world", i);
                if (s.w->last_error[0] == '\0') fail_msg("step %d: out of memory without a message", i);
            }
            s.trace = trace; /* what the failed call wrote to its outputs is not an answer */
            st = step(&s, i); /* the failure was one-shot: the retry must succeed */
        } else if (hit) {
            out->succeeded_anyway = true;
        }
        out->status[i] = st;
        out->step_trace[i] = s.trace;
        if (ref != NULL && st != ref->status[i])
            fail_msg("step %d: %s, without failures %s (allocation %ld failed)", i, col_status_string(st),
                     col_status_string(ref->status[i]), fail_attempt);
        if (ref != NULL && s.trace != ref->step_trace[i])
            fail_msg("step %d observed something else than without failures (allocation %ld failed in step %d)", i,
                     fail_attempt, out->failed_step);
    }
    assert_null(s.w); /* the scenario ends with col_world_destroy */
    if (s.ca.allocs != s.ca.frees) fail_msg("allocation %ld failed: %ld blocks leaked", fail_attempt, s.ca.allocs - s.ca.frees);
    out->trace = s.trace;
    out->attempts = s.ca.attempts;
    if (ref != NULL && out->trace != ref->trace)
        fail_msg("allocation %ld failed (step %d): the run observed something else than without failures",
                 fail_attempt, out->failed_step);
}

static void every_allocation(col_backend backend, bool app_tasks)
{
    run_result ref, r;
    run(backend, app_tasks, 0, NULL, &ref);
    for (int i = 0; i < ref.steps; i++) assert_int_equal(ref.status[i], COL_OK);
    long per_step[MAX_STEPS] = {0};
    int anyway = 0;
    long n = 1;
    for (;; n++) {
        run(backend, app_tasks, n, &ref, &r);
        if (!r.injected) break; /* the scenario makes fewer allocations than n */
        per_step[r.failed_step]++;
        anyway += r.succeeded_anyway;
        if (r.succeeded_anyway) print_message("  step %d did without allocation %ld\n", r.failed_step, n);
    }
    print_message("%s%s: %d steps, %ld allocations, each failed once; %d calls did without the memory\n",
                  col_backend_name(backend == COL_BACKEND_DEFAULT ? COL_BACKEND_SEPVEC : backend),
                  app_tasks ? " on the app's task system" : "", ref.steps, n - 1, anyway);
    /* each allocation of each step failed once: as many failures per step as it allocates */
    for (int i = 0; i < ref.steps; i++) {
        if (per_step[i] != ref.step_attempts[i])
            fail_msg("step %d: %ld allocations, %ld failures met", i, ref.step_attempts[i], per_step[i]);
        if (ref.step_attempts[i] > 0) print_message("  step %d: %ld allocations\n", i, ref.step_attempts[i]);
    }
    assert_true(n - 1 > 50);
}

static void test_every_allocation_sepvec(void **state)
{
    (void)state;
    every_allocation(COL_BACKEND_SEPVEC, false);
}

static void test_every_allocation_reference(void **state)
{
    (void)state;
    every_allocation(COL_BACKEND_REFERENCE, false);
}

static void test_every_allocation_lpip(void **state)
{
    (void)state;
    every_allocation(COL_BACKEND_LPIP, false);
}

static void test_every_allocation_voronoi(void **state)
{
    (void)state;
    every_allocation(COL_BACKEND_VORONOI, false);
}

static void test_every_allocation_app_tasks(void **state)
{
    (void)state;
    every_allocation(COL_BACKEND_DEFAULT, true);
}

/* ---- the shape calls of issue 15, each allocation failed in turn ---- */

/* A world (one worker, allocator ca) with a box, a sphere, a capsule and a compound of the
 * box and the sphere, a body of each and one update: the setting of the calls below. */
static col_world *shape_world(counting_alloc *ca, col_shape_id *shapes)
{
    col_world_def def = col_default_world_def();
    def.worker_count = 1;
    def.allocator = counting_hooks(ca);
    col_world *w = NULL;
    assert_int_equal(col_world_create(&def, &w), COL_OK);
    assert_int_equal(col_shape_create_box(w, col_vec3_make(1, 0.5, 0.25), &shapes[0]), COL_OK);
    assert_int_equal(col_shape_create_sphere(w, 0.5, &shapes[1]), COL_OK);
    assert_int_equal(col_shape_create_capsule(w, 1.0, 0.25, &shapes[2]), COL_OK);
    col_compound_child kids[2] = {{shapes[0], turned(-1.5, 0, 0, 0.4)}, {shapes[1], at(1, 0, 0)}};
    assert_int_equal(col_shape_create_compound(w, kids, 2, &shapes[3]), COL_OK);
    for (int k = 0; k < 4; k++) {
        col_body_def d = col_default_body_def();
        d.shape = shapes[k];
        d.pose = at(1.2 * k, 0, 0);
        col_body_id b;
        assert_int_equal(col_body_create(w, &d, &b), COL_OK);
    }
    assert_int_equal(col_world_update(w), COL_OK);
    return w;
}

/* The world-free compound of every kind (a box, a sphere, a capsule, a compound of them),
 * the compound made on hooks (its parts on malloc); *st gets its status. */
static col_geometry *every_kind(const col_allocator *hooks, col_error *err, col_status *st)
{
    col_geometry *g[3], *inner = NULL, *out = NULL;
    assert_int_equal(col_geometry_create_box(NULL, col_vec3_make(1, 0.5, 0.25), &g[0], NULL), COL_OK);
    assert_int_equal(col_geometry_create_sphere(NULL, 0.5, &g[1], NULL), COL_OK);
    assert_int_equal(col_geometry_create_capsule(NULL, 1.0, 0.25, &g[2], NULL), COL_OK);
    col_geometry_child kids[4] = {{g[0], turned(-1.5, 0, 0, 0.4)}, {g[1], at(1, 0, 0)}, {g[2], turned(0, 2, 0, 1.0)}, {NULL, at(0, 0, 3)}};
    assert_int_equal(col_geometry_create_compound(NULL, kids, 2, &inner, NULL), COL_OK);
    kids[3].geometry = inner;
    out = (col_geometry *)(void *)kids; /* must be nulled on failure */
    *st = col_geometry_create_compound(hooks, kids, 4, &out, err);
    for (int k = 0; k < 3; k++) col_geometry_destroy(g[k]);
    col_geometry_destroy(inner);
    return out;
}

/* col_shape_create_compound (which 0) or col_shape_create from a geometry of every kind
 * (which 1) in a fresh world, its Nth allocation failing, for every N: the call answers
 * OUT_OF_MEMORY with a message, a null id and the world's hash unchanged; the world still
 * updates, succeeds when the call is retried, and gives every block back. */
static void world_shape_call(int which)
{
    col_status gst;
    col_geometry *g = every_kind(NULL, NULL, &gst);
    assert_int_equal(gst, COL_OK);
    col_shape_info want;
    long n = 1, per_call = -1;
    for (;; n++) {
        counting_alloc ca = {0};
        col_shape_id shapes[4];
        col_world *w = shape_world(&ca, shapes);
        col_compound_child kids[4] = {{shapes[3], at(0, 0, 3)}, {shapes[2], turned(0, 2, 0, 1.0)}, {shapes[0], at(0, -2, 0)}, {shapes[1], at(0, 0, -2)}};
        uint64_t h = col_world_hash(w);
        long before = ca.attempts;
        ca.fail_attempt = before + n;
        col_shape_id s = {7, 7, 7};
        w->last_error[0] = '\0';
        col_status st = which == 0 ? col_shape_create_compound(w, kids, 4, &s) : col_shape_create(w, g, &s);
        bool injected = ca.attempts >= before + n;
        ca.fail_attempt = 0;
        if (!injected) { /* the call makes fewer than n allocations: the run without failures */
            assert_int_equal(st, COL_OK);
            per_call = ca.attempts - before;
            assert_int_equal(col_shape_get_info(w, s, &want), COL_OK);
            col_world_destroy(w);
            assert_int_equal(ca.allocs, ca.frees);
            break;
        }
        if (st != COL_ERR_OUT_OF_MEMORY) fail_msg("allocation %ld failed: the call returned %s", n, col_status_string(st));
        if (w->last_error[0] == '\0') fail_msg("allocation %ld failed without a message", n);
        assert_true(col_shape_id_is_null(s));
        if (col_world_hash(w) != h) fail_msg("allocation %ld failed and changed the world", n);
        assert_int_equal(col_world_update(w), COL_OK);
        st = which == 0 ? col_shape_create_compound(w, kids, 4, &s) : col_shape_create(w, g, &s);
        assert_int_equal(st, COL_OK);
        col_body_def d = col_default_body_def();
        d.shape = s;
        col_body_id b;
        assert_int_equal(col_body_create(w, &d, &b), COL_OK);
        assert_int_equal(col_world_update(w), COL_OK);
        col_world_destroy(w);
        if (ca.allocs != ca.frees) fail_msg("allocation %ld failed: %ld blocks leaked", n, ca.allocs - ca.frees);
    }
    print_message("%s: %ld allocations, each failed once\n", which == 0 ? "col_shape_create_compound" : "col_shape_create",
                  per_call);
    assert_true(per_call >= 4);
    assert_int_equal(want.kind, COL_SHAPE_COMPOUND);
    assert_int_equal(want.child_count, which == 0 ? 2 + 1 + 1 + 1 : 1 + 1 + 1 + 2);
    col_geometry_destroy(g);
}

static void test_every_allocation_shape_compound(void **state)
{
    (void)state;
    world_shape_call(0);
}

static void test_every_allocation_shape_from_geometry(void **state)
{
    (void)state;
    world_shape_call(1);
}

/* The world-free calls that allocate: col_geometry_create_compound (every kind, nested),
 * col_geometry_clone, col_query_scratch_create, and the queries' first use of a scratch
 * (it grows): each allocation failed in turn, OUT_OF_MEMORY with a message where there
 * is a place for one, *out NULL or zeroed, every block back. */
static void test_every_allocation_world_free(void **state)
{
    (void)state;
    col_status rst;
    col_geometry *ref = every_kind(NULL, NULL, &rst);
    assert_int_equal(rst, COL_OK);
    long counts[3] = {0, 0, 0};
    for (int which = 0; which < 3; which++)
        for (long n = 1;; n++) {
            counting_alloc ca = {0};
            ca.fail_attempt = n;
            col_allocator hooks = counting_hooks(&ca);
            col_error err = {""};
            col_geometry *g = (col_geometry *)(void *)&err;
            col_query_scratch *qs = (col_query_scratch *)(void *)&err;
            col_status st;
            if (which == 0) {
                g = every_kind(&hooks, &err, &st);
            } else if (which == 1) {
                st = col_geometry_clone(&hooks, ref, &g, &err);
            } else {
                st = col_query_scratch_create(&hooks, &qs);
            }
            if (ca.attempts < n) { /* fewer than n allocations: done */
                assert_int_equal(st, COL_OK);
                counts[which] = ca.attempts;
                if (which < 2) col_geometry_destroy(g);
                else col_query_scratch_destroy(qs);
                assert_int_equal(ca.allocs, ca.frees);
                break;
            }
            if (st != COL_ERR_OUT_OF_MEMORY) fail_msg("call %d, allocation %ld: %s", which, n, col_status_string(st));
            if (which < 2 && (g != NULL || err.message[0] == '\0')) fail_msg("call %d, allocation %ld: *out set or no message", which, n);
            if (which == 2) assert_null(qs);
            if (ca.allocs != ca.frees) fail_msg("call %d, allocation %ld: %ld blocks leaked", which, n, ca.allocs - ca.frees);
        }
    print_message("world-free compound of every kind: %ld allocations; clone: %ld; scratch: %ld\n", counts[0], counts[1],
                  counts[2]);
    /* the queries' scratch: its first growth fails, then the query runs */
    for (int q = 0; q < 3; q++) {
        counting_alloc ca = {0};
        col_allocator hooks = counting_hooks(&ca);
        col_query_scratch *qs = NULL;
        assert_int_equal(col_query_scratch_create(&hooks, &qs), COL_OK);
        long before = ca.attempts;
        ca.fail_attempt = before + 1;
        bool hit = false;
        col_distance_output d;
        col_contact_output c;
        col_status st = q == 0   ? col_geometry_overlap(ref, at(0, 0, 0), ref, at(0.5, 0, 0), COL_BACKEND_REFERENCE, qs, &hit)
                        : q == 1 ? col_geometry_distance(ref, at(0, 0, 0), ref, at(0.5, 0, 0), NULL, qs, &d)
                                 : col_geometry_contact(ref, at(0, 0, 0), ref, at(0.5, 0, 0), 0.1, NULL, qs, &c);
        assert_true(ca.attempts > before); /* the hull pieces need scratch */
        assert_int_equal(st, COL_ERR_OUT_OF_MEMORY);
        assert_true(col_query_scratch_last_error(qs)[0] != '\0');
        if (q == 1) assert_true(d.outcome == 0 && d.distance == 0.0 && d.steps == 0);
        if (q == 2) assert_true(c.point_count == 0 && c.steps == 0);
        st = q == 0   ? col_geometry_overlap(ref, at(0, 0, 0), ref, at(0.5, 0, 0), COL_BACKEND_REFERENCE, qs, &hit)
             : q == 1 ? col_geometry_distance(ref, at(0, 0, 0), ref, at(0.5, 0, 0), NULL, qs, &d)
                      : col_geometry_contact(ref, at(0, 0, 0), ref, at(0.5, 0, 0), 0.1, NULL, qs, &c);
        assert_int_equal(st, COL_OK);
        if (q == 0) assert_true(hit);
        if (q == 1) assert_int_equal(d.outcome, COL_DISTANCE_PENETRATING);
        col_query_scratch_destroy(qs);
        assert_int_equal(ca.allocs, ca.frees);
    }
    col_geometry_destroy(ref);
}

/* A small open wavy patch of 2 n^2 triangles, and a point triangle (degenerate). */
#define OOM_MESH_N 6
static col_mesh_def oom_mesh(col_vec3 *v, uint32_t *t)
{
    const int n = OOM_MESH_N;
    int nv = 0, nt = 0;
    for (int i = 0; i <= n; i++)
        for (int j = 0; j <= n; j++) v[nv++] = col_vec3_make(i * 0.5 - 1.5, j * 0.5 - 1.5, 0.1 * ((i * 7 + j * 3) % 5));
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            uint32_t a = (uint32_t)(i * (n + 1) + j), b = a + 1, c = a + (uint32_t)(n + 1), d = c + 1;
            const uint32_t q[6] = {a, b, d, a, d, c};
            memcpy(&t[3 * nt], q, sizeof q);
            nt += 2;
        }
    t[3 * nt] = t[3 * nt + 1] = t[3 * nt + 2] = 0;
    nt++;
    col_mesh_def def = col_default_mesh_def();
    def.vertices = v;
    def.vertex_count = nv;
    def.indices = t;
    def.triangle_count = nt;
    return def;
}

/* col_shape_create_mesh in a world of every other kind, its Nth allocation failing, for
 * every N: OUT_OF_MEMORY with a message, a null id and the hash unchanged; the world still
 * updates, the retried call succeeds, its body collides with the box lying on it, and
 * every block comes back. Then the world-free col_geometry_create_mesh and the clone of
 * a mesh, each allocation failed in turn. */
static void test_every_allocation_mesh(void **state)
{
    (void)state;
    col_vec3 v[(OOM_MESH_N + 1) * (OOM_MESH_N + 1)];
    uint32_t t[3 * (2 * OOM_MESH_N * OOM_MESH_N + 1)];
    col_mesh_def def = oom_mesh(v, t);
    long n = 1, per_call = -1;
    for (;; n++) {
        counting_alloc ca = {0};
        col_shape_id shapes[4];
        col_world *w = shape_world(&ca, shapes);
        uint64_t h = col_world_hash(w);
        long before = ca.attempts;
        ca.fail_attempt = before + n;
        col_shape_id s = {7, 7, 7};
        w->last_error[0] = '\0';
        col_status st = col_shape_create_mesh(w, &def, &s);
        bool injected = ca.attempts >= before + n;
        ca.fail_attempt = 0;
        if (!injected) {
            assert_int_equal(st, COL_OK);
            per_call = ca.attempts - before;
            col_world_destroy(w);
            assert_int_equal(ca.allocs, ca.frees);
            break;
        }
        if (st != COL_ERR_OUT_OF_MEMORY) fail_msg("allocation %ld failed: the call returned %s", n, col_status_string(st));
        if (w->last_error[0] == '\0') fail_msg("allocation %ld failed without a message", n);
        assert_true(col_shape_id_is_null(s));
        if (col_world_hash(w) != h) fail_msg("allocation %ld failed and changed the world", n);
        assert_int_equal(col_world_update(w), COL_OK);
        assert_int_equal(col_shape_create_mesh(w, &def, &s), COL_OK);
        col_body_def d = col_default_body_def();
        d.shape = s;
        d.pose = at(0, 0, -0.5); /* the box of body 0 (half height 0.25) meets the patch */
        col_body_id b;
        assert_int_equal(col_body_create(w, &d, &b), COL_OK);
        assert_int_equal(col_world_update(w), COL_OK);
        col_pair_events ev = col_world_get_pair_events(w);
        bool mesh_pair = false;
        for (int i = 0; i < ev.pair_count; i++)
            mesh_pair = mesh_pair || col_body_id_equals(ev.pairs[i].a, b) || col_body_id_equals(ev.pairs[i].b, b);
        assert_true(mesh_pair);
        col_world_destroy(w);
        if (ca.allocs != ca.frees) fail_msg("allocation %ld failed: %ld blocks leaked", n, ca.allocs - ca.frees);
    }
    print_message("col_shape_create_mesh: %ld allocations, each failed once\n", per_call);
    assert_true(per_call >= 2);
    col_geometry *ref = NULL;
    assert_int_equal(col_geometry_create_mesh(NULL, &def, &ref, NULL), COL_OK);
    long counts[2] = {0, 0};
    for (int which = 0; which < 2; which++)
        for (long k = 1;; k++) {
            counting_alloc ca = {0};
            ca.fail_attempt = k;
            col_allocator hooks = counting_hooks(&ca);
            col_error err = {""};
            col_geometry *g = (col_geometry *)(void *)&err;
            col_status st = which == 0 ? col_geometry_create_mesh(&hooks, &def, &g, &err) : col_geometry_clone(&hooks, ref, &g, &err);
            if (ca.attempts < k) {
                assert_int_equal(st, COL_OK);
                counts[which] = ca.attempts;
                col_shape_info info;
                assert_int_equal(col_geometry_get_info(g, &info), COL_OK);
                assert_int_equal(info.triangle_count, def.triangle_count);
                col_geometry_destroy(g);
                assert_int_equal(ca.allocs, ca.frees);
                break;
            }
            if (st != COL_ERR_OUT_OF_MEMORY) fail_msg("call %d, allocation %ld: %s", which, k, col_status_string(st));
            if (g != NULL || err.message[0] == '\0') fail_msg("call %d, allocation %ld: *out set or no message", which, k);
            if (ca.allocs != ca.frees) fail_msg("call %d, allocation %ld: %ld blocks leaked", which, k, ca.allocs - ca.frees);
        }
    print_message("col_geometry_create_mesh: %ld allocations; clone of a mesh: %ld\n", counts[0], counts[1]);
    col_geometry_destroy(ref);
}

/* ---- a teleport in an update that fails after the bounds step, then retried ---- */

/* Whether the last update reported bodies a and b as colliding. */
static bool reported(const col_world *w, col_body_id a, col_body_id b)
{
    col_pair_events ev = col_world_get_pair_events(w);
    for (int k = 0; k < ev.pair_count; k++)
        if ((ev.pairs[k].a.index1 == a.index1 && ev.pairs[k].b.index1 == b.index1) ||
            (ev.pairs[k].a.index1 == b.index1 && ev.pairs[k].b.index1 == a.index1))
            return true;
    return false;
}

/* Two unit spheres whose boxes overlap but which are 0.27 apart, still for 3 updates, so
 * their pair sleeps for many frames (COL_SCHEDULE_TTC); then A jumps onto B (an exact
 * overlap: the same centre) while 40 new bodies make the update allocate after its bounds
 * step (broad phase, pair set, pair cache). Each of those allocations fails in turn: the
 * retried update must report A and B and arm A with the motion bound of an update that
 * did not fail (A's motion measured from the pose before the jump, not from the one the
 * failed update already applied: a bound too small would let later pairs sleep too long). */
static void test_retried_update_measures_the_jump(void **state)
{
    (void)state;
    int failures = 0;
    double ref_bound = 0.0;
    for (long k = 0;; k++) { /* k = 0: the reference, no failure */
        counting_alloc ca = {0};
        col_world_def def = col_default_world_def();
        def.worker_count = 1;
        def.schedule = COL_SCHEDULE_TTC;
        def.allocator = counting_hooks(&ca);
        col_world *w = NULL;
        assert_int_equal(col_world_create(&def, &w), COL_OK);
        col_shape_id ball;
        assert_int_equal(col_shape_create_sphere(w, 0.5, &ball), COL_OK);
        col_body_def d = col_default_body_def();
        d.shape = ball;
        col_body_id a, b, more;
        d.pose = at(0, 0, 0);
        assert_int_equal(col_body_create(w, &d, &a), COL_OK);
        d.pose = at(0.9, 0.9, 0);
        assert_int_equal(col_body_create(w, &d, &b), COL_OK);
        for (int f = 0; f < 3; f++) {
            assert_int_equal(col_body_set_pose(w, a, at(0, 0, 0)), COL_OK);
            assert_int_equal(col_world_update(w), COL_OK);
            assert_false(reported(w, a, b));
        }
        col_counters c;
        assert_int_equal(col_world_get_counters(w, &c), COL_OK);
        assert_int_equal(c.sleeping_pairs, 1);
        assert_int_equal(col_body_set_pose(w, a, at(0.9, 0.9, 0)), COL_OK);
        for (int i = 0; i < 40; i++) {
            d.pose = at(50 + 0.6 * i, 0, 0);
            assert_int_equal(col_body_create(w, &d, &more), COL_OK);
        }
        ca.fail_attempt = k > 0 ? ca.attempts + k : 0;
        col_status st = col_world_update(w);
        bool hit = k == 0 || ca.attempts >= ca.fail_attempt;
        ca.fail_attempt = 0;
        if (st == COL_ERR_OUT_OF_MEMORY) {
            failures++;
            st = col_world_update(w);
        }
        assert_int_equal(st, COL_OK);
        if (!reported(w, a, b)) fail_msg("allocation %ld of the update failed: A's jump onto B went unseen", k);
        double bound = w->bodies[a.index1 - 1].motion_bound;
        if (k == 0) ref_bound = bound;
        else if (bound != ref_bound)
            fail_msg("allocation %ld of the update failed: A's motion bound %.17g, %.17g without the failure", k, bound,
                     ref_bound);
        col_world_destroy(w);
        assert_int_equal(ca.allocs, ca.frees);
        if (!hit) break;
    }
    print_message("retried update: %d allocations of the update failed in turn\n", failures);
    assert_true(failures > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_allocation_sepvec),
        cmocka_unit_test(test_every_allocation_reference),
        cmocka_unit_test(test_every_allocation_lpip),
        cmocka_unit_test(test_every_allocation_voronoi),
        cmocka_unit_test(test_every_allocation_app_tasks),
        cmocka_unit_test(test_every_allocation_shape_compound),
        cmocka_unit_test(test_every_allocation_shape_from_geometry),
        cmocka_unit_test(test_every_allocation_world_free),
        cmocka_unit_test(test_every_allocation_mesh),
        cmocka_unit_test(test_retried_update_measures_the_jump),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
