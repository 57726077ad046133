/* SPDX-License-Identifier: MIT */
/* The box a body sweeps between two poses (swept_box.c), for the candidates of the
 * world's inter-frame list (lib/interframe.c, decided by swept.h) and continuous mode
 * (lib/continuous.c). */
#ifndef COLIBRI_CCD_SWEPT_BOX_H
#define COLIBRI_CCD_SWEPT_BOX_H

#include "lib/core/geometry.h"
#include "lib/core/vec.h"

/* A box holding shape h (any kind) at every pose of the motion from x0 to x1 of toi.h
 * (the position along the chord, the rotation along the shortest arc): the join
 * of its boxes at both poses, widened by the chord bulge of its own rotation. */
void col_swept_box(const col_geometry *h, const col_xform *x0, const col_xform *x1, double lo[3], double hi[3]);

#endif
