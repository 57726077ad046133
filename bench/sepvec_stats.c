/* SPDX-License-Identifier: MIT */
/* sepvec-stats: the measurements behind docs/sepvec.md. Prints Markdown tables, each
 * preceded by the command that made it. Timings are information, never test thresholds.
 *
 *   sepvec-stats paper  [--seed S] [--passes N]   a two-body fly-by with the paper's shapes
 *       (not its 500-body set-up: that is the cw mode):
 *       two copies of one shape (ellipsoid, rod, plate) with 10, 100, 1000 vertices, one
 *       flying past the other (speed 0.2 radius per frame, spinning), every frame their
 *       bounding spheres overlap queried with the pair's cache: steps per query,
 *       fallbacks, ns per query warm (cache kept) and cold (cache reset every query).
 *   sepvec-stats support [--seed S]              ns per support query by method and
 *       vertex count (the crossovers of COL_SUPPORT_SCAN_MAX and the DK hierarchy).
 *   sepvec-stats sizes [--seed S]                bytes of the pair cache, the scratch and the
 *       shape data (docs/sepvec.md, "What lives where").
 *   sepvec-stats near [--seed S] [--pairs N]     how the search ends as a function of the
 *       gap (both signs): reflections only, Hornus steps, reference fallbacks.
 *   sepvec-stats scene FILE [--frames N]         replays a benchmark scene: every pair of
 *       overlapping boxes queried with its cache, as the world does.
 *   sepvec-stats cw FILE... [--frames N]         Chung & Wang's own set-up (scenes made by
 *       bench/chung_wang.sh): the same pairs queried by sepvec and by the closest-feature
 *       backend (voronoi, V-Clip), each with its own cache: steps, the repeat rate of vertex
 *       pairs among separated queries, ns per query and narrow-phase ms per frame of both;
 *       on stderr, per scene, what the queries that repeated a pair of their own search did.
 *   Options of scene and cw, the alternatives docs/sepvec.md measured (col_sepvec_options):
 *   --seed-reflect (a seeded pair the search meets is reflected on, not a lemma-4 jump),
 *   --no-seed (last frame's tetrahedron does not seed the polygon), --dir-frame-a (the
 *   cached direction is kept in A's frame, not the world's).
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
#include "narrowphase/sepvec_dk_hierarchy.h"
#include "narrowphase/sepvec.h"
#include "narrowphase/sepvec_support.h"
#include "scene.h"
#include "scene_rand.h"
#include "stats_util.h"

static col_alloc g_alloc;
static const char *g_cmd; /* the command line, for the tables' captions */
static const col_sepvec_options *g_sv_opt; /* NULL, or the options --seed-reflect, --no-seed,
                                            * --dir-frame-a ask for (scene and cw modes) */

/* Random numbers and shape kinds: bench/scene_rand.h (those of the benchmark scenes). */

/* a b, normalised. */
static col_quat qmul(col_quat a, col_quat b)
{
    col_quat r = col_quat_mul(a, b);
    double n = sqrt(r.x * r.x + r.y * r.y + r.z * r.z + r.w * r.w);
    r.x /= n;
    r.y /= n;
    r.z /= n;
    r.w /= n;
    return r;
}
static col_quat qaxis(col_vec3 w) /* rotation by |w| about w */
{
    double a = col_len(w);
    if (a == 0.0) return col_quat_identity();
    col_vec3 u = col_scale(w, sin(a / 2) / a);
    col_quat q = {u.x, u.y, u.z, cos(a / 2)};
    return q;
}
static col_xform xform(col_vec3 p, col_quat q)
{
    col_transform t = {p, q};
    return col_xform_from_transform(t);
}

/* ---- shapes (as the benchmark scenes make them, docs/scenes.md) ---- */

typedef struct shape {
    col_hull hull;
    void *data; /* support data (table; DK if asked for) */
} shape;

static int make_shape(shape *s, int kind, int n, unsigned flags)
{
    col_vec3 *p = malloc(sizeof *p * (size_t)(n + 8));
    int m = 0;
    if (kind == SCENE_BOX)
        for (; m < 8; m++) p[m] = col_v3(m & 1 ? 1 : -1, m & 2 ? 0.6 : -0.6, m & 4 ? 0.4 : -0.4);
    for (; m < n; m++) p[m] = scene_rand_surface_point((scene_kind)kind);
    char err[200];
    col_status st = col_hull_build(&g_alloc, p, m, &s->hull, err, sizeof err);
    free(p);
    if (st != COL_OK) {
        fprintf(stderr, "sepvec-stats: hull failed: %s\n", err);
        return -1;
    }
    size_t bytes = col_support_data_bytes(&s->hull, flags);
    s->data = aligned_alloc(16, (bytes + 15) / 16 * 16);
    col_support_data_init(s->data, &s->hull, flags);
    return 0;
}

static void free_shape(shape *s)
{
    col_hull_free(&g_alloc, &s->hull);
    free(s->data);
}

/* ---- statistics of a batch of queries ---- */

#define MAXSTEP 300

typedef struct tally {
    long queries, separated, colliding, warm;
    long sep_steps[MAXSTEP + 1]; /* separated answers by steps */
    long col_steps_sum, col_max, sep_max, all_le3, sep_total_steps;
    long hornus, reference, full_proj, lemma3, lemma4;
    long outcome[COL_SV_OUTCOME_COUNT], fallback[COL_SV_REASON_COUNT];
    long support_queries, support_moves, support_evals;
} tally;

