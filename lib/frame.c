/* SPDX-License-Identifier: MIT */
/* col_world_update: one frame, flowing one way (docs/architecture.md, "Floors"):
 *   1. bounds of the bodies moved since the last update are refreshed (lib/) and handed
 *      to the broad phase, in parallel, each body to its own proxy;
 *   2. the broad phase applies moves, inserts and removals (broadphase/sap.c), its
 *      sort passes on the workers (col_sap_set_runner), its pair set on this thread;
 *   3. everything the pair loop may need is reserved, so nothing below can fail;
 *   4. the pair loop hands each candidate pair to the chosen backend (narrowphase/),
 *      reusing the last answer when neither body moved since it was given; it runs in
 *      parallel (col_parallel_for), each record's answer going to its own result byte;
 *   5. the colliding pairs are gathered in record order, sorted by body index and
 *      diffed against the previous list into began/ended events (as I-COLLIDE and
 *      V-COLLIDE report them).
 * Determinism (docs/architecture.md, "Determinism and memory"): a parallel step writes only per-item data (a body and
 * its proxy's box, a record's slot and result byte) and per-worker counters; everything
 * shared is done by the calling thread in item order (slot acquisition, gathering),
 * and the counters are integer sums. So the pair list, the events, the counters and the
 * pair-cache contents are the same for every worker count and every schedule.
 * A failure before 4 returns COL_ERR_OUT_OF_MEMORY with the previous results kept and
 * the moves still pending, so the update can simply be retried. */
#include <stdlib.h>
#include <string.h>

#include "broadphase/sap.h"
#include "lib/continuous.h"
#include "lib/interframe.h"
#include "lib/schedule.h"
#include "lib/shape_pair.h"
#include "lib/time_critical.h"
#include "narrowphase/certify.h"
#include "narrowphase/mesh_collide.h"
#include "lib/world.h"

static void on_pair_removed(void *ctx, uint32_t a, uint32_t b, uint32_t user)
{
    (void)a;
    (void)b;
    if (user == COL_PAIR_NO_USER) return;
    col_world *w = ctx;
    col_sleep_wheel_remove(&w->sleep_queue, user); /* a pair leaving the broad phase leaves the queue */
    col_pair_cache_release(&w->pair_cache, user);
}

/* Sorts n keys (slot_a << bits | slot_b, each slot below 2^bits) with an LSD radix sort
 * of 11-bit digits through tmp; a few thousand colliding pairs a frame sort in tens of
 * microseconds this way, about a tenth of qsort's time with a comparison callback, and
 * this step runs on the calling thread alone (docs/threads.md). Keys are distinct, so
 * the order is total. */
#define COL_RADIX_BITS 11
static void sort_keys(uint64_t *keys, uint64_t *tmp, int n, int bits)
{
    if (n < 2) return;
    if (n <= 32) {
        for (int i = 1; i < n; i++) {
            uint64_t k = keys[i];
            int j = i;
            for (; j > 0 && keys[j - 1] > k; j--) keys[j] = keys[j - 1];
            keys[j] = k;
        }
        return;
    }
    uint64_t *src = keys, *dst = tmp;
    int count[1 << COL_RADIX_BITS];
    for (int shift = 0; shift < 2 * bits; shift += COL_RADIX_BITS) {
        memset(count, 0, sizeof count);
        for (int i = 0; i < n; i++) count[(src[i] >> shift) & ((1u << COL_RADIX_BITS) - 1)]++;
        int sum = 0;
        for (int d = 0; d < (1 << COL_RADIX_BITS); d++) {
            int c = count[d];
            count[d] = sum;
            sum += c;
        }
        for (int i = 0; i < n; i++) dst[count[(src[i] >> shift) & ((1u << COL_RADIX_BITS) - 1)]++] = src[i];
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != keys) memcpy(keys, src, (size_t)n * sizeof *keys);
}

