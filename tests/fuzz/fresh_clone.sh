#!/usr/bin/env bash
# Proves the fuzz build works from a fresh clone, where no normal build has
# made the generated header (build/gen/lanes_insns.h) first: the committed
# tree is cloned to a scratch folder and there
#   1. `make -n fuzz-build` must make the header before compiling the fuzz
#      build's src/kern/lanes_count.c, and must delete no object after
#      linking (the fuzz objects are kept between runs, not intermediates);
#   2. with a working fuzz toolchain (tests/toolchain.sh fuzz), that one
#      object is compiled for real. The whole fuzz build takes minutes on a
#      small machine, too long for `make check`; its first failure on a
#      fresh clone was this object.
# Exit 0 when both hold (or 2 is skipped, said on one line); 1 otherwise.
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
object=$(grep -n -- '-o build/fuzz/obj/src/kern/lanes_count.o' "$work/plan.txt" | head -n 1 | cut -d: -f1)
[ -n "$object" ] || fail "make -n fuzz-build never compiles build/fuzz/obj/src/kern/lanes_count.o"
[ -n "$header" ] && [ "$header" -lt "$object" ] ||
	fail "build/gen/lanes_insns.h is not made before the fuzz build's lanes_count.o needs it"
if grep -q '^rm .*build/fuzz/obj/' "$work/plan.txt"; then
	fail "make deletes the fuzz objects after linking (intermediates): $(grep -m 1 '^rm ' "$work/plan.txt" | cut -c1-120)"
fi

if ! why=$(FUZZ_CC="$fcc" "$top/tests/toolchain.sh" fuzz); then
	echo "${why/SKIP fuzz/SKIP fuzz build from a fresh clone (compile)}"
	exit 0
fi
make -s FUZZ_CC="$fcc" build/fuzz/obj/src/kern/lanes_count.o >"$work/make.txt" 2>&1 ||
	fail "$(grep -m 1 -i 'error' "$work/make.txt" || tail -n 1 "$work/make.txt")"
echo "fuzz build from a fresh clone: the header comes first, objects are kept, lanes_count.o compiles"
