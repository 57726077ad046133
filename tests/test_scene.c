/* SPDX-License-Identifier: MIT */
/* The scene reader (bench/scene.c) on any text: a scene or a message, never a crash, and
 * memory that follows the data read rather than the counts the file declares.
 * - lying headers: tiny files (written to the directory given as argv[1], the build
 *   directory under meson) that declare 2^31 - 1 shapes, vertices or bodies must fail
 *   with a message naming the declared and the real count, within a memory limit that
 *   allocating the declared counts breaks (AddressSanitizer's max_allocation_size_mb in
 *   sanitizer builds, an address-space limit otherwise);
 * - bad values, one per line kind: NaN, infinities, overflow, negative and too large
 *   counts, NUL bytes, motions that overflow within the scene's frames;
 * - every truncation of a valid scene, and random mutations of it (fixed seed): each
 *   load fails with a "path:LINE: " message, or gives a scene whose poses are finite;
 * - version 2's sphere and capsule records (docs/scenes.md): their kind, sizes and radius
 *   (R, or H + R, which the motion bounces with), "capsule 0 R" read as a sphere, bad
 *   values, such records in a version-1 file;
 * - version 2's mesh records: vertices, triangles (degenerate ones kept as written) and the
 *   radius over every vertex, used or not; bad counts and indices, lying NV and NT, a mesh
 *   in a version-1 file; truncations and mutations of a scene with meshes. */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "bench/scene.h"
#include "tests/test_util.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SCENE_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SCENE_SANITIZED 1
#endif
#endif

#if defined(__SANITIZE_ADDRESS__)
#define SCENE_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SCENE_ASAN 1
#endif
#endif

#ifdef SCENE_ASAN
/* Under AddressSanitizer an allocation above 256 MB aborts the test: the reader must not
 * size anything from a declared count alone. (The environment's ASAN_OPTIONS come on
 * top of these.) */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "max_allocation_size_mb=256"; }
#endif

static const char *g_dir = ".";

/* A valid scene: two shapes, three bodies. */
static const char k_valid[] = "colibri-scene 1\n"
                              "# a comment line\n"
                              "room 10\n"
                              "frames 5\n"
                              "shapes 2\n"
                              "shape 4\n"
                              "0 0 0\n"
                              "1 0 0\n"
                              "0 1 0\n"
                              "0 0 1   # trailing comment\n"
                              "shape 5\n"
                              "1 1 1\n"
                              "-1 -1 1\n"
                              "-1 1 -1\n"
                              "1 -1 -1\r\n"
                              "0.5 0.5 0.5\n"
                              "bodies 3\n"
                              "b 0 1 2 3 1 0 0 0 0.1 0.2 0.3 0 0 0.1\n"
                              "b 1 5 5 5 0.5 0.5 0.5 0.5 -1 0 0 0.01 0.02 0.03\n"
                              "b\t0  8 8 8 0 1 0 0 0 0 0 0 0 0\n";

/* A valid version-2 scene: spheres, capsules (one with H = 0, one with H = -0) and a hull. */
static const char k_valid2[] = "colibri-scene 2\n"
                               "room 10\n"
                               "frames 5\n"
                               "shapes 5\n"
                               "sphere 0.5\n"
                               "capsule 1 0.25   # H R\n"
                               "shape 4\n"
                               "0 0 0\n"
                               "1 0 0\n"
                               "0 1 0\n"
                               "0 0 1\n"
                               "capsule 0 2\n"
                               "capsule -0 0.75\n"
                               "bodies 4\n"
                               "b 0 1 2 3 1 0 0 0 0.1 0.2 0.3 0 0 0.1\n"
                               "b 1 5 5 5 0.5 0.5 0.5 0.5 -1 0 0 0.01 0.02 0.03\n"
                               "b 3 8 8 8 0 1 0 0 0 0 0 0 0 0\n"
                               "b 2 5 5 5 1 0 0 0 0 0 0 0 0 0\n";

/* A valid version-2 scene with meshes: a tetrahedron surface, a soup with degenerate
 * triangles (a repeated index, a point, collinear points) and a vertex no triangle uses
 * (the farthest, so it sets the radius), a hull and a sphere between them. */
