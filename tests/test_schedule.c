/* SPDX-License-Identifier: MIT */
/* The time-to-collision schedule (lib/schedule.c, lib/sleep_wheel.c, lib/frame.c;
 * Lin's survey section 7.1, I-COLLIDE, Mirtich's Impulse).
 * - Motion bounds: col_motion_bound is never below the true largest vertex displacement
 *   (checked on random poses against the hull's actual world vertices), is exact zero for
 *   identical poses and close to the chord for pure rotations; col_sleep_frames keeps
 *   K (ma + mb) <= gap - margin; col_motion_rearm grows only on a trip and never drops
 *   below the declared bound; col_motion_declared is at least mu for a body that keeps its
 *   declared speeds (so it never trips) and close to v + r min(w, 2).
 * - The randomized world test: one scene driven twice, with COL_SCHEDULE_EVERY and with
 *   COL_SCHEDULE_TTC, for every backend; bodies that move smoothly, teleport, stop (with
 *   and without setting the same pose again), speed up and slow down, spin fast, static
 *   bodies (some teleported), filters, pairs disabled and enabled again, bodies added and
 *   removed mid-run. Oracle: the EVERY world. Per frame the pair list, began and ended
 *   must be identical, and ttc must really have skipped narrow-phase calls. The same with
 *   declared speeds (col_body_set_max_speeds): bodies that keep them (and must never trip),
 *   exceed them (teleports, lunges, liars), get them raised and lowered mid-run with and
 *   without a pose change in the same frame, and are added and removed mid-run; every
 *   backend, ttc on 1 and 3 workers.
 * - Scripted cases: a teleport, a speed-up, a raise of the declared speeds (with and
 *   without a pose change in that frame) each wake a sleeping pair in time; bad speeds are
 *   refused with the world unchanged. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colibri/colibri.h"
#include "lib/core/vec.h"
#include "lib/schedule.h"
#include "lib/world.h"
#include "tests/test_util.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* ---- random draws (generator: tests/test_util.h) ---- */

static int irand(int n) { return (int)(rng_next() % (uint64_t)n); }
static bool chance(double p) { return urand() < p; }

static col_quat quat_normalize(col_quat q)
{
    double n = sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
    col_quat r = {q.x / n, q.y / n, q.z / n, q.w / n};
    return r;
}

/* Hamilton product a * b. */
/* Rotation by the vector w (axis times angle in radians). */
static col_quat quat_from_rotvec(col_vec3 w)
{
    double a = sqrt(w.x * w.x + w.y * w.y + w.z * w.z);
    col_quat q = {0, 0, 0, 1};
    if (a == 0) return q;
    double s = sin(0.5 * a) / a;
    q.x = w.x * s;
    q.y = w.y * s;
    q.z = w.z * s;
    q.w = cos(0.5 * a);
    return q;
}

static col_vec3 random_dir(void)
{
    for (;;) { /* rejection sampling: accepts with probability pi/6 per draw */
        double x = urange(-1, 1), y = urange(-1, 1), z = urange(-1, 1), r2 = x * x + y * y + z * z;
        if (r2 > 1e-6 && r2 <= 1) {
            double r = sqrt(r2);
            return col_v3(x / r, y / r, z / r);
        }
    }
}

/* ---- motion-bound unit tests ---- */

static void random_points(col_vec3 *p, int n, double scale)
{
    for (int i = 0; i < n; i++) p[i] = col_scale(random_dir(), scale * urange(0.2, 1.0));
}

static void test_motion_bound_is_an_upper_bound(void **state)
{
    (void)state;
    rng_seed(0x5c4edULL, __func__);
    col_vec3 v[40];
    int tight = 0, trials = 20000;
    for (int t = 0; t < trials; t++) {
        double scale = pow(10.0, urange(-3, 3));
        random_points(v, 40, scale);
        double radius = 0;
        for (int i = 0; i < 40; i++) radius = fmax(radius, col_len(v[i]));
        double far = pow(10.0, urange(-2, 6));
        col_transform ta = {col_scale(random_dir(), far * urand()), random_quat()};
        col_transform tb = ta;
        int kind = irand(4);
        double step = scale * pow(10.0, urange(-6, 1));
        if (kind != 1) tb.p = col_add(ta.p, col_scale(random_dir(), step * urand()));
        if (kind != 0) tb.q = quat_normalize(col_quat_mul(quat_from_rotvec(col_scale(random_dir(), urange(0, kind == 3 ? M_PI : 0.3))), ta.q));
        col_xform xa = col_xform_from_transform(ta), xb = col_xform_from_transform(tb);
        double mu = col_motion_bound(&xa, &xb, radius);
        double worst = 0;
        for (int i = 0; i < 40; i++) {
            col_vec3 a = col_xform_point(&xa, v[i]), b = col_xform_point(&xb, v[i]);
            /* the displacement of the rounded world vertices, in long double */
            long double dx = (long double)b.x - a.x, dy = (long double)b.y - a.y, dz = (long double)b.z - a.z;
            double d = (double)sqrtl(dx * dx + dy * dy + dz * dz);
            worst = fmax(worst, d);
        }
        assert_true(mu >= worst);
        /* and not wildly above it: the chord bound is exact up to the vertex layout */
        if (worst > 1e-9 * (scale + far) && mu < 1.5 * worst + 1e-9 * (scale + far)) tight++;
    }
    assert_true(tight > trials / 2);
    /* identical poses: exactly zero */
    col_transform t0 = {col_v3(1, 2, 3), random_quat()};
    col_xform x0 = col_xform_from_transform(t0);
    assert_true(col_motion_bound(&x0, &x0, 5.0) == 0.0);
    /* pure rotation by theta about the origin: about 2 r sin(theta / 2) */
    col_transform t1 = {col_v3(0, 0, 0), quat_from_rotvec(col_v3(0, 0, 0.2))};
    col_transform t2 = {col_v3(0, 0, 0), quat_from_rotvec(col_v3(0, 0, 0.3))};
    col_xform x1 = col_xform_from_transform(t1), x2 = col_xform_from_transform(t2);
    double chord = 2 * 2.0 * sin(0.05);
    double mu = col_motion_bound(&x1, &x2, 2.0);
    assert_true(mu >= chord && mu < chord * (1 + 1e-9));
}

