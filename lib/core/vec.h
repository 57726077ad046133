/* SPDX-License-Identifier: MIT */
/* Internal vector math on col_vec3 and 3x3 row-major matrices. Everything is static
 * inline and written out so that the build flag -ffp-contract=off keeps results
 * bit-identical across compilers and thread counts (docs/architecture.md, "Determinism and memory"). */
#ifndef COLIBRI_LIB_CORE_VEC_H
#define COLIBRI_LIB_CORE_VEC_H

#include <math.h>

#include "colibri/vecmath.h"

/* Row-major rotation matrix: m[3*row + col]. */
typedef struct col_mat3 {
    double m[9];
} col_mat3;

/* Pose as used by the geometry code: x_world = R x_local + p. */
typedef struct col_xform {
    col_mat3 R;
    col_vec3 p;
} col_xform;

static inline col_vec3 col_v3(double x, double y, double z)
{
    col_vec3 v = {x, y, z};
    return v;
}
static inline col_vec3 col_add(col_vec3 a, col_vec3 b) { return col_v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline col_vec3 col_sub(col_vec3 a, col_vec3 b) { return col_v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline col_vec3 col_scale(col_vec3 a, double s) { return col_v3(a.x * s, a.y * s, a.z * s); }
static inline col_vec3 col_neg(col_vec3 a) { return col_v3(-a.x, -a.y, -a.z); }
static inline double col_dot(col_vec3 a, col_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline col_vec3 col_cross(col_vec3 a, col_vec3 b)
{
    return col_v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline double col_len2(col_vec3 a) { return col_dot(a, a); }
static inline double col_len(col_vec3 a) { return sqrt(col_dot(a, a)); }
static inline double col_max_abs(col_vec3 a)
{
    double x = fabs(a.x), y = fabs(a.y), z = fabs(a.z);
    return x > y ? (x > z ? x : z) : (y > z ? y : z);
}
static inline int col_vec3_is_finite(col_vec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }

/* Rotation matrix of a unit quaternion, exactly the formula of docs/scenes.md (so world
 * vertices computed here equal the benchmark oracle's bit for bit). */
static inline col_mat3 col_mat3_from_quat(col_quat q)
{
    double w = q.w, x = q.x, y = q.y, z = q.z;
    col_mat3 r;
    r.m[0] = 1 - 2 * (y * y + z * z);
    r.m[1] = 2 * (x * y - w * z);
    r.m[2] = 2 * (x * z + w * y);
    r.m[3] = 2 * (x * y + w * z);
    r.m[4] = 1 - 2 * (x * x + z * z);
    r.m[5] = 2 * (y * z - w * x);
    r.m[6] = 2 * (x * z - w * y);
    r.m[7] = 2 * (y * z + w * x);
    r.m[8] = 1 - 2 * (x * x + y * y);
    return r;
}

/* R v, summed left to right as docs/scenes.md's exact answer does: R[3a] x + R[3a+1] y + R[3a+2] z. */
static inline col_vec3 col_mat3_mul(const col_mat3 *r, col_vec3 v)
{
    const double *m = r->m;
    return col_v3(m[0] * v.x + m[1] * v.y + m[2] * v.z, m[3] * v.x + m[4] * v.y + m[5] * v.z,
                  m[6] * v.x + m[7] * v.y + m[8] * v.z);
}
/* R^T v: a world direction into the local frame. */
static inline col_vec3 col_mat3_tmul(const col_mat3 *r, col_vec3 v)
{
    const double *m = r->m;
    return col_v3(m[0] * v.x + m[3] * v.y + m[6] * v.z, m[1] * v.x + m[4] * v.y + m[7] * v.z,
                  m[2] * v.x + m[5] * v.y + m[8] * v.z);
}
/* x_world = R x + p, with the rotation summed first and p added last (the oracle's order). */
static inline col_vec3 col_xform_point(const col_xform *t, col_vec3 x)
{
    const double *m = t->R.m;
    return col_v3(m[0] * x.x + m[1] * x.y + m[2] * x.z + t->p.x,
                  m[3] * x.x + m[4] * x.y + m[5] * x.z + t->p.y,
                  m[6] * x.x + m[7] * x.y + m[8] * x.z + t->p.z);
}
static inline col_xform col_xform_from_transform(col_transform t)
{
    col_xform x;
    x.R = col_mat3_from_quat(t.q);
    x.p = t.p;
    return x;
}

#endif
