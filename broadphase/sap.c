/* SPDX-License-Identifier: MIT */
/* Sweep and prune in the cells of a uniform grid (the multi-SAP idea of Bullet's
 * btMultiSapBroadphase, and of Tracy, Buss and Woods 2009, "Efficient large-scale sweep
 * and prune methods with AABB insertion and removal"), with the sort kept across frames
 * (I-COLLIDE: Cohen, Lin, Manocha, Ponamgi 1995; Lin's survey section 7.2) and each
 * frame's pairs found by a sweep (box pruning, P. Terdiman 2007). Each cell keeps one
 * list of the boxes that overlap it (its members), sorted by their mins on one axis, the
 * sweep axis, each entry holding the member's box. Per frame and cell: the list's moved
 * boxes are refreshed, an insertion sort restores the order (nearly linear: motion is
 * coherent), joiners are put in place, and one sweep meets every pair of members whose
 * boxes overlap; those that did not overlap at the last update are recorded as beginning.
 * The pairs that end are found apart from the cells: one pass over the pair records.
 * The cells run in parallel, their pair changes are applied afterwards in cell order
 * (see COL_SAP_ITEMS). See sap.h for the contract, docs/broadphase.md for the
 * measurements and the designs tried before (three sorted axes of min and max endpoints
 * per cell, with the pair set updated at each swap of a min and a max).
 *
 * Single precision. Everything below is about the ROUNDED boxes: col_sap_insert and
 * col_sap_move round the caller's double box outward to floats once (round_box), and
 * every comparison in this file (the sort order, the sweeps' tests, the end pass, the
 * rebuild) reads those floats or copies of them. So the proof below holds exactly, for
 * the float boxes: the set is exactly the overlap set of the rounded boxes, a superset
 * of that of the double boxes (outward rounding only grows a box). The rounding is a
 * pure function of the caller's box (no rounding-mode dependence, see round_down), so it
 * changes nothing in the determinism argument of COL_SAP_ITEMS. Why floats: the passes
 * are memory-bound, and a 24-byte box (28 with its proxy in a cell's list) against 48
 * halves their traffic (measured for the earlier design: sparse100k 89-99 -> 79-80 ms a
 * frame on 1 worker, docs/broadphase.md).
 *
 * Why the set stays exact. Invariant between updates: the set holds exactly the pairs of
 * LIVE proxies, not both static, whose boxes overlap (closed intervals on all three axes:
 * touching counts, the narrow phase's convention, docs/scenes.md); old_boxes holds those
 * boxes during the next update, and a cell's entries hold its members' boxes. An update
 * (after the removals of proxies) changes the membership of a pair only if one of its
 * proxies moved or joins:
 * - Ending pairs: a pair that stops overlapping was in the set and has a moved proxy;
 *   the end pass tests every record with a moved proxy on the final boxes and drops
 *   those that no longer overlap, and nothing else.
 * - Beginning pairs: two boxes that overlap share a cell (cell_coord is monotone, so the
 *   cell of the corner made of their larger mins lies in both ranges: owner_cell). After
 *   the refresh, sort and joins, each cell's list holds exactly its members under the
 *   final boxes, sorted by min on the sweep axis, and its sweep meets each overlapping
 *   pair of members once (sweep_list). A pair met is recorded iff the cell owns it and
 *   it is not in the set, which it is iff both proxies were LIVE and their old boxes
 *   overlapped. So each beginning pair is recorded exactly once, by the one cell that
 *   owns it, and no pair already in the set is recorded.
 * So after the update the set is the overlap set of the final boxes, and the refresh
 * (entries) and sync_items (old_boxes) restore the invariant. Within a cell the sweep
 * needs only the order of the mins: for member p, the members after it whose mins are
 * at most p's max are exactly those whose interval on the axis overlaps p's and starts
 * no earlier; equal mins keep their order (the insertion sort is stable), which is
 * deterministic, and either order meets the pair once.
 *
 * Bulk path: more than COL_SAP_FEW_INSERTS queued inserts (or a stale set after an
 * allocation failure) rebuilds: the grid is fitted to the boxes again (choose_grid), the
 * sweep axis is chosen (largest spread of box centres), each cell's list is sorted by
 * the total order (min, proxy), and the same sweep per cell enumerates the overlapping
 * pairs, diffed against the current set so surviving pairs keep their user values.
 *
 * Out of memory: removals come first and need no memory; the joins, the cells' room
 * (relayout) and the event pool are grown before anything else changes; a pair add that
 * fails mid-pass lets the pass finish (the lists stay sorted, the set stays a subset of
 * the truth) and marks the set stale, so the next update rebuilds. A failed update
 * returns -1 and never leaves the structure inconsistent.
 *
 * Memory: per-proxy arrays grow with the largest proxy index (boxes, old boxes and two
 * cell ranges: 72 bytes, plus a flag byte); the cells' pool (a 28-byte entry per
 * membership, with slack), the cells, the join lists, the insert queue, the merge-sort
 * buffer and the pass's items and event pool persist across frames, so an update on a
 * steady scene (moves only) allocates nothing once the pair set, the pool and the event
 * pool have met their peaks. Proxies are < 2^31 (event encoding). */
#include "broadphase/sap.h"

#include <assert.h>
#include <stdatomic.h>
#include <stddef.h>
#include <string.h>

#include "broadphase/pair_set.h"
#include "lib/core/alloc.h"
#include "lib/core/array.h"

/* The few-inserts threshold: more queued inserts than this rebuild (sort and sweep every
 * cell, and choose the grid again for the new population) instead of joining cells one
 * by one. A join costs a test against each member of each cell the newcomer overlaps
 * plus a binary search and a move, so a handful of spawns never re-sorts, and a
 * bulk load (the first one especially, which has no grid to join yet) gets a grid fitted
 * to it. */
#define COL_SAP_FEW_INSERTS 32

/* The grid. The cell side is COL_SAP_CELL_FACTOR times the mean box extent: a box
 * overlaps (1 + 1/f)^3 cells on average (1.95 at f = 4), while the members a sweep meets
 * per member (those whose mins lie in its interval on the sweep axis) fall with the
 * square of the cell side. Measured (CPU time of the broad phase's functions per frame
 * under perf, 1 worker, two runs each; docs/broadphase.md): f = 4, 6, 8 gave dense10k
 * 2.37-2.39, 2.55-2.62, 2.90-3.01 ms; fast 0.33-0.35, 0.32-0.35, 0.34-0.37 ms;
 * sparse100k 6.8-7.3, 6.2-6.3, 6.8-7.1 ms; million 70-76, 74-75, 69-70 ms. f = 4 is
 * kept for dense10k, the one scene where the earlier design (three sorted axes per
 * cell, best at f = 8) stays close. A grid is used from COL_SAP_GRID_MIN proxies on
 * (below, one cell: the lists are short anyway); at most COL_SAP_GRID_AXIS cells per
 * axis and one cell per COL_SAP_CELL_MIN proxies in all, so the cells' own cost (a
 * slice, 12 bytes and a visit each) stays below the proxies'. */
#define COL_SAP_CELL_FACTOR 4.0
#define COL_SAP_GRID_MIN 256
#define COL_SAP_GRID_AXIS 1024
#define COL_SAP_CELL_MIN 8

/* Items of the parallel pass: blocks of consecutive cells, about COL_SAP_ITEMS of them
 * (cells_per_item is set with the grid, a function of the boxes, never of the worker
 * count; and since an item handles its cells in order and the events are applied in
 * item order, the result is that of one pass over the cells in order, however they are
 * grouped). Small grids (125 cells on fast) get an item per cell, so two
 * workers share the pass. The events of an item go to chunks of
 * COL_SAP_CHUNK taken from a pool with an atomic counter: the pool runs out iff the items
 * need more chunks in total than it has, whatever the schedule, and then the update
 * rebuilds instead (exact, and as deterministic) and the pool grows for the next
 * frames. The pool starts with a chunk per item plus COL_SAP_MIN_CHUNKS, so only a
 * burst of changes (thousands of pairs starting or ending at once) overflows. */
#define COL_SAP_ITEMS 256
#define COL_SAP_CHUNK 256
#define COL_SAP_MIN_CHUNKS 16

typedef struct col_sap_item {
    int first, last; /* chunks of this item's events, -1: none */
    int overflow;    /* the pool ran out while this item recorded */
} col_sap_item;

