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
#include "lib/distance_mesh.h"
#include "lib/distance_piece.h"
#include "lib/query_scratch.h"
#include "lib/shape_pair.h"
#include "lib/world.h"
#include "narrowphase/voronoi.h"
#include "narrowphase/voronoi_contact.h"

/* One validated query: two geometries at two poses, and what identifies them in the
 * caller's cache (world shape ids, or the geometries' addresses). */
typedef struct dist_job {
    const col_geometry *ga, *gb;
    col_xform xa, xb;
    col_shape_id sa, sb;
} dist_job;

static col_status dist_check_shapes(const col_world *world, const col_distance_input *in, dist_job *job,
                                    const char *what)
{
    col_status st = col_world_check_shape(world, in->shape_a, what);
    if (st == COL_OK) st = col_world_check_shape(world, in->shape_b, what);
    col_transform pa, pb;
    if (st == COL_OK) st = col_world_check_pose(world, in->pose_a, &pa, what);
    if (st == COL_OK) st = col_world_check_pose(world, in->pose_b, &pb, what);
    if (st != COL_OK) return st;
    job->ga = world->shapes[in->shape_a.index1 - 1].geom;
    job->gb = world->shapes[in->shape_b.index1 - 1].geom;
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
    job->ga = world->shapes[ra->shape].geom;
    job->gb = world->shapes[rb->shape].geom;
    job->xa = col_xform_from_transform(*col_body_pose(ra));
    job->xb = col_xform_from_transform(*col_body_pose(rb));
    job->sa = col_world_shape_id(world, ra->shape);
    job->sb = col_world_shape_id(world, rb->shape);
    return COL_OK;
}

/* The public cache as the walk's cache: used only if filled for these two shapes. The
 * walk checks the feature indices against the hulls, so a stale cache costs steps only. */
static void dist_cache_in(const col_distance_cache *pc, const dist_job *job, col_vor_cache *vc)
{
    memset(vc, 0, sizeof *vc);
    if (pc == NULL || !col_shape_id_equals(pc->shape_a, job->sa) || !col_shape_id_equals(pc->shape_b, job->sb) ||
        pc->geometry_a != job->ga || pc->geometry_b != job->gb)
        return;
    if (pc->feature_a.type == COL_FEATURE_NONE || pc->feature_b.type == COL_FEATURE_NONE) return;
    if (pc->shape_a.index1 == 0 && pc->geometry_a == NULL) return;
    vc->valid = 1;
    vc->fa.type = (int)pc->feature_a.type;
    vc->fa.index = pc->feature_a.index;
    vc->fb.type = (int)pc->feature_b.type;
    vc->fb.index = pc->feature_b.index;
    vc->dir_a = pc->direction_a;
    vc->dir_b = pc->direction_b;
}

static void dist_cache_out(col_distance_cache *pc, const dist_job *job, const col_vor_cache *vc)
{
    if (pc == NULL) return;
    memset(pc, 0, sizeof *pc);
    if (!vc->valid) return;
    pc->shape_a = job->sa;
    pc->shape_b = job->sb;
    pc->geometry_a = job->ga;
    pc->geometry_b = job->gb;
    pc->feature_a = col_vor_public_feature(vc->fa);
    pc->feature_b = col_vor_public_feature(vc->fb);
    pc->direction_a = vc->dir_a;
    pc->direction_b = vc->dir_b;
}

/* The scratch a job needs: the walk's and the contact builder's for every hull piece pair. */
static size_t dist_scratch_need(const dist_job *job)
{
    size_t need = 0;
    for (int i = 0; i < job->ga->piece_count; i++)
        for (int j = 0; j < job->gb->piece_count; j++) {
            const col_piece *pa = &job->ga->pieces[i], *pb = &job->gb->pieces[j];
            if (pa->kind != COL_SHAPE_HULL || pb->kind != COL_SHAPE_HULL) continue;
            size_t n = col_vor_scratch_bytes(&pa->hull, &pb->hull), cn = col_vor_contact_scratch_bytes(&pa->hull, &pb->hull);
            n = cn > n ? cn : n;
            need = n > need ? n : need;
        }
    return need;
}

