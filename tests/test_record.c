/* SPDX-License-Identifier: MIT */
/* The recorder (include/colibri/record.h, docs/record.md) writes what the world holds:
 * a world of every shape kind (hulls, spheres, capsules, a compound, a static body) moves
 * at random for a few frames, gains bodies and loses some, and the file is read back
 * and checked against the world and against a brute-force run of the reference query:
 * - each shape line has the shape's pieces with the world's numbers exactly (17 digits);
 * - each frame line lists exactly the live bodies, with the poses set (9 digits), each
 *   body under one number for its whole life and no number used twice;
 * - pairs are exactly the pairs col_query_overlap(COL_BACKEND_REFERENCE) finds among
 *   all live bodies, began and ended exactly the differences from the previous frame
 *   (bodies removed since included);
 * - the recorder left col_world_hash as it was, and the file ends with its end line. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "colibri/colibri.h"
#include "tests/test_util.h"

enum { MAX_BODIES = 64, FRAMES = 12, KINDS = 6, MAX_PAIRS = MAX_BODIES * MAX_BODIES };

typedef struct live_body {
    col_body_id id;
    int kind;             /* index into the shapes */
    col_transform pose;
    bool alive, is_static;
    int number;           /* its number in the file; -1 until seen */
} live_body;

typedef struct pair_set {
    int n;
    int a[MAX_PAIRS], b[MAX_PAIRS]; /* indices into the bodies array, a < b */
} pair_set;

static bool has_pair(const pair_set *s, int a, int b)
{
    for (int k = 0; k < s->n; k++)
        if ((s->a[k] == a && s->b[k] == b) || (s->a[k] == b && s->b[k] == a)) return true;
    return false;
}

/* ---- reading the file: only what docs/record.md promises, with strtod ---- */

/* Skips to just after the key "name": in line; fails the test if absent. */
static const char *after_key(const char *line, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, "\"%s\":", name);
    const char *p = strstr(line, key);
    if (p == NULL) fail_msg("no %s in: %.200s", key, line);
    return p + strlen(key);
}

/* Reads a flat bracketed list of numbers "[a,b,...]" at *p into out (at most max), moves
 * *p past it and returns the count. */
static int read_numbers(const char **p, double *out, int max)
{
    const char *s = *p;
    if (*s != '[') fail_msg("expected '[' at: %.80s", s);
    s++;
    int n = 0;
    if (*s == ']') {
        *p = s + 1;
        return 0;
    }
    for (;;) {
        char *end;
        double x = strtod(s, &end);
        if (end == s) fail_msg("expected a number at: %.80s", s);
        if (n >= max) fail_msg("more than %d numbers in a list", max);
        out[n++] = x;
        s = end;
        if (*s == ']') break;
        if (*s != ',') fail_msg("expected ',' at: %.80s", s);
        s++;
    }
    *p = s + 1;
    return n;
}

/* Reads a list of lists "[[...],[...]]"; calls fn for each inner list. */
static void read_lists(const char **p, void (*fn)(const double *, int, void *), void *ctx)
{
    const char *s = *p;
    if (*s != '[') fail_msg("expected '[' at: %.80s", s);
    s++;
    if (*s == ']') {
        *p = s + 1;
        return;
    }
    for (;;) {
        double v[256];
        int n = read_numbers(&s, v, 256);
        fn(v, n, ctx);
        if (*s == ']') break;
        if (*s != ',') fail_msg("expected ',' at: %.80s", s);
        s++;
    }
    *p = s + 1;
}

/* ---- the check ---- */

typedef struct check {
    col_world *world;
    col_shape_id shapes[KINDS];
    live_body bodies[MAX_BODIES];
    int body_count;
    int shape_number[KINDS]; /* the file's number of each shape, -1 until seen */
    char *shape_line[KINDS]; /* by the file's shape number (< KINDS) */
    pair_set truth[FRAMES];  /* the reference's pairs per frame */
    int frame;               /* the frame being read */
    pair_set got;            /* a list read from the file */
    int body_of_number[4 * MAX_BODIES];
    int seen_in_frame;
} check;

