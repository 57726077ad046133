/* SPDX-License-Identifier: MIT */
/* libFuzzer target: operation sequences on small worlds, one world per backend.
 *
 * The bytes decode into calls (create/destroy shape, create/destroy body, set pose, set
 * poses in a batch, set speeds, enable/disable a pair, update, queries, calls with stale,
 * forged or foreign ids), applied in the same order to five worlds: reference, lpip,
 * voronoi and sepvec with the default time-to-collision schedule, and sepvec testing every
 * pair at every update with a wide broad-phase margin and interframe reports. A model
 * (which slots are live, their filters, the disabled pairs) tracks what must hold.
 * Checks:
 *  - every call returns the same status in every world, and a failed call leaves
 *    col_world_hash unchanged (queries leave it unchanged always);
 *  - after every update each world's pairs equal brute force: col_query_overlap with the
 *    reference backend over all pairs of live bodies at their stored poses, skipping
 *    static-static pairs, pairs the filters exclude and disabled pairs; so all backends
 *    report identical pairs; began and ended are the differences from the last update;
 *    interframe pairs include the pairs;
 *  - distances, contacts and interframe answers are identical in every world.
 * At most 16 bodies and 6 shapes, so an input runs in milliseconds under the sanitizers. */
#include "fuzz_util.h"

#define NW 5
#define MAX_SHAPES 6
#define MAX_BODIES 16
#define MAX_PTS 96
#define MAX_PAIRS (MAX_BODIES * (MAX_BODIES - 1) / 2)

typedef struct model {
    col_world *w[NW];
    col_world *foreign; /* another world, whose ids must be refused (finding 6) */
    col_body_id foreign_body;
    col_shape_id foreign_shape;
    bool shape_live[MAX_SHAPES];
    col_shape_id shape_id[NW][MAX_SHAPES]; /* the last id of the slot: stale once dead */
    bool body_live[MAX_BODIES];
    col_body_id body_id[NW][MAX_BODIES];
    int body_shape[MAX_BODIES];
    uint32_t group[MAX_BODIES], mask[MAX_BODIES];
    bool is_static[MAX_BODIES];
    bool disabled[MAX_BODIES][MAX_BODIES];
    col_pair prev[NW][MAX_PAIRS]; /* pairs of the last update */
    int prev_count[NW];
    double unit;   /* the length scale of this input's shapes and moves */
    double offset; /* where this input's bodies are, relative to the origin */
} model;

static const struct {
    col_backend backend;
    col_schedule schedule;
    double margin;
    bool interframe;
} configs[NW] = {
    {COL_BACKEND_REFERENCE, COL_SCHEDULE_TTC, 0.0, false},
    {COL_BACKEND_LPIP, COL_SCHEDULE_TTC, 0.0, false},
    {COL_BACKEND_VORONOI, COL_SCHEDULE_TTC, 0.0, false},
    {COL_BACKEND_SEPVEC, COL_SCHEDULE_TTC, 0.0, false},
    {COL_BACKEND_SEPVEC, COL_SCHEDULE_EVERY, 2.0, true},
};

static col_world *new_world(int k)
{
    col_world_def def = col_default_world_def();
    def.worker_count = 1;
    def.backend = configs[k].backend;
    def.schedule = configs[k].schedule;
    def.broadphase_margin = configs[k].margin;
    def.report_interframe = configs[k].interframe;
    col_world *w = NULL;
    FZ_CHECK(col_world_create(&def, &w) == COL_OK, "world %d", k);
    return w;
}

/* Calls the same thing on every world: CALL(w, k) is an expression giving a status.
 * Checks equal statuses and, on failure, unchanged hashes; leaves the status in st. */
#define ON_ALL(m, st, CALL)                                                                  \
    do {                                                                                     \
        for (int k_ = 0; k_ < NW; k_++) {                                                    \
            col_world *w_ = (m)->w[k_];                                                      \
            uint64_t h_ = col_world_hash(w_);                                                \
            col_status s_ = (CALL(w_, k_));                                                  \
            if (k_ == 0) st = s_;                                                            \
            FZ_CHECK(s_ == st, "world %d status %d, world 0 status %d: %s", k_, (int)s_, (int)st, \
                     col_world_last_error(w_));                                              \
            if (s_ != COL_OK)                                                                \
                FZ_CHECK(col_world_hash(w_) == h_, "failed call (status %d) changed world %d", (int)s_, k_); \
        }                                                                                    \
    } while (0)

