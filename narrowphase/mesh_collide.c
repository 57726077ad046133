/* SPDX-License-Identifier: MIT */
/* Exact collision of a triangle mesh with a convex piece or another mesh
 * (narrowphase/mesh_collide.h, docs/meshes.md). The hierarchy only culls; every answer
 * "colliding" comes from an exact decision on world triangles (the truth of the
 * benchmark scenes, docs/meshes.md: world vertices are col_xform_point of the local
 * ones, in double), and every cull is proven conservative below, rounding included.
 *
 * The frames. Let R, p be mesh a's pose (doubles; R is not exactly orthonormal) and
 * Phi(w) = R^T (w - p) in real arithmetic: an invertible affine map from the world into
 * a's local frame. Two world sets meet only if their images under Phi meet, and world
 * distances are at least the local ones divided by sigma_max(R^T) (the largest singular
 * value). With E = R^T R - I and e_R = max |E_ij| (computed, plus 8u for its own
 * rounding; u = 2^-53), ||E||_2 <= ||E||_F <= 3 e_R and sigma_max(R^T) =
 * sqrt(lambda_max(R^T R)) <= sqrt(1 + 3 e_R) <= 1 + 2 e_R.
 * - A world vertex of a, W = fl(R x + p) = R x + p + e with |e|_inf <= gamma_4 (||R||_inf
 *   |x|_inf + |p|_inf) (Higham, Accuracy and Stability, 2002, ch. 3: a sum of four
 *   terms), so Phi(W) = x + E x + R^T e lies within eta_a = 3 e_R A + ||R^T||_inf gamma_4
 *   (||R||_inf A + |p|_inf) of x (componentwise, A = max |x|_inf over the mesh). Phi is
 *   affine, so the image of a world triangle lies in the box of its local triangle grown
 *   by eta_a, and so in its node's box grown by eta_a.
 * - The other side's points y at its pose (Rb, pb), mesh b's vertices or a convex core's
 *   points, are in the world W = fl(Rb y + pb) (the truth): Phi(W) = M y + t + R^T e_b
 *   with M = R^T Rb and t = R^T (pb - p) exact; the computed Mc, tc differ by gamma_3
 *   ||R^T|| ||Rb|| |y| and 6u ||R^T|| (|p| + |pb|); all of it is eta_b (rel_frame_of).
 * A box grown by eta projects onto an axis L within eta ||L||_1 of the box itself, which
 * gives the slack of the separating axis tests. */
#include "narrowphase/mesh_collide.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "narrowphase/mesh_bv_bound.h"
#include "narrowphase/tri_tri.h"

#define U_RND (DBL_EPSILON / 2)

static inline double gamma_n(int n) { return n * U_RND / (1 - n * U_RND); }
static inline double dmin(double a, double b) { return a < b ? a : b; }
static inline double dmax(double a, double b) { return a > b ? a : b; }
static inline double vget(col_vec3 v, int k) { return k == 0 ? v.x : (k == 1 ? v.y : v.z); }

/* What the proofs above need of a pose's matrix. */
typedef struct pose_bound {
    double e;      /* e_R: max |(R^T R - I)_ij|, rounding included */
    double norm;   /* ||R||_inf (max row sum of |R_ij|), rounded up */
    double norm_t; /* ||R^T||_inf (max column sum), rounded up */
} pose_bound;

static pose_bound pose_bound_of(const col_mat3 *r)
{
    const double *m = r->m;
    pose_bound b = {0, 0, 0};
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            double s = m[i] * m[j] + m[3 + i] * m[3 + j] + m[6 + i] * m[6 + j] - (i == j ? 1.0 : 0.0);
            b.e = dmax(b.e, fabs(s));
        }
        b.norm = dmax(b.norm, fabs(m[3 * i]) + fabs(m[3 * i + 1]) + fabs(m[3 * i + 2]));
        b.norm_t = dmax(b.norm_t, fabs(m[i]) + fabs(m[3 + i]) + fabs(m[6 + i]));
    }
    /* the sums of |entries| <= 2 (entries of a near-rotation), each rounded 4 times */
    b.e = b.e + 8 * U_RND * (1 + b.e);
    b.norm *= 1 + 4 * U_RND;
    b.norm_t *= 1 + 4 * U_RND;
    return b;
}

/* A: the largest |coordinate| of the mesh's vertices. */
static double mesh_extent(const col_mesh *m)
{
    return dmax(col_max_abs(m->aabb_min), col_max_abs(m->aabb_max));
}

/* eta of the header comment: how far Phi moves a world vertex of a mesh of extent A at a
 * pose with bound pb and translation magnitude P from its local position. */
static double vertex_eta(pose_bound pb, double A, double P)
{
    return (3 * pb.e * A + pb.norm_t * gamma_n(4) * (pb.norm * A + P)) * (1 + 8 * U_RND);
}

/* The certified lower bound on the world distance that a local separation s > 0 gives
 * (s computed with one rounding), for the pose bound of the local frame's map. */
static double gap_scale_of(pose_bound pb) { return (1 - 8 * U_RND) / (1 + 3 * pb.e); }

/* The frame of pose xb seen from pose xa's local frame: Mc = fl(Ra^T Rb) and tc =
 * fl(Ra^T fl(pb - pa)), and eta_b of the header comment: for any point y of b's frame
 * with |y|_inf <= Ab, Phi(fl(Rb y + pb)) lies within eta_b(Ab) = eta_per_a Ab + eta_0 of
 * Mc y + tc (real arithmetic on the computed Mc, tc). */
typedef struct rel_frame {
    double M[9], t[3];
    double eta_per_a, eta_0;
    pose_bound pa; /* xa's matrix */
} rel_frame;

