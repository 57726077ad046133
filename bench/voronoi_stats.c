/* SPDX-License-Identifier: MIT */
/* voronoi-stats: the measurements behind docs/voronoi.md. Prints Markdown table rows;
 * the docs put the command that made them above each table. Timings are information,
 * never test thresholds.
 *
 *   voronoi-stats scene FILE [--frames N]   replays a benchmark scene (docs/scenes.md, "The motion"):
 *       every pair of overlapping world boxes is queried with its own cache carried from
 *       the previous frame when the pair overlapped then (warm), else a fresh one (cold),
 *       as the world does; walk steps (median, p99, max) warm and cold, cycles, restarts
 *       after a failed certificate, O(F) scans, fallbacks (rounding band / other), and
 *       ns per query: warm, cold (the same pairs with fresh caches) and the reference
 *       backend on the same pairs.
 *   voronoi-stats coherence [--seed S] [--pairs N]   distance queries (exact distance
 *       and closest points) between two copies of a shape of 10, 100 and 1000 vertices:
 *       a coherent flight (0.02 radius and 0.02 rad per step, warm cache), incoherent
 *       jumps (a fresh random pose each query, warm cache), and cold queries (no cache);
 *       and the same jumps walked from the stale features (COL_VOR_NO_JUMP_TEST).
 */
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
#include "narrowphase/voronoi.h"
#include "scene.h"
#include "stats_util.h"

#define HIST 4096 /* step histogram bins (the last one collects everything above) */

static col_alloc g_alloc;

/* ---- random numbers (splitmix64) ---- */

