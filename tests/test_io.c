/* SPDX-License-Identifier: MIT */
/* colibri-io (include/colibri/io.h): model files into mesh geometries. The test writes
 * small files whose triangles it knows (OBJ, ASCII and binary STL, ASCII and binary PLY,
 * COLLADA for node transforms) into a temporary directory, loads them and compares the
 * loaded triangles with the written ones exactly: every coordinate is a multiple of 1/8,
 * so assimp's single precision holds it exactly, and the expected values go through the
 * same double operations (transform, then scale) as the loader's. Then the error paths
 * (missing file, a directory, garbage, empty, points and lines only, NaN and huge
 * coordinates, bad defs, failing allocations) and the models of Debian's
 * assimp-testmodels, which scripts/setup installs: their absence fails the test. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include "colibri/io.h"
#include "colibri/shape.h"
#include "tests/test_util.h"

#ifndef COL_TEST_ASSIMP_MODELS
#define COL_TEST_ASSIMP_MODELS "/usr/share/assimp/models"
#endif

enum { MAX_TRIS = 64 };

static char dir[256];

/* A triangle as three corners, rotated so the smallest corner (x, then y, then z) comes
 * first: the same triangle with the same orientation compares equal whatever corner a
 * loader starts at. */
typedef struct tri {
    col_vec3 c[3];
} tri;

static int cmp_vec(col_vec3 a, col_vec3 b)
{
    if (a.x != b.x) return a.x < b.x ? -1 : 1;
    if (a.y != b.y) return a.y < b.y ? -1 : 1;
    if (a.z != b.z) return a.z < b.z ? -1 : 1;
    return 0;
}

static tri canonical(col_vec3 a, col_vec3 b, col_vec3 c)
{
    tri t = {{a, b, c}};
    int first = 0;
    for (int k = 1; k < 3; k++) {
        if (cmp_vec(t.c[k], t.c[first]) < 0) first = k;
    }
    tri r = {{t.c[first], t.c[(first + 1) % 3], t.c[(first + 2) % 3]}};
    return r;
}

static int cmp_tri(const void *pa, const void *pb)
{
    const tri *a = pa, *b = pb;
    for (int k = 0; k < 3; k++) {
        int c = cmp_vec(a->c[k], b->c[k]);
        if (c != 0) return c;
    }
    return 0;
}

/* The loaded mesh's triangles, canonical and sorted; returns their count. */
static int loaded_tris(const col_geometry *g, tri *out)
{
    col_mesh_view v;
    assert_int_equal(col_geometry_get_mesh(g, &v), COL_OK);
    assert_true(v.triangle_count <= MAX_TRIS);
    for (int k = 0; k < v.triangle_count; k++) {
        const uint32_t *i = &v.indices[3 * k];
        assert_true(i[0] < (uint32_t)v.vertex_count && i[1] < (uint32_t)v.vertex_count &&
                    i[2] < (uint32_t)v.vertex_count);
        out[k] = canonical(v.vertices[i[0]], v.vertices[i[1]], v.vertices[i[2]]);
    }
    qsort(out, (size_t)v.triangle_count, sizeof *out, cmp_tri);
    return v.triangle_count;
}

/* The loaded triangles are exactly the expected ones (as a set with multiplicity). */
static void expect_tris(const col_geometry *g, const tri *want, int n)
{
    tri got[MAX_TRIS], sorted[MAX_TRIS];
    assert_int_equal(loaded_tris(g, got), n);
    for (int k = 0; k < n; k++) sorted[k] = canonical(want[k].c[0], want[k].c[1], want[k].c[2]);
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_tri);
    for (int k = 0; k < n; k++) {
        if (cmp_tri(&got[k], &sorted[k]) != 0) {
            print_error("triangle %d: got (%g %g %g)(%g %g %g)(%g %g %g), want (%g %g %g)(%g %g %g)(%g %g %g)\n", k,
                        got[k].c[0].x, got[k].c[0].y, got[k].c[0].z, got[k].c[1].x, got[k].c[1].y, got[k].c[1].z,
                        got[k].c[2].x, got[k].c[2].y, got[k].c[2].z, sorted[k].c[0].x, sorted[k].c[0].y,
                        sorted[k].c[0].z, sorted[k].c[1].x, sorted[k].c[1].y, sorted[k].c[1].z, sorted[k].c[2].x,
                        sorted[k].c[2].y, sorted[k].c[2].z);
            fail();
        }
    }
}

static const char *path_of(const char *name)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return path;
}

static const char *write_file(const char *name, const void *bytes, size_t size)
{
    const char *path = path_of(name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, size, f), size);
    assert_int_equal(fclose(f), 0);
    return path;
}

