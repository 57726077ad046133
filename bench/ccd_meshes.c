/* SPDX-License-Identifier: MIT */
/* ccd-meshes: C2A's time of impact between meshes (ccd/c2a.h) in the style of
 * Table I of Tang, Kim & Manocha (ICRA 2009), with and without the controlled
 * advancement (docs/ccd.md "C2A" has the table and the commands).
 *
 *   ccd-meshes [--queries N] [--seed S] [--knot-tris N] [--model PATH]
 *              [--only knot|model] [--poses random|through] [--check K] [--write FILE]
 *
 * Pairs: a (2,3) torus knot of about --knot-tris triangles (default 35000)
 * against itself, and, when colibri-io is built, the model file --model
 * (default assimp-testmodels' Wuson, 3732 triangles) against itself. Each mesh
 * is centred on its box and scaled to radius 1. --poses random (the default):
 * random start and end poses, a mix of hits and misses: body a stays at the origin
 * and turns from a random orientation to another; body b moves from a random point
 * of the shell 2.05 to 3 about the origin (apart from a at the start: both lie within
 * 1 of their origins) to a random point of the ball of radius 2, between two random
 * orientations (the points uniform in volume). --poses through (the generator of the
 * first version of this benchmark): a rests at the origin, b moves from a random pose
 * 2.2 from the origin to one about opposite (the start direction negated plus up to
 * 0.8 of noise): it crosses or grazes a, and with seed 1 all 200 paths of each pair
 * touch. N queries per pair (default 200), from a splitmix64 sequence seeded with S
 * (default 1). Per pair it prints the hits and misses, the thread CPU time per query
 * (each query repeated for at least 2 ms; also split into hits and misses) and the
 * rounds and node pairs, with and without the controlled advancement, and whether both
 * answers agree (hit, s within 2e-6). --check K decides K equally spaced instants of [0, s) (or [0, 1] on a
 * miss) exactly (col_mesh_mesh_query) and counts the queries whose answer is
 * late or missed by that sampling (must be 0). --write FILE writes, for
 * bench/peers/fcl_ccd.cpp (scripts/fcl-ccd): pair NAME NQUERIES / mesh NV NT /
 * NV lines "x y z" / NT lines "i j k" query  A0 A1 B0 B1 HIT S   (poses as px
 * py pz qw qx qy qz; our controlled answer) */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/scene_mesh.h"
#include "ccd/c2a.h"
#include "colibri/shape.h"
#include "lib/core/geometry.h"
#include "narrowphase/mesh_collide.h"
#ifdef CCD_MESHES_IO
#include "colibri/io.h"
#endif

#define PI 3.14159265358979323846