static inline double rel_eta(const rel_frame *f, double Ab) { return (f->eta_per_a * Ab + f->eta_0) * (1 + 2 * U_RND); }

static void rel_frame_of(const col_xform *xa, const col_xform *xb, rel_frame *f)
{
    const col_mat3 *ra = &xa->R, *rb = &xb->R;
    f->pa = pose_bound_of(ra);
    pose_bound pbb = pose_bound_of(rb);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            f->M[3 * i + j] = ra->m[i] * rb->m[j] + ra->m[3 + i] * rb->m[3 + j] + ra->m[6 + i] * rb->m[6 + j];
    col_vec3 tc = col_mat3_tmul(ra, col_sub(xb->p, xa->p));
    f->t[0] = tc.x;
    f->t[1] = tc.y;
    f->t[2] = tc.z;
    double Pa = col_max_abs(xa->p), Pb = col_max_abs(xb->p);
    f->eta_per_a = f->pa.norm_t * (gamma_n(4) + gamma_n(3)) * pbb.norm * (1 + 8 * U_RND);
    f->eta_0 = f->pa.norm_t * (gamma_n(4) * Pb + 6 * U_RND * (Pa + Pb)) * (1 + 8 * U_RND);
}

static void finish_separated(col_np_result *out, double gap, int visits)
{
    out->colliding = false;
    out->axis = col_v3(1, 0, 0);
    /* A gap below what doubles show (a triangle pair decided apart by exact arithmetic
     * with no positive double bound) is the smallest positive double, as
     * narrowphase/rounded.h's exact band does: the pair is then looked at every frame. */
    out->gap = gap > 0 && gap < HUGE_VAL ? gap : DBL_TRUE_MIN;
    out->iterations = visits;
    out->fallbacks = 0;
}

static void finish_colliding(col_np_result *out, int visits)
{
    out->colliding = true;
    out->axis = col_v3(1, 0, 0);
    out->gap = 0;
    out->iterations = visits;
    out->fallbacks = 0;
}

/* ---- mesh - convex ---- */

enum { MC_POINTS = 64 };

typedef struct mc_ctx {
    const col_mesh *m;
    const col_xform *xm;
    const col_core *c;
    const col_xform *xc;
    double lo[3], hi[3]; /* the core's local box, grown by every margin */
    double mu;           /* that margin */
    double plane_slack;  /* per unit of |n|_1: mu and the rounding of mc_plane_sep's projections */
    double gap_scale;
    double gap;          /* running minimum of the certified lower bounds */
    int visits;
    int np;              /* core points kept (0: more than MC_POINTS, no plane or axis test) */
    bool world_ready;    /* world[] computed (only when a triangle needs the axis test) */
    col_vec3 local[MC_POINTS], world[MC_POINTS];
    bool has_axis;       /* axis: the last exact test's separating axis (world), tried first */
    col_vec3 axis;
} mc_ctx;

/* The core's box in the mesh's local frame, grown so that it holds the image under Phi
 * of the rounded core, and any mesh triangle meeting the core has its local box within
 * it after the mesh's own eta. The core's points go straight from their frame into the
 * mesh's, l = fl(Mc p + tc) (rel_frame_of: Phi of the world point fl(Rc p + pc), the
 * truth, lies within eta_c of Mc p + tc, which fl(.) misses by at most gamma_4 (||Mc||_inf
 * |p|_inf + |tc|_inf)); the ball of radius r maps into a ball of radius r sigma_max(R^T)
 * <= r (1 + 2 e_R); then the rounding of the growth itself. */
static void mc_setup(mc_ctx *x)
{
    rel_frame f;
    rel_frame_of(x->xm, x->xc, &f);
    const double *M = f.M;
    double Ac = 0, L = 0, normM = 0;
    for (int i = 0; i < 3; i++) normM = dmax(normM, fabs(M[3 * i]) + fabs(M[3 * i + 1]) + fabs(M[3 * i + 2]));
    for (int k = 0; k < 3; k++) {
        x->lo[k] = HUGE_VAL;
        x->hi[k] = -HUGE_VAL;
    }
    for (int i = 0; i < x->c->count; i++) {
        const col_vec3 p = x->c->points[i];
        const double l[3] = {M[0] * p.x + M[1] * p.y + M[2] * p.z + f.t[0], M[3] * p.x + M[4] * p.y + M[5] * p.z + f.t[1],
                             M[6] * p.x + M[7] * p.y + M[8] * p.z + f.t[2]};
        Ac = dmax(Ac, col_max_abs(p));
        for (int k = 0; k < 3; k++) {
            x->lo[k] = dmin(x->lo[k], l[k]);
            x->hi[k] = dmax(x->hi[k], l[k]);
            L = dmax(L, fabs(l[k]));
        }
        if (i < MC_POINTS) x->local[i] = col_v3(l[0], l[1], l[2]);
    }
    const pose_bound pb = f.pa;
    double tmax = dmax(fabs(f.t[0]), dmax(fabs(f.t[1]), fabs(f.t[2])));
    double eps_l = rel_eta(&f, Ac) + gamma_n(4) * (normM * Ac + tmax) * (1 + 8 * U_RND);
    double A = mesh_extent(x->m);
    double mu = vertex_eta(pb, A, col_max_abs(x->xm->p)) + eps_l + x->c->radius * (1 + 2 * pb.e);
    mu = (mu + 4 * U_RND * (L + mu)) * (1 + 4 * U_RND); /* fl(lo - mu) and fl(hi + mu) round inward by <= u(L+mu) */
    for (int k = 0; k < 3; k++) {
        x->lo[k] -= mu;
        x->hi[k] += mu;
    }
    x->mu = mu;
    /* mc_plane_sep: each projection n.(z - t0) is within 5u |n|_1 |z - t0|_inf of its real
     * value, |z - t0|_inf <= L + A for a core point and 2A for a triangle vertex; two
     * extremes */
    x->plane_slack = (mu + 10 * U_RND * (L + 2 * A)) * (1 + 8 * U_RND);
    x->np = x->c->count <= MC_POINTS ? x->c->count : 0;
    x->world_ready = false;
    x->gap_scale = gap_scale_of(pb);
}