/* Bits needed for every body slot of the world. */
static int slot_bits(const col_world *w)
{
    int bits = 1;
    while (bits < 32 && ((uint32_t)w->body_cap >> bits) != 0) bits++;
    return bits;
}

/* Work items below which a step stays on the calling thread, and the smallest block a
 * worker claims: waking a worker costs microseconds, a box refresh tens of nanoseconds
 * and a narrow-phase query about a microsecond. */
#define COL_BOUNDS_MIN_RANGE 512
#define COL_PAIRS_MIN_RANGE 64
#define COL_PAIRS_PREFETCH 8
/* Hull pairs with more vertices than this (either hull) also try the boxes against the
 * balls before the backend (ball_rejects). */
#define COL_BALL_BOX_MIN_VERTICES 32

/* Per-record result bytes of the pair loop, a set of bits: HIT: colliding; WANTS_SLOT: a
 * candidate without a cache slot, to get one before the second pass; SLEPT: put to sleep
 * now, to be queued; ASLEEP: skipped while asleep; WOKE: woken before its frame by a
 * trip. */
enum { PAIR_SKIP = 0, PAIR_HIT = 1, PAIR_WANTS_SLOT = 2, PAIR_SLEPT = 4, PAIR_ASLEEP = 8, PAIR_WOKE = 16 };

typedef struct frame_ctx {
    col_world *w;
    col_bp_pair *rec;
    uint8_t *result;
    const int *fresh; /* the second pass's records (slots taken this frame), in order */
    uint64_t frame;
    bool ttc; /* COL_SCHEDULE_TTC: separated pairs may sleep */
    double tc_deadline; /* the time-critical mode's frame budget ends (0: none; docs/adb.md) */
} frame_ctx;

/* Step 1, items [begin, end) of the dirty list: each body's pose, box and move frame are
 * its own, so workers share nothing. */
static void bounds_range(int begin, int end, int worker_index, void *ctx)
{
    (void)worker_index;
    const frame_ctx *f = ctx;
    col_world *w = f->w;
    for (int k = begin; k < end; k++) {
        uint32_t s = w->dirty_list[k];
        if (!w->body_ids.live[s]) continue;
        col_body_rec *b = &w->bodies[s];
        col_xform prev_xf; /* not kept in the record (lib/world.h) */
        if (b->moved_frame != f->frame) { /* not on a retried update */
            prev_xf = b->xf;
            b->prev_i = b->upd_i;
            b->motion_bound_prev = b->motion_bound;
        } else {
            prev_xf = col_xform_from_transform(*col_body_prev_pose(b));
        }
        b->upd_i = b->set_i; /* the pose ring (lib/world.h): indices move, poses stay */
        b->xf = col_xform_from_transform(b->poses[b->set_i]);
        b->moved_frame = f->frame;
        /* The motion since the last update against the bound the body was armed with: a
         * body that moved farther (a teleport, a speed-up) trips, which wakes its sleeping
         * pairs in this frame's pair loop (lib/schedule.h). Declared speeds floor the bound. */
        bool tripped = false;
        double r = w->shapes[b->shape].radius;
        double mu = col_motion_bound(&prev_xf, &b->xf, r);
        double d = !(b->max_linear_speed >= 0.0) ? 0.0 /* undeclared: col_motion_declared's 0, without the call */
                   : col_motion_declared(b->max_linear_speed, b->max_angular_speed, r,
                                         col_max_abs(prev_xf.p) + col_max_abs(b->xf.p));
        b->motion_bound = col_motion_rearm(b->motion_bound_prev, mu, d, &tripped);
        if (tripped) b->tripped_frame = f->frame;
        /* The broad phase holds a fat box (I-COLLIDE's fixed-size cube plus a margin) and
         * sees a move only when the tight box leaves it: turning never does, and a slow
         * body moves its endpoints once in several frames instead of every frame. */
        const col_shape_rec *sr = &w->shapes[b->shape];
        col_world_shape_aabb(sr, &b->xf, &w->hot[s].box);
        col_aabb fat; /* the broad phase's box, as it rounded it outward to floats */
        if (!col_sap_box(w->sap, s, &fat) || !col_aabb_contains(&fat, &w->hot[s].box)) {
            col_world_fat_aabb(sr, &b->xf, &w->hot[s].box, w->def.broadphase_margin, &fat);
            col_sap_move_concurrent(w->sap, s, &fat);
        }
    }
}