static void test_sleep_frames(void **state)
{
    (void)state;
    assert_int_equal(col_sleep_frames(1.0, 0.0, 0.2, 0.2), 2);
    assert_int_equal(col_sleep_frames(1.0, 0.0, 0.25, 0.25), 1); /* 2 exactly: rounded down */
    assert_int_equal(col_sleep_frames(1.0, 0.0, 0.1, 0.0), 9); /* 10 exactly, rounded down */
    assert_int_equal(col_sleep_frames(0.0, 0.0, 0.1, 0.1), 0);
    assert_int_equal(col_sleep_frames(1e-9, 1e-9, 0.1, 0.1), 0);
    assert_int_equal(col_sleep_frames(-1.0, 0.0, 0.1, 0.1), 0);
    assert_int_equal(col_sleep_frames(NAN, 0.0, 0.1, 0.1), 0);
    assert_int_equal(col_sleep_frames(1.0, 0.0, INFINITY, 0.1), 0);
    assert_int_equal(col_sleep_frames(1.0, 0.0, 0.0, 0.0), COL_SLEEP_MAX_FRAMES);
    assert_int_equal(col_sleep_frames(1e300, 0.0, 1e-300, 0.0), COL_SLEEP_MAX_FRAMES);
    rng_seed(0x51ee9ULL, __func__);
    for (int t = 0; t < 100000; t++) {
        double gap = pow(10.0, urange(-12, 3)), margin = gap * urange(0, 1.2);
        double ma = chance(0.1) ? 0.0 : pow(10.0, urange(-6, 2)), mb = chance(0.1) ? 0.0 : pow(10.0, urange(-6, 2));
        uint32_t k = col_sleep_frames(gap, margin, ma, mb);
        long double used = (long double)k * ((long double)ma + mb);
        assert_true(k == 0 || used <= (long double)gap - margin);
        /* one frame more would not fit (or the cap was hit) */
        if (k < COL_SLEEP_MAX_FRAMES && ma + mb > 0)
            assert_true((long double)(k + 2) * ((long double)ma + mb) > (long double)gap - margin);
    }
    /* the margin grows with sizes and coordinates */
    assert_true(col_sleep_margin(1, 1, col_v3(0, 0, 0), col_v3(0, 0, 0)) >= 1e-9);
    assert_true(col_sleep_margin(1, 1, col_v3(1e9, 0, 0), col_v3(0, 0, 0)) > 1e-3);
}

static void test_rearm(void **state)
{
    (void)state;
    bool tripped = true;
    double m = col_motion_rearm(0.0, 0.0, 0.0, &tripped);
    assert_false(tripped);
    assert_true(m == 0.0);
    m = col_motion_rearm(0.0, 1e-300, 0.0, &tripped); /* any motion beyond a zero bound trips */
    assert_true(tripped);
    m = col_motion_rearm(1.0, 2.0, 0.0, &tripped);
    assert_true(tripped);
    assert_true(m >= 2.0);
    /* without a trip it never grows, and never drops below mu */
    rng_seed(0xa7e3ULL, __func__);
    double bound = 1.0;
    for (int t = 0; t < 10000; t++) {
        double mu = urange(0, 1.2) * bound;
        double next = col_motion_rearm(bound, mu, 0.0, &tripped);
        assert_int_equal(tripped, mu > bound);
        if (!tripped) assert_true(next <= bound);
        assert_true(next >= mu);
        bound = next;
    }
    m = col_motion_rearm(1.0, NAN, 0.0, &tripped);
    assert_true(tripped);
    /* with a declared bound: never below it, and still no growth without a trip */
    for (int t = 0; t < 10000; t++) {
        double d = urange(0, 1.5) * bound, mu = urange(0, 1.5) * bound;
        double next = col_motion_rearm(bound, mu, d, &tripped);
        assert_int_equal(tripped, mu > bound);
        if (tripped) assert_true(next >= d && next >= mu);
        else assert_true(next <= bound && next >= (d < bound ? d : bound) && next >= mu);
        bound = next > 1e-3 ? next : 1.0;
    }
    /* motion within the declared bound: m decays to the bound itself, no headroom over mu */
    bound = 1.0;
    for (int t = 0; t < 200; t++) {
        bound = col_motion_rearm(bound, 0.5, 0.5, &tripped);
        assert_false(tripped);
    }
    assert_true(bound == 0.5);
    assert_true(col_motion_rearm(bound, 0.5, 0.0, &tripped) == 0.5); /* none declared: capped */
    m = col_motion_rearm(0.6, 0.5, 0.0, &tripped);
    assert_true(m == 0.6 * COL_MOTION_DECAY || m == 0.5 * COL_MOTION_HEADROOM);
    assert_true(m >= 0.5 * COL_MOTION_HEADROOM);
    m = col_motion_rearm(0.5, 0.1, 0.75, &tripped); /* a declared bound above m: no growth */
    assert_false(tripped);
    assert_true(m == 0.5);
    m = col_motion_rearm(0.5, 0.6, 2.0, &tripped);
    assert_true(tripped);
    assert_true(m == 2.0);
}

/* col_motion_declared: a body that moves and turns exactly as much as it declared (the
 * tightest case: tiny and large angles, no rotation, far from the origin) gets mu <= D, so it
 * never trips; D is close to v + r min(w, 2); undeclared speeds give no floor. */
static void test_declared_bound(void **state)
{
    (void)state;
    rng_seed(0xdec1aeULL, __func__);
    assert_true(col_motion_declared(COL_SPEED_UNDECLARED, COL_SPEED_UNDECLARED, 1.0, 0.0) == 0.0);
    double d0 = col_motion_declared(0.0, 0.0, 1.0, 0.0);
    assert_true(d0 > 0.0 && d0 < 1e-12);
    assert_true(col_motion_declared(0.0, 10.0, 1.0, 0.0) < 2.0 * (1 + 1e-11)); /* the chord is at most 2 r */
    int trials = 20000;
    for (int t = 0; t < trials; t++) {
        double radius = pow(10.0, urange(-3, 3)), far = chance(0.2) ? 0.0 : pow(10.0, urange(-2, 9));
        col_transform ta = {col_scale(random_dir(), far * urand()), random_quat()};
        col_transform tb = ta;
        int kind = irand(5);
        double angle = 0.0;
        if (kind == 1) angle = pow(10.0, urange(-9, -3));
        if (kind == 2) angle = urange(0, 1);
        if (kind == 3) angle = urange(2, M_PI);
        if (kind != 0 && kind != 4)
            tb.q = quat_normalize(col_quat_mul(quat_from_rotvec(col_scale(random_dir(), angle)), ta.q));
        if (kind != 4 || chance(0.5)) tb.p = col_add(ta.p, col_scale(random_dir(), radius * pow(10.0, urange(-8, 1))));
        /* the distance as declared: the exact one between the two double positions */
        long double dx = (long double)tb.p.x - ta.p.x, dy = (long double)tb.p.y - ta.p.y,
                    dz = (long double)tb.p.z - ta.p.z;
        double linear = (double)sqrtl(dx * dx + dy * dy + dz * dz);
        col_xform xa = col_xform_from_transform(ta), xb = col_xform_from_transform(tb);
        double pmax = col_max_abs(ta.p) + col_max_abs(tb.p);
        double mu = col_motion_bound(&xa, &xb, radius), d = col_motion_declared(linear, angle, radius, pmax);
        if (!(mu <= d)) fail_msg("trial %d: mu %.17g > D %.17g (kind %d, angle %g)", t, mu, d, kind, angle);
        double ideal = linear + radius * (angle < 2 ? angle : 2);
        assert_true(d <= ideal * (1 + 1e-11) + 1e-12 * (radius + pmax));
    }
}

