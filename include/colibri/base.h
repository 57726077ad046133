/* SPDX-License-Identifier: MIT */
/* Colibri base definitions: export macro, version, status codes, allocator hooks.
 * Stands alone: includes only <stddef.h> and <stdint.h>. */
#ifndef COLIBRI_BASE_H
#define COLIBRI_BASE_H

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32) && defined(COLIBRI_BUILD_SHARED)
#define COL_API __declspec(dllexport)
#elif defined(_WIN32) && defined(COLIBRI_USE_SHARED)
#define COL_API __declspec(dllimport)
#elif defined(__GNUC__)
#define COL_API __attribute__((visibility("default")))
#else
#define COL_API
#endif

#define COL_VERSION_MAJOR 0
#define COL_VERSION_MINOR 1
#define COL_VERSION_PATCH 0

#ifdef __cplusplus
extern "C" {
#endif

/* Every fallible call returns a status; COL_OK is zero. On any error the world is left
 * exactly as it was before the call (validation happens before mutation). */
typedef enum col_status {
    COL_OK = 0,
    COL_ERR_INVALID_ARGUMENT,  /* NULL pointer, negative count, unknown enum value */
    COL_ERR_DEF_UNINITIALIZED, /* a def struct not filled by its col_default_*_def() */
    COL_ERR_NOT_FINITE,        /* a NaN or infinite coordinate, or one beyond COL_MAX_COORD */
    COL_ERR_BAD_QUATERNION,    /* an orientation whose length differs from 1 beyond tolerance */
    COL_ERR_STALE_ID,          /* a null, unknown or removed body/shape id */
    COL_ERR_TOO_FEW_POINTS,    /* fewer than 4 distinct points for a convex shape */
    COL_ERR_DEGENERATE_SHAPE,  /* coincident, collinear or coplanar points: zero volume */
    COL_ERR_SHAPE_IN_USE,      /* a shape still referenced by bodies cannot be destroyed */
    COL_ERR_OUT_OF_MEMORY,     /* the allocator returned NULL */
    COL_ERR_CAPACITY,          /* more bodies or shapes than ids can address */
    COL_ERR_HULL_FAILED,       /* the hull builder (qhull) failed for another reason */
    COL_ERR_SAME_BODY,         /* a pair query given the same body twice */
    COL_ERR_IO,                /* a file could not be opened, read, created or written (record.h, io.h) */
    COL_STATUS_COUNT
} col_status;

/* Static English text for a status; never NULL (unknown values give "unknown status"). */
COL_API const char *col_status_string(col_status status);

/* Allocator hooks: alloc returns memory aligned for any object type or NULL; free receives
 * the size that was allocated. A zero-filled struct means the C library's malloc/free. */
typedef struct col_allocator {
    void *(*alloc)(size_t size, void *user);
    void (*free)(void *ptr, size_t size, void *user);
    void *user;
} col_allocator;

/* Largest accepted magnitude of any coordinate (points, positions), in length units.
 * Larger values are rejected with COL_ERR_NOT_FINITE: products of such numbers could
 * overflow inside the exact tests. */
#define COL_MAX_COORD 1e15

#ifdef __cplusplus
}
#endif
#endif
