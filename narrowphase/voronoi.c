/* SPDX-License-Identifier: MIT */
/* Closest-feature tracking (Lin & Canny 1991; Mirtich 1998, "V-Clip"), see voronoi.h.
 *
 * Voronoi regions (Lin & Canny 1991; Mirtich 1998, its Voronoi-region definitions) are
 * cones of planes,
 * each labelled with the neighbour feature to move to when a point violates it:
 *   vertex V: one plane per incident edge E = VW, through V with normal V - W;
 *   edge E = TH (T the lower vertex index, u = H - T): the tail plane (normal u through
 *     T, neighbour T), the head plane (normal -u through H, neighbour H), and one plane
 *     through E per adjacent face F, normal -(n_F x u) for the face whose ring runs
 *     T -> H (the "left" face), n_F x u for the other, neighbour F;
 *   face F: one side plane per boundary edge (the negation of that edge's plane for F,
 *     neighbour the edge), plus the support plane of F.
 * Every plane value is evaluated as (x - o) . n with o and n computed the same way on
 * both sides of a shared boundary, so the two regions' values are exact negations of
 * each other: no point is outside both (a gap) or inside both (an overlap) through
 * rounding. That removes one source of the flip-flop cycles of V-Clip (Mirtich, ACM TOG 17(3), 1998, section 5);
 * there are no "flare" epsilons. Everything is computed in world coordinates, with the
 * world vertices computed exactly as the reference backend and the benchmark compute
 * them (col_xform_point), so a certificate means the same thing in both backends.
 *
 * The walk is V-Clip's state machine over the pairs V-V, V-E, V-F, E-E, E-F (F-F never
 * arises): each state tests the closest points of the two features against the
 * regions and moves one feature to the neighbour named by a violated plane; edges are
 * clipped against regions and the derivative of the distance at the clip points picks
 * the side (Mirtich 1998, the clipping and derivative tests of its state pseudocode;
 * section numbers are not quoted here: unverified). One deviation: when an edge misses
 * a face's region entirely, V-Clip walks the face boundary; here the face is
 * replaced by its boundary feature nearest to the edge, computed directly over the
 * face's edges. That feature is as close to the edge as the face is (an edge outside
 * the face's prism is nearest to the face at the boundary) and has a lower dimension,
 * so Mirtich's progress argument is kept. */
#include "narrowphase/voronoi.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "lib/core/exact.h"
#include "lib/core/vec.h"
#include "narrowphase/certify.h"

/* Results of one state test. */
enum { VOR_CONTINUE, VOR_DISJOINT, VOR_TOUCH, VOR_PENETRATION, VOR_CYCLE, VOR_DONE };

/* Feature pairs remembered for cycle detection. In exact arithmetic V-Clip never
 * repeats a pair (Mirtich 1998's termination argument); the cycles floating point can make at
 * degenerate configurations are short (2-4 states), so the last 16 pairs suffice, and
 * the step cap below catches anything longer. */
#define VOR_RING 16

/* Rounding bound of a certified gap, in the reference's form (reference.c,
 * REF_PROJ_BOUND_C): each projection n.v is three products and two sums, error
 * <= 1.5 eps |n|_1 M; two of them, doubled for slack, plus the subtraction. M here
 * bounds every world coordinate of both hulls (|p|_inf + radius, widened by 1 %), a
 * little looser than the reference's measured maximum. */
#define VOR_BOUND_C 8.0
#define VOR_GAP_C 4.0
/* With want_distance, the walk's distance d is accepted when the certified support gap
 * is at least d - (VOR_DIST_BOUNDS * bound + VOR_DIST_REL * d): the two differ only by
 * rounding when the features are truly closest. */
#define VOR_DIST_BOUNDS 4.0
#define VOR_DIST_REL 1e-11
/* Closest points this close (in bounds) are "touching": within rounding of contact. */
#define VOR_TOUCH_BOUNDS 8.0
/* A cached pair whose centroid direction, seen in either body's frame, turned by more
 * than about 25 degrees since its last query has jumped (or spun fast): a cold start's
 * supports are then closer than the old features (docs/voronoi.md). */
#define VOR_JUMP_COS 0.9

/* Derivative ties: V-Clip moves across a clip point only if the distance decreases
 * beyond it; a derivative (or a difference of plane distances) within VOR_TIE_C eps M of
 * zero, i.e. within the rounding of the world coordinates, is a tie and does not move.
 * Ties arise at parallel edges and faces, where exact arithmetic would also stop at an
 * equally close pair; deciding them by rounding noise instead sends the walk round the
 * equally close pairs for ever. Stopping early is safe: every end is certified. */
#define VOR_TIE_C 32.0
/* A tie settled by distances needs a decrease of VOR_TIE_D x that tolerance. */
#define VOR_TIE_D 0.125

typedef struct vor_ctx {
    col_vor_body A, B;
    double tol; /* VOR_TIE_C eps M, M bounding every world coordinate */
    int scans;
} vor_ctx;

/* ---- the state tests (Mirtich 1998's five states). X's feature is always the lower-
 * dimensional one; px, py receive the closest points (or the witness) on X and Y. ---- */

/* The first plane of vertex v's cone (at V) that x violates: the neighbour, or -1. */
static int vor_cone_violation(const col_vor_body *b, int v, col_vec3 V, col_vec3 x)
{
    const col_hull *h = b->h;
    col_vec3 xv = col_sub(x, V);
    for (int k = h->adj_first[v]; k < h->adj_first[v + 1]; k++)
        if (col_dot(xv, col_sub(V, col_vor_vert(b, h->adj[k]))) < 0.0) return h->adj[k];
    return -1;
}

/* Vertex-vertex: each vertex against the other's cone. */
static int vor_vv(const col_vor_body *X, col_vor_feature *fx, const col_vor_body *Y, col_vor_feature *fy, col_vec3 *px,
                 col_vec3 *py)
{
    col_vec3 P = col_vor_vert(X, fx->index), Q = col_vor_vert(Y, fy->index);
    int w = vor_cone_violation(X, fx->index, P, Q);
    if (w >= 0) {
        *fx = col_vor_edge_feat(X->h, fx->index, w);
        return VOR_CONTINUE;
    }
    w = vor_cone_violation(Y, fy->index, Q, P);
    if (w >= 0) {
        *fy = col_vor_edge_feat(Y->h, fy->index, w);
        return VOR_CONTINUE;
    }
    *px = P;
    *py = Q;
    return col_vor_is_zero(col_sub(P, Q)) ? VOR_TOUCH : VOR_DISJOINT;
}

