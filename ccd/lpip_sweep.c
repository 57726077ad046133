/* SPDX-License-Identifier: MIT */
/* Inter-frame collision with swept hulls (the paper's section 5; lpip_sweep.h).
 *
 * Relative motion, not two sweeps. The paper sweeps each body over the frame and tests
 * the two swept hulls; with both bodies moving that over-reports (the sweeps can cross
 * at different times: two cars through one crossing a minute apart). Here B's vertices
 * are taken at both instants in A's frame, so A stands still and only B's RELATIVE
 * motion is swept: q_v(t) = R_A(t)^T (R_B(t) v + p_B(t) - p_A(t)).
 *
 * Exactness. If neither body rotates, q_v(t) = q_v(0) + t w with one w for every vertex
 * (straight translations at constant velocity), so B's relative sweep is B(0) + [0,1] w,
 * a convex set equal to conv(B(0) u B(1)) (the paper's eq. 34): A meets it iff the
 * bodies touch at some instant of the frame. Exact (up to the rounding of the frame
 * change, ~1e-16 x the coordinates).
 * The partial extension (the paper's eq. 35, in its exact form): a vertex of B(0) whose
 * faces all face the motion (n.w > 0) lies inside B(0) + [0,1] w, and so does a vertex
 * of B(1) whose faces all face away; only the others are kept (about half of the
 * doubled points). A tolerance of 1e-12 |n||w| keeps grazing faces on both sides.
 *
 * Rotation. A vertex then leaves its chord. For a C^2 path, the distance from the chord
 * is at most max |q''| / 8 over the frame (linear interpolation error, applied to u.q
 * for every unit u). With R(t) = exp(t [omega]x) R(0) (fixed world axis, constant rate,
 * |omega| = theta, the angle between the two orientations, <= pi) and p(t) linear:
 *   |q''| <= thA^2 (D + rB) + 2 thA (thB rB + |dp|) + thB^2 rB,
 * D = max(|p_B - p_A| at t = 0 and 1) (the distance from A's rotation centre, A's
 * origin, to B's, is at most D, a vertex of B at most D + rB), rB = B's radius about its
 * origin, dp = the change of p_B - p_A over the frame. With A not rotating this is
 * rB thB^2 / 8, the chord-versus-arc bulge r (1 - cos(theta/2)) <= r theta^2 / 8. The
 * swept hull is inflated by that bound: a separation gap > bound proves no contact;
 * otherwise the hull plus a cube of half side bound (which contains the ball) is tested.
 * theta comes from the chord of the rotation, c = |R1 - R0|_F / sqrt 2 = 2 sin(theta/2)
 * (sqrt only, no libm trigonometry in the decision), bounded above by
 * theta <= min(c / sqrt(1 - c^2/4), pi c / 2) (asin x <= x / sqrt(1 - x^2) and
 * asin x <= pi x / 2 on [0, 1]).
 * The frame of the body that gives the smaller bound is used (the bound is not
 * symmetric: A's rotation swings all of B about A's origin). A rotating pair that may
 * touch is re-tested on the two halves of the frame (the model pose halfway: the middle
 * of the straight path and normalize(q0 + q1), the half rotation), each with about a
 * quarter of the bound, down to SWEEP_SPLIT_DEPTH levels; "no contact" needs every
 * piece to prove it.
 *
 * Outside the model: motion that is not a straight translation plus a fixed-axis
 * rotation at constant rate within the frame, e.g. a bounce off a wall inside the frame
 * (the benchmark's triangle wave). The caller must split the frame at such events (the
 * world cannot: it only knows two poses); docs/lpip.md. */
#include "ccd/lpip_sweep.h"

#include <float.h>
#include <math.h>
#include <stdalign.h>
#include <stdint.h>
#include <string.h>

#include "lib/core/vec.h"
#include "narrowphase/lpip.h"

/* Grazing faces (|n.w| below this fraction of |n||w|) count as facing both ways. */
#define SWEEP_GRAZE_REL 1e-12
/* Levels of halving for a rotating pair that may touch (at most 2^depth pieces). */
#define SWEEP_SPLIT_DEPTH 3
/* Relative and absolute slack on the bulge bound (its own rounding). */
#define SWEEP_BOUND_REL 1e-9

static const col_xform sweep_identity = {{{1, 0, 0, 0, 1, 0, 0, 0, 1}}, {0, 0, 0}};

size_t col_lpip_sweep_scratch_bytes(const col_hull *a, const col_hull *b)
{
    int n = a->vertex_count > b->vertex_count ? a->vertex_count : b->vertex_count;
    int m = a->vertex_count + b->vertex_count;
    /* swept points (2n), cube-inflated points (16n), flags (n), the decision on the
     * fixed body against 16n points */
    return (size_t)18 * (size_t)n * sizeof(col_vec3) + (size_t)n + col_lpip_decide_scratch_bytes(m, 16 * n) +
           2 * alignof(double);
}

