/* SPDX-License-Identifier: MIT */
/* Inter-frame contacts: col_query_interframe and the world option report_interframe
 * (interframe.h). The decision is ccd/swept.h's swept test: the time of impact of the
 * pair under the motion model of docs/ccd.md (each body's position linear and its
 * orientation slerped on the shorter arc between its poses at two updates), exact for
 * every kind of shape pair. The world knows two poses per body, so that motion is all it
 * can assume; anything else (a bounce inside the frame) is outside what it can see. */
#include "lib/interframe.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ccd/swept.h"
#include "ccd/swept_box.h"
#include "lib/parallel.h"
#include "lib/world.h"

/* Smallest block of candidate pairs a worker claims (a swept test costs microseconds). */
#define IF_MIN_RANGE 16

typedef struct if_box {
    double lo[3], hi[3];
    uint32_t slot;
} if_box;

typedef struct if_cand {
    uint32_t a, b; /* body slots, a < b */
} if_cand;

COL_ARRAY_DEFINE(if_box_array, if_box)
COL_ARRAY_DEFINE(if_cand_array, if_cand)

struct col_interframe_state {
    uint64_t frame;      /* the update prepared (its number once committed) */
    int prepared;
    if_box_array boxes;
    if_cand_array cand;
    col_u8_array hit;     /* per candidate: the finishing step's answer */
    col_pair_array out[2]; /* out[cur]: the last finished list */
    int cur;
};

typedef struct col_interframe_state col_interframe_state;

static col_interframe_state *if_state(col_world *w)
{
    if (w->interframe == NULL) w->interframe = col_alloc_zeroed(&w->alloc, 1, sizeof(col_interframe_state));
    return w->interframe;
}

void col_interframe_destroy(col_world *w)
{
    col_interframe_state *st = w->interframe;
    if (st == NULL) return;
    if_box_array_free(&w->alloc, &st->boxes);
    if_cand_array_free(&w->alloc, &st->cand);
    col_u8_array_free(&w->alloc, &st->hit);
    for (int k = 0; k < 2; k++) col_pair_array_free(&w->alloc, &st->out[k]);
    col_free_bytes(&w->alloc, st, sizeof *st);
    w->interframe = NULL;
}

void col_interframe_events(const col_world *w, const col_pair **pairs, int *count)
{
    const col_interframe_state *st = w->interframe;
    *pairs = NULL;
    *count = 0;
    if (st == NULL || !w->def.report_interframe) return;
    *pairs = st->out[st->cur].data;
    *count = st->out[st->cur].count;
}

/* The swept test of body slots sa and sb from their poses at the update before update
 * number frame to those at frame (the quaternions as set: lib/world.h's col_body_upd_pose). */
static void if_swept(const col_world *w, uint32_t sa, uint32_t sb, uint64_t frame, col_ccd_swept_result *out)
{
    const col_body_rec *A = &w->bodies[sa], *B = &w->bodies[sb];
    col_transform a1 = *col_body_upd_pose(A), b1 = *col_body_upd_pose(B);
    col_transform a0 = A->moved_frame == frame && frame != 0 ? *col_body_prev_pose(A) : a1;
    col_transform b0 = B->moved_frame == frame && frame != 0 ? *col_body_prev_pose(B) : b1;
    col_ccd_swept(w->shapes[A->shape].geom, a0, a1, w->shapes[B->shape].geom, b0, b1, out);
}

static int if_box_cmp(const void *x, const void *y)
{
    const if_box *p = x, *q = y;
    if (p->lo[0] != q->lo[0]) return p->lo[0] < q->lo[0] ? -1 : 1;
    return p->slot < q->slot ? -1 : p->slot > q->slot ? 1 : 0;
}

static bool if_filter_ok(const col_body_hot *a, const col_body_hot *b)
{
    return (a->group & b->mask) != 0 && (b->group & a->mask) != 0;
}

