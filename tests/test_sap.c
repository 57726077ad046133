/* SPDX-License-Identifier: MIT */
/* Broad phase: the pair set (broadphase/pair_set.c) and sweep and prune
 * (broadphase/sap.c), checked against brute-force all-pairs box overlap.
 * Oracles: after every update the pair set must equal the set of pairs (not both static)
 * whose closed boxes, rounded outward to floats as the SAP holds them (col_sap_round_box),
 * overlap on all three axes, and the removed-callback must have
 * been called exactly once for each pair that left, with the user value it carried (a
 * shadow map of pair -> user, with a fresh user stamped on every new record). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "broadphase/pair_set.h"
#include "broadphase/sap.h"
#include "lib/core/alloc.h"
#include "tests/test_util.h"

/* ---- the counting (and failing) allocator of tests/test_util.h ---- */

static void init_alloc(col_alloc *a, counting_alloc *c)
{
    memset(c, 0, sizeof *c);
    col_allocator hooks = counting_hooks(c);
    col_alloc_init(a, &hooks);
}

/* ---- random numbers: tests/test_util.h's splitmix64 ---- */

static uint32_t rng_below(uint32_t n) { return (uint32_t)(rng_next() % n); }
static bool rng_chance(double p) { return urand() < p; }

/* ---- shadow map: pair key -> user (open addressing, backward-shift deletion) ---- */

typedef struct shadow {
    uint64_t *keys; /* 0 = empty; real keys have a < b, so never 0 */
    uint32_t *vals;
    size_t mask, count;
} shadow;

static uint64_t key_of(uint32_t a, uint32_t b)
{
    return a < b ? (uint64_t)a << 32 | b : (uint64_t)b << 32 | a;
}

static size_t shadow_home(const shadow *s, uint64_t k)
{
    k ^= k >> 31;
    k *= 0x9e3779b97f4a7c15ULL;
    return (size_t)(k >> 20) & s->mask;
}

static void shadow_init(shadow *s, size_t cap_pow2)
{
    s->keys = calloc(cap_pow2, sizeof *s->keys);
    s->vals = calloc(cap_pow2, sizeof *s->vals);
    assert_non_null(s->keys);
    assert_non_null(s->vals);
    s->mask = cap_pow2 - 1;
    s->count = 0;
}

static void shadow_free(shadow *s)
{
    free(s->keys);
    free(s->vals);
}

static size_t shadow_slot(const shadow *s, uint64_t k)
{
    size_t i = shadow_home(s, k);
    while (s->keys[i] != 0 && s->keys[i] != k) i = (i + 1) & s->mask;
    return i;
}

static bool shadow_get(const shadow *s, uint64_t k, uint32_t *v)
{
    size_t i = shadow_slot(s, k);
    if (s->keys[i] == 0) return false;
    if (v != NULL) *v = s->vals[i];
    return true;
}

static void shadow_put(shadow *s, uint64_t k, uint32_t v)
{
    size_t i = shadow_slot(s, k);
    if (s->keys[i] == 0) {
        s->count++;
        assert_true(s->count * 2 <= s->mask + 1);
    }
    s->keys[i] = k;
    s->vals[i] = v;
}

static bool shadow_erase(shadow *s, uint64_t k)
{
    size_t i = shadow_slot(s, k);
    if (s->keys[i] == 0) return false;
    s->keys[i] = 0;
    s->count--;
    /* Backward shift: pull later members of the probe run into the hole. */
    for (size_t j = (i + 1) & s->mask; s->keys[j] != 0; j = (j + 1) & s->mask) {
        size_t h = shadow_home(s, s->keys[j]);
        bool movable = i <= j ? (h <= i || h > j) : (h <= i && h > j);
        if (movable) {
            s->keys[i] = s->keys[j];
            s->vals[i] = s->vals[j];
            s->keys[j] = 0;
            i = j;
        }
    }
    return true;
}

/* ---- pair set unit tests ---- */

static void test_pair_set_basic(void **state)
{
    (void)state;
    col_alloc a;
    counting_alloc c;
    init_alloc(&a, &c);
    col_pair_set *set = col_pair_set_create(&a);
    assert_non_null(set);

    assert_int_equal(col_pair_set_add(set, 3, 1), 1);
    assert_int_equal(col_pair_set_add(set, 1, 3), 0);
    assert_int_equal(col_pair_set_add(set, 5, 2), 1);
    assert_int_equal(col_pair_set_add(set, 4, 7), 1);
    assert_int_equal(col_pair_set_count(set), 3);

    col_bp_pair *p = col_pair_set_find(set, 3, 1);
    assert_non_null(p);
    assert_int_equal(p->a, 1);
    assert_int_equal(p->b, 3);
    assert_int_equal(p->user, COL_PAIR_NO_USER);
    p->user = 100;
    col_pair_set_find(set, 2, 5)->user = 200;
    col_pair_set_find(set, 7, 4)->user = 300;
    assert_null(col_pair_set_find(set, 1, 2));
    assert_null(col_pair_set_find(set, 1, 1));

    /* Records in the order of the adds. */
    int n;
    col_bp_pair *r = col_pair_set_records(set, &n);
    assert_int_equal(n, 3);
    assert_int_equal(r[0].user, 100);
    assert_int_equal(r[1].user, 200);
    assert_int_equal(r[2].user, 300);

    /* Swap-remove: the last record moves into the hole, keeping its user value. */
    uint32_t user = 0;
    assert_int_equal(col_pair_set_remove(set, 1, 3, &user), 1);
    assert_int_equal(user, 100);
    assert_int_equal(col_pair_set_remove(set, 1, 3, &user), 0);
    r = col_pair_set_records(set, &n);
    assert_int_equal(n, 2);
    assert_int_equal(r[0].a, 4);
    assert_int_equal(r[0].b, 7);
    assert_int_equal(r[0].user, 300);
    assert_int_equal(col_pair_set_find(set, 4, 7)->user, 300);
    assert_int_equal(col_pair_set_find(set, 2, 5)->user, 200);

    col_pair_set_remove_at(set, 0);
    assert_int_equal(col_pair_set_count(set), 1);
    assert_null(col_pair_set_find(set, 4, 7));
    assert_int_equal(col_pair_set_find(set, 5, 2)->user, 200);
    col_pair_set_remove_at(set, 0);
    assert_int_equal(col_pair_set_count(set), 0);

    /* Empty, then used again. */
    assert_int_equal(col_pair_set_add(set, 0, UINT32_MAX), 1);
    assert_non_null(col_pair_set_find(set, UINT32_MAX, 0));

    col_pair_set_destroy(set);
    assert_int_equal(a.bytes, 0);
    assert_int_equal(c.allocs, c.frees);
}

