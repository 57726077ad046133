/* SPDX-License-Identifier: MIT */
/* A recorder: writes a running world to a file a web browser can play (tools/viewer/,
 * format in docs/record.md). Each shape a body uses is written once (every piece: a hull's
 * vertices and faces, a sphere's centre and radius, a capsule's segment and radius); each
 * frame writes the live bodies' poses (by body, with the shape it uses), the colliding
 * pairs and the began/ended events of the last col_world_update.
 *
 *     col_recorder *rec;
 *     col_recorder_open(world, "run.colrec", &rec);
 *     for (...) { set poses; col_world_update(world); col_recorder_frame(rec); }
 *     col_recorder_close(rec);
 *
 * The recorder reads the world and never changes it (col_world_hash is unchanged by every
 * call); its memory comes from the world's allocator. Errors are statuses with a sentence
 * in col_world_last_error of the recorder's world. One recorder belongs to one world and
 * must be closed before the world is destroyed; calls on it must not overlap calls on
 * its world. Stands alone: includes only other public headers. */
#ifndef COLIBRI_RECORD_H
#define COLIBRI_RECORD_H

#include "colibri/base.h"

#ifdef __cplusplus
extern "C" {
#endif

struct col_world;
typedef struct col_recorder col_recorder;

/* Creates (or truncates) the file at path and writes the header line. *out receives the
 * recorder (NULL on error). Errors: INVALID_ARGUMENT (NULL world, path or out; an empty
 * path), IO (the file cannot be created or written: the message names it and says why),
 * OUT_OF_MEMORY. */
COL_API col_status col_recorder_open(struct col_world *world, const char *path, col_recorder **out);

/* Records the world as its last col_world_update left it: the shapes not written yet,
 * then one frame line. Call it right after each update, before the next pose change,
 * creation or removal. Errors: INVALID_ARGUMENT (NULL; the world changed since its last
 * update, or it was never updated: nothing is written), IO (a write failed: the file may
 * end with a partial line, and later calls fail too), OUT_OF_MEMORY (nothing written). */
COL_API col_status col_recorder_frame(col_recorder *recorder);

/* Writes the closing line, closes the file and frees the recorder (NULL is ignored and
 * returns OK). The recorder is freed whatever the outcome. Errors: IO (a write or the
 * close failed, or an earlier write had: the file is incomplete). */
COL_API col_status col_recorder_close(col_recorder *recorder);

#ifdef __cplusplus
}
#endif
#endif
