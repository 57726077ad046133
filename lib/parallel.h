/* SPDX-License-Identifier: MIT */
/* Parallel steps of a world (docs/threads.md): col_parallel_for runs a range function
 * over [0, count) on the world's workers, either its own pool (lib/core/thread_pool.c)
 * or the app's task system (Box2D v3's enqueue/finish contract, types.h), and returns
 * when every item is done.
 *
 * The important parts:
 *   - items are claimed in blocks with an atomic counter; who takes which block depends
 *     on timing, so a step's function must write only to per-item slots or to its own
 *     col_worker_ctx, and the caller merges in item order afterwards: then nothing the
 *     world keeps depends on the worker count (results are compared for 1..8 workers in
 *     tests/test_threads.c);
 *   - worker_index is stable for a step, so worker contexts need no lock;
 *   - one worker, or a count up to min_range, runs the same function on the calling
 *     thread with no task at all: the serial path is the parallel path with one worker.
 * Limits: COL_MAX_WORKERS workers. */
#ifndef COLIBRI_LIB_PARALLEL_H
#define COLIBRI_LIB_PARALLEL_H

#include "lib/core/thread_pool.h"
#include "narrowphase/backend.h"

struct col_world;

/* What one worker owns: nothing in it is shared, so the hot loop takes no lock. */
typedef struct col_worker_ctx {
    int index;                 /* this worker's index, stable for the world's life */
    col_np_scratch scratch;    /* narrow-phase scratch, sized for any pair of shapes */
    int narrow_calls;          /* narrow-phase queries of the current step */
    int box_pairs;             /* broad-phase records whose tight boxes overlap, this step */
    int first_bad;             /* batch pose calls: lowest failing item seen, or INT_MAX */
    int pose_dup;              /* batch pose calls: saw a body named twice */
    int pose_busy;             /* batch pose calls: saw a body set since the last update */
    col_transform bad_pose;    /* batch pose calls: the pose as given of item first_bad, when
                                  its pose failed (its message is made from it) */
    col_range_job *job;        /* the job a task of the app's task system runs */
} col_worker_ctx;

/* Runs fn (lib/core/runner.h) over [0, count) in blocks of at least min_range items on
 * every worker of the world and returns when all are done; worker_index k owns
 * world->workers[k]. Cannot fail: nothing is allocated. Not reentrant. */
void col_parallel_for(struct col_world *world, col_range_fn *fn, int count, int min_range, void *ctx);

/* The world's workers as a runner (for the broad phase's passes). */
col_runner col_parallel_runner(struct col_world *world);

/* Sets up the world's workers from its def: resolves worker_count, allocates the
 * contexts and starts the pool (world.c calls it at creation). OUT_OF_MEMORY when
 * memory or a thread could not be had; everything made is then released by
 * col_parallel_destroy. */
col_status col_parallel_init(struct col_world *world);
/* Joins the pool and frees the contexts and their scratch. */
void col_parallel_destroy(struct col_world *world);

#endif
