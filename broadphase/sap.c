/* SPDX-License-Identifier: MIT */
/* Sweep and prune after I-COLLIDE (Cohen, Lin, Manocha, Ponamgi 1995; Lin's survey
 * section 7.2) and Bullet's btAxisSweep3, run in every cell of a uniform grid (the
 * multi-SAP idea of Bullet's btMultiSapBroadphase, and of Tracy, Buss and Woods 2009,
 * "Efficient large-scale sweep and prune methods with AABB insertion and removal"): each
 * cell keeps three arrays of the endpoints of the boxes that overlap it (its members),
 * kept sorted by one insertion-sort pass per frame, with the pair set updated at the
 * swaps; a box that enters or leaves a cell is tested against that cell's members. One
 * global list per axis made every endpoint pass every endpoint between its old and new
 * place, however far apart in space their boxes were (13.5 million swaps a frame on
 * sparse100k); in a cell it passes only those of the boxes sharing the cell. The cells
 * run in parallel, their pair changes are applied afterwards in cell order (see
 * COL_SAP_ITEMS). See sap.h for the contract, docs/broadphase.md for the measurements.
 *
 * Single precision. Everything below is about the ROUNDED boxes: col_sap_insert and
 * col_sap_move round the caller's double box outward to floats once (round_box), and
 * every comparison in this file (the insertion-sort order, the swap tests, the rebuild's
 * sort and sweep) reads those floats or endpoints copied from them. So the proof below
 * holds exactly, for the float boxes: the set is exactly the overlap set of the rounded
 * boxes, a superset of that of the double boxes (outward rounding only grows a box).
 * Rounding only the endpoints would not do: swap tests on double boxes could disagree
 * with a float order at a near-tie (two doubles that round to one float), and a pair
 * would then be added or dropped against its overlap by order, breaking the invariant.
 * The rounding is a pure function of the caller's box (no rounding-mode dependence, see
 * round_down), so it changes nothing in the determinism argument of COL_SAP_ITEMS.
 * Why: the passes are memory-bound. Each swap moves an endpoint and loads the passed
 * proxy's box (boxes or old_boxes, at random proxy numbers) and flag byte; in doubles
 * that was a 16-byte endpoint and a 48-byte box, and sort_range took about 64% of the
 * frame on sparse100k (100 000 bodies: 9.6 MB of endpoints and 9.6 MB of boxes) and
 * 25-27% on dense10k (perf, 1 worker). Floats make them 8 and 24 bytes, half the footprint and the traffic.
 * Measured (colibri-bench frame_ms_median, 2-core Xeon VM with 2 MB of L2 per core and
 * a large shared L3, three runs each): sparse100k 89-99 -> 79-80 ms on 1 worker and
 * 50-51 -> 43-44 ms on 2, with sort_range about a quarter faster (its loads of boxes at
 * random proxy numbers stay latency-bound: that L3 holds either layout); dense10k
 * (1.9 MB of endpoints and boxes in doubles, about one L2) 12.5-12.7 -> 12.3-12.5 ms and
 * 7.0-7.1 -> 6.8-7.0 ms; fast (2 000 bodies) unchanged at 1.95 and 1.20 ms.
 *
 * Endpoint order (per axis): by value; at equal values a min before a max, so boxes
 * that touch overlap (closed intervals, the narrow phase's convention: touching counts,
 * docs/scenes.md); two mins or two maxes at equal values keep their order in the array
 * (insertion sort is stable), which is deterministic. Bullet gets min-before-max from
 * even/odd quantised values; we compare floats and break the tie on the kind bit. Ties
 * are more common than in doubles (nearby doubles round to one float) and follow the
 * same rule, as the closed-interval overlap of the rounded boxes requires.
 *
 * Why the incremental pass keeps the set exact: first within one cell (its members and
 * the pairs among them), then across cells. On an axis, boxes A and B overlap iff
 * A.min comes before B.max and B.min before A.max in the sorted order, which with the
 * tie rule above is exactly A.min <= B.max && B.min <= A.max. Invariant at the start of
 * the three sort passes: the set holds exactly the pairs (not both static) that overlap
 * on all three axes *by the current array order*. Members that leave are dropped and
 * compaction keeps the order of the rest; writing moved values does not change the
 * order; joiners enter only after the sort (below). Insertion sort
 * swaps each pair of elements that is inverted with respect to the final order exactly
 * once and never swaps any other pair, so the order relation of A.min and B.max (or
 * B.min and A.max) on an axis changes iff they are swapped, exactly once. Take pair
 * (A, B) and its last swap across the three passes:
 * - none: its order relations on all axes are as at the start, so by the invariant its
 *   membership already equals overlap by the final order;
 * - a min passing below a max (overlap begins on that axis): we add the pair iff the
 *   final box values overlap on all three axes (every box value is final before the
 *   first pass), which is the required membership, and nothing changes it afterwards;
 * - a max passing below a min (overlap ends): we remove the pair; that axis's relation
 *   is final from then on, so the pair does not overlap at the end, as required.
 * So after the passes the set equals the all-axes overlap of the final boxes, and the
 * invariant holds for the next frame. Bullet (btAxisSweep3Internal sortMinDown etc.)
 * instead compares endpoint indices on the other axes (testOverlap2D), which fits its
 * one-proxy-at-a-time updates; we write every box first and then compare values.
 *
 * Across cells. The global set is the union of the cells' sets: two boxes that overlap
 * share a cell (cell_coord is monotone, so the cell of the corner made of the larger
 * mins lies in both ranges), and every event decides from the final boxes alone (an add
 * iff they overlap, a remove only when they do not), so adds and removes of one pair
 * from several cells agree and are idempotent (add of a present pair, remove of an
 * absent one: no change). Every pair whose membership changes gets an event: one that
 * starts overlapping overlaps in some cell c; if both were members of c before, c's
 * sort adds it (above); if one joined c, the join tests it against every member. One
 * that stops overlapping overlapped in some cell c' before; if both stay in c', its sort
 * removes it; if one leaves c', the leave tests it against every member (and removes it
 * when the last boxes overlapped and the final ones do not). A removal is never undone
 * by an add in the same update, so no pair is reported as leaving while it stays.
 *
 * Bulk path: more than COL_SAP_FEW_INSERTS queued inserts (or a stale set after an
 * allocation failure) rebuilds: the grid is fitted to the boxes again (choose_grid),
 * each cell's axes are sorted by the total order (value, min before max, proxy), one
 * sweep per cell with an active list on the axis of largest spread of box centres
 * enumerates the overlapping pairs, and the result is diffed against the current set
 * so surviving pairs keep their user values.
 *
 * Out of memory: removals come first and need no memory; the joins, the cells' room
 * (relayout) and the event pool are grown before anything else changes; a pair add that fails mid-pass lets the pass finish (the
 * arrays stay sorted, the set stays a subset of the truth) and marks the set stale, so
 * the next update rebuilds. A failed update returns -1 and never leaves the structure
 * inconsistent.
 *
 * Memory: per-proxy arrays grow with the largest proxy index (boxes, old boxes and two
 * cell ranges: 72 bytes, plus a flag byte and an int); the endpoint pools (three
 * endpoints of 8 bytes per member and axis, with slack), the cells, the join lists, the
 * insert queue, the merge-sort buffer, the active list and the pass's items and event
 * pool persist across frames, so an update on a steady scene (moves only) allocates
 * nothing once the pair set, the pools and the event pool have met their peaks.
 * Endpoints are 8 bytes (float + proxy << 1 | is_max), so proxies are < 2^31. */
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
 * plus a binary search and a move per axis, so a handful of spawns never re-sorts, and a
 * bulk load (the first one especially, which has no grid to join yet) gets a grid fitted
 * to it. */