/* ---- the randomized world test ---- */

/* MOVER: steady; TELEPORTER: jumps anywhere; HOPPER: short jumps in its neighbourhood (so
 * its sleeping pairs stay in the broad phase); STOPPER: stops and starts; SPEEDER: speed
 * times 4 or divided by 4; LUNGER: creeps, then lunges at its nearest neighbour; SPINNER:
 * fast rotation; STATIC_STILL, STATIC_JUMPER: static bodies, the latter teleported. */
enum behaviour { MOVER, TELEPORTER, HOPPER, STOPPER, SPEEDER, LUNGER, SPINNER, STATIC_STILL, STATIC_JUMPER, BEHAVIOURS };

#define ROOM 12.0
#define MAX_BODIES 160
#define SHAPES 8

typedef struct sim_body {
    bool live;
    int shape;
    int behaviour;
    bool stopped;
    bool resend_when_stopped; /* a stopped body keeps getting the same pose set */
    int lunge;                /* frames of lunge left */
    col_vec3 p, v, w;         /* position, velocity and rotation vector per frame */
    col_quat q;
    uint32_t group, mask;
    col_body_id id[2];
    /* declared speeds (the sim's declared mode): the factor on |v| and |w| the body declares
     * (COL_SPEED_UNDECLARED: none), and whether it keeps its promise and so must never trip */
    double declare_factor;
    bool honest;
} sim_body;

typedef struct sim {
    col_world *world[2]; /* 0: every, 1: ttc */
    col_shape_id shape[2][SHAPES];
    double shape_radius[SHAPES];
    sim_body body[MAX_BODIES];
    int live;
    bool declared;  /* bodies declare speeds (col_body_set_max_speeds) */
    long redeclared[2]; /* speeds changed on a body that did [0] / did not [1] get a pose that frame */
} sim;

static void make_shapes(sim *s)
{
    for (int k = 0; k < SHAPES; k++) {
        col_vec3 p[32];
        int n;
        if (k % 3 == 0) { /* a box */
            double hx = urange(0.2, 0.8), hy = urange(0.2, 0.8), hz = urange(0.2, 0.8);
            n = 8;
            for (int i = 0; i < 8; i++) p[i] = col_v3(i & 1 ? hx : -hx, i & 2 ? hy : -hy, i & 4 ? hz : -hz);
        } else if (k % 3 == 1) { /* a blob */
            n = 12 + irand(20);
            random_points(p, n, urange(0.3, 0.9));
        } else { /* a needle-like slab, off its origin */
            n = 8;
            double len = urange(1.0, 1.8), off = urange(0, 0.4);
            for (int i = 0; i < 8; i++) p[i] = col_v3((i & 1 ? len : -len) * 0.5 + off, i & 2 ? 0.12 : -0.12, i & 4 ? 0.2 : -0.2);
        }
        double r = 0;
        for (int i = 0; i < n; i++) r = fmax(r, col_len(p[i]));
        s->shape_radius[k] = r;
        for (int w = 0; w < 2; w++) assert_int_equal(col_shape_create_convex(s->world[w], p, n, &s->shape[w][k]), COL_OK);
    }
}

static col_transform pose_of(const sim_body *b)
{
    col_transform t = {b->p, b->q};
    return t;
}

static void spawn(sim *s, int slot)
{
    sim_body *b = &s->body[slot];
    memset(b, 0, sizeof *b);
    b->live = true;
    b->shape = irand(SHAPES);
    b->behaviour = irand(BEHAVIOURS);
    b->p = col_v3(urange(1, ROOM - 1), urange(1, ROOM - 1), urange(1, ROOM - 1));
    b->q = random_quat();
    double speed = urange(0.001, 0.02);
    b->v = col_scale(random_dir(), b->behaviour == LUNGER ? 0.003 : speed);
    b->w = col_scale(random_dir(), b->behaviour == SPINNER ? urange(0.5, 1.5) : urange(0.0, 0.015));
    b->resend_when_stopped = chance(0.5);
    /* filters: most bodies see everything; some only their own group */
    b->group = 1u << irand(3);
    b->mask = chance(0.8) ? UINT32_MAX : b->group;
    col_body_def def = col_default_body_def();
    def.pose = pose_of(b);
    def.is_static = b->behaviour == STATIC_STILL || b->behaviour == STATIC_JUMPER;
    def.filter_group = b->group;
    def.filter_mask = b->mask;
    b->declare_factor = COL_SPEED_UNDECLARED;
    if (s->declared) { /* (no draws otherwise: the other tests keep their random streams) */
        double u = urand();
        /* none; exactly |v| and |w| (the tightest promise); 3 times that; a liar (0.3); 0 */
        b->declare_factor = u < 0.2 ? COL_SPEED_UNDECLARED : u < 0.55 ? 1.0 : u < 0.75 ? 3.0 : u < 0.9 ? 0.3 : 0.0;
        /* the behaviours whose motion is |v| and |w| per frame at most (walls flip a component) */
        bool steady = b->behaviour == MOVER || b->behaviour == SPINNER || b->behaviour == STOPPER;
        b->honest = (b->declare_factor >= 1.0 && (steady || b->behaviour == STATIC_STILL)) ||
                    (b->declare_factor == 0.0 && b->behaviour == STATIC_STILL);
        if (b->declare_factor != COL_SPEED_UNDECLARED) {
            def.max_linear_speed = b->declare_factor * col_len(b->v);
            def.max_angular_speed = b->declare_factor * col_len(b->w);
        }
    }
    for (int w = 0; w < 2; w++) {
        def.shape = s->shape[w][b->shape];
        assert_int_equal(col_body_create(s->world[w], &def, &b->id[w]), COL_OK);
    }
    assert_int_equal(b->id[0].index1, b->id[1].index1);
    assert_int_equal(b->id[0].generation, b->id[1].generation);
    s->live++;
}

static void despawn(sim *s, int slot)
{
    sim_body *b = &s->body[slot];
    for (int w = 0; w < 2; w++) assert_int_equal(col_body_destroy(s->world[w], b->id[w]), COL_OK);
    b->live = false;
    s->live--;
}

