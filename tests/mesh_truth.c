/* SPDX-License-Identifier: MIT */
/* mesh_truth SCENE FRAMES DUMP: the exact colliding pairs of the first FRAMES frames of a
 * scene with triangle meshes, decided without any of Colibri's collision code, compared
 * with a colibri-bench pair dump (tests/bench_mesh.sh runs it).
 *
 * The truth is docs/scenes.md's: world vertices R(q) x + p in double, with R written out
 * here from the formula there (the rows summed left to right, p added last); a hull body is
 * the solid hull of its world points, a sphere or a capsule the points within R of its
 * world centre or segment, a mesh the union of its closed triangles. A triangle is the hull
 * of its (distinct) points, so a degenerate one is the segment or point it spans. So two
 * bodies collide iff some piece of one (the body itself, or one triangle of a mesh) and
 * some piece of the other are within ra + rb, and each piece pair is decided by
 * tests/oracle_round.h in rational arithmetic: the exact squared distance of two point
 * sets' hulls against (ra + rb)^2, touching included. Box tests skip only what they prove
 * apart: a box of exact min and max coordinates, widened by a radius rounded outward, that
 * does not meet the other's.
 *
 * Output: the pair counts by kind; on stderr each pair the dump gets wrong (missing or
 * false), with the kinds. Exit status 0 when they agree, 1 when not, 2 on bad input. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/scene.h"
#include "tests/oracle_round.h"

/* One piece: a point set with its hint features and a radius, and its box. */
typedef struct piece {
    oracle_set set;
    double radius;
    double lo[3], hi[3];
} piece;

/* A body at a frame: one piece (hull, sphere, capsule) or one per triangle (mesh). */
typedef struct body_now {
    int count;
    piece *pieces;
    double lo[3], hi[3];
} body_now;

typedef struct pair_list {
    int *v; /* f, i, j triples */
    size_t n, cap;
} pair_list;

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "mesh_truth: out of memory\n");
        exit(2);
    }
    return p;
}

/* docs/scenes.md: R of the unit quaternion (w, x, y, z), then R v + p, each row summed left
 * to right and p added last. */
static col_vec3 world_point(col_transform t, col_vec3 v)
{
    double w = t.q.w, x = t.q.x, y = t.q.y, z = t.q.z;
    double R[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - w * z),     2 * (x * z + w * y),
                   2 * (x * y + w * z),     1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
                   2 * (x * z - w * y),     2 * (y * z + w * x),     1 - 2 * (x * x + y * y)};
    col_vec3 r;
    r.x = R[0] * v.x + R[1] * v.y + R[2] * v.z + t.p.x;
    r.y = R[3] * v.x + R[4] * v.y + R[5] * v.z + t.p.y;
    r.z = R[6] * v.x + R[7] * v.y + R[8] * v.z + t.p.z;
    return r;
}

static double coord(col_vec3 v, int k) { return k == 0 ? v.x : k == 1 ? v.y : v.z; }

/* The piece's box: exact min and max of its points, widened by its radius with the sum
 * rounded outward (nextafter past the rounded result covers the exact one). */
static void piece_box(piece *p)
{
    for (int k = 0; k < 3; k++) {
        p->lo[k] = p->hi[k] = coord(p->set.w[0], k);
        for (int i = 1; i < p->set.n; i++) {
            p->lo[k] = fmin(p->lo[k], coord(p->set.w[i], k));
            p->hi[k] = fmax(p->hi[k], coord(p->set.w[i], k));
        }
        if (p->radius > 0) {
            p->lo[k] = nextafter(p->lo[k] - p->radius, -INFINITY);
            p->hi[k] = nextafter(p->hi[k] + p->radius, INFINITY);
        }
    }
}

static bool boxes_meet(const double *alo, const double *ahi, const double *blo, const double *bhi)
{
    for (int k = 0; k < 3; k++)
        if (ahi[k] < blo[k] || bhi[k] < alo[k]) return false;
    return true;
}

/* A point set of n distinct world points from pts (exact duplicates dropped). */
static void set_points(oracle_set *s, const col_vec3 *pts, int n)
{
    s->n = 0;
    for (int i = 0; i < n; i++) {
        bool seen = false;
        for (int j = 0; j < s->n; j++)
            seen = seen || (s->w[j].x == pts[i].x && s->w[j].y == pts[i].y && s->w[j].z == pts[i].z);
        if (!seen) s->w[s->n++] = pts[i];
    }
    oracle_features_all(s); /* at most 3 points here: one triangle, three segments */
}

