/* SPDX-License-Identifier: MIT */
/* colibri-scene-gen: writes a benchmark scene (docs/scenes.md: the format, the motion and
 * every option) of convex bodies and triangle meshes: "colibri-scene 1" when every shape is
 * a hull, and "colibri-scene 2" when --kinds asks for spheres or capsules or when there are
 * meshes (--meshes, --floor).
 *
 *   colibri-scene-gen [--seed N] [--bodies N] [--verts NV|A-B] [--kinds LIST] [--shapes S]
 *                     [--assign rr|random] [--density D] [--room L] [--speed X] [--spin DEG]
 *                     [--frames F] [--meshes M] [--mesh-kinds LIST] [--mesh-tris T|A-B]
 *                     [--mesh-shapes S] [--mesh-radius R] [--mesh-speed X] [--mesh-spin DEG]
 *                     [--mesh-place random|pass] [--pass-offset D] [--knot-tube A]
 *                     [--floor T] [--floor-radius X] [-o FILE]
 *
 * What it draws, in this order, from one seeded sequence (bench/scene_rand.h), so that a seed
 * and the options make the same file everywhere: per shape, for a hull its vertex count (when
 * --verts is a range) and its points, for a sphere its radius, for a capsule its radius and
 * then its thickness; per body its shape (with --assign random); then per body its
 * start position (uniform where the body fits inside the room), orientation (uniform),
 * direction of motion and axis of spin (uniform). The room side follows from --density:
 * the summed bounding-sphere volume of the bodies over the room's volume. These are the
 * rules of the standard scenes (docs/scenes.md, "The standard scenes"), so their options
 * give the same scenes here.
 * Meshes (bench/scene_mesh.h) draw from a second sequence, seeded from the seed, so the
 * convex shapes and bodies draw what they would without meshes: per mesh shape its
 * triangle count (when --mesh-tris is a range) and its geometry, then the floor's
 * geometry, then per mesh body its start, orientation, direction and axis. The floor is one
 * more body, last, with v = w = 0 (a static body).
 *
 * Bad options get a message on stderr and exit status 2; a failed write, exit status 1. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/scene_mesh.h"
#include "bench/scene_rand.h"

#define GEN_PI 3.14159265358979323846

typedef struct gen_options {
    uint64_t seed;
    int bodies, verts_min, verts_max, shapes, frames;
    bool assign_random;
    double density, room, speed, spin;
    int kinds[64];
    int kind_count;
    const char *kinds_text, *out;
    /* meshes */
    int meshes, tris_min, tris_max, mesh_shapes, floor_tris;
    double mesh_radius, mesh_speed, mesh_spin, floor_radius, knot_tube, pass_offset;
    bool place_pass;
    int mesh_kinds[64];
    int mesh_kind_count;
    const char *mesh_kinds_text;
} gen_options;

/* The kinds --kinds names: the hull kinds of bench/scene_rand.h, then the round ones. */
enum { GEN_SPHERE = SCENE_KIND_COUNT, GEN_CAPSULE, GEN_KIND_COUNT };
static const char *const gen_round_name[] = {"sphere", "capsule"};

/* `round`: half hulls, a quarter spheres and a quarter capsules, interleaved so that a
 * few shapes already hold every kind. */
static const int gen_round_list[] = {SCENE_ELLIPSOID, GEN_SPHERE, SCENE_ROD, GEN_CAPSULE,
                                     SCENE_PLATE,     GEN_SPHERE, SCENE_BOX, GEN_CAPSULE};

/* A sphere's or capsule's radius for the motion (docs/scenes.md: R, or H + R) is drawn
 * uniformly in [GEN_ROUND_RMIN, 1]: at most 1 like every hull's (its kind's longest half
 * axis), and of varied sizes so that unequal radii meet. A capsule's R is that radius
 * times a thickness drawn in [0.12, 0.6], between the rod's and the ellipsoid's. */
#define GEN_ROUND_RMIN 0.5
#define GEN_CAPSULE_TMIN 0.12
#define GEN_CAPSULE_TMAX 0.6

