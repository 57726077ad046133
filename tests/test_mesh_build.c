/* SPDX-License-Identifier: MIT */
/* The mesh hierarchy's build (lib/core/mesh.c, issue 16): on random soups, grids and
 * adversarial inputs (many identical triangles, collinear ones, one vertex), with every
 * split rule and leaf size, the tree is checked against its definition by brute force:
 * every triangle in exactly one leaf, every node reached once, leaves of at most
 * COL_MESH_LEAF_MAX, node boxes equal to the exact min/max of their triangles' vertices
 * (leaves) and to the union of their children's boxes (inner nodes), depth within the
 * cap, tri_source a permutation with the caller's index triples. Bad input of each class
 * gives its status, a message naming the bad value, and a zeroed output; a failing
 * allocator at every allocation gives OUT_OF_MEMORY with everything freed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/alloc.h"
#include "lib/core/mesh.h"
#include "tests/test_util.h"

static bool same_vec(col_vec3 a, col_vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

static bool all_zero(const void *p, size_t n)
{
    const unsigned char *c = p;
    for (size_t i = 0; i < n; i++)
        if (c[i] != 0) return false;
    return true;
}

/* The exact box of triangles [begin, end) of m, from their vertices. */
static void tri_range_box(const col_mesh *m, int begin, int end, col_vec3 *lo, col_vec3 *hi)
{
    *lo = col_v3(HUGE_VAL, HUGE_VAL, HUGE_VAL);
    *hi = col_v3(-HUGE_VAL, -HUGE_VAL, -HUGE_VAL);
    for (int k = begin; k < end; k++) {
        col_vec3 t[3];
        col_mesh_triangle(m, k, t);
        for (int j = 0; j < 3; j++) {
            *lo = col_v3(fmin(lo->x, t[j].x), fmin(lo->y, t[j].y), fmin(lo->z, t[j].z));
            *hi = col_v3(fmax(hi->x, t[j].x), fmax(hi->y, t[j].y), fmax(hi->z, t[j].z));
        }
    }
}

