#!/bin/sh
# SPDX-License-Identifier: MIT
# Keeps docs/bad-input.md honest: the table on the page is the one tests/test_bad_input.c
# runs (test_bad_input --table prints it), and the test's entry points are exactly the
# functions of the public headers (the COL_API declarations and static inline functions
# of include/colibri/ but io.h), so a new public function fails this check until it has a row.
bin=${1:?usage: bad_input_doc.sh TEST_BAD_INPUT PROJECT_ROOT}
root=${2:?usage: bad_input_doc.sh TEST_BAD_INPUT PROJECT_ROOT}
bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin") # meson may pass it relative to the build dir
cd "$root" || exit 1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0

# include/colibri/io.h belongs to colibri-io (io/), the optional library beside the core:
# tests/test_io.c runs its bad input (NULL arguments, defs, scales, missing and broken files).
grep -hoE '^(COL_API|static inline) [^(]*\bcol_[a-z0-9_]+\(' $(ls include/colibri/*.h | grep -v '/io\.h$') |
    grep -oE 'col_[a-z0-9_]+\($' | tr -d '(' | sort >"$tmp/public"
"$bin" --entries >"$tmp/list" || { echo "bad_input_doc: $bin --entries failed"; exit 1; }
sort "$tmp/list" >"$tmp/entries"
if ! cmp -s "$tmp/public" "$tmp/entries"; then
    echo "bad_input_doc: the public functions (<) and the table's entry points (>) differ:"
    diff "$tmp/public" "$tmp/entries"
    fail=1
fi

"$bin" --table >"$tmp/table" || { echo "bad_input_doc: $bin --table failed"; exit 1; }
sed -n '/^<!-- table: /,/^<!-- end of table -->/p' docs/bad-input.md | sed '1d;$d' >"$tmp/page"
if ! cmp -s "$tmp/table" "$tmp/page"; then
    echo "bad_input_doc: docs/bad-input.md does not show the table of test_bad_input --table (< test, > page):"
    diff "$tmp/table" "$tmp/page"
    fail=1
fi
[ $fail = 0 ] && echo "bad_input_doc: ok"
exit $fail
