/* SPDX-License-Identifier: MIT */
/* The separating-vector backend: Chung & Wang, "Quick collision detection of polytopes
 * in virtual environments" (VRST 1996), made exact. See sepvec.h for the parts and
 * docs/sepvec.md for the failure modes of published implementations this avoids.
 *
 * Convention: S separates when max_{a in A} S.a < min_{b in B} S.b. A step takes the
 * support pair p = argmax S.a, q = argmin S.b and m = q - p; the gap along S is S.m.
 *
 * The search, step by step:
 * 0. A pair that collided last frame first re-checks its four cached vertex pairs (a
 *    tetrahedron of differences around the origin); if they no longer prove it they seed
 *    the polygon of step 5, as GJK restarts from its last simplex.
 * 1. S: the pair's cached direction (the paper's temporal coherence: last frame's
 *    separating vector), else the centroid difference; supports by hill climbing from the
 *    cached vertices or the shape's direction table (sepvec_support.h).
 * 2. A gap above its error bound (sv_err_unit) proves separation (the paper's lemma 1).
 *    A gap within that bound is decided by a full projection of both hulls along S.
 * 3. q = p (a shared vertex) proves collision.
 * 4. Repeats (paper, section 4.3): the same pair in two consecutive steps is impossible
 *    after a reflection unless S already separates (lemma 3), so with no proven gap it is
 *    rounding and the reference decides; a pair seen earlier sets S to the witness of the
 *    hemisphere test (lemma 4). A timestamped table finds repeats (paper, section 5; our
 *    table is per worker scratch, keyed by the vertex pair, stamped per query).
 * 5. The pair's r = m / |m| clips the spherical polygon of possible separators
 *    (sepvec_sphere_poly.h: the paper's FindSeparatePlane). Empty polygon: collision, once a
 *    tetrahedron of recorded m's is proven to hold the origin; else the reference.
 * 6. Next S: the reflection S <- S - 2 (r.S) r (paper, eq. 2). When r is nearly
 *    perpendicular to S (|r.S| < graze, a grazing step: the reflection would crawl and
 *    near a gap within rounding it 2-cycles, docs/sepvec.md) or after
 *    reflect_max reflections, the search takes Hornus' polygon-centre direction instead
 *    (Hornus, CAD 2017), which shrinks the polygon every step. */
#include "narrowphase/sepvec.h"

#include <float.h>
#include <math.h>
#include <stdalign.h>
#include <stdint.h>
#include <string.h>

#include "narrowphase/certify.h"
#include "narrowphase/sepvec_dk_hierarchy.h"
#include "narrowphase/sepvec_sphere_poly.h"

#define SV_MAX_STEPS 256
#define SV_POLY_CAP (SV_MAX_STEPS + 8)
#define SV_HASH 1024 /* power of two, >= 4 SV_MAX_STEPS: load <= 1/4 */
#define SV_MAGIC UINT64_C(0x5365705665633031) /* "SepVec01" */
#define SV_SEED_STEP (-2) /* the step recorded for a pair seeded by sv_seed */
/* Hulls with at most this many vertices are scanned at every step. A scan finds the
 * largest computed value outright, so the gap needs no proof of its supports after it
 * (sv_exact_supports), while a climb (about as dear as a scan at 32 vertices: 26 against
 * 38 ns warm, docs/sepvec.md) must be followed by the support tree's proof: on the `fast`
 * scene (32 vertices) a query cost 466 ns with climb and proof and 306 ns with the scan
 * (docs/sepvec.md, "Small hulls"). Above COL_SUPPORT_SCAN_MAX the shape data still holds
 * a tree, which the search uses only above this size. */
#define SV_SCAN_MAX 32

enum { SV_NONE = 0, SV_SEPARATED = 1, SV_COLLIDING = 2, SV_COLLIDING_CERT = 3 };

/* The pair's cache slot. */
typedef struct sv_cache {
    col_vec3 s_world; /* last direction, world frame, unit (see sv_store_separated) */
    int32_t va, vb;   /* support vertices of that direction in A and B */
    int32_t wa[4], wb[4]; /* SV_COLLIDING_CERT: the four vertex pairs of the tetrahedron */
    int32_t state;
    int32_t pad;
} sv_cache;

/* Visited table entry: the vertex pair and the step it was first seen, valid only when
 * stamp equals the query's stamp (so the table is never cleared between queries). */
typedef struct sv_slot {
    uint64_t stamp;
    int32_t ia, ib;
    int32_t step;
    int32_t pad;
} sv_slot;