/* Random adds and removes against the shadow map; user values must follow their pairs
 * through every swap-remove. */
static void test_pair_set_random(void **state)
{
    (void)state;
    rng_seed(0x5eed0001ULL, "pair_set_random");
    col_alloc a;
    counting_alloc c;
    init_alloc(&a, &c);
    col_pair_set *set = col_pair_set_create(&a);
    assert_non_null(set);
    shadow sh;
    shadow_init(&sh, 1u << 16);
    uint32_t next_user = 1;
    for (int step = 0; step < 60000; step++) {
        uint32_t x = rng_below(300), y = rng_below(300);
        if (x == y) continue;
        uint64_t k = key_of(x, y);
        int op = (int)rng_below(10);
        if (op < 5) {
            int rc = col_pair_set_add(set, x, y);
            assert_int_equal(rc, shadow_get(&sh, k, NULL) ? 0 : 1);
            if (rc == 1) {
                col_bp_pair *p = col_pair_set_find(set, y, x);
                assert_non_null(p);
                p->user = next_user;
                shadow_put(&sh, k, next_user++);
            }
        } else if (op < 8) {
            uint32_t user = 0, want = 0;
            bool present = shadow_get(&sh, k, &want);
            assert_int_equal(col_pair_set_remove(set, x, y, &user), present ? 1 : 0);
            if (present) {
                assert_int_equal(user, want);
                shadow_erase(&sh, k);
            }
        } else if (op < 9) {
            int n;
            col_bp_pair *r = col_pair_set_records(set, &n);
            if (n > 0) {
                int i = (int)rng_below((uint32_t)n);
                uint32_t want = 0;
                assert_true(shadow_get(&sh, key_of(r[i].a, r[i].b), &want));
                assert_int_equal(r[i].user, want);
                shadow_erase(&sh, key_of(r[i].a, r[i].b));
                col_pair_set_remove_at(set, i);
            }
        } else if (rng_chance(0.01)) {
            /* Empty the set completely now and then (uthash would free its table). */
            while (col_pair_set_count(set) > 0) {
                int n;
                col_bp_pair *r = col_pair_set_records(set, &n);
                shadow_erase(&sh, key_of(r[n - 1].a, r[n - 1].b));
                col_pair_set_remove_at(set, n - 1);
            }
        }
        assert_int_equal((size_t)col_pair_set_count(set), sh.count);
    }
    int n;
    col_bp_pair *r = col_pair_set_records(set, &n);
    for (int i = 0; i < n; i++) {
        uint32_t want = 0;
        assert_true(r[i].a < r[i].b);
        assert_true(shadow_get(&sh, key_of(r[i].a, r[i].b), &want));
        assert_int_equal(r[i].user, want);
        assert_ptr_equal(col_pair_set_find(set, r[i].b, r[i].a), &r[i]);
    }
    shadow_free(&sh);
    col_pair_set_destroy(set);
    assert_int_equal(a.bytes, 0);
}

/* After reserve(n), adds up to n pairs, removes, emptying and refilling never allocate. */
static void test_pair_set_reserve_no_alloc(void **state)
{
    (void)state;
    col_alloc a;
    counting_alloc c;
    init_alloc(&a, &c);
    col_pair_set *set = col_pair_set_create(&a);
    assert_non_null(set);
    const int n = 5000;
    assert_int_equal(col_pair_set_reserve(set, n), 0);
    uint64_t calls = a.calls;
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < n; i++) assert_int_equal(col_pair_set_add(set, (uint32_t)i, (uint32_t)(i * 7 + 1 + round)), 1);
        assert_int_equal(col_pair_set_count(set), n);
        for (int i = 0; i < n; i += 2) assert_int_equal(col_pair_set_remove(set, (uint32_t)i, (uint32_t)(i * 7 + 1 + round), NULL), 1);
        while (col_pair_set_count(set) > 0) col_pair_set_remove_at(set, 0);
    }
    assert_int_equal(a.calls, calls);
    col_pair_set_destroy(set);
    assert_int_equal(a.bytes, 0);
}

/* Allocation failure: add returns -1 and the set is unchanged; it works again later. */
static void test_pair_set_oom(void **state)
{
    (void)state;
    col_alloc a;
    counting_alloc c;
    init_alloc(&a, &c);
    c.limit = true; /* every allocation fails */
    c.allowed = 0;
    assert_null(col_pair_set_create(&a));
    c.limit = false;
    col_pair_set *set = col_pair_set_create(&a);
    assert_non_null(set);
    c.limit = true; /* every allocation fails */
    c.allowed = 0;
    assert_int_equal(col_pair_set_add(set, 1, 2), -1);
    assert_int_equal(col_pair_set_count(set), 0);
    assert_null(col_pair_set_find(set, 1, 2));
    assert_int_equal(col_pair_set_reserve(set, 100), -1);
    c.limit = false;
    assert_int_equal(col_pair_set_add(set, 1, 2), 1);
    /* Fail each allocation of a growth in turn. */
    for (int64_t k = 0; k < 8; k++) {
        c.fail_attempt = c.attempts + k + 1;
        int before = col_pair_set_count(set);
        for (uint32_t i = 0; i < 3000; i++) {
            int rc = col_pair_set_add(set, 1000 + (uint32_t)k * 5000 + i, 7);
            if (rc < 0) {
                assert_int_equal(col_pair_set_count(set), before + (int)i);
                assert_null(col_pair_set_find(set, 1000 + (uint32_t)k * 5000 + i, 7));
                break;
            }
        }
        c.fail_attempt = 0;
    }
    col_pair_set_destroy(set);
    assert_int_equal(a.bytes, 0);
    assert_int_equal(c.allocs, c.frees);
}

/* ---- SAP against brute force ---- */

typedef struct sim {
    int cap;
    col_aabb *box;  /* as given to the SAP */
    col_aabb *rbox; /* the same, rounded (col_sap_round_box): what the set is defined on */
    unsigned char *live, *is_static, *removed_now;
    shadow sh;
    uint32_t next_user;
    uint64_t callbacks, adds, frames, hit_proxies, live_sum;
    int *scratch;
    uint64_t *left; /* pairs reported by the callback during this update */
    size_t nleft, left_cap;
    int nlive;
} sim;