static void tally_add(tally *t, const col_np_result *r, const col_sepvec_info *in)
{
    t->queries++;
    t->warm += in->warm;
    int st = in->steps > MAXSTEP ? MAXSTEP : in->steps;
    if (r->colliding) {
        t->colliding++;
        t->col_steps_sum += in->steps;
        if (in->steps > t->col_max) t->col_max = in->steps;
    } else {
        t->separated++;
        t->sep_steps[st]++;
        t->sep_total_steps += in->steps;
        if (in->steps > t->sep_max) t->sep_max = in->steps;
    }
    t->all_le3 += in->steps <= 3;
    t->hornus += in->mode_switch != 0;
    t->reference += in->fallback != 0;
    t->full_proj += in->full_projections;
    t->lemma3 += in->lemma3;
    t->lemma4 += in->lemma4;
    t->outcome[in->outcome]++;
    t->fallback[in->fallback]++;
    t->support_queries += in->support.queries;
    t->support_moves += in->support.moves;
    t->support_evals += in->support.evals;
}

static double share_le(const tally *t, int k)
{
    long n = 0;
    for (int i = 0; i <= k && i <= MAXSTEP; i++) n += t->sep_steps[i];
    return t->separated > 0 ? 100.0 * n / t->separated : 0.0;
}

/* ---- paper: Chung & Wang's section 6 experiment ---- */

typedef struct scratch_buf {
    col_np_scratch s;
} scratch_buf;

static void scratch_fit(scratch_buf *b, const col_hull *a, const col_hull *h)
{
    size_t need = col_np_scratch_bytes(&col_np_sepvec, a, h);
    if (need <= b->s.size) return;
    free(b->s.mem);
    b->s.mem = malloc(need);
    b->s.size = need;
}

/* One fly-by of B past A (both spinning): the poses of every frame whose bounding
 * spheres overlap. Returns how many were written to xa[], xb[]. */
static int flyby(const shape *sa, const shape *sb, col_xform *xa, col_xform *xb, int cap)
{
    double ra = sa->hull.radius, rb = sb->hull.radius, R = ra + rb;
    col_vec3 start = col_scale(scene_rand_direction(), 1.5 * R);
    col_vec3 target = col_scale(scene_rand_direction(), scene_rand_range(0.0, 0.9) * R);
    col_vec3 v = col_scale(col_sub(target, start), 0.2 * ra / col_len(col_sub(target, start)));
    col_quat qa = scene_rand_rotation(), qb = scene_rand_rotation();
    col_quat da = qaxis(col_scale(scene_rand_direction(), scene_rand_range(0.0, 0.1)));
    col_quat db = qaxis(col_scale(scene_rand_direction(), scene_rand_range(0.0, 0.1)));
    int n = 0;
    col_vec3 p = start;
    for (int f = 0; f < 200 && n < cap; f++) {
        if (col_len(p) <= R) {
            xa[n] = xform(col_v3(0, 0, 0), qa);
            xb[n] = xform(p, qb);
            n++;
        } else if (f > 0 && col_dot(p, v) > 0) {
            break;
        }
        p = col_add(p, v);
        qa = qmul(da, qa);
        qb = qmul(db, qb);
    }
    return n;
}

