#!/bin/sh
# Benchmark, not a test: `mlpscope compare DIR` over a generated fleet of N
# (default 1000) results, each a copy of a real recorded full report (the
# largest in tests/data/cpus/, 262 KB) within a quarter of its noise floor,
# with four outliers planted (tests/fleet/gen_results.py). Prints the wall
# time of RUNS (default 5) runs and their median, and checks the planted
# ones, and only they, are named. Run it alone, under the measurement lock.
# Usage: bench/fleet_compare.sh [N [RUNS]]; MLPSCOPE=binary, KEEP=DIR keeps the fleet.
set -eu
bin=${MLPSCOPE:-build/mlpscope}
n=${1:-1000}
runs=${2:-5}
here=$(dirname "$0")/..
template=$here/tests/data/cpus/intel-xeon-f6-m207/report.json
dir=${KEEP:-$(mktemp -d)}
[ -n "${KEEP:-}" ] || trap 'rm -rf "$dir"' EXIT INT TERM
mkdir -p "$dir/fleet"
python3 "$here/tests/fleet/gen_results.py" "$template" "$dir/fleet" "$n" \
	--plant 17:mem:1.6 --plant 230:rd:0.5 --plant 501:ks:0.3 --plant 777:c2c:2 >"$dir/planted.txt"
echo "fleet: $n results of $(du -sh "$dir/fleet" | cut -f1); planted:"
sed 's/^/  /' "$dir/planted.txt"
i=0
while [ "$i" -lt "$runs" ]; do
	start=$(date +%s.%N)
	"$bin" compare "$dir/fleet" --html "$dir/fleet.html" >"$dir/fleet.txt"
	end=$(date +%s.%N)
	echo "$end - $start" | bc
	i=$((i + 1))
done >"$dir/times.txt"
sort -n "$dir/times.txt" | awk '{ t[NR] = $1 } END {
	printf "compare: %d runs, seconds:", NR; for (i = 1; i <= NR; i++) printf " %.3f", t[i];
	printf "\nmedian %.3f s, spread %.3f..%.3f s\n", t[int((NR + 1) / 2)], t[1], t[NR] }'
named=$(sed -n 's/^  \(node[0-9]*\.json\).*/\1/p' "$dir/fleet.txt" | sort)
want=$(cut -d' ' -f1 "$dir/planted.txt" | sort)
grep -A100 '^outliers:' "$dir/fleet.txt" | grep -v '^  node' | head -3
grep '^  node' "$dir/fleet.txt"
if [ "$named" = "$want" ]; then
	echo "named: the planted outliers and only they"
else
	echo "named: NOT the planted ones (named: $named)"
	exit 1
fi
