/* SPDX-License-Identifier: MIT */
/* Used vertices renumbered, identical positions joined (vertex_join.h). Joining sorts the
 * used vertices by position (ties by number, so the sort is a total order and the result
 * does not depend on qsort's stability) and gives each run of equal positions the number
 * of its first vertex; equal means == in double, so 0.0 and -0.0 are one point. */
#include "io/vertex_join.h"

#include <stdint.h>
#include <stdlib.h>

#include "io/io_alloc.h"

#define UNUSED UINT32_MAX

typedef struct keyed {
    col_vec3 p;
    uint32_t vertex;
} keyed;

static int by_position(const void *pa, const void *pb)
{
    const keyed *a = pa, *b = pb;
    if (a->p.x != b->p.x) return a->p.x < b->p.x ? -1 : 1;
    if (a->p.y != b->p.y) return a->p.y < b->p.y ? -1 : 1;
    if (a->p.z != b->p.z) return a->p.z < b->p.z ? -1 : 1;
    return a->vertex < b->vertex ? -1 : a->vertex > b->vertex;
}

static bool same_point(col_vec3 a, col_vec3 b)
{
    return a.x == b.x && a.y == b.y && a.z == b.z;
}

/* map[v] := the first vertex at v's position, for every used v. */
static col_status join_positions(const col_allocator *allocator, const col_io_soup *soup, uint32_t *map)
{
    size_t used = 0;
    for (int v = 0; v < soup->vertex_count; v++) used += map[v] != UNUSED;
    keyed *keys = col_io_alloc(allocator, used, sizeof *keys);
    if (keys == NULL) return COL_ERR_OUT_OF_MEMORY;
    size_t n = 0;
    for (int v = 0; v < soup->vertex_count; v++) {
        if (map[v] != UNUSED) keys[n++] = (keyed){soup->vertices[v], (uint32_t)v};
    }
    qsort(keys, n, sizeof *keys, by_position);
    for (size_t k = 0; k < n; k++) {
        const uint32_t first = k > 0 && same_point(keys[k].p, keys[k - 1].p) ? map[keys[k - 1].vertex] : keys[k].vertex;
        map[keys[k].vertex] = first;
    }
    col_io_free(allocator, keys, used, sizeof *keys);
    return COL_OK;
}

col_status col_io_compact(const col_allocator *allocator, col_io_soup *soup, bool join)
{
    const size_t nv = (size_t)soup->vertex_count, ni = 3 * (size_t)soup->triangle_count;
    uint32_t *map = col_io_alloc(allocator, nv, sizeof *map);
    if (map == NULL) return COL_ERR_OUT_OF_MEMORY;
    for (size_t v = 0; v < nv; v++) map[v] = UNUSED;
    for (size_t k = 0; k < ni; k++) map[soup->indices[k]] = soup->indices[k];
    if (join) {
        col_status st = join_positions(allocator, soup, map);
        if (st != COL_OK) {
            col_io_free(allocator, map, nv, sizeof *map);
            return st;
        }
    }
    /* New numbers in ascending order: a vertex's first vertex is never after it, so its
     * new number is known when the vertex is reached, and the vertex moves only down. */
    uint32_t next = 0;
    for (size_t v = 0; v < nv; v++) {
        if (map[v] == UNUSED) continue;
        if (map[v] == v) {
            soup->vertices[next] = soup->vertices[v];
            map[v] = next++;
        } else {
            map[v] = map[map[v]];
        }
    }
    for (size_t k = 0; k < ni; k++) soup->indices[k] = map[soup->indices[k]];
    soup->vertex_count = (int)next;
    col_io_free(allocator, map, nv, sizeof *map);
    return COL_OK;
}