static void sim_init(sim *s, int cap)
{
    memset(s, 0, sizeof *s);
    s->cap = cap;
    s->box = calloc((size_t)cap, sizeof *s->box);
    s->rbox = calloc((size_t)cap, sizeof *s->rbox);
    s->live = calloc((size_t)cap, 1);
    s->is_static = calloc((size_t)cap, 1);
    s->removed_now = calloc((size_t)cap, 1);
    s->scratch = calloc((size_t)cap, sizeof(int));
    assert_non_null(s->box);
    assert_non_null(s->rbox);
    assert_non_null(s->live);
    assert_non_null(s->is_static);
    assert_non_null(s->removed_now);
    assert_non_null(s->scratch);
    shadow_init(&s->sh, 1u << 17);
    s->next_user = 1;
}

static void sim_free(sim *s)
{
    free(s->box);
    free(s->rbox);
    free(s->live);
    free(s->is_static);
    free(s->removed_now);
    free(s->scratch);
    free(s->left);
    shadow_free(&s->sh);
}

static void on_removed(void *ctx, uint32_t a, uint32_t b, uint32_t user)
{
    sim *s = ctx;
    uint32_t want = 0;
    assert_true(a < b);
    assert_true(shadow_get(&s->sh, key_of(a, b), &want));
    assert_int_equal(user, want);
    shadow_erase(&s->sh, key_of(a, b));
    s->callbacks++;
    if (s->nleft == s->left_cap) {
        s->left_cap = s->left_cap ? 2 * s->left_cap : 1024;
        s->left = realloc(s->left, s->left_cap * sizeof *s->left);
        assert_non_null(s->left);
    }
    s->left[s->nleft++] = key_of(a, b);
}

static bool overlap(const col_aabb *a, const col_aabb *b)
{
    return a->min.x <= b->max.x && b->min.x <= a->max.x && a->min.y <= b->max.y && b->min.y <= a->max.y &&
           a->min.z <= b->max.z && b->min.z <= a->max.z;
}

/* After an update: the records and the shadow map agree (stamping new records), and if
 * exact, the records are exactly the brute-force pairs. */
static void check_sap(sim *s, col_sap *sap, bool exact)
{
    int n;
    col_pair_set *set = col_sap_pair_set(sap);
    /* A pair reported as leaving is gone: never removed and re-added in one update
     * (that would lose the user value of a pair that did not leave). */
    for (size_t i = 0; i < s->nleft; i++)
        assert_null(col_pair_set_find(set, (uint32_t)(s->left[i] >> 32), (uint32_t)s->left[i]));
    s->nleft = 0;
    col_bp_pair *r = col_pair_set_records(set, &n);
    for (int i = 0; i < n; i++) {
        uint32_t a = r[i].a, b = r[i].b;
        assert_true(a < b);
        assert_true((int)b < s->cap);
        assert_true(s->live[a] && s->live[b]);
        assert_false(s->is_static[a] && s->is_static[b]);
        if (exact) assert_true(overlap(&s->rbox[a], &s->rbox[b]));
        uint32_t want = 0;
        if (r[i].user == COL_PAIR_NO_USER) {
            assert_false(shadow_get(&s->sh, key_of(a, b), NULL));
            r[i].user = s->next_user++;
            shadow_put(&s->sh, key_of(a, b), r[i].user);
            s->adds++;
        } else {
            assert_true(shadow_get(&s->sh, key_of(a, b), &want));
            assert_int_equal(r[i].user, want);
        }
    }
    assert_int_equal(s->sh.count, (size_t)n);

    int m = 0, live = 0;
    for (int p = 0; p < s->cap; p++) {
        col_aabb held;
        bool registered = col_sap_box(sap, (uint32_t)p, &held);
        assert_int_equal(registered, s->live[p]);
        if (s->live[p]) {
            assert_memory_equal(&held, &s->rbox[p], sizeof held);
            s->scratch[m++] = p;
        }
        s->removed_now[p] = 0;
    }
    live = m;
    assert_int_equal(col_sap_proxy_count(sap), live);
    if (!exact) return;
    long long brute = 0;
    int hit = 0;
    for (int i = 0; i < m; i++) {
        int p = s->scratch[i];
        const col_aabb bp = s->rbox[p];
        bool sp = s->is_static[p];
        for (int j = i + 1; j < m; j++) {
            int q = s->scratch[j];
            if (!overlap(&bp, &s->rbox[q]) || (sp && s->is_static[q])) continue;
            brute++;
            s->removed_now[p] = s->removed_now[q] = 1; /* reused as "has a pair" */
        }
    }
    for (int i = 0; i < m; i++) {
        hit += s->removed_now[s->scratch[i]];
        s->removed_now[s->scratch[i]] = 0;
    }
    assert_int_equal(brute, n);
    s->frames++;
    s->hit_proxies += (uint64_t)hit;
    s->live_sum += (uint64_t)live;
}

/* Boxes on a grid of 1/4 inside [0, world]: equal coordinates (touching boxes, shared
 * faces, zero-thickness boxes) are common. */
static col_aabb grid_box(double world, int max_quarters)
{
    int cells = (int)(world * 4);
    col_aabb b;
    double lo[3], hi[3];
    for (int k = 0; k < 3; k++) {
        int size = (int)rng_below((uint32_t)max_quarters + 1);
        int start = (int)rng_below((uint32_t)(cells - size + 1));
        lo[k] = start * 0.25;
        hi[k] = (start + size) * 0.25;
    }
    b.min = col_vec3_make(lo[0], lo[1], lo[2]);
    b.max = col_vec3_make(hi[0], hi[1], hi[2]);
    return b;
}

static col_aabb nudge(col_aabb b)
{
    double d[3];
    for (int k = 0; k < 3; k++) d[k] = ((int)rng_below(5) - 2) * 0.25;
    b.min.x += d[0];
    b.max.x += d[0];
    b.min.y += d[1];
    b.max.y += d[1];
    b.min.z += d[2];
    b.max.z += d[2];
    return b;
}

static void sim_insert(sim *s, col_sap *sap, int p, col_aabb box, bool st)
{
    assert_false(s->live[p]);
    assert_false(s->removed_now[p]);
    assert_int_equal(col_sap_insert(sap, (uint32_t)p, &box, st), 0);
    s->live[p] = 1;
    s->is_static[p] = st;
    s->box[p] = box;
    col_sap_round_box(&box, &s->rbox[p]);
    s->nlive++;
}

static void sim_remove(sim *s, col_sap *sap, int p)
{
    assert_true(s->live[p]);
    col_sap_remove(sap, (uint32_t)p);
    s->live[p] = 0;
    s->removed_now[p] = 1;
    s->nlive--;
}