/* Sets a body's declared speeds in both worlds. */
static void declare(sim *s, int k, double linear, double angular)
{
    for (int w = 0; w < 2; w++)
        assert_int_equal(col_body_set_max_speeds(s->world[w], s->body[k].id[w], linear, angular), COL_OK);
}

/* Declared mode: a body that changes its speed declares the new one (its factor times |v|
 * and |w|) before it moves at it, as an honest app does; half the time in a frame where it
 * sets no pose (true: the body waits this frame). */
static bool redeclare_speed(sim *s, int self)
{
    sim_body *b = &s->body[self];
    if (!s->declared || b->declare_factor == COL_SPEED_UNDECLARED) return false;
    declare(s, self, b->declare_factor * col_len(b->v), b->declare_factor * col_len(b->w));
    bool wait = chance(0.5);
    s->redeclared[wait ? 1 : 0]++;
    return wait;
}

static int nearest(const sim *s, int self)
{
    int best = -1;
    double bd = INFINITY;
    for (int k = 0; k < MAX_BODIES; k++) {
        if (k == self || !s->body[k].live) continue;
        double d = col_len(col_sub(s->body[k].p, s->body[self].p));
        if (d < bd) {
            bd = d;
            best = k;
        }
    }
    return best;
}

/* One frame of a body's motion; returns whether its pose is to be set. */
static bool advance(sim *s, int self, int frame)
{
    sim_body *b = &s->body[self];
    switch (b->behaviour) {
    case STATIC_STILL:
        return false;
    case STATIC_JUMPER:
        if (!chance(0.01)) return false;
        b->p = col_v3(urange(1, ROOM - 1), urange(1, ROOM - 1), urange(1, ROOM - 1));
        b->q = random_quat();
        return true;
    case TELEPORTER:
        if (chance(0.03)) {
            b->p = col_v3(urange(1, ROOM - 1), urange(1, ROOM - 1), urange(1, ROOM - 1));
            b->q = random_quat();
            return true;
        }
        break;
    case HOPPER:
        if (chance(0.05)) {
            b->p = col_add(b->p, col_scale(random_dir(), urange(0.1, 0.8)));
            b->q = quat_normalize(col_quat_mul(quat_from_rotvec(col_scale(random_dir(), urange(0, 1))), b->q));
            return true;
        }
        break;
    case LUNGER:
        if (b->lunge == 0 && chance(0.04)) {
            int t = nearest(s, self);
            if (t >= 0) {
                col_vec3 d = col_sub(s->body[t].p, b->p);
                double len = col_len(d);
                if (len > 0) {
                    b->v = col_scale(d, 0.2 / len);
                    b->lunge = 6;
                    /* declared: the raise before the lunge, half the time a frame ahead
                     * (its pairs slept on the creeping speed: only the trip wakes them) */
                    if (redeclare_speed(s, self)) return false;
                }
            }
        } else if (b->lunge > 0 && --b->lunge == 0) {
            b->v = col_scale(random_dir(), 0.003);
            redeclare_speed(s, self);
        }
        break;
    case STOPPER:
        if (chance(0.05)) b->stopped = !b->stopped;
        if (b->stopped) return b->resend_when_stopped;
        break;
    case SPEEDER:
        if (frame % 37 == 0 || chance(0.02)) {
            double f = chance(0.5) ? 4.0 : 0.25;
            double sp = col_len(b->v) * f;
            if (sp > 0.3) sp = 0.3;
            if (sp < 0.002) sp = 0.002;
            b->v = col_scale(random_dir(), sp);
            b->w = col_scale(b->w, f > 1 ? 3.0 : 1.0 / 3.0);
            if (redeclare_speed(s, self)) return false;
        }
        break;
    default:
        break;
    }
    b->p = col_add(b->p, b->v);
    double c[3] = {b->p.x, b->p.y, b->p.z}, vv[3] = {b->v.x, b->v.y, b->v.z};
    for (int k = 0; k < 3; k++) { /* bounce off the room's walls */
        if (c[k] < 0.5 && vv[k] < 0) vv[k] = -vv[k];
        if (c[k] > ROOM - 0.5 && vv[k] > 0) vv[k] = -vv[k];
    }
    b->v = col_v3(vv[0], vv[1], vv[2]);
    b->q = quat_normalize(col_quat_mul(quat_from_rotvec(b->w), b->q));
    return true;
}

static void check_same_events(const sim *s, int frame)
{
    col_pair_events e0 = col_world_get_pair_events(s->world[0]);
    col_pair_events e1 = col_world_get_pair_events(s->world[1]);
    if (e0.pair_count != e1.pair_count || e0.began_count != e1.began_count || e0.ended_count != e1.ended_count)
        fail_msg("frame %d: every has %d pairs (+%d -%d), ttc %d (+%d -%d)", frame, e0.pair_count, e0.began_count,
                 e0.ended_count, e1.pair_count, e1.began_count, e1.ended_count);
    for (int i = 0; i < e0.pair_count; i++)
        if (!same_pair_lists(&e0.pairs[i], &e1.pairs[i], 1))
            fail_msg("frame %d: pair %d is (%u, %u) with every, (%u, %u) with ttc", frame, i, e0.pairs[i].a.index1,
                     e0.pairs[i].b.index1, e1.pairs[i].a.index1, e1.pairs[i].b.index1);
    assert_true(same_pair_lists(e0.began, e1.began, e0.began_count));
    assert_true(same_pair_lists(e0.ended, e1.ended, e0.ended_count));
    assert_true(col_world_hash(s->world[0]) == col_world_hash(s->world[1]));
}

typedef struct run_stats {
    long calls[2];
    long sleeping, woken_early, frames_with_pairs, pair_frames, bp_pairs;
    long redeclared[2];  /* speeds changed with [0] / without [1] a pose set in that frame */
    long honest_frames;  /* body-frames of bodies keeping their declared speeds (none tripped) */
} run_stats;

/* Declared mode: now and then a random body's speeds are raised 4 times, lowered 4 times,
 * declared afresh or withdrawn, before or after the poses of the frame are set. The body
 * no longer keeps a promise the test can vouch for. */
static void redeclare_someone(sim *s, bool *changed)
{
    int k = irand(MAX_BODIES);
    sim_body *b = &s->body[k];
    if (!b->live) return;
    double lin, ang;
    assert_int_equal(col_body_get_max_speeds(s->world[0], b->id[0], &lin, &ang), COL_OK);
    int what = irand(4);
    if (what == 3 || lin == COL_SPEED_UNDECLARED) {
        bool none = lin != COL_SPEED_UNDECLARED && chance(0.5);
        lin = none ? COL_SPEED_UNDECLARED : col_len(b->v);
        ang = none ? COL_SPEED_UNDECLARED : col_len(b->w);
    } else {
        double f = what == 0 ? 0.25 : 4.0;
        lin *= f;
        ang *= f;
    }
    declare(s, k, lin, ang);
    b->declare_factor = COL_SPEED_UNDECLARED; /* a SPEEDER's next change declares nothing */
    b->honest = false;
    changed[k] = true;
}

