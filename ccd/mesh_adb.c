/* SPDX-License-Identifier: MIT */
/* The ADB-tree traversal (ccd/mesh_adb.h, docs/adb.md).
 *
 * The estimate of a node pair (the paper's section 3): the intersection of a's box with
 * b's box carried into a's frame (its axis-aligned hull there) has volume V. The coarser
 * of the two nodes' cells, volume v, divides it into s = V / v cells. Node a's c_a
 * collision cells are taken as spread evenly over its box, so c_a V / V_a of them lie in
 * the intersection, counted in a's own cells; in cells of volume v a surface covers
 * fewer, by the area ratio (v_a / v)^(2/3). The same for b; then p = P(s, s_a, s_b) of
 * lib/core/adb_table.h (values rounded to whole cells, s at most COL_ADB_SMAX).
 *
 * The node test. A pair is dropped only when one of the 15 axes of the two boxes
 * (Gottschalk, Lin & Manocha, "OBBTree", SIGGRAPH 1996) separates them by more than a
 * slack of 1e-9 times the size of the coordinates involved, far above the rounding of
 * the test and of the world vertices (a few units of 2^-53 of that size,
 * narrowphase/mesh_collide.c proves the bounds): so a dropped pair holds no meeting
 * triangles, and every answer "apart" rests on exact triangle tests only. */
#include "ccd/mesh_adb.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "lib/core/adb_table.h"
#include "narrowphase/mesh_bv_bound.h"
#include "narrowphase/tri_tri.h"

enum { HEAP_CAP = 4096, TRI_CACHE = 64, DFS_STACK = 2 * COL_MESH_MAX_DEPTH + 2 };

typedef struct heap_entry {
    double p;
    int32_t ia, ib;
    uint32_t seq;
    int32_t depth; /* depth of a's node plus depth of b's (the root pair: 0) */
} heap_entry;

typedef struct world_tri {
    int32_t k;
    col_vec3 w[3];
    double lo[3], hi[3];
} world_tri;

typedef struct adb_ctx {
    const col_mesh *a, *b;
    const col_adb_tree *ta, *tb;
    const col_xform *xa, *xb;
    double M[9], Mabs[9], t[3];
    double slack;
    double rate;      /* the depth factor's */
    col_bv_frame bvf; /* the fitted boxes' certified test (narrowphase/mesh_bv_bound.h) */
    bool bvf_ready;   /* set up on first use */
    int32_t hit_a, hit_b; /* the meeting triangle pair, leaf order */
    uint32_t seq;
    int n;
    heap_entry heap[HEAP_CAP];
    world_tri wa[TRI_CACHE], wb[TRI_CACHE];
} adb_ctx;

bool col_adb_params_valid(const col_adb_params *p)
{
    return p != NULL && isfinite(p->p_min) && p->p_min > 0 && p->p_min <= 1 && p->k_min >= 1 &&
           p->max_visits >= 0 && isfinite(p->time_budget) && p->time_budget >= 0 && isfinite(p->depth_rate) &&
           p->depth_rate >= 0;
}

static void box_of(const col_mesh_node *n, double c[3], double h[3])
{
    c[0] = 0.5 * (n->min.x + n->max.x);
    c[1] = 0.5 * (n->min.y + n->max.y);
    c[2] = 0.5 * (n->min.z + n->max.z);
    h[0] = 0.5 * (n->max.x - n->min.x);
    h[1] = 0.5 * (n->max.y - n->min.y);
    h[2] = 0.5 * (n->max.z - n->min.z);
}

/* b's box centre in a's frame, T relative to a's centre. */
static void rel_centre(const double M[9], const double t[3], const double ca[3], const double cb[3], double T[3])
{
    for (int i = 0; i < 3; i++) T[i] = M[3 * i] * cb[0] + M[3 * i + 1] * cb[1] + M[3 * i + 2] * cb[2] + t[i] - ca[i];
}

