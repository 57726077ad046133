/* SPDX-License-Identifier: MIT */
/* The setup test_lpip and test_interframe share for tests on col_hull directly:
 * - g_alloc, the hulls' allocator (main calls col_alloc_init(&g_alloc, NULL));
 * - hull builds that must succeed: any points, a box, points on an ellipsoid;
 * - random unit vectors and rotations, drawn by rejection from the cube [-1, 1]^n (kept
 *   when the length is in (0.1, 1]) on the generator of tests/test_util.h;
 * - poses from a position and a rotation, and the identity rotation.
 * Header only, like test_util.h: one copy of g_alloc per test binary. Other narrow-phase
 * tests draw their directions differently (Gaussian, other cut-offs), which is why they
 * keep their own. */
#ifndef COLIBRI_TESTS_HULL_FIXTURES_H
#define COLIBRI_TESTS_HULL_FIXTURES_H

#include <math.h>
#include <stdio.h>

#include "lib/core/alloc.h"
#include "lib/core/hull.h"
#include "lib/core/vec.h"
#include "tests/test_util.h"

#define HULL_FIXTURES_MAX_PTS 400 /* most points build_blob() takes */

static col_alloc g_alloc;

static const col_quat Q_ID = {0.0, 0.0, 0.0, 1.0};

/* A unit vector, uniform over directions. */
static inline col_vec3 rand_unit(void)
{
    for (;;) {
        double x = urange(-1, 1);
        double y = urange(-1, 1);
        double z = urange(-1, 1);
        double l = sqrt(x * x + y * y + z * z);
        if (l > 0.1 && l <= 1.0) return col_v3(x / l, y / l, z / l);
    }
}

/* A unit quaternion, uniform over rotations. */
static inline col_quat rand_quat(void)
{
    for (;;) {
        double q[4];
        for (int k = 0; k < 4; k++) q[k] = urange(-1, 1);
        double l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        if (l < 0.1 || l > 1.0) continue;
        col_quat r = {q[0] / l, q[1] / l, q[2] / l, q[3] / l};
        return r;
    }
}

static inline void build(const col_vec3 *pts, int n, col_hull *h)
{
    char err[256];
    col_status st = col_hull_build(&g_alloc, pts, n, h, err, sizeof err);
    if (st != COL_OK) fprintf(stderr, "hull build failed: %s\n", err);
    assert_int_equal(st, COL_OK);
}

/* The box [-hx, hx] x [-hy, hy] x [-hz, hz]. */
static inline void build_box(double hx, double hy, double hz, col_hull *h)
{
    col_vec3 p[8];
    for (int i = 0; i < 8; i++) p[i] = col_v3(i & 1 ? hx : -hx, i & 2 ? hy : -hy, i & 4 ? hz : -hz);
    build(p, 8, h);
}

/* n random points on an ellipsoid with semi-axes (a, b, c). */
static inline void build_blob(int n, double a, double b, double c, col_hull *h)
{
    col_vec3 p[HULL_FIXTURES_MAX_PTS];
    assert_true(n <= HULL_FIXTURES_MAX_PTS);
    for (int i = 0; i < n; i++) {
        col_vec3 u = rand_unit();
        p[i] = col_v3(a * u.x, b * u.y, c * u.z);
    }
    build(p, n, h);
}

static inline col_xform pose(col_vec3 p, col_quat q)
{
    col_transform t;
    t.p = p;
    t.q = q;
    return col_xform_from_transform(t);
}

#endif
