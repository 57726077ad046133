/* SPDX-License-Identifier: MIT */
/* col_io_load_mesh (include/colibri/io.h): the arguments checked, the file opened by us
 * (so a missing file is COL_ERR_IO with the system's reason, not one of assimp's parse
 * messages), read by assimp, gathered into one soup (scene_gather.c), its vertices
 * compacted (vertex_join.c) and handed to col_geometry_create_mesh. */
#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "colibri/io.h"
#include "io/scene_gather.h"
#include "io/vertex_join.h"

/* Stamped by col_default_io_load_def, so a zero-filled def is told apart. */
#define COL_IO_DEF_COOKIE 0x10AD10AD

/* assimp's C interface keeps the last error message in one process-wide string: an
 * import and the reading of its message happen under this lock, so two threads loading
 * at once each get their own message. The only state colibri-io keeps. */
static pthread_mutex_t assimp_lock = PTHREAD_MUTEX_INITIALIZER;

col_io_load_def col_default_io_load_def(void)
{
    col_io_load_def def;
    memset(&def, 0, sizeof def);
    def.mesh_index = -1;
    def.scale = 1.0;
    def.join_identical_vertices = true;
    def.internal_value = COL_IO_DEF_COOKIE;
    return def;
}

/* The message names the file (its first 120 characters), then the detail. */
static col_status fail(col_error *error, col_status status, const char *path, const char *format, ...)
{
    if (error != NULL) {
        const size_t size = sizeof error->message;
        const int n = snprintf(error->message, size, "%.120s: ", path != NULL ? path : "(null)");
        va_list args;
        va_start(args, format);
        if (n > 0 && (size_t)n < size) vsnprintf(error->message + n, size - (size_t)n, format, args);
        va_end(args);
    }
    return status;
}

static col_status check_arguments(const col_allocator *allocator, const char *path, const col_io_load_def *def,
                                  col_geometry **out, col_error *error)
{
    if (path == NULL || def == NULL || out == NULL)
        return fail(error, COL_ERR_INVALID_ARGUMENT, path, "col_io_load_mesh: NULL %s",
                    path == NULL ? "path" : def == NULL ? "def" : "out");
    if (def->internal_value != COL_IO_DEF_COOKIE)
        return fail(error, COL_ERR_DEF_UNINITIALIZED, path, "the def was not filled by col_default_io_load_def()");
    if (allocator != NULL && (allocator->alloc == NULL) != (allocator->free == NULL))
        return fail(error, COL_ERR_INVALID_ARGUMENT, path, "allocator with one hook: set both alloc and free, or neither");
    if (!isfinite(def->scale) || def->scale <= 0)
        return fail(error, COL_ERR_INVALID_ARGUMENT, path, "scale %g is not a finite number > 0", def->scale);
    if (def->mesh_index < -1)
        return fail(error, COL_ERR_INVALID_ARGUMENT, path, "mesh_index %d (-1: all, k >= 0: mesh k)", def->mesh_index);
    return COL_OK;
}

/* The file can be opened and its first byte read (an empty file passes: assimp says
 * what is wrong with it). */
static col_status check_readable(const char *path, col_error *error)
{
    errno = 0;
    FILE *f = fopen(path, "rb");
    if (f == NULL) return fail(error, COL_ERR_IO, path, "cannot open: %s", strerror(errno));
    errno = 0;
    (void)fgetc(f);
    const int bad = ferror(f), why = errno;
    fclose(f);
    if (bad) return fail(error, COL_ERR_IO, path, "cannot read: %s", strerror(why != 0 ? why : EIO));
    return COL_OK;
}

/* aiProcess_Triangulate splits polygons into triangles and leaves points and lines as
 * they are (they are skipped and counted). assimp's aiProcess_JoinIdenticalVertices is not
 * asked for: it joins only vertices whose normals and texture coordinates agree too,
 * where a collision mesh wants one vertex per position (vertex_join.c). */
static const struct aiScene *import(const char *path, col_error *error)
{
    pthread_mutex_lock(&assimp_lock);
    const struct aiScene *scene = aiImportFile(path, aiProcess_Triangulate);
    if (scene == NULL) fail(error, COL_ERR_INVALID_ARGUMENT, path, "assimp cannot read it: %s", aiGetErrorString());
    pthread_mutex_unlock(&assimp_lock);
    return scene;
}

static col_status make_mesh(const col_allocator *allocator, const char *path, const col_io_soup *soup,
                            col_geometry **out, col_error *error)
{
    col_mesh_def md = col_default_mesh_def();
    md.vertices = soup->vertices;
    md.vertex_count = soup->vertex_count;
    md.indices = soup->indices;
    md.triangle_count = soup->triangle_count;
    col_error inner;
    inner.message[0] = '\0';
    col_status st = col_geometry_create_mesh(allocator, &md, out, &inner);
    if (st != COL_OK) return fail(error, st, path, "%s", inner.message);
    return COL_OK;
}

col_status col_io_load_mesh(const col_allocator *allocator, const char *path, const col_io_load_def *def,
                            col_geometry **out, col_io_load_info *info, col_error *error)
{
    if (out != NULL) *out = NULL;
    if (info != NULL) memset(info, 0, sizeof *info);
    if (error != NULL) error->message[0] = '\0';
    col_status st = check_arguments(allocator, path, def, out, error);
    if (st == COL_OK) st = check_readable(path, error);
    if (st != COL_OK) return st;
    const struct aiScene *scene = import(path, error);
    if (scene == NULL) return COL_ERR_INVALID_ARGUMENT;
    col_io_soup soup;
    char message[sizeof(col_error)];
    st = col_io_gather(allocator, scene, def->mesh_index, def->scale, &soup, message, sizeof message);
    const int file_meshes = (int)scene->mNumMeshes;
    aiReleaseImport(scene);
    if (st != COL_OK) return fail(error, st, path, "%s", message);
    st = col_io_compact(allocator, &soup, def->join_identical_vertices);
    if (st != COL_OK) {
        const int vertices = soup.vertex_count;
        col_io_soup_free(allocator, &soup);
        return fail(error, st, path, "renumbering %d vertices", vertices);
    }
    st = make_mesh(allocator, path, &soup, out, error);
    if (st == COL_OK && info != NULL) {
        info->file_mesh_count = file_meshes;
        info->mesh_count = soup.mesh_count;
        info->triangle_count = soup.triangle_count;
        info->vertex_count = soup.vertex_count;
        info->skipped_points = soup.skipped_points;
        info->skipped_lines = soup.skipped_lines;
    }
    col_io_soup_free(allocator, &soup);
    return st;
}