static uint64_t rng = 1;
static double urand(void)
{
    uint64_t z = (rng += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return (double)((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
}

static double now(void) /* thread CPU time: the machine may be shared */
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void die(const char *m)
{
    fprintf(stderr, "ccd-meshes: %s\n", m);
    exit(1);
}

static col_vec3 unit_dir(void)
{
    double z = 2 * urand() - 1, ph = 2 * PI * urand(), r = sqrt(1 - z * z);
    return col_v3(r * cos(ph), r * sin(ph), z);
}

static col_quat rand_quat(void)
{
    double u1 = urand(), u2 = 2 * PI * urand(), u3 = 2 * PI * urand();
    col_quat q = {sqrt(1 - u1) * sin(u2), sqrt(1 - u1) * cos(u2), sqrt(u1) * sin(u3), sqrt(u1) * cos(u3)};
    return q;
}

/* The mesh of v, t centred on its box and scaled to radius 1. */
static col_geometry *unit_mesh(const col_vec3 *v, int nv, const uint32_t *t, int nt)
{
    col_vec3 *w = scene_vertices_unit(v, nv);
    if (w == NULL) die("out of memory");
    col_mesh_def md = col_default_mesh_def();
    md.vertices = w;
    md.vertex_count = nv;
    md.indices = t;
    md.triangle_count = nt;
    col_geometry *g = NULL;
    if (col_geometry_create_mesh(NULL, &md, &g, NULL) != COL_OK) die("mesh refused");
    free(w);
    return g;
}

typedef struct query {
    col_transform a0, a1, b0, b1;
} query;

static void write_pose(FILE *f, col_transform x)
{
    fprintf(f, " %.17g %.17g %.17g %.17g %.17g %.17g %.17g", x.p.x, x.p.y, x.p.z, x.q.w, x.q.x, x.q.y, x.q.z);
}

/* One run of every query with the options: the CPU seconds of each query into t[k];
 * returns the mean. */
static double leaves_mean;
static double run(const col_geometry *g, const query *qs, int n, const col_c2a_options *opt, col_toi_result *res,
                  double *t, double *rounds, double *nodes)
{
    double total = 0;
    *rounds = *nodes = 0;
    leaves_mean = 0;
    for (int k = 0; k < n; k++) {
        col_toi_motion ma, mb;
        col_toi_motion_init(&ma, qs[k].a0, qs[k].a1);
        col_toi_motion_init(&mb, qs[k].b0, qs[k].b1);
        col_c2a_stats st;
        int reps = 0;
        double t0 = now(), t1;
        do {
            col_c2a_toi(g, &ma, g, &mb, opt, &res[k], &st);
            reps++;
            t1 = now();
        } while (t1 - t0 < 2e-3);
        t[k] = (t1 - t0) / reps;
        total += t[k];
        *rounds += res[k].iterations;
        leaves_mean += (double)st.leaf_pairs / n;
        *nodes += (double)st.node_pairs;
    }
    *rounds /= n;
    *nodes /= n;
    return total / n;
}

/* The mean of t over the queries whose answer r is a hit (want) or a miss (!want), in
 * ms; 0 when there are none. */
static double mean_ms(const double *t, const col_toi_result *r, int n, bool want)
{
    double sum = 0;
    int m = 0;
    for (int k = 0; k < n; k++)
        if (r[k].hit == want) {
            sum += t[k];
            m++;
        }
    return m > 0 ? 1e3 * sum / m : 0.0;
}

static double ball_radius(double lo, double hi) /* uniform in volume between the radii */
{
    double l3 = lo * lo * lo, h3 = hi * hi * hi;
    return cbrt(l3 + (h3 - l3) * urand());
}

/* Late or missed by sampling: a contact at one of k instants before the answer.
 */
static bool sampled_late(const col_geometry *g, const query *q, const col_toi_result *r, int k)
{
    col_toi_motion ma, mb;
    col_toi_motion_init(&ma, q->a0, q->a1);
    col_toi_motion_init(&mb, q->b0, q->b1);
    double end = r->hit ? r->s : 1.0;
    for (int i = 0; i < k; i++) {
        double s = end * i / (r->hit ? k : k - 1);
        if (r->hit && s >= r->s) break;
        col_xform xa = col_xform_from_transform(col_toi_pose_at(&ma, s));
        col_xform xb = col_xform_from_transform(col_toi_pose_at(&mb, s));
        col_np_result nr;
        col_mesh_mesh_query(&g->mesh, &xa, &g->mesh, &xb, NULL, &nr);
        if (nr.colliding) return true;
    }
    return false;
}

static void bench_pair(const char *name, const col_geometry *g, int n, int check, bool through, FILE *wf)
{
    query *qs = calloc((size_t)n, sizeof *qs);
    col_toi_result *rc = malloc((size_t)n * sizeof *rc), *ru = malloc((size_t)n * sizeof *ru);
    double *tc_k = malloc((size_t)n * sizeof *tc_k), *tu_k = malloc((size_t)n * sizeof *tu_k);
    if (qs == NULL || rc == NULL || ru == NULL || tc_k == NULL || tu_k == NULL) die("out of memory");
    const col_transform id = {{0, 0, 0}, {0, 0, 0, 1}};
    for (int k = 0; k < n; k++) {
        if (through) {
            col_vec3 u = unit_dir(), e = unit_dir();
            double noise = 0.8 * urand();
            qs[k].a0 = qs[k].a1 = id;
            qs[k].b0 = (col_transform){col_scale(u, 2.2), rand_quat()};
            qs[k].b1 = (col_transform){col_add(col_scale(u, -2.2), col_scale(e, noise)), rand_quat()};
        } else {
            qs[k].a0 = (col_transform){{0, 0, 0}, rand_quat()};
            qs[k].a1 = (col_transform){{0, 0, 0}, rand_quat()};
            col_vec3 u = unit_dir();
            qs[k].b0 = (col_transform){col_scale(u, ball_radius(2.05, 3.0)), rand_quat()};
            u = unit_dir();
            qs[k].b1 = (col_transform){col_scale(u, ball_radius(0.0, 2.0)), rand_quat()};
        }
    }
    col_c2a_options oc = col_c2a_default_options(), ou = oc;
    ou.controlled = false;
    double rc_rounds, rc_nodes, ru_rounds, ru_nodes;
    double tc = run(g, qs, n, &oc, rc, tc_k, &rc_rounds, &rc_nodes);
    double lc = leaves_mean;
    double tu = run(g, qs, n, &ou, ru, tu_k, &ru_rounds, &ru_nodes);
    double lu = leaves_mean;
    int hits = 0, disagree = 0, capped = 0, late = 0;
    for (int k = 0; k < n; k++) {
        hits += rc[k].hit;
        capped += rc[k].capped + ru[k].capped;
        if (rc[k].hit != ru[k].hit || (rc[k].hit && fabs(rc[k].s - ru[k].s) > 2e-6)) disagree++;
        if (check > 1) late += sampled_late(g, &qs[k], &rc[k], check) || sampled_late(g, &qs[k], &ru[k], check);
    }
    printf("%-10s tris=%d queries=%d hits=%d misses=%d  controlled: %.3f ms/query (hits %.3f, misses %.3f; %.1f "
           "rounds, %.0f node pairs, %.0f leaf pairs)  plain: %.3f ms/query (hits %.3f, misses %.3f; %.1f rounds, %.0f "
           "node pairs, %.0f leaf pairs)  controlled/plain=%.2f  disagree=%d capped=%d",
           name, g->mesh.triangle_count, n, hits, n - hits, 1e3 * tc, mean_ms(tc_k, rc, n, true),
           mean_ms(tc_k, rc, n, false), rc_rounds, rc_nodes, lc, 1e3 * tu, mean_ms(tu_k, ru, n, true),
           mean_ms(tu_k, ru, n, false), ru_rounds, ru_nodes, lu, tc / tu, disagree, capped);
    if (check > 1) printf(" sampled_late_or_missed=%d (of %d instants)", late, check);
    printf("\n");
    if (wf != NULL) {
        const col_mesh *m = &g->mesh;
        fprintf(wf, "pair %s %d\nmesh %d %d\n", name, n, m->vertex_count, m->triangle_count);
        for (int i = 0; i < m->vertex_count; i++)
            fprintf(wf, "%.17g %.17g %.17g\n", m->vertices[i].x, m->vertices[i].y, m->vertices[i].z);
        for (int i = 0; i < m->triangle_count; i++)
            fprintf(wf, "%u %u %u\n", m->tris[3 * i], m->tris[3 * i + 1], m->tris[3 * i + 2]);
        for (int k = 0; k < n; k++) {
            fprintf(wf, "query");
            write_pose(wf, qs[k].a0);
            write_pose(wf, qs[k].a1);
            write_pose(wf, qs[k].b0);
            write_pose(wf, qs[k].b1);
            fprintf(wf, " %d %.17g\n", rc[k].hit, rc[k].s);
        }
    }
    free(qs);
    free(rc);
    free(ru);
    free(tc_k);
    free(tu_k);
}

int main(int argc, char **argv)
{
    int n = 200, knot_tris = 35000, check = 0;
    uint64_t seed = 1;
    const char *model = "/usr/share/assimp/models/PLY/Wuson.ply", *write = NULL, *only = "", *poses = "random";
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--queries") == 0 && i + 1 < argc)
            n = atoi(argv[++i]);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--knot-tris") == 0 && i + 1 < argc)
            knot_tris = atoi(argv[++i]);
        else if (strcmp(argv[i], "--model") == 0 && i + 1 < argc)
            model = argv[++i];
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            only = argv[++i];
        else if (strcmp(argv[i], "--poses") == 0 && i + 1 < argc)
            poses = argv[++i];
        else if (strcmp(argv[i], "--check") == 0 && i + 1 < argc)
            check = atoi(argv[++i]);
        else if (strcmp(argv[i], "--write") == 0 && i + 1 < argc)
            write = argv[++i];
        else
            die("usage: ccd-meshes [--queries N] [--seed S] [--knot-tris N] [--model "
                "PATH] [--only knot|model] [--poses random|through] [--check K] "
                "[--write FILE]");
    }
    if (n < 1 || knot_tris < 8) die("--queries and --knot-tris must be positive");
    bool through = strcmp(poses, "through") == 0;
    if (!through && strcmp(poses, "random") != 0) die("--poses takes random or through");
    rng = seed;
    FILE *wf = NULL;
    if (write != NULL && (wf = fopen(write, "w")) == NULL) die("cannot write the --write file");
    printf("ccd-meshes: seed %" PRIu64 ", %d queries per pair, %s poses\n", seed, n, through ? "through" : "random");
    scene_mesh sm = {0};
    if (strcmp(only, "model") != 0) {
        if (!scene_mesh_torusknot(&sm, knot_tris, 0, 0.16)) die("out of memory");
        col_geometry *knot = unit_mesh(sm.v, sm.nv, sm.t, sm.nt);
        scene_mesh_free(&sm);
        bench_pair("torusknot", knot, n, check, through, wf);
        col_geometry_destroy(knot);
    }
    if (strcmp(only, "knot") == 0) {
        if (wf != NULL) fclose(wf);
        return 0;
    }
#ifdef CCD_MESHES_IO
    col_io_load_def ld = col_default_io_load_def();
    col_geometry *loaded = NULL;
    if (col_io_load_mesh(NULL, model, &ld, &loaded, NULL, NULL) != COL_OK) die("cannot load the --model file");
    const col_mesh *lm = &loaded->mesh;
    uint32_t *t = malloc((size_t)lm->triangle_count * 3 * sizeof *t);
    if (t == NULL) die("out of memory");
    memcpy(t, lm->tris, (size_t)lm->triangle_count * 3 * sizeof *t);
    col_geometry *mg = unit_mesh(lm->vertices, lm->vertex_count, t, lm->triangle_count);
    free(t);
    col_geometry_destroy(loaded);
    const char *base = strrchr(model, '/');
    bench_pair(base != NULL ? base + 1 : model, mg, n, check, through, wf);
    col_geometry_destroy(mg);
#else
    (void)model;
    printf("(no model pair: colibri-io is not built)\n");
#endif
    if (wf != NULL) fclose(wf);
    return 0;
}
