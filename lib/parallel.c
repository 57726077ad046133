/* SPDX-License-Identifier: MIT */
/* col_parallel_for over the world's pool or the app's task system (parallel.h). */
#include "lib/parallel.h"

#include "lib/world.h"

/* Blocks per worker: enough that workers finishing early take over the blocks of a slow
 * or descheduled one (narrow-phase costs vary a lot from pair to pair), few enough that
 * the atomic claims cost nothing next to the work. The step ends when its last block
 * does, so a worker waits on average half a block at the end: with 8 blocks per worker
 * that was about 0.2 ms of a 2-worker dense10k pair loop (a block of 2 300 records);
 * 64 took the 2-worker frame from 7.1 to 6.9 ms. */
#define COL_BLOCKS_PER_WORKER 64

/* A task handed to the app's task system: worker k's share of the job. */
static void run_task(void *task_ctx)
{
    col_worker_ctx *wc = task_ctx;
    col_range_job_run(wc->job, wc->index);
}

void col_parallel_for(col_world *w, col_range_fn *fn, int count, int min_range, void *ctx)
{
    if (count <= 0) return;
    int n = w->worker_count;
    if (min_range < 1) min_range = 1;
    if (n <= 1 || count <= min_range) {
        fn(0, count, 0, ctx);
        return;
    }
    long long per = (long long)COL_BLOCKS_PER_WORKER * n;
    int block = (int)(((long long)count + per - 1) / per);
    if (block < min_range) block = min_range;
    if (w->def.enqueue_task == NULL) {
        col_thread_pool_run(w->pool, fn, ctx, count, block);
        return;
    }
    col_range_job job;
    col_range_job_init(&job, fn, ctx, count, block);
    /* The app's task system, Box2D v3's contract (box2d types.h b2EnqueueTaskCallback):
     * one task per extra worker, each claiming blocks until none is left, so the step is
     * complete whichever tasks run, in any order, on any thread; NULL means the task was
     * not deferred and is run here at once. */
    int blocks = (count + block - 1) / block;
    int tasks = blocks < n ? blocks : n;
    void *handles[COL_MAX_WORKERS];
    for (int k = 1; k < tasks; k++) {
        col_worker_ctx *wc = &w->workers[k];
        wc->job = &job;
        handles[k] = w->def.enqueue_task(run_task, wc, w->def.user_task_ctx);
        if (handles[k] == NULL) run_task(wc);
    }
    col_range_job_run(&job, 0);
    for (int k = 1; k < tasks; k++)
        if (handles[k] != NULL) w->def.finish_task(handles[k], w->def.user_task_ctx);
    for (int k = 1; k < tasks; k++) w->workers[k].job = NULL;
}

static void world_run(void *self, col_range_fn *fn, void *ctx, int count, int min_block)
{
    col_parallel_for(self, fn, count, min_block, ctx);
}

col_runner col_parallel_runner(col_world *w)
{
    col_runner r = {world_run, w};
    return r;
}

col_status col_parallel_init(col_world *w)
{
    const col_world_def *d = &w->def;
    int n = d->worker_count;
    if (d->enqueue_task != NULL) {
        if (n == 0) n = col_thread_pool_default_workers();
    } else {
        col_status st = col_thread_pool_create(&w->alloc, n, d->pinning, d->pin_cpus, d->pin_cpu_count, &w->pool);
        if (st != COL_OK) return col_world_fail(w, st, "col_world_create: could not start the worker threads");
        n = col_thread_pool_worker_count(w->pool); /* 1 without a pool */
    }
    if (n < 1) n = 1;
    if (n > COL_MAX_WORKERS) n = COL_MAX_WORKERS;
    w->workers = col_alloc_zeroed(&w->alloc, (size_t)n, sizeof(col_worker_ctx));
    if (w->workers == NULL) return col_world_fail(w, COL_ERR_OUT_OF_MEMORY, "col_world_create: out of memory for %d workers", n);
    w->worker_count = n;
    for (int k = 0; k < n; k++) w->workers[k].index = k;
    return COL_OK;
}

void col_parallel_destroy(col_world *w)
{
    col_thread_pool_destroy(w->pool);
    w->pool = NULL;
    for (int k = 0; k < w->worker_count; k++)
        col_free_bytes(&w->alloc, w->workers[k].scratch.mem, w->workers[k].scratch.size);
    col_free_bytes(&w->alloc, w->workers, (size_t)w->worker_count * sizeof(col_worker_ctx));
    w->workers = NULL;
    w->worker_count = 0;
}
