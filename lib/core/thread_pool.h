/* SPDX-License-Identifier: MIT */
/* A world's own worker threads, pinned with hwloc, and the range job every parallel
 * step runs on them (or on the app's task system, lib/parallel.c).
 *
 * The important parts:
 *   col_range_job        [0, count) cut into blocks that workers claim with one atomic
 *                        fetch-add each (Box2D's parallel-for idea): no lock in the hot
 *                        loop, and any number of workers may join or be missing.
 *   col_thread_pool_run  runs a job with the calling thread as worker 0, which claims
 *                        blocks like the others and then waits only for blocks that a
 *                        pool thread claimed and is running, never for a thread that
 *                        has not started (its core may be busy with another process);
 *                        a caller that had to wait for a descheduled thread, or finds a
 *                        pool thread on its own CPU, runs the next jobs alone for a
 *                        while (docs/threads.md, "A busy core"). Between jobs the threads
 *                        poll briefly (not on the caller's CPU, and not once they were
 *                        descheduled), then sleep on a condition variable.
 *   pinning              with COL_PIN_CORES (not the default),
 *                        worker k >= 1 is bound to physical core k mod cores, taken in
 *                        hwloc's logical order, which is depth-first through the cache
 *                        tree, so workers sharing a cache are neighbours. Worker 0 is the
 *                        app's thread and is never bound. If hwloc fails the threads run
 *                        unbound and the core count falls back to sysconf.
 * Limits: at most COL_MAX_WORKERS workers. thread_pool.c is the only file that includes
 * <hwloc.h> (docs/architecture.md, "Floors"; tests/house_rules.sh checks it): this header does not. */
#ifndef COLIBRI_LIB_CORE_THREAD_POOL_H
#define COLIBRI_LIB_CORE_THREAD_POOL_H

#include <fenv.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "colibri/types.h"
#include "lib/core/runner.h"

struct col_alloc;


typedef struct col_range_job {
    col_range_fn *fn;
    void *ctx;
    int count;       /* items */
    int block;       /* items per claim, >= 1 */
    fenv_t env;      /* the caller's floating-point environment, applied by every worker */
    atomic_int next; /* first unclaimed item */
} col_range_job;

/* Prepares a job over [0, count) in blocks of block items; captures the calling thread's
 * floating-point environment (rounding mode, and on x86 FTZ/DAZ) so that every worker
 * computes with it: an answer must not depend on which thread gave it. */
void col_range_job_init(col_range_job *job, col_range_fn *fn, void *ctx, int count, int block);
/* Claims and runs blocks as worker_index until none is left. Safe from any thread, any
 * number of times (a late or repeated call finds nothing to do). */
void col_range_job_run(col_range_job *job, int worker_index);

typedef struct col_thread_pool col_thread_pool;

/* Workers for worker_count 0: physical cores by hwloc, else online CPUs, in
 * [1, COL_MAX_WORKERS]. */
int col_thread_pool_default_workers(void);

/* Starts workers - 1 threads bound by pinning (cpus, cpu_count: OS processor numbers for
 * COL_PIN_CPUS). workers in [0, COL_MAX_WORKERS]; 0: one per physical core (cpu_count
 * with COL_PIN_CPUS). When that makes one worker, *out is NULL and no thread starts.
 * The pool struct comes from alloc. Returns COL_OK, or COL_ERR_OUT_OF_MEMORY when memory
 * or a thread could not be had (nothing is left running). A failed binding is not an
 * error: that thread runs unbound. */
col_status col_thread_pool_create(struct col_alloc *alloc, int workers, col_thread_pinning pinning, const int *cpus,
                                  int cpu_count, col_thread_pool **out);
/* Stops and joins every thread, then frees the pool. NULL is ignored. */
void col_thread_pool_destroy(col_thread_pool *pool);
int col_thread_pool_worker_count(const col_thread_pool *pool);
/* How many pool threads ended up bound to a CPU set (for tests and --topology). */
int col_thread_pool_bound_count(const col_thread_pool *pool);
/* How many times the caller found a worker descheduled in the middle of a block it had
 * claimed (and then ran the next jobs alone for a while); 0 without a pool. */
int col_thread_pool_stall_count(const col_thread_pool *pool);

/* Tests only: where a pool thread calls the hook while it takes part in a job. WOKE: it
 * saw a new job and has read nothing of it yet; READ: it has read the job's description
 * and is about to claim its first block. A hook that blocks there stands for a thread
 * the OS has descheduled at that point. */
typedef enum col_pool_hook_point { COL_POOL_HOOK_WOKE, COL_POOL_HOOK_READ } col_pool_hook_point;
typedef void col_pool_hook_fn(int worker_index, col_pool_hook_point point, void *ctx);
/* Sets (NULL: clears) the hook of every pool thread; call it between jobs. */
void col_thread_pool_set_hook(col_thread_pool *pool, col_pool_hook_fn *hook, void *ctx);
/* Runs fn over [0, count) in blocks of `block` items on the pool, the caller as worker 0,
 * with the caller's floating-point environment, and returns when every item is done. The
 * caller works too and never waits for a worker that has not started: only for blocks
 * that a worker claimed and is running. Not reentrant: one job at a time per pool. */
void col_thread_pool_run(col_thread_pool *pool, col_range_fn *fn, void *ctx, int count, int block);

/* Writes a text picture of the machine as hwloc sees it (one object per line, indented
 * by depth: packages, caches, cores, processing units) followed by the binding plan of a
 * pool of `workers` workers under COL_PIN_CORES. Returns the length the full text needs
 * (as snprintf does), or -1 if hwloc could not load the topology. */
int col_thread_pool_describe_topology(char *buf, size_t size, int workers);

#endif
