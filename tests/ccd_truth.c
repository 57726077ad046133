/* SPDX-License-Identifier: MIT */
/* ccd_truth SCENE TOI_DUMP: checks colibri-bench --ccd --dump-toi against a reference that
 * uses no time of impact (docs/ccd.md, docs/scenes.md "Continuous mode"). For each frame
 * f >= 1 and each pair whose bodies can meet at all (their origins' segments from frame
 * f-1 to f, widened by their radii, overlap: every point of a body stays within its radius
 * of its origin), the motion of docs/scenes.md's continuous mode is written out again
 * (position linear, slerp on the shorter arc, acos form), cut into 1024 substeps each
 * decided by the exact overlap test (col_geometry_overlap, reference backend), and the
 * first contact is bisected to 1e-9. Fails (exit 1) when a contact the reference finds is
 * missing from the dump (tunneling), reported later than the reference's touching instant
 * (+1e-12), or more than 1e-6 before its free one with no contact found in between by a
 * finer search; or when the dump has a pair the reference and a finer search around its s
 * do not confirm. Frame 0 (discrete) is not checked here. Hulls, spheres, capsules. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bench/scene.h"
#include "colibri/query.h"
#include "colibri/shape.h"
#include "ccd_ref.h"

typedef struct entry {
    int f;
    unsigned i, j;
    double s;
    int seen;
} entry;

static int entry_cmp(const void *x, const void *y)
{
    const entry *a = x, *b = y;
    if (a->f != b->f) return a->f < b->f ? -1 : 1;
    if (a->i != b->i) return a->i < b->i ? -1 : 1;
    return (a->j > b->j) - (a->j < b->j);
}

static col_transform pose_at(const bench_scene *sc, int b, int f)
{
    return bench_scene_pose(sc, b, f);
}

typedef struct pair_ctx {
    col_geometry *ga, *gb;
    col_transform a0, a1, b0, b1;
    col_query_scratch *qs;
} pair_ctx;

static int touch(const pair_ctx *c, double s)
{
    bool hit = false;
    if (col_geometry_overlap(c->ga, ccd_ref_pose(c->a0, c->a1, s), c->gb, ccd_ref_pose(c->b0, c->b1, s), COL_BACKEND_REFERENCE,
                             c->qs, &hit) != COL_OK) {
        fprintf(stderr, "ccd_truth: col_geometry_overlap failed: %s\n", col_query_scratch_last_error(c->qs));
        exit(2);
    }
    return hit;
}

static int fine_touch(const pair_ctx *c, double s0, double s1)
{
    for (int k = 0; k <= 2000; k++)
        if (touch(c, s0 + (s1 - s0) * k / 2000.0)) return 1;
    return 0;
}

static col_geometry *make_geometry(const bench_shape *sh)
{
    col_geometry *g = NULL;
    col_status st = sh->kind == BENCH_SHAPE_HULL     ? col_geometry_create_hull(NULL, sh->vertices, sh->vertex_count, &g, NULL)
                    : sh->kind == BENCH_SHAPE_SPHERE ? col_geometry_create_sphere(NULL, sh->core_radius, &g, NULL)
                    : sh->kind == BENCH_SHAPE_CAPSULE
                        ? col_geometry_create_capsule(NULL, sh->half_height, sh->core_radius, &g, NULL)
                        : COL_ERR_INVALID_ARGUMENT;
    if (st != COL_OK) {
        fprintf(stderr, "ccd_truth: a shape this check cannot make (meshes are not checked)\n");
        exit(2);
    }
    return g;
}

static int boxes_meet(const bench_scene *sc, int i, int j, const col_transform *p0, const col_transform *p1)
{
    double ri = sc->shapes[sc->bodies[i].shape].radius * 1.001, rj = sc->shapes[sc->bodies[j].shape].radius * 1.001;
    const double ai[3] = {p0[i].p.x, p0[i].p.y, p0[i].p.z}, bi[3] = {p1[i].p.x, p1[i].p.y, p1[i].p.z};
    const double aj[3] = {p0[j].p.x, p0[j].p.y, p0[j].p.z}, bj[3] = {p1[j].p.x, p1[j].p.y, p1[j].p.z};
    for (int k = 0; k < 3; k++) {
        if (fmin(ai[k], bi[k]) - ri > fmax(aj[k], bj[k]) + rj) return 0;
        if (fmin(aj[k], bj[k]) - rj > fmax(ai[k], bi[k]) + ri) return 0;
    }
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: ccd_truth SCENE TOI_DUMP\n");
        return 2;
    }
    FILE *fp = fopen(argv[1], "r");
    bench_scene sc;
    char err[512];
    if (!fp || !bench_scene_load(fp, argv[1], &sc, err, sizeof err)) {
        fprintf(stderr, "ccd_truth: %s\n", fp ? err : "cannot open the scene");
        return 2;
    }
    fclose(fp);
    FILE *dump = fopen(argv[2], "r");
    if (!dump) return 2;
    size_t n = 0, cap = 1024;
    entry *e = malloc(cap * sizeof *e);
    entry x;
    while (fscanf(dump, "%d %u %u %lf", &x.f, &x.i, &x.j, &x.s) == 4) {
        if (n == cap) e = realloc(e, (cap *= 2) * sizeof *e);
        x.seen = 0;
        e[n++] = x;
    }
    fclose(dump);
    qsort(e, n, sizeof *e, entry_cmp);
    col_geometry **geo = malloc((size_t)sc.shape_count * sizeof *geo);
    for (int s = 0; s < sc.shape_count; s++) geo[s] = make_geometry(&sc.shapes[s]);
    col_query_scratch *qs;
    col_query_scratch_create(NULL, &qs);
    col_transform *p0 = malloc((size_t)sc.body_count * sizeof *p0), *p1 = malloc((size_t)sc.body_count * sizeof *p1);
    int frames = sc.frames, bad = 0, contacts = 0, extra = 0, checked = 0;
    int maxf = 0;
    for (size_t k = 0; k < n; k++) maxf = e[k].f > maxf ? e[k].f : maxf;
    if (maxf + 1 < frames) frames = maxf + 1;
    for (int f = 1; f < frames; f++) {
        for (int b = 0; b < sc.body_count; b++) {
            p0[b] = pose_at(&sc, b, f - 1);
            p1[b] = pose_at(&sc, b, f);
        }
        for (int i = 0; i < sc.body_count; i++)
            for (int j = i + 1; j < sc.body_count; j++) {
                entry key = {f, (unsigned)i, (unsigned)j, 0, 0};
                entry *got = bsearch(&key, e, n, sizeof *e, entry_cmp);
                if (!boxes_meet(&sc, i, j, p0, p1)) {
                    if (got) {
                        fprintf(stderr, "ccd_truth: frame %d pair (%d, %d) reported, but they cannot meet\n", f, i, j);
                        bad++;
                    }
                    continue;
                }
                checked++;
                pair_ctx c = {geo[sc.bodies[i].shape], geo[sc.bodies[j].shape], p0[i], p1[i], p0[j], p1[j], qs};
                double lo = -1, hi = -1;
                if (touch(&c, 0.0)) lo = hi = 0.0;
                for (int k = 1; k <= 1024 && hi < 0; k++)
                    if (touch(&c, k / 1024.0)) {
                        lo = (k - 1) / 1024.0;
                        hi = k / 1024.0;
                    }
                while (hi > 0 && hi - lo > 1e-9) {
                    double m = 0.5 * (lo + hi);
                    if (touch(&c, m)) hi = m;
                    else lo = m;
                }
                if (got) got->seen = 1;
                if (hi >= 0) {
                    contacts++;
                    if (!got) {
                        fprintf(stderr, "ccd_truth: frame %d pair (%d, %d) touched at s in [%.17g, %.17g]: missing\n", f, i, j, lo, hi);
                        bad++;
                    } else if (got->s > hi + 1e-12) {
                        fprintf(stderr, "ccd_truth: frame %d pair (%d, %d): s %.17g after the contact at %.17g\n", f, i, j, got->s, hi);
                        bad++;
                    } else if (got->s < lo - 1e-6 && !fine_touch(&c, got->s, got->s + 1e-6)) {
                        fprintf(stderr, "ccd_truth: frame %d pair (%d, %d): s %.17g early (contact in [%.17g, %.17g])\n", f, i, j, got->s, lo, hi);
                        bad++;
                    }
                } else if (got) {
                    extra++;
                    if (!fine_touch(&c, got->s, fmin(1.0, got->s + 1e-6))) {
                        col_distance_output d;
                        col_geometry_distance(c.ga, ccd_ref_pose(c.a0, c.a1, got->s), c.gb, ccd_ref_pose(c.b0, c.b1, got->s), NULL,
                                              qs, &d);
                        if (d.distance > 1e-9 * sc.room) {
                            fprintf(stderr, "ccd_truth: frame %d pair (%d, %d) at s %.17g: not confirmed (distance %g)\n",
                                    f, i, j, got->s, d.distance);
                            bad++;
                        }
                    }
                }
            }
    }
    for (size_t k = 0; k < n; k++)
        if (e[k].f >= 1 && e[k].f < frames && !e[k].seen) {
            fprintf(stderr, "ccd_truth: frame %d pair (%u, %u) reported but never checked\n", e[k].f, e[k].i, e[k].j);
            bad++;
        }
    printf("ccd_truth: frames 1..%d, %d pairs checked, %d contacts, %d found between substeps, %d errors\n", frames - 1,
           checked, contacts, extra, bad);
    for (int s = 0; s < sc.shape_count; s++) col_geometry_destroy(geo[s]);
    col_query_scratch_destroy(qs);
    free(geo);
    free(p0);
    free(p1);
    free(e);
    bench_scene_free(&sc);
    return bad ? 1 : 0;
}
