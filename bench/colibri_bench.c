/* SPDX-License-Identifier: MIT */
/* colibri-bench: replays a benchmark scene (docs/scenes.md) through a Colibri
 * world and prints the one-line report every engine prints, so Colibri can be timed and
 * checked pair by pair against the peer engines and against itself (--brute).
 *
 *   colibri-bench SCENE_FILE [--backend NAME] [--threads N] [--pin cores|none]
 *                 [--frames N] [--dump-pairs FILE] [--brute] [--name NAME]
 *                 [--schedule every|ttc] [--margin X] [--declared-speeds] [--record FILE] [--csv FILE]
 *                 [--static still|none] [--ccd] [--dump-toi FILE] [--rays N]
 *                 [--dump-rays FILE] [--time-critical PMIN,KMIN]
 *   colibri-bench --topology [--threads N]
 *   colibri-bench --list-backends
 *
 * Scene shapes become Colibri shapes of the same kind: hulls, spheres, capsules and meshes.
 * Normal run: per frame, set every moving body's pose, col_world_update, read the pair list.
 * A body whose v and w are all zero stays where it is at every frame (docs/scenes.md: the
 * closed form gives the same doubles at every f), so by default (--static still) it is made a
 * static body, as an app makes its room geometry, and its pose is never set again. The
 * world never pairs two static bodies; their pairs are constant, so they are decided once
 * at set-up (col_query_overlap, inside setup_ms) and merged into every frame's list.
 * --brute: per frame, col_query_overlap on every pair i < j with the same poses; no broad
 * phase and no world update: the all-pairs reference the normal run must agree with (for
 * any pair of shape kinds: the query takes the world's shape ids).
 * --ccd: continuous mode (docs/scenes.md, "Continuous mode"): every body is continuous
 * (col_body_def.continuous) and frame f >= 1 reports the pairs that touched at some instant
 * from frame f-1 to f (col_pair_events.continuous, plus the still pairs at s = 0); frame 0
 * reports the discrete pairs. With --brute: col_toi on every pair i < j instead.
 * --dump-toi FILE: with --ccd, 'f i j s' per reported pair (s with %.17g) in the pair dump's
 * order.
 * --time-critical PMIN,KMIN: the world's time-critical mode (col_world_def.time_critical,
 * docs/adb.md) for every mesh-mesh pair the world tests: ADB-tree estimates, which may be
 * wrong, so the pair hash is not the exact one (pairs of two static bodies stay exact).
 * --csv FILE: one row per frame (frame, ms, pairs, narrow_calls) after a header row.
 * A run longer than a few seconds says on stderr, at most every 2 s, which frame it is at
 * and about how long it has left (frame_log.h); stdout carries only the report line.
 * --declared-speeds: each body is created with max_linear_speed = |v| and max_angular_speed
 * = |w| of its scene record (the triangle wave moves it by at most |v| per frame, the walls
 * only shorten that, and it turns by |w|), so it keeps its promise and never trips.
 * --list-backends: prints the name of every backend --backend takes besides 'default', one a
 * line, and exits (the scene tests run every backend).
 * --topology: prints the machine as hwloc sees it and where a pool of N workers (default:
 * one per physical core) would be pinned, then exits (docs/threads.md shows it).
 * Exit status: 0 ok, 1 bad scene or a Colibri error, 2 bad command line or unreadable file. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "colibri/colibri.h"
#include "lib/core/thread_pool.h"
#include "bench_rays.h"
#include "frame_log.h"
#include "scene.h"

#define PROG "colibri-bench"

/* FNV-1a 64, the pair fingerprint of docs/scenes.md. */
#define FNV_OFFSET 14695981039346656037ULL
#define FNV_PRIME 1099511628211ULL

#define UNMAPPED UINT32_MAX

typedef struct options {
    const char *scene_path;
    const char *backend_name; /* NULL: default */
    const char *dump_path;    /* NULL: no dump */
    const char *toi_path;     /* --dump-toi: NULL: none */
    bool ccd;                 /* --ccd: continuous mode */
    const char *record_path;  /* --record: col_recorder file (docs/record.md); NULL: none */
    const char *csv_path;     /* --csv: NULL: no CSV */
    const char *name;         /* NULL: from the scene file name */
    int threads;              /* -1: the world def's default */
    int frames;               /* 0: all of the scene's */
    bool brute;
    bool topology;
    bool list_backends;
    int pin;                  /* --pin: -1 the world's default, else a col_thread_pinning */
    bool schedule_every;      /* --schedule every: COL_SCHEDULE_EVERY instead of the default */
    double margin;            /* --margin: col_world_def.broadphase_margin; < 0: the default */
    bool declared_speeds;     /* --declared-speeds: bodies declare the scene's |v| and |w| */
    bool no_static;           /* --static none: still bodies are moving bodies like the others */
    int rays;                 /* --rays N: N rays cast after each frame (bench_rays.h); 0: none */
    const char *rays_dump;    /* --dump-rays FILE: 'f k body t' per ray; NULL: none */
    double tc_p;              /* --time-critical PMIN,KMIN (docs/adb.md); tc_k 0: off */
    int tc_k;
} options;

typedef struct scene_pair {
    uint32_t i, j; /* scene body indices, i < j */
    double s;      /* --ccd: the first instant of contact in the frame's interval (else 0) */
} scene_pair;

typedef struct pair_vec {
    scene_pair *v;
    size_t n, cap;
} pair_vec;

/* What a run measured; printed by print_report. */
typedef struct results {
    double *frame_ms;
    int frames;
    unsigned long long pairs;
    uint64_t hash;
    unsigned long long narrow_calls;
    unsigned long long woken_early; /* col_counters.woken_early summed over the frames */
    double setup_ms;
    int workers;             /* the world's resolved worker count */
    int stalls;              /* col_counters.worker_stalls after the run */
    unsigned long long world_bytes; /* col_counters.bytes_in_use after the run: the world's own memory */
    const char *schedule;    /* "ttc" or "every" (col_world_def.schedule) */
    const char *speeds;      /* "declared" or "derived" (--declared-speeds) */
    double *rays_ms;         /* --rays: per frame, the casts (the tree's sync included) */
    double *rays_sync_ms;    /* --rays: per frame, the query tree's sync alone */
    double *rays_cpu_ms;     /* --rays: per frame, the thread's CPU time of sync and casts */
    int rays;
    double cpu_ms;           /* the timed frames' CPU time of this thread, summed (colibri engine) */
} results;