static int body_slot(const model *m, int k, col_body_id id)
{
    for (int i = 0; i < MAX_BODIES; i++)
        if (m->body_live[i] && col_body_id_equals(m->body_id[k][i], id)) return i;
    return -1;
}

/* ---- decoding ---- */

static col_transform pose_from(const model *m, fz_bytes *in)
{
    col_transform t;
    uint8_t mode = fz_u8(in);
    if (mode == 255) { /* raw: NaN, infinities, beyond COL_MAX_COORD */
        t.p = col_vec3_make(fz_raw_double(in), fz_raw_double(in), fz_raw_double(in));
    } else {
        double step = m->unit / 16.0;
        t.p.x = m->offset + (int8_t)fz_u8(in) * step;
        t.p.y = m->offset + (int8_t)fz_u8(in) * step;
        t.p.z = m->offset + (int8_t)fz_u8(in) * step;
    }
    t.q = fz_quat(in);
    return t;
}

/* Points of a generated shape: boxes, n-gon prisms, points on a sphere, lattice points. */
static int shape_points(const model *m, fz_bytes *in, col_vec3 *pts)
{
    uint8_t kind = fz_u8(in);
    double s = m->unit * (1 + fz_u8(in) % 4) / 2.0;
    /* Finding 1: a pair of large hulls overflows the reference's scratch; skipping it
     * keeps the hulls small. */
    int big = fz_skip(1) ? 8 : 40;
    int n = 0;
    switch (kind % 4) {
    case 0: {
        double hx = s * (1 + fz_u8(in) % 8) / 4, hy = s * (1 + fz_u8(in) % 8) / 4, hz = s * (1 + fz_u8(in) % 8) / 4;
        for (n = 0; n < 8; n++)
            pts[n] = col_vec3_make(n & 1 ? hx : -hx, n & 2 ? hy : -hy, n & 4 ? hz : -hz);
        break;
    }
    case 1: {
        int sides = 3 + fz_u8(in) % (big - 2);
        double h = s * (1 + fz_u8(in) % 8) / 8;
        for (int i = 0; i < sides; i++) {
            double a = 6.283185307179586 * i / sides;
            pts[n++] = col_vec3_make(s * cos(a), s * sin(a), -h);
            pts[n++] = col_vec3_make(s * cos(a), s * sin(a), h);
        }
        break;
    }
    case 2: { /* a Fibonacci sphere: points in general position */
        int count = 4 + fz_u8(in) % (big - 3);
        for (int i = 0; i < count; i++) {
            double z = 1.0 - 2.0 * (i + 0.5) / count, r = sqrt(1.0 - z * z), a = 2.399963229728653 * i;
            pts[n++] = col_vec3_make(s * r * cos(a), s * r * sin(a), s * z);
        }
        break;
    }
    default: { /* lattice points: duplicates, coplanar and collinear sets too */
        int count = fz_u8(in) % 16;
        for (int i = 0; i < count; i++) {
            double x = (int8_t)fz_u8(in) % 5, y = (int8_t)fz_u8(in) % 5, z = (int8_t)fz_u8(in) % 5;
            pts[n++] = col_vec3_make(x * s / 4, y * s / 4, z * s / 4);
        }
        break;
    }
    }
    return n;
}

/* ---- operations ---- */

static void op_create_shape(model *m, fz_bytes *in)
{
    col_vec3 pts[MAX_PTS];
    int n = shape_points(m, in, pts);
    int slot = 0;
    while (slot < MAX_SHAPES && m->shape_live[slot]) slot++;
    if (slot == MAX_SHAPES) return;
    col_status st = COL_OK;
#define CALL(w, k) col_shape_create_convex(w, pts, n, &m->shape_id[k][slot])
    ON_ALL(m, st, CALL);
#undef CALL
    FZ_CHECK(st == COL_OK || st == COL_ERR_TOO_FEW_POINTS || st == COL_ERR_DEGENERATE_SHAPE || st == COL_ERR_NOT_FINITE,
             "create shape: %d", (int)st);
    m->shape_live[slot] = st == COL_OK;
}