/* A separating axis test along the triangle's normal n (as computed: any axis will do),
 * in the mesh's frame, with the core's local points: the triangle's image lies within
 * eta of its local vertices and the rounded core's within eps_l + r sigma_max of its
 * local points (the header comment), which project within mu |n|_1 (>= mu |n|_2 for the
 * ball's part) of the computed projections; plus their rounding. Returns the certified
 * world distance bound when the axis separates (> 0), else 0. Most triangles whose boxes
 * meet the core's box but which lie wholly beside the core (a floor under a body) end
 * here instead of in the exact test. */
static double mc_plane_sep(const mc_ctx *x, const col_vec3 t[3])
{
    if (x->np == 0) return 0;
    col_vec3 n = col_cross(col_sub(t[1], t[0]), col_sub(t[2], t[0]));
    double f1 = col_dot(n, col_sub(t[1], t[0])), f2 = col_dot(n, col_sub(t[2], t[0]));
    double tmin = dmin(0, dmin(f1, f2)), tmax = dmax(0, dmax(f1, f2));
    double cmin = HUGE_VAL, cmax = -HUGE_VAL;
    for (int i = 0; i < x->np; i++) {
        double f = col_dot(n, col_sub(x->local[i], t[0]));
        cmin = dmin(cmin, f);
        cmax = dmax(cmax, f);
    }
    double raw = dmax(cmin - tmax, tmin - cmax);
    double n1 = fabs(n.x) + fabs(n.y) + fabs(n.z);
    double sep = raw - (n1 * x->plane_slack + U_RND * fabs(raw)) * (1 + 4 * U_RND);
    if (!(sep > 0)) return 0;
    double len = col_len(n) * (1 + 4 * U_RND);
    return sep / len * (1 - 2 * U_RND) * x->gap_scale;
}

/* The largest axis separation of box [lo, hi] from the grown core box (> 0: apart). */
static inline double mc_box_sep(const mc_ctx *x, const double lo[3], const double hi[3])
{
    double s = -HUGE_VAL;
    for (int k = 0; k < 3; k++) {
        s = dmax(s, lo[k] - x->hi[k]);
        s = dmax(s, x->lo[k] - hi[k]);
    }
    return s;
}

/* A separating axis test of the world triangle w and the rounded core along s (a
 * neighbouring triangle's separating axis: nearby triangles are often apart along the
 * same direction), on the world points themselves (the truth, no frame change): each
 * projection s.(v - c), c the triangle's first vertex, is within 5u |s|_1 D of its real
 * value (as in axis_gap below, D the largest |v - c|_inf), the ball adds r |s|_2 (|s|
 * rounded up). Returns the certified distance bound when s separates, else 0. */
static double mc_axis_sep(const mc_ctx *x, const col_vec3 w[3], col_vec3 s)
{
    const col_vec3 c = w[0];
    double tmin = 0, tmax = 0, cmin = HUGE_VAL, cmax = -HUGE_VAL, D = 0;
    for (int j = 1; j < 3; j++) {
        col_vec3 d = col_sub(w[j], c);
        double f = col_dot(s, d);
        tmin = dmin(tmin, f);
        tmax = dmax(tmax, f);
        D = dmax(D, col_max_abs(d));
    }
    for (int i = 0; i < x->np; i++) {
        col_vec3 d = col_sub(x->world[i], c);
        double f = col_dot(s, d);
        cmin = dmin(cmin, f);
        cmax = dmax(cmax, f);
        D = dmax(D, col_max_abs(d));
    }
    double s1 = fabs(s.x) + fabs(s.y) + fabs(s.z), len = col_len(s) * (1 + 4 * U_RND);
    double raw = dmax(cmin - tmax, tmin - cmax);
    double sep = raw - (10 * U_RND * s1 * D + U_RND * fabs(raw) + x->c->radius * len) * (1 + 8 * U_RND);
    return sep > 0 && len > 0 ? sep / len * (1 - 2 * U_RND) : 0;
}

/* The exact decision for triangle k; a separated answer's certified gap joins x->gap. */
static bool mc_triangle(mc_ctx *x, int k)
{
    col_vec3 t[3];
    col_mesh_triangle(x->m, k, t);
    double lo[3], hi[3];
    for (int j = 0; j < 3; j++) {
        double a = vget(t[0], j), b = vget(t[1], j), c = vget(t[2], j);
        lo[j] = dmin(a, dmin(b, c));
        hi[j] = dmax(a, dmax(b, c));
    }
    double s = mc_box_sep(x, lo, hi);
    if (s > 0) {
        x->gap = dmin(x->gap, s * x->gap_scale);
        return false;
    }
    double g = mc_plane_sep(x, t);
    if (g > 0) {
        x->gap = dmin(x->gap, g);
        return false;
    }
    if (x->has_axis) {
        if (!x->world_ready) {
            for (int i = 0; i < x->np; i++) x->world[i] = col_xform_point(x->xc, x->c->points[i]);
            x->world_ready = true;
        }
        col_vec3 w[3];
        for (int j = 0; j < 3; j++) w[j] = col_xform_point(x->xm, t[j]);
        g = mc_axis_sep(x, w, x->axis);
        if (g > 0) {
            x->gap = dmin(x->gap, g);
            return false;
        }
    }
    const col_core tri = {t, 3, NULL, 0.0};
    col_np_result r;
    col_rounded_query(&tri, x->xm, x->c, x->xc, &r);
    if (r.colliding) return true;
    x->has_axis = x->np > 0;
    x->axis = r.axis;
    /* r.gap bounds the separation along r.axis, a unit vector up to rounding: divided by
     * its length (rounded up) it bounds the distance. */
    double len = col_len(r.axis) * (1 + 4 * U_RND);
    if (len > 0) x->gap = dmin(x->gap, r.gap / len * (1 - 2 * U_RND));
    else x->gap = 0;
    return false;
}

