#!/usr/bin/env bash
# Proves that the toolchain behind one optional check works end to end before
# the check uses it: a cross compiler that compiles, links and runs a program
# that includes libc headers; a disassembler that decodes known bytes; an
# emulator that runs a known AArch64 binary; valgrind that traces a program; a
# browser that renders a page and runs its script. A tool that exists but is
# half installed (the cross compiler without its libc headers) is exactly what
# this catches, and it makes the check a SKIP with the reason, not a failure.
#
#   tests/toolchain.sh CHECK     CHECK: aarch64 browser fuzz man objdump-x86_64
#                                       objdump-aarch64 promtool qemu-aarch64 valgrind
# Exit 0, silent, when the toolchain works; otherwise prints
#   SKIP <check>: <what is missing> (tools/deps.sh --test installs it)
# and exits 1. Tools can be overridden for tests: A64_CC, A64_RUN (the runner
# for AArch64 binaries; empty runs them natively), OBJDUMP, A64_OBJDUMP,
# QEMU_A64, VALGRIND, CHROMIUM, FUZZ_CC (the clang that builds the fuzzers), GROFF,
# PROMTOOL.
set -u

check=${1:?usage: tests/toolchain.sh CHECK}
work=$(mktemp -d "${TMPDIR:-/tmp}/mlpscope-toolchain-XXXXXX")
trap 'rm -rf "$work"' EXIT

skip() {
	echo "SKIP $1: $2 (tools/deps.sh --test installs it)"
	exit 1
}

# A static AArch64 Linux program of 132 bytes that exits with status 42:
# one ELF64 header, one PT_LOAD program header, then
#   movz x0, #42; movz x8, #93 (exit); svc #0
# (Arm ARM C6.2.239 MOVZ, C6.2.365 SVC; ELF64 from the System V gABI).
write_a64_exit42() {
	printf '\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00' >"$1"
	printf '\x02\x00\xb7\x00\x01\x00\x00\x00' >>"$1"                  # ET_EXEC, EM_AARCH64, EV_CURRENT
	printf '\x78\x00\x40\x00\x00\x00\x00\x00' >>"$1"                  # e_entry 0x400078
	printf '\x40\x00\x00\x00\x00\x00\x00\x00' >>"$1"                  # e_phoff 64
	printf '\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00' >>"$1"  # e_shoff, e_flags
	printf '\x40\x00\x38\x00\x01\x00\x00\x00\x00\x00\x00\x00' >>"$1"  # ehsize, phentsize, phnum 1, no sections
	printf '\x01\x00\x00\x00\x05\x00\x00\x00' >>"$1"                  # PT_LOAD, R+X
	printf '\x00\x00\x00\x00\x00\x00\x00\x00' >>"$1"                  # p_offset 0
	printf '\x00\x00\x40\x00\x00\x00\x00\x00' >>"$1"                  # p_vaddr 0x400000
	printf '\x00\x00\x40\x00\x00\x00\x00\x00' >>"$1"                  # p_paddr
	printf '\x84\x00\x00\x00\x00\x00\x00\x00' >>"$1"                  # p_filesz 132
	printf '\x84\x00\x00\x00\x00\x00\x00\x00' >>"$1"                  # p_memsz 132
	printf '\x00\x10\x00\x00\x00\x00\x00\x00' >>"$1"                  # p_align 4 KiB
	printf '\x40\x05\x80\xd2\xa8\x0b\x80\xd2\x01\x00\x00\xd4' >>"$1"  # the three instructions
	chmod +x "$1"
}

# objdump's decoding of a few known bytes must name the instruction.
probe_objdump() { # name tool machine bytes-printf want package
	local name=$1 tool=$2 machine=$3 bytes=$4 want=$5
	command -v "${tool%% *}" >/dev/null 2>&1 || skip "$name" "${tool%% *} is not installed"
	printf "$bytes" >"$work/code.bin"
	$tool -D -b binary -m "$machine" "$work/code.bin" >"$work/listing.txt" 2>&1 ||
		skip "$name" "$tool cannot disassemble $machine code: $(head -c 200 "$work/listing.txt")"
	grep -q "$want" "$work/listing.txt" ||
		skip "$name" "$tool did not decode a known '$want' ($machine)"
}

case "$check" in
aarch64)
	cc=${A64_CC-aarch64-linux-gnu-gcc}
	run=${A64_RUN-qemu-aarch64}
	command -v "${cc%% *}" >/dev/null 2>&1 || skip check-aarch64 "${cc%% *} is not installed"
	if [ -n "$run" ]; then
		command -v "${run%% *}" >/dev/null 2>&1 || skip check-aarch64 "${run%% *} is not installed"
	fi
	# The headers the tree includes, and a static link as check-aarch64 does.
	cat >"$work/probe.c" <<'EOF'
#include <stdint.h>
#include <stdio.h>
#include <pthread.h>
#include <math.h>
int main(void)
{
	uint64_t x = 6;
	printf("probe %d\n", (int)(x * 7 + 0 * sqrt((double)x)));
	return 0;
}
EOF
	$cc -std=gnu11 -O1 -static -o "$work/probe" "$work/probe.c" -lm -lpthread >"$work/cc.txt" 2>&1 ||
		skip check-aarch64 "$cc cannot build a static program with libc headers: $(grep -m1 -i error "$work/cc.txt" | sed 's#^.*/probe\.c#probe.c#')"
	out=$($run "$work/probe" 2>&1) || skip check-aarch64 "${run:-the host} cannot run what $cc built: $out"
	[ "$out" = "probe 42" ] || skip check-aarch64 "the program built by $cc printed '$out', not 'probe 42'"
	;;