static void usage(FILE *out)
{
    fprintf(out,
            "usage: " PROG " SCENE_FILE [--backend NAME] [--threads N] [--pin cores|none]\n"
            "                     [--frames N] [--schedule every|ttc] [--margin X] [--declared-speeds]\n"
            "                     [--dump-pairs FILE] [--csv FILE] [--brute] [--name NAME] [--record FILE]\n"
            "                     [--static still|none] [--ccd] [--dump-toi FILE] [--rays N]\n"
            "                     [--dump-rays FILE] [--time-critical PMIN,KMIN]\n"
            "       " PROG " --topology [--threads N]\n"
            "       " PROG " --list-backends\n"
            "  --backend NAME   narrow phase: 'default' or one of col_backend_name()\n"
            "  --threads N      col_world_def.worker_count (N >= 0)\n"
            "  --pin cores|none pool threads pinned to cores, or left to the OS (the default)\n"
            "  --frames N       run only the first N frames (N >= 1)\n"
            "  --dump-pairs F   write 'f i j' per colliding pair to F\n"
            "  --csv F          write 'frame,ms,pairs,narrow_calls' per frame to F (a header first)\n"
            "  --brute          col_query_overlap on all pairs instead of the world\n"            "  --time-critical P,K  mesh-mesh pairs by the ADB-tree estimate (docs/adb.md): p_min P,\n"
            "                   k_min K (col_world_def.time_critical); answers may be wrong\n"
            "  --name NAME      scene name in the report (default: file name)\n"
            "  --schedule S     'ttc' (default): separated pairs sleep on the time-to-collision\n"
            "                   queue; 'every': every moved pair is tested at every frame\n"
            "  --margin X       col_world_def.broadphase_margin (default: the world's)\n"
            "  --record FILE    record the run for the viewer (tools/viewer/, docs/record.md;\n"
            "                   untimed, but large: every body's pose at every frame)\n"
            "  --declared-speeds bodies declare the scene's |v| and |w| as top speeds (per update)\n"
            "  --static S       'still' (default): a body with v = w = 0 is a static body, never\n"
            "                   moved; 'none': it is a moving body whose pose is set every frame\n"
            "  --ccd            continuous mode: frame f >= 1 reports the pairs that touched at some\n"
            "                   instant from frame f-1 to f (docs/scenes.md, \"Continuous mode\")\n"
            "  --dump-toi F     with --ccd: write 'f i j s' per reported pair to F\n"
            "  --rays N         cast N rays after each frame (docs/scenes.md, \"Ray mode\"), timed apart\n"
            "  --dump-rays F    write 'f k body t' per ray to F\n"
            "  --topology       print the hwloc topology and the pool's pinning plan\n"
            "  --list-backends  print the backend names, one a line\n"
            "Prints one report line on stdout (key=value; docs/bench.md, \"Output\"). A run longer\n"
            "than a few seconds prints its progress on stderr, at most every 2 s.\n");
}

static bool parse_count(const char *s, int min, int *out)
{
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (end == s || *end != '\0' || errno == ERANGE || x < min || x > INT_MAX)
        return false;
    *out = (int)x;
    return true;
}

