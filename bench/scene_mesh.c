/* SPDX-License-Identifier: MIT */
/* The procedural mesh kinds of the benchmark scenes: scene_mesh.h says what each is. */
#include "bench/scene_mesh.h"

#include <math.h>
#include <stdlib.h>

#include "bench/scene_rand.h"

#define MESH_PI 3.14159265358979323846

const char *const scene_mesh_kind_name[SCENE_MESH_KIND_COUNT] = {"torusknot", "bumpy", "patch", "soup"};

static int add_vertex(scene_mesh *m, double x, double y, double z)
{
    if (m->nv == m->cap_v) {
        int cap = m->cap_v ? 2 * m->cap_v : 256;
        col_vec3 *v = realloc(m->v, sizeof *v * (size_t)cap);
        if (v == NULL) return -1;
        m->v = v;
        m->cap_v = cap;
    }
    m->v[m->nv] = col_vec3_make(x, y, z);
    return m->nv++;
}

static bool add_triangle(scene_mesh *m, int a, int b, int c)
{
    if (a < 0 || b < 0 || c < 0) return false; /* a failed add_vertex */
    if (m->nt == m->cap_t) {
        int cap = m->cap_t ? 2 * m->cap_t : 256;
        uint32_t *t = realloc(m->t, sizeof *t * 3 * (size_t)cap);
        if (t == NULL) return false;
        m->t = t;
        m->cap_t = cap;
    }
    m->t[3 * m->nt] = (uint32_t)a;
    m->t[3 * m->nt + 1] = (uint32_t)b;
    m->t[3 * m->nt + 2] = (uint32_t)c;
    m->nt++;
    return true;
}

