/* SPDX-License-Identifier: MIT */
/* Overlap queries on shapes at given poses (query.h): the world-free form and its
 * world-bound wrapper. */
#include "colibri/query.h"

#include "lib/query_scratch.h"
#include "lib/shape_pair.h"
#include "lib/world.h"

/* The one query both forms run: validated geometries and poses. */
static col_status overlap_run(const col_np_backend *be, const col_geometry *a, const col_transform *pa,
                              const col_geometry *b, const col_transform *pb, col_query_scratch *s, bool *colliding,
                              const char *what)
{
    col_np_counts ca = col_geometry_counts(a), cb = col_geometry_counts(b);
    /* The compound loop uses one scratch for all piece pairs: size it for the maxima. */
    col_np_counts m = col_np_counts_max(ca, cb);
    size_t need = a->piece_count == 1 && b->piece_count == 1 ? be->scratch_need(ca, cb) : be->scratch_need(m, m);
    if (col_query_scratch_reserve(s, need) != COL_OK)
        return col_query_scratch_fail(s, COL_ERR_OUT_OF_MEMORY, "%s: out of memory for %zu bytes of scratch", what,
                                      need);
    col_xform fa = col_xform_from_transform(*pa), fb = col_xform_from_transform(*pb);
    col_np_result res;
    col_shape_pair_query(be, NULL, a, &fa, b, &fb, &s->np, &res);
    *colliding = res.colliding;
    return COL_OK;
}

/* Checks a pose of a world-free call: finite, in range, unit within 1e-6. */
static col_status free_pose(col_query_scratch *s, col_transform pose, col_transform *out, const char *what)
{
    col_status st = col_pose_normalize(1e-6, pose, out);
    if (st != COL_OK) return col_query_scratch_fail(s, st, "%s: a pose is not usable: %s", what, col_status_string(st));
    return COL_OK;
}

col_status col_geometry_overlap(const col_geometry *a, col_transform pose_a, const col_geometry *b,
                                col_transform pose_b, col_backend backend, col_query_scratch *scratch,
                                bool *colliding)
{
    const char *what = "col_geometry_overlap";
    if (a == NULL || b == NULL || scratch == NULL || colliding == NULL)
        return col_query_scratch_fail(scratch, COL_ERR_INVALID_ARGUMENT, "%s: NULL argument", what);
    const col_np_backend *be = col_np_backend_get(backend);
    if (be == NULL)
        return col_query_scratch_fail(scratch, COL_ERR_INVALID_ARGUMENT, "%s: unknown backend %d", what, (int)backend);
    col_transform pa, pb;
    col_status st = free_pose(scratch, pose_a, &pa, what);
    if (st == COL_OK) st = free_pose(scratch, pose_b, &pb, what);
    if (st != COL_OK) return st;
    return overlap_run(be, a, &pa, b, &pb, scratch, colliding, what);
}

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
    if (st == COL_OK) st = col_world_check_pose(world, xa, &pa, "col_query_overlap");
    if (st == COL_OK) st = col_world_check_pose(world, xb, &pb, "col_query_overlap");
    if (st != COL_OK) return st;
    col_query_scratch s;
    col_query_scratch_init(&s, &world->def.allocator);
    st = overlap_run(be, world->shapes[a.index1 - 1].geom, &pa, world->shapes[b.index1 - 1].geom, &pb, &s, colliding,
                     "col_query_overlap");
    col_query_scratch_release(&s);
    if (st != COL_OK) return col_world_fail(world, st, "%s", s.message);
    return COL_OK;
}
