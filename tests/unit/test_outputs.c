/*
 * Outputs never cost the user data (issue 26): an output that names an
 * input, a failed write to stdout, a full disk told as "I/O error", a
 * directory of plots left half written, '-' for standard output, a result
 * too large or too many values, a symbolic link as the output, temporaries
 * a killed writer left. Most run the binary in a scratch folder, with stdout
 * and stderr in files there; a full disk is RLIMIT_FSIZE (EFBIG, SIGXFSZ
 * ignored) or /dev/full (ENOSPC), neither needing root.
 */
#include "../harness.h"

#include "analyse/load.h"
#include "frame/registry.h"
#include "util/jsonr.h"
#include "util/atomic.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define TAG "outputs"

struct run {
	int status;
	char out[8192];   /* stdout's first bytes ("" when it went to /dev/full) */
	char err[2048];
	double seconds;
};

static void slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(buf, 1, len - 1, f) : 0;

	buf[n] = 0;
	if (f)
		fclose(f);
}

/* Run the binary with args (NULL-terminated) in dir. stdout goes to
 * stdout_to when given (e.g. /dev/full), else to a file read back; with
 * fsize_limit the child may write no file larger (its writes fail EFBIG). */
static int run_in(const char *dir, const char *stdout_to, rlim_t fsize_limit, const char *const *args, struct run *r)
{
	char bin[PATH_MAX], rel[PATH_MAX], outp[PATH_MAX + 16], errp[PATH_MAX + 16];
	const char *argv[24];
	struct timespec a, b;
	size_t n = 0;
	pid_t pid;
	int st;

	snprintf(rel, sizeof(rel), "%s/mlpscope", test_bin_dir());
	if (!realpath(rel, bin))
		return -1;
	snprintf(outp, sizeof(outp), "%s/.stdout", dir);
	snprintf(errp, sizeof(errp), "%s/.stderr", dir);
	argv[n++] = bin;
	for (; args[n - 1] && n < 23; n++)
		argv[n] = args[n - 1];
	argv[n] = NULL;
	clock_gettime(CLOCK_MONOTONIC, &a);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int o = open(stdout_to ? stdout_to : outp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int e = open(errp, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		if (o < 0 || e < 0 || chdir(dir) || dup2(o, 1) < 0 || dup2(e, 2) < 0)
			_exit(99);
		if (fsize_limit) {
			struct rlimit lim = { fsize_limit, fsize_limit };

			signal(SIGXFSZ, SIG_IGN);
			setrlimit(RLIMIT_FSIZE, &lim);
		}
		alarm(60);
		execv(bin, (char *const *)argv);
		_exit(98);
	}
	waitpid(pid, &st, 0);
	clock_gettime(CLOCK_MONOTONIC, &b);
	r->seconds = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	r->out[0] = 0;
	if (!stdout_to)
		slurp(outp, r->out, sizeof(r->out));
	slurp(errp, r->err, sizeof(r->err));
	unlink(outp);
	unlink(errp);
	return 0;
}

static bool same_bytes(const char *a, const char *b)
{
	static char x[1 << 20], y[1 << 20];

	slurp(a, x, sizeof(x));
	slurp(b, y, sizeof(y));
	return x[0] && !strcmp(x, y);
}

/* A scratch folder holding a.json, b.json (two results), w.json (window),
 * res/ (a directory of results) and t.txt (a --text input). */
static int make_inputs(char *dir, size_t len)
{
	char p[PATH_MAX];

	test_scratch_make(dir, len, TAG);
	if (!dir[0])
		return -1;
	snprintf(p, sizeof(p), "%s/res", dir);
	if (mkdir(p, 0700))
		return -1;
	static const char *const copies[][2] = {
		{ "tests/data/report_a.json", "a.json" }, { "tests/data/report_b.json", "b.json" },
		{ "tests/data/window.json", "w.json" }, { "tests/data/report_a.json", "res/a.json" },
		{ "tests/data/report_b.json", "res/b.json" }, { "tests/data/lackey_stream.trace", "t.txt" },
	};
	for (size_t i = 0; i < sizeof(copies) / sizeof(copies[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, copies[i][1]);
		if (test_copy_file(copies[i][0], p))
			return -1;
	}
	return 0;
}

/* Item 1: every output against every input, before any work. */
TEST(outputs_refused_when_they_name_an_input, NEEDS_BINARY)
{
	static const struct {
		const char *args[12];
		const char *names;  /* a fragment the one-line refusal holds */
		const char *victim; /* the input that must be unchanged */
	} cases[] = {
		{ { "compare", "a.json", "b.json", "--html", "a.json", NULL }, "--html: 'a.json'", "a.json" },
		{ { "model", "--from", "a.json", "--json", "a.json", NULL }, "(--from)", "a.json" },
		{ { "model", "--from", "a.json", "--json", "./res/../a.json", NULL }, "'a.json'", "a.json" },
		{ { "model", "--from", "a.json", "w.json", "--json", "w.json", NULL }, "(window result)", "w.json" },
		{ { "model", "--from", "a.json", "--json", "hard.json", NULL }, "'hard.json'", "a.json" },
		{ { "compare", "res", "--html", "res/b.json", NULL }, "'res'", "res/b.json" },
		{ { "compare", "res/latency.svg", "b.json", "--svg", "res", NULL }, "--svg", "res/latency.svg" },
		{ { "app", "bwt", "--text", "t.txt", "--json", "t.txt", NULL }, "(--text)", "t.txt" },
		{ { "compare", "a.json", "b.json", "--svg", "res", "--html", "res/latency.svg", NULL }, "both name",
		  "res/latency.svg" },
	};
	char dir[64], p[PATH_MAX], q[PATH_MAX], keep[PATH_MAX];
	struct run r;

	CHECK(make_inputs(dir, sizeof(dir)) == 0, "scratch inputs");
	snprintf(p, sizeof(p), "%s/a.json", dir);
	snprintf(q, sizeof(q), "%s/hard.json", dir);
	CHECK(link(p, q) == 0, "link");
	snprintf(q, sizeof(q), "%s/res/latency.svg", dir);
	CHECK(test_copy_file(p, q) == 0, "copy");
	snprintf(keep, sizeof(keep), "%s/res/keep.json", dir);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, cases[i].victim);
		CHECK(test_copy_file(p, keep) == 0, "copy");
		CHECK(run_in(dir, NULL, 0, cases[i].args, &r) == 0, "cannot run the binary");
		CHECK(r.status == 2 && strstr(r.err, cases[i].names) && (strstr(r.err, "input") || strstr(r.err, "both")) &&
		      strchr(r.err, '\n') == r.err + strlen(r.err) - 1,
		      "case %zu (%s ... %s): exit %d, want 2 with one line naming both: %s", i, cases[i].args[0],
		      cases[i].victim, r.status, r.err);
		CHECK(r.seconds < 3, "case %zu: refused after %.1f s, not before any work", i, r.seconds);
		CHECK(same_bytes(p, keep), "case %zu: the input %s changed", i, cases[i].victim);
	}
	/* Outputs beside their inputs, of other names, are fine. */
	{
		const char *ok[] = { "compare", "a.json", "b.json", "--svg", ".", "--html", "res/page.html", NULL };

		CHECK(run_in(dir, NULL, 0, ok, &r) == 0 && r.status == 0, "outputs beside the inputs refused: %d %s",
		      r.status, r.err);
	}
	test_scratch_remove(dir, TAG);
}

