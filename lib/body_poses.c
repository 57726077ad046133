/* SPDX-License-Identifier: MIT */
/* Batch pose setting (col_body_set_poses, col_body_set_poses_fn): the per-body work of a
 * frame's moves (the app's pose function, the id and pose checks, the quaternion
 * normalisation) runs on the world's workers instead of the app's thread. On a 2-core
 * machine moving 10^4 bodies this is about a tenth of a frame, which would otherwise stay
 * serial (docs/threads.md).
 *
 * Determinism and atomicity: workers write only pose_batch[i] and their own first_bad
 * (the lowest failing item they saw); the lowest over the workers is the lowest failing
 * item whatever the schedule, and its message is then produced on the calling thread by
 * the same checks col_body_set_pose makes. Only if every item passes are the poses
 * written, by the calling thread in item order, so a body named twice ends with its last
 * pose and the dirty list order is the item order, as with single calls. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "lib/parallel.h"
#include "lib/world.h"

/* Below this many bodies the batch stays on the calling thread (a worker hand-off costs
 * microseconds, one body's check tens of nanoseconds). */
#define COL_POSES_MIN_RANGE 512

typedef struct pose_batch_call {
    col_world *w;
    const col_body_id *bodies;
    const col_transform *poses; /* NULL: use fn */
    col_pose_fn *fn;
    void *ctx;
} pose_batch_call;

static void check_range(int begin, int end, col_worker_ctx *worker, void *arg)
{
    const pose_batch_call *c = arg;
    const col_world *w = c->w;
    double tol = w->def.quaternion_tolerance;
    for (int i = begin; i < end; i++) {
        col_transform raw = c->poses != NULL ? c->poses[i] : c->fn(i, c->ctx);
        col_body_id id = c->bodies[i];
        bool ok = col_id_pool_check(&w->body_ids, id.index1, id.generation) &&
                  col_pose_normalize(tol, raw, &w->pose_batch[i]) == COL_OK;
        if (!ok) {
            w->pose_batch[i] = raw; /* kept for the message */
            if (i < worker->first_bad) worker->first_bad = i;
        }
    }
}

static col_status set_poses(col_world *w, const col_body_id *bodies, const col_transform *poses, int count,
                            col_pose_fn *fn, void *ctx, const char *what)
{
    if (count < 0) return col_world_fail(w, COL_ERR_INVALID_ARGUMENT, "%s: count %d is negative", what, count);
    if (count == 0) return COL_OK;
    if (bodies == NULL || (poses == NULL && fn == NULL))
        return col_world_fail(w, COL_ERR_INVALID_ARGUMENT, "%s: NULL argument", what);
    void *mem = w->pose_batch;
    if (col_array_reserve(&w->alloc, &mem, &w->pose_batch_cap, count, sizeof(col_transform)) != 0)
        return col_world_fail(w, COL_ERR_OUT_OF_MEMORY, "%s: out of memory for %d poses", what, count);
    w->pose_batch = mem;

    for (int k = 0; k < w->worker_count; k++) w->workers[k].first_bad = INT_MAX;
    pose_batch_call call = {w, bodies, poses, fn, ctx};
    col_parallel_for(w, check_range, count, COL_POSES_MIN_RANGE, &call);
    int bad = INT_MAX;
    for (int k = 0; k < w->worker_count; k++)
        if (w->workers[k].first_bad < bad) bad = w->workers[k].first_bad;
    if (bad != INT_MAX) {
        char item[64];
        snprintf(item, sizeof item, "%s (item %d)", what, bad);
        col_status st = col_world_check_body(w, bodies[bad], item);
        if (st != COL_OK) return st;
        col_transform unused;
        st = col_world_check_pose(w, w->pose_batch[bad], &unused);
        if (st == COL_OK) return col_world_fail(w, COL_ERR_INVALID_ARGUMENT, "%s: check failed", item);
        char why[sizeof w->last_error];
        memcpy(why, w->last_error, sizeof why);
        return col_world_fail(w, st, "%s: %s", item, why);
    }
    for (int i = 0; i < count; i++) {
        uint32_t slot = bodies[i].index1 - 1;
        w->bodies[slot].pose = w->pose_batch[i];
        col_world_mark_dirty(w, slot);
    }
    return COL_OK;
}

col_status col_body_set_poses(col_world *world, const col_body_id *bodies, const col_transform *poses, int count)
{
    if (world == NULL) return COL_ERR_INVALID_ARGUMENT;
    return set_poses(world, bodies, poses, count, NULL, NULL, "col_body_set_poses");
}

col_status col_body_set_poses_fn(col_world *world, const col_body_id *bodies, int count, col_pose_fn *fn, void *ctx)
{
    if (world == NULL) return COL_ERR_INVALID_ARGUMENT;
    return set_poses(world, bodies, NULL, count, fn, ctx, "col_body_set_poses_fn");
}
