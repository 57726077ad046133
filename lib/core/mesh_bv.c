/* SPDX-License-Identifier: MIT */
/* The fitted volumes of a mesh's hierarchy (lib/core/mesh.h, col_mesh_bv): per node a
 * frame from the covariance of its triangles' vertices (Gottschalk, Lin & Manocha,
 * "OBBTree", SIGGRAPH 1996), the tight box in that frame, and a rectangle swept sphere
 * in the same frame (Larsen, Gottschalk, Lin & Manocha, "Fast distance queries with
 * rectangular swept sphere volumes", ICRA 2000: the rectangle spans the two axes of
 * largest spread, the radius covers the third).
 *
 * Containment is exact: every double vertex of the node (and so every point of its
 * triangles, the volumes being convex) lies in the real sets the stored doubles define,
 * whatever the rounding. The proof, for a node whose vertices have |v|_inf <= V:
 * - A (the stored matrix, columns a_k) is not exactly orthonormal. E = A^T A - I, and e
 *   bounds |E_ij| (col_frame_defect of mesh.h: the computed entries plus their rounding, as for a pose
 *   in narrowphase/mesh_collide.c); a frame with e > 1e-8 is replaced by the identity (e
 *   = 0). ||E||_2 <= ||E||_F <= 3e, so sigma_max(A) <= sqrt(1 + 3e) <= 1 + 2e.
 * - A vertex's frame coordinates are t = A^{-1} v (exact, real); we compute q =
 *   fl(A^T v). |q_k - a_k.v| <= gamma_3 |a_k|_1 V <= gamma_3 sqrt(3) (1 + e) V (Higham,
 *   Accuracy and Stability, 2002, ch. 3), and A^{-1} v - A^T v = ((I + E)^{-1} - I) A^T v,
 *   of 2-norm <= 3e / (1 - 3e) (1 + 2e) sqrt(3) V. Both together are below
 *   delta = 8 (u + e) V (u = 2^-53; 5.2 u V and 5.2 e V, the rest covers delta's own two
 *   roundings): |t_k - q_k| <= delta for every k.
 * - Box: lo_k = the next double below fl(min q_k - delta), hi_k likewise above
 *   (fl(x) is within half a spacing of x, so the next double beyond it is beyond x), so
 *   lo_k <= t_k <= hi_k. The stored centre c = fl((lo + hi) / 2) and half extent h = the
 *   next double above fl(max(hi - c, c - lo)) give [c - h, c + h] containing [lo, hi]
 *   exactly. So v = A t with |t - c| <= h componentwise: v is in {A (c + s) : |s_k| <=
 *   h_k}, the node's box.
 * - Rectangle swept sphere: the rectangle {A (rc0 + s0, rc1 + s1, c2) : |s_0| <= l_0,
 *   |s_1| <= l_1}. Its half lengths come from the heuristic of the paper (the rectangle
 *   shrunk by what the half thickness covers); the radius is then measured, not assumed:
 *   d = fl(sqrt(d0^2 + d1^2 + d2^2)) per vertex, d0 = max(|q0 - rc0| - l0, 0), d1 alike,
 *   d2 = |q2 - c2|, the t-space distance of q from the rectangle. Each d_k is within
 *   3u Q of its real value (Q bounds |q|, |rc|, |c2| and l: two subtractions and a max),
 *   the root of the sum within 3u relative, so the real t-space distance of q is below
 *   (dmax + 6 u Q)(1 + 4u), and that of t below it plus 2 delta (sqrt(3) delta, since
 *   the distance to a convex set is 1-Lipschitz). Carried by A (sigma_max <= 1 + 2e) it
 *   bounds the local distance of v from the rectangle: r is that, times (1 + 2e), with
 *   16u for the roundings of the products, then the next double up. */
#include "lib/core/mesh.h"

#include "lib/core/alloc.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>

#define U_RND (DBL_EPSILON / 2)

static inline double dmax(double a, double b) { return a > b ? a : b; }
static inline double dmin(double a, double b) { return a < b ? a : b; }


/* Eigenvectors of the symmetric 3x3 matrix c (row-major), by cyclic Jacobi rotations
 * (Golub & Van Loan, Matrix Computations, 8.5): the columns of v, in order of decreasing
 * eigenvalue. A bounded number of sweeps; the result need only be near orthonormal (the
 * callers measure how near). */
