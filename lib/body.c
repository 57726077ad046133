/* SPDX-License-Identifier: MIT */
/* Bodies: a shape at a pose, with filter bits, a static flag and optional declared top
 * speeds. A body joins the broad phase at creation (its proxy is the body's slot index)
 * and is tested from the next update on. */
#include <math.h>
#include <string.h>

#include "broadphase/sap.h"
#include "lib/schedule.h"
#include "lib/world.h"

col_body_def col_default_body_def(void)
{
    col_body_def def;
    memset(&def, 0, sizeof def);
    def.pose = col_transform_identity();
    def.filter_group = 1;
    def.filter_mask = UINT32_MAX;
    def.is_static = false;
    def.max_linear_speed = COL_SPEED_UNDECLARED;
    def.max_angular_speed = COL_SPEED_UNDECLARED;
    def.internal_cookie = COL_DEF_COOKIE;
    return def;
}

/* Per-slot arrays follow the id pool's capacity. */
static col_status grow_bodies(col_world *w)
{
    if (w->body_cap >= w->body_ids.capacity) return COL_OK;
    size_t n = (size_t)w->body_ids.capacity, old = (size_t)w->body_cap;
    col_body_rec *b = col_alloc_zeroed(&w->alloc, n, sizeof *b);
    uint32_t *d = col_alloc_bytes(&w->alloc, n * sizeof *d);
    col_body_hot *t = col_alloc_zeroed(&w->alloc, n, sizeof *t);
    uint8_t *f = col_alloc_zeroed(&w->alloc, n, 1);
    if (b == NULL || d == NULL || t == NULL || f == NULL) {
        col_free_bytes(&w->alloc, b, n * sizeof *b);
        col_free_bytes(&w->alloc, d, n * sizeof *d);
        col_free_bytes(&w->alloc, t, n * sizeof *t);
        col_free_bytes(&w->alloc, f, n);
        return COL_ERR_OUT_OF_MEMORY;
    }
    if (old > 0) {
        memcpy(b, w->bodies, old * sizeof *b);
        memcpy(d, w->dirty_list, (size_t)w->dirty_count * sizeof *d);
        memcpy(t, w->hot, old * sizeof *t);
        memcpy(f, w->dirty, old);
    }
    col_free_bytes(&w->alloc, w->bodies, old * sizeof *b);
    col_free_bytes(&w->alloc, w->dirty_list, old * sizeof *d);
    col_free_bytes(&w->alloc, w->hot, old * sizeof *t);
    col_free_bytes(&w->alloc, w->dirty, old);
    w->bodies = b;
    w->dirty_list = d;
    w->hot = t;
    w->dirty = f;
    w->body_cap = (int)n;
    return COL_OK;
}

/* Declared top speeds: both COL_SPEED_UNDECLARED, or both finite and >= 0 (0 promises no
 * motion at all). */
static col_status check_speeds(const col_world *w, double linear, double angular, const char *what)
{
    bool lin_none = linear == COL_SPEED_UNDECLARED, ang_none = angular == COL_SPEED_UNDECLARED;
    if (lin_none && ang_none) return COL_OK;
    if (lin_none || ang_none)
        return col_world_fail(w, COL_ERR_INVALID_ARGUMENT,
                              "%s: speeds %g and %g: declare both or neither (COL_SPEED_UNDECLARED)", what, linear,
                              angular);
    if (!(isfinite(linear) && linear >= 0.0))
        return col_world_fail(w, COL_ERR_INVALID_ARGUMENT,
                              "%s: max_linear_speed %g is neither a finite number >= 0 nor COL_SPEED_UNDECLARED", what,
                              linear);
    if (!(isfinite(angular) && angular >= 0.0))
        return col_world_fail(w, COL_ERR_INVALID_ARGUMENT,
                              "%s: max_angular_speed %g is neither a finite number >= 0 nor COL_SPEED_UNDECLARED", what,
                              angular);
    return COL_OK;
}

/* The bound D the body's declared speeds give (0 if none) for its motion from xf to the
 * pose last set, the coordinate term included: what the next update floors m with. */
