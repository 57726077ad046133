#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/bench_brute.sh [COLIBRI_BENCH [COLIBRI_SCENE_GEN]]
#
# Scene-level check of the whole pipeline (poses, broad phase, narrow phase, pair list):
# on small scenes made by our generator (bench/scene_gen.c, docs/scenes.md), colibri-bench's
# world run must report exactly the pairs of its --brute run (col_query_overlap on all
# pairs i < j), frame by frame, with the same pairhash and at least one colliding pair (so
# a run that finds nothing cannot pass). Both runs' --csv rows (issue 21) must add up to
# their report's pairs= and narrow_calls=, one row per frame after the header, and the
# brute run must not claim a schedule it does not use.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bench=${1:-$here/../build/bench/colibri-bench}
gen=${2:-$here/../build/bench/colibri-scene-gen}

for exe in "$bench" "$gen"; do
    if [ ! -x "$exe" ]; then
        echo "bench_brute: no executable $exe (build the project first)" >&2
        exit 1
    fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench_brute.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

field() { sed -n "s/.*[[:space:]]$1=\([^ ]*\).*/\1/p"; }

# check NAME GEN_ARGS...: generate the scene, run both ways, compare.
check() {
    name=$1
    shift
    "$gen" "$@" -o "$tmp/$name.scene"
    world=$("$bench" --dump-pairs "$tmp/$name.world" --csv "$tmp/$name.world.csv" "$tmp/$name.scene")
    brute=$("$bench" --brute --dump-pairs "$tmp/$name.brute" --csv="$tmp/$name.brute.csv" "$tmp/$name.scene")
    echo "$world"
    echo "$brute"
    if ! cmp -s "$tmp/$name.world" "$tmp/$name.brute"; then
        echo "bench_brute: $name: world and brute-force pairs differ (< world, > brute):" >&2
        diff "$tmp/$name.world" "$tmp/$name.brute" | head -20 >&2
        return 1
    fi
    hw=$(echo "$world" | field pairhash)
    hb=$(echo "$brute" | field pairhash)
    if [ -z "$hw" ] || [ "$hw" != "$hb" ]; then
        echo "bench_brute: $name: pairhash differs: world '$hw', brute '$hb'" >&2
        return 1
    fi
    pw=$(echo "$world" | field pairs)
    lines=$(wc -l <"$tmp/$name.world" | tr -d ' ')
    if [ -z "$pw" ] || [ "$pw" = 0 ]; then
        echo "bench_brute: $name: no colliding pairs at all: the scene tests nothing" >&2
        return 1
    fi
    if [ "$pw" != "$lines" ]; then
        echo "bench_brute: $name: pairs=$pw but the dump has $lines lines" >&2
        return 1
    fi
    for run in world brute; do
        report=$(if [ $run = world ]; then echo "$world"; else echo "$brute"; fi)
        want="$(echo "$report" | field frames) $(echo "$report" | field pairs) $(echo "$report" | field narrow_calls)"
        got=$(awk -F, 'NR == 1 { if ($0 != "frame,ms,pairs,narrow_calls") bad = 1; next }
                       $1 != NR - 2 || $2 < 0 { bad = 1 }
                       { n++; p += $3; c += $4 }
                       END { if (bad) print "bad"; else print n, p, c }' "$tmp/$name.$run.csv")
        if [ "$got" != "$want" ]; then
            echo "bench_brute: $name: the $run run's CSV gives frames, pairs, calls '$got', its report '$want'" >&2
            return 1
        fi
    done
    if [ "$(echo "$brute" | field schedule)" != none ]; then
        echo "bench_brute: $name: the brute run reports schedule=$(echo "$brute" | field schedule), not none" >&2
        return 1
    fi
}

check mix --seed 11 --bodies 60 --verts 24 --kinds mix --shapes 12 --density 0.2 --frames 40
check box --seed 12 --bodies 60 --verts 8-30 --kinds box --shapes 12 --density 0.2 --frames 40
echo "bench_brute: ok"
