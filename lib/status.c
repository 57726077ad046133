/* SPDX-License-Identifier: MIT */
/* Static text for status codes and backend names. */
#include "colibri/colibri.h"

const char *col_status_string(col_status status)
{
    switch (status) {
    case COL_OK: return "ok";
    case COL_ERR_INVALID_ARGUMENT: return "invalid argument";
    case COL_ERR_DEF_UNINITIALIZED: return "definition not initialised by its col_default_*_def()";
    case COL_ERR_NOT_FINITE: return "coordinate is NaN, infinite or beyond COL_MAX_COORD";
    case COL_ERR_BAD_QUATERNION: return "quaternion is not of unit length";
    case COL_ERR_STALE_ID: return "null, unknown or removed id";
    case COL_ERR_TOO_FEW_POINTS: return "fewer than 4 distinct points";
    case COL_ERR_DEGENERATE_SHAPE: return "degenerate point set (zero volume: coincident, collinear or coplanar)";
    case COL_ERR_SHAPE_IN_USE: return "shape is still used by bodies";
    case COL_ERR_OUT_OF_MEMORY: return "out of memory";
    case COL_ERR_CAPACITY: return "too many objects for the id space";
    case COL_ERR_HULL_FAILED: return "convex hull construction failed";
    case COL_ERR_SAME_BODY: return "a pair needs two different bodies";
    case COL_ERR_IO: return "a file could not be opened, read, created or written";
    case COL_STATUS_COUNT: break;
    }
    return "unknown status";
}

const char *col_backend_name(col_backend backend)
{
    switch (backend) {
    case COL_BACKEND_DEFAULT: return "default";
    case COL_BACKEND_REFERENCE: return "reference";
    case COL_BACKEND_LPIP: return "lpip";
    case COL_BACKEND_VORONOI: return "voronoi";
    case COL_BACKEND_SEPVEC: return "sepvec";
    case COL_BACKEND_COUNT: break;
    }
    return NULL;
}