/* Runs a validated job: a single hull pair through the walk (with the cache), anything
 * else piece pair by piece pair (lib/distance_piece.h), keeping the least separated. */
static col_status dist_run(const dist_job *job, col_distance_cache *pcache, double margin, col_query_scratch *s,
                           col_piece_contact *out, bool want_points, const char *what)
{
    if (col_query_scratch_reserve(s, dist_scratch_need(job)) != COL_OK)
        return col_query_scratch_fail(s, COL_ERR_OUT_OF_MEMORY, "%s: out of memory for the query's scratch", what);
    if (col_geometry_is_hull(job->ga) && col_geometry_is_hull(job->gb)) {
        col_vor_cache vc;
        dist_cache_in(pcache, job, &vc);
        col_hull_pieces_contact(&job->ga->pieces[0], &job->xa, &job->gb->pieces[0], &job->xb, &vc, margin, want_points,
                                &s->np, out);
        dist_cache_out(pcache, job, &vc);
        return COL_OK;
    }
    if (pcache != NULL) memset(pcache, 0, sizeof *pcache); /* only hull pairs keep one */
    if (col_shape_pair_is_mesh(job->ga, job->gb)) {
        col_mesh_pair_nearest(job->ga, &job->xa, job->gb, &job->xb, margin, want_points, out);
        return COL_OK;
    }
    col_piece_pair_nearest(job->ga, &job->xa, job->gb, &job->xb, margin, want_points, &s->np, out);
    return COL_OK;
}

static void dist_fill(const col_piece_contact *r, col_distance_output *out)
{
    out->outcome = r->outcome;
    out->distance = r->outcome == COL_DISTANCE_PENETRATING ? 0.0 : r->distance;
    out->point_a = r->point_a;
    out->point_b = r->point_b;
    out->feature_a = r->feature_a;
    out->feature_b = r->feature_b;
    out->piece_a = r->piece_a;
    out->piece_b = r->piece_b;
    out->steps = r->steps;
    out->fallbacks = r->fallbacks;
}

static void contact_fill(const col_piece_contact *r, col_contact_output *out)
{
    out->outcome = r->outcome;
    out->normal = r->normal;
    out->separation = r->separation;
    out->point_count = r->count;
    for (int i = 0; i < r->count && i < COL_MAX_CONTACT_POINTS; i++) out->points[i] = r->points[i];
    out->piece_a = r->piece_a;
    out->piece_b = r->piece_b;
    out->steps = r->steps;
    out->fallbacks = r->fallbacks;
}

/* A world-bound call: the job on a scratch of the world's allocator hooks (never the
 * world's own memory: query.h), the error recorded in the world. */
static col_status world_run(const col_world *world, const dist_job *job, col_distance_cache *cache, double margin,
                            col_piece_contact *r, bool want_points, const char *what)
{
    col_query_scratch s;
    col_query_scratch_init(&s, &world->def.allocator);
    col_status st = dist_run(job, cache, margin, &s, r, want_points, what);
    col_query_scratch_release(&s);
    if (st != COL_OK) return col_world_fail(world, st, "%s", s.message);
    return COL_OK;
}

col_status col_distance(const col_world *world, const col_distance_input *input, col_distance_cache *cache,
                        col_distance_output *out)
{
    if (out != NULL) memset(out, 0, sizeof *out);
    if (world == NULL || input == NULL || out == NULL)
        return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "col_distance: NULL argument");
    dist_job job;
    col_status st = dist_check_shapes(world, input, &job, "col_distance");
    col_piece_contact r;
    if (st == COL_OK) st = world_run(world, &job, cache, 0.0, &r, false, "col_distance");
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
    col_piece_contact r;
    if (st == COL_OK) st = world_run(world, &job, cache, 0.0, &r, false, "col_body_distance");
    if (st != COL_OK) return st;
    dist_fill(&r, out);
    return COL_OK;
}

static bool margin_ok(double margin) { return isfinite(margin) && margin >= 0.0; }

