/* SPDX-License-Identifier: MIT */
/* Time of impact of two convex shapes (hulls, spheres, capsules, compounds) moving
 * between two pose pairs, by conservative advancement (Mirtich 1996; Zhang et al. 2006;
 * the directed bound of Tang, Kim & Manocha's C2A, ICRA 2009, Lemma 1). The motion
 * model, the bound and the promises are in docs/ccd.md; the loop is in toi.c.
 *
 * The important parts:
 * - col_toi_motion: one body's motion (position linear, orientation slerp on the
 *   shorter arc), its pose at any s in [0, 1];
 * - col_toi_convex: hit or proven miss, the first instant s (never late), the normal and
 *   the points at s. No allocation, no scratch. */
#ifndef COLIBRI_CCD_TOI_H
#define COLIBRI_CCD_TOI_H

#include <stdbool.h>

#include "lib/core/geometry.h"
#include "lib/core/vec.h"
#include "narrowphase/rounded.h"

/* Iterations of the advancement before it gives up and reports contact at the instant
 * reached (a lower bound of the first contact; docs/ccd.md). */
#define COL_TOI_MAX_ITERATIONS 4096

/* One body's motion from pose x0 (s = 0) to x1 (s = 1): p(s) = p0 + s (p1 - p0), q(s) =
 * slerp(q0, q1', s) with q1' = -q1 when q0.q1 < 0. Quaternions unit (checked by the
 * caller). omega: the constant angular velocity (world frame, radians per interval). */
typedef struct col_toi_motion {
    col_transform x0, x1; /* x1.q already on q0's side (q1') */
    col_vec3 v;           /* p1 - p0 */
    col_vec3 omega;       /* world axis times the rotation angle, rounded up in length */
    double half_angle;    /* angle of q1' q0* over 2, in [0, pi/2] */
} col_toi_motion;

/* The motion from x0 to x1 (unit quaternions). */
void col_toi_motion_init(col_toi_motion *m, col_transform x0, col_transform x1);
/* The pose at s in [0, 1] (s = 0 and 1 give x0 and x1' exactly). */
col_transform col_toi_pose_at(const col_toi_motion *m, double s);

typedef struct col_toi_result {
    bool hit;           /* the shapes share a point at some s in [0, 1] (or are within the
                           documented tolerance of touching: docs/ccd.md) */
    bool capped;        /* hit reported because the iteration cap was reached (s is a lower bound) */
    double s;           /* hit: at or before the first contact; miss: 1 */
    col_vec3 normal;    /* hit: unit, from a toward b, at s */
    col_vec3 point_a, point_b; /* hit: world closest points (or a common point) at s */
    int piece_a, piece_b;      /* hit: the pieces of the contact */
    int iterations;     /* distance rounds */
} col_toi_result;

/* A piece as the core+radius kernel's input. */
static inline col_core col_toi_piece_core(const col_piece *p)
{
    col_core c;
    c.points = col_piece_points(p, &c.count);
    c.hull = p->kind == COL_SHAPE_HULL ? &p->hull : NULL;
    c.radius = p->radius;
    return c;
}

/* The farthest core point of a piece from the body's origin, rounded up (what a turn of
 * the body moves it by, per radian). */
static inline double col_toi_piece_reach(const col_piece *p)
{
    double r = p->bound_radius - p->radius;
    return (r > 0.0 ? r : 0.0) * (1.0 + 1e-12);
}

/* The first contact of a (moving by ma) and b (moving by mb), both not meshes. */
void col_toi_convex(const col_geometry *a, const col_toi_motion *ma, const col_geometry *b, const col_toi_motion *mb,
                    col_toi_result *out);

/* The contact of a and b at s as col_toi_convex reports it (hit true, the normal and the
 * points of the piece pair sharing a point, else of the least separated one), for a
 * caller that knows they touch at s by another exact test (lib/continuous.c: the
 * discrete pair lists at s = 0 and s = 1). */
void col_toi_contact_at(const col_geometry *a, const col_toi_motion *ma, const col_geometry *b,
                        const col_toi_motion *mb, double s, col_toi_result *out);

#endif
