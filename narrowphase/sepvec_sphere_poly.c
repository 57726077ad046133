/* SPDX-License-Identifier: MIT */
/* Spherical polygon of candidate separating directions and the collision certificate
 * (see sepvec_sphere_poly.h; Chung & Wang 1996 section 4.2; Hornus 2017). */
#include "narrowphase/sepvec_sphere_poly.h"

#include <float.h>
#include <math.h>
#include <stddef.h>

#include "lib/core/exact.h"
#include "narrowphase/certify.h"

/* A vertex counts as strictly inside or outside a constraint's circle only beyond this
 * (unit vectors: a few roundings of one dot product). */
#define SPH_TOL (8.0 * DBL_EPSILON)

static int unit(col_vec3 v, col_vec3 *out)
{
    double l2 = col_len2(v);
    if (!(l2 > 1e-200) || !isfinite(l2)) return 0;
    *out = col_scale(v, 1.0 / sqrt(l2));
    return 1;
}

/* The hemisphere c . s >= 0 as the square u, w, -u, -w on its boundary circle, counter-
 * clockwise seen from c (u x w = c). */
static void hemisphere(col_sphpoly *p, col_vec3 c, int id)
{
    col_vec3 t = fabs(c.x) <= fabs(c.y) && fabs(c.x) <= fabs(c.z) ? col_v3(1, 0, 0)
                 : fabs(c.y) <= fabs(c.z)                         ? col_v3(0, 1, 0)
                                                                  : col_v3(0, 0, 1);
    col_vec3 u, w;
    unit(col_cross(t, c), &u);
    unit(col_cross(c, u), &w);
    p->v[0] = u;
    p->v[1] = w;
    p->v[2] = col_neg(u);
    p->v[3] = col_neg(w);
    for (int i = 0; i < 4; i++) p->e[i] = id;
    p->n = 4;
}

int col_sphpoly_clip(col_sphpoly *p, col_vec3 c, int id, int *removed)
{
    if (removed != NULL) *removed = 0;
    if (p->n == 0) {
        if (p->cap < 4) return COL_SPHPOLY_FULL;
        hemisphere(p, c, id);
        if (removed != NULL) *removed = 1;
        return COL_SPHPOLY_KEPT;
    }
    int n = p->n, pos = 0, neg = 0;
    for (int i = 0; i < n; i++) {
        double d = col_dot(c, p->v[i]);
        pos += d > SPH_TOL;
        neg += d < -SPH_TOL;
    }
    if (neg == 0) return COL_SPHPOLY_KEPT; /* nothing (beyond rounding) to cut */
    if (pos == 0) return COL_SPHPOLY_EMPTY;
    if (n + 2 > p->cap) return COL_SPHPOLY_FULL;
    int m = 0;
    double di = col_dot(c, p->v[0]);
    for (int i = 0; i < n; i++) {
        int j = i + 1 == n ? 0 : i + 1;
        double dj = col_dot(c, p->v[j]);
        int in_i = di >= 0.0, in_j = dj >= 0.0;
        col_vec3 x;
        if (in_i) {
            if (in_j) {
                p->tv[m] = p->v[i];
                p->te[m++] = p->e[i];
            } else if (di == 0.0) {
                p->tv[m] = p->v[i];
                p->te[m++] = id;
            } else {
                p->tv[m] = p->v[i];
                p->te[m++] = p->e[i];
                /* |d_i| v_j + |d_j| v_i: on the circle, between v_i and v_j. */
                if (!unit(col_add(col_scale(p->v[j], fabs(di)), col_scale(p->v[i], fabs(dj))), &x))
                    return COL_SPHPOLY_FULL;
                p->tv[m] = x;
                p->te[m++] = id;
            }
        } else if (in_j && dj != 0.0) {
            if (!unit(col_add(col_scale(p->v[j], fabs(di)), col_scale(p->v[i], fabs(dj))), &x))
                return COL_SPHPOLY_FULL;
            p->tv[m] = x;
            p->te[m++] = p->e[i];
        }
        di = dj;
    }
    if (m < 3) return COL_SPHPOLY_EMPTY;
    /* The new edge (on circle c) may span up to a half circle (clipping a hemisphere
     * gives a lune); split it at 90 degrees, c x start, so that no edge ever reaches a
     * half circle and the crossing formula above stays valid (Hornus keeps the poles for
     * the same reason). */
    for (int k = 0; k < m; k++) {
        int k1 = k + 1 == m ? 0 : k + 1;
        if (p->te[k] != id || !(col_dot(p->tv[k], p->tv[k1]) < 0.0)) continue;
        if (m + 1 > p->cap) return COL_SPHPOLY_FULL;
        col_vec3 q;
        if (!unit(col_cross(c, p->tv[k]), &q)) return COL_SPHPOLY_FULL;
        for (int t = m; t > k + 1; t--) {
            p->tv[t] = p->tv[t - 1];
            p->te[t] = p->te[t - 1];
        }
        p->tv[k + 1] = q;
        p->te[k + 1] = id;
        m++;
        break;
    }
    col_vec3 *tv = p->v;
    int *te = p->e;
    p->v = p->tv;
    p->e = p->te;
    p->tv = tv;
    p->te = te;
    p->n = m;
    if (removed != NULL) *removed = 1;
    return COL_SPHPOLY_KEPT;
}

