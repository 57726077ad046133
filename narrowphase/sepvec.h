/* SPDX-License-Identifier: MIT */
/* The separating-vector backend (Chung & Wang, "Quick collision detection of polytopes in
 * virtual environments", VRST 1996): exact, coherent, the default narrow phase.
 *
 * The important parts (details and measurements in docs/sepvec.md):
 * - per pair (the cache slot, 72 bytes): the last direction (world frame), the two
 *   support vertices it found, and when the pair collided the four vertex pairs whose
 *   differences surround the origin (re-checked first next frame, and the start of the
 *   polygon when they no longer prove it);
 * - per shape (the backend's shape data, narrowphase/sepvec_support.h): the direction-to-vertex
 *   table, and the support tree that proves the maxima a certificate uses;
 * - the search: support vertices by hill climbing, the reflection S <- S - 2 (r.S) r
 *   (the paper's eq. 2), lemmas 3 and 4 on repeated vertex pairs (timestamped visited
 *   table), the hemisphere test as a spherical polygon (narrowphase/sepvec_sphere_poly.h);
 * - answers are certificates: "separated" needs a gap along S above its rounding bound
 *   between supports proven to be the maxima (support tree or scan; a climb alone can
 *   stop short) or a full projection of both hulls, "colliding" a shared vertex or a tetrahedron
 *   of vertex-pair differences proven to hold the origin. Grazing steps (r nearly
 *   perpendicular to S) switch to Hornus' polygon-centre search; anything rounding leaves
 *   undecided goes to the exact reference backend. Both are counted;
 * - no allocation: the search state lives in the caller's scratch.
 * Limits: SV_MAX_STEPS support-pair evaluations per query before the reference decides. */
#ifndef COLIBRI_NARROWPHASE_SEPVEC_H
#define COLIBRI_NARROWPHASE_SEPVEC_H

#include "narrowphase/backend.h"
#include "narrowphase/sepvec_support.h"

/* How a query was decided. */
enum col_sepvec_outcome {
    COL_SV_SEPARATED = 0,    /* gap along S above its error bound */
    COL_SV_SEPARATED_PROJ,   /* gap proven by a full projection of both hulls */
    COL_SV_IDENTICAL,        /* same hull at the same pose */
    COL_SV_SHARED_VERTEX,    /* a vertex of A equals a vertex of B */
    COL_SV_WARM_TETRA,       /* last frame's four vertex pairs still hold the origin */
    COL_SV_TETRA,            /* the polygon emptied and a tetrahedron was proven */
    COL_SV_REFERENCE,        /* decided by the reference backend */
    COL_SV_OUTCOME_COUNT
};

/* Why the search left the paper's reflection (0: it did not). */
enum col_sepvec_reason {
    COL_SV_NONE = 0,
    COL_SV_GRAZING,          /* |r.S| below COL_SV_GRAZE: Hornus steps follow */
    COL_SV_REFLECT_CAP,      /* more than COL_SV_REFLECT_MAX reflections: Hornus steps */
    COL_SV_AMBIGUOUS_GAP,    /* full projection within rounding of zero -> reference */
    COL_SV_AMBIGUOUS_HEMI,   /* polygon empty but no tetrahedron proven -> reference */
    COL_SV_LEMMA3_ROUNDING,  /* a consecutive repeat without a proven gap -> reference */
    COL_SV_REPEAT_AT_WITNESS,/* a repeat at a witness direction -> reference */
    COL_SV_NO_WITNESS,       /* polygon too thin for a witness -> reference */
    COL_SV_POLY_FULL,        /* polygon capacity -> reference */
    COL_SV_STEP_CAP,         /* SV_MAX_STEPS support pairs -> reference */
    COL_SV_REASON_COUNT
};

/* What one query did (for tests and bench/sepvec_stats.c). */
typedef struct col_sepvec_info {
    int steps;            /* support-pair evaluations: the paper's iterations */
    int reflections;      /* S <- S - 2 (r.S) r updates */
    int hornus_steps;     /* directions taken from the polygon (Hornus 2017) */
    int lemma3;           /* answered on a pair repeated from the step before (lemma 3) */
    int lemma4;           /* pairs repeated from earlier steps: S set to the witness */
    int seed_repeats;     /* of those, pairs seeded from last frame's tetrahedron (sv_seed) */
    int seed_hits;        /* with the option seed_reflect: seeded pairs reflected on instead */
    int seed_start;       /* 1: started at the seeded polygon's witness, last frame's direction
                           * being outside it (sepvec.c, sv_start_in_seeds) */
    int warm;             /* the pair's cache held a direction */
    int full_projections; /* gaps checked against every vertex */
    int climb_misses;     /* climbed supports the exact maximum replaced (sv_exact_supports) */
    int outcome;          /* enum col_sepvec_outcome */
    int mode_switch;      /* enum col_sepvec_reason that started Hornus steps, or 0 */
    int fallback;         /* enum col_sepvec_reason that called the reference, or 0 */
    col_support_stats support;
} col_sepvec_info;

/* Tuning knobs for measurements (NULL: the defaults below). */
typedef struct col_sepvec_options {
    int cold_dk;          /* 1: cold support queries go through the DK hierarchy */
    int no_table;         /* 1: ignore the direction table (hint or vertex 0 starts) */
    double graze;         /* |r.S| threshold of grazing */
    int reflect_max;      /* reflections before Hornus steps */
    int seed_reflect;     /* 1: a seeded pair met by the search is reflected on as a new pair,
                           * instead of lemma 4's witness jump (docs/sepvec.md, "Repeats") */
    int no_seed;          /* 1: last frame's tetrahedron is re-checked but does not seed the
                           * polygon */
    int dir_frame_a;      /* 1: the cache keeps the direction in A's frame, not the world's */
} col_sepvec_options;

#define COL_SV_GRAZE 1e-3
#define COL_SV_REFLECT_MAX 48

/* The query with the per-shape data of both hulls (either may be NULL), optional
 * options and optional info. */
void col_sepvec_query_ex(void *cache, const col_hull *a, const void *da, const col_xform *xa,
                         const col_hull *b, const void *db, const col_xform *xb,
                         col_np_scratch *scratch, const col_sepvec_options *opt,
                         col_np_result *out, col_sepvec_info *info);

/* The collision certificate in a pair's cache after a "colliding" answer: four vertex
 * pairs (a index, b index) whose differences b - a hold the origin in their convex hull
 * (all four equal: a shared vertex). Returns 0 if the cache holds none. */
int col_sepvec_cache_certificate(const void *cache, int wa[4], int wb[4]);

#endif
