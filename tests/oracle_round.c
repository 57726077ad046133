/* SPDX-License-Identifier: MIT */
/* The exact rational oracle for pieces made of a core and a radius (tests only; GMP):
 * the squared distance between the convex hulls of two WORLD point sets, exactly, and its
 * comparison with (ra + rb)^2. tests/oracle_round.h says how it decides. */
#include "tests/oracle_round.h"

#include <math.h>
#include <string.h>

#include "lib/core/exact.h"
#include "tests/oracle_lp.h"

/* ---- hint features of a world point set ---- */

void oracle_features_all(oracle_set *p)
{
    oracle_features *f = &p->f;
    f->nt = f->ns = 0;
    for (int i = 0; i < p->n; i++)
        for (int j = i + 1; j < p->n; j++) {
            f->seg[f->ns][0] = i;
            f->seg[f->ns][1] = j;
            f->ns++;
            for (int k = j + 1; k < p->n; k++) {
                f->tri[f->nt][0] = i;
                f->tri[f->nt][1] = j;
                f->tri[f->nt][2] = k;
                f->nt++;
            }
        }
}

void oracle_features_hull(oracle_set *p, int face_count, const int *face_first, const int *face_verts, int edge_count,
                          const int *edge_verts)
{
    oracle_features *f = &p->f;
    f->nt = f->ns = 0;
    for (int k = 0; k < face_count; k++)
        for (int i = face_first[k] + 1; i + 1 < face_first[k + 1] && f->nt < ORACLE_MAXF; i++) {
            f->tri[f->nt][0] = face_verts[face_first[k]];
            f->tri[f->nt][1] = face_verts[i];
            f->tri[f->nt][2] = face_verts[i + 1];
            f->nt++;
        }
    for (int e = 0; e < edge_count && f->ns < ORACLE_MAXF; e++) {
        f->seg[f->ns][0] = edge_verts[2 * e];
        f->seg[f->ns][1] = edge_verts[2 * e + 1];
        f->ns++;
    }
}

void oracle_features_core(oracle_set *p)
{
    p->f.nt = p->f.ns = 0;
    if (p->n == 2) {
        p->f.seg[0][0] = 0;
        p->f.seg[0][1] = 1;
        p->f.ns = 1;
    }
}

/* ---- double closest points (the search only; exactness comes after) ---- */

static col_vec3 d_closest_seg(col_vec3 p, col_vec3 s0, col_vec3 s1)
{
    col_vec3 e = col_sub(s1, s0);
    double ee = col_len2(e);
    if (!(ee > 0.0)) return s0;
    double t = col_dot(col_sub(p, s0), e) / ee;
    t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
    return col_add(s0, col_scale(e, t));
}

static col_vec3 d_closest_tri(col_vec3 p, col_vec3 t0, col_vec3 t1, col_vec3 t2)
{
    col_vec3 e1 = col_sub(t1, t0), e2 = col_sub(t2, t0), w = col_sub(t0, p);
    double nn = col_len2(col_cross(e1, e2));
    if (nn > 0.0) {
        double g11 = col_len2(e1), g12 = col_dot(e1, e2), g22 = col_len2(e2);
        double r1 = -col_dot(w, e1), r2 = -col_dot(w, e2);
        double a = (g22 * r1 - g12 * r2) / nn, b = (g11 * r2 - g12 * r1) / nn;
        if (a >= 0.0 && b >= 0.0 && a + b <= 1.0) return col_add(t0, col_add(col_scale(e1, a), col_scale(e2, b)));
    }
    col_vec3 c[3] = {d_closest_seg(p, t0, t1), d_closest_seg(p, t1, t2), d_closest_seg(p, t2, t0)};
    int bi = 0;
    for (int i = 1; i < 3; i++)
        if (col_len2(col_sub(c[i], p)) < col_len2(col_sub(c[bi], p))) bi = i;
    return c[bi];
}