/* true when some axis separates the boxes by more than the slack */
static bool separated_aabb(const adb_ctx *x, const col_mesh_node *na, const col_mesh_node *nb)
{
    double ca[3], ha[3], cb[3], hb[3], T[3];
    box_of(na, ca, ha);
    box_of(nb, cb, hb);
    rel_centre(x->M, x->t, ca, cb, T);
    const double *M = x->M, *A = x->Mabs, sl = x->slack;
    for (int i = 0; i < 3; i++)
        if (fabs(T[i]) - ha[i] - (A[3 * i] * hb[0] + A[3 * i + 1] * hb[1] + A[3 * i + 2] * hb[2]) > sl) return true;
    for (int j = 0; j < 3; j++) {
        double lt = M[j] * T[0] + M[3 + j] * T[1] + M[6 + j] * T[2];
        if (fabs(lt) - (A[j] * ha[0] + A[3 + j] * ha[1] + A[6 + j] * ha[2]) - (hb[j] * (1 + 1e-9)) > sl) return true;
    }
    for (int i = 0; i < 3; i++) {
        int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
        for (int j = 0; j < 3; j++) {
            int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
            /* L = e_i x c_j: L.T = T[i2] M[i1][j] - T[i1] M[i2][j] */
            double lt = T[i2] * M[3 * i1 + j] - T[i1] * M[3 * i2 + j];
            double ra = ha[i1] * A[3 * i2 + j] + ha[i2] * A[3 * i1 + j];
            double rb = hb[j1] * A[3 * i + j2] + hb[j2] * A[3 * i + j1];
            if (fabs(lt) - ra - rb > sl) return true;
        }
    }
    return false;
}

/* the fitted boxes' certified test; its frame is set up on first use (a query the local
 * boxes decide never pays for it) */
static bool obb_apart(adb_ctx *x, int32_t ia, int32_t ib)
{
    if (!x->bvf_ready) {
        col_bv_frame_setup(&x->bvf, x->a, x->xa, x->b, x->xb);
        x->bvf_ready = true;
    }
    return col_bv_obb_gap(&x->bvf, &x->a->bvs[ia], &x->b->bvs[ib]) > 0;
}

/* the local boxes first, then the fitted boxes' certified test where those fail (as the
 * exact traversal does: docs/meshes.md "Bounding volumes measured") */
static bool separated(adb_ctx *x, const col_mesh_node *na, const col_mesh_node *nb)
{
    if (separated_aabb(x, na, nb)) return true;
    return obb_apart(x, (int32_t)(na - x->a->nodes), (int32_t)(nb - x->b->nodes));
}

static inline double dmin(double a, double b) { return a < b ? a : b; }
static inline double dmax(double a, double b) { return a > b ? a : b; }

/* x^(1/3) for x in (0, 1], to about 1e-6 relative (plenty: the estimate is rounded to whole
 * cells): a first guess from the exponent, then Newton steps (libm's cbrt was 4 % of a
 * query's time). The exponent is read from the bits for normal x (frexp and ldexp were
 * library calls on the probe's path; the values are the same, every step being exact). */
static double cube_root(double x)
{
    if (!(x > 0)) return 0.0;
    int e;
    double m;
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    int be = (int)((bits >> 52) & 0x7ff);
    if (be != 0 && be != 0x7ff) {
        e = be - 1022; /* x = m 2^e, m in [0.5, 1) */
        bits = (bits & ~(0x7ffULL << 52)) | (1022ULL << 52);
        memcpy(&m, &bits, sizeof m);
    } else {
        m = frexp(x, &e);
    }
    int q = e >= 0 ? e / 3 : -((-e + 2) / 3), rem = e - 3 * q; /* e = 3q + rem, rem in 0..2 */
    /* 2^q, q >= -358 here (x >= 2^-1074), a normal double: the product is ldexp's, exactly */
    uint64_t pq = (uint64_t)(q + 1023) << 52;
    double two_q;
    memcpy(&two_q, &pq, sizeof two_q);
    double y = (0.7 + 0.3 * m) * two_q * (rem == 0 ? 1.0 : rem == 1 ? 1.2599210498948732 : 1.5874010519681994);
    for (int k = 0; k < 3; k++) y -= (y * y * y - x) / (3 * y * y);
    return y;
}

