#!/bin/sh
# Benchmark, not a test: how much slower a command runs while its twin runs
# on the other CPU (the question behind "2 workers reach 1.68x, blocks 16%
# slower together"). Each probe is timed pinned to CPU A alone, then with a
# copy pinned to CPU B at the same time, REPS times alternately; prints
# per probe "alone min/median, together min/median, slowdown (median ratio)".
# The probes tell the causes apart: one that touches only registers and
# the L1 slows together only when the two vCPUs share a physical core (SMT
# siblings) or the host time-slices them; one that streams a buffer past the
# L2 slows on the shared L3 and memory as well.
# Usage: bench/pair_slowdown.sh [CMD...]  (default: the built-in probes)
# A=0 B=1 REPS=5; QUIET=cmd a wrapper that runs each measurement alone, e.g. a lock (default none: run it alone on the machine).
set -eu
a=${A:-0}
b=${B:-1}
reps=${REPS:-5}
quiet=${QUIET:-}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM
cat >"$dir/probe.c" <<'C'
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* alu: dependent integer chains in registers; stream: sums a 64 MiB buffer
 * (past any L2/L3 share: memory bandwidth); l3: random reads in 8 MiB. */
int main(int argc, char **argv)
{
	const char *k = argc > 1 ? argv[1] : "alu";
	uint64_t x = 1, y = 2, s = 0;

	if (!strcmp(k, "alu")) {
		for (uint64_t i = 0; i < 600000000ull; i++) {
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			y ^= x >> 29;
		}
		s = x ^ y;
	} else {
		size_t n = (strcmp(k, "stream") ? 8u : 64u) << 20;
		uint64_t *m = malloc(n), r = 88172645463325252ull;

		if (!m)
			return 1;
		for (size_t i = 0; i < n / 8; i++)
			m[i] = i;
		for (int rep = 0; rep < (strcmp(k, "stream") ? 1 : 20); rep++)
			for (size_t i = 0; i < n / 8; i++) {
				if (strcmp(k, "stream")) {
					r ^= r << 13, r ^= r >> 7, r ^= r << 17;
					s += m[(r ^ s) % (n / 8)];
					if (i > 25000000) break;
				} else {
					s += m[i];
				}
			}
		free(m);
	}
	printf("%llu\n", (unsigned long long)(s & 1));
	return 0;
}
C
cc -O2 -o "$dir/probe" "$dir/probe.c"
ns() { date +%s%N; }
# One probe: alone and together, alternately, REPS times each.
probe() {
	name=$1
	shift
	$quiet sh -c '
		reps=$1; a=$2; b=$3; shift 3
		i=0
		while [ $i -lt "$reps" ]; do
			t0=$(date +%s%N); taskset -c "$a" "$@" >/dev/null; t1=$(date +%s%N)
			echo "alone $(( t1 - t0 ))"
			taskset -c "$b" "$@" >/dev/null & twin=$!
			t0=$(date +%s%N); taskset -c "$a" "$@" >/dev/null; t1=$(date +%s%N)
			wait $twin
			echo "together $(( t1 - t0 ))"
			i=$((i + 1))
		done' sh "$reps" "$a" "$b" "$@" >"$dir/t"
	awk -v name="$name" '
		{ t[$1, ++n[$1]] = $2 / 1e9 }
		function med(k,   i, j, v, m) { m = n[k]; for (i = 1; i <= m; i++) v[i] = t[k, i];
			for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (v[j] < v[i]) { x = v[i]; v[i] = v[j]; v[j] = x }
			lo[k] = v[1]; return v[int((m + 1) / 2)] }
		END { ma = med("alone"); mt = med("together");
			printf "%-28s alone %.3f/%.3f s  together %.3f/%.3f s  slowdown %.2fx\n",
				name, lo["alone"], ma, lo["together"], mt, mt / ma }' "$dir/t"
}
if [ $# -gt 0 ]; then
	probe "$*" "$@"
else
	probe "alu (registers)" "$dir/probe" alu
	probe "random reads in 8 MiB (L3)" "$dir/probe" l3
	probe "stream 64 MiB (memory)" "$dir/probe" stream
fi