static void run_paper(uint64_t seed, int passes)
{
    static const int sizes[3] = {10, 100, 1000};
    printf("### Iterations per query: a two-body fly-by with Chung & Wang's shapes\n\n");
    printf("`%s`\n\n", g_cmd);
    printf("Two copies of one shape; B flies past A at 0.2 radius per frame, both spinning up to 0.1 "
           "rad per frame; every frame whose bounding spheres overlap is one query with the pair's cache "
           "(the first of each pass cold); each pass timed as a batch, the fastest of three rounds. %d "
           "passes per row, seed %llu.\n\n",
           passes, (unsigned long long)seed);
    printf("| shape | vertices | queries | colliding | separated in 1 / 2 / 3 steps | max steps (separated) "
           "| all queries <= 3 steps | mean / max steps (colliding) | Hornus switches | reference fallbacks "
           "| lemma 3 / 4 | ns/query warm | ns/query cold |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    col_xform *xa = malloc(sizeof *xa * 200), *xb = malloc(sizeof *xb * 200);
    scratch_buf sb = {{NULL, 0}};
    _Alignas(16) unsigned char cache[256];
    for (int kind = SCENE_ELLIPSOID; kind <= SCENE_PLATE; kind++)
        for (int si = 0; si < 3; si++) {
            scene_rand_seed(seed + (uint64_t)(kind * 10 + si));
            shape s;
            if (make_shape(&s, kind, sizes[si], COL_SUPPORT_DEFAULT) != 0) continue;
            scratch_fit(&sb, &s.hull, &s.hull);
            tally t;
            memset(&t, 0, sizeof t);
            double warm_ns = 0.0, cold_ns = 0.0;
            long nq = 0;
            for (int pass = 0; pass < passes; pass++) {
                int n = flyby(&s, &s, xa, xb, 200);
                col_np_sepvec.cache_init(cache, &s.hull, &s.hull);
                for (int k = 0; k < n; k++) {
                    col_np_result r;
                    col_sepvec_info in;
                    col_sepvec_query_ex(cache, &s.hull, s.data, &xa[k], &s.hull, s.data, &xb[k], &sb.s, NULL, &r, &in);
                    tally_add(&t, &r, &in);
                }
                /* timing: the same poses again, warm then cold (no info kept), the fastest
                 * of three rounds */
                double bw = INFINITY, bc = INFINITY;
                for (int round = 0; round < 3; round++) {
                    col_np_sepvec.cache_init(cache, &s.hull, &s.hull);
                    double t0 = stats_now_ns();
                    for (int k = 0; k < n; k++) {
                        col_np_result r;
                        col_sepvec_query_ex(cache, &s.hull, s.data, &xa[k], &s.hull, s.data, &xb[k], &sb.s, NULL, &r, NULL);
                    }
                    double t1 = stats_now_ns();
                    for (int k = 0; k < n; k++) {
                        col_np_result r;
                        col_np_sepvec.cache_init(cache, &s.hull, &s.hull);
                        col_sepvec_query_ex(cache, &s.hull, s.data, &xa[k], &s.hull, s.data, &xb[k], &sb.s, NULL, &r, NULL);
                    }
                    double t2 = stats_now_ns();
                    bw = fmin(bw, t1 - t0);
                    bc = fmin(bc, t2 - t1);
                }
                warm_ns += bw;
                cold_ns += bc;
                nq += n;
            }
            printf("| %s | %d | %ld | %.0f %% | %.1f / %.1f / %.1f %% | %ld | %.1f %% | %.1f / %ld | %ld | %ld | %ld / %ld "
                   "| %.0f | %.0f |\n",
                   scene_kind_name[kind], s.hull.vertex_count, t.queries, 100.0 * t.colliding / (t.queries ? t.queries : 1),
                   share_le(&t, 1), share_le(&t, 2), share_le(&t, 3), t.sep_max, 100.0 * t.all_le3 / (t.queries ? t.queries : 1),
                   t.colliding ? (double)t.col_steps_sum / t.colliding : 0.0, t.col_max, t.hornus, t.reference, t.lemma3,
                   t.lemma4, warm_ns / (nq ? nq : 1), cold_ns / (nq ? nq : 1));
            free_shape(&s);
        }
    printf("\n");
    free(xa);
    free(xb);
    free(sb.s.mem);
}

/* ---- support: crossovers ---- */

static void run_support(uint64_t seed)
{
    static const int sizes[] = {8, 12, 16, 24, 32, 64, 128, 256, 512, 1000, 2000, 4000};
    enum { NDIR = 4096, REPS = 8 };
    printf("### Support queries: ns per query by method\n\n");
    printf("`%s`\n\n", g_cmd);
    printf("Ellipsoid hulls; cold = independent random directions; warm = each direction 0.05 rad from "
           "the previous one, climbing from the previous answer; the fastest of %d repetitions. Table = the cube-map start "
           "(table res cells per face edge; built here for every hull above COL_SUPPORT_SCAN_MAX, the library builds it above COL_SUPPORT_TABLE_MIN); DK = the Dobkin-Kirkpatrick descent "
           "(levels above the hull in brackets). Seed %llu.\n\n",
           (int)REPS, (unsigned long long)seed);
    printf("| vertices | scan | climb from vertex 0 | climb from table | DK (levels) | warm climb | warm climb + table "
           "| table res | DK bytes |\n");
    printf("|---|---|---|---|---|---|---|---|---|\n");
    col_vec3 *dir = malloc(sizeof *dir * NDIR), *wdir = malloc(sizeof *wdir * NDIR);
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        scene_rand_seed(seed + si);
        shape s;
        if (make_shape(&s, SCENE_ELLIPSOID, sizes[si], COL_SUPPORT_DK_ALWAYS | COL_SUPPORT_TABLE_ALL) != 0) continue;
        const col_support_data *sd = s.data;
        for (int i = 0; i < NDIR; i++) dir[i] = scene_rand_direction();
        wdir[0] = scene_rand_direction();
        for (int i = 1; i < NDIR; i++) {
            col_vec3 t = col_cross(wdir[i - 1], scene_rand_direction());
            double l = col_len(t);
            wdir[i] = l > 0 ? col_add(wdir[i - 1], col_scale(t, 0.05 / l)) : wdir[i - 1];
            wdir[i] = col_scale(wdir[i], 1.0 / col_len(wdir[i]));
        }
        double ns[6] = {0};
        volatile long sink = 0;
        int bad = 0;
        for (int rep = 0; rep < REPS; rep++) {
            double t0 = stats_now_ns();
            for (int i = 0; i < NDIR; i++) sink += col_hull_support_scan(&s.hull, dir[i]);
            double t1 = stats_now_ns();
            for (int i = 0; i < NDIR; i++) sink += col_support_climb(&s.hull, dir[i], 0, NULL);
            double t2 = stats_now_ns();
            if (sd->table_res > 0)
                for (int i = 0; i < NDIR; i++) sink += col_support_find(&s.hull, sd, dir[i], -1, NULL);
            double t3 = stats_now_ns();
            if (sd->dk_off != 0)
                for (int i = 0; i < NDIR; i++) sink += col_support_find_dk(&s.hull, sd, dir[i], NULL);
            double t4 = stats_now_ns();
            int v = 0;
            for (int i = 0; i < NDIR; i++) sink += v = col_support_climb(&s.hull, wdir[i], v, NULL);
            double t5 = stats_now_ns();
            v = -1;
            if (sd->table_res > 0)
                for (int i = 0; i < NDIR; i++) sink += v = col_support_find(&s.hull, sd, wdir[i], v, NULL);
            double t6 = stats_now_ns();
            /* the fastest of the repetitions: other processes only ever add time */
            double d[6] = {t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t6 - t5};
            for (int q = 0; q < 6; q++)
                if (rep == 0 || d[q] < ns[q]) ns[q] = d[q];
        }
        /* correctness on the side: every method's value equals the scan's */
        for (int i = 0; i < NDIR; i++) {
            double best = col_dot(dir[i], s.hull.vertices[col_hull_support_scan(&s.hull, dir[i])]);
            int c = sd->dk_off ? col_support_find_dk(&s.hull, sd, dir[i], NULL) : col_support_climb(&s.hull, dir[i], 0, NULL);
            if (col_dot(dir[i], s.hull.vertices[c]) < best) bad++;
        }
        double k = 1.0 / NDIR;
        char dk[64] = "-", tb[32] = "-", cl[32] = "-", wt[32] = "-";
        if (sd->dk_off != 0)
            snprintf(dk, sizeof dk, "%.0f (%d)", ns[3] * k, col_dk_levels((const unsigned char *)sd + sd->dk_off));
        if (sd->table_res > 0) {
            snprintf(tb, sizeof tb, "%.0f", ns[2] * k);
            snprintf(wt, sizeof wt, "%.0f", ns[5] * k);
        }
        snprintf(cl, sizeof cl, "%.0f", ns[1] * k);
        printf("| %d | %.0f | %s | %s | %s | %.0f | %s | %d | %zu |%s\n", s.hull.vertex_count, ns[0] * k, cl, tb, dk,
               ns[4] * k, wt, sd->table_res,
               sd->dk_off ? col_dk_used((const unsigned char *)sd + sd->dk_off) : (size_t)0,
               bad ? " MISMATCH" : "");
        (void)sink;
        free_shape(&s);
    }
    printf("\n");
    free(dir);
    free(wdir);
}

