/* SPDX-License-Identifier: MIT */
/* The randomized agreement harness (see agreement.h): random pairs of hulls near
 * touching, each answered by the backend under test (with its per-pair cache) and by
 * the reference (no cache), disagreements adjudicated by the exact LP oracle.
 *
 * Why the placement is built from support points: for a direction u, let p_A maximise
 * u.a over A's world vertices and p_B minimise u.b over B's. Moving B so that
 * p_B = p_A + g u gives, for g > 0, a gap of exactly g along u with |p_B - p_A| = g, so
 * the Euclidean distance IS g (up to the rounding of the world coordinates), without
 * solving anything; g <= 0 puts a vertex of B on or into A. Gaps are sampled
 * log-uniformly over +-[1e-12, 1e-1] x scale, where backends with tolerances break.
 *
 * Everything random comes from xoshiro256** seeded by splitmix64: the shape library
 * from the run's seed, configuration i from (seed, i) alone, so a failure is reproduced
 * by the printed seed and configuration number, whatever the backend answered before.
 *
 * Configuration kinds (stats->by_kind, counted per compared query):
 *   0 random-direction gap    1 identical shape at identical pose
 *   2 face-face               3 edge-edge (two boxes, edges crossed at 45 degrees)
 *   4 vertex-face             5 large overlap (B's centroid near A's)
 *   6 far apart               7 unused
 * About 30 % of configurations are replayed as 5..10 small motions with one cache
 * (half of those cross between separated, touching and overlapping), about 5 % start
 * with a cache left over from another placement of the same two shapes, and a quarter
 * of the queries are also asked with A and B swapped. */
#include "tests/agreement.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/core/alloc.h"
#include "lib/core/hull.h"
#include "lib/core/vec.h"
#include "tests/oracle_lp.h"

/* Answers may differ only this close to touching (x size): the benchmark's rule
 * (docs/scenes.md, "World vertices and the exact answer"). */
#define AG_NEAR_REL 1e-9
/* Slack of the certificate re-check (x size). The check itself runs in long double, so
 * this only covers a backend's own honest rounding; a certificate off by more is a lie. */
#define AG_CERT_REL 1e-12
/* Shares of the configuration stream (see the top comment). */
#define AG_SEQ_SHARE 0.30
#define AG_STALE_SHARE 0.05
#define AG_SYM_SHARE 0.25
/* The oracle also audits this share of AGREEING queries on small hulls (at most
 * AG_AUDIT_VERTS vertices in all), so that a bug shared by the backend and the
 * reference does not go unseen; the LP is too slow to audit every query. */
#define AG_AUDIT_SHARE 0.004
#define AG_AUDIT_VERTS 256
/* Failures printed in full; later ones are only counted. */
#define AG_PRINT_MAX 12

enum {
    AG_RANDOM_SHAPES = 48,
    AG_BIG_SHAPES = 4, /* of the random ones, with 500..1000 points */
    AG_MAX_SHAPES = AG_RANDOM_SHAPES + 8,
    AG_SCALES = 3
};

enum { AG_GAP, AG_IDENTICAL, AG_FACE_FACE, AG_EDGE_EDGE, AG_VERTEX_FACE, AG_OVERLAP, AG_FAR };

static const double ag_scales[AG_SCALES] = {1e-3, 1.0, 1e3};
static const char *const ag_kind_names[8] = {"gap",     "identical", "face-face", "edge-edge",
                                             "vertex-face", "overlap", "far",       "unused"};

/* ---- random numbers: xoshiro256** seeded by splitmix64 (as bench/scene_rand.c) ---- */

typedef struct ag_rng {
    uint64_t s[4];
} ag_rng;

static uint64_t ag_splitmix(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

static uint64_t ag_rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t ag_next(ag_rng *r)
{
    uint64_t *s = r->s;
    uint64_t out = ag_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = ag_rotl(s[3], 45);
    return out;
}

static void ag_seed(ag_rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++) r->s[i] = ag_splitmix(&seed);
}

static double ag_unit(ag_rng *r) { return (double)(ag_next(r) >> 11) * 0x1.0p-53; }
static double ag_range(ag_rng *r, double a, double b) { return a + (b - a) * ag_unit(r); }
static int ag_int(ag_rng *r, int n) { return (int)(ag_unit(r) * n); }
static double ag_pow10(ag_rng *r, double lo, double hi) { return pow(10.0, ag_range(r, lo, hi)); }

static col_vec3 ag_dir(ag_rng *r)
{
    for (;;) {
        col_vec3 v = col_v3(ag_range(r, -1, 1), ag_range(r, -1, 1), ag_range(r, -1, 1));
        double n2 = col_len2(v);
        if (n2 > 1e-6 && n2 <= 1.0) return col_scale(v, 1.0 / sqrt(n2));
    }
}

/* Uniform random rotation (Shoemake). */
static col_quat ag_quat_random(ag_rng *r)
{
    double u1 = ag_unit(r), u2 = 6.283185307179586 * ag_unit(r), u3 = 6.283185307179586 * ag_unit(r);
    double a = sqrt(1.0 - u1), b = sqrt(u1);
    col_quat q = {a * sin(u2), a * cos(u2), b * sin(u3), b * cos(u3)};
    return q;
}

/* ---- quaternions ---- */

static col_quat ag_quat_norm(col_quat q)
{
    double l = sqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    col_quat o = {q.x / l, q.y / l, q.z / l, q.w / l};
    return o;
}

/* p q: rotate by q first, then by p. */
static col_quat ag_quat_axis_angle(col_vec3 axis, double angle)
{
    double s = sin(0.5 * angle) / col_len(axis);
    col_quat q = {axis.x * s, axis.y * s, axis.z * s, cos(0.5 * angle)};
    return ag_quat_norm(q);
}

