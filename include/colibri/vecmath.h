/* SPDX-License-Identifier: MIT */
/* Value types for geometry: vectors, unit quaternions and rigid transforms, all double.
 * Named vecmath.h, not math.h, so an include path can never shadow <math.h>. */
#ifndef COLIBRI_VECMATH_H
#define COLIBRI_VECMATH_H

typedef struct col_vec3 {
    double x, y, z;
} col_vec3;

/* Unit quaternion, scalar part w. The rotation it stands for is the usual active one:
 * R(q) v = q v q*. */
typedef struct col_quat {
    double x, y, z, w;
} col_quat;

/* Rigid transform: x_world = R(q) x_local + p. */
typedef struct col_transform {
    col_vec3 p;
    col_quat q;
} col_transform;

static inline col_vec3 col_vec3_make(double x, double y, double z)
{
    col_vec3 v = {x, y, z};
    return v;
}
static inline col_quat col_quat_identity(void)
{
    col_quat q = {0.0, 0.0, 0.0, 1.0};
    return q;
}
static inline col_transform col_transform_identity(void)
{
    col_transform t = {{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0, 1.0}};
    return t;
}

#endif
