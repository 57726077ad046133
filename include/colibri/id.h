/* SPDX-License-Identifier: MIT */
/* Handles for bodies and shapes. An id names one object of one kind in one world:
 *   index1      the slot index + 1 (0 is the null id);
 *   generation  bumped whenever the slot is freed, so a removed id is detected instead
 *               of reaching the slot's next object;
 *   tag         the world's tag and the id's kind: bits 2..31 are a tag the world draws
 *               at creation, bits 0..1 the kind (1 body, 2 shape; 0 only in the null id).
 * A shape id whose fields were copied into a body id (or the reverse), and an id used in
 * another world than the one that made it, fail with COL_ERR_STALE_ID rather than reach
 * another object. Two live worlds share a tag with a chance of about 2^-30 (the tag is a
 * hash of the world's address and its creation time, with no global state): only then
 * would a foreign id whose index and generation happen to match a live object pass.
 * ABI: each id is three uint32_t in this order (12 bytes, no padding). Treat ids as
 * opaque values: copy them, compare them with col_*_id_equals, zero-fill for null; their
 * tags differ from run to run, so do not store them across runs or compare the bytes
 * of ids from two worlds. Stands alone: includes only <stdint.h>. */
#ifndef COLIBRI_ID_H
#define COLIBRI_ID_H

#include <stdint.h>

typedef struct col_body_id {
    uint32_t index1;     /* slot index + 1; 0 means null */
    uint32_t generation; /* bumped when the slot is freed */
    uint32_t tag;        /* world tag << 2 | kind (1: body) */
} col_body_id;

typedef struct col_shape_id {
    uint32_t index1;
    uint32_t generation;
    uint32_t tag;        /* world tag << 2 | kind (2: shape) */
} col_shape_id;

static inline int col_body_id_is_null(col_body_id id) { return id.index1 == 0; }
static inline int col_shape_id_is_null(col_shape_id id) { return id.index1 == 0; }
static inline int col_body_id_equals(col_body_id a, col_body_id b)
{
    return a.index1 == b.index1 && a.generation == b.generation && a.tag == b.tag;
}
static inline int col_shape_id_equals(col_shape_id a, col_shape_id b)
{
    return a.index1 == b.index1 && a.generation == b.generation && a.tag == b.tag;
}

#endif