/* The shortest rotation taking unit a to unit b. */
static col_quat ag_quat_align(col_vec3 a, col_vec3 b)
{
    double c = col_dot(a, b);
    if (c < -1.0 + 1e-12) { /* antiparallel: half a turn about any perpendicular */
        col_vec3 p = col_cross(a, fabs(a.x) < 0.6 ? col_v3(1, 0, 0) : col_v3(0, 1, 0));
        return ag_quat_axis_angle(p, 3.141592653589793);
    }
    col_vec3 v = col_cross(a, b);
    col_quat q = {v.x, v.y, v.z, 1.0 + c};
    return ag_quat_norm(q);
}

/* ---- the shape library ---- */

typedef struct ag_shape {
    const char *name;
    int points;              /* input points */
    int boxlike;             /* an axis-aligned box about the origin, half extents below */
    double half[3];          /* at scale 1 */
    col_hull hull[AG_SCALES];
} ag_shape;

typedef struct ag_lib {
    col_alloc alloc;
    ag_shape shape[AG_MAX_SHAPES];
    int count;
    int cube, coplanar_box;  /* indices of two box-like specials (edge-edge kind) */
    int boxes[AG_MAX_SHAPES];
    int box_count;
    int max_verts;
} ag_lib;

/* Area-uniform point on an ellipsoid surface (as bench/scene_rand.c draws them). */
static col_vec3 ag_ellipsoid_point(ag_rng *r, const double ax[3])
{
    double a = ax[0], b = ax[1], c = ax[2];
    double gmax = fmax(b * c, fmax(a * c, a * b));
    for (;;) {
        col_vec3 d = ag_dir(r);
        double g = sqrt(b * c * d.x * b * c * d.x + a * c * d.y * a * c * d.y + a * b * d.z * a * b * d.z);
        if (ag_unit(r) * gmax <= g) return col_v3(a * d.x, b * d.y, c * d.z);
    }
}

/* Area-uniform point on the faces of the box [-h,h] (as bench/scene_rand.c draws them): the face
 * coordinate is exactly +-h, so these points are exactly coplanar with the corners. */
static col_vec3 ag_box_point(ag_rng *r, const double h[3])
{
    double area[3] = {h[1] * h[2], h[0] * h[2], h[0] * h[1]};
    double t = ag_unit(r) * (area[0] + area[1] + area[2]);
    int k = t < area[0] ? 0 : (t < area[0] + area[1] ? 1 : 2);
    double p[3];
    for (int i = 0; i < 3; i++) p[i] = ag_range(r, -h[i], h[i]);
    p[k] = ag_unit(r) < 0.5 ? -h[k] : h[k];
    return col_v3(p[0], p[1], p[2]);
}

static int ag_box_corners(const double h[3], col_vec3 *p)
{
    for (int i = 0; i < 8; i++) p[i] = col_v3(i & 1 ? h[0] : -h[0], i & 2 ? h[1] : -h[1], i & 4 ? h[2] : -h[2]);
    return 8;
}

/* Builds the shape at the three scales (points multiplied by s; the hull drops interior
 * and coplanar face points). Returns 0 if a scale failed (flat random point sets). */
static int ag_shape_build(ag_lib *lib, ag_shape *sh, const col_vec3 *pts, int n, col_vec3 *tmp)
{
    for (int k = 0; k < AG_SCALES; k++) {
        for (int i = 0; i < n; i++) tmp[i] = col_scale(pts[i], ag_scales[k]);
        char err[256];
        if (col_hull_build(&lib->alloc, tmp, n, &sh->hull[k], err, sizeof err) != COL_OK) {
            for (int j = 0; j < k; j++) col_hull_free(&lib->alloc, &sh->hull[j]);
            return 0;
        }
        if (sh->hull[k].vertex_count > lib->max_verts) lib->max_verts = sh->hull[k].vertex_count;
    }
    sh->points = n;
    return 1;
}

static void ag_add_box(ag_lib *lib, const char *name, const double h[3], int extra, ag_rng *r,
                       col_vec3 *pts, col_vec3 *tmp)
{
    ag_shape *sh = &lib->shape[lib->count];
    int n = ag_box_corners(h, pts);
    for (int i = 0; i < extra; i++) pts[n++] = ag_box_point(r, h);
    sh->name = name;
    sh->boxlike = 1;
    memcpy(sh->half, h, sizeof sh->half);
    if (!ag_shape_build(lib, sh, pts, n, tmp)) {
        fprintf(stderr, "agreement: the %s does not build\n", name);
        abort();
    }
    lib->boxes[lib->box_count++] = lib->count++;
}

/* 48 shapes as our generator makes them (bench/scene_gen.c) (ellipsoid 1 x 0.6 x 0.4, rod 1 x 0.12 x 0.12, plate
 * 1 x 1 x 0.1, box 2 x 1.2 x 0.8 with face points), point counts log-uniform in 4..500
 * except AG_BIG_SHAPES in 500..1000; a quarter moved off the local origin so that the
 * rotation centre is not the centroid. Then the special shapes. */
