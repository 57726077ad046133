/* SPDX-License-Identifier: MIT */
/* colibri-scene-gen: writes a benchmark scene (docs/scenes.md: the format, the motion and
 * every option) of convex bodies: "colibri-scene 1" when every shape is a hull, and
 * "colibri-scene 2" when --kinds asks for spheres or capsules too.
 *
 *   colibri-scene-gen [--seed N] [--bodies N] [--verts NV|A-B] [--kinds LIST] [--shapes S]
 *                     [--assign rr|random] [--density D] [--room L] [--speed X] [--spin DEG]
 *                     [--frames F] [-o FILE]
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
            "  -o FILE           write to FILE (default standard output)\n");
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

static bool parse_verts(const char *s, gen_options *o)
{
    if (s == NULL) return fail("--verts needs a value", s);
    const char *dash = strchr(s, '-');
    if (dash == NULL) {
        if (!parse_int(s, 4, &o->verts_min)) return fail("--verts must be an integer >= 4", s);
        o->verts_max = o->verts_min;
        return true;
    }
    char lo[32];
    size_t n = (size_t)(dash - s);
    if (n == 0 || n >= sizeof lo) return fail("--verts range must be A-B", s);
    memcpy(lo, s, n);
    lo[n] = '\0';
    if (!parse_int(lo, 4, &o->verts_min) || !parse_int(dash + 1, 4, &o->verts_max) || o->verts_max < o->verts_min)
        return fail("--verts range must be A-B with 4 <= A <= B", s);
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
    if (!parse_kinds("mix", o)) return false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            exit(0);
        }
        i++; /* every option takes one value */
        if (strcmp(a, "--seed") == 0) {
            char *end;
            errno = 0;
            if (v == NULL || *v == '\0' || *v == '-') return fail("--seed must be an unsigned integer", v);
            o->seed = strtoull(v, &end, 0);
            if (errno != 0 || *end != '\0') return fail("--seed must be an unsigned integer", v);
        } else if (strcmp(a, "--bodies") == 0) {
            if (!parse_int(v, 1, &o->bodies)) return fail("--bodies must be an integer >= 1", v);
        } else if (strcmp(a, "--verts") == 0) {
            if (!parse_verts(v, o)) return false;
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
    if (o->shapes == 0) o->shapes = o->bodies < 100 ? o->bodies : 100;
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

static int write_scene(FILE *fp, int argc, char **argv, const gen_options *o, const gen_shape *shapes,
                       const int *body_shape, double room)
{
    bool round = false;
    for (int s = 0; s < o->shapes; s++) round = round || shapes[s].kind >= SCENE_KIND_COUNT;
    /* Hull-only scenes stay version 1, byte for byte what they were before spheres and
     * capsules existed. */
    fprintf(fp, "colibri-scene %d\n# colibri-scene-gen", round ? 2 : 1);
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
    fprintf(fp, "room %.17g\nframes %d\nshapes %d\n", room, o->frames, o->shapes);
    for (int s = 0; s < o->shapes; s++) {
        if (shapes[s].kind == GEN_SPHERE) {
            fprintf(fp, "sphere %.17g\n", shapes[s].core_radius);
            continue;
        }
        if (shapes[s].kind == GEN_CAPSULE) {
            fprintf(fp, "capsule %.17g %.17g\n", shapes[s].half_height, shapes[s].core_radius);
            continue;
        }
        fprintf(fp, "shape %d\n", shapes[s].vertex_count);
        for (int i = 0; i < shapes[s].vertex_count; i++)
            fprintf(fp, "%.17g %.17g %.17g\n", shapes[s].v[i].x, shapes[s].v[i].y, shapes[s].v[i].z);
    }
    fprintf(fp, "bodies %d\n", o->bodies);
    double spin = o->spin * GEN_PI / 180.0; /* radians per frame */
    for (int b = 0; b < o->bodies; b++) {
        double r = shapes[body_shape[b]].radius, p[3];
        for (int k = 0; k < 3; k++) p[k] = scene_rand_range(r, room - r);
        col_quat q = scene_rand_rotation();
        col_vec3 v = scene_rand_direction();
        col_vec3 w = scene_rand_direction();
        double vs = o->speed * r;
        fprintf(fp, "b %d %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n",
                body_shape[b], p[0], p[1], p[2], q.w, q.x, q.y, q.z, v.x * vs, v.y * vs, v.z * vs, w.x * spin,
                w.y * spin, w.z * spin);
    }
    return ferror(fp) ? 1 : 0;
}

int main(int argc, char **argv)
{
    gen_options o;
    if (!parse_options(argc, argv, &o)) return 2;

    scene_rand_seed(o.seed);
    gen_shape *shapes = calloc((size_t)o.shapes, sizeof *shapes);
    int *body_shape = malloc(sizeof *body_shape * (size_t)o.bodies);
    int status = 1;
    if (shapes == NULL || body_shape == NULL) goto out_of_memory;
    for (int s = 0; s < o.shapes; s++) {
        int kind = o.kinds[s % o.kind_count];
        if (kind >= SCENE_KIND_COUNT) {
            make_round(&shapes[s], kind);
            continue;
        }
        int n = o.verts_min == o.verts_max ? o.verts_min : scene_rand_int(o.verts_min, o.verts_max);
        if (!make_shape(&shapes[s], (scene_kind)kind, n)) goto out_of_memory;
    }
    double volume = 0, rmax = 0;
    for (int b = 0; b < o.bodies; b++) {
        int s = o.assign_random ? scene_rand_int(0, o.shapes - 1) : b % o.shapes;
        double r = shapes[s].radius;
        body_shape[b] = s;
        volume += 4.0 / 3.0 * GEN_PI * r * r * r;
        if (r > rmax) rmax = r;
    }
    double room = o.room;
    if (room > 0) {
        if (!(2 * rmax < room)) {
            fprintf(stderr, "colibri-scene-gen: --room %g is too small for shapes of radius %g\n", room, rmax);
            status = 2;
            goto done;
        }
    } else {
        room = cbrt(volume / o.density);
        if (room < 2.5 * rmax) { /* every body must fit, with some room to move */
            fprintf(stderr, "colibri-scene-gen: --density %g is too high for %d bodies: room set to 2.5 * radius\n",
                    o.density, o.bodies);
            room = 2.5 * rmax;
        }
    }

    FILE *fp = o.out != NULL ? fopen(o.out, "w") : stdout;
    if (fp == NULL) {
        perror(o.out);
        goto done;
    }
    status = write_scene(fp, argc, argv, &o, shapes, body_shape, room);
    if (fp != stdout ? fclose(fp) != 0 : fflush(fp) != 0) status = 1;
    if (status != 0) fprintf(stderr, "colibri-scene-gen: writing %s failed\n", o.out ? o.out : "standard output");
    goto done;

out_of_memory:
    fprintf(stderr, "colibri-scene-gen: out of memory\n");
done:
    if (shapes != NULL)
        for (int s = 0; s < o.shapes; s++) free(shapes[s].v);
    free(shapes);
    free(body_shape);
    return status;
}