/* ---- near: how the search ends near touching ---- */

static void run_near(uint64_t seed, long pairs)
{
    printf("### How the search ends near touching\n\n");
    printf("`%s`\n\n", g_cmd);
    printf("Random pairs of random shapes (all four kinds, 10 to 1000 vertices), B placed along a random "
           "direction u at signed gap g from touching (support points p_A(u), p_B(-u) made to coincide, "
           "then B moved by g u: g > 0 is apart by at least g; g < 0 pushes a vertex of B |g| past A's extreme vertex, an overlap unless that push leaves A's vertex cone, hence colliding < 100 %%), cold queries. Seed %llu, %ld pairs per "
           "row.\n\n",
           (unsigned long long)seed, pairs);
    printf("| gap / size | colliding | mean steps | Hornus switches | full projections | reference fallbacks "
           "| fallback reasons |\n");
    printf("|---|---|---|---|---|---|---|\n");
    static const double gaps[] = {1e-1, 1e-3, 1e-6, 1e-9, 1e-12, 0.0, -1e-12, -1e-9, -1e-6, -1e-3, -1e-1};
    static const char *const rname[COL_SV_REASON_COUNT] = {
        "", "grazing", "reflect cap", "ambiguous gap", "ambiguous hemisphere", "lemma 3", "repeat at witness",
        "no witness", "polygon full", "step cap"};
    scene_rand_seed(seed);
    enum { NSHAPES = 24 };
    shape sh[NSHAPES];
    for (int i = 0; i < NSHAPES; i++) {
        int n = (int)pow(10.0, scene_rand_range(1.0, 3.0));
        make_shape(&sh[i], i % SCENE_KIND_COUNT, n, COL_SUPPORT_DEFAULT);
    }
    scratch_buf sb = {{NULL, 0}};
    for (int i = 0; i < NSHAPES; i++) scratch_fit(&sb, &sh[i].hull, &sh[i].hull);
    _Alignas(16) unsigned char cache[256];
    for (size_t gi = 0; gi < sizeof gaps / sizeof gaps[0]; gi++) {
        tally t;
        memset(&t, 0, sizeof t);
        long steps = 0;
        for (long k = 0; k < pairs; k++) {
            const shape *a = &sh[scene_rand_next() % NSHAPES], *b = &sh[scene_rand_next() % NSHAPES];
            col_xform xa = xform(col_v3(0, 0, 0), scene_rand_rotation());
            col_xform xb = xform(col_v3(0, 0, 0), scene_rand_rotation());
            col_vec3 u = scene_rand_direction();
            col_vec3 pa = col_xform_point(&xa, a->hull.vertices[col_hull_support_scan(&a->hull, col_mat3_tmul(&xa.R, u))]);
            col_vec3 pb = col_xform_point(&xb, b->hull.vertices[col_hull_support_scan(&b->hull, col_neg(col_mat3_tmul(&xb.R, u)))]);
            double size = a->hull.radius > b->hull.radius ? a->hull.radius : b->hull.radius;
            xb.p = col_add(col_sub(pa, pb), col_scale(u, gaps[gi] * size));
            col_np_result r;
            col_sepvec_info in;
            col_np_sepvec.cache_init(cache, &a->hull, &b->hull);
            col_sepvec_query_ex(cache, &a->hull, a->data, &xa, &b->hull, b->data, &xb, &sb.s, NULL, &r, &in);
            tally_add(&t, &r, &in);
            steps += in.steps;
        }
        char reasons[256] = "";
        for (int r = 1; r < COL_SV_REASON_COUNT; r++)
            if (t.fallback[r] > 0) {
                size_t l = strlen(reasons);
                snprintf(reasons + l, sizeof reasons - l, "%s%s %ld", l ? ", " : "", rname[r], t.fallback[r]);
            }
        printf("| %g | %.0f %% | %.1f | %ld | %ld | %ld | %s |\n", gaps[gi], 100.0 * t.colliding / t.queries,
               (double)steps / t.queries, t.hornus, t.full_proj, t.reference, reasons);
    }
    printf("\n");
    for (int i = 0; i < NSHAPES; i++) free_shape(&sh[i]);
    free(sb.s.mem);
}

