/* SPDX-License-Identifier: MIT */
/* Threads (issue 7): col_parallel_for covers every item exactly once, on the world's
 * pool and on app task systems (Box2D v3's enqueue/finish contract), and a world's
 * results do not depend on its worker count: scenes replayed with 1, 2, 3, 4 and 8
 * workers, with other pinning policies and with app task systems (serial inline, deferred
 * to finish_task, NULL without running, one thread per task) give the same pair list,
 * events, counters, col_world_hash and pair-cache contents after every frame.
 * Scenes: a random one built here (statics, filters, disabled pairs, bodies added and
 * removed, bodies at rest), and scenes that the build makes with our generator
 * (bench/scene_gen.c): small ones, and the first frames of three made with the options of
 * standard scenes.
 * Also two worlds on two threads at once, each thread asking its own world's world-free
 * queries between updates (issue 13).
 * Runs under ThreadSanitizer in scripts/test (build-tsan, suite threads). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/scene.h"
#include "broadphase/sap.h"
#include "colibri/colibri.h"
#include "lib/core/alloc.h"
#include "lib/parallel.h"
#include "lib/world.h"
#include "tests/test_util.h"
#include "test_scenes.h"
#include "lib/core/fnv.h"

/* ---- helpers ---- */

/* A pair list by slots and generations: the ids' world tags differ between the worlds
 * compared (include/colibri/id.h). */
static uint64_t fnv_pairs(uint64_t h, const col_pair *pairs, int n)
{
    for (int i = 0; i < n; i++) {
        const uint32_t v[4] = {pairs[i].a.index1, pairs[i].a.generation, pairs[i].b.index1, pairs[i].b.generation};
        h = col_fnv1a(h, v, sizeof v);
    }
    return h;
}

/* ---- app task systems (the three-callback contract of types.h) ---- */

enum { SYS_POOL, SYS_INLINE, SYS_DEFERRED, SYS_NULL_NORUN, SYS_THREAD_PER_TASK };
static const char *const sys_name[] = {"pool", "inline", "deferred", "null-norun", "thread-per-task"};

typedef struct user_task {
    col_task_fn *fn;
    void *ctx;
    int done;
    pthread_t thread;
} user_task;

typedef struct user_tasks {
    int mode;
    int enqueued, finished; /* called on the world's calling thread only */
    /* Deferred system, while a parallel_for over `check_count` items runs: at every
     * finish_task of a task that has not started, each item must already be done (the
     * caller never waits for a task the app's scheduler runs late; issue 12). */
    atomic_int *check_hits;
    int check_count, late_finish_checked;
    int next;
    user_task tasks[COL_MAX_WORKERS];
} user_tasks;

static void *task_thread(void *arg)
{
    user_task *t = arg;
    t->fn(t->ctx);
    return NULL;
}

/* inline: runs the task in the callback and returns NULL (Box2D's serial example);
 * null-norun: returns NULL without running it (Colibri must run it itself);
 * deferred: records it, finish_task runs it; thread-per-task: a thread runs it, finish
 * joins it (a real parallel task system, for ThreadSanitizer). */
static void *app_enqueue(col_task_fn *fn, void *task_ctx, void *user_ctx)
{
    user_tasks *u = user_ctx;
    u->enqueued++;
    if (u->mode == SYS_INLINE) {
        fn(task_ctx);
        return NULL;
    }
    if (u->mode == SYS_NULL_NORUN) return NULL;
    user_task *t = &u->tasks[u->next];
    u->next = (u->next + 1) % COL_MAX_WORKERS;
    t->fn = fn;
    t->ctx = task_ctx;
    t->done = 0;
    if (u->mode == SYS_THREAD_PER_TASK && pthread_create(&t->thread, NULL, task_thread, t) != 0) {
        fn(task_ctx); /* could not defer: ran inline */
        return NULL;
    }
    return t;
}

static void app_finish(void *handle, void *user_ctx)
{
    user_tasks *u = user_ctx;
    user_task *t = handle;
    u->finished++;
    if (u->mode == SYS_THREAD_PER_TASK) {
        pthread_join(t->thread, NULL);
    } else if (!t->done) {
        if (u->check_hits != NULL) {
            for (int i = 0; i < u->check_count; i++)
                if (atomic_load(&u->check_hits[i]) != 1) fail_msg("finish_task of a late task: item %d not done yet", i);
            u->late_finish_checked++;
        }
        t->fn(t->ctx);
        t->done = 1;
    }
}

/* A world with `workers` workers on task system sys (u: its state, or NULL for the pool). */
static col_world *make_world(int workers, int sys, user_tasks *u)
{
    col_world_def def = col_default_world_def();
    def.worker_count = workers;
    if (sys != SYS_POOL) {
        memset(u, 0, sizeof *u);
        u->mode = sys;
        def.enqueue_task = app_enqueue;
        def.finish_task = app_finish;
        def.user_task_ctx = u;
    }
    col_world *w = NULL;
    assert_int_equal(col_world_create(&def, &w), COL_OK);
    assert_non_null(w);
    return w;
}

/* ---- parallel_for covers every item exactly once ---- */

typedef struct cover_ctx {
    col_world *w;
    atomic_int *hits;
    atomic_int busy[COL_MAX_WORKERS];
    atomic_int violations;
    atomic_int calls;
} cover_ctx;

static void cover_fn(int begin, int end, int worker_index, void *ctx)
{
    cover_ctx *c = ctx;
    int k = worker_index;
    /* The worker index is exclusive: nobody else may be inside with the same one. */
    if (k < 0 || k >= c->w->worker_count || c->w->workers[k].index != k || begin < 0 || end <= begin ||
        atomic_exchange(&c->busy[k], 1) != 0) {
        atomic_fetch_add(&c->violations, 1);
        return;
    }
    for (int i = begin; i < end; i++) atomic_fetch_add_explicit(&c->hits[i], 1, memory_order_relaxed);
    atomic_fetch_add(&c->calls, 1);
    atomic_store(&c->busy[k], 0);
}

