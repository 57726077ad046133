/* SPDX-License-Identifier: MIT */
/* The recorder (include/colibri/record.h): JSON lines, one object a line, as
 * docs/record.md describes, so a browser can read the file line by line (JSON.parse per
 * line) and a frame can be appended without rewriting what came before.
 * Bodies and shapes are named in the file by the recorder's own numbers (0, 1, ... in
 * order of first sight), never by their ids, whose tags change from run to run
 * (include/colibri/id.h): per body slot and per shape slot the recorder keeps the
 * generation it last saw there and the number it gave it, so a slot reused by a new body
 * (a new generation) gets a new number, and an ended event that names a removed body
 * still finds the number it had. It reads the world's slots directly (it lives on the
 * world's floor, docs/architecture.md) and changes nothing in the world but its
 * message. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "colibri/record.h"
#include "lib/world.h"

/* What the recorder knows of one slot (of bodies or of shapes). */
typedef struct col_rec_slot {
    uint32_t generation; /* the generation last numbered in this slot */
    int32_t number;      /* its number in the file; -1: none yet */
} col_rec_slot;

struct col_recorder {
    col_world *world;
    FILE *file;
    col_rec_slot *bodies, *shapes;
    int body_cap, shape_cap;
    int32_t next_body, next_shape;
    int frames;        /* frame lines written */
    bool write_failed; /* a write failed: the file is incomplete, every later call fails */
    char path[160];    /* for messages (truncated if longer) */
};

/* Grows a slot map to hold at least need slots, new ones unnumbered. 0 or -1 (unchanged). */
static int grow_slots(col_alloc *a, col_rec_slot **map, int *cap, int need)
{
    if (need <= *cap) return 0;
    int n = *cap > 0 ? *cap : 64;
    while (n < need) n = n > (1 << 29) ? need : 2 * n;
    col_rec_slot *m = col_alloc_bytes(a, (size_t)n * sizeof *m);
    if (m == NULL) return -1;
    if (*cap > 0) memcpy(m, *map, (size_t)*cap * sizeof *m);
    for (int k = *cap; k < n; k++) m[k] = (col_rec_slot){0, -1};
    col_free_bytes(a, *map, (size_t)*cap * sizeof **map);
    *map = m;
    *cap = n;
    return 0;
}

/* The number of the object of generation gen in slot (map large enough), given a new one
 * if the slot held none or another generation; *is_new says which. */
static int32_t number_of(col_rec_slot *map, int slot, uint32_t gen, int32_t *next, bool *is_new)
{
    col_rec_slot *s = &map[slot];
    *is_new = s->number < 0 || s->generation != gen;
    if (*is_new) {
        s->generation = gen;
        s->number = (*next)++;
    }
    return s->number;
}

static col_status io_fail(col_recorder *r, const char *fn, const char *what, int err)
{
    r->write_failed = true;
    return col_world_fail(r->world, COL_ERR_IO, "%s: %s '%s' failed: %s", fn, what, r->path,
                          err ? strerror(err) : "write error");
}

static const char *kind_name(col_shape_kind k)
{
    switch (k) {
    case COL_SHAPE_HULL: return "hull";
    case COL_SHAPE_SPHERE: return "sphere";
    case COL_SHAPE_CAPSULE: return "capsule";
    case COL_SHAPE_COMPOUND: return "compound";
    case COL_SHAPE_MESH: return "mesh";
    }
    return "unknown";
}

/* Geometry is written with 17 significant digits (doubles round-trip exactly). */
static void put_vec(FILE *f, col_vec3 v) { fprintf(f, "[%.17g,%.17g,%.17g]", v.x, v.y, v.z); }

static void write_piece(FILE *f, const col_piece_info *p)
{
    fprintf(f, "{\"kind\":\"%s\"", kind_name(p->kind));
    if (p->kind == COL_SHAPE_HULL) {
        const col_hull_view *h = &p->hull;
        fputs(",\"vertices\":[", f);
        for (int v = 0; v < h->vertex_count; v++) {
            col_vec3 x = h->vertices[v];
            fprintf(f, "%s%.17g,%.17g,%.17g", v ? "," : "", x.x, x.y, x.z);
        }
        fputs("],\"faces\":[", f);
        for (int k = 0; k < h->face_count; k++) {
            fputs(k ? ",[" : "[", f);
            for (int i = h->face_first[k]; i < h->face_first[k + 1]; i++)
                fprintf(f, "%s%d", i > h->face_first[k] ? "," : "", h->face_vertices[i]);
            fputc(']', f);
        }
        fputc(']', f);
    } else if (p->kind == COL_SHAPE_SPHERE) {
        fputs(",\"center\":", f);
        put_vec(f, p->core[0]);
        fprintf(f, ",\"radius\":%.17g", p->sphere_radius);
    } else {
        fputs(",\"ends\":[", f);
        put_vec(f, p->core[0]);
        fputc(',', f);
        put_vec(f, p->core[1]);
        fprintf(f, "],\"radius\":%.17g", p->sphere_radius);
    }
    fputc('}', f);
}