/* Item 2: a result on stdout that could not be written is exit 1 with the
 * errno, for every command. */
TEST(outputs_failed_stdout_write_exits_1_with_errno, NEEDS_BINARY)
{
	static const char *const cases[][6] = {
		{ "--help", NULL },
		{ "--version", NULL },
		{ "help", "mlp", NULL },
		{ "mlp", "--help", NULL },
		{ "compare", "a.json", "b.json", NULL },
		{ "model", "--from", "a.json", NULL },
		{ "trace", "t.txt", NULL },
		{ "model", "--from", "a.json", "--json", "-", NULL },
		{ "compare", "a.json", "b.json", "--html", "-", NULL },
		{ "machine", NULL },
	};
	char dir[64];
	struct run r;

	if (access("/dev/full", W_OK))
		SKIP("/dev/full is not writable here");
	CHECK(make_inputs(dir, sizeof(dir)) == 0, "scratch inputs");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK(run_in(dir, "/dev/full", 0, (const char *const *)cases[i], &r) == 0, "cannot run the binary");
		CHECK(r.status == 1 && strstr(r.err, strerror(ENOSPC)),
		      "'%s %s' > /dev/full: exit %d, want 1 saying '%s': %s", cases[i][0], cases[i][1] ? cases[i][1] : "",
		      r.status, strerror(ENOSPC), r.err);
	}
	test_scratch_remove(dir, TAG);
}

