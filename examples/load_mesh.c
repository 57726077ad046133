/* SPDX-License-Identifier: MIT */
/* colibri-load-mesh: loads a model file into a mesh shape with colibri-io
 * (include/colibri/io.h) and runs it in a world.
 *
 *   colibri-load-mesh [MODEL] [--frames N] [--scale S] [--mesh K] [--quiet]
 *
 * MODEL defaults to the spider of Debian's assimp-testmodels (an OBJ of 19 groups, 1368
 * triangles). The mesh stands still as a static body, centred at the origin; a second
 * body of the same mesh, turning, passes through it from one side to the other, and six
 * convex bodies (three balls, two boxes, a capsule) circle through its box. Each frame prints
 * the pairs that began and ended touching; the end prints the mesh's triangle count and
 * its memory per triangle. Uses only the public API, as an app would. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colibri/colibri.h"
#include "colibri/io.h"

#ifndef COL_DEFAULT_MODEL
#define COL_DEFAULT_MODEL "/usr/share/assimp/models/OBJ/spider.obj"
#endif

enum { MOVERS = 6 };

static const double two_pi = 6.283185307179586;

static const char *const names[MOVERS + 2] = {"mesh", "copy", "ball 0", "ball 1", "ball 2", "box 0", "box 1", "capsule"};

typedef struct options {
    const char *model;
    int frames;
    double scale;
    int mesh_index;
    bool quiet;
} options;

static int usage(int code)
{
    fprintf(code == 0 ? stdout : stderr,
            "usage: colibri-load-mesh [MODEL] [--frames N] [--scale S] [--mesh K] [--quiet]\n"
            "Loads MODEL (default %s) into a mesh shape, runs a static copy, a moving copy and six\n"
            "convex bodies through it, and prints the pairs that begin and end touching.\n"
            "--scale S: multiply the model's coordinates by S; --mesh K: only the file's mesh K;\n"
            "--quiet: only the summary.\n",
            COL_DEFAULT_MODEL);
    return code;
}

static int parse(int argc, char **argv, options *o)
{
    *o = (options){COL_DEFAULT_MODEL, 60, 1.0, -1, false};
    for (int k = 1; k < argc; k++) {
        if (strcmp(argv[k], "--frames") == 0 && k + 1 < argc) {
            o->frames = atoi(argv[++k]);
        } else if (strcmp(argv[k], "--scale") == 0 && k + 1 < argc) {
            o->scale = atof(argv[++k]);
        } else if (strcmp(argv[k], "--mesh") == 0 && k + 1 < argc) {
            o->mesh_index = atoi(argv[++k]);
        } else if (strcmp(argv[k], "--quiet") == 0) {
            o->quiet = true;
        } else if (strcmp(argv[k], "-h") == 0 || strcmp(argv[k], "--help") == 0) {
            return usage(0) - 1;
        } else if (argv[k][0] != '-') {
            o->model = argv[k];
        } else {
            fprintf(stderr, "colibri-load-mesh: unexpected argument '%s'\n", argv[k]);
            return usage(2);
        }
    }
    if (o->frames < 1) return usage(2);
    return 0;
}

static col_transform pose(double x, double y, double z, double turn)
{
    col_transform t = col_transform_identity();
    t.p = col_vec3_make(x, y, z);
    t.q = col_quat_from_axis_angle(col_vec3_make(0, 1, 0), turn);
    return t;
}

static int fail(col_world *world, col_status st, const char *what)
{
    fprintf(stderr, "colibri-load-mesh: %s: %s (%s)\n", what, col_status_string(st), col_world_last_error(world));
    return 1;
}

#define CHECK(call)                                                                                                    \
    do {                                                                                                               \
        col_status st_ = (call);                                                                                       \
        if (st_ != COL_OK) return fail(world, st_, #call);                                                             \
    } while (0)

/* The six convex movers, sized by the mesh: balls, boxes and a capsule. */
static int make_movers(col_world *world, double size, col_shape_id shapes[MOVERS])
{
    CHECK(col_shape_create_sphere(world, 0.12 * size, &shapes[0]));
    shapes[1] = shapes[2] = shapes[0];
    CHECK(col_shape_create_box(world, col_vec3_make(0.1 * size, 0.08 * size, 0.06 * size), &shapes[3]));
    shapes[4] = shapes[3];
    CHECK(col_shape_create_capsule(world, 0.15 * size, 0.05 * size, &shapes[5]));
    return 0;
}

/* Mover k at frame f: once round in 60 frames on an ellipse through the mesh's box
 * (half its width and depth about the centre), at its own height within the middle 70 %
 * of the box and its own phase. */
static col_transform mover_pose(int k, int f, col_vec3 extent)
{
    const double a = two_pi * (f / 60.0 + k / (double)MOVERS), h = (k - 2.5) / 2.5 * 0.35 * extent.y;
    return pose(0.5 * extent.x * cos(a), h, 0.5 * extent.z * sin(a), 0.1 * f + k);
}

