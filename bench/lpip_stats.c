/* SPDX-License-Identifier: MIT */
/* lpip-stats: how the lpip narrow phase (narrowphase/lpip.c) behaves on a benchmark
 * scene, for docs/lpip.md: interior-point iterations of separated and colliding
 * answers (next to the paper's "one to three" and "two to five"), how often each exit
 * fires (the warm-start plane, delta_s < 0, above all), active-set sizes and violator
 * rounds, reference fallbacks, and nanoseconds per query (and the reference's, with
 * --reference).
 *
 *   lpip-stats SCENE_FILE [--frames N] [--cold] [--active-k K] [--reference]
 *              [--no-dual-warm | --dual-shift X] [--active-max N] [--add-k K] [--paired]
 *
 * A world (lpip backend, one worker) runs the scene; its narrow-phase observer
 * (lib/observe.h) hands over every query it makes, which is then asked again, timed, with
 * this program's own per-pair cache (kept per pair cache slot, as the world keeps its
 * own), so the numbers are those of the world's queries.
 * --cold: no warm start (the cached plane and weights are not used). --no-dual-warm:
 * without the paper's dual warm start (eqs. 19-24; col_lpip_options.dual_warm, on by
 * default, its smallest slack X eta, default COL_LPIP_DUAL_SHIFT). --active-max N: the paper's bounded active set, at most N
 * points per body (col_lpip_options.active_max); --add-k K: K violators per body and round
 * (col_lpip_options.add_k; the paper's swap rule is --active-max 10 --add-k 1). --paired: every query is also asked with
 * the default options (own caches), in alternating order, so the two timings of a
 * variant and of the default come from the same queries under the same load. Uses internal
 * headers (bench/ may, to count things). Exit status: 0, 1 on a load or Colibri error,
 * 2 on a bad command line. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colibri/colibri.h"
#include "lib/observe.h"
#include "narrowphase/lpip.h"
#include "scene.h"
#include "stats_util.h"

#define HIST 64

static const char *exit_names[COL_LPIP_EXIT_COUNT] = {
    "none", "warm plane (delta_s < 0)", "centroid axis", "coincident centroids", "warm common point",
    "start common point", "pi4 + pi5 > 0 (verified)", "mu phi small (confirmed)", "undecided -> reference"};

typedef struct hist {
    long n, sum, max, bins[HIST];
} hist;

static void hist_add(hist *h, int v)
{
    h->n++;
    h->sum += v;
    h->max = v > h->max ? v : h->max;
    h->bins[v < HIST - 1 ? v : HIST - 1]++;
}

static int hist_quantile(const hist *h, double q)
{
    long want = (long)(q * (double)h->n + 0.999999), acc = 0;
    for (int i = 0; i < HIST; i++) {
        acc += h->bins[i];
        if (acc >= want && want > 0) return i;
    }
    return HIST - 1;
}

static void hist_print(const char *what, const hist *h)
{
    if (h->n == 0) {
        printf("| %s | 0 | - | - | - | - |\n", what);
        return;
    }
    printf("| %s | %ld | %.2f | %d | %d | %ld |\n", what, h->n, (double)h->sum / (double)h->n, hist_quantile(h, 0.5),
           hist_quantile(h, 0.95), h->max);
}

/* What the observer accumulates over the run. */
typedef struct stats_run {
    size_t csize;
    unsigned char *caches; /* own lpip caches, per pair cache slot */
    uint64_t *keys;        /* which pair a slot's cache belongs to */
    int ccap;
    col_np_scratch scr;
    col_lpip_options opt;
    int with_ref, error;
    long exits[COL_LPIP_EXIT_COUNT];
    hist it_sep, it_col, it_sep_lp, it_col_lp, act, it_stale;
    long queries, disagree, violator_queries, warm_lp, sep_total, sep_cached, dual_warm, dropped, fallbacks;
    double t_stale; /* ns of the queries whose cached plane was stale */
    /* --paired: the default options on the same queries, with their own caches */
    int paired;
    unsigned char *caches2;
    hist it2_lp, it2_stale, sv2_stale;
    hist sv_stale;
    /* every query's time, both options, for medians (robust to preemption) */
    double *tq1, *tq2;
    long tq_cap;
    double t2, t2_stale;
    double t_lpip, t_ref;
} stats_run;