static const char k_valid_mesh[] = "colibri-scene 2\n"
                                   "room 20\n"
                                   "frames 4\n"
                                   "shapes 4\n"
                                   "mesh 4 4   # NV NT\n"
                                   "0 0 0\n"
                                   "1 0 0\n"
                                   "0 1 0\n"
                                   "0 0 1\n"
                                   "0 1 2\n"
                                   "0 1 3\n"
                                   "0 2 3\n"
                                   "1 2 3\n"
                                   "sphere 0.5\n"
                                   "mesh 5 3\n"
                                   "1 1 1\n"
                                   "2 2 2\n"
                                   "1.5 1.5 1.5\n"
                                   "-1 0 0\n"
                                   "0 0 -6\n"
                                   "0 1 0\n"
                                   "3 3 3\n"
                                   "0 1 2\n"
                                   "shape 4\n"
                                   "0 0 0\n"
                                   "1 0 0\n"
                                   "0 1 0\n"
                                   "0 0 1\n"
                                   "bodies 4\n"
                                   "b 0 5 5 5 1 0 0 0 0.1 0.2 0.3 0 0 0.1\n"
                                   "b 1 10 10 10 1 0 0 0 0 0 0 0 0 0\n"
                                   "b 2 8 8 8 0 1 0 0 -1 0 0 0.01 0.02 0.03\n"
                                   "b 3 12 12 12 1 0 0 0 0 1 0 0 0 0\n";

/* Loads text through a file in g_dir (name: tag.scene). Returns the load's result. */
static bool load_file(const char *tag, const char *text, size_t len, bench_scene *sc, char *err, size_t errlen)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/test_scene_%s.scene", g_dir, tag);
    FILE *fp = fopen(path, "wb");
    assert_non_null(fp);
    assert_int_equal(fwrite(text, 1, len, fp), len);
    assert_int_equal(fclose(fp), 0);
    fp = fopen(path, "rb");
    assert_non_null(fp);
    bool ok = bench_scene_load(fp, path, sc, err, errlen);
    fclose(fp);
    remove(path);
    return ok;
}

/* Loads text from memory (fmemopen), path "mem". */
static bool load_mem(const char *text, size_t len, bench_scene *sc, char *err, size_t errlen)
{
    FILE *fp = fmemopen((void *)text, len, "r");
    assert_non_null(fp);
    bool ok = bench_scene_load(fp, "mem", sc, err, errlen);
    fclose(fp);
    return ok;
}

static bool zeroed(const bench_scene *sc)
{
    static const bench_scene zero;
    return memcmp(sc, &zero, sizeof zero) == 0;
}

/* Every pose of every body at frames 0, 1 and F - 1 and a time between is finite. */
static void check_poses_finite(const bench_scene *sc)
{
    const double t[4] = {0.0, 1.0, 0.5, (double)sc->frames - 1.0};
    for (int b = 0; b < sc->body_count; b++)
        for (int k = 0; k < 4; k++) {
            col_transform x = bench_scene_pose_at(sc, b, t[k]);
            double v[7] = {x.p.x, x.p.y, x.p.z, x.q.x, x.q.y, x.q.z, x.q.w};
            for (int i = 0; i < 7; i++)
                if (!isfinite(v[i])) fail_msg("body %d at t %g: pose component %d is %g", b, t[k], i, v[i]);
        }
}

/* A failed load: false, a "path:LINE: " message containing want (if not NULL), and a
 * zeroed scene. */
static void expect_failure(bool ok, const bench_scene *sc, const char *err, const char *path, const char *want)
{
    if (ok) fail_msg("loaded, expected a failure with '%s'", want ? want : "(any)");
    size_t n = strlen(path);
    if (strncmp(err, path, n) != 0 || err[n] != ':') fail_msg("message '%s' does not start with '%s:'", err, path);
    if (want != NULL && strstr(err, want) == NULL) fail_msg("message '%s' does not say '%s'", err, want);
    assert_true(zeroed(sc));
}

/* ---- memory from declared counts ---- */

/* Outside the sanitizers: an address-space limit of the current size plus 1 GB, so that
 * an allocation of the declared counts (tens of gigabytes) fails. */
static void limit_memory(void)
{
#ifndef SCENE_SANITIZED
    FILE *fp = fopen("/proc/self/statm", "r");
    unsigned long pages = 0;
    if (fp != NULL) {
        if (fscanf(fp, "%lu", &pages) != 1) pages = 0;
        fclose(fp);
    }
    if (pages == 0) return; /* not Linux: no limit, the messages are still checked */
    struct rlimit rl;
    assert_int_equal(getrlimit(RLIMIT_AS, &rl), 0);
    rlim_t want = (rlim_t)pages * 4096u + ((rlim_t)1 << 30);
    if (rl.rlim_max != RLIM_INFINITY && want > rl.rlim_max) want = rl.rlim_max;
    rl.rlim_cur = want;
    assert_int_equal(setrlimit(RLIMIT_AS, &rl), 0);
#endif
}

static void unlimit_memory(void)
{
#ifndef SCENE_SANITIZED
    struct rlimit rl;
    assert_int_equal(getrlimit(RLIMIT_AS, &rl), 0);
    rl.rlim_cur = rl.rlim_max;
    assert_int_equal(setrlimit(RLIMIT_AS, &rl), 0);
#endif
}

