/* SPDX-License-Identifier: MIT */
/* Contact normal, separation and points from closest features (voronoi_contact.h). */
#include "narrowphase/voronoi_contact.h"

#include <float.h>
#include <math.h>
#include <stdalign.h>
#include <stdint.h>
#include <string.h>

#include "lib/core/exact.h"

/* Slack of the relaxed Gauss-map test, as in reference.c: an extra axis only costs two
 * support climbs (any axis's gap is a lower bound of the largest one), a missing one
 * would overstate the penetration depth. */
#define CT_GAUSS_TOL 1e-9
/* Edge pairs this close to parallel (sine) give no axis of their own (their Minkowski
 * face is covered by face normals). */
#define CT_PARALLEL_SIN 1e-12
/* Points within CT_KEEP_C eps M above the margin are kept (M bounds the coordinates). */
#define CT_KEEP_C 64.0

enum { CT_FACE_A, CT_FACE_B, CT_EDGES };

typedef struct ct_axis {
    col_vec3 n;  /* unit, from a toward b */
    double gap;  /* min_b n.b - max_a n.a */
    int kind, i, j;
} ct_axis;

size_t col_vor_contact_scratch_bytes(const col_hull *a, const col_hull *b)
{
    /* Two clipping buffers, and slack for aligning an unaligned start (ct_face_contact). */
    return 2 * ((size_t)a->vertex_count + (size_t)b->vertex_count + 2) * sizeof(col_vec3) + alignof(col_vec3);
}

static double ct_gap(const col_vor_body *A, const col_vor_body *B, col_vec3 n, int *va, int *vb)
{
    double maxa, minb;
    *va = col_vor_climb(A, *va, n, &maxa);
    *vb = col_vor_climb(B, *vb, col_neg(n), &minb);
    return -minb - maxa;
}

static void ct_consider(ct_axis *best, col_vec3 n, double gap, int kind, int i, int j)
{
    if (gap > best->gap) {
        best->n = n;
        best->gap = gap;
        best->kind = kind;
        best->i = i;
        best->j = j;
    }
}

/* Gregorius' IsMinkowskiFace, relaxed (see reference.c's ref_minkowski_face): do the
 * Gauss arcs (a, b) of an edge of A and (c, d) = (-m1, -m2) of an edge of B cross? */
static int ct_arcs_cross(col_vec3 a, col_vec3 b, col_vec3 c, col_vec3 d)
{
    col_vec3 u = col_cross(a, b), v = col_cross(c, d);
    double s1 = col_dot(c, u), s2 = col_dot(d, u), s3 = col_dot(a, v), s4 = col_dot(b, v);
    double t = CT_GAUSS_TOL;
    int pos = s1 > -t && s2 < t && s3 < t && s4 > -t;
    int neg = s1 < t && s2 > -t && s3 > -t && s4 < t;
    return pos || neg;
}

/* The separating-axis test for the largest gap (the least penetration when negative):
 * face normals of both hulls, then the crossing edge pairs. O(F (climb) + E_a E_b). */
static void ct_sat(const col_vor_body *A, const col_vor_body *B, ct_axis *best)
{
    const col_hull *ha = A->h, *hb = B->h;
    int va = 0, vb = 0;
    best->gap = -INFINITY;
    best->n = col_v3(1.0, 0.0, 0.0);
    best->kind = CT_FACE_A;
    best->i = best->j = 0;
    for (int f = 0; f < ha->face_count; f++) {
        col_vec3 n = col_vor_normal(A, f);
        ct_consider(best, n, ct_gap(A, B, n, &va, &vb), CT_FACE_A, f, 0);
    }
    for (int f = 0; f < hb->face_count; f++) {
        col_vec3 n = col_neg(col_vor_normal(B, f));
        ct_consider(best, n, ct_gap(A, B, n, &va, &vb), CT_FACE_B, 0, f);
    }
    col_vec3 ca = col_xform_point(A->x, ha->centroid);
    for (int i = 0; i < ha->edge_count; i++) {
        col_vec3 n1 = col_vor_normal(A, ha->edge_faces[2 * i]), n2 = col_vor_normal(A, ha->edge_faces[2 * i + 1]);
        col_vec3 t = col_vor_vert(A, ha->edge_verts[2 * i]);
        /* Edges scaled by powers of two to about unit size (exact): a squared cross product
         * of two edges is a fourth power of the size, zero below about 1e-78. */
        col_vec3 ua = col_pow2_unit(col_sub(col_vor_vert(A, ha->edge_verts[2 * i + 1]), t), NULL);
        for (int j = 0; j < hb->edge_count; j++) {
            col_vec3 m1 = col_vor_normal(B, hb->edge_faces[2 * j]), m2 = col_vor_normal(B, hb->edge_faces[2 * j + 1]);
            if (!ct_arcs_cross(n1, n2, col_neg(m1), col_neg(m2))) continue;
            col_vec3 ub = col_pow2_unit(col_sub(col_vor_vert(B, hb->edge_verts[2 * j + 1]), col_vor_vert(B, hb->edge_verts[2 * j])), NULL);
            col_vec3 n = col_cross(ua, ub);
            double l2 = col_len2(n);
            if (!(l2 > CT_PARALLEL_SIN * CT_PARALLEL_SIN * col_len2(ua) * col_len2(ub))) continue;
            n = col_scale(n, 1.0 / sqrt(l2));
            if (col_dot(n, col_sub(t, ca)) < 0.0) n = col_neg(n); /* out of A at its edge */
            ct_consider(best, n, ct_gap(A, B, n, &va, &vb), CT_EDGES, i, j);
        }
    }
}

