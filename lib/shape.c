/* SPDX-License-Identifier: MIT */
/* Shapes: geometries (lib/core/geometry.h) owned by the world and shared by bodies. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/core/geometry.h"
#include "lib/geometry_data.h"
#include "lib/shape_pair.h"
#include "lib/time_critical.h"
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

/* Makes a geometry built on the world's allocator a shape: the backend's data, scratch
 * for every pair it can form (backend.h's scratch rule, grown here so that no frame ever
 * has to) and an id. Takes g: on failure it is freed. */
static col_status adopt(col_world *world, col_geometry *g, col_shape_id *out, const char *what)
{
    col_np_counts counts = col_np_counts_max(world->shape_counts_max, col_geometry_counts(g));
    size_t scratch = world->backend->scratch_need(counts, counts);
    if (col_geometry_data_build(g, world->backend) != COL_OK || col_world_reserve_scratch(world, scratch, what) != COL_OK ||
        col_id_pool_reserve(&world->shape_ids, &world->alloc, 1) != 0 || grow_shapes(world) != COL_OK) {
        col_geom_free(g);
        return col_world_fail(world, COL_ERR_OUT_OF_MEMORY, "%s: out of memory", what);
    }
    int slot = col_id_pool_alloc(&world->shape_ids);
    if (slot < 0) {
        col_geom_free(g);
        return col_world_fail(world, COL_ERR_CAPACITY, "%s: no shape ids left", what);
    }
    col_shape_rec *r = &world->shapes[slot];
    memset(r, 0, sizeof *r);
    r->geom = g;
    r->radius = g->radius;
    r->is_hull = col_geometry_is_hull(g);
    col_world_fat_cube(g, &r->fat_mid, &r->fat_h, &r->fat_at_origin);
    if (r->is_hull) {
        r->hull = g->pieces[0].hull;
        r->np_data = g->pieces[0].np_data[world->np_slot];
    }
    /* the time-critical mode's counts (docs/adb.md), before the id is handed out */
    if (world->def.time_critical.enabled && col_time_critical_prepare(world, r) != COL_OK) {
        col_geom_free(g);
        r->geom = NULL;
        col_id_pool_free(&world->shape_ids, slot, false);
        return col_world_fail(world, COL_ERR_OUT_OF_MEMORY, "%s: out of memory", what);
    }
    world->shape_counts_max = counts;
    *out = col_world_shape_id(world, (uint32_t)slot);
    return COL_OK;
}

/* The start of every creating call: arguments present, *out nulled. */
static col_status begin(col_world *world, col_shape_id *out, const char *what)
{
    col_shape_id none = {0, 0, 0};
    if (out != NULL) *out = none; /* before anything can fail, the world being NULL included */
    if (world == NULL || out == NULL) return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "%s: NULL argument", what);
    col_world_begin_call(world);
    return COL_OK;
}

/* A builder's result: the geometry adopted, or its error recorded. */
static col_status built(col_world *world, col_status st, col_geometry *g, const char *err, col_shape_id *out,
                        const char *what)
{
    if (st != COL_OK) return col_world_fail(world, st, "%s: %s", what, err[0] ? err : col_status_string(st));
    return adopt(world, g, out, what);
}

col_status col_shape_create_convex(col_world *world, const col_vec3 *points, int count, col_shape_id *out)
{
    const char *what = "col_shape_create_convex";
    col_status st = begin(world, out, what);
    if (st != COL_OK) return st;
    if (points == NULL || count < 0)
        return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "%s: points NULL or count %d < 0", what, count);
    char err[200] = "";
    col_geometry *g = NULL;
    st = col_geom_hull(&world->alloc, points, count, &g, err, sizeof err);
    return built(world, st, g, err, out, what);
}

col_status col_shape_create_box(col_world *world, col_vec3 h, col_shape_id *out)
{
    const char *what = "col_shape_create_box";
    col_status st = begin(world, out, what);
    if (st != COL_OK) return st;
    char err[200] = "";
    col_geometry *g = NULL;
    st = col_geom_box(&world->alloc, h, &g, err, sizeof err);
    return built(world, st, g, err, out, what);
}

col_status col_shape_create_sphere(col_world *world, double radius, col_shape_id *out)
{
    const char *what = "col_shape_create_sphere";
    col_status st = begin(world, out, what);
    if (st != COL_OK) return st;
    char err[200] = "";
    col_geometry *g = NULL;
    st = col_geom_sphere(&world->alloc, radius, &g, err, sizeof err);
    return built(world, st, g, err, out, what);
}

col_status col_shape_create_capsule(col_world *world, double half_height, double radius, col_shape_id *out)
{
    const char *what = "col_shape_create_capsule";
    col_status st = begin(world, out, what);
    if (st != COL_OK) return st;
    char err[200] = "";
    col_geometry *g = NULL;
    st = col_geom_capsule(&world->alloc, half_height, radius, &g, err, sizeof err);
    return built(world, st, g, err, out, what);
}

col_status col_shape_create_mesh(col_world *world, const col_mesh_def *def, col_shape_id *out)
{
    const char *what = "col_shape_create_mesh";
    col_status st = begin(world, out, what);
    if (st != COL_OK) return st;
    if (def == NULL) return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "%s: NULL def", what);
    if (def->internal_cookie != COL_DEF_COOKIE)
        return col_world_fail(world, COL_ERR_DEF_UNINITIALIZED, "%s: def not filled by col_default_mesh_def", what);
    char err[200] = "";
    col_geometry *g = NULL;
    st = col_geom_mesh(&world->alloc, def->vertices, def->vertex_count, def->indices, def->triangle_count, &g, err,
                       sizeof err);
    return built(world, st, g, err, out, what);
}