static void sim_move(sim *s, col_sap *sap, int p, col_aabb box)
{
    col_sap_move(sap, (uint32_t)p, &box);
    s->box[p] = box;
    col_sap_round_box(&box, &s->rbox[p]);
}

static int random_live(const sim *s, int lo, int hi)
{
    for (int tries = 0; tries < 64; tries++) {
        int p = lo + (int)rng_below((uint32_t)(hi - lo));
        if (s->live[p]) return p;
    }
    return -1;
}

static int random_free(const sim *s, int lo, int hi)
{
    for (int tries = 0; tries < 64; tries++) {
        int p = lo + (int)rng_below((uint32_t)(hi - lo));
        if (!s->live[p] && !s->removed_now[p]) return p;
    }
    return -1;
}

enum { NREG = 400, NBULK = 2000, FRAMES = 3000 };

static void test_sap_vs_brute_force(void **state)
{
    (void)state;
    rng_seed(0xc011b41ULL, "sap_vs_brute_force");
    const double world = 10.0;
    col_alloc a;
    counting_alloc c;
    init_alloc(&a, &c);
    col_sap *sap = col_sap_create(&a);
    assert_non_null(sap);
    sim s;
    sim_init(&s, NREG + NBULK);

    for (int p = 0; p < 300; p++) sim_insert(&s, sap, p, grid_box(world, 6), rng_chance(0.3));
    assert_int_equal(col_sap_update(sap, on_removed, &s), 0);
    check_sap(&s, sap, true);
    int rebuilds0 = col_sap_rebuild_count(sap);
    assert_int_equal(rebuilds0, 1);

    bool bulk_live = false;
    int incremental_inserts = 0;
    for (int f = 0; f < FRAMES; f++) {
        /* Moves: small steps on the grid, sometimes a teleport; statics rarely move. */
        for (int p = 0; p < s.cap; p++) {
            if (!s.live[p]) continue;
            if (s.is_static[p]) {
                if (rng_chance(0.002)) sim_move(&s, sap, p, grid_box(world, 6));
            } else if (rng_chance(0.01)) {
                sim_move(&s, sap, p, grid_box(world, 6));
            } else if (rng_chance(0.3)) {
                sim_move(&s, sap, p, nudge(s.box[p]));
            }
        }
        /* Removals and inserts of regular proxies, indices reused across frames. */
        int nrem = (int)rng_below(4), nins = (int)rng_below(4);
        if (s.nlive - (bulk_live ? NBULK : 0) > 300) nrem += (int)rng_below(60); /* stay near 300 */
        for (int i = 0; i < nrem; i++) {
            int p = random_live(&s, 0, NREG);
            if (p >= 0) sim_remove(&s, sap, p);
        }
        if (rng_chance(0.02)) nins += 20 + (int)rng_below(40); /* around the threshold (32) */
        for (int i = 0; i < nins; i++) {
            int p = random_free(&s, 0, NREG);
            if (p >= 0) sim_insert(&s, sap, p, grid_box(world, 6), rng_chance(0.3));
        }
        if (nins <= 32) incremental_inserts += nins;
        /* Insert and remove before the update: never reaches the arrays. */
        if (rng_chance(0.02)) {
            int p = random_free(&s, 0, NREG);
            if (p >= 0) {
                sim_insert(&s, sap, p, grid_box(world, 6), false);
                sim_remove(&s, sap, p);
            }
        }
        /* Bulk: 2000 at once (rebuild path), gone again a few frames later. */
        if (f % 1000 == 500) {
            for (int p = NREG; p < NREG + NBULK; p++) sim_insert(&s, sap, p, grid_box(world, 3), rng_chance(0.5));
            bulk_live = true;
        } else if (bulk_live && f % 1000 == 505) {
            for (int p = NREG; p < NREG + NBULK; p++) sim_remove(&s, sap, p);
            bulk_live = false;
        }
        assert_int_equal(col_sap_update(sap, on_removed, &s), 0);
        check_sap(&s, sap, true);
    }
    double hit = (double)s.hit_proxies / (double)s.live_sum;
    print_message("sap_vs_brute_force: %llu frames, %llu pairs added, %llu removed, %d rebuilds, "
                  "%d incremental inserts, %.0f%% of proxies in a pair\n",
                  (unsigned long long)s.frames, (unsigned long long)s.adds, (unsigned long long)s.callbacks,
                  col_sap_rebuild_count(sap), incremental_inserts, 100.0 * hit);
    /* A representative scene: neither empty nor saturated. */
    assert_true(hit > 0.3 && hit < 0.7);
    assert_true(s.callbacks > 10000);
    assert_true(col_sap_rebuild_count(sap) > 10);

    col_sap_destroy(sap);
    sim_free(&s);
    assert_int_equal(a.bytes, 0);
    assert_int_equal(c.allocs, c.frees);
}

/* A crowded cell against brute force: 250 proxies (one cell: below the grid's minimum)
 * of sides up to 2 in a room of 2.5, so a box overlaps about a third of the others and
 * a member's scan in the sweep meets far more than the 64 overlapping members its
 * buffer holds (sap.c, sweep_list): the buffer is flushed within a scan, every frame.
 * Each frame 60% of the proxies move by up to half a unit, a few jump across the room,
 * and a few leave and join (incremental joins: at most 32). Fails if the pairs of a
 * flushed buffer are lost or counted twice. */