/* Two hulls whose balls about their bodies' origins are proven disjoint
 * (narrowphase/certify.h: col_np_ball_gap) are separated without the backend's query: a
 * few flops against a query of about 0.3 us (docs/sepvec.md, "Balls first"). The ball's
 * gap is smaller than the hulls' own, so such a pair may sleep fewer frames under the TTC
 * schedule; the backend's cache keeps its older direction. */
static bool ball_rejects(const col_body_rec *A, const col_body_rec *B, const col_hull *ha, const col_hull *hb,
                         col_np_result *res)
{
    col_vec3 axis;
    double g = col_np_ball_gap(ha->radius, &A->xf, hb->radius, &B->xf, &axis);
    /* The boxes only where a query is dear (measured: docs/sepvec.md, "Balls first"). */
    bool dear = ha->vertex_count > COL_BALL_BOX_MIN_VERTICES || hb->vertex_count > COL_BALL_BOX_MIN_VERTICES;
    if (!(g > 0.0) && dear) g = col_np_box_ball_gap(ha, &A->xf, hb->radius, &B->xf, &axis);
    if (!(g > 0.0) && dear) {
        g = col_np_box_ball_gap(hb, &B->xf, ha->radius, &A->xf, &axis);
        axis = col_neg(axis); /* B's box against A's ball: the axis pointed from B to A */
    }
    if (!(g > 0.0)) return false;
    res->colliding = false;
    res->axis = axis;
    res->gap = g;
    res->iterations = 0;
    res->fallbacks = 0;
    return true;
}

/* Step 4 for record i, a candidate with a cache slot (fresh: taken this frame, its backend
 * cache still to be initialised). A record owns its cache slot and its result byte, and
 * the worker owns its scratch, so nothing here is shared. Returns the result bits. */