/* The search state, in the caller's scratch. */
typedef struct sv_work {
    uint64_t magic, stamp;
    sv_slot table[SV_HASH];
    int ia[SV_MAX_STEPS], ib[SV_MAX_STEPS];
    col_vec3 m[SV_MAX_STEPS];    /* q - p of each recorded pair (rounded once) */
    col_vec3 r[SV_MAX_STEPS];    /* m / |m| */
    col_vec3 P[SV_MAX_STEPS], Q[SV_MAX_STEPS]; /* the world vertices */
    col_vec3 pv[2][SV_POLY_CAP];
    int pe[2][SV_POLY_CAP];
} sv_work;

static size_t sv_round16(size_t x)
{
    return (x + 15) & ~(size_t)15;
}

/* Our work area, aligned up to 16 bytes from any start (sv_work_of); the reference
 * fallback gets the scratch after it (sv_reference). */
static size_t sv_own_bytes(void)
{
    return sv_round16(sizeof(sv_work)) + 16;
}

/* Our work area is of fixed size and the reference's need follows backend.h's scratch
 * rule, so the sum does too. */
static size_t sv_scratch_need(col_np_counts a, col_np_counts b)
{
    return sv_own_bytes() + col_np_reference.scratch_need(a, b);
}

static sv_work *sv_work_of(col_np_scratch *scratch)
{
    uintptr_t p = (uintptr_t)scratch->mem;
    p = (p + 15) & ~(uintptr_t)15;
    return (sv_work *)p;
}

static void sv_cache_init(void *cache, const col_hull *a, const col_hull *b)
{
    (void)a;
    (void)b;
    memset(cache, 0, sizeof(sv_cache));
}

/* ---- the per-query context ---- */

typedef struct sv_ctx {
    const col_hull *a, *b;
    const col_support_data *da, *db;
    const col_xform *xa, *xb;
    const col_sepvec_options *opt;
    col_sepvec_info *info;
    double err_unit;  /* sv_err for a unit S */
    int hint_a, hint_b;
    int near;           /* the first step of a warm query (see sv_support) */
} sv_ctx;

static const col_support_data *sv_data(const void *d, const col_hull *h)
{
    const col_support_data *sd = d;
    return sd != NULL && sd->vertex_count == h->vertex_count ? sd : NULL;
}

/* Error bound of a step's gap for a unit S (docs/sepvec.md, "certificates"), valid when p
 * and q are the exact maxima of the computed local values (a scan's, or the support
 * tree's: sv_exact_supports), never a climb's alone:
 * - the two dot products S.q and S.p of world vertices with coordinates below
 *   M = |position|_inf + radius carry at most 3 eps |S|_1 M each (|S|_1 <= sqrt 3);
 * - p may fall short of the true maximum over the world vertices by the rounding of the
 *   world vertices themselves (4 eps M each side), of R^T S (3 eps r) and of the local
 *   dot products that chose p (3 eps r).
 * 32 eps (M_A + M_B + r_A + r_B) covers all of it with a factor 2. */
static double sv_err_unit(const sv_ctx *c)
{
    double ma = col_max_abs(c->xa->p) + c->a->radius, mb = col_max_abs(c->xb->p) + c->b->radius;
    return 32.0 * DBL_EPSILON * (ma + mb + c->a->radius + c->b->radius);
}

/* Replaces climbed supports by exact ones before a gap is certified: a climb stops at a
 * local maximum of the hull's graph, which is the global one only where the hull is
 * convex exactly; near-coplanar facets can fold the graph (a flat dome's climb stopped
 * 7e-6 of its size below the maximum: issue 13). The support tree (or a scan) proves the
 * maximum from the climbed vertex in about O(log n). Hulls up to SV_SCAN_MAX vertices were
 * scanned (sv_support): their supports are exact already. Returns 1 if a support moved. */
static int sv_exact_supports(const sv_ctx *c, col_vec3 s, int *ia, int *ib)
{
    int moved = 0;
    if (c->a->vertex_count > SV_SCAN_MAX) {
        int v = col_support_exact(c->a, c->da, col_mat3_tmul(&c->xa->R, s), *ia, &c->info->support);
        moved |= v != *ia;
        *ia = v;
    }
    if (c->b->vertex_count > SV_SCAN_MAX) {
        int v = col_support_exact(c->b, c->db, col_neg(col_mat3_tmul(&c->xb->R, s)), *ib, &c->info->support);
        moved |= v != *ib;
        *ib = v;
    }
    return moved;
}

/* One support query: a scan up to SV_SCAN_MAX vertices. Above, near: the direction is
 * last frame's (the first step of a warm query), so a climb from the cached vertex alone
 * is cheapest; later steps' directions
 * jump (reflections), so the table's start competes with the hint (sepvec_support.h). */
