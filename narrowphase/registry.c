/* SPDX-License-Identifier: MIT */
/* Maps the public backend enum to the compile-time vtables. */
#include "narrowphase/backend.h"

const col_np_backend *col_np_backend_get(col_backend kind)
{
    switch (kind) {
    case COL_BACKEND_DEFAULT:
    case COL_BACKEND_SEPVEC:
        return &col_np_sepvec;
    case COL_BACKEND_REFERENCE:
        return &col_np_reference;
    case COL_BACKEND_LPIP:
        return &col_np_lpip;
    case COL_BACKEND_VORONOI:
        return &col_np_voronoi;
    case COL_BACKEND_COUNT:
        break;
    }
    return NULL;
}
