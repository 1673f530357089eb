/*
 * The host seam: each fact from the running machine (host_live.c) or from a
 * recorded host's folder. host.txt holds one answer per line, `key value`,
 * '#' to the end of a line a comment:
 *   isa x86_64 | aarch64 | NAME       online_cpus N       allowed_cpus LIST (0-3,8)
 *   page_bytes N                       perf_cycles ok | ERRNO-NAME (ENOENT ...) | unrecorded
 *   rdpmc works | SIGSEGV | SIGILL | SIGBUS | none (no such instruction) | exit N | unrecorded
 *   cpuid LEAF SUB EAX EBX ECX EDX (hex; one line per subleaf; any leaf not
 *   listed reads as zeros)             xcr0 HEX            hwcap HEX   ctr_el0 HEX
 *   core_clock_mhz F F ... (the machine section's timed samples, replayed)
 * The first six are required; a key not listed here is refused, so a typo
 * cannot pass for an absent fact. Files are read from the folder at their
 * absolute path (DIR/proc/meminfo), never from this machine.
 */
#include "core/host.h"

#include "core/host_cpu_quota.h"
#include "core/host_live.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define HOST_CPUID_MAX 256

struct cpuid_answer {
	uint32_t leaf, sub, r[4];
};

struct recorded {
	char dir[512];
	char isa[16];
	int online_cpus;
	unsigned char allowed[HOST_CPUS_MAX];
	int pinned;                  /* the CPU host_pin chose, -1 none */
	size_t page_bytes;
	int perf_errno;
	struct host_rdpmc rdpmc;
	bool have_xcr0, have_hwcap, have_ctr;
	uint64_t xcr0, ctr_el0;
	unsigned long hwcap;
	struct cpuid_answer cpuid[HOST_CPUID_MAX];
	int ncpuid;
	double clock_mhz[HOST_CLOCK_SAMPLES_MAX];
	int nclock;
};

static struct recorded rec;
static bool use_recorded;
static unsigned long reads;

/* ---- host.txt ---- */

static int refuse(char *err, size_t errlen, const char *dir, int line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int refuse(char *err, size_t errlen, const char *dir, int line, const char *fmt, ...)
{
	va_list ap;
	int n = line ? snprintf(err, errlen, "%s/host.txt:%d: ", dir, line) : snprintf(err, errlen, "%s: ", dir);

	va_start(ap, fmt);
	if (n > 0 && (size_t)n < errlen)
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -EPROTO;
}

/* "0-3,8": every CPU named, each below HOST_CPUS_MAX. */
static bool parse_cpu_list(const char *s, unsigned char *set)
{
	memset(set, 0, HOST_CPUS_MAX);
	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s || a < 0 || a >= HOST_CPUS_MAX)
			return false;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a || b >= HOST_CPUS_MAX)
				return false;
			s = end;
		}
		for (long c = a; c <= b; c++)
			set[c] = 1;
		if (*s == ',')
			s++;
		else if (*s)
			return false;
	}
	return true;
}

static const struct {
	const char *name;
	int value;
} errno_names[] = {
	{"ok", 0}, {"ENOENT", ENOENT}, {"EOPNOTSUPP", EOPNOTSUPP}, {"EACCES", EACCES}, {"EPERM", EPERM},
	{"ENODEV", ENODEV}, {"EINVAL", EINVAL}, {"ENOSYS", ENOSYS}, {"EBUSY", EBUSY}, {"unrecorded", ENODATA},
};

static bool parse_errno(const char *s, int *value)
{
	for (size_t i = 0; i < sizeof(errno_names) / sizeof(errno_names[0]); i++)
		if (!strcmp(s, errno_names[i].name)) {
			*value = errno_names[i].value;
			return true;
		}
	return false;
}

/* The RDPMC child's outcome; with_mmap follows perf_cycles (the child
 * mmaps the cycles event whenever it opens). */
