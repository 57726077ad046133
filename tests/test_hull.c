/* SPDX-License-Identifier: MIT */
/* Tests of lib/core/hull.c: exact shapes (cube, tetrahedron, thin box), random clouds with
 * a fixed printed seed checked against brute-force invariants, degenerate and non-finite
 * input, scale invariance, determinism, allocator accounting and allocation failure. */
#define _POSIX_C_SOURCE 200809L /* dup, dup2, fileno */

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

#include "lib/core/alloc.h"
#include "lib/core/hull.h"
#include "lib/core/vec.h"
#include "tests/test_util.h"

/* ---- helpers ---------------------------------------------------------------------- */

static col_vec3 rng_unit(void)
{
    for (;;) {
        col_vec3 v = col_v3(urange(-1, 1), urange(-1, 1), urange(-1, 1));
        double l = col_len(v);
        if (l > 0.1 && l <= 1.0) return col_scale(v, 1.0 / l);
    }
}

static int cube_corners(col_vec3 *p, double h)
{
    int k = 0;
    for (int i = 0; i < 8; i++) p[k++] = col_v3(i & 1 ? h : -h, i & 2 ? h : -h, i & 4 ? h : -h);
    return k;
}

/* Brute-force checks of every structural promise of hull.h; tol is absolute. */
static void check_hull(const col_hull *h, const col_vec3 *pts, int n, double tol)
{
    int V = h->vertex_count, F = h->face_count, E = h->edge_count;
    assert_true(V >= 4 && F >= 4 && E >= 6);
    assert_int_equal(V - E + F, 2);
    /* arrays inside the block */
    const char *lo = h->block, *hi = lo + h->block_size;
    assert_true((const char *)h->vertices >= lo && (const char *)(h->vertices + V) <= hi);
    assert_true((const char *)(h->adj + 2 * E) <= hi);
    assert_int_equal(h->face_first[0], 0);
    assert_int_equal(h->face_first[F], 2 * E);
    assert_int_equal(h->adj_first[0], 0);
    assert_int_equal(h->adj_first[V], 2 * E);

    /* every vertex is an input point */
    for (int v = 0; v < V; v++) {
        int found = 0;
        for (int i = 0; i < n && !found; i++) found = memcmp(&pts[i], &h->vertices[v], sizeof(col_vec3)) == 0;
        assert_true(found);
    }
    for (int f = 0; f < F; f++) {
        const int *r = h->face_verts + h->face_first[f];
        int len = h->face_first[f + 1] - h->face_first[f];
        assert_true(len >= 3);
        col_plane pl = h->planes[f];
        assert_true(fabs(col_len(pl.n) - 1.0) < 1e-12);
        /* counter-clockwise seen from outside: Newell normal along the plane normal */
        col_vec3 s = col_v3(0, 0, 0);
        for (int i = 0; i < len; i++) {
            assert_true(r[i] >= 0 && r[i] < V);
            col_vec3 o = h->vertices[r[0]]; /* relative to the face: no cancellation far out */
            s = col_add(s, col_cross(col_sub(h->vertices[r[i]], o), col_sub(h->vertices[r[(i + 1) % len]], o)));
            double t = col_dot(pl.n, h->vertices[r[i]]);
            assert_true(t <= pl.d);
            assert_true(t >= pl.d - tol);
        }
        assert_true(col_dot(s, pl.n) > 0.0);
        for (int i = 0; i < n; i++) assert_true(col_dot(pl.n, pts[i]) <= pl.d + tol);
        assert_true(col_dot(pl.n, h->centroid) < pl.d);
    }
    /* edges: sorted, once each, faces on the correct side */
    for (int e = 0; e < E; e++) {
        int a = h->edge_verts[2 * e], b = h->edge_verts[2 * e + 1];
        assert_true(a >= 0 && a < b && b < V);
        if (e > 0) {
            int pa = h->edge_verts[2 * e - 2], pb = h->edge_verts[2 * e - 1];
            assert_true(pa < a || (pa == a && pb < b));
        }
        for (int side = 0; side < 2; side++) {
            int f = h->edge_faces[2 * e + side];
            assert_true(f >= 0 && f < F);
            int from = side == 0 ? a : b, to = side == 0 ? b : a, hit = 0;
            const int *r = h->face_verts + h->face_first[f];
            int len = h->face_first[f + 1] - h->face_first[f];
            for (int i = 0; i < len; i++) hit += r[i] == from && r[(i + 1) % len] == to;
            assert_int_equal(hit, 1);
        }
        assert_true(h->edge_faces[2 * e] != h->edge_faces[2 * e + 1]);
    }
    /* adjacency: ascending, symmetric, exactly the edges */
    for (int v = 0; v < V; v++) {
        assert_true(h->adj_first[v + 1] - h->adj_first[v] >= 3);
        for (int k = h->adj_first[v]; k < h->adj_first[v + 1]; k++) {
            int w = h->adj[k];
            assert_true(w >= 0 && w < V && w != v);
            if (k > h->adj_first[v]) assert_true(h->adj[k - 1] < w);
            int back = 0;
            for (int j = h->adj_first[w]; j < h->adj_first[w + 1]; j++) back += h->adj[j] == v;
            assert_int_equal(back, 1);
            int edge = 0;
            for (int e = 0; e < E; e++)
                edge += h->edge_verts[2 * e] == (v < w ? v : w) && h->edge_verts[2 * e + 1] == (v < w ? w : v);
            assert_int_equal(edge, 1);
        }
    }
    /* bounds */
    double rad = 0.0;
    for (int v = 0; v < V; v++) rad = fmax(rad, col_len(h->vertices[v]));
    assert_true(h->radius == rad);
    for (int i = 0; i < n; i++) {
        assert_true(pts[i].x >= h->aabb_min.x && pts[i].x <= h->aabb_max.x);
        assert_true(pts[i].y >= h->aabb_min.y && pts[i].y <= h->aabb_max.y);
        assert_true(pts[i].z >= h->aabb_min.z && pts[i].z <= h->aabb_max.z);
    }
    assert_true(h->volume > 0.0);
}