static int ag_lib_build(ag_lib *lib, uint64_t seed)
{
    static const double axes[4][3] = {{1, 0.6, 0.4}, {1, 0.12, 0.12}, {1, 1, 0.1}, {1, 0.6, 0.4}};
    static const char *const names[4] = {"ellipsoid", "rod", "plate", "box"};
    memset(lib, 0, sizeof *lib);
    col_alloc_init(&lib->alloc, NULL);
    col_vec3 *pts = malloc(sizeof(col_vec3) * 1100), *tmp = malloc(sizeof(col_vec3) * 1100);
    if (pts == NULL || tmp == NULL) {
        free(pts);
        free(tmp);
        return -1;
    }
    ag_rng r;
    ag_seed(&r, seed ^ UINT64_C(0x11b7a7e5eed));
    for (int s = 0; s < AG_RANDOM_SHAPES; s++) {
        int kind = s % 4;
        ag_shape *sh = &lib->shape[lib->count];
        int big = s >= AG_RANDOM_SHAPES - AG_BIG_SHAPES, offset = (s / 4) % 4 == 1;
        for (;;) {
            int n = big ? 500 + ag_int(&r, 501) : (int)exp(ag_range(&r, log(4.0), log(500.0)));
            if (n < 4) n = 4;
            int i = 0;
            if (kind == 3) {
                if (n < 8) n = 8;
                i = ag_box_corners(axes[3], pts);
            }
            for (; i < n; i++) pts[i] = kind == 3 ? ag_box_point(&r, axes[3]) : ag_ellipsoid_point(&r, axes[kind]);
            if (offset) {
                col_vec3 off = col_scale(ag_dir(&r), ag_range(&r, 0.0, 0.3));
                for (i = 0; i < n; i++) pts[i] = col_add(pts[i], off);
            }
            sh->name = names[kind];
            if (ag_shape_build(lib, sh, pts, n, tmp)) break;
        }
        if (kind == 3 && !offset) {
            sh->boxlike = 1;
            memcpy(sh->half, axes[3], sizeof sh->half);
            lib->boxes[lib->box_count++] = lib->count;
        }
        lib->count++;
    }

    const double cube[3] = {0.5, 0.5, 0.5}, slab[3] = {0.5, 0.5, 0.5e-4}, needle[3] = {0.5, 0.5e-3, 0.5e-3};
    lib->cube = lib->count;
    ag_add_box(lib, "unit cube", cube, 0, &r, pts, tmp);
    ag_add_box(lib, "slab 1e-4", slab, 0, &r, pts, tmp);
    ag_add_box(lib, "needle 1e-3", needle, 0, &r, pts, tmp);
    lib->coplanar_box = lib->count;
    ag_add_box(lib, "coplanar box", axes[3], 400, &r, pts, tmp);

    /* Regular tetrahedron: the sharpest vertices (support placement puts B's vertex
     * outside A for some overlapping g, which is fine: the oracle decides). */
    ag_shape *sh = &lib->shape[lib->count];
    pts[0] = col_v3(0.5, 0.5, 0.5);
    pts[1] = col_v3(0.5, -0.5, -0.5);
    pts[2] = col_v3(-0.5, 0.5, -0.5);
    pts[3] = col_v3(-0.5, -0.5, 0.5);
    sh->name = "tetrahedron";
    if (!ag_shape_build(lib, sh, pts, 4, tmp)) abort();
    lib->count++;

    /* A 32-gon prism: two faces of 32 coplanar VERTICES (the box's face points are
     * dropped by the hull; these are not). */
    sh = &lib->shape[lib->count];
    for (int i = 0; i < 64; i++) {
        double t = 6.283185307179586 * (i % 32) / 32.0;
        pts[i] = col_v3(0.6 * cos(t), 0.6 * sin(t), i < 32 ? -0.3 : 0.3);
    }
    sh->name = "32-gon prism";
    if (!ag_shape_build(lib, sh, pts, 64, tmp)) abort();
    lib->count++;

    free(pts);
    free(tmp);
    return 0;
}

static void ag_lib_free(ag_lib *lib)
{
    for (int s = 0; s < lib->count; s++)
        for (int k = 0; k < AG_SCALES; k++) col_hull_free(&lib->alloc, &lib->shape[s].hull[k]);
    if (lib->alloc.bytes != 0) fprintf(stderr, "agreement: %" PRIu64 " bytes of hulls leaked\n", lib->alloc.bytes);
}

/* Any shape, the larger ones less often: the reference costs O(V^2) per query, so a
 * shape of V > AG_SMALL_VERTS vertices is accepted with probability
 * (AG_SMALL_VERTS / V)^AG_PICK_POWER, which keeps every shape in play while the run
 * stays within about a minute per 1e5 configurations. */
#ifndef AG_SMALL_VERTS
#define AG_SMALL_VERTS 64.0
#endif
#ifndef AG_PICK_POWER
#define AG_PICK_POWER 1.0
#endif
static int ag_pick_shape(const ag_lib *lib, ag_rng *r)
{
    for (;;) {
        int s = ag_int(r, lib->count);
        double v = lib->shape[s].hull[1].vertex_count, u = ag_unit(r);
        if (v <= AG_SMALL_VERTS || u < pow(AG_SMALL_VERTS / v, AG_PICK_POWER)) return s;
    }
}

/* ---- configurations ---- */

typedef struct ag_config {
    long index;    /* configuration number (reproducible from the seed alone) */
    int step;      /* motion step within a sequence (0 = the configuration itself) */
    int kind;
    int si;        /* scale index */
    int ia, ib;    /* shapes */
    double g;      /* the placement gap parameter (NAN when the kind has none) */
    col_vec3 u;    /* the placement direction (zero when the kind has none) */
    col_quat qa, qb;
    col_vec3 pa, pb;
    int stale;     /* the cache was left over from another configuration */
} ag_config;

typedef struct ag_run {
    const col_np_backend *be;
    col_agreement_stats *st;
    uint64_t seed;
    ag_lib lib;
    col_np_scratch scratch;
    void *cache, *cache2;
    size_t cache_bytes;
    col_vec3 *wa, *wb;   /* world vertices */
    long configs, sym_checks, asymmetric, stale, audits, cert_checks;
    long answer_failures, cert_failures, reference_bugs, oracle_errors, printed;
    long kind_hits[8], warm_hits;
} ag_run;

static const col_hull *ag_hull(const ag_run *r, int shape, int si) { return &r->lib.shape[shape].hull[si]; }

static col_xform ag_xform(col_quat q, col_vec3 p)
{
    col_xform x;
    x.R = col_mat3_from_quat(q);
    x.p = p;
    return x;
}

static int ag_world(const col_hull *h, const col_xform *x, col_vec3 *out)
{
    for (int i = 0; i < h->vertex_count; i++) out[i] = col_xform_point(x, h->vertices[i]);
    return h->vertex_count;
}

/* Gap parameter near touching: exactly 0 (touching) or +-s 10^U(-12,-1). */
static double ag_sample_gap(ag_rng *r, double s)
{
    double zero = ag_unit(r), sign = ag_unit(r) < 0.5 ? -1.0 : 1.0, mag = ag_pow10(r, -12.0, -1.0);
    return zero < 0.1 ? 0.0 : sign * s * mag;
}

