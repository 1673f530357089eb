/*
 * Tests for the set-up scripts a fresh machine depends on: tools/deps.sh's
 * plan (what it would install, decided by package, on chosen sets of
 * installed packages given through DEPS_PRESENT) and tests/toolchain.sh's
 * proof that an optional check's tools work (a cross compiler that exists but
 * cannot compile a file including a libc header must give a SKIP with the
 * reason). The package names are written out here on purpose: the test is
 * the requirement, so dropping a package from the script fails it.
 */
#include "../harness.h"

#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#define BUILD_PACKAGES "gcc\nlibc6-dev\nmake\nbinutils\npython3\nlibbz2-dev\n"
#define TEST_PACKAGES                                                                     \
	"gcc-aarch64-linux-gnu\nlibc6-dev-arm64-cross\nbinutils-aarch64-linux-gnu\nqemu-user\n" \
	"valgrind\nchromium\nclang-14\nlibclang-rt-14-dev\ngroff-base\nman-db\nprometheus\npython3-yaml\n" \
	"slurm-wlm\nmunge\nlbzip2\n7zip\n"
#define ALL_PACKAGES                                                                      \
	"gcc libc6-dev make binutils python3 libbz2-dev gcc-aarch64-linux-gnu libc6-dev-arm64-cross "       \
	"binutils-aarch64-linux-gnu qemu-user valgrind chromium clang-14 libclang-rt-14-dev groff-base man-db "   \
	"prometheus python3-yaml slurm-wlm munge lbzip2 7zip"

/* Runs a shell command from the repository root; its stdout and stderr in
 * out, its exit status returned (-1 when it did not exit). */
