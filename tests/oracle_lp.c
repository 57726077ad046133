/* SPDX-License-Identifier: MIT */
/* Exact LP oracle for the narrow-phase tests (see oracle_lp.h).
 *
 * A trap, and why every LP here is scaled: glp_exact does NOT read the doubles exactly.
 * GLPK converts each non-integral coefficient with set_d_eps (glpapi07.c), a continued-
 * fraction approximation within a relative 1e-10 or so (it prefers 1/3 to the double
 * nearest 1/3); only integral values go through mpq_set_d unchanged. Boxes 1e-12 apart
 * then "intersect". So the point coordinates are first multiplied by a power of two
 * that makes every one of them an integer (exact in binary floating point); the LPs are
 * homogeneous in the coordinates, so feasibility is unchanged and the margin scales by
 * the same power of two. All other data (0, +-1) are integers already. A double simplex
 * runs first only to hand glp_exact a good basis. */
#include "tests/oracle_lp.h"

#include <float.h>
#include <glpk.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static double coord(col_vec3 v, int k)
{
    return k == 0 ? v.x : k == 1 ? v.y : v.z;
}

static col_vec3 col_scale3(col_vec3 v, double f)
{
    col_vec3 r = {v.x * f, v.y * f, v.z * f};
    return r;
}

/* The two point sets multiplied by 2^*shift, with *shift chosen so that every scaled
 * coordinate is an integer: a double x = f 2^e (0.5 <= |f| < 1) is a multiple of
 * 2^(e-53). Returns NULL (allocation or overflow) on failure; free() the result, A's
 * points first, then B's. */
static col_vec3 *integral_copy(const col_vec3 *A, int na, const col_vec3 *B, int nb, int *shift)
{
    int s = INT_MIN;
    for (int i = 0; i < na + nb; i++) {
        col_vec3 p = i < na ? A[i] : B[i - na];
        for (int k = 0; k < 3; k++) {
            double x = coord(p, k);
            if (!isfinite(x)) return NULL;
            if (x == 0.0) continue;
            int e;
            frexp(x, &e);
            if (DBL_MANT_DIG - e > s) s = DBL_MANT_DIG - e;
        }
    }
    if (s == INT_MIN) s = 0;
    col_vec3 *out = malloc(sizeof(col_vec3) * (size_t)(na + nb));
    if (out == NULL) return NULL;
    for (int i = 0; i < na + nb; i++) {
        col_vec3 p = i < na ? A[i] : B[i - na];
        out[i].x = ldexp(p.x, s);
        out[i].y = ldexp(p.y, s);
        out[i].z = ldexp(p.z, s);
        for (int k = 0; k < 3; k++) {
            double x = coord(out[i], k);
            if (!isfinite(x) || x != floor(x)) {
                free(out);
                return NULL;
            }
        }
    }
    *shift = s;
    return out;
}

/* Sparse matrix under construction (GLPK's 1-based triplets). */
typedef struct lp_mat {
    int n, cap;
    int *ia, *ja;
    double *ar;
} lp_mat;

static int mat_init(lp_mat *m, int cap)
{
    m->n = 0;
    m->cap = cap;
    m->ia = malloc(sizeof(int) * (size_t)(cap + 1));
    m->ja = malloc(sizeof(int) * (size_t)(cap + 1));
    m->ar = malloc(sizeof(double) * (size_t)(cap + 1));
    return m->ia != NULL && m->ja != NULL && m->ar != NULL;
}

static void mat_put(lp_mat *m, int row, int col, double v)
{
    if (v == 0.0 || m->n >= m->cap) return;
    m->n++;
    m->ia[m->n] = row;
    m->ja[m->n] = col;
    m->ar[m->n] = v;
}

static void mat_load_free(lp_mat *m, glp_prob *lp)
{
    glp_load_matrix(lp, m->n, m->ia, m->ja, m->ar);
    free(m->ia);
    free(m->ja);
    free(m->ar);
}

static void quiet(glp_smcp *parm)
{
    glp_term_out(GLP_OFF);
    glp_init_smcp(parm);
    parm->msg_lev = GLP_MSG_OFF;
    parm->presolve = GLP_OFF;
}

/* Double simplex (a basis and an approximate value). 0 on success. */
static int solve_double(glp_prob *lp)
{
    glp_smcp parm;
    quiet(&parm);
    if (glp_simplex(lp, &parm) == 0) return 0;
    glp_std_basis(lp);
    return glp_simplex(lp, &parm);
}

/* Rational simplex on ex (the integral-scaled twin of approx, same rows and columns),
 * started from approx's final basis, from the standard basis if that fails. 0 on
 * success. */
