/* SPDX-License-Identifier: MIT */
/* The "lpip" narrow phase: collision as a 5-row linear program solved by a primal-dual
 * interior-point method (Akgunduz, Banerjee & Mehrotra, J. Computing and Information
 * Science in Engineering 5(1), 2005; the LP and its solver are in lp_ipm.h), with
 * coherence, an active set and certificates. docs/lpip.md describes the method and its
 * deviations from the paper.
 *
 * The important parts:
 * - col_lpip_decide: the decision for two point sets (local points under a pose). An
 *   answer is never taken from the LP's numbers alone: "separated" is a direction whose
 *   gap over ALL points, minus a rounding bound, is > 0; "colliding" is a pair of
 *   convex combinations (weights from the LP) of A's and B's points proven to coincide
 *   within COL_LPIP_TOUCH_REL x size, at any distance from the origin. What the method
 *   cannot certify within COL_LPIP_MAX_ITER iterations comes back UNDECIDED (the backend
 *   then asks the reference; the inter-frame test answers conservatively).
 * - The backend col_np_lpip (backend.h) and col_lpip_query_ex, the same query with
 *   options and the per-query statistics that bench/lpip_stats and the tests read.
 * - The paper's inter-frame test with swept hulls (its section 5) is continuous
 *   collision, on the ccd/ floor: ccd/lpip_sweep.h, which calls col_lpip_decide.
 * Limits: at most COL_LPIP_ACTIVE_K points per body in the first LP (more are added
 * only as violators); COL_LPIP_MAX_ITER iterations over all LPs of one query. */
#ifndef COLIBRI_NARROWPHASE_LPIP_H
#define COLIBRI_NARROWPHASE_LPIP_H

#include <stdbool.h>
#include <stddef.h>

#include "narrowphase/backend.h"

/* Points per body in the first LP (the paper's section 4.2 keeps "about 20" in all). */
#define COL_LPIP_ACTIVE_K 10
/* Violators added per body and round (section 4.3). */
#define COL_LPIP_ADD_K 10
/* Interior-point iterations over all LPs of one query before it gives up (UNDECIDED). */
#define COL_LPIP_MAX_ITER 80
/* A "colliding" answer's two points are proven to coincide within this fraction of the
 * pair's size (the LP's scale), rounding included, wherever the pair is: far inside the
 * benchmark's 1e-9 touching band. */
#define COL_LPIP_TOUCH_REL 1e-14

/* How a query ended. */
typedef enum col_lpip_exit {
    COL_LPIP_EXIT_NONE = 0,
    COL_LPIP_EXIT_WARM_PLANE,   /* the cached dual direction still separates (delta_s < 0) */
    COL_LPIP_EXIT_AXIS,         /* no cache: the centroid direction separates */
    COL_LPIP_EXIT_CENTROID,     /* the active sets' averages coincide (|d| ~ 0) and are
                                   proven common */
    COL_LPIP_EXIT_WARM_POINT,   /* the previous frame's weights, purified, give a common point */
    COL_LPIP_EXIT_START_POINT,  /* the uniform start weights, purified, give a common point */
    COL_LPIP_EXIT_SEPARATED,    /* pi4 + pi5 > 0 during the iterations, verified on all points */
    COL_LPIP_EXIT_COLLIDING,    /* mu phi under tolerance, confirmed by the weights */
    COL_LPIP_EXIT_UNDECIDED,    /* cap reached or breakdown: the caller decides */
    COL_LPIP_EXIT_COUNT
} col_lpip_exit;

/* What one query did. */
typedef struct col_lpip_info {
    int exit;           /* col_lpip_exit */
    int iterations;     /* interior-point iterations, all LPs */
    int solves;         /* LPs started (1 + violator rounds; 0 if an early exit fired) */
    int active_a, active_b; /* points of A and B in the last LP */
    int violators;      /* points added by the violator loop */
    int dropped;        /* points that left the active set (options.active_max) */
    bool warm;          /* the first LP started from the previous frame's weights */
    bool dual_warm;     /* the first LP's dual started from the cached direction */
    bool stale_plane;   /* a cached plane was tried and did not separate */
} col_lpip_info;