void col_mesh_convex_query(const col_mesh *m, const col_xform *xm, const col_core *c, const col_xform *xc,
                           col_mesh_cache *cache, col_np_result *out)
{
    mc_ctx x;
    x.m = m;
    x.xm = xm;
    x.c = c;
    x.xc = xc;
    x.gap = HUGE_VAL;
    x.visits = 0;
    x.has_axis = false;
    mc_setup(&x);
    /* the cached witness, then its neighbours in leaf order (as mm_witness does) */
    for (int r = 0; cache != NULL && cache->tri_a >= 0 && cache->tri_a < m->triangle_count && r <= 3; r++) {
        for (int side = r == 0 ? 1 : -1; side <= 1; side += 2) {
            int k = cache->tri_a + side * r;
            if (k >= 0 && k < m->triangle_count && mc_triangle(&x, k)) {
                cache->tri_a = k;
                cache->tri_b = -1;
                finish_colliding(out, 0);
                return;
            }
        }
    }
    x.gap = HUGE_VAL;
    /* depth first, the second child pushed first: at most one pending sibling per level */
    int32_t stack[COL_MESH_MAX_DEPTH + 1];
    int sp = 0;
    stack[sp++] = 0;
    while (sp > 0) {
        const col_mesh_node *n = &m->nodes[stack[--sp]];
        if (x.visits < INT_MAX) x.visits++;
        const double lo[3] = {n->min.x, n->min.y, n->min.z}, hi[3] = {n->max.x, n->max.y, n->max.z};
        double s = mc_box_sep(&x, lo, hi);
        if (s > 0) {
            x.gap = dmin(x.gap, s * x.gap_scale);
            continue;
        }
        if (n->count == 0) {
            stack[sp++] = n->child + 1;
            stack[sp++] = n->child;
            continue;
        }
        for (int k = n->child; k < n->child + n->count; k++) {
            if (mc_triangle(&x, k)) {
                if (cache != NULL) {
                    cache->tri_a = k;
                    cache->tri_b = -1;
                }
                finish_colliding(out, x.visits);
                return;
            }
        }
    }
    if (cache != NULL) col_mesh_cache_init(cache); /* apart: the witness is stale (as in mesh-mesh) */
    finish_separated(out, x.gap, x.visits);
}

/* ---- mesh - mesh ---- */

/* The world triangle k of mesh m at pose xf and its exact world box. */
static void world_triangle(const col_mesh *m, const col_xform *xf, int k, col_vec3 w[3], double lo[3], double hi[3])
{
    col_vec3 t[3];
    col_mesh_triangle(m, k, t);
    for (int j = 0; j < 3; j++) w[j] = col_xform_point(xf, t[j]);
    for (int d = 0; d < 3; d++) {
        double p = vget(w[0], d), q = vget(w[1], d), r = vget(w[2], d);
        lo[d] = dmin(p, dmin(q, r));
        hi[d] = dmax(p, dmax(q, r));
    }
}

/* A certified lower bound on the distance of two world triangles from an axis s (any
 * length, either sign): the projections of the six vertices on s, relative to a's first
 * vertex c, minus their rounding bound (each s.(v - c) is within (u + gamma_3 (1 + u))
 * |s|_1 |v - c|_inf <= 5u |s|_1 D of the real value, D the largest |v - c|_inf; twice
 * that for the two extremes, and u of their difference) bound the separation along s,
 * and so the distance times |s|_2. 0 when nothing positive is proven. */
static double axis_gap(const col_vec3 a[3], const col_vec3 b[3], col_vec3 s)
{
    const col_vec3 c = a[0];
    double max_a = -HUGE_VAL, min_a = HUGE_VAL, max_b = -HUGE_VAL, min_b = HUGE_VAL, D = 0;
    for (int j = 0; j < 3; j++) {
        col_vec3 va = col_sub(a[j], c), vb = col_sub(b[j], c);
        double pa = col_dot(s, va), pb = col_dot(s, vb);
        max_a = dmax(max_a, pa);
        min_a = dmin(min_a, pa);
        max_b = dmax(max_b, pb);
        min_b = dmin(min_b, pb);
        D = dmax(D, dmax(col_max_abs(va), col_max_abs(vb)));
    }
    double s1 = fabs(s.x) + fabs(s.y) + fabs(s.z);
    double raw = dmax(min_b - max_a, min_a - max_b);
    double g = raw - (10 * U_RND * s1 * D + U_RND * fabs(raw)) * (1 + 8 * U_RND);
    double len = col_len(s) * (1 + 4 * U_RND);
    return g > 0 && len > 0 ? g / len * (1 - 2 * U_RND) : 0;
}

/* The better of the cheap axes (the two face normals) for a triangle pair known apart. */
static double tri_gap_cheap(const col_vec3 a[3], const col_vec3 b[3])
{
    col_vec3 na = col_cross(col_sub(a[1], a[0]), col_sub(a[2], a[0]));
    col_vec3 nb = col_cross(col_sub(b[1], b[0]), col_sub(b[2], b[0]));
    return dmax(axis_gap(a, b, na), axis_gap(a, b, nb));
}

