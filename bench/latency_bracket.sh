#!/bin/sh
# Benchmark, not a test: `mlpscope latency` bracketed by a plain warm chase
# (bench/warm_chase.c, built here, pinned to CPU 0 as mlpscope pins itself)
# run just BEFORE and just AFTER it, at fixed sizes: where the L3 is a
# share of a cache other tenants use, the share moves within a minute
# (issue 31: 2.4-6.7 MiB in one hour on the Zen 5 guest), so one plain
# chase at one moment is no reference for a curve timed at another; the two
# bracket it. Run it alone, under the measurement lock.
# Sizes: 512 KiB, every 3- and 4-per-octave grid point from 2.5 to 16 MiB
# (the curve's points at the budgets that shrink it), 256 MiB; SIZES="bytes..."
# overrides. Prints, per size on the curve, plain A / mlpscope / plain B, the
# difference to the nearer plain figure and whether it is within 10% or the
# run's floor ("agree"), else between A and B (the plain chase itself moved
# across the curve's figure: "between"), else "DIFFER"; where the placement
# round timed the size, both mappings.
# Usage: bench/latency_bracket.sh [extra mlpscope latency options...]
# (e.g. --budget 60 on a loaded host); KEEP=DIR keeps the raw files.
set -eu
bin=${MLPSCOPE:-build/mlpscope}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM
cc -O2 -o "$dir/warm_chase" "$(dirname "$0")/warm_chase.c"
sizes=${SIZES:-$(python3 -c "
g = set()
for ppo in (3, 4):
    for k in range(200):
        s = round(4096 * 2 ** (k / ppo) / 64) * 64
        if 2.4 * 2**20 <= s <= 16.1 * 2**20:
            g.add(s)
print(' '.join(map(str, [512 << 10] + sorted(g) + [256 << 20])))")}
date -u +%T >"$dir/times"
# shellcheck disable=SC2086
taskset -c 0 "$dir/warm_chase" $sizes >"$dir/plainA.tsv"
date -u +%T >>"$dir/times"
"$bin" latency --json "$dir/m.json" "$@" >"$dir/m.txt"
date -u +%T >>"$dir/times"
# shellcheck disable=SC2086
taskset -c 0 "$dir/warm_chase" $sizes >"$dir/plainB.tsv"
date -u +%T >>"$dir/times"
python3 - "$dir" <<'PY'
import json, sys
d = sys.argv[1]
L = json.load(open(d + "/m.json"))["latency"]
pts = {p["size_bytes"]: p for p in L["points"] if p.get("pages", "huge") == "huge"}
A = {int(l.split()[0]): float(l.split()[1]) for l in open(d + "/plainA.tsv")}
B = {int(l.split()[0]): float(l.split()[1]) for l in open(d + "/plainB.tsv")}
t = open(d + "/times").read().split()
tol = max(10.0, L["noise_floor_pct"])
print(f"plain A {t[0]}, mlpscope {t[1]}-{t[2]}, plain B {t[3]}; floor {L['noise_floor_pct']:.1f}%")
print(f"{'set':>12} {'plain A':>8} {'mlpscope':>9} {'plain B':>8} {'diff':>8}  verdict  placement (arena / own)")
for s in sorted(A):
    if s not in pts:
        continue
    m = pts[s]["chase_ns"]
    diff = min((100 * (m / A[s] - 1), 100 * (m / B[s] - 1)), key=abs)
    pl = pts[s].get("placement")
    pls = f"{pl['arena_ns']:.1f} / {pl['own_allocation_ns']:.1f}" + (" SENSITIVE" if pl["placement_sensitive"] else "") if pl else ""
    verdict = "agree" if abs(diff) <= tol else "between" if min(A[s], B[s]) < m < max(A[s], B[s]) else "DIFFER"
    print(f"{s / 2**20:10.2f}Mi {A[s]:8.1f} {m:9.1f} {B[s]:8.1f} {diff:+7.1f}%  {verdict:8s} {pls}")
w = L.get("whole_walk_ns_at_max")
if w:
    print(f"memory set: headline {L['chase_ns_at_max']:.1f} ns (regions), whole walk {w:.1f}, "
          f"regions in the whole walk's block {L.get('whole_walk_regions_ns') or float('nan'):.1f}")
PY
if [ -n "${KEEP:-}" ]; then
	mkdir -p "$KEEP"
	cp "$dir"/times "$dir"/m.json "$dir"/m.txt "$dir"/plainA.tsv "$dir"/plainB.tsv "$KEEP/"
fi
