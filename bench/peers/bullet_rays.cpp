// SPDX-License-Identifier: MIT
// bullet_rays.cpp - Bullet's btCollisionWorld::rayTest on the rays of docs/scenes.md's ray
// mode, so Colibri's col_world_cast_ray can be timed and checked against it (docs/queries.md).
// Built by scripts/bullet-rays against Debian's libbullet-dev (double-precision build), not
// part of the build or the tests.
//
//   bullet_rays SCENE RAYS [FRAMES [DUMP]]
//
// The world is set up as the shared peer runner does it (../shared/bench/peers/run_bullet.cpp,
// copied here so the repository stands alone): one btConvexHullShape per hull shape with all
// its points, margin 0; a btSphereShape or btCapsuleShapeZ for spheres and capsules; a
// btGImpactMeshShape (margin 0) for a mesh; one btCollisionObject per body in a
// btCollisionWorld with btDbvtBroadphase. Per frame: every moving body's pose from the closed
// form (bench/scene.c), updateAabbs() (what rayTest needs of the broad phase; timed as
// frame_ms), then RAYS rays with ClosestRayResultCallback (timed as rays_ms). Prints
//   scene=NAME engine=bullet-dbvt bodies=N frames=F rays=R rays_ms_median=X rays_cpu_ms_median=C
//   frame_ms_median=Y  (C: the thread's CPU time of the casts, steadier on a shared machine)
// and with DUMP writes 'f k body t' per ray (body -1 and t 1 for no hit), as colibri-bench
// --dump-rays does.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-copy"
#include <BulletCollision/Gimpact/btGImpactCollisionAlgorithm.h>
#include <BulletCollision/Gimpact/btGImpactShape.h>
#pragma GCC diagnostic pop
#include <btBulletCollisionCommon.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

extern "C" {
#include "scene.h"
}

static double now_ms()
{
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static double cpu_ms()
{
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static uint64_t sm_next(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static double sm_u(uint64_t *s) { return (double)(sm_next(s) >> 11) * 0x1p-53; }

static double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[(v.size() + 1) / 2 - 1]; // nearest rank: ceil(0.5 F)
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bullet_rays SCENE RAYS [FRAMES [DUMP]]\n");
        return 2;
    }
    static_assert(sizeof(btScalar) == sizeof(double), "build against bullet-float64");
    FILE *fp = fopen(argv[1], "r");
    if (!fp) {
        fprintf(stderr, "bullet_rays: cannot open %s\n", argv[1]);
        return 2;
    }
    bench_scene sc;
    char err[512];
    if (!bench_scene_load(fp, argv[1], &sc, err, sizeof err)) {
        fprintf(stderr, "bullet_rays: %s\n", err);
        return 1;
    }
    fclose(fp);
    int R = atoi(argv[2]);
    int F = argc > 3 ? atoi(argv[3]) : sc.frames;
    if (F <= 0 || F > sc.frames) F = sc.frames;
    FILE *dump = argc > 4 ? fopen(argv[4], "w") : nullptr;
    std::string name = argv[1];
    name = name.substr(name.find_last_of('/') + 1);
    if (name.size() > 6 && name.compare(name.size() - 6, 6, ".scene") == 0) name.resize(name.size() - 6);

    btDefaultCollisionConfiguration cfg;
    btCollisionDispatcher disp(&cfg);
    btGImpactCollisionAlgorithm::registerAlgorithm(&disp);
    btDbvtBroadphase bp;
    btCollisionWorld world(&disp, &bp, &cfg);
    std::vector<btCollisionShape *> shapes(sc.shape_count);
    for (int s = 0; s < sc.shape_count; s++) {
        const bench_shape *sh = &sc.shapes[s];
        switch (sh->kind) {
        case BENCH_SHAPE_SPHERE: shapes[s] = new btSphereShape(sh->core_radius); break;
        case BENCH_SHAPE_CAPSULE:
            shapes[s] = new btCapsuleShapeZ(sh->core_radius, 2 * sh->half_height);
            break;
        case BENCH_SHAPE_MESH: {
            auto *tiva = new btTriangleIndexVertexArray(sh->triangle_count, (int *)sh->indices, 3 * sizeof(int),
                                                        sh->vertex_count, (double *)sh->vertices, 3 * sizeof(double));
            auto *g = new btGImpactMeshShape(tiva);
            g->setMargin(0);
            g->updateBound();
            shapes[s] = g;
            break;
        }
        default: {
            auto *h = new btConvexHullShape((const double *)sh->vertices, sh->vertex_count, 3 * sizeof(double));
            h->setMargin(0);
            h->recalcLocalAabb();
            shapes[s] = h;
        }
        }
    }
    int N = sc.body_count;
    std::vector<btCollisionObject *> objs(N);
    auto set_pose = [&](int b, int f) {
        col_transform t = bench_scene_pose(&sc, b, f);
        btTransform x(btQuaternion(t.q.x, t.q.y, t.q.z, t.q.w), btVector3(t.p.x, t.p.y, t.p.z));
        objs[b]->setWorldTransform(x);
    };
    for (int b = 0; b < N; b++) {
        objs[b] = new btCollisionObject();
        objs[b]->setCollisionShape(shapes[sc.bodies[b].shape]);
        objs[b]->setUserIndex(b);
        set_pose(b, 0);
        world.addCollisionObject(objs[b]);
    }
    std::vector<double> frame_ms, rays_ms, rays_cpu;
    std::vector<int> hb(R);
    std::vector<double> ht(R);
    const double L = sc.room;
    for (int f = 0; f < F; f++) {
        double t0 = now_ms();
        for (int b = 0; b < N; b++) set_pose(b, f);
        world.updateAabbs();
        world.computeOverlappingPairs();
        double t1 = now_ms(), c1 = cpu_ms();
        uint64_t st = (uint64_t)f;
        for (int k = 0; k < R; k++) {
            double ox = L * sm_u(&st);
            double oy = L * sm_u(&st);
            double oz = L * sm_u(&st);
            double z = 2.0 * sm_u(&st) - 1.0;
            double phi = 2.0 * 3.14159265358979323846 * sm_u(&st);
            double s = std::sqrt(1.0 - z * z), h = L / 2.0;
            btVector3 from(ox, oy, oz);
            btVector3 to(ox + h * (s * std::cos(phi)), oy + h * (s * std::sin(phi)), oz + h * z);
            btCollisionWorld::ClosestRayResultCallback cb(from, to);
            world.rayTest(from, to, cb);
            hb[k] = cb.hasHit() ? cb.m_collisionObject->getUserIndex() : -1;
            ht[k] = cb.hasHit() ? cb.m_closestHitFraction : 1.0;
        }
        double t2 = now_ms();
        frame_ms.push_back(t1 - t0);
        rays_ms.push_back(t2 - t1);
        rays_cpu.push_back(cpu_ms() - c1);
        for (int k = 0; dump && k < R; k++) fprintf(dump, "%d %d %d %.17g\n", f, k, hb[k], ht[k]);
    }
    if (dump) fclose(dump);
    printf("scene=%s engine=bullet-dbvt bodies=%d frames=%d rays=%d rays_ms_median=%.4f rays_cpu_ms_median=%.4f "
           "frame_ms_median=%.4f\n",
           name.c_str(), N, F, R, median(rays_ms), median(rays_cpu), median(frame_ms));
    return 0;
}