/* The axis of GJK's closest points (narrowphase/rounded.h), certified by axis_gap. */
static double tri_gap_gjk(const col_vec3 a[3], const col_vec3 b[3])
{
    static const col_xform id = {{{1, 0, 0, 0, 1, 0, 0, 0, 1}}, {0, 0, 0}};
    const col_core ca = {a, 3, NULL, 0.0}, cb = {b, 3, NULL, 0.0};
    col_core_distance d;
    col_core_distance_query(&ca, &id, &cb, &id, &d);
    if (d.overlap || !(d.distance > 0)) return 0;
    return axis_gap(a, b, col_sub(d.point_b, d.point_a));
}

/* World triangles of one mesh, computed once per query: a direct-mapped cache by leaf
 * order number (the traversal meets the same leaves again against neighbouring leaves
 * of the other mesh). */
enum { TRI_CACHE = 64, PENDING = 32 };

typedef struct world_tri {
    int32_t k;
    col_vec3 w[3];
    double lo[3], hi[3]; /* the exact world box */
} world_tri;

static const world_tri *tri_of(world_tri *cache, const col_mesh *m, const col_xform *xf, int k)
{
    world_tri *e = &cache[k & (TRI_CACHE - 1)];
    if (e->k != k) {
        e->k = k;
        world_triangle(m, xf, k, e->w, e->lo, e->hi);
    }
    return e;
}


typedef struct mm_ctx {
    const col_mesh *a, *b;
    const col_xform *xa, *xb;
    double M[9], Mabs[9]; /* Mc = fl(Ra^T Rb) (row-major) and |Mc| */
    double t[3];          /* tc = fl(Ra^T fl(pb - pa)) */
    double ed[3][3][3];   /* |(e_i x c_j) . c_k|, c_j the columns of Mc */
    double gram[3][3];    /* |c_j . c_k|: b's box projected on its own (not quite orthonormal) axes */
    double gscale[15];    /* per axis: the certified world gap per unit of local separation */
    double sigma;         /* the slack of every axis test */
    double gap;
    int visits;
    /* triangle pairs whose world boxes meet but which were decided apart: their
     * distance bounds are wanted only if the query ends apart (mm_flush_pending) */
    int32_t pending[PENDING][2];
    int npending;
    bool tris_ready;
    col_mesh_cull cull;
    col_mesh_probe probe; /* NULL: none (col_mesh_mesh_query_probe) */
    void *probe_ctx;
    bool probe_stopped;
    col_bv_frame bvf; /* the fitted boxes' frame (cull OBB or BOTH) */
    world_tri ta[TRI_CACHE], tb[TRI_CACHE];
} mm_ctx;

/* The relative frame and the slack sigma of the tests (header comment): b's node boxes
 * map into a's frame through Mc, tc within eta_b; a's world triangles lie within eta_a
 * of their local boxes. Each of the 15 axes L has ||L||_1 <= Lmax, so eta's share of an
 * axis test is (eta_a + eta_b) Lmax. The tests' own rounding: every quantity is a sum of
 * at most 9 products of magnitude at most Lmax S (S below bounds every local coordinate
 * involved, centres and half extents), each with a relative error of a few u: 256 u
 * Lmax S covers it with room (the count is in mm_sep: T = Mc cb + tc - ca, then L.T, ra
 * and rb, then their sum, about 20 roundings on terms of size Lmax S). */
static void mm_setup(mm_ctx *x)
{
    double Aa = mesh_extent(x->a), Ab = mesh_extent(x->b);
    rel_frame f;
    rel_frame_of(x->xa, x->xb, &f);
    pose_bound pa = f.pa;
    for (int e = 0; e < 9; e++) {
        x->M[e] = f.M[e];
        x->Mabs[e] = fabs(f.M[e]);
    }
    for (int k = 0; k < 3; k++) x->t[k] = f.t[k];
    const col_vec3 tc = col_v3(f.t[0], f.t[1], f.t[2]);
    col_vec3 c[3];
    for (int j = 0; j < 3; j++) c[j] = col_v3(x->M[j], x->M[3 + j], x->M[6 + j]);
    double Lmax = 1, normM = 0;
    for (int j = 0; j < 3; j++) {
        normM = dmax(normM, x->Mabs[3 * j] + x->Mabs[3 * j + 1] + x->Mabs[3 * j + 2]);
        Lmax = dmax(Lmax, x->Mabs[j] + x->Mabs[3 + j] + x->Mabs[6 + j]);
        for (int k = 0; k < 3; k++) {
            col_vec3 ck = col_cross(c[j], c[k]);
            for (int i = 0; i < 3; i++) x->ed[i][j][k] = fabs(vget(ck, i));
            x->gram[j][k] = fabs(col_dot(c[j], c[k]));
        }
    }
    double cmax = 0;
    for (int e = 0; e < 9; e++) cmax = dmax(cmax, x->Mabs[e]);
    Lmax = dmax(Lmax, 2 * cmax) * (1 + 4 * U_RND);
    double eta_a = vertex_eta(pa, Aa, col_max_abs(x->xa->p)), eta_b = rel_eta(&f, Ab);
    double S = Aa + 2 * normM * Ab + col_max_abs(tc) + Ab;
    x->sigma = Lmax * (eta_a + eta_b + 256 * U_RND * Lmax * S);
    /* gap per unit of separation along L: world >= local / sigma_max(Ra^T) >= local /
     * ((1 + 2 e_a) |L|_2); |L| rounded up, the quotient rounded down by gap_scale_of's 8u */
    double g = gap_scale_of(pa);
    for (int i = 0; i < 3; i++) x->gscale[i] = g;
    for (int j = 0; j < 3; j++) {
        double len = col_len(c[j]) * (1 + 4 * U_RND);
        x->gscale[3 + j] = len > 0 ? g / len * (1 - 2 * U_RND) : 0;
        for (int i = 0; i < 3; i++) {
            double l2 = 0;
            for (int k = 0; k < 3; k++)
                if (k != i) l2 += vget(c[j], k) * vget(c[j], k);
            double len_e = sqrt(l2) * (1 + 4 * U_RND);
            x->gscale[6 + 3 * i + j] = len_e > 0 ? g / len_e * (1 - 2 * U_RND) : 0;
        }
    }
}

