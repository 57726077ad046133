/* SPDX-License-Identifier: MIT */
/* The narrow-phase backends' per-shape data (narrowphase/backend.h, shape_data_bytes) of
 * a geometry's hull pieces: one slot per backend in each piece (lib/core/geometry.h). */
#ifndef COLIBRI_LIB_GEOMETRY_DATA_H
#define COLIBRI_LIB_GEOMETRY_DATA_H

#include "lib/core/geometry.h"
#include "narrowphase/backend.h"

/* The slot of a backend in col_piece.np_data. */
int col_geometry_data_slot(const col_np_backend *be);

/* Builds backend be's data (NULL: of every backend that keeps some) for every hull piece
 * of g that lacks it, from g->alloc. Errors: OUT_OF_MEMORY (what was built stays; it is
 * freed with g). */
col_status col_geometry_data_build(col_geometry *g, const col_np_backend *be);

/* The data of backend be for piece p, or NULL. */
static inline const void *col_piece_data(const col_piece *p, const col_np_backend *be)
{
    return p->np_data[col_geometry_data_slot(be)];
}

#endif