/* Every invariant of lib/core/mesh.h, by brute force. */
static void check_mesh(const col_mesh *m, const col_vec3 *v, int nv, const uint32_t *idx, int nt, int leaf_max)
{
    assert_int_equal(m->vertex_count, nv);
    assert_int_equal(m->triangle_count, nt);
    assert_true(m->node_count >= 1 && m->node_count <= 2 * nt - 1);
    assert_true(m->depth >= 1 && m->depth <= COL_MESH_MAX_DEPTH);
    for (int i = 0; i < nv; i++) assert_true(same_vec(m->vertices[i], v[i]));
    /* tri_source a permutation; the triples the caller's */
    unsigned char *seen = calloc((size_t)nt, 1);
    for (int k = 0; k < nt; k++) {
        uint32_t s = m->tri_source[k];
        assert_true(s < (uint32_t)nt);
        assert_int_equal(seen[s], 0);
        seen[s] = 1;
        for (int j = 0; j < 3; j++) assert_int_equal(m->tris[3 * k + j], idx[3 * (size_t)s + j]);
    }
    /* the tree: each node reached once, each triangle in one leaf */
    memset(seen, 0, (size_t)nt);
    unsigned char *reached = calloc((size_t)m->node_count, 1);
    int stack[2 * COL_MESH_MAX_DEPTH + 2], depth_at[2 * COL_MESH_MAX_DEPTH + 2], sp = 0, max_depth = 0, leaves = 0;
    stack[sp] = 0;
    depth_at[sp++] = 1;
    while (sp > 0) {
        sp--;
        int i = stack[sp], d = depth_at[sp];
        assert_true(i >= 0 && i < m->node_count);
        assert_int_equal(reached[i], 0);
        reached[i] = 1;
        if (d > max_depth) max_depth = d;
        const col_mesh_node *n = &m->nodes[i];
        if (n->count > 0) {
            leaves++;
            assert_true(n->count <= leaf_max);
            assert_true(n->child >= 0 && n->child + n->count <= nt);
            for (int k = n->child; k < n->child + n->count; k++) {
                assert_int_equal(seen[k], 0);
                seen[k] = 1;
            }
            col_vec3 lo, hi;
            tri_range_box(m, n->child, n->child + n->count, &lo, &hi);
            assert_true(same_vec(lo, n->min) && same_vec(hi, n->max));
        } else {
            assert_int_equal(n->count, 0);
            assert_true(n->child >= 1 && n->child + 1 < m->node_count);
            const col_mesh_node *c0 = &m->nodes[n->child], *c1 = &m->nodes[n->child + 1];
            col_vec3 lo = col_v3(fmin(c0->min.x, c1->min.x), fmin(c0->min.y, c1->min.y), fmin(c0->min.z, c1->min.z));
            col_vec3 hi = col_v3(fmax(c0->max.x, c1->max.x), fmax(c0->max.y, c1->max.y), fmax(c0->max.z, c1->max.z));
            assert_true(same_vec(lo, n->min) && same_vec(hi, n->max));
            assert_true(sp + 2 <= (int)(sizeof stack / sizeof stack[0]));
            stack[sp] = n->child;
            depth_at[sp++] = d + 1;
            stack[sp] = n->child + 1;
            depth_at[sp++] = d + 1;
        }
    }
    for (int k = 0; k < nt; k++) assert_int_equal(seen[k], 1);
    for (int i = 0; i < m->node_count; i++) assert_int_equal(reached[i], 1);
    assert_int_equal(max_depth, m->depth);
    /* the whole mesh: radius and box over all vertices, used or not */
    double r2 = 0;
    col_vec3 lo = v[0], hi = v[0];
    for (int i = 0; i < nv; i++) {
        r2 = fmax(r2, v[i].x * v[i].x + v[i].y * v[i].y + v[i].z * v[i].z);
        lo = col_v3(fmin(lo.x, v[i].x), fmin(lo.y, v[i].y), fmin(lo.z, v[i].z));
        hi = col_v3(fmax(hi.x, v[i].x), fmax(hi.y, v[i].y), fmax(hi.z, v[i].z));
    }
    assert_true(m->radius == sqrt(r2));
    assert_true(same_vec(lo, m->aabb_min) && same_vec(hi, m->aabb_max));
    assert_true(col_mesh_bytes(m) == m->block_size && m->block_size > 0);
    free(seen);
    free(reached);
}

static void build_and_check(const col_vec3 *v, int nv, const uint32_t *idx, int nt)
{
    static const col_mesh_split rules[3] = {COL_MESH_SPLIT_SAH, COL_MESH_SPLIT_MEAN, COL_MESH_SPLIT_MEDIAN};
    for (int r = 0; r < 3; r++) {
        for (int leaf = 1; leaf <= COL_MESH_LEAF_MAX; leaf += COL_MESH_LEAF_MAX - 1) {
            counting_alloc ca = {0};
            col_allocator hooks = counting_hooks(&ca);
            col_alloc a;
            col_alloc_init(&a, &hooks);
            col_mesh_build_options o = {rules[r], leaf};
            col_mesh m;
            char err[200];
            col_status st = col_mesh_build_with(&a, v, nv, idx, nt, &o, &m, err, sizeof err);
            if (st != COL_OK) print_message("%s\n", err);
            assert_int_equal(st, COL_OK);
            check_mesh(&m, v, nv, idx, nt, leaf);
            /* the copy is the same mesh in its own block */
            col_mesh c;
            assert_int_equal(col_mesh_copy(&a, &m, &c), COL_OK);
            assert_true(c.block != m.block && c.block_size == m.block_size);
            assert_memory_equal(c.block, m.block, m.block_size);
            col_mesh_free(&a, &m);
            check_mesh(&c, v, nv, idx, nt, leaf);
            col_mesh_free(&a, &c);
            assert_true(all_zero(&c, sizeof c));
            assert_int_equal(ca.allocs, ca.frees);
        }
    }
    /* the default build is the SAH one with full leaves */
    col_alloc a;
    col_alloc_init(&a, NULL);
    col_mesh m;
    assert_int_equal(col_mesh_build(&a, v, nv, idx, nt, &m, NULL, 0), COL_OK);
    check_mesh(&m, v, nv, idx, nt, COL_MESH_LEAF_MAX);
    col_mesh_free(&a, &m);
}