/* Vertex-edge: the vertex against the edge's region, then the edge clipped
 * against the vertex's cone with the derivative of |E(l) - P|^2 at the clip points. */
static int vor_ve(const vor_ctx *c, const col_vor_body *X, col_vor_feature *fx, const col_vor_body *Y, col_vor_feature *fy, col_vec3 *px,
                 col_vec3 *py)
{
    const col_hull *hx = X->h, *hy = Y->h;
    int v = fx->index, e = fy->index;
    int t = hy->edge_verts[2 * e], hd = hy->edge_verts[2 * e + 1];
    col_vec3 P = col_vor_vert(X, v), T = col_vor_vert(Y, t), H = col_vor_vert(Y, hd), u = col_sub(H, T);

    if (col_dot(col_sub(P, T), u) < 0.0) {
        *fy = col_vor_feat(COL_VOR_VERTEX, t);
        return VOR_CONTINUE;
    }
    if (col_dot(col_sub(P, H), u) > 0.0) {
        *fy = col_vor_feat(COL_VOR_VERTEX, hd);
        return VOR_CONTINUE;
    }
    for (int side = 0; side < 2; side++) {
        int f;
        col_vor_plane pl = col_vor_edge_face_plane(Y, e, side, &f);
        if (col_vor_val(&pl, P) < 0.0) {
            *fy = col_vor_feat(COL_VOR_FACE, f);
            return VOR_CONTINUE;
        }
    }

    double lmin = 0.0, lmax = 1.0;
    int nmin = -1, nmax = -1, excluded = 0;
    for (int k = hx->adj_first[v]; k < hx->adj_first[v + 1] && !excluded; k++) {
        int w = hx->adj[k];
        col_vec3 n = col_sub(P, col_vor_vert(X, w));
        double dt = col_dot(col_sub(T, P), n), dh = col_dot(col_sub(H, P), n);
        if (dt >= 0.0) {
            if (dh >= 0.0) continue;
            double lam = dt / (dt - dh);
            if (lam < lmax) {
                lmax = lam;
                nmax = w;
                excluded = lmax < lmin;
            }
        } else {
            if (dh < 0.0) {
                *fx = col_vor_edge_feat(hx, v, w);
                return VOR_CONTINUE;
            }
            double lam = dt / (dt - dh);
            if (lam > lmin) {
                lmin = lam;
                nmin = w;
                excluded = lmin > lmax;
            }
        }
    }
    if (excluded) { /* compound exclusion: the minimum lies beyond one of the two planes */
        col_vec3 off = col_sub(col_vor_lerp(T, u, lmin), P);
        *fx = col_vor_edge_feat(hx, v, col_dot(off, u) > 0.0 ? nmin : nmax);
        return VOR_CONTINUE;
    }
    /* Derivative checks; a derivative within rounding (parallel edges) is settled by
     * comparing distances instead: move to the vertex's edge only if that edge is
     * closer to E than the vertex by more than rounding (never back: monotone). */
    double tie = c->tol * col_len(u);
    double s = col_dot(col_sub(P, T), u) / col_dot(u, u);
    s = s < 0.0 ? 0.0 : s > 1.0 ? 1.0 : s;
    col_vec3 Q = col_vor_lerp(T, u, s);
    double dcur = -1.0;
    for (int k = 0; k < 2; k++) {
        int nb = k == 0 ? nmin : nmax;
        if (nb < 0) continue;
        col_vec3 off = col_sub(col_vor_lerp(T, u, k == 0 ? lmin : lmax), P);
        if (col_vor_is_zero(off)) goto touch;
        double dv = k == 0 ? col_dot(off, u) : -col_dot(off, u);
        int move = dv > tie;
        if (!move && dv > -tie) {
            if (dcur < 0.0) dcur = col_len(col_sub(P, Q));
            double a, b;
            double dn = sqrt(col_vor_segment_closest(P, col_vor_vert(X, nb), T, H, &a, &b));
            move = dn < dcur - VOR_TIE_D * c->tol;
        }
        if (move) {
            *fx = col_vor_edge_feat(hx, v, nb);
            return VOR_CONTINUE;
        }
    }
    *px = P;
    *py = Q;
    return col_vor_is_zero(col_sub(*px, *py)) ? VOR_TOUCH : VOR_DISJOINT;
touch:
    *px = *py = P;
    return VOR_TOUCH;
}

/* Vertex-face: the vertex against the face's side planes (most violated,
 * normalised), then whether an edge of the vertex points toward the face plane; a
 * vertex below the face with no such edge is a local minimum: scan every face of Y
 * (O(F), counted) for the largest signed distance; none positive means the vertex is
 * inside Y (penetration). */
static int vor_vf(vor_ctx *c, const col_vor_body *X, col_vor_feature *fx, const col_vor_body *Y, col_vor_feature *fy,
                 col_vec3 *px, col_vec3 *py)
{
    const col_hull *hx = X->h, *hy = Y->h;
    int v = fx->index, f = fy->index;
    col_vec3 P = col_vor_vert(X, v), n = col_vor_normal(Y, f);
    const int *ring = hy->face_verts + hy->face_first[f];
    int len = hy->face_first[f + 1] - hy->face_first[f];

    double worst = 0.0;
    int wa = -1, wb = -1;
    for (int i = 0; i < len; i++) {
        int a = ring[i], b = ring[i + 1 == len ? 0 : i + 1];
        col_vor_plane pl = col_vor_side_plane(Y, n, a, b);
        double val = col_vor_val(&pl, P);
        if (val < 0.0) {
            val /= col_len(pl.n);
            if (val < worst) {
                worst = val;
                wa = a;
                wb = b;
            }
        }
    }
    if (wa >= 0) {
        *fy = col_vor_edge_feat(hy, wa, wb);
        return VOR_CONTINUE;
    }

    col_vec3 A0 = col_vor_vert(Y, ring[0]);
    double d = col_dot(n, col_sub(P, A0));
    if (d == 0.0) {
        *px = *py = P;
        return VOR_TOUCH;
    }
    for (int k = hx->adj_first[v]; k < hx->adj_first[v + 1]; k++) {
        double d2 = col_dot(n, col_sub(col_vor_vert(X, hx->adj[k]), A0));
        if ((d < 0.0 && d2 > d + c->tol) || (d > 0.0 && d2 < d - c->tol)) {
            *fx = col_vor_edge_feat(hx, v, hx->adj[k]);
            return VOR_CONTINUE;
        }
    }
    if (d > 0.0) {
        *px = P;
        *py = col_sub(P, col_scale(n, d));
        return VOR_DISJOINT;
    }
    c->scans++;
    double best = d;
    int bf = f;
    for (int g = 0; g < hy->face_count; g++) {
        double dg = col_vor_face_dist(Y, g, col_vor_normal(Y, g), P);
        if (dg > best) {
            best = dg;
            bf = g;
        }
    }
    if (best > 0.0) {
        *fy = col_vor_feat(COL_VOR_FACE, bf);
        return VOR_CONTINUE;
    }
    *px = *py = P;
    return best == 0.0 ? VOR_TOUCH : VOR_PENETRATION;
}

