#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/load_mesh_test.sh EXAMPLE: examples/load_mesh.c end to end on its default model
# (the spider of assimp-testmodels, 19 groups, 1368 triangles): the model loads, the moving
# copy passes through the static mesh (their pair begins and ends: it starts 2.5 sizes
# away, crosses the middle and ends 2.5 sizes away, and at the middle the two copies of
# the surface cross), convex bodies circling through the mesh touch it, and the summary
# names the triangle count and the memory per triangle.
set -u
example=${1:?usage: load_mesh_test.sh EXAMPLE}
out=$("$example" --frames 30) || { printf '%s\n' "$out"; echo "load_mesh_test: the example failed" >&2; exit 1; }
for want in ': 19 meshes in the file, 19 merged: 1368 triangles' '^frame *[0-9]*: began mesh - copy$' \
    '^frame *[0-9]*: ended mesh - copy$' '^frame *[0-9]*: began mesh - (ball|box|capsule)' \
    ': 1368 triangles, [0-9]* vertices; [0-9]* bytes, [0-9.]* bytes per triangle$'; do
    printf '%s\n' "$out" | grep -qE "$want" || {
        printf '%s\n' "$out"
        echo "load_mesh_test: no line matching '$want'" >&2
        exit 1
    }
done
printf '%s\n' "$out" | tail -2
