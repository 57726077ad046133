/* SPDX-License-Identifier: MIT */
/* Tests of the voronoi backend (narrowphase/voronoi.c, closest-feature tracking after Lin &
 * Canny 1991 and Mirtich's V-Clip 1998):
 * - distances and closest points against an independent brute force over all feature
 *   pairs (every vertex against every triangle of the other's faces, every edge pair),
 *   written below as plainly as possible, on random separated pairs whose gap is set
 *   exactly (log-uniform down to 1e-6 x size, some down to 1e-9), including parallel
 *   faces, parallel edges, near-coplanar facets, thin slabs (1e-4 .. 1e-8 thick) and
 *   needles; the closest points must lie on their bodies and realise the distance;
 * - coherent small steps (warm cache) and incoherent jumps (cache from elsewhere), with
 *   the walk lengths, cycles and fallbacks counted and printed;
 * - penetration: overlapping pairs must never come out separated, and deep ones come
 *   out PENETRATING with a common point;
 * - the exact fallback path (forced);
 * - the boolean answers through the shared agreement harness (tests/agreement.c).
 * Sizes scale with COLIBRI_TEST_SCALE (col_agreement_scale). Diagnostics: VCLIP_TEST=name
 * runs one test, VCLIP_VERBOSE=1 prints every query that restarted or fell back. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/core/alloc.h"
#include "lib/core/hull.h"
#include "lib/core/vec.h"
#include "narrowphase/backend.h"
#include "narrowphase/voronoi.h"
#include "tests/agreement.h"
#include "tests/test_util.h"

#define SEED UINT64_C(0x7c11b0f00d5eed05)
#define DISTANCE_PAIRS 100000.0
#define AGREEMENT_PAIRS 100000.0
#define POOL 48
#define MAX_PTS 64
/* Distances must agree to this relative error, above an absolute rounding floor of
 * FLOOR_C eps M (M: the largest world coordinate), which is what any double
 * computation from world coordinates can promise. */
#define DIST_REL 1e-9
#define FLOOR_C 64.0

static col_alloc g_alloc;

/* ---- random draws (generator: tests/test_util.h) ---- */

static col_vec3 rand_unit(void)
{
    for (;;) {
        col_vec3 v = col_v3(gauss(), gauss(), gauss());
        double l = col_len(v);
        if (l > 1e-6) return col_scale(v, 1.0 / l);
    }
}
static col_quat rand_quat(void)
{
    for (;;) {
        double q[4] = {gauss(), gauss(), gauss(), gauss()};
        double l = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        if (l < 1e-6) continue;
        col_quat r = {q[0] / l, q[1] / l, q[2] / l, q[3] / l};
        return r;
    }
}
static col_xform make_pose(col_vec3 p, col_quat q)
{
    col_transform t;
    t.p = p;
    t.q = q;
    return col_xform_from_transform(t);
}

/* ---- the brute force (independent of the library's geometry code) ---- */

static double point_segment(col_vec3 p, col_vec3 a, col_vec3 b, col_vec3 *c)
{
    col_vec3 ab = col_sub(b, a);
    double t = col_dot(col_sub(p, a), ab) / col_dot(ab, ab);
    if (t < 0.0) t = 0.0;
    if (t > 1.0) t = 1.0;
    *c = col_add(a, col_scale(ab, t));
    return col_len(col_sub(p, *c));
}

/* Point to triangle: the plane distance if the projection falls inside (every side
 * test passes), else the nearest of the three edges. The normal is taken at the corner
 * with the largest angle: a sliver's plane is then as well defined as its width allows
 * (a normal taken at a tiny angle tilts by eps / angle, and times the distance to a far
 * vertex that underestimates the distance; Ericson's barycentric ClosestPtPointTriangle
 * loses accuracy on long thin triangles too, by the cancellation in its products). */
static double point_triangle(col_vec3 p, col_vec3 a, col_vec3 b, col_vec3 c, col_vec3 *q)
{
    col_vec3 v[3] = {a, b, c}, n = col_v3(0, 0, 0);
    double best_sin = -1.0;
    for (int k = 0; k < 3; k++) {
        col_vec3 e1 = col_sub(v[(k + 1) % 3], v[k]), e2 = col_sub(v[(k + 2) % 3], v[k]);
        col_vec3 x = col_cross(e1, e2);
        double sn = col_len(x) / (col_len(e1) * col_len(e2));
        if (sn > best_sin) {
            best_sin = sn;
            n = col_scale(x, 1.0 / col_len(x));
        }
    }
    col_vec3 proj = col_sub(p, col_scale(n, col_dot(col_sub(p, a), n)));
    int inside = 1;
    for (int k = 0; k < 3 && inside; k++)
        inside = col_dot(col_sub(proj, v[k]), col_cross(n, col_sub(v[(k + 1) % 3], v[k]))) >= 0.0;
    if (inside) {
        *q = proj;
        return fabs(col_dot(col_sub(p, a), n));
    }
    col_vec3 c1, c2, c3;
    double d1 = point_segment(p, a, b, &c1), d2 = point_segment(p, b, c, &c2), d3 = point_segment(p, c, a, &c3);
    if (d1 <= d2 && d1 <= d3) {
        *q = c1;
        return d1;
    }
    *q = d2 <= d3 ? c2 : c3;
    return d2 <= d3 ? d2 : d3;
}

