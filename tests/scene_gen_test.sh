#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/scene_gen_test.sh COLIBRI_SCENE_GEN
#
# colibri-scene-gen (bench/scene_gen.c, docs/scenes.md): the same options write the same
# file; the records say what the options asked for (frames, shapes, bodies, points per
# shape, shape assignment, a room every shape fits in, speeds and spins of the asked size;
# with --kinds round, spheres and capsules of the documented sizes in a version-2 file; with
# --meshes and --floor, mesh records of the kinds, sizes and placements asked for, the convex
# bodies unchanged by them);
# bad options are refused with exit status 2, a message and no file.
set -eu
gen=${1:?usage: scene_gen_test.sh COLIBRI_SCENE_GEN}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/scene_gen_test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
fail() {
    echo "scene_gen_test: $*" >&2
    exit 1
}

args="--seed 7 --bodies 40 --verts 9-12 --kinds box,rod --shapes 5 --density 0.2 --speed 0.3 --spin 20 --frames 17"
# shellcheck disable=SC2086
"$gen" $args -o "$tmp/a.scene"
# shellcheck disable=SC2086
"$gen" $args >"$tmp/b.scene"
cmp -s "$tmp/a.scene" "$tmp/b.scene" || fail "two runs with the same options differ"
# shellcheck disable=SC2086
"$gen" $(echo "$args" | sed 's/--seed 7/--seed 8/') -o "$tmp/c.scene"
cmp -s "$tmp/a.scene" "$tmp/c.scene" && fail "another seed wrote the same file"

# awk: the radius of a hull record's nv points, read from the lines that follow it
# (docs/scenes.md: the farthest point from the origin); each program defines fail().
hull_radius_awk='
function hull_radius(nv,    i, line, x, d, r) {
    r = 0
    for (i = 0; i < nv; i++) {
        if ((getline line) <= 0) fail("short shape")
        split(line, x, " ")
        d = sqrt(x[1] * x[1] + x[2] * x[2] + x[3] * x[3])
        if (d > r) r = d
    }
    return r
}'

# Every record checked against the options (docs/scenes.md); awk prints what is wrong.
awk -v want_bodies=40 -v want_shapes=5 -v want_frames=17 -v vmin=9 -v vmax=12 \
    -v speed=0.3 -v spin_deg=20 "$hull_radius_awk"'
function fail(msg) { print "scene_gen_test: line " NR ": " msg; bad = 1; exit 1 }
/^#/ { next }
NR == 1 { if ($0 != "colibri-scene 1") fail("first line is not colibri-scene 1"); next }
$1 == "room" { L = $2 + 0; next }
$1 == "frames" { if ($2 != want_frames) fail("frames " $2); next }
$1 == "shapes" { if ($2 != want_shapes) fail("shapes " $2); next }
$1 == "shape" {
    s = nshape++; nv = $2
    # box shapes (even index with --kinds box,rod) have at least their 8 corners, rods at least vmin
    if (nv < vmin || nv > vmax) fail("shape " s " has " nv " points, not in " vmin ".." vmax)
    r[s] = hull_radius(nv)
    next
}
$1 == "bodies" { if ($2 != want_bodies) fail("bodies " $2); next }
$1 == "b" {
    b = nbody++
    if ($2 != b % want_shapes) fail("body " b " has shape " $2 ", want " b % want_shapes " (round robin)")
    rr = r[$2]
    for (k = 3; k <= 5; k++) if ($k < rr || $k > L - rr) fail("body " b " starts outside [r, L - r]")
    qn = $6 * $6 + $7 * $7 + $8 * $8 + $9 * $9
    if (qn < 1 - 1e-12 || qn > 1 + 1e-12) fail("body " b " has a quaternion of squared length " qn)
    v = sqrt($10 * $10 + $11 * $11 + $12 * $12)
    if (v < speed * rr * (1 - 1e-12) || v > speed * rr * (1 + 1e-12)) fail("body " b " speed " v ", want " speed * rr)
    w = sqrt($13 * $13 + $14 * $14 + $15 * $15); want = spin_deg * 3.14159265358979323846 / 180
    if (w < want * (1 - 1e-12) || w > want * (1 + 1e-12)) fail("body " b " spin " w ", want " want)
    next
}
{ fail("unexpected record: " $0) }
END {
    if (bad) exit 1
    if (nshape != want_shapes || nbody != want_bodies) { print "scene_gen_test: " nshape " shapes, " nbody " bodies"; exit 1 }
    for (s = 0; s < nshape; s++) if (!(2 * r[s] < L)) { print "scene_gen_test: shape " s " does not fit the room"; exit 1 }
}' "$tmp/a.scene" || fail "the scene does not match its options"