static const char *write_text(const char *name, const char *text)
{
    return write_file(name, text, strlen(text));
}

static col_status load(const char *path, const col_io_load_def *def, col_geometry **g, col_io_load_info *info,
                       col_error *err)
{
    col_status st = col_io_load_mesh(NULL, path, def, g, info, err);
    if (st != COL_OK) print_message("  %s: %s\n", col_status_string(st), err->message);
    return st;
}

/* A load that must succeed; its info goes to *info. */
static col_geometry *load_ok(const char *path, const col_io_load_def *def, col_io_load_info *info)
{
    col_geometry *g = NULL;
    col_error err;
    assert_int_equal(load(path, def, &g, info, &err), COL_OK);
    assert_non_null(g);
    col_shape_info si;
    assert_int_equal(col_geometry_get_info(g, &si), COL_OK);
    assert_int_equal(si.kind, COL_SHAPE_MESH);
    assert_int_equal(si.triangle_count, info->triangle_count);
    assert_int_equal(si.vertex_count, info->vertex_count);
    return g;
}

/* A load that must fail with want, leaving *out NULL, info zeroed and a message naming
 * the file; returns the message. */
static const char *load_fails(const char *path, const col_io_load_def *def, col_status want)
{
    static col_error err;
    static char sentinel;
    col_geometry *g = (col_geometry *)(void *)&sentinel; /* must be nulled */
    col_io_load_info info;
    memset(&info, 0xff, sizeof info);
    col_status st = col_io_load_mesh(NULL, path, def, &g, &info, &err);
    print_message("  %s -> %s: %s\n", path != NULL ? path : "(null)", col_status_string(st), err.message);
    assert_int_equal(st, want);
    assert_null(g);
    assert_int_equal(info.triangle_count, 0);
    assert_int_equal(info.vertex_count, 0);
    assert_int_equal(info.mesh_count, 0);
    assert_true(strlen(err.message) > 0);
    if (path != NULL) assert_non_null(strstr(err.message, path));
    return err.message;
}

static col_vec3 v3(double x, double y, double z)
{
    col_vec3 v = {x, y, z};
    return v;
}

/* ---- the files ---- */

/* A tetrahedron: 4 vertices, 4 outward triangles. */
static const double tet_v[4][3] = {{0, 0, 0}, {2.5, 0, 0}, {0, 1.25, 0}, {0, 0, -3.125}};
static const int tet_f[4][3] = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};

static int tet_tris(double scale, tri *out)
{
    for (int f = 0; f < 4; f++) {
        for (int k = 0; k < 3; k++) {
            const double *p = tet_v[tet_f[f][k]];
            out[f].c[k] = v3(p[0] * scale, p[1] * scale, p[2] * scale);
        }
    }
    return 4;
}

static const char *write_tet_stl_ascii(const char *name)
{
    char text[2048];
    size_t n = (size_t)snprintf(text, sizeof text, "solid tet\n");
    for (int f = 0; f < 4; f++) {
        n += (size_t)snprintf(text + n, sizeof text - n, "facet normal 0 0 0\n outer loop\n");
        for (int k = 0; k < 3; k++) {
            const double *p = tet_v[tet_f[f][k]];
            n += (size_t)snprintf(text + n, sizeof text - n, "  vertex %.17g %.17g %.17g\n", p[0], p[1], p[2]);
        }
        n += (size_t)snprintf(text + n, sizeof text - n, " endloop\nendfacet\n");
    }
    snprintf(text + n, sizeof text - n, "endsolid tet\n");
    return write_text(name, text);
}

/* Binary STL: an 80-byte header (not starting with "solid"), a uint32 count, then per
 * triangle a normal and three corners as little-endian floats and a uint16. The test
 * writes the host's byte order: it checks this on little-endian hosts (x86, arm64). */
static const char *write_tet_stl_binary(const char *name)
{
    unsigned char bytes[84 + 4 * 50];
    memset(bytes, 0, sizeof bytes);
    memcpy(bytes, "binary tetrahedron", 18);
    const uint32_t count = 4;
    memcpy(bytes + 80, &count, 4);
    for (int f = 0; f < 4; f++) {
        float fl[12] = {0};
        for (int k = 0; k < 3; k++) {
            for (int c = 0; c < 3; c++) fl[3 + 3 * k + c] = (float)tet_v[tet_f[f][k]][c];
        }
        memcpy(bytes + 84 + 50 * f, fl, sizeof fl);
    }
    return write_file(name, bytes, sizeof bytes);
}

/* A unit-ish box as six quads (each split into two triangles by assimp). */
static const double box_v[8][3] = {{0, 0, 0}, {0, 0, 1.5}, {0, 1.5, 1.5}, {0, 1.5, 0},
                                   {1.5, 0, 0}, {1.5, 0, 1.5}, {1.5, 1.5, 1.5}, {1.5, 1.5, 0}};