static void test_lying_headers(void **state)
{
    (void)state;
    static const struct {
        const char *tag, *text, *want;
    } cases[] = {
        {"shapes", "colibri-scene 1\nroom 10\nframes 1\nshapes 2147483647\nshape 1\n0 0 0\n",
         "the scene declares 2147483647 shapes, the file has 1"},
        {"vertices", "colibri-scene 1\nroom 10\nframes 1\nshapes 1\nshape 2147483647\n0 0 0\n",
         "shape 0 declares 2147483647 vertices, the file has 1"},
        {"bodies",
         "colibri-scene 1\nroom 10\nframes 1\nshapes 1\nshape 1\n0 0 0\nbodies 2147483647\n"
         "b 0 1 1 1 1 0 0 0 0 0 0 0 0 0\n",
         "the scene declares 2147483647 bodies, the file has 1"},
        {"more_shapes", "colibri-scene 1\nroom 10\nframes 1\nshapes 3\nshape 1\n0 0 0\nshape 1\n1 1 1\n",
         "the scene declares 3 shapes, the file has 2"},
        {"mesh_vertices", "colibri-scene 2\nroom 10\nframes 1\nshapes 1\nmesh 2147483647 1\n0 0 0\n",
         "shape 0 declares 2147483647 vertices, the file has 1"},
        {"mesh_triangles", "colibri-scene 2\nroom 10\nframes 1\nshapes 1\nmesh 3 2147483647\n0 0 0\n1 0 0\n0 1 0\n0 1 2\n",
         "shape 0 declares 2147483647 triangles, the file has 1"},
    };
    limit_memory();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        bench_scene sc;
        char err[300], path[4096];
        bool ok = load_file(cases[i].tag, cases[i].text, strlen(cases[i].text), &sc, err, sizeof err);
        snprintf(path, sizeof path, "%s/test_scene_%s.scene", g_dir, cases[i].tag);
        print_message("%zu bytes: %s\n", strlen(cases[i].text), err);
        expect_failure(ok, &sc, err, path, cases[i].want);
    }
    unlimit_memory();
}

/* ---- bad values ---- */

static void test_valid_scene(void **state)
{
    (void)state;
    bench_scene sc;
    char err[300] = "";
    bool ok = load_file("valid", k_valid, strlen(k_valid), &sc, err, sizeof err);
    if (!ok) fail_msg("%s", err);
    assert_int_equal(sc.shape_count, 2);
    assert_int_equal(sc.shapes[0].vertex_count, 4);
    assert_int_equal(sc.shapes[1].vertex_count, 5);
    assert_true(sc.shapes[1].radius == sqrt(3.0));
    assert_int_equal(sc.body_count, 3);
    assert_int_equal(sc.bodies[2].shape, 0);
    assert_int_equal(sc.frames, 5);
    check_poses_finite(&sc);
    bench_scene_free(&sc);
    assert_true(zeroed(&sc));
    /* nothing at all is a valid scene too */
    const char *empty = "colibri-scene 1\nroom 1\nframes 1\nshapes 0\nbodies 0\n";
    ok = load_mem(empty, strlen(empty), &sc, err, sizeof err);
    if (!ok) fail_msg("%s", err);
    assert_int_equal(sc.shape_count + sc.body_count, 0);
    bench_scene_free(&sc);
}

/* The scene `base` with line `line` (1-based) replaced by `with`. */
static size_t with_line_of(const char *base, int line, const char *with, char *out, size_t cap)
{
    const char *s = base;
    size_t n = 0;
    for (int l = 1; *s != '\0'; l++) {
        const char *e = strchr(s, '\n');
        size_t len = (size_t)(e - s) + 1;
        const char *src = l == line ? with : s;
        size_t m = l == line ? strlen(with) : len;
        assert_true(n + m < cap);
        memcpy(out + n, src, m);
        n += m;
        s += len;
    }
    return n;
}

/* k_valid with line `line` replaced by `with`. */
static size_t with_line(int line, const char *with, char *out, size_t cap)
{
    return with_line_of(k_valid, line, with, out, cap);
}

/* One bad line: line `line` of a valid scene replaced by `with` must fail with a message
 * containing `want`. */
typedef struct line_case {
    int line;
    const char *with, *want;
} line_case;

/* Each case on base fails as it says; with at_line, at the line it replaced ("mem:LINE: "
 * starts the message). */
static void expect_line_cases(const char *base, const line_case *cases, size_t count, bool at_line)
{
    char buf[4096];
    for (size_t i = 0; i < count; i++) {
        size_t n = with_line_of(base, cases[i].line, cases[i].with, buf, sizeof buf);
        bench_scene sc;
        char err[300] = "";
        bool ok = load_mem(buf, n, &sc, err, sizeof err);
        if (ok) fail_msg("case %zu (line %d '%s') loaded", i, cases[i].line, cases[i].with);
        if (at_line) {
            char want[300];
            snprintf(want, sizeof want, "mem:%d: %s", cases[i].line, cases[i].want);
            if (strncmp(err, want, strlen(want)) != 0) fail_msg("case %zu: message '%s' is not '%s...'", i, err, want);
        }
        expect_failure(ok, &sc, err, "mem", cases[i].want);
    }
}