/* ---- scene replay ---- */

typedef struct item {
    unsigned char *cache; /* 128 bytes, 16-byte aligned */
    int a, b, warm;
} item;

/* Collects a frame's overlapping pairs with their caches (stats_replay_frame): sepvec's
 * cache first, and with vor_off > 0 the voronoi backend's at that offset (the cw mode). */
typedef struct frame_pairs {
    stats_replay *replay;
    const shape *sh;
    item *list;
    long n, cap;
    size_t vor_off;
} frame_pairs;

static void add_pair(int a, int b, void *ctx)
{
    frame_pairs *fp = ctx;
    bool warm;
    unsigned char *c = stats_pair_cache(fp->replay, a, b, &warm);
    if (c == NULL) return; /* table full: skip (never at our sizes) */
    const bench_body *bodies = fp->replay->sc->bodies;
    const col_hull *ha = &fp->sh[bodies[a].shape].hull, *hb = &fp->sh[bodies[b].shape].hull;
    if (!warm) {
        col_np_sepvec.cache_init(c, ha, hb);
        if (fp->vor_off > 0) col_np_voronoi.cache_init(c + fp->vor_off, ha, hb);
    }
    if (fp->n >= fp->cap) return;
    fp->list[fp->n++] = (item){c, a, b, warm};
}

static void run_scene(const char *path, int frames)
{
    bench_scene sc;
    if (!stats_scene_open("sepvec-stats", path, &sc)) return;
    if (frames <= 0 || frames > sc.frames) frames = sc.frames;
    stats_replay rp;
    if (!stats_replay_init(&rp, &sc, 1u << 16, 128)) return;
    char err[256];
    shape *sh = calloc((size_t)sc.shape_count, sizeof *sh);
    scratch_buf sb = {{NULL, 0}};
    for (int i = 0; i < sc.shape_count; i++) {
        col_status st = col_hull_build(&g_alloc, sc.shapes[i].vertices, sc.shapes[i].vertex_count, &sh[i].hull, err, sizeof err);
        if (st != COL_OK) {
            fprintf(stderr, "sepvec-stats: shape %d: %s\n", i, err);
            return;
        }
        rp.shape_hull[i] = &sh[i].hull;
        size_t bytes = col_support_data_bytes(&sh[i].hull, COL_SUPPORT_DEFAULT);
        sh[i].data = aligned_alloc(16, (bytes + 15) / 16 * 16);
        col_support_data_init(sh[i].data, &sh[i].hull, COL_SUPPORT_DEFAULT);
        scratch_fit(&sb, &sh[i].hull, &sh[i].hull);
    }
    const col_xform *xf = rp.xf;
    tally t;
    memset(&t, 0, sizeof t);
    double warm_ns = 0.0, cold_ns = 0.0;
    long timed = 0;
    _Alignas(16) unsigned char cold_cache[128];
    typedef struct cache_copy {
        _Alignas(16) unsigned char b[128];
    } cache_copy;
    long list_cap = 1 << 15;
    item *list = malloc(sizeof *list * (size_t)list_cap);
    cache_copy *copies = aligned_alloc(16, sizeof *copies * (size_t)list_cap);
    for (int f = 0; f < frames; f++) {
        frame_pairs fp = {&rp, sh, list, 0, list_cap, 0};
        stats_replay_frame(&rp, f, add_pair, &fp);
        long npairs = fp.n;
        double fw = 0.0, fc = 0.0;
        /* Timed first, on copies of the caches, in one batch per kind (no clock per query):
         * warm = pairs that overlapped last frame, with last frame's cache; cold = the same
         * pairs with a fresh cache. Then the statistics, on the real caches. */
        /* three rounds, the fastest kept: other processes only ever add time */
        long nwarm = 0;
        double bw = INFINITY, bc = INFINITY;
        for (int round = 0; round < 3; round++) {
            nwarm = 0;
            for (long k = 0; k < npairs; k++)
                if (list[k].warm) memcpy(copies[nwarm++].b, list[k].cache, sizeof copies[0].b);
            double t0 = stats_now_ns();
            nwarm = 0;
            for (long k = 0; k < npairs; k++) {
                if (!list[k].warm) continue;
                const shape *sa = &sh[sc.bodies[list[k].a].shape], *sbb = &sh[sc.bodies[list[k].b].shape];
                col_np_result r;
                col_sepvec_query_ex(copies[nwarm++].b, &sa->hull, sa->data, &xf[list[k].a], &sbb->hull, sbb->data,
                                    &xf[list[k].b], &sb.s, g_sv_opt, &r, NULL);
            }
            double t1 = stats_now_ns();
            for (long k = 0; k < npairs; k++) {
                if (!list[k].warm) continue;
                const shape *sa = &sh[sc.bodies[list[k].a].shape], *sbb = &sh[sc.bodies[list[k].b].shape];
                col_np_result r;
                col_np_sepvec.cache_init(cold_cache, &sa->hull, &sbb->hull);
                col_sepvec_query_ex(cold_cache, &sa->hull, sa->data, &xf[list[k].a], &sbb->hull, sbb->data,
                                    &xf[list[k].b], &sb.s, g_sv_opt, &r, NULL);
            }
            double t2 = stats_now_ns();
            bw = fmin(bw, t1 - t0);
            bc = fmin(bc, t2 - t1);
        }
        for (long k = 0; k < npairs; k++) {
            const shape *sa = &sh[sc.bodies[list[k].a].shape], *sbb = &sh[sc.bodies[list[k].b].shape];
            col_np_result r;
            col_sepvec_info in;
            col_sepvec_query_ex(list[k].cache, &sa->hull, sa->data, &xf[list[k].a], &sbb->hull, sbb->data,
                                &xf[list[k].b], &sb.s, g_sv_opt, &r, &in);
            tally_add(&t, &r, &in);
        }
        fw = bw;
        fc = bc;
        timed += nwarm;
        warm_ns += fw;
        cold_ns += fc;
    }
    const char *name = stats_scene_name(path);
    printf("| %s | %d | %ld | %.1f %% | %.1f / %.1f / %.1f %% | %ld | %.1f %% | %.1f / %ld | %.2f / %.2f / %.1f | %ld | %ld | %ld | %ld / %ld | %.0f | %.0f |\n",
           name, frames, t.queries, 100.0 * t.colliding / (t.queries ? t.queries : 1), share_le(&t, 1), share_le(&t, 2),
           share_le(&t, 3), t.sep_max, 100.0 * t.all_le3 / (t.queries ? t.queries : 1),
           t.colliding ? (double)t.col_steps_sum / t.colliding : 0.0, t.col_max,
           (double)(t.col_steps_sum + t.sep_total_steps) / (t.queries ? t.queries : 1),
           (double)t.support_queries / (t.queries ? t.queries : 1), (double)t.support_evals / (t.queries ? t.queries : 1),
           t.outcome[COL_SV_WARM_TETRA], t.hornus,
           t.reference, t.lemma3, t.lemma4, timed ? warm_ns / timed : 0.0, timed ? cold_ns / timed : 0.0);
    for (int i = 0; i < sc.shape_count; i++) free_shape(&sh[i]);
    free(sh);
    stats_replay_free(&rp);
    free(list);
    free(copies);
    free(sb.s.mem);
    bench_scene_free(&sc);
}

