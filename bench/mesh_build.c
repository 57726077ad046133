/* SPDX-License-Identifier: MIT */
/* mesh-build: how long col_mesh_build (lib/core/mesh.c) takes on a mesh of N triangles,
 * for docs/meshes.md ("The hierarchy").
 *
 *   mesh-build [N [grid|soup [sah|mean|median [LEAF]]]]
 *
 * grid (the default): a bumpy height field of about N triangles (two per square, shared
 * vertices); soup: N triangles of random vertices in a unit cube (a fixed seed). Prints
 * one line: triangles, vertices, the best of three builds in seconds, nodes, depth and
 * bytes per triangle. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/core/alloc.h"
#include "lib/core/mesh.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t rng = 0x6d6573682d627569ULL;
static double urand(void)
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return (double)((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
}

/* A height field of s x s squares, s = ceil(sqrt(n / 2)); returns the triangle count. */
static int make_grid(int n, col_vec3 **v, int *nv, uint32_t **idx)
{
    int s = (int)ceil(sqrt(n / 2.0));
    *nv = (s + 1) * (s + 1);
    *v = malloc((size_t)*nv * sizeof **v);
    *idx = malloc(6 * (size_t)s * (size_t)s * sizeof **idx);
    for (int i = 0; i <= s; i++)
        for (int j = 0; j <= s; j++)
            (*v)[i * (s + 1) + j] = (col_vec3){(double)i / s, (double)j / s, 0.05 * sin(i * 0.1) * cos(j * 0.13)};
    int t = 0;
    for (int i = 0; i < s; i++) {
        for (int j = 0; j < s; j++) {
            uint32_t a = (uint32_t)(i * (s + 1) + j), b = a + 1, c = a + (uint32_t)s + 1, d = c + 1;
            uint32_t q[6] = {a, b, d, a, d, c};
            memcpy(&(*idx)[6 * (size_t)t++], q, sizeof q);
        }
    }
    return 2 * t;
}

static int make_soup(int n, col_vec3 **v, int *nv, uint32_t **idx)
{
    *nv = 3 * n;
    *v = malloc((size_t)*nv * sizeof **v);
    *idx = malloc(3 * (size_t)n * sizeof **idx);
    for (int i = 0; i < n; i++) {
        double cx = urand(), cy = urand(), cz = urand();
        for (int k = 0; k < 3; k++) {
            double dx = urand(), dy = urand(), dz = urand();
            (*v)[3 * i + k] = (col_vec3){cx + 0.01 * dx, cy + 0.01 * dy, cz + 0.01 * dz};
            (*idx)[3 * i + k] = (uint32_t)(3 * i + k);
        }
    }
    return n;
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000000;
    const char *kind = argc > 2 ? argv[2] : "grid";
    const char *rule = argc > 3 ? argv[3] : "sah";
    col_mesh_build_options o = col_mesh_default_build_options();
    if (strcmp(rule, "mean") == 0) o.split = COL_MESH_SPLIT_MEAN;
    else if (strcmp(rule, "median") == 0) o.split = COL_MESH_SPLIT_MEDIAN;
    else if (strcmp(rule, "sah") != 0) {
        fprintf(stderr, "mesh-build: unknown split rule '%s' (sah, mean, median)\n", rule);
        return 2;
    }
    if (argc > 4) o.leaf_max = atoi(argv[4]);
    if (n < 1 || (strcmp(kind, "grid") != 0 && strcmp(kind, "soup") != 0)) {
        fprintf(stderr, "usage: mesh-build [N [grid|soup [sah|mean|median [LEAF]]]]\n");
        return 2;
    }
    col_vec3 *v;
    uint32_t *idx;
    int nv;
    int nt = strcmp(kind, "grid") == 0 ? make_grid(n, &v, &nv, &idx) : make_soup(n, &v, &nv, &idx);
    col_alloc a;
    col_alloc_init(&a, NULL);
    double best = HUGE_VAL;
    col_mesh m;
    for (int run = 0; run < 3; run++) {
        char err[200];
        double t0 = now_s();
        col_status st = col_mesh_build_with(&a, v, nv, idx, nt, &o, &m, err, sizeof err);
        double t = now_s() - t0;
        if (st != COL_OK) {
            fprintf(stderr, "mesh-build: %s\n", err);
            return 1;
        }
        if (t < best) best = t;
        if (run < 2) col_mesh_free(&a, &m);
    }
    printf("mesh-build %s %s leaf=%d: triangles=%d vertices=%d build_s=%.3f nodes=%d depth=%d bytes_per_triangle=%.1f\n",
           kind, rule, o.leaf_max, nt, nv, best, m.node_count, m.depth, (double)m.block_size / nt);
    col_mesh_free(&a, &m);
    free(v);
    free(idx);
    return 0;
}
