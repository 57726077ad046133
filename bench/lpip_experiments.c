/* SPDX-License-Identifier: MIT */
/* lpip-experiments: the vertex-count experiments of docs/lpip.md ("Experiments 1-4"),
 * after Akgunduz, Banerjee & Mehrotra 2005's experiments (polyhedra of 4 to 264
 * vertices; interior-point iterations and time against a closest-feature method). Our
 * closest-feature method is the `voronoi` backend (V-Clip, docs/voronoi.md); both
 * backends answer the same query, one after the other (alternating which goes first), on
 * the same poses, each with its own per-pair cache, so their times are a ratio measured
 * under the same load. Timings are information, never test thresholds.
 *
 *   lpip-experiments [--seed S] [--scale F] [--no-dual-warm] [--active-max N]
 *
 * Shapes: n points uniform on the unit sphere (all of them hull vertices), n in
 * {4, 8, 16, 32, 64, 128, 264}, one shape per n and body.
 *   1. separated, coherent: B flies past A (closest centre distance 2.2 .. 2.6, so a gap
 *      of at least 0.2), 100 steps of 0.02 and 0.02 rad, warm caches; 40 flights.
 *   2. through contact, coherent: the same flights with the closest centre distance
 *      0 .. 1.6 and steps of 0.04 (B enters A, crosses it or grazes it, and leaves).
 *   3. cold: 4000 random poses at centre distance 1.2 .. 2.4, no cache (every query from
 *      scratch; about half collide at small n).
 *   4. n polyhedra: 20 bodies of the same shape in a cube of side 5, each moving 0.02 and
 *      turning 0.02 rad per frame (bouncing off the walls), 200 frames, every one of the
 *      190 pairs queried every frame with its own cache (no broad phase).
 * --scale F multiplies the flights, poses and frames. --no-dual-warm and --active-max N
 * set the lpip options dual_warm = false and active_max (col_lpip_options), to compare
 * variants.
 * Prints one Markdown row per experiment and vertex count: the share of colliding answers,
 * lpip's mean interior-point iterations (separated and colliding answers, over the
 * queries that iterated; the share that iterated), lpip's reference fallbacks, V-Clip's
 * mean walk steps, the median ns per query of each and their ratio (and the means), and
 * the answers on which the two
 * disagree (both are exact: 0 expected). Exit status 0, 1 on an error, 2 on a bad command
 * line. Uses internal headers (bench/ may). */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/alloc.h"
#include "lib/core/hull.h"
#include "lib/core/vec.h"
#include "narrowphase/backend.h"
#include "narrowphase/lpip.h"
#include "scene_rand.h"
#include "stats_util.h"

#define N_SIZES 7
static const int g_sizes[N_SIZES] = {4, 8, 16, 32, 64, 128, 264};
#define N_BODIES4 20

static col_alloc g_alloc;
static col_lpip_options g_opt;

/* What one experiment at one vertex count accumulates. */
typedef struct tally {
    long queries, colliding, disagree, fallbacks;
    long sep_lp, sep_it, col_lp, col_it; /* queries that iterated, and their iterations */
    long vor_steps;
    double ns_lpip, ns_vor;
    double *t_lpip, *t_vor; /* every query's time, for the medians */
    long cap;
    int oom;
} tally;

/* One shape: n random points on the unit sphere. */
static int make_sphere(col_hull *h, int n)
{
    col_vec3 *p = malloc(sizeof *p * (size_t)n);
    if (p == NULL) return 0;
    for (int i = 0; i < n; i++) p[i] = scene_rand_direction();
    char err[256];
    col_status st = col_hull_build(&g_alloc, p, n, h, err, sizeof err);
    free(p);
    if (st != COL_OK) fprintf(stderr, "lpip-experiments: hull of %d points: %s\n", n, err);
    return st == COL_OK;
}

static col_xform pose(col_vec3 p, col_quat q)
{
    col_transform t;
    t.p = p;
    t.q = q;
    return col_xform_from_transform(t);
}

/* The rotation by angle ang about the unit axis u. */
static col_quat axis_angle(col_vec3 u, double ang)
{
    double s = sin(0.5 * ang);
    col_quat q = {u.x * s, u.y * s, u.z * s, cos(0.5 * ang)};
    return q;
}

/* Caches of both backends for one pair; NULL caches: cold. */
typedef struct pair_caches {
    unsigned char *lp, *vor;
} pair_caches;

static col_np_scratch g_scratch;