/* ---- sizes: what lives where (docs/sepvec.md) ---- */

static void run_sizes(uint64_t seed)
{
    static const int sizes[] = {8, 16, 17, 40, 100, 1000, 4000};
    printf("### Memory: the pair cache, the per-worker scratch and the shape data\n\n`%s`\n\n", g_cmd);
    printf("Ellipsoid hulls, seed %llu. Scratch: sepvec's own part (the reference fallback's need is added to "
           "it, backend.h's scratch rule).\n\n",
           (unsigned long long)seed);
    printf("| vertices | pair cache bytes | sepvec's own scratch bytes | shape data bytes | shape data bytes per vertex |\n");
    printf("|---|---|---|---|---|\n");
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        scene_rand_seed(seed + i);
        shape sh;
        if (make_shape(&sh, SCENE_ELLIPSOID, sizes[i], COL_SUPPORT_DEFAULT) != 0) continue;
        col_np_counts c = col_np_counts_of(&sh.hull);
        size_t own = col_np_sepvec.scratch_need(c, c) - col_np_reference.scratch_need(c, c);
        size_t data = col_np_sepvec.shape_data_bytes(&sh.hull);
        printf("| %d | %zu | %zu | %zu | %.1f |\n", sh.hull.vertex_count, col_np_sepvec.cache_size, own, data,
               (double)data / sh.hull.vertex_count);
        free_shape(&sh);
    }
    printf("\n");
}

/* ---- cw: Chung & Wang's own set-up, against the closest-feature (V-Clip) backend ---- */

/* A pair's two caches in the replay: sepvec's first, then voronoi's. */
#define CW_SV_BYTES 128

/* The time of one backend on a frame's pairs, on copies of their caches (so the
 * statistics pass after it sees the real ones): the fastest of three rounds. */
static double cw_time(const col_np_backend *be, size_t off, const item *list, long n, unsigned char *copies,
                      size_t stride, const shape *sh, const bench_scene *sc, const col_xform *xf, col_np_scratch *scr,
                      void *const *vdata)
{
    double best = INFINITY;
    for (int round = 0; round < 3; round++) {
        for (long k = 0; k < n; k++) memcpy(copies + (size_t)k * stride, list[k].cache + off, be->cache_size);
        double t0 = stats_now_ns();
        for (long k = 0; k < n; k++) {
            int sa = sc->bodies[list[k].a].shape, sb = sc->bodies[list[k].b].shape;
            const void *da = vdata != NULL ? vdata[sa] : sh[sa].data, *db = vdata != NULL ? vdata[sb] : sh[sb].data;
            col_np_result r;
            if (be == &col_np_sepvec)
                col_sepvec_query_ex(copies + (size_t)k * stride, &sh[sa].hull, da, &xf[list[k].a], &sh[sb].hull, db,
                                    &xf[list[k].b], scr, g_sv_opt, &r, NULL);
            else
                be->query(copies + (size_t)k * stride, &sh[sa].hull, da, &xf[list[k].a], &sh[sb].hull, db,
                          &xf[list[k].b], scr, &r);
        }
        best = fmin(best, stats_now_ns() - t0);
    }
    return best;
}

