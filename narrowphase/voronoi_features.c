/* SPDX-License-Identifier: MIT */
/* Features of a hull and their Voronoi region planes (voronoi_features.h). */
#include "narrowphase/voronoi_features.h"

#include <math.h>

int col_vor_edge_index(const col_hull *h, int u, int v)
{
    int lo = u < v ? u : v, hi = u < v ? v : u;
    int l = 0, r = h->edge_count - 1;
    while (l <= r) {
        int m = l + (r - l) / 2;
        int ml = h->edge_verts[2 * m], mh = h->edge_verts[2 * m + 1];
        if (ml == lo && mh == hi) return m;
        if (ml < lo || (ml == lo && mh < hi))
            l = m + 1;
        else
            r = m - 1;
    }
    return -1;
}

/* The side plane of face f (world normal nf) along its ring edge va -> vb, inside
 * (>= 0) toward the face: normal nf x (vb - va), written canonically from the lower
 * vertex index so that the edge's own plane for f is its exact negation. */
col_vor_plane col_vor_side_plane(const col_vor_body *b, col_vec3 nf, int va, int vb)
{
    int lo = va < vb ? va : vb, hi = va < vb ? vb : va;
    col_vor_plane p;
    p.o = col_vor_vert(b, lo);
    p.n = col_cross(nf, col_sub(col_vor_vert(b, hi), p.o));
    if (va > vb) p.n = col_neg(p.n);
    return p;
}

/* The plane of edge e's region bordering its face side (0: left, ring T -> H; 1:
 * right): the negated side plane of that face along e. */
col_vor_plane col_vor_edge_face_plane(const col_vor_body *b, int e, int side, int *face)
{
    const col_hull *h = b->h;
    int t = h->edge_verts[2 * e], hd = h->edge_verts[2 * e + 1];
    int f = h->edge_faces[2 * e + side];
    *face = f;
    col_vor_plane p = side == 0 ? col_vor_side_plane(b, col_vor_normal(b, f), t, hd) : col_vor_side_plane(b, col_vor_normal(b, f), hd, t);
    p.n = col_neg(p.n);
    return p;
}

/* Signed distance of x above face f (its first ring vertex is on the plane). */
double col_vor_face_dist(const col_vor_body *b, int f, col_vec3 nf, col_vec3 x)
{
    return col_dot(nf, col_sub(x, col_vor_vert(b, b->h->face_verts[b->h->face_first[f]])));
}

/* Hill climbing on the hull graph: a vertex maximising n . v, from v0 (steepest
 * ascent; values strictly increase, so at most vertex_count moves). A local maximum of a
 * linear function on a convex polytope's graph is global. */
int col_vor_climb(const col_vor_body *b, int v, col_vec3 n, double *value)
{
    const col_hull *h = b->h;
    double best = col_dot(n, col_vor_vert(b, v));
    for (int guard = 0; guard < h->vertex_count; guard++) {
        int next = -1;
        double nb = best;
        for (int k = h->adj_first[v]; k < h->adj_first[v + 1]; k++) {
            double t = col_dot(n, col_vor_vert(b, h->adj[k]));
            if (t > nb) {
                nb = t;
                next = h->adj[k];
            }
        }
        if (next < 0) break;
        v = next;
        best = nb;
    }
    *value = best;
    return v;
}

/* A vertex of a feature (where hill climbing starts). */
int col_vor_some_vertex(const col_hull *h, col_vor_feature f)
{
    switch (f.type) {
    case COL_VOR_VERTEX: return f.index;
    case COL_VOR_EDGE: return h->edge_verts[2 * f.index];
    default: return h->face_verts[h->face_first[f.index]];
    }
}

/* Parameter of the point of segment a + t d nearest to p, clamped to [0, 1]. */
static double vor_clamp_param(col_vec3 p, col_vec3 a, col_vec3 d, double dd)
{
    double t = dd > 0.0 ? col_dot(col_sub(p, a), d) / dd : 0.0;
    return t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
}

