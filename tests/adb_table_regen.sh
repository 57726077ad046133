#!/bin/sh
# SPDX-License-Identifier: MIT
# adb_table_regen.sh ADB_TABLES TABLE: regenerates the ADB probability table (docs/adb.md)
# with tools/adb_tables and compares it with the checked-in one byte for byte.
set -eu
smax=$(sed -n 's/^#define COL_ADB_TABLE_SMAX \([0-9]*\)$/\1/p' "$2")
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
"$1" "$smax" > "$tmp"
if cmp -s "$tmp" "$2"; then
    echo "adb table: regenerated (SMAX $smax), identical to $2"
else
    echo "adb table: $2 differs from what tools/adb_tables makes (run: adb-tables $smax > $2)" >&2
    exit 1
fi
