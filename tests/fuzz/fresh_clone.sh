#!/usr/bin/env bash
# Proves the fuzz build's plan holds on a fresh clone, where no normal build
# has made anything first: the committed tree is cloned to a scratch folder
# and there `make -n fuzz-build` must
#   1. make the generated header (build/gen/lanes_insns.h) before the
#      kernel object that includes it (src/kern/lanes_count.c: the fuzz
#      binaries link the normal build's kern/ objects), and
#   2. delete no fuzz object after linking (they are kept between runs,
#      not intermediates).
# Only the plan is read (seconds): `make check`'s own fuzz build, from CI's
# fresh clone, compiles it for real.
# Exit 0 when both hold; 1 otherwise.
#
#   tests/fuzz/fresh_clone.sh          (from the repository root; FUZZ_CC)
set -u

fail() {
	echo "FAIL fuzz build from a fresh clone: $*"
	exit 1
}

command -v git >/dev/null 2>&1 || { echo "SKIP fuzz build from a fresh clone: git is not installed"; exit 0; }
top=$(git rev-parse --show-toplevel 2>/dev/null) ||
	{ echo "SKIP fuzz build from a fresh clone: not a git checkout"; exit 0; }
work=$(mktemp -d "${TMPDIR:-/tmp}/mlpscope-fresh-XXXXXX")
trap 'rm -rf "$work"' EXIT
git clone -q --shared "$top" "$work/tree" || fail "git clone failed"
cd "$work/tree" || fail "no clone"
fcc=${FUZZ_CC:-clang-14}

make -n FUZZ_CC="$fcc" fuzz-build >"$work/plan.txt" 2>&1 || fail "make -n fuzz-build: $(tail -n 3 "$work/plan.txt")"
header=$(grep -n 'count_lanes_insns.sh' "$work/plan.txt" | head -n 1 | cut -d: -f1)
object=$(grep -n -- '-o build/obj/src/kern/lanes_count.o' "$work/plan.txt" | head -n 1 | cut -d: -f1)
[ -n "$object" ] || fail "make -n fuzz-build never compiles build/obj/src/kern/lanes_count.o"
[ -n "$header" ] && [ "$header" -lt "$object" ] ||
	fail "build/gen/lanes_insns.h is not made before lanes_count.o needs it"
if grep -q '^rm .*build/fuzz/obj/' "$work/plan.txt"; then
	fail "make deletes the fuzz objects after linking (intermediates): $(grep -m 1 '^rm ' "$work/plan.txt" | cut -c1-120)"
fi
echo "fuzz build from a fresh clone: the header comes first, objects are kept"
