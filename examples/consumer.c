/* SPDX-License-Identifier: MIT */
/* The smallest complete Colibri program, built against the installed library only
 * (tests/install_test.sh compiles it with pkg-config; tests/consumer/ is a meson project
 * around it, built from an install, shared and static, and as a subproject): two
 * overlapping boxes must give exactly one colliding pair. Prints "ok" and exits 0, or
 * says what went wrong and exits 1. */
#include <stdio.h>

#include <colibri/colibri.h>

/* Any failure ends the program: this checks the install, so a message beats a crash. */
static int fail(col_world *world, col_status st, const char *what)
{
    fprintf(stderr, "consumer: %s: %s: %s\n", what, col_status_string(st),
            world ? col_world_last_error(world) : "");
    col_world_destroy(world);
    return 1;
}

int main(void)
{
    col_world_def wdef = col_default_world_def();
    col_world *world = NULL;
    col_status st = col_world_create(&wdef, &world);
    if (st != COL_OK)
        return fail(NULL, st, "col_world_create");

    /* Two boxes of different sizes: a unit cube and a 2 x 1 x 0.5 slab. */
    col_shape_id shapes[2];
    const double half[2][3] = {{0.5, 0.5, 0.5}, {1.0, 0.5, 0.25}};
    for (int s = 0; s < 2; s++) {
        col_vec3 corners[8];
        for (int i = 0; i < 8; i++)
            corners[i] = col_vec3_make(i & 1 ? half[s][0] : -half[s][0],
                                       i & 2 ? half[s][1] : -half[s][1],
                                       i & 4 ? half[s][2] : -half[s][2]);
        st = col_shape_create_convex(world, corners, 8, &shapes[s]);
        if (st != COL_OK)
            return fail(world, st, "col_shape_create_convex");
    }

    /* Centres 1.0 apart along x; half widths 0.5 + 1.0 reach 1.5, so the boxes overlap. */
    col_body_id bodies[2];
    for (int b = 0; b < 2; b++) {
        col_body_def def = col_default_body_def();
        def.shape = shapes[b];
        def.pose.p = col_vec3_make(b ? 1.0 : 0.0, 0.0, 0.0);
        st = col_body_create(world, &def, &bodies[b]);
        if (st != COL_OK)
            return fail(world, st, "col_body_create");
    }

    st = col_world_update(world);
    if (st != COL_OK)
        return fail(world, st, "col_world_update");

    col_pair_events ev = col_world_get_pair_events(world);
    if (ev.pair_count != 1 || ev.began_count != 1 || ev.ended_count != 0) {
        fprintf(stderr, "consumer: expected 1 pair (1 began, 0 ended), got %d (%d began, %d ended)\n",
                ev.pair_count, ev.began_count, ev.ended_count);
        col_world_destroy(world);
        return 1;
    }
    /* Pairs come ordered a.index1 < b.index1, so the pair is (bodies[0], bodies[1]). */
    if (!col_body_id_equals(ev.pairs[0].a, bodies[0]) || !col_body_id_equals(ev.pairs[0].b, bodies[1])) {
        fprintf(stderr, "consumer: the colliding pair is not the two bodies created\n");
        col_world_destroy(world);
        return 1;
    }

    col_world_destroy(world);
    printf("ok\n");
    return 0;
}
