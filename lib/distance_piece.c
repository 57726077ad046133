/* SPDX-License-Identifier: MIT */
/* Distance and contact between pieces (lib/distance_piece.h). */
#include "lib/distance_piece.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "lib/shape_pair.h"

/* How far beyond contact, in units of DBL_EPSILON times the coordinates' magnitude, a
 * touching answer may overlap before the pieces count as penetrating: far more than the
 * rounding of the supports (hull pairs) or of the core distance (round pieces). */
#define PIECE_TOUCH_C 1024.0

col_feature col_vor_public_feature(col_vor_feature f)
{
    col_feature out;
    out.type = f.type == COL_VOR_EDGE ? COL_FEATURE_EDGE : f.type == COL_VOR_FACE ? COL_FEATURE_FACE : COL_FEATURE_VERTEX;
    out.index = f.index;
    return out;
}

static col_distance_outcome vor_outcome(int o)
{
    return o == COL_VOR_SEPARATED ? COL_DISTANCE_SEPARATED
           : o == COL_VOR_TOUCHING ? COL_DISTANCE_TOUCHING
                                  : COL_DISTANCE_PENETRATING;
}

void col_piece_contact_from_vor(const col_vor_result *r, const col_vor_contact *c, col_piece_contact *out)
{
    memset(out, 0, sizeof *out);
    out->outcome = vor_outcome(r->outcome);
    out->distance = r->outcome == COL_VOR_PENETRATING ? 0.0 : r->distance;
    out->separation = c != NULL ? c->separation : r->outcome == COL_VOR_PENETRATING ? 0.0 : r->distance;
    out->normal = c != NULL ? c->normal : r->axis;
    out->point_a = r->pa;
    out->point_b = r->pb;
    out->feature_a = col_vor_public_feature(r->fa);
    out->feature_b = col_vor_public_feature(r->fb);
    out->steps = r->steps;
    out->fallbacks = r->fallbacks;
    if (c == NULL) return;
    for (int i = 0; i < c->count && i < COL_MAX_CONTACT_POINTS; i++) {
        out->points[i].point_a = c->pa[i];
        out->points[i].point_b = c->pb[i];
        out->points[i].separation = c->sep[i];
        out->count = i + 1;
    }
}

/* The walk answers TOUCHING for an exact zero distance between two features, which
 * aligned configurations also reach when the bodies overlap deeply (two equal boxes at one
 * pose meet vertex to vertex; issue 13, degenerate input). Touching bodies have a plane
 * through the contact with one on each side; the contact builder's separation is minus the
 * overlap along its best axis, so one clearly below zero means a penetration. */
void col_hull_pieces_contact(const col_piece *pa, const col_xform *xa, const col_piece *pb, const col_xform *xb,
                             col_vor_cache *cache, double margin, bool want_points, col_np_scratch *scratch,
                             col_piece_contact *out)
{
    col_vor_result r;
    col_vor_contact c;
    col_vor_query(cache, &pa->hull, xa, &pb->hull, xb, COL_VOR_WANT_DISTANCE, scratch, &r);
    /* Penetrating pairs get the contact builder's separation too, so that compounds can
     * rank their piece pairs by depth. */
    bool built = want_points || r.outcome != COL_VOR_SEPARATED;
    if (built) {
        col_vor_contact_build(&pa->hull, xa, &pb->hull, xb, &r, margin, scratch, &c);
        double M = fmax(col_max_abs(xa->p) + pa->bound_radius, col_max_abs(xb->p) + pb->bound_radius);
        if (r.outcome == COL_VOR_TOUCHING && c.separation < -PIECE_TOUCH_C * DBL_EPSILON * M)
            r.outcome = COL_VOR_PENETRATING;
    }
    col_piece_contact_from_vor(&r, want_points ? &c : NULL, out);
    if (built && !want_points && r.outcome == COL_VOR_PENETRATING) {
        out->separation = c.separation;
        out->normal = c.normal;
    }
}