/* Returns -1 to go on, otherwise the exit status (0 after --help, 2 on a bad command). */
static int parse_options(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->pin = -1;
    o->threads = -1;
    o->margin = -1;
    bool only_files = false;
    for (int k = 1; k < argc; k++) {
        const char *a = argv[k];
        if (only_files || a[0] != '-' || a[1] == '\0') {
            if (o->scene_path) {
                fprintf(stderr, PROG ": more than one scene file ('%s', '%s')\n",
                        o->scene_path, a);
                return 2;
            }
            o->scene_path = a;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_files = true;
            continue;
        }
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(a, "--brute") == 0) {
            o->brute = true;
            continue;
        }
        if (strcmp(a, "--topology") == 0) {
            o->topology = true;
            continue;
        }
        if (strcmp(a, "--list-backends") == 0) {
            o->list_backends = true;
            continue;
        }
        if (strcmp(a, "--ccd") == 0) {
            o->ccd = true;
            continue;
        }
        if (strcmp(a, "--declared-speeds") == 0) {
            o->declared_speeds = true;
            continue;
        }
        /* The remaining options take a value: "--opt VALUE" or "--opt=VALUE". */
        static const char *const valued[] = {"--backend", "--threads", "--frames",
                                             "--dump-pairs", "--name", "--pin", "--schedule", "--margin",
                                             "--record", "--csv", "--static", "--dump-toi", "--rays", "--dump-rays",
                                             "--time-critical"};
        int which = -1;
        const char *value = NULL;
        for (int t = 0; t < (int)(sizeof valued / sizeof valued[0]); t++) {
            size_t len = strlen(valued[t]);
            if (strncmp(a, valued[t], len) == 0 && (a[len] == '\0' || a[len] == '=')) {
                which = t;
                value = a[len] == '=' ? a + len + 1 : NULL;
                break;
            }
        }
        if (which < 0) {
            fprintf(stderr, PROG ": unknown option '%s'\n", a);
            usage(stderr);
            return 2;
        }
        if (!value) {
            if (k + 1 >= argc) {
                fprintf(stderr, PROG ": option '%s' needs a value\n", a);
                return 2;
            }
            value = argv[++k];
        }
        switch (which) {
        case 0:
            o->backend_name = value;
            break;
        case 1:
            if (!parse_count(value, 0, &o->threads)) {
                fprintf(stderr, PROG ": --threads wants an integer >= 0, not '%s'\n", value);
                return 2;
            }
            break;
        case 2:
            if (!parse_count(value, 1, &o->frames)) {
                fprintf(stderr, PROG ": --frames wants an integer >= 1, not '%s'\n", value);
                return 2;
            }
            break;
        case 3:
            o->dump_path = value;
            break;
        case 5:
            if (strcmp(value, "cores") != 0 && strcmp(value, "none") != 0) {
                fprintf(stderr, PROG ": --pin wants 'cores' or 'none', not '%s'\n", value);
                return 2;
            }
            o->pin = strcmp(value, "none") == 0 ? COL_PIN_NONE : COL_PIN_CORES;
            break;
        case 6:
            if (strcmp(value, "ttc") != 0 && strcmp(value, "every") != 0) {
                fprintf(stderr, PROG ": --schedule wants 'every' or 'ttc', not '%s'\n", value);
                return 2;
            }
            o->schedule_every = strcmp(value, "every") == 0;
            break;
        case 7: {
            char *end = NULL;
            o->margin = strtod(value, &end);
            if (end == value || *end != '\0' || !(o->margin >= 0)) {
                fprintf(stderr, PROG ": --margin wants a number >= 0, not '%s'\n", value);
                return 2;
            }
            break;
        }
        case 8:
            o->record_path = value;
            break;
        case 9:
            o->csv_path = value;
            break;
        case 10:
            if (strcmp(value, "still") != 0 && strcmp(value, "none") != 0) {
                fprintf(stderr, PROG ": --static wants 'still' or 'none', not '%s'\n", value);
                return 2;
            }
            o->no_static = strcmp(value, "none") == 0;
            break;
        case 11:
            o->toi_path = value;
            break;
        case 12:
            if (!parse_count(value, 1, &o->rays)) {
                fprintf(stderr, PROG ": --rays wants an integer >= 1, not '%s'\n", value);
                return 2;
            }
            break;
        case 13:
            o->rays_dump = value;
            break;
        case 14: {
            char *end = NULL;
            o->tc_p = strtod(value, &end);
            long k = 0;
            if (end != value && *end == ',') {
                char *e2 = NULL;
                k = strtol(end + 1, &e2, 10);
                if (e2 == end + 1 || *e2 != '\0') k = 0;
            }
            if (!(o->tc_p > 0 && o->tc_p <= 1) || k < 1 || k > INT_MAX) {
                fprintf(stderr, PROG ": --time-critical wants PMIN,KMIN with PMIN in (0, 1] and KMIN >= 1, not '%s'\n",
                        value);
                return 2;
            }
            o->tc_k = (int)k;
            break;
        }
        default:
            o->name = value;
            break;
        }
    }
    if (o->toi_path && !o->ccd) {
        fprintf(stderr, PROG ": --dump-toi needs --ccd\n");
        return 2;
    }
    if (o->brute && (o->rays > 0 || o->rays_dump)) {
        fprintf(stderr, PROG ": --rays casts into a world: it does not go with --brute\n");
        return 2;
    }
    if (o->rays_dump && o->rays == 0) {
        fprintf(stderr, PROG ": --dump-rays needs --rays N\n");
        return 2;
    }
    if (o->brute && o->tc_k > 0) {
        fprintf(stderr, PROG ": --time-critical is a world mode: it does not go with --brute\n");
        return 2;
    }
    if (o->brute && o->record_path) {
        fprintf(stderr, PROG ": --record records a world: it does not go with --brute\n");
        return 2;
    }
    if (!o->scene_path && !o->topology && !o->list_backends) {
        fprintf(stderr, PROG ": no scene file given\n");
        usage(stderr);
        return 2;
    }
    return -1;
}

/* Returns false (after a message listing the known names) for an unknown backend. */
static bool find_backend(const char *name, col_backend *out)
{
    *out = COL_BACKEND_DEFAULT;
    if (!name || strcmp(name, "default") == 0)
        return true;
    for (int k = 0; k < (int)COL_BACKEND_COUNT; k++) {
        const char *n = col_backend_name((col_backend)k);
        if (n && strcmp(n, name) == 0) {
            *out = (col_backend)k;
            return true;
        }
    }
    fprintf(stderr, PROG ": unknown backend '%s'; known: default", name);
    for (int k = 0; k < (int)COL_BACKEND_COUNT; k++) {
        const char *n = col_backend_name((col_backend)k);
        if (n && strcmp(n, "default") != 0)
            fprintf(stderr, ", %s", n);
    }
    fprintf(stderr, "\n");
    return false;
}

/* Monotonic nanoseconds: integers, so differences keep full precision however long the
 * machine has been up. */
static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static double ms_since(int64_t t0) { return (double)(now_ns() - t0) * 1e-6; }

/* This thread's CPU nanoseconds: with one thread, the frame's work without the time the
 * shared machine gives to others (docs/adb.md compares runs by it). */
static int64_t cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Prints a failed col_* call with the world's own sentence about it; false for chaining. */
static bool col_failed(const col_world *world, col_status st, const char *what)
{
    const char *why = world ? col_world_last_error(world) : "";
    fprintf(stderr, PROG ": %s failed: %s%s%s\n", what, col_status_string(st),
            why && why[0] ? ": " : "", why ? why : "");
    return false;
}

static bool pairs_reserve(pair_vec *pv, size_t n)
{
    if (n <= pv->cap)
        return true;
    size_t cap = pv->cap ? pv->cap : 1024;
    while (cap < n)
        cap *= 2;
    scene_pair *v = realloc(pv->v, cap * sizeof *v);
    if (!v) {
        fprintf(stderr, PROG ": out of memory for %zu pairs\n", n);
        return false;
    }
    pv->v = v;
    pv->cap = cap;
    return true;
}

static int pair_cmp(const void *pa, const void *pb)
{
    const scene_pair *a = pa, *b = pb;
    if (a->i != b->i)
        return a->i < b->i ? -1 : 1;
    return (a->j > b->j) - (a->j < b->j);
}

/* Folds one 32-bit word into the FNV-1a hash, little-endian byte by byte (docs/scenes.md). */
static inline uint64_t fnv_word(uint64_t h, uint32_t w)
{
    for (int b = 0; b < 4; b++) {
        h ^= (w >> (8 * b)) & 0xffu;
        h *= FNV_PRIME;
    }
    return h;
}

