/* SPDX-License-Identifier: MIT */
/* The narrow phase of two shapes of any kind (lib/shape_pair.h). */
#include "lib/shape_pair.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "lib/geometry_data.h"
#include "narrowphase/mesh_collide.h"

col_np_counts col_geometry_counts(const col_geometry *g)
{
    col_np_counts m = {0, 0, 0};
    for (int i = 0; i < g->piece_count; i++)
        if (g->pieces[i].kind == COL_SHAPE_HULL) m = col_np_counts_max(m, col_np_counts_of(&g->pieces[i].hull));
    return m;
}

/* A certified gap between two disjoint boxes (each holds its piece): the largest
 * separation along a coordinate axis, less the rounding of that one subtraction. Sets
 * *axis. 0 if the boxes overlap. */
double col_box_gap(col_vec3 amin, col_vec3 amax, col_vec3 bmin, col_vec3 bmax, col_vec3 *axis)
{
    const double lo_a[3] = {amin.x, amin.y, amin.z}, hi_a[3] = {amax.x, amax.y, amax.z};
    const double lo_b[3] = {bmin.x, bmin.y, bmin.z}, hi_b[3] = {bmax.x, bmax.y, bmax.z};
    double best = 0.0;
    for (int k = 0; k < 3; k++) {
        double up = lo_b[k] - hi_a[k], down = lo_a[k] - hi_b[k];
        double g = fmax(up, down);
        g -= DBL_EPSILON * (fabs(lo_b[k]) + fabs(hi_a[k]) + fabs(lo_a[k]) + fabs(hi_b[k]));
        if (g > best) {
            best = g;
            double s = up >= down ? 1.0 : -1.0;
            if (axis != NULL) *axis = col_v3(k == 0 ? s : 0.0, k == 1 ? s : 0.0, k == 2 ? s : 0.0);
        }
    }
    return best;
}

/* One piece pair: a hull pair to the backend, any other to the core+radius path. */
static void piece_query(const col_np_backend *be, void *cache, const col_piece *pa, const col_xform *xa,
                        const col_piece *pb, const col_xform *xb, col_np_scratch *scratch, col_np_result *out)
{
    if (pa->kind == COL_SHAPE_HULL && pb->kind == COL_SHAPE_HULL) {
        col_np_query(be, cache, &pa->hull, col_piece_data(pa, be), xa, &pb->hull, col_piece_data(pb, be), xb, scratch,
                     out);
        return;
    }
    col_core ca = col_piece_core(pa), cb = col_piece_core(pb);
    col_rounded_query(&ca, xa, &cb, xb, out);
}

/* The answer of a set of piece pairs: the first colliding one, else the one of least
 * certified gap (a lower bound for them all); work counts summed either way. Shared by
 * compounds and by a mesh against a compound's pieces. */
typedef struct pair_fold {
    col_np_result best;
    int iterations, fallbacks;
    bool done; /* a colliding pair was added: best is it */
} pair_fold;

static void fold_init(pair_fold *f)
{
    memset(f, 0, sizeof *f);
    f->best.gap = INFINITY;
    f->best.axis = col_v3(1, 0, 0);
}

/* Adds one piece pair's answer; true when it collides (the set is decided). */
static bool fold_add(pair_fold *f, const col_np_result *r)
{
    f->iterations += r->iterations;
    f->fallbacks += r->fallbacks;
    if (r->colliding) {
        f->best = *r;
        f->done = true;
    } else if (r->gap < f->best.gap) {
        f->best = *r;
    }
    return f->done;
}

static void fold_finish(const pair_fold *f, col_np_result *out)
{
    *out = f->best;
    out->colliding = f->done;
    out->iterations = f->iterations;
    out->fallbacks = f->fallbacks;
}

/* A mesh against a convex shape (one piece or a compound's pieces): each piece whose box
 * meets the mesh's box, until one collides; the gap is the smallest over the pieces. */
static void mesh_convex(const col_geometry *m, const col_xform *xm, const col_geometry *c, const col_xform *xc,
                        col_mesh_cache *cache, col_np_result *out)
{
    pair_fold f;
    fold_init(&f);
    col_vec3 mmin, mmax;
    if (c->piece_count > 1) col_geometry_box_at(m, xm, &mmin, &mmax);
    for (int i = 0; i < c->piece_count; i++) {
        col_np_result r = {0};
        r.axis = col_v3(1, 0, 0);
        double g = 0.0;
        if (c->piece_count > 1) {
            col_vec3 pmin, pmax;
            col_piece_box_at(&c->pieces[i], xc, &pmin, &pmax);
            g = col_box_gap(mmin, mmax, pmin, pmax, NULL);
        }
        if (g > 0.0) {
            r.gap = g;
        } else {
            col_core core = col_piece_core(&c->pieces[i]);
            col_mesh_convex_query(&m->mesh, xm, &core, xc, cache, &r);
        }
        if (fold_add(&f, &r)) break;
    }
    fold_finish(&f, out);
    if (!out->colliding) out->axis = col_v3(1, 0, 0);
}

void col_shape_pair_query(const col_np_backend *be, void *cache, const col_geometry *a, const col_xform *xa,
                          const col_geometry *b, const col_xform *xb, col_np_scratch *scratch, col_np_result *out)
{
    if (col_shape_pair_is_mesh(a, b)) {
        col_mesh_cache *mc = cache;
        if (a->kind == COL_SHAPE_MESH && b->kind == COL_SHAPE_MESH) col_mesh_mesh_query(&a->mesh, xa, &b->mesh, xb, mc, out);
        else if (a->kind == COL_SHAPE_MESH) mesh_convex(a, xa, b, xb, mc, out);
        else mesh_convex(b, xb, a, xa, mc, out);
        return;
    }
    if (a->piece_count == 1 && b->piece_count == 1) {
        piece_query(be, cache, &a->pieces[0], xa, &b->pieces[0], xb, scratch, out);
        return;
    }
    /* Compounds: the pieces' boxes at the poses first (a chair's legs rarely all touch),
     * then the piece pairs whose boxes meet, until one collides. */
    pair_fold f;
    fold_init(&f);
    for (int i = 0; i < a->piece_count && !f.done; i++) {
        col_vec3 amin, amax;
        col_piece_box_at(&a->pieces[i], xa, &amin, &amax);
        for (int j = 0; j < b->piece_count; j++) {
            col_vec3 bmin, bmax, axis = col_v3(1, 0, 0);
            col_piece_box_at(&b->pieces[j], xb, &bmin, &bmax);
            col_np_result r = {0};
            double g = col_box_gap(amin, amax, bmin, bmax, &axis);
            if (g > 0.0) {
                r.gap = g;
                r.axis = axis;
            } else {
                piece_query(be, NULL, &a->pieces[i], xa, &b->pieces[j], xb, scratch, &r);
            }
            if (fold_add(&f, &r)) break;
        }
    }
    fold_finish(&f, out);
}
