/* SPDX-License-Identifier: MIT */
/* Stateless queries on shapes at given poses (query.h). */
#include "colibri/query.h"

#include "lib/world.h"

col_status col_query_overlap(const col_world *world, col_shape_id a, col_transform xa, col_shape_id b,
                             col_transform xb, col_backend backend, bool *colliding)
{
    if (world == NULL || colliding == NULL)
        return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "col_query_overlap: NULL argument");
    const col_np_backend *be = backend == COL_BACKEND_DEFAULT ? world->backend : col_np_backend_get(backend);
    if (be == NULL) return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "col_query_overlap: unknown backend %d", (int)backend);
    col_status st = col_world_check_shape(world, a, "col_query_overlap");
    if (st == COL_OK) st = col_world_check_shape(world, b, "col_query_overlap");
    col_transform pa, pb;
    if (st == COL_OK) st = col_world_check_pose(world, xa, &pa);
    if (st == COL_OK) st = col_world_check_pose(world, xb, &pb);
    if (st != COL_OK) return st;
    const col_hull *ha = &world->shapes[a.index1 - 1].hull, *hb = &world->shapes[b.index1 - 1].hull;
    /* The calling thread's scratch is worker 0's: this query must not run concurrently
     * with other calls on the same world (documented in query.h). */
    col_world *w = (col_world *)world;
    st = col_world_reserve_scratch(w, col_np_scratch_bytes(be, ha, hb));
    if (st != COL_OK) return st;
    col_xform fa = col_xform_from_transform(pa), fb = col_xform_from_transform(pb);
    col_np_result res;
    /* Shape data exists for the world's backend only. */
    const void *da = be == w->backend ? world->shapes[a.index1 - 1].np_data : NULL;
    const void *db = be == w->backend ? world->shapes[b.index1 - 1].np_data : NULL;
    col_np_query(be, NULL, ha, da, &fa, hb, db, &fb, &w->workers[0].scratch, &res);
    *colliding = res.colliding;
    return COL_OK;
}