static void op_destroy_shape(model *m, fz_bytes *in)
{
    int slot = fz_u8(in) % MAX_SHAPES;
    bool used = false;
    for (int i = 0; i < MAX_BODIES; i++) used |= m->body_live[i] && m->body_shape[i] == slot;
    col_status st = COL_OK;
#define CALL(w, k) col_shape_destroy(w, m->shape_id[k][slot])
    ON_ALL(m, st, CALL);
#undef CALL
    col_status want = !m->shape_live[slot] ? COL_ERR_STALE_ID : used ? COL_ERR_SHAPE_IN_USE : COL_OK;
    FZ_CHECK(st == want, "destroy shape: %d, expected %d", (int)st, (int)want);
    if (st == COL_OK) m->shape_live[slot] = false;
}

static void op_create_body(model *m, fz_bytes *in)
{
    int slot = 0;
    while (slot < MAX_BODIES && m->body_live[slot]) slot++;
    int sh = fz_u8(in) % MAX_SHAPES;
    uint8_t f = fz_u8(in), sp = fz_u8(in);
    col_body_def def = col_default_body_def();
    def.pose = pose_from(m, in);
    def.filter_group = 1u << (f & 3);
    def.filter_mask = (f & 0x40) ? 0xffffffffu : (uint32_t)((f >> 2) & 0xf);
    def.is_static = (f & 0x80) != 0;
    switch (sp % 8) {
    case 1: def.max_linear_speed = m->unit * (sp >> 3) / 8.0, def.max_angular_speed = (sp >> 3) / 64.0; break;
    case 2: def.max_linear_speed = 0.0, def.max_angular_speed = 0.0; break;
    case 3: def.max_linear_speed = -2.0; break; /* invalid */
    case 4: def.max_angular_speed = NAN; break;  /* invalid */
    default: break;
    }
    if (slot == MAX_BODIES) return;
    col_status st = COL_OK;
#define CALL(w, k) (def.shape = m->shape_id[k][sh], col_body_create(w, &def, &m->body_id[k][slot]))
    ON_ALL(m, st, CALL);
#undef CALL
    if (!m->shape_live[sh]) FZ_CHECK(st == COL_ERR_STALE_ID || st == COL_ERR_NOT_FINITE || st == COL_ERR_BAD_QUATERNION ||
                                         st == COL_ERR_INVALID_ARGUMENT, "body on a dead shape: %d", (int)st);
    if (st != COL_OK) return;
    m->body_live[slot] = true;
    m->body_shape[slot] = sh;
    m->group[slot] = def.filter_group;
    m->mask[slot] = def.filter_mask;
    m->is_static[slot] = def.is_static;
    for (int i = 0; i < MAX_BODIES; i++) m->disabled[slot][i] = m->disabled[i][slot] = false;
}

static void op_destroy_body(model *m, fz_bytes *in)
{
    int slot = fz_u8(in) % MAX_BODIES;
    col_status st = COL_OK;
#define CALL(w, k) col_body_destroy(w, m->body_id[k][slot])
    ON_ALL(m, st, CALL);
#undef CALL
    FZ_CHECK(st == (m->body_live[slot] ? COL_OK : COL_ERR_STALE_ID), "destroy body: %d", (int)st);
    m->body_live[slot] = false;
}

static void op_set_pose(model *m, fz_bytes *in)
{
    int slot = fz_u8(in) % MAX_BODIES;
    col_transform t = pose_from(m, in);
    col_status st = COL_OK;
#define CALL(w, k) col_body_set_pose(w, m->body_id[k][slot], t)
    ON_ALL(m, st, CALL);
#undef CALL
    if (!m->body_live[slot]) FZ_CHECK(st != COL_OK, "set pose on a dead body");
}

static void fill_ids(const model *m, int k, const int *slots, int n, col_body_id *ids)
{
    for (int i = 0; i < n; i++) ids[i] = m->body_id[k][slots[i]];
}

static void op_set_poses(model *m, fz_bytes *in)
{
    int n = 1 + fz_u8(in) % 8;
    int slots[8];
    col_transform t[8];
    col_body_id ids[8];
    for (int i = 0; i < n; i++) {
        slots[i] = fz_u8(in) % MAX_BODIES;
        t[i] = pose_from(m, in);
    }
    col_status st = COL_OK;
#define CALL(w, k) (fill_ids(m, k, slots, n, ids), col_body_set_poses(w, ids, t, n))
    ON_ALL(m, st, CALL);
#undef CALL
}

