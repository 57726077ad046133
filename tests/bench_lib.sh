# SPDX-License-Identifier: MIT
# tests/bench_lib.sh: the pair-dump checks the scene-level bench tests share (sourced by
# tests/bench_round.sh and tests/bench_mesh.sh, with $who, $bench and $scene set).
#   bench_truth       runs `colibri-bench --brute --backend reference` (the reference
#                     backend's query on every pair i < j, no broad phase): the truth, in
#                     $tmp/truth.pairs, with $lines pairs and pairhash $hash;
#   bench_backends    for every backend colibri-bench --list-backends names and for
#                     `default`: the world run and the --brute run with that backend must
#                     dump exactly the truth's pairs; so must a two-worker world run with
#                     --schedule every;
#   run NAME ARGS...  one run, its dump in $tmp/NAME.pairs and its report in $tmp/NAME.out;
#   same NAME         run NAME gave exactly the truth: the same dump, pairhash and pairs=.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/$who.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
fail() {
    echo "$who: $*" >&2
    exit 1
}
field() { sed -n "s/.*[[:space:]]$1=\([^ ]*\).*/\1/p"; }

# A failed run (such as a library that refuses a shape kind) fails the test, with
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

bench_truth() {
    run truth --brute --backend reference
    lines=$(wc -l <"$tmp/truth.pairs" | tr -d ' ')
    hash=$(field pairhash <"$tmp/truth.out")
    [ "$(field pairs <"$tmp/truth.out")" = "$lines" ] || fail "truth: pairs= is not the number of dump lines ($lines)"
    [ -n "$hash" ] || fail "truth: no pairhash in the report"
}

same() {
    if ! cmp -s "$tmp/$1.pairs" "$tmp/truth.pairs"; then
        echo "$who: $1: pairs differ from the truth (< $1, > truth):" >&2
        diff "$tmp/$1.pairs" "$tmp/truth.pairs" | head -20 >&2
        fail "$1 disagrees with --brute --backend reference"
    fi
    [ "$(field pairhash <"$tmp/$1.out")" = "$hash" ] || fail "$1: pairhash differs from the truth's $hash"
    [ "$(field pairs <"$tmp/$1.out")" = "$lines" ] || fail "$1: pairs= differs from the truth's $lines"
}

bench_backends() {
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
}