static void test_bad_values(void **state)
{
    (void)state;
    /* line numbers of k_valid: 1 header, 3 room, 4 frames, 5 shapes, 6 shape, 7-10
     * vertices, 11 shape, 17 bodies, 18-20 bodies */
    static const line_case cases[] = {
        {1, "colibri-scene 3\n", "not a scene file"},
        {1, "colibri-scene 0\n", "not a scene file"},
        {1, "colibri-scene 2.0\n", "not a scene file"},
        {1, "\n", "not a scene file"},
        {3, "room nan\n", "expected 'room L'"},
        {3, "room inf\n", "expected 'room L'"},
        {3, "room -1\n", "expected 'room L'"},
        {3, "room 0\n", "expected 'room L'"},
        {3, "room 1e999\n", "expected 'room L'"},
        {3, "room 1.7e308\n", "expected 'room L'"},    /* 2 L overflows */
        {4, "frames 0\n", "expected 'frames N'"},
        {4, "frames -3\n", "expected 'frames N'"},
        {4, "frames 2147483648\n", "expected 'frames N'"},
        {4, "frames 99999999999999999999999\n", "expected 'frames N'"},
        {4, "frames 0x10\n", "expected 'frames N'"},
        {4, "frames 5 6\n", "expected 'frames N'"},
        {5, "shapes -1\n", "expected 'shapes N'"},
        {5, "shapes 4294967298\n", "expected 'shapes N'"},
        {5, "shapes 1\n", "expected 'bodies N'"},     /* the second shape's line comes instead */
        {6, "shape 0\n", "expected 'shape N'"},
        {6, "shape -2147483648\n", "expected 'shape N'"},
        {6, "shape 3\n", "expected 'shape N'"},  /* shape 0's fourth vertex read as shape 1 */
        {7, "nan 0 0\n", "expected vertex 0 of shape 0"},
        {7, "0 -inf 0\n", "expected vertex 0 of shape 0"},
        {7, "0 0 1e400\n", "expected vertex 0 of shape 0"},
        {7, "0 0\n", "expected vertex 0 of shape 0"},
        {7, "0 0 0 0\n", "expected vertex 0 of shape 0"},
        {7, "0 0 0x\n", "expected vertex 0 of shape 0"},
        {7, "1e200 0 0\n", "does not fit in the room"}, /* its square overflows */
        {7, "5 0 0\n", "does not fit in the room"},
        {17, "bodies -5\n", "expected 'bodies N'"},
        {17, "bodies 4\n", "the scene declares 4 bodies, the file has 3"},
        {17, "bodies 2\n", "after the last body"},
        {18, "b 2 1 2 3 1 0 0 0 0 0 0 0 0 0\n", "shape '2' is not an index"},
        {18, "b -1 1 2 3 1 0 0 0 0 0 0 0 0 0\n", "shape '-1' is not an index"},
        {18, "b 0 1 2 3 1 0 0 0 0 0 0 0 0\n", "15 fields, got 14"},
        {18, "b 0 1 2 3 1 0 0 0 0 0 0 0 0 0 0\n", "15 fields, got 16"},
        {18, "b 0 1 2 3 1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n", "too many fields"},
        {18, "x 0 1 2 3 1 0 0 0 0 0 0 0 0 0\n", "expected body 0"},
        {18, "b 0 nan 2 3 1 0 0 0 0 0 0 0 0 0\n", "field 3 ('nan') is not a finite number"},
        {18, "b 0 1 2 3 inf 0 0 0 0 0 0 0 0 0\n", "field 6 ('inf') is not a finite number"},
        {18, "b 0 1 2 3 0 0 0 0 0 0 0 0 0 0\n", "cannot be normalized"},
        {18, "b 0 1 2 3 1e-170 0 0 0 0 0 0 0 0 0\n", "cannot be normalized"},
        {18, "b 0 1 2 3 1e160 1e160 0 0 0 0 0 0 0 0\n", "cannot be normalized"},
        {18, "b 0 1 2 3 1 0 0 0 1e308 0 0 0 0 0\n", "overflows within 5 frames"},
        {18, "b 0 1 2 3 1 0 0 0 0 5e307 0 0 0 0\n", "overflows within 5 frames"},
        {18, "b 0 1 2 3 1 0 0 0 0 0 0 1e308 1e308 0\n", "angular velocity is too large"},
        {18, "b 0 1 2 3 1 0 0 0 0 0 0 1e308 0 0\n", "angular velocity is too large"},
        {20, "b 0 8 8 8 0 1 0 0 0 0 0 0 0 0\nb 0 8 8 8 0 1 0 0 0 0 0 0 0 0\n", "after the last body"},
    };
    expect_line_cases(k_valid, cases, sizeof cases / sizeof cases[0], false);
    char buf[4096];
    /* A NUL byte inside a line. */
    size_t n = with_line(7, "0 0 0\n", buf, sizeof buf);
    char *p = strstr(buf, "1 0 0\n");
    assert_non_null(p);
    p[1] = '\0';
    bench_scene sc;
    char err[300] = "";
    expect_failure(load_mem(buf, n, &sc, err, sizeof err), &sc, err, "mem", "NUL byte");
    /* A tiny error buffer still gets a terminated prefix; none at all is allowed. */
    char tiny[8];
    n = with_line(3, "room nan\n", buf, sizeof buf);
    assert_false(load_mem(buf, n, &sc, tiny, sizeof tiny));
    assert_true(strlen(tiny) < sizeof tiny);
    assert_false(load_mem(buf, n, &sc, NULL, 0));
    assert_true(zeroed(&sc));
}

