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

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench_round.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
fail() {
    echo "bench_round: $*" >&2
    exit 1
}
field() { sed -n "s/.*[[:space:]]$1=\([^ ]*\).*/\1/p"; }

# run NAME ARGS...: colibri-bench ARGS --dump-pairs $tmp/NAME.pairs SCENE; its report line in
# $tmp/NAME.out; a failed run (such as a library that refuses spheres) fails the test, with
# colibri-bench's message.
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

# same NAME: run NAME gave exactly the truth.
same() {
    if ! cmp -s "$tmp/$1.pairs" "$tmp/truth.pairs"; then
        echo "bench_round: $1: pairs differ from the truth (< $1, > truth):" >&2
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
echo "bench_round: ok ($lines pairs, backends: default $(echo $backends))"
