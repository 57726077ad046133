/* SPDX-License-Identifier: MIT */
/* Batch pose setting (col_body_set_poses, col_body_set_poses_fn): the per-body work of a
 * frame's moves (the app's pose function, the id and pose checks, the quaternion
 * normalisation) runs on the world's workers instead of the app's thread. On a 2-core
 * machine moving 10^4 bodies this is about a tenth of a frame, which would otherwise stay
 * serial (docs/threads.md).
 *
 * Determinism and atomicity: workers write only per-item or per-body data and their own
 * first_bad (the lowest failing item they saw); the lowest over the workers is the lowest
 * failing item whatever the schedule, and its message is then produced on the calling
 * thread by the same checks col_body_set_pose makes. A first pass checks the ids and
 * stamps each body's slot with the call's number (an atomic exchange), which finds any
 * body named twice, and notes bodies whose pose was already set since the last update.
 *
 * Without such bodies (a frame's one batch call: the common case) the second pass writes
 * each checked pose straight into its body's record, into the slot of the pose ring that
 * is neither the update's pose nor the one before (lib/world.h), and points the set pose
 * at it. Nothing is lost if a later item fails: the failure points every named body's set
 * pose back at its update pose, which it was (no named body had been set). So the
 * batch keeps no copy of the poses (56 bytes a body, written then read again: million,
 * docs/broadphase.md, "The frame around it"). With such bodies the poses are checked
 * into a buffer first and stored only if every item passes: on the workers without a
 * repeated body (each body by its one item), else on the calling thread in item order,
 * so the body ends with its last pose, as with single calls. */
#include "lib/body_poses.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "lib/parallel.h"
#include "lib/world.h"

/* Below this many bodies the batch stays on the calling thread (a worker hand-off costs
 * microseconds, one body's check tens of nanoseconds). */
#define COL_POSES_MIN_RANGE 512
/* Items ahead whose body records the direct store prefetches. */
#define COL_POSES_PREFETCH 8

typedef struct pose_batch_call {
    col_world *w;
    const col_body_id *bodies;
    const col_transform *poses; /* NULL: use fn */
    col_pose_fn *fn;
    void *ctx;
} pose_batch_call;

static void note_bad(col_worker_ctx *worker, int i)
{
    if (i < worker->first_bad) worker->first_bad = i;
}

/* First pass: the ids, and the stamps that find a body named twice; notes a body already
 * set since the last update (its set pose is not its update pose). */
static void claim_range(int begin, int end, int worker_index, void *arg)
{
    const pose_batch_call *c = arg;
    col_worker_ctx *worker = &c->w->workers[worker_index];
    col_world *w = c->w;
    for (int i = begin; i < end; i++) {
        col_body_id id = c->bodies[i];
        if (!col_world_body_live(w, id)) {
            note_bad(worker, i);
            continue;
        }
        uint32_t s = id.index1 - 1;
        if (atomic_exchange_explicit(&w->poses.stamp[s], w->poses.epoch, memory_order_relaxed) == w->poses.epoch)
            worker->pose_dup = 1;
        /* dirty alone is no matter (a body created since the update): its set pose is its
         * update pose until a pose is set */
        if (w->dirty[s] && w->bodies[s].set_i != w->bodies[s].upd_i) worker->pose_busy = 1;
    }
}

/* The pose of item i, normalised into *out; false (the pose as given kept for the
 * message) if it fails its check. */
static bool checked_pose(const pose_batch_call *c, col_worker_ctx *worker, int i, col_transform *out)
{
    col_transform raw = c->poses != NULL ? c->poses[i] : c->fn(i, c->ctx);
    if (col_pose_normalize(c->w->def.quaternion_tolerance, raw, out) == COL_OK) return true;
    if (i < worker->first_bad) {
        worker->first_bad = i;
        worker->bad_pose = raw;
    }
    return false;
}

/* Second pass without repeated or already set bodies: each body's checked pose into its
 * record's free ring slot, made its set pose (undone by unset_range on a failure). */
