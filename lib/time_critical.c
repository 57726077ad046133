/* SPDX-License-Identifier: MIT */
/* The time-critical mode of the world (lib/time_critical.h, docs/adb.md). */
#include "lib/time_critical.h"

#include <math.h>
#include <string.h>
#include <time.h>

#include "broadphase/pair_set.h"
#include "broadphase/sap.h"
#include "lib/pair_cache.h"
#include "narrowphase/backend.h"
#include "ccd/mesh_adb.h"

bool col_time_critical_def_valid(const col_time_critical_def *d, bool with_budget)
{
    col_adb_params p = {d->p_min, d->k_min, d->max_node_pairs, with_budget ? d->frame_budget : 0.0, 0.0};
    return col_adb_params_valid(&p);
}

col_status col_time_critical_prepare(col_world *w, col_shape_rec *r)
{
    if (r->geom == NULL || r->geom->kind != COL_SHAPE_MESH || r->adb.cells != NULL) return COL_OK;
    return col_adb_tree_build(&w->alloc, &r->geom->mesh, COL_ADB_AREA_FACTOR_DEFAULT, &r->adb);
}

double col_time_critical_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void col_time_critical_test(const col_world *w, const col_shape_rec *ra, const col_xform *xa, const col_shape_rec *rb,
                            const col_xform *xb, double deadline, col_mesh_cache *cache, col_np_result *res,
                            col_pair_slot *slot)
{
    const col_time_critical_def *d = &w->def.time_critical;
    col_adb_params p = {d->p_min, d->k_min, d->max_node_pairs, 0.0, 0.0};
    if (deadline > 0) {
        double left = deadline - col_time_critical_now();
        /* out of time: the first node pair only */
        if (left > 0) p.time_budget = left;
        else p.max_visits = 1;
    }
    col_adb_result r;
    col_mesh_mesh_adb_depth_first(&ra->geom->mesh, &ra->adb, xa, &rb->geom->mesh, &rb->adb, xb, &p, cache, &r, res);
    slot->estimated = r.exact ? 2 : 1;
    slot->probability = (float)r.probability;
}

/* Both bodies checked, distinct, their records. */
static col_status two_bodies(const col_world *world, col_body_id a, col_body_id b, const char *what)
{
    col_status st = col_world_check_body(world, a, what);
    if (st == COL_OK) st = col_world_check_body(world, b, what);
    if (st != COL_OK) return st;
    if (a.index1 == b.index1) return col_world_fail(world, COL_ERR_SAME_BODY, "%s: the same body twice", what);
    return COL_OK;
}

col_status col_pair_get_estimate(const col_world *world, col_body_id a, col_body_id b, col_pair_estimate *out)
{
    if (out != NULL) memset(out, 0, sizeof *out);
    if (world == NULL || out == NULL)
        return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "col_pair_get_estimate: NULL argument");
    col_status st = two_bodies(world, a, b, "col_pair_get_estimate");
    if (st != COL_OK) return st;
    if (!world->def.time_critical.enabled || world->frame == 0) return COL_OK;
    uint32_t ia = a.index1 - 1, ib = b.index1 - 1;
    col_bp_pair *r = col_pair_set_find(col_sap_pair_set(world->sap), ia < ib ? ia : ib, ia < ib ? ib : ia);
    if (r == NULL) r = col_pair_set_find(col_sap_pair_set(world->sap), ia < ib ? ib : ia, ia < ib ? ia : ib);
    if (r == NULL || r->user == COL_PAIR_NO_USER) return COL_OK;
    col_pair_slot *slot = col_pair_cache_slot((col_pair_cache *)&world->pair_cache, r->user);
    if (slot->tested_frame != world->frame || slot->estimated == 0) return COL_OK;
    out->tested = true;
    out->colliding = slot->colliding != 0;
    out->exact = slot->estimated == 2;
    out->probability = slot->probability;
    return COL_OK;
}

col_status col_body_collide_time_critical(col_world *world, col_body_id a, col_body_id b,
                                          const col_time_critical_def *def, col_pair_estimate *out)
{
    static const char what[] = "col_body_collide_time_critical";
    if (out != NULL) memset(out, 0, sizeof *out);
    if (world == NULL || out == NULL || def == NULL)
        return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "%s: NULL argument", what);
    col_world_begin_call(world);
    if (def->internal_cookie != COL_DEF_COOKIE)
        return col_world_fail(world, COL_ERR_DEF_UNINITIALIZED, "%s: def not filled by col_default_time_critical_def()",
                              what);
    if (!col_time_critical_def_valid(def, false))
        return col_world_fail(world, COL_ERR_INVALID_ARGUMENT,
                              "%s: p_min %g must be in (0, 1], k_min %d >= 1, max_node_pairs %d >= 0", what, def->p_min,
                              def->k_min, def->max_node_pairs);
    col_status st = two_bodies(world, a, b, what);
    if (st != COL_OK) return st;
    const col_body_rec *ba = &world->bodies[a.index1 - 1], *bb = &world->bodies[b.index1 - 1];
    col_shape_rec *ra = &world->shapes[ba->shape], *rb = &world->shapes[bb->shape];
    if (ra->geom->kind != COL_SHAPE_MESH || rb->geom->kind != COL_SHAPE_MESH)
        return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "%s: bodies %u and %u are not both meshes", what,
                              a.index1, b.index1);
    if (col_time_critical_prepare(world, ra) != COL_OK || col_time_critical_prepare(world, rb) != COL_OK)
        return col_world_fail(world, COL_ERR_OUT_OF_MEMORY, "%s: out of memory", what);
    const col_xform xa = col_xform_from_transform(*col_body_pose(ba)), xb = col_xform_from_transform(*col_body_pose(bb));
    col_adb_params p = {def->p_min, def->k_min, def->max_node_pairs, 0.0, 0.0};
    col_adb_result r;
    col_np_result np;
    col_mesh_mesh_adb_depth_first(&ra->geom->mesh, &ra->adb, &xa, &rb->geom->mesh, &rb->adb, &xb, &p, NULL, &r, &np);
    out->tested = true;
    out->colliding = r.colliding;
    out->exact = r.exact;
    out->probability = r.probability;
    out->node_pairs = r.visits;
    return COL_OK;
}