enum {
    COL_SAP_FREE = 0,      /* not registered */
    COL_SAP_LIVE = 1,      /* in the cells */
    COL_SAP_INSERTING = 2, /* registered, joins at the next update */
    COL_SAP_REMOVING = 3,  /* in the cells, leaves at the next update */
    COL_SAP_STATE_MASK = 3,
    COL_SAP_STATIC = 4,  /* flag: never paired with another static proxy */
    COL_SAP_QUEUED = 8,  /* flag: in the insert queue */
    COL_SAP_RESHAPE = 16, /* flag: next_range differs from range (set by the running update) */
    COL_SAP_MOVED = 32   /* flag: moved since the last update; old_boxes holds its box then */
};

/* A proxy's box as the passes see it: the caller's box rounded outward to floats
 * (round_box). Every comparison of the structure reads these values or copies of them,
 * never the caller's doubles. */
typedef struct col_sap_fbox {
    float lim[2][3]; /* lim[0][axis]: min, lim[1][axis]: max */
} col_sap_fbox;

/* A member of a cell: the proxy and its box as of the last update (which is old_boxes
 * until the refresh, boxes after it), kept in the cell so that the sweeps read the cell's
 * memory in order rather than gather boxes at random proxy numbers. */
typedef struct col_sap_ep {
    col_sap_fbox box;
    uint32_t p;
} col_sap_ep;

/* The cells a box overlaps: lo[k] .. hi[k] (inclusive) on each axis. */
typedef struct col_sap_range {
    uint16_t lo[3], hi[3];
} col_sap_range;

/* One cell: its members, sorted by their boxes' mins on the sweep axis (stable), at
 * pool.data[start .. start + count), with room up to start + cap. */
typedef struct col_sap_cell {
    int start, count, cap;
} col_sap_cell;

COL_ARRAY_DEFINE(col_sap_item_array, col_sap_item)
COL_ARRAY_DEFINE(col_sap_ep_array, col_sap_ep)
COL_ARRAY_DEFINE(col_sap_fbox_array, col_sap_fbox)
COL_ARRAY_DEFINE(col_sap_range_array, col_sap_range)

struct col_sap {
    col_alloc *alloc;
    col_pair_set *pairs;

    /* Per proxy, indexed by proxy number; nslots are initialised. */
    col_sap_fbox_array boxes;
    col_u8_array info; /* state | flags */
    int nslots;
    /* The boxes of the last update: old_boxes[p] == boxes[p] unless p moved since (then
     * old_boxes[p] was saved by its first move); sync_items restores the equality after
     * the passes, for the moved proxies only. */
    col_sap_fbox_array old_boxes;
    /* The cells a LIVE proxy is a member of (range), and those of its box now (next_range,
     * valid for the proxies flagged RESHAPE or joining during an update). */
    col_sap_range_array range, next_range;

    /* The grid: cell (i, j, k) is cells[(i * g[1] + j) * g[2] + k]; on axis a, a value v
     * is in cell clamp(floor((v - org[a]) * inv[a]), 0, g[a] - 1) (cell_coord), so the
     * outer cells reach to infinity and the cells tile space. */
    col_sap_cell *cells;
    int ncells, g[3], cells_per_item;
    /* The cells' members, one pool cut into the cells' slices in cell order (pool.count:
     * the end of the last slice). One block rather than one per cell: a cell that
     * outgrows its slice makes the slices be laid out again in the same block
     * (relayout), which allocates only when the total outgrows the block, so a warm scene
     * whose cells fill and empty allocates nothing (per-cell arrays would allocate
     * whenever any one cell of thousands met a new peak). */
    col_sap_ep_array pool;
    int axis; /* the sweep axis, chosen at each rebuild (sweep_axis) */
    double org[3], inv[3];
    /* The joins of the running update, grouped by cell: cell c's joiners are
     * joins[join_start[c] .. join_start[c + 1]) (ncells + 1 entries), in proxy order. */
    int *join_start;
    col_u32_array joins;
    col_int_array need; /* scratch of gather_joins: members each cell needs room for */

    /* The incremental pass's items (blocks of sap->cells_per_item cells) with the
     * events they record, applied afterwards in item order; run on the owner's workers
     * through run (NULL: in order on the calling thread). */
    col_runner runner;
    col_sap_item_array items;
    uint64_t *events; /* event_chunk_cap chunks of COL_SAP_CHUNK events */
    int *chunk_next, *chunk_len;
    int event_chunk_cap;
    atomic_int chunks_used;

    /* Scratch that persists: the rebuild's merge-sort buffer. */
    col_sap_ep_array scratch;

    col_u32_array queue; /* proxies inserted since the last update (count: queue_len) */
    int queue_len;

    int proxy_count; /* registered and not removed (the caller's view) */
    int removing;    /* proxies in state REMOVING */
    int rebuilds;
    int moved;             /* some box changed since the last update */
    int stale;             /* an update failed: the next one rebuilds */
};

/* ---- small helpers ---- */
/* The largest float <= d, and the smallest float >= d (Box2D's
 * b2RoundDownFloat/b2RoundUpFloat do the same job). The conversion rounds to nearest, so
 * it is at most one step off, on either side: one ulp back when it went the wrong way.
 * The test is on the result, so the answer is the same under any rounding mode. The
 * world keeps coordinates within COL_MAX_COORD (1e15), far below FLT_MAX; beyond it the
 * result would still be outward (an infinity, or FLT_MAX).
 *
 * The step is nextafterf(f, -INFINITY) (or +INFINITY) done on the bits and chosen by a
 * mask, not a call behind a test: which way the conversion went is a coin flip per
 * coordinate, and with the branch and the libm call col_sap_move_concurrent, run for
 * every moved body, took 3.6% of the frame on the fast scene at 1 worker (1.2% this way,
 * 0.7% when it copied doubles). The bit patterns of finite floats of one sign grow with
 * the magnitude, so toward -inf a positive float loses one unit and a negative one gains
 * one; from either zero the next float down is -FLT_TRUE_MIN (bits 0x80000001); toward
 * +inf it is the mirror image. test_sap checks both against nextafterf. */