static void direct_range(int begin, int end, int worker_index, void *arg)
{
    const pose_batch_call *c = arg;
    col_worker_ctx *worker = &c->w->workers[worker_index];
    col_world *w = c->w;
    for (int i = begin; i < end; i++) {
        /* The records' lines are asked for, for writing, a few items ahead: otherwise each
         * store waits for its line, and the app's pose function with it (million: the
         * batch and the pose function 77 to 82 ms a frame instead of 93 to 105,
         * docs/broadphase.md). Ids not checked yet: only an index in range is used. */
        uint32_t ahead_slot = i + COL_POSES_PREFETCH < end ? c->bodies[i + COL_POSES_PREFETCH].index1 - 1 : UINT32_MAX;
        if (ahead_slot < (uint32_t)w->body_cap) {
            const col_body_rec *ahead = &w->bodies[ahead_slot];
            const char *q = (const char *)&ahead->poses[0];
            __builtin_prefetch(&ahead->set_i, 1);
            __builtin_prefetch(q, 1);
            __builtin_prefetch(q + 64, 1);
            __builtin_prefetch(q + 128, 1);
            __builtin_prefetch(q + sizeof ahead->poses - 1, 1);
        }
        col_transform p;
        if (!checked_pose(c, worker, i, &p) || !col_world_body_live(w, c->bodies[i])) continue;
        col_body_store_pose(&w->bodies[c->bodies[i].index1 - 1], &p);
    }
}

/* After a failure of direct_range: every named body's set pose is its update pose again. */
static void unset_range(int begin, int end, int worker_index, void *arg)
{
    (void)worker_index;
    const pose_batch_call *c = arg;
    col_world *w = c->w;
    for (int i = begin; i < end; i++) {
        if (!col_world_body_live(w, c->bodies[i])) continue;
        col_body_rec *b = &w->bodies[c->bodies[i].index1 - 1];
        b->set_i = b->upd_i;
    }
}

/* Second pass with such bodies: the checked poses into the buffer. */
static void check_range(int begin, int end, int worker_index, void *arg)
{
    const pose_batch_call *c = arg;
    col_worker_ctx *worker = &c->w->workers[worker_index];
    for (int i = begin; i < end; i++) (void)checked_pose(c, worker, i, &c->w->poses.poses.data[i]);
}

/* Stores items [begin, end) of a buffered batch without repeated bodies: each body is one
 * item's. */
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

/* Grows the per-slot stamps to the body capacity; new stamps are 0 (never written). */
static int reserve_stamps(col_world *w)
{
    if (w->poses.stamp_cap >= w->body_cap) return 0;
    size_t n = (size_t)w->body_cap, old = (size_t)w->poses.stamp_cap;
    atomic_uchar *st = col_alloc_bytes(&w->alloc, n * sizeof *st);
    if (st == NULL) return -1;
    for (size_t k = 0; k < n; k++)
        atomic_init(&st[k], k < old ? atomic_load_explicit(&w->poses.stamp[k], memory_order_relaxed) : 0);
    col_free_bytes(&w->alloc, w->poses.stamp, old * sizeof *st);
    w->poses.stamp = st;
    w->poses.stamp_cap = (int)n;
    return 0;
}

/* The next call's number: 1 .. 255, every stamp cleared when the numbers wrap (once in
 * 255 calls), so a stamp equal to the call's number was written by this call. */
static void next_epoch(col_pose_batch *pb)
{
    if (pb->epoch == 255) {
        for (int k = 0; k < pb->stamp_cap; k++) atomic_store_explicit(&pb->stamp[k], 0, memory_order_relaxed);
        pb->epoch = 0;
    }
    pb->epoch++;
}

/* The error of the lowest failing item bad, with the message col_body_set_pose gives. */
static col_status batch_error(col_world *w, const col_body_id *bodies, int bad, const col_transform *raw,
                              const char *what)
{
    char item[64];
    snprintf(item, sizeof item, "%s (item %d)", what, bad);
    col_status st = col_world_check_body(w, bodies[bad], item);
    if (st != COL_OK) return st;
    col_transform unused;
    st = col_world_check_pose(w, *raw, &unused, item);
    if (st == COL_OK) return col_world_fail(w, COL_ERR_INVALID_ARGUMENT, "%s: check failed", item);
    return st;
}