double col_lpip_angle_bound(const col_mat3 *r0, const col_mat3 *r1)
{
    double s = 0.0;
    int same = 1;
    for (int i = 0; i < 9; i++) {
        double d = r1->m[i] - r0->m[i];
        s += d * d;
        same &= r1->m[i] == r0->m[i];
    }
    if (same) return 0.0;
    double c = sqrt(0.5 * s); /* 2 sin(theta / 2), in [0, 2] */
    double b1 = 1.5707963267948966 * c;
    double q = 1.0 - 0.25 * c * c;
    double b2 = q > 0.0 ? c / sqrt(q) : INFINITY;
    double t = b1 < b2 ? b1 : b2;
    t = t < 3.1415926535897932 * (1.0 + 1e-15) ? t : 3.1415926535897932 * (1.0 + 1e-15);
    return t * (1.0 + SWEEP_BOUND_REL) + 4.0 * DBL_EPSILON;
}

/* The chord-deviation bound for B swept in A's frame. */
static double sweep_bulge(double tha, double thb, const col_hull *b, const col_xform *xa0, const col_xform *xa1,
                          const col_xform *xb0, const col_xform *xb1)
{
    if (tha == 0.0 && thb == 0.0) return 0.0;
    col_vec3 d0 = col_sub(xb0->p, xa0->p), d1 = col_sub(xb1->p, xa1->p);
    double l0 = col_len(d0), l1 = col_len(d1);
    double D = l0 > l1 ? l0 : l1;
    double dp = col_len(col_sub(d1, d0));
    double rb = b->radius;
    double q2 = tha * tha * (D + rb) + 2.0 * tha * (thb * rb + dp) + thb * thb * rb;
    return 0.125 * q2 * (1.0 + SWEEP_BOUND_REL) + 64.0 * DBL_EPSILON * (D + rb);
}

/* B's vertex v at pose xb, in the frame of pose xa. */
static inline col_vec3 sweep_rel(const col_xform *xa, const col_xform *xb, col_vec3 v)
{
    return col_mat3_tmul(&xa->R, col_sub(col_xform_point(xb, v), xa->p));
}

/* F: the body whose frame is used (fixed); M: the one whose motion is swept. */
typedef struct sweep_motion {
    const col_hull *F, *M;
    const col_xform *xf0, *xf1, *xm0, *xm1;
    double bulge; /* the rotation's bulge bound, length units (0: no rotation) */
} sweep_motion;

static sweep_motion sweep_motion_make(const col_hull *F, const col_xform *xf0, const col_xform *xf1,
                                      const col_hull *M, const col_xform *xm0, const col_xform *xm1, double bulge)
{
    sweep_motion mo = {F, M, xf0, xf1, xm0, xm1, bulge};
    return mo;
}

/* The frame of the body that gives the smaller bulge bound (the top comment). */
static sweep_motion sweep_motion_of(const col_hull *a, const col_xform *xa0, const col_xform *xa1, const col_hull *b,
                                    const col_xform *xb0, const col_xform *xb1)
{
    double tha = col_lpip_angle_bound(&xa0->R, &xa1->R), thb = col_lpip_angle_bound(&xb0->R, &xb1->R);
    double dab = sweep_bulge(tha, thb, b, xa0, xa1, xb0, xb1);
    double dba = sweep_bulge(thb, tha, a, xb0, xb1, xa0, xa1);
    if (dba < dab) return sweep_motion_make(b, xb0, xb1, a, xa0, xa1, dba);
    return sweep_motion_make(a, xa0, xa1, b, xb0, xb1, dab);
}

/* The scratch (col_lpip_sweep_scratch_bytes): swept points (2 cap), cube-inflated points
 * (16 cap), flags (cap), and the decision's scratch after them; cap = the larger vertex
 * count. */
typedef struct sweep_mem {
    col_vec3 *pts, *fat;
    unsigned char *need;
    col_np_scratch sub;
} sweep_mem;

static void sweep_layout(sweep_mem *m, col_np_scratch *scratch, const col_hull *a, const col_hull *b)
{
    uintptr_t p = (uintptr_t)scratch->mem;
    p = (p + alignof(double) - 1) & ~(uintptr_t)(alignof(double) - 1);
    int cap = a->vertex_count > b->vertex_count ? a->vertex_count : b->vertex_count;
    m->pts = (col_vec3 *)p;
    m->fat = m->pts + 2 * (size_t)cap;
    m->need = (unsigned char *)(m->fat + 16 * (size_t)cap);
    uintptr_t q = (uintptr_t)(m->need + cap);
    q = (q + alignof(double) - 1) & ~(uintptr_t)(alignof(double) - 1);
    m->sub.mem = (void *)q;
    m->sub.size = scratch->size - (size_t)(q - (uintptr_t)scratch->mem);
}