col_status col_contact(const col_world *world, const col_contact_input *input, col_distance_cache *cache,
                       col_contact_output *out)
{
    if (out != NULL) memset(out, 0, sizeof *out);
    if (world == NULL || input == NULL || out == NULL)
        return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "col_contact: NULL argument");
    if (!margin_ok(input->margin))
        return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "col_contact: margin %g is negative or not finite",
                              input->margin);
    col_distance_input din = {input->shape_a, input->shape_b, input->pose_a, input->pose_b};
    dist_job job;
    col_status st = dist_check_shapes(world, &din, &job, "col_contact");
    col_piece_contact r;
    if (st == COL_OK) st = world_run(world, &job, cache, input->margin, &r, true, "col_contact");
    if (st != COL_OK) return st;
    contact_fill(&r, out);
    return COL_OK;
}

col_status col_body_contact(const col_world *world, col_body_id a, col_body_id b, double margin,
                            col_distance_cache *cache, col_contact_output *out)
{
    if (out != NULL) memset(out, 0, sizeof *out);
    if (world == NULL || out == NULL)
        return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "col_body_contact: NULL argument");
    if (!margin_ok(margin))
        return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "col_body_contact: margin %g is negative or not finite",
                              margin);
    dist_job job;
    col_status st = dist_check_bodies(world, a, b, &job, "col_body_contact");
    col_piece_contact r;
    if (st == COL_OK) st = world_run(world, &job, cache, margin, &r, true, "col_body_contact");
    if (st != COL_OK) return st;
    contact_fill(&r, out);
    return COL_OK;
}

/* The world-free forms: geometries and poses checked, the caller's scratch. */
static col_status free_job(const col_geometry *a, col_transform pa, const col_geometry *b, col_transform pb,
                           col_query_scratch *s, dist_job *job, const char *what)
{
    if (a == NULL || b == NULL || s == NULL)
        return col_query_scratch_fail(s, COL_ERR_INVALID_ARGUMENT, "%s: NULL argument", what);
    col_transform na, nb;
    col_status st = col_pose_normalize(1e-6, pa, &na);
    if (st == COL_OK) st = col_pose_normalize(1e-6, pb, &nb);
    if (st != COL_OK) return col_query_scratch_fail(s, st, "%s: a pose is not usable: %s", what, col_status_string(st));
    memset(job, 0, sizeof *job);
    job->ga = a;
    job->gb = b;
    job->xa = col_xform_from_transform(na);
    job->xb = col_xform_from_transform(nb);
    return COL_OK;
}

col_status col_geometry_distance(const col_geometry *a, col_transform pose_a, const col_geometry *b,
                                 col_transform pose_b, col_distance_cache *cache, col_query_scratch *scratch,
                                 col_distance_output *out)
{
    if (out == NULL) return col_query_scratch_fail(scratch, COL_ERR_INVALID_ARGUMENT, "col_geometry_distance: NULL out");
    memset(out, 0, sizeof *out);
    dist_job job;
    col_status st = free_job(a, pose_a, b, pose_b, scratch, &job, "col_geometry_distance");
    col_piece_contact r;
    if (st == COL_OK) st = dist_run(&job, cache, 0.0, scratch, &r, false, "col_geometry_distance");
    if (st != COL_OK) return st;
    dist_fill(&r, out);
    return COL_OK;
}

col_status col_geometry_contact(const col_geometry *a, col_transform pose_a, const col_geometry *b,
                                col_transform pose_b, double margin, col_distance_cache *cache,
                                col_query_scratch *scratch, col_contact_output *out)
{
    if (out == NULL) return col_query_scratch_fail(scratch, COL_ERR_INVALID_ARGUMENT, "col_geometry_contact: NULL out");
    memset(out, 0, sizeof *out);
    if (!margin_ok(margin))
        return col_query_scratch_fail(scratch, COL_ERR_INVALID_ARGUMENT,
                                      "col_geometry_contact: margin %g is negative or not finite", margin);
    dist_job job;
    col_status st = free_job(a, pose_a, b, pose_b, scratch, &job, "col_geometry_contact");
    col_piece_contact r;
    if (st == COL_OK) st = dist_run(&job, cache, margin, scratch, &r, true, "col_geometry_contact");
    if (st != COL_OK) return st;
    contact_fill(&r, out);
    return COL_OK;
}