static void run_world_pair(col_backend backend, int ttc_workers, uint64_t seed, int frames, bool declared,
                           run_stats *st)
{
    rng_reseed(seed); /* every run replays the sequence its test printed the seed of */
    sim *s = calloc(1, sizeof *s);
    assert_non_null(s);
    s->declared = declared;
    for (int w = 0; w < 2; w++) {
        col_world_def def = col_default_world_def();
        def.backend = backend;
        def.worker_count = w == 1 ? ttc_workers : 1;
        def.schedule = w == 0 ? COL_SCHEDULE_EVERY : COL_SCHEDULE_TTC;
        /* On several workers the ttc world also keeps wide broad-phase boxes: many pairs
         * then stay in the broad phase while their tight boxes part, sleeping through it,
         * which must not hide a trip (lib/frame.c, test_record). */
        if (w == 1 && ttc_workers > 1) def.broadphase_margin = 1.5;
        assert_int_equal(col_world_create(&def, &s->world[w]), COL_OK);
    }
    make_shapes(s);
    for (int i = 0; i < 90; i++) spawn(s, i);
    memset(st, 0, sizeof *st);
    for (int f = 1; f <= frames; f++) {
        /* bodies leave and arrive */
        if (chance(0.15)) {
            int k = irand(MAX_BODIES);
            if (s->body[k].live && s->live > 20) despawn(s, k);
        }
        if (chance(0.15)) {
            int k = irand(MAX_BODIES);
            if (!s->body[k].live) spawn(s, k);
        }
        bool changed[MAX_BODIES] = {false}, posed[MAX_BODIES] = {false};
        bool redeclare = declared && chance(0.4), before = redeclare && chance(0.5);
        if (redeclare && before) redeclare_someone(s, changed);
        for (int k = 0; k < MAX_BODIES; k++) {
            sim_body *b = &s->body[k];
            if (!b->live || !advance(s, k, f)) continue;
            for (int w = 0; w < 2; w++) assert_int_equal(col_body_set_pose(s->world[w], b->id[w], pose_of(b)), COL_OK);
            posed[k] = true;
        }
        if (redeclare && !before) redeclare_someone(s, changed);
        for (int k = 0; k < MAX_BODIES; k++)
            if (changed[k]) s->redeclared[posed[k] ? 0 : 1]++;
        /* a pair of neighbours disabled, or enabled again */
        for (int t = 0; t < 3; t++) {
            int i = irand(MAX_BODIES), j = s->body[i].live ? nearest(s, i) : -1;
            if (j >= 0) {
                bool en = chance(0.5);
                for (int w = 0; w < 2; w++)
                    assert_int_equal(col_pair_set_enabled(s->world[w], s->body[i].id[w], s->body[j].id[w], en), COL_OK);
            }
        }
        col_counters c[2];
        for (int w = 0; w < 2; w++) {
            assert_int_equal(col_world_update(s->world[w]), COL_OK);
            assert_int_equal(col_world_get_counters(s->world[w], &c[w]), COL_OK);
            st->calls[w] += c[w].narrow_calls;
        }
        check_same_events(s, f);
        /* a body keeping its declared speeds never trips, in either world (the bound of the
         * promise covers the motion as the world measures it, walls and rounding included) */
        for (int k = 0; k < MAX_BODIES; k++) {
            if (!s->body[k].live || !s->body[k].honest) continue;
            st->honest_frames++;
            for (int w = 0; w < 2; w++)
                if (s->world[w]->bodies[s->body[k].id[w].index1 - 1].tripped_frame == s->world[w]->frame)
                    fail_msg("frame %d: body %d (behaviour %d) kept its declared speeds but tripped", f, k,
                             s->body[k].behaviour);
        }
        assert_int_equal(c[0].broadphase_pairs, c[1].broadphase_pairs);
        assert_int_equal(c[0].sleeping_pairs, 0);
        assert_true(c[1].sleeping_pairs <= c[1].broadphase_pairs);
        st->sleeping += c[1].sleeping_pairs;
        st->woken_early += c[1].woken_early;
        st->frames_with_pairs += c[0].colliding_pairs > 0;
        st->pair_frames += c[0].colliding_pairs;
        st->bp_pairs += c[0].broadphase_pairs;
    }
    st->redeclared[0] = s->redeclared[0];
    st->redeclared[1] = s->redeclared[1];
    for (int w = 0; w < 2; w++) col_world_destroy(s->world[w]);
    free(s);
}

static void test_every_equals_ttc(void **state)
{
    (void)state;
    const uint64_t seed = 0x7cc0111deULL;
    rng_seed(seed, __func__);
    for (int k = 1; k < (int)COL_BACKEND_COUNT; k++) {
        const char *name = col_backend_name((col_backend)k);
        if (name == NULL) continue;
        run_stats st;
        run_world_pair((col_backend)k, 1, seed, 400, false, &st);
        print_message("  %-10s narrow calls every %ld, ttc %ld (%.2fx); sleeping pair-frames %ld, woken early %ld; "
                      "colliding %ld of %ld broad-phase pair-frames\n",
                      name, st.calls[0], st.calls[1], (double)st.calls[0] / (double)(st.calls[1] > 0 ? st.calls[1] : 1),
                      st.sleeping, st.woken_early, st.pair_frames, st.bp_pairs);
        /* the scene is representative: contacts in most frames, and pairs that are close
         * but not touching (what the schedule is for) */
        assert_true(st.frames_with_pairs > 300);
        assert_true(st.pair_frames * 10 > st.bp_pairs && st.pair_frames * 10 < 9 * st.bp_pairs);
        /* the schedule really skipped work, and the early wake-ups happened */
        assert_true(st.calls[1] < st.calls[0]);
        assert_true(st.sleeping > 0);
        assert_true(st.woken_early > 0);
    }
}

/* The same with the ttc world on several workers: its results do not depend on them. */
static void test_every_equals_ttc_threads(void **state)
{
    (void)state;
    const uint64_t seed = 0x7cc0222deULL;
    rng_seed(seed, __func__);
    run_stats st;
    run_world_pair(COL_BACKEND_DEFAULT, 3, seed, 200, false, &st);
    assert_true(st.calls[1] < st.calls[0]);
}

/* Declared speeds: the same scene with most bodies declaring speeds, kept, exceeded,
 * raised and lowered mid-run; every backend, the ttc world on 1 and on 3 workers. */
