// SPDX-License-Identifier: MIT
// fcl_ccd: times FCL's continuousCollide with conservative advancement
// (CCDC_CONSERVATIVE_ADVANCEMENT) on the mesh pairs and motions that
// `ccd-meshes --write FILE` (bench/ccd_meshes.c) wrote, and compares FCL's answers with
// ours (written in the same file). Not part of the build or the tests: it needs Debian's
// libfcl-dev, and scripts/fcl-ccd compiles and runs it.
//
//   fcl_ccd FILE
//   fcl_ccd --cubes
//
// --cubes: the head-on case of docs/ccd.md ("What this says"): two 12-triangle meshes of
// the unit cube (side 1, centred), a at rest at the origin, b translating without turning
// from x = 3 to x = -3 straight through it; prints FCL's answer with CCDM_TRANS and with
// CCDM_LINEAR (a contact at toc = (3 - 1) / 6 = 1/3 is the right one).
//
// Each mesh becomes a fcl::BVHModel<RSS> (the only bounding volume FCL's mesh
// conservative advancement supports, FCL issue #120). The motion is CCDM_LINEAR
// (fcl::InterpMotion with its reference point at the origin: position linear, rotation at
// a constant rate about a fixed axis by the angle of R1 R0^T in [0, pi]), which is our
// motion model (docs/ccd.md). FCL's other settings are its defaults (toc_err 1e-4, the
// libccd GJK solver). Poses use the rotation-matrix formula of docs/scenes.md, as ours do.
//
// Printed per pair: FCL's thread CPU time per query (each query repeated for at least
// 2 ms; also split into the queries we call hits and those we call misses), its hits and
// misses, the queries where FCL says no contact and we found one (missed), where
// FCL's time of contact is more than 1e-6 after ours (late: ours is never late and at most
// 1e-6 early, so FCL's is after the true first contact), the largest |toc - s| of the
// queries both call hits, and FCL's hits where we prove no contact (extra), each checked by
// FCL's own discrete collide and distance at its time of contact (the poses from
// fcl::InterpMotion, as continuousCollide interpolates them): extra_touching counts those
// where FCL's discrete test finds contact there (a contact we would have missed),
// extra_min_dist the least distance FCL measures at the others' toc.
#include <fcl/fcl.h>

#include "fcl_mesh_io.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <time.h>
#include <vector>

using namespace fcl;

static Transform3d pose(const double *v) // px py pz qw qx qy qz
{
    double w = v[3], x = v[4], y = v[5], z = v[6];
    double n = std::sqrt(w * w + x * x + y * y + z * z);
    w /= n, x /= n, y /= n, z /= n;
    Matrix3d R;
    R << 1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y), 2 * (x * y + w * z),
        1 - 2 * (x * x + z * z), 2 * (y * z - w * x), 2 * (x * z - w * y), 2 * (y * z + w * x),
        1 - 2 * (x * x + y * y);
    Transform3d t = Transform3d::Identity();
    t.linear() = R;
    t.translation() = Vector3d(v[0], v[1], v[2]);
    return t;
}

