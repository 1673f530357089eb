#!/bin/sh
# Benchmark, not a test: every measuring command as a user types it (no
# options, then --quick), one at a time under the shared lock
# (MLPSCOPE_LOCK, default /tmp/mlpscope-measure.lock), each timed against
# the budget its own plan states, and every reader fed what it wrote:
# compare (the result with itself), model --from (results with an mlp
# section), plan --from (results with plan.facts), and compare over the
# directory of them all at the end. Prints one row per command: wall time,
# budget, over by, and ok / FAIL per reader; a NaN in the text or the JSON
# is a FAIL of its own. LOAD=1 runs each with a memory stream on every
# other CPU (a busy machine). Usage: bench/roundtrip.sh [COMMAND...]
set -u
bin=${MLPSCOPE:-build/mlpscope}
lock=${MLPSCOPE_LOCK:-/tmp/mlpscope-measure.lock}
dir=$(mktemp -d)
loader=
cleanup() {
	[ -n "$loader" ] && kill "$loader" 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT INT TERM
if [ $# -gt 0 ]; then
	cmds=$*
else
	cmds="report latency mlp window app tlb bandwidth multicore loaded c2c noise machine"
fi
if [ "${LOAD:-0}" = 1 ]; then
	# Every CPU but the first (where the commands pin) streams 256 MiB.
	others=$(python3 -c 'import os; c = sorted(os.sched_getaffinity(0)); print(",".join(map(str, c[1:])))')
	[ -n "$others" ] || { echo "SKIP: one CPU: nothing to load"; exit 0; }
	taskset -c "$others" python3 -c '
import os
b = bytearray(256 << 20)
while True:
    b[:] = bytes(len(b))' &
	loader=$!
fi
reader() { # label, args...: ok or FAIL
	label=$1
	shift
	if "$bin" "$@" >/dev/null 2>"$dir/reader.err"; then printf ' %-6s' ok; else
		printf ' %-6s' FAIL
		echo "$label: $(tail -n 1 "$dir/reader.err")" >>"$dir/failures"
	fi
}
printf '%-16s %7s %7s %7s  %-6s %-6s %-6s %-6s\n' command wall_s budget over compare model plan nan
n=0
for quick in "" --quick; do
	for c in $cmds; do
		n=$((n + 1))
		json=$dir/r$n.json
		if [ "$c" = report ]; then args=""; else args=$c; fi
		start=$(date +%s.%N)
		# shellcheck disable=SC2086
		flock "$lock" "$bin" $args $quick --json "$json" >"$dir/out.txt" 2>"$dir/err.txt"
		rc=$?
		wall=$(echo "$(date +%s.%N) - $start" | bc)
		budget=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["plan"]["budget_s"])' "$json" 2>/dev/null || echo -)
		over=$(python3 -c 'import sys; w,b=float(sys.argv[1]),float(sys.argv[2]); print("%+.0f%%" % (100*(w/b-1)))' "$wall" "$budget" 2>/dev/null || echo -)
		printf '%-16s %7.1f %7s %7s ' "$c$quick" "$wall" "$budget" "$over"
		if [ "$rc" -ne 0 ]; then
			echo " exit $rc: $(tail -n 1 "$dir/err.txt")"
			continue
		fi
		reader "$c$quick compare" compare "$json" "$json"
		if python3 -c 'import json,sys; sys.exit(0 if "mlp" in json.load(open(sys.argv[1])) else 1)' "$json"; then
			reader "$c$quick model" model --from "$json"
		else printf ' %-6s' -; fi
		if python3 -c 'import json,sys; sys.exit(0 if "facts" in json.load(open(sys.argv[1])).get("plan", {}) else 1)' "$json"; then
			reader "$c$quick plan" plan --from "$json"
		else printf ' %-6s' -; fi
		if grep -qiw nan "$dir/out.txt" "$json"; then printf ' %-6s' FAIL; else printf ' %-6s' ok; fi
		echo
	done
done
printf 'compare over all %d results:' "$n"
reader "compare DIR" compare "$dir"
echo
[ -f "$dir/failures" ] && { echo "failures:"; sed 's/^/  /' "$dir/failures"; }
exit 0
