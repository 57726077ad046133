/* SPDX-License-Identifier: MIT */
/* Mehrotra's predictor-corrector on the 5-row collision LP (lp_ipm.h).
 *
 * Notation of S. J. Wright, "Primal-Dual Interior-Point Methods" (SIAM 1997), ch. 10,
 * which follows Mehrotra 1992: standard form min c.x, Ax = b, x >= 0, dual A^T pi + z =
 * c, z >= 0. One iteration:
 *   residuals rp = b - A x, rd = c - A^T pi - z, mu_c = x.z / n;
 *   predictor: the Newton direction for x z = 0 (rc = -x z);
 *   centring sigma = (mu_aff / mu_c)^3 from the predictor's longest steps;
 *   corrector: rc = -x z - dx_aff dz_aff + sigma mu_c (second-order term + centring);
 *   separate primal and dual steps, a fraction LP_STEP_FRACTION of the way to the
 *   boundary.
 * Each direction solves  (A D A^T) dpi = rp + A (D rd - rc / z),  D = x / z, then
 * dz = rd - A^T dpi and dx = (rc - x dz) / z. A D A^T is 5x5 here (the paper's point:
 * the work per iteration is linear in the number of points), factorised once per
 * iteration and used for both directions. */
#include "narrowphase/lp_ipm.h"

#include <math.h>

/* Fraction of the longest feasible step taken (Mehrotra 1992 uses a value close to 1;
 * 0.995 is common in practice and keeps iterates clear of the boundary, where the
 * 5x5 system loses accuracy). */
#define LP_STEP_FRACTION 0.995

/* A Cholesky pivot below this fraction of its original diagonal is a dependent row of
 * A D A^T (near the optimum of a separated pair only a few columns keep a large D);
 * LIPSOL's remedy (Zhang 1996): a huge pivot, so that dpi's component is ~0. */
#define LP_PIVOT_REL 1e-15
#define LP_PIVOT_HUGE 1e128

size_t lp_ipm_doubles(int na, int nb)
{
    return 9 * ((size_t)na + (size_t)nb + 1);
}

void lp_ipm_bind(lp_ipm *lp, double *mem, int na, int nb)
{
    size_t n = (size_t)na + (size_t)nb + 1;
    lp->na = na;
    lp->nb = nb;
    lp->n = (int)n;
    lp->gx = mem;
    lp->gy = mem + n;
    lp->gz = mem + 2 * n;
    lp->x = mem + 3 * n;
    lp->z = mem + 4 * n;
    lp->dx = mem + 5 * n;
    lp->dz = mem + 6 * n;
    lp->rd = mem + 7 * n;
    lp->dxa = mem + 8 * n;
    lp->iterations = 0;
    lp->mu = 0.0;
}

/* Row part of column k of A^T pi beyond the 3 coordinate rows: pi4 for A's columns,
 * pi5 for B's, nothing for phi. */
static inline double lp_row45(const lp_ipm *lp, int k, const double *p)
{
    return k < lp->na ? p[3] : k < lp->na + lp->nb ? p[4] : 0.0;
}

static void lp_normalise(double *x, const double *w, int n, double theta)
{
    double s = 0.0;
    if (w != NULL)
        for (int k = 0; k < n; k++) s += w[k] > 0.0 ? w[k] : 0.0;
    double u = 1.0 / (double)n;
    if (!(s > 0.0) || !isfinite(s)) {
        for (int k = 0; k < n; k++) x[k] = u;
        return;
    }
    for (int k = 0; k < n; k++) {
        double v = w[k] > 0.0 ? w[k] / s : 0.0;
        x[k] = (1.0 - theta) * v + theta * u;
    }
}