/* The feature of a round piece holding world point p of its core (a sphere's centre;
 * a capsule's end, or its segment). */
static col_feature round_feature(const col_piece *p, const col_xform *xf, col_vec3 q)
{
    col_feature f = {COL_FEATURE_VERTEX, 0};
    if (p->kind == COL_SHAPE_HULL) {
        f.type = COL_FEATURE_NONE;
        f.index = -1;
    } else if (p->kind == COL_SHAPE_CAPSULE) {
        col_vec3 e0 = col_xform_point(xf, p->ends[0]), e1 = col_xform_point(xf, p->ends[1]);
        double tol = 1e-12 * (col_len(col_sub(e1, e0)) + col_max_abs(e0));
        if (col_len(col_sub(q, e0)) <= tol) f.index = 0;
        else if (col_len(col_sub(q, e1)) <= tol) f.index = 1;
        else f.type = COL_FEATURE_EDGE;
    }
    return f;
}

/* One contact point of two cores' closest points moved out by the radii along n. */
static col_contact_point round_point(col_vec3 ca, col_vec3 cb, double ra, double rb, col_vec3 n)
{
    col_contact_point p;
    p.point_a = col_add(ca, col_scale(n, ra));
    p.point_b = col_sub(cb, col_scale(n, rb));
    p.separation = col_dot(col_sub(p.point_b, p.point_a), n);
    return p;
}

/* A capsule lying along the other piece (its axis within ~6 degrees of the contact
 * plane) touches it along a line: its two ends, each as a sphere, give the two points a
 * solver needs (Box2D's capsule manifolds do the same). Returns the points added. */
static int capsule_ends(const col_piece *cap, const col_xform *xc, const col_piece *other, const col_xform *xo,
                        bool cap_is_a, col_vec3 n, double margin, col_contact_point *pts)
{
    col_vec3 e0 = col_xform_point(xc, cap->ends[0]), e1 = col_xform_point(xc, cap->ends[1]);
    col_vec3 axis = col_sub(e1, e0);
    double len = col_len(axis);
    if (!(len > 0.0) || fabs(col_dot(axis, n)) > 0.1 * len) return 0;
    int k = 0;
    col_core oc = col_piece_core(other);
    for (int e = 0; e < 2; e++) {
        col_core ec = {&cap->ends[e], 1, NULL, cap->radius};
        col_core_distance d;
        if (cap_is_a) col_core_distance_query(&ec, xc, &oc, xo, &d);
        else col_core_distance_query(&oc, xo, &ec, xc, &d);
        if (d.overlap || col_dot(d.normal, n) < 0.99) continue;
        col_contact_point p = cap_is_a ? round_point(d.point_a, d.point_b, cap->radius, other->radius, d.normal)
                                       : round_point(d.point_a, d.point_b, other->radius, cap->radius, d.normal);
        if (p.separation <= margin) pts[k++] = p;
    }
    return k == 2 ? 2 : 0;
}

/* A pair with a round piece: the exact decision (narrowphase/rounded.h) for the outcome,
 * the cores' closest points for the numbers. */
