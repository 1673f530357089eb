/*
 * Draws a stored result as a measuring run draws its own (main.c,
 * write_drawn_outputs): the HTML page, the Prometheus text, the plots as SVG
 * and the CSV tables, from the JSON document alone. tools/output_gold.sh
 * links it with the objects of the build it checks, so two builds' drawings
 * of the same stored results can be compared byte for byte. Not installed.
 *
 *   render_result RESULT.json LABEL OUTDIR   (OUTDIR must exist)
 */
#include "analyse/load.h"
#include "report/html.h"
#include "report/prom.h"
#include "frame/registry.h"

#include <stdio.h>
#include <string.h>

static int draw_file(const char *dir, const char *name, const struct jsonr_value *root, const char *label,
		     bool html)
{
	char path[4096];
	const struct jsonr_value *docs[1] = {root};
	const char *labels[1] = {label};
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!(f = fopen(path, "w")))
		return -1;
	rc = html ? html_write(f, registry_views(), docs, labels, 1) : prom_write(f, registry_views(), root);
	return fclose(f) || rc ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct jsonr_doc doc = {0};
	const struct jsonr_value *docs[1];
	const char *labels[1];
	char err[512], sub[4096];
	int rc, bad = 0;

	if (argc != 4) {
		fprintf(stderr, "usage: render_result RESULT.json LABEL OUTDIR\n");
		return 2;
	}
	if ((rc = result_load(argv[1], &doc, err, sizeof(err)))) {
		fprintf(stderr, "render_result: %s\n", err);
		return 1;
	}
	docs[0] = doc.root;
	labels[0] = argv[2];
	bad |= draw_file(argv[3], "page.html", doc.root, argv[2], true);
	bad |= draw_file(argv[3], "headline.prom", doc.root, argv[2], false);
	snprintf(sub, sizeof(sub), "%s/svg", argv[3]);
	bad |= svg_write_dir(sub, registry_views(), docs, labels, 1) ? 1 : 0;
	snprintf(sub, sizeof(sub), "%s/csv", argv[3]);
	bad |= registry_write_csv(sub, doc.root) ? 1 : 0;
	jsonr_free(&doc);
	return bad ? 1 : 0;
}
