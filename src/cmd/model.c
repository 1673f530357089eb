/*
 * The model command: load, then one block per lanes arm. A file that is not
 * a readable mlpscope result is a usage error (2), as for every command that
 * reads results (cmd/load.c says which).
 */
#include "cmd/model.h"

#include "cmd/load.h"
#include "cmd/model_inputs.h"
#include "report/model_out.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int model_cmd_run(const char *json_path, FILE *out, char *err, size_t errlen)
{
	struct model_inputs *in;
	size_t n;
	int rc;

	in = calloc(MODEL_MAX_SECTIONS, sizeof(*in));
	if (!in) {
		snprintf(err, errlen, "out of memory");
		return 1;
	}
	rc = model_inputs_load(json_path, in, &n, err, errlen);
	if (rc) {
		rc = result_load_usage_error(rc) ? 2 : 1;
		goto out;
	}
	fprintf(out, "model: %s\n", json_path);
	for (size_t i = 0; i < n; i++)
		model_write_text(out, &in[i]);
	if (fflush(out) || ferror(out)) {
		snprintf(err, errlen, "writing the model: %s", strerror(errno));
		rc = 1;
	}
out:
	free(in);
	return rc;
}

int cmd_model(const struct options *o, char *err, size_t errlen)
{
	return model_cmd_run(o->from_path, stdout, err, errlen);
}