/* Edge-edge's clip of segment S0 S1 (S0 + l s, l in [0, 1]) against an edge's region:
 * the clip interval [lmin, lmax] and the neighbours whose planes bound it. */
typedef struct vor_ee_clip {
    col_vec3 S0, S1, s;
    double lmin, lmax;
    col_vor_feature nmin, nmax;
} vor_ee_clip;

/* vor_ee_sub's steps answer VOR_CONTINUE, VOR_DONE, or one of these. */
enum { VOR_EE_GO_ON = -1, VOR_EE_TOUCH_MIN = -2, VOR_EE_TOUCH_MAX = -3 };

/* Narrows the clip interval by a plane with values dt at S0 and dh at S1, not both
 * below it, whose neighbour across is nb. Returns 1 if the interval changed. */
static int vor_ee_narrow(vor_ee_clip *cl, double dt, double dh, col_vor_feature nb)
{
    if (dt < 0.0) {
        double lam = dt / (dt - dh);
        if (lam > cl->lmin) {
            cl->lmin = lam;
            cl->nmin = nb;
            return 1;
        }
    } else if (dh < 0.0) {
        double lam = dt / (dt - dh);
        if (lam < cl->lmax) {
            cl->lmax = lam;
            cl->nmax = nb;
            return 1;
        }
    }
    return 0;
}

/* The vertex planes of edge e (tail t, head hd): (x - T).u >= 0 (neighbour T),
 * -(x - H).u >= 0 (neighbour H). A segment below one of them moves fe to that vertex. */
static int vor_ee_vertex_planes(const col_vor_body *R, int e, col_vor_feature *fe, vor_ee_clip *cl)
{
    const col_hull *h = R->h;
    int t = h->edge_verts[2 * e], hd = h->edge_verts[2 * e + 1];
    col_vec3 T = col_vor_vert(R, t), H = col_vor_vert(R, hd), u = col_sub(H, T);
    for (int k = 0; k < 2; k++) {
        double dt = k == 0 ? col_dot(col_sub(cl->S0, T), u) : -col_dot(col_sub(cl->S0, H), u);
        double dh = k == 0 ? col_dot(col_sub(cl->S1, T), u) : -col_dot(col_sub(cl->S1, H), u);
        int nb = k == 0 ? t : hd;
        if (dt < 0.0 && dh < 0.0) {
            *fe = col_vor_feat(COL_VOR_VERTEX, nb);
            return VOR_CONTINUE;
        }
        vor_ee_narrow(cl, dt, dh, col_vor_feat(COL_VOR_VERTEX, nb));
    }
    return VOR_EE_GO_ON;
}

/* A segment simply excluded by face g's plane: V-Clip's vertex derivatives at the
 * vertex-plane clip points (lvmin, vmin; lvmax, vmax) first, else fe moves to g. */
static int vor_ee_face_excluded(const col_vor_body *R, col_vor_feature *fe, const vor_ee_clip *cl, int g,
                                col_vor_feature vmin, double lvmin, col_vor_feature vmax, double lvmax)
{
    if (vmin.type == COL_VOR_VERTEX) {
        col_vec3 off = col_sub(col_vor_lerp(cl->S0, cl->s, lvmin), col_vor_vert(R, vmin.index));
        if (col_vor_is_zero(off)) return VOR_EE_TOUCH_MIN;
        if (col_dot(off, cl->s) > 0.0) {
            *fe = vmin;
            return VOR_CONTINUE;
        }
    }
    if (vmax.type == COL_VOR_VERTEX) {
        col_vec3 off = col_sub(col_vor_lerp(cl->S0, cl->s, lvmax), col_vor_vert(R, vmax.index));
        if (col_vor_is_zero(off)) return VOR_EE_TOUCH_MAX;
        if (col_dot(off, cl->s) < 0.0) {
            *fe = vmax;
            return VOR_CONTINUE;
        }
    }
    *fe = col_vor_feat(COL_VOR_FACE, g);
    return VOR_CONTINUE;
}

/* The two face planes of edge e. Sets *excluded when the clip interval empties. */
static int vor_ee_face_planes(const col_vor_body *R, int e, col_vor_feature *fe, vor_ee_clip *cl, int *excluded)
{
    col_vor_feature vmin = cl->nmin, vmax = cl->nmax;
    double lvmin = cl->lmin, lvmax = cl->lmax;
    *excluded = 0;
    for (int side = 0; side < 2 && !*excluded; side++) {
        int g;
        col_vor_plane pl = col_vor_edge_face_plane(R, e, side, &g);
        double dt = col_vor_val(&pl, cl->S0), dh = col_vor_val(&pl, cl->S1);
        if (dt < 0.0 && dh < 0.0) return vor_ee_face_excluded(R, fe, cl, g, vmin, lvmin, vmax, lvmax);
        if (vor_ee_narrow(cl, dt, dh, col_vor_feat(COL_VOR_FACE, g))) *excluded = cl->lmin > cl->lmax;
    }
    return VOR_EE_GO_ON;
}

/* Compound exclusion (the interval emptied): the derivative at a bounding plane says
 * which neighbour fe moves to. */
static int vor_ee_compound(const col_vor_body *R, col_vor_feature *fe, const vor_ee_clip *cl)
{
    col_vor_feature nmin = cl->nmin, nmax = cl->nmax;
    if (nmin.type == COL_VOR_VERTEX) {
        col_vec3 off = col_sub(col_vor_lerp(cl->S0, cl->s, cl->lmin), col_vor_vert(R, nmin.index));
        if (col_vor_is_zero(off)) return VOR_EE_TOUCH_MIN;
        *fe = col_dot(off, cl->s) >= 0.0 ? nmin : nmax;
        return VOR_CONTINUE;
    }
    if (nmax.type == COL_VOR_VERTEX) {
        col_vec3 off = col_sub(col_vor_lerp(cl->S0, cl->s, cl->lmax), col_vor_vert(R, nmax.index));
        if (col_vor_is_zero(off)) return VOR_EE_TOUCH_MAX;
        *fe = col_dot(off, cl->s) <= 0.0 ? nmax : nmin;
        return VOR_CONTINUE;
    }
    col_vec3 ng = col_vor_normal(R, nmin.index);
    double dt = col_vor_face_dist(R, nmin.index, ng, cl->S0), dh = col_vor_face_dist(R, nmin.index, ng, cl->S1);
    double dm = dt + cl->lmin * (dh - dt);
    if (dm == 0.0) return VOR_EE_TOUCH_MIN;
    *fe = dm > 0.0 ? (dt < dh ? nmin : nmax) : (dt > dh ? nmin : nmax);
    return VOR_CONTINUE;
}