col_status col_shape_create(col_world *world, const col_geometry *geometry, col_shape_id *out)
{
    const char *what = "col_shape_create";
    col_status st = begin(world, out, what);
    if (st != COL_OK) return st;
    if (geometry == NULL) return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "%s: NULL geometry", what);
    col_geometry *g = NULL;
    st = col_geom_clone(&world->alloc, geometry, &g);
    return built(world, st, g, "out of memory", out, what);
}

col_status col_shape_create_compound(col_world *world, const col_compound_child *children, int count,
                                     col_shape_id *out)
{
    const char *what = "col_shape_create_compound";
    col_status st = begin(world, out, what);
    if (st != COL_OK) return st;
    if (children == NULL || count < 1 || count > COL_MAX_COMPOUND_PIECES)
        return col_world_fail(world, COL_ERR_INVALID_ARGUMENT,
                              "%s: children NULL, or count %d not in 1 .. COL_MAX_COMPOUND_PIECES (an empty compound)",
                              what, count);
    for (int i = 0; i < count; i++) {
        char child[64];
        snprintf(child, sizeof child, "%s (child %d)", what, i);
        col_transform pose;
        st = col_world_check_shape(world, children[i].shape, child);
        if (st == COL_OK) st = col_world_check_pose(world, children[i].pose, &pose, child);
        if (st != COL_OK) return st;
    }
    const col_geometry **kids = col_alloc_bytes(&world->alloc, (size_t)count * sizeof *kids);
    col_transform *poses = col_alloc_bytes(&world->alloc, (size_t)count * sizeof *poses);
    char err[200] = "";
    col_geometry *g = NULL;
    if (kids == NULL || poses == NULL) {
        st = COL_ERR_OUT_OF_MEMORY;
    } else {
        for (int i = 0; i < count; i++) {
            kids[i] = world->shapes[children[i].shape.index1 - 1].geom;
            col_world_check_pose(world, children[i].pose, &poses[i], what);
        }
        st = col_geom_compound(&world->alloc, kids, poses, count, &g, err, sizeof err);
    }
    col_free_bytes(&world->alloc, kids, kids != NULL ? (size_t)count * sizeof *kids : 0);
    col_free_bytes(&world->alloc, poses, poses != NULL ? (size_t)count * sizeof *poses : 0);
    return built(world, st, g, err, out, what);
}

col_status col_shape_destroy(col_world *world, col_shape_id shape)
{
    if (world == NULL) return COL_ERR_INVALID_ARGUMENT;
    col_world_begin_call(world);
    col_status st = col_world_check_shape(world, shape, "col_shape_destroy");
    if (st != COL_OK) return st;
    col_shape_rec *r = &world->shapes[shape.index1 - 1];
    if (r->body_count > 0)
        return col_world_fail(world, COL_ERR_SHAPE_IN_USE, "col_shape_destroy: %d bodies still use shape %u", r->body_count,
                              shape.index1);
    col_adb_tree_free(&world->alloc, &r->adb);
    col_geom_free(r->geom);
    r->geom = NULL;
    col_id_pool_free(&world->shape_ids, (int)shape.index1 - 1, false);
    return COL_OK;
}

bool col_shape_is_valid(const col_world *world, col_shape_id shape)
{
    return world != NULL && col_world_shape_live(world, shape);
}

col_status col_shape_get_geometry(const col_world *world, col_shape_id shape, const col_geometry **out)
{
    if (out != NULL) *out = NULL;
    if (world == NULL || out == NULL)
        return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "col_shape_get_geometry: NULL argument");
    *out = NULL;
    col_status st = col_world_check_shape(world, shape, "col_shape_get_geometry");
    if (st != COL_OK) return st;
    *out = world->shapes[shape.index1 - 1].geom;
    return COL_OK;
}

col_status col_shape_get_info(const col_world *world, col_shape_id shape, col_shape_info *out)
{
    if (world == NULL || out == NULL) return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "col_shape_get_info: NULL argument");
    col_status st = col_world_check_shape(world, shape, "col_shape_get_info");
    if (st != COL_OK) return st;
    const col_shape_rec *r = &world->shapes[shape.index1 - 1];
    col_geometry_get_info(r->geom, out);
    out->body_count = r->body_count;
    out->adb_bytes = r->adb.cells != NULL ? col_adb_tree_bytes(&r->adb) : 0;
    return COL_OK;
}

col_status col_shape_get_vertices(const col_world *world, col_shape_id shape, col_vec3 *out, int capacity, int *count)
{
    if (world == NULL || count == NULL || capacity < 0 || (out == NULL && capacity > 0))
        return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "col_shape_get_vertices: bad argument");
    col_status st = col_world_check_shape(world, shape, "col_shape_get_vertices");
    if (st != COL_OK) return st;
    const col_geometry *g = world->shapes[shape.index1 - 1].geom;
    if (g->kind != COL_SHAPE_HULL)
        return col_world_fail(world, COL_ERR_INVALID_ARGUMENT,
                              "col_shape_get_vertices: shape %u is not a hull (read its pieces with "
                              "col_shape_get_geometry and col_geometry_get_piece)", shape.index1);
    const col_hull *h = &g->pieces[0].hull;
    int n = h->vertex_count < capacity ? h->vertex_count : capacity;
    if (n > 0) memcpy(out, h->vertices, (size_t)n * sizeof(col_vec3));
    *count = h->vertex_count;
    return COL_OK;
}
