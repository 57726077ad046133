/* SPDX-License-Identifier: MIT */
/* Exact orientation predicates (orient.h): a double filter, then expansions, then
 * integers. */
#include "narrowphase/orient.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "narrowphase/expansion.h"

static inline double coord(col_vec3 p, int k) { return k == 0 ? p.x : (k == 1 ? p.y : p.z); }

static inline int sign_of(double x) { return (x > 0.0) - (x < 0.0); }

/* ---- Expansions on scaled differences ----
 * Expansion arithmetic is exact while nothing overflows and no product's error term
 * underflows (Shewchuk 1997, section 2.6; expansion.h). The differences are exact as two
 * components each (Two-Sum); all of them are multiplied by one power of two (exact, the
 * sign of a homogeneous determinant unchanged) so that the largest is below 2^300; then
 * a product of three factors stays below 2^900 times a small constant, and if every
 * non-zero component is at least 2^-306 its last bit is at least 2^-358, so every exact
 * product of up to three components is a multiple of 2^-1074 and representable: every
 * Two-Product error term is exact. When a component would fall below 2^-306 the inputs
 * span too many orders of magnitude for this path and the integers decide. */

#define XP_TOP 300
#define XP_MIN 0x1p-306
#define IN_MAX 0x1p1020 /* larger inputs could overflow a difference */

/* out[i] = (p[i] - q[i]) * 2^s for one s; false when outside the exact range above. */
static bool scaled_diffs(col_xp *out, int n, const double *p, const double *q)
{
    double m = 0.0;
    for (int i = 0; i < n; i++) {
        if (!(fabs(p[i]) <= IN_MAX) || !(fabs(q[i]) <= IN_MAX)) return false;
        col_xp_diff(&out[i], p[i], q[i]);
        for (int j = 0; j < out[i].n; j++) m = fmax(m, fabs(out[i].t[j]));
    }
    if (m == 0.0) return true;
    int e;
    frexp(m, &e); /* m < 2^e */
    int s = XP_TOP - e;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < out[i].n; j++) {
            double t = ldexp(out[i].t[j], s);
            if (fabs(t) < XP_MIN) return false;
            out[i].t[j] = t;
        }
    }
    return true;
}

/* out = x*y - z*w */
static void xp_minor(col_xp *out, const col_xp *x, const col_xp *y, const col_xp *z, const col_xp *w)
{
    col_xp p, q;
    col_xp_mul(&p, x, y);
    col_xp_mul(&q, z, w);
    col_xp_sub(out, &p, &q);
}

/* Sign by expansions, or 2 when outside their exact range. */
static int xp_orient3d(col_vec3 a, col_vec3 b, col_vec3 c, col_vec3 d)
{
    double p[9] = {b.x, b.y, b.z, c.x, c.y, c.z, d.x, d.y, d.z};
    double q[9] = {a.x, a.y, a.z, a.x, a.y, a.z, a.x, a.y, a.z};
    col_xp t[9]; /* u = t[0..3), v = t[3..6), w = t[6..9) */
    if (!scaled_diffs(t, 9, p, q)) return 2;
    const col_xp *u = t, *v = t + 3, *w = t + 6;
    col_xp n, s0, s1, s2, acc;
    xp_minor(&n, &u[1], &v[2], &u[2], &v[1]);
    col_xp_mul(&s0, &w[0], &n);
    xp_minor(&n, &u[2], &v[0], &u[0], &v[2]);
    col_xp_mul(&s1, &w[1], &n);
    col_xp_add(&acc, &s0, &s1);
    xp_minor(&n, &u[0], &v[1], &u[1], &v[0]);
    col_xp_mul(&s2, &w[2], &n);
    col_xp_add(&s0, &acc, &s2);
    if (s0.bad) return 2;
    return col_xp_sign(&s0);
}

