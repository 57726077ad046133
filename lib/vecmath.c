/* SPDX-License-Identifier: MIT */
/* The functions of include/colibri/vecmath.h that need <math.h>: kept out of the header
 * so that it stays stand-alone and an app that only includes it needs no libm. */
#include "colibri/vecmath.h"

#include <math.h>

col_quat col_quat_from_axis_angle(col_vec3 axis, double radians)
{
    /* Scaled by the largest component first, so that no axis overflows or underflows
     * in the squares (1e200 and 1e-310 are axes too). */
    double m = fmax(fabs(axis.x), fmax(fabs(axis.y), fabs(axis.z)));
    if (!(m > 0.0) || !isfinite(m) || !isfinite(axis.x + axis.y + axis.z) || !isfinite(radians)) {
        /* No rotation to give: NaNs, refused where a pose enters (COL_ERR_NOT_FINITE),
         * rather than a guess such as the identity. */
        col_quat bad = {NAN, NAN, NAN, NAN};
        return bad;
    }
    double x = axis.x / m, y = axis.y / m, z = axis.z / m;
    double s = sin(0.5 * radians) / sqrt(x * x + y * y + z * z);
    col_quat q = {x * s, y * s, z * s, cos(0.5 * radians)};
    return q;
}