static uint64_t fold_frame(uint64_t h, int f, const pair_vec *pv)
{
    for (size_t t = 0; t < pv->n; t++) {
        h = fnv_word(h, (uint32_t)f);
        h = fnv_word(h, pv->v[t].i);
        h = fnv_word(h, pv->v[t].j);
    }
    return h;
}

static bool dump_frame(FILE *dump, FILE *toi, int f, const pair_vec *pv)
{
    for (size_t t = 0; toi && t < pv->n; t++)
        fprintf(toi, "%d %u %u %.17g\n", f, (unsigned)pv->v[t].i, (unsigned)pv->v[t].j, pv->v[t].s);
    if (toi && ferror(toi)) {
        fprintf(stderr, PROG ": writing the time-of-impact dump failed: %s\n", strerror(errno));
        return false;
    }
    if (!dump)
        return true;
    for (size_t t = 0; t < pv->n; t++)
        fprintf(dump, "%d %u %u\n", f, (unsigned)pv->v[t].i, (unsigned)pv->v[t].j);
    if (ferror(dump)) {
        fprintf(stderr, PROG ": writing the pair dump failed: %s\n", strerror(errno));
        return false;
    }
    return true;
}

/* Creates the world and one Colibri shape per scene shape: a hull from its points, a sphere
 * or a capsule from its sizes (bench/scene.h: the reader has already turned a capsule of
 * zero half height into a sphere), a mesh from its vertices and triangles (its hierarchy is
 * built here, so inside setup_ms, as docs/scenes.md asks). */
static bool setup_world(const bench_scene *sc, const options *o, col_backend backend,
                        col_world **world, col_shape_id *shape_ids)
{
    col_world_def def = col_default_world_def();
    def.backend = backend;
    def.schedule = o->schedule_every ? COL_SCHEDULE_EVERY : COL_SCHEDULE_TTC;
    if (o->margin >= 0) def.broadphase_margin = o->margin;
    if (o->tc_k > 0) {
        def.time_critical.enabled = true;
        def.time_critical.p_min = o->tc_p;
        def.time_critical.k_min = o->tc_k;
    }
    if (o->threads >= 0)
        def.worker_count = o->threads;
    if (o->pin >= 0)
        def.pinning = (col_thread_pinning)o->pin;
    def.body_capacity = (uint32_t)sc->body_count;
    col_status st = col_world_create(&def, world);
    if (st != COL_OK)
        return col_failed(NULL, st, "col_world_create");
    for (int s = 0; s < sc->shape_count; s++) {
        const bench_shape *sh = &sc->shapes[s];
        char what[160];
        switch (sh->kind) {
        case BENCH_SHAPE_SPHERE:
            st = col_shape_create_sphere(*world, sh->core_radius, &shape_ids[s]);
            snprintf(what, sizeof what, "col_shape_create_sphere (scene shape %d, radius %.17g)", s,
                     sh->core_radius);
            break;
        case BENCH_SHAPE_CAPSULE:
            st = col_shape_create_capsule(*world, sh->half_height, sh->core_radius, &shape_ids[s]);
            snprintf(what, sizeof what, "col_shape_create_capsule (scene shape %d, half height %.17g, radius %.17g)",
                     s, sh->half_height, sh->core_radius);
            break;
        case BENCH_SHAPE_HULL:
            st = col_shape_create_convex(*world, sh->vertices, sh->vertex_count, &shape_ids[s]);
            snprintf(what, sizeof what, "col_shape_create_convex (scene shape %d, %d points)", s, sh->vertex_count);
            break;
        case BENCH_SHAPE_MESH: {
            col_mesh_def md = col_default_mesh_def();
            md.vertices = sh->vertices;
            md.vertex_count = sh->vertex_count;
            md.indices = sh->indices;
            md.triangle_count = sh->triangle_count;
            st = col_shape_create_mesh(*world, &md, &shape_ids[s]);
            snprintf(what, sizeof what, "col_shape_create_mesh (scene shape %d, %d vertices, %d triangles)", s,
                     sh->vertex_count, sh->triangle_count);
            break;
        }
        default:
            fprintf(stderr, PROG ": scene shape %d has a kind this program does not know\n", s);
            return false;
        }
        if (st != COL_OK)
            return col_failed(*world, st, what);
    }
    return true;
}

/* A frame's poses for col_body_set_poses_fn: bench_scene_pose reads the scene only, so
 * the world's workers may evaluate it concurrently. Item k is scene body moving[k]. */
typedef struct pose_ctx {
    const bench_scene *sc;
    const int *moving;
    int frame;
} pose_ctx;

static col_transform scene_pose_fn(int index, void *ctx)
{
    const pose_ctx *pc = ctx;
    return bench_scene_pose(pc->sc, pc->moving[index], pc->frame);
}

/* Whether a scene body stays where it is: v = w = 0, so its closed-form pose is the same
 * doubles at every frame (docs/scenes.md). */
static bool body_still(const bench_body *bd)
{
    for (int k = 0; k < 3; k++)
        if (bd->v[k] != 0.0 || bd->w[k] != 0.0)
            return false;
    return true;
}

typedef struct still_body {
    int b;         /* scene index */
    col_vec3 p;    /* position, at every frame */
    double r;      /* the shape's radius */
} still_body;

static int still_cmp(const void *pa, const void *pb)
{
    const still_body *a = pa, *b = pb;
    return (a->p.x > b->p.x) - (a->p.x < b->p.x);
}

/* The colliding pairs of two still bodies, sorted by (i, j), into *out: they never change,
 * and the world never pairs two static bodies. Every body lies within its shape's radius
 * r of its position (up to the rounding of R x + p); a sweep along x over those spheres,
 * widened by a relative 1e-3 and 1e-9 L so that rounding cannot drop a pair, names the
 * candidates, and col_query_overlap (the backend's exact test) decides each. */