static int solve_exact(glp_prob *approx, glp_prob *ex)
{
    glp_smcp parm;
    quiet(&parm);
    int rows = glp_get_num_rows(ex), cols = glp_get_num_cols(ex);
    for (int i = 1; i <= rows; i++) glp_set_row_stat(ex, i, glp_get_row_stat(approx, i));
    for (int j = 1; j <= cols; j++) glp_set_col_stat(ex, j, glp_get_col_stat(approx, j));
    if (glp_exact(ex, &parm) == 0) return 0;
    glp_std_basis(ex);
    return glp_exact(ex, &parm);
}

/* Rows 1..3: sum l_i a_i - sum m_j b_j (- t dir) = 0 per coordinate; row 4: sum l = 1;
 * row 5: sum m = 1. Columns 1..na: l, na+1..na+nb: m, all >= 0; with dir, one more
 * free column t, maximised. */
static glp_prob *common_point_lp(const col_vec3 *A, int na, const col_vec3 *B, int nb,
                                 const col_vec3 *dir)
{
    glp_prob *lp = glp_create_prob();
    glp_add_rows(lp, 5);
    for (int r = 1; r <= 5; r++) {
        double v = r <= 3 ? 0.0 : 1.0;
        glp_set_row_bnds(lp, r, GLP_FX, v, v);
    }
    int n = na + nb + (dir != NULL);
    glp_add_cols(lp, n);
    lp_mat m;
    if (!mat_init(&m, 4 * n)) {
        glp_delete_prob(lp);
        return NULL;
    }
    for (int c = 1; c <= na + nb; c++) {
        int in_a = c <= na;
        col_vec3 p = in_a ? A[c - 1] : B[c - 1 - na];
        double sg = in_a ? 1.0 : -1.0;
        glp_set_col_bnds(lp, c, GLP_LO, 0.0, 0.0);
        for (int k = 0; k < 3; k++) mat_put(&m, k + 1, c, sg * coord(p, k));
        mat_put(&m, in_a ? 4 : 5, c, 1.0);
    }
    if (dir != NULL) {
        glp_set_obj_dir(lp, GLP_MAX);
        glp_set_col_bnds(lp, n, GLP_FR, 0.0, 0.0);
        glp_set_obj_coef(lp, n, 1.0);
        for (int k = 0; k < 3; k++) mat_put(&m, k + 1, n, -coord(*dir, k));
    }
    mat_load_free(&m, lp);
    return lp;
}

/* min over the cube face d_k = s of h_{B-A}(d) = max_j d.b_j + max_i (-d.a_i), as the
 * primal LP in 4 columns (d_u, d_v in [-1, 1], alpha, beta free):
 *     minimise alpha + beta  s.t.  beta - d_u b_u - d_v b_v >= s b_k   (each b in B)
 *                                  alpha + d_u a_u + d_v a_v >= -s a_k (each a in A)
 * with (u, v) the other two axes. */
static glp_prob *face_lp(const col_vec3 *A, int na, const col_vec3 *B, int nb, int k, double s)
{
    int u = (k + 1) % 3, v = (k + 2) % 3;
    glp_prob *lp = glp_create_prob();
    glp_set_obj_dir(lp, GLP_MIN);
    glp_add_cols(lp, 4);
    glp_set_col_bnds(lp, 1, GLP_DB, -1.0, 1.0);
    glp_set_col_bnds(lp, 2, GLP_DB, -1.0, 1.0);
    glp_set_col_bnds(lp, 3, GLP_FR, 0.0, 0.0);
    glp_set_col_bnds(lp, 4, GLP_FR, 0.0, 0.0);
    glp_set_obj_coef(lp, 3, 1.0);
    glp_set_obj_coef(lp, 4, 1.0);
    glp_add_rows(lp, na + nb);
    lp_mat m;
    if (!mat_init(&m, 3 * (na + nb))) {
        glp_delete_prob(lp);
        return NULL;
    }
    for (int r = 1; r <= na + nb; r++) {
        int in_a = r <= na;
        col_vec3 p = in_a ? A[r - 1] : B[r - 1 - na];
        double sg = in_a ? -1.0 : 1.0;
        glp_set_row_bnds(lp, r, GLP_LO, sg * s * coord(p, k), 0.0);
        mat_put(&m, r, 1, -sg * coord(p, u));
        mat_put(&m, r, 2, -sg * coord(p, v));
        mat_put(&m, r, in_a ? 3 : 4, 1.0);
    }
    mat_load_free(&m, lp);
    return lp;
}

