#!/bin/bash
# tools/output_gold.sh BIN OUTDIR: every output a build writes without
# measuring, one file per invocation, so two builds can be held byte for
# byte (a refactor's "outputs byte-identical"):
#
#   tools/output_gold.sh /tmp/base/build/mlpscope /tmp/gold-base
#   tools/output_gold.sh build/mlpscope /tmp/gold-new
#   diff -r /tmp/gold-base /tmp/gold-new && find /tmp/gold-new -type f | wc -l
#
# What it writes: --help, --version, `help CMD` and `CMD --help` for every
# command, the man page beside BIN, every CLI case (tests/cli_cases.txt),
# `plan --from R [CMD] --budget B [--quick]` over the stored results,
# `model`, `trace`, `qmodel` and `compare` (text, --json -, --html, --svg)
# and each stored result drawn as a run draws its own (HTML page,
# Prometheus text, SVG plots, CSV tables; tools/render_result.c, linked with
# BIN's own objects, BIN's tree being BIN's folder's parent). Each file
# holds stdout, then stderr and the exit status. The inputs are always this
# checkout's tests/data, read by relative path from its root, so the two
# builds see the same bytes and print the same names. Deterministic only:
# nothing here times anything (a measuring run differs at every run).
set -u

if [ $# -ne 2 ]; then
	echo "usage: tools/output_gold.sh BIN OUTDIR" >&2
	exit 2
fi
BIN=$(readlink -f "$1")
OUT=$(readlink -m "$2")
BUILD=$(dirname "$BIN")
TREE=$(dirname "$BUILD")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$BIN" ] || { echo "output_gold: $1: not an executable" >&2; exit 2; }
if [ ! -d "$TREE/src" ] || [ ! -d "$BUILD/obj/src" ]; then
	echo "output_gold: $1: expected BIN in a build folder (its parent holding src/, it obj/src/)" >&2
	exit 2
fi
if [ -e "$OUT" ] && [ -n "$(ls -A "$OUT")" ]; then
	echo "output_gold: $2: not empty (expected a new or empty folder)" >&2
	exit 2
fi
mkdir -p "$OUT"
cd "$ROOT" || exit 1
SCRATCH=$(mktemp -d)
trap 'rm -rf "$SCRATCH"' EXIT

# One invocation into $OUT/NAME: stdout, then stderr and the exit status.
run() {
	local name=$1 rc
	shift
	"$BIN" "$@" > "$SCRATCH/out" 2> "$SCRATCH/err"
	rc=$?
	# Outputs written into OUTDIR are named by where it is: say OUTDIR. The
	# memory a size check found free moves from one moment to the next.
	{ cat "$SCRATCH/out"; printf '\n--- stderr\n'; cat "$SCRATCH/err"; printf -- '--- exit %d\n' "$rc"; } |
		sed -e "s|$OUT|OUTDIR|g" -e 's/only [0-9.]* [KMGT]iB is available/only N is available/' \
		    -e 's/MemAvailable ([0-9.]* [KMGT]iB)/MemAvailable (N)/' > "$OUT/$name"
	return $rc
}

# A name for a file from arguments: tests/data/x/y.json -> x_y.
tag() {
	local s=${1#tests/data/}
	s=${s%.json}
	echo "${s//\//_}"
}

# The commands, as --help lists them.
COMMANDS=$("$BIN" --help | sed -n '/^commands:/,/^$/p' | awk 'NR > 1 && NF { print $1 }')
mkdir -p "$OUT/help"
run help/--help --help
run help/--version --version
for c in $COMMANDS; do
	run "help/help_$c" help "$c"
	run "help/$c--help" "$c" --help
done
[ -f "$BUILD/mlpscope.1" ] && cp "$BUILD/mlpscope.1" "$OUT/help/mlpscope.1"

# The CLI cases (every one fails or answers before measuring).
mkdir -p "$OUT/cli"
n=0
grep -v '^#' tests/cli_cases.txt | while IFS='|' read -r _ _ args; do
	n=$((n + 1))
	# shellcheck disable=SC2086 # the cases split on spaces, as the test does
	run "cli/$(printf '%03d' "$n")" $args
done

RESULTS=$(find tests/data -name '*.json' | LC_ALL=C sort)
# The stored results the planner reads (a result with plan.facts or a facts file).
mkdir -p "$OUT/plan"
PLANNABLE=
for r in $RESULTS; do
	if run "plan/$(tag "$r")" plan --from "$r"; then
		PLANNABLE="$PLANNABLE $r"
	fi
done
for r in $PLANNABLE; do
	for c in $COMMANDS; do
		for b in 5 20 90 600; do
			run "plan/$(tag "$r")_${c}_$b" plan --from "$r" "$c" --budget "$b"
			run "plan/$(tag "$r")_${c}_${b}_quick" plan --from "$r" "$c" --budget "$b" --quick
		done
	done
done

# The results compare and model read (loadable; every other file's refusal too).
mkdir -p "$OUT/model" "$OUT/trace" "$OUT/compare" "$OUT/render"
LOADABLE=
for r in $RESULTS; do
	t=$(tag "$r")
	run "model/$t" model --from "$r"
	run "model/${t}_json" model --from "$r" --json -
	w="$(dirname "$r")/window.json"
	[ -f "$w" ] && [ "$w" != "$r" ] && run "model/${t}_with_window" model --from "$r" "$w"
	run "compare/${t}_vs_report_a" compare "$r" tests/data/report_a.json && LOADABLE="$LOADABLE $r"
done

for tr in tests/data/*.trace; do
	t=$(basename "$tr" .trace)
	run "trace/$t" trace "$tr"
	run "trace/${t}_json" trace "$tr" --json -
	run "trace/${t}_q32_l100" trace "$tr" --queue 32 --latency 100
	for r in $LOADABLE; do
		run "trace/${t}_from_$(tag "$r")" trace "$tr" --from "$r"
	done
done

mkdir -p "$OUT/qmodel"
run qmodel/default qmodel
run qmodel/json qmodel --json -
run qmodel/chase_vs_stream qmodel --chase-vs-stream
run qmodel/chase_vs_stream_json qmodel --chase-vs-stream --queue 15 --requests 4096 --json -
run qmodel/q15_k32 qmodel --queue 15 --chains 32 --requests 4096 --bytes-per-tick 3.2
run qmodel/l100_k1_4_64 qmodel --latency 100 --chains 1,4,64 --requests 1000

# compare: each loadable result beside the next (text, page, plots), all
# of them at once (the fleet table), each recorded host's folder, --sort.
prev=
for r in $LOADABLE; do
	if [ -n "$prev" ]; then
		t="$(tag "$prev")_vs_$(tag "$r")"
		run "compare/$t" compare "$prev" "$r" --html "$OUT/compare/$t.html" --svg "$OUT/compare/$t.svg.d"
	fi
	prev=$r
done
# shellcheck disable=SC2086
run compare/all compare $LOADABLE
for d in tests/data/cpus/*/; do
	run "compare/dir_$(basename "$d")" compare "$d"
done
for f in memory_latency_ns l1_latency_ns read_gbps_1_thread mlp_saturation_lanes noise_floor_pct bzip2_mbps; do
	# shellcheck disable=SC2086
	run "compare/sort_$f" compare $LOADABLE --sort "$f"
done

# Each loadable result drawn as a run draws its own.
RENDER="$SCRATCH/render_result"
SRCS=$(cd "$TREE" && find src -name '*.c' ! -path src/main.c ! -path src/bunzip2/main.c | LC_ALL=C sort)
OBJS=
for s in $SRCS; do
	OBJS="$OBJS $BUILD/obj/${s%.c}.o"
done
# shellcheck disable=SC2086
if ! cc -std=gnu11 -D_GNU_SOURCE -O2 -I"$TREE/src" -I"$BUILD/gen" -o "$RENDER" tools/render_result.c $OBJS \
	-lm -lpthread -lbz2 2> "$SCRATCH/cc" &&
   ! cc -std=gnu11 -D_GNU_SOURCE -O2 -I"$TREE/src" -I"$BUILD/gen" -o "$RENDER" tools/render_result.c $OBJS \
	-lm -lpthread 2> "$SCRATCH/cc"; then
	echo "output_gold: tools/render_result.c does not link with $BUILD's objects:" >&2
	cat "$SCRATCH/cc" >&2
	exit 1
fi
for r in $LOADABLE; do
	t=$(tag "$r")
	mkdir -p "$OUT/render/$t"
	"$RENDER" "$r" "$t" "$OUT/render/$t" > "$OUT/render/$t.log" 2>&1
	echo "--- exit $?" >> "$OUT/render/$t.log"
done
echo "output_gold: $(find "$OUT" -type f | wc -l) files in $OUT"
