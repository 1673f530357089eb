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

int plots_bandwidth(struct svg_plot *p, const struct jsonr_value *const *docs, const char *const *labels, size_t n)
{
	int drawn = 0;

	svg_plot_init(p, "bandwidth", "Bandwidth: sequential streams against threads", "threads (one per CPU)",
		      SVG_LOG2, "bandwidth (decimal GB/s, bytes the kernel names)", SVG_LINEAR);
	snprintf(p->note, sizeof(p->note), "a store's read-for-ownership traffic is not counted; best of the trials");
	p->y.include_zero = true;
	for (size_t d = 0; d < n; d++) {
		const struct jsonr_value *k = jsonr_get(docs[d], "bandwidth.kernels");

		for (const struct jsonr_value *e = k && k->type == JSONR_ARRAY ? k->u.children.first : NULL; e; e = e->next) {
			const char *name = jsonr_get_string(e, "kernel");
			char lab[160];
			int s;

			plots_label(lab, sizeof(lab), labels[d], n, name ? name : "?");
			if ((s = plots_series_for(p, lab)) < 0)
				return -ENOMEM;
			svg_plot_point(p, s, summary_number(e, "threads"), summary_number(e, "gbps"), NAN);
			drawn = 1;
		}
	}
	return plots_done(p, drawn);
}

int plots_multicore(struct svg_plot *p, const struct jsonr_value *const *docs, const char *const *labels, size_t n)
{
	int drawn = 0;

	svg_plot_init(p, "multicore", "Multicore: total concurrency against lanes per thread", "lanes K per thread",
		      SVG_LOG2, "total concurrency (accesses in flight, all threads)", SVG_LINEAR);
	snprintf(p->note, sizeof(p->note), "one curve per thread count T; curves that meet: a limit the threads share");
	p->y.include_zero = true;
	for (size_t d = 0; d < n; d++) {
		const struct jsonr_value *pts = jsonr_get(docs[d], "multicore.points");

		for (const struct jsonr_value *e = pts && pts->type == JSONR_ARRAY ? pts->u.children.first : NULL; e; e = e->next) {
			char what[32], lab[160];
			double t = summary_number(e, "threads");
			int s;

			if (!isfinite(t))
				continue;
			snprintf(what, sizeof(what), "T = %.0f", t);
			plots_label(lab, sizeof(lab), labels[d], n, what);
			if ((s = plots_series_for(p, lab)) < 0)
				return -ENOMEM;
			svg_plot_point(p, s, summary_number(e, "lanes"), summary_number(e, "concurrency_total"), NAN);
			drawn = 1;
		}
	}
	return plots_done(p, drawn);
}

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