static void test_every_equals_ttc_declared(void **state)
{
    (void)state;
    const uint64_t seed = 0x7cc0333deULL;
    rng_seed(seed, __func__);
    for (int k = 1; k < (int)COL_BACKEND_COUNT; k++) {
        const char *name = col_backend_name((col_backend)k);
        if (name == NULL) continue;
        for (int workers = 1; workers <= 3; workers += 2) {
            run_stats st;
            run_world_pair((col_backend)k, workers, seed, 300, true, &st);
            print_message("  %-10s %d worker(s): narrow calls every %ld, ttc %ld (%.2fx); sleeping pair-frames %ld, "
                          "woken early %ld; speeds changed %ld times with a pose, %ld without; %ld body-frames kept "
                          "their promise\n",
                          name, workers, st.calls[0], st.calls[1],
                          (double)st.calls[0] / (double)(st.calls[1] > 0 ? st.calls[1] : 1), st.sleeping,
                          st.woken_early, st.redeclared[0], st.redeclared[1], st.honest_frames);
            assert_true(st.frames_with_pairs > 200);
            assert_true(st.pair_frames * 10 > st.bp_pairs && st.pair_frames * 10 < 9 * st.bp_pairs);
            assert_true(st.calls[1] < st.calls[0]);
            assert_true(st.sleeping > 0);
            assert_true(st.woken_early > 0);
            assert_true(st.redeclared[0] > 10 && st.redeclared[1] > 10);
            assert_true(st.honest_frames > 1000);
        }
    }
}

/* ---- scripted cases: each drives an EVERY and a TTC world with the same calls ---- */

typedef struct duo {
    col_world *w[2];
    col_shape_id oct[2];
} duo;

