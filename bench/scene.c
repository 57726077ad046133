/* SPDX-License-Identifier: MIT */
/* Scene loading and closed-form motion; see scene.h and docs/scenes.md. */
#define _POSIX_C_SOURCE 200809L

#include "scene.h"

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The longest record is a body line: "b" + shape + 13 numbers. One more slot lets us see
 * (and reject) a line with too many fields without a second pass. */
#define MAX_FIELDS 16

typedef struct reader {
    FILE *fp;
    const char *path;
    char *buf;
    size_t cap;
    int line;                 /* number of the last line read, 1-based */
    int field_count;
    char *fields[MAX_FIELDS]; /* point into buf, NUL-terminated */
    char *err;
    size_t err_size;
    int version;              /* of the file: 1 or 2 */
} reader;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static bool fail(reader *rd, const char *fmt, ...)
{
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(rd->err, rd->err_size, "%s:%d: %s", rd->path, rd->line, msg);
    return false;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/* Reads the next record: a line with something left once the comment (from '#') is cut,
 * split on blanks into rd->fields. Returns false at end of file or on an error (then
 * rd->err is set; at a clean end of file rd->err stays empty). */
static bool next_record(reader *rd)
{
    for (;;) {
        errno = 0;
        ssize_t len = getline(&rd->buf, &rd->cap, rd->fp);
        if (len < 0) {
            if (ferror(rd->fp))
                return fail(rd, "read error: %s", strerror(errno ? errno : EIO));
            return false;
        }
        rd->line++;
        if (rd->line == INT_MAX)
            return fail(rd, "too many lines");
        /* The fields are C strings: a NUL byte would hide the rest of the line. */
        if (memchr(rd->buf, '\0', (size_t)len) != NULL)
            return fail(rd, "a NUL byte in the line (not a text file)");
        char *s = rd->buf;
        char *hash = strchr(s, '#');
        if (hash)
            *hash = '\0';
        rd->field_count = 0;
        for (;;) {
            while (is_space(*s))
                s++;
            if (*s == '\0')
                break;
            if (rd->field_count == MAX_FIELDS)
                return fail(rd, "too many fields on the line");
            rd->fields[rd->field_count++] = s;
            while (*s != '\0' && !is_space(*s))
                s++;
            if (*s != '\0')
                *s++ = '\0';
        }
        if (rd->field_count > 0)
            return true;
    }
}

/* Like next_record, but the end of the file is an error: 'what' was still expected. */
static bool expect_record(reader *rd, const char *what)
{
    if (next_record(rd))
        return true;
    if (rd->err[0] == '\0')
        return fail(rd, "unexpected end of file, expected %s", what);
    return false;
}

static bool parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    /* ERANGE on underflow still gives a usable (tiny or zero) number; only reject
     * non-numbers, trailing garbage and non-finite values (inf, nan, overflow). */
    if (end == s || *end != '\0' || !isfinite(x))
        return false;
    *out = x;
    return true;
}

static bool parse_int(const char *s, int min, int *out)
{
    char *end;
    errno = 0;
    long x = strtol(s, &end, 10);
    if (end == s || *end != '\0' || errno == ERANGE || x < min || x > INT_MAX)
        return false;
    *out = (int)x;
    return true;
}

/* The current record as "KEYWORD COUNT", such as "shapes 12". */
static bool check_keyword_int(reader *rd, const char *keyword, int min, int *out)
{
    if (rd->field_count != 2 || strcmp(rd->fields[0], keyword) != 0 ||
        !parse_int(rd->fields[1], min, out))
        return fail(rd, "expected '%s N' with an integer N >= %d", keyword, min);
    return true;
}

/* The next record as "KEYWORD COUNT". */
static bool parse_keyword_int(reader *rd, const char *keyword, int min, int *out)
{
    return expect_record(rd, keyword) && check_keyword_int(rd, keyword, min, out);
}

/* The record of item `index` of the `declared` ones `owner` announced: an end of file
 * here means the count was a lie, and the message says so. */