static void eigen_frame(double c[9], double v[9])
{
    for (int i = 0; i < 9; i++) v[i] = i % 4 == 0 ? 1.0 : 0.0;
    for (int sweep = 0; sweep < 32; sweep++) {
        double off = fabs(c[1]) + fabs(c[2]) + fabs(c[5]);
        double diag = fabs(c[0]) + fabs(c[4]) + fabs(c[8]);
        if (!(off > 1e-30 * diag) || off == 0) break;
        for (int p = 0; p < 2; p++)
            for (int q = p + 1; q < 3; q++) {
                double apq = c[3 * p + q];
                if (apq == 0) continue;
                double theta = (c[3 * q + q] - c[3 * p + p]) / (2 * apq);
                double t = (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1));
                if (!isfinite(t)) t = 0; /* theta overflowed: the entry is negligible */
                double cs = 1 / sqrt(t * t + 1), sn = t * cs;
                /* c <- J^T c J, v <- v J, J the rotation in the (p, q) plane */
                for (int k = 0; k < 3; k++) {
                    double ckp = c[3 * k + p], ckq = c[3 * k + q];
                    c[3 * k + p] = cs * ckp - sn * ckq;
                    c[3 * k + q] = sn * ckp + cs * ckq;
                }
                for (int k = 0; k < 3; k++) {
                    double cpk = c[3 * p + k], cqk = c[3 * q + k];
                    c[3 * p + k] = cs * cpk - sn * cqk;
                    c[3 * q + k] = sn * cpk + cs * cqk;
                }
                for (int k = 0; k < 3; k++) {
                    double vkp = v[3 * k + p], vkq = v[3 * k + q];
                    v[3 * k + p] = cs * vkp - sn * vkq;
                    v[3 * k + q] = sn * vkp + cs * vkq;
                }
            }
    }
    /* order the columns by decreasing eigenvalue (a selection sort of three) */
    for (int a = 0; a < 2; a++) {
        int best = a;
        for (int b = a + 1; b < 3; b++)
            if (c[4 * b] > c[4 * best]) best = b;
        if (best != a) {
            double t = c[4 * a];
            c[4 * a] = c[4 * best];
            c[4 * best] = t;
            for (int k = 0; k < 3; k++) {
                t = v[3 * k + a];
                v[3 * k + a] = v[3 * k + best];
                v[3 * k + best] = t;
            }
        }
    }
}

/* A node's moments: the mean and the co-moment matrix (sum of (x - mean)(x - mean)^T,
 * upper triangle xx xy xz yy yz zz) of its triangles' vertices, n of them. */
typedef struct moments {
    double n, mu[3], c[6];
} moments;

static const int UPPER[3][3] = {{0, 1, 2}, {1, 3, 4}, {2, 4, 5}};

/* The vertices of triangles [begin, end), two passes (the mean first: no cancellation). */
static void leaf_moments(const col_mesh *m, int begin, int end, moments *o)
{
    const int n = 3 * (end - begin);
    const uint32_t *idx = m->tris + 3 * (size_t)begin;
    double mu[3] = {0, 0, 0};
    for (int i = 0; i < n; i++) {
        col_vec3 v = m->vertices[idx[i]];
        mu[0] += v.x;
        mu[1] += v.y;
        mu[2] += v.z;
    }
    for (int k = 0; k < 3; k++) o->mu[k] = mu[k] / n;
    for (int k = 0; k < 6; k++) o->c[k] = 0;
    for (int i = 0; i < n; i++) {
        col_vec3 v = m->vertices[idx[i]];
        double d[3] = {v.x - o->mu[0], v.y - o->mu[1], v.z - o->mu[2]};
        for (int r = 0; r < 3; r++)
            for (int s = r; s < 3; s++) o->c[UPPER[r][s]] += d[r] * d[s];
    }
    o->n = n;
}

/* Two children's moments joined (Chan, Golub & LeVeque, "Updating formulae and a pairwise
 * algorithm for computing sample variances", 1979): no sum of squares of coordinates, so
 * a small node far from the origin keeps its shape. */
