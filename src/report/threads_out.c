/*
 * The pieces the threaded sections' writers share (threads_out.h): their
 * placement in text and JSON (their floor's wording is report_format_floor,
 * every section's). One place, so the three sections say the same thing
 * about the same team in the same words.
 */
#include "report/threads_out.h"

#include "util/format.h"

void threads_write_placement_text(const struct team_placement *pl, FILE *f)
{
	char cpus[1024];

	team_format_placement(pl, cpus, sizeof(cpus));
	fprintf(f, "  threads pinned one per CPU, thread i -> CPU: %s\n", cpus);
}

void threads_write_json_close(struct jsonw *w, const struct team_placement *pl, double seconds)
{
	jsonw_array_begin(w, "placement");
	for (unsigned i = 0; i < pl->nthreads; i++) {
		jsonw_object_begin(w, NULL);
		jsonw_uint(w, "thread", i);
		jsonw_int(w, "cpu", pl->cpu[i]);
		jsonw_int(w, "observed_cpu", pl->observed_cpu[i]);
		jsonw_object_end(w);
	}
	jsonw_array_end(w);
	jsonw_double(w, "seconds", seconds);
	jsonw_object_end(w);
}
