/*
 * Core types (core/coretype.h) on the two hand-made hosts that have more
 * than one kind of core: an Intel hybrid part (cpu_core/cpu_atom lists) and
 * an AArch64 big.LITTLE part (a MIDR per CPU), then cpu_capacity as the
 * fallback and a host that states none, on scratch hosts. Then what the
 * machine section and the provenance say of the pinned CPU's kind.
 */
#include "../harness.h"

#include "core/coretype.h"
#include "core/host.h"
#include "exp/machine.h"
#include "provenance.h"
#include "report/machine_out.h"
#include "util/jsonw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define HYBRID_HOST "tests/data/hosts/intel-core-hybrid-f6-m151/host"
#define BIGLITTLE_HOST "tests/data/hosts/arm-biglittle-f8-m3333/host"

static int use_host(const char *dir)
{
	char err[256];
	int rc = host_use_recorded(dir, err, sizeof(err));

	if (rc)
		fprintf(stderr, "%s\n", err);
	return rc;
}

static void restore_runner_host(void)
{
	if (!test_host_dir())
		host_use_live();
	else
		use_host(test_host_dir());
}

TEST(coretype_hybrid_lists_name_p_and_e_cores)
{
	static struct coretype_map m;
	const int p_only[] = {0, 3, 7}, mixed[] = {2, 8};
	char text[256];
	int n;

	CHECK(use_host(HYBRID_HOST) == 0, "host");
	n = coretype_read(&m);
	restore_runner_host();
	CHECK(n == 2, "%d types", n);
	coretype_describe(&m, text, sizeof(text));
	CHECK(!strcmp(text, "CPUs 0-7 P-core, 8-15 E-core (from cpu_core/cpu_atom)"), "'%s'", text);
	CHECK(!strcmp(coretype_of_cpu(&m, 7), "P-core") && !strcmp(coretype_of_cpu(&m, 8), "E-core"), "7/8");
	CHECK(!coretype_of_cpu(&m, 16) && !coretype_of_cpu(&m, -1), "a CPU the host lacks has a type");
	CHECK(coretype_count_among(&m, p_only, 3) == 1, "P-cores only span %d", coretype_count_among(&m, p_only, 3));
	CHECK(coretype_count_among(&m, mixed, 2) == 2, "CPUs 2 and 8 span %d", coretype_count_among(&m, mixed, 2));
}

TEST(coretype_midr_is_read_per_cpu_not_from_cpu0)
{
	static struct coretype_map m;
	char text[256];
	int n;

	CHECK(use_host(BIGLITTLE_HOST) == 0, "host");
	n = coretype_read(&m);
	restore_runner_host();
	CHECK(n == 2, "%d types", n);
	/* The host also has cpu_capacity: MIDR, which names the core, wins. */
	CHECK(!strcmp(m.types[0].source, "midr_el1"), "source %s", m.types[0].source);
	coretype_describe(&m, text, sizeof(text));
	CHECK(!strcmp(text, "CPUs 0-3 Cortex-A55 (MIDR 0x412fd050), 4-7 Cortex-A76 (MIDR 0x414fd0b0) "
			    "(from midr_el1)"),
	      "'%s'", text);
	CHECK(strstr(coretype_of_cpu(&m, 5), "Cortex-A76"), "CPU 5 is %s", coretype_of_cpu(&m, 5));
}

/* A scratch host whose CPUs state only cpu_capacity (caps[i] for cpu i, 0:
 * no file). */
static void make_capacity_host(char *dir, size_t len, const int *caps, int n)
{
	char path[512], text[32];

	test_scratch_make(dir, len, "coretype");
	snprintf(path, sizeof(path), "%s/host.txt", dir);
	test_write_text(path, "isa aarch64\nonline_cpus 3\nallowed_cpus 0-2\npage_bytes 4096\nperf_cycles ENOENT\n"
			      "rdpmc SIGILL\n");
	for (const char *const *p = (const char *const[]){"/sys", "/sys/devices", "/sys/devices/system",
							     "/sys/devices/system/cpu", NULL};
	     *p; p++) {
		snprintf(path, sizeof(path), "%s%s", dir, *p);
		mkdir(path, 0700);
	}
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu%d", dir, i);
		mkdir(path, 0700);
		if (!caps[i])
			continue;
		snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/cpu%d/cpu_capacity", dir, i);
		snprintf(text, sizeof(text), "%d\n", caps[i]);
		test_write_text(path, text);
	}
}