static int sv_support(const sv_ctx *c, const col_hull *h, const col_support_data *sd,
                      col_vec3 d, int hint, int near)
{
    col_support_stats *st = &c->info->support;
    if (h->vertex_count <= SV_SCAN_MAX) {
        st->queries++;
        st->evals += h->vertex_count;
        return col_hull_support_scan(h, d);
    }
    if (c->opt != NULL) {
        if (c->opt->cold_dk && hint < 0 && sd != NULL && sd->dk_off != 0)
            return col_support_find_dk(h, sd, d, st);
        if (c->opt->no_table) {
            st->queries++;
            return col_support_climb(h, d, hint >= 0 ? hint : 0, st);
        }
    }
    if (near && hint >= 0) {
        st->queries++;
        return col_support_climb(h, d, hint, st);
    }
    return col_support_find(h, sd, d, hint, st);
}

/* ---- answers ---- */

/* The direction as the cache keeps it: the world frame, or A's with the measurement
 * option dir_frame_a (sv_start turns it back). */
static col_vec3 sv_dir_to_cache(const sv_ctx *c, col_vec3 s)
{
    return c->opt != NULL && c->opt->dir_frame_a ? col_mat3_tmul(&c->xa->R, s) : s;
}

/* The direction is cached in the world frame, not in A's: under the benchmark's motion
 * (both bodies spinning up to 30 degrees per frame about their own origins) last frame's
 * world direction still separates far more often (docs/sepvec.md: 85 % against 59 % of
 * warm separated queries decided in one step on cw500). */
static void sv_store_separated(const sv_ctx *c, sv_cache *cache, col_vec3 s, int ia, int ib)
{
    if (cache == NULL) return;
    cache->s_world = sv_dir_to_cache(c, s);
    cache->va = ia;
    cache->vb = ib;
    cache->state = SV_SEPARATED;
}

static void sv_separated(const sv_ctx *c, sv_cache *cache, col_np_result *out, col_vec3 s,
                         double certified, int ia, int ib, int outcome)
{
    /* certified is a lower bound of the gap along S with |S| <= 1 + 2 eps. */
    out->colliding = false;
    out->axis = s;
    out->gap = certified * (1.0 - 4.0 * DBL_EPSILON);
    c->info->outcome = outcome;
    sv_store_separated(c, cache, s, ia, ib);
}

static void sv_colliding(const sv_ctx *c, sv_cache *cache, col_np_result *out, col_vec3 s,
                         int ia, int ib, const int *wa, const int *wb, int outcome)
{
    out->colliding = true;
    c->info->outcome = outcome;
    if (cache == NULL) return;
    cache->s_world = sv_dir_to_cache(c, s);
    cache->va = ia;
    cache->vb = ib;
    cache->state = SV_COLLIDING;
    if (wa != NULL) {
        memcpy(cache->wa, wa, sizeof cache->wa);
        memcpy(cache->wb, wb, sizeof cache->wb);
        cache->state = SV_COLLIDING_CERT;
    }
}

/* The exact decision of the reference backend, in the scratch after our work area. */
static void sv_reference(const sv_ctx *c, sv_cache *cache, col_np_scratch *scratch,
                         col_np_result *out, col_vec3 s, int ia, int ib, int reason)
{
    size_t own = sv_own_bytes();
    col_np_scratch sub;
    sub.mem = (unsigned char *)scratch->mem + own;
    sub.size = scratch->size - own;
    col_np_result r;
    col_np_reference.query(NULL, c->a, NULL, c->xa, c->b, NULL, c->xb, &sub, &r);
    out->fallbacks++;
    c->info->fallback = reason;
    if (r.colliding) {
        sv_colliding(c, cache, out, s, ia, ib, NULL, NULL, COL_SV_REFERENCE);
    } else {
        out->colliding = false;
        out->axis = r.axis;
        out->gap = r.gap;
        c->info->outcome = COL_SV_REFERENCE;
        sv_store_separated(c, cache, r.axis, ia, ib);
    }
}

/* Last frame's tetrahedron: still holding the origin proves collision at once. */
static int sv_warm_tetra(const sv_ctx *c, const sv_cache *cache)
{
    col_vec3 m[4];
    for (int k = 0; k < 4; k++) {
        int ia = cache->wa[k], ib = cache->wb[k];
        if (ia < 0 || ia >= c->a->vertex_count || ib < 0 || ib >= c->b->vertex_count) return 0;
        col_vec3 p = col_xform_point(c->xa, c->a->vertices[ia]);
        col_vec3 q = col_xform_point(c->xb, c->b->vertices[ib]);
        if (p.x == q.x && p.y == q.y && p.z == q.z) return 1;
        m[k] = col_sub(q, p);
    }
    return col_origin_in_tetra(m[0], m[1], m[2], m[3]);
}