/* One shape line: {"shape":N,"kind":...,"pieces":[...]}. */
static void write_shape(FILE *f, int32_t number, const col_geometry *g)
{
    col_shape_info info;
    col_geometry_get_info(g, &info);
    fprintf(f, "{\"shape\":%d,\"kind\":\"%s\",\"pieces\":[", (int)number, kind_name(info.kind));
    col_mesh_view m;
    if (col_geometry_get_mesh(g, &m) == COL_OK) {
        fputs("{\"kind\":\"mesh\",\"vertices\":[", f);
        for (int v = 0; v < m.vertex_count; v++) {
            col_vec3 x = m.vertices[v];
            fprintf(f, "%s%.17g,%.17g,%.17g", v ? "," : "", x.x, x.y, x.z);
        }
        fputs("],\"triangles\":[", f);
        for (int t = 0; t < 3 * m.triangle_count; t++) fprintf(f, "%s%u", t ? "," : "", (unsigned)m.indices[t]);
        fputs("]}]}\n", f);
        return;
    }
    for (int k = 0; k < info.child_count; k++) {
        col_piece_info p;
        col_geometry_get_piece(g, k, &p);
        if (k) fputc(',', f);
        write_piece(f, &p);
    }
    fputs("]}\n", f);
}

col_status col_recorder_open(col_world *world, const char *path, col_recorder **out)
{
    if (out != NULL) *out = NULL;
    if (world == NULL) return COL_ERR_INVALID_ARGUMENT;
    col_world_begin_call(world); /* "not an error" on success (colibri.h's rule) */
    if (path == NULL || out == NULL)
        return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "col_recorder_open: NULL %s",
                              path == NULL ? "path" : "out");
    if (path[0] == '\0') return col_world_fail(world, COL_ERR_INVALID_ARGUMENT, "col_recorder_open: empty path");
    col_recorder *r = col_alloc_zeroed(&world->alloc, 1, sizeof *r);
    if (r == NULL)
        return col_world_fail(world, COL_ERR_OUT_OF_MEMORY, "col_recorder_open: no memory for the recorder");
    r->world = world;
    snprintf(r->path, sizeof r->path, "%s", path);
    errno = 0;
    r->file = fopen(path, "w");
    if (r->file == NULL) {
        int err = errno;
        col_free_bytes(&world->alloc, r, sizeof *r);
        return col_world_fail(world, COL_ERR_IO, "col_recorder_open: cannot create '%s': %s", path,
                              err ? strerror(err) : "fopen failed");
    }
    fprintf(r->file, "{\"format\":\"colibri-record\",\"version\":1,\"pose\":[\"x\",\"y\",\"z\",\"qx\",\"qy\",\"qz\","
                     "\"qw\"],\"backend\":\"%s\"}\n",
            world->backend->name);
    if (fflush(r->file) != 0 || ferror(r->file)) {
        int err = errno;
        fclose(r->file);
        col_free_bytes(&world->alloc, r, sizeof *r);
        return col_world_fail(world, COL_ERR_IO, "col_recorder_open: writing '%s' failed: %s", path,
                              err ? strerror(err) : "write error");
    }
    *out = r;
    return COL_OK;
}

/* The number of a pair's body: the live or removed body the recorder numbered in that slot,
 * else a new number (a body removed before the recorder first saw it). */
static int32_t pair_body(col_recorder *r, col_body_id id)
{
    int slot = (int)id.index1 - 1;
    if (slot < 0 || slot >= r->body_cap) return -1;
    bool is_new;
    return number_of(r->bodies, slot, id.generation, &r->next_body, &is_new);
}

static void write_pairs(col_recorder *r, const char *name, const col_pair *p, int n)
{
    fprintf(r->file, ",\"%s\":[", name);
    for (int k = 0; k < n; k++)
        fprintf(r->file, "%s[%d,%d]", k ? "," : "", (int)pair_body(r, p[k].a), (int)pair_body(r, p[k].b));
    fputc(']', r->file);
}