static bool expect_item(reader *rd, int index, int declared, const char *what, const char *owner)
{
    if (next_record(rd))
        return true;
    if (rd->err[0] == '\0')
        return fail(rd, "unexpected end of file: %s declares %d %s, the file has %d", owner, declared, what,
                    index);
    return false;
}

/* Makes room for item `index` (0-based) in *arr, an array of *cap items of elem bytes
 * of which the file declared `declared`, doubling up to that count. Memory follows the
 * data actually read: a header never sizes an allocation by itself, so a 60-byte file
 * that declares 2^31 - 1 items costs what its few lines hold (allocating the declared
 * count up front once asked for tens of gigabytes). New items are zeroed. */
static bool grow(reader *rd, void **arr, int *cap, int index, int declared, size_t elem, const char *what)
{
    if (index < *cap)
        return true;
    long long c = *cap > 0 ? 2LL * *cap : 16;
    if (c > declared)
        c = declared;
    if (c <= index)
        c = (long long)index + 1;
    char *p = realloc(*arr, (size_t)c * elem);
    if (!p)
        return fail(rd, "out of memory for %lld %s", c, what);
    memset(p + (size_t)*cap * elem, 0, (size_t)(c - *cap) * elem);
    *arr = p;
    *cap = (int)c;
    return true;
}

/* The NV vertex lines "x y z" of shape `index` (a hull or a mesh) into sh->vertices, and
 * its radius: the largest sqrt(x*x + y*y + z*z) over all of them. */
static bool load_vertices(reader *rd, bench_shape *sh, int index, int declared)
{
    char owner[32];
    snprintf(owner, sizeof owner, "shape %d", index);
    int cap = 0;
    double rmax = 0.0;
    for (int k = 0; k < declared; k++) {
        double x[3];
        void *mem = sh->vertices;
        bool room = grow(rd, &mem, &cap, k, declared, sizeof *sh->vertices, "vertices");
        sh->vertices = mem;
        if (!room || !expect_item(rd, k, declared, "vertices", owner))
            return false;
        if (rd->field_count != 3 || !parse_double(rd->fields[0], &x[0]) ||
            !parse_double(rd->fields[1], &x[1]) || !parse_double(rd->fields[2], &x[2]))
            return fail(rd, "expected vertex %d of shape %d as 'x y z' (3 finite numbers)", k,
                        index);
        sh->vertices[k] = col_vec3_make(x[0], x[1], x[2]);
        sh->vertex_count = k + 1;
        /* docs/scenes.md defines the radius as sqrt(x*x + y*y + z*z): compute it exactly that
         * way so the triangle wave bounces at the same doubles as in every other engine. */
        double d = sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
        if (d > rmax)
            rmax = d;
    }
    sh->radius = rmax;
    return true;
}

/* The rest of a hull record "shape NV": NV vertex lines. */
static bool load_hull(reader *rd, bench_shape *sh, int index)
{
    int declared = 0;
    if (!check_keyword_int(rd, "shape", 1, &declared))
        return false;
    sh->kind = BENCH_SHAPE_HULL;
    return load_vertices(rd, sh, index, declared);
}

/* A mesh record "mesh NV NT" (version 2): NV vertex lines, then NT triangle lines "i j k"
 * of 0-based vertex indices. Any triangle is taken as written, degenerate ones too (a
 * repeated index, collinear or equal points: docs/scenes.md); only an index outside
 * 0 .. NV-1 is refused. The radius counts every vertex, used by a triangle or not. */