static int run(const char *cmd, char *out, size_t n)
{
	char full[1024];
	size_t used = 0;
	FILE *p;
	int st;

	snprintf(full, sizeof(full), "%s 2>&1", cmd);
	out[0] = 0;
	if (!(p = popen(full, "r")))
		return -1;
	while (used + 1 < n) {
		size_t got = fread(out + used, 1, n - 1 - used, p);

		if (!got)
			break;
		used += got;
	}
	out[used] = 0;
	while (fgetc(p) != EOF)
		;
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

TEST(deps_plan_on_an_empty_machine_lists_every_package, NEEDS_PROGRAMS)
{
	char out[2048];

	CHECK(run("DEPS_PRESENT= tools/deps.sh --test --plan", out, sizeof(out)) == 0, "%s", out);
	CHECK(strcmp(out, BUILD_PACKAGES TEST_PACKAGES) == 0, "plan:\n%s", out);
	CHECK(run("DEPS_PRESENT= tools/deps.sh --plan", out, sizeof(out)) == 0, "%s", out);
	CHECK(strcmp(out, BUILD_PACKAGES) == 0, "without --test the plan is the build's alone:\n%s", out);
}

/* The fresh-machine failure: the cross compiler present (a command exists)
 * without its libc headers, which are only a Recommends of it. */
TEST(deps_plan_adds_the_cross_libc_headers_beside_an_installed_cross_compiler, NEEDS_PROGRAMS)
{
	char out[2048];
	const char *cmd = "DEPS_PRESENT='gcc libc6-dev make binutils python3 libbz2-dev gcc-aarch64-linux-gnu "
			  "binutils-aarch64-linux-gnu qemu-user valgrind chromium clang-14 libclang-rt-14-dev groff-base man-db prometheus python3-yaml "
			  "slurm-wlm munge lbzip2 7zip' "
			  "tools/deps.sh --test --plan";

	CHECK(run(cmd, out, sizeof(out)) == 0, "%s", out);
	CHECK(strcmp(out, "libc6-dev-arm64-cross\n") == 0, "plan:\n%s", out);
}

TEST(deps_plan_is_empty_when_every_package_is_installed, NEEDS_PROGRAMS)
{
	char out[2048];

	CHECK(run("DEPS_PRESENT='" ALL_PACKAGES "' tools/deps.sh --test --plan", out, sizeof(out)) == 0, "%s", out);
	CHECK(out[0] == 0, "plan:\n%s", out);
	/* and the real run does nothing (no apt-get) when nothing is missing */
	CHECK(run("DEPS_PRESENT='" ALL_PACKAGES "' tools/deps.sh --test", out, sizeof(out)) == 0, "%s", out);
	CHECK(out[0] == 0, "output with nothing to install:\n%s", out);
	CHECK(run("tools/deps.sh --tests", out, sizeof(out)) == 2 && strstr(out, "--tests"),
	      "an unknown option must be refused by name: %s", out);
}

TEST(toolchain_probe_skips_a_cross_compiler_without_libc_headers, NEEDS_PROGRAMS)
{
	char out[2048];

	/* -nostdinc: the compiler runs, but no libc header can be found, as
	 * with gcc-aarch64-linux-gnu installed without libc6-dev-arm64-cross */
	CHECK(run("A64_CC='cc -nostdinc' A64_RUN= tests/toolchain.sh aarch64", out, sizeof(out)) == 1, "%s", out);
	CHECK(strncmp(out, "SKIP check-aarch64: ", 20) == 0 && strstr(out, "stdint.h") &&
		      strstr(out, "(tools/deps.sh --test installs it)"),
	      "%s", out);
	CHECK(run("A64_CC=/nonexistent/gcc tests/toolchain.sh aarch64", out, sizeof(out)) == 1 &&
		      strstr(out, "is not installed"),
	      "%s", out);
	/* a compiler that builds programs its runner cannot run */
	CHECK(run("A64_CC=cc A64_RUN=false tests/toolchain.sh aarch64", out, sizeof(out)) == 1 &&
		      strstr(out, "cannot run"),
	      "%s", out);
}

/* The same probe accepts a working toolchain: the host's own compiler, its
 * programs run natively (so a probe that always skipped would fail here). */
TEST(toolchain_probe_accepts_a_working_compiler, NEEDS_PROGRAMS)
{
	char out[2048];

	CHECK(run("A64_CC=cc A64_RUN= tests/toolchain.sh aarch64", out, sizeof(out)) == 0, "%s", out);
	CHECK(out[0] == 0, "a passing probe prints nothing: %s", out);
}

TEST(toolchain_probe_skips_a_disassembler_that_does_not_decode, NEEDS_PROGRAMS)
{
	char out[2048];

	CHECK(run("OBJDUMP=true tests/toolchain.sh objdump-x86_64", out, sizeof(out)) == 1 &&
		      strstr(out, "SKIP objdump-x86_64: ") && strstr(out, "did not decode"),
	      "%s", out);
	CHECK(run("QEMU_A64=true tests/toolchain.sh qemu-aarch64", out, sizeof(out)) == 1 &&
		      strstr(out, "SKIP qemu-aarch64: ") && strstr(out, "not 42"),
	      "an emulator that does not run the known program: %s", out);
	CHECK(run("PROMTOOL=true tests/toolchain.sh promtool", out, sizeof(out)) == 1 &&
	      strstr(out, "SKIP promtool:") && strstr(out, "abbreviated unit"), "a linter that passes everything: %s", out);
	CHECK(run("VALGRIND=true tests/toolchain.sh valgrind", out, sizeof(out)) == 1 &&
		      strstr(out, "SKIP valgrind: "),
	      "%s", out);
	CHECK(run("tests/toolchain.sh nothing", out, sizeof(out)) == 2, "%s", out);
}

/* The fuzz probe: gcc runs but has no libFuzzer (-fsanitize=fuzzer), as a
 * clang without libclang-rt-14-dev; a missing clang is named. */
TEST(toolchain_probe_skips_a_compiler_without_libfuzzer, NEEDS_PROGRAMS)
{
	char out[2048];

	CHECK(run("FUZZ_CC=/nonexistent/clang tests/toolchain.sh fuzz", out, sizeof(out)) == 1 &&
		      strstr(out, "SKIP fuzz: /nonexistent/clang is not installed (tools/deps.sh --test installs it)"),
	      "%s", out);
	CHECK(run("FUZZ_CC=gcc tests/toolchain.sh fuzz", out, sizeof(out)) == 1 &&
		      strstr(out, "SKIP fuzz: gcc cannot link a libFuzzer target"),
	      "%s", out);
}