static int cubes()
{
    std::vector<Vector3d> ps;
    for (int i = 0; i < 8; i++)
        ps.push_back(Vector3d(i & 1 ? 0.5 : -0.5, i & 2 ? 0.5 : -0.5, i & 4 ? 0.5 : -0.5));
    // two triangles per face, outward (counter-clockwise seen from outside)
    const int t[12][3] = {{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6}, {0, 1, 5}, {0, 5, 4},
                          {2, 6, 7}, {2, 7, 3}, {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}};
    std::vector<Triangle> ts;
    for (auto &x : t) ts.push_back(Triangle(x[0], x[1], x[2]));
    auto m = std::make_shared<BVHModel<RSSd>>();
    if (m->beginModel(12, 8) != BVH_OK || m->addSubModel(ps, ts) != BVH_OK || m->endModel() != BVH_OK) return 1;
    m->computeLocalAABB();
    Transform3d a = Transform3d::Identity(), b0 = Transform3d::Identity(), b1 = Transform3d::Identity();
    b0.translation() = Vector3d(3, 0, 0);
    b1.translation() = Vector3d(-3, 0, 0);
    const CCDMotionType types[2] = {CCDM_TRANS, CCDM_LINEAR};
    const char *names[2] = {"CCDM_TRANS", "CCDM_LINEAR"};
    for (int k = 0; k < 2; k++) {
        ContinuousCollisionRequestd req;
        req.ccd_motion_type = types[k];
        req.ccd_solver_type = CCDC_CONSERVATIVE_ADVANCEMENT;
        ContinuousCollisionResultd res;
        continuousCollide(m.get(), a, a, m.get(), b0, b1, req, res);
        printf("cubes head on, %s: is_collide=%d time_of_contact=%.6g (right answer: 1, 0.333333)\n", names[k],
               (int)res.is_collide, res.time_of_contact);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: fcl_ccd FILE | fcl_ccd --cubes\n");
        return 2;
    }
    if (strcmp(argv[1], "--cubes") == 0) return cubes();
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        fprintf(stderr, "fcl_ccd: cannot read %s\n", argv[1]);
        return 1;
    }
    char name[64];
    int nq;
    while (fscanf(f, " pair %63s %d", name, &nq) == 2) {
        auto g = read_mesh<RSSd>(f);
        if (!g) {
            fprintf(stderr, "fcl_ccd: bad mesh in pair %s\n", name);
            return 1;
        }
        ContinuousCollisionRequestd req;
        req.ccd_motion_type = CCDM_LINEAR;
        req.ccd_solver_type = CCDC_CONSERVATIVE_ADVANCEMENT;
        double total = 0, maxdiff = 0, t_hit = 0, t_miss = 0;
        int hits = 0, missed = 0, late = 0, extra = 0, ours_hits = 0, extra_touching = 0;
        double extra_min_dist = INFINITY;
        for (int q = 0; q < nq; q++) {
            double v[30];
            if (fscanf(f, " query") != 0) return 1;
            for (int k = 0; k < 30; k++)
                if (fscanf(f, "%lf", &v[k]) != 1) {
                    fprintf(stderr, "fcl_ccd: bad query line\n");
                    return 1;
                }
            Transform3d a0 = pose(v), a1 = pose(v + 7), b0 = pose(v + 14), b1 = pose(v + 21);
            bool ours = v[28] != 0;
            double s = v[29];
            ContinuousCollisionResultd res;
            int reps = 0;
            double t0 = now(), t1;
            do {
                res = ContinuousCollisionResultd();
                continuousCollide(g.get(), a0, a1, g.get(), b0, b1, req, res);
                reps++;
                t1 = now();
            } while (t1 - t0 < 2e-3);
            total += (t1 - t0) / reps;
            (ours ? t_hit : t_miss) += (t1 - t0) / reps;
            ours_hits += ours;
            hits += res.is_collide;
            if (ours && !res.is_collide) missed++;
            if (!ours && res.is_collide) {
                extra++;
                InterpMotion<double> ma(a0, a1), mb(b0, b1);
                ma.integrate(res.time_of_contact);
                mb.integrate(res.time_of_contact);
                Transform3d ta, tb;
                ma.getCurrentTransform(ta);
                mb.getCurrentTransform(tb);
                CollisionRequestd creq;
                CollisionResultd cres;
                collide(g.get(), ta, g.get(), tb, creq, cres);
                if (cres.isCollision()) extra_touching++;
                else {
                    DistanceRequestd dreq;
                    DistanceResultd dres;
                    distance(g.get(), ta, g.get(), tb, dreq, dres);
                    extra_min_dist = std::fmin(extra_min_dist, dres.min_distance);
                }
            }
            if (ours && res.is_collide) {
                if (res.time_of_contact > s + 1e-6) late++;
                maxdiff = std::fmax(maxdiff, std::fabs(res.time_of_contact - s));
            }
        }
        int ours_misses = nq - ours_hits;
        printf("%-12s fcl_ca: %.3f ms/query (our hits %.3f, our misses %.3f) hits=%d misses=%d missed=%d late=%d "
               "extra=%d (extra_touching=%d extra_min_dist=%.3g) max|toc-s|=%.3g\n",
               name, 1e3 * total / nq, ours_hits > 0 ? 1e3 * t_hit / ours_hits : 0.0,
               ours_misses > 0 ? 1e3 * t_miss / ours_misses : 0.0, hits, nq - hits, missed, late, extra, extra_touching,
               extra_min_dist, maxdiff);
    }
    return 0;
}
