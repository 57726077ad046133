/* SPDX-License-Identifier: MIT */
/* Queries on shapes at given poses, usable without a world frame (like Box2D's
 * collision.h): they do not touch the broad phase or the pair lists. */
#ifndef COLIBRI_QUERY_H
#define COLIBRI_QUERY_H

#include <stdbool.h>

#include "colibri/base.h"
#include "colibri/id.h"
#include "colibri/types.h"
#include "colibri/vecmath.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct col_world col_world;

/* Exact test whether shape a at pose xa and shape b at pose xb share a point (touching
 * counts), with the chosen backend (COL_BACKEND_DEFAULT: the world's). *colliding gets the
 * answer. Errors: INVALID_ARGUMENT, STALE_ID, NOT_FINITE, BAD_QUATERNION. */
COL_API col_status col_query_overlap(const col_world *world, col_shape_id a, col_transform xa,
                                     col_shape_id b, col_transform xb, col_backend backend,
                                     bool *colliding);

#ifdef __cplusplus
}
#endif
#endif
