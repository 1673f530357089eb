#!/bin/sh
# Benchmark, not a test: holds `mlpscope latency` to a plain warm chase
# (bench/warm_chase.c, built here) at about 8 sizes from 16 KiB to the
# largest, the sizes being the curve's own points nearest 16K, 256K, 1M, 4M,
# 16M, 32M, 128M and the largest. Prints both figures and their difference,
# and the wall time of the latency section. Run it alone, under the
# measurement lock: two measurements at once measure each other.
# Usage: bench/latency_vs_warm.sh [extra mlpscope latency options...]
# NEAR="bytes..." compares at the curve's points nearest those sizes instead.
# KEEP=DIR keeps the latency text and JSON there (latency.txt, latency.json) and the
# warm chase (warm.tsv).
set -eu
bin=${MLPSCOPE:-build/mlpscope}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM
cc -O2 -o "$dir/warm_chase" "$(dirname "$0")/warm_chase.c"
start=$(date +%s.%N)
"$bin" latency --json "$dir/lat.json" "$@" >"$dir/lat.txt"
end=$(date +%s.%N)
python3 - "$dir/lat.json" "${NEAR:-}" >"$dir/sizes" <<'PY'
import json, sys
pts = [p for p in json.load(open(sys.argv[1]))["latency"]["points"] if p.get("pages", "huge") == "huge"]
want = [16 << 10, 256 << 10, 1 << 20, 4 << 20, 16 << 20, 32 << 20, 128 << 20, pts[-1]["size_bytes"]]
if sys.argv[2].split():
    want = [int(w) for w in sys.argv[2].split()]
seen = []
for w in want:
    s = min(pts, key=lambda p: abs(p["size_bytes"] / w - 1))["size_bytes"]
    if s not in seen:
        seen.append(s)
print(" ".join(str(s) for s in seen))
PY
"$dir/warm_chase" $(cat "$dir/sizes") >"$dir/warm.tsv"
python3 - "$dir/lat.json" "$dir/warm.tsv" <<'PY'
import json, sys
pts = {p["size_bytes"]: p for p in json.load(open(sys.argv[1]))["latency"]["points"] if p.get("pages", "huge") == "huge"}
print(f"{'set':>12} {'mlpscope ns':>12} {'warm chase ns':>14} {'diff':>8}")
for line in open(sys.argv[2]):
    s, w = line.split()
    m = pts[int(s)]["chase_ns"]
    print(f"{int(s)/1048576:10.3f}Mi {m:12.2f} {float(w):14.2f} {100*(m/float(w)-1):+7.1f}%")
PY
grep -i "steady\|NON-MONO\|level\|^  [0-9] " "$dir/lat.txt" | head -20
echo "latency wall: $(echo "$end - $start" | bc) s"
if [ -n "${KEEP:-}" ]; then
	mkdir -p "$KEEP"
	cp "$dir/lat.txt" "$KEEP/latency.txt"
	cp "$dir/lat.json" "$KEEP/latency.json"
	cp "$dir/warm.tsv" "$KEEP/warm.tsv"
fi
