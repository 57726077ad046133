/* SPDX-License-Identifier: MIT */
/* The 5-row linear program of Akgunduz, Banerjee & Mehrotra, "A Linear Programming
 * Solution for Exact Collision Detection", J. Computing and Information Science in
 * Engineering 5(1), 2005 (below "the paper"), and a primal-dual interior-point method
 * for it: Mehrotra's predictor-corrector (S. Mehrotra, "On the implementation of a
 * primal-dual interior point method", SIAM J. Optimization 2(4), 1992), whose normal
 * equations are one 5x5 Cholesky factorisation per iteration.
 *
 * The important parts:
 * - Columns: na points a_k of A, nb points b_k of B (in whatever frame and scale the
 *   caller chose: the LP only proposes certificates, the caller checks them), and the
 *   artificial column along d. Primal (the paper's section 3):
 *       min  mu phi   s.t.  sum l_k a_k - sum m_k b_k - phi d = 0   (3 rows)
 *                           sum l_k = 1,  sum m_k = 1               (2 rows)
 *                           l, m, phi >= 0.
 *   Dual, pi = (y, pi4, pi5):  max pi4 + pi5  s.t.  y.a_k + pi4 <= 0,
 *       -y.b_k + pi5 <= 0,  -d.y <= mu.  For a fixed y the best pi4 + pi5 is
 *       min_k y.b_k - max_k y.a_k, the gap of A and B along y: a positive dual value
 *       is a separating direction (the paper's non-collision test), and an optimal
 *       phi = 0 is a common point (collision).
 * - Starts: weights w (uniform = the paper's 1/n start) with phi = 1 and d chosen so
 *   that the start is exactly feasible: d = sum w a - sum w b (for uniform weights the
 *   difference of the plain averages of the points in the LP, recomputed whenever the
 *   columns change; docs/lpip.md). Dual: y = 0, pi4 = pi5 = -eta (strictly
 *   feasible: every slack is eta > 0; the paper's eq. 16 has +eta, which is infeasible
 *   under its own eq. 12b), or a previous y shifted to strict feasibility (warm start).
 * - One call of lp_ipm_step is one predictor-corrector iteration, O(columns) plus the
 *   5x5 solve; the caller tests its exits between iterations.
 * Limits: at least one column of each body; no iteration cap here (the caller's). */
#ifndef COLIBRI_NARROWPHASE_LP_IPM_H
#define COLIBRI_NARROWPHASE_LP_IPM_H

#include <stddef.h>

typedef struct lp_ipm {
    int na, nb, n;          /* columns: A points, B points, all (na + nb + 1, phi last) */
    double *gx, *gy, *gz;   /* rows 1-3 of each column: a_k, -b_k, and -d for phi */
    double *x, *z;          /* primal values and dual slacks, all > 0 */
    double *dx, *dz, *rd;   /* work: a direction and the dual residual */
    double *dxa;            /* work: a second primal direction */
    double pi[5];           /* dual: y (3), pi4, pi5 */
    double mu;              /* the objective coefficient of phi (the paper's mu) */
    double d[3];            /* the artificial direction */
    int iterations;         /* steps taken since the last start */
} lp_ipm;

/* Doubles of memory lp_ipm_bind needs for na + nb points. */
size_t lp_ipm_doubles(int na, int nb);

/* Lays the arrays out in mem (lp_ipm_doubles(na, nb) doubles). The caller then writes
 * the points: A's k-th point into gx/gy/gz[k] (k < na), B's k-th point NEGATED into
 * [na + k]. */
void lp_ipm_bind(lp_ipm *lp, double *mem, int na, int nb);

/* Starts from convex weights w[0 .. na + nb) (w == NULL: uniform; A's and B's weights
 * are normalised separately, then blended with the uniform weights by theta in (0, 1]
 * so that every one is > 0), phi = 1 and d = sum l a - sum m b (feasible by
 * construction), mu = |d|. Dual: y = y0 scaled so that the phi slack stays > 0 (NULL:
 * y = 0) and pi4, pi5 shifted so every slack is >= eta (eta > 0, the largest absolute
 * coordinate of the points). Returns |d|; a result 0 means the start weights already
 * give a common point (the caller checks that in its own frame). */
double lp_ipm_start(lp_ipm *lp, const double *w, double theta, const double *y0, double eta);

/* One predictor-corrector iteration. Returns 0, or -1 if the normal equations broke
 * down (the iterate is then unchanged). */
int lp_ipm_step(lp_ipm *lp);

/* Purification (for the collision certificate): the weights x' = x + X^2 A0^T u with
 * A0 the point columns (phi dropped, i.e. phi = 0) and u solving the 5x5 system
 * (A0 X^2 A0^T) u = b - A0 x, refined twice: the nearest weights, in the metric scaled
 * by the current ones, whose points coincide exactly. Well conditioned where the
 * iterates' own normal equations are not (near a collision every dual slack tends to
 * 0 and x / z blows up). Writes the na + nb weights to out and returns 0 if they are
 * all >= 0, else -1. */
int lp_ipm_purify(const lp_ipm *lp, double *out);

/* The primal objective mu * phi (>= the optimum; 0 iff collision at optimality). */
double lp_ipm_objective(const lp_ipm *lp);

/* The largest primal and dual infeasibility (scaled like the points). */
double lp_ipm_infeasibility(const lp_ipm *lp);

#endif
