/* SPDX-License-Identifier: MIT */
/* Certified bounds between fitted volumes of two meshes' nodes (mesh_bv_bound.h).
 *
 * The proof. Let Ra, pa and Rb, pb be the poses (doubles; R near a rotation, e_Ra and
 * e_Rb bounding |R^T R - I| entrywise, as narrowphase/mesh_collide.c computes them), A_a
 * and A_b the two nodes' frames (defects e_na, e_nb <= the meshes' frame_defect), Aa, Ab
 * the meshes' extents (largest |local coordinate|), Pa, Pb = |pa|_inf, |pb|_inf, u = 2^-53.
 * Work in a's node frame through the real affine map Phi(w) = A_a^T Ra^T (w - pa): world
 * distances are at least Phi-distances over sigma_max(Phi) <= (1 + 2 e_Ra)(1 + 2 e_na)
 * (sigma_max of a matrix with |M^T M - I| <= e entrywise is <= sqrt(1 + 3e)), hence
 * scale.
 * - a's world vertex W = fl(Ra v + pa) = Ra v + pa + err, |err|_2 <= sqrt(3) gamma_4
 *   (2 Aa + Pa): Phi(W) = t + E_na t + A_a^T E_Ra v + A_a^T Ra^T err with t = A_a^{-1} v,
 *   |t|_2 <= 1.01 sqrt(3) Aa: within 5.3 (e_na + e_Ra) Aa + 7.1 u (2 Aa + Pa) of t. And t
 *   lies within sigma_max(A_a^{-1}) r_a <= (1 + 3 e_na) r_a of the rectangle (or in the
 *   box) in t-space; r_a <= 2 sqrt(3) Aa, so the factor costs 10.4 e_na Aa.
 * - b's world vertex: Phi(W) = K t_b + A_a^T tau + A_a^T Ra^T err_b, with K = A_a^T M A_b,
 *   M = Ra^T Rb, tau = Ra^T (pb - pa) exact, t_b = A_b^{-1} y within (1 + 3 e_nb) r_b of
 *   b's rectangle (or in b's box). We compute Mc = fl(M), Kc = fl(A_a^T fl(Mc A_b)), and
 *   the centre and axes from Kc and tc = fl(A_a^T fl(Ra^T fl(pb - pa))): entrywise
 *   |Kc - K| <= 12 u (each of the three products adds gamma_3 of terms of size 1.01, and
 *   Mc's error carries through), so |(Kc - K) s|_2 <= 36 u |s|_2 <= 63 u Ab; tc is
 *   within 13 u (Pa + Pb) of A_a^T tau; the centre's own products add 7 u (Ab + Pa +
 *   Pb); err_b adds 7.1 u (2 Ab + Pb); and sigma_max(K) <= (1 + 2 e_na)(1 + 2 e_Ra)
 *   (1 + 2 e_Rb)(1 + 2 e_nb) widens r_b by at most 7 (e_na + e_Ra + e_Rb + e_nb) Ab, the
 *   (1 + 3 e_nb) factor by 10.4 e_nb Ab.
 * So both nodes' triangles lie, in Phi-space, within r + D of the computed rectangles (or
 * boxes), where D = 256 u (Aa + Ab + Pa + Pb) + 32 (e_na + e_nb + e_Ra + e_Rb)(Aa + Ab)
 * covers the sums above with room. A separating axis L of the computed sets then
 * separates the triangles by its computed separation minus (|L|_1 D + the rounding of the
 * separation itself), each of its terms a sum of at most 9 products of entries of L (at
 * most 1.02 in size) and coordinates at most S = 8 (Aa + Ab + Pa + Pb) in size: 32 u |L|_1
 * S covers it. Divided by |L|_2 (rounded up) it bounds the Phi-distance. */
#include "narrowphase/mesh_bv_bound.h"

#include <float.h>
#include <math.h>

#define U_RND (DBL_EPSILON / 2)

static inline double dmax(double a, double b) { return a > b ? a : b; }
static inline double dmin(double a, double b) { return a < b ? a : b; }


static double extent(const col_mesh *m) { return dmax(col_max_abs(m->aabb_min), col_max_abs(m->aabb_max)); }