static int sv_xform_equal(const col_xform *x, const col_xform *y)
{
    for (int k = 0; k < 9; k++)
        if (x->R.m[k] != y->R.m[k]) return 0;
    return x->p.x == y->p.x && x->p.y == y->p.y && x->p.z == y->p.z;
}

/* ---- the visited table (paper, section 5: a timestamp per vertex pair) ---- */

static sv_slot *sv_lookup(sv_work *w, uint64_t stamp, int ia, int ib, int *found)
{
    uint64_t key = ((uint64_t)(uint32_t)ia << 32) | (uint32_t)ib;
    uint64_t h = key * UINT64_C(0x9e3779b97f4a7c15);
    unsigned i = (unsigned)(h >> 54) & (SV_HASH - 1);
    for (int probe = 0; probe < SV_HASH; probe++) {
        sv_slot *s = &w->table[i];
        if (s->stamp != stamp) {
            *found = 0;
            return s;
        }
        if (s->ia == ia && s->ib == ib) {
            *found = 1;
            return s;
        }
        i = (i + 1) & (SV_HASH - 1);
    }
    *found = 0;
    return NULL; /* unreachable: at most SV_MAX_STEPS entries in SV_HASH slots */
}

/* ---- the search: the query's steps ---- */

static int sv_same_point(col_vec3 p, col_vec3 q)
{
    return p.x == q.x && p.y == q.y && p.z == q.z;
}

/* One query's search state (the steps below share it). */
typedef struct sv_search {
    sv_ctx *c;
    sv_cache *cache;         /* may be NULL */
    col_np_scratch *scratch;
    col_np_result *out;
    sv_work *w;
    uint64_t stamp;          /* this query's stamp in the visited table */
    col_sphpoly poly;        /* the directions that may still separate */
    col_vec3 s;              /* the current direction, unit */
    col_vec3 P, Q;           /* this step's support points, world: A's along s, B's along -s */
    col_vec3 m;              /* Q - P */
    double g, err;           /* the gap s.Q - s.P and its error bound */
    double ml;               /* |m| */
    double graze;
    int reflect_max;
    int nrec;                /* vertex pairs recorded in w */
    int hornus;              /* the directions come from the polygon (Hornus) */
    int s_is_witness;        /* s is a witness of the polygon, not a reflection */
    int ia, ib;              /* this step's support vertices */
    int prev_a, prev_b;      /* the last step's */
} sv_search;

/* What a step says: go on to the next step of this iteration, the query is answered,
 * start the next iteration, or (sv_step_repeat) the pair is a seed already in the polygon:
 * go straight to the next direction. */
enum { SV_GO_ON = 0, SV_DONE = 1, SV_NEXT = 2, SV_SEEDED = 3 };

static void sv_search_reference(sv_search *q, int reason)
{
    sv_reference(q->c, q->cache, q->scratch, q->out, q->s, q->ia, q->ib, reason);
}

/* "Colliding": A's vertex pa and B's vertex qb are the same world point. */
static void sv_shared(sv_search *q, int pa, int qb)
{
    int wa[4] = {pa, pa, pa, pa}, wb[4] = {qb, qb, qb, qb};
    sv_colliding(q->c, q->cache, q->out, q->s, q->ia, q->ib, wa, wb, COL_SV_SHARED_VERTEX);
}

/* The start: the cached direction and vertices, else the centroid difference. Returns 1
 * when last frame's tetrahedron still proves the collision (answered). */
static int sv_start(sv_ctx *c, const sv_cache *cache, col_np_result *out, col_vec3 *start)
{
    col_sepvec_info *info = c->info;
    col_vec3 s = col_v3(0, 0, 0);
    c->hint_a = c->hint_b = -1;
    if (cache != NULL && cache->state != SV_NONE) {
        if (cache->state == SV_COLLIDING_CERT && sv_warm_tetra(c, cache)) {
            out->iterations = info->steps = 1;
            info->warm = 1;
            info->outcome = COL_SV_WARM_TETRA;
            return 1;
        }
        s = cache->s_world;
        if (c->opt != NULL && c->opt->dir_frame_a) s = col_mat3_mul(&c->xa->R, s);
        if (cache->va >= 0 && cache->va < c->a->vertex_count) c->hint_a = cache->va;
        if (cache->vb >= 0 && cache->vb < c->b->vertex_count) c->hint_b = cache->vb;
        info->warm = 1;
    }
    double sl = col_len(s);
    if (!(sl > 0.0) || !isfinite(sl)) {
        s = col_sub(col_xform_point(c->xb, c->b->centroid), col_xform_point(c->xa, c->a->centroid));
        sl = col_len(s);
        if (!(sl > 0.0) || !isfinite(sl)) {
            s = col_v3(1.0, 0.0, 0.0);
            sl = 1.0;
        }
        info->warm = 0;
    }
    *start = col_scale(s, 1.0 / sl);
    c->near = info->warm;
    return 0;
}