# Spheres and capsules (--kinds round, docs/scenes.md): a version-2 scene, the same for the
# same options; shape s is of kind round[s mod 8]; a sphere's R and a capsule's H + R in
# [0.5, 1], a capsule's R / (H + R) in [0.12, 0.6]; bodies placed, moving and filling the
# room (--density, bounding spheres of radius R or H + R) with the radius the reader uses.
rargs="--seed 4 --bodies 50 --verts 6-9 --kinds round --shapes 16 --assign random --density 0.15 --speed 0.2 --spin 5 --frames 9"
# shellcheck disable=SC2086
"$gen" $rargs -o "$tmp/r1.scene"
# shellcheck disable=SC2086
"$gen" $rargs >"$tmp/r2.scene"
cmp -s "$tmp/r1.scene" "$tmp/r2.scene" || fail "two round runs with the same options differ"
awk -v want_bodies=50 -v want_shapes=16 -v want_frames=9 -v vmin=6 -v vmax=9 -v speed=0.2 -v density=0.15 "$hull_radius_awk"'
function fail(msg) { print "scene_gen_test: round: line " NR ": " msg; bad = 1; exit 1 }
BEGIN { split("ellipsoid sphere rod capsule plate sphere box capsule", kind, " ") }
/^#/ { next }
NR == 1 { if ($0 != "colibri-scene 2") fail("first line is not colibri-scene 2"); next }
$1 == "room" { L = $2 + 0; next }
$1 == "frames" { if ($2 != want_frames) fail("frames " $2); next }
$1 == "shapes" { if ($2 != want_shapes) fail("shapes " $2); next }
$1 == "sphere" || $1 == "capsule" || $1 == "shape" {
    s = nshape++; want = kind[s % 8 + 1]
    if ($1 == "sphere") {
        if (want != "sphere") fail("shape " s " is a sphere, want a " want)
        if (NF != 2) fail("sphere record with " NF " fields")
        r[s] = $2 + 0
    } else if ($1 == "capsule") {
        if (want != "capsule") fail("shape " s " is a capsule, want a " want)
        if (NF != 3 || !($2 > 0) || !($3 > 0)) fail("bad capsule record")
        r[s] = $2 + $3; t = $3 / r[s]
        if (t < 0.12 || t > 0.6) fail("capsule " s " has R / (H + R) = " t)
        ncaps++
    } else {
        if (want == "sphere" || want == "capsule") fail("shape " s " is a hull, want a " want)
        nv = $2; nhull++
        if (nv < vmin || nv > vmax) fail("shape " s " has " nv " points, not in " vmin ".." vmax)
        r[s] = hull_radius(nv)
        next
    }
    if (r[s] < 0.5 || r[s] > 1) fail("shape " s " has radius " r[s] ", not in [0.5, 1]")
    nround++
    next
}
$1 == "bodies" { if ($2 != want_bodies) fail("bodies " $2); next }
$1 == "b" {
    b = nbody++; rr = r[$2]; used[$2] = 1
    for (k = 3; k <= 5; k++) if ($k < rr || $k > L - rr) fail("body " b " starts outside [r, L - r]")
    v = sqrt($10 * $10 + $11 * $11 + $12 * $12)
    if (v < speed * rr * (1 - 1e-12) || v > speed * rr * (1 + 1e-12)) fail("body " b " speed " v ", want " speed * rr)
    vol += 4 / 3 * 3.14159265358979323846 * rr * rr * rr
    next
}
{ fail("unexpected record: " $0) }
END {
    if (bad) exit 1
    if (nshape != want_shapes || nbody != want_bodies) { print "scene_gen_test: round: " nshape " shapes, " nbody " bodies"; exit 1 }
    if (nhull != 8 || nround != 8 || ncaps != 4) { print "scene_gen_test: round: " nhull " hulls, " nround " spheres and capsules"; exit 1 }
    got = vol / (L * L * L)
    if (got < density * (1 - 1e-9) || got > density * (1 + 1e-9)) { print "scene_gen_test: round: density " got ", want " density; exit 1 }
}' "$tmp/r1.scene" || fail "the round scene does not match its options"
# One round kind alone, and a hull-only list still writes version 1.
"$gen" --bodies 5 --kinds capsule --shapes 3 --frames 2 -o "$tmp/caps.scene"
[ "$(grep -c '^capsule ' "$tmp/caps.scene")" = 3 ] || fail "--kinds capsule did not write 3 capsules"
[ "$(grep -c '^\(shape\|sphere\) ' "$tmp/caps.scene")" = 0 ] || fail "--kinds capsule wrote other shapes"
"$gen" --bodies 5 --kinds sphere,box --shapes 4 --frames 2 -o "$tmp/sph.scene"
[ "$(grep -c '^sphere ' "$tmp/sph.scene")" = 2 ] || fail "--kinds sphere,box did not write 2 spheres"
"$gen" --bodies 5 --kinds box --shapes 2 --frames 2 -o "$tmp/v1.scene"
[ "$(head -1 "$tmp/v1.scene")" = "colibri-scene 1" ] || fail "a hull-only scene is not version 1"