static void join_moments(const moments *a, const moments *b, moments *o)
{
    double n = a->n + b->n, d[3];
    for (int k = 0; k < 3; k++) d[k] = b->mu[k] - a->mu[k];
    for (int k = 0; k < 3; k++) o->mu[k] = a->mu[k] + d[k] * (b->n / n);
    double w = a->n * b->n / n;
    for (int r = 0; r < 3; r++)
        for (int s = r; s < 3; s++) o->c[UPPER[r][s]] = a->c[UPPER[r][s]] + b->c[UPPER[r][s]] + d[r] * d[s] * w;
    o->n = n;
}

/* The frame of a node's moments: Gram-Schmidt on the covariance's two leading
 * eigenvectors, the third their cross product (a right-handed frame); the identity when
 * the result is not near orthonormal or not finite. *e: its defect. */
static void fit_frame(const moments *mo, double A[9], double *e)
{
    double c[9];
    for (int r = 0; r < 3; r++)
        for (int s = 0; s < 3; s++) c[3 * r + s] = mo->c[UPPER[r][s]];
    double scale = 0;
    for (int k = 0; k < 9; k++) scale = dmax(scale, fabs(c[k]));
    if (scale > 0 && isfinite(scale))
        for (int k = 0; k < 9; k++) c[k] /= scale;
    double v[9];
    eigen_frame(c, v);
    col_vec3 a0 = col_v3(v[0], v[3], v[6]), a1 = col_v3(v[1], v[4], v[7]);
    double l0 = col_len(a0);
    a0 = col_scale(a0, 1 / l0);
    a1 = col_sub(a1, col_scale(a0, col_dot(a0, a1)));
    double l1 = col_len(a1);
    a1 = col_scale(a1, 1 / l1);
    col_vec3 a2 = col_cross(a0, a1);
    a2 = col_scale(a2, 1 / col_len(a2));
    const double F[9] = {a0.x, a1.x, a2.x, a0.y, a1.y, a2.y, a0.z, a1.z, a2.z};
    bool finite = true;
    for (int k = 0; k < 9; k++) finite = finite && isfinite(F[k]);
    double d = finite ? col_frame_defect(F) : HUGE_VAL;
    if (!(d <= 1e-8)) {
        for (int k = 0; k < 9; k++) A[k] = k % 4 == 0 ? 1.0 : 0.0;
        *e = 0; /* the identity is exactly orthonormal */
        return;
    }
    for (int k = 0; k < 9; k++) A[k] = F[k];
    *e = d;
}

static inline double next_down(double x) { return nextafter(x, -HUGE_VAL); }
static inline double next_up(double x) { return nextafter(x, HUGE_VAL); }

/* The box and rectangle swept sphere of the points q[0..n) (already in frame A's
 * coordinates, q = fl(A^T p)), with delta bounding |t - q| componentwise for the real
 * frame coordinates t of the points to be contained (the header comment). */
static void fit_box(double lo[3], double hi[3], double delta, col_mesh_bv *bv, double *Q)
{
    *Q = 0;
    for (int k = 0; k < 3; k++) {
        lo[k] = next_down(lo[k] - delta);
        hi[k] = next_up(hi[k] + delta);
        bv->c[k] = 0.5 * (lo[k] + hi[k]);
        bv->h[k] = next_up(dmax(hi[k] - bv->c[k], bv->c[k] - lo[k]));
        *Q = dmax(*Q, dmax(fabs(lo[k]), fabs(hi[k])));
    }
}