static void d_seg_seg(col_vec3 p0, col_vec3 p1, col_vec3 q0, col_vec3 q1, col_vec3 *x, col_vec3 *y)
{
    col_vec3 d1 = col_sub(p1, p0), d2 = col_sub(q1, q0), r = col_sub(p0, q0);
    double a = col_len2(d1), e = col_len2(d2), f = col_dot(d2, r), c = col_dot(d1, r), b = col_dot(d1, d2);
    double den = a * e - b * b;
    if (den > 0.0) {
        double s = (b * f - c * e) / den, t = (a * f - b * c) / den;
        if (s >= 0.0 && s <= 1.0 && t >= 0.0 && t <= 1.0) {
            *x = col_add(p0, col_scale(d1, s));
            *y = col_add(q0, col_scale(d2, t));
            return;
        }
    }
    col_vec3 cx[4] = {p0, p1, d_closest_seg(q0, p0, p1), d_closest_seg(q1, p0, p1)};
    col_vec3 cy[4] = {d_closest_seg(p0, q0, q1), d_closest_seg(p1, q0, q1), q0, q1};
    int bi = 0;
    for (int i = 1; i < 4; i++)
        if (col_len2(col_sub(cy[i], cx[i])) < col_len2(col_sub(cy[bi], cx[bi]))) bi = i;
    *x = cx[bi];
    *y = cy[bi];
}

/* A feature pair: type 0 point of A vs triangle of B, 1 triangle of A vs point of B,
 * 2 segment-segment, 3 point-segment, 4 segment-point, 5 point-point. */
static double consider(double best, fpair *bp, fpair cand, col_vec3 x, col_vec3 y, col_vec3 *bx, col_vec3 *by)
{
    double d = col_len2(col_sub(y, x));
    if (d < best) {
        *bp = cand;
        *bx = x;
        *by = y;
        return d;
    }
    return best;
}

/* The probably closest feature pair in double; returns the squared distance found and
 * the closest points. */
double oracle_search(const oracle_set *a, const oracle_set *b, fpair *bp, col_vec3 *bx, col_vec3 *by)
{
    const oracle_features fa = a->f, fb = b->f;
    double best = INFINITY;
    fpair c;
    memset(&c, 0, sizeof c);
    for (int i = 0; i < a->n; i++)
        for (int j = 0; j < b->n; j++) {
            c.type = 5;
            c.ia[0] = i;
            c.ib[0] = j;
            best = consider(best, bp, c, a->w[i], b->w[j], bx, by);
        }
    for (int i = 0; i < a->n; i++)
        for (int t = 0; t < fb.nt; t++) {
            c.type = 0;
            c.ia[0] = i;
            memcpy(c.ib, fb.tri[t], sizeof c.ib);
            best = consider(best, bp, c, a->w[i], d_closest_tri(a->w[i], b->w[c.ib[0]], b->w[c.ib[1]], b->w[c.ib[2]]),
                            bx, by);
        }
    for (int j = 0; j < b->n; j++)
        for (int t = 0; t < fa.nt; t++) {
            c.type = 1;
            c.ib[0] = j;
            memcpy(c.ia, fa.tri[t], sizeof c.ia);
            best = consider(best, bp, c, d_closest_tri(b->w[j], a->w[c.ia[0]], a->w[c.ia[1]], a->w[c.ia[2]]), b->w[j],
                            bx, by);
        }
    for (int i = 0; i < a->n; i++)
        for (int t = 0; t < fb.ns; t++) {
            c.type = 3;
            c.ia[0] = i;
            c.ib[0] = fb.seg[t][0];
            c.ib[1] = fb.seg[t][1];
            best = consider(best, bp, c, a->w[i], d_closest_seg(a->w[i], b->w[c.ib[0]], b->w[c.ib[1]]), bx, by);
        }
    for (int j = 0; j < b->n; j++)
        for (int t = 0; t < fa.ns; t++) {
            c.type = 4;
            c.ib[0] = j;
            c.ia[0] = fa.seg[t][0];
            c.ia[1] = fa.seg[t][1];
            best = consider(best, bp, c, d_closest_seg(b->w[j], a->w[c.ia[0]], a->w[c.ia[1]]), b->w[j], bx, by);
        }
    for (int s = 0; s < fa.ns; s++)
        for (int t = 0; t < fb.ns; t++) {
            col_vec3 x, y;
            c.type = 2;
            c.ia[0] = fa.seg[s][0];
            c.ia[1] = fa.seg[s][1];
            c.ib[0] = fb.seg[t][0];
            c.ib[1] = fb.seg[t][1];
            d_seg_seg(a->w[c.ia[0]], a->w[c.ia[1]], b->w[c.ib[0]], b->w[c.ib[1]], &x, &y);
            best = consider(best, bp, c, x, y, bx, by);
        }
    return best;
}