static int body_with_number(check *c, int number)
{
    if (number < 0 || number >= 4 * MAX_BODIES || c->body_of_number[number] < 0)
        fail_msg("frame %d: body number %d is not one the file gave a body", c->frame, number);
    return c->body_of_number[number];
}

static void on_body(const double *v, int n, void *ctx)
{
    check *c = ctx;
    assert_int_equal(n, 10);
    int number = (int)v[0], shape = (int)v[1];
    /* the live body with this position (9 digits: a relative 1e-8 tells them apart) */
    int found = -1;
    for (int k = 0; k < c->body_count; k++) {
        const live_body *b = &c->bodies[k];
        if (!b->alive) continue;
        double d = fabs(b->pose.p.x - v[3]) + fabs(b->pose.p.y - v[4]) + fabs(b->pose.p.z - v[5]);
        if (d <= 1e-7) {
            if (found >= 0) fail_msg("two bodies at one position: the test's scene is wrong");
            found = k;
        }
    }
    if (found < 0) fail_msg("frame %d: body %d at (%g, %g, %g) is no live body", c->frame, number, v[3], v[4], v[5]);
    live_body *b = &c->bodies[found];
    const double q[4] = {b->pose.q.x, b->pose.q.y, b->pose.q.z, b->pose.q.w};
    for (int k = 0; k < 4; k++)
        if (fabs(q[k] - v[6 + k]) > 1e-8) fail_msg("frame %d: body %d's quaternion differs", c->frame, number);
    if ((v[2] != 0) != b->is_static) fail_msg("frame %d: body %d's static flag is wrong", c->frame, number);
    if (b->number < 0) {
        if (number < 0 || number >= 4 * MAX_BODIES || c->body_of_number[number] >= 0)
            fail_msg("frame %d: number %d given to a second body", c->frame, number);
        b->number = number;
        c->body_of_number[number] = found;
    } else if (b->number != number) {
        fail_msg("frame %d: a body changed its number from %d to %d", c->frame, b->number, number);
    }
    if (c->shape_number[b->kind] < 0) {
        if (shape < 0 || shape >= KINDS || c->shape_line[shape] == NULL)
            fail_msg("frame %d: shape %d used before its shape line", c->frame, shape);
        for (int k = 0; k < KINDS; k++)
            if (c->shape_number[k] == shape) fail_msg("shape number %d names two shapes", shape);
        c->shape_number[b->kind] = shape;
    } else if (c->shape_number[b->kind] != shape) {
        fail_msg("frame %d: body %d names shape %d, not %d", c->frame, number, shape, c->shape_number[b->kind]);
    }
    c->seen_in_frame++;
}

static void on_pair(const double *v, int n, void *ctx)
{
    check *c = ctx;
    assert_int_equal(n, 2);
    int a = body_with_number(c, (int)v[0]), b = body_with_number(c, (int)v[1]);
    if (c->got.n >= MAX_PAIRS) fail_msg("too many pairs");
    c->got.a[c->got.n] = a;
    c->got.b[c->got.n++] = b;
}

/* The pair list read equals want (as sets; no pair twice). */
static void same_pairs(check *c, const pair_set *want, const char *what)
{
    if (c->got.n != want->n) fail_msg("frame %d: %d %s in the file, %d by the reference", c->frame, c->got.n, what, want->n);
    for (int k = 0; k < c->got.n; k++) {
        if (!has_pair(want, c->got.a[k], c->got.b[k]))
            fail_msg("frame %d: %s pair (%d, %d) of the file is not the reference's", c->frame, what, c->got.a[k],
                     c->got.b[k]);
        for (int j = 0; j < k; j++)
            if ((c->got.a[j] == c->got.a[k] && c->got.b[j] == c->got.b[k]) ||
                (c->got.a[j] == c->got.b[k] && c->got.b[j] == c->got.a[k]))
                fail_msg("frame %d: %s pair listed twice", c->frame, what);
    }
}