static void run_cw(const char *path, int frames)
{
    bench_scene sc;
    if (!stats_scene_open("sepvec-stats", path, &sc)) return;
    if (frames <= 0 || frames > sc.frames) frames = sc.frames;
    size_t vbytes = (col_np_voronoi.cache_size + 15) / 16 * 16, stride = CW_SV_BYTES + vbytes;
    stats_replay rp;
    if (!stats_replay_init(&rp, &sc, 1u << 16, stride)) return;
    char err[256];
    shape *sh = calloc((size_t)sc.shape_count, sizeof *sh);
    void **vdata = calloc((size_t)sc.shape_count, sizeof *vdata);
    col_np_counts most = {0, 0, 0};
    long verts = 0;
    for (int i = 0; i < sc.shape_count; i++) {
        col_status st = col_hull_build(&g_alloc, sc.shapes[i].vertices, sc.shapes[i].vertex_count, &sh[i].hull, err, sizeof err);
        if (st != COL_OK) {
            fprintf(stderr, "sepvec-stats: shape %d: %s\n", i, err);
            exit(1);
        }
        rp.shape_hull[i] = &sh[i].hull;
        size_t bytes = col_support_data_bytes(&sh[i].hull, COL_SUPPORT_DEFAULT);
        sh[i].data = aligned_alloc(16, (bytes + 15) / 16 * 16);
        col_support_data_init(sh[i].data, &sh[i].hull, COL_SUPPORT_DEFAULT);
        if (col_np_voronoi.shape_data_bytes != NULL) {
            size_t vb = col_np_voronoi.shape_data_bytes(&sh[i].hull);
            if (vb > 0) {
                vdata[i] = aligned_alloc(16, (vb + 15) / 16 * 16);
                col_np_voronoi.shape_data_init(vdata[i], vb, &sh[i].hull);
            }
        }
        most = col_np_counts_max(most, col_np_counts_of(&sh[i].hull));
        verts += sh[i].hull.vertex_count;
    }
    size_t need = col_np_sepvec.scratch_need(most, most);
    if (col_np_voronoi.scratch_need(most, most) > need) need = col_np_voronoi.scratch_need(most, most);
    col_np_scratch scr = {malloc(need), need};
    tally t;
    memset(&t, 0, sizeof t);
    long sep_repeat = 0, sep_seed_only = 0, sep_le4 = 0, vor_disagree = 0, warm_sep = 0, warm_sep1 = 0;
    struct {
        long n, steps, hornus, proj, miss, warm, tetra;
    } own = {0, 0, 0, 0, 0, 0, 0}; /* separated queries that repeated a pair of their own search */
    double sv_ns = 0.0, vor_ns = 0.0;
    long list_cap = 1 << 15;
    item *list = malloc(sizeof *list * (size_t)list_cap);
    unsigned char *copies = aligned_alloc(16, stride * (size_t)list_cap);
    for (int f = 0; f < frames; f++) {
        frame_pairs fp = {&rp, sh, list, 0, list_cap, CW_SV_BYTES};
        stats_replay_frame(&rp, f, add_pair, &fp);
        const col_xform *xf = rp.xf;
        sv_ns += cw_time(&col_np_sepvec, 0, list, fp.n, copies, stride, sh, &sc, xf, &scr, NULL);
        vor_ns += cw_time(&col_np_voronoi, CW_SV_BYTES, list, fp.n, copies, stride, sh, &sc, xf, &scr, vdata);
        for (long k = 0; k < fp.n; k++) {
            int sa = sc.bodies[list[k].a].shape, sb = sc.bodies[list[k].b].shape;
            col_np_result r, rv;
            col_sepvec_info in;
            int wa[4], wb[4];
            int had_tetra = col_sepvec_cache_certificate(list[k].cache, wa, wb); /* collided last frame */
            col_sepvec_query_ex(list[k].cache, &sh[sa].hull, sh[sa].data, &xf[list[k].a], &sh[sb].hull, sh[sb].data,
                                &xf[list[k].b], &scr, g_sv_opt, &r, &in);
            tally_add(&t, &r, &in);
            if (!r.colliding) {
                sep_le4 += in.steps <= 4;
                sep_repeat += in.lemma4 > 0;
                sep_seed_only += in.lemma4 > 0 && in.lemma4 == in.seed_repeats;
                if (in.lemma4 > in.seed_repeats) { /* the search met one of its own pairs again */
                    own.n++;
                    own.steps += in.steps;
                    own.hornus += in.hornus_steps > 0;
                    own.tetra += had_tetra;
                    own.proj += in.full_projections > 0;
                    own.miss += in.climb_misses > 0;
                    own.warm += in.warm;
                }
                warm_sep += in.warm;
                warm_sep1 += in.warm && in.steps == 1;
            }
            col_np_voronoi.query(list[k].cache + CW_SV_BYTES, &sh[sa].hull, vdata[sa], &xf[list[k].a], &sh[sb].hull,
                                 vdata[sb], &xf[list[k].b], &scr, &rv);
            vor_disagree += rv.colliding != r.colliding;
        }
    }
    long q = t.queries ? t.queries : 1, sep = t.separated ? t.separated : 1;
    printf("| %s | %.0f | %d | %.1f | %.1f %% | %.1f %% | %.1f / %.1f %% | %.1f %% | %.2f %% (%.2f %%) | %.2f / %.2f | %.0f | %.0f | %.1fx | %.3f | %.3f "
           "| %ld |\n",
           stats_scene_name(path), (double)verts / sc.shape_count, frames, (double)t.queries / frames,
           100.0 * t.colliding / q, 100.0 * warm_sep1 / (warm_sep ? warm_sep : 1), share_le(&t, 3), 100.0 * sep_le4 / sep, 100.0 * t.all_le3 / q, 100.0 * sep_repeat / sep,
           100.0 * (sep_repeat - sep_seed_only) / sep, (double)t.sep_total_steps / sep,
           (double)t.col_steps_sum / (t.colliding ? t.colliding : 1), sv_ns / q,
           vor_ns / q, vor_ns / (sv_ns > 0 ? sv_ns : 1), sv_ns / frames * 1e-6, vor_ns / frames * 1e-6, vor_disagree);
    fflush(stdout);
    fprintf(stderr, "%s: %ld separated queries met a pair of their own search again: mean %.1f steps; %ld warm (%ld "
            "of them colliding last frame), %ld with Hornus steps, %ld with a full projection, %ld with a climb miss\n",
            stats_scene_name(path), own.n, own.n ? (double)own.steps / own.n : 0.0, own.warm, own.tetra, own.hornus,
            own.proj, own.miss);
    for (int i = 0; i < sc.shape_count; i++) {
        free_shape(&sh[i]);
        free(vdata[i]);
    }
    free(sh);
    free(vdata);
    free(scr.mem);
    free(list);
    free(copies);
    stats_replay_free(&rp);
    bench_scene_free(&sc);
}

