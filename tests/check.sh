#!/usr/bin/env bash
# `make check` after the native build: three lanes at once, each a chain of
# steps that must run in order, because on a small machine most of the time
# went to steps that keep one core busy (qemu running the AArch64 tests, the
# fuzzers, the suite) while the other core waited for the next build:
#   aarch64  the cross build, then its tests under qemu (tests/toolchain.sh
#            proves the toolchain first, else one SKIP line)
#   fuzz     the fuzz build's plan on a fresh clone, the build (at -O0,
#            under ASan alone and without debug info, in build/fuzz-smoke:
#            a smoke needs no speed, and each of these halved or cut by a
#            third the compiler's time), a second of each fuzzer (likewise
#            proved first)
#   suite    the browser render, then the whole suite in two halves at once
# Each lane writes its own log; they are printed whole, in that order, once
# all have ended, so the suite's "N passed, N failed" line stays the last
# line. The exit status is the first failing lane's.
#
#   tests/check.sh TESTBIN      (from the repository root, by `make check`
#                                through check-lanes; MAKE, A64_CC, FUZZ_CC
#                                from make)
set -u

testbin=${1:?usage: tests/check.sh TESTBIN}
make=${MAKE:-make}
# The lanes' makes take no -j: run by `make check` they join its jobserver
# (MAKEFLAGS), so together they run CHECK_JOBS compilers, each lane one at
# least (a make always runs one job of its own), a lane more when another
# has ended. At -j2 a lane, six compilers and qemu on two cores thrashed
# (3m34s against 3m00s at one a lane, 2 Dec 2026); run alone, each builds
# with one job.
logs=$(mktemp -d "${TMPDIR:-/tmp}/mlpscope-check-XXXXXX")
trap 'rm -rf "$logs"' EXIT

lane_aarch64() {
	if A64_CC="${A64_CC:-aarch64-linux-gnu-gcc}" tests/toolchain.sh aarch64; then
		"$make" --no-print-directory check-aarch64
	fi
}

lane_fuzz() {
	FUZZ_CC="${FUZZ_CC:-clang-14}" tests/fuzz/fresh_clone.sh || return 1
	if FUZZ_CC="${FUZZ_CC:-clang-14}" tests/toolchain.sh fuzz; then
		"$make" --no-print-directory fuzz-smoke FUZZ_DEBUG= FUZZ_OPT=-O0 FUZZ_SAN=address \
			FUZZ_DIR=build/fuzz-smoke
	fi
}

# The suite in two halves at once (tests/halves.sh): one process, often
# asleep on a child or a daemon, it was the lane that ended last, alone on
# one CPU for its last 12 s.
lane_suite() {
	local rc=0

	if tests/toolchain.sh browser; then
		"$make" --no-print-directory test-browser || rc=1
	fi
	tests/halves.sh "$testbin" || rc=1
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
