/* SPDX-License-Identifier: MIT */
/* Building, copying and bounding the shape model (lib/core/geometry.h). */
#include "lib/core/geometry.h"
#include "lib/core/fnv.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const double COL_PI = 3.14159265358979323846;

static void say(char *err, size_t errlen, const char *fmt, ...)
{
    if (errlen == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* A fresh geometry of n zeroed pieces on its own allocator, or NULL. */
static col_geometry *geom_new(col_alloc *a, int n)
{
    col_geometry *g = col_alloc_zeroed(a, 1, sizeof *g);
    if (g == NULL) return NULL;
    g->pieces = col_alloc_zeroed(a, (size_t)n, sizeof(col_piece));
    if (g->pieces == NULL) {
        col_free_bytes(a, g, sizeof *g);
        return NULL;
    }
    g->alloc = a;
    g->piece_count = n;
    return g;
}

/* The piece's box in the geometry's frame, its bounding radius and volume. */
static void piece_finish(col_piece *p)
{
    if (p->kind == COL_SHAPE_HULL) {
        p->box_min = p->hull.aabb_min;
        p->box_max = p->hull.aabb_max;
        p->bound_radius = p->hull.radius;
        return;
    }
    int n;
    const col_vec3 *c = col_piece_points(p, &n);
    col_vec3 lo = c[0], hi = c[0];
    double far = col_len(c[0]);
    for (int i = 1; i < n; i++) {
        lo = col_v3(fmin(lo.x, c[i].x), fmin(lo.y, c[i].y), fmin(lo.z, c[i].z));
        hi = col_v3(fmax(hi.x, c[i].x), fmax(hi.y, c[i].y), fmax(hi.z, c[i].z));
        far = fmax(far, col_len(c[i]));
    }
    double r = p->radius;
    p->box_min = col_v3(lo.x - r, lo.y - r, lo.z - r);
    p->box_max = col_v3(hi.x + r, hi.y + r, hi.z + r);
    /* Rounded up by a relative 1e-15: the motion bounds (lib/schedule.c) rely on it. */
    p->bound_radius = (far + r) * (1.0 + 4.0 * DBL_EPSILON);
}

/* The piece's volume with its lengths scaled by 2^-e (e = 0: the volume; hull pieces are
 * only asked with e = 0), and its centroid. A scaled core length is capped at 1e250 so
 * that volume times centroid stays finite (it only weighs pieces far smaller than it). */
static double piece_volume(const col_piece *p, int e, col_vec3 *centroid)
{
    double r = ldexp(p->radius, -e);
    switch (p->kind) {
    case COL_SHAPE_HULL:
        *centroid = p->hull.centroid;
        return p->hull.volume;
    case COL_SHAPE_SPHERE:
        *centroid = p->ends[0];
        return 4.0 / 3.0 * COL_PI * r * r * r;
    default:
        *centroid = col_scale(col_add(p->ends[0], p->ends[1]), 0.5);
        return COL_PI * r * r * (4.0 / 3.0 * r + fmin(ldexp(col_len(col_sub(p->ends[1], p->ends[0])), -e), 1e250));
    }
}

/* The volume-weighted mean of the pieces' centroids, the volumes taken with lengths
 * scaled by 2^-e; *volume gets the sum. */
static col_vec3 pieces_centroid(const col_geometry *g, int e, double *volume)
{
    double vol = 0.0;
    col_vec3 mom = col_v3(0, 0, 0);
    for (int i = 0; i < g->piece_count; i++) {
        col_vec3 c;
        double v = piece_volume(&g->pieces[i], e, &c);
        vol += v;
        mom = col_add(mom, col_scale(c, v));
    }
    *volume = vol;
    return vol > 0.0 ? col_scale(mom, 1.0 / vol) : g->pieces[0].box_min;
}

/* The geometry's box, radius, volume and centroid from its pieces. */
static void geom_finish(col_geometry *g)
{
    for (int i = 0; i < g->piece_count; i++) {
        col_piece *p = &g->pieces[i];
        if (i == 0) {
            g->box_min = p->box_min;
            g->box_max = p->box_max;
            g->radius = p->bound_radius;
        } else {
            g->box_min = col_v3(fmin(g->box_min.x, p->box_min.x), fmin(g->box_min.y, p->box_min.y),
                                fmin(g->box_min.z, p->box_min.z));
            g->box_max = col_v3(fmax(g->box_max.x, p->box_max.x), fmax(g->box_max.y, p->box_max.y),
                                fmax(g->box_max.z, p->box_max.z));
            g->radius = fmax(g->radius, p->bound_radius);
        }
    }
    g->centroid = pieces_centroid(g, 0, &g->volume);
    /* The volume of a sphere or capsule of radius below about 1e-108 underflows to zero
     * (hulls that small are refused: their volume must reach DBL_MIN). When every piece
     * is such, the centroid weighs them by their volumes in units of the largest radius
     * (a power of two: exact scaling), not by zeros. */
    if (g->volume == 0.0) {
        double rmax = 0.0, unused;
        for (int i = 0; i < g->piece_count; i++) rmax = fmax(rmax, g->pieces[i].radius);
        int e;
        frexp(rmax, &e);
        g->centroid = pieces_centroid(g, e, &unused);
    }
}

static bool size_ok(double x) { return isfinite(x) && x > 0.0; }

col_status col_geom_hull(col_alloc *alloc, const col_vec3 *points, int count, col_geometry **out,
                         char *err, size_t errlen)
{
    *out = NULL;
    col_geometry *g = geom_new(alloc, 1);
    if (g == NULL) {
        say(err, errlen, "out of memory");
        return COL_ERR_OUT_OF_MEMORY;
    }
    col_piece *p = &g->pieces[0];
    col_status st = col_hull_build(g->alloc, points, count, &p->hull, err, errlen);
    if (st != COL_OK) {
        col_geom_free(g);
        return st;
    }
    p->kind = g->kind = COL_SHAPE_HULL;
    p->pose = col_transform_identity();
    piece_finish(p);
    geom_finish(g);
    *out = g;
    return COL_OK;
}

static col_status round_piece(col_alloc *alloc, col_shape_kind kind, double h, double r,
                              col_geometry **out, char *err, size_t errlen)
{
    *out = NULL;
    col_geometry *g = geom_new(alloc, 1);
    if (g == NULL) {
        say(err, errlen, "out of memory");
        return COL_ERR_OUT_OF_MEMORY;
    }
    col_piece *p = &g->pieces[0];
    p->kind = g->kind = kind;
    p->radius = r;
    p->half_height = h;
    p->pose = col_transform_identity();
    p->ends[0] = col_v3(0, 0, kind == COL_SHAPE_CAPSULE ? -h : 0.0);
    p->ends[1] = col_v3(0, 0, kind == COL_SHAPE_CAPSULE ? h : 0.0);
    piece_finish(p);
    geom_finish(g);
    *out = g;
    return COL_OK;
}

col_status col_geom_sphere(col_alloc *alloc, double radius, col_geometry **out, char *err, size_t errlen)
{
    *out = NULL;
    if (!size_ok(radius)) {
        say(err, errlen, "sphere radius %g is not a finite number > 0", radius);
        return COL_ERR_INVALID_ARGUMENT;
    }
    if (radius > COL_MAX_COORD) {
        say(err, errlen, "sphere radius %g is beyond COL_MAX_COORD %g", radius, COL_MAX_COORD);
        return COL_ERR_NOT_FINITE;
    }
    return round_piece(alloc, COL_SHAPE_SPHERE, 0.0, radius, out, err, errlen);
}

col_status col_geom_capsule(col_alloc *alloc, double half_height, double radius, col_geometry **out,
                            char *err, size_t errlen)
{
    *out = NULL;
    if (!size_ok(half_height) || !size_ok(radius)) {
        say(err, errlen, "capsule half height %g and radius %g: both must be finite numbers > 0 (a zero half "
                         "height is a sphere)", half_height, radius);
        return COL_ERR_INVALID_ARGUMENT;
    }
    if (half_height + radius > COL_MAX_COORD) {
        say(err, errlen, "capsule half height %g + radius %g is beyond COL_MAX_COORD %g", half_height, radius,
            COL_MAX_COORD);
        return COL_ERR_NOT_FINITE;
    }
    return round_piece(alloc, COL_SHAPE_CAPSULE, half_height, radius, out, err, errlen);
}

col_status col_geom_box(col_alloc *alloc, col_vec3 h, col_geometry **out, char *err, size_t errlen)
{
    *out = NULL;
    if (!(isfinite(h.x) && isfinite(h.y) && isfinite(h.z) && h.x > 0 && h.y > 0 && h.z > 0)) {
        say(err, errlen, "half extents (%g, %g, %g): each must be a finite number > 0", h.x, h.y, h.z);
        return COL_ERR_INVALID_ARGUMENT;
    }
    col_vec3 c[8];
    for (int i = 0; i < 8; i++) c[i] = col_v3(i & 1 ? h.x : -h.x, i & 2 ? h.y : -h.y, i & 4 ? h.z : -h.z);
    return col_geom_hull(alloc, c, 8, out, err, errlen);
}

/* Composes two poses: outer applied after inner (inner's pose in outer's frame). The
 * points are transformed in two steps (col_xform_point twice), never through this pose;
 * it is kept for col_piece_info only. */
static col_transform compose(col_transform outer, col_transform inner)
{
    col_xform xo = col_xform_from_transform(outer);
    col_transform t;
    t.p = col_xform_point(&xo, inner.p);
    t.q = col_quat_mul(outer.q, inner.q);
    return t;
}

/* Copies piece src into dst, its points moved by xf (NULL: unchanged) in dst's alloc. */
static col_status place_piece(col_alloc *alloc, const col_piece *src, const col_xform *xf, col_transform pose,
                              col_piece *dst, char *err, size_t errlen)
{
    memset(dst, 0, sizeof *dst);
    dst->kind = src->kind;
    dst->radius = src->radius;
    dst->half_height = src->half_height;
    dst->pose = pose;
    if (src->kind != COL_SHAPE_HULL) {
        for (int k = 0; k < 2; k++) dst->ends[k] = xf != NULL ? col_xform_point(xf, src->ends[k]) : src->ends[k];
        piece_finish(dst);
        /* The rule of a single sphere or capsule (its radius, or half height plus radius,
         * within COL_MAX_COORD) and of a hull piece (every point within it): the whole
         * piece, radius included, stays within COL_MAX_COORD of the compound's origin. */
        if (!(col_vec3_is_finite(dst->box_min) && col_vec3_is_finite(dst->box_max) &&
              col_max_abs(dst->box_min) <= COL_MAX_COORD && col_max_abs(dst->box_max) <= COL_MAX_COORD)) {
            say(err, errlen, "a compound piece's pose puts it beyond COL_MAX_COORD %g (box %g .. %g)", COL_MAX_COORD,
                fmin(dst->box_min.x, fmin(dst->box_min.y, dst->box_min.z)),
                fmax(dst->box_max.x, fmax(dst->box_max.y, dst->box_max.z)));
            return COL_ERR_NOT_FINITE;
        }
        return COL_OK;
    }
    int n = src->hull.vertex_count;
    col_vec3 *pts = col_alloc_bytes(alloc, (size_t)n * sizeof *pts);
    if (pts == NULL) {
        say(err, errlen, "out of memory");
        return COL_ERR_OUT_OF_MEMORY;
    }
    for (int i = 0; i < n; i++) pts[i] = xf != NULL ? col_xform_point(xf, src->hull.vertices[i]) : src->hull.vertices[i];
    col_status st = col_hull_build(alloc, pts, n, &dst->hull, err, errlen);
    col_free_bytes(alloc, pts, (size_t)n * sizeof *pts);
    if (st == COL_OK) piece_finish(dst);
    return st;
}

static void free_pieces(col_geometry *g, int n)
{
    for (int i = 0; i < n; i++) {
        col_piece *p = &g->pieces[i];
        if (p->kind == COL_SHAPE_HULL) col_hull_free(g->alloc, &p->hull);
        for (int k = 0; k < COL_GEOM_NP_SLOTS; k++) col_free_bytes(g->alloc, p->np_data[k], p->np_bytes[k]);
    }
}

col_status col_geom_compound(col_alloc *alloc, const col_geometry *const *children,
                             const col_transform *poses, int count, col_geometry **out, char *err, size_t errlen)
{
    *out = NULL;
    long total = 0;
    for (int i = 0; i < count; i++) {
        if (children[i]->kind == COL_SHAPE_MESH) {
            say(err, errlen, "child %d is a mesh: a compound holds convex pieces only (make the mesh its own body)", i);
            return COL_ERR_INVALID_ARGUMENT;
        }
        total += children[i]->piece_count;
    }
    if (total > COL_MAX_COMPOUND_PIECES) {
        say(err, errlen, "%ld pieces in all, more than COL_MAX_COMPOUND_PIECES %d", total, COL_MAX_COMPOUND_PIECES);
        return COL_ERR_INVALID_ARGUMENT;
    }
    col_geometry *g = geom_new(alloc, (int)total);
    if (g == NULL) {
        say(err, errlen, "out of memory");
        return COL_ERR_OUT_OF_MEMORY;
    }
    g->kind = COL_SHAPE_COMPOUND;
    int k = 0;
    for (int i = 0; i < count; i++) {
        col_xform xf = col_xform_from_transform(poses[i]);
        for (int j = 0; j < children[i]->piece_count; j++, k++) {
            const col_piece *src = &children[i]->pieces[j];
            col_status st = place_piece(g->alloc, src, &xf, compose(poses[i], src->pose), &g->pieces[k], err, errlen);
            if (st != COL_OK) {
                if (st == COL_ERR_DEGENERATE_SHAPE || st == COL_ERR_TOO_FEW_POINTS) {
                    say(err, errlen, "child %d: its hull lost its volume at its pose (rounding)", i);
                    st = COL_ERR_DEGENERATE_SHAPE; /* shape.h's status for it, however few points stay */
                } else if (errlen > 0) {
                    char why[160];
                    snprintf(why, sizeof why, "%s", err);
                    say(err, errlen, "child %d: %s", i, why);
                }
                col_geom_free(g); /* the pieces not placed are zero: nothing to free */
                return st;
            }
        }
    }
    geom_finish(g);
    *out = g;
    return COL_OK;
}

/* A mesh's box, radius and centroid from its vertices (all of them: an unused vertex
 * still counts for the radius, as docs/scenes.md says). */
static void mesh_finish(col_geometry *g)
{
    const col_mesh *m = &g->mesh;
    g->box_min = m->aabb_min;
    g->box_max = m->aabb_max;
    /* Rounded up like a round piece's bound (lib/schedule.c relies on it). */
    g->radius = m->radius * (1.0 + 4.0 * DBL_EPSILON);
    g->volume = 0.0;
    g->centroid = col_scale(col_add(m->aabb_min, m->aabb_max), 0.5);
    /* The ball about the box's middle: a round mesh (a knot, a bumpy ball) turned any way
     * keeps a box of it tighter than the box of its turned local box. Each |v - c| is
     * computed with a relative error of a few units of rounding; 8 cover it. */
    double r2 = 0.0;
    for (int i = 0; i < m->vertex_count; i++) r2 = fmax(r2, col_len2(col_sub(m->vertices[i], g->centroid)));
    g->mesh_ball = sqrt(r2) * (1.0 + 8.0 * DBL_EPSILON);
}

col_status col_geom_mesh(col_alloc *alloc, const col_vec3 *vertices, int nv, const uint32_t *indices, int nt,
                         col_geometry **out, char *err, size_t errlen)
{
    *out = NULL;
    col_geometry *g = col_alloc_zeroed(alloc, 1, sizeof *g);
    if (g == NULL) {
        say(err, errlen, "out of memory");
        return COL_ERR_OUT_OF_MEMORY;
    }
    g->alloc = alloc;
    g->kind = COL_SHAPE_MESH;
    col_status st = col_mesh_build(alloc, vertices, nv, indices, nt, &g->mesh, err, errlen);
    if (st != COL_OK) {
        col_free_bytes(alloc, g, sizeof *g);
        return st;
    }
    mesh_finish(g);
    *out = g;
    return COL_OK;
}

col_status col_geom_clone(col_alloc *alloc, const col_geometry *src, col_geometry **out)
{
    *out = NULL;
    if (src->kind == COL_SHAPE_MESH) {
        col_geometry *g = col_alloc_zeroed(alloc, 1, sizeof *g);
        if (g == NULL) return COL_ERR_OUT_OF_MEMORY;
        g->alloc = alloc;
        g->kind = COL_SHAPE_MESH;
        if (col_mesh_copy(alloc, &src->mesh, &g->mesh) != COL_OK) {
            col_free_bytes(alloc, g, sizeof *g);
            return COL_ERR_OUT_OF_MEMORY;
        }
        mesh_finish(g);
        *out = g;
        return COL_OK;
    }
    col_geometry *g = geom_new(alloc, src->piece_count);
    if (g == NULL) return COL_ERR_OUT_OF_MEMORY;
    g->kind = src->kind;
    for (int i = 0; i < src->piece_count; i++) {
        col_piece *p = &g->pieces[i];
        *p = src->pieces[i];
        memset(p->np_data, 0, sizeof p->np_data);
        memset(p->np_bytes, 0, sizeof p->np_bytes);
        if (p->kind == COL_SHAPE_HULL && col_hull_copy(g->alloc, &src->pieces[i].hull, &p->hull) != COL_OK) {
            col_geom_free(g); /* the failed piece's hull was zeroed */
            return COL_ERR_OUT_OF_MEMORY;
        }
    }
    geom_finish(g);
    *out = g;
    return COL_OK;
}

void col_geom_free(col_geometry *g)
{
    if (g == NULL) return;
    col_alloc *a = g->alloc;
    free_pieces(g, g->piece_count);
    col_free_bytes(a, g->pieces, (size_t)g->piece_count * sizeof(col_piece));
    if (g->kind == COL_SHAPE_MESH) col_mesh_free(a, &g->mesh);
    if (a == &g->own) {
        /* A world-free geometry frees itself with a copy of its own counters. */
        col_alloc own = g->own;
        col_free_bytes(&own, g, sizeof *g);
    } else {
        col_free_bytes(a, g, sizeof *g);
    }
}

void col_piece_box_at(const col_piece *p, const col_xform *xf, col_vec3 *min, col_vec3 *max)
{
    if (p->kind == COL_SHAPE_HULL) {
        col_hull_box_at(&p->hull, xf, min, max);
        return;
    }
    int n;
    const col_vec3 *c = col_piece_points(p, &n);
    double lo[3], hi[3];
    for (int i = 0; i < n; i++) {
        col_vec3 w = col_xform_point(xf, c[i]);
        double v[3] = {w.x, w.y, w.z};
        for (int a = 0; a < 3; a++) {
            lo[a] = i == 0 ? v[a] : fmin(lo[a], v[a]);
            hi[a] = i == 0 ? v[a] : fmax(hi[a], v[a]);
        }
    }
    /* The core points are exactly those the narrow phase computes; the radius is added
     * with an outward slack that covers the rounding of the sums. */
    for (int a = 0; a < 3; a++) {
        double slack = 1e-12 * (fmax(fabs(lo[a]), fabs(hi[a])) + p->radius) + DBL_MIN;
        lo[a] -= p->radius + slack;
        hi[a] += p->radius + slack;
    }
    *min = col_v3(lo[0], lo[1], lo[2]);
    *max = col_v3(hi[0], hi[1], hi[2]);
}

/* A mesh's box at a pose from the eight corners of its local box and the ball about its
 * centre: nine transforms a frame however many vertices it has (a 50 000-triangle knot would otherwise cost
 * 25 000). Each world vertex R v + p, as col_xform_point computes it, lies in the
 * transformed local box up to the rounding of that product and sum, which the slack
 * covers (3 products and 3 sums of magnitude at most |R||v| + |p|: far below 1e-12 of
 * it). */
static void mesh_box_at(const col_geometry *g, const col_xform *xf, col_vec3 *min, col_vec3 *max)
{
    const col_mesh *m = &g->mesh;
    double lo[3], hi[3];
    for (int i = 0; i < 8; i++) {
        col_vec3 c = col_v3(i & 1 ? m->aabb_max.x : m->aabb_min.x, i & 2 ? m->aabb_max.y : m->aabb_min.y,
                            i & 4 ? m->aabb_max.z : m->aabb_min.z);
        col_vec3 w = col_xform_point(xf, c);
        double v[3] = {w.x, w.y, w.z};
        for (int a = 0; a < 3; a++) {
            lo[a] = i == 0 ? v[a] : fmin(lo[a], v[a]);
            hi[a] = i == 0 ? v[a] : fmax(hi[a], v[a]);
        }
    }
    double size = col_max_abs(m->aabb_min) + col_max_abs(m->aabb_max);
    /* Also within the ball of mesh_ball about the centre's image: |R (v - c)| is |v - c|
     * up to R's departure from a rotation (about 1e-16 for a unit quaternion), and the
     * two roundings of R x + p are covered by the same slack as the corners'. The box
     * kept is the intersection of the two. */
    col_vec3 wc = col_xform_point(xf, g->centroid);
    const double c[3] = {wc.x, wc.y, wc.z};
    double ball = g->mesh_ball * (1.0 + 1e-12);
    for (int a = 0; a < 3; a++) {
        double slack = 1e-12 * (fmax(fabs(lo[a]), fabs(hi[a])) + size) + DBL_MIN;
        lo[a] = fmax(lo[a], c[a] - ball) - slack;
        hi[a] = fmin(hi[a], c[a] + ball) + slack;
    }
    *min = col_v3(lo[0], lo[1], lo[2]);
    *max = col_v3(hi[0], hi[1], hi[2]);
}

void col_geometry_box_at(const col_geometry *g, const col_xform *xf, col_vec3 *min, col_vec3 *max)
{
    if (g->kind == COL_SHAPE_MESH) {
        mesh_box_at(g, xf, min, max);
        return;
    }
    if (g->kind == COL_SHAPE_HULL) { /* the common case, without the loop */
        col_hull_box_at(&g->pieces[0].hull, xf, min, max);
        return;
    }
    col_piece_box_at(&g->pieces[0], xf, min, max);
    for (int i = 1; i < g->piece_count; i++) {
        col_vec3 a, b;
        col_piece_box_at(&g->pieces[i], xf, &a, &b);
        *min = col_v3(fmin(min->x, a.x), fmin(min->y, a.y), fmin(min->z, a.z));
        *max = col_v3(fmax(max->x, b.x), fmax(max->y, b.y), fmax(max->z, b.z));
    }
}

uint64_t col_geometry_hash(const col_geometry *g, uint64_t h)
{
    h = col_fnv1a(h, &g->kind, sizeof g->kind);
    if (g->kind == COL_SHAPE_MESH) {
        const col_mesh *m = &g->mesh;
        h = col_fnv1a(h, m->vertices, (size_t)m->vertex_count * sizeof *m->vertices);
        h = col_fnv1a(h, m->tris, (size_t)m->triangle_count * 3 * sizeof *m->tris);
        return h;
    }
    for (int i = 0; i < g->piece_count; i++) {
        const col_piece *p = &g->pieces[i];
        int n;
        const col_vec3 *c = col_piece_points(p, &n);
        h = col_fnv1a(h, &p->kind, sizeof p->kind);
        h = col_fnv1a(h, &p->radius, sizeof p->radius);
        h = col_fnv1a(h, c, (size_t)n * sizeof *c);
    }
    return h;
}
