/*
 * mlpbunzip2: bzip2's decompression interface over bunzip2.h, with
 * lbzip2's -n THREADS. FILE.bz2 becomes FILE through a temporary in the
 * same folder renamed into place once the whole file has decoded, so an
 * output is there whole or not at all (a corrupt input, a full disk and
 * Ctrl-C each remove the temporary); an existing output is replaced only
 * with -f; the input is removed after success unless -k or -c. Exit
 * statuses are bzip2's: 0 ok, 1 environment, I/O or usage, 2 corrupt
 * input, 3 internal; with several files each is tried and the worst status
 * is the program's. A closed pipe on standard output ends the program by
 * SIGPIPE, quietly, as it ends bzip2.
 */
#include "bunzip2/args.h"
#include "bzip2/bunzip2.h"
#include "core/host.h"

#include "buildinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PROG "mlpbunzip2"
#define EXIT_ENV 1
#define EXIT_CORRUPT 2
#define EXIT_INTERNAL 3

/* The temporary being written, for the signal handler to remove. */
static char tmp_path[PATH_MAX];
static volatile sig_atomic_t tmp_live;
static volatile sig_atomic_t quiet_signals;

static void on_signal(int sig)
{
	static const char msg[] = PROG ": caught a signal, quitting; the partial output is removed\n";

	(void)sig;
	if (tmp_live)
		unlink(tmp_path);
	if (!quiet_signals) {
		ssize_t w = write(2, msg, sizeof(msg) - 1);

		(void)w;
	}
	_exit(EXIT_ENV);
}

static void signals_catch(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* Blocks the caught signals around the moments the temporary's name and
 * its existence could disagree. */
static void signals_hold(bool hold, sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);
	if (hold)
		pthread_sigmask(SIG_BLOCK, &set, old);
	else
		pthread_sigmask(SIG_SETMASK, old, NULL);
}

static long fd_read(void *ctx, uint8_t *buf, size_t cap)
{
	int fd = *(int *)ctx;

	for (;;) {
		ssize_t n = read(fd, buf, cap);

		if (n >= 0)
			return (long)n;
		if (errno != EINTR)
			return -errno;
	}
}