static inline float round_down(double d)
{
    float f = (float)d;
    uint32_t u, dn, wrong = (double)f > d;
    memcpy(&u, &f, sizeof u);
    dn = ((u << 1) == 0) ? 0x80000001u : u + (u >> 31) * 2u - 1u;
    u ^= (u ^ dn) & (0u - wrong);
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline float round_up(double d)
{
    float f = (float)d;
    uint32_t u, up, wrong = (double)f < d;
    memcpy(&u, &f, sizeof u);
    up = ((u << 1) == 0) ? 1u : u + 1u - (u >> 31) * 2u;
    u ^= (u ^ up) & (0u - wrong);
    memcpy(&f, &u, sizeof f);
    return f;
}

/* The outward rounding of a box: the float box contains the double one, so every pair
 * of overlapping double boxes overlaps as floats too (the set is a superset of the
 * double-box overlaps). */
static inline void round_box(const col_aabb *in, col_sap_fbox *out)
{
    out->lim[0][0] = round_down(in->min.x);
    out->lim[0][1] = round_down(in->min.y);
    out->lim[0][2] = round_down(in->min.z);
    out->lim[1][0] = round_up(in->max.x);
    out->lim[1][1] = round_up(in->max.y);
    out->lim[1][2] = round_up(in->max.z);
}

/* A float box in doubles (exact: every float is a double). */
static inline void fbox_to_aabb(const col_sap_fbox *in, col_aabb *out)
{
    out->min = col_vec3_make(in->lim[0][0], in->lim[0][1], in->lim[0][2]);
    out->max = col_vec3_make(in->lim[1][0], in->lim[1][1], in->lim[1][2]);
}

static inline int state_of(const col_sap *sap, uint32_t p) { return sap->info.data[p] & COL_SAP_STATE_MASK; }

static inline void set_state(col_sap *sap, uint32_t p, int s)
{
    sap->info.data[p] = (uint8_t)((sap->info.data[p] & ~COL_SAP_STATE_MASK) | s);
}

static inline int both_static(const col_sap *sap, uint32_t p, uint32_t q)
{
    return (sap->info.data[p] & sap->info.data[q] & COL_SAP_STATIC) != 0;
}

/* Closed-interval overlap on all three axes (touching boxes overlap). */
static inline int boxes_overlap(const col_sap_fbox *a, const col_sap_fbox *b)
{
    return a->lim[0][0] <= b->lim[1][0] && b->lim[0][0] <= a->lim[1][0] && a->lim[0][1] <= b->lim[1][1] &&
           b->lim[0][1] <= a->lim[1][1] && a->lim[0][2] <= b->lim[1][2] && b->lim[0][2] <= a->lim[1][2];
}

#ifndef NDEBUG
/* Debug check only: the world rejects NaN and inverted boxes before they get here (an
 * inverted box is what corrupted Bullet's sort, bullet3 PR #2554). */
static inline int box_valid(const col_aabb *b)
{
    return b->min.x <= b->max.x && b->min.y <= b->max.y && b->min.z <= b->max.z;
}
#endif

/* Rebuild order: a total order (min on axis a, proxy), so the sorted lists do not depend
 * on the sort algorithm or the previous contents. */
static inline int ep_total_less(const col_sap_ep *x, const col_sap_ep *y, int a)
{
    if (x->box.lim[0][a] != y->box.lim[0][a]) return x->box.lim[0][a] < y->box.lim[0][a];
    return x->p < y->p;
}

static int ensure_slot(col_sap *sap, uint32_t p)
{
    if (p >= 0x7fffffffu) return -1;
    int need = (int)p + 1;
    if (need <= sap->nslots) return 0;
    if (col_sap_fbox_array_reserve(sap->alloc, &sap->boxes, need) != 0 ||
        col_sap_fbox_array_reserve(sap->alloc, &sap->old_boxes, need) != 0 ||
        col_sap_range_array_reserve(sap->alloc, &sap->range, need) != 0 ||
        col_sap_range_array_reserve(sap->alloc, &sap->next_range, need) != 0 ||
        col_u8_array_reserve(sap->alloc, &sap->info, need) != 0)
        return -1;
    size_t n = (size_t)(need - sap->nslots);
    memset(sap->boxes.data + sap->nslots, 0, n * sizeof(col_sap_fbox));
    memset(sap->old_boxes.data + sap->nslots, 0, n * sizeof(col_sap_fbox));
    memset(sap->range.data + sap->nslots, 0, n * sizeof(col_sap_range));
    memset(sap->next_range.data + sap->nslots, 0, n * sizeof(col_sap_range));
    memset(sap->info.data + sap->nslots, 0, n);
    sap->nslots = need;
    return 0;
}

/* ---- the grid ---- */

/* The cell coordinate of value v on axis a: a monotone function of v (a rounded
 * subtraction and product, then a clamp), which is all exactness needs: if two boxes
 * overlap, the point whose coordinates are the larger of their two mins lies in both,
 * and by monotony its cell lies in both boxes' ranges, so overlapping boxes always share
 * a cell. */
static inline int cell_coord(const col_sap *sap, int a, float v)
{
    double t = ((double)v - sap->org[a]) * sap->inv[a], top = (double)(sap->g[a] - 1);
    t = t > 0.0 ? t : 0.0; /* min and max, not branches: the clamp is a coin flip at the edges */
    t = t < top ? t : top;
    return (int)t;
}

static inline void range_of(const col_sap *sap, const col_sap_fbox *b, col_sap_range *r)
{
    for (int a = 0; a < 3; a++) {
        r->lo[a] = (uint16_t)cell_coord(sap, a, b->lim[0][a]);
        r->hi[a] = (uint16_t)cell_coord(sap, a, b->lim[1][a]);
    }
}

static inline int range_equal(const col_sap_range *r, const col_sap_range *s) { return memcmp(r, s, sizeof *r) == 0; }

static inline int in_range(const col_sap_range *r, int i, int j, int k)
{
    return r->lo[0] <= i && i <= r->hi[0] && r->lo[1] <= j && j <= r->hi[1] && r->lo[2] <= k && k <= r->hi[2];
}

static inline int cell_index(const col_sap *sap, int i, int j, int k) { return (i * sap->g[1] + j) * sap->g[2] + k; }

static void cell_coords(const col_sap *sap, int c, int *i, int *j, int *k)
{
    *k = c % sap->g[2];
    *j = (c / sap->g[2]) % sap->g[1];
    *i = c / (sap->g[2] * sap->g[1]);
}

static inline col_sap_ep *cell_list(const col_sap *sap, const col_sap_cell *cell) { return sap->pool.data + cell->start; }

/* Lays the cells' slices out again so that cell c has room for need[c] members, plus
 * slack (a quarter and 4, so that a cell growing by a member or two, or by a
 * quarter, does not lay everything out again the next frame), keeping every cell's
 * members. Slices keep their order, so they are moved in place: first those moving
 * down, in cell order, then those moving up, in reverse order, each into room that is
 * free by then. Returns 0, or -1 on allocation failure (then only capacities changed). */
static int relayout(col_sap *sap, const int *need)
{
    long long total = 0;
    for (int c = 0; c < sap->ncells; c++) total += need[c] + need[c] / 4 + 4;
    if (total > 0x7fffffff) return -1;
    col_sap_ep_array *pa = &sap->pool;
    if (total > pa->cap) {
        /* Half as much again: the slices' total wanders up and down with the scene, and
         * each growth is an allocation in a frame. */
        long long want = total + total / 2 > 0x7fffffff ? total : total + total / 2;
        int cap;
        col_sap_ep *p = col_array_grow(sap->alloc, pa->data, pa->cap, pa->count, (int)want, sizeof(col_sap_ep), &cap);
        if (p == NULL) return -1;
        pa->data = p;
        pa->cap = cap;
    }
    int at = 0;
    /* New starts, written into cap for now (the old caps are not needed). */
    for (int c = 0; c < sap->ncells; c++) {
        int room = need[c] + need[c] / 4 + 4;
        sap->cells[c].cap = at; /* new start */
        at += room;
    }
    for (int c = 0; c < sap->ncells; c++) {
        col_sap_cell *cell = &sap->cells[c];
        if (cell->cap < cell->start)
            memmove(sap->pool.data + cell->cap, cell_list(sap, cell), (size_t)cell->count * sizeof(col_sap_ep));
    }
    for (int c = sap->ncells - 1; c >= 0; c--) {
        col_sap_cell *cell = &sap->cells[c];
        if (cell->cap > cell->start)
            memmove(sap->pool.data + cell->cap, cell_list(sap, cell), (size_t)cell->count * sizeof(col_sap_ep));
    }
    for (int c = 0; c < sap->ncells; c++) {
        col_sap_cell *cell = &sap->cells[c];
        int next = c + 1 < sap->ncells ? sap->cells[c + 1].cap : at;
        cell->start = cell->cap;
        cell->cap = next - cell->start;
    }
    sap->pool.count = at;
    return 0;
}

static void free_cells(col_sap *sap)
{
    col_free_bytes(sap->alloc, sap->cells, (size_t)sap->ncells * sizeof(col_sap_cell));
    col_free_bytes(sap->alloc, sap->join_start, ((size_t)sap->ncells + 1) * sizeof(int));
    sap->cells = NULL;
    sap->join_start = NULL;
    sap->ncells = 0;
}

/* ---- create / destroy / record changes ---- */

col_sap *col_sap_create(struct col_alloc *alloc)
{
    col_sap *sap = col_alloc_zeroed(alloc, 1, sizeof *sap);
    if (sap == NULL) return NULL;
    sap->alloc = alloc;
    sap->pairs = col_pair_set_create(alloc);
    sap->cells = col_alloc_zeroed(alloc, 1, sizeof(col_sap_cell));
    sap->join_start = col_alloc_zeroed(alloc, 2, sizeof(int));
    if (sap->pairs == NULL || sap->cells == NULL || sap->join_start == NULL) {
        col_pair_set_destroy(sap->pairs);
        col_free_bytes(alloc, sap->cells, sizeof(col_sap_cell));
        col_free_bytes(alloc, sap->join_start, 2 * sizeof(int));
        col_free_bytes(alloc, sap, sizeof *sap);
        return NULL;
    }
    /* One cell until the first rebuild fits a grid to the population. */
    sap->ncells = 1;
    sap->g[0] = sap->g[1] = sap->g[2] = 1;
    sap->cells_per_item = 1;
    return sap;
}

void col_sap_destroy(col_sap *sap)
{
    if (sap == NULL) return;
    col_alloc *a = sap->alloc;
    col_pair_set_destroy(sap->pairs);
    free_cells(sap);
    col_sap_ep_array_free(a, &sap->pool);
    col_sap_fbox_array_free(a, &sap->boxes);
    col_sap_fbox_array_free(a, &sap->old_boxes);
    col_sap_range_array_free(a, &sap->range);
    col_sap_range_array_free(a, &sap->next_range);
    col_sap_item_array_free(a, &sap->items);
    col_free_bytes(a, sap->events, (size_t)sap->event_chunk_cap * COL_SAP_CHUNK * sizeof(uint64_t));
    col_free_bytes(a, sap->chunk_next, (size_t)sap->event_chunk_cap * sizeof(int));
    col_free_bytes(a, sap->chunk_len, (size_t)sap->event_chunk_cap * sizeof(int));
    col_u8_array_free(a, &sap->info);
    col_u32_array_free(a, &sap->joins);
    col_int_array_free(a, &sap->need);
    col_sap_ep_array_free(a, &sap->scratch);
    col_u32_array_free(a, &sap->queue);
    col_free_bytes(a, sap, sizeof *sap);
}

int col_sap_insert(col_sap *sap, uint32_t p, const col_aabb *box, bool is_static)
{
    assert(box_valid(box));
    if (ensure_slot(sap, p) != 0) return -1;
    assert(state_of(sap, p) == COL_SAP_FREE);
    if (state_of(sap, p) != COL_SAP_FREE) return -1;
    /* An insert cancelled by a remove before the update is still queued: reuse it. */
    if (!(sap->info.data[p] & COL_SAP_QUEUED)) {
        if (col_u32_array_reserve(sap->alloc, &sap->queue, sap->queue_len + 1) != 0) return -1;
        sap->queue.data[sap->queue_len++] = p;
    }
    round_box(box, &sap->boxes.data[p]);
    sap->old_boxes.data[p] = sap->boxes.data[p];
    sap->info.data[p] = (uint8_t)(COL_SAP_INSERTING | COL_SAP_QUEUED | (is_static ? COL_SAP_STATIC : 0));
    sap->proxy_count++;
    return 0;
}

void col_sap_move(col_sap *sap, uint32_t p, const col_aabb *box)
{
    col_sap_move_concurrent(sap, p, box);
    sap->moved = 1;
}

void col_sap_move_concurrent(col_sap *sap, uint32_t p, const col_aabb *box)
{
    assert(box_valid(box));
    assert((int64_t)p < sap->nslots && (state_of(sap, p) == COL_SAP_LIVE || state_of(sap, p) == COL_SAP_INSERTING));
    if ((int64_t)p >= sap->nslots) return;
    int s = state_of(sap, p);
    if (s != COL_SAP_LIVE && s != COL_SAP_INSERTING) return;
    /* The first move since the last update keeps that update's box for the passes. The
     * new value reaches the cells' entries at the next update (refresh); the box is
     * stored now because the overlap tests of that update read the final boxes. Writes
     * only proxy p's box, old box and flag byte, so distinct proxies may move at once. */
    if (!(sap->info.data[p] & COL_SAP_MOVED)) {
        sap->old_boxes.data[p] = sap->boxes.data[p];
        sap->info.data[p] |= COL_SAP_MOVED;
    }
    round_box(box, &sap->boxes.data[p]);
}

void col_sap_note_moves(col_sap *sap) { sap->moved = 1; }

void col_sap_remove(col_sap *sap, uint32_t p)
{
    assert((int64_t)p < sap->nslots && (state_of(sap, p) == COL_SAP_LIVE || state_of(sap, p) == COL_SAP_INSERTING));
    if ((int64_t)p >= sap->nslots) return;
    int s = state_of(sap, p);
    if (s == COL_SAP_LIVE) {
        set_state(sap, p, COL_SAP_REMOVING);
        sap->removing++;
        sap->proxy_count--;
    } else if (s == COL_SAP_INSERTING) {
        /* Never reached the arrays: drop it; its queue entry is skipped by the update. */
        set_state(sap, p, COL_SAP_FREE);
        sap->proxy_count--;
    }
}

col_pair_set *col_sap_pair_set(col_sap *sap) { return sap->pairs; }

int col_sap_proxy_count(const col_sap *sap) { return sap->proxy_count; }

bool col_sap_box(const col_sap *sap, uint32_t p, col_aabb *out)
{
    if ((int64_t)p >= sap->nslots || state_of(sap, p) == COL_SAP_FREE) return false;
    fbox_to_aabb(&sap->boxes.data[p], out);
    return true;
}

void col_sap_round_box(const col_aabb *in, col_aabb *out)
{
    col_sap_fbox f;
    round_box(in, &f); /* through f: in and out may be the same box */
    fbox_to_aabb(&f, out);
}

int col_sap_rebuild_count(const col_sap *sap) { return sap->rebuilds; }

/* ---- incremental update ---- */

/* Reports a pair leaving the set. */
static inline void report(col_sap_pair_removed_fn removed, void *ctx, uint32_t p, uint32_t q, uint32_t user)
{
    if (removed != NULL) removed(ctx, p < q ? p : q, p < q ? q : p, user);
}

/* Appends an event to the item's list (only the item's worker touches it). */
static void record(col_sap *sap, col_sap_item *it, uint64_t ev)
{
    if (it->overflow) return;
    int c = it->last;
    if (c < 0 || sap->chunk_len[c] == COL_SAP_CHUNK) {
        int nc = atomic_fetch_add_explicit(&sap->chunks_used, 1, memory_order_relaxed);
        if (nc >= sap->event_chunk_cap) {
            it->overflow = 1;
            return;
        }
        sap->chunk_next[nc] = -1;
        sap->chunk_len[nc] = 0;
        if (c < 0) it->first = nc;
        else sap->chunk_next[c] = nc;
        it->last = c = nc;
    }
    sap->events[(size_t)c * COL_SAP_CHUNK + (size_t)sap->chunk_len[c]++] = ev;
}

/* The cell that owns a pair of overlapping boxes P and Q: that of the corner made of
 * their larger mins. The corner lies in both boxes, so (cell_coord being monotone) its
 * cell lies in both boxes' ranges: of the cells the two share, exactly this one reports
 * a change of the pair (see the top of the file), so each change is recorded once. */
static inline int owner_cell(const col_sap *sap, const col_sap_fbox *P, const col_sap_fbox *Q)
{
    int k[3];
    for (int a = 0; a < 3; a++) k[a] = cell_coord(sap, a, P->lim[0][a] > Q->lim[0][a] ? P->lim[0][a] : Q->lim[0][a]);
    return cell_index(sap, k[0], k[1], k[2]);
}

/* What a sweep of a cell is for: the pairs that begin in this update, or the rebuild's
 * diff. */
enum { COL_SAP_SWEEP_NEW, COL_SAP_SWEEP_REBUILD };

static inline int joining(const col_sap *sap, uint32_t p) { return state_of(sap, p) == COL_SAP_INSERTING; }

/* A pair of members p, q of cell c whose boxes of the sweep, P and Q, overlap (see
 * sweep_list), found once per cell. Records its change if it has one and c owns it; on
 * the rebuild, clears its record's doom mark or adds it. Returns -1 if an add failed,
 * else 0. */
static int pair_found(col_sap *sap, uint32_t p, uint32_t q, const col_sap_fbox *P, const col_sap_fbox *Q, int c, int what,
                      col_sap_item *item)
{
    if (both_static(sap, p, q)) return 0;
    if (what == COL_SAP_SWEEP_NEW) {
        /* The final boxes overlap: the pair comes in unless it is in the set already,
         * which it is iff both were LIVE and the last boxes overlapped. */
        if ((joining(sap, p) || joining(sap, q) || !boxes_overlap(&sap->old_boxes.data[p], &sap->old_boxes.data[q])) &&
            owner_cell(sap, P, Q) == c)
            record(sap, item, (uint64_t)p << 32 | q);
        return 0;
    }
    if (owner_cell(sap, P, Q) != c) return 0;
    col_bp_pair *r = col_pair_set_find(sap->pairs, p, q);
    if (r != NULL) {
        r->mark = 0;
        return 0;
    }
    return col_pair_set_add(sap->pairs, p, q) < 0 ? -1 : 0;
}

/* One sweep of a cell (box pruning: P. Terdiman, "Sweep-and-prune", 2007; the sort is
 * the only state kept across frames): e[0, n) are the members, sorted by their boxes'
 * mins on the sweep axis. For each member p, the members after it whose mins are at
 * most p's max are exactly those whose interval on the sweep axis overlaps p's and
 * starts no earlier (touching counts), so each pair that overlaps on that axis is met
 * once, at the earlier of its two mins; the other two axes are tested on the spot.
 *
 * No branch on the tests: whether a member met overlaps p on the other two axes is a
 * coin flip in a dense cell (as a branch it took a quarter of the pass on dense10k), so
 * every member met is written to a small buffer whose count grows by the test's
 * outcome, and the overlapping ones are handled after the scan. */
#define COL_SAP_HIT_BUF 64
static inline int sweep_list(col_sap *sap, const col_sap_ep *e, int n, int c, int what, col_sap_item *item)
{
    const int a0 = sap->axis, a1 = a0 == 2 ? 0 : a0 + 1, a2 = a0 == 0 ? 2 : a0 - 1;
    int rc = 0;
    int hits[COL_SAP_HIT_BUF];
    for (int i = 0; i + 1 < n; i++) {
        const col_sap_fbox *P = &e[i].box;
        const float hi = P->lim[1][a0], lo1 = P->lim[0][a1], hi1 = P->lim[1][a1], lo2 = P->lim[0][a2], hi2 = P->lim[1][a2];
        int k = 0;
        for (int j = i + 1; j < n && e[j].box.lim[0][a0] <= hi; j++) {
            const col_sap_fbox *Q = &e[j].box;
            hits[k] = j;
            k += (lo1 <= Q->lim[1][a1]) & (Q->lim[0][a1] <= hi1) & (lo2 <= Q->lim[1][a2]) & (Q->lim[0][a2] <= hi2);
            if (k == COL_SAP_HIT_BUF) {
                for (int h = 0; h < k; h++) rc |= pair_found(sap, e[i].p, e[hits[h]].p, P, &e[hits[h]].box, c, what, item);
                k = 0;
            }
        }
        for (int h = 0; h < k; h++) rc |= pair_found(sap, e[i].p, e[hits[h]].p, P, &e[hits[h]].box, c, what, item);
    }
    return rc;
}

/* Insertion sort of a cell's list by min on axis a (stable), after its moved boxes were
 * refreshed: coherence makes it nearly linear. It records nothing: the sweep finds the
 * changes. */
static void sort_list(col_sap_ep *e, int n, int a)
{
    for (int i = 1; i < n; i++) {
        if (!(e[i].box.lim[0][a] < e[i - 1].box.lim[0][a])) continue;
        col_sap_ep t = e[i];
        int j = i;
        do {
            e[j] = e[j - 1];
            j--;
        } while (j > 0 && t.box.lim[0][a] < e[j - 1].box.lim[0][a]);
        e[j] = t;
    }
}

/* Does proxy p (a member of cell (i, j, k)) leave that cell in this update? */
static inline int leaves(const col_sap *sap, uint32_t p, int i, int j, int k)
{
    return (sap->info.data[p] & COL_SAP_RESHAPE) && !in_range(&sap->next_range.data[p], i, j, k);
}

/* The first index in e[0, n) whose min on axis a is above v (so a new member goes after
 * every equal min, as a stable insertion would put it). */
static int upper_bound(const col_sap_ep *e, int n, float v, int a)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (v < e[mid].box.lim[0][a]) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

/* Proxy p joins cell c (whose list is sorted by the final boxes, with room reserved). */
static void join_cell(col_sap *sap, col_sap_cell *cell, uint32_t p)
{
    col_sap_ep *e = cell_list(sap, cell);
    int n = cell->count;
    col_sap_ep x = {sap->boxes.data[p], p};
    int at = upper_bound(e, n, x.box.lim[0][sap->axis], sap->axis);
    memmove(e + at + 1, e + at, (size_t)(n - at) * sizeof *e);
    e[at] = x;
    cell->count = n + 1;
}

/* One cell's update. If a member moved: the leaving members go, the moved ones get
 * their final boxes, and the list is sorted again. Then the joiners come in, and a sweep
 * of the final boxes records the pairs that begin (the pairs that end were found before,
 * end_items). A cell where nothing moved and nobody joins has no change to record. */
static void update_cell(col_sap *sap, int c, col_sap_item *item)
{
    col_sap_cell *cell = &sap->cells[c];
    int j0 = sap->join_start[c], j1 = sap->join_start[c + 1], n = cell->count;
    col_sap_ep *e = cell_list(sap, cell);
    const uint8_t *info = sap->info.data;
    int changed = j0 < j1;
    if (sap->moved) {
        uint8_t any = 0;
        for (int x = 0; x < n; x++) any |= info[e[x].p];
        if (any & COL_SAP_MOVED) {
            changed = 1;
            int i, j, k, m = 0;
            cell_coords(sap, c, &i, &j, &k);
            for (int x = 0; x < n; x++) {
                uint32_t p = e[x].p;
                if (!(info[p] & COL_SAP_MOVED)) {
                    e[m++] = e[x];
                } else if (!leaves(sap, p, i, j, k)) {
                    e[m].box = sap->boxes.data[p];
                    e[m++].p = p;
                }
            }
            cell->count = m;
            sort_list(e, m, sap->axis);
        }
    }
    for (int x = j0; x < j1; x++) join_cell(sap, cell, sap->joins.data[x]);
    if (changed) sweep_list(sap, e, cell->count, c, COL_SAP_SWEEP_NEW, item);
}

/* Items [begin, end) = blocks of sap->cells_per_item cells, updated in order. Each cell
 * belongs to one item and its events go to that item's list; a proxy's box, flags and
 * ranges are only read here. */
static void cell_items(int begin, int end, int worker_index, void *arg)
{
    (void)worker_index;
    col_sap *sap = arg;
    for (int it = begin; it < end; it++) {
        int c1 = (it + 1) * sap->cells_per_item < sap->ncells ? (it + 1) * sap->cells_per_item : sap->ncells;
        for (int c = it * sap->cells_per_item; c < c1; c++)
            if (sap->cells[c].count > 0 || sap->join_start[c] < sap->join_start[c + 1]) update_cell(sap, c, &sap->items.data[it]);
    }
}

/* Items in the pass over the cells. */
static int cell_item_count(const col_sap *sap) { return (sap->ncells + sap->cells_per_item - 1) / sap->cells_per_item; }

/* Most work items are big (a block of cells, a block of thousands of proxies): one per
 * claim. */
static void run_items(col_sap *sap, col_range_fn *fn, void *arg, int count) { col_runner_run(&sap->runner, fn, arg, count, 1); }

/* Makes room for the items and the event pool (at least chunks chunks). Returns 0, or -1
 * with nothing changed but a possibly larger array. */
static int reserve_pass(col_sap *sap, int chunks)
{
    if (col_sap_item_array_reserve(sap->alloc, &sap->items, cell_item_count(sap)) != 0) return -1;
    if (chunks <= sap->event_chunk_cap) return 0;
    size_t c = (size_t)chunks;
    uint64_t *ev = col_alloc_bytes(sap->alloc, c * COL_SAP_CHUNK * sizeof(uint64_t));
    int *next = col_alloc_bytes(sap->alloc, c * sizeof(int)), *len = col_alloc_bytes(sap->alloc, c * sizeof(int));
    if (ev == NULL || next == NULL || len == NULL) {
        col_free_bytes(sap->alloc, ev, c * COL_SAP_CHUNK * sizeof(uint64_t));
        col_free_bytes(sap->alloc, next, c * sizeof(int));
        col_free_bytes(sap->alloc, len, c * sizeof(int));
        return -1;
    }
    col_free_bytes(sap->alloc, sap->events, (size_t)sap->event_chunk_cap * COL_SAP_CHUNK * sizeof(uint64_t));
    col_free_bytes(sap->alloc, sap->chunk_next, (size_t)sap->event_chunk_cap * sizeof(int));
    col_free_bytes(sap->alloc, sap->chunk_len, (size_t)sap->event_chunk_cap * sizeof(int));
    sap->events = ev;
    sap->chunk_next = next;
    sap->chunk_len = len;
    sap->event_chunk_cap = chunks;
    return 0;
}

/* A position in the items' event lists, walked in item order. */
typedef struct col_sap_cursor {
    int item, chunk, at;
} col_sap_cursor;

/* The cursor's event, moving the cursor on; 0 when the lists are done (0 is never an
 * event: it would be the pair (0, 0)). */
static uint64_t cursor_next(const col_sap *sap, col_sap_cursor *k, int items)
{
    while (k->chunk < 0 || k->at == sap->chunk_len[k->chunk]) {
        if (k->chunk >= 0 && sap->chunk_next[k->chunk] >= 0) {
            k->chunk = sap->chunk_next[k->chunk];
        } else {
            if (++k->item >= items) return 0;
            k->chunk = sap->items.data[k->item].first;
        }
        k->at = 0;
    }
    return sap->events[(size_t)k->chunk * COL_SAP_CHUNK + (size_t)k->at++];
}

/* How far ahead of the event being applied its pair's hash bucket (PREFETCH_FAR) and the
 * bucket's first entry (PREFETCH_NEAR) are requested: each event is a hash lookup that
 * misses the cache, and this step runs on the calling thread alone (measured on dense10k,
 * about 2 200 events a frame: the apply step took 0.45 ms without prefetching). */
#define COL_SAP_PREFETCH_FAR 16
#define COL_SAP_PREFETCH_NEAR 8

static void prefetch_event(const col_sap *sap, uint64_t ev, int level)
{
    if (ev != 0) col_pair_set_prefetch(sap->pairs, (uint32_t)(ev >> 32), (uint32_t)ev, level);
}

/* Applies every item's events (pairs that begin), in item order. Returns -1 if a pair
 * could not be added (the rest still applies; the caller marks the set stale). */
static int apply_events(col_sap *sap, int items)
{
    int rc = 0;
    col_sap_cursor cur = {-1, -1, 0}, far = cur, near = cur;
    for (int d = 0; d < COL_SAP_PREFETCH_FAR; d++) prefetch_event(sap, cursor_next(sap, &far, items), 0);
    for (int d = 0; d < COL_SAP_PREFETCH_NEAR; d++) (void)cursor_next(sap, &near, items);
    for (uint64_t ev; (ev = cursor_next(sap, &cur, items)) != 0;) {
        prefetch_event(sap, cursor_next(sap, &far, items), 0);
        prefetch_event(sap, cursor_next(sap, &near, items), 1);
        if (col_pair_set_add(sap->pairs, (uint32_t)(ev >> 32), (uint32_t)ev) < 0) rc = -1;
    }
    return rc;
}


/* Proxies per item of the per-proxy passes (ranges, sync). */
#define COL_SAP_SYNC_BLOCK 4096

static int proxy_item_count(const col_sap *sap) { return (sap->nslots + COL_SAP_SYNC_BLOCK - 1) / COL_SAP_SYNC_BLOCK; }

/* The end of block it of those passes. */
static inline int block_end(const col_sap *sap, int it)
{
    return (it + 1) * COL_SAP_SYNC_BLOCK < sap->nslots ? (it + 1) * COL_SAP_SYNC_BLOCK : sap->nslots;
}

/* Items [begin, end) = blocks of proxies: a moved LIVE proxy gets its next_range, and the
 * RESHAPE flag if that differs from its range; a joining one gets its next_range. */
static void range_items(int begin, int end, int worker_index, void *arg)
{
    (void)worker_index;
    col_sap *sap = arg;
    for (int it = begin; it < end; it++) {
        for (int p = it * COL_SAP_SYNC_BLOCK, hi = block_end(sap, it); p < hi; p++) {
            uint8_t f = sap->info.data[p];
            int s = f & COL_SAP_STATE_MASK;
            if (s == COL_SAP_INSERTING) {
                range_of(sap, &sap->boxes.data[p], &sap->next_range.data[p]);
            } else if (s == COL_SAP_LIVE && (f & COL_SAP_MOVED)) {
                col_sap_range *r = &sap->next_range.data[p];
                range_of(sap, &sap->boxes.data[p], r);
                if (!range_equal(r, &sap->range.data[p])) sap->info.data[p] = (uint8_t)(f | COL_SAP_RESHAPE);
            }
        }
    }
}

/* Items [begin, end) = blocks of COL_SAP_SYNC_BLOCK pair records: a record is marked to
 * leave iff one of its proxies moved and their final boxes do not overlap. Every pair
 * that ends is in the set (its last boxes overlapped) and has a moved proxy, so this one
 * pass over the records finds every pair that ends, without a sweep of the old boxes.
 * Writes only the records' marks. */
static void end_items(int begin, int end, int worker_index, void *arg)
{
    (void)worker_index;
    col_sap *sap = arg;
    int count;
    col_bp_pair *rec = col_pair_set_records(sap->pairs, &count);
    const uint8_t *info = sap->info.data;
    const col_sap_fbox *now = sap->boxes.data;
    for (int it = begin; it < end; it++) {
        int hi = (it + 1) * COL_SAP_SYNC_BLOCK < count ? (it + 1) * COL_SAP_SYNC_BLOCK : count;
        for (int i = it * COL_SAP_SYNC_BLOCK; i < hi; i++) {
            uint32_t a = rec[i].a, b = rec[i].b;
            rec[i].mark = ((info[a] | info[b]) & COL_SAP_MOVED) && !boxes_overlap(&now[a], &now[b]);
        }
    }
}

/* Items [begin, end) = blocks of proxies: the moved ones get old_boxes = boxes again, the
 * ones that changed cells get range = next_range (joiners got theirs in col_sap_update);
 * flags are cleared, ready for the next update. */
static void sync_items(int begin, int end, int worker_index, void *arg)
{
    (void)worker_index;
    col_sap *sap = arg;
    for (int it = begin; it < end; it++) {
        for (int p = it * COL_SAP_SYNC_BLOCK, hi = block_end(sap, it); p < hi; p++) {
            uint8_t f = sap->info.data[p];
            if (f & COL_SAP_RESHAPE) sap->range.data[p] = sap->next_range.data[p];
            if (f & COL_SAP_MOVED) sap->old_boxes.data[p] = sap->boxes.data[p];
            sap->info.data[p] = (uint8_t)(f & ~(COL_SAP_MOVED | COL_SAP_RESHAPE));
        }
    }
}

/* Counts queued inserts still pending (a queued proxy may have been removed again). */
static int pending_inserts(const col_sap *sap)
{
    int k = 0;
    for (int i = 0; i < sap->queue_len; i++) k += state_of(sap, sap->queue.data[i]) == COL_SAP_INSERTING;
    return k;
}

static void clear_queue(col_sap *sap)
{
    for (int i = 0; i < sap->queue_len; i++) sap->info.data[sap->queue.data[i]] &= (uint8_t)~COL_SAP_QUEUED;
    sap->queue_len = 0;
}

/* Calls fn(sap, cell, p, ctx) for every cell of range r, in cell order. */
#define COL_SAP_FOR_CELLS(sap, r, c, BODY)                                              \
    for (int ci_ = (r)->lo[0]; ci_ <= (r)->hi[0]; ci_++)                                \
        for (int cj_ = (r)->lo[1]; cj_ <= (r)->hi[1]; cj_++)                            \
            for (int ck_ = (r)->lo[2]; ck_ <= (r)->hi[2]; ck_++) {                      \
                int c = cell_index((sap), ci_, cj_, ck_);                               \
                BODY                                                                    \
            }

/* The cells a proxy joins in this update: all of next_range for a joining proxy, those of
 * next_range outside range for a LIVE one flagged RESHAPE. */
static inline int joins_cell(const col_sap *sap, uint32_t p, int c)
{
    if (state_of(sap, p) == COL_SAP_INSERTING) return 1;
    int i, j, k;
    cell_coords(sap, c, &i, &j, &k);
    return !in_range(&sap->range.data[p], i, j, k);
}

/* Groups the update's joins by cell (a counting sort, proxies in increasing order within
 * a cell), and makes room in the cells for them. Returns 0, or -1 on allocation failure
 * (nothing changed but capacities). */
static int gather_joins(col_sap *sap)
{
    int *start = sap->join_start;
    memset(start, 0, ((size_t)sap->ncells + 1) * sizeof(int));
    const uint8_t *info = sap->info.data;
    long long total = 0;
    for (int p = 0; p < sap->nslots; p++) {
        int s = info[p] & COL_SAP_STATE_MASK;
        if (!(s == COL_SAP_INSERTING || (s == COL_SAP_LIVE && (info[p] & COL_SAP_RESHAPE)))) continue;
        const col_sap_range *r = &sap->next_range.data[p];
        COL_SAP_FOR_CELLS(sap, r, c, {
            if (joins_cell(sap, (uint32_t)p, c)) {
                start[c + 1]++;
                total++;
            }
        })
    }
    if (total > 0x3fffffff) return -1;
    if (col_u32_array_reserve(sap->alloc, &sap->joins, (int)total) != 0) return -1;
    /* Room in the cells: start[c + 1] holds cell c's join count; lay the slices out
     * again only if some cell is short of room. */
    int short_of_room = 0;
    for (int c = 0; c < sap->ncells; c++) short_of_room |= sap->cells[c].count + start[c + 1] > sap->cells[c].cap;
    if (short_of_room) {
        if (col_int_array_reserve(sap->alloc, &sap->need, sap->ncells) != 0) return -1;
        for (int c = 0; c < sap->ncells; c++) sap->need.data[c] = sap->cells[c].count + start[c + 1];
        if (relayout(sap, sap->need.data) != 0) return -1;
    }
    for (int c = 0; c < sap->ncells; c++) start[c + 1] += start[c];
    /* start[c] is now where cell c's joins begin; fill, moving start[c] to the next slot. */
    for (int p = 0; p < sap->nslots; p++) {
        int s = info[p] & COL_SAP_STATE_MASK;
        if (!(s == COL_SAP_INSERTING || (s == COL_SAP_LIVE && (info[p] & COL_SAP_RESHAPE)))) continue;
        const col_sap_range *r = &sap->next_range.data[p];
        COL_SAP_FOR_CELLS(sap, r, c, {
            if (joins_cell(sap, (uint32_t)p, c)) sap->joins.data[start[c]++] = (uint32_t)p;
        })
    }
    /* Shift back: start[c] held the end of cell c's joins, which is where c + 1's begin. */
    for (int c = sap->ncells; c > 0; c--) start[c] = start[c - 1];
    start[0] = 0;
    sap->joins.count = (int)total;
    return 0;
}

/* Drops every pair of a REMOVING proxy (one pass over the records), then their entries
 * (one compaction of every cell), then frees the proxies. Needs no memory. */
static void apply_removals(col_sap *sap, col_sap_pair_removed_fn removed, void *ctx)
{
    int count;
    col_bp_pair *rec = col_pair_set_records(sap->pairs, &count);
    for (int i = 0; i < count;) {
        uint32_t a = rec[i].a, b = rec[i].b;
        if (state_of(sap, a) == COL_SAP_REMOVING || state_of(sap, b) == COL_SAP_REMOVING) {
            uint32_t user = rec[i].user;
            col_pair_set_remove_at(sap->pairs, i); /* the last record moves to i */
            count--;
            report(removed, ctx, a, b, user);
        } else {
            i++;
        }
    }
    for (int c = 0; c < sap->ncells; c++) {
        col_sap_ep *e = cell_list(sap, &sap->cells[c]);
        int m = sap->cells[c].count, n = 0;
        for (int x = 0; x < m; x++)
            if (state_of(sap, e[x].p) != COL_SAP_REMOVING) e[n++] = e[x];
        sap->cells[c].count = n;
    }
    for (int p = 0; p < sap->nslots; p++)
        if (state_of(sap, (uint32_t)p) == COL_SAP_REMOVING) sap->info.data[p] = 0;
    sap->removing = 0;
}

/* ---- full rebuild ---- */

/* Bottom-up merge sort by ep_total_less, runs of 16 by insertion sort first. */
static void sort_total(col_sap_ep *a, col_sap_ep *tmp, size_t n, int axis)
{
    const size_t run = 16;
    for (size_t lo = 0; lo < n; lo += run) {
        size_t hi = lo + run < n ? lo + run : n;
        for (size_t i = lo + 1; i < hi; i++) {
            col_sap_ep e = a[i];
            size_t j = i;
            while (j > lo && ep_total_less(&e, &a[j - 1], axis)) {
                a[j] = a[j - 1];
                j--;
            }
            a[j] = e;
        }
    }
    col_sap_ep *src = a, *dst = tmp;
    for (size_t w = run; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, o = lo;
            while (i < mid && j < hi) dst[o++] = ep_total_less(&src[j], &src[i], axis) ? src[j++] : src[i++];
            while (i < mid) dst[o++] = src[i++];
            while (j < hi) dst[o++] = src[j++];
        }
        col_sap_ep *t = src;
        src = dst;
        dst = t;
    }
    if (src != a) memcpy(a, src, n * sizeof *a);
}
/* The axis with the largest variance of box centres (as FCL's SaP picks its sweep axis):
 * a box's interval there holds fewer other mins, so the sweeps test fewer candidates. */