/* Moves B so that its support point along -u sits at A's support point along u plus
 * g u (see the top comment). */
static void ag_place_support(ag_run *r, ag_config *c, col_vec3 u, double g)
{
    const col_hull *ha = ag_hull(r, c->ia, c->si), *hb = ag_hull(r, c->ib, c->si);
    col_xform xa = ag_xform(c->qa, c->pa), xb = ag_xform(c->qb, c->pb);
    int na = ag_world(ha, &xa, r->wa), nb = ag_world(hb, &xb, r->wb);
    int ia = 0, ib = 0;
    for (int i = 1; i < na; i++)
        if (col_dot(u, r->wa[i]) > col_dot(u, r->wa[ia])) ia = i;
    for (int j = 1; j < nb; j++)
        if (col_dot(u, r->wb[j]) < col_dot(u, r->wb[ib])) ib = j;
    col_vec3 target = col_add(r->wa[ia], col_scale(u, g));
    c->pb = col_add(c->pb, col_sub(target, r->wb[ib]));
}

/* Moves B along u only, so that min_b u.b - max_a u.a = g: keeps a tangential placement
 * chosen before (face over face, vertex over face, crossed edges), where the support
 * features are faces or edges and the gap along u is the distance. */
static void ag_place_along(ag_run *r, ag_config *c, col_vec3 u, double g)
{
    const col_hull *ha = ag_hull(r, c->ia, c->si), *hb = ag_hull(r, c->ib, c->si);
    col_xform xa = ag_xform(c->qa, c->pa), xb = ag_xform(c->qb, c->pb);
    int na = ag_world(ha, &xa, r->wa), nb = ag_world(hb, &xb, r->wb);
    double amax = -INFINITY, bmin = INFINITY;
    for (int i = 0; i < na; i++) amax = fmax(amax, col_dot(u, r->wa[i]));
    for (int j = 0; j < nb; j++) bmin = fmin(bmin, col_dot(u, r->wb[j]));
    c->pb = col_add(c->pb, col_scale(u, amax + g - bmin));
}

/* World centroid of face f of hull h, and one of its vertices. */
static col_vec3 ag_face_point(const col_hull *h, const col_xform *x, int f, ag_rng *r, double lambda_max)
{
    int first = h->face_first[f], len = h->face_first[f + 1] - first;
    col_vec3 c = col_v3(0, 0, 0);
    for (int i = 0; i < len; i++) c = col_add(c, h->vertices[h->face_verts[first + i]]);
    c = col_scale(c, 1.0 / len);
    col_vec3 v = h->vertices[h->face_verts[first + ag_int(r, len)]];
    c = col_add(c, col_scale(col_sub(v, c), ag_range(r, 0.0, lambda_max)));
    return col_xform_point(x, c);
}

static col_vec3 ag_world_normal(const col_hull *h, col_quat q, int f)
{
    col_mat3 R = col_mat3_from_quat(q);
    col_vec3 n = col_mat3_mul(&R, h->planes[f].n);
    return col_scale(n, 1.0 / col_len(n));
}

static void ag_gen_face_face(ag_run *run, ag_rng *r, ag_config *c, double s)
{
    const ag_lib *lib = &run->lib;
    if (ag_unit(r) < 0.4) {
        /* Two boxes with the same orientation (identity half the time, where world
         * coordinates are nearly exact), offset along one axis and slid sideways so
         * the faces overlap partially (sometimes only along an edge or a corner). */
        c->ia = lib->boxes[ag_int(r, lib->box_count)];
        c->ib = lib->boxes[ag_int(r, lib->box_count)];
        const double *ha = lib->shape[c->ia].half, *hb = lib->shape[c->ib].half;
        col_quat q = ag_unit(r) < 0.5 ? col_quat_identity() : ag_quat_random(r);
        int k = ag_int(r, 3);
        double sg = ag_unit(r) < 0.5 ? -1.0 : 1.0;
        double off[3];
        for (int j = 0; j < 3; j++) off[j] = s * ag_range(r, -1.0, 1.0) * (ha[j] + hb[j]);
        off[k] = sg * s * (ha[k] + hb[k]);
        col_vec3 e = col_v3(k == 0 ? sg : 0.0, k == 1 ? sg : 0.0, k == 2 ? sg : 0.0);
        col_mat3 R = col_mat3_from_quat(q);
        c->qa = c->qb = q;
        c->pb = col_add(c->pa, col_mat3_mul(&R, col_v3(off[0], off[1], off[2])));
        c->u = col_mat3_mul(&R, e);
    } else {
        /* Any two shapes (a rotated copy 30 % of the time), a face of B turned
         * anti-parallel to a face of A, spun about the normal, its centroid over a
         * point of A's face. */
        c->ia = ag_pick_shape(lib, r);
        c->ib = ag_unit(r) < 0.3 ? c->ia : ag_pick_shape(lib, r);
        const col_hull *ha = ag_hull(run, c->ia, c->si), *hb = ag_hull(run, c->ib, c->si);
        int fa = ag_int(r, ha->face_count), fb = ag_int(r, hb->face_count);
        c->qa = ag_quat_random(r);
        c->u = ag_world_normal(ha, c->qa, fa);
        col_quat align = ag_quat_align(hb->planes[fb].n, col_neg(c->u));
        c->qb = ag_quat_norm(col_quat_mul(ag_quat_axis_angle(c->u, ag_range(r, 0.0, 6.283185307179586)), align));
        col_xform xa = ag_xform(c->qa, c->pa), xb0 = ag_xform(c->qb, col_v3(0, 0, 0));
        col_vec3 target = ag_face_point(ha, &xa, fa, r, 1.0);
        col_vec3 cb = ag_face_point(hb, &xb0, fb, r, 0.0);
        c->pb = col_sub(target, cb);
    }
    c->g = ag_sample_gap(r, s);
    ag_place_along(run, c, c->u, c->g);
}