/* Segment to segment: the four endpoint-to-segment distances, and the interior critical
 * point of the two lines when it lies inside both segments. */
static double segment_segment(col_vec3 p0, col_vec3 p1, col_vec3 q0, col_vec3 q1, col_vec3 *cp, col_vec3 *cq)
{
    col_vec3 c;
    double best = point_segment(p0, q0, q1, &c);
    *cp = p0;
    *cq = c;
    double d = point_segment(p1, q0, q1, &c);
    if (d < best) {
        best = d;
        *cp = p1;
        *cq = c;
    }
    d = point_segment(q0, p0, p1, &c);
    if (d < best) {
        best = d;
        *cp = c;
        *cq = q0;
    }
    d = point_segment(q1, p0, p1, &c);
    if (d < best) {
        best = d;
        *cp = c;
        *cq = q1;
    }
    col_vec3 u = col_sub(p1, p0), v = col_sub(q1, q0), w = col_sub(p0, q0);
    double a = col_dot(u, u), b = col_dot(u, v), cc = col_dot(v, v), dd = col_dot(u, w), e = col_dot(v, w);
    double den = a * cc - b * b;
    if (den > 1e-12 * a * cc) {
        double s = (b * e - cc * dd) / den, t = (a * e - b * dd) / den;
        if (s > 0.0 && s < 1.0 && t > 0.0 && t < 1.0) {
            col_vec3 x = col_add(p0, col_scale(u, s)), y = col_add(q0, col_scale(v, t));
            d = col_len(col_sub(x, y));
            if (d < best) {
                best = d;
                *cp = x;
                *cq = y;
            }
        }
    }
    return best;
}

typedef struct world_hull {
    const col_hull *h;
    col_vec3 v[4 * MAX_PTS];
} world_hull;

static void to_world(const col_hull *h, const col_xform *x, world_hull *w)
{
    w->h = h;
    for (int i = 0; i < h->vertex_count; i++) w->v[i] = col_xform_point(x, h->vertices[i]);
}

/* Distance between two separated hulls: min over all vertex-triangle and edge-edge pairs. */
static double brute_distance(const world_hull *A, const world_hull *B, col_vec3 *pa, col_vec3 *pb)
{
    double best = INFINITY;
    for (int side = 0; side < 2; side++) {
        const world_hull *X = side ? B : A, *Y = side ? A : B;
        for (int i = 0; i < X->h->vertex_count; i++) {
            for (int f = 0; f < Y->h->face_count; f++) {
                const int *r = Y->h->face_verts + Y->h->face_first[f];
                int len = Y->h->face_first[f + 1] - Y->h->face_first[f];
                for (int k = 1; k + 1 < len; k++) {
                    col_vec3 q;
                    double d = point_triangle(X->v[i], Y->v[r[0]], Y->v[r[k]], Y->v[r[k + 1]], &q);
                    if (d < best) {
                        best = d;
                        *pa = side ? q : X->v[i];
                        *pb = side ? X->v[i] : q;
                    }
                }
            }
        }
    }
    for (int i = 0; i < A->h->edge_count; i++) {
        for (int j = 0; j < B->h->edge_count; j++) {
            col_vec3 cp, cq;
            double d = segment_segment(A->v[A->h->edge_verts[2 * i]], A->v[A->h->edge_verts[2 * i + 1]],
                                       B->v[B->h->edge_verts[2 * j]], B->v[B->h->edge_verts[2 * j + 1]], &cp, &cq);
            if (d < best) {
                best = d;
                *pa = cp;
                *pb = cq;
            }
        }
    }
    return best;
}

/* ---- shapes ---- */

typedef struct shape {
    col_hull h;
    const char *kind;
    double size; /* the largest extent */
} shape;

static shape g_pool[POOL];

static int gen_points(int kind, double s, col_vec3 *p, const char **name)
{
    int n = 4 + (int)(rng_next() % 20);
    double ax = s * urange(0.3, 1.0), ay = s * urange(0.3, 1.0), az = s * urange(0.3, 1.0);
    switch (kind) {
    case 0: /* ellipsoid surface points */
        *name = "ellipsoid";
        for (int i = 0; i < n; i++) {
            col_vec3 u = rand_unit();
            p[i] = col_v3(ax * u.x, ay * u.y, az * u.z);
        }
        return n;
    case 1: /* box (parallel faces and edges) */
        *name = "box";
        for (int i = 0; i < 8; i++) p[i] = col_v3(i & 1 ? ax : -ax, i & 2 ? ay : -ay, i & 4 ? az : -az);
        return 8;
    case 2: { /* thin slab 1e-4 .. 1e-8 thick (random points in two parallel planes) */
        *name = "slab";
        double t = s * pow(10.0, -urange(4.0, 8.0));
        n = 6 + (int)(rng_next() % 10);
        for (int i = 0; i < n; i++) p[i] = col_v3(urange(-ax, ax), urange(-ay, ay), i & 1 ? t : -t);
        return n;
    }
    case 3: { /* needle: long in x, 1e-3 .. 1e-6 across */
        *name = "needle";
        double w = s * pow(10.0, -urange(3.0, 6.0));
        n = 6 + (int)(rng_next() % 6);
        for (int i = 0; i < n; i++) {
            double ang = 6.283185307179586 * i / n;
            p[i] = col_v3(i & 1 ? ax : -ax, w * cos(ang), w * sin(ang));
        }
        p[n++] = col_v3(1.3 * ax, 0.0, 0.0);
        return n;
    }
    case 4: { /* near-coplanar facets: a very flat dome over a square, sagitta 1e-7 .. 1e-4 */
        *name = "flat-dome";
        double sag = s * pow(10.0, -urange(4.0, 7.0));
        int k = 0;
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++) {
                double x = ax * (i / 1.5 - 1.0), y = ay * (j / 1.5 - 1.0);
                double r2 = (x * x) / (ax * ax) + (y * y) / (ay * ay);
                p[k++] = col_v3(x, y, az + sag * (2.0 - r2));
            }
        p[k++] = col_v3(0.0, 0.0, -az);
        p[k++] = col_v3(ax, ay, -0.5 * az);
        return k;
    }
    default: { /* prism with a regular polygon cross-section (many parallel edges) */
        *name = "prism";
        int m = 3 + (int)(rng_next() % 6);
        for (int i = 0; i < m; i++) {
            double ang = 6.283185307179586 * i / m;
            p[2 * i] = col_v3(ax * cos(ang), ay * sin(ang), -az);
            p[2 * i + 1] = col_v3(ax * cos(ang), ay * sin(ang), az);
        }
        return 2 * m;
    }
    }
}

