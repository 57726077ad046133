/* SPDX-License-Identifier: MIT */
/* The reference narrow phase: an exact separating-axis test (SAT) between two convex
 * hulls, the yardstick the faster backends are measured against.
 *
 * Why SAT is complete here: two compact convex polytopes A and B are disjoint iff the
 * origin lies strictly outside the Minkowski difference B - A, iff some facet of B - A
 * has the origin strictly outside its plane. The facet normals of B - A are the face
 * normals of A, the face normals of B, and the cross products e_a x e_b of those edge
 * pairs whose arcs on the Gauss map cross (the arc of e_a spans the normals of the two
 * faces beside e_a; the arc of e_b likewise, negated because B enters with a minus
 * sign). D. Gregorius, "The Separating Axis Test between Convex Polyhedra", GDC 2013;
 * the Minkowski-face test below is his IsMinkowskiFace, relaxed by a tolerance. What
 * "colliding" means (touching counts): docs/scenes.md.
 *
 * Exactness rules (the point of this backend):
 * - Every candidate axis n is judged by a FULL projection of all world vertices of both
 *   hulls: gap(n) = min_b n.b - max_a n.a. A positive gap is then a separation
 *   certificate for the vertex sets as given, whatever the hull's planes or the Gauss
 *   pruning got wrong; the only error left is the rounding of those dot products, which
 *   is bounded (ref_eval_axis) and subtracted to give the certified gap.
 * - The Gauss-map pruning is permissive: a pair is dropped only if the relaxed test
 *   says its arcs clearly miss. An extra axis costs a projection; a dropped needed one
 *   would be a wrong "colliding".
 * - Edge axes are cross products of exact edge vectors (differences of world vertices
 *   kept as double-doubles) computed in double-double, so their direction is right to
 *   about one rounding even for nearly parallel edges; only cross products below
 *   REF_PARALLEL_SIN * |e_a| |e_b| are skipped (parallel edges: their Minkowski faces
 *   are covered by face normals of A or B).
 * - Decision: separated iff some SAT candidate has a computed gap > 0. A positive gap
 *   below its own rounding bound (within ~1e-15 relative of touching) still answers
 *   "separated", with certified gap 0: the benchmark accepts either answer within 1e-9
 *   of touching, and this keeps the answer a pure function of the computed gaps.
 *   The heuristic axes tried first (cache, centroid difference) only end the search
 *   when their gap is certified (gap - bound > 0), so the answer does not depend on
 *   the cache except inside that rounding band.
 * - No iteration caps: a colliding answer tests every candidate. When colliding, the
 *   result's axis is zero and its gap 0 (the cache keeps the least-penetration feature,
 *   the likeliest separator at the next frame).
 *
 * Cost: O((F_A + F_B)(V_A + V_B)) for the face axes, O(E_A (F_B + E_B)) cheap work for
 * the Gauss-map test, and O(K (V_A + V_B)) for the K edge pairs that survive it (K is
 * about the number of edge-edge facets of B - A, typically a small multiple of
 * E_A + E_B). Never O(E_A E_B (V_A + V_B)). Hulls of 100 vertices (196 faces, 294
 * edges): ~0.3 ms for a colliding pair at -O2 (631 axes), a few us for a separated one
 * with a warm cache. */
#include "narrowphase/backend.h"

#include <assert.h>
#include <float.h>
#include <math.h>
#include <stdalign.h>
#include <stdint.h>
#include <string.h>

#include "lib/core/exact.h"
#include "lib/core/vec.h"

/* Slack of the relaxed Gauss-map test, in units of the triple products it compares
 * (products of unit normals, so at most 1 in size). The world normals are accurate to a
 * few DBL_EPSILON; the triple products to about 3 times that. 1e-9 keeps every arc
 * crossing that the true (unrounded) normals could have, with a margin of 1e6, and only
 * adds near-misses: extra axes cost a projection each, never a wrong answer. */
#define REF_GAUSS_TOL 1e-9