/* Body b at frame f. */
static void body_at(const bench_scene *sc, int b, int f, body_now *out)
{
    const bench_shape *sh = &sc->shapes[sc->bodies[b].shape];
    col_transform t = bench_scene_pose(sc, b, f);
    if (sh->kind == BENCH_SHAPE_MESH) {
        col_vec3 *w = xmalloc(sizeof *w * (size_t)sh->vertex_count);
        for (int i = 0; i < sh->vertex_count; i++) w[i] = world_point(t, sh->vertices[i]);
        out->count = sh->triangle_count;
        out->pieces = xmalloc(sizeof *out->pieces * (size_t)sh->triangle_count);
        for (int k = 0; k < sh->triangle_count; k++) {
            col_vec3 tri[3] = {w[sh->indices[3 * k]], w[sh->indices[3 * k + 1]], w[sh->indices[3 * k + 2]]};
            piece *p = &out->pieces[k];
            set_points(&p->set, tri, 3);
            p->radius = 0;
            piece_box(p);
        }
        free(w);
    } else {
        out->count = 1;
        out->pieces = xmalloc(sizeof *out->pieces);
        piece *p = out->pieces;
        if (sh->kind == BENCH_SHAPE_HULL) {
            if (sh->vertex_count > ORACLE_MAXP) {
                fprintf(stderr, "mesh_truth: a hull of %d points (the oracle takes %d): make the scene with fewer\n",
                        sh->vertex_count, ORACLE_MAXP);
                exit(2);
            }
            p->set.n = sh->vertex_count;
            for (int i = 0; i < sh->vertex_count; i++) p->set.w[i] = world_point(t, sh->vertices[i]);
            p->set.f.nt = p->set.f.ns = 0; /* hints per pair: see hull_hints */
            p->radius = 0;
        } else {
            col_vec3 core[2] = {t.p, t.p};
            if (sh->kind == BENCH_SHAPE_CAPSULE) {
                core[0] = world_point(t, col_vec3_make(0, 0, -sh->half_height));
                core[1] = world_point(t, col_vec3_make(0, 0, sh->half_height));
            }
            p->set.n = sh->kind == BENCH_SHAPE_CAPSULE ? 2 : 1;
            memcpy(p->set.w, core, sizeof core);
            oracle_features_core(&p->set);
            p->radius = sh->core_radius;
        }
        piece_box(p);
    }
    for (int k = 0; k < 3; k++) {
        out->lo[k] = out->pieces[0].lo[k];
        out->hi[k] = out->pieces[0].hi[k];
        for (int i = 1; i < out->count; i++) {
            out->lo[k] = fmin(out->lo[k], out->pieces[i].lo[k]);
            out->hi[k] = fmax(out->hi[k], out->pieces[i].hi[k]);
        }
    }
}

/* Hints for a hull's points against another piece (they only speed the oracle up; no
 * double decides): every triangle and segment of the 7 points nearest the other piece's
 * first point, the likely home of the closest features. */
static void hull_hints(oracle_set *h, const oracle_set *other)
{
    int idx[ORACLE_MAXP], n = h->n;
    double d[ORACLE_MAXP];
    for (int i = 0; i < n; i++) {
        col_vec3 a = h->w[i], b = other->w[0];
        d[i] = (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z);
        idx[i] = i;
    }
    for (int i = 1; i < n; i++) /* insertion sort by distance */
        for (int j = i; j > 0 && d[idx[j]] < d[idx[j - 1]]; j--) {
            int t = idx[j];
            idx[j] = idx[j - 1];
            idx[j - 1] = t;
        }
    int m = n < 7 ? n : 7;
    oracle_features *f = &h->f;
    f->nt = f->ns = 0;
    for (int a = 0; a < m; a++)
        for (int b = a + 1; b < m; b++) {
            f->seg[f->ns][0] = idx[a];
            f->seg[f->ns][1] = idx[b];
            f->ns++;
            for (int c = b + 1; c < m; c++) {
                f->tri[f->nt][0] = idx[a];
                f->tri[f->nt][1] = idx[b];
                f->tri[f->nt][2] = idx[c];
                f->nt++;
            }
        }
}

static bool pieces_collide(piece *a, piece *b, bool a_hull, bool b_hull)
{
    if (!boxes_meet(a->lo, a->hi, b->lo, b->hi)) return false;
    if (a_hull) hull_hints(&a->set, &b->set);
    if (b_hull) hull_hints(&b->set, &a->set);
    return oracle_round_collide(&a->set, a->radius, &b->set, b->radius) != 0;
}

static bool bodies_collide(const bench_scene *sc, int i, int j, body_now *A, body_now *B)
{
    if (!boxes_meet(A->lo, A->hi, B->lo, B->hi)) return false;
    bool ah = sc->shapes[sc->bodies[i].shape].kind == BENCH_SHAPE_HULL;
    bool bh = sc->shapes[sc->bodies[j].shape].kind == BENCH_SHAPE_HULL;
    for (int p = 0; p < A->count; p++) {
        if (!boxes_meet(A->pieces[p].lo, A->pieces[p].hi, B->lo, B->hi)) continue;
        for (int q = 0; q < B->count; q++)
            if (pieces_collide(&A->pieces[p], &B->pieces[q], ah, bh)) return true;
    }
    return false;
}

