/* SPDX-License-Identifier: MIT */
/* pool-cost: what a parallel step costs the calling thread on the world's pool against
 * running the same items itself, for the serial thresholds of docs/threads.md ("Serial
 * below a size"). Items are a fixed amount of arithmetic (ITEM_NS, about the cost of a
 * pair-loop record whose boxes do not overlap); each count is timed as the median of many
 * steps, serially and on a 2-worker pool, with the pool's threads awake (steps back to
 * back) and asleep (a 2 ms pause before each step, longer than the threads poll).
 *
 *   pool-cost [WORKERS]
 *
 * Prints one line per count: serial, awake and asleep medians in microseconds. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "lib/core/alloc.h"
#include "lib/core/thread_pool.h"

enum { STEPS = 301 };

static double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

/* About 20 to 30 ns per item: a chain of dependent multiply-adds carried from item to
 * item (so it cannot be vectorised), each item's value written to its own slot. */
static void items_fn(int begin, int end, int worker_index, void *ctx)
{
    (void)worker_index;
    double *out = ctx;
    double x = (double)begin;
    for (int i = begin; i < end; i++) {
        for (int k = 0; k < 8; k++) x = x * 0.999 + 1.0;
        out[i] = x;
    }
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void pause_us(long us)
{
    struct timespec t = {us / 1000000, (us % 1000000) * 1000};
    nanosleep(&t, NULL);
}

/* Median microseconds of STEPS steps over count items: serial (pool NULL) or on pool. */
static double time_steps(col_thread_pool *pool, int workers, int count, double *out, long pause)
{
    double t[STEPS];
    int block = count / (64 * workers);
    if (block < 1) block = 1;
    for (int s = 0; s < STEPS; s++) {
        if (pause > 0) pause_us(pause);
        double t0 = now_us();
        if (pool != NULL)
            col_thread_pool_run(pool, items_fn, out, count, block);
        else
            items_fn(0, count, 0, out);
        t[s] = now_us() - t0;
    }
    qsort(t, STEPS, sizeof t[0], cmp);
    return t[STEPS / 2];
}

int main(int argc, char **argv)
{
    int workers = argc > 1 ? atoi(argv[1]) : 2;
    if (workers < 2 || workers > COL_MAX_WORKERS) {
        fprintf(stderr, "usage: pool-cost [WORKERS >= 2]\n");
        return 2;
    }
    static const int counts[] = {16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 16384, 65536};
    enum { MAXC = 65536 };
    double *out = malloc(sizeof(double) * MAXC);
    col_alloc a;
    col_alloc_init(&a, NULL);
    col_thread_pool *pool = NULL;
    if (out == NULL || col_thread_pool_create(&a, workers, COL_PIN_CORES, NULL, 0, &pool) != COL_OK) {
        fprintf(stderr, "pool-cost: could not start the pool\n");
        return 1;
    }
    printf("| items | serial (us) | pool, threads awake (us) | pool, threads asleep (us) |\n|---|---|---|---|\n");
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        int n = counts[c];
        double s = time_steps(NULL, 1, n, out, 0);
        double awake = time_steps(pool, workers, n, out, 0);
        double asleep = time_steps(pool, workers, n, out, 2000);
        printf("| %d | %.2f | %.2f | %.2f |\n", n, s, awake, asleep);
    }
    printf("stalls: %d\n", col_thread_pool_stall_count(pool));
    col_thread_pool_destroy(pool);
    free(out);
    return 0;
}