static bool still_pairs(const bench_scene *sc, col_world *world, const col_shape_id *shape_ids, col_backend backend,
                        const bool *still, pair_vec *out)
{
    int k = 0;
    for (int b = 0; b < sc->body_count; b++)
        k += still[b];
    out->n = 0;
    if (k < 2)
        return true;
    still_body *sb = malloc((size_t)k * sizeof *sb);
    if (!sb) {
        fprintf(stderr, PROG ": out of memory for %d still bodies\n", k);
        return false;
    }
    double rmax = 0.0, slack = 1e-9 * sc->room;
    k = 0;
    for (int b = 0; b < sc->body_count; b++)
        if (still[b]) {
            sb[k] = (still_body){b, bench_scene_pose(sc, b, 0).p, sc->shapes[sc->bodies[b].shape].radius};
            rmax = fmax(rmax, sb[k].r);
            k++;
        }
    qsort(sb, (size_t)k, sizeof *sb, still_cmp);
    bool ok = true;
    for (int a = 0; a < k && ok; a++)
        for (int c = a + 1; c < k && sb[c].p.x - sb[a].p.x <= (sb[a].r + rmax) * 1.001 + slack; c++) {
            double reach = (sb[a].r + sb[c].r) * 1.001 + slack;
            col_vec3 d = col_vec3_make(sb[c].p.x - sb[a].p.x, sb[c].p.y - sb[a].p.y, sb[c].p.z - sb[a].p.z);
            if (d.x * d.x + d.y * d.y + d.z * d.z > reach * reach)
                continue;
            int i = sb[a].b < sb[c].b ? sb[a].b : sb[c].b, j = sb[a].b < sb[c].b ? sb[c].b : sb[a].b;
            bool hit = false;
            col_status st = col_query_overlap(world, shape_ids[sc->bodies[i].shape], bench_scene_pose(sc, i, 0),
                                              shape_ids[sc->bodies[j].shape], bench_scene_pose(sc, j, 0), backend,
                                              &hit);
            if (st != COL_OK) {
                char what[80];
                snprintf(what, sizeof what, "col_query_overlap (still bodies %d, %d)", i, j);
                ok = col_failed(world, st, what);
            } else if (hit && (ok = pairs_reserve(out, out->n + 1))) {
                out->v[out->n].i = (uint32_t)i;
                out->v[out->n].j = (uint32_t)j;
                out->v[out->n].s = 0.0; /* still: touching at every instant */
                out->n++;
            }
        }
    free(sb);
    if (ok && out->n > 1) /* out->v is NULL while no still pair touches: qsort wants a pointer */
        qsort(out->v, out->n, sizeof *out->v, pair_cmp);
    return ok;
}

/* out = the sorted union of the sorted lists a and b (disjoint: b's pairs are static-static,
 * which the world never reports). */
static bool merge_pairs(const pair_vec *a, const pair_vec *b, pair_vec *out)
{
    if (!pairs_reserve(out, a->n + b->n))
        return false;
    size_t x = 0, y = 0, n = 0;
    while (x < a->n || y < b->n)
        out->v[n++] = y == b->n || (x < a->n && pair_cmp(&a->v[x], &b->v[y]) < 0) ? a->v[x++] : b->v[y++];
    out->n = n;
    return true;
}

