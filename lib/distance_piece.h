/* SPDX-License-Identifier: MIT */
/* Distance and contact between the pieces of two shapes (lib/core/geometry.h), for the
 * public queries of lib/distance.c: a hull pair by the closest-feature walk and its
 * contact builder (narrowphase/voronoi.h, voronoi_contact.h), a pair with a sphere or a
 * capsule by the core+radius path (narrowphase/rounded.h: the exact decision, then the
 * cores' closest points moved out by the radii), compounds piece pair by piece pair,
 * keeping the least separated. */
#ifndef COLIBRI_LIB_DISTANCE_PIECE_H
#define COLIBRI_LIB_DISTANCE_PIECE_H

#include <stdbool.h>

#include "colibri/query.h"
#include "lib/core/geometry.h"
#include "narrowphase/backend.h"
#include "narrowphase/voronoi.h"
#include "narrowphase/voronoi_contact.h"

/* What one query found, in the public terms. */
typedef struct col_piece_contact {
    col_distance_outcome outcome;
    double distance;              /* >= 0 (SEPARATED, TOUCHING) */
    double separation;            /* the distance, or minus the depth along normal */
    col_vec3 normal;              /* unit, from a toward b */
    col_vec3 point_a, point_b;    /* closest points (PENETRATING: a common point, both) */
    col_feature feature_a, feature_b;
    int count;                    /* contact points (col_contact) */
    col_contact_point points[COL_MAX_CONTACT_POINTS];
    int piece_a, piece_b;
    int steps, fallbacks;
} col_piece_contact;

/* A walk feature in the public terms. */
col_feature col_vor_public_feature(col_vor_feature f);

/* A hull pair's walk result r and contact c (NULL: no points) in the public terms. */
void col_piece_contact_from_vor(const col_vor_result *r, const col_vor_contact *c, col_piece_contact *out);

/* Two hull pieces: the closest-feature walk from cache (NULL: none), and the contact
 * builder when points are wanted or the pieces touch or penetrate (a touching answer whose
 * best plane still overlaps clearly is a penetration; a penetrating one gets its depth as
 * separation, so compounds can rank piece pairs). */
void col_hull_pieces_contact(const col_piece *pa, const col_xform *xa, const col_piece *pb, const col_xform *xb,
                             col_vor_cache *cache, double margin, bool want_points, col_np_scratch *scratch,
                             col_piece_contact *out);

/* The least separated piece pair of a and b at xa and xb (pieces whose boxes are farther
 * apart than the best pair found are skipped), with contact points within margin when
 * want_points. scratch: at least the walk's and the contact builder's need for every hull
 * piece pair. */
void col_piece_pair_nearest(const col_geometry *a, const col_xform *xa, const col_geometry *b, const col_xform *xb,
                            double margin, bool want_points, col_np_scratch *scratch, col_piece_contact *out);

#endif
