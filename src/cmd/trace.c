/*
 * The trace command: a bad --from is found before the trace is read (a
 * usage error before the work), and the hit rates are given for the caches
 * this machine reports.
 */
#include "cmd/trace.h"

#include "cmd/load.h"
#include "cmd/model_inputs.h"
#include "cmd/trace_analyse.h"
#include "report/trace_out.h"
#include "inputfile.h"
#include "topo.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int trace_cmd_run_caches(const char *trace_path, const char *json_path_or_NULL, const uint64_t *cache_bytes,
			 size_t ncaches, FILE *out, char *err, size_t errlen)
{
	struct trace_params p = {.cache_bytes = cache_bytes, .ncaches = ncaches};
	struct trace_result *r = calloc(1, sizeof(*r));
	struct model_inputs *in = calloc(MODEL_MAX_SECTIONS, sizeof(*in));
	size_t nin = 0;
	FILE *f = NULL;
	char what[200];
	int rc;

	if (!r || !in) {
		snprintf(err, errlen, "out of memory");
		rc = 1;
		goto out;
	}
	/* the JSON first: a bad --from is a usage error found before the work */
	if (json_path_or_NULL) {
		rc = model_inputs_load(json_path_or_NULL, in, &nin, err, errlen);
		if (rc) {
			rc = result_load_usage_error(rc) ? 2 : 1;
			goto out;
		}
	}
	/* The same opening as every reader: a FIFO or a directory is refused
	 * with its path, before anything blocks. */
	rc = inputfile_open(trace_path, err, errlen);
	if (rc < 0) {
		rc = inputfile_usage_error(rc) ? 2 : 1;
		goto out;
	}
	if (!(f = fdopen(rc, "r"))) {
		snprintf(err, errlen, "%s: %s", trace_path, strerror(errno));
		close(rc);
		rc = 1;
		goto out;
	}
	errno = 0;
	rc = trace_analyse(f, &p, r, what, sizeof(what));
	if (rc) {
		snprintf(err, errlen, "%s: %s", trace_path, what);
		rc = rc == -EINVAL ? 2 : 1;
		goto out;
	}
	if (!r->instr && !r->loads && !r->stores && !r->modifies) {
		snprintf(err, errlen, "%s: no lackey records (%llu lines, %llu malformed): not a valgrind lackey trace",
			 trace_path, (unsigned long long)r->lines, (unsigned long long)r->malformed);
		rc = 2;
		goto out;
	}
	trace_write_text(out, trace_path, r);
	if (nin && r->touches)
		trace_write_bounds(out, json_path_or_NULL, r, &in[0]);
	rc = 0;
	if (fflush(out) || ferror(out)) {
		snprintf(err, errlen, "writing the trace report: %s", strerror(errno));
		rc = 1;
	}
out:
	if (f)
		fclose(f);
	free(in);
	free(r);
	return rc;
}

int trace_cmd_run(const char *trace_path, const char *json_path_or_NULL, FILE *out, char *err, size_t errlen)
{
	return trace_cmd_run_caches(trace_path, json_path_or_NULL, NULL, 0, out, err, errlen);
}

int cmd_trace(const struct options *o, char *err, size_t errlen)
{
	struct topo t;
	uint64_t caches[TOPO_MAX_CACHES];
	size_t n = 0;

	/* The hit rates a trace would see in the caches this machine reports. */
	topo_read(&t);
	for (int i = 0; i < t.ncaches; i++)
		if (strcmp(t.caches[i].type, "Instruction") && t.caches[i].size_bytes)
			caches[n++] = t.caches[i].size_bytes;
	return trace_cmd_run_caches(o->paths[0], o->from_path, n ? caches : NULL, n, stdout, err, errlen);
}
