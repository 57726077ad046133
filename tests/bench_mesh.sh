#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/bench_mesh.sh COLIBRI_BENCH MESH_TRUTH SCENE [TRUTH_FRAMES]
#
# Scene-level check of triangle meshes (issue 16, docs/scenes.md "Version 2: triangle
# meshes") on SCENE, a small scene meson makes with colibri-scene-gen (tests/meson.build):
# moving meshes of every kind (torus knots, bumpy spheres, open patches, soups with
# degenerate triangles), a static floor, hulls, spheres and capsules.
#   1. The truth of the runs is `colibri-bench --brute --backend reference` (the reference
#      backend's query on every pair i < j, no broad phase). For every backend
#      colibri-bench --list-backends names and for `default`, the world run and the --brute
#      run with that backend dump exactly its pairs; so do a two-worker world run with
#      --schedule every and a run with --static none (the floor a moving body set every
#      frame instead of a static one). Each run's pairhash must be the truth's, and pairs=
#      the number of dump lines. On the scene with a second copy of the floor, the default
#      run (two static bodies: their pair decided once at set-up), --static none and the
#      brute force agree and hold that pair in every frame.
#   2. So that this cannot pass vacuously, the truth must hold mesh-mesh, mesh-hull,
#      mesh-sphere or mesh-capsule, and floor pairs (the static mesh against moving bodies).
#   3. MESH_TRUTH (tests/mesh_truth.c) decides every body pair of the first TRUTH_FRAMES
#      frames (default 5) exactly, with no Colibri collision code (every triangle pair and
#      triangle-solid pair in rationals), and the truth's dump must equal it there.
set -eu
bench=${1:?usage: bench_mesh.sh COLIBRI_BENCH MESH_TRUTH SCENE [TRUTH_FRAMES]}
truth_tool=${2:?usage: bench_mesh.sh COLIBRI_BENCH MESH_TRUTH SCENE [TRUTH_FRAMES]}
scene=${3:?usage: bench_mesh.sh COLIBRI_BENCH MESH_TRUTH SCENE [TRUTH_FRAMES]}
truth_frames=${4:-5}
[ -x "$bench" ] || { echo "bench_mesh: no executable $bench (build the project first)" >&2; exit 1; }
[ -x "$truth_tool" ] || { echo "bench_mesh: no executable $truth_tool (build the project first)" >&2; exit 1; }
[ -r "$scene" ] || { echo "bench_mesh: no scene $scene (meson makes it: ninja -C build)" >&2; exit 1; }

who=bench_mesh
# shellcheck source=tests/bench_lib.sh
. "$(dirname "$0")/bench_lib.sh"

bench_truth

# The kinds of the truth's pairs: the shape records in order give each shape's kind (a hull's
# and a mesh's lines are skipped), the body records each body's shape; a body with v = w = 0
# is still (the floor).
awk '
FNR == NR {
    if (skip > 0) { skip--; next }
    if ($1 ~ /^#/) next
    if ($1 == "shape") { kind[ns++] = "hull"; skip = $2; next }
    if ($1 == "mesh") { kind[ns++] = "mesh"; skip = $2 + $3; next }
    if ($1 == "sphere") { kind[ns++] = "round"; next }
    if ($1 == "capsule") { kind[ns++] = "round"; next }
    if ($1 == "b") {
        body[nb] = kind[$2]
        still[nb] = $10 == 0 && $11 == 0 && $12 == 0 && $13 == 0 && $14 == 0 && $15 == 0
        nb++
    }
    next
}
{
    a = body[$2]; b = body[$3]
    if (a > b) { t = a; a = b; b = t }
    count[a "-" b]++
    if (still[$2] || still[$3]) floor++
}
END {
    split("mesh-mesh hull-mesh mesh-round hull-hull hull-round round-round", want, " ")
    bad = 0
    for (k = 1; k <= 6; k++) {
        printf "bench_mesh: %s pairs: %d\n", want[k], count[want[k]]
        if (k <= 3 && count[want[k]] == 0) bad = 1
    }
    printf "bench_mesh: pairs with the still floor: %d\n", floor
    if (floor == 0) bad = 1
    exit bad
}' "$scene" "$tmp/truth.pairs" || fail "the truth lacks a kind of mesh pair: the scene does not test it (make it denser)"

bench_backends
run moving-floor --static none
same moving-floor

# Two still bodies: the floor and a copy of it, which the world never pairs (both static),
# so colibri-bench decides their pair once at set-up and adds it to every frame. The default
# run, a --static none run and the reference brute force must agree, and hold that pair in
# every frame.
awk '$1 == "b" { last = $0 } $1 == "bodies" { $2 = $2 + 1; n = $2 } { print } END { print last }' "$scene" \
    >"$tmp/two-floors.scene"
floor=$(($(grep -c '^b ' "$scene") - 1))
frames=$(sed -n 's/^frames //p' "$scene")
for args in "--brute --backend reference" "" "--static none"; do
    # shellcheck disable=SC2086
    "$bench" $args --dump-pairs "$tmp/two.pairs" "$tmp/two-floors.scene" >/dev/null || fail "two floors: colibri-bench $args failed"
    if [ -z "${first:-}" ]; then
        first=$tmp/two-first.pairs
        mv "$tmp/two.pairs" "$first"
        [ "$(grep -c " $floor $((floor + 1))\$" "$first")" = "$frames" ] ||
            fail "two floors: the pair of the floor and its copy is not in all $frames frames"
    else
        cmp -s "$tmp/two.pairs" "$first" || fail "two floors: colibri-bench $args differs from the brute force"
    fi
done

# The truth against the exact decision of the first frames.
"$truth_tool" "$scene" "$truth_frames" "$tmp/truth.pairs" || fail "the pairs are not the exact ones (tests/mesh_truth.c)"
echo "bench_mesh: ok ($lines pairs, backends: default $(echo $backends))"