/* --paired: the same query with the default options and their own cache. */
static void paired_query(stats_run *run, void *cache2, const col_narrow_event *e)
{
    if (run->queries >= run->tq_cap) {
        long ncap = run->tq_cap ? 2 * run->tq_cap : 65536;
        double *a = realloc(run->tq1, (size_t)ncap * sizeof *a), *b;
        if (a != NULL) run->tq1 = a;
        b = a != NULL ? realloc(run->tq2, (size_t)ncap * sizeof *b) : NULL;
        if (b != NULL) run->tq2 = b;
        if (a == NULL || b == NULL) {
            run->error = 1;
            return;
        }
        run->tq_cap = ncap;
    }
    col_np_result res;
    col_lpip_info info;
    double t0 = stats_now_ns();
    col_lpip_query_ex(cache2, e->hull_a, e->pose_a, e->hull_b, e->pose_b, NULL, &run->scr, &res, &info);
    double dt = stats_now_ns() - t0;
    run->t2 += dt;
    run->tq2[run->queries] = dt;
    if (info.iterations > 0) hist_add(&run->it2_lp, info.iterations);
    if (info.stale_plane && info.solves > 0) {
        hist_add(&run->it2_stale, info.iterations);
        hist_add(&run->sv2_stale, info.solves);
        run->t2_stale += dt;
    }
}