/* The swept body's points in the fixed body's frame, into m->pts: each vertex at both
 * instants, or (exact, partial) only the copies the swept hull needs, or the start alone
 * without relative motion. Returns their count. */
static int sweep_points(const sweep_motion *mo, bool exact, bool partial, const sweep_mem *m)
{
    const col_hull *M = mo->M;
    int n = M->vertex_count;
    unsigned char *need = m->need;
    /* Which copies of each vertex the swept hull needs: bit 0 the start, bit 1 the end. */
    memset(need, 3, (size_t)n);
    col_vec3 w = col_sub(col_sub(mo->xm1->p, mo->xf1->p), col_sub(mo->xm0->p, mo->xf0->p)); /* world */
    double wl = col_len(w);
    if (exact && !(wl > 0.0)) {
        memset(need, 1, (size_t)n); /* no relative motion: the start pose alone */
    } else if (exact && partial) {
        memset(need, 0, (size_t)n);
        for (int f = 0; f < M->face_count; f++) {
            double s = col_dot(col_mat3_mul(&mo->xm0->R, M->planes[f].n), w);
            double tol = SWEEP_GRAZE_REL * wl;
            unsigned char bits = (unsigned char)((s <= tol ? 1 : 0) | (s >= -tol ? 2 : 0));
            for (int k = M->face_first[f]; k < M->face_first[f + 1]; k++) need[M->face_verts[k]] |= bits;
        }
    }
    int np = 0;
    for (int i = 0; i < n; i++) {
        if (need[i] & 1) m->pts[np++] = sweep_rel(mo->xf0, mo->xm0, M->vertices[i]);
        if (need[i] & 2) m->pts[np++] = sweep_rel(mo->xf1, mo->xm1, M->vertices[i]);
    }
    return np;
}

/* lpip's decision of the fixed body against the np swept points; a separation by less
 * than the bulge bound is tested again with the hull plus the cube [-bulge, bulge]^3. */
static void sweep_decide(const sweep_motion *mo, sweep_mem *m, int np, col_lpip_sweep_result *out)
{
    const col_vec3 *pts = m->pts;
    col_vec3 cen = col_v3(0.0, 0.0, 0.0);
    double rad = 0.0;
    for (int i = 0; i < np; i++) {
        cen = col_add(cen, pts[i]);
        double r = col_len(pts[i]);
        rad = r > rad ? r : rad;
    }
    cen = col_scale(cen, 1.0 / np);
    out->points = np;

    col_lpip_set sf, sm;
    sf.v = mo->F->vertices;
    sf.n = mo->F->vertex_count;
    sf.xf = &sweep_identity;
    sf.centroid = mo->F->centroid;
    sf.radius = mo->F->radius;
    sm.v = pts;
    sm.n = np;
    sm.xf = &sweep_identity;
    sm.centroid = cen;
    sm.radius = rad * (1.0 + 1e-15);

    col_lpip_outcome oc;
    col_lpip_decide(NULL, &sf, &sm, NULL, &m->sub, &oc);
    out->iterations = oc.info.iterations;
    if (oc.answer == COL_LPIP_SEPARATED && oc.gap > mo->bulge) return;
    if (oc.answer != COL_LPIP_SEPARATED) {
        out->may_touch = true;
        out->undecided = oc.answer == COL_LPIP_UNDECIDED;
        if (out->undecided) out->exact = false;
        return;
    }
    /* Separated by less than the bulge bound: test the hull plus the cube [-b, b]^3. */
    int nf = 0;
    double bb = mo->bulge;
    for (int i = 0; i < np; i++)
        for (int c = 0; c < 8; c++)
            m->fat[nf++] = col_v3(pts[i].x + (c & 1 ? bb : -bb), pts[i].y + (c & 2 ? bb : -bb),
                                  pts[i].z + (c & 4 ? bb : -bb));
    sm.v = m->fat;
    sm.n = nf;
    sm.radius = (rad + 1.7320508075688774 * bb) * (1.0 + 1e-12);
    col_lpip_decide(NULL, &sf, &sm, NULL, &m->sub, &oc);
    out->iterations += oc.info.iterations;
    out->points = nf;
    if (oc.answer == COL_LPIP_SEPARATED) return;
    out->may_touch = true;
    out->undecided = oc.answer == COL_LPIP_UNDECIDED;
}

/* One piece of motion: the test of the top comment. */
static void sweep_piece(const col_hull *a, const col_xform *xa0, const col_xform *xa1, const col_hull *b,
                        const col_xform *xb0, const col_xform *xb1, bool partial, col_np_scratch *scratch,
                        col_lpip_sweep_result *out)
{
    memset(out, 0, sizeof *out);
    sweep_motion mo = sweep_motion_of(a, xa0, xa1, b, xb0, xb1);
    out->exact = mo.bulge == 0.0;
    out->inflation = mo.bulge;
    sweep_mem m;
    sweep_layout(&m, scratch, a, b);
    int np = sweep_points(&mo, out->exact, partial, &m);
    sweep_decide(&mo, &m, np, out);
}