/* ---- version 2: spheres and capsules ---- */

static void test_round_shapes(void **state)
{
    (void)state;
    bench_scene sc;
    char err[300] = "";
    bool ok = load_file("valid2", k_valid2, strlen(k_valid2), &sc, err, sizeof err);
    if (!ok) fail_msg("%s", err);
    assert_int_equal(sc.shape_count, 5);
    const bench_shape *sh = sc.shapes;
    /* sphere 0.5 */
    assert_int_equal(sh[0].kind, BENCH_SHAPE_SPHERE);
    assert_true(sh[0].core_radius == 0.5 && sh[0].half_height == 0.0 && sh[0].radius == 0.5);
    assert_int_equal(sh[0].vertex_count, 0);
    assert_null(sh[0].vertices);
    /* capsule 1 0.25: radius H + R */
    assert_int_equal(sh[1].kind, BENCH_SHAPE_CAPSULE);
    assert_true(sh[1].half_height == 1.0 && sh[1].core_radius == 0.25 && sh[1].radius == 1.25);
    assert_int_equal(sh[1].vertex_count, 0);
    /* the hull between them */
    assert_int_equal(sh[2].kind, BENCH_SHAPE_HULL);
    assert_int_equal(sh[2].vertex_count, 4);
    assert_true(sh[2].radius == 1.0 && sh[2].core_radius == 0.0 && sh[2].half_height == 0.0);
    /* capsule 0 2 and capsule -0 0.75 are spheres, with a +0 half height */
    assert_int_equal(sh[3].kind, BENCH_SHAPE_SPHERE);
    assert_true(sh[3].core_radius == 2.0 && sh[3].radius == 2.0);
    assert_int_equal(sh[4].kind, BENCH_SHAPE_SPHERE);
    assert_true(sh[4].core_radius == 0.75 && sh[4].radius == 0.75 && !signbit(sh[4].half_height));
    assert_string_equal(bench_shape_kind_name(sh[1].kind), "capsule");
    assert_int_equal(sc.body_count, 4);
    check_poses_finite(&sc);
    /* The bounce uses the capsule's H + R = 1.25: body 1 starts at x = 5 moving -1 per
     * frame, meets the wall at x = 1.25 at t = 3.75 and is back at 1.5 at frame 4 (with
     * the core radius 0.25 it would be at 1). */
    assert_true(bench_scene_pose(&sc, 1, 3).p.x == 2.0);
    assert_true(bench_scene_pose(&sc, 1, 4).p.x == 1.5);
    /* A resting sphere of radius 2 at 8 stays at 8 (it just fits: 8 = L - R). */
    assert_true(bench_scene_pose(&sc, 2, 4).p.x == 8.0);
    err[0] = '\0';
    assert_false(bench_scene_hulls_only(&sc, "p", "tool", err, sizeof err));
    assert_string_equal(err, "p: shape 0 is a sphere: tool reads convex hulls only");
    bench_scene_free(&sc);
    assert_true(zeroed(&sc));

    /* A version-2 file with hulls only is read as in version 1. */
    char buf[4096];
    size_t n = with_line(1, "colibri-scene 2\n", buf, sizeof buf);
    ok = load_mem(buf, n, &sc, err, sizeof err);
    if (!ok) fail_msg("%s", err);
    assert_int_equal(sc.shape_count, 2);
    assert_true(sc.shapes[0].kind == BENCH_SHAPE_HULL && sc.shapes[1].kind == BENCH_SHAPE_HULL);
    assert_true(bench_scene_hulls_only(&sc, "p", "tool", err, sizeof err));
    bench_scene_free(&sc);
}

