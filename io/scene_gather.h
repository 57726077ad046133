/* SPDX-License-Identifier: MIT */
/* An assimp scene as one triangle soup: every triangle of the chosen meshes, their
 * vertices placed by the node transforms (composed in double) and scaled
 * (include/colibri/io.h says what is taken and what is skipped). */
#ifndef COLIBRI_IO_SCENE_GATHER_H
#define COLIBRI_IO_SCENE_GATHER_H

#include <stddef.h>
#include <stdint.h>

#include "colibri/base.h"
#include "colibri/vecmath.h"

struct aiScene;

/* Node trees deeper than this are refused (the walk recurses). */
#define COL_IO_MAX_NODE_DEPTH 1024

/* vertices and indices are on the allocator given to col_io_gather;
 * vertex_capacity and triangle_count give their sizes for col_io_soup_free. */
typedef struct col_io_soup {
    col_vec3 *vertices;
    int vertex_count;      /* every vertex of every taken mesh instance */
    int vertex_capacity;   /* items allocated for vertices */
    uint32_t *indices;     /* [3 * triangle_count] into vertices */
    int triangle_count;
    int mesh_count;        /* mesh instances taken */
    int skipped_points;
    int skipped_lines;
} col_io_soup;

/* Gathers the scene's mesh mesh_index (>= 0, untransformed) or, with -1, every mesh of
 * every node under its node's composed transform, each coordinate multiplied by scale.
 * On error soup holds nothing and message (message_size bytes) says why. Errors:
 * INVALID_ARGUMENT (mesh_index out of range, a node naming a missing mesh, a face of
 * 0 or more than 3 corners or naming a missing vertex, a projective node transform, a
 * node tree deeper than COL_IO_MAX_NODE_DEPTH, no triangle, too many triangles or
 * vertices), NOT_FINITE (a triangle corner NaN, infinite or beyond COL_MAX_COORD once
 * placed and scaled), OUT_OF_MEMORY. */
col_status col_io_gather(const col_allocator *allocator, const struct aiScene *scene, int mesh_index, double scale,
                         col_io_soup *soup, char *message, size_t message_size);

void col_io_soup_free(const col_allocator *allocator, col_io_soup *soup);

#endif
