#!/bin/sh
# Benchmark, not a test: mlpbunzip2 as a whole process against the peers.
# Builds a text input (licences, copyright files, headers) and a binary one
# (this machine's shared libraries), each $BYTES bytes, sorted (LC_ALL=C) so
# a rerun makes the same bytes, compressed by bzip2 -9 into DIR; then times
# each decoder as its own process writing to /dev/null, pinned with taskset
# (one CPU for -n1 and the single-thread peers, two for -n2), one process
# at a time, $REPS runs each, and prints per input and command the median,
# min and max wall seconds and the median peak RSS (/usr/bin/time -f '%e %M').
# Peers missing here are skipped. The machine should be otherwise quiet:
# the median of 5 is what it reports, not a noise floor.
# Usage: bench/bunzip2_peers.sh DIR
# BYTES=N (default 31457280); REPS=N (default 5); CPUS=a,b (default 0,1);
# BIN=path (default build/mlpbunzip2).
set -eu
[ $# -ge 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
dir=$1
here=$(dirname "$0")
bytes=${BYTES:-31457280}
reps=${REPS:-5}
cpus=${CPUS:-0,1}
one=${cpus%%,*}
bin=${BIN:-$here/../build/mlpbunzip2}
export LC_ALL=C
mkdir -p "$dir"

make_input() { # name, then the file list on stdin
	[ -s "$dir/$1.bz2" ] && return 0
	tr '\n' '\0' | xargs -0 cat 2>/dev/null | head -c "$bytes" >"$dir/$1" || true
	bzip2 -9 -k -f "$dir/$1"
}
{ find /usr/share/common-licenses -type f; find /usr/share/doc -name copyright -type f;
  find /usr/include -type f -name '*.h'; } 2>/dev/null | sort | make_input text
find /usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu -maxdepth 1 -name '*.so*' -type f 2>/dev/null |
	sort | make_input binary

# One command $reps times: "median min max rss_median".
timeit() {
	t=$(mktemp)
	i=0
	while [ $i -lt "$reps" ]; do
		/usr/bin/time -f '%e %M' -o "$t" -a sh -c "$1" >/dev/null 2>&1 </dev/null
		i=$((i + 1))
	done
	e=$(awk '{ print $1 }' "$t" | sort -n)
	m=$(awk '{ print $2 }' "$t" | sort -n)
	mid=$(( (reps + 1) / 2 ))
	echo "$(echo "$e" | sed -n "${mid}p") $(echo "$e" | head -1) $(echo "$e" | tail -1) $(echo "$m" | sed -n "${mid}p")"
	rm -f "$t"
}

printf '%-8s %-26s %8s %8s %8s %10s\n' input command median_s min_s max_s rss_kB
for in in text binary; do
	f=$dir/$in.bz2
	"$bin" -c -n2 "$f" | cmp -s - "$dir/$in" || { echo "mlpbunzip2 -n2 differs on $in" >&2; exit 1; }
	for spec in \
		"mlpbunzip2 -n1|taskset -c $one $bin -c -n1 $f" \
		"mlpbunzip2 -n2|taskset -c $cpus $bin -c -n2 $f" \
		"bzip2 -dc|taskset -c $one bzip2 -dc $f" \
		"lbzip2 -d -n1|taskset -c $one lbzip2 -d -c -n1 $f" \
		"lbzip2 -d -n2|taskset -c $cpus lbzip2 -d -c -n2 $f" \
		"7zz e -so -mmt1|taskset -c $one 7zz e -so -mmt1 $f"; do
		name=${spec%%|*}
		cmd=${spec#*|}
		prog=$(echo "$cmd" | awk '{ print $4 }')
		command -v "$prog" >/dev/null 2>&1 || [ -x "$prog" ] || continue
		set -- $(timeit "$cmd")
		printf '%-8s %-26s %8s %8s %8s %10s\n' "$in" "$name" "$1" "$2" "$3" "$4"
	done
done