typedef struct gen_shape {
    int kind;             /* a scene_kind, GEN_SPHERE or GEN_CAPSULE */
    int vertex_count;     /* hull */
    col_vec3 *v;          /* hull */
    double half_height;   /* capsule: H */
    double core_radius;   /* sphere and capsule: R */
    double radius;        /* docs/scenes.md's: a hull's farthest point, R, or H + R */
} gen_shape;

static void usage(FILE *fp)
{
    fprintf(fp,
            "usage: colibri-scene-gen [options] [-o FILE]   (docs/scenes.md)\n"
            "  --seed N          seed of the random sequence (default 1)\n"
            "  --bodies N        number of bodies (default 500)\n"
            "  --verts NV|A-B    points per shape, or a range drawn per shape (default 100; at least 4,\n"
            "                    a box at least its 8 corners)\n"
            "  --kinds LIST      comma list of ellipsoid, rod, plate, box, sphere, capsule, mix\n"
            "                    (= ellipsoid,rod,plate), round (= ellipsoid,sphere,rod,capsule,plate,\n"
            "                    sphere,box,capsule); shape s is of kind s mod the list's length\n"
            "                    (default mix); spheres or capsules make a version-2 scene\n"
            "  --shapes S        number of distinct shapes (default min(bodies, 100))\n"
            "  --assign rr|random  body b takes shape b mod S (rr, default) or one at random\n"
            "  --density D       summed bounding-sphere volume / room volume; sets the room (default 0.1)\n"
            "  --room L          the room side, instead of the one --density sets\n"
            "  --speed X         speed in shape radii per frame (default 0.05)\n"
            "  --spin DEG        rotation per frame in degrees (default 10)\n"
            "  --frames F        number of frames (default 1000)\n"
            "  -o FILE           write to FILE (default standard output)\n"
            "triangle meshes (a version-2 scene; with them --bodies may be 0):\n"
            "  --meshes M        moving mesh bodies, numbered after the convex ones (default 0)\n"
            "  --mesh-kinds LIST comma list of torusknot, bumpy, patch, soup, mix (= all four);\n"
            "                    mesh shape s is of kind s mod the list's length (default mix)\n"
            "  --mesh-tris T|A-B triangles per mesh shape, about (default 1000)\n"
            "  --mesh-shapes S   distinct mesh shapes (default min(M, 16)); mesh body k takes shape k mod S\n"
            "  --mesh-radius R   every mesh shape's radius (default 2; a hull's is at most 1)\n"
            "  --mesh-speed X    mesh speed in mesh radii per frame (default --speed)\n"
            "  --mesh-spin DEG   mesh rotation per frame in degrees (default --spin)\n"
            "  --mesh-place random|pass  pass: mesh body k starts at the x = r wall (k even) or the\n"
            "                    x = L - r wall (k odd) near the middle in y and z and crosses the room\n"
            "                    once along x over the frames (default random)\n"
            "  --pass-offset D   pass: the two lanes D mesh radii apart in y (default 0)\n"
            "  --knot-tube A     torus knot tube radius before the fit, the knot on a torus of radii\n"
            "                    1 and 0.45 (default 0.16)\n"
            "  --floor T         one more body, static: a bumpy heightfield bowl of about T triangles,\n"
            "                    radius --floor-radius times L, resting on the room's floor in its middle\n"
            "  --floor-radius X  in (0, 0.5) (default 0.45)\n");
}

static bool fail(const char *what, const char *value)
{
    fprintf(stderr, "colibri-scene-gen: %s: '%s'\n", what, value ? value : "(missing)");
    return false;
}

static bool parse_int(const char *s, int lo, int *out)
{
    if (s == NULL || *s == '\0') return false;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < lo || v > INT_MAX) return false;
    *out = (int)v;
    return true;
}

static bool parse_double(const char *s, double *out)
{
    if (s == NULL || *s == '\0') return false;
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno != 0 || *end != '\0' || !isfinite(v)) return false;
    *out = v;
    return true;
}