/* Items 3 and 4: a full disk (here a file size limit) is told with its
 * errno and the option, and leaves what was there as it was. */
TEST(outputs_write_errors_keep_errno_and_leave_old_files, NEEDS_BINARY)
{
	const char *html[] = { "compare", "a.json", "b.json", "--html", "old.html", NULL };
	const char *json[] = { "model", "--from", "a.json", "--json", "old.json", NULL };
	const char *svg_new[] = { "compare", "a.json", "b.json", "--svg", "plots", NULL };
	const char *svg_old[] = { "compare", "a.json", "b.json", "--svg", "res", NULL };
	char dir[64], p[PATH_MAX], text[64];
	struct run r;

	CHECK(make_inputs(dir, sizeof(dir)) == 0, "scratch inputs");
	snprintf(p, sizeof(p), "%s/old.html", dir);
	CHECK(test_write_text(p, "old") == 0, "write");
	snprintf(p, sizeof(p), "%s/old.json", dir);
	CHECK(test_write_text(p, "old") == 0, "write");
	snprintf(p, sizeof(p), "%s/res/latency.svg", dir);
	CHECK(test_write_text(p, "old") == 0, "write");

	CHECK(run_in(dir, "/dev/null", 4096, html, &r) == 0, "run");
	CHECK(r.status == 1 && strstr(r.err, "--html: ") && strstr(r.err, strerror(EFBIG)),
	      "--html on a full disk: exit %d, want 1 with '--html: ... %s': %s", r.status, strerror(EFBIG), r.err);
	CHECK(run_in(dir, "/dev/null", 4096, json, &r) == 0, "run");
	CHECK(r.status == 1 && strstr(r.err, "--json: ") && strstr(r.err, strerror(EFBIG)),
	      "--json on a full disk: exit %d: %s", r.status, r.err);
	snprintf(p, sizeof(p), "%s/old.html", dir);
	slurp(p, text, sizeof(text));
	CHECK(!strcmp(text, "old"), "old.html was changed to '%.20s'", text);

	/* 30 KiB: the first plot (latency, ~26 KB from these results) fits,
	 * the second (lanes_time, ~37 KB) does not, and none may appear. */
	CHECK(run_in(dir, "/dev/null", 30720, svg_new, &r) == 0, "run");
	snprintf(p, sizeof(p), "%s/plots", dir);
	CHECK(r.status == 1 && strstr(r.err, "--svg: ") && strstr(r.err, strerror(EFBIG)),
	      "--svg on a full disk: exit %d: %s", r.status, r.err);
	CHECK(access(p, F_OK) != 0, "--svg DIR left %d file(s) in a new DIR after failing", test_count_entries(p));
	CHECK(run_in(dir, "/dev/null", 30720, svg_old, &r) == 0 && r.status == 1, "run: %s", r.err);
	snprintf(p, sizeof(p), "%s/res", dir);
	CHECK(test_count_entries(p) == 3, "--svg DIR: %d entries in an existing DIR after failing, want the 3 "
	      "that were there", test_count_entries(p));
	snprintf(p, sizeof(p), "%s/res/latency.svg", dir);
	slurp(p, text, sizeof(text));
	CHECK(!strcmp(text, "old"), "an old plot was replaced by a failed run");
	/* Without the limit the same command writes them all. */
	CHECK(run_in(dir, NULL, 0, svg_new, &r) == 0 && r.status == 0, "run: %s", r.err);
	snprintf(p, sizeof(p), "%s/plots", dir);
	CHECK(test_count_entries(p) >= 3, "only %d plots written", test_count_entries(p));
	test_scratch_remove(dir, TAG);
}