static int fd_write(void *ctx, const uint8_t *buf, size_t len)
{
	int fd = *(int *)ctx;

	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int null_write(void *ctx, const uint8_t *buf, size_t len)
{
	(void)ctx, (void)buf, (void)len;
	return 0;
}

struct job {
	const struct bunzip2_args *a;
	const char *name;        /* for messages: the file, or "(stdin)" */
	struct bunzip2_opts o;
};

/* The decode's status as an exit status, with its one line. */
static int report(const struct job *j, int rc, const struct bunzip2_summary *s, const struct bunzip2_error *e)
{
	if (rc == BUNZIP2_OK) {
		if (s->garbage_bytes && !j->a->quiet)
			fprintf(stderr, PROG ": %s: trailing garbage after EOF ignored (from byte %llu)\n", j->name,
				(unsigned long long)s->garbage_offset);
		if (j->a->verbose)
			fprintf(stderr, "  %s: %s (%llu bytes in, %llu out, %u block%s in %u stream%s, %u thread%s)\n",
				j->name, j->a->test ? "ok" : "done", (unsigned long long)s->in_bytes,
				(unsigned long long)s->out_bytes, s->blocks, s->blocks == 1 ? "" : "s", s->streams,
				s->streams == 1 ? "" : "s", s->threads, s->threads == 1 ? "" : "s");
		return 0;
	}
	if (rc == BUNZIP2_CORRUPT) {
		if (e->block)
			fprintf(stderr, PROG ": %s: block %u at byte %llu: %s\n", j->name, e->block,
				(unsigned long long)e->byte_offset, e->what);
		else
			fprintf(stderr, PROG ": %s: stream %u at byte %llu: %s\n", j->name, e->stream,
				(unsigned long long)e->byte_offset, e->what);
		return EXIT_CORRUPT;
	}
	if (rc == BUNZIP2_WRITE && e->sys_errno == EPIPE)
		return EXIT_ENV;
	if (rc == BUNZIP2_READ || rc == BUNZIP2_WRITE)
		fprintf(stderr, PROG ": %s: %s: %s\n", j->name, e->what, strerror(e->sys_errno));
	else if (rc == BUNZIP2_NOMEM || rc == BUNZIP2_LIMIT)
		fprintf(stderr, PROG ": %s: %s\n", j->name, e->what);
	else
		fprintf(stderr, PROG ": %s: internal error (status %d): %s\n", j->name, rc, e->what);
	return rc == BUNZIP2_NOMEM || rc == BUNZIP2_READ || rc == BUNZIP2_WRITE || rc == BUNZIP2_LIMIT ? EXIT_ENV
												       : EXIT_INTERNAL;
}

/* Each thread's CPU, sleep and buffers' warm-up, on standard error, when
 * MLPBUNZIP2_TIMES is set: the figures that show where a thread count
 * loses against its ideal speed-up (the coordinator's serial work, a worker
 * left idle, page faults showing as CPU, a worker's huge pages that the
 * host had to back again), which wall times on a shared machine cannot. */
static void report_times(const struct job *j, const struct bunzip2_summary *s)
{
	if (!getenv("MLPBUNZIP2_TIMES"))
		return;
	for (unsigned i = 0; i <= s->threads && i < BUNZIP2_TIMED_THREADS; i++) {
		const struct bunzip2_thread_ns *t = &s->thread_ns[i];

		if (i > 0 && s->threads == 1)
			break;
		fprintf(stderr, PROG ": %s: %s %u: cpu_ms %.1f wait_ms %.1f warm_ms %.1f blocks %u\n", j->name,
			i ? "worker" : "coordinator", i, t->cpu_ns / 1e6, t->wait_ns / 1e6, t->warm_ns / 1e6,
			t->blocks);
	}
	if (s->threads > 1)
		fprintf(stderr, PROG ": %s: workers %s\n", j->name,
			!s->workers_bound    ? "unbound (not one for each CPU this process may run on)"
			: s->workers_let_go ? "bound one to a CPU, let go (a block kept the writing waiting)"
					    : "bound one to a CPU");
}

static int decode_fd(const struct job *j, int in, int out)
{
	struct bunzip2_summary s;
	struct bunzip2_error e;
	int rc;

	if (out < 0)
		rc = bunzip2_decode(fd_read, &in, null_write, NULL, &j->o, &s, &e);
	else
		rc = bunzip2_decode(fd_read, &in, fd_write, &out, &j->o, &s, &e);
	report_times(j, &s);
	return report(j, rc, &s, &e);
}

static int from_stdin(const struct job *j)
{
	if (isatty(0)) {
		fprintf(stderr, PROG ": I won't read compressed data from a terminal (give a file; -h for help)\n");
		return EXIT_ENV;
	}
	return decode_fd(j, 0, j->a->test ? -1 : 1);
}

/* The input as bzip2 takes it in file-to-file mode: a regular file with
 * no other links, unless -f. 0, or an exit status after its message. */
static int input_ok(const struct job *j, const char *path, struct stat *st)
{
	bool to_file = !j->a->to_stdout && !j->a->test;

	if (lstat(path, st) || (S_ISLNK(st->st_mode) && (!to_file || j->a->force) && stat(path, st))) {
		fprintf(stderr, PROG ": Can't open input file %s: %s.\n", path, strerror(errno));
		return EXIT_ENV;
	}
	if (S_ISDIR(st->st_mode)) {
		fprintf(stderr, PROG ": Input file %s is a directory.\n", path);
		return EXIT_ENV;
	}
	if (to_file && !j->a->force && !S_ISREG(st->st_mode)) {
		fprintf(stderr, PROG ": Input file %s is not a normal file (-f takes it).\n", path);
		return EXIT_ENV;
	}
	if (to_file && !j->a->force && st->st_nlink > 1) {
		fprintf(stderr, PROG ": Input file %s has %lu other link%s (-f takes it).\n", path,
			(unsigned long)st->st_nlink - 1, st->st_nlink > 2 ? "s" : "");
		return EXIT_ENV;
	}
	return 0;
}

/* The decoded copy's mode, owner and times are the input's, as bzip2
 * gives them; an owner this user may not set is left as it is. */
static void copy_metadata(int fd, const struct stat *st)
{
	struct timespec times[2] = {st->st_atim, st->st_mtim};

	if (fchown(fd, st->st_uid, st->st_gid)) {
		/* only root may give a file away */
	}
	fchmod(fd, st->st_mode & 07777);
	futimens(fd, times);
}

/* FILE.bz2 -> FILE through a temporary beside it. */
static int to_file(const struct job *j, const char *path, int in, const struct stat *st)
{
	char out[PATH_MAX];
	sigset_t old;
	bool guessed;
	struct stat ost;
	int fd, rc;

	if (bunzip2_output_name(path, out, sizeof(out), &guessed) ||
	    snprintf(tmp_path, sizeof(tmp_path), "%s.mlpbunzip2-XXXXXX", out) >= (int)sizeof(tmp_path)) {
		fprintf(stderr, PROG ": %s: the output name is too long\n", path);
		return EXIT_ENV;
	}
	if (!guessed && !j->a->quiet)
		fprintf(stderr, PROG ": Can't guess original name for %s -- using %s\n", path, out);
	if (!lstat(out, &ost) && !j->a->force) {
		fprintf(stderr, PROG ": Output file %s already exists (-f replaces it).\n", out);
		return EXIT_ENV;
	}
	signals_hold(true, &old);
	fd = mkstemp(tmp_path);
	tmp_live = fd >= 0;
	signals_hold(false, &old);
	if (fd < 0) {
		fprintf(stderr, PROG ": Can't create output file %s: %s.\n", tmp_path, strerror(errno));
		return EXIT_ENV;
	}
	rc = decode_fd(j, in, fd);
	if (!rc) {
		copy_metadata(fd, st);
		if (close(fd)) {
			fprintf(stderr, PROG ": %s: %s\n", out, strerror(errno));
			rc = EXIT_ENV;
		}
		fd = -1;
	}
	signals_hold(true, &old);
	if (!rc && rename(tmp_path, out)) {
		fprintf(stderr, PROG ": Can't rename %s to %s: %s.\n", tmp_path, out, strerror(errno));
		rc = EXIT_ENV;
	}
	if (rc)
		unlink(tmp_path);
	tmp_live = 0;
	signals_hold(false, &old);
	if (fd >= 0)
		close(fd);
	if (!rc && !j->a->keep && unlink(path)) {
		fprintf(stderr, PROG ": Can't remove input file %s: %s.\n", path, strerror(errno));
		rc = EXIT_ENV;
	}
	return rc;
}

static int one_file(struct job *j, const char *path)
{
	struct stat st;
	int in, rc;

	if (!strcmp(path, "-")) {
		j->name = "(stdin)";
		return from_stdin(j);
	}
	j->name = path;
	if ((rc = input_ok(j, path, &st)))
		return rc;
	if ((in = open(path, O_RDONLY)) < 0) {
		fprintf(stderr, PROG ": Can't open input file %s: %s.\n", path, strerror(errno));
		return EXIT_ENV;
	}
	if (j->a->test)
		rc = decode_fd(j, in, -1);
	else if (j->a->to_stdout)
		rc = decode_fd(j, in, 1);
	else
		rc = to_file(j, path, in, &st);
	close(in);
	return rc;
}

/* The CPUs this process may run on, for the workers to be bound one to
 * each when there are as many of them (bunzip2.h's bind_cpus). */
static void cpus_to_bind(struct bunzip2_opts *o)
{
	static int cpus[HOST_CPUS_MAX];
	int n = host_self_cpu_list(cpus, HOST_CPUS_MAX);

	if (n > 1 && n <= HOST_CPUS_MAX) {
		o->bind_cpus = cpus;
		o->nbind_cpus = (unsigned)n;
	}
}

int main(int argc, char **argv)
{
	struct bunzip2_args a;
	struct job j;
	char err[400];
	int status = 0;

	if (bunzip2_args_parse(argc, argv, &a, err, sizeof(err))) {
		fprintf(stderr, PROG ": %s\n", err);
		return EXIT_ENV;
	}
	if (a.help) {
		fputs(bunzip2_usage, stdout);
		return 0;
	}
	if (a.version) {
		printf(PROG " %s (mlpscope's bzip2 decoder)\n", MLPSCOPE_VERSION);
		return 0;
	}
	memset(&j, 0, sizeof(j));
	j.a = &a;
	j.o.threads = a.threads ? a.threads : (unsigned)host_self_cpus();
	cpus_to_bind(&j.o);
	quiet_signals = a.quiet;
	signals_catch();
	if (!a.nfiles) {
		j.name = "(stdin)";
		return from_stdin(&j);
	}
	/* One decoder for the files in turn (NULL: each makes its own). */
	j.o.keep = bunzip2_keep_new();
	for (int i = 0; i < a.nfiles; i++) {
		int rc = one_file(&j, a.files[i]);

		if (rc > status)
			status = rc;
	}
	bunzip2_keep_free(j.o.keep);
	return status;
}