static void op_set_speeds(model *m, fz_bytes *in)
{
    int slot = fz_u8(in) % MAX_BODIES;
    uint8_t b = fz_u8(in);
    double lin = COL_SPEED_UNDECLARED, ang = COL_SPEED_UNDECLARED;
    switch (b % 6) {
    case 1: lin = m->unit * (b >> 3) / 16.0, ang = (b >> 3) / 64.0; break;
    case 2: lin = 0.0, ang = 0.0; break;
    case 3: lin = -0.5, ang = 0.0; break;     /* invalid */
    case 4: lin = INFINITY, ang = 0.0; break; /* invalid */
    case 5: lin = 1.0; break;                 /* invalid: one declared, one not */
    default: break;
    }
    col_status st = COL_OK;
#define CALL(w, k) col_body_set_max_speeds(w, m->body_id[k][slot], lin, ang)
    ON_ALL(m, st, CALL);
#undef CALL
}

static void op_pair_enable(model *m, fz_bytes *in)
{
    int a = fz_u8(in) % MAX_BODIES, b = fz_u8(in) % MAX_BODIES;
    bool en = fz_u8(in) & 1;
    col_status st = COL_OK;
#define CALL(w, k) col_pair_set_enabled(w, m->body_id[k][a], m->body_id[k][b], en)
    ON_ALL(m, st, CALL);
#undef CALL
    col_status want = !m->body_live[a] || !m->body_live[b] ? COL_ERR_STALE_ID : a == b ? COL_ERR_SAME_BODY : COL_OK;
    FZ_CHECK(st == want, "pair enable: %d, expected %d", (int)st, (int)want);
    if (st == COL_OK) m->disabled[a][b] = m->disabled[b][a] = !en;
}

/* Bad ids: forged from bytes, a body id given as a shape id, another world's ids. */
static void op_bad_ids(model *m, fz_bytes *in)
{
    uint8_t kind = fz_u8(in);
    col_body_id forged = {fz_u8(in) % (MAX_BODIES + 2), fz_u8(in) % 4, 0}; /* tag 0: never valid */
    col_status st = COL_OK;
    switch (kind % 3) {
    case 0: {
#define CALL(w, k) col_body_set_pose(w, forged, col_transform_identity())
        ON_ALL(m, st, CALL);
#undef CALL
        bool live = body_slot(m, 0, forged) >= 0;
        FZ_CHECK((st == COL_OK) == live, "forged id {%u,%u}: status %d, live %d", forged.index1, forged.generation,
                 (int)st, live);
        break;
    }
    case 1: { /* finding 6: a body id's fields given as a shape id */
        int slot = fz_u8(in) % MAX_BODIES;
        if (!m->body_live[slot]) return;
#define CALL(w, k) col_shape_destroy(w, (col_shape_id){m->body_id[k][slot].index1, m->body_id[k][slot].generation, m->body_id[k][slot].tag})
        ON_ALL(m, st, CALL);
#undef CALL
        FZ_CHECK(st == COL_ERR_STALE_ID, "a body id destroyed a shape? status %d", (int)st);
        break;
    }
    default: {
#define CALL(w, k) col_body_set_pose(w, m->foreign_body, col_transform_identity())
        ON_ALL(m, st, CALL);
#undef CALL
        FZ_CHECK(st == COL_ERR_STALE_ID, "another world's body id accepted: status %d", (int)st);
#define CALL(w, k) col_shape_destroy(w, m->foreign_shape)
        ON_ALL(m, st, CALL);
#undef CALL
        FZ_CHECK(st == COL_ERR_STALE_ID, "another world's shape id accepted: status %d", (int)st);
        break;
    }
    }
}