void col_bv_frame_setup(col_bv_frame *f, const col_mesh *a, const col_xform *xa, const col_mesh *b,
                        const col_xform *xb)
{
    const double *ra = xa->R.m, *rb = xb->R.m;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) f->M[3 * i + j] = ra[i] * rb[j] + ra[3 + i] * rb[3 + j] + ra[6 + i] * rb[6 + j];
    col_vec3 t = col_mat3_tmul(&xa->R, col_sub(xb->p, xa->p));
    f->t[0] = t.x;
    f->t[1] = t.y;
    f->t[2] = t.z;
    double ea = col_frame_defect(ra), eb = col_frame_defect(rb), Aa = extent(a), Ab = extent(b);
    double P = col_max_abs(xa->p) + col_max_abs(xb->p);
    double esum = ea + eb + a->frame_defect + b->frame_defect;
    f->D = (256 * U_RND * (Aa + Ab + P) + 32 * esum * (Aa + Ab)) * (1 + 16 * U_RND);
    f->slack = (f->D + 32 * U_RND * 8 * (Aa + Ab + P)) * (1 + 16 * U_RND);
    /* |L|_2 of the 15 axes: 1 for a's, sigma_max(Kc)-bounded columns and their crosses
     * with unit vectors otherwise; 4 esum covers the four factors (1 + 2e) with room, 64u
     * the difference of Kc from K and the roundings */
    f->lnorm = 1 + 4 * esum + 64 * U_RND;
    f->scale = (1 - 16 * U_RND) / ((1 + 2 * ea) * (1 + 2 * a->frame_defect));
}

/* Kc = fl(A_a^T fl(Mc A_b)) and tc = fl(A_a^T t) (mesh_bv_bound.h's frame). */
static void relative(const col_bv_frame *f, const col_mesh_bv *ba, const col_mesh_bv *bb, double K[9], double tc[3])
{
    const double *M = f->M, *B = bb->frame.m, *A = ba->frame.m;
    double MB[9];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) MB[3 * i + j] = M[3 * i] * B[j] + M[3 * i + 1] * B[3 + j] + M[3 * i + 2] * B[6 + j];
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) K[3 * i + j] = A[i] * MB[j] + A[3 + i] * MB[3 + j] + A[6 + i] * MB[6 + j];
        tc[i] = A[i] * f->t[0] + A[3 + i] * f->t[1] + A[6 + i] * f->t[2];
    }
}

double col_bv_obb_gap(const col_bv_frame *f, const col_mesh_bv *ba, const col_mesh_bv *bb)
{
    double K[9], tc[3], Ka[9], T[3];
    relative(f, ba, bb, K, tc);
    for (int e = 0; e < 9; e++) Ka[e] = fabs(K[e]);
    const double *cb = bb->c, *ha = ba->h, *hb = bb->h;
    for (int i = 0; i < 3; i++) T[i] = K[3 * i] * cb[0] + K[3 * i + 1] * cb[1] + K[3 * i + 2] * cb[2] + tc[i] - ba->c[i];
    /* a's axes (|L|_1 = 1), b's (|L|_1 <= sqrt(3) 1.01), the crosses (<= sqrt(2) 1.01):
     * 1.8 slack per test covers them all */
    const double sl = 1.8 * f->slack, g = f->scale / f->lnorm;
    for (int i = 0; i < 3; i++) {
        double s = fabs(T[i]) - ha[i] - (Ka[3 * i] * hb[0] + Ka[3 * i + 1] * hb[1] + Ka[3 * i + 2] * hb[2]) - sl;
        if (s > 0) return s * g;
    }
    for (int j = 0; j < 3; j++) {
        double lt = K[j] * T[0] + K[3 + j] * T[1] + K[6 + j] * T[2];
        double s = fabs(lt) - (Ka[j] * ha[0] + Ka[3 + j] * ha[1] + Ka[6 + j] * ha[2]) - hb[j] - sl;
        if (s > 0) return s * g;
    }
    for (int i = 0; i < 3; i++) {
        const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
        for (int j = 0; j < 3; j++) {
            const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
            /* L = e_i x k_j (k_j = column j of K): L.T = T[i2] K[i1][j] - T[i1] K[i2][j];
             * a's radius ha[i1] |K[i2][j]| + ha[i2] |K[i1][j]|; b's radius hb[j1]
             * |(e_i x k_j).k_j1| + hb[j2] |(e_i x k_j).k_j2|, the triple product e_i .
             * (k_j x k_j1) being the entry of K's cofactor, approximated by |K[i][j2]|
             * and |K[i][j1]| only for a rotation: here computed from the columns. */
            double lt = T[i2] * K[3 * i1 + j] - T[i1] * K[3 * i2 + j];
            double ra = ha[i1] * Ka[3 * i2 + j] + ha[i2] * Ka[3 * i1 + j];
            double c1 = K[3 * i1 + j] * K[3 * i2 + j1] - K[3 * i2 + j] * K[3 * i1 + j1];
            double c2 = K[3 * i1 + j] * K[3 * i2 + j2] - K[3 * i2 + j] * K[3 * i1 + j2];
            double s = fabs(lt) - ra - hb[j1] * fabs(c1) - hb[j2] * fabs(c2) - sl;
            if (s > 0) return s * g;
        }
    }
    return 0;
}