/* The segment meets the region: the distance's derivatives at the two clip points say
 * whether it decreases beyond one of them (fe moves to that neighbour) or not (done). */
static int vor_ee_derivatives(const vor_ctx *c, const col_vor_body *R, col_vor_feature *fe, const vor_ee_clip *cl)
{
    col_vor_feature nmin = cl->nmin, nmax = cl->nmax;
    col_vec3 S0 = cl->S0, S1 = cl->S1, s = cl->s;
    double tie = c->tol * col_len(s);
    if (nmin.type == COL_VOR_FACE) {
        col_vec3 ng = col_vor_normal(R, nmin.index);
        double dt = col_vor_face_dist(R, nmin.index, ng, S0), dh = col_vor_face_dist(R, nmin.index, ng, S1);
        double dmn = dt + cl->lmin * (dh - dt);
        if (dmn == 0.0) return VOR_EE_TOUCH_MIN;
        if ((dmn > 0.0 && dh - dt > c->tol) || (dmn < 0.0 && dh - dt < -c->tol)) {
            *fe = nmin;
            return VOR_CONTINUE;
        }
    } else if (nmin.type == COL_VOR_VERTEX) {
        col_vec3 off = col_sub(col_vor_lerp(S0, s, cl->lmin), col_vor_vert(R, nmin.index));
        if (col_vor_is_zero(off)) return VOR_EE_TOUCH_MIN;
        if (col_dot(off, s) > tie) {
            *fe = nmin;
            return VOR_CONTINUE;
        }
    }
    if (nmax.type == COL_VOR_FACE) {
        col_vec3 ng = col_vor_normal(R, nmax.index);
        double dt = col_vor_face_dist(R, nmax.index, ng, S0), dh = col_vor_face_dist(R, nmax.index, ng, S1);
        double dmx = dt + cl->lmax * (dh - dt);
        if (dmx == 0.0) return VOR_EE_TOUCH_MAX;
        if ((dmx > 0.0 && dh - dt < -c->tol) || (dmx < 0.0 && dh - dt > c->tol)) {
            *fe = nmax;
            return VOR_CONTINUE;
        }
    } else if (nmax.type == COL_VOR_VERTEX) {
        col_vec3 off = col_sub(col_vor_lerp(S0, s, cl->lmax), col_vor_vert(R, nmax.index));
        if (col_vor_is_zero(off)) return VOR_EE_TOUCH_MAX;
        if (col_dot(off, s) < -tie) {
            *fe = nmax;
            return VOR_CONTINUE;
        }
    }
    return VOR_DONE;
}

/* One half of edge-edge: segment S0 S1 of the other body clipped against the region of
 * edge fe of body R: the vertex planes first, then the two face planes, with V-Clip's
 * derivative checks. Returns VOR_CONTINUE (fe moved), VOR_TOUCH (witness in *wit) or
 * VOR_DONE (S meets the region and the distance is not smaller beyond any clip point). */
static int vor_ee_sub(const vor_ctx *c, const col_vor_body *R, col_vor_feature *fe, col_vec3 S0, col_vec3 S1,
                      col_vec3 *wit)
{
    int e = fe->index;
    vor_ee_clip cl = {S0, S1, col_sub(S1, S0), 0.0, 1.0, {-1, -1}, {-1, -1}};
    int excluded = 0;
    int r = vor_ee_vertex_planes(R, e, fe, &cl);
    if (r == VOR_EE_GO_ON) r = vor_ee_face_planes(R, e, fe, &cl, &excluded);
    if (r == VOR_EE_GO_ON) r = excluded ? vor_ee_compound(R, fe, &cl) : vor_ee_derivatives(c, R, fe, &cl);
    if (r == VOR_EE_TOUCH_MIN) {
        *wit = col_vor_lerp(S0, cl.s, cl.lmin);
        return VOR_TOUCH;
    }
    if (r == VOR_EE_TOUCH_MAX) {
        *wit = col_vor_lerp(S0, cl.s, cl.lmax);
        return VOR_TOUCH;
    }
    return r;
}

/* Edge-edge: each edge clipped against the other's region; if neither
 * moves, the closest points of the two segments. */
static int vor_ee(const vor_ctx *c, const col_vor_body *X, col_vor_feature *fx, const col_vor_body *Y, col_vor_feature *fy, col_vec3 *px,
                 col_vec3 *py)
{
    const col_hull *hx = X->h, *hy = Y->h;
    int ex = fx->index, ey = fy->index;
    col_vec3 T1 = col_vor_vert(X, hx->edge_verts[2 * ex]), H1 = col_vor_vert(X, hx->edge_verts[2 * ex + 1]);
    col_vec3 w;
    int r = vor_ee_sub(c, Y, fy, T1, H1, &w);
    if (r == VOR_DONE) {
        col_vec3 T2 = col_vor_vert(Y, hy->edge_verts[2 * ey]), H2 = col_vor_vert(Y, hy->edge_verts[2 * ey + 1]);
        r = vor_ee_sub(c, X, fx, T2, H2, &w);
        if (r == VOR_DONE) {
            double s, t;
            double d2 = col_vor_segment_closest(T1, H1, T2, H2, &s, &t);
            *px = col_vor_lerp(T1, col_sub(H1, T1), s);
            *py = col_vor_lerp(T2, col_sub(H2, T2), t);
            return d2 > 0.0 ? VOR_DISJOINT : VOR_TOUCH;
        }
    }
    if (r == VOR_TOUCH) *px = *py = w;
    return r;
}

/* Edge-face: the edge clipped against the face's side planes. If it misses
 * the face's prism, the face is replaced by its boundary feature nearest to the edge
 * (see the file comment). Otherwise the signed distances to the face plane at the clip
 * points decide: a sign change (or a zero) is a crossing inside the face, a common
 * point of the two bodies; equal signs move toward the smaller |distance|. */
