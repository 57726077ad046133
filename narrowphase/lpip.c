/* SPDX-License-Identifier: MIT */
/* The "lpip" narrow phase (lpip.h): Akgunduz, Banerjee & Mehrotra 2005 ("the paper")
 * around the interior-point core of lp_ipm.c, with its coherence (section 4.1), active
 * set (4.2) and violator loop (4.3), and certificates instead of thresholds.
 *
 * One query:
 *  1. The axis test (the paper's delta_s < 0 exit, section 4.1): the previous frame's
 *     dual direction y (kept in A's frame), then the centroid direction, is tried as a
 *     separating plane over ALL points. A certified gap ends the query. (The centroid
 *     axis after a stale plane matters under fast motion: the `fast` scene.)
 *  2. The active set (4.2): up to active_k points per body with the smallest slack
 *     along the better of those axes (A's highest, B's lowest), after the previous
 *     frame's weighted points.
 *  3. The LP on the active set, started from the previous weights blended with the
 *     uniform ones (warm; the idea of the paper's eqs. 19-24) or from the uniform
 *     weights (the paper's start), with d chosen so that phi = 1 is feasible. Before
 *     any iteration: a start point that is already common (|d| ~ 0: coincident
 *     centroids) is a collision, and so is one whose weights, purified (lp_ipm_purify),
 *     give a common point (last frame's contact moved a little, or a deep overlap).
 *  4. Mehrotra iterations. After each: if the dual y gives the active points a positive
 *     gap (the paper's pi4 + pi5 > 0 exit), y is checked against ALL points; if it
 *     separates them with a certified gap the answer is "separated", otherwise the
 *     points on the wrong side of y's mid-plane are added (4.3) and the LP restarts
 *     from the current weights. Otherwise the iterate's weights are purified and their
 *     two points compared in world coordinates: within COL_LPIP_TOUCH_REL x size (plus
 *     rounding) the answer is "colliding" (also tried on the raw weights once mu phi
 *     is under LPIP_PHI_TOL).
 *  5. Anything else within COL_LPIP_MAX_ITER iterations, or a stall after mu phi is
 *     tiny, is UNDECIDED.
 * Coordinates: the LP works on the active points moved to their common centre and
 * scaled by a power of two (exact) to unit size, so its tolerances are relative; all
 * certificates are computed from the world points. */
#include "narrowphase/lpip.h"

#include <float.h>
#include <math.h>
#include <stdalign.h>
#include <stdint.h>
#include <string.h>

#include "lib/core/exact.h"
#include "lib/core/vec.h"
#include "narrowphase/certify.h"
#include "narrowphase/lp_ipm.h"

/* Weighted points per body the cache remembers for the warm start. */
#define LPIP_CACHE_K 10

/* Rounding bound of a projection y.v computed as (R^T y).v_local + y.p instead of from
 * the world point fl(R v_local + p): the world point's rounding (4 eps (|v| + |p|) per
 * coordinate), R^T y's (3 eps |y|), the two dot products (3 eps each) and the sum
 * give at most about 20 eps |y|_1 (|v| + |p|_inf); 32 leaves slack for the bound's own
 * rounding and for R being orthogonal only to ~eps. */
#define LPIP_PROJ_C 32.0

/* Warm start: weights kept from the previous solution, (1 - theta) against the uniform
 * weights (theta), so every start weight is >= theta / n (strictly interior). The start
 * point is first purified with theta = LPIP_POINT_THETA (close to last frame's common
 * point: the "warm common point" exit); the iterations then start from LPIP_WARM_THETA,
 * better centred. Both measured on the standard scenes (docs/lpip.md). */
#define LPIP_POINT_THETA 0.1
#define LPIP_WARM_THETA 0.5

/* mu phi (scaled units, the pair about unit size) at which the weights are checked as
 * a common point. */
#define LPIP_PHI_TOL 1e-13

/* Iterations allowed after mu phi <= LPIP_PHI_TOL without a confirmed collision. */
#define LPIP_STALL_ITER 3

/* The active points' gap along the dual y must exceed this (scaled units times |y|_1)
 * before the full check is tried: below it the gap is rounding noise. */
#define LPIP_GACT_REL 1e-14

/* Largest selection buffer (active_k and COL_LPIP_ADD_K are clamped to it). */
#define LPIP_SELECT_MAX 64

typedef struct lpip_cache {
    col_vec3 y_local;  /* last separating direction, in A's local frame (unit) */
    int32_t has_y;
    int32_t na, nb;    /* remembered weighted points */
    int32_t ida[LPIP_CACHE_K], idb[LPIP_CACHE_K];
    float wa[LPIP_CACHE_K], wb[LPIP_CACHE_K];
    col_lpip_info last;
} lpip_cache;

