#!/usr/bin/env bash
# Runs each libFuzzer target for a bounded time and prints its execution
# count; any crash, leak, timeout (10 s on one input) or out-of-memory
# (2 GiB) fails the run and names the reproducer it left.
#
#   tests/fuzz/run.sh FUZZ_DIR SECONDS TARGET...
#
# Seeds come from tests/data (results and traces) and tests/cli_cases.txt
# (argument lists, NUL-separated); each target's growing corpus is kept in
# FUZZ_DIR/corpus/TARGET so later runs start where earlier ones stopped. A
# reproducer becomes a regression case: copy it into tests/fuzz/regress/
# TARGET/, which every run replays first.
set -u

dir=${1:?usage: tests/fuzz/run.sh FUZZ_DIR SECONDS TARGET...}
secs=${2:?usage: tests/fuzz/run.sh FUZZ_DIR SECONDS TARGET...}
shift 2
total=0
status=0

seed_cli() {
	mkdir -p "$1"
	local i=0 args
	while IFS='|' read -r _ _ args; do
		i=$((i + 1))
		# shellcheck disable=SC2086
		printf '%s\0' $args >"$1/case$i"
	done < <(grep -v '^#' tests/cli_cases.txt | grep '|')
}

for t in "$@"; do
	bin=$dir/fuzz_$t
	corpus=$dir/corpus/$t
	seeds=$dir/seeds/$t
	log=$dir/$t.log
	mkdir -p "$corpus" "$seeds" "$dir/artifacts"
	case "$t" in
	cli) seed_cli "$seeds" ;;
	jsonr | load) cp tests/data/*.json "$seeds"/ ;;
	trace) cp tests/data/*.trace "$seeds"/ ;;
	bzip2 | bzip2_paths | bunzip2) cp tests/data/bzip2/*.bz2 "$seeds"/ ;;
	esac
	regress=tests/fuzz/regress/$t
	if [ -d "$regress" ] && [ -n "$(ls -A "$regress")" ]; then
		if ! "$bin" "$regress"/* >"$dir/$t.regress.log" 2>&1; then
			echo "FAIL fuzz $t: a regression input fails again (see $dir/$t.regress.log)"
			status=1
			continue
		fi
	fi
	"$bin" "$corpus" "$seeds" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
		-print_final_stats=1 -artifact_prefix="$dir/artifacts/$t-" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	execs=${execs:-0}
	total=$((total + execs))
	if [ "$rc" -ne 0 ]; then
		echo "FAIL fuzz $t: exit $rc after $execs executions; reproducer: $(ls -t "$dir"/artifacts/"$t"-* 2>/dev/null | head -1) (log $log)"
		grep -m3 -E 'ERROR|SUMMARY|runtime error' "$log"
		status=1
	else
		echo "fuzz $t: $execs executions in ${secs} s, no crash, hang or out-of-memory"
	fi
done
echo "fuzz: $total executions in all"
exit $status