static int xp_orient2d(col_vec3 a, col_vec3 b, col_vec3 c, int k)
{
    int i = (k + 1) % 3, j = (k + 2) % 3;
    double p[4] = {coord(b, i), coord(b, j), coord(c, i), coord(c, j)};
    double q[4] = {coord(a, i), coord(a, j), coord(a, i), coord(a, j)};
    col_xp t[4], m;
    if (!scaled_diffs(t, 4, p, q)) return 2;
    xp_minor(&m, &t[0], &t[3], &t[1], &t[2]);
    if (m.bad) return 2;
    return col_xp_sign(&m);
}

/* ---- Integers: the last resort for inputs spanning hundreds of orders of magnitude ----
 * Every finite double is an integer multiple of 2^-1074 below 2^1024, so x * 2^1074 is an
 * integer below 2^2098 (66 limbs of 32 bits); a difference needs one bit more, a
 * product of three at most 3 * 67 limbs, a sum of six a few bits more. Sign-magnitude,
 * schoolbook multiplication: slow (tens of microseconds), reached only by such inputs. */

#define BIG_CAP 208

typedef struct big {
    int n;   /* limbs d[0..n), little-endian, d[n-1] != 0; n = 0 is zero */
    int neg; /* 1 when negative (never for zero) */
    uint32_t d[BIG_CAP];
} big;

static void big_trim(big *r)
{
    while (r->n > 0 && r->d[r->n - 1] == 0) r->n--;
    if (r->n == 0) r->neg = 0;
}

static void big_from_double(big *r, double x)
{
    memset(r, 0, sizeof *r);
    if (x == 0.0 || !isfinite(x)) return; /* non-finite: outside the contract, read as 0 */
    int q;
    double f = frexp(fabs(x), &q); /* |x| = f 2^q, f in [0.5, 1) */
    uint64_t m = (uint64_t)ldexp(f, 53);
    int s = q - 53 + 1074;
    if (s < 0) { /* a subnormal: m has at least -s trailing zero bits */
        m >>= -s;
        s = 0;
    }
    int limb = s / 32, bit = s % 32;
    uint64_t t0 = (m & 0xffffffffu) << bit;      /* below 2^64 */
    uint64_t t1 = ((m >> 32) << bit) + (t0 >> 32); /* below 2^54 */
    r->d[limb] = (uint32_t)t0;
    r->d[limb + 1] = (uint32_t)t1;
    r->d[limb + 2] = (uint32_t)(t1 >> 32);
    r->n = limb + 3;
    r->neg = x < 0.0;
    big_trim(r);
}

/* Compare magnitudes. */
static int big_cmp_mag(const big *x, const big *y)
{
    if (x->n != y->n) return x->n < y->n ? -1 : 1;
    for (int i = x->n - 1; i >= 0; i--)
        if (x->d[i] != y->d[i]) return x->d[i] < y->d[i] ? -1 : 1;
    return 0;
}

/* r = x + (ysign) y; r may alias neither. */
static void big_addsub(big *r, const big *x, const big *y, int negate_y)
{
    int yneg = y->n ? (y->neg ^ negate_y) : 0;
    memset(r, 0, sizeof *r);
    if (x->neg == yneg) {
        int n = x->n > y->n ? x->n : y->n;
        uint64_t carry = 0;
        for (int i = 0; i < n; i++) {
            uint64_t s = carry + (i < x->n ? x->d[i] : 0) + (i < y->n ? y->d[i] : 0);
            r->d[i] = (uint32_t)s;
            carry = s >> 32;
        }
        r->d[n] = (uint32_t)carry;
        r->n = n + 1;
        r->neg = x->neg;
    } else {
        const big *hi = x, *lo = y;
        int hineg = x->neg;
        if (big_cmp_mag(x, y) < 0) {
            hi = y;
            lo = x;
            hineg = yneg;
        }
        int64_t borrow = 0;
        for (int i = 0; i < hi->n; i++) {
            int64_t s = (int64_t)hi->d[i] - (i < lo->n ? lo->d[i] : 0) - borrow;
            borrow = s < 0;
            r->d[i] = (uint32_t)(s + (borrow << 32));
        }
        r->n = hi->n;
        r->neg = hineg;
    }
    big_trim(r);
}