/* Both backends on one pair, in alternating order; tallies the answers. */
static void query_pair(tally *t, pair_caches *c, const col_hull *a, const col_xform *xa, const col_hull *b,
                       const col_xform *xb)
{
    col_np_result rl, rv;
    col_lpip_info info;
    double tl = 0.0, tv = 0.0;
    for (int k = 0; k < 2; k++) {
        bool lp_turn = (k == 0) == ((t->queries & 1) == 0);
        double t0 = stats_now_ns();
        if (lp_turn)
            col_lpip_query_ex(c != NULL ? c->lp : NULL, a, xa, b, xb, &g_opt, &g_scratch, &rl, &info);
        else
            col_np_voronoi.query(c != NULL ? c->vor : NULL, a, NULL, xa, b, NULL, xb, &g_scratch, &rv);
        double dt = stats_now_ns() - t0;
        if (lp_turn)
            tl = dt;
        else
            tv = dt;
    }
    if (t->queries == t->cap && !t->oom) {
        long ncap = t->cap ? 2 * t->cap : 4096;
        double *nl = realloc(t->t_lpip, (size_t)ncap * sizeof *nl), *nv;
        if (nl != NULL) t->t_lpip = nl;
        nv = nl != NULL ? realloc(t->t_vor, (size_t)ncap * sizeof *nv) : NULL;
        if (nv != NULL) t->t_vor = nv;
        if (nl == NULL || nv == NULL)
            t->oom = 1;
        else
            t->cap = ncap;
    }
    if (t->queries < t->cap) {
        t->t_lpip[t->queries] = tl;
        t->t_vor[t->queries] = tv;
    }
    t->queries++;
    t->ns_lpip += tl;
    t->ns_vor += tv;
    t->colliding += rl.colliding;
    t->disagree += rl.colliding != rv.colliding;
    t->fallbacks += rl.fallbacks;
    t->vor_steps += rv.iterations;
    if (info.iterations > 0) {
        if (rl.colliding) {
            t->col_lp++;
            t->col_it += info.iterations;
        } else {
            t->sep_lp++;
            t->sep_it += info.iterations;
        }
    }
}

static int caches_new(pair_caches *c, const col_hull *a, const col_hull *b)
{
    c->lp = malloc(col_np_lpip.cache_size);
    c->vor = malloc(col_np_voronoi.cache_size);
    if (c->lp == NULL || c->vor == NULL) return 0;
    col_np_lpip.cache_init(c->lp, a, b);
    col_np_voronoi.cache_init(c->vor, a, b);
    return 1;
}

static void caches_free(pair_caches *c)
{
    free(c->lp);
    free(c->vor);
}

/* Experiments 1 and 2: flights of B past (or through) A. */
static int run_flights(tally *t, const col_hull *a, const col_hull *b, long flights, double dmin, double dmax,
                       double step)
{
    for (long f = 0; f < flights; f++) {
        col_xform xa = pose(col_v3(0, 0, 0), scene_rand_rotation());
        col_vec3 dir = scene_rand_direction(), side = col_cross(dir, scene_rand_direction());
        double sl = col_len(side);
        if (!(sl > 1e-9)) side = col_v3(0, 0, 0);
        else side = col_scale(side, scene_rand_range(dmin, dmax) / sl);
        col_quat qb = scene_rand_rotation(), dq = axis_angle(scene_rand_direction(), 0.02);
        pair_caches c;
        if (!caches_new(&c, a, b)) return 0;
        for (int k = 0; k < 100; k++) {
            qb = col_quat_mul(dq, qb);
            col_xform xb = pose(col_add(side, col_scale(dir, step * (k - 50))), qb);
            query_pair(t, &c, a, &xa, b, &xb);
        }
        caches_free(&c);
    }
    return 1;
}

/* Experiment 3: cold queries at random poses. */
static void run_cold(tally *t, const col_hull *a, const col_hull *b, long poses)
{
    for (long k = 0; k < poses; k++) {
        col_xform xa = pose(col_v3(0, 0, 0), scene_rand_rotation());
        col_xform xb = pose(col_scale(scene_rand_direction(), scene_rand_range(1.2, 2.4)), scene_rand_rotation());
        query_pair(t, NULL, a, &xa, b, &xb);
    }
}