static void test_round_bad_values(void **state)
{
    (void)state;
    /* line numbers of k_valid2: 1 header, 5 sphere 0.5, 6 capsule 1 0.25, 7 shape 4,
     * 12 capsule 0 2, 14 bodies */
    static const line_case cases[] = {
        {5, "sphere 0\n", "shape 0: expected 'sphere R' with a finite number R > 0"},
        {5, "sphere -0\n", "shape 0: expected 'sphere R'"},
        {5, "sphere -1\n", "shape 0: expected 'sphere R'"},
        {5, "sphere nan\n", "shape 0: expected 'sphere R'"},
        {5, "sphere inf\n", "shape 0: expected 'sphere R'"},
        {5, "sphere 1e999\n", "shape 0: expected 'sphere R'"},
        {5, "sphere\n", "shape 0: expected 'sphere R'"},
        {5, "sphere 1 1\n", "shape 0: expected 'sphere R'"},
        {5, "sphere 1x\n", "shape 0: expected 'sphere R'"},
        {5, "sphere 5\n", "shape 0 does not fit in the room (2 * radius 10 >= L 10)"},
        {5, "sphere 1e308\n", "shape 0 does not fit in the room"}, /* 2 R overflows */
        {5, "ball 1\n", "expected shape 0 as 'shape N', 'mesh NV NT', 'sphere R' or 'capsule H R'"},
        {5, "mesh 1\n", "shape 0: expected 'mesh NV NT' with integers NV >= 1 and NT >= 1"},
        {6, "capsule -1 1\n", "shape 1: expected 'capsule H R' with finite numbers H >= 0 and R > 0"},
        {6, "capsule 1 0\n", "shape 1: expected 'capsule H R'"},
        {6, "capsule 1 -0.5\n", "shape 1: expected 'capsule H R'"},
        {6, "capsule nan 1\n", "shape 1: expected 'capsule H R'"},
        {6, "capsule 1 inf\n", "shape 1: expected 'capsule H R'"},
        {6, "capsule 1\n", "shape 1: expected 'capsule H R'"},
        {6, "capsule 1 1 1\n", "shape 1: expected 'capsule H R'"},
        {6, "capsule 3 2\n", "shape 1 does not fit in the room (2 * radius 10 >= L 10)"}, /* H, R fit alone */
        {6, "capsule 1e308 1e308\n", "shape 1 does not fit in the room"},                /* H + R overflows */
        {7, "shape 0\n", "expected 'shape N'"},
        {12, "0 0 1\n", "expected shape 3 as 'shape N', 'mesh NV NT', 'sphere R' or 'capsule H R'"},
        {14, "sphere 1\n", "expected 'bodies N'"},
    };
    expect_line_cases(k_valid2, cases, sizeof cases / sizeof cases[0], true);
    /* The same scene as version 1: its first sphere record (line 5) is refused. */
    char buf[4096];
    size_t n = with_line_of(k_valid2, 1, "colibri-scene 1\n", buf, sizeof buf);
    bench_scene sc;
    char err[300] = "";
    expect_failure(load_mem(buf, n, &sc, err, sizeof err), &sc, err, "mem",
                   "mem:5: shape 0: a 'sphere' record needs 'colibri-scene 2' (this file is version 1)");
}

/* ---- version 2: triangle meshes ---- */

static void test_mesh_shapes(void **state)
{
    (void)state;
    bench_scene sc;
    char err[300] = "";
    bool ok = load_file("valid_mesh", k_valid_mesh, strlen(k_valid_mesh), &sc, err, sizeof err);
    if (!ok) fail_msg("%s", err);
    assert_int_equal(sc.shape_count, 4);
    const bench_shape *sh = sc.shapes;
    assert_int_equal(sh[0].kind, BENCH_SHAPE_MESH);
    assert_int_equal(sh[0].vertex_count, 4);
    assert_int_equal(sh[0].triangle_count, 4);
    static const uint32_t tet[12] = {0, 1, 2, 0, 1, 3, 0, 2, 3, 1, 2, 3};
    assert_memory_equal(sh[0].indices, tet, sizeof tet);
    assert_true(sh[0].radius == 1.0 && sh[0].core_radius == 0.0);
    assert_true(sh[0].vertices[3].z == 1.0);
    assert_int_equal(sh[1].kind, BENCH_SHAPE_SPHERE);
    assert_null(sh[1].indices);
    assert_int_equal(sh[1].triangle_count, 0);
    /* the soup: degenerate triangles as written, and the unused vertex 4 sets the radius */
    assert_int_equal(sh[2].kind, BENCH_SHAPE_MESH);
    assert_int_equal(sh[2].vertex_count, 5);
    assert_int_equal(sh[2].triangle_count, 3);
    static const uint32_t soup[9] = {0, 1, 0, 3, 3, 3, 0, 1, 2};
    assert_memory_equal(sh[2].indices, soup, sizeof soup);
    assert_true(sh[2].radius == 6.0);
    assert_string_equal(bench_shape_kind_name(sh[2].kind), "mesh");
    assert_int_equal(sh[3].kind, BENCH_SHAPE_HULL);
    assert_null(sh[3].indices);
    assert_int_equal(sc.body_count, 4);
    check_poses_finite(&sc);
    /* The bounce uses the soup's radius 6 (of its unused vertex): body 2 starts at x = 8
     * moving -1 per frame, turns back at x = 6 at frame 2 and is at 7 at frame 3. */
    assert_true(bench_scene_pose(&sc, 2, 2).p.x == 6.0);
    assert_true(bench_scene_pose(&sc, 2, 3).p.x == 7.0);
    /* A still body stays put at every frame, bit for bit. */
    for (int f = 0; f < sc.frames; f++) {
        col_transform x = bench_scene_pose(&sc, 1, f);
        assert_true(x.p.x == 10.0 && x.p.y == 10.0 && x.p.z == 10.0 && x.q.w == 1.0);
    }
    err[0] = '\0';
    assert_false(bench_scene_hulls_only(&sc, "p", "tool", err, sizeof err));
    assert_string_equal(err, "p: shape 0 is a mesh: tool reads convex hulls only");
    bench_scene_free(&sc);
    assert_true(zeroed(&sc));
}