static int vor_ef(const vor_ctx *c, const col_vor_body *X, col_vor_feature *fx, const col_vor_body *Y, col_vor_feature *fy, col_vec3 *px,
                 col_vec3 *py)
{
    const col_hull *hx = X->h, *hy = Y->h;
    int e = fx->index, f = fy->index;
    int t = hx->edge_verts[2 * e], hd = hx->edge_verts[2 * e + 1];
    col_vec3 T = col_vor_vert(X, t), H = col_vor_vert(X, hd), u = col_sub(H, T), n = col_vor_normal(Y, f);
    const int *ring = hy->face_verts + hy->face_first[f];
    int len = hy->face_first[f + 1] - hy->face_first[f];

    double lmin = 0.0, lmax = 1.0;
    int cmin = -1, cmax = -1, chop = 0;
    for (int i = 0; i < len && !chop; i++) {
        col_vor_plane pl = col_vor_side_plane(Y, n, ring[i], ring[i + 1 == len ? 0 : i + 1]);
        double dt = col_vor_val(&pl, T), dh = col_vor_val(&pl, H);
        if (dt >= 0.0) {
            if (dh < 0.0) {
                double lam = dt / (dt - dh);
                if (lam < lmax) {
                    lmax = lam;
                    cmax = i;
                }
            }
        } else if (dh >= 0.0) {
            double lam = dt / (dt - dh);
            if (lam > lmin) {
                lmin = lam;
                cmin = i;
            }
        } else {
            chop = 1;
        }
    }
    if (chop || lmin > lmax) {
        double best = INFINITY;
        col_vor_feature nb = {COL_VOR_VERTEX, ring[0]};
        for (int i = 0; i < len; i++) {
            int a = ring[i], b = ring[i + 1 == len ? 0 : i + 1];
            double s, q;
            double d2 = col_vor_segment_closest(T, H, col_vor_vert(Y, a), col_vor_vert(Y, b), &s, &q);
            if (d2 < best) {
                best = d2;
                nb = q <= 0.0 ? col_vor_feat(COL_VOR_VERTEX, a) : q >= 1.0 ? col_vor_feat(COL_VOR_VERTEX, b) : col_vor_edge_feat(hy, a, b);
            }
        }
        *fy = nb;
        return VOR_CONTINUE;
    }

    col_vec3 A0 = col_vor_vert(Y, ring[0]);
    double dt = col_dot(n, col_sub(T, A0)), dh = col_dot(n, col_sub(H, A0));
    double dmn = cmin >= 0 ? dt + lmin * (dh - dt) : dt;
    double dmx = cmax >= 0 ? dt + lmax * (dh - dt) : dh;
    if ((dmn <= 0.0 && dmx >= 0.0) || (dmn >= 0.0 && dmx <= 0.0)) {
        double lam = dmn == dmx ? lmin : lmin + (lmax - lmin) * (dmn / (dmn - dmx));
        *px = *py = col_vor_lerp(T, u, lam);
        return (dmn < 0.0 || dmx < 0.0) ? VOR_PENETRATION : VOR_TOUCH;
    }
    if (fabs(dh - dt) <= c->tol) {
        /* Parallel to the face within rounding: both ends are equally far from the
         * plane (the tie rule; vertex-face applies the same one, so a vertex reached
         * here does not move back along e). V-Clip's rule for equal distances: an end
         * inside the face's prism (the tail first), else the face edge at the tail's
         * clip point. */
        if (cmin < 0)
            *fx = col_vor_feat(COL_VOR_VERTEX, t);
        else if (cmax < 0)
            *fx = col_vor_feat(COL_VOR_VERTEX, hd);
        else
            *fy = col_vor_edge_feat(hy, ring[cmin], ring[cmin + 1 == len ? 0 : cmin + 1]);
        return VOR_CONTINUE;
    }
    if ((dmn > 0.0 && dt <= dh) || (dmn < 0.0 && dt >= dh)) {
        if (cmin >= 0)
            *fy = col_vor_edge_feat(hy, ring[cmin], ring[cmin + 1 == len ? 0 : cmin + 1]);
        else
            *fx = col_vor_feat(COL_VOR_VERTEX, t);
    } else {
        if (cmax >= 0)
            *fy = col_vor_edge_feat(hy, ring[cmax], ring[cmax + 1 == len ? 0 : cmax + 1]);
        else
            *fx = col_vor_feat(COL_VOR_VERTEX, hd);
    }
    return VOR_CONTINUE;
}

/* One V-Clip step on the pair (fa on A, fb on B). */
static int vor_step(vor_ctx *c, col_vor_feature *fa, col_vor_feature *fb, col_vec3 *pa, col_vec3 *pb)
{
    const col_vor_body *A = &c->A, *B = &c->B;
    switch (fa->type * 3 + fb->type) {
    case COL_VOR_VERTEX * 3 + COL_VOR_VERTEX: return vor_vv(A, fa, B, fb, pa, pb);
    case COL_VOR_VERTEX * 3 + COL_VOR_EDGE: return vor_ve(c, A, fa, B, fb, pa, pb);
    case COL_VOR_EDGE * 3 + COL_VOR_VERTEX: return vor_ve(c, B, fb, A, fa, pb, pa);
    case COL_VOR_VERTEX * 3 + COL_VOR_FACE: return vor_vf(c, A, fa, B, fb, pa, pb);
    case COL_VOR_FACE * 3 + COL_VOR_VERTEX: return vor_vf(c, B, fb, A, fa, pb, pa);
    case COL_VOR_EDGE * 3 + COL_VOR_EDGE: return vor_ee(c, A, fa, B, fb, pa, pb);
    case COL_VOR_EDGE * 3 + COL_VOR_FACE: return vor_ef(c, A, fa, B, fb, pa, pb);
    case COL_VOR_FACE * 3 + COL_VOR_EDGE: return vor_ef(c, B, fb, A, fa, pb, pa);
    default: return VOR_CYCLE; /* face-face never arises from a valid start */
    }
}

static uint64_t vor_key(col_vor_feature a, col_vor_feature b)
{
    return ((uint64_t)(((uint32_t)a.index << 2) | (uint32_t)a.type) << 32) | (((uint32_t)b.index << 2) | (uint32_t)b.type);
}

/* Runs the walk to a verdict, a repeated pair or the cap. */
static int vor_walk(vor_ctx *c, col_vor_feature *fa, col_vor_feature *fb, int cap, col_vec3 *pa, col_vec3 *pb,
                   int *steps)
{
    uint64_t ring[VOR_RING];
    int n = 0;
    ring[n++] = vor_key(*fa, *fb);
    for (int s = 0; s < cap; s++) {
        (*steps)++;
        int r = vor_step(c, fa, fb, pa, pb);
        if (r != VOR_CONTINUE) return r;
        if (fa->index < 0 || fb->index < 0) return VOR_CYCLE; /* ALWAYS-style guard: bad edge lookup */
        uint64_t key = vor_key(*fa, *fb);
        int m = n < VOR_RING ? n : VOR_RING;
        for (int k = 0; k < m; k++)
            if (ring[k] == key) return VOR_CYCLE;
        ring[n++ % VOR_RING] = key;
    }
    return VOR_CYCLE;
}

