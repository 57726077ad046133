/* SPDX-License-Identifier: MIT */
/* World-free shapes (include/colibri/shape.h): validation, the allocator a geometry
 * keeps, and the backends' per-shape data of its hull pieces. The model itself is
 * lib/core/geometry.c. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "colibri/shape.h"
#include "lib/core/geometry.h"
#include "lib/geometry_data.h"
#include "lib/world.h"
#include "lib/core/mesh.h"

static col_status fail(col_error *error, col_status st, const char *what, const char *msg)
{
    if (error != NULL) snprintf(error->message, sizeof error->message, "%s: %s", what, msg[0] ? msg : col_status_string(st));
    return st;
}

/* The start of every creating call: *out nulled, and an allocator that sets both hooks
 * or neither (one hook alone would pair the app's alloc with another free, or silently
 * ignore the app's hooks; col_world_create refuses it too). */
static col_status begin(const col_allocator *allocator, col_geometry **out, col_error *error, const char *what,
                        col_alloc *a)
{
    if (out == NULL) return fail(error, COL_ERR_INVALID_ARGUMENT, what, "NULL out");
    *out = NULL;
    if (allocator != NULL && (allocator->alloc == NULL) != (allocator->free == NULL))
        return fail(error, COL_ERR_INVALID_ARGUMENT, what, "allocator with one hook: set both alloc and free, or neither");
    col_alloc_init(a, allocator);
    return COL_OK;
}

/* Moves a freshly built geometry onto its own allocator record and builds the data of
 * every backend that keeps per-shape data. */
static col_status adopt(col_alloc *tmp, col_geometry *g, col_geometry **out, col_error *error, const char *what)
{
    g->own = *tmp;
    g->alloc = &g->own;
    if (col_geometry_data_build(g, NULL) != COL_OK) {
        col_geom_free(g);
        return fail(error, COL_ERR_OUT_OF_MEMORY, what, "out of memory");
    }
    *out = g;
    if (error != NULL) error->message[0] = '\0';
    return COL_OK;
}

/* One builder's geometry, world-free: the start every creating call shares, the build,
 * then adopt(). */
typedef struct build_args {
    col_shape_kind kind;
    bool box;               /* a HULL made from half extents */
    const col_vec3 *points; /* a HULL from points */
    int count;
    col_vec3 half;
    double half_height, radius;
} build_args;

static col_status create(const col_allocator *allocator, const build_args *b, col_geometry **out, col_error *error,
                         const char *what)
{
    col_alloc a;
    col_status st = begin(allocator, out, error, what, &a);
    if (st != COL_OK) return st;
    char msg[200] = "";
    col_geometry *g = NULL;
    if (b->kind == COL_SHAPE_SPHERE) st = col_geom_sphere(&a, b->radius, &g, msg, sizeof msg);
    else if (b->kind == COL_SHAPE_CAPSULE) st = col_geom_capsule(&a, b->half_height, b->radius, &g, msg, sizeof msg);
    else if (b->box) st = col_geom_box(&a, b->half, &g, msg, sizeof msg);
    else if (b->points == NULL || b->count < 0) return fail(error, COL_ERR_INVALID_ARGUMENT, what, "points NULL or count < 0");
    else st = col_geom_hull(&a, b->points, b->count, &g, msg, sizeof msg);
    if (st != COL_OK) return fail(error, st, what, msg);
    return adopt(&a, g, out, error, what);
}

col_status col_geometry_create_hull(const col_allocator *allocator, const col_vec3 *points, int count,
                                    col_geometry **out, col_error *error)
{
    build_args b = {COL_SHAPE_HULL, false, points, count, {0, 0, 0}, 0.0, 0.0};
    return create(allocator, &b, out, error, "col_geometry_create_hull");
}

col_status col_geometry_create_box(const col_allocator *allocator, col_vec3 h, col_geometry **out, col_error *error)
{
    build_args b = {COL_SHAPE_HULL, true, NULL, 0, h, 0.0, 0.0};
    return create(allocator, &b, out, error, "col_geometry_create_box");
}