static long largest_file(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	long most = -1;

	while (d && (e = readdir(d))) {
		struct stat st;

		if (!fstatat(dirfd(d), e->d_name, &st, 0) && S_ISREG(st.st_mode) && st.st_size > most)
			most = (long)st.st_size;
	}
	if (d)
		closedir(d);
	return most;
}

struct csv_job {
	const char *dir;
	const struct jsonr_value *root;
	long limit;
};

static int csv_limited(const void *arg)
{
	const struct csv_job *j = arg;
	struct rlimit lim = { (rlim_t)j->limit, (rlim_t)j->limit };

	signal(SIGXFSZ, SIG_IGN);
	setrlimit(RLIMIT_FSIZE, &lim);
	return registry_write_csv(j->dir, j->root) == -EFBIG ? 0 : 1;
}

/* Item 4, for --csv DIR: the largest table does not fit, so none appears. */
TEST(outputs_csv_dir_whole_or_nothing)
{
	char dir[64], all[PATH_MAX], none[PATH_MAX], err[512];
	struct jsonr_doc doc;
	struct csv_job job;
	pid_t pid;
	int st, n;

	test_scratch_make(dir, sizeof(dir), TAG);
	CHECK(dir[0], "mkdtemp");
	CHECK(result_load("tests/data/report_a.json", &doc, err, sizeof(err)) == 0, "%s", err);
	snprintf(all, sizeof(all), "%s/all", dir);
	snprintf(none, sizeof(none), "%s/none", dir);
	CHECK(registry_write_csv(all, doc.root) == 0, "write the tables");
	n = test_count_entries(all);
	job = (struct csv_job){ none, doc.root, largest_file(all) - 1 };
	CHECK(n >= 3 && job.limit > 0, "%d tables, largest %ld bytes", n, job.limit + 1);
	if ((pid = fork()) == 0)
		_exit(csv_limited(&job));
	waitpid(pid, &st, 0);
	jsonr_free(&doc);
	CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "writing the tables under a size limit did not fail with EFBIG");
	CHECK(access(none, F_OK) != 0, "a failed --csv DIR left %d table(s) in a new DIR", test_count_entries(none));
	test_scratch_remove(dir, TAG);
}

