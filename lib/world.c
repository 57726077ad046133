/* SPDX-License-Identifier: MIT */
/* World life cycle, validation helpers, results, counters and the state hash. */
#include "lib/world.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "broadphase/sap.h"
#include "lib/continuous.h"
#include "lib/interframe.h"
#include "lib/query_tree.h"
#include "lib/time_critical.h"
#include "narrowphase/mesh_collide.h"
#include "lib/core/fnv.h"
#include "lib/geometry_data.h"

col_world_def col_default_world_def(void)
{
    col_world_def def;
    memset(&def, 0, sizeof def);
    def.backend = COL_BACKEND_DEFAULT;
    def.schedule = COL_SCHEDULE_TTC;
    def.worker_count = 0;
    def.pinning = COL_PIN_NONE;
    def.body_capacity = 0;
    def.quaternion_tolerance = 1e-6;
    def.broadphase_margin = 0.0;
    def.time_critical = col_default_time_critical_def();
    def.internal_cookie = COL_DEF_COOKIE;
    return def;
}

col_time_critical_def col_default_time_critical_def(void)
{
    col_time_critical_def d;
    memset(&d, 0, sizeof d);
    d.enabled = false;
    d.p_min = 0.99;
    d.k_min = 10;
    d.frame_budget = 0.0;
    d.max_node_pairs = 0;
    d.internal_cookie = COL_DEF_COOKIE;
    return d;
}

col_status col_world_fail(const col_world *world, col_status status, const char *fmt, ...)
{
    if (world == NULL) return status;
    /* The message buffer is diagnostic scratch, not world state: writing it through a
     * const pointer is allowed because every world is allocated non-const. */
    col_world *w = (col_world *)world;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->last_error, sizeof w->last_error, fmt, ap);
    va_end(ap);
    return status;
}

const char *col_world_last_error(const col_world *world)
{
    return world != NULL ? world->last_error : "no world";
}

/* splitmix64's finaliser (Steele, Lea & Flood 2014): every input bit reaches every
 * output bit. */