static col_status build(col_alloc *a, const col_vec3 *p, int n, col_hull *h)
{
    char err[256];
    uint64_t before = a->bytes;
    col_status st = col_hull_build(a, p, n, h, err, sizeof err);
    if (st != COL_OK) {
        assert_true(err[0] != '\0');
        col_hull zero;
        memset(&zero, 0, sizeof zero);
        assert_memory_equal(h, &zero, sizeof zero);
        assert_int_equal(a->bytes, before);
    } else {
        assert_int_equal(err[0], '\0');
        assert_int_equal(a->bytes - before, h->block_size);
    }
    return st;
}

static int same_topology(const col_hull *a, const col_hull *b)
{
    if (a->vertex_count != b->vertex_count || a->face_count != b->face_count || a->edge_count != b->edge_count)
        return 0;
    return memcmp(a->face_first, b->face_first, sizeof(int) * (size_t)(a->face_count + 1)) == 0 &&
           memcmp(a->face_verts, b->face_verts, sizeof(int) * (size_t)(2 * a->edge_count)) == 0 &&
           memcmp(a->edge_verts, b->edge_verts, sizeof(int) * (size_t)(2 * a->edge_count)) == 0 &&
           memcmp(a->edge_faces, b->edge_faces, sizeof(int) * (size_t)(2 * a->edge_count)) == 0 &&
           memcmp(a->adj, b->adj, sizeof(int) * (size_t)(2 * a->edge_count)) == 0;
}

/* Builds with stdout and stderr redirected to a temporary file; asserts nothing was written. */
static col_status build_silently(col_alloc *a, const col_vec3 *p, int n, col_hull *h)
{
    FILE *sink = tmpfile();
    assert_non_null(sink);
    fflush(stdout);
    fflush(stderr);
    int o1 = dup(1), o2 = dup(2);
    assert_true(o1 >= 0 && o2 >= 0);
    dup2(fileno(sink), 1);
    dup2(fileno(sink), 2);
    char err[256];
    col_status st = col_hull_build(a, p, n, h, err, sizeof err);
    fflush(stdout);
    fflush(stderr);
    dup2(o1, 1);
    dup2(o2, 2);
    close(o1);
    close(o2);
    long written = (fseek(sink, 0, SEEK_END), ftell(sink));
    fclose(sink);
    assert_int_equal(written, 0);
    if (st != COL_OK) assert_true(err[0] != '\0');
    if (st != COL_OK && st != COL_ERR_DEGENERATE_SHAPE && st != COL_ERR_TOO_FEW_POINTS)
        print_message("unexpected: %s\n", err);
    return st;
}

