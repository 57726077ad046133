/* SPDX-License-Identifier: MIT */
/* colibri-bench --rays N (docs/scenes.md, "Ray mode"): after each frame's update, N rays
 * drawn from splitmix64 seeded with the frame number, cast with col_world_cast_ray, timed
 * apart from the frame; --dump-rays writes 'f k body t' per ray. */
#ifndef COLIBRI_BENCH_RAYS_H
#define COLIBRI_BENCH_RAYS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "colibri/colibri.h"

/* Ray k of frame f in a room of side L: origin o and translation (L/2) d. */
void bench_ray(uint64_t *state, double L, col_vec3 *origin, col_vec3 *translation);

/* Casts frame f's n rays; *sync_ms gets the time of col_world_prepare_queries (the query
 * tree's refit or rebuild), *cast_ms that of the casts, *cpu_cast_ms the calling thread's
 * CPU time of both (steadier than wall time on a shared machine). scene_of maps a body's index1 to
 * its scene index (max_index1 the largest). Writes the dump lines if dump is not NULL
 * (after the timing). False after a message on stderr. */
bool bench_rays_frame(col_world *world, double L, int f, int n, const uint32_t *scene_of, uint32_t max_index1,
                      FILE *dump, double *sync_ms, double *cast_ms, double *cpu_cast_ms);

#endif