# Triangle meshes (docs/scenes.md, "Meshes"): a version-2 scene; every mesh record has NV
# vertex lines and NT triangle lines of indices in 0 .. NV-1; mesh shape s is of kind
# mix[s mod 4] (its comment line says which) and has radius --mesh-radius; the soups hold
# degenerate triangles (a repeated index); the mesh bodies follow the convex ones and take
# mesh shape k mod S; the floor is the last shape and the last body, still (v = w = 0), of
# radius --floor-radius L, resting on the room's floor in its middle.
margs="--seed 9 --bodies 6 --verts 8 --shapes 2 --meshes 10 --mesh-kinds mix --mesh-tris 300 --mesh-shapes 8 --mesh-radius 1.5 --floor 500 --frames 4"
# shellcheck disable=SC2086
"$gen" $margs -o "$tmp/m1.scene"
# shellcheck disable=SC2086
"$gen" $margs >"$tmp/m2.scene"
cmp -s "$tmp/m1.scene" "$tmp/m2.scene" || fail "two mesh runs with the same options differ"
awk -v nconvex=6 -v nmesh=10 -v mshapes=8 -v mradius=1.5 -v fradius=0.45 -v tris=300 "$hull_radius_awk"'
function fail(msg) { print "scene_gen_test: mesh: line " NR ": " msg; bad = 1; exit 1 }
function rel(a, b) { return a > b ? (a - b) / b : (b - a) / b }
BEGIN { split("torusknot bumpy patch soup", kind, " ") }
/^# shape [0-9]+: / { what = $4; sub(",", "", what); next }
/^#/ { next }
NR == 1 { if ($0 != "colibri-scene 2") fail("first line is not colibri-scene 2"); next }
$1 == "room" { L = $2 + 0; next }
$1 == "frames" { if ($2 != 4) fail("frames " $2); next }
$1 == "shapes" { if ($2 != 2 + mshapes + 1) fail("shapes " $2); next }
$1 == "shape" { s = nshape++; r[s] = hull_radius($2); next }
$1 == "mesh" {
    s = nshape++; nv = $2; nt = $3; m = s - 2
    want = m < mshapes ? kind[m % 4 + 1] : "floor"
    if (what != want) fail("mesh shape " s " is a " what ", want a " want)
    rad = 0
    for (i = 0; i < nv; i++) {
        if ((getline line) <= 0) fail("short mesh")
        split(line, x, " "); d = sqrt(x[1] * x[1] + x[2] * x[2] + x[3] * x[3]); if (d > rad) rad = d
    }
    for (t = 0; t < nt; t++) {
        if ((getline line) <= 0) fail("short mesh")
        if (split(line, x, " ") != 3) fail("triangle line " line)
        for (c = 1; c <= 3; c++) if (x[c] !~ /^[0-9]+$/ || x[c] + 0 >= nv) fail("index " x[c] " of " nv)
        if (x[1] == x[2] || x[2] == x[3] || x[1] == x[3]) degenerate[what]++
    }
    if (what != "floor" && (nt < tris * 0.8 || nt > tris * 1.2)) fail(what " has " nt " triangles, want about " tris)
    r[s] = rad
    if (what != "floor" && rel(rad, mradius) > 1e-12) fail(what " has radius " rad ", want " mradius)
    nmeshes++
    next
}
$1 == "bodies" { if ($2 != nconvex + nmesh + 1) fail("bodies " $2); next }
$1 == "b" {
    b = nbody++; rr = r[$2]
    if (b < nconvex && $2 >= 2) fail("convex body " b " has shape " $2)
    if (b >= nconvex && b < nconvex + nmesh && $2 != 2 + (b - nconvex) % mshapes) fail("mesh body " b " has shape " $2)
    for (k = 3; k <= 5; k++) if ($k < rr || $k > L - rr) fail("body " b " starts outside [r, L - r]")
    still = $10 == 0 && $11 == 0 && $12 == 0 && $13 == 0 && $14 == 0 && $15 == 0
    if (b == nconvex + nmesh) {
        if ($2 != 2 + mshapes || !still) fail("the floor body is not the still last shape")
        if (rel(rr, fradius * L) > 1e-12 || rel($3, L / 2) > 1e-15 || rel($4, L / 2) > 1e-15 || $5 != rr) fail("floor placed at " $3 " " $4 " " $5)
    } else if (still) fail("body " b " does not move")
    next
}
{ fail("unexpected record: " $0) }
END {
    if (bad) exit 1
    if (nmeshes != mshapes + 1 || nbody != nconvex + nmesh + 1) { print "scene_gen_test: mesh: " nmeshes " meshes, " nbody " bodies"; exit 1 }
    if (degenerate["soup"] < 2) { print "scene_gen_test: mesh: the soups have " degenerate["soup"] + 0 " degenerate triangles"; exit 1 }
}' "$tmp/m1.scene" || fail "the mesh scene does not match its options"
# The convex bodies draw what they draw without meshes: the same shapes and body lines.
"$gen" --seed 9 --bodies 6 --verts 8 --shapes 2 --room 30 --frames 4 -o "$tmp/c1.scene"
"$gen" --seed 9 --bodies 6 --verts 8 --shapes 2 --room 30 --frames 4 --meshes 3 --mesh-tris 50 -o "$tmp/c2.scene"
[ "$(grep -v '^#' "$tmp/c1.scene" | sed -n '5,22p')" = "$(grep -v '^#' "$tmp/c2.scene" | sed -n '5,22p')" ] ||
    fail "meshes changed the convex shapes"
