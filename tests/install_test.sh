#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/install_test.sh SOURCE_ROOT
#
# Checks what a user gets from `meson install`: configures and installs SOURCE_ROOT into a
# temporary prefix, then checks
#   - the installed headers are exactly the public ones under include/colibri,
#   - both libcolibri.so and libcolibri.a are installed,
#   - the shared library exports only col_* symbols (docs/conventions.md item 3),
#   - examples/consumer.c builds from the installed headers and colibri.pc alone and runs,
#     once against the shared library and once statically against libcolibri.a,
#   - colibri.pc's paths are the prefix's,
#   - colibri-io (io/, -Dio=enabled): libcolibri-io.so exports only col_* symbols,
#     colibri-io.pc requires colibri, and examples/load_mesh.c builds from the installed
#     headers and colibri-io.pc alone and runs on a model of assimp-testmodels,
# then runs tests/consumer_test.sh on the same prefix (a meson consumer project, shared,
# static and as a subproject). Only the libraries are configured (-Dtests=disabled ...):
# the install of a library-only build is what this checks, and it builds in seconds.
# Quiet on success; on failure prints the log of every step and exits 1.
set -u

root=${1:-}
if [ -z "$root" ] || [ ! -f "$root/meson.build" ]; then
    echo "usage: install_test.sh SOURCE_ROOT (a directory with meson.build)" >&2
    exit 1
fi
root=$(cd "$root" && pwd)
cc=${CC:-cc}

test_name=install_test
# shellcheck source=tests/packaging_steps.sh
. "$root/tests/packaging_steps.sh"

prefix=$tmp/prefix
step "meson setup" meson setup "$tmp/build" "$root" --prefix="$prefix" --buildtype=release \
    -Dtests=disabled -Dbench=disabled -Dexamples=disabled -Dio=enabled
step "meson install" meson install -C "$tmp/build"

# Headers: exactly the public set, nothing internal leaked, nothing missing.
incdir=$prefix/include/colibri
[ -d "$incdir" ] || fail "no $incdir"
got=$(cd "$incdir" && for f in * .[!.]*; do [ -e "$f" ] && printf '%s\n' "$f"; done | sort | tr '\n' ' ')
want="base.h colibri.h id.h io.h query.h record.h shape.h types.h vecmath.h worldquery.h "
[ "$got" = "$want" ] || fail "installed headers are '$got', want '$want'"

# Libraries: the libdir is distribution-specific (lib, lib64, lib/x86_64-linux-gnu), so
# look for the files instead of guessing.
so=$(find "$prefix" -name libcolibri.so | head -n 1)
ar=$(find "$prefix" -name libcolibri.a | head -n 1)
pc=$(find "$prefix" -name colibri.pc | head -n 1)
[ -n "$so" ] || fail "libcolibri.so not installed"
[ -n "$ar" ] || fail "libcolibri.a not installed"
[ -n "$pc" ] || fail "colibri.pc not installed"
libdir=$(dirname "$so")
pcdir=$(dirname "$pc")

# Exports: every defined dynamic symbol must be col_*; anything else is a leaked internal.
nm -D --defined-only "$so" >"$tmp/exports" 2>>"$log" || fail "nm -D $so"
awk '{ print $NF }' "$tmp/exports" | grep -v '^col_' >"$tmp/leaked"
if [ -s "$tmp/leaked" ]; then
    cat "$tmp/leaked" >>"$log"
    fail "libcolibri.so exports symbols not starting with col_ (listed at the end of the log)"
fi
grep -q ' col_world_update$' "$tmp/exports" || fail "libcolibri.so does not export col_world_update"

# The .pc follows --prefix: its prefix is ours and its libdir and includedir lie under it.
pcprefix=$(PKG_CONFIG_PATH=$pcdir pkg-config --variable=prefix colibri 2>>"$log") ||
    fail "pkg-config --variable=prefix"