/* Two boxes (the unit cube mostly), A turned 45 degrees about x (its top edge runs
 * along x), B 45 degrees about y (its bottom edge along y), both under a common
 * rotation: the edges cross, and only the edge-edge axis u separates them. */
static void ag_gen_edge_edge(ag_run *run, ag_rng *r, ag_config *c, double s)
{
    const ag_lib *lib = &run->lib;
    c->ia = ag_unit(r) < 0.75 ? lib->cube : lib->coplanar_box;
    c->ib = ag_unit(r) < 0.75 ? lib->cube : lib->coplanar_box;
    col_quat q0 = ag_unit(r) < 0.3 ? col_quat_identity() : ag_quat_random(r);
    const double q45 = 0.7853981633974483;
    double tilt = ag_unit(r) < 0.3 ? ag_pow10(r, -10.0, -3.0) : 0.0; /* almost 45 degrees */
    c->qa = ag_quat_norm(col_quat_mul(q0, ag_quat_axis_angle(col_v3(1, 0, 0), q45 + tilt)));
    c->qb = ag_quat_norm(col_quat_mul(q0, ag_quat_axis_angle(col_v3(0, 1, 0), q45)));
    col_mat3 R0 = col_mat3_from_quat(q0);
    double hx = lib->shape[c->ia].half[0], hy = lib->shape[c->ib].half[1];
    double h = fmin(hx, hy);
    col_vec3 off = col_v3(s * ag_range(r, -0.4, 0.4) * h, s * ag_range(r, -0.4, 0.4) * h, 0.0);
    c->pb = col_add(c->pa, col_mat3_mul(&R0, off));
    c->u = col_mat3_mul(&R0, col_v3(0, 0, 1));
    c->g = ag_sample_gap(r, s);
    ag_place_along(run, c, c->u, c->g);
}

/* B's support vertex along a random local direction w, turned so that w points at A's
 * face (w -> -u): that vertex is B's unique lowest point along u, over a point of the
 * face's interior. */
static void ag_gen_vertex_face(ag_run *run, ag_rng *r, ag_config *c, double s)
{
    const ag_lib *lib = &run->lib;
    c->ia = ag_pick_shape(lib, r);
    c->ib = ag_pick_shape(lib, r);
    const col_hull *ha = ag_hull(run, c->ia, c->si), *hb = ag_hull(run, c->ib, c->si);
    int fa = ag_int(r, ha->face_count);
    c->qa = ag_quat_random(r);
    c->u = ag_world_normal(ha, c->qa, fa);
    col_vec3 w = ag_dir(r);
    col_vec3 vb = hb->vertices[col_hull_support_scan(hb, w)];
    col_quat align = ag_quat_align(w, col_neg(c->u));
    c->qb = ag_quat_norm(col_quat_mul(ag_quat_axis_angle(c->u, ag_range(r, 0.0, 6.283185307179586)), align));
    col_xform xa = ag_xform(c->qa, c->pa);
    col_mat3 Rb = col_mat3_from_quat(c->qb);
    col_vec3 target = ag_face_point(ha, &xa, fa, r, 0.95);
    c->pb = col_sub(target, col_mat3_mul(&Rb, vb));
    c->g = ag_sample_gap(r, s);
    ag_place_along(run, c, c->u, c->g);
}

static int ag_pick_kind(ag_rng *r)
{
    static const double cum[7] = {0.50, 0.53, 0.66, 0.73, 0.82, 0.91, 1.0};
    double x = ag_unit(r);
    int k = 0;
    while (k < 6 && x >= cum[k]) k++;
    return k;
}

/* Configuration kind at scale si (kind < 0: any kind, shapes picked; else the given kind
 * with the shapes already in c, used for the stale-cache warm-up). */
static void ag_generate(ag_run *run, ag_rng *r, ag_config *c, int kind)
{
    double s = ag_scales[c->si];
    int keep_shapes = kind >= 0;
    c->kind = keep_shapes ? kind : ag_pick_kind(r);
    c->step = 0;
    c->g = NAN;
    c->u = col_v3(0, 0, 0);
    double far = ag_unit(r);
    c->pa = col_scale(ag_dir(r), far < 0.05 ? 1e3 * s : ag_range(r, 0.0, 10.0) * s);
    c->qa = ag_quat_random(r);
    c->qb = ag_quat_random(r);
    c->pb = col_v3(0, 0, 0);
    if (!keep_shapes && c->kind != AG_FACE_FACE && c->kind != AG_EDGE_EDGE && c->kind != AG_VERTEX_FACE) {
        c->ia = ag_pick_shape(&run->lib, r);
        c->ib = ag_pick_shape(&run->lib, r);
    }
    switch (c->kind) {
    case AG_IDENTICAL:
        c->ib = c->ia;
        c->qb = c->qa;
        c->pb = c->pa;
        break;
    case AG_FACE_FACE: ag_gen_face_face(run, r, c, s); break;
    case AG_EDGE_EDGE: ag_gen_edge_edge(run, r, c, s); break;
    case AG_VERTEX_FACE: ag_gen_vertex_face(run, r, c, s); break;
    case AG_OVERLAP: {
        const col_hull *ha = ag_hull(run, c->ia, c->si), *hb = ag_hull(run, c->ib, c->si);
        col_xform xa = ag_xform(c->qa, c->pa);
        col_mat3 Rb = col_mat3_from_quat(c->qb);
        double rad = 0.3 * fmin(ha->radius, hb->radius);
        col_vec3 target = col_add(col_xform_point(&xa, ha->centroid), col_scale(ag_dir(r), ag_range(r, 0.0, rad)));
        c->pb = col_sub(target, col_mat3_mul(&Rb, hb->centroid));
        break;
    }
    case AG_FAR:
        c->u = ag_dir(r);
        c->g = ag_unit(r) < 0.2 ? 1e3 * s * ag_range(r, 1.0, 2.0) : s * ag_pow10(r, -1.0, 1.0);
        ag_place_support(run, c, c->u, c->g);
        break;
    default:
        c->u = ag_dir(r);
        c->g = ag_sample_gap(r, s);
        ag_place_support(run, c, c->u, c->g);
        break;
    }
}