col_status col_recorder_frame(col_recorder *r)
{
    if (r == NULL) return COL_ERR_INVALID_ARGUMENT;
    col_world *w = r->world;
    col_world_begin_call(w); /* "not an error" on success (colibri.h's rule) */
    if (r->write_failed)
        return col_world_fail(w, COL_ERR_IO, "col_recorder_frame: an earlier write to '%s' failed", r->path);
    if (w->frame == 0)
        return col_world_fail(w, COL_ERR_INVALID_ARGUMENT,
                              "col_recorder_frame: the world has not been updated yet (call it after col_world_update)");
    if (w->dirty_count != 0 || w->body_ids.deferred_count != 0)
        return col_world_fail(w, COL_ERR_INVALID_ARGUMENT,
                              "col_recorder_frame: the world changed since its last col_world_update (%d bodies moved or "
                              "added, %d removed): record right after the update",
                              w->dirty_count, w->body_ids.deferred_count);
    /* Room first (the only failure besides writing): the maps cover every slot ever used,
     * which also covers the pairs' and events' slots (a removed body's slot stays below the
     * high water mark). */
    if (grow_slots(&w->alloc, &r->bodies, &r->body_cap, w->body_ids.high_water) != 0 ||
        grow_slots(&w->alloc, &r->shapes, &r->shape_cap, w->shape_ids.high_water) != 0)
        return col_world_fail(w, COL_ERR_OUT_OF_MEMORY, "col_recorder_frame: no memory for the recorder's maps");

    FILE *f = r->file;
    /* The shapes the live bodies use that the file does not have yet. */
    for (int s = 0; s < w->body_ids.high_water; s++) {
        if (!w->body_ids.live[s]) continue;
        uint32_t sh = w->bodies[s].shape;
        bool is_new;
        int32_t num = number_of(r->shapes, (int)sh, w->shape_ids.generation[sh], &r->next_shape, &is_new);
        if (is_new) write_shape(f, num, w->shapes[sh].geom);
    }
    /* The frame: every live body in slot order, then the results of the update. Poses with
     * 9 significant digits (float precision, what a GPU draws with; docs/record.md). */
    fprintf(f, "{\"frame\":%llu,\"bodies\":[", (unsigned long long)w->frame);
    bool first = true;
    for (int s = 0; s < w->body_ids.high_water; s++) {
        if (!w->body_ids.live[s]) continue;
        const col_body_rec *b = &w->bodies[s];
        bool is_new;
        int32_t num = number_of(r->bodies, s, w->body_ids.generation[s], &r->next_body, &is_new);
        const col_transform *t = col_body_pose(b);
        fprintf(f, "%s[%d,%d,%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g]", first ? "" : ",", (int)num,
                (int)r->shapes[b->shape].number, b->is_static ? 1 : 0, t->p.x, t->p.y, t->p.z, t->q.x, t->q.y,
                t->q.z, t->q.w);
        first = false;
    }
    fputc(']', f);
    col_pair_events ev = col_world_get_pair_events(w);
    write_pairs(r, "pairs", ev.pairs, ev.pair_count);
    write_pairs(r, "began", ev.began, ev.began_count);
    write_pairs(r, "ended", ev.ended, ev.ended_count);
    fputs("}\n", f);
    /* Flushed per frame: a viewer can read the file while the app runs, and a full disk is
     * reported at the frame it hit. */
    errno = 0;
    if (fflush(f) != 0 || ferror(f)) return io_fail(r, "col_recorder_frame", "writing", errno);
    r->frames++;
    return COL_OK;
}

col_status col_recorder_close(col_recorder *r)
{
    if (r == NULL) return COL_OK;
    col_world *w = r->world;
    col_status st = COL_OK;
    int err = 0;
    if (!r->write_failed) {
        fprintf(r->file, "{\"end\":true,\"frames\":%d}\n", r->frames);
        errno = 0;
        if (fflush(r->file) != 0 || ferror(r->file)) {
            err = errno;
            st = io_fail(r, "col_recorder_close", "writing", err);
        }
    } else {
        st = col_world_fail(w, COL_ERR_IO, "col_recorder_close: an earlier write to '%s' failed: the file is incomplete",
                            r->path);
    }
    errno = 0;
    if (fclose(r->file) != 0 && st == COL_OK) {
        err = errno;
        st = io_fail(r, "col_recorder_close", "closing", err);
    }
    col_free_bytes(&w->alloc, r->bodies, (size_t)r->body_cap * sizeof *r->bodies);
    col_free_bytes(&w->alloc, r->shapes, (size_t)r->shape_cap * sizeof *r->shapes);
    col_free_bytes(&w->alloc, r, sizeof *r);
    return st;
}
