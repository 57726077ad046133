/* SPDX-License-Identifier: MIT */
/* The randomized agreement harness every narrow-phase backend must pass (issues 3, 4,
 * 5): random pairs of convex hulls built the way the benchmark builds them, placed so
 * that gaps are sampled log-uniformly from 1e-12 to 1e-1 of the size on both sides of
 * touching, plus named touching and degenerate configurations, each answered by the
 * backend under test and by the reference backend. A disagreement fails the run unless
 * the exact rational LP oracle (tests/oracle_lp.h) shows the pair within 1e-9
 * (size-relative) of touching. */
#ifndef COLIBRI_TESTS_AGREEMENT_H
#define COLIBRI_TESTS_AGREEMENT_H

#include <stdint.h>

#include "narrowphase/backend.h"

typedef struct col_agreement_stats {
    long pairs;          /* queries compared (cold and warm) */
    long hits;           /* of which the reference said colliding */
    long near_excused;   /* disagreements within 1e-9 of touching (oracle-checked) */
    long failures;       /* disagreements farther from touching: bugs */
    long warm_queries;   /* queries answered with a cache already used for that pair */
    long backend_fallbacks; /* sum of col_np_result.fallbacks */
    long backend_iterations; /* sum of col_np_result.iterations */
    long by_kind[8];     /* pairs per configuration kind (see agreement.c) */
} col_agreement_stats;

/* Scale factor for test sizes from the environment variable COLIBRI_TEST_SCALE
 * (default 1; the sanitizer run of scripts/test sets it lower). */
double col_agreement_scale(void);

/* Runs npairs random configurations through backend be (with a per-pair cache; a share
 * of pairs is replayed as a short coherent sequence of small motions with the same
 * cache, and some with a cache left over from another configuration) and through the
 * reference. Prints the seed, the hit rate and the stats with print_message-style
 * output on stdout, and each failure with its configuration. Returns stats->failures. */
long col_agreement_run(const col_np_backend *be, uint64_t seed, long npairs, col_agreement_stats *stats);

#endif