static const int box_f[6][4] = {{0, 1, 2, 3}, {7, 6, 5, 4}, {0, 4, 5, 1}, {1, 5, 6, 2}, {2, 6, 7, 3}, {3, 7, 4, 0}};

/* The quads' triangles are not fixed (either diagonal splits a square), so a box is
 * checked by what any split gives: every corner a box corner, each triangle inside one
 * face (its corners share the face's coordinate), half a face each, two per face. */
static void expect_box(const col_geometry *g, double scale)
{
    tri t[MAX_TRIS];
    const int n = loaded_tris(g, t);
    assert_int_equal(n, 12);
    int per_face[6] = {0};
    const double s = 1.5 * scale;
    for (int k = 0; k < n; k++) {
        for (int c = 0; c < 3; c++) {
            const col_vec3 p = t[k].c[c];
            assert_true((p.x == 0 || p.x == s) && (p.y == 0 || p.y == s) && (p.z == 0 || p.z == s));
        }
        const col_vec3 a = t[k].c[0], b = t[k].c[1], c = t[k].c[2];
        int face = -1;
        if (a.x == b.x && b.x == c.x) face = a.x == 0 ? 0 : 1;
        if (a.y == b.y && b.y == c.y) face = a.y == 0 ? 2 : 3;
        if (a.z == b.z && b.z == c.z) face = a.z == 0 ? 4 : 5;
        assert_true(face >= 0);
        per_face[face]++;
        /* twice the area: |(b - a) x (c - a)|, exact here (one non-zero component) */
        const double ux = b.x - a.x, uy = b.y - a.y, uz = b.z - a.z, vx = c.x - a.x, vy = c.y - a.y, vz = c.z - a.z;
        const double cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
        assert_true(fabs(cx) + fabs(cy) + fabs(cz) == s * s);
    }
    for (int f = 0; f < 6; f++) assert_int_equal(per_face[f], 2);
}

static const char *write_box_obj(const char *name)
{
    char text[1024];
    size_t n = 0;
    for (int k = 0; k < 8; k++)
        n += (size_t)snprintf(text + n, sizeof text - n, "v %g %g %g\n", box_v[k][0], box_v[k][1], box_v[k][2]);
    for (int f = 0; f < 6; f++)
        n += (size_t)snprintf(text + n, sizeof text - n, "f %d %d %d %d\n", box_f[f][0] + 1, box_f[f][1] + 1,
                              box_f[f][2] + 1, box_f[f][3] + 1);
    return write_text(name, text);
}

static const char *write_box_ply_ascii(const char *name)
{
    char text[1024];
    size_t n = (size_t)snprintf(text, sizeof text,
                                "ply\nformat ascii 1.0\nelement vertex 8\nproperty float x\nproperty float y\n"
                                "property float z\nelement face 6\nproperty list uchar int vertex_indices\nend_header\n");
    for (int k = 0; k < 8; k++)
        n += (size_t)snprintf(text + n, sizeof text - n, "%g %g %g\n", box_v[k][0], box_v[k][1], box_v[k][2]);
    for (int f = 0; f < 6; f++)
        n += (size_t)snprintf(text + n, sizeof text - n, "4 %d %d %d %d\n", box_f[f][0], box_f[f][1], box_f[f][2],
                              box_f[f][3]);
    return write_text(name, text);
}

/* Binary PLY (little endian, the host's order as for STL): the tetrahedron. */
static const char *write_tet_ply_binary(const char *name)
{
    static const char header[] = "ply\nformat binary_little_endian 1.0\nelement vertex 4\nproperty float x\n"
                                 "property float y\nproperty float z\nelement face 4\n"
                                 "property list uchar int vertex_indices\nend_header\n";
    unsigned char bytes[512];
    size_t n = sizeof header - 1;
    memcpy(bytes, header, n);
    for (int k = 0; k < 4; k++) {
        for (int c = 0; c < 3; c++) {
            const float f = (float)tet_v[k][c];
            memcpy(bytes + n, &f, 4);
            n += 4;
        }
    }
    for (int f = 0; f < 4; f++) {
        bytes[n++] = 3;
        for (int k = 0; k < 3; k++) {
            const int32_t i = tet_f[f][k];
            memcpy(bytes + n, &i, 4);
            n += 4;
        }
    }
    return write_file(name, bytes, n);
}

/* ---- the tests ---- */