double lp_ipm_start(lp_ipm *lp, const double *w, double theta, const double *y0, double eta)
{
    int na = lp->na, nb = lp->nb, n = lp->n, f = n - 1;
    if (!(theta > 0.0)) theta = 1e-3;
    if (theta > 1.0) theta = 1.0;
    lp_normalise(lp->x, w, na, theta);
    lp_normalise(lp->x + na, w != NULL ? w + na : NULL, nb, theta);

    /* d = sum l a - sum m b = sum over the point columns of x_k g_k (B's are stored
     * negated): phi = 1 then satisfies the three coordinate rows (the paper's
     * centroid-difference column for uniform weights). */
    double d0 = 0.0, d1 = 0.0, d2 = 0.0;
    for (int k = 0; k < f; k++) {
        d0 += lp->x[k] * lp->gx[k];
        d1 += lp->x[k] * lp->gy[k];
        d2 += lp->x[k] * lp->gz[k];
    }
    lp->d[0] = d0;
    lp->d[1] = d1;
    lp->d[2] = d2;
    lp->gx[f] = -d0;
    lp->gy[f] = -d1;
    lp->gz[f] = -d2;
    lp->x[f] = 1.0;
    double dn = sqrt(d0 * d0 + d1 * d1 + d2 * d2);
    /* mu = |d|: then mu phi is the length of phi d, the distance from the origin to
     * A - B along d, in the caller's units; the collision threshold becomes a length. */
    lp->mu = dn;
    lp->iterations = 0;

    double y[3] = {0.0, 0.0, 0.0};
    if (y0 != NULL && isfinite(y0[0]) && isfinite(y0[1]) && isfinite(y0[2])) {
        y[0] = y0[0];
        y[1] = y0[1];
        y[2] = y0[2];
        /* The phi slack mu + d.y must stay > 0: scale y so that d.y >= -mu/2. */
        double dy = d0 * y[0] + d1 * y[1] + d2 * y[2];
        if (dy < -0.5 * dn) {
            double s = 0.5 * dn / -dy;
            y[0] *= s;
            y[1] *= s;
            y[2] *= s;
        }
    }
    double amax = -INFINITY, bmin = INFINITY;
    for (int k = 0; k < na; k++) {
        double v = y[0] * lp->gx[k] + y[1] * lp->gy[k] + y[2] * lp->gz[k];
        amax = v > amax ? v : amax;
    }
    for (int k = na; k < f; k++) {
        double v = -(y[0] * lp->gx[k] + y[1] * lp->gy[k] + y[2] * lp->gz[k]); /* y.b */
        bmin = v < bmin ? v : bmin;
    }
    lp->pi[0] = y[0];
    lp->pi[1] = y[1];
    lp->pi[2] = y[2];
    lp->pi[3] = -amax - eta; /* slack of A's column k: -y.a_k - pi4 >= eta */
    lp->pi[4] = bmin - eta;  /* slack of B's column k: y.b_k - pi5 >= eta */
    for (int k = 0; k < f; k++) {
        double v = y[0] * lp->gx[k] + y[1] * lp->gy[k] + y[2] * lp->gz[k] + lp_row45(lp, k, lp->pi);
        lp->z[k] = -v;
    }
    lp->z[f] = dn + (d0 * y[0] + d1 * y[1] + d2 * y[2]);
    return dn;
}

double lp_ipm_objective(const lp_ipm *lp)
{
    return lp->mu * lp->x[lp->n - 1];
}

/* rp = b - A x (5 rows). */
static void lp_primal_residual(const lp_ipm *lp, double rp[5])
{
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, sa = 0.0, sb = 0.0;
    for (int k = 0; k < lp->n; k++) {
        s0 += lp->x[k] * lp->gx[k];
        s1 += lp->x[k] * lp->gy[k];
        s2 += lp->x[k] * lp->gz[k];
    }
    for (int k = 0; k < lp->na; k++) sa += lp->x[k];
    for (int k = lp->na; k < lp->na + lp->nb; k++) sb += lp->x[k];
    rp[0] = -s0;
    rp[1] = -s1;
    rp[2] = -s2;
    rp[3] = 1.0 - sa;
    rp[4] = 1.0 - sb;
}

/* rd = c - A^T pi - z, into lp->rd; returns its largest magnitude. */
static double lp_dual_residual(lp_ipm *lp)
{
    double m = 0.0;
    const double *p = lp->pi;
    for (int k = 0; k < lp->n; k++) {
        double c = k == lp->n - 1 ? lp->mu : 0.0;
        double r = c - (p[0] * lp->gx[k] + p[1] * lp->gy[k] + p[2] * lp->gz[k] + lp_row45(lp, k, p)) - lp->z[k];
        lp->rd[k] = r;
        double a = fabs(r);
        m = a > m ? a : m;
    }
    return m;
}

double lp_ipm_infeasibility(const lp_ipm *lp)
{
    double rp[5];
    lp_primal_residual(lp, rp);
    double m = 0.0;
    for (int i = 0; i < 5; i++) m = fabs(rp[i]) > m ? fabs(rp[i]) : m;
    const double *p = lp->pi;
    for (int k = 0; k < lp->n; k++) {
        double c = k == lp->n - 1 ? lp->mu : 0.0;
        double r = fabs(c - (p[0] * lp->gx[k] + p[1] * lp->gy[k] + p[2] * lp->gz[k] + lp_row45(lp, k, p)) - lp->z[k]);
        m = r > m ? r : m;
    }
    return m;
}

/* A D A^T for D = x / z (symmetric 5x5, full storage). Rows 4 and 5 meet only A's and
 * only B's columns, so M[3][4] = 0. */