/* ---- exact shapes ------------------------------------------------------------------ */

static void test_cube(void **state)
{
    (void)state;
    col_alloc a;
    col_alloc_init(&a, NULL);
    col_vec3 p[8];
    cube_corners(p, 1.0);
    col_hull h;
    assert_int_equal(build(&a, p, 8, &h), COL_OK);
    check_hull(&h, p, 8, 1e-12);
    assert_int_equal(h.vertex_count, 8);
    assert_int_equal(h.face_count, 6);
    assert_int_equal(h.edge_count, 12);
    for (int v = 0; v < 8; v++) assert_memory_equal(&h.vertices[v], &p[v], sizeof p[v]); /* input order */
    for (int f = 0; f < 6; f++) {
        assert_int_equal(h.face_first[f + 1] - h.face_first[f], 4);
        assert_true(fabs(col_max_abs(h.planes[f].n) - 1.0) < 1e-15);
        assert_true(fabs(h.planes[f].d - 1.0) < 1e-15);
    }
    assert_true(fabs(h.volume - 8.0) < 1e-12);
    assert_true(col_max_abs(h.centroid) < 1e-14);
    assert_true(fabs(h.radius - sqrt(3.0)) < 1e-15);
    assert_true(h.aabb_min.x == -1 && h.aabb_max.z == 1);
    /* support scan: ties go to the lowest index */
    assert_int_equal(col_hull_support_scan(&h, col_v3(1, 0, 0)), 1);
    assert_int_equal(col_hull_support_scan(&h, col_v3(-1, -1, -1)), 0);
    assert_int_equal(col_hull_support_scan(&h, col_v3(1, 1, 1)), 7);
    col_hull_free(&a, &h);
    assert_int_equal(a.bytes, 0);
    assert_null(h.block);
    assert_int_equal(h.vertex_count, 0);
}

