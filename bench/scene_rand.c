/* SPDX-License-Identifier: MIT */
/* Random numbers and shape surface points of the benchmark scenes: scene_rand.h says what
 * and why. */
#include "bench/scene_rand.h"

#include <math.h>

#define SCENE_PI 3.14159265358979323846

const char *const scene_kind_name[SCENE_KIND_COUNT] = {"ellipsoid", "rod", "plate", "box"};
const double scene_kind_axes[SCENE_KIND_COUNT][3] = {
    {1, 0.6, 0.4}, {1, 0.12, 0.12}, {1, 1, 0.1}, {1, 0.6, 0.4}};

static uint64_t g_state[4];

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t scene_rand_next(void)
{
    uint64_t *s = g_state;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

void scene_rand_seed_state(uint64_t seed, uint64_t state[4])
{
    for (int i = 0; i < 4; i++) state[i] = splitmix64(&seed);
}

void scene_rand_seed(uint64_t seed) { scene_rand_seed_state(seed, g_state); }

void scene_rand_swap(uint64_t other[4])
{
    for (int i = 0; i < 4; i++) {
        uint64_t t = g_state[i];
        g_state[i] = other[i];
        other[i] = t;
    }
}

double scene_rand_unit(void) { return (double)(scene_rand_next() >> 11) * 0x1.0p-53; }

double scene_rand_range(double a, double b) { return a + (b - a) * scene_rand_unit(); }

int scene_rand_int(int a, int b) { return a + (int)(scene_rand_unit() * (b - a + 1)); }

col_vec3 scene_rand_direction(void)
{
    for (;;) {
        /* One draw per statement: the order of argument evaluation is unspecified. */
        double x = scene_rand_range(-1, 1);
        double y = scene_rand_range(-1, 1);
        double z = scene_rand_range(-1, 1);
        double n2 = x * x + y * y + z * z;
        if (n2 > 1e-6 && n2 <= 1) {
            double n = sqrt(n2);
            return col_vec3_make(x / n, y / n, z / n);
        }
    }
}

col_quat scene_rand_rotation(void)
{
    double u1 = scene_rand_unit();
    double u2 = 2 * SCENE_PI * scene_rand_unit();
    double u3 = 2 * SCENE_PI * scene_rand_unit();
    double a = sqrt(1 - u1), b = sqrt(u1);
    col_quat q = {a * sin(u2), a * cos(u2), b * sin(u3), b * cos(u3)};
    return q;
}

col_vec3 scene_rand_surface_point(scene_kind kind)
{
    const double *ax = scene_kind_axes[kind];
    if (kind == SCENE_BOX) {
        /* A face pair normal to axis k has area proportional to the product of the other
         * two half axes. */
        double area[3] = {ax[1] * ax[2], ax[0] * ax[2], ax[0] * ax[1]};
        double t = scene_rand_unit() * (area[0] + area[1] + area[2]);
        int k = t < area[0] ? 0 : (t < area[0] + area[1] ? 1 : 2);
        double p[3];
        for (int i = 0; i < 3; i++) p[i] = scene_rand_range(-ax[i], ax[i]);
        p[k] = scene_rand_unit() < 0.5 ? -ax[k] : ax[k];
        return col_vec3_make(p[0], p[1], p[2]);
    }
    /* Stretching the unit sphere by (a, b, c) scales the area at direction d by
     * |(b c dx, a c dy, a b dz)|; accepting with that over its maximum makes the
     * points uniform by area. */
    double a = ax[0], b = ax[1], c = ax[2], gmax = fmax(b * c, fmax(a * c, a * b));
    for (;;) {
        col_vec3 d = scene_rand_direction();
        double g = sqrt(b * c * d.x * b * c * d.x + a * c * d.y * a * c * d.y + a * b * d.z * a * b * d.z);
        if (scene_rand_unit() * gmax <= g) return col_vec3_make(a * d.x, b * d.y, c * d.z);
    }
}
