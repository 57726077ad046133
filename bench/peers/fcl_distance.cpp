// SPDX-License-Identifier: MIT
// fcl_distance: times FCL's fcl::distance on the mesh pairs and poses that
// `mesh-distance --write FILE` (bench/mesh_distance.c) wrote, and compares FCL's distances
// with ours (written in the same file). Not part of the build or the tests: it needs
// Debian's libfcl-dev, and scripts/fcl-distance compiles and runs it.
//
//   fcl_distance FILE [rss|obbrss]
//
// Each mesh becomes a fcl::BVHModel of the chosen bounding volume (default RSS, the
// volume FCL's mesh distance is built for; beginModel / addSubModel / endModel: FCL's
// default split). Poses use the rotation-matrix formula of docs/scenes.md, as ours do.
#include <fcl/fcl.h>

#include "fcl_mesh_io.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <time.h>
#include <vector>

using namespace fcl;

static Transform3d pose(const double *v) // px py pz qw qx qy qz
{
    double w = v[3], x = v[4], y = v[5], z = v[6];
    Matrix3d R;
    R << 1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y), 2 * (x * y + w * z),
        1 - 2 * (x * x + z * z), 2 * (y * z - w * x), 2 * (x * z - w * y), 2 * (y * z + w * x),
        1 - 2 * (x * x + y * y);
    Transform3d t = Transform3d::Identity();
    t.linear() = R;
    t.translation() = Vector3d(v[0], v[1], v[2]);
    return t;
}

template <class BV>
static int run(FILE *f, const char *bvname)
{
    char name[64];
    int nq;
    printf("%-12s %12s %12s %s\n", "pair", "fcl_us", "max_diff", bvname);
    while (fscanf(f, " pair %63s %d", name, &nq) == 2) {
        auto ga = read_mesh<BV>(f), gb = read_mesh<BV>(f);
        if (!ga || !gb) {
            fprintf(stderr, "fcl_distance: bad mesh in pair %s\n", name);
            return 1;
        }
        double total = 0, maxdiff = 0;
        for (int q = 0; q < nq; q++) {
            double v[15];
            if (fscanf(f, " query") != 0) return 1;
            for (int k = 0; k < 15; k++)
                if (fscanf(f, "%lf", &v[k]) != 1) {
                    fprintf(stderr, "fcl_distance: bad query line\n");
                    return 1;
                }
            CollisionObjectd oa(ga, pose(v)), ob(gb, pose(v + 7));
            DistanceRequestd req;
            DistanceResultd res;
            int reps = 0;
            double t0 = now(), t1;
            do {
                res.clear();
                distance(&oa, &ob, req, res);
                reps++;
                t1 = now();
            } while (t1 - t0 < 2e-3);
            total += (t1 - t0) / reps;
            double d = res.min_distance < 0 ? 0 : res.min_distance;
            maxdiff = std::fmax(maxdiff, std::fabs(d - v[14]));
        }
        printf("%-12s %12.2f %12.3g\n", name, 1e6 * total / nq, maxdiff);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: fcl_distance FILE [rss|obbrss]\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        fprintf(stderr, "fcl_distance: cannot read %s\n", argv[1]);
        return 1;
    }
    std::string bv = argc > 2 ? argv[2] : "rss";
    int r = bv == "obbrss" ? run<OBBRSSd>(f, "OBBRSS") : run<RSSd>(f, "RSS");
    fclose(f);
    return r;
}
