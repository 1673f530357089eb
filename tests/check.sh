#!/usr/bin/env bash
# `make check` after the native build: three lanes at once, each a chain of
# steps that must run in order, because on a small machine most of the time
# went to steps that keep one core busy (qemu running the AArch64 tests, the
# fuzzers, the suite) while the other core waited for the next build:
#   aarch64  the cross build, then its tests under qemu (tests/toolchain.sh
#            proves the toolchain first, else one SKIP line)
#   fuzz     the fuzz build's plan on a fresh clone, the build (at -O0 and
#            without debug info, in build/fuzz-smoke: half the compiler
#            time of -O1, and a smoke needs no speed), a few seconds of each
#            fuzzer (likewise proved first)
#   suite    the browser render, then the whole suite
# Each lane writes its own log; they are printed whole, in that order, once
# all have ended, so the suite's "N passed, N failed" line stays the last
# line. The exit status is the first failing lane's.
#
#   tests/check.sh TESTBIN      (from the repository root, by `make check`;
#                                MAKE, CHECK_JOBS, A64_CC, FUZZ_CC from make)
set -u

testbin=${1:?usage: tests/check.sh TESTBIN}
make=${MAKE:-make}
# The three lanes share the machine's CHECK_JOBS cores, so each builds with
# a third of them (one on a 2-core runner): at -j2 each, six compilers and
# qemu on two cores thrashed, and check took 3m34s on the 2-vCPU guest
# against 3m00s with one job a lane (2 Dec 2026, fresh clone, quiet).
jobs=$(( ${CHECK_JOBS:-2} / 3 ))
[ "$jobs" -ge 1 ] || jobs=1
logs=$(mktemp -d "${TMPDIR:-/tmp}/mlpscope-check-XXXXXX")
trap 'rm -rf "$logs"' EXIT

lane_aarch64() {
	if A64_CC="${A64_CC:-aarch64-linux-gnu-gcc}" tests/toolchain.sh aarch64; then
		"$make" --no-print-directory -j"$jobs" check-aarch64
	fi
}

lane_fuzz() {
	FUZZ_CC="${FUZZ_CC:-clang-14}" tests/fuzz/fresh_clone.sh || return 1
	if FUZZ_CC="${FUZZ_CC:-clang-14}" tests/toolchain.sh fuzz; then
		"$make" --no-print-directory -j"$jobs" fuzz-smoke FUZZ_DEBUG= FUZZ_OPT=-O0 FUZZ_DIR=build/fuzz-smoke
	fi
}

lane_suite() {
	local rc=0

	if tests/toolchain.sh browser; then
		"$make" --no-print-directory test-browser || rc=1
	fi
	"$testbin" || rc=1
	return $rc
}

# Each lane's wall time, printed before the logs (the suite's count stays
# the last line): the slowest lane is what to shorten when check nears its
# 3-minute limit.
timed_lane() {
	local start=$SECONDS rc

	"lane_$1" >"$logs/$1" 2>&1
	rc=$?
	echo "$((SECONDS - start))" >"$logs/$1.took"
	return $rc
}

pids=()
for lane in aarch64 fuzz suite; do
	timed_lane "$lane" &
	pids+=($!)
done

status=0
for pid in "${pids[@]}"; do
	wait "$pid"
	rc=$?
	[ $status -ne 0 ] || status=$rc
done
echo "check: lanes took aarch64 $(cat "$logs/aarch64.took") s, fuzz $(cat "$logs/fuzz.took") s," \
	"suite $(cat "$logs/suite.took") s"
for lane in aarch64 fuzz suite; do
	cat "$logs/$lane"
done
exit $status
