/* SPDX-License-Identifier: MIT */
/* Model files into mesh shapes: the optional library colibri-io (io/, pkg-config
 * colibri-io), built with the meson option io. It reads a file through assimp (OBJ, STL in
 * ASCII and binary, PLY in ASCII and binary, and the other formats assimp reads, such as
 * COLLADA and glTF) and makes a col_geometry of kind COL_SHAPE_MESH with
 * col_geometry_create_mesh (shape.h): the core library does not depend on assimp, and
 * colibri-io uses only the public API.
 *
 * What is taken from a file: every face of three corners, after assimp has split polygons
 * into triangles (aiProcess_Triangulate), at its vertices' positions; normals, colours,
 * texture coordinates and materials are ignored. Point and line primitives are not
 * surfaces: they are skipped and counted (col_io_load_info). Degenerate triangles are kept
 * (a mesh is the union of its closed triangles, degenerate ones included). assimp reads
 * coordinates in single precision; they are widened to double, placed by the scene's node
 * transforms (composed in double) and scaled, exactly in that order.
 *
 * Threads: any number may load at once; the calls into assimp's C interface are
 * serialised inside colibri-io, since assimp keeps its last error message in one
 * process-wide string. Stands alone: includes only other public headers. */
#ifndef COLIBRI_IO_H
#define COLIBRI_IO_H

#include <stdbool.h>

#include "colibri/base.h"
#include "colibri/shape.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Which part of a file to load and how. Fill with col_default_io_load_def(). */
typedef struct col_io_load_def {
    int mesh_index;     /* -1 (default): the whole scene, every mesh placed by the
                           transforms of each node that holds it (a mesh held by two nodes
                           is taken twice) and merged into one mesh; k >= 0: the file's mesh
                           k alone, in the frame it is stored in (no node transform) */
    double scale;       /* every coordinate is multiplied by it after the node transforms;
                           finite and > 0; default 1 (files in millimetres: 0.001) */
    bool join_identical_vertices; /* default true: vertices at exactly the same position
                           (after transform and scale, compared in double) become one, across
                           meshes too, so a file that stores three corners per triangle
                           (STL) gives one vertex per point; false: the vertices as assimp
                           gives them */
    int internal_value; /* set by col_default_io_load_def; leave it */
} col_io_load_def;

COL_API col_io_load_def col_default_io_load_def(void);

/* What a load found (optional output of col_io_load_mesh). */
typedef struct col_io_load_info {
    int file_mesh_count;   /* meshes in the file */
    int mesh_count;        /* mesh instances merged (with mesh_index >= 0: 1) */
    int triangle_count;    /* triangles of the result */
    int vertex_count;      /* vertices of the result (after joining) */
    int skipped_points;    /* point primitives skipped (not surfaces) */
    int skipped_lines;     /* line primitives skipped */
} col_io_load_info;

/* Loads the model file at path (a NUL-terminated file name) into a new mesh geometry.
 * *out receives it (NULL on error), owned by the caller (col_geometry_destroy); info
 * (may be NULL) receives what was found, zeroed on error. allocator serves the
 * geometry and this call's own arrays (NULL or zero-filled: malloc/free); assimp's
 * scene is allocated by assimp with the C++ heap and freed before the call returns.
 * error (may be NULL) receives a message naming the file. Errors:
 *   INVALID_ARGUMENT  NULL path, def or out; a scale that is not finite and > 0; a
 *                     mesh_index < -1 or beyond the file's meshes; a file assimp cannot
 *                     read (the message is assimp's); a file with no triangle (only
 *                     points or lines, or no mesh at all); more than
 *                     COL_MAX_MESH_TRIANGLES triangles or 2^31 - 1 vertices
 *   DEF_UNINITIALIZED a def not filled by col_default_io_load_def()
 *   IO                the file cannot be opened or read (missing, a directory, no right)
 *   NOT_FINITE        a coordinate NaN, infinite, or beyond COL_MAX_COORD after the
 *                     transforms and the scale
 *   OUT_OF_MEMORY     the allocator returned NULL */
COL_API col_status col_io_load_mesh(const col_allocator *allocator, const char *path, const col_io_load_def *def,
                                    col_geometry **out, col_io_load_info *info, col_error *error);

#ifdef __cplusplus
}
#endif
#endif
