/* SPDX-License-Identifier: MIT */
/* An assimp scene as one triangle soup (scene_gather.h). Two walks over the node tree:
 * the first checks every face and counts, so the arrays are allocated once at their exact
 * size; the second places the vertices and writes the triangles. */
#include "io/scene_gather.h"

#include <assimp/scene.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "colibri/shape.h"
#include "io/io_alloc.h"

/* A node's transform composed down from the root, in double: rows of [R | t]. */
typedef struct affine {
    double m[3][4];
} affine;

typedef struct gather {
    const struct aiScene *scene;
    double scale;
    bool fill;            /* false: the counting walk; true: the writing walk */
    uint64_t vertices;    /* counted so far (the writing walk: the next free vertex) */
    uint64_t triangles;   /* likewise */
    int instances, points, lines;
    col_io_soup *soup;
    char *message;
    size_t message_size;
} gather;

static col_status fail(gather *g, col_status status, const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vsnprintf(g->message, g->message_size, format, args);
    va_end(args);
    return status;
}

static affine identity(void)
{
    affine a;
    memset(&a, 0, sizeof a);
    a.m[0][0] = a.m[1][1] = a.m[2][2] = 1.0;
    return a;
}

/* parent * node, both affine (assimp stores a row-major 4x4 matrix that moves column
 * vectors: x' = a1 x + a2 y + a3 z + a4). */
static affine compose(const affine *parent, const struct aiMatrix4x4 *n)
{
    const double b[3][4] = {{n->a1, n->a2, n->a3, n->a4}, {n->b1, n->b2, n->b3, n->b4}, {n->c1, n->c2, n->c3, n->c4}};
    affine out;
    for (int r = 0; r < 3; r++) {
        for (int c = 0; c < 4; c++) {
            double s = parent->m[r][0] * b[0][c] + parent->m[r][1] * b[1][c] + parent->m[r][2] * b[2][c];
            out.m[r][c] = c == 3 ? s + parent->m[r][3] : s;
        }
    }
    return out;
}

static col_vec3 place(const affine *t, double scale, const struct aiVector3D *v)
{
    const double x = v->x, y = v->y, z = v->z;
    col_vec3 p;
    p.x = (t->m[0][0] * x + t->m[0][1] * y + t->m[0][2] * z + t->m[0][3]) * scale;
    p.y = (t->m[1][0] * x + t->m[1][1] * y + t->m[1][2] * z + t->m[1][3]) * scale;
    p.z = (t->m[2][0] * x + t->m[2][1] * y + t->m[2][2] * z + t->m[2][3]) * scale;
    return p;
}

static bool usable(double c)
{
    return isfinite(c) && fabs(c) <= COL_MAX_COORD;
}

/* The counting walk's part for one mesh instance: every face checked, totals bounded. */
static col_status count_mesh(gather *g, unsigned index, const struct aiMesh *mesh)
{
    if (mesh == NULL || (mesh->mNumFaces > 0 && mesh->mFaces == NULL) ||
        (mesh->mNumVertices > 0 && mesh->mVertices == NULL))
        return fail(g, COL_ERR_INVALID_ARGUMENT, "mesh %u has no vertex or face array", index);
    for (unsigned f = 0; f < mesh->mNumFaces; f++) {
        const struct aiFace *face = &mesh->mFaces[f];
        if (face->mNumIndices < 1 || face->mNumIndices > 3)
            return fail(g, COL_ERR_INVALID_ARGUMENT, "mesh %u, face %u has %u corners (assimp left it untriangulated)",
                        index, f, face->mNumIndices);
        for (unsigned k = 0; k < face->mNumIndices; k++) {
            if (face->mIndices[k] >= mesh->mNumVertices)
                return fail(g, COL_ERR_INVALID_ARGUMENT, "mesh %u, face %u names vertex %u of %u", index, f,
                            face->mIndices[k], mesh->mNumVertices);
        }
        if (face->mNumIndices == 1) g->points++;
        if (face->mNumIndices == 2) g->lines++;
        if (face->mNumIndices == 3) g->triangles++;
    }
    g->vertices += mesh->mNumVertices;
    if (g->triangles > (uint64_t)COL_MAX_MESH_TRIANGLES)
        return fail(g, COL_ERR_INVALID_ARGUMENT, "more than COL_MAX_MESH_TRIANGLES (%d) triangles",
                    COL_MAX_MESH_TRIANGLES);
    if (g->vertices > (uint64_t)INT_MAX)
        return fail(g, COL_ERR_INVALID_ARGUMENT, "more than %d vertices", INT_MAX);
    return COL_OK;
}

/* The writing walk's part for one mesh instance: its vertices placed, its triangles
 * renumbered into the soup, each triangle corner checked. */