static int sweep_axis(const col_sap *sap)
{
    double s[3] = {0, 0, 0}, s2[3] = {0, 0, 0};
    int n = 0;
    for (int p = 0; p < sap->nslots; p++) {
        if (state_of(sap, (uint32_t)p) != COL_SAP_LIVE) continue;
        n++;
        for (int k = 0; k < 3; k++) {
            double c = 0.5 * (double)sap->boxes.data[p].lim[0][k] + 0.5 * (double)sap->boxes.data[p].lim[1][k];
            s[k] += c;
            s2[k] += c * c;
        }
    }
    int best = 0;
    double best_var = -1.0;
    for (int k = 0; k < 3 && n > 0; k++) {
        double mean = s[k] / n, var = s2[k] / n - mean * mean;
        if (var > best_var) {
            best_var = var;
            best = k;
        }
    }
    return best;
}

/* Fits the grid to the n proxies that are LIVE or joining: cubes of about
 * COL_SAP_CELL_FACTOR times their mean box extent over the span of their box centres (the
 * outer cells reach to infinity, so a proxy outside that span is still in a cell), at most
 * COL_SAP_GRID_AXIS per axis and n / COL_SAP_CELL_MIN in all. One cell below COL_SAP_GRID_MIN proxies, or
 * when the boxes have no extent. A pure function of the boxes, so as deterministic as
 * they are. */