static int vor_feature_ok(const col_hull *h, col_vor_feature f)
{
    switch (f.type) {
    case COL_VOR_VERTEX: return f.index >= 0 && f.index < h->vertex_count;
    case COL_VOR_EDGE: return f.index >= 0 && f.index < h->edge_count;
    case COL_VOR_FACE: return f.index >= 0 && f.index < h->face_count;
    default: return 0;
    }
}

/* Start pairs: attempt 0 the cache (if valid), else and then the supports along the
 * centroid difference (hill climbing from vertex 0), last vertex 0 of each hull. */
static void vor_start(const vor_ctx *c, int kind, col_vor_feature *fa, col_vor_feature *fb)
{
    if (kind == 0) {
        col_vec3 d = col_sub(col_xform_point(c->B.x, c->B.h->centroid), col_xform_point(c->A.x, c->A.h->centroid));
        if (col_vor_is_zero(d)) d = col_v3(1.0, 0.0, 0.0);
        double val;
        *fa = col_vor_feat(COL_VOR_VERTEX, col_vor_climb(&c->A, 0, d, &val));
        *fb = col_vor_feat(COL_VOR_VERTEX, col_vor_climb(&c->B, 0, col_neg(d), &val));
    } else {
        *fa = col_vor_feat(COL_VOR_VERTEX, 0);
        *fb = col_vor_feat(COL_VOR_VERTEX, 0);
    }
}

/* ---- certificates ---- */

/* What certifies a DISJOINT walk end. V-Clip stops when the closest points lie in each
 * other's regions (the closest-feature theorem of Lin & Canny 1991 and Mirtich 1998); rounding can end the walk early at a
 * degenerate region, so the end is verified: a unit axis from A to B and the gap
 * min_B axis.b - max_A axis.a by hill-climbed supports. The gap is a lower bound of the
 * distance and |pb - pa| an upper one; they must agree. */
typedef struct vor_cert {
    col_vec3 axis;
    double gap, bound; /* the best axis's computed gap and its rounding bound */
    double bound0;     /* the rounding bound for a unit axis of gap 0 (touching test) */
    int va, vb;        /* supports along the best axis */
} vor_cert;

static double vor_bound(col_vec3 n, double gap, double M)
{
    return VOR_BOUND_C * DBL_EPSILON * (fabs(n.x) + fabs(n.y) + fabs(n.z)) * M + VOR_GAP_C * DBL_EPSILON * fabs(gap);
}

static int vor_cert_ok(const vor_cert *ct, double d, int want_distance)
{
    if (!(ct->gap - ct->bound > 0.0)) return 0;
    return !want_distance || ct->gap >= d - (VOR_DIST_BOUNDS * ct->bound + VOR_DIST_REL * d);
}

/* w without its component along u (twice, so the residual is at rounding level). */
static col_vec3 vor_perp(col_vec3 w, col_vec3 u)
{
    double uu = col_dot(u, u);
    for (int k = 0; k < 2; k++) w = col_sub(w, col_scale(u, col_dot(w, u) / uu));
    return w;
}

/* Evaluates axis n (any length, from A to B); keeps it if it beats the best so far.
 * Returns 1 once the best is good enough. */
static int vor_try_axis(const vor_ctx *c, col_vec3 n, int sa, int sb, double d, double M, int want_distance,
                       vor_cert *best)
{
    /* Scaled before it is squared: an edge-edge axis u1 x u2 of a tiny shape has a squared
     * length below the smallest double (issue 13, finding 3). */
    if (!col_unit_robust(n, &n)) return 0;
    double maxa, minb;
    int va = col_vor_climb(&c->A, sa, n, &maxa);
    int vb = col_vor_climb(&c->B, sb, col_neg(n), &minb);
    double gap = -minb - maxa, bound = vor_bound(n, gap, M);
    if (best->va < 0 || gap - bound > best->gap - best->bound) {
        best->axis = n;
        best->gap = gap;
        best->bound = bound;
        best->va = va;
        best->vb = vb;
    }
    return vor_cert_ok(best, d, want_distance);
}

/* The axes worth trying for each kind of end, most accurate first: a face normal for
 * vertex-face; the vertex's offset made exactly perpendicular to the edge for
 * vertex-edge (pb - pa itself is rounded at the scale of the coordinates, which tilts
 * it by ~eps M / d and moves a face or edge support by that tilt times its extent,
 * while a perpendicular axis errs only to second order); u1 x u2 for edge-edge, then
 * the offset made perpendicular to either edge (nearly parallel edges); the raw offset
 * last. */
static void vor_certify(const vor_ctx *c, col_vor_feature fa, col_vor_feature fb, col_vec3 pa, col_vec3 pb, double d,
                       double M, int want_distance, vor_cert *ct)
{
    const col_hull *ha = c->A.h, *hb = c->B.h;
    int sa = col_vor_some_vertex(ha, fa), sb = col_vor_some_vertex(hb, fb);
    col_vec3 off = col_sub(pb, pa), ua = {0, 0, 0}, ub = {0, 0, 0};
    memset(ct, 0, sizeof *ct);
    ct->va = ct->vb = -1;
    ct->bound0 = vor_bound(col_v3(1.0, 1.0, 1.0), 0.0, M);
    if (fa.type == COL_VOR_EDGE)
        ua = col_sub(col_vor_vert(&c->A, ha->edge_verts[2 * fa.index + 1]), col_vor_vert(&c->A, ha->edge_verts[2 * fa.index]));
    if (fb.type == COL_VOR_EDGE)
        ub = col_sub(col_vor_vert(&c->B, hb->edge_verts[2 * fb.index + 1]), col_vor_vert(&c->B, hb->edge_verts[2 * fb.index]));
#define VOR_TRY(n) \
    do { \
        if (vor_try_axis(c, (n), sa, sb, d, M, want_distance, ct)) return; \
    } while (0)
    if (fb.type == COL_VOR_FACE) VOR_TRY(col_neg(col_vor_normal(&c->B, fb.index)));
    if (fa.type == COL_VOR_FACE) VOR_TRY(col_vor_normal(&c->A, fa.index));
    if (fa.type == COL_VOR_EDGE && fb.type == COL_VOR_EDGE) {
        col_vec3 x = col_cross(ua, ub);
        VOR_TRY(col_dot(x, off) < 0.0 ? col_neg(x) : x);
    }
    if (fa.type == COL_VOR_EDGE) VOR_TRY(vor_perp(col_sub(pb, col_vor_vert(&c->A, ha->edge_verts[2 * fa.index])), ua));
    if (fb.type == COL_VOR_EDGE) VOR_TRY(col_neg(vor_perp(col_sub(pa, col_vor_vert(&c->B, hb->edge_verts[2 * fb.index])), ub)));
    VOR_TRY(off);
#undef VOR_TRY
}