/* The world's query of one pair (lib/observe.h), asked again with our own cache. */
static void observe(void *ctx, const col_narrow_event *e)
{
    stats_run *run = ctx;
    if (run->error != 0) return;
    if ((int)e->pair_slot >= run->ccap) {
        int ncap = run->ccap > 0 ? 2 * run->ccap : 1024;
        while (ncap <= (int)e->pair_slot) ncap *= 2;
        unsigned char *nc = realloc(run->caches, (size_t)ncap * run->csize);
        uint64_t *nk = realloc(run->keys, (size_t)ncap * sizeof *nk);
        unsigned char *nc2 = run->paired ? realloc(run->caches2, (size_t)ncap * run->csize) : NULL;
        if (nc != NULL) run->caches = nc;
        if (nk != NULL) run->keys = nk;
        if (nc2 != NULL) run->caches2 = nc2;
        if (nc == NULL || nk == NULL || (run->paired && nc2 == NULL)) {
            run->error = 1;
            return;
        }
        for (int k = run->ccap; k < ncap; k++) run->keys[k] = UINT64_MAX;
        run->ccap = ncap;
    }
    uint64_t key = (uint64_t)e->body_a << 32 | e->body_b;
    void *cache = run->caches + (size_t)e->pair_slot * run->csize;
    void *cache2 = run->paired ? run->caches2 + (size_t)e->pair_slot * run->csize : NULL;
    if (run->keys[e->pair_slot] != key) {
        col_lpip_cache_reset(cache);
        if (cache2 != NULL) col_lpip_cache_reset(cache2);
        run->keys[e->pair_slot] = key;
    }
    size_t need = col_np_scratch_bytes(&col_np_lpip, e->hull_a, e->hull_b);
    if (need > run->scr.size) {
        free(run->scr.mem);
        run->scr.mem = malloc(need);
        run->scr.size = run->scr.mem != NULL ? need : 0;
        if (run->scr.mem == NULL) {
            run->error = 1;
            return;
        }
    }
    col_np_result res;
    col_lpip_info info;
    if (run->paired && (run->queries & 1) == 0) paired_query(run, cache2, e);
    double t0 = stats_now_ns();
    col_lpip_query_ex(cache, e->hull_a, e->pose_a, e->hull_b, e->pose_b, &run->opt, &run->scr, &res, &info);
    double dt = stats_now_ns() - t0;
    run->t_lpip += dt;
    run->fallbacks += res.fallbacks;
    if (info.stale_plane && info.solves > 0) {
        hist_add(&run->it_stale, info.iterations);
        hist_add(&run->sv_stale, info.solves);
        run->t_stale += dt;
    }
    if (run->paired && (run->queries & 1) == 1) paired_query(run, cache2, e);
    if (run->paired && run->queries < run->tq_cap) run->tq1[run->queries] = dt;
    if (run->with_ref) {
        col_np_result rr;
        t0 = stats_now_ns();
        col_np_reference.query(NULL, e->hull_a, NULL, e->pose_a, e->hull_b, NULL, e->pose_b, &run->scr, &rr);
        run->t_ref += stats_now_ns() - t0;
    }
    run->queries++;
    run->disagree += res.colliding != e->colliding;
    run->exits[info.exit]++;
    if (info.exit == COL_LPIP_EXIT_UNDECIDED) return;
    bool sep = !res.colliding;
    hist_add(sep ? &run->it_sep : &run->it_col, info.iterations);
    if (info.iterations > 0) hist_add(sep ? &run->it_sep_lp : &run->it_col_lp, info.iterations);
    if (info.solves > 0) {
        hist_add(&run->act, info.active_a + info.active_b);
        run->violator_queries += info.violators > 0;
        run->warm_lp += info.warm;
        run->dual_warm += info.dual_warm;
        run->dropped += info.dropped;
    }
    if (sep) {
        run->sep_total++;
        run->sep_cached += info.exit == COL_LPIP_EXIT_WARM_PLANE;
    }
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* The q-quantile of v[0..n) (sorts v). */
static double quantile(double *v, long n, double q)
{
    if (n <= 0) return 0.0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    long k = (long)(q * (double)(n - 1) + 0.5);
    return v[k];
}

static int usage(void)
{
    fprintf(stderr, "usage: lpip-stats SCENE_FILE [--frames N] [--cold] [--active-k K] [--reference]\n"
                    "                  [--no-dual-warm | --dual-shift X] [--active-max N] [--add-k K] [--paired]\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *path = NULL;
    int frames = 0, active_k = COL_LPIP_ACTIVE_K, active_max = 0, add_k = COL_LPIP_ADD_K;
    int cold = 0, with_ref = 0, dual_warm = 1, paired = 0;
    double dual_shift = COL_LPIP_DUAL_SHIFT;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--frames") && i + 1 < argc)
            frames = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--active-k") && i + 1 < argc)
            active_k = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--active-max") && i + 1 < argc)
            active_max = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--add-k") && i + 1 < argc)
            add_k = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--dual-shift") && i + 1 < argc)
            dual_shift = atof(argv[++i]);
        else if (!strcmp(argv[i], "--dual-warm"))
            dual_warm = 1;
        else if (!strcmp(argv[i], "--no-dual-warm"))
            dual_warm = 0;
        else if (!strcmp(argv[i], "--cold"))
            cold = 1;
        else if (!strcmp(argv[i], "--paired"))
            paired = 1;
        else if (!strcmp(argv[i], "--reference"))
            with_ref = 1;
        else if (argv[i][0] != '-' && path == NULL)
            path = argv[i];
        else
            return usage();
    }
    if (path == NULL || frames < 0 || active_k < 1 || active_max < 0 || add_k < 1 || !(dual_shift > 0.0 && dual_shift <= 1.0))
        return usage();
    FILE *fp = fopen(path, "r");
    if (fp == NULL) {
        fprintf(stderr, "lpip-stats: %s: %s\n", path, strerror(errno));
        return 2;
    }
    bench_scene sc;
    char err[512];
    bool ok = bench_scene_load(fp, path, &sc, err, sizeof err);
    fclose(fp);
    /* The statistics are of the LP on hull pairs: a sphere or a capsule is refused by name. */
    if (ok && !bench_scene_hulls_only(&sc, path, "lpip-stats", err, sizeof err)) {
        bench_scene_free(&sc);
        ok = false;
    }
    if (!ok) {
        fprintf(stderr, "lpip-stats: %s\n", err);
        return 1;
    }
    if (frames == 0 || frames > sc.frames) frames = sc.frames;

    col_world_def def = col_default_world_def();
    def.backend = COL_BACKEND_LPIP;
    def.worker_count = 1;
    col_world *w;
    if (col_world_create(&def, &w) != COL_OK) return 1;
    col_shape_id *shapes = malloc((size_t)sc.shape_count * sizeof *shapes);
    col_body_id *ids = malloc((size_t)sc.body_count * sizeof *ids);
    if (shapes == NULL || ids == NULL) return 1;
    for (int s = 0; s < sc.shape_count; s++)
        if (col_shape_create_convex(w, sc.shapes[s].vertices, sc.shapes[s].vertex_count, &shapes[s]) != COL_OK) {
            fprintf(stderr, "lpip-stats: shape %d: %s\n", s, col_world_last_error(w));
            return 1;
        }
    for (int i = 0; i < sc.body_count; i++) {
        col_body_def d = col_default_body_def();
        d.shape = shapes[sc.bodies[i].shape];
        d.pose = bench_scene_pose(&sc, i, 0);
        if (col_body_create(w, &d, &ids[i]) != COL_OK) return 1;
    }

    stats_run run;
    memset(&run, 0, sizeof run);
    run.csize = col_lpip_cache_size();
    run.opt = col_lpip_default_options();
    run.opt.warm_start = !cold;
    run.opt.active_k = active_k;
    run.opt.dual_warm = dual_warm;
    run.opt.dual_shift = dual_shift;
    run.opt.active_max = active_max;
    run.opt.add_k = add_k;
    run.with_ref = with_ref;
    run.paired = paired;
    col_world_set_narrow_observer(w, observe, &run);
    for (int f = 0; f < frames && run.error == 0; f++) {
        for (int i = 0; i < sc.body_count; i++)
            if (col_body_set_pose(w, ids[i], bench_scene_pose(&sc, i, f)) != COL_OK) return 1;
        if (col_world_update(w) != COL_OK) {
            fprintf(stderr, "lpip-stats: %s\n", col_world_last_error(w));
            return 1;
        }
    }
    if (run.error != 0) return 1;
    long queries = run.queries, disagree = run.disagree;
    long *exits = run.exits;
    hist *it_sep = &run.it_sep, *it_col = &run.it_col, *it_sep_lp = &run.it_sep_lp, *it_col_lp = &run.it_col_lp,
         *act = &run.act;
    double t_lpip = run.t_lpip, t_ref = run.t_ref;

    const char *name = stats_scene_name(path);
    printf("lpip-stats: scene %s, %d frames, %ld queries%s, active_k %d, active_max %d, add_k %d, dual warm start %s; %ld "
           "answers differ from the world's\n",
           name, frames, queries, cold ? " (cold: no warm start)" : "", active_k, active_max, add_k,
           dual_warm ? "on" : "off", disagree);
    if (dual_warm) printf("dual warm start: smallest slack %g eta\n", dual_shift);
    printf("\n| exit | queries | share |\n|---|---|---|\n");
    for (int k = 1; k < COL_LPIP_EXIT_COUNT; k++)
        printf("| %s | %ld | %.2f %% |\n", exit_names[k], exits[k], 100.0 * (double)exits[k] / (double)(queries ? queries : 1));
    printf("\n| iterations per query | queries | mean | median | p95 | max |\n|---|---|---|---|---|---|\n");
    hist_print("separated, all", it_sep);
    hist_print("separated, when the IPM iterated", it_sep_lp);
    hist_print("colliding, all", it_col);
    hist_print("colliding, when the IPM iterated", it_col_lp);
    printf("\n| active set (A + B points in the last LP) | LPs | mean | median | p95 | max |\n|---|---|---|---|---|---|\n");
    hist_print("points", act);
    printf("\n| queries whose cached plane was stale and that reached the LP | queries | mean | median | p95 | max |\n"
           "|---|---|---|---|---|---|\n");
    hist_print("iterations", &run.it_stale);
    printf("ns per such query: %.0f; LPs with a dual warm start: %ld; points dropped from active sets: %ld; "
           "reference fallbacks: %ld\n",
           run.t_stale / (double)(run.it_stale.n ? run.it_stale.n : 1), run.dual_warm, run.dropped, run.fallbacks);
    printf("\nwarm-plane exit: %.2f %% of all queries, %.2f %% of separated answers; LPs started warm: %ld of %ld; "
           "queries with violators added: %ld\n",
           100.0 * (double)exits[COL_LPIP_EXIT_WARM_PLANE] / (double)(queries ? queries : 1),
           100.0 * (double)run.sep_cached / (double)(run.sep_total ? run.sep_total : 1), run.warm_lp, act->n,
           run.violator_queries);
    printf("ns per query: lpip %.0f", t_lpip / (double)(queries ? queries : 1));
    if (with_ref) printf(", reference %.0f", t_ref / (double)(queries ? queries : 1));
    printf("\n");
    if (paired) {
        printf("\n--paired, the same queries with the default options:\n\n| options | ns per query | iterations per "
               "query that iterated (mean) | stale-plane queries reaching the LP | their iterations (mean) | their LPs (mean) "
               "| their ns |\n|---|---|---|---|---|---|---|\n");
        double q = (double)(queries ? queries : 1);
        printf("| default | %.0f | %.3f | %ld | %.3f | %.3f | %.0f |\n", run.t2 / q,
               (double)run.it2_lp.sum / (double)(run.it2_lp.n ? run.it2_lp.n : 1), run.it2_stale.n,
               (double)run.it2_stale.sum / (double)(run.it2_stale.n ? run.it2_stale.n : 1),
               (double)run.sv2_stale.sum / (double)(run.sv2_stale.n ? run.sv2_stale.n : 1),
               run.t2_stale / (double)(run.it2_stale.n ? run.it2_stale.n : 1));
        long lpn = it_sep_lp->n + it_col_lp->n, lps = it_sep_lp->sum + it_col_lp->sum;
        long nq = queries < run.tq_cap ? queries : run.tq_cap;
        double sum1 = 0.0, sum2 = 0.0;
        for (long k = 0; k < nq; k++) {
            sum1 += run.tq1[k];
            sum2 += run.tq2[k];
        }
        double p1 = quantile(run.tq1, nq, 0.999), p2 = quantile(run.tq2, nq, 0.999);
        double m1 = quantile(run.tq1, nq, 0.5), m2 = quantile(run.tq2, nq, 0.5);
        /* The sum up to the 99.9th percentile: the mean without the preempted queries. */
        double c1 = 0.0, c2 = 0.0;
        for (long k = 0; k < nq; k++) {
            c1 += run.tq1[k] <= p1 ? run.tq1[k] : 0.0;
            c2 += run.tq2[k] <= p2 ? run.tq2[k] : 0.0;
        }
        printf("\nper query ns (median / sum of the queries up to the 99.9th percentile, per query): default %.0f / %.0f, "
               "this run's %.0f / %.0f; ratio of those sums %.3f\n",
               m2, c2 / (double)(nq ? nq : 1), m1, c1 / (double)(nq ? nq : 1), c2 > 0.0 ? c1 / c2 : 0.0);
        (void)sum1;
        (void)sum2;
        printf("| this run's | %.0f | %.3f | %ld | %.3f | %.3f | %.0f |\n", t_lpip / q,
               (double)lps / (double)(lpn ? lpn : 1), run.it_stale.n,
               (double)run.it_stale.sum / (double)(run.it_stale.n ? run.it_stale.n : 1),
               (double)run.sv_stale.sum / (double)(run.sv_stale.n ? run.sv_stale.n : 1),
               run.t_stale / (double)(run.it_stale.n ? run.it_stale.n : 1));
    }

    free(run.scr.mem);
    free(run.caches);
    free(run.caches2);
    free(run.tq1);
    free(run.tq2);
    free(run.keys);
    free(shapes);
    free(ids);
    col_world_destroy(w);
    bench_scene_free(&sc);
    return 0;
}