/* ---- the exact oracle (GMP rationals) ---- */

void qv_init(qv *v) { mpq_inits(v->x, v->y, v->z, NULL); }
void qv_clear(qv *v) { mpq_clears(v->x, v->y, v->z, NULL); }
void qv_setd(qv *v, col_vec3 p)
{
    mpq_set_d(v->x, p.x);
    mpq_set_d(v->y, p.y);
    mpq_set_d(v->z, p.z);
}
void qv_set(qv *v, const qv *p)
{
    mpq_set(v->x, p->x);
    mpq_set(v->y, p->y);
    mpq_set(v->z, p->z);
}
void qv_sub(qv *o, const qv *a, const qv *b)
{
    mpq_sub(o->x, a->x, b->x);
    mpq_sub(o->y, a->y, b->y);
    mpq_sub(o->z, a->z, b->z);
}
/* o = a + t b */
void qv_axpy(qv *o, const qv *a, const mpq_t t, const qv *b, mpq_t tmp)
{
    mpq_mul(tmp, t, b->x);
    mpq_add(o->x, a->x, tmp);
    mpq_mul(tmp, t, b->y);
    mpq_add(o->y, a->y, tmp);
    mpq_mul(tmp, t, b->z);
    mpq_add(o->z, a->z, tmp);
}
void qv_dot(mpq_t o, const qv *a, const qv *b, mpq_t tmp)
{
    mpq_mul(o, a->x, b->x);
    mpq_mul(tmp, a->y, b->y);
    mpq_add(o, o, tmp);
    mpq_mul(tmp, a->z, b->z);
    mpq_add(o, o, tmp);
}

/* Scratch rationals of the oracle (one set: oracle_round_init). */
static mpq_t T[12];
static qv V[8];

/* c = the point of segment [s0, s1] closest to p (exact). */
static void q_closest_seg(qv *c, const qv *p, const qv *s0, const qv *s1)
{
    qv *e = &V[0], *w = &V[1];
    qv_sub(e, s1, s0);
    qv_sub(w, p, s0);
    qv_dot(T[0], e, e, T[2]);
    if (mpq_sgn(T[0]) == 0) {
        qv_set(c, s0);
        return;
    }
    qv_dot(T[1], w, e, T[2]);
    if (mpq_sgn(T[1]) <= 0) {
        qv_set(c, s0);
    } else if (mpq_cmp(T[1], T[0]) >= 0) {
        qv_set(c, s1);
    } else {
        mpq_div(T[1], T[1], T[0]);
        qv_axpy(c, s0, T[1], e, T[2]);
    }
}

static void q_dist2(mpq_t o, const qv *x, const qv *y)
{
    qv_sub(&V[7], y, x);
    qv_dot(o, &V[7], &V[7], T[11]);
}

