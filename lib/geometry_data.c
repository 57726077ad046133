/* SPDX-License-Identifier: MIT */
/* Per-shape backend data of a geometry's hull pieces (lib/geometry_data.h). */
#include "lib/geometry_data.h"

#include <string.h>

static const col_np_backend *const backends[] = {&col_np_reference, &col_np_sepvec, &col_np_voronoi, &col_np_lpip};
enum { BACKEND_SLOTS = (int)(sizeof backends / sizeof backends[0]) };
_Static_assert(BACKEND_SLOTS <= COL_GEOM_NP_SLOTS, "a slot per backend");

int col_geometry_data_slot(const col_np_backend *be)
{
    for (int i = 0; i < BACKEND_SLOTS; i++)
        if (backends[i] == be) return i;
    return COL_GEOM_NP_SLOTS - 1; /* unknown: an empty slot (never filled) */
}

/* One piece's data for one backend: built in a block of the promised size, moved into a
 * smaller one when the backend used less (the data holds no pointers into itself). */
static col_status build_one(col_alloc *alloc, const col_np_backend *be, col_piece *p, int slot)
{
    if (be->shape_data_bytes == NULL || p->np_data[slot] != NULL) return COL_OK;
    size_t n = (be->shape_data_bytes(&p->hull) + 15) & ~(size_t)15;
    if (n == 0) return COL_OK;
    void *mem = col_alloc_bytes(alloc, n);
    if (mem == NULL) return COL_ERR_OUT_OF_MEMORY;
    size_t used = (be->shape_data_init(mem, n, &p->hull) + 15) & ~(size_t)15;
    if (used > 0 && used < n) {
        void *small = col_alloc_bytes(alloc, used);
        if (small != NULL) {
            memcpy(small, mem, used);
            col_free_bytes(alloc, mem, n);
            mem = small;
            n = used;
        }
    }
    p->np_data[slot] = mem;
    p->np_bytes[slot] = n;
    return COL_OK;
}

col_status col_geometry_data_build(col_geometry *g, const col_np_backend *be)
{
    for (int i = 0; i < g->piece_count; i++) {
        col_piece *p = &g->pieces[i];
        if (p->kind != COL_SHAPE_HULL) continue;
        for (int k = 0; k < BACKEND_SLOTS; k++) {
            if (be != NULL && backends[k] != be) continue;
            if (build_one(g->alloc, backends[k], p, k) != COL_OK) return COL_ERR_OUT_OF_MEMORY;
        }
    }
    return COL_OK;
}