[ "$pcprefix" = "$prefix" ] || fail "colibri.pc has prefix '$pcprefix', want '$prefix'"
pclibdir=$(PKG_CONFIG_PATH=$pcdir pkg-config --variable=libdir colibri 2>>"$log") ||
    fail "pkg-config --variable=libdir"
[ "$pclibdir" = "$libdir" ] || fail "colibri.pc has libdir '$pclibdir', but libcolibri.so is in '$libdir'"
pcincdir=$(PKG_CONFIG_PATH=$pcdir pkg-config --variable=includedir colibri 2>>"$log") ||
    fail "pkg-config --variable=includedir"
[ "$pcincdir/colibri" = "$incdir" ] || fail "colibri.pc has includedir '$pcincdir', want '$prefix/include'"

# Shared: flags from the installed colibri.pc only.
cflags=$(PKG_CONFIG_PATH=$pcdir pkg-config --cflags colibri 2>>"$log") || fail "pkg-config --cflags"
libs=$(PKG_CONFIG_PATH=$pcdir pkg-config --libs colibri 2>>"$log") || fail "pkg-config --libs"
# $cflags and $libs are unquoted on purpose: they are lists of flags.
# shellcheck disable=SC2086
step "compiling consumer.c (shared)" "$cc" -std=c11 -Wall -Wextra -Werror $cflags \
    -o "$tmp/consumer" "$root/examples/consumer.c" $libs
expect_ok "consumer (shared)" env LD_LIBRARY_PATH="$libdir" "$tmp/consumer"

# Static: the --static link line with -lcolibri swapped for the archive itself, since a
# plain -lcolibri would pick the .so that sits next to it.
slibs=$(PKG_CONFIG_PATH=$pcdir pkg-config --static --libs colibri 2>>"$log") ||
    fail "pkg-config --static --libs"
slibs=$(printf '%s\n' "$slibs" |
    awk -v ar="$ar" '{ for (i = 1; i <= NF; i++) if ($i == "-lcolibri") $i = ar; print }')
# shellcheck disable=SC2086
step "compiling consumer.c (static)" "$cc" -std=c11 -Wall -Wextra -Werror $cflags \
    -o "$tmp/consumer_static" "$root/examples/consumer.c" $slibs
if command -v readelf >/dev/null 2>&1; then
    readelf -d "$tmp/consumer_static" >"$tmp/needed" 2>>"$log" || fail "readelf -d"
    if grep -q 'libcolibri' "$tmp/needed"; then
        fail "the static consumer still needs libcolibri.so"
    fi
fi
# No LD_LIBRARY_PATH: the static build must not need the installed shared library.
expect_ok "consumer (static)" "$tmp/consumer_static"

# colibri-io: its library exports col_* only, its .pc brings colibri's flags, and the
# example that uses it builds from the install alone and runs.
io_so=$(find "$prefix" -name libcolibri-io.so | head -n 1)
[ -n "$io_so" ] || fail "libcolibri-io.so not installed"
[ -f "$pcdir/colibri-io.pc" ] || fail "colibri-io.pc not installed in $pcdir"
nm -D --defined-only "$io_so" | awk '{ print $NF }' | grep -v '^col_' >"$tmp/io_leaked"
[ -s "$tmp/io_leaked" ] && fail "libcolibri-io.so exports symbols not starting with col_: $(cat "$tmp/io_leaked")"
io_flags=$(PKG_CONFIG_PATH=$pcdir pkg-config --cflags --libs colibri-io 2>>"$log") ||
    fail "pkg-config --cflags --libs colibri-io"
# shellcheck disable=SC2086
step "compiling load_mesh.c against colibri-io" "$cc" -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L \
    -o "$tmp/load_mesh" "$root/examples/load_mesh.c" $io_flags -lm
step "load_mesh (installed)" env LD_LIBRARY_PATH="$libdir" "$tmp/load_mesh" --frames 3 --quiet

# The same prefix serves the meson consumer project (one install for both checks).
sh "$root/tests/consumer_test.sh" "$root" "$prefix" || exit 1
exit 0