static void build_pool(void)
{
    for (int i = 0; i < POOL; i++) {
        col_vec3 p[MAX_PTS];
        const char *name;
        double s = pow(10.0, urange(-2.0, 2.0));
        int n = gen_points(i % 6, s, p, &name);
        char err[256];
        col_status st = col_hull_build(&g_alloc, p, n, &g_pool[i].h, err, sizeof err);
        if (st != COL_OK) fprintf(stderr, "pool shape %d (%s): %s\n", i, name, err);
        assert_int_equal(st, COL_OK);
        g_pool[i].kind = name;
        const col_hull *h = &g_pool[i].h;
        g_pool[i].size = col_max_abs(col_sub(h->aabb_max, h->aabb_min));
    }
}

/* ---- the backend under test ---- */

static void vq(col_vor_cache *cache, const col_hull *a, const col_xform *xa, const col_hull *b, const col_xform *xb,
               int flags, col_vor_result *r)
{
    size_t n = col_vor_scratch_bytes(a, b);
    col_np_scratch s;
    s.mem = malloc(n);
    s.size = n;
    assert_non_null(s.mem);
    memset(r, 0xA5, sizeof *r);
    col_vor_query(cache, a, xa, b, xb, flags, &s, r);
    free(s.mem);
    assert_true(r->steps >= 1);
}

static int ref_colliding(const col_hull *a, const col_xform *xa, const col_hull *b, const col_xform *xb)
{
    size_t n = col_np_scratch_bytes(&col_np_reference, a, b);
    col_np_scratch s = {malloc(n), n};
    col_np_result r;
    col_np_reference.query(NULL, a, NULL, xa, b, NULL, xb, &s, &r);
    free(s.mem);
    return r.colliding;
}

static double coord_bound(const world_hull *A, const world_hull *B)
{
    double m = 0.0;
    for (int i = 0; i < A->h->vertex_count; i++) m = fmax(m, col_max_abs(A->v[i]));
    for (int i = 0; i < B->h->vertex_count; i++) m = fmax(m, col_max_abs(B->v[i]));
    return m;
}

/* Is world point p inside the hull (every face plane, within tol)? */
static int inside(const col_hull *h, const col_xform *x, col_vec3 p, double tol)
{
    for (int f = 0; f < h->face_count; f++) {
        col_vec3 n = col_mat3_mul(&x->R, h->planes[f].n);
        col_vec3 a = col_xform_point(x, h->vertices[h->face_verts[h->face_first[f]]]);
        if (col_dot(n, col_sub(p, a)) > tol) return 0;
    }
    return 1;
}

/* How far world point p is from the feature f of h (vertex, segment, or polygon). For a
 * face: the larger of its distance from the face's plane and its excess over the face's
 * side planes (the Voronoi prism), which stays accurate for slivers. */
static double feature_distance(const world_hull *W, const col_xform *x, col_vor_feature f, col_vec3 p)
{
    const col_hull *h = W->h;
    col_vec3 c;
    if (f.type == COL_VOR_VERTEX) return col_len(col_sub(p, W->v[f.index]));
    if (f.type == COL_VOR_EDGE) return point_segment(p, W->v[h->edge_verts[2 * f.index]], W->v[h->edge_verts[2 * f.index + 1]], &c);
    const int *r = h->face_verts + h->face_first[f.index];
    int len = h->face_first[f.index + 1] - h->face_first[f.index];
    col_vec3 n = col_mat3_mul(&x->R, h->planes[f.index].n);
    double worst = fabs(col_dot(n, col_sub(p, W->v[r[0]])));
    for (int k = 0; k < len; k++) {
        col_vec3 a = W->v[r[k]], b = W->v[r[(k + 1) % len]];
        col_vec3 side = col_cross(n, col_sub(b, a)); /* toward the inside */
        double out = -col_dot(col_sub(p, a), side) / col_len(side);
        if (out > worst) worst = out;
    }
    return worst;
}

/* Statistics of a run. */
typedef struct run_stats {
    long queries, warm, cold;
    long steps_warm, steps_cold;
    int max_warm, max_cold;
    long cycles, fallbacks, cert_failures, scans, touching;
    double worst_rel; /* largest |d - d_bf| / (DIST_REL d_bf + floor), must stay <= 1 */
    long by_kind[6];
} run_stats;