static void test_sap_crowded_cell_vs_brute_force(void **state)
{
    (void)state;
    rng_seed(0xc20dd3dULL, "sap_crowded_cell_vs_brute_force");
    const double world = 2.5;
    const int n = 250;
    col_alloc a;
    counting_alloc c;
    init_alloc(&a, &c);
    col_sap *sap = col_sap_create(&a);
    assert_non_null(sap);
    sim s;
    sim_init(&s, n + 20);
    for (int p = 0; p < n; p++) sim_insert(&s, sap, p, grid_box(world, 8), rng_chance(0.1));
    assert_int_equal(col_sap_update(sap, on_removed, &s), 0);
    check_sap(&s, sap, true);
    long long most = 0;
    for (int f = 0; f < 60; f++) {
        for (int p = 0; p < n + 20; p++) {
            if (!s.live[p] || s.is_static[p]) continue;
            if (rng_chance(0.03)) sim_move(&s, sap, p, grid_box(world, 8));
            else if (rng_chance(0.6)) sim_move(&s, sap, p, nudge(nudge(s.box[p])));
        }
        for (int k = 0; k < 5; k++) {
            int p = random_live(&s, 0, n + 20);
            if (p >= 0) sim_remove(&s, sap, p);
            int q = random_free(&s, 0, n + 20);
            if (q >= 0) sim_insert(&s, sap, q, grid_box(world, 8), false);
        }
        int rebuilds = col_sap_rebuild_count(sap);
        assert_int_equal(col_sap_update(sap, on_removed, &s), 0);
        assert_int_equal(col_sap_rebuild_count(sap), rebuilds); /* incremental */
        check_sap(&s, sap, true);
        int np = col_pair_set_count(col_sap_pair_set(sap));
        if (np > most) most = np;
    }
    print_message("sap_crowded_cell_vs_brute_force: %llu frames, %llu pairs added, %llu removed, "
                  "at most %lld pairs among %d proxies\n",
                  (unsigned long long)s.frames, (unsigned long long)s.adds, (unsigned long long)s.callbacks, most,
                  s.nlive);
    /* Crowded: on average a proxy overlaps more than 64 others. */
    assert_true(most > 32LL * s.nlive);
    assert_true(s.callbacks > 1000);
    col_sap_destroy(sap);
    sim_free(&s);
    assert_int_equal(a.bytes, 0);
    assert_int_equal(c.allocs, c.frees);
}

/* A box of the given size (each side a whole number of quarters in [lo_q, hi_q]) at a
 * random place on the quarter grid inside [0, world]. */
static col_aabb sized_box(double world, int lo_q, int hi_q)
{
    int cells = (int)(world * 4);
    double lo[3], hi[3];
    for (int k = 0; k < 3; k++) {
        int size = lo_q + (int)rng_below((uint32_t)(hi_q - lo_q + 1));
        int start = (int)rng_below((uint32_t)(cells - size + 1));
        lo[k] = start * 0.25;
        hi[k] = (start + size) * 0.25;
    }
    col_aabb b;
    b.min = col_vec3_make(lo[0], lo[1], lo[2]);
    b.max = col_vec3_make(hi[0], hi[1], hi[2]);
    return b;
}

/* A box shifted by whole quarters in [-q, q] on each axis. */
static col_aabb shift(col_aabb b, int q)
{
    double d[3];
    for (int k = 0; k < 3; k++) d[k] = ((int)rng_below((uint32_t)(2 * q + 1)) - q) * 0.25;
    b.min = col_vec3_make(b.min.x + d[0], b.min.y + d[1], b.min.z + d[2]);
    b.max = col_vec3_make(b.max.x + d[0], b.max.y + d[1], b.max.z + d[2]);
    return b;
}

/* The grid of cells (broadphase/sap.c; docs/broadphase.md) against brute force: 1200
 * proxies in a room of side 40 (boxes of 0.25 to 1.5, so cells of about 6 and a grid
 * of about 7 per axis), moving in small steps (crossing cell borders), jumping a cell or
 * two, teleporting across the room, some far larger than a cell (up to 20), 20% static;
 * 25 joining and leaving at once (the join path), 300 at once (the rebuild path, which
 * fits the grid again), and a few every frame. After every update the set is exactly the
 * brute-force set with every removal reported once (check_sap). The run must exercise the
 * grid: more than 64 cells, proxies in several cells, and memberships changing from frame
 * to frame (bodies crossing cell borders). */
static void test_sap_grid_vs_brute_force(void **state)
{
    (void)state;
    rng_seed(0x6e1d5ULL, "sap_grid_vs_brute_force");
    enum { NG = 1200, NBIG = 12, NMASS = 300, NJOIN = 25, GFRAMES = 240 };
    const double world = 40.0;
    col_alloc a;
    counting_alloc c;
    init_alloc(&a, &c);
    col_sap *sap = col_sap_create(&a);
    assert_non_null(sap);
    sim s;
    sim_init(&s, NG + NMASS + NJOIN);
    for (int p = 0; p < NG; p++)
        sim_insert(&s, sap, p, p < NBIG ? sized_box(world, 40, 80) : sized_box(world, 1, 6), p >= NBIG && rng_chance(0.2));
    assert_int_equal(col_sap_update(sap, on_removed, &s), 0);
    check_sap(&s, sap, true);
    int g[3];
    long long members = 0, prev = 0;
    col_sap_grid_stats(sap, g, &members);
    print_message("sap_grid_vs_brute_force: grid %d x %d x %d, %lld memberships of %d proxies\n", g[0], g[1], g[2], members,
                  s.nlive);
    assert_true(g[0] * g[1] * g[2] >= 64);
    assert_true(members > s.nlive + s.nlive / 5);

    int changed = 0, mass_live = 0, join_live = 0;
    for (int f = 0; f < GFRAMES; f++) {
        for (int p = 0; p < NG; p++) {
            if (!s.live[p]) continue;
            double u = urand();
            if (s.is_static[p]) {
                if (u < 0.005) sim_move(&s, sap, p, sized_box(world, 1, 6));
            } else if (u < 0.02) {
                sim_move(&s, sap, p, p < NBIG ? sized_box(world, 40, 80) : sized_box(world, 1, 6)); /* teleport */
            } else if (u < 0.07) {
                sim_move(&s, sap, p, shift(s.box[p], 32)); /* up to 8: a cell or two */
            } else if (u < 0.6) {
                sim_move(&s, sap, p, shift(s.box[p], 2));
            }
        }
        /* A few leave and join every frame (indices reused). */
        for (int k = 0; k < 3; k++) {
            int p = random_live(&s, NBIG, NG);
            if (p >= 0) sim_remove(&s, sap, p);
            int q = random_free(&s, NBIG, NG);
            if (q >= 0) sim_insert(&s, sap, q, sized_box(world, 1, 6), rng_chance(0.2));
        }
        switch (f % 40) {
        case 5: /* mass add: the rebuild path */
            for (int p = NG; p < NG + NMASS; p++) sim_insert(&s, sap, p, sized_box(world, 1, 6), rng_chance(0.2));
            mass_live = 1;
            break;
        case 15: /* mass remove */
            for (int p = NG; p < NG + NMASS && mass_live; p++) sim_remove(&s, sap, p);
            mass_live = 0;
            break;
        case 20: /* 25 at once: the join path, one big */
            for (int p = NG + NMASS; p < NG + NMASS + NJOIN; p++)
                sim_insert(&s, sap, p, p == NG + NMASS ? sized_box(world, 40, 80) : sized_box(world, 1, 6), rng_chance(0.2));
            join_live = 1;
            break;
        case 30:
            for (int p = NG + NMASS; p < NG + NMASS + NJOIN && join_live; p++) sim_remove(&s, sap, p);
            join_live = 0;
            break;
        default:
            break;
        }
        int rebuilds = col_sap_rebuild_count(sap);
        assert_int_equal(col_sap_update(sap, on_removed, &s), 0);
        check_sap(&s, sap, true);
        if (f % 40 == 20) assert_int_equal(col_sap_rebuild_count(sap), rebuilds); /* joined, not rebuilt */
        col_sap_grid_stats(sap, g, &members);
        changed += members != prev;
        prev = members;
    }
    print_message("sap_grid_vs_brute_force: %llu frames, %llu pairs added, %llu removed, %d rebuilds, "
                  "memberships changed in %d frames\n",
                  (unsigned long long)s.frames, (unsigned long long)s.adds, (unsigned long long)s.callbacks,
                  col_sap_rebuild_count(sap), changed);
    assert_true(changed > GFRAMES / 2);
    assert_true(col_sap_rebuild_count(sap) >= GFRAMES / 40);
    assert_true(s.callbacks > 5000);
    col_sap_destroy(sap);
    sim_free(&s);
    assert_int_equal(a.bytes, 0);
    assert_int_equal(c.allocs, c.frees);
}