static void test_parallel_for_covers_each_item_once(void **state)
{
    (void)state;
    static const int counts[] = {0, 1, 2, 3, 7, 63, 64, 65, 100, 1000, 4097, 10007};
    static const int ranges[] = {0, 1, 3, 64, 1000};
    static const int workers[] = {1, 2, 3, 4, 8};
    const int max_count = 10007;
    atomic_int *hits = malloc(sizeof *hits * (size_t)max_count);
    assert_non_null(hits);
    int runs = 0;
    for (int sys = SYS_POOL; sys <= SYS_THREAD_PER_TASK; sys++) {
        for (size_t wi = 0; wi < sizeof workers / sizeof workers[0]; wi++) {
            user_tasks u;
            col_world *w = make_world(workers[wi], sys, &u);
            assert_int_equal(w->worker_count, workers[wi]);
            for (size_t ci = 0; ci < sizeof counts / sizeof counts[0]; ci++) {
                for (size_t ri = 0; ri < sizeof ranges / sizeof ranges[0]; ri++) {
                    /* The thread-per-task system is slow to start: fewer combinations. */
                    if (sys == SYS_THREAD_PER_TASK && ri % 2 == 1) continue;
                    int n = counts[ci];
                    cover_ctx c;
                    memset(&c, 0, sizeof c);
                    c.w = w;
                    c.hits = hits;
                    for (int i = 0; i < n; i++) atomic_init(&hits[i], 0);
                    for (int k = 0; k < COL_MAX_WORKERS; k++) atomic_init(&c.busy[k], 0);
                    atomic_init(&c.violations, 0);
                    atomic_init(&c.calls, 0);
                    if (sys == SYS_DEFERRED) {
                        u.check_hits = hits;
                        u.check_count = n;
                    }
                    col_parallel_for(w, cover_fn, n, ranges[ri], &c);
                    u.check_hits = NULL;
                    assert_int_equal(atomic_load(&c.violations), 0);
                    for (int i = 0; i < n; i++)
                        if (atomic_load(&hits[i]) != 1)
                            fail_msg("%s, %d workers, count %d, min_range %d: item %d run %d times", sys_name[sys],
                                     workers[wi], n, ranges[ri], i, atomic_load(&hits[i]));
                    if (n > 0) assert_true(atomic_load(&c.calls) >= 1);
                    runs++;
                }
            }
            if (sys != SYS_POOL && workers[wi] > 1) {
                assert_true(u.enqueued > 0);
                if (sys == SYS_DEFERRED) assert_true(u.late_finish_checked > 0);
                if (sys != SYS_INLINE && sys != SYS_NULL_NORUN) assert_int_equal(u.finished, u.enqueued);
            }
            col_world_destroy(w);
        }
    }
    print_message("%d parallel_for runs, every item exactly once\n", runs);
    free(hits);
}

/* ---- world defs ---- */

static void test_worker_defs(void **state)
{
    (void)state;
    col_world *w = NULL;
    col_world_def def = col_default_world_def();
    def.worker_count = COL_MAX_WORKERS + 1;
    assert_int_equal(col_world_create(&def, &w), COL_ERR_INVALID_ARGUMENT);
    def = col_default_world_def();
    def.worker_count = -1;
    assert_int_equal(col_world_create(&def, &w), COL_ERR_INVALID_ARGUMENT);
    def = col_default_world_def();
    def.enqueue_task = app_enqueue; /* without finish_task */
    assert_int_equal(col_world_create(&def, &w), COL_ERR_INVALID_ARGUMENT);
    def = col_default_world_def();
    def.pinning = COL_PIN_CPUS; /* without a CPU list */
    assert_int_equal(col_world_create(&def, &w), COL_ERR_INVALID_ARGUMENT);
    int bad_cpu = -1;
    def.pin_cpus = &bad_cpu;
    def.pin_cpu_count = 1;
    assert_int_equal(col_world_create(&def, &w), COL_ERR_INVALID_ARGUMENT);
    def = col_default_world_def();
    def.pinning = (col_thread_pinning)77;
    assert_int_equal(col_world_create(&def, &w), COL_ERR_INVALID_ARGUMENT);
    assert_null(w);

    /* Default: one worker per physical core, the pool threads left to the OS (a pinned
     * thread cannot leave a core that another process holds: docs/threads.md). */
    def = col_default_world_def();
    assert_int_equal(def.pinning, COL_PIN_NONE);
    assert_int_equal(col_world_create(&def, &w), COL_OK);
    col_counters c;
    assert_int_equal(col_world_get_counters(w, &c), COL_OK);
    print_message("default: %d workers (%ld online CPUs), %d pool threads bound\n", c.workers,
                  sysconf(_SC_NPROCESSORS_ONLN), col_thread_pool_bound_count(w->pool));
    assert_true(c.workers >= 1 && c.workers <= COL_MAX_WORKERS);
    assert_int_equal(c.workers, col_thread_pool_default_workers());
    assert_int_equal(col_thread_pool_bound_count(w->pool), 0);
    col_world_destroy(w);
    def.pinning = COL_PIN_CORES;
    def.worker_count = 2;
    assert_int_equal(col_world_create(&def, &w), COL_OK);
    print_message("COL_PIN_CORES, 2 workers: %d pool thread bound\n", col_thread_pool_bound_count(w->pool));
    col_world_destroy(w);
    def = col_default_world_def();

    /* worker_count 1 makes no threads at all. */
    def.worker_count = 1;
    assert_int_equal(col_world_create(&def, &w), COL_OK);
    assert_null(w->pool);
    assert_int_equal(w->worker_count, 1);
    col_world_destroy(w);

    /* Unpinned threads are never bound; a CPU list with worker_count 0 means one
     * worker per entry (CPU 0 exists everywhere). */
    def = col_default_world_def();
    def.worker_count = 3;
    def.pinning = COL_PIN_NONE;
    assert_int_equal(col_world_create(&def, &w), COL_OK);
    assert_int_equal(col_thread_pool_bound_count(w->pool), 0);
    col_world_destroy(w);
    static const int cpus[] = {0, 0, 0};
    def = col_default_world_def();
    def.pinning = COL_PIN_CPUS;
    def.pin_cpus = cpus;
    def.pin_cpu_count = 3;
    assert_int_equal(col_world_create(&def, &w), COL_OK);
    assert_int_equal(w->worker_count, 3);
    print_message("COL_PIN_CPUS {0, 0, 0}: %d of 2 pool threads bound\n", col_thread_pool_bound_count(w->pool));
    col_world_destroy(w);
}