static void count(run_stats *st, const col_vor_result *r)
{
    st->queries++;
    if (r->warm) {
        st->warm++;
        st->steps_warm += r->steps;
        if (r->steps > st->max_warm) st->max_warm = r->steps;
    } else {
        st->cold++;
        st->steps_cold += r->steps;
        if (r->steps > st->max_cold) st->max_cold = r->steps;
    }
    st->cycles += r->cycles;
    st->fallbacks += r->fallbacks;
    st->cert_failures += r->cert_failures;
    st->scans += r->scans;
}

/* Flags check_distance adds to COL_VOR_WANT_DISTANCE (test_coherence: COL_VOR_NO_JUMP_TEST). */
static int g_extra_flags;

/* Checks one separated configuration (expected brute-force distance known to be > 0):
 * distance, points on the bodies, points realising the distance, points on their
 * features. */
static void check_distance(const shape *sa, const col_xform *xa, const shape *sb, const col_xform *xb,
                           col_vor_cache *cache, run_stats *st, const char *what)
{
    static world_hull A, B;
    to_world(&sa->h, xa, &A);
    to_world(&sb->h, xb, &B);
    col_vec3 qa, qb;
    double dbf = brute_distance(&A, &B, &qa, &qb);
    double M = coord_bound(&A, &B);
    double floor_ = FLOOR_C * DBL_EPSILON * M;
    double tol = DIST_REL * dbf + floor_;

    col_vor_result r;
    vq(cache, &sa->h, xa, &sb->h, xb, COL_VOR_WANT_DISTANCE | g_extra_flags, &r);
    count(st, &r);
    if (dbf <= floor_) { /* within rounding of contact: any of the three answers */
        st->touching++;
        return;
    }
    if (r.outcome != COL_VOR_SEPARATED || !(fabs(r.distance - dbf) <= tol)) {
        fprintf(stderr, "%s (%s / %s): outcome %d distance %.17g brute %.17g (diff %.3g, tol %.3g) steps %d cycles %d fallbacks %d\n",
                what, sa->kind, sb->kind, r.outcome, r.distance, dbf, r.distance - dbf, tol, r.steps, r.cycles, r.fallbacks);
    }
    assert_int_equal(r.outcome, COL_VOR_SEPARATED);
    double rel = fabs(r.distance - dbf) / tol;
    if (rel > st->worst_rel) st->worst_rel = rel;
    assert_true(rel <= 1.0);
    /* The points lie on the bodies, on their features, and realise the distance. */
    assert_true(inside(&sa->h, xa, r.pa, tol));
    assert_true(inside(&sb->h, xb, r.pb, tol));
    assert_true(fabs(col_len(col_sub(r.pb, r.pa)) - dbf) <= tol);
    double fda = feature_distance(&A, xa, r.fa, r.pa), fdb = feature_distance(&B, xb, r.fb, r.pb);
    if (getenv("VCLIP_VERBOSE") && (r.fallbacks || r.cert_failures))
        fprintf(stderr, "%s (%s / %s): fallbacks %d cert %d cycles %d distance %.3g rel %.3g, features %d/%d %d/%d\n", what,
                sa->kind, sb->kind, r.fallbacks, r.cert_failures, r.cycles, r.distance, r.distance / fmax(sa->size, sb->size),
                r.fa.type, r.fa.index, r.fb.type, r.fb.index);
    /* A face's plane is known to ~eps L / w rad (w its width: thin faces of slabs and
     * needles), which moves the projected point sideways by that times the distance:
     * first order in the distance, so the distance tolerance applies. */
    if (!(fda <= tol && fdb <= tol))
        fprintf(stderr, "%s (%s / %s): points off their features (%d/%d: %.3g, %d/%d: %.3g; floor %.3g), distance %.17g, steps %d fallbacks %d cert %d\n",
                what, sa->kind, sb->kind, r.fa.type, r.fa.index, fda, r.fb.type, r.fb.index, fdb, floor_, r.distance,
                r.steps, r.fallbacks, r.cert_failures);
    assert_true(fda <= tol);
    assert_true(fdb <= tol);
    /* The certificate: gap <= distance, and positive. */
    assert_true(r.gap > 0.0 && r.gap <= r.distance + floor_);
}

/* A separated placement of b relative to a at brute-force distance exactly about
 * target (or the natural distance if target < 0): b is placed at a random direction
 * about 0.5 .. 1.5 radii apart, pushed out until the reference says separated, then
 * moved straight toward a along the closest-point direction by (d - target). */
static void place_separated(const shape *sa, const col_xform *xa, const shape *sb, col_quat qb, double target,
                            col_xform *xb)
{
    static world_hull A, B;
    col_vec3 ca = col_xform_point(xa, sa->h.centroid);
    col_vec3 u = rand_unit();
    double r = sa->h.radius + sb->h.radius, k = urange(0.5, 1.5);
    col_xform rot = make_pose(col_v3(0, 0, 0), qb);
    for (;;) {
        col_vec3 p = col_sub(col_add(ca, col_scale(u, k * r)), col_mat3_mul(&rot.R, sb->h.centroid));
        *xb = make_pose(p, qb);
        if (!ref_colliding(&sa->h, xa, &sb->h, xb)) break;
        k *= 1.3;
    }
    if (target < 0.0) return;
    to_world(&sa->h, xa, &A);
    to_world(&sb->h, xb, &B);
    col_vec3 pa, pb;
    double d = brute_distance(&A, &B, &pa, &pb);
    if (!(d > target)) return;
    col_vec3 n = col_scale(col_sub(pb, pa), 1.0 / d);
    col_vec3 p = col_sub(xb->p, col_scale(n, d - target));
    *xb = make_pose(p, qb);
}