double col_vor_segment_closest(col_vec3 p0, col_vec3 p1, col_vec3 q0, col_vec3 q1, double *sp, double *tp)
{
    col_vec3 d1 = col_sub(p1, p0), d2 = col_sub(q1, q0), r = col_sub(p0, q0);
    double a = col_dot(d1, d1), e = col_dot(d2, d2);
    /* Candidates: the interior critical point of the two lines (Ericson's formula,
     * clamped), then each end point against the other segment. Every candidate is a
     * pair of actual points, so the smallest is the best realised distance; for nearly
     * parallel segments the formula's s carries the cancellation of den, but the
     * minimum then sits at an end point of one of them, which the point-segment
     * candidates find accurately. */
    double cs[5], ct[5];
    int n = 0;
    if (a > 0.0 && e > 0.0) {
        double bb = col_dot(d1, d2), c = col_dot(d1, r), f = col_dot(d2, r), den = a * e - bb * bb;
        double s = den > 0.0 ? (bb * f - c * e) / den : 0.0;
        s = s < 0.0 ? 0.0 : s > 1.0 ? 1.0 : s;
        double t = vor_clamp_param(col_vor_lerp(p0, d1, s), q0, d2, e);
        cs[n] = vor_clamp_param(col_vor_lerp(q0, d2, t), p0, d1, a);
        ct[n++] = t;
    }
    cs[n] = 0.0, ct[n++] = vor_clamp_param(p0, q0, d2, e);
    cs[n] = 1.0, ct[n++] = vor_clamp_param(p1, q0, d2, e);
    cs[n] = vor_clamp_param(q0, p0, d1, a), ct[n++] = 0.0;
    cs[n] = vor_clamp_param(q1, p0, d1, a), ct[n++] = 1.0;
    double best = INFINITY;
    for (int k = 0; k < n; k++) {
        double d = col_len2(col_sub(col_vor_lerp(p0, d1, cs[k]), col_vor_lerp(q0, d2, ct[k])));
        if (d < best) {
            best = d;
            *sp = cs[k];
            *tp = ct[k];
        }
    }
    return best;
}

/* Distance of a separated pair by brute force over all feature pairs: every vertex
 * against every face whose prism contains it, every edge pair. O(V F + E E): only for
 * the rare walks that could not be certified. */
void col_vor_brute_distance(const col_vor_body *A, const col_vor_body *B, col_vor_closest *out)
{
    double best = INFINITY;
    for (int side = 0; side < 2; side++) {
        const col_vor_body *X = side == 0 ? A : B, *Y = side == 0 ? B : A;
        for (int v = 0; v < X->h->vertex_count; v++) {
            col_vec3 P = col_vor_vert(X, v);
            for (int f = 0; f < Y->h->face_count; f++) {
                col_vec3 n = col_vor_normal(Y, f);
                const int *ring = Y->h->face_verts + Y->h->face_first[f];
                int len = Y->h->face_first[f + 1] - Y->h->face_first[f], in = 1;
                for (int i = 0; i < len && in; i++) {
                    col_vor_plane pl = col_vor_side_plane(Y, n, ring[i], ring[i + 1 == len ? 0 : i + 1]);
                    in = col_vor_val(&pl, P) >= 0.0;
                }
                if (!in) continue;
                double d = col_vor_face_dist(Y, f, n, P);
                if (d >= 0.0 && d < best) {
                    best = d;
                    col_vec3 q = col_sub(P, col_scale(n, d));
                    out->pa = side == 0 ? P : q;
                    out->pb = side == 0 ? q : P;
                    out->fa = side == 0 ? col_vor_feat(COL_VOR_VERTEX, v) : col_vor_feat(COL_VOR_FACE, f);
                    out->fb = side == 0 ? col_vor_feat(COL_VOR_FACE, f) : col_vor_feat(COL_VOR_VERTEX, v);
                }
            }
        }
    }
    const col_hull *ha = A->h, *hb = B->h;
    for (int i = 0; i < ha->edge_count; i++) {
        col_vec3 p0 = col_vor_vert(A, ha->edge_verts[2 * i]), p1 = col_vor_vert(A, ha->edge_verts[2 * i + 1]);
        for (int j = 0; j < hb->edge_count; j++) {
            col_vec3 q0 = col_vor_vert(B, hb->edge_verts[2 * j]), q1 = col_vor_vert(B, hb->edge_verts[2 * j + 1]);
            double s, t;
            double d = sqrt(col_vor_segment_closest(p0, p1, q0, q1, &s, &t));
            if (d < best) {
                best = d;
                out->pa = col_vor_lerp(p0, col_sub(p1, p0), s);
                out->pb = col_vor_lerp(q0, col_sub(q1, q0), t);
                out->fa = s <= 0.0 ? col_vor_feat(COL_VOR_VERTEX, ha->edge_verts[2 * i])
                          : s >= 1.0 ? col_vor_feat(COL_VOR_VERTEX, ha->edge_verts[2 * i + 1])
                                     : col_vor_feat(COL_VOR_EDGE, i);
                out->fb = t <= 0.0 ? col_vor_feat(COL_VOR_VERTEX, hb->edge_verts[2 * j])
                          : t >= 1.0 ? col_vor_feat(COL_VOR_VERTEX, hb->edge_verts[2 * j + 1])
                                     : col_vor_feat(COL_VOR_EDGE, j);
            }
        }
    }
    out->distance = col_len(col_sub(out->pb, out->pa));
}