static void choose_grid(const col_sap *sap, int n, int g[3], double org[3], double inv[3])
{
    for (int a = 0; a < 3; a++) {
        g[a] = 1;
        org[a] = inv[a] = 0.0;
    }
    if (n < COL_SAP_GRID_MIN) return;
    double ext = 0.0, lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    int seen = 0;
    for (int p = 0; p < sap->nslots; p++) {
        int s = state_of(sap, (uint32_t)p);
        if (s != COL_SAP_LIVE && s != COL_SAP_INSERTING) continue;
        const col_sap_fbox *b = &sap->boxes.data[p];
        for (int a = 0; a < 3; a++) {
            double c = 0.5 * (double)b->lim[0][a] + 0.5 * (double)b->lim[1][a];
            ext += (double)b->lim[1][a] - (double)b->lim[0][a];
            if (!seen || c < lo[a]) lo[a] = c;
            if (!seen || c > hi[a]) hi[a] = c;
        }
        seen = 1;
    }
    double side = COL_SAP_CELL_FACTOR * ext / (3.0 * n);
    if (!(side > 0.0) || !(side < 1e300)) return;
    for (int a = 0; a < 3; a++) {
        double cells = (hi[a] - lo[a]) / side;
        g[a] = cells >= COL_SAP_GRID_AXIS - 1 ? COL_SAP_GRID_AXIS : (int)cells + 1;
    }
    while ((long long)g[0] * g[1] * g[2] * COL_SAP_CELL_MIN > n) {
        int a = g[0] >= g[1] && g[0] >= g[2] ? 0 : g[1] >= g[2] ? 1 : 2;
        g[a] = (g[a] + 1) / 2;
    }
    for (int a = 0; a < 3; a++) {
        org[a] = lo[a];
        inv[a] = g[a] > 1 ? g[a] / (hi[a] - lo[a]) : 0.0;
    }
}