/* c = the point of triangle t0 t1 t2 closest to p (exact). */
static void q_closest_tri(qv *c, const qv *p, const qv *t0, const qv *t1, const qv *t2)
{
    qv *e1 = &V[2], *e2 = &V[3], *w = &V[4], *tmp = &V[5];
    qv_sub(e1, t1, t0);
    qv_sub(e2, t2, t0);
    qv_sub(w, t0, p);
    /* Gram determinant g11 g22 - g12^2 = |e1 x e2|^2 */
    qv_dot(T[3], e1, e1, T[2]);
    qv_dot(T[4], e1, e2, T[2]);
    qv_dot(T[5], e2, e2, T[2]);
    mpq_mul(T[6], T[3], T[5]);
    mpq_mul(T[7], T[4], T[4]);
    mpq_sub(T[6], T[6], T[7]);
    if (mpq_sgn(T[6]) > 0) {
        qv_dot(T[7], w, e1, T[2]);
        mpq_neg(T[7], T[7]); /* r1 */
        qv_dot(T[8], w, e2, T[2]);
        mpq_neg(T[8], T[8]); /* r2 */
        mpq_mul(T[9], T[5], T[7]);
        mpq_mul(T[10], T[4], T[8]);
        mpq_sub(T[9], T[9], T[10]); /* a nn */
        mpq_mul(T[10], T[3], T[8]);
        mpq_mul(T[8], T[4], T[7]);
        mpq_sub(T[10], T[10], T[8]); /* b nn */
        mpq_add(T[8], T[9], T[10]);
        if (mpq_sgn(T[9]) >= 0 && mpq_sgn(T[10]) >= 0 && mpq_cmp(T[8], T[6]) <= 0) {
            mpq_div(T[9], T[9], T[6]);
            mpq_div(T[10], T[10], T[6]);
            qv_axpy(tmp, t0, T[9], e1, T[2]);
            qv_axpy(c, tmp, T[10], e2, T[2]);
            return;
        }
    }
    /* on the boundary: the nearest of the three edges' closest points */
    qv best, cand;
    qv_init(&best);
    qv_init(&cand);
    mpq_t bd, d;
    mpq_inits(bd, d, NULL);
    const qv *ring[4] = {t0, t1, t2, t0};
    for (int k = 0; k < 3; k++) {
        q_closest_seg(&cand, p, ring[k], ring[k + 1]);
        q_dist2(d, p, &cand);
        if (k == 0 || mpq_cmp(d, bd) < 0) {
            mpq_set(bd, d);
            qv_set(&best, &cand);
        }
    }
    qv_set(c, &best);
    mpq_clears(bd, d, NULL);
    qv_clear(&best);
    qv_clear(&cand);
}

/* x, y the closest points of segments [p0, p1] and [q0, q1] (exact). */
static void q_seg_seg(qv *x, qv *y, const qv *p0, const qv *p1, const qv *q0, const qv *q1)
{
    qv d1, d2, r, cx, cy;
    qv_init(&d1);
    qv_init(&d2);
    qv_init(&r);
    qv_init(&cx);
    qv_init(&cy);
    mpq_t a, e, f, c, b, den, s, t, tmp, bd, d;
    mpq_inits(a, e, f, c, b, den, s, t, tmp, bd, d, NULL);
    qv_sub(&d1, p1, p0);
    qv_sub(&d2, q1, q0);
    qv_sub(&r, p0, q0);
    qv_dot(a, &d1, &d1, tmp);
    qv_dot(e, &d2, &d2, tmp);
    qv_dot(f, &d2, &r, tmp);
    qv_dot(c, &d1, &r, tmp);
    qv_dot(b, &d1, &d2, tmp);
    mpq_mul(den, a, e);
    mpq_mul(tmp, b, b);
    mpq_sub(den, den, tmp);
    int done = 0;
    if (mpq_sgn(den) > 0) {
        mpq_mul(s, b, f);
        mpq_mul(tmp, c, e);
        mpq_sub(s, s, tmp);
        mpq_mul(t, a, f);
        mpq_mul(tmp, b, c);
        mpq_sub(t, t, tmp);
        if (mpq_sgn(s) >= 0 && mpq_cmp(s, den) <= 0 && mpq_sgn(t) >= 0 && mpq_cmp(t, den) <= 0) {
            mpq_div(s, s, den);
            mpq_div(t, t, den);
            qv_axpy(x, p0, s, &d1, tmp);
            qv_axpy(y, q0, t, &d2, tmp);
            done = 1;
        }
    }
    if (!done) {
        const qv *px[4] = {p0, p1, NULL, NULL}, *qy[4] = {NULL, NULL, q0, q1};
        for (int k = 0; k < 4; k++) {
            if (k < 2) {
                qv_set(&cx, px[k]);
                q_closest_seg(&cy, px[k], q0, q1);
            } else {
                qv_set(&cy, qy[k]);
                q_closest_seg(&cx, qy[k], p0, p1);
            }
            q_dist2(d, &cx, &cy);
            if (k == 0 || mpq_cmp(d, bd) < 0) {
                mpq_set(bd, d);
                qv_set(x, &cx);
                qv_set(y, &cy);
            }
        }
    }
    mpq_clears(a, e, f, c, b, den, s, t, tmp, bd, d, NULL);
    qv_clear(&d1);
    qv_clear(&d2);
    qv_clear(&r);
    qv_clear(&cx);
    qv_clear(&cy);
}

