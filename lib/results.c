/* SPDX-License-Identifier: MIT */
#include "lib/results.h"

int col_results_reserve(col_results *r, col_alloc *a, int max_pairs)
{
    if (col_pair_array_reserve(a, col_results_next(r), max_pairs) != 0) return -1;
    if (col_pair_array_reserve(a, &r->began, max_pairs) != 0) return -1;
    return col_pair_array_reserve(a, &r->ended, r->lists[r->cur].count);
}

static int pair_cmp(const col_pair *p, const col_pair *q)
{
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

void col_results_publish(col_results *r)
{
    const col_pair_array *prev = &r->lists[r->cur], *out = col_results_next(r);
    int x = 0, y = 0;
    r->began.count = r->ended.count = 0;
    while (x < prev->count || y < out->count) {
        int c = x == prev->count ? 1 : y == out->count ? -1 : pair_cmp_full(&prev->data[x], &out->data[y]);
        if (c == 0) {
            x++;
            y++;
        } else if (c < 0) {
            r->ended.data[r->ended.count++] = prev->data[x++];
        } else {
            r->began.data[r->began.count++] = out->data[y++];
        }
    }
    r->cur = 1 - r->cur;
}

void col_results_destroy(col_results *r, col_alloc *a)
{
    for (int k = 0; k < 2; k++) col_pair_array_free(a, &r->lists[k]);
    col_pair_array_free(a, &r->began);
    col_pair_array_free(a, &r->ended);
    r->cur = 0;
}

bool col_pair_list_contains(const col_pair *list, int n, col_body_id a, col_body_id b, bool gen)
{
    int lo = 0, hi = n - 1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        const col_pair *q = &list[mid];
        int c = q->a.index1 != a.index1 ? (q->a.index1 < a.index1 ? -1 : 1)
                : q->b.index1 != b.index1 ? (q->b.index1 < b.index1 ? -1 : 1)
                                          : 0;
        if (c == 0) return !gen || (q->a.generation == a.generation && q->b.generation == b.generation);
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return false;
}
