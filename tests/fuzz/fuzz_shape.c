/* SPDX-License-Identifier: MIT */
/* libFuzzer target: shape creation from arbitrary doubles, then the world-free queries
 * on what was created.
 *
 * Each input builds up to three shapes with col_shape_create_convex from raw doubles
 * (NaN, infinities, subnormals, huge), from small integers times any power of two
 * (degenerate, coplanar, tiny and huge sets), from boxes with raw half sides, or with a
 * negative count or NULL points. Checks: a failed call returns a documented status and
 * leaves col_world_hash unchanged; a created shape has a finite, positive-volume hull whose
 * vertices lie in its box; col_query_overlap gives the same answer with every backend
 * (all exact, docs/architecture.md); col_distance and col_contact never contradict the
 * reference (SEPARATED needs a gap, PENETRATING an overlap) and return finite values. */
#include "fuzz_util.h"

#define MAX_SHAPES 3
#define MAX_POINTS 64

static const col_backend backends[] = {COL_BACKEND_REFERENCE, COL_BACKEND_LPIP, COL_BACKEND_VORONOI,
                                       COL_BACKEND_SEPVEC};
#define NBACKENDS ((int)(sizeof backends / sizeof backends[0]))

static bool create_status_ok(col_status st)
{
    return st == COL_OK || st == COL_ERR_INVALID_ARGUMENT || st == COL_ERR_NOT_FINITE ||
           st == COL_ERR_TOO_FEW_POINTS || st == COL_ERR_DEGENERATE_SHAPE || st == COL_ERR_HULL_FAILED;
}

static bool vec_finite(col_vec3 v) { return isfinite(v.x) && isfinite(v.y) && isfinite(v.z); }

/* One shape from the bytes; returns the status of the create call. */
static col_status make_shape(col_world *w, fz_bytes *in, col_shape_id *out)
{
    col_vec3 pts[MAX_POINTS];
    uint8_t mode = fz_u8(in);
    int count = 0;
    const col_vec3 *arg = pts;
    switch (mode % 4) {
    case 0: /* raw doubles */
        count = fz_u8(in) % 24;
        for (int k = 0; k < count; k++) {
            pts[k].x = fz_raw_double(in);
            pts[k].y = fz_raw_double(in);
            pts[k].z = fz_raw_double(in);
        }
        break;
    case 1: { /* small integers times 2^e for any e (ldexp overflows to inf, underflows to 0) */
        count = fz_u8(in) % MAX_POINTS;
        double scale = ldexp(1.0, (int8_t)fz_u8(in) * 9);
        for (int k = 0; k < count; k++) {
            pts[k].x = (int8_t)fz_u8(in) * scale;
            pts[k].y = (int8_t)fz_u8(in) * scale;
            pts[k].z = (int8_t)fz_u8(in) * scale;
        }
        break;
    }
    case 2: { /* a box with raw half sides, moved by a raw offset */
        double hx = fz_raw_double(in), hy = fz_raw_double(in), hz = fz_raw_double(in);
        col_vec3 c = {fz_raw_double(in), fz_raw_double(in), fz_raw_double(in)};
        count = 8;
        for (int k = 0; k < 8; k++)
            pts[k] = col_vec3_make(c.x + (k & 1 ? hx : -hx), c.y + (k & 2 ? hy : -hy), c.z + (k & 4 ? hz : -hz));
        break;
    }
    default: /* bad arguments: a negative count, or NULL points */
        count = (mode & 4) ? -(int)fz_u8(in) - 1 : (int)(fz_u8(in) % 8);
        arg = (mode & 8) ? NULL : pts;
        memset(pts, 0, sizeof pts);
        break;
    }
    uint64_t before = col_world_hash(w);
    col_status st = col_shape_create_convex(w, arg, count, out);
    FZ_CHECK(create_status_ok(st), "status %d: %s", (int)st, col_world_last_error(w));
    if (st != COL_OK) {
        FZ_CHECK(col_world_hash(w) == before, "failed create (status %d) changed the world", (int)st);
        return st;
    }
    col_shape_info info;
    FZ_CHECK(col_shape_get_info(w, *out, &info) == COL_OK, "info of a new shape");
    FZ_CHECK(info.vertex_count >= 4 && info.face_count >= 4 && info.edge_count >= 6 &&
                 info.vertex_count <= (count > 0 ? count : 0),
             "hull counts v %d f %d e %d from %d points", info.vertex_count, info.face_count, info.edge_count, count);
    FZ_CHECK(info.vertex_count - info.edge_count + info.face_count == 2, "Euler: v %d e %d f %d",
             info.vertex_count, info.edge_count, info.face_count);
    FZ_CHECK(isfinite(info.volume) && info.volume > 0.0 && isfinite(info.radius) && vec_finite(info.centroid),
             "volume %g radius %g", info.volume, info.radius);
    col_vec3 verts[MAX_POINTS];
    int n = 0;
    FZ_CHECK(col_shape_get_vertices(w, *out, verts, MAX_POINTS, &n) == COL_OK && n == info.vertex_count, "vertices");
    for (int k = 0; k < n; k++)
        FZ_CHECK(vec_finite(verts[k]) && verts[k].x >= info.aabb_min.x && verts[k].x <= info.aabb_max.x &&
                     verts[k].y >= info.aabb_min.y && verts[k].y <= info.aabb_max.y &&
                     verts[k].z >= info.aabb_min.z && verts[k].z <= info.aabb_max.z,
                 "vertex %d outside the box", k);
    return st;
}