/* Edge pairs with |e_a x e_b| <= REF_PARALLEL_SIN |e_a| |e_b| (sine of the angle) are
 * treated as parallel and skipped. Their Minkowski face, if any, is a sliver of width
 * ~ sin * edge length next to face normals of A or B, so skipping it can hide at most a
 * gap of ~ REF_PARALLEL_SIN * size (for non-degenerate dihedral angles): 1e-14 * size,
 * far below the benchmark's 1e-9. Above it the double-double cross product still has
 * its direction right to ~ DBL_EPSILON^2 / REF_PARALLEL_SIN ~ 1e-18 rad. */
#define REF_PARALLEL_SIN 1e-14

/* Rounding bound of a projection gap: each n.v is three products and two sums, so its
 * error is at most gamma_3 * sum |n_i v_i| <= 1.5 eps * |n|_1 * M (M the largest world
 * coordinate); two of them give 3 eps |n|_1 M, written 4 for slack on the bound's own
 * rounding. The final subtraction and the non-unit length of the rounded axis (|n| =
 * 1 +- 2 eps) cost at most 2 eps |gap|. */
#define REF_PROJ_BOUND_C 4.0
#define REF_GAP_BOUND_C 2.0

/* What the cache remembers: the feature whose axis gave the largest gap last time
 * (Gregorius' "cache the separating feature"), and that axis in A's local frame. */
enum ref_kind {
    REF_NONE = 0,   /* nothing cached (the zeroed state) */
    REF_FACE_A = 1, /* face i of A */
    REF_FACE_B = 2, /* face j of B */
    REF_EDGES = 3,  /* edge i of A x edge j of B */
    REF_AXIS = 4    /* a free direction (the centroid difference) */
};

typedef struct ref_cache {
    col_vec3 axis_local; /* the last best axis, in A's local frame (R_A^T s) */
    int kind;            /* enum ref_kind */
    int i, j;
} ref_cache;

/* World-space data of one query, laid out in the caller's scratch memory. */
typedef struct ref_work {
    const col_hull *a, *b;
    int na, nb;
    double *ax, *ay, *az;       /* world vertices of A, structure of arrays (vectorises) */
    double *bx, *by, *bz;
    col_vec3 *norm_a, *norm_b;  /* unit world face normals */
    col_vec3 *arc_a;            /* per edge of A: n_left x n_right (its Gauss arc's pole) */
    col_vec3 *arc_b;            /* per edge of B: (-n_left) x (-n_right) */
    double *cx, *cy, *cz;       /* negated face normals of B (the Gauss map of -B), SoA */
    double *side;               /* per face of B: its dot with the current arc_a pole */
    int *cand;                  /* edges of B that pass the first Gauss-map filter */
    unsigned char *mask;        /* per face of B: 1 clearly above, 2 clearly below, 0 near */
    double max_coord;           /* largest |coordinate| of both world vertex sets */
    int evals;                  /* axes evaluated (reported as iterations) */
} ref_work;

/* One evaluated axis. */
typedef struct ref_eval {
    col_vec3 axis;  /* oriented from A to B: gap = min_b axis.b - max_a axis.a */
    double gap;     /* computed gap (rounded) */
    double bound;   /* bound on the rounding of gap */
} ref_eval;

/* Double-double helpers: col_two_sum and col_two_prod (lib/core/exact.h; Dekker 1971,
 * Shewchuk 1997, sections 2.5-2.6). */

/* p q - r s for double-doubles p = ph + pl etc., to about DBL_EPSILON^2 |p q|. Written
 * so that swapping the two products negates the result bit for bit (every step is
 * either error-free or of the form x - y), which keeps f(A,B) == f(B,A). */
static double ref_dd_det2(double ph, double pl, double qh, double ql, double rh, double rl,
                          double sh, double sl)
{
    double p1, e1, p2, e2, s, t;
    col_two_prod(ph, qh, &p1, &e1);
    col_two_prod(rh, sh, &p2, &e2);
    col_two_sum(p1, -p2, &s, &t);
    double cross1 = ph * ql + pl * qh;
    double cross2 = rh * sl + rl * sh;
    double low = (t + (e1 - e2)) + (cross1 - cross2);
    return s + low;
}