/* The work area (the visited table is cleared only on first use: stamps) and an empty
 * polygon in it. */
static void sv_search_init(sv_search *q)
{
    sv_work *w = sv_work_of(q->scratch);
    if (w->magic != SV_MAGIC) {
        memset(w->table, 0, sizeof w->table);
        w->magic = SV_MAGIC;
        w->stamp = 0;
    }
    q->w = w;
    q->stamp = ++w->stamp;
    q->poly.n = 0;
    q->poly.cap = SV_POLY_CAP;
    q->poly.v = w->pv[0];
    q->poly.e = w->pe[0];
    q->poly.tv = w->pv[1];
    q->poly.te = w->pe[1];
    q->nrec = q->hornus = q->s_is_witness = q->ia = q->ib = 0;
    q->prev_a = q->prev_b = -1;
}

static void sv_mark(sv_slot *slot, uint64_t stamp, int ia, int ib, int step)
{
    slot->stamp = stamp;
    slot->ia = ia;
    slot->ib = ib;
    slot->step = step;
}

/* Records the vertex pair (ia, ib), world points P and Q, m = Q - P, ml = |m| > 0, as the
 * next constraint; returns its id. */
static int sv_record(sv_search *q, int ia, int ib, col_vec3 P, col_vec3 Q, col_vec3 m, double ml)
{
    sv_work *w = q->w;
    int id = q->nrec++;
    w->ia[id] = ia;
    w->ib[id] = ib;
    w->P[id] = P;
    w->Q[id] = Q;
    w->m[id] = m;
    w->r[id] = col_scale(m, 1.0 / ml);
    return id;
}

/* A pair that collided last frame: its four vertex pairs no longer prove it, but they
 * are points of B - A all the same and usually near the origin's side: they start the
 * polygon (as GJK starts from its last simplex). */
static void sv_seed(sv_search *q)
{
    const sv_ctx *c = q->c;
    const sv_cache *cache = q->cache;
    if (cache == NULL || cache->state != SV_COLLIDING_CERT) return;
    for (int k = 0; k < 4; k++) {
        int pa = cache->wa[k], qb = cache->wb[k], found;
        if (pa < 0 || pa >= c->a->vertex_count || qb < 0 || qb >= c->b->vertex_count) break;
        sv_slot *slot = sv_lookup(q->w, q->stamp, pa, qb, &found);
        if (found || slot == NULL) continue;
        col_vec3 P = col_xform_point(c->xa, c->a->vertices[pa]), Q = col_xform_point(c->xb, c->b->vertices[qb]);
        col_vec3 m = col_sub(Q, P);
        double ml = col_len(m);
        if (!(ml > 0.0)) continue; /* shared points were caught by sv_warm_tetra */
        sv_mark(slot, q->stamp, pa, qb, SV_SEED_STEP);
        int id = sv_record(q, pa, qb, P, Q, m, ml);
        if (col_sphpoly_clip(&q->poly, q->w->r[id], id, NULL) != COL_SPHPOLY_KEPT) {
            q->poly.n = 0; /* emptied by rounding alone: start over without seeds */
            q->nrec = 0;
            q->stamp = ++q->w->stamp;
            break;
        }
    }
}

/* A seeded polygon (sv_seed) already excludes every direction S with S.r_k < 0 for a
 * seed k: such an S cannot separate, and the first step along it would only add a
 * constraint. The search starts at the polygon's witness instead (Hornus' average
 * direction, as lemma 4's jump does), which every seed's pair gives a positive gap. */
static void sv_start_in_seeds(sv_search *q)
{
    if (q->nrec == 0 || q->poly.n == 0) return;
    int outside = 0;
    for (int k = 0; k < q->nrec; k++) outside |= col_dot(q->s, q->w->r[k]) < 0.0;
    col_vec3 wv;
    if (!outside || !col_sphpoly_witness(&q->poly, q->w->r, &wv)) return;
    q->s = wv;
    q->s_is_witness = 1;
    q->c->near = 0;
    q->c->info->seed_start = 1;
}

