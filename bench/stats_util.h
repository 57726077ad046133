/* SPDX-License-Identifier: MIT */
/* What the statistics programs (lpip-stats, sepvec-stats, voronoi-stats) share to replay a
 * benchmark scene pair by pair with their own narrow-phase calls:
 *   stats_now_ns            a monotonic clock for the (information only) timings;
 *   stats_scene_name        the file name of a scene path, for the tables' first column;
 *   stats_scene_open        opens and loads a scene of hulls only, saying why not on stderr;
 *   stats_replay            a scene frame by frame without a world: every body's pose,
 *                           and each pair whose world boxes overlap (sweep on x), with a
 *                           narrow-phase cache carried from frame to frame while the pair
 *                           keeps overlapping, as the world's pair cache does.
 * The tables are each program's own: they count other things and sepvec-stats,
 * voronoi-stats and lpip-stats each have their own quantile rule.
 * Limits: a replay holds the caches of at most pair_cap / 2 pairs a frame (pair_cap a
 * power of two); stats_pair_cache returns NULL beyond that. */
#ifndef COLIBRI_BENCH_STATS_UTIL_H
#define COLIBRI_BENCH_STATS_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/core/vec.h"
#include "scene.h"

struct col_hull;

/* CLOCK_MONOTONIC, in nanoseconds. */
double stats_now_ns(void);

/* The part of path after its last '/' (path itself when there is none). */
const char *stats_scene_name(const char *path);

/* Loads the scene at path into *sc. On failure prints "prog: cannot open PATH" or
 * "prog: <the loader's reason>" on stderr and returns false, with nothing allocated. These
 * tools measure the hull backends' own steps, so a scene with a sphere or a capsule is
 * refused too, naming the shape. */
bool stats_scene_open(const char *prog, const char *path, bench_scene *sc);

typedef struct stats_box {
    double lo[3], hi[3];
    int body;
} stats_box;

/* Two open-addressing maps from a pair to its cache: last frame's and this frame's. */
typedef struct stats_pair_caches {
    uint64_t *keys[2];        /* (a << 32 | b) + 1; 0: empty */
    unsigned char *caches[2]; /* stride bytes per slot, 16-byte aligned */
    size_t cap, stride, count;
    int cur; /* index of this frame's map */
} stats_pair_caches;

typedef struct stats_replay {
    const bench_scene *sc;
    const struct col_hull **shape_hull; /* the hull of each shape: the caller fills it */
    col_xform *xf;                      /* every body's pose at the frame replayed last */
    stats_box *box;                     /* world boxes, sorted on lo[0] */
    stats_pair_caches caches;
} stats_replay;

/* pair_cap: slots per cache map, a power of two; cache_bytes: the size of one cache.
 * Returns false when out of memory (nothing left allocated). */
bool stats_replay_init(stats_replay *r, const bench_scene *sc, size_t pair_cap, size_t cache_bytes);
void stats_replay_free(stats_replay *r);

/* Replays frame f: sets r->xf, then calls fn(a, b, ctx), a < b, for every pair whose
 * world boxes (around the hulls, widened by a relative 1e-12 so that rounding never drops
 * a pair) overlap, in sweep order; fn takes the pair's cache with stats_pair_cache. */
void stats_replay_frame(stats_replay *r, int f, void (*fn)(int a, int b, void *ctx), void *ctx);

/* The cache of pair (a, b) in the frame being replayed. *warm: whether the pair had one
 * last frame, copied here; if not, the cache is garbage and the caller resets it. NULL
 * when this frame's map is half full. */
void *stats_pair_cache(stats_replay *r, int a, int b, bool *warm);

#endif