/* Exact world edge vector w1 - w0 of edge e, as hi + lo per component. */
static void ref_edge_dd(const double *x, const double *y, const double *z, const int *ev,
                        int e, double hi[3], double lo[3])
{
    int v0 = ev[2 * e], v1 = ev[2 * e + 1];
    col_two_sum(x[v1], -x[v0], &hi[0], &lo[0]);
    col_two_sum(y[v1], -y[v0], &hi[1], &lo[1]);
    col_two_sum(z[v1], -z[v0], &hi[2], &lo[2]);
}

/* Scales an exact edge hi + lo by the power of two 2^-k that brings the largest |hi| into
 * [0.5, 1): exact, except for a lo that lands below the normal range, which moves by at
 * most DBL_TRUE_MIN of a unit-length edge (nothing for a direction). A zero edge is left
 * as it is. */
static void ref_edge_unit(double hi[3], double lo[3])
{
    int k;
    col_vec3 h = col_pow2_unit(col_v3(hi[0], hi[1], hi[2]), &k);
    hi[0] = h.x;
    hi[1] = h.y;
    hi[2] = h.z;
    for (int i = 0; i < 3; i++) lo[i] = ldexp(lo[i], -k);
}

/* The unit axis e_a x e_b of edge ea of A and edge eb of B, or 0 if the edges are
 * parallel within REF_PARALLEL_SIN. Both edges are first scaled by powers of two to
 * about unit length (exact), so that the test is the same at every scale: squared, a
 * cross product of two edges is a fourth power of the size, which underflows to zero for
 * shapes below about 1e-78 (issue 13, finding 3: every edge-edge axis was then dropped
 * as parallel and separated pairs came out colliding). */
static int ref_edge_axis(const ref_work *w, int ea, int eb, col_vec3 *out)
{
    double ah[3], al[3], bh[3], bl[3];
    ref_edge_dd(w->ax, w->ay, w->az, w->a->edge_verts, ea, ah, al);
    ref_edge_dd(w->bx, w->by, w->bz, w->b->edge_verts, eb, bh, bl);
    ref_edge_unit(ah, al);
    ref_edge_unit(bh, bl);
    col_vec3 n;
    n.x = ref_dd_det2(ah[1], al[1], bh[2], bl[2], ah[2], al[2], bh[1], bl[1]);
    n.y = ref_dd_det2(ah[2], al[2], bh[0], bl[0], ah[0], al[0], bh[2], bl[2]);
    n.z = ref_dd_det2(ah[0], al[0], bh[1], bl[1], ah[1], al[1], bh[0], bl[0]);
    double n2 = col_len2(n);
    double la2 = ah[0] * ah[0] + ah[1] * ah[1] + ah[2] * ah[2];
    double lb2 = bh[0] * bh[0] + bh[1] * bh[1] + bh[2] * bh[2];
    if (!(n2 > (REF_PARALLEL_SIN * REF_PARALLEL_SIN) * (la2 * lb2))) return 0;
    *out = col_scale(n, 1.0 / sqrt(n2));
    return 1;
}

/* ---- projections ---- */

/* min and max of d.v over n vertices. Four independent accumulators keep the min/max
 * dependency chains short; min and max are exact, so the result does not depend on the
 * order (each d.v is evaluated the same way, left to right). */