/* The climbed gap is only as good as the climb: at a vertex whose cone is nearly a
 * half-space (near-coplanar facets), or where the world vertices' rounding (eps of the
 * coordinates, far from the origin) exceeds the rise along an edge, a computed local
 * maximum sits below the global one, by up to the rounding times the number of such
 * edges. So the axis is re-certified by a full projection of both hulls (certify.h: the
 * local frames first, the centred world vertices when that is inconclusive), whose
 * bound is proven; its gap is the one returned. If it does not hold, the extreme
 * vertices of the projection (the true supports along the axis) replace the climbed
 * ones for a restart. Returns 1 with *gap when certified (and, with want_distance,
 * consistent with the walk's distance d). */
static int vor_recertify(const vor_ctx *c, double d, int want_distance, vor_cert *ct, double *gap)
{
    col_np_gap g = col_np_certify_gap(c->A.h, c->A.x, c->B.h, c->B.x, ct->axis);
    if (g.certified > 0.0 && (!want_distance || g.raw >= d - (VOR_DIST_BOUNDS * ct->bound + VOR_DIST_REL * d))) {
        *gap = g.certified;
        return 1;
    }
    ct->va = g.ia;
    ct->vb = g.ib;
    return 0;
}

/* ---- the query ---- */

/* The walk keeps its state on the stack; the scratch is the reference fallback's, so the
 * need is the reference's (which follows backend.h's scratch rule). */
static size_t vor_scratch_need(col_np_counts a, col_np_counts b)
{
    return col_np_reference.scratch_need(a, b);
}

size_t col_vor_scratch_bytes(const col_hull *a, const col_hull *b)
{
    return vor_scratch_need(col_np_counts_of(a), col_np_counts_of(b));
}

/* Bound on every world coordinate of a hull at a pose. */
static double vor_coord_bound(const col_vor_body *b)
{
    return col_max_abs(b->x->p) + 1.01 * b->h->radius;
}

/* One query's state (the steps below share it). */
typedef struct vor_query {
    vor_ctx c;
    col_vor_result *out;
    col_vor_feature fa, fb; /* the walk's features */
    col_vec3 dir_a, dir_b;  /* the centroid direction in A's and B's frame (jump test) */
    double M;               /* bound on every world coordinate */
    int want_distance;
    int no_jump_test;       /* COL_VOR_NO_JUMP_TEST */
    int kind;               /* next start after the cache: 0 supports, 1 vertex 0, 2 none left */
    int cap;                /* steps of one walk */
} vor_query;

/* What an attempt says besides a verdict (an outcome, >= 0). */
enum { VOR_Q_AGAIN = -1, VOR_Q_STOP = -2 };

/* The start: the cached features, unless the centroid direction jumped since (then the
 * starts of vor_start, as without a cache). */
static void vor_query_start(vor_query *q, const col_vor_cache *cache)
{
    const col_hull *a = q->c.A.h, *b = q->c.B.h;
    const col_xform *xa = q->c.A.x, *xb = q->c.B.x;
    col_vor_result *out = q->out;
    q->kind = 0;
    col_vec3 cc = col_sub(col_xform_point(xb, b->centroid), col_xform_point(xa, a->centroid));
    double cl = col_len(cc);
    cc = cl > 0.0 ? col_scale(cc, 1.0 / cl) : col_v3(0.0, 0.0, 0.0);
    q->dir_a = col_mat3_tmul(&xa->R, cc);
    q->dir_b = col_neg(col_mat3_tmul(&xb->R, cc));
    if (cache != NULL && cache->valid && cl > 0.0 && col_dot(cache->dir_a, cache->dir_a) > 0.0 &&
        !q->no_jump_test &&
        (col_dot(q->dir_a, cache->dir_a) < VOR_JUMP_COS || col_dot(q->dir_b, cache->dir_b) < VOR_JUMP_COS))
        out->jumped = 1;
    if (cache != NULL && cache->valid && !out->jumped && vor_feature_ok(a, cache->fa) && vor_feature_ok(b, cache->fb) &&
        !(cache->fa.type == COL_VOR_FACE && cache->fb.type == COL_VOR_FACE)) {
        q->fa = cache->fa;
        q->fb = cache->fb;
        out->warm = 1;
    } else {
        vor_start(&q->c, q->kind++, &q->fa, &q->fb);
    }
}

/* A walk that ended disjoint at closest points pa, pb: a certified separation, a
 * distance within the touching band, or a pair that is not closest. Returns the
 * verdict, VOR_Q_AGAIN or VOR_Q_STOP (the band: the reference decides). */
static int vor_disjoint(vor_query *q, col_vec3 pa, col_vec3 pb)
{
    col_vor_result *out = q->out;
    double d = col_len(col_sub(pb, pa));
    vor_cert ct;
    double cg = 0.0;
    int verdict;
    vor_certify(&q->c, q->fa, q->fb, pa, pb, d, q->M, q->want_distance, &ct);
    if (vor_cert_ok(&ct, d, q->want_distance) && vor_recertify(&q->c, d, q->want_distance, &ct, &cg)) {
        verdict = COL_VOR_SEPARATED;
        out->axis = ct.axis;
        out->gap = cg;
    } else if (!(d > VOR_TOUCH_BOUNDS * ct.bound0)) {
        if (!q->want_distance) {
            out->band = 1; /* the reference decides the rounding band */
            out->pa = pa;
            out->pb = pb;
            out->distance = d;
            return VOR_Q_STOP;
        }
        verdict = COL_VOR_TOUCHING;
    } else {
        /* The walk stopped at a pair that is not closest (possible only through
         * rounding at degenerate regions): restart from the supports just found,
         * which are closer to the answer. */
        out->cert_failures++;
        q->fa = col_vor_feat(COL_VOR_VERTEX, ct.va);
        q->fb = col_vor_feat(COL_VOR_VERTEX, ct.vb);
        return VOR_Q_AGAIN;
    }
    out->pa = pa;
    out->pb = pb;
    out->distance = d;
    return verdict;
}

/* One walk and what its end proves. Returns the verdict, VOR_Q_AGAIN or VOR_Q_STOP (the
 * reference decides). */
