/*
 * The model's load-port and store-port terms: on synthetic inputs the load
 * ports bind where an access carries many loads and the store ports where
 * it carries many stores; through the model command on a synthetic result
 * (an Ice Lake server's identity, a timed clock) both bind at their own K
 * and the sources name the public figure; every CPU of the recorded corpus
 * has its figure, an unknown one is assumed and says so, and a file without
 * a core clock leaves both terms unknown.
 */
#include "../harness.h"

#include "analyse/envelope.h"
#include "analyse/ports.h"
#include "sections/model.h"
#include "util/jsonr.h"

#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* L = 100 ns at K = 32 (L/K = 3.125 ns), 2 loads and 2 stores a cycle at
 * 1 GHz; every other term unknown. */
static void point(struct env_inputs *in, double loads, double stores)
{
	memset(in, 0, sizeof(*in));
	snprintf(in->section, sizeof(in->section), "mlp");
	in->line_bytes = 64;
	in->noise_floor_frac = 0.02;
	in->t1.value = 100;
	in->load_ports.value = 2;
	in->store_ports.value = 2;
	in->clock_ghz.value = 1;
	in->npoints = 1;
	in->lanes[0] = 32;
	in->measured_ns[0] = 6;
	in->insns_per_access[0] = loads + stores + 1;
	in->loads_per_access[0] = loads;
	in->stores_per_access[0] = stores;
}

TEST(ports_load_and_store_ports_each_bind_on_synthetic_inputs)
{
	struct env_inputs in;
	struct env_point p;

	/* 10 loads / (2 x 1 GHz) = 5 ns over L/K 3.125 and 1 store's 0.5 ns */
	point(&in, 10, 1);
	envelope_at(&in, 0, &p);
	CHECK(p.binding == ENV_LOAD_PORTS && fabs(p.ns[ENV_LOAD_PORTS] - 5) < 1e-12 &&
	      fabs(p.ns[ENV_STORE_PORTS] - 0.5) < 1e-12 && p.next == ENV_LATENCY, "load ports: %s %g",
	      envelope_term_name((enum env_term)p.binding), p.envelope_ns);
	CHECK(fabs(p.margin - (5 / 3.125 - 1)) < 1e-12, "margin %g", p.margin);
	/* one load, 9 stores on one store port: 9 ns */
	point(&in, 1, 9);
	in.store_ports.value = 1;
	envelope_at(&in, 0, &p);
	CHECK(p.binding == ENV_STORE_PORTS && fabs(p.envelope_ns - 9) < 1e-12 && fabs(p.ns[ENV_LOAD_PORTS] - 0.5) < 1e-12,
	      "store ports: %s %g", envelope_term_name((enum env_term)p.binding), p.envelope_ns);
	/* no stores: no store term (unknown, not zero time) */
	point(&in, 1, 0);
	envelope_at(&in, 0, &p);
	CHECK(p.ns[ENV_STORE_PORTS] == 0 && p.binding == ENV_LATENCY, "no stores");
	/* no clock: neither port term */
	point(&in, 10, 9);
	in.clock_ghz.value = 0;
	envelope_at(&in, 0, &p);
	CHECK(p.ns[ENV_LOAD_PORTS] == 0 && p.ns[ENV_STORE_PORTS] == 0 && p.binding == ENV_LATENCY, "no clock");
}

static const char result_json[] =
	"{\"tool\": \"mlpscope\", \"version\": \"0.1.0\", \"schema_version\": 1,\n"
	" \"machine\": {\"vendor\": \"GenuineIntel\", \"family\": 6, \"model\": 106,"
	"   \"core_clock_mhz\": {\"min\": 800, \"max\": 1000}},\n"
	" \"mlp\": {\"line_bytes\": 64, \"noise_floor_pct\": 2,\n"
	"  \"sweep\": [\n"
	"   {\"lanes\": 1, \"ns_per_access\": 100, \"instructions_per_access\": 4, \"loads_per_access\": 1,"
	"    \"stores_per_access\": 0},\n"
	"   {\"lanes\": 32, \"ns_per_access\": 6, \"instructions_per_access\": 12, \"loads_per_access\": 10,"
	"    \"stores_per_access\": 1},\n"
	"   {\"lanes\": 64, \"ns_per_access\": 6, \"instructions_per_access\": 12, \"loads_per_access\": 1,"
	"    \"stores_per_access\": 10}],\n"
	"  \"estimate\": {\"fit_latency_ns\": 100}},\n"
	" \"warnings\": []}\n";

/* Through the command: Ice Lake server (2 loads, 2 stores a cycle) at the
 * fastest timed clock, 1000 MHz. K = 32: 10 loads / 2 = 5 ns binds over
 * L/K 3.125; K = 64: 10 stores / 2 = 5 ns binds over L/K 1.5625. */