static void lp_normal_matrix(const lp_ipm *lp, double M[5][5])
{
    double m00 = 0, m01 = 0, m02 = 0, m11 = 0, m12 = 0, m22 = 0;
    double m03 = 0, m13 = 0, m23 = 0, m33 = 0, m04 = 0, m14 = 0, m24 = 0, m44 = 0;
    int na = lp->na, nab = lp->na + lp->nb;
    for (int k = 0; k < lp->n; k++) {
        double dk = lp->x[k] / lp->z[k];
        double gx = lp->gx[k], gy = lp->gy[k], gz = lp->gz[k];
        double ux = dk * gx, uy = dk * gy, uz = dk * gz;
        m00 += ux * gx;
        m01 += ux * gy;
        m02 += ux * gz;
        m11 += uy * gy;
        m12 += uy * gz;
        m22 += uz * gz;
        if (k < na) {
            m03 += ux;
            m13 += uy;
            m23 += uz;
            m33 += dk;
        } else if (k < nab) {
            m04 += ux;
            m14 += uy;
            m24 += uz;
            m44 += dk;
        }
    }
    double v[5][5] = {{m00, m01, m02, m03, m04},
                      {m01, m11, m12, m13, m14},
                      {m02, m12, m22, m23, m24},
                      {m03, m13, m23, m33, 0.0},
                      {m04, m14, m24, 0.0, m44}};
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 5; j++) M[i][j] = v[i][j];
}

/* In-place Cholesky M = L L^T (lower triangle). Returns -1 on a non-finite entry. */
static int lp_cholesky(double M[5][5])
{
    double diag[5];
    for (int i = 0; i < 5; i++) diag[i] = M[i][i];
    for (int j = 0; j < 5; j++) {
        double s = M[j][j];
        for (int k = 0; k < j; k++) s -= M[j][k] * M[j][k];
        if (!isfinite(s)) return -1;
        if (!(s > LP_PIVOT_REL * diag[j])) s = LP_PIVOT_HUGE;
        double l = sqrt(s);
        M[j][j] = l;
        for (int i = j + 1; i < 5; i++) {
            double t = M[i][j];
            for (int k = 0; k < j; k++) t -= M[i][k] * M[j][k];
            M[i][j] = t / l;
        }
    }
    return 0;
}

static void lp_chol_solve(double L[5][5], const double b[5], double x[5])
{
    double y[5];
    for (int i = 0; i < 5; i++) {
        double s = b[i];
        for (int k = 0; k < i; k++) s -= L[i][k] * y[k];
        y[i] = s / L[i][i];
    }
    for (int i = 4; i >= 0; i--) {
        double s = y[i];
        for (int k = i + 1; k < 5; k++) s -= L[k][i] * x[k];
        x[i] = s / L[i][i];
    }
}

/* The direction for complementarity target rc (rc may not alias dx or dz). Writes dx,
 * dz and dpi. Returns -1 on a non-finite result. */
static int lp_direction(lp_ipm *lp, double L[5][5], const double rp[5], const double *rc, double *dx,
                        double *dz, double dpi[5])
{
    int na = lp->na, nab = lp->na + lp->nb;
    double t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0;
    for (int k = 0; k < lp->n; k++) {
        double t = (lp->x[k] * lp->rd[k] - rc[k]) / lp->z[k];
        t0 += t * lp->gx[k];
        t1 += t * lp->gy[k];
        t2 += t * lp->gz[k];
        if (k < na)
            t3 += t;
        else if (k < nab)
            t4 += t;
    }
    double rhs[5] = {rp[0] + t0, rp[1] + t1, rp[2] + t2, rp[3] + t3, rp[4] + t4};
    lp_chol_solve(L, rhs, dpi);
    for (int i = 0; i < 5; i++)
        if (!isfinite(dpi[i])) return -1;
    for (int k = 0; k < lp->n; k++) {
        double atd = dpi[0] * lp->gx[k] + dpi[1] * lp->gy[k] + dpi[2] * lp->gz[k] + lp_row45(lp, k, dpi);
        double dzk = lp->rd[k] - atd;
        dz[k] = dzk;
        dx[k] = (rc[k] - lp->x[k] * dzk) / lp->z[k];
        if (!isfinite(dx[k]) || !isfinite(dzk)) return -1;
    }
    return 0;
}

/* Longest step in [0, 1] keeping v + a dv >= 0. */
static double lp_max_step(const double *v, const double *dv, int n)
{
    double a = 1.0;
    for (int k = 0; k < n; k++)
        if (dv[k] < 0.0) {
            double t = -v[k] / dv[k];
            a = t < a ? t : a;
        }
    return a;
}

