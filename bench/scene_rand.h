/* SPDX-License-Identifier: MIT */
/* Random numbers and random convex shapes for the benchmark scenes (docs/scenes.md) and the
 * bench statistics tools, one copy for all of them.
 *
 * Numbers come from xoshiro256** (Blackman and Vigna, "Scrambled linear pseudorandom number
 * generators", ACM TOMS 2021) whose four words are seeded by splitmix64 (Steele, Lea and
 * Flood, OOPSLA 2014): integer arithmetic only, so a seed gives the same scene on every
 * platform and compiler. The state is one per process (these are single-threaded tools).
 *
 * Shape kinds: an ellipsoid, a rod and a plate are points on the surface of an ellipsoid
 * with the kind's half axes, drawn uniformly by area (a uniform direction stretched to the
 * ellipsoid, kept with probability proportional to the area stretch factor); a box is its 8
 * corners and then points drawn uniformly by area on its faces. The half axes are fixed per
 * kind (longest 1), so every shape has radius at most 1. */
#ifndef COLIBRI_BENCH_SCENE_RAND_H
#define COLIBRI_BENCH_SCENE_RAND_H

#include <stdint.h>

#include "colibri/vecmath.h"

/* Restarts the sequence from seed (any 64-bit value). */
void scene_rand_seed(uint64_t seed);
/* Exchanges the sequence's state with other[4]: a tool that keeps a second sequence (the
 * generator's meshes, so that its convex bodies draw what they drew without meshes) swaps
 * it in, draws, and swaps it back. A state from scene_rand_seed_state. */
void scene_rand_swap(uint64_t other[4]);
/* The state scene_rand_seed(seed) would set, into state[4], for scene_rand_swap. */
void scene_rand_seed_state(uint64_t seed, uint64_t state[4]);
/* The next 64 random bits. */
uint64_t scene_rand_next(void);
/* Uniform in [0, 1): the top 53 bits of the next number as a double. */
double scene_rand_unit(void);
/* Uniform in [a, b). */
double scene_rand_range(double a, double b);
/* Uniform integer in [a, b] (a <= b). */
int scene_rand_int(int a, int b);
/* Uniform on the unit sphere (rejection from the cube [-1, 1]^3). */
col_vec3 scene_rand_direction(void);
/* A uniformly random rotation (Shoemake, Graphics Gems III, "Uniform random rotations"),
 * in Colibri's {x, y, z, w} order. */
col_quat scene_rand_rotation(void);

typedef enum scene_kind { SCENE_ELLIPSOID, SCENE_ROD, SCENE_PLATE, SCENE_BOX, SCENE_KIND_COUNT } scene_kind;

/* "ellipsoid", "rod", "plate", "box". */
extern const char *const scene_kind_name[SCENE_KIND_COUNT];
/* Half axes of each kind along x, y, z. */
extern const double scene_kind_axes[SCENE_KIND_COUNT][3];

/* One random point on the surface of a shape of the given kind, uniform by area. */
col_vec3 scene_rand_surface_point(scene_kind kind);

#endif