static void test_obj_box(void **state)
{
    (void)state;
    const char *path = write_box_obj("box.obj");
    col_io_load_def def = col_default_io_load_def();
    col_io_load_info info;
    col_geometry *g = load_ok(path, &def, &info);
    assert_int_equal(info.triangle_count, 12);
    assert_int_equal(info.vertex_count, 8); /* joined: one vertex per corner */
    assert_int_equal(info.file_mesh_count, 1);
    assert_int_equal(info.mesh_count, 1);
    assert_int_equal(info.skipped_points + info.skipped_lines, 0);
    expect_box(g, 1.0);
    col_geometry_destroy(g);

    /* Not joined: the corners as assimp gives them (OBJ: one per face corner), more than
     * 8 and at most 3 per triangle; the same triangles. */
    def.join_identical_vertices = false;
    g = load_ok(path, &def, &info);
    assert_int_equal(info.triangle_count, 12);
    assert_true(info.vertex_count > 8 && info.vertex_count <= 36);
    expect_box(g, 1.0);
    col_geometry_destroy(g);
}

static void test_stl_ascii_and_binary(void **state)
{
    (void)state;
    tri want[4];
    const int n = tet_tris(1.0, want);
    const char *paths[2] = {NULL, NULL};
    char kept[2][512];
    paths[0] = write_tet_stl_ascii("tet_ascii.stl");
    snprintf(kept[0], sizeof kept[0], "%s", paths[0]);
    paths[1] = write_tet_stl_binary("tet_binary.stl");
    snprintf(kept[1], sizeof kept[1], "%s", paths[1]);
    for (int k = 0; k < 2; k++) {
        col_io_load_def def = col_default_io_load_def();
        col_io_load_info info;
        col_geometry *g = load_ok(kept[k], &def, &info);
        assert_int_equal(info.triangle_count, 4);
        assert_int_equal(info.vertex_count, 4); /* STL stores 12 corners: joined to 4 */
        expect_tris(g, want, n);
        col_geometry_destroy(g);

        def.join_identical_vertices = false;
        g = load_ok(kept[k], &def, &info);
        assert_int_equal(info.vertex_count, 12);
        expect_tris(g, want, n);
        col_geometry_destroy(g);
    }
}

static void test_ply_ascii_and_binary(void **state)
{
    (void)state;
    col_io_load_def def = col_default_io_load_def();
    col_io_load_info info;
    col_geometry *g = load_ok(write_box_ply_ascii("box.ply"), &def, &info);
    assert_int_equal(info.triangle_count, 12);
    assert_int_equal(info.vertex_count, 8);
    expect_box(g, 1.0);
    col_geometry_destroy(g);

    tri want[4];
    const int n = tet_tris(1.0, want);
    g = load_ok(write_tet_ply_binary("tet_binary.ply"), &def, &info);
    assert_int_equal(info.triangle_count, 4);
    assert_int_equal(info.vertex_count, 4);
    expect_tris(g, want, n);
    col_geometry_destroy(g);
}

/* Every coordinate multiplied by the scale, after the transforms: exactly v * scale. */
static void test_scale(void **state)
{
    (void)state;
    const double scales[] = {0.001, 2.5, 1e-9, 1e6};
    const char *path = write_tet_stl_ascii("tet_scale.stl");
    char kept[512];
    snprintf(kept, sizeof kept, "%s", path);
    for (size_t s = 0; s < sizeof scales / sizeof scales[0]; s++) {
        col_io_load_def def = col_default_io_load_def();
        def.scale = scales[s];
        col_io_load_info info;
        col_geometry *g = load_ok(kept, &def, &info);
        tri want[4];
        const int n = tet_tris(scales[s], want);
        expect_tris(g, want, n);
        col_geometry_destroy(g);
    }
    col_io_load_def def = col_default_io_load_def();
    def.scale = 0.5;
    col_io_load_info info;
    col_geometry *g = load_ok(write_box_obj("box_scaled.obj"), &def, &info);
    expect_box(g, 0.5);
    col_geometry_destroy(g);
}

/* An OBJ of two groups is two meshes under two nodes: merged by default, one alone with
 * mesh_index. Group b has a quad (two triangles) and a triangle. */