static void duo_create(duo *d)
{
    /* the octahedron |x| + |y| + |z| <= 1 */
    const col_vec3 p[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    for (int k = 0; k < 2; k++) {
        col_world_def def = col_default_world_def();
        def.worker_count = 1;
        def.schedule = k == 0 ? COL_SCHEDULE_EVERY : COL_SCHEDULE_TTC;
        assert_int_equal(col_world_create(&def, &d->w[k]), COL_OK);
        assert_int_equal(col_shape_create_convex(d->w[k], p, 6, &d->oct[k]), COL_OK);
    }
}

/* The duo's ids are world 0's; body b in world k (the same slot and generation with
 * world k's tag: ids carry their world, include/colibri/id.h). */
static col_body_id duo_id(const duo *d, int k, col_body_id b)
{
    b.tag = d->w[k]->id_tag | COL_ID_KIND_BODY;
    return b;
}

static col_body_id duo_body_speeds(duo *d, double x, double y, double z, double linear, double angular)
{
    col_body_id id[2];
    for (int k = 0; k < 2; k++) {
        col_body_def def = col_default_body_def();
        def.shape = d->oct[k];
        def.pose.p = col_v3(x, y, z);
        def.max_linear_speed = linear;
        def.max_angular_speed = angular;
        assert_int_equal(col_body_create(d->w[k], &def, &id[k]), COL_OK);
    }
    assert_true(col_body_id_equals(duo_id(d, 1, id[0]), id[1]));
    return id[0];
}

static col_body_id duo_body(duo *d, double x, double y, double z)
{
    return duo_body_speeds(d, x, y, z, COL_SPEED_UNDECLARED, COL_SPEED_UNDECLARED);
}

static void duo_speeds(duo *d, col_body_id b, double linear, double angular)
{
    for (int k = 0; k < 2; k++) assert_int_equal(col_body_set_max_speeds(d->w[k], duo_id(d, k, b), linear, angular), COL_OK);
}

/* Whether the body tripped in the last update of the ttc world. */
static bool duo_tripped(const duo *d, col_body_id b)
{
    return d->w[1]->bodies[b.index1 - 1].tripped_frame == d->w[1]->frame;
}

static void duo_move(duo *d, col_body_id b, double x, double y, double z)
{
    col_transform t = col_transform_identity();
    t.p = col_v3(x, y, z);
    for (int k = 0; k < 2; k++) assert_int_equal(col_body_set_pose(d->w[k], duo_id(d, k, b), t), COL_OK);
}

/* Updates both worlds, checks they agree, returns the pair count and the ttc counters. */
static int duo_update(duo *d, col_counters *ttc)
{
    for (int k = 0; k < 2; k++) assert_int_equal(col_world_update(d->w[k]), COL_OK);
    col_pair_events e0 = col_world_get_pair_events(d->w[0]), e1 = col_world_get_pair_events(d->w[1]);
    assert_int_equal(e0.pair_count, e1.pair_count);
    assert_int_equal(e0.began_count, e1.began_count);
    assert_int_equal(e0.ended_count, e1.ended_count);
    assert_true(col_world_hash(d->w[0]) == col_world_hash(d->w[1]));
    assert_int_equal(col_world_get_counters(d->w[1], ttc), COL_OK);
    return e0.pair_count;
}

static void duo_destroy(duo *d)
{
    for (int k = 0; k < 2; k++) col_world_destroy(d->w[k]);
}

/* Two octahedra whose boxes overlap but whose hulls are 0.4 / sqrt 2 apart; B creeps by
 * 1e-6 per frame, so the pair sleeps for a very long time. */
static void creeping_pair(duo *d, col_body_id *a, col_body_id *b, double *bx)
{
    *a = duo_body(d, 0, 0, 0);
    *b = duo_body(d, 1.2, 1.2, 0);
    *bx = 1.2;
    col_counters c;
    for (int f = 0; f < 5; f++) {
        *bx += 1e-6;
        duo_move(d, *b, *bx, 1.2, 0);
        assert_int_equal(duo_update(d, &c), 0);
    }
    assert_int_equal(c.broadphase_pairs, 1);
    assert_int_equal(c.sleeping_pairs, 1);
    assert_int_equal(c.narrow_calls, 0);
}

/* A teleport into a sleeping partner is seen in the same frame (the trip). */
static void test_teleport_wakes(void **state)
{
    (void)state;
    duo d;
    duo_create(&d);
    col_body_id a, b;
    double bx;
    creeping_pair(&d, &a, &b, &bx);
    duo_move(&d, b, 1.0, 0.9, 0);
    col_counters c;
    assert_int_equal(duo_update(&d, &c), 1);
    assert_int_equal(c.woken_early, 1);
    assert_int_equal(c.sleeping_pairs, 0);
    duo_destroy(&d);
}

/* A speed-up: B creeps, then moves 0.05 per frame toward A; the pair is re-tested from
 * the trip on and the contact is found in the frame it happens. */
static void test_speed_up_wakes(void **state)
{
    (void)state;
    duo d;
    duo_create(&d);
    col_body_id a, b;
    double bx;
    creeping_pair(&d, &a, &b, &bx);
    col_counters c;
    int touched = 0;
    for (int f = 0; f < 20 && !touched; f++) {
        bx -= 0.05;
        duo_move(&d, b, bx, 1.2 - (1.2 - bx), 0); /* along the diagonal */
        touched = duo_update(&d, &c);
    }
    assert_int_equal(touched, 1);
    duo_destroy(&d);
}

/* A pair disabled while asleep, a body teleported into the other meanwhile (its trip is not
 * watched for the disabled pair), then the pair enabled with no further motion: the pair
 * must be tested again, not left asleep. */
static void test_disabled_pair_forgets_sleep(void **state)
{
    (void)state;
    duo d;
    duo_create(&d);
    col_body_id a, b;
    double bx;
    creeping_pair(&d, &a, &b, &bx);
    col_counters c;
    for (int k = 0; k < 2; k++) assert_int_equal(col_pair_set_enabled(d.w[k], duo_id(&d, k, a), duo_id(&d, k, b), false), COL_OK);
    assert_int_equal(duo_update(&d, &c), 0);
    duo_move(&d, b, 1.0, 0.9, 0);
    assert_int_equal(duo_update(&d, &c), 0); /* disabled: not reported */
    for (int k = 0; k < 2; k++) assert_int_equal(col_pair_set_enabled(d.w[k], duo_id(&d, k, a), duo_id(&d, k, b), true), COL_OK);
    duo_move(&d, b, 1.0, 0.9, 0); /* the same pose again: no motion, no trip */
    assert_int_equal(duo_update(&d, &c), 1);
    duo_destroy(&d);
}

/* A body removed and another created in its slot: the old pair's sleep goes with it. */
static void test_removed_body_takes_its_pairs(void **state)
{
    (void)state;
    duo d;
    duo_create(&d);
    col_body_id a, b;
    double bx;
    creeping_pair(&d, &a, &b, &bx);
    for (int k = 0; k < 2; k++) assert_int_equal(col_body_destroy(d.w[k], duo_id(&d, k, b)), COL_OK);
    col_counters c;
    assert_int_equal(duo_update(&d, &c), 0);
    assert_int_equal(c.sleeping_pairs, 0);
    assert_int_equal(c.broadphase_pairs, 0);
    col_body_id b2 = duo_body(&d, 1.0, 0.9, 0); /* overlapping A at once */
    assert_int_equal(b2.index1, b.index1);
    assert_int_equal(duo_update(&d, &c), 1);
    duo_destroy(&d);
}

/* Declared speeds kept: B, declared at 0.001 per frame, creeps away from A (declared still)
 * along the diagonal at exactly that speed. Neither body ever trips, not even at B's first
 * move (it is armed with its declared bound from creation), and the pair sleeps from its
 * first test on. Returns the pair with B's last x (= y). */
static void declared_creeping_pair(duo *d, col_body_id *a, col_body_id *b, double *bx)
{
    *a = duo_body_speeds(d, 0, 0, 0, 0.0, 0.0);
    *b = duo_body_speeds(d, 1.2, 1.2, 0, 0.001, 0.0);
    *bx = 1.2;
    col_counters c;
    for (int f = 0; f < 6; f++) {
        if (f > 0) *bx += 0.001 / sqrt(2.0);
        duo_move(d, *b, *bx, *bx, 0);
        assert_int_equal(duo_update(d, &c), 0);
        assert_false(duo_tripped(d, *a));
        assert_false(duo_tripped(d, *b));
        assert_int_equal(c.sleeping_pairs, 1);
        assert_int_equal(c.narrow_calls, f == 0 ? 1 : 0);
    }
}

/* Raised speeds: B declares 0.25 per frame, then rushes at A by 0.2 per frame, within its
 * new promise, so its motion never exceeds its (raised) bound: only the trip armed by the
 * raise wakes the pair, which slept on 0.001 for about 280 frames. Without a pose change in
 * the frame of the raise (B waits a frame) and with one. The contact must be reported in
 * the frame it happens (duo_update compares with the every-frame world). */
static void test_declared_raise_wakes(void **state)
{
    (void)state;
    for (int with_pose = 0; with_pose < 2; with_pose++) {
        duo d;
        duo_create(&d);
        col_body_id a, b;
        double bx;
        declared_creeping_pair(&d, &a, &b, &bx);
        col_counters c;
        duo_speeds(&d, b, 0.25, 0.0);
        double step = 0.2 / sqrt(2.0);
        if (with_pose) {
            bx -= step;
            duo_move(&d, b, bx, bx, 0);
        }
        assert_int_equal(duo_update(&d, &c), 0);
        assert_true(duo_tripped(&d, b));
        assert_int_equal(c.woken_early, 1);
        int touched_at = 0;
        for (int f = 1; f <= 3 && touched_at == 0; f++) {
            bx -= step;
            duo_move(&d, b, bx, bx, 0);
            if (duo_update(&d, &c) == 1) touched_at = f;
            assert_false(duo_tripped(&d, b)); /* it keeps the new promise */
        }
        /* the hulls are 0.4 / sqrt 2 = 0.283 apart along the diagonal at the raise */
        assert_int_equal(touched_at, with_pose ? 1 : 2);
        duo_destroy(&d);
    }
}

/* Lowered and withdrawn speeds: no trip (m only decays); a later teleport into A still
 * trips and is seen in its frame. Speeds set twice in one frame (raised, then lowered
 * again) still trip: the pairs slept on the old bound, and m stays raised. */
static void test_declared_lower_and_teleport(void **state)
{
    (void)state;
    for (int variant = 0; variant < 3; variant++) {
        duo d;
        duo_create(&d);
        col_body_id a, b;
        double bx;
        declared_creeping_pair(&d, &a, &b, &bx);
        col_counters c;
        if (variant == 0) duo_speeds(&d, b, 0.0001, 0.0);
        if (variant == 1) duo_speeds(&d, b, COL_SPEED_UNDECLARED, COL_SPEED_UNDECLARED);
        if (variant == 2) {
            duo_speeds(&d, b, 1.0, 1.0);
            duo_speeds(&d, b, 0.001, 0.0);
        }
        assert_int_equal(duo_update(&d, &c), 0);
        assert_int_equal(duo_tripped(&d, b), variant == 2);
        assert_int_equal(c.woken_early, variant == 2 ? 1 : 0);
        /* 0.38 into A: beyond the bound B was armed with, except after the raise to 1.0
         * (m = 2 then, decaying only as B moves; the pair woke at the raise and K = 0) */
        duo_move(&d, b, 1.0, 0.9, 0);
        assert_int_equal(duo_update(&d, &c), 1);
        assert_int_equal(duo_tripped(&d, b), variant != 2);
        assert_int_equal(c.woken_early, variant != 2 ? 1 : 0);
        duo_destroy(&d);
    }
}

/* Bad speeds are refused with INVALID_ARGUMENT (stale ids with STALE_ID, as every body
 * call does), a sentence in col_world_last_error, and nothing changed: poses, speeds, the
 * hash, and the next update's pairs equal those of a twin world that never saw the calls. */
static void test_declared_bad_input(void **state)
{
    (void)state;
    duo d; /* the ttc world gets the bad calls, the every world is the twin (the hash does
            * not see the schedule) */
    duo_create(&d);
    col_body_id a = duo_body_speeds(&d, 0, 0, 0, 0.1, 0.2);
    col_body_id b = duo_body(&d, 1.5, 0, 0);
    col_body_id gone = duo_body(&d, 5, 5, 5);
    for (int k = 0; k < 2; k++) assert_int_equal(col_body_destroy(d.w[k], duo_id(&d, k, gone)), COL_OK);
    col_counters c;
    assert_int_equal(duo_update(&d, &c), 1);
    double lin = 0, ang = 0;
    assert_int_equal(col_body_get_max_speeds(d.w[0], b, &lin, &ang), COL_OK);
    assert_true(lin == COL_SPEED_UNDECLARED && ang == COL_SPEED_UNDECLARED);
    col_world *w = d.w[1];
    a = duo_id(&d, 1, a); /* from here on a and gone name the ttc world's bodies */
    gone = duo_id(&d, 1, gone);
    uint64_t h = col_world_hash(w);
    assert_true(h == col_world_hash(d.w[0]));

    const double bad[][2] = {{NAN, 0.1}, {0.1, NAN}, {NAN, NAN}, {INFINITY, 0.1}, {0.1, INFINITY}, {-INFINITY, 0.1},
                             {-0.5, 0.1}, {0.1, -0.5}, {-1e-300, 0.0}, {COL_SPEED_UNDECLARED, 0.1},
                             {0.1, COL_SPEED_UNDECLARED}, {COL_SPEED_UNDECLARED, -2.0}, {-2.0, -2.0},
                             {-1.0000000000000002, COL_SPEED_UNDECLARED}};
    for (size_t t = 0; t < sizeof bad / sizeof bad[0]; t++) {
        assert_int_equal(col_body_set_max_speeds(w, a, bad[t][0], bad[t][1]), COL_ERR_INVALID_ARGUMENT);
        assert_non_null(strstr(col_world_last_error(w), "col_body_set_max_speeds"));
        col_body_def def = col_default_body_def();
        def.shape = d.oct[1];
        def.max_linear_speed = bad[t][0];
        def.max_angular_speed = bad[t][1];
        col_body_id id = {7, 7, 7};
        assert_int_equal(col_body_create(w, &def, &id), COL_ERR_INVALID_ARGUMENT);
        assert_non_null(strstr(col_world_last_error(w), "col_body_create"));
        assert_int_equal(id.index1, 0);
        assert_true(col_world_hash(w) == h);
    }
    assert_int_equal(col_body_set_max_speeds(w, gone, 1.0, 1.0), COL_ERR_STALE_ID);
    col_body_id null_id = {0, 0, 0}, far_id = {12345, 1, 0};
    assert_int_equal(col_body_set_max_speeds(w, null_id, 1.0, 1.0), COL_ERR_STALE_ID);
    assert_int_equal(col_body_set_max_speeds(w, far_id, 1.0, 1.0), COL_ERR_STALE_ID);
    assert_int_equal(col_body_get_max_speeds(w, gone, &lin, &ang), COL_ERR_STALE_ID);
    assert_int_equal(col_body_set_max_speeds(NULL, a, 1.0, 1.0), COL_ERR_INVALID_ARGUMENT);
    assert_int_equal(col_body_get_max_speeds(NULL, a, &lin, &ang), COL_ERR_INVALID_ARGUMENT);
    assert_int_equal(col_body_get_max_speeds(w, a, NULL, &ang), COL_ERR_INVALID_ARGUMENT);
    assert_int_equal(col_body_get_max_speeds(w, a, &lin, NULL), COL_ERR_INVALID_ARGUMENT);
    assert_true(col_world_hash(w) == h);
    assert_int_equal(col_body_get_max_speeds(w, a, &lin, &ang), COL_OK);
    assert_true(lin == 0.1 && ang == 0.2);
    col_transform pose;
    assert_int_equal(col_body_get_pose(w, a, &pose), COL_OK);
    assert_true(pose.p.x == 0 && pose.p.y == 0 && pose.p.z == 0 && pose.q.w == 1);
    /* the next update: the same pairs and state as the twin's */
    for (int k = 0; k < 2; k++) assert_int_equal(col_world_update(d.w[k]), COL_OK);
    col_pair_events e0 = col_world_get_pair_events(d.w[0]), e1 = col_world_get_pair_events(d.w[1]);
    assert_int_equal(e0.pair_count, 1);
    assert_int_equal(e1.pair_count, 1);
    assert_true(same_pair_lists(e0.pairs, e1.pairs, 1));
    assert_true(col_world_hash(d.w[0]) == col_world_hash(d.w[1]));

    /* accepted edge cases: 0 (promises no motion), -0 (stored as 0), huge, and undeclared */
    assert_int_equal(col_body_set_max_speeds(w, a, 0.0, 0.0), COL_OK);
    assert_int_equal(col_body_set_max_speeds(w, a, -0.0, 1e300), COL_OK);
    assert_int_equal(col_body_get_max_speeds(w, a, &lin, &ang), COL_OK);
    assert_true(lin == 0.0 && !signbit(lin) && ang == 1e300);
    assert_int_equal(col_body_set_max_speeds(w, a, COL_SPEED_UNDECLARED, COL_SPEED_UNDECLARED), COL_OK);
    assert_int_equal(col_body_get_max_speeds(w, a, &lin, &ang), COL_OK);
    assert_true(lin == COL_SPEED_UNDECLARED && ang == COL_SPEED_UNDECLARED);
    assert_true(col_world_hash(w) != h); /* the hash sees speeds */
    duo_destroy(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_motion_bound_is_an_upper_bound),
        cmocka_unit_test(test_sleep_frames),
        cmocka_unit_test(test_rearm),
        cmocka_unit_test(test_declared_bound),
        cmocka_unit_test(test_teleport_wakes),
        cmocka_unit_test(test_speed_up_wakes),
        cmocka_unit_test(test_disabled_pair_forgets_sleep),
        cmocka_unit_test(test_removed_body_takes_its_pairs),
        cmocka_unit_test(test_declared_raise_wakes),
        cmocka_unit_test(test_declared_lower_and_teleport),
        cmocka_unit_test(test_declared_bad_input),
        cmocka_unit_test(test_every_equals_ttc),
        cmocka_unit_test(test_every_equals_ttc_threads),
        cmocka_unit_test(test_every_equals_ttc_declared),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