/* A shape line matches the world's geometry: its pieces' kinds and numbers exactly. */
static void check_shape_line(const char *line, const col_geometry *g)
{
    col_shape_info info;
    assert_int_equal(col_geometry_get_info(g, &info), COL_OK);
    const char *p = after_key(line, "pieces");
    for (int k = 0; k < info.child_count; k++) {
        col_piece_info pc;
        assert_int_equal(col_geometry_get_piece(g, k, &pc), COL_OK);
        const char *kind = pc.kind == COL_SHAPE_HULL ? "hull" : pc.kind == COL_SHAPE_SPHERE ? "sphere" : "capsule";
        char want[32];
        snprintf(want, sizeof want, "{\"kind\":\"%s\"", kind);
        p = strstr(p, want);
        if (p == NULL) fail_msg("piece %d (%s) missing in: %.200s", k, kind, line);
        if (pc.kind == COL_SHAPE_HULL) {
            const char *q = after_key(p, "vertices");
            static double v[3 * 4096];
            int n = read_numbers(&q, v, 3 * 4096);
            assert_int_equal(n, 3 * pc.hull.vertex_count);
            for (int i = 0; i < pc.hull.vertex_count; i++) {
                const col_vec3 x = pc.hull.vertices[i];
                if (v[3 * i] != x.x || v[3 * i + 1] != x.y || v[3 * i + 2] != x.z)
                    fail_msg("hull vertex %d does not read back as the world's double", i);
            }
            q = after_key(q, "faces");
            assert_true(q[0] == '[');
            q++;
            for (int f = 0; f < pc.hull.face_count; f++) {
                double idx[256];
                int m = read_numbers(&q, idx, 256);
                assert_int_equal(m, pc.hull.face_first[f + 1] - pc.hull.face_first[f]);
                for (int i = 0; i < m; i++)
                    assert_int_equal((int)idx[i], pc.hull.face_vertices[pc.hull.face_first[f] + i]);
                q++; /* ',' or the closing ']' */
            }
        } else {
            const char *q = after_key(p, pc.kind == COL_SHAPE_SPHERE ? "center" : "ends");
            double v[8];
            if (pc.kind == COL_SHAPE_SPHERE) {
                assert_int_equal(read_numbers(&q, v, 3), 3);
                assert_true(v[0] == pc.core[0].x && v[1] == pc.core[0].y && v[2] == pc.core[0].z);
            } else {
                q++;
                assert_int_equal(read_numbers(&q, v, 3), 3);
                q++;
                assert_int_equal(read_numbers(&q, v + 3, 3), 3);
                assert_true(v[0] == pc.core[0].x && v[1] == pc.core[0].y && v[2] == pc.core[0].z);
                assert_true(v[3] == pc.core[1].x && v[4] == pc.core[1].y && v[5] == pc.core[1].z);
            }
            char *end;
            double r = strtod(after_key(q, "radius"), &end);
            assert_true(r == pc.sphere_radius);
        }
        p++;
    }
}