static void big_mul(big *r, const big *x, const big *y)
{
    memset(r, 0, sizeof *r);
    if (x->n == 0 || y->n == 0) return;
    for (int i = 0; i < x->n; i++) {
        uint64_t carry = 0;
        for (int j = 0; j < y->n; j++) {
            uint64_t t = (uint64_t)x->d[i] * y->d[j] + r->d[i + j] + carry;
            r->d[i + j] = (uint32_t)t;
            carry = t >> 32;
        }
        r->d[i + y->n] = (uint32_t)carry;
    }
    r->n = x->n + y->n;
    r->neg = x->neg ^ y->neg;
    big_trim(r);
}

static void big_diff(big *r, double p, double q)
{
    big a, b;
    big_from_double(&a, p);
    big_from_double(&b, q);
    big_addsub(r, &a, &b, 1);
}

/* out = x*y - z*w */
static void big_minor(big *out, const big *x, const big *y, const big *z, const big *w)
{
    big p, q;
    big_mul(&p, x, y);
    big_mul(&q, z, w);
    big_addsub(out, &p, &q, 1);
}

static int big_sign(const big *x) { return x->n == 0 ? 0 : (x->neg ? -1 : 1); }

static int big_orient3d(col_vec3 a, col_vec3 b, col_vec3 c, col_vec3 d)
{
    big u[3], v[3], w[3], n, s0, s1, acc;
    for (int k = 0; k < 3; k++) {
        big_diff(&u[k], coord(b, k), coord(a, k));
        big_diff(&v[k], coord(c, k), coord(a, k));
        big_diff(&w[k], coord(d, k), coord(a, k));
    }
    big_minor(&n, &u[1], &v[2], &u[2], &v[1]);
    big_mul(&s0, &w[0], &n);
    big_minor(&n, &u[2], &v[0], &u[0], &v[2]);
    big_mul(&s1, &w[1], &n);
    big_addsub(&acc, &s0, &s1, 0);
    big_minor(&n, &u[0], &v[1], &u[1], &v[0]);
    big_mul(&s1, &w[2], &n);
    big_addsub(&s0, &acc, &s1, 0);
    return big_sign(&s0);
}

static int big_orient2d(col_vec3 a, col_vec3 b, col_vec3 c, int k)
{
    int i = (k + 1) % 3, j = (k + 2) % 3;
    big t[4], m;
    big_diff(&t[0], coord(b, i), coord(a, i));
    big_diff(&t[1], coord(b, j), coord(a, j));
    big_diff(&t[2], coord(c, i), coord(a, i));
    big_diff(&t[3], coord(c, j), coord(a, j));
    big_minor(&m, &t[0], &t[3], &t[1], &t[2]);
    return big_sign(&m);
}

/* ---- The public predicates ---- */

int col_orient3d_exact(col_vec3 a, col_vec3 b, col_vec3 c, col_vec3 d)
{
    int s = xp_orient3d(a, b, c, d);
    return s != 2 ? s : big_orient3d(a, b, c, d);
}

int col_orient2d_exact(col_vec3 a, col_vec3 b, col_vec3 c, int k)
{
    int s = xp_orient2d(a, b, c, k);
    return s != 2 ? s : big_orient2d(a, b, c, k);
}

int col_orient3d(col_vec3 a, col_vec3 b, col_vec3 c, col_vec3 d)
{
    int s = col_orient3d_filter(a, b, c, d);
    return s != 2 ? s : col_orient3d_exact(a, b, c, d);
}

int col_orient2d(col_vec3 a, col_vec3 b, col_vec3 c, int k)
{
    int s = col_orient2d_filter(a, b, c, k);
    return s != 2 ? s : col_orient2d_exact(a, b, c, k);
}