/* Every allocation of a scripted run fails once in turn: updates return -1 or 0, never
 * crash; after a failure the next update rebuilds; a successful update is exact; the
 * callback stays consistent; nothing leaks. */
static void test_sap_oom(void **state)
{
    (void)state;
    int completed = 0, failures = 0;
    for (int64_t fail_at = 0; fail_at < 400; fail_at++) {
        if (fail_at == 0) rng_seed(0x00dULL, "sap_oom");
        else rng_reseed(0x00dULL);
        col_alloc a;
        counting_alloc c;
        init_alloc(&a, &c);
        c.fail_attempt = fail_at + 1;
        col_sap *sap = col_sap_create(&a);
        if (sap == NULL) {
            assert_int_equal(a.bytes, 0);
            failures++;
            continue;
        }
        sim s;
        sim_init(&s, 200);
        bool failed = false;
        for (int f = 0; f < 12; f++) {
            int nins = f == 0 ? 40 : (f == 6 ? 60 : (int)rng_below(5));
            for (int i = 0; i < nins; i++) {
                int p = random_free(&s, 0, 200);
                if (p < 0) continue;
                col_aabb b = grid_box(5.0, 6);
                bool st = rng_chance(0.3);
                if (col_sap_insert(sap, (uint32_t)p, &b, st) == 0) {
                    s.live[p] = 1;
                    s.is_static[p] = st;
                    s.box[p] = b;
                    col_sap_round_box(&b, &s.rbox[p]);
                } else {
                    failed = true;
                    col_aabb held;
                    assert_false(col_sap_box(sap, (uint32_t)p, &held));
                }
            }
            for (int p = 0; p < s.cap; p++)
                if (s.live[p] && !s.is_static[p] && rng_chance(0.5)) sim_move(&s, sap, p, nudge(s.box[p]));
            for (int i = 0; i < 3; i++) {
                int p = random_live(&s, 0, 200);
                if (p >= 0 && rng_chance(0.5)) sim_remove(&s, sap, p);
            }
            int rc = col_sap_update(sap, on_removed, &s);
            assert_true(rc == 0 || rc == -1);
            if (rc != 0) failed = true;
            check_sap(&s, sap, rc == 0);
        }
        /* One more update with a healthy allocator: exact again. */
        assert_int_equal(col_sap_update(sap, on_removed, &s), 0);
        check_sap(&s, sap, true);
        if (failed) failures++;
        if (c.attempts <= fail_at) completed++;
        col_sap_destroy(sap);
        sim_free(&s);
        assert_int_equal(a.bytes, 0);
        assert_int_equal(c.allocs, c.frees);
        if (completed >= 3) break;
    }
    print_message("sap_oom: %d runs with a failed call\n", failures);
    assert_true(completed >= 1);
    assert_true(failures > 10);
}

/* A steady scene (moves only, pairs coming and going) makes no allocator call after the
 * second update. The pair set is reserved for every possible pair, so this isolates
 * SAP's own storage. */
static void test_sap_steady_no_alloc(void **state)
{
    (void)state;
    rng_seed(0x57eadULL, "sap_steady_no_alloc");
    enum { N = 200 };
    col_alloc a;
    counting_alloc c;
    init_alloc(&a, &c);
    col_sap *sap = col_sap_create(&a);
    assert_non_null(sap);
    assert_int_equal(col_pair_set_reserve(col_sap_pair_set(sap), N * (N - 1) / 2), 0);
    sim s;
    sim_init(&s, N);
    for (int p = 0; p < N; p++) sim_insert(&s, sap, p, grid_box(6.0, 6), rng_chance(0.2));
    assert_int_equal(col_sap_update(sap, on_removed, &s), 0);
    check_sap(&s, sap, true);
    for (int p = 0; p < N; p++)
        if (!s.is_static[p]) sim_move(&s, sap, p, nudge(s.box[p]));
    assert_int_equal(col_sap_update(sap, on_removed, &s), 0);
    check_sap(&s, sap, true);
    uint64_t calls = a.calls;
    for (int f = 0; f < 200; f++) {
        for (int p = 0; p < N; p++)
            if (!s.is_static[p] && rng_chance(0.5)) sim_move(&s, sap, p, nudge(s.box[p]));
        assert_int_equal(col_sap_update(sap, on_removed, &s), 0);
        check_sap(&s, sap, true);
    }
    assert_true(s.callbacks > 1000);
    assert_int_equal(a.calls, calls);
    col_sap_destroy(sap);
    sim_free(&s);
    assert_int_equal(a.bytes, 0);
}

/* Without any reserve: a periodic motion with distinct coordinates repeats the same
 * swaps every period, so after one period the structure has met its peak and further
 * periods allocate nothing. */
