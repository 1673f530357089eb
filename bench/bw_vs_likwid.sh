#!/bin/sh
# Benchmark, not a test: the sequential read bandwidth `mlpscope bandwidth`
# reports (widest read kernel, 1 and 2 threads) beside likwid-bench's
# load_avx512 (falling back to load_avx) over 1 GB on 1 and 2 threads, the
# two tools run one after the other, N rounds (default 3), each measurement
# under the shared lock (MLPSCOPE_LOCK, default /tmp/mlpscope-measure.lock)
# so nothing else on the machine measures at the same time. likwid is a
# validation reference only, never a dependency: without likwid-bench this
# SKIPs. Usage: bench/bw_vs_likwid.sh [N] [extra mlpscope options...]
set -eu
n=${1:-3}
[ $# -gt 0 ] && shift
bin=${MLPSCOPE:-build/mlpscope}
lock=${MLPSCOPE_LOCK:-/tmp/mlpscope-measure.lock}
if ! command -v likwid-bench >/dev/null 2>&1; then
	echo "SKIP: likwid-bench is not installed (e.g. apt-get install likwid)"
	exit 0
fi
test=load_avx512
grep -q avx512f /proc/cpuinfo || test=load_avx
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM
likwid() { # threads -> MB/s
	flock "$lock" likwid-bench -t "$test" -w "S0:1GB:$1" 2>&1 | awk '/^MByte\/s:/ {print $2}'
}
echo "round  time      likwid $test 1t  2t (GB/s)   mlpscope read 1t  2t (GB/s)  kernel, overlap, preempted trials (2t)"
i=1
while [ "$i" -le "$n" ]; do
	t=$(date -u +%H:%M:%S)
	l1=$(likwid 1)
	l2=$(likwid 2)
	flock "$lock" "$bin" bandwidth --json "$dir/run$i.json" "$@" >/dev/null
	python3 - "$dir/run$i.json" "$i" "$t" "$l1" "$l2" <<'PY'
import json, sys
f, i, t, l1, l2 = sys.argv[1:]
b = json.load(open(f))["bandwidth"]
reads = [k for k in b["kernels"] if k["op"] == "read"]
widest = max(k["width_bytes"] for k in reads)
pts = {k["threads"]: k for k in reads if k["width_bytes"] == widest}
one, two = pts.get(1), pts.get(2)
print(f"{i:>5}  {t}  {float(l1)/1000:8.2f} {float(l2)/1000:6.2f}           "
      f"{one['gbps']:8.2f} {two['gbps'] if two else float('nan'):6.2f}        "
      f"{one['kernel']}, {two.get('overlap_pct', float('nan')) if two else float('nan'):.1f}%, "
      f"{two.get('preempted_trials', '?') if two else '?'}/{len(two['trials_gbps']) if two else 0}")
PY
	i=$((i + 1))
done