/* The face at vertex v of body b whose outward normal best matches dir: *cosine gets
 * their dot product. */
static int ct_best_face(const col_vor_body *b, int v, col_vec3 dir, double *cosine)
{
    const col_hull *h = b->h;
    int best = -1;
    double bc = -INFINITY;
    for (int k = h->adj_first[v]; k < h->adj_first[v + 1]; k++) {
        int e = col_vor_edge_index(h, v, h->adj[k]);
        if (e < 0) continue;
        for (int s = 0; s < 2; s++) {
            int f = h->edge_faces[2 * e + s];
            double c = col_dot(col_vor_normal(b, f), dir);
            if (c > bc) {
                bc = c;
                best = f;
            }
        }
    }
    *cosine = bc;
    return best;
}

/* Clips the convex polygon in[0..n) by the half-space (x - o) . m >= 0 into out; returns
 * the new count (Sutherland-Hodgman; at most n + 1). */
static int ct_clip(const col_vec3 *in, int n, const col_vor_plane *pl, col_vec3 *out)
{
    int m = 0;
    for (int i = 0; i < n; i++) {
        col_vec3 p = in[i], q = in[i + 1 == n ? 0 : i + 1];
        double dp = col_vor_val(pl, p), dq = col_vor_val(pl, q);
        if (dp >= 0.0) out[m++] = p;
        if ((dp >= 0.0) != (dq >= 0.0)) out[m++] = col_vor_lerp(p, col_sub(q, p), dp / (dp - dq));
    }
    return m;
}

static void ct_add(col_vor_contact *c, col_vec3 pa, col_vec3 pb, double sep)
{
    c->pa[c->count] = pa;
    c->pb[c->count] = pb;
    c->sep[c->count] = sep;
    c->count++;
}

