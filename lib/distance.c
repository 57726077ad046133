/* SPDX-License-Identifier: MIT */
/* Public distance and contact queries (query.h): validation, the caller's warm-start
 * cache, and the translation between the public structs and the voronoi backend's
 * closest-feature walk (narrowphase/voronoi.h, narrowphase/voronoi_contact.h). Every check runs
 * before anything is computed; a failed call zeroes *out and leaves the world as it was
 * (only its last-error text and its scratch memory, neither of them world state). */
#include <float.h>
#include <math.h>
#include <string.h>

#include "colibri/query.h"
#include "lib/world.h"
#include "narrowphase/voronoi.h"
#include "narrowphase/voronoi_contact.h"

/* One validated query: two hulls at two poses and the pair's cache. */
typedef struct dist_job {
    const col_hull *ha, *hb;
    col_xform xa, xb;
    col_shape_id sa, sb;
} dist_job;

static col_status dist_check_shapes(const col_world *world, const col_distance_input *in, dist_job *job,
                                    const char *what)
{
    col_status st = col_world_check_shape(world, in->shape_a, what);
    if (st == COL_OK) st = col_world_check_shape(world, in->shape_b, what);
    col_transform pa, pb;
    if (st == COL_OK) st = col_world_check_pose(world, in->pose_a, &pa);
    if (st == COL_OK) st = col_world_check_pose(world, in->pose_b, &pb);
    if (st != COL_OK) return st;
    job->ha = &world->shapes[in->shape_a.index1 - 1].hull;
    job->hb = &world->shapes[in->shape_b.index1 - 1].hull;
    job->xa = col_xform_from_transform(pa);
    job->xb = col_xform_from_transform(pb);
    job->sa = in->shape_a;
    job->sb = in->shape_b;
    return COL_OK;
}

static col_status dist_check_bodies(const col_world *world, col_body_id a, col_body_id b, dist_job *job,
                                    const char *what)
{
    col_status st = col_world_check_body(world, a, what);
    if (st == COL_OK) st = col_world_check_body(world, b, what);
    if (st != COL_OK) return st;
    if (a.index1 == b.index1) return col_world_fail(world, COL_ERR_SAME_BODY, "%s: the same body twice", what);
    const col_body_rec *ra = &world->bodies[a.index1 - 1], *rb = &world->bodies[b.index1 - 1];
    job->ha = &world->shapes[ra->shape].hull;
    job->hb = &world->shapes[rb->shape].hull;
    job->xa = col_xform_from_transform(ra->pose);
    job->xb = col_xform_from_transform(rb->pose);
    job->sa = col_world_shape_id(world, ra->shape);
    job->sb = col_world_shape_id(world, rb->shape);
    return COL_OK;
}

/* The public cache as the walk's cache: used only if filled for these two shapes. */
static void dist_cache_in(const col_distance_cache *pc, const dist_job *job, col_vor_cache *vc)
{
    memset(vc, 0, sizeof *vc);
    if (pc == NULL || !col_shape_id_equals(pc->shape_a, job->sa) || !col_shape_id_equals(pc->shape_b, job->sb) ||
        pc->shape_a.index1 == 0)
        return;
    vc->valid = 1;
    vc->fa.type = (int)pc->feature_a.type;
    vc->fa.index = pc->feature_a.index;
    vc->fb.type = (int)pc->feature_b.type;
    vc->fb.index = pc->feature_b.index;
    vc->dir_a = pc->direction_a;
    vc->dir_b = pc->direction_b;
}

static col_feature dist_feature(col_vor_feature f)
{
    col_feature out;
    out.type = f.type == COL_VOR_EDGE ? COL_FEATURE_EDGE : f.type == COL_VOR_FACE ? COL_FEATURE_FACE : COL_FEATURE_VERTEX;
    out.index = f.index;
    return out;
}

static void dist_cache_out(col_distance_cache *pc, const dist_job *job, const col_vor_cache *vc)
{
    if (pc == NULL) return;
    memset(pc, 0, sizeof *pc);
    if (!vc->valid) return;
    pc->shape_a = job->sa;
    pc->shape_b = job->sb;
    pc->feature_a = dist_feature(vc->fa);
    pc->feature_b = dist_feature(vc->fb);
    pc->direction_a = vc->dir_a;
    pc->direction_b = vc->dir_b;
}

static col_distance_outcome dist_outcome(int o)
{
    return o == COL_VOR_SEPARATED ? COL_DISTANCE_SEPARATED
           : o == COL_VOR_TOUCHING ? COL_DISTANCE_TOUCHING
                                  : COL_DISTANCE_PENETRATING;
}

/* How far beyond contact, in units of DBL_EPSILON times the coordinates' magnitude, a
 * touching answer's best separating axis may miss before the bodies count as
 * overlapping: far more than the rounding of the supports along it. */
#define DIST_TOUCH_C 1024.0

/* The walk answers TOUCHING for an exact zero distance between two features, which
 * aligned configurations also reach when the bodies overlap deeply (two equal boxes at
 * one pose meet vertex to vertex; issue 13, degenerate input). Touching bodies have a
 * plane through the contact with one body on each side; c's separation is minus the
 * overlap along the best axis of the contact builder's separating-axis test, so a
 * separation clearly below zero means there is no such plane: they penetrate. */
static void dist_settle_touching(const dist_job *job, col_vor_result *r, const col_vor_contact *c)
{
    if (r->outcome != COL_VOR_TOUCHING) return;
    double M = fmax(col_max_abs(job->xa.p) + job->ha->radius, col_max_abs(job->xb.p) + job->hb->radius);
    if (c->separation < -DIST_TOUCH_C * DBL_EPSILON * M) r->outcome = COL_VOR_PENETRATING;
}