/* The moving copy at frame f: from 2.5 sizes left to 2.5 sizes right, turning. */
static col_transform copy_pose(int f, int frames, col_vec3 centre, double size)
{
    const double s = frames > 1 ? f / (double)(frames - 1) : 0.5;
    const double x = (-2.5 + 5.0 * s) * size;
    const double turn = 0.05 * f, c = cos(turn), s2 = sin(turn);
    /* the copy turns about its own centre: p = (x, 0, 0) - R centre, R the turn about y */
    const col_vec3 rc = col_vec3_make(c * centre.x + s2 * centre.z, centre.y, -s2 * centre.x + c * centre.z);
    return pose(x - rc.x, -rc.y, -rc.z, turn);
}

static void print_events(int f, const col_pair_events *ev)
{
    for (int k = 0; k < ev->began_count; k++)
        printf("frame %3d: began %s - %s\n", f, (const char *)ev->began[k].user_data_a,
               (const char *)ev->began[k].user_data_b);
    for (int k = 0; k < ev->ended_count; k++)
        printf("frame %3d: ended %s - %s\n", f, (const char *)ev->ended[k].user_data_a,
               (const char *)ev->ended[k].user_data_b);
}

static int run(col_world *world, const col_geometry *mesh, const options *o)
{
    col_shape_info si;
    CHECK(col_geometry_get_info(mesh, &si));
    const col_vec3 centre = col_vec3_make(0.5 * (si.aabb_min.x + si.aabb_max.x), 0.5 * (si.aabb_min.y + si.aabb_max.y),
                                          0.5 * (si.aabb_min.z + si.aabb_max.z));
    const col_vec3 extent = col_vec3_make(si.aabb_max.x - si.aabb_min.x, si.aabb_max.y - si.aabb_min.y,
                                          si.aabb_max.z - si.aabb_min.z);
    const double size = fmax(extent.x, fmax(extent.y, extent.z));
    col_shape_id mesh_shape, movers[MOVERS];
    CHECK(col_shape_create(world, mesh, &mesh_shape));
    if (make_movers(world, size, movers) != 0) return 1;

    col_body_def d = col_default_body_def();
    d.shape = mesh_shape;
    d.is_static = true;
    d.pose = pose(-centre.x, -centre.y, -centre.z, 0);
    d.user_data = (void *)names[0];
    col_body_id still, copy, bodies[MOVERS];
    CHECK(col_body_create(world, &d, &still));
    d = col_default_body_def();
    d.shape = mesh_shape;
    d.pose = copy_pose(0, o->frames, centre, size);
    d.user_data = (void *)names[1];
    CHECK(col_body_create(world, &d, &copy));
    for (int k = 0; k < MOVERS; k++) {
        d = col_default_body_def();
        d.shape = movers[k];
        d.pose = mover_pose(k, 0, extent);
        d.user_data = (void *)names[k + 2];
        CHECK(col_body_create(world, &d, &bodies[k]));
    }

    long pair_frames = 0, began = 0;
    int most = 0;
    for (int f = 0; f < o->frames; f++) {
        CHECK(col_body_set_pose(world, copy, copy_pose(f, o->frames, centre, size)));
        for (int k = 0; k < MOVERS; k++) CHECK(col_body_set_pose(world, bodies[k], mover_pose(k, f, extent)));
        CHECK(col_world_update(world));
        const col_pair_events ev = col_world_get_pair_events(world);
        if (!o->quiet) print_events(f, &ev);
        pair_frames += ev.pair_count;
        began += ev.began_count;
        if (ev.pair_count > most) most = ev.pair_count;
    }

    CHECK(col_shape_get_info(world, mesh_shape, &si));
    printf("%s: %d triangles, %d vertices; %zu bytes, %.1f bytes per triangle\n", o->model, si.triangle_count,
           si.vertex_count, si.memory_bytes, (double)si.memory_bytes / si.triangle_count);
    printf("%d frames: %ld pairs began, %.2f pairs per frame, at most %d at once\n", o->frames, began,
           (double)pair_frames / o->frames, most);
    return 0;
}

int main(int argc, char **argv)
{
    options o;
    int rc = parse(argc, argv, &o);
    if (rc != 0) return rc < 0 ? 0 : rc;

    col_io_load_def ld = col_default_io_load_def();
    ld.scale = o.scale;
    ld.mesh_index = o.mesh_index;
    col_io_load_info info;
    col_geometry *mesh;
    col_error err;
    col_status st = col_io_load_mesh(NULL, o.model, &ld, &mesh, &info, &err);
    if (st != COL_OK) {
        fprintf(stderr, "colibri-load-mesh: %s (%s)\n", err.message, col_status_string(st));
        return 1;
    }
    printf("%s: %d meshes in the file, %d merged: %d triangles, %d vertices", o.model, info.file_mesh_count,
           info.mesh_count, info.triangle_count, info.vertex_count);
    if (info.skipped_points + info.skipped_lines > 0)
        printf(" (%d points and %d lines skipped)", info.skipped_points, info.skipped_lines);
    printf("\n");

    col_world_def def = col_default_world_def();
    def.worker_count = 1;
    col_world *world;
    st = col_world_create(&def, &world);
    if (st != COL_OK) {
        fprintf(stderr, "colibri-load-mesh: col_world_create: %s\n", col_status_string(st));
        col_geometry_destroy(mesh);
        return 1;
    }
    rc = run(world, mesh, &o);
    col_world_destroy(world);
    col_geometry_destroy(mesh);
    return rc;
}