static double gap_target(double size)
{
    double x = urand();
    if (x < 0.25) return -1.0;                               /* natural distance */
    if (x < 0.9) return size * pow(10.0, -urange(1.0, 6.0)); /* 1e-1 .. 1e-6 */
    return size * pow(10.0, -urange(6.0, 9.0));             /* 1e-6 .. 1e-9 */
}

static void print_stats(const char *name, const run_stats *st)
{
    printf("voronoi[%s]: %ld queries (%ld warm, %ld cold); steps per query: warm mean %.2f max %d, cold mean %.2f "
           "max %d; %ld cycles, %ld fallbacks, %ld certificate failures, %ld local-minimum scans, %ld within "
           "rounding of contact; worst distance error %.3g of tolerance\n",
           name, st->queries, st->warm, st->cold, st->warm ? (double)st->steps_warm / st->warm : 0.0, st->max_warm,
           st->cold ? (double)st->steps_cold / st->cold : 0.0, st->max_cold, st->cycles, st->fallbacks,
           st->cert_failures, st->scans, st->touching, st->worst_rel);
}

/* ---- tests ---- */

static void test_distance_random(void **state)
{
    (void)state;
    rng_seed(SEED, __func__);
    long n = (long)(DISTANCE_PAIRS * col_agreement_scale());
    if (n < 500) n = 500;
    printf("voronoi distance: %ld separated pairs\n", n);
    run_stats st;
    memset(&st, 0, sizeof st);
    col_vor_cache cache;
    memset(&cache, 0, sizeof cache);
    for (long i = 0; i < n; i++) {
        const shape *sa = &g_pool[rng_next() % POOL], *sb = &g_pool[rng_next() % POOL];
        double size = fmax(sa->size, sb->size);
        col_xform xa = make_pose(col_scale(rand_unit(), urange(0.0, 10.0) * size), rand_quat()), xb;
        place_separated(sa, &xa, sb, rand_quat(), gap_target(fmin(sa->size, sb->size)), &xb);
        /* cold, then warm with the same pose */
        memset(&cache, 0, sizeof cache);
        check_distance(sa, &xa, sb, &xb, &cache, &st, "random cold");
        check_distance(sa, &xa, sb, &xb, &cache, &st, "random warm");
    }
    print_stats("distance random", &st);
    /* Cycles are detected and broken, and any fallback is counted; outside the
     * rounding band they must stay rare (0.1 %). */
    assert_true(st.fallbacks <= st.queries / 1000 + 1);
}

/* Parallel faces, parallel edges, vertex over face, with gaps set along the axis:
 * identical orientations of boxes and prisms, offsets sideways. */
static void test_distance_parallel(void **state)
{
    (void)state;
    rng_seed(SEED ^ 1, __func__);
    long n = (long)(DISTANCE_PAIRS * 0.1 * col_agreement_scale());
    if (n < 200) n = 200;
    run_stats st;
    memset(&st, 0, sizeof st);
    col_vor_cache cache;
    for (long i = 0; i < n; i++) {
        /* box or prism shapes: indices with i % 6 == 1 or 5 */
        const shape *sa = &g_pool[6 * (int)(rng_next() % (POOL / 6)) + (rng_next() & 1 ? 1 : 5)];
        const shape *sb = &g_pool[6 * (int)(rng_next() % (POOL / 6)) + (rng_next() & 1 ? 1 : 5)];
        col_quat q = rand_quat();
        /* B's orientation: the same, or turned 90 degrees about a local axis (edges stay
         * parallel), or a tiny tilt (near-parallel) */
        col_quat qb = q;
        int mode = (int)(rng_next() % 3);
        if (mode == 1) {
            double s = sqrt(0.5);
            col_quat t = {0.0, 0.0, s, s}; /* 90 degrees about z */
            qb.w = q.w * t.w - q.x * t.x - q.y * t.y - q.z * t.z;
            qb.x = q.w * t.x + q.x * t.w + q.y * t.z - q.z * t.y;
            qb.y = q.w * t.y - q.x * t.z + q.y * t.w + q.z * t.x;
            qb.z = q.w * t.z + q.x * t.y - q.y * t.x + q.z * t.w;
        } else if (mode == 2) {
            double e = pow(10.0, -urange(4.0, 10.0));
            qb.x += e * gauss();
            qb.y += e * gauss();
            double l = sqrt(qb.x * qb.x + qb.y * qb.y + qb.z * qb.z + qb.w * qb.w);
            qb.x /= l, qb.y /= l, qb.z /= l, qb.w /= l;
        }
        col_xform xa = make_pose(col_scale(rand_unit(), urange(0.0, 5.0) * sa->size), q), xb;
        /* along a local axis of A, with sideways offsets */
        col_vec3 axis = col_v3(0, 0, 0);
        int k = (int)(rng_next() % 3);
        if (k == 0) axis.x = 1.0;
        if (k == 1) axis.y = 1.0;
        if (k == 2) axis.z = 1.0;
        col_vec3 side = col_v3(urange(-0.3, 0.3), urange(-0.3, 0.3), urange(-0.3, 0.3));
        col_vec3 dir = col_add(axis, side);
        col_vec3 u = col_scale(col_mat3_mul(&xa.R, dir), 1.0 / col_len(dir));
        double gap = fmin(sa->size, sb->size) * pow(10.0, -urange(1.0, 6.0));
        double r = sa->h.radius + sb->h.radius;
        col_vec3 pb = col_add(xa.p, col_scale(u, 2.0 * r));
        xb = make_pose(pb, qb);
        /* pull in to the gap */
        static world_hull A, B;
        to_world(&sa->h, &xa, &A);
        to_world(&sb->h, &xb, &B);
        col_vec3 qa, qq;
        double d = brute_distance(&A, &B, &qa, &qq);
        col_vec3 nrm = col_scale(col_sub(qq, qa), 1.0 / d);
        xb = make_pose(col_sub(pb, col_scale(nrm, d - gap)), qb);
        memset(&cache, 0, sizeof cache);
        check_distance(sa, &xa, sb, &xb, &cache, &st, "parallel cold");
        check_distance(sa, &xa, sb, &xb, &cache, &st, "parallel warm");
        /* and slid sideways a little with the warm cache (coherence across ties) */
        col_vec3 slide = col_scale(col_cross(nrm, rand_unit()), 1e-3 * sa->size);
        col_xform xc = make_pose(col_add(xb.p, slide), qb);
        if (!ref_colliding(&sa->h, &xa, &sb->h, &xc)) check_distance(sa, &xa, sb, &xc, &cache, &st, "parallel slid");
    }
    print_stats("distance parallel", &st);
    assert_true(st.fallbacks <= st.queries / 1000 + 1);
}