typedef struct lpip_work {
    const col_lpip_set *A, *B;
    int m, n;               /* all points of A and B */
    double *pa, *pb;        /* projections of every point on the current axis */
    double *qa, *qb;        /* the same for a second axis */
    double *wa, *wb;        /* world coordinates of the active points, by active slot */
    double *w0a, *w0b;      /* start weights by active slot */
    double *wtmp;           /* start weights in LP column order */
    double *lpmem;
    int *acta, *actb;       /* active slot -> point index */
    int ka, kb, done_a, done_b; /* active counts; slots with world coordinates */
    unsigned char *ina, *inb;
    lp_ipm lp;
    double L, invL;         /* the LP's scale (a power of two) */
    double c[3];            /* the LP's centre (world coordinates) */
    col_vec3 ywarm;         /* the cached direction in world coordinates (unit) */
    int has_ywarm;
} lpip_work;

col_lpip_options col_lpip_default_options(void)
{
    col_lpip_options o;
    o.warm_start = true;
    o.active_k = COL_LPIP_ACTIVE_K;
    o.dual_warm = true;
    o.dual_shift = COL_LPIP_DUAL_SHIFT;
    o.active_max = 0;
    o.add_k = COL_LPIP_ADD_K;
    return o;
}

size_t col_lpip_cache_size(void)
{
    return sizeof(lpip_cache);
}

void col_lpip_cache_reset(void *cache)
{
    memset(cache, 0, sizeof(lpip_cache));
}

col_lpip_info col_lpip_cache_last(const void *cache)
{
    return ((const lpip_cache *)cache)->last;
}

/* ---- scratch ---- */

static size_t lpip_doubles(int m, int n)
{
    size_t s = (size_t)m + (size_t)n;
    return 2 * s /* pa, pb, qa, qb */ + 3 * s /* wa, wb */ + s /* w0 */ + s /* wtmp */ + lp_ipm_doubles(m, n);
}

size_t col_lpip_decide_scratch_bytes(int na, int nb)
{
    size_t s = (size_t)na + (size_t)nb;
    return lpip_doubles(na, nb) * sizeof(double) + s * sizeof(int) + s + alignof(double);
}

static void lpip_layout(lpip_work *w, col_np_scratch *scratch, int m, int n)
{
    uintptr_t p = (uintptr_t)scratch->mem;
    p = (p + alignof(double) - 1) & ~(uintptr_t)(alignof(double) - 1);
    double *d = (double *)p;
    size_t sm = (size_t)m, sn = (size_t)n;
    w->m = m;
    w->n = n;
    w->pa = d;
    w->pb = d + sm;
    d += sm + sn;
    w->qa = d;
    w->qb = d + sm;
    d += sm + sn;
    w->wa = d;
    w->wb = d + 3 * sm;
    d += 3 * (sm + sn);
    w->w0a = d;
    w->w0b = d + sm;
    d += sm + sn;
    w->wtmp = d;
    d += sm + sn;
    w->lpmem = d;
    d += lp_ipm_doubles(m, n);
    w->acta = (int *)d;
    w->actb = w->acta + m;
    w->ina = (unsigned char *)(w->actb + n);
    w->inb = w->ina + m;
    memset(w->ina, 0, sm + sn);
    w->ka = w->kb = w->done_a = w->done_b = 0;
    w->has_ywarm = 0;
}

/* ---- projections and the separation certificate ---- */

/* out[i] = y . (world point i), via the local frame; returns the rounding bound of each
 * value and the extremes through lo/hi. */
static double lpip_project(const col_lpip_set *s, col_vec3 y, double *out, double *lo, double *hi)
{
    col_vec3 u = col_mat3_tmul(&s->xf->R, y);
    double o = col_dot(y, s->xf->p);
    double mn = INFINITY, mx = -INFINITY;
    for (int i = 0; i < s->n; i++) {
        col_vec3 v = s->v[i];
        double p = u.x * v.x + u.y * v.y + u.z * v.z + o;
        out[i] = p;
        mn = p < mn ? p : mn;
        mx = p > mx ? p : mx;
    }
    *lo = mn;
    *hi = mx;
    double y1 = fabs(y.x) + fabs(y.y) + fabs(y.z);
    return LPIP_PROJ_C * DBL_EPSILON * y1 * (s->radius + col_max_abs(s->xf->p));
}

/* Projects every point of both sets on the unit axis y (into pa, pb); returns the
 * certified gap (min over B - max over A minus the rounding bounds; <= 0 means not
 * certified), and the computed gap through raw if not NULL. */
static double lpip_check_axis(lpip_work *w, col_vec3 y, double *raw)
{
    double alo, ahi, blo, bhi;
    double ea = lpip_project(w->A, y, w->pa, &alo, &ahi);
    double eb = lpip_project(w->B, y, w->pb, &blo, &bhi);
    double g = blo - ahi;
    if (raw != NULL) *raw = g;
    return g - (ea + eb + 2.0 * DBL_EPSILON * fabs(g));
}

static int lpip_unit(col_vec3 v, col_vec3 *out)
{
    double l2 = col_len2(v);
    if (!(l2 > 0.0) || !isfinite(l2)) return 0;
    *out = col_scale(v, 1.0 / sqrt(l2));
    return 1;
}

/* ---- active set ---- */

