/* SPDX-License-Identifier: MIT */
/* Convex hull through reentrant qhull (the only file that includes it), followed by our own
 * renumbering, sorting, adjacency and validation, so that the arrays are deterministic and
 * checked before anyone sees them.
 *
 * Pipeline: validate input -> move the points to their AABB centre and scale them by a power
 * of two to unit size (exact in binary, so the result is the same for any power-of-two scale
 * and qhull's absolute tolerances become relative ones) -> reject flat sets ourselves
 * (hull_classify) -> qhull with its default options -> copy the facet rings out under our
 * own setjmp -> free all of qhull's memory -> build faces, edges and adjacency -> validate. */
#define _POSIX_C_SOURCE 200809L /* fmemopen */

#include "lib/core/hull.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libqhull_r/qhull_ra.h>

#include "lib/core/alloc.h"
#include "lib/core/vec.h"

/* A set is flat when, relative to its diameter estimate L, the farthest point from the
 * diameter line (collinear) or from the plane of the first three extreme points (coplanar)
 * lies within COL_HULL_FLAT_EPS * L. qhull's roundoff on our unit-size input is ~1e-15
 * (qh-impre.htm); measured, slabs down to 1e-13 L and needles down to 1e-11 L still give
 * hulls that pass every check below, so 1e-9 keeps a margin of 100 or more, while shapes
 * thinner than that are far more likely modelling errors than intent. The validation
 * tolerance sits between roundoff and this threshold. Overridable for fault-path tests. */
#ifndef COL_HULL_FLAT_EPS
#define COL_HULL_FLAT_EPS 1e-9
#endif
/* COL_HULL_CHECK_EPS (hull.h): containment and planarity tolerance of the final check,
 * relative to L (faces measured planar to ~2e-14 L with qhull's normals). */
#define COL_HULL_MAX_SCRATCH 10

_Static_assert(sizeof(coordT) == sizeof(double), "qhull must be built with double coordinates");

typedef struct hull_face_rec {
    const int *ring; /* rotated so that its smallest vertex index comes first */
    int len;
    int src; /* index in extraction order, for b->normals */
} hull_face_rec;

typedef struct hull_half_edge {
    int lo, hi; /* vertex indices, lo < hi */
    int fwd;    /* 1 if the face's ring runs lo -> hi */
    int face;
} hull_half_edge;

/* Everything one build needs; lives in col_hull_build's frame, so that qhull's longjmp
 * (which only unwinds hull_extract_guarded) never leaves it indeterminate. */
typedef struct hull_build {
    col_alloc *alloc;
    const col_vec3 *pts;
    int n;
    col_vec3 center; /* q = (p - center) * 2^-scale_exp */
    int scale_exp;
    double diam;     /* diameter estimate of the scaled points, in [0.5, 1.8] */
    double *q;       /* [3n] scaled points, the array qhull reads */
    int face_count, ring_total;
    int *ring_first; /* [face_count + 1] */
    int *ring;       /* qhull point ids, later vertex indices */
    double *normals; /* [3 * face_count] qhull's unit outward facet normals */
    void *scratch[COL_HULL_MAX_SCRATCH];
    size_t scratch_size[COL_HULL_MAX_SCRATCH];
    int scratch_count;
} hull_build;