static void test_tetrahedron(void **state)
{
    (void)state;
    col_alloc a;
    col_alloc_init(&a, NULL);
    col_vec3 p[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    col_hull h;
    assert_int_equal(build(&a, p, 4, &h), COL_OK);
    check_hull(&h, p, 4, 1e-12);
    assert_int_equal(h.vertex_count, 4);
    assert_int_equal(h.face_count, 4);
    assert_int_equal(h.edge_count, 6);
    assert_true(fabs(h.volume - 1.0 / 6.0) < 1e-15);
    assert_true(col_len(col_sub(h.centroid, col_v3(0.25, 0.25, 0.25))) < 1e-15);
    /* deterministic face order: sorted by ring, each starting at its smallest index */
    for (int f = 0; f < 4; f++) {
        const int *r = h.face_verts + h.face_first[f];
        assert_true(r[0] < r[1] && r[0] < r[2]);
    }
    col_hull_free(&a, &h);
    assert_int_equal(a.bytes, 0);
}

static void test_cube_with_points_on_faces_and_inside(void **state)
{
    (void)state;
    rng_seed(12345, __func__);
    col_alloc a;
    col_alloc_init(&a, NULL);
    enum { N = 2000 };
    static col_vec3 p[N];
    int n = 0;
    for (int i = 0; i < N - 8; i++) {
        col_vec3 q = col_v3(urange(-1, 1), urange(-1, 1), urange(-1, 1));
        if (i % 2 == 0) { /* on a face */
            int axis = (int)(rng_next() % 3);
            double s = rng_next() & 1 ? 1.0 : -1.0;
            if (axis == 0) q.x = s;
            else if (axis == 1) q.y = s;
            else q.z = s;
        }
        p[n++] = q;
        if (i == N / 2) n += cube_corners(p + n, 1.0); /* corners in the middle of the input */
    }
    col_hull h;
    assert_int_equal(build(&a, p, n, &h), COL_OK);
    check_hull(&h, p, n, 1e-12);
    assert_int_equal(h.vertex_count, 8);
    assert_int_equal(h.face_count, 6);
    assert_int_equal(h.edge_count, 12);
    for (int v = 0; v < 8; v++) { /* exactly the corners */
        col_vec3 c = h.vertices[v];
        assert_true(fabs(c.x) == 1.0 && fabs(c.y) == 1.0 && fabs(c.z) == 1.0);
    }
    assert_true(fabs(h.volume - 8.0) < 1e-12);
    col_hull_free(&a, &h);
    assert_int_equal(a.bytes, 0);
}

static void test_duplicates_dropped(void **state)
{
    (void)state;
    col_alloc a;
    col_alloc_init(&a, NULL);
    col_vec3 c[8], p[30];
    cube_corners(c, 0.5);
    int n = 0;
    for (int rep = 0; rep < 3; rep++)
        for (int i = 0; i < 8; i++) p[n++] = c[(i * 3 + rep) % 8];
    for (int i = 0; i < 6; i++) p[n++] = col_v3(0.1 * i - 0.25, 0.0, 0.1); /* interior */
    col_hull h;
    assert_int_equal(build(&a, p, n, &h), COL_OK);
    check_hull(&h, p, n, 1e-12);
    assert_int_equal(h.vertex_count, 8);
    assert_int_equal(h.face_count, 6);
    assert_true(fabs(h.volume - 1.0) < 1e-14);
    col_hull_free(&a, &h);
    assert_int_equal(a.bytes, 0);
}

static void test_sphere_random(void **state)
{
    (void)state;
    rng_seed(987654321, __func__);
    col_alloc a;
    col_alloc_init(&a, NULL);
    enum { N = 600 };
    static col_vec3 p[N];
    for (int i = 0; i < N; i++) p[i] = col_add(col_scale(rng_unit(), 3.0), col_v3(10, -4, 2));
    col_hull h;
    assert_int_equal(build(&a, p, N, &h), COL_OK);
    check_hull(&h, p, N, 1e-11);
    assert_int_equal(h.vertex_count, N); /* all on the sphere: all extreme */
    /* vertices numbered by input index, and each is the support along its own direction */
    for (int v = 0; v < N; v++) {
        assert_memory_equal(&h.vertices[v], &p[v], sizeof p[v]);
        col_vec3 d = col_sub(p[v], col_v3(10, -4, 2));
        assert_int_equal(col_hull_support_scan(&h, d), v);
    }
    const double ball = 4.0 / 3.0 * 3.14159265358979323846 * 27.0; /* inscribed in the r = 3 ball */
    assert_true(h.volume < ball && h.volume > 0.95 * ball);
    assert_true(col_len(col_sub(h.centroid, col_v3(10, -4, 2))) < 0.05);
    /* hill climbing on the adjacency reaches the scan's answer from vertex 0 */
    for (int t = 0; t < 200; t++) {
        col_vec3 d = rng_unit();
        int v = 0, moved = 1;
        while (moved) {
            moved = 0;
            for (int k = h.adj_first[v]; k < h.adj_first[v + 1]; k++) {
                if (col_dot(d, h.vertices[h.adj[k]]) > col_dot(d, h.vertices[v])) {
                    v = h.adj[k];
                    moved = 1;
                }
            }
        }
        assert_int_equal(v, col_hull_support_scan(&h, d));
    }
    /* a second build gives identical arrays */
    col_hull h2;
    assert_int_equal(col_hull_build(&a, p, N, &h2, NULL, 0), COL_OK);
    assert_true(same_topology(&h, &h2));
    assert_memory_equal(h.vertices, h2.vertices, sizeof(col_vec3) * N);
    assert_memory_equal(h.planes, h2.planes, sizeof(col_plane) * (size_t)h.face_count);
    col_hull_free(&a, &h2);
    col_hull_free(&a, &h);
    assert_int_equal(a.bytes, 0);
}

/* ---- bad input --------------------------------------------------------------------- */

static void test_too_few_points(void **state)
{
    (void)state;
    col_alloc a;
    col_alloc_init(&a, NULL);
    col_vec3 p[8] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    col_hull h;
    assert_int_equal(build(&a, p, 0, &h), COL_ERR_TOO_FEW_POINTS);
    assert_int_equal(build(&a, p, 1, &h), COL_ERR_TOO_FEW_POINTS);
    assert_int_equal(build(&a, p, 3, &h), COL_ERR_TOO_FEW_POINTS);
    /* 7 points but only 3 distinct */
    col_vec3 q[7] = {{0, 0, 0}, {1, 0, 0}, {0, 0, 0}, {0, 1, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 0}};
    assert_int_equal(build(&a, q, 7, &h), COL_ERR_TOO_FEW_POINTS);
    /* all coincident: one distinct point */
    for (int i = 0; i < 8; i++) p[i] = col_v3(3, -2, 7);
    assert_int_equal(build_silently(&a, p, 8, &h), COL_ERR_TOO_FEW_POINTS);
    assert_int_equal(a.bytes, 0);
}

static void test_degenerate_sets(void **state)
{
    (void)state;
    rng_seed(4242, __func__);
    col_alloc a;
    col_alloc_init(&a, NULL);
    enum { N = 64 };
    col_vec3 p[N];
    col_hull h;
    /* collinear, along a skew direction, far from the origin */
    col_vec3 dir = col_v3(0.3, -0.7, 0.2);
    for (int i = 0; i < N; i++) p[i] = col_add(col_v3(100, 200, -50), col_scale(dir, urange(-5, 5)));
    assert_int_equal(build_silently(&a, p, N, &h), COL_ERR_DEGENERATE_SHAPE);
    /* nearly coincident: 4 distinct points a few ulps apart */
    for (int i = 0; i < 4; i++) p[i] = col_v3(1.0, 2.0 + i * 1e-15, 3.0);
    assert_int_equal(build_silently(&a, p, 4, &h), COL_ERR_DEGENERATE_SHAPE);
    /* coplanar, axis aligned grid */
    for (int i = 0; i < N; i++) p[i] = col_v3(i % 8, i / 8, 5.0);
    assert_int_equal(build_silently(&a, p, N, &h), COL_ERR_DEGENERATE_SHAPE);
    /* coplanar on a tilted plane: only rounding off the plane */
    col_vec3 u = col_v3(1, 2, 3), w = col_v3(-2, 0.5, 1);
    for (int i = 0; i < N; i++)
        p[i] = col_add(col_scale(u, urange(-1, 1)), col_scale(w, urange(-1, 1)));
    assert_int_equal(build_silently(&a, p, N, &h), COL_ERR_DEGENERATE_SHAPE);
    /* a box 1 x 1 x 1e-12 is flat by our criterion (thickness <= 1e-9 of the diameter) */
    cube_corners(p, 0.5);
    for (int i = 0; i < 8; i++) p[i].z *= 1e-12;
    assert_int_equal(build_silently(&a, p, 8, &h), COL_ERR_DEGENERATE_SHAPE);
    assert_int_equal(a.bytes, 0);
}

static void test_not_finite_and_invalid(void **state)
{
    (void)state;
    col_alloc a;
    col_alloc_init(&a, NULL);
    col_vec3 p[8];
    col_hull h;
    const double bad[] = {NAN, INFINITY, -INFINITY, 1.0000001e15, -2e15};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        for (int c = 0; c < 3; c++) {
            cube_corners(p, 1.0);
            double *x = &p[5].x;
            x[c] = bad[k];
            assert_int_equal(build(&a, p, 8, &h), COL_ERR_NOT_FINITE);
        }
    }
    /* exactly COL_MAX_COORD is accepted */
    cube_corners(p, COL_MAX_COORD);
    assert_int_equal(build(&a, p, 8, &h), COL_OK);
    check_hull(&h, p, 8, 1e-10 * COL_MAX_COORD);
    col_hull_free(&a, &h);
    char err[64];
    assert_int_equal(col_hull_build(&a, NULL, 8, &h, err, sizeof err), COL_ERR_INVALID_ARGUMENT);
    assert_int_equal(col_hull_build(&a, p, -1, &h, err, sizeof err), COL_ERR_INVALID_ARGUMENT);
    assert_int_equal(col_hull_build(&a, p, 8, NULL, err, sizeof err), COL_ERR_INVALID_ARGUMENT);
    assert_int_equal(col_hull_build(NULL, p, 8, &h, NULL, 0), COL_ERR_INVALID_ARGUMENT);
    assert_int_equal(a.bytes, 0);
    assert_int_equal(col_hull_support_scan(&h, col_v3(1, 0, 0)), -1);
    col_hull_free(&a, &h); /* freeing a zeroed hull is harmless */
}

