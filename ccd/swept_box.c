/* SPDX-License-Identifier: MIT */
#include "ccd/swept_box.h"

#include <math.h>

#include "ccd/lpip_sweep.h"

void col_swept_box(const col_geometry *h, const col_xform *x0, const col_xform *x1, double lo[3], double hi[3])
{
    col_vec3 min0, max0, min1, max1;
    col_geometry_box_at(h, x0, &min0, &max0);
    col_geometry_box_at(h, x1, &min1, &max1);
    /* Every core point (a hull vertex, a sphere's centre, a capsule's end) moves along an arc whose straight chord the two boxes' join holds; the
     * arc leaves the chord by at most r theta^2 / 8 (theta the rotation angle, bounded
     * from above by col_lpip_angle_bound), so the join widened by that holds the arc; a piece's radius
     * travels with its core points. */
    double th = col_lpip_angle_bound(&x0->R, &x1->R);
    double grow = th > 0.0 ? 0.125 * h->radius * th * th * (1.0 + 1e-9) + 1e-12 * h->radius : 0.0;
    lo[0] = fmin(min0.x, min1.x) - grow;
    lo[1] = fmin(min0.y, min1.y) - grow;
    lo[2] = fmin(min0.z, min1.z) - grow;
    hi[0] = fmax(max0.x, max1.x) + grow;
    hi[1] = fmax(max0.y, max1.y) + grow;
    hi[2] = fmax(max0.z, max1.z) + grow;
}