/* The separating axis test of a's node box and b's node parallelepiped in a's frame
 * (Gottschalk, Lin & Manocha, "OBBTree", SIGGRAPH 1996: 15 axes, a's 3 face normals
 * first, then b's, then the 9 edge cross products): the certified lower bound on the
 * world distance of the node pair's triangles when an axis separates them (> 0), else 0:
 * the first separating axis's, or with all, the largest over the 15 (each is a bound).
 * b's box projects on an axis L as sum_k hb_k |L . c_k| with the columns c_k of Mc, which
 * is not exactly a rotation (no identity of rotations is used: b's own face axes take
 * |c_j . c_k| from gram, the edge axes |(e_i x c_j) . c_k| from ed). */
static inline double mm_sep(const mm_ctx *x, const col_mesh_node *na, const col_mesh_node *nb, bool all)
{
    double best = 0;
    const double ca[3] = {0.5 * (na->min.x + na->max.x), 0.5 * (na->min.y + na->max.y), 0.5 * (na->min.z + na->max.z)};
    const double ha[3] = {0.5 * (na->max.x - na->min.x), 0.5 * (na->max.y - na->min.y), 0.5 * (na->max.z - na->min.z)};
    const double cb[3] = {0.5 * (nb->min.x + nb->max.x), 0.5 * (nb->min.y + nb->max.y), 0.5 * (nb->min.z + nb->max.z)};
    const double hb[3] = {0.5 * (nb->max.x - nb->min.x), 0.5 * (nb->max.y - nb->min.y), 0.5 * (nb->max.z - nb->min.z)};
    const double *M = x->M, *A = x->Mabs;
    double T[3];
    for (int i = 0; i < 3; i++) T[i] = M[3 * i] * cb[0] + M[3 * i + 1] * cb[1] + M[3 * i + 2] * cb[2] + x->t[i] - ca[i];
    const double sig = x->sigma;
    for (int i = 0; i < 3; i++) {
        double s = fabs(T[i]) - ha[i] - (A[3 * i] * hb[0] + A[3 * i + 1] * hb[1] + A[3 * i + 2] * hb[2]) - sig;
        if (s > 0) {
            if (!all) return s * x->gscale[i];
            best = dmax(best, s * x->gscale[i]);
        }
    }
    for (int j = 0; j < 3; j++) {
        double lt = M[j] * T[0] + M[3 + j] * T[1] + M[6 + j] * T[2];
        const double *g = x->gram[j];
        double s = fabs(lt) - (A[j] * ha[0] + A[3 + j] * ha[1] + A[6 + j] * ha[2]) -
                   (g[0] * hb[0] + g[1] * hb[1] + g[2] * hb[2]) - sig;
        if (s > 0) {
            if (!all) return s * x->gscale[3 + j];
            best = dmax(best, s * x->gscale[3 + j]);
        }
    }
    for (int j = 0; j < 3; j++) {
        const double c0 = M[j], c1 = M[3 + j], c2 = M[6 + j];
        const double a0 = A[j], a1 = A[3 + j], a2 = A[6 + j];
        /* L = e_0 x c = (0, -c2, c1); e_1 x c = (c2, 0, -c0); e_2 x c = (-c1, c0, 0) */
        const double lt[3] = {c1 * T[2] - c2 * T[1], c2 * T[0] - c0 * T[2], c0 * T[1] - c1 * T[0]};
        const double ra[3] = {ha[1] * a2 + ha[2] * a1, ha[0] * a2 + ha[2] * a0, ha[0] * a1 + ha[1] * a0};
        for (int i = 0; i < 3; i++) {
            const double *e = x->ed[i][j];
            double s = fabs(lt[i]) - ra[i] - (e[0] * hb[0] + e[1] * hb[1] + e[2] * hb[2]) - sig;
            if (s > 0) {
                if (!all) return s * x->gscale[6 + 3 * i + j];
                best = dmax(best, s * x->gscale[6 + 3 * i + j]);
            }
        }
    }
    return best;
}

/* The distance bounds of the pending triangle pairs join x->gap: the face normals first,
 * GJK's axis only when they leave the pair below the smallest bound so far (a bound
 * above it does not change the minimum). */
static void mm_flush_pending(mm_ctx *x)
{
    for (int p = 0; p < x->npending && x->gap > 0; p++) {
        const world_tri *ta = tri_of(x->ta, x->a, x->xa, x->pending[p][0]);
        const world_tri *tb = tri_of(x->tb, x->b, x->xb, x->pending[p][1]);
        double g = tri_gap_cheap(ta->w, tb->w);
        if (g < x->gap) g = dmax(g, tri_gap_gjk(ta->w, tb->w));
        x->gap = dmin(x->gap, g);
    }
    x->npending = 0;
}

/* Every triangle pair of two leaves: an exact world-box test, then the exact decision.
 * Returns true on a colliding pair (its numbers in *ka, *kb). */
