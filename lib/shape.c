/* SPDX-License-Identifier: MIT */
/* Shapes: convex hulls owned by the world and shared by bodies. */
#include <string.h>

#include "lib/world.h"

static col_status grow_shapes(col_world *w)
{
    if (w->shape_cap >= w->shape_ids.capacity) return COL_OK;
    int n = w->shape_ids.capacity;
    col_shape_rec *s = col_alloc_zeroed(&w->alloc, (size_t)n, sizeof *s);
    if (s == NULL) return COL_ERR_OUT_OF_MEMORY;
    if (w->shape_cap > 0) memcpy(s, w->shapes, (size_t)w->shape_cap * sizeof *s);
    col_free_bytes(&w->alloc, w->shapes, (size_t)w->shape_cap * sizeof *s);
    w->shapes = s;
    w->shape_cap = n;
    return COL_OK;
}

/* The backend's per-shape data (backend.h, shape_data_bytes), built before the shape is
 * visible; a block the backend used only in part is moved into a smaller one. Returns 0,
 * or -1 when out of memory (nothing allocated then). */
static int build_shape_data(col_world *w, const col_hull *hull, void **data, size_t *bytes)
{
    *data = NULL;
    *bytes = 0;
    if (w->backend->shape_data_bytes == NULL) return 0;
    size_t n = (w->backend->shape_data_bytes(hull) + 15) & ~(size_t)15;
    if (n == 0) return 0;
    void *mem = col_alloc_bytes(&w->alloc, n);
    if (mem == NULL) return -1;
    size_t used = (w->backend->shape_data_init(mem, n, hull) + 15) & ~(size_t)15;
    if (used > 0 && used < n) {
        void *small = col_alloc_bytes(&w->alloc, used);
        if (small != NULL) {
            memcpy(small, mem, used);
            col_free_bytes(&w->alloc, mem, n);
            mem = small;
            n = used;
        }
    }
    *data = mem;
    *bytes = n;
    return 0;
}

col_status col_shape_create_convex(col_world *world, const col_vec3 *points, int count, col_shape_id *out)
{
    if (world == NULL || out == NULL) return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "col_shape_create_convex: NULL argument");
    if (points == NULL || count < 0)
        return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "col_shape_create_convex: points NULL or count %d < 0", count);
    col_shape_id none = {0, 0, 0};
    *out = none;
    /* Everything that can fail happens before the shape becomes visible. */
    char err[200] = "";
    col_hull hull;
    col_status st = col_hull_build(&world->alloc, points, count, &hull, err, sizeof err);
    if (st != COL_OK) return col_world_fail(world, st, "col_shape_create_convex: %s", err[0] ? err : col_status_string(st));
    /* Scratch for every pair the new shape can form (backend.h's scratch rule), grown
     * here so that no frame ever has to. */
    col_np_counts counts = col_np_counts_max(world->shape_counts_max, col_np_counts_of(&hull));
    size_t scratch = world->backend->scratch_need(counts, counts);
    void *np_data = NULL;
    size_t np_bytes = 0;
    if (col_world_reserve_scratch(world, scratch) != COL_OK || col_id_pool_reserve(&world->shape_ids, &world->alloc, 1) != 0 ||
        grow_shapes(world) != COL_OK || build_shape_data(world, &hull, &np_data, &np_bytes) != 0) {
        col_hull_free(&world->alloc, &hull);
        return col_world_fail(world, COL_ERR_OUT_OF_MEMORY, "col_shape_create_convex: out of memory");
    }
    int slot = col_id_pool_alloc(&world->shape_ids);
    if (slot < 0) {
        col_hull_free(&world->alloc, &hull);
        col_free_bytes(&world->alloc, np_data, np_bytes);
        return col_world_fail(world, COL_ERR_CAPACITY, "col_shape_create_convex: no shape ids left");
    }
    world->shapes[slot].hull = hull;
    world->shapes[slot].body_count = 0;
    world->shapes[slot].np_data = np_data;
    world->shapes[slot].np_data_bytes = np_bytes;
    world->shape_counts_max = counts;
    *out = col_world_shape_id(world, (uint32_t)slot);
    return COL_OK;
}

col_status col_shape_destroy(col_world *world, col_shape_id shape)
{
    if (world == NULL) return COL_ERR_INVALID_ARGUMENT;
    col_status st = col_world_check_shape(world, shape, "col_shape_destroy");
    if (st != COL_OK) return st;
    col_shape_rec *r = &world->shapes[shape.index1 - 1];
    if (r->body_count > 0)
        return col_world_fail(world, COL_ERR_SHAPE_IN_USE, "col_shape_destroy: %d bodies still use shape %u", r->body_count,
                              shape.index1);
    col_hull_free(&world->alloc, &r->hull);
    col_free_bytes(&world->alloc, r->np_data, r->np_data_bytes);
    r->np_data = NULL;
    r->np_data_bytes = 0;
    col_id_pool_free(&world->shape_ids, (int)shape.index1 - 1, false);
    return COL_OK;
}

bool col_shape_is_valid(const col_world *world, col_shape_id shape)
{
    return world != NULL && col_world_shape_live(world, shape);
}

col_status col_shape_get_info(const col_world *world, col_shape_id shape, col_shape_info *out)
{
    if (world == NULL || out == NULL) return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "col_shape_get_info: NULL argument");
    col_status st = col_world_check_shape(world, shape, "col_shape_get_info");
    if (st != COL_OK) return st;
    const col_shape_rec *r = &world->shapes[shape.index1 - 1];
    memset(out, 0, sizeof *out);
    out->vertex_count = r->hull.vertex_count;
    out->face_count = r->hull.face_count;
    out->edge_count = r->hull.edge_count;
    out->centroid = r->hull.centroid;
    out->volume = r->hull.volume;
    out->radius = r->hull.radius;
    out->aabb_min = r->hull.aabb_min;
    out->aabb_max = r->hull.aabb_max;
    out->body_count = r->body_count;
    return COL_OK;
}

col_status col_shape_get_vertices(const col_world *world, col_shape_id shape, col_vec3 *out, int capacity, int *count)
{
    if (world == NULL || count == NULL || capacity < 0 || (out == NULL && capacity > 0))
        return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "col_shape_get_vertices: bad argument");
    col_status st = col_world_check_shape(world, shape, "col_shape_get_vertices");
    if (st != COL_OK) return st;
    const col_hull *h = &world->shapes[shape.index1 - 1].hull;
    int n = h->vertex_count < capacity ? h->vertex_count : capacity;
    if (n > 0) memcpy(out, h->vertices, (size_t)n * sizeof(col_vec3));
    *count = h->vertex_count;
    return COL_OK;
}