static uint8_t test_record(const frame_ctx *f, col_worker_ctx *worker, const col_bp_pair *r, bool fresh)
{
    const col_world *w = f->w;
    const col_np_backend *be = w->backend;
    const col_body_rec *A = &w->bodies[r->a], *B = &w->bodies[r->b];
    const col_shape_rec *ra = &w->shapes[A->shape], *rb = &w->shapes[B->shape];
    /* Only a pair of single hulls uses the backend's cache (lib/shape_pair.h). */
    bool hulls = ra->is_hull && rb->is_hull;
    const col_hull *ha = &ra->hull, *hb = &rb->hull;
    col_pair_slot *slot = col_pair_cache_slot(&w->pair_cache, r->user);
    void *cache = col_pair_cache_backend_data(&w->pair_cache, r->user);
    uint8_t out = PAIR_SKIP;
    /* A pair back among the candidates after frames out of them starts over, as a new
     * pair would: its cached coherence data (a separating axis, closest features) is from
     * poses long gone, and measured on cw500 a fresh start certifies larger gaps (the
     * pair sleeps longer: 62 242 narrow calls instead of 65 688 with sepvec). */
    /* A pair with a mesh keeps its last witness triangles there instead (lib/shape_pair.h). */
    bool mesh = !hulls && col_shape_pair_is_mesh(ra->geom, rb->geom);
    if (fresh || slot->seen_frame + 1 < f->frame) {
        if (hulls) be->cache_init(cache, ha, hb);
        else if (mesh) col_mesh_cache_init(cache);
    }
    slot->seen_frame = f->frame;
    /* A sleeping pair is separated until its wake frame unless a body moved farther than
     * the bound the pair was put to sleep with (a trip) since that test, in this frame or
     * in one where the pair was not a candidate (lib/schedule.h). */
    if (slot->asleep) {
        if (A->tripped_frame <= slot->tested_frame && B->tripped_frame <= slot->tested_frame) return PAIR_ASLEEP;
        slot->asleep = 0;
        out |= PAIR_WOKE;
    }
    /* An answer from the previous frame still holds if neither pose changed. */
    if (!(slot->tested_frame == f->frame - 1 && slot->tested_frame != 0 && !w->dirty[r->a] && !w->dirty[r->b])) {
        col_np_result res;
        /* Hull pairs, the common case, straight to the backend (lib/shape_pair.h says the
         * same; measured: the general path cost cw500 5 % a frame). */
        slot->estimated = 0;
        if (hulls) {
            if (!ball_rejects(A, B, ha, hb, &res))
                col_np_query(be, cache, ha, ra->np_data, &A->xf, hb, rb->np_data, &B->xf, &worker->scratch, &res);
        } else if (mesh && col_time_critical_applies(w, ra, rb))
            col_time_critical_test(w, ra, &A->xf, rb, &B->xf, f->tc_deadline, cache, &res, slot);
        else
            col_shape_pair_query(be, mesh ? cache : NULL, ra->geom, &A->xf, rb->geom, &B->xf, &worker->scratch, &res);
        slot->colliding = res.colliding ? 1 : 0;
        worker->narrow_calls++;
        if (w->narrow_observer != NULL && hulls) {
            col_narrow_event ev = {r->a, r->b, r->user, ha, hb, &A->xf, &B->xf, res.colliding};
            w->narrow_observer(w->narrow_observer_ctx, &ev);
        }
        /* Separated by a certified gap: no test until the two bodies, each moving at most
         * its armed bound per frame, could have closed it (Lin's survey section 7.1,
         * I-COLLIDE, Mirtich's Impulse). Colliding pairs, and pairs too close for one
         * frame, are tested every frame. */
        if (f->ttc && !res.colliding) {
            double margin = col_sleep_margin(ra->radius, rb->radius, A->xf.p, B->xf.p);
            uint32_t k = col_sleep_frames(res.gap, margin, A->motion_bound, B->motion_bound);
            if (k > 0) {
                slot->asleep = 1;
                slot->wake_frame = f->frame + k + 1;
                out |= PAIR_SLEPT;
            }
        }
    }
    slot->tested_frame = f->frame;
    if (slot->colliding) out |= PAIR_HIT;
    return out;
}

/* Whether a broad-phase record is a candidate this frame: tight boxes overlap (the broad
 * phase holds fat ones; those count as the frame's broad-phase pairs), filters pass, not
 * disabled. */
static bool candidate(const col_world *w, const col_bp_pair *r, col_worker_ctx *worker)
{
    const col_body_hot *a = &w->hot[r->a], *b = &w->hot[r->b];
    if (!col_aabb_overlap(&a->box, &b->box)) return false;
    worker->box_pairs++;
    if ((a->group & b->mask) == 0 || (b->group & a->mask) == 0) return false;
    return !(w->disabled.keys.count > 0 && col_pair_filter_is_disabled(w, r->a, r->b));
}

/* Step 4, first pass, records [begin, end): candidates with a slot are tested; those
 * without one are marked to get one. The tight boxes come first and from their own
 * array: most records that fail, fail there, without touching bodies or slots. */
static void pairs_range(int begin, int end, int worker_index, void *ctx)
{
    const frame_ctx *f = ctx;
    col_worker_ctx *worker = &f->w->workers[worker_index];
    const col_body_hot *hot = f->w->hot;
    for (int i = begin; i < end; i++) {
        /* The records name bodies in no order: ask for the boxes a few records ahead. */
        if (i + COL_PAIRS_PREFETCH < end) {
            __builtin_prefetch(&hot[f->rec[i + COL_PAIRS_PREFETCH].a]);
            __builtin_prefetch(&hot[f->rec[i + COL_PAIRS_PREFETCH].b]);
        }
        const col_bp_pair *r = &f->rec[i];
        uint8_t out = PAIR_SKIP;
        if (candidate(f->w, r, worker)) out = r->user == COL_PAIR_NO_USER ? PAIR_WANTS_SLOT : test_record(f, worker, r, false);
        f->result[i] = out;
    }
}