/* Adds to act (marking in[]) up to want indices i with !in[i] and sign * val[i] >= thr,
 * the largest sign * val first (ties: lowest index). Returns how many were added. */
static int lpip_select(const double *val, int n, double sign, double thr, unsigned char *in, int *act,
                       int *count, int want)
{
    double bv[LPIP_SELECT_MAX];
    int bi[LPIP_SELECT_MAX];
    int nb = 0;
    if (want > LPIP_SELECT_MAX) want = LPIP_SELECT_MAX;
    if (want <= 0) return 0;
    for (int i = 0; i < n; i++) {
        if (in[i]) continue;
        double v = sign * val[i];
        if (!(v >= thr)) continue;
        if (nb == want && !(v > bv[nb - 1])) continue;
        int j = nb < want ? nb++ : nb - 1;
        while (j > 0 && v > bv[j - 1]) {
            bv[j] = bv[j - 1];
            bi[j] = bi[j - 1];
            j--;
        }
        bv[j] = v;
        bi[j] = i;
    }
    for (int k = 0; k < nb; k++) {
        in[bi[k]] = 1;
        act[(*count)++] = bi[k];
    }
    return nb;
}

/* World coordinates of the active points that do not have them yet. */
static void lpip_world_points(lpip_work *w)
{
    for (; w->done_a < w->ka; w->done_a++) {
        col_vec3 p = col_xform_point(w->A->xf, w->A->v[w->acta[w->done_a]]);
        double *o = w->wa + 3 * (size_t)w->done_a;
        o[0] = p.x;
        o[1] = p.y;
        o[2] = p.z;
    }
    for (; w->done_b < w->kb; w->done_b++) {
        col_vec3 p = col_xform_point(w->B->xf, w->B->v[w->actb[w->done_b]]);
        double *o = w->wb + 3 * (size_t)w->done_b;
        o[0] = p.x;
        o[1] = p.y;
        o[2] = p.z;
    }
}

/* The points on the wrong side of the mid-plane of the active points along the axis
 * of the last lpip_check_axis (section 4.3): A's at or above it, B's at or below, the
 * worst add_k of each. Returns how many were added. */
static int lpip_add_violators(lpip_work *w, int add_k)
{
    double ha = -INFINITY, hb = INFINITY;
    for (int k = 0; k < w->ka; k++) ha = w->pa[w->acta[k]] > ha ? w->pa[w->acta[k]] : ha;
    for (int k = 0; k < w->kb; k++) hb = w->pb[w->actb[k]] < hb ? w->pb[w->actb[k]] : hb;
    double h = 0.5 * ha + 0.5 * hb;
    int ka0 = w->ka, kb0 = w->kb;
    int na = lpip_select(w->pa, w->m, 1.0, h, w->ina, w->acta, &w->ka, add_k);
    int nb = lpip_select(w->pb, w->n, -1.0, -h, w->inb, w->actb, &w->kb, add_k);
    for (int k = ka0; k < w->ka; k++) w->w0a[k] = 0.0;
    for (int k = kb0; k < w->kb; k++) w->w0b[k] = 0.0;
    return na + nb;
}

/* One body's side of the bounded active set (the paper's swap rule, section 4.2): while
 * more than max points are active, the old point (slot < kold, the LP just solved) with
 * the largest slack along the current axis leaves: the lowest sign * proj (A's lowest
 * projection, B's highest). The survivors keep their order, weights and world
 * coordinates (old slots all have them: *done == kold); the leavers may come back as
 * violators later (cycling is bounded by COL_LPIP_MAX_ITER, then the reference
 * decides). Returns how many left. */
static int lpip_bound_side(int *act, unsigned char *in, double *w0, double *wc, int *count, int *done, int kold,
                           const double *proj, double sign, int max)
{
    int ndrop = *count - max;
    if (ndrop > kold) ndrop = kold;
    if (ndrop <= 0) return 0;
    for (int r = 0; r < ndrop; r++) {
        int best = -1;
        double bv = INFINITY;
        for (int k = 0; k < kold; k++) {
            if (act[k] < 0) continue;
            double v = sign * proj[act[k]];
            if (best < 0 || v < bv) {
                bv = v;
                best = k;
            }
        }
        in[act[best]] = 0;
        act[best] = -1;
    }
    int p = 0, kept_old = 0;
    for (int j = 0; j < *count; j++) {
        if (act[j] < 0) continue;
        act[p] = act[j];
        w0[p] = w0[j];
        if (j < kold) {
            for (int i = 0; i < 3; i++) wc[3 * (size_t)p + i] = wc[3 * (size_t)j + i];
            kept_old++;
        }
        p++;
    }
    *count = p;
    *done = kept_old;
    return ndrop;
}

/* ---- the LP on the active set ---- */

/* Binds the LP to the active points: centre at the middle of the two averages, scale
 * by the power of two just above the largest centred coordinate (exact), B negated.
 * Returns eta, the largest absolute scaled coordinate. */