static bool load_mesh(reader *rd, bench_shape *sh, int index)
{
    int nv = 0, nt = 0;
    if (rd->version < 2)
        return fail(rd, "shape %d: a 'mesh' record needs 'colibri-scene 2' (this file is version %d)", index,
                    rd->version);
    if (rd->field_count != 3 || !parse_int(rd->fields[1], 1, &nv) || !parse_int(rd->fields[2], 1, &nt))
        return fail(rd, "shape %d: expected 'mesh NV NT' with integers NV >= 1 and NT >= 1", index);
    sh->kind = BENCH_SHAPE_MESH;
    if (!load_vertices(rd, sh, index, nv))
        return false;
    char owner[32];
    snprintf(owner, sizeof owner, "shape %d", index);
    int cap = 0;
    for (int k = 0; k < nt; k++) {
        void *mem = sh->indices;
        bool room = grow(rd, &mem, &cap, k, nt, 3 * sizeof *sh->indices, "triangles");
        sh->indices = mem;
        if (!room || !expect_item(rd, k, nt, "triangles", owner))
            return false;
        int v[3];
        if (rd->field_count != 3 || !parse_int(rd->fields[0], 0, &v[0]) || !parse_int(rd->fields[1], 0, &v[1]) ||
            !parse_int(rd->fields[2], 0, &v[2]) || v[0] >= nv || v[1] >= nv || v[2] >= nv)
            return fail(rd, "expected triangle %d of shape %d as 'i j k' (3 vertex indices in 0 .. %d)", k, index,
                        nv - 1);
        for (int c = 0; c < 3; c++)
            sh->indices[3 * k + c] = (uint32_t)v[c];
        sh->triangle_count = k + 1;
    }
    return true;
}

/* A one-line "sphere R" or "capsule H R" record (version 2). */
static bool load_round(reader *rd, bench_shape *sh, int index)
{
    const char *word = rd->fields[0];
    bool capsule = strcmp(word, "capsule") == 0;
    if (rd->version < 2)
        return fail(rd, "shape %d: a '%s' record needs 'colibri-scene 2' (this file is version %d)", index,
                    word, rd->version);
    double h = 0.0, r = 0.0;
    if (capsule) {
        if (rd->field_count != 3 || !parse_double(rd->fields[1], &h) || !parse_double(rd->fields[2], &r) ||
            !(h >= 0.0) || !(r > 0.0))
            return fail(rd, "shape %d: expected 'capsule H R' with finite numbers H >= 0 and R > 0", index);
    } else if (rd->field_count != 2 || !parse_double(rd->fields[1], &r) || !(r > 0.0)) {
        return fail(rd, "shape %d: expected 'sphere R' with a finite number R > 0", index);
    }
    /* A capsule of zero half height is the ball of radius R; Colibri refuses a capsule with
     * a zero half height, so it becomes the sphere it is (h = +0 also drops a "-0"). */
    sh->kind = h > 0.0 ? BENCH_SHAPE_CAPSULE : BENCH_SHAPE_SPHERE;
    sh->half_height = h > 0.0 ? h : 0.0;
    sh->core_radius = r;
    /* docs/scenes.md: the radius for the motion and the room is R, or H + R, in double. */
    sh->radius = h > 0.0 ? h + r : r;
    return true;
}

static bool load_shape(reader *rd, const bench_scene *scene, bench_shape *sh, int index, int shapes)
{
    if (!expect_item(rd, index, shapes, "shapes", "the scene"))
        return false;
    const char *word = rd->fields[0];
    bool ok;
    if (strcmp(word, "sphere") == 0 || strcmp(word, "capsule") == 0)
        ok = load_round(rd, sh, index);
    else if (strcmp(word, "mesh") == 0)
        ok = load_mesh(rd, sh, index);
    else if (rd->version >= 2 && strcmp(word, "shape") != 0)
        return fail(rd, "expected shape %d as 'shape N', 'mesh NV NT', 'sphere R' or 'capsule H R'", index);
    else
        ok = load_hull(rd, sh, index);
    if (!ok)
        return false;
    if (!(2.0 * sh->radius < scene->room))
        return fail(rd, "shape %d does not fit in the room (2 * radius %.17g >= L %.17g)",
                    index, 2.0 * sh->radius, scene->room);
    return true;
}