static void hull_error(char *err, size_t errlen, const char *fmt, ...)
{
    if (err == NULL || errlen == 0) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* Scratch memory comes from the same allocator as the result, so a failing allocator is
 * seen at every step; all of it is released by hull_scratch_free_all on every path. */
static void *hull_scratch(hull_build *b, size_t count, size_t elem)
{
    if (count == 0) count = 1;
    if (b->scratch_count == COL_HULL_MAX_SCRATCH || count > SIZE_MAX / elem) return NULL;
    void *p = col_alloc_bytes(b->alloc, count * elem);
    if (p == NULL) return NULL;
    b->scratch[b->scratch_count] = p;
    b->scratch_size[b->scratch_count++] = count * elem;
    return p;
}

static void hull_scratch_free_all(hull_build *b)
{
    for (; b->scratch_count > 0; b->scratch_count--)
        col_free_bytes(b->alloc, b->scratch[b->scratch_count - 1], b->scratch_size[b->scratch_count - 1]);
}

static col_vec3 hull_q(const hull_build *b, int i)
{
    return col_v3(b->q[3 * i], b->q[3 * i + 1], b->q[3 * i + 2]);
}

static void hull_reverse(int *r, int len)
{
    for (int i = 0, j = len - 1; i < j; i++, j--) {
        int t = r[i];
        r[i] = r[j];
        r[j] = t;
    }
}

/* Flat-set test on the scaled points, before qhull sees them: qhull reports such input as
 * QH6154 "initial simplex is flat" or as a precision error (qh-impre.htm), with a
 * verdict that depends on point order and absolute tolerances; ours is scale-free. Greedy extreme
 * simplex as in qh_maxsimplex: the farthest pair among the 6 axis-extreme points (length L),
 * the point farthest from that line (h2), the point farthest from that plane (h3). */
static col_status hull_classify(hull_build *b, char *err, size_t errlen)
{
    int ext[6] = {0, 0, 0, 0, 0, 0};
    for (int i = 1; i < b->n; i++) {
        for (int a = 0; a < 3; a++) {
            if (b->q[3 * i + a] < b->q[3 * ext[2 * a] + a]) ext[2 * a] = i;
            if (b->q[3 * i + a] > b->q[3 * ext[2 * a + 1] + a]) ext[2 * a + 1] = i;
        }
    }
    int i0 = ext[0], i1 = ext[1];
    double best = -1.0;
    for (int s = 0; s < 6; s++) {
        for (int t = s + 1; t < 6; t++) {
            double l2 = col_len2(col_sub(hull_q(b, ext[t]), hull_q(b, ext[s])));
            if (l2 > best) best = l2, i0 = ext[s], i1 = ext[t];
        }
    }
    double len = sqrt(best);
    b->diam = len;
    col_vec3 p0 = hull_q(b, i0);
    col_vec3 u = col_scale(col_sub(hull_q(b, i1), p0), 1.0 / len);
    int i2 = i0;
    double h2 = 0.0;
    for (int i = 0; i < b->n; i++) {
        double h = col_len(col_cross(col_sub(hull_q(b, i), p0), u));
        if (h > h2) h2 = h, i2 = i;
    }
    if (!(h2 > COL_HULL_FLAT_EPS * len)) {
        hull_error(err, errlen, "the points are collinear (farthest off the line: %.3g of the diameter)",
                   h2 / len);
        return COL_ERR_DEGENERATE_SHAPE;
    }
    col_vec3 m = col_cross(u, col_sub(hull_q(b, i2), p0));
    m = col_scale(m, 1.0 / col_len(m));
    double h3 = 0.0;
    for (int i = 0; i < b->n; i++) {
        double h = fabs(col_dot(col_sub(hull_q(b, i), p0), m));
        if (h > h3) h3 = h;
    }
    if (!(h3 > COL_HULL_FLAT_EPS * len)) {
        hull_error(err, errlen, "the points are coplanar (farthest off the plane: %.3g of the diameter)",
                   h3 / len);
        return COL_ERR_DEGENERATE_SHAPE;
    }
    return COL_OK;
}

/* Copies qhull's facets out as rings of point ids, counter-clockwise seen from outside.
 * qh_facet3vertex returns an ordered ring (poly2_r.c) whose sense depends on toporient, so
 * we orient it ourselves against qhull's outward facet normal. */
static col_status hull_extract(hull_build *b, qhT *qh)
{
    facetT *facet;
    vertexT *vertex, **vertexp;
    int nf = 0;
    long total = 0;
    FORALLfacets {
        nf++;
        total += qh_setsize(qh, facet->vertices);
    }
    if (nf < 4 || total > INT_MAX) return COL_ERR_HULL_FAILED;
    b->ring_first = hull_scratch(b, (size_t)nf + 1, sizeof(int));
    b->ring = hull_scratch(b, (size_t)total, sizeof(int));
    b->normals = hull_scratch(b, (size_t)nf * 3, sizeof(double));
    if (b->ring_first == NULL || b->ring == NULL || b->normals == NULL) return COL_ERR_OUT_OF_MEMORY;
    int f = 0, k = 0;
    FORALLfacets {
        setT *verts = qh_facet3vertex(qh, facet);
        int len = qh_setsize(qh, verts);
        int bad = len < 3 || k + len > total || facet->normal == NULL;
        b->ring_first[f] = k;
        FOREACHvertex_(verts) {
            int id = qh_pointid(qh, vertex->point);
            if (id < 0 || id >= b->n || bad) {
                bad = 1;
                break;
            }
            b->ring[k++] = id;
        }
        qh_settempfree(qh, &verts);
        if (bad) return COL_ERR_HULL_FAILED;
        /* The plane is qhull's: on slivers (long thin faces of needle-like shapes) a cross
         * product of nearly parallel edges loses up to eps * length / width of direction,
         * while qhull's normal (qh_sethyperplane_det, switching to Gaussian elimination when
         * nearly singular; geom_r.c) keeps the face's vertices within ~1e-15 of its plane. */
        for (int a = 0; a < 3; a++) b->normals[3 * f + a] = facet->normal[a];
        /* Orientation only needs the sign of the area vector (Newell) along the normal, which
         * is robust; a wrong sign would still be caught by the edge pairing check. */
        int *r = b->ring + b->ring_first[f];
        col_vec3 area = col_v3(0.0, 0.0, 0.0), o = hull_q(b, r[0]);
        for (int i = 1; i + 1 < len; i++)
            area = col_add(area, col_cross(col_sub(hull_q(b, r[i]), o), col_sub(hull_q(b, r[i + 1]), o)));
        double side = area.x * facet->normal[0] + area.y * facet->normal[1] + area.z * facet->normal[2];
        if (!(fabs(side) > 0.0)) return COL_ERR_HULL_FAILED;
        if (side < 0.0) hull_reverse(r, len);
        f++;
    }
    b->ring_first[f] = k;
    b->face_count = f;
    b->ring_total = k;
    return COL_OK;
}

/* After qh_new_qhull returns, qh.NOerrexit is set again and any qhull error would call
 * exit() (qh_errexit in user_r.c), so the calls we make afterwards (qh_facet3vertex, qh_settemp
 * allocate) run under our own setjmp with NOerrexit cleared, as libqhull_r.h prescribes
 * for callers of qhull routines. Only b (not a local here) is written after setjmp. */
static col_status hull_extract_guarded(hull_build *b, qhT *qh)
{
    switch (setjmp(qh->errexit)) {
    case 0:
        break;
    case qh_ERRmem:
        return COL_ERR_OUT_OF_MEMORY;
    default:
        return COL_ERR_HULL_FAILED;
    }
    qh->NOerrexit = False;
    col_status st = hull_extract(b, qh);
    qh->NOerrexit = True;
    return st;
}

/* Runs qhull on b->q. Its messages go into a fixed buffer through fmemopen (never to the
 * user's stderr; a full buffer just drops the rest), and the first "QHnnnn" line becomes err. */
static col_status hull_run_qhull(hull_build *b, char *err, size_t errlen)
{
    char msg[512];
    memset(msg, 0, sizeof msg);
    FILE *errfile = fmemopen(msg, sizeof msg - 1, "w");
    if (errfile == NULL) {
        hull_error(err, errlen, "could not open a memory stream for qhull's messages");
        return COL_ERR_OUT_OF_MEMORY;
    }
    qhT qh_storage;
    qhT *qh = &qh_storage;
    /* "qhull" alone: the 3-d defaults 'C-0 Qc' merge coplanar facets so a cube gives 6 quad
     * facets (qh-optc.htm#C0); no 'Qt' (triangulated output) and no 'QJ' (joggle would move
     * vertices off the input points). */
    char cmd[] = "qhull";
    qh_zero(qh, errfile);
    int code = qh_new_qhull(qh, 3, b->n, b->q, False, cmd, NULL, errfile);
    /* Singular input (QH6154 initial simplex is flat), precision errors and wide merges all
     * mean "too close to flat" (libqhull_r.h qh_ERR*); memory is memory; the rest is qhull. */
    col_status st = code == 0                 ? hull_extract_guarded(b, qh)
                    : code == qh_ERRmem       ? COL_ERR_OUT_OF_MEMORY
                    : code == qh_ERRsingular || code == qh_ERRprec || code == qh_ERRwide
                        ? COL_ERR_DEGENERATE_SHAPE
                        : COL_ERR_HULL_FAILED;
    int curlong = 0, totlong = 0;
    qh_freeqhull(qh, !qh_ALL); /* long memory; then short memory (user_eg_r.c) */
    qh_memfreeshort(qh, &curlong, &totlong);
    fclose(errfile);
    if (st == COL_OK) return COL_OK;
    const char *line = strstr(msg, "QH6"); /* errors are QH6nnnn, warnings QH7nnnn */
    if (line == NULL) line = strstr(msg, "QH");
    if (line == NULL) line = msg[0] != '\0' ? msg : "no message";
    int linelen = (int)strcspn(line, "\n");
    if (linelen > 200) linelen = 200;
    if (code == qh_ERRmem) hull_error(err, errlen, "qhull ran out of memory");
    else if (code != 0) /* code 0: our own reading failed; col_hull_build words it */
        hull_error(err, errlen, "qhull could not build the hull (exit code %d): %.*s", code, linelen, line);
    return st;
}

static int hull_cmp_face(const void *a, const void *b)
{
    const hull_face_rec *x = a, *y = b;
    int n = x->len < y->len ? x->len : y->len;
    for (int i = 0; i < n; i++)
        if (x->ring[i] != y->ring[i]) return x->ring[i] < y->ring[i] ? -1 : 1;
    return (x->len > y->len) - (x->len < y->len);
}

/* Total order (lo, hi, forward first, face): never relies on qsort stability. */
static int hull_cmp_half_edge(const void *a, const void *b)
{
    const hull_half_edge *x = a, *y = b;
    if (x->lo != y->lo) return x->lo < y->lo ? -1 : 1;
    if (x->hi != y->hi) return x->hi < y->hi ? -1 : 1;
    if (x->fwd != y->fwd) return x->fwd > y->fwd ? -1 : 1;
    return (x->face > y->face) - (x->face < y->face);
}

/* Next array of the output block: aligns *off, returns base + *off (NULL when only
 * measuring) and advances *off past count elements. */
static void *hull_carve(size_t *off, char *base, int count, size_t elem, size_t align)
{
    *off = (*off + align - 1) / align * align;
    void *p = base != NULL ? base + *off : NULL;
    *off += (size_t)count * elem;
    return p;
}

/* Lays the arrays out in one block (base == NULL: only measures); returns its size. */
static size_t hull_layout(col_hull *h, char *base, int nv, int nf, int total)
{
    size_t off = 0;
    h->vertices = hull_carve(&off, base, nv, sizeof(col_vec3), _Alignof(col_vec3));
    h->planes = hull_carve(&off, base, nf, sizeof(col_plane), _Alignof(col_plane));
    h->face_first = hull_carve(&off, base, nf + 1, sizeof(int), _Alignof(int));
    h->face_verts = hull_carve(&off, base, total, sizeof(int), _Alignof(int));
    h->edge_verts = hull_carve(&off, base, total, sizeof(int), _Alignof(int));
    h->edge_faces = hull_carve(&off, base, total, sizeof(int), _Alignof(int));
    h->adj_first = hull_carve(&off, base, nv + 1, sizeof(int), _Alignof(int));
    h->adj = hull_carve(&off, base, total, sizeof(int), _Alignof(int));
    return off;
}

/* Turns the extracted rings into the final arrays and validates them (Euler, two faces per
 * edge, degree >= 3, planarity, containment of every input point, positive volume). */
/* What the finishing steps share: the build, the hull being filled, and the numbering
 * and sorted faces and half-edges they derive from qhull's rings. */
typedef struct hull_fin {
    hull_build *b;
    col_hull h;
    int n, nf, total, nv, ne;
    int *vid;              /* input point -> vertex index (-1: not a vertex); then cursors */
    int *pid;              /* vertex -> input point */
    double *dq;            /* per face: the plane's offset in the scaled frame */
    hull_face_rec *recs;   /* faces in their final (sorted) order */
    hull_half_edge *he;    /* half-edges sorted by (lo, hi, direction) */
    char *err;
    size_t errlen;
} hull_fin;

/* Vertices are the ring members, numbered by increasing input index. */
static col_status fin_number_vertices(hull_fin *x)
{
    hull_build *b = x->b;
    int *vid = x->vid;
    for (int i = 0; i < x->n; i++) vid[i] = -1;
    for (int k = 0; k < x->total; k++) vid[b->ring[k]] = 0;
    int nv = 0;
    for (int i = 0; i < x->n; i++) vid[i] = vid[i] == 0 ? nv++ : -1;
    x->nv = nv;
    x->pid = hull_scratch(b, (size_t)nv, sizeof(int));
    x->dq = hull_scratch(b, (size_t)x->nf, sizeof(double));
    if (x->pid == NULL || x->dq == NULL) return COL_ERR_OUT_OF_MEMORY;
    for (int i = 0; i < x->n; i++)
        if (vid[i] >= 0) x->pid[vid[i]] = i;
    return COL_OK;
}

/* Rings in vertex indices, rotated to start at their smallest index (orientation kept),
 * then faces sorted lexicographically: a total order, since two faces never share a
 * directed edge, so builds of the same input give identical arrays. */
static void fin_sort_faces(hull_fin *x)
{
    hull_build *b = x->b;
    for (int f = 0; f < x->nf; f++) {
        int *r = b->ring + b->ring_first[f];
        int len = b->ring_first[f + 1] - b->ring_first[f], lo = 0;
        for (int i = 0; i < len; i++) {
            r[i] = x->vid[r[i]];
            if (r[i] < r[lo]) lo = i;
        }
        hull_reverse(r, lo); /* rotate left by lo with three reversals */
        hull_reverse(r + lo, len - lo);
        hull_reverse(r, len);
        x->recs[f].ring = r;
        x->recs[f].len = len;
        x->recs[f].src = f;
    }
    qsort(x->recs, (size_t)x->nf, sizeof *x->recs, hull_cmp_face);
}

/* Edges: every directed ring edge once; each undirected edge must appear exactly twice,
 * once in each direction, from two different faces, and V - E + F = 2. */
static col_status fin_pair_edges(hull_fin *x)
{
    int k = 0;
    for (int f = 0; f < x->nf; f++) {
        for (int i = 0; i < x->recs[f].len; i++, k++) {
            int a = x->recs[f].ring[i], c = x->recs[f].ring[(i + 1) % x->recs[f].len];
            x->he[k] = (hull_half_edge){a < c ? a : c, a < c ? c : a, a < c, f};
        }
    }
    qsort(x->he, (size_t)x->total, sizeof *x->he, hull_cmp_half_edge);
    x->ne = x->total / 2;
    if (x->total % 2 != 0) {
        hull_error(x->err, x->errlen, "hull check failed: odd number of face edges");
        return COL_ERR_HULL_FAILED;
    }
    for (int e = 0; e < x->ne; e++) {
        const hull_half_edge *p = &x->he[2 * e], *q = &x->he[2 * e + 1];
        if (p->lo == p->hi || p->lo != q->lo || p->hi != q->hi || !p->fwd || q->fwd || p->face == q->face) {
            hull_error(x->err, x->errlen, "hull check failed: edge %d-%d does not have exactly two faces", p->lo,
                       p->hi);
            return COL_ERR_HULL_FAILED;
        }
    }
    if (x->nv - x->ne + x->nf != 2) {
        hull_error(x->err, x->errlen, "hull check failed: V - E + F = %d - %d + %d is not 2", x->nv, x->ne, x->nf);
        return COL_ERR_HULL_FAILED;
    }
    return COL_OK;
}

/* One block for the hull's arrays, and its vertices, radius and box. Counts are ints and
 * elements at most 32 bytes: the size cannot overflow on 64-bit targets; the guard is for
 * 32-bit ones. */
static col_status fin_allocate(hull_fin *x)
{
    hull_build *b = x->b;
    col_hull *h = &x->h;
    if ((size_t)x->total > SIZE_MAX / 256 || (size_t)x->nv > SIZE_MAX / 256) return COL_ERR_OUT_OF_MEMORY;
    memset(h, 0, sizeof *h);
    size_t size = hull_layout(h, NULL, x->nv, x->nf, x->total);
    char *block = col_alloc_bytes(b->alloc, size);
    if (block == NULL) return COL_ERR_OUT_OF_MEMORY;
    hull_layout(h, block, x->nv, x->nf, x->total);
    h->block = block;
    h->block_size = size;
    h->vertex_count = x->nv;
    h->face_count = x->nf;
    h->edge_count = x->ne;
    h->aabb_min = h->aabb_max = b->pts[x->pid[0]];
    for (int v = 0; v < x->nv; v++) {
        col_vec3 p = b->pts[x->pid[v]];
        h->vertices[v] = p;
        double r = col_len(p);
        if (r > h->radius) h->radius = r;
        h->aabb_min = col_v3(fmin(h->aabb_min.x, p.x), fmin(h->aabb_min.y, p.y), fmin(h->aabb_min.z, p.z));
        h->aabb_max = col_v3(fmax(h->aabb_max.x, p.x), fmax(h->aabb_max.y, p.y), fmax(h->aabb_max.z, p.z));
    }
    return COL_OK;
}

/* Faces and planes: qhull's normal from the scaled frame (the same direction in the
 * input frame, the map being a translation and a positive scale); d is the largest n.v
 * over the face's vertices, in input coordinates for the output, scaled ones for checks. */
static col_status fin_faces(hull_fin *x)
{
    hull_build *b = x->b;
    col_hull *h = &x->h;
    const double tol = COL_HULL_CHECK_EPS * b->diam;
    int k = 0;
    for (int f = 0; f < x->nf; f++) {
        const hull_face_rec *rf = &x->recs[f];
        h->face_first[f] = k;
        memcpy(h->face_verts + k, rf->ring, (size_t)rf->len * sizeof(int));
        k += rf->len;
        const double *qn = b->normals + 3 * rf->src; /* unit already; renormalised in double */
        col_vec3 nrm = col_v3(qn[0], qn[1], qn[2]);
        nrm = col_scale(nrm, 1.0 / col_len(nrm));
        double d = -HUGE_VAL, dmin = HUGE_VAL, dmax = -HUGE_VAL;
        for (int i = 0; i < rf->len; i++) {
            int v = rf->ring[i];
            double t = col_dot(nrm, hull_q(b, x->pid[v]));
            dmax = fmax(dmax, t);
            dmin = fmin(dmin, t);
            d = fmax(d, col_dot(nrm, h->vertices[v]));
        }
        h->planes[f].n = nrm;
        h->planes[f].d = d;
        x->dq[f] = dmax;
        if (!(dmax - dmin <= tol)) {
            hull_error(x->err, x->errlen, "hull check failed: face %d is not planar (%.3g)", f, dmax - dmin);
            return COL_ERR_HULL_FAILED;
        }
    }
    h->face_first[x->nf] = k;
    return COL_OK;
}

/* Edges in (lo, hi) order; [2e] is the face whose ring runs lo -> hi. The adjacency lists
 * come out ascending because edges are sorted by lo then hi (a vertex first receives its
 * smaller neighbours, as hi of earlier edges, then its larger ones, as lo). */
static col_status fin_edges(hull_fin *x)
{
    col_hull *h = &x->h;
    const hull_half_edge *he = x->he;
    for (int v = 0; v <= x->nv; v++) h->adj_first[v] = 0;
    for (int e = 0; e < x->ne; e++) {
        h->edge_verts[2 * e] = he[2 * e].lo;
        h->edge_verts[2 * e + 1] = he[2 * e].hi;
        h->edge_faces[2 * e] = he[2 * e].face;
        h->edge_faces[2 * e + 1] = he[2 * e + 1].face;
        h->adj_first[he[2 * e].lo + 1]++;
        h->adj_first[he[2 * e].hi + 1]++;
    }
    for (int v = 0; v < x->nv; v++) {
        if (h->adj_first[v + 1] < 3) {
            hull_error(x->err, x->errlen, "hull check failed: vertex %d has only %d edges", v, h->adj_first[v + 1]);
            return COL_ERR_HULL_FAILED;
        }
        h->adj_first[v + 1] += h->adj_first[v];
    }
    int *cur = x->vid; /* reused as fill cursors */
    for (int v = 0; v < x->nv; v++) cur[v] = h->adj_first[v];
    for (int e = 0; e < x->ne; e++) {
        h->adj[cur[he[2 * e].lo]++] = he[2 * e].hi;
        h->adj[cur[he[2 * e].hi]++] = he[2 * e].lo;
    }
    return COL_OK;
}

/* Every input point inside every plane (one-off O(n F) cost at shape creation). */
static col_status fin_check_points(hull_fin *x)
{
    const double tol = COL_HULL_CHECK_EPS * x->b->diam;
    for (int f = 0; f < x->nf; f++) {
        for (int i = 0; i < x->n; i++) {
            double out_by = col_dot(x->h.planes[f].n, hull_q(x->b, i)) - x->dq[f];
            if (out_by > tol) {
                hull_error(x->err, x->errlen, "hull check failed: point %d is outside face %d by %.3g", i, f, out_by);
                return COL_ERR_HULL_FAILED;
            }
        }
    }
    return COL_OK;
}

/* Volume and centroid as a sum of pyramids from the vertex mean o (strictly inside a
 * solid) over each face: volume A h / 3, centroid o + 3/4 (c - o) with c the face's area
 * centroid. Heights come from the accurate planes and areas are projected on them, so
 * every term is positive: unlike a signed tetrahedron fan there is no cancellation on
 * needle-like shapes. Scaled frame, mapped back exactly by the power of two. */
static col_status fin_mass(hull_fin *x)
{
    hull_build *b = x->b;
    col_hull *h = &x->h;
    col_vec3 o = col_v3(0.0, 0.0, 0.0);
    for (int v = 0; v < x->nv; v++) o = col_add(o, hull_q(b, x->pid[v]));
    o = col_scale(o, 1.0 / x->nv);
    double vol = 0.0;
    col_vec3 cm = col_v3(0.0, 0.0, 0.0);
    for (int f = 0; f < x->nf; f++) {
        const int *r = h->face_verts + h->face_first[f];
        int len = h->face_first[f + 1] - h->face_first[f];
        col_vec3 nrm = h->planes[f].n, v0 = hull_q(b, x->pid[r[0]]);
        double area = 0.0;
        col_vec3 ca = col_v3(0.0, 0.0, 0.0);
        for (int i = 1; i + 1 < len; i++) {
            col_vec3 v1 = hull_q(b, x->pid[r[i]]), v2 = hull_q(b, x->pid[r[i + 1]]);
            double t = 0.5 * col_dot(nrm, col_cross(col_sub(v1, v0), col_sub(v2, v0)));
            area += t;
            ca = col_add(ca, col_scale(col_add(v0, col_add(v1, v2)), t / 3.0));
        }
        double height = x->dq[f] - col_dot(nrm, o), pv = area * height / 3.0;
        if (!(area > 0.0) || !(height > 0.0)) {
            hull_error(x->err, x->errlen, "hull check failed: face %d has area %.3g, height %.3g", f, area, height);
            return COL_ERR_HULL_FAILED;
        }
        vol += pv;
        cm = col_add(cm, col_scale(col_add(o, col_scale(col_sub(col_scale(ca, 1.0 / area), o), 0.75)), pv));
    }
    if (!(vol > 0.0)) {
        hull_error(x->err, x->errlen, "hull check failed: volume %.3g is not positive", vol);
        return COL_ERR_HULL_FAILED;
    }
    cm = col_scale(cm, 1.0 / vol);
    for (int f = 0; f < x->nf; f++) {
        if (!(col_dot(h->planes[f].n, cm) < x->dq[f])) {
            hull_error(x->err, x->errlen, "hull check failed: centroid is not inside face %d", f);
            return COL_ERR_HULL_FAILED;
        }
    }
    int e = b->scale_exp;
    h->volume = ldexp(vol, 3 * e);
    h->centroid = col_v3(b->center.x + ldexp(cm.x, e), b->center.y + ldexp(cm.y, e), b->center.z + ldexp(cm.z, e));
    if (!(h->volume >= DBL_MIN)) {
        hull_error(x->err, x->errlen, "the shape is too small: its volume underflows");
        return COL_ERR_DEGENERATE_SHAPE;
    }
    return COL_OK;
}

/* Turns qhull's rings into the hull's arrays, checking the result as it goes. */
static col_status hull_finish(hull_build *b, col_hull *out, char *err, size_t errlen)
{
    hull_fin x;
    memset(&x, 0, sizeof x);
    x.b = b;
    x.n = b->n;
    x.nf = b->face_count;
    x.total = b->ring_total;
    x.err = err;
    x.errlen = errlen;
    x.vid = hull_scratch(b, (size_t)x.n, sizeof(int));
    x.recs = hull_scratch(b, (size_t)x.nf, sizeof(hull_face_rec));
    x.he = hull_scratch(b, (size_t)x.total, sizeof(hull_half_edge));
    if (x.vid == NULL || x.recs == NULL || x.he == NULL) return COL_ERR_OUT_OF_MEMORY;
    col_status st = fin_number_vertices(&x);
    if (st != COL_OK) return st;
    fin_sort_faces(&x);
    st = fin_pair_edges(&x);
    if (st == COL_OK) st = fin_allocate(&x);
    if (st != COL_OK) return st;
    st = fin_faces(&x);
    if (st == COL_OK) st = fin_edges(&x);
    if (st == COL_OK) st = fin_check_points(&x);
    if (st == COL_OK) st = fin_mass(&x);
    if (st != COL_OK) {
        col_free_bytes(b->alloc, x.h.block, x.h.block_size);
        return st;
    }
    *out = x.h;
    return COL_OK;
}

col_status col_hull_build(struct col_alloc *alloc, const col_vec3 *points, int n, col_hull *out,
                          char *err, size_t errlen)
{
    if (err != NULL && errlen > 0) err[0] = '\0';
    if (out != NULL) memset(out, 0, sizeof *out);
    if (alloc == NULL || out == NULL || points == NULL || n < 0) {
        hull_error(err, errlen, "invalid argument: NULL allocator, points or output, or negative count");
        return COL_ERR_INVALID_ARGUMENT;
    }
    for (int i = 0; i < n; i++) {
        if (!col_vec3_is_finite(points[i]) || col_max_abs(points[i]) > COL_MAX_COORD) {
            hull_error(err, errlen, "point %d is not finite or exceeds COL_MAX_COORD in magnitude", i);
            return COL_ERR_NOT_FINITE;
        }
    }
    /* Four distinct points (exact comparison) are needed; fewer, including all coincident,
     * is TOO_FEW_POINTS. Near-coincident sets are left to the flatness test. */
    int distinct[4] = {0, 0, 0, 0}, nd = n > 0 ? 1 : 0;
    for (int i = 1; i < n && nd < 4; i++) {
        int fresh = 1;
        for (int j = 0; j < nd && fresh; j++) {
            col_vec3 p = points[i], q = points[distinct[j]];
            fresh = !(p.x == q.x && p.y == q.y && p.z == q.z);
        }
        if (fresh) distinct[nd++] = i;
    }
    if (nd < 4) {
        hull_error(err, errlen, "a hull needs at least 4 distinct points, got %d", nd);
        return COL_ERR_TOO_FEW_POINTS;
    }

    hull_build b;
    memset(&b, 0, sizeof b);
    b.alloc = alloc;
    b.pts = points;
    b.n = n;
    col_vec3 lo = points[0], hi = points[0];
    for (int i = 1; i < n; i++) {
        col_vec3 p = points[i];
        lo = col_v3(fmin(lo.x, p.x), fmin(lo.y, p.y), fmin(lo.z, p.z));
        hi = col_v3(fmax(hi.x, p.x), fmax(hi.y, p.y), fmax(hi.z, p.z));
    }
    b.center = col_scale(col_add(lo, hi), 0.5);
    /* Scale by 2^-e so the largest extent lies in [0.5, 1): exact, so qhull's tolerances,
     * which are absolute (qh_detroundoff scales them with the largest coordinate), become
     * relative to the shape, and the shape's offset from the origin costs no precision. */
    frexp(col_max_abs(col_sub(hi, lo)), &b.scale_exp);
    col_status st = COL_OK;
    b.q = hull_scratch(&b, (size_t)n * 3, sizeof(double));
    if (b.q == NULL) st = COL_ERR_OUT_OF_MEMORY;
    for (int i = 0; i < n && st == COL_OK; i++) {
        col_vec3 d = col_sub(points[i], b.center);
        b.q[3 * i] = ldexp(d.x, -b.scale_exp);
        b.q[3 * i + 1] = ldexp(d.y, -b.scale_exp);
        b.q[3 * i + 2] = ldexp(d.z, -b.scale_exp);
    }
    if (st == COL_OK) st = hull_classify(&b, err, errlen);
    if (st == COL_OK) st = hull_run_qhull(&b, err, errlen);
    if (st == COL_OK) st = hull_finish(&b, out, err, errlen);
    if (st != COL_OK && err != NULL && errlen > 0 && err[0] == '\0')
        hull_error(err, errlen, st == COL_ERR_OUT_OF_MEMORY ? "out of memory while building a hull"
                                                            : "qhull returned facets that could not be read");
    hull_scratch_free_all(&b);
    return st;
}

void col_hull_free(struct col_alloc *alloc, col_hull *hull)
{
    if (hull == NULL) return;
    if (alloc != NULL && hull->block != NULL) col_free_bytes(alloc, hull->block, hull->block_size);
    memset(hull, 0, sizeof *hull);
}

col_status col_hull_copy(struct col_alloc *alloc, const col_hull *src, col_hull *out)
{
    memset(out, 0, sizeof *out);
    char *block = col_alloc_bytes(alloc, src->block_size);
    if (block == NULL) return COL_ERR_OUT_OF_MEMORY;
    memcpy(block, src->block, src->block_size);
    *out = *src;
    /* The arrays keep their offsets in the block (hull_layout). */
    out->vertices = (col_vec3 *)(block + ((const char *)src->vertices - (const char *)src->block));
    out->planes = (col_plane *)(block + ((const char *)src->planes - (const char *)src->block));
    out->face_first = (int *)(block + ((const char *)src->face_first - (const char *)src->block));
    out->face_verts = (int *)(block + ((const char *)src->face_verts - (const char *)src->block));
    out->edge_verts = (int *)(block + ((const char *)src->edge_verts - (const char *)src->block));
    out->edge_faces = (int *)(block + ((const char *)src->edge_faces - (const char *)src->block));
    out->adj_first = (int *)(block + ((const char *)src->adj_first - (const char *)src->block));
    out->adj = (int *)(block + ((const char *)src->adj - (const char *)src->block));
    out->block = block;
    return COL_OK;
}

int col_hull_support_scan(const col_hull *hull, col_vec3 d)
{
    if (hull == NULL || hull->vertex_count <= 0) return -1;
    int best = 0;
    double bd = col_dot(d, hull->vertices[0]);
    for (int v = 1; v < hull->vertex_count; v++) {
        double t = col_dot(d, hull->vertices[v]);
        if (t > bd) bd = t, best = v; /* strict: ties keep the lowest index */
    }
    return best;
}

void col_hull_box_at(const col_hull *hull, const col_xform *xf, col_vec3 *min, col_vec3 *max)
{
    col_vec3 mid = col_scale(col_add(hull->aabb_min, hull->aabb_max), 0.5);
    col_vec3 half = col_scale(col_sub(hull->aabb_max, hull->aabb_min), 0.5);
    col_vec3 c = col_xform_point(xf, mid);
    const double *m = xf->R.m;
    double e[3], cc[3] = {c.x, c.y, c.z}, lo[3], hi[3];
    for (int a = 0; a < 3; a++) {
        e[a] = fabs(m[3 * a]) * half.x + fabs(m[3 * a + 1]) * half.y + fabs(m[3 * a + 2]) * half.z;
        /* Outward slack: the rounding of R v + p and of this formula is a few ulps of
         * |c| + e; 1e-12 relative is orders of magnitude more, and still negligible. */
        double slack = 1e-12 * (fabs(cc[a]) + e[a]) + DBL_MIN;
        lo[a] = cc[a] - e[a] - slack;
        hi[a] = cc[a] + e[a] + slack;
    }
    *min = col_v3(lo[0], lo[1], lo[2]);
    *max = col_v3(hi[0], hi[1], hi[2]);
}

int col_hull_support_climb(const col_hull *hull, col_vec3 d, int start, int *moves_out, long *evals_out)
{
    const col_vec3 *vx = hull->vertices;
    const int *first = hull->adj_first, *adj = hull->adj;
    int v = start, moves = 0;
    long evals = 1;
    double best = col_dot(d, vx[v]);
    /* Each move strictly raises the value, so at most n - 1 moves (the cap is the
     * vertex count, never reached on a convex hull's graph). */
    for (int it = 0; it < hull->vertex_count; it++) {
        int next = v;
        for (int k = first[v]; k < first[v + 1]; k++) {
            int u = adj[k];
            double t = col_dot(d, vx[u]);
            if (t > best) {
                best = t;
                next = u;
            }
        }
        evals += first[v + 1] - first[v];
        if (next == v) break;
        v = next;
        moves++;
    }
    if (moves_out != NULL) *moves_out = moves;
    if (evals_out != NULL) *evals_out = evals;
    return v;
}