/* Item 7: '-' is standard output on every file output; at most one. */
TEST(outputs_dash_is_stdout_once, NEEDS_BINARY)
{
	const char *json[] = { "model", "--from", "a.json", "--json", "-", NULL };
	const char *html[] = { "compare", "a.json", "b.json", "--html", "-", NULL };
	const char *machine[] = { "machine", "--json", "-", NULL };
	const char *two[] = { "machine", "--json", "-", "--html", "-", NULL };
	const char *svg[] = { "compare", "a.json", "b.json", "--svg", "-", NULL };
	char dir[64], p[PATH_MAX];
	struct run r;

	CHECK(make_inputs(dir, sizeof(dir)) == 0, "scratch inputs");
	CHECK(run_in(dir, NULL, 0, json, &r) == 0, "run");
	CHECK(r.status == 0 && !strncmp(r.out, "{", 1) && strstr(r.out, "\"tool\": \"mlpscope\"") &&
	      !strstr(r.out, "model: "), "model --json -: exit %d, stdout '%.60s' (want the JSON alone)", r.status, r.out);
	CHECK(run_in(dir, NULL, 0, html, &r) == 0, "run");
	CHECK(r.status == 0 && !strncmp(r.out, "<!DOCTYPE html>", 15), "compare --html -: exit %d, stdout '%.60s'",
	      r.status, r.out);
	snprintf(p, sizeof(p), "%s/-", dir);
	CHECK(access(p, F_OK) != 0, "a file named '-' was written");
	CHECK(run_in(dir, NULL, 0, machine, &r) == 0, "run");
	CHECK(r.status == 0 && !strncmp(r.out, "{", 1) && strstr(r.out, "\"machine\""),
	      "machine --json -: exit %d, stdout '%.60s' (want the JSON alone)", r.status, r.out);
	CHECK(run_in(dir, NULL, 0, two, &r) == 0, "run");
	CHECK(r.status == 2 && strstr(r.err, "--json and --html both name standard output"), "two outputs on '-': "
	      "exit %d: %s", r.status, r.err);
	CHECK(run_in(dir, NULL, 0, svg, &r) == 0, "run");
	CHECK(r.status == 2 && strstr(r.err, "--svg: '-'"), "--svg -: exit %d: %s", r.status, r.err);
	test_scratch_remove(dir, TAG);
}

/* Item 6: a result over the size cap is refused from its size (the message
 * gives it), and one over the value cap is not called incomplete. Native:
 * the oversized documents take 5 s to build under qemu, 0.7 s here. */
TEST(outputs_oversized_results_refused_honestly, NEEDS_NATIVE)
{
	char dir[64], p[PATH_MAX], err[512];
	struct jsonr_doc doc;
	FILE *f;
	int fd, rc;

	test_scratch_make(dir, sizeof(dir), TAG);
	CHECK(dir[0], "mkdtemp");
	snprintf(p, sizeof(p), "%s/huge.json", dir);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	CHECK(fd >= 0 && ftruncate(fd, (off_t)300 << 20) == 0, "a sparse 300 MiB file");
	close(fd);
	rc = result_load(p, &doc, err, sizeof(err));
	CHECK(rc == -EFBIG && strstr(err, "314572800 bytes") && strstr(err, p), "rc %d: '%s' (want its size named)",
	      rc, err);

	snprintf(p, sizeof(p), "%s/values.json", dir);
	f = fopen(p, "w");
	CHECK(f, "fopen");
	fputc('[', f);
	for (long i = 0; i < (4L << 20); i++)
		fputs("0,", f);
	fputs("0]", f);
	CHECK(fclose(f) == 0, "write");
	rc = result_load(p, &doc, err, sizeof(err));
	test_scratch_remove(dir, TAG);
	CHECK(rc == -E2BIG && result_load_usage_error(rc), "rc %d", rc);
	CHECK(strstr(err, "4194304 values") && !strstr(err, "not a complete"), "'%s'", err);
}

/* Item 6: an output that is a symbolic link is written through to its
 * target; a link to nothing is refused. */
TEST(outputs_symlink_is_written_through)
{
	char dir[64], target[PATH_MAX], lnk[PATH_MAX], dangling[PATH_MAX], text[64];
	struct atomic_file a;
	struct stat st;
	int rc;

	test_scratch_make(dir, sizeof(dir), TAG);
	CHECK(dir[0], "mkdtemp");
	snprintf(target, sizeof(target), "%s/target.html", dir);
	snprintf(lnk, sizeof(lnk), "%s/link.html", dir);
	snprintf(dangling, sizeof(dangling), "%s/dangling.html", dir);
	CHECK(test_write_text(target, "old") == 0 && symlink("target.html", lnk) == 0 &&
	      symlink("nowhere/x.html", dangling) == 0, "setup");
	CHECK(atomic_open(&a, lnk) == 0, "open through a link");
	fputs("new", a.f);
	CHECK(atomic_commit(&a) == 0, "commit");
	CHECK(lstat(lnk, &st) == 0 && S_ISLNK(st.st_mode), "the link was replaced by a file");
	slurp(target, text, sizeof(text));
	CHECK(!strcmp(text, "new"), "the link's target holds '%s', want 'new'", text);
	rc = atomic_open(&a, dangling);
	CHECK(rc == -ENOLINK && strstr(atomic_strerror(rc), "symbolic link"), "a dangling link: rc %d", rc);
	CHECK(test_count_entries(dir) == 3, "%d entries, want the target and two links", test_count_entries(dir));
	test_scratch_remove(dir, TAG);
}