static void ref_project(const double *x, const double *y, const double *z, int n, col_vec3 d,
                        double *lo, double *hi)
{
    double mn[4] = {INFINITY, INFINITY, INFINITY, INFINITY};
    double mx[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
    int i = 0;
    for (; i + 4 <= n; i += 4) {
        for (int k = 0; k < 4; k++) {
            double p = d.x * x[i + k] + d.y * y[i + k] + d.z * z[i + k];
            mn[k] = p < mn[k] ? p : mn[k];
            mx[k] = p > mx[k] ? p : mx[k];
        }
    }
    for (; i < n; i++) {
        double p = d.x * x[i] + d.y * y[i] + d.z * z[i];
        mn[0] = p < mn[0] ? p : mn[0];
        mx[0] = p > mx[0] ? p : mx[0];
    }
    double a = mn[0] < mn[1] ? mn[0] : mn[1], b = mn[2] < mn[3] ? mn[2] : mn[3];
    double c = mx[0] > mx[1] ? mx[0] : mx[1], e = mx[2] > mx[3] ? mx[2] : mx[3];
    *lo = a < b ? a : b;
    *hi = c > e ? c : e;
}

/* Full projection of both vertex sets on n, both orientations: n (B beyond A) and -n
 * (A beyond B), so edge axes need no orientation and the set of gaps is the same for
 * (A,B) and (B,A). */
static ref_eval ref_eval_axis(ref_work *w, col_vec3 n)
{
    double alo, ahi, blo, bhi;
    ref_project(w->ax, w->ay, w->az, w->na, n, &alo, &ahi);
    ref_project(w->bx, w->by, w->bz, w->nb, n, &blo, &bhi);
    w->evals++;
    double gpos = blo - ahi, gneg = alo - bhi;
    ref_eval e;
    if (gpos >= gneg) {
        e.axis = n;
        e.gap = gpos;
    } else {
        e.axis = col_neg(n);
        e.gap = gneg;
    }
    double n1 = fabs(n.x) + fabs(n.y) + fabs(n.z);
    e.bound = REF_PROJ_BOUND_C * DBL_EPSILON * n1 * w->max_coord +
              REF_GAP_BOUND_C * DBL_EPSILON * fabs(e.gap);
    return e;
}

static int ref_normalize(col_vec3 v, col_vec3 *out)
{
    double l2 = col_len2(v);
    if (!(l2 > 0.0) || !isfinite(l2)) return 0;
    *out = col_scale(v, 1.0 / sqrt(l2));
    return 1;
}

/* World normal of a local unit normal: the cofactor matrix of R maps normals (it is
 * det(R) R^-T), so the world normal stays perpendicular (up to rounding) to the
 * transformed face even if R is a hair off orthogonal; for an orthogonal R the cofactor
 * matrix equals R. Face and arc normals steer the search only; exactness comes from
 * the projections. */
static col_mat3 ref_cofactor(const col_mat3 *r)
{
    const double *m = r->m;
    col_mat3 c;
    c.m[0] = m[4] * m[8] - m[5] * m[7];
    c.m[1] = m[5] * m[6] - m[3] * m[8];
    c.m[2] = m[3] * m[7] - m[4] * m[6];
    c.m[3] = m[2] * m[7] - m[1] * m[8];
    c.m[4] = m[0] * m[8] - m[2] * m[6];
    c.m[5] = m[1] * m[6] - m[0] * m[7];
    c.m[6] = m[1] * m[5] - m[2] * m[4];
    c.m[7] = m[2] * m[3] - m[0] * m[5];
    c.m[8] = m[0] * m[4] - m[1] * m[3];
    return c;
}

static void ref_world_normals(const col_hull *h, const col_xform *x, col_vec3 *out)
{
    col_mat3 c = ref_cofactor(&x->R);
    for (int f = 0; f < h->face_count; f++) {
        col_vec3 n = col_mat3_mul(&c, h->planes[f].n);
        if (!ref_normalize(n, &out[f])) out[f] = n;
    }
}

/* ---- scratch layout ---- */

/* ref_layout's arrays: a sum of counts times constants, so it grows with every count
 * (backend.h's scratch rule). Not symmetric: B's faces take 7 doubles and a byte, A's 3. */
static size_t ref_doubles(col_np_counts a, col_np_counts b)
{
    return 3 * ((size_t)a.vertices + (size_t)b.vertices) + 3 * ((size_t)a.faces + (size_t)b.faces) +
           3 * ((size_t)a.edges + (size_t)b.edges) + 4 * (size_t)b.faces;
}

static size_t ref_scratch_need(col_np_counts a, col_np_counts b)
{
    return ref_doubles(a, b) * sizeof(double) + (size_t)b.edges * sizeof(int) + (size_t)b.faces + alignof(double);
}

static void ref_layout(ref_work *w, col_np_scratch *scratch, const col_hull *a,
                       const col_hull *b)
{
    uintptr_t p = (uintptr_t)scratch->mem;
    p = (p + alignof(double) - 1) & ~(uintptr_t)(alignof(double) - 1);
    double *d = (double *)p;
    w->a = a;
    w->b = b;
    w->na = a->vertex_count;
    w->nb = b->vertex_count;
    w->ax = d;
    w->ay = d + w->na;
    w->az = d + 2 * (size_t)w->na;
    d += 3 * (size_t)w->na;
    w->bx = d;
    w->by = d + w->nb;
    w->bz = d + 2 * (size_t)w->nb;
    d += 3 * (size_t)w->nb;
    w->norm_a = (col_vec3 *)d;
    d += 3 * (size_t)a->face_count;
    w->norm_b = (col_vec3 *)d;
    d += 3 * (size_t)b->face_count;
    w->arc_a = (col_vec3 *)d;
    d += 3 * (size_t)a->edge_count;
    w->arc_b = (col_vec3 *)d;
    d += 3 * (size_t)b->edge_count;
    size_t fb = (size_t)b->face_count;
    w->cx = d;
    w->cy = d + fb;
    w->cz = d + 2 * fb;
    w->side = d + 3 * fb;
    d += 4 * fb;
    w->cand = (int *)d;
    w->mask = (unsigned char *)(w->cand + b->edge_count);
    w->evals = 0;
}

/* World vertices with col_xform_point (bit-identical to the benchmark oracle's), and
 * the largest coordinate magnitude for the rounding bound. */
static double ref_world_vertices(const col_hull *h, const col_xform *x, double *wx, double *wy,
                                 double *wz)
{
    double m = 0.0;
    for (int i = 0; i < h->vertex_count; i++) {
        col_vec3 v = col_xform_point(x, h->vertices[i]);
        wx[i] = v.x;
        wy[i] = v.y;
        wz[i] = v.z;
        double c = col_max_abs(v);
        m = c > m ? c : m;
    }
    return m;
}

/* ---- the Gauss-map test ---- */

/* Gregorius' IsMinkowskiFace for arcs (a,b) of an edge of A and (c,d) = (-n_c, -n_d) of
 * an edge of B, with u = b x a (or its negation) and v = d x c (likewise):
 *     s1 = c.u, s2 = d.u, s3 = a.v, s4 = b.v;  cross iff s1 s2 < 0, s3 s4 < 0, s1 s4 > 0.
 * That is: c and d straddle the great circle of arc ab, a and b straddle the one of cd,
 * and the two crossings are the same point, not antipodes. The test is unchanged when
 * an arc's end points are swapped (u -> -u), so the arcs' orientation is irrelevant.
 * Relaxed: accept if some perturbation of every s_k by at most tol satisfies it, i.e.
 * if the sign pattern (+, -, -, +) or (-, +, +, -) holds with tolerance. That is also
 * exactly symmetric under swapping A and B (s1..s4 -> -s3, -s4, -s1, -s2). */
static inline int ref_minkowski_face(double s1, double s2, double s3, double s4, double tol)
{
    int pos = s1 > -tol && s2 < tol && s3 < tol && s4 > -tol;
    int neg = s1 < tol && s2 > -tol && s3 > -tol && s4 < tol;
    return pos || neg;
}

static void ref_prepare_arcs(ref_work *w)
{
    const col_hull *a = w->a, *b = w->b;
    for (int e = 0; e < a->edge_count; e++) {
        col_vec3 n0 = w->norm_a[a->edge_faces[2 * e]], n1 = w->norm_a[a->edge_faces[2 * e + 1]];
        w->arc_a[e] = col_cross(n0, n1);
    }
    for (int f = 0; f < b->face_count; f++) {
        w->cx[f] = -w->norm_b[f].x;
        w->cy[f] = -w->norm_b[f].y;
        w->cz[f] = -w->norm_b[f].z;
    }
    for (int e = 0; e < b->edge_count; e++) {
        int f0 = b->edge_faces[2 * e], f1 = b->edge_faces[2 * e + 1];
        col_vec3 c = col_v3(w->cx[f0], w->cy[f0], w->cz[f0]);
        col_vec3 d = col_v3(w->cx[f1], w->cy[f1], w->cz[f1]);
        w->arc_b[e] = col_cross(c, d);
    }
}

/* The edges of B whose arcs may cross the arc of A's edge ea, by the relaxed test. The
 * first half (c and d not clearly on the same side of the great circle of A's arc) only
 * needs the side of each face normal of -B, so it is computed per face (F_B dot products
 * instead of 2 E_B) and applied per edge without branches; the survivors (a few per
 * cent) get the full test. Returns how many edges were written to w->cand. */
static int ref_gauss_candidates(ref_work *w, int ea, double tol)
{
    const col_hull *a = w->a, *b = w->b;
    col_vec3 u = w->arc_a[ea];
    int nf = b->face_count;
    const double *cx = w->cx, *cy = w->cy, *cz = w->cz;
    double *side = w->side;
    unsigned char *mask = w->mask;
    for (int f = 0; f < nf; f++) {
        double t = cx[f] * u.x + cy[f] * u.y + cz[f] * u.z;
        side[f] = t;
        mask[f] = (unsigned char)((t >= tol) | ((t <= -tol) << 1));
    }
    const int *ef = b->edge_faces;
    int *cand = w->cand, n = 0;
    for (int e = 0; e < b->edge_count; e++) {
        cand[n] = e;
        n += (mask[ef[2 * e]] & mask[ef[2 * e + 1]]) == 0;
    }
    col_vec3 fa = w->norm_a[a->edge_faces[2 * ea]], fb = w->norm_a[a->edge_faces[2 * ea + 1]];
    int m = 0;
    for (int k = 0; k < n; k++) {
        int e = cand[k];
        col_vec3 v = w->arc_b[e];
        double s1 = side[ef[2 * e]], s2 = side[ef[2 * e + 1]];
        double s3 = col_dot(fa, v), s4 = col_dot(fb, v);
        if (ref_minkowski_face(s1, s2, s3, s4, tol)) cand[m++] = e;
    }
    return m;
}

/* ---- the query ---- */

static void ref_cache_init(void *cache, const col_hull *a, const col_hull *b)
{
    (void)a;
    (void)b;
    memset(cache, 0, sizeof(ref_cache));
}

/* The axis of a cached feature at the current poses (0 if none or out of range). */
static int ref_cached_axis(const ref_work *w, const ref_cache *c, const col_xform *xa,
                           col_vec3 *out)
{
    switch (c->kind) {
    case REF_FACE_A:
        if (c->i < 0 || c->i >= w->a->face_count) return 0;
        *out = w->norm_a[c->i];
        return 1;
    case REF_FACE_B:
        if (c->j < 0 || c->j >= w->b->face_count) return 0;
        *out = w->norm_b[c->j];
        return 1;
    case REF_EDGES:
        if (c->i < 0 || c->i >= w->a->edge_count || c->j < 0 || c->j >= w->b->edge_count)
            return 0;
        return ref_edge_axis(w, c->i, c->j, out);
    case REF_AXIS:
        return ref_normalize(col_mat3_mul(&xa->R, c->axis_local), out);
    default:
        return 0;
    }
}

static void ref_store(ref_cache *c, const col_xform *xa, int kind, int i, int j, col_vec3 axis)
{
    if (c == NULL) return;
    c->kind = kind;
    c->i = i;
    c->j = j;
    c->axis_local = col_mat3_tmul(&xa->R, axis);
}

static void ref_separated(col_np_result *out, const ref_eval *e)
{
    double g = e->gap - e->bound;
    out->colliding = false;
    out->axis = e->axis;
    out->gap = g > 0.0 ? g : 0.0;
}

/* The running state of the SAT pass: the largest computed gap so far (the least
 * penetration when colliding, i.e. the feature most likely to separate next time). */
typedef struct ref_search {
    ref_work *w;
    ref_cache *cache;
    const col_xform *xa;
    col_np_result *out;
    ref_eval best;
    int kind, i, j;
} ref_search;

/* Ends the search (returns 1) on a certified gap; otherwise keeps the best gap. */
static int ref_consider(ref_search *st, const ref_eval *e, int kind, int i, int j)
{
    if (e->gap - e->bound > 0.0) {
        ref_separated(st->out, e);
        ref_store(st->cache, st->xa, kind, i, j, e->axis);
        st->out->iterations = st->w->evals;
        return 1;
    }
    if (e->gap > st->best.gap) {
        st->best = *e;
        st->kind = kind;
        st->i = i;
        st->j = j;
    }
    return 0;
}

/* No shape data: da and db are ignored. */
static void ref_query(void *cache_mem, const col_hull *a, const void *da, const col_xform *xa,
                      const col_hull *b, const void *db, const col_xform *xb, col_np_scratch *scratch,
                      col_np_result *out)
{
    (void)da;
    (void)db;
    ref_cache *cache = cache_mem;
    ref_work w;
    assert(scratch->size >= ref_scratch_need(col_np_counts_of(a), col_np_counts_of(b)));
    ref_layout(&w, scratch, a, b);
    double ma = ref_world_vertices(a, xa, w.ax, w.ay, w.az);
    double mb = ref_world_vertices(b, xb, w.bx, w.by, w.bz);
    w.max_coord = ma > mb ? ma : mb;
    ref_world_normals(a, xa, w.norm_a);
    ref_world_normals(b, xb, w.norm_b);

    out->colliding = true;
    out->axis = col_v3(0.0, 0.0, 0.0);
    out->gap = 0.0;
    out->fallbacks = 0;

    /* 1. The cached feature: under temporal coherence it usually still separates. */
    col_vec3 n;
    if (cache != NULL && ref_cached_axis(&w, cache, xa, &n)) {
        ref_eval e = ref_eval_axis(&w, n);
        if (e.gap - e.bound > 0.0) {
            ref_separated(out, &e);
            ref_store(cache, xa, cache->kind, cache->i, cache->j, e.axis);
            out->iterations = w.evals;
            return;
        }
    }

    /* 2. The centroid difference: separates most well-apart pairs at once. */
    col_vec3 ca = col_xform_point(xa, a->centroid), cb = col_xform_point(xb, b->centroid);
    if (ref_normalize(col_sub(cb, ca), &n)) {
        ref_eval e = ref_eval_axis(&w, n);
        if (e.gap - e.bound > 0.0) {
            ref_separated(out, &e);
            ref_store(cache, xa, REF_AXIS, 0, 0, e.axis);
            out->iterations = w.evals;
            return;
        }
    }

    /* 3. The SAT candidates: faces of A, faces of B, then Minkowski edge pairs. */
    ref_search st;
    st.w = &w;
    st.cache = cache;
    st.xa = xa;
    st.out = out;
    st.best.gap = -INFINITY;
    st.best.bound = 0.0;
    st.best.axis = col_v3(0.0, 0.0, 0.0);
    st.kind = REF_NONE;
    st.i = st.j = 0;

    for (int f = 0; f < a->face_count; f++) {
        ref_eval e = ref_eval_axis(&w, w.norm_a[f]);
        if (ref_consider(&st, &e, REF_FACE_A, f, 0)) return;
    }
    for (int f = 0; f < b->face_count; f++) {
        ref_eval e = ref_eval_axis(&w, w.norm_b[f]);
        if (ref_consider(&st, &e, REF_FACE_B, 0, f)) return;
    }

    ref_prepare_arcs(&w);
    for (int i = 0; i < a->edge_count; i++) {
        int m = ref_gauss_candidates(&w, i, REF_GAUSS_TOL);
        for (int k = 0; k < m; k++) {
            int j = w.cand[k];
            if (!ref_edge_axis(&w, i, j, &n)) continue;
            ref_eval e = ref_eval_axis(&w, n);
            if (ref_consider(&st, &e, REF_EDGES, i, j)) return;
        }
    }

    out->iterations = w.evals;
    if (st.kind != REF_NONE) ref_store(cache, xa, st.kind, st.i, st.j, st.best.axis);
    if (st.best.gap > 0.0) ref_separated(out, &st.best);
}

const col_np_backend col_np_reference = {
    .name = "reference",
    .cache_size = sizeof(ref_cache),
    .cache_init = ref_cache_init,
    .scratch_need = ref_scratch_need,
    .query = ref_query,
};