/* ---- scenes ---- */

/* A scene as closed-form motion (as docs/scenes.md defines scenes): the pose of any body at any frame,
 * so every replay sees the same doubles whatever the world does. */
typedef struct scene {
    const char *name;
    int frames;
    /* either a bench scene ... */
    const bench_scene *bench;
    int bench_bodies; /* the first bench_bodies bodies of it */
    /* ... or the random scene built here */
    int shape_count;
    col_vec3 *points[8];
    int point_count[8];
    int body_count;
    int teleport_frame; /* from this frame on every third moving body is elsewhere */
    struct rbody {
        int shape;
        double p0[3], v[3], axis[3], spin, lo, hi;
        col_quat q0;
        bool is_static, rests_on_odd_frames;
        uint32_t group, mask;
    } *bodies;
} scene;

static col_transform random_pose(const scene *sc, int b, int f)
{
    const struct rbody *r = &sc->bodies[b];
    col_transform t = col_transform_identity();
    double p[3];
    double jump = !r->is_static && sc->teleport_frame > 0 && f >= sc->teleport_frame && b % 3 == 0 ? 0.37 : 0;
    for (int k = 0; k < 3; k++) {
        double span = r->hi - r->lo, s = r->p0[k] + jump * span + (r->is_static ? 0 : r->v[k] * f) - r->lo;
        double m = fmod(s, 2 * span);
        if (m < 0) m += 2 * span;
        p[k] = r->lo + (m <= span ? m : 2 * span - m);
    }
    t.p = col_vec3_make(p[0], p[1], p[2]);
    double a = r->is_static ? 0 : r->spin * f, sa = sin(a / 2), ca = cos(a / 2);
    col_quat d = {r->axis[0] * sa, r->axis[1] * sa, r->axis[2] * sa, ca}, q = r->q0;
    col_quat o = {d.w * q.x + d.x * q.w + d.y * q.z - d.z * q.y, d.w * q.y - d.x * q.z + d.y * q.w + d.z * q.x,
                  d.w * q.z + d.x * q.y - d.y * q.x + d.z * q.w, d.w * q.w - d.x * q.x - d.y * q.y - d.z * q.z};
    double n = sqrt(o.x * o.x + o.y * o.y + o.z * o.z + o.w * o.w);
    t.q = (col_quat){o.x / n, o.y / n, o.z / n, o.w / n};
    return t;
}

static col_transform scene_pose(const scene *sc, int b, int f)
{
    return sc->bench != NULL ? bench_scene_pose(sc->bench, b, f) : random_pose(sc, b, f);
}

static int scene_bodies(const scene *sc) { return sc->bench != NULL ? sc->bench_bodies : sc->body_count; }

/* n bodies of 6 shapes (blobs and boxes, 12 to 60 points) in a room of side `room`
 * (600 in 20: about a thousand candidate pairs a frame, so every step is cut into many
 * blocks). One in ten is static, one in four rests on odd frames (answers reused), a
 * few filter groups; with a teleport frame, a third of the moving bodies jump then. */
static void build_random_scene(scene *sc, const char *name, int n, double room, int frames, int teleport_frame)
{
    memset(sc, 0, sizeof *sc);
    sc->name = name;
    sc->frames = frames;
    sc->teleport_frame = teleport_frame;
    sc->shape_count = 6;
    for (int s = 0; s < sc->shape_count; s++) {
        int n = 12 + 10 * s;
        sc->point_count[s] = n;
        sc->points[s] = malloc(sizeof(col_vec3) * (size_t)n);
        double ax = urange(0.4, 1.0), ay = urange(0.3, 0.9), az = urange(0.2, 0.8);
        for (int i = 0; i < n; i++) {
            if (s % 3 == 2 && i < 8) {
                sc->points[s][i] = col_vec3_make(i & 1 ? ax : -ax, i & 2 ? ay : -ay, i & 4 ? az : -az);
                continue;
            }
            double x, y, z, r2;
            do {
                x = urange(-1, 1), y = urange(-1, 1), z = urange(-1, 1);
                r2 = x * x + y * y + z * z;
            } while (r2 < 1e-4 || r2 > 1);
            double r = sqrt(r2);
            sc->points[s][i] = col_vec3_make(ax * x / r, ay * y / r, az * z / r);
        }
    }
    sc->body_count = n;
    sc->bodies = calloc((size_t)sc->body_count, sizeof *sc->bodies);
    for (int b = 0; b < sc->body_count; b++) {
        struct rbody *r = &sc->bodies[b];
        r->shape = b % sc->shape_count;
        r->lo = 1.0;
        r->hi = room - 1.0;
        for (int k = 0; k < 3; k++) {
            r->p0[k] = urange(r->lo, r->hi);
            r->v[k] = urange(-0.15, 0.15);
        }
        double ux, uy, uz, n;
        do {
            ux = urange(-1, 1), uy = urange(-1, 1), uz = urange(-1, 1);
            n = sqrt(ux * ux + uy * uy + uz * uz);
        } while (n < 0.1 || n > 1);
        r->axis[0] = ux / n, r->axis[1] = uy / n, r->axis[2] = uz / n;
        r->spin = urange(0, 0.3);
        r->q0 = random_quat();
        r->is_static = b % 10 == 3;
        r->rests_on_odd_frames = b % 4 == 1;
        r->group = b % 7 == 0 ? 2u : 1u;
        r->mask = b % 11 == 0 ? ~2u : ~0u;
    }
}