static bool parse_kinds(const char *text, gen_options *o)
{
    char buf[256];
    if (strlen(text) >= sizeof buf) return fail("--kinds is too long", text);
    strcpy(buf, text);
    o->kind_count = 0;
    const int cap = (int)(sizeof o->kinds / sizeof o->kinds[0]);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
        if (strcmp(tok, "mix") == 0) {
            for (int k = SCENE_ELLIPSOID; k <= SCENE_PLATE; k++)
                if (o->kind_count < cap) o->kinds[o->kind_count++] = k;
            continue;
        }
        if (strcmp(tok, "round") == 0) {
            for (size_t i = 0; i < sizeof gen_round_list / sizeof gen_round_list[0]; i++)
                if (o->kind_count < cap) o->kinds[o->kind_count++] = gen_round_list[i];
            continue;
        }
        int k = 0;
        while (k < GEN_KIND_COUNT &&
               strcmp(tok, k < SCENE_KIND_COUNT ? scene_kind_name[k] : gen_round_name[k - SCENE_KIND_COUNT]) != 0)
            k++;
        if (k == GEN_KIND_COUNT) return fail("unknown kind", tok);
        if (o->kind_count < cap) o->kinds[o->kind_count++] = k;
    }
    if (o->kind_count == 0) return fail("--kinds names no kind", text);
    o->kinds_text = text;
    return true;
}

/* "N" or "A-B" with min <= A <= B, for --verts and --mesh-tris. */
static bool parse_range(const char *s, const char *what, int min, int *lo_out, int *hi_out)
{
    char msg[80];
    snprintf(msg, sizeof msg, "%s must be an integer >= %d or a range A-B with %d <= A <= B", what, min, min);
    if (s == NULL) return fail(msg, s);
    const char *dash = strchr(s, '-');
    if (dash == NULL) {
        if (!parse_int(s, min, lo_out)) return fail(msg, s);
        *hi_out = *lo_out;
        return true;
    }
    char lo[32];
    size_t n = (size_t)(dash - s);
    if (n == 0 || n >= sizeof lo) return fail(msg, s);
    memcpy(lo, s, n);
    lo[n] = '\0';
    if (!parse_int(lo, min, lo_out) || !parse_int(dash + 1, min, hi_out) || *hi_out < *lo_out) return fail(msg, s);
    return true;
}

static bool parse_mesh_kinds(const char *text, gen_options *o)
{
    char buf[256];
    if (strlen(text) >= sizeof buf) return fail("--mesh-kinds is too long", text);
    strcpy(buf, text);
    o->mesh_kind_count = 0;
    const int cap = (int)(sizeof o->mesh_kinds / sizeof o->mesh_kinds[0]);
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
        int k = 0;
        if (strcmp(tok, "mix") == 0) {
            for (; k < SCENE_MESH_KIND_COUNT; k++)
                if (o->mesh_kind_count < cap) o->mesh_kinds[o->mesh_kind_count++] = k;
            continue;
        }
        while (k < SCENE_MESH_KIND_COUNT && strcmp(tok, scene_mesh_kind_name[k]) != 0) k++;
        if (k == SCENE_MESH_KIND_COUNT) return fail("unknown mesh kind", tok);
        if (o->mesh_kind_count < cap) o->mesh_kinds[o->mesh_kind_count++] = k;
    }
    if (o->mesh_kind_count == 0) return fail("--mesh-kinds names no kind", text);
    o->mesh_kinds_text = text;
    return true;
}

/* The mesh options of parse_options; false with a message for a bad one, and *known false
 * for an option that is not a mesh option. */