static bool load_body(reader *rd, const bench_scene *scene, bench_body *bd, int index, int bodies)
{
    double d[13];
    if (!expect_item(rd, index, bodies, "bodies", "the scene"))
        return false;
    if (rd->field_count != 15 || strcmp(rd->fields[0], "b") != 0)
        return fail(rd, "expected body %d as 'b SHAPE px py pz qw qx qy qz vx vy vz wx wy wz' "
                        "(15 fields, got %d)",
                    index, rd->field_count);
    if (!parse_int(rd->fields[1], 0, &bd->shape) || bd->shape >= scene->shape_count)
        return fail(rd, "body %d: shape '%s' is not an index in [0, %d)", index, rd->fields[1],
                    scene->shape_count);
    for (int k = 0; k < 13; k++)
        if (!parse_double(rd->fields[2 + k], &d[k]))
            return fail(rd, "body %d: field %d ('%s') is not a finite number", index, 3 + k,
                        rd->fields[2 + k]);
    memcpy(bd->p0, d, sizeof bd->p0);
    memcpy(bd->q0, d + 3, sizeof bd->q0);
    memcpy(bd->v, d + 7, sizeof bd->v);
    memcpy(bd->w, d + 10, sizeof bd->w);
    /* normalize(q0) and normalize(dq * q0) must be defined and accurate: the squared
     * length a normal double (not 0, not in the subnormal range where it loses its
     * digits), with room to spare below overflow for the rounding of dq * q0. */
    double n2 = d[3] * d[3] + d[4] * d[4] + d[5] * d[5] + d[6] * d[6];
    if (!(n2 >= DBL_MIN) || !isfinite(2.0 * n2))
        return fail(rd, "body %d: the quaternion (qw qx qy qz) cannot be normalized", index);
    /* The motion formulas (bench_scene_pose_at) must stay finite at every time up to
     * the last frame: p0 + v t - r and |w| t, for t <= frames (r < L). */
    double f = (double)scene->frames;
    for (int k = 0; k < 3; k++)
        if (!isfinite(fabs(d[k]) + fabs(d[7 + k]) * f + scene->room))
            return fail(rd, "body %d: the position p0 + v t overflows within %d frames", index, scene->frames);
    double wl = sqrt(d[10] * d[10] + d[11] * d[11] + d[12] * d[12]);
    if (!isfinite(wl * f))
        return fail(rd, "body %d: the angular velocity is too large (|w| t overflows within %d frames)", index,
                    scene->frames);
    return true;
}

static bool load(reader *rd, bench_scene *scene)
{
    if (!expect_record(rd, "'colibri-scene 1' or 'colibri-scene 2'"))
        return false;
    if (rd->field_count != 2 || strcmp(rd->fields[0], "colibri-scene") != 0 ||
        (strcmp(rd->fields[1], "1") != 0 && strcmp(rd->fields[1], "2") != 0))
        return fail(rd, "not a scene file: expected 'colibri-scene 1' or 'colibri-scene 2'");
    rd->version = rd->fields[1][0] - '0';

    /* The triangle wave of bench_scene_pose_at takes fmod(s, 2 (L - 2 r)): 2 L must be a
     * double too. */
    if (!expect_record(rd, "'room L'"))
        return false;
    if (rd->field_count != 2 || strcmp(rd->fields[0], "room") != 0 ||
        !parse_double(rd->fields[1], &scene->room) || !(scene->room > 0.0) || !isfinite(2.0 * scene->room))
        return fail(rd, "expected 'room L' with a finite L > 0 (and 2 L finite)");

    if (!parse_keyword_int(rd, "frames", 1, &scene->frames))
        return false;

    int count, cap = 0;
    if (!parse_keyword_int(rd, "shapes", 0, &count))
        return false;
    for (int k = 0; k < count; k++) {
        void *mem = scene->shapes;
        bool room = grow(rd, &mem, &cap, k, count, sizeof *scene->shapes, "shapes");
        scene->shapes = mem;
        if (!room)
            return false;
        /* Counted before it is read so that bench_scene_free releases its vertices. */
        scene->shape_count = k + 1;
        if (!load_shape(rd, scene, &scene->shapes[k], k, count))
            return false;
    }

    if (!parse_keyword_int(rd, "bodies", 0, &count))
        return false;
    cap = 0;
    for (int k = 0; k < count; k++) {
        void *mem = scene->bodies;
        bool room = grow(rd, &mem, &cap, k, count, sizeof *scene->bodies, "bodies");
        scene->bodies = mem;
        if (!room || !load_body(rd, scene, &scene->bodies[k], k, count))
            return false;
        scene->body_count = k + 1;
    }

    if (next_record(rd))
        return fail(rd, "unexpected '%s' after the last body", rd->fields[0]);
    return rd->err[0] == '\0';
}

