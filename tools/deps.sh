#!/bin/sh
# Installs the Debian/Ubuntu packages that building and testing mlpscope need,
# and only those that are missing. Whether a package is missing is decided by
# the package database (dpkg-query), never by whether some command exists: a
# command can exist while a package it needs to work does not (the AArch64
# cross compiler installs without its libc headers, which are only a
# Recommends, so it exists and cannot compile a file that includes one).
# Does nothing when all are present, so it is safe to run every time.
#
#   tools/deps.sh            what the build and `make run` need
#   tools/deps.sh --test     also what the optional checks of `make check` use
#   tools/deps.sh --plan     print the missing packages, one a line; install nothing
#
# DEPS_PRESENT="pkg ..." stands in for the package database (the suite uses it
# to check the plan on chosen sets of installed packages).
set -eu

# One row per package: which set it belongs to, its name, and why it is here.
# The optional checks prove their tools work before using them and SKIP,
# naming what is missing, where a package could not be installed.
packages() {
	cat <<'EOF'
build gcc                         the C compiler (cc)
build libc6-dev                   libc's headers and static libc for cc (the trace tests link -static)
build make                        the build
build binutils                    objdump: make disasm and the x86-64 gold listing of the JIT encoder
build python3                     the tests parse JSON, SVG, HTML and CSV with real parsers
build libbz2-dev                  app bzip2 checks its own decoder byte for byte against libbz2 (and times it beside)
test  gcc-aarch64-linux-gnu       check-aarch64: the whole tree built for AArch64 under -Werror
test  libc6-dev-arm64-cross       the cross compiler's libc headers and static libc (only a Recommends of gcc-aarch64-linux-gnu)
test  binutils-aarch64-linux-gnu  aarch64-linux-gnu-objdump: the AArch64 gold listing of the JIT encoder
test  qemu-user                   qemu-aarch64: runs the AArch64 tests and the generated AArch64 probe
test  valgrind                    lackey memory traces of two small programs (the trace tests)
test  chromium                    headless rendering of the HTML report (test-browser)
test  clang-14                    make fuzz: the libFuzzer targets, under float-cast-overflow, which gcc's -fsanitize=undefined leaves out
test  libclang-rt-14-dev          libFuzzer and clang-14's sanitizer runtimes (clang links no fuzzer without it)
test  groff-base                  groff -ww -man: the suite checks the generated man page for warnings
test  man-db                      man -l: the install test reads the installed man page
test  prometheus                  promtool check metrics: the suite lints the --prom output
test  python3-yaml                the suite parses deploy/kubernetes/'s manifests and checks what the README promises of them
test  slurm-wlm                   slurmctld, slurmd and sbatch: tests/fleet/slurm.sh runs deploy/slurm/'s batch script on a one-host cluster
test  munge                       munged: the authentication that cluster's daemons and sbatch need
test  lbzip2                      app bzip2 times lbzip2 -n 1 beside our decoder (a peer run on one thread, named with its command)
test  7zip                        app bzip2 times 7-Zip's 7zz -mmt1 beside our decoder (the same; absent where the release has no 7zip)
EOF
}

want_test=0
plan_only=0
for arg in "$@"; do
	case "$arg" in
	--test) want_test=1 ;;
	--plan) plan_only=1 ;;
	*)
		echo "deps.sh: $arg: unknown option (expected --test and/or --plan)" >&2
		exit 2
		;;
	esac
done

have_dpkg=1
if [ -z "${DEPS_PRESENT+set}" ] && ! command -v dpkg-query >/dev/null 2>&1; then
	have_dpkg=0
fi

installed() {
	if [ -n "${DEPS_PRESENT+set}" ]; then
		case " $DEPS_PRESENT " in *" $1 "*) return 0 ;; esac
		return 1
	fi
	[ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]
}

missing_build=""
missing_test=""
rows=$(packages)
while read -r set pkg _why; do
	[ "$set" = build ] || [ "$want_test" -eq 1 ] || continue
	if [ "$have_dpkg" -eq 1 ] && installed "$pkg"; then
		continue
	fi
	if [ "$set" = build ]; then
		missing_build="$missing_build $pkg"
	else
		missing_test="$missing_test $pkg"
	fi
done <<EOF
$rows
EOF
missing="$missing_build$missing_test"

if [ "$plan_only" -eq 1 ]; then
	for pkg in $missing; do echo "$pkg"; done
	exit 0
fi
[ -z "$missing" ] && exit 0

if [ "$have_dpkg" -eq 0 ] || ! command -v apt-get >/dev/null 2>&1; then
	# Not Debian: say what the packages are for and let the user map them.
	if command -v cc >/dev/null 2>&1 && command -v make >/dev/null 2>&1; then
		echo "deps.sh: no dpkg/apt-get here; the optional checks skip where their tools are missing" >&2
		exit 0
	fi
	echo "deps.sh: no dpkg/apt-get here; install the equivalents of:$missing_build" >&2
	exit 1
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null 2>&1 || { echo "deps.sh: not root and no sudo; install:$missing" >&2; exit 1; }
	sudo="sudo"
fi
apt_install() {
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

echo "deps.sh: installing$missing" >&2
$sudo apt-get update -qq || true
if [ -n "$missing_build" ] && ! apt_install $missing_build; then
	echo "deps.sh: could not install:$missing_build (the build needs them)" >&2
	exit 1
fi
# Test-only packages are best effort: a mirror without one must not stop the
# others, so a failed batch is retried one package at a time.
if [ -n "$missing_test" ] && ! apt_install $missing_test; then
	failed=""
	for pkg in $missing_test; do
		apt_install "$pkg" || failed="$failed $pkg"
	done
	[ -z "$failed" ] ||
		echo "deps.sh: could not install:$failed (the checks that need them will skip, saying why)" >&2
fi
exit 0
