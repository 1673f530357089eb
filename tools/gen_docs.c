/*
 * gen_docs FILE.md: rewrites the option lists between the marker lines of
 * FILE.md (docs/OUTPUT.md) from the tables that drive `help CMD`
 * (src/options_doc.c), and leaves the rest of the file as it was; `make
 * docs` runs it. The file is replaced whole or not at all. Linked with the
 * same objects as mlpscope.
 */
#include "options_doc.h"
#include "util/atomic.h"
#include "util/inputfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	struct atomic_file out;
	unsigned char *data = NULL;
	char err[256], *doc = NULL;
	const char *body;
	size_t len, body_len;
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: gen_docs FILE.md\n");
		return 2;
	}
	if (inputfile_read_all(argv[1], 1u << 24, &data, &len, err, sizeof(err)) || !(doc = calloc(1, len + 1))) {
		fprintf(stderr, "gen_docs: %s: unreadable\n", argv[1]);
		free(data);
		return 1;
	}
	memcpy(doc, data, len);
	free(data);
	if (options_doc_find(doc, &body, &body_len)) {
		fprintf(stderr, "gen_docs: %s: no line '%s' followed by one '%s'\n", argv[1], options_doc_begin,
			options_doc_end);
		free(doc);
		return 1;
	}
	if ((rc = atomic_open(&out, argv[1])) == 0) {
		fwrite(doc, 1, (size_t)(body - doc), out.f);
		options_doc_write(out.f);
		fputs(body + body_len, out.f);
		rc = atomic_commit(&out);
	}
	if (rc)
		fprintf(stderr, "gen_docs: %s: %s\n", argv[1], strerror(-rc));
	free(doc);
	return rc ? 1 : 0;
}
