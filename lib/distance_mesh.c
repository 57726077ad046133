/* SPDX-License-Identifier: MIT */
/* Distance and contact of a pair with a mesh (lib/distance_mesh.h). */
#include "lib/distance_mesh.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "lib/shape_pair.h"
#include "narrowphase/mesh_collide.h"
#include "narrowphase/mesh_contact.h"
#include "narrowphase/mesh_distance.h"

static col_feature tri_feature(const col_mesh *m, int32_t k)
{
    col_feature f = {COL_FEATURE_NONE, 0};
    if (k >= 0 && k < m->triangle_count) {
        f.type = COL_FEATURE_FACE;
        f.index = (int)m->tri_source[k];
    }
    return f;
}

/* The size of the pair, for the band below which a crossing depth is rounding. */
static double pair_size(const col_geometry *a, const col_xform *xa, const col_geometry *b, const col_xform *xb)
{
    return a->radius + b->radius + col_max_abs(xa->p) + col_max_abs(xb->p);
}

/* Mesh m at xm against one convex piece or mesh b at xb, m first; *hit gets the exact
 * decision. */
static void one_pair(const col_mesh *m, const col_xform *xm, const col_piece *piece, const col_mesh *mb,
                     const col_xform *xb, double margin, bool want_points, double size, col_piece_contact *out)
{
    memset(out, 0, sizeof *out);
    col_np_result dec;
    col_mesh_closest d;
    col_core core;
    if (mb != NULL) {
        col_mesh_mesh_query(m, xm, mb, xb, NULL, &dec);
        col_mesh_mesh_distance(m, xm, mb, xb, &d);
    } else {
        core = col_piece_core(piece);
        col_mesh_convex_query(m, xm, &core, xb, NULL, &dec);
        col_mesh_convex_distance(m, xm, &core, xb, &d);
    }
    out->steps = d.node_pairs;
    out->fallbacks = dec.fallbacks;
    out->point_a = d.point_a;
    out->point_b = d.point_b;
    out->feature_a = tri_feature(m, d.tri_a);
    out->feature_b = mb != NULL ? tri_feature(mb, d.tri_b) : (col_feature){COL_FEATURE_NONE, 0};
    col_vec3 ab = col_sub(d.point_b, d.point_a);
    double len = col_len(ab);
    out->normal = len > 0.0 ? col_scale(ab, 1.0 / len) : col_v3(1, 0, 0);
    /* The exact decision wins over the rounded numbers (as for convex pieces). */
    if (!dec.colliding) {
        out->outcome = COL_DISTANCE_SEPARATED;
        out->distance = fmax(d.distance, fmax(dec.gap, DBL_MIN));
        out->separation = out->distance;
    } else {
        out->outcome = COL_DISTANCE_TOUCHING;
        out->distance = 0.0;
        out->separation = 0.0;
        out->point_b = out->point_a;
    }
    bool colliding = dec.colliding;
    if (!colliding && !(want_points && out->separation <= margin)) return;
    col_mesh_contact c;
    if (mb != NULL) col_mesh_mesh_contact(m, xm, mb, xb, margin, &c);
    else col_mesh_convex_contact(m, xm, &core, xb, margin, &c);
    if (c.point_count == 0) return;
    if (colliding && c.separation < -1e-12 * size) {
        out->outcome = COL_DISTANCE_PENETRATING;
        out->separation = c.separation;
    }
    if (colliding || c.separation > 0.0) out->normal = c.normal;
    if (!want_points) return;
    out->count = c.point_count;
    memcpy(out->points, c.points, (size_t)c.point_count * sizeof c.points[0]);
    if (colliding) /* the numbers say how deep; the decision says they meet */
        for (int i = 0; i < out->count; i++)
            if (out->points[i].separation > 0.0) out->points[i].separation = 0.0;
}

/* The mirror of a result: a and b exchanged. */
static void swap_sides(col_piece_contact *r)
{
    col_vec3 p = r->point_a;
    r->point_a = r->point_b;
    r->point_b = p;
    col_feature f = r->feature_a;
    r->feature_a = r->feature_b;
    r->feature_b = f;
    int k = r->piece_a;
    r->piece_a = r->piece_b;
    r->piece_b = k;
    r->normal = col_neg(r->normal);
    for (int i = 0; i < r->count; i++) {
        col_vec3 q = r->points[i].point_a;
        r->points[i].point_a = r->points[i].point_b;
        r->points[i].point_b = q;
    }
}

void col_mesh_pair_nearest(const col_geometry *a, const col_xform *xa, const col_geometry *b, const col_xform *xb,
                           double margin, bool want_points, col_piece_contact *out)
{
    double size = pair_size(a, xa, b, xb);
    if (a->kind == COL_SHAPE_MESH && b->kind == COL_SHAPE_MESH) {
        one_pair(&a->mesh, xa, NULL, &b->mesh, xb, margin, want_points, size, out);
        return;
    }
    bool swapped = a->kind != COL_SHAPE_MESH;
    const col_geometry *m = swapped ? b : a, *c = swapped ? a : b;
    const col_xform *xm = swapped ? xb : xa, *xc = swapped ? xa : xb;
    bool have = false;
    int steps = 0, fallbacks = 0;
    for (int i = 0; i < c->piece_count; i++) {
        col_piece_contact r;
        one_pair(&m->mesh, xm, &c->pieces[i], NULL, xc, margin, want_points, size, &r);
        steps += r.steps;
        fallbacks += r.fallbacks;
        r.piece_a = 0;
        r.piece_b = i;
        bool better = !have || (r.outcome != COL_DISTANCE_SEPARATED && out->outcome == COL_DISTANCE_SEPARATED) ||
                      ((r.outcome == COL_DISTANCE_SEPARATED) == (out->outcome == COL_DISTANCE_SEPARATED) &&
                       r.separation < out->separation);
        if (better) {
            *out = r;
            have = true;
        }
    }
    out->steps = steps;
    out->fallbacks = fallbacks;
    if (swapped) swap_sides(out);
}
