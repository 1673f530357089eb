/*
 * Bandwidth and multicore as plots. Bandwidth: each kernel (read, write,
 * copy, non-temporal; scalar and vector) is one series of decimal GB/s
 * against the thread count, so scaling and the point where the memory
 * system saturates read off the slope. Multicore: total concurrency (all
 * threads' accesses in flight, by Little's law) against lanes K, one series
 * per thread count T, so the shared limit shows as curves that meet. The
 * bzip2 decoder: decoded MB/s against K, one series per variant (layout x
 * prefetch, and the fresh output buffer apart), libbz2's one thread as a
 * dashed line, so what the lanes buy the whole decoder reads off against
 * the reference. All read documented keys only and draw what the text
 * report states.
 */
#include "report/plots_throughput.h"

#include "report/plots.h"
#include "report/summary.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

int plots_app_bzip2(struct svg_plot *p, const struct jsonr_value *const *docs, const char *const *labels, size_t n)
{
	int drawn = 0;

	svg_plot_init(p, "app_bzip2", "bzip2 decoder: decoded MB/s against lanes, one thread", "lanes K (inverse-BWT walk)",
		      SVG_LOG2, "decoded MB/s (10^6 bytes of output per second, warm)", SVG_LINEAR);
	snprintf(p->note, sizeof(p->note), "one series per layout and prefetch policy; dashed: libbz2 on one thread, "
		 "same bytes");
	p->y.include_zero = true;
	for (size_t d = 0; d < n; d++) {
		const struct jsonr_value *b = jsonr_get(docs[d], "app.bzip2"), *vars = jsonr_get(b, "variants");
		double ref = summary_number(b, "libbz2_mb_per_s");
		char what[96], lab[160];

		for (const struct jsonr_value *e = vars && vars->type == JSONR_ARRAY ? vars->u.children.first : NULL; e;
		     e = e->next) {
			const char *layout = jsonr_get_string(e, "layout"), *pf = jsonr_get_string(e, "prefetch");
			const char *out = jsonr_get_string(e, "output_buffer");
			int s;

			snprintf(what, sizeof(what), "%s, prefetch %s%s", layout ? layout : "?", pf ? pf : "?",
				 out && !strcmp(out, "fresh") ? ", fresh output" : "");
			plots_label(lab, sizeof(lab), labels[d], n, what);
			if ((s = plots_series_for(p, lab)) < 0)
				return -ENOMEM;
			svg_plot_point(p, s, summary_number(e, "k"), summary_number(e, "mb_per_s"), NAN);
			drawn = 1;
		}
		if (isfinite(ref)) {
			snprintf(what, sizeof(what), "libbz2 %s, %.0f MB/s",
				 jsonr_get_string(b, "libbz2_version") ? jsonr_get_string(b, "libbz2_version") : "?", ref);
			plots_label(lab, sizeof(lab), labels[d], n, what);
			svg_plot_hline(p, ref, lab, SVG_GREY, true);
		}
	}
	return plots_done(p, drawn);
}
