/* SPDX-License-Identifier: MIT */
/* The world's continuous mode (continuous.h; docs/ccd.md, "World mode").
 *
 * Candidates. The world holds two poses per body: at the previous update and at this
 * one; between them a body moves by the model of docs/ccd.md. Every live body's swept
 * box (ccd/swept_box.h: the join of its boxes at both poses widened by the rotation
 * bulge) holds it at every instant, so two bodies can have touched only if their swept
 * boxes meet: a sort-and-sweep on x over all live bodies' swept boxes finds those pairs,
 * and the ones with at least one continuous body, passing the frame's filters, are the
 * candidates. A separate sweep rather than the broad phase's: the broad phase keeps fat
 * boxes of the current poses only, and this one runs only while some body is
 * continuous, so the discrete mode pays nothing for it.
 *
 * Decisions. The discrete lists are exact at s = 0 and s = 1: a pair in the previous
 * update's list touched at 0 (no search; only its contact is computed). Any other
 * candidate gets the time of impact of ccd/toi.h (exact decisions at the instants it
 * looks at, never late); the two exact tests may differ within rounding of touching, so
 * a pair it calls apart that this update's list holds is reported at 1. The continuous
 * list thus holds both lists' pairs of continuous bodies. Pairs with a mesh get C2A's time
 * of impact (ccd/c2a.h) the same way (it answers s = 0 itself when they touch at 0).
 *
 * Determinism. Candidates come from the sweep over boxes sorted by (x, slot), each is
 * decided alone into its own record, and the hits are sorted by slot pair: the list is
 * the same for any worker count. Arrays grow only in the prepare step and never shrink:
 * a warm scene makes no allocator call. */
#include "lib/continuous.h"

#include <stdlib.h>
#include <string.h>

#include "ccd/c2a.h"
#include "ccd/swept_box.h"
#include "ccd/toi.h"
#include "lib/parallel.h"
#include "lib/world.h"

/* Smallest block of candidates a worker claims (a time of impact costs microseconds). */
#define CC_MIN_RANGE 8

typedef struct cc_box {
    double lo[3], hi[3];
    uint32_t slot;
} cc_box;

typedef struct cc_cand {
    uint32_t a, b; /* body slots, a < b */
} cc_cand;

typedef struct cc_rec {
    col_continuous_pair out;
    uint8_t hit;
} cc_rec;

COL_ARRAY_DEFINE(cc_box_array, cc_box)
COL_ARRAY_DEFINE(cc_cand_array, cc_cand)
COL_ARRAY_DEFINE(cc_rec_array, cc_rec)
COL_ARRAY_DEFINE(cc_pair_array, col_continuous_pair)

struct col_continuous_state {
    uint64_t frame; /* the update prepared */
    int prepared;
    int published;  /* out[cur] holds a finished list */
    cc_box_array boxes;
    cc_cand_array cand;
    cc_rec_array rec;
    cc_pair_array out[2];
    int cur;
};

typedef struct col_continuous_state col_continuous_state;

void col_continuous_destroy(col_world *w)
{
    col_continuous_state *st = w->continuous;
    if (st == NULL) return;
    cc_box_array_free(&w->alloc, &st->boxes);
    cc_cand_array_free(&w->alloc, &st->cand);
    cc_rec_array_free(&w->alloc, &st->rec);
    for (int k = 0; k < 2; k++) cc_pair_array_free(&w->alloc, &st->out[k]);
    col_free_bytes(&w->alloc, st, sizeof *st);
    w->continuous = NULL;
}

void col_continuous_events(const col_world *w, const col_continuous_pair **pairs, int *count)
{
    const col_continuous_state *st = w->continuous;
    *pairs = NULL;
    *count = 0;
    if (st == NULL || !st->published) return;
    *pairs = st->out[st->cur].data;
    *count = st->out[st->cur].count;
}

/* Body slot s's poses at the update before update number frame and at frame (while or
 * after that update is built). */
static void cc_poses(const col_world *w, uint32_t s, uint64_t frame, col_transform *x0, col_transform *x1)
{
    const col_body_rec *b = &w->bodies[s];
    *x1 = *col_body_upd_pose(b);
    *x0 = b->moved_frame == frame && frame != 0 ? *col_body_prev_pose(b) : *x1;
}

static int cc_box_cmp(const void *x, const void *y)
{
    const cc_box *p = x, *q = y;
    if (p->lo[0] != q->lo[0]) return p->lo[0] < q->lo[0] ? -1 : 1;
    return p->slot < q->slot ? -1 : p->slot > q->slot ? 1 : 0;
}