double col_adb_pair_probability(const col_mesh *a, const col_adb_tree *ta, int ia, const col_mesh *b,
                                const col_adb_tree *tb, int ib, const double M[9], const double t[3])
{
    const col_mesh_node *na = &a->nodes[ia], *nb = &b->nodes[ib];
    int ca_cells = ta->cells[ia], cb_cells = tb->cells[ib];
    if (ca_cells == 0 || cb_cells == 0) return 0.0;
    const double la[3] = {na->min.x, na->min.y, na->min.z}, ua[3] = {na->max.x, na->max.y, na->max.z};
    const double lb[3] = {nb->min.x, nb->min.y, nb->min.z}, ub[3] = {nb->max.x, nb->max.y, nb->max.z};
    double cora[3], sa[3], corb[3], sb[3];
    col_adb_cell_geometry(la, ua, cora, sa);
    col_adb_cell_geometry(lb, ub, corb, sb);
    /* the widened boxes, b's carried into a's frame as an axis-aligned hull */
    double cb[3], hb[3];
    for (int k = 0; k < 3; k++) {
        hb[k] = 0.5 * sb[k] * COL_ADB_GRID;
        cb[k] = corb[k] + hb[k];
    }
    double V = 1;
    for (int i = 0; i < 3; i++) {
        double c = M[3 * i] * cb[0] + M[3 * i + 1] * cb[1] + M[3 * i + 2] * cb[2] + t[i];
        double h = fabs(M[3 * i]) * hb[0] + fabs(M[3 * i + 1]) * hb[1] + fabs(M[3 * i + 2]) * hb[2];
        double lo = dmax(cora[i], c - h), hi = dmin(cora[i] + sa[i] * COL_ADB_GRID, c + h);
        if (!(hi > lo)) return 0.0;
        V *= hi - lo;
    }
    const double G3 = (double)(COL_ADB_GRID * COL_ADB_GRID * COL_ADB_GRID);
    double va = sa[0] * sa[1] * sa[2], vb = sb[0] * sb[1] * sb[2];
    double v = dmax(va, vb);
    double s = V / v;
    /* (v_small / v)^(2/3) for the finer side; 1 for the coarser */
    double r = cube_root(dmin(va, vb) / v);
    double fa = ca_cells * (V / (va * G3)) * (va < vb ? r * r : 1.0);
    double fb = cb_cells * (V / (vb * G3)) * (va < vb ? 1.0 : r * r);
    /* ceil and floor by conversion (s > 0, and fa, fb >= 0 and at most 64: V is at most
     * either box's volume), without the library calls */
    double sc = dmin(s, (double)COL_ADB_SMAX);
    int is = (int)sc;
    if ((double)is < sc) is++;
    if (is < 1) is = 1;
    int ia_ = (int)(fa + 0.5), ib_ = (int)(fb + 0.5);
    return col_adb_probability(is, ia_ > is ? is : ia_, ib_ > is ? is : ib_);
}

static const world_tri *tri_of(world_tri *cache, const col_mesh *m, const col_xform *xf, int k)
{
    world_tri *e = &cache[k & (TRI_CACHE - 1)];
    if (e->k != k) {
        col_vec3 t[3];
        col_mesh_triangle(m, k, t);
        e->k = k;
        for (int j = 0; j < 3; j++) e->w[j] = col_xform_point(xf, t[j]);
        for (int d = 0; d < 3; d++) {
            double p = d == 0 ? e->w[0].x : d == 1 ? e->w[0].y : e->w[0].z;
            double q = d == 0 ? e->w[1].x : d == 1 ? e->w[1].y : e->w[1].z;
            double r = d == 0 ? e->w[2].x : d == 1 ? e->w[2].y : e->w[2].z;
            e->lo[d] = fmin(p, fmin(q, r));
            e->hi[d] = fmax(p, fmax(q, r));
        }
    }
    return e;
}

/* every triangle pair of two leaves, exactly (world boxes first: exact, min and max of
 * the world vertices) */
static bool leaves_meet(adb_ctx *x, const col_mesh_node *na, const col_mesh_node *nb)
{
    for (int i = 0; i < na->count; i++) {
        const world_tri *ta = tri_of(x->wa, x->a, x->xa, na->child + i);
        for (int j = 0; j < nb->count; j++) {
            const world_tri *tb = tri_of(x->wb, x->b, x->xb, nb->child + j);
            bool apart = false;
            for (int d = 0; d < 3 && !apart; d++) apart = tb->lo[d] > ta->hi[d] || ta->lo[d] > tb->hi[d];
            if (!apart && col_tri_tri_intersect(ta->w, tb->w)) {
                x->hit_a = na->child + i;
                x->hit_b = nb->child + j;
                return true;
            }
        }
    }
    return false;
}

