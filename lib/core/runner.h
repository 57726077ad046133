/* SPDX-License-Identifier: MIT */
/* The one shape of parallel work in Colibri: a function over a range of items, and a
 * runner that spreads such a range over some workers and returns when every item is done.
 * The world's steps (lib/parallel.h), the broad phase's passes (broadphase/sap.h) and the
 * thread pool (thread_pool.h) all speak it.
 *
 * Contract of a range function: it may be called for any split of [0, count) into
 * [begin, end) blocks, on any thread, in any order, so it writes only per-item data or
 * the context of its worker_index (stable for one run; 0 .. the runner's worker count);
 * then its results do not depend on the worker count (docs/threads.md). */
#ifndef COLIBRI_LIB_CORE_RUNNER_H
#define COLIBRI_LIB_CORE_RUNNER_H

#include <stddef.h>

/* Work on items [begin, end) as worker worker_index. */
typedef void col_range_fn(int begin, int end, int worker_index, void *ctx);

/* Runs fn over [0, count) in blocks of at least min_block items; self is the runner's own
 * state. Returns when every item is done; cannot fail. */
typedef void col_run_fn(void *self, col_range_fn *fn, void *ctx, int count, int min_block);

typedef struct col_runner {
    col_run_fn *run; /* NULL: everything on the calling thread as worker 0 */
    void *self;
} col_runner;

static inline void col_runner_run(const col_runner *r, col_range_fn *fn, void *ctx, int count, int min_block)
{
    if (count <= 0) return;
    if (r->run != NULL) r->run(r->self, fn, ctx, count, min_block);
    else fn(0, count, 0, ctx);
}

#endif