/* Face contact: the incident face of Y clipped to the reference face fx of X. */
static void ct_face_contact(const col_vor_body *X, int fx, const col_vor_body *Y, int fy, int x_is_a, double limit,
                            col_np_scratch *scratch, col_vor_contact *out)
{
    const col_hull *hx = X->h, *hy = Y->h;
    col_vec3 nr = col_vor_normal(X, fx);
    uintptr_t p = (uintptr_t)scratch->mem, q = (p + alignof(col_vec3) - 1) & ~(uintptr_t)(alignof(col_vec3) - 1);
    size_t skip = (size_t)(q - p);
    size_t cap = scratch->size > skip ? (scratch->size - skip) / (2 * sizeof(col_vec3)) : 0;
    col_vec3 *buf0 = (col_vec3 *)q, *buf1 = buf0 + cap;
    const int *ry = hy->face_verts + hy->face_first[fy], *rx = hx->face_verts + hx->face_first[fx];
    int ny = hy->face_first[fy + 1] - hy->face_first[fy], nx = hx->face_first[fx + 1] - hx->face_first[fx];
    if ((size_t)(ny + nx + 1) > cap) return; /* ALWAYS-style guard: scratch too small */
    int n = 0;
    for (int i = 0; i < ny; i++) buf0[n++] = col_vor_vert(Y, ry[i]);
    for (int i = 0; i < nx && n > 0; i++) {
        col_vor_plane pl = col_vor_side_plane(X, nr, rx[i], rx[i + 1 == nx ? 0 : i + 1]);
        n = ct_clip(buf0, n, &pl, buf1);
        col_vec3 *t = buf0;
        buf0 = buf1;
        buf1 = t;
    }
    col_vec3 r0 = col_vor_vert(X, rx[0]);
    double deepest = INFINITY;
    int kd = -1;
    for (int i = 0; i < n; i++) {
        double s = col_dot(nr, col_sub(buf0[i], r0));
        buf1[i] = col_v3(s, 0.0, 0.0);
        if (s < deepest) {
            deepest = s;
            kd = i;
        }
    }
    /* Keep the points within the limit, reduced to COL_VOR_MAX_POINTS: the deepest,
     * then repeatedly the one farthest from those kept. */
    int keep[COL_VOR_MAX_POINTS], nk = 0;
    if (kd >= 0) keep[nk++] = kd;
    while (nk < COL_VOR_MAX_POINTS) {
        int bi = -1;
        double bd = -1.0;
        for (int i = 0; i < n; i++) {
            if (buf1[i].x > limit) continue;
            double dmin = INFINITY;
            for (int k = 0; k < nk; k++) dmin = fmin(dmin, col_len2(col_sub(buf0[i], buf0[keep[k]])));
            if (dmin > bd && dmin > 0.0) {
                bd = dmin;
                bi = i;
            }
        }
        if (bi < 0) break;
        keep[nk++] = bi;
    }
    /* Each point pair is q and its projection on the reference plane; its separation is
     * measured along the contact normal (within COL_VOR_FACE_COS of the face's). */
    for (int k = 0; k < nk; k++) {
        col_vec3 q = buf0[keep[k]];
        col_vec3 proj = col_sub(q, col_scale(nr, buf1[keep[k]].x));
        col_vec3 pa = x_is_a ? proj : q, pb = x_is_a ? q : proj;
        ct_add(out, pa, pb, col_dot(col_sub(pb, pa), out->normal));
    }
}

void col_vor_contact_build(const col_hull *a, const col_xform *xa, const col_hull *b, const col_xform *xb,
                          const col_vor_result *r, double margin, col_np_scratch *scratch, col_vor_contact *out)
{
    memset(out, 0, sizeof *out);
    col_vor_body A = {a, xa}, B = {b, xb};
    ct_axis sat;
    sat.kind = -1;
    if (r->outcome == COL_VOR_SEPARATED) {
        out->normal = r->axis;
        out->separation = r->distance;
        if (r->distance > margin) return;
    } else {
        ct_sat(&A, &B, &sat);
        out->normal = sat.n;
        out->separation = sat.gap;
    }
    col_vec3 n = out->normal;
    double maxa, minb;
    int va = col_vor_climb(&A, col_vor_some_vertex(a, r->fa), n, &maxa);
    int vb = col_vor_climb(&B, col_vor_some_vertex(b, r->fb), col_neg(n), &minb);
    double ca, cb;
    int fa = ct_best_face(&A, va, n, &ca), fb = ct_best_face(&B, vb, col_neg(n), &cb);
    double M = fmax(col_max_abs(xa->p) + a->radius, col_max_abs(xb->p) + b->radius);
    double limit = margin + CT_KEEP_C * DBL_EPSILON * M;
    if (fa >= 0 && fb >= 0 && (ca >= COL_VOR_FACE_COS || cb >= COL_VOR_FACE_COS)) {
        if (ca >= cb)
            ct_face_contact(&A, fa, &B, fb, 1, limit, scratch, out);
        else
            ct_face_contact(&B, fb, &A, fa, 0, limit, scratch, out);
        if (out->count > 0) return;
    }
    /* One point: the closest points, or those of the SAT's edge pair. */
    if (sat.kind == CT_EDGES) {
        col_vec3 p0 = col_vor_vert(&A, a->edge_verts[2 * sat.i]), p1 = col_vor_vert(&A, a->edge_verts[2 * sat.i + 1]);
        col_vec3 q0 = col_vor_vert(&B, b->edge_verts[2 * sat.j]), q1 = col_vor_vert(&B, b->edge_verts[2 * sat.j + 1]);
        double s, t;
        col_vor_segment_closest(p0, p1, q0, q1, &s, &t);
        ct_add(out, col_vor_lerp(p0, col_sub(p1, p0), s), col_vor_lerp(q0, col_sub(q1, q0), t), out->separation);
    } else {
        ct_add(out, r->pa, r->pb, out->separation);
    }
}
