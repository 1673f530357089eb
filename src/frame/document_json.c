/*
 * The JSON result document. Keys carry their unit (ns, bytes, gbps, pct);
 * the schema is documented key by key in docs/OUTPUT.md and is only ever
 * extended, never renamed, because other tools read it. This file writes
 * the envelope (tool, version, provenance, warnings); each section's object
 * comes from its registry row's writer, in registry order.
 */
#include "frame/document.h"

#include "analyse/vet.h"

#include "frame/budget.h"
#include "frame/registry.h"
#include "util/jsonr.h"
#include "util/jsonw.h"
#include "report/summary.h"
#include "core/team.h"

#include <stdio.h>
#include <stdlib.h>

static void write_clock(struct jsonw *w, const struct clock_info *c)
{
	jsonw_object_begin(w, "clock");
	jsonw_string(w, "source", c->source);
	jsonw_double(w, "ticks_per_ns", c->ticks_per_ns);
	jsonw_bool(w, "invariant", c->invariant);
	jsonw_double(w, "calibration_spread_pct", c->calibration_spread_pct);
	jsonw_double(w, "resolution_ns", clock_ticks_to_ns(c, c->resolution_ticks));
	jsonw_double(w, "empty_region_ns", clock_ticks_to_ns(c, c->empty_region_ticks));
	jsonw_double(w, "min_region_ns", c->min_region_ns);
	jsonw_object_end(w);
}

static void write_team(struct jsonw *w, const char *key, const struct team_placement *pl)
{
	jsonw_array_begin(w, key);
	for (unsigned i = 0; i < pl->nthreads; i++)
		jsonw_int(w, NULL, pl->cpu[i]);
	jsonw_array_end(w);
}

/* Where each multi-threaded section ran: thread i was pinned to cpus[i]. */
static void write_thread_placement(struct jsonw *w, const struct report *r)
{
	jsonw_object_begin(w, "thread_placement");
	for (size_t i = 0; i < registry_count; i++)
		if (r->results[i] && registry[i]->placement_offset)
			write_team(w, registry[i]->name,
				   (const struct team_placement *)((const char *)r->results[i] +
								   registry[i]->placement_offset));
	jsonw_object_end(w);
}

static void write_provenance(struct jsonw *w, const struct report *r)
{
	const struct provenance *p = &r->prov;

	jsonw_object_begin(w, "provenance");
	jsonw_string(w, "binary_sha256", p->binary_sha256);
	jsonw_string_or_null(w, "build_id", p->build_id[0], p->build_id);
	jsonw_string(w, "source_revision", p->source_revision ? p->source_revision : "unknown");
	jsonw_bool_or_null(w, "source_dirty", p->source_dirty >= 0, p->source_dirty > 0);
	jsonw_string_or_null(w, "archived_binary", p->archived_binary[0], p->archived_binary);
	jsonw_string(w, "compiler", p->compiler);
	jsonw_string(w, "cflags", p->cflags);
	jsonw_string(w, "cpu_model", r->topo.cpu_model);
	jsonw_string(w, "arch", p->arch);
	jsonw_string(w, "kernel", p->kernel);
	jsonw_string(w, "timestamp_utc", p->timestamp_utc);
	jsonw_string(w, "affinity", r->topo.affinity);
	jsonw_int(w, "cpu_pinned", r->topo.cpu);
	jsonw_string_or_null(w, "cpu_pinned_type", p->cpu_pinned_type[0], p->cpu_pinned_type);
	jsonw_int(w, "online_cpus", r->topo.online_cpus);
	write_clock(w, &r->clock);
	write_thread_placement(w, r);
	jsonw_uint(w, "seed", p->seed);
	jsonw_object_end(w);
}

/* The document, with the headline summary after the provenance when sum
 * is given (the summary is read back from the document without it). */
static void write_document(const struct report *r, FILE *f, const struct summary *sum)
{
	struct jsonw w;

	jsonw_init(&w, f);
	jsonw_object_begin(&w, NULL);
	jsonw_string(&w, "tool", "mlpscope");
	jsonw_string(&w, "version", r->version);
	jsonw_int(&w, "schema_version", REPORT_SCHEMA_VERSION);
	write_provenance(&w, r);
	if (sum)
		summary_write_json(sum, &w);
	for (size_t i = 0; i < registry_count; i++)
		if (r->results[i] && registry[i]->write_json)
			registry[i]->write_json(r->results[i], &w, registry[i]->name);
	if (r->budget)
		budget_write_json(r->budget, &w, "plan");
	jsonw_array_begin(&w, "warnings");
	for (int i = 0; i < r->nwarnings; i++)
		jsonw_string(&w, NULL, r->warnings[i]);
	jsonw_array_end(&w);
	jsonw_object_end(&w);
	jsonw_finish(&w);
}

/* The document r writes (without its summary), parsed as a reader would
 * parse it: 0 and *doc filled (jsonr_free it), or nonzero with err. */
static int parse_own_document(const struct report *r, struct jsonr_doc *doc, char *err, size_t errlen)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int rc;

	if (!m)
		return -1;
	write_document(r, m, NULL);
	if (fclose(m)) {
		free(buf);
		return -1;
	}
	rc = jsonr_parse(buf, len, 0, doc, err, errlen);
	free(buf);
	return rc;
}

int report_build_summary(const struct report *r, struct summary *sum)
{
	struct jsonr_doc doc = {0};
	char err[128];
	int rc = parse_own_document(r, &doc, err, sizeof(err));

	if (!rc)
		summary_build(registry_views(), doc.root, sum);
	jsonr_free(&doc);
	return rc;
}

int report_check_readable(struct report *r)
{
	struct jsonr_doc doc = {0};
	char err[400] = "";
	int rc = parse_own_document(r, &doc, err, sizeof(err));

	if (!rc)
		rc = vet_result(doc.root, "this result", err, sizeof(err));
	if (rc)
		result_warn(r, "THIS RESULT FAILS ITS OWN READERS' CHECK (%s): compare, model and plan --from will refuse "
			    "it; the writer and the readers disagree, a defect to report", err[0] ? err : "it does not parse");
	jsonr_free(&doc);
	return rc;
}

void report_write_json(const struct report *r, FILE *f)
{
	static struct summary sum;

	write_document(r, f, report_build_summary(r, &sum) ? NULL : &sum);
}