/* One motion step of B relative to A. Crossing sequences turn B a little and re-place
 * it along u with the next gap of a separated -> touching -> overlapping -> touching ->
 * separated schedule. The others turn B by 1e-3..1e-1 rad and translate it by
 * 1e-3..1e-1 of the scale; where the configuration has a contact direction u, the turn
 * is about B's lowest point along u and the translation mostly along +-u, so that the
 * pair stays near contact (a sideways drift would leave a vertex contact at once). */
static void ag_move(ag_run *run, ag_rng *r, ag_config *c, int crossing)
{
    double s = ag_scales[c->si];
    const col_hull *hb = ag_hull(run, c->ib, c->si);
    int contact = c->kind != AG_FAR && col_len2(c->u) > 0.0;
    double angle = crossing ? ag_pow10(r, -4.0, -2.0) : ag_pow10(r, -3.0, -1.0);
    col_quat turn = ag_quat_axis_angle(ag_dir(r), angle);
    col_mat3 Rb = col_mat3_from_quat(c->qb);
    col_vec3 pivot_local = contact ? hb->vertices[col_hull_support_scan(hb, col_mat3_tmul(&Rb, col_neg(c->u)))]
                                   : hb->centroid;
    col_vec3 pivot = col_add(col_mat3_mul(&Rb, pivot_local), c->pb);
    c->qb = ag_quat_norm(col_quat_mul(turn, c->qb));
    Rb = col_mat3_from_quat(c->qb);
    c->pb = col_sub(pivot, col_mat3_mul(&Rb, pivot_local));
    c->step++;
    if (crossing) {
        static const double sign[6] = {1.0, 0.0, -1.0, -1.0, 0.0, 1.0};
        double mag = s * ag_pow10(r, -12.0, -3.0);
        c->g = sign[(c->step - 1) % 6] * mag;
        ag_place_along(run, c, c->u, c->g);
        return;
    }
    double len = s * ag_pow10(r, -3.0, -1.0), sign = ag_unit(r) < 0.5 ? -1.0 : 1.0;
    col_vec3 d = ag_dir(r);
    if (contact) d = col_add(col_scale(c->u, sign), col_scale(d, 0.3));
    c->pb = col_add(c->pb, col_scale(d, len / col_len(d)));
    c->g = NAN;
}

/* ---- checking ---- */

static int ag_scratch_fit(ag_run *r, size_t need)
{
    if (need <= r->scratch.size) return 0;
    size_t size = r->scratch.size * 2 > need ? r->scratch.size * 2 : need;
    void *mem = malloc(size);
    if (mem == NULL) return -1;
    free(r->scratch.mem);
    r->scratch.mem = mem;
    r->scratch.size = size;
    return 0;
}

static void ag_print_config(const ag_run *r, const ag_config *c, const char *what)
{
    const ag_shape *sa = &r->lib.shape[c->ia], *sb = &r->lib.shape[c->ib];
    double s = ag_scales[c->si];
    printf("agreement[%s] %s: seed 0x%016" PRIx64 " configuration %ld step %d, kind %d (%s), scale %g%s\n",
           r->be->name, what, r->seed, c->index, c->step, c->kind, ag_kind_names[c->kind], s,
           c->stale ? ", stale cache" : "");
    printf("    A = shape %d (%s, %d points, %d vertices), B = shape %d (%s, %d points, %d vertices)\n", c->ia,
           sa->name, sa->points, sa->hull[c->si].vertex_count, c->ib, sb->name, sb->points,
           sb->hull[c->si].vertex_count);
    printf("    g %.17g (%.3g x scale), u (%.17g, %.17g, %.17g)\n", c->g, c->g / s, c->u.x, c->u.y, c->u.z);
    printf("    A pose p (%.17g, %.17g, %.17g) q (%.17g, %.17g, %.17g, %.17g)\n", c->pa.x, c->pa.y, c->pa.z,
           c->qa.x, c->qa.y, c->qa.z, c->qa.w);
    printf("    B pose p (%.17g, %.17g, %.17g) q (%.17g, %.17g, %.17g, %.17g)\n", c->pb.x, c->pb.y, c->pb.z,
           c->qb.x, c->qb.y, c->qb.z, c->qb.w);
}

static const char *ag_answer(int colliding) { return colliding ? "colliding" : "separated"; }

/* A disagreement between the backend (answer be, swapped: A and B exchanged) and the
 * reference (ref): the exact oracle decides, and within 1e-9 x size of touching either
 * answer is allowed. The world vertices are in r->wa, r->wb. */
static void ag_adjudicate(ag_run *r, const ag_config *c, int na, int nb, double size, int be, int ref,
                          int swapped)
{
    col_agreement_stats *st = r->st;
    int ex = col_oracle_intersect(r->wa, na, r->wb, nb);
    double m = col_oracle_margin(r->wa, na, r->wb, nb);
    if (ex >= 0 && !isnan(m) && fabs(m) <= AG_NEAR_REL * size) {
        st->near_excused++;
        return;
    }
    st->failures++;
    int ref_bug = ex >= 0 && ex == be && ex != ref;
    if (ex < 0 || isnan(m)) r->oracle_errors++;
    else if (ref_bug) r->reference_bugs++;
    else r->answer_failures++;
    if (r->printed++ >= AG_PRINT_MAX && !ref_bug) return; /* reference bugs: always loud */
    ag_print_config(r, c, ref_bug ? "REFERENCE BUG (the reference is wrong, the backend right)" : "FAILURE");
    if (ref_bug)
        printf("    !!!!!!!! the exact reference backend disagrees with the exact oracle: fix "
               "narrowphase/reference.c !!!!!!!!\n");
    printf("    backend%s %s, reference %s, oracle %s, margin %.3g (%.3g x size %.3g)\n",
           swapped ? " (B, A)" : "", ag_answer(be), ag_answer(ref), ex < 0 ? "FAILED" : ag_answer(ex), m,
           m / size, size);
}