/* Distance, contact and interframe queries on two bodies: the same answer in every world. */
static void op_queries(model *m, fz_bytes *in)
{
    int a = fz_u8(in) % MAX_BODIES, b = fz_u8(in) % MAX_BODIES;
    double margin = m->unit * (fz_u8(in) % 8) / 8.0;
    col_distance_output d0;
    col_contact_output c0;
    col_interframe_result i0;
    memset(&d0, 0, sizeof d0), memset(&c0, 0, sizeof c0), memset(&i0, 0, sizeof i0);
    for (int k = 0; k < NW; k++) {
        col_world *w = m->w[k];
        uint64_t h = col_world_hash(w);
        col_distance_output d;
        col_contact_output c;
        col_interframe_result r;
        memset(&d, 0, sizeof d), memset(&c, 0, sizeof c), memset(&r, 0, sizeof r);
        col_status sd = col_body_distance(w, m->body_id[k][a], m->body_id[k][b], NULL, &d);
        col_status sc = col_body_contact(w, m->body_id[k][a], m->body_id[k][b], margin, NULL, &c);
        col_status si = col_query_interframe(w, m->body_id[k][a], m->body_id[k][b], &r);
        FZ_CHECK(col_world_hash(w) == h, "a query changed world %d", k);
        col_status want = !m->body_live[a] || !m->body_live[b] ? COL_ERR_STALE_ID : a == b ? COL_ERR_SAME_BODY : COL_OK;
        FZ_CHECK(sd == want && sc == want && si == want, "queries: %d %d %d, expected %d", (int)sd, (int)sc, (int)si,
                 (int)want);
        if (want != COL_OK) continue;
        FZ_CHECK(isfinite(d.distance) && d.distance >= 0.0 && isfinite(c.separation), "distance %g separation %g",
                 d.distance, c.separation);
        if (k == 0) {
            d0 = d, c0 = c, i0 = r;
            continue;
        }
        FZ_CHECK(d.outcome == d0.outcome && d.distance == d0.distance && c.outcome == c0.outcome &&
                     c.point_count == c0.point_count && c.separation == c0.separation,
                 "world %d: distance %g (%d), world 0 %g (%d)", k, d.distance, (int)d.outcome, d0.distance,
                 (int)d0.outcome);
        FZ_CHECK(r.may_have_touched == i0.may_have_touched && r.exact == i0.exact && r.inflation == i0.inflation,
                 "world %d: interframe differs", k);
    }
}

/* ---- update and its checks ---- */

static bool pair_in(const col_pair *list, int n, col_pair p)
{
    for (int i = 0; i < n; i++)
        if (col_body_id_equals(list[i].a, p.a) && col_body_id_equals(list[i].b, p.b)) return true;
    return false;
}

/* The pairs brute force expects, as slot pairs i < j, from world 0's stored poses. */
static int brute_force(const model *m, int pairs[][2])
{
    int n = 0;
    col_world *w = m->w[0];
    for (int i = 0; i < MAX_BODIES; i++)
        for (int j = i + 1; j < MAX_BODIES; j++) {
            if (!m->body_live[i] || !m->body_live[j] || (m->is_static[i] && m->is_static[j])) continue;
            if (!(m->group[i] & m->mask[j]) || !(m->group[j] & m->mask[i]) || m->disabled[i][j]) continue;
            FZ_CHECK(col_pair_is_enabled(w, m->body_id[0][i], m->body_id[0][j]), "pair %d %d should be enabled", i, j);
            col_transform xi, xj;
            FZ_CHECK(col_body_get_pose(w, m->body_id[0][i], &xi) == COL_OK &&
                         col_body_get_pose(w, m->body_id[0][j], &xj) == COL_OK,
                     "poses");
            bool hit = false;
            FZ_CHECK(col_query_overlap(w, m->shape_id[0][m->body_shape[i]], xi, m->shape_id[0][m->body_shape[j]], xj,
                                       COL_BACKEND_REFERENCE, &hit) == COL_OK,
                     "brute force: %s", col_world_last_error(w));
            if (hit) pairs[n][0] = i, pairs[n][1] = j, n++;
        }
    return n;
}