[ "$(grep '^b ' "$tmp/c1.scene")" = "$(grep '^b ' "$tmp/c2.scene" | head -6)" ] || fail "meshes changed the convex bodies"
# --mesh-place pass: even bodies start at x = r, odd ones at L - r, and cross the room along x.
"$gen" --seed 2 --bodies 0 --meshes 2 --mesh-kinds torusknot --mesh-tris 400 --mesh-radius 1 --mesh-place pass \
    --room 4.5 --frames 30 -o "$tmp/pass.scene"
awk '/^#/ { next } $1 == "room" { L = $2 } $1 == "b" {
    b = n++; r = 1; span = L - 2 * r; want = (b % 2 ? -1 : 1) * span / 30
    x = b % 2 ? L - r : r   # r is about 1 (the fitted radius), so about
    if ($3 < x - 1e-12 || $3 > x + 1e-12) { print "pass: body " b " at x " $3; exit 1 }
    if ($10 < want - 1e-12 || $10 > want + 1e-12 || $11 != 0 || $12 != 0) { print "pass: velocity " $10; exit 1 }
} END { if (n != 2) { print "pass: " n " bodies"; exit 1 } }' "$tmp/pass.scene" || fail "--mesh-place pass"

# A given --room is used as is.
"$gen" --bodies 3 --room 7.5 --frames 2 -o "$tmp/room.scene"
grep -qx 'room 7.5' "$tmp/room.scene" || fail "--room 7.5 not written as the room"

# Bad options: exit status 2, a message naming the problem, no file written.
bad() {
    rm -f "$tmp/bad.scene"
    set +e
    "$gen" "$@" -o "$tmp/bad.scene" 2>"$tmp/err"
    rc=$?
    set -e
    [ "$rc" = 2 ] || fail "'$*' exited $rc, want 2"
    [ -s "$tmp/err" ] || fail "'$*' gave no message"
    [ ! -e "$tmp/bad.scene" ] || fail "'$*' wrote a file"
}
bad --bodies 0
bad --bodies 12x
bad --verts 3
bad --verts 9-5
bad --kinds cube
bad --kinds spheres
bad --kinds ,
bad --density 0
bad --density nan
bad --frames -1
bad --assign sometimes
bad --seed -3
bad --room 1.5
bad --spin
bad --unknown 1
bad --meshes -1
bad --meshes 2 --mesh-kinds cube
bad --meshes 2 --mesh-kinds ,
bad --meshes 2 --mesh-tris 0
bad --meshes 2 --mesh-tris 9-5
bad --meshes 2 --mesh-radius 0
bad --meshes 2 --mesh-place fly
bad --floor 20 --floor-radius 0.5
bad --bodies 0 --floor 20
bad --bodies 0 --meshes 2 --mesh-radius 2 --room 3.5
bad --bodies 0 --meshes 2 --mesh-place pass --pass-offset 9 --room 9
echo "scene_gen_test: ok"