/* The separation certificate, re-checked by a full projection of all world vertices in
 * long double (a double product is then accurate to ~1e-19 relative): it must hold,
 * min_b s.b - max_a s.a >= gap, up to AG_CERT_REL x size. A gap of 0 only claims
 * separation within the backend's rounding, so there it must hold to that rounding. */
static void ag_check_certificate(ag_run *r, const ag_config *c, const col_vec3 *A, int na, const col_vec3 *B,
                                 int nb, double size, const col_np_result *res, int swapped)
{
    if (res->colliding) return;
    r->cert_checks++;
    col_vec3 s = res->axis;
    long double amax = -INFINITY, bmin = INFINITY;
    double M = 0.0;
    for (int i = 0; i < na; i++) {
        long double p = (long double)s.x * A[i].x + (long double)s.y * A[i].y + (long double)s.z * A[i].z;
        amax = p > amax ? p : amax;
        M = fmax(M, col_max_abs(A[i]));
    }
    for (int j = 0; j < nb; j++) {
        long double p = (long double)s.x * B[j].x + (long double)s.y * B[j].y + (long double)s.z * B[j].z;
        bmin = p < bmin ? p : bmin;
        M = fmax(M, col_max_abs(B[j]));
    }
    long double g = bmin - amax;
    double slack = AG_CERT_REL * size + (res->gap > 0.0 ? 0.0 : 32.0 * DBL_EPSILON * M);
    int ok = col_vec3_is_finite(s) && fabs(col_len(s) - 1.0) <= 1e-9 && isfinite(res->gap) && res->gap >= 0.0 &&
             g >= (long double)res->gap - (long double)slack;
    if (ok) return;
    r->st->failures++;
    r->cert_failures++;
    if (r->printed++ >= AG_PRINT_MAX) return;
    ag_print_config(r, c, "CERTIFICATE FAILURE");
    printf("    backend%s: separated along (%.17g, %.17g, %.17g) |s| %.17g, claimed gap %.17g (%.3g x size); "
           "true gap along s %.17g (%.3g x size)\n",
           swapped ? " (B, A)" : "", s.x, s.y, s.z, col_len(s), res->gap, res->gap / size, (double)g,
           (double)g / size);
}

/* Runs one query of the backend (with cache, which may be NULL) on (ha, xa) vs (hb, xb). */
static int ag_query(ag_run *r, const col_np_backend *be, void *cache, const col_hull *ha, const col_xform *xa,
                    const col_hull *hb, const col_xform *xb, col_np_result *out)
{
    if (ag_scratch_fit(r, col_np_scratch_bytes(be, ha, hb)) != 0) return -1;
    memset(out, 0xA5, sizeof *out); /* the backend must fill every field */
    be->query(cache, ha, NULL, xa, hb, NULL, xb, &r->scratch, out);
    return 0;
}

/* One compared query: the backend with cache (warm: already used for this pair), the
 * reference without, certificates, the oracle on disagreement, sometimes the swapped
 * order and an oracle audit. The random draws come first, so the stream of
 * configurations does not depend on any answer. */
static int ag_check(ag_run *r, ag_rng *rng, const ag_config *c, void *cache, int warm)
{
    col_agreement_stats *st = r->st;
    int sym = ag_unit(rng) < AG_SYM_SHARE, sym_null = ag_unit(rng) < 0.5, audit = ag_unit(rng) < AG_AUDIT_SHARE;
    const col_hull *ha = ag_hull(r, c->ia, c->si), *hb = ag_hull(r, c->ib, c->si);
    col_xform xa = ag_xform(c->qa, c->pa), xb = ag_xform(c->qb, c->pb);
    double size = fmax(ha->radius, hb->radius);

    col_np_result rb, rr;
    if (ag_query(r, r->be, cache, ha, &xa, hb, &xb, &rb) != 0) return -1;
    if (ag_query(r, &col_np_reference, NULL, ha, &xa, hb, &xb, &rr) != 0) return -1;
    st->pairs++;
    st->hits += rr.colliding;
    st->by_kind[c->kind]++;
    st->warm_queries += warm;
    r->kind_hits[c->kind] += rr.colliding;
    r->warm_hits += warm && rr.colliding;
    st->backend_fallbacks += rb.fallbacks;
    st->backend_iterations += rb.iterations;

    int na = ag_world(ha, &xa, r->wa), nb = ag_world(hb, &xb, r->wb);
    ag_check_certificate(r, c, r->wa, na, r->wb, nb, size, &rb, 0);
    if (rb.colliding != rr.colliding) {
        ag_adjudicate(r, c, na, nb, size, rb.colliding, rr.colliding, 0);
    } else if (audit && na + nb <= AG_AUDIT_VERTS) {
        /* Both agree; the oracle audits (a bug shared by both is a failure too). */
        r->audits++;
        int ex = col_oracle_intersect(r->wa, na, r->wb, nb);
        if (ex != rr.colliding) ag_adjudicate(r, c, na, nb, size, rb.colliding, rr.colliding, 0);
    }

    if (sym) {
        /* B and A swapped, one-off (no cache) or with a fresh cache of its own. */
        col_np_result rs;
        void *c2 = NULL;
        if (!sym_null) {
            c2 = r->cache2;
            memset(c2, 0xCD, r->cache_bytes);
            r->be->cache_init(c2, hb, ha);
        }
        if (ag_query(r, r->be, c2, hb, &xb, ha, &xa, &rs) != 0) return -1;
        r->sym_checks++;
        r->asymmetric += rs.colliding != rb.colliding;
        ag_check_certificate(r, c, r->wb, nb, r->wa, na, size, &rs, 1);
        if (rs.colliding != rr.colliding) ag_adjudicate(r, c, na, nb, size, rs.colliding, rr.colliding, 1);
    }
    return 0;
}

/* One configuration: a fresh (poisoned, then initialised) cache, maybe first warmed on
 * another placement of the same shapes (stale coherence data), then the configuration
 * and, for a sequence, its motion steps with that same cache. */