TEST(coretype_capacity_is_the_fallback_and_none_is_said)
{
	static struct coretype_map m;
	const int caps[] = {512, 512, 1024}, none[] = {0, 0, 0};
	char dir[256], text[256];
	int n;

	make_capacity_host(dir, sizeof(dir), caps, 3);
	CHECK(dir[0], "mkdtemp");
	CHECK(use_host(dir) == 0, "scratch host");
	n = coretype_read(&m);
	restore_runner_host();
	test_scratch_remove(dir, "coretype");
	CHECK(n == 2, "%d types", n);
	coretype_describe(&m, text, sizeof(text));
	CHECK(!strcmp(text, "CPUs 0-1 capacity 512, 2 capacity 1024 (from cpu_capacity)"), "'%s'", text);

	make_capacity_host(dir, sizeof(dir), none, 3);
	CHECK(use_host(dir) == 0, "scratch host");
	n = coretype_read(&m);
	restore_runner_host();
	test_scratch_remove(dir, "coretype");
	CHECK(n == 0 && !coretype_of_cpu(&m, 0), "%d types from no file", n);
	coretype_describe(&m, text, sizeof(text));
	CHECK(strstr(text, "not stated by the host"), "'%s'", text);
}

static char *machine_text(const struct machine_info *m, char *buf, size_t len)
{
	FILE *f = fmemopen(buf, len, "w");

	buf[0] = 0;
	if (f) {
		machine_write_text(m, f);
		fclose(f);
	}
	return buf;
}

TEST(coretype_machine_names_the_pinned_core_and_warns_on_mixed_kinds)
{
	static struct machine_info m;
	static char text[16384], json[32768];
	FILE *f;
	struct jsonw w;
	int rc;

	CHECK(use_host(HYBRID_HOST) == 0, "host");
	rc = host_pin(9) ?: machine_probe(&m, test_stub_clock());
	restore_runner_host();
	CHECK(rc == 0, "pin and probe: %d", rc);
	CHECK(m.pinned_cpu == 9 && m.allowed_core_types == 2, "pinned %d, %d kinds allowed", m.pinned_cpu,
	      m.allowed_core_types);
	machine_text(&m, text, sizeof(text));
	CHECK(strstr(text, "  core types     CPUs 0-7 P-core, 8-15 E-core (from cpu_core/cpu_atom)\n"), "%s", text);
	CHECK(strstr(text, "  pinned core    CPU 9: E-core\n"), "%s", text);
	CHECK(strstr(text, "CPUs of 2 kinds are allowed: figures depend on which core ran them") &&
		      strstr(text, "single-core sections ran on CPU 9, E-core"),
	      "no warning: %s", text);

	f = fmemopen(json, sizeof(json), "w");
	CHECK(f, "fmemopen");
	jsonw_init(&w, f);
	machine_write_json(&m, &w, NULL);
	fclose(f);
	CHECK(strstr(json, "\"core_type_count\": 2") && strstr(json, "\"pinned_core_type\": \"E-core\"") &&
		      strstr(json, "\"cpus\": \"8-15\"") && strstr(json, "\"source\": \"cpu_core/cpu_atom\""),
	      "%s", json);

	/* One kind allowed: no warning. */
	m.allowed_core_types = 1;
	machine_text(&m, text, sizeof(text));
	CHECK(!strstr(text, "kinds are allowed"), "warned with one kind: %s", text);
}

TEST(coretype_provenance_names_the_pinned_cpus_kind)
{
	static struct provenance p;

	CHECK(use_host(BIGLITTLE_HOST) == 0, "host");
	provenance_collect(&p, 1, 6);
	restore_runner_host();
	CHECK(p.core_type_count == 2 && !strcmp(p.cpu_pinned_type, "Cortex-A76 (MIDR 0x414fd0b0)"), "%d '%s'",
	      p.core_type_count, p.cpu_pinned_type);
	CHECK(use_host(BIGLITTLE_HOST) == 0, "host");
	provenance_collect(&p, 1, -1);
	restore_runner_host();
	CHECK(!p.cpu_pinned_type[0], "unpinned run names '%s'", p.cpu_pinned_type);
}
