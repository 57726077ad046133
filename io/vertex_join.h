/* SPDX-License-Identifier: MIT */
/* The vertices a soup's triangles use, renumbered: unused ones dropped and, on request,
 * vertices at exactly the same position made one (include/colibri/io.h,
 * col_io_load_def.join_identical_vertices). */
#ifndef COLIBRI_IO_VERTEX_JOIN_H
#define COLIBRI_IO_VERTEX_JOIN_H

#include <stdbool.h>

#include "colibri/base.h"
#include "io/scene_gather.h"

/* Rewrites soup->vertices[0 .. vertex_count) and soup->indices in place: the kept vertices
 * keep the order of their first occurrence in the soup. The positions of the triangles'
 * corners must be finite (col_io_gather checks them). Errors: OUT_OF_MEMORY (soup
 * unchanged). */
col_status col_io_compact(const col_allocator *allocator, col_io_soup *soup, bool join);

#endif