col_status col_geometry_create_sphere(const col_allocator *allocator, double radius, col_geometry **out,
                                      col_error *error)
{
    build_args b = {COL_SHAPE_SPHERE, false, NULL, 0, {0, 0, 0}, 0.0, radius};
    return create(allocator, &b, out, error, "col_geometry_create_sphere");
}

col_status col_geometry_create_capsule(const col_allocator *allocator, double half_height, double radius,
                                       col_geometry **out, col_error *error)
{
    build_args b = {COL_SHAPE_CAPSULE, false, NULL, 0, {0, 0, 0}, half_height, radius};
    return create(allocator, &b, out, error, "col_geometry_create_capsule");
}

col_status col_geometry_create_compound(const col_allocator *allocator, const col_geometry_child *children,
                                        int count, col_geometry **out, col_error *error)
{
    const char *what = "col_geometry_create_compound";
    col_alloc a;
    col_status st = begin(allocator, out, error, what, &a);
    if (st != COL_OK) return st;
    if (children == NULL || count < 1 || count > COL_MAX_COMPOUND_PIECES)
        return fail(error, COL_ERR_INVALID_ARGUMENT, what,
                    "children NULL, or count not in 1 .. COL_MAX_COMPOUND_PIECES (an empty compound)");
    const col_geometry **kids = col_alloc_bytes(&a, (size_t)count * sizeof *kids);
    col_transform *poses = col_alloc_bytes(&a, (size_t)count * sizeof *poses);
    st = kids == NULL || poses == NULL ? COL_ERR_OUT_OF_MEMORY : COL_OK;
    char msg[200] = "";
    for (int i = 0; i < count && st == COL_OK; i++) {
        kids[i] = children[i].geometry;
        if (kids[i] == NULL) {
            snprintf(msg, sizeof msg, "child %d has no geometry", i);
            st = COL_ERR_INVALID_ARGUMENT;
        } else if ((st = col_pose_normalize(1e-6, children[i].pose, &poses[i])) != COL_OK) {
            snprintf(msg, sizeof msg, "child %d: pose %s", i, col_status_string(st));
        }
    }
    col_geometry *g = NULL;
    if (st == COL_OK) st = col_geom_compound(&a, kids, poses, count, &g, msg, sizeof msg);
    col_free_bytes(&a, kids, (size_t)count * sizeof *kids);
    col_free_bytes(&a, poses, (size_t)count * sizeof *poses);
    if (st != COL_OK) return fail(error, st, what, msg);
    return adopt(&a, g, out, error, what);
}

col_mesh_def col_default_mesh_def(void)
{
    col_mesh_def def;
    memset(&def, 0, sizeof def);
    def.internal_cookie = COL_DEF_COOKIE;
    return def;
}

/* The def's arrays and counts as lib/core/mesh.h takes them, or a sentence in msg. */
static col_status mesh_def_check(const col_mesh_def *def, char *msg, size_t len)
{
    if (def == NULL) {
        snprintf(msg, len, "NULL def");
        return COL_ERR_INVALID_ARGUMENT;
    }
    if (def->internal_cookie != COL_DEF_COOKIE) {
        snprintf(msg, len, "def not filled by col_default_mesh_def");
        return COL_ERR_DEF_UNINITIALIZED;
    }
    return COL_OK;
}

col_status col_geometry_create_mesh(const col_allocator *allocator, const col_mesh_def *def, col_geometry **out,
                                    col_error *error)
{
    const char *what = "col_geometry_create_mesh";
    col_alloc a;
    col_status st = begin(allocator, out, error, what, &a);
    if (st != COL_OK) return st;
    char msg[200] = "";
    if ((st = mesh_def_check(def, msg, sizeof msg)) != COL_OK) return fail(error, st, what, msg);
    col_geometry *g = NULL;
    st = col_geom_mesh(&a, def->vertices, def->vertex_count, def->indices, def->triangle_count, &g, msg, sizeof msg);
    if (st != COL_OK) return fail(error, st, what, msg);
    return adopt(&a, g, out, error, what);
}