/* ---- scale, thinness, near-flat robustness ------------------------------------------- */

static void test_scale_invariance(void **state)
{
    (void)state;
    rng_seed(777, __func__);
    col_alloc a;
    col_alloc_init(&a, NULL);
    enum { N = 300 };
    static col_vec3 base[N], p[N];
    int n = cube_corners(base, 1.0);
    for (; n < 150; n++) base[n] = col_v3(urange(-1, 1), urange(-1, 1), 1.0); /* on a face */
    for (; n < N; n++) base[n] = col_add(col_scale(rng_unit(), 0.9), col_v3(0, 0, 1.5)); /* a dome */
    const double scales[] = {1.0, 1e-9, 1e9, 0x1p-40, 1e-6, 1e6};
    col_hull ref, h;
    for (size_t s = 0; s < sizeof scales / sizeof scales[0]; s++) {
        for (int i = 0; i < N; i++) p[i] = col_scale(base[i], scales[s]);
        assert_int_equal(build(&a, p, N, s == 0 ? &ref : &h), COL_OK);
        if (s == 0) {
            check_hull(&ref, p, N, 1e-12);
            continue;
        }
        check_hull(&h, p, N, 1e-12 * scales[s]);
        assert_true(same_topology(&ref, &h));
        assert_true(fabs(h.volume / (ref.volume * scales[s] * scales[s] * scales[s]) - 1.0) < 1e-12);
        col_hull_free(&a, &h);
    }
    col_hull_free(&a, &ref);
    assert_int_equal(a.bytes, 0);
}