static bool parse_rdpmc(const char *s, struct host_rdpmc *r)
{
	static const struct {
		const char *name;
		int signal;
	} sigs[] = {{"SIGSEGV", 11}, {"SIGILL", 4}, {"SIGBUS", 7}};
	char *end;

	memset(r, 0, sizeof(*r));
	r->tested = 1;
	if (!strcmp(s, "works"))
		return true;
	if (!strcmp(s, "unrecorded")) {
		r->tested = 0;
		r->child_status = -1;
		return true;
	}
	if (!strcmp(s, "none")) {
		r->tested = 0;
		r->child_status = 3;
		return true;
	}
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (!strcmp(s, sigs[i].name)) {
			r->child_signal = sigs[i].signal;
			return true;
		}
	if (!strncmp(s, "exit ", 5)) {
		r->child_status = (int)strtol(s + 5, &end, 10);
		return end != s + 5 && !*end;
	}
	return false;
}

static bool parse_hex_words(const char *s, uint64_t *v, int n)
{
	for (int i = 0; i < n; i++) {
		char *end;

		v[i] = strtoull(s, &end, 16);
		if (end == s)
			return false;
		s = end;
	}
	while (*s == ' ' || *s == '\t')
		s++;
	return !*s;
}

/* One `key value` line into r; the key's bit into *seen. */
static int parse_line(struct recorded *r, const char *key, const char *value, unsigned *seen, char *why, size_t len)
{
	static const char *const required[] = {"isa", "online_cpus", "allowed_cpus", "page_bytes", "perf_cycles",
					       "rdpmc"};
	uint64_t w[6];
	char *end;

	for (unsigned i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		if (!strcmp(key, required[i]))
			*seen |= 1u << i;
	if (!strcmp(key, "isa")) {
		snprintf(r->isa, sizeof(r->isa), "%s", value);
		return r->isa[0] ? 0 : -1;
	}
	if (!strcmp(key, "online_cpus")) {
		r->online_cpus = (int)strtol(value, &end, 10);
		return *end || r->online_cpus < 1 ? -1 : 0;
	}
	if (!strcmp(key, "allowed_cpus"))
		return parse_cpu_list(value, r->allowed) ? 0 : -1;
	if (!strcmp(key, "page_bytes")) {
		r->page_bytes = (size_t)strtoull(value, &end, 10);
		return *end || r->page_bytes < 1024 ? -1 : 0;
	}
	if (!strcmp(key, "perf_cycles"))
		return parse_errno(value, &r->perf_errno) ? 0 : -1;
	if (!strcmp(key, "rdpmc"))
		return parse_rdpmc(value, &r->rdpmc) ? 0 : -1;
	if (!strcmp(key, "cpuid")) {
		struct cpuid_answer *c;

		if (r->ncpuid == HOST_CPUID_MAX) {
			snprintf(why, len, "more than %d cpuid lines", HOST_CPUID_MAX);
			return -2;
		}
		if (!parse_hex_words(value, w, 6))
			return -1;
		c = &r->cpuid[r->ncpuid++];
		*c = (struct cpuid_answer){(uint32_t)w[0], (uint32_t)w[1], {(uint32_t)w[2], (uint32_t)w[3],
									    (uint32_t)w[4], (uint32_t)w[5]}};
		return 0;
	}
	if (!strcmp(key, "xcr0"))
		return (r->have_xcr0 = parse_hex_words(value, &r->xcr0, 1)) ? 0 : -1;
	if (!strcmp(key, "ctr_el0"))
		return (r->have_ctr = parse_hex_words(value, &r->ctr_el0, 1)) ? 0 : -1;
	if (!strcmp(key, "hwcap")) {
		r->have_hwcap = parse_hex_words(value, w, 1);
		r->hwcap = (unsigned long)w[0];
		return r->have_hwcap ? 0 : -1;
	}
	if (!strcmp(key, "core_clock_mhz")) {
		const char *p = value;

		for (r->nclock = 0; *p && r->nclock < HOST_CLOCK_SAMPLES_MAX; r->nclock++) {
			r->clock_mhz[r->nclock] = strtod(p, &end);
			if (end == p || !(r->clock_mhz[r->nclock] > 0))
				return -1;
			for (p = end; *p == ' ' || *p == '\t'; p++)
				;
		}
		return *p ? -1 : 0;
	}
	snprintf(why, len, "unknown key '%.60s'", key);
	return -2;
}

static int load_recorded(const char *dir, struct recorded *r, char *err, size_t errlen)
{
	char path[600], line[512], why[128];
	unsigned seen = 0;
	int lineno = 0, rc = 0;
	FILE *f;

	memset(r, 0, sizeof(*r));
	r->pinned = -1;
	if (snprintf(r->dir, sizeof(r->dir), "%s", dir) >= (int)sizeof(r->dir))
		return refuse(err, errlen, dir, 0, "the folder's path is too long");
	snprintf(path, sizeof(path), "%s/host.txt", dir);
	if (!(f = fopen(path, "r"))) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s (expected a recorded host's folder, as tools/record_host.sh writes)",
			 path, strerror(errno));
		return rc;
	}
	while (!rc && fgets(line, sizeof(line), f)) {
		char *key = line, *value;
		int got;

		lineno++;
		line[strcspn(line, "#\n")] = 0;
		while (*key == ' ' || *key == '\t')
			key++;
		if (!*key)
			continue;
		for (value = key; *value && *value != ' ' && *value != '\t'; value++)
			;
		if (*value)
			*value++ = 0;
		while (*value == ' ' || *value == '\t')
			value++;
		for (char *e = value + strlen(value); e > value && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r');)
			*--e = 0;
		why[0] = 0;
		got = parse_line(r, key, value, &seen, why, sizeof(why));
		if (got == -1)
			rc = refuse(err, errlen, dir, lineno, "'%s' is not a value of %s", value, key);
		else if (got)
			rc = refuse(err, errlen, dir, lineno, "%s", why);
	}
	fclose(f);
	if (!rc && seen != 0x3f)
		rc = refuse(err, errlen, dir, 0, "host.txt lacks one of isa, online_cpus, allowed_cpus, page_bytes, "
			    "perf_cycles, rdpmc (every recorded host states them)");
	return rc;
}

int host_use_recorded(const char *dir, char *err, size_t errlen)
{
	static struct recorded next;
	int rc = load_recorded(dir, &next, err, errlen);

	if (rc)
		return rc;
	rec = next;
	use_recorded = true;
	return 0;
}

void host_use_live(void)
{
	use_recorded = false;
}

const char *host_recorded_dir(void)
{
	return use_recorded ? rec.dir : NULL;
}

unsigned long host_reads(void)
{
	return reads;
}

/* ---- files ---- */

static void host_path(const char *path, char *out, size_t len)
{
	snprintf(out, len, "%s%s", use_recorded ? rec.dir : "", path);
}

FILE *host_fopen(const char *path)
{
	char full[1024];

	reads++;
	host_path(path, full, sizeof(full));
	return fopen(full, "r");
}

int host_read_line(const char *path, char *buf, size_t len)
{
	FILE *f = host_fopen(path);
	int rc = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		rc = -EINVAL;
	fclose(f);
	if (rc)
		buf[0] = 0;
	buf[strcspn(buf, "\n")] = 0;
	return rc;
}

int host_read_long(const char *path, long *value)
{
	FILE *f = host_fopen(path);
	int ok;

	if (!f)
		return -errno;
	ok = fscanf(f, "%ld", value) == 1;
	fclose(f);
	return ok ? 0 : -EINVAL;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(a, b);
}

int host_list_dir(const char *path, char (*names)[HOST_NAME_LEN], int max)
{
	char full[1024];
	struct dirent *e;
	DIR *d;
	int n = 0;

	reads++;
	host_path(path, full, sizeof(full));
	if (!(d = opendir(full)))
		return -errno;
	while ((e = readdir(d)) && n < max)
		if (e->d_name[0] != '.')
			snprintf(names[n++], HOST_NAME_LEN, "%.*s", HOST_NAME_LEN - 1, e->d_name);
	closedir(d);
	qsort(names, (size_t)n, HOST_NAME_LEN, compare_names);
	return n;
}

void host_self_path(const char *name, char *out, size_t len)
{
	snprintf(out, len, "/proc/self/%s", name);
}

FILE *host_self_fopen(const char *name)
{
	char path[128];

	host_self_path(name, path, sizeof(path));
	return fopen(path, "r");
}

size_t host_self_page_bytes(void)
{
	return host_live_page_bytes();
}

int host_self_cpus(void)
{
	int n = host_live_allowed_cpus(NULL, 0), quota = cpu_quota_cpus("");

	if (quota && quota < n)
		n = quota;
	return n > 1 ? n : 1;
}

int host_self_cpu_list(int *cpus, int max)
{
	return host_live_allowed_cpus(cpus, max);
}

/* ---- CPUs ---- */

int host_online_cpus(void)
{
	reads++;
	return use_recorded ? rec.online_cpus : host_live_online_cpus();
}

static int list_set(const unsigned char *set, int *cpus, int max)
{
	int n = 0;

	for (int cpu = 0; cpu < HOST_CPUS_MAX; cpu++)
		if (set[cpu]) {
			if (n < max)
				cpus[n] = cpu;
			n++;
		}
	return n;
}

int host_allowed_cpus(int *cpus, int max)
{
	reads++;
	return use_recorded ? list_set(rec.allowed, cpus, max) : host_live_allowed_cpus(cpus, max);
}

int host_current_cpus(int *cpus, int max)
{
	reads++;
	if (!use_recorded)
		return host_live_current_cpus(cpus, max);
	if (rec.pinned < 0)
		return list_set(rec.allowed, cpus, max);
	if (max > 0)
		cpus[0] = rec.pinned;
	return 1;
}

int host_pin(int cpu)
{
	reads++;
	if (!use_recorded)
		return host_live_pin(cpu);
	if (cpu < 0 || cpu >= HOST_CPUS_MAX || !rec.allowed[cpu])
		return -EINVAL;
	rec.pinned = cpu;
	/* The measurement runs here: pin where this machine has the CPU. */
	(void)host_live_pin(cpu);
	return 0;
}

size_t host_page_bytes(void)
{
	reads++;
	return use_recorded ? rec.page_bytes : host_live_page_bytes();
}

/* ---- what the ISA states ---- */

const char *host_isa(void)
{
	reads++;
	return use_recorded ? rec.isa : host_live_isa();
}

int host_cpuid(uint32_t leaf, uint32_t sub, uint32_t r[4])
{
	reads++;
	if (!use_recorded)
		return host_live_cpuid(leaf, sub, r);
	memset(r, 0, 4 * sizeof(r[0]));
	if (strcmp(rec.isa, "x86_64"))
		return -ENOTSUP;
	for (int i = 0; i < rec.ncpuid; i++)
		if (rec.cpuid[i].leaf == leaf && rec.cpuid[i].sub == sub) {
			memcpy(r, rec.cpuid[i].r, sizeof(rec.cpuid[i].r));
			break;
		}
	return 0;
}

int host_xcr0(uint64_t *value)
{
	reads++;
	if (!use_recorded)
		return host_live_xcr0(value);
	*value = rec.xcr0;
	return rec.have_xcr0 ? 0 : -ENOTSUP;
}

int host_hwcap(unsigned long *value)
{
	reads++;
	if (!use_recorded)
		return host_live_hwcap(value);
	*value = rec.hwcap;
	return rec.have_hwcap ? 0 : -ENOTSUP;
}

int host_ctr_el0(uint64_t *value)
{
	reads++;
	if (!use_recorded)
		return host_live_ctr_el0(value);
	*value = rec.ctr_el0;
	return rec.have_ctr ? 0 : -ENOTSUP;
}

/* ---- the PMU ---- */

int host_perf_cycles_errno(void)
{
	reads++;
	return use_recorded ? rec.perf_errno : host_live_perf_cycles_errno();
}

int host_rdpmc_probe(struct host_rdpmc *out)
{
	reads++;
	if (!use_recorded)
		return host_live_rdpmc_probe(&out->tested, &out->child_signal, &out->child_status, &out->with_mmap);
	*out = rec.rdpmc;
	out->with_mmap = rec.perf_errno == 0 && out->tested;
	return out->child_status == -1 ? -ENODATA : 0;
}

/* ---- measurements a recording replays ---- */

int host_recorded_core_clock(double *mhz, int max)
{
	int n;

	reads++;
	if (!use_recorded)
		return -ENODEV;
	n = rec.nclock < max ? rec.nclock : max;
	memcpy(mhz, rec.clock_mhz, (size_t)n * sizeof(*mhz));
	return n;
}