static bool cc_wanted(const col_world *w, uint32_t i, uint32_t j)
{
    const col_body_rec *A = &w->bodies[i], *B = &w->bodies[j];
    if (!A->continuous && !B->continuous) return false;
    if (A->is_static && B->is_static) return false;
    const col_body_hot *ha = &w->hot[i], *hb = &w->hot[j];
    if ((ha->group & hb->mask) == 0 || (hb->group & ha->mask) == 0) return false;
    uint32_t sa = i < j ? i : j, sb = i ^ j ^ sa;
    return w->disabled.keys.count == 0 || !col_pair_filter_is_disabled(w, sa, sb);
}

/* The swept boxes of every live body, sorted by (lo.x, slot). */
static int cc_sweep_boxes(col_world *w, col_continuous_state *st, uint64_t frame)
{
    int high = w->body_ids.high_water, n = 0;
    if (cc_box_array_reserve(&w->alloc, &st->boxes, high) != 0) return -1;
    for (int s = 0; s < high; s++) {
        if (!w->body_ids.live[s]) continue;
        const col_body_rec *b = &w->bodies[s];
        cc_box *o = &st->boxes.data[n++];
        o->slot = (uint32_t)s;
        col_transform x0, x1;
        cc_poses(w, (uint32_t)s, frame, &x0, &x1);
        col_xform f0 = col_xform_from_transform(x0), f1 = col_xform_from_transform(x1);
        col_swept_box(w->shapes[b->shape].geom, &f0, &f1, o->lo, o->hi);
    }
    if (n > 1) qsort(st->boxes.data, (size_t)n, sizeof(cc_box), cc_box_cmp);
    return n;
}

col_status col_continuous_prepare(col_world *w)
{
    col_continuous_state *st = w->continuous;
    if (st != NULL) st->prepared = 0;
    if (w->continuous_count == 0) {
        if (st != NULL) st->published = 0; /* the list of this update is empty */
        return COL_OK;
    }
    if (st == NULL) {
        st = w->continuous = col_alloc_zeroed(&w->alloc, 1, sizeof(col_continuous_state));
        if (st == NULL) return COL_ERR_OUT_OF_MEMORY;
    }
    uint64_t frame = w->frame + 1;
    int nbox = cc_sweep_boxes(w, st, frame);
    if (nbox < 0) return COL_ERR_OUT_OF_MEMORY;
    st->cand.count = 0;
    for (int i = 0; i < nbox; i++) {
        const cc_box *bi = &st->boxes.data[i];
        for (int j = i + 1; j < nbox && st->boxes.data[j].lo[0] <= bi->hi[0]; j++) {
            const cc_box *bj = &st->boxes.data[j];
            if (bj->lo[1] > bi->hi[1] || bi->lo[1] > bj->hi[1] || bj->lo[2] > bi->hi[2] || bi->lo[2] > bj->hi[2])
                continue;
            if (!cc_wanted(w, bi->slot, bj->slot)) continue;
            uint32_t sa = bi->slot < bj->slot ? bi->slot : bj->slot, sb = bi->slot ^ bj->slot ^ sa;
            if (cc_cand_array_push(&w->alloc, &st->cand, (cc_cand){sa, sb}) != 0) return COL_ERR_OUT_OF_MEMORY;
        }
    }
    if (cc_rec_array_reserve(&w->alloc, &st->rec, st->cand.count) != 0 ||
        cc_pair_array_reserve(&w->alloc, &st->out[1 - st->cur], st->cand.count) != 0)
        return COL_ERR_OUT_OF_MEMORY;
    st->frame = frame;
    st->prepared = 1;
    return COL_OK;
}

/* A mesh pair's contact at instant s as C2A reports it for both bodies at rest at the
 * given poses (its s = 0 when they touch there). The discrete list decided that they
 * touch; should C2A's exact leaf decisions disagree within rounding, the contact is given
 * along the line of the origins. */
static void cc_mesh_contact_at(const col_geometry *ga, col_transform xa, const col_geometry *gb, col_transform xb,
                               double s, col_toi_result *t)
{
    col_toi_motion ma, mb;
    col_toi_motion_init(&ma, xa, xa);
    col_toi_motion_init(&mb, xb, xb);
    col_c2a_toi(ga, &ma, gb, &mb, NULL, t, NULL);
    if (!t->hit) {
        col_vec3 d = col_sub(xb.p, xa.p);
        double l = col_len(d);
        t->hit = true;
        t->normal = l > 0.0 ? col_scale(d, 1.0 / l) : col_v3(0.0, 0.0, 1.0);
        t->point_a = xa.p;
        t->point_b = xb.p;
    }
    t->s = s;
}