static void test_obj_groups_merged(void **state)
{
    (void)state;
    const char *path = write_text("groups.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nv 4 4 4\n"
                                                "g a\nf 1 2 3\n"
                                                "g b\nf 1 2 4\nf 1 3 5 4\n");
    char kept[512];
    snprintf(kept, sizeof kept, "%s", path);
    const col_vec3 p[5] = {v3(0, 0, 0), v3(1, 0, 0), v3(0, 1, 0), v3(0, 0, 1), v3(4, 4, 4)};
    col_io_load_def def = col_default_io_load_def();
    col_io_load_info info;
    col_geometry *g = load_ok(kept, &def, &info);
    assert_int_equal(info.file_mesh_count, 2);
    assert_int_equal(info.mesh_count, 2);
    assert_int_equal(info.triangle_count, 4);
    assert_int_equal(info.vertex_count, 5); /* shared corners joined across the groups */
    tri t[MAX_TRIS];
    assert_int_equal(loaded_tris(g, t), 4);
    const tri a = canonical(p[0], p[1], p[2]), b = canonical(p[0], p[1], p[3]);
    int seen_a = 0, seen_b = 0;
    for (int k = 0; k < 4; k++) {
        seen_a += cmp_tri(&t[k], &a) == 0;
        seen_b += cmp_tri(&t[k], &b) == 0;
    }
    assert_int_equal(seen_a, 1);
    assert_int_equal(seen_b, 1);
    col_geometry_destroy(g);

    def.mesh_index = 0; /* group a alone */
    g = load_ok(kept, &def, &info);
    assert_int_equal(info.mesh_count, 1);
    assert_int_equal(info.triangle_count, 1);
    assert_int_equal(info.vertex_count, 3);
    tri want_a[1] = {{{p[0], p[1], p[2]}}};
    expect_tris(g, want_a, 1);
    col_geometry_destroy(g);

    def.mesh_index = 1; /* group b alone: 3 triangles (the quad split) on 5 vertices */
    g = load_ok(kept, &def, &info);
    assert_int_equal(info.triangle_count, 3);
    assert_int_equal(info.vertex_count, 5);
    col_geometry_destroy(g);

    def.mesh_index = 2;
    load_fails(kept, &def, COL_ERR_INVALID_ARGUMENT);
}

/* Node transforms (COLLADA has them; OBJ, STL and PLY do not): one triangle mesh held by
 * node a (a translation) and by node c under node b (b: translate then scale by 2; c: a
 * quarter turn about z given as a matrix), so the merged mesh has the triangle twice,
 * placed by each node's composed transform, then scaled. */
static void test_node_transforms(void **state)
{
    (void)state;
    const char *path = write_text(
        "nodes.dae",
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
        "<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" version=\"1.4.1\">\n"
        "<asset><up_axis>Y_UP</up_axis></asset>\n"
        "<library_geometries><geometry id=\"tri\" name=\"tri\"><mesh>\n"
        "<source id=\"tri-pos\"><float_array id=\"tri-pos-array\" count=\"9\">0 0 0 1 0 0 0 1 0.5</float_array>\n"
        "<technique_common><accessor source=\"#tri-pos-array\" count=\"3\" stride=\"3\">\n"
        "<param name=\"X\" type=\"float\"/><param name=\"Y\" type=\"float\"/><param name=\"Z\" type=\"float\"/>\n"
        "</accessor></technique_common></source>\n"
        "<vertices id=\"tri-vtx\"><input semantic=\"POSITION\" source=\"#tri-pos\"/></vertices>\n"
        "<triangles count=\"1\"><input semantic=\"VERTEX\" source=\"#tri-vtx\" offset=\"0\"/><p>0 1 2</p></triangles>\n"
        "</mesh></geometry></library_geometries>\n"
        "<library_visual_scenes><visual_scene id=\"scene\">\n"
        "<node id=\"a\" name=\"a\"><translate>10 0 0</translate><instance_geometry url=\"#tri\"/></node>\n"
        "<node id=\"b\" name=\"b\"><translate>0 0 5</translate><scale>2 2 2</scale>\n"
        "<node id=\"c\" name=\"c\"><matrix>0 -1 0 0 1 0 0 0 0 0 1 0 0 0 0 1</matrix><instance_geometry url=\"#tri\"/>"
        "</node></node>\n"
        "</visual_scene></library_visual_scenes>\n"
        "<scene><instance_visual_scene url=\"#scene\"/></scene>\n"
        "</COLLADA>\n");
    char kept[512];
    snprintf(kept, sizeof kept, "%s", path);
    const col_vec3 p[3] = {v3(0, 0, 0), v3(1, 0, 0), v3(0, 1, 0.5)};
    for (int s = 0; s < 2; s++) {
        const double scale = s == 0 ? 1.0 : 0.25;
        tri want[2];
        for (int k = 0; k < 3; k++) {
            /* a: x + (10, 0, 0); c under b: 2 * (quarter turn (x, y, z) -> (-y, x, z)) + (0, 0, 5) */
            want[0].c[k] = v3((p[k].x + 10) * scale, p[k].y * scale, p[k].z * scale);
            want[1].c[k] = v3((2 * -p[k].y) * scale, (2 * p[k].x) * scale, (2 * p[k].z + 5) * scale);
        }
        col_io_load_def def = col_default_io_load_def();
        def.scale = scale;
        col_io_load_info info;
        col_geometry *g = load_ok(kept, &def, &info);
        assert_int_equal(info.file_mesh_count, 1);
        assert_int_equal(info.mesh_count, 2); /* one mesh, two nodes */
        assert_int_equal(info.triangle_count, 2);
        assert_int_equal(info.vertex_count, 6);
        expect_tris(g, want, 2);
        col_geometry_destroy(g);
    }
    /* mesh_index 0: the mesh as stored, no node transform */
    col_io_load_def def = col_default_io_load_def();
    def.mesh_index = 0;
    col_io_load_info info;
    col_geometry *g = load_ok(kept, &def, &info);
    tri want[1] = {{{p[0], p[1], p[2]}}};
    expect_tris(g, want, 1);
    col_geometry_destroy(g);
}