static void free_random_scene(scene *sc)
{
    for (int s = 0; s < sc->shape_count; s++) free(sc->points[s]);
    free(sc->bodies);
}

/* ---- replay ---- */

/* One number per frame for everything the update left behind: the pair list, events and
 * counters, col_world_hash, and every pair record with its cache slot (header and the
 * backend's coherence data, byte for byte). */
static uint64_t frame_hash(const col_world *w)
{
    uint64_t h = col_world_hash(w);
    col_pair_events ev = col_world_get_pair_events(w);
    h = fnv_pairs(h, ev.pairs, ev.pair_count);
    h = fnv_pairs(h, ev.began, ev.began_count);
    h = fnv_pairs(h, ev.ended, ev.ended_count);
    col_counters c;
    col_world_get_counters(w, &c);
    int cnt[] = {c.bodies, c.static_bodies, c.broadphase_pairs, c.narrow_calls, c.colliding_pairs, c.began, c.ended,
                 col_sap_rebuild_count(w->sap)};
    h = col_fnv1a(h, cnt, sizeof cnt);
    int nrec = 0;
    const col_bp_pair *rec = col_pair_set_records(col_sap_pair_set(w->sap), &nrec);
    for (int i = 0; i < nrec; i++) {
        h = col_fnv1a(h, &rec[i].a, sizeof rec[i].a);
        h = col_fnv1a(h, &rec[i].b, sizeof rec[i].b);
        h = col_fnv1a(h, &rec[i].user, sizeof rec[i].user);
        if (rec[i].user == COL_PAIR_NO_USER) continue;
        const col_pair_slot *slot = col_pair_cache_slot(&w->pair_cache, rec[i].user);
        h = col_fnv1a(h, &slot->tested_frame, sizeof slot->tested_frame);
        h = col_fnv1a(h, &slot->colliding, sizeof slot->colliding);
        h = col_fnv1a(h, col_pair_cache_backend_data(&w->pair_cache, rec[i].user), w->backend->cache_size);
    }
    return h;
}

typedef struct replay_out {
    uint64_t *hash;         /* per frame */
    long pairs, narrow;     /* summed over the frames */
    int max_records;        /* most candidate pairs in a frame */
    int rebuilds;           /* broad-phase rebuilds (bulk loads, event-pool overflows) */
} replay_out;

/* Replays sc on a world of `workers` workers and task system sys (pinning: the pool's
 * policy). The random scene also removes bodies, adds new ones and disables pairs. */
static void replay(const scene *sc, int workers, int sys, col_thread_pinning pinning, replay_out *out)
{
    user_tasks u;
    col_world_def def = col_default_world_def();
    def.worker_count = workers;
    def.pinning = pinning;
    if (sys != SYS_POOL) {
        memset(&u, 0, sizeof u);
        u.mode = sys;
        def.enqueue_task = app_enqueue;
        def.finish_task = app_finish;
        def.user_task_ctx = &u;
    }
    col_world *w = NULL;
    assert_int_equal(col_world_create(&def, &w), COL_OK);
    int nshape = sc->bench != NULL ? sc->bench->shape_count : sc->shape_count;
    col_shape_id *shapes = calloc((size_t)nshape, sizeof *shapes);
    for (int s = 0; s < nshape; s++) {
        const col_vec3 *p = sc->bench != NULL ? sc->bench->shapes[s].vertices : sc->points[s];
        int n = sc->bench != NULL ? sc->bench->shapes[s].vertex_count : sc->point_count[s];
        assert_int_equal(col_shape_create_convex(w, p, n, &shapes[s]), COL_OK);
    }
    int nb = scene_bodies(sc);
    col_body_id *ids = calloc((size_t)nb, sizeof *ids);
    bool *live = calloc((size_t)nb, sizeof *live);
    int first_late = sc->bench != NULL ? nb : nb - 20; /* the random scene's last 20 join at frame 6 */
    for (int b = 0; b < first_late; b++) {
        col_body_def d = col_default_body_def();
        d.shape = shapes[sc->bench != NULL ? sc->bench->bodies[b].shape : sc->bodies[b].shape];
        d.pose = scene_pose(sc, b, 0);
        if (sc->bench == NULL) {
            d.is_static = sc->bodies[b].is_static;
            d.filter_group = sc->bodies[b].group;
            d.filter_mask = sc->bodies[b].mask;
        }
        assert_int_equal(col_body_create(w, &d, &ids[b]), COL_OK);
        live[b] = true;
    }
    memset(out, 0, sizeof *out);
    out->hash = calloc((size_t)sc->frames, sizeof *out->hash);
    for (int f = 0; f < sc->frames; f++) {
        if (sc->bench == NULL) {
            if (f == 4)
                for (int b = 0; b < 15; b++) {
                    assert_int_equal(col_body_destroy(w, ids[3 * b]), COL_OK);
                    live[3 * b] = false;
                }
            if (f == 6)
                for (int b = first_late; b < nb; b++) {
                    col_body_def d = col_default_body_def();
                    d.shape = shapes[sc->bodies[b].shape];
                    d.pose = scene_pose(sc, b, f);
                    assert_int_equal(col_body_create(w, &d, &ids[b]), COL_OK);
                    live[b] = true;
                }
            if (f == 3 || f == 9)
                for (int b = 1; b + 1 < 60; b += 2)
                    if (live[b] && live[b + 1])
                        assert_int_equal(col_pair_set_enabled(w, ids[b], ids[b + 1], f == 9), COL_OK);
        }
        for (int b = 0; b < nb; b++) {
            if (!live[b]) continue;
            if (sc->bench == NULL && (sc->bodies[b].is_static || (sc->bodies[b].rests_on_odd_frames && f % 2 == 1)))
                continue;
            assert_int_equal(col_body_set_pose(w, ids[b], scene_pose(sc, b, f)), COL_OK);
        }
        assert_int_equal(col_world_update(w), COL_OK);
        out->hash[f] = frame_hash(w);
        col_counters c;
        col_world_get_counters(w, &c);
        assert_int_equal(c.workers, workers);
        out->pairs += c.colliding_pairs;
        out->narrow += c.narrow_calls;
        if (c.broadphase_pairs > out->max_records) out->max_records = c.broadphase_pairs;
    }
    if (sys != SYS_POOL && workers > 1) assert_true(u.enqueued > 0);
    out->rebuilds = col_sap_rebuild_count(w->sap);
    col_world_destroy(w);
    free(live);
    free(ids);
    free(shapes);
}