int lp_ipm_step(lp_ipm *lp)
{
    int n = lp->n;
    double rp[5], M[5][5], dpa[5], dpi[5];
    lp_primal_residual(lp, rp);
    lp_dual_residual(lp);
    double gap = 0.0;
    for (int k = 0; k < n; k++) gap += lp->x[k] * lp->z[k];
    double mu_c = gap / (double)n;

    lp_normal_matrix(lp, M);
    if (lp_cholesky(M) != 0) return -1;

    /* Predictor (affine scaling): rc = -x z, held in dx's slot; the predictor's
     * direction goes to dxa and dz. */
    double *rc = lp->dx;
    for (int k = 0; k < n; k++) rc[k] = -lp->x[k] * lp->z[k];
    double *dxa = lp->dxa, *dza = lp->dz;
    if (lp_direction(lp, M, rp, rc, dxa, dza, dpa) != 0) return -1;
    double ap = lp_max_step(lp->x, dxa, n), ad = lp_max_step(lp->z, dza, n);
    double gap_aff = 0.0;
    for (int k = 0; k < n; k++) gap_aff += (lp->x[k] + ap * dxa[k]) * (lp->z[k] + ad * dza[k]);
    double mu_aff = gap_aff / (double)n;
    double sigma = mu_c > 0.0 ? mu_aff / mu_c : 0.0;
    sigma = sigma * sigma * sigma;
    if (sigma > 1.0) sigma = 1.0;

    /* Corrector: rc = -x z - dx_aff dz_aff + sigma mu_c. */
    for (int k = 0; k < n; k++) rc[k] = -lp->x[k] * lp->z[k] - dxa[k] * dza[k] + sigma * mu_c;
    /* The corrector's direction overwrites the predictor's (rc already holds what it
     * needed of it). */
    double *cdx = dxa, *cdz = dza;
    if (lp_direction(lp, M, rp, rc, cdx, cdz, dpi) != 0) return -1;
    ap = LP_STEP_FRACTION * lp_max_step(lp->x, cdx, n);
    ad = LP_STEP_FRACTION * lp_max_step(lp->z, cdz, n);
    if (ap > 1.0) ap = 1.0;
    if (ad > 1.0) ad = 1.0;
    for (int k = 0; k < n; k++) {
        lp->x[k] += ap * cdx[k];
        lp->z[k] += ad * cdz[k];
    }
    for (int i = 0; i < 5; i++) lp->pi[i] += ad * dpi[i];
    lp->iterations++;
    return 0;
}

/* Residual b - A0 x' of the point columns alone (phi = 0). */
static void lp_point_residual(const lp_ipm *lp, const double *x, double r[5])
{
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, sa = 0.0, sb = 0.0;
    int na = lp->na, nab = lp->na + lp->nb;
    for (int k = 0; k < nab; k++) {
        s0 += x[k] * lp->gx[k];
        s1 += x[k] * lp->gy[k];
        s2 += x[k] * lp->gz[k];
        if (k < na)
            sa += x[k];
        else
            sb += x[k];
    }
    r[0] = -s0;
    r[1] = -s1;
    r[2] = -s2;
    r[3] = 1.0 - sa;
    r[4] = 1.0 - sb;
}

int lp_ipm_purify(const lp_ipm *lp, double *out)
{
    int na = lp->na, nab = lp->na + lp->nb;
    double M[5][5];
    {
        /* A0 X^2 A0^T: lp_normal_matrix's sums with D = x^2 over the point columns. */
        double v[5][5] = {{0}};
        for (int k = 0; k < nab; k++) {
            double dk = lp->x[k] * lp->x[k];
            double g[5] = {lp->gx[k], lp->gy[k], lp->gz[k], k < na ? 1.0 : 0.0, k < na ? 0.0 : 1.0};
            for (int i = 0; i < 5; i++)
                for (int j = 0; j <= i; j++) v[i][j] += dk * g[i] * g[j];
        }
        for (int i = 0; i < 5; i++)
            for (int j = 0; j <= i; j++) M[i][j] = M[j][i] = v[i][j];
    }
    if (lp_cholesky(M) != 0) return -1;
    for (int k = 0; k < nab; k++) out[k] = lp->x[k];
    for (int pass = 0; pass < 3; pass++) {
        double r[5], u[5];
        lp_point_residual(lp, out, r);
        lp_chol_solve(M, r, u);
        for (int k = 0; k < nab; k++) {
            double g = u[0] * lp->gx[k] + u[1] * lp->gy[k] + u[2] * lp->gz[k] + (k < na ? u[3] : u[4]);
            out[k] += lp->x[k] * lp->x[k] * g;
        }
    }
    for (int k = 0; k < nab; k++)
        if (!(out[k] >= 0.0)) return -1;
    return 0;
}
