/* SPDX-License-Identifier: MIT */
/* The swept test: did two shapes share a point at some instant while each moved between
 * two poses (the motion model of ccd/toi.h: position linear, orientation slerp on the
 * shorter arc)? Answered for every kind of shape pair by the time of impact: a first
 * contact in [0, 1] exists if and only if the pair touched during the interval
 * (docs/ccd.md, "The swept test"). col_query_interframe (lib/interframe.c) and the
 * world's inter-frame list ask it with the poses of two updates.
 *
 * The important parts:
 * - col_ccd_toi: the time of impact of any two shapes (C2A, ccd/c2a.h, when a mesh is
 *   involved; else the convex advancement, ccd/toi.h), the one dispatch of lib/toi.c,
 *   lib/continuous.c and this test;
 * - col_ccd_swept: touched or not, and whether the answer is certain (the iteration cap
 *   of the advancement gives an uncertain "touched"). No allocation, no scratch. */
#ifndef COLIBRI_CCD_SWEPT_H
#define COLIBRI_CCD_SWEPT_H

#include <stdbool.h>

#include "ccd/toi.h"

/* The first contact of a (moving by ma) and b (moving by mb), any kinds. */
void col_ccd_toi(const col_geometry *a, const col_toi_motion *ma, const col_geometry *b, const col_toi_motion *mb,
                 col_toi_result *out);

typedef struct col_ccd_swept_result {
    bool touched; /* they shared a point at some s in [0, 1] (pairs that come within the
                     time of impact's distance tolerance of touching count: docs/ccd.md) */
    bool certain; /* false only when the advancement hit its iteration cap: touched is
                     then true without a proof (a contact is not excluded) */
    double s;     /* touched: at or before the first contact (never late); else 1 */
} col_ccd_swept_result;

/* The swept test of a moving from a0 to a1 and b from b0 to b1 (unit quaternions). */
void col_ccd_swept(const col_geometry *a, col_transform a0, col_transform a1, const col_geometry *b, col_transform b0,
                   col_transform b1, col_ccd_swept_result *out);

#endif
