/* SPDX-License-Identifier: MIT */
/* Lookup in the pruned table (lib/core/adb_table.h; the pruning is described in
 * tools/adb_tables/adb_tables.c): only a <= b <= s - a is stored, row (s, a) from b = a on,
 * and a row ends at its first value 1.0, every larger b being 1.0 too (P does not decrease
 * in b). */
#include "lib/core/adb_table.h"

#include <stdint.h>

#include "lib/core/adb_table.inc"

_Static_assert(COL_ADB_TABLE_SMAX == COL_ADB_SMAX, "lib/core/adb_table.inc was generated for another size");

double col_adb_probability(int s, int a, int b)
{
    if (s < 1) s = 1;
    if (s > COL_ADB_SMAX) s = COL_ADB_SMAX;
    if (a > s) a = s;
    if (b > s) b = s;
    if (a <= 0 || b <= 0) return 0.0;
    if (a + b > s) return 1.0;
    if (a > b) {
        int t = a;
        a = b;
        b = t;
    }
    int row = s * (COL_ADB_SMAX + 1) + a;
    int k = b - a;
    if (k >= col_adb_len[row]) return 1.0;
    return col_adb_values[col_adb_start[row] + k];
}

int col_adb_table_stored(void)
{
    return COL_ADB_TABLE_VALUES;
}

unsigned long col_adb_table_bytes(void)
{
    return (unsigned long)(sizeof col_adb_values + sizeof col_adb_start + sizeof col_adb_len);
}
