/* SPDX-License-Identifier: MIT */
/* What the cmocka tests share, so that each test file keeps only its own checks:
 * - splitmix64 random numbers (Steele, Lea and Flood, OOPSLA 2014, with the constants of
 *   Vigna's splitmix64.c): integer arithmetic only, so a seed gives the same inputs on
 *   every platform and compiler. rng_seed() prints the seed (docs/conventions.md item 13: a random
 *   test states its seed, so a failure can be replayed);
 * - uniform doubles in [0, 1) and [a, b), standard normal draws and a uniformly random
 *   rotation;
 * - same_pair_lists: two worlds' pair lists compared by slots and generations;
 * - a serial app task system (inline_enqueue_task, inline_finish_task);
 * - a counting allocator for col_world_def.allocator and col_alloc_init(): it counts the
 *   calls and can fail one chosen call (or one chosen allocation), or every allocation
 *   after a budget (fault injection as SQLite's faultsim does it).
 * Header only: every test is its own executable, so the file-static state below is one
 * per test binary. Draw each random number in its own statement where the order matters:
 * the order in which function arguments are evaluated is unspecified. */
#ifndef COLIBRI_TESTS_TEST_UTIL_H
#define COLIBRI_TESTS_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>

#include "colibri/base.h"
#include "colibri/types.h"
#include "colibri/vecmath.h"

/* ---- random numbers (splitmix64) ---- */

static uint64_t rng_state;

static inline uint64_t rng_next(void)
{
    uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Starts the sequence at seed and prints "name: seed 0x... (decimal)". */
static inline void rng_seed(uint64_t seed, const char *name)
{
    rng_state = seed;
    print_message("%s: seed 0x%llx (%llu)\n", name, (unsigned long long)seed, (unsigned long long)seed);
}

/* Starts the sequence at seed without printing: for the runs of a loop whose seeds the
 * test has already stated by a rule (seed + N for run N). */
static inline void rng_reseed(uint64_t seed) { rng_state = seed; }

/* Uniform in [0, 1): the top 53 bits as a double. */
static inline double urand(void) { return (double)(rng_next() >> 11) * 0x1.0p-53; }

/* Uniform in [a, b). */
static inline double urange(double a, double b) { return a + (b - a) * urand(); }

/* A standard normal draw (Box-Muller; u is kept above 1e-300 so that log(u) is finite). */
static inline double gauss(void)
{
    double u = urand(), v = urand();
    if (u < 1e-300) u = 1e-300;
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

/* A uniformly random rotation (Shoemake, Graphics Gems III, "Uniform random rotations"). */
static inline col_quat random_quat(void)
{
    double u1 = urand(), u2 = 6.283185307179586 * urand(), u3 = 6.283185307179586 * urand();
    double a = sqrt(1 - u1), b = sqrt(u1);
    col_quat q = {a * sin(u2), a * cos(u2), b * sin(u3), b * cos(u3)};
    return q;
}

/* ---- pair lists of two worlds ---- */

/* Whether two worlds' pair lists name the same slots and generations. The ids' tags are
 * left out: they carry each world's own tag (include/colibri/id.h). */
static inline bool same_pair_lists(const col_pair *x, const col_pair *y, int n)
{
    for (int i = 0; i < n; i++)
        if (x[i].a.index1 != y[i].a.index1 || x[i].a.generation != y[i].a.generation ||
            x[i].b.index1 != y[i].b.index1 || x[i].b.generation != y[i].b.generation)
            return false;
    return true;
}

/* ---- a serial app task system (Box2D's inline example) ---- */

/* col_world_def.enqueue_task that runs each task in the callback; finish_task has then
 * nothing to wait for. */
static inline void *inline_enqueue_task(col_task_fn *task, void *task_ctx, void *user_ctx)
{
    (void)user_ctx;
    task(task_ctx);
    return NULL;
}

static inline void inline_finish_task(void *user_task, void *user_ctx)
{
    (void)user_task;
    (void)user_ctx;
}

/* ---- counting allocator ---- */

typedef struct counting_alloc {
    long calls;   /* alloc and free calls, failed allocations included */
    long allocs;  /* allocations that returned memory */
    long frees;   /* free calls; allocs - frees blocks are live */
    long fail_at; /* fail the call with this number (1-based, as counted in calls), once; 0: never */
    long attempts;     /* allocation calls, failed ones included (frees not counted) */
    long fail_attempt; /* fail the allocation with this number (as counted in attempts), once; 0: never */
    bool limit;   /* true: allow `allowed` more allocations, then fail every one */
    long allowed;
} counting_alloc;

static inline void *counting_malloc(size_t size, void *user)
{
    counting_alloc *c = user;
    c->calls++;
    c->attempts++;
    if (c->fail_at > 0 && c->calls == c->fail_at) return NULL;
    if (c->fail_attempt > 0 && c->attempts == c->fail_attempt) return NULL;
    if (c->limit) {
        if (c->allowed <= 0) return NULL;
        c->allowed--;
    }
    c->allocs++;
    return malloc(size);
}

static inline void counting_free(void *ptr, size_t size, void *user)
{
    (void)size;
    counting_alloc *c = user;
    c->calls++;
    c->frees++;
    free(ptr);
}

/* The hooks for col_world_def.allocator or col_alloc_init(), counting into c. */
static inline col_allocator counting_hooks(counting_alloc *c)
{
    col_allocator hooks = {counting_malloc, counting_free, c};
    return hooks;
}

#endif
