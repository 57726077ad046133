/* SPDX-License-Identifier: MIT */
/* mesh-distance: times mesh-mesh distance queries (narrowphase/mesh_distance.h) against
 * the brute force over all triangle pairs, on a few seeded mesh pairs (docs/meshes.md
 * "Distance" has the table and the command).
 *
 *   mesh-distance [--seed N] [--queries N] [--tris N] [--brute N] [--write FILE]
 *
 * Pairs: two torus-knot tubes, two bumpy spheres, a triangle soup and a knot, each of
 * about --tris triangles (default 2000), at --queries (default 20) seeded relative poses
 * whose centres lie 2 to 4 apart (the meshes are about 2 across: some overlap, most are
 * apart). Per pair it prints the mean time of our query (col_mesh_mesh_distance: the
 * fitted RSS bound), of the brute force (on the first --brute queries, default 3) and
 * their ratio, and the time and work of the same query on the box bound (box_*:
 * col_mesh_mesh_distance_bound, COL_MESH_BOUND_BOX); it checks that all give the same
 * distance. --write FILE writes the meshes, the poses and our distances in the text
 * format bench/peers/fcl_distance.cpp reads (scripts/fcl-distance times FCL on them):
 *   mesh NV NT / NV lines "x y z" / NT lines "i j k"   (twice per pair)
 *   query PX PY PZ QW QX QY QZ  PX PY PZ QW QX QY QZ  DISTANCE   (pose of a, of b)
 *   pair NAME NQUERIES  (before each pair's meshes) */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/core/alloc.h"
#include "lib/core/mesh.h"
#include "lib/core/vec.h"
#include "narrowphase/mesh_distance.h"
#include "narrowphase/tri_dist.h"

#define PI 3.14159265358979323846

