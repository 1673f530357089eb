#!/bin/sh
# Benchmark, not a test: mlpbunzip2 as a whole process against the peers.
# Builds three inputs, sorted (LC_ALL=C) so a rerun makes the same bytes,
# compressed by bzip2 -9 into DIR: text (licences, copyright files,
# headers: $BYTES bytes of them), binary (this machine's shared libraries,
# $BYTES bytes) and mixed (a tar of whole files taken in turn from the text
# and the binary lists until $MIXBYTES bytes, none over an eighth of it:
# one large library would make it all machine code; an archive as users
# make them, text and machine code block by block). Then times each decoder as
# its own process writing to /dev/null, pinned (one CPU for -n1 and the
# single-thread peers, two for -n2), one process at a time, the commands
# alternated (A B C, A B C, ... $REPS rounds) so a neighbour's burst or a
# frequency drift lands on every command alike, not on whichever ran last;
# prints per input and command the median, min and max wall seconds and the
# median peak RSS. Each is timed by bench/process_wall.c (built here): the
# wall from the command's spawn to its exit, wait4's peak RSS, and no other
# process inside it (a clock read by date, sh -c, taskset and /usr/bin/time
# around the command started four processes more, 17 ms on a guest, charged
# to every command alike: a constant that pulled each ratio toward 1). The
# first line is that floor: a process that does nothing, timed the same
# way. Peers missing here are skipped. The machine should be otherwise
# quiet: the median of 5 is what it reports, not a noise floor.
# Two CPUs of a guest are seldom alike: a neighbour on the host (or on a
# CPU's SMT sibling) slows one of them for seconds at a time. So
# mlpbunzip2 -n1 runs on the second CPU too, in the same rounds, and each
# input ends with what the two CPUs allowed: the -n2 speed-up that two
# threads could reach at most (1 + the first CPU's -n1 time over the
# second's) beside the one reached, from the medians and again divided
# inside each round (paired). Two CPUs busy at once may each run
# slower than alone (a shared cache, memory, the host's power budget), so
# two -n1 processes also run at once, one on each CPU, each timed, and the
# bound is given again from those times (the first CPU's -n1 time alone
# over each one's at once, summed).
# Usage: bench/bunzip2_peers.sh DIR
# BYTES=N (default 31457280); MIXBYTES=N (default 41943040); REPS=N
# (default 5); CPUS=a,b (default 0,1); BIN=path (default build/mlpbunzip2).
set -eu
[ $# -ge 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
dir=$1
here=$(dirname "$0")
bytes=${BYTES:-31457280}
mixbytes=${MIXBYTES:-41943040}
reps=${REPS:-5}
cpus=${CPUS:-0,1}
one=${cpus%%,*}
two=${cpus#*,}
two=${two%%,*}
bin=${BIN:-$here/../build/mlpbunzip2}
export LC_ALL=C
mkdir -p "$dir"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM
wall=$work/process_wall
cc -O2 -o "$wall" "$here/process_wall.c"

make_input() { # name, then the file list on stdin
	[ -s "$dir/$1.bz2" ] && return 0
	tr '\n' '\0' | xargs -0 cat 2>/dev/null | head -c "$bytes" >"$dir/$1" || true
	bzip2 -9 -k -f "$dir/$1"
}
text_files() {
	{ find /usr/share/common-licenses -type f; find /usr/share/doc -name copyright -type f;
	  find /usr/include -type f -name '*.h'; } 2>/dev/null | sort
}
binary_files() {
	find /usr/lib/x86_64-linux-gnu /usr/lib/aarch64-linux-gnu -maxdepth 1 -name '*.so*' -type f 2>/dev/null | sort
}
# The mixed archive: one text file, one binary, in turn, whole files until
# $mixbytes, none over an eighth of it; a valid tar with fixed owners and
# times, so a rerun matches.
make_mixed() {
	[ -s "$dir/mixed.bz2" ] && return 0
	text_files >"$dir/mixed.text.list"
	binary_files >"$dir/mixed.binary.list"
	paste -d '\n' "$dir/mixed.text.list" "$dir/mixed.binary.list" | grep -v '^$' |
		tr '\n' '\0' | xargs -0 stat -L -c '%s %n' 2>/dev/null |
		awk -v max="$mixbytes" '{ n = $1; sub(/^[0-9]+ /, ""); if (n > max / 8) next; if (sum >= max) exit;
			sum += n; print }' \
		>"$dir/mixed.list"
	tar --no-recursion --owner=0 --group=0 --numeric-owner --mtime=@0 -chf "$dir/mixed" -T "$dir/mixed.list" \
		2>/dev/null || true
	rm -f "$dir/mixed.text.list" "$dir/mixed.binary.list" "$dir/mixed.list"
	bzip2 -9 -k -f "$dir/mixed"
}
text_files | make_input text
binary_files | make_input binary
make_mixed

# The commands for input $1, one "name|CPUS|command" a line, installed ones only.
commands() {
	f=$dir/$1.bz2
	for spec in \
		"mlpbunzip2 -n1|$one|$bin -c -n1 $f" \
		"mlpbunzip2 -n2|$cpus|$bin -c -n2 $f" \
		"mlpbunzip2 -n1 on CPU $two|$two|$bin -c -n1 $f" \
		"mlpbunzip2 -n1 on both at once|$cpus|$bin -c -n1 $f (two at once: at_once)" \
		"bzip2 -dc|$one|bzip2 -dc $f" \
		"lbzip2 -d -n1|$one|lbzip2 -d -c -n1 $f" \
		"lbzip2 -d -n2|$cpus|lbzip2 -d -c -n2 $f" \
		"7zz e -so -mmt1|$one|7zz e -so -mmt1 $f" \
		"7zz e -so -mmt2|$cpus|7zz e -so -mmt2 $f" \
		"pbzip2 -d -p1|$one|pbzip2 -d -c -p1 $f" \
		"pbzip2 -d -p2|$cpus|pbzip2 -d -c -p2 $f"; do
		prog=$(echo "$spec" | cut -d'|' -f3 | awk '{ print $1 }')
		command -v "$prog" >/dev/null 2>&1 || [ -x "$prog" ] || continue
		echo "$spec"
	done
}

# "median min max rss_median" of the timing file $1 ("SECONDS RSS_KB" lines).
summary() {
	e=$(awk '{ print $1 }' "$1" | sort -n)
	m=$(awk '{ print $2 }' "$1" | sort -n)
	n=$(echo "$e" | wc -l)
	mid=$(( (n + 1) / 2 ))
	echo "$(echo "$e" | sed -n "${mid}p") $(echo "$e" | head -1) $(echo "$e" | tail -1) $(echo "$m" | sed -n "${mid}p")"
}

# Two -n1 processes at once on input $1, one a CPU, each timed: appends
# "LATER_SECONDS RSS_KB" to $2/$3 (as every command's line) and
# "FIRST_CPU_S SECOND_CPU_S" to $2/$3.each.
at_once() {
	f=$dir/$1.bz2
	"$wall" "$one" "$bin" -c -n1 "$f" >"$2/$3.w.$one" 2>/dev/null </dev/null &
	"$wall" "$two" "$bin" -c -n1 "$f" >"$2/$3.w.$two" 2>/dev/null </dev/null
	wait
	read -r a ra <"$2/$3.w.$one"
	read -r b _ <"$2/$3.w.$two"
	echo "$a $b" | awk '{ printf "%.4f %.4f\n", $1, $2 }' >>"$2/$3.each"
	echo "$a $b $ra" | awk '{ printf "%.4f %s\n", ($1 > $2 ? $1 : $2), $3 }' >>"$2/$3"
}

# The state of the machine's memory in each run of ours: MLPBUNZIP2_TIMES
# (exported below; the peers ignore it) gives each thread's warm_ms, the
# time its decoder's huge pages took to be made resident before its first
# block. A host that backs a guest's memory again after the guest freed it
# (free page reporting) charges a cold huge page over ten times a ready
# one's, and -n2 needs twice -n1's buffers: the line says how much of each
# command's wall went there (the slowest thread's, which starts its blocks
# last), medians with min and max over the rounds.
warm_line() {
	i=0
	while IFS= read -r spec; do
		i=$((i + 1))
		case "${spec%%|*}" in "mlpbunzip2 -n1" | "mlpbunzip2 -n2") ;; *) continue ;; esac
		[ -s "$2/$i.err" ] || continue
		awk '/: coordinator 0:/ { if (n++) print w; w = 0 }
		     / warm_ms / { for (k = 1; k < NF; k++) if ($k == "warm_ms" && $(k + 1) > w) w = $(k + 1) }
		     END { if (n) print w }' "$2/$i.err" | sort -n |
			awk -v name="${spec%%|*}" '{ v[NR] = $1 } END { if (NR) printf "%s %s ms (%s-%s)", name,
				v[int((NR + 1) / 2)], v[1], v[NR] }'
		echo
	done <"$2/specs" | awk -v inp="$1" 'NF { line = line (line ? ", " : "") $0 }
		END { if (line) printf "%-8s buffers made resident, the slowest thread: %s\n", inp, line }'
}

