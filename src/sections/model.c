/*
 * The model command: load the result (and an optional second one holding
 * window), then one envelope block per mlp arm, as text and, with --json,
 * as a "model" object. A file that is not a readable mlpscope result is a
 * usage error (2), as for every command that reads results (analyse/load.c).
 */
#include "sections/model.h"
#include "frame/registry.h"

#include "analyse/envelope.h"
#include "analyse/load.h"
#include "util/jsonr.h"
#include "util/atomic.h"
#include "report/model_out.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MODEL_ARMS 2

static int write_json(const char *path, const char *from, const struct env_inputs *in, size_t n, char *err,
		      size_t errlen)
{
	struct atomic_file a;
	struct jsonw w;
	int rc = atomic_open(&a, path);

	if (rc) {
		snprintf(err, errlen, "--json: cannot write '%s': %s", path, atomic_strerror(rc));
		return 1;
	}
	jsonw_init(&w, a.f);
	jsonw_object_begin(&w, NULL);
	jsonw_string(&w, "tool", "mlpscope");
	jsonw_int(&w, "schema_version", 1);
	model_write_json(&w, from, in, n);
	jsonw_object_end(&w);
	jsonw_finish(&w);
	if ((rc = atomic_commit(&a))) {
		snprintf(err, errlen, "--json: writing '%s' failed: %s", path, atomic_strerror(rc));
		return 1;
	}
	return 0;
}

int model_cmd_run(const char *json_path, const char *window_path, const char *json_out, FILE *out, char *err,
		  size_t errlen)
{
	struct jsonr_doc doc = {0}, extra = {0};
	struct env_inputs *in = calloc(MODEL_ARMS, sizeof(*in));
	const struct jsonr_value *mlp;
	char what[256] = "";
	size_t n = 0;
	int rc;

	if (!in) {
		snprintf(err, errlen, "out of memory");
		return 1;
	}
	if ((rc = result_load(json_path, &doc, err, errlen))) {
		rc = result_load_usage_error(rc) ? 2 : 1;
		goto out;
	}
	if (window_path && (rc = result_load(window_path, &extra, err, errlen))) {
		rc = result_load_usage_error(rc) ? 2 : 1;
		goto out;
	}
	mlp = jsonr_get(doc.root, "mlp");
	if (!mlp || mlp->type != JSONR_OBJECT) {
		snprintf(what, sizeof(what), "no mlp section");
		rc = -EBADMSG;
	} else if (jsonr_member(mlp, "sweep")) {
		rc = envelope_inputs_from(doc.root, mlp, "mlp", extra.root, &in[n++], what, sizeof(what));
	} else {
		static const char *const pages[MODEL_ARMS] = {"small", "huge"};

		rc = 0;
		for (size_t i = 0; i < MODEL_ARMS && !rc; i++) {
			const struct jsonr_value *s = jsonr_member(mlp, pages[i]);
			char name[16];

			if (!s)
				continue;
			snprintf(name, sizeof(name), "mlp.%s", pages[i]);
			rc = envelope_inputs_from(doc.root, s, name, extra.root, &in[n++], what, sizeof(what));
		}
		if (!rc && !n) {
			snprintf(what, sizeof(what), "mlp has no sweep, small or huge");
			rc = -EBADMSG;
		}
	}
	if (rc) {
		snprintf(err, errlen, "%s: %s", json_path, what);
		rc = 2;
		goto out;
	}
	fprintf(out, "model: %s%s%s\n", json_path, window_path ? " with window from " : "",
		window_path ? window_path : "");
	for (size_t i = 0; i < n; i++)
		model_write_text(out, &in[i]);
	if (fflush(out) || ferror(out)) {
		snprintf(err, errlen, "writing the model: %s", strerror(errno));
		rc = 1;
		goto out;
	}
	if (json_out)
		rc = write_json(json_out, json_path, in, n, err, errlen);
out:
	jsonr_free(&doc);
	jsonr_free(&extra);
	free(in);
	return rc;
}

/* --from: the measured result the model reads. */
static const struct option_spec model_from_opt = {
	.name = "from", .arg = "FILE", .kind = OPTION_STRING,
	.help = "take L, Q and B from this mlpscope JSON result (required)",
};

static const struct option_spec *const model_options[] = {&model_from_opt, NULL};

int cmd_model(const struct options *o, char *err, size_t errlen)
{
	/* --json -: the JSON is stdout, the text goes nowhere. */
	FILE *text = atomic_is_stdout(o->json_path) ? atomic_discard_stream() : stdout;

	return model_cmd_run(option_text(o, &model_from_opt), o->npaths ? o->paths[0] : NULL, o->json_path, text, err, errlen);
}

static const char model_help[] =
	"mlpscope model --from run.json [window.json] [--json FILE]: reads a measured\n"
	"result and prints, per lane count K, a lower bound on time per access from each\n"
	"resource separately, every term with its source: L/K (L = t(1)); u/P (u the\n"
	"instructions per access counted in the compiled kernel, P the issue rate the mlp\n"
	"section measured on the same kernels L1-resident); loads and stores per access\n"
	"over the L1D's load and store ports per cycle (by CPU, from the vendors' guides,\n"
	"or the largest known, stated as assumed) at the fastest core clock the run\n"
	"timed; the same kernel's L1-resident time; line/B with B the bandwidth section's\n"
	"read on one thread and on all (never the sweep being explained); L x loads/Q and\n"
	"L x instructions/ROB with Q and ROB from window (in the file, or a second file).\n"
	"Then the binding term, its margin to the next, the latency under load at that\n"
	"K's traffic (from the loaded section) with Little's law, and what could set the\n"
	"plateau, with the evidence for and against each candidate. No measurement is\n"
	"made; see docs/MODEL.md.\n";

const struct section section_model = {
	.name = "model",
	.summary = "the envelope: which resource could bind each point of a measured lanes curve",
	.help = model_help, .kind = SECTION_FILE_COMMAND, .outputs = SECTION_OUT_JSON,
	.operands = SECTION_ARGS_OPTIONAL, .operand_name = "window result", .needs_from = true, .options = model_options,
	.usage = "mlpscope model --from run.json [window.json] [--json FILE]", .command = cmd_model,
};