/* The step's support points in the world frame. */
static void sv_points(sv_search *q)
{
    const sv_ctx *c = q->c;
    q->P = col_xform_point(c->xa, c->a->vertices[q->ia]);
    q->Q = col_xform_point(c->xb, c->b->vertices[q->ib]);
}

/* The support points of (ia, ib), their gap along s and its bound. SV_DONE: they are
 * one point (answered "colliding"). */
static int sv_measure(sv_search *q)
{
    sv_points(q);
    if (sv_same_point(q->P, q->Q)) {
        sv_shared(q, q->ia, q->ib);
        return SV_DONE;
    }
    q->g = col_dot(q->s, q->Q) - col_dot(q->s, q->P);
    q->err = q->c->err_unit + 2.0 * DBL_EPSILON * fabs(q->g);
    return SV_GO_ON;
}

/* The supports along s; a gap beyond its bound separates once the supports are proven
 * exact (a climb can stop short). */
static int sv_step_supports(sv_search *q)
{
    sv_ctx *c = q->c;
    q->ia = sv_support(c, c->a, c->da, col_mat3_tmul(&c->xa->R, q->s), c->hint_a, c->near);
    q->ib = sv_support(c, c->b, c->db, col_neg(col_mat3_tmul(&c->xb->R, q->s)), c->hint_b, c->near);
    c->hint_a = q->ia;
    c->hint_b = q->ib;
    c->near = 0;
    if (sv_measure(q) == SV_DONE) return SV_DONE;
    if (q->g > q->err && sv_exact_supports(c, q->s, &q->ia, &q->ib)) {
        /* The climb stopped short: go on from the true supports. */
        c->info->climb_misses++;
        c->hint_a = q->ia;
        c->hint_b = q->ib;
        if (sv_measure(q) == SV_DONE) return SV_DONE;
    }
    if (q->g > q->err) {
        /* The same pair as the step before: the situation of lemma 3 (after the
         * reflection on m, S.m = -S_old.m > 0), confirmed by the gap. */
        c->info->lemma3 += q->ia == q->prev_a && q->ib == q->prev_b;
        sv_separated(c, q->cache, q->out, q->s, q->g - q->err, q->ia, q->ib, COL_SV_SEPARATED);
        return SV_DONE;
    }
    q->prev_a = q->ia;
    q->prev_b = q->ib;
    return SV_GO_ON;
}

/* A gap within the bound of zero: decide along s against every vertex (certify.h: the
 * world vertices relative to a centre, so the bound scales with the pair's extent, not
 * with its distance from the origin). */
static int sv_step_near_zero(sv_search *q)
{
    if (!(q->g > -q->err)) return SV_GO_ON;
    sv_ctx *c = q->c;
    col_np_gap gp = col_np_gap_world(c->a, c->xa, c->b, c->xb, q->s);
    c->info->full_projections++;
    if (gp.certified > 0.0) {
        sv_separated(c, q->cache, q->out, q->s, gp.certified, gp.ia, gp.ib, COL_SV_SEPARATED_PROJ);
        return SV_DONE;
    }
    if (gp.raw + gp.bound >= 0.0) {
        sv_search_reference(q, COL_SV_AMBIGUOUS_GAP);
        return SV_DONE;
    }
    /* S does not separate: go on with the true support pair. */
    q->ia = c->hint_a = gp.ia;
    q->ib = c->hint_b = gp.ib;
    sv_points(q);
    q->g = gp.raw;
    if (sv_same_point(q->P, q->Q)) {
        sv_shared(q, q->ia, q->ib);
        return SV_DONE;
    }
    return SV_GO_ON;
}

/* s moves to a witness of the polygon (Hornus' average direction). Returns 0 when there
 * is none (the reference has decided then). */
static int sv_to_witness(sv_search *q)
{
    col_vec3 wv;
    if (!col_sphpoly_witness(&q->poly, q->w->r, &wv)) {
        sv_search_reference(q, COL_SV_NO_WITNESS);
        return 0;
    }
    q->s = wv;
    q->s_is_witness = 1;
    return 1;
}