static void round_pieces(const col_piece *pa, const col_xform *xa, const col_piece *pb, const col_xform *xb,
                         double margin, bool want_points, col_piece_contact *out)
{
    memset(out, 0, sizeof *out);
    col_core ca = col_piece_core(pa), cb = col_piece_core(pb);
    col_np_result dec;
    col_rounded_query(&ca, xa, &cb, xb, &dec);
    col_core_distance d;
    col_core_distance_query(&ca, xa, &cb, xb, &d);
    col_contact_point p = round_point(d.point_a, d.point_b, pa->radius, pb->radius, d.normal);
    double sep = d.overlap ? -(d.depth + pa->radius + pb->radius) : p.separation;
    double M = fmax(col_max_abs(xa->p) + pa->bound_radius, col_max_abs(xb->p) + pb->bound_radius);
    if (!dec.colliding) out->outcome = COL_DISTANCE_SEPARATED;
    else out->outcome = sep >= -PIECE_TOUCH_C * DBL_EPSILON * M ? COL_DISTANCE_TOUCHING : COL_DISTANCE_PENETRATING;
    /* The exact decision wins over the rounded numbers: a separated pair has sep > 0. */
    if (out->outcome == COL_DISTANCE_SEPARATED && !(sep > 0.0)) sep = fmax(dec.gap, DBL_MIN);
    if (out->outcome != COL_DISTANCE_SEPARATED && sep > 0.0) sep = 0.0;
    out->separation = sep;
    out->distance = sep > 0.0 ? sep : 0.0;
    out->normal = d.normal;
    out->point_a = p.point_a;
    out->point_b = p.point_b;
    if (out->outcome == COL_DISTANCE_PENETRATING) /* a common point of both */
        out->point_a = out->point_b = col_scale(col_add(p.point_a, p.point_b), 0.5);
    out->feature_a = round_feature(pa, xa, d.point_a);
    out->feature_b = round_feature(pb, xb, d.point_b);
    out->steps = d.iterations;
    out->fallbacks = dec.fallbacks;
    if (!want_points || sep > margin) return;
    p.separation = sep;
    out->points[0] = p;
    out->count = 1;
    col_contact_point ends[2];
    int k = 0;
    if (pa->kind == COL_SHAPE_CAPSULE && pb->kind != COL_SHAPE_SPHERE) k = capsule_ends(pa, xa, pb, xb, true, d.normal, margin, ends);
    if (k == 0 && pb->kind == COL_SHAPE_CAPSULE && pa->kind != COL_SHAPE_SPHERE)
        k = capsule_ends(pb, xb, pa, xa, false, d.normal, margin, ends);
    if (k == 2) {
        out->points[0] = ends[0];
        out->points[1] = ends[1];
        out->count = 2;
    }
}

void col_piece_pair_nearest(const col_geometry *a, const col_xform *xa, const col_geometry *b, const col_xform *xb,
                            double margin, bool want_points, col_np_scratch *scratch, col_piece_contact *out)
{
    bool have = false;
    int steps = 0, fallbacks = 0;
    for (int i = 0; i < a->piece_count; i++) {
        col_vec3 amin, amax;
        col_piece_box_at(&a->pieces[i], xa, &amin, &amax);
        for (int j = 0; j < b->piece_count; j++) {
            const col_piece *pa = &a->pieces[i], *pb = &b->pieces[j];
            col_vec3 bmin, bmax;
            col_piece_box_at(pb, xb, &bmin, &bmax);
            /* A box gap bounds a pair's separation from below only while the best so far
             * is apart: once a penetrating pair is found, deeper ones may still follow. */
            if (have && out->outcome == COL_DISTANCE_SEPARATED && col_box_gap(amin, amax, bmin, bmax, NULL) > out->separation)
                continue;
            col_piece_contact r;
            if (pa->kind == COL_SHAPE_HULL && pb->kind == COL_SHAPE_HULL)
                col_hull_pieces_contact(pa, xa, pb, xb, NULL, margin, want_points, scratch, &r);
            else
                round_pieces(pa, xa, pb, xb, margin, want_points, &r);
            steps += r.steps;
            fallbacks += r.fallbacks;
            /* Least separated first; a colliding pair beats a separated one whatever the
             * numbers say (the outcome is exact, the numbers rounded). */
            bool better = !have || (r.outcome != COL_DISTANCE_SEPARATED && out->outcome == COL_DISTANCE_SEPARATED) ||
                          ((r.outcome == COL_DISTANCE_SEPARATED) == (out->outcome == COL_DISTANCE_SEPARATED) &&
                           r.separation < out->separation);
            if (better) {
                *out = r;
                out->piece_a = i;
                out->piece_b = j;
                have = true;
            }
        }
    }
    out->steps = steps;
    out->fallbacks = fallbacks;
}