/* The rebuild's sweep: each cell's sweep (sweep_list) over the final boxes; a pair found
 * in the cell that owns it clears its record's doom mark or is added. Returns -1 if an
 * add failed (the set is then stale). */
static int sweep_cells(col_sap *sap)
{
    int rc = 0;
    for (int c = 0; c < sap->ncells; c++)
        rc |= sweep_list(sap, cell_list(sap, &sap->cells[c]), sap->cells[c].count, c, COL_SAP_SWEEP_REBUILD, NULL);
    return rc;
}

/* The rebuild's diff, last step: the records no sweep found again are removed and reported. */
static void drop_marked(col_sap *sap, col_sap_pair_removed_fn removed, void *ctx)
{
    int nrec;
    col_bp_pair *rec = col_pair_set_records(sap->pairs, &nrec);
    for (int i = 0; i < nrec;) {
        if (rec[i].mark) {
            uint32_t a = rec[i].a, b = rec[i].b, user = rec[i].user;
            col_pair_set_remove_at(sap->pairs, i);
            nrec--;
            report(removed, ctx, a, b, user);
        } else {
            i++;
        }
    }
}

static int rebuild(col_sap *sap, col_sap_pair_removed_fn removed, void *ctx)
{
    sap->stale = 1; /* until this rebuild succeeds */
    assert(sap->removing == 0); /* removals were applied by the caller */
    int n = 0;
    for (int p = 0; p < sap->nslots; p++) {
        int s = state_of(sap, (uint32_t)p);
        n += s == COL_SAP_LIVE || s == COL_SAP_INSERTING;
    }
    int g[3];
    double org[3], inv[3];
    choose_grid(sap, n, g, org, inv);
    int ncells = g[0] * g[1] * g[2];
    /* Every allocation first: past this point the rebuild completes structurally. Until
     * then a failure leaves the cells consistent (old or empty), and the set stale. */
    if (ncells != sap->ncells) {
        col_sap_cell *cells = col_alloc_zeroed(sap->alloc, (size_t)ncells, sizeof(col_sap_cell));
        int *start = col_alloc_zeroed(sap->alloc, (size_t)ncells + 1, sizeof(int));
        if (cells == NULL || start == NULL) {
            col_free_bytes(sap->alloc, cells, (size_t)ncells * sizeof(col_sap_cell));
            col_free_bytes(sap->alloc, start, ((size_t)ncells + 1) * sizeof(int));
            return -1;
        }
        free_cells(sap);
        sap->cells = cells;
        sap->join_start = start;
        sap->ncells = ncells;
    }
    memcpy(sap->g, g, sizeof g);
    memcpy(sap->org, org, sizeof org);
    memcpy(sap->inv, inv, sizeof inv);
    sap->cells_per_item = ncells > COL_SAP_ITEMS ? ncells / COL_SAP_ITEMS : 1;
    int *count = sap->join_start;
    memset(count, 0, ((size_t)ncells + 1) * sizeof(int));
    for (int c = 0; c < ncells; c++) sap->cells[c].count = 0;
    for (int p = 0; p < sap->nslots; p++) {
        int s = state_of(sap, (uint32_t)p);
        sap->info.data[p] &= (uint8_t)~COL_SAP_RESHAPE;
        if (s != COL_SAP_LIVE && s != COL_SAP_INSERTING) continue;
        col_sap_range *r = &sap->range.data[p];
        range_of(sap, &sap->boxes.data[p], r);
        COL_SAP_FOR_CELLS(sap, r, c, { count[c]++; })
    }
    int most = 0;
    for (int c = 0; c < ncells; c++)
        if (count[c] > most) most = count[c];
    if (relayout(sap, count) != 0) return -1;
    /* The incremental path's scratch, sized here so that a warm scene's frames do not
     * allocate it: gather_joins' need per cell, and room for the joins of a quarter of
     * the proxies at once. */
    if (col_int_array_reserve(sap->alloc, &sap->need, ncells) != 0) return -1;
    if (col_u32_array_reserve(sap->alloc, &sap->joins, n / 4) != 0) return -1;
    if (col_sap_ep_array_reserve(sap->alloc, &sap->scratch, most) != 0) return -1;

    /* The queued proxies join; every LIVE proxy enters its cells, in proxy order. */
    for (int p = 0; p < sap->nslots; p++)
        if (state_of(sap, (uint32_t)p) == COL_SAP_INSERTING) set_state(sap, (uint32_t)p, COL_SAP_LIVE);
    clear_queue(sap);
    sap->axis = sweep_axis(sap);
    for (int p = 0; p < sap->nslots; p++) {
        if (state_of(sap, (uint32_t)p) != COL_SAP_LIVE) continue;
        const col_sap_range *r = &sap->range.data[p];
        col_sap_ep x = {sap->boxes.data[p], (uint32_t)p};
        COL_SAP_FOR_CELLS(sap, r, c, {
            col_sap_cell *cell = &sap->cells[c];
            cell_list(sap, cell)[cell->count++] = x;
        })
    }
    for (int c = 0; c < ncells; c++)
        sort_total(cell_list(sap, &sap->cells[c]), sap->scratch.data, (size_t)sap->cells[c].count, sap->axis);
    sap->moved = 0;

    /* Diff: mark every record doomed, let the sweeps clear the marks of the pairs they find
     * (new records are added unmarked; a pair found again in another cell is found, not
     * added), then drop the records still marked. */
    int nrec;
    col_bp_pair *rec = col_pair_set_records(sap->pairs, &nrec);
    for (int i = 0; i < nrec; i++) rec[i].mark = 1;

    int rc = sweep_cells(sap);
    drop_marked(sap, removed, ctx);
    run_items(sap, sync_items, sap, proxy_item_count(sap));
    sap->rebuilds++;
    if (rc == 0) sap->stale = 0;
    return rc;
}