static bool parse_mesh_option(const char *a, const char *v, gen_options *o, bool *known)
{
    *known = true;
    if (strcmp(a, "--meshes") == 0) {
        if (!parse_int(v, 0, &o->meshes)) return fail("--meshes must be an integer >= 0", v);
    } else if (strcmp(a, "--mesh-kinds") == 0) {
        if (v == NULL) return fail("--mesh-kinds needs a value", v);
        return parse_mesh_kinds(v, o);
    } else if (strcmp(a, "--mesh-tris") == 0) {
        return parse_range(v, "--mesh-tris", 1, &o->tris_min, &o->tris_max);
    } else if (strcmp(a, "--mesh-shapes") == 0) {
        if (!parse_int(v, 1, &o->mesh_shapes)) return fail("--mesh-shapes must be an integer >= 1", v);
    } else if (strcmp(a, "--mesh-radius") == 0) {
        if (!parse_double(v, &o->mesh_radius) || !(o->mesh_radius > 0)) return fail("--mesh-radius must be > 0", v);
    } else if (strcmp(a, "--mesh-speed") == 0) {
        if (!parse_double(v, &o->mesh_speed) || !(o->mesh_speed >= 0)) return fail("--mesh-speed must be >= 0", v);
    } else if (strcmp(a, "--mesh-spin") == 0) {
        if (!parse_double(v, &o->mesh_spin) || !(o->mesh_spin >= 0)) return fail("--mesh-spin must be >= 0", v);
    } else if (strcmp(a, "--mesh-place") == 0) {
        if (v == NULL || (strcmp(v, "random") != 0 && strcmp(v, "pass") != 0))
            return fail("--mesh-place must be random or pass", v);
        o->place_pass = strcmp(v, "pass") == 0;
    } else if (strcmp(a, "--pass-offset") == 0) {
        if (!parse_double(v, &o->pass_offset) || !(o->pass_offset >= 0)) return fail("--pass-offset must be >= 0", v);
    } else if (strcmp(a, "--knot-tube") == 0) {
        if (!parse_double(v, &o->knot_tube) || !(o->knot_tube > 0) || !(o->knot_tube < 0.45))
            return fail("--knot-tube must be in (0, 0.45)", v);
    } else if (strcmp(a, "--floor") == 0) {
        if (!parse_int(v, 0, &o->floor_tris)) return fail("--floor must be an integer >= 0", v);
    } else if (strcmp(a, "--floor-radius") == 0) {
        if (!parse_double(v, &o->floor_radius) || !(o->floor_radius > 0) || !(o->floor_radius < 0.5))
            return fail("--floor-radius must be in (0, 0.5)", v);
    } else {
        *known = false;
    }
    return true;
}

static bool parse_options(int argc, char **argv, gen_options *o)
{
    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->bodies = 500;
    o->verts_min = o->verts_max = 100;
    o->density = 0.1;
    o->speed = 0.05;
    o->spin = 10;
    o->frames = 1000;
    o->tris_min = o->tris_max = 1000;
    o->mesh_radius = 2;
    o->mesh_speed = o->mesh_spin = -1; /* --speed and --spin */
    o->floor_radius = 0.45;
    o->knot_tube = 0.16;
    if (!parse_kinds("mix", o) || !parse_mesh_kinds("mix", o)) return false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            exit(0);
        }
        i++; /* every option takes one value */
        bool mesh_option;
        if (!parse_mesh_option(a, v, o, &mesh_option)) return false;
        if (mesh_option) continue;
        if (strcmp(a, "--seed") == 0) {
            char *end;
            errno = 0;
            if (v == NULL || *v == '\0' || *v == '-') return fail("--seed must be an unsigned integer", v);
            o->seed = strtoull(v, &end, 0);
            if (errno != 0 || *end != '\0') return fail("--seed must be an unsigned integer", v);
        } else if (strcmp(a, "--bodies") == 0) {
            if (!parse_int(v, 0, &o->bodies)) return fail("--bodies must be an integer >= 0", v);
        } else if (strcmp(a, "--verts") == 0) {
            if (!parse_range(v, "--verts", 4, &o->verts_min, &o->verts_max)) return false;
        } else if (strcmp(a, "--kinds") == 0) {
            if (v == NULL) return fail("--kinds needs a value", v);
            if (!parse_kinds(v, o)) return false;
        } else if (strcmp(a, "--shapes") == 0) {
            if (!parse_int(v, 1, &o->shapes)) return fail("--shapes must be an integer >= 1", v);
        } else if (strcmp(a, "--assign") == 0) {
            if (v == NULL || (strcmp(v, "rr") != 0 && strcmp(v, "random") != 0))
                return fail("--assign must be rr or random", v);
            o->assign_random = strcmp(v, "random") == 0;
        } else if (strcmp(a, "--density") == 0) {
            if (!parse_double(v, &o->density) || !(o->density > 0)) return fail("--density must be > 0", v);
        } else if (strcmp(a, "--room") == 0) {
            if (!parse_double(v, &o->room) || !(o->room > 0)) return fail("--room must be > 0", v);
        } else if (strcmp(a, "--speed") == 0) {
            if (!parse_double(v, &o->speed)) return fail("--speed must be a finite number", v);
        } else if (strcmp(a, "--spin") == 0) {
            if (!parse_double(v, &o->spin)) return fail("--spin must be a finite number", v);
        } else if (strcmp(a, "--frames") == 0) {
            if (!parse_int(v, 1, &o->frames)) return fail("--frames must be an integer >= 1", v);
        } else if (strcmp(a, "-o") == 0) {
            if (v == NULL) return fail("-o needs a file name", v);
            o->out = v;
        } else {
            usage(stderr);
            return fail("unknown option", a);
        }
    }
    if (o->bodies == 0 && o->meshes == 0 && o->floor_tris == 0)
        return fail("--bodies must be >= 1 (or give --meshes or --floor)", "0");
    if (o->shapes == 0) o->shapes = o->bodies < 100 ? o->bodies : 100;
    if (o->mesh_shapes == 0 || o->meshes == 0) o->mesh_shapes = o->meshes < 16 ? o->meshes : 16;
    if (o->mesh_speed < 0) o->mesh_speed = o->speed;
    if (o->mesh_spin < 0) o->mesh_spin = o->spin;
    return true;
}