static uint64_t g_rng;
static uint64_t rnext(void)
{
    uint64_t z = (g_rng += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}
static double urand(void) { return (double)(rnext() >> 11) * 0x1.0p-53; }
static double gauss(void)
{
    double u = urand(), v = urand();
    if (u < 1e-300) u = 1e-300;
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}
static col_vec3 rdir(void)
{
    for (;;) {
        col_vec3 v = col_v3(gauss(), gauss(), gauss());
        double l = col_len(v);
        if (l > 1e-9) return col_scale(v, 1.0 / l);
    }
}
static col_quat rquat(void)
{
    double q[4] = {gauss(), gauss(), gauss(), gauss()};
    double l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    col_quat r = {q[0] / l, q[1] / l, q[2] / l, q[3] / l};
    return r;
}
static col_xform xform(col_vec3 p, col_quat q)
{
    col_transform t;
    t.p = p;
    t.q = q;
    return col_xform_from_transform(t);
}

/* ---- statistics ---- */

typedef struct tally {
    long n, hist[HIST];
    long cycles, cert_failures, scans, band, other_fallbacks, penetrating, touching;
} tally;

static void tally_add(tally *t, const col_vor_result *r)
{
    t->n++;
    t->hist[r->steps < HIST ? r->steps : HIST - 1]++;
    t->cycles += r->cycles;
    t->cert_failures += r->cert_failures;
    t->scans += r->scans;
    if (r->fallbacks) {
        if (r->band) t->band++;
        else t->other_fallbacks++;
    }
    t->penetrating += r->outcome == COL_VOR_PENETRATING;
    t->touching += r->outcome == COL_VOR_TOUCHING;
}

/* The q-quantile of the step counts (q in [0, 1]). */
static int tally_quantile(const tally *t, double q)
{
    long want = (long)ceil(q * (double)t->n), acc = 0;
    if (want < 1) want = 1;
    for (int k = 0; k < HIST; k++) {
        acc += t->hist[k];
        if (acc >= want) return k;
    }
    return HIST - 1;
}

static double tally_mean(const tally *t)
{
    double s = 0.0;
    for (int k = 0; k < HIST; k++) s += (double)k * (double)t->hist[k];
    return t->n ? s / (double)t->n : 0.0;
}

static void scratch_fit(col_np_scratch *s, size_t need)
{
    if (need <= s->size) return;
    free(s->mem);
    s->mem = malloc(need);
    s->size = need;
}

/* ---- scene replay ---- */

typedef struct item {
    col_vor_cache *cache;
    int a, b, warm;
} item;

/* Collects a frame's overlapping pairs with their caches (stats_replay_frame). */
typedef struct frame_pairs {
    stats_replay *replay;
    item *list;
    long n, cap;
} frame_pairs;

static void add_pair(int a, int b, void *ctx)
{
    frame_pairs *fp = ctx;
    if (fp->n >= fp->cap) return; /* never at our sizes */
    bool warm;
    col_vor_cache *c = stats_pair_cache(fp->replay, a, b, &warm);
    if (c == NULL) return; /* never at our sizes */
    if (!warm) memset(c, 0, sizeof *c);
    fp->list[fp->n++] = (item){c, a, b, warm};
}

static int run_scene(const char *path, int frames)
{
    bench_scene sc;
    if (!stats_scene_open("voronoi-stats", path, &sc)) return 1;
    if (frames <= 0 || frames > sc.frames) frames = sc.frames;
    stats_replay rp;
    if (!stats_replay_init(&rp, &sc, (size_t)1 << 20, sizeof(col_vor_cache))) return 1;
    char err[256];
    col_hull *hull = calloc((size_t)sc.shape_count, sizeof *hull);
    col_np_scratch scratch = {NULL, 0};
    col_np_counts most = {0, 0, 0}; /* one buffer for every pair: backend.h's scratch rule */
    for (int i = 0; i < sc.shape_count; i++) {
        if (col_hull_build(&g_alloc, sc.shapes[i].vertices, sc.shapes[i].vertex_count, &hull[i], err, sizeof err) !=
            COL_OK) {
            fprintf(stderr, "voronoi-stats: shape %d: %s\n", i, err);
            return 1;
        }
        rp.shape_hull[i] = &hull[i];
        most = col_np_counts_max(most, col_np_counts_of(&hull[i]));
    }
    scratch_fit(&scratch, col_np_voronoi.scratch_need(most, most));
    scratch_fit(&scratch, col_np_reference.scratch_need(most, most));
    const col_xform *xf = rp.xf;
    long list_cap = 1 << 19;
    item *list = malloc(sizeof *list * (size_t)list_cap);
    col_vor_cache *copies = malloc(sizeof *copies * (size_t)list_cap);
    tally warm, cold;
    memset(&warm, 0, sizeof warm);
    memset(&cold, 0, sizeof cold);
    double warm_ns = 0.0, cold_ns = 0.0, ref_ns = 0.0, all_ns = 0.0;
    long nwarm_timed = 0, ntimed = 0, nref = 0;
    for (int f = 0; f < frames; f++) {
        frame_pairs fp = {&rp, list, 0, list_cap};
        stats_replay_frame(&rp, f, add_pair, &fp);
        long np = fp.n;
        /* Timed batches first (no clock per query): warm pairs on copies of their
         * caches, the same pairs cold, and the reference on all pairs. Then the counted
         * run on the real caches. */
        long nw_ = 0;
        for (long k = 0; k < np; k++)
            if (list[k].warm) copies[nw_++] = *list[k].cache;
        col_vor_result r;
        double t0 = stats_now_ns();
        nw_ = 0;
        for (long k = 0; k < np; k++) {
            if (!list[k].warm) continue;
            col_vor_query(&copies[nw_++], &hull[sc.bodies[list[k].a].shape], &xf[list[k].a],
                            &hull[sc.bodies[list[k].b].shape], &xf[list[k].b], 0, &scratch, &r);
        }
        double t1 = stats_now_ns();
        for (long k = 0; k < np; k++) {
            if (!list[k].warm) continue;
            col_vor_cache fresh;
            memset(&fresh, 0, sizeof fresh);
            col_vor_query(&fresh, &hull[sc.bodies[list[k].a].shape], &xf[list[k].a],
                            &hull[sc.bodies[list[k].b].shape], &xf[list[k].b], 0, &scratch, &r);
        }
        double t2 = stats_now_ns();
        for (long k = 0; k < np; k++) {
            col_np_result rr;
            col_np_reference.query(NULL, &hull[sc.bodies[list[k].a].shape], NULL, &xf[list[k].a],
                                   &hull[sc.bodies[list[k].b].shape], NULL, &xf[list[k].b], &scratch, &rr);
        }
        double t3 = stats_now_ns();
        for (long k = 0; k < np; k++) {
            col_vor_query(list[k].cache, &hull[sc.bodies[list[k].a].shape], &xf[list[k].a],
                            &hull[sc.bodies[list[k].b].shape], &xf[list[k].b], 0, &scratch, &r);
            tally_add(list[k].warm ? &warm : &cold, &r);
        }
        double t4 = stats_now_ns();
        warm_ns += t1 - t0;
        cold_ns += t2 - t1;
        ref_ns += t3 - t2;
        all_ns += t4 - t3;
        nwarm_timed += nw_;
        nref += np;
        ntimed += np;
    }
    const char *name = stats_scene_name(path);
    long n = warm.n + cold.n;
    printf("| %s | %d | %ld | %.1f %% | %d / %d / %d | %d / %d / %d | %ld | %ld | %ld | %ld / %ld | %.0f | %.0f | %.0f | %.0f |\n",
           name, frames, n, n ? 100.0 * (double)(warm.penetrating + warm.touching + cold.penetrating + cold.touching) / (double)n : 0.0,
           tally_quantile(&warm, 0.5), tally_quantile(&warm, 0.99), tally_quantile(&warm, 1.0), tally_quantile(&cold, 0.5),
           tally_quantile(&cold, 0.99), tally_quantile(&cold, 1.0), warm.cycles + cold.cycles,
           warm.cert_failures + cold.cert_failures, warm.scans + cold.scans, warm.band + cold.band,
           warm.other_fallbacks + cold.other_fallbacks, nwarm_timed ? warm_ns / (double)nwarm_timed : 0.0,
           nwarm_timed ? cold_ns / (double)nwarm_timed : 0.0, ntimed ? all_ns / (double)ntimed : 0.0,
           nref ? ref_ns / (double)nref : 0.0);
    fprintf(stderr, "%s: %ld queries (%ld warm, %ld cold), mean steps warm %.2f cold %.2f\n", name, n, warm.n, cold.n,
            tally_mean(&warm), tally_mean(&cold));
    for (int i = 0; i < sc.shape_count; i++) col_hull_free(&g_alloc, &hull[i]);
    free(hull);
    stats_replay_free(&rp);
    free(list);
    free(copies);
    free(scratch.mem);
    bench_scene_free(&sc);
    return 0;
}

/* ---- coherent flights, incoherent jumps, cold queries (distance mode) ---- */

static int make_shape(col_hull *h, int n)
{
    col_vec3 *p = malloc(sizeof *p * (size_t)n);
    for (int i = 0; i < n; i++) {
        col_vec3 u = rdir();
        p[i] = col_v3(u.x, 0.6 * u.y, 0.4 * u.z);
    }
    char err[256];
    col_status st = col_hull_build(&g_alloc, p, n, h, err, sizeof err);
    free(p);
    if (st != COL_OK) fprintf(stderr, "voronoi-stats: hull: %s\n", err);
    return st == COL_OK;
}

static void run_coherence(uint64_t seed, long pairs)
{
    const int sizes[3] = {10, 100, 1000};
    g_rng = seed;
    for (int si = 0; si < 3; si++) {
        col_hull h;
        if (!make_shape(&h, sizes[si])) return;
        col_np_scratch scratch = {NULL, 0};
        scratch_fit(&scratch, col_vor_scratch_bytes(&h, &h));
        tally t[4];
        memset(t, 0, sizeof t);
        double ns[4] = {0, 0, 0, 0};
        long cnt[4] = {0, 0, 0, 0};
        for (long s = 0; s < pairs; s++) {
            /* a flight of 100 steps: b passes a at 2.2 .. 2.6 radii, spinning */
            col_xform xa = xform(col_v3(0, 0, 0), rquat());
            col_vec3 dir = rdir(), side = col_cross(dir, rdir());
            side = col_scale(side, (2.2 + 0.4 * urand()) / col_len(side));
            col_quat qb = rquat();
            col_vec3 w = col_scale(rdir(), 0.02);
            double ang = col_len(w), sn = sin(0.5 * ang) / ang;
            col_quat dq = {w.x * sn, w.y * sn, w.z * sn, cos(0.5 * ang)};
            col_vor_cache cache;
            memset(&cache, 0, sizeof cache);
            for (int k = 0; k < 100; k++) {
                col_vec3 p = col_add(side, col_scale(dir, 0.02 * (k - 50)));
                qb = col_quat_mul(dq, qb);
                col_xform xb = xform(p, qb);
                col_vor_result r;
                double t0 = stats_now_ns();
                col_vor_query(&cache, &h, &xa, &h, &xb, COL_VOR_WANT_DISTANCE, &scratch, &r);
                double t1 = stats_now_ns();
                if (k > 0) { /* the first query of a flight is cold */
                    tally_add(&t[0], &r);
                    ns[0] += t1 - t0;
                    cnt[0]++;
                }
                /* an incoherent jump with the same (warm) cache, and a cold query */
                col_vor_cache jump = cache;
                col_xform xj = xform(col_scale(rdir(), 2.2 + 0.4 * urand()), rquat());
                t0 = stats_now_ns();
                col_vor_query(&jump, &h, &xa, &h, &xj, COL_VOR_WANT_DISTANCE, &scratch, &r);
                t1 = stats_now_ns();
                tally_add(&t[1], &r);
                ns[1] += t1 - t0;
                cnt[1]++;
                t0 = stats_now_ns();
                col_vor_query(NULL, &h, &xa, &h, &xj, COL_VOR_WANT_DISTANCE, &scratch, &r);
                t1 = stats_now_ns();
                tally_add(&t[2], &r);
                ns[2] += t1 - t0;
                cnt[2]++;
                /* the same jump walked from the stale features (no jump test) */
                jump = cache;
                t0 = stats_now_ns();
                col_vor_query(&jump, &h, &xa, &h, &xj, COL_VOR_WANT_DISTANCE | COL_VOR_NO_JUMP_TEST, &scratch, &r);
                t1 = stats_now_ns();
                tally_add(&t[3], &r);
                ns[3] += t1 - t0;
                cnt[3]++;
            }
        }
        const char *kind[4] = {"coherent (warm)", "incoherent jump (warm)", "cold",
                               "incoherent jump (warm), no jump test"};
        for (int k = 0; k < 4; k++)
            printf("| %d | %s | %ld | %d / %d / %d | %.2f | %ld | %ld | %ld | %ld | %.0f |\n", h.vertex_count, kind[k], t[k].n,
                   tally_quantile(&t[k], 0.5), tally_quantile(&t[k], 0.99), tally_quantile(&t[k], 1.0), tally_mean(&t[k]),
                   t[k].cycles, t[k].cert_failures, t[k].scans, t[k].band + t[k].other_fallbacks,
                   cnt[k] ? ns[k] / (double)cnt[k] : 0.0);
        col_hull_free(&g_alloc, &h);
        free(scratch.mem);
    }
}

int main(int argc, char **argv)
{
    col_alloc_init(&g_alloc, NULL);
    if (argc >= 3 && strcmp(argv[1], "scene") == 0) {
        int frames = 0;
        for (int i = 3; i + 1 < argc; i += 2)
            if (strcmp(argv[i], "--frames") == 0) frames = atoi(argv[i + 1]);
        return run_scene(argv[2], frames);
    }
    if (argc >= 2 && strcmp(argv[1], "coherence") == 0) {
        uint64_t seed = 1;
        long pairs = 200;
        for (int i = 2; i + 1 < argc; i += 2) {
            if (strcmp(argv[i], "--seed") == 0) seed = strtoull(argv[i + 1], NULL, 0);
            if (strcmp(argv[i], "--pairs") == 0) pairs = atol(argv[i + 1]);
        }
        run_coherence(seed, pairs);
        return 0;
    }
    fprintf(stderr, "usage: voronoi-stats scene FILE [--frames N] | coherence [--seed S] [--pairs N]\n");
    return 2;
}
