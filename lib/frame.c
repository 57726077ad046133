/* SPDX-License-Identifier: MIT */
/* col_world_update: one frame, flowing one way (STYLE.md, "The house"):
 *   1. bounds of the bodies moved since the last update are refreshed (lib/);
 *   2. the broad phase applies moves, inserts and removals (broadphase/sap.c);
 *   3. everything the pair loop may need is reserved, so nothing below can fail;
 *   4. the pair loop hands each candidate pair to the chosen backend (narrowphase/),
 *      reusing the last answer when neither body moved since it was given;
 *   5. the colliding pairs are sorted by body index and diffed against the previous
 *      list into began/ended events (as I-COLLIDE and V-COLLIDE report them).
 * A failure in 2 or 3 returns COL_ERR_OUT_OF_MEMORY with the previous results kept and
 * the moves still pending, so the update can simply be retried. */
#include <stdlib.h>
#include <string.h>

#include "broadphase/sap.h"
#include "lib/world.h"

static void on_pair_removed(void *ctx, uint32_t a, uint32_t b, uint32_t user)
{
    (void)a;
    (void)b;
    if (user != COL_PAIR_NO_USER) col_pair_cache_release((col_world *)ctx, user);
}

static int reserve_pairs(col_world *w, col_pair **arr, int *cap, int need)
{
    void *p = *arr;
    int r = col_array_reserve(&w->alloc, &p, cap, need, sizeof(col_pair));
    *arr = p;
    return r;
}

static int pair_cmp(const void *x, const void *y)
{
    const col_pair *p = x, *q = y;
    if (p->a.index1 != q->a.index1) return p->a.index1 < q->a.index1 ? -1 : 1;
    if (p->b.index1 != q->b.index1) return p->b.index1 < q->b.index1 ? -1 : 1;
    return 0;
}

/* Total order used by the event diff: indices first (the list order), then generations,
 * so a pair whose slot was reused by a new body counts as a different pair. */
static int pair_cmp_full(const col_pair *p, const col_pair *q)
{
    int c = pair_cmp(p, q);
    if (c != 0) return c;
    if (p->a.generation != q->a.generation) return p->a.generation < q->a.generation ? -1 : 1;
    if (p->b.generation != q->b.generation) return p->b.generation < q->b.generation ? -1 : 1;
    return 0;
}

static bool filter_ok(const col_body_rec *a, const col_body_rec *b)
{
    return (a->group & b->mask) != 0 && (b->group & a->mask) != 0;
}

col_status col_world_update(col_world *world)
{
    if (world == NULL) return COL_ERR_INVALID_ARGUMENT;
    col_world *w = world;
    uint64_t calls_before = w->alloc.calls;

    /* 1. bounds of moved bodies */
    for (int k = 0; k < w->dirty_count; k++) {
        uint32_t s = w->dirty_list[k];
        if (!w->body_ids.live[s]) continue;
        col_body_rec *b = &w->bodies[s];
        if (b->moved_frame != w->frame + 1) b->prev_xf = b->xf; /* not on a retried update */
        b->xf = col_xform_from_transform(b->pose);
        b->moved_frame = w->frame + 1;
        col_aabb box;
        col_world_hull_aabb(&w->shapes[b->shape].hull, &b->xf, &box);
        col_sap_move(w->sap, s, &box);
    }

    /* 2. broad phase */
    if (col_sap_update(w->sap, on_pair_removed, w) != 0)
        return col_world_fail(w, COL_ERR_OUT_OF_MEMORY, "col_world_update: out of memory in the broad phase");

    /* 3. reservations: at most one slot and one colliding pair per candidate pair */
    int nrec = 0;
    col_bp_pair *rec = col_pair_set_records(col_sap_pair_set(w->sap), &nrec);
    int next = 1 - w->cur;
    if (col_pair_cache_reserve(w, nrec) != 0 || reserve_pairs(w, &w->pairs[next], &w->pair_cap[next], nrec) != 0 ||
        reserve_pairs(w, &w->began, &w->began_cap, nrec) != 0 ||
        reserve_pairs(w, &w->ended, &w->ended_cap, w->pair_count[w->cur]) != 0)
        return col_world_fail(w, COL_ERR_OUT_OF_MEMORY, "col_world_update: out of memory for %d pairs", nrec);

    /* 4. pair loop */
    uint64_t frame = w->frame + 1;
    col_pair *out = w->pairs[next];
    int nout = 0, calls = 0;
    const col_np_backend *be = w->backend;
    for (int i = 0; i < nrec; i++) {
        col_bp_pair *r = &rec[i];
        const col_body_rec *A = &w->bodies[r->a], *B = &w->bodies[r->b];
        if (!filter_ok(A, B)) continue;
        if (w->disabled_count > 0 && col_pair_filter_is_disabled(w, r->a, r->b)) continue;
        const col_hull *ha = &w->shapes[A->shape].hull, *hb = &w->shapes[B->shape].hull;
        if (r->user == COL_PAIR_NO_USER) {
            r->user = col_pair_cache_acquire(w);
            be->cache_init(col_pair_cache_backend_data(w, r->user), ha, hb);
        }
        col_pair_slot *slot = col_pair_cache_slot(w, r->user);
        /* An answer from the previous frame still holds if neither pose changed. */
        if (!(slot->tested_frame == frame - 1 && slot->tested_frame != 0 && !A->dirty && !B->dirty)) {
            col_np_result res;
            be->query(col_pair_cache_backend_data(w, r->user), ha, &A->xf, hb, &B->xf, &w->scratch, &res);
            slot->colliding = res.colliding ? 1 : 0;
            calls++;
        }
        slot->tested_frame = frame;
        if (slot->colliding) {
            out[nout].a = col_world_body_id(w, r->a);
            out[nout].b = col_world_body_id(w, r->b);
            nout++;
        }
    }

    /* 5. sorted list and events. Indices are unique within a list, so the order is total
     * and qsort's instability cannot show. */
    if (nout > 1) qsort(out, (size_t)nout, sizeof *out, pair_cmp);
    const col_pair *prev = w->pairs[w->cur];
    int nprev = w->pair_count[w->cur], x = 0, y = 0;
    w->began_count = w->ended_count = 0;
    while (x < nprev || y < nout) {
        int c = x == nprev ? 1 : y == nout ? -1 : pair_cmp_full(&prev[x], &out[y]);
        if (c == 0) {
            x++;
            y++;
        } else if (c < 0) {
            w->ended[w->ended_count++] = prev[x++];
        } else {
            w->began[w->began_count++] = out[y++];
        }
    }
    w->pair_count[next] = nout;
    w->cur = next;

    for (int k = 0; k < w->dirty_count; k++) w->bodies[w->dirty_list[k]].dirty = 0;
    w->dirty_count = 0;
    col_id_pool_release_deferred(&w->body_ids);
    w->frame = frame;

    col_counters *c = &w->counters;
    c->broadphase_pairs = nrec;
    c->narrow_calls = calls;
    c->colliding_pairs = nout;
    c->began = w->began_count;
    c->ended = w->ended_count;
    c->alloc_calls = (int)(w->alloc.calls - calls_before);
    return COL_OK;
}
