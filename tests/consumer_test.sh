#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/consumer_test.sh SOURCE_ROOT PREFIX
#
# Builds the meson project tests/consumer/ (examples/consumer.c: a world, two boxes, one
# update, exactly one colliding pair) the three ways an app gets Colibri, and runs it:
#   shared     Colibri installed in PREFIX (tests/install_test.sh installs it and calls
#              this script), found by pkg-config alone (--wrap-mode=nofallback), linked
#              against libcolibri.so and run with LD_LIBRARY_PATH, as the README says;
#   static     the same with dependency('colibri', static : true): libcolibri.a and
#              everything colibri.pc says a static link needs (a static libhwloc needs
#              libudev, for one); the program must not need libcolibri.so;
#   subproject no installed copy: the source tree in the consumer's subprojects/colibri,
#              used through dependency('colibri', fallback : 'colibri'), which needs
#              Colibri's meson.override_dependency; the parent must get the library only
#              (no tests, bench or examples: they default to off in a subproject, so
#              neither cmocka, glpk nor GMP is looked for), and its `meson test` runs only
#              the consumer's own test; then, with static : true, the same linked
#              against the subproject's libcolibri.a.
# Quiet on success; on failure prints the log of every step and exits 1.
set -u

root=${1:-}
prefix=${2:-}
if [ -z "$root" ] || [ ! -f "$root/meson.build" ] || [ -z "$prefix" ] || [ ! -d "$prefix" ]; then
    echo "usage: consumer_test.sh SOURCE_ROOT PREFIX (a source tree and a prefix it is installed in)" >&2
    exit 1
fi
root=$(cd "$root" && pwd)
prefix=$(cd "$prefix" && pwd)

test_name=consumer_test
# shellcheck source=tests/packaging_steps.sh
. "$root/tests/packaging_steps.sh"

pc=$(find "$prefix" -name colibri.pc | head -n 1)
so=$(find "$prefix" -name libcolibri.so | head -n 1)
{ [ -n "$pc" ] && [ -n "$so" ]; } || fail "no colibri.pc or libcolibri.so under $prefix"
pcdir=$(dirname "$pc")
libdir=$(dirname "$so")

# The project is copied (the link to examples/consumer.c dereferenced) so that the
# subproject case can add subprojects/ beside it without touching the source tree.
project=$tmp/consumer
step "copying tests/consumer" cp -RL "$root/tests/consumer" "$project"

# Shared, from the installed prefix only: a system copy or a fallback must not stand in.
step "meson setup (shared)" env PKG_CONFIG_PATH="$pcdir" \
    meson setup "$tmp/shared" "$project" --wrap-mode=nofallback -Dstatic=false
step "ninja (shared)" ninja -C "$tmp/shared"
readelf -d "$tmp/shared/consumer" >"$tmp/needed" 2>>"$log" || fail "readelf -d (shared)"
grep -q 'NEEDED.*libcolibri\.so' "$tmp/needed" || fail "the shared consumer does not need libcolibri.so"
expect_ok "consumer (shared)" env LD_LIBRARY_PATH="$libdir" "$tmp/shared/consumer"
# ldd must resolve libcolibri.so to the prefix's copy, not to one elsewhere.
LD_LIBRARY_PATH=$libdir ldd "$tmp/shared/consumer" >"$tmp/ldd" 2>>"$log" || fail "ldd (shared)"
grep -q "libcolibri\.so.* => $libdir/" "$tmp/ldd" ||
    fail "libcolibri.so does not resolve into $libdir: $(cat "$tmp/ldd")"

# Static: dependency('colibri', static : true) takes libcolibri.a and the .pc's private part.
step "meson setup (static)" env PKG_CONFIG_PATH="$pcdir" \
    meson setup "$tmp/static" "$project" --wrap-mode=nofallback -Dstatic=true
step "ninja (static)" ninja -C "$tmp/static"
readelf -d "$tmp/static/consumer" >"$tmp/needed" 2>>"$log" || fail "readelf -d (static)"
if grep -q 'libcolibri' "$tmp/needed"; then
    fail "the static consumer still needs libcolibri.so"
fi
# No LD_LIBRARY_PATH: a static link must not need the installed shared library.
expect_ok "consumer (static)" "$tmp/static/consumer"

# Subproject: forced fallback, no pkg-config path to an installed copy.
step "mkdir subprojects" mkdir "$project/subprojects"
step "linking the source tree as subprojects/colibri" ln -s "$root" "$project/subprojects/colibri"
step "meson setup (subproject)" env -u PKG_CONFIG_PATH \
    meson setup "$tmp/sub" "$project" --force-fallback-for=colibri -Dstatic=false
step "ninja (subproject)" ninja -C "$tmp/sub"
expect_ok "consumer (subproject)" "$tmp/sub/consumer"
# The parent's suite is its own test and nothing of Colibri's.
meson test -C "$tmp/sub" --list >"$tmp/tests" 2>>"$log" || fail "meson test --list (subproject)"
tests=$(grep -v '^ninja' "$tmp/tests" | tr '\n' ' ')
[ "$tests" = "consumer " ] || fail "the parent's meson test lists '$tests', want only 'consumer'"
# The parent builds the consumer and Colibri's library, nothing else of Colibri's.
meson introspect --targets "$tmp/sub" >"$tmp/targets.json" 2>>"$log" || fail "meson introspect --targets"
targets=$(python3 -c 'import json, sys; print(" ".join(sorted(t["name"] for t in json.load(sys.stdin))))' \
    <"$tmp/targets.json" 2>>"$log") || fail "reading meson introspect --targets"
case $targets in
    "colibri colibri consumer" | "colibri consumer") ;;
    *) fail "the parent has targets '$targets', want the consumer and Colibri's library only" ;;
esac
# Test-only dependencies are not even looked for.
for d in cmocka glpk gmp; do
    if grep -qi "dependency $d\|library $d" "$tmp/sub/meson-logs/meson-log.txt"; then
        fail "the subproject looked for $d, a dependency of Colibri's tests only"
    fi
done

# The subproject's static override: static : true links libcolibri.a (the library's objects
# are built already; only the consumer relinks).
step "meson configure (subproject, static)" meson configure "$tmp/sub" -Dstatic=true
step "ninja (subproject, static)" ninja -C "$tmp/sub"
readelf -d "$tmp/sub/consumer" >"$tmp/needed" 2>>"$log" || fail "readelf -d (subproject, static)"
if grep -q 'libcolibri' "$tmp/needed"; then
    fail "the static consumer of the subproject still needs libcolibri.so"
fi
expect_ok "consumer (subproject, static)" "$tmp/sub/consumer"

exit 0