static void test_sap_periodic_no_alloc(void **state)
{
    (void)state;
    rng_seed(0xfe710dULL, "sap_periodic_no_alloc");
    enum { N = 300, PERIOD = 4 };
    col_alloc a;
    counting_alloc c;
    init_alloc(&a, &c);
    col_sap *sap = col_sap_create(&a);
    assert_non_null(sap);
    sim s;
    sim_init(&s, N);
    static col_aabb poses[PERIOD][N];
    for (int t = 0; t < PERIOD; t++) {
        for (int p = 0; p < N; p++) {
            double x = urand() * 8, y = urand() * 8, z = urand() * 8;
            double h = 0.2 + urand() * 0.6;
            poses[t][p].min = col_vec3_make(x - h, y - h, z - h);
            poses[t][p].max = col_vec3_make(x + h, y + h, z + h);
        }
    }
    for (int p = 0; p < N; p++) sim_insert(&s, sap, p, poses[0][p], p % 5 == 0);
    assert_int_equal(col_sap_update(sap, on_removed, &s), 0);
    check_sap(&s, sap, true);
    uint64_t calls = 0;
    for (int f = 1; f <= 6 * PERIOD; f++) {
        for (int p = 0; p < N; p++) sim_move(&s, sap, p, poses[f % PERIOD][p]);
        assert_int_equal(col_sap_update(sap, on_removed, &s), 0);
        check_sap(&s, sap, true);
        if (f == PERIOD) calls = a.calls;
    }
    assert_int_equal(a.calls, calls);
    col_sap_destroy(sap);
    sim_free(&s);
    assert_int_equal(a.bytes, 0);
}

/* 100 000 proxies: one insert or one removal takes the few-inserts path (no rebuild),
 * and the new proxy's pairs are exactly its brute-force overlaps. */
static void test_sap_large_single_insert(void **state)
{
    (void)state;
    rng_seed(0x100000ULL, "sap_large_single_insert");
    enum { N = 100000 };
    col_alloc a;
    counting_alloc c;
    init_alloc(&a, &c);
    col_sap *sap = col_sap_create(&a);
    assert_non_null(sap);
    col_aabb *box = malloc((N + 1) * sizeof *box);
    assert_non_null(box);
    for (int p = 0; p <= N; p++) {
        double x = urand() * 100, y = urand() * 100, z = urand() * 100;
        double h = 0.25 + urand() * 0.5;
        box[p].min = col_vec3_make(x - h, y - h, z - h);
        box[p].max = col_vec3_make(x + h, y + h, z + h);
    }
    for (int p = 0; p < N; p++) assert_int_equal(col_sap_insert(sap, (uint32_t)p, &box[p], p % 4 == 0), 0);
    assert_int_equal(col_sap_update(sap, NULL, NULL), 0);
    assert_int_equal(col_sap_rebuild_count(sap), 1);
    int before = col_pair_set_count(col_sap_pair_set(sap));

    /* The newcomer is a big box so it has a few partners. */
    box[N].min = col_vec3_make(40, 40, 40);
    box[N].max = col_vec3_make(43, 43, 43);
    assert_int_equal(col_sap_insert(sap, N, &box[N], false), 0);
    assert_int_equal(col_sap_update(sap, NULL, NULL), 0);
    assert_int_equal(col_sap_rebuild_count(sap), 1);
    int expect = 0;
    col_aabb rn;
    col_sap_round_box(&box[N], &rn);
    for (int p = 0; p < N; p++) {
        col_aabb rp;
        col_sap_round_box(&box[p], &rp);
        bool o = overlap(&rp, &rn);
        expect += o;
        assert_int_equal(col_pair_set_find(col_sap_pair_set(sap), (uint32_t)p, N) != NULL, o);
    }
    print_message("sap_large_single_insert: %d pairs, newcomer has %d\n", before, expect);
    assert_true(expect > 0);
    assert_int_equal(col_pair_set_count(col_sap_pair_set(sap)), before + expect);

    col_sap_remove(sap, N);
    col_sap_remove(sap, 17);
    assert_int_equal(col_sap_update(sap, NULL, NULL), 0);
    assert_int_equal(col_sap_rebuild_count(sap), 1);
    assert_int_equal(col_sap_proxy_count(sap), N - 1);
    col_aabb held;
    assert_false(col_sap_box(sap, 17, &held));

    col_sap_destroy(sap);
    free(box);
    assert_int_equal(a.bytes, 0);
}

static col_aabb make_box(double x0, double y0, double z0, double x1, double y1, double z1)
{
    col_aabb b = {col_vec3_make(x0, y0, z0), col_vec3_make(x1, y1, z1)};
    return b;
}

/* Boxes apart by less than a float ulp. A.max.x = 1 and B.min.x = the next double above 1
 * (2^-52 apart) both round to 1.0f, so the rounded boxes touch and the pair belongs in the
 * set although the double boxes do not overlap; C.max.y, just below -1, rounds up to -1.0f
 * and touches D.min.y = -1 likewise. Both update paths must agree on these ties: the pairs
 * enter through the incremental passes, survive a rebuild with their user values (never
 * reported as leaving), and A-B leaves and comes back through incremental moves. */