# -n2 over -n1 divided inside each round (the two ran seconds apart, a
# drift between rounds cancels), beside what that round's CPUs allowed
# (1 + -n1's time on the first CPU over the second's), and the share
# reached: medians with min and max over the rounds.
paired_line() {
	i=0
	n1='' n2='' c2=''
	while IFS= read -r spec; do
		i=$((i + 1))
		case "${spec%%|*}" in
		"mlpbunzip2 -n1") n1=$i ;;
		"mlpbunzip2 -n2") n2=$i ;;
		"mlpbunzip2 -n1 on CPU $two") c2=$i ;;
		esac
	done <"$2/specs"
	[ -n "$n1" ] && [ -n "$n2" ] && [ -n "$c2" ] || return 0
	paste -d ' ' "$2/$n1" "$2/$n2" "$2/$c2" | awk '{ r = $1 / $3; b = 1 + $1 / $5; print r, b, 100 * r / b }' >"$2/paired"
	col() { awk -v k="$1" '{ print $k }' "$2/paired" | sort -n | awk '{ v[NR] = $1 } END { printf "%s %s %s", v[int((NR + 1) / 2)], v[1], v[NR] }'; }
	# shellcheck disable=SC2046
	set -- "$1" $(col 1 "$2") $(col 2 "$2") $(col 3 "$2")
	printf '%-8s paired by round: -n2 over -n1 %.2fx (%.2f-%.2f), the CPUs allowed %.2fx (%.2f-%.2f), reached %.0f%% (%.0f-%.0f%%)\n' "$@"
}