/* Repeats: lemmas 3 and 4. A new pair is marked as seen at this step. */
static int sv_step_repeat(sv_search *q, int step)
{
    int found;
    sv_slot *slot = sv_lookup(q->w, q->stamp, q->ia, q->ib, &found);
    if (found) {
        if (q->s_is_witness) {
            /* The witness has w.r_k > 0 for every recorded pair: a recorded pair
             * cannot come back with a negative gap except by rounding. */
            sv_search_reference(q, COL_SV_REPEAT_AT_WITNESS);
            return SV_DONE;
        }
        if (slot->step == step - 1) {
            /* Lemma 3: after the reflection on this pair S.m > 0 exactly, so a
             * repeat without a proven gap is rounding. */
            sv_search_reference(q, COL_SV_LEMMA3_ROUNDING);
            return SV_DONE;
        }
        if (slot->step == SV_SEED_STEP && q->c->opt != NULL && q->c->opt->seed_reflect) {
            /* The measured alternative (option seed_reflect): a pair seeded from last
             * frame's tetrahedron, met by the search for the first time, is reflected on
             * as a new pair would be (its constraint is in the polygon already) instead
             * of taking lemma 4's witness jump. It counts fewer repeats but costs steps
             * (docs/sepvec.md, "Repeats"), so the jump is the default. */
            q->c->info->seed_hits++;
            sv_mark(slot, q->stamp, q->ia, q->ib, step);
            q->m = col_sub(q->Q, q->P);
            q->ml = col_len(q->m);
            return SV_SEEDED;
        }
        /* Lemma 4: continue from the witness of the hemisphere test. */
        q->c->info->lemma4++;
        q->c->info->seed_repeats += slot->step == SV_SEED_STEP;
        return sv_to_witness(q) ? SV_NEXT : SV_DONE;
    }
    if (slot == NULL) {
        sv_search_reference(q, COL_SV_STEP_CAP);
        return SV_DONE;
    }
    sv_mark(slot, q->stamp, q->ia, q->ib, step);
    return SV_GO_ON;
}

/* Record the pair and clip the polygon of possible separators: an empty polygon is a
 * collision once four recorded pairs prove it. */
static int sv_step_record(sv_search *q)
{
    sv_work *w = q->w;
    q->m = col_sub(q->Q, q->P);
    q->ml = col_len(q->m);
    int id = sv_record(q, q->ia, q->ib, q->P, q->Q, q->m, q->ml);
    /* A vertex of B met earlier as a vertex of A (or the reverse) is a shared point. */
    for (int k = 0; k < id; k++)
        if (sv_same_point(q->Q, w->P[k]) || sv_same_point(q->P, w->Q[k])) {
            int pa = sv_same_point(q->Q, w->P[k]) ? w->ia[k] : q->ia;
            int qb = sv_same_point(q->Q, w->P[k]) ? q->ib : w->ib[k];
            sv_shared(q, pa, qb);
            return SV_DONE;
        }
    int removed;
    int cr = col_sphpoly_clip(&q->poly, w->r[id], id, &removed);
    if (cr == COL_SPHPOLY_EMPTY) {
        int t[4];
        if (col_sphpoly_certify(&q->poly, w->m, id, t)) {
            int wa[4], wb[4];
            for (int k = 0; k < 4; k++) {
                wa[k] = w->ia[t[k]];
                wb[k] = w->ib[t[k]];
            }
            sv_colliding(q->c, q->cache, q->out, q->s, q->ia, q->ib, wa, wb, COL_SV_TETRA);
            return SV_DONE;
        }
        sv_search_reference(q, COL_SV_AMBIGUOUS_HEMI);
        return SV_DONE;
    }
    if (cr == COL_SPHPOLY_FULL || (q->s_is_witness && !removed)) {
        /* A witness lies strictly inside, and S.m < 0 must cut it off: a clip that
         * removes nothing is rounding (Hornus: treated as empty). */
        sv_search_reference(q, cr == COL_SPHPOLY_FULL ? COL_SV_POLY_FULL : COL_SV_AMBIGUOUS_HEMI);
        return SV_DONE;
    }
    return SV_GO_ON;
}

/* Next direction: the paper's reflection, or the polygon's witness once grazing or after
 * reflect_max reflections. */
static int sv_step_next(sv_search *q)
{
    col_sepvec_info *info = q->c->info;
    if (!q->hornus) {
        double rs = q->g / q->ml; /* r.S with |S| = 1 (g < 0 here) */
        if (-rs < q->graze) {
            q->hornus = 1;
            info->mode_switch = COL_SV_GRAZING;
        } else if (info->reflections >= q->reflect_max) {
            q->hornus = 1;
            info->mode_switch = COL_SV_REFLECT_CAP;
        } else {
            /* The paper's eq. 2, S - 2 (r.S) r, renormalised (only the direction
             * matters, and the error bound assumes |S| = 1). */
            double k = 2.0 * col_dot(q->s, q->m) / (q->ml * q->ml);
            col_vec3 s2 = col_sub(q->s, col_scale(q->m, k));
            double l2 = col_len(s2);
            if (!(l2 > 0.0) || !isfinite(l2)) {
                q->hornus = 1;
                info->mode_switch = COL_SV_GRAZING;
            } else {
                q->s = col_scale(s2, 1.0 / l2);
                info->reflections++;
                q->s_is_witness = 0;
            }
        }
        if (q->hornus) q->out->fallbacks++;
    }
    if (q->hornus) {
        if (!sv_to_witness(q)) return SV_DONE;
        info->hornus_steps++;
    }
    return SV_GO_ON;
}

