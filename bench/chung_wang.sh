#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/chung_wang.sh BUILD_DIR OUT_DIR [FRAMES]
# Chung & Wang's own set-up (VRST 1996, section 6; docs/sepvec.md, "The paper's set-up"):
# 500 bodies, each an ellipsoid hull (random points on the surface of semi-axes 1, 0.6,
# 0.4) of 10 to 1000 vertices, moving 5 % of their radius and turning 10 degrees per frame,
# and the paper's speed-up claim's set-up, 500 vertices at 20 % of the radius per frame;
# and two rows with 5 distinct hulls instead of 500 (the cost of memory traffic).
# Writes the scenes to OUT_DIR with the project's generator (the standard scenes' rules,
# docs/scenes.md, density 0.03 as cw500), then prints two Markdown tables:
#   sepvec-stats cw   the same pairs queried by sepvec and by the closest-feature backend
#                     (voronoi, V-Clip): steps, repeat rate, ns per query, narrow-phase ms;
#   colibri-bench     whole frames (broad phase, schedule, narrow phase) with either
#                     backend, one worker, the median frame time (the best of three runs),
#                     both schedules (every: every pair tested every frame, as the paper).
# Timings are information only (shared machine): compare the ratios of one run.
set -eu
build=${1:?usage: bench/chung_wang.sh BUILD_DIR OUT_DIR [FRAMES]}
out=${2:?usage: bench/chung_wang.sh BUILD_DIR OUT_DIR [FRAMES]}
frames=${3:-200}
gen="$build/bench/colibri-scene-gen"
mkdir -p "$out"
scenes=""
for v in 10 20 50 100 200 500 1000; do
    "$gen" --seed 1 --bodies 500 --verts "$v" --kinds ellipsoid --shapes 500 --density 0.03 \
        --speed 0.05 --spin 10 --frames "$frames" -o "$out/ell$v.scene"
    scenes="$scenes $out/ell$v.scene"
done
"$gen" --seed 1 --bodies 500 --verts 500 --kinds ellipsoid --shapes 500 --density 0.03 \
    --speed 0.2 --spin 10 --frames "$frames" -o "$out/ell500-fast.scene"
scenes="$scenes $out/ell500-fast.scene"
# the same bodies sharing 5 hulls: the data of a query stays in the processor's caches
for v in 10 1000; do
    "$gen" --seed 1 --bodies 500 --verts "$v" --kinds ellipsoid --shapes 5 --density 0.03 \
        --speed 0.05 --spin 10 --frames "$frames" -o "$out/ell$v-5shapes.scene"
    scenes="$scenes $out/ell$v-5shapes.scene"
done
echo "load: $(uptime)"
echo
# shellcheck disable=SC2086
"$build/bench/sepvec-stats" cw $scenes --frames "$frames"
echo "### Whole frames: colibri-bench, one worker, median ms per frame (the best of 3 runs)"
echo
echo "| scene | schedule | sepvec | voronoi | voronoi / sepvec | pairhash (both) |"
echo "|---|---|---|---|---|---|"
for s in ell10 ell100 ell500 ell1000 ell500-fast; do
    for sched in every ttc; do
        # the best median of three runs of each, alternating (other processes only add time)
        ma=1e9 mb=1e9
        for round in 1 2 3; do
            a=$("$build/bench/colibri-bench" "$out/$s.scene" --backend sepvec --threads 1 --schedule "$sched")
            b=$("$build/bench/colibri-bench" "$out/$s.scene" --backend voronoi --threads 1 --schedule "$sched")
            ma=$(echo "$a" | sed -n 's/.*frame_ms_median=\([0-9.]*\).*/\1/p' | awk -v m="$ma" '{print ($1 < m ? $1 : m)}')
            mb=$(echo "$b" | sed -n 's/.*frame_ms_median=\([0-9.]*\).*/\1/p' | awk -v m="$mb" '{print ($1 < m ? $1 : m)}')
        done
        ha=$(echo "$a" | sed -n 's/.*pairhash=\(0x[0-9a-f]*\).*/\1/p')
        hb=$(echo "$b" | sed -n 's/.*pairhash=\(0x[0-9a-f]*\).*/\1/p')
        [ "$ha" = "$hb" ] || ha="$ha vs $hb DIFFER"
        echo "| $s | $sched | $ma | $mb | $(echo "$mb $ma" | awk '{printf "%.1fx", $1 / $2}') | $ha |"
    done
done
echo
echo "load: $(uptime)"
