#!/bin/sh
# Benchmark, not a test: mlpbunzip2 as a whole process against the peers.
# Builds three inputs, sorted (LC_ALL=C) so a rerun makes the same bytes,
# compressed by bzip2 -9 into DIR: text (licences, copyright files,
# headers: $BYTES bytes of them), binary (this machine's shared libraries,
# $BYTES bytes) and mixed (a tar of whole files taken in turn from the text
# and the binary lists until $MIXBYTES bytes, none over an eighth of it:
# one large library would make it all machine code; an archive as users
# make them, text and machine code block by block). Then times each decoder as
# its own process writing to /dev/null, pinned with taskset (one CPU for
# -n1 and the single-thread peers, two for -n2), one process at a time,
# the commands alternated (A B C, A B C, ... $REPS rounds) so a neighbour's
# burst or a frequency drift lands on every command alike, not on whichever
# ran last; prints per input and command the median, min and max wall
# seconds and the median peak RSS (the clock around each run, and /usr/bin/time's %M). Peers
# missing here are skipped. The machine should be otherwise quiet: the
# median of 5 is what it reports, not a noise floor.
# Two CPUs of a guest are seldom alike: a neighbour on the host (or on a
# CPU's SMT sibling) slows one of them for seconds at a time. So
# mlpbunzip2 -n1 runs on the second CPU too, in the same rounds, and each
# input ends with what the two CPUs allowed: the -n2 speed-up that two
# threads could reach at most (1 + the first CPU's -n1 time over the
# second's) beside the one reached. Two CPUs busy at once may each run
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

# The commands for input $1, one "name|command" a line, installed ones only.
commands() {
	f=$dir/$1.bz2
	for spec in \
		"mlpbunzip2 -n1|taskset -c $one $bin -c -n1 $f" \
		"mlpbunzip2 -n2|taskset -c $cpus $bin -c -n2 $f" \
		"mlpbunzip2 -n1 on CPU $two|taskset -c $two $bin -c -n1 $f" \
		"mlpbunzip2 -n1 on both at once|taskset -c $cpus $bin -c -n1 $f (two at once: at_once)" \
		"bzip2 -dc|taskset -c $one bzip2 -dc $f" \
		"lbzip2 -d -n1|taskset -c $one lbzip2 -d -c -n1 $f" \
		"lbzip2 -d -n2|taskset -c $cpus lbzip2 -d -c -n2 $f" \
		"7zz e -so -mmt1|taskset -c $one 7zz e -so -mmt1 $f" \
		"7zz e -so -mmt2|taskset -c $cpus 7zz e -so -mmt2 $f" \
		"pbzip2 -d -p1|taskset -c $one pbzip2 -d -c -p1 $f" \
		"pbzip2 -d -p2|taskset -c $cpus pbzip2 -d -c -p2 $f"; do
		prog=$(echo "${spec#*|}" | awk '{ print $4 }')
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
	one_at() {
		t0=$(date +%s%N)
		/usr/bin/time -f '%M' -o "$2/$3.rss.$1" taskset -c "$1" "$bin" -c -n1 "$f" >/dev/null 2>&1 </dev/null
		t1=$(date +%s%N)
		echo $(( (t1 - t0) / 1000000 )) >"$2/$3.ms.$1"
	}
	one_at "$one" "$2" "$3" &
	one_at "$two" "$2" "$3"
	wait
	a=$(cat "$2/$3.ms.$one")
	b=$(cat "$2/$3.ms.$two")
	echo "$a $b" | awk '{ printf "%.3f %.3f\n", $1 / 1000, $2 / 1000 }' >>"$2/$3.each"
	echo "$a $b $(cat "$2/$3.rss.$one")" | awk '{ printf "%.3f %s\n", ($1 > $2 ? $1 : $2) / 1000, $3 }' >>"$2/$3"
}

printf '%-8s %-31s %8s %8s %8s %10s\n' input command median_s min_s max_s rss_kB
for in in text binary mixed; do
	"$bin" -c -n2 "$dir/$in.bz2" | cmp -s - "$dir/$in" || { echo "mlpbunzip2 -n2 differs on $in" >&2; exit 1; }
	tdir=$(mktemp -d)
	commands "$in" >"$tdir/specs"
	r=0
	while [ $r -lt "$reps" ]; do
		i=0
		while IFS= read -r spec; do
			i=$((i + 1))
			# Wall time in ms from the clock around the run (time's %e
			# has 10 ms steps, 4% of a 0.25 s decode); peak RSS from time.
			if [ "${spec%%|*}" = "mlpbunzip2 -n1 on both at once" ]; then
				at_once "$in" "$tdir" "$i"
				continue
			fi
			t0=$(date +%s%N)
			/usr/bin/time -f '%M' -o "$tdir/$i.rss" sh -c "${spec#*|}" >/dev/null 2>&1 </dev/null
			t1=$(date +%s%N)
			echo "$(( (t1 - t0) / 1000000 )) $(cat "$tdir/$i.rss")" | awk '{ printf "%.3f %s\n", $1 / 1000, $2 }' >>"$tdir/$i"
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
