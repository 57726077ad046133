/* SPDX-License-Identifier: MIT */
/* colibri-record-demo: records a small world to a file the viewer plays
 * (tools/viewer/index.html, docs/record.md).
 *
 *   colibri-record-demo OUT.colrec [--apart] [--frames N]
 *
 * Five rows of two bodies (every shape kind: a box, a 20-point hull, a sphere, a capsule
 * and a compound of a box and a sphere) swing towards each other and apart while they
 * turn, so some pairs collide for a while and part again; a sphere joins at frame 10 and
 * leaves at frame 30 (a body added and removed), and a static slab lies under them.
 * --apart spreads everything out so that no pair ever collides (the viewer test's
 * counter-check). Uses only the public API, as an app would. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colibri/colibri.h"

#define ROWS 5

static col_transform pose_at(double x, double y, double z, double angle)
{
    col_transform t = col_transform_identity();
    t.p = col_vec3_make(x, y, z);
    /* a turn by angle about the axis (1, 1, 1) / sqrt(3) */
    double s = sin(angle / 2) / sqrt(3.0);
    t.q.x = s;
    t.q.y = s;
    t.q.z = s;
    t.q.w = cos(angle / 2);
    return t;
}

static int fail(col_world *w, col_status st, const char *what)
{
    fprintf(stderr, "colibri-record-demo: %s: %s (%s)\n", what, col_status_string(st), col_world_last_error(w));
    return 1;
}

#define CHECK(call)                                                                                                    \
    do {                                                                                                               \
        col_status st_ = (call);                                                                                       \
        if (st_ != COL_OK) return fail(world, st_, #call);                                                             \
    } while (0)

static int run(col_world *world, const char *out, bool apart, int frames)
{
    col_shape_id kinds[ROWS];
    CHECK(col_shape_create_box(world, col_vec3_make(0.5, 0.5, 0.5), &kinds[0]));
    col_vec3 gem[20];
    for (int k = 0; k < 20; k++) { /* points on a squashed sphere, spread by the golden angle */
        double z = 1.0 - (2.0 * k + 1.0) / 20.0, r = sqrt(1.0 - z * z), a = 2.399963229728653 * k;
        gem[k] = col_vec3_make(0.6 * r * cos(a), 0.6 * r * sin(a), 0.4 * z);
    }
    CHECK(col_shape_create_convex(world, gem, 20, &kinds[1]));
    CHECK(col_shape_create_sphere(world, 0.5, &kinds[2]));
    CHECK(col_shape_create_capsule(world, 0.4, 0.3, &kinds[3]));
    col_shape_id small_box, small_ball;
    CHECK(col_shape_create_box(world, col_vec3_make(0.3, 0.3, 0.3), &small_box));
    CHECK(col_shape_create_sphere(world, 0.3, &small_ball));
    col_compound_child kids[2] = {{small_box, col_transform_identity()}, {small_ball, col_transform_identity()}};
    kids[0].pose.p = col_vec3_make(-0.4, 0, 0);
    kids[1].pose.p = col_vec3_make(0.4, 0, 0);
    CHECK(col_shape_create_compound(world, kids, 2, &kinds[4]));
    col_shape_id slab;
    CHECK(col_shape_create_box(world, col_vec3_make(3, 0.2, 1.5), &slab));

    const double spread = apart ? 4.0 : 1.0; /* --apart: every gap four times as wide */
    col_body_id left[ROWS], right[ROWS], visitor = {0, 0, 0};
    col_body_def d = col_default_body_def();
    for (int i = 0; i < ROWS; i++) {
        d.shape = kinds[i];
        d.pose = pose_at(-1.5 * spread, 1.6 * i * spread, 0, 0);
        CHECK(col_body_create(world, &d, &left[i]));
        d.shape = kinds[(i + 2) % ROWS];
        d.pose = pose_at(1.5 * spread, 1.6 * i * spread, 0, 0);
        CHECK(col_body_create(world, &d, &right[i]));
    }
    d = col_default_body_def();
    d.shape = slab;
    d.is_static = true;
    d.pose = col_transform_identity();
    d.pose.p = col_vec3_make(0, -1.5 * spread, 0);
    col_body_id floor_id;
    CHECK(col_body_create(world, &d, &floor_id));
    (void)floor_id;

    col_recorder *rec;
    CHECK(col_recorder_open(world, out, &rec));
    for (int f = 0; f < frames; f++) {
        /* Each row swings with its own phase: centres from 3 apart to 0.6 apart. */
        for (int i = 0; i < ROWS; i++) {
            double s = 0.5 + 0.5 * sin(0.15 * f + 0.7 * i), gap = (0.3 + 1.2 * (1 - s)) * spread;
            CHECK(col_body_set_pose(world, left[i], pose_at(-gap, 1.6 * i * spread, 0, 0.05 * f)));
            CHECK(col_body_set_pose(world, right[i], pose_at(gap, 1.6 * i * spread, 0, -0.07 * f)));
        }
        if (f == 10) {
            d = col_default_body_def();
            d.shape = kinds[2];
            d.pose = pose_at(0, -1.0 * spread, 0, 0);
            CHECK(col_body_create(world, &d, &visitor));
        } else if (f > 10 && f < 30) {
            CHECK(col_body_set_pose(world, visitor, pose_at(0.1 * (f - 20) * spread, -1.0 * spread, 0, 0)));
        } else if (f == 30) {
            CHECK(col_body_destroy(world, visitor));
        }
        col_status st = col_world_update(world);
        if (st == COL_OK) st = col_recorder_frame(rec);
        if (st != COL_OK) {
            col_recorder_close(rec);
            return fail(world, st, "frame");
        }
    }
    CHECK(col_recorder_close(rec));
    return 0;
}

int main(int argc, char **argv)
{
    const char *out = NULL;
    bool apart = false;
    int frames = 40;
    for (int k = 1; k < argc; k++) {
        if (strcmp(argv[k], "--apart") == 0) {
            apart = true;
        } else if (strcmp(argv[k], "--frames") == 0 && k + 1 < argc) {
            frames = atoi(argv[++k]);
        } else if (strcmp(argv[k], "-h") == 0 || strcmp(argv[k], "--help") == 0) {
            printf("usage: colibri-record-demo OUT.colrec [--apart] [--frames N]\n"
                   "Records a small world of every shape kind to OUT (play it with tools/viewer/index.html).\n"
                   "--apart: no pair ever collides.\n");
            return 0;
        } else if (argv[k][0] != '-' && out == NULL) {
            out = argv[k];
        } else {
            fprintf(stderr, "colibri-record-demo: unexpected argument '%s' (try --help)\n", argv[k]);
            return 2;
        }
    }
    if (out == NULL || frames < 1) {
        fprintf(stderr, "usage: colibri-record-demo OUT.colrec [--apart] [--frames N]\n");
        return 2;
    }
    col_world_def def = col_default_world_def();
    def.worker_count = 1;
    col_world *world;
    col_status st = col_world_create(&def, &world);
    if (st != COL_OK) {
        fprintf(stderr, "colibri-record-demo: col_world_create: %s\n", col_status_string(st));
        return 1;
    }
    int rc = run(world, out, apart, frames);
    col_world_destroy(world);
    return rc;
}
