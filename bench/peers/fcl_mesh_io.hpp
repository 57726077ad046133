// SPDX-License-Identifier: MIT
// What the FCL peer runners (fcl_ccd.cpp, fcl_distance.cpp) share: the thread's CPU clock
// (the machine may be shared, as bench/mesh_distance.c and bench/ccd_meshes.c measure) and
// the reader of a `mesh NV NT` record of the files our bench tools write with --write.
#ifndef COLIBRI_BENCH_PEERS_FCL_MESH_IO_HPP
#define COLIBRI_BENCH_PEERS_FCL_MESH_IO_HPP

#include <fcl/fcl.h>

#include <cstdio>
#include <memory>
#include <time.h>
#include <vector>

static inline double now()
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

// "mesh NV NT", NV vertices "x y z", NT triangles "i j k": an FCL BVH model with bounding
// volume BV, or null on a malformed record.
template <class BV>
static std::shared_ptr<fcl::BVHModel<BV>> read_mesh(FILE *f)
{
    int nv, nt;
    if (fscanf(f, " mesh %d %d", &nv, &nt) != 2) return nullptr;
    std::vector<fcl::Vector3d> ps(nv);
    std::vector<fcl::Triangle> ts(nt);
    for (int i = 0; i < nv; i++) {
        double x, y, z;
        if (fscanf(f, "%lf %lf %lf", &x, &y, &z) != 3) return nullptr;
        ps[i] = fcl::Vector3d(x, y, z);
    }
    for (int i = 0; i < nt; i++) {
        unsigned a, b, c;
        if (fscanf(f, "%u %u %u", &a, &b, &c) != 3) return nullptr;
        ts[i] = fcl::Triangle(a, b, c);
    }
    auto m = std::make_shared<fcl::BVHModel<BV>>();
    if (m->beginModel(nt, nv) != fcl::BVH_OK || m->addSubModel(ps, ts) != fcl::BVH_OK ||
        m->endModel() != fcl::BVH_OK)
        return nullptr;
    m->computeLocalAABB();
    return m;
}

#endif