typedef struct cc_ctx {
    const col_world *w;
    col_continuous_state *st;
} cc_ctx;

/* One candidate: s = 0 if the previous update listed the pair, else the time of impact,
 * or s = 1 if this update lists it (the two exact tests may differ within rounding of
 * touching). */
static void cc_decide(const col_world *w, const col_continuous_state *st, const cc_cand *c, cc_rec *r)
{
    const col_body_rec *A = &w->bodies[c->a], *B = &w->bodies[c->b];
    const col_geometry *ga = w->shapes[A->shape].geom, *gb = w->shapes[B->shape].geom;
    memset(r, 0, sizeof *r);
    r->out.pair = col_world_pair_of(w, c->a, c->b);
    col_transform a0, a1, b0, b1;
    cc_poses(w, c->a, st->frame, &a0, &a1);
    cc_poses(w, c->b, st->frame, &b0, &b1);
    col_toi_motion ma, mb;
    col_toi_motion_init(&ma, a0, a1);
    col_toi_motion_init(&mb, b0, b1);
    /* Touching at the previous update (its exact list says so): s = 0 without a search. */
    const col_pair_array *now = col_results_current(&w->results), *before = col_results_previous(&w->results);
    const col_body_id ia = r->out.pair.a, ib = r->out.pair.b;
    col_toi_result t;
    if (col_geometry_is_mesh(ga) || col_geometry_is_mesh(gb)) {
        /* C2A (ccd/c2a.h); the contact at 0 or 1 as C2A's answer for a body at rest there */
        if (col_pair_list_contains(before->data, before->count, ia, ib, true)) {
            cc_mesh_contact_at(ga, a0, gb, b0, 0.0, &t);
        } else {
            col_c2a_toi(ga, &ma, gb, &mb, NULL, &t, NULL);
            if (!t.hit) {
                if (!col_pair_list_contains(now->data, now->count, ia, ib, false)) return;
                cc_mesh_contact_at(ga, ma.x1, gb, mb.x1, 1.0, &t);
            }
        }
    } else if (col_pair_list_contains(before->data, before->count, ia, ib, true)) {
        col_toi_contact_at(ga, &ma, gb, &mb, 0.0, &t);
    } else {
        col_toi_convex(ga, &ma, gb, &mb, &t);
        if (!t.hit) {
            if (!col_pair_list_contains(now->data, now->count, ia, ib, false)) return;
            col_toi_contact_at(ga, &ma, gb, &mb, 1.0, &t); /* touching now within rounding */
        }
    }
    r->hit = 1;
    r->out.s = t.s;
    r->out.normal = t.normal;
    r->out.point_a = t.point_a;
    r->out.point_b = t.point_b;
}

static void cc_range(int begin, int end, int worker_index, void *ctx)
{
    (void)worker_index;
    const cc_ctx *c = ctx;
    for (int i = begin; i < end; i++) cc_decide(c->w, c->st, &c->st->cand.data[i], &c->st->rec.data[i]);
}

static int cc_pair_cmp(const void *x, const void *y)
{
    const col_continuous_pair *p = x, *q = y;
    if (p->pair.a.index1 != q->pair.a.index1) return p->pair.a.index1 < q->pair.a.index1 ? -1 : 1;
    if (p->pair.b.index1 != q->pair.b.index1) return p->pair.b.index1 < q->pair.b.index1 ? -1 : 1;
    return 0;
}

void col_continuous_finish(col_world *w)
{
    col_continuous_state *st = w->continuous;
    if (st == NULL || !st->prepared) return;
    cc_ctx c = {w, st};
    col_parallel_for(w, cc_range, st->cand.count, CC_MIN_RANGE, &c);
    int next = 1 - st->cur, n = 0;
    col_continuous_pair *out = st->out[next].data;
    for (int i = 0; i < st->cand.count; i++)
        if (st->rec.data[i].hit) out[n++] = st->rec.data[i].out;
    /* Slots are unique within the list: the order is total. */
    if (n > 1) qsort(out, (size_t)n, sizeof *out, cc_pair_cmp);
    st->out[next].count = n;
    st->cur = next;
    st->prepared = 0;
    st->published = 1;
}