col_status col_interframe_prepare(col_world *w)
{
    col_interframe_state *st = if_state(w);
    if (st == NULL) return COL_ERR_OUT_OF_MEMORY;
    st->prepared = 0;
    uint64_t frame = w->frame + 1;
    int high = w->body_ids.high_water;
    if (if_box_array_reserve(&w->alloc, &st->boxes, high) != 0) return COL_ERR_OUT_OF_MEMORY;

    /* Swept boxes (ccd/swept_box.h). */
    int nbox = 0;
    for (int s = 0; s < high; s++) {
        if (!w->body_ids.live[s]) continue;
        const col_body_rec *b = &w->bodies[s];
        if_box *o = &st->boxes.data[nbox++];
        o->slot = (uint32_t)s;
        col_xform prev = col_world_body_prev_xf(w, (uint32_t)s, frame);
        col_swept_box(w->shapes[b->shape].geom, &prev, &b->xf, o->lo, o->hi);
    }
    if (nbox > 1) qsort(st->boxes.data, (size_t)nbox, sizeof(if_box), if_box_cmp);

    /* Sort and sweep on x (touching boxes overlap, as in the broad phase). */
    st->cand.count = 0;
    for (int i = 0; i < nbox; i++) {
        const if_box *bi = &st->boxes.data[i];
        const col_body_rec *A = &w->bodies[bi->slot];
        for (int j = i + 1; j < nbox && st->boxes.data[j].lo[0] <= bi->hi[0]; j++) {
            const if_box *bj = &st->boxes.data[j];
            if (bj->lo[1] > bi->hi[1] || bi->lo[1] > bj->hi[1] || bj->lo[2] > bi->hi[2] || bi->lo[2] > bj->hi[2])
                continue;
            const col_body_rec *B = &w->bodies[bj->slot];
            if ((A->is_static && B->is_static) || !if_filter_ok(&w->hot[bi->slot], &w->hot[bj->slot])) continue;
            uint32_t sa = bi->slot < bj->slot ? bi->slot : bj->slot, sb = bi->slot ^ bj->slot ^ sa;
            if (w->disabled.keys.count > 0 && col_pair_filter_is_disabled(w, sa, sb)) continue;
            if (if_cand_array_push(&w->alloc, &st->cand, (if_cand){sa, sb}) != 0) return COL_ERR_OUT_OF_MEMORY;
        }
    }

    /* Everything the finishing step writes. */
    int next = 1 - st->cur;
    if (col_u8_array_reserve(&w->alloc, &st->hit, st->cand.count) != 0 ||
        col_pair_array_reserve(&w->alloc, &st->out[next], st->cand.count) != 0)
        return COL_ERR_OUT_OF_MEMORY;
    st->frame = frame;
    st->prepared = 1;
    return COL_OK;
}

typedef struct if_ctx {
    const col_world *w;
    col_interframe_state *st;
} if_ctx;

/* Candidates [begin, end): each writes only its own hit byte (the swept test needs no
 * scratch). */
static void if_range(int begin, int end, int worker_index, void *ctx)
{
    (void)worker_index;
    const if_ctx *c = ctx;
    const col_world *w = c->w;
    col_interframe_state *st = c->st;
    const col_pair_array *cur = col_results_current(&w->results), *prev = col_results_previous(&w->results);
    const col_pair *now = cur->data, *before = prev->data;
    int nnow = cur->count, nbefore = prev->count;
    for (int i = begin; i < end; i++) {
        uint32_t sa = st->cand.data[i].a, sb = st->cand.data[i].b;
        col_body_id ia = col_world_body_id(w, sa), ib = col_world_body_id(w, sb);
        uint8_t hit = 1;
        /* Pairs of either update's exact list touched at s = 0 or 1: in without a search
         * (the two exact tests may differ within rounding of touching). */
        if (!col_pair_list_contains(now, nnow, ia, ib, false) && !col_pair_list_contains(before, nbefore, ia, ib, true)) {
            col_ccd_swept_result res;
            if_swept(w, sa, sb, st->frame, &res);
            hit = res.touched ? 1 : 0;
        }
        st->hit.data[i] = hit;
    }
}

static int if_pair_cmp(const void *x, const void *y)
{
    const col_pair *p = x, *q = y;
    if (p->a.index1 != q->a.index1) return p->a.index1 < q->a.index1 ? -1 : 1;
    if (p->b.index1 != q->b.index1) return p->b.index1 < q->b.index1 ? -1 : 1;
    return 0;
}

void col_interframe_finish(col_world *w)
{
    col_interframe_state *st = w->interframe;
    if (st == NULL || !st->prepared) return;
    if_ctx c = {w, st};
    col_parallel_for(w, if_range, st->cand.count, IF_MIN_RANGE, &c);
    int next = 1 - st->cur, n = 0;
    col_pair *out = st->out[next].data;
    for (int i = 0; i < st->cand.count; i++) {
        if (!st->hit.data[i]) continue;
        out[n++] = col_world_pair_of(w, st->cand.data[i].a, st->cand.data[i].b);
    }
    /* Indices are unique within the list: the order is total. */
    if (n > 1) qsort(out, (size_t)n, sizeof *out, if_pair_cmp);
    st->out[next].count = n;
    st->cur = next;
    st->prepared = 0;
}

col_status col_query_interframe(const col_world *world, col_body_id a, col_body_id b, col_interframe_result *out)
{
    if (world == NULL || out == NULL)
        return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "col_query_interframe: NULL argument");
    col_status s = col_world_check_body(world, a, "col_query_interframe");
    if (s == COL_OK) s = col_world_check_body(world, b, "col_query_interframe");
    if (s != COL_OK) return s;
    if (a.index1 == b.index1)
        return col_world_fail(world, COL_ERR_SAME_BODY, "col_query_interframe: a pair needs two different bodies");
    col_ccd_swept_result res;
    if_swept(world, a.index1 - 1, b.index1 - 1, world->frame, &res);
    out->may_have_touched = res.touched;
    out->exact = res.certain;
    out->inflation = 0.0;
    return COL_OK;
}