int col_sap_update(col_sap *sap, col_sap_pair_removed_fn removed, void *ctx)
{
    /* Removals first on both paths: they need no memory, so even an update that fails
     * later leaves no pair of a removed proxy in the set. */
    if (sap->removing > 0) apply_removals(sap, removed, ctx);
    int k = pending_inserts(sap);
    if (sap->stale || k > COL_SAP_FEW_INSERTS) return rebuild(sap, removed, ctx);
    if (!sap->moved && k == 0) {
        clear_queue(sap); /* inserts cancelled by removes */
        return 0;
    }

    /* Which proxies change cells, then the joins by cell and every capacity, so a failure
     * changes nothing (the next update then rebuilds). */
    if (sap->moved || k > 0) run_items(sap, range_items, sap, proxy_item_count(sap));
    int items = cell_item_count(sap);
    if (gather_joins(sap) != 0 || reserve_pass(sap, items + COL_SAP_MIN_CHUNKS) != 0) {
        sap->stale = 1;
        return -1;
    }
    if (sap->moved) {
        /* The pairs that end leave first (reported on this thread, in record order). */
        int nrec = col_pair_set_count(sap->pairs);
        run_items(sap, end_items, sap, (nrec + COL_SAP_SYNC_BLOCK - 1) / COL_SAP_SYNC_BLOCK);
        drop_marked(sap, removed, ctx);
    }
    for (int it = 0; it < items; it++) {
        sap->items.data[it].first = sap->items.data[it].last = -1;
        sap->items.data[it].overflow = 0;
    }
    atomic_store_explicit(&sap->chunks_used, 0, memory_order_relaxed);
    run_items(sap, cell_items, sap, items);
    int overflow = 0;
    for (int it = 0; it < items; it++) overflow |= sap->items.data[it].overflow;
    if (overflow) {
        /* More events than the pool holds (a burst of moves): no beginning pair was
         * added yet, so rebuild from the final boxes, then grow the pool. */
        int used = atomic_load_explicit(&sap->chunks_used, memory_order_relaxed);
        int rc = rebuild(sap, removed, ctx);
        reserve_pass(sap, 2 * (used > sap->event_chunk_cap ? used : sap->event_chunk_cap));
        return rc;
    }
    int rc = apply_events(sap, items);
    /* The joiners are LIVE members of their cells now. */
    for (int i = 0; i < sap->queue_len; i++) {
        uint32_t p = sap->queue.data[i];
        if (state_of(sap, p) != COL_SAP_INSERTING) continue;
        set_state(sap, p, COL_SAP_LIVE);
        sap->range.data[p] = sap->next_range.data[p];
    }
    clear_queue(sap);
    if (sap->moved) run_items(sap, sync_items, sap, proxy_item_count(sap));
    sap->moved = 0;
    if (rc != 0) sap->stale = 1;
    return rc;
}

void col_sap_set_runner(col_sap *sap, col_runner runner)
{
    sap->runner = runner;
}

void col_sap_grid_stats(const col_sap *sap, int cells[3], long long *memberships)
{
    for (int a = 0; a < 3; a++) cells[a] = sap->g[a];
    long long m = 0;
    for (int c = 0; c < sap->ncells; c++) m += sap->cells[c].count;
    *memberships = m;
}