static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* The tag of the world's ids (include/colibri/id.h), from the world's own data since
 * there is no global state (no counter of worlds): its address, which no other live
 * world has, and the wall clock in nanoseconds at its creation, which a world made
 * later at a freed world's address does not share. Hashed to 30 bits, so two worlds
 * share a tag with a chance of about 2^-30 (the two inputs would have to collide in
 * the hash, or a world be made at a dead world's address in the same clock tick). The
 * low two bits are left for the kind; the tag is never 0, so an id with a zero tag (one
 * filled in by hand) is never valid. */
static uint32_t world_id_tag(const col_world *w)
{
    struct timespec ts = {0, 0};
    (void)timespec_get(&ts, TIME_UTC);
    uint64_t h = mix64((uint64_t)(uintptr_t)w + UINT64_C(0x9e3779b97f4a7c15));
    h = mix64(h ^ ((uint64_t)ts.tv_sec * UINT64_C(1000000000) + (uint64_t)ts.tv_nsec));
    uint32_t tag = (uint32_t)(h >> 32) & ~COL_ID_KIND_MASK;
    return tag != 0 ? tag : COL_ID_KIND_MASK + 1;
}

col_status col_world_create(const col_world_def *def, col_world **out)
{
    if (out == NULL) return COL_ERR_INVALID_ARGUMENT;
    *out = NULL;
    if (def == NULL) return COL_ERR_INVALID_ARGUMENT;
    if (def->internal_cookie != COL_DEF_COOKIE) return COL_ERR_DEF_UNINITIALIZED;
    if (col_np_backend_get(def->backend) == NULL || def->worker_count < 0 ||
        (def->schedule != COL_SCHEDULE_TTC && def->schedule != COL_SCHEDULE_EVERY) ||
        !(def->quaternion_tolerance >= 0 && def->quaternion_tolerance < 0.5) ||
        !(def->broadphase_margin >= 0 && def->broadphase_margin <= 10))
        return COL_ERR_INVALID_ARGUMENT;
    /* the time-critical mode's fields are checked whether it is on or not (docs/adb.md) */
    if (def->time_critical.internal_cookie != COL_DEF_COOKIE) return COL_ERR_DEF_UNINITIALIZED;
    if (!col_time_critical_def_valid(&def->time_critical, true)) return COL_ERR_INVALID_ARGUMENT;
    /* Workers: the count, the task callbacks (both or neither) and the pinning policy. */
    if (def->worker_count > COL_MAX_WORKERS || (def->enqueue_task == NULL) != (def->finish_task == NULL) ||
        (def->pinning != COL_PIN_CORES && def->pinning != COL_PIN_NONE && def->pinning != COL_PIN_CPUS) ||
        (def->pinning == COL_PIN_CPUS && def->enqueue_task == NULL &&
         (def->pin_cpus == NULL || def->pin_cpu_count <= 0)))
        return COL_ERR_INVALID_ARGUMENT;
    if (def->pinning == COL_PIN_CPUS && def->enqueue_task == NULL)
        for (int k = 0; k < def->pin_cpu_count; k++)
            if (def->pin_cpus[k] < 0) return COL_ERR_INVALID_ARGUMENT;
    if ((def->allocator.alloc == NULL) != (def->allocator.free == NULL)) return COL_ERR_INVALID_ARGUMENT;

    col_alloc alloc;
    col_alloc_init(&alloc, &def->allocator);
    col_world *w = col_alloc_zeroed(&alloc, 1, sizeof *w);
    if (w == NULL) return COL_ERR_OUT_OF_MEMORY;
    w->alloc = alloc;
    w->def = *def;
    col_world_begin_call(w);
    w->id_tag = world_id_tag(w);
    w->backend = col_np_backend_get(def->backend);
    w->np_slot = col_geometry_data_slot(w->backend);
    col_id_pool_init(&w->shape_ids);
    col_id_pool_init(&w->body_ids);
    col_sleep_wheel_init(&w->sleep_queue);
    /* A pair with a mesh keeps its witness triangles in the backend's part of its slot. */
    size_t cache_bytes = w->backend->cache_size > sizeof(col_mesh_cache) ? w->backend->cache_size : sizeof(col_mesh_cache);
    col_pair_cache_init(&w->pair_cache, cache_bytes);
    w->sap = col_sap_create(&w->alloc);
    if (w->sap == NULL) {
        col_world_destroy(w);
        return COL_ERR_OUT_OF_MEMORY;
    }
    /* The workers last: a world that fails to start its threads is torn down whole. */
    col_status st = col_parallel_init(w);
    if (st != COL_OK) {
        col_world_destroy(w);
        return st;
    }
    col_sap_set_runner(w->sap, col_parallel_runner(w));
    if (def->body_capacity > 0) {
        int n = def->body_capacity > 1u << 26 ? 1 << 26 : (int)def->body_capacity;
        if (col_id_pool_reserve(&w->body_ids, &w->alloc, n) != 0) {
            col_world_destroy(w);
            return COL_ERR_OUT_OF_MEMORY;
        }
    }
    *out = w;
    return COL_OK;
}

void col_world_destroy(col_world *world)
{
    if (world == NULL) return;
    col_alloc alloc = world->alloc;
    col_world *w = world;
    col_parallel_destroy(w); /* joins the pool first: no thread may outlive the world */
    if (w->sap != NULL) col_sap_destroy(w->sap);
    for (int s = 0; s < w->shape_ids.high_water; s++)
        if (w->shape_ids.live[s]) {
            col_adb_tree_free(&w->alloc, &w->shapes[s].adb);
            col_geom_free(w->shapes[s].geom);
        }
    col_free_bytes(&w->alloc, w->shapes, (size_t)w->shape_cap * sizeof(col_shape_rec));
    col_free_bytes(&w->alloc, w->bodies, (size_t)w->body_cap * sizeof(col_body_rec));
    col_free_bytes(&w->alloc, w->dirty_list, (size_t)w->body_cap * sizeof(uint32_t));
    col_free_bytes(&w->alloc, w->hot, (size_t)w->body_cap * sizeof(col_body_hot));
    col_free_bytes(&w->alloc, w->dirty, (size_t)w->body_cap);
    col_id_pool_destroy(&w->shape_ids, &w->alloc);
    col_id_pool_destroy(&w->body_ids, &w->alloc);
    col_pair_cache_destroy(&w->pair_cache, &w->alloc);
    col_sleep_wheel_destroy(&w->sleep_queue, &w->alloc);
    col_pair_filter_destroy(&w->disabled, &w->alloc);
    col_interframe_destroy(w);
    col_continuous_destroy(w);
    col_world_query_destroy(w);
    col_results_destroy(&w->results, &w->alloc);
    col_arena_free(&w->alloc, &w->frame_arena);
    col_pose_batch_destroy(&w->poses, &w->alloc);
    alloc = w->alloc;
    col_free_bytes(&alloc, w, sizeof *w);
}

col_pair_events col_world_get_pair_events(const col_world *world)
{
    col_pair_events ev;
    memset(&ev, 0, sizeof ev);
    if (world == NULL) return ev;
    const col_results *r = &world->results;
    ev.pairs = col_results_current(r)->data;
    ev.pair_count = col_results_current(r)->count;
    ev.began = r->began.data;
    ev.began_count = r->began.count;
    ev.ended = r->ended.data;
    ev.ended_count = r->ended.count;
    col_interframe_events(world, &ev.interframe, &ev.interframe_count);
    col_continuous_events(world, &ev.continuous, &ev.continuous_count);
    return ev;
}

col_status col_world_get_counters(const col_world *world, col_counters *out)
{
    if (world == NULL || out == NULL) return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "col_world_get_counters: NULL argument");
    *out = world->counters;
    out->bodies = world->body_ids.live_count;
    out->static_bodies = world->static_count;
    out->shapes = world->shape_ids.live_count;
    out->alloc_calls_total = world->alloc.calls;
    out->bytes_in_use = world->alloc.bytes;
    out->workers = world->worker_count;
    out->worker_stalls = col_thread_pool_stall_count(world->pool);
    return COL_OK;
}

