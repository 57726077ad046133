/* SPDX-License-Identifier: MIT */
/* The public time-of-impact queries (query.h: col_geometry_toi, col_toi): validation and
 * the translation to ccd/swept.h's time of impact (C2A with a mesh, else the convex
 * conservative advancement). Every check runs before
 * anything is computed; a failed call zeroes *out and leaves the world as it was. */
#include <string.h>

#include "ccd/swept.h"
#include "colibri/query.h"
#include "lib/query_scratch.h"
#include "lib/world.h"

static void toi_fill(const col_toi_result *r, col_toi_output *out)
{
    out->hit = r->hit;
    out->capped = r->capped;
    out->s = r->s;
    out->normal = r->normal;
    out->point_a = r->point_a;
    out->point_b = r->point_b;
    out->piece_a = r->piece_a;
    out->piece_b = r->piece_b;
    out->iterations = r->iterations;
}

static void toi_run(const col_geometry *a, const col_transform *pa, const col_geometry *b, const col_transform *pb,
                    col_toi_output *out)
{
    col_toi_motion ma, mb;
    col_toi_motion_init(&ma, pa[0], pa[1]);
    col_toi_motion_init(&mb, pb[0], pb[1]);
    col_toi_result r;
    col_ccd_toi(a, &ma, b, &mb, &r);
    toi_fill(&r, out);
}

col_status col_geometry_toi(const col_geometry *a, col_transform a0, col_transform a1, const col_geometry *b,
                            col_transform b0, col_transform b1, col_query_scratch *scratch, col_toi_output *out)
{
    const char *what = "col_geometry_toi";
    if (out == NULL) return col_query_scratch_fail(scratch, COL_ERR_INVALID_ARGUMENT, "%s: NULL out", what);
    memset(out, 0, sizeof *out);
    if (a == NULL || b == NULL || scratch == NULL)
        return col_query_scratch_fail(scratch, COL_ERR_INVALID_ARGUMENT, "%s: NULL argument", what);
    col_transform in[4] = {a0, a1, b0, b1}, pose[4];
    for (int k = 0; k < 4; k++) {
        col_status st = col_pose_normalize(1e-6, in[k], &pose[k]);
        if (st != COL_OK)
            return col_query_scratch_fail(scratch, st, "%s: pose %s%d is not usable: %s", what, k < 2 ? "a" : "b",
                                          k & 1, col_status_string(st));
    }
    toi_run(a, pose, b, pose + 2, out);
    return COL_OK;
}

col_status col_toi(const col_world *world, const col_toi_input *input, col_toi_output *out)
{
    const char *what = "col_toi";
    if (out != NULL) memset(out, 0, sizeof *out);
    if (world == NULL || input == NULL || out == NULL)
        return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "%s: NULL argument", what);
    col_status st = col_world_check_shape(world, input->shape_a, what);
    if (st == COL_OK) st = col_world_check_shape(world, input->shape_b, what);
    if (st != COL_OK) return st;
    col_transform in[4] = {input->pose_a0, input->pose_a1, input->pose_b0, input->pose_b1}, pose[4];
    for (int k = 0; k < 4 && st == COL_OK; k++) st = col_world_check_pose(world, in[k], &pose[k], what);
    if (st != COL_OK) return st;
    const col_geometry *a = world->shapes[input->shape_a.index1 - 1].geom;
    const col_geometry *b = world->shapes[input->shape_b.index1 - 1].geom;
    toi_run(a, pose, b, pose + 2, out);
    return COL_OK;
}