static int ag_configuration(ag_run *r, long index)
{
    ag_rng rng;
    uint64_t s = r->seed ^ (UINT64_C(0xc0115e7) * (uint64_t)(index + 1));
    ag_seed(&rng, ag_splitmix(&s));
    ag_config c;
    memset(&c, 0, sizeof c);
    c.index = index;
    c.si = ag_int(&rng, AG_SCALES);
    ag_generate(r, &rng, &c, -1);
    int steps = ag_unit(&rng) < AG_SEQ_SHARE ? 5 + ag_int(&rng, 6) : 1;
    int stale = ag_unit(&rng) < AG_STALE_SHARE;
    int crossing = ag_unit(&rng) < 0.5 && !isnan(c.g) && c.kind != AG_FAR;

    const col_hull *ha = ag_hull(r, c.ia, c.si), *hb = ag_hull(r, c.ib, c.si);
    memset(r->cache, 0xCD, r->cache_bytes); /* cache_init must initialise every byte it reads */
    r->be->cache_init(r->cache, ha, hb);
    int warm = 0;
    if (stale) {
        ag_config prev = c;
        prev.stale = 0;
        ag_generate(r, &rng, &prev, ag_unit(&rng) < 0.7 ? AG_GAP : AG_FAR);
        if (ag_check(r, &rng, &prev, r->cache, 0) != 0) return -1;
        c.stale = 1;
        r->stale++;
        warm = 1;
    }
    for (int k = 0; k < steps; k++) {
        if (k > 0) ag_move(r, &rng, &c, crossing);
        if (ag_check(r, &rng, &c, r->cache, warm) != 0) return -1;
        warm = 1;
    }
    r->configs++;
    return 0;
}

double col_agreement_scale(void)
{
    const char *v = getenv("COLIBRI_TEST_SCALE");
    if (v == NULL || *v == '\0') return 1.0;
    char *end;
    double x = strtod(v, &end);
    if (end == v || isnan(x)) return 1.0;
    return x < 0.001 ? 0.001 : x > 10.0 ? 10.0 : x;
}

static void ag_report(const ag_run *r, double seconds)
{
    const col_agreement_stats *st = r->st;
    const char *n = r->be->name;
    double rate = st->pairs > 0 ? 100.0 * (double)st->hits / (double)st->pairs : 0.0;
    printf("agreement[%s]: %ld configurations, %ld queries compared (%ld warm, %ld after a stale cache), "
           "hit rate %.1f%%\n",
           n, r->configs, st->pairs, st->warm_queries, r->stale, rate);
    printf("agreement[%s]: by kind (queries, reference hit rate):", n);
    for (int k = 0; k < 7; k++)
        printf(" %s %ld (%.0f%%)%s", ag_kind_names[k], st->by_kind[k],
               st->by_kind[k] > 0 ? 100.0 * (double)r->kind_hits[k] / (double)st->by_kind[k] : 0.0,
               k < 6 ? "," : "\n");
    printf("agreement[%s]: hit rate %.1f%% cold, %.1f%% warm\n", n,
           st->pairs > st->warm_queries ? 100.0 * (double)(st->hits - r->warm_hits) / (double)(st->pairs - st->warm_queries) : 0.0,
           st->warm_queries > 0 ? 100.0 * (double)r->warm_hits / (double)st->warm_queries : 0.0);
    printf("agreement[%s]: %ld near-touching disagreements excused; %ld failures (%ld answers, %ld "
           "certificates, %ld reference bugs, %ld oracle errors)\n",
           n, st->near_excused, st->failures, r->answer_failures, r->cert_failures, r->reference_bugs,
           r->oracle_errors);
    if (r->printed > AG_PRINT_MAX)
        printf("agreement[%s]: only the first %d failures were printed in full\n", n, AG_PRINT_MAX);
    printf("agreement[%s]: %ld swapped queries (%ld asymmetric answers), %ld certificates checked, %ld oracle "
           "audits of agreeing answers\n",
           n, r->sym_checks, r->asymmetric, r->cert_checks, r->audits);
    printf("agreement[%s]: backend iterations %.1f per query, %ld fallbacks; %.1f s CPU (information only)\n", n,
           st->pairs > 0 ? (double)st->backend_iterations / (double)st->pairs : 0.0, st->backend_fallbacks, seconds);
}

long col_agreement_run(const col_np_backend *be, uint64_t seed, long npairs, col_agreement_stats *stats)
{
    memset(stats, 0, sizeof *stats);
    ag_run *r = calloc(1, sizeof *r);
    if (r == NULL) return stats->failures = 1;
    r->be = be;
    r->st = stats;
    r->seed = seed;
    printf("agreement[%s]: seed 0x%016" PRIx64 ", %ld configurations\n", be->name, seed, npairs);
    clock_t t0 = clock();
    int ok = ag_lib_build(&r->lib, seed) == 0;
    /* The cache slot as the world would hand it out: 16-byte aligned, a multiple of 16. */
    r->cache_bytes = (be->cache_size + 15) / 16 * 16;
    if (r->cache_bytes == 0) r->cache_bytes = 16;
    r->cache = ok ? aligned_alloc(16, r->cache_bytes) : NULL;
    r->cache2 = ok ? aligned_alloc(16, r->cache_bytes) : NULL;
    r->wa = ok ? malloc(sizeof(col_vec3) * (size_t)r->lib.max_verts) : NULL;
    r->wb = ok ? malloc(sizeof(col_vec3) * (size_t)r->lib.max_verts) : NULL;
    ok = ok && r->cache != NULL && r->cache2 != NULL && r->wa != NULL && r->wb != NULL;
    for (long i = 0; ok && i < npairs; i++) ok = ag_configuration(r, i) == 0;
    if (!ok) {
        printf("agreement[%s]: out of memory\n", be->name);
        stats->failures++;
    }
    ag_report(r, (double)(clock() - t0) / CLOCKS_PER_SEC);
    free(r->scratch.mem);
    free(r->cache);
    free(r->cache2);
    free(r->wa);
    free(r->wb);
    ag_lib_free(&r->lib);
    free(r);
    return stats->failures;
}
