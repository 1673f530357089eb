/*
 * The result loader. One vocabulary of errors for every reader: what is
 * wrong with the file (not JSON, not ours, too new) is a usage error; what
 * went wrong reading it (EIO, EACCES, ENOMEM) is a runtime failure.
 */
#include "analyse/load.h"

#include "analyse/vet.h"
#include "util/inputfile.h"
#include "exp/result.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

int result_load(const char *path, struct jsonr_doc *doc, char *err, size_t errlen)
{
	char jerr[256];
	const char *tool;
	double schema;
	int rc = jsonr_parse_file(path, 0, doc, jerr, sizeof(jerr));

	if (rc == -EBADMSG) {
		snprintf(err, errlen, "%s (not a complete JSON document)", jerr);
		return rc;
	}
	if (rc) {
		snprintf(err, errlen, "%s", jerr);
		return rc;
	}
	tool = jsonr_get_string(doc->root, "tool");
	if (!tool || strcmp(tool, "mlpscope")) {
		snprintf(err, errlen, "%s: not an mlpscope result (no \"tool\": \"mlpscope\")", path);
		rc = -EPROTO;
	} else if (!jsonr_get_number(doc->root, "schema_version", &schema)) {
		snprintf(err, errlen, "%s: no schema_version: not an mlpscope result this version can read", path);
		rc = -EPROTO;
	} else if (schema != floor(schema) || schema < 1) {
		snprintf(err, errlen, "%s: schema_version %g is not a version (expected a whole number from 1)", path,
			 schema);
		rc = -EPROTO;
	} else if (schema > RESULT_SCHEMA_VERSION) {
		snprintf(err, errlen, "%s: schema_version %g is newer than this mlpscope reads (%d); use a newer mlpscope",
			 path, schema, RESULT_SCHEMA_VERSION);
		rc = -EPROTONOSUPPORT;
	}
	/* Meaning before anything is drawn or computed from it. */
	if (!rc)
		rc = vet_result(doc->root, path, err, errlen);
	if (rc)
		jsonr_free(doc);
	return rc;
}

bool result_load_usage_error(int rc)
{
	return rc == -EBADMSG || rc == -EPROTO || rc == -EPROTONOSUPPORT || rc == -EFBIG || rc == -E2BIG || rc == -EDOM ||
	       inputfile_usage_error(rc);
}
