/* SPDX-License-Identifier: MIT */
/* The swept test (swept.h). The time of impact answers "no contact in [0, 1]" only when
 * it has proven it (the advancement passed s = 1 with every step certified), and
 * otherwise reports an instant at or before the first contact (docs/ccd.md, "What the
 * answer promises"): so a hit is exactly "touched during the interval", with two
 * documented exceptions that both err toward "touched" (a pass within the distance
 * tolerance, and the iteration cap, reported as uncertain). Nothing is swept as a
 * volume: an earlier version decided hull pairs on the swept hull of the LP backend
 * (ccd/lpip_sweep.h, exact only without rotation) and every other pair on its swept
 * boxes alone. */
#include "ccd/swept.h"

#include "ccd/c2a.h"

void col_ccd_toi(const col_geometry *a, const col_toi_motion *ma, const col_geometry *b, const col_toi_motion *mb,
                 col_toi_result *out)
{
    if (col_geometry_is_mesh(a) || col_geometry_is_mesh(b)) col_c2a_toi(a, ma, b, mb, NULL, out, NULL);
    else col_toi_convex(a, ma, b, mb, out);
}

void col_ccd_swept(const col_geometry *a, col_transform a0, col_transform a1, const col_geometry *b, col_transform b0,
                   col_transform b1, col_ccd_swept_result *out)
{
    col_toi_motion ma, mb;
    col_toi_motion_init(&ma, a0, a1);
    col_toi_motion_init(&mb, b0, b1);
    col_toi_result r;
    col_ccd_toi(a, &ma, b, &mb, &r);
    out->touched = r.hit;
    out->certain = !r.capped;
    out->s = r.hit ? r.s : 1.0;
}
