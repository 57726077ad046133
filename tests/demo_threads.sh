#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/demo_threads.sh DEMO: the VR-room demo reports the same run (bodies, pairs,
# events, churn, the toggled pair) with 1 and with 2 workers; only the times and the
# worker count in the first line may differ (docs/threads.md: results never depend on
# the worker count).
set -eu
demo=$1
strip() { sed -e 's/, [0-9]* workers$//' -e '/^ *[0-9]/s/ *[0-9.]* *$//' -e 's/mean .*per frame.*//' -e 's/whole run .*//'; }
a=$("$demo" --threads 1 | strip)
b=$("$demo" --threads 2 | strip)
if [ "$a" != "$b" ]; then
    echo "demo_threads: the run differs between 1 and 2 workers" >&2
    d=$(mktemp -d)
    printf '%s\n' "$a" >"$d/1"; printf '%s\n' "$b" >"$d/2"
    diff "$d/1" "$d/2" >&2 || true
    rm -rf "$d"
    exit 1
fi
# What the demo promises to show (issue 21): a help text, the legend under the table's
# header, and the '>' lines of the events, a removal's ended pairs and the disabled pair.
"$demo" --help | grep -q '^usage: colibri-vr-room' || { echo "demo_threads: --help prints no usage" >&2; exit 1; }
for want in '^legend: bbox-pairs: bounding boxes overlap' '^> frame 1: [0-9]* pairs began' \
    '^> frame [0-9]*: col_body_destroy removed' '^> frame [0-9]*: the disabled pair .*: an ended event'; do
    printf '%s\n' "$a" | grep -q "$want" || { echo "demo_threads: no line matching '$want'" >&2; exit 1; }
done
printf '%s\n' "$a" | tail -4
echo "demo_threads: 1 and 2 workers give the same run"
