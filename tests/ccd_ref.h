/* SPDX-License-Identifier: MIT */
/* The motion model of continuous collision (docs/ccd.md) written out again for the tests'
 * references, independently of ccd/toi.c: position linear, orientation slerp on the
 * shorter arc by the acos formula (both quaternions normalised first). Header only. */
#ifndef COLIBRI_TESTS_CCD_REF_H
#define COLIBRI_TESTS_CCD_REF_H

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "colibri/query.h"
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

/* The substep-and-bisect reference of the time-of-impact tests (tests/test_toi.c,
 * tests/test_c2a.c): two geometries each moving between two poses. */
typedef struct ccd_ref_case {
    const col_geometry *a, *b;
    col_transform a0, a1, b0, b1;
} ccd_ref_case;

/* The exact discrete decision at s (the reference backend; meshes by their exact
 * triangle tests). A failed call is a broken test: abort. */
static inline bool ccd_ref_touch(col_query_scratch *sc, const ccd_ref_case *c, double s)
{
    bool hit = false;
    if (col_geometry_overlap(c->a, ccd_ref_pose(c->a0, c->a1, s), c->b, ccd_ref_pose(c->b0, c->b1, s),
                             COL_BACKEND_REFERENCE, sc, &hit) != COL_OK)
        abort();
    return hit;
}

/* The first contact: steps equal substeps decided exactly, then bisection between the last
 * free and the first touching one: hit, lo (free) and hi (touching), hi - lo <= 1e-9. */
static inline bool ccd_ref_first(col_query_scratch *sc, const ccd_ref_case *c, int steps, double *lo, double *hi)
{
    if (ccd_ref_touch(sc, c, 0.0)) {
        *lo = *hi = 0.0;
        return true;
    }
    for (int k = 1; k <= steps; k++) {
        double s = (double)k / steps;
        if (!ccd_ref_touch(sc, c, s)) continue;
        double l = (double)(k - 1) / steps, h = s;
        while (h - l > 1e-9) {
            double m = 0.5 * (l + h);
            if (ccd_ref_touch(sc, c, m)) h = m;
            else l = m;
        }
        *lo = l;
        *hi = h;
        return true;
    }
    *lo = *hi = 1.0;
    return false;
}

/* A contact in [s0, s1] found by 2000 samples (the confirmation of an early or extra hit). */
static inline bool ccd_ref_fine_touch(col_query_scratch *sc, const ccd_ref_case *c, double s0, double s1)
{
    for (int k = 0; k <= 2000; k++)
        if (ccd_ref_touch(sc, c, s0 + (s1 - s0) * k / 2000.0)) return true;
    return false;
}

#endif