static void test_extreme_sizes(void **state)
{
    (void)state;
    col_alloc a;
    col_alloc_init(&a, NULL);
    col_vec3 p[8];
    col_hull h;
    cube_corners(p, 1e-100); /* volume 8e-300: representable */
    assert_int_equal(build(&a, p, 8, &h), COL_OK);
    check_hull(&h, p, 8, 1e-112);
    assert_true(fabs(h.volume / 8e-300 - 1.0) < 1e-12);
    col_hull_free(&a, &h);
    cube_corners(p, 1e-200); /* volume underflows: rejected, not a zero-volume hull */
    assert_int_equal(build(&a, p, 8, &h), COL_ERR_DEGENERATE_SHAPE);
    /* a unit cube far from the origin keeps its exact topology */
    cube_corners(p, 0.5);
    for (int i = 0; i < 8; i++) p[i] = col_add(p[i], col_v3(1e9, -3e9, 7e8));
    assert_int_equal(build(&a, p, 8, &h), COL_OK);
    check_hull(&h, p, 8, 1e-6);
    assert_int_equal(h.face_count, 6);
    assert_true(fabs(h.volume - 1.0) < 1e-6);
    col_hull_free(&a, &h);
    assert_int_equal(a.bytes, 0);
}

static void test_thin_box(void **state)
{
    (void)state;
    col_alloc a;
    col_alloc_init(&a, NULL);
    const col_vec3 offsets[] = {{0, 0, 0}, {1e3, -2e3, 5e2}};
    for (int o = 0; o < 2; o++) {
        col_vec3 p[9];
        cube_corners(p, 0.5);
        for (int i = 0; i < 8; i++) p[i] = col_add(col_v3(p[i].x, p[i].y, p[i].z * 1e-7), offsets[o]);
        p[8] = col_add(col_v3(0.1, 0.2, 0.0), offsets[o]); /* interior */
        col_hull h;
        assert_int_equal(build(&a, p, 9, &h), COL_OK);
        check_hull(&h, p, 9, 1e-12);
        assert_int_equal(h.vertex_count, 8);
        assert_int_equal(h.face_count, 6);
        assert_int_equal(h.edge_count, 12);
        double thick = p[4].z - p[0].z; /* as represented after the offset */
        assert_true(fabs(h.volume / thick - 1.0) < 1e-8);
        assert_true(col_len(col_sub(h.centroid, offsets[o])) < 1e-12);
        col_hull_free(&a, &h);
    }
    assert_int_equal(a.bytes, 0);
}

/* Slabs and needles around the flatness threshold: either a hull that passes every check
 * or DEGENERATE_SHAPE, never a crash and never a byte on stdout/stderr. */
