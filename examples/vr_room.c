/* SPDX-License-Identifier: MIT */
/* colibri-vr-room: a VR room full of props, the main Colibri demo.
 *
 *   colibri-vr-room [--threads N] [SEED]
 *   colibri-vr-room --help
 *
 * A few hundred moving bodies (ellipsoids, rods, plates, boxes as hulls; balls and
 * capsules, the hands' and tools' shapes; open bowls as triangle meshes; twenty-one shapes
 * shared between them) fly through
 * a room, bouncing off the walls and spinning, over a floor of static slabs with a few
 * static tables (compound shapes: a top and four legs) and a static sculpture (a triangle
 * mesh); some props are open mesh bowls. Bodies are removed and added while the room runs
 * and one pair is switched off for a while with col_pair_set_enabled. Every REPORT_EVERY
 * frames one table row shows what col_world_update found (a legend under the header says
 * what each column counts); lines starting with '>' show, the first time each happens,
 * what the calls do: events, removals and their ended pairs (named through the pair
 * records' user data, since a removed body's id is stale), the disabled pair. A summary
 * closes the run.
 *
 * There is no physics here: bodies pass through each other and through the tables. The
 * point is to show the detection side (pair lists, began/ended events, counters) on a
 * scene that changes every frame. The motion is closed-form or simple reflection driven by
 * one seeded generator, so the same seed gives the same run on every machine.
 * Exit status: 0 ok, 1 a Colibri error, 2 a bad command line. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "colibri/colibri.h"

/* M_PI is not part of C11, and _POSIX_C_SOURCE alone does not expose it. */
#define PI 3.14159265358979323846

#define DEFAULT_SEED 20240611u
#define FRAMES 3000
#define DT (1.0 / 90.0)     /* a 90 Hz headset frame, in seconds */
#define START_BODIES 300
#define CHURN_EVERY 50      /* frames between remove/add rounds */
#define CHURN_MAX 5         /* at most this many removed and this many added per round */
#define REPORT_EVERY 250    /* frames per table row */
#define TOGGLE_FRAME 1000   /* from here on, disable the first suitable colliding pair */
#define TOGGLE_LENGTH 500   /* ... and enable it again this many frames later */

/* The room: x and z in [-ROOM_HALF, ROOM_HALF], y from the floor (0) to ROOM_HEIGHT.
 * Sized so that a few hundred half-metre props are sparse: most frames only a few dozen
 * bounding boxes overlap, which keeps the exact (slow) reference narrow phase cheap. */
#define ROOM_HALF 6.0
#define ROOM_HEIGHT 3.0
#define SLAB_THICKNESS 0.1

/* ---- deterministic random numbers ---- */

/* SplitMix64: tiny, fast and the same on every platform, unlike rand(). */
typedef struct rng {
    uint64_t state;
} rng;