static uint64_t rng = 1;
static double urand(void)
{
    uint64_t z = (rng += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return (double)((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
}

typedef struct soup {
    col_vec3 *v;
    uint32_t *t;
    int nv, nt;
} soup;

static void soup_alloc(soup *s, int nv, int nt)
{
    s->v = malloc((size_t)nv * sizeof *s->v);
    s->t = malloc((size_t)nt * 3 * sizeof *s->t);
    s->nv = nv;
    s->nt = nt;
    if (s->v == NULL || s->t == NULL) {
        fprintf(stderr, "mesh-distance: out of memory\n");
        exit(1);
    }
}

/* A closed tube of nu x nv quads around the centre line c(u) (u in [0, 2 pi)), radius
 * rad(u, w): knots and bumpy spheres are both this. */
typedef col_vec3 (*centre_fn)(double u, col_vec3 *tangent);

static col_vec3 knot_centre(double t, col_vec3 *tan)
{
    const double R = 1, r = 0.45, p = 2, q = 3;
    double cq = cos(q * t), sq = sin(q * t), rr = R + r * cq;
    *tan = col_v3(-r * q * sq * cos(p * t) - rr * p * sin(p * t), -r * q * sq * sin(p * t) + rr * p * cos(p * t),
                  r * q * cq);
    return col_v3(rr * cos(p * t), rr * sin(p * t), r * sq);
}

static void make_knot(soup *s, int tris)
{
    int nv = 12, nu = tris / (2 * nv);
    soup_alloc(s, nu * nv, 2 * nu * nv);
    for (int i = 0; i < nu; i++) {
        col_vec3 tan, c = knot_centre(2 * PI * i / nu, &tan);
        col_vec3 n = col_v3(-tan.y, tan.x, 0);
        n = col_scale(n, 1.0 / col_len(n));
        col_vec3 b = col_cross(col_scale(tan, 1.0 / col_len(tan)), n);
        for (int j = 0; j < nv; j++) {
            double ph = 2 * PI * j / nv;
            s->v[i * nv + j] = col_add(c, col_add(col_scale(n, 0.16 * cos(ph)), col_scale(b, 0.16 * sin(ph))));
        }
    }
    int k = 0;
    for (int i = 0; i < nu; i++)
        for (int j = 0; j < nv; j++) {
            uint32_t a = (uint32_t)(i * nv + j), b = (uint32_t)(((i + 1) % nu) * nv + j);
            uint32_t c = (uint32_t)(((i + 1) % nu) * nv + (j + 1) % nv), d = (uint32_t)(i * nv + (j + 1) % nv);
            uint32_t tr[6] = {a, b, c, a, c, d};
            memcpy(&s->t[6 * k++], tr, sizeof tr);
        }
}

/* A UV sphere of radius 1 with seeded radial bumps (poles as rings of tiny triangles). */
static void make_bumpy(soup *s, int tris)
{
    int nv = (int)sqrt(tris / 2.0), nu = tris / (2 * nv);
    soup_alloc(s, nu * (nv + 1), 2 * nu * nv);
    double ph[4], am[4];
    for (int k = 0; k < 4; k++) {
        ph[k] = 2 * PI * urand();
        am[k] = 0.05 + 0.1 * urand();
    }
    for (int i = 0; i < nu; i++)
        for (int j = 0; j <= nv; j++) {
            double u = 2 * PI * i / nu, w = PI * j / nv;
            double r = 1.0 + am[0] * sin(3 * u + ph[0]) * sin(2 * w + ph[1]) + am[2] * sin(5 * u + ph[2]) * sin(4 * w);
            s->v[i * (nv + 1) + j] = col_v3(r * sin(w) * cos(u), r * sin(w) * sin(u), r * cos(w));
        }
    int k = 0;
    for (int i = 0; i < nu; i++)
        for (int j = 0; j < nv; j++) {
            int i1 = (i + 1) % nu;
            uint32_t a = (uint32_t)(i * (nv + 1) + j), b = (uint32_t)(i1 * (nv + 1) + j);
            uint32_t c = (uint32_t)(i1 * (nv + 1) + j + 1), d = (uint32_t)(i * (nv + 1) + j + 1);
            uint32_t tr[6] = {a, b, c, a, c, d};
            memcpy(&s->t[6 * k++], tr, sizeof tr);
        }
}

/* Triangles of size about 0.1 scattered in a ball of radius 1. */
static void make_soup(soup *s, int tris)
{
    soup_alloc(s, 3 * tris, tris);
    for (int k = 0; k < tris; k++) {
        col_vec3 c;
        do c = col_v3(2 * urand() - 1, 2 * urand() - 1, 2 * urand() - 1);
        while (col_len2(c) > 1.0);
        for (int i = 0; i < 3; i++) {
            s->v[3 * k + i] = col_add(c, col_v3(0.1 * (urand() - 0.5), 0.1 * (urand() - 0.5), 0.1 * (urand() - 0.5)));
            s->t[3 * k + i] = (uint32_t)(3 * k + i);
        }
    }
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* CPU time: the machine may be shared */
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static col_transform rand_pose(col_vec3 p)
{
    double u1 = urand(), u2 = 2 * PI * urand(), u3 = 2 * PI * urand();
    col_quat q = {sqrt(1 - u1) * sin(u2), sqrt(1 - u1) * cos(u2), sqrt(u1) * sin(u3), sqrt(u1) * cos(u3)};
    col_transform t = {p, q};
    return t;
}

static double brute(const col_mesh *a, const col_xform *xa, const col_mesh *b, const col_xform *xb)
{
    double best = INFINITY;
    col_vec3 *wb = malloc((size_t)b->triangle_count * 3 * sizeof *wb);
    if (wb == NULL) exit(1);
    for (int j = 0; j < b->triangle_count; j++) {
        col_vec3 v[3];
        col_mesh_triangle(b, j, v);
        for (int k = 0; k < 3; k++) wb[3 * j + k] = col_xform_point(xb, v[k]);
    }
    for (int i = 0; i < a->triangle_count; i++) {
        col_vec3 v[3], wa[3], pa, pb;
        col_mesh_triangle(a, i, v);
        for (int k = 0; k < 3; k++) wa[k] = col_xform_point(xa, v[k]);
        for (int j = 0; j < b->triangle_count; j++) {
            double d = col_tri_distance(wa, &wb[3 * j], &pa, &pb);
            best = d < best ? d : best;
        }
    }
    free(wb);
    return best;
}

static void write_soup(FILE *f, const soup *s)
{
    fprintf(f, "mesh %d %d\n", s->nv, s->nt);
    for (int i = 0; i < s->nv; i++) fprintf(f, "%.17g %.17g %.17g\n", s->v[i].x, s->v[i].y, s->v[i].z);
    for (int i = 0; i < s->nt; i++) fprintf(f, "%u %u %u\n", s->t[3 * i], s->t[3 * i + 1], s->t[3 * i + 2]);
}

int main(int argc, char **argv)
{
    uint64_t seed = 16;
    int queries = 20, tris = 2000, nbrute = 3;
    const char *out = NULL;
    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && strcmp(argv[i], "--seed") == 0) seed = strtoull(argv[++i], NULL, 0);
        else if (i + 1 < argc && strcmp(argv[i], "--queries") == 0) queries = atoi(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "--tris") == 0) tris = atoi(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "--brute") == 0) nbrute = atoi(argv[++i]);
        else if (i + 1 < argc && strcmp(argv[i], "--write") == 0) out = argv[++i];
        else {
            fprintf(stderr, "usage: mesh-distance [--seed N] [--queries N] [--tris N] [--brute N] [--write FILE]\n");
            return 2;
        }
    }
    if (queries < 1 || tris < 100 || nbrute < 0) {
        fprintf(stderr, "mesh-distance: --queries >= 1, --tris >= 100, --brute >= 0\n");
        return 2;
    }
    rng = seed;
    FILE *f = out != NULL ? fopen(out, "w") : NULL;
    if (out != NULL && f == NULL) {
        fprintf(stderr, "mesh-distance: cannot write %s\n", out);
        return 1;
    }
    col_alloc alloc;
    col_alloc_init(&alloc, NULL);
    static const char *names[3] = {"knot-knot", "bumpy-bumpy", "soup-knot"};
    printf("mesh-distance: seed %" PRIu64 ", %d queries per pair, ~%d triangles per mesh\n", seed, queries, tris);
    printf("%-12s %7s %7s %10s %10s %9s %10s %10s %10s %10s %10s %7s\n", "pair", "tris_a", "tris_b", "ours_us",
           "brute_ms", "ratio", "node_pairs", "tri_pairs", "box_us", "box_nodes", "box_tris", "zero");
    for (int p = 0; p < 3; p++) {
        soup sa, sb;
        if (p == 0) make_knot(&sa, tris), make_knot(&sb, tris);
        else if (p == 1) make_bumpy(&sa, tris), make_bumpy(&sb, tris);
        else make_soup(&sa, tris), make_knot(&sb, tris);
        col_mesh ma, mb;
        char err[256];
        if (col_mesh_build(&alloc, sa.v, sa.nv, sa.t, sa.nt, &ma, err, sizeof err) != COL_OK ||
            col_mesh_build(&alloc, sb.v, sb.nv, sb.t, sb.nt, &mb, err, sizeof err) != COL_OK) {
            fprintf(stderr, "mesh-distance: %s\n", err);
            return 1;
        }
        if (f != NULL) {
            fprintf(f, "pair %s %d\n", names[p], queries);
            write_soup(f, &sa);
            write_soup(f, &sb);
        }
        double t_ours = 0, t_brute = 0, t_box = 0;
        long leaves = 0, nodes = 0, box_leaves = 0, box_nodes = 0;
        int zero = 0, nb = 0;
        for (int q = 0; q < queries; q++) {
            col_transform pa = rand_pose(col_v3(0, 0, 0));
            double dist = 2.0 + 2.0 * urand(), th = 2 * PI * urand(), z = 2 * urand() - 1;
            col_vec3 dir = col_v3(sqrt(1 - z * z) * cos(th), sqrt(1 - z * z) * sin(th), z);
            col_transform pb = rand_pose(col_scale(dir, dist));
            col_xform xa = col_xform_from_transform(pa), xb = col_xform_from_transform(pb);
            col_mesh_closest r;
            /* repeat so each timing spans at least 2 ms */
            int reps = 0;
            double t0 = now(), t1;
            do {
                col_mesh_mesh_distance(&ma, &xa, &mb, &xb, &r);
                reps++;
                t1 = now();
            } while (t1 - t0 < 2e-3);
            t_ours += (t1 - t0) / reps;
            col_mesh_closest ro;
            reps = 0;
            t0 = now();
            do {
                col_mesh_mesh_distance_bound(&ma, &xa, &mb, &xb, COL_MESH_BOUND_BOX, &ro);
                reps++;
                t1 = now();
            } while (t1 - t0 < 2e-3);
            t_box += (t1 - t0) / reps;
            box_leaves += ro.leaf_pairs;
            box_nodes += ro.node_pairs;
            if (ro.distance != r.distance) {
                fprintf(stderr, "mesh-distance: %s query %d: RSS %.17g, boxes %.17g\n", names[p], q,
                        r.distance, ro.distance);
                return 1;
            }
            leaves += r.leaf_pairs;
            nodes += r.node_pairs;
            zero += r.distance == 0.0;
            if (q < nbrute) {
                double b0 = now(), bd = brute(&ma, &xa, &mb, &xb);
                t_brute += now() - b0;
                nb++;
                if (bd != r.distance) {
                    fprintf(stderr, "mesh-distance: %s query %d: ours %.17g, brute force %.17g\n", names[p], q,
                            r.distance, bd);
                    return 1;
                }
            }
            if (f != NULL)
                fprintf(f, "query %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g "
                           "%.17g\n",
                        pa.p.x, pa.p.y, pa.p.z, pa.q.w, pa.q.x, pa.q.y, pa.q.z, pb.p.x, pb.p.y, pb.p.z, pb.q.w, pb.q.x,
                        pb.q.y, pb.q.z, r.distance);
        }
        double ours = t_ours / queries, br = nb > 0 ? t_brute / nb : NAN;
        printf("%-12s %7d %7d %10.2f %10.2f %9.0f %10.1f %10.1f %10.2f %10.1f %10.1f %4d/%d\n", names[p],
               ma.triangle_count, mb.triangle_count, ours * 1e6, br * 1e3, br / ours, (double)nodes / queries,
               (double)leaves / queries, t_box / queries * 1e6, (double)box_nodes / queries,
               (double)box_leaves / queries, zero, queries);
        col_mesh_free(&alloc, &ma);
        col_mesh_free(&alloc, &mb);
        free(sa.v), free(sa.t), free(sb.v), free(sb.t);
    }
    if (f != NULL) fclose(f);
    return 0;
}