static double lpip_build(lpip_work *w)
{
    int ka = w->ka, kb = w->kb;
    lp_ipm_bind(&w->lp, w->lpmem, ka, kb);
    double ca[3] = {0, 0, 0}, cb[3] = {0, 0, 0}, *c = w->c;
    for (int k = 0; k < ka; k++)
        for (int i = 0; i < 3; i++) ca[i] += w->wa[3 * (size_t)k + i];
    for (int k = 0; k < kb; k++)
        for (int i = 0; i < 3; i++) cb[i] += w->wb[3 * (size_t)k + i];
    for (int i = 0; i < 3; i++) c[i] = 0.5 * (ca[i] / ka) + 0.5 * (cb[i] / kb);
    double ext = 0.0;
    for (int k = 0; k < ka; k++)
        for (int i = 0; i < 3; i++) {
            double v = fabs(w->wa[3 * (size_t)k + i] - c[i]);
            ext = v > ext ? v : ext;
        }
    for (int k = 0; k < kb; k++)
        for (int i = 0; i < 3; i++) {
            double v = fabs(w->wb[3 * (size_t)k + i] - c[i]);
            ext = v > ext ? v : ext;
        }
    int e = 0;
    if (ext > 0.0 && isfinite(ext)) frexp(ext, &e);
    w->L = ldexp(1.0, e);
    w->invL = ldexp(1.0, -e);
    double eta = 0.0;
    lp_ipm *lp = &w->lp;
    for (int k = 0; k < ka; k++) {
        const double *p = w->wa + 3 * (size_t)k;
        lp->gx[k] = (p[0] - c[0]) * w->invL;
        lp->gy[k] = (p[1] - c[1]) * w->invL;
        lp->gz[k] = (p[2] - c[2]) * w->invL;
    }
    for (int k = 0; k < kb; k++) {
        const double *p = w->wb + 3 * (size_t)k;
        lp->gx[ka + k] = -((p[0] - c[0]) * w->invL);
        lp->gy[ka + k] = -((p[1] - c[1]) * w->invL);
        lp->gz[ka + k] = -((p[2] - c[2]) * w->invL);
    }
    for (int k = 0; k < ka + kb; k++) {
        double v = fabs(lp->gx[k]);
        v = fabs(lp->gy[k]) > v ? fabs(lp->gy[k]) : v;
        v = fabs(lp->gz[k]) > v ? fabs(lp->gz[k]) : v;
        eta = v > eta ? v : eta;
    }
    return eta > 0.0 ? eta : 1.0;
}

/* One body's weighted point relative to the LP's centre, rho_i = sum x_k (p_k - c)_i /
 * sum x_k, in twice the working precision (Dot2; each p_k - c exact as hi + lo). Returns
 * the computed sum of the weights (<= 0: no point, or a weight is negative or NaN); *ext
 * gets max |p_k - c| (hi parts). */
static double lpip_weighted_point(const double *p, const double *x, int cnt, const double *c, double rho[3],
                                  double *ext)
{
    col_acc2 u[3] = {{0, 0}, {0, 0}, {0, 0}}, s = {0, 0};
    double m = 0.0;
    for (int k = 0; k < cnt; k++) {
        if (!(x[k] >= 0.0)) return 0.0; /* not a convex combination */
        col_acc2_add(&s, x[k]);
        for (int i = 0; i < 3; i++) {
            double hi, lo;
            col_two_sum(p[3 * (size_t)k + i], -c[i], &hi, &lo);
            col_acc2_add_prod(&u[i], x[k], hi);
            col_acc2_add_prod(&u[i], x[k], lo);
            m = fabs(hi) > m ? fabs(hi) : m;
        }
    }
    double sum = col_acc2_value(&s);
    for (int i = 0; i < 3; i++) rho[i] = col_acc2_value(&u[i]) / sum;
    *ext = m;
    return sum;
}

/* The collision certificate: the LP weights' points P of A and Q of B (convex
 * combinations of world vertices, normalised) are PROVEN to lie within tol of each other
 * in every coordinate, so the hulls are within tol (infinity norm): "colliding" up to
 * COL_LPIP_TOUCH_REL x the pair's size, at any distance from the origin. Computed
 * relative to the LP's centre c, so that rounding scales with the pair's size and not
 * with its coordinates (issue 13, finding 2: at x = 1e7 a bound of 16 ulps of the
 * coordinates accepted points 3e-8 apart, 2.7e-4 of a small pair's size). Error of each
 * rho (Ogita, Rump & Oishi's Dot2 bound for the sums, one rounding of the quotient, the
 * weights' own sum in Sum2): |rho~ - rho| <= ext (3.1 u + 2.1 gamma^2) + 17 n eta / S, n
 * products, eta the underflow term; two of them and the subtraction are covered by
 * E = ext (8 u + 8 gamma^2) + 40 n eta / S_min and the factor 1 + 8 u below. */
