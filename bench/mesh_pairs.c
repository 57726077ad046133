/* SPDX-License-Identifier: MIT */
/* mesh-pairs: the mesh narrow phase alone on a mesh scene (SCENE.md version 2, as
 * docs/meshes.md describes), for the split-rule and leaf-size table of docs/meshes.md
 * ("The hierarchy") and a first look at the narrow phase's cost.
 *
 *   mesh-pairs SCENE [--frames F] [--split sah|mean|median] [--leaf N] [--no-cache]
 *              [--dump-pairs FILE] [--cull aabb|obb|both] [--compare-bv]
 *
 * Every frame, the poses of the scene's closed-form motion (bench/scene.c), then every
 * pair with a mesh whose bounding spheres meet (brute force, not timed) goes to
 * col_mesh_mesh_query or col_mesh_convex_query (hulls as their points, spheres and
 * capsules as cores; hull-hull pairs are skipped), each pair with its own cache. Prints
 * the pairs tested and colliding, the node pairs visited (the queries' iterations; those
 * of colliding queries apart), how often the cached witness alone answered, a
 * hash of the colliding pairs (f, i, j) that must not depend on the split rule or the
 * cache, and the narrow phase's time per frame (wall clock median and mean, and the
 * thread's CPU time, steadier on a shared machine). --dump-pairs writes the colliding
 * pairs as `f i j` lines (i < j, in order), the pairs with a mesh only, for a comparison
 * with the exact oracle's truth restricted to those pairs. --cull picks mesh-mesh collision's
 * node test (narrowphase/mesh_collide.h). --compare-bv (docs/meshes.md "Bounding volumes
 * measured") runs, on every mesh-mesh pair of every frame and in one process, collision
 * with each node test (own caches) and distance with box and with RSS bounds
 * (narrowphase/mesh_distance.h), checks that the answers agree, and prints per variant
 * the node pairs and the thread CPU time per frame. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/scene.h"
#include "lib/core/alloc.h"
#include "lib/core/mesh.h"
#include "narrowphase/mesh_collide.h"
#include "narrowphase/mesh_distance.h"

typedef struct shape {
    int kind; /* 0 hull, 1 mesh, 2 sphere, 3 capsule */
    col_vec3 *pts;
    int npts;
    double radius, core_radius;
    col_mesh mesh;
} shape;

