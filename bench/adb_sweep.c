/* SPDX-License-Identifier: MIT */
/* adb-sweep: the experiment of Klein & Zachmann (VMV 2003, section 5) on our machine
 * (docs/adb.md): two copies of one mesh, one moved through the other along a distance
 * sweep, many random orientations; per (p_min, k_min) setting, the time per query of the
 * ADB-tree traversal (ccd/mesh_adb.h) against the exact traversal
 * (col_mesh_mesh_query, no cache) of the same meshes, and the error rates judged by the
 * exact answer: false "colliding" and false "apart", as a share of all queries.
 *
 *   adb-sweep [--model PATH | --knot TRIS] [--queries N] [--seed S] [--area F]
 *             [--order best|depth] [--depth-rate R] [--settings P,K;P,K;...]
 *
 * --depth-rate R: the depth factor's rate (col_adb_params.depth_rate; default
 * COL_ADB_DEPTH_RATE, docs/adb.md "The depth factor").
 *
 * The mesh is centred on its box and scaled to radius 1. Body a rests at the origin;
 * query i puts b at distance d_i = 2.0 * i / N (the sweep, 0 .. 2 radii) in a random
 * direction with a random orientation (splitmix64 seeded with S, default 1). Times are
 * the thread's CPU time of all N queries of one method, divided by N. */
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/scene_mesh.h"
#include "lib/core/adb_tree.h"
#include "lib/core/alloc.h"
#include "lib/core/geometry.h"
#include "lib/core/mesh.h"
#include "ccd/mesh_adb.h"
#include "narrowphase/mesh_collide.h"
#ifdef ADB_SWEEP_IO
#include "colibri/io.h"
#endif

