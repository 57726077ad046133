/* SPDX-License-Identifier: MIT */
/* lpip-stats: how the lpip narrow phase (narrowphase/lpip.c) behaves on a benchmark
 * scene, for docs/lpip.md: interior-point iterations of separated and colliding
 * answers (next to the paper's "one to three" and "two to five"), how often each exit
 * fires (the warm-start plane, delta_s < 0, above all), active-set sizes and violator
 * rounds, reference fallbacks, and nanoseconds per query (and the reference's, with
 * --reference).
 *
 *   lpip-stats SCENE_FILE [--frames N] [--cold] [--active-k K] [--reference]
 *
 * A world (lpip backend, one worker) supplies the broad-phase pairs of every frame; each pair that reaches the narrow phase is then asked again, timed, with
 * this program's own per-pair cache (kept for as long as the pair stays in the broad
 * phase, as the world keeps its own), so the numbers are those of the world's queries.
 * --cold: no warm start (the cached plane and weights are not used). Uses internal
 * headers (bench/ may, to count things). Exit status: 0, 1 on a load or Colibri error,
 * 2 on a bad command line. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "broadphase/pair_set.h"
#include "broadphase/sap.h"
#include "colibri/colibri.h"
#include "lib/world.h"
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

static int usage(void)
{
    fprintf(stderr, "usage: lpip-stats SCENE_FILE [--frames N] [--cold] [--active-k K] [--reference]\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *path = NULL;
    int frames = 0, active_k = COL_LPIP_ACTIVE_K;
    int cold = 0, with_ref = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--frames") && i + 1 < argc)
            frames = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--active-k") && i + 1 < argc)
            active_k = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--cold"))
            cold = 1;
        else if (!strcmp(argv[i], "--reference"))
            with_ref = 1;
        else if (argv[i][0] != '-' && path == NULL)
            path = argv[i];
        else
            return usage();
    }
    if (path == NULL || frames < 0 || active_k < 1) return usage();
    FILE *fp = fopen(path, "r");
    if (fp == NULL) {
        fprintf(stderr, "lpip-stats: %s: %s\n", path, strerror(errno));
        return 2;
    }
    bench_scene sc;
    char err[512];
    bool ok = bench_scene_load(fp, path, &sc, err, sizeof err);
    fclose(fp);
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

    /* Own caches, indexed by the world's pair-cache slot (stable while the pair stays
     * in the broad phase); key remembers which pair a slot held. */
    size_t csize = col_lpip_cache_size();
    unsigned char *caches = NULL;
    uint64_t *keys = NULL;
    int ccap = 0;
    col_np_scratch scr = {NULL, 0};
    col_lpip_options opt = col_lpip_default_options();
    opt.warm_start = !cold;
    opt.active_k = active_k;

    long exits[COL_LPIP_EXIT_COUNT] = {0};
    hist it_sep = {0}, it_col = {0}, it_sep_lp = {0}, it_col_lp = {0}, act = {0};
    long queries = 0, disagree = 0, violator_queries = 0, warm_lp = 0, sep_total = 0, sep_cached = 0;
    double t_lpip = 0.0, t_ref = 0.0;
    for (int f = 0; f < frames; f++) {
        for (int i = 0; i < sc.body_count; i++)
            if (col_body_set_pose(w, ids[i], bench_scene_pose(&sc, i, f)) != COL_OK) return 1;
        if (col_world_update(w) != COL_OK) {
            fprintf(stderr, "lpip-stats: %s\n", col_world_last_error(w));
            return 1;
        }
        int nrec = 0;
        col_bp_pair *rec = col_pair_set_records(col_sap_pair_set(w->sap), &nrec);
        for (int i = 0; i < nrec; i++) {
            const col_bp_pair *r = &rec[i];
            if (r->user == COL_PAIR_NO_USER) continue;
            const col_pair_slot *slot = col_pair_cache_slot(&w->pair_cache, r->user);
            if (slot->tested_frame != w->frame) continue;
            if ((int)r->user >= ccap) {
                int ncap = ccap > 0 ? 2 * ccap : 1024;
                while (ncap <= (int)r->user) ncap *= 2;
                unsigned char *nc = realloc(caches, (size_t)ncap * csize);
                uint64_t *nk = realloc(keys, (size_t)ncap * sizeof *nk);
                if (nc == NULL || nk == NULL) return 1;
                caches = nc;
                keys = nk;
                for (int k = ccap; k < ncap; k++) keys[k] = UINT64_MAX;
                ccap = ncap;
            }
            uint64_t key = (uint64_t)r->a << 32 | r->b;
            void *cache = caches + (size_t)r->user * csize;
            if (keys[r->user] != key) {
                col_lpip_cache_reset(cache);
                keys[r->user] = key;
            }
            const col_body_rec *A = &w->bodies[r->a], *B = &w->bodies[r->b];
            const col_hull *ha = &w->shapes[A->shape].hull, *hb = &w->shapes[B->shape].hull;
            size_t need = col_np_scratch_bytes(&col_np_lpip, ha, hb);
            if (need > scr.size) {
                free(scr.mem);
                scr.mem = malloc(need);
                scr.size = need;
                if (scr.mem == NULL) return 1;
            }
            col_np_result res;
            col_lpip_info info;
            double t0 = stats_now_ns();
            col_lpip_query_ex(cache, ha, &A->xf, hb, &B->xf, &opt, &scr, &res, &info);
            t_lpip += stats_now_ns() - t0;
            if (with_ref) {
                col_np_result rr;
                t0 = stats_now_ns();
                col_np_reference.query(NULL, ha, NULL, &A->xf, hb, NULL, &B->xf, &scr, &rr);
                t_ref += stats_now_ns() - t0;
            }
            queries++;
            disagree += res.colliding != (slot->colliding != 0);
            exits[info.exit]++;
            if (info.exit == COL_LPIP_EXIT_UNDECIDED) continue;
            bool sep = !res.colliding;
            hist_add(sep ? &it_sep : &it_col, info.iterations);
            if (info.iterations > 0) hist_add(sep ? &it_sep_lp : &it_col_lp, info.iterations);
            if (info.solves > 0) {
                hist_add(&act, info.active_a + info.active_b);
                violator_queries += info.violators > 0;
                warm_lp += info.warm;
            }
            if (sep) {
                sep_total++;
                sep_cached += info.exit == COL_LPIP_EXIT_WARM_PLANE;
            }
        }
    }

    const char *name = stats_scene_name(path);
    printf("lpip-stats: scene %s, %d frames, %ld queries%s, active_k %d; %ld answers differ from the world's\n", name,
           frames, queries, cold ? " (cold: no warm start)" : "", active_k, disagree);
    printf("\n| exit | queries | share |\n|---|---|---|\n");
    for (int k = 1; k < COL_LPIP_EXIT_COUNT; k++)
        printf("| %s | %ld | %.2f %% |\n", exit_names[k], exits[k], 100.0 * (double)exits[k] / (double)(queries ? queries : 1));
    printf("\n| iterations per query | queries | mean | median | p95 | max |\n|---|---|---|---|---|---|\n");
    hist_print("separated, all", &it_sep);
    hist_print("separated, when the IPM iterated", &it_sep_lp);
    hist_print("colliding, all", &it_col);
    hist_print("colliding, when the IPM iterated", &it_col_lp);
    printf("\n| active set (A + B points in the last LP) | LPs | mean | median | p95 | max |\n|---|---|---|---|---|---|\n");
    hist_print("points", &act);
    printf("\nwarm-plane exit: %.2f %% of all queries, %.2f %% of separated answers; LPs started warm: %ld of %ld; "
           "queries with violators added: %ld\n",
           100.0 * (double)exits[COL_LPIP_EXIT_WARM_PLANE] / (double)(queries ? queries : 1),
           100.0 * (double)sep_cached / (double)(sep_total ? sep_total : 1), warm_lp, act.n,
           violator_queries);
    printf("ns per query: lpip %.0f", t_lpip / (double)(queries ? queries : 1));
    if (with_ref) printf(", reference %.0f", t_ref / (double)(queries ? queries : 1));
    printf("\n");

    free(scr.mem);
    free(caches);
    free(keys);
    free(shapes);
    free(ids);
    col_world_destroy(w);
    bench_scene_free(&sc);
    return 0;
}