col_status col_geometry_get_mesh(const col_geometry *g, col_mesh_view *out)
{
    if (out != NULL) memset(out, 0, sizeof *out);
    if (g == NULL || out == NULL || g->kind != COL_SHAPE_MESH) return COL_ERR_INVALID_ARGUMENT;
    out->vertex_count = g->mesh.vertex_count;
    out->vertices = g->mesh.vertices;
    out->triangle_count = g->mesh.triangle_count;
    out->indices = g->mesh.tris;
    out->source = g->mesh.tri_source;
    return COL_OK;
}

col_status col_geometry_clone(const col_allocator *allocator, const col_geometry *geometry, col_geometry **out,
                              col_error *error)
{
    const char *what = "col_geometry_clone";
    col_alloc a;
    col_status st = begin(allocator, out, error, what, &a);
    if (st != COL_OK) return st;
    if (geometry == NULL) return fail(error, COL_ERR_INVALID_ARGUMENT, what, "NULL geometry");
    col_geometry *g;
    st = col_geom_clone(&a, geometry, &g);
    if (st != COL_OK) return fail(error, st, what, "out of memory");
    return adopt(&a, g, out, error, what);
}

void col_geometry_destroy(col_geometry *geometry)
{
    col_geom_free(geometry);
}

col_status col_geometry_get_info(const col_geometry *g, col_shape_info *out)
{
    if (g == NULL || out == NULL) return COL_ERR_INVALID_ARGUMENT;
    memset(out, 0, sizeof *out);
    out->kind = g->kind;
    out->child_count = g->piece_count;
    size_t bytes = sizeof *g + (size_t)g->piece_count * sizeof(col_piece);
    for (int i = 0; i < g->piece_count; i++) {
        bytes += g->pieces[i].kind == COL_SHAPE_HULL ? g->pieces[i].hull.block_size : 0;
        for (int k = 0; k < COL_GEOM_NP_SLOTS; k++) bytes += g->pieces[i].np_bytes[k];
    }
    out->memory_bytes = bytes;
    if (g->kind == COL_SHAPE_MESH) {
        out->child_count = 1;
        out->vertex_count = g->mesh.vertex_count;
        out->triangle_count = g->mesh.triangle_count;
        out->memory_bytes += col_mesh_bytes(&g->mesh);
    } else if (g->kind == COL_SHAPE_HULL) {
        out->vertex_count = g->pieces[0].hull.vertex_count;
        out->face_count = g->pieces[0].hull.face_count;
        out->edge_count = g->pieces[0].hull.edge_count;
    } else if (g->kind != COL_SHAPE_COMPOUND) {
        out->sphere_radius = g->pieces[0].radius;
        out->half_height = g->pieces[0].half_height;
    }
    out->centroid = g->centroid;
    out->volume = g->volume;
    out->radius = g->radius;
    out->aabb_min = g->box_min;
    out->aabb_max = g->box_max;
    return COL_OK;
}

col_status col_geometry_get_piece(const col_geometry *g, int index, col_piece_info *out)
{
    if (g == NULL || out == NULL || index < 0 || index >= g->piece_count) return COL_ERR_INVALID_ARGUMENT;
    const col_piece *p = &g->pieces[index];
    memset(out, 0, sizeof *out);
    out->kind = p->kind;
    out->pose = p->pose;
    out->core[0] = p->ends[0];
    out->core[1] = p->ends[1];
    out->sphere_radius = p->radius;
    out->half_height = p->half_height;
    if (p->kind == COL_SHAPE_HULL) {
        out->hull.vertex_count = p->hull.vertex_count;
        out->hull.vertices = p->hull.vertices;
        out->hull.face_count = p->hull.face_count;
        out->hull.face_first = p->hull.face_first;
        out->hull.face_vertices = p->hull.face_verts;
        out->hull.edge_count = p->hull.edge_count;
        out->hull.edge_vertices = p->hull.edge_verts;
    }
    return COL_OK;
}
