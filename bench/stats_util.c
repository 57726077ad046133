/* SPDX-License-Identifier: MIT */
/* Scene replay for the statistics programs; see stats_util.h. */
#define _POSIX_C_SOURCE 200809L

#include "stats_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/core/hull.h"

double stats_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

const char *stats_scene_name(const char *path)
{
    const char *name = strrchr(path, '/');
    return name != NULL ? name + 1 : path;
}

bool stats_scene_open(const char *prog, const char *path, bench_scene *sc)
{
    FILE *fp = fopen(path, "r");
    if (fp == NULL) {
        fprintf(stderr, "%s: cannot open %s\n", prog, path);
        return false;
    }
    char err[256];
    bool ok = bench_scene_load(fp, path, sc, err, sizeof err);
    fclose(fp);
    if (ok && !bench_scene_hulls_only(sc, path, prog, err, sizeof err)) {
        bench_scene_free(sc);
        ok = false;
    }
    if (!ok) fprintf(stderr, "%s: %s\n", prog, err);
    return ok;
}

static int box_cmp(const void *x, const void *y)
{
    const stats_box *a = x, *b = y;
    if (a->lo[0] != b->lo[0]) return a->lo[0] < b->lo[0] ? -1 : 1;
    return a->body - b->body;
}

bool stats_replay_init(stats_replay *r, const bench_scene *sc, size_t pair_cap, size_t cache_bytes)
{
    memset(r, 0, sizeof *r);
    r->sc = sc;
    size_t nb = (size_t)sc->body_count, ns = (size_t)sc->shape_count;
    r->shape_hull = calloc(ns > 0 ? ns : 1, sizeof *r->shape_hull);
    r->xf = malloc(sizeof *r->xf * (nb > 0 ? nb : 1));
    r->box = malloc(sizeof *r->box * (nb > 0 ? nb : 1));
    stats_pair_caches *pc = &r->caches;
    pc->cap = pair_cap;
    pc->stride = (cache_bytes + 15) / 16 * 16;
    bool ok = r->shape_hull != NULL && r->xf != NULL && r->box != NULL;
    for (int k = 0; k < 2; k++) {
        pc->keys[k] = calloc(pair_cap, sizeof *pc->keys[k]);
        pc->caches[k] = aligned_alloc(16, pair_cap * pc->stride);
        ok = ok && pc->keys[k] != NULL && pc->caches[k] != NULL;
    }
    if (!ok) stats_replay_free(r);
    return ok;
}

void stats_replay_free(stats_replay *r)
{
    free(r->shape_hull);
    free(r->xf);
    free(r->box);
    for (int k = 0; k < 2; k++) {
        free(r->caches.keys[k]);
        free(r->caches.caches[k]);
    }
    memset(r, 0, sizeof *r);
}

/* Poses and world boxes of every body at frame f, the boxes sorted on x. */
static void frame_boxes(stats_replay *r, int f)
{
    const bench_scene *sc = r->sc;
    for (int b = 0; b < sc->body_count; b++) {
        r->xf[b] = col_xform_from_transform(bench_scene_pose(sc, b, f));
        const col_hull *h = r->shape_hull[sc->bodies[b].shape];
        col_vec3 c = col_scale(col_add(h->aabb_min, h->aabb_max), 0.5);
        col_vec3 e = col_scale(col_sub(h->aabb_max, h->aabb_min), 0.5);
        col_vec3 wc = col_xform_point(&r->xf[b], c);
        const double *m = r->xf[b].R.m;
        double w[3] = {wc.x, wc.y, wc.z};
        for (int i = 0; i < 3; i++) {
            double ex = (fabs(m[3 * i]) * e.x + fabs(m[3 * i + 1]) * e.y + fabs(m[3 * i + 2]) * e.z) * (1 + 1e-12) +
                        1e-12 * col_max_abs(wc);
            r->box[b].lo[i] = w[i] - ex;
            r->box[b].hi[i] = w[i] + ex;
        }
        r->box[b].body = b;
    }
    qsort(r->box, (size_t)sc->body_count, sizeof *r->box, box_cmp);
}

void stats_replay_frame(stats_replay *r, int f, void (*fn)(int a, int b, void *ctx), void *ctx)
{
    frame_boxes(r, f);
    /* this frame's caches become last frame's; the new frame starts with none */
    stats_pair_caches *pc = &r->caches;
    pc->cur = 1 - pc->cur;
    memset(pc->keys[pc->cur], 0, pc->cap * sizeof *pc->keys[pc->cur]);
    pc->count = 0;
    const stats_box *box = r->box;
    int n = r->sc->body_count;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n && box[j].lo[0] <= box[i].hi[0]; j++) {
            if (box[j].lo[1] > box[i].hi[1] || box[i].lo[1] > box[j].hi[1] || box[j].lo[2] > box[i].hi[2] ||
                box[i].lo[2] > box[j].hi[2])
                continue;
            int a = box[i].body < box[j].body ? box[i].body : box[j].body;
            int b = box[i].body < box[j].body ? box[j].body : box[i].body;
            fn(a, b, ctx);
        }
}

/* The slot of key in map k: where it is, or the empty slot where it would go. */
static size_t slot_of(const stats_pair_caches *pc, int k, uint64_t key)
{
    size_t i = (size_t)((key * UINT64_C(0x9e3779b97f4a7c15)) >> 32) & (pc->cap - 1);
    while (pc->keys[k][i] != key && pc->keys[k][i] != 0) i = (i + 1) & (pc->cap - 1);
    return i;
}

void *stats_pair_cache(stats_replay *r, int a, int b, bool *warm)
{
    stats_pair_caches *pc = &r->caches;
    uint64_t key = ((uint64_t)a << 32 | (uint64_t)b) + 1;
    int now = pc->cur, old = 1 - pc->cur;
    size_t i = slot_of(pc, now, key);
    unsigned char *cache = pc->caches[now] + i * pc->stride;
    if (pc->keys[now][i] == 0) {
        if ((pc->count + 1) * 2 > pc->cap) return NULL;
        pc->keys[now][i] = key;
        pc->count++;
    }
    size_t j = slot_of(pc, old, key);
    *warm = pc->keys[old][j] == key;
    if (*warm) memcpy(cache, pc->caches[old] + j * pc->stride, pc->stride);
    return cache;
}