/* Step 4, second pass, items [begin, end) of the fresh list. */
static void fresh_range(int begin, int end, int worker_index, void *ctx)
{
    const frame_ctx *f = ctx;
    col_worker_ctx *worker = &f->w->workers[worker_index];
    for (int k = begin; k < end; k++) {
        int i = f->fresh[k];
        f->result[i] = test_record(f, worker, &f->rec[i], true);
    }
}

/* Records per block of the gathering pass (fixed, so the blocks do not depend on the
 * worker count; their lists are joined in block order anyway). */
#define COL_GATHER_BLOCK 2048

typedef struct gather_ctx {
    const col_bp_pair *rec;
    const uint8_t *result;
    uint64_t *keys; /* block b's hit keys from keys[b * COL_GATHER_BLOCK] */
    int *slept;     /* block b's newly sleeping records from slept[b * COL_GATHER_BLOCK] */
    int *counts;    /* per block: hits, newly sleeping, sleeping, woken early */
    int nrec, bits;
} gather_ctx;

/* Step 4's gathering, blocks [begin, end): each writes only its own parts. */
static void gather_range(int begin, int end, int worker_index, void *ctx)
{
    (void)worker_index;
    const gather_ctx *g = ctx;
    for (int blk = begin; blk < end; blk++) {
        int lo = blk * COL_GATHER_BLOCK, hi = g->nrec - lo > COL_GATHER_BLOCK ? lo + COL_GATHER_BLOCK : g->nrec;
        int hits = 0, slept = 0, sleeping = 0, woken = 0;
        for (int i = lo; i < hi; i++) {
            uint8_t r = g->result[i];
            if (r == PAIR_SKIP) continue;
            if (r & PAIR_SLEPT) g->slept[lo + slept++] = i;
            sleeping += (r & (PAIR_SLEPT | PAIR_ASLEEP)) != 0;
            woken += (r & PAIR_WOKE) != 0;
            if (!(r & PAIR_HIT)) continue;
            uint32_t a = g->rec[i].a < g->rec[i].b ? g->rec[i].a : g->rec[i].b, b = g->rec[i].a ^ g->rec[i].b ^ a;
            g->keys[lo + hits++] = (uint64_t)a << g->bits | b;
        }
        int *c = &g->counts[4 * blk];
        c[0] = hits;
        c[1] = slept;
        c[2] = sleeping;
        c[3] = woken;
    }
}

/* Step 1: bounds of moved bodies, in parallel: each body writes its own record and its
 * own broad-phase proxy (col_sap_move_concurrent). */
static void refresh_bounds(col_world *w, frame_ctx *fc)
{
    col_parallel_for(w, bounds_range, w->dirty_count, COL_BOUNDS_MIN_RANGE, fc);
    if (w->dirty_count > 0) col_sap_note_moves(w->sap);
}

/* The frame's scratch arrays, from the frame arena. */
typedef struct frame_scratch {
    uint8_t *result;     /* one result byte per record */
    int *fresh;          /* the records given slots, then the gathering's newly sleeping ones */
    int *gather_counts;  /* 4 per gathering block */
    uint64_t *keys;      /* 2 per record: the hits' sort keys and the radix sort's buffer */
} frame_scratch;

/* Step 3: everything steps 4 and 5 may need, so nothing below can fail: the scratch,
 * at most one slot and one colliding pair per record, and the inter-frame candidates
 * (lib/interframe.c) on request. */
