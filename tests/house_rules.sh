#!/bin/sh
# SPDX-License-Identifier: MIT
# Checks the rules of docs/architecture.md ("Floors") and docs/conventions.md that a grep
# can check: which files may include qhull, uthash and hwloc; include direction between
# floors; no float in the public API (but vecmath.h's *_from_floats conversions); public headers include only <std*.h> or colibri/;
# no timing thresholds in tests; no citation of files outside the repository in the
# library; io/ (colibri-io) includes only public headers and is the one place of assimp;
# files of at most 1500 lines; functions of at most 120 lines in lib/,
# broadphase/, narrowphase/, ccd/ and io/
# (counted from the opening brace to the closing one, both in column 0 as the house
# writes a function; a longer function is split along its steps into named static
# functions).
root=${1:?usage: house_rules.sh PROJECT_ROOT}
cd "$root" || exit 1
fail=0
bad() { echo "house_rules: $*"; fail=1; }

only() { # only PATTERN ALLOWED_FILE
    hits=$(grep -rlE "$1" lib broadphase narrowphase ccd include 2>/dev/null | grep -v "^$2\$")
    [ -z "$hits" ] || bad "$1 included outside $2: $hits"
}
only '#include <libqhull_r' lib/core/hull.c
only '#include <uthash.h>' lib/core/hash.h
only '#include <hwloc.h>' lib/core/thread_pool.c

for f in $(find lib/core -name '*.[ch]'); do
    grep -nE '#include "(lib/[a-z_]+\.h|broadphase/|narrowphase/|ccd/)' "$f" | grep -v '"lib/core/' &&
        bad "$f (floor 1) includes a higher floor"
done
for f in $(find broadphase -name '*.[ch]'); do
    grep -nE '#include "(narrowphase/|ccd/|lib/[a-z_]+\.h)' "$f" && bad "$f: broadphase includes narrowphase, ccd or lib/"
done
for f in $(find narrowphase -name '*.[ch]'); do
    grep -nE '#include "(broadphase/|ccd/|lib/[a-z_]+\.h)' "$f" && bad "$f: narrowphase includes broadphase, ccd or lib/"
done
for f in $(find ccd -name '*.[ch]' 2>/dev/null); do
    grep -nE '#include "(broadphase/|lib/[a-z_]+\.h)' "$f" && bad "$f: ccd (floor 3) includes broadphase or lib/"
done
for f in $(find lib broadphase narrowphase ccd -name '*.[ch]' 2>/dev/null); do
    grep -nE '#include "(bench|examples|tests)/' "$f" && bad "$f includes bench/examples/tests"
done
# colibri-io (io/) is outside the core: it uses only the public API (include/colibri/) and
# its own headers, and it is the only folder that includes assimp.
for f in $(find io -name '*.[ch]' 2>/dev/null); do
    grep -nE '#include "(lib|broadphase|narrowphase|ccd|bench|examples|tests)/' "$f" &&
        bad "$f: io/ may include only the public headers and its own"
done
hits=$(grep -rlE '#include <assimp/' lib broadphase narrowphase ccd include bench 2>/dev/null)
[ -z "$hits" ] || bad "assimp included outside io/: $hits"
# floats only enter through the conversions of vecmath.h (OpenXR hands poses in floats)
grep -nw float include/colibri/*.h | grep -v '^include/colibri/vecmath.h:[0-9]*:static inline col_[a-z0-9]* col_[a-z0-9]*_from_floats(' &&
    bad "float in the public API"
for f in include/colibri/*.h; do
    grep -E '^#include' "$f" | grep -vE '#include (<std[a-z]*\.h>|"colibri/[a-z]+\.h")' && bad "$f includes a non-standard header"
done
grep -rnE '(clock_gettime|CLOCK_MONOTONIC|gettimeofday)' tests/*.c 2>/dev/null && bad "timing in a unit test"
for f in $(find lib broadphase narrowphase ccd io -name '*.c' 2>/dev/null); do
    n=$(wc -l <"$f")
    [ "$n" -le 1500 ] || bad "$f has $n lines (> 1500): split it"
    head -1 "$f" | grep -q 'SPDX-License-Identifier' || bad "$f lacks an SPDX header"
done
long=$(awk '
    FNR == 1 { start = 0 }
    /^[A-Za-z_]/ && !start { sig = $0 }
    /^\{/ { start = FNR; name = sig }
    /^\}/ && start {
        n = FNR - start + 1
        if (n > 120) printf "\n  %s:%d: %d lines: %s", FILENAME, start, n, name
        start = 0
    }' $(find lib broadphase narrowphase ccd io -name '*.c' 2>/dev/null | sort))
[ -z "$long" ] || bad "functions longer than 120 lines (split them along their steps):$long"
# The repository stands alone: its comments cite papers and its own docs, not the notes
# of the folder beside it.
grep -rnE '(STYLE|ALGORITHMS|SCENE)\.md|\.\./shared|shared/bench' lib broadphase narrowphase ccd io include 2>/dev/null &&
    bad "a comment cites a file outside the repository"
[ $fail = 0 ] && echo "house_rules: ok"
exit $fail
