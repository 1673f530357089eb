#!/bin/sh
# Benchmark, not a test: runs `mlpscope mlp` N times (default 3) as separate
# processes and prints each run's fitted saturation, its uncertainty, the peak
# concurrency and the wall time, then whether all runs agree within one lane
# or 10% (the agreement the lanes estimate promises). Run it alone: two
# measurements at once on a small machine measure each other.
# Usage: bench/mlp_repeatability.sh [N] [extra mlpscope options...]
set -eu
n=${1:-3}
[ $# -gt 0 ] && shift
bin=${MLPSCOPE:-build/mlpscope}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM
i=1
while [ "$i" -le "$n" ]; do
	start=$(date +%s.%N)
	"$bin" mlp --json "$dir/run$i.json" "$@" >/dev/null
	end=$(date +%s.%N)
	echo "$start $end" >"$dir/time$i"
	i=$((i + 1))
done
python3 - "$dir" "$n" <<'PY'
import json, statistics, sys
d, n = sys.argv[1], int(sys.argv[2])
ks = []
for i in range(1, n + 1):
    doc = json.load(open(f"{d}/run{i}.json"))
    m = doc["mlp"]
    m = m.get("huge", m) if "sweep" not in m else m
    e = m["estimate"]
    t0, t1 = map(float, open(f"{d}/time{i}").read().split())
    ks.append(e["fit_saturation_lanes"])
    print(f"run {i}: Ks {e['fit_saturation_lanes']:.1f} +/- {e['fit_uncertainty']:.1f} lanes, "
          f"peak concurrency {e['peak_concurrency']:.1f} at K={e['peak_lanes']}, "
          f"floor {m['noise_floor_pct']:.1f}%, wall {t1 - t0:.1f} s")
med = statistics.median(ks)
ok = all(abs(k - med) <= max(1.0, 0.1 * med) for k in ks)
print(f"median Ks {med:.1f}; all runs within 1 lane or 10%: {'yes' if ok else 'NO'}")
PY