/* Reads frame f's lines (new shape lines, then the frame line) and checks them. */
static void read_frame(check *c, FILE *rd, int f)
{
    static char line[1 << 20];
    for (;;) {
        if (fgets(line, sizeof line, rd) == NULL) fail_msg("frame %d: the file ends early", f);
        size_t len = strlen(line);
        if (len == 0 || line[len - 1] != '\n') fail_msg("frame %d: a line longer than the test reads", f);
        if (strncmp(line, "{\"shape\":", 9) == 0) {
            int s = atoi(line + 9);
            if (s < 0 || s >= KINDS || c->shape_line[s] != NULL) fail_msg("shape line %d unexpected", s);
            c->shape_line[s] = strdup(line);
            continue;
        }
        if (strncmp(line, "{\"frame\":", 9) != 0) fail_msg("frame %d: unexpected line %.80s", f, line);
        break;
    }
    assert_int_equal(atoi(line + 9), f + 1); /* the world's update count */
    int live = 0;
    for (int k = 0; k < c->body_count; k++) live += c->bodies[k].alive;
    c->seen_in_frame = 0;
    bool shape_checked[KINDS];
    for (int k = 0; k < KINDS; k++) shape_checked[k] = c->shape_number[k] >= 0;
    const char *p = after_key(line, "bodies");
    read_lists(&p, on_body, c);
    assert_int_equal(c->seen_in_frame, live);
    for (int k = 0; k < KINDS; k++) {
        if (shape_checked[k] || c->shape_number[k] < 0) continue;
        const col_geometry *g;
        assert_int_equal(col_shape_get_geometry(c->world, c->shapes[k], &g), COL_OK);
        check_shape_line(c->shape_line[c->shape_number[k]], g);
    }
    static pair_set none, began, ended;
    const pair_set *now = &c->truth[f], *before = f > 0 ? &c->truth[f - 1] : &none;
    began.n = ended.n = 0;
    for (int k = 0; k < now->n; k++)
        if (!has_pair(before, now->a[k], now->b[k])) {
            began.a[began.n] = now->a[k];
            began.b[began.n++] = now->b[k];
        }
    for (int k = 0; k < before->n; k++)
        if (!has_pair(now, before->a[k], before->b[k])) {
            ended.a[ended.n] = before->a[k];
            ended.b[ended.n++] = before->b[k];
        }
    const char *names[3] = {"pairs", "began", "ended"};
    const pair_set *want[3] = {now, &began, &ended};
    for (int k = 0; k < 3; k++) {
        c->got.n = 0;
        p = after_key(line, names[k]);
        read_lists(&p, on_pair, c);
        same_pairs(c, want[k], names[k]);
    }
}

static col_transform random_pose(double room)
{
    col_transform t;
    t.p = col_vec3_make(urand() * room, urand() * room, urand() * room);
    t.q = random_quat();
    return t;
}

static int add(check *c, int kind, bool is_static, double room)
{
    live_body *b = &c->bodies[c->body_count];
    col_body_def d = col_default_body_def();
    d.shape = c->shapes[kind];
    d.pose = random_pose(room);
    d.is_static = is_static;
    assert_int_equal(col_body_create(c->world, &d, &b->id), COL_OK);
    assert_int_equal(col_body_get_pose(c->world, b->id, &b->pose), COL_OK);
    b->kind = kind;
    b->alive = true;
    b->is_static = is_static;
    b->number = -1;
    return c->body_count++;
}