/* The lowest failing item over the workers (INT_MAX: none) and its worker's pose. */
static int lowest_bad(const col_world *w, const col_transform **raw)
{
    int bad = INT_MAX;
    for (int k = 0; k < w->worker_count; k++)
        if (w->workers[k].first_bad < bad) {
            bad = w->workers[k].first_bad;
            *raw = &w->workers[k].bad_pose;
        }
    return bad;
}

/* The buffered path: poses checked into the buffer, stored only if all pass. */
static col_status set_buffered(col_world *w, pose_batch_call *call, int count, bool dup, const char *what)
{
    const col_body_id *bodies = call->bodies;
    if (col_transform_array_reserve(&w->alloc, &w->poses.poses, count) != 0 ||
        col_u8_array_reserve(&w->alloc, &w->poses.newly, count) != 0)
        return col_world_fail(w, COL_ERR_OUT_OF_MEMORY, "%s: out of memory for %d poses", what, count);
    col_parallel_for(w, check_range, count, COL_POSES_MIN_RANGE, call);
    const col_transform *raw = NULL;
    int bad = lowest_bad(w, &raw);
    if (bad != INT_MAX) return batch_error(w, bodies, bad, raw, what);
    if (dup) {
        for (int i = 0; i < count; i++) {
            uint32_t slot = bodies[i].index1 - 1;
            col_body_store_pose(&w->bodies[slot], &w->poses.poses.data[i]);
            col_world_mark_dirty(w, slot);
        }
        return COL_OK;
    }
    col_parallel_for(w, store_range, count, COL_POSES_MIN_RANGE, call);
    for (int i = 0; i < count; i++)
        if (w->poses.newly.data[i]) w->dirty_list[w->dirty_count++] = bodies[i].index1 - 1;
    return COL_OK;
}

static col_status set_poses(col_world *w, const col_body_id *bodies, const col_transform *poses, int count,
                            col_pose_fn *fn, void *ctx, const char *what)
{
    col_world_begin_call(w);
    if (count < 0) return col_world_fail(w, COL_ERR_INVALID_ARGUMENT, "%s: count %d is negative", what, count);
    if (count == 0) return COL_OK;
    if (bodies == NULL || (poses == NULL && fn == NULL))
        return col_world_fail(w, COL_ERR_INVALID_ARGUMENT, "%s: NULL argument", what);
    if (reserve_stamps(w) != 0)
        return col_world_fail(w, COL_ERR_OUT_OF_MEMORY, "%s: out of memory for %d poses", what, count);

    next_epoch(&w->poses);
    for (int k = 0; k < w->worker_count; k++) {
        w->workers[k].first_bad = INT_MAX;
        w->workers[k].pose_dup = w->workers[k].pose_busy = 0;
    }
    pose_batch_call call = {w, bodies, poses, fn, ctx};
    col_parallel_for(w, claim_range, count, COL_POSES_MIN_RANGE, &call);
    int dup = 0, busy = 0;
    for (int k = 0; k < w->worker_count; k++) {
        dup |= w->workers[k].pose_dup;
        busy |= w->workers[k].pose_busy;
    }
    if (dup || busy) return set_buffered(w, &call, count, dup != 0, what);

    col_parallel_for(w, direct_range, count, COL_POSES_MIN_RANGE, &call);
    const col_transform *raw = NULL;
    int bad = lowest_bad(w, &raw);
    if (bad != INT_MAX) {
        col_parallel_for(w, unset_range, count, COL_POSES_MIN_RANGE, &call);
        return batch_error(w, bodies, bad, raw, what);
    }
    for (int i = 0; i < count; i++) col_world_mark_dirty(w, bodies[i].index1 - 1); /* in item order */
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
