/* SPDX-License-Identifier: MIT */
/* Tests of the agreement harness itself (tests/agreement.c). Running the reference
 * against itself proves little about the reference, so the point here is the harness:
 * (a) with the reference under test it must report no failure and a representative
 * hit rate (30-70 %); (b) with deliberately wrong backends defined below it MUST report
 * failures, i.e. it can fail: one that calls near-touching separations "colliding" (a
 * tolerance instead of exactness), one that only compares centroid distances, and one
 * with the right answers but inflated separation certificates (caught only by the
 * certificate re-check). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/core/hull.h"
#include "lib/core/vec.h"
#include "narrowphase/backend.h"
#include "tests/agreement.h"

#define SEED UINT64_C(0xa9eeca11b7a70001)
#define REFERENCE_PAIRS 100000.0
#define WRONG_PAIRS 400.0

static long scaled(double n, long floor_)
{
    long k = (long)(n * col_agreement_scale());
    return k < floor_ ? floor_ : k;
}

/* ---- wrong backends ---- */

/* The reference, except that a separation with certified gap below 1e-6 x size is
 * answered "colliding": the classic tolerance bug, wrong for gaps in (1e-9, 1e-6). */
static void flip_query(void *cache, const col_hull *a, const void *da, const col_xform *xa, const col_hull *b,
                       const void *db, const col_xform *xb, col_np_scratch *scratch, col_np_result *out)
{
    col_np_reference.query(cache, a, da, xa, b, db, xb, scratch, out);
    double size = fmax(a->radius, b->radius);
    if (!out->colliding && out->gap < 1e-6 * size) {
        out->colliding = true;
        out->axis = col_v3(0.0, 0.0, 0.0);
        out->gap = 0.0;
    }
}

/* The reference answers with every certificate's gap doubled (plus 1e-6 x size): the
 * answers all agree, so only the certificate check can see it. */
static void inflate_query(void *cache, const col_hull *a, const void *da, const col_xform *xa, const col_hull *b,
                          const void *db, const col_xform *xb, col_np_scratch *scratch, col_np_result *out)
{
    col_np_reference.query(cache, a, da, xa, b, db, xb, scratch, out);
    if (!out->colliding) out->gap = 2.0 * out->gap + 1e-6 * fmax(a->radius, b->radius);
}

/* A bounding-sphere-like guess: colliding iff the centroids are closer than half the
 * summed radii, else "separated" along the centroid difference with the sphere gap. No
 * cache and no scratch. */
static void centroid_cache_init(void *cache, const col_hull *a, const col_hull *b)
{
    (void)cache;
    (void)a;
    (void)b;
}

static size_t centroid_scratch_need(col_np_counts a, col_np_counts b)
{
    (void)a;
    (void)b;
    return 0;
}

static void centroid_query(void *cache, const col_hull *a, const void *da, const col_xform *xa, const col_hull *b,
                           const void *db, const col_xform *xb, col_np_scratch *scratch, col_np_result *out)
{
    (void)cache;
    (void)da;
    (void)db;
    (void)scratch;
    col_vec3 d = col_sub(col_xform_point(xb, b->centroid), col_xform_point(xa, a->centroid));
    double len = col_len(d);
    out->iterations = 1;
    out->fallbacks = 0;
    out->colliding = len < 0.5 * (a->radius + b->radius) || !(len > 0.0);
    out->axis = out->colliding ? col_v3(0.0, 0.0, 0.0) : col_scale(d, 1.0 / len);
    out->gap = out->colliding ? 0.0 : fmax(0.0, len - a->radius - b->radius);
}

static const col_np_backend wrong_centroid = {
    .name = "wrong-centroid",
    .cache_init = centroid_cache_init,
    .scratch_need = centroid_scratch_need,
    .query = centroid_query,
};

/* ---- tests ---- */

static void test_reference_agrees(void **state)
{
    (void)state;
    col_agreement_stats st;
    long n = scaled(REFERENCE_PAIRS, 1000);
    long failures = col_agreement_run(&col_np_reference, SEED, n, &st);
    assert_int_equal(failures, 0);
    assert_int_equal(st.failures, 0);
    assert_true(st.pairs >= n);
    double rate = 100.0 * (double)st.hits / (double)st.pairs;
    assert_true(rate >= 30.0 && rate <= 70.0);
    /* Every named kind occurs, warm caches are exercised, and the reference (which
     * never falls back) reports its work. */
    for (int k = 0; k < 7; k++) assert_true(st.by_kind[k] > 0);
    assert_int_equal(st.by_kind[7], 0);
    assert_true(st.warm_queries > 0 && st.warm_queries < st.pairs);
    assert_int_equal(st.backend_fallbacks, 0);
    assert_true(st.backend_iterations >= st.pairs);
    long sum = 0;
    for (int k = 0; k < 8; k++) sum += st.by_kind[k];
    assert_int_equal(sum, st.pairs);
}

static void test_catches_tolerance_bug(void **state)
{
    (void)state;
    col_np_backend be = col_np_reference;
    be.name = "wrong-flip-small-gaps";
    be.query = flip_query;
    col_agreement_stats st;
    long failures = col_agreement_run(&be, SEED ^ 1, scaled(WRONG_PAIRS, 200), &st);
    assert_true(failures > 0);
    assert_int_equal(failures, st.failures);
}

static void test_catches_centroid_guess(void **state)
{
    (void)state;
    col_agreement_stats st;
    long failures = col_agreement_run(&wrong_centroid, SEED ^ 2, scaled(WRONG_PAIRS, 200), &st);
    assert_true(failures > 0);
}

static void test_catches_bad_certificate(void **state)
{
    (void)state;
    col_np_backend be = col_np_reference;
    be.name = "wrong-certificate";
    be.query = inflate_query;
    col_agreement_stats st;
    long failures = col_agreement_run(&be, SEED ^ 3, scaled(WRONG_PAIRS, 200), &st);
    assert_true(failures > 0);
}

/* The same seed gives the same run, bit for bit (stats included), so a printed seed
 * reproduces a failure. */
static void test_deterministic(void **state)
{
    (void)state;
    col_agreement_stats s1, s2;
    col_agreement_run(&col_np_reference, SEED ^ 4, 150, &s1);
    col_agreement_run(&col_np_reference, SEED ^ 4, 150, &s2);
    assert_memory_equal(&s1, &s2, sizeof s1);
}

static void test_scale_env(void **state)
{
    (void)state;
    double s = col_agreement_scale();
    assert_true(s >= 0.001 && s <= 10.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scale_env),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_catches_tolerance_bug),
        cmocka_unit_test(test_catches_centroid_guess),
        cmocka_unit_test(test_catches_bad_certificate),
        cmocka_unit_test(test_reference_agrees),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