static col_status reserve_frame(col_world *w, int nrec, frame_scratch *fs)
{
    int nblocks = (nrec + COL_GATHER_BLOCK - 1) / COL_GATHER_BLOCK;
    const size_t sizes[4] = {(size_t)nrec, (size_t)nrec * sizeof(int), (size_t)nblocks * 4 * sizeof(int),
                             (size_t)nrec * 2 * sizeof(uint64_t)};
    if (col_arena_reserve(&w->alloc, &w->frame_arena, sizes, 4) != 0 ||
        col_pair_cache_reserve(&w->pair_cache, &w->alloc, nrec) != 0 ||
        col_results_reserve(&w->results, &w->alloc, nrec) != 0 ||
        col_sleep_wheel_reserve(&w->sleep_queue, &w->alloc, w->pair_cache.cap) != 0)
        return col_world_fail(w, COL_ERR_OUT_OF_MEMORY, "col_world_update: out of memory for %d pairs", nrec);
    fs->result = col_arena_take(&w->frame_arena, sizes[0]);
    fs->fresh = col_arena_take(&w->frame_arena, sizes[1]);
    fs->gather_counts = col_arena_take(&w->frame_arena, sizes[2]);
    fs->keys = col_arena_take(&w->frame_arena, sizes[3]);
    if (w->def.report_interframe && col_interframe_prepare(w) != COL_OK)
        return col_world_fail(w, COL_ERR_OUT_OF_MEMORY, "col_world_update: out of memory for inter-frame pairs");
    if (col_continuous_prepare(w) != COL_OK)
        return col_world_fail(w, COL_ERR_OUT_OF_MEMORY, "col_world_update: out of memory for continuous pairs");
    return COL_OK;
}

/* Step 4: the pair loop. Sleeping pairs whose frame has come are due again (the sleep
 * wheel). A parallel pass tests the candidates that have a cache slot and marks those
 * that need one; this thread then hands out slots in record order (the free list is
 * shared state, and record order makes every slot number independent of the worker
 * count); a second parallel pass tests those. Counts the narrow-phase calls and the
 * broad-phase pairs into c. */
static void test_pairs(col_world *w, frame_ctx *fc, int nrec, int *fresh, col_counters *c)
{
    uint32_t due;
    while (col_sleep_wheel_pop_due(&w->sleep_queue, fc->frame, &due))
        col_pair_cache_slot(&w->pair_cache, due)->asleep = 0;
    for (int k = 0; k < w->worker_count; k++) w->workers[k].narrow_calls = w->workers[k].box_pairs = 0;
    col_parallel_for(w, pairs_range, nrec, COL_PAIRS_MIN_RANGE, fc);
    int nfresh = 0;
    for (int i = 0; i < nrec; i++) {
        if (fc->result[i] != PAIR_WANTS_SLOT) continue;
        fc->rec[i].user = col_pair_cache_acquire(&w->pair_cache);
        fresh[nfresh++] = i;
    }
    col_parallel_for(w, fresh_range, nfresh, COL_PAIRS_MIN_RANGE, fc);
    c->narrow_calls = c->broadphase_pairs = 0;
    for (int k = 0; k < w->worker_count; k++) {
        c->narrow_calls += w->workers[k].narrow_calls;
        c->broadphase_pairs += w->workers[k].box_pairs;
    }
}

/* Step 4's gathering: blocks of records in parallel, each listing its hits' keys and its
 * newly sleeping records in its own part of the buffers; then this thread joins the
 * lists in block order and queues the sleepers (the wheel is shared), so everything
 * stays in record order. Returns the number of hits, their keys first in fs->keys;
 * counts the sleeping and woken pairs into c. */