static void test_record_matches_world(void **state)
{
    (void)state;
    static check c;
    memset(&c, 0, sizeof c);
    for (int k = 0; k < KINDS; k++) c.shape_number[k] = -1;
    for (int k = 0; k < 4 * MAX_BODIES; k++) c.body_of_number[k] = -1;
    rng_seed(0x5ec0dd, "test_record");
    col_world_def def = col_default_world_def();
    def.worker_count = 2;
    assert_int_equal(col_world_create(&def, &c.world), COL_OK);
    col_world *w = c.world;
    col_vec3 pts[20];
    for (int i = 0; i < 20; i++) pts[i] = col_vec3_make(gauss() * 0.6, gauss() * 0.4, gauss() * 0.3);
    assert_int_equal(col_shape_create_convex(w, pts, 20, &c.shapes[0]), COL_OK);
    assert_int_equal(col_shape_create_box(w, col_vec3_make(0.5, 0.3, 0.2), &c.shapes[1]), COL_OK);
    assert_int_equal(col_shape_create_sphere(w, 0.45, &c.shapes[2]), COL_OK);
    assert_int_equal(col_shape_create_capsule(w, 0.5, 0.2, &c.shapes[3]), COL_OK);
    col_compound_child kids[3] = {{c.shapes[1], col_transform_identity()}, {c.shapes[2], col_transform_identity()},
                                  {c.shapes[3], col_transform_identity()}};
    kids[1].pose.p = col_vec3_make(0.8, 0, 0);
    kids[2].pose.p = col_vec3_make(0, 0.7, 0);
    kids[2].pose.q = random_quat();
    assert_int_equal(col_shape_create_compound(w, kids, 3, &c.shapes[4]), COL_OK);
    assert_int_equal(col_shape_create_box(w, col_vec3_make(2, 0.2, 2), &c.shapes[5]), COL_OK);

    const double room = 4.2; /* about half the pairs of nearby bodies touch */
    for (int i = 0; i < 30; i++) add(&c, i % 5, false, room);
    add(&c, 5, true, room);

    char path[256];
    snprintf(path, sizeof path, "%s/colibri_test_record_XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    col_recorder *rec;
    assert_int_equal(col_recorder_open(w, path, &rec), COL_OK);
    FILE *rd = fopen(path, "r");
    assert_non_null(rd);
    static char header[4096];
    assert_non_null(fgets(header, sizeof header, rd));
    assert_non_null(strstr(header, "{\"format\":\"colibri-record\",\"version\":1,"));
    long candidates = 0, hits = 0;
    for (int f = 0; f < FRAMES; f++) {
        if (f == 4)
            for (int i = 0; i < 8; i++) add(&c, (i * 3) % 5, false, room);
        if (f == 8) /* remove six bodies, some of them in pairs now */
            for (int k = 0; k < c.body_count && k < 12; k += 2) {
                assert_int_equal(col_body_destroy(w, c.bodies[k].id), COL_OK);
                c.bodies[k].alive = false;
            }
        for (int k = 0; k < c.body_count; k++) {
            live_body *b = &c.bodies[k];
            if (!b->alive || b->is_static) continue;
            col_transform t = b->pose;
            t.p = col_vec3_make(t.p.x + 0.3 * (urand() - 0.5), t.p.y + 0.3 * (urand() - 0.5), t.p.z + 0.3 * (urand() - 0.5));
            t.q = random_quat();
            assert_int_equal(col_body_set_pose(w, b->id, t), COL_OK);
            assert_int_equal(col_body_get_pose(w, b->id, &b->pose), COL_OK);
        }
        assert_int_equal(col_world_update(w), COL_OK);
        /* the reference's pairs among all live bodies (static-static pairs never form) */
        pair_set *t = &c.truth[f];
        for (int i = 0; i < c.body_count; i++)
            for (int j = i + 1; j < c.body_count; j++) {
                const live_body *a = &c.bodies[i], *b = &c.bodies[j];
                if (!a->alive || !b->alive || (a->is_static && b->is_static)) continue;
                bool hit;
                assert_int_equal(col_query_overlap(w, c.shapes[a->kind], a->pose, c.shapes[b->kind], b->pose,
                                                   COL_BACKEND_REFERENCE, &hit),
                                 COL_OK);
                candidates++;
                if (hit) {
                    t->a[t->n] = i;
                    t->b[t->n++] = j;
                }
            }
        hits += t->n;
        uint64_t h = col_world_hash(w);
        assert_int_equal(col_recorder_frame(rec), COL_OK);
        assert_true(col_world_hash(w) == h);
        /* The file is flushed at every frame: read this frame's lines back now, while the
         * test still has the poses and the reference's pairs of the frame. */
        c.frame = f;
        read_frame(&c, rd, f);
    }
    assert_int_equal(col_recorder_close(rec), COL_OK);
    static char line[1 << 16];
    assert_non_null(fgets(line, sizeof line, rd));
    assert_string_equal(line, "{\"end\":true,\"frames\":12}\n");
    assert_null(fgets(line, sizeof line, rd));
    fclose(rd);
    remove(path);
    print_message("test_record: %ld of %ld body pairs collide over %d frames\n", hits, candidates, FRAMES);
    assert_true(hits >= FRAMES * 5); /* pairs to compare in every frame, on average */
    assert_true(hits < candidates / 2); /* and many pairs apart */
    for (int k = 0; k < KINDS; k++) {
        assert_true(c.shape_number[k] >= 0); /* every shape was written and checked */
        free(c.shape_line[k]);
    }
    col_world_destroy(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_record_matches_world)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
