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
/* The Hamilton product a b, the rotation b followed by a (unit in, unit to rounding out;
 * col_body_set_pose normalises within col_world_def.quaternion_tolerance). Summed in the
 * order of docs/scenes.md's motion, so a scene's poses are the same bit for bit. */
static inline col_quat col_quat_mul(col_quat a, col_quat b)
{
    col_quat r;
    r.x = a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y;
    r.y = a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x;
    r.z = a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w;
    r.w = a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z;
    return r;
}

#endif