static bool mm_leaves(mm_ctx *x, const col_mesh_node *na, const col_mesh_node *nb, int *ka, int *kb)
{
    if (!x->tris_ready) {
        for (int i = 0; i < TRI_CACHE; i++) x->ta[i].k = x->tb[i].k = -1;
        x->tris_ready = true;
    }
    for (int i = 0; i < na->count; i++) {
        const world_tri *ta = tri_of(x->ta, x->a, x->xa, na->child + i);
        for (int j = 0; j < nb->count; j++) {
            const world_tri *tb = tri_of(x->tb, x->b, x->xb, nb->child + j);
            /* the world boxes are exact (min and max of the world vertices): apart boxes are
             * apart triangles, and their axis gap, computed with one rounding, bounds the
             * distance */
            double s = -HUGE_VAL;
            for (int d = 0; d < 3; d++) s = dmax(s, dmax(tb->lo[d] - ta->hi[d], ta->lo[d] - tb->hi[d]));
            if (s > 0) {
                x->gap = dmin(x->gap, s * (1 - 2 * U_RND));
                continue;
            }
            if (col_tri_tri_intersect(ta->w, tb->w)) {
                *ka = na->child + i;
                *kb = nb->child + j;
                return true;
            }
            if (x->npending == PENDING) mm_flush_pending(x);
            x->pending[x->npending][0] = na->child + i;
            x->pending[x->npending++][1] = nb->child + j;
        }
    }
    return false;
}

static inline col_vec3 node_center(const col_mesh_node *n)
{
    return col_scale(col_add(n->min, n->max), 0.5);
}

/* b's local point in a's frame and back (approximately: only the descent order uses them). */
static inline col_vec3 mm_to_a(const mm_ctx *x, col_vec3 y)
{
    const double *M = x->M;
    return col_v3(M[0] * y.x + M[1] * y.y + M[2] * y.z + x->t[0], M[3] * y.x + M[4] * y.y + M[5] * y.z + x->t[1],
                  M[6] * y.x + M[7] * y.y + M[8] * y.z + x->t[2]);
}

static inline col_vec3 mm_to_b(const mm_ctx *x, col_vec3 p)
{
    const double *M = x->M;
    col_vec3 d = col_v3(p.x - x->t[0], p.y - x->t[1], p.z - x->t[2]);
    return col_v3(M[0] * d.x + M[3] * d.y + M[6] * d.z, M[1] * d.x + M[4] * d.y + M[7] * d.z,
                  M[2] * d.x + M[5] * d.y + M[8] * d.z);
}

static inline double node_size(const col_mesh_node *n)
{
    return (n->max.x - n->min.x) + (n->max.y - n->min.y) + (n->max.z - n->min.z);
}

/* The node pair's certified gap by the chosen test (> 0: apart). */
static inline double mm_node_gap(const mm_ctx *x, int32_t ia, int32_t ib)
{
    if (x->cull == COL_MESH_CULL_OBB) return col_bv_obb_gap(&x->bvf, &x->a->bvs[ia], &x->b->bvs[ib]);
    double s = mm_sep(x, &x->a->nodes[ia], &x->b->nodes[ib], false);
    if (s > 0 || x->cull == COL_MESH_CULL_AABB) return s;
    return col_bv_obb_gap(&x->bvf, &x->a->bvs[ia], &x->b->bvs[ib]);
}

/* The simultaneous traversal. Each pop pushes at most two pairs, one level deeper on one
 * side, so the stack holds at most one pending pair per descent on the current path plus
 * the two pushed: depth_a + depth_b <= 2 COL_MESH_MAX_DEPTH entries. */
static bool mm_traverse(mm_ctx *x, int *ka, int *kb)
{
    int32_t stack[2 * COL_MESH_MAX_DEPTH + 2][3]; /* a's node, b's node, the pair's depth */
    int sp = 0;
    stack[sp][0] = 0;
    stack[sp][1] = 0;
    stack[sp++][2] = 0;
    while (sp > 0) {
        sp--;
        const col_mesh_node *na = &x->a->nodes[stack[sp][0]], *nb = &x->b->nodes[stack[sp][1]];
        if (x->visits < INT_MAX) x->visits++; /* saturating: two dense interleaved meshes */
        double s = mm_node_gap(x, stack[sp][0], stack[sp][1]);
        if (s > 0) {
            /* the gap is the least bound over the pruned pairs: a pair that would lower
             * it gets the best of its axes */
            if (s < x->gap) s = dmax(s, mm_sep(x, na, nb, true));
            x->gap = dmin(x->gap, s);
            continue;
        }
        bool leaf_a = na->count > 0, leaf_b = nb->count > 0;
        if (leaf_a && leaf_b) {
            if (mm_leaves(x, na, nb, ka, kb)) return true;
            continue;
        }
        const int32_t dchild = stack[sp][2] + 1;
        if (x->probe != NULL && x->probe(x->probe_ctx, stack[sp][0], stack[sp][1], dchild - 1)) {
            x->probe_stopped = true;
            return false;
        }
        /* The child nearer the other node is popped first (pushed last): a colliding pair
         * is usually found sooner; a separated one visits the same pairs either way. */
        int32_t ia = stack[sp][0], ib = stack[sp][1];
        if (!leaf_a && (leaf_b || node_size(na) >= node_size(nb))) {
            const col_vec3 cb = mm_to_a(x, node_center(nb));
            int near = col_len2(col_sub(node_center(&x->a->nodes[na->child + 1]), cb)) <
                       col_len2(col_sub(node_center(&x->a->nodes[na->child]), cb));
            stack[sp][0] = na->child + !near;
            stack[sp][1] = ib;
            stack[sp++][2] = dchild;
            stack[sp][0] = na->child + near;
            stack[sp][1] = ib;
            stack[sp++][2] = dchild;
        } else {
            const col_vec3 ca = mm_to_b(x, node_center(na));
            int near = col_len2(col_sub(node_center(&x->b->nodes[nb->child + 1]), ca)) <
                       col_len2(col_sub(node_center(&x->b->nodes[nb->child]), ca));
            stack[sp][0] = ia;
            stack[sp][1] = nb->child + !near;
            stack[sp++][2] = dchild;
            stack[sp][0] = ia;
            stack[sp][1] = nb->child + near;
            stack[sp++][2] = dchild;
        }
    }
    return false;
}