/* Why an id with this tag and slot check is not one of the world's live objects of the
 * kind `kind` (named `noun`). */
static col_status id_fail(const col_world *world, const char *what, const char *noun, uint32_t kind, uint32_t index1,
                          uint32_t generation, uint32_t tag)
{
    const char *why = "is null, unknown or removed";
    if (index1 == 0) why = "is null";
    else if ((tag & ~COL_ID_KIND_MASK) != world->id_tag)
        why = "was not made by this world (another world's id, or a forged one)";
    else if ((tag & COL_ID_KIND_MASK) != kind)
        why = kind == COL_ID_KIND_BODY ? "is a shape id, not a body id" : "is a body id, not a shape id";
    return col_world_fail(world, COL_ERR_STALE_ID, "%s: %s id {%u, %u, 0x%08x} %s", what, noun, index1, generation,
                          tag, why);
}

col_status col_world_check_body(const col_world *world, col_body_id id, const char *what)
{
    if (!col_world_body_live(world, id))
        return id_fail(world, what, "body", COL_ID_KIND_BODY, id.index1, id.generation, id.tag);
    return COL_OK;
}

col_status col_world_check_shape(const col_world *world, col_shape_id id, const char *what)
{
    if (!col_world_shape_live(world, id))
        return id_fail(world, what, "shape", COL_ID_KIND_SHAPE, id.index1, id.generation, id.tag);
    return COL_OK;
}

static bool coord_ok(double x) { return isfinite(x) && fabs(x) <= COL_MAX_COORD; }