/* Item 6: NAME.tmp.XXXXXX a killed writer left is swept by the next write
 * to NAME; one a live writer holds (locked) is not. */
TEST(outputs_stale_temporaries_swept_live_ones_kept)
{
	char dir[64], out[PATH_MAX], stale[PATH_MAX], live[PATH_MAX], other[PATH_MAX];
	struct atomic_file a;
	int fd;

	test_scratch_make(dir, sizeof(dir), TAG);
	CHECK(dir[0], "mkdtemp");
	snprintf(out, sizeof(out), "%s/out.json", dir);
	snprintf(stale, sizeof(stale), "%s/out.json.tmp.Ab12Cd", dir);
	snprintf(live, sizeof(live), "%s/out.json.tmp.Zz99Yy", dir);
	snprintf(other, sizeof(other), "%s/out.json.tmp.notours", dir);
	CHECK(test_write_text(stale, "{") == 0 && test_write_text(other, "x") == 0, "setup");
	fd = open(live, O_WRONLY | O_CREAT, 0600);
	CHECK(fd >= 0 && flock(fd, LOCK_EX) == 0, "a live writer's temporary");
	CHECK(atomic_open(&a, out) == 0, "open");
	fputs("{}", a.f);
	CHECK(atomic_commit(&a) == 0, "commit");
	close(fd);
	CHECK(access(stale, F_OK) != 0, "the stale temporary was left");
	CHECK(access(live, F_OK) == 0, "a live writer's temporary was removed");
	CHECK(access(other, F_OK) == 0, "a file not of our naming was removed");
	test_scratch_remove(dir, TAG);
}

static int write_rounds(const char *path, char mark)
{
	for (int i = 0; i < 100; i++) {
		struct atomic_file a;
		char body[4096];

		memset(body, mark, sizeof(body) - 1);
		body[sizeof(body) - 1] = 0;
		if (atomic_open(&a, path))
			return 1;
		fputs(body, a.f);
		if (atomic_commit(&a))
			return 1;
	}
	return 0;
}

/* Held before, and the sweep must not break it: two writers of one path,
 * 100 rounds each, every commit succeeds and the file is always whole. */
TEST(outputs_concurrent_writers_both_commit)
{
	char dir[64], path[PATH_MAX], text[8192];
	pid_t pid[2];
	int st[2];

	test_scratch_make(dir, sizeof(dir), TAG);
	CHECK(dir[0], "mkdtemp");
	snprintf(path, sizeof(path), "%s/same.json", dir);
	for (int i = 0; i < 2; i++)
		if ((pid[i] = fork()) == 0)
			_exit(write_rounds(path, i ? 'b' : 'a'));
	for (int i = 0; i < 2; i++)
		waitpid(pid[i], &st[i], 0);
	slurp(path, text, sizeof(text));
	CHECK(WIFEXITED(st[0]) && !WEXITSTATUS(st[0]) && WIFEXITED(st[1]) && !WEXITSTATUS(st[1]),
	      "a writer failed: %d %d", st[0], st[1]);
	CHECK(strlen(text) == 4095 && strspn(text, text[0] == 'a' ? "a" : "b") == 4095, "the file is not whole");
	CHECK(test_count_entries(dir) == 1, "%d entries left, want the file alone", test_count_entries(dir));
	test_scratch_remove(dir, TAG);
}