static int strictly_inside(const col_sphpoly *p, const col_vec3 *cons, col_vec3 w)
{
    for (int i = 0; i < p->n; i++)
        if (!(col_dot(w, cons[p->e[i]]) > SPH_TOL)) return 0;
    return 1;
}

int col_sphpoly_witness(const col_sphpoly *p, const col_vec3 *cons, col_vec3 *out)
{
    if (p->n == 0) return 0;
    col_vec3 sv = col_v3(0, 0, 0), sc = col_v3(0, 0, 0), w1 = sv, w2 = sv;
    int added = 0;
    for (int i = 0; i < p->n; i++) {
        sv = col_add(sv, p->v[i]);
        /* each distinct constraint once (consecutive edges may share a circle) */
        if (p->e[i] != p->e[i == 0 ? p->n - 1 : i - 1]) {
            sc = col_add(sc, cons[p->e[i]]);
            added++;
        }
    }
    if (added == 0) sc = cons[p->e[0]]; /* every edge on one circle: the hemisphere */
    int ok1 = unit(sv, &w1), ok2 = unit(sc, &w2);
    if (ok1 && strictly_inside(p, cons, w1)) {
        *out = w1;
        return 1;
    }
    if (ok2 && strictly_inside(p, cons, w2)) {
        *out = w2;
        return 1;
    }
    col_vec3 w3;
    if (ok1 && ok2 && unit(col_add(w1, w2), &w3) && strictly_inside(p, cons, w3)) {
        *out = w3;
        return 1;
    }
    return 0;
}

int col_sphpoly_certify(const col_sphpoly *p, const col_vec3 *m, int id_new, int out[4])
{
    /* The distinct edge constraints in cyclic order: the dual cone's generators. The
     * emptying constraint's negation lies inside that cone, so a fan triangle from the
     * first generator holds it (Caratheodory); try the fan, then every triple. */
    enum { MAXL = 64 };
    int l[MAXL], k = 0;
    for (int i = 0; i < p->n && k < MAXL; i++)
        if (k == 0 || p->e[i] != l[k - 1]) l[k++] = p->e[i];
    while (k > 1 && l[k - 1] == l[0]) k--;
    for (int i = 1; i + 1 < k; i++)
        if (col_origin_in_tetra(m[id_new], m[l[0]], m[l[i]], m[l[i + 1]])) {
            out[0] = id_new;
            out[1] = l[0];
            out[2] = l[i];
            out[3] = l[i + 1];
            return 1;
        }
    int kk = k < 16 ? k : 16;
    for (int a = 0; a < kk; a++)
        for (int b = a + 1; b < kk; b++)
            for (int c = b + 1; c < kk; c++)
                if (col_origin_in_tetra(m[id_new], m[l[a]], m[l[b]], m[l[c]])) {
                    out[0] = id_new;
                    out[1] = l[a];
                    out[2] = l[b];
                    out[3] = l[c];
                    return 1;
                }
    return 0;
}