/* The cached witness and its neighbours in leaf order, WINDOW on either side (as
 * narrowphase/mesh_collide.c tries them), exactly. */
enum { WINDOW = 3 };
static bool witness_meets(adb_ctx *x, const col_mesh_cache *c)
{
    const int ta = c->tri_a, tb = c->tri_b;
    if (ta < 0 || ta >= x->a->triangle_count || tb < 0 || tb >= x->b->triangle_count) return false;
    for (int i = ta - WINDOW; i <= ta + WINDOW; i++) {
        if (i < 0 || i >= x->a->triangle_count) continue;
        const world_tri *wa = tri_of(x->wa, x->a, x->xa, i);
        for (int j = tb - WINDOW; j <= tb + WINDOW; j++) {
            if (j < 0 || j >= x->b->triangle_count) continue;
            const world_tri *wb = tri_of(x->wb, x->b, x->xb, j);
            bool apart = false;
            for (int d = 0; d < 3 && !apart; d++) apart = wb->lo[d] > wa->hi[d] || wa->lo[d] > wb->hi[d];
            if (!apart && col_tri_tri_intersect(wa->w, wb->w)) {
                x->hit_a = i;
                x->hit_b = j;
                return true;
            }
        }
    }
    return false;
}

static double node_size(const col_mesh_node *n)
{
    return (n->max.x - n->min.x) + (n->max.y - n->min.y) + (n->max.z - n->min.z);
}

/* The exact depth-first traversal of one pair's subtrees (a pair the heap has no room
 * for). Each pop pushes at most two pairs one level deeper: the stack is bounded. */
static bool dfs_meet(adb_ctx *x, int32_t ia0, int32_t ib0, int *visits)
{
    int32_t st[DFS_STACK][2];
    int sp = 0;
    st[sp][0] = ia0;
    st[sp++][1] = ib0;
    while (sp > 0) {
        sp--;
        int32_t ia = st[sp][0], ib = st[sp][1];
        const col_mesh_node *na = &x->a->nodes[ia], *nb = &x->b->nodes[ib];
        if (*visits < INT_MAX) (*visits)++;
        if (separated(x, na, nb)) continue;
        bool la = na->count > 0, lb = nb->count > 0;
        if (la && lb) {
            if (leaves_meet(x, na, nb)) return true;
            continue;
        }
        if (!la && (lb || node_size(na) >= node_size(nb))) {
            st[sp][0] = na->child;
            st[sp++][1] = ib;
            st[sp][0] = na->child + 1;
            st[sp++][1] = ib;
        } else {
            st[sp][0] = ia;
            st[sp++][1] = nb->child;
            st[sp][0] = ia;
            st[sp++][1] = nb->child + 1;
        }
    }
    return false;
}

static bool heap_before(const heap_entry *u, const heap_entry *v)
{
    return u->p > v->p || (u->p == v->p && u->seq < v->seq);
}

static void heap_push(adb_ctx *x, double p, int32_t ia, int32_t ib, int32_t depth)
{
    int i = x->n++;
    heap_entry e = {p, ia, ib, x->seq++, depth};
    while (i > 0) {
        int up = (i - 1) / 2;
        if (!heap_before(&e, &x->heap[up])) break;
        x->heap[i] = x->heap[up];
        i = up;
    }
    x->heap[i] = e;
}

static heap_entry heap_pop(adb_ctx *x)
{
    heap_entry top = x->heap[0], e = x->heap[--x->n];
    int i = 0;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= x->n) break;
        if (c + 1 < x->n && heap_before(&x->heap[c + 1], &x->heap[c])) c++;
        if (!heap_before(&x->heap[c], &e)) break;
        x->heap[i] = x->heap[c];
        i = c;
    }
    x->heap[i] = e;
    return top;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double mesh_extent(const col_mesh *m)
{
    return fmax(col_max_abs(m->aabb_min), col_max_abs(m->aabb_max));
}

/* The lower bound that grows with depth (docs/adb.md "The depth factor"): the cell model
 * says little about big nodes, whose cells are big, so a pair's estimate is scaled by
 * 1 - 2^(-r d), d its depth (both nodes'), r the rate (params; 0: COL_ADB_DEPTH_RATE). */