static int vor_attempt(vor_query *q)
{
    col_vor_result *out = q->out;
    col_vec3 pa, pb;
    int r = vor_walk(&q->c, &q->fa, &q->fb, q->cap, &pa, &pb, &out->steps);
    if (r == VOR_DISJOINT) return vor_disjoint(q, pa, pb);
    if ((r == VOR_PENETRATION && col_np_prove_overlap(q->c.A.h, q->c.A.x, q->c.B.h, q->c.B.x)) ||
        (r == VOR_TOUCH && q->want_distance)) {
        /* The walk's penetration tests hold up to rounding: pairs apart by 4e-16 of
         * their size came out penetrating (issue 13, finding 7). A strict overlap is
         * proven by four vertex differences around the origin (certify.h); a touch
         * is a distance answer within the rounding band. */
        out->pa = pa;
        out->pb = pb;
        out->distance = 0.0;
        if (r == VOR_TOUCH) out->distance = col_len(col_sub(pb, pa));
        return r == VOR_TOUCH ? COL_VOR_TOUCHING : COL_VOR_PENETRATING;
    }
    if (r == VOR_TOUCH || r == VOR_PENETRATION) {
        /* Unproven: within rounding of contact; the reference decides the band. */
        out->band = 1;
        out->pa = pa;
        out->pb = pb;
        out->distance = r == VOR_TOUCH ? col_len(col_sub(pb, pa)) : 0.0;
        return VOR_Q_STOP;
    }
    out->cycles++;
    if (q->kind > 1) return VOR_Q_STOP;
    vor_start(&q->c, q->kind++, &q->fa, &q->fb);
    return VOR_Q_AGAIN;
}

static void vor_remember(col_vor_cache *cache, const vor_query *q, int valid)
{
    if (cache == NULL) return;
    cache->valid = valid;
    cache->fa = q->fa;
    cache->fb = q->fb;
    cache->dir_a = q->dir_a;
    cache->dir_b = q->dir_b;
}

/* Exact fallback (never an answer from a cycle or an uncertified walk). */
static void vor_fallback(vor_query *q, col_vor_cache *cache, col_np_scratch *scratch)
{
    const col_hull *a = q->c.A.h, *b = q->c.B.h;
    const col_xform *xa = q->c.A.x, *xb = q->c.B.x;
    col_vor_result *out = q->out;
    out->fallbacks++;
    col_np_result ref;
    col_np_reference.query(NULL, a, NULL, xa, b, NULL, xb, scratch, &ref);
    /* After a band decision the features are fine for next time; after a cycle not. */
    vor_remember(cache, q, out->band);
    out->fa = q->fa;
    out->fb = q->fb;
    if (ref.colliding) {
        /* Within rounding of contact (band), or overlapping with no witness from the walk:
         * then the points are only the midpoint of the two centroids. */
        out->outcome = out->band ? COL_VOR_TOUCHING : COL_VOR_PENETRATING;
        if (!out->band) {
            out->pa = col_scale(col_add(col_xform_point(xa, a->centroid), col_xform_point(xb, b->centroid)), 0.5);
            out->pb = out->pa;
        }
        if (!out->band) out->distance = 0.0;
        return;
    }
    out->axis = ref.axis;
    out->gap = ref.gap;
    out->outcome = COL_VOR_SEPARATED;
    if (q->want_distance) {
        col_vor_closest cl;
        col_vor_brute_distance(&q->c.A, &q->c.B, &cl);
        out->distance = cl.distance;
        out->pa = cl.pa;
        out->pb = cl.pb;
        out->fa = cl.fa;
        out->fb = cl.fb;
        if (cache != NULL) {
            cache->valid = 1;
            cache->fa = out->fa;
            cache->fb = out->fb;
        }
        if (!(ref.gap > 0.0)) out->outcome = COL_VOR_TOUCHING;
    }
}

void col_vor_query(col_vor_cache *cache, const col_hull *a, const col_xform *xa, const col_hull *b,
                     const col_xform *xb, int flags, col_np_scratch *scratch, col_vor_result *out)
{
    memset(out, 0, sizeof *out);
    vor_query q;
    q.out = out;
    q.want_distance = (flags & COL_VOR_WANT_DISTANCE) != 0;
    q.no_jump_test = (flags & COL_VOR_NO_JUMP_TEST) != 0;
    q.c.A.h = a;
    q.c.A.x = xa;
    q.c.B.h = b;
    q.c.B.x = xb;
    q.c.scans = 0;
    double ma = vor_coord_bound(&q.c.A), mb = vor_coord_bound(&q.c.B);
    q.M = ma > mb ? ma : mb;
    q.c.tol = VOR_TIE_C * DBL_EPSILON * q.M;
    q.cap = 64 + 2 * (a->vertex_count + a->edge_count + a->face_count + b->vertex_count + b->edge_count +
                      b->face_count);
    vor_query_start(&q, cache);

    int verdict = -1; /* outcome once decided */
    int attempts = (flags & COL_VOR_FORCE_FALLBACK) ? 0 : 4;
    for (int attempt = 0; attempt < attempts; attempt++) {
        int r = vor_attempt(&q);
        if (r == VOR_Q_AGAIN) continue;
        if (r >= 0) verdict = r;
        break;
    }
    out->scans = q.c.scans;
    if (out->steps == 0) out->steps = 1;

    if (verdict >= 0) {
        out->outcome = verdict;
        out->fa = q.fa;
        out->fb = q.fb;
        vor_remember(cache, &q, 1);
        return;
    }
    vor_fallback(&q, cache, scratch);
}

/* ---- the backend vtable ---- */

static void vor_cache_init(void *cache, const col_hull *a, const col_hull *b)
{
    (void)a;
    (void)b;
    memset(cache, 0, sizeof(col_vor_cache));
}

/* No shape data: da and db are ignored. */
static void vor_np_query(void *cache, const col_hull *a, const void *da, const col_xform *xa, const col_hull *b,
                        const void *db, const col_xform *xb, col_np_scratch *scratch, col_np_result *out)
{
    (void)da;
    (void)db;
    col_vor_result r;
    col_vor_query(cache, a, xa, b, xb, 0, scratch, &r);
    out->colliding = r.outcome != COL_VOR_SEPARATED;
    out->axis = out->colliding ? col_v3(0.0, 0.0, 0.0) : r.axis;
    out->gap = out->colliding ? 0.0 : r.gap;
    out->iterations = r.steps;
    out->fallbacks = r.fallbacks;
}

const col_np_backend col_np_voronoi = {
    .name = "voronoi",
    .cache_size = sizeof(col_vor_cache),
    .cache_init = vor_cache_init,
    .scratch_need = vor_scratch_need,
    .query = vor_np_query,
};