#define COL_SAP_FEW_INSERTS 32

/* The grid. The cell side is COL_SAP_CELL_FACTOR times the mean box extent: a box
 * overlaps (1 + 1/f)^3 cells on average (1.42 at f = 8), while the endpoints an endpoint
 * passes per unit of motion fall with the square of the cell side (a cell's axis holds
 * its members only). Measured (CPU time of the broad phase's functions per frame under
 * perf, 1 worker; docs/broadphase.md): sparse100k 13.6, 14.2, 14.2, 10.7, 10.0-10.4, 11.3,
 * 11.4, 14.5 ms at f = 2, 3, 4, 6, 8, 12, 16, 24 (79 ms with one global list); million
 * 159, 114, 115 ms at f = 4, 8, 12; fast about flat (0.84-0.90 ms). A grid is used from
 * COL_SAP_GRID_MIN proxies on (below, one cell: the lists are short anyway); at most
 * COL_SAP_GRID_AXIS cells per axis and one cell per COL_SAP_CELL_MIN proxies in all, so
 * the cells' own cost (a slice, 12 bytes and a visit each) stays below the proxies'. */
#define COL_SAP_CELL_FACTOR 8.0
#define COL_SAP_GRID_MIN 256
#define COL_SAP_GRID_AXIS 1024
#define COL_SAP_CELL_MIN 8

