/* SPDX-License-Identifier: MIT */
/* Batch pose setting (col_body_set_poses, col_body_set_poses_fn): the per-body work of a
 * frame's moves (the app's pose function, the id and pose checks, the quaternion
 * normalisation) runs on the world's workers instead of the app's thread. On a 2-core
 * machine moving 10^4 bodies this is about a tenth of a frame, which would otherwise stay
 * serial (docs/threads.md).
 *
 * Determinism and atomicity: workers write only poses.poses.data[i] and their own first_bad
 * (the lowest failing item they saw); the lowest over the workers is the lowest failing
 * item whatever the schedule, and its message is then produced on the calling thread by
 * the same checks col_body_set_pose makes. Only if every item passes are the poses
 * written. Each check also stamps the body's slot with the call's number and the item
 * (an atomic exchange), which finds any body named twice. Without such a body the poses
 * are stored on the workers too (each body by its one item; 100 000 bodies took 2 ms on
 * the calling thread) and the calling thread only appends the newly dirty bodies, in item
 * order. With one, the calling thread stores them all in item order, so the body ends
 * with its last pose, as with single calls. */
#include "lib/body_poses.h"

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

static void check_range(int begin, int end, int worker_index, void *arg)
{
    const pose_batch_call *c = arg;
    col_worker_ctx *worker = &c->w->workers[worker_index];
    const col_world *w = c->w;
    double tol = w->def.quaternion_tolerance;
    for (int i = begin; i < end; i++) {
        col_transform raw = c->poses != NULL ? c->poses[i] : c->fn(i, c->ctx);
        col_body_id id = c->bodies[i];
        bool ok = col_world_body_live(w, id) &&
                  col_pose_normalize(tol, raw, &w->poses.poses.data[i]) == COL_OK;
        if (ok) {
            uint64_t tag = (uint64_t)w->poses.epoch << 32 | (uint32_t)i;
            uint64_t old = atomic_exchange_explicit(&w->poses.stamp[id.index1 - 1], tag, memory_order_relaxed);
            if ((uint32_t)(old >> 32) == w->poses.epoch) worker->pose_dup = 1;
        }
        if (!ok) {
            w->poses.poses.data[i] = raw; /* kept for the message */
            if (i < worker->first_bad) worker->first_bad = i;
        }
    }
}

/* Stores items [begin, end) of a batch without repeated bodies: each body is one item's. */
static void store_range(int begin, int end, int worker_index, void *arg)
{
    (void)worker_index;
    const pose_batch_call *c = arg;
    col_world *w = c->w;
    for (int i = begin; i < end; i++) {
        uint32_t s = c->bodies[i].index1 - 1;
        col_body_store_pose(&w->bodies[s], &w->poses.poses.data[i]);
        w->poses.newly.data[i] = !w->dirty[s];
        w->dirty[s] = 1;
    }
}

/* Grows the per-slot stamps to the body capacity; new stamps are 0 (call number 0 is
 * never used). */
static int reserve_stamps(col_world *w)
{
    if (w->poses.stamp_cap >= w->body_cap) return 0;
    size_t n = (size_t)w->body_cap, old = (size_t)w->poses.stamp_cap;
    atomic_uint_least64_t *st = col_alloc_bytes(&w->alloc, n * sizeof *st);
    if (st == NULL) return -1;
    for (size_t k = 0; k < n; k++)
        atomic_init(&st[k], k < old ? atomic_load_explicit(&w->poses.stamp[k], memory_order_relaxed) : 0);
    col_free_bytes(&w->alloc, w->poses.stamp, old * sizeof *st);
    w->poses.stamp = st;
    w->poses.stamp_cap = (int)n;
    return 0;
}

static col_status set_poses(col_world *w, const col_body_id *bodies, const col_transform *poses, int count,
                            col_pose_fn *fn, void *ctx, const char *what)
{
    col_world_begin_call(w);
    if (count < 0) return col_world_fail(w, COL_ERR_INVALID_ARGUMENT, "%s: count %d is negative", what, count);
    if (count == 0) return COL_OK;
    if (bodies == NULL || (poses == NULL && fn == NULL))
        return col_world_fail(w, COL_ERR_INVALID_ARGUMENT, "%s: NULL argument", what);
    if (col_transform_array_reserve(&w->alloc, &w->poses.poses, count) != 0 ||
        col_u8_array_reserve(&w->alloc, &w->poses.newly, count) != 0 || reserve_stamps(w) != 0)
        return col_world_fail(w, COL_ERR_OUT_OF_MEMORY, "%s: out of memory for %d poses", what, count);

    if (++w->poses.epoch == 0) w->poses.epoch = 1; /* 0 marks a stamp never written */
    for (int k = 0; k < w->worker_count; k++) {
        w->workers[k].first_bad = INT_MAX;
        w->workers[k].pose_dup = 0;
    }
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
        st = col_world_check_pose(w, w->poses.poses.data[bad], &unused, item);
        if (st == COL_OK) return col_world_fail(w, COL_ERR_INVALID_ARGUMENT, "%s: check failed", item);
        return st;
    }
    int dup = 0;
    for (int k = 0; k < w->worker_count; k++) dup |= w->workers[k].pose_dup;
    if (dup) {
        for (int i = 0; i < count; i++) {
            uint32_t slot = bodies[i].index1 - 1;
            col_body_store_pose(&w->bodies[slot], &w->poses.poses.data[i]);
            col_world_mark_dirty(w, slot);
        }
        return COL_OK;
    }
    col_parallel_for(w, store_range, count, COL_POSES_MIN_RANGE, &call);
    for (int i = 0; i < count; i++)
        if (w->poses.newly.data[i]) w->dirty_list[w->dirty_count++] = bodies[i].index1 - 1;
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

void col_pose_batch_destroy(col_pose_batch *pb, col_alloc *a)
{
    col_transform_array_free(a, &pb->poses);
    col_u8_array_free(a, &pb->newly);
    col_free_bytes(a, pb->stamp, (size_t)pb->stamp_cap * sizeof *pb->stamp);
    pb->stamp = NULL;
    pb->stamp_cap = 0;
}