/* Query options (NULL: the defaults, which the backend vtable uses). */
typedef struct col_lpip_options {
    bool warm_start;    /* use the cache's weights and dual (default true) */
    int active_k;       /* points per body in the first LP (default COL_LPIP_ACTIVE_K) */
    /* The dual warm start of the paper's eqs. 19-24 (default true; docs/lpip.md has the
     * measurements): when the cached plane no longer separates, the first LP's dual
     * starts from it, y = the cached direction, pi4 and pi5 shifted so that the smallest
     * dual slack is dual_shift x eta (eta the largest absolute scaled coordinate),
     * instead of from y = 0 with every slack eta (false). Needs warm_start. */
    bool dual_warm;
    double dual_shift;  /* in (0, 1]; default COL_LPIP_DUAL_SHIFT */
    /* The paper's bounded active set (section 4.2): when violators join, the points of
     * the body with the largest slack along the dual direction leave, so that at most
     * active_max points per body stay in the LP (0, the default: no bound, the set only
     * grows; docs/lpip.md). A bound below active_k is raised to it. */
    int active_max;
    /* Violators that join per body and round (default COL_LPIP_ADD_K; the paper's swap
     * rule is add_k = 1 with active_max = active_k: one in, the largest slack out). */
    int add_k;
} col_lpip_options;

/* Default smallest dual slack of the dual warm start, relative to eta. */
#define COL_LPIP_DUAL_SHIFT 0.1

col_lpip_options col_lpip_default_options(void);

/* A point set: local points v[0..n) under pose xf; centroid is any point strictly
 * inside their hull (the volume centroid or the average), radius >= max |v_i|. */
typedef struct col_lpip_set {
    const col_vec3 *v;
    int n;
    const col_xform *xf;
    col_vec3 centroid;
    double radius;
} col_lpip_set;

typedef enum col_lpip_answer {
    COL_LPIP_COLLIDING = 0,
    COL_LPIP_SEPARATED = 1,
    COL_LPIP_UNDECIDED = 2
} col_lpip_answer;

typedef struct col_lpip_outcome {
    int answer;         /* col_lpip_answer */
    col_vec3 axis;      /* SEPARATED: unit direction s with min s.b - max s.a >= gap */
    double gap;         /* SEPARATED: the certified gap (> 0), length units */
    col_lpip_info info;
} col_lpip_outcome;

/* Per-pair cache size, and its reset. The cache may be used for any two sets; stale
 * contents only cost iterations. */
size_t col_lpip_cache_size(void);
void col_lpip_cache_reset(void *cache);
/* The statistics of the last query that used the cache. */
col_lpip_info col_lpip_cache_last(const void *cache);

/* Scratch bytes col_lpip_decide needs for sets of na and nb points (linear in both). */
size_t col_lpip_decide_scratch_bytes(int na, int nb);

/* Decides whether the hulls of two point sets share a point. cache may be NULL;
 * opt NULL means the defaults; scratch->size >= col_lpip_decide_scratch_bytes. */
void col_lpip_decide(void *cache, const col_lpip_set *a, const col_lpip_set *b,
                     const col_lpip_options *opt, col_np_scratch *scratch, col_lpip_outcome *out);

/* The backend's query with options and statistics (info may be NULL). UNDECIDED falls
 * back to the reference backend (out->fallbacks = 1). */
void col_lpip_query_ex(void *cache, const col_hull *a, const col_xform *xa, const col_hull *b,
                       const col_xform *xb, const col_lpip_options *opt, col_np_scratch *scratch,
                       col_np_result *out, col_lpip_info *info);

#endif