static void test_near_flat_robustness(void **state)
{
    (void)state;
    rng_seed(2024, __func__);
    col_alloc a;
    col_alloc_init(&a, NULL);
    enum { N = 200 };
    static col_vec3 p[N];
    int ok = 0, degenerate = 0;
    for (int e = 4; e <= 15; e++) {
        double t = pow(10.0, -e);
        for (int kind = 0; kind < 3; kind++) { /* slab, square needle, round needle */
            col_vec3 ax = rng_unit(), by = col_cross(ax, rng_unit());
            by = col_scale(by, 1.0 / col_len(by));
            col_vec3 cz = col_cross(ax, by);
            for (int i = 0; i < N; i++) {
                double x = urange(-1, 1), y = urange(-1, 1) * (kind ? t : 1.0), z = urange(-t, t);
                if (kind == 2) {
                    double ang = urange(0.0, 6.283185307179586);
                    y = t * cos(ang);
                    z = t * sin(ang);
                }
                col_vec3 local = col_add(col_scale(ax, x), col_add(col_scale(by, y), col_scale(cz, z)));
                p[i] = col_add(col_v3(5, 5, 5), local);
            }
            col_hull h;
            col_status st = build_silently(&a, p, N, &h);
            if (st == COL_OK) {
                check_hull(&h, p, N, 1e-9);
                col_hull_free(&a, &h);
                ok++;
            } else {
                assert_int_equal(st, COL_ERR_DEGENERATE_SHAPE);
                degenerate++;
            }
            assert_int_equal(a.bytes, 0);
        }
    }
    print_message("near_flat_robustness: %d built, %d degenerate\n", ok, degenerate);
    assert_true(ok >= 15 && degenerate >= 15);
}

/* ---- allocator ----------------------------------------------------------------------- */

static void test_allocator_counted_and_failing(void **state)
{
    (void)state;
    rng_seed(99, __func__);
    enum { N = 100 };
    col_vec3 p[N];
    for (int i = 0; i < N; i++) p[i] = rng_unit();
    counting_alloc c = {0};
    col_allocator hooks = counting_hooks(&c);
    col_alloc a;
    col_alloc_init(&a, &hooks);
    col_hull h;
    assert_int_equal(build(&a, p, N, &h), COL_OK);
    assert_int_equal(c.allocs - c.frees, 1); /* only the block survives the build */
    assert_true(a.bytes == h.block_size && h.block_size > 0);
    col_hull_free(&a, &h);
    assert_int_equal(a.bytes, 0);
    assert_int_equal(c.allocs - c.frees, 0);

    /* allocator that always fails */
    c.limit = true;
    c.allowed = 0;
    char err[128];
    assert_int_equal(col_hull_build(&a, p, N, &h, err, sizeof err), COL_ERR_OUT_OF_MEMORY);
    assert_true(err[0] != '\0');
    assert_null(h.block);
    assert_int_equal(a.bytes, 0);
    /* fail the k-th allocation for every k until the build succeeds (SQLite faultsim) */
    int k;
    for (k = 0; k < 100; k++) {
        c.allowed = k;
        col_status st = col_hull_build(&a, p, N, &h, err, sizeof err);
        assert_int_equal(c.allocs - c.frees, st == COL_OK ? 1 : 0);
        if (st == COL_OK) {
            check_hull(&h, p, N, 1e-12);
            col_hull_free(&a, &h);
            break;
        }
        assert_int_equal(st, COL_ERR_OUT_OF_MEMORY);
        assert_int_equal(a.bytes, 0);
        assert_null(h.block);
    }
    assert_true(k > 3 && k < 100);
    assert_int_equal(a.bytes, 0);
    assert_int_equal(c.allocs - c.frees, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cube),
        cmocka_unit_test(test_tetrahedron),
        cmocka_unit_test(test_cube_with_points_on_faces_and_inside),
        cmocka_unit_test(test_duplicates_dropped),
        cmocka_unit_test(test_sphere_random),
        cmocka_unit_test(test_too_few_points),
        cmocka_unit_test(test_degenerate_sets),
        cmocka_unit_test(test_not_finite_and_invalid),
        cmocka_unit_test(test_scale_invariance),
        cmocka_unit_test(test_extreme_sizes),
        cmocka_unit_test(test_thin_box),
        cmocka_unit_test(test_near_flat_robustness),
        cmocka_unit_test(test_allocator_counted_and_failing),
    };
    return cmocka_run_group_tests_name("hull", tests, NULL, NULL);
}