/* Replays sc with 1 worker, then 2, 3, 4, 8 on the pool, other pinning policies and the
 * app task systems, and requires the same hash after every frame. */
static void replay_all(const scene *sc)
{
    replay_out ref;
    replay(sc, 1, SYS_POOL, COL_PIN_CORES, &ref);
    print_message("%s: %d bodies, %d frames, %ld colliding pairs, %ld narrow calls, up to %d candidate pairs, "
                  "%d broad-phase rebuilds\n",
                  sc->name, scene_bodies(sc), sc->frames, ref.pairs, ref.narrow, ref.max_records, ref.rebuilds);
    assert_true(ref.pairs > 0);
    static const struct {
        int workers, sys;
        col_thread_pinning pin;
    } runs[] = {
        {2, SYS_POOL, COL_PIN_CORES},       {3, SYS_POOL, COL_PIN_CORES},       {4, SYS_POOL, COL_PIN_CORES},
        {8, SYS_POOL, COL_PIN_CORES},       {2, SYS_POOL, COL_PIN_NONE},        {8, SYS_POOL, COL_PIN_NONE},
        {4, SYS_INLINE, COL_PIN_CORES},     {4, SYS_DEFERRED, COL_PIN_CORES},   {3, SYS_NULL_NORUN, COL_PIN_CORES},
        {4, SYS_THREAD_PER_TASK, COL_PIN_CORES},
    };
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        replay_out o;
        replay(sc, runs[k].workers, runs[k].sys, runs[k].pin, &o);
        for (int f = 0; f < sc->frames; f++)
            if (o.hash[f] != ref.hash[f])
                fail_msg("%s: %d workers on %s (pinning %d) differ from 1 worker at frame %d", sc->name,
                         runs[k].workers, sys_name[runs[k].sys], (int)runs[k].pin, f);
        assert_int_equal(o.pairs, ref.pairs);
        assert_int_equal(o.narrow, ref.narrow);
        free(o.hash);
    }
    free(ref.hash);
}

static void test_random_scene_same_for_any_worker_count(void **state)
{
    (void)state;
    rng_seed(77, __func__);
    scene sc;
    build_random_scene(&sc, "random", 600, 20.0, 14, 0);
    replay_all(&sc);
    free_random_scene(&sc);
}

/* 3000 bodies: the broad phase fits a grid of cells and runs them as several items
 * (2 rebuilds: the load and the overflow); at frame 9 a third of the bodies jump, thousands
 * of pairs end and begin at once and the broad phase's event pool overflows (it falls
 * back to a rebuild, which must be as deterministic). */
static void test_big_random_scene_same_for_any_worker_count(void **state)
{
    (void)state;
    rng_seed(78, __func__);
    scene sc;
    build_random_scene(&sc, "random-3000", 3000, 34.0, 12, 9);
    replay_all(&sc);
    free_random_scene(&sc);
}

/* ---- the broad phase's parallel passes against brute force ---- */

static col_aabb random_box(double room, double half_min, double half_max)
{
    double c[3], h[3];
    for (int k = 0; k < 3; k++) {
        h[k] = urange(half_min, half_max);
        c[k] = urange(h[k], room - h[k]);
    }
    col_aabb b = {col_vec3_make(c[0] - h[0], c[1] - h[1], c[2] - h[2]), col_vec3_make(c[0] + h[0], c[1] + h[1], c[2] + h[2])};
    return b;
}

static void removed_count(void *ctx, uint32_t a, uint32_t b, uint32_t user)
{
    (void)a, (void)b, (void)user;
    (*(long *)ctx)++;
}

static int rec_cmp(const void *x, const void *y)
{
    const col_bp_pair *p = x, *q = y;
    if (p->a != q->a) return p->a < q->a ? -1 : 1;
    return (p->b > q->b) - (p->b < q->b);
}

/* 5000 proxies (a grid of cells, docs/broadphase.md: about 8 per axis, so the cell pass
 * has several items) moving, jumping across the room, leaving and joining, the first 20
 * of them boxes larger than a cell (half sides up to 10); one broad phase runs its passes
 * on a 4-worker world, one on the calling thread.
 * After every update both hold exactly the brute-force set of pairs whose rounded boxes
 * (col_sap_round_box, the broad phase's contract) overlap, with their records in the
 * same order. */