/* Normal run: bodies in a world, one col_world_update per frame. */
static bool run_world(const bench_scene *sc, const options *o, col_world *world,
                      const col_shape_id *shape_ids, col_backend backend, int64_t t_setup, FILE *dump,
                      FILE *toi, FILE *rays_dump, frame_log *log, results *res)
{
    const int n = sc->body_count;
    bool ok = false;
    long box_only = 0; /* --ccd: pairs with a mesh answered by swept boxes only */
    size_t cap = n > 0 ? (size_t)n : 1;
    col_body_id *ids = calloc(cap, sizeof *ids);
    col_body_id *moving_ids = calloc(cap, sizeof *moving_ids);
    int *moving = calloc(cap, sizeof *moving);  /* moving body k -> scene body index */
    bool *still = calloc(cap, sizeof *still);
    uint32_t *scene_of = NULL; /* body id.index1 -> scene body index */
    col_recorder *rec = NULL;
    pair_vec pv = {0}, sp = {0}, all = {0};
    int moving_count = 0;
    if (!ids || !moving_ids || !moving || !still) {
        fprintf(stderr, PROG ": out of memory for %d bodies\n", n);
        goto done;
    }
    uint32_t max_index1 = 0;
    for (int b = 0; b < n; b++) {
        col_body_def bd = col_default_body_def();
        bd.shape = shape_ids[sc->bodies[b].shape];
        bd.pose = bench_scene_pose(sc, b, 0);
        still[b] = !o->no_static && body_still(&sc->bodies[b]);
        bd.is_static = still[b];
        bd.continuous = o->ccd;
        if (o->declared_speeds && !still[b]) {
            const double *v = sc->bodies[b].v, *w = sc->bodies[b].w;
            bd.max_linear_speed = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
            bd.max_angular_speed = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
        }
        col_status st = col_body_create(world, &bd, &ids[b]);
        if (st != COL_OK) {
            char what[64];
            snprintf(what, sizeof what, "col_body_create (scene body %d)", b);
            col_failed(world, st, what);
            goto done;
        }
        if (ids[b].index1 > max_index1)
            max_index1 = ids[b].index1;
        if (!still[b]) {
            moving_ids[moving_count] = ids[b];
            moving[moving_count++] = b;
        }
    }
    if (!still_pairs(sc, world, shape_ids, backend, still, &sp))
        goto done;
    scene_of = malloc(((size_t)max_index1 + 1) * sizeof *scene_of);
    if (!scene_of) {
        fprintf(stderr, PROG ": out of memory for the body map\n");
        goto done;
    }
    for (size_t k = 0; k <= max_index1; k++)
        scene_of[k] = UNMAPPED;
    /* The world sorts its pairs by index1. When index1 grows with the scene index (a fresh
     * world hands out slots in order) that is already the (i, j) order the hash needs. */
    bool monotone = true;
    for (int b = 0; b < n; b++) {
        scene_of[ids[b].index1] = (uint32_t)b;
        if (b > 0 && ids[b].index1 <= ids[b - 1].index1)
            monotone = false;
    }
    res->setup_ms = ms_since(t_setup);
    if (o->record_path) {
        col_status st = col_recorder_open(world, o->record_path, &rec);
        if (st != COL_OK) {
            col_failed(world, st, "col_recorder_open");
            goto done;
        }
    }

    for (int f = 0; f < res->frames; f++) {
        int64_t t0 = now_ns(), c0 = cpu_ns();
        /* The poses of every body (docs/scenes.md, "The motion"), evaluated and checked on the
         * world's workers: item b is scene body b. */
        pose_ctx pc = {sc, moving, f};
        col_status st = col_body_set_poses_fn(world, moving_ids, moving_count, scene_pose_fn, &pc);
        if (st != COL_OK) {
            char what[64];
            snprintf(what, sizeof what, "col_body_set_poses_fn (frame %d)", f);
            col_failed(world, st, what);
            goto done;
        }
        st = col_world_update(world);
        if (st != COL_OK) {
            char what[48];
            snprintf(what, sizeof what, "col_world_update (frame %d)", f);
            col_failed(world, st, what);
            goto done;
        }
        col_pair_events ev = col_world_get_pair_events(world);
        if (ev.pair_count < 0 || (ev.pair_count > 0 && !ev.pairs)) {
            fprintf(stderr, PROG ": frame %d: the world reports %d pairs without a list\n", f,
                    ev.pair_count);
            goto done;
        }
        /* --ccd: from frame 1 on, the pairs that touched since the last frame */
        bool cont = o->ccd && f > 0;
        int count = cont ? ev.continuous_count : ev.pair_count;
        if (!pairs_reserve(&pv, (size_t)count))
            goto done;
        pv.n = 0;
        for (int t = 0; t < count; t++) {
            const col_pair *p = cont ? &ev.continuous[t].pair : &ev.pairs[t];
            uint32_t a = p->a.index1, b = p->b.index1;
            uint32_t i = a <= max_index1 ? scene_of[a] : UNMAPPED;
            uint32_t j = b <= max_index1 ? scene_of[b] : UNMAPPED;
            if (i == UNMAPPED || j == UNMAPPED || i == j) {
                fprintf(stderr, PROG ": frame %d: the world reports a pair of unknown bodies "
                                "(index1 %u, %u)\n",
                        f, (unsigned)a, (unsigned)b);
                goto done;
            }
            pv.v[pv.n].i = i < j ? i : j;
            pv.v[pv.n].j = i < j ? j : i;
            pv.v[pv.n].s = cont ? ev.continuous[t].s : 0.0;
            box_only += cont && ev.continuous[t].swept_box_only;
            pv.n++;
        }
        if (!monotone)
            qsort(pv.v, pv.n, sizeof *pv.v, pair_cmp);
        const pair_vec *frame_pairs = &pv;
        if (sp.n > 0) {
            if (!merge_pairs(&pv, &sp, &all))
                goto done;
            frame_pairs = &all;
        }
        res->hash = fold_frame(res->hash, f, frame_pairs);
        res->pairs += frame_pairs->n;
        res->frame_ms[f] = ms_since(t0);
        res->cpu_ms += (double)(cpu_ns() - c0) * 1e-6;

        /* Instrumentation and output stay outside the timed region. */
        col_counters c;
        st = col_world_get_counters(world, &c);
        if (st != COL_OK) {
            col_failed(world, st, "col_world_get_counters");
            goto done;
        }
        res->narrow_calls += (unsigned long long)c.narrow_calls;
        res->woken_early += (unsigned long long)c.woken_early;
        if (o->rays > 0 && !bench_rays_frame(world, sc->room, f, o->rays, scene_of, max_index1, rays_dump,
                                             &res->rays_sync_ms[f], &res->rays_ms[f], &res->rays_cpu_ms[f]))
            goto done;
        if (o->rays > 0) res->rays_ms[f] += res->rays_sync_ms[f];
        if (!dump_frame(dump, toi, f, frame_pairs) ||
            !frame_log_frame(log, f, res->frame_ms[f], frame_pairs->n, (unsigned long long)c.narrow_calls, now_ns()))
            goto done;
        if (rec && (st = col_recorder_frame(rec)) != COL_OK) {
            col_failed(world, st, "col_recorder_frame");
            goto done;
        }
    }
    ok = true;
    if (box_only > 0)
        fprintf(stderr, PROG ": --ccd: %ld reported pairs with a mesh were decided by swept boxes only "
                        "(no time of impact for meshes yet: docs/ccd.md)\n", box_only);
done:
    if (rec && col_recorder_close(rec) != COL_OK && ok) {
        col_failed(world, COL_ERR_IO, "col_recorder_close");
        ok = false;
    }
    free(pv.v);
    free(sp.v);
    free(all.v);
    free(scene_of);
    free(still);
    free(moving);
    free(moving_ids);
    free(ids);
    return ok;
}

/* --brute: no broad phase, no world update; every pair i < j through col_query_overlap with
 * the same poses, so its pairs are the reference for the normal run. */
/* One pair of --brute: the overlap at frame f, or with --ccd from frame 1 on the time of
 * impact from frame f-1 to f. */
static bool brute_pair(col_world *world, const col_shape_id *shape_of, const col_transform *prev,
                       const col_transform *pose, int i, int j, int f, bool ccd, col_backend backend, bool *hit,
                       double *s)
{
    col_status st;
    *s = 0.0;
    if (ccd && f > 0) {
        col_toi_input in = {shape_of[i], shape_of[j], prev[i], pose[i], prev[j], pose[j]};
        col_toi_output out;
        st = col_toi(world, &in, &out);
        *hit = out.hit;
        *s = out.s;
    } else {
        st = col_query_overlap(world, shape_of[i], pose[i], shape_of[j], pose[j], backend, hit);
    }
    if (st == COL_OK)
        return true;
    char what[80];
    snprintf(what, sizeof what, "%s (bodies %d, %d, frame %d)", ccd && f > 0 ? "col_toi" : "col_query_overlap", i,
             j, f);
    return col_failed(world, st, what);
}

