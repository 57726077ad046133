# SPDX-License-Identifier: MIT
# shellcheck shell=sh
# The set-up and step helpers of the packaging tests (install_test.sh, consumer_test.sh),
# which source this file after setting test_name (their name in messages). It makes $tmp,
# a temporary directory removed on exit, and $log in it, where every step's output goes:
# printed whole on a failure, so a passing test stays quiet.

# shellcheck disable=SC2154 # test_name: set by the sourcing script
tmp=$(mktemp -d "${TMPDIR:-/tmp}/colibri_$test_name.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM
log=$tmp/log
: >"$log"

# fail MESSAGE: say what failed, print the log, exit 1.
fail() {
    echo "$test_name: FAIL: $*" >&2
    echo "---- log ----" >&2
    cat "$log" >&2
    exit 1
}

# step DESCRIPTION CMD...: run CMD with its output in the log; fail with DESCRIPTION.
step() {
    what=$1
    shift
    echo "\$ $*" >>"$log"
    "$@" >>"$log" 2>&1 || fail "$what"
}

# expect_ok DESCRIPTION CMD...: CMD must print exactly "ok" (examples/consumer.c's verdict).
expect_ok() {
    what=$1
    shift
    echo "\$ $*" >>"$log"
    out=$("$@" 2>>"$log") || fail "$what exited non-zero"
    [ "$out" = "ok" ] || fail "$what printed '$out', want 'ok'"
}
