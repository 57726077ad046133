/* SPDX-License-Identifier: MIT */
/* TEMP: dropped when the rounded branch lands. */
#include <stdlib.h>
#include "narrowphase/rounded.h"
void col_rounded_query(const col_core *a, const col_xform *xa, const col_core *b, const col_xform *xb, col_np_result *out)
{ (void)a; (void)xa; (void)b; (void)xb; (void)out; abort(); }
void col_core_distance_query(const col_core *a, const col_xform *xa, const col_core *b, const col_xform *xb, col_core_distance *out)
{ (void)a; (void)xa; (void)b; (void)xb; (void)out; abort(); }
