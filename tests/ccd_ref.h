/* SPDX-License-Identifier: MIT */
/* The motion model of continuous collision (docs/ccd.md) written out again for the tests'
 * references, independently of ccd/toi.c: position linear, orientation slerp on the
 * shorter arc by the acos formula (both quaternions normalised first). Header only. */
#ifndef COLIBRI_TESTS_CCD_REF_H
#define COLIBRI_TESTS_CCD_REF_H

#include <math.h>

#include "colibri/vecmath.h"

static inline col_transform ccd_ref_pose(col_transform x0, col_transform x1, double s)
{
    col_transform t;
    t.p.x = x0.p.x + s * (x1.p.x - x0.p.x);
    t.p.y = x0.p.y + s * (x1.p.y - x0.p.y);
    t.p.z = x0.p.z + s * (x1.p.z - x0.p.z);
    col_quat a = x0.q, b = x1.q;
    double n0 = sqrt(a.x * a.x + a.y * a.y + a.z * a.z + a.w * a.w);
    double n1 = sqrt(b.x * b.x + b.y * b.y + b.z * b.z + b.w * b.w);
    a = (col_quat){a.x / n0, a.y / n0, a.z / n0, a.w / n0};
    b = (col_quat){b.x / n1, b.y / n1, b.z / n1, b.w / n1};
    double d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;
    if (d < 0.0) {
        b = (col_quat){-b.x, -b.y, -b.z, -b.w};
        d = -d;
    }
    double ka = 1.0 - s, kb = s;
    if (d < 1.0 - 1e-12) {
        double th = acos(d > 1.0 ? 1.0 : d);
        ka = sin((1.0 - s) * th) / sin(th);
        kb = sin(s * th) / sin(th);
    }
    col_quat q = {ka * a.x + kb * b.x, ka * a.y + kb * b.y, ka * a.z + kb * b.z, ka * a.w + kb * b.w};
    double n = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    t.q = (col_quat){q.x / n, q.y / n, q.z / n, q.w / n};
    return t;
}

#endif