/* "mesh", "convex" for the counts by kind. */
static bool is_mesh(const bench_scene *sc, int b) { return sc->shapes[sc->bodies[b].shape].kind == BENCH_SHAPE_MESH; }

static void push(pair_list *l, int f, int i, int j)
{
    if (l->n + 3 > l->cap) {
        l->cap = l->cap ? 2 * l->cap : 3 * 1024;
        l->v = realloc(l->v, sizeof *l->v * l->cap);
        if (l->v == NULL) {
            fprintf(stderr, "mesh_truth: out of memory\n");
            exit(2);
        }
    }
    l->v[l->n++] = f;
    l->v[l->n++] = i;
    l->v[l->n++] = j;
}

static int cmp_triple(const int *a, const int *b)
{
    for (int k = 0; k < 3; k++)
        if (a[k] != b[k]) return a[k] < b[k] ? -1 : 1;
    return 0;
}

static const char *kind_of(const bench_scene *sc, int b)
{
    return bench_shape_kind_name(sc->shapes[sc->bodies[b].shape].kind);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: mesh_truth SCENE FRAMES DUMP\n");
        return 2;
    }
    int frames = atoi(argv[2]);
    FILE *fp = fopen(argv[1], "r");
    if (fp == NULL || frames < 1) {
        fprintf(stderr, "mesh_truth: cannot read '%s' or bad FRAMES '%s'\n", argv[1], argv[2]);
        return 2;
    }
    bench_scene sc;
    char err[512];
    bool ok = bench_scene_load(fp, argv[1], &sc, err, sizeof err);
    fclose(fp);
    if (!ok) {
        fprintf(stderr, "mesh_truth: %s\n", err);
        return 2;
    }
    if (frames > sc.frames) frames = sc.frames;

    /* the dump's pairs of the frames checked, in file order (f, i, j increasing) */
    pair_list dump = {0}, truth = {0};
    fp = fopen(argv[3], "r");
    if (fp == NULL) {
        fprintf(stderr, "mesh_truth: cannot read '%s'\n", argv[3]);
        return 2;
    }
    int f, i, j;
    while (fscanf(fp, "%d %d %d", &f, &i, &j) == 3)
        if (f < frames) push(&dump, f, i, j);
    fclose(fp);

    oracle_round_init();
    long count[3] = {0, 0, 0}; /* convex-convex, mesh-convex, mesh-mesh */
    body_now *now = xmalloc(sizeof *now * (size_t)sc.body_count);
    for (f = 0; f < frames; f++) {
        for (int b = 0; b < sc.body_count; b++) body_at(&sc, b, f, &now[b]);
        for (i = 0; i < sc.body_count; i++)
            for (j = i + 1; j < sc.body_count; j++)
                if (bodies_collide(&sc, i, j, &now[i], &now[j])) {
                    push(&truth, f, i, j);
                    count[is_mesh(&sc, i) + is_mesh(&sc, j)]++;
                }
        for (int b = 0; b < sc.body_count; b++) free(now[b].pieces);
    }
    free(now);
    printf("mesh_truth: %d frames, %zu colliding pairs: %ld mesh-mesh, %ld mesh-convex, %ld convex-convex "
           "(oracle: %ld by the hint, %ld by the LP, %ld exhaustive)\n",
           frames, truth.n / 3, count[2], count[1], count[0], ostats.fast, ostats.lp, ostats.exhaustive);

    /* both lists are in (f, i, j) order: one merge names every difference */
    int bad = 0;
    size_t a = 0, b = 0;
    while (a < truth.n || b < dump.n) {
        int c = a == truth.n ? 1 : b == dump.n ? -1 : cmp_triple(&truth.v[a], &dump.v[b]);
        if (c == 0) {
            a += 3;
            b += 3;
            continue;
        }
        const int *p = c < 0 ? &truth.v[a] : &dump.v[b];
        if (bad++ < 20)
            fprintf(stderr, "mesh_truth: frame %d, bodies %d (%s) and %d (%s): %s\n", p[0], p[1], kind_of(&sc, p[1]),
                    p[2], kind_of(&sc, p[2]), c < 0 ? "collide, missing from the dump" : "in the dump, do not collide");
        if (c < 0) a += 3;
        else b += 3;
    }
    oracle_round_fini();
    free(truth.v);
    free(dump.v);
    bench_scene_free(&sc);
    if (bad) {
        fprintf(stderr, "mesh_truth: %d pairs differ\n", bad);
        return 1;
    }
    if (count[2] == 0 || count[1] == 0) {
        fprintf(stderr, "mesh_truth: no mesh-mesh or no mesh-convex pair in the frames checked: the check is vacuous\n");
        return 1;
    }
    printf("mesh_truth: ok, the dump equals the exact pairs\n");
    return 0;
}