static uint64_t rng_next(rng *r)
{
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Uniform in [0, 1): the top 53 bits fill a double's mantissa exactly. */
static double rng_unit(rng *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }

static double rng_range(rng *r, double lo, double hi) { return lo + (hi - lo) * rng_unit(r); }

/* Uniform in [0, n); the modulo bias is irrelevant for n this small. */
static int rng_int(rng *r, int n) { return (int)(rng_next(r) % (uint64_t)n); }

/* A uniformly distributed unit vector (Archimedes: z uniform, angle uniform). */
static col_vec3 rng_direction(rng *r)
{
    double z = rng_range(r, -1.0, 1.0);
    double phi = rng_range(r, 0.0, 2.0 * PI);
    double s = sqrt(1.0 - z * z);
    return col_vec3_make(s * cos(phi), s * sin(phi), z);
}

/* ---- quaternions (the library takes them, the app builds them) ---- */

/* Renormalised so rounding never drifts past the world's quaternion tolerance. */
static col_quat quat_normalize(col_quat q)
{
    double n = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    col_quat r = {q.x / n, q.y / n, q.z / n, q.w / n};
    return r;
}

/* Shoemake's uniform random rotation. */
static col_quat rng_quat(rng *r)
{
    double u1 = rng_unit(r), u2 = rng_range(r, 0.0, 2.0 * PI), u3 = rng_range(r, 0.0, 2.0 * PI);
    double a = sqrt(1.0 - u1), b = sqrt(u1);
    col_quat q = {a * sin(u2), a * cos(u2), b * sin(u3), b * cos(u3)};
    return quat_normalize(q);
}

/* ---- error handling ---- */

/* Every col_* status is checked: on error say which call failed, why (the status and the
 * world's sentence) and stop. A demo that limps on after an error teaches the wrong habit. */
static void check_at(col_world *world, col_status st, const char *what, int line)
{
    if (st == COL_OK)
        return;
    fprintf(stderr, "colibri-vr-room: line %d: %s failed: %s: %s\n", line, what,
            col_status_string(st), world ? col_world_last_error(world) : "(no world)");
    col_world_destroy(world);
    exit(1);
}
#define CHECK(world, call) check_at((world), (call), #call, __LINE__)

/* ---- shapes ---- */

enum { KIND_ELLIPSOID, KIND_ROD, KIND_PLATE, KIND_BOX, KIND_BALL, KIND_CAPSULE, KIND_BOWL, KIND_COUNT };

/* Not const: these travel through col_body_def.user_data, a void *. */
static char kind_names[KIND_COUNT][12] = {"ellipsoid", "rod", "plate", "box", "ball", "capsule", "bowl"};

/* Shapes per kind; each gets its own size and point count so the hulls differ. */
#define SHAPES_PER_KIND 3
#define MAX_POINTS 64

typedef struct prop_shape {
    col_shape_id id;
    int kind;
    double radius; /* from col_shape_get_info: how far the hull reaches from the origin */
} prop_shape;

/* Points on the surface of an ellipsoid with semi-axes (1, 0.6, 0.4) * scale / 2: every
 * one is a hull vertex, and a few dozen give a smooth but cheap hull. */
static int points_ellipsoid(rng *r, double scale, int count, col_vec3 *out)
{
    for (int i = 0; i < count; i++) {
        col_vec3 d = rng_direction(r);
        out[i] = col_vec3_make(0.5 * scale * d.x, 0.3 * scale * d.y, 0.2 * scale * d.z);
    }
    return count;
}

/* A rod 1 x 0.12 x 0.12 (times scale) along x: two rings of `sides` points at the ends plus
 * one tip point beyond each end, a prism with pointed caps. */
static int points_rod(rng *r, double scale, int sides, col_vec3 *out)
{
    double phase = rng_range(r, 0.0, 2.0 * PI);
    int n = 0;
    for (int end = -1; end <= 1; end += 2) {
        for (int i = 0; i < sides; i++) {
            double a = phase + 2.0 * PI * i / sides;
            out[n++] = col_vec3_make(end * 0.44 * scale, 0.06 * scale * cos(a), 0.06 * scale * sin(a));
        }
        out[n++] = col_vec3_make(end * 0.5 * scale, 0.0, 0.0);
    }
    return n;
}

/* A plate 1 x 1 x 0.1 (times scale): a regular polygon, top and bottom. */
static int points_plate(rng *r, double scale, int sides, col_vec3 *out)
{
    double phase = rng_range(r, 0.0, 2.0 * PI);
    int n = 0;
    for (int i = 0; i < sides; i++) {
        double a = phase + 2.0 * PI * i / sides;
        for (int top = -1; top <= 1; top += 2)
            out[n++] = col_vec3_make(0.5 * scale * cos(a), 0.5 * scale * sin(a), top * 0.05 * scale);
    }
    return n;
}

/* A box of half extents (hx, hy, hz): the 8 corners plus `extra` random points on its faces.
 * The face points are coplanar with the faces, so the hull drops them: a realistic input
 * (a scanned or tessellated mesh) whose hull is still just the 8 corners. */
static int points_box(rng *r, double hx, double hy, double hz, int extra, col_vec3 *out)
{
    int n = 0;
    for (int i = 0; i < 8; i++)
        out[n++] = col_vec3_make(i & 1 ? hx : -hx, i & 2 ? hy : -hy, i & 4 ? hz : -hz);
    for (int i = 0; i < extra; i++) {
        double u = rng_range(r, -1.0, 1.0), v = rng_range(r, -1.0, 1.0);
        double side = rng_int(r, 2) ? 1.0 : -1.0;
        switch (rng_int(r, 3)) {
        case 0: out[n++] = col_vec3_make(side * hx, u * hy, v * hz); break;
        case 1: out[n++] = col_vec3_make(u * hx, side * hy, v * hz); break;
        default: out[n++] = col_vec3_make(u * hx, v * hy, side * hz); break;
        }
    }
    return n;
}

/* A triangle mesh on a latitude-longitude grid of the unit sphere, each vertex at
 * radius(theta, phi) * scale, rows 0 .. rows_used of nlat (all of them: closed; fewer: an
 * open cap, a bowl). The pole rows give zero-area triangles: a mesh keeps them (docs/meshes.md). */
static void make_grid_mesh(col_world *world, double scale, int nlat, int nlon, int rows_used, double bump,
                           col_shape_id *out)
{
    int nv = (rows_used + 1) * nlon, nt = 2 * rows_used * nlon;
    col_vec3 *v = malloc((size_t)nv * sizeof *v);
    uint32_t *t = malloc((size_t)nt * 3 * sizeof *t);
    if (v == NULL || t == NULL) {
        fprintf(stderr, "colibri-vr-room: out of memory\n");
        exit(1);
    }
    for (int i = 0; i <= rows_used; i++)
        for (int j = 0; j < nlon; j++) {
            double th = PI * i / nlat, ph = 2.0 * PI * j / nlon;
            double rr = scale * (1.0 + bump * sin(5.0 * th) * cos(3.0 * ph));
            v[i * nlon + j] = col_vec3_make(rr * sin(th) * cos(ph), -rr * cos(th), rr * sin(th) * sin(ph));
        }
    int k = 0;
    for (int i = 0; i < rows_used; i++)
        for (int j = 0; j < nlon; j++) {
            uint32_t a = (uint32_t)(i * nlon + j), b = (uint32_t)(i * nlon + (j + 1) % nlon);
            uint32_t c = a + (uint32_t)nlon, d = b + (uint32_t)nlon;
            const uint32_t tri[6] = {a, b, d, a, d, c};
            memcpy(&t[3 * k], tri, sizeof tri);
            k += 2;
        }
    col_mesh_def def = col_default_mesh_def();
    def.vertices = v;
    def.vertex_count = nv;
    def.indices = t;
    def.triangle_count = nt;
    CHECK(world, col_shape_create_mesh(world, &def, out)); /* copies both arrays */
    free(v);
    free(t);
}

static prop_shape make_prop_shape(col_world *world, rng *r, int kind, int variant)
{
    col_vec3 pts[MAX_POINTS];
    int n = 0;
    /* Sizes from 0.35 m to 0.65 m: hand-held props, small against the room. */
    double scale = 0.35 + 0.15 * variant;
    switch (kind) {
    case KIND_ELLIPSOID: n = points_ellipsoid(r, scale, 16 + 8 * variant, pts); break;
    case KIND_ROD: n = points_rod(r, scale, 6 + 2 * variant, pts); break;
    case KIND_PLATE: n = points_plate(r, scale, 6 + 3 * variant, pts); break;
    case KIND_BALL:
    case KIND_CAPSULE:
    case KIND_BOWL: break;
    default:
        n = points_box(r, 0.5 * scale, 0.35 * scale, 0.25 * scale, 12 + 6 * variant, pts);
        break;
    }
    prop_shape s = {{0, 0, 0}, kind, 0.0};
    if (kind == KIND_BALL) CHECK(world, col_shape_create_sphere(world, 0.4 * scale, &s.id));
    else if (kind == KIND_CAPSULE) CHECK(world, col_shape_create_capsule(world, 0.35 * scale, 0.12 * scale, &s.id));
    else if (kind == KIND_BOWL) make_grid_mesh(world, 0.5 * scale, 16 + 4 * variant, 24 + 8 * variant, 10 + 2 * variant, 0.05, &s.id);
    else CHECK(world, col_shape_create_convex(world, pts, n, &s.id));
    col_shape_info info;
    CHECK(world, col_shape_get_info(world, s.id, &info));
    s.radius = info.radius;
    return s;
}

/* A static thin box (floor slab, table top): just the 8 corners, centred on the origin. */
static col_shape_id make_slab_shape(col_world *world, double hx, double hy, double hz)
{
    col_vec3 pts[8];
    col_shape_id id;
    points_box(NULL, hx, hy, hz, 0, pts);
    CHECK(world, col_shape_create_convex(world, pts, 8, &id));
    return id;
}

/* A table: a compound of a top and four legs, its origin on the floor under the top's
 * centre. The pieces are boxes made as shapes of their own, then copied into the
 * compound (they could be destroyed afterwards; the room keeps them). */
static col_shape_id make_table_shape(col_world *world)
{
    col_shape_id top, leg, table;
    CHECK(world, col_shape_create_box(world, col_vec3_make(0.8, 0.025, 0.45), &top));
    CHECK(world, col_shape_create_box(world, col_vec3_make(0.03, 0.36, 0.03), &leg));
    col_compound_child kids[5];
    kids[0].shape = top;
    kids[0].pose = col_transform_identity();
    kids[0].pose.p = col_vec3_make(0.0, 0.75, 0.0);
    for (int i = 0; i < 4; i++) {
        kids[1 + i].shape = leg;
        kids[1 + i].pose = col_transform_identity();
        kids[1 + i].pose.p = col_vec3_make(i & 1 ? 0.72 : -0.72, 0.36, i & 2 ? 0.38 : -0.38);
    }
    CHECK(world, col_shape_create_compound(world, kids, 5, &table));
    return table;
}

/* ---- moving bodies ---- */

typedef struct prop {
    col_body_id id;
    const prop_shape *shape;
    col_vec3 p, v;    /* position (m) and velocity (m/s) */
    col_quat q0;      /* orientation at spawn */
    col_vec3 axis;    /* spin axis (unit, world frame) */
    double omega;     /* spin rate (rad/s) */
    int born;         /* frame of creation: the spin angle is omega * (frame - born) * DT */
} prop;

typedef struct room {
    col_world *world;
    rng r;
    prop_shape shapes[KIND_COUNT * SHAPES_PER_KIND];
    prop *props;
    int count, cap;
    int added, removed;
} room;

static col_transform prop_pose(const prop *b, int frame)
{
    col_transform x;
    x.p = b->p;
    /* Closed form, not integrated: the orientation cannot drift off the unit sphere. */
    x.q = quat_normalize(col_quat_mul(col_quat_from_axis_angle(b->axis, b->omega * (frame - b->born) * DT), b->q0));
    return x;
}

static void spawn_prop(room *rm, int frame)
{
    if (rm->count == rm->cap) {
        int cap = rm->cap ? 2 * rm->cap : 64;
        prop *p = realloc(rm->props, (size_t)cap * sizeof *p);
        if (!p) {
            fprintf(stderr, "colibri-vr-room: out of memory\n");
            col_world_destroy(rm->world);
            exit(1);
        }
        rm->props = p;
        rm->cap = cap;
    }
    prop *b = &rm->props[rm->count];
    b->shape = &rm->shapes[rng_int(&rm->r, KIND_COUNT * SHAPES_PER_KIND)];
    double rad = b->shape->radius;
    b->p = col_vec3_make(rng_range(&rm->r, -ROOM_HALF + rad, ROOM_HALF - rad),
                         rng_range(&rm->r, 0.5 * rad, ROOM_HEIGHT - rad),
                         rng_range(&rm->r, -ROOM_HALF + rad, ROOM_HALF - rad));
    /* Walking pace to a gentle throw: 0.3 to 1.5 m/s in any direction. */
    col_vec3 d = rng_direction(&rm->r);
    double speed = rng_range(&rm->r, 0.3, 1.5);
    b->v = col_vec3_make(speed * d.x, speed * d.y, speed * d.z);
    b->q0 = rng_quat(&rm->r);
    b->axis = rng_direction(&rm->r);
    b->omega = rng_range(&rm->r, 0.2, 3.0);
    b->born = frame;

    col_body_def def = col_default_body_def();
    def.shape = b->shape->id;
    def.pose = prop_pose(b, frame);
    def.user_data = kind_names[b->shape->kind];
    CHECK(rm->world, col_body_create(rm->world, &def, &b->id));
    rm->count++;
    rm->added++;
}

static void remove_random_prop(room *rm)
{
    int i = rng_int(&rm->r, rm->count);
    CHECK(rm->world, col_body_destroy(rm->world, rm->props[i].id));
    /* Swap-remove: the order of the app's array does not matter to the world. */
    rm->props[i] = rm->props[--rm->count];
    rm->removed++;
}

/* One axis of a bounce: reflect the position back inside [lo, hi] and flip the velocity. */
static void bounce(double *x, double *v, double lo, double hi)
{
    if (*x < lo) {
        *x = 2.0 * lo - *x;
        *v = -*v;
    } else if (*x > hi) {
        *x = 2.0 * hi - *x;
        *v = -*v;
    }
}

static void move_props(room *rm, int frame)
{
    for (int i = 0; i < rm->count; i++) {
        prop *b = &rm->props[i];
        double rad = b->shape->radius;
        b->p.x += b->v.x * DT;
        b->p.y += b->v.y * DT;
        b->p.z += b->v.z * DT;
        /* Walls and ceiling keep the whole hull inside the room; the floor lets a prop
         * dip into the slabs by up to half its reach, so floor contacts begin and end. */
        bounce(&b->p.x, &b->v.x, -ROOM_HALF + rad, ROOM_HALF - rad);
        bounce(&b->p.y, &b->v.y, 0.5 * rad, ROOM_HEIGHT - rad);
        bounce(&b->p.z, &b->v.z, -ROOM_HALF + rad, ROOM_HALF - rad);
        CHECK(rm->world, col_body_set_pose(rm->world, b->id, prop_pose(b, frame)));
    }
}

static void add_static(col_world *world, col_shape_id shape, double x, double y, double z,
                       double yaw)
{
    col_body_def def = col_default_body_def();
    col_body_id id;
    def.shape = shape;
    def.pose.p = col_vec3_make(x, y, z);
    def.pose.q = col_quat_from_axis_angle(col_vec3_make(0.0, 1.0, 0.0), yaw);
    def.is_static = true;
    CHECK(world, col_body_create(world, &def, &id));
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

static bool pair_listed(const col_pair *list, int count, col_pair p)
{
    for (int i = 0; i < count; i++)
        if (col_body_id_equals(list[i].a, p.a) && col_body_id_equals(list[i].b, p.b))
            return true;
    return false;
}

/* Props carry their kind name as user_data; static bodies carry none. A pair record holds
 * both bodies' user_data, so this works for the ended pairs of removed bodies too. */
static const char *kind_of(const void *user_data) { return user_data ? (const char *)user_data : "static"; }

/* "rod #12 / static #3": a pair by its bodies' kinds and ids, from the record alone. */
static const char *pair_text(col_pair p, char *buf, size_t size)
{
    snprintf(buf, size, "%s #%" PRIu32 " / %s #%" PRIu32, kind_of(p.user_data_a), p.a.index1,
             kind_of(p.user_data_b), p.b.index1);
    return buf;
}

/* The first ended pair (from index 0) whose bodies are both alive (want_removed false) or
 * one of them removed (true); -1 if none. */
static int find_ended(const col_world *world, const col_pair_events *ev, bool want_removed)
{
    for (int i = 0; i < ev->ended_count; i++) {
        bool removed = !col_body_is_valid(world, ev->ended[i].a) || !col_body_is_valid(world, ev->ended[i].b);
        if (removed == want_removed) return i;
    }
    return -1;
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: colibri-vr-room [--threads N] [SEED]\n"
            "       colibri-vr-room --help\n"
            "A VR room of %d moving convex props over static slabs and tables, %d frames at 90 Hz:\n"
            "every %d frames a table row shows what col_world_update found, lines starting with\n"
            "'>' show the first events, removals and the disabled pair as they happen, and a\n"
            "summary closes the run. The same SEED gives the same run for any N.\n"
            "  --threads N  worker threads of the world (0: one per core, the default; at most %d)\n"
            "  SEED         a non-negative integer (default %u)\n"
            "  --help, -h   print this and exit\n",
            START_BODIES, FRAMES, REPORT_EVERY, COL_MAX_WORKERS, DEFAULT_SEED);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    uint64_t seed = DEFAULT_SEED;
    int threads = 0; /* the world's default: one worker per core */
    bool have_seed = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            return 0;
        }
        bool is_threads = strcmp(arg, "--threads") == 0;
        if (is_threads && i + 1 >= argc) {
            usage(stderr);
            return 2;
        }
        const char *num = is_threads ? argv[++i] : arg;
        char *end;
        errno = 0;
        unsigned long long v = strtoull(num, &end, 10);
        if (errno || end == num || *end || num[0] == '-' || (is_threads && v > COL_MAX_WORKERS) ||
            (!is_threads && have_seed)) {
            fprintf(stderr, "colibri-vr-room: bad argument '%s'\n", num);
            usage(stderr);
            return 2;
        }
        if (is_threads) {
            threads = (int)v;
        } else {
            seed = v;
            have_seed = true;
        }
    }

    room rm;
    memset(&rm, 0, sizeof rm);
    rm.r.state = seed;

    col_world_def wdef = col_default_world_def();
    wdef.body_capacity = START_BODIES + 64; /* a hint: the count wanders around START_BODIES */
    wdef.worker_count = threads;
    CHECK(NULL, col_world_create(&wdef, &rm.world));
    col_world *world = rm.world;

    const char *backend = col_backend_name(wdef.backend);
    col_counters wc0;
    CHECK(world, col_world_get_counters(world, &wc0));
    printf("colibri-vr-room: seed %" PRIu64 ", backend %s, %d frames at %.0f Hz, %d workers\n", seed,
           backend ? backend : "?", FRAMES, 1.0 / DT, wc0.workers);

    /* A dozen prop shapes, shared by all moving bodies. */
    int vmin = 1 << 30, vmax = 0;
    for (int k = 0; k < KIND_COUNT; k++) {
        for (int v = 0; v < SHAPES_PER_KIND; v++) {
            prop_shape *s = &rm.shapes[k * SHAPES_PER_KIND + v];
            *s = make_prop_shape(world, &rm.r, k, v);
            col_shape_info info;
            CHECK(world, col_shape_get_info(world, s->id, &info));
            if (info.kind != COL_SHAPE_HULL) continue;
            vmin = info.vertex_count < vmin ? info.vertex_count : vmin;
            vmax = info.vertex_count > vmax ? info.vertex_count : vmax;
        }
    }

    /* The floor: 2 x 2 static slabs whose top face is y = 0. Tables: static compounds (a
     * top at table height and four legs) the props fly through. Static bodies are never
     * paired with each other. */
    col_shape_id slab = make_slab_shape(world, 0.5 * ROOM_HALF, 0.5 * SLAB_THICKNESS, 0.5 * ROOM_HALF);
    col_shape_id table = make_table_shape(world);
    int statics = 0;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++, statics++)
            add_static(world, slab, (i - 0.5) * ROOM_HALF, -0.5 * SLAB_THICKNESS,
                       (j - 0.5) * ROOM_HALF, 0.0);
    const double tables[][3] = {{-3.0, -2.5, 0.3}, {2.5, -3.0, 1.2}, {-2.0, 3.0, 2.0}, {3.0, 2.5, 0.0}};
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++, statics++)
        add_static(world, table, tables[i][0], 0.0, tables[i][1], tables[i][2]);
    /* A sculpture in the middle of the room: a static triangle mesh (a closed bumpy ball
     * of 3 840 triangles, room geometry as an app would load it) the props fly through. */
    col_shape_id sculpture;
    make_grid_mesh(world, 0.9, 40, 48, 40, 0.12, &sculpture);
    add_static(world, sculpture, 0.0, 1.2, 0.0, 0.0);
    statics++;

    for (int i = 0; i < START_BODIES; i++)
        spawn_prop(&rm, 0);

    printf("room %.0f x %.0f x %.0f m, %d prop shapes (hulls of %d-%d vertices, balls, capsules, mesh bowls), %d static bodies, "
           "%d props\n\n",
           2 * ROOM_HALF, ROOM_HEIGHT, 2 * ROOM_HALF, KIND_COUNT * SHAPES_PER_KIND, vmin, vmax,
           statics, START_BODIES);
    printf("%6s %7s %6s %7s %10s %10s %6s %6s %9s\n", "frame", "bodies", "added", "removed", "bbox-pairs",
           "colliding", "began", "ended", "ms/update");
    printf("legend: bbox-pairs: bounding boxes overlap (broad phase); colliding: shapes touch (exact);"
           " added..ended: since the last row; ms/update: mean time\n");

    /* Totals over the run, and sums over the current table row. */
    unsigned long long pair_frames = 0, began_total = 0, ended_total = 0;
    double ms_total = 0.0, ms_max = 0.0;
    long row_began = 0, row_ended = 0;
    int row_added = rm.added, row_removed = rm.removed;
    /* The '>' lines: each kind of happening is told once, when it first happens. */
    bool told_began = false, told_ended = false, told_removed = false;
    char text[2][96];
    int churn_out = 0, churn_in = 0;
    double row_ms = 0.0;
    static double frame_ms[FRAMES]; /* each frame's update time, for the percentiles */
    double t_run = now_ms();

    /* The pair switched off with col_pair_set_enabled, to show it leaves the results. */
    col_pair toggled = {{0, 0, 0}, {0, 0, 0}, NULL, NULL};
    const char *toggled_kind[2] = {"", ""}; /* read now: the bodies may be gone by the end */
    int toggle_off = 0, toggle_on = 0;
    bool toggle_ended = false, toggle_absent = true;

    for (int frame = 1; frame <= FRAMES; frame++) {
        /* Churn: props leave and new ones arrive between updates, as objects would be
         * picked up, dropped and spawned in an app. Counts vary so the total wanders. */
        if (frame % CHURN_EVERY == 0) {
            int out = 1 + rng_int(&rm.r, CHURN_MAX), in = 1 + rng_int(&rm.r, CHURN_MAX);
            churn_out = churn_in = 0;
            for (int i = 0; i < out && rm.count > 0; i++, churn_out++)
                remove_random_prop(&rm);
            for (int i = 0; i < in; i++, churn_in++)
                spawn_prop(&rm, frame);
        }
        /* Re-enable the toggled pair if both bodies survived the churn; if one was removed
         * the world has already forgotten the setting. */
        if (toggle_off && !toggle_on && frame == toggle_off + TOGGLE_LENGTH) {
            toggle_on = frame;
            if (col_body_is_valid(world, toggled.a) && col_body_is_valid(world, toggled.b)) {
                CHECK(world, col_pair_set_enabled(world, toggled.a, toggled.b, true));
                printf("> frame %d: col_pair_set_enabled(%s, true): the pair is tested again from this update on\n",
                       frame, pair_text(toggled, text[0], sizeof text[0]));
            } else {
                printf("> frame %d: a body of %s was removed meanwhile: the world forgot the setting\n", frame,
                       pair_text(toggled, text[0], sizeof text[0]));
            }
        }

        move_props(&rm, frame);

        double t0 = now_ms();
        CHECK(world, col_world_update(world));
        double ms = now_ms() - t0;

        col_counters c;
        CHECK(world, col_world_get_counters(world, &c));
        col_pair_events ev = col_world_get_pair_events(world);

        pair_frames += (unsigned long long)ev.pair_count;
        began_total += (unsigned long long)ev.began_count;
        ended_total += (unsigned long long)ev.ended_count;
        ms_total += ms;
        ms_max = ms > ms_max ? ms : ms_max;
        frame_ms[frame - 1] = ms;
        row_began += ev.began_count;
        row_ended += ev.ended_count;
        row_ms += ms;

        if (!told_began && ev.began_count > 0) {
            told_began = true;
            printf("> frame %d: %d pairs began colliding (col_pair_events.began), e.g. %s\n", frame, ev.began_count,
                   pair_text(ev.began[0], text[0], sizeof text[0]));
        }
        int e = told_ended ? -1 : find_ended(world, &ev, false);
        if (e >= 0) {
            told_ended = true;
            printf("> frame %d: %s moved apart: an ended event\n", frame,
                   pair_text(ev.ended[e], text[0], sizeof text[0]));
        }
        e = told_removed || frame % CHURN_EVERY != 0 ? -1 : find_ended(world, &ev, true);
        if (e >= 0) {
            told_removed = true;
            printf("> frame %d: col_body_destroy removed %d props and col_body_create added %d; the update ends"
                   " the removed ones' pairs, e.g. %s (the id is stale; the record's user_data names it)\n",
                   frame, churn_out, churn_in, pair_text(ev.ended[e], text[0], sizeof text[0]));
        }
        if (toggle_on && frame == toggle_on + 1 && pair_listed(ev.pairs, ev.pair_count, toggled))
            printf("> frame %d: %s %s\n", frame, pair_text(toggled, text[0], sizeof text[0]),
                   pair_listed(ev.began, ev.began_count, toggled) ? "began again" : "is listed again");
        if (toggle_off && !toggle_on) {
            /* The frame right after the switch must report the pair as ended (it was
             * colliding), and no frame while it is off may list it. */
            if (frame == toggle_off + 1) {
                toggle_ended = pair_listed(ev.ended, ev.ended_count, toggled);
                printf("> frame %d: the disabled pair %s: %s\n", frame, pair_text(toggled, text[0], sizeof text[0]),
                       toggle_ended ? "an ended event, and no longer in the pairs" : "NO ended event (a bug)");
            }
            if (pair_listed(ev.pairs, ev.pair_count, toggled))
                toggle_absent = false;
        }
        if (!toggle_off && frame >= TOGGLE_FRAME && ev.pair_count > 0) {
            /* Take a colliding pair from the middle of the sorted list and switch it off
             * (takes effect at the next update). */
            toggled = ev.pairs[ev.pair_count / 2];
            CHECK(world, col_pair_set_enabled(world, toggled.a, toggled.b, false));
            if (col_pair_is_enabled(world, toggled.a, toggled.b)) {
                fprintf(stderr, "colibri-vr-room: pair still enabled after disabling it\n");
                col_world_destroy(world);
                return 1;
            }
            toggled_kind[0] = kind_of(toggled.user_data_a);
            toggled_kind[1] = kind_of(toggled.user_data_b);
            toggle_off = frame;
            printf("> frame %d: col_pair_set_enabled(%s, false): colliding now, switched off for %d frames\n", frame,
                   pair_text(toggled, text[1], sizeof text[1]), TOGGLE_LENGTH);
        }

        if (frame % REPORT_EVERY == 0) {
            printf("%6d %7d %6d %7d %10d %10d %6ld %6ld %9.3f\n", frame, c.bodies, rm.added - row_added,
                   rm.removed - row_removed, c.broadphase_pairs, ev.pair_count, row_began, row_ended,
                   row_ms / REPORT_EVERY);
            row_began = row_ended = 0;
            row_added = rm.added;
            row_removed = rm.removed;
            row_ms = 0.0;
        }
    }
    double run_s = (now_ms() - t_run) * 1e-3;

    printf("\n%llu colliding pair-frames, %llu began, %llu ended\n", pair_frames, began_total,
           ended_total);
    qsort(frame_ms, FRAMES, sizeof frame_ms[0], cmp_double);
    col_counters cend;
    CHECK(world, col_world_get_counters(world, &cend));
    printf("col_world_update: mean %.3f ms, median %.3f ms, p99 %.3f ms, max %.3f ms per frame"
           " (worker stalls: %d)\n",
           ms_total / FRAMES, frame_ms[FRAMES / 2], frame_ms[FRAMES * 99 / 100], ms_max, cend.worker_stalls);
    printf("props added %d and removed %d while running; whole run %.2f s\n",
           rm.added - START_BODIES, rm.removed, run_s);
    if (toggle_off) {
        printf("pair %s #%" PRIu32 " / %s #%" PRIu32 " disabled at frame %d (ended event next "
               "frame: %s, absent while off: %s)",
               toggled_kind[0], toggled.a.index1, toggled_kind[1], toggled.b.index1, toggle_off, toggle_ended ? "yes" : "NO",
               toggle_absent ? "yes" : "NO");
        if (toggle_on)
            printf(", enabled again at frame %d", toggle_on);
        printf("\n");
    }

    col_world_destroy(world);
    free(rm.props);
    /* The toggle checks are the demo's own sanity test: a failure is a library bug. */
    return toggle_off && (!toggle_ended || !toggle_absent) ? 1 : 0;
}