bool bench_scene_load(FILE *fp, const char *path, bench_scene *scene, char *err,
                      size_t err_size)
{
    char fallback[1];
    reader rd = {0};
    rd.fp = fp;
    rd.path = path;
    rd.err = err && err_size > 0 ? err : fallback;
    rd.err_size = err && err_size > 0 ? err_size : sizeof fallback;
    rd.err[0] = '\0';
    memset(scene, 0, sizeof *scene);
    bool ok = load(&rd, scene);
    free(rd.buf);
    if (!ok)
        bench_scene_free(scene);
    return ok;
}

const char *bench_shape_kind_name(bench_shape_kind kind)
{
    switch (kind) {
    case BENCH_SHAPE_HULL:
        return "hull";
    case BENCH_SHAPE_SPHERE:
        return "sphere";
    case BENCH_SHAPE_CAPSULE:
        return "capsule";
    case BENCH_SHAPE_MESH:
        return "mesh";
    }
    return "shape of unknown kind";
}

bool bench_scene_hulls_only(const bench_scene *scene, const char *path, const char *who, char *err,
                            size_t err_size)
{
    for (int s = 0; s < scene->shape_count; s++)
        if (scene->shapes[s].kind != BENCH_SHAPE_HULL) {
            if (err && err_size > 0)
                snprintf(err, err_size, "%s: shape %d is a %s: %s reads convex hulls only", path, s,
                         bench_shape_kind_name(scene->shapes[s].kind), who);
            return false;
        }
    return true;
}

void bench_scene_free(bench_scene *scene)
{
    if (scene->shapes)
        for (int k = 0; k < scene->shape_count; k++) {
            free(scene->shapes[k].vertices);
            free(scene->shapes[k].indices);
        }
    free(scene->shapes);
    free(scene->bodies);
    memset(scene, 0, sizeof *scene);
}

col_transform bench_scene_pose(const bench_scene *scene, int b, int f)
{
    return bench_scene_pose_at(scene, b, (double)f);
}

col_transform bench_scene_pose_at(const bench_scene *scene, int b, double fr)
{
    const bench_body *bd = &scene->bodies[b];
    col_transform x;

    /* Position: a triangle wave between the walls, per axis (docs/scenes.md, "The motion"). */
    double r = scene->shapes[bd->shape].radius;
    double lo = r, hi = scene->room - r, span = hi - lo;
    double p[3];
    for (int k = 0; k < 3; k++) {
        double s = bd->p0[k] + bd->v[k] * fr - lo;
        double m = fmod(s, 2 * span);
        if (m < 0)
            m += 2 * span;
        p[k] = lo + (m <= span ? m : 2 * span - m);
    }
    x.p = col_vec3_make(p[0], p[1], p[2]);

    /* Orientation: dq = (cos(a/2), u sin(a/2)) with a = |w| f, u = w / |w|; then
     * q = normalize(dq * q0). Everything w first here, as in docs/scenes.md; Colibri's order
     * is applied only at the end. */
    const double *w = bd->w, *q0 = bd->q0;
    double wl = sqrt(w[0] * w[0] + w[1] * w[1] + w[2] * w[2]);
    double dq[4] = {1.0, 0.0, 0.0, 0.0};
    if (wl != 0.0) {
        double a = wl * fr, c = cos(a / 2), sn = sin(a / 2);
        dq[0] = c;
        for (int k = 0; k < 3; k++)
            dq[k + 1] = (w[k] / wl) * sn;
    }
    /* col_quat_mul sums in the order of docs/scenes.md's formula. */
    col_quat qd = {dq[1], dq[2], dq[3], dq[0]}, qs = {q0[1], q0[2], q0[3], q0[0]};
    col_quat m = col_quat_mul(qd, qs);
    double q[4] = {m.w, m.x, m.y, m.z};
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    x.q.w = q[0] / n;
    x.q.x = q[1] / n;
    x.q.y = q[2] / n;
    x.q.z = q[3] / n;
    return x;
}