static double clock_ms(clockid_t id)
{
    struct timespec t;
    clock_gettime(id, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static int next_line(FILE *fp, char *buf, size_t n)
{
    while (fgets(buf, (int)n, fp) != NULL)
        if (buf[0] != '#' && buf[0] != '\n') return 1;
    return 0;
}

static void die(const char *what)
{
    fprintf(stderr, "mesh-pairs: %s\n", what);
    exit(1);
}

static double vec_radius(const col_vec3 *v, int n)
{
    double r = 0;
    for (int i = 0; i < n; i++) {
        double d = sqrt(v[i].x * v[i].x + v[i].y * v[i].y + v[i].z * v[i].z);
        if (d > r) r = d;
    }
    return r;
}

static void read_shape(FILE *fp, char *line, shape *s, col_alloc *a, const col_mesh_build_options *opt)
{
    char kw[32];
    int nv = 0, nt = 0;
    double x = 0, y = 0;
    memset(s, 0, sizeof *s);
    if (sscanf(line, "%31s", kw) != 1) die("bad shape line");
    if (strcmp(kw, "sphere") == 0 || strcmp(kw, "capsule") == 0) {
        int cap = kw[0] == 'c';
        if (cap ? sscanf(line, "%*s %lf %lf", &x, &y) != 2 : sscanf(line, "%*s %lf", &y) != 1) die("bad round shape");
        s->kind = cap ? 3 : 2;
        s->npts = cap && x > 0 ? 2 : 1;
        s->pts = malloc(2 * sizeof *s->pts);
        s->pts[0] = (col_vec3){0, 0, s->npts == 2 ? -x : 0};
        s->pts[1] = (col_vec3){0, 0, x};
        s->core_radius = y;
        s->radius = (cap ? x : 0) + y;
        return;
    }
    int is_mesh = strcmp(kw, "mesh") == 0;
    if (is_mesh ? sscanf(line, "%*s %d %d", &nv, &nt) != 2 : sscanf(line, "%*s %d", &nv) != 1) die("bad shape");
    s->kind = is_mesh;
    s->npts = nv;
    s->pts = malloc((size_t)nv * sizeof *s->pts);
    for (int i = 0; i < nv; i++) {
        if (!next_line(fp, line, 4096) || sscanf(line, "%lf %lf %lf", &s->pts[i].x, &s->pts[i].y, &s->pts[i].z) != 3)
            die("bad vertex");
    }
    s->radius = vec_radius(s->pts, nv);
    if (!is_mesh) return;
    uint32_t *idx = malloc(3 * (size_t)nt * sizeof *idx);
    for (int t = 0; t < nt; t++) {
        unsigned i, j, k;
        if (!next_line(fp, line, 4096) || sscanf(line, "%u %u %u", &i, &j, &k) != 3) die("bad triangle");
        idx[3 * t] = i;
        idx[3 * t + 1] = j;
        idx[3 * t + 2] = k;
    }
    char err[200];
    if (col_mesh_build_with(a, s->pts, nv, idx, nt, opt, &s->mesh, err, sizeof err) != COL_OK) die(err);
    free(idx);
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return a < b ? -1 : a > b;
}

static void fold(uint64_t *h, uint32_t v)
{
    for (int k = 0; k < 4; k++) {
        *h ^= (v >> (8 * k)) & 0xff;
        *h *= 1099511628211ULL;
    }
}

/* --compare-bv: the variants side by side on every mesh-mesh pair whose bounding
 * spheres meet, frame by frame (x: scratch poses). */
static void compare_bv(const bench_scene *sc, const shape *shapes, int frames, col_xform *x)
{
    enum { NV = 6 };
    static const char *name[NV] = {"collide-aabb", "collide-obb", "collide-both",
                                   "distance-box", "distance-rss", "distance-b+r"};
    double cpu[NV] = {0}, nodes[NV] = {0};
    int nb = sc->body_count;
    col_mesh_cache *cache = malloc(3 * (size_t)nb * (size_t)nb * sizeof *cache);
    for (size_t k = 0; k < 3 * (size_t)nb * (size_t)nb; k++) col_mesh_cache_init(&cache[k]);
    long pairs = 0, hits = 0;
    for (int f = 0; f < frames; f++) {
        for (int b = 0; b < nb; b++) x[b] = col_xform_from_transform(bench_scene_pose(sc, b, f));
        for (int i = 0; i < nb; i++)
            for (int j = i + 1; j < nb; j++) {
                const shape *si = &shapes[sc->bodies[i].shape], *sj = &shapes[sc->bodies[j].shape];
                if (si->kind != 1 || sj->kind != 1) continue;
                col_vec3 d = col_sub(x[i].p, x[j].p);
                double rr = (si->radius + sj->radius) * (1 + 1e-9);
                if (col_dot(d, d) > rr * rr) continue;
                pairs++;
                col_np_result r[3];
                for (int v = 0; v < 3; v++) {
                    col_mesh_cache *c = &cache[((size_t)v * (size_t)nb + (size_t)i) * (size_t)nb + (size_t)j];
                    double c0 = clock_ms(CLOCK_THREAD_CPUTIME_ID);
                    col_mesh_mesh_query_cull(&si->mesh, &x[i], &sj->mesh, &x[j], c, (col_mesh_cull)v, &r[v]);
                    cpu[v] += clock_ms(CLOCK_THREAD_CPUTIME_ID) - c0;
                    nodes[v] += r[v].iterations;
                }
                if (r[1].colliding != r[0].colliding || r[2].colliding != r[0].colliding) die("collision variants differ");
                hits += r[0].colliding;
                col_mesh_closest dc[3];
                for (int v = 0; v < 3; v++) {
                    double c0 = clock_ms(CLOCK_THREAD_CPUTIME_ID);
                    col_mesh_mesh_distance_bound(&si->mesh, &x[i], &sj->mesh, &x[j], (col_mesh_bound)v, &dc[v]);
                    cpu[3 + v] += clock_ms(CLOCK_THREAD_CPUTIME_ID) - c0;
                    nodes[3 + v] += dc[v].node_pairs;
                }
                if (dc[0].distance != dc[1].distance || dc[0].distance != dc[2].distance) {
                    fprintf(stderr, "frame %d pair %d %d: box %.17g rss %.17g both %.17g\n", f, i, j, dc[0].distance,
                            dc[1].distance, dc[2].distance);
                    die("distance variants differ");
                }
            }
    }
    printf("compare-bv: %ld mesh-mesh pair queries (%ld colliding) over %d frames; per frame:\n", pairs, hits, frames);
    for (int v = 0; v < NV; v++)
        printf("  %-13s node_pairs %10.0f  cpu_ms %9.4f  ratio_to_first_of_kind %.3f\n", name[v], nodes[v] / frames,
               cpu[v] / frames, cpu[v] / cpu[v < 3 ? 0 : 3]);
    free(cache);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        die("usage: mesh-pairs SCENE [--frames F] [--split sah|mean|median] [--leaf N] [--no-cache] "
            "[--dump-pairs FILE] [--cull aabb|obb|both] [--compare-bv]");
    col_mesh_build_options opt = col_mesh_default_build_options();
    int max_frames = -1, use_cache = 1, compare = 0;
    col_mesh_cull cull = COL_MESH_CULL_BOTH; /* col_mesh_mesh_query's */
    FILE *dump = NULL;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--frames") == 0 && i + 1 < argc) max_frames = atoi(argv[++i]);
        else if (strcmp(argv[i], "--leaf") == 0 && i + 1 < argc) opt.leaf_max = atoi(argv[++i]);
        else if (strcmp(argv[i], "--no-cache") == 0) use_cache = 0;
        else if (strcmp(argv[i], "--compare-bv") == 0) compare = 1;
        else if (strcmp(argv[i], "--cull") == 0 && i + 1 < argc) {
            i++;
            cull = strcmp(argv[i], "obb") == 0 ? COL_MESH_CULL_OBB
                   : strcmp(argv[i], "aabb") == 0 ? COL_MESH_CULL_AABB
                                                   : COL_MESH_CULL_BOTH;
        } else if (strcmp(argv[i], "--dump-pairs") == 0 && i + 1 < argc) {
            dump = fopen(argv[++i], "w");
            if (dump == NULL) die("cannot write the dump");
        } else if (strcmp(argv[i], "--split") == 0 && i + 1 < argc) {
            i++;
            opt.split = strcmp(argv[i], "mean") == 0     ? COL_MESH_SPLIT_MEAN
                        : strcmp(argv[i], "median") == 0 ? COL_MESH_SPLIT_MEDIAN
                                                         : COL_MESH_SPLIT_SAH;
        } else die("unknown option");
    }
    FILE *fp = fopen(argv[1], "r");
    if (fp == NULL) die("cannot open the scene");
    static char line[4096];
    bench_scene sc;
    memset(&sc, 0, sizeof sc);
    int ns = 0;
    if (!next_line(fp, line, sizeof line) || !next_line(fp, line, sizeof line) || sscanf(line, "room %lf", &sc.room) != 1)
        die("bad header");
    if (!next_line(fp, line, sizeof line) || sscanf(line, "frames %d", &sc.frames) != 1) die("bad frames");
    if (!next_line(fp, line, sizeof line) || sscanf(line, "shapes %d", &ns) != 1) die("bad shapes");
    col_alloc a;
    col_alloc_init(&a, NULL);
    shape *shapes = calloc((size_t)ns, sizeof *shapes);
    sc.shapes = calloc((size_t)ns, sizeof *sc.shapes);
    sc.shape_count = ns;
    for (int k = 0; k < ns; k++) {
        if (!next_line(fp, line, sizeof line)) die("short file");
        read_shape(fp, line, &shapes[k], &a, &opt);
        sc.shapes[k].radius = shapes[k].radius;
    }
    if (!next_line(fp, line, sizeof line) || sscanf(line, "bodies %d", &sc.body_count) != 1) die("bad bodies");
    sc.bodies = calloc((size_t)sc.body_count, sizeof *sc.bodies);
    for (int b = 0; b < sc.body_count; b++) {
        bench_body *bd = &sc.bodies[b];
        if (!next_line(fp, line, sizeof line) ||
            sscanf(line, "b %d %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf", &bd->shape, &bd->p0[0], &bd->p0[1],
                   &bd->p0[2], &bd->q0[0], &bd->q0[1], &bd->q0[2], &bd->q0[3], &bd->v[0], &bd->v[1], &bd->v[2],
                   &bd->w[0], &bd->w[1], &bd->w[2]) != 14)
            die("bad body");
    }
    fclose(fp);
    int nb = sc.body_count, frames = max_frames > 0 && max_frames < sc.frames ? max_frames : sc.frames;
    col_xform *x = malloc((size_t)nb * sizeof *x);
    col_mesh_cache *cache = malloc((size_t)nb * (size_t)nb * sizeof *cache);
    for (size_t k = 0; k < (size_t)nb * (size_t)nb; k++) col_mesh_cache_init(&cache[k]);
    double *ms = malloc((size_t)frames * sizeof *ms);
    long mm = 0, mm_hit = 0, mc = 0, mc_hit = 0;
    double visits = 0, visits_hit = 0, cpu = 0;
    long witness_hits = 0;
    int (*cand)[2] = NULL, cand_cap = 0;
    col_np_result *res = NULL;
    uint64_t hash = 14695981039346656037ULL;
    for (int f = 0; f < frames; f++) {
        for (int b = 0; b < nb; b++) x[b] = col_xform_from_transform(bench_scene_pose(&sc, b, f));
        int nc = 0;
        for (int i = 0; i < nb; i++) {
            for (int j = i + 1; j < nb; j++) {
                const shape *si = &shapes[sc.bodies[i].shape], *sj = &shapes[sc.bodies[j].shape];
                if (si->kind != 1 && sj->kind != 1) continue;
                col_vec3 d = col_sub(x[i].p, x[j].p);
                double rr = (si->radius + sj->radius) * (1 + 1e-9);
                if (col_dot(d, d) > rr * rr) continue;
                if (nc == cand_cap) {
                    cand_cap = cand_cap ? 2 * cand_cap : 1024;
                    cand = realloc(cand, (size_t)cand_cap * sizeof *cand);
                    res = realloc(res, (size_t)cand_cap * sizeof *res);
                }
                cand[nc][0] = i;
                cand[nc++][1] = j;
            }
        }
        /* the narrow phase alone, timed as a whole: wall clock and this thread's CPU time */
        double t0 = clock_ms(CLOCK_MONOTONIC), c0 = clock_ms(CLOCK_THREAD_CPUTIME_ID);
        for (int p = 0; p < nc; p++) {
            int i = cand[p][0], j = cand[p][1];
            const shape *si = &shapes[sc.bodies[i].shape], *sj = &shapes[sc.bodies[j].shape];
            col_mesh_cache *c = use_cache ? &cache[(size_t)i * (size_t)nb + (size_t)j] : NULL;
            if (si->kind == 1 && sj->kind == 1) {
                col_mesh_mesh_query_cull(&si->mesh, &x[i], &sj->mesh, &x[j], c, cull, &res[p]);
            } else {
                const shape *m = si->kind == 1 ? si : sj, *o = si->kind == 1 ? sj : si;
                int im = si->kind == 1 ? i : j, io = si->kind == 1 ? j : i;
                const col_core core = {o->pts, o->npts, NULL, o->core_radius};
                col_mesh_convex_query(&m->mesh, &x[im], &core, &x[io], c, &res[p]);
            }
        }
        ms[f] = clock_ms(CLOCK_MONOTONIC) - t0;
        cpu += clock_ms(CLOCK_THREAD_CPUTIME_ID) - c0;
        for (int p = 0; p < nc; p++) {
            int i = cand[p][0], j = cand[p][1];
            bool both = shapes[sc.bodies[i].shape].kind == 1 && shapes[sc.bodies[j].shape].kind == 1;
            mm += both;
            mc += !both;
            mm_hit += both && res[p].colliding;
            mc_hit += !both && res[p].colliding;
            visits += res[p].iterations;
            visits_hit += res[p].colliding ? res[p].iterations : 0;
            witness_hits += res[p].colliding && res[p].iterations == 0;
            if (res[p].colliding) {
                if (dump != NULL) fprintf(dump, "%d %d %d\n", f, i, j);
                fold(&hash, (uint32_t)f);
                fold(&hash, (uint32_t)i);
                fold(&hash, (uint32_t)j);
            }
        }
    }
    if (compare) compare_bv(&sc, shapes, frames, x);
    double sum = 0;
    for (int f = 0; f < frames; f++) sum += ms[f];
    qsort(ms, (size_t)frames, sizeof *ms, cmp_double);
    static const char *names[3] = {"sah", "mean", "median"};
    printf("mesh-pairs %s split=%s leaf=%d cache=%d frames=%d mesh_mesh=%ld/%ld mesh_convex=%ld/%ld "
           "node_pairs_per_frame=%.0f (colliding queries %.0f) witness_hits=%ld hash=0x%016llx narrow_ms_median=%.4f narrow_ms_mean=%.4f narrow_cpu_ms_mean=%.4f\n",
           argv[1], names[opt.split], opt.leaf_max, use_cache, frames, mm_hit, mm, mc_hit, mc, visits / frames, visits_hit / frames, witness_hits,
           (unsigned long long)hash, ms[(frames - 1) / 2], sum / frames, cpu / frames);
    for (int k = 0; k < ns; k++) {
        if (shapes[k].kind == 1) col_mesh_free(&a, &shapes[k].mesh);
        free(shapes[k].pts);
    }
    free(shapes);
    free(sc.shapes);
    free(sc.bodies);
    free(x);
    free(cache);
    free(ms);
    free(cand);
    free(res);
    if (dump != NULL) fclose(dump);
    return 0;
}