/* A sphere or a capsule, sized as GEN_ROUND_RMIN says. The radius is the one a reader
 * computes from the written numbers (H + R in double), so bodies are placed and the room
 * sized with exactly the radius their motion bounces with. */
static void make_round(gen_shape *s, int kind)
{
    s->kind = kind;
    double r = scene_rand_range(GEN_ROUND_RMIN, 1.0);
    if (kind == GEN_SPHERE) {
        s->core_radius = r;
        s->radius = r;
        return;
    }
    double t = scene_rand_range(GEN_CAPSULE_TMIN, GEN_CAPSULE_TMAX);
    s->core_radius = r * t;
    s->half_height = r - s->core_radius; /* > 0: t < 1 */
    s->radius = s->half_height + s->core_radius;
}

/* Shape points: a box starts with its 8 corners (so its hull is the box), then surface
 * points of the kind; the radius is docs/scenes.md's (largest distance from the origin). */
static bool make_shape(gen_shape *s, scene_kind kind, int n)
{
    s->kind = (int)kind;
    if (kind == SCENE_BOX && n < 8) n = 8;
    s->vertex_count = n;
    s->v = malloc(sizeof *s->v * (size_t)n);
    if (s->v == NULL) return false;
    int i = 0;
    if (kind == SCENE_BOX) {
        const double *h = scene_kind_axes[kind];
        for (; i < 8; i++)
            s->v[i] = col_vec3_make((i & 1) ? h[0] : -h[0], (i & 2) ? h[1] : -h[1], (i & 4) ? h[2] : -h[2]);
    }
    for (; i < n; i++) s->v[i] = scene_rand_surface_point(kind);
    s->radius = 0;
    for (i = 0; i < n; i++) {
        col_vec3 x = s->v[i];
        double d = sqrt(x.x * x.x + x.y * x.y + x.z * x.z);
        if (d > s->radius) s->radius = d;
    }
    return true;
}

/* Everything a scene holds besides the options: the convex shapes and their bodies' shapes,
 * the mesh shapes, the floor and the room. */
typedef struct gen_scene {
    gen_shape *shapes;      /* o->shapes convex shapes */
    int *body_shape;        /* o->bodies */
    scene_mesh *meshes;     /* o->mesh_shapes */
    scene_mesh floor;       /* o->floor_tris > 0 */
    uint64_t mesh_rng[4];   /* the meshes' sequence while the convex one is in use */
    double room;
} gen_scene;

static void write_body(FILE *fp, int shape, const double p[3], col_quat q, col_vec3 v, col_vec3 w)
{
    fprintf(fp, "b %d %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", shape, p[0],
            p[1], p[2], q.w, q.x, q.y, q.z, v.x, v.y, v.z, w.x, w.y, w.z);
}