static void test_sap_cells_match_brute_force(void **state)
{
    (void)state;
    rng_seed(79, __func__);
    enum { N = 5000, FRAMES = 16 };
    const double room = 60.0;
    col_world *w = make_world(4, SYS_POOL, NULL);
    col_alloc alloc;
    col_alloc_init(&alloc, NULL);
    col_sap *par = col_sap_create(&alloc), *ser = col_sap_create(&alloc);
    assert_non_null(par);
    assert_non_null(ser);
    col_sap_set_runner(par, col_parallel_runner(w));
    col_aabb *box = malloc(sizeof *box * N), *rbox = malloc(sizeof *rbox * N);
    bool *live = calloc(N, sizeof *live), *is_static = calloc(N, sizeof *is_static);
    col_bp_pair *expect = malloc(sizeof *expect * 400000);
    long removed_par = 0, removed_ser = 0, checked = 0;
    for (int p = 0; p < N; p++) {
        box[p] = p < 20 ? random_box(room, 4.0, 10.0) : random_box(room, 0.4, 1.6);
        is_static[p] = urand() < 0.1;
        live[p] = p < N - 100;
        if (!live[p]) continue;
        assert_int_equal(col_sap_insert(par, (uint32_t)p, &box[p], is_static[p]), 0);
        assert_int_equal(col_sap_insert(ser, (uint32_t)p, &box[p], is_static[p]), 0);
    }
    for (int f = 0; f < FRAMES; f++) {
        if (f > 0) {
            for (int p = 0; p < N; p++) {
                if (!live[p] || is_static[p]) continue;
                double u = urand();
                if (u < 0.02) {
                    box[p] = p < 20 ? random_box(room, 4.0, 10.0) : random_box(room, 0.4, 1.6);
                } else if (u < 0.8) {
                    double d[3] = {urange(-0.3, 0.3), urange(-0.3, 0.3), urange(-0.3, 0.3)};
                    box[p].min = col_vec3_make(box[p].min.x + d[0], box[p].min.y + d[1], box[p].min.z + d[2]);
                    box[p].max = col_vec3_make(box[p].max.x + d[0], box[p].max.y + d[1], box[p].max.z + d[2]);
                } else {
                    continue;
                }
                col_sap_move(par, (uint32_t)p, &box[p]);
                col_sap_move(ser, (uint32_t)p, &box[p]);
            }
            for (int k = 0; k < 5; k++) { /* a few leave, a few join (incremental path) */
                int p = (int)(urand() * N);
                if (live[p]) {
                    col_sap_remove(par, (uint32_t)p);
                    col_sap_remove(ser, (uint32_t)p);
                    live[p] = false;
                }
                int q = (int)(urand() * N);
                if (!live[q] && q != p) {
                    box[q] = random_box(room, 0.4, 1.6);
                    assert_int_equal(col_sap_insert(par, (uint32_t)q, &box[q], is_static[q]), 0);
                    assert_int_equal(col_sap_insert(ser, (uint32_t)q, &box[q], is_static[q]), 0);
                    live[q] = true;
                }
            }
        }
        assert_int_equal(col_sap_update(par, removed_count, &removed_par), 0);
        assert_int_equal(col_sap_update(ser, removed_count, &removed_ser), 0);
        int ne = 0;
        for (int p = 0; p < N; p++) col_sap_round_box(&box[p], &rbox[p]);
        for (int p = 0; p < N; p++)
            for (int q = p + 1; q < N && live[p]; q++)
                if (live[q] && !(is_static[p] && is_static[q]) && rbox[p].min.x <= rbox[q].max.x &&
                    rbox[q].min.x <= rbox[p].max.x && rbox[p].min.y <= rbox[q].max.y &&
                    rbox[q].min.y <= rbox[p].max.y && rbox[p].min.z <= rbox[q].max.z &&
                    rbox[q].min.z <= rbox[p].max.z) {
                    assert_true(ne < 400000);
                    expect[ne].a = (uint32_t)p, expect[ne].b = (uint32_t)q;
                    ne++;
                }
        int np = 0, ns = 0;
        col_bp_pair *rp = col_pair_set_records(col_sap_pair_set(par), &np);
        col_bp_pair *rs = col_pair_set_records(col_sap_pair_set(ser), &ns);
        assert_int_equal(np, ne);
        assert_int_equal(ns, ne);
        for (int i = 0; i < np; i++) {
            assert_int_equal(rp[i].a, rs[i].a);
            assert_int_equal(rp[i].b, rs[i].b);
        }
        col_bp_pair *sorted = malloc(sizeof *sorted * (size_t)(np > 0 ? np : 1));
        memcpy(sorted, rp, sizeof *sorted * (size_t)np);
        qsort(sorted, (size_t)np, sizeof *sorted, rec_cmp);
        for (int i = 0; i < np; i++) {
            assert_int_equal(sorted[i].a, expect[i].a);
            assert_int_equal(sorted[i].b, expect[i].b);
        }
        free(sorted);
        checked += ne;
    }
    assert_int_equal(removed_par, removed_ser);
    print_message("%d frames, %ld pairs checked, %ld pairs ended, %d rebuilds\n", FRAMES, checked, removed_par,
                  col_sap_rebuild_count(par));
    assert_true(removed_par > 0);
    col_sap_destroy(par);
    col_sap_destroy(ser);
    assert_int_equal(alloc.bytes, 0);
    free(expect);
    free(is_static);
    free(live);
    free(box);
    free(rbox);
    col_world_destroy(w);
}

/* Loads a scene file and replays its first `frames` frames with its first `bodies`
 * bodies (motion is per body and closed form, so any prefix is a valid scene). */
static void replay_file(const char *path, const char *name, int bodies, int frames)
{
    FILE *fp = fopen(path, "r");
    if (fp == NULL) fail_msg("cannot open %s (the build makes it: ninja builds every scene)", path);
    bench_scene bs;
    char err[512];
    bool ok = bench_scene_load(fp, path, &bs, err, sizeof err);
    fclose(fp);
    if (!ok) fail_msg("%s", err);
    scene sc;
    memset(&sc, 0, sizeof sc);
    sc.name = name;
    sc.bench = &bs;
    sc.bench_bodies = bodies < bs.body_count ? bodies : bs.body_count;
    sc.frames = frames < bs.frames ? frames : bs.frames;
    replay_all(&sc);
    bench_scene_free(&bs);
}

/* Small scenes in the spirit of the standard ones, made at build time by our generator
 * (tests/meson.build, docs/scenes.md). */
static void test_generated_scenes_same_for_any_worker_count(void **state)
{
    (void)state;
    static const char *const names[] = {"small-dense", "small-fast", "small-boxes"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s.scene", COL_TEST_SCENE_DIR, names[k]);
        replay_file(path, names[k], 1 << 30, 1 << 30);
    }
}