static void test_sap_sub_ulp_gap(void **state)
{
    (void)state;
    /* The rounding itself: outward, and exact for doubles that are floats. */
    col_aabb r = make_box(1.0, 1.0 + 0x1p-25, -1.0 - 0x1p-25, 1.0, 1.0 + 0x1p-25, -1.0 - 0x1p-25);
    col_sap_round_box(&r, &r);
    assert_true(r.min.x == 1.0 && r.max.x == 1.0);
    assert_true(r.min.y == 1.0 && r.max.y == 1.0 + 0x1p-23);
    assert_true(r.min.z == -1.0 - 0x1p-23 && r.max.z == -1.0);

    col_alloc a;
    counting_alloc c;
    init_alloc(&a, &c);
    col_sap *sap = col_sap_create(&a);
    assert_non_null(sap);
    sim s;
    sim_init(&s, 64);
    const double above1 = nextafter(1.0, 2.0), below_m1 = nextafter(-1.0, -2.0);
    const col_aabb A = make_box(0, 0, 0, 1.0, 1, 1), B = make_box(above1, 0.5, 0.5, 2, 1.5, 1.5);
    const col_aabb C = make_box(5, -2, 5, 6, below_m1, 6), D = make_box(5.5, -1.0, 5.5, 6.5, 0, 6.5);
    assert_false(overlap(&A, &B));
    assert_false(overlap(&C, &D));
    sim_insert(&s, sap, 0, A, false);
    sim_insert(&s, sap, 1, B, false);
    sim_insert(&s, sap, 2, C, false);
    sim_insert(&s, sap, 3, D, true);

    /* Incremental path (four inserts). */
    assert_int_equal(col_sap_update(sap, on_removed, &s), 0);
    check_sap(&s, sap, true);
    assert_int_equal(col_sap_rebuild_count(sap), 0);
    col_pair_set *set = col_sap_pair_set(sap);
    assert_non_null(col_pair_set_find(set, 0, 1));
    assert_non_null(col_pair_set_find(set, 2, 3));
    assert_int_equal(col_pair_set_count(set), 2);
    uint32_t user01 = col_pair_set_find(set, 0, 1)->user, user23 = col_pair_set_find(set, 2, 3)->user;

    /* Rebuild path: more than COL_SAP_FEW_INSERTS (32) small boxes, spread along x so
     * that the sweep runs on x and meets the tie of A and B there. */
    for (int p = 10; p < 50; p++) sim_insert(&s, sap, p, make_box(100 + 3 * p, 0, 0, 101 + 3 * p, 1, 1), p % 2 == 0);
    assert_int_equal(col_sap_update(sap, on_removed, &s), 0);
    check_sap(&s, sap, true);
    assert_int_equal(col_sap_rebuild_count(sap), 1);
    assert_int_equal(s.callbacks, 0);
    assert_int_equal(col_pair_set_find(set, 0, 1)->user, user01);
    assert_int_equal(col_pair_set_find(set, 2, 3)->user, user23);

    /* B away and back, incrementally: its min passes A's max both ways, the second time
     * onto the tie (1.0f against 1.0f), where a min sorts before a max. */
    sim_move(&s, sap, 1, make_box(1.5, 0.5, 0.5, 2.5, 1.5, 1.5));
    assert_int_equal(col_sap_update(sap, on_removed, &s), 0);
    check_sap(&s, sap, true);
    assert_null(col_pair_set_find(set, 0, 1));
    assert_int_equal(s.callbacks, 1);
    sim_move(&s, sap, 1, B);
    assert_int_equal(col_sap_update(sap, on_removed, &s), 0);
    check_sap(&s, sap, true);
    assert_non_null(col_pair_set_find(set, 0, 1));
    assert_int_equal(col_sap_rebuild_count(sap), 1);

    col_sap_destroy(sap);
    sim_free(&s);
    assert_int_equal(a.bytes, 0);
    assert_int_equal(c.allocs, c.frees);
}

/* The reference rounding: the conversion, then one nextafterf step when it went the
 * wrong way (sap.c does the step on the bits, without the branch and the call). */
static float ref_round_down(double d)
{
    float f = (float)d;
    return (double)f > d ? nextafterf(f, -INFINITY) : f;
}

static float ref_round_up(double d)
{
    float f = (float)d;
    return (double)f < d ? nextafterf(f, INFINITY) : f;
}

/* col_sap_round_box against the reference, bit for bit (signed zeros included): values
 * around the zeros, the subnormals, 1, FLT_MAX and COL_MAX_COORD, then random floats,
 * their neighbouring doubles, doubles of every magnitude and integers scaled like
 * coordinates. */
static void test_sap_round_box_matches_nextafterf(void **state)
{
    (void)state;
    rng_seed(0x0f1ea7ULL, "sap_round_box_matches_nextafterf");
    const double special[] = {0.0, -0.0, 1e-50, -1e-50, 0x1p-149, -0x1p-149, 0x1p-150, -0x1p-150, 0x1.8p-150,
                              -0x1.8p-150, 0x1p-126, -0x1p-126, 0x1.fffffcp-127, -0x1.fffffcp-127, 1.0, -1.0,
                              nextafter(1.0, 2.0), nextafter(1.0, 0.0), -nextafter(1.0, 2.0), -nextafter(1.0, 0.0),
                              0x1.fffffep127, -0x1.fffffep127, 0x1.ffffffp127, -0x1.ffffffp127, 1e300, -1e300,
                              1e15, -1e15, 0.1, -0.1, 1.0 / 3.0, -1.0 / 3.0};
    const int nspecial = (int)(sizeof special / sizeof special[0]);
    int inexact = 0;
    for (int i = 0; i < nspecial + 200000; i++) {
        double d;
        if (i < nspecial) {
            d = special[i];
        } else {
            switch (rng_below(5)) {
            case 0:
            case 1: /* a float (exact: rounds to itself) */
                d = (double)ldexpf((float)urand() - 0.5f, (int)rng_below(276) - 150);
                break;
            case 2: /* the double next to a float, on either side */
                d = (double)ldexpf((float)urand() - 0.5f, (int)rng_below(276) - 150);
                d = nextafter(d, rng_chance(0.5) ? INFINITY : -INFINITY);
                break;
            case 3: /* any magnitude */
                d = ldexp(urand() - 0.5, (int)rng_below(300) - 150);
                break;
            default: /* coordinates: integers scaled down, as a scene's are */
                d = (double)(int64_t)(rng_next() >> 20) * 1e-9 * (rng_chance(0.5) ? 1 : -1);
                break;
            }
        }
        col_aabb in = {col_vec3_make(d, d, d), col_vec3_make(d, d, d)}, out;
        col_sap_round_box(&in, &out);
        float lo = ref_round_down(d), hi = ref_round_up(d), got_lo = (float)out.min.x, got_hi = (float)out.max.x;
        assert_true(out.min.x == (double)got_lo && out.max.x == (double)got_hi); /* exactly floats */
        assert_memory_equal(&got_lo, &lo, sizeof lo);
        assert_memory_equal(&got_hi, &hi, sizeof hi);
        assert_true(out.min.x <= d && d <= out.max.x);
        inexact += lo != hi;
    }
    print_message("sap_round_box_matches_nextafterf: %d values, %d not floats\n", nspecial + 200000, inexact);
    /* Both kinds are well represented (about 60% are not floats). */
    assert_true(inexact > 80000 && inexact < 160000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pair_set_basic),
        cmocka_unit_test(test_pair_set_random),
        cmocka_unit_test(test_pair_set_reserve_no_alloc),
        cmocka_unit_test(test_pair_set_oom),
        cmocka_unit_test(test_sap_vs_brute_force),
        cmocka_unit_test(test_sap_grid_vs_brute_force),
        cmocka_unit_test(test_sap_crowded_cell_vs_brute_force),
        cmocka_unit_test(test_sap_oom),
        cmocka_unit_test(test_sap_steady_no_alloc),
        cmocka_unit_test(test_sap_periodic_no_alloc),
        cmocka_unit_test(test_sap_large_single_insert),
        cmocka_unit_test(test_sap_sub_ulp_gap),
        cmocka_unit_test(test_sap_round_box_matches_nextafterf),
    };
    return cmocka_run_group_tests_name("sap", tests, NULL, NULL);
}