/* Coherent small steps (warm) and incoherent jumps: the same pair moves by small
 * relative motions; separated poses are checked against the brute force, others against
 * the reference's boolean. */
static void test_coherence(void **state)
{
    (void)state;
    rng_seed(SEED ^ 2, __func__);
    long seqs = (long)(2000 * col_agreement_scale());
    if (seqs < 40) seqs = 40;
    run_stats warm, jump, foreign, stale;
    memset(&warm, 0, sizeof warm);
    memset(&stale, 0, sizeof stale);
    memset(&jump, 0, sizeof jump);
    memset(&foreign, 0, sizeof foreign);
    col_vor_cache cache, other;
    memset(&other, 0, sizeof other);
    for (long sq = 0; sq < seqs; sq++) {
        const shape *sa = &g_pool[rng_next() % POOL], *sb = &g_pool[rng_next() % POOL];
        col_xform xa = make_pose(col_v3(0, 0, 0), rand_quat()), xb;
        col_quat qb = rand_quat();
        place_separated(sa, &xa, sb, qb, 0.05 * fmin(sa->size, sb->size), &xb);
        memset(&cache, 0, sizeof cache);
        col_vec3 w = col_scale(rand_unit(), 0.01), v = col_scale(rand_unit(), 0.002 * sb->size);
        for (int step = 0; step < 25; step++) {
            /* rotate B a little about its centroid and drift it */
            double ang = col_len(w);
            col_vec3 ax = col_scale(w, 1.0 / ang);
            double s = sin(0.5 * ang);
            col_quat dq = {ax.x * s, ax.y * s, ax.z * s, cos(0.5 * ang)};
            col_quat q2;
            q2.w = dq.w * qb.w - dq.x * qb.x - dq.y * qb.y - dq.z * qb.z;
            q2.x = dq.w * qb.x + dq.x * qb.w + dq.y * qb.z - dq.z * qb.y;
            q2.y = dq.w * qb.y - dq.x * qb.z + dq.y * qb.w + dq.z * qb.x;
            q2.z = dq.w * qb.z + dq.x * qb.y - dq.y * qb.x + dq.z * qb.w;
            qb = q2;
            col_vec3 c_old = col_xform_point(&xb, sb->h.centroid);
            col_xform t = make_pose(col_v3(0, 0, 0), qb);
            col_vec3 p = col_add(col_sub(c_old, col_mat3_mul(&t.R, sb->h.centroid)), v);
            xb = make_pose(p, qb);
            if (ref_colliding(&sa->h, &xa, &sb->h, &xb)) {
                col_vor_result r;
                vq(&cache, &sa->h, &xa, &sb->h, &xb, COL_VOR_WANT_DISTANCE, &r);
                count(&warm, &r);
                assert_int_not_equal(r.outcome, COL_VOR_SEPARATED);
                v = col_neg(v); /* back out */
                continue;
            }
            check_distance(sa, &xa, sb, &xb, &cache, &warm, "coherent");
            /* a foreign cache: the features of another pair (indices clamped or not) */
            col_vor_cache tmp = other;
            check_distance(sa, &xa, sb, &xb, &tmp, &foreign, "foreign cache");
        }
        other = cache;
        /* incoherent jumps: the same pair at an unrelated separated pose, warm */
        for (int j = 0; j < 5; j++) {
            col_xform xj;
            place_separated(sa, &xa, sb, rand_quat(), gap_target(fmin(sa->size, sb->size)), &xj);
            /* the same jump walked from the stale features (the measurement flag
             * COL_VOR_NO_JUMP_TEST, docs/voronoi.md): slower, the same answers */
            col_vor_cache old = cache;
            g_extra_flags = COL_VOR_NO_JUMP_TEST;
            check_distance(sa, &xa, sb, &xj, &old, &stale, "jump, no jump test");
            g_extra_flags = 0;
            check_distance(sa, &xa, sb, &xj, &cache, &jump, "jump");
        }
    }
    print_stats("coherent steps", &warm);
    print_stats("incoherent jumps", &jump);
    print_stats("foreign cache", &foreign);
    print_stats("incoherent jumps, no jump test", &stale);
    /* without the test every valid cache is walked from; with it some are dropped */
    assert_true(stale.warm > jump.warm);
    /* Under coherence the walk is near constant: on average well under 3 steps. */
    assert_true(warm.warm > 0 && (double)warm.steps_warm / (double)warm.warm < 3.0);
    assert_true(warm.fallbacks + jump.fallbacks + foreign.fallbacks <=
                (warm.queries + jump.queries + foreign.queries) / 1000 + 1);
}