static uint64_t rng;
static col_alloc heap;
static uint64_t next64(void)
{
    uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static double unif(void) { return (double)(next64() >> 11) * (1.0 / 9007199254740992.0); }

static void die(const char *m)
{
    fprintf(stderr, "adb-sweep: %s\n", m);
    exit(1);
}

static double cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static col_quat rand_quat(void)
{
    for (;;) {
        double x = 2 * unif() - 1, y = 2 * unif() - 1, z = 2 * unif() - 1, w = 2 * unif() - 1;
        double n = sqrt(x * x + y * y + z * z + w * w);
        if (n > 0.1 && n <= 1) {
            col_quat q = {x / n, y / n, z / n, w / n};
            return q;
        }
    }
}

static col_vec3 rand_dir(void)
{
    for (;;) {
        col_vec3 v = col_v3(2 * unif() - 1, 2 * unif() - 1, 2 * unif() - 1);
        double n = col_len(v);
        if (n > 0.1 && n <= 1) return col_scale(v, 1 / n);
    }
}

/* centred on its box, radius 1 */
static void unit_mesh(const col_vec3 *v, int nv, const uint32_t *t, int nt, col_mesh *m)
{
    col_vec3 *w = scene_vertices_unit(v, nv);
    if (w == NULL) die("out of memory");
    char err[200];
    if (col_mesh_build(&heap, w, nv, t, nt, m, err, sizeof err) != COL_OK) die(err);
    free(w);
}

typedef struct setting {
    double p;
    int k;
} setting;

static void run(const char *name, const col_mesh *m, int n, double area, const setting *set, int nset, bool depth_first,
                double depth_rate)
{
    col_adb_tree tree;
    double t0 = cpu_ms();
    if (col_adb_tree_build(&heap, m, area, &tree) != COL_OK) die("adb tree");
    double tb = cpu_ms() - t0;
    long occupied = 0;
    for (int i = 0; i < tree.node_count; i++) occupied += tree.cells[i];
    printf("%s: %d triangles, %d nodes, ADB counts built in %.1f ms (%zu bytes, 1 a node; mean %.1f cells of 64)\n",
           name, m->triangle_count, m->node_count, tb, col_adb_tree_bytes(&tree), (double)occupied / tree.node_count);
    col_xform *xb = malloc((size_t)n * sizeof *xb);
    bool *truth = malloc((size_t)n);
    if (xb == NULL || truth == NULL) die("out of memory");
    for (int i = 0; i < n; i++) {
        double d = 2.0 * i / n;
        xb[i] = col_xform_from_transform((col_transform){col_scale(rand_dir(), d), rand_quat()});
    }
    const col_xform xa = col_xform_from_transform((col_transform){col_v3(0, 0, 0), {0, 0, 0, 1}});
    int hits = 0;
    long exact_visits = 0;
    t0 = cpu_ms();
    for (int i = 0; i < n; i++) {
        col_np_result r;
        col_mesh_mesh_query(m, &xa, m, &xb[i], NULL, &r);
        truth[i] = r.colliding;
        hits += r.colliding;
        exact_visits += r.iterations;
    }
    double te = (cpu_ms() - t0) / n;
    /* a second pass, apart from the timed one (the clock reads cost): the colliding
     * queries' share of the exact time */
    double t_hit = 0, t_all = 0;
    for (int i = 0; i < n; i++) {
        col_np_result r;
        double t1 = cpu_ms();
        col_mesh_mesh_query(m, &xa, m, &xb[i], NULL, &r);
        double dt = cpu_ms() - t1;
        t_all += dt;
        if (r.colliding) t_hit += dt;
    }
    printf("%s: exact: %.1f %% of the time on the colliding queries\n", name, 100.0 * t_hit / t_all);
    printf("%s: exact: %d of %d queries colliding, %.4f ms a query, %.0f node pairs a query\n", name, hits, n, te,
           (double)exact_visits / n);
    printf("| p_min | k_min | ms/query | speed-up | false colliding | false apart | wrong | estimated | node pairs |\n");
    printf("|---|---|---|---|---|---|---|---|---|\n");
    for (int s = 0; s < nset; s++) {
        col_adb_params p = {set[s].p, set[s].k, 0, 0, depth_rate};
        int fp = 0, fn = 0, est = 0;
        long visits = 0;
        t0 = cpu_ms();
        for (int i = 0; i < n; i++) {
            col_adb_result r;
            if (depth_first) {
                col_np_result np;
                col_mesh_mesh_adb_depth_first(m, &tree, &xa, m, &tree, &xb[i], &p, NULL, &r, &np);
            } else {
                col_mesh_mesh_adb(m, &tree, &xa, m, &tree, &xb[i], &p, NULL, &r);
            }
            fp += r.colliding && !truth[i];
            fn += !r.colliding && truth[i];
            est += !r.exact;
            visits += r.visits;
        }
        double ta = (cpu_ms() - t0) / n;
        printf("| %g | %d | %.4f | %.2f | %.2f %% | %.2f %% | %.2f %% | %.1f %% | %.0f |\n", p.p_min, p.k_min, ta, te / ta,
               100.0 * fp / n, 100.0 * fn / n, 100.0 * (fp + fn) / n, 100.0 * est / n, (double)visits / n);
    }
    free(xb);
    free(truth);
    col_adb_tree_free(&heap, &tree);
}

int main(int argc, char **argv)
{
    int n = 2000, knot = 20000;
    double area = COL_ADB_AREA_FACTOR_DEFAULT;
    bool depth_first = false;
    double depth_rate = COL_ADB_DEPTH_RATE;
    const char *model = NULL, *sets = "0.9,1;0.99,1;0.99,5;0.99,10;0.999,10;0.999,30";
    rng = 1;
    col_alloc_init(&heap, NULL);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--queries") == 0 && i + 1 < argc)
            n = atoi(argv[++i]);
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            rng = strtoull(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "--knot") == 0 && i + 1 < argc)
            knot = atoi(argv[++i]);
        else if (strcmp(argv[i], "--model") == 0 && i + 1 < argc)
            model = argv[++i];
        else if (strcmp(argv[i], "--area") == 0 && i + 1 < argc)
            area = atof(argv[++i]);
        else if (strcmp(argv[i], "--order") == 0 && i + 1 < argc && (strcmp(argv[i + 1], "best") == 0 || strcmp(argv[i + 1], "depth") == 0))
            depth_first = strcmp(argv[++i], "depth") == 0;
        else if (strcmp(argv[i], "--settings") == 0 && i + 1 < argc)
            sets = argv[++i];
        else if (strcmp(argv[i], "--depth-rate") == 0 && i + 1 < argc)
            depth_rate = atof(argv[++i]);
        else
            die("usage: adb-sweep [--model PATH | --knot TRIS] [--queries N] [--seed S] [--area F] [--order best|depth] "
                "[--depth-rate R] [--settings P,K;...]");
    }
    if (n < 1) die("--queries must be positive");
    if (!(depth_rate > 0 && isfinite(depth_rate))) die("--depth-rate must be positive");
    setting set[32];
    int nset = 0;
    for (const char *c = sets; *c != '\0' && nset < 32;) {
        char *e;
        set[nset].p = strtod(c, &e);
        if (*e != ',') die("--settings: P,K;P,K;...");
        set[nset].k = (int)strtol(e + 1, &e, 10);
        nset++;
        c = *e == ';' ? e + 1 : e;
        if (*e != ';' && *e != '\0') die("--settings: P,K;P,K;...");
    }
    printf("adb-sweep: seed %" PRIu64 ", %d queries, area factor %g, depth rate %.4g, %s order\n", rng, n, area,
           depth_rate, depth_first ? "depth-first (the exact query's)" : "best-first (the paper's)");
    col_mesh m;
    if (model == NULL) {
        scene_mesh sm = {0};
        if (!scene_mesh_torusknot(&sm, knot, 0, 0.16)) die("out of memory");
        unit_mesh(sm.v, sm.nv, sm.t, sm.nt, &m);
        scene_mesh_free(&sm);
        run("torusknot", &m, n, area, set, nset, depth_first, depth_rate);
    } else {
#ifdef ADB_SWEEP_IO
        col_io_load_def ld = col_default_io_load_def();
        col_geometry *g = NULL;
        if (col_io_load_mesh(NULL, model, &ld, &g, NULL, NULL) != COL_OK) die("cannot load the --model file");
        unit_mesh(g->mesh.vertices, g->mesh.vertex_count, g->mesh.tris, g->mesh.triangle_count, &m);
        col_geometry_destroy(g);
        const char *base = strrchr(model, '/');
        run(base != NULL ? base + 1 : model, &m, n, area, set, nset, depth_first, depth_rate);
#else
        die("--model needs colibri-io");
#endif
    }
    col_mesh_free(&heap, &m);
    return 0;
}
