#!/usr/bin/env bash
# The suite in two halves at once: COMMAND... --shard 1/2 and --shard 2/2
# (tests/main.c), each one process, serial and often asleep on a child, a
# daemon or an emulated instruction. Both logs in turn, then the two counts
# summed in the suite's own form as the last line. Exit 0 only when both
# halves passed and printed their count.
#
#   tests/halves.sh COMMAND...   (make check-aarch64 under qemu; tests/check.sh)
set -u
[ $# -ge 1 ] || { echo "usage: tests/halves.sh COMMAND..." >&2; exit 2; }
logs=$(mktemp -d "${TMPDIR:-/tmp}/mlpscope-halves-XXXXXX")
trap 'rm -rf "$logs"' EXIT
rc=0

"$@" --shard 1/2 >"$logs/1" 2>&1 &
one=$!
"$@" --shard 2/2 >"$logs/2" 2>&1 || rc=1
wait "$one" || rc=1
cat "$logs/1" "$logs/2"
tail -q -n 1 "$logs/1" "$logs/2" | awk '
	$2 == "passed," && $4 == "failed," && $6 == "skipped" { p += $1; f += $3; s += $5; n++ }
	END { if (n != 2) { print "tests/halves.sh: a half printed no count"; exit 1 }
	      printf "%d passed, %d failed, %d skipped\n", p, f, s }' || rc=1
exit $rc