/* ---- the query ---- */

void col_sepvec_query_ex(void *cache_mem, const col_hull *a, const void *da_mem,
                         const col_xform *xa, const col_hull *b, const void *db_mem,
                         const col_xform *xb, col_np_scratch *scratch,
                         const col_sepvec_options *opt, col_np_result *out,
                         col_sepvec_info *info_out)
{
    sv_cache *cache = cache_mem;
    col_sepvec_info info_local;
    col_sepvec_info *info = info_out != NULL ? info_out : &info_local;
    memset(info, 0, sizeof *info);
    out->colliding = true;
    out->axis = col_v3(0.0, 0.0, 0.0);
    out->gap = 0.0;
    out->iterations = 0;
    out->fallbacks = 0;

    sv_ctx c;
    c.a = a;
    c.b = b;
    c.da = sv_data(da_mem, a);
    c.db = sv_data(db_mem, b);
    c.xa = xa;
    c.xb = xb;
    c.opt = opt;
    c.info = info;
    c.err_unit = sv_err_unit(&c);

    /* Same hull at the same pose: every vertex is shared. */
    if (a == b && sv_xform_equal(xa, xb)) {
        sv_colliding(&c, cache, out, col_v3(1, 0, 0), 0, 0, NULL, NULL, COL_SV_IDENTICAL);
        return;
    }

    sv_search q;
    if (sv_start(&c, cache, out, &q.s)) return;
    q.c = &c;
    q.cache = cache;
    q.scratch = scratch;
    q.out = out;
    q.graze = opt != NULL && opt->graze > 0.0 ? opt->graze : COL_SV_GRAZE;
    q.reflect_max = opt != NULL && opt->reflect_max > 0 ? opt->reflect_max : COL_SV_REFLECT_MAX;
    sv_search_init(&q);
    if (opt == NULL || !opt->no_seed) {
        sv_seed(&q);
        sv_start_in_seeds(&q);
    }
    for (int step = 0; step < SV_MAX_STEPS; step++) {
        info->steps++;
        out->iterations = info->steps;
        if (sv_step_supports(&q) == SV_DONE || sv_step_near_zero(&q) == SV_DONE) return;
        int r = sv_step_repeat(&q, step);
        if (r == SV_DONE) return;
        if (r == SV_NEXT) continue;
        if (r == SV_SEEDED) {
            if (sv_step_next(&q) == SV_DONE) return;
            continue;
        }
        if (sv_step_record(&q) == SV_DONE || sv_step_next(&q) == SV_DONE) return;
    }
    sv_search_reference(&q, COL_SV_STEP_CAP);
}

int col_sepvec_cache_certificate(const void *cache_mem, int wa[4], int wb[4])
{
    const sv_cache *c = cache_mem;
    if (c->state != SV_COLLIDING_CERT) return 0;
    memcpy(wa, c->wa, sizeof c->wa);
    memcpy(wb, c->wb, sizeof c->wb);
    return 1;
}

static void sv_query(void *cache, const col_hull *a, const void *da, const col_xform *xa,
                     const col_hull *b, const void *db, const col_xform *xb, col_np_scratch *scratch,
                     col_np_result *out)
{
    col_sepvec_query_ex(cache, a, da, xa, b, db, xb, scratch, NULL, out, NULL);
}

static size_t sv_data_bytes(const col_hull *h)
{
    return col_support_data_bytes(h, COL_SUPPORT_DEFAULT);
}

static size_t sv_data_init(void *data, size_t bytes, const col_hull *h)
{
    (void)bytes;
    col_support_data_init(data, h, COL_SUPPORT_DEFAULT);
    return col_support_data_used(data);
}

const col_np_backend col_np_sepvec = {
    .name = "sepvec",
    .cache_size = sizeof(sv_cache),
    .cache_init = sv_cache_init,
    .scratch_need = sv_scratch_need,
    .shape_data_bytes = sv_data_bytes,
    .shape_data_init = sv_data_init,
    .query = sv_query,
};