/* Exact closest points of a feature pair: x on A's feature, y on B's. */
static void q_pair(qv *x, qv *y, const qv *qa, const qv *qb, const fpair *p)
{
    switch (p->type) {
    case 0:
        qv_set(x, &qa[p->ia[0]]);
        q_closest_tri(y, x, &qb[p->ib[0]], &qb[p->ib[1]], &qb[p->ib[2]]);
        break;
    case 1:
        qv_set(y, &qb[p->ib[0]]);
        q_closest_tri(x, y, &qa[p->ia[0]], &qa[p->ia[1]], &qa[p->ia[2]]);
        break;
    case 2:
        q_seg_seg(x, y, &qa[p->ia[0]], &qa[p->ia[1]], &qb[p->ib[0]], &qb[p->ib[1]]);
        break;
    case 3:
        qv_set(x, &qa[p->ia[0]]);
        q_closest_seg(y, x, &qb[p->ib[0]], &qb[p->ib[1]]);
        break;
    case 4:
        qv_set(y, &qb[p->ib[0]]);
        q_closest_seg(x, y, &qa[p->ia[0]], &qa[p->ia[1]]);
        break;
    default:
        qv_set(x, &qa[p->ia[0]]);
        qv_set(y, &qb[p->ib[0]]);
    }
}

/* 1 if s = y - x supports: min over B of s.b - max over A of s.a >= |s|^2 (then |s| is
 * the exact distance). */
static int q_supports(const qv *qa, int na, const qv *qb, int nb, const qv *s)
{
    mpq_t hi, lo, t, tmp, s2;
    mpq_inits(hi, lo, t, tmp, s2, NULL);
    for (int i = 0; i < na; i++) {
        qv_dot(t, s, &qa[i], tmp);
        if (i == 0 || mpq_cmp(t, hi) > 0) mpq_set(hi, t);
    }
    for (int j = 0; j < nb; j++) {
        qv_dot(t, s, &qb[j], tmp);
        if (j == 0 || mpq_cmp(t, lo) < 0) mpq_set(lo, t);
    }
    mpq_sub(t, lo, hi);
    qv_dot(s2, s, s, tmp);
    int ok = mpq_cmp(t, s2) >= 0;
    mpq_clears(hi, lo, t, tmp, s2, NULL);
    return ok;
}

oracle_stats ostats;

/* col_oracle_intersect on the points scaled by one power of two to about unit size
 * (exact; the LP's double phase does not like coordinates of 1e-79). */
int oracle_intersect_scaled(const oracle_set *a, const oracle_set *b)
{
    col_vec3 sa[ORACLE_MAXP], sb[ORACLE_MAXP];
    double m = 0.0;
    for (int i = 0; i < a->n; i++) m = fmax(m, col_max_abs(a->w[i]));
    for (int j = 0; j < b->n; j++) m = fmax(m, col_max_abs(b->w[j]));
    int e = 0;
    if (m > 0.0) frexp(m, &e);
    for (int i = 0; i < a->n; i++) sa[i] = col_v3(ldexp(a->w[i].x, -e), ldexp(a->w[i].y, -e), ldexp(a->w[i].z, -e));
    for (int j = 0; j < b->n; j++) sb[j] = col_v3(ldexp(b->w[j].x, -e), ldexp(b->w[j].y, -e), ldexp(b->w[j].z, -e));
    return col_oracle_intersect(sa, a->n, sb, b->n);
}