static double declared_bound(const col_world *w, const col_body_rec *b)
{
    return col_motion_declared(b->max_linear_speed, b->max_angular_speed, w->shapes[b->shape].radius,
                               col_max_abs(b->xf.p) + col_max_abs(col_body_pose(b)->p));
}

col_status col_body_create(col_world *world, const col_body_def *def, col_body_id *out)
{
    if (world == NULL || def == NULL || out == NULL)
        return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "col_body_create: NULL argument");
    col_world_begin_call(world);
    col_body_id none = {0, 0, 0};
    *out = none;
    if (def->internal_cookie != COL_DEF_COOKIE)
        return col_world_fail(world, COL_ERR_DEF_UNINITIALIZED, "col_body_create: def not filled by col_default_body_def()");
    col_status st = col_world_check_shape(world, def->shape, "col_body_create");
    if (st != COL_OK) return st;
    col_transform pose;
    st = col_world_check_pose(world, def->pose, &pose, "col_body_create");
    if (st != COL_OK) return st;
    st = check_speeds(world, def->max_linear_speed, def->max_angular_speed, "col_body_create");
    if (st != COL_OK) return st;

    if (col_id_pool_reserve(&world->body_ids, &world->alloc, 1) != 0 || grow_bodies(world) != COL_OK)
        return col_world_fail(world, COL_ERR_OUT_OF_MEMORY, "col_body_create: out of memory");
    int slot = col_id_pool_alloc(&world->body_ids);
    if (slot < 0) return col_world_fail(world, COL_ERR_CAPACITY, "col_body_create: no body ids left");

    uint32_t shape = def->shape.index1 - 1;
    col_body_rec *b = &world->bodies[slot];
    memset(b, 0, sizeof *b);
    world->dirty[slot] = 0;
    b->poses[0] = pose; /* set, upd and prev pose: all slot 0 */
    b->xf = col_xform_from_transform(pose);
    b->continuous = def->continuous ? 1 : 0;
    b->user_data = def->user_data;
    b->shape = shape;
    b->is_static = def->is_static ? 1 : 0;
    world->hot[slot].group = def->filter_group;
    world->hot[slot].mask = def->filter_mask;
    b->max_linear_speed = def->max_linear_speed + 0.0; /* + 0.0: -0.0 is stored as 0 */
    b->max_angular_speed = def->max_angular_speed + 0.0;
    /* Armed with the declared bound from the start, so a first move that keeps the promise
     * does not trip (an undeclared body starts at 0: its first move trips). Its pairs are
     * new, so no pair sleeps on an older bound. */
    b->motion_bound = b->motion_bound_prev = declared_bound(world, b);
    col_aabb *tight = &world->hot[slot].box, fat;
    col_world_shape_aabb(&world->shapes[shape], &b->xf, tight);
    col_world_fat_aabb(&world->shapes[shape], &b->xf, tight, world->def.broadphase_margin, &fat);
    if (col_sap_insert(world->sap, (uint32_t)slot, &fat, def->is_static) != 0) {
        col_id_pool_unalloc(&world->body_ids, slot);
        return col_world_fail(world, COL_ERR_OUT_OF_MEMORY, "col_body_create: out of memory in the broad phase");
    }
    world->shapes[shape].body_count++;
    if (b->is_static) world->static_count++;
    if (b->continuous) world->continuous_count++;
    /* In the dirty list so its pose counts as changed at the next update. */
    col_world_mark_dirty(world, (uint32_t)slot);
    *out = col_world_body_id(world, (uint32_t)slot);
    return COL_OK;
}

