/* SPDX-License-Identifier: MIT */
/* libFuzzer target: the benchmark's scene reader (bench/scene.c) on arbitrary text.
 *
 * A load either fails with a "path:LINE: why" message and an empty scene, or gives a
 * scene whose counts and indices are in range and whose closed-form poses are finite
 * unit transforms at any frame. A small loaded scene is then put into a world (shapes,
 * bodies at frame 0, one update), as colibri-bench does: the world must take what the
 * reader accepts or refuse it with a status. */
#define _POSIX_C_SOURCE 200809L /* fmemopen */

#include "fuzz_util.h"

#include "bench/scene.h"

/* Finding 5 (docs/fuzzing.md): the reader allocates from declared counts before reading
 * the data. With COLIBRI_FUZZ_SKIP=5 inputs that declare more items than they have bytes
 * are left out. */
static bool blank(uint8_t c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

static bool declares_more_than_it_holds(const uint8_t *data, size_t size)
{
    static const char *const keys[] = {"shapes", "bodies", "shape"};
    for (size_t i = 0; i < size; i++) {
        if (i > 0 && data[i - 1] != '\n') continue;
        size_t j = i;
        while (j < size && blank(data[j])) j++;
        for (int k = 0; k < 3; k++) {
            size_t n = strlen(keys[k]);
            if (j + n > size || memcmp(data + j, keys[k], n) != 0) continue;
            size_t d = j + n;
            while (d < size && blank(data[d])) d++;
            double v = 0;
            while (d < size && data[d] >= '0' && data[d] <= '9') v = v * 10 + (data[d++] - '0');
            if (v > (double)size) return true;
            break;
        }
    }
    return false;
}

static void check_pose(col_transform x, int b, double t)
{
    double qn = x.q.x * x.q.x + x.q.y * x.q.y + x.q.z * x.q.z + x.q.w * x.q.w;
    FZ_CHECK(isfinite(x.p.x) && isfinite(x.p.y) && isfinite(x.p.z) && fabs(qn - 1.0) < 1e-9,
             "body %d at t %g: p (%g %g %g), |q|^2 %g", b, t, x.p.x, x.p.y, x.p.z, qn);
}

/* The scene into a world, as colibri-bench loads it. */
static void to_world(const bench_scene *sc)
{
    col_world_def def = col_default_world_def();
    def.worker_count = 1;
    col_world *w = NULL;
    FZ_CHECK(col_world_create(&def, &w) == COL_OK, "world");
    col_shape_id shapes[16];
    bool made[16] = {false};
    for (int s = 0; s < sc->shape_count; s++) {
        uint64_t before = col_world_hash(w);
        col_status st = col_shape_create_convex(w, sc->shapes[s].vertices, sc->shapes[s].vertex_count, &shapes[s]);
        made[s] = st == COL_OK;
        FZ_CHECK(made[s] || col_world_hash(w) == before, "failed shape changed the world");
    }
    for (int b = 0; b < sc->body_count; b++) {
        if (!made[sc->bodies[b].shape]) continue;
        col_body_def bd = col_default_body_def();
        bd.shape = shapes[sc->bodies[b].shape];
        bd.pose = bench_scene_pose(sc, b, 0);
        col_body_id id;
        uint64_t before = col_world_hash(w);
        if (col_body_create(w, &bd, &id) != COL_OK) FZ_CHECK(col_world_hash(w) == before, "failed body changed the world");
    }
    FZ_CHECK(col_world_update(w) == COL_OK, "update: %s", col_world_last_error(w));
    col_world_destroy(w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0 || (fz_skip(5) && declares_more_than_it_holds(data, size))) return 0;
    FILE *fp = fmemopen((void *)data, size, "r");
    FZ_CHECK(fp != NULL, "fmemopen");
    bench_scene sc;
    char err[512];
    bool ok = bench_scene_load(fp, "fuzz", &sc, err, sizeof err);
    fclose(fp);
    if (!ok) {
        FZ_CHECK(strncmp(err, "fuzz:", 5) == 0 && sc.shapes == NULL && sc.bodies == NULL && sc.shape_count == 0 &&
                     sc.body_count == 0,
                 "failed load: '%s', scene not empty", err);
        return 0;
    }
    FZ_CHECK(sc.room > 0.0 && isfinite(sc.room) && sc.frames >= 1 && sc.shape_count >= 0 && sc.body_count >= 0,
             "scene header");
    for (int s = 0; s < sc.shape_count; s++) {
        FZ_CHECK(sc.shapes[s].vertex_count >= 1 && 2 * sc.shapes[s].radius < sc.room, "shape %d", s);
        for (int v = 0; v < sc.shapes[s].vertex_count; v++) {
            col_vec3 p = sc.shapes[s].vertices[v];
            FZ_CHECK(isfinite(p.x) && isfinite(p.y) && isfinite(p.z), "shape %d vertex %d", s, v);
        }
    }
    for (int b = 0; b < sc.body_count; b++) {
        FZ_CHECK(sc.bodies[b].shape >= 0 && sc.bodies[b].shape < sc.shape_count, "body %d shape", b);
        check_pose(bench_scene_pose(&sc, b, 0), b, 0);
        check_pose(bench_scene_pose(&sc, b, sc.frames - 1), b, sc.frames - 1);
        check_pose(bench_scene_pose_at(&sc, b, 0.5), b, 0.5);
    }
    int verts = 0;
    for (int s = 0; s < sc.shape_count; s++) verts += sc.shapes[s].vertex_count > 64 ? 1000 : sc.shapes[s].vertex_count;
    if (sc.shape_count <= 16 && sc.body_count <= 32 && verts <= 256) to_world(&sc);
    bench_scene_free(&sc);
    return 0;
}