/* The exact squared distance between the hulls of a->w and b->w into d2. */
void oracle_dist2(const oracle_set *a, const oracle_set *b, mpq_t d2)
{
    qv qa[ORACLE_MAXP], qb[ORACLE_MAXP], x, y, s;
    for (int i = 0; i < a->n; i++) {
        qv_init(&qa[i]);
        qv_setd(&qa[i], a->w[i]);
    }
    for (int j = 0; j < b->n; j++) {
        qv_init(&qb[j]);
        qv_setd(&qb[j], b->w[j]);
    }
    qv_init(&x);
    qv_init(&y);
    qv_init(&s);
    mpq_t t, tmp;
    mpq_inits(t, tmp, NULL);
    fpair bp;
    col_vec3 dx, dy;
    oracle_search(a, b, &bp, &dx, &dy);
    q_pair(&x, &y, qa, qb, &bp);
    qv_sub(&s, &y, &x);
    qv_dot(d2, &s, &s, tmp);
    if (mpq_sgn(d2) == 0 || q_supports(qa, a->n, qb, b->n, &s)) {
        ostats.fast++;
    } else if (oracle_intersect_scaled(a, b) == 1) {
        ostats.lp++;
        mpq_set_ui(d2, 0, 1);
    } else {
        /* every point-triangle and segment-segment pair of the point sets */
        ostats.exhaustive++;
        fpair c;
        memset(&c, 0, sizeof c);
        for (int side = 0; side < 2; side++) {
            const oracle_set *p = side == 0 ? a : b, *o = side == 0 ? b : a;
            for (int i = 0; i < p->n; i++)
                for (int j = 0; j < o->n; j++)
                    for (int k = j + 1; k < o->n; k++)
                        for (int l = k + 1; l < o->n; l++) {
                            c.type = side == 0 ? 0 : 1;
                            int *pt = side == 0 ? c.ia : c.ib, *tr = side == 0 ? c.ib : c.ia;
                            pt[0] = i;
                            tr[0] = j;
                            tr[1] = k;
                            tr[2] = l;
                            q_pair(&x, &y, qa, qb, &c);
                            q_dist2(t, &x, &y);
                            if (mpq_cmp(t, d2) < 0) mpq_set(d2, t);
                        }
        }
        for (int i = 0; i < a->n; i++)
            for (int i2 = i; i2 < a->n; i2++)
                for (int j = 0; j < b->n; j++)
                    for (int j2 = j; j2 < b->n; j2++) {
                        c.type = 2;
                        c.ia[0] = i;
                        c.ia[1] = i2;
                        c.ib[0] = j;
                        c.ib[1] = j2;
                        q_pair(&x, &y, qa, qb, &c);
                        q_dist2(t, &x, &y);
                        if (mpq_cmp(t, d2) < 0) mpq_set(d2, t);
                    }
    }
    mpq_clears(t, tmp, NULL);
    qv_clear(&x);
    qv_clear(&y);
    qv_clear(&s);
    for (int i = 0; i < a->n; i++) qv_clear(&qa[i]);
    for (int j = 0; j < b->n; j++) qv_clear(&qb[j]);
}

/* sign of dist^2 - (ra + rb)^2 */
int oracle_vs_radius(const mpq_t d2, double ra, double rb)
{
    mpq_t r, u;
    mpq_inits(r, u, NULL);
    mpq_set_d(r, ra);
    mpq_set_d(u, rb);
    mpq_add(r, r, u);
    mpq_mul(r, r, r);
    int c = mpq_cmp(d2, r);
    mpq_clears(r, u, NULL);
    return c;
}


void oracle_round_init(void)
{
    for (int i = 0; i < 12; i++) mpq_init(T[i]);
    for (int i = 0; i < 8; i++) qv_init(&V[i]);
}

void oracle_round_fini(void)
{
    for (int i = 0; i < 12; i++) mpq_clear(T[i]);
    for (int i = 0; i < 8; i++) qv_clear(&V[i]);
}

int oracle_round_collide(const oracle_set *a, double ra, const oracle_set *b, double rb)
{
    mpq_t d2;
    mpq_init(d2);
    oracle_dist2(a, b, d2);
    int c = oracle_vs_radius(d2, ra, rb);
    mpq_clear(d2);
    return c <= 0;
}
