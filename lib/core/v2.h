/* SPDX-License-Identifier: MIT */
/* Two lanes of doubles (GCC's and Clang's vector extension; the library already uses
 * their builtins, lib/frame.c): SSE2 on x86-64, two scalar operations elsewhere. Each
 * lane computes what the scalar expression computes, IEEE operation by operation (the
 * build has no contraction), so a two-lane loop answers bit for bit as the scalar one.
 * The ray casts (lib/world_ray.c, narrowphase/ray.c) test two boxes or two planes at once
 * with them. */
#ifndef COLIBRI_LIB_CORE_V2_H
#define COLIBRI_LIB_CORE_V2_H

#include <string.h>

typedef double col_v2 __attribute__((vector_size(16)));
typedef long long col_m2 __attribute__((vector_size(16))); /* a lane mask: all ones or 0 */

static inline col_v2 col_v2_load(const double *p)
{
    col_v2 v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline col_v2 col_v2_set(double a, double b)
{
    col_v2 v = {a, b};
    return v;
}

/* m ? a : b lane by lane */
static inline col_v2 col_v2_select(col_m2 m, col_v2 a, col_v2 b)
{
    return (col_v2)((m & (col_m2)a) | (~m & (col_m2)b));
}

/* a > b ? a : b and a < b ? a : b lane by lane (as maxpd and minpd) */
static inline col_v2 col_v2_max(col_v2 a, col_v2 b) { return col_v2_select(a > b, a, b); }
static inline col_v2 col_v2_min(col_v2 a, col_v2 b) { return col_v2_select(a < b, a, b); }

/* Does some lane of m hold? */
static inline int col_m2_any(col_m2 m) { return (m[0] | m[1]) != 0; }

#endif