col_status col_pose_normalize(double quaternion_tolerance, col_transform pose, col_transform *out)
{
    const col_vec3 p = pose.p;
    const col_quat q = pose.q;
    if (!coord_ok(p.x) || !coord_ok(p.y) || !coord_ok(p.z)) return COL_ERR_NOT_FINITE;
    if (!isfinite(q.x) || !isfinite(q.y) || !isfinite(q.z) || !isfinite(q.w)) return COL_ERR_NOT_FINITE;
    double n2 = q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w;
    /* Unit to rounding (the common case): kept as is (below), and its length, within
     * 5 DBL_EPSILON of 1 (sqrt halves the distance and rounds correctly), passes any
     * tolerance of 8 DBL_EPSILON or more; the same answer without the square root, whose
     * latency a batch of a million poses otherwise waits on (docs/broadphase.md). */
    if (fabs(n2 - 1.0) <= 8 * DBL_EPSILON && quaternion_tolerance >= 8 * DBL_EPSILON) {
        *out = pose;
        return COL_OK;
    }
    double n = sqrt(n2);
    if (!(fabs(n - 1.0) <= quaternion_tolerance)) return COL_ERR_BAD_QUATERNION;
    *out = pose;
    /* A quaternion already unit to rounding is kept bit for bit, so poses computed by
     * the app (or the benchmark) give exactly the rotation matrix the app expects;
     * anything further off is renormalised. */
    if (fabs(n2 - 1.0) > 8 * DBL_EPSILON) {
        out->q.x = q.x / n;
        out->q.y = q.y / n;
        out->q.z = q.z / n;
        out->q.w = q.w / n;
    }
    return COL_OK;
}

col_status col_world_check_pose(const col_world *world, col_transform pose, col_transform *out, const char *what)
{
    col_status st = col_pose_normalize(world->def.quaternion_tolerance, pose, out);
    if (st == COL_OK) return COL_OK;
    const col_vec3 p = pose.p;
    const col_quat q = pose.q;
    if (!coord_ok(p.x) || !coord_ok(p.y) || !coord_ok(p.z))
        return col_world_fail(world, COL_ERR_NOT_FINITE, "%s: position (%g, %g, %g) is not finite or beyond %g", what,
                              p.x, p.y, p.z, COL_MAX_COORD);
    if (st == COL_ERR_NOT_FINITE) return col_world_fail(world, st, "%s: quaternion has a NaN or infinite component", what);
    double n = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    return col_world_fail(world, st, "%s: quaternion length %.17g differs from 1 by more than %g", what, n,
                          world->def.quaternion_tolerance);
}

col_status col_world_reserve_scratch(col_world *world, size_t size, const char *what)
{
    /* One buffer per worker: a query writes its scratch, so workers cannot share one. */
    for (int k = 0; k < world->worker_count; k++) {
        col_np_scratch *s = &world->workers[k].scratch;
        if (size <= s->size) continue;
        size_t want = s->size > 0 ? s->size : 4096;
        while (want < size) want *= 2;
        void *mem = col_alloc_bytes(&world->alloc, want);
        if (mem == NULL) return col_world_fail(world, COL_ERR_OUT_OF_MEMORY, "%s: out of memory for a scratch buffer of %zu bytes", what,
                                      want);
        col_free_bytes(&world->alloc, s->mem, s->size);
        s->mem = mem;
        s->size = want;
    }
    return COL_OK;
}

void col_world_shape_aabb(const col_shape_rec *shape, const col_xform *xf, col_aabb *out)
{
    if (shape->is_hull) col_hull_box_at(&shape->hull, xf, &out->min, &out->max);
    else col_geometry_box_at(shape->geom, xf, &out->min, &out->max);
}

/* fmin and fmax, NaN rule included (a NaN operand gives the other), without their libm
 * calls, which the compiler keeps for that rule: six calls a refit were about a tenth of
 * the fat box's time on sparse100k. On equal operands (+0 and -0) they give y, as glibc's
 * libm fmin and fmax (minsd, maxsd) do, so the boxes are the same bits as those calls gave
 * (tests/test_world.c checks both rules against libm's functions). */
static inline double min_of(double x, double y) { return (x < y || y != y) ? x : y; }
static inline double max_of(double x, double y) { return (x > y || y != y) ? x : y; }