static void fit_volumes(const col_vec3 *qs, int n, double delta, double e, col_mesh_bv *bv)
{
    double lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (int i = 0; i < n; i++) {
        const double qq[3] = {qs[i].x, qs[i].y, qs[i].z};
        for (int k = 0; k < 3; k++) {
            lo[k] = dmin(lo[k], qq[k]);
            hi[k] = dmax(hi[k], qq[k]);
        }
    }
    double Q;
    fit_box(lo, hi, delta, bv, &Q);
    /* The rectangle (the paper's heuristic): a point at height dz off the mid plane is
     * covered by the half thickness rr within sqrt(rr^2 - dz^2) of the rectangle's edge. */
    const double rr = bv->h[2];
    double rlo[2] = {HUGE_VAL, HUGE_VAL}, rhi[2] = {-HUGE_VAL, -HUGE_VAL};
    for (int i = 0; i < n; i++) {
        col_vec3 q = qs[i];
        double dz = q.z - bv->c[2];
        double s = sqrt(dmax(rr * rr - dz * dz, 0));
        rlo[0] = dmin(rlo[0], q.x + s);
        rhi[0] = dmax(rhi[0], q.x - s);
        rlo[1] = dmin(rlo[1], q.y + s);
        rhi[1] = dmax(rhi[1], q.y - s);
    }
    for (int k = 0; k < 2; k++) {
        /* keep the rectangle inside the box (a safe, if looser, choice when the
         * heuristic's range is empty or rounding pushed it out) */
        double a = dmax(rlo[k], lo[k]), b = dmin(rhi[k], hi[k]);
        if (!(a <= b)) a = b = bv->c[k];
        bv->rc[k] = 0.5 * (a + b);
        bv->l[k] = 0.5 * (b - a);
    }
    /* the radius, measured (header comment) */
    double dm = 0;
    for (int i = 0; i < n; i++) {
        col_vec3 q = qs[i];
        double d0 = dmax(fabs(q.x - bv->rc[0]) - bv->l[0], 0);
        double d1 = dmax(fabs(q.y - bv->rc[1]) - bv->l[1], 0);
        double d2 = fabs(q.z - bv->c[2]);
        dm = dmax(dm, sqrt(d0 * d0 + d1 * d1 + d2 * d2));
    }
    Q = dmax(Q, dmax(bv->l[0], bv->l[1]));
    double rt = (dm + 6 * U_RND * Q) * (1 + 4 * U_RND) + 2 * delta;
    bv->r = next_up(rt * (1 + 2 * e) * (1 + 16 * U_RND));
}

/* The frame coordinates q = fl(A^T v) of the vertices of triangles [begin, end) into
 * out; returns their count, *V the largest |coordinate| of the vertices. */
static int node_points(const col_mesh *m, const col_mesh_bv *bv, col_vec3 *out, double *V)
{
    const col_mat3 *A = &bv->frame;
    const uint32_t *idx = m->tris + 3 * (size_t)bv->begin;
    const int n = 3 * (bv->end - bv->begin);
    double v_max = 0;
    for (int k = 0; k < n; k++) {
        col_vec3 v = m->vertices[idx[k]];
        v_max = dmax(v_max, col_max_abs(v));
        out[k] = col_mat3_tmul(A, v);
    }
    *V = v_max;
    return n;
}

col_status col_mesh_fit_bvs(struct col_alloc *a, col_mesh *m)
{
    const int nn = m->node_count;
    /* the frame coordinates of a node's vertices are gathered once into pts (3 per
     * triangle, the root's the most), then read by the passes of fit_volumes: the build's
     * work per tree level is one pass over the vertices */
    const size_t npts = 3 * (size_t)m->triangle_count;
    moments *mo = col_alloc_bytes(a, (size_t)nn * sizeof *mo);
    col_vec3 *pts = col_alloc_bytes(a, npts * sizeof *pts);
    if (mo == NULL || pts == NULL) {
        col_free_bytes(a, mo, (size_t)nn * sizeof *mo);
        col_free_bytes(a, pts, npts * sizeof *pts);
        return COL_ERR_OUT_OF_MEMORY;
    }
    double emax = 0;
    /* Children come after their parent in the array, so a backward pass sees both
     * children before the parent; the left child's triangles come first. */
    for (int i = nn - 1; i >= 0; i--) {
        col_mesh_node *nd = &m->nodes[i];
        col_mesh_bv *bv = &m->bvs[i];
        if (nd->count > 0) {
            bv->begin = nd->child;
            bv->end = nd->child + nd->count;
            leaf_moments(m, bv->begin, bv->end, &mo[i]);
        } else {
            bv->begin = m->bvs[nd->child].begin;
            bv->end = m->bvs[nd->child + 1].end;
            join_moments(&mo[nd->child], &mo[nd->child + 1], &mo[i]);
        }
        double e, V;
        fit_frame(&mo[i], bv->frame.m, &e);
        int n = node_points(m, bv, pts, &V);
        fit_volumes(pts, n, 8 * (U_RND + e) * V, e, bv); /* delta: the header comment's */
        emax = dmax(emax, e);
    }
    m->frame_defect = emax;
    col_free_bytes(a, mo, (size_t)nn * sizeof *mo);
    col_free_bytes(a, pts, npts * sizeof *pts);
    return COL_OK;
}
