#!/usr/bin/env bash
# Records the machine it runs on as a recorded host (src/core/host.h): the
# files mlpscope reads, copied under their absolute paths, and host.txt,
# the answers no file holds (CPUID leaves, the CPUs this process may use,
# what the PMU permits, the core clock), written by build/host_answers.
# A test or `MLPSCOPE_HOST=DIR mlpscope ...` then reads this machine's facts
# from DIR on any machine.
#
#   tools/record_host.sh DIR    e.g. tests/data/cpus/<vendor>-<name>-f<F>-m<M>/host
#
# Run it as the user and under the affinity mlpscope will run with: the
# allowed CPUs are this process's. Needs nothing but the build.
set -euo pipefail

dir=${1:?usage: tools/record_host.sh DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
make -C "$root" --no-print-directory -s build/host_answers >&2

# Each readable file, byte for byte, at DIR + its path. sysfs and procfs
# files report a size of 0 or 4096, so they are read, not copied.
copy() {
	local f
	for f in "$@"; do
		[ -r "$f" ] || continue
		mkdir -p "$dir$(dirname "$f")"
		cat "$f" > "$dir$f" 2>/dev/null || rm -f "$dir$f"
	done
}

mkdir -p "$dir"
copy /proc/cpuinfo /proc/meminfo /proc/sys/kernel/perf_event_paranoid
for c in /sys/devices/system/cpu/cpu[0-9]*/cache/index[0-9]*; do
	[ -d "$c" ] || continue
	copy "$c"/level "$c"/type "$c"/size "$c"/coherency_line_size "$c"/ways_of_associativity "$c"/shared_cpu_list
done
# Each CPU's kind (src/core/coretype.c): the hybrid PMUs' CPU lists, each
# CPU's MIDR (AArch64) and scheduler capacity, where the kernel has them.
copy /sys/devices/cpu_core/cpus /sys/devices/cpu_atom/cpus
for c in /sys/devices/system/cpu/cpu[0-9]*; do
	[ -d "$c" ] || continue
	copy "$c"/regs/identification/midr_el1 "$c"/cpu_capacity
done
copy /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag \
	/sys/kernel/mm/transparent_hugepage/hpage_pmd_size
for h in /sys/kernel/mm/hugepages/hugepages-*; do
	[ -d "$h" ] || continue
	copy "$h"/nr_hugepages "$h"/free_hugepages
done
"$root/build/host_answers" > "$dir/host.txt.tmp"
mv "$dir/host.txt.tmp" "$dir/host.txt"
echo "recorded this machine into $dir" >&2