/* Points and lines are skipped and counted; their own vertices are not kept. */
static void test_points_and_lines_skipped(void **state)
{
    (void)state;
    const char *path = write_text("mixed.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 7 7 7\nv 8 8 8\n"
                                               "f 1 2 3\np 4\nl 4 5\n");
    col_io_load_def def = col_default_io_load_def();
    col_io_load_info info;
    col_geometry *g = load_ok(path, &def, &info);
    assert_int_equal(info.triangle_count, 1);
    assert_int_equal(info.vertex_count, 3);
    assert_int_equal(info.skipped_points, 1);
    assert_int_equal(info.skipped_lines, 1);
    col_geometry_destroy(g);
}

/* Degenerate triangles (a segment, a point, two equal corners) are their point sets:
 * kept, never dropped (docs of col_mesh_def). */
static void test_degenerate_triangles_kept(void **state)
{
    (void)state;
    const char *path = write_text("degenerate.obj", "v 0 0 0\nv 1 0 0\nv 2 0 0\nv 0 1 0\n"
                                                    "f 1 2 4\nf 1 2 3\nf 1 1 2\nf 4 4 4\n");
    col_io_load_def def = col_default_io_load_def();
    col_io_load_info info;
    col_geometry *g = load_ok(path, &def, &info);
    assert_int_equal(info.triangle_count, 4);
    assert_int_equal(info.vertex_count, 4);
    const col_vec3 p[4] = {v3(0, 0, 0), v3(1, 0, 0), v3(2, 0, 0), v3(0, 1, 0)};
    const tri want[4] = {{{p[0], p[1], p[3]}}, {{p[0], p[1], p[2]}}, {{p[0], p[0], p[1]}}, {{p[3], p[3], p[3]}}};
    expect_tris(g, want, 4);
    col_geometry_destroy(g);
}