int col_oracle_intersect(const col_vec3 *A, int na, const col_vec3 *B, int nb)
{
    if (na < 1 || nb < 1) return -1;
    int shift, res = -1;
    col_vec3 *p = integral_copy(A, na, B, nb, &shift);
    glp_prob *approx = common_point_lp(A, na, B, nb, NULL);
    glp_prob *ex = p != NULL ? common_point_lp(p, na, p + na, nb, NULL) : NULL;
    if (approx != NULL && ex != NULL) {
        solve_double(approx); /* only a starting basis: failure is fine */
        if (solve_exact(approx, ex) == 0) {
            int st = glp_get_status(ex);
            if (st == GLP_OPT || st == GLP_FEAS) res = 1;
            else if (st == GLP_NOFEAS) res = 0;
        }
    }
    if (approx != NULL) glp_delete_prob(approx);
    if (ex != NULL) glp_delete_prob(ex);
    free(p);
    if (res < 0) fprintf(stderr, "oracle_lp: the exact intersection LP failed\n");
    return res;
}

double col_oracle_margin(const col_vec3 *A, int na, const col_vec3 *B, int nb)
{
    if (na < 1 || nb < 1) return NAN;
    int shift;
    col_vec3 *p = integral_copy(A, na, B, nb, &shift);
    if (p == NULL) {
        fprintf(stderr, "oracle_lp: coordinates cannot be scaled to integers\n");
        return NAN;
    }
    double scale = 0.0;
    for (int i = 0; i < na + nb; i++) {
        col_vec3 q = i < na ? A[i] : B[i - na];
        for (int k = 0; k < 3; k++) scale = fmax(scale, fabs(coord(q, k)));
    }
    if (scale == 0.0) scale = 1.0;
    /* The double LPs run on copies scaled by a power of two (exact) to coordinates below
     * 1: GLPK's tolerances are absolute, and at coordinates of 1e-3 its margins were off
     * by 1e-5 relative (a pair 5e-16 x size from touching reported 1e-5 x size apart). */
    int se;
    frexp(scale, &se);
    col_vec3 *q = malloc(sizeof(col_vec3) * ((size_t)na + (size_t)nb));
    if (q == NULL) {
        free(p);
        return NAN;
    }
    for (int i = 0; i < na + nb; i++) q[i] = col_scale3(i < na ? A[i] : B[i - na], ldexp(1.0, -se));
    glp_prob *lp[6];
    double val[6], best = INFINITY;
    int ok = 1;
    for (int t = 0; t < 6; t++) {
        lp[t] = face_lp(q, na, q + na, nb, t / 2, t % 2 ? -1.0 : 1.0);
        if (lp[t] == NULL || solve_double(lp[t]) != 0 || glp_get_status(lp[t]) != GLP_OPT) {
            ok = 0;
            val[t] = NAN;
            continue;
        }
        val[t] = ldexp(glp_get_obj_val(lp[t]), se);
        best = fmin(best, val[t]);
    }
    free(q);
    /* Where the sign or a near-touching classification depends on it, re-solve exactly
     * (on the integral twin) every face that could hold the minimum: double simplex
     * values are only good to about GLPK's tolerances, 1e-7 relative. */
    double tol = 1e-6 * scale;
    if (ok && fabs(best) < tol) {
        double exact_best = INFINITY;
        for (int t = 0; t < 6 && ok; t++) {
            if (!(val[t] <= best + tol)) continue;
            glp_prob *ex = face_lp(p, na, p + na, nb, t / 2, t % 2 ? -1.0 : 1.0);
            if (ex == NULL || solve_exact(lp[t], ex) != 0 || glp_get_status(ex) != GLP_OPT) ok = 0;
            else exact_best = fmin(exact_best, ldexp(glp_get_obj_val(ex), -shift));
            if (ex != NULL) glp_delete_prob(ex);
        }
        best = exact_best;
    }
    for (int t = 0; t < 6; t++)
        if (lp[t] != NULL) glp_delete_prob(lp[t]);
    free(p);
    if (!ok) {
        fprintf(stderr, "oracle_lp: GLPK failed on a margin LP\n");
        return NAN;
    }
    return -best + 0.0;
}

double col_oracle_contact_shift(const col_vec3 *A, int na, const col_vec3 *B, int nb,
                                col_vec3 dir)
{
    if (na < 1 || nb < 1) return NAN;
    glp_prob *lp = common_point_lp(A, na, B, nb, &dir);
    if (lp == NULL) return NAN;
    double t = NAN;
    if (solve_double(lp) == 0 && glp_get_status(lp) == GLP_OPT) t = glp_get_col_prim(lp, na + nb + 1);
    glp_delete_prob(lp);
    return t;
}
