/* SPDX-License-Identifier: MIT */
/* Inter-frame collision with swept hulls (Akgunduz, Banerjee & Mehrotra 2005, section 5;
 * docs/lpip.md "Inter-frame collision"): could two bodies have touched between two
 * poses? Continuous collision, so on the ccd/ floor; the decision itself is lpip's
 * (narrowphase/lpip.h, col_lpip_decide) on the swept point sets. The geometry (relative
 * motion, the partial extension, the rotation bound, halving) is described at the top of
 * lpip_sweep.c. Used by lib/interframe.c (col_query_interframe and the world's
 * inter-frame option). */
#ifndef COLIBRI_CCD_LPIP_SWEEP_H
#define COLIBRI_CCD_LPIP_SWEEP_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/core/hull.h"
#include "lib/core/vec.h"
#include "narrowphase/backend.h"

typedef struct col_lpip_sweep_result {
    bool may_touch;     /* the relative swept volume (inflated) meets A */
    bool exact;         /* no rotation: the swept hull is B's exact relative sweep */
    bool undecided;     /* the solver could not decide: may_touch is true to stay safe */
    double inflation;   /* bulge bound added for rotation, length units (0 when exact) */
    int iterations;     /* interior-point iterations, all LPs */
    int points;         /* swept points used (the partial extension keeps fewer) */
} col_lpip_sweep_result;

/* An upper bound on the angle (in [0, pi], radians) of the rotation r1 r0^T, exactly 0
 * when r0 == r1. Uses sqrt only (no libm trigonometry: decisions stay bit-identical
 * across platforms). */
double col_lpip_angle_bound(const col_mat3 *r0, const col_mat3 *r1);

/* Scratch bytes col_lpip_sweep needs for these two hulls. */
size_t col_lpip_sweep_scratch_bytes(const col_hull *a, const col_hull *b);

/* Could A and B have touched while moving from poses (xa0, xb0) to (xa1, xb1), each by
 * a straight translation at constant velocity plus a rotation about a fixed axis at a
 * constant rate through the smaller angle (<= pi) between its two orientations? Sweeps
 * B's motion RELATIVE to A, in A's frame: conservative (never misses a contact of such
 * a motion), exact without rotation. partial: with pure translation, the partial
 * extension of the paper's eq. 35 (only the points facing the motion are duplicated). */
void col_lpip_sweep(const col_hull *a, const col_xform *xa0, const col_xform *xa1,
                    const col_hull *b, const col_xform *xb0, const col_xform *xb1, bool partial,
                    col_np_scratch *scratch, col_lpip_sweep_result *out);

#endif