static void test_errors(void **state)
{
    (void)state;
    col_io_load_def def = col_default_io_load_def();
    /* missing file, a directory: IO */
    load_fails(path_of("no-such-file.obj"), &def, COL_ERR_IO);
    load_fails(dir, &def, COL_ERR_IO);
    /* what assimp cannot read: its message */
    unsigned char noise[300];
    rng_seed(0x10f11e5, "test_errors noise");
    for (size_t k = 0; k < sizeof noise; k++) noise[k] = (unsigned char)(rng_next() >> 56);
    const char *msg = load_fails(write_file("noise.bin", noise, sizeof noise), &def, COL_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(msg, "assimp"));
    load_fails(write_text("empty.obj", ""), &def, COL_ERR_INVALID_ARGUMENT);
    load_fails(write_text("text.stl", "this is not a model\n"), &def, COL_ERR_INVALID_ARGUMENT);
    /* noise under a name assimp's lenient OBJ reader takes: read, but no triangle */
    msg = load_fails(write_file("noise.obj", noise, sizeof noise), &def, COL_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(msg, "no triangles"));
    /* only points and lines */
    msg = load_fails(write_text("lines.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\np 1\nl 1 2\nl 2 3\n"), &def,
                     COL_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(msg, "no triangles"));
    assert_non_null(strstr(msg, "1 points and 2 lines"));
    /* NaN, infinite and too large coordinates; the same file scaled into range loads */
    load_fails(write_text("nan.obj", "v nan 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"), &def, COL_ERR_NOT_FINITE);
    load_fails(write_text("inf.obj", "v 0 0 0\nv 1 0 0\nv 0 inf 0\nf 1 2 3\n"), &def, COL_ERR_NOT_FINITE);
    const char *huge = write_text("huge.obj", "v 0 0 0\nv 1e16 0 0\nv 0 1 0\nf 1 2 3\n");
    char kept[512];
    snprintf(kept, sizeof kept, "%s", huge);
    load_fails(kept, &def, COL_ERR_NOT_FINITE);
    col_io_load_def small = col_default_io_load_def();
    small.scale = 0.01;
    col_io_load_info info;
    col_geometry_destroy(load_ok(kept, &small, &info));
    /* a NaN vertex no triangle uses is dropped, not refused */
    col_geometry_destroy(
        load_ok(write_text("nan_unused.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv nan 0 0\nf 1 2 3\np 4\n"), &def, &info));
    assert_int_equal(info.vertex_count, 3);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    const char *path = write_tet_stl_ascii("args.stl");
    char kept[512];
    snprintf(kept, sizeof kept, "%s", path);
    col_io_load_def def = col_default_io_load_def();
    col_geometry *g = NULL;
    col_error err;
    assert_int_equal(col_io_load_mesh(NULL, NULL, &def, &g, NULL, &err), COL_ERR_INVALID_ARGUMENT);
    assert_int_equal(col_io_load_mesh(NULL, kept, NULL, &g, NULL, &err), COL_ERR_INVALID_ARGUMENT);
    assert_int_equal(col_io_load_mesh(NULL, kept, &def, NULL, NULL, &err), COL_ERR_INVALID_ARGUMENT);
    assert_int_equal(col_io_load_mesh(NULL, kept, &def, NULL, NULL, NULL), COL_ERR_INVALID_ARGUMENT);
    col_io_load_def zero;
    memset(&zero, 0, sizeof zero);
    load_fails(kept, &zero, COL_ERR_DEF_UNINITIALIZED);
    const double bad_scales[] = {0.0, -1.0, NAN, INFINITY, -0.0};
    for (size_t k = 0; k < sizeof bad_scales / sizeof bad_scales[0]; k++) {
        col_io_load_def d = col_default_io_load_def();
        d.scale = bad_scales[k];
        load_fails(kept, &d, COL_ERR_INVALID_ARGUMENT);
    }
    col_io_load_def d = col_default_io_load_def();
    d.mesh_index = -2;
    load_fails(kept, &d, COL_ERR_INVALID_ARGUMENT);
    d.mesh_index = 1; /* an STL has one mesh */
    load_fails(kept, &d, COL_ERR_INVALID_ARGUMENT);
    counting_alloc c = {0};
    col_allocator one_hook = counting_hooks(&c);
    one_hook.free = NULL;
    assert_int_equal(col_io_load_mesh(&one_hook, kept, &def, &g, NULL, &err), COL_ERR_INVALID_ARGUMENT);
    assert_null(g);
    assert_int_equal(c.calls, 0);
}

/* The allocator serves every array of the call and the geometry: all given back after
 * col_geometry_destroy; each allocation failed in turn gives OUT_OF_MEMORY and leaks
 * nothing. */
static void test_allocator(void **state)
{
    (void)state;
    const char *path = write_box_obj("alloc.obj");
    char kept[512];
    snprintf(kept, sizeof kept, "%s", path);
    col_io_load_def def = col_default_io_load_def();
    counting_alloc c = {0};
    col_allocator hooks = counting_hooks(&c);
    col_geometry *g = NULL;
    col_error err;
    assert_int_equal(col_io_load_mesh(&hooks, kept, &def, &g, NULL, &err), COL_OK);
    const long allocations = c.allocs;
    assert_true(allocations >= 4); /* vertices, indices, the renumbering, the geometry */
    col_geometry_destroy(g);
    assert_int_equal(c.allocs, c.frees);
    for (long n = 1; n <= allocations; n++) {
        counting_alloc f = {0};
        f.fail_attempt = n;
        col_allocator fh = counting_hooks(&f);
        g = NULL;
        const col_status st = col_io_load_mesh(&fh, kept, &def, &g, NULL, &err);
        assert_int_equal(st, COL_ERR_OUT_OF_MEMORY);
        assert_null(g);
        assert_int_equal(f.allocs, f.frees);
    }
}

/* Two threads load files assimp cannot read, each its own, at once: each message is
 * about its own file. assimp keeps its last error in one process-wide string, so without
 * colibri-io's lock a thread could read the other's message (or a string being written).
 * The window is short: without the lock this test passed in three runs of 400 loads on a
 * busy machine, so it shows that concurrent loads work and keep their messages (under
 * ASan too), not that the lock is needed; io/load_mesh.c says why it is. */
enum { LOADS_PER_THREAD = 200 };

typedef struct loader {
    char path[512];
    int wrong; /* messages that did not name this thread's file */
    int other; /* loads that did not fail with INVALID_ARGUMENT */
} loader;

static void *load_many(void *arg)
{
    loader *l = arg;
    col_io_load_def def = col_default_io_load_def();
    for (int k = 0; k < LOADS_PER_THREAD; k++) {
        col_geometry *g = NULL;
        col_error err;
        if (col_io_load_mesh(NULL, l->path, &def, &g, NULL, &err) != COL_ERR_INVALID_ARGUMENT) l->other++;
        /* the part after "assimp cannot read it:" is assimp's, and names the file */
        const char *tail = strstr(err.message, "assimp cannot read it:");
        if (tail == NULL || strstr(tail, l->path) == NULL) l->wrong++;
    }
    return NULL;
}