int main(int argc, char **argv)
{
    col_alloc_init(&g_alloc, NULL);
    static char cmd[1024];
    size_t l = 0;
    for (int i = 0; i < argc && l < sizeof cmd; i++)
        l += (size_t)snprintf(cmd + l, sizeof cmd - l, "%s%s", i ? " " : "", i == 0 ? "build/bench/sepvec-stats" : argv[i]);
    g_cmd = cmd;
    if (argc < 2) {
        fprintf(stderr, "usage: sepvec-stats paper|support|sizes|near|scene FILE...|cw FILE... [--seed S] [--passes N] [--pairs N] [--frames N]\n");
        return 2;
    }
    uint64_t seed = 1;
    static col_sepvec_options sv_opt;
    int passes = 200, frames = 0;
    long pairs = 2000;
    const char *files[16];
    int nfiles = 0;
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc) seed = strtoull(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--passes") && i + 1 < argc) passes = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--pairs") && i + 1 < argc) pairs = atol(argv[++i]);
        else if (!strcmp(argv[i], "--frames") && i + 1 < argc) frames = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--seed-reflect")) sv_opt.seed_reflect = 1, g_sv_opt = &sv_opt;
        else if (!strcmp(argv[i], "--no-seed")) sv_opt.no_seed = 1, g_sv_opt = &sv_opt;
        else if (!strcmp(argv[i], "--dir-frame-a")) sv_opt.dir_frame_a = 1, g_sv_opt = &sv_opt;
        else if (nfiles < 16) files[nfiles++] = argv[i];
    }
    if (!strcmp(argv[1], "paper")) run_paper(seed, passes);
    else if (!strcmp(argv[1], "support")) run_support(seed);
    else if (!strcmp(argv[1], "sizes")) run_sizes(seed);
    else if (!strcmp(argv[1], "near")) run_near(seed, pairs);
    else if (!strcmp(argv[1], "cw")) {
        printf("### Chung & Wang's set-up: sepvec against the closest-feature backend (voronoi)\n\n`%s`\n\n", g_cmd);
        printf("Every pair of overlapping boxes each frame, queried by both backends with their own caches "
               "(kept while the pair overlaps). Separated queries: decided within 3 / 4 support-pair steps; "
               "repeat rate: separated queries that met a vertex pair again at a later, non-consecutive step "
               "(the paper's lemma-4 case), in brackets without those whose only repeats were pairs seeded "
               "from last frame's tetrahedron. Times: each frame's batch the fastest of three rounds, on "
               "copies of the caches.\n\n");
        printf("| scene | vertices per hull | frames | pairs per frame | colliding | warm separated in 1 step "
               "| separated within 3 / 4 steps | all within 3 steps "
               "| repeat rate (not seeded) | mean steps separated / colliding | sepvec ns/query | voronoi ns/query | ratio "
               "| sepvec narrow-phase ms/frame | voronoi narrow-phase ms/frame | answers differing |\n");
        printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (int i = 0; i < nfiles; i++) run_cw(files[i], frames);
        printf("\n");
    } else if (!strcmp(argv[1], "scene")) {
        printf("### Benchmark scenes replayed pair by pair\n\n`%s`\n\n", g_cmd);
        printf("Every pair of overlapping boxes each frame (as the broad phase hands them over), queried with its "
               "cache; ns per query timed on pairs that also overlapped the frame before (warm: last frame's "
               "cache; cold: a fresh one), each frame's batch the fastest of three rounds.\n\n");
        printf("| scene | frames | queries | colliding | separated in 1 / 2 / 3 steps | max steps (separated) "
               "| all <= 3 steps | mean / max steps (colliding) | per query: steps / support queries / dot products "
               "| warm tetrahedron hits | Hornus switches | reference fallbacks | lemma 3 / 4 | ns/query warm "
               "| ns/query cold |\n");
        printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (int i = 0; i < nfiles; i++) run_scene(files[i], frames);
        printf("\n");
    } else {
        fprintf(stderr, "sepvec-stats: unknown mode '%s'\n", argv[1]);
        return 2;
    }
    return 0;
}