/* Unit quaternion of a rotation matrix (Shepperd's method: the largest of the four
 * candidate pivots, sqrt only), in col_mat3_from_quat's convention. */
static col_quat sweep_quat(const col_mat3 *r)
{
    const double *m = r->m;
    double tr = m[0] + m[4] + m[8], s;
    col_quat q;
    if (tr > 0.0) {
        s = 2.0 * sqrt(tr + 1.0);
        q.w = 0.25 * s;
        q.x = (m[7] - m[5]) / s;
        q.y = (m[2] - m[6]) / s;
        q.z = (m[3] - m[1]) / s;
    } else if (m[0] > m[4] && m[0] > m[8]) {
        s = 2.0 * sqrt(1.0 + m[0] - m[4] - m[8]);
        q.w = (m[7] - m[5]) / s;
        q.x = 0.25 * s;
        q.y = (m[1] + m[3]) / s;
        q.z = (m[2] + m[6]) / s;
    } else if (m[4] > m[8]) {
        s = 2.0 * sqrt(1.0 + m[4] - m[0] - m[8]);
        q.w = (m[2] - m[6]) / s;
        q.x = (m[1] + m[3]) / s;
        q.y = 0.25 * s;
        q.z = (m[5] + m[7]) / s;
    } else {
        s = 2.0 * sqrt(1.0 + m[8] - m[0] - m[4]);
        q.w = (m[3] - m[1]) / s;
        q.x = (m[2] + m[6]) / s;
        q.y = (m[5] + m[7]) / s;
        q.z = 0.25 * s;
    }
    return q;
}

/* The model pose halfway: the midpoint of the straight path, and the half rotation
 * about the fixed axis, normalize(q0 + q1) with q1 on q0's side (the smaller angle). */
static col_xform sweep_mid(const col_xform *x0, const col_xform *x1)
{
    col_quat q0 = sweep_quat(&x0->R), q1 = sweep_quat(&x1->R);
    double dot = q0.w * q1.w + q0.x * q1.x + q0.y * q1.y + q0.z * q1.z;
    double sg = dot < 0.0 ? -1.0 : 1.0;
    col_quat m = {q0.x + sg * q1.x, q0.y + sg * q1.y, q0.z + sg * q1.z, q0.w + sg * q1.w};
    double n = sqrt(m.w * m.w + m.x * m.x + m.y * m.y + m.z * m.z);
    m.w /= n;
    m.x /= n;
    m.y /= n;
    m.z /= n;
    col_xform x;
    x.R = col_mat3_from_quat(m);
    x.p = col_scale(col_add(x0->p, x1->p), 0.5);
    return x;
}

/* Rotation inflates the swept hull by r theta^2 / 8 and more; halving the frame divides
 * the bound by about 4. A piece that may touch is halved again, down to 1/2^depth of
 * the frame. Returns whether some piece may touch. */
static bool sweep_split(const col_hull *a, const col_xform *xa0, const col_xform *xa1, const col_hull *b,
                        const col_xform *xb0, const col_xform *xb1, col_np_scratch *scratch, int depth,
                        col_lpip_sweep_result *acc)
{
    col_xform am = sweep_mid(xa0, xa1), bm = sweep_mid(xb0, xb1);
    const col_xform *pa[3] = {xa0, &am, xa1}, *pb[3] = {xb0, &bm, xb1};
    for (int h = 0; h < 2; h++) {
        col_lpip_sweep_result r;
        sweep_piece(a, pa[h], pa[h + 1], b, pb[h], pb[h + 1], true, scratch, &r);
        acc->iterations += r.iterations;
        if (!r.may_touch) continue;
        if (r.undecided) acc->undecided = true;
        if (r.exact || r.undecided || depth >= SWEEP_SPLIT_DEPTH) return true;
        if (sweep_split(a, pa[h], pa[h + 1], b, pb[h], pb[h + 1], scratch, depth + 1, acc)) return true;
    }
    return false;
}

void col_lpip_sweep(const col_hull *a, const col_xform *xa0, const col_xform *xa1,
                    const col_hull *b, const col_xform *xb0, const col_xform *xb1, bool partial,
                    col_np_scratch *scratch, col_lpip_sweep_result *out)
{
    sweep_piece(a, xa0, xa1, b, xb0, xb1, partial, scratch, out);
    if (!out->may_touch || out->exact || out->undecided) return;
    out->may_touch = sweep_split(a, xa0, xa1, b, xb0, xb1, scratch, 1, out);
}