static void op_update(model *m)
{
    int live = 0;
    for (int i = 0; i < MAX_BODIES; i++) live += m->body_live[i];
    int expect[MAX_PAIRS][2];
    bool have_expect = false;
    int ne = 0;
    for (int k = 0; k < NW; k++) {
        col_world *w = m->w[k];
        FZ_CHECK(col_world_update(w) == COL_OK, "update of world %d: %s", k, col_world_last_error(w));
        if (!have_expect) ne = brute_force(m, expect), have_expect = true;
        col_pair_events ev = col_world_get_pair_events(w);
        col_counters cn;
        FZ_CHECK(col_world_get_counters(w, &cn) == COL_OK && cn.bodies == live && cn.colliding_pairs == ev.pair_count,
                 "counters of world %d: %d bodies (model %d), %d pairs (%d)", k, cn.bodies, live, cn.colliding_pairs,
                 ev.pair_count);
        int matched = 0;
        for (int p = 0; p < ev.pair_count; p++) {
            int i = body_slot(m, k, ev.pairs[p].a), j = body_slot(m, k, ev.pairs[p].b);
            FZ_CHECK(i >= 0 && j >= 0, "world %d reports a pair of dead bodies", k);
            if (p > 0) FZ_CHECK(ev.pairs[p - 1].a.index1 < ev.pairs[p].a.index1 ||
                                    (ev.pairs[p - 1].a.index1 == ev.pairs[p].a.index1 &&
                                     ev.pairs[p - 1].b.index1 < ev.pairs[p].b.index1),
                                "world %d: pairs not sorted", k);
            int lo = i < j ? i : j, hi = i < j ? j : i;
            bool found = false;
            for (int e = 0; e < ne && !found; e++) found = expect[e][0] == lo && expect[e][1] == hi;
            FZ_CHECK(found, "world %d (%s) reports bodies %d and %d, brute force says apart", k,
                     col_backend_name(configs[k].backend), lo, hi);
            matched += found;
        }
        FZ_CHECK(matched == ne, "world %d (%s) misses %d of the %d pairs brute force finds", k,
                 col_backend_name(configs[k].backend), ne - matched, ne);
        for (int p = 0; p < ev.began_count; p++)
            FZ_CHECK(pair_in(ev.pairs, ev.pair_count, ev.began[p]) && !pair_in(m->prev[k], m->prev_count[k], ev.began[p]),
                     "world %d: began pair not new", k);
        for (int p = 0; p < ev.ended_count; p++)
            FZ_CHECK(!pair_in(ev.pairs, ev.pair_count, ev.ended[p]) && pair_in(m->prev[k], m->prev_count[k], ev.ended[p]),
                     "world %d: ended pair not old", k);
        int began = 0, ended = 0;
        for (int p = 0; p < ev.pair_count; p++) began += !pair_in(m->prev[k], m->prev_count[k], ev.pairs[p]);
        for (int p = 0; p < m->prev_count[k]; p++) ended += !pair_in(ev.pairs, ev.pair_count, m->prev[k][p]);
        FZ_CHECK(began == ev.began_count && ended == ev.ended_count, "world %d: began %d (want %d), ended %d (want %d)",
                 k, ev.began_count, began, ev.ended_count, ended);
        if (configs[k].interframe)
            for (int p = 0; p < ev.pair_count; p++)
                FZ_CHECK(pair_in(ev.interframe, ev.interframe_count, ev.pairs[p]), "world %d: pair not in interframe", k);
        if (ev.pair_count > 0) memcpy(m->prev[k], ev.pairs, (size_t)ev.pair_count * sizeof *ev.pairs);
        m->prev_count[k] = ev.pair_count;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_bytes in = {data, size, 0};
    static model m;
    memset(&m, 0, sizeof m);
    /* The scale: 2^e with e in [-32, 31], or (high bit) e in [-384, 381] for tiny and huge
     * shapes. */
    uint8_t h = fz_u8(&in);
    int e = (h & 0x80) ? ((int)(h & 0x7f) - 64) * 6 : (int)(h & 0x3f) - 32;
    m.unit = ldexp(1.0, e);
    uint8_t o = fz_u8(&in);
    m.offset = (o & 0x80) ? ldexp((o & 0x40) ? -1.0 : 1.0, o & 0x3f) * m.unit : 0.0;
    for (int k = 0; k < NW; k++) m.w[k] = new_world(k);
    m.foreign = new_world(0);
    {
        col_vec3 cube[8];
        for (int i = 0; i < 8; i++) cube[i] = col_vec3_make(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1);
        FZ_CHECK(col_shape_create_convex(m.foreign, cube, 8, &m.foreign_shape) == COL_OK, "foreign shape");
        col_body_def def = col_default_body_def();
        def.shape = m.foreign_shape;
        FZ_CHECK(col_body_create(m.foreign, &def, &m.foreign_body) == COL_OK, "foreign body");
    }
    for (int ops = 0; ops < 64 && !fz_empty(&in); ops++) {
        switch (fz_u8(&in) % 12) {
        case 0: op_create_shape(&m, &in); break;
        case 1: op_destroy_shape(&m, &in); break;
        case 2: op_create_body(&m, &in); break;
        case 3: op_destroy_body(&m, &in); break;
        case 4: op_set_pose(&m, &in); break;
        case 5: op_set_poses(&m, &in); break;
        case 6: op_set_speeds(&m, &in); break;
        case 7: op_pair_enable(&m, &in); break;
        case 8: op_bad_ids(&m, &in); break;
        case 9: op_queries(&m, &in); break;
        default: op_update(&m); break;
        }
    }
    op_update(&m);
    for (int k = 0; k < NW; k++) col_world_destroy(m.w[k]);
    col_world_destroy(m.foreign);
    return 0;
}
