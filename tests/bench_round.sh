#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/bench_round.sh COLIBRI_BENCH SCENE
#
# Scene-level check of spheres and capsules among hulls (issue 15, docs/scenes.md): on SCENE,
# a `--kinds round` scene that meson makes in the build directory (tests/meson.build), the
# truth is `colibri-bench --brute --backend reference` (the exact query of the reference
# backend on every pair i < j, no broad phase). Then, for every backend colibri-bench
# --list-backends names and for `default`:
#   - the world run (broad phase, schedule, the backend) dumps exactly the truth's pairs,
#   - the --brute run with that backend (its query on every pair) dumps exactly them too;
# and a two-worker world run with --schedule every as well. Each run's pairhash must be the
# truth's and its pairs= the number of dump lines. So that the check cannot pass vacuously,
# the truth must hold colliding pairs of all six kinds: sphere-sphere, sphere-capsule,
# capsule-capsule, sphere-hull, capsule-hull and hull-hull.
set -eu
bench=${1:?usage: bench_round.sh COLIBRI_BENCH SCENE}
scene=${2:?usage: bench_round.sh COLIBRI_BENCH SCENE}
[ -x "$bench" ] || { echo "bench_round: no executable $bench (build the project first)" >&2; exit 1; }
[ -r "$scene" ] || { echo "bench_round: no scene $scene (meson makes it: ninja -C build)" >&2; exit 1; }

who=bench_round
# shellcheck source=tests/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"

bench_truth

# The kinds of the truth's pairs: the scene's shape records in order give each shape's kind,
# the body records each body's shape.
awk '
FNR == NR {
    if ($1 == "shape") { kind[ns++] = "hull"; skip = $2; next }   # its points follow
    if (skip > 0) { skip--; next }
    if ($1 == "sphere") { kind[ns++] = "sphere"; next }
    if ($1 == "capsule") { kind[ns++] = ($2 + 0 > 0 ? "capsule" : "sphere"); next }
    if ($1 == "b") body[nb++] = kind[$2]
    next
}
{
    a = body[$2]; b = body[$3]
    if (a > b) { t = a; a = b; b = t }
    count[a "-" b]++
}
END {
    split("sphere-sphere capsule-sphere capsule-capsule hull-sphere capsule-hull hull-hull", want, " ")
    bad = 0
    for (k = 1; k <= 6; k++) {
        printf "bench_round: %s pairs: %d\n", want[k], count[want[k]]
        if (count[want[k]] == 0) bad = 1
    }
    exit bad
}' "$scene" "$tmp/truth.pairs" || fail "the truth lacks a kind of pair: the scene does not test it (make it denser)"

bench_backends
echo "bench_round: ok ($lines pairs, backends: default $(echo $backends))"