static int gather(col_world *w, const frame_ctx *fc, int nrec, int bits, const frame_scratch *fs, col_counters *c)
{
    int nout = 0, nblocks = (nrec + COL_GATHER_BLOCK - 1) / COL_GATHER_BLOCK;
    gather_ctx gc = {fc->rec, fc->result, fs->keys, fs->fresh, fs->gather_counts, nrec, bits};
    col_parallel_for(w, gather_range, nblocks, 2, &gc);
    c->sleeping_pairs = c->woken_early = 0;
    for (int blk = 0; blk < nblocks; blk++) {
        const int *n = &fs->gather_counts[4 * blk], lo = blk * COL_GATHER_BLOCK;
        if (nout != lo) memmove(fs->keys + nout, fs->keys + lo, (size_t)n[0] * sizeof *fs->keys);
        nout += n[0];
        for (int j = 0; j < n[1]; j++) {
            uint32_t user = fc->rec[fs->fresh[lo + j]].user;
            col_sleep_wheel_set(&w->sleep_queue, user, col_pair_cache_slot(&w->pair_cache, user)->wake_frame);
        }
        c->sleeping_pairs += n[2];
        c->woken_early += n[3];
    }
    return nout;
}

/* Step 5: the sorted list and the events. Slots are unique among live bodies, so
 * sorting by slot pair is sorting by (a.index1, b.index1), a total order. The keys'
 * second half (nrec of them) is the sort's buffer. */
static void publish(col_world *w, uint64_t *keys, int nout, int nrec, int bits)
{
    /* keys is NULL while no update has had a pair record: even keys + 0 is undefined
     * then (C11 6.5.6p8), so the sort is only reached with keys to sort. */
    if (nout > 1) sort_keys(keys, keys + nrec, nout, bits);
    col_pair_array *out = col_results_next(&w->results);
    for (int k = 0; k < nout; k++) {
        out->data[k] = col_world_pair_of(w, (uint32_t)(keys[k] >> bits), (uint32_t)(keys[k] & ((UINT64_C(1) << bits) - 1)));
    }
    out->count = nout;
    col_results_publish(&w->results);
    if (w->def.report_interframe) col_interframe_finish(w); /* needs the new list */
    col_continuous_finish(w);                                /* needs both lists */
}

/* The frame is done: moves are consumed, ids of bodies removed during it may be reused. */
static void end_frame(col_world *w, uint64_t frame)
{
    for (int k = 0; k < w->dirty_count; k++) w->dirty[w->dirty_list[k]] = 0;
    w->dirty_count = 0;
    col_id_pool_release_deferred(&w->body_ids);
    w->frame = frame;
}

col_status col_world_update(col_world *world)
{
    if (world == NULL) return COL_ERR_INVALID_ARGUMENT;
    col_world *w = world;
    col_world_begin_call(w);
    uint64_t calls_before = w->alloc.calls;
    frame_ctx fc = {.w = w, .frame = w->frame + 1, .ttc = w->def.schedule == COL_SCHEDULE_TTC};
    if (w->def.time_critical.enabled && w->def.time_critical.frame_budget > 0)
        fc.tc_deadline = col_time_critical_now() + w->def.time_critical.frame_budget;

    refresh_bounds(w, &fc); /* 1 */
    if (col_sap_update(w->sap, on_pair_removed, w) != 0) /* 2 */
        return col_world_fail(w, COL_ERR_OUT_OF_MEMORY, "col_world_update: out of memory in the broad phase");
    int nrec = 0;
    fc.rec = col_pair_set_records(col_sap_pair_set(w->sap), &nrec);
    frame_scratch fs = {NULL, NULL, NULL, NULL};
    col_status st = reserve_frame(w, nrec, &fs); /* 3 */
    if (st != COL_OK) return st;

    col_counters c = w->counters;
    fc.result = fs.result;
    fc.fresh = fs.fresh;
    test_pairs(w, &fc, nrec, fs.fresh, &c); /* 4 */
    int bits = slot_bits(w);
    int nout = gather(w, &fc, nrec, bits, &fs, &c);
    publish(w, fs.keys, nout, nrec, bits); /* 5 */
    end_frame(w, fc.frame);

    c.colliding_pairs = nout;
    c.began = w->results.began.count;
    c.ended = w->results.ended.count;
    c.alloc_calls = (int)(w->alloc.calls - calls_before);
    w->counters = c;
    return COL_OK;
}