static double depth_rate_of(const col_adb_params *params, bool valid)
{
    return valid && params->depth_rate > 0 ? params->depth_rate : COL_ADB_DEPTH_RATE;
}

static double depth_factor(double rate, int32_t d)
{
    return 1.0 - exp2(-rate * (double)d);
}

/* Offers a child pair: dropped when separated, else into the heap (or, the heap full,
 * decided on the spot). Returns true when that decision found a meeting pair. */
static bool offer(adb_ctx *x, int32_t ia, int32_t ib, int32_t depth, int *visits)
{
    /* the local boxes now; the fitted boxes' test, dearer, only when the pair is taken
     * from the heap (most pairs never are: the query stops first) */
    if (separated_aabb(x, &x->a->nodes[ia], &x->b->nodes[ib])) return false;
    if (x->n == HEAP_CAP) return dfs_meet(x, ia, ib, visits);
    double p = col_adb_pair_probability(x->a, x->ta, ia, x->b, x->tb, ib, x->M, x->t);
    heap_push(x, p * depth_factor(x->rate, depth), ia, ib, depth);
    return false;
}

/* b's local frame into a's: M = Ra^T Rb (row-major), t = Ra^T (pb - pa) */
static void rel_frame(const col_xform *xa, const col_xform *xb, double M[9], double t[3])
{
    const double *Ra = xa->R.m, *Rb = xb->R.m;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) M[3 * i + j] = Ra[i] * Rb[j] + Ra[3 + i] * Rb[3 + j] + Ra[6 + i] * Rb[6 + j];
    const col_vec3 d = col_sub(xb->p, xa->p);
    for (int i = 0; i < 3; i++) t[i] = Ra[i] * d.x + Ra[3 + i] * d.y + Ra[6 + i] * d.z;
}

void col_mesh_mesh_adb(const col_mesh *a, const col_adb_tree *ta, const col_xform *xa, const col_mesh *b,
                       const col_adb_tree *tb, const col_xform *xb, const col_adb_params *params,
                       col_mesh_cache *cache, col_adb_result *out)
{
    adb_ctx x;
    x.a = a;
    x.b = b;
    x.ta = ta;
    x.tb = tb;
    x.xa = xa;
    x.xb = xb;
    x.seq = 0;
    x.n = 0;
    for (int i = 0; i < TRI_CACHE; i++) x.wa[i].k = x.wb[i].k = -1;
    rel_frame(xa, xb, x.M, x.t);
    for (int e = 0; e < 9; e++) x.Mabs[e] = fabs(x.M[e]);
    double S = mesh_extent(a) + mesh_extent(b) + col_max_abs(xa->p) + col_max_abs(xb->p);
    x.slack = 1e-9 * S;
    x.hit_a = x.hit_b = -1;
    memset(out, 0, sizeof *out);
    if (cache != NULL && witness_meets(&x, cache)) {
        cache->tri_a = x.hit_a;
        cache->tri_b = x.hit_b;
        out->colliding = true;
        out->exact = true;
        out->probability = 1.0;
        return;
    }
    x.bvf_ready = false;

    const bool valid = col_adb_params_valid(params);
    const double p_min = valid ? params->p_min : 2.0; /* invalid: never estimate */
    const int k_min = valid ? params->k_min : INT_MAX;
    const int max_visits = valid ? params->max_visits : 0;
    const double budget = valid ? params->time_budget : 0;
    const double t0 = budget > 0 ? now_s() : 0;
    x.rate = depth_rate_of(params, valid);

    int visits = 0, found = 0;
    double best = 0;
    bool hit = offer(&x, 0, 0, 0, &visits);
    while (!hit && x.n > 0) {
        if ((max_visits > 0 && visits >= max_visits) ||
            (budget > 0 && (visits & 31) == 31 && now_s() - t0 > budget)) {
            /* out of budget: an estimate from what was seen */
            out->colliding = found > 0;
            out->exact = false;
            out->probability = best;
            out->visits = visits;
            out->collision_pairs = found;
            return;
        }
        heap_entry e = heap_pop(&x);
        if (visits < INT_MAX) visits++;
        if (obb_apart(&x, e.ia, e.ib)) continue; /* apart after all */
        const double pe = e.p; /* already scaled by depth_factor */
        if (pe > best) best = pe;
        if (pe >= p_min && ++found >= k_min) {
            out->colliding = true;
            out->exact = false;
            out->probability = best;
            out->visits = visits;
            out->collision_pairs = found;
            return;
        }
        const col_mesh_node *na = &a->nodes[e.ia], *nb = &b->nodes[e.ib];
        bool la = na->count > 0, lb = nb->count > 0;
        if (la && lb) {
            hit = leaves_meet(&x, na, nb);
        } else if (!la && (lb || node_size(na) >= node_size(nb))) {
            hit = offer(&x, na->child, e.ib, e.depth + 1, &visits) || offer(&x, na->child + 1, e.ib, e.depth + 1, &visits);
        } else {
            hit = offer(&x, e.ia, nb->child, e.depth + 1, &visits) || offer(&x, e.ia, nb->child + 1, e.depth + 1, &visits);
        }
    }
    if (cache != NULL) {
        /* a found pair is the next query's witness; apart, the old one is stale */
        cache->tri_a = hit ? x.hit_a : -1;
        cache->tri_b = hit ? x.hit_b : -1;
    }
    out->colliding = hit;
    out->exact = true;
    out->probability = hit ? 1.0 : 0.0;
    out->visits = visits;
    out->collision_pairs = found;
}