static col_transform pose_from(fz_bytes *in)
{
    col_transform t;
    uint8_t mode = fz_u8(in);
    if (mode >= 240) { /* raw: NaN, infinities, beyond COL_MAX_COORD */
        t.p = col_vec3_make(fz_raw_double(in), fz_raw_double(in), fz_raw_double(in));
    } else {
        /* Scales 2^-64 .. 2^63, or (modes 128..239) 2^-384 .. 2^381 to place tiny and
         * huge shapes near each other. */
        int8_t e = (int8_t)fz_u8(in);
        double scale = ldexp(1.0, mode < 128 ? e / 2 : e * 3);
        t.p.x = (int16_t)fz_u16(in) / 256.0 * scale;
        t.p.y = (int16_t)fz_u16(in) / 256.0 * scale;
        t.p.z = (int16_t)fz_u16(in) / 256.0 * scale;
    }
    t.q = fz_quat(in);
    return t;
}

static void query_pair(col_world *w, col_shape_id a, col_shape_id b, fz_bytes *in)
{
    col_transform xa = pose_from(in), xb = pose_from(in);
    uint64_t before = col_world_hash(w);
    bool hit[NBACKENDS];
    col_status st[NBACKENDS];
    for (int k = 0; k < NBACKENDS; k++) {
        hit[k] = false;
        st[k] = col_query_overlap(w, a, xa, b, xb, backends[k], &hit[k]);
        FZ_CHECK(st[k] == st[0], "%s status %d, reference %d", col_backend_name(backends[k]), (int)st[k], (int)st[0]);
        FZ_CHECK(col_world_hash(w) == before, "a query changed the world");
    }
    if (st[0] != COL_OK) {
        FZ_CHECK(st[0] == COL_ERR_NOT_FINITE || st[0] == COL_ERR_BAD_QUATERNION, "overlap status %d", (int)st[0]);
        return;
    }
    for (int k = 1; k < NBACKENDS; k++)
        FZ_CHECK(hit[k] == hit[0],
                 "%s says %d, reference %d; a at (%a %a %a) q (%a %a %a %a), b at (%a %a %a) q (%a %a %a %a)",
                 col_backend_name(backends[k]), hit[k], hit[0], xa.p.x, xa.p.y, xa.p.z, xa.q.x, xa.q.y, xa.q.z,
                 xa.q.w, xb.p.x, xb.p.y, xb.p.z, xb.q.x, xb.q.y, xb.q.z, xb.q.w);

    col_distance_input din = {a, b, xa, xb};
    col_distance_output dout;
    FZ_CHECK(col_distance(w, &din, NULL, &dout) == COL_OK, "distance: %s", col_world_last_error(w));
    FZ_CHECK(isfinite(dout.distance) && dout.distance >= 0.0 && vec_finite(dout.point_a) && vec_finite(dout.point_b),
             "distance %g", dout.distance);
    FZ_CHECK(!(dout.outcome == COL_DISTANCE_SEPARATED && hit[0]), "distance SEPARATED (%g), reference colliding",
             dout.distance);
    FZ_CHECK(!(dout.outcome == COL_DISTANCE_PENETRATING && !hit[0]), "distance PENETRATING, reference apart");
    col_contact_input cin = {a, b, xa, xb, ldexp((double)fz_u8(in), (int8_t)fz_u8(in) / 4)};
    col_contact_output cout;
    FZ_CHECK(col_contact(w, &cin, NULL, &cout) == COL_OK, "contact: %s", col_world_last_error(w));
    FZ_CHECK(cout.point_count >= 0 && cout.point_count <= COL_MAX_CONTACT_POINTS && isfinite(cout.separation) &&
                 vec_finite(cout.normal),
             "contact: %d points, separation %g", cout.point_count, cout.separation);
    FZ_CHECK(cout.outcome == dout.outcome, "contact outcome %d, distance %d", (int)cout.outcome, (int)dout.outcome);
    for (int k = 0; k < cout.point_count; k++)
        FZ_CHECK(vec_finite(cout.points[k].point_a) && vec_finite(cout.points[k].point_b) &&
                     isfinite(cout.points[k].separation),
                 "contact point %d", k);
    FZ_CHECK(col_world_hash(w) == before, "distance or contact changed the world");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_bytes in = {data, size, 0};
    col_world_def def = col_default_world_def();
    def.worker_count = 1;
    col_world *w = NULL;
    FZ_CHECK(col_world_create(&def, &w) == COL_OK, "world");
    col_shape_id ids[MAX_SHAPES];
    col_shape_info info[MAX_SHAPES];
    int n = 0;
    int want = 1 + fz_u8(&in) % MAX_SHAPES;
    for (int k = 0; k < want; k++)
        if (make_shape(w, &in, &ids[n]) == COL_OK) {
            FZ_CHECK(col_shape_get_info(w, ids[n], &info[n]) == COL_OK, "info");
            n++;
        }
    for (int i = 0; i < n; i++)
        for (int j = i; j < n; j++) query_pair(w, ids[i], ids[j], &in);
    col_world_destroy(w);
    return 0;
}