/* A soup: nv random vertices in a box of the given scale, nt random triples, about one in
 * eight degenerate (a repeated index). */
static void random_soup(int nv, int nt, double scale, col_vec3 *v, uint32_t *idx)
{
    for (int i = 0; i < nv; i++) {
        double x = urange(-scale, scale), y = urange(-scale, scale), z = urange(-scale, scale);
        v[i] = col_v3(x, y, z);
    }
    for (int t = 0; t < nt; t++) {
        for (int j = 0; j < 3; j++) idx[3 * t + j] = (uint32_t)(rng_next() % (uint64_t)nv);
        if (rng_next() % 8 == 0) idx[3 * t + 2] = idx[3 * t];
    }
}

static void test_random_soups(void **state)
{
    (void)state;
    rng_seed(0x6d65736862756964ULL, "mesh_build random soups");
    static const int sizes[][2] = {{1, 1}, {3, 1}, {3, 2}, {5, 5}, {10, 17}, {50, 100}, {300, 1000}, {2000, 5000}};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        int nv = sizes[s][0], nt = sizes[s][1];
        col_vec3 *v = malloc((size_t)nv * sizeof *v);
        uint32_t *idx = malloc(3 * (size_t)nt * sizeof *idx);
        double scale = s % 2 ? 1e-3 : 1e3;
        random_soup(nv, nt, scale, v, idx);
        build_and_check(v, nv, idx, nt);
        free(v);
        free(idx);
    }
}

/* A grid of n x n squares, two triangles each, bent into a bump. */
static void test_grid(void **state)
{
    (void)state;
    enum { N = 60 };
    col_vec3 v[(N + 1) * (N + 1)];
    uint32_t idx[6 * N * N];
    for (int i = 0; i <= N; i++)
        for (int j = 0; j <= N; j++) v[i * (N + 1) + j] = col_v3(i, j, sin(i * 0.3) * cos(j * 0.2));
    int t = 0;
    for (int i = 0; i < N; i++) {
        for (int j = 0; j < N; j++) {
            uint32_t a = (uint32_t)(i * (N + 1) + j), b = a + 1, c = a + N + 1, d = c + 1;
            uint32_t q[6] = {a, b, d, a, d, c};
            memcpy(&idx[6 * t++], q, sizeof q);
        }
    }
    build_and_check(v, (N + 1) * (N + 1), idx, 2 * N * N);
}

/* Depth cap on adversarial input: 10^5 identical triangles, 10^5 triangles on one line
 * (collinear, spaced geometrically so that splits of the range are lopsided), and
 * 10^5 triangles (i i i) of one vertex. */
static void test_adversarial(void **state)
{
    (void)state;
    enum { NT = 100000 };
    uint32_t *idx = malloc(3 * (size_t)NT * sizeof *idx);
    col_vec3 *v = malloc(3 * (size_t)NT * sizeof *v);
    /* identical */
    v[0] = col_v3(0, 0, 0);
    v[1] = col_v3(1, 0, 0);
    v[2] = col_v3(0, 1, 0);
    for (int t = 0; t < NT; t++) {
        idx[3 * t] = 0;
        idx[3 * t + 1] = 1;
        idx[3 * t + 2] = 2;
    }
    build_and_check(v, 3, idx, NT);
    /* one vertex */
    for (int t = 0; t < 3 * NT; t++) idx[t] = 0;
    build_and_check(v, 1, idx, NT);
    /* collinear: segments on one line at geometrically growing places (1.0003^t, up to
     * about 2e13), so equal-width bins are lopsided; every seventh index is vertex 0 */
    for (int i = 0; i < 3 * NT; i++) {
        double x = pow(1.0003, i / 3) * (1 + 0.5 * (i % 3));
        v[i] = col_v3(x, x / 2, -x);
        idx[i] = (uint32_t)(i % 7 == 0 ? 0 : i);
    }
    build_and_check(v, 3 * NT, idx, NT);
    free(idx);
    free(v);
}

