/* SPDX-License-Identifier: MIT */
/* The ray mode of colibri-bench (bench_rays.h). */
#define _POSIX_C_SOURCE 200809L

#include "bench_rays.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>

static uint64_t splitmix_next(uint64_t *state)
{
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static double splitmix_u(uint64_t *state)
{
    return (double)(splitmix_next(state) >> 11) * 0x1p-53;
}

void bench_ray(uint64_t *state, double L, col_vec3 *origin, col_vec3 *translation)
{
    /* each draw in its own statement: the order is the spec's */
    double ox = L * splitmix_u(state);
    double oy = L * splitmix_u(state);
    double oz = L * splitmix_u(state);
    double z = 2.0 * splitmix_u(state) - 1.0;
    double phi = 2.0 * 3.14159265358979323846 * splitmix_u(state);
    double s = sqrt(1.0 - z * z), h = L / 2.0;
    origin->x = ox, origin->y = oy, origin->z = oz;
    translation->x = h * (s * cos(phi)), translation->y = h * (s * sin(phi)), translation->z = h * z;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static double cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

bool bench_rays_frame(col_world *world, double L, int f, int n, const uint32_t *scene_of, uint32_t max_index1,
                      FILE *dump, double *sync_ms, double *cast_ms, double *cpu_cast_ms)
{
    int *body = malloc((size_t)(n > 0 ? n : 1) * sizeof *body);
    double *frac = malloc((size_t)(n > 0 ? n : 1) * sizeof *frac);
    if (!body || !frac) {
        fprintf(stderr, "colibri-bench: out of memory for %d rays\n", n);
        free(body), free(frac);
        return false;
    }
    double c0 = cpu_ms(), t0 = now_ms();
    col_status st = col_world_prepare_queries(world);
    double t1 = now_ms();
    bool ok = st == COL_OK;
    uint64_t state = (uint64_t)f;
    for (int k = 0; k < n && ok; k++) {
        col_vec3 o, d;
        bench_ray(&state, L, &o, &d);
        col_ray_hit hit;
        bool found;
        st = col_world_cast_ray(world, o, d, NULL, &hit, &found);
        ok = st == COL_OK;
        body[k] = found && hit.body.index1 <= max_index1 ? (int)scene_of[hit.body.index1] : -1;
        frac[k] = found ? hit.fraction : 1.0;
    }
    *cast_ms = now_ms() - t1;
    *cpu_cast_ms = cpu_ms() - c0;
    *sync_ms = t1 - t0;
    if (!ok) fprintf(stderr, "colibri-bench: frame %d: ray query failed: %s\n", f, col_world_last_error(world));
    for (int k = 0; k < n && ok && dump; k++)
        if (fprintf(dump, "%d %d %d %.17g\n", f, k, body[k], frac[k]) < 0) ok = false;
    free(body), free(frac);
    return ok;
}
