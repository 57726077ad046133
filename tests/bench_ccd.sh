#!/bin/sh
# SPDX-License-Identifier: MIT
# colibri-bench --ccd and --dump-toi (docs/scenes.md "Continuous mode", docs/ccd.md) on two
# small scenes:
#  - a fast scene of every convex kind (2 radii and 60 degrees per frame): the pair and
#    time-of-impact dumps are the same for 1 and 2 workers and equal the brute force
#    (--brute --ccd: col_toi on every pair i < j); every frame's --ccd pairs hold the
#    discrete pairs of that frame and of the one before; tests/ccd_truth.c finds no contact
#    missing, late or too early against its substep-and-bisect reference;
#  - thin static plates (0.01 thick) and small fast cubes (10 to 100 plate thicknesses per
#    frame), written here: zero tunneling against ccd_truth, and the discrete run misses
#    contacts the continuous one reports (the scene does tunnel without --ccd).
bench=${1:?usage: bench_ccd.sh COLIBRI_BENCH CCD_TRUTH SCENE_GEN}
truth=${2:?usage: bench_ccd.sh COLIBRI_BENCH CCD_TRUTH SCENE_GEN}
gen=${3:?usage: bench_ccd.sh COLIBRI_BENCH CCD_TRUTH SCENE_GEN}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "bench_ccd: $*"; exit 1; }

"$gen" --seed 17 --bodies 40 --verts 12 --kinds round --shapes 8 --density 0.2 --speed 2 --spin 60 \
    --frames 8 -o "$tmp/fast.scene" || fail "scene_gen failed"
"$bench" "$tmp/fast.scene" --ccd --threads 1 --dump-pairs "$tmp/p1" --dump-toi "$tmp/t1" >/dev/null || fail "run 1"
"$bench" "$tmp/fast.scene" --ccd --threads 2 --dump-pairs "$tmp/p2" --dump-toi "$tmp/t2" >/dev/null || fail "run 2"
"$bench" "$tmp/fast.scene" --ccd --brute --dump-pairs "$tmp/pb" --dump-toi "$tmp/tb" >/dev/null || fail "brute"
"$bench" "$tmp/fast.scene" --dump-pairs "$tmp/d" >/dev/null || fail "discrete run"
cmp -s "$tmp/t1" "$tmp/t2" || fail "1 and 2 workers differ"
cmp -s "$tmp/t1" "$tmp/tb" || { diff "$tmp/t1" "$tmp/tb" | head; fail "--ccd differs from the brute force"; }
cut -d' ' -f1-3 "$tmp/t1" | cmp -s - "$tmp/p1" || fail "--dump-toi is not in the pair dump's order"
# each discrete pair (f, i, j) must be a --ccd pair of frame f and (for f + 1 < frames) f + 1
awk 'NR == FNR { have[$1 " " $2 " " $3] = 1; next }
     { if (!(($1 " " $2 " " $3) in have)) { print "missing " $0; bad = 1 }
       if ($1 < 7 && !((($1 + 1) " " $2 " " $3) in have)) { print "missing next " $0; bad = 1 } }
     END { exit bad }' "$tmp/p1" "$tmp/d" || fail "--ccd pairs do not hold the discrete pairs"
[ "$(wc -l <"$tmp/p1")" -gt "$(wc -l <"$tmp/d")" ] || fail "the fast scene has no contact between frames"
"$truth" "$tmp/fast.scene" "$tmp/t1" || fail "ccd_truth on the fast scene"

# Thin plates and fast cubes (docs/scenes.md format): six static plates 1.2 x 1.2 x 0.01, 30
# cubes 0.04 wide moving 0.1 to 1 per frame along z, turning up to 0.5 rad per frame.
awk 'BEGIN {
    srand(23); L = 4; print "colibri-scene 1"; print "room " L; print "frames 12"; print "shapes 2"
    print "shape 8"; for (k = 0; k < 8; k++) printf "%g %g %g\n", (k % 2 ? 0.6 : -0.6), (int(k / 2) % 2 ? 0.6 : -0.6), (k >= 4 ? 0.005 : -0.005)
    print "shape 8"; for (k = 0; k < 8; k++) printf "%g %g %g\n", (k % 2 ? 0.02 : -0.02), (int(k / 2) % 2 ? 0.02 : -0.02), (k >= 4 ? 0.02 : -0.02)
    print "bodies 36"
    for (p = 0; p < 6; p++) printf "b 0 %g %g %g 1 0 0 0 0 0 0 0 0 0\n", (p < 3 ? 1.2 : 2.8), (p < 3 ? 1.2 : 2.8), 1 + (p % 3)
    for (c = 0; c < 30; c++) {
        side = c % 2; cx = (side ? 2.8 : 1.2) + (rand() - 0.5) * 1.3; cy = (side ? 2.8 : 1.2) + (rand() - 0.5) * 1.3
        vz = (0.1 + 0.9 * rand()) * (rand() < 0.5 ? -1 : 1)
        printf "b 1 %.17g %.17g %.17g 1 0 0 0 %.17g %.17g %.17g %.17g %.17g %.17g\n", cx, cy, 0.5 + 3 * rand(),
            (rand() - 0.5) * 0.02, (rand() - 0.5) * 0.02, vz, (rand() - 0.5), (rand() - 0.5), (rand() - 0.5)
    } }' >"$tmp/plates.scene"
"$bench" "$tmp/plates.scene" --ccd --threads 2 --dump-pairs "$tmp/pp" --dump-toi "$tmp/tp" >/dev/null || fail "plates run"
"$bench" "$tmp/plates.scene" --dump-pairs "$tmp/dp" >/dev/null || fail "plates discrete run"
"$truth" "$tmp/plates.scene" "$tmp/tp" || fail "ccd_truth on the plates (tunneling)"
nc=$(wc -l <"$tmp/pp"); nd=$(wc -l <"$tmp/dp")
[ "$nc" -gt "$nd" ] || fail "the plate scene does not tunnel without --ccd ($nd discrete, $nc continuous pairs)"
echo "bench_ccd: ok (plates: $nd discrete pairs, $nc continuous)"