static int lpip_confirm(const lpip_work *w, const double *x, double tol)
{
    int ka = w->lp.na, kb = w->lp.nb;
    double pa[3], pb[3], ea, eb;
    double sa = lpip_weighted_point(w->wa, x, ka, w->c, pa, &ea);
    double sb = lpip_weighted_point(w->wb, x + ka, kb, w->c, pb, &eb);
    if (!(sa > 0.0) || !(sb > 0.0)) return 0;
    double n = 2.0 * (double)(ka + kb), ext = ea > eb ? ea : eb, smin = sa < sb ? sa : sb;
    double err = ext * (8.0 * COL_U + 8.0 * col_acc2_gamma2(n)) + 40.0 * n * COL_UNDERFLOW_ERR / (smin * (1.0 - DBL_EPSILON));
    for (int i = 0; i < 3; i++)
        if (!((fabs(pa[i] - pb[i]) + err) * (1.0 + 8.0 * COL_U) <= tol)) return 0;
    return 1;
}

/* Gap of the active points along the LP's y (scaled units): min y.b - max y.a. */
static double lpip_active_gap(const lp_ipm *lp, double *y1)
{
    const double *y = lp->pi;
    double amax = -INFINITY, bmin = INFINITY;
    for (int k = 0; k < lp->na; k++) {
        double v = y[0] * lp->gx[k] + y[1] * lp->gy[k] + y[2] * lp->gz[k];
        amax = v > amax ? v : amax;
    }
    for (int k = lp->na; k < lp->na + lp->nb; k++) {
        double v = -(y[0] * lp->gx[k] + y[1] * lp->gy[k] + y[2] * lp->gz[k]);
        bmin = v < bmin ? v : bmin;
    }
    *y1 = fabs(y[0]) + fabs(y[1]) + fabs(y[2]);
    return bmin - amax;
}

/* ---- the cache ---- */

static void lpip_store_weights(lpip_cache *c, const lpip_work *w, const double *x)
{
    /* The largest weights of each body (the points of the optimal face). */
    int ka = w->lp.na, kb = w->lp.nb;
    double bv[LPIP_CACHE_K];
    int bi[LPIP_CACHE_K];
    for (int side = 0; side < 2; side++) {
        int cnt = side == 0 ? ka : kb, off = side == 0 ? 0 : ka, nbuf = 0;
        const int *act = side == 0 ? w->acta : w->actb;
        for (int k = 0; k < cnt; k++) {
            double v = x[off + k];
            if (nbuf == LPIP_CACHE_K && !(v > bv[nbuf - 1])) continue;
            int j = nbuf < LPIP_CACHE_K ? nbuf++ : nbuf - 1;
            while (j > 0 && v > bv[j - 1]) {
                bv[j] = bv[j - 1];
                bi[j] = bi[j - 1];
                j--;
            }
            bv[j] = v;
            bi[j] = act[k];
        }
        for (int k = 0; k < nbuf; k++) {
            if (side == 0) {
                c->ida[k] = bi[k];
                c->wa[k] = (float)bv[k];
            } else {
                c->idb[k] = bi[k];
                c->wb[k] = (float)bv[k];
            }
        }
        if (side == 0)
            c->na = nbuf;
        else
            c->nb = nbuf;
    }
}

/* ---- the decision ---- */

static void lpip_separated(col_lpip_outcome *out, col_vec3 y, double gap, int exit)
{
    out->answer = COL_LPIP_SEPARATED;
    out->axis = y;
    out->gap = gap;
    out->info.exit = exit;
}

/* An exit of the axis test: separated along y, remembered for the next frame. */
static void lpip_axis_exit(col_lpip_outcome *out, lpip_cache *cache, const col_xform *xa, col_vec3 y, double gap,
                           int exit)
{
    lpip_separated(out, y, gap, exit);
    if (cache != NULL) {
        cache->y_local = col_mat3_tmul(&xa->R, y);
        cache->has_y = 1;
        cache->last = out->info;
    }
}

/* Swaps the two axes' projections (pa, pb and qa, qb). */
static void lpip_swap_projections(lpip_work *w)
{
    double *t = w->pa;
    w->pa = w->qa;
    w->qa = t;
    t = w->pb;
    w->pb = w->qb;
    w->qb = t;
}

/* 1. The axis test: the cached dual direction (delta_s < 0 exit), then the centroid
 * direction. The projections on the axis with the larger gap stay in pa, pb for the
 * active-set selection. Returns 1 when an axis separates (answered). */
static int lpip_axis_test(lpip_work *w, lpip_cache *cache, const col_lpip_options *o, col_lpip_outcome *out)
{
    const col_lpip_set *a = w->A, *b = w->B;
    col_vec3 ca = col_xform_point(a->xf, a->centroid), cb = col_xform_point(b->xf, b->centroid);
    col_vec3 y, yc;
    double cg, raw = -INFINITY;
    if (cache != NULL && o->warm_start && cache->has_y && lpip_unit(col_mat3_mul(&a->xf->R, cache->y_local), &y)) {
        w->ywarm = y;
        w->has_ywarm = 1;
        cg = lpip_check_axis(w, y, &raw);
        if (cg > 0.0) {
            lpip_axis_exit(out, cache, a->xf, y, cg, COL_LPIP_EXIT_WARM_PLANE);
            return 1;
        }
        lpip_swap_projections(w);
    }
    /* Coincident centroids leave the direction undefined: any axis will do, the LP below
     * decides (its start point is then common already, or purifies into one). */
    if (!col_unit_robust(col_sub(cb, ca), &yc)) yc = col_v3(1.0, 0.0, 0.0);
    double rawc;
    cg = lpip_check_axis(w, yc, &rawc);
    if (cg > 0.0) {
        lpip_axis_exit(out, cache, a->xf, yc, cg, COL_LPIP_EXIT_AXIS);
        return 1;
    }
    if (raw > rawc) lpip_swap_projections(w); /* the cached axis is the better guide: its projections back */
    return 0;
}

