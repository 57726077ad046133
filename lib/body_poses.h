/* SPDX-License-Identifier: MIT */
/* What the batch pose calls (body_poses.c: col_body_set_poses, col_body_set_poses_fn)
 * keep across calls: per body slot the number of the last call that named it (an atomic
 * stamp that finds a body named twice in one call), and, grown only by calls that need
 * them (a body named twice, or one whose pose was set since the last update), the checked poses and
 * newly-dirty flags of such a call. */
#ifndef COLIBRI_LIB_BODY_POSES_H
#define COLIBRI_LIB_BODY_POSES_H

#include <stdatomic.h>

#include "colibri/vecmath.h"
#include "lib/core/array.h"

COL_ARRAY_DEFINE(col_transform_array, col_transform)

typedef struct col_pose_batch {
    col_transform_array poses; /* the buffered path's checked poses, by item */
    col_u8_array newly;        /* ... and which of them joined the dirty list */
    atomic_uchar *stamp;       /* [stamp_cap]: the last call's number that named the slot */
    int stamp_cap;
    uint8_t epoch; /* the last call's number, 1 .. 255 (0 marks a stamp never written; at
                      the wrap every stamp is cleared) */
} col_pose_batch;

void col_pose_batch_destroy(col_pose_batch *pb, col_alloc *a);

#endif