/* Overlapping pairs: never SEPARATED; deep overlaps (B's centroid inside A, identical
 * bodies) are PENETRATING with a common point. */
static void test_penetration(void **state)
{
    (void)state;
    rng_seed(SEED ^ 3, __func__);
    long n = (long)(20000 * col_agreement_scale());
    if (n < 200) n = 200;
    run_stats st;
    memset(&st, 0, sizeof st);
    long pen = 0;
    for (long i = 0; i < n; i++) {
        const shape *sa = &g_pool[rng_next() % POOL], *sb = &g_pool[rng_next() % POOL];
        col_xform xa = make_pose(col_scale(rand_unit(), urange(0.0, 3.0) * sa->size), rand_quat());
        col_quat qb = rand_quat();
        col_xform t = make_pose(col_v3(0, 0, 0), qb);
        int deep = i % 4 == 0;
        col_vec3 target = col_xform_point(&xa, sa->h.centroid);
        if (!deep) target = col_add(target, col_scale(rand_unit(), urange(0.0, 1.0) * (sa->h.radius + sb->h.radius)));
        col_xform xb = make_pose(col_sub(target, col_mat3_mul(&t.R, sb->h.centroid)), qb);
        if (i % 50 == 7) xb = xa, sb = sa; /* identical */
        if (!ref_colliding(&sa->h, &xa, &sb->h, &xb)) continue;
        col_vor_cache cache;
        memset(&cache, 0, sizeof cache);
        for (int rep = 0; rep < 2; rep++) {
            col_vor_result r;
            vq(&cache, &sa->h, &xa, &sb->h, &xb, COL_VOR_WANT_DISTANCE, &r);
            count(&st, &r);
            if (r.outcome == COL_VOR_SEPARATED)
                fprintf(stderr, "penetration %ld (%s / %s): SEPARATED, distance %.3g\n", i, sa->kind, sb->kind, r.distance);
            assert_int_not_equal(r.outcome, COL_VOR_SEPARATED);
            if (r.outcome == COL_VOR_PENETRATING && r.fallbacks == 0) {
                pen++;
                /* the witness is a common point */
                double tol = FLOOR_C * DBL_EPSILON * (col_max_abs(r.pa) + sa->size + sb->size);
                assert_true(inside(&sa->h, &xa, r.pa, tol));
                assert_true(inside(&sb->h, &xb, r.pa, tol));
            }
        }
    }
    print_stats("penetration", &st);
    assert_true(pen > 0);
    assert_true(st.fallbacks <= st.queries / 100 + 1);
}

/* The exact fallback path, forced: the same answers as the walk. */
static void test_forced_fallback(void **state)
{
    (void)state;
    rng_seed(SEED ^ 4, __func__);
    run_stats st;
    memset(&st, 0, sizeof st);
    for (int i = 0; i < 200; i++) {
        const shape *sa = &g_pool[rng_next() % POOL], *sb = &g_pool[rng_next() % POOL];
        col_xform xa = make_pose(col_scale(rand_unit(), 2.0 * sa->size), rand_quat()), xb;
        place_separated(sa, &xa, sb, rand_quat(), gap_target(fmin(sa->size, sb->size)), &xb);
        col_vor_result r1, r2;
        vq(NULL, &sa->h, &xa, &sb->h, &xb, COL_VOR_WANT_DISTANCE, &r1);
        vq(NULL, &sa->h, &xa, &sb->h, &xb, COL_VOR_WANT_DISTANCE | COL_VOR_FORCE_FALLBACK, &r2);
        assert_int_equal(r2.fallbacks, 1);
        if (r1.outcome != COL_VOR_SEPARATED) continue;
        assert_int_equal(r2.outcome, COL_VOR_SEPARATED);
        double tol = DIST_REL * r1.distance + FLOOR_C * DBL_EPSILON * (col_max_abs(xb.p) + sa->size + sb->size);
        assert_true(fabs(r1.distance - r2.distance) <= tol);
        /* the boolean path: the reference's certificate */
        col_vor_result r3;
        vq(NULL, &sa->h, &xa, &sb->h, &xb, COL_VOR_FORCE_FALLBACK, &r3);
        assert_int_equal(r3.outcome, COL_VOR_SEPARATED);
        assert_true(r3.gap > 0.0);
    }
}

