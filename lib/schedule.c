/* SPDX-License-Identifier: MIT */
/* Motion bounds and sleep lengths for the time-to-collision schedule (schedule.h; Lin's
 * survey section 7.1, I-COLLIDE, Mirtich's Impulse). Every quantity here is rounded so
 * that it can only err on the safe side: motion bounds up, sleep lengths down. The only
 * libm call is sqrt, which IEEE 754 rounds correctly (docs/architecture.md, "Determinism and memory"). */
#include "lib/schedule.h"

#include <math.h>

/* Relative inflation covering the rounding of the few operations of each formula (each
 * costs at most a few units of 2^-53; 1e-12 is thousands of times more). */
#define COL_SCHED_REL 1e-12

double col_motion_bound(const col_xform *a, const col_xform *b, double radius)
{
    double dx = b->p.x - a->p.x, dy = b->p.y - a->p.y, dz = b->p.z - a->p.z;
    double f2 = 0.0;
    for (int k = 0; k < 9; k++) {
        double d = b->R.m[k] - a->R.m[k];
        f2 += d * d;
    }
    double p2 = dx * dx + dy * dy + dz * dz;
    /* Identical poses give identical world vertices: the body did not move at all. */
    if (p2 == 0.0 && f2 == 0.0) return 0.0;
    /* Rotation: for exact rotations S, S' = S Q, S' - S = S (Q - I) has singular values
     * 2 sin(theta/2) (twice) and 0, so ||S' - S||_2 = ||S' - S||_F / sqrt 2: the chord of
     * a unit vector, exactly. The matrices here are within eps of rotations (quaternions
     * are unit to 8 ulps, world.c; rounding of the formula of docs/scenes.md), eps < 2e-14 in the
     * Frobenius norm, which moves the 2-norm by at most 4 eps: the 1e-13 term. */
    double stretch = sqrt(f2) * 0.70710678118654757 + 1e-13;
    /* Rounding of R v + p at both poses: each world coordinate is off by a few ulps of
     * |R v| + |p| <= radius + |p|_inf; 1e-13 per unit covers both poses many times over. */
    double pmax = col_max_abs(a->p) + col_max_abs(b->p);
    double mu = sqrt(p2) + radius * (1.0 + COL_SCHED_REL) * stretch + 1e-13 * (2.0 * radius + pmax);
    return mu * (1.0 + COL_SCHED_REL);
}

double col_motion_declared(double linear, double angular, double radius, double pmax)
{
    if (!(linear >= 0.0)) return 0.0; /* undeclared: m is derived from the motion alone */
    /* col_motion_bound with the motion replaced by the promise, |p' - p| <= linear and a turn
     * by at most angular, whose chord 2 sin(theta/2) is at most min(theta, 2). A body that
     * keeps its promise must get mu <= D, or it would trip for nothing, so D covers what mu
     * adds to the exact motion: its computed Frobenius chord exceeds the exact chord of the
     * quaternions by less than 1e-13 (matrices within 2e-14 of rotations, rounding of the
     * sums), on top of which mu adds 1e-13 (hence 2e-13 here); its |p' - p| is computed with
     * a few ulps of relative error (the second factor 1 + 1e-12); the coordinate term is mu's,
     * with the same pmax. None of this matters for safety, which rests on mu <= m alone. */
    double chord = angular < 2.0 ? angular : 2.0;
    double d = linear + radius * (1.0 + COL_SCHED_REL) * (chord + 2e-13) + 1e-13 * (2.0 * radius + pmax);
    return d * (1.0 + COL_SCHED_REL) * (1.0 + COL_SCHED_REL);
}

double col_motion_rearm(double bound_prev, double mu, double declared, bool *tripped)
{
    /* The bound grows only at a trip: here, when the body moved farther than m allowed (the
     * world then re-tests every sleeping pair of the body in this frame), or when the app
     * raises its declared speeds (lib/body.c arms a trip for the next update). So no pair
     * sleeps on a bound smaller than the one in force. (Written so that a NaN mu trips and
     * stays NaN.) The declared bound is a floor: a body keeping its speeds never trips. */
    if (!(mu <= bound_prev)) {
        *tripped = true;
        double m = mu * COL_MOTION_TRIP_GROWTH;
        return declared > m ? declared : m;
    }
    *tripped = false;
    /* The headroom over mu keeps a body whose speed wavers from tripping at every small
     * speed-up; a declared bound that covers the motion already does that, so the headroom
     * is only for motion beyond it (with none declared, for all motion, as before). */
    double low = mu > declared ? mu * COL_MOTION_HEADROOM : declared, decayed = bound_prev * COL_MOTION_DECAY;
    double m = low > decayed ? low : decayed;
    /* Without a trip m never grows, not even to a declared bound above it (its coordinate
     * term grows with |p|): lib/body.c arms a trip when the app raises the speeds. */
    return m < bound_prev ? m : bound_prev;
}

double col_sleep_margin(double ra, double rb, col_vec3 pa, col_vec3 pb)
{
    return 1e-9 + 1e-8 * (ra + rb) + 1e-12 * (col_max_abs(pa) + col_max_abs(pb));
}

uint32_t col_sleep_frames(double gap, double margin, double ma, double mb)
{
    /* The gap is along an axis of length 1 +- a few ulps: after motions Ma, Mb the gap
     * along it is at least gap - |axis| (Ma + Mb); the relative factor on the motions
     * covers |axis| and the rounding of the sum and of the quotient. */
    double budget = gap - margin;
    if (!(budget > 0.0)) return 0;
    double speed = (ma + mb) * (1.0 + COL_SCHED_REL);
    if (!(speed >= 0.0)) return 0;
    if (speed == 0.0) return COL_SLEEP_MAX_FRAMES; /* neither body moves: until one trips */
    double q = budget / speed;
    if (!(q < (double)COL_SLEEP_MAX_FRAMES)) return q >= (double)COL_SLEEP_MAX_FRAMES ? COL_SLEEP_MAX_FRAMES : 0;
    return (uint32_t)q; /* truncation of a non-negative quotient: its floor */
}