/* Items of the parallel pass: blocks of consecutive cells, about COL_SAP_ITEMS of them
 * (cells_per_item is set with the grid, a function of the boxes, never of the worker
 * count; and since an item handles its cells in order and the events are applied in
 * item order, the result is that of one pass over the cells in order, however they are
 * grouped). Small grids (27 cells on fast or dense10k) get an item per cell, so two
 * workers share the pass. The events of an item go to chunks of
 * COL_SAP_CHUNK taken from a pool with an atomic counter: the pool runs out iff the items
 * need more chunks in total than it has, whatever the schedule, and then the update
 * rebuilds instead (exact, and as deterministic) and the pool grows for the next
 * frames. The pool starts with a chunk per item plus COL_SAP_MIN_CHUNKS, so only a
 * burst of changes (thousands of pairs starting or ending at once) overflows. */
#define COL_SAP_ITEMS 256
#define COL_SAP_CHUNK 256
#define COL_SAP_MIN_CHUNKS 16
#define COL_SAP_EV_REMOVE (1ull << 63)

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

typedef struct col_sap_ep {
    float value;   /* the proxy's rounded box (col_sap_fbox) on this axis */
    uint32_t data; /* proxy << 1 | is_max */
} col_sap_ep;

/* A proxy's box as the passes see it: the caller's box rounded outward to floats
 * (round_box). Every comparison of the structure reads these values or endpoints copied
 * from them, never the caller's doubles. */
typedef struct col_sap_fbox {
    float lim[2][3]; /* lim[0][axis]: min, lim[1][axis]: max; indexed by the kind bit */
} col_sap_fbox;

/* The cells a box overlaps: lo[k] .. hi[k] (inclusive) on each axis. */
typedef struct col_sap_range {
    uint16_t lo[3], hi[3];
} col_sap_range;

/* One cell: the endpoints of its members, sorted on each axis, two per member, at
 * pool[a].data[start .. start + count) for axis a, with room up to start + cap. */
typedef struct col_sap_cell {
    int start, count, cap;
} col_sap_cell;

/* An active box of the rebuild's sweep: its intervals on the two other axes copied next
 * to each other, so the inner loop scans contiguous memory instead of gathering boxes
 * (with n boxes of width w in a cube of side L about n w / L are active at a time). */
typedef struct col_sap_active {
    float lo1, hi1, lo2, hi2;
    uint32_t p, is_static;
} col_sap_active;

COL_ARRAY_DEFINE(col_sap_item_array, col_sap_item)
COL_ARRAY_DEFINE(col_sap_ep_array, col_sap_ep)
COL_ARRAY_DEFINE(col_sap_fbox_array, col_sap_fbox)
COL_ARRAY_DEFINE(col_sap_range_array, col_sap_range)
COL_ARRAY_DEFINE(col_sap_active_array, col_sap_active)

struct col_sap {
    col_alloc *alloc;
    col_pair_set *pairs;

    /* Per proxy, indexed by proxy number; nslots are initialised. */
    col_sap_fbox_array boxes;
    col_u8_array info; /* state | flags */
    col_int_array active_pos;
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
    /* The cells' endpoints, one pool per axis, cut into the cells' slices in cell order
     * (pool[a].count: the end of the last slice). One block per axis rather than one per
     * cell: a cell that outgrows its slice makes the slices be laid out again in the
     * same blocks (relayout), which allocates only when the total outgrows the block, so
     * a warm scene whose cells fill and empty allocates nothing (per-cell arrays would
     * allocate whenever any one cell of thousands met a new peak). */
    col_sap_ep_array pool[3];
    double org[3], inv[3];
    /* The joins of the running update, grouped by cell: cell c's joiners are
     * joins[join_start[c] .. join_start[c + 1]) (ncells + 1 entries), in proxy order. */
    int *join_start;
    col_u32_array joins;
    col_int_array need; /* scratch of gather_joins: endpoints per axis each cell needs */