static col_vec3 v_cross(col_vec3 a, col_vec3 b)
{
    return col_vec3_make(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

static col_vec3 v_unit(col_vec3 a)
{
    double n = sqrt(a.x * a.x + a.y * a.y + a.z * a.z);
    return col_vec3_make(a.x / n, a.y / n, a.z / n);
}

/* The (p, q) torus knot on the torus of radii KNOT_R (about the z axis) and KNOT_r: its
 * centre line c(t) = ((R + r cos qt) cos pt, (R + r cos qt) sin pt, r sin qt) winds p times
 * around the z axis and q times through the hole. */
#define KNOT_R 1.0
#define KNOT_r 0.45

static col_vec3 knot_point(int p, int q, double t)
{
    double rr = KNOT_R + KNOT_r * cos(q * t);
    return col_vec3_make(rr * cos(p * t), rr * sin(p * t), KNOT_r * sin(q * t));
}

static col_vec3 knot_tangent(int p, int q, double t)
{
    double rr = KNOT_R + KNOT_r * cos(q * t), dr = -KNOT_r * q * sin(q * t);
    return col_vec3_make(dr * cos(p * t) - rr * p * sin(p * t), dr * sin(p * t) + rr * p * cos(p * t),
                         KNOT_r * q * cos(q * t));
}

bool scene_mesh_torusknot(scene_mesh *m, int tris, int variant, double tube)
{
    /* (2,3) the trefoil, then (2,5), (3,4), (3,5) for further knot shapes of a scene */
    static const int pq[4][2] = {{2, 3}, {2, 5}, {3, 4}, {3, 5}};
    int p = pq[variant % 4][0], q = pq[variant % 4][1];
    /* The centre line's length, so that rings along it are about as far apart as the
     * points around the tube: nearly square quads. */
    double len = 0;
    for (int i = 0; i < 2048; i++) {
        col_vec3 d = knot_tangent(p, q, 2 * MESH_PI * (i + 0.5) / 2048);
        len += sqrt(d.x * d.x + d.y * d.y + d.z * d.z) * 2 * MESH_PI / 2048;
    }
    /* tris = 2 rings * around, rings / around = len / (2 pi tube) */
    int around = (int)lround(sqrt(tris * MESH_PI * tube / len));
    if (around < 3) around = 3;
    int rings = (int)lround(tris / (2.0 * around));
    if (rings < 3 * (p + q)) rings = 3 * (p + q);
    for (int i = 0; i < rings; i++) {
        double t = 2 * MESH_PI * i / rings;
        col_vec3 c = knot_point(p, q, t), T = v_unit(knot_tangent(p, q, t));
        /* The offset from the torus's core circle to c(t) is perpendicular to the tangent
         * (both of the tangent's parts, along the core circle and around the tube, are),
         * so it is the tube's normal: a frame that closes up after one turn. */
        col_vec3 N = col_vec3_make(cos(q * t) * cos(p * t), cos(q * t) * sin(p * t), sin(q * t));
        col_vec3 B = v_cross(T, N);
        for (int j = 0; j < around; j++) {
            double a = 2 * MESH_PI * j / around, ca = tube * cos(a), sa = tube * sin(a);
            if (add_vertex(m, c.x + ca * N.x + sa * B.x, c.y + ca * N.y + sa * B.y, c.z + ca * N.z + sa * B.z) < 0)
                return false;
        }
    }
    for (int i = 0; i < rings; i++)
        for (int j = 0; j < around; j++) {
            int i1 = (i + 1) % rings, j1 = (j + 1) % around;
            int a = i * around + j, b = i1 * around + j, c = i1 * around + j1, d = i * around + j1;
            if (!add_triangle(m, a, b, c) || !add_triangle(m, a, c, d)) return false;
        }
    m->what = "torusknot";
    return true;
}

/* Smooth bumps: on the unit sphere about a direction, or on the plane about a point. */
#define MESH_BUMPS 12
typedef struct bump {
    col_vec3 c;
    double height, width;
} bump;

static double bumps_at_direction(const bump *b, col_vec3 u)
{
    double s = 0;
    for (int k = 0; k < MESH_BUMPS; k++) {
        double cosang = u.x * b[k].c.x + u.y * b[k].c.y + u.z * b[k].c.z;
        s += b[k].height * exp((cosang - 1) / (b[k].width * b[k].width));
    }
    return s;
}

static double bumps_at_point(const bump *b, double x, double y)
{
    double s = 0;
    for (int k = 0; k < MESH_BUMPS; k++) {
        double dx = x - b[k].c.x, dy = y - b[k].c.y;
        s += b[k].height * exp(-(dx * dx + dy * dy) / (b[k].width * b[k].width));
    }
    return s;
}

bool scene_mesh_bumpy(scene_mesh *m, int tris)
{
    /* `seg` meridians and seg / 2 latitude bands: 2 seg (seg / 2 - 1) triangles */
    int seg = (int)lround(sqrt((double)tris)) + 1;
    if (seg < 4) seg = 4;
    int bands = seg / 2;
    bump b[MESH_BUMPS];
    for (int k = 0; k < MESH_BUMPS; k++) {
        b[k].c = scene_rand_direction();
        b[k].height = scene_rand_range(-0.2, 0.3);
        b[k].width = scene_rand_range(0.3, 0.7);
    }
    int north = add_vertex(m, 0, 0, 1);
    for (int i = 1; i < bands; i++) {
        double th = MESH_PI * i / bands;
        for (int j = 0; j < seg; j++) {
            double ph = 2 * MESH_PI * j / seg;
            if (add_vertex(m, sin(th) * cos(ph), sin(th) * sin(ph), cos(th)) < 0) return false;
        }
    }
    int south = add_vertex(m, 0, 0, -1);
    if (north < 0 || south < 0) return false;
    for (int j = 0; j < seg; j++) {
        int j1 = (j + 1) % seg, last = 1 + (bands - 2) * seg;
        if (!add_triangle(m, north, 1 + j, 1 + j1) || !add_triangle(m, south, last + j1, last + j)) return false;
        for (int i = 1; i + 1 < bands; i++) {
            int a = 1 + (i - 1) * seg + j, c = 1 + (i - 1) * seg + j1, d = a + seg, e = c + seg;
            if (!add_triangle(m, a, d, e) || !add_triangle(m, a, e, c)) return false;
        }
    }
    for (int i = 0; i < m->nv; i++) { /* the radius along each vertex's direction */
        col_vec3 u = m->v[i];
        double rad = 1 + bumps_at_direction(b, u) + scene_rand_range(-0.02, 0.02);
        if (rad < 0.3) rad = 0.3;
        m->v[i] = col_vec3_make(u.x * rad, u.y * rad, u.z * rad);
    }
    m->what = "bumpy";
    return true;
}

/* z(x, y) over [-1, 1]^2 on an n x n grid (2 n^2 triangles, each cell's diagonal
 * alternating), bumps of heights up to `amp`, plus `bowl` max(|x|, |y|)^6: a floor that
 * rises into walls. */
static bool heightfield(scene_mesh *m, int tris, double amp, double bowl)
{
    int n = (int)lround(sqrt(tris / 2.0));
    if (n < 1) n = 1;
    bump b[MESH_BUMPS];
    for (int k = 0; k < MESH_BUMPS; k++) {
        double x = scene_rand_range(-1, 1);
        double y = scene_rand_range(-1, 1);
        b[k].c = col_vec3_make(x, y, 0);
        b[k].height = scene_rand_range(-amp, amp);
        b[k].width = scene_rand_range(0.1, 0.5);
    }
    for (int i = 0; i <= n; i++)
        for (int j = 0; j <= n; j++) {
            double x = -1 + 2.0 * i / n, y = -1 + 2.0 * j / n, e = fmax(fabs(x), fabs(y));
            double z = bumps_at_point(b, x, y) + amp * scene_rand_range(-0.05, 0.05) + bowl * pow(e, 6);
            if (add_vertex(m, x, y, z) < 0) return false;
        }
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            int a = i * (n + 1) + j, c = a + n + 1, d = a + 1, e = c + 1;
            bool ok = (i + j) % 2 ? add_triangle(m, a, c, e) && add_triangle(m, a, e, d)
                                  : add_triangle(m, a, c, d) && add_triangle(m, c, e, d);
            if (!ok) return false;
        }
    return true;
}

bool scene_mesh_patch(scene_mesh *m, int tris)
{
    m->what = "patch";
    return heightfield(m, tris, 0.3, 0.0);
}

bool scene_mesh_floor(scene_mesh *m, int tris)
{
    m->what = "floor";
    return heightfield(m, tris, 0.04, 0.7);
}

/* A point near c: a random direction at a random distance in [0.3, 1] size. */
static int soup_vertex(scene_mesh *m, col_vec3 c, double size)
{
    col_vec3 d = scene_rand_direction();
    double l = size * scene_rand_range(0.3, 1);
    return add_vertex(m, c.x + d.x * l, c.y + d.y * l, c.z + d.z * l);
}

bool scene_mesh_soup(scene_mesh *m, int tris)
{
    /* edges of about 6 / sqrt(T): the soup stays about as dense however many triangles */
    double size = fmin(0.6, 6 / sqrt((double)tris));
    for (int k = 0; k < tris; k++) {
        col_vec3 u = scene_rand_direction();
        double r = 0.85 * cbrt(scene_rand_unit()); /* uniform in the ball of radius 0.85 */
        col_vec3 c = col_vec3_make(u.x * r, u.y * r, u.z * r);
        double kind = scene_rand_unit();
        int a = soup_vertex(m, c, size);
        bool ok;
        if (kind < 0.01) { /* a point: one index thrice */
            ok = add_triangle(m, a, a, a);
        } else if (kind < 0.03) { /* a segment: one index twice, in any of the three places */
            int b = soup_vertex(m, c, size), at = scene_rand_int(0, 2);
            ok = at == 0 ? add_triangle(m, b, a, a) : at == 1 ? add_triangle(m, a, b, a) : add_triangle(m, a, a, b);
        } else if (kind < 0.04) {
            /* three distinct collinear points: along the x axis, so y and z are equal
             * doubles and stay equal through scene_mesh_fit (the same operations on the same
             * numbers); a pose's rotation makes them only nearly collinear in the world */
            if (a < 0) return false;
            col_vec3 p = m->v[a];
            double s = size * scene_rand_range(0.3, 1);
            int far = add_vertex(m, p.x + 2 * s, p.y, p.z); /* one call per statement: a fixed order */
            int mid = add_vertex(m, p.x + s, p.y, p.z);
            ok = add_triangle(m, a, far, mid);
        } else {
            int b = soup_vertex(m, c, size);
            int d = soup_vertex(m, c, size);
            ok = add_triangle(m, a, b, d);
        }
        if (!ok) return false;
        m->degenerate += kind < 0.04;
    }
    m->what = "soup";
    return true;
}

/* Centres v on its bounding box and scales it so that its farthest vertex is at `radius`. */
static void centre_and_scale(col_vec3 *v, int nv, double radius)
{
    col_vec3 lo = v[0], hi = v[0];
    for (int i = 1; i < nv; i++) {
        lo = col_vec3_make(fmin(lo.x, v[i].x), fmin(lo.y, v[i].y), fmin(lo.z, v[i].z));
        hi = col_vec3_make(fmax(hi.x, v[i].x), fmax(hi.y, v[i].y), fmax(hi.z, v[i].z));
    }
    col_vec3 c = col_vec3_make(0.5 * (lo.x + hi.x), 0.5 * (lo.y + hi.y), 0.5 * (lo.z + hi.z));
    double far = 0;
    for (int i = 0; i < nv; i++) {
        col_vec3 x = col_vec3_make(v[i].x - c.x, v[i].y - c.y, v[i].z - c.z);
        v[i] = x;
        far = fmax(far, sqrt(x.x * x.x + x.y * x.y + x.z * x.z));
    }
    double s = far > 0 ? radius / far : 1;
    for (int i = 0; i < nv; i++) v[i] = col_vec3_make(v[i].x * s, v[i].y * s, v[i].z * s);
}

void scene_mesh_fit(scene_mesh *m, double radius)
{
    centre_and_scale(m->v, m->nv, radius);
    m->radius = 0;
    for (int i = 0; i < m->nv; i++) {
        col_vec3 x = m->v[i];
        /* docs/scenes.md's radius, computed as a reader computes it from these doubles */
        m->radius = fmax(m->radius, sqrt(x.x * x.x + x.y * x.y + x.z * x.z));
    }
}

col_vec3 *scene_vertices_unit(const col_vec3 *v, int nv)
{
    col_vec3 *w = malloc((size_t)nv * sizeof *w);
    if (w == NULL) return NULL;
    for (int i = 0; i < nv; i++) w[i] = v[i];
    centre_and_scale(w, nv, 1.0);
    return w;
}

void scene_mesh_free(scene_mesh *m)
{
    free(m->v);
    free(m->t);
    *m = (scene_mesh){0};
}