/* The cached witness first, then its neighbours in leaf order (the leaves hold nearby
 * triangles next to each other, and a contact that moved by a triangle or two is usually
 * there): WITNESS_WINDOW on either side of each number, the witness pair first, each
 * pair through the exact world-box test and the exact decision. */
enum { WITNESS_WINDOW = 3 };

static bool mm_witness(mm_ctx *x, const col_mesh_cache *cache, int *ka, int *kb)
{
    const int ta = cache->tri_a, tb = cache->tri_b;
    if (ta < 0 || ta >= x->a->triangle_count || tb < 0 || tb >= x->b->triangle_count) return false;
    for (int i = 0; i < TRI_CACHE; i++) x->ta[i].k = x->tb[i].k = -1;
    x->tris_ready = true;
    for (int r = 0; r <= WITNESS_WINDOW; r++) {
        /* ring r: the pairs whose larger offset from the witness is r */
        for (int da = -r; da <= r; da++) {
            for (int db = -r; db <= r; db++) {
                if (da != -r && da != r && db != -r && db != r) continue;
                int i = ta + da, j = tb + db;
                if (i < 0 || i >= x->a->triangle_count || j < 0 || j >= x->b->triangle_count) continue;
                const world_tri *wa = tri_of(x->ta, x->a, x->xa, i), *wb = tri_of(x->tb, x->b, x->xb, j);
                bool apart = false;
                for (int d = 0; d < 3 && !apart; d++) apart = wb->lo[d] > wa->hi[d] || wa->lo[d] > wb->hi[d];
                if (!apart && col_tri_tri_intersect(wa->w, wb->w)) {
                    *ka = i;
                    *kb = j;
                    return true;
                }
            }
        }
    }
    return false;
}

void col_mesh_mesh_query(const col_mesh *a, const col_xform *xa, const col_mesh *b, const col_xform *xb,
                         col_mesh_cache *cache, col_np_result *out)
{
    /* the local boxes first, the fitted ones where those fail: the fewest node pairs and
     * the least time on the mesh scenes (docs/meshes.md "Bounding volumes measured") */
    col_mesh_mesh_query_cull(a, xa, b, xb, cache, COL_MESH_CULL_BOTH, out);
}

static bool mm_query(const col_mesh *a, const col_xform *xa, const col_mesh *b, const col_xform *xb,
                     col_mesh_cache *cache, col_mesh_cull cull, col_mesh_probe probe, void *probe_ctx,
                     col_np_result *out);

void col_mesh_mesh_query_cull(const col_mesh *a, const col_xform *xa, const col_mesh *b, const col_xform *xb,
                              col_mesh_cache *cache, col_mesh_cull cull, col_np_result *out)
{
    mm_query(a, xa, b, xb, cache, cull, NULL, NULL, out);
}

bool col_mesh_mesh_query_probe(const col_mesh *a, const col_xform *xa, const col_mesh *b, const col_xform *xb,
                               col_mesh_cache *cache, col_mesh_probe probe, void *probe_ctx, col_np_result *out)
{
    return mm_query(a, xa, b, xb, cache, COL_MESH_CULL_BOTH, probe, probe_ctx, out);
}

/* The query; false when the probe stopped it (out then holds only the visits). */
static bool mm_query(const col_mesh *a, const col_xform *xa, const col_mesh *b, const col_xform *xb,
                     col_mesh_cache *cache, col_mesh_cull cull, col_mesh_probe probe, void *probe_ctx,
                     col_np_result *out)
{
    mm_ctx x;
    x.a = a;
    x.b = b;
    x.xa = xa;
    x.xb = xb;
    x.gap = HUGE_VAL;
    x.visits = 0;
    x.npending = 0;
    x.tris_ready = false;
    x.cull = cull;
    x.probe = probe;
    x.probe_ctx = probe_ctx;
    x.probe_stopped = false;
    int ka = -1, kb = -1;
    if (cache != NULL && mm_witness(&x, cache, &ka, &kb)) {
        cache->tri_a = ka;
        cache->tri_b = kb;
        finish_colliding(out, 0);
        return true;
    }
    mm_setup(&x);
    if (cull != COL_MESH_CULL_AABB) col_bv_frame_setup(&x.bvf, a, xa, b, xb);
    if (mm_traverse(&x, &ka, &kb)) {
        if (cache != NULL) {
            cache->tri_a = ka;
            cache->tri_b = kb;
        }
        finish_colliding(out, x.visits);
        return true;
    }
    if (x.probe_stopped) {
        /* undecided: the witness stays (the caller's estimate says nothing of it) */
        memset(out, 0, sizeof *out);
        out->axis = col_v3(1, 0, 0);
        out->iterations = x.visits;
        return false;
    }
    mm_flush_pending(&x);
    /* apart: the witness is stale, and trying its window each time would cost a separated
     * pair (most pairs, most frames) more than it saves when the pair meets again */
    if (cache != NULL) col_mesh_cache_init(cache);
    finish_separated(out, x.gap, x.visits);
    return true;
}