qemu-aarch64)
	qemu=${QEMU_A64-qemu-aarch64}
	command -v "${qemu%% *}" >/dev/null 2>&1 || skip qemu-aarch64 "${qemu%% *} is not installed"
	write_a64_exit42 "$work/exit42"
	$qemu "$work/exit42" >/dev/null 2>&1
	st=$?
	[ "$st" -eq 42 ] || skip qemu-aarch64 "$qemu ran a known AArch64 program with status $st, not 42"
	;;
objdump-x86_64)
	# 0x90 nop, 0xc3 ret
	probe_objdump objdump-x86_64 "${OBJDUMP-objdump}" i386:x86-64 '\x90\xc3' ret
	;;
objdump-aarch64)
	# d503201f nop, d65f03c0 ret
	probe_objdump objdump-aarch64 "${A64_OBJDUMP-aarch64-linux-gnu-objdump}" aarch64 \
		'\x1f\x20\x03\xd5\xc0\x03\x5f\xd6' ret
	;;
valgrind)
	vg=${VALGRIND-valgrind}
	command -v "${vg%% *}" >/dev/null 2>&1 || skip valgrind "${vg%% *} is not installed"
	$vg --tool=lackey --trace-mem=yes --log-file="$work/trace" /bin/true >/dev/null 2>&1 ||
		skip valgrind "$vg --tool=lackey failed on /bin/true"
	grep -q '^ *[LS] ' "$work/trace" || skip valgrind "$vg --tool=lackey wrote no memory trace"
	;;
browser)
	chrome=${CHROMIUM-$(command -v chromium || command -v chromium-browser || true)}
	[ -n "$chrome" ] && command -v "${chrome%% *}" >/dev/null 2>&1 || skip test-browser "chromium is not installed"
	echo '<!doctype html><p id=p>no</p><script>document.getElementById("p").textContent="probe-"+6*7</script>' \
		>"$work/probe.html"
	timeout 120 $chrome --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
		--user-data-dir="$work/profile" --dump-dom "file://$work/probe.html" >"$work/dom.html" 2>"$work/err.txt"
	grep -q 'probe-42' "$work/dom.html" ||
		skip test-browser "$chrome did not render a page and run its script: $(grep -m1 -i error "$work/err.txt")"
	;;
fuzz)
	# libFuzzer ships in clang's runtime package, not with the compiler:
	# clang alone links nothing with -fsanitize=fuzzer. A target that must
	# find a planted crash proves the engine runs, under the sanitizers the
	# fuzz build uses.
	cc=${FUZZ_CC-clang-14}
	command -v "${cc%% *}" >/dev/null 2>&1 || skip fuzz "${cc%% *} is not installed"
	cat >"$work/probe.c" <<'EOF'
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	if (n >= 2 && d[0] == 'o' && d[1] == 'k')
		abort();
	return 0;
}
EOF
	$cc -g -fsanitize=fuzzer,address,undefined,float-cast-overflow -o "$work/probe" "$work/probe.c" >"$work/cc.txt" 2>&1 ||
		skip fuzz "$cc cannot link a libFuzzer target: $(grep -m1 -i error "$work/cc.txt")"
	mkdir -p "$work/corpus"
	printf 'oj' >"$work/corpus/seed"
	timeout 60 "$work/probe" -runs=200000 -seed=1 -artifact_prefix="$work/" "$work/corpus" >"$work/run.txt" 2>&1
	ls "$work"/crash-* >/dev/null 2>&1 || skip fuzz "a libFuzzer target built by $cc did not find a planted crash"
	;;
man)
	# groff -ww exits 0 even when it warns: a working checker is one that is
	# silent on a valid page and names an undefined macro on a broken one.
	groff=${GROFF-groff}
	command -v "${groff%% *}" >/dev/null 2>&1 || skip man "${groff%% *} is not installed"
	printf '.TH PROBE 1\n.SH NAME\nprobe \\- a page\n' >"$work/good.1"
	printf '.TH PROBE 1\n.SH NAME\nprobe \\- a page\n.XYZZY\n' >"$work/bad.1"
	$groff -ww -man -z "$work/good.1" >"$work/good.txt" 2>&1 || skip man "$groff -man failed on a valid page"
	[ ! -s "$work/good.txt" ] || skip man "$groff -ww warns on a valid page: $(head -c 200 "$work/good.txt")"
	$groff -ww -man -z "$work/bad.1" >"$work/bad.txt" 2>&1
	grep -q XYZZY "$work/bad.txt" || skip man "$groff -ww did not warn about an undefined macro"
	;;
promtool)
	# A working linter passes a valid gauge and refuses an abbreviated unit.
	pt=${PROMTOOL-promtool}
	command -v "${pt%% *}" >/dev/null 2>&1 || skip promtool "${pt%% *} is not installed"
	printf '# HELP probe_seconds a probe\n# TYPE probe_seconds gauge\nprobe_seconds{a="b"} 1.5\n' >"$work/good.prom"
	printf '# HELP probe_ns a probe\n# TYPE probe_ns gauge\nprobe_ns 1\n' >"$work/bad.prom"
	$pt check metrics <"$work/good.prom" >"$work/good.txt" 2>&1 ||
		skip promtool "$pt check metrics refused a valid gauge: $(head -c 200 "$work/good.txt")"
	! $pt check metrics <"$work/bad.prom" >/dev/null 2>&1 ||
		skip promtool "$pt check metrics passed an abbreviated unit (probe_ns)"
	;;
*)
	echo "tests/toolchain.sh: $check: unknown check (expected aarch64, browser, fuzz, man, objdump-x86_64, objdump-aarch64, promtool, qemu-aarch64 or valgrind)" >&2
	exit 2
	;;
esac
exit 0