export MLPBUNZIP2_TIMES=1
r=0
while [ $r -lt "$reps" ]; do
	"$wall" "$one" true
	r=$((r + 1))
done | sort -n | awk '{ v[NR] = $1 } END { printf "floor: a process that does nothing (true), spawned and waited for as each command: median %.4f s, min %.4f, max %.4f\n", v[int((NR + 1) / 2)], v[1], v[NR] }'
printf '%-8s %-31s %8s %8s %8s %10s\n' input command median_s min_s max_s rss_kB
for in in text binary mixed; do
	"$bin" -c -n2 "$dir/$in.bz2" 2>/dev/null | cmp -s - "$dir/$in" || { echo "mlpbunzip2 -n2 differs on $in" >&2; exit 1; }
	tdir=$work/$in
	mkdir -p "$tdir"
	commands "$in" >"$tdir/specs"
	r=0
	while [ $r -lt "$reps" ]; do
		i=0
		while IFS= read -r spec; do
			i=$((i + 1))
			if [ "${spec%%|*}" = "mlpbunzip2 -n1 on both at once" ]; then
				at_once "$in" "$tdir" "$i"
				continue
			fi
			# shellcheck disable=SC2046
			"$wall" $(echo "$spec" | cut -d'|' -f2) $(echo "$spec" | cut -d'|' -f3) 2>>"$tdir/$i.err" </dev/null |
				awk '{ printf "%.4f %s\n", $1, $2 }' >>"$tdir/$i"
		done <"$tdir/specs"
		r=$((r + 1))
	done
	i=0
	while IFS= read -r spec; do
		i=$((i + 1))
		set -- $(summary "$tdir/$i")
		printf '%-8s %-31s %8s %8s %8s %10s\n' "$in" "${spec%%|*}" "$1" "$2" "$3" "$4"
		echo "${spec%%|*} $1" >>"$tdir/medians"
		if [ -s "$tdir/$i.each" ]; then
			echo "at-once $(awk '{ print $1 }' "$tdir/$i.each" | sort -n | sed -n "$(( (reps + 1) / 2 ))p") $(awk '{ print $2 }' "$tdir/$i.each" | sort -n | sed -n "$(( (reps + 1) / 2 ))p")" >>"$tdir/medians"
		fi
	done <"$tdir/specs"
	warm_line "$in" "$tdir"
	paired_line "$in" "$tdir"
	awk -v inp="$in" -v one="$one" -v two="$two" '
		/^mlpbunzip2 -n1 on CPU/ { b = $NF } /^mlpbunzip2 -n1 [0-9.]+$/ { a = $NF } /^mlpbunzip2 -n2 / { n2 = $NF }
		/^at-once / { a2 = $2; b2 = $3 }
		END { if (a > 0 && b > 0 && n2 > 0)
			printf "%-8s the CPUs: -n1 %.3f s on CPU %s, %.3f on CPU %s: -n2 can reach %.2fx (the CPUs alone, its blocks not counted), reached %.2fx (%.0f%%)\n",
				inp, a, one, b, two, 1 + a / b, a / n2, 100 * (a / n2) / (1 + a / b)
		      if (a > 0 && a2 > 0 && b2 > 0 && n2 > 0)
			printf "%-8s both at once: -n1 %.3f s on CPU %s, %.3f on CPU %s: -n2 can reach %.2fx, reached %.0f%% of it\n",
				inp, a2, one, b2, two, a / a2 + a / b2, 100 * (a / n2) / (a / a2 + a / b2) }' "$tdir/medians"
	rm -rf "$tdir"
done
