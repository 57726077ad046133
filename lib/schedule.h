/* SPDX-License-Identifier: MIT */
/* Time-to-collision scheduling arithmetic (Lin's survey section 7.1; I-COLLIDE; Mirtich's
 * Impulse): how far a body can have moved between two poses, and for how many frames a
 * pair at a certified gap cannot touch. The world (frame.c) applies it with the queue of
 * lib/sleep_wheel.h; docs/schedule.md gives the safety argument in full.
 *
 * The important parts:
 * - col_motion_bound: an upper bound mu on the distance any hull vertex moved between two
 *   poses, as the narrow phase computes world vertices (R v + p in doubles): |dp| plus the
 *   radius times the rotation's largest stretch ||R' - R||_2, bounded without libm
 *   trigonometry from the Frobenius norm (for rotations ||R' - R||_2 = ||R' - R||_F/sqrt 2
 *   = 2 sin(theta/2), the exact chord), every rounding covered upward;
 * - col_motion_declared: the bound D = v + r min(omega, 2) that the app's declared top
 *   speeds (col_body_def.max_linear_speed, max_angular_speed) give, rounded up like mu;
 * - col_motion_rearm: the per-frame bound m a body is armed with, floored by D. It may only
 *   grow when the body moved more than m (a "trip", which wakes all of the body's sleeping
 *   pairs), so m never exceeds the bound any sleeping pair of the body was put to sleep with
 *   (raising the declared speeds of a body arms a trip too: lib/body.c);
 * - col_sleep_frames: K = floor((gap - margin) / (m_a + m_b)), the frames after a test in
 *   which the pair is certainly still separated. Bounds are sums of non-negative per-body
 *   terms, so opposite motions never cancel (FCL #555).
 * Limits: K is capped at COL_SLEEP_MAX_FRAMES; coordinates within COL_MAX_COORD. */
#ifndef COLIBRI_LIB_SCHEDULE_H
#define COLIBRI_LIB_SCHEDULE_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/core/vec.h"

/* Longest sleep, in frames (a pair of bodies that never move sleeps this long at most). */
#define COL_SLEEP_MAX_FRAMES (1u << 24)

/* Headroom of the armed bound: after a trip m = COL_MOTION_TRIP_GROWTH * mu; otherwise m
 * decays by COL_MOTION_DECAY per moved frame, never below COL_MOTION_HEADROOM * mu (or,
 * while mu is within the declared bound D, never below D). */
#define COL_MOTION_TRIP_GROWTH 1.25
#define COL_MOTION_HEADROOM 1.0625
#define COL_MOTION_DECAY 0.96875

/* Upper bound on |x' - x| over the hull vertices v (|v| <= radius) with x = R v + p at
 * pose a and x' = R' v + p' at pose b, both as rounded by col_xform_point. Exactly 0 when
 * the two poses are bit-identical. radius is the hull's radius about its local origin. */
double col_motion_bound(const col_xform *a, const col_xform *b, double radius);

/* The per-frame bound D that declared top speeds give a body whose hull has this radius
 * about its origin: linear (length units per update, for the origin) plus radius times
 * min(angular, 2) (radians per update; the chord 2 sin(theta/2) is at most min(theta, 2)),
 * with the rounding allowances of col_motion_bound, so that a body keeping its promise
 * gets mu <= D. pmax is |p|_inf + |p'|_inf of the two poses (col_motion_bound's term).
 * 0 when the speeds are undeclared (linear < 0: COL_SPEED_UNDECLARED), i.e. no floor. */
double col_motion_declared(double linear, double angular, double radius, double pmax);

/* The bound a body is armed with after moving by mu, given the bound before and the
 * declared bound (col_motion_declared; 0 if none). *tripped is set when mu exceeds
 * bound_prev: the body's sleeping pairs must be re-tested now. The result never exceeds
 * bound_prev unless the body tripped, and within that limit it is never below declared. */
double col_motion_rearm(double bound_prev, double mu, double declared, bool *tripped);

/* Gap below which a pair is not put to sleep, so that every skipped frame keeps a true
 * separation above every exact backend's touching band (docs/scenes.md: ~1e-9 absolute; the
 * band of a rounding-aware backend also grows with the coordinates). ra, rb: the hulls'
 * radii; pa, pb: the bodies' positions. */
double col_sleep_margin(double ra, double rb, col_vec3 pa, col_vec3 pb);

/* Frames K after a test with certified gap (the backend's col_np_result.gap along a unit
 * axis) during which the pair stays separated by more than margin while the two bodies
 * move at most ma and mb per frame: K (ma + mb) <= gap - margin, rounding included.
 * 0 when the gap does not allow a single frame (or is not a positive number). */
uint32_t col_sleep_frames(double gap, double margin, double ma, double mb);

#endif
