/* SPDX-License-Identifier: MIT */
/* Value types for geometry: vectors, unit quaternions and rigid transforms, all double,
 * and the conversions an app needs to hand poses in (from OpenXR's single-precision
 * poses, from an axis and an angle). Named vecmath.h, not math.h, so an include path can
 * never shadow <math.h>.
 *
 * Quaternion order: col_quat is (x, y, z, w) in memory, the scalar part LAST, as in
 * OpenXR's XrQuaternionf, Unity, Eigen's coeffs() and glTF. Colibri's scene files
 * (docs/scenes.md) write the scalar part FIRST (qw qx qy qz); the bench converts. */
#ifndef COLIBRI_VECMATH_H
#define COLIBRI_VECMATH_H

#include "colibri/base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct col_vec3 {
    double x, y, z;
} col_vec3;

/* Unit quaternion, members x, y, z, w in this order (scalar part w last). The rotation it
 * stands for is the usual active one: R(q) v = q v q*; the rotation by angle t about the
 * unit axis u is (u sin(t/2), cos(t/2)) (col_quat_from_axis_angle). */
typedef struct col_quat {
    double x, y, z, w;
} col_quat;

/* Rigid transform: x_world = R(q) x_local + p (q in x, y, z, w order, as col_quat). */
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


/* A vector from the three floats at v (OpenXR's XrVector3f: &vec.x), converted exactly.
 * Pointers, not array parameters: GCC warns when &vec.x is passed for an array. */
static inline col_vec3 col_vec3_from_floats(const float *v)
{
    col_vec3 r = {v[0], v[1], v[2]};
    return r;
}

/* A quaternion from four floats in x, y, z, w order at xyzw (OpenXR's
 * XrQuaternionf: &pose.orientation.x), converted exactly and not renormalised: a unit
 * quaternion in single precision is unit to about 1e-7, within the default
 * col_world_def.quaternion_tolerance (1e-6), and col_body_set_pose renormalises it in double. */
static inline col_quat col_quat_from_floats(const float *xyzw)
{
    col_quat q = {xyzw[0], xyzw[1], xyzw[2], xyzw[3]};
    return q;
}

/* A pose from OpenXR's single-precision position and (x, y, z, w) orientation, e.g.
 * col_transform_from_floats(&space_location.pose.position.x,
 * &space_location.pose.orientation.x); as the two calls above. */
static inline col_transform col_transform_from_floats(const float *position, const float *orientation_xyzw)
{
    col_transform t;
    t.p = col_vec3_from_floats(position);
    t.q = col_quat_from_floats(orientation_xyzw);
    return t;
}

/* The rotation by radians (right-handed: counter-clockwise looking down the axis) about
 * axis, which need not be unit: (u sin(radians/2), cos(radians/2)) with u = axis/|axis|,
 * in double, unit to a few ulps. A zero or non-finite axis or a non-finite angle gives a
 * quaternion of NaNs, which every call that takes a pose refuses (COL_ERR_NOT_FINITE).
 * A library function (not inline) so that this header needs no <math.h> and the app no
 * libm. */
COL_API col_quat col_quat_from_axis_angle(col_vec3 axis, double radians);

#ifdef __cplusplus
}
#endif
#endif
