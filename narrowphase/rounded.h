/* SPDX-License-Identifier: MIT */
/* PLACEHOLDER interface copy for the lead's branch; replaced by the rounded branch. */
#ifndef COLIBRI_NARROWPHASE_ROUNDED_H
#define COLIBRI_NARROWPHASE_ROUNDED_H

#include <stdbool.h>

#include "narrowphase/backend.h"

typedef struct col_core {
    const col_vec3 *points;
    int count;
    const col_hull *hull;
    double radius;
} col_core;

void col_rounded_query(const col_core *a, const col_xform *xa, const col_core *b, const col_xform *xb,
                       col_np_result *out);

typedef struct col_core_distance {
    bool overlap;
    double distance;
    col_vec3 point_a, point_b;
    col_vec3 normal;
    double depth;
    int iterations;
} col_core_distance;
void col_core_distance_query(const col_core *a, const col_xform *xa, const col_core *b, const col_xform *xb,
                             col_core_distance *out);

#endif
