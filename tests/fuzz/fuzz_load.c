/*
 * libFuzzer target: the result loader followed by every writer that draws
 * from a loaded result. The input is written to a file on tmpfs and goes
 * through the real path: result_load (read, parse, tool and schema, vetting)
 * via compare's text table and model's text, then, when it loads, the HTML
 * page, every SVG plot and the CSV tables. Writers send their text to
 * /dev/null; the CSV tables go to a tmpfs folder (their atomic writes fsync,
 * which tmpfs makes free).
 */
#include "sections/compare.h"
#include "analyse/load.h"
#include "sections/model.h"
#include "frame/registry.h"
#include "util/jsonr.h"
#include "report/html.h"
#include "report/plots.h"
#include "report/prom.h"
#include "report/svg.h"
#include "report/view.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64], path[96], csv[96];
static FILE *sink;

/* libFuzzer leaves through exit(): the scratch folder goes with it. */
static void cleanup(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd)) {
		/* a folder left on tmpfs fails nothing */
	}
}

static void setup(void)
{
	const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";

	snprintf(dir, sizeof(dir), "%s/mlpscope-fuzz-%d", base, (int)getpid());
	mkdir(dir, 0700);
	snprintf(path, sizeof(path), "%s/in.json", dir);
	snprintf(csv, sizeof(csv), "%s/csv", dir);
	mkdir(csv, 0700);
	sink = fopen("/dev/null", "w");
	if (!sink)
		abort();
	atexit(cleanup);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *paths[2] = { path, path }, *labels[2] = { "a", "b" };
	const struct jsonr_value *roots[2];
	struct jsonr_doc doc;
	char err[512];
	FILE *f;
	int rc, crc;

	if (!sink)
		setup();
	f = fopen(path, "w");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
	err[0] = 0;
	crc = compare_run(paths, 2, sink, NULL, err, sizeof(err));
	if (crc && (!err[0] || strchr(err, '\n')))
		abort();  /* a refusal is one line */
	model_cmd_run(path, NULL, NULL, sink, err, sizeof(err));
	rc = result_load(path, &doc, err, sizeof(err));
	if ((rc == 0) != (crc == 0))
		abort();  /* compare and the loader must agree on the file */
	if (rc)
		return 0;
	roots[0] = roots[1] = doc.root;
	if (html_write(sink, registry_views(), roots, labels, 2) && ferror(sink))
		abort();
	const struct view_plot *plots[PLOTS_MAX];
	size_t nplots = plots_of_views(registry_views(), plots, PLOTS_MAX);

	for (size_t k = 0; k < nplots; k++) {
		struct svg_plot p;

		if (!plots[k]->build(&p, roots, labels, 2))
			svg_plot_write(&p, sink, true);
		svg_plot_free(&p);
	}
	registry_write_csv(csv, doc.root);
	if (prom_write(sink, registry_views(), doc.root) && ferror(sink))
		abort();
	jsonr_free(&doc);
	return 0;
}