/* 2. The active set: last frame's weighted points, then the smallest slacks. Returns
 * whether last frame's points started it (warm). */
static bool lpip_active_set(lpip_work *w, const lpip_cache *cache, const col_lpip_options *o)
{
    bool warm = false;
    if (cache != NULL && o->warm_start && cache->na > 0 && cache->nb > 0) {
        for (int k = 0; k < cache->na && k < LPIP_CACHE_K; k++) {
            int i = cache->ida[k];
            if (i < 0 || i >= w->m || w->ina[i] || w->ka >= o->active_k) continue;
            w->ina[i] = 1;
            w->w0a[w->ka] = cache->wa[k] > 0.0f ? (double)cache->wa[k] : 0.0;
            w->acta[w->ka++] = i;
        }
        for (int k = 0; k < cache->nb && k < LPIP_CACHE_K; k++) {
            int j = cache->idb[k];
            if (j < 0 || j >= w->n || w->inb[j] || w->kb >= o->active_k) continue;
            w->inb[j] = 1;
            w->w0b[w->kb] = cache->wb[k] > 0.0f ? (double)cache->wb[k] : 0.0;
            w->actb[w->kb++] = j;
        }
        warm = w->ka > 0 && w->kb > 0;
    }
    int ka0 = w->ka, kb0 = w->kb;
    lpip_select(w->pa, w->m, 1.0, -INFINITY, w->ina, w->acta, &w->ka, o->active_k - w->ka);
    lpip_select(w->pb, w->n, -1.0, -INFINITY, w->inb, w->actb, &w->kb, o->active_k - w->kb);
    for (int k = ka0; k < w->ka; k++) w->w0a[k] = 0.0;
    for (int k = kb0; k < w->kb; k++) w->w0b[k] = 0.0;
    return warm;
}

/* Steps 3-4 across LPs: how the next LP starts, and the weights behind the answer. */
typedef struct lpip_lps {
    bool use_w0, have_y;
    col_vec3 ylast;
    double shift;        /* the dual start's smallest slack, relative to eta */
    int active_max;      /* options.active_max (0: no bound) */
    int add_k;           /* options.add_k */
    const double *xcert; /* the weights behind the answer (for the cache), or NULL */
} lpip_lps;

/* What an LP's step says: the query is answered (or undecided for good), the active set
 * grew (a new LP), or go on iterating. */
enum { LPIP_LP_DONE, LPIP_LP_GREW, LPIP_LP_GO_ON };

/* The LP's dual direction: a proven separating axis ends the query; else the points
 * that violate it join the active set (a new LP, started from this one's weights). */
static int lpip_dual_axis(lpip_work *w, lpip_lps *s, col_lpip_outcome *out)
{
    col_vec3 y, yd = col_v3(w->lp.pi[0], w->lp.pi[1], w->lp.pi[2]);
    if (!lpip_unit(yd, &y)) return LPIP_LP_GO_ON;
    double cg = lpip_check_axis(w, y, NULL);
    if (cg > 0.0) {
        lpip_separated(out, y, cg, COL_LPIP_EXIT_SEPARATED);
        return LPIP_LP_DONE;
    }
    int added = lpip_add_violators(w, s->add_k);
    if (added <= 0) return LPIP_LP_GO_ON;
    out->info.violators += added;
    int ka = w->lp.na, kb = w->lp.nb;
    for (int k = 0; k < ka; k++) w->w0a[k] = w->lp.x[k];
    for (int k = 0; k < kb; k++) w->w0b[k] = w->lp.x[ka + k];
    if (s->active_max > 0) {
        out->info.dropped += lpip_bound_side(w->acta, w->ina, w->w0a, w->wa, &w->ka, &w->done_a, ka, w->pa, 1.0,
                                             s->active_max);
        out->info.dropped += lpip_bound_side(w->actb, w->inb, w->w0b, w->wb, &w->kb, &w->done_b, kb, w->pb, -1.0,
                                             s->active_max);
    }
    s->use_w0 = true;
    s->ylast = y;
    s->have_y = true;
    s->shift = 1.0; /* a violator round restarts centred: every slack eta */
    return LPIP_LP_GREW;
}