/* The first frames of three scenes made with the options of the standard scenes of the
 * same names (tests/meson.build): dense10k with its first 5000 bodies (several
 * broad-phase segments per axis), so the suite stays quick under TSan. */
static void test_standard_scenes_same_for_any_worker_count(void **state)
{
    (void)state;
    static const char *const names[] = {"fast", "boxes", "dense10k"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s.scene", COL_TEST_SCENE_DIR, names[k]);
        replay_file(path, names[k], k == 2 ? 5000 : 2000, 3);
    }
}

/* ---- two worlds on two threads at once (issue 13) ----
 * Each thread builds its own world, animates it for TW_FRAMES updates (single, batch and
 * pose-function calls; bodies removed and added; pairs disabled and enabled again) and,
 * between updates, asks that world's world-free queries (query.h: col_query_overlap with
 * every backend, col_distance, col_contact, col_body_distance, col_body_contact,
 * col_query_interframe). One world runs on its own pool, the other on an app task system
 * with a thread per task. Both threads run at once (under ThreadSanitizer in scripts/
 * test) and must observe exactly what each observes alone. Queries of one world from two
 * threads are not allowed (query.h); that is not tried here. cmocka's asserts must run
 * on the test's thread, so the threads record what they saw and the first mismatch. */

enum { TW_BODIES = 48, TW_FRAMES = 24, TW_PAIRS = 6 };

typedef struct tw_run {
    int variant;                 /* 0: the world's pool, 1: an app task system */
    pthread_barrier_t *start;    /* both threads begin together, or NULL */
    uint64_t hash[TW_FRAMES];    /* per update: the world's state and the queries' answers */
    long pairs, queries;
    char error[256];             /* the first failed call, or "" */
} tw_run;

static uint64_t tw_fold(uint64_t h, const void *data, size_t n) { return col_fnv1a(h, data, n); }

static uint64_t tw_fold_double(uint64_t h, double v) { return tw_fold(h, &v, sizeof v); }

/* Body k of variant v at frame f: a closed-form motion through a 12-unit room (pure, so
 * the worlds' workers may evaluate it through col_body_set_poses_fn). */
static col_transform tw_pose(int v, int k, int f)
{
    double ph = 0.07 * f + 0.9 * k + 0.5 * v;
    col_transform t = col_transform_identity();
    t.p = col_vec3_make(6 + 4.5 * sin(ph + k), 6 + 4.5 * cos(0.8 * ph + 2 * k), 6 + 4.5 * sin(0.6 * ph + 3 * k));
    double a = 0.2 * f + k;
    t.q = (col_quat){0, sin(a / 2) * 0.6, sin(a / 2) * 0.8, cos(a / 2)};
    return t;
}

typedef struct tw_fn_ctx {
    int variant, frame;
    const int *which; /* item -> body */
} tw_fn_ctx;

static col_transform tw_pose_fn(int index, void *ctx)
{
    const tw_fn_ctx *c = ctx;
    return tw_pose(c->variant, c->which[index], c->frame);
}

