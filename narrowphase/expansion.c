/* SPDX-License-Identifier: MIT */
/* Floating-point expansions (expansion.h). Exact under round-to-nearest-even binary64
 * with -ffp-contract=off (the build's flag): col_two_sum and col_two_prod of
 * lib/core/exact.h are then error-free. */
#include "narrowphase/expansion.h"

#include <math.h>
#include <string.h>

#include "lib/core/exact.h"

void col_xp_set(col_xp *x, double a)
{
    x->bad = false;
    x->n = 0;
    if (a != 0.0) x->t[x->n++] = a;
}

void col_xp_diff(col_xp *x, double a, double b)
{
    double s, e;
    col_two_sum(a, -b, &s, &e);
    x->bad = false;
    x->n = 0;
    if (e != 0.0) x->t[x->n++] = e;
    if (s != 0.0) x->t[x->n++] = s;
}

/* Shewchuk's expansion sum with zero elimination: the components of both merged by
 * increasing magnitude, then swept with Two-Sum (Theorem 13: the output is
 * non-overlapping and sums exactly to x + y). sy = -1 subtracts y. */
static void sum_signed(col_xp *out, const col_xp *x, const col_xp *y, double sy)
{
    out->bad = x->bad || y->bad;
    out->n = 0;
    if (out->bad) return;
    if (x->n + y->n > COL_XP_CAP) {
        out->bad = true;
        return;
    }
    double g[2 * COL_XP_CAP];
    int i = 0, j = 0, k = 0;
    while (i < x->n && j < y->n) {
        double a = x->t[i], b = sy * y->t[j];
        if (fabs(a) <= fabs(b)) {
            g[k++] = a;
            i++;
        } else {
            g[k++] = b;
            j++;
        }
    }
    while (i < x->n) g[k++] = x->t[i++];
    while (j < y->n) g[k++] = sy * y->t[j++];
    if (k == 0) return;
    double q = g[0];
    for (int m = 1; m < k; m++) {
        double s, e;
        col_two_sum(q, g[m], &s, &e);
        if (e != 0.0) out->t[out->n++] = e;
        q = s;
    }
    if (q != 0.0) out->t[out->n++] = q;
}

void col_xp_add(col_xp *out, const col_xp *x, const col_xp *y) { sum_signed(out, x, y, 1.0); }
void col_xp_sub(col_xp *out, const col_xp *x, const col_xp *y) { sum_signed(out, x, y, -1.0); }

/* Shewchuk's scale-expansion with zero elimination (Theorem 19). */
void col_xp_scale(col_xp *out, const col_xp *x, double b)
{
    out->bad = x->bad;
    out->n = 0;
    if (out->bad || x->n == 0 || b == 0.0) return;
    if (2 * x->n > COL_XP_CAP) {
        out->bad = true;
        return;
    }
    double q, h;
    col_two_prod(x->t[0], b, &q, &h);
    if (h != 0.0) out->t[out->n++] = h;
    for (int i = 1; i < x->n; i++) {
        double p1, p0, s;
        col_two_prod(x->t[i], b, &p1, &p0);
        col_two_sum(q, p0, &s, &h);
        if (h != 0.0) out->t[out->n++] = h;
        /* Fast-Two-Sum(p1, s): |p1| >= |s| holds in the theorem's setting; Two-Sum is
         * used anyway (exact without the precondition). */
        col_two_sum(p1, s, &q, &h);
        if (h != 0.0) out->t[out->n++] = h;
    }
    if (q != 0.0) out->t[out->n++] = q;
}

void col_xp_mul(col_xp *out, const col_xp *x, const col_xp *y)
{
    col_xp acc, part, next;
    acc.bad = x->bad || y->bad;
    acc.n = 0;
    for (int i = 0; i < y->n && !acc.bad; i++) {
        col_xp_scale(&part, x, y->t[i]);
        col_xp_add(&next, &acc, &part);
        acc.bad = next.bad;
        acc.n = next.n;
        memcpy(acc.t, next.t, (size_t)next.n * sizeof(double));
    }
    out->bad = acc.bad;
    out->n = acc.bad ? 0 : acc.n;
    memcpy(out->t, acc.t, (size_t)out->n * sizeof(double));
}

void col_xp_negate(col_xp *x)
{
    for (int i = 0; i < x->n; i++) x->t[i] = -x->t[i];
}

int col_xp_sign(const col_xp *x)
{
    if (x->n == 0) return 0;
    return x->t[x->n - 1] > 0.0 ? 1 : -1;
}

double col_xp_approx(const col_xp *x)
{
    double s = 0.0;
    for (int i = 0; i < x->n; i++) s += x->t[i];
    return s;
}
