/*
 * The man page and make install. The page is written from the tables that
 * drive --help, and these tests hold it to them: every option and command
 * --help lists is on the page, groff -ww finds nothing to warn about (and
 * does warn about a page broken on purpose), and make install PREFIX=D /
 * DESTDIR=S puts a working binary and a readable page there, which make
 * uninstall removes again with the directories install made, and only them. Needs groff for the warnings
 * check (SKIP with the reason otherwise) and make for the install.
 */
#include "../harness.h"

#include "cli.h"
#include "frame/registry.h"
#include "man.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char *capture_man(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	man_write(f);
	fclose(f);
	return buf;
}

/* A shell command's status, its output in out. */
static int run(const char *cmd, char *out, size_t n)
{
	FILE *p = popen(cmd, "r");
	size_t used = 0;
	int st;

	out[0] = 0;
	if (!p)
		return -1;
	while (used + 1 < n && fgets(out + used, (int)(n - used), p))
		used += strlen(out + used);
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

TEST(man_page_lists_every_option_and_command_of_help)
{
	char *help = NULL, *man = capture_man(), *p;
	size_t len = 0, nopts = 0;
	FILE *f = open_memstream(&help, &len);

	CHECK(f && man, "memstream");
	cli_print_help(f, NULL);
	fclose(f);
	/* Every "  --name" that --help prints is a .B/.BI line on the page. */
	for (p = help; (p = strstr(p, "\n  --")); p += 4) {
		char name[48], want1[96], want2[96];
		size_t n = strcspn(p + 5, " \n"), k = 0;

		/* as roff spells it: every hyphen \- */
		for (size_t j = 0; j < n && k + 3 < sizeof(name); j++) {
			if (p[5 + j] == '-')
				name[k++] = '\\';
			name[k++] = p[5 + j];
		}
		name[k] = 0;
		snprintf(want1, sizeof(want1), ".B \\-\\-%s\n", name);
		snprintf(want2, sizeof(want2), ".BI \"\\-\\-%s ", name);
		CHECK(strstr(man, want1) || strstr(man, want2), "--%s is in --help but not on the man page", name);
		nopts++;
	}
	CHECK(nopts >= 15, "read only %zu options from --help:\n%s", nopts, help);
	for (size_t i = 0; i < registry_count; i++) {
		char want[64];

		snprintf(want, sizeof(want), ".TP\n.B %s\n", registry[i]->name);
		CHECK(strstr(man, want), "command %s is not on the man page", registry[i]->name);
	}
	CHECK(strstr(man, ".TH MLPSCOPE 1"), "no title line");
	free(help);
	free(man);
}

TEST(man_page_has_no_groff_warnings, NEEDS_PROGRAMS)
{
	char why[512], path[64], cmd[256], out[4096], *man;
	FILE *f;
	int fd, st;

	if (test_toolchain("man", why, sizeof(why)))
		SKIP("%s", why);
	snprintf(path, sizeof(path), "/tmp/mlpscope-man-XXXXXX");
	fd = mkstemp(path);
	CHECK(fd >= 0, "mkstemp");
	man = capture_man();
	f = fdopen(fd, "w");
	CHECK(f && man, "fdopen");
	fputs(man, f);
	fclose(f);
	free(man);
	snprintf(cmd, sizeof(cmd), "groff -ww -man -z '%s' 2>&1", path);
	st = run(cmd, out, sizeof(out));
	if (st == 0 && !out[0]) {
		/* The same check must fire on a page broken on purpose. */
		f = fopen(path, "a");
		fputs(".XYZZY broken\n", f);
		fclose(f);
		run(cmd, out + 1, sizeof(out) - 1);
		unlink(path);
		CHECK(strstr(out + 1, "XYZZY"), "groff -ww said nothing about an undefined macro");
		return;
	}
	unlink(path);
	CHECK(0, "groff -ww -man: status %d:\n%s", st, out);
}

/* The nested make runs on its own: under `make -j2 test` the outer make's
 * MAKEFLAGS names a jobserver whose descriptors this child does not hold,
 * and make then prints "jobserver unavailable" into the output checked. */
#define NESTED_MAKE "env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -s"

TEST(make_install_then_uninstall_leaves_only_what_was_there, NEEDS_BINARY | NEEDS_PROGRAMS)
{
	char dir[64], cmd[1024], out[8192], why[512];
	int st;

	if (system("command -v make >/dev/null 2>&1") || access("Makefile", R_OK))
		SKIP("make or the Makefile is not here (the test runs from the repository root)");
	snprintf(dir, sizeof(dir), "/tmp/mlpscope-install-XXXXXX");
	CHECK(mkdtemp(dir), "mkdtemp");
	/* Something of the user's already there, which uninstall must keep. */
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/p/bin' && echo mine > '%s/p/bin/other'", dir, dir);
	CHECK(system(cmd) == 0, "setup");
	/* -o: use the binary and page as built; a test never rebuilds them. */
	snprintf(cmd, sizeof(cmd),
		 NESTED_MAKE " -o %s/mlpscope -o %s/mlpscope.1 -o %s/mlpbunzip2 BUILD=%s install PREFIX='%s/p' 2>&1 && "
		 "'%s/p/bin/mlpscope' --version && test -s '%s/p/share/man/man1/mlpscope.1' && "
		 "test -s '%s/p/share/doc/mlpscope/OUTPUT.md' && '%s/p/bin/mlpbunzip2' --version && "
		 "test -s '%s/p/share/man/man1/mlpbunzip2.1'",
		 test_bin_dir(), test_bin_dir(), test_bin_dir(), test_bin_dir(), dir, dir, dir, dir, dir, dir);
	st = run(cmd, out, sizeof(out));
	CHECK(st == 0 && strstr(out, "mlpscope "), "install or --version failed (%d):\n%s", st, out);
	if (!test_toolchain("man", why, sizeof(why))) {
		snprintf(cmd, sizeof(cmd), "groff -ww -man -z '%s/p/share/man/man1/mlpscope.1' 2>&1", dir);
		CHECK(run(cmd, out, sizeof(out)) == 0 && !out[0], "the installed page: %s", out);
	}
	if (!system("command -v man >/dev/null 2>&1")) {
		snprintf(cmd, sizeof(cmd), "MANWIDTH=80 man -l '%s/p/share/man/man1/mlpscope.1' 2>&1 | grep -c -- '--quick'", dir);
		CHECK(run(cmd, out, sizeof(out)) == 0, "man -l cannot read the installed page");
	}
	/* DESTDIR stages under the prefix. */
	snprintf(cmd, sizeof(cmd),
		 NESTED_MAKE " -o %s/mlpscope -o %s/mlpscope.1 -o %s/mlpbunzip2 BUILD=%s install PREFIX=/usr "
		 "DESTDIR='%s/stage' 2>&1 && test -x '%s/stage/usr/bin/mlpscope' && test -x '%s/stage/usr/bin/mlpbunzip2' && "
		 NESTED_MAKE " BUILD=%s uninstall PREFIX=/usr DESTDIR='%s/stage' 2>&1 && "
		 "test ! -e '%s/stage'",
		 test_bin_dir(), test_bin_dir(), test_bin_dir(), test_bin_dir(), dir, dir, dir, test_bin_dir(), dir, dir);
	st = run(cmd, out, sizeof(out));
	CHECK(st == 0, "DESTDIR install/uninstall (%d):\n%s", st, out);
	snprintf(cmd, sizeof(cmd),
		 NESTED_MAKE " BUILD=%s uninstall PREFIX='%s/p' 2>&1 && cd '%s/p' && find . | sort",
		 test_bin_dir(), dir, dir);
	st = run(cmd, out, sizeof(out));
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd)) {
		/* a scratch folder left behind fails nothing */
	}
	CHECK(st == 0 && !strcmp(out, ".\n./bin\n./bin/other\n"), "after uninstall (%d), left:\n%s", st, out);
}