#define TW_CHECK(run, call)                                                                                            \
    do {                                                                                                               \
        col_status st_ = (call);                                                                                       \
        if (st_ != COL_OK && (run)->error[0] == '\0')                                                                  \
            snprintf((run)->error, sizeof (run)->error, "%s: %s", #call, col_status_string(st_));                     \
    } while (0)

static void *tw_thread(void *arg)
{
    tw_run *run = arg;
    const int v = run->variant;
    if (run->start != NULL) pthread_barrier_wait(run->start);
    user_tasks u;
    col_world_def def = col_default_world_def();
    def.worker_count = v == 0 ? 2 : 3;
    def.report_interframe = true;
    if (v == 1) {
        memset(&u, 0, sizeof u);
        u.mode = SYS_THREAD_PER_TASK;
        def.enqueue_task = app_enqueue;
        def.finish_task = app_finish;
        def.user_task_ctx = &u;
    }
    col_world *w = NULL;
    TW_CHECK(run, col_world_create(&def, &w));
    if (w == NULL) return NULL;
    /* shapes: a box, a 40-point ellipsoid, a tetrahedron */
    col_vec3 p[40];
    col_shape_id shape[3];
    for (int i = 0; i < 8; i++) p[i] = col_vec3_make(i & 1 ? 0.8 : -0.8, i & 2 ? 0.5 : -0.5, i & 4 ? 0.3 : -0.3);
    TW_CHECK(run, col_shape_create_convex(w, p, 8, &shape[0]));
    for (int i = 0; i < 40; i++) {
        double t = (i + 0.5) / 40.0, phi = 2.399963229728653 * i, z = 1 - 2 * t, r = sqrt(1 - z * z);
        p[i] = col_vec3_make(r * cos(phi), 0.6 * r * sin(phi), 0.4 * z);
    }
    TW_CHECK(run, col_shape_create_convex(w, p, 40, &shape[1]));
    const col_vec3 tet[4] = {{0, 0, 0}, {1.2, 0, 0}, {0, 1.2, 0}, {0, 0, 1.2}};
    TW_CHECK(run, col_shape_create_convex(w, tet, 4, &shape[2]));
    col_body_id ids[TW_BODIES];
    bool live[TW_BODIES];
    for (int k = 0; k < TW_BODIES; k++) {
        col_body_def d = col_default_body_def();
        d.shape = shape[(k + v) % 3];
        d.pose = tw_pose(v, k, 0);
        d.is_static = k % 11 == 0;
        TW_CHECK(run, col_body_create(w, &d, &ids[k]));
        live[k] = true;
    }
    col_distance_cache cache[TW_PAIRS];
    memset(cache, 0, sizeof cache);
    col_transform poses[TW_BODIES];
    for (int f = 0; f < TW_FRAMES; f++) {
        if (f == 8)
            for (int k = 1; k < TW_BODIES; k += 8) {
                TW_CHECK(run, col_body_destroy(w, ids[k]));
                live[k] = false;
            }
        if (f == 12)
            for (int k = 1; k < TW_BODIES; k += 8) {
                col_body_def d = col_default_body_def();
                d.shape = shape[k % 3];
                d.pose = tw_pose(v, k, f);
                TW_CHECK(run, col_body_create(w, &d, &ids[k]));
                live[k] = true;
            }
        if (f == 5 || f == 15)
            for (int k = 2; k + 1 < TW_BODIES; k += 6) TW_CHECK(run, col_pair_set_enabled(w, ids[k], ids[k + 1], f == 15));
        /* poses of the live moving bodies: one call each, a batch, or the pose function
         * on the workers */
        int which[TW_BODIES], n = 0;
        col_body_id list[TW_BODIES];
        for (int k = 0; k < TW_BODIES; k++)
            if (live[k] && k % 11 != 0) {
                which[n] = k;
                list[n] = ids[k];
                poses[n++] = tw_pose(v, k, f);
            }
        if (f % 3 == 0)
            for (int i = 0; i < n; i++) TW_CHECK(run, col_body_set_pose(w, list[i], poses[i]));
        if (f % 3 == 1) TW_CHECK(run, col_body_set_poses(w, list, poses, n));
        if (f % 3 == 2) {
            tw_fn_ctx c = {v, f, which};
            TW_CHECK(run, col_body_set_poses_fn(w, list, n, tw_pose_fn, &c));
        }
        TW_CHECK(run, col_world_update(w));
        uint64_t h = col_world_hash(w);
        col_pair_events ev = col_world_get_pair_events(w);
        h = fnv_pairs(h, ev.pairs, ev.pair_count);
        h = fnv_pairs(h, ev.began, ev.began_count);
        h = fnv_pairs(h, ev.ended, ev.ended_count);
        h = fnv_pairs(h, ev.interframe, ev.interframe_count);
        run->pairs += ev.pair_count;
        /* the world-free queries, on this thread's world */
        for (int q = 0; q < TW_PAIRS; q++) {
            int a = 2 + q, b = 3 + q;
            col_transform pa, pb;
            TW_CHECK(run, col_body_get_pose(w, ids[a], &pa));
            TW_CHECK(run, col_body_get_pose(w, ids[b], &pb));
            col_shape_id sa = shape[(a + v) % 3], sb = shape[(b + v) % 3];
            bool hit = false;
            TW_CHECK(run, col_query_overlap(w, sa, pa, sb, pb, (col_backend)(q % COL_BACKEND_COUNT), &hit));
            h = tw_fold(h, &hit, sizeof hit);
            col_distance_input din = {sa, sb, pa, pb};
            col_distance_output dout;
            TW_CHECK(run, col_distance(w, &din, &cache[q], &dout));
            h = tw_fold_double(tw_fold(h, &dout.outcome, sizeof dout.outcome), dout.distance);
            col_contact_input cin = {sa, sb, pa, pb, 0.2};
            col_contact_output cout;
            TW_CHECK(run, col_contact(w, &cin, NULL, &cout));
            h = tw_fold_double(tw_fold(h, &cout.point_count, sizeof cout.point_count), cout.separation);
            TW_CHECK(run, col_body_distance(w, ids[a], ids[b], NULL, &dout));
            h = tw_fold_double(h, dout.distance);
            TW_CHECK(run, col_body_contact(w, ids[a], ids[b], 0.2, NULL, &cout));
            h = tw_fold_double(h, cout.separation);
            col_interframe_result ir;
            TW_CHECK(run, col_query_interframe(w, ids[a], ids[b], &ir));
            h = tw_fold(h, &ir.may_have_touched, sizeof ir.may_have_touched);
            h = tw_fold_double(h, ir.inflation);
            run->queries += 6;
        }
        run->hash[f] = h;
    }
    col_world_destroy(w);
    return NULL;
}

static void test_two_worlds_on_two_threads(void **state)
{
    (void)state;
    tw_run alone[2], together[2];
    for (int v = 0; v < 2; v++) {
        memset(&alone[v], 0, sizeof alone[v]);
        alone[v].variant = v;
        tw_thread(&alone[v]);
        if (alone[v].error[0] != '\0') fail_msg("world %d alone: %s", v, alone[v].error);
    }
    print_message("two worlds of %d bodies, %d updates each: %ld and %ld colliding pairs, %ld queries each\n",
                  TW_BODIES, TW_FRAMES, alone[0].pairs, alone[1].pairs, alone[0].queries);
    assert_true(alone[0].pairs > TW_FRAMES && alone[1].pairs > TW_FRAMES);
    for (int round = 0; round < 3; round++) {
        pthread_barrier_t start;
        assert_int_equal(pthread_barrier_init(&start, NULL, 2), 0);
        pthread_t th[2];
        for (int v = 0; v < 2; v++) {
            memset(&together[v], 0, sizeof together[v]);
            together[v].variant = v;
            together[v].start = &start;
            assert_int_equal(pthread_create(&th[v], NULL, tw_thread, &together[v]), 0);
        }
        for (int v = 0; v < 2; v++) assert_int_equal(pthread_join(th[v], NULL), 0);
        pthread_barrier_destroy(&start);
        for (int v = 0; v < 2; v++) {
            if (together[v].error[0] != '\0') fail_msg("round %d, world %d: %s", round, v, together[v].error);
            for (int f = 0; f < TW_FRAMES; f++)
                if (together[v].hash[f] != alone[v].hash[f])
                    fail_msg("round %d, world %d, update %d: not what the world saw alone", round, v, f);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parallel_for_covers_each_item_once),
        cmocka_unit_test(test_worker_defs),
        cmocka_unit_test(test_random_scene_same_for_any_worker_count),
        cmocka_unit_test(test_big_random_scene_same_for_any_worker_count),
        cmocka_unit_test(test_sap_cells_match_brute_force),
        cmocka_unit_test(test_generated_scenes_same_for_any_worker_count),
        cmocka_unit_test(test_standard_scenes_same_for_any_worker_count),
        cmocka_unit_test(test_two_worlds_on_two_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