/* A stale or foreign cache (out-of-range features, face-face) is ignored safely. */
static void test_bad_cache(void **state)
{
    (void)state;
    rng_seed(SEED ^ 5, __func__);
    const shape *sa = &g_pool[0], *sb = &g_pool[1];
    col_xform xa = make_pose(col_v3(0, 0, 0), rand_quat()), xb;
    place_separated(sa, &xa, sb, rand_quat(), 0.1 * sb->size, &xb);
    col_vor_cache bad[4];
    memset(bad, 0, sizeof bad);
    bad[0].valid = 1, bad[0].fa.type = COL_VOR_FACE, bad[0].fa.index = 0, bad[0].fb.type = COL_VOR_FACE;
    bad[1].valid = 1, bad[1].fa.type = COL_VOR_EDGE, bad[1].fa.index = 1 << 20;
    bad[2].valid = 1, bad[2].fa.type = 7;
    bad[3].valid = 1, bad[3].fb.type = COL_VOR_VERTEX, bad[3].fb.index = -3;
    run_stats st;
    memset(&st, 0, sizeof st);
    for (int k = 0; k < 4; k++) check_distance(sa, &xa, sb, &xb, &bad[k], &st, "bad cache");
    assert_int_equal(st.warm, 0);
}

/* The voronoi backend itself, plus a tally of why it fell back: each query that fell
 * back is replayed (deterministically, from a copy of the cache it started with) through
 * col_vor_query to read the reason. */
static long g_fb_band, g_fb_other, g_fb_cycles, g_calls;

static void counting_query(void *cache, const col_hull *a, const void *da, const col_xform *xa, const col_hull *b,
                           const void *db, const col_xform *xb, col_np_scratch *scratch, col_np_result *out)
{
    col_vor_cache before;
    if (cache != NULL) before = *(col_vor_cache *)cache;
    g_calls++;
    col_np_voronoi.query(cache, a, da, xa, b, db, xb, scratch, out);
    if (out->fallbacks == 0) return;
    col_vor_result r;
    col_vor_query(cache != NULL ? &before : NULL, a, xa, b, xb, 0, scratch, &r);
    assert_int_equal(r.fallbacks, out->fallbacks);
    if (r.band)
        g_fb_band++;
    else
        g_fb_other++;
    g_fb_cycles += r.cycles;
}

/* The boolean answers through the shared agreement harness. */
static void test_agreement(void **state)
{
    (void)state;
    col_agreement_stats st;
    long n = (long)(AGREEMENT_PAIRS * col_agreement_scale());
    if (n < 1000) n = 1000;
    col_np_backend be = col_np_voronoi;
    be.query = counting_query;
    g_fb_band = g_fb_other = g_fb_cycles = g_calls = 0;
    long failures = col_agreement_run(&be, SEED ^ 6, n, &st);
    printf("voronoi agreement: %ld backend calls (compared or not), %ld fell back: %ld within rounding of contact "
           "(the reference decides the band), %ld after cycles or failed certificates (%ld cycles)\n",
           g_calls, g_fb_band + g_fb_other, g_fb_band, g_fb_other, g_fb_cycles);
    assert_int_equal(failures, 0);
    assert_int_equal(st.failures, 0);
    assert_true(st.pairs >= n);
    assert_true(g_fb_band + g_fb_other >= st.backend_fallbacks);
    assert_true(g_fb_other <= g_calls / 1000 + 1);
}

static void test_backend_table(void **state)
{
    (void)state;
    assert_ptr_equal(col_np_backend_get(COL_BACKEND_VORONOI), &col_np_voronoi);
    assert_string_equal(col_np_voronoi.name, "voronoi");
    assert_true(col_np_voronoi.cache_size >= sizeof(col_vor_cache));
    /* backend.h's scratch rule for every pool pair: covered by the maximum counts' need,
     * with room for the reference fallback */
    for (int i = 0; i < POOL; i++)
        for (int j = 0; j < POOL; j++) {
            size_t ab = col_vor_scratch_bytes(&g_pool[i].h, &g_pool[j].h);
            col_np_counts m = col_np_counts_max(col_np_counts_of(&g_pool[i].h), col_np_counts_of(&g_pool[j].h));
            assert_true(ab <= col_np_voronoi.scratch_need(m, m));
            assert_true(ab == col_np_scratch_bytes(&col_np_voronoi, &g_pool[i].h, &g_pool[j].h));
            assert_true(ab >= col_np_scratch_bytes(&col_np_reference, &g_pool[i].h, &g_pool[j].h));
        }
}

static int setup(void **state)
{
    (void)state;
    col_alloc_init(&g_alloc, NULL);
    rng_seed(SEED ^ 0xabcdef, "test_voronoi shape pool");
    build_pool();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    for (int i = 0; i < POOL; i++) col_hull_free(&g_alloc, &g_pool[i].h);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_backend_table),
        cmocka_unit_test(test_bad_cache),
        cmocka_unit_test(test_forced_fallback),
        cmocka_unit_test(test_distance_parallel),
        cmocka_unit_test(test_coherence),
        cmocka_unit_test(test_penetration),
        cmocka_unit_test(test_distance_random),
        cmocka_unit_test(test_agreement),
    };
    const char *only = getenv("VCLIP_TEST");
    if (only != NULL) cmocka_set_test_filter(only);
    return cmocka_run_group_tests(tests, setup, teardown);
}