/* 4. The iterations of one LP, each checked for a separating axis and a common point. */
static int lpip_iterate(lpip_work *w, lpip_lps *s, double tol, col_lpip_outcome *out)
{
    col_lpip_info *info = &out->info;
    int stalled = 0;
    for (;;) {
        if (info->iterations >= COL_LPIP_MAX_ITER || lp_ipm_step(&w->lp) != 0) return LPIP_LP_DONE;
        info->iterations++;
        double y1;
        double gact = lpip_active_gap(&w->lp, &y1);
        if (gact > LPIP_GACT_REL * y1) {
            int r = lpip_dual_axis(w, s, out);
            if (r != LPIP_LP_GO_ON) return r;
        }
        double obj = lp_ipm_objective(&w->lp);
        s->xcert = NULL;
        /* Every iterate's weights are purified into a common point and checked (the
         * finishing idea of Mehrotra & Ye, "Finding an interior point in the optimal
         * face", 1993): deep overlaps are confirmed after one or two iterations, long
         * before mu phi is small, and near touching the purified point is exact to
         * rounding where the iterate itself has stalled (~1e-11). */
        if (lp_ipm_purify(&w->lp, w->lp.dx) == 0 && lpip_confirm(w, w->lp.dx, tol))
            s->xcert = w->lp.dx;
        else if (obj <= LPIP_PHI_TOL && lpip_confirm(w, w->lp.x, tol))
            s->xcert = w->lp.x;
        if (s->xcert != NULL) {
            out->answer = COL_LPIP_COLLIDING;
            info->exit = COL_LPIP_EXIT_COLLIDING;
            return LPIP_LP_DONE;
        }
        /* Converged but not confirmable: the iterates' accuracy has stalled (near
         * touching the normal equations lose ~all digits); more iterations only
         * degrade them. */
        if (obj <= LPIP_PHI_TOL && ++stalled > LPIP_STALL_ITER) return LPIP_LP_DONE;
    }
}

/* 3. One LP on the active set: its start point may be common already; else iterate. */
static int lpip_solve_lp(lpip_work *w, bool warm, lpip_lps *s, col_lpip_outcome *out)
{
    col_lpip_info *info = &out->info;
    lpip_world_points(w);
    double eta = lpip_build(w);
    double tol = COL_LPIP_TOUCH_REL * w->L;
    for (int k = 0; k < w->ka; k++) w->wtmp[k] = w->w0a[k];
    for (int k = 0; k < w->kb; k++) w->wtmp[w->ka + k] = w->w0b[k];
    double y0[3] = {s->ylast.x, s->ylast.y, s->ylast.z};
    eta *= s->shift;
    double dn = lp_ipm_start(&w->lp, s->use_w0 ? w->wtmp : NULL, LPIP_POINT_THETA, s->have_y ? y0 : NULL, eta);
    info->solves++;
    info->active_a = w->ka;
    info->active_b = w->kb;
    /* The start point is common already (coincident centroids), or the start weights
     * purified are (last frame's common point moved a little, warm; a deep overlap,
     * cold): a collision without iterating. */
    if (dn * w->L <= 2.0 * tol && lpip_confirm(w, w->lp.x, tol)) {
        out->answer = COL_LPIP_COLLIDING;
        info->exit = COL_LPIP_EXIT_CENTROID;
        s->xcert = w->lp.x;
        return LPIP_LP_DONE;
    }
    if (lp_ipm_purify(&w->lp, w->lp.dx) == 0 && lpip_confirm(w, w->lp.dx, tol)) {
        out->answer = COL_LPIP_COLLIDING;
        info->exit = warm && info->solves == 1 ? COL_LPIP_EXIT_WARM_POINT : COL_LPIP_EXIT_START_POINT;
        s->xcert = w->lp.dx;
        return LPIP_LP_DONE;
    }
    /* The iterations themselves start better centred. */
    if (s->use_w0) lp_ipm_start(&w->lp, w->wtmp, LPIP_WARM_THETA, s->have_y ? y0 : NULL, eta);
    return lpip_iterate(w, s, tol, out);
}

/* 5. What the next frame starts from: the separating axis, and the weighted points. */
static void lpip_remember(lpip_cache *cache, lpip_work *w, const col_lpip_outcome *out, const double *xcert)
{
    if (cache == NULL) return;
    if (out->answer == COL_LPIP_SEPARATED) {
        cache->y_local = col_mat3_tmul(&w->A->xf->R, out->axis);
        cache->has_y = 1;
    } else {
        cache->has_y = 0;
    }
    if (out->answer != COL_LPIP_UNDECIDED && out->info.solves > 0)
        lpip_store_weights(cache, w, xcert != NULL ? xcert : w->lp.x);
    cache->last = out->info;
}