    /* The incremental pass's items (blocks of sap->cells_per_item cells) with the
     * events they record, applied afterwards in item order; run on the owner's workers
     * through run (NULL: in order on the calling thread). */
    col_runner runner;
    col_sap_item_array items;
    uint64_t *events; /* event_chunk_cap chunks of COL_SAP_CHUNK events */
    int *chunk_next, *chunk_len;
    int event_chunk_cap;
    atomic_int chunks_used;

    /* Scratch that persists: merge-sort buffer and active list of the rebuild. */
    col_sap_ep_array scratch;
    col_sap_active_array active;

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

/* An index, not a choice: a branch on the kind would be a coin flip per endpoint. */
static inline float ep_value(const col_sap_fbox *b, int axis, uint32_t is_max) { return b->lim[is_max][axis]; }

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

/* Incremental order: value, then min before max; no tie-break beyond that, so the
 * insertion sort keeps the current order of equal keys (stable, deterministic). */
static inline int ep_less(const col_sap_ep *a, const col_sap_ep *b)
{
    return a->value < b->value || (a->value == b->value && (a->data & 1u) < (b->data & 1u));
}

/* Rebuild order: a total order (value, min before max, proxy), so the sorted arrays do
 * not depend on the sort algorithm or the previous contents. */
static inline int ep_total_less(const col_sap_ep *a, const col_sap_ep *b)
{
    if (a->value != b->value) return a->value < b->value;
    if ((a->data & 1u) != (b->data & 1u)) return (a->data & 1u) < (b->data & 1u);
    return a->data < b->data;
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
        col_u8_array_reserve(sap->alloc, &sap->info, need) != 0 || col_int_array_reserve(sap->alloc, &sap->active_pos, need) != 0)
        return -1;
    size_t n = (size_t)(need - sap->nslots);
    memset(sap->boxes.data + sap->nslots, 0, n * sizeof(col_sap_fbox));
    memset(sap->old_boxes.data + sap->nslots, 0, n * sizeof(col_sap_fbox)); /* read (masked) by sort_range */
    memset(sap->range.data + sap->nslots, 0, n * sizeof(col_sap_range));
    memset(sap->next_range.data + sap->nslots, 0, n * sizeof(col_sap_range));
    memset(sap->info.data + sap->nslots, 0, n);
    memset(sap->active_pos.data + sap->nslots, 0, n * sizeof(int));
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

static inline col_sap_ep *cell_ep(const col_sap *sap, const col_sap_cell *cell, int a) { return sap->pool[a].data + cell->start; }

/* Lays the cells' slices out again so that cell c has room for need[c] endpoints per
 * axis, plus slack (a quarter and 4, so that a cell growing by a member or two, or by a
 * quarter, does not lay everything out again the next frame), keeping every cell's
 * endpoints. Slices keep their order, so they are moved in place: first those moving
 * down, in cell order, then those moving up, in reverse order, each into room that is
 * free by then. Returns 0, or -1 on allocation failure (then only capacities changed). */
static int relayout(col_sap *sap, const int *need)
{
    long long total = 0;
    for (int c = 0; c < sap->ncells; c++) total += need[c] + need[c] / 4 + 4;
    if (total > 0x7fffffff) return -1;
    for (int a = 0; a < 3; a++) {
        col_sap_ep_array *pa = &sap->pool[a];
        if (total <= pa->cap) continue;
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
            for (int a = 0; a < 3; a++) memmove(sap->pool[a].data + cell->cap, cell_ep(sap, cell, a), (size_t)cell->count * sizeof(col_sap_ep));
    }
    for (int c = sap->ncells - 1; c >= 0; c--) {
        col_sap_cell *cell = &sap->cells[c];
        if (cell->cap > cell->start)
            for (int a = 0; a < 3; a++) memmove(sap->pool[a].data + cell->cap, cell_ep(sap, cell, a), (size_t)cell->count * sizeof(col_sap_ep));
    }
    for (int c = 0; c < sap->ncells; c++) {
        col_sap_cell *cell = &sap->cells[c];
        int next = c + 1 < sap->ncells ? sap->cells[c + 1].cap : at;
        cell->start = cell->cap;
        cell->cap = next - cell->start;
    }
    for (int a = 0; a < 3; a++) sap->pool[a].count = at;
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
    for (int k = 0; k < 3; k++) col_sap_ep_array_free(a, &sap->pool[k]);
    col_sap_fbox_array_free(a, &sap->boxes);
    col_sap_fbox_array_free(a, &sap->old_boxes);
    col_sap_range_array_free(a, &sap->range);
    col_sap_range_array_free(a, &sap->next_range);
    col_sap_item_array_free(a, &sap->items);
    col_free_bytes(a, sap->events, (size_t)sap->event_chunk_cap * COL_SAP_CHUNK * sizeof(uint64_t));
    col_free_bytes(a, sap->chunk_next, (size_t)sap->event_chunk_cap * sizeof(int));
    col_free_bytes(a, sap->chunk_len, (size_t)sap->event_chunk_cap * sizeof(int));
    col_u8_array_free(a, &sap->info);
    col_int_array_free(a, &sap->active_pos);
    col_u32_array_free(a, &sap->joins);
    col_int_array_free(a, &sap->need);
    col_sap_ep_array_free(a, &sap->scratch);
    col_sap_active_array_free(a, &sap->active);
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
     * new value reaches the endpoints at the next update (refresh pass); the box is
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

/* Insertion sort of a cell's axis ep[0, n), recording the event of every min/max swap
 * (the I-COLLIDE rule, see the top of the file).
 *
 * Why the inner loop has no branch but the rare event record: whether the endpoint passed
 * is of the other kind is a coin flip, and as a branch it cost a misprediction every
 * other swap (dense10k: about a million swaps a frame, half of them min/max). So every
 * swap loads the passed proxy's box and flags and computes the event condition with
 * bitwise ands; a min/max swap that makes an event is the only branch taken. The moving
 * endpoint's kind is fixed for the loop, and with it which boxes the test reads: a min
 * passing maxes starts an overlap on this axis, tested on the final boxes; a max passing
 * mins ends one, which matters only if the last update's boxes overlapped: the set held
 * exactly the pairs whose boxes did, so otherwise the pair is not in it. That is nearly
 * every such swap (measured: 99.5% on dense10k, 99.99% on sparse100k), each a hash miss
 * otherwise. Joining proxies are never in the arrays during this sort (they enter after
 * it, join_cell), so every proxy here had its pairs when the update began. */
static void sort_range(col_sap *sap, col_sap_ep *ep, int n, col_sap_item *item)
{
    const uint8_t *info = sap->info.data;
    for (int i = 1; i < n; i++) {
        if (!ep_less(&ep[i], &ep[i - 1])) continue;
        col_sap_ep e = ep[i];
        uint32_t p = e.data >> 1, e_max = e.data & 1u;
        const col_sap_fbox *base = e_max ? sap->old_boxes.data : sap->boxes.data;
        const col_sap_fbox P = base[p];
        const uint8_t pinfo = info[p];
        const uint64_t ev = (e_max ? COL_SAP_EV_REMOVE : 0) | (uint64_t)p << 32;
        int j = i;
        do {
            col_sap_ep f = ep[j - 1];
            uint32_t q = f.data >> 1;
            /* A box's own min never passes its max (min <= max, min starts first). */
            assert(p != q || !((e.data ^ f.data) & 1u));
            const col_sap_fbox *Q = &base[q];
            uint8_t qinfo = info[q];
            int hit = (int)((e.data ^ f.data) & 1u) & !(pinfo & qinfo & COL_SAP_STATIC) &
                      (P.lim[0][0] <= Q->lim[1][0]) & (Q->lim[0][0] <= P.lim[1][0]) & (P.lim[0][1] <= Q->lim[1][1]) &
                      (Q->lim[0][1] <= P.lim[1][1]) & (P.lim[0][2] <= Q->lim[1][2]) & (Q->lim[0][2] <= P.lim[1][2]);
            if (hit) record(sap, item, ev | q);
            ep[j] = f;
            j--;
        } while (j > 0 && ep_less(&e, &ep[j - 1]));
        ep[j] = e;
    }
}

/* Does proxy p (a member of cell (i, j, k)) leave that cell in this update? */
static inline int leaves(const col_sap *sap, uint32_t p, int i, int j, int k)
{
    return (sap->info.data[p] & COL_SAP_RESHAPE) && !in_range(&sap->next_range.data[p], i, j, k);
}

/* The members of cell (i, j, k) that leave it: each one's pairs with the other members
 * that were in the set (their last boxes overlapped) and no longer overlap are removed
 * (a pair that still overlaps stays in the set: the two still share a cell, see the top
 * of the file); then their endpoints go, keeping the order of the rest. Two members that
 * both leave record their pair twice: removing is idempotent. */
static void leave_cell(col_sap *sap, col_sap_cell *cell, int i, int j, int k, col_sap_item *item)
{
    int n = cell->count, gone = 0;
    const col_sap_ep *e0 = cell_ep(sap, cell, 0);
    const col_sap_fbox *old = sap->old_boxes.data, *now = sap->boxes.data;
    for (int x = 0; x < n; x++) {
        uint32_t p = e0[x].data >> 1;
        if ((e0[x].data & 1u) || !leaves(sap, p, i, j, k)) continue;
        gone++;
        for (int y = 0; y < n; y++) {
            uint32_t q = e0[y].data >> 1;
            if ((e0[y].data & 1u) || q == p || both_static(sap, p, q)) continue;
            if (boxes_overlap(&old[p], &old[q]) && !boxes_overlap(&now[p], &now[q]))
                record(sap, item, COL_SAP_EV_REMOVE | (uint64_t)p << 32 | q);
        }
    }
    if (gone == 0) return;
    for (int a = 0; a < 3; a++) {
        col_sap_ep *ep = cell_ep(sap, cell, a);
        int m = 0;
        for (int x = 0; x < n; x++)
            if (!leaves(sap, ep[x].data >> 1, i, j, k)) ep[m++] = ep[x];
    }
    cell->count = n - 2 * gone;
}

/* The first index in ep[0, n) whose endpoint comes after e in the incremental order (so e
 * goes after every equal key, as a stable insertion would put it). */
static int upper_bound(const col_sap_ep *ep, int n, const col_sap_ep *e)
{
    int lo = 0, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (ep_less(e, &ep[mid])) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

/* Proxy p joins cell c (whose arrays are sorted by the final boxes, with room reserved):
 * its pairs with the members whose final boxes overlap its own are added (an add of a
 * pair already in the set changes nothing), then its endpoints are inserted in order. */
static void join_cell(col_sap *sap, col_sap_cell *cell, uint32_t p, col_sap_item *item)
{
    int n = cell->count;
    const col_sap_ep *e0 = cell_ep(sap, cell, 0);
    const col_sap_fbox *now = sap->boxes.data;
    for (int y = 0; y < n; y++) {
        uint32_t q = e0[y].data >> 1;
        if ((e0[y].data & 1u) || both_static(sap, p, q)) continue;
        if (boxes_overlap(&now[p], &now[q])) record(sap, item, (uint64_t)p << 32 | q);
    }
    for (int a = 0; a < 3; a++) {
        col_sap_ep *ep = cell_ep(sap, cell, a);
        for (uint32_t kind = 0; kind < 2; kind++) {
            col_sap_ep e = {now[p].lim[kind][a], p << 1 | kind};
            int at = upper_bound(ep, n + (int)kind, &e);
            memmove(ep + at + 1, ep + at, (size_t)(n + (int)kind - at) * sizeof *ep);
            ep[at] = e;
        }
    }
    cell->count = n + 2;
}

/* Items [begin, end) = blocks of sap->cells_per_item cells: in each cell, the leaving
 * members go, the values of the rest are refreshed from the final boxes and each axis is
 * insertion-sorted (if anything moved), then the joiners come in. Each cell belongs to
 * one item and its events go to that item's list; a proxy's box, flags and ranges are
 * only read here. */
static void cell_items(int begin, int end, int worker_index, void *arg)
{
    (void)worker_index;
    col_sap *sap = arg;
    for (int it = begin; it < end; it++) {
        col_sap_item *item = &sap->items.data[it];
        int c1 = (it + 1) * sap->cells_per_item < sap->ncells ? (it + 1) * sap->cells_per_item : sap->ncells;
        for (int c = it * sap->cells_per_item; c < c1; c++) {
            col_sap_cell *cell = &sap->cells[c];
            int j0 = sap->join_start[c], j1 = sap->join_start[c + 1];
            if (cell->count == 0 && j0 == j1) continue;
            int i, j, k;
            cell_coords(sap, c, &i, &j, &k);
            if (sap->moved) {
                leave_cell(sap, cell, i, j, k, item);
                for (int a = 0; a < 3; a++) {
                    col_sap_ep *ep = cell_ep(sap, cell, a);
                    int n = cell->count;
                    for (int x = 0; x < n; x++) {
                        uint32_t d = ep[x].data;
                        ep[x].value = ep_value(&sap->boxes.data[d >> 1], a, d & 1u);
                    }
                    sort_range(sap, ep, n, item);
                }
            }
            for (int x = j0; x < j1; x++) join_cell(sap, cell, sap->joins.data[x], item);
        }
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
    if (ev != 0) col_pair_set_prefetch(sap->pairs, (uint32_t)(ev >> 32) & 0x7fffffffu, (uint32_t)ev, level);
}

/* Applies every item's events, in item order. Returns -1 if a pair could not be added
 * (the rest still applies; the caller marks the set stale). */
static int apply_events(col_sap *sap, int items, col_sap_pair_removed_fn removed, void *ctx)
{
    int rc = 0;
    col_sap_cursor cur = {-1, -1, 0}, far = cur, near = cur;
    for (int d = 0; d < COL_SAP_PREFETCH_FAR; d++) prefetch_event(sap, cursor_next(sap, &far, items), 0);
    for (int d = 0; d < COL_SAP_PREFETCH_NEAR; d++) (void)cursor_next(sap, &near, items);
    for (uint64_t ev; (ev = cursor_next(sap, &cur, items)) != 0;) {
        prefetch_event(sap, cursor_next(sap, &far, items), 0);
        prefetch_event(sap, cursor_next(sap, &near, items), 1);
        uint32_t p = (uint32_t)(ev >> 32) & 0x7fffffffu, q = (uint32_t)ev;
        if (!(ev & COL_SAP_EV_REMOVE)) {
            if (col_pair_set_add(sap->pairs, p, q) < 0) rc = -1;
        } else {
            uint32_t user;
            if (col_pair_set_remove(sap->pairs, p, q, &user) == 1) report(removed, ctx, p, q, user);
        }
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
    for (int c = 0; c < sap->ncells; c++) short_of_room |= sap->cells[c].count + 2 * start[c + 1] > sap->cells[c].cap;
    if (short_of_room) {
        if (col_int_array_reserve(sap->alloc, &sap->need, sap->ncells) != 0) return -1;
        for (int c = 0; c < sap->ncells; c++) sap->need.data[c] = sap->cells[c].count + 2 * start[c + 1];
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

/* Drops every pair of a REMOVING proxy (one pass over the records), then their endpoints
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
        int n = 0;
        for (int a = 0; a < 3; a++) {
            col_sap_ep *ep = cell_ep(sap, &sap->cells[c], a);
            int m = sap->cells[c].count;
            n = 0;
            for (int x = 0; x < m; x++)
                if (state_of(sap, ep[x].data >> 1) != COL_SAP_REMOVING) ep[n++] = ep[x];
        }
        sap->cells[c].count = n;
    }
    for (int p = 0; p < sap->nslots; p++)
        if (state_of(sap, (uint32_t)p) == COL_SAP_REMOVING) sap->info.data[p] = 0;
    sap->removing = 0;
}

/* ---- full rebuild ---- */

/* Bottom-up merge sort by ep_total_less, runs of 16 by insertion sort first. */
static void sort_total(col_sap_ep *a, col_sap_ep *tmp, size_t n)
{
    const size_t run = 16;
    for (size_t lo = 0; lo < n; lo += run) {
        size_t hi = lo + run < n ? lo + run : n;
        for (size_t i = lo + 1; i < hi; i++) {
            col_sap_ep e = a[i];
            size_t j = i;
            while (j > lo && ep_total_less(&e, &a[j - 1])) {
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
            while (i < mid && j < hi) dst[o++] = ep_total_less(&src[j], &src[i]) ? src[j++] : src[i++];
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
 * fewer boxes are active at once there, so the sweep tests fewer candidates. */
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

/* The rebuild's sweep: every cell's sorted endpoints on the sweep axis, the other two axes
 * tested on the fly; a pair found clears its record's doom mark or is added. Returns -1 if
 * an add failed (the set is then stale). */
static int sweep_cells(col_sap *sap)
{
    int rc = 0;
    int s0 = sweep_axis(sap), s1 = (s0 + 1) % 3, s2 = (s0 + 2) % 3;
    col_sap_active *act = sap->active.data;
    for (int c = 0; c < sap->ncells; c++) {
        const col_sap_ep *ep = cell_ep(sap, &sap->cells[c], s0);
        int m = sap->cells[c].count, na = 0;
        for (int i = 0; i < m; i++) {
            uint32_t p = ep[i].data >> 1;
            if (ep[i].data & 1u) {
                /* Leaves the active list (swap-remove). */
                int at = sap->active_pos.data[p];
                act[at] = act[--na];
                sap->active_pos.data[act[at].p] = at;
                continue;
            }
            /* Every active q has q.min <= p.min <= q.max on the sweep axis (min before max
             * at ties): test the other two. */
            const col_sap_fbox *bp = &sap->boxes.data[p];
            col_sap_active me = {bp->lim[0][s1], bp->lim[1][s1], bp->lim[0][s2], bp->lim[1][s2], p,
                                 (sap->info.data[p] & COL_SAP_STATIC) != 0};
            /* This loop is the rebuild's cost (the members times the active count, per
             * cell). Bitwise & of the four tests: each alone is a coin flip for the branch
             * predictor, while their conjunction is almost always false (about 1.5x faster
             * than && measured). */
            for (int j = 0; j < na; j++) {
                const col_sap_active *q = &act[j];
                int hit = (q->lo1 <= me.hi1) & (me.lo1 <= q->hi1) & (q->lo2 <= me.hi2) & (me.lo2 <= q->hi2);
                if (!hit || (me.is_static && q->is_static)) continue;
                col_bp_pair *r = col_pair_set_find(sap->pairs, p, q->p);
                if (r != NULL) r->mark = 0;
                else if (col_pair_set_add(sap->pairs, p, q->p) < 0) rc = -1;
            }
            sap->active_pos.data[p] = na;
            act[na++] = me;
        }
        assert(na == 0);
    }
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
    for (int c = 0; c < ncells; c++) {
        count[c] *= 2; /* endpoints per axis */
        if (count[c] > most) most = count[c];
    }
    if (relayout(sap, count) != 0) return -1;
    /* The incremental path's scratch, sized here so that a warm scene's frames do not
     * allocate it: gather_joins' need per cell, and room for the joins of a quarter of
     * the proxies at once. */
    if (col_int_array_reserve(sap->alloc, &sap->need, ncells) != 0) return -1;
    if (col_u32_array_reserve(sap->alloc, &sap->joins, n / 4) != 0) return -1;
    if (col_sap_ep_array_reserve(sap->alloc, &sap->scratch, most) != 0) return -1;
    if (col_sap_active_array_reserve(sap->alloc, &sap->active, most / 2) != 0) return -1;

    /* The queued proxies join; every LIVE proxy enters its cells, in proxy order. */
    for (int p = 0; p < sap->nslots; p++)
        if (state_of(sap, (uint32_t)p) == COL_SAP_INSERTING) set_state(sap, (uint32_t)p, COL_SAP_LIVE);
    clear_queue(sap);
    for (int p = 0; p < sap->nslots; p++) {
        if (state_of(sap, (uint32_t)p) != COL_SAP_LIVE) continue;
        const col_sap_fbox *b = &sap->boxes.data[p];
        const col_sap_range *r = &sap->range.data[p];
        COL_SAP_FOR_CELLS(sap, r, c, {
            col_sap_cell *cell = &sap->cells[c];
            for (int a = 0; a < 3; a++) {
                col_sap_ep *ep = cell_ep(sap, cell, a) + cell->count;
                ep[0].value = b->lim[0][a];
                ep[0].data = (uint32_t)p << 1;
                ep[1].value = b->lim[1][a];
                ep[1].data = (uint32_t)p << 1 | 1u;
            }
            cell->count += 2;
        })
    }
    for (int c = 0; c < ncells; c++)
        for (int a = 0; a < 3; a++) sort_total(cell_ep(sap, &sap->cells[c], a), sap->scratch.data, (size_t)sap->cells[c].count);
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
    for (int it = 0; it < items; it++) {
        sap->items.data[it].first = sap->items.data[it].last = -1;
        sap->items.data[it].overflow = 0;
    }
    atomic_store_explicit(&sap->chunks_used, 0, memory_order_relaxed);
    run_items(sap, cell_items, sap, items);
    int overflow = 0;
    for (int it = 0; it < items; it++) overflow |= sap->items.data[it].overflow;
    if (overflow) {
        /* More events than the pool holds (a burst of moves): nothing was applied yet,
         * so rebuild from the final boxes, then grow the pool. */
        int used = atomic_load_explicit(&sap->chunks_used, memory_order_relaxed);
        int rc = rebuild(sap, removed, ctx);
        reserve_pass(sap, 2 * (used > sap->event_chunk_cap ? used : sap->event_chunk_cap));
        return rc;
    }
    int rc = apply_events(sap, items, removed, ctx);
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
    for (int c = 0; c < sap->ncells; c++) m += sap->cells[c].count / 2;
    *memberships = m;
}
