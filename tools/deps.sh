#!/bin/sh
# Installs what building and testing mlpscope need on Debian/Ubuntu, and only
# what is missing: a C compiler, make, binutils (objdump, for `make disasm`)
# and python3 (the tests parse JSON with a real parser). With --test, also the
# tools some tests use: the AArch64 cross compiler and objdump and qemu-user
# (to build and test the AArch64 code, JIT encoder included, from any host)
# and Chromium (to render the HTML report). Those checks skip, saying why,
# where these cannot be installed.
# Does nothing when all are present, so it is safe to run every time.
set -e
missing=""
if [ "${1:-}" = "--test" ]; then
	command -v aarch64-linux-gnu-objdump >/dev/null 2>&1 || missing="$missing binutils-aarch64-linux-gnu"
	command -v qemu-aarch64 >/dev/null 2>&1 || missing="$missing qemu-user"
	command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
	command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || missing="$missing gcc-aarch64-linux-gnu"
fi
command -v cc >/dev/null 2>&1 || missing="$missing gcc libc6-dev"
command -v make >/dev/null 2>&1 || missing="$missing make"
command -v objdump >/dev/null 2>&1 || missing="$missing binutils"
command -v python3 >/dev/null 2>&1 || missing="$missing python3"
[ -z "$missing" ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
	echo "deps.sh: missing:$missing; install them with your package manager" >&2
	exit 1
fi
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
echo "deps.sh: installing$missing" >&2
$sudo apt-get update -qq || true
# Test-only tools are best effort: a mirror without them must not stop the build.
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing ||
	echo "deps.sh: could not install all of:$missing (tests that need them will skip)" >&2
