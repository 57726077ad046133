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
 *   load fails with a "path:LINE: " message, or gives a scene whose poses are finite. */
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

/* The valid scene with line `line` (1-based, of k_valid) replaced by `with`. */
static size_t with_line(int line, const char *with, char *out, size_t cap)
{
    const char *s = k_valid;
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

static void test_bad_values(void **state)
{
    (void)state;
    /* line numbers of k_valid: 1 header, 3 room, 4 frames, 5 shapes, 6 shape, 7-10
     * vertices, 11 shape, 17 bodies, 18-20 bodies */
    static const struct {
        int line;
        const char *with, *want;
    } cases[] = {
        {1, "colibri-scene 2\n", "not a scene file"},
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
    char buf[4096];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t n = with_line(cases[i].line, cases[i].with, buf, sizeof buf);
        bench_scene sc;
        char err[300] = "";
        bool ok = load_mem(buf, n, &sc, err, sizeof err);
        if (ok) fail_msg("case %zu (line %d '%s') loaded", i, cases[i].line, cases[i].with);
        expect_failure(ok, &sc, err, "mem", cases[i].want);
    }
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

/* ---- truncations and mutations ---- */

static void test_truncations(void **state)
{
    (void)state;
    size_t len = strlen(k_valid);
    for (size_t n = 0; n < len; n++) {
        bench_scene sc;
        char err[300] = "";
        bool ok = load_mem(k_valid, n, &sc, err, sizeof err);
        /* only the file without its final newline is whole */
        if (n == len - 1 && ok) {
            assert_int_equal(sc.body_count, 3);
            bench_scene_free(&sc);
            continue;
        }
        expect_failure(ok, &sc, err, "mem", NULL);
    }
}

static void test_mutations(void **state)
{
    (void)state;
    static const char alphabet[] = "0123456789 \n\t#.-+eEnaifxb\r";
    rng_seed(0x5ce4e, "scene mutations");
    size_t len = strlen(k_valid);
    char buf[1024];
    int loaded = 0, runs = 20000;
    for (int r = 0; r < runs; r++) {
        memcpy(buf, k_valid, len);
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
            bench_scene_free(&sc);
        } else {
            expect_failure(false, &sc, err, "mem", NULL);
        }
    }
    /* Some mutations keep the scene valid (a digit for a digit), most do not: both
     * branches ran. */
    print_message("%d of %d mutated scenes loaded\n", loaded, runs);
    assert_true(loaded > 0 && loaded < runs);
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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