void col_lpip_decide(void *cache_mem, const col_lpip_set *a, const col_lpip_set *b,
                     const col_lpip_options *opt, col_np_scratch *scratch, col_lpip_outcome *out)
{
    col_lpip_options o = opt != NULL ? *opt : col_lpip_default_options();
    if (o.active_k < 1) o.active_k = 1;
    lpip_cache *cache = cache_mem;
    lpip_work w;
    w.A = a;
    w.B = b;
    lpip_layout(&w, scratch, a->n, b->n);
    memset(out, 0, sizeof *out);
    out->answer = COL_LPIP_UNDECIDED;
    out->info.exit = COL_LPIP_EXIT_UNDECIDED;

    if (lpip_axis_test(&w, cache, &o, out)) return;
    bool warm = lpip_active_set(&w, cache, &o);
    out->info.warm = warm;
    /* 3-4. LPs on the active set, growing it with violators. */
    lpip_lps s = {warm, false, col_v3(0.0, 0.0, 0.0), 1.0, o.active_max, o.add_k > 0 ? o.add_k : COL_LPIP_ADD_K, NULL};
    if (o.active_max > 0 && o.active_max < o.active_k) s.active_max = o.active_k;
    /* The dual warm start (eqs. 19-24): the cached plane failed the axis test, but it is
     * last frame's optimal dual direction; the first LP's dual starts there, shifted to
     * strict feasibility by a small slack instead of eta. */
    out->info.stale_plane = w.has_ywarm != 0;
    if (o.dual_warm && w.has_ywarm) {
        s.have_y = true;
        s.ylast = w.ywarm;
        s.shift = o.dual_shift > 0.0 && o.dual_shift <= 1.0 ? o.dual_shift : COL_LPIP_DUAL_SHIFT;
        out->info.dual_warm = true;
    }
    while (lpip_solve_lp(&w, warm, &s, out) == LPIP_LP_GREW)
        continue; /* the active set grew: a new LP */
    lpip_remember(cache, &w, out, s.xcert);
}

/* ---- the backend ---- */

static void lpip_cache_init(void *cache, const col_hull *a, const col_hull *b)
{
    (void)a;
    (void)b;
    col_lpip_cache_reset(cache);
}

/* The larger of our own need and the reference fallback's (which reuses the whole
 * scratch after we are done): both grow with every count, so the larger does too
 * (backend.h's scratch rule). */
static size_t lpip_scratch_need(col_np_counts a, col_np_counts b)
{
    size_t own = col_lpip_decide_scratch_bytes(a.vertices, b.vertices);
    size_t ref = col_np_reference.scratch_need(a, b);
    return own > ref ? own : ref;
}

static void lpip_hull_set(col_lpip_set *s, const col_hull *h, const col_xform *x)
{
    s->v = h->vertices;
    s->n = h->vertex_count;
    s->xf = x;
    s->centroid = h->centroid;
    s->radius = h->radius;
}

void col_lpip_query_ex(void *cache, const col_hull *a, const col_xform *xa, const col_hull *b,
                       const col_xform *xb, const col_lpip_options *opt, col_np_scratch *scratch,
                       col_np_result *out, col_lpip_info *info)
{
    col_lpip_set sa, sb;
    lpip_hull_set(&sa, a, xa);
    lpip_hull_set(&sb, b, xb);
    col_lpip_outcome oc;
    col_lpip_decide(cache, &sa, &sb, opt, scratch, &oc);
    out->iterations = oc.info.iterations;
    out->fallbacks = 0;
    out->axis = col_v3(0.0, 0.0, 0.0);
    out->gap = 0.0;
    if (oc.answer == COL_LPIP_SEPARATED) {
        out->colliding = false;
        out->axis = oc.axis;
        out->gap = oc.gap;
    } else if (oc.answer == COL_LPIP_COLLIDING && col_np_prove_overlap(a, xa, b, xb)) {
        /* The common point holds within COL_LPIP_TOUCH_REL x size, which is no proof for
         * a pair apart by less (issue 13: 2e-20 apart at the origin, colliding): a strict
         * overlap is proven by four vertex differences around the origin (certify.h). */
        out->colliding = true;
    } else {
        /* Undecided, or a common point within the tolerance that no strict overlap
         * confirms: within rounding of contact, which the exact reference decides. */
        /* The last-resort exact decision (counted): the scratch is large enough for it
         * (lpip_scratch_need). The reference has its own cache layout: none here. */
        int it = out->iterations;
        col_np_reference.query(NULL, a, NULL, xa, b, NULL, xb, scratch, out);
        out->iterations = it;
        out->fallbacks = 1;
        if (cache != NULL) {
            lpip_cache *c = cache;
            c->has_y = 0;
            col_vec3 u;
            if (!out->colliding && out->gap > 0.0 && lpip_unit(out->axis, &u)) {
                c->y_local = col_mat3_tmul(&xa->R, u);
                c->has_y = 1;
            }
        }
    }
    if (info != NULL) *info = oc.info;
}

/* No shape data: da and db are ignored. */
static void lpip_query(void *cache, const col_hull *a, const void *da, const col_xform *xa,
                       const col_hull *b, const void *db, const col_xform *xb, col_np_scratch *scratch,
                       col_np_result *out)
{
    (void)da;
    (void)db;
    col_lpip_query_ex(cache, a, xa, b, xb, NULL, scratch, out, NULL);
}

const col_np_backend col_np_lpip = {
    .name = "lpip",
    .cache_size = sizeof(lpip_cache),
    .cache_init = lpip_cache_init,
    .scratch_need = lpip_scratch_need,
    .query = lpip_query,
};