static void write_mesh(FILE *fp, int index, const scene_mesh *m)
{
    fprintf(fp, "# shape %d: %s, %d triangles", index, m->what, m->nt);
    if (m->degenerate > 0) fprintf(fp, " (%d degenerate)", m->degenerate);
    fprintf(fp, "\nmesh %d %d\n", m->nv, m->nt);
    for (int i = 0; i < m->nv; i++) fprintf(fp, "%.17g %.17g %.17g\n", m->v[i].x, m->v[i].y, m->v[i].z);
    for (int t = 0; t < m->nt; t++) fprintf(fp, "%u %u %u\n", m->t[3 * t], m->t[3 * t + 1], m->t[3 * t + 2]);
}

/* The mesh bodies, from the meshes' sequence: a random start where the body fits, or with
 * --mesh-place pass a start at one of the two x walls crossing the room once along x. */
static bool write_mesh_bodies(FILE *fp, const gen_options *o, const gen_scene *g)
{
    double spin = o->mesh_spin * GEN_PI / 180.0, L = g->room;
    for (int b = 0; b < o->meshes; b++) {
        int s = b % o->mesh_shapes;
        double r = g->meshes[s].radius, p[3];
        col_quat q;
        col_vec3 v, w;
        if (o->place_pass) {
            double span = L - 2 * r, side = b % 2 ? 1 : -1;
            p[0] = b % 2 ? L - r : r;
            for (int k = 1; k < 3; k++) p[k] = L / 2 + scene_rand_range(-0.15, 0.15) * fmin(r, span / 2);
            p[1] += side * 0.5 * o->pass_offset * r;
            if (p[1] < r || p[1] > L - r) {
                fprintf(stderr, "colibri-scene-gen: --pass-offset %g puts a lane outside the room\n", o->pass_offset);
                return false;
            }
            q = scene_rand_rotation();
            v = col_vec3_make(-side * span / o->frames, 0, 0);
            w = scene_rand_direction();
        } else {
            for (int k = 0; k < 3; k++) p[k] = scene_rand_range(r, L - r);
            q = scene_rand_rotation();
            v = scene_rand_direction();
            w = scene_rand_direction();
            double vs = o->mesh_speed * r;
            v = col_vec3_make(v.x * vs, v.y * vs, v.z * vs);
        }
        w = col_vec3_make(w.x * spin, w.y * spin, w.z * spin);
        write_body(fp, o->shapes + s, p, q, v, w);
    }
    return true;
}