typedef struct bad_case {
    const char *what;
    int nv, nt;
    col_vec3 bad_vertex; /* put at vertex 2 when finite_check */
    bool set_vertex;
    uint32_t bad_index;  /* put at indices[10] (triangle 3, index 1) when set_index */
    bool set_index;
    bool null_v, null_i;
    col_status want;
    const char *message; /* a part of the message */
} bad_case;

static void test_bad_input(void **state)
{
    (void)state;
    col_vec3 v[10];
    for (int i = 0; i < 10; i++) v[i] = col_v3(i, i * i, 1);
    uint32_t idx[15];
    for (int i = 0; i < 15; i++) idx[i] = (uint32_t)(i % 10);
    const bad_case cases[] = {
        {"NULL vertices", 10, 5, {0, 0, 0}, false, 0, false, true, false, COL_ERR_INVALID_ARGUMENT, "vertex array is NULL"},
        {"NULL indices", 10, 5, {0, 0, 0}, false, 0, false, false, true, COL_ERR_INVALID_ARGUMENT, "index array is NULL"},
        {"no vertex", 0, 5, {0, 0, 0}, false, 0, false, false, false, COL_ERR_INVALID_ARGUMENT, "vertex count 0"},
        {"negative vertices", -3, 5, {0, 0, 0}, false, 0, false, false, false, COL_ERR_INVALID_ARGUMENT, "vertex count -3"},
        {"no triangle", 10, 0, {0, 0, 0}, false, 0, false, false, false, COL_ERR_INVALID_ARGUMENT, "triangle count 0"},
        {"negative triangles", 10, -1, {0, 0, 0}, false, 0, false, false, false, COL_ERR_INVALID_ARGUMENT,
         "triangle count -1"},
        {"too many triangles", 10, COL_MESH_MAX_TRIANGLES + 1, {0, 0, 0}, false, 0, false, false, false,
         COL_ERR_INVALID_ARGUMENT, "triangle count 268435457"},
        {"2^31 - 1 triangles", 10, 2147483647, {0, 0, 0}, false, 0, false, false, false, COL_ERR_INVALID_ARGUMENT,
         "triangle count 2147483647"},
        {"NaN", 10, 5, {1, NAN, 0}, true, 0, false, false, false, COL_ERR_NOT_FINITE, "coordinate y of vertex 2"},
        {"Inf", 10, 5, {1, 0, -INFINITY}, true, 0, false, false, false, COL_ERR_NOT_FINITE,
         "coordinate z of vertex 2"},
        {"beyond COL_MAX_COORD", 10, 5, {2e15, 0, 0}, true, 0, false, false, false, COL_ERR_NOT_FINITE,
         "coordinate x of vertex 2 is 2e+15"},
        {"index = nv", 10, 5, {0, 0, 0}, false, 10, true, false, false, COL_ERR_INVALID_ARGUMENT,
         "index 1 of triangle 3 is 10, beyond the 10 vertices"},
        {"index 12", 10, 5, {0, 0, 0}, false, 12, true, false, false, COL_ERR_INVALID_ARGUMENT,
         "index 1 of triangle 3 is 12, beyond the 10 vertices"},
        {"index 2^31", 10, 5, {0, 0, 0}, false, 0x80000000u, true, false, false, COL_ERR_INVALID_ARGUMENT,
         "is 2147483648, beyond"},
        {"index 2^32 - 1", 10, 5, {0, 0, 0}, false, 0xffffffffu, true, false, false, COL_ERR_INVALID_ARGUMENT,
         "is 4294967295, beyond"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const bad_case *b = &cases[c];
        col_vec3 vv[10];
        uint32_t ii[15];
        memcpy(vv, v, sizeof v);
        memcpy(ii, idx, sizeof idx);
        if (b->set_vertex) vv[2] = b->bad_vertex;
        if (b->set_index) ii[10] = b->bad_index;
        counting_alloc ca = {0};
        col_allocator hooks = counting_hooks(&ca);
        col_alloc a;
        col_alloc_init(&a, &hooks);
        col_mesh m;
        memset(&m, 0xab, sizeof m);
        char err[200];
        col_status st = col_mesh_build(&a, b->null_v ? NULL : vv, b->nv, b->null_i ? NULL : ii, b->nt, &m, err,
                                       sizeof err);
        print_message("%s: %s\n", b->what, err);
        assert_int_equal(st, b->want);
        assert_non_null(strstr(err, b->message));
        assert_true(all_zero(&m, sizeof m));
        assert_int_equal(ca.allocs, 0);
        /* errlen 0 and a NULL err are fine */
        assert_int_equal(col_mesh_build(&a, b->null_v ? NULL : vv, b->nv, b->null_i ? NULL : ii, b->nt, &m, NULL, 0),
                         b->want);
    }
    /* a leaf size out of range, a NULL allocator or output */
    col_alloc a;
    col_alloc_init(&a, NULL);
    col_mesh m;
    char err[200];
    memset(&m, 0xab, sizeof m);
    assert_int_equal(col_mesh_build(NULL, v, 10, idx, 5, &m, err, sizeof err), COL_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(err, "allocator is NULL"));
    assert_true(all_zero(&m, sizeof m));
    assert_int_equal(col_mesh_build(&a, v, 10, idx, 5, NULL, err, sizeof err), COL_ERR_INVALID_ARGUMENT);
    assert_non_null(strstr(err, "output mesh is NULL"));
    col_mesh_build_options o = {COL_MESH_SPLIT_SAH, COL_MESH_LEAF_MAX + 1};
    assert_int_equal(col_mesh_build_with(&a, v, 10, idx, 5, &o, &m, NULL, 0), COL_ERR_INVALID_ARGUMENT);
    o.leaf_max = 0;
    assert_int_equal(col_mesh_build_with(&a, v, 10, idx, 5, &o, &m, NULL, 0), COL_ERR_INVALID_ARGUMENT);
    assert_true(all_zero(&m, sizeof m));
}

/* Out of memory at every allocation of the build and of the copy: OUT_OF_MEMORY, *m
 * zeroed, every block back (ASan sees the rest). */
static void test_out_of_memory(void **state)
{
    (void)state;
    rng_seed(0x6f6f6d6d657368ULL, "mesh_build out of memory");
    enum { NV = 40, NT = 90 };
    col_vec3 v[NV];
    uint32_t idx[3 * NT];
    random_soup(NV, NT, 1, v, idx);
    long needed = 0;
    for (long n = 1;; n++) {
        counting_alloc ca = {0};
        ca.fail_attempt = n;
        col_allocator hooks = counting_hooks(&ca);
        col_alloc a;
        col_alloc_init(&a, &hooks);
        col_mesh m;
        memset(&m, 0xab, sizeof m);
        char err[200];
        col_status st = col_mesh_build(&a, v, NV, idx, NT, &m, err, sizeof err);
        if (st == COL_OK) {
            check_mesh(&m, v, NV, idx, NT, COL_MESH_LEAF_MAX);
            col_mesh c;
            for (long k = 1;; k++) { /* the copy, failing at its k-th allocation */
                counting_alloc cb = {0};
                cb.fail_attempt = k;
                col_allocator hb = counting_hooks(&cb);
                col_alloc b;
                col_alloc_init(&b, &hb);
                memset(&c, 0xab, sizeof c);
                col_status sc = col_mesh_copy(&b, &m, &c);
                if (sc == COL_OK) {
                    col_mesh_free(&b, &c);
                    assert_int_equal(cb.allocs, cb.frees);
                    break;
                }
                assert_int_equal(sc, COL_ERR_OUT_OF_MEMORY);
                assert_true(all_zero(&c, sizeof c));
                assert_int_equal(cb.allocs, cb.frees);
            }
            col_mesh_free(&a, &m);
            assert_int_equal(ca.allocs, ca.frees);
            needed = n - 1;
            break;
        }
        assert_int_equal(st, COL_ERR_OUT_OF_MEMORY);
        assert_non_null(strstr(err, "out of memory"));
        assert_true(all_zero(&m, sizeof m));
        assert_int_equal(ca.allocs, ca.frees);
    }
    print_message("the build makes %ld allocations, each failed once\n", needed);
    assert_true(needed >= 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_soups), cmocka_unit_test(test_grid),
        cmocka_unit_test(test_adversarial),  cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_out_of_memory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