/* Runs the walk and, for col_contact (c != NULL) or to settle a touching answer, the
 * contact builder, on a validated job. */
static col_status dist_run(const col_world *world, const dist_job *job, col_distance_cache *pcache, double margin,
                           col_vor_result *r, col_vor_contact *c)
{
    col_world *w = (col_world *)world; /* scratch only (documented in query.h) */
    size_t need = col_vor_scratch_bytes(job->ha, job->hb), cn = col_vor_contact_scratch_bytes(job->ha, job->hb);
    col_status st = col_world_reserve_scratch(w, cn > need ? cn : need);
    if (st != COL_OK) return st;
    col_vor_cache vc;
    dist_cache_in(pcache, job, &vc);
    col_np_scratch *scratch = &w->workers[0].scratch;
    col_vor_query(&vc, job->ha, &job->xa, job->hb, &job->xb, COL_VOR_WANT_DISTANCE, scratch, r);
    dist_cache_out(pcache, job, &vc);
    col_vor_contact local;
    col_vor_contact *cc = c != NULL ? c : &local;
    if (c != NULL || r->outcome == COL_VOR_TOUCHING) {
        col_vor_contact_build(job->ha, &job->xa, job->hb, &job->xb, r, margin, scratch, cc);
        dist_settle_touching(job, r, cc);
    }
    return COL_OK;
}

static void dist_fill(const col_vor_result *r, col_distance_output *out)
{
    out->outcome = dist_outcome(r->outcome);
    out->distance = r->outcome == COL_VOR_PENETRATING ? 0.0 : r->distance;
    out->point_a = r->pa;
    out->point_b = r->pb;
    out->feature_a = dist_feature(r->fa);
    out->feature_b = dist_feature(r->fb);
    out->steps = r->steps;
    out->fallbacks = r->fallbacks;
}

static void contact_fill(const col_vor_result *r, const col_vor_contact *c, col_contact_output *out)
{
    out->outcome = dist_outcome(r->outcome);
    out->normal = c->normal;
    out->separation = c->separation;
    out->point_count = c->count;
    for (int i = 0; i < c->count && i < COL_MAX_CONTACT_POINTS; i++) {
        out->points[i].point_a = c->pa[i];
        out->points[i].point_b = c->pb[i];
        out->points[i].separation = c->sep[i];
    }
    out->steps = r->steps;
    out->fallbacks = r->fallbacks;
}

col_status col_distance(const col_world *world, const col_distance_input *input, col_distance_cache *cache,
                        col_distance_output *out)
{
    if (out != NULL) memset(out, 0, sizeof *out);
    if (world == NULL || input == NULL || out == NULL)
        return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "col_distance: NULL argument");
    dist_job job;
    col_status st = dist_check_shapes(world, input, &job, "col_distance");
    col_vor_result r;
    if (st == COL_OK) st = dist_run(world, &job, cache, 0.0, &r, NULL);
    if (st != COL_OK) return st;
    dist_fill(&r, out);
    return COL_OK;
}

col_status col_body_distance(const col_world *world, col_body_id a, col_body_id b, col_distance_cache *cache,
                             col_distance_output *out)
{
    if (out != NULL) memset(out, 0, sizeof *out);
    if (world == NULL || out == NULL)
        return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "col_body_distance: NULL argument");
    dist_job job;
    col_status st = dist_check_bodies(world, a, b, &job, "col_body_distance");
    col_vor_result r;
    if (st == COL_OK) st = dist_run(world, &job, cache, 0.0, &r, NULL);
    if (st != COL_OK) return st;
    dist_fill(&r, out);
    return COL_OK;
}

static col_status contact_check_margin(const col_world *world, double margin, const char *what)
{
    if (!(isfinite(margin) && margin >= 0.0))
        return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "%s: margin %g is negative or not finite", what, margin);
    return COL_OK;
}

col_status col_contact(const col_world *world, const col_contact_input *input, col_distance_cache *cache,
                       col_contact_output *out)
{
    if (out != NULL) memset(out, 0, sizeof *out);
    if (world == NULL || input == NULL || out == NULL)
        return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "col_contact: NULL argument");
    col_distance_input din;
    din.shape_a = input->shape_a;
    din.shape_b = input->shape_b;
    din.pose_a = input->pose_a;
    din.pose_b = input->pose_b;
    dist_job job;
    col_status st = contact_check_margin(world, input->margin, "col_contact");
    if (st == COL_OK) st = dist_check_shapes(world, &din, &job, "col_contact");
    col_vor_result r;
    col_vor_contact c;
    if (st == COL_OK) st = dist_run(world, &job, cache, input->margin, &r, &c);
    if (st != COL_OK) return st;
    contact_fill(&r, &c, out);
    return COL_OK;
}

col_status col_body_contact(const col_world *world, col_body_id a, col_body_id b, double margin,
                            col_distance_cache *cache, col_contact_output *out)
{
    if (out != NULL) memset(out, 0, sizeof *out);
    if (world == NULL || out == NULL)
        return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "col_body_contact: NULL argument");
    dist_job job;
    col_status st = contact_check_margin(world, margin, "col_body_contact");
    if (st == COL_OK) st = dist_check_bodies(world, a, b, &job, "col_body_contact");
    col_vor_result r;
    col_vor_contact c;
    if (st == COL_OK) st = dist_run(world, &job, cache, margin, &r, &c);
    if (st != COL_OK) return st;
    contact_fill(&r, &c, out);
    return COL_OK;
}