static void test_mesh_bad_values(void **state)
{
    (void)state;
    /* line numbers of k_valid_mesh: 5 mesh 4 4, 6-9 its vertices, 10-13 its triangles,
     * 14 sphere, 15 mesh 5 3, 16-20 vertices, 21-23 triangles, 24 shape 4, 29 bodies */
    static const line_case cases[] = {
        {5, "mesh 0 4\n", "shape 0: expected 'mesh NV NT' with integers NV >= 1 and NT >= 1"},
        {5, "mesh 4 0\n", "shape 0: expected 'mesh NV NT'"},
        {5, "mesh -4 4\n", "shape 0: expected 'mesh NV NT'"},
        {5, "mesh 4 -1\n", "shape 0: expected 'mesh NV NT'"},
        {5, "mesh 4\n", "shape 0: expected 'mesh NV NT'"},
        {5, "mesh 4 4 4\n", "shape 0: expected 'mesh NV NT'"},
        {5, "mesh 4 4.0\n", "shape 0: expected 'mesh NV NT'"},
        {5, "mesh 4 2147483648\n", "shape 0: expected 'mesh NV NT'"},
        {5, "mesh 4 nan\n", "shape 0: expected 'mesh NV NT'"},
        {6, "0 0 nan\n", "expected vertex 0 of shape 0"},
        {10, "0 1 4\n", "expected triangle 0 of shape 0 as 'i j k' (3 vertex indices in 0 .. 3)"},
        {10, "0 -1 2\n", "expected triangle 0 of shape 0"},
        {10, "0 1\n", "expected triangle 0 of shape 0"},
        {10, "0 1 2 3\n", "expected triangle 0 of shape 0"},
        {10, "0 1 2.0\n", "expected triangle 0 of shape 0"},
        {10, "0 1 0x2\n", "expected triangle 0 of shape 0"},
        {10, "0 1 4294967296\n", "expected triangle 0 of shape 0"},
        {13, "1 2 2147483647\n", "expected triangle 3 of shape 0"},
        {23, "0 1 5\n", "expected triangle 2 of shape 2 as 'i j k' (3 vertex indices in 0 .. 4)"},
    };
    expect_line_cases(k_valid_mesh, cases, sizeof cases / sizeof cases[0], true);
    /* Counts that do not match the lines: the reader reads on and fails where the next
     * record does not fit. */
    static const line_case shifted[] = {
        {5, "mesh 3 4\n", "mem:11: expected triangle 2 of shape 0 as 'i j k' (3 vertex indices in 0 .. 2)"}, /* "0 0 1" read as a triangle */
        {5, "mesh 5 4\n", "mem:14: expected triangle 3 of shape 0"}, /* "0 1 2" read as a vertex */
        {5, "mesh 4 5\n", "mem:14: expected triangle 4 of shape 0"}, /* "sphere 0.5" is no triangle */
        {5, "mesh 4 3\n", "mem:13: expected shape 1 as 'shape N', 'mesh NV NT'"}, /* "1 2 3" is no shape */
        {29, "bodies 5\n", "the scene declares 5 bodies, the file has 4"},
        /* the size is checked once the whole shape is read */
        {6, "0 0 20\n", "mem:13: shape 0 does not fit in the room (2 * radius 40 >= L 20)"},
        {20, "0 0 -10\n", "mem:23: shape 2 does not fit in the room (2 * radius 20 >= L 20)"}, /* the unused vertex counts */
    };
    expect_line_cases(k_valid_mesh, shifted, sizeof shifted / sizeof shifted[0], false);
    /* A mesh record needs version 2. */
    char buf[4096];
    size_t n = with_line_of(k_valid_mesh, 1, "colibri-scene 1\n", buf, sizeof buf);
    bench_scene sc;
    char err[300] = "";
    expect_failure(load_mem(buf, n, &sc, err, sizeof err), &sc, err, "mem",
                   "mem:5: shape 0: a 'mesh' record needs 'colibri-scene 2' (this file is version 1)");
    n = with_line(6, "mesh 4 1\n", buf, sizeof buf);
    expect_failure(load_mem(buf, n, &sc, err, sizeof err), &sc, err, "mem", "mem:6: shape 0: a 'mesh' record needs");
}

