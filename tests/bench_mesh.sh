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
#      the number of dump lines.
#   2. So that this cannot pass vacuously, the truth must hold mesh-mesh, mesh-hull,
#      mesh-sphere or mesh-capsule, and floor pairs (the static mesh against moving bodies).
#   3. MESH_TRUTH (tests/mesh_truth.c) decides every body pair of the first TRUTH_FRAMES
#      frames (default 3) exactly, with no Colibri collision code (every triangle pair and
#      triangle-solid pair in rationals), and the truth's dump must equal it there.
set -eu
bench=${1:?usage: bench_mesh.sh COLIBRI_BENCH MESH_TRUTH SCENE [TRUTH_FRAMES]}
truth_tool=${2:?usage: bench_mesh.sh COLIBRI_BENCH MESH_TRUTH SCENE [TRUTH_FRAMES]}
scene=${3:?usage: bench_mesh.sh COLIBRI_BENCH MESH_TRUTH SCENE [TRUTH_FRAMES]}
truth_frames=${4:-3}
[ -x "$bench" ] || { echo "bench_mesh: no executable $bench (build the project first)" >&2; exit 1; }
[ -x "$truth_tool" ] || { echo "bench_mesh: no executable $truth_tool (build the project first)" >&2; exit 1; }
[ -r "$scene" ] || { echo "bench_mesh: no scene $scene (meson makes it: ninja -C build)" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench_mesh.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
fail() {
    echo "bench_mesh: $*" >&2
    exit 1
}
field() { sed -n "s/.*[[:space:]]$1=\([^ ]*\).*/\1/p"; }

# run NAME ARGS...: colibri-bench ARGS --dump-pairs $tmp/NAME.pairs SCENE; its report line in
# $tmp/NAME.out; a failed run fails the test, with colibri-bench's message.
run() {
    name=$1
    shift
    if ! "$bench" "$@" --dump-pairs "$tmp/$name.pairs" "$scene" >"$tmp/$name.out" 2>"$tmp/$name.err"; then
        cat "$tmp/$name.err" >&2
        fail "$name: colibri-bench $* failed"
    fi
    cat "$tmp/$name.out"
}

run truth --brute --backend reference
lines=$(wc -l <"$tmp/truth.pairs" | tr -d ' ')
hash=$(field pairhash <"$tmp/truth.out")
[ "$(field pairs <"$tmp/truth.out")" = "$lines" ] || fail "truth: pairs= is not the number of dump lines ($lines)"
[ -n "$hash" ] || fail "truth: no pairhash in the report"

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

# same NAME: run NAME gave exactly the truth.
same() {
    if ! cmp -s "$tmp/$1.pairs" "$tmp/truth.pairs"; then
        echo "bench_mesh: $1: pairs differ from the truth (< $1, > truth):" >&2
        diff "$tmp/$1.pairs" "$tmp/truth.pairs" | head -20 >&2
        fail "$1 disagrees with --brute --backend reference"
    fi
    [ "$(field pairhash <"$tmp/$1.out")" = "$hash" ] || fail "$1: pairhash differs from the truth's $hash"
    [ "$(field pairs <"$tmp/$1.out")" = "$lines" ] || fail "$1: pairs= differs from the truth's $lines"
}

backends=$("$bench" --list-backends)
[ -n "$backends" ] || fail "colibri-bench --list-backends named no backend"
for b in default $backends; do
    run "world-$b" --backend "$b"
    same "world-$b"
    if [ "$b" != reference ]; then
        run "brute-$b" --brute --backend "$b"
        same "brute-$b"
    fi
done
run every-2 --threads 2 --schedule every
same every-2
run moving-floor --static none
same moving-floor

# The truth against the exact decision of the first frames.
"$truth_tool" "$scene" "$truth_frames" "$tmp/truth.pairs" || fail "the pairs are not the exact ones (tests/mesh_truth.c)"
echo "bench_mesh: ok ($lines pairs, backends: default $(echo $backends))"