/* ---- the depth-first variant (the exact query's order) ---- */

typedef struct probe_ctx {
    const col_mesh *a, *b;
    const col_adb_tree *ta, *tb;
    double M[9], t[3];
    double p_min, budget, t0, best, rate;
    int k_min, max_visits, visits, found;
    bool out_of_budget;
} probe_ctx;

static bool adb_probe(void *ctx, int32_t ia, int32_t ib, int32_t depth)
{
    probe_ctx *c = ctx;
    c->visits++;
    /* the estimate is at most the depth factor: below p_min it cannot count, and the
     * table is not consulted (the pairs near the roots) */
    const double f = depth_factor(c->rate, depth);
    double p = f >= c->p_min ? col_adb_pair_probability(c->a, c->ta, ia, c->b, c->tb, ib, c->M, c->t) * f : 0.0;
    if (p > c->best) c->best = p;
    if (p >= c->p_min && ++c->found >= c->k_min) return true;
    if ((c->max_visits > 0 && c->visits >= c->max_visits) ||
        (c->budget > 0 && (c->visits & 31) == 31 && now_s() - c->t0 > c->budget)) {
        c->out_of_budget = true;
        return true;
    }
    return false;
}

void col_mesh_mesh_adb_depth_first(const col_mesh *a, const col_adb_tree *ta, const col_xform *xa, const col_mesh *b,
                                   const col_adb_tree *tb, const col_xform *xb, const col_adb_params *params,
                                   col_mesh_cache *cache, col_adb_result *out, col_np_result *np)
{
    probe_ctx c;
    memset(&c, 0, sizeof c);
    c.a = a;
    c.b = b;
    c.ta = ta;
    c.tb = tb;
    rel_frame(xa, xb, c.M, c.t);
    const bool valid = col_adb_params_valid(params);
    c.p_min = valid ? params->p_min : 2.0; /* invalid: never estimate */
    c.k_min = valid ? params->k_min : INT_MAX;
    c.max_visits = valid ? params->max_visits : 0;
    c.budget = valid ? params->time_budget : 0;
    c.rate = depth_rate_of(params, valid);
    c.t0 = c.budget > 0 ? now_s() : 0;
    memset(out, 0, sizeof *out);
    bool decided = col_mesh_mesh_query_probe(a, xa, b, xb, cache, adb_probe, &c, np);
    out->visits = np->iterations;
    out->collision_pairs = c.found;
    if (decided) {
        out->colliding = np->colliding;
        out->exact = true;
        out->probability = np->colliding ? 1.0 : 0.0;
        return;
    }
    /* stopped: k_min collision node pairs, or out of budget with one or more */
    out->colliding = c.found > 0;
    out->exact = false;
    out->probability = c.best;
    np->colliding = out->colliding;
    np->gap = 0.0; /* no certified gap: tested again next update */
}
