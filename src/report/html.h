/*
 * The HTML report and the plots as files, both drawn from parsed JSON
 * results (struct jsonr_value), so a live run (its JSON serialised in memory
 * and parsed back) and `compare` of saved files share one code path. The page
 * is self-contained: inline CSS and inline SVG, no scripts, no fonts, no
 * network. Nothing here measures, decides exit codes, or checks that runs
 * are comparable (compare.c does that before drawing them together).
 */
#ifndef MLPSCOPE_REPORT_HTML_H
#define MLPSCOPE_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "report/view.h"
#include "util/jsonr.h"

/* Write one HTML5 page: every plot with all ndocs runs on the same axes,
 * then per run the text report's content as tables, one section per view
 * in views (NULL-terminated, report order: registry_views()). labels[i]
 * names run i (a file name, or the CPU model). 0, -EINVAL (no documents)
 * or the -errno of a failed write (atomic_stream_error). */
int html_write(FILE *f, const struct view *const *views, const struct jsonr_value *const *docs,
	       const char *const *labels, size_t ndocs);

/* Write the views' plots alone as dir/NAME.svg (latency.svg,
 * lanes_time.svg, ...: those whose sections exist; a stale NAME.svg of a
 * plot with no data is removed), all of them or none (atomic_dir_begin): a
 * failed write leaves dir as it was.
 * dir is created if missing (its parent must exist). 0 or -errno. */
int svg_write_dir(const char *dir, const struct view *const *views, const struct jsonr_value *const *docs,
		  const char *const *labels, size_t ndocs);

#endif
