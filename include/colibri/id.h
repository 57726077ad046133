/* SPDX-License-Identifier: MIT */
/* Handles for bodies and shapes: a 1-based slot index plus a generation that is bumped
 * whenever the slot is freed, so a removed id is detected instead of reaching another
 * object. Ids are scoped to the world that made them. Zero is the null id.
 * Stands alone: includes only <stdint.h>. */
#ifndef COLIBRI_ID_H
#define COLIBRI_ID_H

#include <stdint.h>

typedef struct col_body_id {
    uint32_t index1;     /* slot index + 1; 0 means null */
    uint32_t generation; /* bumped when the slot is freed */
} col_body_id;

typedef struct col_shape_id {
    uint32_t index1;
    uint32_t generation;
} col_shape_id;

static inline int col_body_id_is_null(col_body_id id) { return id.index1 == 0; }
static inline int col_shape_id_is_null(col_shape_id id) { return id.index1 == 0; }
static inline int col_body_id_equals(col_body_id a, col_body_id b)
{
    return a.index1 == b.index1 && a.generation == b.generation;
}
static inline int col_shape_id_equals(col_shape_id a, col_shape_id b)
{
    return a.index1 == b.index1 && a.generation == b.generation;
}

#endif