static bool run_brute(const bench_scene *sc, const options *o, col_world *world, const col_shape_id *shape_ids,
                      col_backend backend, int64_t t_setup, FILE *dump, FILE *toi, frame_log *log,
                      results *res)
{
    const int n = sc->body_count;
    bool ok = false;
    col_transform *pose = malloc((n > 0 ? (size_t)n : 1) * sizeof *pose);
    col_transform *prev = malloc((n > 0 ? (size_t)n : 1) * sizeof *prev);
    col_shape_id *shape_of = malloc((n > 0 ? (size_t)n : 1) * sizeof *shape_of);
    pair_vec pv = {0};
    if (!pose || !prev || !shape_of) {
        fprintf(stderr, PROG ": out of memory for %d bodies\n", n);
        goto done;
    }
    for (int b = 0; b < n; b++)
        shape_of[b] = shape_ids[sc->bodies[b].shape];
    res->setup_ms = ms_since(t_setup);

    for (int f = 0; f < res->frames; f++) {
        int64_t t0 = now_ns();
        for (int b = 0; b < n; b++) {
            prev[b] = f > 0 ? pose[b] : bench_scene_pose(sc, b, f);
            pose[b] = bench_scene_pose(sc, b, f);
        }
        pv.n = 0;
        const double all = (double)n * (double)(n - 1) / 2;
        for (int i = 0; i < n; i++) {
            /* a frame of a large scene takes long: say how far it got (rows before i
             * hold i (n - 1) - i (i - 1) / 2 of its pairs) */
            frame_log_within(log, f, ((double)i * (n - 1) - (double)i * (i - 1) / 2) / all, now_ns());
            for (int j = i + 1; j < n; j++) {
                bool hit = false;
                double s = 0.0;
                if (!brute_pair(world, shape_of, prev, pose, i, j, f, o->ccd, backend, &hit, &s))
                    goto done;
                if (hit) {
                    if (!pairs_reserve(&pv, pv.n + 1))
                        goto done;
                    pv.v[pv.n].i = (uint32_t)i;
                    pv.v[pv.n].j = (uint32_t)j;
                    pv.v[pv.n].s = s;
                    pv.n++;
                }
            }
        }
        /* The loops already visit pairs in increasing (i, j) order. */
        res->hash = fold_frame(res->hash, f, &pv);
        res->pairs += pv.n;
        res->frame_ms[f] = ms_since(t0);

        unsigned long long calls = (unsigned long long)n * (unsigned long long)(n > 0 ? n - 1 : 0) / 2;
        res->narrow_calls += calls;
        if (!dump_frame(dump, toi, f, &pv) || !frame_log_frame(log, f, res->frame_ms[f], pv.n, calls, now_ns()))
            goto done;
    }
    ok = true;
done:
    free(pv.v);
    free(shape_of);
    free(prev);
    free(pose);
    return ok;
}

static int dbl_cmp(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

/* Nearest-rank percentile of sorted values: the ceil(q * n)-th smallest (docs/scenes.md). */
static double percentile(const double *sorted, int n, double q)
{
    if (n <= 0)
        return 0.0;
    long k = (long)ceil(q * n) - 1;
    if (k < 0)
        k = 0;
    if (k >= n)
        k = n - 1;
    return sorted[k];
}

static bool print_report(const char *scene_name, const char *engine, const char *backend_name,
                         int bodies, const results *res)
{
    double *sorted = malloc((res->frames > 0 ? (size_t)res->frames : 1) * sizeof *sorted);
    if (!sorted) {
        fprintf(stderr, PROG ": out of memory\n");
        return false;
    }
    double total_ms = 0.0;
    for (int f = 0; f < res->frames; f++) {
        sorted[f] = res->frame_ms[f];
        total_ms += res->frame_ms[f];
    }
    qsort(sorted, (size_t)res->frames, sizeof *sorted, dbl_cmp);
    double rays_med = 0.0, sync_med = 0.0, cpu_med = 0.0;
    if (res->rays > 0) {
        double *r = malloc((size_t)res->frames * 3 * sizeof *r);
        if (!r) {
            free(sorted);
            fprintf(stderr, PROG ": out of memory\n");
            return false;
        }
        int F = res->frames;
        for (int f = 0; f < F; f++)
            r[f] = res->rays_ms[f], r[F + f] = res->rays_sync_ms[f], r[2 * F + f] = res->rays_cpu_ms[f];
        for (int k = 0; k < 3; k++) qsort(r + k * F, (size_t)F, sizeof *r, dbl_cmp);
        rays_med = percentile(r, F, 0.5);
        sync_med = percentile(r + F, F, 0.5);
        cpu_med = percentile(r + 2 * F, F, 0.5);
        free(r);
    }
    printf("scene=%s engine=%s bodies=%d frames=%d pairs=%llu pairhash=0x%016llx "
           "frame_ms_median=%.4f frame_ms_p99=%.4f total_s=%.3f setup_ms=%.2f backend=%s "
           "narrow_calls=%llu workers=%d schedule=%s speeds=%s stalls=%d woken_early=%llu",
           scene_name, engine, bodies, res->frames, res->pairs, (unsigned long long)res->hash,
           percentile(sorted, res->frames, 0.5), percentile(sorted, res->frames, 0.99),
           total_ms / 1000.0, res->setup_ms, backend_name, res->narrow_calls, res->workers, res->schedule,
           res->speeds, res->stalls, res->woken_early);
    if (res->cpu_ms > 0) printf(" frame_cpu_ms_mean=%.4f", res->cpu_ms / res->frames);
    if (res->world_bytes > 0) printf(" world_bytes=%llu", res->world_bytes);
    if (res->rays > 0)
        printf(" rays=%d rays_ms_median=%.4f rays_sync_ms_median=%.4f rays_cpu_ms_median=%.4f", res->rays, rays_med,
               sync_med, cpu_med);
    printf("\n");
    free(sorted);
    return fflush(stdout) == 0;
}

/* The scene's name: the file name without directory and without a final ".scene". */
static void scene_name_of(const char *path, char *out, size_t size)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    snprintf(out, size, "%s", base);
    size_t len = strlen(out);
    if (len > 6 && strcmp(out + len - 6, ".scene") == 0)
        out[len - 6] = '\0';
}