/* ---- truncations and mutations ---- */

static void truncations_of(const char *base, int bodies)
{
    size_t len = strlen(base);
    for (size_t n = 0; n < len; n++) {
        bench_scene sc;
        char err[300] = "";
        bool ok = load_mem(base, n, &sc, err, sizeof err);
        /* only the file without its final newline is whole */
        if (n == len - 1 && ok) {
            assert_int_equal(sc.body_count, bodies);
            bench_scene_free(&sc);
            continue;
        }
        expect_failure(ok, &sc, err, "mem", NULL);
    }
}

static void test_truncations(void **state)
{
    (void)state;
    truncations_of(k_valid, 3);
    truncations_of(k_valid2, 4);
    truncations_of(k_valid_mesh, 4);
}

static void mutations_of(const char *base, uint64_t seed, const char *what)
{
    static const char alphabet[] = "0123456789 \n\t#.-+eEnaifxb\r";
    rng_seed(seed, what);
    size_t len = strlen(base);
    char buf[2048];
    assert_true(len + 8 < sizeof buf);
    int loaded = 0, runs = 20000;
    for (int r = 0; r < runs; r++) {
        memcpy(buf, base, len);
        size_t n = len;
        int edits = 1 + (int)(rng_next() % 4);
        for (int e = 0; e < edits; e++) {
            size_t at = n > 0 ? (size_t)(rng_next() % n) : 0;
            int kind = (int)(rng_next() % 3);
            char c = rng_next() % 8 == 0 ? (char)(rng_next() % 256) : alphabet[rng_next() % (sizeof alphabet - 1)];
            if (kind == 0 && n > 0) {
                buf[at] = c; /* replace */
            } else if (kind == 1 && n + 1 < sizeof buf) {
                memmove(buf + at + 1, buf + at, n - at); /* insert */
                buf[at] = c;
                n++;
            } else if (n > 0) {
                memmove(buf + at, buf + at + 1, n - at - 1); /* delete */
                n--;
            }
        }
        bench_scene sc;
        char err[300] = "";
        if (load_mem(buf, n, &sc, err, sizeof err)) {
            loaded++;
            check_poses_finite(&sc);
            for (int s = 0; s < sc.shape_count; s++) {
                const bench_shape *sh = &sc.shapes[s];
                /* what the reader promises about every shape it returns */
                assert_true(2.0 * sh->radius < sc.room);
                if (sh->kind == BENCH_SHAPE_HULL)
                    assert_true(sh->vertex_count > 0 && sh->vertices != NULL && sh->triangle_count == 0);
                else if (sh->kind == BENCH_SHAPE_MESH) {
                    assert_true(sh->vertex_count > 0 && sh->vertices != NULL && sh->triangle_count > 0 &&
                                sh->indices != NULL);
                    for (int t = 0; t < 3 * sh->triangle_count; t++)
                        assert_true(sh->indices[t] < (uint32_t)sh->vertex_count);
                } else
                    assert_true(sh->core_radius > 0.0 && sh->vertex_count == 0 &&
                                (sh->kind == BENCH_SHAPE_CAPSULE) == (sh->half_height > 0.0));
            }
            bench_scene_free(&sc);
        } else {
            expect_failure(false, &sc, err, "mem", NULL);
        }
    }
    /* Some mutations keep the scene valid (a digit for a digit), most do not: both
     * branches ran. */
    print_message("%s: %d of %d mutated scenes loaded\n", what, loaded, runs);
    assert_true(loaded > 0 && loaded < runs);
}

static void test_mutations(void **state)
{
    (void)state;
    mutations_of(k_valid, 0x5ce4e, "scene mutations");
    mutations_of(k_valid2, 0x5ce4e2, "version-2 scene mutations");
    mutations_of(k_valid_mesh, 0x5ce4e3, "mesh scene mutations");
}

int main(int argc, char **argv)
{
    if (argc > 1) g_dir = argv[1];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_scene),
        cmocka_unit_test(test_lying_headers),
        cmocka_unit_test(test_bad_values),
        cmocka_unit_test(test_truncations),
        cmocka_unit_test(test_mutations),
        cmocka_unit_test(test_round_shapes),
        cmocka_unit_test(test_round_bad_values),
        cmocka_unit_test(test_mesh_shapes),
        cmocka_unit_test(test_mesh_bad_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
