/* SPDX-License-Identifier: MIT */
/* What the batch pose calls (body_poses.c: col_body_set_poses, col_body_set_poses_fn)
 * keep across calls: the checked poses and newly-dirty flags of the last batch, and per
 * body slot the last call's number and item (an atomic stamp that finds a body named
 * twice in one call). */
#ifndef COLIBRI_LIB_BODY_POSES_H
#define COLIBRI_LIB_BODY_POSES_H

#include <stdatomic.h>

#include "colibri/vecmath.h"
#include "lib/core/array.h"

COL_ARRAY_DEFINE(col_transform_array, col_transform)

typedef struct col_pose_batch {
    col_transform_array poses;
    col_u8_array newly;
    atomic_uint_least64_t *stamp; /* [stamp_cap]: call number << 32 | item */
    int stamp_cap;
    uint32_t epoch; /* the last call's number (0 marks a stamp never written) */
} col_pose_batch;

void col_pose_batch_destroy(col_pose_batch *pb, col_alloc *a);

#endif
