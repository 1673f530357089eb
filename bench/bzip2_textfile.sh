#!/bin/sh
# Benchmark, not a test: issue 32's text file. Builds a ~34 MB text file from
# this machine's own files (the licences in /usr/share/common-licenses, every
# /usr/share/doc/*/copyright, the headers under /usr/include), in a sorted
# order (LC_ALL=C) so two runs on one machine make the same bytes, truncated
# to exactly $BYTES bytes and compressed by bzip2 -9, into OUT; then runs
# `mlpscope app bzip2 OUT` and the peers pinned to one CPU (bzip2 -dc,
# lbzip2 -n 1 -dc, 7zz e -so -mmt1, where installed), each its own command
# under the measurement lock.
# Usage: bench/bzip2_textfile.sh OUT.bz2 [mlpscope-args...]
# BYTES=N (default 34000000); REPS=N peer runs each (default 5); CPU=N the
# peers' CPU (default 0); MLPSCOPE=path (default build/mlpscope); QUIET=cmd
# a wrapper that runs each measurement alone, e.g. a lock (default none: run it alone on the machine); ONLY=make just
# builds the file; ONLY=peers skips mlpscope.
# Prints the text's SHA-256 (same on another run: same input), then the
# report, then per peer "peer min_s median_s max_s MB/s(at min)".
set -eu
[ $# -ge 1 ] || { echo "usage: $0 OUT.bz2 [mlpscope-args...]" >&2; exit 2; }
out=$1
shift
here=$(dirname "$0")
bytes=${BYTES:-34000000}
reps=${REPS:-5}
cpu=${CPU:-0}
bin=${MLPSCOPE:-$here/../build/mlpscope}
quiet=${QUIET:-}
export LC_ALL=C

# The file list: sorted, regular files only, each source in turn.
list=$(mktemp)
text=$(mktemp)
trap 'rm -f "$list" "$text"' EXIT INT TERM
{
	find /usr/share/common-licenses -type f | sort
	find /usr/share/doc -mindepth 2 -maxdepth 2 -name copyright -type f | sort
	find /usr/include -type f -name '*.h' | sort
} >"$list"
# xargs cat stops at the first unreadable file; a missing one is skipped.
tr '\n' '\0' <"$list" | xargs -0 cat 2>/dev/null | head -c "$bytes" >"$text" || true
got=$(wc -c <"$text")
if [ "$got" -ne "$bytes" ]; then
	echo "$0: only $got bytes of text on this machine (wanted $bytes)" >&2
	exit 1
fi
echo "text: $bytes bytes from $(wc -l <"$list") files, sha256 $(sha256sum <"$text" | cut -d' ' -f1)"
bzip2 -9 -c <"$text" >"$out.tmp"
mv "$out.tmp" "$out"
echo "compressed: $out, $(wc -c <"$out") bytes (bzip2 -9)"
[ "${ONLY:-}" = make ] && exit 0

if [ "${ONLY:-}" != peers ]; then
	# shellcheck disable=SC2086
	$quiet "$bin" app bzip2 "$out" "$@"
fi

# One peer: REPS runs pinned to one CPU, each timed by date's nanoseconds.
peer() {
	name=$1
	shift
	command -v "$1" >/dev/null 2>&1 || { echo "$name: not installed"; return 0; }
	times=$(mktemp)
	# shellcheck disable=SC2086
	$quiet sh -c '
		n=$1; out=$2; shift 2
		i=0
		while [ $i -lt $n ]; do
			t0=$(date +%s%N); "$@" "$out" >/dev/null; t1=$(date +%s%N)
			echo $(( t1 - t0 ))
			i=$((i + 1))
		done' sh "$reps" "$out" taskset -c "$cpu" "$@" >"$times"
	sort -n "$times" | awk -v name="$name" -v bytes="$bytes" '
		{ t[NR] = $1 / 1e9 }
		END { printf "%-22s min %.3f s  median %.3f s  max %.3f s  %.1f MB/s\n",
			name, t[1], t[int((NR + 1) / 2)], t[NR], bytes / 1e6 / t[1] }'
	rm -f "$times"
}
peer "bzip2 -dc" bzip2 -dc
peer "lbzip2 -n1 -dc" lbzip2 -n 1 -dc
peer "7zz e -so -mmt1" 7zz e -so -mmt1