void col_world_fat_cube(const col_geometry *g, col_vec3 *mid, double *h, bool *at_origin)
{
    /* The local box turned any way stays in the ball of its half diagonal about its
     * centre: the cube of that ball does not change as the body turns. A sphere's box
     * is looser than its ball: for the round kinds the ball about the origin (the
     * shape's radius) is used when it is smaller (hulls keep the box's, as measured). */
    col_vec3 half = col_scale(col_sub(g->box_max, g->box_min), 0.5);
    *mid = col_scale(col_add(g->box_min, g->box_max), 0.5);
    *h = sqrt(col_dot(half, half));
    *at_origin = g->kind != COL_SHAPE_HULL && g->radius < *h;
    if (*at_origin) *h = g->radius;
}

void col_world_fat_aabb(const col_shape_rec *shape, const col_xform *xf, const col_aabb *tight, double margin,
                        col_aabb *out)
{
    col_vec3 c = shape->fat_at_origin ? xf->p : col_xform_point(xf, shape->fat_mid);
    double h = shape->fat_h * (1.0 + margin);
    out->min = col_v3(min_of(c.x - h, tight->min.x), min_of(c.y - h, tight->min.y), min_of(c.z - h, tight->min.z));
    out->max = col_v3(max_of(c.x + h, tight->max.x), max_of(c.y + h, tight->max.y), max_of(c.z + h, tight->max.z));
}

/* A pair list by slots and generations only: the ids' tags differ between two worlds
 * (and from run to run) that hold the same state. */
static uint64_t fnv_pairs(uint64_t h, const col_pair *pairs, int n)
{
    for (int i = 0; i < n; i++) {
        const uint32_t v[4] = {pairs[i].a.index1, pairs[i].a.generation, pairs[i].b.index1, pairs[i].b.generation};
        h = col_fnv1a(h, v, sizeof v);
    }
    return h;
}

uint64_t col_world_hash(const col_world *world)
{
    if (world == NULL) return 0;
    uint64_t h = COL_FNV_OFFSET;
    const col_world *w = world;
    h = col_fnv1a(h, &w->frame, sizeof w->frame);
    for (int s = 0; s < w->shape_ids.high_water; s++) {
        if (!w->shape_ids.live[s]) continue;
        const col_shape_rec *r = &w->shapes[s];
        h = col_fnv1a(h, &s, sizeof s);
        h = col_fnv1a(h, &w->shape_ids.generation[s], sizeof(uint32_t));
        h = col_fnv1a(h, &r->body_count, sizeof r->body_count);
        h = col_geometry_hash(r->geom, h);
    }
    for (int b = 0; b < w->body_ids.high_water; b++) {
        if (!w->body_ids.live[b]) continue;
        const col_body_rec *r = &w->bodies[b];
        h = col_fnv1a(h, &b, sizeof b);
        h = col_fnv1a(h, &w->body_ids.generation[b], sizeof(uint32_t));
        h = col_fnv1a(h, col_body_pose(r), sizeof(col_transform));
        h = col_fnv1a(h, &r->user_data, sizeof r->user_data);
        h = col_fnv1a(h, &r->shape, sizeof r->shape);
        h = col_fnv1a(h, &w->hot[b].group, sizeof w->hot[b].group);
        h = col_fnv1a(h, &w->hot[b].mask, sizeof w->hot[b].mask);
        h = col_fnv1a(h, &r->is_static, sizeof r->is_static);
        h = col_fnv1a(h, &r->continuous, sizeof r->continuous);
        h = col_fnv1a(h, &r->max_linear_speed, sizeof r->max_linear_speed);
        h = col_fnv1a(h, &r->max_angular_speed, sizeof r->max_angular_speed);
        h = col_fnv1a(h, &r->disabled_count, sizeof r->disabled_count);
    }
    h = col_fnv1a(h, w->disabled.keys.data, (size_t)w->disabled.keys.count * sizeof(uint64_t));
    h = fnv_pairs(h, col_results_current(&w->results)->data, col_results_current(&w->results)->count);
    h = fnv_pairs(h, w->results.began.data, w->results.began.count);
    h = fnv_pairs(h, w->results.ended.data, w->results.ended.count);
    return h;
}

void col_world_set_narrow_observer(col_world *world, col_narrow_observer_fn *fn, void *ctx)
{
    world->narrow_observer = fn;
    world->narrow_observer_ctx = fn != NULL ? ctx : NULL;
}