col_status col_body_destroy(col_world *world, col_body_id body)
{
    if (world == NULL) return COL_ERR_INVALID_ARGUMENT;
    col_world_begin_call(world);
    col_status st = col_world_check_body(world, body, "col_body_destroy");
    if (st != COL_OK) return st;
    uint32_t slot = body.index1 - 1;
    col_body_rec *b = &world->bodies[slot];
    col_sap_remove(world->sap, slot);
    world->shapes[b->shape].body_count--;
    if (b->is_static) world->static_count--;
    if (b->continuous) world->continuous_count--;
    if (b->disabled_count > 0) col_pair_filter_forget_body(world, slot);
    /* The dirty list may still name the slot; the update skips slots that are not live. */
    world->dirty[slot] = 0;
    /* Deferred: the slot must not carry a new body before the broad phase has dropped
     * the old proxy at the next update. */
    col_id_pool_free(&world->body_ids, (int)slot, true);
    return COL_OK;
}

bool col_body_is_valid(const col_world *world, col_body_id body)
{
    return world != NULL && col_world_body_live(world, body);
}

col_status col_body_set_pose(col_world *world, col_body_id body, col_transform pose)
{
    if (world == NULL) return COL_ERR_INVALID_ARGUMENT;
    col_world_begin_call(world);
    col_status st = col_world_check_body(world, body, "col_body_set_pose");
    if (st != COL_OK) return st;
    col_transform p;
    st = col_world_check_pose(world, pose, &p, "col_body_set_pose");
    if (st != COL_OK) return st;
    uint32_t slot = body.index1 - 1;
    col_body_store_pose(&world->bodies[slot], &p);
    col_world_mark_dirty(world, slot);
    return COL_OK;
}

col_status col_body_set_max_speeds(col_world *world, col_body_id body, double max_linear_speed,
                                   double max_angular_speed)
{
    if (world == NULL) return COL_ERR_INVALID_ARGUMENT;
    col_world_begin_call(world);
    col_status st = col_world_check_body(world, body, "col_body_set_max_speeds");
    if (st != COL_OK) return st;
    st = check_speeds(world, max_linear_speed, max_angular_speed, "col_body_set_max_speeds");
    if (st != COL_OK) return st;
    col_body_rec *b = &world->bodies[body.index1 - 1];
    b->max_linear_speed = max_linear_speed + 0.0;
    b->max_angular_speed = max_angular_speed + 0.0;
    /* A smaller (or no) declared bound only lets m decay, at the body's next moves. A
     * larger one is in force for the motion to the next update, but m may grow only at a
     * trip (docs/schedule.md): the body's sleeping pairs slept on the old m. So the body
     * trips at the next update, whether or not its pose changes before it: the pair loop
     * re-tests the sleeping pairs of every body whose tripped_frame is that update, and
     * the step-1 re-arm (lib/frame.c), if the body moves, starts from the new m. */
    double d = declared_bound(world, b);
    if (!(d <= b->motion_bound)) {
        b->motion_bound = d;
        b->tripped_frame = world->frame + 1;
        /* An update that failed after moving the body is retried from motion_bound_prev. */
        if (b->moved_frame == world->frame + 1 && !(d <= b->motion_bound_prev)) b->motion_bound_prev = d;
    }
    return COL_OK;
}

col_status col_body_get_max_speeds(const col_world *world, col_body_id body, double *max_linear_speed,
                                   double *max_angular_speed)
{
    if (world == NULL || max_linear_speed == NULL || max_angular_speed == NULL)
        return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "col_body_get_max_speeds: NULL argument");
    col_status st = col_world_check_body(world, body, "col_body_get_max_speeds");
    if (st != COL_OK) return st;
    const col_body_rec *b = &world->bodies[body.index1 - 1];
    *max_linear_speed = b->max_linear_speed;
    *max_angular_speed = b->max_angular_speed;
    return COL_OK;
}

col_status col_body_get_pose(const col_world *world, col_body_id body, col_transform *out)
{
    if (world == NULL || out == NULL) return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "col_body_get_pose: NULL argument");
    col_status st = col_world_check_body(world, body, "col_body_get_pose");
    if (st != COL_OK) return st;
    *out = *col_body_pose(&world->bodies[body.index1 - 1]);
    return COL_OK;
}

void *col_body_get_user_data(const col_world *world, col_body_id body)
{
    if (!col_body_is_valid(world, body)) return NULL;
    return world->bodies[body.index1 - 1].user_data;
}