TEST(ports_model_command_names_the_binding_port_and_its_source)
{
	char rpath[] = "/tmp/mlpscope-ports-XXXXXX", jpath[64], err[256], *text = NULL;
	int fd = mkstemp(rpath), rc;
	size_t len = 0;
	FILE *out;
	struct jsonr_doc doc;
	const struct jsonr_value *bind, *in0;
	double v;

	CHECK(fd >= 0, "mkstemp");
	close(fd);
	snprintf(jpath, sizeof(jpath), "%s.json", rpath);
	CHECK(!test_write_text(rpath, result_json), "write");
	out = open_memstream(&text, &len);
	rc = model_cmd_run(rpath, NULL, jpath, out, err, sizeof(err));
	fclose(out);
	CHECK(rc == 0, "rc %d: %s", rc, err);
	CHECK(strstr(text, "2 loads/cycle: machine family 6 model 106 is Sunny Cove (Ice Lake server) (public: Intel") &&
	      strstr(text, "f: machine.core_clock_mhz.max = 1000 MHz"), "sources: %s", text);
	CHECK(strstr(text, "    32     6.000    3.125        -    5.000    0.500") &&
	      strstr(text, "    64     6.000    1.562        -    0.500    5.000"), "rows: %s", text);
	CHECK(strstr(text, "    load ports                 partial     0.500 ns") ||
	      strstr(text, "    store ports                partial     5.000 ns"), "plateau candidates: %s", text);
	free(text);
	CHECK(jsonr_parse_file(jpath, 0, &doc, err, sizeof(err)) == 0, "%s", err);
	unlink(jpath);
	unlink(rpath);
	bind = jsonr_get(doc.root, "model.binding");
	CHECK(bind && jsonr_get_count(doc.root, "model.binding") == 3, "three points");
	CHECK(!strcmp(jsonr_get_string(jsonr_index(bind, 1), "term"), "load_ports") &&
	      !strcmp(jsonr_get_string(jsonr_index(bind, 2), "term"), "store_ports"), "load binds at 32, store at 64");
	in0 = jsonr_index(jsonr_get(doc.root, "model.inputs"), 0);
	CHECK(jsonr_get_number(in0, "load_ports_per_cycle", &v) && v == 2 &&
	      jsonr_get_number(in0, "store_ports_per_cycle", &v) && v == 2 &&
	      jsonr_get_number(in0, "core_clock_ghz", &v) && v == 1 && jsonr_get_string(in0, "store_ports_source"),
	      "inputs");
	jsonr_free(&doc);
}

/* Every recorded CPU of the corpus has its public figure; a CPU the table
 * does not know gets the largest and says it is assumed. */
TEST(ports_every_corpus_cpu_has_its_figure_and_an_unknown_one_is_assumed)
{
	glob_t g;
	struct ports p;
	unsigned n = 0;

	CHECK(glob("tests/data/cpus/*/report.json", 0, NULL, &g) == 0, "no corpus");
	for (size_t i = 0; i < g.gl_pathc; i++) {
		struct jsonr_doc doc;
		char err[256];
		double fam, mod;
		const char *vendor;

		CHECK(jsonr_parse_file(g.gl_pathv[i], 0, &doc, err, sizeof(err)) == 0, "%s: %s", g.gl_pathv[i], err);
		vendor = jsonr_get_string(doc.root, "machine.vendor");
		CHECK(vendor && jsonr_get_number(doc.root, "machine.family", &fam) &&
		      jsonr_get_number(doc.root, "machine.model", &mod), "%s: no identity", g.gl_pathv[i]);
		CHECK(ports_lookup(vendor, (int)fam, (int)mod, &p) && !p.assumed && p.loads_per_cycle >= 2 &&
		      p.stores_per_cycle >= 1 && p.core && strstr(p.source, "Optimization"), "%s: %s %g %g",
		      g.gl_pathv[i], p.source, p.loads_per_cycle, p.stores_per_cycle);
		jsonr_free(&doc);
		n++;
	}
	globfree(&g);
	CHECK(n >= 5, "only %u corpus reports", n);
	CHECK(ports_lookup("GenuineIntel", 6, 207, &p) && p.loads_per_cycle == 3 && p.stores_per_cycle == 2, "EMR");
	CHECK(ports_lookup("AuthenticAMD", 25, 1, &p) && p.loads_per_cycle == 3 && p.stores_per_cycle == 2, "Zen 3");
	CHECK(ports_lookup("AuthenticAMD", 26, 2, &p) && p.loads_per_cycle == 4 && p.stores_per_cycle == 2, "Zen 5");
	CHECK(!ports_lookup("ARM", 0, 0, &p) && p.assumed && p.loads_per_cycle == 4 && p.stores_per_cycle == 2 &&
	      strstr(p.source, "assumed"), "unknown: %s", p.source);
	CHECK(!ports_lookup(NULL, 6, 106, &p) && p.assumed, "no vendor");
}