/* Experiment 4: N_BODIES4 bodies in a cube, every pair every frame. */
static int run_crowd(tally *t, const col_hull *h, long frames)
{
    const double half = 2.5;
    col_vec3 p[N_BODIES4], v[N_BODIES4];
    col_quat q[N_BODIES4], dq[N_BODIES4];
    col_xform x[N_BODIES4];
    for (int i = 0; i < N_BODIES4; i++) {
        p[i] = col_v3(scene_rand_range(-half + 1, half - 1), scene_rand_range(-half + 1, half - 1),
                      scene_rand_range(-half + 1, half - 1));
        v[i] = col_scale(scene_rand_direction(), 0.02);
        q[i] = scene_rand_rotation();
        dq[i] = axis_angle(scene_rand_direction(), 0.02);
    }
    int npairs = N_BODIES4 * (N_BODIES4 - 1) / 2;
    pair_caches *c = calloc((size_t)npairs, sizeof *c);
    if (c == NULL) return 0;
    int ok = 1;
    for (int k = 0; k < npairs && ok; k++) ok = caches_new(&c[k], h, h);
    for (long f = 0; f < frames && ok; f++) {
        for (int i = 0; i < N_BODIES4; i++) {
            p[i] = col_add(p[i], v[i]);
            double *pc[3] = {&p[i].x, &p[i].y, &p[i].z}, *vc[3] = {&v[i].x, &v[i].y, &v[i].z};
            for (int d = 0; d < 3; d++)
                if (fabs(*pc[d]) > half - 1) *vc[d] = *pc[d] > 0 ? -fabs(*vc[d]) : fabs(*vc[d]);
            q[i] = col_quat_mul(dq[i], q[i]);
            x[i] = pose(p[i], q[i]);
        }
        int k = 0;
        for (int i = 0; i < N_BODIES4; i++)
            for (int j = i + 1; j < N_BODIES4; j++, k++) query_pair(t, &c[k], h, &x[i], h, &x[j]);
    }
    for (int k = 0; k < npairs; k++) caches_free(&c[k]);
    free(c);
    return ok;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* The median of v[0..n) (sorts v). */
static double median(double *v, long n)
{
    if (n <= 0) return 0.0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The medians of the per-query times are the figures: on a shared machine a preemption
 * inside one timed query adds milliseconds to the mean, never to the median. */
static void print_row(int exp, int n, tally *t)
{
    double q = t->queries ? (double)t->queries : 1.0;
    long k = t->queries < t->cap ? t->queries : t->cap;
    double ml = median(t->t_lpip, k), mv = median(t->t_vor, k);
    printf("| %d | %d | %ld | %.1f %% | %.2f (%.1f %%) | %.2f (%.1f %%) | %ld | %.2f | %.0f | %.0f | %.2f | %.0f / %.0f | %ld "
           "|\n",
           exp, n, t->queries, 100.0 * (double)t->colliding / q, t->sep_lp ? (double)t->sep_it / (double)t->sep_lp : 0.0,
           100.0 * (double)t->sep_lp / q, t->col_lp ? (double)t->col_it / (double)t->col_lp : 0.0,
           100.0 * (double)t->col_lp / q, t->fallbacks, (double)t->vor_steps / q, ml, mv, mv > 0.0 ? ml / mv : 0.0,
           t->ns_lpip / q, t->ns_vor / q, t->disagree);
    free(t->t_lpip);
    free(t->t_vor);
}

static int usage(void)
{
    fprintf(stderr, "usage: lpip-experiments [--seed S] [--scale F] [--no-dual-warm] [--active-max N]\n");
    return 2;
}

int main(int argc, char **argv)
{
    uint64_t seed = 0x1b1b2005;
    double scale = 1.0;
    g_opt = col_lpip_default_options();
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--scale") && i + 1 < argc)
            scale = atof(argv[++i]);
        else if (!strcmp(argv[i], "--no-dual-warm"))
            g_opt.dual_warm = false;
        else if (!strcmp(argv[i], "--active-max") && i + 1 < argc)
            g_opt.active_max = atoi(argv[++i]);
        else
            return usage();
    }
    if (!(scale > 0.0) || scale > 100.0 || g_opt.active_max < 0) return usage();
    col_alloc_init(&g_alloc, NULL);
    scene_rand_seed(seed);
    long flights = (long)(40 * scale + 0.5), poses = (long)(4000 * scale + 0.5), frames = (long)(200 * scale + 0.5);
    printf("lpip-experiments: seed 0x%llx, scale %g, lpip options: dual warm start %s, active_max %d\n\n",
           (unsigned long long)seed, scale, g_opt.dual_warm ? "on" : "off", g_opt.active_max);
    printf("| experiment | vertices | queries | colliding | lpip iterations, separated (share iterating) | lpip "
           "iterations, colliding (share iterating) | lpip fallbacks | V-Clip steps | lpip ns (median) | V-Clip ns (median) | "
           "lpip / V-Clip | mean ns, lpip / V-Clip | disagreements |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int si = 0; si < N_SIZES; si++) {
        col_hull a, b;
        if (!make_sphere(&a, g_sizes[si]) || !make_sphere(&b, g_sizes[si])) return 1;
        size_t need = col_np_scratch_bytes(&col_np_lpip, &a, &b), nv = col_np_scratch_bytes(&col_np_voronoi, &a, &b);
        if (nv > need) need = nv;
        if (need > g_scratch.size) {
            free(g_scratch.mem);
            g_scratch.mem = malloc(need);
            g_scratch.size = g_scratch.mem != NULL ? need : 0;
            if (g_scratch.mem == NULL) return 1;
        }
        tally t[4];
        memset(t, 0, sizeof t);
        if (!run_flights(&t[0], &a, &b, flights, 2.2, 2.6, 0.02) || !run_flights(&t[1], &a, &b, flights, 0.0, 1.6, 0.04))
            return 1;
        run_cold(&t[2], &a, &b, poses);
        if (!run_crowd(&t[3], &a, frames)) return 1;
        for (int e = 0; e < 4; e++) print_row(e + 1, a.vertex_count, &t[e]);
        col_hull_free(&g_alloc, &a);
        col_hull_free(&g_alloc, &b);
    }
    free(g_scratch.mem);
    return 0;
}