int main(int argc, char **argv)
{
    options o;
    int rc = parse_options(argc, argv, &o);
    if (rc >= 0)
        return rc;
    if (o.list_backends) {
        for (int k = 0; k < (int)COL_BACKEND_COUNT; k++) {
            const char *n = col_backend_name((col_backend)k);
            if (n && strcmp(n, "default") != 0)
                printf("%s\n", n);
        }
        return fflush(stdout) == 0 ? 0 : 1;
    }
    if (o.topology) {
        int need = col_thread_pool_describe_topology(NULL, 0, o.threads > 0 ? o.threads : 0);
        char *text = need >= 0 ? malloc((size_t)need + 1) : NULL;
        if (!text) {
            fprintf(stderr, PROG ": hwloc could not load the topology\n");
            return 1;
        }
        col_thread_pool_describe_topology(text, (size_t)need + 1, o.threads > 0 ? o.threads : 0);
        fputs(text, stdout);
        free(text);
        return 0;
    }
    col_backend backend;
    if (!find_backend(o.backend_name, &backend))
        return 2;

    FILE *fp = fopen(o.scene_path, "r");
    if (!fp) {
        fprintf(stderr, PROG ": cannot open scene '%s': %s\n", o.scene_path, strerror(errno));
        return 2;
    }
    bench_scene sc;
    char err[512];
    bool loaded = bench_scene_load(fp, o.scene_path, &sc, err, sizeof err);
    fclose(fp);
    if (!loaded) {
        fprintf(stderr, PROG ": %s\n", err);
        return 1;
    }

    rc = 1;
    col_world *world = NULL;
    FILE *dump = NULL, *toi = NULL, *rays_dump = NULL;
    frame_log log = {0};
    results res = {0};
    res.hash = FNV_OFFSET;
    /* --brute uses neither the world's schedule nor the bodies' speeds */
    res.schedule = o.brute ? "none" : o.schedule_every ? "every" : "ttc";
    res.speeds = o.brute ? "none" : o.declared_speeds ? "declared" : "derived";
    res.frames = o.frames > 0 && o.frames < sc.frames ? o.frames : sc.frames;
    res.frame_ms = calloc((size_t)res.frames, sizeof *res.frame_ms);
    col_shape_id *shape_ids = calloc(sc.shape_count > 0 ? (size_t)sc.shape_count : 1,
                                     sizeof *shape_ids);
    if (!res.frame_ms || !shape_ids) {
        fprintf(stderr, PROG ": out of memory\n");
        goto done;
    }
    res.rays = o.rays;
    if (o.rays > 0) {
        res.rays_ms = calloc((size_t)res.frames, sizeof *res.rays_ms);
        res.rays_sync_ms = calloc((size_t)res.frames, sizeof *res.rays_sync_ms);
        res.rays_cpu_ms = calloc((size_t)res.frames, sizeof *res.rays_cpu_ms);
        if (!res.rays_ms || !res.rays_sync_ms || !res.rays_cpu_ms) {
            fprintf(stderr, PROG ": out of memory\n");
            goto done;
        }
    }
    if (o.rays_dump) {
        rays_dump = fopen(o.rays_dump, "w");
        if (!rays_dump) {
            fprintf(stderr, PROG ": cannot write '%s': %s\n", o.rays_dump, strerror(errno));
            goto done;
        }
    }
    if (o.dump_path) {
        dump = fopen(o.dump_path, "w");
        if (!dump) {
            fprintf(stderr, PROG ": cannot write '%s': %s\n", o.dump_path, strerror(errno));
            goto done;
        }
    }

    if (o.toi_path) {
        toi = fopen(o.toi_path, "w");
        if (!toi) {
            fprintf(stderr, PROG ": cannot write '%s': %s\n", o.toi_path, strerror(errno));
            goto done;
        }
    }

    /* setup_ms covers the world, its shapes (hull building) and bodies, as the peers'
     * set-up does; parsing the text file is not Colibri's work and is left out. */
    int64_t t_setup = now_ns();
    if (!setup_world(&sc, &o, backend, &world, shape_ids))
        goto done;
    col_counters c0;
    if (col_world_get_counters(world, &c0) == COL_OK)
        res.workers = c0.workers;
    if (!frame_log_open(&log, o.csv_path, res.frames, now_ns()))
        goto done;
    bool ran = o.brute ? run_brute(&sc, &o, world, shape_ids, backend, t_setup, dump, toi, &log, &res)
                       : run_world(&sc, &o, world, shape_ids, backend, t_setup, dump, toi, rays_dump, &log, &res);
    bool logged = frame_log_close(&log);
    if (!ran || !logged)
        goto done;
    if (col_world_get_counters(world, &c0) == COL_OK)
        res.stalls = c0.worker_stalls, res.world_bytes = c0.bytes_in_use;
    if (rays_dump) {
        int bad = fclose(rays_dump);
        rays_dump = NULL;
        if (bad) {
            fprintf(stderr, PROG ": writing '%s' failed: %s\n", o.rays_dump, strerror(errno));
            goto done;
        }
    }
    if (dump) {
        int bad = fclose(dump);
        dump = NULL;
        if (bad) {
            fprintf(stderr, PROG ": writing '%s' failed: %s\n", o.dump_path, strerror(errno));
            goto done;
        }
    }
    if (toi) {
        int bad = fclose(toi);
        toi = NULL;
        if (bad) {
            fprintf(stderr, PROG ": writing '%s' failed: %s\n", o.toi_path, strerror(errno));
            goto done;
        }
    }

    char name[256];
    if (o.name)
        snprintf(name, sizeof name, "%s", o.name);
    else
        scene_name_of(o.scene_path, name, sizeof name);
    const char *bname = col_backend_name(backend);
    if (!print_report(name, o.brute ? "colibri-brute" : "colibri", bname ? bname : "default",
                      sc.body_count, &res))
        goto done;
    rc = 0;
done:
    frame_log_close(&log);
    if (dump)
        fclose(dump);
    if (toi)
        fclose(toi);
    if (rays_dump)
        fclose(rays_dump);
    col_world_destroy(world);
    free(res.rays_ms);
    free(res.rays_sync_ms);
    free(res.rays_cpu_ms);
    free(shape_ids);
    free(res.frame_ms);
    bench_scene_free(&sc);
    return rc;
}
