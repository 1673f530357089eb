/*
 * mlpbunzip2's arguments, bzip2's way: flags cluster (-dkc), "--" ends
 * them, "-" is standard input, and anything else is a file. -n takes its
 * count attached (-n4) or as the next argument (-n 4), as lbzip2 does.
 * Compression flags are refused by name: this program only decompresses.
 */
#include "bunzip2/args.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char bunzip2_usage[] =
	"usage: mlpbunzip2 [-cdfkqtvV] [-n THREADS] [FILE.bz2 ...]\n"
	"Decompress bzip2 files with several threads: FILE.bz2 -> FILE (.tbz2, .tbz -> .tar),\n"
	"standard input to standard output when no file is given.\n"
	"  -d, --decompress  decompress (the only mode; accepted for bzip2's command lines)\n"
	"  -c, --stdout      write to standard output, keep the input files\n"
	"  -k, --keep        keep the input files\n"
	"  -f, --force       overwrite existing output files; take links and special files\n"
	"  -t, --test        check the files' integrity, write nothing\n"
	"  -q, --quiet       no warnings\n"
	"  -v, --verbose     say what was done to each file\n"
	"  -n THREADS        blocks decoded at once (default: the CPUs this process may run on,\n"
	"                    fewer where a cgroup's CPU quota gives it less time)\n"
	"  -s, -1 .. -9      accepted and ignored, as bzip2 ignores them when decompressing\n"
	"  -h, --help        this text;  -V, --version  the version\n"
	"Exit status: 0 ok, 1 environment, I/O or usage error, 2 corrupt input, 3 internal error.\n";

static const char accepted[] = "accepted: -c -d -f -k -q -t -v -s -1..-9 -n THREADS -h -V, or a file";

static int bad(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int bad(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static int threads_value(const char *v, struct bunzip2_args *a, char *err, size_t errlen)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(v, &end, 10);
	if (!*v || *end || errno || v[0] == '-' || v[0] == '+' || n < 1 || n > BUNZIP2_THREADS_MAX)
		return bad(err, errlen, "-n: '%.60s' is not a thread count (expected an integer 1..4096)", v);
	a->threads = (unsigned)n;
	return 0;
}

static const struct {
	const char *name;
	char flag;
} longs[] = {
	{"--decompress", 'd'}, {"--uncompress", 'd'}, {"--stdout", 'c'}, {"--keep", 'k'}, {"--force", 'f'},
	{"--test", 't'}, {"--quiet", 'q'}, {"--verbose", 'v'}, {"--small", 's'}, {"--fast", '1'}, {"--best", '9'},
	{"--help", 'h'}, {"--version", 'V'}, {"--compress", 'z'},
};

/* One flag letter: 0, or -1 with err. */
static int flag(char f, const char *arg, struct bunzip2_args *a, char *err, size_t errlen)
{
	switch (f) {
	case 'd': break;
	case 'c': a->to_stdout = true; break;
	case 'k': a->keep = true; break;
	case 'f': a->force = true; break;
	case 't': a->test = true; break;
	case 'q': a->quiet = true; break;
	case 'v': a->verbose++; break;
	case 's': break;
	case 'h': a->help = true; break;
	case 'V': case 'L': a->version = true; break;
	case 'z':
		return bad(err, errlen, "%s: compression is not supported: mlpbunzip2 only decompresses "
			   "(compress with bzip2 or lbzip2)", arg);
	default:
		if (f >= '1' && f <= '9')
			break;
		return bad(err, errlen, "%s: unknown option", arg);
	}
	return 0;
}

static int option(int argc, char **argv, int *i, struct bunzip2_args *a, char *err, size_t errlen)
{
	const char *arg = argv[*i];
	int rc;

	if (arg[1] == '-') {
		if (!strcmp(arg, "--threads") || !strncmp(arg, "--threads=", 10)) {
			if (arg[9] == '=')
				return threads_value(arg + 10, a, err, errlen);
			if (*i + 1 >= argc)
				return bad(err, errlen, "%s: needs a thread count (--threads N, 1..4096)", arg);
			return threads_value(argv[++*i], a, err, errlen);
		}
		for (size_t k = 0; k < sizeof(longs) / sizeof(longs[0]); k++)
			if (!strcmp(arg, longs[k].name))
				return flag(longs[k].flag, arg, a, err, errlen);
		rc = bad(err, errlen, "%.80s: unknown option", arg);
		goto named;
	}
	for (const char *p = arg + 1; *p; p++) {
		char one[3] = {'-', *p, 0};

		if (*p == 'n') {
			if (p[1])
				return threads_value(p + 1, a, err, errlen);
			if (*i + 1 >= argc)
				return bad(err, errlen, "-n: needs a thread count (-n THREADS, 1..4096)");
			return threads_value(argv[++*i], a, err, errlen);
		}
		if ((rc = flag(*p, one, a, err, errlen))) {
			if (*p != 'z')
				goto named;
			return rc;
		}
	}
	return 0;
named:
	snprintf(err + strlen(err), errlen - strlen(err), " (%s)", accepted);
	return rc;
}

int bunzip2_args_parse(int argc, char **argv, struct bunzip2_args *a, char *err, size_t errlen)
{
	int nfiles = 0;
	bool options = true;

	memset(a, 0, sizeof(*a));
	err[0] = 0;
	/* Files are gathered at the front in order, then moved to the end. */
	for (int i = 1; i < argc; i++) {
		char *arg = argv[i];

		if (options && !strcmp(arg, "--")) {
			options = false;
			continue;
		}
		if (options && arg[0] == '-' && arg[1]) {
			if (option(argc, argv, &i, a, err, errlen))
				return -1;
			continue;
		}
		argv[nfiles++] = arg;
	}
	a->nfiles = nfiles;
	a->files = argv;
	return 0;
}

int bunzip2_output_name(const char *in, char *out, size_t len, bool *guessed)
{
	static const struct {
		const char *from, *to;
	} suffixes[] = {{".bz2", ""}, {".bz", ""}, {".tbz2", ".tar"}, {".tbz", ".tar"}};
	size_t n = strlen(in);

	*guessed = true;
	for (size_t k = 0; k < sizeof(suffixes) / sizeof(suffixes[0]); k++) {
		size_t s = strlen(suffixes[k].from);

		if (n > s && !strcmp(in + n - s, suffixes[k].from) && in[n - s - 1] != '/') {
			int w = snprintf(out, len, "%.*s%s", (int)(n - s), in, suffixes[k].to);

			return w < 0 || (size_t)w >= len ? -1 : 0;
		}
	}
	*guessed = false;
	{
		int w = snprintf(out, len, "%s.out", in);

		return w < 0 || (size_t)w >= len ? -1 : 0;
	}
}