static col_status write_mesh(gather *g, unsigned index, const struct aiMesh *mesh, const affine *t)
{
    col_io_soup *s = g->soup;
    const uint64_t base = g->vertices;
    for (unsigned v = 0; v < mesh->mNumVertices; v++) s->vertices[base + v] = place(t, g->scale, &mesh->mVertices[v]);
    for (unsigned f = 0; f < mesh->mNumFaces; f++) {
        const struct aiFace *face = &mesh->mFaces[f];
        if (face->mNumIndices != 3) continue;
        for (unsigned k = 0; k < 3; k++) {
            const col_vec3 p = s->vertices[base + face->mIndices[k]];
            if (!usable(p.x) || !usable(p.y) || !usable(p.z))
                return fail(g, COL_ERR_NOT_FINITE,
                            "mesh %u, vertex %u is (%g, %g, %g) once placed and scaled: NaN, infinite or beyond "
                            "COL_MAX_COORD", index, face->mIndices[k], p.x, p.y, p.z);
            s->indices[3 * g->triangles + k] = (uint32_t)(base + face->mIndices[k]);
        }
        g->triangles++;
    }
    g->vertices += mesh->mNumVertices;
    return COL_OK;
}

static col_status take_mesh(gather *g, unsigned index, const affine *t)
{
    if (index >= g->scene->mNumMeshes || g->scene->mMeshes == NULL)
        return fail(g, COL_ERR_INVALID_ARGUMENT, "a node names mesh %u of %u", index, g->scene->mNumMeshes);
    g->instances++;
    const struct aiMesh *mesh = g->scene->mMeshes[index];
    return g->fill ? write_mesh(g, index, mesh, t) : count_mesh(g, index, mesh);
}

static col_status walk(gather *g, const struct aiNode *node, const affine *parent, int depth)
{
    if (depth > COL_IO_MAX_NODE_DEPTH)
        return fail(g, COL_ERR_INVALID_ARGUMENT, "node tree deeper than %d", COL_IO_MAX_NODE_DEPTH);
    const struct aiMatrix4x4 *n = &node->mTransformation;
    if (n->d1 != 0 || n->d2 != 0 || n->d3 != 0 || n->d4 != 1)
        return fail(g, COL_ERR_INVALID_ARGUMENT, "node '%s' has a projective transform (last row %g %g %g %g)",
                    node->mName.data, n->d1, n->d2, n->d3, n->d4);
    const affine t = compose(parent, n);
    for (unsigned k = 0; k < node->mNumMeshes; k++) {
        col_status st = take_mesh(g, node->mMeshes[k], &t);
        if (st != COL_OK) return st;
    }
    for (unsigned k = 0; k < node->mNumChildren; k++) {
        if (node->mChildren[k] == NULL) continue;
        col_status st = walk(g, node->mChildren[k], &t, depth + 1);
        if (st != COL_OK) return st;
    }
    return COL_OK;
}

static col_status run(gather *g, int mesh_index)
{
    const affine id = identity();
    if (mesh_index >= 0) return take_mesh(g, (unsigned)mesh_index, &id);
    if (g->scene->mRootNode == NULL) return COL_OK;
    return walk(g, g->scene->mRootNode, &id, 0);
}

col_status col_io_gather(const col_allocator *allocator, const struct aiScene *scene, int mesh_index, double scale,
                         col_io_soup *soup, char *message, size_t message_size)
{
    memset(soup, 0, sizeof *soup);
    gather g = {.scene = scene, .scale = scale, .soup = soup, .message = message, .message_size = message_size};
    if (mesh_index >= 0 && (unsigned)mesh_index >= scene->mNumMeshes)
        return fail(&g, COL_ERR_INVALID_ARGUMENT, "mesh_index %d, but the file has %u meshes", mesh_index,
                    scene->mNumMeshes);
    col_status st = run(&g, mesh_index);
    if (st != COL_OK) return st;
    if (g.triangles == 0)
        return fail(&g, COL_ERR_INVALID_ARGUMENT, "no triangles (%u meshes, %d points and %d lines skipped)",
                    scene->mNumMeshes, g.points, g.lines);
    soup->vertex_capacity = (int)g.vertices;
    soup->triangle_count = (int)g.triangles;
    soup->mesh_count = g.instances;
    soup->skipped_points = g.points;
    soup->skipped_lines = g.lines;
    soup->vertices = col_io_alloc(allocator, (size_t)g.vertices, sizeof *soup->vertices);
    soup->indices = col_io_alloc(allocator, 3 * (size_t)g.triangles, sizeof *soup->indices);
    if (soup->vertices == NULL || soup->indices == NULL) {
        col_io_soup_free(allocator, soup);
        return fail(&g, COL_ERR_OUT_OF_MEMORY, "%d vertices and %d triangles", (int)g.vertices, (int)g.triangles);
    }
    g.fill = true;
    g.vertices = g.triangles = 0;
    g.instances = 0;
    st = run(&g, mesh_index);
    if (st != COL_OK) {
        col_io_soup_free(allocator, soup);
        return st;
    }
    soup->vertex_count = (int)g.vertices;
    return COL_OK;
}

void col_io_soup_free(const col_allocator *allocator, col_io_soup *soup)
{
    col_io_free(allocator, soup->vertices, (size_t)soup->vertex_capacity, sizeof *soup->vertices);
    col_io_free(allocator, soup->indices, 3 * (size_t)soup->triangle_count, sizeof *soup->indices);
    memset(soup, 0, sizeof *soup);
}
