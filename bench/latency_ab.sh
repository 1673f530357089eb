#!/bin/sh
# Benchmark, not a test: the A/B experiment of issue 31 (bench/latency_ab.c,
# built here). Each arm changes ONE thing against the same plain warm chase,
# at L2/2, four sizes across the L3 share and the memory set; each arm is
# its own short run under the measurement lock, pinned to CPU 0.
# Usage: bench/latency_ab.sh [ARM...]   (default: every arm)
# SIZES="bytes..." overrides the sizes; REPS=N the alternations (default 4: each chain twice in each arm);
# QUIET=cmd a wrapper that runs each measurement alone, e.g. a lock (default none: run it alone on the machine).
# Prints "size arm plain_ns arm_ns ratio plain_spread_pct" per line.
set -eu
here=$(dirname "$0")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM
cc -O2 -o "$dir/latency_ab" "$here/latency_ab.c"
M=1048576
sizes=${SIZES:-"$((512 * 1024)) $((8 * M)) $((12 * M)) $((16 * M)) $((24 * M)) $((256 * M))"}
reps=${REPS:-4}
quiet=${QUIET:-}
arms=${*:-"stream arena region other memset nowarm warm1 alloc2 seq memseq"}
printf 'size_bytes\tarm\tplain_ns\tarm_ns\tratio\tplain_spread_pct\n'
for arm in $arms; do
	# shellcheck disable=SC2086
	$quiet taskset -c 0 "$dir/latency_ab" --reps "$reps" "$arm" $sizes
done