static int write_scene(FILE *fp, int argc, char **argv, const gen_options *o, gen_scene *g)
{
    bool round = false, mesh = o->meshes > 0 || o->floor_tris > 0;
    for (int s = 0; s < o->shapes; s++) round = round || g->shapes[s].kind >= SCENE_KIND_COUNT;
    /* Hull-only scenes stay version 1, byte for byte what they were before spheres,
     * capsules and meshes existed. */
    fprintf(fp, "colibri-scene %d\n# colibri-scene-gen", round || mesh ? 2 : 1);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-o") == 0) { /* the output path is not part of the scene */
            i++;
            continue;
        }
        fprintf(fp, " %s", argv[i]);
    }
    fprintf(fp,
            "\n# seed=%llu bodies=%d verts=%d-%d kinds=%s shapes=%d assign=%s density=%g speed=%g spin=%g"
            " frames=%d\n",
            (unsigned long long)o->seed, o->bodies, o->verts_min, o->verts_max, o->kinds_text, o->shapes,
            o->assign_random ? "random" : "rr", o->density, o->speed, o->spin, o->frames);
    int floor = o->floor_tris > 0;
    if (mesh) {
        fprintf(fp,
                "# meshes=%d mesh-kinds=%s mesh-tris=%d-%d mesh-shapes=%d mesh-radius=%g mesh-speed=%g"
                " mesh-spin=%g mesh-place=%s pass-offset=%g knot-tube=%g floor=%d floor-radius=%g\n# bodies:",
                o->meshes, o->mesh_kinds_text, o->tris_min, o->tris_max, o->mesh_shapes, o->mesh_radius,
                o->mesh_speed, o->mesh_spin, o->place_pass ? "pass" : "random", o->pass_offset, o->knot_tube,
                o->floor_tris, o->floor_radius);
        if (o->bodies > 0) fprintf(fp, " %d..%d convex;", 0, o->bodies - 1);
        if (o->meshes > 0) fprintf(fp, " %d..%d moving meshes;", o->bodies, o->bodies + o->meshes - 1);
        if (floor) fprintf(fp, " %d the static floor;", o->bodies + o->meshes);
        fprintf(fp, "\n");
    }
    fprintf(fp, "room %.17g\nframes %d\nshapes %d\n", g->room, o->frames, o->shapes + o->mesh_shapes + floor);
    for (int s = 0; s < o->shapes; s++) {
        const gen_shape *sh = &g->shapes[s];
        if (sh->kind == GEN_SPHERE) {
            fprintf(fp, "sphere %.17g\n", sh->core_radius);
            continue;
        }
        if (sh->kind == GEN_CAPSULE) {
            fprintf(fp, "capsule %.17g %.17g\n", sh->half_height, sh->core_radius);
            continue;
        }
        fprintf(fp, "shape %d\n", sh->vertex_count);
        for (int i = 0; i < sh->vertex_count; i++) fprintf(fp, "%.17g %.17g %.17g\n", sh->v[i].x, sh->v[i].y, sh->v[i].z);
    }
    for (int s = 0; s < o->mesh_shapes; s++) write_mesh(fp, o->shapes + s, &g->meshes[s]);
    if (floor) write_mesh(fp, o->shapes + o->mesh_shapes, &g->floor);
    fprintf(fp, "bodies %d\n", o->bodies + o->meshes + floor);
    double spin = o->spin * GEN_PI / 180.0; /* radians per frame */
    for (int b = 0; b < o->bodies; b++) {
        double r = g->shapes[g->body_shape[b]].radius, p[3];
        for (int k = 0; k < 3; k++) p[k] = scene_rand_range(r, g->room - r);
        col_quat q = scene_rand_rotation();
        col_vec3 v = scene_rand_direction();
        col_vec3 w = scene_rand_direction();
        double vs = o->speed * r;
        write_body(fp, g->body_shape[b], p, q, col_vec3_make(v.x * vs, v.y * vs, v.z * vs),
                   col_vec3_make(w.x * spin, w.y * spin, w.z * spin));
    }
    scene_rand_swap(g->mesh_rng);
    bool ok = write_mesh_bodies(fp, o, g);
    scene_rand_swap(g->mesh_rng);
    if (!ok) return 2;
    if (floor) { /* static, as low as its bounding sphere lets it rest, in the room's middle */
        double p[3] = {g->room / 2, g->room / 2, g->floor.radius};
        write_body(fp, o->shapes + o->mesh_shapes, p, (col_quat){0, 0, 0, 1}, col_vec3_make(0, 0, 0),
                   col_vec3_make(0, 0, 0));
    }
    return ferror(fp) ? 1 : 0;
}

/* Mesh shape s of its kind, fitted to --mesh-radius. */
static bool make_mesh(scene_mesh *m, const gen_options *o, int s, int *knots)
{
    int kind = o->mesh_kinds[s % o->mesh_kind_count];
    int tris = o->tris_min == o->tris_max ? o->tris_min : scene_rand_int(o->tris_min, o->tris_max);
    bool ok = kind == SCENE_MESH_TORUSKNOT ? scene_mesh_torusknot(m, tris, (*knots)++, o->knot_tube)
            : kind == SCENE_MESH_BUMPY     ? scene_mesh_bumpy(m, tris)
            : kind == SCENE_MESH_PATCH     ? scene_mesh_patch(m, tris)
                                           : scene_mesh_soup(m, tris);
    if (ok) scene_mesh_fit(m, o->mesh_radius);
    return ok;
}

/* The room: --room, or the side at which the bodies' bounding spheres (convex and moving
 * meshes; not the floor, which scales with the room) fill --density of it. */
