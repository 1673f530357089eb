/*
 * libFuzzer target: the lackey trace parser and its text and JSON reports. Any bytes
 * are a trace: malformed lines are counted, never fatal, and the analysis
 * must end with counts that add up.
 */
#include "analyse/trace_analyse.h"
#include "util/jsonw.h"
#include "report/trace_out.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *sink;
	static const uint64_t caches[] = { 32768, 1048576, 33554432 };
	struct trace_params p = { .cache_bytes = caches, .ncaches = 3 };
	struct trace_result *r = calloc(1, sizeof(*r));
	char err[256];
	FILE *f;

	if (!sink && !(sink = fopen("/dev/null", "w")))
		abort();
	if (!r)
		return 0;
	f = size ? fmemopen((void *)data, size, "r") : fopen("/dev/null", "r");
	if (!f)
		abort();
	if (trace_analyse(f, &p, r, err, sizeof(err)) == 0) {
		struct jsonw w;

		trace_write_text(sink, "fuzz", r);
		jsonw_init(&w, sink);
		jsonw_object_begin(&w, NULL);
		trace_write_json(&w, "fuzz", r, NULL, NULL);
		jsonw_object_end(&w);
		jsonw_finish(&w);
	}
	fclose(f);
	free(r);
	return 0;
}