/* The separation along n of the rectangle a (centred at the origin, half lengths la on
 * the first two axes) and the parallelogram centred at d with edge vectors k0 lb0, k1
 * lb1, minus the slack, per unit |n|_2 (rounded up): a lower bound on the Phi-distance of
 * the two rectangles' sets when positive. */
static double axis_sep(const col_bv_frame *f, col_vec3 n, col_vec3 d, const double la[2], col_vec3 k0, col_vec3 k1,
                       const double lb[2])
{
    double s = fabs(col_dot(n, d)) - la[0] * fabs(n.x) - la[1] * fabs(n.y) - lb[0] * fabs(col_dot(n, k0)) -
               lb[1] * fabs(col_dot(n, k1));
    double n1 = fabs(n.x) + fabs(n.y) + fabs(n.z);
    s -= n1 * f->slack;
    double len = col_len(n) * (1 + 4 * U_RND);
    return s > 0 && len > 0 ? s / len * (1 - 2 * U_RND) : 0;
}

static inline double clampd(double x, double l) { return x < -l ? -l : (x > l ? l : x); }

double col_bv_rss_bound(const col_bv_frame *f, const col_mesh_bv *ba, const col_mesh_bv *bb)
{
    double K[9], tc[3];
    relative(f, ba, bb, K, tc);
    const col_vec3 k0 = col_v3(K[0], K[3], K[6]), k1 = col_v3(K[1], K[4], K[7]), k2 = col_v3(K[2], K[5], K[8]);
    const col_vec3 cb = col_v3(bb->rc[0], bb->rc[1], bb->c[2]);
    /* d: b's rectangle centre relative to a's, in a's frame coordinates */
    const col_vec3 d = col_v3(K[0] * cb.x + K[1] * cb.y + K[2] * cb.z + tc[0] - ba->rc[0],
                              K[3] * cb.x + K[4] * cb.y + K[5] * cb.z + tc[1] - ba->rc[1],
                              K[6] * cb.x + K[7] * cb.y + K[8] * cb.z + tc[2] - ba->c[2]);
    const double *la = ba->l, *lb = bb->l;
    /* The direction of nearly closest points: two rounds of alternating projections
     * (a's rectangle nearest to b's centre, b's nearest to that, a's nearest to that).
     * Any direction gives a valid bound; this one is the distance's own when the
     * projections have converged (a vertex or edge of each), and the face normals and
     * edge crosses cover face and edge-edge closest pairs exactly. */
    col_vec3 pa = col_v3(clampd(d.x, la[0]), clampd(d.y, la[1]), 0), pb = d;
    for (int round = 0; round < 2; round++) {
        col_vec3 r = col_sub(pa, d);
        pb = col_add(d, col_add(col_scale(k0, clampd(col_dot(r, k0), lb[0])), col_scale(k1, clampd(col_dot(r, k1), lb[1]))));
        pa = col_v3(clampd(pb.x, la[0]), clampd(pb.y, la[1]), 0);
    }
    double best = axis_sep(f, col_sub(pb, pa), d, la, k0, k1, lb);
    best = dmax(best, axis_sep(f, col_v3(0, 0, 1), d, la, k0, k1, lb));
    best = dmax(best, axis_sep(f, k2, d, la, k0, k1, lb));
    best = dmax(best, axis_sep(f, col_v3(0, -k0.z, k0.y), d, la, k0, k1, lb));
    best = dmax(best, axis_sep(f, col_v3(0, -k1.z, k1.y), d, la, k0, k1, lb));
    best = dmax(best, axis_sep(f, col_v3(k0.z, 0, -k0.x), d, la, k0, k1, lb));
    best = dmax(best, axis_sep(f, col_v3(k1.z, 0, -k1.x), d, la, k0, k1, lb));
    /* the radii, each widened by D (the header comment), then to the world */
    return (best - ba->r - bb->r - 2 * f->D) * (1 - 4 * U_RND) * f->scale;
}