static bool size_room(const gen_options *o, gen_scene *g)
{
    double volume = 0, rmax = 0;
    for (int b = 0; b < o->bodies + o->meshes; b++) {
        double r = b < o->bodies ? g->shapes[g->body_shape[b]].radius : g->meshes[(b - o->bodies) % o->mesh_shapes].radius;
        volume += 4.0 / 3.0 * GEN_PI * r * r * r;
        if (r > rmax) rmax = r;
    }
    g->room = o->room;
    if (g->room > 0) {
        if (!(2 * rmax < g->room)) {
            fprintf(stderr, "colibri-scene-gen: --room %g is too small for shapes of radius %g\n", g->room, rmax);
            return false;
        }
        return true;
    }
    if (o->bodies + o->meshes == 0) {
        fprintf(stderr, "colibri-scene-gen: a scene of a floor alone needs --room L\n");
        return false;
    }
    g->room = cbrt(volume / o->density);
    if (g->room < 2.5 * rmax) { /* every body must fit, with some room to move */
        fprintf(stderr, "colibri-scene-gen: --density %g is too high for %d bodies: room set to 2.5 * radius\n",
                o->density, o->bodies + o->meshes);
        g->room = 2.5 * rmax;
    }
    return true;
}

int main(int argc, char **argv)
{
    gen_options o;
    if (!parse_options(argc, argv, &o)) return 2;

    scene_rand_seed(o.seed);
    gen_scene g = {0};
    /* the meshes' own sequence: "meshs" mixed into the seed */
    scene_rand_seed_state(o.seed ^ UINT64_C(0x6d65736873), g.mesh_rng);
    g.shapes = calloc((size_t)o.shapes + 1, sizeof *g.shapes);
    g.body_shape = malloc(sizeof *g.body_shape * ((size_t)o.bodies + 1));
    g.meshes = calloc((size_t)o.mesh_shapes + 1, sizeof *g.meshes);
    int status = 1;
    if (g.shapes == NULL || g.body_shape == NULL || g.meshes == NULL) goto out_of_memory;
    for (int s = 0; s < o.shapes; s++) {
        int kind = o.kinds[s % o.kind_count];
        if (kind >= SCENE_KIND_COUNT) {
            make_round(&g.shapes[s], kind);
            continue;
        }
        int n = o.verts_min == o.verts_max ? o.verts_min : scene_rand_int(o.verts_min, o.verts_max);
        if (!make_shape(&g.shapes[s], (scene_kind)kind, n)) goto out_of_memory;
    }
    for (int b = 0; b < o.bodies; b++) g.body_shape[b] = o.assign_random ? scene_rand_int(0, o.shapes - 1) : b % o.shapes;
    scene_rand_swap(g.mesh_rng);
    bool made = true;
    for (int s = 0, knots = 0; s < o.mesh_shapes && made; s++) made = make_mesh(&g.meshes[s], &o, s, &knots);
    if (made && o.floor_tris > 0) made = scene_mesh_floor(&g.floor, o.floor_tris);
    scene_rand_swap(g.mesh_rng);
    if (!made) goto out_of_memory;
    if (!size_room(&o, &g)) {
        status = 2;
        goto done;
    }
    if (o.floor_tris > 0) scene_mesh_fit(&g.floor, o.floor_radius * g.room);

    FILE *fp = o.out != NULL ? fopen(o.out, "w") : stdout;
    if (fp == NULL) {
        perror(o.out);
        goto done;
    }
    status = write_scene(fp, argc, argv, &o, &g);
    if (fp != stdout ? fclose(fp) != 0 : fflush(fp) != 0) status = status ? status : 1;
    if (status == 1) fprintf(stderr, "colibri-scene-gen: writing %s failed\n", o.out ? o.out : "standard output");
    if (status == 2 && o.out != NULL) remove(o.out); /* a bad option found late: no file */
    goto done;

out_of_memory:
    fprintf(stderr, "colibri-scene-gen: out of memory\n");
done:
    if (g.shapes != NULL)
        for (int s = 0; s < o.shapes; s++) free(g.shapes[s].v);
    if (g.meshes != NULL)
        for (int s = 0; s < o.mesh_shapes; s++) scene_mesh_free(&g.meshes[s]);
    scene_mesh_free(&g.floor);
    free(g.meshes);
    free(g.shapes);
    free(g.body_shape);
    return status;
}