static void test_threads_get_their_own_message(void **state)
{
    (void)state;
    loader l[2];
    memset(l, 0, sizeof l);
    static const unsigned char noise[] = {0x13, 0x37, 0x00, 0xff, 0x42, 0x99, 0x01, 0x80, 0x7f, 0x55, 0xaa, 0x10};
    snprintf(l[0].path, sizeof l[0].path, "%s", write_file("noise_one.bin", noise, sizeof noise));
    snprintf(l[1].path, sizeof l[1].path, "%s", write_file("noise_other_name.bin", noise, sizeof noise));
    pthread_t t[2];
    for (int k = 0; k < 2; k++) assert_int_equal(pthread_create(&t[k], NULL, load_many, &l[k]), 0);
    for (int k = 0; k < 2; k++) assert_int_equal(pthread_join(t[k], NULL), 0);
    for (int k = 0; k < 2; k++) {
        print_message("  thread %d: %d of %d messages about another file, %d other statuses\n", k, l[k].wrong,
                      LOADS_PER_THREAD, l[k].other);
        assert_int_equal(l[k].wrong, 0);
        assert_int_equal(l[k].other, 0);
    }
}

/* Debian's assimp-testmodels (scripts/setup installs it): a cube in PLY, and the same
 * spider in OBJ (19 groups) and binary STL, 1368 triangles each. */
static void test_assimp_testmodels(void **state)
{
    (void)state;
    struct stat st;
    if (stat(COL_TEST_ASSIMP_MODELS, &st) != 0) {
        print_error("%s is missing: install Debian's assimp-testmodels (scripts/setup does)\n", COL_TEST_ASSIMP_MODELS);
        fail();
    }
    col_io_load_def def = col_default_io_load_def();
    col_io_load_info info;
    col_geometry *g = load_ok(COL_TEST_ASSIMP_MODELS "/PLY/cube.ply", &def, &info);
    assert_int_equal(info.triangle_count, 12);
    assert_int_equal(info.vertex_count, 8);
    col_shape_info si;
    assert_int_equal(col_geometry_get_info(g, &si), COL_OK);
    for (int k = 0; k < 3; k++) {
        assert_true((&si.aabb_min.x)[k] <= 0 && (&si.aabb_max.x)[k] >= 1);
    }
    col_geometry_destroy(g);

    g = load_ok(COL_TEST_ASSIMP_MODELS "/OBJ/spider.obj", &def, &info);
    assert_int_equal(info.file_mesh_count, 19);
    assert_int_equal(info.mesh_count, 19);
    assert_int_equal(info.triangle_count, 1368);
    print_message("  spider.obj: %d triangles, %d vertices\n", info.triangle_count, info.vertex_count);
    col_geometry_destroy(g);

    g = load_ok(COL_TEST_ASSIMP_MODELS "/STL/Spider_binary.stl", &def, &info);
    assert_int_equal(info.triangle_count, 1368);
    assert_true(info.vertex_count < 3 * 1368); /* joined */
    col_geometry_destroy(g);
}

static int make_dir(void **state)
{
    (void)state;
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/colibri-io-XXXXXX", tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
    return mkdtemp(dir) == NULL ? -1 : 0;
}

static int remove_dir(void **state)
{
    (void)state;
    static const char *names[] = {"box.obj", "tet_ascii.stl", "tet_binary.stl", "box.ply", "tet_binary.ply",
                                  "tet_scale.stl", "box_scaled.obj", "groups.obj", "nodes.dae", "mixed.obj",
                                  "noise.bin", "empty.obj", "text.stl", "noise.obj", "lines.obj", "nan.obj",
                                  "inf.obj", "huge.obj", "nan_unused.obj", "args.stl", "alloc.obj",
                                  "noise_one.bin", "noise_other_name.bin", "degenerate.obj"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) remove(path_of(names[k]));
    return rmdir(dir) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_obj_box),
        cmocka_unit_test(test_stl_ascii_and_binary),
        cmocka_unit_test(test_ply_ascii_and_binary),
        cmocka_unit_test(test_scale),
        cmocka_unit_test(test_obj_groups_merged),
        cmocka_unit_test(test_node_transforms),
        cmocka_unit_test(test_points_and_lines_skipped),
        cmocka_unit_test(test_degenerate_triangles_kept),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_allocator),
        cmocka_unit_test(test_threads_get_their_own_message),
        cmocka_unit_test(test_assimp_testmodels),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
