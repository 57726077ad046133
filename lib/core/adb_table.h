/* SPDX-License-Identifier: MIT */
/* The collision-probability table of the ADB-tree (Klein & Zachmann, VMV 2003, section 3;
 * docs/adb.md): P(s, a, b), the probability that two sets of a and of b cells, each placed
 * uniformly at random among s cells, share at least one cell. Computed once in exact
 * rational arithmetic by tools/adb_tables (GMP), each value rounded to the nearest double,
 * and checked into lib/core/adb_table.inc; tests/test_adb.c recomputes spot values by an
 * independent formula and the adb_table_regen test regenerates the file when GMP is there. */
#ifndef COLIBRI_LIB_CORE_ADB_TABLE_H
#define COLIBRI_LIB_CORE_ADB_TABLE_H

/* Largest s the table holds (cells of a node's grid: 4 x 4 x 4). */
#define COL_ADB_SMAX 64

/* P(s, a, b) for 1 <= s <= COL_ADB_SMAX; a and b are clamped to 0 .. s (0 gives 0, a + b > s
 * gives exactly 1); s outside 1 .. COL_ADB_SMAX is clamped to that range. */
double col_adb_probability(int s, int a, int b);

/* Values stored (after the pruning by monotonicity and symmetry) and the table's bytes. */
int col_adb_table_stored(void);
unsigned long col_adb_table_bytes(void);

#endif
